//! One search thread: iterative deepening with aspiration windows over a
//! principal variation search. The main thread (id 0) reports and decides
//! when to stop; helper threads (Lazy SMP) search the same tree through the
//! shared transposition table, half of them one ply deeper, are stopped by
//! the main thread, and vote on the answer with it (`vote`).

use super::ordering::{self, Heuristics, NO_CONT};
use super::path::Path;
use super::score::MATE;
use super::tt::Bound;
use super::{Context, MAX_PLY, Report, Score, SearchResult, is_mate};
use crate::core::{Color, End, History, Outcome, Searchable, Tuning};
use std::sync::Mutex;
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
/// The evaluation of a node in check (none).
const NO_EVAL: Score = Score::MIN;
/// `cont_stack` entry of a null move.
const NULL_CONT: usize = NO_CONT - 1;
/// Move numbers the reduction table distinguishes.
const LMR_MOVES: usize = 256;

/// The quiet and the tactical moves a node searched without a cutoff
/// (the history punishes them when a later move cuts); at most 64 each.
struct SearchedMoves<M> {
    quiet: [Option<M>; 64],
    tactical: [Option<M>; 64],
    counts: [usize; 2],
}

impl<M: Copy> Default for SearchedMoves<M> {
    fn default() -> Self {
        SearchedMoves {
            quiet: [None; 64],
            tactical: [None; 64],
            counts: [0; 2],
        }
    }
}

impl<M: Copy> SearchedMoves<M> {
    fn push(&mut self, m: M, quiet: bool) {
        let (list, n) = if quiet {
            (&mut self.quiet, &mut self.counts[0])
        } else {
            (&mut self.tactical, &mut self.counts[1])
        };
        if *n < list.len() {
            list[*n] = Some(m);
            *n += 1;
        }
    }

    fn quiet(&self) -> impl Iterator<Item = &M> {
        self.quiet[..self.counts[0]].iter().flatten()
    }

    fn tactical(&self) -> impl Iterator<Item = &M> {
        self.tactical[..self.counts[1]].iter().flatten()
    }
}

/// Reductions by depth and move number.
type LmrTable = [[u8; LMR_MOVES]; 64];

/// The reduction table of a tuning: `(base + scale * ln d * ln n) / 100`
/// plies. Made once per (base, scale) and kept for the program's life: a
/// search starts often (the opening generator runs a depth-1 search for
/// every legal move of every playout ply) and the table costs 32k
/// logarithms, far more than a shallow search.
fn lmr_table(t: &Tuning) -> &'static LmrTable {
    type Made = Vec<((i32, i32), &'static LmrTable)>;
    static MADE: Mutex<Made> = Mutex::new(Vec::new());
    let key = (t.lmr_base, t.lmr_scale);
    // A panic elsewhere while the lock was held leaves the list whole.
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&(_, table)) = made.iter().find(|(k, _)| *k == key) {
        return table;
    }
    let table: &'static LmrTable = Box::leak(make_lmr_table(t));
    made.push((key, table));
    table
}

fn make_lmr_table(t: &Tuning) -> Box<LmrTable> {
    let mut table = Box::new([[0u8; LMR_MOVES]; 64]);
    for (d, row) in table.iter_mut().enumerate().skip(1) {
        for (n, r) in row.iter_mut().enumerate().skip(1) {
            let x =
                f64::from(t.lmr_base) + f64::from(t.lmr_scale) * (d as f64).ln() * (n as f64).ln();
            *r = (x / 100.0).clamp(0.0, 60.0) as u8;
        }
    }
    table
}

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

pub struct Worker<'a, G: Searchable> {
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
    /// Static evaluations by ply (`NO_EVAL` in check).
    evals: [Score; MAX_PLY + 1],
    /// `cont_key` of the move played at each ply (`NULL_CONT`: a null move).
    cont_stack: [usize; MAX_PLY + 1],
    /// Null moves are off below this ply (a null move's verification).
    nmp_min_ply: usize,
    lmr_table: &'static LmrTable,
}

/// The score of a finished game for `side`, to move at `ply`. A draw is
/// worth the game's contempt less than nothing to the side to move at the
/// root (and as much more to the other): the search plays on in an equal
/// position rather than repeat it.
fn end_score<G: Searchable>(end: End, side: Color, ply: usize) -> Score {
    match end.outcome {
        Outcome::Win(c) if c == side => MATE - ply as Score,
        Outcome::Win(_) => -(MATE - ply as Score),
        Outcome::Draw if ply.is_multiple_of(2) => -G::TUNING.contempt,
        Outcome::Draw => G::TUNING.contempt,
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

impl<'a, G: Searchable> Worker<'a, G> {
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
            heur: Heuristics::new(G::MOVE_KEYS, G::CONT_KEYS),
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            scores: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            tactical: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            seldepth: 0,
            evals: [NO_EVAL; MAX_PLY + 1],
            cont_stack: [NO_CONT; MAX_PLY + 1],
            nmp_min_ply: 0,
            lmr_table: lmr_table(&G::TUNING),
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
        self.evals[0] = NO_EVAL;
        let check = root.in_check();
        for i in pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let child = root.play(m);
            self.ctx.tt.prefetch(child.hash());
            self.keys.push(child.repetition_key());
            self.cont_stack[0] = root.cont_key(m);
            self.visit();
            let s = if i == pv_idx {
                -self.negamax(&child, depth - 1, 1, -beta, -alpha, true, false, None)
            } else {
                // Late quiet root moves are searched shallower first.
                let n = i - pv_idx + 1;
                let mut r = 0;
                if G::TUNING.root_reductions
                    && depth >= 3
                    && n >= 4
                    && !check
                    && !root.is_tactical(m)
                    && !child.in_check()
                {
                    r = (self.lmr(depth, n) - 1).clamp(0, depth - 2);
                }
                let mut s = -self.negamax(
                    &child,
                    depth - 1 - r,
                    1,
                    -alpha - 1,
                    -alpha,
                    false,
                    true,
                    None,
                );
                if s > alpha && r > 0 {
                    s = -self.negamax(&child, depth - 1, 1, -alpha - 1, -alpha, false, false, None);
                }
                if s > alpha && s < beta {
                    -self.negamax(&child, depth - 1, 1, -beta, -alpha, true, false, None)
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
                    .store(root.hash(), Some(id), to_tt(best, 0), None, depth, bound);
            }
        }
        best
    }

    /// The search of one node below the root. `cut_node`: a node where a
    /// fail high is expected (the null-window children of a PV node's later
    /// moves, and alternately below). `excluded`: a move left out (the
    /// singular extension's test search of the other moves).
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &G,
        depth: i32,
        ply: usize,
        mut alpha: Score,
        mut beta: Score,
        pv_node: bool,
        cut_node: bool,
        excluded: Option<G::Move>,
    ) -> Score {
        // Step 1. Ends: the rules, repetition, limits, mate distance.
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        if self.stopped {
            return 0;
        }
        if let Some(end) = pos.terminal() {
            return end_score::<G>(end, pos.side_to_move(), ply);
        }
        // A position seen before on this path or in the game: scored as the
        // game's repetition rule would end it (a draw, or Negaeri's count).
        if self.repeats() {
            return end_score::<G>(pos.repetition_end(), pos.side_to_move(), ply);
        }
        // No legal move decides before a move-count limit does.
        if let Some(end) = pos.limit_end() {
            return if !pos.has_moves() {
                -(MATE - ply as Score)
            } else {
                end_score::<G>(end, pos.side_to_move(), ply)
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
        // The test search of a singular extension ignores it (the same
        // position with a move left out is another tree).
        let key = pos.hash();
        let hit = if excluded.is_none() {
            self.ctx.tt.probe(key)
        } else {
            None
        };
        let hash_move = hit.and_then(|h| h.move_id);
        let tt_score = hit.map(|h| from_tt(h.score, ply));
        if let (Some(h), Some(s)) = (hit, tt_score)
            && !pv_node
            && h.depth >= depth
        {
            let usable = match h.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if usable {
                return s;
            }
        }

        // Step 4. Static evaluation (kept from the table when it is there),
        // and a better guess from the table's bound when it has one. With
        // the King attacked it says nothing, and no node in check is
        // pruned (mates were lost that way).
        let check = pos.in_check();
        let static_eval = if excluded.is_some() {
            self.evals[ply]
        } else if check {
            NO_EVAL
        } else {
            hit.and_then(|h| h.eval).unwrap_or_else(|| pos.evaluate())
        };
        self.evals[ply] = static_eval;
        let eval = match (hit, tt_score) {
            (Some(h), Some(s)) if !check && !is_mate(s) => match h.bound {
                Bound::Exact => s,
                Bound::Lower if s > static_eval => s,
                Bound::Upper if s < static_eval => s,
                _ => static_eval,
            },
            _ => static_eval,
        };
        // Improving: the evaluation rose since our previous move, so
        // pruning can be bolder where it did not.
        let improving = !check && {
            let before = if ply >= 2 && self.evals[ply - 2] != NO_EVAL {
                Some(self.evals[ply - 2])
            } else if ply >= 4 && self.evals[ply - 4] != NO_EVAL {
                Some(self.evals[ply - 4])
            } else {
                None
            };
            before.is_none_or(|b| static_eval > b)
        };
        self.heur.killers[ply + 1] = [None; 2];
        let tuning = &G::TUNING;

        let prunable = !pv_node && !check && excluded.is_none();
        // Step 5. Reverse futility: far above beta at low depth, a quiet
        // move will not bring the score back below it.
        if prunable
            && depth <= tuning.reverse_futility_depth
            && !is_mate(beta)
            && eval - tuning.reverse_futility * (depth - i32::from(improving)) >= beta
        {
            return (eval + beta) / 2;
        }

        // Step 6. Null move: if passing still fails high, a real move would
        // too (only where the game says passing is a sound lower bound).
        // Deep ones are verified by a search without null moves for this
        // side, against zugzwang.
        if prunable
            && depth >= 3
            && eval >= beta
            && static_eval + 15 * depth >= beta + 45
            && ply >= self.nmp_min_ply
            && self.cont_stack[ply.saturating_sub(1)] != NULL_CONT
            && !is_mate(beta)
            && let Some(null) = pos.play_null()
        {
            let r = (3 + depth / 3 + ((eval - beta) / 200).min(3)).min(depth);
            self.ctx.tt.prefetch(null.hash());
            self.keys.push(null.repetition_key());
            self.cont_stack[ply] = NULL_CONT;
            self.visit();
            let s = -self.negamax(
                &null,
                depth - r,
                ply + 1,
                -beta,
                -beta + 1,
                false,
                !cut_node,
                None,
            );
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if s >= beta && !is_mate(s) {
                if self.nmp_min_ply > 0 || depth < 12 {
                    return s;
                }
                self.nmp_min_ply = ply + (3 * (depth - r) / 4) as usize;
                let v = self.negamax(pos, depth - r, ply, beta - 1, beta, false, false, None);
                self.nmp_min_ply = 0;
                if v >= beta {
                    return s;
                }
            }
        }

        // Step 6b. ProbCut: a tactical move whose reduced search beats
        // beta by a margin would, searched in full, very likely beat beta.
        let probcut_beta = beta + tuning.probcut_margin;
        if tuning.probcut_margin > 0
            && prunable
            && depth >= 5
            && !is_mate(beta)
            && !is_mate(probcut_beta)
            && !matches!((hit, tt_score), (Some(h), Some(s)) if h.depth >= depth - 3 && s < probcut_beta)
        {
            let mut tacticals = G::MoveList::default();
            pos.generate_tactical(&mut tacticals);
            for &m in tacticals.iter() {
                let child = pos.play(m);
                self.ctx.tt.prefetch(child.hash());
                self.keys.push(child.repetition_key());
                self.cont_stack[ply] = pos.cont_key(m);
                self.visit();
                let mut v =
                    -self.qsearch(&child, ply + 1, -probcut_beta, -probcut_beta + 1, 0, None);
                if v >= probcut_beta {
                    v = -self.negamax(
                        &child,
                        depth - 4,
                        ply + 1,
                        -probcut_beta,
                        -probcut_beta + 1,
                        false,
                        !cut_node,
                        None,
                    );
                }
                self.keys.pop();
                if self.stopped {
                    return 0;
                }
                if v >= probcut_beta && !is_mate(v) {
                    self.ctx.tt.store(
                        key,
                        Some(pos.move_id(m)),
                        to_tt(v, ply),
                        (static_eval != NO_EVAL).then_some(static_eval),
                        depth - 3,
                        Bound::Lower,
                    );
                    return v - tuning.probcut_margin;
                }
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
        let node = ordering::Node {
            hash_move,
            ply,
            prev: [
                if ply >= 1 {
                    self.cont_stack[ply - 1]
                } else {
                    NO_CONT
                },
                if ply >= 2 {
                    self.cont_stack[ply - 2]
                } else {
                    NO_CONT
                },
            ],
        };
        ordering::score_moves(pos, &moves, &node, &self.heur, &mut scores, &mut tactical);

        // Step 9. The move loop.
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut move_count = 0usize;
        let mut searched = SearchedMoves::<G::Move>::default();
        // Once the remaining quiet moves are all prunable the list is no
        // longer sorted: games without a King stop there, the others look
        // on for quiet moves that attack the King.
        let mut skip_quiets = false;
        let lmp_limit = (3 + depth * depth) as usize;
        for i in 0..moves.len() {
            if !skip_quiets {
                ordering::pick(&mut moves, &mut scores, &mut tactical, i);
            }
            let m = moves[i];
            if Some(m) == excluded {
                continue;
            }
            move_count += 1;
            let quiet = !tactical[i];
            // Asked only where a decision reads it (quiet moves past the
            // first), and at most once: the test costs a board update.
            let mut gives_check_memo = None;
            let mut gives_check =
                || *gives_check_memo.get_or_insert_with(|| G::CHECKS && pos.gives_check(m));
            let hist = if quiet {
                if scores[i] >= ordering::KILLER {
                    ordering::quiet_history(pos, m, &node, &self.heur)
                } else {
                    scores[i]
                }
            } else {
                0
            };
            let mut new_depth = depth - 1;

            // Step 10. Pruning at shallow depth, before the move is played:
            // with a non-losing move in hand, late quiet moves, quiet moves
            // with a bad history and quiet moves that cannot lift a score
            // far below alpha are skipped. Moves attacking the King stay.
            if !pv_node && !check && best > -MATE_BOUND && quiet && !gives_check() {
                if skip_quiets {
                    continue;
                }
                if move_count >= lmp_limit && depth <= tuning.late_move_depth {
                    skip_quiets = true;
                    if !G::CHECKS {
                        break;
                    }
                    continue;
                }
                let lmr_depth = (new_depth - self.lmr(depth, move_count)).max(0);
                if tuning.history_pruning && lmr_depth < 4 && hist < -2_000 * depth {
                    continue;
                }
                // Not against a mate in hand: no static margin reaches a
                // mate score, so every late quiet move would go, and with
                // them the quicker mates.
                if lmr_depth < 8
                    && !is_mate(alpha)
                    && eval + tuning.futility_base + tuning.futility_per_ply * lmr_depth <= alpha
                {
                    continue;
                }
            }

            // Step 11. Singular extension: a hash move far better than
            // every other move (their search at half depth, with a window
            // below the table's score, fails low) is searched one ply
            // deeper; if another move also beats beta, the node is cut.
            // Not with a mate score in the window: a search at half depth
            // says nothing about how soon a mate comes.
            let mut extension = 0;
            if tuning.singular_extension
                && depth >= 7
                && !is_mate(alpha)
                && !is_mate(beta)
                && excluded.is_none()
                && hash_move == Some(pos.move_id(m))
                && let (Some(h), Some(s)) = (hit, tt_score)
                && h.bound != Bound::Upper
                && h.depth >= depth - 3
                && !is_mate(s)
            {
                let singular_beta = s - 2 * depth;
                let v = self.negamax(
                    pos,
                    (depth - 1) / 2,
                    ply,
                    singular_beta - 1,
                    singular_beta,
                    false,
                    cut_node,
                    Some(m),
                );
                if self.stopped {
                    break;
                }
                if v < singular_beta {
                    extension = 1;
                } else if singular_beta >= beta {
                    // Multi-cut: two moves beat beta.
                    best = singular_beta;
                    break;
                } else if s >= beta {
                    extension = -1;
                }
            }
            new_depth += extension;

            // Step 12. Search: late moves reduced (LMR), the others with a
            // null window first (PVS).
            let child = pos.play(m);
            self.ctx.tt.prefetch(child.hash());
            self.keys.push(child.repetition_key());
            self.cont_stack[ply] = pos.cont_key(m);
            self.visit();
            let s = if move_count == 1 {
                -self.negamax(
                    &child,
                    new_depth,
                    ply + 1,
                    -beta,
                    -alpha,
                    pv_node,
                    !cut_node && !pv_node,
                    None,
                )
            } else {
                let mut r = 0;
                if depth >= 2
                    && quiet
                    && move_count >= if pv_node { 4 } else { 2 }
                    && (tuning.reduce_checks || !(check || gives_check()))
                    // With a mate in hand, only a quicker mate raises
                    // alpha, and a reduced search is too short to show one.
                    && !is_mate(alpha)
                {
                    r = self.lmr(depth, move_count);
                    if pv_node {
                        r -= 1;
                    }
                    if tuning.node_reductions {
                        r += i32::from(cut_node) + i32::from(!improving);
                    }
                    if scores[i] >= ordering::KILLER {
                        r -= 1;
                    }
                    if check || gives_check() {
                        r -= 1;
                    }
                    r -= hist / 12_000;
                    r = r.min(new_depth - 1).max(0);
                }
                let mut s = -self.negamax(
                    &child,
                    new_depth - r,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    false,
                    true,
                    None,
                );
                if s > alpha && r > 0 {
                    s = -self.negamax(
                        &child,
                        new_depth,
                        ply + 1,
                        -alpha - 1,
                        -alpha,
                        false,
                        !cut_node,
                        None,
                    );
                }
                if s > alpha && s < beta && pv_node {
                    s = -self.negamax(&child, new_depth, ply + 1, -beta, -alpha, true, false, None);
                }
                s
            };
            self.keys.pop();
            if self.stopped {
                break;
            }

            // Step 13. A new best move; a cutoff rewards the move in its
            // history (and a quiet one in the killers and the continuation
            // history) and punishes the moves of its kind tried before it.
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if s >= beta {
                        self.reward(pos, m, quiet, depth, &node, &searched);
                        break;
                    }
                }
            }
            searched.push(m, quiet);
        }
        self.scores[ply] = scores;
        self.tactical[ply] = tactical;
        if self.stopped {
            return 0;
        }
        // Only the excluded move, or every move pruned: no result of our own.
        if move_count == 0 || best == -INF {
            return if excluded.is_some() {
                alpha
            } else {
                best.max(-(MATE - ply as Score))
            };
        }

        // Step 14. The result into the transposition table.
        if excluded.is_none() {
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
                (static_eval != NO_EVAL).then_some(static_eval),
                depth,
                bound,
            );
        }
        best
    }

    /// The history updates of a cutoff by `m` at `depth`.
    fn reward(
        &mut self,
        pos: &G,
        m: G::Move,
        quiet: bool,
        depth: i32,
        node: &ordering::Node,
        searched: &SearchedMoves<G::Move>,
    ) {
        let side = pos.side_to_move().index();
        let bonus = ordering::bonus(depth);
        if quiet {
            self.heur.add_killer(node.ply, m);
            let cont = G::TUNING.continuation_history;
            self.heur.update_quiet(side, pos.move_key(m), bonus);
            if cont {
                let ck = pos.cont_key(m);
                self.heur.update_cont(node.prev[0], ck, bonus);
                self.heur.update_cont(node.prev[1], ck, bonus);
            }
            for &q in searched.quiet() {
                self.heur.update_quiet(side, pos.move_key(q), -bonus);
                if cont {
                    let ck = pos.cont_key(q);
                    self.heur.update_cont(node.prev[0], ck, -bonus);
                    self.heur.update_cont(node.prev[1], ck, -bonus);
                }
            }
        } else {
            self.heur.update_tactical(side, pos.move_key(m), bonus);
        }
        for &t in searched.tactical() {
            self.heur.update_tactical(side, pos.move_key(t), -bonus);
        }
    }

    /// The late move reduction of move number `n` at `depth`.
    fn lmr(&self, depth: i32, n: usize) -> i32 {
        i32::from(self.lmr_table[depth.clamp(0, 63) as usize][n.min(LMR_MOVES - 1)])
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
            return end_score::<G>(end, pos.side_to_move(), ply);
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
            return end_score::<G>(end, pos.side_to_move(), ply);
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

#[cfg(test)]
mod lmr_tests {
    use super::*;

    #[test]
    fn the_reduction_table_is_made_once_per_tuning_and_holds_its_formula() {
        let t = Tuning::DEFAULT;
        let a = lmr_table(&t);
        assert!(std::ptr::eq(a, lmr_table(&t)), "made again");
        assert_eq!(*a, *make_lmr_table(&t));
        // (50 + 50 ln 8 ln 20) / 100 = 3.6 plies.
        assert_eq!(a[8][20], 3);
        let other = Tuning {
            lmr_scale: 100,
            ..Tuning::DEFAULT
        };
        let b = lmr_table(&other);
        assert!(!std::ptr::eq(a, b));
        // (50 + 100 ln 8 ln 20) / 100 = 6.7 plies.
        assert_eq!(b[8][20], 6);
        assert_eq!(a[0][20], 0, "no reduction at depth 0");
    }
}
