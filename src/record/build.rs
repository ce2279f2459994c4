//! A game's record built from what any player of it knows (the referee's
//! matches and the board's games alike), and the tags read back: the
//! sentence of the end, the rule options.

use super::tags;
use crate::client::clock::EngineLimits;
use crate::client::reason::{Ending, Reason};
use crate::core::{
    Game, OptionSpec, OptionValue, PositionText, RuleError, RuleValues, Rules, read_rule_values,
};
use crate::games::GameId;
use crate::protocol::record::{Record, RecordMove};

/// What a record says besides its moves and its end, whoever played the
/// game: a match of the referee, or the board.
pub struct RecordHeader<'a> {
    /// The match the game belongs to (the `Match` tag; none outside one).
    pub fingerprint: Option<&'a str>,
    pub event: &'a str,
    pub date: &'a str,
    pub round: u32,
    pub game: u64,
    /// The colour-swapped pair of a match the game belongs to.
    pub pair: Option<u64>,
    /// By colour.
    pub names: [&'a str; 2],
    pub variant: &'a str,
    /// Every rule option of the game with its value.
    pub rules: &'a [(&'static str, OptionValue)],
    /// The start position when it is not the game's own.
    pub start: Option<&'a PositionText>,
    /// By colour; a side without any is written `-`.
    pub limits: [&'a EngineLimits; 2],
    pub max_plies: Option<u32>,
    /// The shipped opening suite the match plays (`variant/name`) and how
    /// many openings it holds.
    pub suite: Option<(&'a str, usize)>,
}

/// The record of one game: `end` is `None` while it is in progress (then
/// the result is `*`), `opening_plies` the moves that were not played by
/// the players.
pub fn build(
    h: &RecordHeader<'_>,
    end: Option<&Ending>,
    moves: &[RecordMove],
    opening_plies: usize,
) -> Record {
    let mut r = Record::default();
    let mut tag = |n: &str, v: String| r.tags.push((n.to_string(), v));
    // The Match tag comes first: a record cut short by a kill still shows
    // whose it was (see `state::load`).
    if let Some(f) = h.fingerprint {
        tag(tags::MATCH, f.to_string());
    }
    // PGN's seven-tag roster, in its order, for the tools that key on it
    // (pgn-extract, python-chess, Ordo): White moves first, Black second.
    let result = end.map_or("*", |e| e.outcome.score_text());
    tag("Event", h.event.to_string());
    tag(tags::SITE, "?".to_string());
    tag("Date", h.date.to_string());
    tag("Round", h.round.to_string());
    tag(tags::WHITE, h.names[0].to_string());
    tag(tags::BLACK, h.names[1].to_string());
    tag(tags::RESULT, result.to_string());
    tag(tags::GAME, h.game.to_string());
    if let Some(p) = h.pair {
        tag(tags::PAIR, p.to_string());
    }
    tag(tags::FIRST, h.names[0].to_string());
    tag(tags::SECOND, h.names[1].to_string());
    tag(tags::VARIANT, h.variant.to_string());
    for (name, value) in h.rules {
        tag(name, value.to_string());
    }
    if let Some(s) = h.start {
        tag("SetUp", "1".to_string());
        tag(tags::FEN, s.to_string());
    }
    let [a, b] = h.limits.map(|l| match l.to_string() {
        s if s.is_empty() => "-".to_string(),
        s => s,
    });
    if a == b {
        tag("TimeControl", a);
    } else {
        tag("FirstTimeControl", a);
        tag("SecondTimeControl", b);
    }
    if let Some(m) = h.max_plies {
        tag(tags::MAX_PLIES, m.to_string());
    }
    if let Some(e) = end {
        tag(tags::TERMINATION, e.reason.message().to_string());
        if let Some(d) = &e.detail {
            tag(tags::DETAILS, d.clone());
        }
    }
    tag(tags::PLY_COUNT, moves.len().to_string());
    tag(tags::OPENING_PLIES, opening_plies.to_string());
    if let Some((title, size)) = h.suite {
        tag(tags::OPENING_SUITE, title.to_string());
        tag(tags::OPENING_SUITE_SIZE, size.to_string());
    }
    r.moves = moves.to_vec();
    r.result = result.to_string();
    r
}

/// The sentence of a record's end, from its tags: `B loses on time`.
pub fn sentence(r: &Record) -> Option<String> {
    let reason = Reason::from_message(r.tag(tags::TERMINATION)?)?;
    let outcome = r.tag(tags::RESULT)?.parse().ok()?;
    let names = [r.tag(tags::FIRST)?, r.tag(tags::SECOND)?];
    Some(reason.sentence(outcome, names))
}

/// The rule options a record's tags give (tags are named as the options).
pub fn rule_values(r: &Record, game: GameId) -> Result<RuleValues, RuleError> {
    tagged_rules(r, game.name(), game.rule_specs())
}

/// The rules a record of `G` was played under, from its tags: for any
/// game, the registry's or not.
pub fn rules_of<G: Game>(r: &Record) -> Result<G::Rules, RuleError> {
    G::Rules::from_values(&tagged_rules(r, G::NAME, G::Rules::specs())?)
}

fn tagged_rules(
    r: &Record,
    game: &str,
    specs: &'static [OptionSpec],
) -> Result<RuleValues, RuleError> {
    let tagged = specs
        .iter()
        .filter_map(|s| r.tag(s.name).map(|v| (s.name, v)));
    read_rule_values(game, specs, tagged)
}
