//! Parser tables: every command, and every malformed form with the token
//! and column the error names.

use super::*;
use crate::core::{Color, MoveText};

fn ok(s: &str) -> Command {
    match parse_command(s) {
        Ok(Some(c)) => c,
        other => panic!("{s:?} gave {other:?}"),
    }
}

fn err(s: &str) -> ParseError {
    match parse_command(s) {
        Err(e) => e,
        other => panic!("{s:?} should be refused, gave {other:?}"),
    }
}

#[test]
fn simple_commands() {
    assert_eq!(ok("uci"), Command::Uci);
    assert_eq!(ok("ugi"), Command::Ugi);
    assert_eq!(ok("isready"), Command::IsReady);
    assert_eq!(ok("ucinewgame"), Command::UciNewGame);
    assert_eq!(ok("uginewgame"), Command::UgiNewGame);
    assert_eq!(ok("stop"), Command::Stop);
    assert_eq!(ok("ponderhit"), Command::PonderHit);
    assert_eq!(ok("quit"), Command::Quit);
    assert_eq!(ok("d"), Command::Display);
    assert_eq!(ok("bench"), Command::Bench);
    assert_eq!(ok("debug on"), Command::Debug(true));
    assert_eq!(ok("debug off"), Command::Debug(false));
}

#[test]
fn blanks_around_and_between_tokens_are_allowed() {
    assert_eq!(ok("  isready \r\n"), Command::IsReady);
    assert_eq!(
        ok("go\tdepth   3"),
        Command::Go(GoParams {
            depth: Some(3),
            ..Default::default()
        })
    );
    assert_eq!(parse_command("   "), Ok(None));
    assert_eq!(parse_command(""), Ok(None));
}

#[test]
fn setoption_names_may_have_spaces_and_values_may_be_empty() {
    assert_eq!(
        ok("setoption name Move Overhead value 30"),
        Command::SetOption {
            name: "Move Overhead".into(),
            value: Some("30".into())
        }
    );
    assert_eq!(
        ok("setoption name UCI_Variant value hasami"),
        Command::SetOption {
            name: "UCI_Variant".into(),
            value: Some("hasami".into())
        }
    );
    assert_eq!(
        ok("setoption name Clear Hash"),
        Command::SetOption {
            name: "Clear Hash".into(),
            value: None
        }
    );
    assert_eq!(
        ok("setoption name NanaTable value /tmp/a b.tbl"),
        Command::SetOption {
            name: "NanaTable".into(),
            value: Some("/tmp/a b.tbl".into())
        }
    );
    assert_eq!(
        ok("setoption name X value"),
        Command::SetOption {
            name: "X".into(),
            value: Some(String::new())
        }
    );
}

#[test]
fn position_startpos_and_fen_with_moves() {
    let c = ok("position startpos moves a1a2 P@c4 pass b3d3,d2e1+");
    let Command::Position(p) = c else { panic!() };
    assert_eq!(p.start, PositionStart::StartPos);
    assert_eq!(p.moves.len(), 4);
    assert_eq!(p.moves[2], MoveText::Pass);
    let c = ok("position fen 3/3/3[KRBkrb] b 1 moves K@a1");
    let Command::Position(p) = c else { panic!() };
    let PositionStart::Fen(f) = &p.start else {
        panic!()
    };
    assert_eq!(f.side, Color::Second);
    assert_eq!(f.counters, vec![1]);
    assert_eq!(p.moves.len(), 1);
    let c = ok("position fen 3/3/3[KRBkrb] w");
    let Command::Position(p) = c else { panic!() };
    assert!(p.moves.is_empty());
    assert!(matches!(
        ok("position startpos moves"),
        Command::Position(_)
    ));
}

#[test]
fn go_with_every_limit() {
    let c = ok(
        "go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5 depth 7 nodes 100 movetime 50 infinite ponder",
    );
    let Command::Go(g) = c else { panic!() };
    assert_eq!(g.time, [Some(1000), Some(2000)]);
    assert_eq!(g.inc, [Some(10), Some(20)]);
    assert_eq!(g.movestogo, Some(5));
    assert_eq!(g.depth, Some(7));
    assert_eq!(g.nodes, Some(100));
    assert_eq!(g.movetime, Some(50));
    assert!(g.infinite && g.ponder);
    assert_eq!(ok("go"), Command::Go(GoParams::default()));
}

#[test]
fn ugi_clock_words_are_the_first_and_second_players_clocks() {
    let Command::Go(g) = ok("go p1time 100 p2time 200 p1inc 1 p2inc 2") else {
        panic!()
    };
    assert_eq!(g.time, [Some(100), Some(200)]);
    assert_eq!(g.inc, [Some(1), Some(2)]);
}

#[test]
fn negative_clock_reads_as_zero() {
    let Command::Go(g) = ok("go wtime -50 btime 10") else {
        panic!()
    };
    assert_eq!(g.time, [Some(0), Some(10)]);
}

#[test]
fn go_perft_and_queries() {
    assert_eq!(ok("go perft 4"), Command::Perft(4));
    assert_eq!(ok("query gameover"), Command::Query(QueryKind::GameOver));
    assert_eq!(ok("query p1turn"), Command::Query(QueryKind::P1Turn));
    assert_eq!(ok("query result"), Command::Query(QueryKind::Result));
}

#[test]
fn canonical_text_round_trips() {
    for s in [
        "uci",
        "ugi",
        "debug on",
        "isready",
        "setoption name Hash value 16",
        "setoption name Clear Hash",
        "ucinewgame",
        "uginewgame",
        "position startpos",
        "position startpos moves a1b1 a2b2+",
        "position fen 2bkr1/2ppp1/6/6/1PPP2/1RKB2[PPPPRBpppbr] w 0 1 moves P@a1 pass",
        "go wtime 10 btime 20 winc 1 binc 2 movestogo 3 depth 4 nodes 5 movetime 6 infinite",
        "go ponder wtime 1",
        "go perft 3",
        "stop",
        "ponderhit",
        "quit",
        "d",
        "query result",
        "bench",
    ] {
        let c = ok(s);
        assert_eq!(c.to_string(), s);
        assert_eq!(ok(&c.to_string()), c);
    }
}

#[test]
fn errors_name_what_was_expected_and_the_token() {
    let cases: &[(&str, &str, &str, usize)] = &[
        ("foo", "a command", "foo", 0),
        ("ucix", "a command", "ucix", 0),
        ("debug maybe", "on or off after debug", "maybe", 6),
        ("debug", "on or off after debug", "", 5),
        ("go depth x", "an integer after depth", "x", 9),
        ("go depth 5x", "an integer after depth", "5x", 9),
        (
            "go depth 99999999999",
            "an integer after depth",
            "99999999999",
            9,
        ),
        ("go depth", "an integer after depth", "", 8),
        ("go wtime", "milliseconds after wtime", "", 8),
        ("go sideways", "a go parameter", "sideways", 3),
        ("go perft", "a depth of 0 to 64 after perft", "", 8),
        ("go perft 65", "a depth of 0 to 64 after perft", "65", 9),
        ("go perft -1", "a depth of 0 to 64 after perft", "-1", 9),
        ("position", "startpos or fen", "", 8),
        ("position middle", "startpos or fen", "middle", 9),
        ("position startpos a1b1", "moves", "a1b1", 18),
        (
            "position startpos moves a1b1 zz",
            "a square like a1",
            "zz",
            29,
        ),
        (
            "position startpos moves a1b1 P@",
            "a square like a1",
            "P@",
            29,
        ),
        (
            "position startpos moves a1b1 a3b3,",
            "a square like a1",
            "a3b3,",
            29,
        ),
        (
            "position fen 3/3/3[K w",
            "pieces in hand and ]",
            "3/3/3[K",
            13,
        ),
        (
            "position fen 3/3/0 w",
            "a board of ranks separated by /",
            "3/3/0",
            13,
        ),
        ("position fen", "a position string after fen", "", 12),
        (
            "position fen 3/3/3 x",
            "w or b for the side to move",
            "x",
            19,
        ),
        ("position fen 3/3/3 w 1 2 zz", "moves", "zz", 25),
        ("setoption", "name after setoption", "", 9),
        ("setoption nom X", "name after setoption", "nom", 10),
        ("setoption name", "an option name", "", 14),
        (
            "query weather",
            "gameover, p1turn or result after query",
            "weather",
            6,
        ),
        ("isready now", "the end of the line", "now", 8),
        ("stop\u{1}", "a command", "stop\u{1}", 0),
    ];
    for &(line, expected, token, column) in cases {
        let e = err(line);
        assert_eq!(
            (e.expected.as_str(), e.token.as_str(), e.column),
            (expected, token, column),
            "{line:?}"
        );
    }
    assert_eq!(
        err("go depth x").to_string(),
        "expected an integer after depth at x"
    );
    assert_eq!(
        err("debug").to_string(),
        "expected on or off after debug at end of line"
    );
}

#[test]
fn hostile_input_is_an_error_not_a_panic() {
    let long = "go ".to_string() + &"depth 1 ".repeat(100_000);
    assert!(parse_command(&long).is_ok());
    let junk = "position startpos moves ".to_string() + &"a1".repeat(100_000);
    assert!(parse_command(&junk).is_err());
    for s in [
        "\u{0}",
        "\u{feff}uci",
        "ç",
        "position fen \u{7f}",
        "go perft 4294967296",
        "[",
        "@",
    ] {
        let _ = parse_command(s);
    }
    let mut seed = 12345u64;
    for _ in 0..20_000 {
        let len = (seed % 40) as usize;
        let s: String = (0..len)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let alphabet = b"ucigo pstdf/[]@,+-0123456789abwmvenqrkKPR\t";
                alphabet[(seed >> 33) as usize % alphabet.len()] as char
            })
            .collect();
        let _ = parse_command(&s);
    }
}
