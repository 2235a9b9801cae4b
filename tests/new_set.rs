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
    // A set the pool has already, by id or by name, is refused, wherever
    // its file is.
    let cards = dir.path().join("cards");
    std::fs::create_dir(cards.join("west")).unwrap();
    std::fs::rename(
        cards.join("sunset-gulch.yaml"),
        cards.join("west/gulch.yaml"),
    )
    .unwrap();
    for args in [
        &["new", "sunset-gulch"][..],
        &["new", "dusk-gulch", "--name", "SUNSET GULCH"],
    ] {
        let again = blades(dir.path(), args);
        assert_eq!(again.code, 2, "{args:?}: {}", again.stderr);
        assert!(
            again.stderr.contains("the pool has a set"),
            "{}",
            again.stderr
        );
    }
    assert!(!cards.join("sunset-gulch.yaml").exists());
    assert!(!cards.join("dusk-gulch.yaml").exists());
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

/// The README's set files (an expansion, a venue set, a set of
/// characters), as written, are a pool that builds clean.
#[test]
fn the_readme_set_files_build_as_written() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = &readme[readme.find("### Set files").unwrap()..];
    let section = &section[..section.find("\n### ").unwrap()];
    let examples: Vec<&str> = (section.split("```yaml\n").skip(1))
        .map(|block| &block[..block.find("```").unwrap()])
        .collect();
    assert_eq!(examples.len(), 3);
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("cards")).unwrap();
    for (i, example) in examples.iter().enumerate() {
        std::fs::write(dir.path().join(format!("cards/set-{i}.yaml")), example).unwrap();
    }
    let built = blades(dir.path(), &["build", "--format", "json"]);
    assert_eq!(built.code, 0, "{}", built.stdout);
    assert_eq!(built.json()["diagnostics"], serde_json::json!([]));
    let cards = std::fs::read_to_string(dir.path().join("dist/cards.json")).unwrap();
    assert!(cards.contains("\"kind\":\"venue\""), "{cards}");
}
