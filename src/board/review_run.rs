//! A review's engine run: one search per position of a table's game, each
//! point written into the table as it comes, until the end or a stop (the
//! review's figures and record tags are `review`'s).

use super::eval::Eval;
use super::play::{Play, position_command};
use super::review::{Limit, Point};
use super::table::Table;
use crate::client::clock::Clock;
use crate::client::handshake::{self, EngineStart};
use crate::client::process::Launch;
use crate::client::turn::{Watch, play_turn};
use crate::core::{Color, MoveText, Outcome};
use crate::protocol::{InfoLine, InfoScore};
use std::time::Duration;

/// Follows one search of a review: its last score of the first line, and
/// whether the review was called off.
struct ReviewWatch<'a> {
    table: &'a Table,
    generation: u64,
    score: Option<InfoScore>,
}

impl Watch for ReviewWatch<'_> {
    fn info(&mut self, i: &InfoLine) {
        if i.score.is_some() && i.multipv.unwrap_or(1) == 1 {
            self.score = i.score;
        }
    }

    fn cancelled(&mut self) -> bool {
        cancelled(self.table, self.generation)
    }

    fn poll(&self) -> Option<Duration> {
        Some(Duration::from_millis(100))
    }
}

fn cancelled(table: &Table, generation: u64) -> bool {
    let st = table.lock();
    st.closed
        || st
            .analysis
            .as_ref()
            .is_none_or(|a| a.generation != generation || a.stop)
}

/// What a review needs from the table, taken when it starts.
pub struct ReviewJob {
    pub generation: u64,
    pub launch: Launch,
    pub limit: Limit,
    pub play: Box<dyn Play>,
}

/// A fresh copy of a table's game at its start, for the review to step.
pub fn replay_of(play: &dyn Play) -> (Box<dyn Play>, Vec<MoveText>) {
    (play.restarted(), play.line().moves().to_vec())
}

/// Runs a review to its end (or its stop), writing each point into the
/// table as it comes.
pub fn run(table: &Table, job: ReviewJob, moves: Vec<MoveText>) {
    let ReviewJob {
        generation,
        launch,
        limit,
        mut play,
    } = job;
    let finish = |error: Option<String>| {
        let mut st = table.lock();
        if let Some(a) = st.analysis.as_mut().filter(|a| a.generation == generation) {
            a.running = false;
            a.error = error;
        }
        st.version += 1;
    };
    let name = launch.short_name();
    let start = EngineStart {
        name: &name,
        launch: &launch,
        options: &[],
        variant: play.line().game(),
        rules: play.rules(),
        log: None,
    };
    let mut engine = match handshake::start(&start, &table.timeouts) {
        Ok((e, _)) => e,
        Err(why) => return finish(Some(format!("the engine did not start: {why}"))),
    };
    // The record names the engine as it names itself (`id name`): a
    // command line would say where a person keeps their files.
    if let Some(a) = (table.lock().analysis.as_mut()).filter(|a| a.generation == generation) {
        a.engine = engine.id_name.clone().unwrap_or(name.clone());
    }
    if let Err(f) = handshake::new_game(&mut engine, &table.timeouts) {
        return finish(Some(format!("the engine did not get ready: {}", f.detail)));
    }
    let limits = limit.engine_limits();
    let mut error = None;
    for k in 0..=moves.len() {
        if cancelled(table, generation) {
            break;
        }
        let mover = play.line().side_to_move();
        let point = match play.line().status() {
            Some(end) => Point {
                eval: Some(Eval::End(match end.outcome {
                    Outcome::Win(Color::First) => 1,
                    Outcome::Win(Color::Second) => -1,
                    Outcome::Draw => 0,
                })),
                best: None,
            },
            None => {
                let position = position_command(play.line());
                let clock = Clock::new(&limits);
                let clocks = [clock.clone(), clock];
                let turn = crate::client::turn::Turn {
                    position: &position,
                    clocks: &clocks,
                    side: mover,
                    limits: &limits,
                    margin: table.margin,
                    timeouts: &table.timeouts,
                };
                let mut watch = ReviewWatch {
                    table,
                    generation,
                    score: None,
                };
                let check = play.move_check();
                let played = play_turn(&mut engine, &turn, &mut watch, check);
                if cancelled(table, generation) {
                    break;
                }
                match played {
                    Ok(p) => Point {
                        eval: watch.score.map(|s| Eval::of(s, mover)),
                        best: Some(p.mv),
                    },
                    Err(f) if f.dead => {
                        error = Some(format!(
                            "the engine failed at position {k}: {} ({})",
                            f.detail,
                            f.reason.message()
                        ));
                        break;
                    }
                    // A bad bestmove: keep the score, without a move.
                    Err(_) => Point {
                        eval: watch.score.map(|s| Eval::of(s, mover)),
                        best: None,
                    },
                }
            }
        };
        {
            let mut st = table.lock();
            match st.analysis.as_mut().filter(|a| a.generation == generation) {
                Some(a) => a.points[k] = Some(point),
                None => break,
            }
            st.version += 1;
        }
        table.notify();
        if let Some(m) = moves.get(k)
            && let Err(e) = play.line_mut().play_text(m)
        {
            error = Some(format!("move {}: {e}", k + 1));
            break;
        }
    }
    engine.quit(Duration::from_millis(300));
    finish(error);
    table.notify();
}
