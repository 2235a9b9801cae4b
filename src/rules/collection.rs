//! Collections: 2 to 8 cards with one symbol (an element or a type) common to
//! all of them and a different STAR each.
//!
//! [`check`] judges a given collection; [`best`] finds the collection worth
//! the most VP in a binder and [`best_duel`] the best Duel Mode pair (one
//! element collection and one type collection using different physical
//! cards). Both searches are exact; the tie-breaks are in
//! `docs/decisions.md`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use super::{Common, Counted, Violation, ids, list_names, plural, rule};
use crate::model::Card;
use crate::words::{BASE_TYPES, Element, Id};

pub(crate) const MIN_CARDS: u64 = 2;
pub(crate) const MAX_CARDS: u64 = 8;
/// Duel Mode: Ranking Points per card of a collection.
pub const RP_PER_CARD: u64 = 10;

/// Victory Points of a legal collection of `size` cards.
pub fn vp(size: u64) -> Option<u64> {
    const TABLE: [u64; 7] = [2, 4, 7, 9, 12, 16, 21];
    (MIN_CARDS..=MAX_CARDS)
        .contains(&size)
        .then(|| TABLE[(size - MIN_CARDS) as usize])
}

/// A symbol a collection can be built on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Symbol {
    Element(Element),
    Type(Id),
}

impl Symbol {
    pub fn as_str(&self) -> &str {
        match self {
            Symbol::Element(e) => e.as_str(),
            Symbol::Type(t) => &t.0,
        }
    }

    pub fn is_element(&self) -> bool {
        matches!(self, Symbol::Element(_))
    }

    /// The fixed order of symbols, for ties: elements in rulebook order
    /// (fire, air, light, water, earth, dark), then the base types in
    /// rulebook order (animal, myth, construct, citizen, soldier, mage),
    /// then other types by id.
    fn rank(&self) -> (u8, usize, &str) {
        match self {
            Symbol::Element(e) => (0, Element::ALL.iter().position(|x| x == e).unwrap_or(0), ""),
            Symbol::Type(t) => match BASE_TYPES.iter().position(|b| *b == t.0) {
                Some(i) => (1, i, ""),
                None => (2, 0, &t.0),
            },
        }
    }

    pub fn on(&self, card: &Card) -> bool {
        match self {
            Symbol::Element(e) => card.elements.contains(e),
            Symbol::Type(t) => card.types.contains(t),
        }
    }
}

impl Ord for Symbol {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl PartialOrd for Symbol {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Every symbol of a card.
pub fn symbols(card: &Card) -> impl Iterator<Item = Symbol> + '_ {
    card.elements
        .iter()
        .map(|e| Symbol::Element(*e))
        .chain(card.types.iter().map(|t| Symbol::Type(t.clone())))
}

/// The symbols every card carries, in symbol order.
pub(crate) fn shared_symbols(cards: &[&Card]) -> Vec<Symbol> {
    let Some(first) = cards.first() else {
        return Vec::new();
    };
    let mut shared: Vec<Symbol> = symbols(first)
        .filter(|s| cards.iter().all(|c| s.on(c)))
        .collect();
    shared.sort();
    shared.dedup();
    shared
}

/// What a collection check found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CollectionOutcome {
    /// Physical cards.
    pub size: u64,
    /// Symbols common to every card (the declared one only, when given).
    pub symbols: Vec<Symbol>,
    pub violations: Vec<Violation>,
}

/// Checks a collection. `on`: the symbol it must be built on (Turn-based
/// and Duel Mode declare it), or any shared symbol.
pub fn check(cards: &[Counted], on: Option<&Symbol>) -> CollectionOutcome {
    let physical: Vec<&Card> = cards
        .iter()
        .flat_map(|(c, n)| std::iter::repeat_n(*c, (*n).min(MAX_CARDS + 1) as usize))
        .collect();
    let size: u64 = cards.iter().map(|(_, n)| n).sum();
    let mut violations = Vec::new();
    if size < MIN_CARDS {
        violations.push(Violation::new(
            rule::TOO_FEW_CARDS,
            format!(
                "a collection has {MIN_CARDS} to {MAX_CARDS} cards; this one has {}: add cards that share its symbol",
                size
            ),
            ids(physical.iter().copied()),
        ));
    }
    if size > MAX_CARDS {
        violations.push(Violation::new(
            rule::TOO_MANY_CARDS,
            format!(
                "a collection has at most {MAX_CARDS} cards; this one has {size}: leave {} out",
                plural(size - MAX_CARDS, "card", "cards")
            ),
            ids(physical.iter().copied()),
        ));
    }
    let shared = match on {
        Some(symbol) => {
            let lacking: Vec<&Card> = physical.iter().copied().filter(|c| !symbol.on(c)).collect();
            if lacking.is_empty() {
                vec![symbol.clone()]
            } else {
                let (verb, them) = lack_words(&lacking);
                violations.push(Violation::new(
                    rule::NO_SHARED_SYMBOL,
                    format!(
                        "the collection is built on `{}`, which {} {verb}: leave {them} out",
                        symbol.as_str(),
                        list_names(names(&lacking)),
                    ),
                    ids(lacking),
                ));
                Vec::new()
            }
        }
        None => {
            let shared = shared_symbols(&physical);
            if shared.is_empty() && !physical.is_empty() {
                violations.push(no_shared_symbol(&physical));
            }
            shared
        }
    };
    // One violation per repeated STAR, in STAR order.
    let mut by_star: BTreeMap<u8, Vec<&Card>> = BTreeMap::new();
    for card in &physical {
        // A card with no STAR is no player's and never reaches a
        // collection (`rules::table_cards`); it repeats no STAR.
        if let Some(star) = card.stars {
            by_star.entry(star).or_default().push(card);
        }
    }
    for (star, group) in by_star.into_iter().filter(|(_, g)| g.len() > 1) {
        let distinct = ids(group.iter().copied());
        let what = if distinct.len() == 1 {
            format!(
                "{} is there {} times ({star} STAR): keep one",
                list_names(names(&group[..1])),
                group.len()
            )
        } else {
            format!(
                "{} have the same STAR ({star}): keep one of them",
                list_names(names(&dedup(&group)))
            )
        };
        violations.push(Violation::new(
            rule::DUPLICATE_STAR,
            format!("every card of a collection has a different STAR; {what}"),
            distinct,
        ));
    }
    CollectionOutcome {
        size,
        symbols: shared,
        violations,
    }
}

fn dedup<'a>(cards: &[&'a Card]) -> Vec<&'a Card> {
    let mut out: Vec<&Card> = Vec::new();
    for c in cards {
        if !out.iter().any(|o| o.id == c.id) {
            out.push(c);
        }
    }
    out
}

/// "lacks"/"it" for one card, "lack"/"them" for several.
fn lack_words(cards: &[&Card]) -> (&'static str, &'static str) {
    if dedup(cards).len() == 1 {
        ("lacks", "it")
    } else {
        ("lack", "them")
    }
}

fn names<'a>(cards: &[&'a Card]) -> Vec<&'a str> {
    dedup(cards).into_iter().map(|c| c.name.as_str()).collect()
}

/// No symbol is on every card: name the symbol on most cards and the cards
/// that lack it.
fn no_shared_symbol(cards: &[&Card]) -> Violation {
    let mut counts: BTreeMap<Symbol, usize> = BTreeMap::new();
    for card in dedup(cards) {
        let mut own: Vec<Symbol> = symbols(card).collect();
        own.sort();
        own.dedup();
        for s in own {
            *counts.entry(s).or_default() += 1;
        }
    }
    let best = counts
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
        .map(|(s, _)| s.clone());
    match best {
        Some(symbol) => {
            let lacking: Vec<&Card> = cards.iter().copied().filter(|c| !symbol.on(c)).collect();
            let (verb, them) = lack_words(&lacking);
            Violation::new(
                rule::NO_SHARED_SYMBOL,
                format!(
                    "no element or type is on every card; `{}` is on the most, and {} {verb} it: leave {them} out or swap {them} for cards with `{}`",
                    symbol.as_str(),
                    list_names(names(&lacking)),
                    symbol.as_str()
                ),
                ids(lacking),
            )
        }
        None => Violation::new(
            rule::NO_SHARED_SYMBOL,
            "no card has an element or a type, so they cannot form a collection",
            ids(cards.iter().copied()),
        ),
    }
}

/// A collection chosen from a binder.
#[derive(Debug, Clone, PartialEq)]
pub struct Chosen<'a> {
    pub symbol: Symbol,
    /// In STAR order.
    pub cards: Vec<&'a Card>,
}

impl Chosen<'_> {
    pub fn stars(&self) -> u64 {
        self.cards.iter().map(|c| c.star_value()).sum()
    }
}

/// The legal collection worth the most VP in a binder, or none.
///
/// Exact: VP grows with size, so on each symbol the best collection is one
/// card of each of its distinct STARs, at most 8. Ties: most VP, then the
/// lowest STAR total (the valuable cards stay in the binder), then the
/// symbol order of [`Symbol`], and on a STAR the card with the smallest id.
pub fn best<'a>(binder: &[Counted<'a>]) -> Option<Chosen<'a>> {
    let mut best: Option<Chosen> = None;
    for chosen in best_each(binder) {
        let better = match &best {
            None => true,
            Some(b) => {
                (chosen.cards.len(), std::cmp::Reverse(chosen.stars()))
                    > (b.cards.len(), std::cmp::Reverse(b.stars()))
            }
        };
        if better {
            best = Some(chosen);
        }
    }
    best
}

/// The best collection on each symbol of a binder that has one, in symbol
/// order ([`best`] picks among them).
pub fn best_each<'a>(binder: &[Counted<'a>]) -> Vec<Chosen<'a>> {
    (binder_symbols(binder).iter())
        .filter_map(|symbol| best_on(binder, symbol))
        .collect()
}

/// Every symbol in a binder, in symbol order.
fn binder_symbols(binder: &[Counted]) -> Vec<Symbol> {
    let mut all: Vec<Symbol> = binder
        .iter()
        .filter(|(_, n)| *n > 0)
        .flat_map(|(c, _)| symbols(c))
        .collect();
    all.sort();
    all.dedup();
    all
}

/// The best collection on one symbol: the lowest STARs, smallest id each.
fn best_on<'a>(binder: &[Counted<'a>], symbol: &Symbol) -> Option<Chosen<'a>> {
    let mut by_star: BTreeMap<u8, &Card> = BTreeMap::new();
    for (card, n) in binder {
        let Some(star) = card.stars.filter(|_| *n > 0 && symbol.on(card)) else {
            continue;
        };
        by_star
            .entry(star)
            .and_modify(|c| {
                if card.id < c.id {
                    *c = card;
                }
            })
            .or_insert(card);
    }
    let cards: Vec<&Card> = by_star.into_values().take(MAX_CARDS as usize).collect();
    (cards.len() as u64 >= MIN_CARDS).then(|| Chosen {
        symbol: symbol.clone(),
        cards,
    })
}

/// The best Duel Mode pair.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DuelPair<'a> {
    pub element: Option<Chosen<'a>>,
    pub kind_type: Option<Chosen<'a>>,
}

impl DuelPair<'_> {
    pub fn size(&self) -> u64 {
        self.element
            .iter()
            .chain(&self.kind_type)
            .map(|c| c.cards.len() as u64)
            .sum()
    }

    pub fn rp(&self) -> u64 {
        self.size() * RP_PER_CARD
    }

    pub fn stars(&self) -> u64 {
        self.element
            .iter()
            .chain(&self.kind_type)
            .map(Chosen::stars)
            .sum()
    }
}

/// One STAR's cards for an (element, type) pair: which uses are possible
/// and with which cards.
#[derive(Clone, Copy, Default)]
struct StarOptions<'a> {
    element_only: Option<&'a Card>,
    type_only: Option<&'a Card>,
    both: Option<(&'a Card, &'a Card)>,
}

const SIDE: usize = MAX_CARDS as usize + 1;

/// The Duel Mode pair with the most cards: an element collection and a type
/// collection (either may be missing) whose physical cards are different
/// (a card used by both needs two copies in the binder).
///
/// Exact: cards of different STARs never compete, so for each (element,
/// type) a dynamic programme over the STARs tracks, for every pair of sizes
/// (up to 8 each), the lowest STAR total. Ties: most cards, then the lowest
/// STAR total, then the larger element collection, then symbol order.
pub fn best_duel<'a>(binder: &[Counted<'a>]) -> DuelPair<'a> {
    let symbols = binder_symbols(binder);
    let elements: Vec<Option<&Symbol>> = symbols
        .iter()
        .filter(|s| s.is_element())
        .map(Some)
        .chain([None])
        .collect();
    let types: Vec<Option<&Symbol>> = symbols
        .iter()
        .filter(|s| !s.is_element())
        .map(Some)
        .chain([None])
        .collect();
    let mut best = DuelPair::default();
    let mut best_key = (0u64, std::cmp::Reverse(0u64), 0u64);
    for element in &elements {
        for kind_type in &types {
            let pair = best_for(binder, *element, *kind_type);
            let key = (
                pair.size(),
                std::cmp::Reverse(pair.stars()),
                pair.element.as_ref().map_or(0, |c| c.cards.len() as u64),
            );
            if key > best_key {
                best_key = key;
                best = pair;
            }
        }
    }
    best
}

fn best_for<'a>(
    binder: &[Counted<'a>],
    element: Option<&Symbol>,
    kind_type: Option<&Symbol>,
) -> DuelPair<'a> {
    let options = star_options(binder, element, kind_type);
    let dp = cheapest_sizes(&options);
    let Some((a, b)) = best_sizes(&dp) else {
        return DuelPair::default();
    };
    let path = dp[a][b]
        .as_ref()
        .map(|(_, p)| p.clone())
        .unwrap_or_default();
    let mut element_cards = Vec::new();
    let mut type_cards = Vec::new();
    for ((_, o), code) in options.iter().zip(path) {
        match code {
            1 => element_cards.extend(o.element_only),
            2 => type_cards.extend(o.type_only),
            3 => {
                if let Some((x, y)) = o.both {
                    element_cards.push(x);
                    type_cards.push(y);
                }
            }
            _ => {}
        }
    }
    let chosen = |symbol: Option<&Symbol>, cards: Vec<&'a Card>| {
        symbol.filter(|_| !cards.is_empty()).map(|s| Chosen {
            symbol: s.clone(),
            cards,
        })
    };
    DuelPair {
        element: chosen(element, element_cards),
        kind_type: chosen(kind_type, type_cards),
    }
}

/// For each STAR among the binder's cards that carry either symbol: the
/// card to take for the element side, for the type side, and for both.
fn star_options<'a>(
    binder: &[Counted<'a>],
    element: Option<&Symbol>,
    kind_type: Option<&Symbol>,
) -> Vec<(u8, StarOptions<'a>)> {
    // Cards of each STAR carrying either symbol, smallest id first.
    let mut by_star: BTreeMap<u8, Vec<Counted<'a>>> = BTreeMap::new();
    for &(card, n) in binder {
        let e = element.is_some_and(|s| s.on(card));
        let t = kind_type.is_some_and(|s| s.on(card));
        if let Some(star) = card.stars.filter(|_| n > 0 && (e || t)) {
            by_star.entry(star).or_default().push((card, n));
        }
    }
    let mut options: Vec<(u8, StarOptions<'a>)> = Vec::new();
    for (star, mut cards) in by_star {
        cards.sort_by(|a, b| a.0.id.cmp(&b.0.id));
        let on_e = |c: &Card| element.is_some_and(|s| s.on(c));
        let on_t = |c: &Card| kind_type.is_some_and(|s| s.on(c));
        let mut o = StarOptions {
            element_only: cards.iter().map(|(c, _)| *c).find(|c| on_e(c)),
            type_only: cards.iter().map(|(c, _)| *c).find(|c| on_t(c)),
            both: None,
        };
        // The first pair (element card, type card) in id order that uses two
        // physical cards.
        'outer: for (a, na) in cards.iter().filter(|(c, _)| on_e(c)) {
            for (b, _) in cards.iter().filter(|(c, _)| on_t(c)) {
                if a.id != b.id || *na >= 2 {
                    o.both = Some((a, b));
                    break 'outer;
                }
            }
        }
        options.push((star, o));
    }
    options
}

/// dp[a][b]: the lowest STAR total reaching sizes (a, b), and the use made
/// of each STAR so far (0 none, 1 element, 2 type, 3 both).
type SizeTable = Vec<Vec<Option<(u64, Vec<u8>)>>>;

fn cheapest_sizes(options: &[(u8, StarOptions<'_>)]) -> SizeTable {
    let mut dp: SizeTable = vec![vec![None; SIDE]; SIDE];
    dp[0][0] = Some((0, Vec::new()));
    for (star, o) in options {
        let mut next: SizeTable = vec![vec![None; SIDE]; SIDE];
        let moves = [
            (0, 0, true, 0u8),
            (1, 0, o.element_only.is_some(), 1u8),
            (0, 1, o.type_only.is_some(), 2u8),
            (1, 1, o.both.is_some(), 3u8),
        ];
        for (a, row) in dp.iter().enumerate() {
            for (b, cell) in row.iter().enumerate() {
                let Some((total, path)) = cell else {
                    continue;
                };
                for (da, db, possible, code) in moves {
                    let (na, nb) = (a + da, b + db);
                    if !possible || na >= SIDE || nb >= SIDE {
                        continue;
                    }
                    let cost = total + u64::from(*star) * (da + db) as u64;
                    if next[na][nb].as_ref().is_none_or(|(t, _)| cost < *t) {
                        let mut p = path.clone();
                        p.push(code);
                        next[na][nb] = Some((cost, p));
                    }
                }
            }
        }
        dp = next;
    }
    dp
}

/// The sizes to take: each side empty or legal, the most cards, then the
/// lowest STAR total, then the larger element side.
fn best_sizes(dp: &SizeTable) -> Option<(usize, usize)> {
    let valid = |n: usize| n == 0 || n as u64 >= MIN_CARDS;
    let mut pick: Option<(usize, usize, u64)> = None;
    for (a, row) in dp.iter().enumerate() {
        for (b, cell) in row.iter().enumerate() {
            let Some((total, _)) = cell else { continue };
            if !valid(a) || !valid(b) {
                continue;
            }
            let key = (a + b, std::cmp::Reverse(*total), a);
            let better = match pick {
                None => true,
                Some((pa, pb, pt)) => key > (pa + pb, std::cmp::Reverse(pt), pa),
            };
            if better {
                pick = Some((a, b, *total));
            }
        }
    }
    pick.map(|(a, b, _)| (a, b))
}

/// The JSON output of `blades collection check`.
#[derive(Debug, Default, Serialize, JsonSchema)]
#[schemars(title = "blades collection check result")]
pub struct CollectionReport {
    #[serde(flatten)]
    pub common: Common,
    /// Checked for Duel Mode (`--duel`).
    pub duel: bool,
    /// The collection's cards by id, in input order, repeats included.
    pub cards: Vec<Id>,
    /// Symbols (element and type ids) common to every card.
    pub symbols: Vec<String>,
    /// Victory Points, when legal and not in Duel Mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vp: Option<u64>,
    /// Ranking Points (10 per card), when legal in Duel Mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rp: Option<u64>,
}

/// One collection chosen from a binder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ChosenReport {
    /// The element or type id the collection is built on.
    pub symbol: String,
    /// The chosen cards by id, in STAR order.
    pub cards: Vec<Id>,
    /// Sum of the cards' STARs.
    pub stars: u64,
}

impl From<&Chosen<'_>> for ChosenReport {
    fn from(c: &Chosen<'_>) -> Self {
        ChosenReport {
            symbol: c.symbol.as_str().to_string(),
            cards: c.cards.iter().map(|c| c.id.clone()).collect(),
            stars: c.stars(),
        }
    }
}

/// The JSON output of `blades collection best`.
#[derive(Debug, Default, Serialize, JsonSchema)]
#[schemars(title = "blades collection best result")]
pub struct BestReport {
    #[serde(flatten)]
    pub common: Common,
    /// Searched for Duel Mode (`--duel`).
    pub duel: bool,
    /// Without `--duel`: the chosen cards by id, in STAR order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cards: Option<Vec<Id>>,
    /// Without `--duel`: the symbol the collection is built on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// Without `--duel`: its Victory Points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vp: Option<u64>,
    /// With `--duel`: Ranking Points of the pair (10 per card).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rp: Option<u64>,
    /// With `--duel`: the element collection (null when there is none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element: Option<Option<ChosenReport>>,
    /// With `--duel`: the type collection (null when there is none).
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind_type: Option<Option<ChosenReport>>,
}
