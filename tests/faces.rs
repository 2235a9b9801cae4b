//! Card faces: the SVG structure of the built-in pool's faces (text lines,
//! icons, colours per rarity), `blades render` end to end, and the one fit
//! model that `render`, `build` and `i18n check` share.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use blades::faces::render::{self, Rendered};
use blades::faces::svg::{FaceOptions, palette};
use blades::words::SetKind;
use blades::workspace::Workspace;
use common::{blades, files};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/i18n")
}

/// The values of one attribute in the order they appear.
fn attributes<'a>(svg: &'a str, name: &str) -> Vec<&'a str> {
    let key = format!(" {name}=\"");
    svg.match_indices(&key)
        .map(|(at, _)| {
            let rest = &svg[at + key.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect()
}

/// A face reduced to its structure: rarity and frame colour, the icons,
/// each text box with its size and lines (tags stripped, bold in `*…*`,
/// italic and Japanese reminder text in `_…_`).
fn structure(svg: &str) -> String {
    let mut out = Vec::new();
    out.push(format!(
        "rarity {} frame {}",
        attributes(svg, "data-rarity")[0],
        attributes(svg, "fill")[0]
    ));
    out.push(format!(
        "symbols {}",
        attributes(svg, "data-symbol").join(" ")
    ));
    out.push(format!("stars {}", attributes(svg, "data-stars").join(" ")));
    for group in svg.split("<g class=\"text-box\"").skip(1) {
        let group = &group[..group.find("</g>").unwrap()];
        out.push(format!(
            "{} {}pt overflow={}",
            attributes(group, "data-field")[0],
            attributes(group, "data-size")[0],
            attributes(group, "data-overflow")[0]
        ));
        for line in group.split("<text ").skip(1) {
            let body = &line[line.find('>').unwrap() + 1..line.find("</text>").unwrap()];
            let whole = line[..line.find('>').unwrap()].to_string();
            let mut text = body
                .replace("<tspan class=\"b\">", "*")
                .replace("<tspan class=\"i\">", "_")
                .replace("<tspan class=\"r\">", "_");
            text = text.replace("</tspan>", "|");
            let mark = if whole.contains("class=\"b\"") {
                "*"
            } else if whole.contains("class=\"i\"") || whole.contains("class=\"r\"") {
                "_"
            } else {
                ""
            };
            out.push(format!("  {mark}{text}{mark}"));
        }
    }
    out.push(format!(
        "number {}",
        svg.split("<text class=\"number\"")
            .nth(1)
            .and_then(|t| t.split('>').nth(1))
            .and_then(|t| t.split('<').next())
            .unwrap_or("")
    ));
    out.join("\n")
}

fn builtin_faces(cards: &[&str]) -> Vec<Rendered> {
    let database = Workspace::builtin().database().expect("built-in pool");
    let names: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
    let chosen = render::select(&database, &names).expect("known cards");
    render::render_faces(
        &database,
        &chosen,
        &["en".to_string(), "ja".to_string()],
        &FaceOptions::default(),
    )
}

#[test]
fn faces_show_text_lines_icons_and_rarity_colours() {
    // One card of each rarity of the built-in pool, both languages.
    let database = Workspace::builtin().database().expect("built-in pool");
    let mut seen = BTreeSet::new();
    let mut picked: Vec<String> = Vec::new();
    for card in &database.cards {
        if seen.insert(card.rarity.as_str()) {
            picked.push(card.id.0.clone());
        }
    }
    let picked: Vec<&str> = picked.iter().map(String::as_str).collect();
    let faces = builtin_faces(&picked);
    let summary: Vec<String> = faces
        .iter()
        .map(|f| format!("== {}\n{}", f.file, structure(&f.face.svg)))
        .collect();
    insta::assert_snapshot!("structure_by_rarity", summary.join("\n\n"));
}

#[test]
fn one_face_in_full() {
    let faces = builtin_faces(&["steam-crane-operator"]);
    insta::assert_snapshot!("steam_crane_operator_en", faces[0].face.svg);
    insta::assert_snapshot!("steam_crane_operator_ja", faces[1].face.svg);
}

#[test]
fn every_rarity_has_its_colour() {
    let frames: Vec<&str> = SetKind::ALL.iter().map(|k| palette(*k).frame).collect();
    assert_eq!(palette(SetKind::Starter).frame, "#9a9a9a");
    assert_eq!(palette(SetKind::Core).frame, "#f7f7f7");
    assert_eq!(palette(SetKind::Expansion).frame, "#2e9d4f");
    assert_eq!(palette(SetKind::Premium).frame, "#2f6fd6");
    assert_eq!(palette(SetKind::Master).frame, "#8a3fc7");
    for promo in [
        SetKind::BronzePromo,
        SetKind::SilverPromo,
        SetKind::GoldPromo,
    ] {
        assert_eq!(palette(promo).frame, "#f08a24");
    }
    assert_eq!(palette(SetKind::ProPlayer).trim, "#d4af37");
    assert_eq!(palette(SetKind::Venue).frame, "#3f5f6f");
    assert_eq!(palette(SetKind::Character).frame, "#b3263a");
    let distinct: BTreeSet<&str> = frames.iter().copied().collect();
    assert_eq!(distinct.len(), 9);
}

#[test]
fn the_built_in_pool_fits_its_faces() {
    let database = Workspace::builtin().database().expect("built-in pool");
    let found = render::check_faces(&database, &blades::i18n::languages(&database));
    let problems: Vec<String> = found
        .iter()
        .map(|r| format!("{} {}: {:?}", r.card, r.lang, r.face.findings))
        .collect();
    assert!(problems.is_empty(), "{problems:#?}");
}

/// A character's face prints its two sides, each under its name, in both
/// languages; a venue's face has no STAR; both fit.
#[test]
fn a_character_shows_both_sides_and_a_venue_no_star() {
    let faces = builtin_faces(&["fulton-suitcase", "morrey-caardmaan", "sunken-museum"]);
    assert_eq!(faces.len(), 6);
    for face in &faces {
        let svg = &face.face.svg;
        assert!(
            face.face.findings.is_empty(),
            "{}: {:?}",
            face.file,
            face.face.findings
        );
        assert!(!svg.contains("class=\"star\""), "{}", face.file);
        let titles = match face.lang.as_str() {
            "ja" => ["デッキ構築面：", "トーナメント面："],
            _ => ["Deckbuilding side:", "Tournament side:"],
        };
        let at: Vec<Option<usize>> = titles.iter().map(|t| svg.find(t)).collect();
        match face.card.as_str() {
            "sunken-museum" => assert_eq!(at, [None, None], "{}", face.file),
            _ => assert!(at[0].is_some() && at[0] < at[1], "{}", face.file),
        }
    }
}

/// `render` (and `build`) and `i18n check` name the same texts: both call
/// the one fit model.
#[test]
fn render_and_i18n_check_agree_on_what_does_not_fit() {
    let workspace = Workspace::open_uncached(Some(&fixtures().join("check-bad"))).unwrap();
    let database = workspace.database().expect("the fixture builds");
    let cards: Vec<_> = database.cards.iter().collect();
    let rendered = render::render_faces(
        &database,
        &cards,
        &["ja".to_string()],
        &FaceOptions::default(),
    );
    let project = workspace.translations();
    let sources = &project.sources;
    let line_of = |d: &blades::diagnostics::Diagnostic| {
        let text = sources.get(&d.path).unwrap();
        (
            d.path.to_string(),
            text[..d.span.start].matches('\n').count() + 1,
        )
    };
    let overflow: BTreeSet<_> = render::locate(&project, &rendered)
        .iter()
        .filter(|d| d.code.as_str() == "text-overflow")
        .map(line_of)
        .collect();
    let fit: BTreeSet<_> = blades::i18n::check::check(&project, "ja")
        .iter()
        .filter(|d| d.code.as_str() == "text-fit")
        .map(line_of)
        .collect();
    assert!(!fit.is_empty());
    assert_eq!(overflow, fit);
    // And `check_faces` (what `build` runs) finds the same as drawing.
    let checked: Vec<_> = render::check_faces(&database, &["ja".to_string()])
        .into_iter()
        .map(|r| (r.card, r.face.findings))
        .collect();
    let drawn: Vec<_> = rendered
        .into_iter()
        .filter(|r| !r.face.findings.is_empty())
        .map(|r| (r.card, r.face.findings))
        .collect();
    assert_eq!(checked, drawn);
}

#[test]
fn render_writes_one_svg_per_card_and_language_with_the_fonts() {
    let dir = tempfile::tempdir().unwrap();
    let run = blades(
        dir.path(),
        &["render", "rivet-gremlin", "Boiler Golem", "--out", "faces"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "rendered 4 faces (2 cards in en and ja) into faces: 10 files written, 0 unchanged"
        ),
        "{}",
        run.stderr
    );
    let written: Vec<String> = files(&dir.path().join("faces")).into_keys().collect();
    assert_eq!(
        written,
        [
            "boiler-golem.en.svg",
            "boiler-golem.ja.svg",
            "fonts/NotoSans-Bold.ttf",
            "fonts/NotoSans-Italic.ttf",
            "fonts/NotoSans-Regular.ttf",
            "fonts/NotoSansJP-Bold.otf",
            "fonts/NotoSansJP-Regular.otf",
            "fonts/OFL.txt",
            "rivet-gremlin.en.svg",
            "rivet-gremlin.ja.svg",
        ]
    );
    // Again: nothing changed, nothing written.
    let run = blades(
        dir.path(),
        &["render", "rivet-gremlin", "boiler-golem", "--out", "faces"],
    );
    assert!(
        run.stderr.contains("0 files written, 10 unchanged"),
        "{}",
        run.stderr
    );
    let run = blades(
        dir.path(),
        &[
            "--format",
            "json",
            "render",
            "rivet-gremlin",
            "--lang",
            "ja",
            "--out",
            "faces",
        ],
    );
    let report = run.json();
    assert_eq!(report["faces"][0]["file"], "rivet-gremlin.ja.svg");
    assert_eq!(report["written"], 0);
}

#[test]
fn an_unknown_card_suggests_the_nearest_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let run = blades(dir.path(), &["render", "Rivet Gremlen", "--out", "faces"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("did you mean `Rivet Gremlin`?"),
        "{}",
        run.stderr
    );
    assert!(!dir.path().join("faces").exists());
    let run = blades(dir.path(), &["render", "--lang", "fr", "--out", "faces"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("no `fr` translation"), "{}", run.stderr);
}

#[test]
fn an_output_that_cannot_be_written_is_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("faces");
    std::fs::create_dir_all(out.join("fonts")).unwrap();
    std::fs::write(out.join("rivet-gremlin.en.svg"), "old").unwrap();
    // A folder where a face must go: that face cannot be written.
    std::fs::create_dir_all(out.join("rivet-gremlin.ja.svg")).unwrap();
    let run = blades(dir.path(), &["render", "rivet-gremlin", "--out", "faces"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("cannot-write"), "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(out.join("rivet-gremlin.en.svg")).unwrap(),
        "old"
    );
    assert!(!out.join("fonts/OFL.txt").exists());
}

#[test]
fn characters_the_fonts_lack_and_overflowing_text_are_located_warnings() {
    let run = blades(
        &fixtures(),
        &[
            "--cards",
            "check-bad",
            "--format",
            "json",
            "render",
            "--lang",
            "ja",
            "--out",
            "/dev/null/x",
        ],
    );
    // The folder cannot be written; the warnings come with a written one.
    assert_eq!(run.code, 2);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("faces");
    let run = blades(
        &fixtures(),
        &[
            "--cards",
            "check-bad",
            "--format",
            "json",
            "render",
            "--lang",
            "ja",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    let found: Vec<String> = report["report"]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{}:{} {} {}",
                d["file"].as_str().unwrap(),
                d["line"],
                d["code"].as_str().unwrap(),
                d["severity"].as_str().unwrap()
            )
        })
        .collect();
    assert!(
        found
            .contains(&"check-bad/locales/ja/mini-gulch.yaml:59 missing-glyph warning".to_string()),
        "{found:#?}"
    );
    assert!(
        found
            .contains(&"check-bad/locales/ja/mini-gulch.yaml:68 text-overflow warning".to_string()),
        "{found:#?}"
    );
    // `build --faces` reports the same warnings.
    let built = build_faces(&fixtures(), &dir.path().join("cards.json"));
    assert!(
        built.iter().any(|f| f.starts_with("text-overflow"))
            && built.iter().any(|f| f.starts_with("missing-glyph")),
        "{built:?}"
    );
}

/// `blades --cards check-bad build --faces --out OUT` in `dir`: its
/// findings as `code file:line`, sorted.
fn build_faces(dir: &Path, out: &Path) -> Vec<String> {
    let args = [
        "--cards",
        "check-bad",
        "--format",
        "json",
        "build",
        "--faces",
        "--out",
    ];
    let run = blades(dir, &[&args[..], &[out.to_str().unwrap()]].concat());
    assert_eq!(run.code, 0, "{}", run.stdout);
    let mut found: Vec<String> = run.json()["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {}:{}",
                d["code"].as_str().unwrap(),
                d["file"],
                d["line"]
            )
        })
        .collect();
    found.sort();
    found
}

/// `build --faces` remembers the texts that fit (`.blades-faces` beside the
/// cache) and fits only new ones; a text that does not fit is found again
/// on every build, and a new one on the next.
#[test]
fn build_faces_fits_only_new_texts_and_never_forgets_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    let pool = dir.path().join("check-bad");
    common::copy_dir(&fixtures().join("check-bad"), &pool);
    let out = dir.path().join("dist/cards.json");
    let build = || build_faces(dir.path(), &out);
    let first = build();
    assert!(
        first.iter().any(|f| f.contains("text-overflow")),
        "{first:?}"
    );
    let memo = dir.path().join("dist/.blades-faces");
    let remembered = std::fs::metadata(&memo).unwrap().len();
    assert!(remembered > 100, "{remembered} bytes");
    assert_eq!(build(), first);
    let set = pool.join("mini-core.yaml");
    let text = std::fs::read_to_string(&set).unwrap().replace(
        "flavor: \"Rattles when it runs.\"",
        &format!("flavor: \"{}\"", "Rattles when it runs. ".repeat(12).trim()),
    );
    std::fs::write(&set, text).unwrap();
    let third = build();
    assert_eq!(third.len(), first.len() + 1, "{third:?}");
    assert!(
        third
            .iter()
            .any(|f| f.contains("text-overflow") && f.contains("mini-core.yaml\":6")),
        "{third:?}"
    );
}

/// A folder of many faces is written with few files open at once: the
/// built-in pool's 176 faces and their fonts under a limit of 64.
#[test]
fn many_faces_are_written_under_a_low_open_file_limit() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("faces");
    let run = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -n 64 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_blades"))
        .args(["-q", "render", "--out", out.to_str().unwrap()])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    let faces = std::fs::read_dir(&out).unwrap().count();
    assert!(faces > 64, "{faces} files");
}

/// `build --watch --faces` reports the faces' warnings with the build's.
#[test]
fn a_watch_with_faces_reports_their_warnings() {
    let dir = tempfile::tempdir().unwrap();
    common::copy_dir(&fixtures().join("check-bad"), &dir.path().join("check-bad"));
    let args = [
        "build",
        "--cards",
        "check-bad",
        "--out",
        "out/cards.json",
        "--watch",
        "--faces",
    ];
    let (mut child, lines) = common::watch(dir.path(), &args);
    let first = common::wait_for(&lines, "[watch]");
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        first.contains("warnings (") && !first.contains("0 new"),
        "{first}"
    );
}
