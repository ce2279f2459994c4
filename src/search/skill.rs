//! Strength levels, as the source sites offer them: easy reads 2 plies and
//! picks among good-enough moves at random, normal reads 4 with a smaller
//! margin, hard is the full search. The weaker levels score their best few
//! root moves exactly (MultiPV), then draw a move among those within their
//! margin of the best, so games vary.

use super::worker::Worker;
use super::{Score, SearchResult, Settings, is_mate};
use crate::core::Searchable;

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Skill {
    Easy,
    Normal,
    #[default]
    Hard,
}

impl Skill {
    pub const NAMES: &'static [&'static str] = &["easy", "normal", "hard"];

    pub fn from_name(s: &str) -> Option<Skill> {
        match s {
            "easy" => Some(Skill::Easy),
            "normal" => Some(Skill::Normal),
            "hard" => Some(Skill::Hard),
            _ => None,
        }
    }

    /// The deepest iteration this level reads.
    pub fn max_depth(self) -> Option<u32> {
        match self {
            Skill::Easy => Some(2),
            Skill::Normal => Some(4),
            Skill::Hard => None,
        }
    }

    /// How many root lines the level scores exactly to choose among.
    pub fn lines(self) -> Option<usize> {
        match self {
            Skill::Easy => Some(6),
            Skill::Normal => Some(4),
            Skill::Hard => None,
        }
    }

    /// How far below the best a move may score and still be chosen.
    fn margin(self) -> Score {
        match self {
            Skill::Easy => 150,
            Skill::Normal => 40,
            Skill::Hard => 0,
        }
    }
}

/// The full search's answer, or for a weaker level a random move among the
/// good-enough root moves (never a move that walks into a found loss when a
/// better one exists, and always a found win).
pub fn choose<G: Searchable>(
    best: SearchResult<G::Move>,
    main: &Worker<G>,
    settings: &Settings,
) -> SearchResult<G::Move> {
    if settings.skill == Skill::Hard || is_mate(best.score) {
        return best;
    }
    let scored: Vec<_> = main
        .root_moves
        .iter()
        .filter(|r| r.depth == best.depth && r.exact)
        .collect();
    let Some(top) = scored.iter().map(|r| r.score).max() else {
        return best;
    };
    let floor = top - settings.skill.margin();
    let candidates: Vec<_> = scored
        .iter()
        .filter(|r| r.score >= floor && !is_mate(-r.score))
        .collect();
    if candidates.is_empty() {
        return best;
    }
    // SplitMix64 of the seed: a fair enough draw for move choice.
    let (_, z) = crate::core::zobrist::splitmix(settings.seed);
    let pick = candidates[(z % candidates.len() as u64) as usize];
    SearchResult {
        best: Some(pick.mv),
        score: pick.score,
        depth: best.depth,
        nodes: best.nodes,
        pv: pick.line(),
    }
}
