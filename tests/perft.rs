//! The one perft driver: every figure of every `tests/data/<game>.perft`
//! file up to a node cap, so CI stays fast. File format: `#` comments naming
//! where each number came from; `id <name>` starts an entry (and resets rule
//! options); `rule <Option> <value>` sets a rule option; `position startpos`
//! or `position <position string>`; `perft <depth> <nodes>` lines.

use koma::core::{Game, RuleValues, Rules, perft, read_rule_values};
use koma::games::{GameId, GameVisitor};
use koma::protocol::parse_position;

/// Entries above this many nodes are left to release-mode runs.
const CAP: u64 = 20_000_000;

struct Driver(String);

impl GameVisitor for Driver {
    type Output = usize;
    fn visit<G: Game>(self) -> usize {
        let mut values = RuleValues::new();
        let mut rules = G::Rules::default();
        let mut pos: Option<G> = None;
        let mut checked = 0;
        for (n, line) in self.0.lines().map(str::trim).enumerate() {
            let at = format!("{} line {}", G::NAME, n + 1);
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "" | "#" => {}
                k if k.starts_with('#') => {}
                "id" => {
                    values.clear();
                    rules = G::Rules::default();
                    pos = None;
                }
                "rule" => {
                    let pair = rest.split_once(' ').expect(&at);
                    let given = read_rule_values(G::NAME, G::Rules::specs(), [pair]).expect(&at);
                    values.extend(given);
                    rules = G::Rules::from_values(&values).expect(&at);
                }
                "position" if rest == "startpos" => pos = Some(G::start(&rules)),
                "position" => {
                    let t = parse_position(rest).unwrap_or_else(|e| panic!("{at}: {e}"));
                    pos = Some(G::from_text(&t, &rules).unwrap_or_else(|e| panic!("{at}: {e}")));
                }
                "perft" => {
                    let (d, nodes) = rest.split_once(' ').expect(&at);
                    let (d, nodes): (u32, u64) = (d.parse().expect(&at), nodes.parse().expect(&at));
                    if nodes <= CAP {
                        let p = pos.as_ref().expect(&at);
                        assert_eq!(perft(p, d), nodes, "{at}: perft {d} of {}", p.to_text());
                        checked += 1;
                    }
                }
                _ => panic!("{at}: unknown line {line}"),
            }
        }
        checked
    }
}

#[test]
fn every_perft_figure_in_tests_data() {
    for &g in GameId::ALL {
        let path = format!("{}/tests/data/{g}.perft", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let checked = g.visit(Driver(text));
        assert!(checked >= 8, "{g}: only {checked} figures checked");
    }
}
