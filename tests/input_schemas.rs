//! Every reader of a player's input and its published JSON Schema agree on
//! what is well formed: on every YAML fixture, and on each fixture changed
//! one place at a time (a value of another type, a key taken away, a key
//! added). An editor that validates against the schema then refuses just
//! what `blades` refuses. Problems of meaning (a card that does not exist,
//! places nobody can finish in) are the reader's alone: no schema knows the
//! pool.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use blades::diagnostics::Diagnostic;
use blades::rules::format;
use blades::rules::input::{self, InputFile};
use blades::schema::SchemaName;
use serde_json::{Value, json};

/// Codes of problems of meaning, which a schema cannot see.
const MEANING: &[&str] = &[
    "unknown-card",
    "ambiguous-card",
    "unknown-character",
    "unknown-set",
    "unknown-symbol",
    "format-conflict",
];

#[derive(Clone, Copy, Debug)]
enum Kind {
    Deck,
    Collection,
    Binder,
    Trade,
    Copies,
    Score,
    Format,
}

impl Kind {
    const ALL: [Kind; 7] = [
        Kind::Deck,
        Kind::Collection,
        Kind::Binder,
        Kind::Trade,
        Kind::Copies,
        Kind::Score,
        Kind::Format,
    ];

    fn schema(self) -> SchemaName {
        match self {
            Kind::Deck => SchemaName::DeckInput,
            Kind::Collection => SchemaName::CollectionInput,
            Kind::Binder => SchemaName::BinderInput,
            Kind::Trade => SchemaName::TradeInput,
            Kind::Copies => SchemaName::CopiesInput,
            Kind::Score => SchemaName::ScoreInput,
            Kind::Format => SchemaName::FormatInput,
        }
    }

    /// The YAML fixtures of this kind of input.
    fn fixtures(self) -> Vec<PathBuf> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let folders: Vec<PathBuf> = match self {
            Kind::Deck => vec![root.join("tests/fixtures/rules/deck")],
            Kind::Collection => vec![root.join("tests/fixtures/rules/collection")],
            Kind::Binder => vec![root.join("tests/fixtures/rules/binder")],
            Kind::Trade => vec![root.join("tests/fixtures/rules/trade")],
            Kind::Copies => vec![root.join("tests/fixtures/rules/copies")],
            Kind::Score => vec![root.join("tests/fixtures/rules/score")],
            Kind::Format => vec![
                root.join("tests/fixtures/formats"),
                root.join("examples/pools"),
            ],
        };
        let mut files: Vec<PathBuf> = folders.iter().flat_map(|dir| yaml_files(dir)).collect();
        let examples = root.join("examples/inputs");
        let example = |name: &str| examples.join(format!("{name}.yaml"));
        match self {
            Kind::Deck => files.extend([example("deck"), example("deck-ja")]),
            Kind::Collection => files.push(example("collection")),
            Kind::Binder => files.push(example("binder")),
            Kind::Trade => files.push(example("trade")),
            Kind::Copies => files.push(example("copies")),
            Kind::Score => files.push(example("score")),
            Kind::Format => {
                // The format files of pools (`formats/*.yaml`), and the built-in ones.
                files.retain(|f| f.parent().is_some_and(|folder| folder.ends_with("formats")));
                files.push(root.join("data/deck-formats.yaml"));
            }
        }
        files.sort();
        files.dedup();
        files
    }

    /// Whether the reader takes the text without a problem of form.
    fn reader_accepts(self, text: &str) -> (bool, Vec<Diagnostic>) {
        let file = InputFile::new("input.yaml", text);
        let mut found = Vec::new();
        match self {
            Kind::Deck => drop(input::read_deck(&file, &mut found)),
            Kind::Collection => drop(input::read_cards(&file, true, &mut found)),
            Kind::Binder => drop(input::read_cards(&file, false, &mut found)),
            Kind::Trade => drop(input::read_trade(&file, &mut found)),
            Kind::Copies => drop(input::read_copies(&file, &mut found)),
            Kind::Score => drop(input::read_score(&file, &mut found)),
            Kind::Format => drop(format::parse_located(
                text,
                &Arc::from("formats.yaml"),
                &mut found,
            )),
        }
        let accepts = found
            .iter()
            .all(|d| MEANING.contains(&d.code.as_str()) || !d.is_error());
        (accepts, found)
    }
}

fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return files;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(yaml_files(&path));
        } else if path.extension().is_some_and(|e| e == "yaml") {
            files.push(path);
        }
    }
    files
}

/// The values put in place of each value of a fixture: one of every JSON
/// type, and the edge numbers a count can meet.
fn replacements() -> Vec<Value> {
    vec![
        json!(null),
        json!(true),
        json!(0),
        json!(5),
        json!(-1),
        json!(2.5),
        json!("x"),
        json!([]),
        json!(["x"]),
        json!({}),
        json!({"x": 1}),
    ]
}

/// The document changed one place at a time.
fn variants(doc: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    let mut paths = Vec::new();
    collect_paths(doc, &mut Vec::new(), &mut paths);
    for path in &paths {
        for value in replacements() {
            let mut changed = doc.clone();
            *at(&mut changed, path) = value;
            out.push(changed);
        }
        let mut added = doc.clone();
        if let Value::Object(map) = at(&mut added, path) {
            map.insert("unexpected-key".into(), json!(1));
            out.push(added);
        }
        if let Some((last, parent)) = path.split_last() {
            let mut removed = doc.clone();
            match at(&mut removed, parent) {
                Value::Object(map) => drop(map.remove(last.as_str())),
                Value::Array(items) => drop(items.remove(last.parse::<usize>().unwrap())),
                _ => unreachable!(),
            }
            out.push(removed);
        }
    }
    out
}

fn collect_paths(value: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    out.push(path.clone());
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                path.push(key.clone());
                collect_paths(child, path, out);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                path.push(i.to_string());
                collect_paths(child, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn at<'v>(value: &'v mut Value, path: &[String]) -> &'v mut Value {
    path.iter().fold(value, |v, step| match v {
        Value::Object(map) => map.get_mut(step.as_str()).unwrap(),
        Value::Array(items) => &mut items[step.parse::<usize>().unwrap()],
        _ => unreachable!(),
    })
}

#[test]
fn every_reader_agrees_with_its_schema_on_every_fixture_and_each_change_of_one() {
    let mut disagreements = Vec::new();
    let mut documents = 0;
    for kind in Kind::ALL {
        let validator = jsonschema::validator_for(&kind.schema().generate()).unwrap();
        let fixtures = kind.fixtures();
        assert!(!fixtures.is_empty(), "{kind:?} has no fixtures");
        for path in fixtures {
            let text = std::fs::read_to_string(&path).unwrap();
            let Ok(doc) = blades::yaml::parse(&text) else {
                continue;
            };
            let doc = doc.to_json();
            let mut check = |value: &Value, what: &str| {
                documents += 1;
                let json_text = serde_json::to_string(value).unwrap();
                let (reader, found) = kind.reader_accepts(&json_text);
                let schema = validator.is_valid(value);
                if reader != schema {
                    let codes: Vec<&str> = found.iter().map(|d| d.code.as_str()).collect();
                    disagreements.push(format!(
                        "{kind:?} {} {what}: reader {} schema {}: {json_text} {codes:?}",
                        path.display(),
                        if reader { "accepts" } else { "refuses" },
                        if schema { "accepts" } else { "refuses" },
                    ));
                }
            };
            check(&doc, "as written");
            for variant in variants(&doc) {
                check(&variant, "changed");
            }
        }
    }
    if let Ok(dump) = std::env::var("DUMP_DISAGREEMENTS") {
        std::fs::write(dump, disagreements.join("\n")).unwrap();
    }
    assert!(documents > 1000, "only {documents} documents tried");
    assert!(
        disagreements.is_empty(),
        "{} of {documents} documents read differently:\n{}",
        disagreements.len(),
        disagreements
            .iter()
            .take(60)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
