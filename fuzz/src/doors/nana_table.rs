//! The Nana table file (the `NanaTable` option): a 64-byte header and one
//! value byte per position. Random bytes never get past the magic and
//! the checksum, so the input is a list of edits to a valid table of a
//! small sub-game (solved once per process), with the counts and the
//! checksum optionally made to agree again; or edits to a header of the
//! real game.
//!
//! Properties: a file that loads writes back to the same bytes; probing
//! any position of a loaded table, and picking the best move by it, does
//! not panic, whatever the values; a header of the real game with no
//! entries after it is refused.

use arbitrary::{Arbitrary, Unstructured};
use koma::core::History;
use koma::core::tablebase::best_move;
use koma::games::nana::index::{Index, Material};
use koma::games::nana::solver::solve;
use koma::games::nana::tablebase::{Counts, HEADER, NanaTable, crc32};
use std::sync::OnceLock;

#[derive(Arbitrary, Debug)]
struct Input {
    /// The real game's header instead of a small table.
    real: bool,
    material: u8,
    /// Bytes to overwrite (offset taken modulo the length).
    edits: Vec<(u16, u8)>,
    /// Cut or extend the file to this length.
    length: Option<u16>,
    fix_counts: bool,
    fix_checksum: bool,
    /// Positions to probe, by index.
    probes: Vec<u16>,
}

const MATERIALS: [Material; 3] = [
    Material {
        orth: [0, 0],
        diag: [0, 0],
    },
    Material {
        orth: [1, 0],
        diag: [0, 0],
    },
    Material {
        orth: [1, 0],
        diag: [0, 1],
    },
];

/// A solved sub-game: its index and its table file.
fn solved(k: usize) -> (&'static Index, &'static [u8]) {
    static SOLVED: [OnceLock<(&'static Index, Vec<u8>)>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let (ix, bytes) = SOLVED[k].get_or_init(|| {
        let ix: &'static Index = Box::leak(Box::new(Index::new(MATERIALS[k])));
        let sol = solve(ix, &mut |_| {}).expect("a sub-game solves");
        (ix, NanaTable::new(ix, sol.values).to_bytes())
    });
    (ix, bytes)
}

pub fn nana_table(data: &[u8]) {
    let Ok(input) = Input::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    if input.real {
        real_header(&input);
        return;
    }
    let (ix, file) = solved(usize::from(input.material) % MATERIALS.len());
    let mut bytes = file.to_vec();
    edit(&mut bytes, &input);
    if bytes.len() >= HEADER {
        let (head, values) = bytes.split_at_mut(HEADER);
        if input.fix_counts {
            let c = Counts::of(values);
            for (k, n) in [c.reached, c.won, c.lost, c.drawn].iter().enumerate() {
                head[24 + 8 * k..32 + 8 * k].copy_from_slice(&n.to_le_bytes());
            }
            head[56..60].copy_from_slice(&c.longest.to_le_bytes());
        }
        if input.fix_checksum {
            let crc = crc32(crc32(0, &head[..60]), values);
            head[60..64].copy_from_slice(&crc.to_le_bytes());
        }
    }
    let Ok(table) = NanaTable::from_bytes(ix, &bytes) else {
        return;
    };
    assert!(
        table.to_bytes() == bytes,
        "a table that loads writes back otherwise"
    );
    for &p in &input.probes {
        let pos = ix.position(u32::from(p) % ix.len() as u32);
        let _ = table.value(&pos);
        let _ = best_move(&table, &pos, &History::starting_at(&pos));
    }
}

fn edit(bytes: &mut Vec<u8>, input: &Input) {
    if let Some(n) = input.length {
        bytes.resize(usize::from(n), 0);
    }
    let len = bytes.len();
    for &(at, b) in &input.edits {
        if len > 0 {
            bytes[usize::from(at) % len] = b;
        }
    }
}

/// The real game's header alone: whatever it says, without its entries
/// it is refused (and checking it allocates nothing).
fn real_header(input: &Input) {
    let ix = Index::get();
    let m = ix.material();
    let mut bytes = b"KOMANANA".to_vec();
    bytes.extend_from_slice(&1u32.to_le_bytes());
    bytes.extend_from_slice(&[m.orth[0], m.orth[1], m.diag[0], m.diag[1]]);
    bytes.extend_from_slice(&(ix.len() as u64).to_le_bytes());
    bytes.resize(HEADER, 0);
    edit(&mut bytes, input);
    assert!(NanaTable::from_bytes(ix, &bytes).is_err());
}
