//! `blades effect` and `blades fmt` through the real binary.

mod common;

use std::path::Path;

use common::root;

/// `blades` in `dir`: (exit code, stdout, stderr).
fn blades(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let run = common::blades(dir, args);
    (run.code, run.stdout, run.stderr)
}

#[test]
fn fmt_rewrites_effects_and_only_effects_and_is_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tin-cups.yaml");
    let original =
        std::fs::read_to_string(root().join("tests/fixtures/fmt/messy/tin-cups.yaml")).unwrap();
    std::fs::write(&file, &original).unwrap();
    let pool = dir.path().to_str().unwrap();

    let (code, out, _) = blades(root(), &["fmt", "--check", "--cards", pool]);
    assert_eq!(code, 1);
    assert_eq!(out.matches("is not in canonical form").count(), 3, "{out}");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        original,
        "--check writes nothing"
    );

    let (code, _, err) = blades(root(), &["fmt", "--cards", pool]);
    assert_eq!(code, 0, "{err}");
    let formatted = std::fs::read_to_string(&file).unwrap();
    insta::assert_snapshot!("fmt_messy", formatted);

    let (code, _, _) = blades(root(), &["fmt", "--check", "--cards", pool]);
    assert_eq!(code, 0, "formatting twice changes nothing");
    let (code, _, err) = blades(
        root(),
        &[
            "build",
            "--cards",
            pool,
            "--out",
            dir.path().join("out/db.json").to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "the formatted pool still builds: {err}");
}

/// Spellings the language accepts beside its canonical one (a cost before
/// a colon, `they`, a duration after the clauses, a leading `Then`, `gives
/// you`, two states of two subjects): `blades fmt` writes each canonically,
/// and `blades diff` of before and after finds no change of rules.
#[test]
fn fmt_migrates_other_spellings_and_diff_sees_no_rules_change() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    let fixture = root().join("tests/fixtures/fmt/spellings/other-words.yaml");
    for pool in [&old, &new] {
        std::fs::create_dir(pool).unwrap();
        std::fs::copy(&fixture, pool.join("other-words.yaml")).unwrap();
    }
    let (code, _, err) = blades(root(), &["fmt", "--cards", new.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let formatted = std::fs::read_to_string(new.join("other-words.yaml")).unwrap();
    for canonical in [
        "Action: Pay 2 Millennium Dollars to gain 3 RP.",
        "Reaction (when an opponent plays a fire card): That opponent loses 1 RP.",
        "Play: Flip this card. Until the end of the turn, it cannot be flipped.",
        "Play: All players gain 1 RP. Each opponent loses 1 RP.",
        "Play: Each opponent gives 1 Millennium Dollar to you.",
        "Ongoing: This card and the card to the left cannot be flipped.",
    ] {
        assert!(formatted.contains(canonical), "{canonical}\n{formatted}");
    }
    let (code, out, err) = blades(
        root(),
        &[
            "diff",
            old.to_str().unwrap(),
            new.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let classes: Vec<&str> = report["changes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["classes"].as_array().unwrap())
        .filter_map(|k| k.as_str())
        .collect();
    assert!(
        !classes.contains(&"functional"),
        "a migration changes no rules: {classes:?}"
    );
}

#[test]
fn fmt_changes_nothing_while_an_effect_does_not_parse() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.yaml");
    let original =
        std::fs::read_to_string(root().join("tests/fixtures/fmt/broken/bad.yaml")).unwrap();
    std::fs::write(&file, &original).unwrap();
    let (code, _, err) = blades(root(), &["fmt", "--cards", dir.path().to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("bad.yaml:6:63"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original);
}

#[test]
fn fmt_leaves_an_effect_it_cannot_rewrite_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.yaml");
    std::fs::write(
        &file,
        "id: s\nname: S\nkind: bronze-promo\ncards:\n  - {id: a, name: A, kind: single, stars: 1, effect: \"Play\"}\n  - {id: b, name: B, kind: single, stars: 2, effect: \"play: gain 2 rp.\"}\n",
    )
    .unwrap();
    let pool = dir.path().to_str().unwrap();
    let (code, out, err) = blades(dir.path(), &["fmt", "--cards", pool]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("effect-not-formatted"), "{err}");
    assert!(err.contains("s.yaml:5:54"), "{err}");
    assert!(out.contains("1 effect(s) rewritten"), "{out}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("effect: \"Play\"}"), "{text}");
    assert!(text.contains("effect: \"Play: Gain 2 RP.\"}"), "{text}");
    // The effect's own problem is what the check still reports.
    let (_, _, err) = blades(dir.path(), &["effect", "check", "Play"]);
    assert!(err.contains("unknown-keyword"), "{err}");
    // JSON names what was skipped.
    let (code, out, _) = blades(
        dir.path(),
        &["--format", "json", "fmt", "--check", "--cards", pool],
    );
    assert_eq!(code, 0);
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["skipped"][0]["code"], "effect-not-formatted");
    assert_eq!(report["skipped"][0]["line"], 5);
}

#[test]
fn effects_longer_than_the_bound_are_refused_by_check_render_and_fmt() {
    let long = "Play: Gain 2 RP. ".repeat(200);
    for args in [
        vec!["effect", "check"],
        vec!["effect", "render", "--lang", "ja"],
    ] {
        let mut args = args.clone();
        args.push(&long);
        let (code, out, err) = blades(root(), &args);
        assert_eq!(code, 1, "{args:?}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains("effect-too-long"), "{err}");
        assert!(err.contains("<effect>:1:2001"), "{err}");
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.yaml");
    let text = format!("id: s\ncards:\n  - id: a\n    effect: \"{long}\"\n");
    std::fs::write(&file, &text).unwrap();
    let (code, _, err) = blades(root(), &["fmt", "--cards", dir.path().to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("effect-too-long"), "{err}");
    assert!(err.contains("s.yaml:4:2014"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
}

#[test]
fn fmt_needs_a_folder_to_rewrite() {
    // Where no `cards/` is found, the pool is the built-in one: read-only.
    let empty = tempfile::tempdir().unwrap();
    let (code, _, err) = blades(empty.path(), &["fmt"]);
    assert_eq!(code, 2);
    assert!(err.contains("--cards"), "{err}");
}

#[test]
fn the_builtin_pool_is_in_canonical_form() {
    let (code, out, err) = blades(root(), &["fmt", "--check"]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn rendered_text_of_the_whole_builtin_pool() {
    let compiled = blades::compile::compile(&blades::pool::Pool::builtin());
    let database = compiled
        .output
        .into_database()
        .expect("the built-in pool builds");
    let mut lines = Vec::new();
    for card in database.cards.iter().filter(|c| c.effect.is_some()) {
        let indent = |text: &str| text.replace('\n', "\n      ");
        lines.push(format!(
            "{}\n  en: {}\n  ja: {}",
            card.id,
            indent(&card.effect_text["en"]),
            indent(&card.effect_text["ja"])
        ));
    }
    assert!(lines.len() >= 40, "only {} cards with effects", lines.len());
    insta::assert_snapshot!("builtin_pool_rendered", lines.join("\n"));
}
