//! The fuzz targets' bodies (fuzz/src/doors, one per door through which
//! Koma reads outside input) run over each target's seed corpus
//! (fuzz/seeds/<target>/) on the stable toolchain: the properties the
//! fuzzers check hold for every seed, and each input a fuzzer found a bug
//! with (kept among the seeds under the bug's name) stays fixed. The
//! fuzzers themselves run with tools/fuzz.sh (nightly and cargo-fuzz).

#[path = "../fuzz/src/doors/mod.rs"]
#[allow(dead_code)]
mod doors;

use std::path::{Path, PathBuf};

fn seeds(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

fn run(target: &str, body: fn(&[u8])) {
    let files = seeds(target);
    assert!(!files.is_empty(), "no seeds for {target}");
    for f in files {
        let data = std::fs::read(&f).unwrap();
        if std::panic::catch_unwind(|| body(&data)).is_err() {
            panic!("{target}: the seed {} fails", f.display());
        }
    }
}

#[test]
fn engine_lines() {
    run("engine_lines", doors::engine::engine_lines);
}

#[test]
fn position_kaninariebi() {
    run(
        "position_kaninariebi",
        doors::positions::positions::<koma::games::kaninariebi::KaniNariEbi>,
    );
}

#[test]
fn position_hasami() {
    run(
        "position_hasami",
        doors::positions::positions::<koma::games::hasami::Hasami>,
    );
}

#[test]
fn position_nana() {
    run(
        "position_nana",
        doors::positions::positions::<koma::games::nana::Nana>,
    );
}

#[test]
fn position_negaeri() {
    run(
        "position_negaeri",
        doors::positions::positions::<koma::games::negaeri::Negaeri>,
    );
}

#[test]
fn engine_replies() {
    run("engine_replies", doors::replies::replies);
}

#[test]
fn records() {
    run("records", doors::records::records);
}

#[test]
fn openings() {
    run("openings", doors::openings::openings);
}

#[test]
fn board_http() {
    run("board_http", doors::board::board_http);
}

#[test]
fn board_api() {
    run("board_api", doors::board::board_api);
}

#[test]
fn nana_table() {
    run("nana_table", doors::nana_table::nana_table);
}

#[test]
fn eval_file() {
    run("eval_file", doors::eval_file::eval_file);
}
