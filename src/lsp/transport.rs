//! The protocol's framing on a byte stream: `Content-Length: N`, a blank
//! line, then N bytes of JSON. Written here rather than taken from
//! `lsp-server`'s stdio threads, whose reader stops the server at the
//! first malformed message: a frame that cannot be read becomes a
//! [`Frame::Garbage`] the server answers with a parse error, and reading
//! goes on.

use std::io::{self, BufRead, Read as _, Write};

use lsp_server::Message;

/// A message body larger than this is skipped unread (a 50 MB paste
/// still fits).
const MAX_BODY: usize = 256 * 1024 * 1024;

/// One frame read from the client.
#[derive(Debug)]
pub enum Frame {
    Message(Message),
    /// A frame that is not a JSON-RPC message, and why.
    Garbage(String),
    /// The client closed its end.
    End,
}

/// Reads the next frame: headers up to a blank line, then the body.
pub fn read(input: &mut impl BufRead) -> io::Result<Frame> {
    let Some(length) = read_headers(input)? else {
        return Ok(Frame::End);
    };
    let length = match length {
        Ok(length) => length,
        Err(why) => return Ok(Frame::Garbage(why)),
    };
    if length > MAX_BODY {
        io::copy(&mut input.take(length as u64), &mut io::sink())?;
        return Ok(Frame::Garbage(format!(
            "a message of {length} bytes is larger than the {MAX_BODY} bytes this server reads"
        )));
    }
    let mut body = vec![0; length];
    if let Err(e) = input.read_exact(&mut body) {
        return match e.kind() {
            io::ErrorKind::UnexpectedEof => Ok(Frame::End),
            _ => Err(e),
        };
    }
    Ok(match serde_json::from_slice::<Message>(&body) {
        Ok(message) => Frame::Message(message),
        Err(e) => Frame::Garbage(format!("not a JSON-RPC message: {e}")),
    })
}

/// The body's length from the headers (an error when none is given or it
/// is not a number); `None` at the end of the input.
fn read_headers(input: &mut impl BufRead) -> io::Result<Option<Result<usize, String>>> {
    let mut length = Err("a message without a Content-Length header".to_string());
    let mut line = Vec::new();
    loop {
        line.clear();
        // Bounded, so that a stream with no line breaks cannot grow a
        // header without end.
        if input.by_ref().take(4096).read_until(b'\n', &mut line)? == 0 {
            return Ok(None);
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            return Ok(Some(length));
        }
        if let Some((name, value)) = text.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = value
                .trim()
                .parse()
                .map_err(|_| format!("`{}` is not a Content-Length", value.trim()));
        }
    }
}

/// Writes one message, framed, and flushes it.
pub fn write(output: &mut impl Write, message: &Message) -> io::Result<()> {
    message.write(output)?;
    output.flush()
}

/// Writes a bare JSON value, framed (for the parse error, whose `id` is
/// `null`, which [`Message`] cannot hold).
pub fn write_json(output: &mut impl Write, value: &serde_json::Value) -> io::Result<()> {
    let text = value.to_string();
    write!(output, "Content-Length: {}\r\n\r\n{text}", text.len())?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &str) -> Vec<String> {
        let mut input = io::Cursor::new(input.as_bytes().to_vec());
        let mut seen = Vec::new();
        loop {
            match read(&mut input).expect("a cursor cannot fail") {
                Frame::End => return seen,
                Frame::Garbage(_) => seen.push("garbage".to_string()),
                Frame::Message(Message::Notification(n)) => seen.push(n.method),
                Frame::Message(other) => seen.push(format!("{other:?}")),
            }
        }
    }

    fn framed(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn garbage_between_messages_is_one_frame_and_reading_goes_on() {
        let exit = framed(r#"{"jsonrpc":"2.0","method":"exit"}"#);
        let input = format!("hello there\r\n\r\n{}{exit}", framed("{not json"));
        assert_eq!(frames(&input), ["garbage", "garbage", "exit"]);
    }

    #[test]
    fn bare_line_feeds_end_headers_too() {
        let body = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let input = format!("Content-Length: {}\n\n{body}", body.len());
        assert_eq!(frames(&input), ["initialized"]);
    }

    #[test]
    fn a_body_cut_short_is_the_end() {
        assert!(frames("Content-Length: 50\r\n\r\n{}").is_empty());
    }
}
