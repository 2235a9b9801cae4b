//! Reading the input of a check: YAML (through [`crate::yaml`], so every
//! card reference keeps its span) or a plain-text list, then resolving card,
//! character, set and symbol references against the pool.
//!
//! Plain text is one card per line, `#` starts a comment, a count may stand
//! before or after the name (`2 Canyon Wyrm`, `2x Canyon Wyrm`, `Canyon
//! Wyrm x2`), and a few
//! `key: value` header lines carry the rest (`character: Deques`,
//! `symbol: fire`, `sets: a, b`; in a trade `a:` and `b:` open the sides,
//! each with `dollars: N` and `friendship: N`). The format is chosen by
//! extension (`.yaml`/`.yml`, `.txt`/`.list`/`.deck`), else by content.
//!
//! Every problem becomes a located [`Diagnostic`]; reading goes on after one,
//! so a file's problems are all reported at once.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;

use super::Counted;
use super::characters::{self, Character};
use super::collection::Symbol;
use super::share;
use crate::cards::{CardIndex, LookupError, NameIndex, NameSource, Sought};
use crate::diagnostics::{Code, Diagnostic, Fix};
use crate::model::{Database, Set};
use crate::pool;
use crate::suggest::{closest, listing};
use crate::words::{BASE_TYPES, Element, Id};
use crate::yaml::{self, Entry, Fields, Node, NodeValue, Text};

/// A count above this is refused as a typo.
pub(crate) const MAX_COUNT: u64 = 999;

/// One input file as read.
#[derive(Debug, Clone)]
pub struct InputFile {
    /// As named by the user (`<stdin>` for `-`).
    pub path: Arc<str>,
    pub text: Arc<str>,
}

impl InputFile {
    /// Reads a file, standard input for `-`, or the list a share code
    /// holds (a code that is not also the name of a file).
    pub fn read(name: &Path) -> Result<InputFile, Box<Diagnostic>> {
        if let Some(code) = share_code(name) {
            return InputFile::shared(code);
        }
        let (path, text) = pool::read_input(name)?;
        Ok(InputFile { path, text })
    }

    /// The list of a share code, shown under the code's name.
    fn shared(code: &str) -> Result<InputFile, Box<Diagnostic>> {
        let path = share::short(code);
        match share::decode(code) {
            Ok(lines) => Ok(InputFile {
                path,
                text: Arc::from(share::list_text(&lines)),
            }),
            Err(error) => Err(Box::new(
                Diagnostic::error(Code::InvalidInput, &path, 0..0, error.to_string())
                    .with_help("copy the whole code again (it starts `MB1-`); a share code is made by `blades deck export --share`"),
            )),
        }
    }

    pub fn new(path: &str, text: &str) -> InputFile {
        InputFile {
            path: Arc::from(path),
            text: Arc::from(text),
        }
    }

    /// Text a player pasted, under `name`: the list a share code holds when
    /// the text is one (as a share code named in place of a file), else the
    /// text itself.
    pub fn pasted(name: &str, text: &str) -> Result<InputFile, Box<Diagnostic>> {
        match is_code(text) {
            true => InputFile::shared(text.trim()),
            false => Ok(InputFile::new(name, text)),
        }
    }
}

/// Whether pasted text is one share code (one word: a list that starts
/// with a code's letters is still a list).
fn is_code(text: &str) -> bool {
    let text = text.trim();
    share::looks_like_code(text) && !text.contains(char::is_whitespace)
}

/// How reports name pasted text (see [`InputFile::pasted`]): a share code
/// by its ends, as on the command line, else `name`.
pub fn pasted_shown(name: &str, text: &str) -> String {
    match is_code(text) {
        true => share::short(text.trim()).to_string(),
        false => name.to_string(),
    }
}

/// The share code `name` is, when it is one and no file has that name.
fn share_code(name: &Path) -> Option<&str> {
    name.to_str()
        .filter(|code| share::looks_like_code(code) && !name.exists())
}

/// How reports name an input: `<stdin>` for `-`, a share code by its ends
/// ([`share::short`]), else its path.
pub fn shown(name: &Path) -> String {
    match share_code(name) {
        Some(code) => share::short(code).to_string(),
        None if name == Path::new("-") => "<stdin>".to_string(),
        None => name.display().to_string(),
    }
}

/// The two input formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    Yaml,
    Text,
}

/// The format of a file: by extension, else YAML when the text is a YAML
/// mapping or list (or looks like one that does not parse), else text.
pub(crate) fn detect(path: &str, text: &str) -> Syntax {
    let extension = path
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .filter(|e| !e.contains('/'));
    match extension.as_deref() {
        Some("yaml" | "yml") => return Syntax::Yaml,
        Some("txt" | "text" | "list" | "deck") => return Syntax::Text,
        _ => {}
    }
    match yaml::parse(text) {
        Ok(node) if matches!(node.value, NodeValue::Map(_) | NodeValue::Seq(_)) => Syntax::Yaml,
        Ok(_) => Syntax::Text,
        Err(_) => {
            // A YAML document with a mistake still has its `cards:` key line;
            // plain text never starts a line with `cards:`.
            let yamlish = text.lines().any(|l| {
                l.trim_start()
                    .trim_start_matches("- ")
                    .starts_with("cards:")
            });
            if yamlish { Syntax::Yaml } else { Syntax::Text }
        }
    }
}

/// A value with where it was written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Range<usize>,
}

/// A card reference as written: the name or id, how many, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub name: String,
    pub count: u64,
    pub span: Range<usize>,
}

/// A deck file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeckDoc {
    pub character: Option<Spanned<String>>,
    /// Cards under no zone header (the format's first zone).
    pub cards: Vec<Reference>,
    /// Cards under a zone header (`Main Deck:`), in file order.
    pub sections: Vec<DeckSection>,
}

/// The cards a deck list puts under one zone header.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeckSection {
    /// The header as written (`Millennium Deck`), without `:` or brackets.
    pub zone: Spanned<String>,
    pub cards: Vec<Reference>,
}

/// A collection or binder file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CardsDoc {
    /// The symbol a collection is declared to be built on.
    pub symbol: Option<Spanned<String>>,
    pub cards: Vec<Reference>,
}

/// A trade file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TradeDoc {
    pub a: SideDoc,
    pub b: SideDoc,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SideDoc {
    pub cards: Vec<Reference>,
    pub dollars: u64,
    pub friendship: u64,
}

/// A score sheet: the mode, and each player's results.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScoreDoc {
    pub mode: Option<Spanned<String>>,
    pub players: Vec<PlayerDoc>,
}

/// One player's line of a score sheet.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlayerDoc {
    pub name: Spanned<String>,
    /// Place in each tournament, by tournament id as written.
    pub placings: Vec<(Spanned<String>, Spanned<u64>)>,
    /// Cards in each collection scored.
    pub collections: Vec<Spanned<u64>>,
    pub dollars: u64,
    /// VP of the Friendship cards each other player gave, by their name.
    pub friendship: Vec<(Spanned<String>, u64)>,
}

/// A copies file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CopiesDoc {
    pub sets: Vec<Spanned<String>>,
    pub cards: Vec<Reference>,
}

// ---------------------------------------------------------------- reading

/// An input with nothing in it (or only blank lines and comments) is an
/// input error in every syntax and on standard input alike: more often a
/// wrong file or an empty pipe than a deliberate empty deck, which YAML
/// writes as `cards: []`.
fn refuse_empty(file: &InputFile, out: &mut Vec<Diagnostic>, what: &str, example: &str) -> bool {
    let empty = file
        .text
        .lines()
        .all(|line| line.trim().is_empty() || line.trim_start().starts_with('#'));
    if empty {
        out.push(
            Diagnostic::error(
                Code::InvalidInput,
                &file.path,
                0..0,
                format!("the {what} is empty"),
            )
            .with_label("nothing here")
            .with_help(format!(
                "write the {what}'s cards, one per line (`2 Canyon Wyrm`) or in YAML; {example}"
            )),
        );
    }
    empty
}

/// Reads a deck: `character:`, `cards:` and `zones:` (a mapping from zone
/// to cards); in text, zone headers (`Main Deck:`, `[Sideboard]`) put the
/// cards below them in that zone.
pub fn read_deck(file: &InputFile, out: &mut Vec<Diagnostic>) -> DeckDoc {
    let mut doc = DeckDoc::default();
    if refuse_empty(file, out, "deck", "a deck with no cards is `cards: []`") {
        return doc;
    }
    match detect(&file.path, &file.text) {
        Syntax::Yaml => {
            let mut y = YamlReader::new(file, out);
            let Some(root) = y.root() else { return doc };
            let root = &root;
            if root.as_seq().is_some() {
                doc.cards = y.references(root, "cards");
                return doc;
            }
            // `zones` is read apart, so that the help for a misspelt field
            // reads as it did before zones (a deck of one zone has none).
            let mut root = root.clone();
            let mut zones = None;
            if let NodeValue::Map(entries) = &mut root.value
                && let Some(i) = entries.iter().position(|e| e.key.as_str() == Some("zones"))
            {
                zones = Some(entries.remove(i));
            }
            let required: &[&str] = if zones.is_some() { &[] } else { &["cards"] };
            for (key, entry) in y.fields(&root, &["character", "cards"], required, "a deck") {
                match key {
                    "character" => doc.character = y.text(&entry.value, "character"),
                    _ => doc.cards = y.references(&entry.value, "cards"),
                }
            }
            if let Some(entry) = zones {
                doc.sections = y.sections(&entry.value);
            }
        }
        Syntax::Text => {
            let mut t = TextReader::new(file, out, &["character"], &[]);
            t.open_sections = true;
            for line in t.lines() {
                match line {
                    TextLine::Header { value, .. } => doc.character = Some(value),
                    TextLine::Card(r) => match doc.sections.last_mut() {
                        Some(section) => section.cards.push(r),
                        None => doc.cards.push(r),
                    },
                    TextLine::Section(zone) => doc.sections.push(DeckSection {
                        zone,
                        cards: Vec::new(),
                    }),
                }
            }
        }
    }
    doc
}

/// Reads a collection (`symbol:` allowed) or a binder: `cards:`.
pub fn read_cards(file: &InputFile, allow_symbol: bool, out: &mut Vec<Diagnostic>) -> CardsDoc {
    let mut doc = CardsDoc::default();
    let what = if allow_symbol { "collection" } else { "binder" };
    if refuse_empty(file, out, what, "one with no cards is `cards: []`") {
        return doc;
    }
    let headers: &[&str] = if allow_symbol { &["symbol"] } else { &[] };
    match detect(&file.path, &file.text) {
        Syntax::Yaml => {
            let mut y = YamlReader::new(file, out);
            let Some(root) = y.root() else { return doc };
            let root = &root;
            if root.as_seq().is_some() {
                doc.cards = y.references(root, "cards");
                return doc;
            }
            let allowed: &[&str] = if allow_symbol {
                &["symbol", "cards"]
            } else {
                &["cards"]
            };
            let what = if allow_symbol {
                "a collection"
            } else {
                "a binder"
            };
            for (key, entry) in y.fields(root, allowed, &["cards"], what) {
                match key {
                    "symbol" => doc.symbol = y.text(&entry.value, "symbol"),
                    _ => doc.cards = y.references(&entry.value, "cards"),
                }
            }
        }
        Syntax::Text => {
            let mut t = TextReader::new(file, out, headers, &[]);
            for line in t.lines() {
                match line {
                    TextLine::Header { value, .. } => doc.symbol = Some(value),
                    TextLine::Card(r) => doc.cards.push(r),
                    TextLine::Section(_) => {}
                }
            }
        }
    }
    doc
}

/// Reads a trade: sides `a:` and `b:`, each with `cards:`, `dollars:` and
/// `friendship:`.
pub fn read_trade(file: &InputFile, out: &mut Vec<Diagnostic>) -> TradeDoc {
    let mut doc = TradeDoc::default();
    if refuse_empty(
        file,
        out,
        "trade",
        "a trade names its two sides, `a:` and `b:`",
    ) {
        return doc;
    }
    match detect(&file.path, &file.text) {
        Syntax::Yaml => {
            let mut y = YamlReader::new(file, out);
            let Some(root) = y.root() else { return doc };
            let root = &root;
            for (key, entry) in y.fields(root, &["a", "b"], &["a", "b"], "a trade") {
                let side = y.side(&entry.value);
                match key {
                    "a" => doc.a = side,
                    _ => doc.b = side,
                }
            }
        }
        Syntax::Text => {
            let mut t = TextReader::new(file, out, &["dollars", "friendship"], &["a", "b"]);
            let mut current: Option<bool> = None;
            let mut seen = [false, false];
            let lines = t.lines();
            for line in lines {
                match line {
                    TextLine::Section(name) => {
                        let is_b = name.value == "b";
                        seen[usize::from(is_b)] = true;
                        current = Some(is_b);
                    }
                    other => {
                        let Some(is_b) = current else {
                            let span = match &other {
                                TextLine::Card(r) => r.span.clone(),
                                TextLine::Header { key, .. } => key.span.clone(),
                                TextLine::Section(s) => s.span.clone(),
                            };
                            t.out.push(
                                Diagnostic::error(
                                    Code::InvalidInput,
                                    &file.path,
                                    span,
                                    "this line belongs to no side of the trade",
                                )
                                .with_label("before `a:` or `b:`")
                                .with_help("start each side with a line `a:` or `b:`"),
                            );
                            continue;
                        };
                        let side = if is_b { &mut doc.b } else { &mut doc.a };
                        match other {
                            TextLine::Card(r) => side.cards.push(r),
                            TextLine::Header { key, value } => {
                                let amount = t.amount(&value);
                                if key.value == "dollars" {
                                    side.dollars = amount;
                                } else {
                                    side.friendship = amount;
                                }
                            }
                            TextLine::Section(_) => {}
                        }
                    }
                }
            }
            for (i, name) in ["a", "b"].iter().enumerate() {
                if !seen[i] {
                    let end = file.text.len();
                    t.out.push(
                        Diagnostic::error(
                            Code::MissingField,
                            &file.path,
                            end..end,
                            format!("the trade has no side `{name}`"),
                        )
                        .with_label("missing side")
                        .with_help(format!(
                            "add a line `{name}:` followed by that side's cards, `dollars: N` and `friendship: N`"
                        )),
                    );
                }
            }
        }
    }
    doc
}

/// Reads a copies file: `sets:` in play and `cards:` with counts.
pub fn read_copies(file: &InputFile, out: &mut Vec<Diagnostic>) -> CopiesDoc {
    let mut doc = CopiesDoc::default();
    if refuse_empty(file, out, "copies file", "one with no cards is `cards: []`") {
        return doc;
    }
    match detect(&file.path, &file.text) {
        Syntax::Yaml => {
            let mut y = YamlReader::new(file, out);
            let Some(root) = y.root() else { return doc };
            let root = &root;
            for (key, entry) in y.fields(
                root,
                &["sets", "cards"],
                &["sets", "cards"],
                "a copies file",
            ) {
                match key {
                    "sets" => doc.sets = y.texts(&entry.value, "sets"),
                    _ => doc.cards = y.counted_references(&entry.value, "cards"),
                }
            }
        }
        Syntax::Text => {
            let mut t = TextReader::new(file, out, &["sets"], &[]);
            for line in t.lines() {
                match line {
                    TextLine::Header { value, .. } => {
                        let mut at = value.span.start;
                        for part in value.value.split(',') {
                            let trimmed = part.trim();
                            let start = at + (part.len() - part.trim_start().len());
                            if !trimmed.is_empty() {
                                doc.sets.push(Spanned {
                                    value: trimmed.to_string(),
                                    span: start..start + trimmed.len(),
                                });
                            }
                            at += part.len() + 1;
                        }
                    }
                    TextLine::Card(r) => doc.cards.push(r),
                    TextLine::Section(_) => {}
                }
            }
        }
    }
    doc
}

/// Reads a score sheet (YAML only): `mode:` and `players:`, each with
/// `name`, `placings`, `collections`, `dollars` and `friendship`.
pub fn read_score(file: &InputFile, out: &mut Vec<Diagnostic>) -> ScoreDoc {
    let mut doc = ScoreDoc::default();
    if refuse_empty(
        file,
        out,
        "score sheet",
        "it lists `players:`, each with a `name:`",
    ) {
        return doc;
    }
    let mut y = YamlReader::new(file, out);
    let Some(root) = y.root() else { return doc };
    for (key, entry) in y.fields(&root, &["mode", "players"], &["players"], "a score sheet") {
        match key {
            "mode" => doc.mode = y.text(&entry.value, "mode"),
            _ => match &entry.value.value {
                NodeValue::Seq(items) => {
                    doc.players = items.iter().filter_map(|item| y.player(item)).collect();
                }
                _ => y.wrong_type(
                    &entry.value,
                    "players",
                    "a list",
                    "write one `- name: …` item per player",
                ),
            },
        }
    }
    doc
}

// ------------------------------------------------------------------ YAML

struct YamlReader<'a> {
    file: &'a InputFile,
    out: &'a mut Vec<Diagnostic>,
    doc: Option<Node>,
    /// Reading a trade's side: its amounts move value between players.
    trade: bool,
}

impl<'a> YamlReader<'a> {
    fn new(file: &'a InputFile, out: &'a mut Vec<Diagnostic>) -> Self {
        let doc = match yaml::parse(&file.text) {
            Ok(doc) => Some(doc),
            Err(error) => {
                let mut d = error.diagnostic(&file.path);
                if d.code == Code::MultipleDocuments {
                    d.help = Some("check one input per file".into());
                }
                out.push(d);
                None
            }
        };
        YamlReader {
            file,
            out,
            doc,
            trade: false,
        }
    }

    /// The document (a copy, so the reader stays borrowable).
    fn root(&mut self) -> Option<Node> {
        self.doc.take()
    }

    fn wrong_type(&mut self, node: &Node, field: &str, expected: &str, help: &str) {
        let found = node.wrong_type(&self.file.path, field, expected);
        self.out.push(found.with_help(help));
    }

    /// The entries of a mapping whose keys are allowed; unknown keys and
    /// missing required ones are reported.
    fn fields<'n, 'k>(
        &mut self,
        node: &'n Node,
        allowed: &'k [&'k str],
        required: &'k [&'k str],
        what: &'k str,
    ) -> Vec<(&'k str, &'n Entry)> {
        let fields = Fields {
            what,
            allowed,
            required,
            docs: None,
        };
        fields.read(&self.file.path, node, self.out)
    }

    fn scalar_text(&self, node: &Node) -> Option<String> {
        node.scalar_text(&self.file.text)
    }

    fn text(&mut self, node: &Node, field: &str) -> Option<Spanned<String>> {
        match self.scalar_text(node) {
            Some(value) => Some(Spanned {
                value,
                span: node.span.clone(),
            }),
            None => {
                self.wrong_type(node, field, "text", &format!("write `{field}: <name>`"));
                None
            }
        }
    }

    /// A list of texts (a single text is a list of one).
    fn texts(&mut self, node: &Node, field: &str) -> Vec<Spanned<String>> {
        match &node.value {
            NodeValue::Null => Vec::new(),
            NodeValue::Seq(items) => items.iter().filter_map(|i| self.text(i, field)).collect(),
            _ => self.text(node, field).into_iter().collect(),
        }
    }

    /// A list of card references, each text with an optional count.
    fn references(&mut self, node: &Node, field: &str) -> Vec<Reference> {
        let items: &[Node] = match &node.value {
            NodeValue::Null => return Vec::new(),
            NodeValue::Seq(items) => items,
            _ => {
                self.wrong_type(
                    node,
                    field,
                    "a list",
                    &format!("write `{field}:` followed by lines `- <card name or id>`"),
                );
                return Vec::new();
            }
        };
        let mut refs = Vec::new();
        for item in items {
            let Some(text) = self.scalar_text(item) else {
                self.wrong_type(
                    item,
                    field,
                    "a card name or id",
                    "write each card as `- Card Name` or `- 2x Card Name`",
                );
                continue;
            };
            // Exact sub-spans when the scalar is written as is (plain style).
            let base = (self.file.text.get(item.span.clone()) == Some(text.as_str()))
                .then_some(item.span.start);
            if let Some(r) = parse_reference(&text, base, &item.span, &self.file.path, self.out) {
                refs.push(r);
            }
        }
        refs
    }

    /// `zones: {Main Deck: [...], Millennium Deck: [...]}`.
    fn sections(&mut self, node: &Node) -> Vec<DeckSection> {
        let NodeValue::Map(entries) = &node.value else {
            self.wrong_type(
                node,
                "zones",
                "a mapping",
                "write each zone as `Zone Name:` followed by its cards",
            );
            return Vec::new();
        };
        let mut sections = Vec::new();
        for entry in entries {
            let Some(zone) = self.text(&entry.key, "zone") else {
                continue;
            };
            let cards = self.references(&entry.value, "cards");
            sections.push(DeckSection { zone, cards });
        }
        sections
    }

    /// Card references with counts: a mapping `name: count`, or a list.
    fn counted_references(&mut self, node: &Node, field: &str) -> Vec<Reference> {
        let NodeValue::Map(entries) = &node.value else {
            return self.references(node, field);
        };
        let mut refs = Vec::new();
        for entry in entries {
            let Some(name) = self.scalar_text(&entry.key) else {
                continue;
            };
            let count = self.amount(&entry.value, "count");
            if count > MAX_COUNT {
                let said = format!("a count of {count}");
                let span = entry.value.span.clone();
                self.out.push(count_too_large(&self.file.path, span, &said));
                continue;
            }
            refs.push(Reference {
                name,
                count,
                span: entry.key.span.clone(),
            });
        }
        refs
    }

    /// A whole number at least 0; a missing value is 0.
    fn amount(&mut self, node: &Node, field: &str) -> u64 {
        match node.value {
            NodeValue::Null => 0,
            NodeValue::Int(i) if i < 0 => {
                let help = negative_help(field, self.trade);
                negative(self.out, &self.file.path, node.span.clone(), field, i, help);
                0
            }
            NodeValue::Int(i) => i as u64,
            _ => {
                self.wrong_type(
                    node,
                    field,
                    "a whole number",
                    &format!("write `{field}` as a number without quotes, e.g. `{field}: 3`"),
                );
                0
            }
        }
    }

    /// One player of a score sheet (none without a name).
    fn player(&mut self, node: &Node) -> Option<PlayerDoc> {
        const FIELDS: &[&str] = &["name", "placings", "collections", "dollars", "friendship"];
        let mut player = PlayerDoc::default();
        let mut named = false;
        for (key, entry) in self.fields(node, FIELDS, &["name"], "a player") {
            let value = &entry.value;
            match key {
                "name" => {
                    if let Some(name) = self.text(value, "name") {
                        player.name = name;
                        named = true;
                    }
                }
                "placings" => player.placings = self.placings(value),
                "collections" => player.collections = self.collections(value),
                "dollars" => player.dollars = self.amount(value, "dollars"),
                _ => player.friendship = self.friendship(value),
            }
        }
        named.then_some(player)
    }

    /// `placings: {pre-release: 1, final: 2}`: a place per tournament.
    fn placings(&mut self, node: &Node) -> Vec<(Spanned<String>, Spanned<u64>)> {
        let NodeValue::Map(entries) = &node.value else {
            self.wrong_type(
                node,
                "placings",
                "a mapping",
                "write `tournament: place` lines, e.g. `final: 1`",
            );
            return Vec::new();
        };
        let mut placings = Vec::new();
        for entry in entries {
            let Some(name) = self.text(&entry.key, "tournament") else {
                continue;
            };
            let place = self.amount(&entry.value, "place");
            placings.push((
                name,
                Spanned {
                    value: place,
                    span: entry.value.span.clone(),
                },
            ));
        }
        placings
    }

    /// `collections: [5, 8]`: the cards in each collection scored.
    fn collections(&mut self, node: &Node) -> Vec<Spanned<u64>> {
        let NodeValue::Seq(items) = &node.value else {
            self.wrong_type(
                node,
                "collections",
                "a list",
                "write the size of each collection scored, e.g. `[5, 8]`",
            );
            return Vec::new();
        };
        items
            .iter()
            .map(|item| Spanned {
                value: self.amount(item, "collection"),
                span: item.span.clone(),
            })
            .collect()
    }

    /// `friendship: {Ben: 3}`: VP of the Friendship cards each player gave.
    fn friendship(&mut self, node: &Node) -> Vec<(Spanned<String>, u64)> {
        let NodeValue::Map(entries) = &node.value else {
            self.wrong_type(
                node,
                "friendship",
                "a mapping",
                "write `giver: VP` lines, e.g. `Ben: 3`",
            );
            return Vec::new();
        };
        entries
            .iter()
            .filter_map(|entry| {
                let giver = self.text(&entry.key, "giver")?;
                Some((giver, self.amount(&entry.value, "friendship")))
            })
            .collect()
    }

    fn side(&mut self, node: &Node) -> SideDoc {
        self.trade = true;
        let mut side = SideDoc::default();
        if matches!(node.value, NodeValue::Null) {
            return side;
        }
        for (key, entry) in self.fields(node, &["cards", "dollars", "friendship"], &[], "a side") {
            match key {
                "cards" => side.cards = self.references(&entry.value, "cards"),
                "dollars" => side.dollars = self.amount(&entry.value, "dollars"),
                _ => side.friendship = self.amount(&entry.value, "friendship"),
            }
        }
        side
    }
}

fn negative(
    out: &mut Vec<Diagnostic>,
    path: &Arc<str>,
    span: Range<usize>,
    field: &str,
    value: i64,
    help: &str,
) {
    out.push(
        Diagnostic::error(
            Code::NegativeAmount,
            path,
            span,
            format!("`{field}` is {value}, below zero"),
        )
        .with_label("negative")
        .with_help(help),
    );
}

/// What to write instead of a negative `field`: a trade's amounts move
/// value, the rest are counts of what a player has.
fn negative_help(field: &str, trade: bool) -> &'static str {
    match field {
        _ if trade => {
            "amounts are 0 or more; to move value the other way, put it on the other side"
        }
        "count" => "a count is 0 or more",
        "place" => "a place is 1 or more: 1 for the winner",
        "collection" => "write the number of cards in the collection scored: 2 to 8",
        "dollars" => "write the Millennium Dollars the player has left: 0 or more",
        "friendship" => "write the VP printed on the Friendship cards the player gave: 0 or more",
        _ => "amounts are 0 or more",
    }
}

// ------------------------------------------------------------ plain text

enum TextLine {
    Header {
        key: Spanned<String>,
        value: Spanned<String>,
    },
    Section(Spanned<String>),
    Card(Reference),
}

struct TextReader<'a> {
    file: &'a InputFile,
    out: &'a mut Vec<Diagnostic>,
    headers: &'a [&'a str],
    sections: &'a [&'a str],
    /// Any `Name:` or `[Name]` line is a section (a deck's zones, which
    /// the format decides), unless it is a header.
    open_sections: bool,
}

impl<'a> TextReader<'a> {
    fn new(
        file: &'a InputFile,
        out: &'a mut Vec<Diagnostic>,
        headers: &'a [&'a str],
        sections: &'a [&'a str],
    ) -> Self {
        TextReader {
            file,
            out,
            headers,
            sections,
            open_sections: false,
        }
    }

    fn lines(&mut self) -> Vec<TextLine> {
        let text = self.file.text.clone();
        let mut lines = Vec::new();
        let mut seen_headers: Vec<(String, Range<usize>)> = Vec::new();
        let mut offset = 0;
        for raw in text.split_inclusive('\n') {
            let start = offset;
            offset += raw.len();
            let Some((content, at)) = line_content(raw, start) else {
                continue;
            };
            if let Some(section) = self.section(content, at) {
                lines.push(section);
                continue;
            }
            match self.header(content, at, &mut seen_headers) {
                Header::Read(header) => lines.push(header),
                Header::Unknown => {}
                Header::None => {
                    let span = at..at + content.len();
                    if let Some(r) =
                        parse_reference(content, Some(at), &span, &self.file.path, self.out)
                    {
                        lines.push(TextLine::Card(r));
                    }
                }
            }
        }
        lines
    }

    /// A section line: `[a]` or `a:`, for a section this list has (any
    /// name, with open sections; a trailing count `Main Deck (40):` is
    /// dropped).
    fn section(&self, content: &str, at: usize) -> Option<TextLine> {
        let inner = content
            .strip_prefix('[')
            .and_then(|s| s.strip_suffix(']'))
            .or_else(|| content.strip_suffix(':'))?;
        if self.open_sections {
            let mut name = inner.trim();
            if let Some(head) = name.strip_suffix(')')
                && let Some((before, count)) = head.rsplit_once('(')
                && !count.is_empty()
                && count.bytes().all(|b| b.is_ascii_digit())
            {
                name = before.trim_end();
            }
            let folded = name.to_ascii_lowercase();
            if name.is_empty() || self.headers.contains(&folded.as_str()) {
                return None;
            }
            let start = at + (name.as_ptr() as usize - content.as_ptr() as usize);
            return Some(TextLine::Section(Spanned {
                value: name.to_string(),
                span: start..start + name.len(),
            }));
        }
        let name = inner.trim().to_ascii_lowercase();
        self.sections.contains(&name.as_str()).then(|| {
            TextLine::Section(Spanned {
                value: name,
                span: at..at + content.len(),
            })
        })
    }

    /// A header line (`key: value`); a header given twice is reported (the
    /// headers of a list without sections are given once), and so is a
    /// word that is nearly a header.
    fn header(
        &mut self,
        content: &str,
        at: usize,
        seen_headers: &mut Vec<(String, Range<usize>)>,
    ) -> Header {
        let Some((key, value)) = content.split_once(':') else {
            return Header::None;
        };
        let folded = key.trim().to_ascii_lowercase();
        if !self.headers.contains(&folded.as_str()) {
            return self.unknown_header(key, &folded, at);
        }
        let key_span = at..at + key.trim_end().len();
        let value_start = at + key.len() + 1 + (value.len() - value.trim_start().len());
        let value = value.trim();
        if let Some((_, first)) = seen_headers.iter().find(|(k, _)| *k == folded) {
            self.out.push(
                Diagnostic::error(
                    Code::DuplicateKey,
                    &self.file.path,
                    key_span.clone(),
                    format!("`{folded}` is given twice"),
                )
                .with_label("given again here")
                .with_related(&self.file.path, first.clone(), "first given here")
                .with_help("keep one of the two lines"),
            );
        }
        // Trade headers repeat per side; no duplicate check.
        if self.sections.is_empty() {
            seen_headers.push((folded.clone(), key_span.clone()));
        }
        Header::Read(TextLine::Header {
            key: Spanned {
                value: folded,
                span: key_span,
            },
            value: Spanned {
                value: value.to_string(),
                span: value_start..value_start + value.len(),
            },
        })
    }

    /// A `word:` line that is not a header here: reported when the word is
    /// near one, else read as a card.
    fn unknown_header(&mut self, key: &str, folded: &str, at: usize) -> Header {
        let word =
            !folded.is_empty() && folded.chars().all(|c| c.is_ascii_alphabetic() || c == '-');
        if !word {
            return Header::None;
        }
        let known: Vec<&str> = self.headers.iter().chain(self.sections).copied().collect();
        let Some(best) = closest(folded, known.iter().copied()) else {
            return Header::None;
        };
        self.out.push(
            Diagnostic::error(
                Code::InvalidInput,
                &self.file.path,
                at..at + key.len(),
                format!("unknown header `{}`", key.trim()),
            )
            .with_label("not a header")
            .with_help(format!(
                "did you mean `{best}:`? Header lines here: {}",
                known
                    .iter()
                    .map(|k| format!("`{k}:`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        );
        Header::Unknown
    }

    /// A header's whole number.
    fn amount(&mut self, value: &Spanned<String>) -> u64 {
        let text = value.value.trim();
        match text.parse::<i64>() {
            Ok(n) if n < 0 => {
                // Header amounts are a trade side's `dollars:` and `friendship:`.
                let help = negative_help("amount", true);
                negative(
                    self.out,
                    &self.file.path,
                    value.span.clone(),
                    "amount",
                    n,
                    help,
                );
                0
            }
            Ok(n) => n as u64,
            Err(_) => {
                self.out.push(
                    Diagnostic::error(
                        Code::WrongType,
                        &self.file.path,
                        value.span.clone(),
                        format!("`{text}` is not a whole number"),
                    )
                    .with_label("expected a whole number")
                    .with_help("write the amount as digits, e.g. `dollars: 3`"),
                );
                0
            }
        }
    }
}

// ---------------------------------------------------------------- counts

/// The signs between a count and a name (`2x`, `2×`, full-width `２ｘ`).
const TIMES: [char; 5] = ['x', 'X', '×', 'ｘ', 'Ｘ'];

/// A digit as lists are typed: ASCII or full-width (`２`), as NFKC reads it.
fn digit(c: char) -> Option<u32> {
    match c {
        '0'..='9' => Some(c as u32 - '0' as u32),
        '０'..='９' => Some(c as u32 - '０' as u32),
        _ => None,
    }
}

/// Bytes of the digits `text` starts with.
fn leading_digits(text: &str) -> usize {
    text.chars()
        .take_while(|c| digit(*c).is_some())
        .map(char::len_utf8)
        .sum()
}

/// Bytes of the digits `text` ends with.
fn trailing_digits(text: &str) -> usize {
    text.chars()
        .rev()
        .take_while(|c| digit(*c).is_some())
        .map(char::len_utf8)
        .sum()
}

/// A whole number written in digits (ASCII or full-width), `None` when it
/// is not one or does not fit.
pub(crate) fn whole_number(text: &str) -> Option<u64> {
    if text.is_empty() {
        return None;
    }
    text.chars().try_fold(0u64, |n, c| {
        n.checked_mul(10)?.checked_add(u64::from(digit(c)?))
    })
}

/// Splits `2x Name`, `2 x Name`, `2× Name`, `Name x2`, `Name x 2` (and
/// their full-width forms, `２ｘ Name`, `Name ｘ２`) into the count and the
/// name's byte range in `text`; `None` when there is no count. The count
/// keeps its sign so a negative one can be reported.
pub(crate) fn split_count(text: &str) -> Option<(i64, Range<usize>)> {
    let trimmed_start = text.len() - text.trim_start().len();
    let t = text.trim();
    let end = trimmed_start + t.len();
    // Digits past the integer range saturate, so the count is refused as too
    // large at its line rather than read as no count at all.
    let signed = |digits: &str, negative: bool| {
        let n = whole_number(digits).map_or(i64::MAX, |n| i64::try_from(n).unwrap_or(i64::MAX));
        Some(if negative { -n } else { n })
    };
    // Prefix.
    let digits_at = usize::from(t.starts_with('-'));
    let digits = leading_digits(&t[digits_at..]);
    if digits > 0 {
        let rest = &t[digits_at + digits..];
        let after_space = rest.trim_start();
        for x in TIMES {
            if let Some(name) = after_space.strip_prefix(x)
                && name.starts_with(char::is_whitespace)
                && !name.trim().is_empty()
            {
                let n = signed(&t[digits_at..digits_at + digits], digits_at == 1)?;
                let name_start = end - name.trim_start().len();
                return Some((n, name_start..end));
            }
        }
    }
    // Suffix.
    let t_digits = trailing_digits(t);
    if t_digits > 0 {
        let mut head = &t[..t.len() - t_digits];
        let negative = head.ends_with('-');
        if negative {
            head = &head[..head.len() - 1];
        }
        let head = head.trim_end();
        for x in TIMES {
            if let Some(name) = head.strip_suffix(x)
                && name.ends_with(char::is_whitespace)
                && !name.trim().is_empty()
            {
                let n = signed(&t[t.len() - t_digits..], negative)?;
                let name = name.trim_end();
                return Some((n, trimmed_start..trimmed_start + name.len()));
            }
        }
    }
    None
}

/// A count no table holds: `said` names it (`a count of 5000`).
fn count_too_large(path: &Arc<str>, span: Range<usize>, said: &str) -> Diagnostic {
    Diagnostic::error(
        Code::InvalidInput,
        path,
        span,
        format!("{said} is more than any table holds"),
    )
    .with_label("count too large")
    .with_help(format!("counts go up to {MAX_COUNT}"))
}

/// A reference from an item's text. `base`: the text's byte offset in the
/// file when the text is written there as is; otherwise `whole` locates it.
fn parse_reference(
    text: &str,
    base: Option<usize>,
    whole: &Range<usize>,
    path: &Arc<str>,
    out: &mut Vec<Diagnostic>,
) -> Option<Reference> {
    let locate = |r: Range<usize>| match base {
        Some(b) => b + r.start..b + r.end,
        None => whole.clone(),
    };
    let (count, name_range) = match split_count(text) {
        Some((n, range)) => (n, range),
        None => {
            let lead = text.len() - text.trim_start().len();
            (1, lead..lead + text.trim().len())
        }
    };
    let span = locate(name_range.clone());
    if name_range.is_empty() {
        out.push(
            Diagnostic::error(
                Code::InvalidInput,
                path,
                whole.clone(),
                "an empty card reference",
            )
            .with_label("no card here")
            .with_help("write a card name or id"),
        );
        return None;
    }
    if count < 0 {
        let help = negative_help("count", false);
        negative(out, path, locate(0..text.len()), "count", count, help);
        return None;
    }
    let count = count as u64;
    if count > MAX_COUNT {
        // As written: a saturated count has more digits than it says.
        let outside = [&text[..name_range.start], &text[name_range.end..]].concat();
        let written = outside.trim().trim_matches(['x', 'X', '×', ' ']);
        let said = format!("a count of {written}");
        out.push(count_too_large(path, locate(0..text.len()), &said));
        return None;
    }
    Some(Reference {
        name: text[name_range].to_string(),
        count,
        span,
    })
}

// -------------------------------------------------------------- resolving

/// Resolves card references, reporting every unknown or ambiguous one.
pub fn resolve_cards<'a>(
    index: &CardIndex<'a>,
    file: &InputFile,
    refs: &[Reference],
    out: &mut Vec<Diagnostic>,
) -> Vec<Counted<'a>> {
    let located = resolve_located(index, file, refs, out);
    located.into_iter().map(|(card, _)| card).collect()
}

/// A card of an input with its count and where it is written.
pub type Located<'a> = (Counted<'a>, Range<usize>);

/// [`resolve_cards`], each card with where its reference is written.
pub fn resolve_located<'a>(
    index: &CardIndex<'a>,
    file: &InputFile,
    refs: &[Reference],
    out: &mut Vec<Diagnostic>,
) -> Vec<Located<'a>> {
    let path = &file.path;
    let mut cards = Vec::with_capacity(refs.len());
    for r in refs {
        // Suggestions are looked for only once the reference is reported:
        // `2 Canyon Wyrm` is first looked up whole, and a search of every
        // name for each such line would cost a large pool a second.
        match index.resolve_plain(&r.name) {
            Ok(i) => cards.push(((index.card(i), r.count), r.span.clone())),
            // `2 Canyon Wyrm`, as deck lists are pasted: a count without an
            // `x`, read only when the whole text names no card (so a card
            // named `1000 Needles` is still found by its name).
            Err(LookupError::Unknown { .. }) if let Some((n, i)) = bare_count(index, &r.name) => {
                match n.checked_mul(r.count).filter(|&total| total <= MAX_COUNT) {
                    Some(total) => cards.push(((index.card(i), total), r.span.clone())),
                    None => {
                        let written = r.name.split_whitespace().next().unwrap_or_default();
                        let said = match r.count {
                            1 => format!("a count of {written}"),
                            times => format!("a count of {times} × {written}"),
                        };
                        out.push(count_too_large(path, r.span.clone(), &said));
                    }
                }
            }
            Err(LookupError::Unknown { .. }) => {
                let suggestions = index.suggestions(&r.name);
                let mut help = suggestion_help(&suggestions, "card");
                let counted = r
                    .name
                    .split_whitespace()
                    .next()
                    .is_some_and(|w| whole_number(w).is_some());
                if counted {
                    help.push_str("; a count is written `2 Name`, `2x Name` or `Name x2`");
                }
                // A count read as part of the name would be lost by the fix.
                let fixes = match counted {
                    true => Vec::new(),
                    false => name_fixes(file, r, &suggestions),
                };
                out.push(
                    Diagnostic::error(
                        Code::UnknownCard,
                        path,
                        r.span.clone(),
                        format!("unknown card `{}`", r.name),
                    )
                    .with_label("no card of the pool has this name or id")
                    .with_help(help)
                    .with_fixes(fixes),
                );
            }
            Err(LookupError::Ambiguous { targets }) => {
                let choices: Vec<String> = targets
                    .iter()
                    .map(|&i| {
                        let c = index.card(i);
                        format!("`{}` ({} in {})", c.id, c.name, c.set)
                    })
                    .collect();
                out.push(
                    Diagnostic::error(
                        Code::AmbiguousCard,
                        path,
                        r.span.clone(),
                        format!("`{}` names {} cards", r.name, targets.len()),
                    )
                    .with_label("ambiguous")
                    .with_help(format!(
                        "use the id of the one you mean: {}",
                        listing(&choices)
                    )),
                );
            }
        }
    }
    cards
}

/// Each suggested name written over a misspelt reference, where the
/// reference stands in the file as written (not inside an escaped or
/// quoted scalar) and the name can stand there as it is: in YAML a plain
/// word ([`yaml::word_fix`]), in a list a name that starts no comment.
fn name_fixes(file: &InputFile, r: &Reference, suggestions: &[String]) -> Vec<Fix> {
    if file.text.get(r.span.clone()) != Some(r.name.as_str()) {
        return Vec::new();
    }
    let syntax = detect(&file.path, &file.text);
    let fix = |name: &String| match syntax {
        Syntax::Yaml => yaml::word_fix(r.span.clone(), name),
        Syntax::Text if plain_name(name) => Some(Fix::replace(
            format!("write `{name}`"),
            r.span.clone(),
            name.as_str(),
        )),
        Syntax::Text => None,
    };
    suggestions.iter().filter_map(fix).collect()
}

/// A name a text list reads back as written: one line, no comment, no
/// count or header it could be taken for.
fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && !name.contains(['#', '\n', '\r', ':'])
        && split_count(name).is_none()
        && name.trim() == name
}

/// `N Name` where `Name` names a card: the count (saturated past the
/// integer range) and the card.
fn bare_count(index: &CardIndex, text: &str) -> Option<(u64, usize)> {
    let (count, name) = split_bare_count(text)?;
    let card = index.resolve_plain(name).ok()?;
    Some((count, card))
}

/// `N Name` cut into its count (saturated past the integer range) and
/// the name.
fn split_bare_count(text: &str) -> Option<(u64, &str)> {
    let (count, name) = text.trim().split_once(char::is_whitespace)?;
    let count = match whole_number(count) {
        Some(count) => count,
        // Digits past the integer range: a count no table holds, refused later.
        None if count.chars().all(|c| digit(c).is_some()) && !count.is_empty() => u64::MAX,
        None => return None,
    };
    Some((count, name.trim()))
}

/// Adds each reference to what a check will look up, in every way
/// [`resolve_located`] reads it: whole, and as `N Name`.
pub fn seek(refs: &[Reference], sought: &mut Sought) {
    for r in refs {
        let bare = split_bare_count(&r.name).map(|(_, name)| name);
        sought.add(std::iter::once(r.name.as_str()).chain(bare));
    }
}

fn suggestion_help(suggestions: &[String], what: &str) -> String {
    match suggestions {
        [] => format!("check the spelling; a {what} is named by its name or its id"),
        [one] => format!("did you mean `{one}`?"),
        many => format!(
            "did you mean one of: {}?",
            many.iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Resolves a character (embedded data, not the card pool).
pub fn resolve_character(
    path: &Arc<str>,
    reference: &Spanned<String>,
    out: &mut Vec<Diagnostic>,
) -> Option<&'static Character> {
    match characters::resolve(&reference.value) {
        Ok(c) => Some(c),
        Err(error) => {
            let known: Vec<String> = characters::all()
                .iter()
                .map(|c| format!("`{}` ({})", c.id, c.name))
                .collect();
            let help = match error {
                LookupError::Unknown { suggestions } if !suggestions.is_empty() => format!(
                    "{} Characters: {}",
                    suggestion_help(&suggestions, "character"),
                    known.join(", ")
                ),
                _ => format!("characters: {}", known.join(", ")),
            };
            out.push(
                Diagnostic::error(
                    Code::UnknownCharacter,
                    path,
                    reference.span.clone(),
                    format!("unknown character `{}`", reference.value),
                )
                .with_label("not a character")
                .with_help(help),
            );
            None
        }
    }
}

/// A deck file as `deck check` reads it: its character and its cards, each
/// in the zone its header names (the first zone before any header).
pub struct PlacedDeck<'a> {
    pub character: Option<&'static Character>,
    /// A character was named and is not one: the limits it changes are
    /// unknown.
    pub character_unknown: bool,
    pub placed: Vec<super::deck::Placed<'a>>,
    /// Where each of `placed` is written.
    pub spans: Vec<Range<usize>>,
}

/// Reads a deck file and resolves its character, cards and zone headers,
/// every problem into `out`.
pub fn place_deck<'a>(
    index: &CardIndex<'a>,
    format: &super::deck::DeckFormat,
    file: &InputFile,
    out: &mut Vec<Diagnostic>,
) -> PlacedDeck<'a> {
    let doc = read_deck(file, out);
    let character = doc
        .character
        .as_ref()
        .and_then(|c| resolve_character(&file.path, c, out));
    let mut placed = Vec::new();
    let mut spans = Vec::new();
    for ((card, n), span) in resolve_located(index, file, &doc.cards, out) {
        placed.push((0, card, n));
        spans.push(span);
    }
    for section in &doc.sections {
        let zone = resolve_zone(format, &file.path, &section.zone, out);
        let cards = resolve_located(index, file, &section.cards, out);
        if let Some(zone) = zone {
            for ((card, n), span) in cards {
                placed.push((zone, card, n));
                spans.push(span);
            }
        }
    }
    PlacedDeck {
        character_unknown: doc.character.is_some() && character.is_none(),
        character,
        placed,
        spans,
    }
}

/// The zone of a deck format a deck list's header names.
pub fn resolve_zone(
    format: &super::deck::DeckFormat,
    path: &Arc<str>,
    header: &Spanned<String>,
    out: &mut Vec<Diagnostic>,
) -> Option<usize> {
    if let Some(zone) = format.zone_named(&header.value) {
        return Some(zone);
    }
    let names: Vec<&str> = format.zones.iter().map(|z| z.name.as_str()).collect();
    let listed = names
        .iter()
        .map(|n| format!("`{n}:`"))
        .collect::<Vec<_>>()
        .join(", ");
    let candidates: Vec<&str> = format
        .zones
        .iter()
        .flat_map(|z| std::iter::once(z.name.as_str()).chain(z.also.iter().map(String::as_str)))
        .collect();
    let help = match closest(&header.value, candidates.iter().copied()) {
        Some(best) => format!("did you mean `{best}:`? Zones of {}: {listed}", format.name),
        None => format!(
            "zones of {}: {listed}; pick the format with `--rules`",
            format.name
        ),
    };
    out.push(
        Diagnostic::error(
            Code::UnknownZone,
            path,
            header.span.clone(),
            format!("`{}` is not a zone of {}", header.value, format.name),
        )
        .with_label("unknown zone")
        .with_help(help),
    );
    None
}

/// Resolves set references by id or name.
pub fn resolve_sets<'a>(
    database: &'a Database,
    path: &Arc<str>,
    refs: &[Spanned<String>],
    out: &mut Vec<Diagnostic>,
) -> Vec<&'a Set> {
    let index = set_index(database);
    let mut sets: Vec<&Set> = Vec::new();
    for r in refs {
        match index.resolve(&r.value) {
            Ok(i) => {
                if !sets.iter().any(|s| s.id == database.sets[i].id) {
                    sets.push(&database.sets[i]);
                }
            }
            Err(error) => {
                let suggestions = match error {
                    LookupError::Unknown { suggestions } => suggestions,
                    LookupError::Ambiguous { .. } => Vec::new(),
                };
                out.push(
                    Diagnostic::error(
                        Code::UnknownSet,
                        path,
                        r.span.clone(),
                        format!("unknown set `{}`", r.value),
                    )
                    .with_label("no set of the pool has this name or id")
                    .with_help(suggestion_help(&suggestions, "set")),
                );
            }
        }
    }
    sets
}

/// Sets by id and name.
pub fn set_index(database: &Database) -> NameIndex {
    let mut index = NameIndex::new();
    for (i, set) in database.sets.iter().enumerate() {
        index.insert(&set.id.0, NameSource::Id, i);
    }
    for (i, set) in database.sets.iter().enumerate() {
        index.insert(&set.name, NameSource::English, i);
    }
    index
}

/// Resolves a declared symbol: an element, or a type some card or set has.
pub fn resolve_symbol(
    database: &Database,
    path: &Arc<str>,
    reference: &Spanned<String>,
    out: &mut Vec<Diagnostic>,
) -> Option<Symbol> {
    let wanted = crate::cards::fold(&reference.value);
    if let Some(e) = Element::ALL.iter().find(|e| e.as_str() == wanted) {
        return Some(Symbol::Element(*e));
    }
    let mut types: Vec<String> = BASE_TYPES.iter().map(|t| t.to_string()).collect();
    for t in database
        .sets
        .iter()
        .flat_map(|s| &s.extra_types)
        .chain(database.cards.iter().flat_map(|c| &c.types))
    {
        if !types.contains(&t.0) {
            types.push(t.0.clone());
        }
    }
    if types.contains(&wanted) {
        return Some(Symbol::Type(Id(wanted)));
    }
    let known: Vec<&str> = Element::ALL
        .iter()
        .map(|e| e.as_str())
        .chain(types.iter().map(String::as_str))
        .collect();
    let help = match closest(&wanted, known.iter().copied()) {
        Some(best) => format!("did you mean `{best}`? Symbols: {}", listing(&known)),
        None => format!("symbols: {}", listing(&known)),
    };
    out.push(
        Diagnostic::error(
            Code::UnknownSymbol,
            path,
            reference.span.clone(),
            format!("unknown symbol `{}`", reference.value),
        )
        .with_label("neither an element nor a type")
        .with_help(help),
    );
    None
}

// --------------------------------------------------------- input schemas

/// A card reference: a card's name or id, optionally with a count
/// (`2x Canyon Wyrm`, `Canyon Wyrm x2`).
pub type CardName = Text;

/// `blades deck check` input: a deck, or just a list of its cards.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged, deny_unknown_fields)]
#[schemars(title = "Millennium Blades deck")]
pub enum DeckFile {
    Deck {
        /// The deck's character, by id or name (`deques`, `Deques Applenti`).
        #[serde(default)]
        character: Option<Text>,
        /// The deck's cards, in any order, in the format's first zone.
        #[schemars(required, transform = yaml::nullable)]
        cards: Option<Vec<CardName>>,
        /// Cards by zone, for formats with several zones.
        #[serde(default)]
        zones: Option<std::collections::BTreeMap<String, Vec<CardName>>>,
    },
    /// A deck by zone (`Main Deck`, `Millennium Deck`).
    Zoned {
        #[serde(default)]
        character: Option<Text>,
        #[serde(default)]
        cards: Option<Vec<CardName>>,
        /// A zone's id or name, then its cards.
        #[schemars(required)]
        zones: Option<std::collections::BTreeMap<String, Vec<CardName>>>,
    },
    Cards(Vec<CardName>),
}

/// `blades collection check` input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged, deny_unknown_fields)]
#[schemars(title = "Millennium Blades collection")]
pub enum CollectionFile {
    Collection {
        /// The element or type the collection is built on (optional).
        #[serde(default)]
        symbol: Option<Text>,
        #[schemars(required, transform = yaml::nullable)]
        cards: Option<Vec<CardName>>,
    },
    Cards(Vec<CardName>),
}

/// `blades collection best` input: a binder, repeats allowed.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged, deny_unknown_fields)]
#[schemars(title = "Millennium Blades binder")]
pub enum BinderFile {
    Binder {
        #[schemars(required, transform = yaml::nullable)]
        cards: Option<Vec<CardName>>,
    },
    Cards(Vec<CardName>),
}

/// A score sheet (`blades score`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Millennium Blades score sheet")]
pub struct ScoreFile {
    /// The scoring mode (`standard`, `liquidation`); default `standard`.
    #[serde(default)]
    pub mode: Option<Text>,
    pub players: Vec<ScorePlayer>,
}

/// One player's results at the end of the game.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScorePlayer {
    pub name: Text,
    /// The place in each tournament played (`pre-release`, `round-1`,
    /// `round-2`, `final`); tied players share a place.
    #[serde(default)]
    pub placings: Option<std::collections::BTreeMap<String, Amount>>,
    /// The number of cards of each collection scored (2 to 8).
    #[serde(default)]
    pub collections: Option<Vec<Amount>>,
    /// Millennium Dollars left.
    #[serde(default)]
    pub dollars: Option<u64>,
    /// The VP of the Friendship cards each other player gave, by name.
    #[serde(default)]
    pub friendship: Option<std::collections::BTreeMap<String, Amount>>,
}

/// `blades trade check` input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Millennium Blades trade")]
pub struct TradeFile {
    #[schemars(required, transform = yaml::nullable)]
    pub a: Option<TradeSide>,
    #[schemars(required, transform = yaml::nullable)]
    pub b: Option<TradeSide>,
}

/// One side of a trade.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TradeSide {
    #[serde(default)]
    pub cards: Option<Vec<CardName>>,
    /// Millennium Dollars.
    #[serde(default)]
    pub dollars: Option<u64>,
    /// Friendship cards (no trade value).
    #[serde(default)]
    pub friendship: Option<u64>,
}

/// `blades copies check` input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Millennium Blades copy counts")]
pub struct CopiesFile {
    /// The sets in play, by id or name.
    #[schemars(required, transform = yaml::nullable)]
    pub sets: Option<OneOrMany<Text>>,
    /// Copies owned across the table: `card: count`, or a list of cards.
    #[schemars(required, transform = yaml::nullable)]
    pub cards: Option<CopiesCards>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum CopiesCards {
    Counts(std::collections::BTreeMap<String, CopyCount>),
    List(Vec<CardName>),
}

/// A whole number a reader takes: at least 0, and left empty it is 0.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct Amount(pub Option<u64>);

/// A card's number of copies: an amount no larger than any table holds.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct CopyCount(#[schemars(range(max = MAX_COUNT))] pub Option<u64>);

/// One value, or a list of them.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum OneOrMany<T> {
    One(T),
    Many(Vec<T>),
}

/// A line of a plain-text list without its comment, end of line and list
/// bullet, and where what is left starts; `None` for a line with nothing.
fn line_content(raw: &str, start: usize) -> Option<(&str, usize)> {
    let mut line = raw.trim_end_matches(['\n', '\r']);
    if line.trim_start().starts_with('#') {
        return None;
    }
    if let Some(i) = line.find(" #").or_else(|| line.find("\t#")) {
        line = &line[..i];
    }
    let lead = line.len() - line.trim_start().len();
    let mut content = line.trim();
    let mut at = start + lead;
    if content.is_empty() {
        return None;
    }
    for bullet in ["- ", "* ", "• "] {
        if let Some(rest) = content.strip_prefix(bullet) {
            let skipped = content.len() - rest.trim_start().len();
            at += skipped;
            content = rest.trim_start();
        }
    }
    Some((content, at))
}

/// What a line is as a header.
enum Header {
    Read(TextLine),
    /// A misspelt header, reported.
    Unknown,
    /// Not a header line.
    None,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pasted_text_is_a_share_code_only_when_it_is_one_word() {
        let lines = [share::Shared::Card {
            zone: None,
            id: "rivet-gremlin".to_string(),
            count: 2,
        }];
        let code = share::encode(&lines);
        let Ok(file) = InputFile::pasted("deck", &format!("  {code}\n")) else {
            panic!("a code is read");
        };
        let Ok(decoded) = share::decode(&code) else {
            panic!("the code decodes");
        };
        assert_eq!(&*file.text, share::list_text(&decoded));
        assert!(file.text.starts_with("2 %"), "{}", file.text);
        assert_eq!(pasted_shown("deck", &code), &*share::short(&code));
        // A list whose first line looks like a code is still a list.
        let list = format!("{code}\n2 Rivet Gremlin\n");
        let Ok(file) = InputFile::pasted("deck", &list) else {
            panic!("a list is text");
        };
        assert_eq!((&*file.path, &*file.text), ("deck", list.as_str()));
        assert_eq!(pasted_shown("deck", &list), "deck");
        // A code with a typo is an input error, not another deck.
        let mut typo = code.clone();
        let last = typo.pop().unwrap_or('0');
        typo.push(if last == '0' { '1' } else { '0' });
        assert!(InputFile::pasted("deck", &typo).is_err());
    }

    #[test]
    fn counts_before_and_after_names() {
        assert_eq!(split_count("2x Canyon Wyrm"), Some((2, 3..14)));
        assert_eq!(split_count("2 x Canyon Wyrm"), Some((2, 4..15)));
        assert_eq!(split_count("Canyon Wyrm x2"), Some((2, 0..11)));
        assert_eq!(split_count("Canyon Wyrm x 12"), Some((12, 0..11)));
        assert_eq!(split_count("-1x Canyon Wyrm"), Some((-1, 4..15)));
        // Past the integer range: saturated, never a card's name.
        assert_eq!(
            split_count("99999999999999999999x Canyon Wyrm"),
            Some((i64::MAX, 22..33))
        );
        assert_eq!(
            split_count("Canyon Wyrm x -99999999999999999999"),
            Some((i64::MIN + 1, 0..11))
        );
        assert_eq!(split_count("Canyon Wyrm"), None);
        assert_eq!(split_count("2 X-Ray Golem"), None);
        assert_eq!(split_count("Box x"), None);
    }

    #[test]
    fn format_by_extension_then_content() {
        assert_eq!(detect("a.yaml", "Canyon Wyrm"), Syntax::Yaml);
        assert_eq!(detect("a.txt", "cards: [a]"), Syntax::Text);
        assert_eq!(detect("a", "cards:\n  - x\n"), Syntax::Yaml);
        assert_eq!(detect("a", "- x\n- y\n"), Syntax::Yaml);
        assert_eq!(detect("a", "Canyon Wyrm\n"), Syntax::Text);
        assert_eq!(
            detect("a", "character: deques\nCanyon Wyrm\n"),
            Syntax::Text
        );
        assert_eq!(detect("a", "cards:\n  - x\n - y: ]\n"), Syntax::Yaml);
        assert_eq!(detect("a", "a:\n  cards: [x\nb:\n"), Syntax::Yaml);
        assert_eq!(
            detect("a", "a:\nCanyon Wyrm\ndollars: 2\nb:\n"),
            Syntax::Text
        );
    }

    #[test]
    fn text_decks_keep_positions() {
        let file = InputFile::new(
            "d.txt",
            "# my deck\ncharacter: Deques\n2x Canyon Wyrm  # twice\n- Dust Devil\n",
        );
        let mut out = Vec::new();
        let doc = read_deck(&file, &mut out);
        assert!(out.is_empty(), "{out:?}");
        let character = doc.character.unwrap();
        assert_eq!(&file.text[character.span], "Deques");
        assert_eq!(doc.cards.len(), 2);
        assert_eq!(doc.cards[0].count, 2);
        assert_eq!(&file.text[doc.cards[0].span.clone()], "Canyon Wyrm");
        assert_eq!(&file.text[doc.cards[1].span.clone()], "Dust Devil");
    }

    #[test]
    fn yaml_decks_keep_positions_and_report_everything() {
        let file = InputFile::new(
            "d.yaml",
            "charcter: x\ncards:\n  - 3x Canyon Wyrm\n  - \"Dust Devil\"\n  - [nested]\n",
        );
        let mut out = Vec::new();
        let doc = read_deck(&file, &mut out);
        let codes: Vec<&str> = out.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["unknown-field", "wrong-type"]);
        assert_eq!(&file.text[doc.cards[0].span.clone()], "Canyon Wyrm");
        assert_eq!(&file.text[doc.cards[1].span.clone()], "\"Dust Devil\"");
        assert_eq!(doc.cards[1].name, "Dust Devil");
    }

    #[test]
    fn trades_in_text() {
        let file = InputFile::new(
            "t.txt",
            "a:\nCanyon Wyrm\ndollars: 2\n[b]\nfriendship: 1\n2x Dust Devil\ndollars: -3\n",
        );
        let mut out = Vec::new();
        let doc = read_trade(&file, &mut out);
        let codes: Vec<&str> = out.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["negative-amount"]);
        assert_eq!(doc.a.dollars, 2);
        assert_eq!(doc.b.friendship, 1);
        assert_eq!(doc.b.cards[0].count, 2);
    }

    #[test]
    fn copies_in_text_and_yaml() {
        let file = InputFile::new("c.txt", "sets: sunset-gulch, Tidal Court\nCanyon Wyrm x3\n");
        let mut out = Vec::new();
        let doc = read_copies(&file, &mut out);
        assert!(out.is_empty());
        let sets: Vec<&str> = doc
            .sets
            .iter()
            .map(|s| &file.text[s.span.clone()])
            .collect();
        assert_eq!(sets, ["sunset-gulch", "Tidal Court"]);
        let file = InputFile::new("c.yaml", "sets: [a]\ncards:\n  Canyon Wyrm: -2\n");
        let doc = read_copies(&file, &mut out);
        assert_eq!(out[0].code, Code::NegativeAmount);
        assert_eq!(doc.cards[0].name, "Canyon Wyrm");
    }
}
