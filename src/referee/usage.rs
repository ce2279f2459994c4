//! The referee's argument error: what is wrong with a command line, in the
//! words the program prints before it exits with status 2.

/// A bad argument: each binary (`koma`, `koma-referee`, `koma-board`)
/// prints it and exits with 2, the referee with a hint.
#[derive(Debug, PartialEq, Eq)]
pub struct Usage(pub String);

impl Usage {
    pub fn new(msg: impl Into<String>) -> Usage {
        Usage(msg.into())
    }
}

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}
