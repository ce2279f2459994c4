//! What a game tells a reader about itself: its title, its pieces' names
//! and movements, help text, marked squares and the words of its choices,
//! and which of the board's generic drawings fits each. Display only: the
//! rules never read it; the board's page draws from it (`/api/games`).

use serde::Serialize;

#[derive(Clone, Copy, Debug, Serialize)]
pub struct Presentation {
    pub title: &'static str,
    /// Every piece letter, as the page's editor places them.
    pub pieces: &'static [PieceFacts],
    /// The letters that promote, as they are once promoted (`+` before the
    /// letter in positions).
    pub promoted: &'static [PieceFacts],
    /// What a piece in hand is called, where it differs from its letter's
    /// piece (empty for a game without hands).
    pub hand: &'static [HandName],
    /// Paragraphs of help, with `<b>` for the headings.
    pub help: &'static [&'static str],
    pub marks: &'static [Mark],
    /// The words for a movement with a path (`MoveHint`'s squares a
    /// movement passes); `None`: the board's generic words.
    pub path: Option<PathWords>,
    /// What the levels of a move's changes are called; `None`: generic.
    pub levels: Option<&'static str>,
    /// The two answers when a movement may promote; `None`: generic.
    pub promotion: Option<PromotionWords>,
    /// How a score of this game's engine reads as a chance to win: the
    /// first player wins with 1 / (1 + e^(-k·cp)) at `cp` centipawns for
    /// it, k fitted on Koma's own match records (`examples/win_curve`).
    /// The board's game review reads it.
    pub win_scale: f64,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct PieceFacts {
    pub letter: char,
    pub name: &'static str,
    /// How it moves, in a few words.
    pub moves: &'static str,
    pub art: PieceArt,
}

impl PieceFacts {
    /// A piece drawn as a shogi piece, the most common drawing.
    pub const fn shogi(letter: char, name: &'static str, moves: &'static str) -> PieceFacts {
        PieceFacts {
            letter,
            name,
            moves,
            art: PieceArt::Shogi,
        }
    }
}

/// The board's drawings of a piece; a game picks the one that fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PieceArt {
    /// A five-sided piece pointing at the opponent, its letter on it
    /// (`+` and red when promoted).
    Shogi,
    /// A round stone of the side's colour, no letter.
    Stone,
    /// A round body with two claws towards the opponent's home column (it
    /// walks sideways), its letter on it.
    Claws,
    /// A curled body facing the opponent, its letter on it.
    Curl,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct HandName {
    pub letter: char,
    pub name: &'static str,
}

/// Squares the board draws apart, with what the page says of them.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Mark {
    pub place: MarkPlace,
    pub art: MarkArt,
    /// Written beside the mark (above a file); empty: nothing.
    pub label: &'static str,
    /// Added to the prompt while a selected piece may end on the mark;
    /// empty: nothing.
    pub hint: &'static str,
}

#[derive(Clone, Copy, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MarkPlace {
    /// A whole file, from 0 (`a`).
    File(u8),
    Square {
        file: u8,
        rank: u8,
    },
}

/// The board's drawings of a marked place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MarkArt {
    /// Coloured as water, its label in the water's ink.
    Water,
    /// A faint cross over the square.
    Cross,
}

/// Words with `{piece}`, `{entry}`, `{to}` and `{via}` standing for the
/// moving piece's name, the square clicked on its path, where it comes to
/// rest and the squares it may have passed.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct PathWords {
    /// The question when the movement may rest on several squares.
    pub ask: &'static str,
    /// The answer resting where it entered, above it (higher rank) and
    /// below it.
    pub stay: Choice,
    pub up: Choice,
    pub down: Choice,
    /// Added to the description of the movement once played.
    pub told: &'static str,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct PromotionWords {
    pub yes: Choice,
    pub no: Choice,
}

/// An answer on a button, and a line under it (empty: none).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Choice {
    pub label: &'static str,
    pub small: &'static str,
}
