//! The HTTP side of `blades serve`: a request as read, its target read and bounded,
//! its body read and bounded, and answers with their status and type.

use std::borrow::Cow;
use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::value::RawValue;

/// The most bytes of a request's body (a deck list): a tournament deck
/// is a dozen lines, a pasted binder a few hundred.
pub const MAX_BODY: usize = 64 * 1024;
/// The most bytes of a search query, decoded: far longer than any query
/// a person types, short enough that every query is cheap to read.
pub const MAX_QUERY: usize = 1024;
/// The most bytes of a request's target (path and query string).
pub const MAX_URL: usize = 2 * 1024;

/// A request's method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Method {
    Get,
    Head,
    Post,
    Other(String),
}

impl Method {
    pub(super) fn of(name: &str) -> Method {
        match name {
            "GET" => Method::Get,
            "HEAD" => Method::Head,
            "POST" => Method::Post,
            other => Method::Other(other.to_string()),
        }
    }
}

/// A request as read: its method, target and headers, and a POST's body
/// (as text, or the answer that refuses it).
pub struct Request {
    pub method: Method,
    pub url: String,
    pub(super) headers: Vec<(String, String)>,
    pub body: Option<Result<String, Reply>>,
}

impl Request {
    /// The first value of header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        (self.headers.iter())
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// An answer: its status, its type and its bytes.
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Cow<'static, [u8]>,
    /// Assets never change while the binary runs; API answers may (never
    /// here, but a browser need not know that).
    pub cache: bool,
    /// The methods allowed, for a 405.
    pub allow: Option<&'static str>,
    /// How long each stage of making it took, in order: the
    /// `Server-Timing` header ([`Reply::timed`]).
    pub timing: Vec<(&'static str, Duration)>,
}

pub const JSON: &str = "application/json; charset=utf-8";

/// `{"error": "…"}`, with the located findings behind it when there are.
#[derive(Serialize)]
struct Failure<'a> {
    error: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    report: Option<Box<RawValue>>,
}

impl Reply {
    /// A JSON answer with status 200.
    pub fn json(value: &impl Serialize) -> Reply {
        match serde_json::to_vec(value) {
            Ok(bytes) => Reply::bytes(200, JSON, Cow::Owned(bytes)),
            Err(e) => Reply::error(500, format!("the answer could not be written: {e}")),
        }
    }

    /// `bytes` as `content_type` with `status`.
    pub fn bytes(status: u16, content_type: &'static str, body: Cow<'static, [u8]>) -> Reply {
        Reply {
            status,
            content_type,
            body,
            cache: false,
            allow: None,
            timing: Vec::new(),
        }
    }

    /// The answer, with a stage's time added to its `Server-Timing`.
    pub fn timed(mut self, stage: &'static str, took: Duration) -> Reply {
        self.timing.push((stage, took));
        self
    }

    /// `Server-Timing`'s value: each stage's time in milliseconds
    /// (`search;dur=1.204, app;dur=3.310`); `None` when none was timed.
    pub fn server_timing(&self) -> Option<String> {
        let stages = self
            .timing
            .iter()
            .map(|(stage, took)| format!("{stage};dur={:.3}", took.as_secs_f64() * 1000.0));
        (!self.timing.is_empty()).then(|| stages.collect::<Vec<_>>().join(", "))
    }

    /// `{"error": message}` with a 4xx or 5xx status.
    pub fn error(status: u16, message: impl AsRef<str>) -> Reply {
        Reply::error_with(status, message.as_ref(), None)
    }

    /// `{"error": message, "report": …}`: a refusal and the findings
    /// report (`report::render_json`) that locates it.
    pub fn error_with(status: u16, message: &str, report: Option<Box<RawValue>>) -> Reply {
        let failure = Failure {
            error: message,
            report,
        };
        let body = serde_json::to_vec(&failure)
            .unwrap_or_else(|_| br#"{"error":"the request failed"}"#.to_vec());
        Reply::bytes(status, JSON, Cow::Owned(body))
    }

    /// 405, naming the methods the path takes.
    pub fn not_allowed(allow: &'static str) -> Reply {
        Reply {
            allow: Some(allow),
            ..Reply::error(405, format!("this path takes {allow}"))
        }
    }

    /// The whole HTTP/1.1 answer (`head`: the headers only), with
    /// `Connection: close`: every connection serves one request, so a
    /// browser's idle connections hold nothing.
    pub fn closing_bytes(&self, head: bool) -> Vec<u8> {
        let reason = reason(self.status);
        let mut out = format!("HTTP/1.1 {} {reason}\r\n", self.status);
        let mut add = |name: &str, value: &str| {
            out.push_str(&format!("{name}: {value}\r\n"));
        };
        add("Content-Type", self.content_type);
        add("Content-Length", &self.body.len().to_string());
        add("X-Content-Type-Options", "nosniff");
        add("Referrer-Policy", "no-referrer");
        // Only the app's own files: a card's text can never run as script,
        // and nothing leaves the machine. Faces carry their own styles and
        // their art as data: URIs.
        add(
            "Content-Security-Policy",
            "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; frame-ancestors 'none'; base-uri 'none'",
        );
        let cache = if self.cache {
            "max-age=3600"
        } else {
            "no-store"
        };
        add("Cache-Control", cache);
        if let Some(allow) = self.allow {
            add("Allow", allow);
        }
        if let Some(timing) = self.server_timing() {
            add("Server-Timing", &timing);
        }
        add("Connection", "close");
        out.push_str("\r\n");
        let mut bytes = out.into_bytes();
        if !head {
            bytes.extend_from_slice(&self.body);
        }
        bytes
    }
}

/// The reason phrase of a status the server answers with.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        414 => "URI Too Long",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

/// A handler's stages timed one after another, for `Server-Timing`
/// (`search;dur=…, rows;dur=…, json;dur=…`): where its time goes.
pub struct Stages {
    since: Instant,
    done: Vec<(&'static str, Duration)>,
}

impl Stages {
    pub fn start() -> Stages {
        Stages {
            since: Instant::now(),
            done: Vec::new(),
        }
    }

    /// Ends the stage `name` now; the next one starts.
    pub fn lap(&mut self, name: &'static str) {
        let now = Instant::now();
        self.done.push((name, now - self.since));
        self.since = now;
    }

    /// `reply` with the stages timed, the last one (`last`) ending now.
    pub fn onto(mut self, last: &'static str, reply: Reply) -> Reply {
        self.lap(last);
        (self.done.into_iter()).fold(reply, |reply, (stage, took)| reply.timed(stage, took))
    }
}

/// The `Host` values a loopback server answers to (`127.0.0.1:8000`,
/// `localhost:8000`); `None` on any other address, whose names the server
/// cannot know.
pub fn own_hosts(address: SocketAddr) -> Option<Vec<String>> {
    let port = address.port();
    match address.ip() {
        IpAddr::V4(ip) if ip.is_loopback() => {
            Some(vec![format!("{ip}:{port}"), format!("localhost:{port}")])
        }
        IpAddr::V6(ip) if ip.is_loopback() => {
            Some(vec![format!("[{ip}]:{port}"), format!("localhost:{port}")])
        }
        _ => None,
    }
}

/// Whether a request's `Host` is one of `hosts` (any case).
pub fn host_is(request: &Request, hosts: &[String]) -> bool {
    (request.header("Host"))
        .is_some_and(|host| hosts.iter().any(|ok| host.eq_ignore_ascii_case(ok)))
}

/// Whether a method only reads (GET, HEAD).
pub fn reads(method: &Method) -> bool {
    matches!(method, Method::Get | Method::Head)
}

/// A request's target: its path and its query's pairs, decoded.
pub struct Target {
    pub path: String,
    pairs: Vec<(String, String)>,
}

impl Target {
    /// Reads a target (`/api/search?q=e%3Afire`): too long is 414, a
    /// path or pair that is not UTF-8 once decoded is 400.
    pub fn of(url: &str) -> Result<Target, Reply> {
        if url.len() > MAX_URL {
            return Err(Reply::error(
                414,
                format!("the address is longer than {MAX_URL} bytes"),
            ));
        }
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        let path = decoded(path, false)
            .ok_or_else(|| Reply::error(400, "the path is not UTF-8 once decoded"))?;
        let pairs = query
            .split('&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| {
                let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
                Some((decoded(key, true)?, decoded(value, true)?))
            })
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| Reply::error(400, "the query string is not UTF-8 once decoded"))?;
        Ok(Target { path, pairs })
    }

    /// The first value of `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        (self.pairs.iter())
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Percent-decoded text (`+` a space in a query), `None` when the bytes
/// are not UTF-8.
fn decoded(text: &str, query: bool) -> Option<String> {
    let text: Cow<str> = match query {
        true => Cow::Owned(text.replace('+', " ")),
        false => Cow::Borrowed(text),
    };
    percent_encoding::percent_decode_str(&text)
        .decode_utf8()
        .ok()
        .map(Cow::into_owned)
}

/// 413: a body over [`MAX_BODY`].
pub fn body_too_large() -> Reply {
    Reply::error(
        413,
        format!("the request's body is larger than {MAX_BODY} bytes"),
    )
}

/// A request's body as text: bytes that are not UTF-8 are 400.
pub fn body_text(bytes: Vec<u8>) -> Result<String, Reply> {
    String::from_utf8(bytes).map_err(|e| {
        Reply::error(
            400,
            format!(
                "the request's body is not UTF-8 text (byte {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_target_is_decoded_and_bounded() {
        let Ok(target) = Target::of("/api/card/a%20b?q=e%3Afire+t%3A%E7%82%8E&lang=ja&q=x") else {
            panic!("a good target");
        };
        assert_eq!(target.path, "/api/card/a b");
        assert_eq!(target.get("q"), Some("e:fire t:炎"));
        assert_eq!(target.get("lang"), Some("ja"));
        assert_eq!(target.get("none"), None);
        let long = format!("/?q={}", "a".repeat(MAX_URL));
        assert_eq!(Target::of(&long).err().map(|r| r.status), Some(414));
        let bad = Target::of("/?q=%FF%FE").err().map(|r| r.status);
        assert_eq!(bad, Some(400));
        // A `+` in a path is a plus.
        let Ok(plus) = Target::of("/a+b?x=1+2") else {
            panic!("a good target");
        };
        assert_eq!((plus.path.as_str(), plus.get("x")), ("/a+b", Some("1 2")));
    }

    #[test]
    fn a_loopback_server_knows_its_own_names() {
        let Ok(address) = "127.0.0.1:8123".parse::<SocketAddr>() else {
            panic!("an address");
        };
        assert_eq!(
            own_hosts(address),
            Some(vec![
                "127.0.0.1:8123".to_string(),
                "localhost:8123".to_string()
            ])
        );
        let Ok(open) = "0.0.0.0:8123".parse::<SocketAddr>() else {
            panic!("an address");
        };
        assert_eq!(own_hosts(open), None);
    }

    #[test]
    fn an_error_is_json_with_its_message() {
        let reply = Reply::error(404, "no card `x`");
        assert_eq!(reply.status, 404);
        let value: serde_json::Value = serde_json::from_slice(&reply.body).unwrap_or_default();
        assert_eq!(value["error"], "no card `x`");
    }

    #[test]
    fn stages_are_timed_in_milliseconds_in_order() {
        let reply = Reply::error(404, "x");
        assert_eq!(reply.server_timing(), None);
        let reply = (reply.timed("search", Duration::from_micros(1500)))
            .timed("app", Duration::from_millis(2));
        let timing = reply.server_timing();
        assert_eq!(timing.as_deref(), Some("search;dur=1.500, app;dur=2.000"));
    }
}
