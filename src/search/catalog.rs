//! What a query may name: the keys (English and Japanese), and the values
//! of each key that has a closed list of them, from the game's words, the
//! official glossary and what the database holds.

use std::collections::{BTreeSet, HashMap};

use rayon::prelude::*;

use crate::effect::{Keywords, Timing};
use crate::i18n::glossary::Glossary;
use crate::model::Database;
use crate::words::{BASE_TYPES, CardKind, Element, SetKind};

use super::{Field, Flag, Value, fold};

/// Every key a query may use, with its field: English names and short
/// forms first, then the Japanese names (the glossary's words where it has
/// one: 属性, 種族, レアリティ).
pub const KEYS: &[(&str, Field)] = &[
    ("name", Field::Name),
    ("n", Field::Name),
    ("id", Field::Id),
    ("set", Field::Set),
    ("s", Field::Set),
    ("kind", Field::Kind),
    ("k", Field::Kind),
    ("rarity", Field::Rarity),
    ("r", Field::Rarity),
    ("element", Field::Element),
    ("e", Field::Element),
    ("type", Field::Type),
    ("t", Field::Type),
    ("star", Field::Star),
    ("stars", Field::Star),
    ("copies", Field::Copies),
    ("keyword", Field::Keyword),
    ("kw", Field::Keyword),
    ("timing", Field::Timing),
    ("text", Field::Text),
    ("o", Field::Text),
    ("flavor", Field::Flavor),
    ("ft", Field::Flavor),
    ("has", Field::Flag),
    ("is", Field::Flag),
    ("名前", Field::Name),
    ("カード名", Field::Name),
    ("セット", Field::Set),
    ("種類", Field::Kind),
    ("レアリティ", Field::Rarity),
    ("属性", Field::Element),
    ("種族", Field::Type),
    ("スター", Field::Star),
    ("スターレーティング", Field::Star),
    ("枚数", Field::Copies),
    ("キーワード", Field::Keyword),
    ("タイミング", Field::Timing),
    ("テキスト", Field::Text),
    ("効果文", Field::Text),
    ("フレーバー", Field::Flavor),
    ("持つ", Field::Flag),
    ("状態", Field::Flag),
];

/// The field a key names (any case; full-width letters as ASCII).
pub(super) fn field_of(key: &str) -> Option<Field> {
    let key = fold(key);
    KEYS.iter().find(|(k, _)| *k == key).map(|(_, f)| *f)
}

/// The Japanese words of `has:` and `is:`.
const FLAG_WORDS_JA: &[(&str, Flag)] = &[
    ("効果", Flag::Effect),
    ("効果あり", Flag::Effect),
    ("バニラ", Flag::Vanilla),
    ("フレーバー", Flag::Flavor),
    ("翻訳", Flag::Translated),
    ("翻訳済み", Flag::Translated),
    ("古い", Flag::Stale),
    ("要更新", Flag::Stale),
];

/// What the values of the closed keys may be: each word (folded) with the
/// value it stands for.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    /// (field, folded word, value, the word as given).
    words: Vec<(Field, String, Value, String)>,
    /// (field, word) → index into `words`.
    find: HashMap<(Field, String), usize>,
    /// Keywords' English names by their folded form, to say them back.
    keyword_names: HashMap<String, String>,
    /// Sets (id, names), to say them back in a language.
    pub(super) sets: Vec<(String, String, Option<String>)>,
}

impl Catalog {
    /// The words of `database` (its sets, types and keywords) and of the
    /// game (elements, kinds, rarities, timing words, flags), in English
    /// and Japanese; `keywords` adds the keyword table's names (a keyword
    /// no card uses yet is still a keyword).
    pub fn new(database: &Database, keywords: &Keywords) -> Catalog {
        // Read off every effect: on every core.
        let used: BTreeSet<String> = database
            .cards
            .par_iter()
            .flat_map_iter(super::card_keywords)
            .collect();
        Catalog::with_used(database, keywords, used)
    }

    /// [`Catalog::new`] for the database of `index`, taking the keywords
    /// its cards use from the index (which keeps them for keyword terms):
    /// the effects are read once for both.
    pub fn for_index(index: &super::Index<'_>, keywords: &Keywords) -> Catalog {
        let used: BTreeSet<&str> = index.keywords().collect();
        let used = used.into_iter().map(str::to_string).collect();
        Catalog::with_used(index.database(), keywords, used)
    }

    /// [`Catalog::new`], with the keywords the cards use.
    fn with_used(database: &Database, keywords: &Keywords, used: BTreeSet<String>) -> Catalog {
        let glossary = Glossary::builtin();
        let ja = |english: &str| {
            glossary
                .official_for(english)
                .map(|w| w.trim_end_matches(['：', ':']).to_string())
        };
        let mut catalog = Catalog::default();
        let mut add = |field: Field, original: &str, value: Value| {
            let word = fold(original);
            if word.is_empty() || catalog.find.contains_key(&(field, word.clone())) {
                return;
            }
            catalog
                .find
                .insert((field, word.clone()), catalog.words.len());
            catalog
                .words
                .push((field, word, value, original.to_string()));
        };
        for element in Element::ALL {
            add(Field::Element, element.as_str(), Value::Element(element));
            if let Some(word) = ja(element.as_str()) {
                add(Field::Element, &word, Value::Element(element));
            }
        }
        for kind in [CardKind::Single, CardKind::DeckBox, CardKind::Accessory] {
            add(Field::Kind, kind.as_str(), Value::Kind(kind));
            add(
                Field::Kind,
                &kind.as_str().replace('-', ""),
                Value::Kind(kind),
            );
            if let Some(word) = ja(kind.as_str()) {
                add(Field::Kind, &word, Value::Kind(kind));
            }
        }
        for rarity in SetKind::ALL {
            add(Field::Rarity, rarity.as_str(), Value::Rarity(rarity));
            if let Some(word) = ja(rarity.as_str()) {
                add(Field::Rarity, &word, Value::Rarity(rarity));
            }
        }
        for timing in Timing::ALL {
            add(Field::Timing, timing.word(), Value::Timing(timing));
            let ja_word = ja(&format!("{}:", timing.word())).or_else(|| ja(timing.word()));
            if let Some(word) = ja_word {
                add(Field::Timing, &word, Value::Timing(timing));
            }
        }
        for flag in Flag::ALL {
            add(Field::Flag, flag.as_str(), Value::Flag(flag));
        }
        for (word, flag) in FLAG_WORDS_JA {
            add(Field::Flag, word, Value::Flag(*flag));
        }
        let mut types: Vec<String> = BASE_TYPES.iter().map(|t| t.to_string()).collect();
        let mut more: BTreeSet<&str> = database
            .cards
            .par_iter()
            .flat_map_iter(|card| card.types.iter().map(|t| t.0.as_str()))
            .collect();
        for set in &database.sets {
            more.extend(set.extra_types.iter().map(|t| t.0.as_str()));
        }
        types.extend(more.into_iter().map(str::to_string));
        for ty in &types {
            add(Field::Type, ty, Value::Type(ty.clone()));
            if let Some(word) = ja(ty) {
                add(Field::Type, &word, Value::Type(ty.clone()));
            }
        }
        for set in &database.sets {
            let value = || Value::Set(set.id.0.clone());
            add(Field::Set, &set.id.0, value());
            add(Field::Set, &set.name, value());
            for translation in set.translations.values() {
                add(Field::Set, &translation.name, value());
            }
            catalog.sets.push((
                set.id.0.clone(),
                set.name.clone(),
                set.translations.get("ja").map(|t| t.name.clone()),
            ));
        }
        let mut keyword_names = HashMap::new();
        for keyword in keywords.iter() {
            keyword_names.insert(fold(&keyword.name.en), keyword.name.en.clone());
            let value = || Value::Keyword(fold(&keyword.name.en));
            add(Field::Keyword, &keyword.name.en, value());
            add(Field::Keyword, &keyword.id, value());
            add(Field::Keyword, &keyword.name.ja, value());
        }
        for name in &used {
            keyword_names
                .entry(fold(name))
                .or_insert_with(|| name.clone());
            add(Field::Keyword, name, Value::Keyword(fold(name)));
            if let Some(word) = ja(name) {
                add(Field::Keyword, &word, Value::Keyword(fold(name)));
            }
        }
        catalog.keyword_names = keyword_names;
        catalog
    }

    /// A keyword's English name, from its folded form.
    pub(super) fn keyword_name<'a>(&'a self, folded: &'a str) -> &'a str {
        self.keyword_names
            .get(folded)
            .map_or(folded, String::as_str)
    }

    /// The value `word` names for `field`, if it has a closed list.
    pub(super) fn value(&self, field: Field, word: &str) -> Option<&Value> {
        let at = self.find.get(&(field, fold(word)))?;
        Some(&self.words[*at].2)
    }

    /// Every word `field` takes (folded), for suggestions and help.
    pub fn words(&self, field: Field) -> impl Iterator<Item = &str> {
        self.words
            .iter()
            .filter(move |(f, ..)| *f == field)
            .map(|(_, w, ..)| w.as_str())
    }

    /// A keyword's Japanese name (from the words it was given).
    pub(super) fn japanese_of(&self, field: Field, value: &Value) -> Option<&str> {
        self.words
            .iter()
            .filter(|(f, ..)| *f == field)
            .filter(|(_, w, ..)| !w.is_ascii())
            .find(|(_, _, v, _)| same(v, value))
            .map(|(.., original)| original.as_str())
    }
}

/// Whether two resolved values are the same word.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Element(a), Value::Element(b)) => a == b,
        (Value::Kind(a), Value::Kind(b)) => a == b,
        (Value::Rarity(a), Value::Rarity(b)) => a == b,
        (Value::Type(a), Value::Type(b)) => a == b,
        (Value::Set(a), Value::Set(b)) => a == b,
        (Value::Timing(a), Value::Timing(b)) => a == b,
        (Value::Keyword(a), Value::Keyword(b)) => a == b,
        (Value::Flag(a), Value::Flag(b)) => a == b,
        _ => false,
    }
}
