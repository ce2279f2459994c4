//! Game-agnostic vocabulary shared by every layer: sides, coordinates, move
//! buffers, game results, rule options, the `Game` trait and the generic text
//! forms of moves and positions. Nothing here knows a concrete game.

pub mod color;
pub mod coord;
pub mod game;
pub mod history;
pub mod movelist;
pub mod options;
pub mod outcome;
pub mod perft;
pub mod sandwich;
pub mod table;
pub mod text;
pub mod zobrist;

pub use color::Color;
pub use coord::Coord;
pub use game::{Game, NoRules, PositionError, Rules, game_status, mirror};
pub use history::{History, status_with_history};
pub use movelist::{MoveList, MoveSink};
pub use options::{OptionKind, OptionSpec, OptionValue};
pub use outcome::{End, EndReason, Outcome};
pub use perft::{Divided, perft, perft_divide, perft_divide_until};
pub use table::{Table, TableValue};
pub use text::{Mirror, MoveText, PieceText, PositionText, StepText};
