//! A new game is its own folder under `src/games/` plus its line in the
//! registry (`src/games/mod.rs`): no other file of `src/`, nor of the
//! Python crate's `python/src/`, names a concrete game or a rule of one,
//! in code, strings or prose (doc comments count), so adding a game
//! changes nothing outside `src/games/` (docs/adding-a-game.md).
//!
//! A word names a game when one of its parts (words split at
//! non-alphanumerics, then at lower-to-upper case changes, compared without
//! case: `KaniNariEbi` is `kani`, `nari`, `ebi`) is one of `GAME_WORDS`:
//! - the games' names and types: `kaninariebi`, `kani` (`KaniNariEbi`,
//!   `Kani Nari Ebi`, `KaniRules`, the `Kani...` rule options), `hasami`,
//!   `nana`, `negaeri` (their `NAME`s, types and rule options alike);
//! - their own pieces and board features: `shrimp`, `crab`, `river`,
//!   `cube` (Nana's pieces), `sandwich` (the custodian capture of two of
//!   them).
//!
//! Left out on purpose, being words every layer uses for something else:
//! `king` (the check of `Game::in_check`, shared by several games), `flip`
//! (the board's orientation, a result tally seen from the other side),
//! `bond` (`MoveText::Bond`, the notation's generic two-movement turn of
//! `docs/rules/notation.md`), `drop`, `promote`, `capture`, `pass`.
//!
//! Not checked: test code (files named `tests.rs`, files of a `tests/`
//! folder, modules declared behind `#[cfg(test)]`, and a file's inline
//! `#[cfg(test)]` items, which come last in the file). Allowed exceptions,
//! each with its reason, are `EXCEPTIONS`.

mod source;
use source::test_module_paths;
use std::path::{Path, PathBuf};

const GAME_WORDS: [&str; 10] = [
    "kaninariebi",
    "kani",
    "hasami",
    "nana",
    "negaeri",
    "shrimp",
    "crab",
    "river",
    "cube",
    "sandwich",
];

/// Files outside `src/games/` allowed to name games, and why. None today:
/// the board's page draws and explains each game from what the game says
/// of itself (`core::Presentation`, served by `/api/games`).
const EXCEPTIONS: [(&str, &str); 0] = [];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The path of `path` below `dir`, with `/` between parts.
fn below(dir: &Path, path: &Path) -> String {
    let r = path.strip_prefix(dir).unwrap();
    r.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The file's lines before its inline test items, numbered from 1 (a
/// one-line `#[cfg(test)] mod x;` is skipped alone).
fn non_test_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((i, line)) = lines.next() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            if lines
                .peek()
                .is_some_and(|(_, l)| l.trim_end().ends_with(';'))
            {
                lines.next();
                continue;
            }
            break;
        }
        out.push((i + 1, line));
    }
    out
}

/// The parts of the words of `line`, lower case (see the module head).
fn word_parts(line: &str) -> Vec<String> {
    let mut parts = Vec::new();
    for word in line.split(|c: char| !c.is_ascii_alphanumeric()) {
        let mut part = String::new();
        let mut prev_lower = false;
        for c in word.chars() {
            if c.is_ascii_uppercase() && prev_lower && !part.is_empty() {
                parts.push(std::mem::take(&mut part));
            }
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            part.push(c.to_ascii_lowercase());
        }
        if !part.is_empty() {
            parts.push(part);
        }
    }
    parts
}

/// The game word `part` is, allowing an English plural (`Shrimps`).
fn game_word(part: &str) -> Option<&'static str> {
    GAME_WORDS
        .iter()
        .copied()
        .find(|w| part == *w || part.strip_suffix('s') == Some(w))
}

/// Every `file:line: word` outside `src/games/` and the test code, in
/// `src/` and in the Python crate's `python/src/` (which learns each game
/// from its registry entry).
fn mentions() -> Vec<(String, String)> {
    let mut out = mentions_under(&src(), "");
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join("python/src");
    out.extend(mentions_under(&python, "python/src/"));
    out
}

/// `mentions` of the files under `dir`, named by `prefix` and their path
/// below `dir`.
fn mentions_under(dir: &Path, prefix: &str) -> Vec<(String, String)> {
    let mut all = Vec::new();
    files(dir, &mut all);
    all.sort();
    let test_files = test_module_paths(&all);
    let mut out = Vec::new();
    for f in &all {
        let below = below(dir, f);
        let test_code = below.ends_with("/tests.rs")
            || below.split('/').any(|p| p == "tests")
            || test_files.iter().any(|t| f.starts_with(t));
        if (prefix.is_empty() && below.starts_with("games/")) || test_code {
            continue;
        }
        let r = format!("{prefix}{below}");
        let Ok(text) = std::fs::read_to_string(f) else {
            continue; // a binary file: names nothing
        };
        let lines = if r.ends_with(".rs") {
            non_test_lines(&text)
        } else {
            text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect()
        };
        for (n, line) in lines {
            for part in word_parts(line) {
                if let Some(w) = game_word(&part) {
                    out.push((r.clone(), format!("{r}:{n}: {w}: {}", line.trim())));
                }
            }
        }
    }
    out
}

#[test]
fn no_file_outside_the_games_names_a_game() {
    let allowed = |f: &str| EXCEPTIONS.iter().any(|(e, _)| *e == f);
    let found: Vec<String> = mentions()
        .into_iter()
        .filter(|(f, _)| !allowed(f))
        .map(|(_, m)| m)
        .collect();
    assert!(
        found.is_empty(),
        "these name a game outside src/games/ (say it generically, or move the \
         knowledge into the game's folder or the registry):\n{}",
        found.join("\n")
    );
}

/// The list stays honest: an exception still needs to be one.
#[test]
fn every_listed_file_still_names_a_game() {
    let found = mentions();
    for (f, why) in &EXCEPTIONS {
        assert!(
            found.iter().any(|(m, _)| m == f),
            "{f} ({why}) names no game any more: take it off the list"
        );
    }
}

#[test]
fn words_split_into_their_parts() {
    assert_eq!(word_parts("KaniNariEbi"), ["kani", "nari", "ebi"]);
    assert_eq!(word_parts("kaninariebi::Square"), ["kaninariebi", "square"]);
    assert_eq!(word_parts("\"HasamiWin\" NAME"), ["hasami", "win", "name"]);
    assert_eq!(word_parts("banana_split"), ["banana", "split"]);
    assert_eq!(game_word("shrimps"), Some("shrimp"));
    assert_eq!(game_word("banana"), None);
    assert_eq!(game_word("rivers"), Some("river"));
}
