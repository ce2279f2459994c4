//! The only place that parses or formats protocol text. Lines become typed
//! `Command`s (engine side) or `Reply`s (referee side); both format back with
//! `Display`, so both ends share one definition. Parsing is syntax only:
//! legality belongs to the game.

pub mod command;
pub mod error;
pub mod lines;
pub mod notation;
pub mod options;
pub mod parse;
pub mod record;
pub mod reply;

pub use command::{Command, GoParams, PositionCommand, PositionLine, PositionStart, QueryKind};
pub use error::ParseError;
pub use notation::{parse_move, parse_position};
pub use parse::parse_command;
pub use reply::{
    InfoLine, InfoScore, OptionDecl, Reply, parse_info_lenient, parse_option_decl, parse_reply,
};
