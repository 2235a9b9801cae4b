//! Loading one file on its own: a set file through YAML (with spans) and
//! the JSON Schema into the cards the pool-wide checks read, with the spans
//! they report at; and what a translation file contributes to a build.
//! A file's result depends on its text alone, so the build cache keeps it.

use std::ops::Range;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::diagnostics::{Code, Diagnostic, Fix};
use crate::effect::{Effect, ParseMemo};
use crate::model::{Art, CardSource, SetSource};
use crate::pool::SourceFile;
use crate::set_schema::SetValidator;
use crate::words::{Id, SetKind, with_article};
use crate::yaml::{self, Node, NodeValue, TextStyle, text_offsets};

/// A set file that parsed and whose header matches the schema: what the
/// pool-wide checks need, with the spans they report at (no document tree,
/// so a file's result is small and can be cached).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LoadedSet {
    /// The file (the cache has it as the entry's key).
    #[serde(skip)]
    pub path: Arc<str>,
    /// The set's header (its `cards` list is empty; see `cards`).
    pub set: SetSource,
    pub spans: SetSpans,
    /// Cards that match the schema (cached apart, in a binary form).
    #[serde(skip)]
    pub cards: Vec<LoadedCard>,
    /// How many cards the file lists, readable or not (none when `cards`
    /// is not a list).
    pub listed_cards: Option<usize>,
    /// What could be read of the cards that could not be read whole (a
    /// `kind` that is no card kind, a STAR that is not a number), in file
    /// order: the pool checks that need only these parts still count them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partial: Vec<PartialCard>,
    /// The header's kind, cost or extra types could not be read (the
    /// schema said why): `set` has a stand-in kind, and the checks that
    /// need the real one (cost, copy rule, set size) are skipped, while
    /// the cards still take part in the others.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub header_refused: bool,
}

/// The parts of an unreadable card that the pool checks use: its id and
/// name (for uniqueness), its STAR (for the copy rule) and its elements and
/// types (for the symbol checks), each when it is there and of the right
/// type. A STAR the schema refuses is left out.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PartialCard {
    /// Index in the file's `cards` list.
    pub index: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stars: Option<u8>,
    #[serde(with = "span_pair")]
    pub id_span: Range<usize>,
    #[serde(with = "span_pair")]
    pub name_span: Range<usize>,
    /// The elements and types written as text, each with its span.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub elements: Vec<(String, Range<usize>)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<(String, Range<usize>)>,
}

impl PartialCard {
    /// What can be read of card `index` (a JSON value of any shape).
    fn of(index: usize, value: &serde_json::Value, spans: &CardSpans) -> PartialCard {
        let text = |key: &str| value.get(key).and_then(|v| v.as_str()).map(str::to_string);
        let stars = value
            .get("stars")
            .and_then(serde_json::Value::as_u64)
            .and_then(|s| u8::try_from(s).ok())
            .filter(|s| SetValidator::get().stars().contains(s));
        // Each word of a list with its span; an item that is no text
        // (the schema said so) is left out.
        let words = |key: &str, at: &[Range<usize>]| -> Vec<(String, Range<usize>)> {
            let items = value.get(key).and_then(|v| v.as_array());
            let items = items
                .map(|items| items.iter().enumerate())
                .into_iter()
                .flatten();
            items
                .filter_map(|(i, v)| Some((v.as_str()?.to_string(), CardSpans::item(at, i))))
                .collect()
        };
        PartialCard {
            index,
            id: text("id"),
            name: text("name"),
            stars,
            id_span: spans.id.clone(),
            name_span: spans.name.clone(),
            elements: words("elements", &spans.elements),
            types: words("types", &spans.types),
        }
    }
}

/// One readable card with its place in the file.
#[derive(Debug, Clone)]
pub struct LoadedCard {
    /// Index in the file's `cards` list.
    pub index: usize,
    pub card: CardSource,
    pub spans: CardSpans,
    /// The parsed effect, when the card has one without syntax errors
    /// (parsed again from the text rather than cached).
    pub effect: Option<Arc<Effect>>,
    /// The card's art as this build found it (looked for anew by every
    /// build: the image is not part of the set file, so never cached).
    pub art: Option<Art>,
}

/// Where the header's parts are (keys for whole-entry findings).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct SetSpans {
    #[serde(with = "span_pair")]
    pub id: Range<usize>,
    #[serde(with = "span_pair")]
    pub kind_key: Range<usize>,
    #[serde(with = "span_pair")]
    pub cost_key: Range<usize>,
    #[serde(with = "span_pair")]
    pub extra_types_key: Range<usize>,
    #[serde(with = "span_pair")]
    pub cards_key: Range<usize>,
}

/// Where a card's parts are (cached by `cache::card_codec`).
#[derive(Debug, Clone, Default)]
pub struct CardSpans {
    pub id: Range<usize>,
    pub id_key: Range<usize>,
    pub name: Range<usize>,
    pub copies: Range<usize>,
    pub elements: Vec<Range<usize>>,
    pub types: Vec<Range<usize>>,
    /// The effect text's value and how it is written, to locate findings
    /// inside it.
    pub effect: Range<usize>,
    pub effect_style: TextStyle,
    /// The `art` value (the card, when it has none).
    pub art: Range<usize>,
    /// The `kind` value (the card, when it has none).
    pub kind: Range<usize>,
    /// The `stars`, `elements` and `types` entries, each from its key to
    /// the end of its value (empty where the card has none), where a card
    /// kind that takes none of them reports them.
    pub stars_entry: Range<usize>,
    pub elements_entry: Range<usize>,
    pub types_entry: Range<usize>,
}

/// Spans in the cache as `[start, end]`, shorter than `{"start": .., "end": ..}`.
mod span_pair {
    use std::ops::Range;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(span: &Range<usize>, s: S) -> Result<S::Ok, S::Error> {
        (span.start, span.end).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Range<usize>, D::Error> {
        let (start, end) = <(usize, usize)>::deserialize(d)?;
        Ok(start..end)
    }
}

fn value_span(doc: &Node, pointer: &str) -> Range<usize> {
    doc.locate(pointer).node.span.clone()
}

fn key_span(doc: &Node, pointer: &str) -> Range<usize> {
    let located = doc.locate(pointer);
    located.key.unwrap_or_else(|| located.node.span.clone())
}

impl SetSpans {
    fn of(doc: &Node) -> Self {
        SetSpans {
            id: value_span(doc, "/id"),
            kind_key: key_span(doc, "/kind"),
            cost_key: key_span(doc, "/cost"),
            extra_types_key: key_span(doc, "/extra-types"),
            cards_key: key_span(doc, "/cards"),
        }
    }
}

impl CardSpans {
    fn of(doc: &Node, index: usize) -> Self {
        let card = doc.locate(&format!("/cards/{index}")).node;
        // One pass over the card's fields (a missing field points at the card).
        let mut spans = CardSpans {
            id: card.span.clone(),
            id_key: card.span.clone(),
            name: card.span.clone(),
            copies: card.span.clone(),
            effect: card.span.clone(),
            art: card.span.clone(),
            kind: card.span.clone(),
            ..CardSpans::default()
        };
        let items = |node: &Node| {
            node.as_seq()
                .map(|items| items.iter().map(|n| n.span.clone()).collect())
                .unwrap_or_default()
        };
        let fields = match &card.value {
            NodeValue::Map(fields) => &fields[..],
            _ => &[],
        };
        // The first of repeated keys counts, as with `Node::locate`.
        let mut seen = 0u16;
        for field in fields {
            let value = &field.value;
            let key = field.key.as_str();
            let bit = match key {
                Some("id") => 1,
                Some("name") => 2,
                Some("copies") => 4,
                Some("elements") => 8,
                Some("types") => 16,
                Some("effect") => 32,
                Some("art") => 64,
                Some("kind") => 128,
                Some("stars") => 256,
                _ => continue,
            };
            if seen & bit != 0 {
                continue;
            }
            seen |= bit;
            match key {
                Some("id") => {
                    spans.id = value.span.clone();
                    spans.id_key = field.key.span.clone();
                }
                Some("name") => spans.name = value.span.clone(),
                Some("art") => spans.art = value.span.clone(),
                Some("copies") => spans.copies = value.span.clone(),
                Some("kind") => spans.kind = value.span.clone(),
                Some("stars") => spans.stars_entry = field.key.span.start..value.span.end,
                Some("elements") => {
                    spans.elements = items(value);
                    spans.elements_entry = field.key.span.start..value.span.end;
                }
                Some("types") => {
                    spans.types = items(value);
                    spans.types_entry = field.key.span.start..value.span.end;
                }
                Some("effect") => {
                    spans.effect = value.span.clone();
                    if let NodeValue::Str(_, style) = &value.value {
                        spans.effect_style = TextStyle::of(*style);
                    }
                }
                _ => {}
            }
        }
        spans
    }

    pub(crate) fn item(list: &[Range<usize>], i: usize) -> Range<usize> {
        list.get(i).cloned().unwrap_or_default()
    }
}

/// One set file's own result: what the pool-wide checks need and the
/// file's own findings. Depends only on the file's text (so it is cached).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FileResult {
    pub set: Option<LoadedSet>,
    pub diagnostics: Vec<Diagnostic>,
}

/// A translation file's part of a build: its language, the set it
/// translates (none when it could not be read) and its own findings.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LocaleSummary {
    pub lang: String,
    pub set: Option<String>,
    /// The `set:` value, where a second file for the set is reported.
    pub set_span: Range<usize>,
    pub diagnostics: Vec<Diagnostic>,
    /// The set's name in the file's language, when it gives one (effects
    /// rendered in that language name the set so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set_name: Option<String>,
}

/// Whether cached findings were made for the file as it is named now: the
/// cache is keyed by the path within the pool, so `--cards ./pool` and
/// `--cards pool` share it, but a finding names the file as it was shown.
pub(crate) fn fits(diagnostics: &[Diagnostic], path: &Arc<str>) -> bool {
    diagnostics
        .iter()
        .all(|d| d.path == *path && d.related.iter().all(|r| r.path == *path))
}

/// One file's own checks.
pub(crate) fn load_file(file: &SourceFile, schema_only: bool, memo: &ParseMemo) -> FileResult {
    let mut diagnostics = Vec::new();
    if schema_only {
        // YAML and the JSON Schema only: no cards read, no effects parsed.
        if let Some(doc) = yaml::parse_reported(file.text(), &file.path, &mut diagnostics) {
            diagnostics.extend(SetValidator::get().validate(&file.path, &doc, &doc.to_json()));
        }
        return FileResult {
            set: None,
            diagnostics,
        };
    }
    let set = load_set_with(file, memo, &mut diagnostics);
    FileResult { set, diagnostics }
}

/// Parses and schema-checks one set file.
pub fn load_set(file: &SourceFile, diagnostics: &mut Vec<Diagnostic>) -> Option<LoadedSet> {
    load_set_with(file, &ParseMemo::new(), diagnostics)
}

/// [`load_set`], its effect texts parsed through `memo`.
pub(crate) fn load_set_with(
    file: &SourceFile,
    memo: &ParseMemo,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<LoadedSet> {
    let doc = parse_set_file(file, diagnostics)?;
    load_parsed(file, doc, memo, diagnostics)
}

/// [`load_set`] and the file's YAML tree (for the translation commands,
/// which locate the English text in it).
pub(crate) fn load_set_and_doc(
    file: &SourceFile,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(LoadedSet, Node)> {
    let doc = parse_set_file(file, diagnostics)?;
    let set = load_parsed(file, doc.clone(), &ParseMemo::new(), diagnostics)?;
    Some((set, doc))
}

/// A set file's YAML tree, or its YAML error reported.
fn parse_set_file(file: &SourceFile, diagnostics: &mut Vec<Diagnostic>) -> Option<Node> {
    yaml::parse_reported(file.text(), &file.path, diagnostics)
}

/// [`load_set`] from the file's tree, which it takes apart.
/// Each of a card's texts in an allocation of its own size. The YAML
/// scanner grows a scalar's string as it reads it, and the string moves into
/// the card, which a build keeps to the end: with the room left in them,
/// the cards' strings took 73 MB of a 100,000-card build's peak heap, and
/// fitting them took its peak memory from 446 to 395 MiB at no measurable
/// cost in time.
fn fit_text(card: &mut CardSource) {
    card.id.0.shrink_to_fit();
    card.name.shrink_to_fit();
    for id in card.types.iter_mut().chain(&mut card.category) {
        id.0.shrink_to_fit();
    }
    for text in [&mut card.effect, &mut card.flavor, &mut card.art]
        .into_iter()
        .flatten()
    {
        text.shrink_to_fit();
    }
}

fn load_parsed(
    file: &SourceFile,
    doc: Node,
    memo: &ParseMemo,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<LoadedSet> {
    // Everything wanted from the tree is taken before the tree becomes JSON
    // (by moving its text, not copying it).
    let spans = SetSpans::of(&doc);
    let listed_cards = doc.get("cards").and_then(Node::as_seq).map(<[Node]>::len);
    let card_spans: Vec<CardSpans> = (0..listed_cards.unwrap_or(0))
        .map(|i| CardSpans::of(&doc, i))
        .collect();
    let errata_spans = ErrataSpans::of(&doc);
    let json = doc.into_json();
    let validator = SetValidator::get();
    let mut bad_fields = Vec::new();
    // Rare: the tree is read again to locate every schema error.
    if !validator.is_valid(&json)
        && let Ok(doc) = yaml::parse(file.text())
    {
        let schema_errors = validator.validate(&file.path, &doc, &json);
        bad_fields = card_fields_with_errors(&doc, &schema_errors);
        diagnostics.extend(schema_errors);
    }
    // The header (everything but the cards) must match for semantics to run;
    // each card is then read on its own, so one bad card hides no other.
    let mut header = json;
    let raw_cards = match header.get_mut("cards") {
        Some(cards) => std::mem::replace(cards, serde_json::Value::Array(Vec::new())),
        None => serde_json::Value::Array(Vec::new()),
    };
    let (set, header_refused) = read_header(header)?;
    // Cards are read from values they own, so their text moves rather
    // than being copied once more.
    let items = match raw_cards {
        serde_json::Value::Array(items) => items,
        _ => Vec::new(),
    };
    // Sized up front: a card is a few hundred bytes, and a core set's
    // list grown by doubling copied each one several times.
    let mut cards = Vec::with_capacity(items.len());
    let mut partial = Vec::new();
    for (i, (mut v, spans)) in items.into_iter().zip(card_spans).enumerate() {
        // Drop the fields the schema refused, so the rest of the card
        // still takes part in the pool-wide checks. Required fields
        // stay: a value the schema refuses (stars: 11, an id with
        // spaces) may still be read.
        let refused = fields_of_card(&bad_fields, i);
        // A card the schema accepts reads whole; for one it refuses, what
        // the pool checks need is kept aside should it not read.
        let fallback = (!refused.is_empty() || !v.is_object()).then(|| {
            let effect = v.get("effect").and_then(|e| e.as_str()).map(str::to_string);
            (PartialCard::of(i, &v, &spans), effect)
        });
        if let Some(card) = v.as_object_mut() {
            let dropped = refused
                .iter()
                .map(|(_, field)| field.as_str())
                .filter(|field| !matches!(*field, "id" | "name" | "kind" | "stars"));
            for field in dropped {
                card.remove(field);
            }
        }
        match serde_json::from_value::<CardSource>(v) {
            Ok(mut card) => {
                fit_text(&mut card);
                let set_kind = (!header_refused).then_some(set.kind);
                check_kind(file, set_kind, &card, &spans, diagnostics);
                let effect = parse_effect(file, &card, &spans, memo, diagnostics);
                if !card.errata.is_empty() {
                    let at = errata_spans
                        .iter()
                        .find(|(index, _)| *index == i)
                        .map_or(&[][..], |(_, spans)| &spans[..]);
                    check_errata(file, &card, at, memo, diagnostics);
                }
                cards.push(LoadedCard {
                    index: i,
                    card,
                    spans,
                    effect,
                    art: None,
                });
            }
            Err(_) => {
                let (card, effect) = fallback.unwrap_or_default();
                // Its effect's syntax is still checked.
                parse_effect_text(file, effect.as_deref(), &spans, memo, diagnostics);
                partial.push(PartialCard { index: i, ..card });
            }
        }
    }
    Some(LoadedSet {
        path: file.path.clone(),
        spans,
        listed_cards,
        set,
        cards,
        partial,
        header_refused,
    })
}

/// A set's header (its cards taken out); when it does not read whole, what
/// the pool checks of its cards need: its id and name, and its extra types
/// when they read, with a stand-in kind (`true`: the header was refused).
fn read_header(header: serde_json::Value) -> Option<(SetSource, bool)> {
    if let Ok(set) = serde_json::from_value::<SetSource>(header.clone()) {
        return Some((set, false));
    }
    let text = |key: &str| header.get(key)?.as_str().map(str::to_string);
    let extra_types = header
        .get("extra-types")
        .and_then(|types| serde_json::from_value(types.clone()).ok())
        .unwrap_or_default();
    let set = SetSource {
        id: Id(text("id")?),
        name: text("name").unwrap_or_default(),
        kind: SetKind::Expansion,
        cost: None,
        extra_types,
        cards: Vec::new(),
    };
    Some((set, true))
}

/// Parses a card's effect; syntax errors become diagnostics located inside
/// the YAML value.
pub(crate) fn parse_effect(
    file: &SourceFile,
    card: &CardSource,
    spans: &CardSpans,
    memo: &ParseMemo,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Arc<Effect>> {
    parse_effect_text(file, card.effect.as_deref(), spans, memo, diagnostics)
}

/// [`parse_effect`] of an effect text, when there is one.
fn parse_effect_text(
    file: &SourceFile,
    text: Option<&str>,
    spans: &CardSpans,
    memo: &ParseMemo,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Arc<Effect>> {
    let at = (spans.effect.start, spans.effect_style);
    parse_text_at(file, text?, at, memo, diagnostics)
}

/// Where a card's errata entries are: each one's `until` and `effect`
/// values (read from the tree only for cards that have errata).
#[derive(Debug, Clone, Default)]
struct ErrataSpans {
    until: Range<usize>,
    effect: Range<usize>,
    effect_style: TextStyle,
}

impl ErrataSpans {
    /// (card index, its entries) of every card with an `errata` list.
    fn of(doc: &Node) -> Vec<(usize, Vec<ErrataSpans>)> {
        let Some(cards) = doc.get("cards").and_then(Node::as_seq) else {
            return Vec::new();
        };
        let mut found = Vec::new();
        for (index, card) in cards.iter().enumerate() {
            let Some(entries) = card.get("errata").and_then(Node::as_seq) else {
                continue;
            };
            let spans = entries
                .iter()
                .map(|entry| {
                    let mut spans = ErrataSpans {
                        until: entry.span.clone(),
                        effect: entry.span.clone(),
                        ..ErrataSpans::default()
                    };
                    if let Some(until) = entry.get("until") {
                        spans.until = until.span.clone();
                    }
                    if let Some(effect) = entry.get("effect") {
                        spans.effect = effect.span.clone();
                        if let NodeValue::Str(_, style) = &effect.value {
                            spans.effect_style = TextStyle::of(*style);
                        }
                    }
                    spans
                })
                .collect();
            found.push((index, spans));
        }
        found
    }
}

/// What a card's kind asks of it: a STAR on the kinds that have one,
/// none (and no element or type) on venues and characters, and a set of
/// the kind it is bound to, each way (`set_kind` is `None` when the
/// header could not be read).
fn check_kind(
    file: &SourceFile,
    set_kind: Option<SetKind>,
    card: &CardSource,
    spans: &CardSpans,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let words = with_article(&card.kind.title().to_lowercase());
    if card.kind.has_stars() && card.stars.is_none() {
        diagnostics.push(
            Diagnostic::error(
                Code::MissingStars,
                &file.path,
                spans.kind.clone(),
                format!("`{}` is {words} and needs a STAR", card.name),
            )
            .with_label("no `stars`")
            .with_help("add `stars: N` (1 to 10); only venues and characters have no STAR"),
        );
    }
    if !card.kind.has_stars() {
        not_on_kind(file, card, spans, &words, diagnostics);
    }
    if let Some(set_kind) = set_kind {
        outside_set(file, set_kind, card, spans, &words, diagnostics);
    }
}

/// A STAR, elements or types on a venue or character: each entry located,
/// with its line's removal as the fix where the entry has a line to itself.
fn not_on_kind(
    file: &SourceFile,
    card: &CardSource,
    spans: &CardSpans,
    words: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let written = [
        ("stars", "STAR", card.stars.is_some(), &spans.stars_entry),
        (
            "elements",
            "elements",
            !card.elements.is_empty(),
            &spans.elements_entry,
        ),
        ("types", "types", !card.types.is_empty(), &spans.types_entry),
    ];
    for (key, what, _, entry) in written.into_iter().filter(|w| w.2) {
        let mut found = Diagnostic::error(
            Code::NotOnKind,
            &file.path,
            entry.clone(),
            format!("`{}` is {words}, which has no {what}", card.name),
        )
        .with_label(format!("{words} has no {what}"))
        .with_help(format!(
            "remove `{key}`: venues and characters are never bought, sold or collected, so they have no STAR, element or type"
        ));
        if let Some(line) = entry_line(file.text(), entry) {
            found = found.with_fixes([Fix::replace(format!("remove `{key}`"), line, "")]);
        }
        diagnostics.push(found);
    }
}

/// A card outside the set kind it is bound to, or another kind in a
/// venue or character set: one finding a card, what the set holds first
/// (it has a fix: the kind the set holds).
fn outside_set(
    file: &SourceFile,
    set_kind: SetKind,
    card: &CardSource,
    spans: &CardSpans,
    words: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let at = |message: String| {
        Diagnostic::error(
            Code::KindOutsideSet,
            &file.path,
            spans.kind.clone(),
            message,
        )
    };
    if let Some(held) = set_kind.card_kind().filter(|held| *held != card.kind) {
        let held_words = held.title().to_lowercase();
        diagnostics.push(
            at(format!(
                "`{}` is {words}, but {} set holds only {held_words} cards",
                card.name,
                with_article(set_kind.words())
            ))
            .with_label(format!("not {}", with_article(&held_words)))
            .with_help(format!(
                "make it `kind: {}`, or move it into a set of the kind it is",
                held.as_str()
            ))
            .with_fixes([Fix::replace(
                format!("write `{}`", held.as_str()),
                spans.kind.clone(),
                held.as_str(),
            )]),
        );
    } else if let Some(bound) = card.kind.set_kind().filter(|bound| *bound != set_kind) {
        diagnostics.push(
            at(format!(
                "`{}` is {words}, which stands only in {} set, not in {} set",
                card.name,
                with_article(bound.words()),
                with_article(set_kind.words())
            ))
            .with_label(format!("{words} here"))
            .with_help(format!(
                "move the card into a set of `kind: {}`, or give it the kind it has in this set",
                bound.as_str()
            )),
        );
    }
}

/// The whole line of a block mapping's entry (`    stars: 3` and its line
/// end), when the entry has its line to itself: removing it leaves the
/// rest of the mapping as it was.
fn entry_line(text: &str, entry: &Range<usize>) -> Option<Range<usize>> {
    let start = text.get(..entry.start)?.rfind('\n').map_or(0, |i| i + 1);
    let before = &text[start..entry.start];
    let rest = text.get(entry.end..)?;
    let end = rest.find('\n').map_or(text.len(), |i| entry.end + i + 1);
    let after = text[entry.end..end].trim();
    let alone = before.chars().all(|c| c == ' ') && (after.is_empty() || after.starts_with('#'));
    (alone && !entry.is_empty()).then_some(start..end)
}

/// A card's errata history: each release named once, each earlier text in
/// the effect language (its syntax only: an old text may name a keyword
/// the pool no longer has).
fn check_errata(
    file: &SourceFile,
    card: &CardSource,
    spans: &[ErrataSpans],
    memo: &ParseMemo,
    diagnostics: &mut Vec<Diagnostic>,
) {
    for (i, errata) in card.errata.iter().enumerate() {
        let at = spans.get(i).cloned().unwrap_or_default();
        if let Some(first) = card.errata[..i]
            .iter()
            .position(|e| e.until == errata.until)
        {
            let first_at = spans.get(first).map_or(0..0, |s| s.until.clone());
            diagnostics.push(
                Diagnostic::error(
                    Code::DuplicateErrata,
                    &file.path,
                    at.until.clone(),
                    format!(
                        "`{}` has two errata entries until release `{}`",
                        card.name, errata.until
                    ),
                )
                .with_label("named again here")
                .with_related(&file.path, first_at, "first named here")
                .with_help("one entry per release: keep the text that was used until it"),
            );
        }
        let effect_at = (at.effect.start, at.effect_style);
        parse_text_at(file, &errata.effect, effect_at, memo, diagnostics);
    }
}

/// Parses an effect text written at `(start, style)`; syntax errors
/// become diagnostics located inside the YAML value.
fn parse_text_at(
    file: &SourceFile,
    text: &str,
    (start, style): (usize, TextStyle),
    memo: &ParseMemo,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Arc<Effect>> {
    match memo.parse(text) {
        Ok(tree) => Some(tree),
        Err(errors) => {
            // Offsets only as far as the findings reach: a text refused for
            // its length is not mapped whole.
            let reach = errors.iter().map(|e| e.span.end).max().unwrap_or(0);
            let located = text.get(..reach).unwrap_or(text);
            let offsets = text_offsets(file.text(), start, style, located);
            diagnostics.extend(
                errors
                    .into_iter()
                    .map(|e| e.into_diagnostic(&file.path, &offsets)),
            );
            None
        }
    }
}

/// (card index, field) of every schema error inside a card, found by the
/// error's span lying within that field's entry; sorted by card. The
/// entries of all cards are listed once in file order and each error finds
/// its entry by binary search: looping over errors × cards was quadratic
/// (10,000 empty cards took most of a minute).
fn card_fields_with_errors(doc: &Node, errors: &[Diagnostic]) -> Vec<(usize, String)> {
    let Some(cards) = doc.get("cards").and_then(Node::as_seq) else {
        return Vec::new();
    };
    // (start, end, card, field), ordered by start: entries do not overlap.
    let mut entries: Vec<(usize, usize, usize, &str)> = Vec::new();
    for (i, card) in cards.iter().enumerate() {
        let NodeValue::Map(fields) = &card.value else {
            continue;
        };
        for entry in fields {
            if let Some(name) = entry.key.as_str() {
                let end = entry.value.span.end.max(entry.key.span.end);
                entries.push((entry.key.span.start, end, i, name));
            }
        }
    }
    entries.sort_unstable_by_key(|&(start, ..)| start);
    let mut found: Vec<(usize, String)> = errors
        .iter()
        .filter_map(|error| {
            let after = entries.partition_point(|&(start, ..)| start <= error.span.start);
            let &(_, end, card, name) = entries.get(after.checked_sub(1)?)?;
            (error.span.end <= end).then(|| (card, name.to_string()))
        })
        .collect();
    found.sort_unstable();
    found
}

/// The fields of card `index` in a list from [`card_fields_with_errors`].
fn fields_of_card(bad_fields: &[(usize, String)], index: usize) -> &[(usize, String)] {
    let from = bad_fields.partition_point(|(card, _)| *card < index);
    let to = bad_fields.partition_point(|(card, _)| *card <= index);
    &bad_fields[from..to]
}

#[cfg(test)]
mod entries {
    use super::entry_line;

    #[test]
    fn an_entry_alone_on_its_line_is_removed_with_its_line_end() {
        let text = "  - id: a\n    stars: 3 # old\n    kind: venue\n";
        let at = text.find("stars").unwrap();
        let line = entry_line(text, &(at..at + 8)).unwrap();
        assert_eq!(&text[line], "    stars: 3 # old\n");
        // In a flow mapping or after a `- `, the line is not the entry's.
        let flow = "  - {id: a, stars: 3}\n";
        let at = flow.find("stars").unwrap();
        assert_eq!(entry_line(flow, &(at..at + 8)), None);
        let first = "  - stars: 3\n";
        let at = first.find("stars").unwrap();
        assert_eq!(entry_line(first, &(at..at + 8)), None);
    }
}
