//! Every way a refereed game can end: one variant of `Reason`, one fixed
//! message. The message is the record's `Termination` tag; particulars (the
//! illegal move, the overrun in ms) go in a separate detail.

use crate::core::{Color, EndReason, Outcome};

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The game's own rules ended it.
    Rules(EndReason),
    /// `--max-plies` reached: adjudicated draw.
    PlyLimit,
    /// The engine could not be started or did not finish the handshake.
    FailedToStart,
    /// The engine closed its output or exited.
    Disconnected,
    /// The engine is running but answered no `isready` in time.
    Stalled,
    /// The engine used more than its clock and the margin.
    TimeForfeit,
    /// `bestmove` with a move that is not legal, malformed, or `(none)`.
    IllegalMove,
    /// A line that is not the protocol.
    Garbage,
}

/// Every `EndReason`, for reading `Termination` tags back.
const RULE_REASONS: [EndReason; 9] = [
    EndReason::Captures,
    EndReason::AllCaptured,
    EndReason::CaptureLead,
    EndReason::Shrimps,
    EndReason::KingCaptured,
    EndReason::NoLegalMove,
    EndReason::MoveLimit,
    EndReason::Repetition,
    EndReason::DoublePass,
];

/// Fails to compile when `core` gains an end reason `RULE_REASONS` lacks.
const fn _rule_reasons_are_complete(r: EndReason) {
    match r {
        EndReason::Captures
        | EndReason::AllCaptured
        | EndReason::CaptureLead
        | EndReason::Shrimps
        | EndReason::KingCaptured
        | EndReason::NoLegalMove
        | EndReason::MoveLimit
        | EndReason::Repetition
        | EndReason::DoublePass => {}
    }
}

const ENGINE_REASONS: [Reason; 7] = [
    Reason::PlyLimit,
    Reason::FailedToStart,
    Reason::Disconnected,
    Reason::Stalled,
    Reason::TimeForfeit,
    Reason::IllegalMove,
    Reason::Garbage,
];

impl Reason {
    pub fn message(self) -> &'static str {
        match self {
            Reason::Rules(r) => r.message(),
            Reason::PlyLimit => "ply limit",
            Reason::FailedToStart => "fails to start",
            Reason::Disconnected => "disconnects",
            Reason::Stalled => "stops answering",
            Reason::TimeForfeit => "loses on time",
            Reason::IllegalMove => "plays an illegal move",
            Reason::Garbage => "sends garbage",
        }
    }

    /// The reason whose message is `s` (a `Termination` tag).
    pub fn from_message(s: &str) -> Option<Reason> {
        RULE_REASONS
            .iter()
            .map(|&r| Reason::Rules(r))
            .chain(ENGINE_REASONS)
            .find(|r| r.message() == s)
    }

    /// Whether the side that failed lost the game (not the rules, not an
    /// adjudication).
    pub fn is_failure(self) -> bool {
        !matches!(self, Reason::Rules(_) | Reason::PlyLimit)
    }

    /// Whether the engine that failed cannot play on and must be restarted.
    pub fn ends_engine(self) -> bool {
        matches!(
            self,
            Reason::FailedToStart | Reason::Disconnected | Reason::Stalled
        )
    }

    /// The sentence of a finished game, e.g. `B loses on time`, `A wins by
    /// three Shrimps`, `draw by repetition`; `names` by colour.
    pub fn sentence(self, outcome: Outcome, names: [&str; 2]) -> String {
        match (self, outcome) {
            (_, Outcome::Draw) => format!("draw by {}", self.message()),
            (r, Outcome::Win(w)) if r.is_failure() => {
                format!("{} {}", names[w.opponent().index()], r.message())
            }
            (r, Outcome::Win(w)) => format!("{} wins by {}", names[w.index()], r.message()),
        }
    }

    /// The result of a failure by `loser`.
    pub fn loss_of(loser: Color) -> Outcome {
        Outcome::Win(loser.opponent())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_is_distinct_and_reads_back() {
        let all: Vec<Reason> = RULE_REASONS
            .iter()
            .map(|&r| Reason::Rules(r))
            .chain(ENGINE_REASONS)
            .collect();
        for r in &all {
            assert_eq!(Reason::from_message(r.message()), Some(*r));
        }
        let mut msgs: Vec<_> = all.iter().map(|r| r.message()).collect();
        msgs.sort();
        msgs.dedup();
        assert_eq!(msgs.len(), all.len());
        assert_eq!(Reason::from_message("resigns"), None);
    }

    #[test]
    fn sentences_name_the_loser_of_a_failure_and_the_winner_by_rules() {
        let names = ["A", "B"];
        assert_eq!(
            Reason::TimeForfeit.sentence(Reason::loss_of(Color::Second), names),
            "B loses on time"
        );
        assert_eq!(
            Reason::Rules(EndReason::Shrimps).sentence(Outcome::Win(Color::First), names),
            "A wins by three Shrimps"
        );
        assert_eq!(
            Reason::Rules(EndReason::Repetition).sentence(Outcome::Draw, names),
            "draw by repetition"
        );
        assert_eq!(
            Reason::PlyLimit.sentence(Outcome::Draw, names),
            "draw by ply limit"
        );
    }
}
