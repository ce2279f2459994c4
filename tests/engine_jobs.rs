//! `go perft` and `bench` in the real binary run like a search, on their
//! own thread: `isready` answered at once, `stop` ending them marked
//! partial, `quit` and end of input exiting at once. (Apart from
//! `engine_binary`, whose clock test must not share the CPU with them.)

mod common;
use common::{Koma, one_at_a_time};
use std::time::{Duration, Instant};

const T: Duration = Duration::from_secs(10);

/// The rows and total of a perft's output, up to `Nodes searched`.
fn perft_sum(lines: &[String]) -> (u64, u64) {
    let rows: u64 = lines
        .iter()
        .filter(|l| l.contains(": ") && !l.starts_with("Nodes searched"))
        .map(|l| {
            let n = l.split(": ").nth(1).unwrap();
            n.trim_end_matches(" (partial)").parse::<u64>().unwrap()
        })
        .sum();
    let total = lines.last().unwrap()["Nodes searched: ".len()..]
        .trim_end_matches(" (partial)")
        .parse()
        .unwrap();
    (rows, total)
}

/// Starts `job`, lets it run 200 ms, ends it with `end`: the process
/// must be gone within 500 ms (the jobs given never end on their own; the
/// bound leaves room for a loaded machine's scheduling).
fn ends_at_once(job: &str, end: impl FnOnce(&mut Koma)) {
    let _serial = one_at_a_time();
    let mut k = Koma::spawn();
    k.send(job);
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    end(&mut k);
    assert!(k.wait_exit(T));
    let took = t.elapsed();
    assert!(took < Duration::from_millis(500), "took {took:?}");
}

/// `isready` answered within 500 ms while a job runs: the lines up to
/// `readyok`.
fn ready_at_once(k: &mut Koma) -> Vec<String> {
    let t = Instant::now();
    k.send("isready");
    let lines = k.read_until(T, |l| l == "readyok");
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );
    lines
}

/// `stop` ends the running job within 100 ms, its count marked partial:
/// the lines up to `Nodes searched`.
fn stop_ends_it_partial(k: &mut Koma) -> Vec<String> {
    let t = Instant::now();
    k.send("stop");
    let lines = k.read_until(T, |l| l.starts_with("Nodes searched"));
    assert!(
        t.elapsed() < Duration::from_millis(100),
        "{:?}",
        t.elapsed()
    );
    assert!(lines.last().unwrap().ends_with(" (partial)"), "{lines:?}");
    lines
}

#[test]
fn go_perft_leaves_isready_answered_at_once_and_stop_ends_it_marked_partial() {
    let _serial = one_at_a_time();
    let mut k = Koma::spawn();
    k.send("go perft 50");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(ready_at_once(&mut k), ["readyok"], "the perft goes on");
    let lines = stop_ends_it_partial(&mut k);
    // Every counted node is in a row; the move cut short is marked.
    let (rows, total) = perft_sum(&lines);
    assert_eq!(rows, total, "{lines:?}");
    assert!(total > 0, "{lines:?}");
    assert_eq!(
        lines.iter().filter(|l| l.ends_with(" (partial)")).count(),
        2,
        "{lines:?}"
    );
    // The engine goes on: a complete perft is not marked.
    k.send("go perft 2");
    let lines = k.read_until(T, |l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 361");
    assert!(!lines.iter().any(|l| l.contains("partial")), "{lines:?}");
}

#[test]
fn end_of_input_during_go_perft_exits_at_once() {
    ends_at_once("go perft 50", Koma::close_stdin);
}

#[test]
fn quit_during_go_perft_exits_at_once() {
    ends_at_once("go perft 50", |k| k.send("quit"));
}

#[test]
fn bench_leaves_isready_answered_at_once_and_stop_ends_it_marked_partial() {
    let _serial = one_at_a_time();
    // The bench is short (a fifth of a second on a fast build), so a fixed
    // wait before `isready` can outlast it: the test waits for its first
    // line instead, and when the bench still ends before `stop` arrives
    // (nothing partial to check) it tries again. An engine that answers
    // `isready` only after the bench never gets a partial end: every try
    // fails.
    for _ in 0..10 {
        let mut k = Koma::spawn();
        k.send("bench");
        k.read_until(T, |l| l.starts_with("info string bench "));
        k.send("isready");
        k.send("stop");
        let lines = k.read_until(T, |l| l.starts_with("Nodes searched"));
        if !lines.last().unwrap().ends_with(" (partial)") {
            continue;
        }
        let ready = lines.iter().position(|l| l == "readyok");
        assert!(
            ready.is_some(),
            "isready answered during the bench: {lines:?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string bench stopped")),
            "{lines:?}"
        );
        k.send("isready");
        k.read_until(T, |l| l == "readyok");
        return;
    }
    panic!("ten benches in a row ended before stop: isready or stop waits for the bench");
}

/// The bench is short (a fraction of a second), so a time bound alone
/// cannot tell "exits at once" from "finishes, then exits": the process
/// must be gone without printing the bench's full total.
#[test]
fn end_of_input_during_bench_exits_before_the_bench_ends() {
    let _serial = one_at_a_time();
    let mut k = Koma::spawn();
    k.send("bench");
    k.read_until(T, |l| l.starts_with("info string bench "));
    k.close_stdin();
    assert!(k.wait_exit(T));
    let rest = k.rest(T);
    assert!(
        !rest
            .iter()
            .any(|l| l.starts_with("Nodes searched") && !l.ends_with("(partial)")),
        "{rest:?}"
    );
}

/// Runs `koma ARGS` to its end with `input` on stdin and `RUST_LOG` set
/// to `log` (unset when empty): exit code, stdout, stderr.
fn koma_run(args: &[&str], log: &str, input: &str) -> (Option<i32>, String, String) {
    use std::io::Write;
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_koma"));
    command.env_remove("RUST_LOG");
    if !log.is_empty() {
        command.env("RUST_LOG", log);
    }
    let mut child = command
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn koma_job(args: &[&str]) -> (Option<i32>, String, String) {
    koma_run(args, "", "")
}

#[test]
fn rust_log_debug_shows_option_changes_and_time_decisions_on_stderr_only() {
    let input = "setoption name Hash value 4\n\
                 position startpos\n\
                 go wtime 2000 btime 2000 winc 0 binc 0\n\
                 quit\n";
    let (code, out, err) = koma_run(&[], "debug", input);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("option Hash = 4"), "{err}");
    assert!(err.contains("time for this move: soft "), "{err}");
    assert!(
        !out.contains("option Hash") && !out.contains("time for"),
        "{out}"
    );
    // At the default level the engine says nothing on stderr.
    let (_, _, quiet) = koma_run(&[], "", input);
    assert_eq!(quiet, "");
}

#[test]
fn a_job_with_a_bad_argument_exits_2_and_a_bad_file_exits_1_saying_which() {
    let (code, out, err) = koma_job(&["solve", "hasami"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(
        err.trim(),
        "koma solve: only kaninariebi or nana can be solved, not hasami"
    );

    let (code, out, err) =
        koma_job(&["solve", "kaninariebi", "--pieces", "6", "--unit", "CCXvCCC"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(
        err.trim(),
        "koma solve: --unit CCXvCCC: no such signature (written like CCSvCCC: the side to move's Crabs and Shrimps, v, the other's)"
    );

    let (code, out, err) = koma_job(&["perft", "1", "--fen", "not a position"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.starts_with("koma perft: "), "{err}");

    let missing = std::env::temp_dir().join("koma-no-such-table.bin");
    let (code, out, err) = koma_job(&["solve", "nana", "--verify", missing.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{err}");
    assert!(out.is_empty(), "{out}");
    let want = format!(
        "koma solve: cannot use {} as the table: ",
        missing.display()
    );
    assert!(err.starts_with(&want), "{err}");
}
