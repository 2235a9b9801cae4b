//! The player checks through the real binary, on the fixture pool
//! `tests/fixtures/rules/pool` and the inputs beside it: every rule both
//! ways, every exit code, the JSON shape, plain-text input and suggestions.

mod common;

use common::Run;

use serde_json::Value;

const POOL: &str = "tests/fixtures/rules/pool";
const FIXTURES: &str = "tests/fixtures/rules";

/// Runs `blades ARGS...` at the repository root, `stdin` on its standard
/// input.
fn blades_with_stdin(args: &[&str], stdin: Option<&str>) -> Run {
    common::blades_with_stdin(common::root(), args, stdin)
}

/// Runs `blades --cards POOL ARGS...`.
fn blades(args: &[&str]) -> Run {
    let mut all = vec!["--cards", POOL];
    all.extend_from_slice(args);
    blades_with_stdin(&all, None)
}

fn fixture(path: &str) -> String {
    format!("{FIXTURES}/{path}")
}

/// The rule names of a JSON result.
fn rules(result: &Value) -> Vec<String> {
    result["violations"]
        .as_array()
        .expect("violations is a list")
        .iter()
        .map(|v| v["rule"].as_str().expect("rule is text").to_string())
        .collect()
}

fn check_json(args: &[&str], file: &str) -> (i32, Value) {
    let mut all: Vec<&str> = args.to_vec();
    let path = fixture(file);
    all.extend(["--format", "json", path.as_str()]);
    let run = blades(&all);
    let json = run.json();
    (run.code, json)
}

// ------------------------------------------------------------------ pool

#[test]
fn the_fixture_pool_builds() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cards.json");
    let run = blades(&["build", "--out", out.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

// ------------------------------------------------------------------ deck

#[test]
fn violations_name_the_cards_and_the_fix() {
    let (_, json) = check_json(&["deck", "check"], "deck/nine-with-repeat.yaml");
    let duplicate = &json["violations"][1];
    assert_eq!(duplicate["cards"], serde_json::json!(["canyon-wyrm"]));
    assert!(
        duplicate["message"]
            .as_str()
            .unwrap()
            .contains("move 1 copy to your binder")
    );
    let singles = &json["violations"][0];
    assert_eq!(singles["cards"].as_array().unwrap().len(), 8);
    assert_eq!(json["slots"][0]["count"], 9);
    assert_eq!(json["slots"][0]["limit"], 8);
}

#[test]
fn deques_limits_come_from_the_character() {
    let (_, json) = check_json(&["deck", "check"], "deck/legal-deques.yaml");
    assert_eq!(json["character"]["id"], "deques");
    assert_eq!(json["slots"][1]["limit"], 2);
    assert_eq!(json["slots"][2]["limit"], 3);
    let (_, json) = check_json(&["deck", "check"], "deck/deques-over.yaml");
    assert!(
        json["violations"][0]["message"]
            .as_str()
            .unwrap()
            .contains("for Deques Applenti is 2")
    );
}

#[test]
fn several_decks_give_json_lines_and_the_worst_exit_code() {
    let legal = fixture("deck/legal.yaml");
    let bad = fixture("deck/duplicate.yaml");
    let broken = fixture("deck/unknown-cards.yaml");
    let run = blades(&["deck", "check", "--format", "json", &legal, &bad]);
    assert_eq!(run.code, 1);
    let lines: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is one JSON object"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["legal"], true);
    assert_eq!(lines[1]["legal"], false);
    let run = blades(&["deck", "check", "--format", "json", &legal, &broken, &bad]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout.lines().count(), 3);
    let run = blades(&["deck", "check", &legal, &legal]);
    assert_eq!(run.code, 0);
}

#[test]
fn unknown_cards_are_all_reported_with_suggestions() {
    let (code, json) = check_json(&["deck", "check"], "deck/unknown-cards.yaml");
    assert_eq!(code, 2);
    assert_eq!(json["checked"], false);
    assert_eq!(json["legal"], false);
    let diagnostics = json["diagnostics"].as_array().unwrap();
    let found: Vec<(String, u64, u64, String)> = diagnostics
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
                d["column"].as_u64().unwrap(),
                d["help"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                "unknown-card".to_string(),
                2,
                5,
                "did you mean `Canyon Wyrm`?".to_string()
            ),
            (
                "unknown-card".to_string(),
                4,
                5,
                "did you mean `Tide Caller`?".to_string()
            ),
            (
                "unknown-card".to_string(),
                5,
                5,
                "check the spelling; a card is named by its name or its id".to_string()
            ),
        ]
    );
}

#[test]
fn human_diagnostics_go_to_stderr_with_the_position() {
    let run = blades(&["deck", "check", &fixture("deck/unknown-cards.yaml")]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("tests/fixtures/rules/deck/unknown-cards.yaml:2:5")
    );
    assert!(run.stdout.contains("not checked"));
    insta::assert_snapshot!("deck_unknown_cards_stderr", run.stderr);
}

#[test]
fn input_errors_exit_two() {
    for (file, code) in [
        ("deck/unknown-character.yaml", "unknown-character"),
        ("deck/malformed.yaml", "yaml-syntax"),
        ("deck/wrong-shape.yaml", "unknown-field"),
        ("deck/does-not-exist.yaml", "unreadable"),
    ] {
        let (exit, json) = check_json(&["deck", "check"], file);
        assert_eq!(exit, 2, "{file}");
        assert_eq!(json["diagnostics"][0]["code"], code, "{file}");
    }
    let (_, json) = check_json(&["deck", "check"], "deck/wrong-shape.yaml");
    assert_eq!(json["diagnostics"][1]["code"], "wrong-type");
    assert!(
        json["diagnostics"][0]["help"]
            .as_str()
            .unwrap()
            .contains("did you mean `character`?")
    );
}

#[test]
fn bad_arguments_and_broken_pools_exit_two() {
    let run = blades(&["deck", "check"]);
    assert_eq!(run.code, 2);
    let run = blades_with_stdin(
        &[
            "--cards",
            "tests/fixtures/rules/no-such-pool",
            "deck",
            "check",
            &fixture("deck/legal.yaml"),
        ],
        None,
    );
    assert_eq!(run.code, 2);
    let broken = tempfile::tempdir().unwrap();
    std::fs::write(
        broken.path().join("bad.yaml"),
        "id: bad\nname: Bad\nkind: expansion\ncards: []\n",
    )
    .unwrap();
    let run = blades_with_stdin(
        &[
            "--cards",
            broken.path().to_str().unwrap(),
            "deck",
            "check",
            &fixture("deck/legal.yaml"),
        ],
        None,
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("card pool has errors"));
}

#[test]
fn plain_text_comes_from_standard_input_too() {
    let run = blades_with_stdin(
        &["--cards", POOL, "deck", "check", "--format", "json", "-"],
        Some("character: deques\n2x Iron Case\n# a comment\nGear Sleeve\n"),
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let json = run.json();
    assert_eq!(json["file"], "<stdin>");
    assert_eq!(rules(&json), ["duplicate-card"]);
}

#[test]
fn card_references_ignore_case_space_width_and_apostrophes() {
    let run = blades_with_stdin(
        &["--cards", POOL, "deck", "check", "--format", "json", "-"],
        Some(
            "cards:\n  - \"  canyon   WYRM \"\n  - Ｄｕｓｔ Ｄｅｖｉｌ\n  - wyrm’s hoard\n  - tide-caller\n",
        ),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.json()["cards"],
        serde_json::json!(["canyon-wyrm", "dust-devil", "wyrms-hoard", "tide-caller"])
    );
}

#[test]
fn deck_human_output() {
    let run = blades(&[
        "deck",
        "check",
        &fixture("deck/legal.yaml"),
        &fixture("deck/nine-with-repeat.yaml"),
        &fixture("deck/deques-over.yaml"),
    ]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("deck_human", run.stdout);
}

// ------------------------------------------------------------ collection

#[test]
fn legal_collections_show_symbols_and_vp() {
    let (code, json) = check_json(&["collection", "check"], "collection/legal.yaml");
    assert_eq!(code, 0);
    assert_eq!(json["symbols"], serde_json::json!(["fire"]));
    assert_eq!(json["vp"], 7);
    assert!(json.get("rp").is_none());
    let (code, json) = check_json(&["collection", "check"], "collection/two-symbols.yaml");
    assert_eq!(code, 0);
    assert_eq!(json["symbols"], serde_json::json!(["water", "mage"]));
    assert_eq!(json["vp"], 2);
    let (code, json) = check_json(&["collection", "check"], "collection/legal.txt");
    assert_eq!(code, 0);
    assert_eq!(json["vp"], 7);
}

#[test]
fn duel_collections_score_ten_rp_a_card() {
    let (code, json) = check_json(&["collection", "check", "--duel"], "collection/legal.yaml");
    assert_eq!(code, 0);
    assert_eq!(json["rp"], 40);
    assert_eq!(json["duel"], true);
    assert!(json.get("vp").is_none());
}

#[test]
fn every_collection_rule_is_reported() {
    let cases: &[(&str, &[&str])] = &[
        ("collection/too-few.yaml", &["too-few-cards"]),
        (
            "collection/too-many.yaml",
            &["too-many-cards", "no-shared-symbol", "duplicate-star"],
        ),
        ("collection/pairwise-only.yaml", &["no-shared-symbol"]),
        ("collection/no-symbols.yaml", &["no-shared-symbol"]),
        ("collection/duplicate-star.yaml", &["duplicate-star"]),
        ("collection/declared-symbol.yaml", &["no-shared-symbol"]),
    ];
    for (file, expected) in cases {
        let (code, json) = check_json(&["collection", "check"], file);
        assert_eq!(code, 1, "{file}");
        assert_eq!(rules(&json), *expected, "{file}");
        assert!(json.get("vp").is_none(), "{file}");
    }
    let (_, json) = check_json(&["collection", "check"], "collection/pairwise-only.yaml");
    assert_eq!(
        json["violations"][0]["cards"],
        serde_json::json!(["abyss-queen"])
    );
    let (code, json) = check_json(&["collection", "check"], "collection/unknown-symbol.yaml");
    assert_eq!(code, 2);
    assert_eq!(json["diagnostics"][0]["code"], "unknown-symbol");
}

#[test]
fn collection_human_output() {
    let mut out = String::new();
    for file in [
        "collection/legal.yaml",
        "collection/two-symbols.yaml",
        "collection/pairwise-only.yaml",
        "collection/too-many.yaml",
    ] {
        out.push_str(&blades(&["collection", "check", &fixture(file)]).stdout);
    }
    insta::assert_snapshot!("collection_human", out);
}

#[test]
fn best_collection_of_a_binder() {
    let (code, json) = check_json(&["collection", "best"], "binder/binder.yaml");
    assert_eq!(code, 0);
    // Fire and water both make 5 cards; water's STARs add up to less.
    assert_eq!(json["symbol"], "water");
    assert_eq!(json["vp"], 9);
    assert_eq!(
        json["cards"],
        serde_json::json!([
            "reef-knight",
            "pearl-oracle",
            "rain-drummer",
            "coral-golem",
            "abyss-queen"
        ])
    );
    let (code, json) = check_json(&["collection", "best"], "binder/nothing.yaml");
    assert_eq!(code, 1);
    assert_eq!(rules(&json), ["no-collection"]);
}

#[test]
fn best_duel_pair_of_a_binder() {
    let (code, json) = check_json(&["collection", "best", "--duel"], "binder/binder.yaml");
    assert_eq!(code, 0);
    assert_eq!(json["rp"], 90);
    assert_eq!(json["element"]["symbol"], "water");
    assert_eq!(json["type"]["symbol"], "animal");
    assert_eq!(json["type"]["cards"].as_array().unwrap().len(), 4);
    assert!(json.get("vp").is_none());
    let run = blades(&[
        "collection",
        "best",
        "--duel",
        &fixture("binder/binder.txt"),
    ]);
    assert_eq!(run.code, 0);
    let run2 = blades(&["collection", "best", &fixture("binder/binder.yaml")]);
    insta::assert_snapshot!("best_human", format!("{}{}", run.stdout, run2.stdout));
}

// ------------------------------------------------------------------ trade

#[test]
fn even_trades_are_legal_with_friendship_on_top() {
    for file in ["trade/even.yaml", "trade/even.txt"] {
        let (code, json) = check_json(&["trade", "check"], file);
        assert_eq!(code, 0, "{file}: {json}");
        assert_eq!(json["a"]["value"], 6);
        assert_eq!(json["b"]["value"], 6);
        assert_eq!(json["difference"], 0);
        assert_eq!(json["balance"], Value::Null);
    }
}

#[test]
fn uneven_trades_say_what_would_balance_them() {
    let (code, json) = check_json(&["trade", "check"], "trade/uneven.yaml");
    assert_eq!(code, 1);
    assert_eq!(rules(&json), ["unequal-value"]);
    assert_eq!(json["a"]["value"], 9);
    assert_eq!(json["b"]["value"], 5);
    assert_eq!(json["b"]["friendship"], 2);
    assert_eq!(json["difference"], 4);
    assert_eq!(
        json["balance"],
        serde_json::json!({"side": "b", "amount": 4})
    );
    let (code, json) = check_json(&["trade", "check", "--free-market"], "trade/uneven.yaml");
    assert_eq!(code, 0);
    assert_eq!(json["legal"], true);
    assert_eq!(json["difference"], 4);
    let run = blades(&["trade", "check", &fixture("trade/uneven.yaml")]);
    insta::assert_snapshot!("trade_human", run.stdout);
}

#[test]
fn negative_amounts_and_missing_sides_are_input_errors() {
    let (code, json) = check_json(&["trade", "check"], "trade/negative.yaml");
    assert_eq!(code, 2);
    let codes: Vec<&str> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["negative-amount", "negative-amount"]);
    let (code, json) = check_json(&["trade", "check"], "trade/missing-side.yaml");
    assert_eq!(code, 2);
    assert_eq!(json["diagnostics"][0]["code"], "missing-field");
}

// ----------------------------------------------------------------- copies

#[test]
fn copies_within_the_sets_in_play_are_legal() {
    let (code, json) = check_json(&["copies", "check"], "copies/ok.yaml");
    assert_eq!(code, 0, "{json}");
    assert_eq!(
        json["sets"],
        serde_json::json!(["sunset-gulch", "tidal-court"])
    );
    assert_eq!(
        json["cards"][0],
        serde_json::json!({"id": "dust-devil", "owned": 3, "copies": 3})
    );
}

#[test]
fn too_many_copies_and_sets_not_in_play() {
    let (code, json) = check_json(&["copies", "check"], "copies/bad.yaml");
    assert_eq!(code, 1);
    assert_eq!(rules(&json), ["too-many-copies", "set-not-in-play"]);
    assert_eq!(
        json["violations"][1]["cards"],
        serde_json::json!(["moon-hare"])
    );
    // Plain text adds up repeated entries of one card.
    let (code, json) = check_json(&["copies", "check"], "copies/copies.txt");
    assert_eq!(code, 1);
    assert_eq!(rules(&json), ["too-many-copies"]);
    assert_eq!(json["cards"][2]["owned"], 4);
    let (code, json) = check_json(&["copies", "check"], "copies/unknown-set.yaml");
    assert_eq!(code, 2);
    assert_eq!(json["diagnostics"][0]["code"], "unknown-set");
    assert_eq!(
        json["diagnostics"][0]["help"],
        "did you mean `Sunset Gulch`?"
    );
    let run = blades(&["copies", "check", &fixture("copies/bad.yaml")]);
    insta::assert_snapshot!("copies_human", run.stdout);
}

#[test]
fn the_copy_manifest() {
    let run = blades(&["copies", "list", "Iron Ward"]);
    assert_eq!(run.code, 0);
    insta::assert_snapshot!("copies_list_human", run.stdout);
    let run = blades(&["copies", "list", "--format", "json"]);
    assert_eq!(run.code, 0);
    let json = run.json();
    assert_eq!(json["sets"].as_array().unwrap().len(), 4);
    assert_eq!(json["physical"], 12 + 12 + 12 + 6);
    let run = blades(&["copies", "list", "iron-wad"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("did you mean `Iron Ward`?"));
}

// ----------------------------------------------------------------- schemas

/// Every JSON result matches its published schema.
#[test]
fn json_results_match_their_schemas() {
    use blades::schema::SchemaName;
    let cases: &[(&[&str], &str, SchemaName)] = &[
        (
            &["deck", "check"],
            "deck/legal-deques.yaml",
            SchemaName::DeckCheck,
        ),
        (
            &["deck", "check"],
            "deck/nine-with-repeat.yaml",
            SchemaName::DeckCheck,
        ),
        (
            &["deck", "check"],
            "deck/unknown-cards.yaml",
            SchemaName::DeckCheck,
        ),
        (
            &["collection", "check"],
            "collection/legal.yaml",
            SchemaName::CollectionCheck,
        ),
        (
            &["collection", "check", "--duel"],
            "collection/too-many.yaml",
            SchemaName::CollectionCheck,
        ),
        (
            &["collection", "best"],
            "binder/binder.yaml",
            SchemaName::CollectionBest,
        ),
        (
            &["collection", "best", "--duel"],
            "binder/binder.yaml",
            SchemaName::CollectionBest,
        ),
        (
            &["collection", "best", "--duel"],
            "binder/nothing.yaml",
            SchemaName::CollectionBest,
        ),
        (
            &["trade", "check"],
            "trade/uneven.yaml",
            SchemaName::TradeCheck,
        ),
        (
            &["trade", "check"],
            "trade/negative.yaml",
            SchemaName::TradeCheck,
        ),
        (
            &["copies", "check"],
            "copies/bad.yaml",
            SchemaName::CopiesCheck,
        ),
    ];
    for (args, file, schema) in cases {
        let (_, json) = check_json(args, file);
        let validator = jsonschema::validator_for(&schema.generate()).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&json)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{file}: {errors:?}");
    }
    let run = blades(&["copies", "list", "--format", "json"]);
    let validator = jsonschema::validator_for(&SchemaName::CopiesList.generate()).unwrap();
    assert!(validator.is_valid(&run.json()));
}
