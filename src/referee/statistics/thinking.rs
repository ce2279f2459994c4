//! What the engines reported about their moves, summed per engine: depth
//! and nodes from each move's last scored `info`, time as the referee
//! measured it (or, from records, depth and time from the move comments).
//! The summaries print the averages per move.

use crate::protocol::InfoLine;
use crate::protocol::record::Record;
use crate::record::tags;
use std::time::Duration;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Thinking {
    pub moves: u64,
    pub time: Duration,
    /// Sum and count of the moves that reported it.
    pub depth: (u64, u64),
    pub nodes: (u64, u64),
}

impl Thinking {
    pub fn add(&mut self, info: Option<&InfoLine>, elapsed: Duration) {
        self.add_parts(
            info.and_then(|i| i.depth),
            info.and_then(|i| i.nodes),
            elapsed,
        );
    }

    fn add_parts(&mut self, depth: Option<u32>, nodes: Option<u64>, elapsed: Duration) {
        self.moves += 1;
        self.time += elapsed;
        // Saturating: the engines' numbers may be as large as a u64 holds.
        if let Some(d) = depth {
            self.depth.0 = self.depth.0.saturating_add(u64::from(d));
            self.depth.1 += 1;
        }
        if let Some(n) = nodes {
            self.nodes.0 = self.nodes.0.saturating_add(n);
            self.nodes.1 += 1;
        }
    }

    /// By colour, what a record's move comments say (`+0.12/5 0.105s`,
    /// `0.105s`; book moves skipped): depth and time, no nodes.
    pub fn of_record(r: &Record) -> [Thinking; 2] {
        let mut out = [Thinking::default(); 2];
        let first_to_move = r
            .tag(tags::FEN)
            .and_then(|f| f.split_whitespace().nth(1))
            .is_none_or(|side| side == "w");
        for (k, m) in r.moves.iter().enumerate() {
            let Some((depth, time)) = m.comment.as_deref().and_then(of_comment) else {
                continue;
            };
            let side = (k + usize::from(!first_to_move)) % 2;
            out[side].add_parts(depth, None, time);
        }
        out
    }

    pub fn merge(&mut self, o: &Thinking) {
        self.moves += o.moves;
        self.time += o.time;
        self.depth.0 = self.depth.0.saturating_add(o.depth.0);
        self.depth.1 += o.depth.1;
        self.nodes.0 = self.nodes.0.saturating_add(o.nodes.0);
        self.nodes.1 += o.nodes.1;
    }

    fn mean((sum, n): (u64, u64)) -> Option<f64> {
        (n > 0).then(|| sum as f64 / n as f64)
    }

    pub fn depth_per_move(&self) -> Option<f64> {
        Thinking::mean(self.depth)
    }

    pub fn nodes_per_move(&self) -> Option<f64> {
        Thinking::mean(self.nodes)
    }

    /// Milliseconds per move.
    pub fn ms_per_move(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.time.as_secs_f64() * 1e3 / self.moves as f64)
    }

    /// Nodes per second over the moves that reported nodes (their time
    /// counted as the average move's).
    pub fn nps(&self) -> Option<f64> {
        let ms = self.ms_per_move()?;
        let nodes = self.nodes_per_move()?;
        (ms > 0.0).then(|| nodes * 1e3 / ms)
    }

    /// `depth 5.2, 12345 nodes, 49.8 ms per move, 248 knps`.
    pub fn line(&self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = self.depth_per_move() {
            parts.push(format!("depth {d:.1}"));
        }
        if let Some(n) = self.nodes_per_move() {
            parts.push(format!("{n:.0} nodes"));
        }
        if let Some(ms) = self.ms_per_move() {
            parts.push(format!("{ms:.1} ms per move"));
        }
        if let Some(nps) = self.nps() {
            parts.push(format!("{:.0} knps", nps / 1e3));
        }
        if parts.is_empty() {
            return "no moves".into();
        }
        parts.join(", ")
    }
}

/// A move comment the referee writes: depth (when scored) and time.
fn of_comment(c: &str) -> Option<(Option<u32>, Duration)> {
    // `-pgnout nodes=true …` adds `, n=…` after the time.
    let c = c.split(',').next()?;
    let words: Vec<&str> = c.split_whitespace().collect();
    let secs: f64 = words.last()?.strip_suffix('s')?.parse().ok()?;
    if !(0.0..1e9).contains(&secs) {
        return None;
    }
    let depth = match words[..] {
        [score, _] => score.split_once('/').and_then(|(_, d)| d.parse().ok()),
        _ => None,
    };
    Some((depth, Duration::from_secs_f64(secs)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn averages_count_only_the_moves_that_reported() {
        let mut t = Thinking::default();
        let info = InfoLine {
            depth: Some(4),
            nodes: Some(1000),
            ..InfoLine::default()
        };
        t.add(Some(&info), Duration::from_millis(10));
        t.add(None, Duration::from_millis(30));
        assert_eq!(t.depth_per_move(), Some(4.0));
        assert_eq!(t.ms_per_move(), Some(20.0));
        assert_eq!(t.nps(), Some(50_000.0));
        assert_eq!(t.line(), "depth 4.0, 1000 nodes, 20.0 ms per move, 50 knps");
        assert_eq!(Thinking::default().line(), "no moves");
    }

    #[test]
    fn the_largest_counts_an_engine_may_send_saturate_the_sums() {
        let mut t = Thinking::default();
        let info = InfoLine {
            depth: Some(u32::MAX),
            nodes: Some(u64::MAX),
            ..InfoLine::default()
        };
        t.add(Some(&info), Duration::from_millis(10));
        t.add(Some(&info), Duration::from_millis(10));
        let mut both = t;
        both.merge(&t);
        assert_eq!((both.nodes, both.moves), ((u64::MAX, 4), 4));
        assert_eq!(both.depth, (4 * u64::from(u32::MAX), 4));
    }

    #[test]
    fn records_give_depth_and_time_by_colour() {
        assert_eq!(
            of_comment("+0.12/5 0.105s"),
            Some((Some(5), Duration::from_millis(105)))
        );
        assert_eq!(
            of_comment("-M3/9 0.010s"),
            Some((Some(9), Duration::from_millis(10)))
        );
        assert_eq!(
            of_comment("0.020s"),
            Some((None, Duration::from_millis(20)))
        );
        assert_eq!(of_comment("book"), None);
        assert_eq!(
            of_comment("+0.12/5 0.105s, tl=0.895s, n=1234, pv=\"a1a2 e5e4\""),
            Some((Some(5), Duration::from_millis(105)))
        );
        let text = "[Game \"1\"]\n[FEN \"C3c/C3c/C3c/C3c/C3c b 1\"]\n\n\
                    1. a1b1 {book} e1c1 {+0.10/4 0.010s} a2b2 {-0.20/6 0.030s} b5b4 {0.050s} 1-0\n";
        let r = crate::protocol::record::parse_record(text).unwrap();
        // Second to move: the book move is second's, then first's, second's, first's.
        let [first, second] = Thinking::of_record(&r);
        assert_eq!((first.moves, first.depth_per_move()), (2, Some(4.0)));
        assert_eq!(first.ms_per_move(), Some(30.0));
        assert_eq!((second.moves, second.depth_per_move()), (1, Some(6.0)));
    }
}
