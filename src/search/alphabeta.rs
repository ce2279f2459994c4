//! The first search: iterative-deepening negamax with alpha-beta, the
//! previous iteration's best move tried first at the root, tactical moves
//! first elsewhere. Repetition and every end of the game are scored by the
//! game's own rules.

use super::{Limits, Outcome, Report, Score, score::MATE};
use crate::core::{End, Game, History, Outcome as GameOutcome};
use std::sync::atomic::{AtomicBool, Ordering};

/// Deepest ply the search visits.
pub const MAX_PLY: usize = 128;

struct Searcher<'a, G: Game> {
    limits: &'a Limits,
    stop: &'a AtomicBool,
    nodes: u64,
    stopped: bool,
    /// Repetition keys: the game so far, then the current search path.
    keys: Vec<u64>,
    /// Triangular PV table: `pv[ply]` holds the line from `ply`.
    pv: Vec<[Option<G::Move>; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
}

/// The score of a finished game for the side to move, `ply` plies from the
/// root: quicker wins and slower losses score better.
fn end_score(end: End, pos_side: crate::core::Color, ply: usize) -> Score {
    match end.outcome {
        GameOutcome::Win(c) if c == pos_side => MATE - ply as i32,
        GameOutcome::Win(_) => -(MATE - ply as i32),
        GameOutcome::Draw => 0,
    }
}

impl<G: Game> Searcher<'_, G> {
    fn check_limits(&mut self) {
        if self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        if let Some(n) = self.limits.nodes
            && self.nodes >= n
        {
            self.stopped = true;
        }
        if self.nodes.is_multiple_of(1024) && self.limits.hard_expired() {
            self.stopped = true;
        }
    }

    fn negamax(&mut self, pos: &G, depth: u32, ply: usize, mut alpha: Score, beta: Score) -> Score {
        self.pv_len[ply] = ply;
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        if let Some(end) = pos.terminal() {
            return end_score(end, pos.side_to_move(), ply);
        }
        // A position seen before on this path or in the game: scored as the
        // game's repetition rule ends it (a draw, or Negaeri's piece count).
        if ply > 0 && self.repeats() {
            return end_score(pos.repetition_end(), pos.side_to_move(), ply);
        }
        if let Some(end) = pos.limit_end() {
            return end_score(end, pos.side_to_move(), ply);
        }
        if depth == 0 || ply + 1 >= MAX_PLY {
            return pos.evaluate();
        }
        let mut moves = G::MoveList::default();
        pos.generate(&mut moves);
        if moves.is_empty() {
            return -(MATE - ply as i32);
        }
        order_tactical_first(pos, &mut moves);
        let mut best = -MATE - 1;
        for &m in moves.iter() {
            let child = pos.play(m);
            self.keys.push(child.repetition_key());
            let s = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha);
            self.keys.pop();
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

    fn repeats(&self) -> bool {
        let Some((&last, rest)) = self.keys.split_last() else {
            return false;
        };
        rest.contains(&last)
    }

    fn update_pv(&mut self, ply: usize, m: G::Move) {
        let next_len = self.pv_len[ply + 1].max(ply + 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][ply] = Some(m);
        head[ply][ply + 1..next_len].copy_from_slice(&tail[0][ply + 1..next_len]);
        self.pv_len[ply] = next_len;
    }

    fn root_pv(&self) -> Vec<G::Move> {
        self.pv[0][..self.pv_len[0]]
            .iter()
            .flatten()
            .copied()
            .collect()
    }
}

/// Tactical moves first, keeping generation order otherwise.
fn order_tactical_first<G: Game>(pos: &G, moves: &mut [G::Move]) {
    let mut front = 0;
    for i in 0..moves.len() {
        if pos.is_tactical(moves[i]) {
            moves[front..=i].rotate_right(1);
            front += 1;
        }
    }
}

/// Searches `root` (whose game so far is `history`, ending with `root`)
/// within `limits` or until `stop`; reports each completed iteration.
pub fn search<G: Game>(
    root: &G,
    history: &History,
    limits: &Limits,
    stop: &AtomicBool,
    mut on_report: impl FnMut(&Report<G::Move>),
) -> Outcome<G::Move> {
    let mut root_moves = G::MoveList::default();
    if root.terminal().is_none() {
        root.generate(&mut root_moves);
    }
    let mut out = Outcome {
        best: root_moves.first().copied(),
        score: 0,
        depth: 0,
        nodes: 0,
        pv: root_moves.first().copied().into_iter().collect(),
    };
    if root_moves.is_empty() {
        return out;
    }
    let mut s = Searcher::<G> {
        limits,
        stop,
        nodes: 0,
        stopped: false,
        keys: history.keys().to_vec(),
        pv: vec![[None; MAX_PLY]; MAX_PLY],
        pv_len: [0; MAX_PLY],
    };
    order_tactical_first(root, &mut root_moves);
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as u32 - 1)
        .clamp(1, MAX_PLY as u32 - 1);
    for depth in 1..=max_depth {
        // The previous iteration's best move first.
        if let Some(best) = out.best
            && let Some(i) = root_moves.iter().position(|&m| m == best)
        {
            root_moves[..=i].rotate_right(1);
        }
        let mut alpha = -MATE - 1;
        let mut best = None;
        s.pv_len[0] = 0;
        for &m in root_moves.iter() {
            let child = root.play(m);
            s.keys.push(child.repetition_key());
            let score = -s.negamax(&child, depth - 1, 1, -MATE - 1, -alpha);
            s.keys.pop();
            if s.stopped {
                break;
            }
            if score > alpha {
                alpha = score;
                best = Some(m);
                s.update_pv(0, m);
            }
        }
        if s.stopped {
            break;
        }
        out = Outcome {
            best,
            score: alpha,
            depth,
            nodes: s.nodes,
            pv: s.root_pv(),
        };
        on_report(&Report {
            depth,
            score: alpha,
            nodes: s.nodes,
            elapsed: limits.elapsed(),
            pv: out.pv.clone(),
        });
        let proven = super::is_mate(alpha) && (MATE - alpha.abs()) as u32 <= depth;
        let out_of_time = limits.soft_expired();
        if proven || out_of_time {
            break;
        }
    }
    out.nodes = s.nodes;
    out
}
