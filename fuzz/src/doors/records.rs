//! Record files as the referee's `--replay` and `--report` read them (one
//! chunk at a time from a stream) and as the board reads them (the whole
//! text). Input: the file's bytes.
//!
//! Properties: the stream and the whole-text reader cut the file into the
//! same records at the same lines; a record read prints to text that
//! reads back to the same moves, result and tags, and prints the same
//! again; a record `--replay` accepts is accepted again once printed,
//! and replays on the board to the same result: every move played, and
//! the rules' end (when it ended by the rules) the recorded one.

use koma::board::games::BoardGames;
use koma::board::records::load;
use koma::client::reason::Reason;
use koma::core::Outcome;
use koma::protocol::record::{Record, RecordChunks, parse_record, parse_records};
use koma::record::replay::RecordError;
use koma::referee::replay::match_games;
use koma::referee::statistics::report::row_of;

/// The check `--replay` makes, with the referee's reader of its command
/// lines.
fn check(r: &Record) -> Result<(), RecordError> {
    koma::record::replay::check(r, Some(match_games))
}

pub fn records(data: &[u8]) {
    let chunks: Vec<_> = RecordChunks::new(data)
        .collect::<Result<_, _>>()
        .expect("reading from memory cannot fail");
    if let Ok(text) = std::str::from_utf8(data) {
        let items = parse_records(text);
        assert_eq!(chunks.len(), items.len(), "the two readers cut differently");
        for (c, item) in chunks.iter().zip(&items) {
            assert_eq!(c.line, item.line);
            assert_eq!(c.text.as_deref().ok(), Some(&text[item.span.clone()]));
        }
        for (k, item) in items.iter().enumerate() {
            if let Ok(r) = &item.record
                && check(r).is_ok()
            {
                replays_on_the_board(text, k, r);
            }
        }
    }
    for c in chunks {
        if let Ok(text) = c.text
            && let Ok(r) = parse_record(&text)
        {
            round_trip(&r);
        }
    }
}

fn round_trip(r: &Record) {
    let printed = r.to_string();
    let back = parse_record(&printed).unwrap_or_else(|e| panic!("{printed}: {e}"));
    let moves = |r: &Record| r.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
    let names = |r: &Record| r.tags.iter().map(|t| t.0.clone()).collect::<Vec<_>>();
    assert_eq!(moves(&back), moves(r), "{printed}");
    assert_eq!(back.result, r.result, "{printed}");
    assert_eq!(names(&back), names(r), "{printed}");
    assert_eq!(back.to_string(), printed);
    if check(r).is_ok() {
        assert_eq!(check(&back), Ok(()), "{printed}");
        if let Some(row) = row_of(r) {
            assert_eq!(Some(row.outcome), r.result.parse::<Outcome>().ok());
        }
    }
}

/// Record `k` of `text`, which `--replay` accepts, loaded as the board
/// loads a record to step through.
fn replays_on_the_board(text: &str, k: usize, r: &Record) {
    let loaded = load(&BoardGames::koma(), text, k, Some(match_games))
        .unwrap_or_else(|e| panic!("record {k}: {e}"));
    assert_eq!(loaded.review.error, None, "record {k}");
    assert_eq!(loaded.review.check, Ok(()), "record {k}");
    assert_eq!(loaded.play.line().plies(), r.moves.len(), "record {k}");
    let status = loaded.play.line().status();
    let reason = r.tag("Termination").and_then(Reason::from_message);
    match (reason, status) {
        (Some(Reason::Rules(why)), Some(end)) => {
            assert_eq!(end.reason, why, "record {k}");
            assert_eq!(
                Some(end.outcome),
                r.result.parse::<Outcome>().ok(),
                "record {k}"
            );
        }
        (_, None) => {}
        (reason, Some(end)) => panic!("record {k}: {reason:?} recorded, the board ends {end}"),
    }
}
