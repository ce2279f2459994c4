//! Negaeri Shogi statistics from engine-vs-engine games, as in the seed's
//! AI-vs-AI experiments: average flips per move, share of games with a chain
//! of three or more levels, and the first player's results, under any rule
//! options. Games run in-process on Koma's rules and search; weaker levels
//! choose randomly among near-best moves, so games vary.
//!
//!     cargo run --release --example negaeri_stats -- --games 40 --edge false

use clap::Parser;
use koma::core::{Color, Game, History, OptionValue, Outcome, Rules, status_with_history};
use koma::games::negaeri::{Negaeri, NegaeriRules};
use koma::search::{self, Context, Limits, Settings, Skill, Tt};
use std::sync::atomic::AtomicBool;

#[derive(Parser)]
#[command(about = "Negaeri Shogi self-play statistics (flips, chains, first-player wins)")]
struct Args {
    /// Games to play.
    #[arg(long, default_value_t = 40)]
    games: u32,
    /// NegaeriEdge: the board edge closes a sandwich.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    edge: bool,
    /// NegaeriEqualHands: the first player starts with 3 pawns, not 4.
    #[arg(long, default_value_t = false, action = clap::ArgAction::Set)]
    equal_hands: bool,
    /// Strength of both sides: easy, normal or hard.
    #[arg(long, default_value = "normal")]
    skill: String,
    /// Search depth cap per move (hard only; easy and normal have their own).
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Adjudicate a draw after this many plies.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    /// Seed of the first game; game i uses seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Default)]
struct Totals {
    moves: u64,
    flips: u64,
    chain3_games: u32,
    deepest: usize,
    results: [u32; 3], // first wins, second wins, draws
    plies: u64,
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let Some(skill) = Skill::from_name(&args.skill) else {
        eprintln!(
            "negaeri_stats: --skill must be easy, normal or hard, not {}",
            args.skill
        );
        return std::process::ExitCode::from(2);
    };
    let mut rules = NegaeriRules::default();
    let set = |r: &mut NegaeriRules, n: &str, v: bool| r.set(n, &OptionValue::Check(v));
    if let Err(e) = set(&mut rules, "NegaeriEdge", args.edge).and(set(
        &mut rules,
        "NegaeriEqualHands",
        args.equal_hands,
    )) {
        eprintln!("negaeri_stats: {e}");
        return std::process::ExitCode::from(2);
    }
    let tt = Tt::new(16);
    let stop = AtomicBool::new(false);
    let mut t = Totals::default();
    for game in 0..args.games {
        let mut pos = Negaeri::start(&rules);
        let mut history = History::starting_at(&pos);
        let mut deepest = 0;
        let mut ply = 0;
        let outcome = loop {
            if let Some(end) = status_with_history(&pos, &history) {
                break end.outcome;
            }
            if ply >= args.max_plies {
                break Outcome::Draw;
            }
            tt.clear();
            let limits = Limits::depth(args.depth);
            let ctx = Context {
                tt: &tt,
                stop: &stop,
                limits: &limits,
                settings: Settings {
                    skill,
                    seed: args
                        .seed
                        .wrapping_add(game as u64)
                        .wrapping_mul(1000)
                        .wrapping_add(ply as u64),
                    ..Settings::default()
                },
                poll: None,
            };
            let Some(mv) = search::search(&pos, &history, &ctx, |_| {}).best else {
                break Outcome::Draw;
            };
            let flips = pos.flips(mv);
            t.flips += u64::from(flips.all.count_ones());
            deepest = deepest.max(flips.depth());
            t.moves += 1;
            pos = pos.play(mv);
            history.push(pos.repetition_key());
            ply += 1;
        };
        t.plies += ply as u64;
        t.deepest = t.deepest.max(deepest);
        if deepest >= 3 {
            t.chain3_games += 1;
        }
        let i = match outcome {
            Outcome::Win(Color::First) => 0,
            Outcome::Win(Color::Second) => 1,
            Outcome::Draw => 2,
        };
        t.results[i] += 1;
        eprintln!(
            "game {}: {} plies, {}, deepest chain {deepest}",
            game + 1,
            ply,
            outcome.score_text()
        );
    }
    let n = args.games.max(1) as f64;
    println!(
        "rules: NegaeriEdge {} NegaeriEqualHands {}; {} games, skill {}, depth {}",
        args.edge, args.equal_hands, args.games, args.skill, args.depth
    );
    println!(
        "average flips per move: {:.2}",
        t.flips as f64 / t.moves.max(1) as f64
    );
    println!(
        "games with a chain of 3+ levels: {:.0}% (deepest chain {})",
        100.0 * f64::from(t.chain3_games) / n,
        t.deepest
    );
    println!(
        "first player: {} wins, {} losses, {} draws: {:.0}% wins ({:.0}% score)",
        t.results[0],
        t.results[1],
        t.results[2],
        100.0 * f64::from(t.results[0]) / n,
        100.0 * (f64::from(t.results[0]) + 0.5 * f64::from(t.results[2])) / n
    );
    println!("average game length: {:.1} plies", t.plies as f64 / n);
    std::process::ExitCode::SUCCESS
}
