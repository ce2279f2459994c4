//! Hasami Shogi (`docs/rules/hasami.md`): 9x9, nine men a side sliding
//! like rooks, custodian captures by the moved man, with the table options
//! `HasamiWin`, `HasamiLines`, `HasamiCorners`, threefold repetition and the
//! 300-ply rule.

mod board;
mod capture;
mod entry;
pub mod eval;
mod movegen;
mod presentation;
mod rules;
#[cfg(test)]
mod tests;
mod text;

pub use board::Square;
pub use presentation::PRESENTATION;
pub use rules::{HasamiRules, WinRule};

use crate::core::{
    Bench, Color, End, EndReason, Game, MoveList, MoveSink, MoveText, Outcome, Searchable,
    StepText, Tuning,
};
use crate::games::{ShippedSuite, endings};
use board::{Bitboard, ZOBRIST_MEN, ZOBRIST_SIDE};

/// The opening suites shipped for this game (`tools/openings/make.sh` makes
/// them again).
pub const SUITES: &[ShippedSuite] = &[ShippedSuite {
    path: "suites/hasami.txt",
    text: include_str!("../../../suites/hasami.txt"),
}];

/// Men each side starts with; captures are counted from what is missing.
pub const MEN: u32 = 9;
/// After this many plies without a result the game is decided by captures.
pub const PLY_LIMIT: u32 = 300;

/// `HasamiWin all`: every enemy man captured.
pub const ALL_CAPTURED: EndReason = EndReason::Game("all enemy pieces captured");
/// `HasamiWin lead3`: a lead of three captures at the start of the own
/// turn.
pub const CAPTURE_LEAD: EndReason = EndReason::Game("capture lead");

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hasami {
    men: [Bitboard; 2],
    side: Color,
    /// Plies played since the start of the game (for the 300-ply rule).
    ply: u32,
    rules: HasamiRules,
    hash: u64,
}

impl Hasami {
    pub fn men(&self, c: Color) -> Bitboard {
        self.men[c.index()]
    }

    /// Men `c` has captured: the opponent's missing men.
    pub fn captured_by(&self, c: Color) -> u32 {
        MEN.saturating_sub(self.men[c.opponent().index()].count_ones())
    }

    pub fn ply(&self) -> u32 {
        self.ply
    }

    pub fn rules(&self) -> &HasamiRules {
        &self.rules
    }

    fn occupied(&self) -> Bitboard {
        self.men[0] | self.men[1]
    }

    fn compute_hash(men: &[Bitboard; 2], side: Color) -> u64 {
        let mut h = if side == Color::Second {
            ZOBRIST_SIDE
        } else {
            0
        };
        for c in Color::BOTH {
            for sq in board::squares(men[c.index()]) {
                h ^= ZOBRIST_MEN[c.index()][sq.index()];
            }
        }
        h
    }
}

impl Game for Hasami {
    type Move = Move;
    type Rules = HasamiRules;
    /// Nine men with at most 16 destinations each.
    type MoveList = MoveList<Move, 144>;
    const NAME: &'static str = "hasami";
    const FILES: u8 = board::FILES;
    const RANKS: u8 = board::RANKS;
    /// Rook moves, sandwiches, corners and the win counts know no left
    /// or right.
    const MIRROR: Option<crate::core::Mirror> = Some(crate::core::Mirror::Files);
    const ENDINGS: &'static [EndReason] = &[endings::CAPTURES, ALL_CAPTURED, CAPTURE_LEAD];

    fn start(rules: &HasamiRules) -> Self {
        let men = [board::RANK_1, board::RANK_9];
        Hasami {
            men,
            side: Color::First,
            ply: 0,
            rules: *rules,
            hash: Self::compute_hash(&men, Color::First),
        }
    }

    fn from_text(
        text: &crate::core::PositionText,
        rules: &HasamiRules,
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
        movegen::generate(self.men[self.side.index()], self.occupied(), out);
    }

    fn count_moves(&self) -> usize {
        movegen::count(self.men[self.side.index()], self.occupied())
    }

    /// A man with an empty square beside it can move.
    fn has_moves(&self) -> bool {
        board::orthogonal(self.men[self.side.index()]) & !self.occupied() & board::FULL != 0
    }

    fn play(&self, mv: Move) -> Self {
        let us = self.side.index();
        let them = 1 - us;
        let mut men = self.men;
        men[us] ^= mv.from.bit() | mv.to.bit();
        let mut hash = self.hash
            ^ ZOBRIST_SIDE
            ^ ZOBRIST_MEN[us][mv.from.index()]
            ^ ZOBRIST_MEN[us][mv.to.index()];
        let taken = capture::captured(&self.rules, men[us], men[them], mv.to);
        men[them] &= !taken;
        for sq in board::squares(taken) {
            hash ^= ZOBRIST_MEN[them][sq.index()];
        }
        Hasami {
            men,
            side: self.side.opponent(),
            ply: self.ply + 1,
            rules: self.rules,
            hash,
        }
    }

    fn terminal(&self) -> Option<End> {
        let mover = self.side.opponent();
        match self.rules.win {
            WinRule::Five => {
                for c in [mover, self.side] {
                    if self.captured_by(c) >= 5 {
                        return Some(End::win(c, endings::CAPTURES));
                    }
                }
                None
            }
            WinRule::All => {
                for c in [mover, self.side] {
                    if self.men[c.opponent().index()] == 0 {
                        return Some(End::win(c, ALL_CAPTURED));
                    }
                }
                None
            }
            WinRule::Lead3 => {
                let lead = self.captured_by(self.side) as i32 - self.captured_by(mover) as i32;
                (lead >= 3).then(|| End::win(self.side, CAPTURE_LEAD))
            }
        }
    }

    fn limit_end(&self) -> Option<End> {
        (self.ply >= PLY_LIMIT).then(|| {
            End::new(
                Outcome::by_count(
                    self.captured_by(Color::First),
                    self.captured_by(Color::Second),
                ),
                EndReason::MoveLimit,
            )
        })
    }

    /// Board and side to move only: the ply count is not part of the
    /// position for repetition.
    /// The third occurrence of a position (board and side to move) draws.
    fn repetition_limit(&self) -> Option<usize> {
        Some(3)
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn move_text(&self, mv: Move) -> MoveText {
        MoveText::Step(StepText {
            from: mv.from.coord(),
            to: mv.to.coord(),
            promote: false,
        })
    }

    fn find_move(&self, text: &MoveText) -> Option<Move> {
        let MoveText::Step(s) = text else { return None };
        if s.promote {
            return None;
        }
        let mv = Move {
            from: Square::from_coord(s.from)?,
            to: Square::from_coord(s.to)?,
        };
        let mut moves = Self::MoveList::default();
        self.generate(&mut moves);
        moves.contains(&mv).then_some(mv)
    }
}

impl Searchable for Hasami {
    /// The start and a few middlegames.
    const BENCH: Bench = Bench {
        depth: 8,
        positions: &[
            "startpos",
            "ppp1ppppp/9/3p5/9/9/4P4/9/9/PPPP1PPPP w 3",
            "p1pp1p1pp/1p7/4p4/6p2/2P6/9/3P1P3/1P7/P1P1P2PP b 6",
            "2p2pp1p/p8/3p5/1P5p1/4p4/2P3P2/5P3/P8/1P1P3PP w 12",
        ],
    };
    /// The origin, and where on its rank or file the man goes (`move_key`).
    const MOVE_KEYS: usize = board::SQUARES * 2 * board::FILES as usize;
    /// The destination: every man is alike.
    const CONT_KEYS: usize = board::SQUARES;
    const TUNING: Tuning = Tuning {
        contempt: 20,
        ..Tuning::DEFAULT
    };

    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    fn is_tactical(&self, mv: Move) -> bool {
        let us = self.side.index();
        let mine = self.men[us] ^ mv.from.bit() ^ mv.to.bit();
        capture::captured(&self.rules, mine, self.men[1 - us], mv.to) != 0
    }

    /// A move captures exactly when it lands on one of `capture::targets`,
    /// found for the whole board once instead of once per move.
    fn mark_tactical(&self, moves: &[Move], out: &mut Vec<bool>) {
        let us = self.side.index();
        let targets = capture::targets(&self.rules, self.men[us], self.men[1 - us]);
        out.extend(moves.iter().map(|m| targets & m.to.bit() != 0));
    }

    /// The capturing moves: those onto a square where arriving captures,
    /// found for the whole board at once.
    fn generate_tactical<S: MoveSink<Move>>(&self, out: &mut S) {
        let us = self.side.index();
        let targets = capture::targets(&self.rules, self.men[us], self.men[1 - us]);
        movegen::generate_onto(self.men[us], self.occupied(), targets, out);
    }

    /// Hasami has no zugzwang worth the name (a player is rarely hurt by
    /// having to move), so a pass is a sound lower bound for null-move
    /// pruning.
    fn play_null(&self) -> Option<Self> {
        Some(Hasami {
            side: self.side.opponent(),
            hash: self.hash ^ ZOBRIST_SIDE,
            ..self.clone()
        })
    }

    /// A man moves along its rank or its file, so the destination's file
    /// (along the rank) or rank (along the file) tells it apart: the
    /// history tables a search zeroes when it starts are an eighth of a
    /// key by origin and destination.
    fn move_key(&self, mv: Move) -> usize {
        let (from, to) = (mv.from.index(), mv.to.index());
        let files = board::FILES as usize;
        let along = if from / files == to / files {
            to % files
        } else {
            debug_assert_eq!(from % files, to % files, "a man moves along a line");
            files + to / files
        };
        from * 2 * files + along
    }

    fn cont_key(&self, mv: Move) -> usize {
        mv.to.index()
    }
}
