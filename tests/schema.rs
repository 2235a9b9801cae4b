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
