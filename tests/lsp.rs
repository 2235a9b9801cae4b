//! `blades lsp` end to end: the real binary spoken to over JSON-RPC, its
//! published diagnostics held against what `blades build --format json`
//! reports for the same files.

mod common;

use std::path::{Path, PathBuf};

use blades::lsp::check::FileKind;
use serde_json::{Value, json};

use common::lsp::{Client, offset_of, uri, workspace};
use common::{blades, root, wait_or_kill};

/// `blades build --format json` run in `dir` on its `cards/`.
fn built(dir: &Path) -> Vec<Value> {
    let out = dir.join("out.json");
    let out = out.to_str().unwrap();
    findings_of(dir, &["build", "--no-cache", "--out", out])
}

/// The findings `blades ARGS --cards cards --format json` reports in `dir`.
fn findings_of(dir: &Path, args: &[&str]) -> Vec<Value> {
    let mut args = args.to_vec();
    args.extend(["--cards", "cards", "--format", "json"]);
    blades(dir, &args).json()["diagnostics"]
        .as_array()
        .unwrap()
        .clone()
}

/// What the commands of record find in the workspace's pool, by kind of
/// file: `build` for every file, `i18n check` too for translations, and
/// `deck check` (which reads the formats first) too for format files.
fn commands_findings(dir: &Path) -> Vec<(Value, Option<FileKind>)> {
    std::fs::write(dir.join("deck.txt"), "1 Nothing\n").unwrap();
    let mut all: Vec<_> = built(dir).into_iter().map(|f| (f, None)).collect();
    let translations = findings_of(dir, &["i18n", "check"]);
    all.extend(
        translations
            .into_iter()
            .map(|f| (f, Some(FileKind::Translation))),
    );
    let formats = findings_of(dir, &["deck", "check", "deck.txt"]);
    all.extend(formats.into_iter().map(|f| (f, Some(FileKind::Format))));
    all
}

/// A build finding as the server should publish it: its code, severity,
/// range (UTF-16 or UTF-8 columns, counted here from the byte offsets),
/// message with its help, and the lines of its related places.
fn expected(finding: &Value, text: &str, utf8: bool) -> Value {
    let place = |offset: usize| {
        let start = text[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
        let line = text[..start].matches('\n').count();
        let column = match utf8 {
            true => offset - start,
            false => text[start..offset].encode_utf16().count(),
        };
        json!({"line": line, "character": column})
    };
    let mut message = finding["message"].as_str().unwrap().to_string();
    if let Some(help) = finding["help"].as_str() {
        message = format!("{message}\nhelp: {help}");
    }
    let related: Vec<Value> = finding["related"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            json!([
                r["file"].as_str().unwrap().rsplit('/').next(),
                r["line"].as_u64().unwrap() - 1
            ])
        })
        .collect();
    json!({
        "code": finding["code"],
        "severity": if finding["severity"] == "error" { 1 } else { 2 },
        "range": {
            "start": place(finding["start"].as_u64().unwrap() as usize),
            "end": place(finding["end"].as_u64().unwrap() as usize),
        },
        "message": message,
        "related": related,
    })
}

/// A published diagnostic in the shape of [`expected`].
fn seen(diagnostic: &Value) -> Value {
    let related: Vec<Value> = diagnostic["relatedInformation"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|r| {
                    let file = r["location"]["uri"]
                        .as_str()
                        .unwrap()
                        .rsplit('/')
                        .next()
                        .unwrap();
                    json!([file, r["location"]["range"]["start"]["line"]])
                })
                .collect()
        })
        .unwrap_or_default();
    json!({
        "code": diagnostic["code"],
        "severity": diagnostic["severity"],
        "range": diagnostic["range"],
        "message": diagnostic["message"],
        "related": related,
    })
}

/// The pool's YAML files that are text, by path within the workspace.
fn yaml_files(dir: &Path) -> Vec<(String, PathBuf, String)> {
    let mut found: Vec<_> = common::files(&dir.join("cards"))
        .into_iter()
        .filter(|(name, _)| name.ends_with(".yaml") || name.ends_with(".yml"))
        .filter_map(|(name, bytes)| {
            let text = String::from_utf8(bytes).ok()?;
            Some((format!("cards/{name}"), dir.join("cards").join(&name), text))
        })
        .collect();
    found.sort();
    found
}

/// Opens every YAML file of the workspace's pool and holds what the
/// server publishes for each against the build's findings in it.
fn agrees_with_the_build(dir: &Path, encodings: &[&str]) {
    let findings = commands_findings(dir);
    let files = yaml_files(dir);
    let mut client = Client::start(dir, encodings);
    let utf8 = client.capabilities["positionEncoding"] == "utf-8";
    for (_, path, text) in &files {
        client.open(path, text);
    }
    let published = client.published();
    let prefix = format!("{}/", dir.display());
    for (shown, path, text) in &files {
        let kind = FileKind::of(shown.strip_prefix("cards/").unwrap());
        let mut want: Vec<Value> = findings
            .iter()
            .filter(|(_, by)| by.is_none_or(|by| by == kind))
            .filter(|(f, _)| f["file"].as_str() == Some(shown.as_str()))
            .map(|(f, _)| expected(f, text, utf8))
            .collect();
        let mut got: Vec<Value> = published
            .get(&uri(path))
            .unwrap_or_else(|| panic!("nothing published for {shown}"))
            .iter()
            .map(seen)
            .map(|mut d| {
                // The server names files by their absolute paths; the
                // build, run in the workspace folder, by relative ones.
                let message = d["message"].as_str().unwrap().replace(&prefix, "");
                d["message"] = json!(message);
                d
            })
            .collect();
        want.sort_by_key(Value::to_string);
        want.dedup();
        got.sort_by_key(Value::to_string);
        assert_eq!(got, want, "{}: {shown}", dir.display());
    }
    offers_every_fix_blades_fix_makes(dir, &published);
    // A burst of edits, each file broken then put back, is checked at its
    // last text: through what the server kept of the first check, the
    // findings are those of the first check again.
    for (_, path, text) in &files {
        client.change(path, "id: [broken\n");
        client.change(path, text);
    }
    assert_eq!(client.published(), published, "{}", dir.display());
    assert_eq!(client.finish(), 0);
}

/// Each fix `blades fix` would make (file, code, line, title) is one the
/// server offers on the finding it publishes there: the command and the
/// editor make the same fixes (the server offers ambiguous ones too).
fn offers_every_fix_blades_fix_makes(
    dir: &Path,
    published: &std::collections::BTreeMap<String, Vec<Value>>,
) {
    let run = blades(
        dir,
        &["--format", "json", "fix", "--check", "--cards", "cards"],
    );
    let report: Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("fix --check: {e}: {}{}", run.stdout, run.stderr));
    let mut offered = std::collections::HashSet::new();
    for (uri, diagnostics) in published {
        let file = uri.rsplit_once("/cards/").map_or("", |(_, f)| f);
        for d in diagnostics {
            for fix in d["data"]["fixes"].as_array().into_iter().flatten() {
                offered.insert(json!([
                    format!("cards/{file}"),
                    d["code"],
                    d["range"]["start"]["line"].as_u64().unwrap() + 1,
                    fix["title"],
                ]));
            }
        }
    }
    // A pool `blades fix` cannot read (exit 2) has no fixes to compare.
    let Some(files) = report["files"].as_array() else {
        assert_eq!(run.code, 2, "{}: {report}", dir.display());
        return;
    };
    for file in files {
        for fix in file["fixes"].as_array().unwrap() {
            let made = json!([file["file"], fix["code"], fix["line"], fix["title"]]);
            assert!(
                offered.contains(&made),
                "{}: `blades fix` makes {made}, the server does not offer it",
                dir.display()
            );
        }
    }
}

#[test]
fn a_typo_after_tabs_cjk_and_an_emoji_is_where_the_build_says_it_is() {
    let dir = workspace(&root().join("tests/fixtures/lsp/cards"));
    let findings = built(dir.path());
    assert!(
        findings
            .iter()
            .any(|f| f["code"] == "invalid-value" && f["line"] == 20),
        "the fixture's typo: {findings:?}"
    );
    agrees_with_the_build(dir.path(), &[]);
}

#[test]
fn utf8_columns_when_the_client_offers_them() {
    let dir = workspace(&root().join("tests/fixtures/lsp/cards"));
    let client = Client::start(dir.path(), &["utf-8", "utf-16"]);
    assert_eq!(client.capabilities["positionEncoding"], "utf-8");
    assert_eq!(client.finish(), 0);
    agrees_with_the_build(dir.path(), &["utf-8", "utf-16"]);
}

#[test]
fn every_fixture_pool_gets_the_findings_of_the_commands_of_record() {
    let mut pools = common::fixture_pools();
    pools.push(root().join("tests/fixtures/formats/broken-pool"));
    pools.sort();
    assert!(pools.len() >= 10, "{pools:?}");
    for pool in pools {
        agrees_with_the_build(workspace(&pool).path(), &[]);
    }
}

#[test]
fn fixing_the_text_clears_its_findings_and_closing_it_drops_the_overlay() {
    let dir = workspace(&root().join("tests/fixtures/lsp/cards"));
    let path = dir.path().join("cards/tin-town.yaml");
    let on_disk = std::fs::read_to_string(&path).unwrap();
    let mut client = Client::start(dir.path(), &[]);
    client.open(&path, &on_disk);
    let codes = |published: &std::collections::BTreeMap<String, Vec<Value>>| -> Vec<String> {
        published[&uri(&path)]
            .iter()
            .map(|d| d["code"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(codes(&client.published()), ["invalid-value"]);
    client.change(&path, &on_disk.replace("[aer]", "[air]"));
    assert_eq!(codes(&client.published()), Vec::<String>::new());
    // Closed, the file is what is on disk again; its own list is cleared.
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri(&path)}}),
    );
    assert_eq!(codes(&client.published()), Vec::<String>::new());
    assert_eq!(client.finish(), 0);
}

#[test]
fn garbage_and_unknown_methods_get_errors_and_the_server_answers_on() {
    let dir = workspace(&root().join("tests/fixtures/lsp/cards"));
    let mut client = Client::start(dir.path(), &[]);
    client.send_raw(b"hello there\r\n\r\n");
    let answer = client.receive();
    assert_eq!(answer["id"], Value::Null, "{answer}");
    assert_eq!(answer["error"]["code"], -32700, "{answer}");
    client.send_raw(b"Content-Length: 9\r\n\r\n{not json");
    assert_eq!(client.receive()["error"]["code"], -32700);
    let answer = client.request("blades/no-such-method", json!({}));
    assert_eq!(answer["error"]["code"], -32601, "{answer}");
    // A notification it does not know, and one whose parameters are wrong.
    client.notify("blades/unknown", json!({}));
    client.notify("textDocument/didOpen", json!({"textDocument": 7}));
    assert_eq!(client.finish(), 0);
}

#[test]
fn exit_without_shutdown_is_exit_code_1() {
    let dir = workspace(&root().join("tests/fixtures/lsp/cards"));
    let mut client = Client::start(dir.path(), &[]);
    client.notify("exit", Value::Null);
    let status = wait_or_kill(&mut client.child, 30, "the server did not exit");
    assert_eq!(status.code(), Some(1));
}

#[test]
fn every_editor_setup_in_the_docs_starts_blades_lsp() {
    let docs = std::fs::read_to_string(root().join("docs/editors.md")).unwrap();
    let blocks: Vec<(&str, &str)> = docs
        .split("```")
        .skip(1)
        .step_by(2)
        .map(|block| block.split_once('\n').unwrap())
        .collect();
    let languages: Vec<&str> = blocks.iter().map(|(language, _)| *language).collect();
    assert_eq!(languages, ["lua", "lua", "toml", "json", "toml"]);
    for (language, code) in &blocks {
        let starts = match *language {
            "lua" => code.contains(r#"cmd = { "blades", "lsp" }"#),
            "toml" => {
                code.contains("[language_servers.blades]")
                    || code.contains("command = \"blades\"\nargs = [\"lsp\"]")
            }
            _ => {
                let settings: Value = serde_json::from_str(code).expect("the JSON parses");
                settings["glspc.server.command"] == "blades"
                    && settings["glspc.server.commandArguments"] == json!(["lsp"])
            }
        };
        assert!(
            starts,
            "{language} block does not start `blades lsp`:\n{code}"
        );
    }
}

/// Every quick fix the server offers for a file's published findings,
/// made in its text.
fn quick_fixed(client: &mut Client, path: &Path, text: &str, diagnostics: &[Value]) -> String {
    let utf8 = client.capabilities["positionEncoding"] == "utf-8";
    let answer = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri(path)},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": diagnostics},
        }),
    );
    let actions = answer["result"]
        .as_array()
        .expect("a list of actions")
        .clone();
    assert_eq!(
        actions.len(),
        diagnostics.len(),
        "one fix a finding: {answer}"
    );
    let mut edits: Vec<(usize, usize, String)> = actions
        .iter()
        .flat_map(|action| {
            assert_eq!(action["kind"], "quickfix");
            action["edit"]["changes"][uri(path)]
                .as_array()
                .unwrap()
                .clone()
        })
        .map(|edit| {
            let start = offset_of(text, &edit["range"]["start"], utf8);
            let end = offset_of(text, &edit["range"]["end"], utf8);
            (start, end, edit["newText"].as_str().unwrap().to_string())
        })
        .collect();
    edits.sort();
    let mut fixed = text.to_string();
    for (start, end, new) in edits.into_iter().rev() {
        fixed.replace_range(start..end, &new);
    }
    fixed
}

#[test]
fn quick_fixes_clear_what_they_fix_after_cjk_and_an_emoji_in_both_encodings() {
    for encodings in [&[][..], &["utf-8"][..]] {
        let dir = workspace(&root().join("tests/fixtures/fix/typos"));
        let mut client = Client::start(dir.path(), encodings);
        for name in ["tin-town.yaml", "locales/ja/tin-town.yaml"] {
            let path = dir.path().join("cards").join(name);
            let text = std::fs::read_to_string(&path).unwrap();
            client.open(&path, &text);
            let published = client.published()[&uri(&path)].clone();
            assert!(!published.is_empty(), "{name}: the fixture's typos");
            let fixed = quick_fixed(&mut client, &path, &text, &published);
            client.change(&path, &fixed);
            assert_eq!(
                client.published()[&uri(&path)],
                Vec::<Value>::new(),
                "{name} {encodings:?}:\n{fixed}"
            );
        }
        assert_eq!(client.finish(), 0);
    }
}

#[test]
fn a_stale_translation_is_shown_and_marked_reviewed_by_a_fix_never_preferred() {
    let dir = workspace(&root().join("tests/fixtures/i18n/drifted"));
    let mut client = Client::start(dir.path(), &[]);
    let path = dir.path().join("cards/locales/ja/mini-gulch.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    client.open(&path, &text);
    let stale: Vec<Value> = client.published()[&uri(&path)]
        .iter()
        .filter(|d| d["code"] == "locale-stale")
        .cloned()
        .collect();
    assert!(stale.len() >= 3, "the fixture's stale texts: {stale:?}");
    for d in &stale {
        assert_eq!(d["severity"], 2, "a warning: {d}");
        assert!(
            d["relatedInformation"][0]["location"]["uri"]
                .as_str()
                .is_some_and(|u| u.ends_with("/cards/mini-gulch.yaml"))
        );
    }
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri(&path)},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": stale},
        }),
    );
    for action in actions["result"].as_array().unwrap() {
        assert_eq!(action["isPreferred"], false, "{action}");
    }
    let fixed = quick_fixed(&mut client, &path, &text, &stale);
    client.change(&path, &fixed);
    let left: Vec<Value> = client.published()[&uri(&path)]
        .iter()
        .filter(|d| d["code"] == "locale-stale")
        .cloned()
        .collect();
    assert_eq!(left, Vec::<Value>::new(), "{fixed}");
    assert_eq!(client.finish(), 0);
}

#[test]
fn document_symbols_are_the_set_and_its_cards_with_their_ranges() {
    let dir = workspace(&root().join("tests/fixtures/lsp/cards"));
    let path = dir.path().join("cards/tin-town.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut client = Client::start(dir.path(), &[]);
    assert_eq!(client.capabilities["documentSymbolProvider"], true);
    // Unsaved text counts: a card added in the editor is listed.
    let edited = text.replace(
        "cards:\n",
        "cards:\n  - {id: new-card, name: 新しい🦉, kind: single, stars: 1}\n",
    );
    client.open(&path, &edited);
    let answer = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&path)}}),
    );
    let sets = answer["result"].as_array().expect("symbols");
    assert_eq!(sets.len(), 1, "{answer}");
    assert_eq!(sets[0]["name"], "Tin Town");
    assert_eq!(sets[0]["detail"], "tin-town");
    let cards = sets[0]["children"].as_array().unwrap();
    let names: Vec<&str> = cards.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "新しい🦉",
            "Rivet Hound",
            "Cog Sentry",
            "Brass Owl",
            "Steam Sage",
            "Gear Case",
            "Clockwork Titan"
        ]
    );
    // Each card's range starts at its mapping; its name is selected.
    let rivet = &cards[1];
    let line = edited
        .lines()
        .position(|l| l.contains("id: rivet-hound"))
        .unwrap();
    assert_eq!(
        rivet["range"]["start"],
        json!({"line": line, "character": 4})
    );
    assert_eq!(
        rivet["selectionRange"]["start"],
        json!({"line": line + 1, "character": 10})
    );
    // `新しい🦉` ends 3 + 2 UTF-16 units after it starts.
    assert_eq!(
        cards[0]["selectionRange"],
        json!({"start": {"line": 6, "character": 25}, "end": {"line": 6, "character": 30}})
    );
    // A file that is not a set file has none.
    let keywords = dir.path().join("cards/keywords.yaml");
    let answer = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&keywords)}}),
    );
    assert_eq!(answer["result"], json!([]));
    assert_eq!(client.finish(), 0);
}

/// A set, not open, that takes a card id of `tin-town.yaml`.
const COPYCAT: &str = "id: copycat\nname: Copycat\nkind: promo\ncards:\n  - {id: rivet-hound, name: Rivet Copy, kind: single, stars: 1, elements: [earth], types: [animal]}\n";

#[test]
fn a_file_changed_on_disk_is_seen_once_the_client_tells_of_it() {
    let dir = workspace(&root().join("tests/fixtures/lsp/cards"));
    let open = dir.path().join("cards/tin-town.yaml");
    let text = std::fs::read_to_string(&open).unwrap();
    let watching = json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}});
    let mut client = Client::start_with(dir.path(), watching);
    // The server asks to hear of the pool's files.
    let registration = loop {
        let message = client.receive();
        if message["method"] == "client/registerCapability" {
            break message;
        }
    };
    let registered = &registration["params"]["registrations"][0];
    assert_eq!(registered["method"], "workspace/didChangeWatchedFiles");
    let id = registration["id"].clone();
    client.send(json!({"jsonrpc": "2.0", "id": id, "result": null}));
    client.open(&open, &text.replace("[aer]", "[air]"));
    let codes = |published: &std::collections::BTreeMap<String, Vec<Value>>| -> Vec<String> {
        published[&uri(&open)]
            .iter()
            .map(|d| d["code"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(codes(&client.published()), Vec::<String>::new());
    // Another set, not open, now takes a card id of the open one.
    let other = dir.path().join("cards/copycat.yaml");
    std::fs::write(&other, COPYCAT).unwrap();
    let told = |client: &mut Client, kind: u8| {
        let changes = json!({"changes": [{"uri": uri(&other), "type": kind}]});
        client.notify("workspace/didChangeWatchedFiles", changes);
    };
    told(&mut client, 1);
    let found = codes(&client.published());
    assert!(
        found.contains(&"duplicate-card-id".to_string()),
        "{found:?}"
    );
    std::fs::remove_file(&other).unwrap();
    told(&mut client, 3);
    assert_eq!(codes(&client.published()), Vec::<String>::new());
    // A watching client's pool is not listed again at every edit: a file
    // made without a word is seen once the client tells of it.
    std::fs::write(&other, COPYCAT).unwrap();
    client.change(&open, &text.replace("[aer]", "[air]").replace("# ", "#  "));
    assert_eq!(codes(&client.published()), Vec::<String>::new());
    told(&mut client, 1);
    let found = codes(&client.published());
    assert!(
        found.contains(&"duplicate-card-id".to_string()),
        "{found:?}"
    );
    assert_eq!(client.finish(), 0);
}

#[test]
fn a_client_that_does_not_watch_has_the_pool_listed_at_every_check() {
    let dir = workspace(&root().join("tests/fixtures/lsp/cards"));
    let open = dir.path().join("cards/tin-town.yaml");
    let text = std::fs::read_to_string(&open).unwrap();
    let mut client = Client::start_with(dir.path(), json!({}));
    client.open(&open, &text);
    client.published();
    let other = dir.path().join("cards/copycat.yaml");
    std::fs::write(&other, COPYCAT).unwrap();
    client.change(&open, &format!("{text}\n"));
    let found: Vec<Value> = client.published()[&uri(&open)].clone();
    assert!(
        found.iter().any(|d| d["code"] == "duplicate-card-id"),
        "{found:?}"
    );
    assert_eq!(client.finish(), 0);
}

#[test]
fn a_client_that_asks_for_a_trace_hears_where_each_checks_time_went() {
    let dir = workspace(&root().join("tests/fixtures/lsp/cards"));
    let path = dir.path().join("cards/tin-town.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut client = Client::start_with(dir.path(), json!({}));
    let traces = |client: &mut Client| -> Vec<Value> {
        let heard = client.heard().into_iter();
        let traces = heard.filter(|message| message["method"] == "$/logTrace");
        traces.map(|message| message["params"].clone()).collect()
    };
    client.open(&path, &text);
    assert_eq!(
        traces(&mut client),
        Vec::<Value>::new(),
        "no trace unless asked"
    );
    client.notify("$/setTrace", json!({"value": "verbose"}));
    client.change(&path, &text.replace("[aer]", "[air]"));
    let heard = traces(&mut client);
    assert_eq!(heard.len(), 1, "{heard:?}");
    let pool = dir.path().join("cards");
    assert!(
        heard[0]["message"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{}: 1 open document", pool.display())),
        "{heard:?}"
    );
    let verbose = heard[0]["verbose"].as_str().unwrap();
    for part in [
        "checked in",
        "read",
        "per-file checks",
        "pool checks",
        "effects",
        "rendering",
    ] {
        assert!(verbose.contains(part), "{verbose}");
    }
    client.notify("$/setTrace", json!({"value": "messages"}));
    client.change(&path, &text);
    let heard = traces(&mut client);
    assert_eq!(heard.len(), 1, "{heard:?}");
    assert!(
        heard[0]["message"].as_str().unwrap().contains("checked in"),
        "{heard:?}"
    );
    assert!(
        heard[0].get("verbose").is_none_or(Value::is_null),
        "{heard:?}"
    );
    assert_eq!(client.finish(), 0);
}

#[test]
fn a_huge_paste_ten_thousand_errors_and_deleted_files_get_answers() {
    let dir = workspace(&root().join("tests/fixtures/lsp/cards"));
    let path = dir.path().join("cards/tin-town.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut client = Client::start(dir.path(), &[]);
    client.open(&path, &text);
    client.published();
    // A 50 MB paste: one finding, located in it.
    let paste = format!("{text}\n{}: [", "x".repeat(50 * 1024 * 1024));
    client.change(&path, &paste);
    let found = &client.published()[&uri(&path)];
    assert!(!found.is_empty(), "a broken 50 MB paste has findings");
    // Ten thousand cards with an unknown element: every one reported.
    let mut many = String::from("id: many\nname: Many\nkind: bronze-promo\ncards:\n");
    for i in 0..10_000 {
        many.push_str(&format!(
            "  - {{id: card-{i}, name: Card {i}, kind: single, stars: 1, elements: [aer], types: [animal]}}\n"
        ));
    }
    client.change(&path, &many);
    let found = &client.published()[&uri(&path)];
    let unknown = found
        .iter()
        .filter(|d| d["code"] == "invalid-value")
        .count();
    assert_eq!(unknown, 10_000, "{:?}", &found[..3]);
    // The open file and another set deleted on disk: the open text stands in.
    std::fs::remove_file(&path).unwrap();
    std::fs::remove_file(dir.path().join("cards/first-light.yaml")).unwrap();
    client.change(&path, &text.replace("[aer]", "[air]"));
    assert_eq!(client.published()[&uri(&path)], Vec::<Value>::new());
    // The pool's folder itself gone: the open file is checked alone.
    std::fs::remove_dir_all(dir.path().join("cards")).unwrap();
    client.change(&path, &text);
    let found = &client.published()[&uri(&path)];
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(client.finish(), 0);
}
