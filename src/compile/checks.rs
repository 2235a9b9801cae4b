//! The pool-wide checks: unique set and card ids and names, each set's
//! header against its kind, symbols, the copy rule and set sizes. They run
//! over every card that could be read, and give the derived copies.

use crate::words::with_article;
use foldhash::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

use rayon::prelude::*;

use crate::cache::{CardKeys, CheckedSet};
use crate::diagnostics::{Code, Diagnostic};
use crate::load::{CardSpans, LoadedCard, LoadedSet, PartialCard};
use crate::set_schema::SetValidator;
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
    /// findings (the pool checks report those): as earlier checks of the
    /// same file found them (`remembered`; copies do not depend on the
    /// pool's types), else worked out, the set restored if need be.
    pub(super) fn of(
        sets: &[LoadedSet],
        wanted: impl Fn(usize) -> bool + Sync,
        remembered: &(dyn Fn(usize) -> Option<Vec<(usize, u8)>> + Sync),
        restore: Restore<'_>,
    ) -> Derived {
        let by_set = sets
            .par_iter()
            .enumerate()
            .map(|(i, set)| match wanted(i) {
                true => remembered(i).unwrap_or_else(|| {
                    let restored = restore(i);
                    let set = restored.as_ref().unwrap_or(set);
                    let mut copies = check_copies(set, &mut Vec::new());
                    copies.sort_unstable_by_key(|&(index, _)| index);
                    copies
                }),
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
    check_pool_remembering(sets, None, out)
}

/// What the pool checks learnt of each set file, kept from one check of a
/// pool to the next when few of its files change (the editor server, and
/// a build through its cache): a set's own findings and copies, while its
/// text and the pool's types are the same, and the hashes its cards' ids
/// and names are compared by.
#[derive(Default)]
pub struct ChecksMemo {
    sets: HashMap<Arc<str>, Arc<CheckedSet>>,
    /// The keys of every set in `sets`, counted.
    counts: KeyCounts,
}

impl ChecksMemo {
    /// A memo of what earlier checks found of these sets (by their file's
    /// path, as the loaded sets name it).
    pub(crate) fn of(sets: HashMap<Arc<str>, Arc<CheckedSet>>) -> ChecksMemo {
        let learnt: Vec<&Arc<CheckedSet>> = sets.values().collect();
        let counts = KeyCounts::of(&learnt);
        ChecksMemo { sets, counts }
    }

    /// What the checks found of the set file at `path`.
    pub(crate) fn checked(&self, path: &str) -> Option<&Arc<CheckedSet>> {
        self.sets.get(path)
    }

    /// The memo made to hold this check (`learnt`, by set): the keys of
    /// the sets that changed, came or went taken out of the counts or
    /// put in, the others' left as they are.
    fn remember(&mut self, sets: &[LoadedSet], learnt: &[Arc<CheckedSet>]) {
        let known = |set: &LoadedSet, now: &Arc<CheckedSet>| {
            self.sets
                .get(&set.path)
                .is_some_and(|old| Arc::ptr_eq(old, now))
        };
        let changed = sets
            .iter()
            .zip(learnt)
            .filter(|(s, n)| !known(s, n))
            .count();
        // Most of the pool new (a first build): counted afresh, in parallel.
        if changed * 2 > sets.len() {
            self.sets = (sets.iter().map(|set| set.path.clone()))
                .zip(learnt.iter().cloned())
                .collect();
            self.counts = KeyCounts::of(&learnt.iter().collect::<Vec<_>>());
            return;
        }
        let mut was = std::mem::take(&mut self.sets);
        self.sets.reserve(sets.len());
        for (set, now) in sets.iter().zip(learnt) {
            match was.remove(&set.path) {
                Some(old) if Arc::ptr_eq(&old, now) => {}
                Some(old) => {
                    self.counts.remove(&old.keys);
                    self.counts.add(&now.keys);
                }
                None => self.counts.add(&now.keys),
            }
            self.sets.insert(set.path.clone(), now.clone());
        }
        for gone in was.values() {
            self.counts.remove(&gone.keys);
        }
    }
}

/// A set whose cards are not in hand (a build leaves a cached set's cards
/// undecoded until it needs them): given a set's index, the set with its
/// cards, or `None` when the set passed in has them.
pub(crate) type Restore<'a> = &'a (dyn Fn(usize) -> Option<LoadedSet> + Sync);

/// Every set's cards are in hand.
pub(crate) fn in_hand(_: usize) -> Option<LoadedSet> {
    None
}

/// [`check_pool`]; with a memo and each set's file hash (by index in
/// `sets`), a set whose file and the pool's types are unchanged since the
/// memo's check is not checked again, and the memo then holds this check.
pub fn check_pool_remembering(
    sets: &[LoadedSet],
    memo: Option<(&[u64], &mut ChecksMemo)>,
    out: &mut Vec<Diagnostic>,
) -> Derived {
    check_pool_restoring(sets, memo, &in_hand, out)
}

/// [`check_pool_remembering`] of sets whose cards may not be in hand
/// (`restore` gives them): only the sets checked anew, and those with a
/// card whose id or name another card may share, are restored.
pub(crate) fn check_pool_restoring(
    sets: &[LoadedSet],
    memo: Option<(&[u64], &mut ChecksMemo)>,
    restore: Restore<'_>,
    out: &mut Vec<Diagnostic>,
) -> Derived {
    let declared_types: HashSet<&str> = sets
        .iter()
        .flat_map(|s| s.set.extra_types.iter().map(|t| t.0.as_str()))
        .chain(BASE_TYPES)
        .collect();
    let types = types_key(&declared_types);
    let (hashes, memo) = match memo {
        Some((hashes, memo)) => (Some(hashes), Some(memo)),
        None => (None, None),
    };
    let known = |i: usize, set: &LoadedSet| -> Option<Arc<CheckedSet>> {
        let (hash, memo) = (hashes?.get(i)?, memo.as_deref()?);
        let known = memo.sets.get(&set.path)?;
        (known.hash == *hash && known.types == types).then(|| known.clone())
    };
    // Each set on its own, in parallel; then uniqueness across them.
    let learnt: Vec<Arc<CheckedSet>> = sets
        .par_iter()
        .enumerate()
        .map(|(i, set)| {
            known(i, set).unwrap_or_else(|| {
                let restored = restore(i);
                let set = restored.as_ref().unwrap_or(set);
                let (findings, copies) = own_checks(set, &declared_types);
                Arc::new(CheckedSet {
                    hash: hashes.and_then(|h| h.get(i).copied()).unwrap_or_default(),
                    types,
                    findings,
                    copies,
                    keys: named_cards_of(set).map(keys_of).collect(),
                })
            })
        })
        .collect();
    check_unique_sets(sets, out);
    match memo {
        Some(memo) => {
            memo.remember(sets, &learnt);
            check_unique_cards(sets, &learnt, &memo.counts, restore, out);
        }
        None => {
            let counts = KeyCounts::of(&learnt.iter().collect::<Vec<_>>());
            check_unique_cards(sets, &learnt, &counts, restore, out);
        }
    }
    let mut by_set = Vec::with_capacity(learnt.len());
    for set in &learnt {
        out.extend(set.findings.iter().cloned());
        by_set.push(set.copies.clone());
    }
    Derived { by_set }
}

/// A key of the pool's declared types: a set checked with other types is
/// checked again.
fn types_key(declared: &HashSet<&str>) -> u64 {
    let mut types: Vec<&str> = declared.iter().copied().collect();
    types.sort_unstable();
    fixed_hash(types.join("\n").as_bytes())
}

/// One set's own pool checks: its header against its kind, its cards'
/// symbols and the copy rule. Copies come sorted by card index.
fn own_checks(set: &LoadedSet, declared_types: &HashSet<&str>) -> SetChecks {
    let mut found = Vec::new();
    if !set.header_refused {
        check_set_header(set, &mut found);
    }
    for card in &set.cards {
        let symbols = Symbols::of_card(card);
        check_card_symbols(set, &symbols, declared_types, &mut found);
    }
    // A card that could not be read whole still has its symbols checked,
    // so one run finds all its mistakes.
    for card in &set.partial {
        let symbols = Symbols::of_partial(card);
        check_card_symbols(set, &symbols, declared_types, &mut found);
    }
    let mut copies = match set.header_refused {
        false => check_copies(set, &mut found),
        // No kind, no copy rule: nothing is built anyway.
        true => Vec::new(),
    };
    copies.sort_unstable_by_key(|&(index, _)| index);
    (found, copies)
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

/// A card as the uniqueness checks see it: one read whole, or what could
/// be read of one that could not (its id and name, when they are text).
#[derive(Clone, Copy)]
struct Named<'a> {
    set: &'a LoadedSet,
    id: Option<&'a str>,
    id_span: &'a Range<usize>,
    name: Option<&'a str>,
    name_span: &'a Range<usize>,
}

impl<'a> Named<'a> {
    fn read(set: &'a LoadedSet, loaded: &'a LoadedCard) -> Self {
        Named {
            set,
            id: Some(&loaded.card.id.0),
            id_span: &loaded.spans.id,
            name: Some(&loaded.card.name),
            name_span: &loaded.spans.name,
        }
    }

    fn partial(set: &'a LoadedSet, card: &'a PartialCard) -> Self {
        Named {
            set,
            id: card.id.as_deref(),
            id_span: &card.id_span,
            name: card.name.as_deref(),
            name_span: &card.name_span,
        }
    }
}

/// The cards of a set for the uniqueness checks, in file order (a card
/// that could not be read whole among the others).
fn named_cards_of(set: &LoadedSet) -> impl Iterator<Item = Named<'_>> {
    let mut cards: Vec<(usize, Named<'_>)> = Vec::new();
    if !set.partial.is_empty() {
        cards.extend(set.cards.iter().map(|c| (c.index, Named::read(set, c))));
        cards.extend(
            set.partial
                .iter()
                .map(|c| (c.index, Named::partial(set, c))),
        );
        cards.sort_by_key(|&(index, _)| index);
    }
    // Nearly every set reads whole: its cards are walked as they are.
    let whole = set.partial.is_empty().then_some(&set.cards);
    whole
        .into_iter()
        .flatten()
        .map(move |c| Named::read(set, c))
        .chain(cards.into_iter().map(|(_, named)| named))
}

/// A card's keys for the uniqueness checks.
fn keys_of(card: Named<'_>) -> CardKeys {
    CardKeys {
        id: card.id.map(|id| fixed_hash(id.as_bytes())),
        name: card.name.map(fold_hash),
    }
}

/// The cards of the sets with a key that another card may share
/// (`shared`), with their keys, in pool order: those sets restored where
/// their cards are not in hand.
fn cards_sharing_keys(
    sets: &[LoadedSet],
    learnt: &[Arc<CheckedSet>],
    shared: impl Fn(&CardKeys) -> bool + Sync,
    restore: Restore<'_>,
) -> Vec<(usize, Option<LoadedSet>)> {
    (0..sets.len())
        .into_par_iter()
        .filter(|&i| learnt[i].keys.iter().any(&shared))
        .map(|i| (i, restore(i)))
        .collect()
}

/// How often each id hash and each name hash occurs among a pool's cards:
/// what finds the few cards worth comparing (a duplicate shares a hash)
/// without comparing every card, and what the editor server keeps and
/// updates by the sets that change.
#[derive(Default)]
struct KeyCounts {
    ids: HashCounts,
    names: HashCounts,
}

/// Occurrences of each hash, and the hashes that occur more than once.
#[derive(Default)]
struct HashCounts {
    counts: HashMap<u64, u32>,
    shared: HashSet<u64>,
}

impl HashCounts {
    fn with_capacity(count: usize) -> HashCounts {
        let mut counts = HashMap::default();
        counts.reserve(count);
        HashCounts {
            counts,
            shared: HashSet::default(),
        }
    }

    fn add(&mut self, hash: u64) {
        let count = self.counts.entry(hash).or_insert(0);
        *count += 1;
        if *count == 2 {
            self.shared.insert(hash);
        }
    }

    fn remove(&mut self, hash: u64) {
        use std::collections::hash_map::Entry;
        if let Entry::Occupied(mut slot) = self.counts.entry(hash) {
            *slot.get_mut() -= 1;
            match *slot.get() {
                0 => {
                    slot.remove();
                }
                1 => {
                    self.shared.remove(&hash);
                }
                _ => {}
            }
        }
    }
}

impl KeyCounts {
    /// The keys of every set, counted (ids and names side by side: on a
    /// large pool this is the longest step between the parallel phases).
    fn of(learnt: &[&Arc<CheckedSet>]) -> KeyCounts {
        let count = learnt.iter().map(|s| s.keys.len()).sum();
        let keys = || learnt.iter().flat_map(|set| set.keys.iter());
        let (ids, names) = rayon::join(
            || {
                let mut ids = HashCounts::with_capacity(count);
                keys().filter_map(|k| k.id).for_each(|h| ids.add(h));
                ids
            },
            || {
                let mut names = HashCounts::with_capacity(count);
                keys().filter_map(|k| k.name).for_each(|h| names.add(h));
                names
            },
        );
        KeyCounts { ids, names }
    }

    fn add(&mut self, keys: &[CardKeys]) {
        for key in keys {
            if let Some(hash) = key.id {
                self.ids.add(hash);
            }
            if let Some(hash) = key.name {
                self.names.add(hash);
            }
        }
    }

    fn remove(&mut self, keys: &[CardKeys]) {
        for key in keys {
            if let Some(hash) = key.id {
                self.ids.remove(hash);
            }
            if let Some(hash) = key.name {
                self.names.remove(hash);
            }
        }
    }
}

/// Every card whose id or name is another's, in pool order (ids first):
/// only the cards whose hash is shared are compared, by their text.
fn check_unique_cards(
    sets: &[LoadedSet],
    learnt: &[Arc<CheckedSet>],
    counts: &KeyCounts,
    restore: Restore<'_>,
    out: &mut Vec<Diagnostic>,
) {
    if counts.ids.shared.is_empty() && counts.names.shared.is_empty() {
        return;
    }
    let shared_id = |hash: &Option<u64>| hash.is_some_and(|h| counts.ids.shared.contains(&h));
    let shared_name = |hash: &Option<u64>| hash.is_some_and(|h| counts.names.shared.contains(&h));
    let shared = |keys: &CardKeys| shared_id(&keys.id) || shared_name(&keys.name);
    let sharing = cards_sharing_keys(sets, learnt, shared, restore);
    let mut ids = Vec::new();
    let mut names = Vec::new();
    for (i, restored) in &sharing {
        let set = restored.as_ref().unwrap_or(&sets[*i]);
        for (card, keys) in named_cards_of(set).zip(&learnt[*i].keys) {
            if let (Some(id), Some(hash)) = (card.id, keys.id)
                && shared_id(&keys.id)
            {
                ids.push((hash, id, card));
            }
            if let (Some(name), Some(hash)) = (card.name, keys.name)
                && shared_name(&keys.name)
            {
                names.push((hash, name, card));
            }
        }
    }
    for (again, first) in repeats(&ids, Compare::Exact) {
        let (_, id, card) = &ids[again];
        out.push(duplicate_card_id(id, card, &ids[first].2));
    }
    for (again, first) in repeats(&names, Compare::IgnoringCase) {
        let (_, name, card) = &names[again];
        out.push(duplicate_card_name(name, card, &names[first].2));
    }
}

/// How two names are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Compare {
    /// As written (ids).
    Exact,
    /// As `str::to_lowercase` folds them (names); hashed by [`fold_hash`].
    IgnoringCase,
}

impl Compare {
    fn same(self, a: &str, b: &str) -> bool {
        match self {
            Compare::Exact => a == b,
            Compare::IgnoringCase => a == b || a.to_lowercase() == b.to_lowercase(),
        }
    }
}

/// Each item (hash, text, …) equal to an earlier one, with the index of
/// the first it equals, in order. Items equal only if their hashes are (a
/// hash is of the text as compared); an unequal text under the same hash
/// (a 64-bit collision: kept correct, not expected) is a first of its own.
fn repeats<T>(items: &[(u64, &str, T)], compare: Compare) -> Vec<(usize, usize)> {
    let mut firsts: HashMap<u64, Vec<usize>> = HashMap::default();
    let mut found = Vec::new();
    for (i, (hash, text, _)) in items.iter().enumerate() {
        let under_hash = firsts.entry(*hash).or_default();
        match under_hash.iter().find(|&&f| compare.same(items[f].1, text)) {
            Some(&first) => found.push((i, first)),
            None => under_hash.push(i),
        }
    }
    found
}

fn duplicate_card_id(id: &str, card: &Named<'_>, first: &Named<'_>) -> Diagnostic {
    Diagnostic::error(
        Code::DuplicateCardId,
        &card.set.path,
        card.id_span.clone(),
        format!("card id `{id}` is already used in {}", first.set.path),
    )
    .with_label("used again here")
    .with_related(&first.set.path, first.id_span.clone(), "first used here")
    .with_help("card ids are unique across the whole pool; rename one of them")
}

fn duplicate_card_name(name: &str, card: &Named<'_>, first: &Named<'_>) -> Diagnostic {
    Diagnostic::error(
        Code::DuplicateCardName,
        &card.set.path,
        card.name_span.clone(),
        format!(
            "card name `{name}` is already used by `{}` in {}",
            first.name.unwrap_or_default(),
            first.set.path
        ),
    )
    .with_label("used again here")
    .with_related(&first.set.path, first.name_span.clone(), "first used here")
    .with_help("card names are unique across the pool, ignoring case")
}

/// A hash of bytes that is the same in every run (a memo outlives a check).
fn fixed_hash(bytes: &[u8]) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::default().hash_one(bytes)
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
                    "{} set is sold in the Store and needs a buy cost",
                    with_article(kind.as_str())
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
                    "{} set is not sold in the Store, so it has no buy cost",
                    with_article(kind.as_str())
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

/// A card's elements and types with their spans, and the name it is
/// called by in a message.
struct Symbols<'a> {
    name: &'a str,
    elements: Vec<(&'a str, Range<usize>)>,
    types: Vec<(&'a str, Range<usize>)>,
}

impl<'a> Symbols<'a> {
    fn of_card(loaded: &'a LoadedCard) -> Symbols<'a> {
        let card = &loaded.card;
        let spans = &loaded.spans;
        Symbols {
            name: &card.name,
            elements: card
                .elements
                .iter()
                .map(|e| e.as_str())
                .zip(spans_of(&spans.elements, card.elements.len()))
                .collect(),
            types: card
                .types
                .iter()
                .map(|t| t.0.as_str())
                .zip(spans_of(&spans.types, card.types.len()))
                .collect(),
        }
    }

    fn of_partial(card: &'a PartialCard) -> Symbols<'a> {
        let words = |list: &'a [(String, Range<usize>)]| {
            list.iter()
                .map(|(word, span)| (word.as_str(), span.clone()))
                .collect()
        };
        Symbols {
            name: card
                .name
                .as_deref()
                .or(card.id.as_deref())
                .unwrap_or("this card"),
            elements: words(&card.elements),
            types: words(&card.types),
        }
    }
}

fn check_card_symbols(
    set: &LoadedSet,
    card: &Symbols<'_>,
    declared: &HashSet<&str>,
    out: &mut Vec<Diagnostic>,
) {
    for (ty, span) in &card.types {
        if !declared.contains(ty) {
            let mut known: Vec<&str> = declared.iter().copied().collect();
            known.sort_unstable();
            let best = closest(ty, known.iter().copied());
            let fix = best.and_then(|best| crate::yaml::word_fix(span.clone(), best));
            let help = match best {
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
                    span.clone(),
                    format!("unknown type `{ty}` on `{}`", card.name),
                )
                .with_label("unknown type")
                .with_help(help)
                .with_fixes(fix),
            );
        }
    }
    // Symbols in card order, each with its span: a symbol listed before is
    // a duplicate.
    let symbols = card
        .elements
        .iter()
        .chain(&card.types)
        .map(|(s, span)| (*s, span.clone()));
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

/// The copies the copy rule may give a card, as bits (`1 << copies`):
/// one bit when every STAR it depends on is known. A STAR that is not known
/// (refused by the schema, or on a card that could not be read) may be any
/// STAR the schema allows, so the rule gives whatever it gives for some
/// value of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CopyOptions(u8);

impl CopyOptions {
    fn has(self, copies: u8) -> bool {
        copies < 8 && self.0 & (1 << copies) != 0
    }

    /// The copies, when the rule gives just one number.
    fn one(self) -> Option<u8> {
        (self.0.count_ones() == 1).then(|| self.0.trailing_zeros() as u8)
    }

    fn smallest(self) -> u8 {
        self.0.trailing_zeros() as u8
    }

    /// `1`, `1 or 2`, `1, 2 or 3`.
    fn words(self) -> String {
        let numbers: Vec<String> = (1..=3)
            .filter(|&c| self.has(c))
            .map(|c| c.to_string())
            .collect();
        match numbers.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, init)) => format!("{} or {last}", init.join(", ")),
            None => String::new(),
        }
    }
}

/// The STARs of a set's cards, for the copy rule when some are not known:
/// the known ones sorted, and how many are not known.
struct SetStars {
    known: Vec<u8>,
    unknown: usize,
    allowed: std::ops::RangeInclusive<u8>,
}

impl SetStars {
    /// The highest and lowest known STAR of the cards other than one whose
    /// STAR is `own` (when it is known).
    fn others(&self, own: Option<u8>) -> (Option<u8>, Option<u8>) {
        let k = &self.known;
        let Some(s) = own else {
            return (k.last().copied(), k.first().copied());
        };
        // `own` is among `known`: leave one of it out.
        let high = match k.len() {
            0 | 1 => None,
            n if k[n - 1] == s => Some(k[n - 2]),
            n => Some(k[n - 1]),
        };
        let low = match k.len() {
            0 | 1 => None,
            _ if k[0] == s => Some(k[1]),
            _ => Some(k[0]),
        };
        (high, low)
    }

    /// [`SetStars::options`] for every STAR a card may have and for none,
    /// worked out once a set: they depend on nothing else, and a set of a
    /// hundred thousand unreadable cards asks for each card.
    fn all_options(&self, kind: SetKind) -> impl Fn(Option<u8>) -> CopyOptions {
        let unknown = self.options(kind, None);
        let by_star: Vec<(u8, CopyOptions)> = self
            .allowed
            .clone()
            .map(|s| (s, self.options(kind, Some(s))))
            .collect();
        move |own| match own {
            Some(s) => by_star
                .iter()
                .find(|(star, _)| *star == s)
                .map_or(unknown, |(_, options)| *options),
            None => unknown,
        }
    }

    /// What the copy rule may give a card whose STAR is `own`.
    fn options(&self, kind: SetKind, own: Option<u8>) -> CopyOptions {
        if kind.single_copies() {
            return CopyOptions(1 << 1);
        }
        let (known_high, known_low) = self.others(own);
        let unknown_others = self.unknown.saturating_sub(usize::from(own.is_none()));
        // The highest and lowest of the other unknown STARs: only these two
        // matter, and two unknown cards can take any pair of them.
        let mut extremes: Vec<(Option<u8>, Option<u8>)> = Vec::new();
        match unknown_others {
            0 => extremes.push((None, None)),
            1 => extremes.extend(self.allowed.clone().map(|u| (Some(u), Some(u)))),
            _ => {
                for high in self.allowed.clone() {
                    extremes
                        .extend((*self.allowed.start()..=high).map(|low| (Some(high), Some(low))));
                }
            }
        }
        let own_values = match own {
            Some(s) => s..=s,
            None => self.allowed.clone(),
        };
        let mut bits = 0u8;
        for s in own_values {
            for &(unknown_high, unknown_low) in &extremes {
                let high = [Some(s), known_high, unknown_high]
                    .into_iter()
                    .flatten()
                    .max();
                let low = [Some(s), known_low, unknown_low]
                    .into_iter()
                    .flatten()
                    .min();
                let copies = match (high, low) {
                    (Some(high), Some(low)) if high == low => 2,
                    (Some(high), _) if s == high => 1,
                    (_, Some(low)) if s == low => 3,
                    _ => 2,
                };
                bits |= 1 << copies;
            }
        }
        CopyOptions(bits)
    }
}

/// Applies the copy rule and the physical set size; returns each card's
/// copies. A card whose STAR is not known (out of range, or the card could
/// not be read) makes the rule uncertain for the others: a stated number
/// is wrong only when no STAR of it would give it, and the set size is
/// checked only when every card's copies are known.
fn check_copies(set: &LoadedSet, out: &mut Vec<Diagnostic>) -> Vec<(usize, u8)> {
    let kind = set.set.kind;
    let allowed = SetValidator::get().stars();
    let known = |s: Option<u8>| s.filter(|s| allowed.contains(s));
    // A set whose every card has one copy needs no STAR to know them.
    let certain = set.partial.is_empty()
        && (kind.single_copies() || set.cards.iter().all(|c| known(c.card.stars).is_some()));
    let stars = (!certain).then(|| {
        let all = set
            .cards
            .iter()
            .map(|c| known(c.card.stars))
            .chain(set.partial.iter().map(|p| p.stars));
        let mut known: Vec<u8> = all.clone().flatten().collect();
        known.sort_unstable();
        SetStars {
            unknown: all.filter(Option::is_none).count(),
            known,
            allowed: allowed.clone(),
        }
    });
    let rule: Vec<Option<CopyOptions>> = match &stars {
        // One copy each, whatever the STARs (venues and characters have none).
        None if kind.single_copies() => vec![Some(CopyOptions(1 << 1)); set.cards.len()],
        None => {
            // Every card's STAR is known here.
            let stars: Vec<u8> = set.cards.iter().filter_map(|c| c.card.stars).collect();
            derive_copies(kind, &stars)
                .into_iter()
                .map(|d| d.map(|c| CopyOptions(1 << c)))
                .collect()
        }
        Some(_) if kind == SetKind::Core => vec![None; set.cards.len()],
        Some(stars) => {
            let options = stars.all_options(kind);
            set.cards
                .iter()
                .map(|c| Some(options(known(c.card.stars))))
                .collect()
        }
    };
    let options = stars.as_ref().map(|stars| stars.all_options(kind));
    let mut result = Vec::with_capacity(set.cards.len());
    // Whether the copies of every listed card are known.
    let mut counted = set.partial.is_empty()
        || kind.single_copies()
        || options
            .as_ref()
            .is_some_and(|options| set.partial.iter().all(|p| options(p.stars).one().is_some()));
    let mut physical: u32 = match kind.single_copies() {
        true => set.partial.len() as u32,
        false => options.as_ref().map_or(0, |options| {
            set.partial
                .iter()
                .filter_map(|p| options(p.stars).one())
                .map(u32::from)
                .sum()
        }),
    };
    for (loaded, options) in set.cards.iter().zip(rule) {
        let card = &loaded.card;
        let copies = match (options, card.copies) {
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
            (Some(options), Some(stated)) if !options.has(stated) => {
                let gives = options.words();
                let unsure = match options.one() {
                    Some(_) => String::new(),
                    None => " (a STAR of this set is not known)".to_string(),
                };
                out.push(
                    Diagnostic::error(
                        Code::CopiesMismatch,
                        &set.path,
                        loaded.spans.copies.clone(),
                        format!(
                            "`{}` states `copies: {stated}`, but the copy rule gives {gives}{unsure}",
                            card.name
                        ),
                    )
                    .with_label(format!("the copy rule gives {gives}"))
                    .with_help(copy_rule_help(kind)),
                );
                options.smallest()
            }
            (Some(options), stated) => match options.one() {
                Some(copies) => copies,
                None => {
                    counted = false;
                    stated.unwrap_or(options.smallest())
                }
            },
        };
        physical += u32::from(copies);
        result.push((loaded.index, copies));
    }
    if let Some(expected) = kind.physical_size() {
        // Skipped when a card could not be read: its copies are unknown.
        if physical != expected
            && counted
            && Some(set.cards.len() + set.partial.len()) == set.listed_cards
        {
            out.push(
                Diagnostic::error(
                    Code::SetSize,
                    &set.path,
                    set.spans.cards_key.clone(),
                    format!(
                        "{} set has {expected} physical cards; these cards make {physical}",
                        with_article(kind.words())
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

    /// Each name's earlier equal name (ignoring case) as [`repeats`] finds
    /// it, every name under the hash `hash` gives it.
    fn repeated(names: &[&str], hash: impl Fn(&str) -> u64) -> Vec<Option<usize>> {
        let items: Vec<(u64, &str, ())> = names.iter().map(|n| (hash(n), *n, ())).collect();
        let mut found = vec![None; names.len()];
        for (again, first) in repeats(&items, Compare::IgnoringCase) {
            found[again] = Some(first);
        }
        found
    }

    /// What [`repeats`] must agree with: a map of `to_lowercase` copies.
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
        // Every name under one hash: the collision path does all the work.
        assert_eq!(repeated(&names, |_| 7), naive_duplicates(&names));
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
        assert_eq!(repeated(&names, fold_hash), [None, Some(0), None, Some(2)]);
    }

    proptest::proptest! {
        #[test]
        fn folded_names_find_the_duplicates_lowercase_copies_find(
            // The Kelvin sign folds to an ASCII `k`: both spellings of a
            // folded name must hash alike.
            names in proptest::collection::vec("[aAbBkKK ΣσςİiIΩ]{0,4}", 0..24)
        ) {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            proptest::prop_assert_eq!(repeated(&names, fold_hash), naive_duplicates(&names));
        }
    }

    /// The pool checks of `files`, fresh and through `memo`: both.
    fn checked_both_ways(
        files: &[(String, String)],
        memo: &mut ChecksMemo,
    ) -> [(Vec<String>, String); 2] {
        let sources = files
            .iter()
            .map(|(name, text)| SourceFile::named(name, text));
        let mut hashes = Vec::new();
        let mut sets = Vec::new();
        for file in sources {
            if let Some(set) = crate::load::load_set(&file, &mut Vec::new()) {
                hashes.push(file.hash());
                sets.push(set);
            }
        }
        let seen = |found: Vec<Diagnostic>, derived: Derived| {
            let mut found: Vec<String> = found.iter().map(|d| format!("{d:?}")).collect();
            found.sort();
            (found, format!("{derived:?}"))
        };
        let mut fresh = Vec::new();
        let derived = check_pool(&sets, &mut fresh);
        let fresh = seen(fresh, derived);
        let mut remembered = Vec::new();
        let derived = check_pool_remembering(&sets, Some((&hashes, memo)), &mut remembered);
        [fresh, seen(remembered, derived)]
    }

    #[test]
    fn a_memo_finds_what_a_fresh_check_finds_after_every_edit() {
        let mut files = crate::synth::pool(300, 5);
        let original = files.clone();
        let mut memo = ChecksMemo::default();
        let first_id = |text: &str| {
            let at = text.find("  - id: ").unwrap() + "  - id: ".len();
            text[at..].lines().next().unwrap().to_string()
        };
        let id = first_id(&files[0].1);
        let name_of = |text: &str| {
            let at = text.find("    name: ").unwrap() + "    name: ".len();
            text[at..].lines().next().unwrap().to_string()
        };
        let name = name_of(&files[0].1);
        type Edit = Box<dyn Fn(&mut Vec<(String, String)>)>;
        let edits: Vec<Edit> = vec![
            // Nothing changed: every set from the memo.
            Box::new(|_| {}),
            // A card id taken from another set, then a name in other case.
            Box::new(move |files| {
                let other = first_id(&files[1].1);
                files[1].1 = files[1].1.replacen(&other, &id, 1);
            }),
            Box::new(move |files| {
                let other = name_of(&files[2].1);
                files[2].1 = files[2].1.replacen(&other, &name.to_uppercase(), 1);
            }),
            // An unknown type, a set that cannot be read, a set gone.
            Box::new(|files| files[3].1 = files[3].1.replacen("types: [", "types: [robot, ", 1)),
            Box::new(|files| files[4].1 = files[4].1.replacen("kind:", "kidn:", 1)),
            Box::new(|files| {
                files.remove(5);
            }),
            // The duplicate id taken back; a whole set copied under another
            // file name, then gone again: counts go down as well as up.
            Box::new(move |files| files[1] = original[1].clone()),
            Box::new(|files| {
                let copy = ("copy.yaml".to_string(), files[2].1.clone());
                files.push(copy);
            }),
            Box::new(|files| {
                files.pop();
            }),
            // The same files again: every set from the memo, its findings kept.
            Box::new(|_| {}),
        ];
        for (step, edit) in edits.iter().enumerate() {
            edit(&mut files);
            let [fresh, remembered] = checked_both_ways(&files, &mut memo);
            assert_eq!(remembered, fresh, "after edit {step}");
            if step > 0 {
                assert!(!fresh.0.is_empty(), "edit {step} is found");
            }
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
    fn an_unknown_star_leaves_the_copy_rule_only_as_sure_as_it_can_be() {
        let stars = SetStars {
            known: vec![1, 2, 3, 5],
            unknown: 1,
            allowed: 1..=10,
        };
        let options = |own| stars.options(SetKind::Expansion, own);
        // The unknown STAR may be above 5 (then 5 has 2 copies) or not.
        assert_eq!(options(Some(5)).words(), "1 or 2");
        assert_eq!(options(Some(1)).one(), Some(3), "1 is lowest, tied or not");
        assert_eq!(options(Some(2)).one(), Some(2));
        assert_eq!(options(None).words(), "1, 2 or 3");
        assert_eq!(stars.options(SetKind::GoldPromo, None).one(), Some(1));
        // Two unknown STARs may be the highest and the lowest at once.
        let two = SetStars {
            known: vec![4, 4],
            unknown: 2,
            allowed: 1..=10,
        };
        assert_eq!(two.options(SetKind::Master, Some(4)).words(), "1, 2 or 3");
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
