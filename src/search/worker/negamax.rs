//! The search of one node below the root, in Stockfish's numbered steps:
//! the ends of the game, the horizon, the table, the evaluation, pruning
//! before any move, the move loop, the table's store. A step longer than a
//! few lines is a method of its own, named for it, below `negamax`.

use super::margins::*;
use super::node::{NodeKind, Window};
use super::*;
use crate::core::{MoveList, MoveSink};
use crate::search::score::TABLE_WIN;
use crate::search::tt::Hit;
use std::ops::ControlFlow;

/// The quiet and the tactical moves a node searched without a cutoff
/// (the history punishes them when a later move cuts); at most 64 each.
/// Lists that start empty without writing their room (a node that cuts at
/// its first move never touches it).
struct SearchedMoves<M: Copy> {
    quiet: MoveList<M, 64>,
    tactical: MoveList<M, 64>,
}

impl<M: Copy> Default for SearchedMoves<M> {
    fn default() -> Self {
        SearchedMoves {
            quiet: MoveList::new(),
            tactical: MoveList::new(),
        }
    }
}

impl<M: Copy> SearchedMoves<M> {
    fn push(&mut self, m: M, quiet: bool) {
        let list = if quiet {
            &mut self.quiet
        } else {
            &mut self.tactical
        };
        if list.len() < MoveList::<M, 64>::capacity() {
            list.push(m);
        }
    }

    fn quiet(&self) -> impl Iterator<Item = &M> {
        self.quiet.iter()
    }

    fn tactical(&self) -> impl Iterator<Item = &M> {
        self.tactical.iter()
    }
}

/// What a node knows after the table and its evaluation (steps 3 and 4),
/// for the steps after them.
struct Frame {
    ply: usize,
    depth: i32,
    kind: NodeKind,
    key: u64,
    /// The table's entry, its score made relative to this node.
    hit: Option<Hit>,
    check: bool,
    /// `NO_EVAL` in check.
    static_eval: Score,
    /// The static evaluation, bettered by the table's bound where it can be.
    eval: Score,
    /// The evaluation rose since our previous move.
    improving: bool,
}

impl Frame {
    fn hash_move(&self) -> Option<u32> {
        self.hit.and_then(|h| h.move_id)
    }

    /// The static evaluation as the table keeps it.
    fn stored_eval(&self) -> Option<Score> {
        (self.static_eval != NO_EVAL).then_some(self.static_eval)
    }
}

/// One move of the loop, as steps 10 to 12 read it.
struct Candidate {
    /// Its number among the moves searched (the excluded one not counted).
    count: usize,
    quiet: bool,
    /// A killer or the counter move (ordered by that, not by history).
    killer: bool,
    /// Its history (quiet moves; 0 for the others).
    hist: i32,
}

/// The depths a move is searched to (step 12): `reduced` first, by late
/// move reductions, then `full` when the reduced search beats alpha.
#[derive(Clone, Copy)]
struct Depths {
    full: i32,
    reduced: i32,
}

/// What step 10 does with a quiet move.
enum Shallow {
    Search,
    Skip,
    /// No move after this one is searched.
    Stop,
}

/// What the singular extension's test (step 11) says of the hash move.
enum Singular {
    Extend(i32),
    /// Another move beats beta too: the node is cut with this score.
    MultiCut(Score),
}

impl<G: Searchable> Worker<'_, G> {
    /// The search of one node below the root, of `kind`, for a score in
    /// `w`. `self.excluded[ply]` is a move left out (the singular
    /// extension's test search of the other moves).
    pub(super) fn negamax(
        &mut self,
        pos: &G,
        depth: i32,
        ply: usize,
        w: Window,
        kind: NodeKind,
    ) -> Score {
        let Window {
            mut alpha,
            mut beta,
        } = w;
        // Step 1. Ends: the rules, repetition, limits, mate distance.
        if let Some(s) = self.ends(pos, ply) {
            return s;
        }
        if let Some(s) = self.table_score(pos, ply) {
            return s;
        }
        // Mate distance pruning: no line from here beats a quicker mate.
        alpha = alpha.max(-(MATE - ply as Score));
        beta = beta.min(MATE - ply as Score - 1);
        if alpha >= beta {
            return alpha;
        }

        // Step 2. The horizon: quiescence search.
        if depth <= 0 {
            return self.qsearch(pos, ply, Window::new(alpha, beta), 0, None);
        }

        // Step 3. Transposition table: a deep enough bound ends the node.
        // The test search of a singular extension ignores it (the same
        // position with a move left out is another tree).
        let excluded = self.excluded[ply];
        let key = pos.hash();
        let hit = match self.probe_tt(key, depth, ply, kind, Window::new(alpha, beta)) {
            ControlFlow::Break(s) => return s,
            ControlFlow::Continue(hit) => hit,
        };

        // Step 4. Static evaluation.
        let mut f = self.frame(pos, depth, ply, kind, key, hit);
        self.heur.killers[ply + 1] = [None; 2];
        let tuning = &G::TUNING;

        let prunable = !kind.is_pv() && !f.check && excluded.is_none();
        // Step 5. Reverse futility: far above beta at low depth, a quiet
        // move will not bring the score back below it.
        if prunable
            && depth <= tuning.reverse_futility_depth
            && !is_mate(beta)
            && f.eval - tuning.reverse_futility * (depth - i32::from(f.improving)) >= beta
        {
            return (f.eval + beta) / 2;
        }

        // Step 6. Null move.
        if prunable && let Some(s) = self.null_move(pos, &f, beta) {
            return s;
        }

        // Step 6b. ProbCut.
        if prunable && let Some(s) = self.probcut(pos, &f, beta) {
            return s;
        }

        // Step 7. Internal iterative reduction: with no hash move to try
        // first the ordering is poor, and a shallower search fills the table
        // for the next visit. It costs some mates at a fixed depth; with a
        // clock the next iteration finds them.
        if f.hash_move().is_none() && depth >= IIR_MIN_DEPTH {
            f.depth -= 1;
        }
        self.move_loop(pos, &f, Window::new(alpha, beta))
    }

    /// Steps 8 to 14: the moves generated, ordered and searched in turn,
    /// then the result into the table.
    fn move_loop(&mut self, pos: &G, f: &Frame, w: Window) -> Score {
        let Window { mut alpha, beta } = w;
        let (depth, ply, kind) = (f.depth, f.ply, f.kind);
        let excluded = self.excluded[ply];
        // Step 8. Move generation and ordering.
        let mut moves = G::MoveList::default();
        pos.generate(&mut moves);
        if moves.is_empty() {
            return -(MATE - ply as Score);
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        let mut tactical = std::mem::take(&mut self.tactical[ply]);
        let node = self.ordering_node(ply, f.hash_move());
        let first =
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
        for i in 0..moves.len() {
            if i == 0 {
                // Scoring found the first pick.
                ordering::place(&mut moves, &mut scores, &mut tactical, 0, first);
            } else if !skip_quiets {
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
            let c = self.candidate(pos, m, &node, scores[i], quiet, move_count);

            // Step 10. Pruning at shallow depth, before the move is played:
            // with a non-losing move in hand, late quiet moves, quiet moves
            // with a bad history and quiet moves that cannot lift a score
            // far below alpha are skipped. Moves attacking the King stay.
            if !kind.is_pv() && !f.check && best > -MATE_BOUND && quiet && !gives_check() {
                match self.shallow_prune(f, &c, alpha, &mut skip_quiets) {
                    Shallow::Search => {}
                    Shallow::Skip => continue,
                    Shallow::Stop => break,
                }
            }

            // Step 11. Singular extension.
            let extension = match self.singular(pos, f, m, alpha, beta) {
                _ if self.stopped => break,
                Singular::Extend(e) => e,
                Singular::MultiCut(s) => {
                    best = s;
                    break;
                }
            };
            let new_depth = depth - 1 + extension;

            // Step 12. Search: late moves reduced (LMR), the others with a
            // null window first (PVS).
            let r = self.reduction(f, &c, alpha, new_depth, &mut gives_check);
            let to = Depths {
                full: new_depth,
                reduced: new_depth - r,
            };
            let s = self.search_move(pos, m, f, move_count == 1, to, Window::new(alpha, beta));
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
                    if kind.is_pv() {
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

        if excluded.is_none() {
            self.store(pos, f, best, best_move, Window::new(original_alpha, beta));
        }
        best
    }

    /// Step 14: the node's result into the transposition table, its bound
    /// by where `best` fell in the window the node was searched with.
    fn store(&mut self, pos: &G, f: &Frame, best: Score, best_move: Option<G::Move>, w: Window) {
        let bound = if best >= w.beta {
            Bound::Lower
        } else if best > w.alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let id = best_move.map(|m| pos.move_id(m));
        let (score, eval) = (to_tt(best, f.ply), f.stored_eval());
        (self.ctx.tt).store(f.key, id, score, eval, f.depth, bound);
    }

    /// A move of the loop as steps 10 to 12 read it: `score` its ordering
    /// score, `count` its number among the moves searched.
    fn candidate(
        &self,
        pos: &G,
        m: G::Move,
        node: &ordering::Node,
        score: i32,
        quiet: bool,
        count: usize,
    ) -> Candidate {
        let killer = score >= ordering::KILLER;
        let hist = match (quiet, killer) {
            (false, _) => 0,
            (true, true) => ordering::quiet_history(pos, m, node, &self.heur),
            (true, false) => score,
        };
        Candidate {
            count,
            quiet,
            killer,
            hist,
        }
    }

    /// Step 10 for a quiet move that may be pruned: skipped once the quiet
    /// moves are (`skip_quiets`), or late (move count pruning: the rest of
    /// the quiet moves go, the whole loop in a game without checks), or
    /// futile.
    fn shallow_prune(
        &self,
        f: &Frame,
        c: &Candidate,
        alpha: Score,
        skip_quiets: &mut bool,
    ) -> Shallow {
        if *skip_quiets {
            return Shallow::Skip;
        }
        let lmp_limit = (LMP_BASE + f.depth * f.depth) as usize;
        if c.count >= lmp_limit && f.depth <= G::TUNING.late_move_depth {
            *skip_quiets = true;
            return if G::CHECKS {
                Shallow::Skip
            } else {
                Shallow::Stop
            };
        }
        if self.futile(f, c, alpha) {
            Shallow::Skip
        } else {
            Shallow::Search
        }
    }

    /// Step 3: the table's entry (its score made relative to this node),
    /// or its score when a deep enough bound ends the node. The test search
    /// of a singular extension ignores it (the same position with a move
    /// left out is another tree).
    fn probe_tt(
        &self,
        key: u64,
        depth: i32,
        ply: usize,
        kind: NodeKind,
        w: Window,
    ) -> ControlFlow<Score, Option<Hit>> {
        if self.excluded[ply].is_some() {
            return ControlFlow::Continue(None);
        }
        let hit = self.ctx.tt.probe(key).map(|h| Hit {
            score: from_tt(h.score, ply),
            ..h
        });
        if let Some(h) = hit
            && !kind.is_pv()
            && h.depth >= depth
        {
            let usable = match h.bound {
                Bound::Exact => true,
                Bound::Lower => h.score >= w.beta,
                Bound::Upper => h.score <= w.alpha,
            };
            if usable {
                return ControlFlow::Break(h.score);
            }
        }
        ControlFlow::Continue(hit)
    }

    /// Step 12: move `m` played and searched: the first move with the full
    /// window, the others with a null window at the reduced depth (LMR),
    /// again at full depth when it beats alpha, and with the full window
    /// at PV nodes when it lands inside it (PVS).
    fn search_move(
        &mut self,
        pos: &G,
        m: G::Move,
        f: &Frame,
        first: bool,
        to: Depths,
        w: Window,
    ) -> Score {
        let (ply, kind) = (f.ply, f.kind);
        let Window { alpha, beta } = w;
        if let Some((t, _)) = self.tables {
            self.exited[ply + 1] = t.is_exit(pos, m);
        }
        let child = pos.play(m);
        self.descend(&child, ply, pos.cont_key(m), |wk| {
            if first {
                let kind = kind.first_child();
                return -wk.negamax(&child, to.full, ply + 1, w.child(), kind);
            }
            let scout = Window::above(alpha).child();
            let mut s = -wk.negamax(&child, to.reduced, ply + 1, scout, NodeKind::Cut);
            if s > alpha && to.reduced < to.full {
                s = -wk.negamax(&child, to.full, ply + 1, scout, kind.scout_child());
            }
            if s > alpha && s < beta && kind.is_pv() {
                let full = Window::new(alpha, beta).child();
                s = -wk.negamax(&child, to.full, ply + 1, full, NodeKind::Pv);
            }
            s
        })
    }

    /// Step 1: the score of a node the game or the search ends here, if
    /// it does: the rules, repetition, move-count limits, the deepest ply.
    fn ends(&mut self, pos: &G, ply: usize) -> Option<Score> {
        self.clear_pv(ply);
        self.seldepth = self.seldepth.max(ply);
        if self.stopped {
            return Some(0);
        }
        if let Some(end) = pos.terminal() {
            return Some(end_score::<G>(end, pos.side_to_move(), ply));
        }
        // A position seen before on this path or in the game: scored as the
        // game's repetition rule would end it (a draw, or a count of pieces).
        if self.repeats() {
            return Some(end_score::<G>(
                pos.repetition_end(),
                pos.side_to_move(),
                ply,
            ));
        }
        // No legal move decides before a move-count limit does.
        if let Some(end) = pos.limit_end() {
            return Some(if !pos.has_moves() {
                -(MATE - ply as Score)
            } else {
                end_score::<G>(end, pos.side_to_move(), ply)
            });
        }
        if ply >= MAX_PLY - 1 {
            return Some(pos.evaluate());
        }
        None
    }

    /// Step 1, with endgame tables: after an exit, the tables' value of a
    /// position they hold. A win is `TABLE_WIN` whatever the ply: the
    /// tables give no distance to the end, and a value that does not move
    /// with the ply passes through the transposition table unchanged; the
    /// root plays the tables' own move (by distance) once it is in them.
    fn table_score(&mut self, pos: &G, ply: usize) -> Option<Score> {
        let (tables, hits) = self.tables?;
        if !self.exited[ply] {
            return None;
        }
        let wdl = tables.wdl(pos)?;
        hits.fetch_add(1, Ordering::Relaxed);
        Some(match wdl {
            1.. => TABLE_WIN,
            // A draw, with the contempt `end_score` gives one.
            0 if ply.is_multiple_of(2) => -G::TUNING.contempt,
            0 => G::TUNING.contempt,
            _ => -TABLE_WIN,
        })
    }

    /// Step 4. Static evaluation (kept from the table when it is there),
    /// and a better guess from the table's bound when it has one. With the
    /// King attacked it says nothing, and no node in check is pruned
    /// (mates were lost that way).
    fn frame(
        &mut self,
        pos: &G,
        depth: i32,
        ply: usize,
        kind: NodeKind,
        key: u64,
        hit: Option<Hit>,
    ) -> Frame {
        let check = pos.in_check();
        let static_eval = if self.excluded[ply].is_some() {
            self.evals[ply]
        } else if check {
            NO_EVAL
        } else {
            hit.and_then(|h| h.eval).unwrap_or_else(|| pos.evaluate())
        };
        self.evals[ply] = static_eval;
        let eval = match hit {
            Some(h) if !check && !is_mate(h.score) => match h.bound {
                Bound::Exact => h.score,
                Bound::Lower if h.score > static_eval => h.score,
                Bound::Upper if h.score < static_eval => h.score,
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
        Frame {
            ply,
            depth,
            kind,
            key,
            hit,
            check,
            static_eval,
            eval,
            improving,
        }
    }

    /// Step 6. Null move: if passing still fails high, a real move would
    /// too (only where the game says passing is a sound lower bound). Deep
    /// ones are verified by a search without null moves for this side,
    /// against zugzwang. The node's score if it is cut.
    fn null_move(&mut self, pos: &G, f: &Frame, beta: Score) -> Option<Score> {
        let (depth, ply, eval) = (f.depth, f.ply, f.eval);
        if depth < NMP_MIN_DEPTH
            || eval < beta
            || f.static_eval + NMP_EVAL_PER_PLY * depth < beta + NMP_EVAL_BASE
            || ply < self.nmp_min_ply
            || self.cont_stack[ply.saturating_sub(1)] == NULL_CONT
            || is_mate(beta)
        {
            return None;
        }
        let null = pos.play_null()?;
        let r = (NMP_REDUCTION
            + depth / NMP_DEPTH_PER_REDUCTION
            + ((eval - beta) / NMP_EVAL_PER_REDUCTION).min(NMP_MAX_EVAL_REDUCTION))
        .min(depth);
        let s = self.descend(&null, ply, NULL_CONT, |w| {
            let kind = f.kind.scout_child();
            -w.negamax(
                &null,
                depth - r,
                ply + 1,
                Window::reaching(beta).child(),
                kind,
            )
        });
        if self.stopped {
            return Some(0);
        }
        if s < beta || is_mate(s) {
            return None;
        }
        if self.nmp_min_ply > 0 || depth < NMP_VERIFY_DEPTH {
            return Some(s);
        }
        // The verification: no null move for this side in the first
        // three quarters of the remaining depth.
        self.nmp_min_ply = ply + (3 * (depth - r) / 4) as usize;
        let v = self.negamax(pos, depth - r, ply, Window::reaching(beta), NodeKind::All);
        self.nmp_min_ply = 0;
        (v >= beta).then_some(s)
    }

    /// Step 6b. ProbCut: a tactical move whose reduced search beats beta by
    /// a margin would, searched in full, very likely beat beta. The node's
    /// score if it is cut.
    fn probcut(&mut self, pos: &G, f: &Frame, beta: Score) -> Option<Score> {
        let margin = G::TUNING.probcut_margin;
        let probcut_beta = beta + margin;
        let (depth, ply) = (f.depth, f.ply);
        if margin <= 0
            || depth < PROBCUT_MIN_DEPTH
            || is_mate(beta)
            || is_mate(probcut_beta)
            || matches!(f.hit, Some(h) if h.depth >= depth - PROBCUT_TT_REDUCTION && h.score < probcut_beta)
        {
            return None;
        }
        let mut tacticals = G::MoveList::default();
        pos.generate_tactical(&mut tacticals);
        let window = Window::reaching(probcut_beta).child();
        for &m in tacticals.iter() {
            let child = pos.play(m);
            let v = self.descend(&child, ply, pos.cont_key(m), |w| {
                let v = -w.qsearch(&child, ply + 1, window, 0, None);
                if v < probcut_beta {
                    return v;
                }
                let (d, kind) = (depth - PROBCUT_REDUCTION, f.kind.scout_child());
                -w.negamax(&child, d, ply + 1, window, kind)
            });
            if self.stopped {
                return Some(0);
            }
            if v >= probcut_beta && !is_mate(v) {
                self.ctx.tt.store(
                    f.key,
                    Some(pos.move_id(m)),
                    to_tt(v, ply),
                    f.stored_eval(),
                    depth - PROBCUT_TT_REDUCTION,
                    Bound::Lower,
                );
                return Some(v - margin);
            }
        }
        None
    }

    /// Step 8's ordering context: the hash move and the moves that led here.
    fn ordering_node(&self, ply: usize, hash_move: Option<u32>) -> ordering::Node {
        let prev = |back: usize| {
            if ply >= back {
                self.cont_stack[ply - back]
            } else {
                NO_CONT
            }
        };
        ordering::Node {
            hash_move,
            ply,
            prev: [prev(1), prev(2)],
        }
    }

    /// Step 10, past late move pruning: whether a quiet move's history is
    /// too bad, or the evaluation too far below alpha, for it to be tried.
    fn futile(&self, f: &Frame, c: &Candidate, alpha: Score) -> bool {
        let tuning = &G::TUNING;
        let depth = f.depth;
        let lmr_depth = (depth - 1 - self.lmr(depth, c.count)).max(0);
        if tuning.history_pruning
            && lmr_depth < HISTORY_PRUNING_DEPTH
            && c.hist < -HISTORY_PRUNING_PER_PLY * depth
        {
            return true;
        }
        // Not against a mate in hand: no static margin reaches a mate
        // score, so every late quiet move would go, and with them the
        // quicker mates.
        lmr_depth < FUTILITY_DEPTH
            && !is_mate(alpha)
            && f.eval + tuning.futility_base + tuning.futility_per_ply * lmr_depth <= alpha
    }

    /// Step 11. Singular extension: a hash move far better than every
    /// other move (their search at half depth, with a window below the
    /// table's score, fails low) is searched one ply deeper; if another
    /// move also beats beta, the node is cut. Not with a mate score in the
    /// window: a search at half depth says nothing about how soon a mate
    /// comes.
    fn singular(&mut self, pos: &G, f: &Frame, m: G::Move, alpha: Score, beta: Score) -> Singular {
        let (depth, ply) = (f.depth, f.ply);
        let Some(h) = f.hit else {
            return Singular::Extend(0);
        };
        if !G::TUNING.singular_extension
            || depth < SINGULAR_MIN_DEPTH
            || is_mate(alpha)
            || is_mate(beta)
            || self.excluded[ply].is_some()
            || f.hash_move() != Some(pos.move_id(m))
            || h.bound == Bound::Upper
            || h.depth < depth - SINGULAR_TT_REDUCTION
            || is_mate(h.score)
        {
            return Singular::Extend(0);
        }
        let singular_beta = h.score - SINGULAR_MARGIN_PER_PLY * depth;
        self.excluded[ply] = Some(m);
        let window = Window::reaching(singular_beta);
        let v = self.negamax(pos, (depth - 1) / 2, ply, window, f.kind.off_pv());
        self.excluded[ply] = None;
        if v < singular_beta {
            Singular::Extend(1)
        } else if singular_beta >= beta {
            Singular::MultiCut(singular_beta)
        } else if h.score >= beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }

    /// Step 12's late move reduction of a move searched after the first.
    fn reduction(
        &self,
        f: &Frame,
        c: &Candidate,
        alpha: Score,
        new_depth: i32,
        gives_check: &mut impl FnMut() -> bool,
    ) -> i32 {
        let tuning = &G::TUNING;
        let pv = f.kind.is_pv();
        let first_reduced = if pv {
            LMR_FIRST_MOVE_PV
        } else {
            LMR_FIRST_MOVE
        };
        if c.count == 1
            || f.depth < LMR_MIN_DEPTH
            || !c.quiet
            || c.count < first_reduced
            || !(tuning.reduce_checks || !(f.check || gives_check()))
            // With a mate in hand, only a quicker mate raises alpha, and a
            // reduced search is too short to show one.
            || is_mate(alpha)
        {
            return 0;
        }
        let mut r = self.lmr(f.depth, c.count);
        if pv {
            r -= 1;
        }
        if tuning.node_reductions {
            r += i32::from(f.kind.is_cut()) + i32::from(!f.improving);
        }
        if c.killer {
            r -= 1;
        }
        if f.check || gives_check() {
            r -= 1;
        }
        r -= c.hist / LMR_HISTORY_PER_PLY;
        r.min(new_depth - 1).max(0)
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
}
