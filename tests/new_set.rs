//! `blades new` starts a set that builds, of every kind; and the README's
//! set-file example builds as written.

mod common;

use blades::words::SetKind;
use common::{blades, root};

#[test]
fn a_new_set_of_every_kind_builds_without_a_finding() {
    for kind in SetKind::ALL.map(SetKind::as_str) {
        let dir = tempfile::tempdir().unwrap();
        let id = format!("new-{kind}");
        let made = blades(dir.path(), &["new", &id, "--kind", kind]);
        assert_eq!(made.code, 0, "{kind}: {}", made.stderr);
        let built = blades(dir.path(), &["build", "--format", "json"]);
        assert_eq!(built.code, 0, "{kind}: {}", built.stdout);
        let report = built.json();
        assert_eq!(report["diagnostics"], serde_json::json!([]), "{kind}");
        let text = std::fs::read_to_string(dir.path().join(format!("cards/{id}.yaml"))).unwrap();
        assert!(text.contains(&format!("kind: {kind}\n")), "{text}");
    }
}

#[test]
fn new_sets_beside_an_existing_pool_build_with_it() {
    let dir = tempfile::tempdir().unwrap();
    common::copy_dir(&root().join("cards"), &dir.path().join("cards"));
    let made = blades(
        dir.path(),
        &["new", "harbor-lights", "--name", "Harbor Lights"],
    );
    assert_eq!(made.code, 0, "{}", made.stderr);
    let built = blades(dir.path(), &["build"]);
    assert_eq!(built.code, 0, "{}", built.stderr);
}

#[test]
fn new_refuses_a_file_that_exists_and_a_bad_id_and_its_suggestion_works() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(blades(dir.path(), &["new", "dust-bowl"]).code, 0);
    let before = std::fs::read(dir.path().join("cards/dust-bowl.yaml")).unwrap();
    let again = blades(dir.path(), &["new", "dust-bowl", "--kind", "starter"]);
    assert_eq!(again.code, 2);
    assert!(again.stderr.contains("exists already"), "{}", again.stderr);
    assert_eq!(
        std::fs::read(dir.path().join("cards/dust-bowl.yaml")).unwrap(),
        before
    );

    let bad = blades(dir.path(), &["new", "Sunset Gulch!"]);
    assert_eq!(bad.code, 2);
    let suggested = bad
        .stderr
        .split('`')
        .find(|part| part.starts_with("blades new "))
        .unwrap_or_else(|| panic!("no suggestion in {}", bad.stderr));
    let args: Vec<&str> = suggested.split(' ').skip(1).collect();
    assert_eq!(args, ["new", "sunset-gulch"]);
    assert_eq!(blades(dir.path(), &args).code, 0);

    let costly = blades(
        dir.path(),
        &["new", "promo", "--kind", "gold-promo", "--cost", "3"],
    );
    assert_eq!(costly.code, 2);
    assert!(!dir.path().join("cards/promo.yaml").exists());
}

/// The README's set file, as written, is a pool that builds clean.
#[test]
fn the_readme_set_file_builds_as_written() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = &readme[readme.find("### Set files").unwrap()..];
    let start = section.find("```yaml\n").unwrap() + "```yaml\n".len();
    let example = &section[start..start + section[start..].find("```").unwrap()];
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("cards")).unwrap();
    std::fs::write(dir.path().join("cards/sunset-gulch.yaml"), example).unwrap();
    let built = blades(dir.path(), &["build", "--format", "json"]);
    assert_eq!(built.code, 0, "{}", built.stdout);
    assert_eq!(built.json()["diagnostics"], serde_json::json!([]));
}
