//! Reads protocol lines with a length cap, so no input (however long, or
//! not UTF-8) can exhaust memory or panic a reader: the engine's stdin, and
//! an engine's stdout and stderr as the referee and the board read them.

use std::io::{BufRead, BufReader, Read};

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

pub struct LineReader<R: Read> {
    inner: BufReader<R>,
    max: usize,
}

impl<R: Read> LineReader<R> {
    pub fn new(r: R, max: usize) -> Self {
        LineReader {
            inner: BufReader::new(r),
            max,
        }
    }

    /// The next line, or `None` at end of input (or on a read error, which
    /// the engine treats the same way).
    pub fn next_line(&mut self) -> Option<Line> {
        let mut buf = Vec::new();
        let mut too_long = false;
        let mut any = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => return None,
            };
            if chunk.is_empty() {
                if !any {
                    return None;
                }
                break;
            }
            any = true;
            let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            if !too_long {
                if buf.len() + take > self.max + 1 {
                    too_long = true;
                    buf = Vec::new();
                } else {
                    buf.extend_from_slice(&chunk[..take]);
                }
            }
            self.inner.consume(take);
            if done {
                break;
            }
        }
        if too_long {
            return Some(Line::TooLong);
        }
        while matches!(buf.last(), Some(b'\n' | b'\r')) {
            buf.pop();
        }
        Some(match String::from_utf8(buf) {
            Ok(s) => Line::Text(s),
            Err(e) => Line::NotUtf8(e.into_bytes()),
        })
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
