//! Negaeri Shogi (`docs/rules/negaeri.md`): 6x6 shogi with King, Pawn,
//! Rook and Bishop, drops, and Othello-like flips after drops (edge rule,
//! loyalty around the King, chains up to level 5); King capture wins, two
//! passes in a row or the fourth repetition end the game by pieces on the
//! board. Options `NegaeriEdge`, `NegaeriEqualHands`, `NegaeriChainLimit`.
//!
//! Choices where the rules are silent (listed in `docs/rules/negaeri.md`,
//! "Points Koma settles"):
//! - A captured King does not go into hand: the game is over at once.
//! - "Pieces on the board" (double pass, repetition) counts every piece of a
//!   side on the board, its King included (both Kings are on the board
//!   whenever those rules apply, so this decides nothing by itself).
//! - Repetition compares board, hands and side to move; the pass counter is
//!   not part of it (it is part of `hash`, since it decides the future).
//! - A position string may hold at most the pieces of the set (13 pawns,
//!   4 rooks, 4 bishops, one King a side, promoted or not, on the board or
//!   in hand); the side not to move must have its King.

mod board;
mod entry;
pub mod eval;
mod flip;
mod movegen;
mod packed_move;
mod presentation;
mod rules;
#[cfg(test)]
mod tests;
mod text;

pub use board::{Kind, Square};
pub use flip::Flips;
pub use packed_move::{Action, Move};
pub use presentation::PRESENTATION;
pub use rules::{MAX_CHAIN, NegaeriRules};

use crate::core::{
    Bench, Color, End, EndReason, Game, MoveHint, MoveList, MoveSink, MoveText, Outcome,
    Searchable, StepText,
};
use crate::games::{ShippedSuite, endings};
use board::{Bitboard, ZOBRIST_HAND, ZOBRIST_PASSES, ZOBRIST_PIECE, ZOBRIST_SIDE};

/// The opening suites shipped for this game (`tools/openings/make.sh` makes
/// them again).
pub const SUITES: &[ShippedSuite] = &[ShippedSuite {
    path: "suites/negaeri.txt",
    text: include_str!("../../../suites/negaeri.txt"),
}];

/// Two passes in a row, decided by the pieces on the board.
pub const DOUBLE_PASS: EndReason = EndReason::Game("two passes in a row");

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Negaeri {
    /// The squares of each kind, both sides together.
    kinds: [Bitboard; 7],
    /// The squares of each side's pieces.
    colors: [Bitboard; 2],
    /// `hands[color][kind]` for Pawn, Rook, Bishop.
    hands: [[u8; 3]; 2],
    side: Color,
    /// Passes in a row just played (two end the game).
    passes: u8,
    /// Starts at 1, grows after the second player's move.
    fullmove: u32,
    rules: NegaeriRules,
    hash: u64,
}

/// The start position's pieces: (file, rank, kind) for the first player;
/// the second player's are the same turned half a circle.
const START: [(u8, u8, Kind); 6] = [
    (1, 0, Kind::Rook),
    (2, 0, Kind::King),
    (3, 0, Kind::Bishop),
    (1, 1, Kind::Pawn),
    (2, 1, Kind::Pawn),
    (3, 1, Kind::Pawn),
];

impl Negaeri {
    /// The piece on a square, if any.
    pub fn piece_at(&self, sq: Square) -> Option<(Color, Kind)> {
        let color = Color::BOTH
            .into_iter()
            .find(|c| self.colors[c.index()] & sq.bit() != 0)?;
        Some((color, self.kind_at(sq)?))
    }

    fn kind_at(&self, sq: Square) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .find(|k| self.kinds[k.index()] & sq.bit() != 0)
    }

    /// How many pieces of `kind` (Pawn, Rook or Bishop) `c` holds in hand.
    pub fn in_hand(&self, c: Color, kind: Kind) -> u8 {
        self.hands[c.index()]
            .get(kind.index())
            .copied()
            .unwrap_or(0)
    }

    /// The squares of `c`'s pieces.
    pub fn pieces(&self, c: Color) -> Bitboard {
        self.colors[c.index()]
    }

    /// The squares of `c`'s pieces of `kind`.
    pub fn pieces_of(&self, c: Color, kind: Kind) -> Bitboard {
        self.colors[c.index()] & self.kinds[kind.index()]
    }

    /// Pieces of `c` on the board (its King included).
    pub fn board_count(&self, c: Color) -> u32 {
        self.colors[c.index()].count_ones()
    }

    /// Passes in a row just played.
    pub fn passes(&self) -> u8 {
        self.passes
    }

    pub fn rules(&self) -> &NegaeriRules {
        &self.rules
    }

    fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// The King square of `c` as a set (empty once captured).
    fn king(&self, c: Color) -> Bitboard {
        self.pieces_of(c, Kind::King)
    }

    /// What a move flips, level by level (nothing unless it is a drop).
    /// For statistics and tests; `play` applies the same resolution
    /// (`flip::resolve_all`).
    pub fn flips(&self, mv: Move) -> Flips {
        match mv.action() {
            Action::Drop { to, .. } => {
                let us = self.side;
                flip::resolve(
                    to.index(),
                    self.colors[us.index()],
                    self.colors[us.opponent().index()],
                    self.king(us.opponent()),
                    self.rules.edge,
                    self.rules.chain_limit,
                )
            }
            _ => Flips::default(),
        }
    }

    fn by_board_count(&self) -> Outcome {
        Outcome::by_count(
            self.board_count(Color::First),
            self.board_count(Color::Second),
        )
    }

    fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Color::Second {
            ZOBRIST_SIDE
        } else {
            0
        };
        for c in Color::BOTH {
            for k in Kind::ALL {
                for sq in board::squares(self.pieces_of(c, k)) {
                    h ^= ZOBRIST_PIECE[c.index()][k.index()][sq.index()];
                }
            }
            for k in Kind::HAND {
                h ^= ZOBRIST_HAND[c.index()][k.index()][self.hands[c.index()][k.index()] as usize];
            }
        }
        h ^ ZOBRIST_PASSES[self.passes as usize]
    }
}

impl Game for Negaeri {
    type Move = Move;
    type Rules = NegaeriRules;
    /// At most 299 moves: a position holds at most the set (13 pawn-kind,
    /// 4 rook-kind, 4 bishop-kind pieces, one King a side; `from_text`
    /// checks it and play keeps it). Board moves are at most 8 for the King,
    /// 14 per rook or dragon (10 along the lines on 6x6, 4 diagonal steps),
    /// 13 per bishop or horse (9 along the diagonals from the centre, 4
    /// steps) and 6 per pawn or tokin: 8 + 4*14 + 4*13 + 13*6 = 194. Drops
    /// are at most 3 kinds on at most 35 empty squares (the own King stands
    /// on one): 105.
    type MoveList = MoveList<Move, 300>;
    const NAME: &'static str = "negaeri";
    const FILES: u8 = board::FILES;
    const RANKS: u8 = board::RANKS;
    /// Shogi's King, Rook, Bishop and Pawn move the same to either side and
    /// sandwiches close along every line; only the start position is
    /// lopsided (the King on c1), which the rules of play do not see.
    const MIRROR: Option<crate::core::Mirror> = Some(crate::core::Mirror::Files);
    const ENDINGS: &'static [EndReason] = &[endings::KING_CAPTURED, DOUBLE_PASS];

    fn start(rules: &NegaeriRules) -> Self {
        let mut p = Negaeri {
            kinds: [0; 7],
            colors: [0; 2],
            hands: [[if rules.equal_hands { 3 } else { 4 }, 1, 1], [3, 1, 1]],
            side: Color::First,
            passes: 0,
            fullmove: 1,
            rules: *rules,
            hash: 0,
        };
        for (f, r, k) in START {
            for (c, sq) in [
                (Color::First, Square::new(f, r)),
                (Color::Second, Square::new(5 - f, 5 - r)),
            ] {
                p.kinds[k.index()] |= sq.bit();
                p.colors[c.index()] |= sq.bit();
            }
        }
        p.hash = p.compute_hash();
        p
    }

    fn from_text(
        text: &crate::core::PositionText,
        rules: &NegaeriRules,
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
        movegen::generate(self, out);
    }

    fn count_moves(&self) -> usize {
        movegen::count(self)
    }

    /// Passing is legal when nothing else is: there is always a move.
    fn has_moves(&self) -> bool {
        true
    }

    fn play(&self, mv: Move) -> Self {
        let us = self.side.index();
        let them = 1 - us;
        let mut p = self.clone();
        let mut hash = self.hash;
        match mv.action() {
            Action::Step { kind: k, from, to } => {
                debug_assert_eq!(self.kind_at(from), Some(k), "{mv:?}");
                if self.colors[them] & to.bit() != 0 {
                    if let Some(taken) = self.kind_at(to) {
                        p.kinds[taken.index()] ^= to.bit();
                        hash ^= ZOBRIST_PIECE[them][taken.index()][to.index()];
                        // A captured King ends the game; it is not held.
                        if taken != Kind::King {
                            let k = taken.unpromoted().index();
                            let n = p.hands[us][k] as usize;
                            hash ^= ZOBRIST_HAND[us][k][n] ^ ZOBRIST_HAND[us][k][n + 1];
                            p.hands[us][k] += 1;
                        }
                    }
                    p.colors[them] ^= to.bit();
                }
                let path = from.bit() | to.bit();
                p.kinds[k.index()] ^= path;
                hash ^= ZOBRIST_PIECE[us][k.index()][from.index()]
                    ^ ZOBRIST_PIECE[us][k.index()][to.index()];
                p.colors[us] ^= from.bit() | to.bit();
            }
            Action::Drop { kind, to } => {
                let k = kind.index();
                let n = p.hands[us][k] as usize;
                hash ^= ZOBRIST_HAND[us][k][n] ^ ZOBRIST_HAND[us][k][n.saturating_sub(1)];
                p.hands[us][k] = p.hands[us][k].saturating_sub(1);
                let flipped = flip::resolve_all(
                    to.index(),
                    self.colors[us],
                    self.colors[them],
                    self.king(self.side.opponent()),
                    self.rules.edge,
                    self.rules.chain_limit,
                );
                p.kinds[k] |= to.bit();
                p.colors[us] |= to.bit();
                hash ^= ZOBRIST_PIECE[us][k][to.index()];
                if flipped != 0 {
                    // Promoted pieces keep their kind and only change side;
                    // the others move to their promoted kind. (The King
                    // never flips.) Promoted kinds first, before the newly
                    // promoted join them.
                    for k in [Kind::Tokin, Kind::Dragon, Kind::Horse] {
                        for sq in board::squares(p.kinds[k.index()] & flipped) {
                            hash ^= ZOBRIST_PIECE[them][k.index()][sq.index()]
                                ^ ZOBRIST_PIECE[us][k.index()][sq.index()];
                        }
                    }
                    for k in Kind::HAND {
                        let moved = p.kinds[k.index()] & flipped;
                        let pk = k.promoted().index();
                        for sq in board::squares(moved) {
                            hash ^= ZOBRIST_PIECE[them][k.index()][sq.index()]
                                ^ ZOBRIST_PIECE[us][pk][sq.index()];
                        }
                        p.kinds[k.index()] ^= moved;
                        p.kinds[pk] |= moved;
                    }
                    p.colors[them] ^= flipped;
                    p.colors[us] |= flipped;
                }
            }
            Action::Pass => {}
        }
        let passes = if mv == Move::PASS {
            (self.passes + 1).min(2)
        } else {
            0
        };
        hash ^= ZOBRIST_PASSES[self.passes as usize] ^ ZOBRIST_PASSES[passes as usize];
        p.passes = passes;
        p.side = self.side.opponent();
        hash ^= ZOBRIST_SIDE;
        if self.side == Color::Second {
            p.fullmove = self.fullmove.saturating_add(1);
        }
        p.hash = hash;
        p
    }

    fn terminal(&self) -> Option<End> {
        for c in [self.side, self.side.opponent()] {
            if self.king(c) == 0 {
                return Some(End::win(c.opponent(), endings::KING_CAPTURED));
            }
        }
        (self.passes >= 2).then(|| End::new(self.by_board_count(), DOUBLE_PASS))
    }

    /// The fourth occurrence of a position ends the game (by pieces).
    fn repetition_limit(&self) -> Option<usize> {
        Some(4)
    }

    fn repetition_end(&self) -> End {
        End::new(self.by_board_count(), EndReason::Repetition)
    }

    /// Everything that decides the future: board, hands, side to move and
    /// the passes in a row. The move number is not part of it.
    fn hash(&self) -> u64 {
        self.hash
    }

    /// Board, both hands and side to move, as the repetition rule says.
    fn repetition_key(&self) -> u64 {
        self.hash ^ ZOBRIST_PASSES[self.passes as usize]
    }

    fn move_text(&self, mv: Move) -> MoveText {
        match mv.action() {
            Action::Step { from, to, .. } => MoveText::Step(StepText {
                from: from.coord(),
                to: to.coord(),
                promote: false,
            }),
            Action::Drop { kind, to } => MoveText::Drop {
                piece: kind.letter(),
                to: to.coord(),
            },
            Action::Pass => MoveText::Pass,
        }
    }

    fn find_move(&self, text: &MoveText) -> Option<Move> {
        let mv = match *text {
            MoveText::Step(s) if !s.promote => {
                let from = Square::from_coord(s.from)?;
                Move::step(self.kind_at(from)?, from, Square::from_coord(s.to)?)
            }
            MoveText::Drop { piece, to } => Move::drop(
                Kind::from_letter(piece, false).filter(|k| *k != Kind::King)?,
                Square::from_coord(to)?,
            ),
            MoveText::Pass => Move::PASS,
            _ => return None,
        };
        let mut moves = Self::MoveList::default();
        self.generate(&mut moves);
        moves.contains(&mv).then_some(mv)
    }

    /// The squares a drop flips, level by level.
    fn hint(&self, mv: Move) -> MoveHint {
        let flips = self.flips(mv);
        let level = |&bits: &Bitboard| board::squares(bits).map(Square::coord).collect();
        // The pieces flipped, chain level by chain level.
        MoveHint {
            paths: Vec::new(),
            levels: flips.levels[..flips.depth()].iter().map(level).collect(),
        }
    }
}

impl Searchable for Negaeri {
    /// The start and a few middlegames.
    const BENCH: Bench = Bench {
        depth: 5,
        positions: &[
            "startpos",
            "2bkr1/2ppp1/6/Rpp3/1PPP2/1RKB2[Rbp] w 0 1",
            "+r+PbP2/2bkr1/B1pP1R/p1PB+PP/pP1P2/1RK3[pp] b 0 14",
            "R1Pkr1/2pp2/2+pp1B/6/pPbPpr/PRKBp+p[BP] w 0 11",
            "2bkr+R/3pp+B/5+P/+RPp1BP/+PPPPPP/1RKB2[p] b 0 8",
        ],
    };
    /// `Move::key`: the from square (or dropped kind, or pass) times 64,
    /// plus the destination.
    const MOVE_KEYS: usize = packed_move::KEYS;
    /// `Move::cont_key`: piece kind (7) or dropped kind (3) by
    /// destination, then the pass.
    const CONT_KEYS: usize = packed_move::CONT_KEYS;
    const CHECKS: bool = true;

    /// A pass for null-move pruning, only for a side holding a piece in
    /// hand and with no pass just played: such a side can always drop, and
    /// a drop adds a piece and may flip more, which is rarely worse than
    /// passing; without a piece in hand a side may be short of good board
    /// moves (zugzwang). Not a rules pass: it does not count towards the
    /// two passes that end the game. (A search test checks that no short
    /// win or loss is missed where this pass is offered.)
    fn play_null(&self) -> Option<Self> {
        if self.passes != 0 || self.hands[self.side.index()].iter().all(|&n| n == 0) {
            return None;
        }
        Some(Negaeri {
            side: self.side.opponent(),
            hash: self.hash ^ ZOBRIST_SIDE,
            ..self.clone()
        })
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    fn generate_tactical<S: MoveSink<Move>>(&self, out: &mut S) {
        movegen::tactical(self, out);
    }

    /// Drops flip exactly on `flip::level1_drops`'s squares, found for the
    /// whole board once instead of once per drop.
    fn mark_tactical(&self, moves: &[Move], out: &mut Vec<bool>) {
        let us = self.side;
        let (ours, theirs) = (self.colors[us.index()], self.colors[us.opponent().index()]);
        let drops = flip::level1_drops(ours, theirs, self.king(us.opponent()), self.rules.edge);
        out.extend(moves.iter().map(|&m| match m.action() {
            Action::Step { to, .. } => theirs & to.bit() != 0,
            Action::Drop { to, .. } => drops & to.bit() != 0,
            Action::Pass => false,
        }));
    }

    fn is_tactical(&self, mv: Move) -> bool {
        let us = self.side;
        match mv.action() {
            Action::Step { to, .. } => self.colors[us.opponent().index()] & to.bit() != 0,
            Action::Drop { to, .. } => flip::flips_any(
                to.index(),
                self.colors[us.index()],
                self.colors[us.opponent().index()],
                self.king(us.opponent()),
                self.rules.edge,
            ),
            Action::Pass => false,
        }
    }

    fn in_check(&self) -> bool {
        let us = self.side;
        let them = us.opponent();
        let king = self.king(us);
        if king == 0 {
            return false;
        }
        let k = king.trailing_zeros() as usize;
        board::attacked(k, us, self.occupied(), |kind| self.pieces_of(them, kind))
    }

    /// Board moves and drops that do not flip are worked out on the
    /// bitboards; a flipping drop (its flipped pieces may attack too) and
    /// the pass are played.
    fn gives_check(&self, mv: Move) -> bool {
        let us = self.side.index();
        let them = self.side.opponent();
        let their_king = self.king(them);
        if their_king == 0 {
            return false;
        }
        let ek = their_king.trailing_zeros() as usize;
        match mv.action() {
            Action::Step {
                kind: moved,
                from,
                to,
            } => {
                if to.bit() == their_king {
                    return false;
                }
                let ours = self.colors[us] ^ from.bit() ^ to.bit();
                let occ = ours | (self.colors[them.index()] & !to.bit());
                board::attacked(ek, them, occ, |k| {
                    // What stood on `to` (taken) is not ours.
                    let mine = self.kinds[k.index()] & ours & !to.bit();
                    if k == moved { mine | to.bit() } else { mine }
                })
            }
            // The dropped piece, or an attack already standing (a drop
            // opens no line).
            Action::Drop { kind, to } if !self.is_tactical(mv) => {
                let occ = self.occupied() | to.bit();
                board::attacked(ek, them, occ, |k| {
                    let mine = self.kinds[k.index()] & self.colors[us];
                    if k == kind { mine | to.bit() } else { mine }
                })
            }
            _ => self.play(mv).in_check(),
        }
    }

    fn cont_key(&self, mv: Move) -> usize {
        mv.cont_key()
    }

    fn move_key(&self, mv: Move) -> usize {
        mv.key()
    }
}
