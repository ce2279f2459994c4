//! Live analysis: one engine thinking without a limit (`go infinite`) on a
//! position the page chose, with 1-5 lines (`MultiPV`). A worker thread
//! owns the engine; the page polls a snapshot of the latest lines, which
//! the worker publishes at most every `PUBLISH_EVERY` however fast the
//! engine talks, so what reaches the page is bounded by that, not by
//! the engine. A new position (or line count) stops the search and starts
//! the next; an analysis nobody polls is closed by the registry's sweeper.

use crate::client::handshake::{self, EngineStart, Timeouts};
use crate::client::process::{EngineProc, Event, Launch, Recv};
use crate::core::{Color, MoveText, OptionValue};
use crate::protocol::{Command, GoParams, InfoLine, InfoScore, Reply, parse_reply};
use serde::Serialize;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The most lines an analysis shows.
pub const MAX_LINES: u32 = 5;
/// How often at most the page's snapshot changes.
pub const PUBLISH_EVERY: Duration = Duration::from_millis(100);
/// Moves kept of each line's principal variation.
const PV_MOVES: usize = 24;

/// A score as the engine gave it, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ScoreView {
    Cp(i32),
    Mate(i32),
}

impl From<InfoScore> for ScoreView {
    fn from(s: InfoScore) -> ScoreView {
        match s {
            InfoScore::Cp(v) => ScoreView::Cp(v),
            InfoScore::Mate(m) => ScoreView::Mate(m),
        }
    }
}

/// One line of the analysis as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineView {
    multipv: u32,
    depth: Option<u32>,
    seldepth: Option<u32>,
    score: Option<ScoreView>,
    nodes: Option<u64>,
    nps: Option<u64>,
    time: Option<u64>,
    pv: Vec<String>,
}

/// A position to think about.
#[derive(Clone, Debug)]
pub struct Target {
    /// The `position` command.
    pub command: String,
    pub side: Color,
    pub lines: u32,
    /// A depth to stop at (`go depth`) instead of `go infinite`.
    pub depth: Option<u32>,
}

/// Where the analysis is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase", tag = "state", content = "detail")]
pub enum Status {
    /// The engine is being started (`uci`, options, `isready`).
    Starting,
    Thinking,
    /// The engine ended the search by itself (`bestmove` without `stop`).
    Done,
    /// The engine failed; the analysis is over.
    Failed(String),
}

pub struct LiveState {
    target: Target,
    /// Grows with every new target: the worker restarts when it changes.
    pub generation: u64,
    /// The lines the page sees; the last whole set of lines (up to the
    /// highest `multipv` the search has sent, so all of one iteration:
    /// never line 1 of a new depth beside line 2 of the old, which may
    /// start with the same move); and the lines as they come.
    shown: Vec<Option<LineView>>,
    ready: Vec<Option<LineView>>,
    pending: Vec<Option<LineView>>,
    /// The highest `multipv` of this search so far.
    last_line: usize,
    published: Instant,
    pub status: Status,
    pub closed: bool,
    pub last_seen: Instant,
    pid: Option<u32>,
    warnings: Vec<String>,
    /// One of the server's analysis slots while the engine thinks: given
    /// back when a search ends by itself, taken again for the next.
    pub slot: Option<super::Slot>,
    /// `info` lines read from the engine, and snapshots published.
    info_lines: u64,
    updates: u64,
    started: Instant,
}

pub struct Live {
    pub id: u64,
    pub command: String,
    /// The game and rules every position of this analysis is of (the
    /// engine was set up for them).
    pub game: crate::games::GameId,
    pub rules: crate::core::RuleValues,
    state: Mutex<LiveState>,
    wake: Condvar,
}

/// Why an analysis takes no new position.
#[derive(Debug)]
pub enum Refusal {
    /// It failed and is over.
    Failed(String),
    /// Its search had ended and every analysis slot is taken.
    Busy(String),
}

/// What the page polls.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LiveView<'a> {
    id: u64,
    generation: u64,
    #[serde(flatten)]
    status: &'a Status,
    /// The side to move: the lines' scores are from its view.
    side: &'static str,
    multipv: u32,
    lines: Vec<&'a LineView>,
    engine: &'a str,
    pid: Option<u32>,
    warnings: &'a [String],
    info_lines: u64,
    updates: u64,
    ms: u64,
}

impl Live {
    pub fn new(
        id: u64,
        command: String,
        game: crate::games::GameId,
        rules: crate::core::RuleValues,
        target: Target,
    ) -> Live {
        let n = target.lines as usize;
        Live {
            id,
            command,
            game,
            rules,
            state: Mutex::new(LiveState {
                target,
                generation: 1,
                shown: vec![None; n],
                ready: vec![None; n],
                pending: vec![None; n],
                last_line: 0,
                published: Instant::now(),
                status: Status::Starting,
                closed: false,
                last_seen: Instant::now(),
                pid: None,
                warnings: Vec::new(),
                slot: None,
                info_lines: 0,
                updates: 0,
                started: Instant::now(),
            }),
            wake: Condvar::new(),
        }
    }

    pub fn lock(&self) -> MutexGuard<'_, LiveState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new position or line count: the search restarts on it. An
    /// analysis whose search had ended takes a slot (`take`) first.
    pub fn retarget(
        &self,
        target: Target,
        take: impl FnOnce() -> Result<super::Slot, String>,
    ) -> Result<(), Refusal> {
        let mut st = self.lock();
        if let Status::Failed(why) = &st.status {
            return Err(Refusal::Failed(format!(
                "the analysis failed ({why}): start a new one"
            )));
        }
        if st.slot.is_none() {
            st.slot = Some(take().map_err(Refusal::Busy)?);
        }
        let n = target.lines as usize;
        st.target = target;
        st.generation += 1;
        st.shown = vec![None; n];
        st.ready = vec![None; n];
        st.pending = vec![None; n];
        st.last_line = 0;
        st.started = Instant::now();
        if st.status == Status::Done {
            st.status = Status::Thinking;
        }
        drop(st);
        self.wake.notify_all();
        Ok(())
    }

    pub fn close(&self) {
        self.lock().closed = true;
        self.wake.notify_all();
    }
}

impl LiveState {
    pub fn view<'a>(&'a self, live: &'a Live) -> LiveView<'a> {
        LiveView {
            id: live.id,
            generation: self.generation,
            status: &self.status,
            side: super::play::side_name(self.target.side),
            multipv: self.target.lines,
            lines: self.shown.iter().flatten().collect(),
            engine: &live.command,
            pid: self.pid,
            warnings: &self.warnings,
            info_lines: self.info_lines,
            updates: self.updates,
            ms: self.started.elapsed().as_millis() as u64,
        }
    }

    /// Shows the last whole set of lines when the last snapshot is old
    /// enough, or (`now`: the search ended) the lines as they are.
    fn publish(&mut self, now: bool) {
        if now {
            self.ready.clone_from(&self.pending);
        }
        if self.ready == self.shown {
            return;
        }
        if now || self.published.elapsed() >= PUBLISH_EVERY {
            self.shown.clone_from(&self.ready);
            self.published = Instant::now();
            self.updates += 1;
        }
    }

    /// One `info` line of the search for `generation`.
    fn info(&mut self, generation: u64, i: &InfoLine) {
        self.info_lines += 1;
        if generation != self.generation || i.pv.is_empty() || i.score.is_none() {
            return;
        }
        // An engine without MultiPV sends no `multipv`: its one line.
        let k = i.multipv.unwrap_or(1) as usize;
        let Some(slot) = self.pending.get_mut(k.wrapping_sub(1)) else {
            return;
        };
        *slot = Some(LineView {
            multipv: k as u32,
            depth: i.depth,
            seldepth: i.seldepth,
            score: i.score.map(ScoreView::from),
            nodes: i.nodes,
            nps: i.nps,
            time: i.time,
            pv: i
                .pv
                .iter()
                .take(PV_MOVES)
                .map(MoveText::to_string)
                .collect(),
        });
        self.last_line = self.last_line.max(k);
        if k == self.last_line {
            self.ready.clone_from(&self.pending);
        }
        self.publish(false);
    }
}

/// What a worker needs to start its engine.
pub struct EngineSetup {
    pub launch: Launch,
    pub variant: &'static str,
    pub rules: Vec<(&'static str, OptionValue)>,
    pub timeouts: Timeouts,
}

/// The worker: starts the engine, then searches each target until the
/// analysis closes or the engine fails; the engine is quit on the way out.
pub fn run(live: &Live, setup: &EngineSetup) {
    let name = setup.launch.short_name();
    let start = EngineStart {
        name: &name,
        launch: &setup.launch,
        options: &[],
        variant: setup.variant,
        rules: &setup.rules,
        log: None,
    };
    let t = setup.timeouts;
    let mut engine = match handshake::start(&start, &t) {
        Ok((e, warnings)) => {
            let mut st = live.lock();
            st.pid = Some(e.pid());
            st.warnings = warnings;
            e
        }
        Err(why) => {
            live.lock().status = Status::Failed(format!("the engine did not start: {why}"));
            return;
        }
    };
    if let Err(f) = handshake::new_game(&mut engine, &t) {
        live.lock().status = Status::Failed(format!("the engine did not get ready: {}", f.detail));
        return;
    }
    let mut done = 0;
    loop {
        let (target, generation) = {
            let mut st = live.lock();
            while !st.closed && st.generation == done {
                st = live.wake.wait(st).unwrap_or_else(|e| e.into_inner());
            }
            if st.closed {
                break;
            }
            st.status = Status::Thinking;
            (st.target.clone(), st.generation)
        };
        done = generation;
        match search(live, &mut engine, &target, generation, &t) {
            Ok(ended) => {
                let mut st = live.lock();
                st.publish(true);
                if ended && st.generation == generation {
                    st.status = Status::Done;
                    // An engine waiting for a position does not count
                    // against the server's limit.
                    st.slot = None;
                }
            }
            Err(why) => {
                let mut st = live.lock();
                st.publish(true);
                st.status = Status::Failed(why);
                break;
            }
        }
    }
    engine.quit(Duration::from_millis(300));
}

/// One search: `position`, `go infinite`, then the engine's lines until
/// the target changes or the analysis closes (then `stop` and its
/// `bestmove`). `Ok(true)` when the engine ended the search by itself.
/// A silent engine is asked `isready` after the heartbeat and fails when
/// that goes unanswered for the stall timeout.
fn search(
    live: &Live,
    e: &mut EngineProc,
    target: &Target,
    generation: u64,
    t: &Timeouts,
) -> Result<bool, String> {
    let go = Command::Go(GoParams {
        infinite: target.depth.is_none(),
        depth: target.depth,
        ..GoParams::default()
    });
    let lines = Command::SetOption {
        name: "MultiPV".into(),
        value: Some(target.lines.to_string()),
    };
    for line in [lines.to_string(), target.command.clone(), go.to_string()] {
        e.send(&line)
            .map_err(|why| format!("the engine went away: {why}"))?;
    }
    let mut heard = Instant::now();
    let mut ping: Option<Instant> = None;
    loop {
        {
            let mut st = live.lock();
            if st.closed || st.generation != generation {
                drop(st);
                return stop(e, t).map(|_| false);
            }
            st.publish(false);
        }
        let wake = (Instant::now() + PUBLISH_EVERY).min(ping.unwrap_or(heard + t.heartbeat));
        let now = match e.recv(wake) {
            Recv::Event(Event::Line(at, line)) => {
                heard = at;
                match parse_reply(&line) {
                    Ok(Reply::BestMove { .. }) => return Ok(true),
                    Ok(Reply::ReadyOk) => ping = None,
                    Ok(Reply::Info(i)) => live.lock().info(generation, &i),
                    // Anything else is ignored: an analysis has no game to lose.
                    _ => {}
                }
                at
            }
            Recv::Event(Event::Unreadable(..)) => Instant::now(),
            Recv::Event(Event::Closed(_)) => {
                return Err(format!(
                    "the engine ended: {}",
                    e.exit_description(Duration::from_millis(500))
                ));
            }
            Recv::Timeout => Instant::now(),
        };
        match ping {
            Some(p) if now >= p => {
                return Err(format!(
                    "the engine stopped answering: no readyok within {} ms of isready",
                    t.stall.as_millis()
                ));
            }
            None if now >= heard + t.heartbeat => {
                e.send(&Command::IsReady.to_string())
                    .map_err(|why| format!("the engine went away: {why}"))?;
                ping = Some(now + t.stall);
            }
            _ => {}
        }
    }
}

/// `stop`, then the `bestmove` that ends the search, within the stall
/// timeout.
fn stop(e: &mut EngineProc, t: &Timeouts) -> Result<(), String> {
    e.send(&Command::Stop.to_string())
        .map_err(|why| format!("the engine went away: {why}"))?;
    let deadline = Instant::now() + t.stall;
    loop {
        match e.recv(deadline) {
            Recv::Event(Event::Line(_, l)) => {
                if let Ok(Reply::BestMove { .. }) = parse_reply(&l) {
                    return Ok(());
                }
            }
            Recv::Event(Event::Unreadable(..)) => {}
            Recv::Event(Event::Closed(_)) => return Err("the engine ended after stop".into()),
            Recv::Timeout => {
                return Err(format!(
                    "the engine did not answer stop within {} ms",
                    t.stall.as_millis()
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parse_reply;

    fn info(line: &str) -> InfoLine {
        match parse_reply(line) {
            Ok(Reply::Info(i)) => i,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn lines_are_kept_by_multipv_and_an_engine_without_it_shows_one() {
        let target = Target {
            command: "position startpos".into(),
            side: Color::First,
            lines: 2,
            depth: None,
        };
        let live = Live::new(
            1,
            "e".into(),
            crate::games::GameId::DEFAULT,
            Vec::new(),
            target,
        );
        let mut st = live.lock();
        st.info(1, &info("info depth 3 score cp 12 pv a2d2"));
        st.info(1, &info("info depth 3 multipv 2 score cp -5 pv a3d3"));
        st.info(1, &info("info depth 3 multipv 3 score cp -9 pv a4d4"));
        st.info(1, &info("info string hello"));
        // A report of an older search is dropped.
        st.info(0, &info("info depth 9 multipv 1 score cp 99 pv a1a2"));
        // Line 1 of the next depth is not shown beside line 2 of the last
        // until line 2 of the next depth has come too.
        st.published = Instant::now() - PUBLISH_EVERY;
        st.info(1, &info("info depth 4 multipv 1 score cp 20 pv a3d3"));
        st.published = Instant::now() - PUBLISH_EVERY;
        st.publish(false);
        assert_eq!(st.shown[0].as_ref().unwrap().pv, ["a2d2"]);
        st.info(1, &info("info depth 4 multipv 2 score cp 10 pv a2d2"));
        st.publish(false);
        assert_eq!(st.shown[0].as_ref().unwrap().pv, ["a3d3"]);
        assert_eq!(st.shown[1].as_ref().unwrap().pv, ["a2d2"]);
        st.info(1, &info("info depth 5 multipv 1 score cp 12 pv a2d2"));
        st.publish(true);
        let v = st.view(&live);
        assert_eq!(v.lines.len(), 2);
        // The search ended: the lines as they are.
        assert_eq!(v.lines[0].pv, ["a2d2"]);
        assert_eq!(v.lines[1].score, Some(ScoreView::Cp(10)));
        assert_eq!(v.info_lines, 8);
    }
}
