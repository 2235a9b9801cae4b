//! The database made from the checked sets: each card with its derived
//! copies and its effect rendered in every language.

use std::sync::Arc;

use crate::effect::{self, Effect, Lang, Phrasebooks, TextMemo, Vocabulary};
use crate::load::LoadedSet;
use crate::model::{Art, Card, CardSource, DATABASE_FORMAT, Database, Set};
use crate::words::Id;

use super::checks::Derived;

/// A set and its cards, as they go into the database.
pub(super) type SetModel = (Set, Vec<Card>);

pub fn assemble(sets: &[LoadedSet], derived: &Derived) -> Database {
    let mut database = Database {
        keywords: None,
        format: DATABASE_FORMAT,
        sets: Vec::new(),
        cards: Vec::new(),
    };
    for (set_index, loaded) in sets.iter().enumerate() {
        let (set, cards) = assemble_set(set_index, loaded, derived);
        database.sets.push(set);
        database.cards.extend(cards);
    }
    database
}

/// One set and its cards as they go into the database (`set_index` is its
/// place among the loaded sets, which `derived` is keyed by).
pub(crate) fn assemble_set(
    set_index: usize,
    loaded: &LoadedSet,
    derived: &Derived,
) -> (Set, Vec<Card>) {
    let cards = loaded
        .cards
        .iter()
        .map(|c| (c.index, c.card.clone(), c.art.clone()));
    assemble_cards(set_index, loaded, cards, derived)
}

/// [`assemble_set`] that moves the cards' fields out of `loaded` rather
/// than copying them (the set is left without cards), for a build that
/// keeps no loaded sets after rendering them.
pub(super) fn assemble_set_taking(
    set_index: usize,
    loaded: &mut LoadedSet,
    derived: &Derived,
) -> (Set, Vec<Card>) {
    let taken = std::mem::take(&mut loaded.cards);
    let cards = taken.into_iter().map(|c| (c.index, c.card, c.art));
    assemble_cards(set_index, loaded, cards, derived)
}

fn assemble_cards(
    set_index: usize,
    loaded: &LoadedSet,
    sources: impl ExactSizeIterator<Item = (usize, CardSource, Option<Art>)>,
    derived: &Derived,
) -> (Set, Vec<Card>) {
    let set = &loaded.set;
    let mut physical = 0u32;
    let mut cards = Vec::with_capacity(sources.len());
    for (index, card, art) in sources {
        let copies = derived.copies(set_index, index).unwrap_or(1);
        physical += u32::from(copies);
        cards.push(Card {
            id: card.id,
            name: card.name,
            set: set.id.clone(),
            kind: card.kind,
            stars: card.stars,
            elements: card.elements,
            types: card.types,
            category: card.category,
            rarity: set.kind,
            copies,
            effect: card.effect,
            effect_tree: None,
            effect_text: Default::default(),
            flavor: card.flavor,
            translations: Default::default(),
            errata: card.errata,
            art,
        });
    }
    let set = Set {
        id: set.id.clone(),
        name: set.name.clone(),
        kind: set.kind,
        cost: set.cost,
        extra_types: set.extra_types.clone(),
        distinct_cards: cards.len() as u32,
        physical_cards: physical,
        translations: Default::default(),
    };
    (set, cards)
}

/// The phrase book of each language, with its code.
pub(super) struct Books<'a>([(&'static str, Lang, &'a effect::Phrasebook); Lang::ALL.len()]);

impl<'a> Books<'a> {
    pub(super) fn of(phrases: &'a Phrasebooks) -> Books<'a> {
        Books(Lang::ALL.map(|lang| (lang.code(), lang, phrases.get(lang))))
    }

    /// An effect printed in every language, in the books' order.
    fn print(&self, tree: &Effect, vocab: &Vocabulary) -> Printed {
        self.0
            .map(|(_, lang, book)| effect::render(tree, lang, book, vocab))
    }
}

/// An effect printed in every language.
type Printed = [String; Lang::ALL.len()];

/// The printed texts of the effect texts a build met again (printing
/// depends on the tree alone, and the tree on the text).
pub(super) type PrintMemo = TextMemo<Printed>;

/// Prints a card's effect in every language; the tree moves into the card.
pub(super) fn render_card(
    card: &mut Card,
    tree: Option<Arc<Effect>>,
    books: &Books<'_>,
    vocab: &Vocabulary,
    printed: &PrintMemo,
) {
    let Some(tree) = tree else { return };
    let texts = match &card.effect {
        Some(text) => printed.get_or(text, || books.print(&tree, vocab)),
        None => books.print(&tree, vocab),
    };
    for ((code, _, _), text) in books.0.iter().zip(texts) {
        card.effect_text.insert((*code).to_string(), text);
    }
    card.effect_tree = Some(tree);
}

/// Looks a set id up in a database.
pub fn find_set<'a>(database: &'a Database, id: &Id) -> Option<&'a Set> {
    database.sets.iter().find(|s| &s.id == id)
}
