//! `blades fix`: every fix a finding carries, made in a copy of each
//! fixture pool, clears that finding and brings no other.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use blades::compile::compile;
use blades::diagnostics::Diagnostic;
use blades::fix::{Reviews, fix_pool};
use blades::i18n;
use blades::pool::Pool;

use common::{blades, copy_dir, root};

/// What `blades build` and `blades i18n check` find in the pool in `dir`.
fn findings(dir: &Path) -> Vec<Diagnostic> {
    let pool = Pool::from_dir(dir).expect("the pool reads");
    let mut found = compile(&pool).diagnostics;
    found.extend(i18n::check::findings(&i18n::Project::load(&pool), None));
    found
}

/// How many findings of each code.
fn counts(findings: &[Diagnostic]) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for finding in findings {
        *counts.entry(finding.code.as_str().to_string()).or_default() += 1;
    }
    counts
}

/// Makes the fixes in a copy of `pool`; the codes fixed, each as often as
/// it was. Rebuilt, each code fixed has at least that many findings fewer
/// (a wrong fix leaves its finding, or makes another of its kind). A fix
/// may show what its mistake hid: `kind: expanson` fixed, the set is now
/// one that needs a `cost`.
fn fixes_clear_their_findings(pool: &Path) -> Vec<String> {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("cards");
    copy_dir(pool, &dir);
    let before = counts(&findings(&dir));
    let fixes = fix_pool(&Pool::from_dir(&dir).unwrap(), Reviews::Mark);
    fixes.write().expect("the fixes are written");
    let applied: Vec<String> = fixes
        .files
        .iter()
        .flat_map(|file| &file.applied)
        .map(|applied| applied.code.as_str().to_string())
        .collect();
    let after = counts(&findings(&dir));
    for code in &applied {
        let was = before[code];
        let fixed = applied.iter().filter(|c| *c == code).count();
        let left = after.get(code).copied().unwrap_or(0);
        assert!(
            left + fixed <= was,
            "{}: `{code}` {was} before, {fixed} fixed, {left} after",
            pool.display()
        );
    }
    applied
}

#[test]
fn each_fixable_code_is_fixed_and_the_pool_builds_clean() {
    let pool = root().join("tests/fixtures/fix/typos");
    let mut applied = fixes_clear_their_findings(&pool);
    applied.sort();
    applied.dedup();
    assert_eq!(
        applied,
        [
            "effect-syntax",
            "glossary-forbidden",
            "invalid-id",
            "invalid-value",
            "sense-timing-kind",
            "unknown-field",
            "unknown-keyword",
            "unknown-type",
        ]
    );
    let temp = tempfile::tempdir().unwrap();
    copy_dir(&pool, &temp.path().join("cards"));
    let run = blades(temp.path(), &["fix", "--cards", "cards", "-q"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(findings(&temp.path().join("cards")).is_empty());
}

#[test]
fn every_fix_in_every_fixture_pool_clears_its_finding() {
    let pools = common::fixture_pools();
    let mut fixed = 0;
    for pool in pools {
        if Pool::from_dir(&pool).is_ok() {
            fixed += fixes_clear_their_findings(&pool).len();
        }
    }
    assert!(fixed > 0, "some fixture pool has a fix");
}

/// The texts of every translation in a pool's `ja` locale, by key.
fn japanese_texts(dir: &Path) -> BTreeMap<String, String> {
    let project = i18n::Project::load(&Pool::from_dir(dir).unwrap());
    let locale = project.locales.get("ja").expect("a ja locale");
    locale
        .entries()
        .map(|(_, entry)| (entry.key.to_string(), entry.text.clone()))
        .collect()
}

#[test]
fn a_stale_translation_is_marked_reviewed_only_when_asked() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("cards");
    copy_dir(&root().join("tests/fixtures/i18n/drifted"), &dir);
    let stale = |dir: &Path| counts(&findings(dir)).get("locale-stale").copied();
    let texts = japanese_texts(&dir);
    let found = stale(&dir);
    assert!(found >= Some(2), "the fixture has stale translations");

    let plain = blades(temp.path(), &["fix", "--cards", "cards"]);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    assert!(
        plain
            .stdout
            .contains("stale translation(s) left as they are"),
        "{}",
        plain.stdout
    );
    assert_eq!(stale(&dir), found, "a plain `fix` marks no review");

    let reviewed = blades(
        temp.path(),
        &["fix", "--cards", "cards", "--reviewed", "-q"],
    );
    assert_eq!(reviewed.code, 0, "{}", reviewed.stderr);
    assert_eq!(stale(&dir), None, "every stale translation marked reviewed");
    assert_eq!(
        japanese_texts(&dir),
        texts,
        "the translations kept as written"
    );
    let status = blades(
        temp.path(),
        &["i18n", "status", "--cards", "cards", "--format", "json"],
    );
    assert!(
        !status.stdout.contains("\"state\": \"stale\""),
        "{}",
        status.stdout
    );
}
