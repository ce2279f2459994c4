//! The command parser: one line in, one typed `Command` out, or a
//! `ParseError` naming the column, the token and what was expected there.

use super::command::{Command, GoParams, PositionCommand, PositionStart, QueryKind};
use super::error::{PResult, ParseError};
use super::notation::{move_text, position_text};
use nom::{
    Parser,
    branch::alt,
    bytes::complete::take_till1,
    character::complete::{space0, space1},
    combinator::{all_consuming, cut, map_res, opt, rest, value, verify},
    error::context,
    multi::{many0, separated_list1},
    sequence::{delimited, preceded},
};
use std::str::FromStr;

/// A whole word `k`, not a prefix of a longer word.
fn keyword<'a>(
    k: &'static str,
) -> impl Parser<&'a str, Output = &'a str, Error = super::error::PErr<'a>> {
    verify(word, move |w: &str| w == k)
}

fn word(i: &str) -> PResult<'_, &str> {
    take_till1(|c: char| c.is_whitespace()).parse(i)
}

/// A blank, then a whitespace-delimited number of type `T`, named `what`
/// in errors (also when it is missing).
fn number<'a, T: FromStr>(
    what: &'static str,
) -> impl Parser<&'a str, Output = T, Error = super::error::PErr<'a>> {
    context(
        what,
        preceded(space1, map_res(word, |w: &str| w.parse::<T>())),
    )
}

/// A clock value; GUIs sometimes send negative times, read as zero.
fn millis<'a>(
    what: &'static str,
) -> impl Parser<&'a str, Output = u64, Error = super::error::PErr<'a>> {
    number::<i64>(what).map(|v| v.max(0) as u64)
}

fn debug(i: &str) -> PResult<'_, Command> {
    preceded(
        keyword("debug"),
        cut(context(
            "on or off after debug",
            preceded(
                space1,
                alt((value(true, keyword("on")), value(false, keyword("off")))),
            ),
        )),
    )
    .map(Command::Debug)
    .parse(i)
}

fn setoption(i: &str) -> PResult<'_, Command> {
    let name_word = verify(word, |w: &str| w != "value");
    let name = separated_list1(space1, name_word).map(|ws| ws.join(" "));
    let val = preceded((space1, keyword("value")), preceded(space0, rest))
        .map(|v: &str| v.trim().to_string());
    preceded(
        keyword("setoption"),
        cut((
            context("name after setoption", preceded(space1, keyword("name"))),
            context("an option name", preceded(space1, name)),
            opt(val),
        )),
    )
    .map(|(_, name, value)| Command::SetOption { name, value })
    .parse(i)
}

fn position(i: &str) -> PResult<'_, Command> {
    let start = alt((
        value(PositionStart::StartPos, keyword("startpos")),
        preceded(
            (
                keyword("fen"),
                cut(context("a position string after fen", space1)),
            ),
            cut(position_text),
        )
        .map(PositionStart::Fen),
    ));
    let moves = preceded(
        (space1, cut(context("moves", keyword("moves")))),
        many0(preceded(space1, cut(move_text))),
    );
    preceded(
        keyword("position"),
        cut((
            context("startpos or fen", preceded(space1, start)),
            opt(moves),
        )),
    )
    .map(|(start, moves)| {
        Command::Position(PositionCommand {
            start,
            moves: moves.unwrap_or_default(),
        })
    })
    .parse(i)
}

#[derive(Clone)]
enum GoItem {
    Depth(u32),
    Nodes(u64),
    MoveTime(u64),
    Time(usize, u64),
    Inc(usize, u64),
    MovesToGo(u32),
    Infinite,
    Ponder,
}

fn go_item(i: &str) -> PResult<'_, GoItem> {
    /// `k` followed by a value; `p` names the value in its errors, and a
    /// missing value is reported the same way.
    fn after<'a, O>(
        k: &'static str,
        p: impl Parser<&'a str, Output = O, Error = super::error::PErr<'a>>,
    ) -> impl Parser<&'a str, Output = O, Error = super::error::PErr<'a>> {
        preceded(keyword(k), cut(p))
    }
    alt((
        after("depth", number("an integer after depth")).map(GoItem::Depth),
        after("nodes", number("an integer after nodes")).map(GoItem::Nodes),
        after("movetime", number("milliseconds after movetime")).map(GoItem::MoveTime),
        after("wtime", millis("milliseconds after wtime")).map(|t| GoItem::Time(0, t)),
        after("btime", millis("milliseconds after btime")).map(|t| GoItem::Time(1, t)),
        after("p1time", millis("milliseconds after p1time")).map(|t| GoItem::Time(0, t)),
        after("p2time", millis("milliseconds after p2time")).map(|t| GoItem::Time(1, t)),
        after("winc", millis("milliseconds after winc")).map(|t| GoItem::Inc(0, t)),
        after("binc", millis("milliseconds after binc")).map(|t| GoItem::Inc(1, t)),
        after("p1inc", millis("milliseconds after p1inc")).map(|t| GoItem::Inc(0, t)),
        after("p2inc", millis("milliseconds after p2inc")).map(|t| GoItem::Inc(1, t)),
        after("movestogo", number("an integer after movestogo")).map(GoItem::MovesToGo),
        value(GoItem::Infinite, keyword("infinite")),
        value(GoItem::Ponder, keyword("ponder")),
    ))
    .parse(i)
}

fn go(i: &str) -> PResult<'_, Command> {
    let perft = preceded(
        (space1, keyword("perft")),
        cut(context(
            "a depth of 0 to 64 after perft",
            verify(number::<u32>("a depth of 0 to 64 after perft"), |d| {
                *d <= crate::core::MAX_PERFT_DEPTH
            }),
        )),
    )
    .map(Command::Perft);
    let limits = many0(preceded(space1, cut(context("a go parameter", go_item)))).map(|items| {
        let mut g = GoParams::default();
        for it in items {
            match it {
                GoItem::Depth(d) => g.depth = Some(d),
                GoItem::Nodes(n) => g.nodes = Some(n),
                GoItem::MoveTime(t) => g.movetime = Some(t),
                GoItem::Time(c, t) => g.time[c] = Some(t),
                GoItem::Inc(c, t) => g.inc[c] = Some(t),
                GoItem::MovesToGo(m) => g.movestogo = Some(m),
                GoItem::Infinite => g.infinite = true,
                GoItem::Ponder => g.ponder = true,
            }
        }
        Command::Go(g)
    });
    preceded(keyword("go"), alt((perft, limits))).parse(i)
}

fn query(i: &str) -> PResult<'_, Command> {
    preceded(
        keyword("query"),
        cut(context(
            "gameover, p1turn or result after query",
            preceded(
                space1,
                alt((
                    value(QueryKind::GameOver, keyword("gameover")),
                    value(QueryKind::P1Turn, keyword("p1turn")),
                    value(QueryKind::Result, keyword("result")),
                )),
            ),
        )),
    )
    .map(Command::Query)
    .parse(i)
}

fn command(i: &str) -> PResult<'_, Command> {
    context(
        "a command",
        alt((
            value(Command::Uci, keyword("uci")),
            value(Command::Ugi, keyword("ugi")),
            debug,
            value(Command::IsReady, keyword("isready")),
            setoption,
            value(Command::UciNewGame, keyword("ucinewgame")),
            value(Command::UgiNewGame, keyword("uginewgame")),
            position,
            go,
            value(Command::Stop, keyword("stop")),
            value(Command::PonderHit, keyword("ponderhit")),
            value(Command::Quit, keyword("quit")),
            value(Command::Display, keyword("d")),
            query,
            value(Command::Bench, keyword("bench")),
        )),
    )
    .parse(i)
}

/// Parses one protocol line. Blank lines are `Ok(None)`: UCI engines ignore
/// them. Leading and trailing blanks are allowed.
pub fn parse_command(line: &str) -> Result<Option<Command>, ParseError> {
    let trimmed = line.trim_end();
    if trimmed.trim_start().is_empty() {
        return Ok(None);
    }
    all_consuming(delimited(
        space0,
        command,
        context("the end of the line", space0),
    ))
    .parse(trimmed)
    .map(|(_, c)| Some(c))
    .map_err(|e| ParseError::from_nom(trimmed, e))
}

#[cfg(test)]
mod tests;
