//! A minimal HTTP/1.1 server on `std::net`, enough for one page and its
//! JSON API: one thread per connection (at most `MAX_CONNECTIONS` at
//! once), one request per connection (`Connection: close`), bodies only
//! with `Content-Length`, and hard limits on the size of the head and the
//! body and on the time a request may take to arrive. Anything malformed
//! gets a 4xx answer with a message; a handler that panics (none should)
//! gets a 500, never a dead server.
//!
//! Slow clients (slowloris: many connections trickling their requests)
//! cannot lock others out: when every slot is taken, a new connection
//! takes the slot of the one that has been sending its request the
//! longest, so a request that arrives whole is always served. No
//! connection closes without an answer: one that loses its slot before
//! its request was read, and one that finds every slot busy, gets 503
//! with `Retry-After: 1`.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Longest request line plus headers.
pub const MAX_HEAD: usize = 16 * 1024;
/// Longest body (a record file of a long match fits).
pub const MAX_BODY: usize = 16 * 1024 * 1024;
/// Most header lines.
const MAX_HEADERS: usize = 100;
/// Connections served at once.
pub const MAX_CONNECTIONS: usize = 64;
/// How long the head may take to arrive (a browser sends it at once), the
/// whole request, and each read or write.
const HEAD_TIME: Duration = Duration::from_secs(5);
const REQUEST_TIME: Duration = Duration::from_secs(20);
const IO_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Clone, Debug, Default)]
pub struct Request {
    pub method: String,
    /// Percent-decoded path, without the query.
    pub path: String,
    pub query: Vec<(String, String)>,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn query(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Clone, Debug)]
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
    pub headers: Vec<(&'static str, String)>,
}

impl Response {
    pub fn new(status: u16, content_type: &'static str, body: impl Into<Vec<u8>>) -> Response {
        Response {
            status,
            content_type,
            body: body.into(),
            headers: Vec::new(),
        }
    }

    pub fn json(status: u16, value: &impl serde::Serialize) -> Response {
        match serde_json::to_string(value) {
            Ok(body) => Response::new(status, "application/json", body),
            Err(e) => Response::error(500, format!("the answer cannot be written: {e}")),
        }
    }

    /// `{"error": message}` with a 4xx or 5xx status.
    pub fn error(status: u16, message: impl Into<String>) -> Response {
        #[derive(serde::Serialize)]
        struct Refusal {
            error: String,
        }
        let body = Refusal {
            error: message.into(),
        };
        Response::json(status, &body)
    }

    pub fn with_header(mut self, name: &'static str, value: impl Into<String>) -> Response {
        self.headers.push((name, value.into()));
        self
    }
}

fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Unknown",
    }
}

/// Why a request could not be read: the peer went away (nothing to
/// answer), or an answer to send.
enum ReadError {
    Gone,
    Answer(Response),
}

fn bad(status: u16, msg: impl Into<String>) -> ReadError {
    ReadError::Answer(Response::error(status, msg))
}

/// `%XX` decoding; `+` is a space only in queries.
fn percent_decode(s: &str, plus_is_space: bool) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let hex = b.get(i + 1..i + 3)?;
                let hex = std::str::from_utf8(hex).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' if plus_is_space => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

fn parse_query(q: &str) -> Option<Vec<(String, String)>> {
    q.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            Some((percent_decode(k, true)?, percent_decode(v, true)?))
        })
        .collect()
}

/// Where the head ends: just past its first empty line. Lines end with
/// CRLF or, as RFC 9112 lets a server accept, a bare LF.
fn find_head_end(buf: &[u8]) -> Option<usize> {
    let mut line_start = 0;
    for (i, &b) in buf.iter().enumerate() {
        if b == b'\n' {
            let line = &buf[line_start..i];
            if line.is_empty() || line == b"\r" {
                return Some(i + 1);
            }
            line_start = i + 1;
        }
    }
    None
}

/// The next read waits no longer than `IO_TIMEOUT`, nor past `deadline`.
fn wait_at_most(stream: &TcpStream, deadline: Instant) {
    let left = deadline.saturating_duration_since(Instant::now());
    let wait = left.clamp(Duration::from_millis(1), IO_TIMEOUT);
    let _ = stream.set_read_timeout(Some(wait));
}

/// Headers that must come at most once: two `Host` or two
/// `Content-Length` headers could each be believed by someone.
const SINGLE_HEADERS: [&str; 3] = ["host", "content-length", "transfer-encoding"];

/// Reads a request head (the request line and the headers, up to and
/// including the empty line): the request without its body, and the
/// length of the body to read. The error is the answer to send.
fn parse_head(head: &[u8]) -> Result<(Request, usize), Response> {
    if head.len() > MAX_HEAD + 4 {
        return Err(Response::error(
            431,
            format!("the request head is longer than {MAX_HEAD} bytes"),
        ));
    }
    let head = std::str::from_utf8(head)
        .map_err(|_| Response::error(400, "the request head is not UTF-8 text"))?;
    let mut lines = Vec::new();
    for line in head.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            break;
        }
        if line.contains('\r') {
            return Err(Response::error(400, "a bare CR in the request head"));
        }
        lines.push(line);
    }
    let mut lines = lines.into_iter();
    let request_line = lines.next().unwrap_or("");
    let parts: Vec<&str> = request_line.split(' ').collect();
    let [method, target, version] = parts[..] else {
        return Err(Response::error(
            400,
            "expected a request line like GET /path HTTP/1.1",
        ));
    };
    if method.is_empty() || !method.bytes().all(|c| c.is_ascii_uppercase()) {
        return Err(Response::error(400, format!("bad method {method:?}")));
    }
    if version != "HTTP/1.1" && version != "HTTP/1.0" {
        return Err(Response::error(
            505,
            format!("unsupported version {version:?}"),
        ));
    }
    if !target.starts_with('/') {
        return Err(Response::error(400, "the request target must start with /"));
    }
    let (raw_path, raw_query) = target.split_once('?').unwrap_or((target, ""));
    let path = percent_decode(raw_path, false)
        .ok_or_else(|| Response::error(400, "bad percent-encoding in the path"))?;
    let query = parse_query(raw_query)
        .ok_or_else(|| Response::error(400, "bad percent-encoding in the query"))?;
    let mut headers = Vec::new();
    for line in lines {
        if headers.len() >= MAX_HEADERS {
            return Err(Response::error(
                431,
                format!("more than {MAX_HEADERS} header lines"),
            ));
        }
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| Response::error(400, format!("bad header line {line:?}")))?;
        if name.is_empty() || name.contains(' ') {
            return Err(Response::error(400, format!("bad header name {name:?}")));
        }
        let name = name.to_ascii_lowercase();
        if SINGLE_HEADERS.contains(&name.as_str()) && headers.iter().any(|(n, _)| *n == name) {
            return Err(Response::error(400, format!("two {name} headers")));
        }
        headers.push((name, value.trim().to_string()));
    }
    let req = Request {
        method: method.to_string(),
        path,
        query,
        headers,
        body: Vec::new(),
    };
    if req.header("transfer-encoding").is_some() {
        return Err(Response::error(
            501,
            "chunked request bodies are not supported: send Content-Length",
        ));
    }
    let length = match req.header("content-length") {
        None => 0,
        Some(v) => v
            .parse::<usize>()
            .map_err(|_| Response::error(400, format!("bad Content-Length {v:?}")))?,
    };
    if length > MAX_BODY {
        return Err(Response::error(
            413,
            format!("the body is {length} bytes, more than the {MAX_BODY} allowed"),
        ));
    }
    Ok((req, length))
}

/// A whole request from its bytes, read as `start` reads one from a
/// connection: the head, then a body of exactly `Content-Length` bytes
/// (more are ignored). The error is the answer the server sends.
pub fn parse_request(bytes: &[u8]) -> Result<Request, Response> {
    let head_end = find_head_end(bytes).ok_or_else(|| {
        if bytes.len() > MAX_HEAD {
            Response::error(
                431,
                format!("the request head is longer than {MAX_HEAD} bytes"),
            )
        } else {
            Response::error(400, "the connection closed inside the request head")
        }
    })?;
    let (mut req, length) = parse_head(&bytes[..head_end])?;
    let body = &bytes[head_end..];
    if body.len() < length {
        return Err(Response::error(
            400,
            "the connection closed inside the body",
        ));
    }
    req.body = body[..length].to_vec();
    Ok(req)
}

/// Reads one request: the head (up to `MAX_HEAD`, within `HEAD_TIME`),
/// then a body of exactly `Content-Length` bytes (up to `MAX_BODY`), all
/// before `REQUEST_TIME`.
fn read_request(stream: &mut TcpStream) -> Result<Request, ReadError> {
    let started = Instant::now();
    let mut buf: Vec<u8> = Vec::with_capacity(1024);
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(end) = find_head_end(&buf) {
            break end;
        }
        if buf.len() > MAX_HEAD {
            return Err(bad(
                431,
                format!("the request head is longer than {MAX_HEAD} bytes"),
            ));
        }
        if started.elapsed() > HEAD_TIME {
            return Err(bad(408, "the request head took too long to arrive"));
        }
        wait_at_most(stream, started + HEAD_TIME);
        match stream.read(&mut chunk) {
            Ok(0) if buf.is_empty() => return Err(ReadError::Gone),
            Ok(0) => return Err(bad(400, "the connection closed inside the request head")),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) if buf.is_empty() => return Err(ReadError::Gone),
            Err(_) => return Err(bad(408, "the request head did not arrive in time")),
        }
    };
    let (mut req, length) = parse_head(&buf[..head_end]).map_err(ReadError::Answer)?;
    let mut body = buf[head_end..].to_vec();
    if body.len() > length {
        body.truncate(length);
    }
    while body.len() < length {
        if started.elapsed() > REQUEST_TIME {
            return Err(bad(408, "the request body took too long to arrive"));
        }
        let want = (length - body.len()).min(chunk.len());
        wait_at_most(stream, started + REQUEST_TIME);
        match stream.read(&mut chunk[..want]) {
            Ok(0) => return Err(bad(400, "the connection closed inside the body")),
            Ok(n) => body.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return Err(bad(408, "the request body did not arrive in time")),
        }
    }
    req.body = body;
    Ok(req)
}

fn write_response(stream: &mut TcpStream, r: &Response, head_only: bool) {
    let mut out = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n",
        r.status,
        reason_phrase(r.status),
        r.content_type,
        r.body.len()
    );
    for (n, v) in &r.headers {
        // Values are the server's own; drop line breaks all the same.
        let v: String = v.chars().filter(|c| *c != '\r' && *c != '\n').collect();
        out.push_str(&format!("{n}: {v}\r\n"));
    }
    out.push_str("\r\n");
    let mut bytes = out.into_bytes();
    if !head_only {
        bytes.extend_from_slice(&r.body);
    }
    let _ = stream.write_all(&bytes).and_then(|_| stream.flush());
}

/// The connections being served, so that a full server can free the slot
/// of the one that has been sending its request the longest.
#[derive(Default)]
struct Slots {
    next: u64,
    open: HashMap<u64, Slot>,
    /// Refusals being answered now (see `refuse`).
    refusing: Arc<AtomicUsize>,
}

struct Slot {
    /// A handle on the socket, to shut it down from the accept loop.
    stream: TcpStream,
    /// While the request is arriving (or the answer is being drained):
    /// since when. `None` while the handler runs: never evicted then.
    waiting_since: Option<Instant>,
    /// The answer has been written (the peer's rest is being drained).
    answered: bool,
}

type SharedSlots = Arc<Mutex<Slots>>;

fn lock(slots: &SharedSlots) -> std::sync::MutexGuard<'_, Slots> {
    slots.lock().unwrap_or_else(|e| e.into_inner())
}

/// Marks connection `id` as waiting on its peer (`true`) or busy;
/// `false` when it has lost its slot (and was answered 503).
fn set_waiting(slots: &SharedSlots, id: u64, waiting: bool) -> bool {
    match lock(slots).open.get_mut(&id) {
        Some(s) => {
            s.waiting_since = waiting.then(Instant::now);
            true
        }
        None => false,
    }
}

/// Marks connection `id` as answered, waiting on its peer to read it.
fn set_answered(slots: &SharedSlots, id: u64) {
    if let Some(s) = lock(slots).open.get_mut(&id) {
        s.waiting_since = Some(Instant::now());
        s.answered = true;
    }
}

/// The answer of a server with no room: 503, and when to try again.
fn busy() -> Response {
    Response::error(503, "too many connections; try again").with_header("Retry-After", "1")
}

/// Refusals a server answers at once; more are closed unanswered (a flood
/// of connections must not become a flood of threads).
const MAX_REFUSING: usize = 1024;

/// Answers `busy` on a connection and closes it, on a thread of its own:
/// the accept loop must not wait on a client that reads nothing, and the
/// request is read and dropped before the close, since closing a socket
/// with unread input resets it, and a reset can lose the answer before
/// the client reads it.
fn refuse(stream: TcpStream, refusing: &Arc<AtomicUsize>) {
    if refusing.fetch_add(1, Ordering::SeqCst) >= MAX_REFUSING {
        refusing.fetch_sub(1, Ordering::SeqCst);
        let _ = stream.shutdown(Shutdown::Both);
        return;
    }
    let count = refusing.clone();
    let answer = move || {
        let mut stream = stream;
        let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
        write_response(&mut stream, &busy(), false);
        linger(&mut stream);
        let _ = stream.shutdown(Shutdown::Both);
        count.fetch_sub(1, Ordering::SeqCst);
    };
    let spawned = std::thread::Builder::new()
        .name("http busy".into())
        .stack_size(64 * 1024)
        .spawn(answer);
    if spawned.is_err() {
        refusing.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Ends the answer (FIN) and reads what the client still sends, for half
/// a second at most, so the socket closes without a reset.
fn linger(stream: &mut TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    let mut sink = [0u8; 1024];
    let deadline = Instant::now() + Duration::from_millis(500);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(100)));
    while Instant::now() < deadline {
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
    }
}

/// Takes a slot for a new connection: a free one, or else the slot of the
/// connection that has been waiting on its peer the longest, shut down to
/// make room. A new connection is thus the last to lose its slot, and a
/// request that arrives whole (a browser sends its head at once) is read
/// before then. `None` when every connection is busy in its handler.
fn take_slot(slots: &SharedSlots, stream: &TcpStream) -> Option<u64> {
    let handle = stream.try_clone().ok()?;
    let mut s = lock(slots);
    if s.open.len() >= MAX_CONNECTIONS {
        let oldest = s
            .open
            .iter()
            .filter_map(|(&id, slot)| slot.waiting_since.map(|t| (t, id)))
            .min()
            .map(|(_, id)| id)?;
        if let Some(evicted) = s.open.remove(&oldest) {
            // A request not read yet (it may have arrived whole) gets an
            // answer before its connection closes; its own thread finds
            // its slot gone and leaves it alone.
            if evicted.answered {
                let _ = evicted.stream.shutdown(Shutdown::Both);
            } else {
                refuse(evicted.stream, &s.refusing);
            }
        }
    }
    let id = s.next;
    s.next += 1;
    s.open.insert(
        id,
        Slot {
            stream: handle,
            waiting_since: Some(Instant::now()),
            answered: false,
        },
    );
    Some(id)
}

/// Serves one connection: one request, one response.
fn serve_connection<H: Fn(&Request) -> Response>(
    mut stream: TcpStream,
    handler: &H,
    slots: &SharedSlots,
    id: u64,
) {
    let _ = stream.set_read_timeout(Some(IO_TIMEOUT));
    let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
    let _ = stream.set_nodelay(true);
    let (response, head_only) = match read_request(&mut stream) {
        Err(ReadError::Gone) => return,
        Err(ReadError::Answer(r)) => (r, false),
        Ok(req) => {
            if !set_waiting(slots, id, false) {
                return;
            }
            let head_only = req.method == "HEAD";
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(&req)))
                .unwrap_or_else(|_| Response::error(500, "internal error (the server goes on)"));
            log::debug!("{} {} -> {}", req.method, req.path, r.status);
            (r, head_only)
        }
    };
    // Evicted while reading (a head too slow, say): the 503 went instead.
    // From here on the slot is busy, never evicted mid-answer.
    if !set_waiting(slots, id, false) {
        return;
    }
    write_response(&mut stream, &response, head_only);
    set_answered(slots, id);
    // Let the client read everything before the socket closes.
    linger(&mut stream);
}

/// Connections the kernel queues before they are accepted. The standard
/// library listens with 128: 500 clients at once overflowed it, and a
/// connection dropped from a full queue can end in a reset with no answer.
const BACKLOG: libc::c_int = 1024;

#[cfg(unix)]
fn raise_backlog(listener: &TcpListener) {
    use std::os::fd::AsRawFd;
    // SAFETY: `listen` again on a socket the listener owns and that already
    // listens: it only changes the length of its queue.
    unsafe {
        libc::listen(listener.as_raw_fd(), BACKLOG);
    }
}

#[cfg(not(unix))]
fn raise_backlog(_listener: &TcpListener) {}

/// A running server: its address and a switch to stop accepting.
pub struct Listener {
    pub addr: std::net::SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Listener {
    /// Stops accepting connections (those being served finish).
    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_millis(200));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    /// Blocks until the accept loop ends (it ends only after `stop`).
    pub fn wait(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        if self.thread.is_some() {
            self.stop();
        }
    }
}

/// Accepts connections on `listener` in a thread of its own, each served
/// in a thread by `handler`.
pub fn start<H>(listener: TcpListener, handler: H) -> std::io::Result<Listener>
where
    H: Fn(&Request) -> Response + Send + Sync + 'static,
{
    let addr = listener.local_addr()?;
    raise_backlog(&listener);
    let stop = Arc::new(AtomicBool::new(false));
    let handler = Arc::new(handler);
    let slots: SharedSlots = Arc::default();
    let stop2 = stop.clone();
    let thread = std::thread::Builder::new()
        .name("http accept".into())
        .spawn(move || {
            for conn in listener.incoming() {
                if stop2.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = conn else {
                    // Out of file descriptors and the like: wait a little.
                    std::thread::sleep(Duration::from_millis(20));
                    continue;
                };
                let Some(id) = take_slot(&slots, &stream) else {
                    let refusing = lock(&slots).refusing.clone();
                    refuse(stream, &refusing);
                    continue;
                };
                let handler = handler.clone();
                let slots2 = slots.clone();
                let spawned =
                    std::thread::Builder::new()
                        .name("http conn".into())
                        .spawn(move || {
                            serve_connection(stream, &*handler, &slots2, id);
                            lock(&slots2).open.remove(&id);
                        });
                if spawned.is_err() {
                    // The stream went with the closure: answer on the
                    // slot's handle.
                    let mut s = lock(&slots);
                    if let Some(slot) = s.open.remove(&id) {
                        let refusing = s.refusing.clone();
                        drop(s);
                        refuse(slot.stream, &refusing);
                    }
                }
            }
        })?;
    Ok(Listener {
        addr,
        stop,
        thread: Some(thread),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_decoding_refuses_bad_escapes() {
        assert_eq!(percent_decode("a%20b", false).as_deref(), Some("a b"));
        assert_eq!(percent_decode("a+b", true).as_deref(), Some("a b"));
        assert_eq!(percent_decode("a+b", false).as_deref(), Some("a+b"));
        assert_eq!(percent_decode("%zz", false), None);
        assert_eq!(percent_decode("%4", false), None);
        assert_eq!(percent_decode("%ff", false), None, "not UTF-8");
        let q = parse_query("ply=3&since=&x").unwrap();
        assert_eq!(q.len(), 3);
        assert_eq!(q[0], ("ply".into(), "3".into()));
    }

    #[test]
    fn the_head_ends_at_the_first_empty_line_with_or_without_cr() {
        assert_eq!(
            find_head_end(b"GET / HTTP/1.1\r\nHost: a\r\n\r\nbody"),
            Some(27)
        );
        assert_eq!(find_head_end(b"GET / HTTP/1.1\nHost: a\n\nbody"), Some(24));
        assert_eq!(find_head_end(b"GET / HTTP/1.1\r\nHost: a\n\r\n"), Some(26));
        assert_eq!(find_head_end(b"GET / HTTP/1.1\r\nHost: a\r\n"), None);
        assert_eq!(find_head_end(b"\n"), Some(1));
    }
}
