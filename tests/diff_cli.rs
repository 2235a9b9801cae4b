//! `blades diff` end to end on the fixture pair `tests/fixtures/diff/old`
//! and `new`, where each kind of change is made on exactly one card:
//!
//! - `lost-lancer` removed, `fresh-recruit` added;
//! - `renamed-owl` renamed (same id);
//! - `shifting-golem` stats (STAR 2 → 3, an element added);
//! - `errata-engine` functional errata (`Gain 1 RP` → `Gain 2 RP`), with the
//!   old text kept in its errata history;
//! - `clank-bot` wording only (the reminder of its keyword, in the pool's
//!   `keywords.yaml`, is reworded: its printed text changes, its tree not);
//! - `kana-kite` translation only (its Japanese name);
//! - `flavor-fox` flavor only;
//! - `steady-sentry` its effect rewritten as a block (the same tree and
//!   text): no change; `summit-titan` untouched.

mod common;

use std::path::Path;

use common::{Run, blades, root};
use serde_json::Value;

const OLD: &str = "tests/fixtures/diff/old";
const NEW: &str = "tests/fixtures/diff/new";

fn diff(args: &[&str]) -> Run {
    let mut all = vec!["diff", OLD, NEW];
    all.extend_from_slice(args);
    blades(root(), &all)
}

/// Each changed card's id and classes.
fn classes(report: &Value) -> Vec<(String, Vec<String>)> {
    report["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let classes = c["classes"].as_array().unwrap();
            (
                c["id"].as_str().unwrap().to_string(),
                classes
                    .iter()
                    .map(|k| k.as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn each_kind_of_change_is_found_once_on_its_card() {
    let run = diff(&["--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "");
    let report = run.json();
    let expected = [
        ("renamed-owl", "renamed"),
        ("shifting-golem", "stats"),
        ("errata-engine", "functional"),
        ("clank-bot", "wording"),
        ("kana-kite", "translation"),
        ("flavor-fox", "flavor"),
        ("fresh-recruit", "added"),
        ("lost-lancer", "removed"),
    ];
    let expected: Vec<(String, Vec<String>)> = expected
        .iter()
        .map(|(id, class)| (id.to_string(), vec![class.to_string()]))
        .collect();
    assert_eq!(classes(&report), expected);
    let counts = &report["counts"];
    assert_eq!(counts["changed"], 8);
    for class in [
        "added",
        "removed",
        "renamed",
        "stats",
        "functional",
        "wording",
        "translation",
        "flavor",
    ] {
        assert_eq!(counts[class], 1, "{class}");
    }
    // The errata history holds the old text.
    let errata = &report["changes"][2]["errata"];
    assert_eq!(errata["until"], "1.1");
    assert_eq!(errata["note"], "It was too weak.");
    insta::assert_snapshot!("diff_json", run.stdout);
}

#[test]
fn the_changelog_in_markdown_english_and_japanese() {
    let en = diff(&["--markdown"]);
    assert_eq!(en.code, 0, "{}", en.stderr);
    insta::assert_snapshot!("diff_markdown_en", en.stdout);
    let ja = diff(&["--markdown", "--lang", "ja"]);
    assert_eq!(ja.code, 0, "{}", ja.stderr);
    insta::assert_snapshot!("diff_markdown_ja", ja.stdout);
}

#[test]
fn the_human_report() {
    let run = diff(&[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!("diff_human", run.stdout);
}

#[test]
fn built_databases_compare_as_their_pools_do() {
    let temp = tempfile::tempdir().unwrap();
    let old_db = temp.path().join("old.json");
    let new_db = temp.path().join("new.json");
    for (pool, out) in [(OLD, &old_db), (NEW, &new_db)] {
        let pool = root().join(pool);
        let built = blades(
            temp.path(),
            &[
                "build",
                "--cards",
                pool.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ],
        );
        assert_eq!(built.code, 0, "{}", built.stderr);
    }
    let pools = diff(&["--format", "json"]).json();
    let (old_db, new_db) = (old_db.to_str().unwrap(), new_db.to_str().unwrap());
    let new_pool = root().join(NEW);
    for (old, new) in [(old_db, new_db), (old_db, new_pool.to_str().unwrap())] {
        let run = blades(temp.path(), &["diff", old, new, "--format", "json"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let report = run.json();
        assert_eq!(report["changes"], pools["changes"]);
        assert_eq!(report["old"]["kind"], "database");
    }
}

#[test]
fn fail_on_gates_on_the_classes_named() {
    assert_eq!(diff(&["--fail-on", "functional,stats", "-q"]).code, 1);
    assert_eq!(diff(&["--fail-on", "wording"]).code, 1);
    // The same release: nothing changed, nothing fails.
    let same = blades(
        root(),
        &[
            "diff",
            OLD,
            OLD,
            "--fail-on",
            "added,removed,renamed,stats,functional,wording,translation,flavor",
        ],
    );
    assert_eq!(same.code, 0, "{}", same.stderr);
    assert!(
        same.stdout.ends_with("no card changed\n"),
        "{}",
        same.stdout
    );
    // A class that does not exist is a usage error, with the nearest one.
    let wrong = diff(&["--fail-on", "functionl"]);
    assert_eq!(wrong.code, 2);
    assert!(
        wrong.stderr.contains("did you mean `functional`"),
        "{}",
        wrong.stderr
    );
    let json = diff(&["--fail-on", "functionl", "--format", "json"]);
    assert_eq!(json.code, 2);
    assert_eq!(json.json()["diagnostics"][0]["code"], "usage");
}

#[test]
fn a_pool_with_errors_on_either_side_is_reported_and_exits_2() {
    let run = blades(
        root(),
        &[
            "diff",
            "tests/fixtures/build/invalid",
            NEW,
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr, "");
    let report = run.json();
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(codes.len() > 1, "{codes:?}");
    assert_eq!(codes.last(), Some(&"pool-has-errors"));
    assert!(
        report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["file"].as_str().is_some_and(|f| f.contains("invalid/"))),
        "the pool's own findings are located: {}",
        run.stdout
    );
    let human = blades(root(), &["diff", OLD, "tests/fixtures/build/invalid"]);
    assert_eq!(human.code, 2);
    assert!(
        human.stderr.contains("the new pool has errors"),
        "{}",
        human.stderr
    );
    assert_eq!(human.stdout, "");
}

#[test]
fn unreadable_and_malformed_databases_exit_2_located() {
    let temp = tempfile::tempdir().unwrap();
    let missing = blades(temp.path(), &["diff", "nope.json", "nope2.json"]);
    assert_eq!(missing.code, 2);
    assert!(
        missing.stderr.contains("cannot read `nope.json`"),
        "{}",
        missing.stderr
    );
    assert!(
        missing.stderr.contains("cannot read `nope2.json`"),
        "{}",
        missing.stderr
    );

    std::fs::write(
        temp.path().join("bad.json"),
        "{\"format\": 2,\n \"cards\": [1]}",
    )
    .unwrap();
    let run = blades(
        temp.path(),
        &["diff", "bad.json", "bad.json", "--format", "json"],
    );
    assert_eq!(run.code, 2);
    let first = &run.json()["diagnostics"][0];
    assert_eq!(first["code"], "database-invalid");
    assert_eq!(first["file"], "bad.json");
    assert_eq!(first["line"], 2);

    std::fs::write(
        temp.path().join("old-format.json"),
        "{\"format\": 1, \"cards\": [], \"sets\": []}",
    )
    .unwrap();
    let run = blades(temp.path(), &["diff", "old-format.json", "old-format.json"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("a database of format 1"),
        "{}",
        run.stderr
    );
}

/// Cards are matched by id: a database with an id twice is refused, on
/// either side, every repeat located with its first use (exit 2).
#[test]
fn a_database_with_one_id_twice_is_refused_located() {
    let twice = "tests/fixtures/diff/databases/one-id-twice.json";
    for args in [[twice, NEW], [OLD, twice]] {
        let run = blades(root(), &["diff", args[0], args[1], "--format", "json"]);
        assert_eq!(run.code, 2, "{}", run.stdout);
        let found: Vec<(String, String, u64, u64)> = run.json()["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["code"].as_str().unwrap().to_string(),
                    d["file"].as_str().unwrap().to_string(),
                    d["line"].as_u64().unwrap(),
                    d["related"][0]["line"].as_u64().unwrap(),
                )
            })
            .collect();
        let repeat = |line, first| {
            (
                "duplicate-card-id".to_string(),
                twice.to_string(),
                line,
                first,
            )
        };
        assert_eq!(found, [repeat(6, 4), repeat(13, 8)]);
    }
}

#[test]
fn markdown_and_json_do_not_go_together() {
    let run = diff(&["--markdown", "--format", "json"]);
    assert_eq!(run.code, 2);
    assert_eq!(run.json()["diagnostics"][0]["code"], "usage");
    // `--lang` is the changelog's.
    assert_eq!(diff(&["--lang", "ja"]).code, 2);
}

/// A pool whose card keeps an errata history with two mistakes: a release
/// named twice and an earlier text that does not parse.
#[test]
fn errata_histories_are_checked_and_land_in_the_database() {
    let temp = tempfile::tempdir().unwrap();
    let pool = temp.path().join("pool");
    std::fs::create_dir(&pool).unwrap();
    let set = |errata: &str| {
        format!(
            "id: e\nname: E\nkind: core\ncost: 3\ncards:\n  - id: a\n    name: A\n    kind: single\n    stars: 1\n    copies: 1\n    effect: \"Play: Gain 2 RP.\"\n    errata:\n{errata}"
        )
    };
    std::fs::write(
        pool.join("e.yaml"),
        set("      - {until: \"1.0\", effect: \"Play: Gain 1 RP.\"}\n      - {until: \"1.0\", effect: \"Play: Gane 1 RP.\"}\n"),
    )
    .unwrap();
    let run = blades(
        temp.path(),
        &["build", "--cards", "pool", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}", run.stdout);
    let found: Vec<String> = run.json()["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{}:{}:{} {}",
                d["file"].as_str().unwrap(),
                d["line"],
                d["column"],
                d["code"].as_str().unwrap()
            )
        })
        .collect();
    assert!(
        found.contains(&"pool/e.yaml:14:17 duplicate-errata".to_string()),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|f| f.starts_with("pool/e.yaml:14:") && !f.ends_with("duplicate-errata")),
        "the bad text is located inside its value: {found:?}"
    );
    std::fs::write(
        pool.join("e.yaml"),
        set("      - {until: \"1.0\", effect: \"Play: Gain 1 RP.\", note: Too weak.}\n"),
    )
    .unwrap();
    let run = blades(temp.path(), &["build", "--cards", "pool", "--out", "-"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let database: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        database["cards"][0]["errata"],
        serde_json::json!([{"until": "1.0", "effect": "Play: Gain 1 RP.", "note": "Too weak."}])
    );
}

#[test]
fn the_fixture_pools_build_clean() {
    for pool in [OLD, NEW] {
        let run = blades(root(), &["build", "--cards", pool, "--out", "-", "-q"]);
        assert_eq!(run.code, 0, "{pool}: {}", run.stderr);
        assert_eq!(run.stderr, "", "{pool}");
        assert!(Path::new(&root().join(pool)).is_dir());
    }
}
