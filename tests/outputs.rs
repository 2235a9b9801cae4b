//! Where outputs go: `-` is standard output, a link is followed and kept,
//! a device or pipe is written straight into with nothing made beside it.

mod common;

use std::path::Path;

use common::{blades, files, root};

fn database(text: &str) -> serde_json::Value {
    serde_json::from_str(text).expect("the database is JSON")
}

#[test]
fn out_dash_writes_the_database_to_standard_output_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let run = blades(dir.path(), &["build", "--out", "-"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("into standard output"),
        "{}",
        run.stderr
    );
    let from_stdout = database(&run.stdout);
    let file = dir.path().join("file.json").display().to_string();
    assert_eq!(
        blades(dir.path(), &["build", "--out", &file, "--no-cache"]).code,
        0
    );
    let from_file = database(&std::fs::read_to_string(&file).unwrap());
    assert_eq!(from_stdout, from_file);
    // No file named `-`, no cache, no temp file.
    let left: Vec<String> = files(dir.path()).into_keys().collect();
    assert_eq!(left, ["file.json"]);
}

#[cfg(unix)]
#[test]
fn a_link_as_output_is_followed_and_stays_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real");
    std::fs::create_dir(&real).unwrap();
    std::fs::write(real.join("cards.json"), "old").unwrap();
    std::os::unix::fs::symlink("real/cards.json", dir.path().join("db.json")).unwrap();
    let run = blades(dir.path(), &["build", "--out", "db.json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let link = std::fs::symlink_metadata(dir.path().join("db.json")).unwrap();
    assert!(link.file_type().is_symlink(), "the link was replaced");
    database(&std::fs::read_to_string(real.join("cards.json")).unwrap());
    // The cache sits beside the database, and a second build reuses it.
    assert!(real.join(".blades-cache").exists());
    assert!(!dir.path().join(".blades-cache").exists());
    let again = blades(dir.path(), &["build", "--out", "db.json", "--timings"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(
        std::fs::symlink_metadata(dir.path().join("db.json"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    // A translation export follows a link just the same.
    std::os::unix::fs::symlink("real/ja.po", dir.path().join("ja.po")).unwrap();
    let export = blades(
        dir.path(),
        &["i18n", "export", "--lang", "ja", "-o", "ja.po"],
    );
    assert_eq!(export.code, 0, "{}", export.stderr);
    assert!(
        std::fs::symlink_metadata(dir.path().join("ja.po"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(real.join("ja.po"))
            .unwrap()
            .contains("msgid")
    );
}

#[cfg(unix)]
#[test]
fn a_device_as_output_is_written_straight_into() {
    let dir = tempfile::tempdir().unwrap();
    let run = blades(dir.path(), &["build", "--out", "/dev/stdout"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    database(&run.stdout);
    let null = blades(dir.path(), &["build", "--out", "/dev/null"]);
    assert_eq!(null.code, 0, "{}", null.stderr);
    assert!(files(dir.path()).is_empty());
    assert!(!Path::new("/dev/.blades-cache").exists());
}

#[test]
fn watch_refuses_standard_output() {
    let pool = root()
        .join("tests/fixtures/rules/pool")
        .display()
        .to_string();
    let run = blades(
        root(),
        &["--cards", &pool, "build", "--watch", "--out", "-"],
    );
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("not `-`"), "{}", run.stderr);
}

#[cfg(unix)]
#[test]
fn fmt_rewrites_a_linked_set_file_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let pool = dir.path().join("pool");
    let store = dir.path().join("store");
    std::fs::create_dir_all(&pool).unwrap();
    std::fs::create_dir_all(&store).unwrap();
    let text = "id: tiny\nname: Tiny\nkind: bronze-promo\ncards:\n  - {id: a, name: A, kind: single, stars: 1, elements: [fire], types: [mage], effect: \"play: gain 2 rp.\"}\n";
    std::fs::write(store.join("tiny.yaml"), text).unwrap();
    std::os::unix::fs::symlink("../store/tiny.yaml", pool.join("tiny.yaml")).unwrap();
    let run = blades(dir.path(), &["--cards", "pool", "fmt"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let link = std::fs::symlink_metadata(pool.join("tiny.yaml")).unwrap();
    assert!(link.file_type().is_symlink(), "the link was replaced");
    let rewritten = std::fs::read_to_string(store.join("tiny.yaml")).unwrap();
    assert!(rewritten.contains("Play: Gain 2 RP."), "{rewritten}");
}
