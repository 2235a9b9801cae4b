//! `blades lsp`'s editing help end to end: formatting, semantic tokens and
//! completion, asked of the real binary over JSON-RPC and held against what
//! the commands of record do with the same files.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use common::lsp::{Client, apply_edits, offset_of, uri, workspace};
use common::{blades, root};

/// Every pool whose set files the formatting test formats: the build and
/// translation fixtures, `fmt`'s own, the fixes' and the server's.
fn pools() -> Vec<PathBuf> {
    let mut pools = common::fixture_pools();
    for pool in [
        "tests/fixtures/fmt/messy",
        "tests/fixtures/fmt/spellings",
        "tests/fixtures/fmt/broken",
        "tests/fixtures/fix/typos",
        "tests/fixtures/lsp/cards",
    ] {
        pools.push(root().join(pool));
    }
    pools
}

/// The pool's YAML files that are text, by path within the pool.
fn yaml_files(pool: &Path) -> BTreeMap<String, String> {
    common::files(pool)
        .into_iter()
        .filter(|(name, _)| name.ends_with(".yaml") || name.ends_with(".yml"))
        .filter_map(|(name, bytes)| Some((name, String::from_utf8(bytes).ok()?)))
        .collect()
}

/// What `blades fmt` writes to each YAML file of the pool: run on a copy;
/// while it refuses (an effect that does not parse), the files it names are
/// taken out of the pool, kept as they are, and it runs again.
fn formatted_by_blades(pool: &Path) -> BTreeMap<String, String> {
    let dir = workspace(pool);
    let cards = dir.path().join("cards");
    let mut refused = BTreeMap::new();
    loop {
        let run = blades(dir.path(), &["--format", "json", "fmt", "--cards", "cards"]);
        if run.code == 0 {
            break;
        }
        if run.code == 2 {
            // A pool with no set file (left) has nothing to format.
            let codes: Vec<Value> = run.json()["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f["code"].clone())
                .collect();
            assert_eq!(codes, ["no-sets"], "{}", pool.display());
            break;
        }
        let mut named = 0;
        for finding in run.json()["diagnostics"].as_array().unwrap() {
            let Some(file) = finding["file"].as_str() else {
                continue;
            };
            let relative = file.strip_prefix("cards/").unwrap();
            if let Ok(text) = std::fs::read_to_string(cards.join(relative)) {
                std::fs::remove_file(cards.join(relative)).unwrap();
                refused.insert(relative.to_string(), text);
                named += 1;
            }
        }
        assert!(
            named > 0,
            "{}: fmt refuses without naming a file",
            pool.display()
        );
    }
    let mut written = yaml_files(&cards);
    written.extend(refused);
    written
}

/// `textDocument/formatting` on a document: its edits.
fn formatting(client: &mut Client, path: &Path) -> Vec<Value> {
    let answer = client.request(
        "textDocument/formatting",
        json!({
            "textDocument": {"uri": uri(path)},
            "options": {"tabSize": 2, "insertSpaces": true},
        }),
    );
    answer["result"]
        .as_array()
        .unwrap_or_else(|| panic!("a list of edits: {answer}"))
        .clone()
}

#[test]
fn formatting_a_document_gives_what_blades_fmt_writes_on_every_fixture_pool() {
    let mut rewritten = 0;
    for pool in pools() {
        let want = formatted_by_blades(&pool);
        for encodings in [&[][..], &["utf-8"][..]] {
            let dir = workspace(&pool);
            let mut client = Client::start(dir.path(), encodings);
            assert_eq!(client.capabilities["documentFormattingProvider"], true);
            let utf8 = client.capabilities["positionEncoding"] == "utf-8";
            for (name, text) in yaml_files(&pool) {
                let path = dir.path().join("cards").join(&name);
                client.open(&path, &text);
                let edits = formatting(&mut client, &path);
                let formatted = apply_edits(&text, &edits, utf8);
                assert_eq!(formatted, want[&name], "{}: {name}", pool.display());
                // Nothing when the text is in canonical form already.
                rewritten += usize::from(!edits.is_empty());
                client.change(&path, &formatted);
                assert_eq!(
                    formatting(&mut client, &path),
                    Vec::<Value>::new(),
                    "{name}"
                );
            }
            assert_eq!(client.finish(), 0);
        }
    }
    assert!(rewritten >= 4, "the fixtures rewrite effects: {rewritten}");
}

#[test]
fn formatting_edits_only_the_effects_after_cjk_and_an_emoji() {
    let dir = workspace(&root().join("tests/fixtures/lsp/cards"));
    let path = dir.path().join("cards/tin-town.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let line = "  - {id: new-card, name: 新しい🦉, kind: single, stars: 1, effect: \"play:  gain 2 rp.\"}\n";
    let edited = text.replace("cards:\n", &format!("cards:\n{line}"));
    for (encodings, column) in [(&[][..], 64), (&["utf-8"][..], 72)] {
        let mut client = Client::start(dir.path(), encodings);
        client.open(&path, &edited);
        let edits = formatting(&mut client, &path);
        assert_eq!(
            edits,
            [json!({
                "range": {
                    "start": {"line": 6, "character": column},
                    "end": {"line": 6, "character": column + 19},
                },
                "newText": "\"Play: Gain 2 RP.\"",
            })],
            "{encodings:?}"
        );
        // A syntax error anywhere in the file: no edits, and no error.
        client.change(&path, &edited.replace("gain 2 rp", "gian 2 rp"));
        assert_eq!(formatting(&mut client, &path), Vec::<Value>::new());
        assert_eq!(client.finish(), 0);
    }
}

/// The semantic tokens of a document as (text, type) pairs, the text cut
/// from the document where each token's position and length say.
fn tokens(client: &mut Client, path: &Path, text: &str) -> Vec<(String, String)> {
    let utf8 = client.capabilities["positionEncoding"] == "utf-8";
    let legend = client.capabilities["semanticTokensProvider"]["legend"]["tokenTypes"].clone();
    let answer = client.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": uri(path)}}),
    );
    let data: Vec<u64> = answer["result"]["data"]
        .as_array()
        .unwrap_or_else(|| panic!("tokens: {answer}"))
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    let (mut line, mut column) = (0, 0);
    data.chunks(5)
        .map(|token| {
            line += token[0];
            column = if token[0] == 0 {
                column + token[1]
            } else {
                token[1]
            };
            let at = |character| json!({"line": line, "character": character});
            let start = offset_of(text, &at(column), utf8);
            let end = offset_of(text, &at(column + token[2]), utf8);
            let kind = legend[token[3] as usize].as_str().unwrap().to_string();
            (text[start..end].to_string(), kind)
        })
        .collect()
}

#[test]
fn effect_words_are_coloured_after_cjk_and_an_emoji_in_both_encodings() {
    let dir = workspace(&root().join("tests/fixtures/lsp/cards"));
    let path = dir.path().join("cards/tin-town.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let cards = concat!(
        "cards:\n",
        "  - {id: dragon, name: 竜🐉, kind: single, stars: 1, effect: \"Play:\\tGain 2 RP for each fire card in your tableau.\"}\n",
        "  - id: owl\n",
        "    name: 梟\n",
        "    kind: single\n",
        "    stars: 2\n",
        "    effect: |\n",
        "      Scurry.\n",
        "      Reaction (when an opponent flips this card): Gian 1 VP.\n",
        "      Ongoing: Each opponent cannot gain RP.\n",
    );
    let edited = text.replace("cards:\n", cards);
    let want = [
        ("Play", "keyword"),
        ("2", "number"),
        ("RP", "enumMember"),
        ("fire", "type"),
        ("card", "class"),
        ("your", "variable"),
        ("Scurry", "macro"),
        // The Reaction's line does not parse (`Gian`): nothing on it.
        ("Ongoing", "keyword"),
        ("opponent", "variable"),
        ("RP", "enumMember"),
        // The fixture's own effect, further down.
        ("Play", "keyword"),
        ("1", "number"),
        ("RP", "enumMember"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(word, kind)| (word.to_string(), kind.to_string()))
        .collect();
    for encodings in [&[][..], &["utf-8"][..]] {
        let mut client = Client::start(dir.path(), encodings);
        let legend = &client.capabilities["semanticTokensProvider"]["legend"];
        assert_eq!(
            legend["tokenTypes"].as_array().unwrap().len(),
            7,
            "{legend}"
        );
        client.open(&path, &edited);
        assert_eq!(tokens(&mut client, &path, &edited), want, "{encodings:?}");
        // A file with no effects has none.
        let keywords = dir.path().join("cards/keywords.yaml");
        let text = std::fs::read_to_string(&keywords).unwrap();
        assert_eq!(tokens(&mut client, &keywords, &text), []);
        assert_eq!(client.finish(), 0);
    }
}

/// The completions at the first `§` of `text`, opened (with `§` taken
/// out) as the document at `path`: each label with the text its edit puts
/// over the range it names, and that range's text.
struct Completions {
    items: Vec<Value>,
    incomplete: bool,
    /// Each item's label, what it inserts and the text it replaces.
    edits: Vec<(String, String, String)>,
}

impl Completions {
    fn labels(&self) -> Vec<&str> {
        self.items
            .iter()
            .map(|i| i["label"].as_str().unwrap())
            .collect()
    }

    fn item(&self, label: &str) -> &Value {
        self.items
            .iter()
            .find(|i| i["label"] == label)
            .unwrap_or_else(|| panic!("no `{label}` in {:?}", self.labels()))
    }
}

fn complete_at(client: &mut Client, path: &Path, marked: &str) -> Completions {
    let utf8 = client.capabilities["positionEncoding"] == "utf-8";
    let offset = marked.find('§').expect("a cursor");
    let text = marked.replacen('§', "", 1);
    client.open(path, &text);
    let line = text[..offset].matches('\n').count();
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let column = match utf8 {
        true => offset - line_start,
        false => text[line_start..offset].encode_utf16().count(),
    };
    let answer = client.request(
        "textDocument/completion",
        json!({
            "textDocument": {"uri": uri(path)},
            "position": {"line": line, "character": column},
        }),
    );
    let result = &answer["result"];
    let items = result["items"]
        .as_array()
        .unwrap_or_else(|| panic!("a completion list: {answer}"))
        .clone();
    let edits = items
        .iter()
        .map(|item| {
            let edit = &item["textEdit"];
            let start = offset_of(&text, &edit["range"]["start"], utf8);
            let end = offset_of(&text, &edit["range"]["end"], utf8);
            assert_eq!(end, offset, "{item}");
            let label = item["label"].as_str().unwrap().to_string();
            let new = edit["newText"].as_str().unwrap().to_string();
            (label, new, text[start..end].to_string())
        })
        .collect();
    Completions {
        items,
        incomplete: result["isIncomplete"] == true,
        edits,
    }
}

/// The set schema the repository ships (what `blades schema` writes).
fn set_schema() -> Value {
    let text = std::fs::read_to_string(root().join("schema/set.schema.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn sorted(mut list: Vec<String>) -> Vec<String> {
    list.sort();
    list
}

#[test]
fn set_file_keys_and_values_come_from_the_schema_and_the_pool() {
    let dir = workspace(&root().join("tests/fixtures/lsp/cards"));
    let path = dir.path().join("cards/tin-town.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let schema = set_schema();
    let keys = |pointer: &str| -> Vec<String> {
        let properties = schema.pointer(pointer).unwrap().as_object().unwrap();
        sorted(properties.keys().cloned().collect())
    };
    for encodings in [&[][..], &["utf-8"][..]] {
        let mut client = Client::start(dir.path(), encodings);
        assert!(client.capabilities["completionProvider"].is_object());
        // A card's keys, half typed, with the schema's descriptions.
        let marked = text.replace("    stars: 1\n", "    stars: 1\n    st§\n");
        let found = complete_at(&mut client, &path, &marked);
        let labels: Vec<String> = found.labels().iter().map(|l| l.to_string()).collect();
        assert_eq!(sorted(labels), keys("/$defs/CardSource/properties"));
        assert_eq!(
            found.item("stars")["documentation"],
            schema["$defs"]["CardSource"]["properties"]["stars"]["description"]
        );
        assert!(
            found
                .edits
                .contains(&("stars".into(), "stars: ".into(), "st".into()))
        );
        // The set's keys at the top.
        let found = complete_at(&mut client, &path, &format!("{text}co§"));
        let labels: Vec<String> = found.labels().iter().map(|l| l.to_string()).collect();
        assert_eq!(sorted(labels), keys("/properties"));
        // A card's kind in a flow mapping after CJK and an emoji: the
        // schema's enum, the range the typed `si` in either encoding.
        let marked = text.replace(
            "cards:\n",
            "cards:\n  - {id: dragon, name: 竜🐉, kind: si§\n",
        );
        let found = complete_at(&mut client, &path, &marked);
        assert_eq!(
            found.labels(),
            ["single", "deck-box", "accessory", "venue", "character"]
        );
        assert!(
            found
                .edits
                .contains(&("single".into(), "single".into(), "si".into()))
        );
        // Elements in a flow list, types in a block list: the pool's own
        // type (`duelist`, declared by `champion.yaml`) among them.
        let marked = text.replace("[water, fire]", "[water, §]");
        let found = complete_at(&mut client, &path, &marked);
        assert_eq!(
            found.labels(),
            ["fire", "air", "light", "water", "earth", "dark"]
        );
        let marked = text.replace(
            "    types: [mage]\n",
            "    types:\n      - mage\n      - §\n",
        );
        let found = complete_at(&mut client, &path, &marked);
        let mut types: Vec<&str> = blades::words::BASE_TYPES.to_vec();
        types.push("duelist");
        types.sort();
        assert_eq!(found.labels(), types);
        assert_eq!(client.finish(), 0);
    }
}

#[test]
fn effects_complete_timing_words_and_the_pools_keywords_at_a_line_start() {
    let dir = workspace(&root().join("tests/fixtures/build/own-keywords"));
    let path = dir.path().join("cards/gears.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut client = Client::start(dir.path(), &[]);
    let mut want: Vec<String> = blades::effect::Timing::ALL
        .iter()
        .map(|t| t.word().to_string())
        .collect();
    let builtin = blades::effect::Keywords::builtin();
    want.extend(builtin.iter().map(|k| k.name.en.clone()));
    want.push("Gear Up".to_string());
    let want = sorted(want);
    let block = "    effect: |\n      Scurry.\n      §\n";
    for marked in [
        text.replace("effect: \"Gear Up.\"", "effect: \"§"),
        text.replace("effect: \"Gear Up.\"}", "flavor: x}\n  - id: g3\n")
            .replace("  - id: g3\n", &format!("  - id: g3\n{block}")),
    ] {
        let found = complete_at(&mut client, &path, &marked);
        let labels = found.labels().iter().map(|l| l.to_string()).collect();
        assert_eq!(sorted(labels), want, "{marked}");
        let gear_up = found.item("Gear Up");
        assert_eq!(gear_up["documentation"], "Play: Gain 2 RP.");
        assert_eq!(gear_up["detail"], "keyword · ギアアップ");
    }
    // Further on in a line: elements and types.
    let marked = text.replace(
        "effect: \"Gear Up.\"",
        "effect: \"Play: Gain 1 RP for each fi§",
    );
    let found = complete_at(&mut client, &path, &marked);
    assert!(found.labels().contains(&"fire") && found.labels().contains(&"construct"));
    assert!(!found.labels().contains(&"Play"));
    assert!(
        found
            .edits
            .contains(&("fire".into(), "fire".into(), "fi".into()))
    );
    assert_eq!(client.finish(), 0);
}

#[test]
fn player_inputs_and_formats_complete_the_pools_cards() {
    let dir = workspace(&root().join("tests/fixtures/lsp/cards"));
    let mut client = Client::start(dir.path(), &[]);
    // A deck as text and as YAML, beside the pool: names after the count.
    let deck = dir.path().join("deck.txt");
    let found = complete_at(&mut client, &deck, "# mine\n2x Rivet Hound\n3x Cl§\n");
    assert_eq!(found.labels(), ["Clockwork Titan"]);
    assert_eq!(
        found.edits[0],
        (
            "Clockwork Titan".into(),
            "Clockwork Titan".into(),
            "Cl".into()
        )
    );
    assert_eq!(
        found.item("Clockwork Titan")["detail"],
        "clockwork-titan · single · 7 STAR · tin-town"
    );
    let found = complete_at(&mut client, &deck, "character: §\n");
    assert_eq!(found.labels(), Vec::<&str>::new());
    let deck = dir.path().join("deck.yaml");
    let found = complete_at(&mut client, &deck, "cards:\n  - 2x Brass Owl\n  - Hou§\n");
    assert_eq!(found.labels(), ["Rivet Hound"]);
    assert_eq!(found.edits[0].2, "Hou");
    // A trade as text (its sides' headers are no card lines) and a
    // collection as YAML.
    let trade = dir.path().join("trade.txt");
    let found = complete_at(
        &mut client,
        &trade,
        "a:\n2x Rivet Hound\ndollars: 3\nb:\n1 Cl§\n",
    );
    assert_eq!(found.labels(), ["Clockwork Titan"]);
    let found = complete_at(&mut client, &trade, "a:\ndollars: §\n");
    assert_eq!(found.labels(), Vec::<&str>::new());
    let collection = dir.path().join("collection.yaml");
    let found = complete_at(&mut client, &collection, "symbol: fire\ncards:\n  - Bra§\n");
    assert_eq!(found.labels(), ["Brass Owl"]);
    // Every card of the pool when nothing is typed yet.
    let found = complete_at(&mut client, &deck, "cards: [§]\n");
    assert!(
        found.labels().len() >= 7 && !found.incomplete,
        "{:?}",
        found.labels()
    );
    // A format names cards by id.
    let format = dir.path().join("cards/formats/cube.yaml");
    let marked =
        "formats:\n  - id: cube\n    bounds:\n      - {where: {card: [brass-owl, ri§]}, max: 0}\n";
    let found = complete_at(&mut client, &format, marked);
    assert_eq!(found.labels(), ["rivet-hound"]);
    assert_eq!(client.finish(), 0);
}

#[test]
fn japanese_translations_complete_the_glossarys_official_terms() {
    let dir = workspace(&root().join("tests/fixtures/lsp/cards"));
    let path = dir.path().join("cards/locales/ja/tin-town.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    for encodings in [&[][..], &["utf-8"][..]] {
        let mut client = Client::start(dir.path(), encodings);
        let found = complete_at(
            &mut client,
            &path,
            &format!("{text}cards:\n  rivet-hound:\n    effect: \"🐉プレイ：デッキ§"),
        );
        let glossary = blades::i18n::glossary::Glossary::builtin();
        let box_term = glossary.official_for("deck box").unwrap();
        let item = found.item(box_term);
        assert_eq!(item["detail"], "Deck Box");
        // The Japanese typed since the last punctuation is what is replaced.
        assert!(
            found
                .edits
                .contains(&(box_term.into(), box_term.into(), "デッキ".into()))
        );
        assert_eq!(
            found.labels().len(),
            glossary
                .terms
                .iter()
                .filter(|t| !t.official().is_empty())
                .count()
        );
        assert_eq!(client.finish(), 0);
    }
}
