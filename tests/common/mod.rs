//! Running the real `blades` binary from integration tests.

#![allow(dead_code)] // each test crate uses its own part of this module

pub mod lsp;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// What one run of the binary gave.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Standard output as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.stdout))
    }
}

/// Runs `blades` in `dir` without colour, with nothing on standard input.
pub fn blades(dir: &Path, args: &[&str]) -> Run {
    blades_with_stdin(dir, args, None)
}

/// Runs `blades` in `dir` without colour, `stdin` (if any) written to its
/// standard input, which is then closed.
pub fn blades_with_stdin(dir: &Path, args: &[&str], stdin: Option<&str>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_blades"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the blades binary runs");
    let input = child.stdin.take();
    if let (Some(mut input), Some(text)) = (input, stdin) {
        input
            .write_all(text.as_bytes())
            .expect("stdin accepts input");
    }
    let output = child.wait_with_output().expect("blades finishes");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// The repository root.
/// The pools of the build and i18n fixtures: each folder under
/// `tests/fixtures/build` and `tests/fixtures/i18n`, sorted.
pub fn fixture_pools() -> Vec<std::path::PathBuf> {
    let mut pools: Vec<std::path::PathBuf> = ["tests/fixtures/build", "tests/fixtures/i18n"]
        .iter()
        .flat_map(|folder| std::fs::read_dir(root().join(folder)).unwrap())
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .collect();
    pools.sort();
    pools
}

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Copies a folder and everything in it.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A copy of the i18n fixture pool `fixture` as `pool/` in a new folder.
pub fn scratch(fixture: &str) -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap();
    copy_dir(
        &root().join("tests/fixtures/i18n").join(fixture),
        &temp.path().join("pool"),
    );
    temp
}

/// Every file under a folder with its bytes, by path within it.
pub fn files(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().display().to_string();
                out.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

/// Waits for a child process; kills it and fails with `what` if it is still
/// running after `seconds` (a hang is the bug such a test looks for).
pub fn wait_or_kill(
    child: &mut std::process::Child,
    seconds: u64,
    what: &str,
) -> std::process::ExitStatus {
    let started = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > std::time::Duration::from_secs(seconds) {
            child.kill().unwrap();
            panic!("{what}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// `blades ARGS` (a `--watch`) started in `dir`, and its standard error
/// line by line as it comes.
pub fn watch(
    dir: &Path,
    args: &[&str],
) -> (std::process::Child, std::sync::mpsc::Receiver<String>) {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_blades"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (send, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    (child, lines)
}

/// The next line holding `what` (panics after 30 s without one).
pub fn wait_for(lines: &std::sync::mpsc::Receiver<String>, what: &str) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) if line.contains(what) => return line,
            Ok(_) => {}
            Err(_) => panic!("--watch printed no line with {what:?}"),
        }
    }
}

/// The diagnostics of a JSON report, one line each: place, code, label
/// and message, what must stay stable.
pub fn located(report: &str) -> Vec<String> {
    let report: serde_json::Value = serde_json::from_str(report).expect("JSON report");
    located_lines(&report, false)
}

/// [`located`] of a parsed report, with each finding's severity and help
/// when `whole`.
pub fn located_lines(report: &serde_json::Value, whole: bool) -> Vec<String> {
    let text = |d: &serde_json::Value, key: &str| d[key].as_str().unwrap_or_default().to_string();
    report["diagnostics"]
        .as_array()
        .expect("diagnostics list")
        .iter()
        .map(|d| {
            let place = format!(
                "{}:{}:{}",
                text(d, "file").replace('\\', "/"),
                d["line"],
                d["column"]
            );
            let (code, label, message) = (text(d, "code"), text(d, "label"), text(d, "message"));
            match whole {
                false => format!("{place} {code} [{label}] {message}"),
                true => format!(
                    "{place} {} {code} [{label}] {message} (help: {})",
                    text(d, "severity"),
                    text(d, "help")
                ),
            }
        })
        .collect()
}
