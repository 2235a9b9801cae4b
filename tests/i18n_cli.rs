//! `blades i18n` and `blades card show` end to end: the real binary on
//! fixture pools (`tests/fixtures/i18n/`).
//!
//! - `synced`: every text translated and current (no phrase books of its
//!   own: it renders with the built-in ones);
//! - `drifted`: the same pool after the English moved on: a renamed card, a
//!   changed flavor and effect (stale), a replaced card (missing and
//!   orphaned), a deleted translation, a text marked fuzzy; it has its own
//!   phrase books (the built-in ones), whose English of `amount.star_of`
//!   changed since the Japanese was made;
//! - `check-bad`: translations with one mistake for every check.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{Run, blades, copy_dir, files, located, scratch};
use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/i18n")
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

// ----- status -----------------------------------------------------------

#[test]
fn status_shows_stale_texts_with_a_word_diff() {
    let run = blades(&fixtures(), &["--cards", "drifted", "i18n", "status"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!("status_drifted", run.stdout);
}

#[test]
fn status_of_a_synced_pool_is_complete() {
    let run = blades(&fixtures(), &["--cards", "synced", "i18n", "status"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with(
            "Japanese (ja): 19 of 19 texts translated (100.0%), 0 missing, 0 stale, 0 orphaned"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn status_json_has_counts_and_entries() {
    let run = blades(
        &fixtures(),
        &["--cards", "drifted", "--format", "json", "i18n", "status"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = json(&run.stdout);
    let ja = &report["languages"][0];
    assert_eq!(ja["lang"], "ja");
    // Every count is the sum of the sets' (the phrase book is one of them).
    let sets = ja["sets"].as_array().unwrap();
    for count in ["translated", "missing", "stale", "orphaned"] {
        let sum: u64 = sets.iter().map(|s| s[count].as_u64().unwrap()).sum();
        assert_eq!(ja[count], sum, "{count}");
    }
    let counts = |set: &str| {
        let s = sets.iter().find(|s| s["set"] == set).unwrap();
        [&s["translated"], &s["missing"], &s["stale"], &s["orphaned"]].map(|n| n.as_u64().unwrap())
    };
    assert_eq!(counts("mini-core"), [4, 1, 0, 0]);
    assert_eq!(counts("mini-gulch"), [8, 2, 4, 2]);
    // The phrase book: every template translated but the one whose English
    // moved on (the fixture's `amount.star_of`).
    let templates = std::fs::read_to_string(fixtures().join("drifted/phrases/ja.yaml"))
        .unwrap()
        .lines()
        .filter(|l| l.contains("fingerprint:"))
        .count() as u64;
    assert_eq!(counts("phrases"), [templates - 1, 0, 1, 0]);
    let entries = ja["entries"].as_array().unwrap();
    for entry in entries {
        for key in ["set", "card", "field", "state", "context", "file", "line"] {
            assert!(entry.get(key).is_some(), "{key} missing in {entry}");
        }
    }
    let find = |context: &str| {
        entries
            .iter()
            .find(|e| e["context"] == context)
            .unwrap_or_else(|| panic!("{context}"))
    };
    let owl = find("mini-gulch/dust-owl/name");
    assert_eq!(owl["set"], "mini-gulch");
    assert_eq!(owl["card"], "dust-owl");
    assert_eq!(owl["field"], "name");
    assert_eq!(owl["state"], "stale");
    assert_eq!(owl["reason"], "english-changed");
    assert_eq!(owl["then"], "Dust Owl");
    assert_eq!(owl["now"], "Dusk Owl");
    assert_eq!(find("mini-gulch/dust-owl/effect")["state"], "stale");
    assert_eq!(find("mini-gulch/canyon-wyrm/flavor")["state"], "stale");
    assert_eq!(find("mini-gulch/spur-charm/name")["reason"], "fuzzy");
    assert_eq!(find("mini-gulch/storm-mesa/name")["state"], "missing");
    assert_eq!(find("mini-gulch/thunder-mesa/flavor")["state"], "orphaned");
    assert_eq!(find("mini-gulch/name")["card"], Value::Null);
    let phrase = find("phrase:amount.star_of");
    assert_eq!(
        (&phrase["set"], &phrase["field"], &phrase["state"]),
        (&Value::Null, &"phrase".into(), &"stale".into())
    );
    assert_eq!(phrase["then"], "RP equal to the STAR of {target}");
    assert_eq!(phrase["now"], "RP equal to the STAR rating of {target}");
    assert_eq!(phrase["file"], "drifted/phrases/ja.yaml");
    assert_eq!(report["diagnostics"], serde_json::json!([]));
}

#[test]
fn fail_on_makes_status_a_gate() {
    let status = |pool: &str, fail_on: &str| {
        blades(
            &fixtures(),
            &["--cards", pool, "i18n", "status", "--fail-on", fail_on],
        )
        .code
    };
    assert_eq!(status("synced", "missing,stale"), 0);
    assert_eq!(status("synced", "missing,stale,orphaned"), 0);
    assert_eq!(status("drifted", "missing,stale"), 1);
    assert_eq!(status("drifted", "stale"), 1);
    assert_eq!(status("drifted", "orphaned"), 1);
    assert_eq!(status("drifted", "cheese"), 2);
    let plain = blades(&fixtures(), &["--cards", "drifted", "i18n", "status"]);
    assert_eq!(plain.code, 0);
    let bad_lang = blades(
        &fixtures(),
        &["--cards", "synced", "i18n", "status", "--lang", "en"],
    );
    assert_eq!(bad_lang.code, 2);
}

#[test]
fn the_builtin_pool_is_fully_translated_and_clean() {
    let dir = fixtures();
    let status = blades(
        &dir,
        &["i18n", "status", "--fail-on", "missing,stale,orphaned"],
    );
    assert_eq!(status.code, 0, "{}", status.stdout);
    let check = blades(&dir, &["i18n", "check"]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert!(
        check.stderr.contains("no problems found"),
        "{}",
        check.stderr
    );
}

// ----- check ------------------------------------------------------------

/// Every check: passes on the synced pool, fails on the bad one.
const CHECK_CODES: [&str; 14] = [
    "glossary-forbidden",
    "glossary-term",
    "locale-fingerprint",
    "locale-stale",
    "name-conflict",
    "name-reference",
    "override-icons",
    "override-keywords",
    "override-numbers",
    "style-fullwidth-alnum",
    "style-halfwidth-kana",
    "style-punctuation",
    "style-spacing",
    "text-fit",
];

#[test]
fn every_check_passes_on_good_translations() {
    let run = blades(&fixtures(), &["--cards", "synced", "i18n", "check"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "pool: `synced`\nchecked 19 translated texts: no problems found\n"
    );
    let run = blades(
        &fixtures(),
        &["--cards", "synced", "--format", "json", "i18n", "check"],
    );
    assert_eq!(json(&run.stdout)["diagnostics"], serde_json::json!([]));
}

#[test]
fn every_check_fails_on_bad_translations() {
    let run = blades(
        &fixtures(),
        &["--cards", "check-bad", "--format", "json", "i18n", "check"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let found = located(&run.stdout);
    let report = json(&run.stdout);
    let mut codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    codes.sort_unstable();
    codes.dedup();
    let mut expected = CHECK_CODES.to_vec();
    expected.dedup();
    assert_eq!(codes, expected, "{found:#?}");
    insta::assert_snapshot!("check_bad_located", found.join("\n"));
}

#[test]
fn check_renders_located_reports() {
    let run = blades(&fixtures(), &["--cards", "check-bad", "i18n", "check"]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("check_bad_rendered", run.stderr);
}

// ----- PO round trip ------------------------------------------------------

fn export(dir: &Path, extra: &[&str]) -> Run {
    let mut args = vec![
        "--cards", "pool", "i18n", "export", "--lang", "ja", "-o", "ja.po",
    ];
    args.extend_from_slice(extra);
    let run = blades(dir, &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    run
}

fn import(dir: &Path, extra: &[&str]) -> Run {
    let mut args = vec!["--cards", "pool", "i18n", "import", "ja.po"];
    args.extend_from_slice(extra);
    blades(dir, &args)
}

#[test]
fn importing_an_unchanged_export_changes_no_byte() {
    for fixture in ["synced", "drifted", "check-bad"] {
        let temp = scratch(fixture);
        export(temp.path(), &[]);
        let before = files(&temp.path().join("pool"));
        let run = import(temp.path(), &[]);
        assert_eq!(run.code, 0, "{fixture}: {}", run.stderr);
        assert!(
            run.stderr.contains(" 0 added, 0 updated"),
            "{fixture}: {}",
            run.stderr
        );
        assert_eq!(files(&temp.path().join("pool")), before, "{fixture}");
        // Exporting again gives the same PO.
        let first = std::fs::read(temp.path().join("ja.po")).unwrap();
        export(temp.path(), &[]);
        assert_eq!(std::fs::read(temp.path().join("ja.po")).unwrap(), first);
    }
}

#[test]
fn the_builtin_pool_survives_the_round_trip() {
    let temp = tempfile::tempdir().unwrap();
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("cards"),
        &temp.path().join("pool"),
    );
    export(temp.path(), &["--all-effects"]);
    let before = files(&temp.path().join("pool"));
    let run = import(temp.path(), &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(files(&temp.path().join("pool")), before);
}

#[test]
fn import_rewrites_only_the_changed_entry() {
    let temp = scratch("synced");
    export(temp.path(), &[]);
    let po = std::fs::read_to_string(temp.path().join("ja.po")).unwrap();
    let edited = po
        .replace(
            "msgstr \"日に焼けて、気長に待つ。\"",
            "msgstr \"日に焼けて、じっと待つ。\"",
        )
        .replace(
            "msgctxt \"mini-gulch/canyon-wyrm/flavor\"",
            "# 「気長に」より短く。\nmsgctxt \"mini-gulch/canyon-wyrm/flavor\"",
        );
    assert_ne!(po, edited);
    std::fs::write(temp.path().join("ja.po"), edited).unwrap();
    let before = files(&temp.path().join("pool"));
    let run = import(temp.path(), &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("0 added, 1 updated"), "{}", run.stderr);
    let after = files(&temp.path().join("pool"));
    let changed: Vec<&String> = after
        .keys()
        .filter(|k| before.get(*k) != after.get(*k))
        .collect();
    assert_eq!(changed, ["locales/ja/mini-gulch.yaml"]);
    let old = String::from_utf8(before["locales/ja/mini-gulch.yaml"].clone()).unwrap();
    let new = String::from_utf8(after["locales/ja/mini-gulch.yaml"].clone()).unwrap();
    let removed: Vec<&str> = old
        .lines()
        .filter(|l| !new.lines().any(|n| n == *l))
        .collect();
    let added: Vec<&str> = new
        .lines()
        .filter(|l| !old.lines().any(|o| o == *l))
        .collect();
    assert_eq!(removed, ["      text: 日に焼けて、気長に待つ。"]);
    assert_eq!(
        added,
        [
            "      text: 日に焼けて、じっと待つ。",
            "      note: 「気長に」より短く。"
        ]
    );
    // Still complete, and the note comes back out in the next export.
    let status = blades(
        temp.path(),
        &[
            "--cards",
            "pool",
            "i18n",
            "status",
            "--fail-on",
            "missing,stale",
        ],
    );
    assert_eq!(status.code, 0, "{}", status.stdout);
    export(temp.path(), &[]);
    let po = std::fs::read_to_string(temp.path().join("ja.po")).unwrap();
    assert!(
        po.contains("# 「気長に」より短く。\n#. card flavor"),
        "{po}"
    );
}

#[test]
fn a_stale_po_is_refused_unless_accepted() {
    let temp = scratch("synced");
    export(temp.path(), &[]);
    // The translator works on the export…
    let po = std::fs::read_to_string(temp.path().join("ja.po")).unwrap();
    std::fs::write(
        temp.path().join("ja.po"),
        po.replace("msgstr \"峡谷の竜\"", "msgstr \"峡谷の大竜\""),
    )
    .unwrap();
    // …while a designer renames the card.
    let set = temp.path().join("pool/mini-gulch.yaml");
    let english = std::fs::read_to_string(&set).unwrap();
    std::fs::write(
        &set,
        english.replace("name: Canyon Wyrm", "name: Canyon Wyrmling"),
    )
    .unwrap();
    let before = files(&temp.path().join("pool"));

    let refused = import(temp.path(), &[]);
    assert_eq!(refused.code, 1);
    insta::assert_snapshot!("import_stale_refused", refused.stderr);
    assert_eq!(
        files(&temp.path().join("pool")),
        before,
        "a failed import changes nothing"
    );

    let accepted = import(temp.path(), &["--accept-stale"]);
    assert_eq!(accepted.code, 0, "{}", accepted.stderr);
    let status = blades(
        temp.path(),
        &["--cards", "pool", "--format", "json", "i18n", "status"],
    );
    let report = json(&status.stdout);
    let entry = report["languages"][0]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["context"] == "mini-gulch/canyon-wyrm/name")
        .unwrap()
        .clone();
    assert_eq!(entry["state"], "stale");
    assert_eq!(entry["then"], "Canyon Wyrm");
    assert_eq!(entry["now"], "Canyon Wyrmling");
    let locale =
        std::fs::read_to_string(temp.path().join("pool/locales/ja/mini-gulch.yaml")).unwrap();
    assert!(
        locale.contains("text: 峡谷の大竜\n      source: Canyon Wyrm\n"),
        "{locale}"
    );
}

#[test]
fn clearing_fuzzy_marks_a_text_translated() {
    let temp = scratch("drifted");
    export(temp.path(), &[]);
    let po = std::fs::read_to_string(temp.path().join("ja.po")).unwrap();
    let stale_entry = "#, fuzzy\n#| msgid \"Dust Owl\"\nmsgctxt \"mini-gulch/dust-owl/name\"\nmsgid \"Dusk Owl\"\nmsgstr \"砂ぼこりのフクロウ\"";
    assert!(po.contains(stale_entry), "{po}");
    let po = po.replace(
        stale_entry,
        "msgctxt \"mini-gulch/dust-owl/name\"\nmsgid \"Dusk Owl\"\nmsgstr \"夕暮れのフクロウ\"",
    );
    std::fs::write(temp.path().join("ja.po"), po).unwrap();
    let run = import(temp.path(), &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("0 added, 1 updated"), "{}", run.stderr);
    let status = json(
        &blades(
            temp.path(),
            &["--cards", "pool", "--format", "json", "i18n", "status"],
        )
        .stdout,
    );
    let ja = &status["languages"][0];
    assert_eq!(ja["stale"], 4);
    let owl = ja["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["context"] == "mini-gulch/dust-owl/name")
        .unwrap()
        .clone();
    assert_eq!(owl["state"], "translated");
}

#[test]
fn an_invalid_po_is_a_located_error_and_changes_nothing() {
    let temp = scratch("synced");
    std::fs::copy(fixtures().join("po/invalid.po"), temp.path().join("ja.po")).unwrap();
    let before = files(&temp.path().join("pool"));
    let run = import(temp.path(), &[]);
    // A malformed file is exit 2, as any malformed input.
    assert_eq!(run.code, 2);
    insta::assert_snapshot!("import_invalid_po", run.stderr);
    assert_eq!(files(&temp.path().join("pool")), before);
    let run = blades(
        temp.path(),
        &[
            "--cards", "pool", "--format", "json", "i18n", "import", "ja.po",
        ],
    );
    assert_eq!(
        located(&run.stdout),
        [
            "ja.po:8:8 po-syntax [unterminated string] this string has no closing quote",
            "ja.po:12:12 po-syntax [unknown escape] unknown escape `\\q`",
        ]
    );
}

#[test]
fn unknown_fields_and_languages_are_refused() {
    let temp = scratch("synced");
    export(temp.path(), &[]);
    let po = std::fs::read_to_string(temp.path().join("ja.po")).unwrap();
    std::fs::write(
        temp.path().join("ja.po"),
        po.replace("mini-gulch/canyon-wyrm/name", "mini-gulch/canyon-wyrn/name"),
    )
    .unwrap();
    let before = files(&temp.path().join("pool"));
    let run = blades(
        temp.path(),
        &[
            "--cards", "pool", "--format", "json", "i18n", "import", "ja.po",
        ],
    );
    assert_eq!(run.code, 1);
    let report = json(&run.stdout);
    let d = &report["diagnostics"][0];
    assert_eq!(d["code"], "po-unknown-context");
    assert_eq!(
        d["help"],
        "did you mean `mini-gulch/canyon-wyrm/name`? If its text is gone, `blades i18n update FILE` makes the entry obsolete, or --accept-stale skips it"
    );
    let run = import(temp.path(), &["--lang", "fr"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("this PO file is for `ja`, not `fr`"),
        "{}",
        run.stderr
    );
    assert_eq!(files(&temp.path().join("pool")), before);
}

fn set_header_language(dir: &Path, language: &str) {
    let po = std::fs::read_to_string(dir.join("ja.po")).unwrap();
    let po: Vec<String> = po
        .lines()
        .map(|l| {
            if l.starts_with("\"Language: ") {
                format!("\"Language: {language}\\n\"")
            } else {
                l.to_string()
            }
        })
        .collect();
    std::fs::write(dir.join("ja.po"), po.join("\n") + "\n").unwrap();
}

#[test]
fn language_codes_are_normalised_and_a_mismatch_refused() {
    let temp = scratch("synced");
    export(temp.path(), &[]);
    let before = files(&temp.path().join("pool"));
    // POSIX and BCP 47 forms name the project's `ja`.
    for (header, extra) in [
        ("ja_JP", &["--lang", "ja"][..]),
        ("ja-JP", &[][..]),
        ("ja_JP.UTF-8", &["--lang", "ja-JP"][..]),
    ] {
        set_header_language(temp.path(), header);
        let run = import(temp.path(), extra);
        assert_eq!(run.code, 0, "{header}: {}", run.stderr);
        assert!(
            run.stderr.contains("(ja): 0 added, 0 updated"),
            "{}",
            run.stderr
        );
        assert_eq!(files(&temp.path().join("pool")), before, "{header}");
        set_header_language(temp.path(), "ja");
    }
    // A file for a language the pool has no translations of is refused
    // unless `--lang` starts it; a mismatch is refused.
    set_header_language(temp.path(), "fr");
    let run = import(temp.path(), &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("the pool has no French (`fr`) translations"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("pass `--lang fr`"), "{}", run.stderr);
    let run = import(temp.path(), &["--lang", "ja"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("this PO file is for `fr`, not `ja`"),
        "{}",
        run.stderr
    );
    assert_eq!(files(&temp.path().join("pool")), before);
    let run = import(temp.path(), &["--lang", "fr", "--dry-run"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("locales/fr/mini-gulch.yaml"),
        "{}",
        run.stderr
    );
    // `--lang` takes the same forms in every command.
    let status = blades(
        temp.path(),
        &["--cards", "pool", "i18n", "status", "--lang", "ja_JP"],
    );
    assert_eq!(status.code, 0, "{}", status.stderr);
    assert!(
        status.stdout.starts_with("Japanese (ja):"),
        "{}",
        status.stdout
    );
    let export_again = blades(
        temp.path(),
        &[
            "--cards", "pool", "i18n", "export", "--lang", "ja-JP", "-o", "again.po",
        ],
    );
    assert_eq!(export_again.code, 0, "{}", export_again.stderr);
    assert!(
        std::fs::read_to_string(temp.path().join("again.po"))
            .unwrap()
            .contains("\"Language: ja\\n\"")
    );
}

#[test]
fn charsets_are_honoured_or_refused_and_bad_bytes_located() {
    let temp = scratch("synced");
    export(temp.path(), &[]);
    let po = std::fs::read_to_string(temp.path().join("ja.po")).unwrap();
    let before = files(&temp.path().join("pool"));
    let json_import = |dir: &Path| {
        blades(
            dir,
            &[
                "--cards", "pool", "--format", "json", "i18n", "import", "ja.po",
            ],
        )
    };
    // EUC-JP is refused at its name, exit 2.
    std::fs::write(
        temp.path().join("ja.po"),
        po.replace("charset=UTF-8", "charset=EUC-JP"),
    )
    .unwrap();
    let run = json_import(temp.path());
    assert_eq!(run.code, 2, "{}", run.stdout);
    let line = po.lines().position(|l| l.contains("charset=")).unwrap() + 1;
    let column = po.lines().nth(line - 1).unwrap().find("UTF-8").unwrap() + 1;
    assert_eq!(
        located(&run.stdout),
        [format!(
            "ja.po:{line}:{column} not-utf8 [unsupported charset] this file is in `EUC-JP`; PO files are read as UTF-8 or ISO-8859-1"
        )]
    );
    // A byte that is not UTF-8 is located at its line and column.
    let at = po.find("msgstr \"峡谷の竜\"").unwrap() + "msgstr \"".len();
    let mut bytes = po.as_bytes().to_vec();
    bytes[at] = 0xff;
    std::fs::write(temp.path().join("ja.po"), &bytes).unwrap();
    let run = json_import(temp.path());
    assert_eq!(run.code, 2);
    let line = po[..at].lines().count();
    assert_eq!(
        located(&run.stdout),
        [format!(
            "ja.po:{line}:9 not-utf8 [invalid UTF-8 starts here] byte {at} is not valid UTF-8"
        )]
    );
    let human = import(temp.path(), &[]);
    assert!(
        human.stderr.contains(&format!("[ja.po:{line}:9]")),
        "{}",
        human.stderr
    );
    assert_eq!(files(&temp.path().join("pool")), before);
}

// ----- the database and `card show` ----------------------------------------

#[test]
fn the_database_carries_every_language() {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("cards.json");
    let run = blades(
        &fixtures(),
        &[
            "--cards",
            "drifted",
            "build",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let db = json(&std::fs::read_to_string(&out).unwrap());
    let card = |id: &str| {
        db["cards"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap()
            .clone()
    };
    assert_eq!(
        card("canyon-wyrm")["translations"]["ja"],
        serde_json::json!({"name": "峡谷の竜", "flavor": "日に焼けて、気長に待つ。", "stale": ["flavor"]})
    );
    assert_eq!(
        card("dust-owl")["translations"]["ja"]["effect"],
        "ちょこまか。\nプレイ：1RPを得る。"
    );
    assert_eq!(card("storm-mesa").get("translations"), None);
    assert_eq!(
        db["sets"][1]["translations"]["ja"],
        serde_json::json!({"name": "ミニ峡谷"})
    );
}

#[test]
fn card_show_finds_cards_by_any_name() {
    let dir = fixtures();
    let both = blades(&dir, &["--cards", "synced", "card", "show", "峡谷の竜"]);
    assert_eq!(both.code, 0, "{}", both.stderr);
    insta::assert_snapshot!("card_show_both", both.stdout);
    let ja = blades(
        &dir,
        &[
            "--cards", "synced", "card", "show", "dust", "OWL", "--lang", "ja",
        ],
    );
    assert_eq!(ja.code, 0, "{}", ja.stderr);
    insta::assert_snapshot!("card_show_ja", ja.stdout);
    let en = blades(
        &dir,
        &[
            "--cards",
            "synced",
            "card",
            "show",
            "ember-mage",
            "--lang",
            "en",
        ],
    );
    assert!(
        en.stdout.starts_with("Ember Mage\n  id       ember-mage\n"),
        "{}",
        en.stdout
    );
    assert!(!en.stdout.contains("魔道士"), "{}", en.stdout);
    let json_run = blades(
        &dir,
        &[
            "--cards",
            "synced",
            "--format",
            "json",
            "card",
            "show",
            "ブリキの斥候",
        ],
    );
    let value = json(&json_run.stdout);
    assert_eq!(value["card"]["id"], "tin-scout");
    assert_eq!(value["set"]["translations"]["ja"]["name"], "ミニ基本セット");
    let missing = blades(&dir, &["--cards", "synced", "card", "show", "Canyon Wurm"]);
    assert_eq!(missing.code, 2);
    assert!(
        missing.stderr.contains("no card is named `Canyon Wurm`")
            && missing.stderr.contains("help: did you mean `Canyon Wyrm`?"),
        "{}",
        missing.stderr
    );
}

// ----- phrase templates ---------------------------------------------------

/// Replaces the first `from` in a file of a scratch pool.
fn edit(temp: &tempfile::TempDir, relative: &str, from: &str, to: &str) {
    let path = temp.path().join("pool").join(relative);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "no `{from}` in {relative}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

/// `i18n status` entries of the only language, by context.
fn status_entries(dir: &Path, args: &[&str]) -> BTreeMap<String, Value> {
    let mut all = args.to_vec();
    all.extend(["--format", "json", "i18n", "status"]);
    let report = json(&blades(dir, &all).stdout);
    report["languages"][0]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["context"].as_str().unwrap().to_string(), e.clone()))
        .collect()
}

#[test]
fn the_builtin_pool_tracks_its_phrase_templates() {
    let gate = blades(
        &fixtures(),
        &[
            "i18n",
            "status",
            "--lang",
            "ja",
            "--fail-on",
            "missing,stale",
        ],
    );
    assert_eq!(gate.code, 0, "{}", gate.stdout);
    let templates = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("cards/phrases/ja.yaml"),
    )
    .unwrap()
    .lines()
    .filter(|l| l.contains(": {text: "))
    .count();
    assert!(templates > 150, "{templates}");
    let row = format!("  phrases  {templates:>28}        0      0         0\n");
    assert!(gate.stdout.contains(&row), "no `{row}` in\n{}", gate.stdout);
    let entries = status_entries(&fixtures(), &[]);
    let ability = &entries["phrase:line.ability"];
    assert_eq!(
        (&ability["state"], &ability["file"]),
        (&"translated".into(), &"cards/phrases/ja.yaml".into())
    );
    // A Japanese-only variant counts; an English-only one is not missing.
    assert_eq!(entries["phrase:action.flip.cont"]["state"], "translated");
    assert!(!entries.contains_key("phrase:action.flip.3rd"));
}

#[test]
fn a_japanese_variant_follows_the_english_it_was_made_from() {
    let temp = scratch("drifted");
    let en = "phrases/en.yaml";
    edit(
        &temp,
        en,
        r#""flip": "flip {target}""#,
        r#""flip": "turn over {target}""#,
    );
    edit(
        &temp,
        en,
        r#""tokens": "+1 STAR token on {on}""#,
        r#""tokens": "+1 STAR token placed on {on}""#,
    );
    let entries = status_entries(temp.path(), &["--cards", "pool"]);
    // English has no `cont` form: the Japanese one was made from the plain key.
    for context in ["phrase:action.flip", "phrase:action.flip.cont"] {
        let e = &entries[context];
        assert_eq!(
            (&e["state"], &e["then"], &e["now"]),
            (
                &"stale".into(),
                &"flip {target}".into(),
                &"turn over {target}".into()
            ),
            "{context}"
        );
    }
    assert!(!entries.contains_key("phrase:action.flip.3rd"));
    // English has its own plural: the Japanese plural follows that one.
    assert_eq!(entries["phrase:count.tokens"]["state"], "stale");
    assert_eq!(entries["phrase:count.tokens.plural"]["state"], "translated");
    // The PO file says what the `cont` form is made from.
    export(temp.path(), &[]);
    let po = std::fs::read_to_string(temp.path().join("ja.po")).unwrap();
    for expected in [
        "#. English has no `cont` form: translate the English of `action.flip`\n",
        "#, fuzzy, python-brace-format\n#| msgid \"flip {target}\"\nmsgctxt \"phrase:action.flip.cont\"\nmsgid \"turn over {target}\"\nmsgstr \"{target}を裏返し\"\n",
    ] {
        assert!(po.contains(expected), "no {expected:?} in the PO file");
    }
}

#[test]
fn a_broken_phrase_translation_is_a_located_error() {
    let temp = scratch("drifted");
    let ja = "phrases/ja.yaml";
    edit(
        &temp,
        ja,
        "{text: \"{amount}を得る\"",
        "{text: \"{amout}を得る\"",
    );
    edit(&temp, ja, "timing.next:", "timing.nxt:");
    let out = temp.path().join("cards.json");
    let args = [
        "--cards",
        "pool",
        "--format",
        "json",
        "build",
        "--out",
        out.to_str().unwrap(),
    ];
    let build = blades(temp.path(), &args);
    assert_eq!(build.code, 1, "{}", build.stderr);
    assert!(!out.exists());
    // Where the two edits are in the book (it grows as the language does).
    let book = std::fs::read_to_string(temp.path().join("pool").join(ja)).unwrap();
    let at = |needle: &str| {
        let (n, line) = book
            .lines()
            .enumerate()
            .find(|(_, l)| l.contains(needle))
            .unwrap();
        (
            n + 1,
            line[..line.find(needle).unwrap()].chars().count() + 1,
        )
    };
    let (nxt, _) = at("timing.nxt:");
    let (amout, column) = at("\"{amout}"); // the string, from its quote
    assert_eq!(
        located(&build.stdout),
        [
            "pool/phrases/ja.yaml:1:1 data-invalid [required phrases are missing] missing phrase `timing.next`".to_string(),
            format!("pool/phrases/ja.yaml:{nxt}:1 data-invalid [not a phrase key] unknown phrase `timing.nxt`"),
            format!("pool/phrases/ja.yaml:{amout}:{column} data-invalid [unknown placeholder `{{amout}}`] `action.gain_rp`: unknown placeholder `{{amout}}` (allowed: amount)"),
        ]
    );
    // The translator sees the same in `check`; `status` has the key missing
    // and the misspelt one orphaned.
    let check = blades(
        temp.path(),
        &["--cards", "pool", "--format", "json", "i18n", "check"],
    );
    assert_eq!(check.code, 1);
    let found = located(&check.stdout);
    for line in &located(&build.stdout)[1..] {
        assert!(found.contains(line), "no {line} in {found:#?}");
    }
    let entries = status_entries(temp.path(), &["--cards", "pool"]);
    assert_eq!(entries["phrase:timing.next"]["state"], "missing");
    assert_eq!(entries["phrase:timing.nxt"]["state"], "orphaned");
    // A phrase file in the book format (how Japanese used to be written).
    std::fs::write(
        temp.path().join("pool").join(ja),
        "{ \"lang\": \"ja\", \"phrases\": { \"timing\": { \"play\": \"プレイ\" } } }\n",
    )
    .unwrap();
    let build = blades(temp.path(), &args);
    assert_eq!(build.code, 1);
    assert_eq!(
        located(&build.stdout),
        [
            "pool/phrases/ja.yaml:1:1 locale-invalid [book format] this is a phrasebook in the English book format (`lang`, `phrases`), not a translation"
        ]
    );
}

#[test]
fn a_pool_renders_with_its_own_phrase_books() {
    let effect_text = |dir: &Path, pool: &str| {
        let out = dir.join("cards.json");
        let run = blades(
            dir,
            &["--cards", pool, "build", "--out", out.to_str().unwrap()],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let db = json(&std::fs::read_to_string(&out).unwrap());
        db["cards"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == "canyon-wyrm")
            .unwrap()["effect-text"]
            .clone()
    };
    let temp = scratch("drifted");
    edit(
        &temp,
        "phrases/en.yaml",
        r#""gain_rp": "gain {amount}""#,
        r#""gain_rp": "earn {amount}""#,
    );
    edit(
        &temp,
        "phrases/ja.yaml",
        "{text: \"{amount}を得る\"",
        "{text: \"{amount}を獲得する\"",
    );
    assert_eq!(
        effect_text(temp.path(), "pool"),
        serde_json::json!({
            "en": "Play: Earn 2 RP for each fire card in your tableau.",
            "ja": "プレイ：自分のプレイエリアにある炎のカード1枚につき2RPを獲得する。"
        })
    );
    // No books of its own: the built-in ones.
    let temp = scratch("synced");
    assert_eq!(
        effect_text(temp.path(), "pool")["en"],
        "Play: Gain 2 RP for each fire card in your tableau."
    );
    // Its own Japanese only: a translation of the built-in English.
    let ja = temp.path().join("pool/phrases/ja.yaml");
    std::fs::create_dir_all(ja.parent().unwrap()).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("cards/phrases/ja.yaml"),
        &ja,
    )
    .unwrap();
    edit(
        &temp,
        "phrases/ja.yaml",
        "{text: \"{amount}を得る\"",
        "{text: \"{amount}を獲得する\"",
    );
    assert_eq!(
        effect_text(temp.path(), "pool")["ja"],
        "プレイ：自分のプレイエリアにある炎のカード1枚につき2RPを獲得する。"
    );
    let entries = status_entries(temp.path(), &["--cards", "pool"]);
    let ability = &entries["phrase:line.ability"];
    assert_eq!(ability["state"], "translated");
    assert!(entries.values().all(|e| e["state"] == "translated"));
}

#[test]
fn a_phrase_translation_comes_back_from_po_as_one_changed_line() {
    let temp = scratch("drifted");
    export(temp.path(), &[]);
    let po = std::fs::read_to_string(temp.path().join("ja.po")).unwrap();
    assert!(po.contains("msgctxt \"phrase:line.ability\"\nmsgid \"{timing}: {sentences}\"\nmsgstr \"{timing}：{sentences}\"\n"));
    // The translator reviews the stale template and keeps the text.
    let stale = "#, fuzzy, python-brace-format\n#| msgid \"RP equal to the STAR of {target}\"\nmsgctxt \"phrase:amount.star_of\"";
    assert!(po.contains(stale), "{po}");
    std::fs::write(
        temp.path().join("ja.po"),
        po.replace(
            stale,
            "#, python-brace-format\nmsgctxt \"phrase:amount.star_of\"",
        ),
    )
    .unwrap();
    let before = files(&temp.path().join("pool"));
    let run = import(temp.path(), &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("0 added, 1 updated"), "{}", run.stderr);
    let after = files(&temp.path().join("pool"));
    let changed: Vec<&String> = after
        .keys()
        .filter(|k| before.get(*k) != after.get(*k))
        .collect();
    assert_eq!(changed, ["phrases/ja.yaml"]);
    let old = String::from_utf8(before["phrases/ja.yaml"].clone()).unwrap();
    let new = String::from_utf8(after["phrases/ja.yaml"].clone()).unwrap();
    let diff: Vec<(&str, &str)> = old
        .lines()
        .zip(new.lines())
        .filter(|(o, n)| o != n)
        .collect();
    assert_eq!(old.lines().count(), new.lines().count());
    assert_eq!(diff.len(), 1, "{diff:#?}");
    assert!(
        diff[0]
            .1
            .starts_with("amount.star_of: {text: \"{target}のスターレーティングと同じ値のRP\", source: \"RP equal to the STAR rating of {target}\", fingerprint: "),
        "{}",
        diff[0].1
    );
    let entries = status_entries(temp.path(), &["--cards", "pool"]);
    assert_eq!(entries["phrase:amount.star_of"]["state"], "translated");
}

// ----- the shipped files ------------------------------------------------------

#[test]
fn shipped_locale_files_are_in_canonical_form() {
    use blades::i18n::{Project, UnitKey, locale};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("cards");
    let pool = blades::pool::Pool::from_dir(&root).unwrap();
    let project = Project::load(&pool);
    assert!(project.diagnostics.is_empty());
    let ja = project.locales.get("ja").expect("Japanese locale files");
    assert_eq!(
        ja.files.len(),
        project.sets.len() + 1,
        "one file per set, and the phrase templates"
    );
    let position = |k: &UnitKey| project.position(k);
    for file in &ja.files {
        let text = pool.data_file(&file.relative).unwrap().text();
        let rendered = match &file.target {
            locale::Target::Set(set) => {
                locale::render_set_file("ja", set, &file.entries, &position)
            }
            locale::Target::Phrases => locale::render_phrase_file(
                "ja",
                file.header.as_deref(),
                file.options.as_ref(),
                &file.entries,
                &position,
            ),
        };
        assert_eq!(&rendered, &**text, "{} is not canonical", file.relative);
    }
    // The library exposes the names for look-ups.
    assert_eq!(ja.card_name("high-noon-sheriff"), Some("真昼の保安官"));
    assert_eq!(ja.set_name("sunset-gulch"), Some("夕焼け峡谷"));
    assert_eq!(
        project.locales.card_by_name("真昼の保安官"),
        Some("high-noon-sheriff")
    );
}

// ----- GNU gettext ------------------------------------------------------------

/// A GNU gettext tool, when it is installed (a note is printed when not).
fn gettext_tool(name: &str) -> Option<std::process::Command> {
    match std::process::Command::new(name).arg("--version").output() {
        Ok(out) if out.status.success() => Some(std::process::Command::new(name)),
        _ => {
            eprintln!("note: `{name}` (GNU gettext) is not installed; this check is skipped");
            None
        }
    }
}

/// Each fixture's export, and the built-in pool's with every effect.
fn exports() -> Vec<(String, tempfile::TempDir)> {
    let mut out = Vec::new();
    for fixture in ["synced", "drifted", "check-bad"] {
        let temp = scratch(fixture);
        export(temp.path(), &[]);
        out.push((fixture.to_string(), temp));
    }
    let temp = tempfile::tempdir().unwrap();
    copy_dir(&common::root().join("cards"), &temp.path().join("pool"));
    export(temp.path(), &["--all-effects"]);
    out.push(("built-in".to_string(), temp));
    out
}

#[test]
fn msgcat_changes_no_byte_of_an_export() {
    let Some(_) = gettext_tool("msgcat") else {
        return;
    };
    for (name, temp) in exports() {
        let po = temp.path().join("ja.po");
        let out = gettext_tool("msgcat").unwrap().arg(&po).output().unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let ours = std::fs::read_to_string(&po).unwrap();
        let theirs = String::from_utf8(out.stdout).unwrap();
        if ours != theirs {
            let at = ours
                .lines()
                .zip(theirs.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            panic!(
                "{name}: msgcat rewrites line {}:\n{:?}\n{:?}",
                at + 1,
                ours.lines().nth(at),
                theirs.lines().nth(at)
            );
        }
    }
}

#[test]
fn msgfmt_check_is_silent_on_an_export() {
    let Some(_) = gettext_tool("msgfmt") else {
        return;
    };
    for (name, temp) in exports().into_iter().filter(|(n, _)| n != "check-bad") {
        let out = gettext_tool("msgfmt")
            .unwrap()
            .args(["-c", "-o", "/dev/null", "ja.po"])
            .current_dir(temp.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{name}");
    }
}

#[test]
fn msgfmt_checks_placeholders_and_every_entry_has_a_msgid() {
    let temp = tempfile::tempdir().unwrap();
    copy_dir(&common::root().join("cards"), &temp.path().join("pool"));
    export(temp.path(), &[]);
    let text = std::fs::read_to_string(temp.path().join("ja.po")).unwrap();
    let file = blades::i18n::po::parse(&text).unwrap();
    for entry in file.entries.iter().filter(|e| !e.is_header()) {
        assert!(!entry.msgid.value.is_empty(), "{entry:?}");
    }
    // An empty template and an empty translation are written `(empty)`.
    assert!(
        text.contains("msgctxt \"phrase:sentence.join\"\nmsgid \"(empty)\"\nmsgstr \"(empty)\"\n"),
        "{text}"
    );
    assert!(text.contains("#, python-brace-format\nmsgctxt \"phrase:line.ability\"\n"));
    let Some(_) = gettext_tool("msgfmt") else {
        return;
    };
    // A translation that loses a placeholder is caught by msgfmt -c.
    let broken = text.replace("msgstr \"{timing}：{sentences}\"", "msgstr \"{timing}：\"");
    assert_ne!(broken, text);
    std::fs::write(temp.path().join("broken.po"), broken).unwrap();
    let out = gettext_tool("msgfmt")
        .unwrap()
        .args(["-c", "-o", "/dev/null", "broken.po"])
        .current_dir(temp.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("'sentences'"));
}

#[test]
fn an_empty_translation_round_trips_as_a_word() {
    let temp = scratch("synced");
    export(temp.path(), &["--all-effects"]);
    let po = std::fs::read_to_string(temp.path().join("ja.po")).unwrap();
    // The synced pool renders with the built-in books: it has no phrases.
    assert!(!po.contains("(empty)"));
    let temp = tempfile::tempdir().unwrap();
    copy_dir(&common::root().join("cards"), &temp.path().join("pool"));
    export(temp.path(), &[]);
    let po = std::fs::read_to_string(temp.path().join("ja.po")).unwrap();
    // The translator gives `unit.cards` (empty in English) an empty
    // Japanese: the locale file says so.
    let entry = "msgctxt \"phrase:unit.cards\"\nmsgid \"(empty)\"\nmsgstr \"枚\"\n";
    assert!(po.contains(entry), "{po}");
    std::fs::write(
        temp.path().join("ja.po"),
        po.replace(
            entry,
            "msgctxt \"phrase:unit.cards\"\nmsgid \"(empty)\"\nmsgstr \"(empty)\"\n",
        ),
    )
    .unwrap();
    let run = import(temp.path(), &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("0 added, 1 updated"), "{}", run.stderr);
    let phrases = std::fs::read_to_string(temp.path().join("pool/phrases/ja.yaml")).unwrap();
    assert!(phrases.contains("unit.cards: {text: \"\","), "{phrases}");
}

// ----- bringing an old PO file up to date ---------------------------------------

/// A translator's PO file made before the designers moved on: the export
/// of `synced` with the canyon wyrm's flavor retranslated; since then the
/// dust owl became the dusk owl (a new card id: its texts are orphans) and
/// the canyon wyrm was renamed (its name is stale).
fn outdated_po() -> tempfile::TempDir {
    let temp = scratch("synced");
    export(temp.path(), &[]);
    let po = std::fs::read_to_string(temp.path().join("ja.po")).unwrap();
    let edited = po.replace(
        "msgstr \"日に焼けて、気長に待つ。\"",
        "msgstr \"日に焼けて、じっと待つ。\"",
    );
    assert_ne!(po, edited);
    std::fs::write(temp.path().join("ja.po"), edited).unwrap();
    edit(
        &temp,
        "mini-gulch.yaml",
        "id: dust-owl\n    name: Dust Owl",
        "id: dusk-owl\n    name: Dusk Owl",
    );
    edit(
        &temp,
        "mini-gulch.yaml",
        "name: Canyon Wyrm",
        "name: Canyon Wyrmling",
    );
    temp
}

/// What a PO file says per context: (translation, fuzzy, obsolete).
fn po_entries(path: &Path) -> BTreeMap<String, (String, bool, bool)> {
    let text = std::fs::read_to_string(path).unwrap();
    let file = blades::i18n::po::parse(&text).unwrap_or_else(|e| panic!("{e:?}"));
    file.entries
        .iter()
        .filter(|e| !e.is_header())
        .map(|e| {
            (
                e.msgctxt.as_ref().unwrap().value.clone(),
                (e.msgstr.value.clone(), e.is_fuzzy(), e.obsolete),
            )
        })
        .collect()
}

fn assert_imports_the_update(temp: &tempfile::TempDir, po: &str) {
    let run = blades(temp.path(), &["--cards", "pool", "i18n", "import", po]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("1 updated"), "{}", run.stderr);
    let entries = status_entries(temp.path(), &["--cards", "pool"]);
    assert_eq!(entries["mini-gulch/canyon-wyrm/name"]["state"], "stale");
    assert_eq!(
        entries["mini-gulch/canyon-wyrm/name"]["then"],
        "Canyon Wyrm"
    );
    let locale =
        std::fs::read_to_string(temp.path().join("pool/locales/ja/mini-gulch.yaml")).unwrap();
    assert!(locale.contains("日に焼けて、じっと待つ。"), "{locale}");
}

#[test]
fn an_orphaned_entry_is_skipped_with_accept_stale() {
    let temp = outdated_po();
    let refused = blades(
        temp.path(),
        &[
            "--cards", "pool", "--format", "json", "i18n", "import", "ja.po",
        ],
    );
    assert_eq!(refused.code, 1, "{}", refused.stdout);
    assert!(
        refused
            .stdout
            .contains("`blades i18n update FILE` makes the entry obsolete"),
        "{}",
        refused.stdout
    );
    let accepted = import(temp.path(), &["--accept-stale"]);
    assert_eq!(accepted.code, 0, "{}", accepted.stderr);
    assert!(
        accepted
            .stderr
            .contains("3 skipped (their text is gone from the pool)"),
        "{}",
        accepted.stderr
    );
}

#[test]
fn msgmerge_with_the_template_then_import_works() {
    let temp = outdated_po();
    let run = blades(
        temp.path(),
        &[
            "--cards",
            "pool",
            "i18n",
            "export",
            "--template",
            "-o",
            "new.pot",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let pot = std::fs::read_to_string(temp.path().join("new.pot")).unwrap();
    assert!(pot.contains("\"Language: \\n\""), "{pot}");
    assert!(
        pot.contains("msgctxt \"mini-gulch/dusk-owl/name\"\nmsgid \"Dusk Owl\"\nmsgstr \"\"\n")
    );
    assert!(!pot.contains("砂"), "a template holds no translation");
    let Some(mut msgmerge) = gettext_tool("msgmerge") else {
        return;
    };
    let out = msgmerge
        .args(["--previous", "-q", "-o", "merged.po", "ja.po", "new.pot"])
        .current_dir(temp.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged = po_entries(&temp.path().join("merged.po"));
    // (msgmerge carries the owl's name and flavor to the new id, fuzzy.)
    assert!(
        merged["mini-gulch/dust-owl/effect"].2,
        "orphans are obsolete"
    );
    assert!(
        merged["mini-gulch/canyon-wyrm/name"].1,
        "a changed English is fuzzy"
    );
    assert_imports_the_update(&temp, "merged.po");
}

#[test]
fn update_keeps_translations_and_makes_orphans_obsolete() {
    let temp = outdated_po();
    let old = po_entries(&temp.path().join("ja.po"));
    std::fs::copy(temp.path().join("ja.po"), temp.path().join("old.po")).unwrap();
    let run = blades(temp.path(), &["--cards", "pool", "i18n", "update", "ja.po"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("(1 fuzzy, 2 untranslated), 3 obsolete"),
        "{}",
        run.stderr
    );
    let text = std::fs::read_to_string(temp.path().join("ja.po")).unwrap();
    assert!(
        text.contains("#, fuzzy\n#| msgid \"Canyon Wyrm\"\nmsgctxt \"mini-gulch/canyon-wyrm/name\"\nmsgid \"Canyon Wyrmling\"\nmsgstr \"峡谷の竜\"\n"),
        "{text}"
    );
    assert!(
        text.contains("#~ msgctxt \"mini-gulch/dust-owl/name\"\n#~ msgid \"Dust Owl\"\n"),
        "{text}"
    );
    // Every translation typed is still there, live or obsolete.
    let new = po_entries(&temp.path().join("ja.po"));
    for (context, (text, _, _)) in &old {
        assert_eq!(&new[context].0, text, "{context}");
    }
    // Updating again changes nothing; msgcat changes no byte.
    let again = blades(
        temp.path(),
        &[
            "--cards", "pool", "i18n", "update", "ja.po", "-o", "again.po",
        ],
    );
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(
        std::fs::read_to_string(temp.path().join("again.po")).unwrap(),
        text
    );
    if let Some(mut msgcat) = gettext_tool("msgcat") {
        let out = msgcat.arg(temp.path().join("ja.po")).output().unwrap();
        assert_eq!(String::from_utf8(out.stdout).unwrap(), text);
    }
    // It agrees with msgmerge on every entry.
    if let Some(mut msgmerge) = gettext_tool("msgmerge") {
        let pot = blades(
            temp.path(),
            &[
                "--cards",
                "pool",
                "i18n",
                "export",
                "--template",
                "-o",
                "new.pot",
            ],
        );
        assert_eq!(pot.code, 0);
        let out = msgmerge
            .args(["--previous", "-q", "-o", "merged.po", "old.po", "new.pot"])
            .current_dir(temp.path())
            .output()
            .unwrap();
        assert!(out.status.success());
        // (Except for the owl, whose texts msgmerge carries to its new id.)
        let merged = po_entries(&temp.path().join("merged.po"));
        let unmoved = |m: &BTreeMap<String, (String, bool, bool)>| -> Vec<_> {
            m.iter()
                .filter(|(c, _)| !c.contains("-owl/"))
                .map(|(c, v)| (c.clone(), v.clone()))
                .collect()
        };
        assert_eq!(unmoved(&merged), unmoved(&new));
    }
    assert_imports_the_update(&temp, "ja.po");
}

/// A translation that breaks the house rules is refused at import, every
/// problem located at its place in the PO file (across continued lines),
/// and nothing is written; the fixes the findings suggest then import.
#[test]
fn import_checks_the_house_rules_at_the_po_line() {
    let temp = scratch("synced");
    export(temp.path(), &[]);
    let po_path = temp.path().join("ja.po");
    let po = std::fs::read_to_string(&po_path).unwrap();
    let edited = po.replace(
        "msgstr \"日に焼けて、気長に待つ。\"",
        "msgstr \"\"\n\"日に焼けて、\"\n\"デッキボックスで待つ.\"",
    );
    assert_ne!(po, edited);
    std::fs::write(&po_path, &edited).unwrap();
    let before = files(&temp.path().join("pool"));
    let run = import(temp.path(), &["--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(files(&temp.path().join("pool")), before);
    let report = run.json();
    let found: Vec<(String, String)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            assert_eq!(d["file"], "ja.po", "{d}");
            let span = d["start"].as_u64().unwrap() as usize..d["end"].as_u64().unwrap() as usize;
            (
                d["code"].as_str().unwrap().to_string(),
                edited[span].to_string(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                "glossary-forbidden".to_string(),
                "デッキボックス".to_string()
            ),
            ("style-punctuation".to_string(), ".".to_string()),
        ]
    );
    // Each finding's label says what to write; written, the import takes it.
    let mut fixed = edited.clone();
    for d in report["diagnostics"].as_array().unwrap().iter().rev() {
        let label = d["label"].as_str().unwrap();
        let fix = label.split('`').nth(1).unwrap();
        let span = d["start"].as_u64().unwrap() as usize..d["end"].as_u64().unwrap() as usize;
        fixed.replace_range(span, fix);
    }
    std::fs::write(&po_path, &fixed).unwrap();
    let run = import(temp.path(), &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("0 added, 1 updated"), "{}", run.stderr);
}

/// The key a finding's message names first (`` `mini-gulch/dust-owl/name` ``).
fn named_key(message: &str) -> Option<String> {
    Some(message.split('`').nth(1)?.to_string())
}

#[test]
fn check_warns_stale_exactly_where_status_counts_a_stale_text_it_can_compare() {
    let mut compared = 0;
    for pool in common::fixture_pools() {
        let dir = pool.to_str().unwrap();
        let status = blades(
            &fixtures(),
            &["--cards", dir, "--format", "json", "i18n", "status"],
        );
        let check = blades(
            &fixtures(),
            &["--cards", dir, "--format", "json", "i18n", "check"],
        );
        let (Ok(status), Ok(check)) = (
            serde_json::from_str::<Value>(&status.stdout),
            serde_json::from_str::<Value>(&check.stdout),
        ) else {
            continue;
        };
        let diagnostics = check["diagnostics"].as_array().cloned().unwrap_or_default();
        let keys_of = |code: &str| -> std::collections::BTreeSet<String> {
            diagnostics
                .iter()
                .filter(|d| d["code"] == code)
                .filter_map(|d| named_key(d["message"].as_str()?))
                .collect()
        };
        let broken_records = keys_of("locale-fingerprint");
        let warned = keys_of("locale-stale");
        let languages = status["languages"].as_array().cloned().unwrap_or_default();
        let counted: std::collections::BTreeSet<String> = languages
            .iter()
            .flat_map(|language| language["entries"].as_array().cloned().unwrap_or_default())
            .filter(|entry| entry["state"] == "stale" && entry["reason"] != "no-fingerprint")
            .filter_map(|entry| entry["context"].as_str().map(str::to_string))
            .filter(|key| !broken_records.contains(key))
            .collect();
        assert_eq!(warned, counted, "{}", pool.display());
        compared += counted.len();
    }
    assert!(compared >= 4, "the fixtures have stale texts to compare");
}

// ----- the memo of earlier runs -----------------------------------------

/// `i18n status` through the memo it keeps beside a build's output
/// (`dist/.blades-i18n`), and `i18n status` and `i18n check` read back from
/// the answers kept by an earlier run (`dist/.blades-i18n-answers`), answer
/// as a run that parses every file: on every fixture pool, when the memo
/// and the answers are written, when they answer for files left unread,
/// after an edit of a set file and a locale file, and when either is
/// damaged.
#[test]
fn status_through_the_memo_answers_as_reading_every_file() {
    let pools: Vec<PathBuf> = common::fixture_pools()
        .into_iter()
        .chain([common::root().join("cards")])
        .collect();
    // Each pool twice: `remembering` has an output folder (the memo goes
    // there), `fresh` none (every run reads every file).
    let copies: Vec<(tempfile::TempDir, tempfile::TempDir)> = (pools.iter())
        .map(|pool| {
            let (remembering, fresh) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
            copy_dir(pool, &remembering.path().join("pool"));
            copy_dir(pool, &fresh.path().join("pool"));
            std::fs::create_dir(remembering.path().join("dist")).unwrap();
            (remembering, fresh)
        })
        .collect();
    // Files whose stamps have settled are vouched for by the memo, and
    // left unread.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    let asked: [&[&str]; 7] = [
        &["--cards", "pool", "i18n", "status"],
        &["--cards", "pool", "--format", "json", "i18n", "status"],
        &["--cards", "pool", "i18n", "status", "--lang", "ja_JP"],
        &["--cards", "pool", "i18n", "status", "--lang", "fr"],
        &["--cards", "pool", "i18n", "check"],
        &["--cards", "pool", "--format", "json", "i18n", "check"],
        &["--cards", "pool", "i18n", "check", "--lang", "ja"],
    ];
    let answers = |dir: &Path| -> Vec<String> {
        (asked.iter())
            .map(|args| {
                let run = blades(dir, args);
                format!(
                    "exit {}\n{}--- stderr\n{}",
                    run.code, run.stdout, run.stderr
                )
            })
            .collect()
    };
    for (pool, (remembering, fresh)) in pools.iter().zip(&copies) {
        let (remembering, fresh) = (remembering.path(), fresh.path());
        let expected = answers(fresh);
        let memo = remembering.join("dist/.blades-i18n");
        assert_eq!(answers(remembering), expected, "{pool:?}: writing the memo");
        let has_sets = (std::fs::read_dir(pool).unwrap())
            .any(|e| e.unwrap().path().extension().is_some_and(|e| e == "yaml"));
        assert_eq!(memo.is_file(), has_sets, "{pool:?}: the memo is kept");
        assert_eq!(answers(remembering), expected, "{pool:?}: through the memo");
        let kept = remembering.join("dist/.blades-i18n-answers");
        assert!(
            kept.is_file() || !has_sets,
            "{pool:?}: the answers are kept"
        );
        assert_eq!(answers(remembering), expected, "{pool:?}: read back");
        for dir in [remembering, fresh] {
            edit_first(&dir.join("pool"), "yaml", "name: ", "name: Edited ");
            edit_first(&dir.join("pool/locales/ja"), "yaml", "text: ", "text: 改");
        }
        let expected = answers(fresh);
        assert_eq!(answers(remembering), expected, "{pool:?}: after edits");
        assert_eq!(
            answers(remembering),
            expected,
            "{pool:?}: after edits, read back"
        );
        for kept in [&memo, &kept] {
            let Ok(mut bytes) = std::fs::read(kept) else {
                continue;
            };
            let at = bytes.len() / 2;
            bytes[at] ^= 0x55;
            std::fs::write(kept, bytes).unwrap();
            assert_eq!(
                answers(remembering),
                expected,
                "{pool:?}: a damaged {kept:?}"
            );
        }
    }
}

/// Replaces the first occurrence of `from` in the first file (by name) of
/// a folder with this extension, if there is one.
fn edit_first(dir: &Path, extension: &str, from: &str, to: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = (entries.map(|e| e.unwrap().path()))
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    paths.sort();
    if let Some(path) = paths.first() {
        let text = std::fs::read_to_string(path).unwrap();
        std::fs::write(path, text.replacen(from, to, 1)).unwrap();
    }
}

/// A file the kept answers vouch for by its stamp, found not to be what
/// they say when it is read (as when it changes between the listing and
/// the read), sends the report back to read every file: its answer is
/// the one of the files as they are, never one made from an empty text.
#[test]
fn a_file_not_as_the_answers_say_is_read_again() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    copy_dir(
        &common::root().join("tests/fixtures/i18n/drifted"),
        &dir.join("pool"),
    );
    std::fs::create_dir(dir.join("dist")).unwrap();
    // Stamps vouch only for files that settled before they were read.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    let asked = ["--cards", "pool", "--format", "json", "i18n", "status"];
    let expected = blades(dir, &asked);
    let kept = dir.join("dist/.blades-i18n-answers");
    let mut bytes = std::fs::read(&kept).unwrap();
    // The locale file's hash (the 8 bytes after its path) made wrong, and
    // the file's checksum made right again.
    let path = b"locales/ja/mini-gulch.yaml";
    let at = (bytes.windows(path.len()))
        .position(|w| w == path)
        .expect("the answers know the file")
        + path.len();
    bytes[at] ^= 0xff;
    let magic = b"blades-i18n-answers 1\n".len();
    let body = magic + 1 + usize::from(bytes[magic]);
    let end = bytes.len() - 8;
    let sum = xxhash_rust::xxh3::xxh3_64(&bytes[body..end]).to_le_bytes();
    bytes[end..].copy_from_slice(&sum);
    std::fs::write(&kept, bytes).unwrap();
    let run = blades(dir, &asked);
    assert_eq!(
        (run.code, &run.stdout, &run.stderr),
        (expected.code, &expected.stdout, &expected.stderr)
    );
    assert!(
        run.stdout.contains("mini-gulch"),
        "the report has the locale file's texts"
    );
}
