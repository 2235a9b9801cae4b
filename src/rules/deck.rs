//! Deck check: a deck's cards, zone by zone, against a format's bounds,
//! copy limits and the character's modifiers.
//!
//! The formats are data (`data/deck-formats.yaml`, embedded, and a pool's
//! `formats/*.yaml`; see [`super::format`]), so the formats of other games
//! run on the same engine.

use crate::words::with_article;
use schemars::JsonSchema;
use serde::Serialize;

use super::characters::Character;
use super::format;
pub use super::format::{Bound, DeckFormat, Zone};
use super::{Common, Counted, Violation, ids, list_names, plural};
use crate::model::Card;
use crate::words::{CardKind, Id};

/// The built-in formats; the first is the default.
pub fn formats() -> &'static [DeckFormat] {
    format::builtin()
}

/// The default format (Millennium Blades tournament deck).
pub fn tournament() -> &'static DeckFormat {
    &formats()[0]
}

/// How full one bound of the format is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct Slot {
    /// The card kind counted, when the bound counts exactly one kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<CardKind>,
    /// What is counted (`face cards`), when the bound is not one kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The zones counted together, when the format has more than one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<Id>,
    /// Physical cards counted.
    pub count: u64,
    /// The fewest allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<u64>,
    /// The most allowed, character included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// What is counted, for people (`singles`).
    #[serde(skip)]
    pub words: String,
}

/// The character a deck was checked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CharacterRef {
    pub id: Id,
    pub name: String,
}

/// What a deck check found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeckOutcome {
    pub slots: Vec<Slot>,
    pub violations: Vec<Violation>,
}

/// A card in a zone (an index into the format's zones) with its count.
pub type Placed<'a> = (usize, &'a Card, u64);

/// Checks a deck whose cards are all in the format's first zone.
pub fn check(format: &DeckFormat, character: Option<&Character>, cards: &[Counted]) -> DeckOutcome {
    let placed: Vec<Placed> = cards.iter().map(|&(c, n)| (0, c, n)).collect();
    check_zoned(format, character, &placed)
}

/// "the deck", "the Main Deck and the Millennium Deck together".
fn zones_phrase(format: &DeckFormat, zones: &[usize], together: bool) -> String {
    let names: Vec<String> = zones
        .iter()
        .map(|&z| format!("the {}", format.zones[z].name))
        .collect();
    match names.len() {
        1 => names[0].clone(),
        n => format!(
            "{} and {}{}",
            names[..n - 1].join(", "),
            names[n - 1],
            if together { " together" } else { "" }
        ),
    }
}

fn take_out(format: &DeckFormat, what: String) -> String {
    match &format.surplus {
        Some(to) => format!("move {what} to {to}"),
        None => format!("take out {what}"),
    }
}

/// Checks a deck, zone by zone, against a format, for a character or none.
pub fn check_zoned(
    format: &DeckFormat,
    character: Option<&Character>,
    cards: &[Placed],
) -> DeckOutcome {
    let mut slots = Vec::with_capacity(format.bounds.len());
    let mut violations = Vec::new();
    let several_zones = format.zones.len() > 1;
    for (b, bound) in format.bounds.iter().enumerate() {
        let extra = format.extra(character, b);
        let max = bound.max.map(|m| m.saturating_add(extra));
        let counted = || {
            cards
                .iter()
                .filter(|(z, c, _)| bound.zones.contains(z) && bound.filter.matches(c))
        };
        let count: u64 = counted().map(|(_, _, n)| n).sum();
        let why = match character {
            Some(c) if extra > 0 => format!(" for {}", c.name),
            _ => String::new(),
        };
        let (one, many) = (bound.one.as_str(), bound.many.as_str());
        if let Some(max) = max
            && count > max
        {
            violations.push(Violation::new(
                bound.max_rule,
                format!(
                    "{} in {}; the limit{why} is {max}: {}",
                    plural(count, one, many),
                    zones_phrase(format, &bound.zones, true),
                    take_out(format, plural(count - max, one, many)),
                ),
                ids(counted().map(|(_, c, _)| *c)),
            ));
        }
        if let Some(min) = bound.min
            && count < min
        {
            violations.push(Violation::new(
                bound.min_rule,
                format!(
                    "{} in {}; the minimum is {min}: add {}",
                    plural(count, one, many),
                    zones_phrase(format, &bound.zones, true),
                    plural(min - count, one, many),
                ),
                ids(counted().map(|(_, c, _)| *c)),
            ));
        }
        let kind = bound.filter.only_kind();
        slots.push(Slot {
            kind,
            name: kind.is_none().then(|| many.to_string()),
            zones: if several_zones {
                bound
                    .zones
                    .iter()
                    .map(|&z| format.zones[z].id.clone())
                    .collect()
            } else {
                Vec::new()
            },
            count,
            min: bound.min,
            limit: max,
            words: many.to_string(),
        });
    }
    for limit in &format.copies {
        // One violation per card over the limit, in first-seen order.
        let mut seen: Vec<(&Id, &str, u64)> = Vec::new();
        for (_, card, n) in cards.iter().filter(|(z, _, _)| limit.zones.contains(z)) {
            match seen.iter_mut().find(|(id, _, _)| **id == card.id) {
                Some(entry) => entry.2 += n,
                None => seen.push((&card.id, &card.name, *n)),
            }
        }
        let holder = match limit.zones.len() {
            1 => format!("{} holds", with_article(&format.zones[limit.zones[0]].name)),
            _ => format!("{} hold", zones_phrase(format, &limit.zones, true)),
        };
        let allowed = if limit.max == 1 {
            "one copy of a card".to_string()
        } else {
            format!("at most {} copies of a card", limit.max)
        };
        for (id, name, n) in seen.into_iter().filter(|(_, _, n)| *n > limit.max) {
            violations.push(Violation::new(
                limit.rule,
                format!(
                    "{} is in {} {n} times; {holder} {allowed}: {}",
                    list_names([name]),
                    zones_phrase(format, &limit.zones, false),
                    take_out(format, plural(n - limit.max, "copy", "copies")),
                ),
                vec![id.clone()],
            ));
        }
    }
    DeckOutcome { slots, violations }
}

/// The cards of one zone, in a report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct ZoneCards {
    pub zone: Id,
    /// The zone's cards by id, in input order, repeats included.
    pub cards: Vec<Id>,
}

/// The JSON output of `blades deck check`, one per file.
#[derive(Debug, Default, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[schemars(title = "blades deck check result")]
pub struct DeckReport {
    #[serde(flatten)]
    pub common: Common,
    /// The deck format's id.
    pub format: Option<Id>,
    /// The deck's character, if it names one.
    pub character: Option<CharacterRef>,
    /// Each bound of the format: cards counted against their limits.
    pub slots: Vec<Slot>,
    /// The deck's cards by id, in input order, repeats included.
    pub cards: Vec<Id>,
    /// Each zone's cards, when the format has more than one zone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<ZoneCards>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::characters;
    use crate::rules::format::parse_formats;
    use crate::rules::rule;
    use crate::words::{Element, SetKind};

    fn card(id: &str, kind: CardKind) -> Card {
        Card {
            id: Id(id.into()),
            name: id.to_uppercase(),
            set: Id("s".into()),
            kind,
            stars: Some(1),
            elements: vec![Element::Fire],
            types: Vec::new(),
            rarity: SetKind::Expansion,
            copies: 1,
            ..Card::new("", "", "", CardKind::Single, 1)
        }
    }

    fn rules_of(outcome: &DeckOutcome) -> Vec<&str> {
        outcome.violations.iter().map(|v| v.rule).collect()
    }

    #[test]
    fn the_tournament_format_is_eight_one_two_unique() {
        let format = tournament();
        assert_eq!(format.copies.len(), 1);
        assert_eq!(format.copies[0].max, 1);
        let limits: Vec<(Option<CardKind>, Option<u64>)> = format
            .bounds
            .iter()
            .map(|b| (b.filter.only_kind(), b.max))
            .collect();
        assert_eq!(
            limits,
            [
                (Some(CardKind::Single), Some(8)),
                (Some(CardKind::DeckBox), Some(1)),
                (Some(CardKind::Accessory), Some(2))
            ]
        );
    }

    #[test]
    fn nine_singles_with_a_repeat_break_two_rules() {
        let singles: Vec<Card> = (0..8)
            .map(|i| card(&format!("s{i}"), CardKind::Single))
            .collect();
        let mut cards: Vec<Counted> = singles.iter().map(|c| (c, 1)).collect();
        cards.push((&singles[0], 1));
        let outcome = check(tournament(), None, &cards);
        assert_eq!(
            rules_of(&outcome),
            [rule::TOO_MANY_SINGLES, rule::DUPLICATE_CARD]
        );
        assert_eq!(outcome.slots[0].count, 9);
    }

    #[test]
    fn deques_may_bring_two_boxes_and_three_accessories() {
        let boxes = [card("b1", CardKind::DeckBox), card("b2", CardKind::DeckBox)];
        let accessories = [
            card("a1", CardKind::Accessory),
            card("a2", CardKind::Accessory),
            card("a3", CardKind::Accessory),
        ];
        let cards: Vec<Counted> = boxes.iter().chain(&accessories).map(|c| (c, 1)).collect();
        let plain = check(tournament(), None, &cards);
        assert_eq!(
            rules_of(&plain),
            [rule::TOO_MANY_DECK_BOXES, rule::TOO_MANY_ACCESSORIES]
        );
        let deques = characters::resolve("deques").unwrap();
        assert!(
            check(tournament(), Some(deques), &cards)
                .violations
                .is_empty()
        );
        let cardine = characters::resolve("cardine").unwrap();
        assert_eq!(check(tournament(), Some(cardine), &cards), plain);
    }

    #[test]
    fn another_format_is_only_data() {
        let formats = parse_formats(
            "formats:\n  - id: open\n    name: Open\n    zones: [{id: deck}]\n    bounds:\n      - {where: {kind: accessory}, max: 3, rule: too-many-accessories}\n",
        )
        .unwrap();
        let a = card("a", CardKind::Accessory);
        let outcome = check(&formats[0], None, &[(&a, 3)]);
        assert!(outcome.violations.is_empty());
        let outcome = check(&formats[0], None, &[(&a, 4)]);
        assert_eq!(rules_of(&outcome), [rule::TOO_MANY_ACCESSORIES]);
        assert!(parse_formats("formats:\n  - {id: x, name: X, zones: [{id: d}], bounds: [{max: 1, rule: made-up}]}\n").is_err());
    }

    #[test]
    fn sums_over_zones_and_copies_across_zones() {
        let formats = parse_formats(
            "formats:\n  - id: two\n    name: Two\n    zones: [{id: main, name: Main Deck}, {id: extra, name: Extra Deck}]\n    bounds:\n      - {zones: [main], min: 2}\n      - {zones: [main, extra], max: 3}\n    copies:\n      - {max: 2}\n",
        )
        .unwrap();
        let a = card("a", CardKind::Single);
        let b = card("b", CardKind::Single);
        let outcome = check_zoned(&formats[0], None, &[(0, &a, 1), (1, &b, 1)]);
        assert_eq!(rules_of(&outcome), [rule::TOO_FEW_IN_ZONE]);
        assert_eq!(
            outcome.violations[0].message,
            "1 card in the Main Deck; the minimum is 2: add 1 card"
        );
        let outcome = check_zoned(&formats[0], None, &[(0, &a, 2), (1, &a, 1), (1, &b, 1)]);
        assert_eq!(
            rules_of(&outcome),
            [rule::TOO_MANY_IN_ZONE, rule::TOO_MANY_OF_A_CARD]
        );
        assert_eq!(
            outcome.violations[0].message,
            "4 cards in the Main Deck and the Extra Deck together; the limit is 3: take out 1 card"
        );
        assert_eq!(
            outcome.violations[1].message,
            "`A` is in the Main Deck and the Extra Deck 3 times; the Main Deck and the Extra Deck together hold at most 2 copies of a card: take out 1 copy"
        );
    }
}
