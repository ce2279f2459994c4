//! `--replay FILE`: re-validates every record of a record file with the
//! record's replay check (`record::replay`), which the referee gives the
//! reader of its own command lines (a record's `RefereeCommand` tag says
//! how many games its match has). With `--tb DIR`, each record adjudicated
//! by the tables is checked against them (`tables_check`).

use super::RunError;
use super::cli::recorded_match;
use super::matches::tablebase::Judge;
use super::store::files::{FileError, open_regular};
use super::store::records;
use super::variants::{Variants, check_record};
use crate::client::reason::Reason;
use crate::core::endgame::Layered;
use crate::core::{GameLine, LineError, RuleError};
use crate::games::{GameId, LayeredVisitor, Registered};
use crate::protocol::record::{Record, RecordChunks, parse_record};
use crate::protocol::{ParseError, parse_position};
use crate::record::rules_of;
use crate::record::tables::TbRule;
use crate::record::tags;
use std::any::Any;
use std::fmt;
use std::path::Path;
use std::process::ExitCode;

/// Games in the match a record's `RefereeCommand` describes (`None`
/// without a readable one). The records of a file mostly share one
/// command: the last is remembered, so a file is not parsed once per record.
pub fn match_games(r: &Record) -> Option<u64> {
    thread_local! {
        static LAST: std::cell::RefCell<Option<(String, Option<u64>)>> =
            const { std::cell::RefCell::new(None) };
    }
    let command = r.tag(tags::COMMAND)?;
    LAST.with_borrow_mut(|last| {
        if let Some((c, total)) = last.as_ref()
            && c == command
        {
            return *total;
        }
        let total = records::split_shell_words(command)
            .and_then(|w| recorded_match(&w))
            .map(|m| m.total_games)
            .filter(|&t| t > 0);
        *last = Some((command.to_string(), total));
        total
    })
}

/// Checks every record of `path`, printing each problem; exit 0 when all
/// are valid, 1 when some are not (a record that cannot even be read, such
/// as one with a byte that is not UTF-8, is one invalid record); an error
/// when the file cannot be read (missing, not a regular file, an I/O
/// error: the binary exits with 2). The file is read one record at a time.
pub fn run_replay(
    path: &Path,
    tb: Option<&Path>,
    variants: &Variants,
) -> Result<ExitCode, RunError> {
    let unreadable = |e| RunError::File(FileError::io("read", "", path)(e));
    let file = open_regular(path, std::fs::OpenOptions::new().read(true)).map_err(unreadable)?;
    let mut total = 0;
    let mut bad = 0;
    let mut judges = Judges::default();
    let mut unchecked = 0;
    for chunk in RecordChunks::new(std::io::BufReader::new(file)) {
        let chunk = chunk.map_err(unreadable)?;
        total += 1;
        let verdict = chunk.text.map_err(|e| e.to_string()).and_then(|text| {
            let r = parse_record(&text).map_err(|e| e.to_string())?;
            let tabled = r.tag(tags::TABLEBASE_ADJUDICATION).is_some();
            check_record(&r, Some(match_games), |v| variants.named(v))
                .map_err(|e| e.to_string())
                .and_then(|()| match tb {
                    Some(dir) if tabled => judges.check(&r, dir).map_err(|e| e.to_string()),
                    None if r.tag(tags::TERMINATION) == Some(Reason::Tablebase.message()) => {
                        unchecked += 1;
                        Ok(())
                    }
                    _ => Ok(()),
                })
                .map_err(|e| match r.tag(tags::GAME) {
                    Some(g) => format!("game {g}: {e}"),
                    None => e,
                })
        });
        if let Err(e) = verdict {
            bad += 1;
            println!("{} line {}: {e}", path.display(), chunk.line);
        }
    }
    if unchecked > 0 {
        println!(
            "{}: {unchecked} tablebase adjudications not checked against the tables: give --tb DIR",
            path.display()
        );
    }
    if bad == 0 {
        println!("{}: {total} records, all valid", path.display());
        Ok(ExitCode::SUCCESS)
    } else {
        println!("{}: {total} records, {bad} invalid", path.display());
        Ok(ExitCode::from(1))
    }
}

/// Why a record's tablebase adjudication is not borne out, in the words
/// the replay prints after the record's place.
#[derive(Debug)]
enum TbDisagrees {
    /// The record's variant has no endgame tables.
    NoTablesFor(String),
    /// The `TablebaseAdjudication` tag does not read.
    Unreadable,
    /// The tables of the record's game and rules cannot be opened.
    NoTables,
    Rules(RuleError),
    Fen(ParseError),
    Line(LineError),
    /// At the end, a result other than the record's.
    OtherResult {
        call: &'static str,
        ply: usize,
        result: String,
    },
    /// A result before the end: the referee should have stopped there.
    BeforeEnd {
        call: &'static str,
        ply: usize,
    },
    /// No result where the record says the tables ended the game.
    NoCall {
        ply: usize,
    },
}

impl fmt::Display for TbDisagrees {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tag = "TablebaseAdjudication";
        match self {
            TbDisagrees::NoTablesFor(variant) => {
                write!(f, "{tag}: {variant} has no endgame tables")
            }
            TbDisagrees::Unreadable => write!(f, "{tag}: unreadable"),
            TbDisagrees::NoTables => write!(f, "{tag}: no tables"),
            TbDisagrees::Rules(e) => e.fmt(f),
            TbDisagrees::Fen(e) => e.fmt(f),
            TbDisagrees::Line(e) => e.fmt(f),
            TbDisagrees::OtherResult { call, ply, result } => write!(
                f,
                "the tables call {call} at ply {ply}, the record says {result}"
            ),
            TbDisagrees::BeforeEnd { call, ply } => write!(
                f,
                "the tables call {call} at ply {ply}, before the record's end"
            ),
            TbDisagrees::NoCall { ply } => {
                write!(f, "the tables do not call the position at ply {ply}")
            }
        }
    }
}

impl std::error::Error for TbDisagrees {}

/// The tables a replay has opened, one per game, rule options and tag
/// (each table file is read once for the whole record file): each a
/// `Judge` of its game's type, kept by type.
#[derive(Default)]
struct Judges(Vec<(GameId, String, TbRule, Box<dyn Any>)>);

impl Judges {
    /// A record under a `TablebaseAdjudication` tag: the tables call no
    /// position the referee played from before its end, and at its end,
    /// if the record says they ended it, they call its result.
    fn check(&mut self, r: &Record, dir: &Path) -> Result<(), TbDisagrees> {
        let variant = r.tag(tags::VARIANT).unwrap_or("");
        let no_tables = || TbDisagrees::NoTablesFor(variant.to_string());
        let game = GameId::from_name(variant)
            .filter(|g| g.layered())
            .ok_or_else(no_tables)?;
        let rule = r
            .tag(tags::TABLEBASE_ADJUDICATION)
            .and_then(TbRule::parse)
            .ok_or(TbDisagrees::Unreadable)?;
        struct Check<'a> {
            judges: &'a mut Judges,
            game: GameId,
            r: &'a Record,
            dir: &'a Path,
            rule: TbRule,
        }
        impl LayeredVisitor for Check<'_> {
            type Output = Result<(), TbDisagrees>;
            fn visit<L: Registered + Layered>(self) -> Self::Output {
                self.judges
                    .check_as::<L>(self.game, self.r, self.dir, self.rule)
            }
        }
        let check = Check {
            judges: self,
            game,
            r,
            dir,
            rule,
        };
        game.visit_layered(check)
            .unwrap_or_else(|| Err(no_tables()))
    }

    fn check_as<G: Registered>(
        &mut self,
        game: GameId,
        r: &Record,
        dir: &Path,
        rule: TbRule,
    ) -> Result<(), TbDisagrees> {
        let rules = rules_of::<G>(r).map_err(TbDisagrees::Rules)?;
        let key = format!("{rules:?}");
        let at = match self
            .0
            .iter()
            .position(|(g, k, t, _)| *g == game && *k == key && *t == rule)
        {
            Some(at) => at,
            None => {
                let judge = Judge::<G>::open(dir, &rules, rule).ok_or(TbDisagrees::NoTables)?;
                self.0.push((game, key, rule, Box::new(judge)));
                self.0.len() - 1
            }
        };
        let judge = self.0[at]
            .3
            .downcast_ref::<Judge<G>>()
            .ok_or(TbDisagrees::NoTables)?;
        let start = match r.tag(tags::FEN) {
            Some(f) => Some(parse_position(f).map_err(TbDisagrees::Fen)?),
            None => None,
        };
        let moves: Vec<_> = r.moves.iter().map(|m| m.mv).collect();
        let line =
            GameLine::<G>::from_text(start.as_ref(), &moves, &rules).map_err(TbDisagrees::Line)?;
        let book = r
            .moves
            .iter()
            .take_while(|m| m.comment.as_deref() == Some("book"))
            .count();
        let term = r.tag(tags::TERMINATION).and_then(Reason::from_message);
        let result = r.tag(tags::RESULT).unwrap_or("");
        let plies = moves.len();
        for ply in book..=plies {
            // At the end, the rules and the other adjudications come first;
            // an engine's failure came after the tables were asked.
            let asked =
                ply < plies || term.is_some_and(|t| t == Reason::Tablebase || t.is_failure());
            if !asked {
                continue;
            }
            let end = ply == plies && term == Some(Reason::Tablebase);
            match (judge.call(line.position(ply)), end) {
                (Some(o), true) if o.score_text() == result => {}
                (Some(o), true) => {
                    return Err(TbDisagrees::OtherResult {
                        call: o.score_text(),
                        ply,
                        result: result.to_string(),
                    });
                }
                (Some(o), false) => {
                    return Err(TbDisagrees::BeforeEnd {
                        call: o.score_text(),
                        ply,
                    });
                }
                (None, true) => {
                    return Err(TbDisagrees::NoCall { ply });
                }
                (None, false) => {}
            }
        }
        Ok(())
    }
}
