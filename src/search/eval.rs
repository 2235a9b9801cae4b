//! A query against a database: which cards match.
//!
//! Text is compared folded (see [`fold`]) without folded copies of the
//! cards' texts (see [`super::Needle`]); the columns read off the effects
//! (keywords and timing words, one pass for both) are made once per
//! [`Index`], the first time a query asks for them, and cards are matched
//! in parallel. A server, which answers many queries, makes every column
//! at once ([`Index::make_columns`]), with the names, effect texts and
//! flavor folded once ([`Folded`]).

use std::sync::OnceLock;

use rayon::prelude::*;

use crate::effect::{Holdings, Line, Timing};
use crate::model::{Card, Database};

use super::{Field, Flag, Node, Op, Query, Test, Value, fold, fold_into};

/// A card's keywords (as written, and folded) and timing words (a mask of
/// [`Timing::ALL`]).
type Words = (Vec<String>, Vec<String>, u16);

/// A database ready to search.
pub struct Index<'a> {
    database: &'a Database,
    words: OnceLock<Vec<Words>>,
    holdings: OnceLock<Vec<Holdings>>,
    /// The names, effect texts and flavor texts, folded: made only by
    /// [`Index::make_columns`] (a one-shot search would spend more making
    /// one than it saves), else text is matched where it is.
    folded: OnceLock<[Folded; 3]>,
}

/// The text fields a [`Folded`] column is made for, in the order
/// [`Index::make_columns`] keeps them.
const FOLDED_FIELDS: [Field; 3] = [Field::Name, Field::Text, Field::Flavor];

/// Opens each text of a card in a [`Folded`] column: a byte UTF-8 never
/// holds, so no needle holds it and no match spans two texts.
pub(super) const SEPARATOR: u8 = 0xFF;

/// One text field of every card, folded (see [`fold`]) once, a buffer
/// per [`FOLD_CHUNK`] cards: card `i`'s texts (those [`any_text`] reads,
/// in its order) are in chunk `i / FOLD_CHUNK`, each after a
/// [`SEPARATOR`]. A term is then a scan of folded bytes, where matching
/// text as it is projects or folds each card's text again per query.
///
/// The chunks are kept as they were made, not joined into one buffer:
/// a join held every folded text twice at the server's start, and the
/// chunks' freed room stayed resident (bench/SERVE.md, part 8).
pub(super) struct Folded {
    chunks: Vec<FoldedChunk>,
}

/// The folded texts of up to [`FOLD_CHUNK`] cards: card `k` of the chunk
/// has `bytes[ends[k - 1]..ends[k]]` (from 0 for the first).
struct FoldedChunk {
    bytes: Vec<u8>,
    ends: Vec<u32>,
}

/// Cards folded per task: the column is made in parallel, a buffer per
/// chunk (at most a few megabytes, so a `u32` holds any offset in it).
const FOLD_CHUNK: usize = 4096;

impl Folded {
    fn of(cards: &[Card], field: Field) -> Folded {
        // One buffer to fold into per task, its room used again chunk after
        // chunk; each chunk then keeps an exact copy.
        let chunks = cards
            .par_chunks(FOLD_CHUNK)
            .map_init(Folding::default, |folding, chunk| {
                folding.chunk(chunk, field)
            })
            .collect();
        Folded { chunks }
    }

    /// Card `i`'s texts, each after a [`SEPARATOR`].
    fn texts(&self, i: usize) -> &[u8] {
        let (chunk, k) = (&self.chunks[i / FOLD_CHUNK], i % FOLD_CHUNK);
        let start = match k {
            0 => 0,
            _ => chunk.ends[k - 1] as usize,
        };
        &chunk.bytes[start..chunk.ends[k] as usize]
    }
}

/// Room to fold a chunk's texts in: a text, and the chunk's bytes.
#[derive(Default)]
struct Folding {
    text: String,
    bytes: Vec<u8>,
}

impl Folding {
    fn chunk(&mut self, cards: &[Card], field: Field) -> FoldedChunk {
        let Folding { text, bytes } = self;
        bytes.clear();
        let mut ends = Vec::with_capacity(cards.len());
        for card in cards {
            any_text(card, field, |one| {
                text.clear();
                fold_into(one, text);
                bytes.push(SEPARATOR);
                bytes.extend_from_slice(text.as_bytes());
                false
            });
            // A chunk's texts past 4 GiB would be a card of a megabyte
            // per field; saturating keeps the lookups in bounds all the same.
            ends.push(u32::try_from(bytes.len()).unwrap_or(u32::MAX));
        }
        FoldedChunk {
            bytes: bytes.clone(),
            ends,
        }
    }
}

impl<'a> Index<'a> {
    pub fn new(database: &'a Database) -> Index<'a> {
        Index {
            database,
            words: OnceLock::new(),
            holdings: OnceLock::new(),
            folded: OnceLock::new(),
        }
    }

    /// Makes every column now, the folded texts too: for a server, which
    /// answers many queries, before it listens, so that no answer pays for
    /// one and a name or text term is a scan of folded bytes.
    pub fn make_columns(&self) {
        let _ = self.words();
        let _ = self.holdings();
        let cards = &self.database.cards;
        self.folded
            .get_or_init(|| FOLDED_FIELDS.map(|field| Folded::of(cards, field)));
    }

    /// The folded column of `field`, when the columns were made.
    fn folded(&self, field: Field) -> Option<&Folded> {
        let at = FOLDED_FIELDS.iter().position(|f| *f == field)?;
        self.folded.get().map(|columns| &columns[at])
    }

    /// The cards that match, in database order.
    pub fn search(&self, query: &Query) -> impl Iterator<Item = &'a Card> + use<'a> {
        let database = self.database;
        (self.places(query).into_iter()).map(move |i| &database.cards[i])
    }

    /// The places in the database of the cards that match, in order.
    pub fn places(&self, query: &Query) -> Vec<usize> {
        let cards = &self.database.cards;
        match &query.root {
            None => (0..cards.len()).collect(),
            Some(root) => {
                // Columns first: built inside the parallel loop, a column's
                // lock would be waited on by the workers that build it.
                if reads_words(root) {
                    let _ = self.words();
                }
                if reads(root, &|v| matches!(v, Value::Resource(_))) {
                    let _ = self.holdings();
                }
                (0..cards.len())
                    .into_par_iter()
                    .filter(|&i| self.matches(root, i))
                    .collect()
            }
        }
    }

    /// Whether card `i` of the database matches `node`.
    pub fn matches(&self, node: &Node, i: usize) -> bool {
        match node {
            Node::All(parts) => parts.iter().all(|p| self.matches(p, i)),
            Node::Any(parts) => parts.iter().any(|p| self.matches(p, i)),
            Node::Not(part) => !self.matches(part, i),
            Node::Test(test) => self.test(test, i),
        }
    }

    /// Whether the keyword and timing column was read off the effects.
    #[cfg(test)]
    pub(super) fn has_read_effects(&self) -> bool {
        self.words.get().is_some()
    }

    /// The database searched.
    pub fn database(&self) -> &'a Database {
        self.database
    }

    /// The keywords of every card, as written (see [`card_keywords`]).
    pub fn keywords(&self) -> impl Iterator<Item = &str> {
        self.words()
            .iter()
            .flat_map(|w| w.1.iter().map(String::as_str))
    }

    /// The keywords and timing words of every card, read in one pass.
    fn words(&self) -> &[Words] {
        let cards = &self.database.cards;
        self.words.get_or_init(|| {
            cards
                .par_iter()
                .map(|card| {
                    let (keywords, timings) = card_words(card);
                    (
                        keywords.iter().map(|k| fold(k)).collect(),
                        keywords,
                        timings.into_iter().fold(0, |mask, t| mask | timing_bit(t)),
                    )
                })
                .collect()
        })
    }

    /// What every card's effect deals in, read off its tree (parsed again
    /// from its source for a database read from a file, which keeps none).
    fn holdings(&self) -> &[Holdings] {
        let cards = &self.database.cards;
        self.holdings.get_or_init(|| {
            cards
                .par_iter()
                .map(|card| match (&card.effect_tree, &card.effect) {
                    (Some(tree), _) => crate::effect::holdings(tree),
                    (None, Some(source)) => crate::effect::parse(source)
                        .map(|tree| crate::effect::holdings(&tree))
                        .unwrap_or_default(),
                    (None, None) => Holdings::default(),
                })
                .collect()
        })
    }

    fn test(&self, test: &Test, i: usize) -> bool {
        let card = &self.database.cards[i];
        let op = test.op;
        match (&test.value, test.field) {
            (Value::Regex(regex), field) => {
                let found = match field {
                    Field::Name | Field::Id | Field::Text | Field::Flavor => {
                        any_text(card, field, |t| regex.is_match(t))
                    }
                    _ => false,
                };
                found != (op == Op::Ne)
            }
            (Value::Text(needle), field) => match (op, self.folded(field)) {
                (Op::Eq, Some(column)) => needle.equals_folded(column.texts(i)),
                (Op::Ne, Some(column)) => !needle.equals_folded(column.texts(i)),
                (_, Some(column)) => needle.within_folded(column.texts(i)),
                (Op::Eq, None) => any_text(card, field, |t| needle.equals(t)),
                (Op::Ne, None) => !any_text(card, field, |t| needle.equals(t)),
                (_, None) => any_text(card, field, |t| needle.within(t)),
            },
            (Value::Number(n), field) => {
                let have = match field {
                    Field::Copies => card.copies,
                    // No STAR (a venue, a character) matches no STAR
                    // query, as a face-down card has none.
                    _ => match card.stars {
                        Some(stars) => stars,
                        None => return false,
                    },
                };
                let have = u32::from(have);
                match op {
                    Op::Has | Op::Eq => have == *n,
                    Op::Ne => have != *n,
                    Op::Lt => have < *n,
                    Op::Gt => have > *n,
                    Op::Le => have <= *n,
                    Op::Ge => have >= *n,
                }
            }
            (value, _) => {
                let has = match value {
                    Value::Element(e) => card.elements.contains(e),
                    Value::Kind(k) => card.kind == *k,
                    Value::Rarity(r) => card.rarity == *r,
                    Value::Type(t) => card.types.iter().any(|have| have.0 == *t),
                    Value::Set(s) => card.set.0 == *s,
                    Value::Timing(t) => self.words()[i].2 & timing_bit(*t) != 0,
                    Value::Resource(h) => self.holdings()[i].contains(*h),
                    Value::Keyword(k) => self.words()[i].0.iter().any(|have| have == k),
                    Value::Flag(flag) => has_flag(card, *flag),
                    _ => false,
                };
                has != (op == Op::Ne)
            }
        }
    }
}

/// Whether `node` reads keywords or timing words.
fn reads_words(node: &Node) -> bool {
    reads(node, &|v| matches!(v, Value::Keyword(_) | Value::Timing(_)))
}

/// Whether a test of `node` has a value `column` is read for.
fn reads(node: &Node, column: &dyn Fn(&Value) -> bool) -> bool {
    match node {
        Node::All(parts) | Node::Any(parts) => parts.iter().any(|p| reads(p, column)),
        Node::Not(part) => reads(part, column),
        Node::Test(test) => column(&test.value),
    }
}

/// Whether `found` holds for one of the texts of `field` (a text field:
/// name, id, text, flavor) of a card: the texts [`names_of`],
/// [`texts_of`] and [`flavors_of`] list, read where they are (a search
/// makes no list per card).
fn any_text<'c>(card: &'c Card, field: Field, mut found: impl FnMut(&'c str) -> bool) -> bool {
    let translations = || card.translations.values();
    match field {
        Field::Name => {
            found(&card.name) || translations().filter_map(|t| t.name.as_deref()).any(found)
        }
        Field::Text => {
            let rendered = match card.effect_text.is_empty() {
                true => card.effect.as_deref().is_some_and(&mut found),
                false => card.effect_text.values().any(|t| found(t)),
            };
            rendered
                || translations()
                    .filter_map(|t| t.effect.as_deref())
                    .any(found)
        }
        Field::Flavor => {
            card.flavor.as_deref().is_some_and(&mut found)
                || translations()
                    .filter_map(|t| t.flavor.as_deref())
                    .any(found)
        }
        _ => found(&card.id.0),
    }
}

fn timing_bit(timing: Timing) -> u16 {
    let at = Timing::ALL.iter().position(|t| *t == timing).unwrap_or(0);
    1 << at
}

/// Whether a card has what `has:`/`is:` asks.
pub(super) fn has_flag(card: &Card, flag: Flag) -> bool {
    let effect = card.effect.as_deref().is_some_and(|e| !e.trim().is_empty());
    match flag {
        Flag::Effect => effect,
        Flag::Vanilla => !effect,
        Flag::Flavor => card.flavor.as_deref().is_some_and(|f| !f.trim().is_empty()),
        Flag::Translated => !card.translations.is_empty(),
        Flag::Stale => card.translations.values().any(|t| !t.stale.is_empty()),
    }
}

/// The card's names: English, then each translation's.
#[cfg(test)]
fn names_of(card: &Card) -> Vec<&str> {
    let mut names = vec![card.name.as_str()];
    names.extend(card.translations.values().filter_map(|t| t.name.as_deref()));
    names
}

/// The card's printed effect texts: each language's rendering and each
/// translator's override; the source text when nothing was rendered.
#[cfg(test)]
fn texts_of(card: &Card) -> Vec<&str> {
    let mut texts: Vec<&str> = card.effect_text.values().map(String::as_str).collect();
    if texts.is_empty()
        && let Some(effect) = &card.effect
    {
        texts.push(effect);
    }
    texts.extend(
        card.translations
            .values()
            .filter_map(|t| t.effect.as_deref()),
    );
    texts
}

/// The card's flavor texts, English and translated.
#[cfg(test)]
fn flavors_of(card: &Card) -> Vec<&str> {
    let mut texts: Vec<&str> = card.flavor.as_deref().into_iter().collect();
    texts.extend(
        card.translations
            .values()
            .filter_map(|t| t.flavor.as_deref()),
    );
    texts
}

/// The set keywords of a card's effect, by their English names as written
/// (spaces folded): from the parsed tree when the card holds it, else read
/// off the effect's lines (see [`scan`]).
pub fn card_keywords(card: &Card) -> Vec<String> {
    match &card.effect_tree {
        Some(tree) => tree
            .lines
            .iter()
            .filter_map(|line| match line {
                Line::Keyword(k) => Some(k.name.split_whitespace().collect::<Vec<_>>().join(" ")),
                Line::Ability(_) => None,
            })
            .collect(),
        None => card
            .effect
            .as_deref()
            .map(|e| scan(e).0)
            .unwrap_or_default(),
    }
}

/// The timing words of a card's effect, as [`card_keywords`] finds them.
pub fn card_timings(card: &Card) -> Vec<Timing> {
    match &card.effect_tree {
        Some(tree) => tree
            .lines
            .iter()
            .filter_map(|line| match line {
                Line::Ability(a) => Some(a.timing),
                Line::Keyword(_) => None,
            })
            .collect(),
        None => card
            .effect
            .as_deref()
            .map(|e| scan(e).1)
            .unwrap_or_default(),
    }
}

/// [`card_keywords`] and [`card_timings`] in one pass.
fn card_words(card: &Card) -> (Vec<String>, Vec<Timing>) {
    match &card.effect_tree {
        Some(_) => (card_keywords(card), card_timings(card)),
        None => card.effect.as_deref().map(scan).unwrap_or_default(),
    }
}

/// The keywords and timing words of a checked effect text, read off its
/// lines as the grammar tells them apart: a line that starts with a timing
/// word is an ability; else a line with a colon is one (of no timing a
/// checked effect has); else it is a keyword, maybe with a number, and a
/// full stop. A database read from its file does not hold the parsed
/// trees, and parsing every effect again would cost more than a search.
fn scan(effect: &str) -> (Vec<String>, Vec<Timing>) {
    let mut keywords = Vec::new();
    let mut timings = Vec::new();
    for line in effect.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if let Some((timing, _)) = Timing::starting(line) {
            timings.push(timing);
            continue;
        }
        if line.contains(':') {
            continue;
        }
        let name = line.trim_end_matches('.').trim_end();
        let name = match name.rsplit_once(char::is_whitespace) {
            Some((head, tail)) if !tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit()) => {
                head
            }
            _ => name,
        };
        keywords.push(name.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    (keywords, timings)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reading keywords and timings off the lines agrees with the parsed
    /// tree on every card of the built-in pool and of a synthetic one.
    #[test]
    fn the_line_scan_agrees_with_the_tree() {
        let builtin = crate::compile::compile(&crate::pool::Pool::builtin());
        let mut pools = vec![
            builtin
                .output
                .into_database()
                .expect("the built-in pool builds"),
        ];
        let mut pool = crate::pool::Pool::default();
        for (name, text) in crate::synth::pool(400, 7) {
            pool.sets.push(crate::pool::SourceFile::new(
                std::sync::Arc::from(name.as_str()),
                name.clone(),
                std::sync::Arc::from(text.as_str()),
            ));
        }
        pools.push(
            crate::compile::compile(&pool)
                .output
                .into_database()
                .expect("a synthetic pool builds"),
        );
        let mut checked = 0;
        for database in pools {
            for card in &database.cards {
                let Some(effect) = &card.effect else { continue };
                let tree = crate::effect::parse(effect).expect("a built effect parses");
                let with_tree = Card {
                    effect_tree: Some(tree.into()),
                    ..card.clone()
                };
                let without = Card {
                    effect_tree: None,
                    ..card.clone()
                };
                assert_eq!(
                    card_keywords(&with_tree),
                    card_keywords(&without),
                    "{effect}"
                );
                assert_eq!(card_timings(&with_tree), card_timings(&without), "{effect}");
                checked += 1;
            }
        }
        assert!(checked > 300, "{checked}");
    }

    /// The texts a search reads where they are are the texts listed.
    #[test]
    fn a_search_reads_the_texts_listed() {
        let database = crate::compile::compile(&crate::pool::Pool::builtin())
            .output
            .into_database()
            .expect("the built-in pool builds");
        type List = fn(&Card) -> Vec<&str>;
        let lists: [(Field, List); 3] = [
            (Field::Name, names_of),
            (Field::Text, texts_of),
            (Field::Flavor, flavors_of),
        ];
        for card in &database.cards {
            for (field, list) in lists {
                let mut read = Vec::new();
                any_text(card, field, |t| {
                    read.push(t);
                    false
                });
                assert_eq!(read, list(card), "{field:?} of {}", card.id.0);
            }
            let mut read = Vec::new();
            any_text(card, Field::Id, |t| {
                read.push(t);
                false
            });
            assert_eq!(read, [card.id.0.as_str()]);
        }
    }

    #[test]
    fn a_folded_column_gives_each_card_its_own_texts_across_chunks() {
        let builtin = crate::compile::builtin_as_read();
        // Past two chunks, so cards on either side of each boundary.
        let count = 2 * FOLD_CHUNK + 5;
        let cards: Vec<Card> = builtin.cards.iter().cycle().take(count).cloned().collect();
        for field in FOLDED_FIELDS {
            let column = Folded::of(&cards, field);
            assert_eq!(column.chunks.len(), 3);
            for (i, card) in cards.iter().enumerate() {
                let mut want = Vec::new();
                any_text(card, field, |text| {
                    want.push(SEPARATOR);
                    want.extend_from_slice(fold(text).as_bytes());
                    false
                });
                assert_eq!(column.texts(i), want, "{field:?} of card {i}");
            }
        }
    }

    #[test]
    fn folding_makes_full_width_ascii_and_lower_case() {
        assert_eq!(fold("ＦＩＲＥ Drake"), "fire drake");
        assert_eq!(fold("炎の竜"), "炎の竜");
        assert_eq!(fold("ドッスン！\u{3000}Ａ：３"), "ドッスン! a:3");
        assert_eq!(fold("ÉCLAIR"), "éclair");
    }
}
