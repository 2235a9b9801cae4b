//! A client of `blades lsp` for the end-to-end tests: the real binary
//! spoken to over JSON-RPC on its standard input and output.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

use super::{copy_dir, wait_or_kill};

/// A client of one `blades lsp` process.
pub struct Client {
    pub child: Child,
    input: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
    /// What `initialize` answered.
    pub capabilities: Value,
}

impl Client {
    /// A server started and initialized for the workspace folder `root`,
    /// the client offering `encodings` (none: the field left out).
    pub fn start(root: &Path, encodings: &[&str]) -> Client {
        let mut capabilities = json!({});
        if !encodings.is_empty() {
            capabilities = json!({"general": {"positionEncodings": encodings}});
        }
        Client::start_with(root, capabilities)
    }

    /// A server started and initialized for the workspace folder `root`,
    /// the client's capabilities those given.
    pub fn start_with(root: &Path, capabilities: Value) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_blades"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the blades binary runs");
        let input = child.stdin.take().unwrap();
        let output = child.stdout.take().unwrap();
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            let mut output = BufReader::new(output);
            while let Some(message) = read_frame(&mut output) {
                if sender.send(message).is_err() {
                    return;
                }
            }
        });
        let mut client = Client {
            child,
            input,
            messages,
            next_id: 0,
            capabilities: Value::Null,
        };
        let answer = client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": null,
                "capabilities": capabilities,
                "workspaceFolders": [{"uri": uri(root), "name": "pool"}],
            }),
        );
        client.capabilities = answer["result"]["capabilities"].clone();
        client.notify("initialized", json!({}));
        client
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.input.write_all(bytes).unwrap();
        self.input.flush().unwrap();
    }

    pub fn send(&mut self, message: Value) {
        let body = message.to_string();
        self.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and waits for its answer (what is published
    /// before it is dropped).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.receive();
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    pub fn receive(&self) -> Value {
        self.messages
            .recv_timeout(Duration::from_secs(120))
            .expect("the server answers")
    }

    /// Every message the server sends until it answers a request sent
    /// now (it handles messages in order).
    pub fn heard(&mut self) -> Vec<Value> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "blades/no-such-method"}));
        let mut heard = Vec::new();
        loop {
            let message = self.receive();
            if message["id"] == json!(id) {
                return heard;
            }
            heard.push(message);
        }
    }

    /// Every diagnostics list published until the server answers a
    /// request sent now, the last one per file.
    pub fn published(&mut self) -> std::collections::BTreeMap<String, Vec<Value>> {
        let mut lists = std::collections::BTreeMap::new();
        for message in self.heard() {
            if message["method"] == "textDocument/publishDiagnostics" {
                let params = &message["params"];
                let list = params["diagnostics"].as_array().unwrap().clone();
                lists.insert(params["uri"].as_str().unwrap().to_string(), list);
            }
        }
        lists
    }

    pub fn open(&mut self, path: &Path, text: &str) {
        let document = json!({"uri": uri(path), "languageId": "yaml", "version": 1, "text": text});
        self.notify("textDocument/didOpen", json!({"textDocument": document}));
    }

    pub fn change(&mut self, path: &Path, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri(path), "version": 2},
                "contentChanges": [{"text": text}],
            }),
        );
    }

    /// `shutdown`, then `exit`: the process's exit code.
    pub fn finish(mut self) -> i32 {
        let answer = self.request("shutdown", Value::Null);
        assert_eq!(answer["result"], Value::Null, "{answer}");
        assert!(answer.get("error").is_none(), "{answer}");
        self.notify("exit", Value::Null);
        wait_or_kill(&mut self.child, 30, "the server did not exit")
            .code()
            .unwrap_or(-1)
    }
}

/// One framed message from the server; `None` when its output ends.
pub fn read_frame(output: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if output.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = value.parse().ok();
        }
    }
    let mut body = vec![0; length.expect("a Content-Length header")];
    output.read_exact(&mut body).ok()?;
    Some(serde_json::from_slice(&body).expect("a JSON body"))
}

pub fn uri(path: &Path) -> String {
    let mut uri = String::from("file://");
    for byte in path.to_str().unwrap().bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'/' => {
                uri.push(byte as char)
            }
            _ => uri.push_str(&format!("%{byte:02X}")),
        }
    }
    uri
}

/// A fixture pool copied as `cards/` into a new workspace folder (the
/// folder `blades` and the server both find it in).
pub fn workspace(pool: &Path) -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap();
    copy_dir(pool, &temp.path().join("cards"));
    temp
}
