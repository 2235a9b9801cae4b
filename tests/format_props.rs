//! Property test of the deck-format engine against a brute-force count:
//! random formats (written as format files, so the reader is exercised
//! too) and random decks; every bound's count, every bound broken and
//! every card over a copy limit agree with counting the slow way.

use blades::model::Card;
use blades::rules::deck::{self, Placed};
use blades::rules::format::parse_formats;
use blades::words::{CardKind, Element, Id};
use proptest::prelude::*;

const KINDS: [CardKind; 3] = [CardKind::Single, CardKind::DeckBox, CardKind::Accessory];
const ELEMENTS: [Element; 3] = [Element::Fire, Element::Water, Element::Dark];
const CATEGORIES: [&str; 3] = ["face", "number", "joker"];

fn cards() -> Vec<Card> {
    (0..12)
        .map(|i| Card {
            elements: vec![ELEMENTS[i % 3]],
            category: (i % 4 != 3).then(|| Id(CATEGORIES[i % 3].into())),
            stars: Some((i % 10) as u8 + 1),
            ..Card::new(
                &format!("c{i}"),
                &format!("C{i}"),
                "s",
                KINDS[(i / 3) % 3],
                1,
            )
        })
        .collect()
}

/// A filter as (attribute, value index, negated); attribute 0 is none.
type FilterSpec = (u8, usize, bool);

fn filter_yaml((attribute, value, negated): FilterSpec) -> String {
    let test = match attribute {
        0 => return "{}".into(),
        1 => format!("kind: {}", KINDS[value % 3].as_str()),
        2 => format!("element: {}", ELEMENTS[value % 3].as_str()),
        3 => format!("category: {}", CATEGORIES[value % 3]),
        _ => format!("stars: {{min: 1, max: {}}}", value % 10 + 1),
    };
    if negated {
        format!("{{not: {{{test}}}}}")
    } else {
        format!("{{{test}}}")
    }
}

fn brute_matches(card: &Card, (attribute, value, negated): FilterSpec) -> bool {
    let hit = match attribute {
        0 => return true,
        1 => card.kind == KINDS[value % 3],
        2 => card.elements.contains(&ELEMENTS[value % 3]),
        3 => card
            .category
            .as_ref()
            .is_some_and(|c| c.0 == CATEGORIES[value % 3]),
        _ => card.stars.is_some_and(|s| usize::from(s) <= value % 10 + 1),
    };
    hit != negated
}

/// (zone mask, filter, min, max)
type BoundSpec = (u8, FilterSpec, Option<u64>, Option<u64>);
/// (zone mask, max)
type CopySpec = (u8, u64);

fn zones_of(mask: u8, zones: usize) -> Vec<usize> {
    let v: Vec<usize> = (0..zones).filter(|z| mask & (1 << z) != 0).collect();
    if v.is_empty() { vec![0] } else { v }
}

fn format_yaml(zones: usize, bounds: &[BoundSpec], copies: &[CopySpec]) -> String {
    let mut text = String::from("formats:\n  - id: random\n    name: Random\n    zones:\n");
    for z in 0..zones {
        text.push_str(&format!("      - {{id: z{z}}}\n"));
    }
    text.push_str("    bounds:\n");
    for &(mask, filter, min, max) in bounds {
        let ids: Vec<String> = zones_of(mask, zones)
            .iter()
            .map(|z| format!("z{z}"))
            .collect();
        text.push_str(&format!(
            "      - zones: [{}]\n        where: {}\n",
            ids.join(", "),
            filter_yaml(filter)
        ));
        if let Some(min) = min {
            text.push_str(&format!("        min: {min}\n"));
        }
        if let Some(max) = max {
            text.push_str(&format!("        max: {max}\n"));
        }
    }
    text.push_str("    copies:\n");
    for &(mask, max) in copies {
        let ids: Vec<String> = zones_of(mask, zones)
            .iter()
            .map(|z| format!("z{z}"))
            .collect();
        text.push_str(&format!(
            "      - {{zones: [{}], max: {max}}}\n",
            ids.join(", ")
        ));
    }
    text.replace(
        "    copies:\n",
        if copies.is_empty() {
            ""
        } else {
            "    copies:\n"
        },
    )
}

fn bound_strategy() -> impl Strategy<Value = BoundSpec> {
    (
        1u8..8,
        (0u8..5, 0usize..10, any::<bool>()),
        0u64..8,
        0u64..8,
        0u8..3,
    )
        .prop_map(|(mask, filter, a, b, which)| {
            let (lo, hi) = (a.min(b), a.max(b));
            match which {
                0 => (mask, filter, Some(lo), None),
                1 => (mask, filter, None, Some(hi)),
                _ => (mask, filter, Some(lo), Some(hi)),
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_engine_counts_as_brute_force_does(
        zones in 1usize..4,
        bounds in prop::collection::vec(bound_strategy(), 0..5),
        copies in prop::collection::vec((1u8..8, 1u64..4), 0..3),
        deck in prop::collection::vec((0usize..3, 0usize..12, 1u64..4), 0..16),
    ) {
        let cards = cards();
        let formats = parse_formats(&format_yaml(zones, &bounds, &copies)).unwrap();
        let format = &formats[0];
        let placed: Vec<Placed> = deck.iter().map(|&(z, c, n)| (z % zones, &cards[c], n)).collect();
        let outcome = deck::check_zoned(format, None, &placed);
        prop_assert_eq!(outcome.slots.len(), bounds.len());
        let mut expected_violations = 0;
        for (slot, &(mask, filter, min, max)) in outcome.slots.iter().zip(&bounds) {
            let in_zones = zones_of(mask, zones);
            let mut count = 0;
            for &(z, c, n) in &placed {
                if in_zones.contains(&z) && brute_matches(c, filter) {
                    count += n;
                }
            }
            prop_assert_eq!(slot.count, count);
            expected_violations += usize::from(max.is_some_and(|m| count > m));
            expected_violations += usize::from(min.is_some_and(|m| count < m));
        }
        for &(mask, max) in &copies {
            let in_zones = zones_of(mask, zones);
            for card in &cards {
                let total: u64 = placed
                    .iter()
                    .filter(|(z, c, _)| in_zones.contains(z) && c.id == card.id)
                    .map(|(_, _, n)| n)
                    .sum();
                expected_violations += usize::from(total > max);
            }
        }
        prop_assert_eq!(outcome.violations.len(), expected_violations);
    }
}
