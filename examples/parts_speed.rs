//! Nanoseconds per position of the parts of move generation and evaluation
//! (evaluate, generate, generate_tactical, count_moves, generate and play
//! every move) on positions from random playouts of each game, in the CPU
//! time of this thread (the machine may be shared). For speed work on one
//! part; `koma bench` and `koma perft` measure the whole.
//!
//!     cargo run --release --example parts_speed -- [GAME...]

use koma::core::Searchable;
use koma::games::{GameId, GameVisitor};

/// A small deterministic generator: the same positions on every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// CPU time of this thread, in nanoseconds.
fn cpu_ns() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid clock id and a pointer to a live timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 * 1e9 + t.tv_nsec as f64
}

struct Measure;

impl GameVisitor for Measure {
    type Output = ();

    fn visit<G: Searchable>(self) {
        let rules = G::Rules::default();
        let mut rng = Lcg(3);
        let mut positions = vec![];
        for _ in 0..200 {
            let mut p = G::start(&rules);
            for _ in 0..rng.below(40) {
                if p.terminal().is_some() {
                    break;
                }
                let mut moves = G::MoveList::default();
                p.generate(&mut moves);
                p = p.play(moves[rng.below(moves.len())]);
            }
            if p.terminal().is_none() {
                positions.push(p);
            }
        }
        let n = positions.len();
        let time = |name: &str, f: &dyn Fn(&G) -> i64| {
            let mut best = f64::MAX;
            let mut sink = 0i64;
            for _ in 0..5 {
                let t = cpu_ns();
                for _ in 0..200 {
                    for p in &positions {
                        sink = sink.wrapping_add(f(std::hint::black_box(p)));
                    }
                }
                best = best.min((cpu_ns() - t) / (200 * n) as f64);
            }
            println!("{} {name}: {best:.1} ns per position ({sink})", G::NAME);
        };
        time("evaluate", &|p| i64::from(p.evaluate()));
        time("generate", &|p| {
            let mut moves = G::MoveList::default();
            p.generate(&mut moves);
            moves.len() as i64
        });
        time("generate_tactical", &|p| {
            let mut moves = G::MoveList::default();
            p.generate_tactical(&mut moves);
            moves.len() as i64
        });
        time("count_moves", &|p| p.count_moves() as i64);
        time("generate+play all", &|p| {
            let mut moves = G::MoveList::default();
            p.generate(&mut moves);
            moves.iter().map(|&m| p.play(m).hash() as i64 & 1).sum()
        });
    }
}

fn main() -> std::process::ExitCode {
    let names: Vec<String> = std::env::args().skip(1).collect();
    let games: Vec<GameId> = if names.is_empty() {
        GameId::ALL.to_vec()
    } else {
        let mut games = vec![];
        for name in &names {
            let Some(g) = GameId::from_name(name) else {
                eprintln!("parts_speed: unknown game {name}");
                return std::process::ExitCode::from(2);
            };
            games.push(g);
        }
        games
    };
    for g in games {
        g.visit(Measure);
    }
    std::process::ExitCode::SUCCESS
}
