//! Nana Shogi solved: every position reachable from the start labelled
//! win, loss or draw with its distance to the end in plies.

pub mod index;
pub mod unmove;
#[cfg(test)]
mod tests;
