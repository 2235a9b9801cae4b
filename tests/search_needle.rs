//! Text terms match the cards' texts as they are, without folding them
//! first (`search::Needle`): on random text from an alphabet of the
//! characters folding treats apart (ASCII of both cases, full-width forms,
//! the ideographic space, `İ`, the Kelvin sign, accented letters, kana and
//! ideographs), a needle finds exactly what folding the text and then
//! looking finds.

use proptest::prelude::*;

use blades::search::{Needle, fold};

const ALPHABET: &[char] = &[
    'a', 'A', 'i', 'I', 'k', 'K', 'r', 'p', 'P', '3', ' ', ':', '!', 'Ａ', 'ａ', 'Ｋ', 'Ｐ', '３',
    '：', '！', '\u{3000}', 'İ', '\u{307}', '\u{212A}', 'é', 'É', 'ǅ', 'ß', 'Σ', 'σ', 'プ', 'レ',
    'イ', '炎', '竜', 'の',
];

fn text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(ALPHABET), 0..max)
        .prop_map(|chars| chars.into_iter().collect())
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
