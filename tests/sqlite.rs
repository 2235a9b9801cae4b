//! `blades build --sqlite FILE`: the SQLite file holds the JSON database,
//! card by card and field by field, whichever way the build went (with or
//! without the cache); it is written whole or not at all.

mod common;

use std::path::Path;

use common::{Run, blades, copy_dir, root};
use rusqlite::{Connection, OptionalExtension, params};
use serde_json::{Map, Value, json};

/// A fixed build date, so runs can be compared byte for byte.
const EPOCH: &str = "1700000000";

/// `blades build` in `dir` with `args`, `SOURCE_DATE_EPOCH` set to `epoch`.
fn build(dir: &Path, args: &[&str], epoch: Option<&str>) -> Run {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_blades"));
    command
        .arg("build")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("SOURCE_DATE_EPOCH");
    if let Some(epoch) = epoch {
        command.env("SOURCE_DATE_EPOCH", epoch);
    }
    let output = command.output().expect("blades runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn open(path: &Path) -> Connection {
    Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .unwrap_or_else(|e| panic!("{} opens: {e}", path.display()))
}

fn strings(c: &Connection, sql: &str, p: impl rusqlite::Params) -> Vec<String> {
    let mut statement = c.prepare_cached(sql).unwrap();
    statement
        .query_map(p, |row| row.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Names of the temp files the tool leaves in `dir` (none, after any run).
fn temp_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with(".blades-tmp-") || n.contains("-journal"))
                .collect()
        })
        .unwrap_or_default()
}

/// A card's JSON object, as the database JSON holds it, from SQL alone.
fn card_from_sql(c: &Connection, id: &str) -> Value {
    let mut card = c
        .query_row(
            "SELECT c.id, c.name, c.set_id, c.kind, c.stars, c.rarity, c.copies, c.flavor,
                    e.source, e.tree, c.category
             FROM cards c LEFT JOIN effects e ON e.card_id = c.id
             WHERE c.id = ?1",
            [id],
            |row| {
                let mut card = Map::new();
                card.insert("id".into(), json!(row.get::<_, String>(0)?));
                card.insert("name".into(), json!(row.get::<_, String>(1)?));
                card.insert("set".into(), json!(row.get::<_, String>(2)?));
                card.insert("kind".into(), json!(row.get::<_, String>(3)?));
                // NULL exactly where the JSON has no `stars` (venues, characters).
                if let Some(stars) = row.get::<_, Option<i64>>(4)? {
                    card.insert("stars".into(), json!(stars));
                }
                card.insert("rarity".into(), json!(row.get::<_, String>(5)?));
                card.insert("copies".into(), json!(row.get::<_, i64>(6)?));
                if let Some(flavor) = row.get::<_, Option<String>>(7)? {
                    card.insert("flavor".into(), json!(flavor));
                }
                if let Some(source) = row.get::<_, Option<String>>(8)? {
                    card.insert("effect".into(), json!(source));
                }
                if let Some(tree) = row.get::<_, Option<String>>(9)? {
                    let tree: Value = serde_json::from_str(&tree).expect("a tree is JSON");
                    card.insert("effect-tree".into(), tree);
                }
                if let Some(category) = row.get::<_, Option<String>>(10)? {
                    card.insert("category".into(), json!(category));
                }
                Ok(card)
            },
        )
        .unwrap();
    let symbols = |kind: &str| {
        strings(
            c,
            "SELECT symbol FROM card_symbols WHERE card_id = ?1 AND kind = ?2 ORDER BY position",
            params![id, kind],
        )
    };
    card.insert("elements".into(), json!(symbols("element")));
    card.insert("types".into(), json!(symbols("type")));
    let mut texts = Map::new();
    let mut statement = c
        .prepare_cached("SELECT lang, text FROM effect_texts WHERE card_id = ?1")
        .unwrap();
    for row in statement
        .query_map([id], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
        })
        .unwrap()
    {
        let (lang, text) = row.unwrap();
        texts.insert(lang, json!(text));
    }
    if !texts.is_empty() {
        card.insert("effect-text".into(), Value::Object(texts));
    }
    let mut translations = Map::new();
    let mut statement = c
        .prepare_cached(
            "SELECT lang, name, flavor, effect FROM card_translations WHERE card_id = ?1",
        )
        .unwrap();
    let rows: Vec<(String, [Option<String>; 3])> = statement
        .query_map([id], |r| Ok((r.get(0)?, [r.get(1)?, r.get(2)?, r.get(3)?])))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for (lang, fields) in rows {
        let mut translation = Map::new();
        for (key, value) in ["name", "flavor", "effect"].into_iter().zip(fields) {
            if let Some(value) = value {
                translation.insert(key.into(), json!(value));
            }
        }
        let stale = strings(
            c,
            "SELECT field FROM card_translation_stale WHERE card_id = ?1 AND lang = ?2
             ORDER BY position",
            params![id, lang],
        );
        if !stale.is_empty() {
            translation.insert("stale".into(), json!(stale));
        }
        translations.insert(lang, Value::Object(translation));
    }
    if !translations.is_empty() {
        card.insert("translations".into(), Value::Object(translations));
    }
    let mut statement = c
        .prepare_cached(
            "SELECT until, effect, note FROM card_errata WHERE card_id = ?1 ORDER BY position",
        )
        .unwrap();
    let errata: Vec<Value> = statement
        .query_map([id], |r| {
            let mut errata = Map::new();
            errata.insert("until".into(), json!(r.get::<_, String>(0)?));
            errata.insert("effect".into(), json!(r.get::<_, String>(1)?));
            if let Some(note) = r.get::<_, Option<String>>(2)? {
                errata.insert("note".into(), json!(note));
            }
            Ok(Value::Object(errata))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    if !errata.is_empty() {
        card.insert("errata".into(), json!(errata));
    }
    let art = c
        .query_row(
            "SELECT file, format, width, height, fingerprint FROM card_art WHERE card_id = ?1",
            [id],
            |r| {
                Ok(json!({
                    "file": r.get::<_, String>(0)?,
                    "format": r.get::<_, String>(1)?,
                    "width": r.get::<_, i64>(2)?,
                    "height": r.get::<_, i64>(3)?,
                    "fingerprint": r.get::<_, String>(4)?,
                }))
            },
        )
        .ok();
    if let Some(art) = art {
        card.insert("art".into(), art);
    }
    Value::Object(card)
}

/// A set's JSON object, from SQL alone.
fn set_from_sql(c: &Connection, id: &str) -> Value {
    let mut set = c
        .query_row(
            "SELECT id, name, kind, cost, distinct_cards, physical_cards FROM sets WHERE id = ?1",
            [id],
            |row| {
                let mut set = Map::new();
                set.insert("id".into(), json!(row.get::<_, String>(0)?));
                set.insert("name".into(), json!(row.get::<_, String>(1)?));
                set.insert("kind".into(), json!(row.get::<_, String>(2)?));
                if let Some(cost) = row.get::<_, Option<i64>>(3)? {
                    set.insert("cost".into(), json!(cost));
                }
                set.insert("distinct-cards".into(), json!(row.get::<_, i64>(4)?));
                set.insert("physical-cards".into(), json!(row.get::<_, i64>(5)?));
                Ok(set)
            },
        )
        .unwrap();
    let extra = strings(
        c,
        "SELECT type FROM set_extra_types WHERE set_id = ?1 ORDER BY position",
        [id],
    );
    if !extra.is_empty() {
        set.insert("extra-types".into(), json!(extra));
    }
    let mut translations = Map::new();
    let mut statement = c
        .prepare_cached("SELECT lang, name, stale FROM set_translations WHERE set_id = ?1")
        .unwrap();
    for row in statement
        .query_map([id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, bool>(2)?,
            ))
        })
        .unwrap()
    {
        let (lang, name, stale) = row.unwrap();
        let mut translation = Map::new();
        translation.insert("name".into(), json!(name));
        if stale {
            translation.insert("stale".into(), json!(true));
        }
        translations.insert(lang, Value::Object(translation));
    }
    if !translations.is_empty() {
        set.insert("translations".into(), Value::Object(translations));
    }
    Value::Object(set)
}

/// Checks that the SQLite file at `sqlite` holds the JSON database at
/// `json`: every set and card, every field, in order; the keyword lines of
/// every effect tree; the format; a sound file.
fn assert_same_data(json: &Path, sqlite: &Path) {
    let database: Value = serde_json::from_slice(&std::fs::read(json).unwrap()).unwrap();
    let c = open(sqlite);
    assert_eq!(
        c.query_row("PRAGMA integrity_check", [], |r| r.get::<_, String>(0))
            .unwrap(),
        "ok"
    );
    let broken: Option<String> = c
        .query_row("PRAGMA foreign_key_check", [], |r| r.get(0))
        .optional()
        .unwrap();
    assert_eq!(broken, None, "a row names a set or card that is not there");
    let format = strings(&c, "SELECT value FROM meta WHERE key = 'format'", []);
    assert_eq!(format, [database["format"].to_string()]);
    let user_version: i64 = c
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(json!(user_version), database["format"]);

    let table: Vec<Value> = database["keywords"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|k| json!([k["id"], k["name"], k["names"]["ja"]]))
        .collect();
    let mut statement = c
        .prepare(
            "SELECT k.id, k.name, n.name FROM pool_keywords k
             LEFT JOIN pool_keyword_names n ON n.keyword_id = k.id AND n.lang = 'ja'
             ORDER BY k.position",
        )
        .unwrap();
    let rows: Vec<Value> = statement
        .query_map([], |r| {
            Ok(json!([
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<String>>(2)?
            ]))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(rows, table, "the pool's keyword table");
    let sets = database["sets"].as_array().unwrap();
    let ids = strings(&c, "SELECT id FROM sets ORDER BY position", []);
    let expected: Vec<&str> = sets.iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(ids, expected, "the sets, in order");
    for set in sets {
        assert_eq!(&set_from_sql(&c, set["id"].as_str().unwrap()), set);
    }

    let cards = database["cards"].as_array().unwrap();
    let ids = strings(&c, "SELECT id FROM cards ORDER BY position", []);
    let expected: Vec<&str> = cards.iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(ids, expected, "the cards, in order");
    let mut keyword_lines = 0;
    for card in cards {
        let id = card["id"].as_str().unwrap();
        assert_eq!(&card_from_sql(&c, id), card, "card {id}");
        // The keywords table lists the keyword lines of the tree.
        let expected: Vec<Value> = card["effect-tree"]["lines"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
            .filter(|(_, line)| line["line"] == "keyword")
            .map(|(i, line)| json!([i, line["name"], line.get("value").unwrap_or(&Value::Null)]))
            .collect();
        let mut statement = c
            .prepare_cached(
                "SELECT line, name, value FROM keywords WHERE card_id = ?1 ORDER BY line",
            )
            .unwrap();
        let found: Vec<Value> = statement
            .query_map([id], |r| {
                Ok(json!([
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<i64>>(2)?
                ]))
            })
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(found, expected, "keywords of {id}");
        keyword_lines += found.len();
    }
    let rows: i64 = c
        .query_row("SELECT count(*) FROM keywords", [], |r| r.get(0))
        .unwrap();
    assert_eq!(
        rows as usize, keyword_lines,
        "no keyword rows of cards not there"
    );
    // No rows beyond those of the cards and sets compared above.
    for (table, key) in [
        ("card_symbols", "card_id"),
        ("card_translations", "card_id"),
        ("card_translation_stale", "card_id"),
        ("card_errata", "card_id"),
        ("card_art", "card_id"),
        ("effects", "card_id"),
        ("effect_texts", "card_id"),
        ("set_extra_types", "set_id"),
        ("set_translations", "set_id"),
    ] {
        let parent = if key == "card_id" { "cards" } else { "sets" };
        let orphans: i64 = c
            .query_row(
                &format!(
                    "SELECT count(*) FROM {table} WHERE {key} NOT IN (SELECT id FROM {parent})"
                ),
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(orphans, 0, "{table}");
    }
}

/// A folder with a copy of the built-in pool in `cards/`.
fn pool_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("cards"), &dir.path().join("cards"));
    dir
}

#[test]
fn the_sqlite_file_holds_the_json_database_card_by_card() {
    let dir = pool_copy();
    let run = build(
        dir.path(),
        &[
            "--cards",
            "cards",
            "--no-cache",
            "--sqlite",
            "out/cards.sqlite",
        ],
        Some(EPOCH),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("cards into dist/cards.json and out/cards.sqlite"),
        "{}",
        run.stderr
    );
    let sqlite = dir.path().join("out/cards.sqlite");
    assert_same_data(&dir.path().join("dist/cards.json"), &sqlite);
    let c = open(&sqlite);
    let meta = strings(&c, "SELECT key || '=' || value FROM meta ORDER BY key", []);
    assert_eq!(
        meta,
        [
            "built=2023-11-14T22:13:20Z".to_string(),
            "format=2".into(),
            "tool=blades".into(),
            format!("tool-version={}", env!("CARGO_PKG_VERSION")),
        ]
    );
    assert!(temp_files(&dir.path().join("out")).is_empty());
}

#[test]
fn translations_and_stale_fields_come_through() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &root().join("tests/fixtures/i18n/drifted"),
        &dir.path().join("pool"),
    );
    let run = build(
        dir.path(),
        &["--cards", "pool", "--sqlite", "cards.sqlite"],
        Some(EPOCH),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let sqlite = dir.path().join("cards.sqlite");
    assert_same_data(&dir.path().join("dist/cards.json"), &sqlite);
    let c = open(&sqlite);
    let stale: i64 = c
        .query_row("SELECT count(*) FROM card_translation_stale", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert!(stale > 0, "the fixture has stale translations");
}

/// Real questions asked in SQL, answered as a program reading the JSON
/// database answers them.
#[test]
fn queries_answer_as_the_json_does() {
    let dir = tempfile::tempdir().unwrap();
    let run = build(dir.path(), &["--sqlite", "cards.sqlite"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let database: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("dist/cards.json")).unwrap())
            .unwrap();
    let cards = database["cards"].as_array().unwrap();
    let c = open(&dir.path().join("cards.sqlite"));

    // Fire cards of 3 STAR or more, per set.
    let mut expected: Vec<String> = cards
        .iter()
        .filter(|card| {
            card["stars"].as_i64().is_some_and(|s| s >= 3)
                && card["elements"]
                    .as_array()
                    .unwrap()
                    .contains(&json!("fire"))
        })
        .map(|card| card["id"].as_str().unwrap().to_string())
        .collect();
    expected.sort();
    let found = strings(
        &c,
        "SELECT c.id FROM cards c
         JOIN card_symbols s ON s.card_id = c.id AND s.kind = 'element' AND s.symbol = 'fire'
         WHERE c.stars >= 3 ORDER BY c.id",
        [],
    );
    assert!(!found.is_empty());
    assert_eq!(found, expected);

    // A card by its Japanese name.
    let card = cards
        .iter()
        .find(|card| card["translations"]["ja"]["name"].is_string())
        .expect("a translated card");
    let found = strings(
        &c,
        "SELECT c.name FROM cards c JOIN card_translations t ON t.card_id = c.id
         WHERE t.lang = 'ja' AND t.name = ?1",
        [card["translations"]["ja"]["name"].as_str().unwrap()],
    );
    assert_eq!(found, [card["name"].as_str().unwrap()]);

    // Copies per set, against the sets' own count.
    for set in database["sets"].as_array().unwrap() {
        let physical: i64 = c
            .query_row(
                "SELECT coalesce(sum(copies), 0) FROM cards WHERE set_id = ?1",
                [set["id"].as_str().unwrap()],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(json!(physical), set["physical-cards"]);
    }

    // The trees are JSON SQLite reads: effects whose first line is a
    // keyword, and Japanese texts of Reactions.
    let expected = cards
        .iter()
        .filter(|card| card["effect-tree"]["lines"][0]["line"] == "keyword")
        .count();
    let found: i64 = c
        .query_row(
            "SELECT count(*) FROM effects WHERE json_extract(tree, '$.lines[0].line') = 'keyword'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(found > 0);
    assert_eq!(found as usize, expected);
    let expected = cards
        .iter()
        .filter(|card| {
            card["effect-tree"]["lines"]
                .as_array()
                .is_some_and(|lines| lines.iter().any(|l| l["timing"] == "reaction"))
        })
        .count();
    let found: i64 = c
        .query_row(
            "SELECT count(DISTINCT e.card_id) FROM effects e, json_each(e.tree, '$.lines') l
             JOIN effect_texts t ON t.card_id = e.card_id AND t.lang = 'ja'
             WHERE json_extract(l.value, '$.timing') = 'reaction'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(found > 0);
    assert_eq!(found as usize, expected);

    // Lookups by id, name and set use an index.
    for (query, index) in [
        ("SELECT * FROM cards WHERE id = 'x'", "cards_id"),
        ("SELECT * FROM cards WHERE name = 'x'", "cards_name"),
        ("SELECT * FROM cards WHERE set_id = 'x'", "cards_set"),
        ("SELECT * FROM sets WHERE name = 'x'", "sets_name"),
        (
            "SELECT * FROM card_translations WHERE name = 'x'",
            "card_translations_name",
        ),
    ] {
        let plan: Vec<String> = c
            .prepare(&format!("EXPLAIN QUERY PLAN {query}"))
            .unwrap()
            .query_map([], |r| r.get::<_, String>(3))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(
            plan.iter().any(|step| step.contains(index)),
            "{query}: {plan:?}"
        );
    }
}

#[test]
fn a_cached_build_that_writes_no_json_still_writes_the_same_sqlite_file() {
    let dir = pool_copy();
    let fresh = build(
        dir.path(),
        &[
            "--cards",
            "cards",
            "--no-cache",
            "--out",
            "fresh/cards.json",
            "--sqlite",
            "fresh.sqlite",
        ],
        Some(EPOCH),
    );
    assert_eq!(fresh.code, 0, "{}", fresh.stderr);
    // A cached build without --sqlite, then one with it that finds the
    // database already written.
    let first = build(dir.path(), &["--cards", "cards"], Some(EPOCH));
    assert_eq!(first.code, 0, "{}", first.stderr);
    let json = dir.path().join("dist/cards.json");
    let before = std::fs::metadata(&json).unwrap().modified().unwrap();
    let cached = build(
        dir.path(),
        &["--cards", "cards", "--sqlite", "cached.sqlite", "--timings"],
        Some(EPOCH),
    );
    assert_eq!(cached.code, 0, "{}", cached.stderr);
    assert_eq!(
        std::fs::metadata(&json).unwrap().modified().unwrap(),
        before,
        "the JSON database was not written again"
    );
    let sqlite = dir.path().join("cached.sqlite");
    assert_same_data(&json, &sqlite);
    assert!(
        std::fs::read(&sqlite).unwrap() == std::fs::read(dir.path().join("fresh.sqlite")).unwrap(),
        "a cached build writes the bytes a full build writes"
    );
    // An edit: one set rendered again, the others copied from the last file.
    let file = dir.path().join("cards/sunset-gulch.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    // The flavor and the set's name: their translations turn stale.
    let text = text
        .replacen("with the dust", "with the sand", 1)
        .replace("Sunset Gulch", "Sunset Gulch Revisited");
    std::fs::write(&file, text).unwrap();
    let edited = build(
        dir.path(),
        &["--cards", "cards", "--sqlite", "cached.sqlite"],
        Some(EPOCH),
    );
    assert_eq!(edited.code, 0, "{}", edited.stderr);
    assert_same_data(&json, &sqlite);
    let flavor = strings(
        &open(&sqlite),
        "SELECT flavor FROM cards WHERE flavor LIKE '%with the sand%'",
        [],
    );
    assert_eq!(flavor.len(), 1);
    let stale = strings(
        &open(&sqlite),
        "SELECT set_id FROM set_translations WHERE stale = 1",
        [],
    );
    assert_eq!(stale, ["sunset-gulch"]);
}

#[test]
fn builds_with_one_date_write_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["a.sqlite", "b.sqlite"] {
        let run = build(dir.path(), &["--sqlite", name, "--no-cache"], Some(EPOCH));
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    let a = std::fs::read(dir.path().join("a.sqlite")).unwrap();
    let b = std::fs::read(dir.path().join("b.sqlite")).unwrap();
    assert!(a == b, "two builds with one SOURCE_DATE_EPOCH differ");
    // Without it, the date is now.
    let run = build(dir.path(), &["--sqlite", "now.sqlite"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let built = strings(
        &open(&dir.path().join("now.sqlite")),
        "SELECT value FROM meta WHERE key = 'built'",
        [],
    );
    assert!(
        built[0].starts_with("20") && built[0].ends_with('Z'),
        "{built:?}"
    );
    assert_ne!(built[0], "2023-11-14T22:13:20Z");
}

#[test]
fn a_pool_with_errors_writes_no_sqlite_file() {
    let dir = tempfile::tempdir().unwrap();
    let cards = root().join("tests/fixtures/build/invalid");
    let old = dir.path().join("old.sqlite");
    std::fs::write(&old, "the old file").unwrap();
    for out in ["new.sqlite", "old.sqlite"] {
        let run = build(
            dir.path(),
            &["--cards", cards.to_str().unwrap(), "--sqlite", out],
            Some(EPOCH),
        );
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(!run.stderr.contains(out), "{}", run.stderr);
    }
    assert!(!dir.path().join("new.sqlite").exists());
    assert_eq!(std::fs::read_to_string(&old).unwrap(), "the old file");
    assert!(temp_files(dir.path()).is_empty());
}

#[test]
fn a_file_that_cannot_be_written_is_reported_and_nothing_is_left() {
    let dir = tempfile::tempdir().unwrap();
    // A folder where the file goes.
    std::fs::create_dir(dir.path().join("taken.sqlite")).unwrap();
    let run = build(dir.path(), &["--sqlite", "taken.sqlite"], Some(EPOCH));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("blades::cannot-write"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("cannot write `taken.sqlite`: a folder is in its place"),
        "{}",
        run.stderr
    );
    // The JSON database was written; the SQLite file is not said to be.
    assert!(
        run.stderr.contains("cards into dist/cards.json\n"),
        "{}",
        run.stderr
    );
    // The same as one JSON report.
    let run = build(
        dir.path(),
        &["--sqlite", "taken.sqlite", "--format", "json"],
        Some(EPOCH),
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stderr, "");
    assert_eq!(run.json()["diagnostics"][0]["code"], "cannot-write");
    // A malformed build date: the old file stays.
    let old = dir.path().join("old.sqlite");
    std::fs::write(&old, "the old file").unwrap();
    let run = build(dir.path(), &["--sqlite", "old.sqlite"], Some("yesterday"));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("SOURCE_DATE_EPOCH is `yesterday`"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read_to_string(&old).unwrap(), "the old file");
    // Standard output is refused before anything is built.
    let run = blades(dir.path(), &["build", "--sqlite", "-"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("blades::usage"), "{}", run.stderr);
    assert!(
        temp_files(dir.path()).is_empty(),
        "{:?}",
        temp_files(dir.path())
    );
}

#[test]
fn a_write_that_fails_midway_leaves_the_old_file_and_no_temp_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cards.sqlite");
    let workspace = blades::workspace::Workspace::builtin();
    let mut database = workspace.database().expect("the built-in pool builds");
    blades::sqlite::write_dated(&path, blades::sqlite::Source::Models(&database), 0).unwrap();
    let old = std::fs::read(&path).unwrap();
    // A second card with an id already used: the write fails when the key
    // on ids is made, after every row went in.
    let twin = database.cards[database.cards.len() / 2].clone();
    database.cards.push(twin);
    let error = blades::sqlite::write_dated(&path, blades::sqlite::Source::Models(&database), 1)
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("UNIQUE constraint failed: cards.id"),
        "{error}"
    );
    assert!(std::fs::read(&path).unwrap() == old, "the old file changed");
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["cards.sqlite"]);
}

/// Every field of the database's JSON Schema (`schema/database.schema.json`),
/// as a path, with the table and column that hold it in SQLite. A field the
/// schema gains fails the test below until it has a column here and in the
/// file (and `card_from_sql` reads it back).
const FIELDS: &[(&str, &str)] = &[
    ("format", "meta.value"),
    ("cards[].id", "cards.id"),
    ("cards[].name", "cards.name"),
    ("cards[].set", "cards.set_id"),
    ("cards[].kind", "cards.kind"),
    ("cards[].stars", "cards.stars"),
    ("cards[].elements[]", "card_symbols.symbol"),
    ("cards[].types[]", "card_symbols.symbol"),
    ("cards[].category", "cards.category"),
    ("cards[].rarity", "cards.rarity"),
    ("cards[].copies", "cards.copies"),
    ("cards[].effect", "effects.source"),
    ("cards[].effect-tree", "effects.tree"),
    ("cards[].effect-text.<lang>", "effect_texts.text"),
    ("cards[].flavor", "cards.flavor"),
    ("cards[].translations.<lang>.name", "card_translations.name"),
    (
        "cards[].translations.<lang>.flavor",
        "card_translations.flavor",
    ),
    (
        "cards[].translations.<lang>.effect",
        "card_translations.effect",
    ),
    (
        "cards[].translations.<lang>.stale[]",
        "card_translation_stale.field",
    ),
    ("cards[].errata[].until", "card_errata.until"),
    ("cards[].errata[].effect", "card_errata.effect"),
    ("cards[].errata[].note", "card_errata.note"),
    ("cards[].art.file", "card_art.file"),
    ("cards[].art.format", "card_art.format"),
    ("cards[].art.width", "card_art.width"),
    ("cards[].art.height", "card_art.height"),
    ("cards[].art.fingerprint", "card_art.fingerprint"),
    ("sets[].id", "sets.id"),
    ("sets[].name", "sets.name"),
    ("sets[].kind", "sets.kind"),
    ("sets[].cost", "sets.cost"),
    ("sets[].extra-types[]", "set_extra_types.type"),
    ("sets[].distinct-cards", "sets.distinct_cards"),
    ("sets[].physical-cards", "sets.physical_cards"),
    ("sets[].translations.<lang>.name", "set_translations.name"),
    ("sets[].translations.<lang>.stale", "set_translations.stale"),
    ("keywords[].id", "pool_keywords.id"),
    ("keywords[].name", "pool_keywords.name"),
    ("keywords[].names.<lang>", "pool_keyword_names.name"),
];

/// The leaf fields of a JSON Schema, as paths: `[]` for a list's items,
/// `.<lang>` for a map's values; the effect tree is one field (JSON text).
fn schema_fields(schema: &Value) -> Vec<String> {
    fn resolve<'a>(mut node: &'a Value, defs: &'a Value) -> &'a Value {
        loop {
            if let Some(name) = node["$ref"].as_str() {
                node = &defs[name.rsplit('/').next().unwrap()];
                continue;
            }
            let options = node["anyOf"].as_array().or(node["oneOf"].as_array());
            let not_null: Vec<&Value> = options
                .into_iter()
                .flatten()
                .filter(|o| o["type"] != "null")
                .collect();
            match not_null[..] {
                [one] => node = one,
                _ => return node,
            }
        }
    }
    fn walk(node: &Value, path: String, defs: &Value, out: &mut Vec<String>) {
        let node = resolve(node, defs);
        if path == "cards[].effect-tree" {
            out.push(path);
        } else if let Some(properties) = node["properties"].as_object() {
            for (key, value) in properties {
                let inner = match path.is_empty() {
                    true => key.clone(),
                    false => format!("{path}.{key}"),
                };
                walk(value, inner, defs, out);
            }
        } else if node.get("items").is_some() {
            walk(&node["items"], format!("{path}[]"), defs, out);
        } else if node["additionalProperties"].is_object() {
            walk(
                &node["additionalProperties"],
                format!("{path}.<lang>"),
                defs,
                out,
            );
        } else {
            out.push(path);
        }
    }
    let mut out = Vec::new();
    walk(schema, String::new(), &schema["$defs"], &mut out);
    out
}

#[test]
fn every_field_of_the_database_schema_is_in_sqlite() {
    let schema: Value = serde_json::from_str(
        &blades::schema::SchemaName::ALL
            .into_iter()
            .find(|n| n.file_name() == "database.schema.json")
            .unwrap()
            .generate_text(),
    )
    .unwrap();
    let mut in_schema = schema_fields(&schema);
    in_schema.sort();
    let mut mapped: Vec<String> = FIELDS.iter().map(|(f, _)| f.to_string()).collect();
    mapped.sort();
    assert_eq!(
        in_schema, mapped,
        "every field of the schema has its column"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("db.sqlite");
    let database = blades::workspace::Workspace::builtin().database().unwrap();
    blades::sqlite::write(&file, blades::sqlite::Source::Models(&database)).unwrap();
    let c = open(&file);
    for (field, column) in FIELDS {
        let (table, column) = column.split_once('.').unwrap();
        let columns = strings(
            &c,
            &format!("SELECT name FROM pragma_table_info('{table}')"),
            [],
        );
        assert!(
            columns.iter().any(|c| c == column),
            "{field}: no {table}.{column}"
        );
    }
}

/// Pools whose cards have the fields the built-in one does not (errata, a
/// category, art): their SQLite files hold their JSON databases too.
#[test]
fn errata_and_categories_come_through() {
    for pool in [
        "tests/fixtures/diff/new",
        "examples/pools/playing-cards",
        "tests/fixtures/art/good",
    ] {
        let dir = tempfile::tempdir().unwrap();
        copy_dir(&root().join(pool), &dir.path().join("cards"));
        let run = build(
            dir.path(),
            &["--cards", "cards", "--no-cache", "--sqlite", "cards.sqlite"],
            Some(EPOCH),
        );
        assert_eq!(run.code, 0, "{pool}: {}", run.stderr);
        let json = std::fs::read_to_string(dir.path().join("dist/cards.json")).unwrap();
        let field = match pool {
            p if p.contains("diff") => "\"errata\"",
            p if p.contains("art") => "\"art\"",
            _ => "\"category\"",
        };
        assert!(json.contains(field), "{pool} has {field}");
        assert_same_data(
            &dir.path().join("dist/cards.json"),
            &dir.path().join("cards.sqlite"),
        );
    }
}

#[test]
fn docs_show_the_schema_as_written() {
    let docs = std::fs::read_to_string(root().join("docs/database.md")).unwrap();
    for part in [blades::sqlite::SCHEMA, blades::sqlite::INDEXES] {
        assert!(
            docs.contains(part),
            "docs/database.md does not show this part of the schema as written:\n{part}"
        );
    }
}
