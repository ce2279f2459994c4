//! Every game plays itself through the real binary's protocol: each
//! `bestmove` must be accepted back, and a finished game must say so
//! consistently through `query` and `d`.

mod common;
use common::Koma;
use koma::games::GameId;
use std::time::Duration;

const T: Duration = Duration::from_secs(20);

fn play_one(game: GameId, go: &str, max_plies: usize) -> (usize, String) {
    let mut k = Koma::spawn();
    k.send(&format!("setoption name UCI_Variant value {game}"));
    let mut moves: Vec<String> = vec![];
    for _ in 0..max_plies {
        let pos = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        k.send(&pos);
        k.send("query gameover");
        let lines = k.read_until(T, |l| {
            l.starts_with("response") || l.starts_with("info string error")
        });
        let last = lines.last().unwrap();
        assert!(
            last.starts_with("response"),
            "{game}: {pos} was rejected: {last}"
        );
        if last == "response true" {
            k.send("go depth 1");
            let l = k.read_until(T, |l| l.starts_with("bestmove"));
            assert_eq!(
                l.last().unwrap(),
                "bestmove (none)",
                "{game}: a finished game has no move"
            );
            k.send("query result");
            let r = k.read_until(T, |l| l.starts_with("response"));
            return (moves.len(), r.last().unwrap().clone());
        }
        k.send(go);
        let l = k.read_until(T, |l| l.starts_with("bestmove"));
        let mv = l
            .last()
            .unwrap()
            .strip_prefix("bestmove ")
            .unwrap()
            .to_string();
        assert_ne!(
            mv, "(none)",
            "{game}: no move in an unfinished game at {pos}"
        );
        moves.push(mv);
    }
    (moves.len(), "response none".into())
}

#[test]
fn every_game_plays_itself_without_an_illegal_move() {
    for &g in GameId::ALL {
        let (plies, result) = play_one(g, "go nodes 400", 400);
        assert!(plies > 0);
        assert!(result.starts_with("response "), "{g}: {result}");
        eprintln!("{g}: {plies} plies, {result}");
    }
}
