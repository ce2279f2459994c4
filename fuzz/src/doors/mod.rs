//! One module per door. Each `pub fn` takes the raw fuzz input (bytes),
//! so that libFuzzer and the seed-corpus test feed them alike; where
//! random bytes would never get past the first token, the bytes are read
//! as structured input with `arbitrary`.

pub mod board;
pub mod engine;
pub mod eval_file;
pub mod nana_table;
pub mod openings;
pub mod positions;
pub mod records;
pub mod replies;

use arbitrary::Unstructured;
use koma::core::{Game, OptionKind, OptionSpec, OptionValue, Rules};
use koma::games::GameId;

/// Rule option values for `specs` drawn from `u`; each is the default
/// when `u` is exhausted or draws 0, so short inputs play default rules.
pub fn rule_values(
    u: &mut Unstructured,
    specs: &'static [OptionSpec],
) -> Vec<(&'static str, OptionValue)> {
    specs
        .iter()
        .filter_map(|s| {
            let k = usize::from(u.arbitrary::<u8>().unwrap_or(0));
            let v = match &s.kind {
                OptionKind::Check { default } => OptionValue::Check(*default ^ (k % 2 == 1)),
                OptionKind::Spin { default, min, max } => OptionValue::Spin(if k == 0 {
                    *default
                } else {
                    min + (k as i64 - 1) % (max - min + 1).clamp(1, 256)
                }),
                OptionKind::Combo { default, values } => OptionValue::Combo(if k == 0 {
                    default.to_string()
                } else {
                    values[(k - 1) % values.len()].to_string()
                }),
                OptionKind::Text { .. } | OptionKind::Button => return None,
            };
            Some((s.name, v))
        })
        .collect()
}

/// `G`'s rules with these option values, or `None` when the rules refuse
/// them together.
pub fn rules_of<G: Game>(values: &[(&str, OptionValue)]) -> Option<G::Rules> {
    let mut r = G::Rules::default();
    for (name, v) in values {
        r.set(name, v).ok()?;
    }
    Some(r)
}

/// The position strings of the perft test data of a game (also the
/// seeds of the position targets).
pub fn known_positions(game: GameId) -> Vec<&'static str> {
    let data = match game.name() {
        "kaninariebi" => include_str!("../../../tests/data/kaninariebi.perft"),
        "hasami" => include_str!("../../../tests/data/hasami.perft"),
        "nana" => include_str!("../../../tests/data/nana.perft"),
        "negaeri" => include_str!("../../../tests/data/negaeri.perft"),
        _ => "",
    };
    data.lines()
        .filter_map(|l| l.strip_prefix("position "))
        .filter(|p| *p != "startpos")
        .collect()
}

/// Splits the input at its first newline: a text head and the rest.
pub fn head_and_tail(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[]),
    }
}
