//! One call per player check (`deck check`, `collection check` and `best`,
//! `trade check`, `copies check`): an input's text in, its report and its
//! located findings out. The command line reads the files and prints what
//! comes back; the editor server calls the same functions on the unsaved
//! text of a document.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use super::collection::{self, BestReport, ChosenReport, CollectionReport, RP_PER_CARD};
use super::copies::{self, CopiesReport};
use super::deck::{self, CharacterRef, DeckFormat, DeckReport, ZoneCards};
use super::deck_diff::{self, DeckDiff};
use super::format::Formats;
use super::input::{self, InputFile, Located};
use super::missing::{self, MissingReport};
use super::share::{self, DeckExport};
use super::stats::{self, DeckStats};
use super::trade::{self, Side, TradeReport};
use super::{Common, Violation, rule};
use crate::cards::{CardIndex, NameIndex, Sought};
use crate::diagnostics::{self, Code, Diagnostic, Sources};
use crate::model::Database;
use crate::report;
use crate::words::Id;

/// What a check found in one input.
#[derive(Debug)]
pub struct Checked<R> {
    /// The command's report (`--format json` prints it).
    pub report: R,
    /// The input's problems, sorted: what the report's `diagnostics`
    /// hold, as findings (with their fixes).
    pub problems: Vec<Diagnostic>,
    /// The input's text, when it could be read, under its name.
    pub sources: Sources,
    /// Where each of the report's violations is written, in order: the
    /// references of the cards it names, first in the input first; a
    /// violation that names no card read is placed at the first card, or at
    /// the file's start when there is none.
    pub places: Vec<Vec<Range<usize>>>,
}

/// What the checks need of a pool, made once and kept while the pool
/// stays as it is: its database, its deck formats and its cards' names.
pub struct Ground {
    pub database: Database,
    pub formats: Formats,
    names: Arc<NameIndex>,
}

impl Ground {
    pub fn new(database: Database, formats: Formats) -> Ground {
        let names = CardIndex::new(&database).names();
        Ground {
            database,
            formats,
            names,
        }
    }

    /// The pool's cards by id and name (no name folded again).
    pub fn index(&self) -> CardIndex<'_> {
        CardIndex::with_names(&self.database, self.names.clone())
    }
}

/// Why no deck can be checked against a pool's formats: the problems of
/// its format files, with a finding that says so; `None` when it has none.
pub fn formats_refused(findings: &[Diagnostic]) -> Option<Vec<Diagnostic>> {
    findings.iter().any(Diagnostic::is_error).then(|| {
        let mut diagnostics = findings.to_vec();
        diagnostics.push(
            Diagnostic::general(
                Code::FormatInvalid,
                "the pool's deck formats have errors, so no deck is checked",
            )
            .with_help("fix the format files (see docs/formats.md)"),
        );
        diagnostics
    })
}

/// The cards, sets and types the pool's formats name that its database
/// does not have, with a finding that says no deck is checked; `None`
/// when they name none.
pub fn formats_unknown(formats: &Formats, database: &Database) -> Option<Vec<Diagnostic>> {
    let mut unknown = formats.unknown_names(database);
    (!unknown.is_empty()).then(|| {
        unknown.push(
            Diagnostic::general(
                Code::FormatInvalid,
                "the pool's deck formats name cards, sets or types it does not have, so no deck is checked",
            )
            .with_help("fix the format files (see docs/formats.md)"),
        );
        unknown
    })
}

/// An input as read: its text, or why it could not be read.
pub type Read = Result<InputFile, Box<Diagnostic>>;

/// Adds the cards a deck names to what its check will look up.
pub fn seek_deck(read: &Read, sought: &mut Sought) {
    if let Ok(file) = read {
        let doc = input::read_deck(file, &mut Vec::new());
        input::seek(&doc.cards, sought);
        for section in &doc.sections {
            input::seek(&section.cards, sought);
        }
    }
}

/// Adds the cards both sides of a trade name to what its check will look
/// up.
pub fn seek_trade(read: &Read, sought: &mut Sought) {
    if let Ok(file) = read {
        let doc = input::read_trade(file, &mut Vec::new());
        input::seek(&doc.a.cards, sought);
        input::seek(&doc.b.cards, sought);
    }
}

/// Adds the cards a collection (`symbol:` allowed) or a binder names to
/// what its check will look up.
pub fn seek_cards(read: &Read, collection: bool, sought: &mut Sought) {
    if let Ok(file) = read {
        let doc = input::read_cards(file, collection, &mut Vec::new());
        input::seek(&doc.cards, sought);
    }
}

/// Adds the cards what is owned (a binder or a copies file) names to what
/// [`deck_missing`] will look up.
pub fn seek_owned(read: &Read, owned: Owned, sought: &mut Sought) {
    match (owned, read) {
        (Owned::Binder, _) => seek_cards(read, false, sought),
        (Owned::Copies, Ok(file)) => {
            let doc = input::read_copies(file, &mut Vec::new());
            input::seek(&doc.cards, sought);
        }
        (Owned::Copies, Err(_)) => {}
    }
}

/// `deck check`: a deck against a format.
pub fn deck(
    index: &CardIndex,
    format: &DeckFormat,
    shown: &str,
    read: Read,
) -> Checked<DeckReport> {
    let file = match read {
        Ok(file) => file,
        Err(problem) => return unreadable(shown, *problem, DeckReport::default),
    };
    let mut found = Vec::new();
    let deck = input::place_deck(index, format, &file, &mut found);
    let players: Vec<_> = (deck.placed.iter())
        .filter(|(_, c, _)| c.kind.is_players())
        .copied()
        .collect();
    let mut outcome = deck::check_zoned(format, deck.character, &players);
    let table = super::not_players(deck.placed.iter().map(|(_, c, _)| *c));
    outcome.violations.splice(0..0, table);
    let written: Vec<(&Id, Range<usize>)> = (deck.placed.iter().map(|(_, c, _)| &c.id))
        .zip(deck.spans.iter().cloned())
        .collect();
    if has_errors(&found) {
        // A title line or a misspelt name does not hide what the cards
        // that were read break: both are reported in one run.
        let mut checked = not_checked(shown, &file, found, DeckReport::default);
        if !deck.character_unknown {
            checked.places = places(&outcome.violations, &written);
            checked.report.common.violations = outcome.violations;
        }
        return checked;
    }
    let ids_of = |zone: Option<usize>| -> Vec<Id> {
        (deck.placed.iter())
            .filter(|(z, _, _)| zone.is_none_or(|zone| *z == zone))
            .flat_map(|(_, c, n)| std::iter::repeat_n(c.id.clone(), *n as usize))
            .collect()
    };
    let zones = match format.zones.len() > 1 {
        true => (format.zones.iter().enumerate())
            .map(|(i, z)| ZoneCards {
                zone: z.id.clone(),
                cards: ids_of(Some(i)),
            })
            .collect(),
        false => Vec::new(),
    };
    let places = places(&outcome.violations, &written);
    let report = DeckReport {
        common: Common::checked(shown, outcome.violations),
        format: Some(format.id.clone()),
        character: deck.character.map(|c| CharacterRef {
            id: c.id.clone(),
            name: c.name.clone(),
        }),
        slots: outcome.slots,
        cards: ids_of(None),
        zones,
    };
    checked(report, &file, places)
}

/// `deck export`: a deck read and resolved (not checked: a deck being
/// built may break a rule) as its canonical list and share code; the
/// input's errors when it cannot be read whole.
pub fn export(
    index: &CardIndex,
    format: &DeckFormat,
    shown: &str,
    file: &InputFile,
) -> Result<DeckExport, Vec<Diagnostic>> {
    let mut found = Vec::new();
    let deck = input::place_deck(index, format, file, &mut found);
    if has_errors(&found) {
        return Err(found);
    }
    Ok(DeckExport {
        file: shown.to_string(),
        list: share::canonical_list(format, deck.character, &deck.placed),
        share_code: share::encode(&share::deck_lines(format, deck.character, &deck.placed)),
    })
}

/// What a command that needs its inputs read whole found (`deck diff`,
/// `deck stats`): its answer, or none when an input could not be read
/// whole (a misspelt card is not a removed one).
#[derive(Debug)]
pub struct Whole<T> {
    pub answer: Option<T>,
    /// The inputs' problems, sorted (warnings too, beside an answer).
    pub problems: Vec<Diagnostic>,
    /// The inputs' texts, when they could be read.
    pub sources: Sources,
}

/// `deck diff`: two versions of a deck, each `(shown, read)`, read and
/// resolved as `deck export` reads them (not checked: either may break a
/// rule), compared zone by zone.
pub fn deck_diff(
    index: &CardIndex,
    format: &DeckFormat,
    a: (&str, Read),
    b: (&str, Read),
) -> Whole<DeckDiff> {
    let mut problems = Vec::new();
    let mut sources = Sources::default();
    let mut files = Vec::new();
    for read in [a.1, b.1] {
        match read {
            Ok(file) => {
                sources.insert(file.path.clone(), file.text.clone());
                files.push(file);
            }
            Err(problem) => problems.push(*problem),
        }
    }
    let decks: Vec<_> = (files.iter())
        .map(|file| input::place_deck(index, format, file, &mut problems))
        .collect();
    diagnostics::sort(&mut problems);
    let answer = match (&decks[..], has_errors(&problems)) {
        ([first, second], false) => Some(deck_diff::compare(
            format,
            &version(a.0, first),
            &version(b.0, second),
        )),
        _ => None,
    };
    Whole {
        answer,
        problems,
        sources,
    }
}

/// `deck stats`: a deck read and resolved as `deck export` reads it (not
/// checked), its cards' statistics.
pub fn deck_stats(
    index: &CardIndex,
    format: &DeckFormat,
    shown: &str,
    read: Read,
) -> Whole<DeckStats> {
    let read = deck_cards(index, format, read);
    Whole {
        answer: (read.answer.as_ref()).map(|cards| stats::deck_stats(shown, cards)),
        problems: read.problems,
        sources: read.sources,
    }
}

/// A deck read and resolved as `deck export` reads it (not checked): its
/// cards with their counts, in the order the deck lists them (zone by
/// zone as written), or none when it cannot be read whole.
pub fn deck_cards<'c>(
    index: &CardIndex<'c>,
    format: &DeckFormat,
    read: Read,
) -> Whole<Vec<super::Counted<'c>>> {
    let file = match read {
        Ok(file) => file,
        Err(problem) => {
            return Whole {
                answer: None,
                problems: vec![*problem],
                sources: Sources::default(),
            };
        }
    };
    let mut problems = Vec::new();
    let deck = input::place_deck(index, format, &file, &mut problems);
    diagnostics::sort(&mut problems);
    let cards: Vec<super::Counted> = deck.placed.iter().map(|(_, c, n)| (*c, *n)).collect();
    Whole {
        answer: (!has_errors(&problems)).then_some(cards),
        problems,
        sources: sources_of(Some(&file)),
    }
}

fn version<'a, 'c>(shown: &'a str, deck: &'a input::PlacedDeck<'c>) -> deck_diff::Version<'a, 'c> {
    deck_diff::Version {
        shown,
        character: deck.character,
        cards: &deck.placed,
    }
}

/// What is owned: a binder (`cards:` or a plain list, as `collection
/// best` reads it) or a copies file (`sets:` and `cards:` with counts, as
/// `copies check` reads it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owned {
    Binder,
    Copies,
}

/// `deck missing` (and `POST /api/deck/missing`): the cards a deck (read
/// as `deck export` reads it) needs that what is owned lacks.
pub fn deck_missing(
    index: &CardIndex,
    format: &DeckFormat,
    deck: (&str, Read),
    owned: (&str, Read, Owned),
) -> Whole<MissingReport> {
    let mut problems = Vec::new();
    let mut sources = Sources::default();
    let mut files = Vec::new();
    for read in [deck.1, owned.1] {
        match read {
            Ok(file) => {
                sources.insert(file.path.clone(), file.text.clone());
                files.push(file);
            }
            Err(problem) => problems.push(*problem),
        }
    }
    let answer = match &files[..] {
        [deck_file, owned_file] => {
            let placed = input::place_deck(index, format, deck_file, &mut problems);
            let references = match owned.2 {
                Owned::Binder => input::read_cards(owned_file, false, &mut problems).cards,
                Owned::Copies => input::read_copies(owned_file, &mut problems).cards,
            };
            let located = input::resolve_located(index, owned_file, &references, &mut problems);
            let counted: Vec<super::Counted> = located.iter().map(|(card, _)| *card).collect();
            (!has_errors(&problems))
                .then(|| missing::missing(deck.0, owned.0, &placed.placed, &counted))
        }
        _ => None,
    };
    diagnostics::sort(&mut problems);
    Whole {
        answer,
        problems,
        sources,
    }
}

/// `collection check`: a collection, in Duel Mode or not.
pub fn collection(
    database: &Database,
    index: &CardIndex,
    shown: &str,
    read: Read,
    duel: bool,
) -> Checked<CollectionReport> {
    let empty = || CollectionReport {
        duel,
        ..CollectionReport::default()
    };
    let file = match read {
        Ok(file) => file,
        Err(problem) => return unreadable(shown, *problem, empty),
    };
    let mut found = Vec::new();
    let doc = input::read_cards(&file, true, &mut found);
    let symbol = (doc.symbol.as_ref())
        .and_then(|s| input::resolve_symbol(database, &file.path, s, &mut found));
    let located = input::resolve_located(index, &file, &doc.cards, &mut found);
    if has_errors(&found) {
        return not_checked(shown, &file, found, empty);
    }
    let (table, cards) = players_only(&located);
    let mut outcome = collection::check(&cards, symbol.as_ref());
    outcome.violations.splice(0..0, table);
    let legal = outcome.violations.is_empty();
    let places = places(&outcome.violations, &written(&located));
    let report = CollectionReport {
        common: Common::checked(shown, outcome.violations),
        duel,
        cards: (cards.iter())
            .flat_map(|(c, n)| std::iter::repeat_n(c.id.clone(), *n as usize))
            .collect(),
        symbols: (outcome.symbols.iter())
            .map(|s| s.as_str().to_string())
            .collect(),
        vp: match legal && !duel {
            true => collection::vp(outcome.size),
            false => None,
        },
        rp: (legal && duel).then_some(outcome.size * RP_PER_CARD),
    };
    checked(report, &file, places)
}

/// `collection best`: the best legal collection in a binder.
pub fn best(index: &CardIndex, shown: &str, read: Read, duel: bool) -> Checked<BestReport> {
    let empty = || BestReport {
        duel,
        ..BestReport::default()
    };
    let file = match read {
        Ok(file) => file,
        Err(problem) => return unreadable(shown, *problem, empty),
    };
    let mut found = Vec::new();
    let doc = input::read_cards(&file, false, &mut found);
    let located = input::resolve_located(index, &file, &doc.cards, &mut found);
    if has_errors(&found) {
        return not_checked(shown, &file, found, empty);
    }
    let (table, binder) = players_only(&located);
    let none = || {
        vec![Violation::new(
            rule::NO_COLLECTION,
            "no two cards of the binder share an element or a type with different STARs: there is no legal collection to make",
            Vec::new(),
        )]
    };
    let mut report = if duel {
        let pair = collection::best_duel(&binder);
        let violations = if pair.size() == 0 { none() } else { Vec::new() };
        BestReport {
            common: Common::checked(shown, violations),
            duel,
            rp: Some(pair.rp()),
            element: Some(pair.element.as_ref().map(ChosenReport::from)),
            kind_type: Some(pair.kind_type.as_ref().map(ChosenReport::from)),
            ..BestReport::default()
        }
    } else {
        match collection::best(&binder) {
            Some(best) => BestReport {
                common: Common::checked(shown, Vec::new()),
                duel,
                cards: Some(best.cards.iter().map(|c| c.id.clone()).collect()),
                symbol: Some(best.symbol.as_str().to_string()),
                vp: collection::vp(best.cards.len() as u64),
                ..BestReport::default()
            },
            None => BestReport {
                common: Common::checked(shown, none()),
                duel,
                ..BestReport::default()
            },
        }
    };
    if !table.is_empty() {
        let violations = &mut report.common.violations;
        violations.splice(0..0, table);
        report.common.legal = false;
    }
    let places = places(&report.common.violations, &written(&located));
    checked(report, &file, places)
}

/// `trade check`: both sides of a trade, in Free Market Mode or not.
pub fn trade(
    index: &CardIndex,
    shown: &str,
    read: Read,
    free_market: bool,
) -> Checked<TradeReport> {
    let empty = || TradeReport {
        free_market,
        ..TradeReport::default()
    };
    let file = match read {
        Ok(file) => file,
        Err(problem) => return unreadable(shown, *problem, empty),
    };
    let mut found = Vec::new();
    let doc = input::read_trade(&file, &mut found);
    let a = input::resolve_located(index, &file, &doc.a.cards, &mut found);
    let b = input::resolve_located(index, &file, &doc.b.cards, &mut found);
    if has_errors(&found) {
        return not_checked(shown, &file, found, empty);
    }
    let mut outcome = trade::check(&side(&a, &doc.a), &side(&b, &doc.b), free_market);
    let both: Vec<Located> = a.into_iter().chain(b).collect();
    let table = super::not_players(both.iter().map(|((card, _), _)| *card));
    outcome.violations.splice(0..0, table);
    let places = places(&outcome.violations, &written(&both));
    let report = TradeReport {
        common: Common::checked(shown, outcome.violations),
        free_market,
        a: outcome.a,
        b: outcome.b,
        difference: outcome.difference,
        balance: outcome.balance,
    };
    checked(report, &file, places)
}

/// `copies check`: owned copies against the sets in play.
pub fn copies(
    database: &Database,
    index: &CardIndex,
    shown: &str,
    read: Read,
) -> Checked<CopiesReport> {
    let file = match read {
        Ok(file) => file,
        Err(problem) => return unreadable(shown, *problem, CopiesReport::default),
    };
    let mut found = Vec::new();
    let doc = input::read_copies(&file, &mut found);
    let sets = input::resolve_sets(database, &file.path, &doc.sets, &mut found);
    let located = input::resolve_located(index, &file, &doc.cards, &mut found);
    if has_errors(&found) {
        return not_checked(shown, &file, found, CopiesReport::default);
    }
    let (table, cards) = players_only(&located);
    let mut outcome = copies::check(&sets, &cards);
    outcome.violations.splice(0..0, table);
    let places = places(&outcome.violations, &written(&located));
    let report = CopiesReport {
        common: Common::checked(shown, outcome.violations),
        sets: sets.iter().map(|s| s.id.clone()).collect(),
        cards: outcome.cards,
    };
    checked(report, &file, places)
}

/// The venues and characters an input names, as violations, and the other
/// cards it names, which the check proper takes.
fn players_only<'a>(located: &[Located<'a>]) -> (Vec<Violation>, Vec<super::Counted<'a>>) {
    let table = super::not_players(located.iter().map(|((card, _), _)| *card));
    let players = (located.iter())
        .map(|(card, _)| *card)
        .filter(|(card, _)| card.kind.is_players())
        .collect();
    (table, players)
}

/// A side of a trade as read, for the check: a player's cards only.
fn side<'a>(cards: &[Located<'a>], side: &input::SideDoc) -> Side<'a> {
    Side {
        cards: (cards.iter())
            .map(|(card, _)| *card)
            .filter(|(card, _)| card.kind.is_players())
            .collect(),
        dollars: side.dollars,
        friendship: side.friendship,
    }
}

/// Any error among the findings?
fn has_errors(found: &[Diagnostic]) -> bool {
    found.iter().any(Diagnostic::is_error)
}

/// Each card read, by id, with where it is written.
fn written<'c>(located: &'c [Located]) -> Vec<(&'c Id, Range<usize>)> {
    let cards = located.iter();
    cards
        .map(|((card, _), span)| (&card.id, span.clone()))
        .collect()
}

/// Where each violation is written (see [`Checked::places`]), in one pass
/// over the cards read and one over the cards each violation names.
fn places(violations: &[Violation], written: &[(&Id, Range<usize>)]) -> Vec<Vec<Range<usize>>> {
    let mut spans: HashMap<&Id, Vec<Range<usize>>> = HashMap::new();
    for (id, span) in written {
        spans.entry(id).or_default().push(span.clone());
    }
    let first = written.first().map_or(0..0, |(_, span)| span.clone());
    let place = |violation: &Violation| {
        let mut found: Vec<Range<usize>> = (violation.cards.iter())
            .filter_map(|id| spans.get(id))
            .flatten()
            .cloned()
            .collect();
        found.sort_by_key(|span| (span.start, span.end));
        found.dedup();
        if found.is_empty() {
            found.push(first.clone());
        }
        found
    };
    violations.iter().map(place).collect()
}

fn checked<R>(report: R, file: &InputFile, places: Vec<Vec<Range<usize>>>) -> Checked<R> {
    Checked {
        report,
        problems: Vec::new(),
        sources: sources_of(Some(file)),
        places,
    }
}

/// An input that was read and has problems: not checked.
fn not_checked<R: Report>(
    shown: &str,
    file: &InputFile,
    found: Vec<Diagnostic>,
    empty: impl FnOnce() -> R,
) -> Checked<R> {
    problems(shown, Some(file), found, empty)
}

/// An input that could not be read.
fn unreadable<R: Report>(
    shown: &str,
    problem: Diagnostic,
    empty: impl FnOnce() -> R,
) -> Checked<R> {
    problems(shown, None, vec![problem], empty)
}

fn problems<R: Report>(
    shown: &str,
    file: Option<&InputFile>,
    mut found: Vec<Diagnostic>,
    empty: impl FnOnce() -> R,
) -> Checked<R> {
    diagnostics::sort(&mut found);
    let sources = sources_of(file);
    let mut report = empty();
    *report.common_mut() =
        Common::not_checked(shown, report::json_report(&found, &sources).diagnostics);
    Checked {
        report,
        problems: found,
        sources,
        places: Vec::new(),
    }
}

fn sources_of(file: Option<&InputFile>) -> Sources {
    let mut sources = Sources::default();
    if let Some(file) = file {
        sources.insert(file.path.clone(), file.text.clone());
    }
    sources
}

/// A report with the part every report has.
pub trait Report {
    fn common(&self) -> &Common;
    fn common_mut(&mut self) -> &mut Common;
}

macro_rules! report_common {
    ($($report:ty),*) => {
        $(impl Report for $report {
            fn common(&self) -> &Common {
                &self.common
            }
            fn common_mut(&mut self) -> &mut Common {
                &mut self.common
            }
        })*
    };
}

report_common!(
    DeckReport,
    CollectionReport,
    BestReport,
    TradeReport,
    CopiesReport
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::Workspace;

    fn builtin() -> Ground {
        let workspace = Workspace::builtin();
        let database = workspace.database().expect("the built-in pool builds");
        Ground::new(database, workspace.formats().0)
    }

    fn deck_of(ground: &Ground, path: &str, text: &str) -> Checked<DeckReport> {
        let format = ground.formats.default_format();
        deck(
            &ground.index(),
            format,
            path,
            Ok(InputFile::new(path, text)),
        )
    }

    /// The text with a finding's only fix made.
    fn fixed(text: &str, finding: &Diagnostic) -> String {
        let [fix] = &finding.fixes[..] else {
            panic!("one fix: {finding:?}");
        };
        let mut text = text.to_string();
        for edit in fix.edits.iter().rev() {
            text.replace_range(edit.span.clone(), &edit.text);
        }
        text
    }

    #[test]
    fn a_misspelt_card_is_fixed_in_a_list_and_in_yaml_and_the_deck_is_clean() {
        let ground = builtin();
        for (path, text) in [
            ("deck.txt", "2x Boiler Golm\n"),
            ("deck.txt", "Rivet Gremlin\nBoiler Golm x1 # the big one\n"),
            ("deck.yaml", "cards:\n  - Rivet Gremlin\n  - Boiler Golm\n"),
            ("deck.yaml", "cards: [Rivet Gremlin, 1x Boiler Golm]\n"),
        ] {
            let checked = deck_of(&ground, path, text);
            let [problem] = &checked.problems[..] else {
                panic!("{text}: {:?}", checked.problems);
            };
            assert_eq!(problem.code, Code::UnknownCard);
            let text = fixed(text, problem);
            assert!(text.contains("Boiler Golem"), "{text}");
            let again = deck_of(&ground, path, &text);
            assert!(again.problems.is_empty(), "{text}: {:?}", again.problems);
            assert!(again.report.common.checked);
        }
    }

    #[test]
    fn no_fix_where_the_name_is_not_written_as_read() {
        let ground = builtin();
        for (path, text) in [
            // An escape inside a quoted scalar: the span is not the name.
            ("deck.yaml", "cards:\n  - \"Boiler\\x20Golm\"\n"),
            // A bare count read as part of the name would be lost.
            ("deck.txt", "2 Boiler Golm\n"),
        ] {
            let checked = deck_of(&ground, path, text);
            let unknown = checked
                .problems
                .iter()
                .find(|d| d.code == Code::UnknownCard);
            let unknown = unknown.unwrap_or_else(|| panic!("{text}: {:?}", checked.problems));
            assert!(unknown.fixes.is_empty(), "{text}: {:?}", unknown.fixes);
        }
    }

    #[test]
    fn a_violation_is_placed_at_every_reference_of_its_cards() {
        let ground = builtin();
        let text = "Rivet Gremlin\nBoiler Golem\nrivet-gremlin\n";
        let checked = deck_of(&ground, "deck.txt", text);
        let violations = &checked.report.common.violations;
        let duplicate = violations
            .iter()
            .position(|v| v.rule == rule::DUPLICATE_CARD);
        let places = &checked.places[duplicate.expect("a duplicate")];
        let written: Vec<&str> = places.iter().map(|span| &text[span.clone()]).collect();
        assert_eq!(written, ["Rivet Gremlin", "rivet-gremlin"]);
    }

    #[test]
    fn venues_and_characters_are_no_players_cards_in_every_check() {
        let ground = builtin();
        let index = ground.index();
        let named = |rule_cards: &[Violation]| -> Vec<(String, Vec<String>)> {
            (rule_cards.iter())
                .filter(|v| v.rule == rule::NOT_A_PLAYERS_CARD)
                .map(|v| {
                    (
                        v.message.clone(),
                        v.cards.iter().map(|c| c.0.clone()).collect(),
                    )
                })
                .collect()
        };
        let text = "Tumbleweed Jackrabbit\nSunken Museum\nFulton Suitcase\n";
        let deck = deck_of(&ground, "deck.txt", text);
        let found = named(&deck.report.common.violations);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0]
                .0
                .starts_with("`Sunken Museum` is a Venue: it is no player's card")
        );
        assert!(found[1].0.starts_with("`Fulton Suitcase` is a Character"));
        let places: Vec<&str> = (deck.places.iter().take(2))
            .map(|spans| &text[spans[0].clone()])
            .collect();
        assert_eq!(places, ["Sunken Museum", "Fulton Suitcase"]);
        // The deck's slots count the player's cards only.
        assert_eq!(deck.report.slots[0].count, 1);

        let read = |path: &str, text: &str| Ok(InputFile::new(path, text));
        let cards = "cards: [Tumbleweed Jackrabbit, Dustdevil Roadrunner, Volcano Rim Arena]\n";
        let db = &ground.database;
        let collection = collection(db, &index, "c.yaml", read("c.yaml", cards), false);
        assert_eq!(named(&collection.report.common.violations).len(), 1);
        assert!(!collection.report.common.legal);
        let best = best(&index, "b.yaml", read("b.yaml", cards), false);
        assert_eq!(named(&best.report.common.violations).len(), 1);
        assert!(!best.report.common.legal);
        let sides =
            "a: {cards: [High Noon Sheriff, Morrey Caardmaan]}\nb: {cards: [High Noon Sheriff]}\n";
        let trade = trade(&index, "t.yaml", read("t.yaml", sides), false);
        let found = named(&trade.report.common.violations);
        assert_eq!(found[0].1, ["morrey-caardmaan"]);
        // The rest of the trade is even: the character adds no value.
        assert_eq!(trade.report.common.violations.len(), 1);
        let owned = "sets: [tour-venues]\ncards: {Rooftop Bazaar: 1}\n";
        let copies = copies(db, &index, "o.yaml", read("o.yaml", owned));
        assert_eq!(named(&copies.report.common.violations).len(), 1);
    }

    #[test]
    fn a_violation_naming_no_card_is_placed_at_the_first() {
        let violation = Violation::new(rule::TOO_FEW_CARDS, "too few", Vec::new());
        let id = Id("a".to_string());
        let at_first = places(std::slice::from_ref(&violation), &[(&id, 4..5)]);
        assert_eq!(at_first, vec![vec![4..5]]);
        let at_start = places(&[violation], &[]);
        assert_eq!(at_start, vec![vec![0..0]]);
    }
}
