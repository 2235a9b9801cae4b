//! The pool-wide checks: unique set and card ids and names, each set's
//! header against its kind, symbols, the copy rule and set sizes. They run
//! over every card that could be read, and give the derived copies.

use foldhash::{HashMap, HashSet};
use std::ops::Range;

use rayon::prelude::*;

use crate::diagnostics::{Code, Diagnostic};
use crate::load::{CardSpans, LoadedCard, LoadedSet};
use crate::suggest::closest;
use crate::words::{BASE_TYPES, SetKind};

/// Derived copies of each card, by set (its index among the loaded sets)
/// and card (its index in the set's file).
#[derive(Debug, Clone, Default)]
pub struct Derived {
    /// Per set, (card index, copies) in card order.
    by_set: Vec<Vec<(usize, u8)>>,
}

impl Derived {
    /// The copies of a card, when the copy rule or the card gives them.
    pub fn copies(&self, set_index: usize, card_index: usize) -> Option<u8> {
        let cards = self.by_set.get(set_index)?;
        let at = cards.binary_search_by_key(&card_index, |&(i, _)| i).ok()?;
        Some(cards[at].1)
    }
}

impl Derived {
    /// The copies of the sets `wanted` picks (by index), without their
    /// findings (the pool checks report those).
    pub(super) fn of(sets: &[LoadedSet], wanted: impl Fn(usize) -> bool + Sync) -> Derived {
        let by_set = sets
            .par_iter()
            .enumerate()
            .map(|(i, set)| match wanted(i) {
                true => {
                    let mut copies = check_copies(set, &mut Vec::new());
                    copies.sort_unstable_by_key(|&(index, _)| index);
                    copies
                }
                false => Vec::new(),
            })
            .collect();
        Derived { by_set }
    }
}

/// One set's own pool checks: findings, and copies by card index.
type SetChecks = (Vec<Diagnostic>, Vec<(usize, u8)>);

/// The pool-wide checks.
pub fn check_pool(sets: &[LoadedSet], out: &mut Vec<Diagnostic>) -> Derived {
    let declared_types: HashSet<&str> = sets
        .iter()
        .flat_map(|s| s.set.extra_types.iter().map(|t| t.0.as_str()))
        .chain(BASE_TYPES)
        .collect();
    // Uniqueness looks across sets; the rest is set by set, in parallel.
    let (unique, per_set) = rayon::join(
        || {
            let mut found = Vec::new();
            check_unique_sets(sets, &mut found);
            check_unique_cards(sets, &mut found);
            found
        },
        || -> Vec<SetChecks> {
            sets.par_iter()
                .map(|set| {
                    let mut found = Vec::new();
                    check_set_header(set, &mut found);
                    for card in &set.cards {
                        check_card_symbols(set, card, &declared_types, &mut found);
                    }
                    let copies = check_copies(set, &mut found);
                    (found, copies)
                })
                .collect()
        },
    );
    out.extend(unique);
    let mut by_set = Vec::with_capacity(per_set.len());
    for (found, mut copies) in per_set {
        out.extend(found);
        copies.sort_unstable_by_key(|&(index, _)| index);
        by_set.push(copies);
    }
    Derived { by_set }
}

fn check_unique_sets(sets: &[LoadedSet], out: &mut Vec<Diagnostic>) {
    let mut seen: HashMap<&str, &LoadedSet> = HashMap::default();
    for set in sets {
        match seen.get(set.set.id.0.as_str()) {
            Some(first) => out.push(
                Diagnostic::error(
                    Code::DuplicateSetId,
                    &set.path,
                    set.spans.id.clone(),
                    format!("set id `{}` is already used by {}", set.set.id, first.path),
                )
                .with_label("used again here")
                .with_related(&first.path, first.spans.id.clone(), "first used here")
                .with_help("give each set its own id"),
            ),
            None => {
                seen.insert(&set.set.id.0, set);
            }
        }
    }
}

fn check_unique_cards(sets: &[LoadedSet], out: &mut Vec<Diagnostic>) {
    // Ids and names are independent: checked side by side (on a large pool
    // this was the longest step between the parallel phases).
    let cards = || {
        sets.iter()
            .flat_map(|set| set.cards.iter().map(move |c| (set, c)))
    };
    let count = sets.iter().map(|s| s.cards.len()).sum();
    let (ids, names) = rayon::join(
        || {
            let mut found = Vec::new();
            let mut first: HashMap<&str, (&LoadedSet, &LoadedCard)> = HashMap::default();
            first.reserve(count);
            for (set, loaded) in cards() {
                let id = loaded.card.id.0.as_str();
                match first.get(id) {
                    Some(&(first_set, first_card)) => {
                        found.push(duplicate_card_id(set, loaded, first_set, first_card))
                    }
                    None => {
                        first.insert(id, (set, loaded));
                    }
                }
            }
            found
        },
        || {
            let mut found = Vec::new();
            let mut names = FoldedNames::with_capacity(count);
            for (set, loaded) in cards() {
                if let Some((first_set, first_card)) =
                    names.insert(&loaded.card.name, (set, loaded))
                {
                    found.push(duplicate_card_name(set, loaded, first_set, first_card));
                }
            }
            found
        },
    );
    out.extend(ids);
    out.extend(names);
}

fn duplicate_card_id(
    set: &LoadedSet,
    loaded: &LoadedCard,
    first: &LoadedSet,
    first_card: &LoadedCard,
) -> Diagnostic {
    Diagnostic::error(
        Code::DuplicateCardId,
        &set.path,
        loaded.spans.id.clone(),
        format!(
            "card id `{}` is already used in {}",
            loaded.card.id, first.path
        ),
    )
    .with_label("used again here")
    .with_related(&first.path, first_card.spans.id.clone(), "first used here")
    .with_help("card ids are unique across the whole pool; rename one of them")
}

fn duplicate_card_name(
    set: &LoadedSet,
    loaded: &LoadedCard,
    first: &LoadedSet,
    first_card: &LoadedCard,
) -> Diagnostic {
    Diagnostic::error(
        Code::DuplicateCardName,
        &set.path,
        loaded.spans.name.clone(),
        format!(
            "card name `{}` is already used by `{}` in {}",
            loaded.card.name, first_card.card.name, first.path
        ),
    )
    .with_label("used again here")
    .with_related(
        &first.path,
        first_card.spans.name.clone(),
        "first used here",
    )
    .with_help("card names are unique across the pool, ignoring case")
}

/// Names compared ignoring case (as `str::to_lowercase` folds them), keyed
/// by a hash of the folded characters so that no folded copy of each name
/// is made: a large pool has 100,000 of them.
struct FoldedNames<'a, T> {
    /// First name (and its value) for each hash.
    first: HashMap<u64, (&'a str, T)>,
    /// Names whose hash an unequal name took first (a 64-bit collision:
    /// kept correct, not expected to happen).
    others: HashMap<String, T>,
}

impl<'a, T: Copy> FoldedNames<'a, T> {
    fn with_capacity(count: usize) -> Self {
        let mut first = HashMap::default();
        first.reserve(count);
        FoldedNames {
            first,
            others: HashMap::default(),
        }
    }

    /// Records `name`; returns the value of an earlier name equal to it
    /// ignoring case (keeping the earlier one).
    fn insert(&mut self, name: &'a str, value: T) -> Option<T> {
        self.insert_hashed(fold_hash(name), name, value)
    }

    fn insert_hashed(&mut self, hash: u64, name: &'a str, value: T) -> Option<T> {
        match self.first.entry(hash) {
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert((name, value));
                None
            }
            std::collections::hash_map::Entry::Occupied(slot) => {
                let (earlier, earlier_value) = *slot.get();
                let folded = name.to_lowercase();
                if earlier.to_lowercase() == folded {
                    return Some(earlier_value);
                }
                match self.others.entry(folded) {
                    std::collections::hash_map::Entry::Vacant(slot) => {
                        slot.insert(value);
                        None
                    }
                    std::collections::hash_map::Entry::Occupied(slot) => Some(*slot.get()),
                }
            }
        }
    }
}

/// A hash of a name's characters as `str::to_lowercase` folds them: equal
/// folded names hash equal. (`to_lowercase` writes a final capital sigma
/// as `ς` and others as `σ`; both hash as `σ`.)
fn fold_hash(name: &str) -> u64 {
    use std::hash::BuildHasher;
    let state = foldhash::fast::FixedState::default();
    // The folded name is spelled out (as UTF-8) and hashed once: hashing
    // it character by character took twice as long. Short names, nearly
    // all of them, are spelled in a stack buffer.
    let mut buffer = [0u8; 128];
    if name.is_ascii() && name.len() <= buffer.len() {
        let folded = &mut buffer[..name.len()];
        folded.copy_from_slice(name.as_bytes());
        folded.make_ascii_lowercase();
        return state.hash_one(&*folded);
    }
    let mut folded = Vec::with_capacity(name.len());
    let mut utf8 = [0u8; 4];
    for c in name.chars().flat_map(char::to_lowercase) {
        let c = if c == 'ς' { 'σ' } else { c };
        folded.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
    }
    state.hash_one(&folded[..])
}

fn check_set_header(set: &LoadedSet, out: &mut Vec<Diagnostic>) {
    let kind = set.set.kind;
    match (kind.is_store_set(), set.set.cost) {
        (true, None) => out.push(
            Diagnostic::error(
                Code::MissingCost,
                &set.path,
                set.spans.kind_key.clone(),
                format!(
                    "a {} set is sold in the Store and needs a buy cost",
                    kind.as_str()
                ),
            )
            .with_label("store set without `cost`")
            .with_help("add `cost: <Millennium Dollars>` (e.g. `cost: 5`)"),
        ),
        (false, Some(_)) => out.push(
            Diagnostic::error(
                Code::UnexpectedCost,
                &set.path,
                set.spans.cost_key.clone(),
                format!(
                    "a {} set is not sold in the Store, so it has no buy cost",
                    kind.as_str()
                ),
            )
            .with_label("not a store set")
            .with_help("remove `cost`; only core, expansion, premium and master sets have one"),
        ),
        _ => {}
    }
    if !set.set.extra_types.is_empty() && kind != SetKind::ProPlayer {
        out.push(
            Diagnostic::error(
                Code::ExtraTypesOutsideProPlayer,
                &set.path,
                set.spans.extra_types_key.clone(),
                "only Pro Player sets declare extra types",
            )
            .with_label("extra types here")
            .with_help("use a base type (animal, myth, construct, citizen, soldier, mage), or make this a pro-player set"),
        );
    }
}

fn check_card_symbols(
    set: &LoadedSet,
    loaded: &LoadedCard,
    declared: &HashSet<&str>,
    out: &mut Vec<Diagnostic>,
) {
    let card = &loaded.card;
    for (i, ty) in card.types.iter().enumerate() {
        if !declared.contains(ty.0.as_str()) {
            let mut known: Vec<&str> = declared.iter().copied().collect();
            known.sort_unstable();
            let help = match closest(&ty.0, known.iter().copied()) {
                Some(best) => format!("did you mean `{best}`? Known types: {}", known.join(", ")),
                None => format!(
                    "known types: {}; a Pro Player set may declare more in `extra-types`",
                    known.join(", ")
                ),
            };
            out.push(
                Diagnostic::error(
                    Code::UnknownType,
                    &set.path,
                    CardSpans::item(&loaded.spans.types, i),
                    format!("unknown type `{ty}` on `{}`", card.name),
                )
                .with_label("unknown type")
                .with_help(help),
            );
        }
    }
    // Symbols in card order, each with its span: a symbol listed before is
    // a duplicate.
    let symbols = card
        .elements
        .iter()
        .map(|e| e.as_str())
        .zip(spans_of(&loaded.spans.elements, card.elements.len()))
        .chain(
            card.types
                .iter()
                .map(|t| t.0.as_str())
                .zip(spans_of(&loaded.spans.types, card.types.len())),
        );
    // A card has a handful of symbols: comparing with the ones before is
    // cheaper than a set per card (100,000 of them), and a hostile card
    // with thousands still gets a set.
    const FEW: usize = 16;
    if card.elements.len() + card.types.len() <= FEW {
        let mut seen: [&str; FEW] = [""; FEW];
        for (count, (symbol, span)) in symbols.enumerate() {
            if seen[..count].contains(&symbol) {
                out.push(duplicate_symbol(set, span, symbol));
            }
            seen[count] = symbol;
        }
    } else {
        let mut seen = HashSet::default();
        for (symbol, span) in symbols {
            if !seen.insert(symbol) {
                out.push(duplicate_symbol(set, span, symbol));
            }
        }
    }
}

/// The span of each of the first `count` items of a list.
fn spans_of(list: &[Range<usize>], count: usize) -> impl Iterator<Item = Range<usize>> + '_ {
    (0..count).map(|i| CardSpans::item(list, i))
}

fn duplicate_symbol(set: &LoadedSet, span: Range<usize>, symbol: &str) -> Diagnostic {
    Diagnostic::error(
        Code::DuplicateSymbol,
        &set.path,
        span,
        format!("`{symbol}` is listed twice"),
    )
    .with_label("listed again here")
    .with_help(format!("remove the second `{symbol}`"))
}

/// The copy rule: in a set, the highest-STAR card has 1 copy, the lowest 3,
/// every other card 2; starters, promos and Pro Player sets have 1 of each;
/// Core Set cards state their copies. Ties: every card tied for highest has
/// 1 copy and every card tied for lowest 3; when all cards share one STAR,
/// each has 2 (see docs/decisions.md).
pub(crate) fn derive_copies(kind: SetKind, stars: &[u8]) -> Vec<Option<u8>> {
    if kind == SetKind::Core {
        return vec![None; stars.len()];
    }
    if kind.single_copies() {
        return vec![Some(1); stars.len()];
    }
    let high = stars.iter().copied().max().unwrap_or(0);
    let low = stars.iter().copied().min().unwrap_or(0);
    stars
        .iter()
        .map(|&s| {
            Some(if high == low {
                2
            } else if s == high {
                1
            } else if s == low {
                3
            } else {
                2
            })
        })
        .collect()
}

/// Applies the copy rule and the physical set size; returns each card's copies.
fn check_copies(set: &LoadedSet, out: &mut Vec<Diagnostic>) -> Vec<(usize, u8)> {
    let kind = set.set.kind;
    let stars: Vec<u8> = set.cards.iter().map(|c| c.card.stars).collect();
    let rule = derive_copies(kind, &stars);
    let mut result = Vec::with_capacity(set.cards.len());
    for (loaded, derived) in set.cards.iter().zip(rule) {
        let card = &loaded.card;
        let copies = match (derived, card.copies) {
            (None, Some(stated)) => stated,
            (None, None) => {
                out.push(
                    Diagnostic::error(
                        Code::MissingCopies,
                        &set.path,
                        loaded.spans.id_key.clone(),
                        format!("core set card `{}` must state its copies", card.name),
                    )
                    .with_label("no `copies`")
                    .with_help(
                        "the copy rule does not apply to the Core Set: add `copies: 1`, `2` or `3`",
                    ),
                );
                1
            }
            (Some(derived), Some(stated)) if stated != derived => {
                out.push(
                    Diagnostic::error(
                        Code::CopiesMismatch,
                        &set.path,
                        loaded.spans.copies.clone(),
                        format!(
                            "`{}` states `copies: {stated}`, but the copy rule gives {derived}",
                            card.name
                        ),
                    )
                    .with_label(format!("the copy rule gives {derived}"))
                    .with_help(copy_rule_help(kind)),
                );
                derived
            }
            (Some(derived), _) => derived,
        };
        result.push((loaded.index, copies));
    }
    if let Some(expected) = kind.physical_size() {
        let physical: u32 = result.iter().map(|(_, c)| u32::from(*c)).sum();
        // Skipped when a card could not be read: its copies are unknown.
        if physical != expected && Some(set.cards.len()) == set.listed_cards {
            out.push(
                Diagnostic::error(
                    Code::SetSize,
                    &set.path,
                    set.spans.cards_key.clone(),
                    format!(
                        "a {} set has {expected} physical cards; these cards make {physical}",
                        kind.as_str()
                    ),
                )
                .with_label(format!("{physical} physical"))
                .with_help(set_size_help(kind)),
            );
        }
    }
    result
}

fn copy_rule_help(kind: SetKind) -> String {
    if kind.single_copies() {
        format!(
            "every card of a {} set has 1 copy; remove `copies`",
            kind.as_str()
        )
    } else {
        "highest STAR: 1 copy, lowest STAR: 3, others: 2; remove `copies` or fix the STARs".into()
    }
}

fn set_size_help(kind: SetKind) -> String {
    match kind {
        SetKind::Expansion | SetKind::Premium | SetKind::Master => {
            "12 physical cards are 6 different cards: one unique highest STAR (1 copy), one unique lowest (3), four in between (2 each)".into()
        }
        SetKind::Starter => "a starter deck is 9 different cards, 1 copy each".into(),
        SetKind::ProPlayer => "a Pro Player set is 5 different cards, 1 copy each".into(),
        _ => "a promo set is 6 different cards, 1 copy each".into(),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::compile::compile;
    use crate::pool::{Pool, SourceFile};

    /// What `FoldedNames` must agree with: a map of `to_lowercase` copies.
    fn naive_duplicates(names: &[&str]) -> Vec<Option<usize>> {
        let mut first: std::collections::HashMap<String, usize> = Default::default();
        names
            .iter()
            .enumerate()
            .map(|(i, n)| match first.get(&n.to_lowercase()) {
                Some(&f) => Some(f),
                None => {
                    first.insert(n.to_lowercase(), i);
                    None
                }
            })
            .collect()
    }

    #[test]
    fn names_that_share_a_hash_but_differ_are_told_apart() {
        let names = ["Wyrm", "Owl", "OWL", "wyrm", "Gull", "owl"];
        let mut folded = FoldedNames::with_capacity(names.len());
        // Every name under one hash: the collision path does all the work.
        let found: Vec<Option<usize>> = names
            .iter()
            .enumerate()
            .map(|(i, n)| folded.insert_hashed(7, n, i))
            .collect();
        assert_eq!(found, naive_duplicates(&names));
    }

    #[test]
    fn every_symbol_listed_again_is_reported_on_small_and_hostile_cards() {
        for count in [3, 40] {
            let elements = vec!["fire"; count].join(", ");
            let text = format!(
                "id: test-set\nname: Test Set\nkind: gold-promo\ncards:\n  - id: test-card\n    name: Test Card\n    kind: single\n    stars: 1\n    elements: [{elements}, water]\n    types: [citizen, citizen]\n"
            );
            let mut pool = Pool::default();
            pool.sets.push(SourceFile::new(
                Arc::from("t.yaml"),
                "t.yaml".into(),
                Arc::from(text),
            ));
            let compiled = compile(&pool);
            let again: Vec<&Diagnostic> = compiled
                .diagnostics
                .iter()
                .filter(|d| d.code == Code::DuplicateSymbol)
                .collect();
            // Every `fire` after the first, and the second `citizen`.
            assert_eq!(again.len(), count, "{again:?}");
            assert!(again.windows(2).all(|w| w[0].span.start < w[1].span.start));
        }
    }

    #[test]
    fn long_names_are_folded_too() {
        let long = "Ab".repeat(100);
        let names = [
            long.as_str(),
            &long.to_uppercase(),
            &format!("{long}K"),
            &format!("{long}k"),
        ];
        let mut folded = FoldedNames::with_capacity(names.len());
        let found: Vec<Option<usize>> = names
            .iter()
            .enumerate()
            .map(|(i, n)| folded.insert(n, i))
            .collect();
        assert_eq!(found, [None, Some(0), None, Some(2)]);
    }

    proptest::proptest! {
        #[test]
        fn folded_names_find_the_duplicates_lowercase_copies_find(
            // The Kelvin sign folds to an ASCII `k`: both spellings of a
            // folded name must hash alike.
            names in proptest::collection::vec("[aAbBkKK ΣσςİiIΩ]{0,4}", 0..24)
        ) {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let mut folded = FoldedNames::with_capacity(names.len());
            let found: Vec<Option<usize>> =
                names.iter().enumerate().map(|(i, n)| folded.insert(n, i)).collect();
            proptest::prop_assert_eq!(found, naive_duplicates(&names));
        }
    }

    #[test]
    fn copy_rule_for_a_twelve_card_set() {
        let copies = derive_copies(SetKind::Expansion, &[1, 2, 3, 4, 5, 6]);
        let copies: Vec<u8> = copies.into_iter().map(Option::unwrap).collect();
        assert_eq!(copies, [3, 2, 2, 2, 2, 1]);
        assert_eq!(copies.iter().map(|&c| u32::from(c)).sum::<u32>(), 12);
    }

    #[test]
    fn copy_rule_ties_share() {
        let copies = derive_copies(SetKind::Premium, &[2, 2, 4, 6, 6]);
        assert_eq!(copies, [Some(3), Some(3), Some(2), Some(1), Some(1)]);
        assert_eq!(derive_copies(SetKind::Master, &[4, 4]), [Some(2), Some(2)]);
    }

    #[test]
    fn copy_rule_single_copy_kinds_and_core() {
        assert_eq!(
            derive_copies(SetKind::GoldPromo, &[1, 9]),
            [Some(1), Some(1)]
        );
        assert_eq!(derive_copies(SetKind::Starter, &[1, 2]), [Some(1), Some(1)]);
        assert_eq!(derive_copies(SetKind::Core, &[1, 2]), [None, None]);
    }
}
