//! `blades build` end to end: the real binary on fixture pools.

mod common;

use std::path::{Path, PathBuf};

use common::{blades, located};

use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/build")
}

#[test]
fn a_valid_pool_builds_a_database_with_derived_fields() {
    let out = tempfile::tempdir().unwrap();
    let db_path = out.path().join("db/cards.json");
    let run = blades(
        &fixtures(),
        &[
            "build",
            "--cards",
            "valid",
            "--out",
            db_path.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert!(
        run.stderr.contains("built 4 sets, 19 cards"),
        "{}",
        run.stderr
    );
    let db: Value = serde_json::from_str(&std::fs::read_to_string(&db_path).unwrap()).unwrap();

    // Data files (keywords, locales) are not sets.
    let sets: Vec<&str> = db["sets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(sets, ["champion-kai", "first-light", "basics", "tin-town"]);

    let card = |id: &str| {
        db["cards"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("card {id}"))
            .clone()
    };
    assert_eq!(card("rivet-hound")["copies"], 3, "lowest STAR: 3 copies");
    assert_eq!(card("clockwork-titan")["copies"], 1, "highest STAR: 1 copy");
    assert_eq!(card("steam-sage")["copies"], 2);
    assert_eq!(card("steam-sage")["rarity"], "expansion");
    assert_eq!(card("dawn-herald")["rarity"], "gold-promo");
    assert_eq!(card("dawn-herald")["copies"], 1);
    assert_eq!(
        card("town-guard")["copies"],
        3,
        "core cards keep their stated copies"
    );
    assert_eq!(
        card("kai-gambit")["types"],
        serde_json::json!(["duelist", "soldier"])
    );
    assert_eq!(card("brass-owl")["set"], "tin-town");

    // The database matches its published schema.
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/database.schema.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(&db).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn every_problem_of_a_broken_pool_is_located_in_one_run() {
    let run = blades(
        &fixtures(),
        &[
            "build",
            "--cards",
            "invalid",
            "--format",
            "json",
            "--out",
            "/nonexistent/never.json",
        ],
    );
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("invalid_pool", located(&run.stdout).join("\n"));
}

#[test]
fn human_diagnostics_show_path_line_column_label_and_help() {
    let run = blades(
        &fixtures(),
        &[
            "build",
            "--cards",
            "invalid",
            "--out",
            "/nonexistent/never.json",
        ],
    );
    assert_eq!(run.code, 1);
    assert!(run.stderr.ends_with("22 errors\n"), "{}", run.stderr);
    // One full rendering is pinned; the rest are covered by the JSON snapshot.
    let first = run
        .stderr
        .split("\n\n")
        .take(2)
        .collect::<Vec<_>>()
        .join("\n\n");
    insta::assert_snapshot!("invalid_pool_rendered", first);
    assert!(run.stderr.contains("invalid/sunset-gulch.yaml:10:23"));
    assert!(run.stderr.contains("help: did you mean `fire`?"));
}

#[test]
fn a_failed_build_leaves_the_existing_output_untouched() {
    let out = tempfile::tempdir().unwrap();
    let db_path = out.path().join("cards.json");
    std::fs::write(&db_path, "previous database").unwrap();
    let run = blades(
        &fixtures(),
        &[
            "build",
            "--cards",
            "invalid",
            "--out",
            db_path.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 1);
    assert_eq!(
        std::fs::read_to_string(&db_path).unwrap(),
        "previous database"
    );
    let leftovers = std::fs::read_dir(out.path()).unwrap().count();
    assert_eq!(leftovers, 1, "no temp file is left behind");
}

/// An output path that is a folder, or in a folder that cannot be
/// written, is an error (exit 2) that changes nothing.
#[test]
fn an_output_that_cannot_be_written_is_exit_2_and_changes_nothing() {
    let out = tempfile::tempdir().unwrap();
    let folder = out.path().join("cards.json");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("keep.txt"), "mine").unwrap();
    for cache in [&[][..], &["--no-cache"][..]] {
        let mut args = vec!["build", "--out", folder.to_str().unwrap()];
        args.extend_from_slice(cache);
        let run = blades(out.path(), &args);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains("cannot write"), "{}", run.stderr);
        assert_eq!(
            std::fs::read_to_string(folder.join("keep.txt")).unwrap(),
            "mine"
        );
        let entries: Vec<_> = std::fs::read_dir(out.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(entries, ["cards.json"], "nothing else is left behind");
    }
}

#[test]
fn yaml_errors_are_located_and_other_files_still_checked() {
    let run = blades(
        &fixtures(),
        &[
            "build",
            "--cards",
            "yaml-errors",
            "--format",
            "json",
            "--out",
            "/nonexistent/x.json",
        ],
    );
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("yaml_errors", located(&run.stdout).join("\n"));
}

/// A card with a bad field is skipped only by the checks that need that
/// field: a STAR out of range makes no copies error on its neighbours, and a
/// card whose kind is wrong still has its name checked across the pool.
#[test]
fn a_bad_field_is_reported_alone_and_the_rest_still_checked() {
    let run = blades(
        &fixtures(),
        &[
            "build",
            "--cards",
            "neighbours",
            "--format",
            "json",
            "--out",
            "/nonexistent/x.json",
        ],
    );
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("neighbours", located(&run.stdout).join("\n"));
}

#[test]
fn files_of_the_wrong_shape_are_explained() {
    let run = blades(
        &fixtures(),
        &[
            "build",
            "--cards",
            "shapes",
            "--format",
            "json",
            "--out",
            "/nonexistent/x.json",
        ],
    );
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("shapes", located(&run.stdout).join("\n"));
}

#[test]
fn a_pool_brings_its_own_keyword_table() {
    let out = tempfile::tempdir().unwrap();
    let db = out.path().join("cards.json");
    let run = blades(
        &fixtures(),
        &[
            "build",
            "--cards",
            "own-keywords",
            "--format",
            "json",
            "--out",
            db.to_str().unwrap(),
        ],
    );
    // `Gear Up.` is known from the pool's table, which adds to the built-in
    // one (`Scurry.` stays known).
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(located(&run.stdout), [] as [&str; 0]);

    let run = blades(
        &fixtures(),
        &[
            "build",
            "--cards",
            "keyword-clash",
            "--format",
            "json",
            "--out",
            "/nonexistent/x.json",
        ],
    );
    assert_eq!(run.code, 1);
    // A built-in name there is an error at it, and a reminder that does
    // something else than its meaning a warning.
    assert_eq!(
        located(&run.stdout),
        [
            "keyword-clash/keywords.yaml:12:16 keyword-clash [a built-in keyword's name] the built-in keyword `Scurry` has this name already",
            "keyword-clash/keywords.yaml:18:11 reminder-differs [hand-written reminder] the reminder of `Overclock` does something else than its meaning: it does `Play: Gain 3 RP.`, the meaning `Play: Gain 2 RP.`",
            "keyword-clash/keywords.yaml:19:11 reminder-differs [hand-written reminder] the Japanese reminder of `Overclock` has the numbers [3]; its meaning renders `プレイ：2RPを得る。` ([2])",
        ]
    );

    let run = blades(
        &fixtures(),
        &[
            "build",
            "--cards",
            "bad-keywords",
            "--format",
            "json",
            "--out",
            "/nonexistent/x.json",
        ],
    );
    assert_eq!(run.code, 1);
    let lines = located(&run.stdout);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("bad-keywords/keywords.yaml:1:1 data-invalid")),
        "{lines:?}"
    );
}

#[test]
fn non_utf8_and_oversized_files_are_reported_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("latin1.yaml"), b"id: caf\xe9\nname: x\n").unwrap();
    let big = std::fs::File::create(dir.path().join("huge.yaml")).unwrap();
    big.set_len(50 * 1024 * 1024).unwrap();
    let run = blades(dir.path(), &["build", "--cards", ".", "--format", "json"]);
    assert_eq!(run.code, 1);
    let lines = located(&run.stdout);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("huge.yaml:1:1 file-too-large")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("latin1.yaml:1:8 not-utf8")),
        "{lines:?}"
    );
    assert!(!dir.path().join("dist").exists(), "nothing is written");
}

#[test]
fn an_effect_longer_than_the_bound_is_a_located_error_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    // A valid effect of about 1 MB on one line.
    let long = "Play: Gain 2 RP. ".repeat(60_000);
    std::fs::write(
        dir.path().join("s.yaml"),
        format!(
            "id: s\nname: S\nkind: gold-promo\ncards:\n  - id: a\n    name: A\n    kind: single\n    stars: 1\n    effect: '{long}'\n"
        ),
    )
    .unwrap();
    let run = blades(dir.path(), &["build", "--cards", ".", "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let lines = located(&run.stdout);
    let too_long: Vec<_> = lines
        .iter()
        .filter(|l| l.contains("effect-too-long"))
        .collect();
    assert_eq!(too_long.len(), 1, "{lines:?}");
    // The text starts at column 14 of line 9 (after the quote); its
    // 2,001st character is 2,000 further.
    assert!(
        too_long[0].starts_with("./s.yaml:9:2014 effect-too-long"),
        "{lines:?}"
    );
    assert!(!dir.path().join("dist").exists(), "nothing is written");
}

/// A pipe among the set files is reported, not waited on forever.
#[cfg(unix)]
#[test]
fn a_pipe_in_the_pool_is_a_finding_not_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        common::root().join("cards/sunset-gulch.yaml"),
        dir.path().join("sunset-gulch.yaml"),
    )
    .unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(dir.path().join("pipe.yaml"))
        .status()
        .unwrap();
    assert!(made.success());
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_blades"))
        .args(["build", "--cards", ".", "--format", "json"])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let status = common::wait_or_kill(&mut child, 30, "the build waited on the pipe");
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
    assert_eq!(status.code(), Some(1));
    let lines = located(&stdout);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("pipe.yaml:1:1 unreadable"), "{lines:?}");
}

#[test]
fn could_not_run_is_exit_2() {
    let run = blades(&fixtures(), &["build", "--cards", "empty"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("holds no set files"), "{}", run.stderr);

    let run = blades(&fixtures(), &["build", "--cards", "no-such-folder"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("cannot read"), "{}", run.stderr);

    let run = blades(&fixtures(), &["build", "--frobnicate"]);
    assert_eq!(run.code, 2);
}

#[test]
fn the_builtin_pool_builds_from_any_folder() {
    let dir = tempfile::tempdir().unwrap();
    let run = blades(dir.path(), &["build"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let db: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("dist/cards.json")).unwrap())
            .unwrap();
    let kinds: std::collections::BTreeSet<&str> = db["sets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    for kind in [
        "starter",
        "core",
        "expansion",
        "premium",
        "master",
        "bronze-promo",
        "silver-promo",
        "gold-promo",
    ] {
        assert!(kinds.contains(kind), "the built-in pool has a {kind} set");
    }
}

/// Every mistake at once: a card with a missing field or a bad kind, and a
/// set whose own kind is wrong, still take part in every pool check they
/// can (unknown types, repeated symbols, unique ids, set size), so a
/// designer is not sent round again for what the first run could see.
#[test]
fn cards_and_sets_that_do_not_read_whole_still_take_part_in_the_pool_checks() {
    let run = blades(
        &fixtures(),
        &[
            "build",
            "--cards",
            "every-mistake",
            "--format",
            "json",
            "--out",
            "/nonexistent/x.json",
        ],
    );
    assert_eq!(run.code, 1);
    let found: Vec<String> = run.json()["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {}:{}",
                d["code"].as_str().unwrap(),
                d["file"].as_str().unwrap().rsplit('/').next().unwrap(),
                d["line"]
            )
        })
        .collect();
    let expected = [
        "set-size bad-cards.yaml:5",
        "missing-field bad-cards.yaml:6",
        "unknown-type bad-cards.yaml:6",
        "invalid-value bad-cards.yaml:7",
        "duplicate-symbol bad-cards.yaml:7",
        "invalid-value bad-header.yaml:4",
        "unknown-type bad-header.yaml:6",
        "duplicate-card-id bad-header.yaml:7",
    ];
    assert_eq!(found, expected);
}

/// Counts take their noun in the right number and words their article:
/// `built 1 set`, `an expansion set`, never `1 sets` or `a expansion`.
#[test]
fn messages_say_one_set_and_an_expansion() {
    let dir = tempfile::tempdir().unwrap();
    let cards = (1..=5)
        .map(|i| format!("  - {{id: pro-{i}, name: Pro {i}, kind: single, stars: {i}}}\n"))
        .collect::<String>();
    std::fs::create_dir(dir.path().join("one")).unwrap();
    std::fs::write(
        dir.path().join("one/pro.yaml"),
        format!("id: pro\nname: Pro\nkind: pro-player\ncards:\n{cards}"),
    )
    .unwrap();
    let run = blades(dir.path(), &["build", "--cards", "one", "--out", "db.json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("built 1 set, 5 cards into db.json"),
        "{}",
        run.stderr
    );
    std::fs::write(
        dir.path().join("one/pro.yaml"),
        format!("id: pro\nname: Pro\nkind: expansion\ncards:\n{cards}"),
    )
    .unwrap();
    let run = blades(
        dir.path(),
        &[
            "--format", "json", "build", "--cards", "one", "--out", "db.json",
        ],
    );
    let messages = run.json()["diagnostics"].to_string();
    assert!(
        messages.contains("an expansion set is sold in the Store"),
        "{messages}"
    );
}

#[test]
fn venues_and_characters_have_no_star_and_stand_in_their_own_sets() {
    let run = blades(
        &fixtures(),
        &[
            "build",
            "--cards",
            "kinds",
            "--format",
            "json",
            "--out",
            "/nonexistent/never.json",
        ],
    );
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("kinds_pool", located(&run.stdout).join("\n"));
}
