//! Cost bounded by the input, checked by structure, never by timing: a
//! query's regular expressions under one budget, database files read with
//! a size bound, findings that do not repeat their input, suggestions
//! bounded.

mod common;

use std::path::{Path, PathBuf};

use common::blades;

/// A database built from the built-in pool in a new folder.
fn built() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let run = blades(dir.path(), &["build", "--out", "cards.json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let db = dir.path().join("cards.json");
    (dir, db)
}

/// `search --format json --db DB -- QUERY`: the exit code and the report.
fn search(dir: &Path, db: &Path, query: &str) -> (i32, serde_json::Value) {
    let run = blades(
        dir,
        &[
            "search",
            "--format",
            "json",
            "--db",
            db.to_str().unwrap(),
            "--",
            query,
        ],
    );
    (run.code, run.json())
}

/// The diagnostics of a report as (code, the query text they underline,
/// message).
fn located(query: &str, report: &serde_json::Value) -> Vec<(String, String, String)> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let start = d["start"].as_u64().unwrap() as usize;
            let end = d["end"].as_u64().unwrap() as usize;
            (
                d["code"].as_str().unwrap().to_string(),
                query[start..end].to_string(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_query_with_more_regular_expressions_than_its_budget_is_refused_at_the_first_past_it() {
    let (dir, db) = built();
    let query: Vec<String> = (0..270).map(|i| format!("o:/q{i}z/")).collect();
    let query = query.join(" or ");
    let (code, report) = search(dir.path(), &db, &query);
    assert_eq!(code, 2);
    let found = located(&query, &report);
    assert_eq!(found.len(), 1, "one finding, not one per regex: {found:?}");
    let (code, at, message) = &found[0];
    assert_eq!((code.as_str(), at.as_str()), ("search-regex", "/q16z/"));
    assert!(
        message.contains("270 different regular expressions; at most 16"),
        "{message}"
    );
}

#[test]
fn one_regular_expression_written_many_times_counts_once() {
    let (dir, db) = built();
    let query = vec!["o:/gain/"; 270].join(" ");
    let (code, report) = search(dir.path(), &db, &query);
    assert_eq!(code, 0, "{report}");
    let (_, alone) = search(dir.path(), &db, "o:/gain/");
    assert_eq!(report["count"], alone["count"]);
}

#[test]
fn the_compiled_size_is_shared_among_a_querys_regular_expressions() {
    let (dir, db) = built();
    // Alone, it compiles.
    let (code, report) = search(dir.path(), &db, r"o:/\w{10}/");
    assert_eq!(code, 0, "{report}");
    // With fifteen others, its share is too small.
    let mut terms = vec![r"o:/\w{10}/".to_string()];
    terms.extend((1..16).map(|i| format!("o:/q{i}z/")));
    let query = terms.join(" or ");
    let (code, report) = search(dir.path(), &db, &query);
    assert_eq!(code, 2);
    let found = located(&query, &report);
    assert_eq!(found.len(), 1, "{found:?}");
    let (code, at, message) = &found[0];
    assert_eq!((code.as_str(), at.as_str()), ("search-regex", r"/\w{10}/"));
    assert!(message.contains("shared by its 16"), "{message}");
}

/// Runs `blades ARGS` in `dir` with its address space limited to 2 GiB:
/// reading an endless stream into memory fails there.
#[cfg(unix)]
fn bounded_run(dir: &Path, args: &[&str]) -> common::Run {
    let mut command = vec![
        "ulimit -v 2097152; exec \"$0\" \"$@\"".to_string(),
        env!("CARGO_BIN_EXE_blades").to_string(),
    ];
    command.extend(args.iter().map(|a| a.to_string()));
    let output = std::process::Command::new("sh")
        .arg("-c")
        .args(&command)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    common::Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

#[test]
#[cfg(target_os = "linux")]
fn an_endless_stream_given_as_a_database_is_refused_at_its_first_byte() {
    let (dir, db) = built();
    let run = bounded_run(dir.path(), &["search", "--db", "/dev/zero", "e:fire"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("`/dev/zero` is not a card database: expected value at line 1 column 1"),
        "{}",
        run.stderr
    );
    for sides in [
        ["/dev/zero", db.to_str().unwrap()],
        [db.to_str().unwrap(), "/dev/zero"],
    ] {
        let run = bounded_run(dir.path(), &["diff", sides[0], sides[1]]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(
            run.stderr.contains("`/dev/zero` is not a card database"),
            "{}",
            run.stderr
        );
    }
}

#[test]
#[cfg(unix)]
fn a_database_file_past_the_size_bound_is_refused_before_it_is_read() {
    let (dir, db) = built();
    // Sparse: a gigabyte and a byte that take no room on the disk.
    let huge = dir.path().join("huge.json");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len((1 << 30) + 1)
        .unwrap();
    let run = bounded_run(dir.path(), &["search", "--db", "huge.json", "e:fire"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("`huge.json`: it is 1073741825 bytes; a database is read up to"),
        "{}",
        run.stderr
    );
    let run = bounded_run(dir.path(), &["diff", "huge.json", db.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("a database is read up to"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_long_share_codes_findings_name_it_short() {
    use blades::rules::share::{Shared, encode};
    let lines: Vec<Shared> = (0..1000u32)
        .map(|i| Shared::Card {
            zone: None,
            id: format!("%{:08x}", 0x9e37_79b9u32.wrapping_mul(i + 1)),
            count: 1,
        })
        .collect();
    let code = encode(&lines);
    assert!(code.len() > 8_000);
    let dir = tempfile::tempdir().unwrap();
    let run = blades(dir.path(), &["--format", "json", "deck", "check", &code]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let report = run.json();
    let diagnostics = report["diagnostics"].as_array().unwrap();
    assert!(diagnostics.len() >= 1000, "{}", diagnostics.len());
    let name = format!("{}…{}", &code[..16], &code[code.len() - 8..]);
    for d in diagnostics {
        assert_eq!(d["file"], name.as_str());
    }
    assert!(
        !run.stdout.contains(&code[..100]),
        "the code is not repeated"
    );
    assert_eq!(report["file"], name.as_str());
}

/// A sheet of `players` players whose places in the pre-release are
/// `place(i)`.
fn score_sheet(dir: &Path, players: usize, place: impl Fn(usize) -> u64) -> PathBuf {
    let mut sheet = String::from("mode: standard\nplayers:\n");
    for i in 0..players {
        sheet.push_str(&format!(
            "  - name: P{i}\n    placings: {{pre-release: {}}}\n",
            place(i)
        ));
    }
    let path = dir.join("sheet.yaml");
    std::fs::write(&path, sheet).unwrap();
    path
}

/// 4,000 players: the ties of a place are counted once (every place
/// checked against every tie above it was cubic: minutes).
#[test]
fn a_large_score_sheets_ties_are_each_reported_and_shared() {
    let dir = tempfile::tempdir().unwrap();
    // Half tied for 1st, half claiming 2nd: each 2nd is inside the tie.
    let sheet = score_sheet(dir.path(), 4000, |i| 1 + (i % 2) as u64);
    let run = blades(
        dir.path(),
        &["--format", "json", "score", sheet.to_str().unwrap()],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    let report = run.json();
    let inside: Vec<&serde_json::Value> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["label"] == "inside a tie")
        .collect();
    assert_eq!(inside.len(), 2000);
    assert!(
        inside[0]["message"]
            .as_str()
            .unwrap()
            .contains("taken by the 2000-way tie for place 1"),
        "{}",
        inside[0]
    );
    // Everyone tied for 1st: one rank, the VP of the first five places
    // shared (rounded down).
    let sheet = score_sheet(dir.path(), 4000, |_| 1);
    let run = blades(
        dir.path(),
        &["--format", "json", "score", sheet.to_str().unwrap()],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let players = run.json()["players"].as_array().unwrap().clone();
    assert_eq!(players.len(), 4000);
    let shared = (7 + 5 + 4 + 3 + 2) / 4000;
    for player in &players {
        assert_eq!(player["rank"], 1);
        assert_eq!(player["tournaments"][0]["tied"], 4000);
        assert_eq!(player["tournaments"][0]["vp"], shared);
    }
}
