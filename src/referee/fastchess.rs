//! fastchess and cutechess-cli spellings: their single-dash options turned
//! into Koma's `--long` ones before clap reads the line, and what Koma
//! cannot honour refused by name with the reason (the list of them is
//! `foreign_options::OPTIONS`).

use super::dialect::Dialect;
use super::foreign_options::Spelling::{Always, Koma, Quick, Refused, Repeat};
use super::foreign_options::{OPTIONS, foreign};
use super::usage::Usage;

/// Whether `w` is a word that names an option (`-x`, `--x`), not a value
/// such as a negative number or a lone `-`.
fn option_name(w: &str) -> Option<(usize, &str)> {
    let dashes = if w.starts_with("--") {
        2
    } else {
        usize::from(w.starts_with('-'))
    };
    let rest = &w[dashes..];
    let first = rest.chars().next()?;
    if dashes == 0 || !first.is_ascii_alphabetic() {
        return None;
    }
    Some((dashes, rest.split('=').next().unwrap_or(rest)))
}

/// The command line (program name first) with every fastchess or
/// cutechess-cli option in Koma's spelling. `koma_long` lists Koma's own
/// long names (`engine`, `max-plies`, …), `koma_short` its one-letter
/// flags; `warn` hears what was accepted but changes nothing.
pub fn translate(
    words: &[String],
    koma_long: &[String],
    koma_short: &[char],
    dialect: Dialect,
    warn: &mut dyn FnMut(String),
) -> Result<Vec<String>, Usage> {
    let mut out = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        i += 1;
        if out.is_empty() {
            out.push(w.clone());
            continue;
        }
        let Some((dashes, name)) = option_name(w) else {
            out.push(w.clone());
            continue;
        };
        let is_koma = koma_long.iter().any(|k| k == name);
        // Koma's own `--name`, and its one-letter flags, are clap's.
        if (dashes == 2 && is_koma)
            || (dashes == 1
                && name.len() == 1
                && koma_short.contains(&name.chars().next().unwrap_or(' ')))
        {
            out.push(w.clone());
            continue;
        }
        let values_from = i;
        let plain_values = |from: usize| {
            words[from..]
                .iter()
                .take_while(|v| option_name(v).is_none())
                .count()
        };
        match foreign(name).map(|f| f.spelling) {
            // `-report penta=…` is fastchess's; `-report FILE…` Koma's.
            Some(Always { .. }) if name == "report" => {
                let n = plain_values(values_from);
                let vals = &words[values_from..values_from + n];
                if vals.iter().all(|v| v.starts_with("penta=")) && n > 0 {
                    if vals.iter().any(|v| v != "penta=true") {
                        return Err(Usage::new(
                            "-report penta=false: Koma always reports the pentanomial pairs"
                                .to_string(),
                        ));
                    }
                    i += n;
                } else {
                    out.push("--report".into());
                }
            }
            Some(Koma(long)) => {
                let tail = w.find('=').map(|k| &w[k..]).unwrap_or("");
                out.push(format!("--{long}{tail}"));
            }
            Some(Repeat) => {
                let n = words
                    .get(i)
                    .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()));
                // fastchess: the games of a round; cutechess-cli: the
                // games on one opening.
                out.push(match dialect {
                    Dialect::Cutechess => "--opening-repeat".into(),
                    _ => "--games".into(),
                });
                match n {
                    Some(n) => {
                        out.push(n.clone());
                        i += 1;
                    }
                    None => out.push("2".into()),
                }
            }
            Some(Always { takes, why }) => {
                let n = plain_values(values_from);
                i += n.min(takes);
                warn(format!("{w}: nothing to do, {why}"));
            }
            Some(Refused(why)) => {
                return Err(Usage::new(format!("{w} is not supported: {why}")));
            }
            Some(Quick) => {
                let n = plain_values(values_from);
                out.extend(quick(&words[values_from..values_from + n])?);
                i += n;
            }
            None if is_koma => out.push(format!("--{name}{}", &w[1 + name.len()..])),
            None if dashes == 2 => out.push(w.clone()),
            None => return Err(Usage::new(unknown(w, name, koma_long))),
        }
    }
    Ok(out)
}

/// `-quick cmd=A cmd=B book=FILE` as fastchess's `parseQuick` sets it up:
/// `tc=10+0.1` each, 25000 rounds of 2 games, the book in random order,
/// `-recover`, draw adjudication from move 30 (8 moves within 8 cp), the
/// cores less two for concurrency, and cutechess-cli's output.
fn quick(values: &[String]) -> Result<Vec<String>, Usage> {
    let mut cmds = Vec::new();
    let mut book = None;
    for v in values {
        match v.split_once('=') {
            Some(("cmd", c)) => cmds.push(c.to_string()),
            Some(("book", b)) => book = Some(b.to_string()),
            _ => {
                return Err(Usage::new(format!(
                    "-quick: unknown key {v} (cmd=, cmd=, book=)"
                )));
            }
        }
    }
    let (Some(book), [a, b]) = (book, &cmds[..]) else {
        return Err(Usage::new("-quick needs exactly two cmd= and a book=FILE"));
    };
    let format = match book.rsplit_once('.') {
        Some((_, "pgn")) => "pgn",
        Some((_, "epd")) => "epd",
        _ => {
            return Err(Usage::new(
                "-quick book=FILE: the file's name ends in .epd or .pgn, which gives its format",
            ));
        }
    };
    let (na, nb) = if a == b {
        (format!("{a}1"), format!("{b}2"))
    } else {
        (a.clone(), b.clone())
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut out: Vec<String> = Vec::new();
    for (cmd, name) in [(a, na), (b, nb)] {
        out.extend([
            "--engine".into(),
            format!("cmd={cmd}"),
            format!("name={name}"),
            "tc=10+0.1".into(),
        ]);
    }
    out.extend(
        [
            "--openings",
            &format!("file={book}"),
            &format!("format={format}"),
            "order=random",
            "--games",
            "2",
            "--rounds",
            "25000",
            "--recover",
            "--draw",
            "movenumber=30",
            "movecount=8",
            "score=8",
            "--concurrency",
            &cores.saturating_sub(2).max(1).to_string(),
            "--output",
            "format=cutechess",
        ]
        .map(String::from),
    );
    Ok(out)
}

/// "unknown option -NAME", with the nearest known name when it is a likely
/// typo.
fn unknown(w: &str, name: &str, koma_long: &[String]) -> String {
    let mut best: Option<(usize, String)> = None;
    let candidates = OPTIONS
        .iter()
        .filter(|o| !matches!(o.spelling, Refused(_)))
        .map(|o| format!("-{}", o.name))
        .chain(koma_long.iter().map(|k| format!("--{k}")));
    for c in candidates {
        let d = edit_distance(name, c.trim_start_matches('-'));
        if best.as_ref().is_none_or(|(b, _)| d < *b) {
            best = Some((d, c));
        }
    }
    let mut msg = format!("unknown option {w}");
    if let Some((d, c)) = best {
        let bare = c.trim_start_matches('-');
        if d <= 2 || (name.len() >= 3 && bare.starts_with(name)) {
            msg.push_str(&format!(" (did you mean {c}?)"));
        }
    }
    msg.push_str(
        "; Koma's options are --long (koma-referee --help), fastchess's and cutechess-cli's \
         single-dash ones are read too (docs/referee.md)",
    );
    msg
}

/// Levenshtein distance, in characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diag + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn koma() -> Vec<String> {
        [
            "engine",
            "each",
            "games",
            "rounds",
            "seed",
            "max-plies",
            "report",
            "variant",
        ]
        .map(String::from)
        .to_vec()
    }

    fn tr(line: &str) -> Result<String, String> {
        let words: Vec<String> = line.split_whitespace().map(String::from).collect();
        let mut warnings = Vec::new();
        translate(&words, &koma(), &['h', 'V'], Dialect::Fastchess, &mut |w| {
            warnings.push(w)
        })
        .map(|w| w.join(" "))
        .map_err(|u| u.0)
    }

    #[test]
    fn single_dash_names_become_koma_s() {
        assert_eq!(
            tr("r -engine cmd=a -each tc=1+0.1 -srand 5 -repeat -ratinginterval 3").unwrap(),
            "r --engine cmd=a --each tc=1+0.1 --seed 5 --games 2 --rating-interval 3"
        );
        assert!(
            tr("r -repeat 4 -maxplies")
                .unwrap_err()
                .contains("did you mean")
        );
        assert_eq!(
            tr("r -repeat 4 -max-plies 9").unwrap(),
            "r --games 4 --max-plies 9"
        );
        assert_eq!(tr("r --srand 5 --seed 6").unwrap(), "r --seed 5 --seed 6");
        assert_eq!(tr("r -report penta=true -games 2").unwrap(), "r --games 2");
        assert_eq!(
            tr("r -report a.pgn b.pgn").unwrap(),
            "r --report a.pgn b.pgn"
        );
        assert_eq!(tr("r -force-concurrency -h").unwrap(), "r -h");
        assert_eq!(
            tr("r -autosaveinterval 20 -games 2").unwrap(),
            "r --games 2"
        );
        assert_eq!(
            tr("r --sprt elo0=-2 elo1=3 -5").unwrap(),
            "r --sprt elo0=-2 elo1=3 -5"
        );
    }

    /// fastchess's `-quick`: its preset, engines named apart when their
    /// commands are the same.
    #[test]
    fn quick_is_fastchess_s_preset_match() {
        let line = tr("r -quick cmd=e cmd=e book=b.epd").unwrap();
        assert!(
            line.starts_with(
                "r --engine cmd=e name=e1 tc=10+0.1 --engine cmd=e name=e2 tc=10+0.1 \
                 --openings file=b.epd format=epd order=random --games 2 --rounds 25000 \
                 --recover --draw movenumber=30 movecount=8 score=8 --concurrency "
            ),
            "{line}"
        );
        assert!(line.ends_with(" --output format=cutechess"), "{line}");
        assert!(
            tr("r -quick cmd=a cmd=b book=b.bin")
                .unwrap_err()
                .contains(".epd or .pgn")
        );
    }

    #[test]
    fn what_cannot_be_honoured_is_refused_by_name() {
        for (line, want) in [
            (
                "r -tbignore50",
                "-tbignore50 is not supported: Koma's games have no fifty-move rule",
            ),
            ("r -noswap", "-noswap is not supported: Koma always plays"),
            ("r -report penta=false", "penta=false"),
            ("r -quick cmd=a book=b.epd", "two cmd="),
        ] {
            let e = tr(line).unwrap_err();
            assert!(e.contains(want), "{line}: {e}");
        }
    }

    #[test]
    fn an_unknown_option_gets_the_nearest_known_one() {
        let e = tr("r -concurency 2").unwrap_err();
        assert!(
            e.contains("unknown option -concurency (did you mean -concurrency?)"),
            "{e}"
        );
        let e = tr("r -ratingintervl 2").unwrap_err();
        assert!(e.contains("did you mean -ratinginterval?"), "{e}");
        let e = tr("r -zzzzzz").unwrap_err();
        assert!(!e.contains("did you mean"), "{e}");
        assert_eq!(tr("r --bogus").unwrap(), "r --bogus", "clap's to report");
    }
}
