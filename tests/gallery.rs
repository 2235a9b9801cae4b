//! `blades gallery`: the static site of a pool's cards, end to end with
//! the real binary (the browser's side is tests/browser/gallery.py).

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use blades::model::Database;
use blades::workspace::Workspace;
use common::{blades, copy_dir, files, root};
use serde_json::Value;

fn builtin() -> Database {
    Workspace::builtin()
        .database()
        .expect("the built-in pool builds")
}

/// `blades --format json gallery --out OUT` (and `extra`) in `dir`.
fn gallery(dir: &Path, out: &Path, extra: &[&str]) -> Value {
    let out = out.to_str().unwrap();
    let mut args = vec!["--format", "json", "gallery", "--out", out];
    args.extend(extra);
    let run = blades(dir, &args);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stderr, "");
    run.json()
}

/// The faces a report says were drawn, as `card.lang`.
fn drawn(report: &Value) -> BTreeSet<String> {
    report["drawn"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            format!(
                "{}.{}",
                f["card"].as_str().unwrap(),
                f["lang"].as_str().unwrap()
            )
        })
        .collect()
}

/// The value of each `name="…"` attribute in `html`.
fn attributes<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    let key = format!(" {name}=\"");
    html.match_indices(&key)
        .map(|(at, _)| {
            let rest = &html[at + key.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect()
}

#[test]
fn the_site_has_an_index_a_page_per_card_faces_fonts_and_no_external_resource() {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("site");
    let report = gallery(temp.path(), &out, &[]);
    let database = builtin();
    let n = database.cards.len();
    assert_eq!(report["cards"], n);
    assert_eq!(report["langs"], serde_json::json!(["en", "ja"]));
    assert_eq!(report["faces"], 2 * n);
    assert_eq!(drawn(&report).len(), 2 * n);
    assert_eq!(report["reused"], 0);
    for file in [
        "index.html",
        "gallery.css",
        "gallery.js",
        ".blades-gallery.json",
    ] {
        assert!(out.join(file).is_file(), "{file}");
    }
    for font in ["NotoSans-Regular.ttf", "NotoSansJP-Regular.otf", "OFL.txt"] {
        assert!(out.join("faces/fonts").join(font).is_file(), "{font}");
    }
    for card in &database.cards {
        let id = &card.id.0;
        assert!(out.join(format!("cards/{id}.html")).is_file(), "{id}");
        for lang in ["en", "ja"] {
            let face = std::fs::read_to_string(out.join(format!("faces/{id}.{lang}.svg"))).unwrap();
            assert!(face.contains(&format!("data-card=\"{id}\"")));
            // The fonts beside the face, as `render` writes them.
            assert!(face.contains("url('fonts/NotoSans-Regular.ttf')"));
        }
    }
    // No file refers to anything outside the folder.
    for (name, bytes) in files(&out) {
        if name.ends_with(".html") || name.ends_with(".css") || name.ends_with(".js") {
            let text = String::from_utf8(bytes).unwrap();
            for scheme in ["http://", "https://", "=\"//", "url(//", "fetch("] {
                let hits: Vec<_> = text
                    .match_indices(scheme)
                    // The SVG namespace is a name, not a resource.
                    .filter(|(at, _)| !text[*at..].starts_with("http://www.w3.org/2000/svg"))
                    .collect();
                assert!(hits.is_empty(), "{name} has {scheme}");
            }
        }
    }
}

#[test]
fn the_index_has_one_entry_per_card_with_its_data() {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("site");
    gallery(temp.path(), &out, &[]);
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    let database = builtin();
    let articles: Vec<&str> = index.split("<article ").skip(1).collect();
    assert_eq!(articles.len(), database.cards.len());
    for (article, card) in articles.iter().zip(&database.cards) {
        let tag = &article[..article.find('>').unwrap()];
        let one = |name: &str| attributes(tag, name)[0];
        assert_eq!(one("data-id"), card.id.0);
        assert_eq!(one("data-set"), card.set.0);
        assert_eq!(one("data-kind"), card.kind.as_str());
        assert_eq!(one("data-rarity"), card.rarity.as_str());
        assert_eq!(
            one("data-star"),
            card.stars.map(|s| s.to_string()).unwrap_or_default()
        );
        let elements: Vec<&str> = card.elements.iter().map(|e| e.as_str()).collect();
        assert_eq!(one("data-elements"), elements.join(" "));
        let types: Vec<&str> = card.types.iter().map(|t| t.0.as_str()).collect();
        assert_eq!(one("data-types"), types.join(" "));
        // Both faces, through <object> (an SVG in <img> loads no fonts).
        let body = &article[..article.find("</article>").unwrap()];
        assert_eq!(
            attributes(body, "data")
                .into_iter()
                .filter(|d| d.starts_with("faces/"))
                .collect::<Vec<_>>(),
            [
                format!("faces/{}.en.svg", card.id.0),
                format!("faces/{}.ja.svg", card.id.0)
            ]
        );
        assert!(!body.contains("<img"));
    }
    // Each set with its card count, and a filter for each key.
    for set in &database.sets {
        let count = database.cards.iter().filter(|c| c.set == set.id).count();
        let row = index
            .split(&format!("<tr data-set=\"{}\">", set.id.0))
            .nth(1)
            .unwrap();
        let row = &row[..row.find("</tr>").unwrap()];
        assert!(row.contains(&format!("<td>{count}</td>")), "{row}");
        assert!(row.contains(&set.name));
        // Its print-and-play sheets, in each language.
        for lang in ["en", "ja"] {
            let sheet = format!("print/{}.a4.{lang}.html", set.id.0);
            assert!(row.contains(&format!("href=\"{sheet}\"")), "{row}");
            assert!(out.join(&sheet).is_file(), "{sheet}");
        }
    }
    for key in ["set", "kind", "element", "type", "rarity", "star"] {
        assert!(index.contains(&format!("<select name=\"{key}\">")), "{key}");
    }
    assert!(index.contains("<script src=\"gallery.js\"></script>"));
}

#[test]
fn every_relative_link_leads_to_a_file_that_exists() {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("site");
    gallery(temp.path(), &out, &[]);
    let mut checked = 0;
    for (name, bytes) in files(&out) {
        if !name.ends_with(".html") {
            continue;
        }
        let text = String::from_utf8(bytes).unwrap();
        let dir = out.join(&name).parent().unwrap().to_path_buf();
        for attribute in ["href", "src", "data"] {
            for link in attributes(&text, attribute) {
                let file = link.split('#').next().unwrap();
                if file.is_empty() {
                    continue; // a filter of the page itself
                }
                assert!(dir.join(file).is_file(), "{name}: {attribute}=\"{link}\"");
                checked += 1;
            }
        }
    }
    assert!(checked > 500, "{checked}");
    // A card page links to the index, its set's filter, and its neighbours.
    let database = builtin();
    let second = &database.cards[1];
    let page = std::fs::read_to_string(out.join(format!("cards/{}.html", second.id.0))).unwrap();
    assert!(page.contains("href=\"../index.html\""));
    assert!(page.contains(&format!("href=\"../index.html#set={}\"", second.set.0)));
    assert!(page.contains(&format!(
        "rel=\"prev\" href=\"{}.html\"",
        database.cards[0].id.0
    )));
    assert!(page.contains(&format!(
        "rel=\"next\" href=\"{}.html\"",
        database.cards[2].id.0
    )));
}

#[test]
fn a_second_run_draws_and_writes_nothing() {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("site");
    gallery(temp.path(), &out, &[]);
    let before = files(&out);
    let again = gallery(temp.path(), &out, &[]);
    assert_eq!(again["written"], 0);
    assert!(drawn(&again).is_empty());
    assert_eq!(again["reused"], again["faces"]);
    assert_eq!(files(&out), before);
    // A face deleted by hand is drawn again, and only it.
    std::fs::remove_file(out.join("faces/meadow-sprite.ja.svg")).unwrap();
    let third = gallery(temp.path(), &out, &[]);
    assert_eq!(
        drawn(&third),
        BTreeSet::from(["meadow-sprite.ja".to_string()])
    );
    assert_eq!(third["written"], 1);
    assert_eq!(files(&out), before);
}

#[test]
fn editing_one_cards_effect_redraws_exactly_that_cards_faces() {
    let temp = tempfile::tempdir().unwrap();
    let pool = temp.path().join("pool");
    copy_dir(&root().join("cards"), &pool);
    let out = temp.path().join("site");
    let cards = ["--cards", pool.to_str().unwrap()];
    let first = gallery(temp.path(), &out, &cards);
    assert_eq!(first["reused"], 0);
    let set = pool.join("first-light-core.yaml");
    let text = std::fs::read_to_string(&set).unwrap();
    let old = "effect: \"Play: Gain 1 RP.\"\n    flavor: \"It grants wishes";
    assert_eq!(text.matches(old).count(), 1);
    std::fs::write(
        &set,
        text.replace(
            old,
            "effect: \"Play: Gain 3 RP.\"\n    flavor: \"It grants wishes",
        ),
    )
    .unwrap();
    let before = files(&out);
    let second = gallery(temp.path(), &out, &cards);
    assert_eq!(
        drawn(&second),
        BTreeSet::from([
            "meadow-sprite.en".to_string(),
            "meadow-sprite.ja".to_string()
        ])
    );
    assert_eq!(second["reused"], first["faces"].as_u64().unwrap() - 2);
    let after = files(&out);
    let changed: BTreeSet<&String> = after
        .iter()
        .filter(|(name, bytes)| before.get(*name) != Some(bytes))
        .map(|(name, _)| name)
        .collect();
    assert_eq!(
        changed,
        BTreeSet::from_iter(&[
            ".blades-gallery.json".to_string(),
            "cards/meadow-sprite.html".to_string(),
            "faces/meadow-sprite.en.svg".to_string(),
            "faces/meadow-sprite.ja.svg".to_string(),
            // Its set's sheets, and no other set's.
            "print/first-light-core.a4.en.html".to_string(),
            "print/first-light-core.a4.ja.html".to_string(),
        ])
    );
    let face = String::from_utf8(after["faces/meadow-sprite.en.svg"].clone()).unwrap();
    assert!(face.contains("Gain 3 RP."), "{face}");
}

#[test]
fn build_writes_the_same_gallery() {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("site");
    let run = blades(
        temp.path(),
        &[
            "build",
            "--out",
            "db.json",
            "--gallery",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("176 faces drawn"), "{}", run.stderr);
    assert!(out.join("index.html").is_file());
    // The gallery of the same database draws nothing again, though `build`
    // made it from its cache's pieces.
    let again = gallery(temp.path(), &out, &[]);
    assert!(drawn(&again).is_empty(), "{again}");
    assert_eq!(again["written"], 0);
    // An unwritable gallery fails the build's run, located.
    let bad = blades(
        temp.path(),
        &[
            "--format",
            "json",
            "build",
            "--out",
            "db.json",
            "--gallery",
            "/dev/null/site",
        ],
    );
    assert_eq!(bad.code, 2, "{}", bad.stdout);
    assert_eq!(bad.json()["diagnostics"][0]["code"], "cannot-write");
}

#[test]
fn bad_arguments_are_refused_with_a_report() {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("site");
    let out = out.to_str().unwrap();
    let run = blades(
        temp.path(),
        &["--format", "json", "gallery", "--lang", "fr", "--out", out],
    );
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr, "");
    let report = run.json();
    assert_eq!(report["diagnostics"][0]["code"], "unknown-language");
    assert!(!Path::new(out).exists());
    let run = blades(temp.path(), &["gallery", "--lang", "klingon", "--out", out]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("unknown-language"), "{}", run.stderr);
    // A file where the folder should be: nothing written, the path named.
    std::fs::write(temp.path().join("taken"), "x").unwrap();
    let run = blades(
        temp.path(),
        &["--format", "json", "gallery", "--out", "taken/site"],
    );
    assert_eq!(run.code, 2, "{}", run.stdout);
    let report = run.json();
    assert_eq!(report["diagnostics"][0]["code"], "cannot-write");
    assert!(
        report["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .contains("taken/site"),
        "{report}"
    );
    assert_eq!(
        std::fs::read_to_string(temp.path().join("taken")).unwrap(),
        "x"
    );
    // A pool with errors makes no gallery.
    let invalid = root().join("tests/fixtures/build/invalid");
    let run = blades(
        temp.path(),
        &[
            "gallery",
            "--cards",
            invalid.to_str().unwrap(),
            "--out",
            out,
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(!Path::new(out).exists());
}

#[test]
fn warnings_are_located_as_render_locates_them() {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("site");
    let pool = root().join("tests/fixtures/i18n/check-bad");
    let args = ["--cards", pool.to_str().unwrap(), "--lang", "ja"];
    let first = gallery(temp.path(), &out, &args);
    let codes = |report: &Value| -> Vec<(String, String)> {
        report["report"]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["code"].as_str().unwrap().to_string(),
                    d["file"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect()
    };
    let found = codes(&first);
    assert!(
        found
            .iter()
            .any(|(code, file)| code == "text-overflow" && file.ends_with(".yaml")),
        "{found:?}"
    );
    // The same warnings when the faces are not drawn again (kept in the manifest).
    let again = gallery(temp.path(), &out, &args);
    assert!(drawn(&again).is_empty());
    assert_eq!(codes(&again), found);
    assert_eq!(again["report"], first["report"]);
    // The card's page says it too.
    let page = std::fs::read_to_string(out.join("cards/thunder-mesa.html")).unwrap();
    assert!(
        page.contains("<ul class=\"warnings\"><li>the flavor text does not fit its box on the ja face, even at 5 pt (text-overflow)</li></ul>"),
        "{page}"
    );
}

#[test]
fn a_card_page_shows_data_text_in_both_languages_and_the_effect_tree() {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("site");
    gallery(temp.path(), &out, &[]);
    let page = std::fs::read_to_string(out.join("cards/afterburner-hawk.html")).unwrap();
    insta::assert_snapshot!("gallery_card_page", page);
}

#[test]
fn faces_and_pages_no_longer_in_the_gallery_are_removed_and_nothing_else() {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("site");
    let all = gallery(temp.path(), &out, &[]);
    assert_eq!(all["removed"], 0);
    std::fs::write(out.join("faces/mine.en.svg"), "not the gallery's").unwrap();
    let ja = gallery(temp.path(), &out, &["--lang", "ja"]);
    let n = builtin().cards.len();
    // Each card's English face, and each set's English sheet.
    assert_eq!(ja["removed"], n + builtin().sets.len());
    assert!(drawn(&ja).is_empty());
    let left: Vec<String> = files(&out.join("faces"))
        .into_keys()
        .filter(|f| f.ends_with(".en.svg"))
        .collect();
    assert_eq!(left, ["mine.en.svg"]);
    // The index shows the Japanese faces only.
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(!index.contains(".en.svg"));
    assert_eq!(index.matches(".ja.svg\"").count(), n);
}

/// `build --watch --gallery DIR` writes the gallery with every build, and
/// again after an edit (the build writes it, not the command line).
#[test]
fn a_watch_writes_the_gallery_on_every_build() {
    let temp = tempfile::tempdir().unwrap();
    copy_dir(
        &root().join("tests/fixtures/build/valid"),
        &temp.path().join("pool"),
    );
    let args = [
        "build",
        "--cards",
        "pool",
        "--out",
        "out/cards.json",
        "--watch",
        "--gallery",
        "site",
    ];
    let (mut child, lines) = common::watch(temp.path(), &args);
    let said = common::wait_for(&lines, "gallery of");
    common::wait_for(&lines, "[watch]");
    let index = temp.path().join("site/index.html");
    let before = std::fs::read_to_string(&index).unwrap_or_default();
    assert!(before.contains("Tin Town"), "{said}");
    // An edited set name reaches the gallery on the next build.
    let set = temp.path().join("pool/tin-town.yaml");
    let text = std::fs::read_to_string(&set).unwrap();
    std::fs::write(&set, text.replace("name: Tin Town", "name: Tin City")).unwrap();
    common::wait_for(&lines, "gallery of");
    child.kill().unwrap();
    child.wait().unwrap();
    let after = std::fs::read_to_string(&index).unwrap();
    assert!(after.contains("Tin City"), "{after}");
}

/// `build --gallery` reports the faces' warnings as `gallery` does, located.
#[test]
fn build_with_a_gallery_reports_the_faces_warnings() {
    let temp = tempfile::tempdir().unwrap();
    let pool = root().join("tests/fixtures/i18n/check-bad");
    let args = [
        "--format",
        "json",
        "build",
        "--cards",
        pool.to_str().unwrap(),
        "--out",
        "db.json",
        "--gallery",
        "site",
    ];
    let run = blades(temp.path(), &args);
    let codes: Vec<String> = run.json()["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect();
    assert!(codes.iter().any(|c| c == "text-overflow"), "{codes:?}");
}

/// The text a page shows: its markup without tags, scripts and styles, its
/// character references read.
fn page_text(html: &str) -> String {
    let mut text = String::new();
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        text.push_str(&rest[..at]);
        rest = &rest[at..];
        let skip_to = ["<script", "<style"]
            .iter()
            .find(|open| rest.starts_with(**open))
            .map(|open| format!("</{}>", &open[1..]));
        let end = match skip_to {
            Some(close) => rest.find(&close).map(|e| e + close.len()),
            None => rest.find('>').map(|e| e + 1),
        };
        rest = &rest[end.unwrap_or(rest.len())..];
    }
    text.push_str(rest);
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

#[test]
fn the_pages_use_only_the_shipped_fonts_and_they_draw_every_character_shown() {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("site");
    gallery(temp.path(), &out, &[]);
    let css = std::fs::read_to_string(out.join("gallery.css")).unwrap();
    for family in css.match_indices("font-family:") {
        let value = &css[family.0..][..css[family.0..].find(';').unwrap()];
        assert!(
            !value.contains("serif") && !value.contains("system-ui") && !value.contains("mono"),
            "a system font in the stylesheet: {value}"
        );
    }
    let mut missing: BTreeSet<(String, char)> = BTreeSet::new();
    let mut pages = 0;
    for (name, bytes) in files(&out) {
        if !name.ends_with(".html") || name.starts_with("print") {
            continue;
        }
        pages += 1;
        let html = String::from_utf8(bytes).unwrap();
        assert!(
            html.contains("print/fonts.css\">"),
            "{name} links the shipped fonts"
        );
        for c in page_text(&html).chars().filter(|c| !c.is_whitespace()) {
            if !blades::faces::fonts::drawable(c) {
                missing.insert((name.clone(), c));
            }
        }
    }
    assert!(pages > 1);
    assert!(missing.is_empty(), "no shipped font draws: {missing:?}");
    // The check can fail: a character outside the subset is caught.
    assert!(!blades::faces::fonts::drawable('齟'));
}
