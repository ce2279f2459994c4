//! Game-agnostic vocabulary shared by every layer: sides, coordinates, move
//! buffers, game results, rule options, the `Game` trait and the generic text
//! forms of moves and positions. Nothing here knows a concrete game.

pub mod any_line;
pub mod binary_file;
pub mod color;
pub mod coord;
pub mod crc32;
pub mod endgame;
pub mod game;
pub mod history;
pub mod line;
pub mod movelist;
pub mod options;
pub mod outcome;
pub mod perft;
pub mod position_error;
pub mod presentation;
pub mod rules;
pub mod searchable;
pub mod solver;
pub mod tablebase;
pub mod text;
pub mod zobrist;

pub use any_line::AnyLine;
pub use color::Color;
pub use coord::Coord;
pub use game::{Game, MoveHint, game_status, mirror};
pub use history::{History, status_with_history};
pub use line::{GameLine, LineError, ReplayError};
pub use movelist::{MoveList, MoveSink};
pub use options::{Expected, OptionError, OptionKind, OptionSpec, OptionValue};
pub use outcome::{End, EndReason, Outcome, UnknownResult};
pub use perft::{Divided, MAX_PERFT_DEPTH, perft, perft_divide, perft_divide_until};
pub use position_error::{Place, PositionError};
pub use presentation::{
    Choice, HandName, Mark, MarkArt, MarkPlace, PathWords, PieceArt, PieceFacts, Presentation,
    PromotionWords,
};
pub use rules::{NoRules, RuleError, RuleValues, Rules, SetError, read_rule_values, with_defaults};
pub use searchable::{Bench, Searchable, Tuning};
pub use solver::{SolvedTable, Solver};
pub use tablebase::{FileFault, SharedTable, TableFile, TableValue, Tablebase};
pub use text::{Mirror, MoveText, PieceText, PositionText, StepText};
