//! The server's connections, its own from accept to close. Each accepted
//! connection gets a thread of its own, which reads the request within
//! deadlines (its head within [`HEAD_WAIT`], a POST's body within
//! [`BODY_WAIT`] more), hands it to the workers, and writes their answer
//! within [`WRITE_WAIT`]: a client that stalls, halfway through its head,
//! its body or reading the answer, holds its own thread until a deadline
//! and never a worker. Those threads are bounded ([`CONNECTIONS`]): past
//! the bound a connection is answered 503 at once. Every answer closes its
//! connection ([`Reply::closing_bytes`]).

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use super::http::{self, MAX_BODY, Method, Reply, Request};

/// How long a client has to send a request's head, from its connection:
/// a browser on the same machine sends it at once.
pub const HEAD_WAIT: Duration = Duration::from_secs(5);
/// How long a client has to send a body once its head is in: on loopback
/// a body of the most bytes a request may have comes in milliseconds.
pub const BODY_WAIT: Duration = Duration::from_secs(5);
/// How long an answer's writing may stall (a client that stopped
/// reading).
pub const WRITE_WAIT: Duration = Duration::from_secs(10);
/// The most connections served at once, each on a thread of its own.
pub const CONNECTIONS: usize = 32;
/// The most bytes of a request's head: its target is bounded far below
/// ([`http::MAX_URL`]); a browser's headers take a kilobyte or two.
pub const MAX_HEAD: usize = 16 * 1024;
/// The most headers a request may have.
const MAX_HEADERS: usize = 64;
/// After an answer, what a client still sends (a body refused unread) is
/// read and dropped, up to this much for at most a second: closing a
/// socket with unread bytes would reset the connection, and the client
/// could lose the answer.
const DRAIN: u64 = 1 << 20;

/// A request read, waiting for a worker; the answer goes back through
/// `reply`.
struct Job {
    request: Request,
    reply: mpsc::SyncSender<Reply>,
}

/// The requests read, for the workers to take one at a time.
pub struct Queue {
    sender: mpsc::SyncSender<Job>,
    receiver: Mutex<mpsc::Receiver<Job>>,
}

impl Queue {
    pub fn new() -> Queue {
        let (sender, receiver) = mpsc::sync_channel(CONNECTIONS);
        Queue {
            sender,
            receiver: Mutex::new(receiver),
        }
    }

    /// Answers requests with `answer`, one at a time, for as long as the
    /// server runs (a worker's loop).
    pub fn work(&self, answer: impl Fn(Request) -> Reply) {
        loop {
            let job = match self.receiver.lock() {
                Ok(receiver) => receiver.recv(),
                Err(_) => return,
            };
            let Ok(job) = job else { return };
            // A connection that has gone no longer waits: nothing to do.
            let _ = job.reply.send(answer(job.request));
        }
    }
}

/// The connections being served, counted.
#[derive(Debug, Default, Clone)]
struct Slots(Arc<AtomicUsize>);

/// A slot taken, given back when dropped.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Slots {
    /// A slot, when fewer than [`CONNECTIONS`] are taken.
    fn take(&self) -> Option<Slot> {
        let counted = |n: usize| (n < CONNECTIONS).then_some(n + 1);
        (self
            .0
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, counted))
        .ok()
        .map(|_| Slot(self.0.clone()))
    }
}

/// Accepts connections for as long as the server runs, each served on a
/// thread of its own, its request answered by the workers of `queue`.
pub fn accept(listener: &TcpListener, queue: &Queue) {
    let slots = Slots::default();
    for stream in listener.incoming() {
        let Ok(stream) = stream else {
            // Out of descriptors, or a connection reset before it was
            // taken: wait a little rather than spin.
            thread::sleep(Duration::from_millis(10));
            continue;
        };
        let Some(slot) = slots.take() else {
            turn_away(stream);
            continue;
        };
        let sender = queue.sender.clone();
        let serve = move || {
            let _slot = slot;
            serve(stream, &sender);
        };
        // A thread that cannot be made drops the connection.
        let _ = thread::Builder::new()
            .name("connection".into())
            .spawn(serve);
    }
}

/// Serves one connection: its request read, answered by a worker, the
/// answer written, the connection closed.
fn serve(mut stream: TcpStream, queue: &mpsc::SyncSender<Job>) {
    let request = match read_request(&mut stream) {
        Ok(request) => request,
        Err(Some(refusal)) => return finish(stream, &refusal, false),
        Err(None) => return,
    };
    let head_only = request.method == Method::Head;
    let (reply, answer) = mpsc::sync_channel(1);
    let asked = queue.send(Job { request, reply });
    let reply = match asked.ok().and_then(|()| answer.recv().ok()) {
        Some(reply) => reply,
        None => Reply::error(503, "the server is stopping"),
    };
    finish(stream, &reply, head_only);
}

/// Writes `reply` and closes the connection, reading what the client still
/// sends first ([`DRAIN`]).
fn finish(mut stream: TcpStream, reply: &Reply, head_only: bool) {
    let _ = stream.set_write_timeout(Some(WRITE_WAIT));
    // A client that went away is no error of ours.
    if stream.write_all(&reply.closing_bytes(head_only)).is_err() {
        return;
    }
    let _ = stream.shutdown(Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
    let _ = std::io::copy(&mut (&stream).take(DRAIN), &mut std::io::sink());
}

/// Answers 503 to a connection past the bound, on the accept loop: its
/// short answer is written without waiting, and only what the client has
/// already sent is read before closing, so a client that stalls never
/// holds the loop.
fn turn_away(mut stream: TcpStream) {
    let busy = Reply::error(503, "the server is serving too many connections; try again");
    let _ = stream.set_write_timeout(Some(Duration::from_millis(100)));
    if stream.write_all(&busy.closing_bytes(false)).is_err() {
        return;
    }
    let _ = stream.shutdown(Shutdown::Write);
    if stream.set_nonblocking(true).is_ok() {
        let _ = std::io::copy(&mut (&stream).take(DRAIN), &mut std::io::sink());
    }
}

/// Reads a request: its head within [`HEAD_WAIT`], a POST's body within
/// [`BODY_WAIT`] after it. `Err(Some)`: the answer that refuses it;
/// `Err(None)`: nothing to answer (the client sent nothing and left, or
/// never spoke).
fn read_request(stream: &mut TcpStream) -> Result<Request, Option<Reply>> {
    let mut buffer = Vec::with_capacity(2048);
    let (head_len, request) = read_head(stream, &mut buffer)?;
    let body = match request.method {
        Method::Post => Some(read_body(stream, &request, buffer.split_off(head_len))),
        _ => None,
    };
    Ok(Request { body, ..request })
}

/// Reads until the head is complete: its length in `buffer` (which may hold
/// the start of a body after it) and the request without a body.
fn read_head(
    stream: &mut TcpStream,
    buffer: &mut Vec<u8>,
) -> Result<(usize, Request), Option<Reply>> {
    let deadline = Instant::now() + HEAD_WAIT;
    loop {
        if let Some(parsed) = parse_head(buffer)? {
            return Ok(parsed);
        }
        if buffer.len() > MAX_HEAD {
            return Err(Some(Reply::error(
                431,
                format!("the request's head is longer than {MAX_HEAD} bytes"),
            )));
        }
        let most = MAX_HEAD + 1 - buffer.len();
        match read_some(stream, buffer, deadline, most) {
            Got::Some => {}
            // A connection that never spoke (a browser's spare one) is
            // closed without a word.
            Got::Late if buffer.is_empty() => return Err(None),
            Got::Late => {
                let message = format!(
                    "the request's head did not come within {} s",
                    HEAD_WAIT.as_secs()
                );
                return Err(Some(Reply::error(408, message)));
            }
            Got::Ended if buffer.is_empty() => return Err(None),
            Got::Ended => {
                return Err(Some(Reply::error(
                    400,
                    "the connection ended before the request's head did",
                )));
            }
        }
    }
}

/// What one read gave.
enum Got {
    Some,
    Late,
    Ended,
}

/// Reads what comes, at most `most` bytes, onto `buffer`, waiting until
/// `deadline` at the latest.
fn read_some(stream: &mut TcpStream, buffer: &mut Vec<u8>, deadline: Instant, most: usize) -> Got {
    let Some(left) = deadline.checked_duration_since(Instant::now()) else {
        return Got::Late;
    };
    if stream
        .set_read_timeout(Some(left.max(Duration::from_millis(1))))
        .is_err()
    {
        return Got::Ended;
    }
    let mut chunk = [0; 8192];
    let most = most.min(chunk.len());
    match stream.read(&mut chunk[..most]) {
        Ok(0) => Got::Ended,
        Ok(n) => {
            buffer.extend_from_slice(&chunk[..n]);
            Got::Some
        }
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) =>
        {
            Got::Late
        }
        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => Got::Some,
        Err(_) => Got::Ended,
    }
}

/// The head in `buffer`, when it is complete: its length, and the request
/// it makes (no body yet). A head that is no HTTP/1 request is refused.
fn parse_head(buffer: &[u8]) -> Result<Option<(usize, Request)>, Option<Reply>> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut parsed = httparse::Request::new(&mut headers);
    let len = match parsed.parse(buffer) {
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(httparse::Error::TooManyHeaders) => {
            return Err(Some(Reply::error(
                431,
                format!("the request has more than {MAX_HEADERS} headers"),
            )));
        }
        Err(e) => {
            return Err(Some(Reply::error(
                400,
                format!("the request is not HTTP/1.1 ({e})"),
            )));
        }
    };
    let headers = (parsed.headers.iter())
        .map(|h| {
            let value = String::from_utf8_lossy(h.value).trim().to_string();
            (h.name.to_string(), value)
        })
        .collect();
    let request = Request {
        method: Method::of(parsed.method.unwrap_or_default()),
        url: parsed.path.unwrap_or_default().to_string(),
        headers,
        body: None,
    };
    Ok(Some((len, request)))
}

/// What the bytes of a request's head read as, as a connection reads
/// them (the fuzz target's view of the head's parser and the target's
/// reader).
#[derive(Debug, PartialEq, Eq)]
pub enum HeadRead {
    /// Not a whole head yet.
    Partial,
    /// Refused, with this status.
    Refused(u16),
    /// A request: its method, its path decoded and the head's length.
    Request {
        method: String,
        path: String,
        length: usize,
    },
}

/// Reads `bytes` as the start of a request ([`HeadRead`]).
pub fn read_head_bytes(bytes: &[u8]) -> HeadRead {
    match parse_head(bytes) {
        Ok(None) => HeadRead::Partial,
        Err(refusal) => HeadRead::Refused(refusal.map_or(400, |reply| reply.status)),
        Ok(Some((length, request))) => match http::Target::of(&request.url) {
            Ok(target) => HeadRead::Request {
                method: format!("{:?}", request.method),
                path: target.path,
                length,
            },
            Err(reply) => HeadRead::Refused(reply.status),
        },
    }
}

/// A POST's body as text ([`http::body_text`]): `started` is what came
/// with the head. Its length must be given (`Content-Length`), at most
/// [`MAX_BODY`]; the rest must come within [`BODY_WAIT`].
fn read_body(stream: &mut TcpStream, request: &Request, started: Vec<u8>) -> Result<String, Reply> {
    if request.header("Transfer-Encoding").is_some() {
        return Err(Reply::error(
            411,
            "send the request's body with a Content-Length, not in chunks",
        ));
    }
    let length = match request.header("Content-Length") {
        None => 0,
        Some(text) => text.parse::<usize>().map_err(|_| {
            Reply::error(400, format!("the Content-Length `{text}` is not a length"))
        })?,
    };
    if length > MAX_BODY {
        return Err(http::body_too_large());
    }
    if request
        .header("Expect")
        .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
    {
        let _ = stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    let mut body = started;
    body.truncate(length);
    let deadline = Instant::now() + BODY_WAIT;
    while body.len() < length {
        let most = length - body.len();
        match read_some(stream, &mut body, deadline, most) {
            Got::Some => {}
            Got::Late => {
                return Err(Reply::error(
                    408,
                    format!(
                        "the request's body did not come within {} s",
                        BODY_WAIT.as_secs()
                    ),
                ));
            }
            Got::Ended => {
                return Err(Reply::error(
                    400,
                    format!(
                        "the request's body could not be read: it ended after {} of {length} bytes",
                        body.len()
                    ),
                ));
            }
        }
    }
    http::body_text(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_bounded_and_given_back() {
        let slots = Slots::default();
        let taken: Vec<Slot> = std::iter::from_fn(|| slots.take())
            .take(CONNECTIONS + 5)
            .collect();
        assert_eq!(taken.len(), CONNECTIONS);
        assert!(slots.take().is_none());
        drop(taken);
        assert!(slots.take().is_some());
        assert_eq!(slots.0.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn a_head_is_read_whole_or_refused() {
        let head = b"GET /api/search?q=a HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nX-Empty:\r\n\r\nrest";
        let Ok(Some((len, request))) = parse_head(head) else {
            panic!("a whole head");
        };
        assert_eq!(&head[len..], b"rest");
        assert_eq!(request.method, Method::Get);
        assert_eq!(request.url, "/api/search?q=a");
        assert_eq!(request.header("host"), Some("127.0.0.1:8000"));
        assert!(matches!(parse_head(&head[..20]), Ok(None)));
        let refused = |head: &[u8]| match parse_head(head) {
            Err(Some(reply)) => reply.status,
            _ => 0,
        };
        assert_eq!(refused(b"\x00\x01garbage\r\n\r\n"), 400);
        let many: String = (0..=MAX_HEADERS).map(|i| format!("X-{i}: y\r\n")).collect();
        assert_eq!(
            refused(format!("GET / HTTP/1.1\r\n{many}\r\n").as_bytes()),
            431
        );
    }
}
