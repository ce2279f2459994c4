//! The generator on a toy game with the shape of a game solved by material
//! (levels of nodes, quiet moves inside a level, exits down a level, ends
//! at the bottom), pseudo-random but fixed: against a deliberately plain
//! solver, killed and resumed, its files refused when they do not match.

use super::check::check;
use super::file::{self, Identity};
use super::job::{JobSettings, run_job};
use super::probe::Tables;
use super::unit::Checkpoints;
use super::value::Dtz;
use crate::core::endgame::Layered;
use crate::core::{
    Color, End, EndReason, Game, MoveList, MoveSink, MoveText, NoRules, Outcome, PositionError,
    PositionText,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Nodes per level.
const SIZE: [u32; 3] = [400, 3000, 9000];

/// A token on node `node` of level `level`; `over` once an end move was
/// played (the winner, or `None` for a draw).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Ladder {
    level: u8,
    node: u32,
    side: Color,
    over: Option<Option<Color>>,
}

const EXIT: u32 = 1 << 31;
const END: u32 = 1 << 30;
const DRAWN: u32 = 1 << 29;

fn mix(mut x: u64) -> u64 {
    x ^= x >> 31;
    x = x.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^= x >> 29;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^ x >> 32
}

impl Ladder {
    /// The moves: 0-3 quiet ones, sometimes an exit (down a level, or on
    /// the bottom level an end: a win for the mover or a draw).
    fn moves(&self) -> Vec<u32> {
        let h = mix(u64::from(self.level) << 32 | u64::from(self.node));
        let size = SIZE[self.level as usize];
        let mut out: Vec<u32> = (0..h % 4)
            .map(|j| (mix(h + j) % u64::from(size)) as u32)
            .collect();
        if (h >> 8).is_multiple_of(3) {
            out.push(if self.level == 0 {
                END | if (h >> 12).is_multiple_of(2) {
                    DRAWN
                } else {
                    0
                }
            } else {
                EXIT | (mix(h ^ 77) % u64::from(SIZE[self.level as usize - 1])) as u32
            });
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

impl Game for Ladder {
    type Move = u32;
    type Rules = NoRules;
    type MoveList = MoveList<u32, 8>;
    const NAME: &'static str = "ladder";
    const FILES: u8 = 1;
    const RANKS: u8 = 1;

    fn start(_: &NoRules) -> Self {
        Ladder {
            level: 2,
            node: 0,
            side: Color::First,
            over: None,
        }
    }

    fn from_text(_: &PositionText, _: &NoRules) -> Result<Self, PositionError> {
        Err(PositionError::Unreachable(
            "the ladder has no position text".into(),
        ))
    }

    fn to_text(&self) -> PositionText {
        PositionText {
            ranks: vec![vec![None]],
            hand: None,
            side: self.side,
            counters: vec![u32::from(self.level), self.node],
        }
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn generate<S: MoveSink<u32>>(&self, out: &mut S) {
        if self.over.is_none() {
            for m in self.moves() {
                out.push(m);
            }
        }
    }

    fn play(&self, m: u32) -> Self {
        let mut next = self.clone();
        next.side = self.side.opponent();
        if m & END != 0 {
            next.over = Some((m & DRAWN == 0).then_some(self.side));
        } else if m & EXIT != 0 {
            next.level -= 1;
            next.node = m & !EXIT;
        } else {
            next.node = m;
        }
        next
    }

    fn terminal(&self) -> Option<End> {
        let reason = EndReason::Game("ladder end");
        self.over.map(|w| match w {
            Some(c) => End::win(c, reason),
            None => End::new(Outcome::Draw, reason),
        })
    }

    fn repetition_limit(&self) -> Option<usize> {
        Some(4)
    }

    fn hash(&self) -> u64 {
        mix(u64::from(self.level) << 40 | u64::from(self.node) << 1 | self.side.index() as u64)
    }

    fn move_text(&self, m: u32) -> MoveText {
        let _ = m;
        MoveText::Pass
    }
}

impl Layered for Ladder {
    type Sig = u8;

    fn signatures(max_pieces: u32) -> Vec<u8> {
        (0..3).filter(|&l| u32::from(l) < max_pieces).collect()
    }

    fn layer(sig: u8) -> u32 {
        u32::from(sig)
    }

    fn pieces(sig: u8) -> u32 {
        u32::from(sig) + 1
    }

    fn swapped(sig: u8) -> u8 {
        sig
    }

    fn sig_syntax() -> &'static str {
        "a level, 0 to 2"
    }

    fn parse_sig(text: &str) -> Option<u8> {
        text.parse().ok().filter(|&l: &u8| l < 3)
    }

    fn entries(sig: u8) -> u64 {
        u64::from(SIZE[sig as usize])
    }

    fn unrank(sig: u8, i: u64, _: &NoRules) -> Self {
        Ladder {
            level: sig,
            node: i as u32,
            side: Color::First,
            over: None,
        }
    }

    /// The moves do not depend on the side: both sides share the entries.
    fn locate(&self) -> Option<(u8, u64)> {
        self.over
            .is_none()
            .then_some((self.level, u64::from(self.node)))
    }

    fn is_exit(&self, m: u32) -> bool {
        m & (EXIT | END) != 0
    }

    fn rules_tag(_: &NoRules) -> String {
        String::new()
    }

    /// The nodes of the level with a quiet move to `i`, exactly.
    fn predecessors(sig: u8, i: u64, _: &NoRules, mark: &mut impl FnMut(u64)) -> bool {
        static BACK: std::sync::OnceLock<Vec<Vec<Vec<u32>>>> = std::sync::OnceLock::new();
        let back = BACK.get_or_init(|| {
            (0..3u8)
                .map(|level| {
                    let mut back = vec![Vec::new(); SIZE[level as usize] as usize];
                    for node in 0..SIZE[level as usize] {
                        let pos = Ladder::unrank(level, u64::from(node), &NoRules);
                        for m in pos.moves() {
                            if !pos.is_exit(m) {
                                back[m as usize].push(node);
                            }
                        }
                    }
                    back
                })
                .collect()
        });
        for &p in &back[sig as usize][i as usize] {
            mark(u64::from(p));
        }
        true
    }
}

/// A deliberately plain solver: level by level, distance by distance on
/// a map of values: at distance `d`, an unknown node wins when a move
/// gives it a win in `d` by the values known before (an end or an exit
/// that wins is a win in 1), and loses when every move is known to lose,
/// the latest in `d`. What is never decided is a draw.
fn plain_solve() -> Vec<Vec<Dtz>> {
    let mut solved: Vec<Vec<Dtz>> = Vec::new();
    for level in 0..3u8 {
        let n = SIZE[level as usize];
        let mut known: HashMap<u32, Dtz> = HashMap::new();
        let mut last = 0;
        for d in 0u32.. {
            if d > last + 2 {
                break;
            }
            let before = known.clone();
            for node in 0..n {
                if before.contains_key(&node) {
                    continue;
                }
                let pos = Ladder::unrank(level, u64::from(node), &NoRules);
                let vals: Vec<Option<Dtz>> = pos
                    .moves()
                    .into_iter()
                    .map(|m| {
                        let child = pos.play(m);
                        match child.terminal() {
                            Some(end) if end.outcome == Outcome::Draw => Some(Dtz::Draw),
                            Some(_) => Some(Dtz::Win(1)),
                            None if m & EXIT != 0 => {
                                Some(solved[child.level as usize][child.node as usize].before(true))
                            }
                            None => before.get(&child.node).map(|v| v.before(false)),
                        }
                    })
                    .collect();
                let v = if vals.contains(&Some(Dtz::Win(d))) {
                    Dtz::Win(d)
                } else if vals.iter().all(|v| matches!(v, Some(Dtz::Loss(_))))
                    && vals.iter().flatten().map(|v| v.rank()).max() == Some(Dtz::Loss(d).rank())
                    || vals.is_empty() && d == 0
                {
                    Dtz::Loss(d)
                } else {
                    continue;
                };
                known.insert(node, v);
                last = d;
            }
        }
        solved.push(
            (0..n)
                .map(|i| known.get(&i).copied().unwrap_or(Dtz::Draw))
                .collect(),
        );
    }
    solved
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("koma-tables-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a temporary folder");
    d
}

fn settings(root: &Path, every: u64) -> JobSettings {
    JobSettings {
        root: root.to_path_buf(),
        max_pieces: 3,
        unit: None,
        checkpoints: Checkpoints {
            folder: root.join("checkpoints"),
            secs: u64::MAX,
            entries: every,
            threads: 1,
            full_sweeps: false,
        },
    }
}

fn files(root: &Path) -> Vec<Vec<u8>> {
    let t = Tables::<Ladder>::open(root, &NoRules);
    (0..3)
        .map(|l| std::fs::read(t.path(l)).expect("a table file"))
        .collect()
}

#[test]
fn the_generator_agrees_with_a_plain_solver_and_passes_its_check() {
    let root = temp_dir("plain");
    run_job::<Ladder>(&NoRules, &settings(&root, u64::MAX), &mut |_| {}).expect("solved");
    let tables = Tables::<Ladder>::open(&root, &NoRules);
    let plain = plain_solve();
    let mut kinds = [0u32; 3];
    for l in 0..3u8 {
        let v = tables.values(l).expect("a table");
        for (i, &b) in v.iter().enumerate() {
            assert_eq!(Dtz::decode(b), plain[l as usize][i], "level {l} node {i}");
            kinds[(Dtz::decode(b).wdl() + 1) as usize] += 1;
        }
    }
    assert!(
        kinds.iter().all(|&k| k > 100),
        "wins, draws and losses: {kinds:?}"
    );
    assert_eq!(
        check(&tables, &[0, 1, 2], &mut |_| {}),
        Ok(400 + 3000 + 9000)
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn threads_give_the_same_bytes() {
    let one = temp_dir("one-thread");
    run_job::<Ladder>(&NoRules, &settings(&one, u64::MAX), &mut |_| {}).expect("solved");
    let three = temp_dir("three-threads");
    let mut s = settings(&three, u64::MAX);
    s.checkpoints.threads = 3;
    run_job::<Ladder>(&NoRules, &s, &mut |_| {}).expect("solved");
    assert_eq!(files(&one), files(&three));
    for d in [one, three] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn the_check_finds_one_wrong_distance() {
    let root = temp_dir("wrong");
    run_job::<Ladder>(&NoRules, &settings(&root, u64::MAX), &mut |_| {}).expect("solved");
    let t = Tables::<Ladder>::open(&root, &NoRules);
    let mut v = t.values(1).expect("a table").to_vec();
    let i = v
        .iter()
        .position(|&b| b == Dtz::Win(3).encode())
        .expect("a win in 3");
    v[i] = Dtz::Win(5).encode();
    file::write(&t.path(1), &t.identity(1), &v).expect("written");
    let err = check(
        &Tables::<Ladder>::open(&root, &NoRules),
        &[0, 1, 2],
        &mut |_| {},
    )
    .unwrap_err();
    assert!(err.contains(&format!("1 entry {i} ")), "{err}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_table_file_of_another_identity_or_corrupt_is_refused() {
    let root = temp_dir("refuse");
    run_job::<Ladder>(&NoRules, &settings(&root, u64::MAX), &mut |_| {}).expect("solved");
    let t = Tables::<Ladder>::open(&root, &NoRules);
    let id = t.identity(1);
    assert!(file::read(&t.path(1), &id).is_ok());
    let other = |f: &dyn Fn(&mut Identity)| {
        let mut i = id.clone();
        f(&mut i);
        file::read(&t.path(1), &i).unwrap_err()
    };
    assert!(other(&|i| i.game = "kaninariebi".into()).contains("another game"));
    assert!(other(&|i| i.rules = "KaniBondAnyType".into()).contains("another rule options"));
    assert!(other(&|i| i.signature = "2".into()).contains("another signature"));
    assert!(other(&|i| i.entries += 1).contains("entries"));
    let mut bytes = std::fs::read(t.path(1)).expect("read");
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(t.path(1), &bytes).expect("written");
    let err = file::read(&t.path(1), &id).unwrap_err();
    assert!(err.contains("checksum mismatch"), "{err}");
    bytes[8] = 9;
    std::fs::write(t.path(1), &bytes).expect("written");
    assert!(
        file::read(&t.path(1), &id)
            .unwrap_err()
            .contains("version 9")
    );
    std::fs::write(t.path(1), &bytes[..100]).expect("written");
    assert!(
        file::read(&t.path(1), &id)
            .unwrap_err()
            .contains("truncated")
    );
    // The job does not take the bad file for a finished table.
    run_job::<Ladder>(&NoRules, &settings(&root, u64::MAX), &mut |_| {}).expect("solved again");
    assert!(file::read(&t.path(1), &id).is_ok());
    let _ = std::fs::remove_dir_all(&root);
}

/// The worker the kill test starts as a child process (this test binary,
/// this test alone): the job in `KOMA_LADDER_ROOT`, a checkpoint every 1000
/// entries, a line on stdout after each 500 entries visited.
#[test]
#[ignore = "run by killed_runs_resume_to_the_same_bytes as a child process"]
fn ladder_worker() {
    let Some(root) = std::env::var_os("KOMA_LADDER_ROOT") else {
        return;
    };
    let mut s = settings(Path::new(&root), 1000);
    s.checkpoints.entries = 1000;
    run_job::<Ladder>(&NoRules, &s, &mut |l| println!("{l}")).expect("solved");
    println!("worker done");
}

/// Runs the job in child processes killed (SIGKILL) after the `k`-th line
/// of progress each, until one finishes: the files are those of a run
/// never interrupted.
#[test]
fn killed_runs_resume_to_the_same_bytes() {
    use std::io::BufRead;
    let whole = temp_dir("whole");
    run_job::<Ladder>(&NoRules, &settings(&whole, u64::MAX), &mut |_| {}).expect("solved");
    let want = files(&whole);
    let root = temp_dir("killed");
    let exe = std::env::current_exe().expect("the test binary");
    let (mut kills, mut resumed) = (0, 0);
    for k in [3usize, 1, 5, 2, 4, 7, 1, 3] {
        let mut child = std::process::Command::new(&exe)
            .args([
                "--exact",
                "solve::tables::tests::ladder_worker",
                "--ignored",
            ])
            .args(["--nocapture", "--test-threads=1"])
            .env("KOMA_LADDER_ROOT", &root)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the worker starts");
        let out = child.stdout.take().expect("its output");
        let mut lines = std::io::BufReader::new(out).lines();
        let mut seen = 0;
        let mut done = false;
        for line in lines.by_ref() {
            let line = line.expect("a line");
            done |= line.contains("worker done");
            resumed += usize::from(line.contains("resumed from"));
            seen += usize::from(line.contains("sweep"));
            if seen >= k && !done {
                child.kill().expect("killed");
                kills += 1;
                break;
            }
        }
        let _ = child.wait();
        if done {
            break;
        }
    }
    assert!(kills >= 3, "killed {kills} times");
    assert!(resumed >= 2, "resumed {resumed} times");
    // Finish (or confirm) in this process.
    run_job::<Ladder>(&NoRules, &settings(&root, u64::MAX), &mut |_| {}).expect("solved");
    assert_eq!(files(&root), want);
    for d in [whole, root] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// `best_move` keeps the value and makes progress: a win's move leads to a
/// loss one ply nearer the exit (or is the winning exit), a loss's to the
/// latest win, a draw's to a draw; and a move repeating a position for the
/// fourth time is a draw whatever the table says.
#[test]
fn the_best_move_keeps_the_value_and_makes_progress() {
    use crate::core::History;
    let root = temp_dir("probe");
    run_job::<Ladder>(&NoRules, &settings(&root, u64::MAX), &mut |_| {}).expect("solved");
    let t = Tables::<Ladder>::open(&root, &NoRules);
    let mut seen = [0u32; 3];
    for node in 0..SIZE[2] {
        let pos = Ladder::unrank(2, u64::from(node), &NoRules);
        let v = t.probe(&pos).expect("in the tables");
        let Some((m, best)) = t.best_move(&pos, &History::starting_at(&pos)) else {
            assert_eq!(v, Dtz::Loss(0), "node {node}: no move");
            continue;
        };
        assert_eq!(best, v, "node {node}");
        let child = pos.play(m);
        if !pos.is_exit(m) {
            let c = t.probe(&child).expect("in the tables");
            match v {
                Dtz::Win(d) => assert_eq!(c, Dtz::Loss(d - 1), "node {node}"),
                Dtz::Loss(d) => assert_eq!(c, Dtz::Win(d - 1), "node {node}"),
                Dtz::Draw => assert_eq!(c, Dtz::Draw, "node {node}"),
            }
        }
        seen[(v.wdl() + 1) as usize] += 1;
        // The same move after its position was seen three times.
        if matches!(v, Dtz::Win(_)) && !pos.is_exit(m) {
            let mut h = History::starting_at(&pos);
            for _ in 0..3 {
                h.push(child.repetition_key());
                h.push(pos.repetition_key());
            }
            let moves = t.moves(&pos, &h).expect("in the tables");
            let (_, r) = moves.iter().find(|(x, _)| *x == m).expect("the move");
            assert_eq!(*r, Dtz::Draw, "node {node}");
        }
    }
    assert!(seen.iter().all(|&k| k > 100), "{seen:?}");
    // A folder without the tables: no value, and the reason names the file.
    let empty = temp_dir("empty");
    let none = Tables::<Ladder>::open(&empty, &NoRules);
    let pos = Ladder::unrank(1, 5, &NoRules);
    assert_eq!(none.probe(&pos), None);
    let err = none.lookup(&pos).unwrap_err();
    assert!(
        err.contains("1.ktb") && err.contains("cannot read"),
        "{err}"
    );
    for d in [root, empty] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// The entries visited in each unit's report line.
fn visits(report: &str) -> Vec<u64> {
    report
        .lines()
        .filter_map(|l| l.split(" sweeps, ").nth(1)?.split(' ').next()?.parse().ok())
        .collect()
}

/// Predecessor marking visits fewer entries than full sweeps and gives
/// the same bytes.
#[test]
fn marked_sweeps_give_the_bytes_of_full_sweeps_with_fewer_visits() {
    let full = temp_dir("full-sweeps");
    let mut s = settings(&full, u64::MAX);
    s.checkpoints.full_sweeps = true;
    let slow = run_job::<Ladder>(&NoRules, &s, &mut |_| {}).expect("solved");
    let marked = temp_dir("marked-sweeps");
    let fast =
        run_job::<Ladder>(&NoRules, &settings(&marked, u64::MAX), &mut |_| {}).expect("solved");
    assert_eq!(files(&full), files(&marked));
    let (slow, fast) = (visits(&slow), visits(&fast));
    assert_eq!(slow.len(), 3, "{slow:?}");
    assert!(
        slow.iter().zip(&fast).all(|(s, f)| f < s),
        "{fast:?} against {slow:?}"
    );
    for d in [full, marked] {
        let _ = std::fs::remove_dir_all(d);
    }
}
