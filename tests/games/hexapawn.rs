//! 3x3 Hexapawn (Martin Gardner's): three pawns a side on a 3x3 board; a
//! pawn steps one square straight forward onto an empty square or one
//! square diagonally forward onto an enemy pawn, taking it; a pawn on the
//! far rank wins, and so does leaving the opponent without a move. Written
//! for the tests alone, registered as a game of `src/games/` is
//! (`Registered`), and named by no file of `src/` or `python/src/`: the
//! proof that a game needs nothing there (`tests/sixth_game.rs`,
//! `python/tests/sixth_game.rs`).

#![allow(dead_code)] // each test file uses a part

use koma::core::{
    Bench, Color, Coord, End, EndReason, Game, MoveList, MoveSink, MoveText, NoRules, PieceArt,
    PieceFacts, PieceText, Place, PositionError, PositionText, Presentation, Searchable, StepText,
};
use koma::games::{Encoding, GameEntry, Registered};

pub const SIZE: u8 = 3;

/// Hexapawn's own ending, which core and the client know nothing of.
pub const FAR_RANK: EndReason = EndReason::Game("a pawn on the far rank");

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub from: u8,
    pub to: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hexapawn {
    /// By square, `rank * 3 + file`.
    pub cells: [Option<Color>; 9],
    pub side: Color,
    pub move_number: u32,
}

pub fn coord(sq: u8) -> Coord {
    Coord::new(sq % SIZE, sq / SIZE)
}

pub fn square(c: Coord) -> Option<u8> {
    (c.file < SIZE && c.rank < SIZE).then_some(c.rank * SIZE + c.file)
}

/// The rank a side's pawns run to.
pub fn far_rank(c: Color) -> u8 {
    match c {
        Color::First => SIZE - 1,
        Color::Second => 0,
    }
}

impl Hexapawn {
    fn forward(c: Color) -> i8 {
        match c {
            Color::First => 1,
            Color::Second => -1,
        }
    }

    fn captures(&self, mv: Step) -> bool {
        self.cells[mv.to as usize] == Some(self.side.opponent())
    }
}

impl Game for Hexapawn {
    type Move = Step;
    type Rules = NoRules;
    type MoveList = MoveList<Step, 16>;

    const NAME: &'static str = "hexapawn";
    const FILES: u8 = SIZE;
    const RANKS: u8 = SIZE;
    const ENDINGS: &'static [EndReason] = &[FAR_RANK];

    fn start(_rules: &NoRules) -> Self {
        let mut cells = [None; 9];
        for f in 0..SIZE as usize {
            cells[f] = Some(Color::First);
            cells[6 + f] = Some(Color::Second);
        }
        Hexapawn {
            cells,
            side: Color::First,
            move_number: 1,
        }
    }

    fn from_text(text: &PositionText, _rules: &NoRules) -> Result<Self, PositionError> {
        text.check_size(SIZE, SIZE)?;
        if text.hand.is_some() {
            return Err(PositionError::NoHand { game: "Hexapawn" });
        }
        let [n] = text.counters[..] else {
            return Err(PositionError::Counters {
                game: "Hexapawn",
                expected: "one counter, the move number",
            });
        };
        let mut cells = [None; 9];
        for sq in 0..9 {
            if let Some(p) = text.at(coord(sq)) {
                if p.letter != 'P' || p.promoted {
                    return Err(PositionError::UnknownPiece {
                        piece: p,
                        place: Place::Square(coord(sq)),
                        known: "Hexapawn pieces are P",
                    });
                }
                cells[sq as usize] = Some(p.color);
            }
        }
        Ok(Hexapawn {
            cells,
            side: text.side,
            move_number: n,
        })
    }

    fn to_text(&self) -> PositionText {
        PositionText {
            ranks: PositionText::grid(SIZE, SIZE, |c| {
                self.cells[square(c)? as usize].map(|color| PieceText {
                    letter: 'P',
                    color,
                    promoted: false,
                })
            }),
            hand: None,
            side: self.side,
            counters: vec![self.move_number],
        }
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn generate<S: MoveSink<Step>>(&self, out: &mut S) {
        let us = self.side;
        for from in 0..9u8 {
            if self.cells[from as usize] != Some(us) {
                continue;
            }
            let c = coord(from);
            let rank = c.rank as i8 + Self::forward(us);
            if !(0..SIZE as i8).contains(&rank) {
                continue;
            }
            for df in [-1i8, 0, 1] {
                let file = c.file as i8 + df;
                if !(0..SIZE as i8).contains(&file) {
                    continue;
                }
                let to = rank as u8 * SIZE + file as u8;
                let target = self.cells[to as usize];
                let legal = if df == 0 {
                    target.is_none()
                } else {
                    target == Some(us.opponent())
                };
                if legal {
                    out.push(Step { from, to });
                }
            }
        }
    }

    fn play(&self, mv: Step) -> Self {
        let mut p = self.clone();
        p.cells[mv.to as usize] = p.cells[mv.from as usize].take();
        if self.side == Color::Second {
            p.move_number += 1;
        }
        p.side = self.side.opponent();
        p
    }

    /// A pawn of the side that just moved on its far rank.
    fn terminal(&self) -> Option<End> {
        let mover = self.side.opponent();
        (0..9u8)
            .any(|sq| self.cells[sq as usize] == Some(mover) && coord(sq).rank == far_rank(mover))
            .then(|| End::win(mover, FAR_RANK))
    }

    /// Pawns only go forward: no position comes back.
    fn repetition_limit(&self) -> Option<usize> {
        None
    }

    fn hash(&self) -> u64 {
        let cells = self.cells.iter().fold(0u64, |h, c| {
            h * 3
                + match c {
                    None => 0,
                    Some(Color::First) => 1,
                    Some(Color::Second) => 2,
                }
        });
        (cells << 1 | self.side.index() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn move_text(&self, mv: Step) -> MoveText {
        MoveText::Step(StepText {
            from: coord(mv.from),
            to: coord(mv.to),
            promote: false,
        })
    }
}

impl Searchable for Hexapawn {
    const MOVE_KEYS: usize = 81;
    /// The whole game is a few plies deep.
    const BENCH: Bench = Bench {
        depth: 8,
        positions: &["startpos"],
    };

    /// Pawns and how far they have come, for the side to move.
    fn evaluate(&self) -> i32 {
        let mut score = 0;
        for sq in 0..9u8 {
            let Some(c) = self.cells[sq as usize] else {
                continue;
            };
            let rank = coord(sq).rank;
            let advance = if c == Color::First {
                rank
            } else {
                SIZE - 1 - rank
            };
            let v = 100 + 20 * i32::from(advance);
            score += if c == self.side { v } else { -v };
        }
        score
    }

    fn is_tactical(&self, mv: Step) -> bool {
        self.captures(mv)
    }

    fn move_key(&self, mv: Step) -> usize {
        mv.from as usize * 9 + mv.to as usize
    }
}

/// How the board's page would draw it.
pub const PRESENTATION: Presentation = Presentation {
    title: "Hexapawn",
    pieces: &[PieceFacts {
        letter: 'P',
        name: "Pawn",
        moves: "one step forward, or one diagonally forward to take",
        art: PieceArt::Shogi,
    }],
    promoted: &[],
    hand: &[],
    help: &["A pawn on the far rank wins; so does leaving the opponent no move."],
    marks: &[],
    path: None,
    levels: None,
    promotion: None,
    win_scale: 0.01,
};

/// Pawns only: one plane a side, one counter, movements only.
pub const ENCODING: Encoding = Encoding {
    kinds: &[('P', false)],
    hand: &[],
    counters: 1,
    promote: false,
    bond: false,
    drops: &[],
    pass: false,
};

/// Its entry, as a game of `src/games/` writes it: no suite, no table, no
/// weights to train, no solver; the defaults say so.
impl Registered for Hexapawn {
    const ENTRY: GameEntry = GameEntry::of::<Hexapawn>(&PRESENTATION, &ENCODING);
}
