//! A deck's statistics, as players ask deck sites for them: how its cards
//! spread over kinds, STARs, elements and types, and the VP its singles
//! could make in collections (the collection search of
//! [`super::collection`], on the deck's singles as a binder).

use schemars::JsonSchema;
use serde::Serialize;

use super::Counted;
use super::collection::{self, Chosen, Symbol};
use crate::words::{CardKind, Id};

/// How many physical cards have one value (a kind, a STAR, a symbol).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Spread {
    /// The value: `single`, `3`, `fire`, `construct`.
    pub value: String,
    pub count: u64,
}

/// A collection the deck's singles could make.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Possible {
    /// The symbol its cards share.
    pub symbol: String,
    /// Its cards by id, in STAR order.
    pub cards: Vec<Id>,
    pub vp: u64,
}

impl Possible {
    fn of(chosen: &Chosen) -> Possible {
        Possible {
            symbol: chosen.symbol.as_str().to_string(),
            cards: chosen.cards.iter().map(|c| c.id.clone()).collect(),
            vp: collection::vp(chosen.cards.len() as u64).unwrap_or(0),
        }
    }
}

/// The JSON output of `blades deck stats`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[schemars(title = "blades deck stats result")]
pub struct DeckStats {
    pub file: String,
    /// Physical cards.
    pub cards: u64,
    /// Cards per kind, in kind order (singles, deck boxes, accessories…).
    pub kinds: Vec<Spread>,
    /// Cards per STAR, lowest first (cards without a STAR are not counted).
    pub stars: Vec<Spread>,
    /// The STARs of every card added up.
    pub star_total: u64,
    /// Cards carrying each element, in rulebook order (a card of two
    /// elements counts under both).
    pub elements: Vec<Spread>,
    /// Cards carrying each type: the base types in rulebook order, then
    /// the others by id.
    pub types: Vec<Spread>,
    /// The best collection the singles could make on each symbol, in
    /// symbol order (a symbol fewer than two STARs share makes none).
    pub collections: Vec<Possible>,
    /// The one worth the most VP (`collection best` on the singles).
    pub best: Option<Possible>,
}

/// The statistics of a deck's cards (all zones together).
pub fn deck_stats(shown: &str, cards: &[Counted]) -> DeckStats {
    let spread = |values: Vec<(String, u64)>| -> Vec<Spread> {
        let mut spread: Vec<Spread> = Vec::new();
        for (value, n) in values {
            match spread.iter_mut().find(|s| s.value == value) {
                Some(s) => s.count += n,
                None => spread.push(Spread { value, count: n }),
            }
        }
        spread
    };
    let kinds = CardKind::ALL.iter().map(|kind| {
        let n = cards
            .iter()
            .filter(|(c, _)| c.kind == *kind)
            .map(|(_, n)| n)
            .sum();
        (kind.as_str().to_string(), n)
    });
    let mut stars: Vec<(u8, u64)> = (cards.iter())
        .filter_map(|(c, n)| c.stars.map(|s| (s, *n)))
        .collect();
    stars.sort_by_key(|(s, _)| *s);
    let mut symbols: Vec<(Symbol, u64)> = (cards.iter())
        .flat_map(|(c, n)| collection::symbols(c).map(move |s| (s, *n)))
        .collect();
    symbols.sort_by(|a, b| a.0.cmp(&b.0));
    let (elements, types): (Vec<_>, Vec<_>) =
        symbols.into_iter().partition(|(s, _)| s.is_element());
    let named = |list: Vec<(Symbol, u64)>| -> Vec<(String, u64)> {
        list.into_iter()
            .map(|(s, n)| (s.as_str().to_string(), n))
            .collect()
    };
    let singles: Vec<Counted> = (cards.iter())
        .filter(|(c, _)| c.kind == CardKind::Single)
        .copied()
        .collect();
    DeckStats {
        file: shown.to_string(),
        cards: cards.iter().map(|(_, n)| n).sum(),
        kinds: spread(kinds.filter(|(_, n)| *n > 0).collect()),
        stars: spread(stars.into_iter().map(|(s, n)| (s.to_string(), n)).collect()),
        star_total: cards.iter().map(|(c, n)| c.star_value() * n).sum(),
        elements: spread(named(elements)),
        types: spread(named(types)),
        collections: collection::best_each(&singles)
            .iter()
            .map(Possible::of)
            .collect(),
        best: collection::best(&singles).as_ref().map(Possible::of),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Card;
    use crate::words::Element;

    /// Cards of every STAR from 1 to 6 over a few elements and types, a
    /// deck box and an accessory: enough for collections to compete.
    fn cards() -> Vec<Card> {
        let elements = [Element::Fire, Element::Water, Element::Earth];
        let types = ["mage", "soldier"];
        let mut cards: Vec<Card> = (0..12)
            .map(|i| {
                let mut card = Card::new(
                    &format!("c{i:02}"),
                    &format!("C{i}"),
                    "s",
                    CardKind::Single,
                    (i % 6 + 1) as u8,
                );
                card.elements = vec![elements[i % 3]];
                if i % 4 == 0 {
                    card.elements.push(elements[(i + 1) % 3]);
                }
                card.types = vec![Id(types[i % 2].to_string())];
                card
            })
            .collect();
        cards.push(Card::new("box", "Box", "s", CardKind::DeckBox, 2));
        let mut charm = Card::new("charm", "Charm", "s", CardKind::Accessory, 3);
        charm.elements = vec![Element::Fire];
        cards.push(charm);
        cards
    }

    /// The most VP any legal collection of the singles makes, by trying
    /// every subset of them.
    fn best_vp_by_brute_force(singles: &[&Card]) -> u64 {
        let mut best = 0;
        for mask in 0u32..(1 << singles.len()) {
            let chosen: Vec<&Card> = (0..singles.len())
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| singles[i])
                .collect();
            let mut stars: Vec<u8> = chosen.iter().filter_map(|c| c.stars).collect();
            stars.sort_unstable();
            stars.dedup();
            let shared = collection::symbols(chosen.first().copied().unwrap_or(singles[0]))
                .any(|s| chosen.iter().all(|c| s.on(c)));
            if stars.len() == chosen.len() && shared {
                best = best.max(collection::vp(chosen.len() as u64).unwrap_or(0));
            }
        }
        best
    }

    #[test]
    fn the_spreads_and_the_best_vp_are_what_counting_finds() {
        let all = cards();
        let counted: Vec<Counted> = all
            .iter()
            .enumerate()
            .map(|(i, c)| (c, 1 + (i % 2) as u64))
            .collect();
        let stats = deck_stats("d", &counted);
        let count = |value: &str, list: &[Spread]| {
            list.iter()
                .find(|s| s.value == value)
                .map_or(0, |s| s.count)
        };
        assert_eq!(stats.cards, counted.iter().map(|(_, n)| n).sum::<u64>());
        for element in Element::ALL {
            let by_hand: u64 = (counted.iter())
                .filter(|(c, _)| c.elements.contains(&element))
                .map(|(_, n)| n)
                .sum();
            assert_eq!(
                count(element.as_str(), &stats.elements),
                by_hand,
                "{element:?}"
            );
        }
        for star in 1..=6u8 {
            let by_hand: u64 = counted
                .iter()
                .filter(|(c, _)| c.stars == Some(star))
                .map(|(_, n)| n)
                .sum();
            assert_eq!(count(&star.to_string(), &stats.stars), by_hand);
        }
        assert_eq!(count("single", &stats.kinds), 18);
        assert_eq!(count("deck-box", &stats.kinds), 1);
        let singles: Vec<&Card> = all.iter().filter(|c| c.kind == CardKind::Single).collect();
        let best = stats.best.as_ref().map_or(0, |b| b.vp);
        assert_eq!(best, best_vp_by_brute_force(&singles));
        assert!(stats.collections.iter().all(|c| c.vp <= best));
        // The accessory's element is counted, but it makes no collection.
        assert!(
            stats
                .collections
                .iter()
                .all(|c| !c.cards.contains(&Id("charm".into())))
        );
    }
}
