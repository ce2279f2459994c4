//! One search thread: iterative deepening with aspiration windows over a
//! principal variation search. The main thread (id 0) reports and decides;
//! helper threads (Lazy SMP) search the same tree through the shared
//! transposition table, half of them one ply deeper, and are stopped by
//! the main thread.

use super::ordering::{self, Heuristics};
use super::path::Path;
use super::score::MATE;
use super::tt::Bound;
use super::{Context, MAX_PLY, Report, Score, SearchResult, is_mate};
use crate::core::{Color, End, Game, History, Outcome};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

const INF: Score = MATE + 1;
/// Mate scores beyond this are relative to the node and must be shifted
/// by the ply when they pass through the transposition table.
const MATE_BOUND: Score = MATE - 1_000;
/// Quiescence stops after this many plies past the horizon: flips and
/// drops in Negaeri can chain for long.
const QS_MAX: usize = 4;
/// Delta pruning margin in quiescence.
const QS_DELTA: Score = 50;

#[derive(Clone, Debug)]
pub struct RootMove<M> {
    pub mv: M,
    pub score: Score,
    /// The iteration that gave `score`.
    pub depth: u32,
    /// Whether `score` is exact (inside its window), not a bound.
    pub exact: bool,
    pub pv: Vec<M>,
}

pub struct Worker<'a, G: Game> {
    root: &'a G,
    ctx: &'a Context<'a>,
    stop: &'a AtomicBool,
    shared_nodes: &'a AtomicU64,
    id: usize,
    /// Nodes not yet added to `shared_nodes`.
    unflushed: u64,
    stopped: bool,
    /// Repetition keys: the game so far, then the current path.
    keys: Path,
    pub root_moves: Vec<RootMove<G::Move>>,
    heur: Heuristics<G::Move>,
    pv: Vec<[Option<G::Move>; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    scores: Vec<Vec<i32>>,
    tactical: Vec<Vec<bool>>,
    seldepth: usize,
}

/// Reductions for late quiet moves, by depth and move number: about
/// ln(depth) * ln(n) / 2, as in most engines.
fn lmr(depth: i32, n: usize) -> i32 {
    let d = (depth.max(1) as f64).ln();
    let m = (n.max(1) as f64).ln();
    (0.5 + d * m / 2.0) as i32
}

fn end_score(end: End, side: Color, ply: usize) -> Score {
    match end.outcome {
        Outcome::Win(c) if c == side => MATE - ply as Score,
        Outcome::Win(_) => -(MATE - ply as Score),
        Outcome::Draw => 0,
    }
}

fn to_tt(s: Score, ply: usize) -> Score {
    if s > MATE_BOUND {
        s + ply as Score
    } else if s < -MATE_BOUND {
        s - ply as Score
    } else {
        s
    }
}

fn from_tt(s: Score, ply: usize) -> Score {
    if s > MATE_BOUND {
        s - ply as Score
    } else if s < -MATE_BOUND {
        s + ply as Score
    } else {
        s
    }
}

impl<'a, G: Game> Worker<'a, G> {
    pub fn new(
        root: &'a G,
        history: &History,
        ctx: &'a Context<'a>,
        shared_nodes: &'a AtomicU64,
        stop: &'a AtomicBool,
        id: usize,
    ) -> Self {
        let mut moves = G::MoveList::default();
        if root.terminal().is_none() {
            root.generate(&mut moves);
        }
        let root_moves = moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INF,
                depth: 0,
                exact: false,
                pv: vec![mv],
            })
            .collect();
        Worker {
            root,
            ctx,
            stop,
            shared_nodes,
            id,
            unflushed: 0,
            stopped: false,
            keys: Path::new(history.keys()),
            root_moves,
            heur: Heuristics::new(G::MOVE_KEYS),
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            scores: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            tactical: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            seldepth: 0,
        }
    }

    fn main(&self) -> bool {
        self.id == 0
    }

    fn nodes(&self) -> u64 {
        self.shared_nodes.load(Ordering::Relaxed) + self.unflushed
    }

    /// Counts a node and checks the limits (time every 1024 nodes).
    fn visit(&mut self) {
        self.unflushed += 1;
        if let Some(n) = self.ctx.limits.nodes
            && self.main()
            && self.nodes() >= n
        {
            self.stopped = true;
        }
        if self.unflushed >= 1024 {
            self.shared_nodes
                .fetch_add(self.unflushed, Ordering::Relaxed);
            self.unflushed = 0;
            if self.stop.load(Ordering::Relaxed)
                || self.ctx.stop.load(Ordering::Relaxed)
                || (self.main() && self.ctx.limits.hard_expired())
            {
                self.stopped = true;
            }
        }
    }

    fn flush(&mut self) {
        self.shared_nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    fn repeats(&self) -> bool {
        self.keys.last_repeats()
    }

    fn update_pv(&mut self, ply: usize, m: G::Move) {
        let next_len = self.pv_len[ply + 1].max(ply + 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][ply] = Some(m);
        head[ply][ply + 1..next_len].copy_from_slice(&tail[0][ply + 1..next_len]);
        self.pv_len[ply] = next_len;
    }

    fn line(&self, ply: usize) -> Vec<G::Move> {
        self.pv[ply][ply..self.pv_len[ply]]
            .iter()
            .flatten()
            .copied()
            .collect()
    }

    /// Iterative deepening; returns the best move of the deepest completed
    /// iteration (or of a partial one whose first move was searched).
    pub fn iterate(&mut self, report: &mut dyn FnMut(&Report<G::Move>)) -> SearchResult<G::Move> {
        let limits = self.ctx.limits;
        let settings = &self.ctx.settings;
        let mut max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 1);
        if let Some(d) = settings.skill.max_depth() {
            max_depth = max_depth.min(d);
        }
        let max_depth = max_depth.clamp(1, MAX_PLY as u32 - 1);
        let multipv = settings
            .skill
            .lines()
            .unwrap_or(settings.multipv)
            .clamp(1, self.root_moves.len());
        let first = self.root_moves[0].mv;
        let mut out = SearchResult {
            best: Some(first),
            score: 0,
            depth: 0,
            nodes: 0,
            pv: vec![first],
        };
        let mut depth = 1 + (self.id % 2) as u32;
        while depth <= max_depth {
            self.seldepth = 0;
            for pv_idx in 0..multipv {
                self.aspiration(depth, pv_idx);
                if self.stopped {
                    break;
                }
                if self.main() {
                    self.flush();
                    let r = &self.root_moves[pv_idx];
                    report(&Report {
                        depth,
                        seldepth: self.seldepth.max(depth as usize) as u32,
                        multipv: pv_idx + 1,
                        score: r.score,
                        nodes: self.nodes(),
                        elapsed: limits.elapsed(),
                        hashfull: self.ctx.tt.hashfull(),
                        pv: r.pv.clone(),
                    });
                }
            }
            let best = &self.root_moves[0];
            if self.stopped {
                // A partial iteration counts once its first move is done.
                if best.depth == depth && best.exact {
                    out = SearchResult {
                        best: Some(best.mv),
                        score: best.score,
                        depth,
                        nodes: 0,
                        pv: best.pv.clone(),
                    };
                }
                break;
            }
            out = SearchResult {
                best: Some(best.mv),
                score: best.score,
                depth,
                nodes: 0,
                pv: best.pv.clone(),
            };
            if !self.main() {
                depth += 1;
                continue;
            }
            let proven = is_mate(out.score) && (MATE - out.score.abs()) as u32 <= depth;
            if (proven && multipv == 1) || limits.soft_expired() {
                break;
            }
            depth += 1;
        }
        self.flush();
        out
    }

    /// Searches root line `pv_idx` at `depth`, with a window around the
    /// previous score that widens on failure.
    fn aspiration(&mut self, depth: u32, pv_idx: usize) {
        let prev = self.root_moves[pv_idx].score;
        let mut delta = 30;
        let (mut alpha, mut beta) = if depth >= 4 && !is_mate(prev) && prev > -INF {
            (prev - delta, prev + delta)
        } else {
            (-INF, INF)
        };
        loop {
            let s = self.root_search(depth as i32, pv_idx, alpha, beta);
            if self.stopped {
                return;
            }
            if s <= alpha && alpha > -INF {
                alpha = (s - delta).max(-INF);
            } else if s >= beta && beta < INF {
                beta = (s + delta).min(INF);
            } else {
                return;
            }
            delta *= 2;
        }
    }

    fn root_search(&mut self, depth: i32, pv_idx: usize, mut alpha: Score, beta: Score) -> Score {
        let root = self.root;
        let mut best = -INF;
        for i in pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let child = root.play(m);
            self.keys.push(child.repetition_key());
            self.visit();
            let s = if i == pv_idx {
                -self.negamax(&child, depth - 1, 1, -beta, -alpha, true)
            } else {
                let s = -self.negamax(&child, depth - 1, 1, -alpha - 1, -alpha, false);
                if s > alpha && s < beta {
                    -self.negamax(&child, depth - 1, 1, -beta, -alpha, true)
                } else {
                    s
                }
            };
            self.keys.pop();
            if self.stopped {
                return best;
            }
            let line = if i == pv_idx || s > alpha {
                self.line(1)
            } else {
                Vec::new()
            };
            let rm = &mut self.root_moves[i];
            rm.depth = depth as u32;
            if i == pv_idx || s > alpha {
                rm.score = s;
                rm.exact = s > alpha && s < beta;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend(line);
            } else {
                rm.score = -INF;
                rm.exact = false;
            }
            if s > best {
                best = s;
            }
            if s > alpha {
                alpha = s;
                if s >= beta {
                    break;
                }
            }
        }
        // Best first, the others keeping their order (stable).
        self.root_moves[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
        if let Some(r) = self.root_moves.get(pv_idx) {
            let id = root.move_id(r.mv);
            let bound = if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            if pv_idx == 0 && best > -INF {
                self.ctx
                    .tt
                    .store(root.hash(), Some(id), to_tt(best, 0), depth, bound);
            }
        }
        best
    }

    fn negamax(
        &mut self,
        pos: &G,
        depth: i32,
        ply: usize,
        mut alpha: Score,
        mut beta: Score,
        pv_node: bool,
    ) -> Score {
        // Step 1. Ends: the rules, repetition, limits, mate distance.
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        if self.stopped {
            return 0;
        }
        if let Some(end) = pos.terminal() {
            return end_score(end, pos.side_to_move(), ply);
        }
        // A position seen before on this path or in the game: scored as the
        // game's repetition rule would end it (a draw, or Negaeri's count).
        if self.repeats() {
            return end_score(pos.repetition_end(), pos.side_to_move(), ply);
        }
        // No legal move decides before a move-count limit does.
        if let Some(end) = pos.limit_end() {
            return if !pos.has_moves() {
                -(MATE - ply as Score)
            } else {
                end_score(end, pos.side_to_move(), ply)
            };
        }
        if ply >= MAX_PLY - 1 {
            return pos.evaluate();
        }
        // Mate distance pruning: no line from here beats a quicker mate.
        alpha = alpha.max(-(MATE - ply as Score));
        beta = beta.min(MATE - ply as Score - 1);
        if alpha >= beta {
            return alpha;
        }
        // Step 2. The horizon: quiescence search.
        if depth <= 0 {
            return self.qsearch(pos, ply, alpha, beta, 0, None);
        }

        // Step 3. Transposition table: a deep enough bound ends the node.
        let key = pos.hash();
        let hit = self.ctx.tt.probe(key);
        let hash_move = hit.and_then(|h| h.move_id);
        if let Some(h) = hit
            && !pv_node
            && h.depth >= depth
        {
            let s = from_tt(h.score, ply);
            let usable = match h.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if usable {
                return s;
            }
        }

        // Step 4. Static evaluation. With the King attacked it says nothing,
        // and no node in check is pruned (mates were lost that way).
        let eval = pos.evaluate();
        let check = pos.in_check();
        // Step 5. Reverse futility: far above beta at low depth, a quiet move will
        // not bring the score back below it.
        if !pv_node && !check && depth <= 4 && !is_mate(beta) && eval - 90 * depth >= beta {
            return eval;
        }
        // Step 6. Null move: if passing still fails high, a real move would too
        // (only where the game says passing is a sound lower bound).
        if !pv_node
            && !check
            && depth >= 3
            && eval >= beta
            && !is_mate(beta)
            && let Some(null) = pos.play_null()
        {
            let r = 3 + depth / 4;
            self.keys.push(null.repetition_key());
            self.visit();
            let s = -self.negamax(&null, depth - 1 - r, ply + 1, -beta, -beta + 1, false);
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if s >= beta {
                return if is_mate(s) { beta } else { s };
            }
        }

        // Step 7. Internal iterative reduction: with no hash move to try
        // first the ordering is poor, and a shallower search fills the table
        // for the next visit. It costs some mates at a fixed depth; with a
        // clock the next iteration finds them.
        let depth = if hash_move.is_none() && depth >= 4 {
            depth - 1
        } else {
            depth
        };

        // Step 8. Move generation and ordering.
        let mut moves = G::MoveList::default();
        pos.generate(&mut moves);
        if moves.is_empty() {
            return -(MATE - ply as Score);
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        let mut tactical = std::mem::take(&mut self.tactical[ply]);
        ordering::score_moves(
            pos,
            &moves,
            hash_move,
            ply,
            &self.heur,
            &mut scores,
            &mut tactical,
        );

        // Step 9. The move loop.
        let side = pos.side_to_move().index();
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for i in 0..moves.len() {
            ordering::pick(&mut moves, &mut scores, &mut tactical, i);
            let m = moves[i];
            let quiet = !tactical[i];
            let child = pos.play(m);
            // Step 10. Late move and futility pruning: near the horizon, with a
            // non-losing move in hand, late quiet moves and quiet moves
            // that cannot lift a score far below alpha are skipped.
            if !pv_node
                && !check
                && quiet
                && i > 0
                && depth <= 3
                && best > -MATE_BOUND
                && (i >= 3 + (depth * depth) as usize || eval + 100 * depth <= alpha)
                && !child.in_check()
            {
                continue;
            }
            // Step 11. Search: late quiet moves reduced (LMR), the others
            // with a null window first (PVS).
            self.keys.push(child.repetition_key());
            self.visit();
            let s = if i == 0 {
                -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha, pv_node)
            } else {
                // Late quiet moves are searched shallower first; a move
                // that beats alpha there is searched again at full depth.
                let mut r = 0;
                if depth >= 3
                    && quiet
                    && !check
                    && i >= if pv_node { 4 } else { 2 }
                    && !child.in_check()
                {
                    r = lmr(depth, i);
                    if pv_node {
                        r -= 1;
                    }
                    if scores[i] >= ordering::KILLER {
                        r -= 1;
                    }
                    r = r.clamp(0, depth - 2);
                }
                let mut s =
                    -self.negamax(&child, depth - 1 - r, ply + 1, -alpha - 1, -alpha, false);
                if s > alpha && r > 0 {
                    s = -self.negamax(&child, depth - 1, ply + 1, -alpha - 1, -alpha, false);
                }
                if s > alpha && s < beta && pv_node {
                    s = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha, true);
                }
                s
            };
            self.keys.pop();
            if self.stopped {
                break;
            }
            // Step 12. A new best move; a cutoff rewards the quiet move in
            // the killers and the history and punishes the ones before it.
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    best_move = Some(m);
                    self.update_pv(ply, m);
                    if s >= beta {
                        if quiet {
                            let bonus = depth * depth * 16;
                            self.heur.add_killer(ply, m);
                            self.heur.update_history(side, pos.move_key(m), bonus);
                            for &q in moves[..i]
                                .iter()
                                .zip(&tactical[..i])
                                .filter(|(_, t)| !**t)
                                .map(|(q, _)| q)
                            {
                                self.heur.update_history(side, pos.move_key(q), -bonus);
                            }
                        }
                        break;
                    }
                }
            }
        }
        self.scores[ply] = scores;
        self.tactical[ply] = tactical;
        if self.stopped {
            return 0;
        }
        // Step 13. The result into the transposition table.
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.ctx.tt.store(
            key,
            best_move.map(|m| pos.move_id(m)),
            to_tt(best, ply),
            depth,
            bound,
        );
        best
    }

    /// Tactical moves only, until the position is quiet: the side to move
    /// may also stand pat on its static evaluation. `known_eval` is that
    /// evaluation when the caller already has it (delta pruning computed
    /// it): evaluations are the larger part of a quiescence node.
    fn qsearch(
        &mut self,
        pos: &G,
        ply: usize,
        mut alpha: Score,
        beta: Score,
        qply: usize,
        known_eval: Option<Score>,
    ) -> Score {
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        if self.stopped {
            return 0;
        }
        if ply > 0
            && let Some(end) = pos.terminal()
        {
            return end_score(end, pos.side_to_move(), ply);
        }
        // No special case for a King in check here: searching every reply
        // found a few more mates but lost games (measured, see the log).
        let mut moves = G::MoveList::default();
        pos.generate_tactical(&mut moves);
        if moves.is_empty() && !pos.has_moves() {
            return -(MATE - ply as Score);
        }
        if ply > 0
            && let Some(end) = pos.limit_end()
        {
            return end_score(end, pos.side_to_move(), ply);
        }
        let stand = known_eval.unwrap_or_else(|| pos.evaluate());
        if stand >= beta || ply >= MAX_PLY - 1 || qply >= QS_MAX {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        for &m in moves.iter() {
            let child = pos.play(m);
            // Delta pruning: a move that even before the reply leaves us
            // clearly below alpha is not worth resolving.
            let child_eval = if child.terminal().is_none() {
                let e = child.evaluate();
                if -e + QS_DELTA <= alpha {
                    continue;
                }
                Some(e)
            } else {
                None
            };
            self.visit();
            let s = -self.qsearch(&child, ply + 1, -beta, -alpha, qply + 1, child_eval);
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    self.update_pv(ply, m);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
