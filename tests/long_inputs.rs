//! Inputs far larger than anyone writes by hand: the binary must report
//! them, not crash, and its reports must stay readable and linear.

mod common;

use common::blades;

/// A finding at column 70,000 used to panic inside the report renderer
/// (a formatting width past 65,535).
#[test]
fn a_finding_far_into_a_long_line_is_reported_at_its_column() {
    let dir = tempfile::tempdir().unwrap();
    let line = format!("{}No Such Card\n", " ".repeat(70_000));
    std::fs::write(dir.path().join("wide.txt"), &line).unwrap();
    let run = blades(dir.path(), &["deck", "check", "wide.txt"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(run.stderr.contains("[wide.txt:1:70001]"), "{}", run.stderr);
    assert!(
        run.stderr.len() < 4_000,
        "{} bytes of report",
        run.stderr.len()
    );
}

#[test]
fn a_set_file_with_a_long_line_builds_into_a_located_report() {
    let dir = tempfile::tempdir().unwrap();
    let pool = dir.path().join("pool");
    std::fs::create_dir(&pool).unwrap();
    let set = format!(
        "id: wide\nname: Wide\nkind: starter\ncards: [{}{{id: x, name: X, kind: single, stars: 99}}]\n",
        " ".repeat(80_000)
    );
    std::fs::write(pool.join("wide.yaml"), set).unwrap();
    let run = blades(
        dir.path(),
        &["build", "--cards", "pool", "--out", "out/db.json"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(run.stderr.contains("wide.yaml:4:"), "{}", run.stderr);
}

/// NUL and escape bytes are drawn as their pictures, never sent raw to the
/// terminal.
#[test]
fn control_bytes_in_a_file_are_not_echoed_raw() {
    let dir = tempfile::tempdir().unwrap();
    let pool = dir.path().join("pool");
    std::fs::create_dir(&pool).unwrap();
    std::fs::write(pool.join("nul.yaml"), "id: a\0b\x1b[2J\nname: [x\n").unwrap();
    let run = blades(
        dir.path(),
        &["build", "--cards", "pool", "--out", "out/db.json"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("a␀b␛[2J"), "{}", run.stderr);
    assert!(
        !run.stderr.contains('\0') && !run.stderr.contains('\x1b'),
        "{}",
        run.stderr
    );
}

/// Every finding is counted and listed in JSON; the human report draws the
/// first few of each code in a file and counts the rest in a note.
#[test]
fn many_findings_are_all_counted_and_a_few_of_each_kind_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let pool = dir.path().join("pool");
    std::fs::create_dir(&pool).unwrap();
    let cards = "  - {}\n".repeat(1_000);
    let set = format!("id: big\nname: Big\nkind: expansion\ncost: 3\ncards:\n{cards}");
    std::fs::write(pool.join("big.yaml"), set).unwrap();
    let args = ["build", "--cards", "pool", "--out", "out/db.json"];
    let human = blades(dir.path(), &args);
    assert_eq!(human.code, 1);
    assert_eq!(human.stderr.matches("blades::missing-field").count(), 10);
    assert!(
        human.stderr.contains(
            "note: `missing-field` in pool/big.yaml: 2990 errors not drawn (the first 10 are above"
        ),
        "{}",
        human.stderr
    );
    assert!(
        human.stderr.trim_end().ends_with("3000 errors"),
        "{}",
        human.stderr
    );
    let json = blades(dir.path(), &[&args[..], &["--format", "json"]].concat());
    let report: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(report["diagnostics"].as_array().unwrap().len(), 3000);
    assert_eq!(report["diagnostics"][2999]["line"], 1005);
}

/// A help line lists at most a dozen known words and says how many more:
/// on a sheet of 2,000 players, each unknown Friendship giver's help stays
/// short, and the report grows with the findings, not with their square.
#[test]
fn help_lists_are_bounded_however_many_words_are_known() {
    let dir = tempfile::tempdir().unwrap();
    let mut sheet = String::from("players:\n");
    for i in 0..2_000 {
        sheet.push_str(&format!(
            "  - {{name: Player {i}, friendship: {{Stranger {i}: 1}}}}\n"
        ));
    }
    std::fs::write(dir.path().join("score.yaml"), sheet).unwrap();
    let run = blades(dir.path(), &["score", "score.yaml", "--format", "json"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let diagnostics = report["diagnostics"].as_array().unwrap();
    let helps: Vec<&str> = diagnostics
        .iter()
        .filter(|d| d["code"] == "unknown-player")
        .map(|d| d["help"].as_str().unwrap())
        .collect();
    assert_eq!(helps.len(), 2_000);
    for help in helps {
        assert!(help.len() < 400, "{help}");
        assert!(help.ends_with("and 1988 more"), "{help}");
    }
}
