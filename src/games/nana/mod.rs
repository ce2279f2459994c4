//! Nana Shogi (`docs/rules/nana.md`, version 3.0 of the designer's
//! rules): a 3x3 board, Kings placed first by drops, two cubes a side that
//! turn to the next state of their cycle after every board move, drops that
//! may not give check, no checkmating board move while holding a piece, King
//! capture wins, the fourth repetition draws.
//!
//! The position is compact and public enough for a retrograde solver: the
//! placement (`piece_at`, `placement`, `board`), the hands (`hand`), the side
//! to move, and `Nana::new` to build any valid position directly.
//!
//! Where the rules are silent, chosen here (and tested; listed in
//! `docs/rules/nana.md`, "Points Koma settles"):
//! - A captured King leaves the game (it is in no hand); the position after
//!   the capture has the loser to move, without a King: `terminal` ends it.
//! - Positions may hold fewer pieces than a game has (studies): at most one
//!   King a side and two cubes of each family in all; while a King is in hand
//!   the board holds only Kings (not on b2) and the side still to place its
//!   King is to move, the first player placing first.
//! - Rule 4 measures the dropped piece's attack with the board as it stands:
//!   a Chariot or Bishop whose slide is blocked does not attack past it.
//!
//! Two consequences of the rules, checked by tests: a side holding a cube
//! always has a legal drop (on any square one state of each cube attacks
//! nothing another does), so forbidden mates never leave a side without
//! moves; and, checked exhaustively, applying rule 5 to the replies or not
//! never changes whether a move mates.

mod board;
mod entry;
pub mod eval;
pub mod index;
mod movegen;
mod presentation;
pub mod solver;
pub mod tablebase;
#[cfg(test)]
mod tests;
mod text;

pub use board::{
    ALL, Bitboard, Board, CENTER, Family, Kind, Reach, Square, attackers_from, attacks, king_steps,
    squares,
};
/// For the solver's unmoves (`solver::unmove`): what generation allows.
pub use movegen::{drop_allowed, step_mates};
pub use presentation::PRESENTATION;

use crate::core::{
    Bench, Color, End, EndReason, Game, MoveList, MoveSink, MoveText, NoRules, PositionError,
    PositionText, Searchable, StepText, TableFile, Tablebase, Tuning,
};
use crate::games::{ShippedSuite, endings};
use board::{ZOBRIST_HAND, ZOBRIST_PIECE, ZOBRIST_SIDE};

/// The opening suites shipped for this game (`tools/openings/make.sh` makes
/// them again).
pub const SUITES: &[ShippedSuite] = &[ShippedSuite {
    path: "suites/nana.txt",
    text: include_str!("../../../suites/nana.txt"),
}];

/// A piece on the board: its owner and its kind (the King or a cube state).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: Kind,
}

impl Piece {
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece { color, kind }
    }
}

/// One side's pieces in hand: how many of each family (King, orthogonal
/// cube, diagonal cube), indexed by `Family::index`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand([u8; 3]);

impl Hand {
    pub const EMPTY: Hand = Hand([0; 3]);
    /// What each side holds at the start: King, `R` and `B`.
    pub const FULL: Hand = Hand([1; 3]);

    pub const fn new(king: u8, orth: u8, diag: u8) -> Hand {
        Hand([king, orth, diag])
    }

    pub const fn count(self, f: Family) -> u8 {
        self.0[f.index()]
    }

    /// Cubes in hand (the King not counted).
    pub const fn cubes(self) -> u8 {
        self.0[1] + self.0[2]
    }

    pub const fn is_empty(self) -> bool {
        self.0[0] == 0 && self.cubes() == 0
    }

    /// The hand with one more piece of family `f`.
    pub const fn plus(mut self, f: Family) -> Hand {
        self.0[f.index()] += 1;
        self
    }

    /// The hand with one piece of family `f` less (it holds one).
    pub const fn minus(mut self, f: Family) -> Hand {
        self.0[f.index()] -= 1;
        self
    }
}

/// A legal move. Board moves turn a cube to its next state; drops name the
/// state the piece is put down in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Step { from: Square, to: Square },
    Drop { kind: Kind, to: Square },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nana {
    board: Board,
    hand: [Hand; 2],
    side: Color,
    /// The move number of the position string: 1 at the start, one more
    /// after each move of the second player. No rule reads it.
    move_number: u32,
    hash: u64,
}

/// Why `Nana::new` refused a placement (the message names the fault).
fn refuse<T>(msg: String) -> Result<T, PositionError> {
    Err(PositionError::Unreachable(msg))
}

/// More pieces than the set holds (the message names them).
fn too_many<T>(msg: String) -> Result<T, PositionError> {
    Err(PositionError::TooMany(msg))
}

impl Nana {
    /// A position from its placement (`placement[sq.index()]`), both hands
    /// (`hands[color.index()]`) and the side to move, at move number 1.
    ///
    /// Accepted: at most one King per side, at most two cubes of each
    /// family in the whole game (fewer is allowed for studies), and a
    /// consistent phase: while a King is in hand the board holds only
    /// Kings, none on b2, and the side to move is the one still to place
    /// its King (the first player places first). The side that just moved
    /// must have its King on the board or in hand; the side to move may
    /// lack it only when it was just captured (the game is then over).
    pub fn new(
        placement: [Option<Piece>; 9],
        hands: [Hand; 2],
        side: Color,
    ) -> Result<Nana, PositionError> {
        let mut board = Board::EMPTY;
        let mut kings = [0u8; 2];
        let mut cubes = [0u32; 3];
        for sq in Square::all() {
            let Some(p) = placement[sq.index()] else {
                continue;
            };
            if p.kind == Kind::King {
                kings[p.color.index()] += 1;
                if kings[p.color.index()] > 1 {
                    return too_many(format!("the {} has a second King on {sq}", p.color));
                }
            } else {
                cubes[p.kind.family().index()] += 1;
            }
            board.put(p.color, p.kind, sq);
        }
        for c in Color::BOTH {
            let h = hands[c.index()];
            if h.count(Family::King) > 1 || (h.count(Family::King) == 1 && kings[c.index()] == 1) {
                return too_many(format!("the {c} has more than one King"));
            }
            for f in [Family::Orth, Family::Diag] {
                cubes[f.index()] += u32::from(h.count(f));
            }
        }
        for f in [Family::Orth, Family::Diag] {
            if cubes[f.index()] > 2 {
                return too_many(format!(
                    "{} cubes of the {} family (letter {}), at most 2 exist",
                    cubes[f.index()],
                    if f == Family::Orth {
                        "orthogonal"
                    } else {
                        "diagonal"
                    },
                    f.letter()
                ));
            }
        }
        let has_king = |c: Color| kings[c.index()] + hands[c.index()].count(Family::King) == 1;
        let mover = side.opponent();
        if !has_king(mover) {
            return refuse(format!(
                "the {mover} (who just moved) has no King on the board or in hand"
            ));
        }
        if !has_king(side) && board.king(mover).is_none() {
            return refuse(format!(
                "the {side}'s King was taken but the {mover}'s King is not on the board"
            ));
        }
        let in_hand = |c: Color| hands[c.index()].count(Family::King) == 1;
        if in_hand(Color::First) || in_hand(Color::Second) {
            if board.occupied() != kings_bits(&board) {
                return refuse("a cube is on the board while a King is still in hand".into());
            }
            if board.occupied() & CENTER != 0 {
                return refuse("a King was dropped on b2".into());
            }
            if in_hand(Color::First) && !in_hand(Color::Second) {
                return refuse("the first player's King is in hand but the second's is placed: the first player places first".into());
            }
            if in_hand(Color::First) && side != Color::First {
                return refuse("both Kings are in hand: the first player places first".into());
            }
            if !in_hand(side) {
                return refuse(format!(
                    "the {side} is to move but only the {mover} still has to place a King"
                ));
            }
        }
        let mut pos = Nana {
            board,
            hand: hands,
            side,
            move_number: 1,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// A position from its parts, unchecked: for the solver, whose index
    /// only builds valid main-phase positions. Move number 1.
    pub(crate) fn from_parts(board: Board, hand: [Hand; 2], side: Color) -> Nana {
        let mut pos = Nana {
            board,
            hand,
            side,
            move_number: 1,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    /// The same position with another move number (at least 1).
    pub fn with_move_number(mut self, n: u32) -> Nana {
        self.move_number = n.max(1);
        self
    }

    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = self.board.color_at(sq)?;
        Some(Piece::new(color, self.board.kind(sq)))
    }

    /// The placement, `[sq.index()]`, as `Nana::new` takes it.
    pub fn placement(&self) -> [Option<Piece>; 9] {
        std::array::from_fn(|i| Square::from_index(i).and_then(|sq| self.piece_at(sq)))
    }

    pub fn hand(&self, c: Color) -> Hand {
        self.hand[c.index()]
    }

    /// Both hands, the first player's first.
    pub fn hands(&self) -> &[Hand; 2] {
        &self.hand
    }

    /// The squares of `c`'s pieces.
    pub fn pieces(&self, c: Color) -> Bitboard {
        self.board.mine(c)
    }

    pub fn king_square(&self, c: Color) -> Option<Square> {
        self.board.king(c)
    }

    /// Whether the move is a board move onto an enemy piece.
    pub fn is_capture(&self, mv: Move) -> bool {
        matches!(mv, Move::Step { to, .. } if self.board.mine(self.side.opponent()) & to.bit() != 0)
    }

    fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Color::Second {
            ZOBRIST_SIDE
        } else {
            0
        };
        for c in Color::BOTH {
            for sq in squares(self.board.mine(c)) {
                h ^= ZOBRIST_PIECE[c.index()][self.board.kind(sq).index()][sq.index()];
            }
            for f in Family::ALL {
                h ^= ZOBRIST_HAND[c.index()][f.index()][self.hand[c.index()].count(f) as usize];
            }
        }
        h
    }
}

/// The squares of both Kings.
fn kings_bits(b: &Board) -> Bitboard {
    Color::BOTH
        .into_iter()
        .filter_map(|c| b.king(c))
        .fold(0, |acc, sq| acc | sq.bit())
}

/// Nana's table of solved positions: the file `koma solve nana --out FILE`
/// writes, named by the engine option `NanaTable`.
pub const TABLE: TableFile = TableFile {
    option: "NanaTable",
    default_file: "nana.table",
    load: |path| {
        let t: std::sync::Arc<dyn Tablebase<Nana>> =
            std::sync::Arc::new(tablebase::NanaTable::load(index::Index::get(), path)?);
        Ok(std::sync::Arc::new(t))
    },
};

impl Game for Nana {
    type Move = Move;
    type Rules = NoRules;
    /// At most 76 moves: with both Kings placed at most 7 squares are empty
    /// and not b2, times 8 drop states, plus at most 20 board moves (n pieces
    /// with at most 9 - n free squares each, n <= 5). Placing a King: 8.
    type MoveList = MoveList<Move, 80>;
    const NAME: &'static str = "nana";
    const FILES: u8 = board::FILES;
    const RANKS: u8 = board::RANKS;
    /// Every piece's moves are the same to the left and to the right (the
    /// Swallow's wings step both ways), and the closed square b2 is on the
    /// middle file.
    const MIRROR: Option<crate::core::Mirror> = Some(crate::core::Mirror::Files);
    const ENDINGS: &'static [EndReason] = &[endings::KING_CAPTURED];

    fn start(_rules: &NoRules) -> Self {
        let mut pos = Nana {
            board: Board::EMPTY,
            hand: [Hand::FULL; 2],
            side: Color::First,
            move_number: 1,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    fn from_text(text: &PositionText, _rules: &NoRules) -> Result<Self, PositionError> {
        text::from_text(text)
    }

    fn to_text(&self) -> PositionText {
        text::to_text(self)
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn generate<S: MoveSink<Move>>(&self, out: &mut S) {
        movegen::generate(self, out);
    }

    fn count_moves(&self) -> usize {
        movegen::count(self)
    }

    /// Once both Kings are placed, a side holding a cube can always drop
    /// it (see the module notes).
    fn has_moves(&self) -> bool {
        let us = self.side;
        if self.hand[us.index()].cubes() > 0
            && self.board.king(us).is_some()
            && self.board.king(us.opponent()).is_some()
        {
            return true;
        }
        movegen::count(self) > 0
    }

    fn play(&self, mv: Move) -> Self {
        let us = self.side;
        let them = us.opponent();
        let (u, t) = (us.index(), them.index());
        let mut p = self.clone();
        match mv {
            Move::Drop { kind, to } => {
                let f = kind.family().index();
                let n = p.hand[u].0[f] as usize;
                p.hash ^= ZOBRIST_HAND[u][f][n] ^ ZOBRIST_HAND[u][f][n - 1];
                p.hand[u].0[f] -= 1;
                p.board.put(us, kind, to);
                p.hash ^= ZOBRIST_PIECE[u][kind.index()][to.index()];
            }
            Move::Step { from, to } => {
                if p.board.mine(them) & to.bit() != 0 {
                    let taken = p.board.kind(to);
                    p.hash ^= ZOBRIST_PIECE[t][taken.index()][to.index()];
                    p.board.remove(them, to);
                    // A taken King ends the game and goes nowhere.
                    if taken != Kind::King {
                        let f = taken.family().index();
                        let n = p.hand[u].0[f] as usize;
                        p.hash ^= ZOBRIST_HAND[u][f][n] ^ ZOBRIST_HAND[u][f][n + 1];
                        p.hand[u].0[f] += 1;
                    }
                }
                let kind = p.board.kind(from);
                let next = kind.next();
                p.board.remove(us, from);
                p.board.put(us, next, to);
                p.hash ^= ZOBRIST_PIECE[u][kind.index()][from.index()]
                    ^ ZOBRIST_PIECE[u][next.index()][to.index()];
            }
        }
        if us == Color::Second {
            p.move_number = p.move_number.saturating_add(1);
        }
        p.side = them;
        p.hash ^= ZOBRIST_SIDE;
        p
    }

    /// The side to move has lost its King (neither on the board nor in hand).
    fn terminal(&self) -> Option<End> {
        let c = self.side;
        (self.board.king(c).is_none() && self.hand[c.index()].count(Family::King) == 0)
            .then(|| End::win(c.opponent(), endings::KING_CAPTURED))
    }

    /// Placement with cube states, both hands and the side to move: the
    /// position of the repetition rule. The move number is not part of it.
    /// The fourth occurrence of a position draws.
    fn repetition_limit(&self) -> Option<usize> {
        Some(4)
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn move_text(&self, mv: Move) -> MoveText {
        match mv {
            Move::Step { from, to } => MoveText::Step(StepText {
                from: from.coord(),
                to: to.coord(),
                promote: false,
            }),
            Move::Drop { kind, to } => MoveText::Drop {
                piece: kind.letter(),
                to: to.coord(),
            },
        }
    }

    fn find_move(&self, text: &MoveText) -> Option<Move> {
        let mv = match *text {
            MoveText::Step(s) if !s.promote => Move::Step {
                from: Square::from_coord(s.from)?,
                to: Square::from_coord(s.to)?,
            },
            MoveText::Drop { piece, to } => Move::Drop {
                kind: Kind::from_letter(piece)?,
                to: Square::from_coord(to)?,
            },
            _ => return None,
        };
        if self.terminal().is_some() {
            return None;
        }
        let mut moves = Self::MoveList::default();
        self.generate(&mut moves);
        moves.contains(&mv).then_some(mv)
    }
}

impl Searchable for Nana {
    /// The start and a few middlegames.
    const BENCH: Bench = Bench {
        depth: 12,
        positions: &[
            "startpos",
            "2k/3/K2[RBrb] w 2",
            "1k1/3/K2[RBrb] w 2",
            "2k/1r1/BK1[Rb] b 7",
        ],
    };
    /// Board moves `from * 9 + to`, then drops `81 + kind * 9 + to`.
    const MOVE_KEYS: usize = 2 * board::SQUARES * board::SQUARES;
    const CHECKS: bool = true;
    /// Moves that give check, and the moves of a node in check, are not
    /// reduced: reducing them by a ply less, as the other games do, lost
    /// matches here (a King hunt on a 3x3 board is the whole game). No
    /// continuation history (it lost matches here).
    const TUNING: Tuning = Tuning {
        reduce_checks: false,
        continuation_history: false,
        ..Tuning::DEFAULT
    };

    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    fn is_tactical(&self, mv: Move) -> bool {
        self.is_capture(mv)
    }

    /// A pass for null-move pruning, once both Kings are placed and only
    /// for a side holding a cube: it can always drop it somewhere, which
    /// is nearly a pass. Without one, zugzwang is common on this board.
    /// (A search test checks that no short win or loss is missed where
    /// this pass is offered.)
    fn play_null(&self) -> Option<Self> {
        if self.hand.iter().any(|h| h.count(Family::King) > 0)
            || self.hand[self.side.index()].cubes() == 0
        {
            return None;
        }
        Some(Nana {
            side: self.side.opponent(),
            hash: self.hash ^ ZOBRIST_SIDE,
            ..self.clone()
        })
    }

    fn in_check(&self) -> bool {
        let us = self.side;
        self.board
            .king(us)
            .is_some_and(|k| self.board.attacked_by(us.opponent(), k))
    }

    /// Played on the bare board: no hands, no hash.
    fn gives_check(&self, mv: Move) -> bool {
        let us = self.side;
        let them = us.opponent();
        let mut after = self.board;
        match mv {
            Move::Drop { kind, to } => after.put(us, kind, to),
            Move::Step { from, to } => {
                if after.mine(them) & to.bit() != 0 {
                    after.remove(them, to);
                }
                let kind = after.kind(from);
                after.remove(us, from);
                after.put(us, kind.next(), to);
            }
        }
        after.king(them).is_some_and(|ek| after.attacked_by(us, ek))
    }

    fn move_key(&self, mv: Move) -> usize {
        const SQ: usize = board::SQUARES;
        match mv {
            Move::Step { from, to } => from.index() * SQ + to.index(),
            Move::Drop { kind, to } => SQ * SQ + kind.index() * SQ + to.index(),
        }
    }
}
