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
