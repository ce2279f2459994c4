//! Quiescence search: tactical moves only past the horizon, until the
//! position is quiet.

use super::*;

impl<G: Searchable> Worker<'_, G> {
    /// Tactical moves only, until the position is quiet: the side to move
    /// may also stand pat on its static evaluation. `known_eval` is that
    /// evaluation when the caller already has it (delta pruning computed
    /// it): evaluations are the larger part of a quiescence node.
    pub(super) fn qsearch(
        &mut self,
        pos: &G,
        ply: usize,
        w: Window,
        qply: usize,
        known_eval: Option<Score>,
    ) -> Score {
        let Window { mut alpha, beta } = w;
        self.clear_pv(ply);
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
        let stand = known_eval.unwrap_or_else(|| pos.evaluate());
        // Standing pat, the node needs no tactical move: only whether it
        // has a move at all (having none loses) and the limits. Otherwise
        // an empty tactical list asks the same.
        let stands = stand >= beta || ply >= MAX_PLY - 1 || qply >= QS_MAX;
        let mut moves = G::MoveList::default();
        if !stands {
            pos.generate_tactical(&mut moves);
        }
        if (stands || moves.is_empty()) && !pos.has_moves() {
            return -(MATE - ply as Score);
        }
        if ply > 0
            && let Some(end) = pos.limit_end()
        {
            return end_score::<G>(end, pos.side_to_move(), ply);
        }
        if stands {
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
            let s = -self.qsearch(
                &child,
                ply + 1,
                Window::new(alpha, beta).child(),
                qply + 1,
                child_eval,
            );
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
