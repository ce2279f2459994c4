//! The referee's text formats: game records (PGN-like: `[Tag "value"]`
//! lines, then numbered moves in Koma notation with optional `{comments}`,
//! ending with the result), and opening lines (a position string and/or a
//! move list). Parsing is syntax only; the referee replays moves with the
//! rules library.
//!
//! A record file is a sequence of records. It is cut into chunks at each
//! tag line that follows a non-tag line, so one damaged record (a run killed
//! mid-write leaves a truncated last one) never hides the others.

use super::error::{PErr, PResult, ParseError};
use super::notation::{move_text, position_text};
use crate::core::{Color, MoveText, PositionText};
use nom::{
    Parser,
    branch::alt,
    bytes::complete::{tag, take_till, take_while, take_while1},
    character::complete::{char, digit1, multispace0, multispace1, none_of, space0, space1},
    combinator::{all_consuming, cut, eof, opt, peek, recognize, verify},
    error::context,
    multi::{many0, many1},
    sequence::{delimited, preceded, terminated},
};
use std::fmt;
use std::ops::Range;

/// One move of a record with the comment that follows it, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    pub mv: MoveText,
    pub comment: Option<String>,
}

/// A line beside a record's moves, written `( … )` after the move it
/// replaces (PGN's habit): its moves, each with its comment, and lines
/// beside its own moves in turn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variation {
    /// The index, in the line it branches from, of the move it replaces.
    pub at: usize,
    pub moves: Vec<RecordMove>,
    pub variations: Vec<Variation>,
}

/// Variations nest at most this deep; a deeper one is refused, not
/// followed (the parser recurses once per level).
pub const MAX_VARIATION_DEPTH: usize = 32;

/// One game record: tags in file order, moves, and the result token
/// (`1-0`, `0-1`, `1/2-1/2` or `*`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<RecordMove>,
    pub result: String,
}

impl Record {
    /// The value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(t) => t.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// Who moves first in the record's start position: from its `FEN` tag,
    /// else the first player.
    fn start_side(&self) -> Color {
        self.tag("FEN")
            .and_then(|f| super::parse_position(f).ok())
            .map_or(Color::First, |p| p.side)
    }
}

/// One chunk of a record file: where it is, and the record or why it could
/// not be read.
#[derive(Clone, Debug)]
pub struct RecordItem {
    /// Byte range of the chunk in the file text.
    pub span: Range<usize>,
    /// 1-based line where the chunk starts.
    pub line: usize,
    pub record: Result<Record, ParseError>,
}

/// The result tokens a record may end with.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

fn tag_name(i: &str) -> PResult<'_, &str> {
    context(
        "a tag name",
        take_while1(|c: char| c.is_ascii_alphanumeric() || c == '_'),
    )
    .parse(i)
}

fn tag_value(i: &str) -> PResult<'_, String> {
    let escaped = preceded(char('\\'), alt((char('"'), char('\\'))));
    let plain = none_of("\"\\\n");
    delimited(
        char('"'),
        many0(alt((escaped, plain))).map(|cs| cs.into_iter().collect()),
        context("a closing quote", char('"')),
    )
    .parse(i)
}

fn tag_pair(i: &str) -> PResult<'_, (String, String)> {
    delimited(
        (space0, char('['), space0),
        cut((
            terminated(tag_name, space1),
            context("a quoted tag value", tag_value),
        )),
        cut(context("] after the tag", preceded(space0, char(']')))),
    )
    .map(|(n, v)| (n.to_string(), v))
    .parse(i)
}

fn result_token(i: &str) -> PResult<'_, &str> {
    terminated(
        alt((tag("1-0"), tag("0-1"), tag("1/2-1/2"), tag("*"))),
        peek(alt((multispace1, eof))),
    )
    .parse(i)
}

enum Token {
    Number,
    Comment(String),
    Move(MoveText),
    Result(String),
    Open,
    Close,
}

/// A move of the movetext, which may be glued to the `)` that ends its
/// variation.
fn record_move(i: &str) -> PResult<'_, MoveText> {
    let end = i
        .find(|c: char| c.is_whitespace() || c == ')')
        .unwrap_or(i.len());
    let (tok, rest) = i.split_at(end);
    let (_, mv) = move_text(tok)?;
    Ok((rest, mv))
}

fn movetext_token(i: &str) -> PResult<'_, Token> {
    let number = recognize((digit1, many1(char('.'))));
    let comment = delimited(char('{'), take_till(|c| c == '}'), cut(char('}')));
    let line_comment = preceded(char(';'), take_while(|c| c != '\n'));
    alt((
        result_token.map(|r| Token::Result(r.to_string())),
        char('(').map(|_| Token::Open),
        char(')').map(|_| Token::Close),
        number.map(|_| Token::Number),
        comment.map(|c: &str| Token::Comment(c.trim().to_string())),
        line_comment.map(|_| Token::Number),
        record_move.map(Token::Move),
    ))
    .parse(i)
}

/// The moves of one line and the variations beside them.
type Line = (Vec<RecordMove>, Vec<Variation>);

fn refused<'a>(rest: &'a str, expected: &'static str) -> nom::Err<PErr<'a>> {
    nom::Err::Failure(PErr {
        rest,
        expected,
        named: true,
    })
}

/// Moves up to and including the result token (`depth` 0), or a
/// variation's moves up to its `)` (`depth` its nesting).
fn line(mut i: &str, depth: usize) -> PResult<'_, (Line, Option<String>)> {
    let mut moves: Vec<RecordMove> = Vec::new();
    let mut variations: Vec<Variation> = Vec::new();
    loop {
        let (rest, _) = multispace0(i)?;
        if rest.is_empty() {
            let expected = match depth {
                0 => "the result (1-0, 0-1, 1/2-1/2 or *)",
                _ => ") to end the variation",
            };
            return Err(refused(rest, expected));
        }
        let (rest, tok) = context("a move, a comment or the result", movetext_token).parse(rest)?;
        match tok {
            Token::Number => {}
            Token::Comment(c) => {
                if let Some(last) = moves.last_mut() {
                    last.comment = Some(c);
                }
            }
            Token::Move(mv) => moves.push(RecordMove { mv, comment: None }),
            Token::Result(r) if depth == 0 => return Ok((rest, ((moves, variations), Some(r)))),
            Token::Result(_) => return Err(refused(i, ") before the result")),
            Token::Close if depth > 0 => return Ok((rest, ((moves, variations), None))),
            Token::Close => return Err(refused(i, "a move, a comment or the result")),
            Token::Open => {
                if moves.is_empty() {
                    return Err(refused(i, "a move before a variation"));
                }
                if depth >= MAX_VARIATION_DEPTH {
                    return Err(refused(i, "variations nested at most 32 deep"));
                }
                let (after, ((vmoves, vvars), _)) = line(rest, depth + 1)?;
                if vmoves.is_empty() {
                    return Err(refused(rest, "a move in the variation"));
                }
                variations.push(Variation {
                    at: moves.len() - 1,
                    moves: vmoves,
                    variations: vvars,
                });
                i = after;
                continue;
            }
        }
        i = rest;
    }
}

fn record(i: &str) -> PResult<'_, (Record, Vec<Variation>)> {
    (
        many1(terminated(
            tag_pair,
            (space0, alt((tag("\r\n"), tag("\n")))),
        )),
        cut(|i| line(i, 0)),
    )
        .map(|(tags, ((moves, variations), result))| {
            let record = Record {
                tags,
                moves,
                result: result.unwrap_or_default(),
            };
            (record, variations)
        })
        .parse(i)
}

/// Whether a line opens or continues a record's tags: it begins with `[`
/// after blanks. A record starts at a tag line whose previous line is not
/// one.
fn is_tag_line(line: &[u8]) -> bool {
    line.trim_ascii_start().starts_with(b"[")
}

/// Byte offsets where chunks start: each tag line whose previous line is
/// not one.
fn chunk_starts(text: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut offset = 0;
    let mut prev_tag = false;
    for line in text.split_inclusive('\n') {
        let is_tag = is_tag_line(line.as_bytes());
        if is_tag && !prev_tag {
            starts.push(offset);
        }
        prev_tag = is_tag;
        offset += line.len();
    }
    starts
}

/// Parses one chunk: exactly one record, with blanks after it.
pub fn parse_record(chunk: &str) -> Result<Record, ParseError> {
    parse_record_tree(chunk).map(|(r, _)| r)
}

/// Parses one chunk with the variations beside its moves (which
/// `parse_record` reads and leaves out).
pub fn parse_record_tree(chunk: &str) -> Result<(Record, Vec<Variation>), ParseError> {
    all_consuming(terminated(record, multispace0))
        .parse(chunk)
        .map(|(_, r)| r)
        .map_err(|e| ParseError::from_nom(chunk, e))
}

/// Reads every record of a record file. Text before the first record (a
/// header, blank lines) is ignored; a chunk that is not one whole record
/// (truncated, damaged) is an item with its error.
pub fn parse_records(text: &str) -> Vec<RecordItem> {
    let starts = chunk_starts(text);
    let mut items = Vec::with_capacity(starts.len());
    // Lines are counted as the chunks go by: counting from the start of
    // the text for each record made a file of many records quadratic.
    let mut line = 1;
    let mut counted = 0;
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(text.len());
        let chunk = &text[start..end];
        line += text[counted..start].matches('\n').count();
        counted = start;
        items.push(RecordItem {
            span: start..end,
            line,
            record: parse_record(chunk),
        });
    }
    items
}

/// Longest record `RecordChunks` hands out; a record file of a long match
/// holds many records, each far shorter.
pub const MAX_RECORD_BYTES: usize = 16 << 20;

/// One record's text from a stream, cut by the same rule as
/// `parse_records`: where it starts (1-based line) and its text, or why
/// the text cannot be had (longer than `MAX_RECORD_BYTES`, not UTF-8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    pub line: usize,
    /// Byte offset of its first line from the start of the stream: a
    /// reader following a growing file starts again there.
    pub offset: u64,
    pub text: Result<String, ChunkError>,
}

/// Why a record's text cannot be had from a stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChunkError {
    /// Longer than `MAX_RECORD_BYTES` (it is skipped, not kept).
    TooLong,
    /// Not UTF-8: the first bad byte, 1-based within the record.
    NotUtf8 { byte: usize },
}

impl fmt::Display for ChunkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChunkError::TooLong => {
                write!(f, "a record longer than {} MiB", MAX_RECORD_BYTES >> 20)
            }
            ChunkError::NotUtf8 { byte } => {
                write!(f, "not UTF-8 text (byte {byte} of the record)")
            }
        }
    }
}

impl std::error::Error for ChunkError {}

/// The records of a stream, one chunk at a time, so a file of any size is
/// read in bounded memory. A read error ends the iteration with `Err`.
pub struct RecordChunks<R> {
    input: R,
    line: usize,
    /// Bytes read so far.
    read: u64,
    /// The tag line that starts the next chunk, read ahead: its line, its
    /// offset, its bytes.
    pending: Option<(usize, u64, Vec<u8>)>,
    done: bool,
}

impl<R: std::io::BufRead> RecordChunks<R> {
    pub fn new(input: R) -> RecordChunks<R> {
        RecordChunks {
            input,
            line: 0,
            read: 0,
            pending: None,
            done: false,
        }
    }

    /// The next line, at most `MAX_RECORD_BYTES + 1` bytes of it kept
    /// (the rest of a longer line is skipped): `Ok(None)` at the end.
    fn next_line(&mut self) -> std::io::Result<Option<Vec<u8>>> {
        let mut buf = Vec::new();
        let mut any = false;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                break;
            }
            any = true;
            let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            let room = (MAX_RECORD_BYTES + 1).saturating_sub(buf.len());
            buf.extend_from_slice(&chunk[..take.min(room)]);
            self.input.consume(take);
            self.read += take as u64;
            if done {
                break;
            }
        }
        if any {
            self.line += 1;
            Ok(Some(buf))
        } else {
            Ok(None)
        }
    }
}

impl<R: std::io::BufRead> Iterator for RecordChunks<R> {
    type Item = std::io::Result<Chunk>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        // Skip to the first tag line (text before a record is ignored).
        let (line, offset, mut text) = match self.pending.take() {
            Some(p) => p,
            None => loop {
                let at = self.read;
                match self.next_line() {
                    Ok(Some(l)) if is_tag_line(&l) => break (self.line, at, l),
                    Ok(Some(_)) => {}
                    Ok(None) => {
                        self.done = true;
                        return None;
                    }
                    Err(e) => {
                        self.done = true;
                        return Some(Err(e));
                    }
                }
            },
        };
        let mut prev_tag = true;
        let mut too_long = text.len() > MAX_RECORD_BYTES;
        loop {
            let at = self.read;
            match self.next_line() {
                Ok(Some(l)) => {
                    let tag = is_tag_line(&l);
                    if tag && !prev_tag {
                        self.pending = Some((self.line, at, l));
                        break;
                    }
                    prev_tag = tag;
                    if !too_long {
                        if text.len() + l.len() > MAX_RECORD_BYTES {
                            too_long = true;
                            text = Vec::new();
                        } else {
                            text.extend_from_slice(&l);
                        }
                    }
                }
                Ok(None) => {
                    self.done = true;
                    break;
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
        let text = if too_long {
            Err(ChunkError::TooLong)
        } else {
            String::from_utf8(text).map_err(|e| ChunkError::NotUtf8 {
                byte: e.utf8_error().valid_up_to() + 1,
            })
        };
        Some(Ok(Chunk { line, offset, text }))
    }
}

fn escape(v: &str) -> String {
    let mut s = String::with_capacity(v.len());
    for c in v.chars() {
        match c {
            '"' | '\\' => {
                s.push('\\');
                s.push(c);
            }
            '\n' | '\r' => s.push(' '),
            _ => s.push(c),
        }
    }
    s
}

/// Comments may not contain `}`; anything else is kept.
fn comment_text(c: &str) -> String {
    c.replace('}', ")").replace('\n', " ")
}

/// Longest movetext line written.
const LINE_WIDTH: usize = 79;

/// The tokens of a line whose first move is ply `first` (0-based) of a
/// game started by `start`, with its variations in parentheses after the
/// moves they replace; a move after a variation carries its number again.
fn line_tokens(
    moves: &[RecordMove],
    variations: &[Variation],
    start: Color,
    first: usize,
    tokens: &mut Vec<String>,
) {
    let mut numbered = true;
    for (k, m) in moves.iter().enumerate() {
        let ply = first + k;
        let second = (ply % 2 == 1) == (start == Color::First);
        let number = (ply + usize::from(start == Color::Second)) / 2 + 1;
        if !second {
            tokens.push(format!("{number}."));
        } else if numbered {
            tokens.push(format!("{number}..."));
        }
        numbered = false;
        tokens.push(m.mv.to_string());
        if let Some(c) = &m.comment {
            tokens.push(format!("{{{}}}", comment_text(c)));
        }
        for v in variations.iter().filter(|v| v.at == k) {
            let from = tokens.len();
            line_tokens(&v.moves, &v.variations, start, ply, tokens);
            if let Some(t) = tokens.get_mut(from) {
                t.insert(0, '(');
            }
            if let Some(t) = tokens.last_mut() {
                t.push(')');
            }
            numbered = true;
        }
    }
}

impl Record {
    /// The record as `Display` writes it, with `variations` beside its
    /// moves.
    pub fn text_with(&self, variations: &[Variation]) -> String {
        Written(self, variations).to_string()
    }
}

struct Written<'a>(&'a Record, &'a [Variation]);

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Written(self, &[]).fmt(f)
    }
}

impl fmt::Display for Written<'_> {
    /// Tags, a blank line, the movetext wrapped at 79 columns, the result,
    /// and a blank line, so records concatenate into a file.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Written(record, variations) = *self;
        for (name, value) in &record.tags {
            writeln!(f, "[{name} \"{}\"]", escape(value))?;
        }
        writeln!(f)?;
        let mut tokens: Vec<String> = Vec::with_capacity(record.moves.len() * 2 + 1);
        line_tokens(
            &record.moves,
            variations,
            record.start_side(),
            0,
            &mut tokens,
        );
        tokens.push(record.result.clone());
        let mut width = 0;
        for t in tokens {
            if width > 0 && width + 1 + t.len() > LINE_WIDTH {
                writeln!(f)?;
                width = 0;
            }
            if width > 0 {
                f.write_str(" ")?;
                width += 1;
            }
            f.write_str(&t)?;
            width += t.len();
        }
        writeln!(f)?;
        writeln!(f)
    }
}

/// One line of an openings file: an optional start position and moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningLine {
    /// `None` is the game's start position.
    pub start: Option<PositionText>,
    pub moves: Vec<MoveText>,
}

fn moves_list(i: &str) -> PResult<'_, Vec<MoveText>> {
    many0(preceded(multispace1, move_text)).parse(i)
}

fn opening_line(i: &str) -> PResult<'_, OpeningLine> {
    let moves_kw = opt(preceded((multispace1, tag("moves")), cut(moves_list)));
    let startpos = preceded(tag("startpos"), moves_kw).map(|m| OpeningLine {
        start: None,
        moves: m.unwrap_or_default(),
    });
    let moves_kw = opt(preceded((multispace1, tag("moves")), cut(moves_list)));
    let fen = (
        preceded(opt((tag("fen"), multispace1)), position_text),
        moves_kw,
    )
        .map(|(p, m)| OpeningLine {
            start: Some(p),
            moves: m.unwrap_or_default(),
        });
    // A first word with a '/' is a position, though its first rank may read
    // like a move (`c1S2/…`): a move's parser, once past a square, does not
    // backtrack.
    let no_ranks = peek(verify(take_till(|c: char| c.is_whitespace()), |w: &str| {
        !w.contains('/')
    }));
    let bare_moves = preceded(no_ranks, (move_text, moves_list)).map(|(first, mut rest)| {
        rest.insert(0, first);
        OpeningLine {
            start: None,
            moves: rest,
        }
    });
    context(
        "a position string or moves",
        alt((startpos, bare_moves, fen)),
    )
    .parse(i)
}

/// Parses one opening: `startpos [moves …]`, `[fen] <position> [moves …]`,
/// or a bare move list.
pub fn parse_opening(line: &str) -> Result<OpeningLine, ParseError> {
    let t = line.trim();
    all_consuming(terminated(opening_line, multispace0))
        .parse(t)
        .map(|(_, o)| o)
        .map_err(|e| ParseError::from_nom(t, e))
}

/// Reads an openings file: one opening per line; blank lines and lines
/// starting with `#` or `;` are skipped. Each opening comes with its
/// 1-based line number; the first line that is not an opening is the
/// error, with its number.
pub fn parse_openings(text: &str) -> Result<Vec<(usize, OpeningLine)>, (usize, ParseError)> {
    // A byte-order mark, as some editors on Windows write one.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with(';') {
            continue;
        }
        lines.push((i + 1, parse_opening(t).map_err(|e| (i + 1, e))?));
    }
    Ok(lines)
}

/// A tag value that must be a whole number.
pub fn tag_number(r: &Record, name: &str) -> Option<u64> {
    r.tag(name).and_then(|v| v.trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parse_move;

    fn sample() -> Record {
        Record {
            tags: vec![
                ("Event".into(), "koma \"test\" \\ one".into()),
                ("Variant".into(), "hasami".into()),
            ],
            moves: vec![
                RecordMove {
                    mv: parse_move("a1a2").unwrap(),
                    comment: Some("book".into()),
                },
                RecordMove {
                    mv: parse_move("i9i8").unwrap(),
                    comment: None,
                },
                RecordMove {
                    mv: parse_move("b1b5").unwrap(),
                    comment: Some("+0.12/3 0.010s".into()),
                },
            ],
            result: "1/2-1/2".into(),
        }
    }

    #[test]
    fn records_round_trip_with_escapes_and_comments() {
        let r = sample();
        let text = r.to_string();
        assert!(text.contains("[Event \"koma \\\"test\\\" \\\\ one\"]"));
        assert!(text.contains("1. a1a2 {book} i9i8 2. b1b5 {+0.12/3 0.010s} 1/2-1/2"));
        let items = parse_records(&text);
        assert_eq!(items.len(), 1);
        assert_eq!(items[0].record.as_ref().unwrap(), &r);
    }

    #[test]
    fn variations_are_written_in_parentheses_and_read_back() {
        let r = sample();
        let mv = |m: &str, c: Option<&str>| RecordMove {
            mv: parse_move(m).unwrap(),
            comment: c.map(str::to_string),
        };
        // Beside i9i8: c9c5 b1b5, and beside that b1b5, b1b4; beside b1b5
        // of the main line, h1h3.
        let vars = vec![
            Variation {
                at: 1,
                moves: vec![mv("c9c5", Some("mine")), mv("b1b5", None)],
                variations: vec![Variation {
                    at: 1,
                    moves: vec![mv("b1b4", None)],
                    variations: vec![],
                }],
            },
            Variation {
                at: 2,
                moves: vec![mv("h1h3", None)],
                variations: vec![],
            },
        ];
        let text = r.text_with(&vars);
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains(
                "1. a1a2 {book} i9i8 (1... c9c5 {mine} 2. b1b5 (2. b1b4)) 2. b1b5 \
                 {+0.12/3 0.010s} (2. h1h3) 1/2-1/2"
            ),
            "{text}"
        );
        let (back, back_vars) = parse_record_tree(&text).unwrap();
        assert_eq!(back, r);
        assert_eq!(back_vars, vars);
        // The referee's reader takes the record and leaves them out.
        assert_eq!(parse_records(&text)[0].record.as_ref().unwrap(), &r);
        assert_eq!(r.text_with(&[]), r.to_string());
    }

    #[test]
    fn malformed_variations_are_refused_with_where() {
        let head = "[Variant \"hasami\"]\n\n";
        for (movetext, words) in [
            ("(1. a1a2) 1/2-1/2", "a move before a variation"),
            ("1. a1a2 (1. a1a3 1/2-1/2", ") before the result"),
            ("1. a1a2 (1. a1a3", ") to end the variation"),
            ("1. a1a2 () 1/2-1/2", "a move in the variation"),
            ("1. a1a2 ) 1/2-1/2", "a move, a comment or the result"),
        ] {
            let e = parse_record(&format!("{head}{movetext}\n")).unwrap_err();
            assert!(e.to_string().contains(words), "{movetext}: {e}");
        }
        // Nesting is bounded: 32 levels read, 33 refused.
        let nest = |n: usize| {
            format!(
                "{head}1. a1a2 {}{} 1/2-1/2\n",
                "(1. a1a3 ".repeat(n),
                ")".repeat(n)
            )
        };
        assert!(parse_record(&nest(MAX_VARIATION_DEPTH)).is_ok());
        let e = parse_record(&nest(MAX_VARIATION_DEPTH + 1)).unwrap_err();
        assert!(e.to_string().contains("32 deep"), "{e}");
    }

    #[test]
    fn a_record_from_a_second_player_position_numbers_with_dots() {
        let mut r = sample();
        r.tags.push(("FEN".into(), "3/3/3[KRBkrb] b 1".into()));
        let text = r.to_string();
        assert!(text.contains("1... a1a2 {book} 2. i9i8 b1b5"), "{text}");
        assert_eq!(parse_records(&text)[0].record.as_ref().unwrap(), &r);
    }

    #[test]
    fn long_games_wrap_and_still_parse() {
        let mut r = sample();
        let m = r.moves[1].clone();
        for _ in 0..200 {
            r.moves.push(m.clone());
        }
        let text = r.to_string();
        assert!(
            text.lines()
                .all(|l| l.len() <= LINE_WIDTH || l.starts_with('['))
        );
        assert_eq!(parse_records(&text)[0].record.as_ref().unwrap(), &r);
    }

    #[test]
    fn a_truncated_last_record_is_an_error_item_and_the_others_survive() {
        let one = sample().to_string();
        let text = format!("{one}{one}{}", &one[..one.len() - 12]);
        let items = parse_records(&text);
        assert_eq!(items.len(), 3);
        assert!(items[0].record.is_ok() && items[1].record.is_ok());
        assert!(items[2].record.is_err());
        assert_eq!(items[2].span.end, text.len());
        assert_eq!(items[1].line, one.lines().count() + 1);
    }

    #[test]
    fn damaged_records_are_refused_with_what_was_expected() {
        for (text, expected) in [
            ("[Event \"x\"]\n\n1. a1a2 zz 1-0\n", "a square like a1"),
            ("[Event \"x\n\n1-0\n", "a closing quote"),
            ("[Event x]\n\n1-0\n", "a quoted tag value"),
            (
                "[Event \"x\"]\n\n1. a1a2\n",
                "the result (1-0, 0-1, 1/2-1/2 or *)",
            ),
            (
                "[Event \"x\"]\n\n1. a1a2 {open\n",
                "a move, a comment or the result",
            ),
            ("[Event \"x\"]\n", "the result (1-0, 0-1, 1/2-1/2 or *)"),
        ] {
            let items = parse_records(text);
            let e = items[0].record.as_ref().unwrap_err();
            assert_eq!(e.expected, expected, "{text:?}");
        }
    }

    #[test]
    fn streamed_chunks_are_the_records_parse_records_finds() {
        let one = sample().to_string();
        let text = format!("; a header\n\n{one}{one}{}", &one[..one.len() - 12]);
        let items = parse_records(&text);
        let chunks: Vec<Chunk> = RecordChunks::new(text.as_bytes())
            .map(Result::unwrap)
            .collect();
        assert_eq!(chunks.len(), items.len());
        for (c, i) in chunks.iter().zip(&items) {
            assert_eq!(c.line, i.line);
            assert_eq!(c.offset, i.span.start as u64);
            assert_eq!(c.text.as_deref(), Ok(&text[i.span.clone()]));
            assert_eq!(
                parse_record(c.text.as_ref().unwrap()).ok(),
                i.record.clone().ok()
            );
        }
    }

    #[test]
    fn a_bad_byte_spoils_one_streamed_record_only() {
        let one = sample().to_string();
        let mut bytes = one.clone().into_bytes();
        bytes.extend_from_slice(b"[Event \"\xff\"]\n\n1-0\n\n");
        bytes.extend_from_slice(one.as_bytes());
        let chunks: Vec<Chunk> = RecordChunks::new(&bytes[..]).map(Result::unwrap).collect();
        assert_eq!(chunks.len(), 3);
        assert!(chunks[0].text.is_ok() && chunks[2].text.is_ok());
        let e = chunks[1].text.as_ref().unwrap_err().to_string();
        assert!(e.contains("not UTF-8 text (byte 9"), "{e}");
    }

    #[test]
    fn a_record_longer_than_the_limit_is_refused_without_being_kept() {
        let mut bytes = b"[Event \"x\"]\n\n".to_vec();
        bytes.extend(std::iter::repeat_n(b'x', MAX_RECORD_BYTES + 10));
        bytes.extend_from_slice(b"\n");
        bytes.extend_from_slice(sample().to_string().as_bytes());
        let chunks: Vec<Chunk> = RecordChunks::new(&bytes[..]).map(Result::unwrap).collect();
        assert_eq!(chunks.len(), 2);
        assert!(
            chunks[0]
                .text
                .as_ref()
                .unwrap_err()
                .to_string()
                .contains("longer than 16 MiB")
        );
        assert_eq!(chunks[1].line, 4);
        assert!(parse_record(chunks[1].text.as_ref().unwrap()).is_ok());
    }

    #[test]
    fn text_before_the_first_record_is_ignored() {
        let text = format!("; a header\n\n{}", sample());
        let items = parse_records(&text);
        assert_eq!(items.len(), 1);
        assert!(items[0].record.is_ok());
    }

    #[test]
    fn openings_are_positions_move_lists_or_both() {
        let o = parse_opening("a1a2 i9i8").unwrap();
        assert_eq!((o.start, o.moves.len()), (None, 2));
        let o = parse_opening("startpos moves a1a2").unwrap();
        assert_eq!((o.start, o.moves.len()), (None, 1));
        let o = parse_opening("startpos").unwrap();
        assert_eq!((o.start, o.moves.len()), (None, 0));
        let o = parse_opening("5/5/5/5/5 w 1").unwrap();
        assert_eq!(o.start.unwrap().to_string(), "5/5/5/5/5 w 1");
        let o = parse_opening("fen 3/3/3[KRBkrb] b 1 moves K@b2").unwrap();
        assert_eq!((o.start.is_some(), o.moves.len()), (true, 1));
        for bad in ["", "a1", "startpos moves x", "5/5 w 1 a1a2", "fen"] {
            assert!(parse_opening(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_bare_position_whose_first_rank_reads_like_a_move_is_a_position() {
        for text in ["c1S2/2s2/C1c2/5/4S w 1", "s4/1c3/c1C2/4C/4C w 1"] {
            let o = parse_opening(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(o.start.unwrap().to_string(), text);
            assert!(o.moves.is_empty());
        }
        let o = parse_opening("c1S2/2s2/C1c2/5/4S w 1 moves c1c2").unwrap();
        assert_eq!(o.moves.len(), 1);
    }
}
