//! A minimal HTTP/1.1 server on `std::net`, enough for one page and its
//! JSON API on the local machine: one thread per connection (at most
//! `MAX_CONNECTIONS` at once), one request per connection
//! (`Connection: close`), bodies only with `Content-Length`, and hard
//! limits on the size of the head and the body and on the time a request
//! may take to arrive. Anything malformed gets a 4xx answer with a
//! message; a handler that panics (none should) gets a 500, never a dead
//! server.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Longest request line plus headers.
pub const MAX_HEAD: usize = 16 * 1024;
/// Longest body (a record file of a long match fits).
pub const MAX_BODY: usize = 16 * 1024 * 1024;
/// Most header lines.
const MAX_HEADERS: usize = 100;
/// Connections served at once; more are answered 503 at once.
pub const MAX_CONNECTIONS: usize = 64;
/// How long a whole request may take to arrive, and each read or write.
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

    pub fn json(status: u16, value: &serde_json::Value) -> Response {
        Response::new(status, "application/json", value.to_string())
    }

    /// `{"error": message}` with a 4xx or 5xx status.
    pub fn error(status: u16, message: impl Into<String>) -> Response {
        Response::json(status, &serde_json::json!({ "error": message.into() }))
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

fn find_head_end(buf: &[u8]) -> Option<usize> {
    buf.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4)
}

/// Reads one request: the head (up to `MAX_HEAD`), then a body of exactly
/// `Content-Length` bytes (up to `MAX_BODY`), all before `REQUEST_TIME`.
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
        if started.elapsed() > REQUEST_TIME {
            return Err(bad(408, "the request took too long to arrive"));
        }
        match stream.read(&mut chunk) {
            Ok(0) if buf.is_empty() => return Err(ReadError::Gone),
            Ok(0) => return Err(bad(400, "the connection closed inside the request head")),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) if buf.is_empty() => return Err(ReadError::Gone),
            Err(_) => return Err(bad(408, "the request head did not arrive in time")),
        }
    };
    if head_end > MAX_HEAD + 4 {
        return Err(bad(
            431,
            format!("the request head is longer than {MAX_HEAD} bytes"),
        ));
    }
    let head = std::str::from_utf8(&buf[..head_end - 4])
        .map_err(|_| bad(400, "the request head is not UTF-8 text"))?;
    let mut lines = head.split("\r\n");
    let request_line = lines.next().unwrap_or("");
    let parts: Vec<&str> = request_line.split(' ').collect();
    let [method, target, version] = parts[..] else {
        return Err(bad(400, "expected a request line like GET /path HTTP/1.1"));
    };
    if method.is_empty() || !method.bytes().all(|c| c.is_ascii_uppercase()) {
        return Err(bad(400, format!("bad method {method:?}")));
    }
    if version != "HTTP/1.1" && version != "HTTP/1.0" {
        return Err(bad(505, format!("unsupported version {version:?}")));
    }
    if !target.starts_with('/') {
        return Err(bad(400, "the request target must start with /"));
    }
    let (raw_path, raw_query) = target.split_once('?').unwrap_or((target, ""));
    let path = percent_decode(raw_path, false)
        .ok_or_else(|| bad(400, "bad percent-encoding in the path"))?;
    let query =
        parse_query(raw_query).ok_or_else(|| bad(400, "bad percent-encoding in the query"))?;
    let mut headers = Vec::new();
    for line in lines {
        if headers.len() >= MAX_HEADERS {
            return Err(bad(431, format!("more than {MAX_HEADERS} header lines")));
        }
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| bad(400, format!("bad header line {line:?}")))?;
        if name.is_empty() || name.contains(' ') {
            return Err(bad(400, format!("bad header name {name:?}")));
        }
        headers.push((name.to_ascii_lowercase(), value.trim().to_string()));
    }
    let mut req = Request {
        method: method.to_string(),
        path,
        query,
        headers,
        body: Vec::new(),
    };
    if req.header("transfer-encoding").is_some() {
        return Err(bad(
            501,
            "chunked request bodies are not supported: send Content-Length",
        ));
    }
    let length = match req.header("content-length") {
        None => 0,
        Some(v) => v
            .parse::<usize>()
            .map_err(|_| bad(400, format!("bad Content-Length {v:?}")))?,
    };
    if length > MAX_BODY {
        return Err(bad(
            413,
            format!("the body is {length} bytes, more than the {MAX_BODY} allowed"),
        ));
    }
    let mut body = buf[head_end..].to_vec();
    if body.len() > length {
        body.truncate(length);
    }
    while body.len() < length {
        if started.elapsed() > REQUEST_TIME {
            return Err(bad(408, "the request body took too long to arrive"));
        }
        let want = (length - body.len()).min(chunk.len());
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

/// Serves one connection: one request, one response.
fn serve_connection<H: Fn(&Request) -> Response>(mut stream: TcpStream, handler: &H) {
    let _ = stream.set_read_timeout(Some(IO_TIMEOUT));
    let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
    let _ = stream.set_nodelay(true);
    let (response, head_only) = match read_request(&mut stream) {
        Err(ReadError::Gone) => return,
        Err(ReadError::Answer(r)) => (r, false),
        Ok(req) => {
            let head_only = req.method == "HEAD";
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(&req)))
                .unwrap_or_else(|_| Response::error(500, "internal error (the server goes on)"));
            (r, head_only)
        }
    };
    write_response(&mut stream, &response, head_only);
    // Let the client read everything before the socket closes.
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
    let stop = Arc::new(AtomicBool::new(false));
    let handler = Arc::new(handler);
    let active = Arc::new(AtomicUsize::new(0));
    let stop2 = stop.clone();
    let thread = std::thread::Builder::new()
        .name("http accept".into())
        .spawn(move || {
            for conn in listener.incoming() {
                if stop2.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(mut stream) = conn else {
                    // Out of file descriptors and the like: wait a little.
                    std::thread::sleep(Duration::from_millis(20));
                    continue;
                };
                if active.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
                    active.fetch_sub(1, Ordering::SeqCst);
                    let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
                    let r = Response::error(503, "too many connections; try again");
                    write_response(&mut stream, &r, false);
                    continue;
                }
                let handler = handler.clone();
                let active2 = active.clone();
                let spawned =
                    std::thread::Builder::new()
                        .name("http conn".into())
                        .spawn(move || {
                            serve_connection(stream, &*handler);
                            active2.fetch_sub(1, Ordering::SeqCst);
                        });
                if spawned.is_err() {
                    active.fetch_sub(1, Ordering::SeqCst);
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
}
