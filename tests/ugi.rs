//! UGI through the real binary: the handshake, `query` answers before and
//! after a game-ending move in every game, the p1/p2 clock words, and the
//! answers agreeing with the rules library on random playouts.

mod common;
use common::Koma;
use koma::core::{Color, Game, History, Outcome, status_with_history};
use koma::games::{GameId, GameVisitor};
use std::time::Duration;

const T: Duration = Duration::from_secs(20);

fn ask(k: &mut Koma, q: &str) -> String {
    k.send(&format!("query {q}"));
    let l = k.read_until(T, |l| {
        l.starts_with("response") || l.starts_with("info string error")
    });
    l.last().unwrap().clone()
}

/// A random game of `G` to its end, as move strings, with the library's
/// status after every prefix (repetition included).
struct Playout(u64);

impl GameVisitor for Playout {
    type Output = Vec<(String, Option<koma::core::End>, Color)>;
    fn visit<G: Game>(self) -> Self::Output {
        let mut seed = self.0;
        let mut p = G::start(&G::Rules::default());
        let mut h = History::starting_at(&p);
        let mut out = vec![(String::new(), status_with_history(&p, &h), p.side_to_move())];
        while out.last().unwrap().1.is_none() && out.len() < 200 {
            let mut moves = G::MoveList::default();
            p.generate(&mut moves);
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = moves[(seed >> 33) as usize % moves.len()];
            let text = p.move_text(m).to_string();
            p = p.play(m);
            h.push(p.repetition_key());
            out.push((text, status_with_history(&p, &h), p.side_to_move()));
        }
        out
    }
}

#[test]
fn ugi_handshake_answers_ugiok_with_the_same_options() {
    let mut k = Koma::spawn();
    k.send("ugi");
    let ugi = k.read_until(T, |l| l == "ugiok");
    let mut k2 = Koma::spawn();
    k2.send("uci");
    let uci = k2.read_until(T, |l| l == "uciok");
    assert_eq!(ugi[..ugi.len() - 1], uci[..uci.len() - 1]);
}

#[test]
fn queries_before_and_after_a_game_ending_move_in_every_game() {
    for &g in GameId::ALL {
        // A random game that ends by the rules within 200 plies.
        let line = (1..)
            .map(|s| g.visit(Playout(s)))
            .find(|l| l.last().unwrap().1.is_some())
            .unwrap();
        let moves: Vec<&str> = line[1..].iter().map(|(m, _, _)| m.as_str()).collect();
        let mut k = Koma::spawn();
        k.send("ugi");
        k.read_until(T, |l| l == "ugiok");
        k.send(&format!("setoption name UCI_Variant value {g}"));
        k.send("uginewgame");
        k.send("position startpos");
        assert_eq!(ask(&mut k, "gameover"), "response false");
        assert_eq!(ask(&mut k, "p1turn"), "response true");
        assert_eq!(ask(&mut k, "result"), "response none");
        k.send(&format!(
            "position startpos moves {}",
            moves[..moves.len() - 1].join(" ")
        ));
        assert_eq!(ask(&mut k, "gameover"), "response false", "{g}");
        k.send("go p1time 500 p2time 500 p1inc 10 p2inc 10");
        let l = k.read_until(T, |l| l.starts_with("bestmove"));
        assert_ne!(l.last().unwrap(), "bestmove (none)");
        k.send(&format!("position startpos moves {}", moves.join(" ")));
        assert_eq!(ask(&mut k, "gameover"), "response true", "{g}");
        let end = line.last().unwrap().1.unwrap();
        let expected = match end.outcome {
            Outcome::Win(Color::First) => "response p1win",
            Outcome::Win(Color::Second) => "response p2win",
            Outcome::Draw => "response draw",
        };
        assert_eq!(ask(&mut k, "result"), expected, "{g}: {end}");
        k.send("go p1time 500 p2time 500");
        let l = k.read_until(T, |l| l.starts_with("bestmove"));
        assert_eq!(l.last().unwrap(), "bestmove (none)");
        assert!(ask(&mut k, "weather").starts_with("info string error: "));
    }
}

#[test]
fn query_answers_agree_with_the_rules_library_on_random_playouts() {
    for &g in GameId::ALL {
        let mut k = Koma::spawn();
        k.send("ugi");
        k.read_until(T, |l| l == "ugiok");
        k.send(&format!("setoption name UCI_Variant value {g}"));
        for seed in 100..104 {
            let line = g.visit(Playout(seed));
            let mut moves = vec![];
            for (i, (m, status, side)) in line.iter().enumerate() {
                if i > 0 {
                    moves.push(m.as_str());
                }
                // Every third position, and the last, to keep it quick.
                if i % 3 != 0 && i + 1 != line.len() {
                    continue;
                }
                k.send(&format!("position startpos moves {}", moves.join(" ")));
                let over = if status.is_some() {
                    "response true"
                } else {
                    "response false"
                };
                assert_eq!(ask(&mut k, "gameover"), over, "{g} after {moves:?}");
                let p1 = if *side == Color::First {
                    "response true"
                } else {
                    "response false"
                };
                assert_eq!(ask(&mut k, "p1turn"), p1);
                let result = match status.map(|e| e.outcome) {
                    None => "response none",
                    Some(Outcome::Draw) => "response draw",
                    Some(Outcome::Win(Color::First)) => "response p1win",
                    Some(Outcome::Win(Color::Second)) => "response p2win",
                };
                assert_eq!(ask(&mut k, "result"), result);
            }
        }
    }
}

/// A UGI match runner that knows nothing of the rules: it relays moves
/// between two `koma` processes and trusts their `query` answers, as
/// cutegames' runner does. Both engines must agree on every answer.
#[test]
fn a_rules_blind_ugi_runner_plays_a_full_game_of_every_game() {
    for &g in GameId::ALL {
        let mut engines = [Koma::spawn(), Koma::spawn()];
        for k in engines.iter_mut() {
            k.send("ugi");
            k.read_until(T, |l| l == "ugiok");
            k.send(&format!("setoption name UCI_Variant value {g}"));
            k.send("uginewgame");
        }
        let mut moves: Vec<String> = vec![];
        let result = loop {
            let pos = format!("position startpos moves {}", moves.join(" "));
            let mut over = vec![];
            for k in engines.iter_mut() {
                k.send(&pos);
                over.push(ask(k, "gameover"));
            }
            assert_eq!(over[0], over[1], "{g}: engines disagree after {moves:?}");
            if over[0] == "response true" {
                let r: Vec<String> = engines.iter_mut().map(|k| ask(k, "result")).collect();
                assert_eq!(r[0], r[1]);
                break r[0].clone();
            }
            let turn = ask(&mut engines[0], "p1turn");
            let mover = &mut engines[if turn == "response true" { 0 } else { 1 }];
            mover.send("go nodes 3000");
            let l = mover.read_until(T, |l| l.starts_with("bestmove"));
            let mv = l.last().unwrap()["bestmove ".len()..].to_string();
            assert_ne!(mv, "(none)", "{g}: no move but the game is not over");
            moves.push(mv);
            // Kani Nari Ebi has no draw rule: runners adjudicate long games.
            if moves.len() >= 300 {
                break "response none".into();
            }
        };
        eprintln!("{g}: {} plies, {result}", moves.len());
        assert!(
            [
                "response p1win",
                "response p2win",
                "response draw",
                "response none"
            ]
            .contains(&result.as_str())
        );
    }
}
