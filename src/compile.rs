//! `blades build`: set files → validated card database.
//!
//! Each file goes through YAML (with spans) and the JSON Schema on its own;
//! the pool-wide semantics (unique ids and names, copy rule, set sizes) then
//! run over every card that could be read. Every problem is collected; a
//! database is produced only when there is no error.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

use crate::diagnostics::{self, Code, Diagnostic, Sources};
use crate::model::{
    BASE_TYPES, Card, CardSource, DATABASE_FORMAT, Database, Id, Set, SetKind, SetSource,
};
use crate::pool::{Pool, SourceFile};
use crate::schema::SetValidator;
use crate::suggest::closest;
use crate::yaml::{self, Node, NodeValue, YamlError, YamlErrorKind};

/// A set file that parsed and whose header matches the schema.
pub struct LoadedSet {
    pub path: Arc<str>,
    pub doc: Node,
    pub set: SetSource,
    /// Cards that match the schema, with their index in the file's `cards`.
    pub cards: Vec<(usize, CardSource)>,
}

impl LoadedSet {
    /// Span of the node a JSON pointer names (the value).
    pub fn span(&self, pointer: &str) -> Range<usize> {
        self.doc.locate(pointer).node.span.clone()
    }

    /// Span of the key a JSON pointer ends in, or the value without one.
    pub fn key_span(&self, pointer: &str) -> Range<usize> {
        let located = self.doc.locate(pointer);
        located.key.unwrap_or_else(|| located.node.span.clone())
    }
}

/// What a build produced.
pub struct Compiled {
    /// The database, when there were no errors.
    pub database: Option<Database>,
    /// Every finding, sorted by file and position.
    pub diagnostics: Vec<Diagnostic>,
    /// The text of every file, for rendering the findings.
    pub sources: Sources,
}

impl Compiled {
    pub fn error_count(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }
}

/// Builds the database from a pool, collecting every problem.
pub fn compile(pool: &Pool) -> Compiled {
    let mut sources = Sources::default();
    let mut diagnostics = pool.problems.clone();
    for file in &pool.lossy {
        sources.insert(file.path.clone(), file.text.clone());
    }
    let mut loaded = Vec::new();
    for file in &pool.sets {
        sources.insert(file.path.clone(), file.text.clone());
        if let Some(set) = load_set(file, &mut diagnostics) {
            loaded.push(set);
        }
    }
    let derived = check_pool(&loaded, &mut diagnostics);
    // Other languages' text (locale files): read problems are build errors.
    let (locales, locale_problems) = crate::i18n::Locales::load_set_locales(pool);
    diagnostics.extend(locale_problems);
    for file in &pool.data {
        sources.insert(file.path.clone(), file.text.clone());
    }
    diagnostics::sort(&mut diagnostics);
    let has_errors = diagnostics.iter().any(Diagnostic::is_error);
    Compiled {
        database: (!has_errors).then(|| {
            let mut database = assemble(&loaded, &derived);
            crate::i18n::attach(&mut database, &locales);
            database
        }),
        diagnostics,
        sources,
    }
}

/// Parses and schema-checks one set file.
pub fn load_set(file: &SourceFile, diagnostics: &mut Vec<Diagnostic>) -> Option<LoadedSet> {
    let doc = match yaml::parse(&file.text) {
        Ok(doc) => doc,
        Err(error) => {
            diagnostics.push(yaml_diagnostic(&file.path, error));
            return None;
        }
    };
    let json = doc.to_json();
    let schema_errors = SetValidator::get().validate(&file.path, &doc, &json);
    let bad_fields = card_fields_with_errors(&doc, &schema_errors);
    diagnostics.extend(schema_errors);
    // The header (everything but the cards) must match for semantics to run;
    // each card is then read on its own, so one bad card hides no other.
    let mut header = json;
    let raw_cards = match header.get_mut("cards") {
        Some(cards) => std::mem::replace(cards, serde_json::Value::Array(Vec::new())),
        None => serde_json::Value::Array(Vec::new()),
    };
    let set: SetSource = serde_json::from_value(header).ok()?;
    let cards = raw_cards
        .as_array()
        .map(|items| {
            items
                .iter()
                .enumerate()
                .filter_map(|(i, v)| {
                    // Drop the fields the schema refused, so the rest of the
                    // card still takes part in the pool-wide checks.
                    let mut v = v.clone();
                    if let Some(card) = v.as_object_mut() {
                        for (_, field) in bad_fields.iter().filter(|(index, _)| *index == i) {
                            // Required fields stay: a value the schema refuses
                            // (stars: 11, an id with spaces) may still be read.
                            if !matches!(field.as_str(), "id" | "name" | "kind" | "stars") {
                                card.remove(field);
                            }
                        }
                    }
                    serde_json::from_value::<CardSource>(v).ok().map(|c| (i, c))
                })
                .collect()
        })
        .unwrap_or_default();
    Some(LoadedSet {
        path: file.path.clone(),
        doc,
        set,
        cards,
    })
}

/// (card index, field) of every schema error inside a card, found by the
/// error's span lying within that field's entry.
fn card_fields_with_errors(doc: &Node, errors: &[Diagnostic]) -> Vec<(usize, String)> {
    let Some(cards) = doc.get("cards").and_then(Node::as_seq) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for error in errors {
        for (i, card) in cards.iter().enumerate() {
            let NodeValue::Map(entries) = &card.value else {
                continue;
            };
            for entry in entries {
                let start = entry.key.span.start;
                let end = entry.value.span.end.max(entry.key.span.end);
                if start <= error.span.start
                    && error.span.end <= end
                    && let Some(name) = entry.key.as_str()
                {
                    found.push((i, name.to_string()));
                }
            }
        }
    }
    found
}

/// A YAML error as a located diagnostic (also used for locale files).
pub fn yaml_diagnostic(path: &Arc<str>, error: YamlError) -> Diagnostic {
    let (code, label, help) = match error.kind {
        YamlErrorKind::Syntax => (
            Code::YamlSyntax,
            "here",
            "check indentation, colons and closing brackets or quotes near this point",
        ),
        YamlErrorKind::DuplicateKey => (
            Code::DuplicateKey,
            "defined again here",
            "remove one of the two entries, or rename it",
        ),
        YamlErrorKind::TooDeep => (
            Code::TooDeep,
            "nested too deep",
            "card files need only a few levels of nesting",
        ),
        YamlErrorKind::AliasBomb => (
            Code::AliasBomb,
            "expansion grows too large here",
            "write the values out, or use fewer nested aliases",
        ),
        YamlErrorKind::UnsupportedKey => {
            (Code::UnsupportedKey, "complex key", "use a plain text key")
        }
        YamlErrorKind::MultipleDocuments => (
            Code::MultipleDocuments,
            "second document",
            "put each set in its own file",
        ),
    };
    let mut diagnostic = Diagnostic::error(code, path, error.span, error.message)
        .with_label(label)
        .with_help(help);
    if let Some(first) = error.first {
        diagnostic = diagnostic.with_related(path, first, "first defined here");
    }
    diagnostic
}

/// Derived copies of each card, by (set index, card index in file).
type Derived = HashMap<(usize, usize), u8>;

/// The pool-wide checks.
fn check_pool(sets: &[LoadedSet], out: &mut Vec<Diagnostic>) -> Derived {
    check_unique_sets(sets, out);
    check_unique_cards(sets, out);
    let declared_types: HashSet<&str> = sets
        .iter()
        .flat_map(|s| s.set.extra_types.iter().map(|t| t.0.as_str()))
        .chain(BASE_TYPES)
        .collect();
    let mut derived = Derived::new();
    for (set_index, set) in sets.iter().enumerate() {
        check_set_header(set, out);
        for (index, card) in &set.cards {
            check_card_symbols(set, *index, card, &declared_types, out);
        }
        for (index, copies) in check_copies(set, out) {
            derived.insert((set_index, index), copies);
        }
    }
    derived
}

fn check_unique_sets(sets: &[LoadedSet], out: &mut Vec<Diagnostic>) {
    let mut seen: HashMap<&str, &LoadedSet> = HashMap::new();
    for set in sets {
        match seen.get(set.set.id.0.as_str()) {
            Some(first) => out.push(
                Diagnostic::error(
                    Code::DuplicateSetId,
                    &set.path,
                    set.span("/id"),
                    format!("set id `{}` is already used by {}", set.set.id, first.path),
                )
                .with_label("used again here")
                .with_related(&first.path, first.span("/id"), "first used here")
                .with_help("give each set its own id"),
            ),
            None => {
                seen.insert(&set.set.id.0, set);
            }
        }
    }
}

fn check_unique_cards(sets: &[LoadedSet], out: &mut Vec<Diagnostic>) {
    let mut ids: HashMap<&str, (&LoadedSet, usize)> = HashMap::new();
    let mut names: HashMap<String, (&LoadedSet, usize, &str)> = HashMap::new();
    for set in sets {
        for (index, card) in &set.cards {
            match ids.get(card.id.0.as_str()) {
                Some((first, first_index)) => out.push(
                    Diagnostic::error(
                        Code::DuplicateCardId,
                        &set.path,
                        set.span(&format!("/cards/{index}/id")),
                        format!("card id `{}` is already used in {}", card.id, first.path),
                    )
                    .with_label("used again here")
                    .with_related(
                        &first.path,
                        first.span(&format!("/cards/{first_index}/id")),
                        "first used here",
                    )
                    .with_help("card ids are unique across the whole pool; rename one of them"),
                ),
                None => {
                    ids.insert(&card.id.0, (set, *index));
                }
            }
            let folded = card.name.to_lowercase();
            match names.get(&folded) {
                Some((first, first_index, first_name)) => out.push(
                    Diagnostic::error(
                        Code::DuplicateCardName,
                        &set.path,
                        set.span(&format!("/cards/{index}/name")),
                        format!(
                            "card name `{}` is already used by `{first_name}` in {}",
                            card.name, first.path
                        ),
                    )
                    .with_label("used again here")
                    .with_related(
                        &first.path,
                        first.span(&format!("/cards/{first_index}/name")),
                        "first used here",
                    )
                    .with_help("card names are unique across the pool, ignoring case"),
                ),
                None => {
                    names.insert(folded, (set, *index, &card.name));
                }
            }
        }
    }
}

fn check_set_header(set: &LoadedSet, out: &mut Vec<Diagnostic>) {
    let kind = set.set.kind;
    match (kind.is_store_set(), set.set.cost) {
        (true, None) => out.push(
            Diagnostic::error(
                Code::MissingCost,
                &set.path,
                set.key_span("/kind"),
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
                set.key_span("/cost"),
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
                set.key_span("/extra-types"),
                "only Pro Player sets declare extra types",
            )
            .with_label("extra types here")
            .with_help("use a base type (animal, myth, construct, citizen, soldier, mage), or make this a pro-player set"),
        );
    }
}

fn check_card_symbols(
    set: &LoadedSet,
    index: usize,
    card: &CardSource,
    declared: &HashSet<&str>,
    out: &mut Vec<Diagnostic>,
) {
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
                    set.span(&format!("/cards/{index}/types/{i}")),
                    format!("unknown type `{ty}` on `{}`", card.name),
                )
                .with_label("unknown type")
                .with_help(help),
            );
        }
    }
    let mut seen = HashSet::new();
    for (i, element) in card.elements.iter().enumerate() {
        if !seen.insert(element.as_str()) {
            out.push(duplicate_symbol(
                set,
                index,
                "elements",
                i,
                element.as_str(),
            ));
        }
    }
    for (i, ty) in card.types.iter().enumerate() {
        if !seen.insert(ty.0.as_str()) {
            out.push(duplicate_symbol(set, index, "types", i, &ty.0));
        }
    }
}

fn duplicate_symbol(
    set: &LoadedSet,
    index: usize,
    list: &str,
    i: usize,
    symbol: &str,
) -> Diagnostic {
    Diagnostic::error(
        Code::DuplicateSymbol,
        &set.path,
        set.span(&format!("/cards/{index}/{list}/{i}")),
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
pub fn derive_copies(kind: SetKind, stars: &[u8]) -> Vec<Option<u8>> {
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
    let stars: Vec<u8> = set.cards.iter().map(|(_, c)| c.stars).collect();
    let rule = derive_copies(kind, &stars);
    let mut result = Vec::new();
    for ((index, card), derived) in set.cards.iter().zip(rule) {
        let copies = match (derived, card.copies) {
            (None, Some(stated)) => stated,
            (None, None) => {
                out.push(
                    Diagnostic::error(
                        Code::MissingCopies,
                        &set.path,
                        set.key_span(&format!("/cards/{index}/id")),
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
                        set.span(&format!("/cards/{index}/copies")),
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
        result.push((*index, copies));
    }
    if let Some(expected) = kind.physical_size() {
        let physical: u32 = result.iter().map(|(_, c)| u32::from(*c)).sum();
        if physical != expected
            && set.cards.len()
                == set
                    .doc
                    .get("cards")
                    .and_then(Node::as_seq)
                    .map_or(0, <[Node]>::len)
        {
            out.push(
                Diagnostic::error(
                    Code::SetSize,
                    &set.path,
                    set.key_span("/cards"),
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

fn assemble(sets: &[LoadedSet], derived: &Derived) -> Database {
    let mut database = Database {
        format: DATABASE_FORMAT,
        sets: Vec::new(),
        cards: Vec::new(),
    };
    for (set_index, loaded) in sets.iter().enumerate() {
        let set = &loaded.set;
        let mut physical = 0u32;
        for (index, card) in &loaded.cards {
            let copies = derived.get(&(set_index, *index)).copied().unwrap_or(1);
            physical += u32::from(copies);
            database.cards.push(Card {
                id: card.id.clone(),
                name: card.name.clone(),
                set: set.id.clone(),
                kind: card.kind,
                stars: card.stars,
                elements: card.elements.clone(),
                types: card.types.clone(),
                rarity: set.kind.rarity(),
                copies,
                effect: card.effect.clone(),
                flavor: card.flavor.clone(),
                translations: Default::default(),
            });
        }
        database.sets.push(Set {
            id: set.id.clone(),
            name: set.name.clone(),
            kind: set.kind,
            cost: set.cost,
            extra_types: set.extra_types.clone(),
            distinct_cards: loaded.cards.len() as u32,
            physical_cards: physical,
            translations: Default::default(),
        });
    }
    database
}

/// Looks a set id up in a database.
pub fn find_set<'a>(database: &'a Database, id: &Id) -> Option<&'a Set> {
    database.sets.iter().find(|s| &s.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

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
