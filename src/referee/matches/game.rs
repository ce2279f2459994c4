//! One game between two running engines. Each turn checks, in order: the
//! end by the rules (history included), adjudication (`--max-plies`, then
//! `--resign` and `--draw` on the scores reported so far, then `--tb`'s
//! endgame tables on the position), then plays the
//! engine's move (`client::turn`: `position` and `go`, thinking, the clock
//! charged, the move checked).

use super::figures::Figures;
use super::tablebase::Judge;
use crate::client::clock::{Clock, EngineLimits};
use crate::client::handshake::{self, StartError, Timeouts};
use crate::client::process::EngineProc;
use crate::client::reason::Ending;
use crate::client::reason::Reason;
use crate::client::turn::{Turn, Unwatched, play_turn};
use crate::core::{Color, Game, LineError};
use crate::protocol::record::RecordMove;
use crate::protocol::{PositionLine, PositionStart};
use crate::record::adjudicate::{Adjudication, Tracker};
use crate::record::opening::Opening;
use crate::referee::statistics::thinking::Thinking;
use std::time::Duration;

/// What one game is played with.
pub struct GameSetup<'a, G: Game> {
    pub rules: &'a G::Rules,
    pub opening: &'a Opening,
    /// By colour: the first player's limits first.
    pub limits: [&'a EngineLimits; 2],
    /// By colour.
    pub margins: [Duration; 2],
    pub max_plies: Option<u32>,
    pub adjudication: Adjudication,
    /// `--tb`: the endgame tables' verdicts.
    pub tablebase: Option<&'a Judge<G>>,
    /// By colour, for the adjudication's detail.
    pub names: [&'a str; 2],
    pub timeouts: Timeouts,
    /// The engines' figures the move comments carry (`-pgnout nodes=true`).
    pub figures: Figures,
}

/// How a game ended and what was played.
#[derive(Clone, Debug)]
pub struct GameEnd {
    pub ending: Ending,
    /// The opening moves (commented `book`) and the moves played.
    pub moves: Vec<RecordMove>,
    /// By colour: the engine must be restarted before it plays again.
    pub dead: [bool; 2],
    /// Moves the engines played (the opening excluded).
    pub engine_moves: u32,
    /// By colour: what the engines reported about their moves.
    pub thinking: [Thinking; 2],
    /// The last position, as a position string.
    pub last: String,
    /// Why an engine could not be started, when that ended the game.
    pub start_error: Option<StartError>,
    /// When the game was lost on time: by how much, and whether the loser
    /// had made a move of its own yet.
    pub time_loss: Option<TimeLoss>,
}

/// A time forfeit, as the match's end sums them up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLoss {
    pub overrun: Duration,
    /// The loser had not moved: its first move of the game overran.
    pub before_a_move: bool,
}

impl GameEnd {
    /// The end of a game whose `loser` engine could not be started: the
    /// game is its opening alone.
    pub fn failed_start(loser: Color, why: StartError, opening: &Opening) -> GameEnd {
        let mut dead = [false; 2];
        dead[loser.index()] = true;
        GameEnd {
            ending: Ending::failure(loser, why.failure()),
            moves: book_moves(opening),
            dead,
            engine_moves: 0,
            thinking: Default::default(),
            last: String::new(),
            start_error: Some(why),
            time_loss: None,
        }
    }
}

/// The opening's moves as the record shows them.
pub fn book_moves(opening: &Opening) -> Vec<RecordMove> {
    let book = |&mv| RecordMove {
        mv,
        comment: Some("book".into()),
    };
    opening.moves.iter().map(book).collect()
}

/// Plays one game; `engines` by colour. `Err` only for an opening that does
/// not replay, which start-up checks rule out.
pub fn play<G: Game>(
    setup: &GameSetup<'_, G>,
    engines: [&mut EngineProc; 2],
) -> Result<GameEnd, LineError> {
    let mut line = setup.opening.line::<G>(setup.rules)?;
    let mut moves = book_moves(setup.opening);
    let mut dead = [false; 2];
    let mut engine_moves = 0;
    let start = match &setup.opening.start {
        None => PositionStart::StartPos,
        Some(t) => PositionStart::Fen(t.clone()),
    };
    let mut position = PositionLine::new(&start, &setup.opening.moves);
    let mut clocks = setup.limits.map(Clock::new);
    let mut tracker = Tracker::new(setup.adjudication);
    let mut adjudicated = None;
    let mut thinking = [Thinking::default(); 2];
    let mut time_loss = None;
    let ending = 'game: {
        for c in Color::BOTH {
            if let Err(f) = handshake::new_game(engines[c.index()], &setup.timeouts) {
                dead[c.index()] = f.dead;
                break 'game Ending::failure(c, f);
            }
        }
        loop {
            let status = line.status();
            if let Some(ending) = Ending::of_game(status, line.plies(), setup.max_plies) {
                break 'game ending;
            }
            if let Some(ending) = adjudicated.take() {
                break 'game ending;
            }
            if let Some(outcome) = setup.tablebase.and_then(|j| j.call(line.current())) {
                break 'game Ending {
                    outcome,
                    reason: Reason::Tablebase,
                    detail: None,
                };
            }
            let side = line.current().side_to_move();
            let turn = Turn {
                position: position.as_str(),
                clocks: &clocks,
                side,
                limits: setup.limits[side.index()],
                margin: setup.margins[side.index()],
                timeouts: &setup.timeouts,
            };
            let pos = line.current();
            // The clock is checked in there (`Clock::charge`): a move past
            // the allowance and margin comes back as a time forfeit.
            match play_turn(engines[side.index()], &turn, &mut Unwatched, |t| {
                pos.find_move(t)
            }) {
                Ok(played) => {
                    clocks[side.index()] = played.clock;
                    let text = line.play(played.mv);
                    position.push(&text);
                    let comment = setup.figures.add(
                        played.comment,
                        played.info.as_ref(),
                        &clocks[side.index()],
                    );
                    moves.push(RecordMove {
                        mv: text,
                        comment: Some(comment),
                    });
                    engine_moves += 1;
                    thinking[side.index()].add(played.info.as_ref(), played.elapsed);
                    let score = played.info.as_ref().and_then(|i| i.score);
                    adjudicated = tracker.after_move(side, score, line.plies(), setup.names);
                }
                Err(f) => {
                    dead[side.index()] = f.dead;
                    time_loss = f.overrun.map(|overrun| TimeLoss {
                        overrun,
                        before_a_move: thinking[side.index()].moves == 0,
                    });
                    break 'game Ending::failure(side, f);
                }
            }
        }
    };
    Ok(GameEnd {
        ending,
        moves,
        dead,
        engine_moves,
        thinking,
        last: line.current().to_text().to_string(),
        start_error: None,
        time_loss,
    })
}
