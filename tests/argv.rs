//! Command lines as the system gives them: any bytes. Each file of
//! `tests/fixtures/argv/` is one command line, its words separated by NUL
//! bytes (as `/proc/PID/cmdline` holds them), each a usage error with at
//! least one word that is not UTF-8. Every one is refused with exit 2 and
//! a usage report in the format it asks for, never a panic.

#![cfg(unix)]

mod common;

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::root;

/// The command lines of the fixtures, by file name.
fn command_lines() -> Vec<(String, Vec<OsString>)> {
    let dir = root().join("tests/fixtures/argv");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .iter()
        .map(|file| (name(file), words(&std::fs::read(file).unwrap())))
        .collect()
}

fn name(file: &Path) -> String {
    file.file_name().unwrap().to_string_lossy().into_owned()
}

fn words(bytes: &[u8]) -> Vec<OsString> {
    bytes
        .split(|&b| b == 0)
        .map(|w| OsString::from_vec(w.to_vec()))
        .collect()
}

struct Output {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(words: &[OsString]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_blades"))
        .args(words)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("the blades binary runs");
    Output {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn asks_for_machine_output(words: &[OsString]) -> bool {
    words.iter().enumerate().any(|(i, w)| {
        let next = words.get(i + 1).and_then(|n| n.to_str());
        matches!(w.to_str(), Some("--format=json" | "--format=sarif"))
            || (w == "--format" && matches!(next, Some("json" | "sarif")))
    })
}

#[test]
fn a_command_line_that_is_not_utf8_is_a_usage_error_not_a_panic() {
    let lines = command_lines();
    assert!(lines.len() >= 5, "{} fixtures", lines.len());
    for (name, words) in lines {
        assert!(
            words.iter().any(|w| w.to_str().is_none()),
            "{name}: every fixture has a word that is not UTF-8"
        );
        let run = run(&words);
        assert_eq!(run.code, 2, "{name}: {}{}", run.stdout, run.stderr);
        assert!(!run.stderr.contains("panicked"), "{name}: {}", run.stderr);
        if asks_for_machine_output(&words) {
            assert_eq!(
                run.stderr, "",
                "{name}: JSON and SARIF say nothing on stderr"
            );
            let report: serde_json::Value = serde_json::from_str(&run.stdout)
                .unwrap_or_else(|e| panic!("{name}: not JSON ({e}): {}", run.stdout));
            let sarif = report.get("runs").is_some();
            let code = match sarif {
                true => &report["runs"][0]["results"][0]["ruleId"],
                false => &report["diagnostics"][0]["code"],
            };
            assert_eq!(code, "usage", "{name}: {}", run.stdout);
        } else {
            assert!(run.stderr.starts_with("error: "), "{name}: {}", run.stderr);
            assert!(run.stderr.contains("--help"), "{name}: {}", run.stderr);
        }
    }
}

/// A path that is not UTF-8 is a path like any other: the command runs
/// and says it cannot read the file, naming it (its bytes shown lossily).
#[test]
fn a_file_name_that_is_not_utf8_is_read_as_a_path() {
    let words = words(b"deck\0check\0caf\xe9.txt");
    let run = run(&words);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("caf\u{fffd}.txt"), "{}", run.stderr);
}
