//! `koma datagen`: self-play games at a fixed node count from openings of
//! random plies, written as the positions the trainer reads (`sample`).
//!
//! Game `i` depends only on the settings and `i` (its own random plies, a
//! fresh hash table, one search thread), and games are written in index
//! order, so a file is the same for a seed whatever the thread count. A
//! rerun with the same settings resumes after the last whole game.
//! Positions in check, whose best move is tactical (a capture or a flip
//! pending) or whose score is a mate are left out: a static evaluation is
//! not meant to see those.

use super::error::LearnError;
use super::sample::{HEADER_TAG, Line, Sample, end_line, parse_line};
use crate::core::{History, Outcome, Searchable, status_with_history};
use crate::search::{self, Context, Limits, Settings as SearchSettings, Tt, is_mate};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct DatagenSettings {
    /// Games in the file when done (a resumed file counts what it has).
    pub games: u64,
    pub nodes: u64,
    pub random_plies: u32,
    pub seed: u64,
    /// A game reaching this many plies is scored a draw.
    pub max_plies: u32,
    pub threads: usize,
    pub out: PathBuf,
}

impl DatagenSettings {
    /// What the file's games depend on (the thread count is not part of it).
    fn header(&self, game: &str) -> String {
        format!(
            "{HEADER_TAG}variant={game} nodes={} random_plies={} seed={} max_plies={}",
            self.nodes, self.random_plies, self.seed, self.max_plies
        )
    }
}

/// One finished game: its lines, ready to write.
struct Played {
    index: u64,
    text: String,
    positions: u64,
}

/// SplitMix64: the random plies of game `index`.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn play_game<G: Searchable>(
    s: &DatagenSettings,
    index: u64,
    tt: &Tt,
    stop: &AtomicBool,
) -> Option<Played> {
    let rules = G::Rules::default();
    let mut rng = mix(s.seed ^ mix(index));
    let mut pos = G::start(&rules);
    let mut history = History::starting_at(&pos);
    let mut kept: Vec<(String, i32)> = Vec::new();
    tt.clear();
    let mut ply = 0;
    let result = loop {
        if let Some(end) = status_with_history(&pos, &history) {
            break end.outcome;
        }
        if ply >= s.max_plies {
            break Outcome::Draw;
        }
        let mv = if ply < s.random_plies {
            let mut moves = G::MoveList::default();
            pos.generate(&mut moves);
            rng = mix(rng);
            moves[(rng % moves.len() as u64) as usize]
        } else {
            let mut limits = Limits::infinite();
            limits.nodes = Some(s.nodes);
            let ctx = Context {
                tt,
                stop,
                limits: &limits,
                settings: SearchSettings::default(),
                poll: None,
            };
            let r = search::search(&pos, &history, &ctx, |_| {});
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let best = r.best?;
            if !pos.in_check() && !pos.is_tactical(best) && !is_mate(r.score) {
                kept.push((pos.to_text().to_string(), r.score));
            }
            best
        };
        pos = pos.play(mv);
        history.push(pos.repetition_key());
        ply += 1;
    };
    let mut text = String::new();
    for (position, score) in &kept {
        let r = Sample {
            game: index,
            position: position.clone(),
            score: *score,
            result,
        };
        text.push_str(&r.to_line());
        text.push('\n');
    }
    text.push_str(&end_line(index, result));
    text.push('\n');
    Some(Played {
        index,
        text,
        positions: kept.len() as u64,
    })
}

/// The whole games already in `out` and the byte length they take (a torn
/// last game is cut off there); refuses a file of other settings.
fn resume_point(out: &PathBuf, header: &str) -> Result<Option<(u64, u64, u64)>, LearnError> {
    let read = |error| LearnError::Read {
        path: out.clone(),
        error,
    };
    let file = match std::fs::File::open(out) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(read(e)),
    };
    let mut reader = BufReader::new(file);
    let (mut offset, mut whole_len, mut games, mut positions, mut pending) = (0u64, 0, 0, 0, 0);
    let mut line = String::new();
    let mut first = true;
    loop {
        line.clear();
        let n = reader.read_line(&mut line).map_err(read)?;
        if n == 0 || !line.ends_with('\n') {
            break;
        }
        offset += n as u64;
        let l = line.trim_end_matches('\n');
        if first {
            if l != header {
                return Err(LearnError::OtherSettings {
                    path: out.clone(),
                    found: l.to_string(),
                });
            }
            first = false;
            whole_len = offset;
            continue;
        }
        match parse_line(l) {
            Ok(Line::Position(_)) => pending += 1,
            Ok(Line::End { game, .. }) if game == games => {
                games += 1;
                positions += pending;
                pending = 0;
                whole_len = offset;
            }
            _ => break,
        }
    }
    if first {
        // Not even a whole header: start again.
        return Ok(None);
    }
    Ok(Some((games, positions, whole_len)))
}

/// Plays the games missing from `s.out`, writing them in order; `log`
/// gets the progress lines. Returns the games and positions in the file.
pub fn run<G: Searchable>(
    s: &DatagenSettings,
    mut log: impl FnMut(&str),
) -> Result<(u64, u64), LearnError> {
    let header = s.header(G::NAME);
    let (done, mut positions, keep) = resume_point(&s.out, &header)?.unwrap_or_default();
    let io = |error| LearnError::Write {
        path: s.out.clone(),
        error,
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&s.out)
        .map_err(io)?;
    file.set_len(keep).map_err(io)?;
    file.seek(SeekFrom::End(0)).map_err(io)?;
    if keep == 0 {
        writeln!(file, "{header}").map_err(io)?;
    } else {
        log(&format!(
            "resuming {}: {done} games, {positions} positions already there",
            s.out.display()
        ));
    }
    if done >= s.games {
        return Ok((done, positions));
    }
    let next = AtomicU64::new(done);
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let (tx, rx) = mpsc::channel::<Played>();
    let threads = s.threads.max(1);
    let (games, written) = std::thread::scope(|scope| -> Result<(u64, u64), LearnError> {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                let tt = Tt::new(8);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= s.games || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    match play_game::<G>(s, i, &tt, stop) {
                        Some(p) => {
                            if tx.send(p).is_err() {
                                break;
                            }
                        }
                        None => break,
                    }
                }
            });
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        let mut want = done;
        let (mut new_positions, mut last_report) = (0u64, Instant::now());
        let result = (|| -> Result<(), LearnError> {
            for p in rx.iter() {
                pending.insert(p.index, p);
                while let Some(p) = pending.remove(&want) {
                    file.write_all(p.text.as_bytes()).map_err(io)?;
                    new_positions += p.positions;
                    want += 1;
                }
                if last_report.elapsed() >= Duration::from_secs(5) || want == s.games {
                    last_report = Instant::now();
                    let secs = start.elapsed().as_secs_f64().max(1e-3);
                    let played = (want - done) as f64;
                    let eta = (s.games - want) as f64 * secs / played.max(1.0);
                    log(&format!(
                        "games {want}/{} positions {} ({:.0}/s) elapsed {:.0}s eta {:.0}s",
                        s.games,
                        positions + new_positions,
                        new_positions as f64 / secs,
                        secs,
                        eta
                    ));
                }
            }
            Ok(())
        })();
        if result.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        result.map(|()| (want, new_positions))
    })?;
    file.flush().map_err(io)?;
    positions += written;
    Ok((games, positions))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kaninariebi::KaniNariEbi;

    fn settings(out: PathBuf, games: u64, threads: usize) -> DatagenSettings {
        DatagenSettings {
            games,
            nodes: 300,
            random_plies: 4,
            seed: 9,
            max_plies: 200,
            threads,
            out,
        }
    }

    fn temp(name: &str) -> PathBuf {
        let p = std::env::temp_dir().join(format!("koma-datagen-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&p);
        p
    }

    #[test]
    fn datagen_is_the_same_for_a_seed_whatever_the_threads_and_resumes_without_duplicates() {
        let one = temp("one");
        let (games, positions) = run::<KaniNariEbi>(&settings(one.clone(), 6, 1), |_| {}).unwrap();
        assert_eq!(games, 6);
        assert!(positions > 0);
        let whole = std::fs::read_to_string(&one).unwrap();
        let two = temp("two");
        run::<KaniNariEbi>(&settings(two.clone(), 6, 2), |_| {}).unwrap();
        assert_eq!(std::fs::read_to_string(&two).unwrap(), whole);
        // Interrupted after three games, with half a line of the fourth.
        let part = temp("part");
        run::<KaniNariEbi>(&settings(part.clone(), 3, 1), |_| {}).unwrap();
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&part)
            .unwrap();
        f.write_all(b"3;1C1sc/C1S2/2c").unwrap();
        drop(f);
        let mut said = vec![];
        run::<KaniNariEbi>(&settings(part.clone(), 6, 2), |l| said.push(l.to_string())).unwrap();
        assert!(said[0].starts_with("resuming"), "{said:?}");
        assert_eq!(std::fs::read_to_string(&part).unwrap(), whole);
        // Other settings are refused and the file is left alone.
        let mut other = settings(part.clone(), 6, 1);
        other.seed = 10;
        assert!(
            run::<KaniNariEbi>(&other, |_| {})
                .unwrap_err()
                .to_string()
                .contains("other settings")
        );
        assert_eq!(std::fs::read_to_string(&part).unwrap(), whole);
        for p in [one, two, part] {
            std::fs::remove_file(p).unwrap();
        }
    }
}
