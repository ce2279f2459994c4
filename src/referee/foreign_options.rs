//! fastchess's and cutechess-cli's options, and what Koma does with each:
//! `OPTIONS` is the one list of them (`fastchess` rewrites a line by it,
//! `dialect` tells the tools apart by it); docs/referee.md shows it as a
//! table (a test keeps the two equal).

/// What Koma does with one of their options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spelling {
    /// The same option under Koma's long name; its values are read as
    /// they come.
    Koma(&'static str),
    /// `-repeat [N]`: `--games N` (fastchess), `--opening-repeat N`
    /// (cutechess-cli); 2 when no number follows.
    Repeat,
    /// Nothing to do: Koma always behaves so. Its values (`key=value` words,
    /// or `takes` plain words) are dropped.
    Always { takes: usize, why: &'static str },
    /// Cannot be honoured.
    Refused(&'static str),
    /// fastchess's `-quick cmd=A cmd=B book=FILE`: its preset match.
    Quick,
}

/// One option of fastchess or cutechess-cli (`-name`; fastchess also reads
/// `--name`), and where it comes from.
#[derive(Clone, Copy, Debug)]
pub struct Foreign {
    pub name: &'static str,
    /// `fastchess`, `cutechess-cli`, or both.
    pub from: &'static str,
    pub spelling: Spelling,
}

pub(crate) const BOTH: &str = "both";
pub(crate) const FC: &str = "fastchess";
pub(crate) const CC: &str = "cutechess-cli";

const NO_FIFTY: &str = "Koma's games have no fifty-move rule for the tables to ignore";
const SWAP: &str = "Koma always plays each opening twice with colours swapped: the pentanomial \
                    statistics and the SPRT rest on those pairs";

use Spelling::{Always, Koma, Quick, Refused, Repeat};

/// Every option of theirs Koma knows about, in fastchess's manual order
/// (cutechess-cli's own after).
#[rustfmt::skip]
pub const OPTIONS: &[Foreign] = &[
    f("version", BOTH, Koma("version")),
    f("help", BOTH, Koma("help")),
    f("quick", FC, Quick),
    f("concurrency", BOTH, Koma("concurrency")),
    f("force-concurrency", FC, Always { takes: 0, why: "Koma never caps -concurrency at the number of cores" }),
    f("rounds", BOTH, Koma("rounds")),
    f("games", BOTH, Koma("games")),
    f("repeat", BOTH, Repeat),
    f("sprt", BOTH, Koma("sprt")),
    f("tournament", BOTH, Koma("tournament")),
    f("seeds", BOTH, Koma("seeds")),
    f("variant", BOTH, Koma("variant")),
    f("noswap", BOTH, Refused(SWAP)),
    f("reverse", FC, Refused(SWAP)),
    f("wait", BOTH, Koma("wait")),
    f("each", BOTH, Koma("each")),
    f("engine", BOTH, Koma("engine")),
    f("draw", BOTH, Koma("draw")),
    f("resign", BOTH, Koma("resign")),
    f("maxmoves", BOTH, Koma("max-moves")),
    f("tb", BOTH, Koma("tb")),
    f("tbpieces", BOTH, Koma("tb-pieces")),
    f("tbignore50", BOTH, Refused(NO_FIFTY)),
    f("tbadjudicate", FC, Koma("tb-adjudicate")),
    f("openings", BOTH, Koma("openings")),
    f("srand", BOTH, Koma("seed")),
    f("output", FC, Koma("output")),
    f("pgnout", BOTH, Koma("pgnout")),
    f("epdout", BOTH, Koma("epdout")),
    f("event", BOTH, Koma("event")),
    f("site", BOTH, Koma("site")),
    f("ratinginterval", BOTH, Koma("rating-interval")),
    f("scoreinterval", FC, Koma("score-interval")),
    f("report", FC, Always { takes: 0, why: "Koma always reports the pentanomial pairs (penta=false is refused)" }),
    f("config", FC, Koma("config")),
    f("recover", BOTH, Koma("recover")),
    f("autosaveinterval", FC, Always { takes: 1, why: "Koma's state file is written after every game" }),
    f("compliance", FC, Koma("compliance")),
    f("crc32", FC, Always { takes: 1, why: "no checksum of the record file is printed: --replay checks every record instead" }),
    f("check-mate-pvs", FC, Always { takes: 0, why: "PVs are not checked; every played move is" }),
    f("show-latency", FC, Always { takes: 0, why: "latency is not measured apart from the move time" }),
    f("testEnv", FC, Always { takes: 0, why: "Koma's lines are the same in OpenBench and Fishtest" }),
    f("strict", FC, Koma("strict")),
    f("log", FC, Koma("log")),
    f("use-affinity", FC, Koma("use-affinity")),
    f("startup-ms", FC, Koma("start-timeout")),
    f("ucinewgame-ms", FC, Always { takes: 1, why: "Koma's --start-timeout (-startup-ms) covers every isready outside a search, the one after ucinewgame included" }),
    f("ping-ms", FC, Koma("stall-timeout")),
    f("debug", CC, Always { takes: 0, why: "the engines' traffic goes to -log FILE, the referee's own debug lines to stderr with RUST_LOG=debug" }),
    f("bookmode", CC, Refused("engines' own opening books are not played; use -openings")),
    f("livepgnout", CC, Refused("records are written when a game ends; --report --follow reads them as they come",)),
    f("outcomeinterval", CC, Refused("its per-game outcome lists are not printed: -output format=cutechess prints the Score line every -scoreinterval games")),
    f("resultformat", CC, Refused("Koma prints fastchess's summary, or cutechess-cli's with -output format=cutechess (-output format=json for a machine)")),
    f("engines", CC, Refused("there is no engines.json: give each engine's cmd= and keys with -engine")),
];

const fn f(name: &'static str, from: &'static str, spelling: Spelling) -> Foreign {
    Foreign {
        name,
        from,
        spelling,
    }
}

/// `--help`'s table of their options: each with whose it is and what Koma
/// makes of it (the reason where it is refused), the rows of
/// docs/referee.md's table.
pub fn help_table() -> String {
    let mut s = String::new();
    for o in OPTIONS {
        let koma = match o.spelling {
            Koma(long) => format!("--{long}"),
            Repeat => "--games N (fastchess), --opening-repeat N (cutechess-cli)".into(),
            Always { why, .. } => format!("accepted: {why}"),
            Refused(why) => format!("refused: {why}"),
            Quick => "fastchess's preset match (docs/referee.md)".into(),
        };
        s += &format!("  -{:<18} {:<14} {koma}\n", o.name, o.from);
    }
    s
}

/// The foreign option named `name` (without dashes).
pub fn foreign(name: &str) -> Option<&'static Foreign> {
    OPTIONS.iter().find(|o| o.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--help` lists every option of `OPTIONS` with what Koma makes of it.
    #[test]
    fn the_help_lists_every_option_as_the_docs_do() {
        let help = help_table();
        for o in OPTIONS {
            let line = help
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("-{} ", o.name)))
                .unwrap_or_else(|| panic!("-{} missing from --help", o.name));
            assert!(line.contains(o.from), "{line}");
            match o.spelling {
                Koma(long) => assert!(line.contains(&format!("--{long}")), "{line}"),
                Refused(why) => assert!(line.contains(why), "{line}"),
                Always { why, .. } => assert!(line.contains(why), "{line}"),
                Repeat | Quick => {}
            }
        }
    }

    /// docs/referee.md's table lists every option of `OPTIONS`, no other,
    /// with what Koma makes of it.
    #[test]
    fn the_docs_table_is_this_list() {
        let page = include_str!("../../docs/referee.md");
        let rows: Vec<Vec<&str>> = page
            .lines()
            .filter(|l| l.starts_with("| `-"))
            .map(|l| l.trim_matches('|').split(" | ").map(str::trim).collect())
            .take_while(|cells: &Vec<&str>| cells.len() == 4)
            .collect();
        assert_eq!(rows.len(), OPTIONS.len());
        for (row, o) in rows.iter().zip(OPTIONS) {
            assert_eq!(row[0], format!("`-{}`", o.name));
            let from = match o.from {
                BOTH => "both",
                other => other,
            };
            assert_eq!(row[1], from, "{}", o.name);
            let koma = match o.spelling {
                Koma(long) => format!("`--{long}`"),
                Repeat => "`--games N`".into(),
                Quick => "preset".into(),
                Always { .. } => "always".into(),
                Refused(_) => "refused".into(),
            };
            assert_eq!(row[2], koma, "{}", o.name);
        }
    }
}
