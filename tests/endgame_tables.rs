//! The engine's `TablePath` option: listed, and at a root the endgame
//! tables hold, the move they call best, played at once with a table
//! score and `tbhits`. The table is planted through the file API (a real
//! Kani unit takes minutes to solve): one signature, every entry a draw
//! but one child of the root, a loss for the opponent.

mod common;
use common::converse;
use koma::core::Game;
use koma::core::endgame::Layered;
use koma::games::kaninariebi::KaniNariEbi;
use koma::search::score::TABLE_WIN;
use koma::solve::tables::{Dtz, Tables, file};
use std::path::PathBuf;

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

#[test]
fn at_a_root_in_the_tables_the_engine_plays_their_best_move() {
    let (root, sig) = closed_root();
    let rules = Default::default();
    let dir = temp_dir("planted");
    let tables = Tables::<KaniNariEbi>::open(&dir, &rules);
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
