//! The names of the tags Koma's records carry (the referee's and the
//! board's alike; rule options are tagged with their own names), so that
//! writers and readers spell them in one place.

pub const MATCH: &str = "Match";
pub const GAME: &str = "Game";
pub const PAIR: &str = "Pair";
pub const FIRST: &str = "First";
pub const SECOND: &str = "Second";
pub const RESULT: &str = "Result";
/// PGN's names of the first and second player (`First`, `Second` are
/// Koma's own, which every reader of Koma's records uses).
pub const WHITE: &str = "White";
pub const BLACK: &str = "Black";
pub const VARIANT: &str = "Variant";
pub const FEN: &str = "FEN";
pub const TERMINATION: &str = "Termination";
pub const DETAILS: &str = "TerminationDetails";
pub const PLY_COUNT: &str = "PlyCount";
pub const OPENING_PLIES: &str = "OpeningPlies";
pub const MAX_PLIES: &str = "MaxPlies";
pub const OPENING_SUITE: &str = "OpeningSuite";
pub const OPENING_SUITE_SIZE: &str = "OpeningSuiteSize";
pub const SHARD: &str = "Shard";
pub const SITE: &str = "Site";
pub const FIRST_ENGINE: &str = "FirstEngine";
pub const SECOND_ENGINE: &str = "SecondEngine";
pub const COMMAND: &str = "RefereeCommand";
pub const DRAW_ADJUDICATION: &str = "DrawAdjudication";
pub const RESIGN_ADJUDICATION: &str = "ResignAdjudication";
pub const TABLEBASE_ADJUDICATION: &str = "TablebaseAdjudication";
