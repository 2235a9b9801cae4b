//! What the commands that write files leave on disk, through the real
//! binary: several files written all together or not at all, each with
//! its permissions and line ends; errors that name the file the user
//! asked for; no temp file outliving a run; a PO file too large refused
//! before any work.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{blades, copy_dir, files, root, scratch};

/// The files whose bytes differ between two listings.
fn changed(before: &BTreeMap<String, Vec<u8>>, after: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    let names: std::collections::BTreeSet<&String> = before
        .keys()
        .chain(after.keys())
        .filter(|k| before.get(*k) != after.get(*k))
        .collect();
    names.into_iter().cloned().collect()
}

fn export(dir: &Path) {
    let run = blades(
        dir,
        &[
            "--cards", "pool", "i18n", "export", "--lang", "ja", "-o", "ja.po",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
}

fn import(dir: &Path) -> common::Run {
    blades(dir, &["--cards", "pool", "i18n", "import", "ja.po"])
}

/// Replaces text in the exported PO file.
fn edit_po(dir: &Path, edits: &[(&str, &str)]) {
    let path = dir.join("ja.po");
    let mut po = std::fs::read_to_string(&path).unwrap();
    for (from, to) in edits {
        assert!(po.contains(from), "{from} is not in the PO file");
        po = po.replace(from, to);
    }
    std::fs::write(path, po).unwrap();
}

/// Two translations changed in the `synced` pool: one in each set's file.
const TWO_SETS: [(&str, &str); 2] = [
    ("msgstr \"ミニ基本セット\"", "msgstr \"ミニ基本セット改\""),
    ("msgstr \"峡谷の竜\"", "msgstr \"峡谷の大竜\""),
];

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// The pid of a process that has ended.
fn dead_pid() -> u32 {
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

/// A temp file a killed run left in `dir`; returns its name.
fn plant_stale_temp_file(dir: &Path) -> String {
    let name = format!(".blades-tmp-{}-kiLLed", dead_pid());
    std::fs::write(dir.join(&name), "half a file").unwrap();
    name
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A folder (made) whose own path is `len` bytes long, under `base`.
fn folder_of_length(base: &Path, len: usize) -> PathBuf {
    let mut deep = base.to_path_buf();
    while deep.as_os_str().len() + 201 < len {
        deep.push("d".repeat(200));
    }
    deep.push("d".repeat(len - deep.as_os_str().len() - 1));
    std::fs::create_dir_all(&deep).unwrap();
    deep
}

// ----- all or nothing -----------------------------------------------------

#[test]
fn an_import_that_cannot_write_one_file_changes_none_and_names_it() {
    let temp = scratch("synced");
    export(temp.path());
    edit_po(temp.path(), &TWO_SETS);
    // The second file's place is taken by a folder: its translations come
    // back as new, to a file that cannot be written.
    let blocked = temp.path().join("pool/locales/ja/mini-gulch.yaml");
    std::fs::remove_file(&blocked).unwrap();
    std::fs::create_dir(&blocked).unwrap();
    let before = files(&temp.path().join("pool"));
    let run = import(temp.path());
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "cannot write `pool/locales/ja/mini-gulch.yaml`: a folder is in its place; no file was changed"
        ),
        "{}",
        run.stderr
    );
    assert_eq!(
        changed(&before, &files(&temp.path().join("pool"))),
        [] as [String; 0]
    );
    assert_eq!(
        names(&temp.path().join("pool/locales/ja")),
        ["mini-core.yaml", "mini-gulch.yaml"],
        "no temp file is left"
    );
}

#[test]
#[cfg(unix)]
fn an_import_keeps_each_files_mode() {
    let temp = scratch("synced");
    export(temp.path());
    edit_po(temp.path(), &TWO_SETS);
    let pool = temp.path().join("pool");
    let core = pool.join("locales/ja/mini-core.yaml");
    let gulch = pool.join("locales/ja/mini-gulch.yaml");
    set_mode(&core, 0o640);
    // Deleted: it comes back as a new file.
    std::fs::remove_file(&gulch).unwrap();
    let run = import(temp.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(mode(&core), 0o640, "a rewritten file keeps its mode");
    // A new file has the mode any new file gets here (0644 less the umask).
    let probe = temp.path().join("probe");
    std::fs::write(&probe, "").unwrap();
    assert_eq!(mode(&gulch), 0o644 & mode(&probe));
    assert!(
        std::fs::read_to_string(&gulch)
            .unwrap()
            .contains("峡谷の大竜")
    );
}

/// A pool of two set files to format, the second one so deep in folders
/// that no temp file can be made beside it (its own path still fits).
fn pool_with_an_unwritable_file() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let temp = tempfile::tempdir().unwrap();
    let messy =
        std::fs::read_to_string(root().join("tests/fixtures/fmt/messy/tin-cups.yaml")).unwrap();
    let first = temp.path().join("pool/a.yaml");
    std::fs::create_dir_all(first.parent().unwrap()).unwrap();
    std::fs::write(&first, &messy).unwrap();
    // Read through a relative path (`pool/…`), written through an absolute
    // one, which is too long for a temp file's name.
    let deep = folder_of_length(&temp.path().join("pool/z"), 4085);
    let second = deep.join("b.yaml");
    std::fs::write(&second, messy.replace("tin-cups", "tin-mugs")).unwrap();
    (temp, first, second)
}

#[test]
fn fmt_rewrites_every_file_or_none() {
    let (temp, first, second) = pool_with_an_unwritable_file();
    let messy = std::fs::read(&first).unwrap();
    // JSON: a human report wraps a long path across lines.
    let run = blades(temp.path(), &["fmt", "--cards", "pool", "--format", "json"]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    let message = run.json()["diagnostics"][0]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        message.starts_with("cannot write `pool/z/") && message.contains("b.yaml`:"),
        "{message}"
    );
    assert!(message.contains("no file was changed"), "{message}");
    assert!(!run.stdout.contains(".blades-tmp"), "{}", run.stdout);
    assert_eq!(
        std::fs::read(&first).unwrap(),
        messy,
        "the first file is untouched"
    );
    assert_eq!(names(&temp.path().join("pool")), ["a.yaml", "z"]);
    // Once it can be written, every file is.
    std::fs::rename(&second, temp.path().join("pool/b.yaml")).unwrap();
    let run = blades(temp.path(), &["fmt", "--cards", "pool"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_ne!(std::fs::read(&first).unwrap(), messy);
}

#[test]
fn schema_write_writes_every_schema_or_none() {
    use blades::schema::SchemaName;
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("schema");
    let last = out.join(SchemaName::ALL.last().unwrap().file_name());
    std::fs::create_dir_all(&last).unwrap();
    let run = blades(temp.path(), &["schema", "--write", "schema"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "cannot write `schema/{}`",
            SchemaName::ALL.last().unwrap().file_name()
        )),
        "{}",
        run.stderr
    );
    assert_eq!(names(&out), [SchemaName::ALL.last().unwrap().file_name()]);
    std::fs::remove_dir(&last).unwrap();
    let run = blades(temp.path(), &["schema", "--write", "schema"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(names(&out).len(), SchemaName::ALL.len());
}

// ----- temp files -------------------------------------------------------------

#[test]
fn a_killed_runs_temp_files_are_deleted_by_the_next_run() {
    // build
    let temp = tempfile::tempdir().unwrap();
    let dist = temp.path().join("dist");
    std::fs::create_dir(&dist).unwrap();
    let stale = plant_stale_temp_file(&dist);
    // Not the tool's: kept.
    std::fs::write(dist.join(".tmpAbC123"), "someone else's").unwrap();
    let live = format!(".blades-tmp-{}-running", std::process::id());
    std::fs::write(dist.join(&live), "being written").unwrap();
    let run = blades(temp.path(), &["build", "--out", "dist/cards.json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let left = names(&dist);
    assert!(!left.contains(&stale), "{left:?}");
    assert!(
        left.contains(&live) && left.contains(&".tmpAbC123".to_string()),
        "{left:?}"
    );

    // i18n import
    let temp = scratch("synced");
    export(temp.path());
    edit_po(temp.path(), &TWO_SETS);
    let ja = temp.path().join("pool/locales/ja");
    let stale = plant_stale_temp_file(&ja);
    let run = import(temp.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        names(&ja),
        ["mini-core.yaml", "mini-gulch.yaml"],
        "{stale} is gone"
    );

    // fmt
    let temp = tempfile::tempdir().unwrap();
    let pool = temp.path().join("pool");
    copy_dir(&root().join("tests/fixtures/fmt/messy"), &pool);
    let before = names(&pool);
    plant_stale_temp_file(&pool);
    let run = blades(temp.path(), &["fmt", "--cards", "pool"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(names(&pool), before);
}

#[test]
fn an_output_that_cannot_be_made_is_named_not_its_temp_file() {
    // No `.tmp` in the path the error names.
    let temp = tempfile::Builder::new().prefix("out").tempdir().unwrap();
    // The folder can be made; no file name fits in it.
    let deep = folder_of_length(temp.path(), 4090);
    let out = deep.join("cards.json");
    for cache in [&[][..], &["--no-cache"][..], &["--pretty"][..]] {
        let mut args = vec!["build", "--format", "json", "--out", out.to_str().unwrap()];
        args.extend_from_slice(cache);
        let run = blades(temp.path(), &args);
        assert_eq!(run.code, 2, "{}", run.stdout);
        assert!(
            run.stdout.contains(&format!(
                "cannot write `{}`: File name too long",
                out.display()
            )),
            "{}",
            run.stdout
        );
        assert!(
            !run.stdout.contains(".tmp") && !run.stdout.contains("at path"),
            "{}",
            run.stdout
        );
    }
}

// ----- line ends ---------------------------------------------------------------

#[test]
fn locale_files_keep_their_line_ends_through_export_and_import() {
    const FILES: [&str; 2] = ["locales/ja/mini-gulch.yaml", "phrases/ja.yaml"];
    // What the import writes for `\n` files, then for the others.
    let mut written_with_lf: Vec<String> = Vec::new();
    for end in ["\n", "\r\n", "\r"] {
        let temp = scratch("drifted");
        let pool = temp.path().join("pool");
        for file in FILES {
            let path = pool.join(file);
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(!text.contains('\r'));
            std::fs::write(&path, text.replace('\n', end)).unwrap();
        }
        let build = blades(temp.path(), &["--cards", "pool", "build", "-o", "out.json"]);
        assert_eq!(build.code, 0, "{end:?}: {}", build.stderr);
        // An unchanged export changes nothing.
        export(temp.path());
        let before = files(&pool);
        let run = import(temp.path());
        assert_eq!(run.code, 0, "{end:?}: {}", run.stderr);
        assert_eq!(
            changed(&before, &files(&pool)),
            [] as [String; 0],
            "{end:?}"
        );
        // One phrase and one card text changed.
        edit_po(
            temp.path(),
            &[
                (
                    "#, fuzzy, python-brace-format\n#| msgid \"RP equal to the STAR of {target}\"\nmsgctxt \"phrase:amount.star_of\"",
                    "#, python-brace-format\nmsgctxt \"phrase:amount.star_of\"",
                ),
                (
                    "msgstr \"外は砂まみれ、中は整然。\"",
                    "msgstr \"外は砂まみれ、中はきちんと。\"",
                ),
            ],
        );
        let run = import(temp.path());
        assert_eq!(run.code, 0, "{end:?}: {}", run.stderr);
        assert!(run.stderr.contains("0 added, 2 updated"), "{}", run.stderr);
        let after = files(&pool);
        assert_eq!(changed(&before, &after), FILES, "{end:?}");
        for (i, file) in FILES.iter().enumerate() {
            let new = String::from_utf8(after[*file].clone()).unwrap();
            // Only that style of line end, the same text as with `\n`.
            assert!(
                !new.replace(end, "").contains(['\r', '\n']),
                "{end:?} {file}: {new:?}"
            );
            match end {
                "\n" => written_with_lf.push(new),
                _ => assert_eq!(new, written_with_lf[i].replace('\n', end), "{end:?} {file}"),
            }
        }
        // The phrase book changed one line (it is not doubled).
        let old = String::from_utf8(before["phrases/ja.yaml"].clone()).unwrap();
        let new = String::from_utf8(after["phrases/ja.yaml"].clone()).unwrap();
        let (old, new): (Vec<&str>, Vec<&str>) =
            (old.split(end).collect(), new.split(end).collect());
        assert_eq!(old.len(), new.len(), "{end:?}");
        assert_eq!(
            old.iter().zip(&new).filter(|(o, n)| o != n).count(),
            1,
            "{end:?}"
        );
        let build = blades(temp.path(), &["--cards", "pool", "build", "-o", "out.json"]);
        assert_eq!(build.code, 0, "{end:?}: {}", build.stderr);
    }
}

// ----- size before work ----------------------------------------------------------

#[test]
fn a_po_file_too_large_is_refused_before_the_pool_is_read() {
    let temp = scratch("synced");
    // The pool has a problem the import would report first if it read it.
    std::fs::write(temp.path().join("pool/locales/ja/mini-core.yaml"), "set: [").unwrap();
    // 84 MB, without writing them.
    let po = std::fs::File::create(temp.path().join("ja.po")).unwrap();
    po.set_len(84 << 20).unwrap();
    let run = import(temp.path());
    // An input file that cannot be read is exit 2.
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("file-too-large"), "{}", run.stderr);
    assert!(!run.stderr.contains("mini-core"), "{}", run.stderr);
}
