//! Game records on the board, in the referee's record format: a game is
//! saved with `record::build` and a header of its own (so `koma-referee
//! --replay` and `--report` read it), and any record file is read with
//! the protocol's record parser, checked with the record's replay check
//! (the referee's `--replay`), and replayed with the rules library to be
//! stepped through.

use super::games::{BoardGames, check_record};
use super::play::Play;
use super::review::GameAnalysis;
use super::table::{Review, TableState};
use crate::core::PositionText;
use crate::protocol::parse_position;
use crate::protocol::record::{Record, parse_record_tree, parse_records};
use crate::record::replay::MatchSize;
use crate::record::{self, RecordHeader, tags};
use serde::Serialize;

/// The record of a table: a loaded record as it was read, a game with a
/// header of its own (one still in progress with the result `*` and no
/// `Termination`); with the tags of its review when it has one.
pub fn record_of(st: &TableState) -> Record {
    let mut r = match &st.review {
        Some(rv) => rv.record.clone(),
        None => game_record(st),
    };
    if let Some(a) = &st.analysis {
        a.tag(&mut r);
    }
    r
}

fn game_record(st: &TableState) -> Record {
    let header = RecordHeader {
        fingerprint: None,
        event: "koma-board game",
        date: &st.created,
        round: 1,
        game: 1,
        pair: None,
        names: st.names(),
        variant: st.play.line().game(),
        rules: st.play.rules(),
        start: st.play.line().start_text(),
        limits: [&st.players[0].limits, &st.players[1].limits],
        max_plies: st.max_plies,
        suite: None,
    };
    record::build(&header, st.end.as_ref(), &st.record_moves(), 0)
}

/// A short description of every record of a file, for the page to list;
/// `size` reads the size of a record's match (see `replay::check`).
pub fn list(games: &BoardGames, text: &str, size: Option<MatchSize>) -> impl Serialize {
    #[derive(Serialize)]
    struct Records {
        records: Vec<Item>,
    }
    /// A record of the file: `ok` is whether it could be read at all.
    #[derive(Serialize)]
    struct Item {
        index: usize,
        line: usize,
        ok: bool,
        #[serde(flatten)]
        what: What,
    }
    #[derive(Serialize)]
    #[serde(untagged)]
    enum What {
        Unread {
            error: String,
        },
        Read {
            variant: Option<String>,
            first: Option<String>,
            second: Option<String>,
            result: String,
            termination: Option<String>,
            game: Option<String>,
            plies: usize,
            valid: bool,
            check: Option<String>,
        },
    }
    let what = |r: &Record| {
        let tag = |name| r.tag(name).map(str::to_string);
        let check = check_record(games, r, size).map_err(|e| e.to_string());
        What::Read {
            variant: tag(tags::VARIANT),
            first: tag(tags::FIRST),
            second: tag(tags::SECOND),
            result: r.result.clone(),
            termination: tag(tags::TERMINATION),
            game: tag(tags::GAME),
            plies: r.moves.len(),
            valid: check.is_ok(),
            check: check.err(),
        }
    };
    let items = parse_records(text).into_iter().enumerate();
    Records {
        records: items
            .map(|(index, item)| Item {
                index,
                line: item.line,
                ok: item.record.is_ok(),
                what: match &item.record {
                    Err(e) => What::Unread {
                        error: e.to_string(),
                    },
                    Ok(r) => what(r),
                },
            })
            .collect(),
    }
}

/// A record ready to be stepped through.
pub struct Loaded {
    pub play: Box<dyn Play>,
    pub review: Review,
    pub names: [String; 2],
    /// The record's move comments, by ply.
    pub comments: Vec<Option<String>>,
    /// The review saved in the record's tags (or why it cannot be read).
    pub analysis: Option<Result<GameAnalysis, String>>,
    /// The variations beside the record's moves.
    pub variations: Vec<crate::protocol::record::Variation>,
}

/// Replays record `index` of a record file with the rules library. Moves
/// up to the first one that is not legal are kept; the review says why
/// the rest was dropped.
pub fn load(
    games: &BoardGames,
    text: &str,
    index: usize,
    size: Option<MatchSize>,
) -> Result<Loaded, String> {
    let items = parse_records(text);
    if items.is_empty() {
        return Err(
            "the file holds no record (a record starts with a [Tag \"value\"] line)".into(),
        );
    }
    let item = items.get(index).ok_or_else(|| {
        format!(
            "there is no record {index}: the file holds {} (counted from 0)",
            items.len()
        )
    })?;
    item.record
        .as_ref()
        .map_err(|e| format!("record at line {} cannot be read: {e}", item.line))?;
    // The same chunk again, for the variations the referee leaves out.
    let (record, variations) = parse_record_tree(&text[item.span.clone()])
        .map_err(|e| format!("record at line {} cannot be read: {e}", item.line))?;
    let r = &record;
    let variant = r
        .tag(tags::VARIANT)
        .ok_or("the record has no Variant tag")?;
    let game = games.named(variant).ok_or_else(|| {
        let names = games.names();
        format!(
            "unknown Variant {variant}: expected one of {}",
            names.join(", ")
        )
    })?;
    let rules = record::rule_values(r, game.id())?;
    let start: Option<PositionText> = match r.tag(tags::FEN) {
        Some(f) => Some(parse_position(f).map_err(|e| format!("FEN tag: {e}"))?),
        None => None,
    };
    let mut play = (game.new_play)(&rules, start.as_ref()).map_err(|e| e.to_string())?;
    let mut error = None;
    for m in &r.moves {
        if let Err(e) = play.line_mut().play_text(&m.mv) {
            error = Some(format!("{e}; the moves after it are not shown"));
            break;
        }
    }
    let names = [
        r.tag(tags::FIRST).unwrap_or("first player").to_string(),
        r.tag(tags::SECOND).unwrap_or("second player").to_string(),
    ];
    let review = Review {
        tags: r.tags.clone(),
        result: r.result.clone(),
        sentence: record::sentence(r),
        error,
        check: check_record(games, r, size).map_err(|e| e.to_string()),
        record: r.clone(),
    };
    let comments = r.moves.iter().map(|m| m.comment.clone()).collect();
    let movers = (0..=play.line().plies())
        .map(|k| play.line().side_at(k))
        .collect();
    let analysis = GameAnalysis::from_record(r, movers);
    Ok(Loaded {
        play,
        review,
        names,
        comments,
        analysis,
        variations,
    })
}
