//! The checked-in JSON Schemas and the list of diagnostic codes never drift.

use std::path::Path;

use blades::diagnostics::CODES;
use blades::schema::SchemaName;

#[test]
fn checked_in_schemas_are_up_to_date() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema");
    for name in SchemaName::ALL {
        let path = dir.join(name.file_name());
        let generated = name.generate_text();
        if std::env::var_os("BLADES_UPDATE_SCHEMAS").is_some() {
            std::fs::write(&path, &generated).unwrap();
            continue;
        }
        let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            checked_in == generated,
            "schema/{} is stale: run `cargo run -- schema --write schema` (or BLADES_UPDATE_SCHEMAS=1 cargo test --test schema)",
            name.file_name()
        );
    }
}

#[test]
fn diagnostic_codes_are_stable() {
    let listing: Vec<String> = CODES
        .iter()
        .map(|(code, what)| format!("{}: {what}", code.as_str()))
        .collect();
    insta::assert_snapshot!("codes", listing.join("\n"));
}

/// Every key of every JSON document the tool writes is kebab-case (the
/// set files' style), so no consumer meets `end_line` beside
/// `distinct-cards` (docs/decisions.md, "One key style").
#[test]
fn every_published_key_is_kebab_case() {
    fn keys(schema: &serde_json::Value, at: &str, bad: &mut Vec<String>) {
        match schema {
            serde_json::Value::Object(map) => {
                for (key, value) in map {
                    if key == "properties"
                        && let Some(properties) = value.as_object()
                    {
                        for name in properties.keys() {
                            let kebab = name
                                .chars()
                                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
                            if !kebab {
                                bad.push(format!("{at}: `{name}`"));
                            }
                        }
                    }
                    keys(value, at, bad);
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| keys(v, at, bad)),
            _ => {}
        }
    }
    let mut bad = Vec::new();
    for name in SchemaName::ALL {
        keys(&name.generate(), name.name(), &mut bad);
    }
    assert!(bad.is_empty(), "keys not in kebab-case: {bad:#?}");
}
