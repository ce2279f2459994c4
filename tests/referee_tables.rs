//! The referee adjudicating by Kani Nari Ebi's endgame tables (`-tb DIR`,
//! `-tbpieces`, `-tbadjudicate`): a game whose position the tables hold
//! ends with their result, tagged in the record, and `--replay` accepts it.
//! The table is written here (the real ones take CPU-minutes): every entry
//! of `CSSvCSS` a draw but the one position the games start from.

mod referee;
use koma::core::Game;
use koma::core::endgame::Layered;
use koma::games::kaninariebi::{KaniNariEbi, KaniRules};
use koma::protocol::parse_position;
use koma::solve::tables::{Dtz, Tables, file};
use referee::*;
use std::path::Path;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(300);
/// Six pieces, `CSSvCSS`, the first player to move.
const START: &str = "5/1CS2/s1s2/2S2/3c1 w 1";

/// A tables folder under `dir` whose `CSSvCSS` file says `Draw` for every
/// entry but START's, which gets `start`.
fn tables(dir: &Path, start: Dtz) -> std::path::PathBuf {
    let root = dir.join("tables");
    let rules = KaniRules::default();
    let t = Tables::<KaniNariEbi>::open(&root, &rules);
    let pos = KaniNariEbi::from_text(&parse_position(START).unwrap(), &rules).unwrap();
    let (sig, i) = pos.locate().unwrap();
    assert_eq!(sig.to_string(), "CSSvCSS");
    let mut values = vec![Dtz::Draw.encode(); KaniNariEbi::entries(sig) as usize];
    values[i as usize] = start.encode();
    std::fs::create_dir_all(t.path(sig).parent().unwrap()).unwrap();
    file::write(&t.path(sig), &t.identity(sig), &values).unwrap();
    root
}

fn book(dir: &Path) -> std::path::PathBuf {
    let book = dir.join("book.epd");
    std::fs::write(&book, format!("{START}\n")).unwrap();
    book
}

/// `--replay PGN [--tb ROOT]`.
fn replay(pgn: &Path, tb: Option<&Path>) -> Run {
    let mut a = vec!["--replay".to_string(), pgn.display().to_string()];
    if let Some(root) = tb {
        a.extend(["--tb".to_string(), root.display().to_string()]);
    }
    run(&a, "replay", Duration::from_secs(60))
}

fn line(dir: &Path, tb: &str, pgn: &Path) -> Vec<String> {
    args(&format!(
        "-engine cmd={KOMA} name=a -engine cmd={KOMA} name=b -each tc=10+0.1 nodes=300 \
         -openings file={} -rounds 1 -games 2 -maxmoves 3 {tb} -pgnout file={}",
        book(dir).display(),
        pgn.display()
    ))
}

#[test]
fn a_position_in_the_tables_ends_the_game_with_their_result_and_replays() {
    let (dir, token) = scratch("tb-win");
    let root = tables(&dir, Dtz::Win(5));
    let pgn = dir.join("tb.pgn");
    let r = run(
        &line(&dir, &format!("-tb {}", root.display()), &pgn),
        &token,
        LIMIT,
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    let recs = records(&pgn);
    assert_eq!(recs.len(), 2);
    for rec in &recs {
        assert_eq!(rec.tag("Termination"), Some("tablebase adjudication"));
        assert_eq!(
            rec.tag("TablebaseAdjudication"),
            Some("pieces=all mode=BOTH")
        );
        // The opening's own position: the first player, to move, wins.
        assert_eq!(rec.tag("Result"), Some("1-0"));
        assert!(rec.moves.is_empty(), "{:?}", rec.moves);
    }
    // Without the tables the replay says what it could not check.
    assert_replays(&pgn);
    let r = replay(&pgn, None);
    assert!(
        r.stdout
            .contains("2 tablebase adjudications not checked against the tables"),
        "{}",
        r.stdout
    );
    // With them it checks the call; other tables disagree with the record.
    let r = replay(&pgn, Some(&root));
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("2 records, all valid"), "{}", r.stdout);
    let (other, _) = scratch("tb-other");
    let r = replay(&pgn, Some(&tables(&other, Dtz::Loss(4))));
    assert_eq!(r.status.code(), Some(1), "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("the tables call 0-1 at ply 0, the record says 1-0"),
        "{}",
        r.stdout
    );
}

#[test]
fn the_mode_and_the_piece_limit_leave_other_positions_to_be_played() {
    for (tb, value) in [
        ("-tbadjudicate DRAW", Dtz::Win(5)),
        ("-tbadjudicate WIN_LOSS", Dtz::Draw),
        ("-tbpieces 5", Dtz::Win(5)),
    ] {
        let (dir, token) = scratch("tb-mode");
        let root = tables(&dir, value);
        let pgn = dir.join("tb.pgn");
        let r = run(
            &line(&dir, &format!("-tb {} {tb}", root.display()), &pgn),
            &token,
            LIMIT,
        );
        assert!(r.status.success(), "{tb}: {}\n{}", r.stdout, r.stderr);
        for rec in records(&pgn) {
            // Played on from START: at least one move, and whatever ends
            // it after, not START's table value.
            assert!(!rec.moves.is_empty(), "{tb}");
        }
        assert_replays(&pgn);
        let r = replay(&pgn, Some(&root));
        assert!(r.status.success(), "{tb}: {}\n{}", r.stdout, r.stderr);
    }
}

#[test]
fn tables_are_refused_for_a_game_without_them_and_for_a_missing_folder() {
    let (dir, token) = scratch("tb-refused");
    for (extra, want) in [
        (
            format!("-variant hasami -tb {}", dir.display()),
            "hasami has no endgame tables",
        ),
        (
            format!("-tb {}", dir.join("nowhere").display()),
            "no such folder",
        ),
        (
            format!("-tb {} -tbadjudicate SOME", dir.display()),
            "expected WIN_LOSS, DRAW or BOTH",
        ),
        ("-tbignore50".to_string(), "no fifty-move rule"),
    ] {
        let r = run(
            &args(&format!(
                "-engine cmd={KOMA} name=a -engine cmd={KOMA} name=b -each nodes=10 {extra}"
            )),
            &token,
            LIMIT,
        );
        assert_eq!(r.status.code(), Some(2), "{extra}: {}", r.stderr);
        assert!(r.stderr.contains(want), "{extra}: {}", r.stderr);
    }
}
