//! What goes wrong making, reading or checking endgame tables: a kind each,
//! with the message a user reads (tests pin some of its words).

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// A table or checkpoint file refused: not one, of another identity,
    /// truncated, longer than announced, corrupt.
    Refused(String),
    /// A file or folder that cannot be read, written or created.
    Io(String),
    /// A table the solve needs could not be read (`Tables::values`' words).
    Lookup(String),
    /// The solve met what the rules or the lower tables do not allow: an
    /// exit no table holds, a quiet move leaving its unit, a distance
    /// beyond a byte, a loss in the wrong sweep, a thread that panicked.
    Solve(String),
    /// Entries that fail the local equations (`check`).
    Inconsistent(String),
    /// A job asked for what does not exist: an unknown signature, one
    /// beyond `--pieces`.
    Request(String),
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Refused(m)
            | TableError::Io(m)
            | TableError::Lookup(m)
            | TableError::Solve(m)
            | TableError::Inconsistent(m)
            | TableError::Request(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for TableError {}

impl TableError {
    /// Whether the message holds `words` (as tests ask).
    pub fn contains(&self, words: &str) -> bool {
        self.to_string().contains(words)
    }
}

impl TableError {
    /// A lower table that could not be read, met while solving or checking
    /// another: a `Lookup`, whatever kept it from being read.
    pub fn looked_up(self) -> TableError {
        TableError::Lookup(self.to_string())
    }

    /// The same kind of error, its message after `what: ` (which file,
    /// which checkpoint).
    pub fn about(self, what: impl fmt::Display) -> TableError {
        let with = |m: String| format!("{what}: {m}");
        match self {
            TableError::Refused(m) => TableError::Refused(with(m)),
            TableError::Io(m) => TableError::Io(with(m)),
            TableError::Lookup(m) => TableError::Lookup(with(m)),
            TableError::Solve(m) => TableError::Solve(with(m)),
            TableError::Inconsistent(m) => TableError::Inconsistent(with(m)),
            TableError::Request(m) => TableError::Request(with(m)),
        }
    }
}
