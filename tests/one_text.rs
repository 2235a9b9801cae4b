//! One text per card and language: the faces, the gallery's card page,
//! `card show` and `i18n check` all show what `Card::effect_in` (and
//! `name_in`, `flavor_in`) decide, on every fixture pool with translations.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use blades::compile::find_set;
use blades::faces::svg::FaceText;
use blades::i18n;
use blades::model::{Database, Origin};
use blades::workspace::Workspace;
use common::{blades, root};

/// The pools with translations: the built-in one and the fixtures.
fn pools() -> Vec<Option<PathBuf>> {
    let fixtures = root().join("tests/fixtures");
    let mut pools = vec![None];
    for dir in [
        "i18n/synced",
        "i18n/drifted",
        "i18n/check-bad",
        "i18n/long-override",
        "build/valid",
        "diff/new",
    ] {
        pools.push(Some(fixtures.join(dir)));
    }
    pools
}

fn database(pool: Option<&Path>) -> Database {
    Workspace::open_uncached(pool)
        .unwrap()
        .database()
        .unwrap_or_else(|_| panic!("{pool:?} builds"))
}

#[test]
fn a_face_prints_the_text_the_card_has_in_its_language() {
    for pool in pools() {
        let database = database(pool.as_deref());
        for card in &database.cards {
            let set = find_set(&database, &card.set).unwrap();
            for lang in i18n::languages(&database) {
                let face = FaceText::of(card, set, &lang);
                let printed = card.printed_effect(&lang);
                let said = (
                    card.name_in(&lang).text,
                    printed.as_deref(),
                    card.flavor_in(&lang).map(|f| f.text),
                );
                // What is printed is the card's text: a character's lines
                // are its effect's, each once, under its sides' names.
                let lines = |text: Option<&str>| -> Vec<String> {
                    let mut lines: Vec<String> = (text.unwrap_or_default().lines())
                        .filter(|l| {
                            !blades::effect::CharacterSide::ALL
                                .iter()
                                .any(|s| l.starts_with(s.title(&lang)))
                        })
                        .map(str::to_string)
                        .collect();
                    lines.sort();
                    lines
                };
                assert_eq!(
                    lines(printed.as_deref()),
                    lines(card.effect_in(&lang).map(|e| e.text)),
                    "{pool:?} {} {lang}",
                    card.id
                );
                assert_eq!(
                    (
                        face.name.as_str(),
                        face.effect.as_deref(),
                        face.flavor.as_deref()
                    ),
                    said,
                    "{pool:?} {} {lang}",
                    card.id
                );
                // A card with a Japanese rendering never shows the English.
                if let Some(effect) = card.effect_in(&lang) {
                    assert!(
                        lang == "en"
                            || effect.from != Origin::English
                            || !card.effect_text.contains_key(&lang)
                    );
                }
            }
        }
    }
}

/// The translator's effect is what the Japanese face, the gallery page and
/// `card show` print; a card without one shows the effect language's
/// Japanese, never the English.
#[test]
fn card_show_the_face_and_the_gallery_agree_on_the_japanese_effect() {
    let temp = tempfile::tempdir().unwrap();
    let pool = root().join("tests/fixtures/i18n/long-override");
    let database = database(Some(&pool));
    let site = temp.path().join("site");
    let cards = pool.to_str().unwrap();
    let run = blades(
        temp.path(),
        &["gallery", "--cards", cards, "--out", site.to_str().unwrap()],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    for card in &database.cards {
        let Some(effect) = card.effect_in("ja") else {
            continue;
        };
        let first_line = effect.text.lines().next().unwrap();
        let show = blades(
            temp.path(),
            &["card", "show", &card.id.0, "--lang", "ja", "--cards", cards],
        );
        assert!(
            show.stdout.contains(first_line),
            "{}: {}",
            card.id,
            show.stdout
        );
        let english = card.effect_text["en"].lines().next().unwrap();
        assert!(
            !show.stdout.contains(english),
            "{}: {}",
            card.id,
            show.stdout
        );
        let page = std::fs::read_to_string(site.join(format!("cards/{}.html", card.id))).unwrap();
        assert!(page.contains(first_line), "{}", card.id);
    }
}

/// The places `--format json` findings of `code` point at, as `file:line`.
fn places(args: &[&str], code: &str) -> BTreeSet<String> {
    let run = blades(root(), args);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let diagnostics = report.get("report").unwrap_or(&report)["diagnostics"].clone();
    diagnostics
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == code)
        .map(|d| format!("{}:{}", d["file"].as_str().unwrap(), d["line"]))
        .collect()
}

/// `i18n check`'s `text-fit` and `render`'s `text-overflow` name the same
/// texts, a translator's long effect among them.
#[test]
fn i18n_check_and_render_find_the_same_texts_too_long() {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("faces");
    for pool in pools().into_iter().flatten() {
        let cards = pool.to_str().unwrap();
        let check = places(
            &[
                "--format", "json", "i18n", "check", "--lang", "ja", "--cards", cards,
            ],
            "text-fit",
        );
        let render = places(
            &[
                "--format",
                "json",
                "render",
                "--lang",
                "ja",
                "--cards",
                cards,
                "--out",
                out.to_str().unwrap(),
            ],
            "text-overflow",
        );
        assert_eq!(check, render, "{cards}");
        if pool.ends_with("long-override") {
            assert_eq!(check.len(), 1, "{check:?}");
        }
    }
}

/// An effect that names a set prints the set's name in the language of the
/// text: Japanese effect text never names a translated set in English.
#[test]
fn japanese_effect_text_names_sets_in_japanese() {
    let mut named = 0;
    for pool in pools() {
        let database = database(pool.as_deref());
        for card in &database.cards {
            let (Some(english), Some(japanese)) =
                (card.effect_text.get("en"), card.effect_text.get("ja"))
            else {
                continue;
            };
            for set in &database.sets {
                let Some(translated) = set.translations.get("ja") else {
                    continue;
                };
                if english.contains(&set.name) {
                    named += 1;
                    assert!(
                        japanese.contains(&translated.name),
                        "{pool:?} {}: {japanese}",
                        card.id
                    );
                    assert!(
                        !japanese.contains(&set.name),
                        "{pool:?} {}: {japanese}",
                        card.id
                    );
                }
            }
        }
    }
    assert!(named > 0, "no fixture names a set in an effect");
}

/// A third language is data: with no words of its own it prints the
/// English kind and rarity, never the Japanese edition's.
#[test]
fn a_third_language_gets_english_words_not_japanese() {
    let database = database(None);
    let card = &database.cards[0];
    let set = find_set(&database, &card.set).unwrap();
    let english = FaceText::of(card, set, "en");
    let french = FaceText::of(card, set, "fr");
    let japanese = FaceText::of(card, set, "ja");
    assert_eq!(
        (&french.kind, &french.rarity),
        (&english.kind, &english.rarity)
    );
    assert_ne!(japanese.kind, english.kind);
}

/// Every card of the built-in pool, the example pools and the fixture
/// workspace prints alike through `render` (which takes the canonical
/// English for the built-in book's abilities) and through the phrase book.
#[test]
fn every_pools_effects_print_alike_through_render_and_the_phrase_book() {
    use blades::effect::{Lang, render, render_from_phrases};
    let mut pools = vec![Workspace::builtin()];
    for dir in [
        "examples/pools/board-game",
        "examples/pools/millennium-monsters",
        "examples/pools/playing-cards",
        "tests/fixtures/workspace/own-words",
    ] {
        pools.push(Workspace::open_uncached(Some(&root().join(dir))).expect("pool opens"));
    }
    let mut effects = 0;
    for pool in pools {
        let (vocabulary, _) = pool.vocabulary();
        let Ok(database) = pool.database() else {
            continue;
        };
        for card in &database.cards {
            let Some(tree) = &card.effect_tree else {
                continue;
            };
            effects += 1;
            for lang in Lang::ALL {
                let book = vocabulary.phrases.get(lang);
                assert_eq!(
                    render(tree, lang, book, &vocabulary.vocab),
                    render_from_phrases(tree, lang, book, &vocabulary.vocab),
                    "{}",
                    card.id.0
                );
            }
        }
    }
    assert!(effects > 50, "{effects} effects");
}
