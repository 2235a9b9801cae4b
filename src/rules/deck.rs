//! Deck check: how many cards of each kind a deck holds, and no card twice.
//!
//! The limits are data (`data/deck-formats.yaml`, embedded), so a format of
//! another game with other numbers reuses the same engine; a character adds
//! slots on top (`data/characters.yaml`).

use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::characters::Character;
use super::{Common, Counted, Violation, ids, list_names, plural, rule, rule_named};
use crate::words::{CardKind, Id};
use crate::yaml;

/// The embedded deck formats.
pub(crate) const FORMATS_YAML: &str = include_str!("../../data/deck-formats.yaml");

/// A deck format: limits by card kind, and whether a card may repeat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeckFormat {
    pub id: Id,
    pub name: String,
    /// No card twice.
    pub unique: bool,
    pub limits: Vec<Limit>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limit {
    pub kind: CardKind,
    pub max: u64,
    /// The rule a deck over the limit breaks.
    pub rule: &'static str,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FormatsFile {
    formats: Vec<FormatSource>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FormatSource {
    id: Id,
    name: String,
    unique: bool,
    limits: Vec<LimitSource>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LimitSource {
    kind: CardKind,
    max: u64,
    rule: String,
}

/// Reads deck formats from YAML text (the embedded file, or a test's).
pub(crate) fn parse_formats(text: &str) -> Result<Vec<DeckFormat>, String> {
    let doc = yaml::parse(text).map_err(|e| e.message)?;
    let file: FormatsFile = serde_json::from_value(doc.to_json()).map_err(|e| e.to_string())?;
    file.formats
        .into_iter()
        .map(|f| {
            let limits = f
                .limits
                .into_iter()
                .map(|l| {
                    let rule = rule_named(&l.rule)
                        .ok_or_else(|| format!("unknown rule `{}` in format {}", l.rule, f.id))?;
                    Ok(Limit {
                        kind: l.kind,
                        max: l.max,
                        rule,
                    })
                })
                .collect::<Result<_, String>>()?;
            Ok(DeckFormat {
                id: f.id,
                name: f.name,
                unique: f.unique,
                limits,
            })
        })
        .collect()
}

/// The built-in formats; the first is the default.
pub fn formats() -> &'static [DeckFormat] {
    static FORMATS: OnceLock<Vec<DeckFormat>> = OnceLock::new();
    FORMATS.get_or_init(|| parse_formats(FORMATS_YAML).expect("data/deck-formats.yaml is valid"))
}

/// The default format (Millennium Blades tournament deck).
pub fn tournament() -> &'static DeckFormat {
    &formats()[0]
}

/// How full one slot of the deck is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Slot {
    pub kind: CardKind,
    /// Physical cards of this kind in the deck.
    pub count: u64,
    /// The most allowed, character included.
    pub limit: u64,
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

/// Checks a deck against a format, for a character or none.
pub fn check(format: &DeckFormat, character: Option<&Character>, cards: &[Counted]) -> DeckOutcome {
    let mut slots = Vec::new();
    let mut violations = Vec::new();
    for limit in &format.limits {
        let max = limit.max + character.map_or(0, |c| c.extra(limit.kind));
        let of_kind: Vec<Counted> = cards
            .iter()
            .copied()
            .filter(|(c, _)| c.kind == limit.kind)
            .collect();
        let count: u64 = of_kind.iter().map(|(_, n)| n).sum();
        if count > max {
            let (one, many) = kind_words(limit.kind);
            let why = match character {
                Some(c) if c.extra(limit.kind) > 0 => format!(" for {}", c.name),
                _ => String::new(),
            };
            violations.push(Violation::new(
                limit.rule,
                format!(
                    "{} in the deck; the limit{why} is {max}: move {} to your binder",
                    plural(count, one, many),
                    plural(count - max, one, many),
                ),
                ids(of_kind.iter().map(|(c, _)| *c)),
            ));
        }
        slots.push(Slot {
            kind: limit.kind,
            count,
            limit: max,
        });
    }
    if format.unique {
        // One violation per repeated card, in first-seen order.
        let mut seen: Vec<(&Id, &str, u64)> = Vec::new();
        for (card, n) in cards {
            match seen.iter_mut().find(|(id, _, _)| **id == card.id) {
                Some(entry) => entry.2 += n,
                None => seen.push((&card.id, &card.name, *n)),
            }
        }
        for (id, name, n) in seen.into_iter().filter(|(_, _, n)| *n > 1) {
            violations.push(Violation::new(
                rule::DUPLICATE_CARD,
                format!(
                    "{} is in the deck {n} times; a deck holds one copy of a card: move {} to your binder",
                    list_names([name]),
                    plural(n - 1, "copy", "copies"),
                ),
                vec![id.clone()],
            ));
        }
    }
    DeckOutcome { slots, violations }
}

fn kind_words(kind: CardKind) -> (&'static str, &'static str) {
    match kind {
        CardKind::Single => ("single", "singles"),
        CardKind::DeckBox => ("deck box", "deck boxes"),
        CardKind::Accessory => ("accessory", "accessories"),
    }
}

/// The JSON output of `blades deck check`, one per file.
#[derive(Debug, Default, Serialize, JsonSchema)]
#[schemars(title = "blades deck check result")]
pub struct DeckReport {
    #[serde(flatten)]
    pub common: Common,
    /// The deck format's id.
    pub format: Option<Id>,
    /// The deck's character, if it names one.
    pub character: Option<CharacterRef>,
    /// Cards of each kind against their limit.
    pub slots: Vec<Slot>,
    /// The deck's cards by id, in input order, repeats included.
    pub cards: Vec<Id>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Card;
    use crate::rules::characters;
    use crate::words::{Element, SetKind};

    fn card(id: &str, kind: CardKind) -> Card {
        Card {
            id: Id(id.into()),
            name: id.to_uppercase(),
            set: Id("s".into()),
            kind,
            stars: 1,
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
        assert!(format.unique);
        let limits: Vec<(CardKind, u64)> = format.limits.iter().map(|l| (l.kind, l.max)).collect();
        assert_eq!(
            limits,
            [
                (CardKind::Single, 8),
                (CardKind::DeckBox, 1),
                (CardKind::Accessory, 2)
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
            "formats:\n  - id: open\n    name: Open\n    unique: false\n    limits:\n      - {kind: accessory, max: 3, rule: too-many-accessories}\n",
        )
        .unwrap();
        let a = card("a", CardKind::Accessory);
        let outcome = check(&formats[0], None, &[(&a, 3)]);
        assert!(outcome.violations.is_empty());
        let outcome = check(&formats[0], None, &[(&a, 4)]);
        assert_eq!(rules_of(&outcome), [rule::TOO_MANY_ACCESSORIES]);
        assert!(parse_formats("formats:\n  - {id: x, name: X, unique: true, limits: [{kind: single, max: 1, rule: made-up}]}\n").is_err());
    }
}
