//! Typed commands a GUI or referee sends to the engine, and their canonical
//! text (`Display`), so `parse_command(c.to_string()) == c`.

use crate::core::{MoveText, PositionText};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionStart {
    StartPos,
    Fen(PositionText),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    pub start: PositionStart,
    pub moves: Vec<MoveText>,
}

/// Limits of a `go`. Clocks are indexed by `Color::index()`: `wtime` and
/// UGI's `p1time` are the first player's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub time: [Option<u64>; 2],
    pub inc: [Option<u64>; 2],
    pub movestogo: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
}

/// UGI's `query` questions.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum QueryKind {
    GameOver,
    P1Turn,
    Result,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Ugi,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    UciNewGame,
    UgiNewGame,
    Position(PositionCommand),
    Go(GoParams),
    Perft(u32),
    Stop,
    PonderHit,
    Quit,
    /// `d`: show the board, the position string and the game state.
    Display,
    Query(QueryKind),
    /// `bench`: the fixed benchmark (Koma extension).
    Bench,
}

impl fmt::Display for GoParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if self.ponder {
            f.write_str(" ponder")?;
        }
        let fields: [(&str, Option<u64>); 8] = [
            ("wtime", self.time[0]),
            ("btime", self.time[1]),
            ("winc", self.inc[0]),
            ("binc", self.inc[1]),
            ("movestogo", self.movestogo.map(u64::from)),
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
            ("movetime", self.movetime),
        ];
        for (name, v) in fields {
            if let Some(v) = v {
                write!(f, " {name} {v}")?;
            }
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        Ok(())
    }
}

impl fmt::Display for QueryKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            QueryKind::GameOver => "gameover",
            QueryKind::P1Turn => "p1turn",
            QueryKind::Result => "result",
        })
    }
}

impl fmt::Display for PositionCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.start {
            PositionStart::StartPos => f.write_str("position startpos")?,
            PositionStart::Fen(p) => write!(f, "position fen {p}")?,
        }
        if !self.moves.is_empty() {
            f.write_str(" moves")?;
            for m in &self.moves {
                write!(f, " {m}")?;
            }
        }
        Ok(())
    }
}

/// A `position` command that grows by one move at a time, for the referee,
/// which sends the whole game before every move: appending keeps that
/// linear. Its text is always `Command::Position(..)`'s.
#[derive(Clone, Debug)]
pub struct PositionLine {
    text: String,
    moves: usize,
}

impl PositionLine {
    pub fn new(start: &PositionStart, moves: &[MoveText]) -> PositionLine {
        let mut line = PositionLine {
            text: PositionCommand {
                start: start.clone(),
                moves: Vec::new(),
            }
            .to_string(),
            moves: 0,
        };
        for m in moves {
            line.push(m);
        }
        line
    }

    pub fn push(&mut self, mv: &MoveText) {
        use std::fmt::Write;
        if self.moves == 0 {
            self.text.push_str(" moves");
        }
        let _ = write!(self.text, " {mv}");
        self.moves += 1;
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Uci => f.write_str("uci"),
            Command::Ugi => f.write_str("ugi"),
            Command::Debug(on) => write!(f, "debug {}", if *on { "on" } else { "off" }),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                if let Some(v) = value {
                    write!(f, " value {v}")?;
                }
                Ok(())
            }
            Command::UciNewGame => f.write_str("ucinewgame"),
            Command::UgiNewGame => f.write_str("uginewgame"),
            Command::Position(p) => p.fmt(f),
            Command::Go(g) => g.fmt(f),
            Command::Perft(d) => write!(f, "go perft {d}"),
            Command::Stop => f.write_str("stop"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Quit => f.write_str("quit"),
            Command::Display => f.write_str("d"),
            Command::Query(q) => write!(f, "query {q}"),
            Command::Bench => f.write_str("bench"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{parse_move, parse_position};

    #[test]
    fn a_growing_position_line_is_the_position_command() {
        let moves: Vec<MoveText> = ["a1a2", "P@c4", "pass"]
            .iter()
            .map(|m| parse_move(m).unwrap())
            .collect();
        for start in [
            PositionStart::StartPos,
            PositionStart::Fen(parse_position("3/3/3[KRBkrb] w 1").unwrap()),
        ] {
            let mut line = PositionLine::new(&start, &moves[..1]);
            for k in 1..=moves.len() {
                if k > 1 {
                    line.push(&moves[k - 1]);
                }
                let cmd = Command::Position(PositionCommand {
                    start: start.clone(),
                    moves: moves[..k].to_vec(),
                });
                assert_eq!(line.as_str(), cmd.to_string());
            }
            let empty = PositionLine::new(&start, &[]);
            let cmd = PositionCommand {
                start: start.clone(),
                moves: vec![],
            };
            assert_eq!(empty.as_str(), cmd.to_string());
        }
    }
}
