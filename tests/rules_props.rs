//! Property tests of the player checks against brute-force definitions:
//! collection legality, the best collection, the best Duel Mode pair, and
//! trade symmetry.

use blades::model::Card;
use blades::rules::collection::{self, Symbol};
use blades::rules::trade::{self, Side};
use blades::rules::{Counted, rule};
use blades::words::{CardKind, Element, Id, SetKind};
use proptest::prelude::*;

const ELEMENTS: [Element; 3] = [Element::Fire, Element::Water, Element::Dark];
const TYPES: [&str; 3] = ["animal", "mage", "soldier"];

/// A card from a small space so that symbols and STARs collide often.
fn card_strategy() -> impl Strategy<Value = (u8, u8, u8, u8)> {
    // (stars, element bits, type bits, kind)
    (1u8..=6, 0u8..8, 0u8..8, 0u8..3)
}

fn make_cards(specs: &[(u8, u8, u8, u8)]) -> Vec<Card> {
    specs
        .iter()
        .enumerate()
        .map(|(i, &(stars, e, t, k))| Card {
            id: Id(format!("card-{i:02}")),
            name: format!("Card {i}"),
            set: Id("s".into()),
            kind: [CardKind::Single, CardKind::DeckBox, CardKind::Accessory][usize::from(k)],
            stars: Some(stars),
            elements: ELEMENTS
                .iter()
                .enumerate()
                .filter(|(b, _)| e & (1 << b) != 0)
                .map(|(_, x)| *x)
                .collect(),
            types: TYPES
                .iter()
                .enumerate()
                .filter(|(b, _)| t & (1 << b) != 0)
                .map(|(_, x)| Id((*x).into()))
                .collect(),
            rarity: SetKind::Expansion,
            copies: 1,
            ..Card::new("", "", "", CardKind::Single, 1)
        })
        .collect()
}

fn all_symbols() -> Vec<Symbol> {
    ELEMENTS
        .iter()
        .map(|e| Symbol::Element(*e))
        .chain(TYPES.iter().map(|t| Symbol::Type(Id((*t).into()))))
        .collect()
}

/// The rulebook's definition, written the slow way: 2 to 8 cards, some
/// symbol on every card, every pair of cards with different STARs.
fn brute_legal(cards: &[&Card]) -> bool {
    let size_ok = (2..=8).contains(&cards.len());
    let symbol_ok = all_symbols().iter().any(|s| cards.iter().all(|c| s.on(c)));
    let stars_ok =
        (0..cards.len()).all(|i| (i + 1..cards.len()).all(|j| cards[i].stars != cards[j].stars));
    size_ok && symbol_ok && stars_ok
}

/// Only symbols of one kind (elements or types).
fn brute_legal_on(cards: &[&Card], elements: bool) -> bool {
    cards.is_empty()
        || (brute_legal(cards)
            && all_symbols()
                .iter()
                .filter(|s| s.is_element() == elements)
                .any(|s| cards.iter().all(|c| s.on(c))))
}

fn stars(cards: &[&Card]) -> u64 {
    cards.iter().map(|c| c.star_value()).sum()
}

/// The binder's physical cards (a card with count 2 appears twice).
fn physical<'a>(binder: &[Counted<'a>]) -> Vec<&'a Card> {
    binder
        .iter()
        .flat_map(|(c, n)| std::iter::repeat_n(*c, *n as usize))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn collection_legality_matches_the_definition(
        specs in prop::collection::vec(card_strategy(), 1..8),
        picks in prop::collection::vec((0usize..8, 1u64..3), 0..10),
    ) {
        let cards = make_cards(&specs);
        let chosen: Vec<Counted> = picks
            .iter()
            .map(|(i, n)| (&cards[i % cards.len()], *n))
            .collect();
        let outcome = collection::check(&chosen, None);
        let flat = physical(&chosen);
        prop_assert_eq!(outcome.violations.is_empty(), brute_legal(&flat));
        // The reported symbols are exactly those on every card.
        if !flat.is_empty() {
            let mut expected: Vec<String> = all_symbols()
                .iter()
                .filter(|s| flat.iter().all(|c| s.on(c)))
                .map(|s| s.as_str().to_string())
                .collect();
            let mut got: Vec<String> = outcome.symbols.iter().map(|s| s.as_str().to_string()).collect();
            expected.sort();
            got.sort();
            prop_assert_eq!(got, expected);
        }
        // Every violation names a stable rule.
        for v in &outcome.violations {
            prop_assert!(blades::rules::rule_named(v.rule).is_some());
        }
    }

    #[test]
    fn best_collection_is_optimal(
        specs in prop::collection::vec(card_strategy(), 0..11),
    ) {
        let cards = make_cards(&specs);
        let binder: Vec<Counted> = cards.iter().map(|c| (c, 1)).collect();
        // Brute force over every subset: most VP, then lowest STAR total.
        let mut best: Option<(usize, std::cmp::Reverse<u64>)> = None;
        for mask in 0u32..(1 << cards.len()) {
            let subset: Vec<&Card> = (0..cards.len())
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| &cards[i])
                .collect();
            if brute_legal(&subset) {
                let key = (subset.len(), std::cmp::Reverse(stars(&subset)));
                if best.is_none_or(|b| key > b) {
                    best = Some(key);
                }
            }
        }
        let found = collection::best(&binder);
        match (best, found) {
            (None, None) => {}
            (Some((size, std::cmp::Reverse(total))), Some(chosen)) => {
                prop_assert!(brute_legal(&chosen.cards));
                prop_assert!(chosen.cards.iter().all(|c| chosen.symbol.on(c)));
                prop_assert_eq!(chosen.cards.len(), size);
                prop_assert_eq!(chosen.stars(), total);
                prop_assert!(collection::vp(size as u64).is_some());
            }
            (expected, got) => prop_assert!(false, "expected {:?}, got {:?}", expected, got),
        }
    }

    #[test]
    fn best_duel_pair_is_optimal(
        specs in prop::collection::vec(card_strategy(), 0..7),
        counts in prop::collection::vec(1u64..3, 7),
    ) {
        let cards = make_cards(&specs);
        let mut binder: Vec<Counted> = cards.iter().zip(&counts).map(|(c, n)| (c, *n)).collect();
        // Keep the brute force small: at most 9 physical cards.
        while binder.iter().map(|(_, n)| n).sum::<u64>() > 9 {
            let last = binder.len() - 1;
            if binder[last].1 > 1 { binder[last].1 -= 1 } else { binder.pop(); }
        }
        let flat = physical(&binder);
        // Every physical card goes to the element side, the type side or
        // neither: most cards, then lowest STAR total.
        let mut best = (0usize, std::cmp::Reverse(0u64));
        let n = flat.len();
        for code in 0..3u32.pow(n as u32) {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let mut c = code;
            for card in &flat {
                match c % 3 {
                    1 => a.push(*card),
                    2 => b.push(*card),
                    _ => {}
                }
                c /= 3;
            }
            if brute_legal_on(&a, true) && brute_legal_on(&b, false) {
                let key = (a.len() + b.len(), std::cmp::Reverse(stars(&a) + stars(&b)));
                if key > best {
                    best = key;
                }
            }
        }
        let pair = collection::best_duel(&binder);
        prop_assert_eq!(pair.size(), best.0 as u64);
        prop_assert_eq!(pair.stars(), best.1.0);
        prop_assert_eq!(pair.rp(), 10 * best.0 as u64);
        // The pair itself is legal and uses no card more often than owned.
        let a: Vec<&Card> = pair.element.iter().flat_map(|c| c.cards.clone()).collect();
        let b: Vec<&Card> = pair.kind_type.iter().flat_map(|c| c.cards.clone()).collect();
        prop_assert!(brute_legal_on(&a, true) && brute_legal_on(&b, false));
        if let Some(e) = &pair.element { prop_assert!(e.symbol.is_element()); }
        if let Some(t) = &pair.kind_type { prop_assert!(!t.symbol.is_element()); }
        for (card, owned) in &binder {
            let used = a.iter().chain(&b).filter(|c| c.id == card.id).count() as u64;
            prop_assert!(used <= *owned);
        }
    }

    #[test]
    fn swapping_trade_sides_changes_nothing_but_the_sign(
        specs in prop::collection::vec(card_strategy(), 1..6),
        a_picks in prop::collection::vec((0usize..6, 1u64..3), 0..5),
        b_picks in prop::collection::vec((0usize..6, 1u64..3), 0..5),
        a_money in (0u64..20, 0u64..4),
        b_money in (0u64..20, 0u64..4),
        free_market in any::<bool>(),
    ) {
        let cards = make_cards(&specs);
        let side = |picks: &[(usize, u64)], (dollars, friendship): (u64, u64)| Side {
            cards: picks.iter().map(|(i, n)| (&cards[i % cards.len()], *n)).collect(),
            dollars,
            friendship,
        };
        let a = side(&a_picks, a_money);
        let b = side(&b_picks, b_money);
        let ab = trade::check(&a, &b, free_market);
        let ba = trade::check(&b, &a, free_market);
        prop_assert_eq!(ab.violations.is_empty(), ba.violations.is_empty());
        prop_assert_eq!(ab.difference, -ba.difference);
        prop_assert_eq!(&ab.a, &ba.b);
        prop_assert_eq!(ab.balance.as_ref().map(|x| x.amount), ba.balance.as_ref().map(|x| x.amount));
        // Legal exactly when even (or in Free Market Mode); friendship never counts.
        prop_assert_eq!(ab.violations.is_empty(), free_market || ab.a.value == ab.b.value);
        let stars_a: u64 = a.cards.iter().map(|(c, n)| c.star_value() * n).sum();
        prop_assert_eq!(ab.a.value, stars_a + a.dollars);
        if !ab.violations.is_empty() {
            prop_assert_eq!(ab.violations[0].rule, rule::UNEQUAL_VALUE);
        }
    }
}

/// A player's VP by source, as random as the ranking must handle (small
/// numbers, so ties on every tie-break happen).
fn score_of(name: usize, vp: [u64; 4]) -> blades::rules::score::PlayerScore {
    blades::rules::score::PlayerScore {
        name: format!("p{name}"),
        rank: 0,
        total: vp.iter().sum(),
        tournament_vp: vp[0],
        collection_vp: vp[1],
        money_vp: vp[2],
        friendship_vp: vp[3],
        tournaments: Vec::new(),
        collections: Vec::new(),
        dollars: 0,
        friendship: Vec::new(),
    }
}

proptest! {
    /// The ranking against its definition: a player's rank is one more than
    /// the number of players ahead on total, then tournament, collection,
    /// money and Friendship VP; the order is best first.
    #[test]
    fn ranking_matches_brute_force(vps in prop::collection::vec(prop::array::uniform4(0u64..4), 0..7)) {
        let players: Vec<_> = vps.iter().enumerate().map(|(i, vp)| score_of(i, *vp)).collect();
        let key = |p: &blades::rules::score::PlayerScore| {
            (p.total, p.tournament_vp, p.collection_vp, p.money_vp, p.friendship_vp)
        };
        let mut ranked = players.clone();
        blades::rules::score::rank(&mut ranked);
        prop_assert_eq!(ranked.len(), players.len());
        for p in &ranked {
            let ahead = players.iter().filter(|q| key(q) > key(p)).count();
            prop_assert_eq!(p.rank, ahead + 1, "{}", p.name);
        }
        for pair in ranked.windows(2) {
            prop_assert!(key(&pair[0]) >= key(&pair[1]));
        }
    }
}

/// A random deck as share-code lines: a character or none, and cards (by
/// id) with counts, in zones or not.
fn shared_lists() -> impl Strategy<Value = Vec<blades::rules::share::Shared>> {
    use blades::rules::share::Shared;
    let card = (
        prop::option::of(prop::sample::select(vec!["main", "millennium", "side"])),
        "[a-z]{1,8}(-[a-z]{1,6}){0,2}",
        1u64..5,
    )
        .prop_map(|(zone, id, count)| Shared::Card {
            zone: zone.map(str::to_string),
            id,
            count,
        });
    (
        prop::option::of(prop::sample::select(vec!["deques", "cardine"])),
        prop::collection::vec(card, 0..12),
    )
        .prop_map(|(character, cards)| {
            character
                .map(|c| Shared::Character(c.to_string()))
                .into_iter()
                .chain(cards)
                .collect()
        })
}

proptest! {
    /// Encode then decode is the identity (cards come back as their id
    /// tags), in any order; and any one character changed, dropped or added
    /// is an error, never another list.
    #[test]
    fn share_codes_round_trip_and_catch_any_one_typo(
        list in shared_lists(),
        at in any::<prop::sample::Index>(),
        replacement in prop::sample::select("0123456789ABCDEFGHJKMNPQRSTVWXYZ-x".chars().collect::<Vec<_>>()),
        edit in 0..3u8,
    ) {
        use blades::rules::share::{self, Shared};
        let tagged = |lines: &[Shared]| {
            let mut lines: Vec<Shared> = lines.iter().map(|line| match line {
                // Decoded lines hold tags already; the list's ids become theirs.
                Shared::Card { zone, id, count } => Shared::Card {
                    zone: zone.clone(),
                    id: match blades::cards::parse_tag(id) {
                        Some(_) => id.clone(),
                        None => format!("%{:08x}", blades::cards::id_tag(id)),
                    },
                    count: *count,
                },
                other => other.clone(),
            }).collect();
            lines.sort();
            lines
        };
        let code = share::encode(&list);
        let mut reversed = list.clone();
        reversed.reverse();
        prop_assert_eq!(&share::encode(&reversed), &code);
        let decoded = share::decode(&code).map(|d| tagged(&d));
        prop_assert_eq!(decoded.as_ref(), Ok(&tagged(&list)));
        // One character of the body changed, dropped or added.
        let body = code.len() - 4;
        let i = 4 + at.index(body);
        let mut typo: Vec<char> = code.chars().collect();
        match edit {
            0 => typo[i] = replacement,
            1 => { typo.remove(i); }
            _ => typo.insert(i, replacement),
        }
        let typo: String = typo.into_iter().collect();
        if typo != code {
            match share::decode(&typo) {
                Err(_) => {}
                Ok(other) => prop_assert_eq!(tagged(&other), tagged(&list), "{} read as another list", typo),
            }
        }
    }
}
