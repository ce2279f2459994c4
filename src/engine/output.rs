//! The protocol channel: whole lines, flushed at once, shared by the loop
//! and the search thread. Nothing else may write to stdout.

use std::fmt::Display;
use std::io::Write;
use std::sync::{Arc, Mutex};

#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes one line and flushes. A closed channel is ignored: the loop
    /// ends at end of input anyway.
    pub fn line(&self, s: impl Display) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{s}");
        let _ = w.flush();
    }

    /// Writes lines in one write and flushes: lines sent together (the
    /// last `info` of a search with its `bestmove`) reach the reader
    /// together, which then wakes once for them.
    pub fn lines(&self, lines: &[String]) {
        let mut text = String::new();
        for l in lines {
            text.push_str(l);
            text.push('\n');
        }
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = w.write_all(text.as_bytes());
        let _ = w.flush();
    }

    /// `info string error: …`, the reply to every rejected line.
    pub fn error(&self, what: impl Display) {
        self.line(format_args!("info string error: {what}"));
    }
}
