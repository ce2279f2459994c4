//! Whose counting a command line uses. fastchess and cutechess-cli read
//! `-rounds`, `-games` and `-repeat` differently (cutechess-cli's
//! `-rounds 10` is 10 games, fastchess's 20), so the line is read as the
//! tool it was written for: `--dialect`, else the program's name, else the
//! options only one of the tools has; a single-dash line (or single-dash
//! counts) with none of those is fastchess's, a line of Koma's `--long`
//! options Koma's.

use super::foreign_options::{self, CC, FC};
use super::usage::Usage;

/// The tool whose schedule and defaults a command line gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Koma's own: `--games` (2) per encounter per round, `--rounds` (1).
    Koma,
    /// fastchess's: `-games` (2) per encounter per round, `-rounds` (2),
    /// `-repeat` is `-games 2`.
    Fastchess,
    /// cutechess-cli's: `-games` (1) per encounter, times `-rounds` (1);
    /// `-repeat [N]` plays each opening N (2) times, colours alternating.
    Cutechess,
}

impl Dialect {
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Koma => "koma",
            Dialect::Fastchess => "fastchess",
            Dialect::Cutechess => "cutechess-cli",
        }
    }

    fn named(name: &str) -> Option<Dialect> {
        match name {
            "koma" => Some(Dialect::Koma),
            "fastchess" => Some(Dialect::Fastchess),
            "cutechess" | "cutechess-cli" => Some(Dialect::Cutechess),
            _ => None,
        }
    }

    /// `(games, rounds)` when the line does not give them.
    pub fn defaults(self) -> (u32, u32) {
        match self {
            Dialect::Koma => (2, 1),
            Dialect::Fastchess => (2, 2),
            Dialect::Cutechess => (1, 1),
        }
    }
}

/// The dialect of a command line (program name first) and why, in words
/// for the schedule line.
pub fn detect(words: &[String]) -> Result<(Dialect, String), Usage> {
    let mut explicit = None;
    for (k, w) in words.iter().enumerate().skip(1) {
        if !w.starts_with('-') {
            continue;
        }
        let value = match w.trim_start_matches('-').split_once('=') {
            Some(("dialect", v)) => Some(v.to_string()),
            _ if w.trim_start_matches('-') == "dialect" => words.get(k + 1).cloned(),
            _ => continue,
        };
        let v = value.unwrap_or_default();
        explicit = Some(Dialect::named(&v).ok_or_else(|| {
            Usage::new(format!(
                "--dialect {v}: expected koma, fastchess or cutechess"
            ))
        })?);
    }
    if let Some(d) = explicit {
        return Ok((d, "--dialect".into()));
    }
    let program = words
        .first()
        .map(|p| {
            std::path::Path::new(p)
                .file_name()
                .map_or(p.clone(), |f| f.to_string_lossy().into_owned())
        })
        .unwrap_or_default();
    for (prefix, d) in [
        ("cutechess", Dialect::Cutechess),
        ("fastchess", Dialect::Fastchess),
    ] {
        if program.starts_with(prefix) {
            return Ok((d, format!("run as {program}")));
        }
    }
    let (fc, cc, counts) = evidence(words);
    // Koma's own `--long` options make a line Koma's, unless its counts
    // are typed single-dash.
    let single = !words
        .iter()
        .skip(1)
        .any(|w| w.starts_with("--") && w.len() > 2)
        && words.iter().skip(1).any(|w| w.starts_with('-'));
    match (fc, cc) {
        (Some(f), Some(c)) => Err(Usage::new(format!(
            "this line has an option only fastchess has ({f}) and one only cutechess-cli has \
             ({c}), and the two count -rounds, -games and -repeat differently: say whose \
             counting with --dialect fastchess or --dialect cutechess"
        ))),
        (Some(f), None) => Ok((Dialect::Fastchess, format!("{f} is fastchess's"))),
        (None, Some(c)) => Ok((Dialect::Cutechess, format!("{c} is cutechess-cli's"))),
        (None, None) if single => Ok((
            Dialect::Fastchess,
            "single-dash options; --dialect cutechess for cutechess-cli's".into(),
        )),
        (None, None) if counts => Ok((
            Dialect::Fastchess,
            "single-dash counts; --dialect cutechess for cutechess-cli's".into(),
        )),
        (None, None) => Ok((Dialect::Koma, "Koma's --long options".into())),
    }
}

/// The first option (or value) only fastchess has, the first only
/// cutechess-cli has, and whether a count (`-rounds`, `-games`, `-repeat`)
/// is typed single-dash.
fn evidence(words: &[String]) -> (Option<String>, Option<String>, bool) {
    let (mut fc, mut cc, mut counts) = (None, None, false);
    let mut current: Option<&str> = None;
    for w in words.iter().skip(1) {
        let is_option = w.starts_with('-')
            && w.trim_start_matches('-')
                .starts_with(|c: char| c.is_ascii_alphabetic());
        if is_option {
            let name = w.trim_start_matches('-');
            let name = name.split('=').next().unwrap_or(name);
            current = None;
            // Koma's own spelling is `--name`; theirs single-dash.
            if w.starts_with("--") {
                continue;
            }
            if let Some(f) = foreign_options::foreign(name) {
                current = Some(f.name);
                counts |= matches!(f.name, "rounds" | "games" | "repeat");
                match f.from {
                    FC => {
                        fc.get_or_insert_with(|| format!("-{name}"));
                    }
                    CC => {
                        cc.get_or_insert_with(|| format!("-{name}"));
                    }
                    _ => {}
                }
            }
            continue;
        }
        // Values only one of them reads.
        let said = match (current, w.split_once('=')) {
            (Some("tournament"), None) if w == "round-robin" => Some(false),
            (Some("pgnout" | "epdout"), None) => Some(false),
            (Some("openings"), Some(("policy", _))) => Some(false),
            (Some("sprt"), Some(("model", _))) => Some(true),
            (Some("pgnout"), Some(_)) => Some(true),
            (Some("engine" | "each"), Some(("arg" | "conf" | "initstr" | "stderr", _))) => {
                Some(false)
            }
            (Some("engine" | "each"), Some(("proto", "xboard"))) => Some(false),
            _ => None,
        };
        let spelled = format!("-{} {w}", current.unwrap_or_default());
        match said {
            Some(true) => {
                fc.get_or_insert(spelled);
            }
            Some(false) => {
                cc.get_or_insert(spelled);
            }
            None => {}
        }
    }
    (fc, cc, counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(line: &str) -> Result<Dialect, String> {
        let words: Vec<String> = line.split_whitespace().map(String::from).collect();
        detect(&words).map(|(d, _)| d).map_err(|u| u.0)
    }

    #[test]
    fn the_dialect_comes_from_the_switch_the_name_then_the_options() {
        assert_eq!(
            d("koma-referee --engine cmd=a --games 2"),
            Ok(Dialect::Koma)
        );
        assert_eq!(
            d("koma-referee -engine cmd=a -rounds 2"),
            Ok(Dialect::Fastchess)
        );
        assert_eq!(
            d("/usr/bin/cutechess-cli -engine cmd=a -rounds 2"),
            Ok(Dialect::Cutechess)
        );
        assert_eq!(d("fastchess -engine cmd=a -debug"), Ok(Dialect::Fastchess));
        assert_eq!(
            d("koma-referee -engine cmd=a -rounds 2 --dialect cutechess"),
            Ok(Dialect::Cutechess)
        );
        assert_eq!(d("r -engine cmd=a -dialect=koma"), Ok(Dialect::Koma));
        assert_eq!(
            d("r -engine cmd=a -tournament round-robin"),
            Ok(Dialect::Cutechess)
        );
        assert_eq!(
            d("r -engine cmd=a -pgnout g.pgn min"),
            Ok(Dialect::Cutechess)
        );
        assert_eq!(
            d("r -engine cmd=a arg=-x -rounds 3"),
            Ok(Dialect::Cutechess)
        );
        assert_eq!(
            d("r -engine cmd=a -pgnout file=g.pgn"),
            Ok(Dialect::Fastchess)
        );
        assert_eq!(
            d("r -engine cmd=a -outcomeinterval 5"),
            Ok(Dialect::Cutechess)
        );
        assert_eq!(
            d("r -engine cmd=a -config file=c.json"),
            Ok(Dialect::Fastchess)
        );
        let mixed = d("r -engine cmd=a -config file=c.json -pgnout g.pgn").unwrap_err();
        assert!(
            mixed.contains("--dialect fastchess or --dialect cutechess"),
            "{mixed}"
        );
        assert!(
            d("r -dialect xboard")
                .unwrap_err()
                .contains("expected koma")
        );
    }
}
