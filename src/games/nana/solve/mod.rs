//! Nana Shogi solved: every position reachable from the start labelled
//! win, loss or draw with its distance to the end in plies.

pub mod enumerate;
pub mod index;
pub mod retro;
pub mod unmove;
#[cfg(test)]
mod tests;

use index::Index;
use std::time::Instant;

/// A solved game: the value byte of every class of the index (see
/// `retro`), which classes were reached and with which side to move.
pub struct Solution {
    pub values: Vec<u8>,
    pub reach: Vec<u8>,
    pub placement: u64,
    pub longest: u32,
}

/// Enumerates and labels the game of `ix`, logging progress lines.
pub fn solve(ix: &Index, log: &mut dyn FnMut(String)) -> Result<Solution, String> {
    let t0 = Instant::now();
    let r = enumerate::enumerate(ix, log);
    log(format!(
        "enumerated in {} sweeps, {} expansions, {:.1} s",
        r.sweeps,
        r.expansions,
        t0.elapsed().as_secs_f64()
    ));
    let s = retro::retro(ix, &r.reach, r.moves, log)?;
    log(format!("solved in {:.1} s", t0.elapsed().as_secs_f64()));
    Ok(Solution {
        values: s.values,
        reach: r.reach,
        placement: r.placement,
        longest: s.longest,
    })
}
