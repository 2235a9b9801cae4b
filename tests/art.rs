//! Card art (`art:` in a set file): found beside the set, its problems
//! located, embedded in the faces, and the same image in the gallery and on
//! the print sheets; an image that changes changes the build's output.

mod common;

use std::path::{Path, PathBuf};

use base64::Engine as _;
use common::{blades, copy_dir, located_lines, root};
use serde_json::Value;

/// A copy of the art fixture pool `name` as `cards/` in a new folder.
fn pool(name: &str) -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap();
    copy_dir(
        &root().join("tests/fixtures/art").join(name),
        &temp.path().join("cards"),
    );
    temp
}

/// The `<image …/>` element of a face, if it has one.
fn image(svg: &str) -> Option<&str> {
    let start = svg.find("<image ")?;
    let end = svg[start..].find("/>")?;
    Some(&svg[start..start + end + 2])
}

fn read(path: impl AsRef<Path>) -> String {
    std::fs::read_to_string(path.as_ref())
        .unwrap_or_else(|e| panic!("{}: {e}", path.as_ref().display()))
}

#[test]
fn each_art_problem_is_located_at_the_value_and_a_path_out_of_the_pool_is_refused() {
    let temp = pool("bad");
    // Past the 8 MiB bound (sparse: nothing is written but the header).
    let huge = temp.path().join("cards/art/huge.png");
    std::fs::write(&huge, b"\x89PNG\r\n\x1a\n").unwrap();
    std::fs::File::options()
        .write(true)
        .open(&huge)
        .unwrap()
        .set_len(9 * 1024 * 1024)
        .unwrap();
    let run = blades(
        temp.path(),
        &["--format", "json", "build", "--cards", "cards"],
    );
    assert_eq!(run.code, 1, "the paths out of the pool are errors");
    insta::assert_snapshot!("art_problems", located_lines(&run.json(), true).join("\n"));
    // Without them, the rest are warnings: the build writes the database,
    // the good card with its art and the others without.
    let set = temp.path().join("cards/art-bad.yaml");
    let text: String = read(&set)
        .lines()
        .filter(|l| !l.contains("climbing-art") && !l.contains("absolute-art"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&set, text).unwrap();
    let run = blades(
        temp.path(),
        &["--format", "json", "build", "--cards", "cards"],
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(run.json()["warnings"], 4);
    let database: Value = serde_json::from_str(&read(temp.path().join("dist/cards.json"))).unwrap();
    let with_art: Vec<&str> = database["cards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c.get("art").is_some())
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(with_art, ["good-art"]);
}

#[test]
fn the_face_embeds_the_art_and_the_gallery_and_print_sheets_show_the_same_image() {
    let temp = pool("good");
    let dir = temp.path();
    let run = blades(dir, &["build", "--cards", "cards"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let database: Value = serde_json::from_str(&read(dir.join("dist/cards.json"))).unwrap();
    let sunset = &database["cards"][0];
    assert_eq!(
        sunset["art"],
        serde_json::json!({"file": "art/sunset.png", "format": "png", "width": 48,
                           "height": 27, "fingerprint": sunset["art"]["fingerprint"]})
    );
    assert_eq!(database["cards"][1]["art"]["format"], "svg");
    for args in [
        &["render", "--cards", "cards", "--out", "faces"][..],
        &["gallery", "--cards", "cards", "--out", "site"],
        &[
            "print",
            "--cards",
            "cards",
            "--out",
            "print",
            "--pdf",
            "sheets.pdf",
        ],
    ] {
        let run = blades(dir, args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    }
    // The face holds the image's own bytes, scaled to cover the art box.
    let face = read(dir.join("faces/sunset-ridge.en.svg"));
    let png = std::fs::read(dir.join("cards/art/sunset.png")).unwrap();
    let uri = format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&png)
    );
    let element = image(&face).expect("the face draws its art");
    assert!(element.contains(&format!("href=\"{uri}\"")), "{element}");
    assert!(element.contains("preserveAspectRatio=\"xMidYMid slice\""));
    assert!(element.contains("clip-path=\"url(#art-clip)\""));
    let moon = read(dir.join("faces/moon-owl.en.svg"));
    assert!(image(&moon).unwrap().contains("data:image/svg+xml;base64,"));
    assert_eq!(image(&read(dir.join("faces/plain-golem.en.svg"))), None);
    // Two more paths to the same face: the gallery's is the same file, and
    // the print sheets (the command's and the gallery's) hold the same image.
    for card in ["sunset-ridge", "moon-owl", "plain-golem"] {
        let file = format!("{card}.en.svg");
        assert_eq!(
            read(dir.join("site/faces").join(&file)),
            read(dir.join("faces").join(&file)),
            "{file}: gallery and render agree"
        );
    }
    // The PDF draws the PNG as an image (the SVG art as vectors).
    let pdf = std::fs::read(dir.join("sheets.pdf")).unwrap();
    let images = pdf.windows(15).filter(|w| w == b"/Subtype /Image").count();
    assert_eq!(images, 1, "the PDF holds the PNG art");
    for sheet in [
        dir.join("print/art-core.a4.en.html"),
        dir.join("site/print/art-core.a4.en.html"),
    ] {
        let html = read(&sheet);
        for card in ["sunset-ridge", "moon-owl"] {
            let face = read(dir.join("faces").join(format!("{card}.en.svg")));
            let drawn = image(&face).unwrap();
            // The sheet prefixes the face's ids by its slot.
            let href = &drawn[drawn.find(" href=").unwrap()..];
            assert!(html.contains(href), "{}: {card}'s art", sheet.display());
        }
    }
}

#[test]
fn a_changed_image_changes_the_database_the_face_and_only_its_gallery_face() {
    let temp = pool("good");
    let dir = temp.path();
    let build = |dir: &Path| -> Value {
        let run = blades(dir, &["build", "--cards", "cards"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        serde_json::from_str(&read(dir.join("dist/cards.json"))).unwrap()
    };
    let gallery = |dir: &Path| -> Value {
        let run = blades(
            dir,
            &[
                "--format", "json", "gallery", "--cards", "cards", "--out", "site",
            ],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.json()
    };
    let before = build(dir);
    gallery(dir);
    let face_before = read(dir.join("site/faces/sunset-ridge.en.svg"));
    // The set file is unchanged, so the cache answers for it; the image is not.
    let art: PathBuf = dir.join("cards/art/sunset.png");
    std::fs::copy(root().join("tests/fixtures/art/dawn.png"), &art).unwrap();
    let after = build(dir);
    assert_ne!(
        before["cards"][0]["art"]["fingerprint"],
        after["cards"][0]["art"]["fingerprint"]
    );
    assert_eq!(after["cards"][0]["art"]["width"], 32);
    assert_eq!(before["cards"][1], after["cards"][1]);
    let report = gallery(dir);
    let drawn: Vec<String> = report["drawn"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(drawn, ["faces/sunset-ridge.en.svg"]);
    let face_after = read(dir.join("site/faces/sunset-ridge.en.svg"));
    assert_ne!(image(&face_before), image(&face_after));
    let dawn = std::fs::read(&art).unwrap();
    assert!(
        face_after.contains(&base64::engine::general_purpose::STANDARD.encode(&dawn)),
        "the new image is drawn"
    );
}
