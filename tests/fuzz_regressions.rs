//! Every input the fuzzer ever crashed on, replayed on stable: the files
//! under `fuzz/regressions/<target>/` go through the same target bodies as
//! the fuzz binaries (`fuzz/targets.rs`). A new crash is minimised and saved
//! there before it is fixed (see `fuzz/run.sh`).

#[path = "../fuzz/targets.rs"]
mod targets;

// The `argv` target needs the command line, which is not part of the
// library: included here at the crate root, as in its fuzz binary.
#[path = "../src/cli/mod.rs"]
#[allow(dead_code)]
mod cli;

#[path = "../fuzz/argv.rs"]
mod argv;

use std::fs;
use std::path::{Path, PathBuf};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

/// The files of one folder, in name order (none when it does not exist).
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("a readable folder").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// Every target: those of `targets.rs`, and `argv`.
fn all_targets() -> Vec<(&'static str, targets::Target)> {
    let mut all = targets::TARGETS.to_vec();
    all.push(("argv", argv::argv));
    all
}

/// Replays every input of `<folder>/<target>/`; returns how many.
fn replay(folder: &str) -> usize {
    let root = fuzz_dir().join(folder);
    if let Ok(entries) = fs::read_dir(&root) {
        for entry in entries {
            let entry = entry.unwrap();
            if !entry.path().is_dir() {
                continue;
            }
            let name = entry.file_name();
            let name = name.to_string_lossy();
            assert!(
                all_targets().iter().any(|(t, _)| *t == name),
                "fuzz/{folder}/{name} names no fuzz target"
            );
        }
    }
    let mut replayed = 0;
    for (name, target) in all_targets() {
        for input in inputs(&root.join(name)) {
            let data = fs::read(&input).unwrap();
            let outcome = std::panic::catch_unwind(|| target(&data));
            assert!(outcome.is_ok(), "{} crashes again", input.display());
            replayed += 1;
        }
    }
    replayed
}

#[test]
fn every_saved_crash_input_runs_clean() {
    let replayed = replay("regressions");
    assert!(replayed > 0, "no regression inputs found");
}

/// The targets' properties hold on the files of the repository the fuzz
/// corpus is seeded with, each file given to the targets of its kind.
#[test]
fn the_targets_hold_on_the_repository_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["cards", "tests/fixtures", "examples/inputs"] {
        collect(&root.join(dir), &mut files);
    }
    let mut ran: std::collections::BTreeMap<&str, usize> = Default::default();
    let targets = all_targets();
    for file in files {
        let shown = file
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let kinds: &[&str] = if shown.ends_with("/keywords.yaml") {
            &["keyword_table"]
        } else if shown.contains("/locales/") || shown.contains("/phrases/") {
            &["locale"]
        } else if shown.ends_with(".po") {
            &["po"]
        } else if shown.starts_with("tests/fixtures/argv/") {
            &["argv"]
        } else if shown.starts_with("tests/fixtures/rules/score/") {
            &["rules", "score"]
        } else if shown.starts_with("tests/fixtures/rules/deck/")
            || shown.starts_with("tests/fixtures/formats/") && shown.ends_with(".txt")
        {
            &["rules", "deck_list"]
        } else if shown.starts_with("tests/fixtures/lsp/") {
            &["set_file", "lsp"]
        } else if shown.starts_with("examples/inputs/")
            || shown.starts_with("tests/fixtures/rules/")
        {
            &["rules"]
        } else {
            &["set_file"]
        };
        let data = fs::read(&file).unwrap();
        for (name, target) in &targets {
            if kinds.contains(name) {
                let outcome = std::panic::catch_unwind(|| target(&data));
                assert!(outcome.is_ok(), "{name} fails on {shown}");
                *ran.entry(name).or_default() += 1;
            }
        }
    }
    // Index sections are not files: each set of the built-in pool's
    // database, written as a section, goes through the card_index target.
    let database = blades::workspace::Workspace::builtin().database().unwrap();
    for set in &database.sets {
        let cards: Vec<_> = (database.cards.iter())
            .filter(|c| c.set == set.id)
            .cloned()
            .collect();
        let section = blades::index::write_section(set, &cards);
        let outcome = std::panic::catch_unwind(|| targets::index_section(&section));
        assert!(
            outcome.is_ok(),
            "card_index fails on the section of {}",
            set.id.0
        );
        *ran.entry("card_index").or_default() += 1;
    }
    // Memo records are not files either: the built-in pool's set and
    // locale files, as the translation memo keeps them.
    for record in blades::i18n::memo::records_of(&blades::pool::Pool::builtin()) {
        let outcome = std::panic::catch_unwind(|| targets::i18n_memo(&record));
        assert!(outcome.is_ok(), "i18n_memo fails on a built-in record");
        *ran.entry("i18n_memo").or_default() += 1;
    }
    // The answers the translation reports keep, for a fixture pool.
    let fixture = root.join("tests/fixtures/i18n/check-bad");
    let pool = blades::pool::Pool::from_dir(&fixture).unwrap();
    let file = answers_file(&pool);
    let outcome = std::panic::catch_unwind(|| targets::i18n_answers(&file));
    assert!(outcome.is_ok(), "i18n_answers fails on a fixture's answers");
    *ran.entry("i18n_answers").or_default() += 1;
    // Effects are not files: the reference's examples go through the
    // effect target one by one.
    let doc = fs::read_to_string(root.join("docs/effect-language.md")).unwrap();
    for example in doc.split("```effect\n").skip(1) {
        let text = example.split("```").next().unwrap();
        let outcome = std::panic::catch_unwind(|| targets::effect(text.as_bytes()));
        assert!(outcome.is_ok(), "effect fails on {text}");
        *ran.entry("effect").or_default() += 1;
    }
    let kinds = [
        "set_file",
        "effect",
        "rules",
        "po",
        "locale",
        "keyword_table",
        "argv",
        "score",
        "deck_list",
        "lsp",
        "card_index",
        "i18n_memo",
        "i18n_answers",
    ];
    assert!(kinds.iter().all(|k| ran.get(k) > Some(&0)), "{ran:?}");
}

/// The answers file `i18n status` and `i18n check` keep for `pool`.
fn answers_file(pool: &blades::pool::Pool) -> Vec<u8> {
    use blades::i18n::answers::{self, Answers};
    use blades::i18n::check::CheckAnswer;
    use blades::i18n::status::{Listed, StatusAnswer};
    let inputs = answers::inputs_of(pool).expect("a pool without problems");
    let project = blades::i18n::Project::load(pool);
    let mut kept = Answers::default();
    for listed in [Listed::Every, Listed::Problems] {
        let status = StatusAnswer::of(&project, None, listed);
        kept.put(inputs, &StatusAnswer::question(None, listed), &status);
    }
    kept.put(
        inputs,
        &CheckAnswer::question(None),
        &CheckAnswer::of(&project, None),
    );
    kept.bytes(pool)
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// `fuzz/run.sh` runs every fuzz target there is: its list of targets is
/// the folder of fuzz binaries.
#[test]
fn the_fuzz_script_knows_every_target() {
    let script = fs::read_to_string(fuzz_dir().join("run.sh")).unwrap();
    let case = script
        .lines()
        .find(|line| line.trim_start().starts_with("set_file |"))
        .expect("the script's case of targets");
    let listed: std::collections::BTreeSet<&str> = case
        .split('|')
        .map(|name| name.trim_matches([' ', ')', ';']))
        .collect();
    let binaries: std::collections::BTreeSet<String> =
        fs::read_dir(fuzz_dir().join("fuzz_targets"))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter_map(|path| Some(path.file_stem()?.to_str()?.to_string()))
            .collect();
    let binaries: std::collections::BTreeSet<&str> = binaries.iter().map(String::as_str).collect();
    assert_eq!(listed, binaries);
}
