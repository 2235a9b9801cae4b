//! One JSON contract: every command, on good input and bad, prints one
//! JSON document (or JSON Lines) that its published schema accepts, and
//! nothing on standard error. The cases are data: `tests/contract/cases.txt`.
//! SARIF output is checked against the OASIS SARIF 2.1.0 schema, kept as
//! `tests/contract/sarif.schema.json` (the file published by OASIS, as
//! shipped in the `serde-sarif` crate).

mod common;

use std::path::Path;

use common::{blades, root};

/// One line of the cases file.
struct Case {
    line: usize,
    schema: String,
    lines: bool,
    exit: i32,
    args: Vec<String>,
}

/// Words split at spaces, a double-quoted word kept whole.
fn words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

fn cases(root: &Path, tmp: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(root.join("tests/contract/cases.txt")).unwrap();
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(i, line)| {
            let line = line
                .replace("{root}", root.to_str().unwrap())
                .replace("{tmp}", tmp.to_str().unwrap());
            let mut words = words(&line);
            let schema = words.remove(0);
            let exit = words.remove(0).parse().expect("an exit code");
            let (schema, lines) = match schema.strip_suffix("+lines") {
                Some(name) => (name.to_string(), true),
                None => (schema, false),
            };
            Case {
                line: i + 1,
                schema,
                lines,
                exit,
                args: words,
            }
        })
        .collect()
}

#[test]
fn every_json_output_matches_its_schema() {
    let root = root();
    let tmp = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let cases = cases(root, tmp.path());
    assert!(cases.len() > 30, "the cases file was read");
    for case in cases {
        let dir = tempfile::tempdir().unwrap();
        let mut args: Vec<&str> = case.args.iter().map(String::as_str).collect();
        if !args.contains(&"--format") {
            args.extend(["--format", "json"]);
        }
        let run = blades(dir.path(), &args);
        // The project's schemas, or a standard's kept beside the cases (SARIF).
        let file = format!("{}.schema.json", case.schema);
        let published = root.join("schema").join(&file);
        let standard = root.join("tests/contract").join(&file);
        let path = if published.exists() {
            published
        } else {
            standard
        };
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|_| panic!("line {}: no schema `{}`", case.line, case.schema));
        let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
        let mut schema = schema;
        // The SARIF 2.1.0 schema's `run.language` pattern (and `toolComponent.language`'s) has a
        // stray `]` that its own meta-schema refuses as a regex; no output of ours
        // has a `language`, so the pattern is replaced by its intent.
        for holder in ["run", "toolComponent"] {
            let at = format!("/definitions/{holder}/properties/language/pattern");
            if let Some(pattern) = schema.pointer_mut(&at) {
                *pattern = serde_json::json!("^[a-zA-Z]{2}(-[a-zA-Z]{2})?$");
            }
        }
        let validator = jsonschema::validator_for(&schema)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let documents: Vec<&str> = match case.lines {
            true => run.stdout.lines().collect(),
            false => vec![run.stdout.as_str()],
        };
        let mut problems = Vec::new();
        if run.code != case.exit {
            problems.push(format!("exit {} (expected {})", run.code, case.exit));
        }
        if !run.stderr.is_empty() {
            problems.push(format!("standard error is not empty:\n{}", run.stderr));
        }
        for document in documents {
            match serde_json::from_str::<serde_json::Value>(document) {
                Err(e) => problems.push(format!("not one JSON document ({e}):\n{document}")),
                Ok(value) => problems.extend(
                    validator
                        .iter_errors(&value)
                        .map(|e| format!("{e} at {}", e.instance_path())),
                ),
            }
        }
        if !problems.is_empty() {
            failures.push(format!(
                "line {} (`blades {}`):\n  {}",
                case.line,
                args.join(" "),
                problems.join("\n  ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
