//! `--replay FILE`: re-validates every record of a record file with the
//! rules library: the variant and rule tags, the start position, every
//! move's legality (and that none follows the end), and that the recorded
//! end agrees with the final position: a rules end must be the rules' own
//! verdict, and an engine failure or adjudication must leave a game the
//! rules had not ended.

use super::opening::{replay, start_position};
use super::reason::Reason;
use super::records::tags;
use super::report::outcome_of;
use crate::core::{Game, MoveText, Outcome, Rules, status_with_history};
use crate::games::{GameId, GameVisitor};
use crate::protocol::options::parse_option_value;
use crate::protocol::parse_position;
use crate::protocol::record::{Record, parse_records, tag_number};
use std::path::Path;
use std::process::ExitCode;

/// Checks one record; the error says what is wrong.
pub fn check(r: &Record) -> Result<(), String> {
    let variant = r.tag(tags::VARIANT).ok_or("no Variant tag")?;
    let game = GameId::from_name(variant).ok_or_else(|| format!("unknown variant {variant}"))?;
    let result = r.tag(tags::RESULT).unwrap_or(&r.result);
    if result != r.result {
        return Err(format!(
            "the Result tag says {result}, the movetext {}",
            r.result
        ));
    }
    let outcome = outcome_of(&r.result).ok_or_else(|| format!("no result ({})", r.result))?;
    let term = r.tag(tags::TERMINATION).ok_or("no Termination tag")?;
    let reason = Reason::from_message(term).ok_or_else(|| format!("unknown Termination {term}"))?;
    if let Some(n) = tag_number(r, tags::PLY_COUNT)
        && n != r.moves.len() as u64
    {
        return Err(format!(
            "PlyCount says {n}, the record has {} moves",
            r.moves.len()
        ));
    }
    struct Check<'a> {
        r: &'a Record,
        outcome: Outcome,
        reason: Reason,
    }
    impl GameVisitor for Check<'_> {
        type Output = Result<(), String>;
        fn visit<G: Game>(self) -> Self::Output {
            check_game::<G>(self.r, self.outcome, self.reason)
        }
    }
    game.visit(Check { r, outcome, reason })
}

fn check_game<G: Game>(r: &Record, outcome: Outcome, reason: Reason) -> Result<(), String> {
    let mut rules = G::Rules::default();
    for spec in G::Rules::specs() {
        if let Some(v) = r.tag(spec.name) {
            let value = parse_option_value(spec, Some(v))?;
            rules.set(spec.name, &value)?;
        }
    }
    let start = match r.tag(tags::FEN) {
        Some(f) => {
            let t = parse_position(f).map_err(|e| format!("FEN: {e}"))?;
            Some(t)
        }
        None => None,
    };
    let pos = start_position::<G>(start.as_ref(), &rules)?;
    let moves: Vec<MoveText> = r.moves.iter().map(|m| m.mv).collect();
    let (pos, history, _) = replay(pos, &moves)?;
    let status = status_with_history(&pos, &history);
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
        (_, None) => {
            if outcome == Outcome::Draw {
                return Err(format!("{} cannot be a draw", reason.message()));
            }
        }
    }
    Ok(())
}

/// Checks every record of `path`, printing each problem; exit 0 when all
/// are valid, 1 when some are not, 2 when the file cannot be read.
pub fn run_replay(path: &Path) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("koma-referee: cannot read {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let items = parse_records(&text);
    let mut bad = 0;
    for item in &items {
        let verdict = item
            .record
            .as_ref()
            .map_err(|e| e.to_string())
            .and_then(|r| {
                check(r).map_err(|e| match r.tag(tags::GAME) {
                    Some(g) => format!("game {g}: {e}"),
                    None => e,
                })
            });
        if let Err(e) = verdict {
            bad += 1;
            println!("{} line {}: {e}", path.display(), item.line);
        }
    }
    if bad == 0 {
        println!("{}: {} records, all valid", path.display(), items.len());
        ExitCode::SUCCESS
    } else {
        println!("{}: {} records, {bad} invalid", path.display(), items.len());
        ExitCode::from(1)
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
}
