//! Kani Nari Ebi (`docs/rules/kaninariebi.md`), Koma's main game: 5x5,
//! Crabs sliding along their rank and Shrimps stepping diagonally, the River
//! current on file c, optional promotion in the opponent's home column,
//! custodian capture of whole runs by the moved piece, the Bond (one extra
//! diagonal step by a member of the moved piece's group), and the wins by
//! three captures and by three Shrimps, with the option `KaniBondAnyType`;
//! and Koma's draw by the fourth occurrence of a position, the option
//! `KaniRepetition` (the rulebook has no draw at all).
//!
//! A turn is one `Move`: the normal movement and, when the turn has one,
//! the Bond movement, each written with the square where the piece comes to
//! rest after the current (`docs/rules/notation.md`).

mod board;
mod capture;
pub mod endgame;
mod entry;
pub mod eval;
mod movegen;
mod presentation;
mod rules;
#[cfg(test)]
mod tests;
mod text;

pub use board::Square;
pub use movegen::PIECES;
pub use presentation::PRESENTATION;
pub use rules::KaniRules;

use crate::core::{
    Bench, Color, Coord, End, EndReason, Game, MoveHint, MoveList, MoveSink, MoveText, Searchable,
    StepText,
};
use crate::games::{ShippedSuite, endings};
use board::{Bitboard, RIVER, ZOBRIST, ZOBRIST_SIDE, crab_targets, river_rest};
use movegen::{Mover, has_won};

/// The opening suites shipped for this game (`tools/openings/make.sh` makes
/// them again).
pub const SUITES: &[ShippedSuite] = &[ShippedSuite {
    path: "suites/kaninariebi.txt",
    text: include_str!("../../../suites/kaninariebi.txt"),
}];

/// Three own Shrimps on the board.
pub const SHRIMPS: EndReason = EndReason::Game("three Shrimps");

/// One movement: the piece's square, its resting square, and whether it
/// promotes; packed in 11 bits (from, to << 5, promote << 10).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Movement {
    pub from: Square,
    pub to: Square,
    pub promote: bool,
}

impl Movement {
    const fn pack(self) -> u32 {
        self.from.index() as u32 | (self.to.index() as u32) << 5 | (self.promote as u32) << 10
    }

    const fn unpack(bits: u32) -> Movement {
        Movement {
            from: Square::from_index(bits & 31),
            to: Square::from_index((bits >> 5) & 31),
            promote: bits & (1 << 10) != 0,
        }
    }

    fn text(self) -> StepText {
        StepText {
            from: self.from.coord(),
            to: self.to.coord(),
            promote: self.promote,
        }
    }

    fn from_text(t: &StepText) -> Option<Movement> {
        Some(Movement {
            from: Square::from_coord(t.from)?,
            to: Square::from_coord(t.to)?,
            promote: t.promote,
        })
    }
}

/// A turn, packed in a `u32`: the normal movement in bits 0..11, the Bond
/// movement in bits 11..22, bit 22 set when the turn has a Bond. Every
/// legal turn has exactly one packing, so turns compare as integers. Bit 23
/// is a note move generation adds, a function of the position and the
/// turn: set when the turn captures or promotes (`is_tactical` reads it
/// instead of playing the turn). Bits 24..31 are another such note, the
/// turn's `cont_key` (the search asks it of every move it orders, and the
/// kind the piece rests as is a look at the board). Equality and hashing
/// ignore both notes.
#[derive(Copy, Clone)]
pub struct Move(u32);

const BOND: u32 = 1 << 22;
const TACTICAL: u32 = 1 << 23;
/// The bits that name the turn.
const TURN: u32 = TACTICAL - 1;
/// Where the note of the turn's `cont_key` starts.
const CONT_SHIFT: u32 = 24;
/// The bits of that note.
const CONT: u32 = 0xff << CONT_SHIFT;

impl PartialEq for Move {
    #[inline]
    fn eq(&self, other: &Move) -> bool {
        (self.0 ^ other.0) & TURN == 0
    }
}

impl Eq for Move {}

impl std::hash::Hash for Move {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.0 & TURN).hash(state);
    }
}

impl Move {
    #[inline]
    pub const fn single(from: Square, to: Square, promote: bool) -> Move {
        Move(Movement { from, to, promote }.pack())
    }

    /// This turn's normal movement followed by a Bond movement (the
    /// notes kept, the `cont_key` one counting the Bond).
    #[inline]
    pub const fn with_bond(self, from: Square, to: Square, promote: bool) -> Move {
        Move(
            (self.0 & (0x7ff | TACTICAL | CONT))
                | Movement { from, to, promote }.pack() << 11
                | BOND
                | 1 << CONT_SHIFT,
        )
    }

    /// The single movement noted with its `cont_key`, `shrimp` saying
    /// whether the piece rests as a Shrimp.
    #[inline]
    pub const fn noted_cont(self, shrimp: bool) -> Move {
        let to = (self.0 >> 5) & 31;
        Move(self.0 | (to * 4 + 2 * shrimp as u32) << CONT_SHIFT)
    }

    /// The turn noted as capturing or promoting.
    #[inline]
    pub const fn noted_tactical(self) -> Move {
        Move(self.0 | TACTICAL)
    }

    /// Whether generation noted the turn as capturing or promoting.
    #[inline]
    pub const fn tactical(self) -> bool {
        self.0 & TACTICAL != 0
    }

    pub const fn first(self) -> Movement {
        Movement::unpack(self.0)
    }

    pub const fn bond(self) -> Option<Movement> {
        if self.0 & BOND != 0 {
            Some(Movement::unpack(self.0 >> 11))
        } else {
            None
        }
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self.bond() {
            None => MoveText::Step(self.first().text()),
            Some(b) => MoveText::Bond(self.first().text(), b.text()),
        };
        write!(f, "{text}")
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KaniNariEbi {
    /// Pieces of each side.
    pieces: [Bitboard; 2],
    /// Shrimps of both sides (the other pieces are Crabs).
    shrimps: Bitboard,
    side: Color,
    /// The move number: 1 at the start, one more after each second-player
    /// turn.
    move_number: u32,
    rules: KaniRules,
    hash: u64,
}

impl KaniNariEbi {
    pub fn pieces(&self, c: Color) -> Bitboard {
        self.pieces[c.index()]
    }

    pub fn shrimps(&self, c: Color) -> Bitboard {
        self.pieces[c.index()] & self.shrimps
    }

    pub fn crabs(&self, c: Color) -> Bitboard {
        self.pieces[c.index()] & !self.shrimps
    }

    /// Pieces `c` has captured: the opponent's missing pieces.
    pub fn captured_by(&self, c: Color) -> u32 {
        PIECES.saturating_sub(self.pieces[c.opponent().index()].count_ones())
    }

    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    pub fn rules(&self) -> &KaniRules {
        &self.rules
    }

    /// Whether `c` meets a winning condition: three captures or three
    /// Shrimps of its own on the board.
    pub fn has_won(&self, c: Color) -> Option<EndReason> {
        let enemy = self.pieces[c.opponent().index()];
        if !has_won(self.shrimps(c), enemy) {
            None
        } else if enemy.count_ones() <= PIECES - 3 {
            Some(endings::CAPTURES)
        } else {
            Some(SHRIMPS)
        }
    }

    fn mover(&self) -> Mover {
        let us = self.side;
        Mover {
            own: self.pieces[us.index()],
            shrimps: self.shrimps(us),
            enemy: self.pieces[us.opponent().index()],
            promotion_zone: board::home(us.opponent()),
            any_type: self.rules.bond_any_type,
        }
    }

    /// The River squares movement `m` may have entered the River by, on
    /// this board, when it comes to rest in the River: a Crab's normal
    /// movement along its rank, a Shrimp's step and any Bond step
    /// diagonally; the current, up or down from the entry, leaves the
    /// piece on `m.to`. Highest rank first.
    fn river_entries(&self, m: Movement, bond: bool) -> Vec<Coord> {
        if RIVER & m.to.bit() == 0 || RIVER & m.from.bit() != 0 {
            return Vec::new();
        }
        let occupied = self.pieces[0] | self.pieces[1];
        let reach = if !bond && self.shrimps & m.from.bit() == 0 {
            crab_targets(m.from, occupied)
        } else {
            m.from.diagonal() & !occupied
        };
        let mut via: Vec<Coord> = board::squares(reach & RIVER)
            .filter(|e| river_rest(occupied, e.bit()) & m.to.bit() != 0)
            .map(Square::coord)
            .collect();
        via.reverse();
        via
    }

    fn compute_hash(pieces: &[Bitboard; 2], shrimps: Bitboard, side: Color) -> u64 {
        let mut h = if side == Color::Second {
            ZOBRIST_SIDE
        } else {
            0
        };
        for c in Color::BOTH {
            for sq in board::squares(pieces[c.index()]) {
                let kind = usize::from(shrimps & sq.bit() != 0);
                h ^= ZOBRIST[c.index()][kind][sq.index()];
            }
        }
        h
    }

    /// Plays one movement of the side to move (resting square given) with
    /// its promotion and capture; the side to move does not change.
    #[inline]
    fn apply(&mut self, m: Movement) {
        let us = self.side.index();
        let them = 1 - us;
        let (bf, bt) = (m.from.bit(), m.to.bit());
        let was = usize::from(self.shrimps & bf != 0);
        let now = was | usize::from(m.promote);
        self.pieces[us] ^= bf | bt;
        self.shrimps &= !bf;
        if now == 1 {
            self.shrimps |= bt;
        }
        self.hash ^= ZOBRIST[us][was][m.from.index()] ^ ZOBRIST[us][now][m.to.index()];
        let taken = capture::captured(m.to, self.pieces[us], self.pieces[them]);
        if taken != 0 {
            for sq in board::squares(taken) {
                let kind = usize::from(self.shrimps & sq.bit() != 0);
                self.hash ^= ZOBRIST[them][kind][sq.index()];
            }
            self.pieces[them] &= !taken;
            self.shrimps &= !taken;
        }
    }
}

/// A proven bound on the number of turns in any position. Normal
/// movements: a Crab reaches at most the 4 other files of its rank, of which
/// the River gives at most 2 resting squares and the opponent's home column
/// 2 strings (plain and `+`): at most 6. A Shrimp has 4 diagonal squares, at
/// most 2 of them in the River (at most 2 resting squares each): at most 6.
/// So at most 5 x 6 = 30 normal movements. After one, the Bond group has at
/// most 5 members; a member's 4 diagonal squares lie in two files, one of
/// which may be the River (at most 2 + 2 resting squares) and the other the
/// opponent's home column (at most 2 + 2 strings): at most 8 Bond movements
/// per member, 40 per normal movement. Total at most 30 x (1 + 40) = 1230.
pub const MAX_TURNS: usize = 1230;

/// Under `KaniRepetition`: the occurrence of a position that draws.
pub const REPETITION_LIMIT: usize = 4;

impl Game for KaniNariEbi {
    type Move = Move;
    type Rules = KaniRules;
    type MoveList = MoveList<Move, MAX_TURNS>;
    const NAME: &'static str = "kaninariebi";
    const FILES: u8 = board::FILES;
    const RANKS: u8 = board::RANKS;
    /// The players face each other across files `a` and `e` (their home
    /// columns) with the River on file `c`, so left and right for them is
    /// rank 1 against rank 5: Crabs slide along ranks, Shrimps step
    /// diagonally, captures look along both lines, and the current's
    /// direction is free. Swapping files would swap the home columns.
    const MIRROR: Option<crate::core::Mirror> = Some(crate::core::Mirror::Ranks);
    const ENDINGS: &'static [EndReason] = &[endings::CAPTURES, SHRIMPS];

    fn start(rules: &KaniRules) -> Self {
        let pieces = [board::FILE_A, board::FILE_E];
        KaniNariEbi {
            pieces,
            shrimps: 0,
            side: Color::First,
            move_number: 1,
            rules: *rules,
            hash: Self::compute_hash(&pieces, 0, Color::First),
        }
    }

    fn from_text(
        text: &crate::core::PositionText,
        rules: &KaniRules,
    ) -> Result<Self, crate::core::PositionError> {
        text::from_text(text, rules)
    }

    fn to_text(&self) -> crate::core::PositionText {
        text::to_text(self)
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn generate<S: MoveSink<Move>>(&self, out: &mut S) {
        self.mover().generate(out);
    }

    fn count_moves(&self) -> usize {
        self.mover().count()
    }

    /// A turn starts with a normal movement: is there one?
    fn has_moves(&self) -> bool {
        self.mover().has_movement()
    }

    fn play(&self, mv: Move) -> Self {
        let mut next = self.clone();
        next.apply(mv.first());
        if let Some(b) = mv.bond() {
            next.apply(b);
        }
        if next.side == Color::Second {
            next.move_number = next.move_number.saturating_add(1);
        }
        next.side = next.side.opponent();
        next.hash ^= ZOBRIST_SIDE;
        next
    }

    /// The player who just moved wins by three captures or three Shrimps.
    /// (`from_text` refuses positions where the side to move already won.)
    fn terminal(&self) -> Option<End> {
        let mover = self.side.opponent();
        self.has_won(mover).map(|reason| End::win(mover, reason))
    }

    /// The rulebook has no draw; Koma's rule option `KaniRepetition`
    /// (default on) makes the fourth occurrence of a position (board and
    /// side to move) a draw, as the shogi family does. Off, only the
    /// referee's adjudication ends an endless game.
    fn repetition_limit(&self) -> Option<usize> {
        self.rules.repetition.then_some(REPETITION_LIMIT)
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn move_text(&self, mv: Move) -> MoveText {
        match mv.bond() {
            None => MoveText::Step(mv.first().text()),
            Some(b) => MoveText::Bond(mv.first().text(), b.text()),
        }
    }

    fn find_move(&self, text: &MoveText) -> Option<Move> {
        let mv = match text {
            MoveText::Step(s) => {
                let m = Movement::from_text(s)?;
                Move::single(m.from, m.to, m.promote)
            }
            MoveText::Bond(a, b) => {
                let (a, b) = (Movement::from_text(a)?, Movement::from_text(b)?);
                Move::single(a.from, a.to, a.promote).with_bond(b.from, b.to, b.promote)
            }
            _ => return None,
        };
        let mut moves = Self::MoveList::default();
        self.generate(&mut moves);
        // The generated turn, with its tactical note.
        moves.iter().copied().find(|&m| m == mv)
    }

    /// The River squares each movement may have entered by; a Bond step
    /// is looked at on the board after the turn's first movement.
    fn hint(&self, mv: Move) -> MoveHint {
        // The River squares a movement resting in the River entered by.
        let mut paths = vec![self.river_entries(mv.first(), false)];
        if let Some(b) = mv.bond() {
            let mut mid = self.clone();
            mid.apply(mv.first());
            paths.push(mid.river_entries(b, true));
        }
        MoveHint {
            paths,
            levels: Vec::new(),
        }
    }
}

impl Searchable for KaniNariEbi {
    /// The start and a few middlegames.
    const BENCH: Bench = Bench {
        depth: 9,
        positions: &[
            "startpos",
            "1C1sc/C1S2/2cCs/C2c1/5 w 12",
            "CC1cc/C3c/5/C4/C2cc w 1",
            "2S2/1s1C1/S3c/1c1s1/C3c b 20",
        ],
    };
    /// Turns without a Bond: the normal movement as packed (11 bits);
    /// turns with a Bond: 2048 plus the Bond movement as packed.
    const MOVE_KEYS: usize = 2 << 11;
    /// The normal movement's resting square, the kind the piece rests as,
    /// and whether a Bond follows.
    const CONT_KEYS: usize = 4 * board::SQUARES;
    const CHECKS: bool = true;
    /// ProbCut at two hundred centipawns, about one capture. Contempt 5:
    /// equal play ends in repetition here, and a small price on it makes
    /// the search take a level alternative instead (a larger one gives
    /// away too much against an equal opponent).
    const TUNING: crate::core::Tuning = crate::core::Tuning {
        probcut_margin: 200,
        contempt: 5,
        ..crate::core::Tuning::DEFAULT
    };

    fn generate_tactical<S: MoveSink<Move>>(&self, out: &mut S) {
        self.mover().generate_tactical(out);
    }

    /// A pass as a lower bound for null-move pruning: a side is rarely
    /// hurt by having to move (the loss with no legal movement needs a
    /// nearly blocked side, far below any beta the search prunes at).
    fn play_null(&self) -> Option<Self> {
        Some(KaniNariEbi {
            side: self.side.opponent(),
            hash: self.hash ^ ZOBRIST_SIDE,
            ..self.clone()
        })
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    /// No King here: the check is the opponent's win with its next normal
    /// movement, its third Shrimp by a promotion or its third capture, as
    /// the evaluation sees it (a win by a Bond step is not looked for).
    fn in_check(&self) -> bool {
        eval::threatened(self)
    }

    /// Only a side with two Shrimps, or facing three pieces, threatens a
    /// win: a quiet turn that leaves neither is not played to find out.
    fn gives_check(&self, mv: Move) -> bool {
        let us = self.side;
        let could = mv.tactical()
            || self.shrimps(us).count_ones() >= 2
            || self.pieces(us.opponent()).count_ones() <= PIECES - 2;
        could && self.play(mv).in_check()
    }

    /// Turns that capture or promote, as generation noted them (`mv` must
    /// come from `generate` or `find_move`).
    #[inline]
    fn is_tactical(&self, mv: Move) -> bool {
        mv.tactical()
    }

    /// The packed turn itself: `move_key` keys a Bond turn by its Bond only.
    fn move_id(&self, mv: Move) -> u32 {
        mv.0 & TURN
    }

    /// As generation noted it (`mv` must come from `generate` or
    /// `find_move`).
    #[inline]
    fn cont_key(&self, mv: Move) -> usize {
        (mv.0 >> CONT_SHIFT) as usize
    }

    #[inline]
    fn move_key(&self, mv: Move) -> usize {
        // With a Bond, its movement and the Bond bit (bit 22 brought to 11);
        // without, the movement (bit 11 is then clear). A shift, not a
        // branch: the search asks every move it orders.
        let shift = ((mv.0 & BOND) >> 22) * 11;
        ((mv.0 >> shift) & 0xfff) as usize
    }
}
