//! Every way a refereed game can end: one variant of `Reason`, one fixed
//! message. The message is the record's `Termination` tag; particulars (the
//! illegal move, the overrun in ms) go in a separate detail. An engine's
//! `Failure` is a reason and a detail, and whether the engine can play on.

use crate::core::{Color, End, EndReason, Outcome};
use crate::games;
use std::time::Duration;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The game's rules ended it.
    Rules(EndReason),
    /// `--max-plies` reached: adjudicated draw.
    PlyLimit,
    /// `--draw`: both engines' scores stayed near zero.
    ScoreDraw,
    /// `--resign`: an engine's own score (or both engines') said it lost.
    ScoreResign,
    /// `--tb`: the position is in the endgame tables, which give its result.
    Tablebase,
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

const ENGINE_REASONS: [Reason; 10] = [
    Reason::PlyLimit,
    Reason::ScoreDraw,
    Reason::ScoreResign,
    Reason::Tablebase,
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
            Reason::ScoreDraw => "score adjudication",
            Reason::ScoreResign => "adjudicated resignation",
            Reason::Tablebase => "tablebase adjudication",
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
        Reason::among(s, games::all_endings())
    }

    /// The reason whose message is `s`, in a record of a game whose own
    /// endings are `endings` (a game the registry need not know).
    pub fn from_game_message(s: &str, endings: &[EndReason]) -> Option<Reason> {
        Reason::among(s, endings.iter().chain(&EndReason::GENERIC).copied())
    }

    fn among(s: &str, endings: impl IntoIterator<Item = EndReason>) -> Option<Reason> {
        (endings.into_iter().map(Reason::Rules))
            .chain(ENGINE_REASONS)
            .find(|r| r.message() == s)
    }

    /// Whether the side that failed lost the game (not the rules, not an
    /// adjudication).
    pub fn is_failure(self) -> bool {
        !self.is_adjudication() && !matches!(self, Reason::Rules(_))
    }

    /// Whether the referee, not the rules nor a failure, ended the game.
    pub fn is_adjudication(self) -> bool {
        matches!(
            self,
            Reason::PlyLimit | Reason::ScoreDraw | Reason::ScoreResign | Reason::Tablebase
        )
    }

    /// The sentence of a finished game, e.g. `B loses on time`, `A wins by
    /// no legal move`, `draw by repetition`; `names` by colour.
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

/// Why an engine lost, and whether it can play on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub reason: Reason,
    pub detail: String,
    /// The engine must be restarted before it plays again.
    pub dead: bool,
    /// A time forfeit's overrun: the time beyond the allowance, as the
    /// detail says it (a match sums them up at its end).
    pub overrun: Option<Duration>,
}

impl Failure {
    /// A failure after which the engine cannot play on (it crashed, hung
    /// or never started): it must be restarted.
    pub fn dead(reason: Reason, detail: impl Into<String>) -> Failure {
        Failure {
            reason,
            detail: detail.into(),
            dead: true,
            overrun: None,
        }
    }

    /// A failure that loses the game but leaves the engine able to play
    /// the next one (an illegal move, a time forfeit it answered).
    pub fn alive(reason: Reason, detail: impl Into<String>) -> Failure {
        Failure {
            dead: false,
            ..Failure::dead(reason, detail)
        }
    }
}

/// How a game ended: the result, the reason and its particulars.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub outcome: Outcome,
    pub reason: Reason,
    pub detail: Option<String>,
}

impl Ending {
    /// The side that failed loses.
    pub fn failure(loser: Color, f: Failure) -> Ending {
        Ending {
            outcome: Reason::loss_of(loser),
            reason: f.reason,
            detail: Some(f.detail),
        }
    }

    /// The end by the rules of the position (history included), else the
    /// draw adjudicated at `max_plies` plies, whichever applies first.
    pub fn of_game(status: Option<End>, plies: usize, max_plies: Option<u32>) -> Option<Ending> {
        if let Some(e) = status {
            return Some(Ending {
                outcome: e.outcome,
                reason: Reason::Rules(e.reason),
                detail: None,
            });
        }
        let max = max_plies.filter(|&m| plies >= m as usize)?;
        Some(Ending {
            outcome: Outcome::Draw,
            reason: Reason::PlyLimit,
            detail: Some(format!("{max} plies")),
        })
    }

    /// `B loses on time`, `A wins by no legal move`; `names` by colour.
    pub fn sentence(&self, names: [&str; 2]) -> String {
        self.reason.sentence(self.outcome, names)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_is_distinct_and_reads_back() {
        let all: Vec<Reason> = (games::all_endings().into_iter().map(Reason::Rules))
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
            Reason::Rules(crate::games::kaninariebi::SHRIMPS)
                .sentence(Outcome::Win(Color::First), names),
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
