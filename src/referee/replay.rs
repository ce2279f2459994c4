//! `--replay FILE`: re-validates every record of a record file with the
//! rules library: the variant and rule tags, the start position, every
//! move's legality (and that none follows the end), and that the recorded
//! end agrees with the final position: a rules end must be the rules' own
//! verdict, and an engine failure or adjudication must leave a game the
//! rules had not ended.

use super::RunError;
use super::cli::recorded_match;
use super::matches::adjudicate;
use super::store::files::{FileError, open_regular};
use super::store::records;
use super::store::shard::Shard;
use crate::client::reason::Reason;
use crate::core::{Game, GameLine, MoveText, Outcome, RuleValues, Rules, Searchable};
use crate::games::{GameId, GameVisitor};
use crate::protocol::parse_position;
use crate::protocol::record::{Record, RecordChunks, parse_record, tag_number};
use crate::record::{self, tags};
use std::path::Path;
use std::process::ExitCode;

/// Tags the referee writes that hold a whole number, with the smallest
/// value each may take.
const NUMBER_TAGS: [(&str, u64); 6] = [
    (tags::PLY_COUNT, 0),
    (tags::OPENING_PLIES, 0),
    (tags::OPENING_SUITE_SIZE, 1),
    (tags::MAX_PLIES, 1),
    (tags::GAME, 1),
    (tags::PAIR, 1),
];

/// A whole number of plain digits (no sign, no blanks), as the referee
/// writes it.
fn whole_number(v: &str) -> Option<u64> {
    if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    v.parse().ok()
}

/// Games in the match a record's `RefereeCommand` describes (`None`
/// without a readable one). The records of a file mostly share one
/// command: the last is remembered, so a file is not parsed once per record.
fn match_games(r: &Record) -> Option<u64> {
    thread_local! {
        static LAST: std::cell::RefCell<Option<(String, Option<u64>)>> =
            const { std::cell::RefCell::new(None) };
    }
    let command = r.tag(tags::COMMAND)?;
    LAST.with_borrow_mut(|last| {
        if let Some((c, total)) = last.as_ref()
            && c == command
        {
            return *total;
        }
        let total = records::split_shell_words(command)
            .and_then(|w| recorded_match(&w))
            .map(|m| m.total_games)
            .filter(|&t| t > 0);
        *last = Some((command.to_string(), total));
        total
    })
}

/// The tags every record must get right before its moves are looked at:
/// each tag at most once, and the number tags numbers in their range.
fn check_tags(r: &Record) -> Result<(), String> {
    // One pass with a set: comparing each tag with those before it took
    // minutes for a record of 200,000 tags.
    let mut seen = std::collections::HashSet::with_capacity(r.tags.len());
    for (name, _) in &r.tags {
        if !seen.insert(name.as_str()) {
            return Err(format!("two {name} tags"));
        }
    }
    for (name, min) in NUMBER_TAGS {
        let Some(v) = r.tag(name) else { continue };
        let max = if name == tags::MAX_PLIES {
            u64::from(u32::MAX)
        } else {
            u64::MAX
        };
        match whole_number(v) {
            Some(n) if (min..=max).contains(&n) => {}
            _ if max == u64::MAX => {
                return Err(format!(
                    "{name} {v:?} is not a whole number of {min} or more"
                ));
            }
            _ => {
                return Err(format!(
                    "{name} {v:?} is not a whole number from {min} to {max}"
                ));
            }
        }
    }
    if let (Some(n), Some(total)) = (tag_number(r, tags::GAME), match_games(r))
        && n > total
    {
        return Err(format!("game {n} of a match of {total} games"));
    }
    if let Some(v) = r.tag(tags::SHARD)
        && v.parse::<Shard>().is_err()
    {
        return Err(format!("Shard {v:?} is not I/N with 1 <= I <= N"));
    }
    if let Some(n) = tag_number(r, tags::PLY_COUNT)
        && n != r.moves.len() as u64
    {
        return Err(format!(
            "PlyCount says {n}, the record has {} moves",
            r.moves.len()
        ));
    }
    if let Some(n) = tag_number(r, tags::OPENING_PLIES)
        && n > r.moves.len() as u64
    {
        return Err(format!(
            "OpeningPlies says {n}, the record has {} moves",
            r.moves.len()
        ));
    }
    Ok(())
}

/// Checks one record; the error says what is wrong.
pub fn check(r: &Record) -> Result<(), String> {
    check_tags(r)?;
    let variant = r.tag(tags::VARIANT).ok_or("no Variant tag")?;
    let game = GameId::from_name(variant).ok_or_else(|| format!("unknown variant {variant}"))?;
    let result = r.tag(tags::RESULT).unwrap_or(&r.result);
    if result != r.result {
        return Err(format!(
            "the Result tag says {result}, the movetext {}",
            r.result
        ));
    }
    let outcome: Outcome = r
        .result
        .parse()
        .map_err(|_| format!("no result ({})", r.result))?;
    let term = r.tag(tags::TERMINATION).ok_or("no Termination tag")?;
    let reason = Reason::from_message(term).ok_or_else(|| format!("unknown Termination {term}"))?;
    let rules = record::rule_values(r, game)?;
    struct Check<'a> {
        r: &'a Record,
        rules: RuleValues,
        outcome: Outcome,
        reason: Reason,
    }
    impl GameVisitor for Check<'_> {
        type Output = Result<(), String>;
        fn visit<G: Searchable>(self) -> Self::Output {
            let rules = G::Rules::from_values(&self.rules)?;
            check_game::<G>(self.r, &rules, self.outcome, self.reason)
        }
    }
    game.visit(Check {
        r,
        rules,
        outcome,
        reason,
    })
}

fn check_game<G: Game>(
    r: &Record,
    rules: &G::Rules,
    outcome: Outcome,
    reason: Reason,
) -> Result<(), String> {
    let start = match r.tag(tags::FEN) {
        Some(f) => Some(parse_position(f).map_err(|e| format!("FEN: {e}"))?),
        None => None,
    };
    let moves: Vec<MoveText> = r.moves.iter().map(|m| m.mv).collect();
    let status = GameLine::<G>::from_text(start.as_ref(), &moves, rules)
        .map_err(|e| e.to_string())?
        .status();
    match (reason, status) {
        (Reason::Rules(want), Some(end)) => {
            if end.reason != want || end.outcome != outcome {
                return Err(format!(
                    "recorded {} {}, the rules give {end}",
                    outcome.score_text(),
                    want.message()
                ));
            }
        }
        (Reason::Rules(want), None) => {
            return Err(format!(
                "recorded an end by {}, but the game is not over",
                want.message()
            ));
        }
        (_, Some(end)) => {
            return Err(format!(
                "recorded {}, but the rules had ended the game ({end})",
                reason.message()
            ));
        }
        (Reason::PlyLimit, None) => {
            if outcome != Outcome::Draw {
                return Err("a ply-limit adjudication must be a draw".into());
            }
            if let Some(max) = tag_number(r, tags::MAX_PLIES)
                && (r.moves.len() as u64) < max
            {
                return Err(format!(
                    "adjudicated at {} plies, before the limit of {max}",
                    r.moves.len()
                ));
            }
        }
        (Reason::ScoreDraw, None) => {
            if outcome != Outcome::Draw {
                return Err(format!("a {} must be a draw", reason.message()));
            }
        }
        (_, None) => {
            if outcome == Outcome::Draw {
                return Err(format!("{} cannot be a draw", reason.message()));
            }
        }
    }
    check_adjudication(r, outcome, reason)
}

/// The scores in the move comments, replayed through the record's
/// `--draw` and `--resign` rules, must call for an adjudication exactly
/// where the record has one, and nowhere before its end.
fn check_adjudication(r: &Record, outcome: Outcome, reason: Reason) -> Result<(), String> {
    let rules = adjudicate::rules_of(r)?;
    let called = adjudicate::first_call(r, rules);
    let plies = r.moves.len();
    let by_score = matches!(reason, Reason::ScoreDraw | Reason::ScoreResign);
    match called {
        None if by_score => Err(format!(
            "recorded {}, but the scores in the move comments do not call for it",
            reason.message()
        )),
        Some((ply, e))
            if by_score && (ply != plies || e.reason != reason || e.outcome != outcome) =>
        {
            Err(format!(
                "recorded {} {} at ply {plies}, the scores in the move comments give {} {} at ply {ply}",
                outcome.score_text(),
                reason.message(),
                e.outcome.score_text(),
                e.reason.message()
            ))
        }
        Some((ply, e)) if ply < plies || (ply == plies && reason.is_failure()) => Err(format!(
            "the scores in the move comments call for {} at ply {ply}, but the game went on to {}",
            e.reason.message(),
            reason.message()
        )),
        _ => Ok(()),
    }
}

/// Checks every record of `path`, printing each problem; exit 0 when all
/// are valid, 1 when some are not (a record that cannot even be read, such
/// as one with a byte that is not UTF-8, is one invalid record); an error
/// when the file cannot be read (missing, not a regular file, an I/O
/// error: the binary exits with 2). The file is read one record at a time.
pub fn run_replay(path: &Path) -> Result<ExitCode, RunError> {
    let unreadable = |e| RunError::File(FileError::io("read", "", path)(e));
    let file = open_regular(path, std::fs::OpenOptions::new().read(true)).map_err(unreadable)?;
    let mut total = 0;
    let mut bad = 0;
    for chunk in RecordChunks::new(std::io::BufReader::new(file)) {
        let chunk = chunk.map_err(unreadable)?;
        total += 1;
        let verdict = chunk.text.and_then(|text| {
            let r = parse_record(&text).map_err(|e| e.to_string())?;
            check(&r).map_err(|e| match r.tag(tags::GAME) {
                Some(g) => format!("game {g}: {e}"),
                None => e,
            })
        });
        if let Err(e) = verdict {
            bad += 1;
            println!("{} line {}: {e}", path.display(), chunk.line);
        }
    }
    if bad == 0 {
        println!("{}: {total} records, all valid", path.display());
        Ok(ExitCode::SUCCESS)
    } else {
        println!("{}: {total} records, {bad} invalid", path.display());
        Ok(ExitCode::from(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parse_move;
    use crate::protocol::record::RecordMove;

    fn record(moves: &[&str], result: &str, term: &str) -> Record {
        Record {
            tags: vec![
                ("Variant".into(), "hasami".into()),
                ("Result".into(), result.into()),
                ("Termination".into(), term.into()),
            ],
            moves: moves
                .iter()
                .map(|m| RecordMove {
                    mv: parse_move(m).unwrap(),
                    comment: None,
                })
                .collect(),
            result: result.into(),
        }
    }

    #[test]
    fn legal_games_ended_by_a_failure_are_valid() {
        assert_eq!(
            check(&record(&["a1a2", "i9i8"], "1-0", "loses on time")),
            Ok(())
        );
        assert_eq!(check(&record(&[], "0-1", "fails to start")), Ok(()));
    }

    #[test]
    fn illegal_moves_and_wrong_ends_are_found() {
        let e = check(&record(&["a1a2", "a2a3"], "1-0", "loses on time")).unwrap_err();
        assert!(e.contains("illegal"), "{e}");
        let e = check(&record(&["a1a2"], "1-0", "enough captures")).unwrap_err();
        assert!(e.contains("not over"), "{e}");
        let e = check(&record(&["a1a2"], "1/2-1/2", "loses on time")).unwrap_err();
        assert!(e.contains("cannot be a draw"), "{e}");
        let e = check(&record(&["a1a2"], "1-0", "resigns")).unwrap_err();
        assert!(e.contains("unknown Termination"), "{e}");
        let mut r = record(&["a1a2"], "1-0", "loses on time");
        r.tags.push(("HasamiWin".into(), "six".into()));
        assert!(check(&r).is_err());
    }

    #[test]
    fn number_tags_must_be_whole_numbers_in_range() {
        let base = || record(&["a1a2", "i9i8"], "1-0", "loses on time");
        for (tag, value, words) in [
            ("PlyCount", "9999999999999999999999928", "PlyCount"),
            ("PlyCount", "-2", "PlyCount"),
            ("PlyCount", " 2", "PlyCount"),
            ("PlyCount", "3", "PlyCount says 3"),
            ("MaxPlies", "-1000", "MaxPlies"),
            ("MaxPlies", "0", "MaxPlies"),
            ("MaxPlies", "4294967296", "MaxPlies"),
            ("OpeningPlies", "3", "OpeningPlies says 3"),
            ("Game", "x", "Game"),
            ("Pair", "0", "Pair"),
        ] {
            let mut r = base();
            r.tags.push((tag.into(), value.into()));
            let e = check(&r).unwrap_err();
            assert!(e.contains(words), "{tag} {value:?}: {e}");
        }
        let mut r = base();
        for (t, v) in [
            ("PlyCount", "2"),
            ("MaxPlies", "4294967295"),
            ("OpeningPlies", "2"),
        ] {
            r.tags.push((t.into(), v.into()));
        }
        assert_eq!(check(&r), Ok(()));
    }

    #[test]
    fn a_shards_tags_are_valid_and_its_index_within_its_count() {
        let mut r = record(&["a1a2", "i9i8"], "1-0", "loses on time");
        for (t, v) in [
            ("Shard", "4/4"),
            ("Site", "node7"),
            ("FirstEngine", "Koma 0.1.0"),
            ("SecondEngine", "mock"),
            ("RefereeCommand", "koma-referee --engine cmd=a 'name=x y'"),
        ] {
            r.tags.push((t.into(), v.into()));
        }
        assert_eq!(check(&r), Ok(()));
        for bad in ["5/4", "0/4", "1", "x"] {
            r.set_tag("Shard", bad);
            let e = check(&r).unwrap_err();
            assert!(e.contains("Shard"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_tag_given_twice_makes_the_record_invalid() {
        let mut r = record(&["a1a2"], "1-0", "loses on time");
        r.tags.push(("Variant".into(), "nana".into()));
        assert_eq!(check(&r), Err("two Variant tags".into()));
    }
}
