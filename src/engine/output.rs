//! The protocol channel: whole lines, flushed at once, shared by the loop
//! and the search. Nothing else may write to stdout. A reply the
//! loop owes (`readyok` with more input already read) can wait for the
//! next line written, so that both reach the reader in one write.

use std::fmt::{Display, Write as _};
use std::io::Write;
use std::sync::{Arc, Mutex, MutexGuard};

#[derive(Clone)]
pub struct Output(Arc<Mutex<Channel>>);

struct Channel {
    w: Box<dyn Write + Send>,
    /// Lines owed and not yet written, each with its newline; then the
    /// lines being written.
    text: String,
}

impl Channel {
    /// Writes `text` (what was owed, then the new lines) and flushes. A
    /// closed channel is ignored: the loop ends at end of input anyway.
    fn write_out(&mut self) {
        if self.text.is_empty() {
            return;
        }
        let _ = self.w.write_all(self.text.as_bytes());
        let _ = self.w.flush();
        self.text.clear();
    }
}

impl Output {
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Channel {
            w: Box::new(w),
            text: String::new(),
        })))
    }

    fn lock(&self) -> MutexGuard<'_, Channel> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Writes one line (after anything owed) and flushes.
    pub fn line(&self, s: impl Display) {
        let mut c = self.lock();
        let _ = writeln!(c.text, "{s}");
        c.write_out();
    }

    /// Writes lines in one write (after anything owed) and flushes: lines
    /// sent together (the last `info` of a search with its `bestmove`)
    /// reach the reader together, which then wakes once for them.
    pub fn lines(&self, lines: &[String]) {
        let mut c = self.lock();
        for l in lines {
            c.text.push_str(l);
            c.text.push('\n');
        }
        c.write_out();
    }

    /// Owes a line: it is written with the next line written, or by
    /// `settle`.
    pub fn owe(&self, s: impl Display) {
        let _ = writeln!(self.lock().text, "{s}");
    }

    /// Writes whatever is owed.
    pub fn settle(&self) {
        self.lock().write_out();
    }

    /// `info string error: …`, the reply to every rejected line.
    pub fn error(&self, what: impl Display) {
        self.line(format_args!("info string error: {what}"));
    }
}
