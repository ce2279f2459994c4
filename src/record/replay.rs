//! The replay check (`koma-referee --replay`, the board's reading of a
//! record): a record re-validated with the rules library: the variant and
//! rule tags, the start position, every move's legality (and that none
//! follows the end), and that the recorded end agrees with the final
//! position: a rules end must be the rules' own verdict, and an engine
//! failure or adjudication must leave a game the rules had not ended.

use super::adjudicate;
use super::build::{rule_values, rules_of};
pub use super::invalid::{EndError, RecordError, TagError};
use super::shard::Shard;
use super::tables::{TbMode, TbRule};
use super::tags;
use crate::client::reason::Reason;
use crate::core::{End, Game, GameLine, MoveText, Outcome, RuleValues, Rules, Searchable};
use crate::games::{GameId, GameVisitor};
use crate::protocol::parse_position;
use crate::protocol::record::{Record, tag_number};

/// Games in the match a record's `RefereeCommand` tag describes (`None`
/// without a readable one). The command line is the referee's to read: a
/// caller that can read it passes the reader to the check.
pub type MatchSize = fn(&Record) -> Option<u64>;

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

/// The tags every record must get right before its moves are looked at:
/// each tag at most once, and the number tags numbers in their range.
fn check_tags(r: &Record, size: Option<MatchSize>) -> Result<(), TagError> {
    // One pass with a set: comparing each tag with those before it took
    // minutes for a record of 200,000 tags.
    let mut seen = std::collections::HashSet::with_capacity(r.tags.len());
    for (name, _) in &r.tags {
        if !seen.insert(name.as_str()) {
            return Err(TagError::TwoTags(name.clone()));
        }
    }
    for (name, min) in NUMBER_TAGS {
        let Some(v) = r.tag(name) else { continue };
        let max = if name == tags::MAX_PLIES {
            u64::from(u32::MAX)
        } else {
            u64::MAX
        };
        let value = v.to_string();
        match whole_number(v) {
            Some(n) if (min..=max).contains(&n) => {}
            _ if max == u64::MAX => return Err(TagError::NotWhole { name, value, min }),
            _ => {
                return Err(TagError::OutOfRange {
                    name,
                    value,
                    min,
                    max,
                });
            }
        }
    }
    if let (Some(game), Some(total)) = (tag_number(r, tags::GAME), size.and_then(|s| s(r)))
        && game > total
    {
        return Err(TagError::PastTheMatch { game, total });
    }
    if let Some(v) = r.tag(tags::SHARD)
        && v.parse::<Shard>().is_err()
    {
        return Err(TagError::BadShard(v.to_string()));
    }
    let moves = r.moves.len();
    if let Some(said) = tag_number(r, tags::PLY_COUNT)
        && said != moves as u64
    {
        return Err(TagError::PlyCount { said, moves });
    }
    if let Some(said) = tag_number(r, tags::OPENING_PLIES)
        && said > moves as u64
    {
        return Err(TagError::OpeningPlies { said, moves });
    }
    Ok(())
}

/// What a record must get right before its game is known: its tags, a
/// variant `game` knows, one result, a `Termination` tag (returned with
/// the game and the outcome).
fn head<T>(
    r: &Record,
    size: Option<MatchSize>,
    game: impl FnOnce(&str) -> Option<T>,
) -> Result<(T, Outcome, &str), TagError> {
    check_tags(r, size)?;
    let variant = r.tag(tags::VARIANT).ok_or(TagError::NoVariant)?;
    let game = game(variant).ok_or_else(|| TagError::UnknownVariant(variant.to_string()))?;
    let result = r.tag(tags::RESULT).unwrap_or(&r.result);
    if result != r.result {
        return Err(TagError::ResultDiffers {
            tag: result.to_string(),
            movetext: r.result.clone(),
        });
    }
    let outcome: Outcome = r
        .result
        .parse()
        .map_err(|_| TagError::NoResult(r.result.clone()))?;
    let term = r.tag(tags::TERMINATION).ok_or(TagError::NoTermination)?;
    Ok((game, outcome, term))
}

/// Checks one record of a game of the registry (its `Variant` tag names
/// it); `size` reads the size of its match when the caller can.
pub fn check(r: &Record, size: Option<MatchSize>) -> Result<(), RecordError> {
    let (game, outcome, term) = head(r, size, GameId::from_name)?;
    let reason =
        Reason::from_message(term).ok_or_else(|| TagError::UnknownTermination(term.to_string()))?;
    let rules = rule_values(r, game)?;
    struct Check<'a> {
        r: &'a Record,
        rules: RuleValues,
        outcome: Outcome,
        reason: Reason,
    }
    impl GameVisitor for Check<'_> {
        type Output = Result<(), RecordError>;
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

/// Checks one record of `G`, a game the registry need not know: its
/// `Variant` tag must name `G`, its `Termination` be one of `G`'s endings
/// or a generic one.
pub fn check_as<G: Game>(r: &Record, size: Option<MatchSize>) -> Result<(), RecordError> {
    let ((), outcome, term) = head(r, size, |v| (v == G::NAME).then_some(()))?;
    let reason = Reason::from_game_message(term, G::ENDINGS)
        .ok_or_else(|| TagError::UnknownTermination(term.to_string()))?;
    check_game::<G>(r, &rules_of::<G>(r)?, outcome, reason)
}

fn check_game<G: Game>(
    r: &Record,
    rules: &G::Rules,
    outcome: Outcome,
    reason: Reason,
) -> Result<(), RecordError> {
    let start = match r.tag(tags::FEN) {
        Some(f) => Some(parse_position(f).map_err(RecordError::Fen)?),
        None => None,
    };
    let moves: Vec<MoveText> = r.moves.iter().map(|m| m.mv).collect();
    let status = GameLine::<G>::from_text(start.as_ref(), &moves, rules)
        .map_err(RecordError::Line)?
        .status();
    check_end(r, status, outcome, reason)?;
    Ok(check_adjudication(r, outcome, reason)?)
}

/// The recorded end against the rules' verdict on the final position
/// (`status`).
fn check_end(
    r: &Record,
    status: Option<End>,
    outcome: Outcome,
    reason: Reason,
) -> Result<(), EndError> {
    match (reason, status) {
        (Reason::Rules(want), Some(end)) => {
            if end.reason != want || end.outcome != outcome {
                return Err(EndError::NotTheRulesEnd {
                    outcome,
                    reason: want,
                    end,
                });
            }
        }
        (Reason::Rules(want), None) => return Err(EndError::NotOver(want)),
        (_, Some(end)) => return Err(EndError::AlreadyOver { reason, end }),
        (Reason::PlyLimit, None) => {
            if outcome != Outcome::Draw {
                return Err(EndError::PlyLimitNotDrawn);
            }
            if let Some(max) = tag_number(r, tags::MAX_PLIES)
                && (r.moves.len() as u64) < max
            {
                return Err(EndError::BeforeThePlyLimit {
                    plies: r.moves.len(),
                    max,
                });
            }
        }
        // The tables' verdict is not read again here (the record does not
        // say where they are): the rule it was called under must be stated.
        (Reason::Tablebase, None) => {
            let rule = r.tag(tags::TABLEBASE_ADJUDICATION).and_then(TbRule::parse);
            let Some(rule) = rule else {
                return Err(EndError::NoTablebaseRule);
            };
            if rule.mode == TbMode::WinLoss && outcome == Outcome::Draw
                || rule.mode == TbMode::Draw && outcome != Outcome::Draw
            {
                return Err(EndError::NoTablebaseRule);
            }
        }
        (Reason::ScoreDraw, None) => {
            if outcome != Outcome::Draw {
                return Err(EndError::MustBeDrawn(reason));
            }
        }
        (_, None) => {
            if outcome == Outcome::Draw {
                return Err(EndError::CannotBeDrawn(reason));
            }
        }
    }
    Ok(())
}

/// The scores in the move comments, replayed through the record's
/// `--draw` and `--resign` rules, must call for an adjudication exactly
/// where the record has one, and nowhere before its end.
fn check_adjudication(r: &Record, outcome: Outcome, reason: Reason) -> Result<(), EndError> {
    let rules = adjudicate::rules_of(r).map_err(EndError::Adjudication)?;
    let called = adjudicate::first_call(r, rules);
    let plies = r.moves.len();
    let by_score = matches!(reason, Reason::ScoreDraw | Reason::ScoreResign);
    match called {
        None if by_score => Err(EndError::NotCalled(reason)),
        Some((ply, e))
            if by_score && (ply != plies || e.reason != reason || e.outcome != outcome) =>
        {
            Err(EndError::CalledOtherwise {
                outcome,
                reason,
                plies,
                called: (e.outcome, e.reason),
                ply,
            })
        }
        Some((ply, e)) if ply < plies || (ply == plies && reason.is_failure()) => {
            Err(EndError::CalledBefore {
                called: e.reason,
                ply,
                reason,
            })
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parse_move;
    use crate::protocol::record::RecordMove;

    /// The check in words, as the referee prints them.
    fn check(r: &Record) -> Result<(), String> {
        super::check(r, None).map_err(|e| e.to_string())
    }

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

    #[test]
    fn a_game_past_the_matchs_games_is_invalid_where_the_match_is_read() {
        let mut r = record(&["a1a2", "i9i8"], "1-0", "loses on time");
        r.tags.push(("Game".into(), "5".into()));
        let four: MatchSize = |_| Some(4);
        assert_eq!(
            super::check(&r, Some(four)).map_err(|e| e.to_string()),
            Err("game 5 of a match of 4 games".into())
        );
        assert_eq!(check(&r), Ok(()));
    }

    #[test]
    fn a_record_checked_as_one_game_must_name_that_game() {
        use crate::games::hasami::Hasami;
        let r = record(&["a1a2", "i9i8"], "1-0", "loses on time");
        assert_eq!(check_as::<Hasami>(&r, None), Ok(()));
        let mut nana = r.clone();
        nana.set_tag("Variant", "nana");
        assert_eq!(
            check_as::<Hasami>(&nana, None),
            Err(RecordError::Tag(TagError::UnknownVariant("nana".into())))
        );
    }
}
