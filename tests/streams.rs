//! Closed and full output streams: every command runs to its end without a
//! panic, a closed pipe is quiet, a lost output is exit 2.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use common::{blades, root};

/// Every command that prints, with inputs that make it print (to stdout,
/// stderr or both). `OUT` stands for a database path in a temp folder.
const COMMANDS: &[&[&str]] = &[
    &["--help"],
    &["build", "--help"],
    &["--version"],
    &["--frobnicate"],
    &["build", "--out", "OUT"],
    &["build", "--format", "json", "--out", "OUT"],
    &[
        "--cards",
        "tests/fixtures/build/invalid",
        "build",
        "--out",
        "OUT",
    ],
    &[
        "--cards",
        "tests/fixtures/build/invalid",
        "build",
        "--format",
        "json",
        "--out",
        "OUT",
    ],
    &["schema"],
    &["schema", "database"],
    &[
        "effect",
        "check",
        "play: gain 2 rp for each fire card in your tableau.",
    ],
    &["effect", "check", "Play: Gian 2 RP."],
    &["--format", "json", "effect", "check", "Play: Gain 2 RP."],
    &["--format", "json", "effect", "check", "Play: Gian 2 RP."],
    &["effect", "render", "--lang", "ja", "Flip: Gain 2 RP."],
    &["card", "show", "dust", "owl"],
    &["--format", "json", "card", "show", "dust", "owl"],
    &["card", "show", "no such card"],
    &["i18n", "export"],
    &["i18n", "status"],
    &["--cards", "tests/fixtures/i18n/drifted", "i18n", "status"],
    &["--format", "json", "i18n", "status"],
    &["--cards", "tests/fixtures/i18n/check-bad", "i18n", "check"],
    &[
        "--cards",
        "tests/fixtures/i18n/check-bad",
        "--format",
        "json",
        "i18n",
        "check",
    ],
    &["--cards", "tests/fixtures/fmt/messy", "fmt", "--check"],
    &[
        "--cards",
        "tests/fixtures/fmt/messy",
        "--format",
        "json",
        "fmt",
        "--check",
    ],
    &[
        "--cards",
        "tests/fixtures/rules/pool",
        "deck",
        "check",
        "tests/fixtures/rules/deck/legal.yaml",
        "tests/fixtures/rules/deck/duplicate.yaml",
        "tests/fixtures/rules/deck/malformed.yaml",
    ],
    &[
        "--cards",
        "tests/fixtures/rules/pool",
        "--format",
        "json",
        "deck",
        "check",
        "tests/fixtures/rules/deck/legal.yaml",
    ],
    &[
        "--cards",
        "tests/fixtures/rules/pool",
        "collection",
        "check",
        "tests/fixtures/rules/collection/legal.yaml",
    ],
    &[
        "--cards",
        "tests/fixtures/rules/pool",
        "collection",
        "best",
        "tests/fixtures/rules/binder/binder.yaml",
    ],
    &[
        "--cards",
        "tests/fixtures/rules/pool",
        "trade",
        "check",
        "tests/fixtures/rules/trade/uneven.yaml",
    ],
    &[
        "--cards",
        "tests/fixtures/rules/pool",
        "copies",
        "check",
        "tests/fixtures/rules/copies/bad.yaml",
    ],
    &["--cards", "tests/fixtures/rules/pool", "copies", "list"],
    &[
        "--cards",
        "tests/fixtures/rules/pool",
        "--format",
        "json",
        "copies",
        "list",
    ],
];

/// A command's arguments, with `OUT` made a path under `dir`.
fn arguments(command: &[&str], dir: &Path) -> Vec<String> {
    let out = dir.join("cards.json").display().to_string();
    command
        .iter()
        .map(|a| match *a {
            "OUT" => out.clone(),
            a => a.to_string(),
        })
        .collect()
}

/// The write end of a pipe whose read end is already closed: every write
/// to it fails with a broken pipe, from the first byte on.
fn closed_pipe() -> Stdio {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    Stdio::from(writer)
}

/// `/dev/full`, where every write fails with "no space left on device".
fn full() -> Option<Stdio> {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .ok()?;
    Some(Stdio::from(file))
}

/// Runs `blades` in the repository root with the given streams; whichever
/// of them is not given is captured. Returns (exit code, stdout, stderr).
fn run_with(
    args: &[String],
    stdout: Option<Stdio>,
    stderr: Option<Stdio>,
) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_blades"));
    command
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdin(Stdio::null());
    if let Some(stdout) = stdout {
        command.stdout(stdout);
    }
    if let Some(stderr) = stderr {
        command.stderr(stderr);
    }
    let output = command.output().expect("the blades binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A command's arguments for a new folder (kept while the folder lives).
fn fresh(command: &[&str]) -> (tempfile::TempDir, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let args = arguments(command, dir.path());
    (dir, args)
}

/// What a command does, in a folder of its own, with both streams read:
/// (exit code, wrote to stdout, wrote to stderr).
fn normal_run(command: &[&str]) -> (i32, bool, bool) {
    let (_dir, args) = fresh(command);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = blades(root(), &args);
    assert_ne!(run.code, 101, "{args:?} panics: {}", run.stderr);
    (run.code, !run.stdout.is_empty(), !run.stderr.is_empty())
}

#[test]
fn a_closed_stdout_ends_every_command_quietly_with_its_own_exit_code() {
    for command in COMMANDS {
        let (expected, _, _) = normal_run(command);
        let (_dir, args) = fresh(command);
        let (code, _, stderr) = run_with(&args, Some(closed_pipe()), None);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("standard output"),
            "a closed pipe is not an error: {args:?}: {stderr}"
        );
        assert_eq!(code, expected, "{args:?}: {stderr}");
    }
}

#[test]
fn closed_stdout_and_stderr_end_every_command_with_its_own_exit_code() {
    for command in COMMANDS {
        let (expected, _, _) = normal_run(command);
        let (_dir, args) = fresh(command);
        let (code, _, _) = run_with(&args, Some(closed_pipe()), Some(closed_pipe()));
        assert_eq!(code, expected, "{args:?}");
    }
}

#[test]
fn a_full_stdout_is_exit_2_with_one_message() {
    if full().is_none() {
        eprintln!("skipped: this system has no /dev/full");
        return;
    }
    for command in COMMANDS {
        let (expected, wrote, _) = normal_run(command);
        let (_dir, args) = fresh(command);
        let (code, _, stderr) = run_with(&args, full(), None);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        if !wrote {
            // Nothing to lose (a human build reports on stderr).
            assert_eq!(code, expected, "{args:?}: {stderr}");
            continue;
        }
        assert_eq!(code, 2, "{args:?}: {stderr}");
        let message = "error: cannot write to standard output: No space left on device\n";
        assert_eq!(stderr.matches(message).count(), 1, "{args:?}: {stderr}");
        assert!(stderr.ends_with(message), "{args:?}: {stderr}");
    }
}

#[test]
fn a_full_stderr_is_exit_2() {
    if full().is_none() {
        eprintln!("skipped: this system has no /dev/full");
        return;
    }
    for command in COMMANDS {
        let (expected, wrote_out, wrote_err) = normal_run(command);
        let (_dir, args) = fresh(command);
        let (code, _, _) = run_with(&args, None, full());
        let want = if wrote_err { 2 } else { expected };
        assert_eq!(code, want, "{args:?}");
        // Stdout is full too: one more lost output, the same exit code.
        let (code, _, _) = run_with(&args, full(), full());
        let want = if wrote_out || wrote_err { 2 } else { expected };
        assert_eq!(code, want, "{args:?}");
    }
}

#[test]
fn a_build_whose_report_nobody_reads_still_writes_its_database() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("db/cards.json");
    let args = arguments(
        &["build", "--format", "json", "--out", "OUT"],
        &dir.path().join("db"),
    );
    let (code, _, stderr) = run_with(&args, Some(closed_pipe()), None);
    assert_eq!(code, 0, "{stderr}");
    let db: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("a database")).unwrap();
    assert!(!db["cards"].as_array().unwrap().is_empty());

    // On a full disk as well: the report is lost (exit 2), the database is not.
    if let Some(full) = full() {
        std::fs::remove_file(&out).unwrap();
        let (code, _, stderr) = run_with(&args, Some(full), None);
        assert_eq!(code, 2, "{stderr}");
        assert!(out.is_file(), "{stderr}");
    }
}

/// `--watch` ends at the first report nobody reads (a pipe tells that
/// its reader went away only to a write).
#[test]
fn a_watch_whose_reader_went_away_ends() {
    let dir = tempfile::tempdir().unwrap();
    let cards = dir.path().join("cards");
    common::copy_dir(&root().join("tests/fixtures/build/invalid"), &cards);
    let out = dir.path().join("cards.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_blades"))
        .args(["build", "--watch", "--format", "json", "--cards"])
        .arg(&cards)
        .arg("--out")
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(closed_pipe())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let status = common::wait_or_kill(&mut child, 60, "the watch kept running with nobody reading");
    assert_eq!(status.code(), Some(1), "the code of the last build");
}
