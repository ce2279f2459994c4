//! `--compliance CMD [ARG...]`: a checklist for an engine that claims
//! Koma's protocol, one line per check with what was seen, in every
//! variant it declares (or `--variant`'s). Moves are checked with the
//! rules library. Exit 0 when every check passes, 1 otherwise.

use super::RunError;
use super::cli::{ComplianceConfig, Usage};
use crate::client::handshake::Timeouts;
use crate::client::process::{EngineProc, Event, Recv};
use crate::core::{MoveText, Rules, Searchable};
use crate::games::GameId;
use crate::protocol::{InfoLine, Reply, parse_option_decl, parse_reply};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// One line of the checklist.
pub(crate) struct Check {
    pass: bool,
    what: String,
    seen: String,
}

/// Lines of one kind: counted, the first kept. An engine may print them
/// for ever (garbage in a loop): keeping them all grew the referee by
/// gigabytes in seconds, so only what the checklist shows is kept.
#[derive(Debug, Default)]
struct Seen {
    count: u64,
    first: Option<String>,
}

impl Seen {
    fn push(&mut self, line: String) {
        self.count += 1;
        self.first.get_or_insert(line);
    }

    fn is_empty(&self) -> bool {
        self.count == 0
    }

    fn clear(&mut self) {
        *self = Seen::default();
    }
}

/// The engine, and what it has said outside the answers looked for.
pub(crate) struct Session {
    e: EngineProc,
    infos: u64,
    bad_infos: Seen,
    garbage: Seen,
    /// `info string error …` lines since the last look.
    errors: Seen,
}

/// What `read_until` found: the reply, when, and the last scored `info`.
type Found = (Reply, Duration);

impl Session {
    fn send(&mut self, line: &str) -> Result<(), String> {
        self.e.send(line).map_err(|e| e.to_string())
    }

    /// Reads until a reply `want` accepts, for at most `limit`.
    fn read_until(
        &mut self,
        limit: Duration,
        mut want: impl FnMut(&Reply) -> bool,
    ) -> Result<Found, String> {
        let start = Instant::now();
        let deadline = start + limit;
        loop {
            match self.e.recv(deadline) {
                Recv::Event(Event::Line(_, l)) => match parse_reply(&l) {
                    Ok(r) => {
                        if let Reply::Info(i) = &r {
                            self.infos += 1;
                            if let Some(s) = &i.string
                                && s.starts_with("error")
                            {
                                self.errors.push(s.clone());
                            }
                        }
                        if want(&r) {
                            return Ok((r, start.elapsed()));
                        }
                    }
                    Err(_) if l.trim_start().starts_with("info") => self.bad_infos.push(l),
                    Err(_) => self.garbage.push(l),
                },
                Recv::Event(Event::Unreadable(_, why)) => self.garbage.push(why.to_string()),
                Recv::Event(Event::Closed(_)) => {
                    let how = self.e.exit_description(Duration::from_millis(300));
                    return Err(format!("the engine ended: {how}"));
                }
                Recv::Timeout => {
                    return Err(format!("no answer within {} ms", limit.as_millis()));
                }
            }
        }
    }

    fn ready(&mut self, limit: Duration) -> Result<Duration, String> {
        self.send("isready")?;
        self.read_until(limit, |r| *r == Reply::ReadyOk)
            .map(|(_, t)| t)
    }

    /// The `bestmove`, how long it took, and the last `info` before it.
    fn best(
        &mut self,
        limit: Duration,
    ) -> Result<(Option<MoveText>, Duration, Option<InfoLine>), String> {
        let mut last = None;
        let (r, t) = self.read_until(limit, |r| match r {
            Reply::Info(i) => {
                last = Some(i.clone());
                false
            }
            Reply::BestMove { .. } => true,
            _ => false,
        })?;
        match r {
            Reply::BestMove { mv, .. } => Ok((mv, t, last)),
            _ => Err("no bestmove".into()),
        }
    }
}

fn ms(d: Duration) -> String {
    format!("{} ms", d.as_millis())
}

/// The checks of one variant in a session already past `uciok`.
pub(crate) type VariantChecks = fn(&mut Session, &Timeouts, &mut Vec<Check>);

/// The checks of one variant, `G`, in a session already past `uciok`
/// (each variant's entry, `Variant::compliance`, is this for its type).
pub(crate) fn variant_checks_of<G: Searchable>(
    s: &mut Session,
    t: &Timeouts,
    out: &mut Vec<Check>,
) {
    let v = G::NAME;
    let mut add = |pass: bool, what: String, seen: String| out.push(Check { pass, what, seen });
    let Ok(rules) = G::Rules::from_values(&[]) else {
        add(
            false,
            format!("{v}: rules"),
            "the default rules do not build".into(),
        );
        return;
    };
    let start = G::start(&rules);
    let first_move = |p: &G| {
        let mut l = G::MoveList::default();
        p.generate(&mut l);
        l.first().copied()
    };
    let Some(m1) = first_move(&start) else { return };
    let after1 = start.play(m1);
    let Some(m2) = first_move(&after1) else {
        return;
    };
    let after2 = after1.play(m2);
    let texts = [start.move_text(m1), after1.move_text(m2)];
    let setup = s
        .send(&format!("setoption name UCI_Variant value {v}"))
        .and_then(|_| s.send("ucinewgame"))
        .and_then(|_| s.ready(t.start));
    match setup {
        Ok(d) => add(
            true,
            format!("{v}: setoption UCI_Variant, ucinewgame, isready"),
            format!("readyok after {}", ms(d)),
        ),
        Err(e) => {
            add(
                false,
                format!("{v}: setoption UCI_Variant, ucinewgame, isready"),
                e,
            );
            return;
        }
    }
    // Each search: its position, its go, the position to judge the move
    // in, and how long it may take.
    let fen = start.to_text();
    let searches: [(String, String, &G, Duration); 4] = [
        (
            "position startpos".into(),
            "go depth 1".into(),
            &start,
            t.start,
        ),
        (
            format!("position fen {fen} moves {} {}", texts[0], texts[1]),
            "go movetime 200".into(),
            &after2,
            Duration::from_millis(200) + t.heartbeat,
        ),
        (
            "position startpos".into(),
            "go nodes 1000".into(),
            &start,
            t.start,
        ),
        (
            format!("position startpos moves {}", texts[0]),
            "go wtime 2000 btime 2000 winc 100 binc 100".into(),
            &after1,
            Duration::from_millis(2100),
        ),
    ];
    timed_searches(s, t, v, searches, &mut add);
    // go infinite: no bestmove until stop, isready answered meanwhile.
    let what = format!("{v}: go infinite, isready during the search, stop");
    let r = go_infinite(s, t, &start);
    match r {
        Ok(seen) => add(true, what, seen),
        Err(e) => add(false, what, e),
    }
    // A rejected line leaves the position as it was.
    let what = format!("{v}: the position kept after a rejected position line");
    s.errors.clear();
    let r = kept_position(s, t, &texts[0], &after1);
    match r {
        Ok(Some(seen)) => add(true, what, seen),
        Ok(None) => add(
            true,
            what,
            "not applicable: the engine reports no errors (no info string error)".into(),
        ),
        Err(e) => add(false, what, e),
    }
}

/// The engine's move, when it is legal in `p`, else what is wrong.
fn legal_in<G: Searchable>(p: &G, mv: &Option<MoveText>) -> Result<String, String> {
    match mv {
        Some(m) if p.find_move(m).is_some() => Ok(m.to_string()),
        Some(m) => Err(format!("bestmove {m} is not legal")),
        None => Err("bestmove (none) in a position with moves".into()),
    }
}

/// Each search of `searches`: a legal move within its time, each told to
/// `add`.
fn timed_searches<G: Searchable>(
    s: &mut Session,
    t: &Timeouts,
    v: &str,
    searches: [(String, String, &G, Duration); 4],
    add: &mut impl FnMut(bool, String, String),
) {
    for (pos, go, judge, limit) in searches {
        let what = format!("{v}: {pos}, {go}");
        let r = s
            .send(&pos)
            .and_then(|_| s.send(&go))
            .and_then(|_| s.best(limit + t.heartbeat));
        match r {
            Ok((_, took, _)) if took > limit => add(
                false,
                what,
                format!(
                    "bestmove after {}, over the {} allowed",
                    ms(took),
                    ms(limit)
                ),
            ),
            Ok((mv, took, _)) => match legal_in(judge, &mv) {
                Ok(m) => add(true, what, format!("bestmove {m} after {}", ms(took))),
                Err(e) => add(false, what, e),
            },
            Err(e) => add(false, what, e),
        }
    }
}

/// go infinite: no bestmove until stop, isready answered meanwhile.
fn go_infinite<G: Searchable>(s: &mut Session, t: &Timeouts, start: &G) -> Result<String, String> {
    s.send("position startpos")?;
    s.send("go infinite")?;
    match s.best(Duration::from_millis(300)) {
        Ok((mv, took, _)) => {
            return Err(format!(
                "bestmove {} after {} without a stop",
                mv.map_or("(none)".into(), |m| m.to_string()),
                ms(took)
            ));
        }
        Err(e) if e.starts_with("no answer") => {}
        Err(e) => return Err(e),
    }
    let ready = s
        .ready(t.stall)
        .map_err(|e| format!("isready while searching: {e}"))?;
    s.send("stop")?;
    let (mv, took, _) = s.best(t.stall).map_err(|e| format!("after stop: {e}"))?;
    let m = legal_in(start, &mv)?;
    Ok(format!(
        "readyok after {} while searching; bestmove {m} {} after stop",
        ms(ready),
        ms(took)
    ))
}

/// A rejected position line leaves the position as it was: `None` when
/// the engine reports no errors, so the check does not apply.
fn kept_position<G: Searchable>(
    s: &mut Session,
    t: &Timeouts,
    first: &MoveText,
    after1: &G,
) -> Result<Option<String>, String> {
    s.send(&format!("position startpos moves {first}"))?;
    s.send("position startpos moves zz99zz")?;
    s.ready(t.start)?;
    let Some(error) = s.errors.first.clone() else {
        return Ok(None);
    };
    s.send("go depth 1")?;
    let (mv, _, _) = s.best(t.start)?;
    legal_in(after1, &mv)
        .map(|m| Some(format!("{error:?}, then bestmove {m} in the kept position")))
        .map_err(|e| format!("{e} in the kept position (after {error:?})"))
}

/// Runs the checklist; `known` gives the checks of each variant the
/// referee plays, by name.
pub(crate) fn run(
    c: &ComplianceConfig,
    known: &dyn Fn(&str) -> Option<VariantChecks>,
) -> Result<ExitCode, RunError> {
    c.launch
        .check()
        .map_err(|why| RunError::Usage(Usage(format!("--compliance: {why}"))))?;
    let name = c
        .launch
        .cmd
        .file_name()
        .map_or("engine".into(), |f| f.to_string_lossy().into_owned());
    let t = &c.timeouts;
    let mut checks = Vec::new();
    let e = EngineProc::spawn(&name, &c.launch, None)
        .map_err(|why| RunError::Usage(Usage(format!("--compliance: {why}"))))?;
    let mut s = Session {
        e,
        infos: 0,
        bad_infos: Seen::default(),
        garbage: Seen::default(),
        errors: Seen::default(),
    };
    let Some(declared) = uci_checks(&mut s, t, &mut checks) else {
        return Ok(finish(&checks));
    };
    let variants = variant_checks(c.variant, known, &declared, &mut checks);
    match s.ready(t.start) {
        Ok(d) => add(
            &mut checks,
            true,
            "isready",
            format!("readyok after {}", ms(d)),
        ),
        Err(e) => add(&mut checks, false, "isready", e),
    }
    for checks_of in variants {
        checks_of(&mut s, t, &mut checks);
    }
    closing_checks(&mut s, &mut checks);
    drop(s);
    Ok(finish(&checks))
}

/// One line of the checklist added.
fn add(checks: &mut Vec<Check>, pass: bool, what: &str, seen: String) {
    checks.push(Check {
        pass,
        what: what.to_string(),
        seen,
    })
}

/// `uci`: its id, option lines and `uciok` checked; the variants the
/// engine declares, or `None` when it never got to `uciok`.
fn uci_checks(s: &mut Session, t: &Timeouts, checks: &mut Vec<Check>) -> Option<Vec<String>> {
    // uci: id lines, option lines (read as they come, not kept: an engine
    // may print them for ever), uciok.
    let mut id = None;
    let mut options = 0u64;
    let mut bad = Seen::default();
    let mut declared: Option<Vec<String>> = None;
    let uci = s.send("uci").and_then(|_| {
        s.read_until(t.start, |r| match r {
            Reply::Id { field, value } if field == "name" => {
                id = Some(value.clone());
                false
            }
            Reply::Option(text) => {
                options += 1;
                match parse_option_decl(text) {
                    None => bad.push(text.clone()),
                    Some(d) if d.name.eq_ignore_ascii_case("UCI_Variant") => {
                        declared.get_or_insert(d.vars);
                    }
                    Some(_) => {}
                }
                false
            }
            r => *r == Reply::UciOk,
        })
    });
    // Text before uciok is allowed (banners).
    s.garbage.clear();
    match uci {
        Ok((_, d)) => add(
            checks,
            id.is_some(),
            "uci: id name, uciok",
            match &id {
                Some(n) => format!("id name {n}, uciok after {}", ms(d)),
                None => format!("uciok after {} but no id name", ms(d)),
            },
        ),
        Err(e) => {
            add(checks, false, "uci: id name, uciok", e);
            return None;
        }
    }
    add(
        checks,
        bad.is_empty(),
        "option lines",
        match &bad.first {
            None => format!("{options} options, each well formed"),
            Some(first) => format!("{} of {options} do not parse: option {first}", bad.count),
        },
    );
    Some(declared.unwrap_or_default())
}

/// The variants to check: `--variant`'s, else the declared ones Koma
/// knows.
fn variant_checks(
    variant: Option<GameId>,
    known: &dyn Fn(&str) -> Option<VariantChecks>,
    declared: &[String],
    checks: &mut Vec<Check>,
) -> Vec<VariantChecks> {
    let variants: Vec<VariantChecks> = match variant {
        Some(v) => known(v.name()).into_iter().collect(),
        None => declared.iter().filter_map(|n| known(n)).collect(),
    };
    let unknown: Vec<&String> = declared.iter().filter(|n| known(n).is_none()).collect();
    add(
        checks,
        !variants.is_empty(),
        "UCI_Variant lists Koma's games",
        if declared.is_empty() {
            "no UCI_Variant combo option".into()
        } else if unknown.is_empty() {
            declared.join(", ")
        } else {
            format!(
                "{} (not Koma's: {})",
                declared.join(", "),
                unknown
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        },
    );
    variants
}

/// The checks over the whole session: its info lines, its lines outside
/// the protocol, and `quit`.
fn closing_checks(s: &mut Session, checks: &mut Vec<Check>) {
    add(
        checks,
        s.bad_infos.is_empty(),
        "info lines parse",
        match &s.bad_infos.first {
            None => format!("{} info lines", s.infos),
            Some(b) => format!(
                "{} of {} do not parse, first: {b:?}",
                s.bad_infos.count,
                s.infos + s.bad_infos.count
            ),
        },
    );
    add(
        checks,
        s.garbage.is_empty(),
        "no lines outside the protocol",
        match &s.garbage.first {
            None => "none".into(),
            Some(g) => format!("{}, first: {g:?}", s.garbage.count),
        },
    );
    let quit = s.send("quit");
    let how = s.e.exit_description(Duration::from_secs(2));
    let exited = quit.is_ok() && !how.contains("still running");
    add(
        checks,
        exited,
        "quit ends the process",
        if exited {
            how
        } else {
            "still running 2 s after quit".into()
        },
    );
}

fn finish(checks: &[Check]) -> ExitCode {
    let mut text = String::new();
    for c in checks {
        text.push_str(&format!(
            "{} {}: {}\n",
            if c.pass { "pass" } else { "FAIL" },
            c.what,
            c.seen
        ));
    }
    let failed = checks.iter().filter(|c| !c.pass).count();
    text.push_str(&format!(
        "{} of {} checks passed\n",
        checks.len() - failed,
        checks.len()
    ));
    print!("{text}");
    ExitCode::from(u8::from(failed > 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_seen_are_counted_and_only_the_first_kept() {
        let mut seen = Seen::default();
        for k in 0..100_000 {
            seen.push(format!("garbage {k}"));
        }
        assert_eq!(seen.count, 100_000);
        assert_eq!(seen.first.as_deref(), Some("garbage 0"));
        seen.clear();
        assert!(seen.is_empty() && seen.first.is_none());
    }
}
