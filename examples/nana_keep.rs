//! Nana without its table, judged by the table: long wins sampled from
//! random games (the side to move wins with perfect play, 26 to 183 plies
//! away, where the evaluation must carry the search), each given to one or
//! more engine builds through the protocol for a fixed time; a build keeps
//! the win when the table says its move still wins. Builds are asked in
//! turn on every position, so a change in the machine's load hits all.
//! The sample is the same for a seed (positions and their mirror images
//! count once); each share comes with a 95% interval, and each build after
//! the first with the paired difference to the first.
//!
//!     cargo run --release --example nana_keep -- --table nana.table \
//!         --engine target/release/koma --engine /tmp/koma-old
//!
//! The table is the one `koma solve nana --out FILE` writes. `--kind draw`
//! asks instead whether drawn positions keep at least the draw.

use clap::Parser;
use koma::core::{Game, TableValue};
use koma::games::nana::Nana;
use koma::games::nana::index::Index;
use koma::games::nana::tablebase::NanaTable;
use koma::learn::table_data::{canonical_key, judging};
use koma::protocol::parse_move;
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

#[derive(Parser)]
#[command(about = "Share of long Nana wins an engine keeps at a fixed time per move")]
struct Args {
    /// The table file (`koma solve nana --out FILE`).
    #[arg(long)]
    table: std::path::PathBuf,
    /// An engine binary; give several to compare them on the same positions.
    #[arg(long, required = true)]
    engine: Vec<String>,
    /// Distinct positions to sample.
    #[arg(long, default_value_t = 1000)]
    positions: usize,
    /// Milliseconds per move (`go movetime`).
    #[arg(long, default_value_t = 100)]
    movetime: u64,
    /// Shortest and longest distance to the win, in plies.
    #[arg(long, default_value_t = 26)]
    min_plies: u32,
    #[arg(long, default_value_t = 183)]
    max_plies: u32,
    /// Seed of the random games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print every lost win.
    #[arg(long)]
    verbose: bool,
    /// `win`: long wins must stay wins; `draw`: drawn positions must not
    /// become losses (the distance range is then ignored).
    #[arg(long, value_enum, default_value_t = Kind::Win)]
    kind: Kind,
    /// Sample only the positions kept out of `nana_tabledata`'s data with
    /// the same `--judging` (one in this many; 1: every position).
    #[arg(long, default_value_t = 1)]
    judging: u64,
}

#[derive(Copy, Clone, PartialEq, Eq, clap::ValueEnum)]
enum Kind {
    Win,
    Draw,
}

/// A small deterministic generator (the same positions on every run).
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

struct Engine {
    name: String,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    fn start(path: &str) -> Result<Engine, String> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {path}: {e}"))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(format!("{path}: no pipes"));
        };
        let mut e = Engine {
            name: path.to_string(),
            child,
            input,
            output: BufReader::new(output),
        };
        e.send("setoption name UCI_Variant value nana")?;
        e.send("setoption name Threads value 1")?;
        e.send("isready")?;
        e.wait_for("readyok")?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}").map_err(|e| format!("{}: {e}", self.name))
    }

    /// Reads lines until one starts with `prefix`; returns it.
    fn wait_for(&mut self, prefix: &str) -> Result<String, String> {
        let mut line = String::new();
        loop {
            line.clear();
            let n = self
                .output
                .read_line(&mut line)
                .map_err(|e| format!("{}: {e}", self.name))?;
            if n == 0 {
                return Err(format!("{} closed its output", self.name));
            }
            if line.starts_with(prefix) {
                return Ok(line.trim_end().to_string());
            }
        }
    }

    /// The engine's move in `pos` after `movetime` ms, from a fresh table.
    fn best_move(&mut self, pos: &Nana, movetime: u64) -> Result<String, String> {
        self.send("ucinewgame")?;
        self.send(&format!("position fen {}", pos.to_text()))?;
        self.send(&format!("go movetime {movetime}"))?;
        let line = self.wait_for("bestmove")?;
        Ok(line.split_whitespace().nth(1).unwrap_or("").to_string())
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

/// Long wins from random games: one position per game, drawn among the
/// game's positions whose value is a win at a distance in the range.
fn sample(table: &NanaTable, args: &Args) -> Vec<(Nana, u32)> {
    let mut rng = Lcg(args.seed);
    let mut seen = HashSet::new();
    let mut out = vec![];
    let mut games = 0;
    while out.len() < args.positions && games < 1_000_000 {
        games += 1;
        let mut pos = Nana::start(&Default::default());
        let mut eligible = vec![];
        for _ in 0..400 {
            if koma::core::game_status(&pos).is_some() {
                break;
            }
            match (args.kind, table.value(&pos)) {
                _ if args.judging > 1 && !judging(canonical_key(&pos), args.judging) => {}
                (Kind::Win, Some(TableValue::Win(d)))
                    if (args.min_plies..=args.max_plies).contains(&d) =>
                {
                    eligible.push((pos.clone(), d))
                }
                (Kind::Draw, Some(TableValue::Draw)) => eligible.push((pos.clone(), 0)),
                _ => {}
            }
            let mut moves = <Nana as Game>::MoveList::default();
            pos.generate(&mut moves);
            pos = pos.play(moves[rng.below(moves.len())]);
        }
        if eligible.is_empty() {
            continue;
        }
        let (p, d) = eligible.swap_remove(rng.below(eligible.len()));
        if seen.insert(canonical_key(&p)) {
            out.push((p, d));
        }
    }
    out
}

/// Whether `mv` (text) keeps the value of `pos`: the win (`Kind::Win`) or
/// at least the draw.
fn keeps(table: &NanaTable, pos: &Nana, mv: &str, kind: Kind) -> Result<bool, String> {
    let text = parse_move(mv).map_err(|e| format!("bad move {mv}: {e}"))?;
    let m = pos
        .find_move(&text)
        .ok_or_else(|| format!("illegal move {mv} in {}", pos.to_text()))?;
    let child = pos.play(m);
    let after = table.value(&child).map(TableValue::before);
    Ok(match kind {
        Kind::Win => matches!(after, Some(TableValue::Win(_))),
        Kind::Draw => matches!(after, Some(TableValue::Win(_) | TableValue::Draw)),
    })
}

/// The 95% Wilson interval of a share `k / n`, in percent.
fn wilson(k: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 100.0);
    }
    let (k, n, z) = (k as f64, n as f64, 1.96f64);
    let p = k / n;
    let mid = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (100.0 * (mid - half), 100.0 * (mid + half))
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let table = match NanaTable::load(Index::get(), &args.table) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("nana_keep: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let positions = sample(&table, &args);
    let what = match args.kind {
        Kind::Win => format!(
            "won positions at {}..={} plies",
            args.min_plies, args.max_plies
        ),
        Kind::Draw => "drawn positions".to_string(),
    };
    eprintln!("{} distinct {what} (seed {})", positions.len(), args.seed);
    if positions.len() < args.positions {
        eprintln!(
            "nana_keep: only {} distinct positions found",
            positions.len()
        );
    }
    let mut engines = vec![];
    for path in &args.engine {
        match Engine::start(path) {
            Ok(e) => engines.push(e),
            Err(e) => {
                eprintln!("nana_keep: {e}");
                return std::process::ExitCode::from(2);
            }
        }
    }
    // Kept values per engine and position; positions by distance band.
    const BANDS: [u32; 3] = [50, 100, u32::MAX];
    let mut kept = vec![vec![false; positions.len()]; engines.len()];
    let mut band_of = vec![0usize; positions.len()];
    for (i, (pos, d)) in positions.iter().enumerate() {
        band_of[i] = BANDS.iter().position(|&b| *d <= b).unwrap_or(2);
        for (e, k) in engines.iter_mut().zip(kept.iter_mut()) {
            let result = e
                .best_move(pos, args.movetime)
                .and_then(|mv| keeps(&table, pos, &mv, args.kind).map(|ok| (mv, ok)));
            match result {
                Ok((_, true)) => k[i] = true,
                Ok((mv, false)) => {
                    if args.verbose {
                        eprintln!(
                            "{}: {mv} loses the value ({d}) of {}",
                            e.name,
                            pos.to_text()
                        );
                    }
                }
                Err(err) => {
                    eprintln!("nana_keep: {err}");
                    return std::process::ExitCode::from(1);
                }
            }
        }
        if (i + 1) % 100 == 0 {
            eprintln!("{} positions", i + 1);
        }
    }
    let total = positions.len();
    let mut tried = [0usize; 3];
    for &b in &band_of {
        tried[b] += 1;
    }
    println!(
        "{total} distinct {what}, seed {}, {} ms per move{}:",
        args.seed,
        args.movetime,
        if args.kind == Kind::Win {
            format!(
                " ({} up to 50, {} 51-100, {} beyond)",
                tried[0], tried[1], tried[2]
            )
        } else {
            String::new()
        }
    );
    let pct = |n: usize, of: usize| 100.0 * n as f64 / of.max(1) as f64;
    for (e, k) in engines.iter().zip(&kept) {
        let all = k.iter().filter(|&&x| x).count();
        let (lo, hi) = wilson(all, total);
        let mut by_band = [0usize; 3];
        for (i, &x) in k.iter().enumerate() {
            by_band[band_of[i]] += usize::from(x);
        }
        let bands = if args.kind == Kind::Win {
            format!(
                "; by band {:.1}% / {:.1}% / {:.1}%",
                pct(by_band[0], tried[0]),
                pct(by_band[1], tried[1]),
                pct(by_band[2], tried[2])
            )
        } else {
            String::new()
        };
        println!(
            "{}: kept {all}/{total} ({:.1}%, 95% {lo:.1}-{hi:.1}%){bands}",
            e.name,
            pct(all, total)
        );
    }
    // Paired differences to the first build: the positions where exactly
    // one of the two kept the value decide it.
    if let Some((first, rest)) = kept.split_first() {
        for (e, k) in engines.iter().skip(1).zip(rest) {
            let only_new = k.iter().zip(first).filter(|&(&b, &a)| b && !a).count();
            let only_first = k.iter().zip(first).filter(|&(&b, &a)| a && !b).count();
            let n = total.max(1) as f64;
            let diff = (only_new as f64 - only_first as f64) / n;
            let var = ((only_new + only_first) as f64 / n - diff * diff) / n;
            println!(
                "{} - {}: {:+.1} +/- {:.1} points (kept only by it {only_new}, only by the first {only_first})",
                e.name,
                engines[0].name,
                100.0 * diff,
                196.0 * var.max(0.0).sqrt()
            );
        }
    }
    std::process::ExitCode::SUCCESS
}
