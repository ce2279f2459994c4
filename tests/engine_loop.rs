//! The engine loop driven in-process over byte buffers: every command, every
//! rejection leaving position and options unchanged, exactly one bestmove
//! per go.

mod common;
use common::{converse, converse_bytes};

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .collect()
}

fn bestmoves(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("bestmove")).collect()
}

fn position_line(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("Position: "))
        .collect()
}

#[test]
fn uci_lists_every_option_and_ends_with_uciok() {
    let out = converse("uci\n");
    assert!(out[0].starts_with("id name Koma"));
    assert!(
        out.iter()
            .any(|l| l.starts_with("option name UCI_Variant type combo default "))
    );
    for name in koma::games::GameId::ALL {
        let combo = out
            .iter()
            .find(|l| l.starts_with("option name UCI_Variant"))
            .unwrap();
        assert!(combo.contains(&format!(" var {name}")), "{name}");
        for spec in name.rule_specs() {
            assert!(
                out.iter()
                    .any(|l| l.starts_with(&format!("option name {} type", spec.name))),
                "{}",
                spec.name
            );
        }
    }
    assert!(
        out.iter()
            .any(|l| l.starts_with("option name Move Overhead type spin"))
    );
    assert_eq!(out.last().unwrap(), "uciok");
}

#[test]
fn ugi_handshake_ends_with_ugiok() {
    let out = converse("ugi\n");
    assert_eq!(out.last().unwrap(), "ugiok");
}

#[test]
fn isready_answers_readyok() {
    assert_eq!(converse("isready\n"), vec!["readyok"]);
}

#[test]
fn go_depth_ends_with_exactly_one_legal_bestmove() {
    let out = converse("setoption name UCI_Variant value hasami\nposition startpos\ngo depth 2\n");
    let bm = bestmoves(&out);
    assert_eq!(bm.len(), 1, "{out:?}");
    let mv = bm[0].strip_prefix("bestmove ").unwrap();
    // The move is accepted back by the engine.
    let again = converse(&format!(
        "setoption name UCI_Variant value hasami\nposition startpos moves {mv}\nd\n"
    ));
    assert!(errors(&again).is_empty(), "{again:?}");
    assert!(
        out.iter()
            .any(|l| l.starts_with("info depth 2 ") && l.contains(" score cp "))
    );
}

#[test]
fn go_with_nodes_and_movetime_limits_each_end_with_one_bestmove() {
    for go in [
        "go nodes 500",
        "go movetime 50",
        "go wtime 100 btime 100",
        "go wtime 1000 btime 1 winc 10 binc 10 movestogo 3",
    ] {
        let out = converse(&format!("setoption name UCI_Variant value hasami\n{go}\n"));
        assert_eq!(bestmoves(&out).len(), 1, "{go}: {out:?}");
        assert!(errors(&out).is_empty(), "{go}: {out:?}");
    }
}

#[test]
fn go_in_a_finished_game_answers_bestmove_none() {
    let out = converse(
        "setoption name UCI_Variant value hasami\nposition fen 9/9/9/9/9/9/9/9/PPPP5 b 4\ngo depth 3\nd\n",
    );
    assert_eq!(bestmoves(&out), vec!["bestmove (none)"]);
    assert!(
        out.iter().any(|l| l.starts_with("Game: over, 1-0")),
        "{out:?}"
    );
}

#[test]
fn malformed_lines_get_an_error_and_change_nothing() {
    let setup = "setoption name UCI_Variant value hasami\nposition startpos moves a1a2 a9a8\n";
    let before = converse(&format!("{setup}d\n"));
    for bad in [
        "go depth x",
        "position startpos moves a1a2 a9a8 zz",
        "position startpos moves a1a2 a9a8 a2a1 a8a7 a1a9",
        "position fen 9/9 w 1",
        "position fen 9/9/9/9/9/9/9/9/PPPPPPPPK w 1",
        "setoption name UCI_Variant value chess",
        "setoption name Nonexistent value 3",
        "setoption name HasamiLines value maybe",
        "setoption name Move Overhead value -5",
        "frobnicate",
        "debug",
        "position",
    ] {
        let out = converse(&format!("{setup}{bad}\nd\n"));
        let errs = errors(&out);
        assert_eq!(errs.len(), 1, "{bad}: {out:?}");
        assert!(
            errs[0].contains(" at "),
            "error names the token: {}",
            errs[0]
        );
        assert_eq!(
            position_line(&out),
            position_line(&before),
            "{bad} changed the position"
        );
    }
    let out = converse("setoption name Move Overhead value -5\nuci\n");
    assert!(
        out.iter()
            .any(|l| l == "option name Move Overhead type spin default 30 min 0 max 5000")
    );
}

#[test]
fn a_position_command_with_one_bad_move_is_rejected_whole() {
    let out = converse(
        "setoption name UCI_Variant value hasami\nposition startpos moves a1a2\nposition startpos moves a1a3 a9a8 a3a9\nd\n",
    );
    let e = errors(&out);
    assert_eq!(e.len(), 1);
    assert!(e[0].ends_with("at a3a9"), "{}", e[0]);
    assert_eq!(
        position_line(&out),
        vec!["Position: ppppppppp/9/9/9/9/9/9/P8/1PPPPPPPP b 1"]
    );
}

#[test]
fn position_strings_round_trip_through_d() {
    for (game, fen) in [
        ("hasami", "ppp1ppppp/9/3p5/9/9/4P4/9/9/PPPP1PPPP w 3"),
        (
            "hasami",
            "p1pp1p1pp/1p7/4p4/6p2/2P6/9/3P1P3/1P7/P1P1P2PP b 6",
        ),
    ] {
        let out = converse(&format!(
            "setoption name UCI_Variant value {game}\nposition fen {fen}\nd\n"
        ));
        assert_eq!(
            position_line(&out),
            vec![&format!("Position: {fen}")],
            "{out:?}"
        );
    }
}

#[test]
fn go_perft_prints_each_move_a_blank_line_and_the_total() {
    let out = converse("setoption name UCI_Variant value hasami\ngo perft 2\n");
    let blank = out.iter().position(|l| l.is_empty()).unwrap();
    assert_eq!(blank, 63);
    let sum: u64 = out[..blank]
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 3717);
    assert_eq!(out[blank + 1], "Nodes searched: 3717");
}

#[test]
fn variant_and_rule_changes_take_effect() {
    // Three captures ahead: over at once under lead3, not under five.
    let fen = "pppppp3/9/9/9/9/9/9/9/PPPPPPPPP w 1";
    let out = converse(&format!(
        "setoption name UCI_Variant value hasami\nposition fen {fen}\nd\n"
    ));
    assert!(out.iter().any(|l| l == "Game: in progress"), "{out:?}");
    let out = converse(&format!(
        "setoption name UCI_Variant value hasami\nsetoption name HasamiWin value lead3\nposition fen {fen}\nd\n"
    ));
    assert!(errors(&out).is_empty(), "{out:?}");
    assert!(
        out.iter().any(|l| l.starts_with("Game: over, 1-0")),
        "{out:?}"
    );
}

#[test]
fn queries_answer_from_the_current_position() {
    let out = converse(
        "setoption name UCI_Variant value hasami\nquery gameover\nquery p1turn\nquery result\nposition startpos moves a1a2\nquery p1turn\n",
    );
    assert_eq!(
        out,
        vec![
            "response false",
            "response true",
            "response none",
            "response false"
        ]
    );
}

#[test]
fn end_of_input_during_an_infinite_search_still_prints_its_bestmove() {
    let out = converse("setoption name UCI_Variant value hasami\ngo infinite\n");
    assert_eq!(bestmoves(&out).len(), 1, "{out:?}");
}

#[test]
fn quit_ends_the_loop_and_later_lines_are_not_read() {
    let out = converse("quit\nisready\n");
    assert!(out.is_empty(), "{out:?}");
}

#[test]
fn binary_and_overlong_input_get_errors_and_the_loop_goes_on() {
    let mut input = b"\xff\xfe\x00\n".to_vec();
    input.extend(std::iter::repeat_n(b'a', 2 << 20));
    input.extend_from_slice(b"\nisready\n");
    let out = converse_bytes(&input);
    assert_eq!(errors(&out).len(), 2, "{:?}", &out);
    assert_eq!(out.last().unwrap(), "readyok");
}

#[test]
fn random_lines_never_panic_the_engine() {
    let words = [
        "uci",
        "isready",
        "go",
        "depth",
        "1",
        "nodes",
        "50",
        "perft",
        "position",
        "startpos",
        "fen",
        "moves",
        "a1a2",
        "a9a8",
        "setoption",
        "name",
        "value",
        "UCI_Variant",
        "hasami",
        "HasamiWin",
        "all",
        "d",
        "stop",
        "query",
        "result",
        "9/9/9/9/9/9/9/9/PPPPPPPPP",
        "w",
        "b",
        "ponderhit",
        "-1",
        "x",
        "P@a1",
        "pass",
        "ucinewgame",
    ];
    let mut seed = 7u64;
    let mut script = String::new();
    for _ in 0..400 {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        let n = (seed >> 60) as usize;
        for _ in 0..n {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            script.push_str(words[(seed >> 33) as usize % words.len()]);
            script.push(' ');
        }
        script.push('\n');
    }
    script.push_str("isready\n");
    let out = converse(&script);
    assert_eq!(out.last().unwrap(), "readyok");
}

#[test]
fn positions_no_game_reaches_are_refused_with_the_reason_and_the_position_stays() {
    for (variant, fen, why) in [
        (
            "hasami",
            "9/9/9/9/9/9/9/9/9 w 1",
            "the second player has no men, but made the last move",
        ),
        (
            "hasami",
            "ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b 151",
            "past the 300-ply limit",
        ),
        (
            "kaninariebi",
            "C4/5/5/5/cc3 w 1",
            "the first player to move has already won",
        ),
        (
            "kaninariebi",
            "CCCCC/C4/5/5/ccccc w 1",
            "the first player has 6 pieces",
        ),
        (
            "nana",
            "KRV/W2/k2[] w 1",
            "3 cubes of the orthogonal family",
        ),
        (
            "negaeri",
            "2bkr1/2ppp1/6/6/1PPP2/1RKB2[RBPPPPrbppp] w 1 1",
            "the second player passed with pieces in hand",
        ),
    ] {
        let out = converse(&format!(
            "setoption name UCI_Variant value {variant}\nposition fen {fen}\nd\n"
        ));
        let e = errors(&out);
        assert_eq!(e.len(), 1, "{fen}: {out:?}");
        let board = fen.split(' ').next().unwrap();
        assert!(
            e[0].starts_with(&format!("info string error: invalid {variant} position ("))
                && e[0].contains(why)
                && e[0].ends_with(&format!(") at {board}")),
            "{fen}: {e:?}"
        );
        let shown = position_line(&out);
        assert_eq!(shown.len(), 1, "{out:?}");
        assert_ne!(shown[0], &format!("Position: {fen}"), "{fen}: refused");
    }
}

/// The engine's output as the reader gets it: one entry per write.
#[derive(Clone, Default)]
struct Writes(std::sync::Arc<std::sync::Mutex<Vec<String>>>);

impl std::io::Write for Writes {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(b).into_owned();
        self.0.lock().unwrap().push(text);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Gives `input`, then ends once the engine has answered with a
/// `bestmove` (a GUI waiting for the search before it quits).
struct UntilBestmove(std::io::Cursor<Vec<u8>>, Writes);

impl std::io::Read for UntilBestmove {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.read(buf)?;
        if n == 0 {
            let end = std::time::Instant::now() + std::time::Duration::from_secs(60);
            while !self
                .1
                .0
                .lock()
                .unwrap()
                .iter()
                .any(|w| w.contains("bestmove"))
                && std::time::Instant::now() < end
            {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
        Ok(n)
    }
}

/// Runs the engine loop on `input` (read at once, as a runner's single
/// write is) until it answers with a `bestmove`; gives its writes.
fn writes_until_bestmove(input: &str) -> Vec<String> {
    let writes = Writes::default();
    let reader = UntilBestmove(std::io::Cursor::new(input.into()), writes.clone());
    // Through a line writer, as stdout is.
    let out = std::io::LineWriter::new(writes.clone());
    koma::engine::run(
        koma::engine::Registry::koma(),
        reader,
        koma::engine::Output::new(out),
    );
    writes.0.lock().unwrap().clone()
}

#[test]
fn the_last_iteration_of_a_depth_limited_search_comes_in_one_write_with_its_bestmove() {
    let writes =
        writes_until_bestmove("setoption name MultiPV value 2\nposition startpos\ngo depth 3\n");
    let last = writes.last().expect("the engine wrote");
    let lines: Vec<&str> = last.lines().collect();
    assert_eq!(lines.len(), 3, "{writes:?}");
    assert!(lines[0].starts_with("info depth 3 ") && lines[0].contains(" multipv 1 "));
    assert!(lines[1].starts_with("info depth 3 ") && lines[1].contains(" multipv 2 "));
    assert!(lines[2].starts_with("bestmove "));
    // The iterations before it went out as they ended, a line a write.
    for depth in [1, 2] {
        let info = format!("info depth {depth} ");
        let earlier = writes.iter().filter(|w| w.contains(&info));
        assert!(earlier.clone().count() == 2, "{writes:?}");
        assert!(
            earlier
                .clone()
                .all(|w| w.lines().count() == 1 && !w.contains("bestmove"))
        );
    }
}

#[test]
fn a_readyok_read_with_a_search_goes_out_in_one_write_with_the_searchs_lines() {
    // A runner's move: all three lines in one write, read at once.
    let writes = writes_until_bestmove("isready\nposition startpos\ngo depth 1\n");
    assert_eq!(writes.len(), 1, "{writes:?}");
    let lines: Vec<&str> = writes[0].lines().collect();
    assert_eq!(lines[0], "readyok");
    assert!(lines[1].starts_with("info depth 1 "), "{lines:?}");
    assert!(lines[2].starts_with("bestmove "), "{lines:?}");
}

/// Gives `input` in one read; at the next read, notes whether the engine
/// had written `readyok` by then, and ends.
struct ThenLook(
    Option<Vec<u8>>,
    Writes,
    std::sync::Arc<std::sync::Mutex<Option<bool>>>,
);

impl std::io::Read for ThenLook {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if let Some(input) = self.0.take() {
            buf[..input.len()].copy_from_slice(&input);
            return Ok(input.len());
        }
        let written = self.1.0.lock().unwrap().concat();
        self.2
            .lock()
            .unwrap()
            .get_or_insert(written.contains("readyok"));
        Ok(0)
    }
}

#[test]
fn a_readyok_read_with_other_lines_is_written_before_the_engine_waits_for_input() {
    let writes = Writes::default();
    let seen = std::sync::Arc::new(std::sync::Mutex::new(None));
    // Nothing else answers `position`: `readyok` alone is owed.
    let input = b"isready\nposition startpos\n".to_vec();
    let reader = ThenLook(Some(input), writes.clone(), seen.clone());
    koma::engine::run(
        koma::engine::Registry::koma(),
        reader,
        koma::engine::Output::new(writes.clone()),
    );
    assert_eq!(
        *seen.lock().unwrap(),
        Some(true),
        "readyok waited for input"
    );
}

/// A GUI talking to the engine loop over channels, as over pipes: each
/// `send` is one write, which the engine gets in one read; the engine's
/// lines come back one by one. Notes which thread made each read and each
/// line.
struct Gui {
    input: Option<std::sync::mpsc::Sender<Vec<u8>>>,
    lines: std::sync::mpsc::Receiver<String>,
    reads: Threads,
    written: Threads,
    engine: std::thread::JoinHandle<()>,
}

type Threads = std::sync::Arc<std::sync::Mutex<Vec<(String, std::thread::ThreadId)>>>;

/// The engine's input: what the GUI sent, one send a read.
struct Feed(std::sync::mpsc::Receiver<Vec<u8>>, Vec<u8>, Threads);

impl std::io::Read for Feed {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.1.is_empty() {
            let Ok(sent) = self.0.recv() else {
                return Ok(0);
            };
            let text = String::from_utf8_lossy(&sent).into_owned();
            self.2
                .lock()
                .unwrap()
                .push((text, std::thread::current().id()));
            self.1 = sent;
        }
        let n = self.1.len().min(buf.len());
        buf[..n].copy_from_slice(&self.1[..n]);
        self.1.drain(..n);
        Ok(n)
    }
}

/// The engine's output: each line to the GUI as it is written.
struct Screen(std::sync::mpsc::Sender<String>, Threads);

impl std::io::Write for Screen {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        for l in String::from_utf8_lossy(b).lines() {
            let me = std::thread::current().id();
            self.1.lock().unwrap().push((l.to_string(), me));
            let _ = self.0.send(l.to_string());
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Gui {
    fn start() -> Gui {
        Gui::over(koma::engine::Registry::koma())
    }

    /// The engine playing the games of `registry`.
    fn over(registry: &'static koma::engine::Registry) -> Gui {
        let (input, feed) = std::sync::mpsc::channel();
        let (screen, lines) = std::sync::mpsc::channel();
        let (reads, written) = (Threads::default(), Threads::default());
        let feed = Feed(feed, Vec::new(), reads.clone());
        let out = koma::engine::Output::new(Screen(screen, written.clone()));
        let engine = std::thread::spawn(move || {
            koma::engine::run(registry, feed, out);
        });
        Gui {
            input: Some(input),
            lines,
            reads,
            written,
            engine,
        }
    }

    fn send(&self, text: &str) {
        let input = self.input.as_ref().unwrap();
        input.send(text.as_bytes().to_vec()).unwrap();
    }

    /// The lines written up to the first that starts with `prefix`, that
    /// one included.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            // Only a hung engine waits this long.
            let wait = std::time::Duration::from_secs(60);
            match self.lines.recv_timeout(wait) {
                Ok(l) => {
                    let done = l.starts_with(prefix);
                    got.push(l);
                    if done {
                        return got;
                    }
                }
                Err(e) => panic!("no {prefix} ({e}) after {got:?}"),
            }
        }
    }

    /// Ends the input and waits for the engine loop to return; the lines
    /// written since the last `until`.
    fn close(&mut self) -> Vec<String> {
        self.input = None;
        let engine = std::mem::replace(&mut self.engine, std::thread::spawn(|| ()));
        engine.join().unwrap();
        self.lines.try_iter().collect()
    }
}

fn count(lines: &[String], prefix: &str) -> usize {
    lines.iter().filter(|l| l.starts_with(prefix)).count()
}

#[test]
fn a_search_runs_on_the_thread_that_read_its_go() {
    let mut gui = Gui::start();
    gui.send("setoption name UCI_Variant value hasami\n");
    for i in 0..40 {
        // A runner's move in one write, or a GUI's in two.
        if i % 2 == 0 {
            gui.send("isready\nposition startpos\ngo depth 2\n");
        } else {
            gui.send("position startpos moves a1a2\n");
            gui.send("go depth 2\n");
        }
        gui.until("bestmove");
    }
    gui.close();
    let reads = gui.reads.lock().unwrap();
    let goes: Vec<_> = reads.iter().filter(|r| r.0.contains("go ")).collect();
    let written = gui.written.lock().unwrap();
    let searches: Vec<_> = written
        .iter()
        .filter(|w| w.0.starts_with("info depth") || w.0.starts_with("bestmove"))
        .collect();
    assert_eq!(goes.len(), 40);
    assert_eq!(searches.len(), 40 * 3, "{searches:?}");
    for (go, lines) in goes.iter().zip(searches.chunks(3)) {
        assert!(lines.iter().all(|l| l.1 == go.1), "{go:?}: {lines:?}");
    }
}

#[test]
fn isready_during_an_infinite_search_is_answered_and_stop_ends_the_search() {
    let mut gui = Gui::start();
    gui.send("setoption name UCI_Variant value hasami\ngo infinite\n");
    gui.send("isready\n");
    // An infinite search writes its `bestmove` only after `stop`.
    let before = gui.until("readyok");
    assert_eq!(count(&before, "bestmove"), 0, "{before:?}");
    gui.send("isready\n");
    gui.until("readyok");
    gui.send("stop\n");
    gui.until("bestmove");
    gui.send("isready\n");
    let after = gui.until("readyok");
    assert_eq!(after, ["readyok"]);
    assert!(gui.close().is_empty());
}

/// A held search with nothing to search (the game is over) still hands the
/// input over while it waits for `stop`.
#[test]
fn isready_during_an_infinite_search_of_a_finished_game_is_answered() {
    let mut gui = Gui::start();
    gui.send("setoption name UCI_Variant value hasami\n");
    gui.send("position fen 9/9/9/9/9/9/9/9/PPPP5 b 4\n");
    gui.send("go infinite\n");
    gui.send("isready\n");
    let before = gui.until("readyok");
    assert_eq!(count(&before, "bestmove"), 0, "{before:?}");
    gui.send("stop\n");
    assert_eq!(gui.until("bestmove").last().unwrap(), "bestmove (none)");
    assert!(gui.close().is_empty());
}

#[test]
fn quit_during_a_search_ends_the_engine_after_its_bestmove() {
    let mut gui = Gui::start();
    gui.send("setoption name UCI_Variant value hasami\ngo infinite\n");
    gui.until("info depth 1 ");
    gui.send("quit\n");
    gui.send("isready\n");
    // `close` waits for the loop to return: after the search's last line.
    let after = gui.close();
    assert_eq!(count(&after, "bestmove"), 1, "{after:?}");
    assert_eq!(count(&after, "readyok"), 0, "{after:?}");
}

#[test]
fn end_of_input_during_a_search_ends_the_engine_after_its_bestmove() {
    for go in ["go infinite", "go depth 30", "go perft 9"] {
        let mut gui = Gui::start();
        gui.send(&format!("setoption name UCI_Variant value hasami\n{go}\n"));
        if go != "go perft 9" {
            gui.until("info depth 1 ");
        }
        let after = gui.close();
        let end = if go == "go perft 9" {
            "Nodes searched: "
        } else {
            "bestmove"
        };
        assert_eq!(count(&after, end), 1, "{go}: {after:?}");
    }
}

#[test]
fn many_searches_stops_and_isreadys_in_a_row_leave_the_engine_consistent() {
    let script = [
        "go infinite",
        "isready",
        "stop",
        "go depth 1",
        "go depth 2",
        "isready",
        "go nodes 200",
        "stop",
        "go ponder",
        "ponderhit",
        "isready",
        "stop",
        "go perft 2",
        "go infinite",
        "position startpos moves a1a2",
        "go depth 1",
        "isready",
        "stop",
    ];
    let mut gui = Gui::start();
    gui.send("setoption name UCI_Variant value hasami\n");
    let rounds = 100;
    for round in 0..rounds {
        if round % 2 == 0 {
            // One line a write: the loop waits for input between lines.
            for l in script {
                gui.send(&format!("{l}\n"));
            }
        } else {
            gui.send(&script.map(|l| format!("{l}\n")).concat());
        }
    }
    gui.send("isready\n");
    // The last `stop` has waited for the last search: its `readyok` is
    // the last line.
    let mut lines = Vec::new();
    let isreadys = count(&script.map(String::from), "isready") * rounds + 1;
    while count(&lines, "readyok") < isreadys {
        lines.extend(gui.until("readyok"));
    }
    assert_eq!(lines.last().unwrap(), "readyok");
    let after = gui.close();
    assert!(after.is_empty(), "{after:?}");
    let searches = script.iter().filter(|l| l.starts_with("go ")).count();
    let perfts = script.iter().filter(|l| l.starts_with("go perft")).count();
    assert_eq!(
        count(&lines, "bestmove"),
        (searches - perfts) * rounds,
        "{lines:?}"
    );
    assert_eq!(count(&lines, "Nodes searched: "), perfts * rounds);
    assert!(errors(&lines).is_empty(), "{:?}", errors(&lines));
}

/// A bench that panics, as a bug in a job would.
fn panicking_bench(
    _: Option<u32>,
    _: &std::sync::atomic::AtomicBool,
) -> Vec<koma::engine::bench_positions::BenchLine> {
    panic!("a bench that fails (the test wants it)")
}

#[test]
fn a_job_that_panics_leaves_the_engine_answering() {
    let games = koma::engine::Registry::koma().games();
    let hasami = *games.iter().find(|g| g.name == "hasami").unwrap();
    let broken = koma::engine::registry::EngineGame {
        bench: panicking_bench,
        ..hasami
    };
    let registry = koma::engine::Registry::new(vec![broken], "hasami");
    let mut gui = Gui::over(Box::leak(Box::new(registry)));
    for _ in 0..3 {
        // It panics on whichever thread read it, which must still take up
        // the loop and run the searches after it.
        gui.send("bench\n");
        gui.send("isready\n");
        gui.until("readyok");
        gui.send("go depth 2\n");
        gui.until("bestmove");
    }
    gui.send("bench\ngo depth 1\n");
    gui.until("bestmove");
    gui.send("isready\n");
    let last = gui.until("readyok");
    assert_eq!(last, ["readyok"]);
    assert!(gui.close().is_empty());
}
