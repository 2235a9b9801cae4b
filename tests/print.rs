//! Print-and-play sheets (`blades print`) end to end on the built-in pool:
//! the HTML per set and paper (pages of at most nine cards at true size,
//! centred, crop marks outside the cards), the PDF (a page per sheet, the
//! paper's MediaBox, fonts embedded), and an unchanged second run.

mod common;

use std::collections::BTreeMap;

use blades::workspace::Workspace;
use common::{blades, files};
use regex::Regex;

/// A card's or mark's geometry on a sheet, mm.
#[derive(Debug, Clone, Copy)]
struct Box4(f64, f64, f64, f64);

/// One sheet page of an HTML file: its cards (id and x, y, width, height)
/// and its crop marks (x1, y1, x2, y2).
#[derive(Debug)]
struct Sheet {
    cards: Vec<(String, Box4)>,
    marks: Vec<Box4>,
}

fn sheets(html: &str) -> Vec<Sheet> {
    let card = Regex::new(
        r#"<div class="card" data-card="([^"]+)" style="left:([\d.]+)mm;top:([\d.]+)mm;width:([\d.]+)mm;height:([\d.]+)mm">"#,
    )
    .unwrap();
    let line =
        Regex::new(r#"<line x1="([\d.]+)" y1="([\d.]+)" x2="([\d.]+)" y2="([\d.]+)"/>"#).unwrap();
    let n = |s: &str| s.parse::<f64>().unwrap();
    html.split("<section class=\"sheet\"")
        .skip(1)
        .map(|page| Sheet {
            cards: card
                .captures_iter(page)
                .map(|c| {
                    (
                        c[1].to_string(),
                        Box4(n(&c[2]), n(&c[3]), n(&c[4]), n(&c[5])),
                    )
                })
                .collect(),
            marks: line
                .captures_iter(page)
                .map(|c| Box4(n(&c[1]), n(&c[2]), n(&c[3]), n(&c[4])))
                .collect(),
        })
        .collect()
}

/// Each set's card ids in the set's order.
fn set_cards() -> BTreeMap<String, Vec<String>> {
    let workspace = Workspace::open(Some(&common::root().join("cards"))).unwrap();
    let database = workspace.database().unwrap();
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for card in &database.cards {
        out.entry(card.set.0.clone())
            .or_default()
            .push(card.id.0.clone());
    }
    out
}

fn check_paper(paper: &str, size: (f64, f64)) {
    let temp = tempfile::tempdir().unwrap();
    let run = blades(
        temp.path(),
        &[
            "--format", "json", "print", "--paper", paper, "--out", "out",
        ],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report = run.json();
    let expected = set_cards();
    let sets = report["sets"].as_array().unwrap();
    assert_eq!(sets.len(), expected.len(), "a sheet file per set");
    let (w, h) = size;
    for set in sets {
        let id = set["set"].as_str().unwrap();
        let file = set["file"].as_str().unwrap();
        assert_eq!(file, format!("{id}.{paper}.en.html"));
        let html = std::fs::read_to_string(temp.path().join("out").join(file)).unwrap();
        let css = if paper == "a4" { "A4" } else { "letter" };
        assert!(
            html.contains(&format!("@page {{ size: {css}; margin: 0 }}")),
            "{file}"
        );
        assert!(html.contains(r#"<link rel="stylesheet" href="fonts.css">"#));
        let pages = sheets(&html);
        let cards = &expected[id];
        assert_eq!(pages.len(), cards.len().div_ceil(9), "{file}: pages");
        assert_eq!(set["pages"].as_u64().unwrap() as usize, pages.len());
        let printed: Vec<String> = pages
            .iter()
            .flat_map(|p| p.cards.iter().map(|c| c.0.clone()))
            .collect();
        assert_eq!(
            &printed, cards,
            "{file}: each card once, in the set's order"
        );
        // The grid's first slot is where a centred 3 × 3 grid starts.
        let (x0, y0) = ((w - 189.0) / 2.0, (h - 264.0) / 2.0);
        for page in &pages {
            assert!(!page.cards.is_empty() && page.cards.len() <= 9);
            for (i, (card, b)) in page.cards.iter().enumerate() {
                assert_eq!((b.2, b.3), (63.0, 88.0), "{file}: {card} at true size");
                let (x, y) = (x0 + (i % 3) as f64 * 63.0, y0 + (i / 3) as f64 * 88.0);
                assert!(
                    (b.0 - x).abs() < 0.01 && (b.1 - y).abs() < 0.01,
                    "{file}: {card} at {b:?}, not centred ({x}, {y})"
                );
            }
            if page.cards.len() == 9 {
                let last = page.cards[8].1;
                assert!((w - (last.0 + last.2) - x0).abs() < 0.01, "centred across");
                assert!((h - (last.1 + last.3) - y0).abs() < 0.01, "centred down");
            }
            assert!(!page.marks.is_empty(), "{file}: crop marks");
            for m in &page.marks {
                assert!(m.0 == m.2 || m.1 == m.3, "{m:?} is not a cut line");
                for c in [m.0, m.2] {
                    assert!((0.0..=w).contains(&c), "{m:?} off the paper");
                }
                for c in [m.1, m.3] {
                    assert!((0.0..=h).contains(&c), "{m:?} off the paper");
                }
                for (card, b) in &page.cards {
                    let (lx, hx) = (m.0.min(m.2), m.0.max(m.2));
                    let (ly, hy) = (m.1.min(m.3), m.1.max(m.3));
                    let crosses = lx < b.0 + b.2 && hx > b.0 && ly < b.1 + b.3 && hy > b.1;
                    assert!(!crosses, "{file}: mark {m:?} over {card}");
                }
                // On a cut line: the line of some card's edge.
                let on_cut = page.cards.iter().any(|(_, b)| {
                    if m.0 == m.2 {
                        (m.0 - b.0).abs() < 0.01 || (m.0 - b.0 - b.2).abs() < 0.01
                    } else {
                        (m.1 - b.1).abs() < 0.01 || (m.1 - b.1 - b.3).abs() < 0.01
                    }
                });
                assert!(on_cut, "{file}: mark {m:?} on no cut line");
            }
        }
    }
    // The fonts come as data URLs in one stylesheet, with their licence.
    let css = std::fs::read_to_string(temp.path().join("out/fonts.css")).unwrap();
    assert_eq!(css.matches("@font-face").count(), 5);
    assert!(css.contains("url(data:font/otf;base64,"));
    assert!(temp.path().join("out/OFL.txt").exists());
}

#[test]
fn a4_sheets_hold_nine_true_size_cards_centred_with_crop_marks_outside() {
    check_paper("a4", (210.0, 297.0));
}

#[test]
fn letter_sheets_hold_nine_true_size_cards_centred_with_crop_marks_outside() {
    check_paper("letter", (215.9, 279.4));
}

/// The numbers of `/MediaBox [0 0 W H]` for each page.
fn media_boxes(pdf: &str) -> Vec<(f64, f64)> {
    let re = Regex::new(r"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]").unwrap();
    re.captures_iter(pdf)
        .map(|c| (c[1].parse().unwrap(), c[2].parse().unwrap()))
        .collect()
}

fn pages(pdf: &str) -> usize {
    Regex::new(r"/Type /Page\b[^s]")
        .unwrap()
        .find_iter(pdf)
        .count()
}

#[test]
fn the_pdf_has_a_page_per_sheet_on_the_paper_with_the_fonts_embedded() {
    let temp = tempfile::tempdir().unwrap();
    let run = blades(
        temp.path(),
        &[
            "--format",
            "json",
            "print",
            "--out",
            "out",
            "--pdf",
            "sheets/all.pdf",
        ],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report = run.json();
    let sheets: usize = report["sets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["pages"].as_u64().unwrap() as usize)
        .sum();
    assert!(
        sheets > report["sets"].as_array().unwrap().len(),
        "a set of two pages"
    );
    assert_eq!(report["pdf"]["pages"].as_u64().unwrap() as usize, sheets);
    let bytes = std::fs::read(temp.path().join("sheets/all.pdf")).unwrap();
    assert!(bytes.starts_with(b"%PDF-"));
    let text = String::from_utf8_lossy(&bytes);
    assert_eq!(pages(&text), sheets, "a page per sheet");
    let boxes = media_boxes(&text);
    assert_eq!(boxes.len(), sheets);
    for (w, h) in boxes {
        assert!(
            (w - 595.28).abs() < 0.01 && (h - 841.89).abs() < 0.01,
            "A4: {w} × {h}"
        );
    }
    assert!(text.contains("/FontFile2"), "the Latin fonts embedded");
    assert!(
        !text.contains("/FontFile3"),
        "no Japanese on English sheets"
    );

    // Japanese on US Letter: the Japanese (CFF) font embedded.
    let run = blades(
        temp.path(),
        &[
            "--format",
            "json",
            "print",
            "--set",
            "starter-ember-vanguard",
            "--lang",
            "ja",
            "--paper",
            "letter",
            "--out",
            "ja",
            "--pdf",
            "ja.pdf",
        ],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let bytes = std::fs::read(temp.path().join("ja.pdf")).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    assert_eq!(pages(&text), 1);
    assert_eq!(media_boxes(&text), vec![(612.0, 792.0)]);
    assert!(text.contains("/FontFile3"), "the Japanese font embedded");
    assert!(text.contains("NotoSansCJKjp"), "by its own name");
    let html =
        std::fs::read_to_string(temp.path().join("ja/starter-ember-vanguard.letter.ja.html"))
            .unwrap();
    assert!(html.contains(r#"<html lang="ja">"#) && html.contains("data-lang=\"ja\""));
}

#[test]
fn a_second_run_writes_nothing_new() {
    let temp = tempfile::tempdir().unwrap();
    let first = blades(temp.path(), &["--format", "json", "print", "--out", "out"]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(first.json()["written"].as_u64().unwrap() > 0);
    let before = files(&temp.path().join("out"));
    let second = blades(temp.path(), &["--format", "json", "print", "--out", "out"]);
    assert_eq!(second.json()["written"], 0);
    assert_eq!(
        second.json()["unchanged"].as_u64().unwrap() as usize,
        before.len()
    );
    assert_eq!(files(&temp.path().join("out")), before);
}

#[test]
fn copies_print_each_card_as_often_as_the_set_has_it() {
    let temp = tempfile::tempdir().unwrap();
    let run = blades(
        temp.path(),
        &[
            "--format",
            "json",
            "print",
            "--set",
            "first-light-core",
            "--copies",
            "--out",
            "out",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let workspace = Workspace::open(Some(&common::root().join("cards"))).unwrap();
    let database = workspace.database().unwrap();
    let set = database
        .sets
        .iter()
        .find(|s| s.id.0 == "first-light-core")
        .unwrap();
    let report = run.json();
    let printed = report["sets"][0]["cards"].as_u64().unwrap();
    assert_eq!(printed, u64::from(set.physical_cards));
    assert!(printed > u64::from(set.distinct_cards));
    let html =
        std::fs::read_to_string(temp.path().join("out/first-light-core.a4.en.html")).unwrap();
    let on_pages: usize = sheets(&html).iter().map(|p| p.cards.len()).sum();
    assert_eq!(on_pages as u64, printed);
}

#[test]
fn sets_are_named_by_id_or_name_and_a_wrong_one_suggests_the_nearest() {
    let temp = tempfile::tempdir().unwrap();
    let run = blades(
        temp.path(),
        &["print", "--set", "Orbital Drift", "--out", "out"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("orbital-drift.a4.en.html"));
    let run = blades(
        temp.path(),
        &["print", "--set", "orbital-drfit", "--out", "o2"],
    );
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("unknown-set"), "{}", run.stderr);
    assert!(run.stderr.contains("`orbital-drift`"), "{}", run.stderr);
    assert!(!temp.path().join("o2").exists(), "nothing written");
    for bad in [
        &["print", "--paper", "a3", "--out", "o3"][..],
        &["print", "--lang", "fr", "--out", "o3"][..],
        &["print", "--lang", "xx-!", "--out", "o3"][..],
    ] {
        let run = blades(temp.path(), bad);
        assert_eq!(run.code, 2, "{bad:?}: {}", run.stderr);
    }
    assert!(!temp.path().join("o3").exists(), "nothing written");
}
