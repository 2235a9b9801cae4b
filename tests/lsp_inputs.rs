//! `blades lsp` on player inputs (decks, collections, trades, score
//! sheets), end to end: every input the command-line tests check, opened
//! in the server, gets the findings the command reports for it with
//! `--format json`, where the command locates them.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use blades::cards::CardIndex;
use blades::workspace::Workspace;
use serde_json::{Value, json};

use common::lsp::{Client, apply_edits, offset_of, uri};
use common::{blades, copy_dir, root};

/// The folder that tells the server which check a file gets, and the
/// command that check is.
const KINDS: &[(&str, &[&str])] = &[
    ("decks", &["deck", "check"]),
    ("collections", &["collection", "check"]),
    ("trades", &["trade", "check"]),
    ("scores", &["score"]),
];

/// Every player input a command-line test checks (the `tests/cmd` cases'
/// files, and every file of the rules fixtures), by the pool it is
/// checked against (`None`: the built-in pool) and the folder of its kind.
fn inputs() -> BTreeMap<Option<PathBuf>, Vec<(PathBuf, &'static str)>> {
    let mut found: BTreeMap<Option<PathBuf>, Vec<(PathBuf, &'static str)>> = BTreeMap::new();
    let rules = root().join("tests/fixtures/rules");
    for (folder, kind) in [
        ("deck", "decks"),
        ("collection", "collections"),
        ("binder", "collections"),
        ("trade", "trades"),
        ("score", "scores"),
    ] {
        for entry in std::fs::read_dir(rules.join(folder)).unwrap() {
            let entry = entry.unwrap().path();
            found
                .entry(Some(rules.join("pool")))
                .or_default()
                .push((entry, kind));
        }
    }
    for case in cases() {
        let args: Vec<String> = case.into_iter().collect();
        let Some(kind) = KINDS
            .iter()
            .position(|(_, command)| args.windows(command.len()).any(|w| w == *command))
        else {
            continue;
        };
        let pool = (args.iter().position(|a| a == "--cards")).map(|i| root().join(&args[i + 1]));
        let files = args
            .iter()
            .filter(|a| a.starts_with("tests/") || a.starts_with("examples/"));
        for file in files.filter(|f| pool.as_ref().is_none_or(|p| root().join(f) != *p)) {
            found
                .entry(pool.clone())
                .or_default()
                .push((root().join(file), KINDS[kind].0));
        }
    }
    for list in found.values_mut() {
        list.sort();
        list.dedup();
    }
    found
}

/// The argument lists of the `tests/cmd` cases.
fn cases() -> Vec<Vec<String>> {
    let mut cases = Vec::new();
    for group in std::fs::read_dir(root().join("tests/cmd")).unwrap() {
        for case in std::fs::read_dir(group.unwrap().path()).unwrap() {
            let case = case.unwrap().path();
            if case.extension().is_some_and(|e| e == "toml") {
                let text = std::fs::read_to_string(&case).unwrap();
                // `args = [...]`: a list of strings, written as JSON writes it.
                let args = text.lines().find_map(|l| l.strip_prefix("args = "));
                if let Some(args) = args.and_then(|a| serde_json::from_str::<Vec<String>>(a).ok()) {
                    cases.push(args);
                }
            }
        }
    }
    cases
}

/// The name a fixture gets in its kind's folder: unique, and with an
/// extension (a list without one is read as text by the commands; the
/// server decides only files named as lists or YAML).
fn placed_name(file: &Path) -> String {
    let parent = file
        .parent()
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy();
    let name = file.file_name().unwrap().to_string_lossy();
    match file.extension() {
        Some(_) => format!("{parent}-{name}"),
        None => format!("{parent}-{name}.txt"),
    }
}

/// What the command reports for the input at `relative` in `dir`: its
/// findings in the file (and those about the run, which the server shows
/// at the file's start) and the rules broken.
fn reported(dir: &Path, command: &[&str], relative: &str) -> (Vec<Value>, Vec<Value>) {
    let mut args = vec!["--format", "json"];
    args.extend(command);
    args.push(relative);
    let report = blades(dir, &args).json();
    let findings = report["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let in_file = findings
        .into_iter()
        .filter(|f| f["file"].is_null() || f["file"] == relative)
        .collect();
    let violations = report["violations"].as_array().cloned().unwrap_or_default();
    (in_file, violations)
}

/// A byte offset as the protocol's position, counted here.
fn position(text: &str, offset: usize) -> Value {
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..start].matches('\n').count();
    let character = text[start..offset].encode_utf16().count();
    json!({"line": line, "character": character})
}

/// The server's diagnostics of one input held against the command's report.
fn agree(file: &str, text: &str, published: &[Value], findings: &[Value], violations: &[Value]) {
    let (problems, broken): (Vec<&Value>, Vec<&Value>) = published.iter().partition(|d| {
        let code = d["code"].as_str().unwrap();
        !violations.iter().any(|v| v["rule"] == code)
    });
    let expected: Vec<Value> = findings
        .iter()
        .map(|f| {
            let (start, end) = match f["start"].as_u64() {
                Some(start) => (start as usize, f["end"].as_u64().unwrap() as usize),
                None => (0, 0),
            };
            json!({"code": f["code"], "start": position(text, start), "end": position(text, end),
                   "message": f["message"]})
        })
        .collect();
    let got: Vec<Value> = problems
        .iter()
        .map(|d| {
            let message = d["message"].as_str().unwrap();
            let message = message.split("\nhelp: ").next().unwrap();
            json!({"code": d["code"], "start": d["range"]["start"], "end": d["range"]["end"],
                   "message": message})
        })
        .collect();
    assert_eq!(got, expected, "{file}: the input's problems");
    let rules = |list: Vec<(Value, Value)>| {
        let mut list = list;
        list.sort_by_key(|(r, m)| (r.to_string(), m.to_string()));
        list
    };
    let got = rules(
        broken
            .iter()
            .map(|d| (d["code"].clone(), d["message"].clone()))
            .collect(),
    );
    let expected = rules(
        violations
            .iter()
            .map(|v| (v["rule"].clone(), v["message"].clone()))
            .collect(),
    );
    assert_eq!(got, expected, "{file}: the rules broken");
}

/// Where a broken rule is placed: on a reference to one of its cards
/// (read as the command reads it: by id or name, a bare count before it),
/// its other cards' references as related places; at the first card, or
/// the file's start, when it names none that is written.
fn placed_on_its_cards(
    file: &str,
    text: &str,
    index: &CardIndex,
    published: &[Value],
    violations: &[Value],
) {
    let names_one = |range: &Value, cards: &[Value]| {
        let start = offset_of(text, &range["start"], false);
        let end = offset_of(text, &range["end"], false);
        let written = text[start..end].trim();
        let bare = written.split_once(' ').map_or(written, |(_, name)| name);
        [written, bare].iter().any(|name| {
            let card = index.resolve(name).ok().map(|i| index.card(i).id.0.clone());
            card.is_some_and(|id| cards.contains(&json!(id)))
        })
    };
    for violation in violations {
        let cards = violation["cards"].as_array().unwrap();
        let marked = published.iter().filter(|d| d["code"] == violation["rule"]);
        for diagnostic in marked.filter(|d| d["message"] == violation["message"]) {
            let related = diagnostic["relatedInformation"].as_array().cloned();
            let places = std::iter::once(&diagnostic["range"])
                .chain(related.iter().flatten().map(|r| &r["location"]["range"]));
            for range in places {
                // A rule that names no card (too few cards) is placed at
                // the first card, without related places.
                let placed = match cards.is_empty() {
                    true => related.as_ref().is_none_or(Vec::is_empty),
                    false => names_one(range, cards),
                };
                assert!(
                    placed,
                    "{file}: `{}` placed on no card of its own: {diagnostic}",
                    violation["rule"]
                );
            }
        }
    }
}

/// The database of the pool in `dir/cards` (else the built-in pool),
/// when it builds.
fn database(dir: &Path) -> Option<blades::model::Database> {
    let cards = dir.join("cards");
    let workspace = match cards.is_dir() {
        true => Workspace::open_uncached(Some(&cards)).unwrap(),
        false => Workspace::builtin(),
    };
    workspace.database().ok()
}

#[test]
fn every_input_the_commands_check_gets_their_findings_where_they_locate_them() {
    let mut checked = 0;
    for (pool, files) in inputs() {
        let workspace = tempfile::tempdir().unwrap();
        let dir = workspace.path();
        if let Some(pool) = &pool {
            copy_dir(pool, &dir.join("cards"));
        }
        let mut placed = Vec::new();
        for (file, kind) in &files {
            let relative = format!("{kind}/{}", placed_name(file));
            std::fs::create_dir_all(dir.join(kind)).unwrap();
            std::fs::copy(file, dir.join(&relative)).unwrap();
            placed.push((relative, *kind));
        }
        let database = database(dir);
        let index = database.as_ref().map(CardIndex::new);
        let mut client = Client::start(dir, &[]);
        for (relative, _) in &placed {
            let text = std::fs::read_to_string(dir.join(relative)).unwrap();
            client.open(&dir.join(relative), &text);
        }
        let published = client.published();
        for (relative, kind) in &placed {
            let path = dir.join(relative);
            let text = std::fs::read_to_string(&path).unwrap();
            let command = KINDS.iter().find(|(k, _)| k == kind).unwrap().1;
            let (findings, violations) = reported(dir, command, relative);
            let list = published
                .get(&uri(&path))
                .unwrap_or_else(|| panic!("{relative} ({pool:?}): nothing published"));
            agree(relative, &text, list, &findings, &violations);
            if let Some(index) = &index {
                placed_on_its_cards(relative, &text, index, list, &violations);
            }
            checked += 1;
        }
        assert_eq!(client.finish(), 0);
    }
    assert!(checked > 50, "only {checked} inputs were checked");
}

/// A workspace with the rules fixtures' pool as `cards/`.
fn rules_workspace() -> tempfile::TempDir {
    common::lsp::workspace(&root().join("tests/fixtures/rules/pool"))
}

#[test]
fn a_misspelt_card_is_fixed_by_its_quick_fix_and_the_marks_clear() {
    let workspace = rules_workspace();
    let deck = workspace.path().join("decks/mine.txt");
    std::fs::create_dir_all(deck.parent().unwrap()).unwrap();
    let text = "Canyon Wyrn x1\nDust Devil\n";
    let mut client = Client::start(workspace.path(), &[]);
    client.open(&deck, text);
    let published = client.published();
    let list = &published[&uri(&deck)];
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["code"], "unknown-card");
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri(&deck)},
            "range": list[0]["range"],
            "context": {"diagnostics": list},
        }),
    );
    let actions = actions["result"].as_array().unwrap();
    assert_eq!(actions.len(), 1, "{actions:?}");
    assert_eq!(actions[0]["isPreferred"], true);
    let edits = actions[0]["edit"]["changes"][uri(&deck)]
        .as_array()
        .unwrap();
    let fixed = apply_edits(text, edits, false);
    assert_eq!(fixed, "Canyon Wyrm x1\nDust Devil\n");
    client.change(&deck, &fixed);
    assert_eq!(client.published()[&uri(&deck)], Vec::<Value>::new());
    // The command finds the fixed deck clean too.
    std::fs::write(&deck, &fixed).unwrap();
    let run = blades(workspace.path(), &["deck", "check", "decks/mine.txt"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(client.finish(), 0);
}

#[test]
fn renaming_a_card_in_an_open_set_file_checks_the_open_deck_again() {
    let workspace = rules_workspace();
    let set = workspace.path().join("cards/sunset-gulch.yaml");
    let set_text = std::fs::read_to_string(&set).unwrap();
    assert!(set_text.contains("name: Canyon Wyrm"));
    let deck = workspace.path().join("my-deck.txt");
    let mut client = Client::start(workspace.path(), &[]);
    client.open(&set, &set_text);
    client.open(&deck, "Canyon Wyrm\n");
    assert_eq!(client.published()[&uri(&deck)], Vec::<Value>::new());
    client.change(
        &set,
        &set_text.replace("name: Canyon Wyrm", "name: Canyon Worm"),
    );
    let published = client.published();
    let list = &published[&uri(&deck)];
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["code"], "unknown-card");
    assert!(list[0]["message"].as_str().unwrap().contains("Canyon Worm"));
    // Closing the set file: the pool on disk names the card again.
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri(&set)}}),
    );
    assert_eq!(client.published()[&uri(&deck)], Vec::<Value>::new());
    assert_eq!(client.finish(), 0);
}

#[test]
fn ranges_after_cjk_and_outside_the_bmp_are_counted_in_the_agreed_units() {
    let workspace = rules_workspace();
    let deck = workspace.path().join("decks/wide.txt");
    std::fs::create_dir_all(deck.parent().unwrap()).unwrap();
    let text = "Dust Devil\n3x 竜🐉wyrm\n";
    for (encodings, end) in [(&[][..], 10), (&["utf-8"][..], 14)] {
        let mut client = Client::start(workspace.path(), encodings);
        client.open(&deck, text);
        let list = client.published()[&uri(&deck)].clone();
        assert_eq!(list.len(), 1, "{list:?}");
        assert_eq!(
            list[0]["range"],
            json!({"start": {"line": 1, "character": 3}, "end": {"line": 1, "character": end}})
        );
        assert_eq!(client.finish(), 0);
    }
}

#[test]
fn a_violation_is_marked_on_every_line_of_its_cards() {
    let workspace = rules_workspace();
    let deck = workspace.path().join("decks/twice.yaml");
    std::fs::create_dir_all(deck.parent().unwrap()).unwrap();
    let text = "cards:\n  - Canyon Wyrm\n  - Dust Devil\n  - canyon-wyrm\n";
    let mut client = Client::start(workspace.path(), &[]);
    client.open(&deck, text);
    let list = client.published()[&uri(&deck)].clone();
    let duplicate = list
        .iter()
        .find(|d| d["code"] == "duplicate-card")
        .expect("a duplicate");
    let at = |d: &Value| d["start"]["line"].clone();
    assert_eq!(at(&duplicate["range"]), 1);
    let related = duplicate["relatedInformation"].as_array().unwrap();
    assert_eq!(related.len(), 1);
    assert_eq!(at(&related[0]["location"]["range"]), 3);
    assert_eq!(client.finish(), 0);
}

#[test]
fn files_that_are_no_input_get_no_findings() {
    let workspace = rules_workspace();
    let dir = workspace.path();
    let mut client = Client::start(dir, &[]);
    // Notes, and a YAML file of the workspace that says nothing of a
    // player's input: neither is checked as one.
    let notes = dir.join("notes.md");
    client.open(&notes, "2x Nothing At All\n");
    let settings = dir.join("tools/settings.yaml");
    client.open(&settings, "theme: dark\nnames: [Nothing At All]\n");
    let published = client.published();
    let notes = published.get(&uri(&notes)).cloned().unwrap_or_default();
    assert_eq!(notes, Vec::<Value>::new());
    let settings = published.get(&uri(&settings)).cloned().unwrap_or_default();
    assert!(
        settings.iter().all(|d| d["code"] != "unknown-card"),
        "{settings:?}"
    );
    assert_eq!(client.finish(), 0);
}

#[test]
fn a_card_renamed_on_disk_checks_the_open_deck_again_when_the_client_says_so() {
    let workspace = rules_workspace();
    let set = workspace.path().join("cards/sunset-gulch.yaml");
    let set_text = std::fs::read_to_string(&set).unwrap();
    let deck = workspace.path().join("decks/mine.yaml");
    std::fs::create_dir_all(deck.parent().unwrap()).unwrap();
    let watching = json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}});
    let mut client = Client::start_with(workspace.path(), watching);
    client.open(&deck, "cards:\n  - Canyon Wyrm\n");
    assert_eq!(client.published()[&uri(&deck)], Vec::<Value>::new());
    std::fs::write(
        &set,
        set_text.replace("name: Canyon Wyrm", "name: Canyon Worm"),
    )
    .unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&set), "type": 2}]}),
    );
    let published = client.published();
    let list = &published[&uri(&deck)];
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["code"], "unknown-card");
    assert_eq!(client.finish(), 0);
}
