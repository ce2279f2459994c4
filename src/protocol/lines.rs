//! Reads protocol lines with a length cap, so no input (however long, or
//! not UTF-8) can exhaust memory or panic a reader: the engine's stdin, and
//! an engine's stdout and stderr as the referee and the board read them.

use std::io::Read;

/// Longest accepted line (1 MiB). A `position … moves …` line of the
/// longest game any of the games allows stays far below this.
pub const MAX_LINE: usize = 1 << 20;

#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    Text(String),
    /// The line was longer than the cap; it was read and dropped.
    TooLong,
    /// The line's bytes, which are not UTF-8.
    NotUtf8(Vec<u8>),
}

impl Line {
    /// What a line that could not be read is called in messages (`None`
    /// for text).
    pub fn unreadable(&self) -> Option<&'static str> {
        match self {
            Line::Text(_) => None,
            Line::TooLong => Some("a line longer than 1 MiB"),
            Line::NotUtf8(_) => Some("a line that is not UTF-8"),
        }
    }
}

/// Bytes split into capped lines as they come, from any source: a blocking
/// reader (`LineReader`) or a pipe read without waiting (the referee's
/// engines). A line over the cap is dropped as it is read, so the buffer
/// never holds much more than the cap.
pub struct LineSplitter {
    buf: Vec<u8>,
    /// Where the bytes not yet returned start in `buf`.
    start: usize,
    max: usize,
    /// Inside a line over the cap: bytes are dropped up to its newline.
    skipping: bool,
    ended: bool,
    /// Where a read lands: zeroed once, not at every read (a read of a
    /// short line would otherwise clear a whole chunk).
    landing: Vec<u8>,
}

impl LineSplitter {
    pub fn new(max: usize) -> Self {
        LineSplitter {
            buf: Vec::new(),
            start: 0,
            max,
            skipping: false,
            ended: false,
            landing: Vec::new(),
        }
    }

    /// Reads once from `r` into the buffer (up to `chunk` bytes); `Ok(0)`
    /// is the end of input, which is then recorded. Call it only when
    /// `next_line` has no line left: the bytes kept are then one line's
    /// start, dropped once they pass the cap.
    pub fn fill(&mut self, r: &mut impl Read, chunk: usize) -> std::io::Result<usize> {
        self.buf.drain(..self.start);
        self.start = 0;
        if self.landing.len() < chunk {
            self.landing.resize(chunk, 0);
        }
        let got = r.read(&mut self.landing[..chunk]);
        if let Ok(n) = got {
            self.buf.extend_from_slice(&self.landing[..n]);
        }
        let newline = self.buf.iter().position(|&b| b == b'\n');
        match (&got, newline) {
            (Ok(0), _) => self.ended = true,
            // Keep the newline: `next_line` ends the dropped line there.
            (_, Some(i)) if self.skipping => drop(self.buf.drain(..i)),
            (_, None) if self.skipping || self.buf.len() > self.max + 1 => {
                self.skipping = true;
                self.buf.clear();
            }
            _ => {}
        }
        got
    }

    /// Records the end of input (a read error ends it too).
    pub fn end(&mut self) {
        self.ended = true;
    }

    /// Whether `next_line` has a line to return without reading.
    pub fn has_line(&self) -> bool {
        let rest = &self.buf[self.start..];
        rest.contains(&b'\n') || (self.ended && (!rest.is_empty() || self.skipping))
    }

    /// Whether the input has ended and every line was returned.
    pub fn done(&self) -> bool {
        self.ended && self.start == self.buf.len() && !self.skipping
    }

    /// The next whole line in the buffer (or the last one, unterminated,
    /// once the input has ended).
    pub fn next_line(&mut self) -> Option<Line> {
        let rest = &self.buf[self.start..];
        let (len, take) = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => (i, i + 1),
            None if self.ended && (!rest.is_empty() || self.skipping) => (rest.len(), rest.len()),
            None => return None,
        };
        let mut line = &rest[..len];
        self.start += take;
        if std::mem::take(&mut self.skipping) || len > self.max {
            return Some(Line::TooLong);
        }
        while let [head @ .., b'\r'] = line {
            line = head;
        }
        Some(match std::str::from_utf8(line) {
            Ok(s) => Line::Text(s.to_string()),
            Err(_) => Line::NotUtf8(line.to_vec()),
        })
    }
}

/// Lines from a blocking reader.
pub struct LineReader<R: Read> {
    inner: R,
    split: LineSplitter,
}

/// Bytes read at a time.
const CHUNK: usize = 8 << 10;

impl<R: Read> LineReader<R> {
    pub fn new(r: R, max: usize) -> Self {
        LineReader {
            inner: r,
            split: LineSplitter::new(max),
        }
    }

    /// Whether the next line is already read (`next_line` will not wait).
    pub fn has_line(&self) -> bool {
        self.split.has_line()
    }

    /// The next line, or `None` at end of input (or on a read error, which
    /// the engine treats the same way).
    pub fn next_line(&mut self) -> Option<Line> {
        loop {
            if let Some(line) = self.split.next_line() {
                return Some(line);
            }
            if self.split.done() {
                return None;
            }
            match self.split.fill(&mut self.inner, CHUNK) {
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => self.split.end(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> Vec<Line> {
        let mut r = LineReader::new(input, max);
        std::iter::from_fn(|| r.next_line()).collect()
    }

    #[test]
    fn lines_split_on_newlines_with_crlf_and_a_last_unterminated_line() {
        assert_eq!(
            all(b"uci\r\nisready\nquit", 100),
            vec![
                Line::Text("uci".into()),
                Line::Text("isready".into()),
                Line::Text("quit".into())
            ]
        );
        assert_eq!(all(b"", 100), vec![]);
        assert_eq!(all(b"\n", 100), vec![Line::Text(String::new())]);
    }

    #[test]
    fn over_long_lines_are_dropped_whole_and_reading_goes_on() {
        let mut input = vec![b'x'; 1000];
        input.extend_from_slice(b"\nisready\n");
        assert_eq!(
            all(&input, 100),
            vec![Line::TooLong, Line::Text("isready".into())]
        );
    }

    #[test]
    fn an_unreadable_line_is_named_with_the_real_cap() {
        assert_eq!(MAX_LINE, 1 << 20, "Line::unreadable says 1 MiB");
        assert_eq!(Line::TooLong.unreadable(), Some("a line longer than 1 MiB"));
        assert_eq!(Line::Text("uci".into()).unreadable(), None);
    }

    #[test]
    fn invalid_utf8_is_reported_not_fatal() {
        assert_eq!(
            all(b"\xff\xfe\nuci\n", 100),
            vec![
                Line::NotUtf8(b"\xff\xfe".to_vec()),
                Line::Text("uci".into())
            ]
        );
    }

    /// An endless run of bytes with no newline, then one short line.
    struct Flood {
        left: usize,
        tail: &'static [u8],
    }

    impl Read for Flood {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.left == 0 {
                let n = self.tail.len().min(buf.len());
                buf[..n].copy_from_slice(&self.tail[..n]);
                self.tail = &self.tail[n..];
                return Ok(n);
            }
            let n = self.left.min(buf.len());
            buf[..n].fill(b'x');
            self.left -= n;
            Ok(n)
        }
    }

    #[test]
    fn a_flood_without_a_newline_is_one_over_long_line_in_bounded_memory() {
        // 64 MiB without a newline: reported as too long, and the buffer
        // never holds more than the cap while it is read.
        let flood = Flood {
            left: 64 << 20,
            tail: b"\nafter\n",
        };
        let mut r = LineReader::new(flood, 1000);
        assert_eq!(r.next_line(), Some(Line::TooLong));
        assert_eq!(r.next_line(), Some(Line::Text("after".into())));
        assert_eq!(r.next_line(), None);
    }
}
