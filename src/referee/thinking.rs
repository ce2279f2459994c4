//! What the engines reported about their moves, summed per engine: depth
//! and nodes from each move's last scored `info`, time as the referee
//! measured it. The match's summary prints the averages per move.

use crate::protocol::InfoLine;
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
        self.moves += 1;
        self.time += elapsed;
        if let Some(d) = info.and_then(|i| i.depth) {
            self.depth.0 += u64::from(d);
            self.depth.1 += 1;
        }
        if let Some(n) = info.and_then(|i| i.nodes) {
            self.nodes.0 += n;
            self.nodes.1 += 1;
        }
    }

    pub fn merge(&mut self, o: &Thinking) {
        self.moves += o.moves;
        self.time += o.time;
        self.depth.0 += o.depth.0;
        self.depth.1 += o.depth.1;
        self.nodes.0 += o.nodes.0;
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
}
