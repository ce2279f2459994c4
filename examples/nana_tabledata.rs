//! Training data for Nana's evaluation from its table instead of from
//! self-play (`koma::learn::table_data`): the positions of random games,
//! each labelled with its exact value, in `koma datagen`'s file format.
//! Positions that `nana_keep --judging` with the same value samples are
//! left out, so that it measures the evaluation on positions the training
//! never saw.
//!
//!     cargo run --release --example nana_tabledata -- --table nana.table \
//!         --games 2000000 --out nana-table.txt
//!     koma tune --variant nana --net --data nana-table.txt --lambda 1 --epochs 20 --out weights.bin
//!
//! The table is the one `koma solve nana --out FILE` writes.

use clap::Parser;
use koma::games::nana::Nana;
use koma::games::nana::index::Index;
use koma::games::nana::tablebase::NanaTable;
use koma::learn::table_data::{TableDataSettings, write};
use std::io::Write;

#[derive(Parser)]
#[command(about = "Nana positions labelled by the table, in koma datagen's format")]
struct Args {
    /// The table file (`koma solve nana --out FILE`).
    #[arg(long)]
    table: std::path::PathBuf,
    /// Random games to take positions from.
    #[arg(long, default_value_t = 2_000_000)]
    games: u64,
    /// Seed of the random games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Leave out the positions `nana_keep --judging` with this value
    /// samples (one in this many; 0: leave none out).
    #[arg(long, default_value_t = 10)]
    judging: u64,
    /// The data file to write.
    #[arg(long)]
    out: std::path::PathBuf,
}

fn run(args: &Args) -> Result<(), String> {
    let table = NanaTable::load(Index::get(), &args.table).map_err(|e| e.to_string())?;
    let cannot = |e: std::io::Error| format!("cannot write {}: {e}", args.out.display());
    let file = std::fs::File::create(&args.out).map_err(cannot)?;
    let mut out = std::io::BufWriter::new(file);
    let s = TableDataSettings {
        games: args.games,
        seed: args.seed,
        judging: args.judging,
    };
    let w = write(|p: &Nana| table.value(p), &s, &mut out).map_err(cannot)?;
    out.flush().map_err(cannot)?;
    eprintln!(
        "{} positions written to {}, {} left out to judge with",
        w.positions,
        args.out.display(),
        w.left_out
    );
    Ok(())
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nana_tabledata: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
