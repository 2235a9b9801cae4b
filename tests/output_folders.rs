//! Output folders (faces, gallery, print sheets) and other outputs hold old
//! or new, nothing between: runs killed at chosen points (`BLADES_KILL_AT`,
//! a hook of debug builds only), stale temp files swept even when a run has
//! nothing to write, two writers into one folder, a stale SQLite `-wal`.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use common::{blades, copy_dir, files, root};

/// Runs `blades` in `dir` with `BLADES_KILL_AT=point`, and checks that the
/// run was killed there.
fn killed_at(dir: &Path, point: &str, args: &[&str]) {
    let output = Command::new(env!("CARGO_BIN_EXE_blades"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("BLADES_KILL_AT", point)
        .output()
        .expect("the blades binary runs");
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(
            output.status.signal(),
            Some(9),
            "not killed at {point}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

fn ok(dir: &Path, args: &[&str]) {
    let run = blades(dir, args);
    assert_eq!(run.code, 0, "{args:?}: {}{}", run.stdout, run.stderr);
}

/// The built-in pool copied to `pool/` in a new folder.
fn pool() -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap();
    copy_dir(&root().join("cards"), &temp.path().join("pool"));
    temp
}

const ONE_RP: &str = "effect: \"Play: Gain 1 RP.\"\n    flavor: \"It grants wishes";
const THREE_RP: &str = "effect: \"Play: Gain 3 RP.\"\n    flavor: \"It grants wishes";

/// Changes meadow-sprite's effect in the pool (`from` to `to`).
fn edit(dir: &Path, from: &str, to: &str) {
    let set = dir.join("pool/first-light-core.yaml");
    let text = std::fs::read_to_string(&set).unwrap();
    assert_eq!(text.matches(from).count(), 1);
    std::fs::write(&set, text.replace(from, to)).unwrap();
}

/// Every file under a folder with its bytes.
fn contents(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    files(dir)
}

/// The files of `dir` that differ from (or are missing in) `expected`.
fn differing(dir: &Path, expected: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    let found = contents(dir);
    let names: std::collections::BTreeSet<&String> = found.keys().chain(expected.keys()).collect();
    names
        .into_iter()
        .filter(|name| found.get(*name) != expected.get(*name))
        .cloned()
        .collect()
}

/// What a run from scratch writes into a new folder `name` in `dir`.
fn fresh(dir: &Path, command: &[&str], name: &str) -> BTreeMap<String, Vec<u8>> {
    let mut args = command.to_vec();
    args.extend(["--out", name]);
    ok(dir, &args);
    contents(&dir.join(name))
}

#[test]
fn a_gallery_killed_mid_commit_and_run_again_from_the_earlier_pool_is_that_pools_gallery() {
    let temp = pool();
    let dir = temp.path();
    let gallery = ["--cards", "pool", "gallery", "--out", "site"];
    ok(dir, &gallery);
    edit(dir, ONE_RP, THREE_RP);
    // Killed after the first of the changed faces is in place.
    killed_at(dir, "commit-rename:1", &gallery);
    edit(dir, THREE_RP, ONE_RP);
    ok(dir, &gallery);
    let expected = fresh(dir, &["--cards", "pool", "gallery"], "fresh");
    assert_eq!(
        differing(&dir.join("site"), &expected),
        Vec::<String>::new()
    );
}

#[test]
fn a_gallery_killed_after_its_manifest_still_deletes_the_faces_no_longer_asked_for() {
    let temp = pool();
    let dir = temp.path();
    ok(dir, &["--cards", "pool", "gallery", "--out", "site"]);
    let ja = [
        "--cards", "pool", "gallery", "--out", "site", "--lang", "ja",
    ];
    // Every file renamed in, the manifest last; killed before the deletions.
    killed_at(dir, "commit-renamed", &ja);
    ok(dir, &ja);
    let expected = fresh(
        dir,
        &["--cards", "pool", "gallery", "--lang", "ja"],
        "fresh",
    );
    assert_eq!(
        differing(&dir.join("site"), &expected),
        Vec::<String>::new()
    );
}

#[test]
fn render_killed_during_its_renames_is_finished_by_the_next_run_into_the_folder() {
    let temp = pool();
    let dir = temp.path();
    let render = ["--cards", "pool", "render", "--out", "faces"];
    ok(dir, &render);
    edit(dir, ONE_RP, THREE_RP);
    killed_at(dir, "commit-rename:1", &render);
    let mixed = contents(&dir.join("faces"));
    assert!(mixed.contains_key(".blades-journal"), "{:?}", mixed.keys());
    // The next run draws another card only; the killed run's faces are
    // finished first.
    ok(
        dir,
        &["--cards", "pool", "render", "--out", "faces", "ember-drake"],
    );
    let expected = fresh(dir, &["--cards", "pool", "render"], "fresh");
    assert_eq!(
        differing(&dir.join("faces"), &expected),
        Vec::<String>::new()
    );
}

/// A temp file a killed run left in `dir`; returns its name.
fn plant_stale_temp_file(dir: &Path) -> String {
    let mut child = Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let name = format!(".blades-tmp-{dead}-kiLLed");
    std::fs::write(dir.join(&name), "half a file").unwrap();
    name
}

#[test]
fn a_killed_runs_temp_files_are_swept_by_a_next_run_with_nothing_to_write() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    for (command, out, inner) in [
        (&["gallery", "--out", "site"][..], "site", "faces"),
        (&["render", "--out", "faces"][..], "faces", "fonts"),
        (
            &["print", "--out", "print", "--lang", "en"][..],
            "print",
            ".",
        ),
    ] {
        ok(dir, command);
        let before = contents(&dir.join(out));
        plant_stale_temp_file(&dir.join(out));
        plant_stale_temp_file(&dir.join(out).join(inner));
        ok(dir, command);
        assert_eq!(
            differing(&dir.join(out), &before),
            Vec::<String>::new(),
            "{command:?}"
        );
    }
    // A build whose database is up to date.
    ok(dir, &["build", "--out", "dist/cards.json"]);
    let before = contents(&dir.join("dist"));
    plant_stale_temp_file(&dir.join("dist"));
    ok(dir, &["build", "--out", "dist/cards.json"]);
    assert_eq!(differing(&dir.join("dist"), &before), Vec::<String>::new());
}

#[test]
#[cfg(unix)]
fn a_second_writer_into_a_folder_is_refused_saying_why() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    for (command, out) in [
        (&["gallery", "--out", "site"][..], "site"),
        (&["render", "--out", "faces"][..], "faces"),
        (&["print", "--out", "print", "--lang", "en"][..], "print"),
    ] {
        std::fs::create_dir(dir.join(out)).unwrap();
        // Another run holds the folder.
        let held = std::fs::File::open(dir.join(out)).unwrap();
        held.try_lock().unwrap();
        let run = blades(dir, command);
        assert_eq!(run.code, 2, "{command:?}: {}", run.stderr);
        assert!(
            run.stderr
                .contains("another blades run is writing into this folder"),
            "{}",
            run.stderr
        );
        assert!(contents(&dir.join(out)).is_empty(), "nothing was written");
        drop(held);
        ok(dir, command);
    }
}

// ----- SQLite beside a WAL -------------------------------------------------

fn sqlite_build(dir: &Path) -> common::Run {
    blades(
        dir,
        &[
            "build",
            "--out",
            "dist/cards.json",
            "--sqlite",
            "dist/cards.db",
        ],
    )
}

fn card_count(db: &Path) -> i64 {
    let connection = rusqlite::Connection::open(db).unwrap();
    connection
        .query_row("SELECT count(*) FROM cards", [], |r| r.get(0))
        .unwrap()
}

/// The database opened by a client in WAL mode, every card deleted, the
/// change still in the WAL only (the connection returned open).
fn client_deleting_every_card(db: &Path) -> rusqlite::Connection {
    let client = rusqlite::Connection::open(db).unwrap();
    client
        .execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;
             PRAGMA foreign_keys = OFF; DELETE FROM cards;",
        )
        .unwrap();
    client
}

#[test]
fn build_sqlite_beside_a_dead_clients_wal_writes_the_new_database_whole() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let db = dir.join("dist/cards.db");
    let run = sqlite_build(dir);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let cards = card_count(&db);
    assert!(cards > 0);
    // The client dies: its -wal and -shm stay as they were.
    let client = client_deleting_every_card(&db);
    let wal = std::fs::read(dir.join("dist/cards.db-wal")).unwrap();
    let shm = std::fs::read(dir.join("dist/cards.db-shm")).unwrap();
    drop(client);
    std::fs::write(dir.join("dist/cards.db-wal"), wal).unwrap();
    std::fs::write(dir.join("dist/cards.db-shm"), shm).unwrap();
    let run = sqlite_build(dir);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!dir.join("dist/cards.db-wal").exists());
    assert!(!dir.join("dist/cards.db-shm").exists());
    assert_eq!(
        card_count(&db),
        cards,
        "no old page was read over the new file"
    );
}

#[test]
fn build_sqlite_refuses_while_another_process_has_the_database_open_in_wal_mode() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let db = dir.join("dist/cards.db");
    let run = sqlite_build(dir);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let client = client_deleting_every_card(&db);
    let before = std::fs::read(&db).unwrap();
    let run = sqlite_build(dir);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("another program has it open in WAL mode"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read(&db).unwrap(), before, "left as it was");
    drop(client);
    let run = sqlite_build(dir);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!dir.join("dist/cards.db-wal").exists());
}
