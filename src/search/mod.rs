//! The search language: `blades search QUERY` over a card database, after
//! Scryfall's syntax.
//!
//! ```text
//! e:fire t:construct star>=3
//! (kw:scurry or kw:"blast off") -is:vanilla
//! o:/gain \d+ RP/ 属性:炎
//! ```
//!
//! The pipeline: [`Query::parse`] (the pest grammar `grammar/search.pest`,
//! then every key and value resolved against a [`Catalog`] of what the
//! database holds, each mistake a located [`Diagnostic`] with the nearest
//! key or value suggested) → [`Index::search`] (the matching cards, in
//! database order) and [`Query::explain`] (what the query means, in English
//! or Japanese). The reference with every key is `docs/search.md`.
//!
//! ```
//! use blades::search::{Catalog, Index, Query};
//! use blades::workspace::Workspace;
//!
//! let database = Workspace::builtin().database().expect("the built-in pool is valid");
//! let catalog = Catalog::new(&database, &blades::effect::Keywords::builtin());
//! let query = Query::parse("e:fire t:construct star>=4", &catalog).expect("a good query");
//! let index = Index::new(&database);
//! let ids: Vec<&str> = index.search(&query).map(|card| card.id.0.as_str()).collect();
//! assert_eq!(ids, ["boiler-golem", "titan-of-the-sundered-anvil"]);
//! ```

mod catalog;
mod eval;
mod explain;
mod grammar;
mod parse;

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;

use crate::artifacts::{DatabaseFile, open_database};
use crate::diagnostics::{Code, Diagnostic};
use crate::effect::{Holding, Timing};
pub use crate::index::Columns;
use crate::index::Index as CardIndexFile;
use crate::model::{ByLang, Card, DATABASE_FORMAT, Database};
use crate::words::{CardKind, Element, Id, SetKind};

pub use catalog::{Catalog, KEYS};
pub use eval::{Index, card_keywords, card_timings};
pub use grammar::{Rule, SearchParser};

/// The name query text is shown under in diagnostics (`<query>`).
pub const QUERY_PATH: &str = "<query>";

/// The longest query read (in characters): longer is refused, located.
pub const MAX_QUERY_CHARS: usize = 4096;

/// The deepest nesting of parentheses read.
pub const MAX_NESTING: usize = 32;

/// Bytes a compiled regular expression may take (the `regex` crate's size
/// limits): a query cannot make the tool build a huge automaton.
pub const MAX_REGEX_BYTES: usize = 1 << 20;

/// The most distinct regular expressions one query may hold: each is tried
/// on every card's text, so the cost is their number times the pool.
pub const MAX_QUERY_REGEXES: usize = 16;

/// Bytes all of a query's regular expressions may take compiled, together
/// (each also its lazy automaton's cache): shared equally among its
/// distinct ones, each at most [`MAX_REGEX_BYTES`].
pub const QUERY_REGEX_BYTES: usize = 4 << 20;

/// A parsed query, every key and value resolved.
#[derive(Debug, Clone)]
pub struct Query {
    /// The text as given.
    pub text: String,
    /// What it asks; `None` for an empty query, which matches every card.
    pub root: Option<Node>,
    /// Words that may have been meant otherwise, in query order.
    pub hints: Vec<Hint>,
}

impl Query {
    /// The columns of each card that answering the query reads: without
    /// the cards' texts unless a term reads an effect, a flavor, a flag
    /// or what an effect says (keywords, timing words, resources).
    pub fn columns(&self) -> Columns {
        match self.root.as_ref().is_some_and(reads_texts) {
            true => Columns::All,
            false => Columns::WithoutTexts,
        }
    }
}

/// Whether a term of `node` reads a card's texts.
fn reads_texts(node: &Node) -> bool {
    match node {
        Node::All(parts) | Node::Any(parts) => parts.iter().any(reads_texts),
        Node::Not(part) => reads_texts(part),
        Node::Test(test) => {
            let by_field = match test.field {
                Field::Name | Field::Id | Field::Set | Field::Kind | Field::Rarity => false,
                Field::Element | Field::Type | Field::Star | Field::Copies => false,
                Field::Keyword | Field::Timing | Field::Resource => true,
                Field::Text | Field::Flavor | Field::Flag => true,
            };
            let by_value = matches!(
                test.value,
                Value::Keyword(_) | Value::Timing(_) | Value::Resource(_) | Value::Flag(_)
            );
            by_field || by_value
        }
    }
}

/// The columns a search needs of each card: those its query reads
/// ([`Query::columns`]), every one when parsing it read the effects (a
/// word looked up among the keywords the cards use) or when its report
/// shows the texts (`shows_texts`: the JSON report has each card's effect).
pub fn columns_needed(query: &Query, catalog: &Catalog, shows_texts: bool) -> Columns {
    match shows_texts || catalog.read_effects() {
        true => Columns::All,
        false => query.columns(),
    }
}

/// A word of a query that may have been meant otherwise: a bare word that
/// is also a keyword, a type, an element…
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint {
    /// Bytes of the query the word takes.
    pub span: Range<usize>,
    /// The term offered in its place (`kw:scurry`).
    pub instead: String,
    /// The hint, in a sentence.
    pub text: String,
}

/// A node of a query.
#[derive(Debug, Clone)]
pub enum Node {
    /// Every part holds (terms side by side).
    All(Vec<Node>),
    /// Some part holds (`or`).
    Any(Vec<Node>),
    /// The part does not hold (`-`).
    Not(Box<Node>),
    /// One `key OP value` term.
    Test(Test),
}

/// One term: a field of the card, an operator and a value.
#[derive(Debug, Clone)]
pub struct Test {
    pub field: Field,
    pub op: Op,
    pub value: Value,
    /// Bytes of the query the term takes.
    pub span: Range<usize>,
    /// The value as said back in English and in Japanese.
    pub said: [String; 2],
}

/// What a term looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// The English name and every translated name.
    Name,
    Id,
    Set,
    Kind,
    Rarity,
    Element,
    Type,
    Star,
    Copies,
    /// A set keyword of the effect (`Scurry.`).
    Keyword,
    /// A timing word of the effect (`Play:`).
    Timing,
    /// What a player holds that the effect deals in (`resource:money`).
    Resource,
    /// The rendered effect text, in every language (and translators'
    /// overrides).
    Text,
    /// The flavor text, in every language.
    Flavor,
    /// `has:` and `is:`.
    Flag,
}

/// How a term compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    /// `:`: contains (text), has (symbols), equals (numbers).
    Has,
    /// `=`: equals (text: the whole of it).
    Eq,
    /// `!=`: does not equal, does not have.
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

impl Op {
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Has => ":",
            Op::Eq => "=",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Gt => ">",
            Op::Le => "<=",
            Op::Ge => ">=",
        }
    }

    /// An order (`<`, `>`, `<=`, `>=`), which only numbers have.
    pub fn is_order(self) -> bool {
        matches!(self, Op::Lt | Op::Gt | Op::Le | Op::Ge)
    }
}

/// A value resolved for its field.
#[derive(Debug, Clone)]
pub enum Value {
    /// Text to find (folded: see [`fold`]).
    Text(Box<Needle>),
    /// A regular expression (case-insensitive); one written twice in a
    /// query is compiled once and shared.
    Regex(Arc<regex::Regex>),
    Number(u32),
    Element(Element),
    Kind(CardKind),
    Rarity(SetKind),
    /// A type id.
    Type(String),
    /// A set id.
    Set(String),
    Timing(Timing),
    Resource(Holding),
    /// A keyword's English name, folded.
    Keyword(String),
    Flag(Flag),
}

/// Folded text to find, with its searcher made once for every card.
///
/// A card's text is matched as it is, not folded first: [`Needle::within`]
/// and [`Needle::equals`] answer what `fold(text)` would, without making a
/// folded copy of the text (see [`Needle::within`]), so a first query over
/// 100,000 cards does not fold every name and text.
#[derive(Debug, Clone)]
pub struct Needle {
    /// The text, folded.
    pub text: String,
    /// Finds the folded text in folded text (or in a text's ASCII
    /// projection, when the folded text is ASCII).
    finder: memchr::memmem::Finder<'static>,
    /// For an ASCII needle with a letter: its rarest letter, which a text
    /// must hold in some form for its projection to hold the needle.
    anchor: Option<Anchor>,
}

/// A letter of a needle and every form of it a text may hold that
/// projects to it (see [`project_ascii`]): ASCII in either case, full-width
/// in either case, and the Kelvin sign for `k`, `İ` for `i`.
#[derive(Debug, Clone)]
struct Anchor {
    lower: u8,
    upper: u8,
    full_width: [memchr::memmem::Finder<'static>; 2],
    special: Option<&'static [u8]>,
}

impl Anchor {
    /// The rarest letter of `needle` (folded ASCII), by English letter
    /// frequency.
    fn of(needle: &str) -> Option<Anchor> {
        const RARE_FIRST: &[u8] = b"zqxjkvbpygfwmucldrhsnioate";
        let lower = *needle
            .as_bytes()
            .iter()
            .filter(|b| b.is_ascii_lowercase())
            .min_by_key(|b| RARE_FIRST.iter().position(|r| r == *b))?;
        let upper = lower.to_ascii_uppercase();
        let full = |c: u8| {
            let wide = char::from_u32(u32::from(c) + 0xFEE0).unwrap_or(' ');
            let mut bytes = [0; 4];
            memchr::memmem::Finder::new(wide.encode_utf8(&mut bytes).as_bytes()).into_owned()
        };
        let special: Option<&'static [u8]> = match lower {
            b'k' => Some("\u{212A}".as_bytes()),
            b'i' => Some("\u{130}".as_bytes()),
            _ => None,
        };
        Some(Anchor {
            lower,
            upper,
            full_width: [full(lower), full(upper)],
            special,
        })
    }

    /// Whether `text`'s ASCII projection may hold the letter.
    fn may_be_in(&self, text: &str) -> bool {
        let bytes = text.as_bytes();
        memchr::memchr2(self.lower, self.upper, bytes).is_some()
            || (!text.is_ascii()
                && (self.full_width.iter().any(|f| f.find(bytes).is_some())
                    || self
                        .special
                        .is_some_and(|s| memchr::memmem::find(bytes, s).is_some())))
    }
}

/// Stands in a text's ASCII projection for what is not ASCII after folding.
const BREAK: u8 = 0xFF;

thread_local! {
    /// The buffer a text is projected or folded into, kept per thread.
    static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Needle {
    pub fn new(text: &str) -> Needle {
        let text = fold(text);
        Needle {
            finder: memchr::memmem::Finder::new(text.as_bytes()).into_owned(),
            anchor: text.is_ascii().then(|| Anchor::of(&text)).flatten(),
            text,
        }
    }

    /// Whether `fold(haystack)` contains it (`haystack` as it is, not
    /// folded).
    ///
    /// An ASCII needle is looked for in the text's ASCII projection: each
    /// character as the ASCII it folds to (lower case; full-width forms as
    /// ASCII; the ideographic space as a space; the Kelvin sign as `k`; `İ`
    /// as `i` and a break), every other character as a break, which no
    /// needle holds. Every other character folds to characters that are
    /// not ASCII, so the folded text holds the needle exactly when the
    /// projection does, and making the projection needs no Unicode table.
    /// A needle with other characters is never in ASCII text, and is found
    /// in the text itself when folding changes none of it, else in the
    /// text folded (into a buffer kept per thread).
    pub fn within(&self, haystack: &str) -> bool {
        self.with_projection(haystack, |text| self.finder.find(text).is_some())
    }

    /// Whether `fold(haystack)` is it, as [`Needle::within`] finds it.
    pub fn equals(&self, haystack: &str) -> bool {
        self.with_projection(haystack, |text| text == self.text.as_bytes())
    }

    /// Whether one of a card's texts in a folded column holds it (`texts`:
    /// the card's part of an [`eval::Folded`] column, each text after a
    /// [`eval::SEPARATOR`], which no needle holds: so no match spans two
    /// texts). The empty needle is in every text, so in a card with one.
    fn within_folded(&self, texts: &[u8]) -> bool {
        match self.text.is_empty() {
            true => !texts.is_empty(),
            false => self.finder.find(texts).is_some(),
        }
    }

    /// Whether one of a card's texts in a folded column is it.
    fn equals_folded(&self, texts: &[u8]) -> bool {
        let needle = self.text.as_bytes();
        texts
            .split(|&b| b == eval::SEPARATOR)
            .skip(1)
            .any(|text| text == needle)
    }

    /// `answer` of the text to compare with the needle: the ASCII
    /// projection of `haystack` for an ASCII needle, else `haystack` folded;
    /// `false` for a needle with other characters and an ASCII haystack.
    fn with_projection(&self, haystack: &str, answer: impl Fn(&[u8]) -> bool) -> bool {
        if self.text.is_ascii() {
            // A text without the needle's rarest letter in any form does
            // not hold the needle: it is not projected.
            if self.anchor.as_ref().is_some_and(|a| !a.may_be_in(haystack)) {
                return false;
            }
            return SCRATCH.with_borrow_mut(|buffer| {
                project_ascii(haystack, buffer);
                answer(buffer)
            });
        }
        if haystack.is_ascii() {
            return false;
        }
        if haystack.chars().all(fold_keeps) {
            return answer(haystack.as_bytes());
        }
        answer(fold(haystack).as_bytes())
    }
}

/// The ASCII projection of `text` (see [`Needle::within`]) into `out`,
/// read byte by byte: the few characters other than ASCII that project to
/// ASCII are told by their UTF-8 bytes, and every other one is skipped by
/// its lead byte's length, without decoding it.
fn project_ascii(text: &str, out: &mut Vec<u8>) {
    out.clear();
    if text.is_ascii() {
        out.extend(text.bytes().map(|b| b.to_ascii_lowercase()));
        return;
    }
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        if b < 0x80 {
            out.push(b.to_ascii_lowercase());
            at += 1;
            continue;
        }
        let width = match b {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            _ => 4,
        };
        match bytes.get(at..at + width).unwrap_or_default() {
            // U+FF01..=U+FF3F and U+FF40..=U+FF5E: full-width ASCII.
            [0xEF, 0xBC, x @ 0x81..=0xBF] => out.push((0x20 + (x & 0x3F)).to_ascii_lowercase()),
            [0xEF, 0xBD, x @ 0x80..=0x9E] => out.push(0x60 + (x & 0x3F)),
            // The ideographic space, the Kelvin sign, `İ`.
            [0xE3, 0x80, 0x80] => out.push(b' '),
            [0xE2, 0x84, 0xAA] => out.push(b'k'),
            [0xC4, 0xB0] => out.extend([b'i', BREAK]),
            _ if out.last() == Some(&BREAK) => {}
            _ => out.push(BREAK),
        }
        at += width;
    }
}

/// [`project_ascii`] character by character, as the tests check it.
#[cfg(test)]
fn project_ascii_by_char(text: &str, out: &mut Vec<u8>) {
    out.clear();
    if text.is_ascii() {
        out.extend(text.bytes().map(|b| b.to_ascii_lowercase()));
        return;
    }
    for c in text.chars() {
        match c {
            _ if c.is_ascii() => out.push((c as u8).to_ascii_lowercase()),
            '\u{FF01}'..='\u{FF5E}' => out.push(((c as u32 - 0xFEE0) as u8).to_ascii_lowercase()),
            '\u{3000}' => out.push(b' '),
            '\u{212A}' => out.push(b'k'),
            '\u{130}' => out.extend([b'i', BREAK]),
            _ if out.last() == Some(&BREAK) => {}
            _ => out.push(BREAK),
        }
    }
}

/// The characters other than ASCII whose lower case holds ASCII: `İ`
/// (`i` and a combining dot) and the Kelvin sign (`k`).
#[cfg(test)]
const LOWER_TO_ASCII: [char; 2] = ['\u{130}', '\u{212A}'];

/// Whether [`fold`] leaves `c` as it is.
fn fold_keeps(c: char) -> bool {
    match c {
        'A'..='Z' | '\u{3000}' | '\u{FF01}'..='\u{FF5E}' => false,
        _ if c.is_ascii() => true,
        // Kana and CJK ideographs have no case.
        '\u{3001}'..='\u{9FFF}' => true,
        _ => {
            let mut lower = c.to_lowercase();
            lower.len() == 1 && lower.next() == Some(c)
        }
    }
}

/// What `has:` and `is:` ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Flag {
    /// The card has an effect.
    Effect,
    /// The card has no effect.
    Vanilla,
    /// The card has flavor text.
    Flavor,
    /// The card has a translation.
    Translated,
    /// A translation's English changed since it was made.
    Stale,
}

impl Flag {
    pub const ALL: [Flag; 5] = [
        Flag::Effect,
        Flag::Vanilla,
        Flag::Flavor,
        Flag::Translated,
        Flag::Stale,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Flag::Effect => "effect",
            Flag::Vanilla => "vanilla",
            Flag::Flavor => "flavor",
            Flag::Translated => "translated",
            Flag::Stale => "stale",
        }
    }
}

/// Text as search compares it: lower case, with the full-width forms of
/// ASCII a Japanese keyboard types (`ＳＴＡＲ`, `３`, `！`, `：`, the
/// ideographic space) made ASCII. (Not all of NFKC: it would cost a
/// search over a large database ten times more, for characters no card
/// name or query needs.)
pub fn fold(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    let mut folded = String::with_capacity(text.len());
    fold_into(text, &mut folded);
    folded
}

/// [`fold`] onto the end of `folded`.
fn fold_into(text: &str, folded: &mut String) {
    if text.is_ascii() {
        folded.extend(text.chars().map(|c| c.to_ascii_lowercase()));
        return;
    }
    for c in text.chars() {
        let c = match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' => ' ',
            c => c,
        };
        if c.is_ascii() {
            folded.push(c.to_ascii_lowercase());
        } else {
            folded.extend(c.to_lowercase());
        }
    }
}

impl Query {
    /// Parses a query and resolves its keys and values against what the
    /// database holds. Every problem is a diagnostic located in the query
    /// (path [`QUERY_PATH`]); all of them are returned, in query order.
    pub fn parse(text: &str, catalog: &Catalog) -> Result<Query, Vec<Diagnostic>> {
        parse::parse(text, catalog, "en")
    }

    /// [`Query::parse`], its help lines listing values in `lang` (`ja`:
    /// `種族` takes 動物, 神話, …).
    pub fn parse_in(text: &str, catalog: &Catalog, lang: &str) -> Result<Query, Vec<Diagnostic>> {
        parse::parse(text, catalog, lang)
    }

    /// What the query means, in English (`en`) or Japanese (`ja`).
    pub fn explain(&self, lang: crate::effect::Lang) -> String {
        explain::explain(self, lang)
    }
}

/// `blades search --format json`: the query, what it means and the cards
/// it found.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct SearchReport {
    /// The query as given.
    pub query: String,
    /// What the query means, by language (`en`, `ja`).
    pub explain: ByLang<String>,
    /// How many cards match.
    pub count: usize,
    /// The cards that match, in database order (set order, then file order).
    pub cards: Vec<Hit>,
    /// Words of the query that may have been meant otherwise (`scurry` is
    /// a keyword: `kw:scurry`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<String>,
}

/// One card found.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct Hit {
    pub id: Id,
    pub name: String,
    pub set: Id,
    pub kind: CardKind,
    /// Absent on venues and characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stars: Option<u8>,
    pub elements: Vec<Element>,
    pub types: Vec<Id>,
    pub rarity: SetKind,
    pub copies: u8,
    /// The translated names, by language code (`ja`).
    #[serde(default, skip_serializing_if = "ByLang::is_empty")]
    pub names: ByLang<String>,
    /// The printed effect text by language, when the card has one.
    #[serde(default, skip_serializing_if = "ByLang::is_empty")]
    pub text: ByLang<String>,
}

impl Hit {
    pub fn of(card: &Card) -> Hit {
        Hit {
            id: card.id.clone(),
            name: card.name.clone(),
            set: card.set.clone(),
            kind: card.kind,
            stars: card.stars,
            elements: card.elements.clone(),
            types: card.types.clone(),
            rarity: card.rarity,
            copies: card.copies,
            names: card
                .translations
                .iter()
                .filter_map(|(lang, t)| Some((lang.clone(), t.name.clone()?)))
                .collect(),
            text: card.effect_text.clone(),
        }
    }
}

impl SearchReport {
    pub fn new<'a>(query: &Query, cards: impl IntoIterator<Item = &'a Card>) -> SearchReport {
        let cards: Vec<Hit> = cards.into_iter().map(Hit::of).collect();
        SearchReport {
            query: query.text.clone(),
            explain: [
                ("en".to_string(), query.explain(crate::effect::Lang::En)),
                ("ja".to_string(), query.explain(crate::effect::Lang::Ja)),
            ]
            .into_iter()
            .collect(),
            count: cards.len(),
            cards,
            hints: query.hints.iter().map(|h| h.text.clone()).collect(),
        }
    }
}

/// The results table's heading, in a language: the keys' names (`名前`,
/// `セット`, …) in Japanese, English otherwise.
pub fn table_head(lang: &str) -> [&'static str; 8] {
    match lang {
        "ja" => [
            "ID",
            "名前",
            "セット",
            "種類",
            "スター",
            "属性",
            "種族",
            "枚数",
        ],
        _ => [
            "id", "name", "set", "kind", "STAR", "elements", "types", "copies",
        ],
    }
}

/// A card as a row of the results table, in a language: its name and its
/// set's as translated (English where they are not), and its kind,
/// elements and types in the official glossary's words.
pub fn table_row(card: &Card, database: &Database, lang: &str) -> [String; 8] {
    let english = lang == "en";
    let word = |w: &str| match english {
        true => w.to_string(),
        false => crate::i18n::glossary::Glossary::builtin()
            .official_for(w)
            .map_or_else(|| w.to_string(), str::to_string),
    };
    let words = |ws: Vec<&str>| ws.into_iter().map(word).collect::<Vec<_>>().join(", ");
    let name = match english {
        true => None,
        false => card.translations.get(lang).and_then(|t| t.name.clone()),
    };
    let set = database.sets.iter().find(|s| s.id == card.set);
    let set_name = set.map_or_else(
        || card.set.0.clone(),
        |s| match english {
            true => s.name.clone(),
            false => s
                .translations
                .get(lang)
                .map_or_else(|| s.name.clone(), |t| t.name.clone()),
        },
    );
    [
        card.id.0.clone(),
        name.unwrap_or_else(|| card.name.clone()),
        match english {
            true => card.set.0.clone(),
            false => set_name,
        },
        word(card.kind.as_str()),
        card.stars_shown(),
        words(card.elements.iter().map(|e| e.as_str()).collect()),
        words(card.types.iter().map(|t| t.0.as_str()).collect()),
        card.copies.to_string(),
    ]
}

/// Reads a built database (`blades build`'s `dist/cards.json`) to search.
pub fn read_database(path: &Path) -> Result<Database, Box<Diagnostic>> {
    read_database_with(path, Columns::All).map(|(database, _)| database)
}

/// [`read_database`] with only `columns` of each card when the card index
/// beside the file can give them, else every column: the database and the
/// columns it has.
pub fn read_database_with(
    path: &Path,
    columns: Columns,
) -> Result<(Database, Columns), Box<Diagnostic>> {
    // The card index written with this very file holds the same database.
    let indexed = CardIndexFile::of_database(path).and_then(|index| index.database_with(columns));
    if let Some(database) = indexed {
        return Ok((database, columns));
    }
    read_json_database(path).map(|database| (database, Columns::All))
}

/// What a search read of a card index section by section
/// ([`sieved_database`]).
#[derive(Debug)]
pub struct Sieved {
    /// Every set, and only the cards the query finds.
    pub database: Database,
    /// The languages of every set and card ([`crate::i18n::languages`]
    /// of the whole database): what `--lang` is checked against.
    pub languages: Vec<String>,
}

/// [`sieved_database`] of the card index written with the database file
/// at `path` (`search --db`), when there is one.
pub fn read_database_sieved(
    path: &Path,
    text: &str,
    lang: &str,
    shows_texts: bool,
) -> Option<Sieved> {
    sieved_database(&CardIndexFile::of_database(path)?, text, lang, shows_texts)
}

/// The database a search of `text` needs, read from a card index section
/// by section: every set, and only the cards the query finds
/// ([`CardIndexFile::database_sieved`]), with the languages of them all.
/// For a query that reads no text and whose words are all known without
/// the cards (none looked up among their types or keywords): its parse
/// against the sets alone is its parse against the pool. `None` for any
/// other query, for a `lang` that is not one language code, or when the
/// index is damaged: then the database is read.
pub fn sieved_database(
    index: &CardIndexFile,
    text: &str,
    lang: &str,
    shows_texts: bool,
) -> Option<Sieved> {
    let lang = crate::i18n::one_language(lang)?;
    // The directories are read twice, for the sets the parse needs and
    // then for the cards; the second time from the page cache.
    let sets = index.sets()?;
    let searched = Index::new(&sets);
    let catalog = Catalog::for_index(&searched, &crate::effect::Keywords::builtin());
    let query = Query::parse_in(text, &catalog, &lang).ok()?;
    if catalog.read_cards_words() || columns_needed(&query, &catalog, shows_texts) == Columns::All {
        return None;
    }
    let languages = std::sync::Mutex::new(std::collections::BTreeSet::new());
    let database = index.database_sieved(&|section| {
        let translated = crate::i18n::languages(section);
        (languages.lock().unwrap_or_else(|e| e.into_inner())).extend(translated);
        Index::new(section).places(&query)
    })?;
    let languages = languages.into_inner().unwrap_or_else(|e| e.into_inner());
    Some(Sieved {
        database,
        languages: crate::i18n::languages_of(languages.iter().map(String::as_str)),
    })
}

/// A database file's JSON, read and checked.
fn read_json_database(path: &Path) -> Result<Database, Box<Diagnostic>> {
    let shown: Arc<str> = Arc::from(path.display().to_string());
    let refuse = |code: Code, message: String, help: &str| {
        Box::new(Diagnostic::general(code, message).with_help(help))
    };
    let unreadable = |e: std::io::Error| {
        refuse(
            Code::Unreadable,
            format!("cannot read `{shown}`: {}", without_os_error(&e)),
            "give the database `blades build` wrote (default `dist/cards.json`)",
        )
    };
    let parsed = match open_database(path).map_err(unreadable)? {
        DatabaseFile::Bytes(bytes) => serde_json::from_slice::<Database>(&bytes),
        DatabaseFile::Stream(stream) => serde_json::from_reader(stream),
    };
    let database = parsed.map_err(|e| match e.io_error_kind() {
        Some(_) => unreadable(e.into()),
        None => refuse(
            Code::InvalidInput,
            format!("`{shown}` is not a card database: {e}"),
            "give the database `blades build` wrote (default `dist/cards.json`)",
        ),
    })?;
    if database.format != DATABASE_FORMAT {
        return Err(refuse(
            Code::InvalidInput,
            format!(
                "`{shown}` is a database of format {}; this tool reads format {DATABASE_FORMAT}",
                database.format
            ),
            "build it again with this version: `blades build`",
        ));
    }
    Ok(database)
}

/// An I/O error's words without the `(os error N)` the system adds.
fn without_os_error(error: &std::io::Error) -> String {
    let text = error.to_string();
    match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => text[..at].to_string(),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character: [`LOWER_TO_ASCII`] lists all those whose lower
    /// case holds ASCII (which the ASCII projection treats apart), and
    /// [`fold_keeps`] says what [`fold`] does.
    #[test]
    fn the_fast_paths_know_every_character() {
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let text = c.to_string();
            assert_eq!(fold_keeps(c), fold(&text) == text, "{c:?}");
            let to_ascii = !c.is_ascii() && c.to_lowercase().any(|l| l.is_ascii());
            assert_eq!(to_ascii, LOWER_TO_ASCII.contains(&c), "{c:?}");
        }
    }

    /// The byte-wise projection is the character-wise one, for every
    /// character alone and between others.
    #[test]
    fn the_ascii_projection_reads_bytes_as_characters() {
        let (mut by_byte, mut by_char) = (Vec::new(), Vec::new());
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            for text in [c.to_string(), format!("a{c}炎{c}Ｂ"), format!("{c}{c}x")] {
                project_ascii(&text, &mut by_byte);
                project_ascii_by_char(&text, &mut by_char);
                assert_eq!(by_byte, by_char, "{c:?}");
            }
        }
    }

    /// A catalog made with an index's keyword column holds the words one
    /// made on its own does.
    #[test]
    fn a_catalog_for_an_index_is_the_catalog() {
        let database = crate::compile::builtin_as_read();
        let keywords = crate::effect::Keywords::builtin();
        let alone = Catalog::new(&database, &keywords);
        let index = Index::new(&database);
        let with_index = Catalog::for_index(&index, &keywords);
        let fields = KEYS.iter().map(|(_, field)| *field);
        for field in fields {
            let words = |c: &Catalog| c.words(field).map(str::to_string).collect::<Vec<_>>();
            assert_eq!(words(&alone), words(&with_index), "{field:?}");
        }
        assert!(alone.words(Field::Keyword).count() > 5);
        for word in alone.words(Field::Keyword) {
            assert_eq!(alone.keyword_name(word), with_index.keyword_name(word));
        }
    }

    /// A query that names no keyword or timing, and no type the cards
    /// add, reads no effect: neither the catalog nor the search does.
    #[test]
    fn a_query_reads_only_what_it_names() {
        let database = crate::compile::builtin_as_read();
        let keywords = crate::effect::Keywords::builtin();
        let index = Index::new(&database);
        let catalog = Catalog::for_index(&index, &keywords);
        for text in [
            "e:fire t:construct star>=3",
            "o:\"gain 3 rp\" or name:golem",
        ] {
            let query = Query::parse(text, &catalog).expect("a good query");
            let _ = index.search(&query).count();
            assert!(catalog.types.get().is_none(), "{text}");
        }
        assert!(!index.has_read_effects());
        let query = Query::parse("kw:scurry timing:play", &catalog).expect("a good query");
        let _ = index.search(&query).count();
        assert!(index.has_read_effects());
        assert!(catalog.used.get().is_none());
        assert!(Query::parse("kw:nothing-like-it", &catalog).is_err());
        assert!(catalog.used.get().is_some());
    }

    /// The needle answers what folding the text and then looking would.
    #[test]
    fn needles_match_as_folded_text_would() {
        let texts = [
            "Gain 3 RP.",
            "GAIN 3 rp",
            "ＧＡＩＮ　３ ＲＰ",
            "ｇａｉｎ　３ ｒｐ",
            "Ｋ\u{212A}İ",
            "3 RPを得る。",
            "プレイ：3 RPを得る",
            "プレイ:3 rpを得る",
            "İstanbul",
            "istanbul",
            "\u{212A}elvin",
            "Éclair ÉCLAIR",
            "éclair",
            "炎の竜",
            "",
        ];
        let needles = [
            "gain 3 rp",
            "3 RP",
            "rpを",
            "プレイ:",
            "プレイ：",
            "i",
            "i\u{307}stanbul",
            "istanbul",
            "kelvin",
            "kki",
            "ｋ",
            "éclair",
            "ÉCLAIR",
            "炎",
            "",
            "3 rpを得る。",
        ];
        for needle in needles {
            let found = Needle::new(needle);
            for text in texts {
                let folded = fold(text);
                assert_eq!(
                    found.within(text),
                    folded.contains(&found.text),
                    "{needle:?} in {text:?}"
                );
                assert_eq!(
                    found.equals(text),
                    folded == found.text,
                    "{needle:?} = {text:?}"
                );
            }
        }
    }
}
