//! The documentation, replayed: every example of README.md, protocol.md,
//! the pages the README leads to and docs/rules/*.md runs against the binaries of this build and must print
//! what the page shows, so the docs cannot drift from the program. And no
//! tracked file points outside the repository.
//!
//! Code blocks are fenced, and the fence's info string says what a block is:
//! - ` ```session `: a conversation with `koma` (a fresh process per block):
//!   `> line` is sent, `< line` is an expected reply (`<` alone: an empty
//!   line). The replies to each sent line are compared with the `<` lines
//!   after it.
//! - ` ```console `: shell commands, `$ command` followed by its expected
//!   output (standard output, then standard error), run with `sh -c` from
//!   the repository root; `./target/release/` names the binaries this test
//!   build made. The command must succeed.
//! - ` ```text `: anything else (a listing, a record, output); never run.
//!
//! A `session` or `console` block that cannot run offline in seconds is
//! preceded by the line `<!-- not run: <why> -->`.
//!
//! Comparing: a line `< …` (or `…` in a console block) stands for any number
//! of lines; `…` inside a line for any text. Search output, which depends on
//! timing, is compared by its shape: an `info` line with a `pv` or `nodes`
//! must carry the same words with numbers where the page has numbers, and
//! `bestmove` must name a move. Everything else must be equal.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Longest wait for one reply or one command: generous, as the machine may
/// be busy; the examples themselves take seconds at most.
const LIMIT: Duration = Duration::from_secs(120);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bin_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_koma"))
        .parent()
        .expect("the binaries' directory")
        .to_path_buf()
}

// ------------------------------------------------------------ markdown

#[derive(Debug)]
struct Block {
    /// 1-based line of the opening fence.
    line: usize,
    kind: String,
    body: Vec<String>,
    /// The reason given in a `<!-- not run: … -->` line just before it.
    not_run: Option<String>,
}

const NOT_RUN: &str = "<!-- not run:";

/// The fenced blocks of a markdown page; the error names what the doc test
/// could not classify: an indented code block, a fence without an info
/// string, an unknown kind, or a `not run` comment not right before a block.
fn blocks(page: &str, text: &str) -> Result<Vec<Block>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = vec![];
    let mut i = 0;
    let mut not_run: Option<(usize, String)> = None;
    let mut previous_blank = true;
    while i < lines.len() {
        let line = lines[i];
        if let Some(rest) = line.trim().strip_prefix(NOT_RUN) {
            let reason = rest.trim_end_matches("-->").trim().to_string();
            if reason.is_empty() {
                return Err(format!("{page}:{}: say why it is not run", i + 1));
            }
            not_run = Some((i + 1, reason));
            i += 1;
            continue;
        }
        if let Some(info) = line.trim_start().strip_prefix("```") {
            let start = i + 1;
            let kind = info.split_whitespace().next().unwrap_or("").to_string();
            if !["session", "console", "text"].contains(&kind.as_str()) {
                return Err(format!(
                    "{page}:{start}: a code block needs the info string session, console or text, not {info:?}"
                ));
            }
            // A block inside a list item is indented like its fence.
            let indent = line.len() - line.trim_start().len();
            let mut body = vec![];
            i += 1;
            while i < lines.len() && !lines[i].trim_start().starts_with("```") {
                let l = lines[i];
                let cut = l.len() - l.trim_start().len();
                body.push(l[cut.min(indent)..].to_string());
                i += 1;
            }
            if i == lines.len() {
                return Err(format!("{page}:{start}: unclosed code block"));
            }
            let reason = match not_run.take() {
                Some((at, _)) if at + 1 != start => {
                    return Err(format!(
                        "{page}:{at}: `not run` must come right before its block"
                    ));
                }
                Some((at, _)) if kind == "text" => {
                    return Err(format!("{page}:{at}: a text block is never run anyway"));
                }
                Some((_, reason)) => Some(reason),
                None => None,
            };
            out.push(Block {
                line: start,
                kind,
                body,
                not_run: reason,
            });
            previous_blank = false;
            i += 1;
            continue;
        }
        if previous_blank && line.starts_with("    ") && !line.trim().is_empty() {
            return Err(format!(
                "{page}:{}: an indented code block; fence it with an info string (session, console or text)",
                i + 1
            ));
        }
        if let Some((at, _)) = &not_run {
            return Err(format!(
                "{page}:{at}: `not run` must come right before a code block"
            ));
        }
        previous_blank = line.trim().is_empty();
        i += 1;
    }
    Ok(out)
}

fn read_page(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

// ------------------------------------------------------------ comparing

/// Whether `actual` has the shape of the page's `expected` line.
fn line_matches(expected: &str, actual: &str) -> bool {
    if expected.contains('…') {
        return glob(expected, actual);
    }
    if is_search_info(expected) {
        return same_search_shape(expected, actual);
    }
    if expected.starts_with("bestmove ") && expected != "bestmove (none)" {
        // Which move depends on the search; its shape does not.
        let e: Vec<&str> = expected.split(' ').collect();
        let a: Vec<&str> = actual.split(' ').collect();
        return a.len() == e.len()
            && a[0] == "bestmove"
            && a.get(2) == e.get(2)
            && a[1] != "(none)";
    }
    expected == actual
}

/// `…` matches any text, the rest literally.
fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('…').collect();
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(k) => rest = &rest[k + part.len()..],
            None => return false,
        }
    }
    true
}

fn is_search_info(line: &str) -> bool {
    line.starts_with("info ")
        && !line.starts_with("info string")
        && (line.contains(" pv ") || line.contains(" nodes "))
}

fn is_number(t: &str) -> bool {
    t.strip_prefix('-').unwrap_or(t).parse::<u64>().is_ok()
}

/// The same words in the same order, numbers where the page has numbers,
/// and a principal variation of at least one move where the page has one.
fn same_search_shape(expected: &str, actual: &str) -> bool {
    let e: Vec<&str> = expected.split(' ').collect();
    let a: Vec<&str> = actual.split(' ').collect();
    let (e_pv, a_pv) = (
        e.iter().position(|&t| t == "pv").unwrap_or(e.len()),
        a.iter().position(|&t| t == "pv").unwrap_or(a.len()),
    );
    if e_pv != a_pv || (e_pv < e.len()) != (a.len() > a_pv + 1) {
        return false;
    }
    e[..e_pv]
        .iter()
        .zip(&a[..a_pv])
        .all(|(e, a)| if is_number(e) { is_number(a) } else { e == a })
}

/// Whether the lines match, `…` (alone on a line) standing for any number
/// of lines.
fn lines_match(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e == "…" => {
            (0..=actual.len()).any(|k| lines_match(rest, &actual[k..]))
        }
        Some((e, rest)) => match actual.split_first() {
            Some((a, more)) => line_matches(e, a) && lines_match(rest, more),
            None => false,
        },
    }
}

// ------------------------------------------------------------ sessions

/// `koma` behind pipes, its output lines on a channel.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn spawn() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_koma"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("koma starts");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
        }
    }

    fn send(&mut self, line: &str) {
        if let Some(stdin) = self.stdin.as_mut() {
            // A write after the engine quit fails; what it printed decides.
            let _ = writeln!(stdin, "{line}").and_then(|_| stdin.flush());
        }
    }

    /// Lines up to the first for which `done` holds (returned with it), or
    /// up to the end of output (`None` for `done`: read until the engine
    /// exits).
    fn read_until(
        &mut self,
        done: Option<&dyn Fn(&str) -> bool>,
    ) -> Result<Vec<String>, Vec<String>> {
        let end = Instant::now() + LIMIT;
        let mut out = vec![];
        loop {
            match self
                .lines
                .recv_timeout(end.saturating_duration_since(Instant::now()))
            {
                Ok(l) => {
                    let stop = done.is_some_and(|d| d(&l));
                    out.push(l);
                    if stop {
                        return Ok(out);
                    }
                }
                Err(RecvTimeoutError::Disconnected) if done.is_none() => return Ok(out),
                Err(_) => return Err(out),
            }
        }
    }

    /// Sends one line and collects the replies to it: up to what ends the
    /// command (`uciok`, `bestmove`, a perft's total, …), or, for a command
    /// that answers at once or not at all, up to the `readyok` of an
    /// `isready` sent after it (not part of the replies). A `go` the page
    /// stops with its next line (`stopped`) is not waited for.
    fn exchange(&mut self, line: &str, stopped: bool) -> Result<Vec<String>, Vec<String>> {
        self.send(line);
        let words: Vec<&str> = line.split_whitespace().collect();
        let ends: Option<fn(&str) -> bool> = match words.first().copied() {
            Some("uci") => Some(|l| l == "uciok"),
            Some("ugi") => Some(|l| l == "ugiok"),
            Some("isready") => Some(|l| l == "readyok"),
            Some("quit") => {
                self.stdin = None;
                return self.read_until(None);
            }
            Some("go" | "bench") if stopped => None,
            Some("bench") => Some(|l| l.starts_with("Nodes searched") || is_error(l)),
            Some("go") if words.contains(&"perft") => {
                Some(|l| l.starts_with("Nodes searched") || is_error(l))
            }
            Some("go") if !words.contains(&"infinite") && !words.contains(&"ponder") => {
                Some(|l| l.starts_with("bestmove") || is_error(l))
            }
            _ => None,
        };
        match ends {
            Some(done) => self.read_until(Some(&done)),
            None => {
                self.send("isready");
                let mut got = self.read_until(Some(&|l: &str| l == "readyok"))?;
                got.pop();
                Ok(got)
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn is_error(line: &str) -> bool {
    line.starts_with("info string error")
}

/// A session block as (sent line, expected replies) pairs.
fn session_steps(body: &[String]) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut steps: Vec<(String, Vec<String>)> = vec![];
    for line in body {
        if let Some(sent) = line.strip_prefix("> ") {
            steps.push((sent.to_string(), vec![]));
        } else if line == "<" || line.starts_with("< ") {
            let reply = line.get(2..).unwrap_or("").to_string();
            match steps.last_mut() {
                Some((_, replies)) => replies.push(reply),
                None => return Err(format!("a reply before any sent line: {line:?}")),
            }
        } else if !line.trim().is_empty() {
            return Err(format!("neither `> ` nor `< `: {line:?}"));
        }
    }
    Ok(steps)
}

/// Runs one conversation; the error shows where the engine differed.
fn run_session(body: &[String]) -> Result<(), String> {
    let steps = session_steps(body)?;
    let mut engine = Engine::spawn();
    for (i, (sent, expected)) in steps.iter().enumerate() {
        let stopped = steps.get(i + 1).is_some_and(|(next, _)| next == "stop");
        let got = engine.exchange(sent, stopped).map_err(|got| {
            format!(
                "> {sent}\nno answer within {LIMIT:?}; got:\n{}",
                got.join("\n")
            )
        })?;
        if !lines_match(expected, &got) {
            return Err(format!(
                "> {sent}\nthe page shows:\n{}\nthe engine says:\n{}",
                show(expected),
                show(&got)
            ));
        }
    }
    Ok(())
}

fn show(lines: &[String]) -> String {
    lines
        .iter()
        .map(|l| format!("< {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

// ------------------------------------------------------------ console

/// A console block as (command, expected output) pairs.
fn console_steps(body: &[String]) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut steps: Vec<(String, Vec<String>)> = vec![];
    for line in body {
        if let Some(cmd) = line.strip_prefix("$ ") {
            steps.push((cmd.to_string(), vec![]));
        } else {
            match steps.last_mut() {
                Some((_, out)) => out.push(line.clone()),
                None => return Err(format!("output before any `$ ` command: {line:?}")),
            }
        }
    }
    Ok(steps)
}

/// A path to the binaries without `./` would run whatever a developer's
/// tree holds (and nothing in a fresh clone), not the binaries under test.
/// Judged on the command as written: the binaries under test may
/// themselves live in a `target/release/` (`cargo test --release`).
fn names_binaries_without_dot(cmd: &str) -> bool {
    cmd.replace("./target/release/", "")
        .contains("target/release/")
}

#[test]
fn an_example_must_name_the_binaries_with_dot_slash() {
    assert!(!names_binaries_without_dot(
        "./target/release/koma perft --variant hasami 5"
    ));
    assert!(names_binaries_without_dot(
        "target/release/koma perft --variant hasami 5"
    ));
    assert!(names_binaries_without_dot(
        "./target/release/koma-referee --engine cmd=target/release/koma"
    ));
}

fn run_console(body: &[String]) -> Result<(), String> {
    let bins = format!("{}/", bin_dir().display());
    for (cmd, expected) in console_steps(body)? {
        let script = cmd.replace("./target/release/", &bins);
        if names_binaries_without_dot(&cmd) {
            return Err(format!("{cmd}: name the binaries as ./target/release/"));
        }
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(&script)
            .current_dir(root())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("$ {cmd}\ncannot start sh: {e}"))?;
        let readers = [
            spawn_reader(child.stdout.take().expect("stdout")),
            spawn_reader(child.stderr.take().expect("stderr")),
        ];
        let end = Instant::now() + LIMIT;
        let status = loop {
            if let Some(s) = child.try_wait().map_err(|e| e.to_string())? {
                break s;
            }
            if Instant::now() > end {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "$ {cmd}\ntook longer than {LIMIT:?}: shorten it or mark it not run"
                ));
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let mut got = vec![];
        for r in readers {
            got.extend(r.join().expect("reader").lines().map(str::to_string));
        }
        if !status.success() {
            return Err(format!("$ {cmd}\nfailed ({status}):\n{}", got.join("\n")));
        }
        if !lines_match(&expected, &got) {
            return Err(format!(
                "$ {cmd}\nthe page shows:\n{}\nthe command printed:\n{}",
                expected.join("\n"),
                got.join("\n")
            ));
        }
    }
    Ok(())
}

fn spawn_reader(mut r: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut s = String::new();
        let _ = r.read_to_string(&mut s);
        s
    })
}

// ------------------------------------------------------------ pages

/// Runs every block of a page that is not marked `not run`; panics with
/// every difference found.
fn replay(rel: &str) -> usize {
    let text = read_page(rel);
    let mut failures = vec![];
    let mut ran = 0;
    for b in blocks(rel, &text).unwrap_or_else(|e| panic!("{e}")) {
        if b.not_run.is_some() || b.kind == "text" {
            continue;
        }
        let result = match b.kind.as_str() {
            "session" => run_session(&b.body),
            _ => run_console(&b.body),
        };
        ran += 1;
        if let Err(e) = result {
            failures.push(format!("{rel}:{} ({}):\n{e}", b.line, b.kind));
        }
    }
    assert!(failures.is_empty(), "\n\n{}\n", failures.join("\n\n"));
    ran
}

fn rules_pages() -> Vec<String> {
    let mut pages: Vec<String> = std::fs::read_dir(root().join("docs/rules"))
        .expect("docs/rules")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/rules/{n}"))
        .collect();
    pages.sort();
    pages
}

#[test]
fn every_example_of_the_readme_runs() {
    assert!(replay("README.md") >= 1);
}

/// The pages the README leads to that are not replayed elsewhere (the
/// rules pages and protocol.md have tests of their own).
const LED_TO: [&str; 8] = [
    "docs/adding-a-game.md",
    "docs/board.md",
    "docs/cluster.md",
    "docs/engine.md",
    "docs/layout.md",
    "docs/nana-solved.md",
    "docs/openings.md",
    "docs/testing.md",
];

#[test]
fn every_example_of_the_pages_the_readme_leads_to_runs() {
    let ran: usize = LED_TO.iter().map(|page| replay(page)).sum();
    // docs/engine.md's perft and bench, docs/testing.md's log line.
    assert!(ran >= 2, "{ran}");
}

/// The README stays a front door: short, and every page it leads to is
/// linked from it.
#[test]
fn the_readme_is_short_and_leads_to_every_page() {
    let readme = read_page("README.md");
    let lines = readme.lines().count();
    assert!(lines <= 150, "README.md has {lines} lines");
    for page in LED_TO {
        assert!(
            readme.contains(&format!("]({page})")),
            "README.md does not link {page}"
        );
    }
}

#[test]
fn every_example_of_protocol_md_runs() {
    assert!(replay("protocol.md") >= 4);
}

/// The rows of a markdown table: the lines starting with `|` in the section
/// under `heading`, header and rule left out, split into trimmed cells.
fn table_rows(text: &str, heading: &str) -> Vec<Vec<String>> {
    let section = text
        .split("\n## ")
        .find(|s| s.starts_with(heading))
        .unwrap_or_else(|| panic!("no section {heading}"));
    section
        .lines()
        .filter(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// The first `code` span of a table cell.
fn code_span(cell: &str) -> Option<&str> {
    let start = cell.find('`')? + 1;
    let len = cell[start..].find('`')?;
    Some(&cell[start..start + len])
}

/// Each row of protocol.md's error table whose input can be typed is sent
/// to a fresh engine, which must answer with exactly the row's reply.
#[test]
fn every_row_of_the_error_table_is_what_the_engine_says() {
    let rows = table_rows(&read_page("protocol.md"), "Errors");
    let mut checked = 0;
    let mut failures = vec![];
    for row in &rows {
        let (Some(input), Some(reply)) =
            (code_span(&row[0]), row.get(1).and_then(|c| code_span(c)))
        else {
            continue;
        };
        let got = Engine::spawn()
            .exchange(input, false)
            .unwrap_or_else(|got| got);
        if got != [reply] {
            failures.push(format!(
                "> {input}\nthe table says:\n< {reply}\nthe engine says:\n{}",
                show(&got)
            ));
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} rows");
    assert!(failures.is_empty(), "\n\n{}\n", failures.join("\n\n"));
}

/// Every tag the referee writes in a record is in protocol.md's table of
/// record tags (rule options by the row that covers them all), and the
/// comments it writes after opening moves are documented.
#[test]
fn every_tag_the_referee_writes_is_documented() {
    let dir = std::env::temp_dir().join(format!("koma-docs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    // A start other than the standard one, for the SetUp and FEN tags.
    let book = dir.join("book.txt");
    std::fs::write(&book, "C3c/C3c/1C2c/C3c/C3c b 1\n").unwrap();
    let koma = env!("CARGO_BIN_EXE_koma");
    let out = Command::new(env!("CARGO_BIN_EXE_koma-referee"))
        .args(["--engine", &format!("cmd={koma}"), "name=a", "depth=1"])
        .args(["--engine", &format!("cmd={koma}"), "name=b", "depth=2"])
        .args(["--games", "2", "--random-plies", "2", "--max-plies", "40"])
        .arg("--openings")
        .arg(format!("file={}", book.display()))
        .arg("--pgnout")
        .arg(&pgn)
        .current_dir(&dir)
        .output()
        .expect("the referee runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let records = std::fs::read_to_string(&pgn).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let page = read_page("protocol.md");
    let documented: Vec<String> = table_rows(&page, "Game records")
        .iter()
        .flat_map(|row| {
            row[0]
                .split(", ")
                .map(|c| c.trim_matches('`').to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    let rule_options: Vec<&str> = koma::games::GameId::ALL
        .iter()
        .flat_map(|g| g.rule_specs().iter().map(|s| s.name))
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    for line in records.lines().filter(|l| l.starts_with('[')) {
        let name = line[1..].split(' ').next().unwrap_or("");
        seen.insert(name.to_string());
        assert!(
            documented.iter().any(|d| d == name) || rule_options.contains(&name),
            "the record tag {name} is not in protocol.md's table"
        );
    }
    for tag in [
        "FirstTimeControl",
        "SecondTimeControl",
        "SetUp",
        "FEN",
        "OpeningPlies",
    ] {
        assert!(
            seen.contains(tag),
            "this match should write {tag}: {seen:?}"
        );
    }
    assert!(records.contains("{book}"), "{records}");
    assert!(
        page.contains("`{book}`"),
        "protocol.md does not explain {{book}}"
    );
}

/// The principal line of Nana on docs/nana-solved.md is a game: played
/// through the engine from the start, every move is legal and the last
/// takes the King.
#[test]
fn the_nana_pages_principal_line_is_a_won_game() {
    let page = read_page("docs/nana-solved.md");
    let at = page.find("A principal line").expect("the principal line");
    let block = blocks("docs/nana-solved.md", &page[at..])
        .unwrap()
        .into_iter()
        .next()
        .expect("its block");
    let moves: Vec<&str> = block
        .body
        .iter()
        .flat_map(|l| l.split_whitespace())
        .filter(|t| !t.ends_with('.'))
        .collect();
    assert_eq!(moves.len(), 127, "127 plies");
    let mut engine = Engine::spawn();
    engine
        .exchange("setoption name UCI_Variant value nana", false)
        .unwrap();
    let refused = engine
        .exchange(
            &format!("position startpos moves {}", moves.join(" ")),
            false,
        )
        .unwrap();
    assert!(refused.is_empty(), "{refused:?}");
    let d = engine.exchange("d", false).unwrap();
    assert_eq!(
        d.last().map(String::as_str),
        Some("Game: over, 1-0 {first player wins by King captured}"),
        "{d:?}"
    );
}

#[test]
fn the_rules_pages_are_one_per_game_and_the_notation() {
    let mut want: Vec<String> = koma::games::GameId::ALL
        .iter()
        .map(|g| format!("docs/rules/{g}.md"))
        .collect();
    want.push("docs/rules/notation.md".into());
    want.sort();
    assert_eq!(rules_pages(), want);
}

#[test]
fn every_example_of_the_rules_pages_replays() {
    for page in rules_pages() {
        let ran = replay(&page);
        assert!(ran >= 2, "{page}: only {ran} examples");
    }
}

/// Every rule option of every game appears, with its default, in the
/// table of that game's page, and the table names no other.
#[test]
fn the_rules_pages_list_every_rule_option_with_its_default() {
    for &g in koma::games::GameId::ALL {
        let page = read_page(&format!("docs/rules/{g}.md"));
        for spec in g.rule_specs() {
            let row = format!("| `{}` | `{}` |", spec.name, spec.default_value());
            assert!(
                page.contains(&row),
                "docs/rules/{g}.md has no row starting {row}"
            );
        }
        if g.rule_specs().is_empty() {
            continue;
        }
        for row in table_rows(&page, "Rule options") {
            let name = code_span(&row[0]).unwrap_or("");
            assert!(
                g.rule_specs().iter().any(|s| s.name == name),
                "docs/rules/{g}.md documents {name:?}, which {g} does not have"
            );
        }
    }
}

// ------------------------------------------------------------ self-containment

/// A clone has nothing beside it: no tracked file may point to the
/// directory the sources of the rules were read from.
#[test]
fn no_tracked_file_points_outside_the_repository() {
    let needle = concat!("..", "/shared");
    let files = tracked_files();
    assert!(files.len() > 20, "found only {} files", files.len());
    let offenders: Vec<String> = files
        .iter()
        .filter(|f| {
            std::fs::read(root().join(f))
                .is_ok_and(|bytes| String::from_utf8_lossy(&bytes).contains(needle))
        })
        .cloned()
        .collect();
    assert!(
        offenders.is_empty(),
        "{needle} is mentioned in {offenders:?}"
    );
}

/// The files git tracks, or (outside a git checkout) every file but build
/// output and installed packages.
fn tracked_files() -> Vec<String> {
    if let Ok(out) = Command::new("git")
        .arg("ls-files")
        .current_dir(root())
        .output()
        && out.status.success()
    {
        return String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect();
    }
    let mut files = vec![];
    let mut stack = vec![PathBuf::new()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(root().join(&dir))
            .into_iter()
            .flatten()
            .flatten()
        {
            let rel = dir.join(entry.file_name());
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.path().is_dir() {
                if !["target", ".git", "node_modules"].contains(&name.as_str()) {
                    stack.push(rel);
                }
            } else {
                files.push(rel.to_string_lossy().into_owned());
            }
        }
    }
    files
}

// ------------------------------------------------------------ the comparer itself

#[test]
fn the_comparer_checks_what_it_should() {
    let l = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(lines_match(&l(&["a", "…", "z"]), &l(&["a", "b", "c", "z"])));
    assert!(lines_match(&l(&["…"]), &l(&[])));
    assert!(!lines_match(&l(&["a", "z"]), &l(&["a", "b", "z"])));
    assert!(!lines_match(
        &l(&["Nodes searched: 58"]),
        &l(&["Nodes searched: 70"])
    ));
    assert!(line_matches("Time: … ms", "Time: 12 ms"));
    assert!(!line_matches("Time: … ms", "Time: 12 s"));
    assert!(line_matches(
        "info depth 1 seldepth 1 multipv 1 score cp 0 nodes 61 nps 61000 hashfull 0 time 1 pv a1a4",
        "info depth 1 seldepth 3 multipv 1 score cp -12 nodes 610 nps 9000 hashfull 2 time 7 pv b1b4 b9b5"
    ));
    assert!(!line_matches(
        "info depth 1 score cp 0 nodes 61 nps 61000 time 1 pv a1a4",
        "info depth 1 seldepth 1 score cp 0 nodes 61 nps 61000 time 1 pv a1a4"
    ));
    assert!(!line_matches(
        "info depth 1 score cp 0 nodes 1 pv a1a4",
        "info depth 1 score mate 3 nodes 1 pv a1a4"
    ));
    assert!(line_matches("bestmove a1a4", "bestmove e1e2"));
    assert!(!line_matches("bestmove a1a4", "bestmove (none) ponder x"));
    assert!(!line_matches("readyok", "readyok "));
}

#[test]
fn blocks_must_say_what_they_are() {
    let ok = "text\n\n```session\n> d\n```\n\n<!-- not run: a long match -->\n```console\n$ sleep 999\n```\n";
    let b = blocks("t", ok).unwrap();
    assert_eq!(b.len(), 2);
    assert_eq!(b[1].not_run.as_deref(), Some("a long match"));
    for bad in [
        "x\n\n```\nd\n```\n",
        "x\n\n```rust\nd\n```\n",
        "x\n\n    indented code\n",
        "<!-- not run: why -->\n\ntext\n",
    ] {
        assert!(blocks("t", bad).is_err(), "{bad:?} should be refused");
    }
}

/// The notation page's table of independent perft counts is what Koma
/// counts from each start position.
#[test]
fn the_perft_table_of_the_notation_page_is_what_koma_counts() {
    use koma::core::{Game, perft};
    use koma::games::{GameId, GameVisitor};
    struct Start(u32);
    impl GameVisitor for Start {
        type Output = u64;
        fn visit<G: Game>(self) -> u64 {
            perft(&G::start(&G::Rules::default()), self.0)
        }
    }
    let page = read_page("docs/rules/notation.md");
    let mut rows = 0;
    for line in page.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let Some(game) = cells
            .get(1)
            .and_then(|c| c.strip_prefix('`')?.strip_suffix('`'))
        else {
            continue;
        };
        let Some(g) = GameId::from_name(game) else {
            continue;
        };
        let counts: Vec<u64> = cells[2..]
            .iter()
            .filter_map(|c| c.replace(',', "").parse().ok())
            .collect();
        if counts.len() != 3 {
            continue;
        }
        for (d, &n) in counts.iter().enumerate() {
            assert_eq!(g.visit(Start(d as u32 + 1)), n, "{game} depth {}", d + 1);
        }
        rows += 1;
    }
    assert_eq!(rows, GameId::ALL.len());
}

/// `.ci/run` runs the README's test command, word for word.
#[test]
fn ci_runs_the_readme_test_command() {
    let readme = read_page("README.md");
    let command = blocks("README.md", &readme)
        .unwrap()
        .into_iter()
        .filter(|b| b.kind == "console")
        .flat_map(|b| b.body)
        .filter_map(|l| l.strip_prefix("$ ").map(str::to_string))
        .find(|c| c.starts_with("bash tools/test.sh"))
        .expect("README shows the test command");
    let ci = read_page(".ci/run");
    assert!(
        ci.lines()
            .any(|l| l.trim() == command || l.trim() == format!("{command} || exit 1")),
        ".ci/run does not run `{command}`"
    );
}

/// `.ci/run` fails, and runs nothing after, when the tests fail. Checked
/// with a `cargo` first on the PATH that logs every call, fails `cargo
/// test` and passes everything else.
#[test]
fn ci_fails_and_stops_when_the_tests_fail() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("koma-ci-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("calls");
    let cargo = dir.join("cargo");
    std::fs::write(
        &cargo,
        format!(
            "#!/bin/sh\necho \"$*\" >> '{}'\n[ \"$1\" = test ] && exit 1\nexit 0\n",
            log.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let status = Command::new("bash")
        .arg(root().join(".ci/run"))
        .env("PATH", path)
        .env("CI", "true")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    let calls = std::fs::read_to_string(&log).unwrap_or_default();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(!status.success(), "calls: {calls}");
    assert_eq!(calls.lines().last(), Some("test"), "calls: {calls}");
}

/// The steps of the test command after `cargo test` use the binaries it
/// built: a `cargo build` there builds with other features (no
/// dev-dependencies) and so builds syn, serde_derive, clap_derive and koma a
/// third time on a fresh clone.
#[test]
fn the_test_steps_after_cargo_test_build_nothing_new() {
    for script in [
        "tools/test.sh",
        "tools/browser/test.sh",
        "tools/python/test.sh",
    ] {
        for line in read_page(script).lines() {
            let l = line.trim_start();
            if l.starts_with('#') {
                continue;
            }
            assert!(
                !l.starts_with("cargo build") && !l.contains(" cargo build"),
                "{script} runs `cargo build`: {line}"
            );
        }
    }
}

/// docs/layout.md's list of examples names every file in examples/.
#[test]
fn the_layout_page_lists_every_example() {
    let layout = read_page("docs/layout.md");
    let line = layout
        .lines()
        .find(|l| l.starts_with("examples/"))
        .expect("docs/layout.md lists the examples");
    for e in std::fs::read_dir(root().join("examples")).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        let stem = name.trim_end_matches(".rs");
        assert!(
            line.contains(stem),
            "docs/layout.md's examples line omits {stem}"
        );
    }
}

/// The board's clock margin is not the referee's: docs/board.md says which
/// default each has, as their --help does.
#[test]
fn the_board_page_gives_the_boards_clock_margin() {
    let page = read_page("docs/board.md");
    assert!(
        page.contains("1000 ms by default (`--timemargin`), against\nthe referee's 0"),
        "docs/board.md"
    );
    let board = read_page("src/bin/koma-board.rs");
    assert!(
        board.contains("default_value_t = 1_000)]\n    timemargin"),
        "koma-board's default"
    );
}
