//! One game between two running engines. Each turn checks, in order: the
//! end by the rules (history included), adjudication (`--max-plies`), then
//! sends `position` and `go`, reads until `bestmove` or the deadline (with
//! an `isready` heartbeat telling a stalled engine from a thinking one),
//! charges the clock, checks legality, and plays the move.

use super::clock::{Clock, EngineLimits};
use super::engine_proc::{EngineProc, Event, Recv};
use super::handshake::{self, Failure, Timeouts, quote};
use super::opening::Opening;
use super::reason::Reason;
use crate::core::{Color, Game, MoveText, Outcome};
use crate::protocol::record::RecordMove;
use crate::protocol::{
    Command, GoParams, InfoLine, InfoScore, PositionLine, PositionStart, Reply, parse_reply,
};
use std::time::{Duration, Instant};

/// What one game is played with.
pub struct GameSetup<'a, G: Game> {
    pub rules: &'a G::Rules,
    pub opening: &'a Opening,
    /// By colour: the first player's limits first.
    pub limits: [&'a EngineLimits; 2],
    pub margin: Duration,
    pub max_plies: Option<u32>,
    pub timeouts: Timeouts,
}

/// How a game ended and what was played.
#[derive(Clone, Debug)]
pub struct GameEnd {
    pub outcome: Outcome,
    pub reason: Reason,
    pub detail: Option<String>,
    /// The opening moves (commented `book`) and the moves played.
    pub moves: Vec<RecordMove>,
    /// By colour: the engine must be restarted before it plays again.
    pub dead: [bool; 2],
    /// Moves the engines played (the opening excluded).
    pub engine_moves: u32,
}

/// Plays one game; `engines` by colour. `Err` only for an opening that does
/// not replay, which start-up checks rule out.
pub fn play<G: Game>(
    setup: &GameSetup<'_, G>,
    engines: [&mut EngineProc; 2],
) -> Result<GameEnd, String> {
    let mut line = setup
        .opening
        .line::<G>(setup.rules)
        .map_err(|e| e.to_string())?;
    let mut moves: Vec<RecordMove> = setup
        .opening
        .moves
        .iter()
        .map(|&mv| RecordMove {
            mv,
            comment: Some("book".into()),
        })
        .collect();
    let mut end = GameEnd {
        outcome: Outcome::Draw,
        reason: Reason::PlyLimit,
        detail: None,
        moves: Vec::new(),
        dead: [false; 2],
        engine_moves: 0,
    };
    let fail = |end: &mut GameEnd, c: Color, f: Failure| {
        end.outcome = Reason::loss_of(c);
        end.reason = f.reason;
        end.detail = Some(f.detail);
        end.dead[c.index()] = f.dead;
    };
    for c in Color::BOTH {
        if let Err(f) = handshake::new_game(engines[c.index()], &setup.timeouts) {
            fail(&mut end, c, f);
            end.moves = moves;
            return Ok(end);
        }
    }
    let mut clocks = setup.limits.map(Clock::new);
    let start_cmd = match &setup.opening.start {
        None => PositionStart::StartPos,
        Some(t) => PositionStart::Fen(t.clone()),
    };
    let mut position = PositionLine::new(&start_cmd, &setup.opening.moves);
    loop {
        if let Some(e) = line.status() {
            end.outcome = e.outcome;
            end.reason = Reason::Rules(e.reason);
            break;
        }
        if let Some(max) = setup.max_plies
            && line.plies() >= max as usize
        {
            end.outcome = Outcome::Draw;
            end.reason = Reason::PlyLimit;
            end.detail = Some(format!("{max} plies"));
            break;
        }
        let side = line.current().side_to_move();
        let s = side.index();
        let go = GoParams {
            time: [clocks[0].time_ms(), clocks[1].time_ms()],
            inc: [clocks[0].inc_ms(), clocks[1].inc_ms()],
            movestogo: clocks[s].movestogo(),
            depth: setup.limits[s].depth,
            nodes: setup.limits[s].nodes,
            movetime: setup.limits[s].movetime.map(|d| d.as_millis() as u64),
            ..GoParams::default()
        };
        let allowance = clocks[s].allowance();
        let turn = think(
            engines[s],
            position.as_str(),
            &Command::Go(go).to_string(),
            allowance,
            setup.margin,
            &setup.timeouts,
        );
        let (mv, elapsed, info) = match turn {
            Ok(t) => t,
            Err(f) => {
                fail(&mut end, side, f);
                break;
            }
        };
        if let Err(over) = clocks[s].charge(elapsed, setup.margin) {
            fail(
                &mut end,
                side,
                Failure::new(Reason::TimeForfeit, overrun(over), false),
            );
            break;
        }
        let Some(text) = mv else {
            let f = Failure::new(
                Reason::IllegalMove,
                "bestmove (none) but the game is not over",
                false,
            );
            fail(&mut end, side, f);
            break;
        };
        let Some(m) = line.current().find_move(&text) else {
            let f = Failure::new(Reason::IllegalMove, format!("illegal move {text}"), false);
            fail(&mut end, side, f);
            break;
        };
        let text = line.play(m);
        position.push(&text);
        moves.push(RecordMove {
            mv: text,
            comment: Some(comment(info.as_ref(), elapsed)),
        });
        end.engine_moves += 1;
    }
    end.moves = moves;
    Ok(end)
}

fn overrun(over: Duration) -> String {
    format!("overran its clock by {} ms", over.as_millis())
}

/// `+0.12/5 0.105s` (score from the mover's view, depth, time), as
/// cutechess writes move comments; just the time without an `info`.
pub fn comment(info: Option<&InfoLine>, elapsed: Duration) -> String {
    let secs = format!("{:.3}s", elapsed.as_secs_f64());
    let Some(i) = info else { return secs };
    let score = match i.score {
        Some(InfoScore::Cp(cp)) => format!("{:+.2}", f64::from(cp) / 100.0),
        Some(InfoScore::Mate(m)) if m >= 0 => format!("+M{m}"),
        Some(InfoScore::Mate(m)) => format!("-M{}", -m),
        None => return secs,
    };
    match i.depth {
        Some(d) => format!("{score}/{d} {secs}"),
        None => format!("{score} {secs}"),
    }
}

/// A move as read: the move (`None` for `bestmove (none)`), how long it
/// took on the referee's side, and the last `info` with a score.
pub type Thought = (Option<MoveText>, Duration, Option<InfoLine>);

/// Someone following a search as it runs (the board streams the engine's
/// thinking to the page, and may call a search off).
pub trait Watch {
    /// Every `info` line the engine sends during the search.
    fn info(&mut self, _info: &InfoLine) {}
    /// When `true`, the search is stopped and its `bestmove` read (and
    /// returned as usual, for the caller to throw away).
    fn cancelled(&mut self) -> bool {
        false
    }
    /// How often `cancelled` is asked while the engine is silent; `None`
    /// (the default) never wakes for it.
    fn poll(&self) -> Option<Duration> {
        None
    }
}

/// The referee's own games: nobody watches.
struct Unwatched;

impl Watch for Unwatched {}

/// Sends `position` and `go` and reads until `bestmove`, the deadline
/// (`allowance` + `margin`), or a failure.
fn think(
    e: &mut EngineProc,
    position: &str,
    go: &str,
    allowance: Option<Duration>,
    margin: Duration,
    t: &Timeouts,
) -> Result<Thought, Failure> {
    think_watched(e, position, go, allowance, margin, t, &mut Unwatched)
}

/// `think` with a `Watch` that sees every `info` line and may stop the
/// search early (then `stop` is sent and the `bestmove` that answers it is
/// returned, or a failure when none comes within the stall timeout).
pub fn think_watched(
    e: &mut EngineProc,
    position: &str,
    go: &str,
    allowance: Option<Duration>,
    margin: Duration,
    t: &Timeouts,
    watch: &mut dyn Watch,
) -> Result<Thought, Failure> {
    if let Err(why) = e.send(position).and_then(|_| e.send(go)) {
        return Err(Failure::new(Reason::Disconnected, why, true));
    }
    let start = Instant::now();
    let deadline = allowance.map(|a| start + a + margin);
    let mut heard = start;
    let mut ping: Option<Instant> = None;
    let mut info: Option<InfoLine> = None;
    loop {
        if watch.cancelled() {
            return match settle_move(e, t) {
                Some((at, mv)) => Ok((mv, at - start, info)),
                None => Err(Failure::new(
                    Reason::Stalled,
                    format!("no bestmove within {} ms of stop", t.stall.as_millis()),
                    true,
                )),
            };
        }
        let beat = match ping {
            Some(p) => p,
            None => heard + t.heartbeat,
        };
        let mut wake = deadline.map_or(beat, |d| d.min(beat));
        if let Some(p) = watch.poll() {
            // Extra wakes change nothing below: every check there compares
            // times, so waking early only asks `cancelled` more often.
            wake = wake.min(Instant::now() + p);
        }
        // The time the checks below use: when a line arrived (a line read
        // late still counts at its arrival), or now after a timeout. They
        // run after every line too, so an engine flooding lines cannot
        // hold off its deadline.
        let now = match e.recv(wake) {
            Recv::Event(Event::Line(at, line)) => {
                heard = at;
                match parse_reply(&line) {
                    Ok(Reply::BestMove { mv, .. }) => return Ok((mv, at - start, info)),
                    Ok(Reply::ReadyOk) => ping = None,
                    Ok(Reply::Info(i)) => {
                        watch.info(&i);
                        if i.score.is_some() {
                            info = Some(i);
                        }
                    }
                    Ok(_) => {}
                    Err(_) if line.trim_start().starts_with("bestmove") => {
                        return Err(Failure::new(
                            Reason::IllegalMove,
                            format!("malformed {}", quote(line.trim())),
                            false,
                        ));
                    }
                    Err(_) => {
                        let alive = settle(e, t).is_some();
                        let detail = format!("unreadable line {}", quote(&line));
                        return Err(Failure::new(Reason::Garbage, detail, !alive));
                    }
                }
                at
            }
            Recv::Event(Event::Unreadable(_, what)) => {
                let alive = settle(e, t).is_some();
                return Err(Failure::new(Reason::Garbage, what, !alive));
            }
            Recv::Event(Event::Closed(_)) => {
                let how = e.exit_description(Duration::from_millis(500));
                return Err(Failure::new(Reason::Disconnected, how, true));
            }
            Recv::Timeout => Instant::now(),
        };
        if let (Some(d), Some(a)) = (deadline, allowance)
            && now >= d
        {
            // Out of time: stop the search and see when it answers.
            let answered = settle(e, t);
            let at = answered.unwrap_or_else(Instant::now);
            let over = (at - start).saturating_sub(a);
            let detail = match answered {
                Some(_) => overrun(over),
                None => format!(
                    "overran its clock by at least {} ms and did not answer stop",
                    over.as_millis()
                ),
            };
            return Err(Failure::new(
                Reason::TimeForfeit,
                detail,
                answered.is_none(),
            ));
        }
        match ping {
            Some(p) if now >= p => {
                let detail = format!(
                    "no readyok within {} ms of isready, silent for {} ms",
                    t.stall.as_millis(),
                    now.saturating_duration_since(heard).as_millis()
                );
                return Err(Failure::new(Reason::Stalled, detail, true));
            }
            None if now >= heard + t.heartbeat => {
                if let Err(why) = e.send(&Command::IsReady.to_string()) {
                    return Err(Failure::new(Reason::Disconnected, why, true));
                }
                ping = Some(now + t.stall);
            }
            _ => {}
        }
    }
}

/// Sends `stop` and waits for the `bestmove` that ends the search;
/// returns when it came, or `None` when it did not (the engine is then
/// unusable).
fn settle(e: &mut EngineProc, t: &Timeouts) -> Option<Instant> {
    settle_move(e, t).map(|(at, _)| at)
}

/// `settle`, also returning the move of a well-formed `bestmove`.
fn settle_move(e: &mut EngineProc, t: &Timeouts) -> Option<(Instant, Option<MoveText>)> {
    e.send(&Command::Stop.to_string()).ok()?;
    let end = Instant::now() + t.stall;
    loop {
        match e.recv(end) {
            Recv::Event(Event::Line(at, l)) if l.trim_start().starts_with("bestmove") => {
                let mv = match parse_reply(&l) {
                    Ok(Reply::BestMove { mv, .. }) => mv,
                    _ => None,
                };
                return Some((at, mv));
            }
            Recv::Event(Event::Line(..) | Event::Unreadable(..)) if Instant::now() < end => {}
            Recv::Event(_) | Recv::Timeout => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parse_reply;

    fn info(line: &str) -> InfoLine {
        match parse_reply(line).unwrap() {
            Reply::Info(i) => i,
            _ => unreachable!(),
        }
    }

    #[test]
    fn move_comments_show_score_depth_and_time() {
        let t = Duration::from_millis(105);
        assert_eq!(comment(None, t), "0.105s");
        assert_eq!(
            comment(Some(&info("info depth 5 score cp 12")), t),
            "+0.12/5 0.105s"
        );
        assert_eq!(
            comment(Some(&info("info depth 3 score cp -250")), t),
            "-2.50/3 0.105s"
        );
        assert_eq!(
            comment(Some(&info("info depth 9 score mate -2")), t),
            "-M2/9 0.105s"
        );
    }
}
