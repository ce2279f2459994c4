//! One game from its start: the start position, the moves played (as their
//! canonical text), the position after each and the repetition history.
//! Every layer that plays moves given as text (the engine's `position`,
//! the referee's openings, games and record checks, the board) plays them
//! through a `GameLine`, so a move is accepted or refused in one way.

use super::{End, Game, History, MoveText, PositionError, PositionText, status_with_history};
use std::fmt;

#[derive(Clone, Debug)]
pub struct GameLine<G: Game> {
    /// The start position as it writes itself, when it is not the game's
    /// own start position.
    start_text: Option<PositionText>,
    /// `positions[k]`: after `k` moves; never empty.
    positions: Vec<G>,
    moves: Vec<MoveText>,
    history: History,
    /// The rules it is played under, so it can be replayed from text.
    rules: G::Rules,
}

/// Why a move of a line was refused. Plies count from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// Not a legal move of its position.
    Illegal { ply: usize, mv: MoveText },
    /// The game had already ended.
    AfterEnd { ply: usize, mv: MoveText, end: End },
}

impl ReplayError {
    /// The move refused.
    pub fn mv(&self) -> MoveText {
        match self {
            ReplayError::Illegal { mv, .. } | ReplayError::AfterEnd { mv, .. } => *mv,
        }
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Illegal { ply, mv } => write!(f, "move {ply} ({mv}) is illegal"),
            ReplayError::AfterEnd { ply, mv, end } => {
                write!(f, "move {ply} ({mv}) comes after the end ({end})")
            }
        }
    }
}

impl std::error::Error for ReplayError {}

/// Why a line given as text (a start and moves) cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    Position {
        game: &'static str,
        error: PositionError,
    },
    Move(ReplayError),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::Position { game, error } => write!(f, "invalid {game} position ({error})"),
            LineError::Move(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LineError {}

impl From<ReplayError> for LineError {
    fn from(e: ReplayError) -> LineError {
        LineError::Move(e)
    }
}

impl<G: Game> GameLine<G> {
    /// A game from the game's own start position under `rules`.
    pub fn new(rules: &G::Rules) -> GameLine<G> {
        GameLine::starting_at(G::start(rules), None, rules)
    }

    fn starting_at(start: G, start_text: Option<PositionText>, rules: &G::Rules) -> GameLine<G> {
        GameLine {
            start_text,
            history: History::starting_at(&start),
            positions: vec![start],
            moves: Vec::new(),
            rules: rules.clone(),
        }
    }

    /// A game from the game's start position (`None`) or from a position
    /// string, fully validated.
    pub fn from_start(start: Option<&PositionText>, rules: &G::Rules) -> Result<Self, LineError> {
        match start {
            None => Ok(GameLine::new(rules)),
            Some(t) => {
                let pos = G::from_text(t, rules).map_err(|error| LineError::Position {
                    game: G::NAME,
                    error,
                })?;
                let text = pos.to_text();
                Ok(GameLine::starting_at(pos, Some(text), rules))
            }
        }
    }

    /// `from_start`, then every move of `moves`.
    pub fn from_text(
        start: Option<&PositionText>,
        moves: &[MoveText],
        rules: &G::Rules,
    ) -> Result<Self, LineError> {
        let mut line = GameLine::from_start(start, rules)?;
        line.play_all(moves)?;
        Ok(line)
    }

    /// Becomes the line of `start` and `moves` under the same rules; left
    /// as it was when they are refused.
    pub fn replay(
        &mut self,
        start: Option<&PositionText>,
        moves: &[MoveText],
    ) -> Result<(), LineError> {
        *self = GameLine::from_text(start, moves, &self.rules)?;
        Ok(())
    }

    /// Plays each move in turn; on a refused one the line stops before it.
    pub fn play_all(&mut self, moves: &[MoveText]) -> Result<(), ReplayError> {
        moves.iter().try_for_each(|m| self.play_text(m).map(|_| ()))
    }

    /// The legal move written as `text`, played; returns its canonical
    /// text. Refused after the end of the game (history included).
    pub fn play_text(&mut self, text: &MoveText) -> Result<MoveText, ReplayError> {
        let ply = self.plies() + 1;
        if let Some(end) = self.status() {
            return Err(ReplayError::AfterEnd {
                ply,
                mv: *text,
                end,
            });
        }
        let mv = self
            .current()
            .find_move(text)
            .ok_or(ReplayError::Illegal { ply, mv: *text })?;
        Ok(self.play(mv))
    }

    /// Plays a legal move of the current position; returns its text.
    pub fn play(&mut self, mv: G::Move) -> MoveText {
        let pos = self.current();
        let text = pos.move_text(mv);
        let next = pos.play(mv);
        self.history.push(next.repetition_key());
        self.positions.push(next);
        self.moves.push(text);
        text
    }

    /// Takes moves back until `plies` are left.
    pub fn undo_to(&mut self, plies: usize) {
        while self.moves.len() > plies {
            self.moves.pop();
            self.positions.pop();
            self.history.pop();
        }
    }

    /// The latest position.
    pub fn current(&self) -> &G {
        &self.positions[self.moves.len()]
    }

    /// The position after `ply` moves (the latest, past the end).
    pub fn position(&self, ply: usize) -> &G {
        &self.positions[ply.min(self.moves.len())]
    }

    pub fn rules(&self) -> &G::Rules {
        &self.rules
    }

    pub fn start_text(&self) -> Option<&PositionText> {
        self.start_text.as_ref()
    }

    pub fn moves(&self) -> &[MoveText] {
        &self.moves
    }

    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// The repetition keys of every position, the latest last.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The end of the game in the latest position, by its rules, history
    /// included.
    pub fn status(&self) -> Option<End> {
        status_with_history(self.current(), &self.history)
    }
}
