//! The learning environments' observation: planes of `ranks x files`
//! floats, channels first, the top rank first (as the diagram draws it),
//! seen from the first player's side whoever moves. Channels: one per
//! piece kind of each side (1 where it stands), one per letter in hand of
//! each side (the count), the side to move (1 when the first player is to
//! move), each counter of the position string (the move number, and any
//! other the game keeps), how often the position has occurred
//! (repetition), and in a game whose turns may take a movement and its
//! Bond the movement chosen as the first half of a turn still to complete
//! (its from square 1; its to square 1, or 2 when it promotes). The game's
//! entry (`games::Encoding`) lists its kinds, letters and counters.

use koma::core::{Color, PositionText, StepText};
use koma::games::GameEntry;

/// The channels of one game, from its entry's `Encoding`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlaneSpec {
    pub files: u8,
    pub ranks: u8,
    /// Piece kinds on the board: letter and whether promoted (`+`).
    pub kinds: &'static [(char, bool)],
    /// Letters in hand, in the order of the position string.
    pub hand: &'static [char],
    /// The counters after the side to move.
    pub counters: usize,
    /// The two planes of a pending movement (a turn of two actions).
    pub pending: bool,
}

impl PlaneSpec {
    /// The planes of the game of `entry`, as its encoding lists them.
    pub fn of(entry: &GameEntry) -> PlaneSpec {
        let e = entry.encoding;
        PlaneSpec {
            files: entry.files,
            ranks: entry.ranks,
            kinds: e.kinds,
            hand: e.hand,
            counters: e.counters,
            pending: e.bond,
        }
    }

    pub fn channels(&self) -> usize {
        2 * self.kinds.len()
            + 2 * self.hand.len()
            + 1
            + self.counters
            + 1
            + 2 * usize::from(self.pending)
    }

    /// `(channels, ranks, files)`.
    pub fn shape(&self) -> [usize; 3] {
        [self.channels(), self.ranks as usize, self.files as usize]
    }

    pub fn len(&self) -> usize {
        self.shape().iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Appends the planes of the position `t` (which has occurred `repeats`
/// times; `pending` the movement chosen first in a turn of two actions)
/// to `out`. A piece or counter the spec does not know is a bug of the
/// spec (the tests play every game to find one): it is left out.
pub fn write_planes(
    spec: &PlaneSpec,
    t: &PositionText,
    repeats: usize,
    pending: Option<StepText>,
    out: &mut Vec<f32>,
) {
    let area = spec.ranks as usize * spec.files as usize;
    let base = out.len();
    out.resize(base + spec.len(), 0.0);
    let planes = &mut out[base..];
    let mut fill = |channel: usize, v: f32| {
        planes[channel * area..(channel + 1) * area].fill(v);
    };
    let kinds = spec.kinds.len();
    let side_of = |c: Color| c.index();
    let hand_base = 2 * kinds;
    if let Some(hand) = &t.hand {
        for c in Color::BOTH {
            for (k, letter) in spec.hand.iter().enumerate() {
                let n = hand
                    .iter()
                    .filter(|p| p.color == c && p.letter == *letter)
                    .count();
                fill(hand_base + side_of(c) * spec.hand.len() + k, n as f32);
            }
        }
    }
    let side = hand_base + 2 * spec.hand.len();
    fill(side, if t.side == Color::First { 1.0 } else { 0.0 });
    for (i, &n) in t.counters.iter().take(spec.counters).enumerate() {
        fill(side + 1 + i, n as f32);
    }
    fill(side + 1 + spec.counters, repeats as f32);
    if let (true, Some(step)) = (spec.pending, pending) {
        // Rank 0 is the bottom rank; row 0 of a plane is the top one.
        let cell = |c: koma::core::Coord| {
            (spec.ranks as usize - 1 - c.rank as usize) * spec.files as usize + c.file as usize
        };
        let from = side + 2 + spec.counters;
        planes[from * area + cell(step.from)] = 1.0;
        planes[(from + 1) * area + cell(step.to)] = if step.promote { 2.0 } else { 1.0 };
    }
    for (row, rank) in t.ranks.iter().enumerate() {
        for (file, cell) in rank.iter().enumerate() {
            let Some(p) = cell else { continue };
            let Some(k) = spec
                .kinds
                .iter()
                .position(|&(l, promoted)| l == p.letter && promoted == p.promoted)
            else {
                continue;
            };
            let channel = side_of(p.color) * kinds + k;
            planes[channel * area + row * spec.files as usize + file] = 1.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::new_position;
    use crate::rng::Rng;
    use koma::games::GameId;
    use koma::protocol::parse_position;

    /// On random games of every game, the planes hold every piece on the
    /// board and in hand (the spec knows every letter) and every counter.
    #[test]
    fn planes_account_for_every_piece_and_counter() {
        for &game in GameId::ALL {
            let spec = PlaneSpec::of(game.entry());
            let mut rng = Rng::new(5);
            for _ in 0..10 {
                let mut pos = new_position(game, &[], None).unwrap();
                loop {
                    let t = parse_position(&pos.fen()).unwrap();
                    assert_eq!(t.counters.len(), spec.counters, "{game}");
                    let mut out = Vec::new();
                    pos.planes(None, &mut out);
                    assert_eq!(out.len(), spec.len());
                    let area = spec.ranks as usize * spec.files as usize;
                    let on_board: f32 = out[..2 * spec.kinds.len() * area].iter().sum();
                    let pieces = t.ranks.iter().flatten().flatten().count();
                    assert_eq!(on_board as usize, pieces, "{game} {}", pos.fen());
                    let in_hand: f32 = (0..2 * spec.hand.len())
                        .map(|k| out[(2 * spec.kinds.len() + k) * area])
                        .sum();
                    let hand = t.hand.as_ref().map_or(0, |h| h.len());
                    assert_eq!(in_hand as usize, hand, "{game} {}", pos.fen());
                    let moves = pos.legal_moves();
                    if moves.is_empty() || pos.plies() > 300 {
                        break;
                    }
                    pos.push(&moves[rng.below(moves.len())]).unwrap();
                }
            }
        }
    }
}
