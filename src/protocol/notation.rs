//! Move and position strings (`docs/rules/notation.md`): parsers into the
//! structured `MoveText` / `PositionText`, and their canonical formatting.
//! Parsing is syntax only; each game checks what it receives.

use super::error::{PErr, PResult, ParseError};
use crate::core::{Color, Coord, MoveText, PieceText, PositionText, StepText};
use nom::{
    Parser,
    branch::alt,
    bytes::complete::tag,
    character::complete::{char, digit1, satisfy, space1},
    combinator::{all_consuming, cut, eof, map_res, opt, peek, value, verify},
    error::context,
    multi::{many0, many1, separated_list1},
    sequence::{delimited, preceded},
};
use std::fmt;

/// Widest board a position string may describe (file letters a..z).
const MAX_FILES: usize = 26;
/// Most ranks a position string may describe.
const MAX_RANKS: usize = 99;

/// Succeeds, consuming nothing, at the end of a token.
pub(crate) fn token_end(i: &str) -> PResult<'_, ()> {
    context("the end of the token", peek(alt((space1, eof))))
        .map(|_| ())
        .parse(i)
}

/// A rank number: 1..=99 without leading zeros, returned 0-based.
fn rank_number(i: &str) -> PResult<'_, u8> {
    map_res(
        verify(digit1, |d: &str| !d.starts_with('0') && d.len() <= 2),
        |d: &str| d.parse::<u8>().map(|r| r - 1),
    )
    .parse(i)
}

pub(crate) fn square(i: &str) -> PResult<'_, Coord> {
    context(
        "a square like a1",
        (satisfy(|c| c.is_ascii_lowercase()), rank_number),
    )
    .map(|(f, r)| Coord::new(f as u8 - b'a', r))
    .parse(i)
}

fn step(i: &str) -> PResult<'_, StepText> {
    (square, cut(square), opt(char('+')))
        .map(|(from, to, p)| StepText {
            from,
            to,
            promote: p.is_some(),
        })
        .parse(i)
}

fn drop_move(i: &str) -> PResult<'_, MoveText> {
    (satisfy(|c| c.is_ascii_uppercase()), char('@'), cut(square))
        .map(|(piece, _, to)| MoveText::Drop { piece, to })
        .parse(i)
}

fn step_or_bond(i: &str) -> PResult<'_, MoveText> {
    (step, opt(preceded(char(','), cut(step))))
        .map(|(a, b)| match b {
            Some(b) => MoveText::Bond(a, b),
            None => MoveText::Step(a),
        })
        .parse(i)
}

/// One move token, e.g. `a3b3`, `d2e2+`, `P@c4`, `pass`, `b3d3,d2e1+`.
pub(crate) fn move_text(i: &str) -> PResult<'_, MoveText> {
    whole_token(
        i,
        "a move",
        alt((value(MoveText::Pass, tag("pass")), drop_move, step_or_bond)),
    )
}

/// Runs `p` on the whitespace-delimited token at the start of `i`; it must
/// take the whole token. Errors point at the token's start, so messages
/// quote the whole token; `what` names errors nothing more precise named.
fn whole_token<'a, O>(
    i: &'a str,
    what: &'static str,
    p: impl Parser<&'a str, Output = O, Error = PErr<'a>>,
) -> PResult<'a, O> {
    let end = i.find(char::is_whitespace).unwrap_or(i.len());
    let (tok, rest) = i.split_at(end);
    let at_start = |e: PErr<'a>| PErr {
        rest: i,
        expected: if e.named { e.expected } else { what },
        named: true,
    };
    match all_consuming(p).parse(tok) {
        Ok((_, o)) => Ok((rest, o)),
        Err(nom::Err::Error(e)) => Err(nom::Err::Error(at_start(e))),
        Err(nom::Err::Failure(e)) => Err(nom::Err::Failure(at_start(e))),
        Err(nom::Err::Incomplete(n)) => Err(nom::Err::Incomplete(n)),
    }
}

fn piece(i: &str) -> PResult<'_, PieceText> {
    (opt(char('+')), satisfy(|c| c.is_ascii_alphabetic()))
        .map(|(p, c)| PieceText {
            letter: c.to_ascii_uppercase(),
            color: if c.is_ascii_uppercase() {
                Color::First
            } else {
                Color::Second
            },
            promoted: p.is_some(),
        })
        .parse(i)
}

fn empties(i: &str) -> PResult<'_, usize> {
    map_res(
        verify(digit1, |d: &str| !d.starts_with('0') && d.len() <= 2),
        |d: &str| d.parse::<usize>(),
    )
    .parse(i)
}

fn rank(i: &str) -> PResult<'_, Vec<Option<PieceText>>> {
    let cell = alt((empties.map(|n| vec![None; n]), piece.map(|p| vec![Some(p)])));
    verify(
        many1(cell).map(|cells| cells.concat()),
        |r: &Vec<Option<PieceText>>| r.len() <= MAX_FILES,
    )
    .parse(i)
}

fn hand(i: &str) -> PResult<'_, Vec<PieceText>> {
    let hand_piece = satisfy(|c| c.is_ascii_alphabetic()).map(|c| PieceText {
        letter: c.to_ascii_uppercase(),
        color: if c.is_ascii_uppercase() {
            Color::First
        } else {
            Color::Second
        },
        promoted: false,
    });
    delimited(
        char('['),
        cut(context(
            "pieces in hand and ]",
            alt((value(Vec::new(), char('-')), many0(hand_piece))),
        )),
        cut(context("pieces in hand and ]", char(']'))),
    )
    .parse(i)
}

fn side(i: &str) -> PResult<'_, Color> {
    context(
        "w or b for the side to move",
        (
            alt((
                value(Color::First, char('w')),
                value(Color::Second, char('b')),
            )),
            token_end,
        ),
    )
    .map(|(c, _)| c)
    .parse(i)
}

fn counter(i: &str) -> PResult<'_, u32> {
    (map_res(digit1, |d: &str| d.parse::<u32>()), token_end)
        .map(|(n, _)| n)
        .parse(i)
}

/// A position string: `<board>[<hand>] <side> <counters>...`. Stops before
/// anything that is not a counter (such as `moves`).
pub(crate) fn position_text(i: &str) -> PResult<'_, PositionText> {
    let board_and_hand = |i| {
        let board = verify(separated_list1(char('/'), rank), |r: &Vec<_>| {
            r.len() <= MAX_RANKS
        });
        whole_token(i, "a board of ranks separated by /", (board, opt(hand)))
    };
    (
        board_and_hand,
        cut(preceded(context("the side to move", space1), side)),
        many0(preceded(space1, counter)),
    )
        .map(|((ranks, hand), side, counters)| PositionText {
            ranks,
            hand,
            side,
            counters,
        })
        .parse(i)
}

fn whole<'a, O>(
    s: &'a str,
    p: impl Parser<&'a str, Output = O, Error = PErr<'a>>,
) -> Result<O, ParseError> {
    all_consuming(p)
        .parse(s)
        .map(|(_, o)| o)
        .map_err(|e| ParseError::from_nom(s, e))
}

/// Parses one move token.
pub fn parse_move(s: &str) -> Result<MoveText, ParseError> {
    whole(s, move_text)
}

/// Parses a whole position string.
pub fn parse_position(s: &str) -> Result<PositionText, ParseError> {
    whole(s.trim(), position_text)
}

struct StepFmt<'a>(&'a StepText);

impl fmt::Display for StepFmt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.0.from, self.0.to)?;
        if self.0.promote {
            f.write_str("+")?;
        }
        Ok(())
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveText::Step(s) => StepFmt(s).fmt(f),
            MoveText::Drop { piece, to } => write!(f, "{piece}@{to}"),
            MoveText::Pass => f.write_str("pass"),
            MoveText::Bond(a, b) => write!(f, "{},{}", StepFmt(a), StepFmt(b)),
        }
    }
}

impl fmt::Display for PieceText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.promoted {
            f.write_str("+")?;
        }
        let c = match self.color {
            Color::First => self.letter.to_ascii_uppercase(),
            Color::Second => self.letter.to_ascii_lowercase(),
        };
        write!(f, "{c}")
    }
}

impl fmt::Display for PositionText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, rank) in self.ranks.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            let mut run = 0;
            for cell in rank {
                match cell {
                    None => run += 1,
                    Some(p) => {
                        if run > 0 {
                            write!(f, "{run}")?;
                            run = 0;
                        }
                        write!(f, "{p}")?;
                    }
                }
            }
            if run > 0 {
                write!(f, "{run}")?;
            }
        }
        if let Some(hand) = &self.hand {
            f.write_str("[")?;
            for p in hand {
                write!(f, "{p}")?;
            }
            f.write_str("]")?;
        }
        write!(f, " {}", self.side.fen_char())?;
        for c in &self.counters {
            write!(f, " {c}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Coord {
        let b = s.as_bytes();
        Coord::new(b[0] - b'a', s[1..].parse::<u8>().unwrap() - 1)
    }

    #[test]
    fn board_moves_parse_and_print_back() {
        for s in ["a3b3", "e9e2", "d2e2+", "a10a1"] {
            let m = parse_move(s).unwrap();
            assert_eq!(m.to_string(), s);
        }
        assert_eq!(
            parse_move("a3c5").unwrap(),
            MoveText::Step(StepText {
                from: sq("a3"),
                to: sq("c5"),
                promote: false
            })
        );
    }

    #[test]
    fn drops_pass_and_bonds_parse_and_print_back() {
        for s in ["P@c4", "W@a1", "K@a3", "pass", "b3d3,d2e1+", "a1e1+,e1d2"] {
            assert_eq!(parse_move(s).unwrap().to_string(), s);
        }
        assert_eq!(
            parse_move("V@c1").unwrap(),
            MoveText::Drop {
                piece: 'V',
                to: sq("c1")
            }
        );
    }

    #[test]
    fn malformed_moves_are_refused_with_their_column() {
        for s in [
            "", "a", "a3", "a3b", "a0b1", "a01b1", "A3B3", "p@c4", "P@", "P@C4", "a3b3++", "a3b3,",
            "a3b3,c1", "passx", "a3b3 x", "a3b3+,", "é", "\u{0}",
        ] {
            assert!(parse_move(s).is_err(), "{s:?} should be refused");
        }
        let e = parse_move("a3b3,c1").unwrap_err();
        assert_eq!(e.expected, "a square like a1");
    }

    #[test]
    fn position_strings_round_trip() {
        for s in [
            "ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP w 1",
            "c3C/5/5/5/4+C b 12",
            "3/3/3[KRBkrb] w 1",
            "2bkr1/2ppp1/6/6/1PPP2/1RKB2[PPPPRBpppbr] w 0 1",
            "3/1K1/3[] b 4",
        ] {
            let p = parse_position(s).unwrap();
            assert_eq!(p.to_string(), s);
        }
    }

    #[test]
    fn empty_hand_may_be_written_with_a_dash() {
        let p = parse_position("3/3/3[-] w 1").unwrap();
        assert_eq!(p.hand, Some(vec![]));
    }

    #[test]
    fn position_lookup_by_coordinate() {
        let p = parse_position("2bkr1/2ppp1/6/6/1PPP2/1RKB2[-] w 1").unwrap();
        let k = p.at(sq("c1")).unwrap();
        assert_eq!((k.letter, k.color), ('K', Color::First));
        let k = p.at(sq("d6")).unwrap();
        assert_eq!((k.letter, k.color), ('K', Color::Second));
        assert_eq!(p.at(sq("a1")), None);
        assert_eq!(p.at(sq("z9")), None);
    }

    #[test]
    fn malformed_positions_are_refused() {
        for s in [
            "",
            "w",
            "3/3/3",
            "3/3/3 x",
            "3/3/3[KR w",
            "3/3/3[K+R] w",
            "3/3/0 w",
            "3//3 w",
            "3/3/3 w x",
            "3/3/3 w -1",
            "99999999/3 w",
            "3/3/3 w 99999999999",
        ] {
            assert!(parse_position(s).is_err(), "{s:?} should be refused");
        }
    }

    #[test]
    fn oversized_boards_are_refused_not_allocated() {
        let wide = "99".repeat(3);
        assert!(parse_position(&format!("{wide} w")).is_err());
        let tall = vec!["1"; 100].join("/");
        assert!(parse_position(&format!("{tall} w")).is_err());
    }
}
