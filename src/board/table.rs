//! A table: one game on the board, its players (people at the page, or
//! engine processes), clocks, and its end. Each table has a worker thread
//! that plays the engines' turns through `client` (the handshake, one
//! `play_turn` per move, the clocks and end reasons the referee uses too)
//! and ends a person's turn when their clock runs out. The worker spawns
//! and drops its engines itself (see `client::process` on why that
//! matters).
//!
//! Everything the page sees is behind one mutex; `version` grows with
//! every change the page must redraw for (the engine's thinking and the
//! clocks are sent on every poll instead).

use super::play::{Legal, MoveCheck, Play, View, position_command, shown, side_name};
use super::review::{AnalysisView, GameAnalysis};
use crate::client::clock::{Clock, EngineLimits};
use crate::client::engine_log::record_date;
use crate::client::handshake::{EngineStart, Timeouts};
use crate::client::process::Launch;
use crate::client::reason::{Ending, Failure, Reason};
use crate::client::seat::Seat;
use crate::client::turn::{Played, Turn, Watch, comment, overrun, play_turn};
use crate::core::{Color, MoveText, Outcome, ReplayError};
use crate::protocol::record::{Record, RecordMove};
use crate::protocol::{InfoLine, InfoScore};
use serde::{Serialize, Serializer};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Who plays one side.
#[derive(Clone, Debug)]
pub enum Role {
    /// Someone at the page.
    Human,
    /// An engine process.
    Engine(EngineSpec),
    /// Nobody: a record being stepped through.
    Viewer,
}

#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub launch: Launch,
    /// The command as the page shows it.
    pub command: String,
    /// One of the engine's levels (`LEVEL_OPTION`); `None` sends none.
    pub level: Option<String>,
}

#[derive(Clone, Debug)]
pub struct Player {
    pub role: Role,
    pub name: String,
    pub limits: EngineLimits,
}

impl Player {
    fn is_engine(&self) -> bool {
        matches!(self.role, Role::Engine(_))
    }

    fn view(&self) -> PlayerView<'_> {
        let (kind, engine) = match &self.role {
            Role::Human => ("human", None),
            Role::Engine(e) => ("engine", Some(e)),
            Role::Viewer => ("none", None),
        };
        PlayerView {
            kind,
            name: &self.name,
            command: engine.map(|e| e.command.as_str()),
            level: engine.and_then(|e| e.level.as_deref()),
            limits: self.limits.to_string(),
        }
    }
}

#[derive(Serialize)]
struct PlayerView<'a> {
    kind: &'static str,
    name: &'a str,
    command: Option<&'a str>,
    level: Option<&'a str>,
    limits: String,
}

/// The engine's latest search report, as the page shows it (`ms`: since
/// the search began).
#[derive(Clone, Debug, Default, Serialize)]
struct Thinking {
    side: usize,
    #[serde(rename = "ms", serialize_with = "elapsed_ms")]
    since: Option<Instant>,
    depth: Option<u32>,
    seldepth: Option<u32>,
    #[serde(serialize_with = "score_view")]
    score: Option<InfoScore>,
    nodes: Option<u64>,
    nps: Option<u64>,
    time: Option<u64>,
    #[serde(serialize_with = "shown_all")]
    pv: Vec<MoveText>,
    string: Option<String>,
}

fn elapsed_ms<S: Serializer>(since: &Option<Instant>, s: S) -> Result<S::Ok, S::Error> {
    let ms = since.map(|t| t.elapsed().as_millis() as u64);
    ms.serialize(s)
}

/// `{"cp": v}` or `{"mate": m}`.
fn score_view<S: Serializer>(score: &Option<InfoScore>, s: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    #[serde(rename_all = "lowercase")]
    enum ScoreView {
        Cp(i32),
        Mate(i32),
    }
    let view = score.map(|v| match v {
        InfoScore::Cp(v) => ScoreView::Cp(v),
        InfoScore::Mate(m) => ScoreView::Mate(m),
    });
    view.serialize(s)
}

fn shown_all<S: Serializer>(moves: &[MoveText], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(moves.iter().map(MoveText::to_string))
}

impl Thinking {
    fn update(&mut self, i: &InfoLine) {
        if let Some(s) = &i.string {
            self.string = Some(s.chars().take(200).collect());
        }
        if i.depth.is_none() && i.score.is_none() && i.pv.is_empty() {
            return;
        }
        self.depth = i.depth.or(self.depth);
        self.seldepth = i.seldepth.or(self.seldepth);
        self.score = i.score.or(self.score);
        self.nodes = i.nodes.or(self.nodes);
        self.nps = i.nps.or(self.nps);
        self.time = i.time.or(self.time);
        if !i.pv.is_empty() {
            self.pv = i.pv.iter().take(40).copied().collect();
        }
    }
}

/// What a record being stepped through says about its own end.
#[derive(Clone, Debug)]
pub struct Review {
    pub tags: Vec<(String, String)>,
    pub result: String,
    pub sentence: Option<String>,
    /// Why the moves stop early (an illegal move in the record).
    pub error: Option<String>,
    /// Whether the referee's `--replay` check finds the record valid.
    pub check: Result<(), String>,
    /// The record as read, saved again with a new review's tags.
    pub record: Record,
}

pub struct TableState {
    pub version: u64,
    pub play: Box<dyn Play>,
    pub players: [Player; 2],
    /// `clocks[k]`: both clocks when `k` moves had been played.
    clocks: Vec<[Clock; 2]>,
    /// When the current turn began.
    turn_started: Instant,
    pub end: Option<Ending>,
    /// Grows on every undo, so a search for a position taken back is
    /// called off.
    generation: u64,
    thinking: Option<Thinking>,
    notes: Vec<String>,
    /// Comments of the moves (engine score and time, or the time).
    comments: Vec<Option<String>>,
    pub closed: bool,
    pub last_seen: Instant,
    pub review: Option<Review>,
    pub max_plies: Option<u32>,
    pub created: String,
    /// The engine's review of the game, running or done.
    pub analysis: Option<GameAnalysis>,
    /// Reviews started on this table, so an old one's results are dropped.
    pub reviews: u64,
    /// Lines tried beside the game's moves in an analysis (or read from
    /// the record), saved with it.
    pub variations: Vec<crate::protocol::record::Variation>,
}

/// Notes kept per table (engine warnings and failures).
const MAX_NOTES: usize = 50;

pub struct Table {
    pub id: u64,
    state: Mutex<TableState>,
    wake: Condvar,
    pub margin: Duration,
    pub timeouts: Timeouts,
}

/// Refusals of the page's actions: HTTP status and message.
pub type Refusal = (u16, String);

impl Table {
    pub fn new(
        id: u64,
        play: Box<dyn Play>,
        players: [Player; 2],
        max_plies: Option<u32>,
        review: Option<Review>,
        margin: Duration,
        timeouts: Timeouts,
    ) -> Table {
        let clocks = [
            Clock::new(&players[0].limits),
            Clock::new(&players[1].limits),
        ];
        let mut st = TableState {
            version: 1,
            comments: vec![None; play.line().plies()],
            play,
            players,
            clocks: vec![clocks],
            turn_started: Instant::now(),
            end: None,
            generation: 0,
            thinking: None,
            notes: Vec::new(),
            closed: false,
            last_seen: Instant::now(),
            review,
            max_plies,
            created: record_date(),
            analysis: None,
            reviews: 0,
            variations: Vec::new(),
        };
        // A record's clocks are not replayed: keep the start clocks for
        // every ply.
        while st.clocks.len() <= st.play.line().plies() {
            let c = st.clocks[0].clone();
            st.clocks.push(c);
        }
        st.check_end();
        Table {
            id,
            state: Mutex::new(st),
            wake: Condvar::new(),
            margin,
            timeouts,
        }
    }

    pub fn lock(&self) -> MutexGuard<'_, TableState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn notify(&self) {
        self.wake.notify_all();
    }

    /// A move by the person to move.
    pub fn human_move(&self, text: &MoveText, ply: Option<usize>) -> Result<(), Refusal> {
        let mut st = self.lock();
        st.refuse_if_over()?;
        let side = st.play.line().side_to_move();
        match st.players[side.index()].role {
            Role::Human => {}
            Role::Engine(_) => {
                return Err((409, format!("it is the engine's turn ({side} to move)")));
            }
            Role::Viewer => return Err((409, "this is a record: nobody moves".into())),
        }
        if let Some(p) = ply
            && p != st.play.line().plies()
        {
            return Err((
                409,
                format!(
                    "the move was meant for ply {p}, but the game is at ply {}",
                    st.play.line().plies()
                ),
            ));
        }
        let elapsed = st.turn_started.elapsed();
        let mut clock = st.current_clocks()[side.index()].clone();
        if let Err(over) = clock.charge(elapsed, self.margin) {
            st.finish(Ending {
                outcome: Reason::loss_of(side),
                reason: Reason::TimeForfeit,
                detail: Some(overrun(over)),
            });
            drop(st);
            self.notify();
            return Err((409, "the clock ran out before the move arrived".into()));
        }
        st.play.line_mut().play_text(text).map_err(|e| match e {
            // One move of a person's: no need to number it.
            ReplayError::Illegal { mv, .. } => (422, format!("{mv} is not a legal move here")),
            ReplayError::AfterEnd { end, .. } => (422, format!("the game is over ({end})")),
        })?;
        st.after_move(side, clock, Some(comment(None, elapsed)));
        drop(st);
        self.notify();
        Ok(())
    }

    /// Takes back the last move of a person and any engine moves after
    /// it (one move in a game between two people).
    pub fn undo(&self) -> Result<(), Refusal> {
        let mut st = self.lock();
        if st.review.is_some() {
            return Err((409, "this is a record: nothing to undo".into()));
        }
        if !st.players.iter().any(|p| matches!(p.role, Role::Human)) {
            return Err((409, "undo is for games with a person playing".into()));
        }
        let mut plies = st.play.line().plies();
        if plies == 0 {
            return Err((409, "no move to take back".into()));
        }
        plies -= 1;
        st.play.line_mut().undo_to(plies);
        // Back to a position where a person is to move.
        while plies > 0 && st.players[st.play.line().side_to_move().index()].is_engine() {
            plies -= 1;
            st.play.line_mut().undo_to(plies);
        }
        st.clocks.truncate(plies + 1);
        st.comments.truncate(plies);
        st.analysis = None;
        st.end = None;
        st.generation += 1;
        st.thinking = None;
        st.turn_started = Instant::now();
        st.note(format!("moves taken back to ply {plies}"));
        st.check_end();
        st.version += 1;
        drop(st);
        self.notify();
        Ok(())
    }

    pub fn close(&self) {
        let mut st = self.lock();
        st.closed = true;
        st.version += 1;
        drop(st);
        self.notify();
    }
}

impl TableState {
    /// The comments of moves already played (a loaded record's).
    pub fn set_comments(&mut self, mut comments: Vec<Option<String>>) {
        comments.resize(self.play.line().plies(), None);
        self.comments = comments;
        self.version += 1;
    }

    fn refuse_if_over(&self) -> Result<(), Refusal> {
        if self.closed {
            return Err((409, "this game was closed".into()));
        }
        if let Some(e) = &self.end {
            return Err((409, format!("the game is over ({})", e.reason.message())));
        }
        Ok(())
    }

    fn current_clocks(&self) -> &[Clock; 2] {
        // Never empty: it starts with the start clocks.
        &self.clocks[self.clocks.len() - 1]
    }

    pub fn note(&mut self, text: String) {
        if self.notes.len() >= MAX_NOTES {
            self.notes.remove(0);
        }
        self.notes.push(text);
    }

    /// After a move is played: the mover's charged clock, the comment,
    /// the next turn, and the end.
    fn after_move(&mut self, side: Color, clock: Clock, comment: Option<String>) {
        let mut clocks = self.current_clocks().clone();
        clocks[side.index()] = clock;
        self.clocks.push(clocks);
        self.comments.push(comment);
        self.turn_started = Instant::now();
        self.thinking = None;
        self.check_end();
        self.version += 1;
    }

    fn finish(&mut self, e: Ending) {
        if self.end.is_none() {
            self.end = Some(e);
            self.thinking = None;
            self.version += 1;
        }
    }

    /// Ends the game when the rules or the ply limit say so.
    fn check_end(&mut self) {
        if self.end.is_some() || self.review.is_some() {
            return;
        }
        let status = self.play.line().status();
        if let Some(e) = Ending::of_game(status, self.play.line().plies(), self.max_plies) {
            self.finish(e);
        }
    }

    pub fn names(&self) -> [&str; 2] {
        [&self.players[0].name, &self.players[1].name]
    }

    /// Whether the side to move is a person whose turn it is now.
    fn human_to_move(&self) -> bool {
        self.end.is_none()
            && !self.closed
            && matches!(
                self.players[self.play.line().side_to_move().index()].role,
                Role::Human
            )
    }

    /// The clocks as the page shows them, the running one counted down
    /// to now.
    fn clock_views(&self) -> [ClockView; 2] {
        let to_move = self.play.line().side_to_move().index();
        let running = self.end.is_none() && !self.closed && self.review.is_none();
        let clocks = self.current_clocks();
        std::array::from_fn(|i| {
            let live = running && i == to_move;
            let spent = match live {
                true => self.turn_started.elapsed(),
                false => Duration::ZERO,
            };
            ClockView {
                running: live,
                ms: (clocks[i].time_ms()).map(|t| t.saturating_sub(spent.as_millis() as u64)),
                inc: clocks[i].inc_ms(),
                move_ms: (self.players[i].limits.movetime)
                    .map(|m| (m.saturating_sub(spent)).as_millis() as u64),
            }
        })
    }

    pub fn end_view(&self) -> Option<EndView> {
        self.end.as_ref().map(|e| EndView {
            result: e.outcome.score_text(),
            reason: e.reason.message(),
            sentence: e.sentence(self.names()),
            detail: e.detail.clone(),
            winner: match e.outcome {
                Outcome::Win(c) => Some(c.index()),
                Outcome::Draw => None,
            },
        })
    }

    fn review_view(&self) -> Option<ReviewView<'_>> {
        self.review.as_ref().map(|r| ReviewView {
            tags: &r.tags,
            result: &r.result,
            sentence: r.sentence.as_deref(),
            error: r.error.as_deref(),
            valid: r.check.is_ok(),
            check: r.check.as_ref().err(),
            rules_end: self.play.line().status().map(|e| e.to_string()),
        })
    }

    /// What the page polls for: everything when `since` is not the
    /// current version, else only the clocks and the engine's thinking.
    pub fn view(&self, id: u64, since: Option<u64>, ply: Option<usize>) -> TableView<'_> {
        let full = (since != Some(self.version) || ply.is_some()).then(|| {
            let plies = self.play.line().plies();
            let view_ply = ply.unwrap_or(plies).min(plies);
            let moves = self.play.line().moves().iter().enumerate();
            FullView {
                full: true,
                game: self.play.line().game(),
                files: self.play.line().files(),
                ranks: self.play.line().ranks(),
                rules: (self.play.rules().iter())
                    .map(|(n, v)| (*n, v.to_string()))
                    .collect(),
                players: [self.players[0].view(), self.players[1].view()],
                plies,
                to_move: side_name(self.play.line().side_to_move()),
                human_to_move: self.human_to_move(),
                view: self.play.view(view_ply),
                moves: moves
                    .map(|(k, &text)| MoveView {
                        text,
                        comment: self.comments.get(k).and_then(Option::as_deref),
                    })
                    .collect(),
                legal: (view_ply == plies && self.human_to_move()).then(|| self.play.legal()),
                end: self.end_view(),
                review: self.review_view(),
                notes: &self.notes,
                analysis: (self.analysis.as_ref())
                    .map(|a| a.view(self.play.line().moves(), self.play.game())),
                can_undo: self.review.is_none()
                    && plies > 0
                    && self.players.iter().any(|p| matches!(p.role, Role::Human)),
                start: self.play.line().position_text(0).to_string(),
                variations: super::variations::view(&self.variations),
            }
        });
        TableView {
            id,
            version: self.version,
            clocks: self.clock_views(),
            thinking: self.thinking.as_ref(),
            closed: self.closed,
            full,
        }
    }

    /// The moves with their comments, for the record.
    pub fn record_moves(&self) -> Vec<RecordMove> {
        self.play
            .line()
            .moves()
            .iter()
            .enumerate()
            .map(|(k, &mv)| RecordMove {
                mv,
                comment: self.comments.get(k).cloned().flatten(),
            })
            .collect()
    }
}

/// A table as the page polls it: the clocks and the engine's thinking
/// always, the rest when something changed.
#[derive(Serialize)]
pub struct TableView<'a> {
    id: u64,
    version: u64,
    clocks: [ClockView; 2],
    thinking: Option<&'a Thinking>,
    closed: bool,
    #[serde(flatten)]
    full: Option<FullView<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FullView<'a> {
    full: bool,
    game: &'static str,
    files: u8,
    ranks: u8,
    rules: Vec<(&'static str, String)>,
    players: [PlayerView<'a>; 2],
    plies: usize,
    to_move: &'static str,
    human_to_move: bool,
    view: View,
    moves: Vec<MoveView<'a>>,
    legal: Option<Legal>,
    end: Option<EndView>,
    review: Option<ReviewView<'a>>,
    notes: &'a [String],
    analysis: Option<AnalysisView<'a>>,
    can_undo: bool,
    start: String,
    variations: Vec<super::variations::VariationView>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ClockView {
    running: bool,
    ms: Option<u64>,
    inc: Option<u64>,
    move_ms: Option<u64>,
}

#[derive(Serialize)]
struct MoveView<'a> {
    #[serde(serialize_with = "shown")]
    text: MoveText,
    comment: Option<&'a str>,
}

/// How a game ended: `winner` is the winner's index, `null` for a draw.
#[derive(Serialize)]
pub struct EndView {
    result: &'static str,
    reason: &'static str,
    sentence: String,
    detail: Option<String>,
    winner: Option<usize>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReviewView<'a> {
    tags: &'a [(String, String)],
    result: &'a str,
    sentence: Option<&'a str>,
    error: Option<&'a str>,
    valid: bool,
    check: Option<&'a String>,
    rules_end: Option<String>,
}

/// Follows a search for the table: streams its reports into the state
/// and calls it off when the position changes or the table closes.
struct TableWatch<'a> {
    table: &'a Table,
    generation: u64,
}

impl Watch for TableWatch<'_> {
    fn info(&mut self, info: &InfoLine) {
        let mut st = self.table.lock();
        if st.generation == self.generation
            && let Some(t) = st.thinking.as_mut()
        {
            t.update(info);
        }
    }

    fn cancelled(&mut self) -> bool {
        let st = self.table.lock();
        st.closed || st.generation != self.generation
    }

    fn poll(&self) -> Option<Duration> {
        Some(Duration::from_millis(50))
    }
}

/// The worker of a table: runs until the table closes. It waits while a
/// person is to move (ending their turn when the clock runs out), and
/// plays the engines' turns.
pub fn run_worker(table: &Table) {
    let mut seats: [Seat; 2] = Default::default();
    loop {
        let mut st = table.lock();
        match st.next_job(table.margin) {
            Job::Stop => break,
            Job::Again => {}
            Job::Wait(d) => drop(table.wake.wait_timeout(st, d)),
            Job::Engine(side, spec) => {
                drop(st);
                engine_turn(table, &mut seats[side.index()], side, &spec);
                table.notify();
            }
        }
    }
    for mut s in seats {
        s.quit(Duration::from_millis(300));
    }
}

/// What the worker does next.
enum Job {
    Stop,
    /// Look again at once (the game just ended).
    Again,
    /// Wait for a change, at most this long.
    Wait(Duration),
    /// Play the engine's turn for this side.
    Engine(Color, EngineSpec),
}

/// What an engine's turn needs from the table, taken under the lock.
struct TurnStart {
    position: String,
    clocks: [Clock; 2],
    limits: EngineLimits,
    legal: MoveCheck,
}

impl TableState {
    fn next_job(&mut self, margin: Duration) -> Job {
        if self.closed {
            return Job::Stop;
        }
        self.check_end();
        if self.end.is_some() || self.review.is_some() {
            // Nothing to do until an undo or the close.
            return Job::Wait(Duration::from_secs(1));
        }
        let side = self.play.line().side_to_move();
        match &self.players[side.index()].role {
            Role::Engine(spec) => Job::Engine(side, spec.clone()),
            Role::Human | Role::Viewer => {
                self.person_wait(side, margin).map_or(Job::Again, Job::Wait)
            }
        }
    }

    /// How long to wait for a person's move, at most a second; `None`
    /// when their clock ran out, which ends the game.
    fn person_wait(&mut self, side: Color, margin: Duration) -> Option<Duration> {
        let Some(a) = self.current_clocks()[side.index()].allowance() else {
            return Some(Duration::from_secs(1));
        };
        let deadline = self.turn_started + a + margin;
        let now = Instant::now();
        if now < deadline {
            return Some((deadline - now).min(Duration::from_secs(1)));
        }
        let over = now.duration_since(self.turn_started).saturating_sub(a);
        self.finish(Ending {
            outcome: Reason::loss_of(side),
            reason: Reason::TimeForfeit,
            detail: Some(overrun(over)),
        });
        None
    }

    /// Whether a turn begun at `generation` still counts.
    fn current(&self, generation: u64) -> bool {
        !self.closed && self.generation == generation && self.end.is_none()
    }

    /// An engine's turn begins: its thinking is shown from now on.
    fn begin_turn(&mut self, side: Color, generation: u64) -> Option<TurnStart> {
        if !self.current(generation) {
            return None;
        }
        self.thinking = Some(Thinking {
            side: side.index(),
            since: Some(Instant::now()),
            ..Thinking::default()
        });
        Some(TurnStart {
            position: position_command(self.play.line()),
            clocks: self.current_clocks().clone(),
            limits: self.players[side.index()].limits.clone(),
            legal: self.play.move_check(),
        })
    }

    /// An engine's turn ends: its move is played, or its failure ends the
    /// game, unless the game moved on meanwhile.
    fn end_turn(
        &mut self,
        id: u64,
        side: Color,
        generation: u64,
        played: Result<Played<MoveText>, Failure>,
    ) {
        if !self.current(generation) {
            return;
        }
        match played {
            Ok(p) => match self.play.line_mut().play_text(&p.mv) {
                Ok(_) => self.after_move(side, p.clock, Some(p.comment)),
                // The move was checked on this very position: cannot happen.
                Err(e) => self.finish(Ending::failure(
                    side,
                    Failure::alive(Reason::IllegalMove, e.to_string()),
                )),
            },
            Err(f) => {
                let name = &self.players[side.index()].name;
                let what = format!("{name}: {} ({})", f.detail, f.reason.message());
                self.engine_failed(id, side, generation, f, what);
            }
        }
    }

    /// An engine failed (to start, or on its turn): logged, noted as
    /// `what`, and it loses if the game is still where it was.
    fn engine_failed(&mut self, id: u64, side: Color, generation: u64, f: Failure, what: String) {
        log::warn!("table {id}: {what}");
        if self.generation == generation {
            self.note(what);
            self.finish(Ending::failure(side, f));
        }
    }
}

/// One engine move: the engine started if need be, the turn played with
/// the table unlocked, and its outcome kept only if the game is still
/// where it was (no undo, no close meanwhile).
fn engine_turn(table: &Table, seat: &mut Seat, side: Color, spec: &EngineSpec) {
    let generation = table.lock().generation;
    if !start_for(table, seat, side, spec, generation) {
        return;
    }
    let Some(engine) = seat.engine() else { return };
    let Some(start) = table.lock().begin_turn(side, generation) else {
        return;
    };
    let turn = Turn {
        position: &start.position,
        clocks: &start.clocks,
        side,
        limits: &start.limits,
        margin: table.margin,
        timeouts: &table.timeouts,
    };
    let mut watch = TableWatch { table, generation };
    let played = play_turn(engine, &turn, &mut watch, start.legal);
    seat.drop_if_dead(played.as_ref().is_err_and(|f| f.dead));
    table.lock().end_turn(table.id, side, generation, played);
}

/// Starts `side`'s engine for a table unless it runs, and gets it ready
/// for the game; on failure the engine loses. Whether it is ready.
fn start_for(
    table: &Table,
    seat: &mut Seat,
    side: Color,
    spec: &EngineSpec,
    generation: u64,
) -> bool {
    let (name, variant, rules) = {
        let st = table.lock();
        (
            st.players[side.index()].name.clone(),
            st.play.line().game(),
            st.play.rules().clone(),
        )
    };
    let options: Vec<(String, String)> = spec
        .level
        .iter()
        .map(|l| (super::LEVEL_OPTION.to_string(), l.clone()))
        .collect();
    let start = EngineStart {
        name: &name,
        launch: &spec.launch,
        options: &options,
        variant,
        rules: &rules,
        log: None,
    };
    let started = seat.start_for_game(&start, &table.timeouts);
    let mut st = table.lock();
    match started {
        Ok(None) => true,
        Ok(Some(warnings)) => {
            warnings.into_iter().for_each(|w| st.note(w));
            st.version += 1;
            true
        }
        Err(f) => {
            let what = format!("{name}: {}", f.detail);
            st.engine_failed(table.id, side, generation, f, what);
            false
        }
    }
}
