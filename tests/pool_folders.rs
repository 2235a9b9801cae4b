//! Folders of a pool that are not what they seem: named like set files, or
//! unreadable. Each is a located error naming the folder; the rest of the
//! pool is still checked.

mod common;

use std::path::Path;

use common::{blades, copy_dir, root};
use serde_json::Value;

/// The (file, code, message) of each diagnostic of a JSON report.
fn findings(stdout: &str) -> Vec<(String, String, String)> {
    let report: Value = serde_json::from_str(stdout).expect("a JSON report");
    report["diagnostics"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|d| {
            let text = |key: &str| d[key].as_str().unwrap().to_string();
            (text("file"), text("code"), text("message"))
        })
        .collect()
}

/// A pool of one valid set.
fn pool() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("cards/sunset-gulch.yaml"),
        dir.path().join("sunset-gulch.yaml"),
    )
    .unwrap();
    dir
}

fn build(dir: &Path) -> common::Run {
    blades(
        dir,
        &[
            "--cards",
            ".",
            "--format",
            "json",
            "build",
            "--out",
            "out/cards.json",
        ],
    )
}

#[test]
fn a_folder_named_like_a_set_file_is_an_error_and_its_files_are_still_checked() {
    let dir = pool();
    std::fs::create_dir(dir.path().join("tin-town.yaml")).unwrap();
    std::fs::write(dir.path().join("tin-town.yaml/broken.yaml"), "id: [\n").unwrap();
    let run = build(dir.path());
    assert_eq!(run.code, 1, "{}", run.stderr);
    let found = findings(&run.stdout);
    assert!(
        found.contains(&(
            "./tin-town.yaml".to_string(),
            "unreadable".to_string(),
            "this is a folder, not a set file".to_string()
        )),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|(file, code, _)| file == "./tin-town.yaml/broken.yaml" && code == "yaml-syntax"),
        "the folder's own files are checked: {found:?}"
    );
    assert!(!dir.path().join("out").exists(), "nothing is written");

    // People see the folder named too.
    let run = blades(
        dir.path(),
        &["--cards", ".", "build", "--out", "out/cards.json"],
    );
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("./tin-town.yaml"), "{}", run.stderr);
    assert!(
        run.stderr.contains("this is a folder, not a set file"),
        "{}",
        run.stderr
    );
}

/// A folder whose path is longer than the system takes cannot be read,
/// even by root (whom permission bits do not stop): the finding names that
/// folder, not the pool, and the pool's other files are still checked.
#[cfg(target_os = "linux")]
#[test]
fn an_unreadable_subfolder_is_named_not_the_pool() {
    use rustix::fs::{Mode, OFlags, mkdirat, openat};
    let dir = pool();
    let name = "d".repeat(250);
    let open = OFlags::DIRECTORY | OFlags::RDONLY;
    let mut fd = openat(rustix::fs::CWD, dir.path(), open, Mode::empty()).unwrap();
    let mut shown = ".".to_string();
    for _ in 0..20 {
        mkdirat(&fd, name.as_str(), Mode::RWXU).unwrap();
        fd = openat(&fd, name.as_str(), open, Mode::empty()).unwrap();
        shown = format!("{shown}/{name}");
    }
    let run = build(dir.path());
    assert_eq!(run.code, 1, "{}", run.stderr);
    let found = findings(&run.stdout);
    assert_eq!(found.len(), 1, "{found:?}");
    let (file, code, message) = &found[0];
    assert_eq!(code, "unreadable");
    assert!(
        message.starts_with("cannot read this folder: "),
        "{message}"
    );
    // A folder deep inside the pool, which holds it.
    assert!(
        file.len() > 4000 && shown.starts_with(file.as_str()),
        "{file}"
    );
}

/// `fmt` reads the pool as `build` does: a folder it cannot take for what
/// its name says is reported, and nothing is rewritten.
#[test]
fn fmt_reports_a_folder_of_the_pool_it_cannot_read() {
    let dir = pool();
    std::fs::create_dir(dir.path().join("old.yaml")).unwrap();
    let run = blades(dir.path(), &["--cards", ".", "--format", "json", "fmt"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let found = findings(&run.stdout);
    assert!(
        found
            .iter()
            .any(|(file, code, _)| file.ends_with("old.yaml") && code == "unreadable"),
        "{found:?}"
    );
}

#[test]
fn a_set_file_with_an_upper_case_extension_is_named_not_passed_over() {
    let dir = pool();
    std::fs::copy(
        root().join("cards/orbital-drift.yaml"),
        dir.path().join("orbital-drift.YAML"),
    )
    .unwrap();
    let run = build(dir.path());
    // A warning: the pool still builds, without that file.
    assert_eq!(run.code, 0, "{}", run.stderr);
    let found = findings(&run.stdout);
    assert_eq!(
        found,
        [(
            "./orbital-drift.YAML".to_string(),
            "ignored-file".to_string(),
            "not read: pool files end in `.yaml` or `.yml`, in lower case".to_string()
        )]
    );
}

/// One rule for every command: `--cards DIR`, else `./cards` when the
/// current folder has one, else the built-in pool (read-only); a human
/// report says which.
#[test]
fn every_command_reads_the_same_pool_and_says_which() {
    let dir = tempfile::tempdir().unwrap();
    // No `cards/` here: the built-in pool, which nothing writes into.
    let built_in = blades(dir.path(), &["build", "--out", "db.json"]);
    assert_eq!(built_in.code, 0, "{}", built_in.stderr);
    assert!(
        built_in.stderr.starts_with("pool: the built-in pool\n"),
        "{}",
        built_in.stderr
    );
    let import = blades(dir.path(), &["i18n", "import", "ja.po"]);
    assert_eq!(import.code, 2, "{}", import.stderr);
    assert!(
        import.stderr.contains("built-in pool is read-only"),
        "{}",
        import.stderr
    );
    // A `cards/` folder is the pool of every command run beside it: an
    // edit there is what `build`, `card show` and an export see.
    copy_dir(&root().join("cards"), &dir.path().join("cards"));
    let set = dir.path().join("cards/sunset-gulch.yaml");
    let text = std::fs::read_to_string(&set).unwrap();
    std::fs::write(
        &set,
        text.replace("Tumbleweed Jackrabbit", "Tumbleweed Hare"),
    )
    .unwrap();
    let found = blades(dir.path(), &["build", "--out", "db.json"]);
    assert_eq!(found.code, 0, "{}", found.stderr);
    assert!(
        found
            .stderr
            .starts_with("pool: `cards` (found in the current folder)\n"),
        "{}",
        found.stderr
    );
    let db = std::fs::read_to_string(dir.path().join("db.json")).unwrap();
    assert!(db.contains("Tumbleweed Hare") && !db.contains("Tumbleweed Jackrabbit"));
    let show = blades(dir.path(), &["card", "show", "Tumbleweed Hare"]);
    assert_eq!(show.code, 0, "{}", show.stderr);
    let export = blades(dir.path(), &["i18n", "export", "--lang", "ja"]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    assert!(export.stdout.contains("Tumbleweed Hare"));
    // `--cards` wins over the folder found.
    let named = blades(
        dir.path(),
        &["--cards", "nowhere", "build", "--out", "db.json"],
    );
    assert_eq!(named.code, 2);
    assert!(
        named.stderr.starts_with("pool: `nowhere`\n"),
        "{}",
        named.stderr
    );
    // `--quiet` drops the line.
    let quiet = blades(dir.path(), &["-q", "build", "--out", "db.json"]);
    assert_eq!((quiet.code, quiet.stderr.as_str()), (0, ""));
}
