//! A game line of any game behind one object-safe trait: what a holder of a
//! game chosen at run time (the engine's session, the board's play) asks
//! of its moves and positions without knowing the game's type. It is
//! `GameLine<G>`'s own answers, written once here.

use super::{Color, End, Game, GameLine, LineError, MoveText, PositionText, ReplayError};

pub trait AnyLine: Send {
    /// The game's name (`Game::NAME`).
    fn game(&self) -> &'static str;
    fn files(&self) -> u8;
    fn ranks(&self) -> u8;
    /// Moves played so far.
    fn plies(&self) -> usize;
    fn moves(&self) -> &[MoveText];
    /// The start position when it is not the game's own.
    fn start_text(&self) -> Option<&PositionText>;
    /// Side to move in the latest position.
    fn side_to_move(&self) -> Color;
    /// The side to move after `ply` moves (the latest, past the end).
    fn side_at(&self, ply: usize) -> Color;
    /// The end by the rules in the latest position, history included.
    fn status(&self) -> Option<End>;
    /// The position after `ply` moves (the latest, past the end).
    fn position_text(&self, ply: usize) -> PositionText;
    /// Plays a legal move given as text; returns its canonical text.
    fn play_text(&mut self, text: &MoveText) -> Result<MoveText, ReplayError>;
    /// Takes moves back until `plies` are left.
    fn undo_to(&mut self, plies: usize);
    /// Becomes the line of `start` (the game's own start for `None`) and
    /// `moves`, under the same rules; unchanged when they are refused.
    fn replay(&mut self, start: Option<&PositionText>, moves: &[MoveText])
    -> Result<(), LineError>;
}

impl<G: Game> AnyLine for GameLine<G> {
    fn game(&self) -> &'static str {
        G::NAME
    }

    fn files(&self) -> u8 {
        G::FILES
    }

    fn ranks(&self) -> u8 {
        G::RANKS
    }

    fn plies(&self) -> usize {
        GameLine::plies(self)
    }

    fn moves(&self) -> &[MoveText] {
        GameLine::moves(self)
    }

    fn start_text(&self) -> Option<&PositionText> {
        GameLine::start_text(self)
    }

    fn side_to_move(&self) -> Color {
        self.current().side_to_move()
    }

    fn side_at(&self, ply: usize) -> Color {
        self.position(ply).side_to_move()
    }

    fn status(&self) -> Option<End> {
        GameLine::status(self)
    }

    fn position_text(&self, ply: usize) -> PositionText {
        self.position(ply).to_text()
    }

    fn play_text(&mut self, text: &MoveText) -> Result<MoveText, ReplayError> {
        GameLine::play_text(self, text)
    }

    fn undo_to(&mut self, plies: usize) {
        GameLine::undo_to(self, plies)
    }

    fn replay(
        &mut self,
        start: Option<&PositionText>,
        moves: &[MoveText],
    ) -> Result<(), LineError> {
        GameLine::replay(self, start, moves)
    }
}
