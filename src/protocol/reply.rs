//! Lines an engine sends back (what the referee reads), typed, and their
//! canonical text, which the engine itself prints through `Display`.

use super::error::{PResult, ParseError};
use super::notation::move_text;
use crate::core::MoveText;
use nom::{
    Parser,
    branch::alt,
    bytes::complete::{tag, take_till1},
    character::complete::space1,
    combinator::{all_consuming, cut, map_res, opt, rest, value},
    error::context,
    sequence::preceded,
};
use std::fmt;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InfoScore {
    Cp(i32),
    /// Moves (not plies) to mate; negative when being mated.
    Mate(i32),
}

/// An `info` line. Unknown fields are skipped when reading other engines'
/// output; `string` takes the rest of the line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InfoLine {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<u32>,
    pub score: Option<InfoScore>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    /// Positions whose value came from endgame tables.
    pub tbhits: Option<u64>,
    pub hashfull: Option<u32>,
    pub time: Option<u64>,
    pub pv: Vec<MoveText>,
    pub string: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Id {
        field: String,
        value: String,
    },
    /// `option name …`: kept as the text after `option `.
    Option(String),
    UciOk,
    UgiOk,
    ReadyOk,
    /// `None` is `bestmove (none)`.
    BestMove {
        mv: Option<MoveText>,
        ponder: Option<MoveText>,
    },
    Info(InfoLine),
    /// UGI `response <answer>`.
    Response(String),
}

fn word(i: &str) -> PResult<'_, &str> {
    take_till1(|c: char| c.is_whitespace()).parse(i)
}

fn bestmove(i: &str) -> PResult<'_, Reply> {
    let mv = alt((value(None, tag("(none)")), move_text.map(Some)));
    let ponder = preceded((space1, tag("ponder"), space1), cut(move_text));
    preceded(
        (tag("bestmove"), space1),
        cut(context("a move after bestmove", (mv, opt(ponder)))),
    )
    .map(|(mv, ponder)| Reply::BestMove { mv, ponder })
    .parse(i)
}

fn num<T: std::str::FromStr>(i: &str) -> PResult<'_, T> {
    map_res(word, |w: &str| w.parse::<T>()).parse(i)
}

/// Reads `info` fields: an unknown key is skipped with its value-less
/// token; a known key with a bad value is an error.
fn info(line: &str) -> Result<InfoLine, ParseError> {
    info_fields(line, false).map(|(i, _)| i)
}

/// An `info` line read as a client reads another engine's advice: a known
/// key with a bad value (`score cp 12.5`, `time -1`) is dropped with its
/// value and the rest is kept; the first such error comes back alongside.
/// Never fails on a line that starts with `info`.
pub fn parse_info_lenient(line: &str) -> (InfoLine, Option<ParseError>) {
    match info_fields(line.trim(), true) {
        Ok(r) => r,
        // Not reached: the lenient reader returns every error alongside.
        Err(e) => (InfoLine::default(), Some(e)),
    }
}

fn info_fields(line: &str, lenient: bool) -> Result<(InfoLine, Option<ParseError>), ParseError> {
    let mut out = InfoLine::default();
    let mut first_error = None;
    let mut rest = line.strip_prefix("info").unwrap_or("");
    let bad = |rest: &str, what: &str| ParseError::at_rest(line, rest, what.to_string());
    /// `s` without its first word.
    fn skip_word(s: &str) -> &str {
        let t = s.trim_start();
        word(t).map_or(t, |(r, _)| r)
    }
    loop {
        rest = rest.trim_start();
        let Ok((after, key)) = word(rest) else { break };
        let after_ws = after.trim_start();
        // A bad value: an error, or (lenient) the value dropped.
        macro_rules! bad_value {
            ($e:expr, $skip:expr) => {{
                if !lenient {
                    return Err($e);
                }
                first_error.get_or_insert($e);
                rest = $skip;
                continue;
            }};
        }
        macro_rules! field {
            ($f:expr, $what:expr) => {{
                match num(after_ws) {
                    Ok((r, v)) => {
                        $f = Some(v);
                        rest = r;
                    }
                    Err(_) => bad_value!(bad(after_ws, $what), skip_word(after_ws)),
                }
            }};
        }
        match key {
            "depth" => field!(out.depth, "an integer after depth"),
            "seldepth" => field!(out.seldepth, "an integer after seldepth"),
            "multipv" => field!(out.multipv, "an integer after multipv"),
            "nodes" => field!(out.nodes, "an integer after nodes"),
            "nps" => field!(out.nps, "an integer after nps"),
            "tbhits" => field!(out.tbhits, "an integer after tbhits"),
            "hashfull" => field!(out.hashfull, "an integer after hashfull"),
            "time" => field!(out.time, "an integer after time"),
            "score" => {
                let kind = match word(after_ws) {
                    Ok((r, k)) if k == "cp" || k == "mate" => (r, k),
                    _ => bad_value!(bad(after_ws, "cp or mate after score"), skip_word(after_ws)),
                };
                let (r, kind) = kind;
                let r2 = r.trim_start();
                let (r3, v) = match num::<i32>(r2) {
                    Ok(x) => x,
                    Err(_) => bad_value!(bad(r2, "an integer score"), skip_word(r2)),
                };
                out.score = Some(match kind {
                    "cp" => InfoScore::Cp(v),
                    _ => InfoScore::Mate(v),
                });
                rest = r3;
                // Bounds are accepted and dropped.
                let t = rest.trim_start();
                for b in ["lowerbound", "upperbound"] {
                    if let Some(r) = t.strip_prefix(b) {
                        rest = r;
                    }
                }
            }
            "pv" => {
                rest = after;
                loop {
                    let t = rest.trim_start();
                    match move_text(t) {
                        Ok((r, m)) if !t.is_empty() => {
                            out.pv.push(m);
                            rest = r;
                        }
                        _ => break,
                    }
                }
            }
            "string" => {
                out.string = Some(after_ws.to_string());
                break;
            }
            _ => rest = after,
        }
    }
    Ok((out, first_error))
}

/// Parses one line an engine printed. Unknown lines are errors; the
/// referee decides whether that matters.
pub fn parse_reply(line: &str) -> Result<Reply, ParseError> {
    let t = line.trim();
    let first = t.split_whitespace().next().unwrap_or("");
    if first == "info" {
        return info(t).map(Reply::Info);
    }
    let simple = alt((
        value(Reply::UciOk, tag("uciok")),
        value(Reply::UgiOk, tag("ugiok")),
        value(Reply::ReadyOk, tag("readyok")),
        bestmove,
        preceded((tag("response"), space1), rest).map(|r: &str| Reply::Response(r.to_string())),
        preceded((tag("option"), space1), rest).map(|r: &str| Reply::Option(r.to_string())),
        preceded((tag("id"), space1), (word, opt(preceded(space1, rest)))).map(
            |(f, v): (&str, Option<&str>)| Reply::Id {
                field: f.to_string(),
                value: v.unwrap_or("").to_string(),
            },
        ),
    ));
    all_consuming(context("an engine reply", simple))
        .parse(t)
        .map(|(_, r)| r)
        .map_err(|e| ParseError::from_nom(t, e))
}

/// What an engine's `option` line declares: the name, the type and, for a
/// combo, its values. The referee uses it to check that an engine knows the
/// options it is about to be sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    pub name: String,
    pub kind: String,
    pub vars: Vec<String>,
}

/// Reads the text after `option ` (as kept in `Reply::Option`). Names and
/// combo values may hold blanks; they end at the next keyword.
pub fn parse_option_decl(text: &str) -> Option<OptionDecl> {
    const KEYS: [&str; 5] = ["type", "default", "min", "max", "var"];
    let mut words = text.split_whitespace().peekable();
    if words.next()? != "name" {
        return None;
    }
    let mut name = Vec::new();
    while let Some(w) = words.next_if(|w| *w != "type") {
        name.push(w);
    }
    words.next()?;
    let kind = words.next()?.to_string();
    let mut vars = Vec::new();
    while let Some(key) = words.next() {
        let mut val = Vec::new();
        while let Some(w) = words.next_if(|w| !KEYS.contains(w)) {
            val.push(w);
        }
        if key == "var" {
            vars.push(val.join(" "));
        }
    }
    if name.is_empty() {
        return None;
    }
    Some(OptionDecl {
        name: name.join(" "),
        kind,
        vars,
    })
}

impl fmt::Display for InfoScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InfoScore::Cp(v) => write!(f, "cp {v}"),
            InfoScore::Mate(v) => write!(f, "mate {v}"),
        }
    }
}

impl fmt::Display for InfoLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let nums: [(&str, Option<u64>); 3] = [
            ("depth", self.depth.map(u64::from)),
            ("seldepth", self.seldepth.map(u64::from)),
            ("multipv", self.multipv.map(u64::from)),
        ];
        for (k, v) in nums {
            if let Some(v) = v {
                write!(f, " {k} {v}")?;
            }
        }
        if let Some(s) = self.score {
            write!(f, " score {s}")?;
        }
        let nums: [(&str, Option<u64>); 5] = [
            ("nodes", self.nodes),
            ("nps", self.nps),
            ("tbhits", self.tbhits),
            ("hashfull", self.hashfull.map(u64::from)),
            ("time", self.time),
        ];
        for (k, v) in nums {
            if let Some(v) = v {
                write!(f, " {k} {v}")?;
            }
        }
        if !self.pv.is_empty() {
            f.write_str(" pv")?;
            for m in &self.pv {
                write!(f, " {m}")?;
            }
        }
        if let Some(s) = &self.string {
            write!(f, " string {s}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id { field, value } => write!(f, "id {field} {value}"),
            Reply::Option(s) => write!(f, "option {s}"),
            Reply::UciOk => f.write_str("uciok"),
            Reply::UgiOk => f.write_str("ugiok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::BestMove { mv, ponder } => {
                match mv {
                    Some(m) => write!(f, "bestmove {m}")?,
                    None => f.write_str("bestmove (none)")?,
                }
                if let Some(p) = ponder {
                    write!(f, " ponder {p}")?;
                }
                Ok(())
            }
            Reply::Info(i) => i.fmt(f),
            Reply::Response(r) => write!(f, "response {r}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_round_trip() {
        for s in [
            "uciok",
            "ugiok",
            "readyok",
            "id name Koma 0.1",
            "option name Hash type spin default 16 min 1 max 4096",
            "bestmove a1b1",
            "bestmove (none)",
            "bestmove P@c4 ponder a3a4",
            "response p1win",
            "info depth 3 seldepth 5 score cp -12 nodes 100 nps 1000 hashfull 3 time 5 pv a1b1 c1c2",
            "info depth 9 score mate -2 nodes 1 time 0 pv pass",
            "info string hello world",
        ] {
            let r = parse_reply(s).unwrap();
            assert_eq!(r.to_string(), s, "{s}");
        }
    }

    #[test]
    fn foreign_info_fields_are_skipped() {
        let Reply::Info(i) = parse_reply(
            "info depth 3 currmove a1a2 currmovenumber 1 score cp 5 lowerbound nodes 9",
        )
        .unwrap() else {
            panic!()
        };
        assert_eq!(i.depth, Some(3));
        assert_eq!(i.score, Some(InfoScore::Cp(5)));
        assert_eq!(i.nodes, Some(9));
    }

    #[test]
    fn option_declarations_give_name_type_and_combo_values() {
        let d = parse_option_decl(
            "name UCI_Variant type combo default kaninariebi var kaninariebi var hasami",
        )
        .unwrap();
        assert_eq!(d.name, "UCI_Variant");
        assert_eq!(d.kind, "combo");
        assert_eq!(d.vars, vec!["kaninariebi", "hasami"]);
        let d =
            parse_option_decl("name Move Overhead type spin default 30 min 0 max 5000").unwrap();
        assert_eq!(
            (d.name.as_str(), d.kind.as_str()),
            ("Move Overhead", "spin")
        );
        assert!(parse_option_decl("name type spin").is_none());
        assert!(parse_option_decl("type spin").is_none());
        assert!(parse_option_decl("name X").is_none());
    }

    #[test]
    fn a_lenient_info_keeps_what_parses_and_names_the_first_bad_value() {
        for (line, bad) in [
            ("info depth 4 score cp 12.5 nodes 9 pv a1a2", "12.5"),
            (
                "info depth 4 score cp 2147483648 nodes 9 pv a1a2",
                "2147483648",
            ),
            ("info depth 4 time -1 nodes 9 pv a1a2", "-1"),
            ("info depth 4 nodes -5 nodes 9 pv a1a2", "-5"),
            ("info depth 4 score wdl 1 nodes 9 pv a1a2", "wdl"),
        ] {
            assert!(parse_reply(line).is_err(), "{line}");
            let (i, e) = parse_info_lenient(line);
            assert_eq!(e.map(|e| e.token), Some(bad.to_string()), "{line}");
            assert_eq!(i.depth, Some(4), "{line}");
            assert_eq!(i.nodes, Some(9), "{line}");
            assert_eq!(i.pv.len(), 1, "{line}");
        }
        let (i, e) = parse_info_lenient("info depth 2 score cp 7 pv a1a2");
        assert_eq!((i.score, e), (Some(InfoScore::Cp(7)), None));
        let (i, e) = parse_info_lenient("info depth");
        assert_eq!((i.depth, e.map(|e| e.token)), (None, Some(String::new())));
    }

    #[test]
    fn garbage_is_an_error() {
        for s in [
            "bestmove",
            "bestmove xyz",
            "hello",
            "info depth x",
            "info score cp",
            "readyokay",
            "bestmove a1b1 ponder",
        ] {
            assert!(parse_reply(s).is_err(), "{s}");
        }
    }
}
