//! What a query may name: the keys (English and Japanese), and the values
//! of each key that has a closed list of them, from the game's words, the
//! official glossary and what the database holds.

use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

use rayon::prelude::*;

use crate::effect::{Holding, Keywords, Timing};
use crate::i18n::glossary::Glossary;
use crate::model::{Database, KeywordName};
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
    ("resource", Field::Resource),
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
    ("リソース", Field::Resource),
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

/// Words of the closed keys: (field, folded word, value, the word as
/// given), and (field, folded word) → its place.
#[derive(Debug, Clone, Default)]
pub(super) struct Part {
    words: Vec<(Field, String, Value, String)>,
    find: HashMap<(Field, String), usize>,
}

impl Part {
    /// Adds `original` as a word of `field` unless it (folded) is already
    /// one, here or in `before`.
    fn add(&mut self, before: Option<&Part>, field: Field, original: &str, value: Value) {
        let word = fold(original);
        let key = (field, word);
        if key.1.is_empty()
            || self.find.contains_key(&key)
            || before.is_some_and(|b| b.find.contains_key(&key))
        {
            return;
        }
        self.words
            .push((field, key.1.clone(), value, original.to_string()));
        self.find.insert(key, self.words.len() - 1);
    }

    fn value(&self, field: Field, word: &str) -> Option<&Value> {
        Some(&self.words[*self.find.get(&(field, word.to_string()))?].2)
    }

    fn words(&self, field: Field) -> impl Iterator<Item = &(Field, String, Value, String)> {
        self.words.iter().filter(move |(f, ..)| *f == field)
    }
}

/// Where the words the cards hold come from.
#[derive(Clone, Copy)]
enum Cards<'a> {
    Database(&'a Database),
    /// An index's keyword column (read once for the catalog and the search).
    Index(&'a super::Index<'a>),
}

/// What the values of the closed keys may be: each word (folded) with the
/// value it stands for.
///
/// The words of the game and the keyword table are made at once; the
/// sets' words the first time a query looks one up; the words only the
/// cards hold (types beyond the base ones, and keywords beyond the table)
/// are read off the cards the first time a query needs them: when a type
/// or keyword it names is not among the first words, or a mistake in one
/// is explained. A query that names no such word does not read every
/// card's effect, and can be parsed against the sets alone
/// ([`Catalog::read_cards_words`]).
#[derive(Clone)]
pub struct Catalog<'a> {
    pub(super) first: Part,
    /// Keywords' English names by their folded form, to say them back
    /// (the keyword table's).
    keyword_names: HashMap<String, String>,
    cards: Cards<'a>,
    /// The types the cards and sets add.
    pub(super) types: OnceLock<Part>,
    /// The keywords the cards use, and their English names.
    pub(super) used: OnceLock<(Part, HashMap<String, String>)>,
    /// The sets' ids and names, in every language, made the first time a
    /// word is looked up among them (most queries name no set).
    set_words: OnceLock<Part>,
    /// Sets (id, names), to say them back in a language.
    pub(super) sets: Vec<(String, String, Option<String>)>,
}

/// A word's Japanese in the glossary (its official word, without a
/// trailing colon).
fn ja(english: &str) -> Option<String> {
    Glossary::builtin()
        .official_for(english)
        .map(|w| w.trim_end_matches(['：', ':']).to_string())
}

impl<'a> Catalog<'a> {
    /// The words of `database` (its sets, types and keywords) and of the
    /// game (elements, kinds, rarities, timing words, flags), in English
    /// and Japanese, and the names of the keyword table the database
    /// carries (a keyword no card uses yet is still a keyword); `keywords`
    /// stands in for a database written without one.
    pub fn new(database: &'a Database, keywords: &Keywords) -> Catalog<'a> {
        Catalog::with_cards(database, keywords, Cards::Database(database))
    }

    /// [`Catalog::new`] for the database of `index`, taking the keywords
    /// its cards use from the index (which keeps them for keyword terms):
    /// the effects are read once for both, and only if a query needs them.
    pub fn for_index(index: &'a super::Index<'a>, keywords: &Keywords) -> Catalog<'a> {
        Catalog::with_cards(index.database(), keywords, Cards::Index(index))
    }

    fn with_cards(database: &Database, keywords: &Keywords, cards: Cards<'a>) -> Catalog<'a> {
        let mut part = Part::default();
        let mut add = |field: Field, original: &str, value: Value| {
            part.add(None, field, original, value);
        };
        for element in Element::ALL {
            add(Field::Element, element.as_str(), Value::Element(element));
            if let Some(word) = ja(element.as_str()) {
                add(Field::Element, &word, Value::Element(element));
            }
        }
        for kind in CardKind::ALL {
            add(Field::Kind, kind.as_str(), Value::Kind(kind));
            add(
                Field::Kind,
                &kind.as_str().replace('-', ""),
                Value::Kind(kind),
            );
            // The glossary writes `Venue` and `Character` as titles.
            if let Some(word) = ja(kind.as_str()).or_else(|| ja(kind.title())) {
                add(Field::Kind, &word, Value::Kind(kind));
            }
        }
        for rarity in SetKind::ALL {
            add(Field::Rarity, rarity.as_str(), Value::Rarity(rarity));
            let title = rarity.card_kind().map(CardKind::title);
            if let Some(word) = ja(rarity.as_str()).or_else(|| title.and_then(ja)) {
                add(Field::Rarity, &word, Value::Rarity(rarity));
            }
        }
        for timing in Timing::ALL {
            add(Field::Timing, timing.word(), Value::Timing(timing));
            // `Game End` as one word too, as the database writes it.
            if timing.word().contains(' ') {
                let id = timing.word().to_ascii_lowercase().replace(' ', "-");
                add(Field::Timing, &id, Value::Timing(timing));
            }
            let ja_word = ja(&format!("{}:", timing.word())).or_else(|| ja(timing.word()));
            if let Some(word) = ja_word {
                add(Field::Timing, &word, Value::Timing(timing));
            }
        }
        for holding in Holding::ALL {
            add(Field::Resource, holding.word(), Value::Resource(holding));
            add(Field::Resource, holding.term(), Value::Resource(holding));
            if let Some(word) = ja(holding.term()) {
                add(Field::Resource, &word, Value::Resource(holding));
            }
        }
        for flag in Flag::ALL {
            add(Field::Flag, flag.as_str(), Value::Flag(flag));
        }
        for (word, flag) in FLAG_WORDS_JA {
            add(Field::Flag, word, Value::Flag(*flag));
        }
        for ty in BASE_TYPES {
            add(Field::Type, ty, Value::Type(ty.to_string()));
            if let Some(word) = ja(ty) {
                add(Field::Type, &word, Value::Type(ty.to_string()));
            }
        }
        let mut sets = Vec::new();
        for set in &database.sets {
            sets.push((
                set.id.0.clone(),
                set.name.clone(),
                set.translations.get("ja").map(|t| t.name.clone()),
            ));
        }
        let mut keyword_names = HashMap::new();
        // The table the database carries, so a file answers as its pool
        // does; `keywords` for a file written before it carried one.
        let table = match &database.keywords {
            Some(table) => table.clone(),
            None => KeywordName::table(keywords),
        };
        for keyword in &table {
            keyword_names.insert(fold(&keyword.name), keyword.name.clone());
            let value = || Value::Keyword(fold(&keyword.name));
            add(Field::Keyword, &keyword.name, value());
            add(Field::Keyword, &keyword.id.0, value());
            for (_, name) in keyword.names.iter() {
                add(Field::Keyword, name, value());
            }
        }
        Catalog {
            first: part,
            keyword_names,
            cards,
            types: OnceLock::new(),
            used: OnceLock::new(),
            set_words: OnceLock::new(),
            sets,
        }
    }

    fn database(&self) -> &'a Database {
        match self.cards {
            Cards::Database(database) => database,
            Cards::Index(index) => index.database(),
        }
    }

    /// Whether the keywords the cards use were read off their effects (a
    /// word of the query was looked up among them): then the effects had
    /// to be there.
    pub fn read_effects(&self) -> bool {
        self.used.get().is_some()
    }

    /// Whether a word of the query was looked up among the cards' types
    /// or the keywords they use: the words the cards add were read.
    pub fn read_cards_words(&self) -> bool {
        self.types.get().is_some() || self.used.get().is_some()
    }

    /// Reads now the words the cards add (types, the keywords they use),
    /// which are otherwise read the first time a query needs them (a bare
    /// word is looked up among them for its hint): a server does it
    /// before it answers, so no answer pays for it.
    pub fn read_cards(&self) {
        let _ = self.later(Field::Set);
        let _ = self.later(Field::Type);
        let _ = self.later(Field::Keyword);
    }

    /// The words the cards add for `field` (types, keywords), and the
    /// sets' names, read the first time they are asked for; `None` for
    /// the other fields.
    fn later(&self, field: Field) -> Option<&Part> {
        match field {
            Field::Set => Some(self.set_words.get_or_init(|| self.set_words())),
            Field::Type => Some(self.types.get_or_init(|| self.card_types())),
            Field::Keyword => Some(&self.used.get_or_init(|| self.used_keywords()).0),
            _ => None,
        }
    }

    /// Each set's id and names, as words of `set:`.
    fn set_words(&self) -> Part {
        let mut part = Part::default();
        for set in &self.database().sets {
            let value = || Value::Set(set.id.0.clone());
            part.add(Some(&self.first), Field::Set, &set.id.0, value());
            part.add(Some(&self.first), Field::Set, &set.name, value());
            for translation in set.translations.values() {
                part.add(Some(&self.first), Field::Set, &translation.name, value());
            }
        }
        part
    }

    /// The types of the cards and sets beyond the base ones.
    fn card_types(&self) -> Part {
        let database = self.database();
        let mut more: BTreeSet<&str> = database
            .cards
            .par_iter()
            .flat_map_iter(|card| card.types.iter().map(|t| t.0.as_str()))
            .collect();
        for set in &database.sets {
            more.extend(set.extra_types.iter().map(|t| t.0.as_str()));
        }
        let mut part = Part::default();
        for ty in more {
            part.add(
                Some(&self.first),
                Field::Type,
                ty,
                Value::Type(ty.to_string()),
            );
            if let Some(word) = ja(ty) {
                part.add(
                    Some(&self.first),
                    Field::Type,
                    &word,
                    Value::Type(ty.to_string()),
                );
            }
        }
        part
    }

    /// The keywords the cards use, beyond the table, and their names.
    fn used_keywords(&self) -> (Part, HashMap<String, String>) {
        let used: BTreeSet<String> = match self.cards {
            // Read off every effect: on every core.
            Cards::Database(database) => database
                .cards
                .par_iter()
                .flat_map_iter(super::card_keywords)
                .collect(),
            Cards::Index(index) => {
                let used: BTreeSet<&str> = index.keywords().collect();
                used.into_iter().map(str::to_string).collect()
            }
        };
        let mut part = Part::default();
        let mut names = HashMap::new();
        for name in &used {
            let folded = fold(name);
            if !self.keyword_names.contains_key(&folded) {
                names.entry(folded.clone()).or_insert_with(|| name.clone());
            }
            let first = Some(&self.first);
            part.add(first, Field::Keyword, name, Value::Keyword(folded.clone()));
            if let Some(word) = ja(name) {
                part.add(first, Field::Keyword, &word, Value::Keyword(folded));
            }
        }
        (part, names)
    }

    /// A keyword's English name, from its folded form.
    pub(super) fn keyword_name<'s>(&'s self, folded: &'s str) -> &'s str {
        if let Some(name) = self.keyword_names.get(folded) {
            return name;
        }
        let used = &self.used.get_or_init(|| self.used_keywords()).1;
        used.get(folded).map_or(folded, String::as_str)
    }

    /// The value `word` names for `field`, if it has a closed list.
    pub(super) fn value(&self, field: Field, word: &str) -> Option<&Value> {
        let word = fold(word);
        self.first
            .value(field, &word)
            .or_else(|| self.later(field)?.value(field, &word))
    }

    /// Every word `field` takes (folded), for suggestions and help.
    pub fn words(&self, field: Field) -> impl Iterator<Item = &str> {
        self.first
            .words(field)
            .chain(
                self.later(field)
                    .into_iter()
                    .flat_map(move |p| p.words(field)),
            )
            .map(|(_, w, ..)| w.as_str())
    }

    /// A keyword's Japanese name (from the words it was given).
    pub(super) fn japanese_of<'s>(&'s self, field: Field, value: &Value) -> Option<&'s str> {
        let japanese = |part: &'s Part| {
            part.words(field)
                .filter(|(_, w, ..)| !w.is_ascii())
                .find(|(_, _, v, _)| same(v, value))
                .map(|(.., original)| original.as_str())
        };
        japanese(&self.first).or_else(|| japanese(self.later(field)?))
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
        (Value::Resource(a), Value::Resource(b)) => a == b,
        (Value::Keyword(a), Value::Keyword(b)) => a == b,
        (Value::Flag(a), Value::Flag(b)) => a == b,
        _ => false,
    }
}
