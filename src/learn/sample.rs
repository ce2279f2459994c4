//! The self-play data file (`koma datagen` writes it, `koma tune` reads it).
//!
//! Plain text, one line each:
//! - first a header, `#koma-datagen <settings>`: resuming refuses a file
//!   made with other settings;
//! - per position, `<game>;<position>;<score>;<result>`: the game's index
//!   (from 0), the position string, the search's score in centipawns from
//!   the side to move's view, and the game's result, first player first
//!   (`1-0`, `0-1`, `1/2-1/2`);
//! - after each game's positions, `#end <game> <result>`: a game is in the
//!   file once this line is (resuming drops anything after the last one).

use crate::core::Outcome;

/// One position of a self-play game: a training sample.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub game: u64,
    pub position: String,
    /// Centipawns from the side to move's view.
    pub score: i32,
    pub result: Outcome,
}

/// One line of the file.
#[derive(Clone, Debug, PartialEq)]
pub enum Line {
    Header(String),
    Position(Sample),
    End { game: u64, result: Outcome },
}

pub const HEADER_TAG: &str = "#koma-datagen ";
const END_TAG: &str = "#end ";

impl Sample {
    pub fn to_line(&self) -> String {
        format!(
            "{};{};{};{}",
            self.game,
            self.position,
            self.score,
            self.result.score_text()
        )
    }
}

pub fn end_line(game: u64, result: Outcome) -> String {
    format!("{END_TAG}{game} {}", result.score_text())
}

/// Reads one line (without its line end); the error says what is wrong.
pub fn parse_line(s: &str) -> Result<Line, SampleError> {
    if let Some(h) = s.strip_prefix(HEADER_TAG) {
        return Ok(Line::Header(h.to_string()));
    }
    let result = |t: &str| {
        t.parse::<Outcome>()
            .map_err(|_| SampleError::Result(t.to_string()))
    };
    let game = |t: &str| {
        t.parse::<u64>()
            .map_err(|_| SampleError::Game(t.to_string()))
    };
    if let Some(rest) = s.strip_prefix(END_TAG) {
        let (g, r) = rest
            .split_once(' ')
            .ok_or_else(|| SampleError::EndWithoutResult(s.to_string()))?;
        return Ok(Line::End {
            game: game(g)?,
            result: result(r)?,
        });
    }
    let fields: Vec<&str> = s.split(';').collect();
    let [g, position, score, r] = fields[..] else {
        return Err(SampleError::Fields(fields.len()));
    };
    Ok(Line::Position(Sample {
        game: game(g)?,
        position: position.to_string(),
        score: score
            .parse()
            .map_err(|_| SampleError::Score(score.to_string()))?,
        result: result(r)?,
    }))
}

/// What is wrong with a line of data (each with the text it is about).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SampleError {
    Result(String),
    Game(String),
    /// An end line without its result.
    EndWithoutResult(String),
    /// A position line of this many `;`-separated fields.
    Fields(usize),
    Score(String),
}

impl std::fmt::Display for SampleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SampleError::Result(t) => write!(f, "result {t:?} is not 1-0, 0-1 or 1/2-1/2"),
            SampleError::Game(t) => write!(f, "game number {t:?} is not a number"),
            SampleError::EndWithoutResult(s) => write!(f, "end line {s:?} lacks a result"),
            SampleError::Fields(n) => write!(f, "{n} fields, a position line has 4"),
            SampleError::Score(t) => write!(f, "score {t:?} is not a number"),
        }
    }
}

impl std::error::Error for SampleError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Color;

    #[test]
    fn every_line_of_the_data_file_reads_back_what_was_written() {
        let r = Sample {
            game: 41,
            position: "1C1sc/C1S2/2cCs/C2c1/5 w 12".into(),
            score: -37,
            result: Outcome::Win(Color::Second),
        };
        assert_eq!(parse_line(&r.to_line()), Ok(Line::Position(r)));
        let e = end_line(41, Outcome::Draw);
        assert_eq!(
            parse_line(&e),
            Ok(Line::End {
                game: 41,
                result: Outcome::Draw
            })
        );
        assert_eq!(
            parse_line("#koma-datagen variant=nana"),
            Ok(Line::Header("variant=nana".into()))
        );
    }

    #[test]
    fn a_damaged_data_line_is_refused_with_the_reason() {
        assert!(
            parse_line("1;pos;12")
                .unwrap_err()
                .to_string()
                .contains("3 fields")
        );
        assert!(
            parse_line("x;pos;12;1-0")
                .unwrap_err()
                .to_string()
                .contains("game")
        );
        assert!(
            parse_line("1;pos;a;1-0")
                .unwrap_err()
                .to_string()
                .contains("score")
        );
        assert!(
            parse_line("1;pos;3;2-0")
                .unwrap_err()
                .to_string()
                .contains("result")
        );
        assert!(
            parse_line("#end 3")
                .unwrap_err()
                .to_string()
                .contains("result")
        );
    }
}
