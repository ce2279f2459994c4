//! One search thread: iterative deepening with aspiration windows over a
//! principal variation search. The main thread (id 0) reports and decides
//! when to stop; helper threads (Lazy SMP) search the same tree through the
//! shared transposition table, half of them one ply deeper, are stopped by
//! the main thread, and vote on the answer with it (`vote`).

use super::ordering::{self, Heuristics, NO_CONT};
use super::path::Path;
use super::score::MATE;
use super::tt::Bound;
use super::{Context, MAX_PLY, Probe, Report, Score, SearchResult, is_mate};
use crate::core::{Color, End, History, Outcome, Searchable, Tuning};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

mod margins;
mod negamax;
mod node;
mod qsearch;

use margins::*;
use node::{NodeKind, Window};

const INF: Score = MATE + 1;
/// Mate scores beyond this are relative to the node and must be shifted
/// by the ply when they pass through the transposition table.
const MATE_BOUND: Score = MATE - 1_000;
/// Quiescence stops after this many plies past the horizon: in a game
/// where captures make more captures (drops that turn pieces, say) the
/// tactical moves can chain for long.
const QS_MAX: usize = 4;
/// Delta pruning margin in quiescence.
const QS_DELTA: Score = 50;
/// The evaluation of a node in check (none).
const NO_EVAL: Score = Score::MIN;
/// `cont_stack` entry of a null move.
const NULL_CONT: usize = NO_CONT - 1;
/// Move numbers the reduction table distinguishes.
const LMR_MOVES: usize = 256;

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
    /// The line found for it; empty until it is searched (no allocation
    /// per root move at every search's start): read it with `line`.
    pub pv: Vec<M>,
}

impl<M: Copy> RootMove<M> {
    /// Its line: the move alone until a search of it found more.
    pub fn line(&self) -> Vec<M> {
        if self.pv.is_empty() {
            vec![self.mv]
        } else {
            self.pv.clone()
        }
    }
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
    /// The best line found from each ply on (a triangular PV). Rows grow
    /// as lines are found rather than being zeroed whole at the start: a
    /// short search reaches a few plies.
    pv: Vec<Vec<G::Move>>,
    scores: Vec<Vec<i32>>,
    tactical: Vec<Vec<bool>>,
    seldepth: usize,
    /// Static evaluations by ply (`NO_EVAL` in check).
    evals: [Score; MAX_PLY + 1],
    /// `cont_key` of the move played at each ply (`NULL_CONT`: a null move).
    cont_stack: [usize; MAX_PLY + 1],
    /// Null moves are off below this ply (a null move's verification).
    nmp_min_ply: usize,
    /// The move left out at each ply (the singular extension's test).
    excluded: [Option<G::Move>; MAX_PLY + 1],
    lmr_table: &'static LmrTable,
    /// The endgame tables, and the hits of every thread.
    tables: Option<(&'a dyn Probe<G>, &'a AtomicU64)>,
    /// Whether the move into each ply was an exit (`Probe::is_exit`); only
    /// kept with tables.
    exited: [bool; MAX_PLY + 1],
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
        tables: Option<(&'a dyn Probe<G>, &'a AtomicU64)>,
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
                pv: Vec::new(),
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
            pv: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            scores: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            tactical: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            seldepth: 0,
            evals: [NO_EVAL; MAX_PLY + 1],
            cont_stack: [NO_CONT; MAX_PLY + 1],
            nmp_min_ply: 0,
            excluded: [None; MAX_PLY + 1],
            lmr_table: lmr_table(&G::TUNING),
            tables,
            exited: [false; MAX_PLY + 1],
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
            if self.main()
                && let Some(poll) = self.ctx.poll
            {
                poll();
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

    /// `m` and then the line found from the next ply.
    fn update_pv(&mut self, ply: usize, m: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// No line yet from `ply`.
    fn clear_pv(&mut self, ply: usize) {
        self.pv[ply].clear();
    }

    fn line(&self, ply: usize) -> Vec<G::Move> {
        self.pv[ply].clone()
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
                        tbhits: self.tables.map_or(0, |(_, h)| h.load(Ordering::Relaxed)),
                        pv: r.line(),
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
                        pv: best.line(),
                    };
                }
                break;
            }
            out = SearchResult {
                best: Some(best.mv),
                score: best.score,
                depth,
                nodes: 0,
                pv: best.line(),
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
        let mut delta = ASPIRATION_DELTA;
        let (mut alpha, mut beta) =
            if depth >= ASPIRATION_MIN_DEPTH && !is_mate(prev) && prev > -INF {
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
            if let Some((t, _)) = self.tables {
                self.exited[1] = t.is_exit(root, m);
            }
            let child = root.play(m);
            let s = self.descend(&child, 0, root.cont_key(m), |w| {
                let window = Window::new(alpha, beta).child();
                if i == pv_idx {
                    return -w.negamax(&child, depth - 1, 1, window, NodeKind::Pv);
                }
                // Late quiet root moves are searched shallower first.
                let n = i - pv_idx + 1;
                let mut r = 0;
                if G::TUNING.root_reductions
                    && depth >= ROOT_LMR_MIN_DEPTH
                    && n >= ROOT_LMR_MIN_MOVE
                    && !check
                    && !root.is_tactical(m)
                    && !child.in_check()
                {
                    r = (w.lmr(depth, n) - 1).clamp(0, depth - 2);
                }
                let scout = Window::above(alpha).child();
                let mut s = -w.negamax(&child, depth - 1 - r, 1, scout, NodeKind::Cut);
                if s > alpha && r > 0 {
                    s = -w.negamax(&child, depth - 1, 1, scout, NodeKind::All);
                }
                if s > alpha && s < beta {
                    s = -w.negamax(&child, depth - 1, 1, window, NodeKind::Pv);
                }
                s
            });
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

    /// Searches `child`, reached from the node at `ply` by a move whose
    /// continuation key is `cont`, by `search`: the one way into a child
    /// (the table's line fetched early, the repetition path and the
    /// continuation stack kept, the node counted) and out of it.
    fn descend<R>(
        &mut self,
        child: &G,
        ply: usize,
        cont: usize,
        search: impl FnOnce(&mut Self) -> R,
    ) -> R {
        self.ctx.tt.prefetch(child.hash());
        self.keys.push(child.repetition_key());
        self.cont_stack[ply] = cont;
        self.visit();
        let r = search(self);
        self.keys.pop();
        r
    }

    /// The late move reduction of move number `n` at `depth`.
    fn lmr(&self, depth: i32, n: usize) -> i32 {
        i32::from(self.lmr_table[depth.clamp(0, 63) as usize][n.min(LMR_MOVES - 1)])
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
