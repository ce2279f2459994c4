//! One engine move, for the referee and the board alike: send `isready`,
//! `position` and `go` (both clocks, the mover's limits) in one write, read
//! until `bestmove` or the deadline (with an `isready` heartbeat telling a
//! stalled engine from a thinking one), then charge the mover's clock and
//! check the move.
//! Every way this can fail is a `Failure` with its reason and detail.

use super::clock::{Clock, EngineLimits};
use super::handshake::{Timeouts, quote, stray_bestmove};
use super::process::{EngineProc, Event, Recv};
use super::reason::{Failure, Reason};
use crate::core::{Color, MoveText};
use crate::protocol::{Command, GoParams, InfoLine, InfoScore, Reply};
use std::time::{Duration, Instant};

/// What one engine move is played with.
pub struct Turn<'a> {
    /// The `position` line of the game so far.
    pub position: &'a str,
    /// Both clocks before the move, by colour.
    pub clocks: &'a [Clock; 2],
    pub side: Color,
    /// The mover's limits (`depth`, `nodes` and move time go with `go`).
    pub limits: &'a EngineLimits,
    /// How far past its allowance a move may come and still count.
    pub margin: Duration,
    pub timeouts: &'a Timeouts,
}

/// A move played in time.
pub struct Played<M> {
    pub mv: M,
    /// The mover's clock, charged for the move.
    pub clock: Clock,
    /// Score, depth and time, for the record (see `comment`).
    pub comment: String,
    /// The last `info` with a score, as the engine sent it.
    pub info: Option<InfoLine>,
    /// How long the move took on the referee's side.
    pub elapsed: Duration,
}

/// Plays one engine move: the `go` line, the search, the clock, then
/// `legal`, which turns the `bestmove` into a move of the position (or
/// `None` when it is not one).
pub fn play_turn<M>(
    e: &mut EngineProc,
    turn: &Turn<'_>,
    watch: &mut dyn Watch,
    legal: impl FnOnce(&MoveText) -> Option<M>,
) -> Result<Played<M>, Failure> {
    let (clocks, s) = (turn.clocks, turn.side.index());
    let go = GoParams {
        time: [clocks[0].time_ms(), clocks[1].time_ms()],
        inc: [clocks[0].inc_ms(), clocks[1].inc_ms()],
        movestogo: clocks[s].movestogo(),
        depth: turn.limits.depth,
        nodes: turn.limits.nodes,
        movetime: turn.limits.movetime.map(|d| d.as_millis() as u64),
        ..GoParams::default()
    };
    let allowance = clocks[s].allowance();
    let go = Command::Go(go).to_string();
    let (mv, elapsed, info) = think(e, turn, &go, allowance, watch)?;
    let mut clock = clocks[s].clone();
    if let Err(over) = clock.charge(elapsed, turn.margin) {
        return Err(Failure::alive(Reason::TimeForfeit, overrun(over)));
    }
    let Some(text) = mv else {
        let detail = "bestmove (none) but the game is not over";
        return Err(Failure::alive(Reason::IllegalMove, detail));
    };
    let Some(mv) = legal(&text) else {
        return Err(Failure::alive(
            Reason::IllegalMove,
            format!("illegal move {text}"),
        ));
    };
    Ok(Played {
        mv,
        clock,
        comment: comment(info.as_ref(), elapsed),
        info,
        elapsed,
    })
}

/// The detail of a time forfeit, an engine's or a person's at the board:
/// whole milliseconds, as the clocks count; an overrun below one keeps
/// its fraction (`0.420 ms`), which would read as `0 ms`.
pub fn overrun(over: Duration) -> String {
    if over < Duration::from_millis(1) {
        return format!("overran its clock by {:.3} ms", over.as_secs_f64() * 1000.0);
    }
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
        // In i64: the distance of mate i32::MIN does not fit an i32.
        Some(InfoScore::Mate(m)) => format!("-M{}", -i64::from(m)),
        None => return secs,
    };
    match i.depth {
        Some(d) => format!("{score}/{d} {secs}"),
        None => format!("{score} {secs}"),
    }
}

/// A move as read: the move (`None` for `bestmove (none)`), how long it
/// took on the referee's side, and the last `info` with a score.
type Thought = (Option<MoveText>, Duration, Option<InfoLine>);

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
pub struct Unwatched;

impl Watch for Unwatched {}

/// Sends `isready`, `position` and `go` and reads until `bestmove`, the
/// deadline (`allowance` + the margin), or a failure. The `Watch` sees
/// every `info` line of the search and may stop it early (then `stop` is
/// sent and the `bestmove` that answers it is returned, or a failure when
/// none comes within the stall timeout).
fn think(
    e: &mut EngineProc,
    turn: &Turn<'_>,
    go: &str,
    allowance: Option<Duration>,
    watch: &mut dyn Watch,
) -> Result<Thought, Failure> {
    let t = turn.timeouts;
    // The engine reads `isready` before the search, so whatever it printed
    // since its last move comes before its `readyok`: a `bestmove` there
    // answers no `go` of this move and is dropped. In the same write as
    // the search, this costs no round trip.
    let isready = Command::IsReady.to_string();
    if let Err(why) = e.send_all(&[&isready, turn.position, go]) {
        return Err(Failure::dead(Reason::Disconnected, e.lost(why)));
    }
    let start = Instant::now();
    let deadline = allowance.map(|a| start + a + turn.margin);
    let mut heard = start;
    let mut ping: Option<Instant> = Some(start + t.stall);
    // Until the first `readyok`: lines from before this move.
    let mut before = true;
    let mut info: Option<InfoLine> = None;
    loop {
        if watch.cancelled() {
            return match settle_move(e, t) {
                Some((at, mv)) => Ok((mv, at - start, info)),
                None => Err(Failure::dead(
                    Reason::Stalled,
                    format!("no bestmove within {} ms of stop", t.stall.as_millis()),
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
                match e.reply(&line) {
                    Ok(Reply::BestMove { .. }) if before => stray_bestmove(e, &line),
                    Ok(Reply::BestMove { mv, .. }) => return Ok((mv, at - start, info)),
                    Ok(Reply::ReadyOk) => (ping, before) = (None, false),
                    Ok(Reply::Info(_)) if before => {}
                    Ok(Reply::Info(i)) => {
                        watch.info(&i);
                        if i.score.is_some() {
                            info = Some(i);
                        }
                    }
                    Ok(_) => {}
                    Err(_) if line.trim_start().starts_with("bestmove") => {
                        return Err(Failure::alive(
                            Reason::IllegalMove,
                            format!("malformed {}", quote(line.trim())),
                        ));
                    }
                    Err(_) => {
                        let detail = format!("unreadable line {}", quote(&line));
                        return Err(after_stop(e, t)(Reason::Garbage, detail));
                    }
                }
                at
            }
            Recv::Event(Event::Unreadable(_, what)) => {
                return Err(after_stop(e, t)(Reason::Garbage, what.into()));
            }
            Recv::Event(Event::Closed(_)) => {
                let how = e.exit_description(Duration::from_millis(500));
                return Err(Failure::dead(Reason::Disconnected, how));
            }
            Recv::Timeout => {
                // Exited, with its output held open by a child it started.
                if let Some(how) = e.exited() {
                    return Err(Failure::dead(Reason::Disconnected, how));
                }
                Instant::now()
            }
        };
        if let (Some(d), Some(a)) = (deadline, allowance)
            && now >= d
        {
            return Err(time_forfeit(e, t, start, a));
        }
        heartbeat(e, t, now, heard, &mut ping)?;
    }
}

/// Out of time: stops the search and sees when it answers, for the
/// overrun the forfeit records.
fn time_forfeit(e: &mut EngineProc, t: &Timeouts, start: Instant, allowance: Duration) -> Failure {
    let answered = settle(e, t);
    let at = answered.unwrap_or_else(Instant::now);
    let over = (at - start).saturating_sub(allowance);
    let detail = match answered {
        Some(_) => overrun(over),
        None => format!(
            "overran its clock by at least {} ms and did not answer stop",
            over.as_millis()
        ),
    };
    let failure = match answered {
        Some(_) => Failure::alive,
        None => Failure::dead,
    };
    Failure {
        overrun: Some(over),
        ..failure(Reason::TimeForfeit, detail)
    }
}

/// The liveness check while the engine thinks: with an `isready` out
/// (`ping`), its `readyok` must come before the stall timeout; with none,
/// one is sent after a heartbeat of silence.
fn heartbeat(
    e: &mut EngineProc,
    t: &Timeouts,
    now: Instant,
    heard: Instant,
    ping: &mut Option<Instant>,
) -> Result<(), Failure> {
    match *ping {
        Some(p) if now >= p => {
            let detail = format!(
                "no readyok within {} ms of isready, silent for {} ms",
                t.stall.as_millis(),
                now.saturating_duration_since(heard).as_millis()
            );
            return Err(Failure::dead(Reason::Stalled, detail));
        }
        None if now >= heard + t.heartbeat => {
            if let Err(why) = e.send(&Command::IsReady.to_string()) {
                return Err(Failure::dead(Reason::Disconnected, e.lost(why)));
            }
            *ping = Some(now + t.stall);
        }
        _ => {}
    }
    Ok(())
}

/// Sends `stop` and waits for the `bestmove` that ends the search;
/// returns when it came, or `None` when it did not (the engine is then
/// unusable).
fn settle(e: &mut EngineProc, t: &Timeouts) -> Option<Instant> {
    settle_move(e, t).map(|(at, _)| at)
}

/// After a line that is not the protocol: the engine is sent `stop`, and
/// is dead unless it answers.
fn after_stop(e: &mut EngineProc, t: &Timeouts) -> fn(Reason, String) -> Failure {
    match settle(e, t) {
        Some(_) => Failure::alive,
        None => Failure::dead,
    }
}

/// `settle`, also returning the move of a well-formed `bestmove`.
fn settle_move(e: &mut EngineProc, t: &Timeouts) -> Option<(Instant, Option<MoveText>)> {
    e.send(&Command::Stop.to_string()).ok()?;
    let end = Instant::now() + t.stall;
    loop {
        match e.recv(end) {
            Recv::Event(Event::Line(at, l)) if l.trim_start().starts_with("bestmove") => {
                let mv = match e.reply(&l) {
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
    fn overruns_below_a_millisecond_keep_their_fraction() {
        assert_eq!(
            overrun(Duration::from_micros(420)),
            "overran its clock by 0.420 ms"
        );
        assert_eq!(
            overrun(Duration::from_micros(2_700)),
            "overran its clock by 2 ms"
        );
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
        // The least i32 an engine may send, as score and as mate distance.
        assert_eq!(
            comment(Some(&info("info depth 1 score cp -2147483648")), t),
            "-21474836.48/1 0.105s"
        );
        assert_eq!(
            comment(Some(&info("info depth 1 score mate -2147483648")), t),
            "-M2147483648/1 0.105s"
        );
    }
}
