//! The card model: what a set file says (`SetSource`, `CardSource`), and the
//! compiled database (`Database`, `Set`, `Card`) with derived fields.
//!
//! The JSON Schemas in `schema/` are generated from these types, so the
//! schema, the serde shape and the docs can never disagree.

use std::borrow::Cow;
use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::effect::CharacterSide;
use crate::faces::art::ArtFormat;
use crate::i18n::keys::SOURCE_LANG;
use crate::words::{CardKind, Element, Id, SetKind};

/// `blades card show --format json`: one card and its set.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CardShown<'a> {
    pub card: &'a Card,
    /// The card's set (absent only for a card whose set is not in the
    /// database, which a build never writes).
    pub set: Option<&'a Set>,
}

/// Version of the database format; bumped on incompatible changes.
pub(crate) const DATABASE_FORMAT: u32 = 2;

/// One set file as the designer writes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
#[schemars(title = "Millennium Blades card set")]
pub struct SetSource {
    /// Kebab-case id, unique across the pool.
    pub id: Id,
    /// Printed set name.
    #[schemars(length(min = 1))]
    pub name: String,
    pub kind: SetKind,
    /// Store buy cost in Millennium Dollars (store sets only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 99))]
    pub cost: Option<u32>,
    /// Extra card types this set declares (a Pro Player set's own type).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra_types: Vec<Id>,
    pub cards: Vec<CardSource>,
}

/// One card as the designer writes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CardSource {
    /// Kebab-case id, unique across the pool.
    pub id: Id,
    /// Printed name, unique across the pool ignoring case.
    #[schemars(length(min = 1))]
    pub name: String,
    pub kind: CardKind,
    /// Star rating (STAR): required on singles, deck boxes and
    /// accessories; venues and characters have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 10))]
    pub stars: Option<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub elements: Vec<Element>,
    /// Base types (animal, myth, construct, citizen, soldier, mage) or a
    /// type declared by a set's `extra-types`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<Id>,
    /// A category the pool defines (`face`, `number`, `monster-slider`),
    /// for deck formats to count by; Millennium Blades cards have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<Id>,
    /// Copies in the set; derived from the copy rule, required in the Core Set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 9))]
    pub copies: Option<u8>,
    /// Effect text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// Flavor text (no game effect).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flavor: Option<String>,
    /// Errata history: the effect texts the card had before, oldest first,
    /// each with the last release it was used in.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errata: Vec<Errata>,
    /// The card's art: an image file (PNG, JPEG, WebP or SVG, at most
    /// 8 MiB) relative to the set file's folder, inside the pool's folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub art: Option<String>,
}

/// An effect text a card had before an erratum (`errata:` in a set file,
/// and in the database): what it said and the last release that used it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Errata {
    /// The last release this text was used in (`1.1`, `2025-spring`):
    /// unique within the card.
    #[schemars(length(min = 1))]
    pub until: String,
    /// The effect as it was, in the effect language.
    #[schemars(length(min = 1))]
    pub effect: String,
    /// Why it changed, for changelogs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The compiled card database (`dist/cards.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
#[schemars(title = "Millennium Blades card database")]
pub struct Database {
    /// Format version of this file.
    pub format: u32,
    /// Every card of every set, in set order then file order. Before the
    /// sets, so a build can write each set's cards as it renders them.
    pub cards: Vec<Card>,
    pub sets: Vec<Set>,
    /// The pool's keyword table, as a reader names its keywords (`search
    /// --db` resolves `kw:` against it, as a search of the pool does).
    /// Absent from files written before it was kept: read as the built-in
    /// table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keywords: Option<Vec<KeywordName>>,
}

impl KeywordName {
    /// The names of a keyword table, in its order.
    pub fn table(keywords: &crate::effect::Keywords) -> Vec<KeywordName> {
        keywords
            .iter()
            .map(|k| KeywordName {
                id: Id(k.id.clone()),
                name: k.name.en.clone(),
                names: [("ja".to_string(), k.name.ja.clone())]
                    .into_iter()
                    .collect(),
            })
            .collect()
    }
}

/// A set keyword of the pool: its id and names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct KeywordName {
    pub id: Id,
    /// The English name, as effect text writes it (`Blast Off PLUS`).
    pub name: String,
    /// The name in other languages, by language code (`ja`).
    #[serde(default, skip_serializing_if = "ByLang::is_empty")]
    pub names: ByLang<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Set {
    pub id: Id,
    pub name: String,
    pub kind: SetKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra_types: Vec<Id>,
    /// Distinct cards in the set.
    pub distinct_cards: u32,
    /// Physical cards in the set (sum of copies).
    pub physical_cards: u32,
    /// The set's name in other languages, by language code (`ja`).
    #[serde(default, skip_serializing_if = "ByLang::is_empty")]
    pub translations: ByLang<SetTranslation>,
}

/// A set's text in another language.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SetTranslation {
    pub name: String,
    /// The English name changed since this was translated.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stale: bool,
}

/// A card's text in another language. `effect` is present only where a
/// translator overrides the text the effect language renders.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CardTranslation {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flavor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// Fields (`name`, `flavor`, `effect`) whose English changed since they
    /// were translated.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stale: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Card {
    pub id: Id,
    pub name: String,
    /// Id of the card's set.
    pub set: Id,
    pub kind: CardKind,
    /// Star rating (STAR); absent exactly on venues and characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stars: Option<u8>,
    pub elements: Vec<Element>,
    pub types: Vec<Id>,
    /// The pool-defined category, if the card has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<Id>,
    /// Derived from the set's kind.
    pub rarity: SetKind,
    /// Derived from the copy rule (stated for Core Set cards).
    pub copies: u8,
    /// The effect as the designer wrote it (effect language source).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// The parsed effect.
    // Written for other programs, not read back when this crate reads a
    // database: it is derived from `effect` (which `effect::parse` reads
    // again), a third of a large database, and no question asked of a
    // database needs it.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "skip_effect_tree"
    )]
    pub effect_tree: Option<std::sync::Arc<crate::effect::Effect>>,
    /// The printed effect text rendered from the tree, by language (`en`, `ja`).
    #[serde(default, skip_serializing_if = "ByLang::is_empty")]
    pub effect_text: ByLang<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flavor: Option<String>,
    /// The card's text in other languages, by language code (`ja`).
    #[serde(default, skip_serializing_if = "ByLang::is_empty")]
    pub translations: ByLang<CardTranslation>,
    /// The effect texts the card had before, oldest first (the set file's
    /// `errata`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errata: Vec<Errata>,
    /// The card's art, when the set file names an image the build could
    /// read (a missing or unreadable one is a warning, and no art here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub art: Option<Art>,
}

/// A STAR as a face, table or changelog shows it: `—` for none.
pub fn stars_shown(stars: Option<u8>) -> String {
    stars.map_or_else(|| "—".to_string(), |s| s.to_string())
}

/// A card's art as the build found it: the image file and what its header
/// says. Faces embed the file's bytes, read from the pool's folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Art {
    /// The image file, relative to the pool's folder, with `/` separators.
    pub file: String,
    pub format: ArtFormat,
    /// Its size in pixels.
    pub width: u32,
    pub height: u32,
    /// A hash of the file's bytes (xxh3-64, hex): a changed image changes
    /// the card, so its faces are drawn again.
    pub fingerprint: String,
}

impl Card {
    /// A card with no symbols, text or translations (for tests and tools
    /// that build cards by hand; fill in the rest with `..`).
    pub fn new(id: &str, name: &str, set: &str, kind: CardKind, stars: u8) -> Card {
        Card {
            id: Id(id.to_string()),
            name: name.to_string(),
            set: Id(set.to_string()),
            kind,
            stars: kind.has_stars().then_some(stars),
            elements: Vec::new(),
            types: Vec::new(),
            category: None,
            rarity: SetKind::Expansion,
            copies: 1,
            effect: None,
            effect_tree: None,
            effect_text: ByLang::new(),
            flavor: None,
            translations: ByLang::new(),
            errata: Vec::new(),
            art: None,
        }
    }

    /// The STAR the card adds to a sum of STARs (a trade's value, a
    /// collection's): a card with no STAR adds none.
    pub fn star_value(&self) -> u64 {
        self.stars.map_or(0, u64::from)
    }

    /// The STAR as a face, table or changelog shows it: `—` for none.
    pub fn stars_shown(&self) -> String {
        stars_shown(self.stars)
    }

    /// The effect as a face and `card show` print it in `lang`: a
    /// character's two sides, each under its name (`Deckbuilding side:`,
    /// set bold as a timing head is; a side with no ability left out), and
    /// any other card's text as [`Card::effect_in`] decides.
    pub fn printed_effect(&self, lang: &str) -> Option<Cow<'_, str>> {
        let Some(sides) = self.sides_in(lang) else {
            return self.effect_in(lang).map(|e| Cow::Borrowed(e.text));
        };
        let colon = if lang == "ja" { "：" } else { ":" };
        let mut out = String::new();
        for (side, lines) in sides.iter().filter(|(_, lines)| !lines.is_empty()) {
            out.push_str(side.title(lang));
            out.push_str(colon);
            for line in lines {
                out.push('\n');
                out.push_str(line);
            }
            out.push('\n');
        }
        Some(Cow::Owned(out.trim_end().to_string()))
    }

    /// A character's effect in `lang` as its two sides, each with its
    /// printed lines (`effect::sides`); `None` for a card of another kind,
    /// one with no effect, or a text whose lines are not the tree's.
    pub fn sides_in(&self, lang: &str) -> Option<Vec<(CharacterSide, Vec<&str>)>> {
        if self.kind != CardKind::Character {
            return None;
        }
        let parsed;
        let tree = match &self.effect_tree {
            Some(tree) => &**tree,
            None => {
                parsed = crate::effect::parse(self.effect.as_deref()?).ok()?;
                &parsed
            }
        };
        let sides = crate::effect::sides(tree);
        let text = self.effect_in(lang)?.text;
        CharacterSide::ALL
            .into_iter()
            .map(|side| Some((side, crate::effect::sides::lines_on(text, &sides, side)?)))
            .collect()
    }

    /// The card's name in `lang`: the translation, else the English.
    pub fn name_in(&self, lang: &str) -> InLang<'_> {
        let translated = self.translation(lang).and_then(|t| t.name.as_deref());
        InLang::of(lang, translated, Some(&self.name)).unwrap_or(InLang {
            text: &self.name,
            from: Origin::English,
        })
    }

    /// The card's printed effect in `lang`: the translator's text when the
    /// locale file gives one (it overrides the effect language), else the
    /// effect language's rendering in `lang`, else the English. The one
    /// answer to "what does this card say in this language": faces,
    /// gallery, print sheets, `card show` and `i18n check` all ask it.
    pub fn effect_in(&self, lang: &str) -> Option<InLang<'_>> {
        self.effect.as_ref()?;
        let translated = self.translation(lang).and_then(|t| t.effect.as_deref());
        let rendered = self.effect_text.get(lang).map(String::as_str);
        let english = self.effect_text.get(SOURCE_LANG).or(self.effect.as_ref());
        match (translated, rendered) {
            (Some(text), _) => Some(InLang {
                text,
                from: Origin::Written,
            }),
            (None, Some(text)) => Some(InLang {
                text,
                from: Origin::Rendered,
            }),
            (None, None) => InLang::of(lang, None, english.map(String::as_str)),
        }
    }

    /// The card's flavor text in `lang`: the translation, else the English.
    pub fn flavor_in(&self, lang: &str) -> Option<InLang<'_>> {
        let translated = self.translation(lang).and_then(|t| t.flavor.as_deref());
        InLang::of(lang, translated, self.flavor.as_deref())
    }

    /// The card's translation into `lang` (none for English).
    fn translation(&self, lang: &str) -> Option<&CardTranslation> {
        (lang != SOURCE_LANG).then(|| self.translations.get(lang))?
    }
}

/// A card's text in one language, and where it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InLang<'a> {
    pub text: &'a str,
    pub from: Origin,
}

/// Where a card's text in a language came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Written in that language: the English, or a translator's text.
    Written,
    /// Rendered in that language from the effect language.
    Rendered,
    /// The English, standing in for a translation that is missing.
    English,
}

impl<'a> InLang<'a> {
    /// The translation when there is one, else the English: written in
    /// English, standing in for any other language.
    fn of(lang: &str, translated: Option<&'a str>, english: Option<&'a str>) -> Option<InLang<'a>> {
        let (text, from) = match translated {
            Some(text) => (text, Origin::Written),
            None if lang == SOURCE_LANG => (english?, Origin::Written),
            None => (english?, Origin::English),
        };
        Some(InLang { text, from })
    }
}

/// Values by language code (`en`, `ja`), in code order: a JSON object like
/// a `BTreeMap<String, T>`, held as a short sorted list. A card has one or
/// two languages, and a B-tree node would reserve room for eleven (on a
/// 100,000-card pool that is hundreds of megabytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByLang<T>(Vec<(String, T)>);

impl<T> Default for ByLang<T> {
    fn default() -> Self {
        ByLang(Vec::new())
    }
}

impl<T> ByLang<T> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Values already in code order, each language once, kept as they
    /// are; `None` when they are not (as a damaged file may hold them).
    pub fn from_sorted(values: Vec<(String, T)>) -> Option<Self> {
        (values.windows(2).all(|pair| pair[0].0 < pair[1].0)).then_some(ByLang(values))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    fn find(&self, lang: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(l, _)| l.as_str().cmp(lang))
    }

    /// Sets a language's value, returning the one it replaces.
    pub fn insert(&mut self, lang: String, value: T) -> Option<T> {
        match self.find(&lang) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            Err(i) => {
                // Room for this one only: a vector's first growth makes room
                // for four, and most cards have one or two languages (100,000
                // cards' translations wasted 36 MB so).
                self.0.reserve_exact(1);
                self.0.insert(i, (lang, value));
                None
            }
        }
    }

    pub fn get(&self, lang: &str) -> Option<&T> {
        self.find(lang).ok().map(|i| &self.0[i].1)
    }

    pub fn contains_key(&self, lang: &str) -> bool {
        self.find(lang).is_ok()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&String, &T)> {
        self.0.iter().map(|(l, v)| (l, v))
    }

    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(l, _)| l)
    }

    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.0.iter().map(|(_, v)| v)
    }
}

impl<T> std::ops::Index<&str> for ByLang<T> {
    type Output = T;

    fn index(&self, lang: &str) -> &T {
        self.get(lang)
            .unwrap_or_else(|| panic!("no value for language `{lang}`"))
    }
}

impl<T> FromIterator<(String, T)> for ByLang<T> {
    fn from_iter<I: IntoIterator<Item = (String, T)>>(items: I) -> Self {
        let mut map = ByLang::new();
        for (lang, value) in items {
            map.insert(lang, value);
        }
        map
    }
}

impl<T: Serialize> Serialize for ByLang<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ByLang<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let map = BTreeMap::<String, T>::deserialize(deserializer)?;
        Ok(ByLang(map.into_iter().collect()))
    }
}

impl<T: JsonSchema> JsonSchema for ByLang<T> {
    fn inline_schema() -> bool {
        BTreeMap::<String, T>::inline_schema()
    }

    fn schema_name() -> Cow<'static, str> {
        BTreeMap::<String, T>::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        BTreeMap::<String, T>::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        BTreeMap::<String, T>::json_schema(generator)
    }
}

/// Reads past a database's effect tree (see [`Card::effect_tree`]).
fn skip_effect_tree<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<std::sync::Arc<crate::effect::Effect>>, D::Error> {
    serde::de::IgnoredAny::deserialize(deserializer).map(|_| None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_by_language_stay_in_code_order_holding_no_spare_room() {
        let mut texts = ByLang::new();
        for lang in ["ja", "en", "fr"] {
            assert_eq!(texts.insert(lang.to_string(), lang.len()), None);
        }
        assert_eq!(texts.insert("en".to_string(), 9), Some(2));
        let langs: Vec<&String> = texts.keys().collect();
        assert_eq!(langs, ["en", "fr", "ja"]);
        assert_eq!(texts["en"], 9);
        // A card's one or two languages take the room they need.
        assert_eq!(texts.0.capacity(), 3);
    }
}
