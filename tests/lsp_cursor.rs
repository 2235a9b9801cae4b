//! `blades lsp` and the thing under the cursor, end to end: hover,
//! go to definition, find references and rename, asked of the real binary
//! over JSON-RPC on `tests/fixtures/lsp-cursor` (a pool that builds clean,
//! a format, a translation, and player inputs beside the pool), each
//! answer held against what the commands print for the same card.

mod common;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use common::lsp::{Client, uri};
use common::{blades, copy_dir, root};

fn fixture() -> PathBuf {
    root().join("tests/fixtures/lsp-cursor")
}

/// The fixture's pool as `cards/` in a new workspace folder, its player
/// inputs beside it.
fn workspace() -> tempfile::TempDir {
    let temp = common::lsp::workspace(&fixture().join("cards"));
    copy_dir(&fixture().join("inputs"), temp.path());
    temp
}

/// The position of the first `needle` (after `after`, when given) in a
/// file, in UTF-16 units or UTF-8 bytes, `into` bytes into the needle.
fn position_in(text: &str, after: &str, needle: &str, into: usize, utf8: bool) -> Value {
    let from = text.find(after).expect("`after` is in the text");
    let offset = from
        + text[from..]
            .find(needle)
            .expect("the needle is in the text")
        + into;
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..start].matches('\n').count();
    let column = match utf8 {
        true => offset - start,
        false => text[start..offset].encode_utf16().count(),
    };
    json!({"line": line, "character": column})
}

/// A request at `needle` in `file` (UTF-16 positions).
fn at(dir: &Path, file: &str, after: &str, needle: &str) -> Value {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    json!({
        "textDocument": {"uri": uri(&path)},
        "position": position_in(&text, after, needle, needle.chars().next().unwrap().len_utf8(), false),
    })
}

fn hover_text(client: &mut Client, params: Value) -> String {
    let answer = client.request("textDocument/hover", params);
    assert!(answer.get("error").is_none(), "{answer}");
    let contents = &answer["result"]["contents"];
    assert_eq!(contents["kind"], "markdown", "{answer}");
    contents["value"].as_str().unwrap().to_string()
}

/// Every place the fixture names Rivet Hound: (file, text before, needle).
const RIVET_HOUND: [(&str, &str, &str); 8] = [
    ("cards/tin-town.yaml", "", "rivet-hound"),
    ("cards/tin-town.yaml", "", "Rivet Hound"),
    ("cards/locales/ja/tin-town.yaml", "", "rivet-hound"),
    ("cards/formats/hounds.yaml", "", "rivet-hound"),
    ("deck.txt", "2 ", "Rivet Hound"),
    ("deck.txt", "", "リベット犬"),
    ("deck.txt", "犬", "rivet-hound"),
    ("trade.yaml", "", "rivet-hound"),
];

#[test]
fn each_capability_is_advertised() {
    let dir = workspace();
    let client = Client::start(dir.path(), &[]);
    let capabilities = client.capabilities.clone();
    for capability in ["hoverProvider", "definitionProvider", "referencesProvider"] {
        assert_eq!(
            capabilities[capability], true,
            "{capability}: {capabilities}"
        );
    }
    assert_eq!(
        capabilities["renameProvider"],
        json!({"prepareProvider": true})
    );
    assert_eq!(client.finish(), 0);
}

#[test]
fn a_card_anywhere_hovers_as_card_show_prints_it() {
    let dir = workspace();
    let shown = blades(dir.path(), &["card", "show", "rivet-hound"]);
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    let mut client = Client::start(dir.path(), &[]);
    for (file, after, needle) in RIVET_HOUND {
        let hover = hover_text(&mut client, at(dir.path(), file, after, needle));
        assert_eq!(
            hover,
            format!("```text\n{}```", shown.stdout),
            "{file}: {needle}"
        );
    }
    assert_eq!(client.finish(), 0);
}

#[test]
fn a_hovered_cards_face_is_linked_once_drawn() {
    let dir = workspace();
    let mut client = Client::start(dir.path(), &[]);
    let params = at(dir.path(), "deck.txt", "", "Cog Sentry");
    assert!(!hover_text(&mut client, params.clone()).contains("[face]"));
    let drawn = blades(dir.path(), &["render", "cog-sentry"]);
    assert_eq!(drawn.code, 0, "{}", drawn.stderr);
    let face = dir.path().join("dist/faces/cog-sentry.en.svg");
    assert!(face.is_file());
    // The index is kept until a document changes: opening one reads again.
    let deck = dir.path().join("deck.txt");
    client.open(&deck, &std::fs::read_to_string(&deck).unwrap());
    let hover = hover_text(&mut client, params);
    assert!(
        hover.ends_with(&format!("\n\n[face]({})", uri(&face))),
        "{hover}"
    );
    assert_eq!(client.finish(), 0);
}

#[test]
fn an_effect_hovers_as_printed_in_both_languages_with_its_timing_explained() {
    let dir = workspace();
    let mut client = Client::start(dir.path(), &[]);
    let hover = hover_text(
        &mut client,
        at(dir.path(), "cards/tin-town.yaml", "", "Ongoing"),
    );
    let effect = "Scurry.\nTinker.\nOngoing: Adjacent cards cannot be flipped.\n";
    for lang in ["en", "ja"] {
        let rendered = blades(dir.path(), &["effect", "render", "--lang", lang, effect]);
        assert_eq!(rendered.code, 0, "{}", rendered.stderr);
        assert!(
            hover.contains(rendered.stdout.trim()),
            "{lang}:\n{hover}\n---\n{}",
            rendered.stdout
        );
    }
    assert!(
        hover.ends_with("**Ongoing** (持続): while the card is face-up in your tableau"),
        "{hover}"
    );
    assert_eq!(client.finish(), 0);
}

#[test]
fn a_keyword_hovers_with_its_reminder_in_both_languages() {
    let dir = workspace();
    let mut client = Client::start(dir.path(), &[]);
    for (keyword, ja) in [("Scurry", "ちょこまか"), ("Tinker", "いじくり")] {
        let hover = hover_text(
            &mut client,
            at(dir.path(), "cards/tin-town.yaml", "effect", keyword),
        );
        for lang in ["en", "ja"] {
            let line = format!("{keyword}.");
            let rendered = blades(dir.path(), &["effect", "render", "--lang", lang, &line]);
            assert!(
                hover.contains(rendered.stdout.trim()),
                "{keyword} {lang}:\n{hover}"
            );
        }
        assert!(
            hover.starts_with(&format!("**{keyword}** ({ja})")),
            "{hover}"
        );
    }
    assert_eq!(client.finish(), 0);
}

/// The flavor's `プレイエリア` comes after CJK text and an emoji: its range
/// counts 🐉 as two UTF-16 units, or four bytes for a UTF-8 client.
#[test]
fn a_japanese_term_hovers_with_the_official_english_after_cjk_and_an_emoji() {
    let dir = workspace();
    let path = dir.path().join("cards/locales/ja/tin-town.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    for (encodings, utf8) in [(&[][..], false), (&["utf-8"][..], true)] {
        let mut client = Client::start(dir.path(), encodings);
        let params = json!({
            "textDocument": {"uri": uri(&path)},
            "position": position_in(&text, "竜🐉", "エリア", 0, utf8),
        });
        let answer = client.request("textDocument/hover", params);
        let value = answer["result"]["contents"]["value"].as_str().unwrap();
        assert!(
            value.starts_with("**プレイエリア**: official Japanese of `tableau`"),
            "{value}"
        );
        let start = position_in(&text, "竜🐉", "プレイエリア", 0, utf8);
        let end = position_in(&text, "竜🐉", "のやかん", 0, utf8);
        assert_eq!(
            answer["result"]["range"],
            json!({"start": start, "end": end})
        );
        assert_eq!(client.finish(), 0);
    }
}

#[test]
fn unsaved_text_is_what_is_hovered() {
    let dir = workspace();
    let mut client = Client::start(dir.path(), &[]);
    let deck = dir.path().join("deck.txt");
    // On disk the first line is a comment; in the editor, a card.
    client.open(&deck, "Steam Sage\n");
    let params = json!({
        "textDocument": {"uri": uri(&deck)},
        "position": {"line": 0, "character": 2},
    });
    let hover = hover_text(&mut client, params);
    assert!(hover.contains("Steam Sage"), "{hover}");
    assert_eq!(client.finish(), 0);
}

#[test]
fn nothing_to_say_is_null() {
    let dir = workspace();
    let mut client = Client::start(dir.path(), &[]);
    for (file, needle) in [
        ("cards/tin-town.yaml", "kind: expansion"),
        ("deck.txt", "# A deck"),
    ] {
        let answer = client.request("textDocument/hover", at(dir.path(), file, "", needle));
        assert_eq!(answer["result"], Value::Null, "{file}: {answer}");
    }
    // A request the server cannot read is answered with an error.
    for method in ["textDocument/hover", "textDocument/rename"] {
        let answer = client.request(method, json!({"textDocument": 3}));
        assert_eq!(answer["error"]["code"], -32602, "{answer}");
    }
    assert_eq!(client.finish(), 0);
}

/// The range of the first `needle` (after `after`) in a file.
fn range_in(text: &str, after: &str, needle: &str) -> Value {
    json!({
        "start": position_in(text, after, needle, 0, false),
        "end": position_in(text, after, needle, needle.len(), false),
    })
}

#[test]
fn a_card_anywhere_goes_to_its_id_in_its_set_file() {
    let dir = workspace();
    let set = dir.path().join("cards/tin-town.yaml");
    let text = std::fs::read_to_string(&set).unwrap();
    let expected = json!({"uri": uri(&set), "range": range_in(&text, "", "rivet-hound")});
    let mut client = Client::start(dir.path(), &[]);
    for (file, after, needle) in RIVET_HOUND {
        let answer = client.request(
            "textDocument/definition",
            at(dir.path(), file, after, needle),
        );
        assert_eq!(answer["result"], expected, "{file}: {needle}");
    }
    assert_eq!(client.finish(), 0);
}

#[test]
fn a_keyword_goes_to_the_pools_keyword_table_and_a_built_in_one_nowhere() {
    let dir = workspace();
    let table = dir.path().join("cards/keywords.yaml");
    let text = std::fs::read_to_string(&table).unwrap();
    let mut client = Client::start(dir.path(), &[]);
    let answer = client.request(
        "textDocument/definition",
        at(dir.path(), "cards/tin-town.yaml", "effect", "Tinker"),
    );
    let expected = json!({"uri": uri(&table), "range": range_in(&text, "", "\"tinker\"")});
    assert_eq!(answer["result"], expected);
    for (file, after, needle) in [
        ("cards/tin-town.yaml", "effect", "Scurry"),
        ("cards/tin-town.yaml", "effect", "Ongoing"),
        ("cards/locales/ja/tin-town.yaml", "", "プレイエリア"),
        ("deck.txt", "", "# A deck"),
    ] {
        let answer = client.request(
            "textDocument/definition",
            at(dir.path(), file, after, needle),
        );
        assert_eq!(answer["result"], Value::Null, "{needle}: {answer}");
        assert!(answer.get("error").is_none(), "{answer}");
    }
    assert_eq!(client.finish(), 0);
}

/// The locations of `needles` ((file, after, needle)), sorted.
fn locations(dir: &Path, needles: &[(&str, &str, &str)]) -> Vec<Value> {
    let mut found: Vec<Value> = needles
        .iter()
        .map(|(file, after, needle)| {
            let path = dir.join(file);
            let text = std::fs::read_to_string(&path).unwrap();
            json!({"uri": uri(&path), "range": range_in(&text, after, needle)})
        })
        .collect();
    found.sort_by_key(Value::to_string);
    found
}

fn references(client: &mut Client, mut params: Value, declaration: bool) -> Vec<Value> {
    params["context"] = json!({"includeDeclaration": declaration});
    let answer = client.request("textDocument/references", params);
    let mut found = answer["result"].as_array().expect("a list").clone();
    found.sort_by_key(Value::to_string);
    found
}

#[test]
fn a_cards_references_are_found_in_every_kind_of_file_from_any_of_them() {
    let dir = workspace();
    let mut client = Client::start(dir.path(), &[]);
    let every = locations(dir.path(), &RIVET_HOUND);
    let uses = locations(dir.path(), &RIVET_HOUND[2..]);
    for (file, after, needle) in RIVET_HOUND {
        let params = at(dir.path(), file, after, needle);
        assert_eq!(
            references(&mut client, params.clone(), true),
            every,
            "{file}: {needle}"
        );
        assert_eq!(
            references(&mut client, params, false),
            uses,
            "{file}: {needle}"
        );
    }
    assert_eq!(client.finish(), 0);
}

#[test]
fn references_read_the_unsaved_text_of_open_documents() {
    let dir = workspace();
    let mut client = Client::start(dir.path(), &[]);
    let deck = dir.path().join("deck.txt");
    client.open(&deck, "Cog Sentry\n");
    client.change(&deck, "Cog Sentry\nRivet Hound x2\n");
    let set = dir.path().join("cards/tin-town.yaml");
    let params = at(dir.path(), "cards/tin-town.yaml", "", "rivet-hound");
    let found = references(&mut client, params, true);
    let in_deck: Vec<&Value> = found.iter().filter(|l| l["uri"] == uri(&deck)).collect();
    let line = json!({"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 11}});
    assert_eq!(in_deck, [&json!({"uri": uri(&deck), "range": line})]);
    // A card added in an open set file, not saved, is found in the deck.
    let text = std::fs::read_to_string(&set).unwrap();
    let added = text.replace(
        "  - id: gear-case",
        "  - {id: tin-pup, name: Tin Pup, kind: single, stars: 1}\n  - id: gear-case",
    );
    client.open(&set, &added);
    client.change(&deck, "Tin Pup\n");
    let params = json!({
        "textDocument": {"uri": uri(&deck)},
        "position": {"line": 0, "character": 1},
    });
    let found = references(&mut client, params, true);
    assert_eq!(found.len(), 3, "{found:?}");
    assert_eq!(client.finish(), 0);
}

/// The byte offset of a UTF-16 position in `text`.
fn offset_of(text: &str, at: &Value) -> usize {
    let line = at["line"].as_u64().unwrap() as usize;
    let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    let mut units = at["character"].as_u64().unwrap() as usize;
    let mut offset = start;
    for c in text[start..].chars() {
        if units == 0 {
            break;
        }
        units -= c.len_utf16();
        offset += c.len_utf8();
    }
    offset
}

/// Makes a workspace edit's changes in the files; the files changed.
fn apply(edit: &Value) -> Vec<PathBuf> {
    let mut changed = Vec::new();
    for (file, edits) in edit["changes"].as_object().expect("changes by file") {
        let path = PathBuf::from(file.strip_prefix("file://").unwrap().replace("%20", " "));
        let mut text = std::fs::read_to_string(&path).unwrap();
        let mut edits: Vec<(usize, usize, String)> = edits
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                let start = offset_of(&text, &e["range"]["start"]);
                let end = offset_of(&text, &e["range"]["end"]);
                (start, end, e["newText"].as_str().unwrap().to_string())
            })
            .collect();
        edits.sort();
        for (start, end, new) in edits.into_iter().rev() {
            text.replace_range(start..end, &new);
        }
        std::fs::write(&path, text).unwrap();
        changed.push(path);
    }
    changed.sort();
    changed
}

fn rename(client: &mut Client, mut params: Value, new: &str) -> Value {
    params["newName"] = json!(new);
    client.request("textDocument/rename", params)
}

/// After the edit, the pool builds and its translations check clean,
/// the old id is written nowhere, and the new one is found where the old
/// one was (names left as they are).
#[test]
fn renaming_an_id_changes_it_in_every_file_and_the_pool_builds_clean() {
    for (new, written) in [("brass-hound", "brass-hound"), ("true", "\"true\"")] {
        let dir = workspace();
        let mut client = Client::start(dir.path(), &[]);
        let params = at(
            dir.path(),
            "cards/locales/ja/tin-town.yaml",
            "",
            "rivet-hound",
        );
        let prepared = client.request("textDocument/prepareRename", params.clone());
        let text =
            std::fs::read_to_string(dir.path().join("cards/locales/ja/tin-town.yaml")).unwrap();
        assert_eq!(
            prepared["result"],
            json!({"range": range_in(&text, "", "rivet-hound"), "placeholder": "rivet-hound"})
        );
        let answer = rename(&mut client, params, new);
        assert!(answer.get("error").is_none(), "{answer}");
        let changed = apply(&answer["result"]);
        assert_eq!(changed.len(), 5, "{changed:?}");
        assert_eq!(client.finish(), 0);
        for path in &changed {
            let text = std::fs::read_to_string(path).unwrap();
            assert!(!text.contains("rivet-hound"), "{}:\n{text}", path.display());
        }
        let set = std::fs::read_to_string(dir.path().join("cards/tin-town.yaml")).unwrap();
        assert!(
            set.contains(&format!("- id: {written}\n    name: Rivet Hound")),
            "{set}"
        );
        let deck = std::fs::read_to_string(dir.path().join("deck.txt")).unwrap();
        assert!(
            deck.contains(&format!("2 Rivet Hound\nリベット犬 x1\n{new}\n")),
            "{deck}"
        );
        let out = dir.path().join("out.json");
        let built = blades(
            dir.path(),
            &["build", "--no-cache", "--out", out.to_str().unwrap()],
        );
        assert_eq!(built.code, 0, "{new}: {}", built.stderr);
        assert!(!built.stderr.contains("warning"), "{}", built.stderr);
        let checked = blades(dir.path(), &["i18n", "check"]);
        assert_eq!(checked.code, 0, "{}", checked.stderr);
        assert!(
            checked.stderr.contains("no problems found"),
            "{}",
            checked.stderr
        );
        let shown = blades(dir.path(), &["card", "show", new]);
        assert!(
            shown.stdout.starts_with("Rivet Hound\nリベット犬\n"),
            "{}",
            shown.stdout
        );
        let mut client = Client::start(dir.path(), &[]);
        let found = references(&mut client, at(dir.path(), "deck.txt", "2 ", "Rivet"), true);
        assert_eq!(found.len(), RIVET_HOUND.len(), "{found:?}");
        assert_eq!(client.finish(), 0);
    }
}

#[test]
fn a_rename_to_an_invalid_or_taken_id_or_from_a_name_is_refused() {
    let dir = workspace();
    let mut client = Client::start(dir.path(), &[]);
    let params = at(dir.path(), "cards/tin-town.yaml", "", "rivet-hound");
    for (new, said) in [
        (
            "Brass Hound",
            "`Brass Hound` is not a card id: an id is kebab-case",
        ),
        ("brass--hound", "`brass--hound` is not a card id"),
        (
            "cog-sentry",
            "`cog-sentry` is taken: the card `Cog Sentry` in ",
        ),
    ] {
        let answer = rename(&mut client, params.clone(), new);
        assert_eq!(answer["error"]["code"], -32803, "{answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.starts_with(said), "{message}");
    }
    for (file, after, needle) in [
        ("cards/tin-town.yaml", "", "Rivet Hound"),
        ("deck.txt", "2 ", "Rivet Hound"),
        ("cards/tin-town.yaml", "effect", "Scurry"),
    ] {
        let params = at(dir.path(), file, after, needle);
        let answer = client.request("textDocument/prepareRename", params.clone());
        assert_eq!(answer["error"]["code"], -32803, "{answer}");
        let answer = rename(&mut client, params, "brass-hound");
        assert_eq!(answer["error"]["code"], -32803, "{answer}");
    }
    // Nowhere near a card: nothing to rename, no error.
    let answer = client.request(
        "textDocument/prepareRename",
        at(dir.path(), "deck.txt", "", "# A deck"),
    );
    assert_eq!(answer["result"], Value::Null, "{answer}");
    assert_eq!(client.finish(), 0);
}

/// While a set file being typed has an error, a card hovers as the last
/// clean build had it; with no clean build yet, the hover says so.
#[test]
fn a_pool_that_does_not_build_hovers_its_last_build() {
    let dir = workspace();
    let shown = blades(dir.path(), &["card", "show", "cog-sentry"]).stdout;
    let set = dir.path().join("cards/tin-town.yaml");
    let broken = std::fs::read_to_string(&set)
        .unwrap()
        .replace("elements: [water, fire]", "elements: [watr, fire]");
    let params = at(dir.path(), "deck.txt", "", "Cog Sentry");
    let mut client = Client::start(dir.path(), &[]);
    assert_eq!(
        hover_text(&mut client, params.clone()),
        format!("```text\n{shown}```")
    );
    client.open(&set, &broken);
    assert_eq!(
        hover_text(&mut client, params.clone()),
        format!("```text\n{shown}```")
    );
    assert_eq!(client.finish(), 0);
    let mut client = Client::start(dir.path(), &[]);
    client.open(&set, &broken);
    let hover = hover_text(&mut client, params);
    assert_eq!(
        hover,
        "**Cog Sentry** (`cog-sentry`)\n\nnot built yet: `blades build` says why"
    );
    assert_eq!(client.finish(), 0);
}

/// The pool is read again for the cursor once the client tells of a file
/// changed on disk; with a set file open, the card is built through the
/// server's own build cache, and says what `card show` says.
#[test]
fn a_file_changed_on_disk_is_hovered_anew_once_the_client_tells_of_it() {
    let dir = workspace();
    let set = dir.path().join("cards/tin-town.yaml");
    let basics = dir.path().join("cards/more/basics.yaml");
    let mut client = Client::start(dir.path(), &[]);
    client.open(&set, &std::fs::read_to_string(&set).unwrap());
    let params = at(dir.path(), "cards/more/basics.yaml", "", "town-guard");
    let shown = |dir: &Path| blades(dir, &["card", "show", "town-guard"]).stdout;
    let before = shown(dir.path());
    assert_eq!(
        hover_text(&mut client, params.clone()),
        format!("```text\n{before}```")
    );
    let text = std::fs::read_to_string(&basics).unwrap();
    std::fs::write(&basics, text.replace("stars: 1", "stars: 2")).unwrap();
    let after = shown(dir.path());
    assert_ne!(before, after);
    let changes = json!({"changes": [{"uri": uri(&basics), "type": 2}]});
    client.notify("workspace/didChangeWatchedFiles", changes);
    assert_eq!(
        hover_text(&mut client, params),
        format!("```text\n{after}```")
    );
    assert_eq!(client.finish(), 0);
}

/// A request at `needle` (after `after`) in a document whose text is
/// `text` (an unsaved one, say).
fn at_text(path: &Path, text: &str, after: &str, needle: &str) -> Value {
    let into = needle.chars().next().unwrap().len_utf8();
    json!({
        "textDocument": {"uri": uri(path)},
        "position": position_in(text, after, needle, into, false),
    })
}

/// Tin Town as typed, unsaved: Tin Cat added, Steam Sage renamed Vapour
/// Sage, Gear Case removed.
fn tin_town_edited(text: &str) -> String {
    let gear_case = "  - id: gear-case\n    name: Gear Case\n    kind: deck-box\n    stars: 5\n";
    assert!(text.contains(gear_case));
    let added = "  - {id: tin-cat, name: Tin Cat, kind: single, stars: 5, elements: [earth], types: [animal]}\n";
    format!(
        "{}{added}",
        text.replace(gear_case, "")
            .replace("Steam Sage", "Vapour Sage")
    )
}

/// Hover, definition and references answer from the unsaved text of a set
/// file right after an edit that adds, renames and removes cards, though
/// the pool was read for the cursor before it: what `card show` says of
/// the file so saved.
#[test]
fn an_unsaved_edit_that_adds_renames_and_removes_cards_is_answered_at_once() {
    let dir = workspace();
    let set = dir.path().join("cards/tin-town.yaml");
    let deck = dir.path().join("deck.txt");
    let edited = tin_town_edited(&std::fs::read_to_string(&set).unwrap());
    let saved = workspace();
    std::fs::write(saved.path().join("cards/tin-town.yaml"), &edited).unwrap();
    let shown = |id: &str| {
        let shown = blades(saved.path(), &["card", "show", id]);
        assert_eq!(shown.code, 0, "{}", shown.stderr);
        format!("```text\n{}```", shown.stdout)
    };
    let mut client = Client::start(dir.path(), &[]);
    let deck_text = "1 Tin Cat\n1 Vapour Sage\n1 Gear Case\n1 Steam Sage\n";
    client.open(&deck, deck_text);
    let before = hover_text(&mut client, at_text(&deck, deck_text, "", "Steam Sage"));
    assert!(before.contains("Steam Sage"), "{before}");
    client.open(&set, &std::fs::read_to_string(&set).unwrap());
    client.change(&set, &edited);

    for (needle, id) in [("Tin Cat", "tin-cat"), ("Vapour Sage", "steam-sage")] {
        let hover = hover_text(&mut client, at_text(&deck, deck_text, "", needle));
        assert_eq!(hover, shown(id), "{needle}");
    }
    for gone in ["Gear Case", "Steam Sage"] {
        let answer = client.request("textDocument/hover", at_text(&deck, deck_text, "", gone));
        assert_eq!(answer["result"], Value::Null, "{gone}: {answer}");
        let answer = client.request(
            "textDocument/definition",
            at_text(&deck, deck_text, "", gone),
        );
        assert_eq!(answer["result"], Value::Null, "{gone}: {answer}");
    }
    let answer = client.request(
        "textDocument/definition",
        at_text(&deck, deck_text, "", "Tin Cat"),
    );
    assert_eq!(
        answer["result"],
        json!({"uri": uri(&set), "range": range_in(&edited, "", "tin-cat")})
    );
    let mut found = references(&mut client, at_text(&deck, deck_text, "", "Tin Cat"), true);
    found.sort_by_key(Value::to_string);
    let mut expected = vec![
        json!({"uri": uri(&set), "range": range_in(&edited, "", "tin-cat")}),
        json!({"uri": uri(&set), "range": range_in(&edited, "tin-cat", "Tin Cat")}),
        json!({"uri": uri(&deck), "range": range_in(deck_text, "", "Tin Cat")}),
    ];
    expected.sort_by_key(Value::to_string);
    assert_eq!(found, expected);
    assert_eq!(client.finish(), 0);
}

/// A card added to a file on disk, not open, is found once the client
/// tells of the change: go to definition and references see it.
#[test]
fn a_card_added_on_disk_is_found_once_the_client_tells_of_it() {
    let dir = workspace();
    let basics = dir.path().join("cards/more/basics.yaml");
    let deck = dir.path().join("deck.txt");
    let deck_text = "2 Rivet Hound\n1 Lamp Lighter\n";
    let mut client = Client::start(dir.path(), &[]);
    client.open(&deck, deck_text);
    let lighter = at_text(&deck, deck_text, "", "Lamp Lighter");
    assert_eq!(
        client.request("textDocument/definition", lighter.clone())["result"],
        Value::Null
    );
    let added = "  - id: lamp-lighter\n    name: Lamp Lighter\n    kind: single\n    stars: 1\n    elements: [fire]\n    types: [soldier]\n";
    let text = format!("{}{added}", std::fs::read_to_string(&basics).unwrap());
    std::fs::write(&basics, &text).unwrap();
    let changes = json!({"changes": [{"uri": uri(&basics), "type": 2}]});
    client.notify("workspace/didChangeWatchedFiles", changes);
    let answer = client.request("textDocument/definition", lighter.clone());
    let definition = json!({"uri": uri(&basics), "range": range_in(&text, "", "lamp-lighter")});
    assert_eq!(answer["result"], definition);
    let found = references(&mut client, lighter, false);
    assert_eq!(
        found,
        vec![json!({"uri": uri(&deck), "range": range_in(deck_text, "", "Lamp Lighter")})]
    );
    assert_eq!(client.finish(), 0);
}

/// The pools the index is held to: the built-in pool, the build and
/// translation fixtures, the server's.
fn index_pools() -> Vec<PathBuf> {
    let mut pools = common::fixture_pools();
    for pool in [
        "cards",
        "tests/fixtures/lsp/cards",
        "tests/fixtures/lsp-cursor/cards",
    ] {
        pools.push(root().join(pool));
    }
    pools
}

/// A series of edits, each the pool before it with one more change: a set
/// file added (a new card, one sharing a name, a translation), a card's id
/// renamed and a card added in the first set file, the second emptied, the
/// added files removed, the first set file put back, then broken.
fn edited_pools(dir: &Path) -> Vec<blades::pool::Pool> {
    use blades::pool::Pool;
    use std::sync::Arc;
    let start = Pool::from_dir(dir).unwrap_or_else(|_| Pool {
        root: Some(dir.to_path_buf()),
        ..Pool::default()
    });
    let first = start
        .sets
        .first()
        .map(|f| (f.relative.clone(), f.text().clone()));
    let second = start.sets.get(1).map(|f| f.relative.clone());
    let a_name = start
        .sets
        .iter()
        .flat_map(|f| f.text().lines().map(str::to_string).collect::<Vec<_>>())
        .find_map(|l| l.trim().strip_prefix("name: ").map(str::to_string))
        .unwrap_or_else(|| "Nobody".to_string());
    let mut pools = vec![start.clone()];
    let mut pool = start;
    let added = format!(
        "id: zz-added\nname: Added\nkind: expansion\ncards:\n  - id: zz-new\n    name: Zz New\n  - id: zz-twin\n    name: {a_name}\n"
    );
    pool.overlay("zz-added.yaml", Arc::from(added));
    let translated = "cards:\n  zz-new:\n    name: {text: ズィー新, fingerprint: x}\n  zz-twin:\n    name: {text: ふたご, fingerprint: x}\n";
    pool.overlay("locales/ja/zz-added.yaml", Arc::from(translated));
    pools.push(pool.clone());
    if let Some((relative, text)) = &first {
        let renamed = match text.find("- id: ") {
            Some(at) => {
                let end = at + text[at..].find('\n').unwrap_or(text.len() - at);
                format!("{}-renamed{}", &text[..end], &text[end..])
            }
            None => text.to_string(),
        };
        let renamed = format!("{renamed}\n  - id: zz-appended\n    name: Zz Appended\n");
        pool.overlay(relative, Arc::from(renamed));
        pools.push(pool.clone());
    }
    if let Some(relative) = &second {
        pool.overlay(relative, Arc::from("id: emptied\ncards: []\n"));
        pools.push(pool.clone());
    }
    pool.sets.retain(|f| f.relative != "zz-added.yaml");
    pool.data
        .retain(|f| f.relative != "locales/ja/zz-added.yaml");
    pools.push(pool.clone());
    if let Some((relative, text)) = &first {
        pool.overlay(relative, text.clone());
        pools.push(pool.clone());
        pool.overlay(relative, Arc::from("cards: [\n  - id: broken"));
        pools.push(pool);
    }
    pools
}

/// What an index answers, in terms that do not depend on how it grew:
/// every card, what every name it knows names, each id's card, the sets,
/// types and keywords, the cards each file names.
fn answers(index: &blades::lsp::index::PoolIndex) -> String {
    let mut cards: Vec<String> = index.cards().map(|c| format!("{c:?}")).collect();
    cards.sort();
    let mut names: Vec<String> = index
        .names()
        .map(|name| {
            let found = index.find(name).and_then(|key| index.card(key));
            format!("{name} -> {:?}", found.map(|c| (&c.path, &c.id, &c.entry)))
        })
        .collect();
    names.sort();
    let ids: Vec<String> = index
        .cards()
        .map(|c| {
            format!(
                "{} -> {:?}",
                c.id,
                index
                    .by_id(&c.id)
                    .and_then(|k| index.card(k))
                    .map(|c| (&c.path, &c.entry))
            )
        })
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut types: Vec<&str> = index.extra_types().collect();
    types.sort();
    let refs: Vec<String> = index
        .pool_refs()
        .iter()
        .map(|file| format!("{}: {:?}", file.path, file.refs))
        .collect();
    format!(
        "{cards:#?}\n{names:#?}\n{ids:#?}\n{:?}\n{types:?}\n{:?}\n{refs:#?}",
        index.sets(),
        index.keywords()
    )
}

/// The index kept up to date edit by edit answers as one read from
/// scratch at the end of a series of edits, on every fixture pool.
#[test]
fn an_index_kept_through_edits_answers_as_one_read_afresh() {
    use blades::compile::Output;
    use blades::lsp::index::PoolIndex;
    use std::sync::Arc;
    for dir in index_pools() {
        let mut kept = PoolIndex::new(&dir);
        let mut last = None;
        for pool in edited_pools(&dir) {
            let pool = Arc::new(pool);
            kept.update(pool.clone(), Output::None);
            last = Some(pool);
        }
        let fresh = PoolIndex::of(&dir, last.unwrap(), Output::None);
        assert_eq!(answers(&kept), answers(&fresh), "{}", dir.display());
    }
}

/// A keyword's hover follows an unsaved edit of the pool's keyword table:
/// the vocabulary is the one the edit's check built with, not one kept
/// from before.
#[test]
fn a_keyword_hovers_as_the_unsaved_keyword_table_has_it() {
    let dir = workspace();
    let keywords = dir.path().join("cards/keywords.yaml");
    let params = at(dir.path(), "cards/tin-town.yaml", "effect", "Tinker");
    let mut client = Client::start(dir.path(), &[]);
    let before = hover_text(&mut client, params.clone());
    assert!(before.starts_with("**Tinker** (いじくり)"), "{before}");
    let text = std::fs::read_to_string(&keywords).unwrap();
    let edited = text
        .replace("いじくり", "いじり")
        .replace("Gain 1 RP", "Gain 2 RP");
    client.open(&keywords, &edited);
    let after = hover_text(&mut client, params);
    assert!(after.starts_with("**Tinker** (いじり)"), "{after}");
    assert_eq!(client.finish(), 0);
}
