//! Text terms match the cards' texts as they are, without folding them
//! first (`search::Needle`): on random text from an alphabet of the
//! characters folding treats apart (ASCII of both cases, full-width forms,
//! the ideographic space, `İ`, the Kelvin sign, accented letters, kana and
//! ideographs), a needle finds exactly what folding the text and then
//! looking finds; and a search over an index whose texts were folded once
//! (`Index::make_columns`, the server's) finds what one matching text as
//! it is finds, and what folding each card's texts finds.

use proptest::prelude::*;

use blades::model::{Card, CardTranslation, Database};
use blades::search::{Field, Index, Needle, Node, Op, Query, Test, Value, fold};
use blades::words::CardKind;

const ALPHABET: &[char] = &[
    'a', 'A', 'i', 'I', 'k', 'K', 'r', 'p', 'P', '3', ' ', ':', '!', 'Ａ', 'ａ', 'Ｋ', 'Ｐ', '３',
    '：', '！', '\u{3000}', 'İ', '\u{307}', '\u{212A}', 'é', 'É', 'ǅ', 'ß', 'Σ', 'σ', 'プ', 'レ',
    'イ', '炎', '竜', 'の', 'ς',
];

fn text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(ALPHABET), 0..max)
        .prop_map(|chars| chars.into_iter().collect())
}

/// A card's texts as generated: its name, effect texts and flavor, and
/// its translation's.
#[derive(Debug, Clone)]
struct Texts {
    name: String,
    effect: Option<String>,
    rendered: Vec<String>,
    flavor: Option<String>,
    translated: Option<(Option<String>, Option<String>, Option<String>)>,
}

fn texts() -> impl Strategy<Value = Texts> {
    let some = || prop::option::of(text(6));
    (
        text(8),
        some(),
        prop::collection::vec(text(8), 0..3),
        some(),
        prop::option::of((some(), some(), some())),
    )
        .prop_map(|(name, effect, rendered, flavor, translated)| Texts {
            name,
            effect,
            rendered,
            flavor,
            translated,
        })
}

fn card(i: usize, texts: &Texts) -> Card {
    let mut card = Card::new(&format!("c{i}"), &texts.name, "s", CardKind::Single, 1);
    card.effect = texts.effect.clone();
    for (lang, text) in ["en", "ja", "fr"].iter().zip(&texts.rendered) {
        card.effect_text.insert(lang.to_string(), text.clone());
    }
    card.flavor = texts.flavor.clone();
    if let Some((name, effect, flavor)) = &texts.translated {
        let translation = CardTranslation {
            name: name.clone(),
            effect: effect.clone(),
            flavor: flavor.clone(),
            ..CardTranslation::default()
        };
        card.translations.insert("ja".to_string(), translation);
    }
    card
}

/// The texts of `field` a search reads, listed by hand.
fn listed(card: &Card, field: Field) -> Vec<String> {
    let translated = card.translations.values();
    let mut list: Vec<Option<String>> = match field {
        Field::Name => vec![Some(card.name.clone())],
        Field::Text if card.effect_text.is_empty() => vec![card.effect.clone()],
        Field::Text => card.effect_text.values().cloned().map(Some).collect(),
        _ => vec![card.flavor.clone()],
    };
    list.extend(translated.map(|t| match field {
        Field::Name => t.name.clone(),
        Field::Text => t.effect.clone(),
        _ => t.flavor.clone(),
    }));
    list.into_iter().flatten().collect()
}

fn one_term(field: Field, op: Op, needle: &str) -> Query {
    Query {
        text: needle.to_string(),
        root: Some(Node::Test(Test {
            field,
            op,
            value: Value::Text(Box::new(Needle::new(needle))),
            span: 0..0,
            said: [String::new(), String::new()],
        })),
        hints: Vec::new(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn folded_columns_find_what_folding_each_card_finds(
        cards in prop::collection::vec(texts(), 0..8),
        needle in text(3),
        field in prop::sample::select(vec![Field::Name, Field::Text, Field::Flavor]),
        op in prop::sample::select(vec![Op::Has, Op::Eq, Op::Ne]),
    ) {
        let database = Database {
            keywords: None,
            format: 2,
            cards: cards.iter().enumerate().map(|(i, t)| card(i, t)).collect(),
            sets: Vec::new(),
        };
        let query = one_term(field, op, &needle);
        let as_is = Index::new(&database);
        let folded = Index::new(&database);
        folded.make_columns();
        let ids = |index: &Index| index.search(&query).map(|c| c.id.0.clone()).collect::<Vec<_>>();
        let want: Vec<String> = database
            .cards
            .iter()
            .filter(|card| {
                let texts = listed(card, field).into_iter().map(|t| fold(&t));
                let needle = fold(&needle);
                match op {
                    Op::Eq => texts.into_iter().any(|t| t == needle),
                    Op::Ne => !texts.into_iter().any(|t| t == needle),
                    _ => texts.into_iter().any(|t| t.contains(&needle)),
                }
            })
            .map(|c| c.id.0.clone())
            .collect();
        prop_assert_eq!(ids(&as_is), want.clone());
        prop_assert_eq!(ids(&folded), want);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn a_needle_finds_what_folded_text_holds(needle in text(4), haystack in text(12)) {
        let found = Needle::new(&needle);
        let folded = fold(&haystack);
        prop_assert_eq!(found.within(&haystack), folded.contains(&found.text));
        prop_assert_eq!(found.equals(&haystack), folded == found.text);
    }

    #[test]
    fn a_needle_equals_its_own_text(haystack in text(8)) {
        let found = Needle::new(&haystack);
        prop_assert!(found.equals(&haystack));
        prop_assert!(found.within(&haystack));
    }
}
