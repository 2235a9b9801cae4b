//! `deck diff`: what changed between two versions of a deck, zone by
//! zone, in the order `deck export` lists cards.
//!
//! The decks come resolved (see [`super::check::deck_diff`], which reads
//! them as `deck check` does), so the same deck in two spellings, orders
//! or forms (a file and a share code) is no change.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use super::characters::Character;
use super::deck::{DeckFormat, Placed, Zone};
use super::share;
use crate::model::Card;
use crate::words::Id;

/// One card added or removed, with its copies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CardCount {
    pub id: Id,
    pub name: String,
    pub count: u64,
}

/// A card in both versions, with a different number of copies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CountChange {
    pub id: Id,
    pub name: String,
    /// Copies in the first version.
    pub a: u64,
    /// Copies in the second.
    pub b: u64,
}

/// What changed in one zone of the format.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ZoneDiff {
    /// The zone's id (`deck`, `main-deck`).
    pub zone: Id,
    /// The zone's name, for people (`Main Deck`).
    pub name: String,
    /// Cards only the second version has.
    pub added: Vec<CardCount>,
    /// Cards only the first version has.
    pub removed: Vec<CardCount>,
    /// Cards in both with other counts (only where a format allows copies
    /// can a count change without the card being added or removed).
    pub changed: Vec<CountChange>,
}

impl ZoneDiff {
    fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}

/// The deck's character in each version, when it changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CharacterChange {
    /// The first version's character, by name (`null`: none).
    pub a: Option<String>,
    pub b: Option<String>,
}

/// The JSON output of `blades deck diff`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[schemars(title = "blades deck diff result")]
pub struct DeckDiff {
    /// The first version, as named.
    pub a: String,
    /// The second version, as named.
    pub b: String,
    /// The deck format whose zones are compared.
    pub format: Id,
    /// Whether the two are the same deck.
    pub same: bool,
    /// The character, when it changed.
    pub character: Option<CharacterChange>,
    /// The zones with a change, in the format's order.
    pub zones: Vec<ZoneDiff>,
}

/// One version of a deck, resolved.
pub struct Version<'a, 'c> {
    pub shown: &'a str,
    pub character: Option<&'static Character>,
    pub cards: &'a [Placed<'c>],
}

/// Compares two versions of a deck under one format.
pub fn compare(format: &DeckFormat, a: &Version, b: &Version) -> DeckDiff {
    let name = |c: Option<&Character>| c.map(|c| c.name.clone());
    let character =
        (a.character.map(|c| &c.id) != b.character.map(|c| &c.id)).then(|| CharacterChange {
            a: name(a.character),
            b: name(b.character),
        });
    let zones: Vec<ZoneDiff> = (format.zones.iter().enumerate())
        .map(|(z, zone)| zone_diff(zone, &counts(a.cards, z), &counts(b.cards, z)))
        .filter(|diff| !diff.is_empty())
        .collect();
    DeckDiff {
        a: a.shown.to_string(),
        b: b.shown.to_string(),
        format: format.id.clone(),
        same: character.is_none() && zones.is_empty(),
        character,
        zones,
    }
}

/// A zone's cards with their copies, keyed in the canonical list's order
/// (kind, then name; the id parts two cards of one name).
fn counts<'c>(cards: &[Placed<'c>], zone: usize) -> Counts<'c> {
    let mut counted = BTreeMap::new();
    for (_, card, n) in cards.iter().filter(|(z, _, _)| *z == zone) {
        let (kind, name) = share::list_order(card);
        let entry = counted.entry((kind, name, card.id.0.as_str()));
        entry.or_insert((*card, 0)).1 += n;
    }
    counted
}

/// A zone's cards by their place in the list, with their copies.
type Counts<'c> = BTreeMap<(usize, &'c str, &'c str), (&'c Card, u64)>;

/// What the second zone adds to the first, removes and counts again.
fn zone_diff(zone: &Zone, a: &Counts, b: &Counts) -> ZoneDiff {
    let count = |card: &Card, count: u64| CardCount {
        id: card.id.clone(),
        name: card.name.clone(),
        count,
    };
    let mut diff = ZoneDiff {
        zone: zone.id.clone(),
        name: zone.name.clone(),
        added: Vec::new(),
        removed: Vec::new(),
        changed: Vec::new(),
    };
    for (key, &(card, n)) in a {
        match b.get(key) {
            None => diff.removed.push(count(card, n)),
            Some(&(_, m)) if m != n => diff.changed.push(CountChange {
                id: card.id.clone(),
                name: card.name.clone(),
                a: n,
                b: m,
            }),
            Some(_) => {}
        }
    }
    for (key, &(card, n)) in b {
        if !a.contains_key(key) {
            diff.added.push(count(card, n));
        }
    }
    diff
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::characters;
    use crate::rules::deck::tournament;
    use crate::words::CardKind;

    fn card(id: &str, kind: CardKind) -> Card {
        Card::new(id, &id.to_uppercase(), "s", kind, 1)
    }

    #[test]
    fn order_and_spelling_are_no_change_and_counts_are() {
        let wyrm = card("wyrm", CardKind::Single);
        let devil = card("devil", CardKind::Single);
        let charm = card("charm", CardKind::Accessory);
        let case = card("case", CardKind::DeckBox);
        let first = [(0, &wyrm, 1), (0, &charm, 1), (0, &devil, 1)];
        let same = [(0, &devil, 1), (0, &wyrm, 1), (0, &charm, 1)];
        let version = |shown, cards| Version {
            shown,
            character: None,
            cards,
        };
        let diff = compare(tournament(), &version("a", &first), &version("b", &same));
        assert!(diff.same);
        assert!(diff.zones.is_empty());
        let second = [(0, &charm, 2), (0, &case, 1), (0, &wyrm, 1)];
        let mut changed = version("b", &second);
        changed.character = characters::resolve("deques").ok();
        let diff = compare(tournament(), &version("a", &first), &changed);
        assert!(!diff.same);
        assert_eq!(diff.character.as_ref().and_then(|c| c.a.clone()), None);
        let zone = &diff.zones[0];
        let ids =
            |cards: &[CardCount]| -> Vec<String> { cards.iter().map(|c| c.id.0.clone()).collect() };
        assert_eq!(ids(&zone.added), ["case"]);
        assert_eq!(ids(&zone.removed), ["devil"]);
        assert_eq!((zone.changed[0].a, zone.changed[0].b), (1, 2));
    }
}
