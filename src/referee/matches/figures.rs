//! `-pgnout nodes=true seldepth=true nps=true pv=true timeleft=true`: the
//! engine's figures added to each move's comment as fastchess writes them
//! (`+0.12/5 0.105s, tl=0.895s, n=1234, sd=7, nps=98000, pv="a1a2 e5e4"`),
//! after Koma's own score, depth and time.

use crate::client::clock::Clock;
use crate::protocol::reply::InfoLine;

/// Which figures the records' move comments carry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Figures {
    pub timeleft: bool,
    pub nodes: bool,
    pub seldepth: bool,
    pub nps: bool,
    pub pv: bool,
}

impl Figures {
    /// The switches of `--pgnout` (`nodes=true`, …).
    pub fn from_keys(words: &[String]) -> Figures {
        let on = |k: &str| words.iter().any(|w| *w == format!("{k}=true"));
        Figures {
            timeleft: on("timeleft"),
            nodes: on("nodes"),
            seldepth: on("seldepth"),
            nps: on("nps"),
            pv: on("pv"),
        }
    }

    /// `comment` with the figures added in fastchess's order; a figure the
    /// engine did not report is 0 (fastchess's default), the time left is
    /// left out without a clock.
    pub fn add(&self, comment: String, info: Option<&InfoLine>, clock: &Clock) -> String {
        let mut s = comment;
        if self.timeleft
            && let Some(ms) = clock.time_ms()
        {
            s += &format!(", tl={:.3}s", ms as f64 / 1000.0);
        }
        let n = |f: fn(&InfoLine) -> Option<u64>| info.and_then(f).unwrap_or(0);
        if self.nodes {
            s += &format!(", n={}", n(|i| i.nodes));
        }
        if self.seldepth {
            s += &format!(", sd={}", n(|i| i.seldepth.map(u64::from)));
        }
        if self.nps {
            s += &format!(", nps={}", n(|i| i.nps));
        }
        if self.pv {
            let pv: Vec<String> = info
                .map(|i| i.pv.iter().map(|m| m.to_string()).collect())
                .unwrap_or_default();
            s += &format!(", pv=\"{}\"", pv.join(" "));
        }
        s
    }
}
