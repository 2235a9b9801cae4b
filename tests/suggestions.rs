//! Every replacement a diagnostic suggests ("did you mean `X`?") is put in
//! place of the text it points at and the input read again: the mistake is
//! gone, so no help proposes a text that does not parse. Over search
//! queries, score sheets, deck lists and the example format of
//! `docs/formats.md`.

mod common;

use std::path::Path;

use serde_json::Value;

use common::{blades, root};

/// The replacements the diagnostics of a JSON report suggest: (code,
/// start, end, replacement).
fn suggested(report: &Value) -> Vec<(String, usize, usize, String)> {
    let diagnostics = report["diagnostics"]
        .as_array()
        .or_else(|| report["results"].as_array())
        .cloned()
        .unwrap_or_default();
    diagnostics
        .iter()
        .filter_map(|d| {
            let help = d["help"].as_str()?;
            let rest = help.strip_prefix("did you mean `")?;
            let (replacement, _) = rest.split_once('`')?;
            Some((
                d["code"].as_str()?.to_string(),
                d["start"].as_u64()? as usize,
                d["end"].as_u64()? as usize,
                replacement.to_string(),
            ))
        })
        .collect()
}

/// Whether a report still has a diagnostic of `code` starting at `start`.
fn still_there(report: &Value, code: &str, start: usize) -> bool {
    report["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|d| d["code"] == code && d["start"].as_u64() == Some(start as u64))
}

fn replaced(text: &str, start: usize, end: usize, with: &str) -> String {
    format!("{}{with}{}", &text[..start], &text[end..])
}

#[test]
fn every_replacement_a_search_suggests_is_a_query_that_runs() {
    let dir = tempfile::tempdir().unwrap();
    for query in [
        "elemnt:fire",
        "t:constrct",
        "e:fyre star>=3",
        "kw:scury",
        "o:/[/",
        "name:/(golem/",
        "flavor:/a{2,1}/",
    ] {
        let run = blades(dir.path(), &["search", "--format", "json", "--", query]);
        assert_eq!(run.code, 2, "`{query}`");
        let suggestions = suggested(&run.json());
        assert!(!suggestions.is_empty(), "`{query}` suggests nothing");
        for (code, start, end, with) in suggestions {
            let again = replaced(query, start, end, &with);
            let run = blades(dir.path(), &["search", "--format", "json", "--", &again]);
            assert_eq!(run.code, 0, "{code}: `{query}` → `{again}`: {}", run.stdout);
        }
    }
}

/// Runs a command on `text` as the file `name` in a scratch folder, and
/// returns the JSON report.
fn report_of(args: &[&str], name: &str, text: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    std::fs::write(&file, text).unwrap();
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    all.push(file.to_str().unwrap());
    blades(root(), &all).json()
}

/// Every suggestion of `args` on `text`, put in place one at a time: the
/// diagnostic it answers is gone.
fn each_suggestion_fixes_its_mistake(args: &[&str], name: &str, text: &str) {
    let report = report_of(args, name, text);
    let suggestions = suggested(&report);
    assert!(!suggestions.is_empty(), "{name} suggests nothing: {report}");
    for (code, start, end, with) in suggestions {
        let again = replaced(text, start, end, &with);
        let report = report_of(args, name, &again);
        assert!(
            !still_there(&report, &code, start),
            "{code} at {start} stays after `{with}`:\n{again}\n{report}"
        );
    }
}

#[test]
fn every_replacement_a_score_sheet_suggests_fixes_its_mistake() {
    for fixture in ["every-mistake.yaml", "impossible.yaml"] {
        let path = root().join("tests/fixtures/rules/score").join(fixture);
        let text = std::fs::read_to_string(path).unwrap();
        each_suggestion_fixes_its_mistake(&["score"], fixture, &text);
    }
    let round_3 = "players:\n  - name: Ada\n    placings: {round-3: 1}\n  - name: Ben\n    placings: {round-3: 2}\n";
    let report = report_of(&["score"], "round-3.yaml", round_3);
    assert_eq!(suggested(&report)[0].3, "final", "{report}");
    each_suggestion_fixes_its_mistake(&["score"], "round-3.yaml", round_3);
}

#[test]
fn every_replacement_a_deck_list_suggests_fixes_its_mistake() {
    let list = "Desert Rush\nDust Devli\nTumble Scuot\n";
    each_suggestion_fixes_its_mistake(
        &["--cards", "tests/fixtures/rules/pool", "deck", "check"],
        "deck.txt",
        list,
    );
}

/// The example format file of `docs/formats.md`, as written.
fn docs_example_format() -> String {
    let docs = std::fs::read_to_string(root().join("docs/formats.md")).unwrap();
    let start = docs
        .find("## A format file\n\n```yaml\n")
        .expect("docs/formats.md shows a format file");
    let body = &docs[start..];
    let body = &body[body.find("```yaml\n").unwrap() + "```yaml\n".len()..];
    body[..body.find("```").unwrap()].to_string()
}

#[test]
fn the_example_format_of_the_docs_loads_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let pool = dir.path().join("pool");
    common::copy_dir(&root().join("examples/pools/millennium-monsters"), &pool);
    std::fs::create_dir_all(pool.join("formats")).unwrap();
    std::fs::write(pool.join("formats/example.yaml"), docs_example_format()).unwrap();
    let list = root().join("tests/fixtures/formats/md-legal.txt");
    let run = blades(
        Path::new(&pool),
        &[
            "--cards",
            pool.to_str().unwrap(),
            "--format",
            "json",
            "deck",
            "check",
            "--rules",
            "millennium-deck-deques",
            list.to_str().unwrap(),
        ],
    );
    // Loaded, and the deck checked: it has seven copies of cards the
    // example allows three of.
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let report = run.json();
    assert_eq!(report["format"], "millennium-deck-deques", "{report}");
    assert!(
        report["violations"]
            .as_array()
            .unwrap()
            .iter()
            .all(|v| v["rule"] == "too-many-of-a-card"),
        "{report}"
    );
}

#[test]
fn every_replacement_a_format_file_suggests_fixes_its_mistake() {
    let dir = tempfile::tempdir().unwrap();
    let pool = dir.path().join("pool");
    common::copy_dir(&root().join("tests/fixtures/formats/names-pool"), &pool);
    let file = pool.join("formats/names.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    let deck = root().join("tests/fixtures/formats/names-deck.txt");
    let run = |text: &str| {
        std::fs::write(&file, text).unwrap();
        let args = [
            "--cards",
            pool.to_str().unwrap(),
            "--format",
            "json",
            "deck",
            "check",
        ];
        let mut args = args.to_vec();
        args.extend(["--rules", "banned", deck.to_str().unwrap()]);
        blades(dir.path(), &args)
    };
    let first = run(&text);
    assert_eq!(first.code, 2, "{}", first.stdout);
    let suggestions = suggested(&first.json());
    assert_eq!(suggestions.len(), 2, "{}", first.stdout);
    let mut fixed = text.clone();
    for (code, start, end, with) in suggestions.into_iter().rev() {
        let report = run(&replaced(&text, start, end, &with)).json();
        assert!(
            !still_there(&report, &code, start),
            "{code} at {start} stays after `{with}`"
        );
        fixed = replaced(&fixed, start, end, &with);
    }
    // With the set named too, the format loads and checks the deck.
    let fixed = fixed.replace("tiny-set", "tiny");
    let run = run(&fixed);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
}
