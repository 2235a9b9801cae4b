//! The incremental build: whatever the cache holds, a build writes the
//! database and reports the findings a build without it would.

mod common;

use std::path::{Path, PathBuf};

use common::{Run, blades, copy_dir, root};

/// A copy of the built-in pool to edit.
fn pool_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("cards"), &dir.path().join("cards"));
    dir
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} has no {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// `blades build --cards <cards> --out <out>` in `dir`, with more flags.
fn build_into(dir: &Path, cards: &str, out: &Path, flags: &[&str]) -> Run {
    let out = out.to_str().unwrap();
    let mut args = vec!["build", "--cards", cards, "--out", out];
    args.extend_from_slice(flags);
    blades(dir, &args)
}

/// Builds `dir/cards` with the cache in `dir/out`, and without it; checks
/// both give the same result and returns the cached run and its database.
fn build_both(dir: &Path) -> (Run, Vec<u8>) {
    let cached_out = dir.join("out/cards.json");
    let fresh_out = dir.join("fresh/cards.json");
    let cached = build_into(dir, "cards", &cached_out, &["--timings"]);
    let fresh = build_into(dir, "cards", &fresh_out, &["--no-cache"]);
    assert_eq!(
        cached.code, fresh.code,
        "{}\n{}",
        cached.stderr, fresh.stderr
    );
    assert_eq!(diagnostics_of(&cached), diagnostics_of(&fresh));
    let database = std::fs::read(&cached_out).unwrap_or_default();
    if fresh.code == 0 {
        let expected = std::fs::read(&fresh_out).unwrap();
        assert!(
            database == expected,
            "the cached build wrote another database"
        );
    }
    assert!(
        !dir.join("fresh/.blades-cache").exists(),
        "--no-cache wrote a cache"
    );
    let _ = std::fs::remove_dir_all(dir.join("fresh"));
    (cached, database)
}

/// The report without the timings and the output path.
fn diagnostics_of(run: &Run) -> String {
    run.stderr
        .lines()
        .filter(|l| !l.starts_with("timings:") && !l.starts_with("built "))
        .collect::<Vec<_>>()
        .join("\n")
}

fn reused(run: &Run) -> String {
    let line = run
        .stderr
        .lines()
        .find(|l| l.starts_with("timings:"))
        .unwrap_or_else(|| panic!("no timings in {}", run.stderr));
    let end = line.find(" files reused").unwrap();
    let start = line[..end].rfind('(').unwrap() + 1;
    line[start..end].to_string()
}

/// "N of M" files read from disk (the rest the cache vouched for).
fn read(run: &Run) -> String {
    let line = run
        .stderr
        .lines()
        .find(|l| l.starts_with("timings:"))
        .unwrap();
    let end = line.find(" files read").unwrap();
    let start = line[..end].rfind('(').unwrap() + 1;
    line[start..end].to_string()
}

fn cache_file(dir: &Path) -> PathBuf {
    dir.join("out/.blades-cache")
}

#[test]
fn a_second_build_reuses_every_file_and_writes_the_same_database() {
    let dir = pool_copy();
    // Files written less than two seconds before a build get no stamp in
    // its cache; a later build that finds them settled records their
    // stamps, rightly writing the cache again. So that "nothing changed"
    // means nothing, the copy settles first (without this, the test failed
    // whenever the first pair of builds took over two seconds: on a loaded
    // machine).
    std::thread::sleep(std::time::Duration::from_millis(2100));
    let (first, database) = build_both(dir.path());
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert_eq!(reused(&first), "0 of 13");
    assert!(cache_file(dir.path()).exists());
    let stamp = |path: &Path| {
        let meta = std::fs::metadata(path).unwrap();
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(&meta);
        #[cfg(not(unix))]
        let inode = 0;
        (meta.modified().unwrap(), inode)
    };
    let out = dir.path().join("out/cards.json");
    let before = (stamp(&out), stamp(&cache_file(dir.path())));
    let (second, again) = build_both(dir.path());
    assert_eq!(reused(&second), "13 of 13");
    assert_eq!(database, again);
    // Nothing changed, so neither file was written again (a tool that
    // watches the database sees no change).
    assert_eq!((stamp(&out), stamp(&cache_file(dir.path()))), before);
    // An edit writes it again.
    edit(
        &dir.path().join("cards/sunset-gulch.yaml"),
        "name: Tumbleweed Jackrabbit",
        "name: Tumbleweed Jackalope",
    );
    let (third, _) = build_both(dir.path());
    assert_eq!(reused(&third), "12 of 13");
    assert_ne!(stamp(&out), before.0);
}

#[test]
fn an_edited_set_file_is_read_again_and_the_rest_reused() {
    let dir = pool_copy();
    build_both(dir.path());
    edit(
        &dir.path().join("cards/sunset-gulch.yaml"),
        "name: Sunset Gulch",
        "name: Sundown Gulch",
    );
    edit(
        &dir.path().join("cards/sunset-gulch.yaml"),
        "from the Sunset Gulch set",
        "from the Sundown Gulch set",
    );
    let (run, database) = build_both(dir.path());
    assert_eq!(reused(&run), "12 of 13");
    let text = String::from_utf8(database).unwrap();
    // The set's own name, and the effect text that names it.
    assert!(text.contains("\"name\":\"Sundown Gulch\""));
    assert!(text.contains("from the Sundown Gulch set"));
}

#[test]
fn an_edit_that_repeats_a_card_of_an_unchanged_set_is_found_in_both() {
    let dir = pool_copy();
    build_both(dir.path());
    // The first card of Sunset Gulch takes the id and the name of one in
    // Cogwork Foundry, whose file (and cached cards) stay as they were.
    let gulch = dir.path().join("cards/sunset-gulch.yaml");
    edit(&gulch, "id: tumbleweed-jackrabbit", "id: rivet-gremlin");
    edit(&gulch, "name: Tumbleweed Jackrabbit", "name: RIVET gremlin");
    let (run, _) = build_both(dir.path());
    assert_eq!(reused(&run), "12 of 13");
    for (code, first) in [
        ("duplicate-card-id", "cogwork-foundry.yaml"),
        ("duplicate-card-name", "cogwork-foundry.yaml"),
    ] {
        assert!(run.stderr.contains(code), "{}", run.stderr);
        assert!(run.stderr.contains(first), "{}", run.stderr);
    }
    // Put back: the findings go, again in both.
    edit(&gulch, "id: rivet-gremlin", "id: tumbleweed-jackrabbit");
    edit(&gulch, "name: RIVET gremlin", "name: Tumbleweed Jackrabbit");
    let (run, _) = build_both(dir.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn a_change_to_the_pools_types_checks_the_unchanged_sets_again() {
    let dir = pool_copy();
    let (cogwork, juno) = (
        dir.path().join("cards/cogwork-foundry.yaml"),
        dir.path().join("cards/pro-juno-kestrel.yaml"),
    );
    edit(&cogwork, "types: [construct]", "types: [gizmo]");
    edit(
        &juno,
        "extra-types: [speedster]",
        "extra-types: [speedster, gizmo]",
    );
    let (run, _) = build_both(dir.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Cogwork Foundry's file is the same, but the type its card names is
    // no longer declared.
    edit(
        &juno,
        "extra-types: [speedster, gizmo]",
        "extra-types: [speedster]",
    );
    let (run, _) = build_both(dir.path());
    assert_ne!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("gizmo"), "{}", run.stderr);
    assert!(
        run.stderr.contains("cogwork-foundry.yaml"),
        "{}",
        run.stderr
    );
}

#[test]
fn files_unchanged_since_a_build_are_not_read_again_and_an_edit_is_always_seen() {
    let dir = pool_copy();
    // A file's stamp vouches for it only once it has been left alone for a
    // moment (two writes within one tick of the clock share a stamp).
    std::thread::sleep(std::time::Duration::from_millis(2100));
    let (first, _) = build_both(dir.path());
    let total = read(&first);
    let (second, _) = build_both(dir.path());
    assert_eq!(reused(&second), "13 of 13");
    let (unread, _) = read(&second)
        .split_once(" of ")
        .map(|(n, _)| (n.parse::<usize>().unwrap(), ()))
        .unwrap();
    let (all, _) = total.split_once(" of ").unwrap();
    // Only the data files the cache does not keep (keywords, phrase
    // books, glossary) are read again.
    assert!(
        unread < 10 && all.parse::<usize>().unwrap() > 20,
        "{total} then {}",
        read(&second)
    );

    // An edit of the same length, right after the build: still seen.
    let set = dir.path().join("cards/sunset-gulch.yaml");
    edit(
        &set,
        "name: Tumbleweed Jackrabbit",
        "name: Tumbleweed Jackalope",
    );
    let (run, database) = build_both(dir.path());
    assert_eq!(reused(&run), "12 of 13");
    assert!(
        String::from_utf8(database)
            .unwrap()
            .contains("\"name\":\"Tumbleweed Jackalope\"")
    );

    // A finding that points into files left unread shows their lines as a
    // build that read them would (`build_both` compares the reports).
    let other = std::fs::read_to_string(dir.path().join("cards/orbital-drift.yaml")).unwrap();
    let taken = other
        .lines()
        .find_map(|l| l.trim().strip_prefix("- id: "))
        .expect("a card id")
        .to_string();
    let text = std::fs::read_to_string(&set).unwrap();
    let mine = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("- id: "))
        .unwrap()
        .to_string();
    edit(&set, &format!("- id: {mine}"), &format!("- id: {taken}"));
    // Every file is valid alone: only the pool checks, which run while the
    // unchanged cards are copied, find the problem, and the copy is dropped.
    let before = std::fs::read(dir.path().join("out/cards.json")).unwrap();
    let cache_before = std::fs::read(cache_file(dir.path())).unwrap();
    let (failed, _) = build_both(dir.path());
    assert_eq!(failed.code, 1);
    assert_eq!(
        std::fs::read(dir.path().join("out/cards.json")).unwrap(),
        before
    );
    assert_eq!(std::fs::read(cache_file(dir.path())).unwrap(), cache_before);
    let names: Vec<String> = std::fs::read_dir(dir.path().join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with(".blades-previous-"))
        .collect();
    // The database, the cache and the card index.
    assert_eq!(names.len(), 3, "no temp file is left: {names:?}");
    assert!(
        failed.stderr.contains("orbital-drift.yaml"),
        "{}",
        failed.stderr
    );
}

#[test]
fn the_cache_is_shared_however_the_pool_folder_is_named() {
    let dir = pool_copy();
    let (first, database) = build_both(dir.path());
    assert_eq!(reused(&first), "0 of 13");
    let out = dir.path().join("out/cards.json");
    let again = build_into(dir.path(), "./cards", &out, &["--timings"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(reused(&again), "13 of 13");
    assert_eq!(std::fs::read(&out).unwrap(), database);
    // Findings name the files as this build was told them.
    edit(
        &dir.path().join("cards/sunset-gulch.yaml"),
        "stars: 1",
        "stars: 11",
    );
    let failed = build_into(dir.path(), "./cards", &out, &[]);
    assert_eq!(failed.code, 1);
    assert!(
        failed.stderr.contains("./cards/sunset-gulch.yaml"),
        "{}",
        failed.stderr
    );
}

#[test]
fn an_edited_translation_file_changes_only_its_sets_text() {
    let dir = pool_copy();
    build_both(dir.path());
    edit(
        &dir.path().join("cards/locales/ja/cogwork-foundry.yaml"),
        "text: 歯車仕掛けの鋳造所",
        "text: 歯車の鋳造所",
    );
    let (run, database) = build_both(dir.path());
    assert_eq!(reused(&run), "13 of 13");
    assert!(
        String::from_utf8(database)
            .unwrap()
            .contains("歯車の鋳造所")
    );
}

#[test]
fn an_edited_phrase_book_renders_every_set_again() {
    let dir = pool_copy();
    let (_, before) = build_both(dir.path());
    edit(
        &dir.path().join("cards/phrases/en.yaml"),
        "\"gain_rp\": \"gain {amount}\"",
        "\"gain_rp\": \"earn {amount}\"",
    );
    let (_, after) = build_both(dir.path());
    assert_ne!(before, after);
    assert!(String::from_utf8(after).unwrap().contains("earn 1 RP"));
}

#[test]
fn a_failed_build_leaves_the_cache_as_it_was() {
    let dir = pool_copy();
    build_both(dir.path());
    let cache = std::fs::read(cache_file(dir.path())).unwrap();
    edit(
        &dir.path().join("cards/sunset-gulch.yaml"),
        "stars: 5",
        "stars: 11",
    );
    let (first, _) = build_both(dir.path());
    assert_eq!(first.code, 1, "{}", first.stderr);
    assert_eq!(reused(&first), "12 of 13");
    assert!(std::fs::read(cache_file(dir.path())).unwrap() == cache);
    let (second, _) = build_both(dir.path());
    assert_eq!(diagnostics_of(&first), diagnostics_of(&second));
}

#[test]
fn a_removed_set_file_leaves_the_database() {
    let dir = pool_copy();
    build_both(dir.path());
    std::fs::remove_file(dir.path().join("cards/orbital-drift.yaml")).unwrap();
    std::fs::remove_file(dir.path().join("cards/locales/ja/orbital-drift.yaml")).ok();
    let (run, database) = build_both(dir.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(reused(&run), "12 of 12");
    assert!(
        !String::from_utf8(database)
            .unwrap()
            .contains("orbital-drift")
    );
}

/// The cards of unchanged sets are copied from the database the last
/// cached build wrote; a database that any other build or hand replaced
/// is never copied from.
#[test]
fn a_database_replaced_behind_the_cache_is_not_copied_from() {
    let dir = pool_copy();
    build_both(dir.path());
    let out = dir.path().join("out/cards.json");
    let pretty = build_into(dir.path(), "cards", &out, &["--pretty"]);
    assert_eq!(pretty.code, 0, "{}", pretty.stderr);
    // A flavor edit re-renders only its set (the others' cards would be
    // copied from the database).
    let set = dir.path().join("cards/cogwork-foundry.yaml");
    edit(&set, "fingerprints on it.", "fingerprints on it!");
    let (run, database) = build_both(dir.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(String::from_utf8_lossy(&database).contains("fingerprints on it!"));

    // Overwritten in place with other bytes of the same length.
    let scrambled: Vec<u8> = database.iter().map(|b| b.to_ascii_uppercase()).collect();
    std::fs::write(&out, &scrambled).unwrap();
    edit(&set, "fingerprints on it!", "fingerprints on it?");
    let (run, _) = build_both(dir.path());
    assert_eq!(run.code, 0, "{}", run.stderr);

    // Deleted: built anew.
    std::fs::remove_file(&out).unwrap();
    let (run, again) = build_both(dir.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!again.is_empty());
}

#[test]
fn a_damaged_or_foreign_cache_only_costs_a_full_build() {
    let dir = pool_copy();
    build_both(dir.path());
    let cache = std::fs::read(cache_file(dir.path())).unwrap();
    let damaged: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("garbage", b"not a cache at all".to_vec()),
        ("cut short", cache[..cache.len() / 2].to_vec()),
        ("foreign build", {
            let mut other = cache.clone();
            // The build id follows the first line and its length.
            let at = cache.iter().position(|&b| b == b'\n').unwrap() + 9;
            other[at] ^= 0x20;
            other
        }),
        ("flipped byte", {
            let mut other = cache.clone();
            let at = cache.len() * 3 / 4;
            other[at] = other[at].wrapping_add(1);
            other
        }),
    ];
    for (what, bytes) in damaged {
        std::fs::write(cache_file(dir.path()), &bytes).unwrap();
        let (run, _) = build_both(dir.path());
        assert_eq!(run.code, 0, "{what}: {}", run.stderr);
        if what != "flipped byte" {
            assert_eq!(reused(&run), "0 of 13", "{what}");
        }
    }
}

#[test]
fn watch_reports_new_and_fixed_problems_and_keeps_the_database_current() {
    let dir = pool_copy();
    let (mut child, lines) = common::watch(
        dir.path(),
        &[
            "build",
            "--cards",
            "cards",
            "--out",
            "out/cards.json",
            "--watch",
        ],
    );
    let first = common::wait_for(&lines, "[watch]");
    assert!(first.contains("no problems found"), "{first}");
    let set = dir.path().join("cards/sunset-gulch.yaml");
    edit(&set, "stars: 5", "stars: 11");
    let broken = common::wait_for(&lines, "[watch]");
    assert!(broken.contains("1 error (1 new, 0 fixed)"), "{broken}");
    assert!(broken.contains("12 of 13 files reused"), "{broken}");
    edit(&set, "stars: 11", "stars: 5");
    let fixed = common::wait_for(&lines, "[watch]");
    assert!(
        fixed.contains("no problems found (0 new, 1 fixed)"),
        "{fixed}"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    // What it wrote last is what a build of the pool writes.
    let (_, database) = build_both(dir.path());
    assert!(!database.is_empty());
}
