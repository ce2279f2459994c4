//! An entry's value: win, draw or loss for the side to move, with the
//! distance in plies to the next exit (a capture or promotion, which leaves
//! the signature) or to the end of the game, whichever comes first. One
//! byte: 0 a draw (or, while solving, not decided yet), 1..=127 a win in
//! that many plies, 128 + d a loss in d plies (128: no legal move, lost).

/// The value of a position for its side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dtz {
    /// Wins; the winning move after `d - 1` more plies is an exit or ends
    /// the game (`d` odd or even: a loser's exit counts too).
    Win(u32),
    /// Loses; the winner's exit or the end comes in `d` plies at the latest.
    Loss(u32),
    Draw,
}

pub const DRAW: u8 = 0;
/// The longest distance a byte holds.
pub const MAX_DISTANCE: u32 = 127;

impl Dtz {
    pub fn encode(self) -> u8 {
        match self {
            Dtz::Draw => DRAW,
            Dtz::Win(d) => d.min(MAX_DISTANCE) as u8,
            Dtz::Loss(d) => 128 + d.min(MAX_DISTANCE) as u8,
        }
    }

    pub fn decode(b: u8) -> Dtz {
        match b {
            DRAW => Dtz::Draw,
            1..=127 => Dtz::Win(u32::from(b)),
            _ => Dtz::Loss(u32::from(b - 128)),
        }
    }

    /// The value for the side that made a move into a position of this
    /// value: `exit` when that move left the signature (or the distance
    /// starts again from it).
    pub fn before(self, exit: bool) -> Dtz {
        let step = |d: u32| if exit { 1 } else { d + 1 };
        match self {
            Dtz::Win(d) => Dtz::Loss(step(d)),
            Dtz::Loss(d) => Dtz::Win(step(d)),
            Dtz::Draw => Dtz::Draw,
        }
    }

    /// An order for the side to move, higher is better: a win sooner, a
    /// loss later (distances to the next exit, not to the end).
    pub fn rank(self) -> i64 {
        match self {
            Dtz::Win(d) => 1000 - i64::from(d),
            Dtz::Draw => 0,
            Dtz::Loss(d) => -1000 + i64::from(d),
        }
    }

    /// -1, 0 or 1: loss, draw, win.
    pub fn wdl(self) -> i8 {
        match self {
            Dtz::Win(_) => 1,
            Dtz::Draw => 0,
            Dtz::Loss(_) => -1,
        }
    }
}

impl std::fmt::Display for Dtz {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Dtz::Win(d) => write!(f, "win, next exit in {d} plies"),
            Dtz::Loss(d) => write!(f, "loss, next exit in {d} plies"),
            Dtz::Draw => f.write_str("draw"),
        }
    }
}
