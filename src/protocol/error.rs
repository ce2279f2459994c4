//! Koma's own parse error: where (column), what was expected, and the token
//! found there. nom's types never leave this module tree.

use nom::error::{ContextError, ErrorKind, FromExternalError};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Byte offset in the line where the offending token starts.
    pub column: usize,
    /// The offending whitespace-delimited token, empty at the end of the line.
    pub token: String,
    /// What the parser wanted there, e.g. "an integer after depth".
    pub expected: String,
}

impl ParseError {
    pub fn new(column: usize, token: impl Into<String>, expected: impl Into<String>) -> Self {
        ParseError {
            column,
            token: token.into(),
            expected: expected.into(),
        }
    }

    /// Builds the error from the unparsed rest of `line`.
    pub(crate) fn at_rest(line: &str, rest: &str, expected: impl Into<String>) -> Self {
        let column = line.len().saturating_sub(rest.len());
        let token: String = rest
            .trim_start()
            .split(char::is_whitespace)
            .next()
            .unwrap_or("")
            .chars()
            .take(64)
            .collect();
        let skipped = rest.len() - rest.trim_start().len();
        ParseError::new(column + skipped, token, expected)
    }

    pub(crate) fn from_nom(line: &str, e: nom::Err<PErr<'_>>) -> Self {
        match e {
            nom::Err::Error(e) | nom::Err::Failure(e) => Self::at_rest(line, e.rest, e.expected),
            nom::Err::Incomplete(_) => Self::at_rest(line, "", "more input"),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.token.is_empty() {
            write!(f, "expected {} at end of line", self.expected)
        } else {
            write!(f, "expected {} at {}", self.expected, self.token)
        }
    }
}

impl std::error::Error for ParseError {}

/// The error nom carries while parsing: the unparsed rest, and what was
/// wanted there. The innermost `context` names it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PErr<'a> {
    pub rest: &'a str,
    pub expected: &'static str,
    pub named: bool,
}

impl<'a> nom::error::ParseError<&'a str> for PErr<'a> {
    fn from_error_kind(rest: &'a str, kind: ErrorKind) -> Self {
        PErr {
            rest,
            expected: describe(kind),
            named: false,
        }
    }

    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }

    /// Of two failed alternatives, report the one that got further; at a tie,
    /// the one that says what it wanted.
    fn or(self, other: Self) -> Self {
        match self.rest.len().cmp(&other.rest.len()) {
            std::cmp::Ordering::Less => self,
            std::cmp::Ordering::Greater => other,
            std::cmp::Ordering::Equal if self.named && !other.named => self,
            std::cmp::Ordering::Equal => other,
        }
    }
}

impl<'a> ContextError<&'a str> for PErr<'a> {
    fn add_context(_: &'a str, ctx: &'static str, mut other: Self) -> Self {
        if !other.named {
            other.expected = ctx;
            other.named = true;
        }
        other
    }
}

impl<'a, E> FromExternalError<&'a str, E> for PErr<'a> {
    fn from_external_error(rest: &'a str, kind: ErrorKind, _: E) -> Self {
        <Self as nom::error::ParseError<&'a str>>::from_error_kind(rest, kind)
    }
}

/// A fallback description for errors no `context` named.
fn describe(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::Eof => "the end of the line",
        ErrorKind::Digit => "a number",
        ErrorKind::Tag => "a keyword",
        _ => "valid input",
    }
}

pub(crate) type PResult<'a, O> = nom::IResult<&'a str, O, PErr<'a>>;
