//! The `EvalFile` option: a weights file for the current game, read and
//! checked whole before anything changes, then put in force for that game
//! (the process has one evaluation per game). An empty value puts the
//! built-in weights back. The registry's entry of a game points here.

use crate::core::FileFault;
use crate::eval::{Evaluation, TooManyWeights};
use std::path::Path;

/// Puts checked weights in force; fails only past the number of distinct
/// weight sets one process keeps.
pub type Install = Box<dyn FnOnce() -> Result<(), TooManyWeights> + Send>;

/// Reads and checks the weights file `path` of `G` (empty: the built-in
/// weights); the error says what is wrong with the file.
pub fn prepare<G: Evaluation>(path: &str) -> Result<Install, FileFault> {
    if path.is_empty() {
        return Ok(Box::new(|| {
            G::reset_weights();
            Ok(())
        }));
    }
    let w = G::read_weights(Path::new(path))?;
    Ok(Box::new(move || G::put_weights(w)))
}
