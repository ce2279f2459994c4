//! Adjudication by the endgame tables (`--tb DIR`, fastchess's `-tb`):
//! which results end a game (`-tbadjudicate`), up to how many pieces
//! (`-tbpieces`), and the record tag that states them for `--replay`.

use crate::core::{Color, Outcome};
use crate::solve::tables::Dtz;
use std::fmt;

/// The results the tables may call (fastchess's `-tbadjudicate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TbMode {
    WinLoss,
    Draw,
    Both,
}

impl TbMode {
    pub fn parse(s: &str) -> Option<TbMode> {
        match s {
            "WIN_LOSS" => Some(TbMode::WinLoss),
            "DRAW" => Some(TbMode::Draw),
            "BOTH" => Some(TbMode::Both),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            TbMode::WinLoss => "WIN_LOSS",
            TbMode::Draw => "DRAW",
            TbMode::Both => "BOTH",
        }
    }
}

/// What a game was adjudicated under: the record's `TablebaseAdjudication`
/// tag, `pieces=N mode=BOTH` (`pieces=all` without `-tbpieces`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbRule {
    /// Positions of at most this many pieces; `None`: every table present.
    pub pieces: Option<u32>,
    pub mode: TbMode,
}

impl fmt::Display for TbRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pieces {
            Some(n) => write!(f, "pieces={n}")?,
            None => f.write_str("pieces=all")?,
        }
        write!(f, " mode={}", self.mode.name())
    }
}

impl TbRule {
    /// Reads the tag's value back; `None` when it is not one `Display` writes.
    pub fn parse(s: &str) -> Option<TbRule> {
        let mut pieces = None;
        let mut mode = None;
        for w in s.split_whitespace() {
            match w.split_once('=')? {
                ("pieces", "all") => pieces = Some(None),
                ("pieces", n) => pieces = Some(Some(n.parse().ok()?)),
                ("mode", m) => mode = Some(TbMode::parse(m)?),
                _ => return None,
            }
        }
        Some(TbRule {
            pieces: pieces?,
            mode: mode?,
        })
    }

    /// The result the tables give a position of `pieces` pieces whose side
    /// to move is `mover` and value `v`, when this rule calls it.
    pub fn call(&self, pieces: u32, mover: Color, v: Dtz) -> Option<Outcome> {
        if self.pieces.is_some_and(|n| pieces > n) {
            return None;
        }
        let outcome = match v {
            Dtz::Win(_) => Outcome::Win(mover),
            Dtz::Loss(_) => Outcome::Win(mover.opponent()),
            Dtz::Draw => Outcome::Draw,
        };
        let wanted = match self.mode {
            TbMode::Both => true,
            TbMode::WinLoss => outcome != Outcome::Draw,
            TbMode::Draw => outcome == Outcome::Draw,
        };
        wanted.then_some(outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tag_reads_back_and_bad_words_are_refused() {
        for r in [
            TbRule {
                pieces: Some(6),
                mode: TbMode::WinLoss,
            },
            TbRule {
                pieces: None,
                mode: TbMode::Both,
            },
        ] {
            assert_eq!(TbRule::parse(&r.to_string()), Some(r));
        }
        for bad in [
            "pieces=6",
            "mode=BOTH",
            "pieces=x mode=BOTH",
            "pieces=6 mode=ALL",
            "x",
        ] {
            assert_eq!(TbRule::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_mode_and_the_piece_limit_choose_what_is_called() {
        let rule = |mode| TbRule {
            pieces: Some(6),
            mode,
        };
        let w = Outcome::Win(Color::First);
        let l = Outcome::Win(Color::Second);
        assert_eq!(
            rule(TbMode::Both).call(6, Color::First, Dtz::Win(3)),
            Some(w)
        );
        assert_eq!(
            rule(TbMode::Both).call(6, Color::First, Dtz::Loss(3)),
            Some(l)
        );
        assert_eq!(rule(TbMode::Both).call(7, Color::First, Dtz::Win(3)), None);
        assert_eq!(rule(TbMode::WinLoss).call(6, Color::First, Dtz::Draw), None);
        assert_eq!(rule(TbMode::Draw).call(6, Color::Second, Dtz::Win(1)), None);
        assert_eq!(
            rule(TbMode::Draw).call(6, Color::Second, Dtz::Draw),
            Some(Outcome::Draw)
        );
    }
}
