//! The engine's `TablePath` option: listed, and at a root the endgame
//! tables hold, the move they call best, played at once with a table
//! score and `tbhits`. The table is planted through the file API (a real
//! Kani unit takes minutes to solve): one signature, every entry a draw
//! but one child of the root, a loss for the opponent.

mod common;
use common::{Koma, converse};
use koma::core::Game;
use koma::core::endgame::Layered;
use koma::games::kaninariebi::KaniNariEbi;
use koma::search::score::TABLE_WIN;
use koma::solve::tables::{Dtz, Tables, file};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn temp_dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("endgame-tables-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a temporary folder");
    d
}

#[test]
fn the_table_path_option_is_listed_as_a_string() {
    let out = converse("uci\n");
    assert!(
        out.iter()
            .any(|l| l == "option name TablePath type string default <empty>"),
        "{out:?}"
    );
}

/// A position of the first six-piece signature whose every move either
/// ends the game or stays in its signature, so one file holds them all.
fn closed_root() -> (KaniNariEbi, <KaniNariEbi as Layered>::Sig) {
    let rules = Default::default();
    for sig in KaniNariEbi::signatures(6) {
        if <KaniNariEbi as Layered>::pieces(sig) != 6 || KaniNariEbi::swapped(sig) != sig {
            continue;
        }
        for i in 0..KaniNariEbi::entries(sig).min(10_000) {
            let pos = KaniNariEbi::unrank(sig, i, &rules);
            if pos.terminal().is_some() {
                continue;
            }
            let mut ml = <KaniNariEbi as Game>::MoveList::default();
            pos.generate(&mut ml);
            let children: Vec<_> = ml.iter().map(|&m| pos.play(m)).collect();
            let live = children.iter().filter(|c| c.terminal().is_none());
            let closed = children
                .iter()
                .all(|c| c.terminal().is_some() || c.locate().is_some_and(|(s, _)| s == sig));
            if closed && live.count() >= 2 {
                return (pos, sig);
            }
        }
    }
    panic!("no six-piece position with only quiet moves and ends");
}

/// Plants under `dir` the table of `closed_root`'s signature: every entry
/// a draw but one child of the root, lost for the opponent. The root, the
/// move the tables call best, and the file.
fn plant(dir: &Path) -> (KaniNariEbi, <KaniNariEbi as Game>::Move, PathBuf) {
    let (root, sig) = closed_root();
    let tables = Tables::<KaniNariEbi>::open(dir, &Default::default());
    let mut values = vec![Dtz::Draw.encode(); KaniNariEbi::entries(sig) as usize];
    // The last live child loses for the opponent: the engine must pick it.
    let mut ml = <KaniNariEbi as Game>::MoveList::default();
    root.generate(&mut ml);
    let (mv, child) = (ml.iter())
        .map(|&m| (m, root.play(m)))
        .rfind(|(_, c)| c.terminal().is_none())
        .expect("a live child");
    let (_, i) = child.locate().expect("in the signature");
    values[i as usize] = Dtz::Loss(3).encode();
    std::fs::create_dir_all(tables.path(sig).parent().expect("a folder")).expect("folder");
    file::write(&tables.path(sig), &tables.identity(sig), &values).expect("written");
    (root, mv, tables.path(sig))
}

#[test]
fn at_a_root_in_the_tables_the_engine_plays_their_best_move() {
    let dir = temp_dir("planted");
    let (root, mv, _) = plant(&dir);
    let out = converse(&format!(
        "setoption name TablePath value {}\nposition fen {}\ngo depth 3\n",
        dir.display(),
        root.to_text()
    ));
    let want = format!("bestmove {}", root.move_text(mv));
    assert!(out.iter().any(|l| l == &want), "{want} in {out:?}");
    let score = format!("score cp {}", TABLE_WIN - 4);
    assert!(
        out.iter()
            .any(|l| l.starts_with("info") && l.contains(&score) && l.contains("tbhits 1")),
        "{score} in {out:?}"
    );

    // Without the tables (an empty folder) the same root is searched.
    let empty = temp_dir("empty");
    let out = converse(&format!(
        "setoption name TablePath value {}\nposition fen {}\ngo depth 1\n",
        empty.display(),
        root.to_text()
    ));
    assert!(!out.iter().any(|l| l.contains("tbhits")), "{out:?}");
}

/// The lines of `koma` up to its `readyok`.
fn until_ready(koma: &mut Koma) -> Vec<String> {
    koma.send("isready");
    koma.read_until(Duration::from_secs(60), |l| l == "readyok")
}

/// The lines of `koma` up to its `bestmove`.
fn until_bestmove(koma: &mut Koma) -> Vec<String> {
    koma.read_until(Duration::from_secs(120), |l| l.starts_with("bestmove"))
}

#[test]
fn mapped_tables_open_no_file_when_probed() {
    let dir = temp_dir("mapped");
    let (root, mv, path) = plant(&dir);
    let rules = Default::default();
    let (tables, refused) = Tables::<KaniNariEbi>::map_all(&dir, &rules);
    assert!(refused.is_empty(), "{refused:?}");
    assert_eq!((tables.files_opened(), tables.usable()), (1, 1));
    // Gone from the disk, the file stays mapped: probing opens nothing.
    std::fs::remove_file(&path).expect("removed");
    let best = tables.best_move(&root, &Default::default());
    assert_eq!(best.map(|(m, _)| m), Some(mv));
    assert_eq!(tables.files_opened(), 1);
    // Opened lazily instead, the first probe opens the file.
    plant(&dir);
    let lazy = Tables::<KaniNariEbi>::open(&dir, &rules);
    assert_eq!(lazy.files_opened(), 0);
    assert!(lazy.probe(&root).is_some());
    assert!(lazy.probe(&root).is_some());
    assert_eq!(lazy.files_opened(), 1);
}

#[test]
fn the_engine_maps_the_tables_before_go_so_the_search_opens_no_file() {
    let dir = temp_dir("before-go");
    let home = temp_dir("before-go-home");
    let (root, mv, _) = plant(&dir);
    let mut koma = Koma::spawn_with_data_home(&home);
    koma.send(&format!("setoption name TablePath value {}", dir.display()));
    until_ready(&mut koma);
    // The folder is gone before the search: what it uses was mapped at
    // `setoption`, so the search has no file to wait on (and none to find).
    std::fs::remove_dir_all(&dir).expect("removed");
    koma.send(&format!("position fen {}", root.to_text()));
    koma.send("go infinite");
    koma.read_until(Duration::from_secs(60), |l| l.contains("tbhits 1"));
    koma.send("stop");
    let out = until_bestmove(&mut koma);
    let want = format!("bestmove {}", root.move_text(mv));
    assert_eq!(out.last(), Some(&want), "{out:?}");
}

#[test]
fn a_bad_table_file_is_refused_when_the_option_is_set() {
    let dir = temp_dir("bad-file");
    let (root, mv, good) = plant(&dir);
    let bad = good.with_file_name("CCCvCCC.ktb");
    assert_ne!(bad, good);
    std::fs::write(&bad, b"not a table").expect("written");
    let out = converse(&format!(
        "setoption name TablePath value {}\nposition fen {}\ngo depth 3\n",
        dir.display(),
        root.to_text()
    ));
    let want = format!(
        "info string error: table {}: truncated: 11 bytes, less than the 160-byte header; \
         the search goes on without it at TablePath",
        bad.display()
    );
    assert_eq!(out.first(), Some(&want), "{out:?}");
    assert_eq!(
        out.iter().filter(|l| l.starts_with("info string")).count(),
        1
    );
    // The sound file is used.
    let best = format!("bestmove {}", root.move_text(mv));
    assert!(out.iter().any(|l| l == &best), "{out:?}");
}

#[test]
fn the_tables_in_the_per_user_folder_are_used_without_the_option() {
    let home = temp_dir("default-home");
    let (root, mv, good) = plant(&home.join("koma").join("tables"));
    let bad = good.with_file_name("CCCvCCC.ktb");
    std::fs::write(&bad, b"not a table").expect("written");
    let mut koma = Koma::spawn_with_data_home(&home);
    let ready = until_ready(&mut koma);
    assert!(
        ready[0].starts_with(&format!("info string error: table {}: ", bad.display())),
        "{ready:?}"
    );
    assert_eq!(ready.len(), 2, "{ready:?}");
    koma.send(&format!("position fen {}", root.to_text()));
    koma.send("go depth 3");
    let out = until_bestmove(&mut koma);
    assert_eq!(
        out.last(),
        Some(&format!("bestmove {}", root.move_text(mv)))
    );
    assert!(out.iter().any(|l| l.contains("tbhits 1")), "{out:?}");

    // `none` turns them off: searched, no table hit, no complaint.
    koma.send("setoption name TablePath value none");
    koma.send("go depth 3");
    let out = until_bestmove(&mut koma);
    assert!(!out.iter().any(|l| l.contains("tbhits")), "{out:?}");
    assert!(!out.iter().any(|l| l.starts_with("info string")), "{out:?}");
}

#[test]
fn nanas_table_in_the_per_user_folder_is_loaded_without_the_option() {
    let home = temp_dir("nana-home");
    let tables = home.join("koma").join("tables");
    std::fs::create_dir_all(&tables).expect("folder");
    // A file that is not a table: the engine says it looked there.
    let path = tables.join("nana.table");
    std::fs::write(&path, [7u8; 200]).expect("written");
    let mut koma = Koma::spawn_with_data_home(&home);
    koma.send("setoption name UCI_Variant value nana");
    let ready = until_ready(&mut koma);
    let p = path.display();
    let want = format!("info string error: cannot use {p} as NanaTable: ");
    assert!(ready[0].starts_with(&want), "{ready:?}");
    assert!(ready[0].ends_with(&format!("; the game goes on without a table at {p}")));
    // `none`: no table, not looked for.
    koma.send("setoption name NanaTable value none");
    let ready = until_ready(&mut koma);
    assert_eq!(ready, ["readyok"]);
    // Back to the default: looked for again.
    koma.send("setoption name NanaTable value <empty>");
    let ready = until_ready(&mut koma);
    assert!(ready[0].starts_with(&want), "{ready:?}");
}

#[test]
#[ignore = "needs the real Nana table: KOMA_NANA_TABLE=FILE (koma solve nana --out FILE)"]
fn nanas_real_table_in_the_per_user_folder_plays_at_once() {
    let Ok(real) = std::env::var("KOMA_NANA_TABLE") else {
        eprintln!("SKIPPED: KOMA_NANA_TABLE is not set");
        return;
    };
    let home = temp_dir("nana-real-home");
    let tables = home.join("koma").join("tables");
    std::fs::create_dir_all(&tables).expect("folder");
    std::os::unix::fs::symlink(
        std::fs::canonicalize(real).expect("the table"),
        tables.join("nana.table"),
    )
    .expect("linked");
    let mut koma = Koma::spawn_with_data_home(&home);
    koma.send("setoption name UCI_Variant value nana");
    assert_eq!(until_ready(&mut koma), ["readyok"]);
    koma.send("position startpos");
    koma.send("go depth 20");
    let out = until_bestmove(&mut koma);
    assert!(
        out.iter().any(|l| l.starts_with("info depth 1 score")),
        "{out:?}"
    );
}
