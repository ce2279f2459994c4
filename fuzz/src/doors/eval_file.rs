//! The weights file (the `EvalFile` option), per game. Random bytes never
//! get past the magic and the checksum, so the input sets terms of the
//! built-in weights (any `i32`), writes them as the engine writes a file,
//! then edits bytes, cuts or extends the file, and may make the checksum
//! agree again.
//!
//! Properties: a file written from weights within the allowed range reads
//! back, one with a weight outside it is refused; a file changed after
//! writing is refused unless its checksum was made to agree; whatever
//! file is accepted, the evaluation of every position of a playout stays
//! within `EVAL_LIMIT` (no weights can make a position look like a mate).

use super::rules_of;
use arbitrary::{Arbitrary, Unstructured};
use koma::core::GameLine;
use koma::core::crc32::crc32;
use koma::eval::{EVAL_LIMIT, Evaluation, MAX_WEIGHT};
use koma::games::{hasami::Hasami, kaninariebi::KaniNariEbi, nana::Nana, negaeri::Negaeri};

#[derive(Arbitrary, Debug)]
struct Input {
    game: u8,
    /// (term, weight): set before the file is written.
    terms: Vec<(u8, i32)>,
    /// Bytes to overwrite after writing (offset taken modulo the length).
    edits: Vec<(u16, u8)>,
    /// Cut or extend the file to this length.
    length: Option<u16>,
    fix_checksum: bool,
    /// The playout whose positions are evaluated, a move choice per ply.
    plies: Vec<u8>,
}

pub fn eval_file(data: &[u8]) {
    let Ok(input) = Input::arbitrary(&mut Unstructured::new(data)) else {
        return;
    };
    match input.game % 4 {
        0 => check::<KaniNariEbi>(&input),
        1 => check::<Hasami>(&input),
        2 => check::<Nana>(&input),
        _ => check::<Negaeri>(&input),
    }
}

fn check<G: Evaluation>(input: &Input) {
    let mut terms = G::hand_made().to_vec();
    for &(t, w) in &input.terms {
        let k = usize::from(t) % terms.len();
        terms[k] = w;
    }
    let written = G::terms_file(&terms);
    let in_range = terms.iter().all(|w| w.unsigned_abs() <= MAX_WEIGHT as u32);
    assert_eq!(
        G::parse_weights(&written).is_ok(),
        in_range,
        "{}: terms {terms:?}",
        G::NAME
    );
    let mut bytes = written.clone();
    for &(o, b) in &input.edits {
        let k = usize::from(o) % bytes.len();
        bytes[k] = b;
    }
    if let Some(n) = input.length {
        bytes.resize(usize::from(n), 0);
    }
    if input.fix_checksum && bytes.len() >= 48 {
        let crc = crc32(crc32(0, &bytes[..40]), &bytes[48..]);
        bytes[40..44].copy_from_slice(&crc.to_le_bytes());
    }
    let Ok(weights) = G::parse_weights(&bytes) else {
        return;
    };
    if !input.fix_checksum {
        // Bytes 44..48 are padding outside the checksum.
        let same = bytes.len() == written.len()
            && bytes[..44] == written[..44]
            && bytes[48..] == written[48..];
        assert!(same, "{}: a changed file was accepted", G::NAME);
    }
    let Some(rules) = rules_of::<G>(&[]) else {
        return;
    };
    let Ok(line) = GameLine::<G>::from_start(None, &rules) else {
        return;
    };
    let mut pos = line.current().clone();
    for &pick in input.plies.iter().take(200) {
        let e = pos.evaluate_with(&weights);
        assert!(e.abs() <= EVAL_LIMIT, "{}: evaluation {e}", G::NAME);
        if pos.terminal().is_some() {
            break;
        }
        let mut moves = G::MoveList::default();
        pos.generate(&mut moves);
        if moves.is_empty() {
            break;
        }
        pos = pos.play(moves[usize::from(pick) % moves.len()]);
    }
}
