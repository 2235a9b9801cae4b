//! The deck-format language: what a format file says, read with every
//! mistake located (see `docs/formats.md`).
//!
//! A format has zones (the deck; a Main Deck and a Millennium Deck; a
//! starting hand), count bounds on cards matching a filter in one zone or
//! summed over several, copy limits (no card twice, per zone or across
//! zones) and modifiers a character brings. The formats shipped with the
//! tool are embedded (`data/deck-formats.yaml`); a pool adds its own in
//! `formats/*.yaml`, the same shape.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

use schemars::JsonSchema;
use serde::Deserialize;

use super::characters;
use super::{RULES, rule, rule_named};
use crate::cards::fold;
use crate::diagnostics::{Code, Diagnostic};
use crate::model::{Card, Database};
use crate::pool::Pool;
use crate::suggest::{closest, listing};
use crate::words::{BASE_TYPES, CardKind, Element, Id, SetKind};
use crate::yaml::{self, Entry, Fields, Node, NodeValue, Text, TextId};

/// The embedded deck formats.
pub(crate) const FORMATS_YAML: &str = include_str!("../../data/deck-formats.yaml");
/// Where the embedded formats say they come from in diagnostics.
const FORMATS_PATH: &str = "data/deck-formats.yaml";

/// The largest number a format may say (a bound, a copy limit, what a
/// modifier adds). Far above any deck, and small enough that no sum of a
/// format's numbers (a limit plus every modifier of a file) leaves `u64`.
pub const MAX_FORMAT_NUMBER: u64 = 1_000_000;

/// A deck format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeckFormat {
    pub id: Id,
    pub name: String,
    /// The zones, the first being where cards under no zone header go.
    pub zones: Vec<Zone>,
    pub bounds: Vec<Bound>,
    pub copies: Vec<CopyLimit>,
    pub modifiers: Vec<Modifier>,
    /// Where surplus cards go (`your binder`): "move 1 single to your binder";
    /// without it, "take out 1 single".
    pub surplus: Option<String>,
    /// The cards, sets and types its filters name, where they name them:
    /// a pool's database must have them ([`Formats::unknown_names`]).
    pub names: Vec<Named>,
}

/// A card, set or type a format's filter names, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// `card`, `set` or `type`.
    pub attribute: &'static str,
    pub id: Id,
    pub path: Arc<str>,
    pub span: Range<usize>,
}

/// A zone of a deck (`deck`, `Main Deck`, `starting hand`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Zone {
    pub id: Id,
    /// As messages name it: "the {name}".
    pub name: String,
    /// Other headers a deck list may use for it.
    pub also: Vec<String>,
}

/// How many cards matching a filter the zones hold, together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bound {
    /// Named so that a modifier can point at it.
    pub id: Option<Id>,
    /// Indexes into the format's zones.
    pub zones: Vec<usize>,
    pub filter: Filter,
    pub min: Option<u64>,
    pub max: Option<u64>,
    /// The rule a deck above `max` breaks.
    pub max_rule: &'static str,
    /// The rule a deck below `min` breaks.
    pub min_rule: &'static str,
    /// How messages name one matching card and several.
    pub one: String,
    pub many: String,
}

/// At most `max` copies of any one card in the zones, together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyLimit {
    pub zones: Vec<usize>,
    pub max: u64,
    pub rule: &'static str,
}

/// What a character changes: `add` to the bound's maximum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Modifier {
    pub character: Id,
    /// Index into the format's bounds.
    pub bound: usize,
    pub add: u64,
}

/// Which cards a bound counts: every test holds, and `not` does not.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    pub tests: Vec<Test>,
    pub not: Option<Box<Filter>>,
}

/// One test on a card attribute; a list of values means any of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Test {
    Kind(Vec<CardKind>),
    Element(Vec<Element>),
    Type(Vec<Id>),
    Rarity(Vec<SetKind>),
    Set(Vec<Id>),
    Category(Vec<Id>),
    Card(Vec<Id>),
    /// STAR from..=to.
    Stars(u8, u8),
}

/// The attributes a filter may test, in the order help lines list them.
pub const ATTRIBUTES: [&str; 9] = [
    "kind", "element", "type", "rarity", "set", "stars", "category", "card", "not",
];

impl Filter {
    pub fn matches(&self, card: &Card) -> bool {
        self.tests.iter().all(|t| t.matches(card))
            && !self.not.as_ref().is_some_and(|n| n.matches(card))
    }

    /// The one kind this filter is exactly, if it is that.
    pub fn only_kind(&self) -> Option<CardKind> {
        match (&self.tests[..], &self.not) {
            ([Test::Kind(kinds)], None) if kinds.len() == 1 => Some(kinds[0]),
            _ => None,
        }
    }
}

impl Test {
    pub fn matches(&self, card: &Card) -> bool {
        match self {
            Test::Kind(kinds) => kinds.contains(&card.kind),
            Test::Element(elements) => card.elements.iter().any(|e| elements.contains(e)),
            Test::Type(types) => card.types.iter().any(|t| types.contains(t)),
            Test::Rarity(rarities) => rarities.contains(&card.rarity),
            Test::Set(sets) => sets.contains(&card.set),
            Test::Category(categories) => card
                .category
                .as_ref()
                .is_some_and(|c| categories.contains(c)),
            Test::Card(ids) => ids.contains(&card.id),
            Test::Stars(from, to) => card.stars.is_some_and(|s| (*from..=*to).contains(&s)),
        }
    }
}

impl DeckFormat {
    /// The zone a deck list's header names (id, name or another name,
    /// ignoring case, hyphens and spacing).
    pub fn zone_named(&self, header: &str) -> Option<usize> {
        let wanted = header_key(header);
        self.zones.iter().position(|z| {
            header_key(&z.id.0) == wanted
                || header_key(&z.name) == wanted
                || z.also.iter().any(|a| header_key(a) == wanted)
        })
    }

    /// What a character adds to a bound's maximum.
    pub fn extra(&self, character: Option<&characters::Character>, bound: usize) -> u64 {
        let Some(character) = character else { return 0 };
        self.modifiers
            .iter()
            .filter(|m| m.bound == bound && m.character == character.id)
            .map(|m| m.add)
            // A format built in code has no number bound: past `u64`, a
            // limit is as good as none, never wrapped round to a small one.
            .fold(0, u64::saturating_add)
    }
}

/// Up to ten names, and how many more.
fn first_few(names: &[&str]) -> String {
    let shown = names
        .iter()
        .take(10)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    match names.len() {
        0 => "none".to_string(),
        n if n > 10 => format!("{shown} and {} more", n - 10),
        _ => shown,
    }
}

/// A header both zones answer to (id, name or `also`), as one of them
/// writes it.
fn shared_header(a: &Zone, b: &Zone) -> Option<String> {
    let headers = |z: &Zone| -> Vec<String> {
        std::iter::once(z.id.0.clone())
            .chain(std::iter::once(z.name.clone()))
            .chain(z.also.iter().cloned())
            .collect()
    };
    let theirs: Vec<String> = headers(a).iter().map(|h| header_key(h)).collect();
    headers(b)
        .into_iter()
        .find(|h| theirs.contains(&header_key(h)))
}

/// A zone's name as headers are compared: folded as card names are (NFKC,
/// lower case, no spaces), without hyphens or underscores (`MAINDECK`,
/// `main-deck` and `Main Deck` are one).
fn header_key(text: &str) -> String {
    fold(text).replace(['-', '_'], "")
}

/// Lower-case words, split at spaces, hyphens and underscores, joined by a
/// space (`Deck-Box` → `deck box`).
fn zone_fold(text: &str) -> String {
    text.to_lowercase()
        .split(|c: char| c.is_whitespace() || c == '-' || c == '_')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

// ------------------------------------------------------------ the catalog

/// The formats a command may check against: the embedded ones, then the
/// pool's own.
#[derive(Debug, Clone, Default)]
pub struct Formats {
    pub list: Vec<DeckFormat>,
}

/// Why a format name matched nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownFormat {
    pub suggestion: Option<String>,
    pub known: Vec<String>,
}

impl Formats {
    /// The embedded formats alone.
    pub fn builtin() -> Formats {
        Formats {
            list: builtin().to_vec(),
        }
    }

    /// The embedded formats and those of a pool's `formats/` folder; every
    /// problem of the pool's files goes to `out`.
    pub fn of_pool(pool: &Pool, out: &mut Vec<Diagnostic>) -> Formats {
        let mut list = builtin().to_vec();
        for file in pool.data.iter().filter(|f| is_format_file(&f.relative)) {
            let mut found = Vec::new();
            let formats = parse_located(file.text(), &file.path, &mut found);
            for (format, span) in formats {
                if list.iter().any(|f| f.id == format.id) {
                    found.push(
                        Diagnostic::error(
                            Code::FormatConflict,
                            &file.path,
                            span,
                            format!("a format `{}` exists already", format.id),
                        )
                        .with_label("id taken")
                        .with_help("give the format another id; the built-in formats are `blades deck check --rules` names"),
                    );
                } else {
                    list.push(format);
                }
            }
            out.extend(found);
        }
        Formats { list }
    }

    /// The cards, sets and types the formats name that `database` does
    /// not have, each located in its format file with the nearest one
    /// suggested. (A filter on a name that does not exist would count
    /// nothing, silently.)
    /// The ids of the cards the formats' filters name.
    pub fn named_cards(&self) -> impl Iterator<Item = &str> {
        (self.list.iter().flat_map(|f| &f.names))
            .filter(|named| named.attribute == "card")
            .map(|named| named.id.0.as_str())
    }

    pub fn unknown_names(&self, database: &Database) -> Vec<Diagnostic> {
        let cards: Vec<&str> = database.cards.iter().map(|c| c.id.0.as_str()).collect();
        let sets: Vec<&str> = database.sets.iter().map(|s| s.id.0.as_str()).collect();
        let mut types: Vec<&str> = BASE_TYPES.to_vec();
        types.extend(
            database
                .sets
                .iter()
                .flat_map(|s| s.extra_types.iter().map(|t| t.0.as_str())),
        );
        let card_set: HashSet<&str> = cards.iter().copied().collect();
        let mut out = Vec::new();
        for named in self.list.iter().flat_map(|f| &f.names) {
            let known: &[&str] = match named.attribute {
                "card" if card_set.contains(named.id.0.as_str()) => continue,
                "card" => &cards,
                "set" => &sets,
                _ => &types,
            };
            if known.contains(&named.id.0.as_str()) {
                continue;
            }
            let help = match closest(&named.id.0, known.iter().copied()) {
                Some(best) => format!(
                    "did you mean `{best}`? A filter names a {} by its id",
                    named.attribute
                ),
                None => format!(
                    "a filter names a {} of the pool by its id: {}",
                    named.attribute,
                    first_few(known)
                ),
            };
            out.push(
                Diagnostic::error(
                    Code::FormatConflict,
                    &named.path,
                    named.span.clone(),
                    format!("the pool has no {} `{}`", named.attribute, named.id),
                )
                .with_label(format!("not a {} of the pool", named.attribute))
                .with_help(help),
            );
        }
        out
    }

    /// The format a name means: its id or its name (ignoring case).
    pub fn resolve(&self, name: &str) -> Result<&DeckFormat, UnknownFormat> {
        let wanted = fold(name);
        if let Some(f) = self
            .list
            .iter()
            .find(|f| fold(&f.id.0) == wanted || fold(&f.name) == wanted)
        {
            return Ok(f);
        }
        let ids: Vec<&str> = self.list.iter().map(|f| f.id.0.as_str()).collect();
        Err(UnknownFormat {
            suggestion: closest(&wanted, ids.iter().copied()).map(str::to_string),
            known: ids.iter().map(|s| s.to_string()).collect(),
        })
    }

    /// The default format (the Millennium Blades tournament deck).
    pub fn default_format(&self) -> &DeckFormat {
        &self.list[0]
    }
}

/// Is this pool data file a format file (`formats/*.yaml`)?
pub(crate) fn is_format_file(relative: &str) -> bool {
    relative.starts_with("formats/") && (relative.ends_with(".yaml") || relative.ends_with(".yml"))
}

/// The embedded formats; the first is the default.
pub fn builtin() -> &'static [DeckFormat] {
    static FORMATS: OnceLock<Vec<DeckFormat>> = OnceLock::new();
    FORMATS.get_or_init(|| parse_formats(FORMATS_YAML).expect("data/deck-formats.yaml is valid"))
}

/// Reads formats from YAML text; the first problem as text.
pub fn parse_formats(text: &str) -> Result<Vec<DeckFormat>, String> {
    let mut out = Vec::new();
    let formats = parse_located(text, &Arc::from(FORMATS_PATH), &mut out);
    match out.first() {
        Some(d) => Err(format!(
            "{} (at byte {}){}",
            d.message,
            d.span.start,
            d.help
                .as_ref()
                .map(|h| format!("; {h}"))
                .unwrap_or_default()
        )),
        None => Ok(formats.into_iter().map(|(f, _)| f).collect()),
    }
}

/// Reads a format file: each good format with the span of its id; every
/// problem located in `out`. A format with a problem is left out.
pub fn parse_located(
    text: &str,
    path: &Arc<str>,
    out: &mut Vec<Diagnostic>,
) -> Vec<(DeckFormat, Range<usize>)> {
    let Some(doc) = yaml::parse_reported(text, path, out) else {
        return Vec::new();
    };
    let mut r = Reader {
        path,
        source: text,
        out,
        names: Vec::new(),
    };
    let mut formats: Vec<(DeckFormat, Range<usize>)> = Vec::new();
    for (_, entry) in r.fields(&doc, &["formats"], &["formats"], "a format file") {
        for item in r.list(&entry.value, "formats") {
            let errors = r.out.len();
            let format = r.format(item);
            if let Some((format, span)) = format
                && r.out.len() == errors
            {
                if let Some((_, first)) = formats.iter().find(|(f, _)| f.id == format.id) {
                    let d = Diagnostic::error(
                        Code::FormatConflict,
                        path,
                        span,
                        format!("two formats have the id `{}`", format.id),
                    )
                    .with_label("id used again")
                    .with_related(path, first.clone(), "first used here")
                    .with_help("give each format its own id");
                    r.out.push(d);
                } else {
                    formats.push((format, span));
                }
            }
        }
    }
    formats
}

// ----------------------------------------------------------------- reader

struct Reader<'a> {
    path: &'a Arc<str>,
    /// The file's text, to quote a value as written.
    source: &'a str,
    out: &'a mut Vec<Diagnostic>,
    /// The cards, sets and types named by the format being read.
    names: Vec<Named>,
}

impl Reader<'_> {
    fn push(&mut self, code: Code, span: Range<usize>, message: String, label: &str, help: String) {
        self.out.push(
            Diagnostic::error(code, self.path, span, message)
                .with_label(label)
                .with_help(help),
        );
    }

    fn wrong_type(&mut self, node: &Node, field: &str, expected: &str, help: &str) {
        let found = node.wrong_type(self.path, field, expected);
        self.out.push(found.with_help(help));
    }

    /// A contradiction or impossible value in a format.
    fn invalid(&mut self, span: Range<usize>, message: String, label: &str, help: String) {
        self.push(Code::FormatInvalid, span, message, label, help);
    }

    /// A part that names another the format does not have, or one twice.
    fn conflict(&mut self, span: Range<usize>, message: String, label: &str, help: String) {
        self.push(Code::FormatConflict, span, message, label, help);
    }

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
            docs: Some("docs/formats.md"),
        };
        fields.read(self.path, node, self.out)
    }

    fn list<'n>(&mut self, node: &'n Node, field: &str) -> &'n [Node] {
        match &node.value {
            NodeValue::Seq(items) => items,
            NodeValue::Null => &[],
            _ => {
                self.wrong_type(
                    node,
                    field,
                    "a list",
                    &format!("write `{field}:` followed by `- …` items"),
                );
                &[]
            }
        }
    }

    /// One value or a list of them.
    fn one_or_many<'n>(&mut self, node: &'n Node) -> Vec<&'n Node> {
        match &node.value {
            NodeValue::Seq(items) => items.iter().collect(),
            _ => vec![node],
        }
    }

    fn text(&mut self, node: &Node, field: &str) -> Option<String> {
        match node.scalar_text(self.source) {
            Some(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
            _ => {
                self.wrong_type(node, field, "text", &format!("write `{field}: <text>`"));
                None
            }
        }
    }

    fn id(&mut self, node: &Node, field: &str) -> Option<Id> {
        let text = self.text(node, field)?;
        if Id::is_valid(&text) {
            Some(Id(text))
        } else {
            self.push(
                Code::InvalidId,
                node.span.clone(),
                format!("`{text}` is not a kebab-case id"),
                "not an id",
                format!(
                    "write lower-case words joined by hyphens, e.g. `{}`",
                    zone_fold(&text).replace(' ', "-")
                ),
            );
            None
        }
    }

    fn too_large(&mut self, node: &Node, field: &str) {
        let written = self.source.get(node.span.clone()).unwrap_or("this");
        self.invalid(
            node.span.clone(),
            format!("`{field}` is {written}, more cards than any deck holds"),
            "too large",
            format!("numbers in a format go up to {MAX_FORMAT_NUMBER}"),
        );
    }

    fn number(&mut self, node: &Node, field: &str) -> Option<u64> {
        match node.value {
            NodeValue::Int(i) if i > MAX_FORMAT_NUMBER as i64 => {
                self.too_large(node, field);
                None
            }
            // Digits past `i64` read as a float: as far past any deck.
            NodeValue::Float(f) if f > MAX_FORMAT_NUMBER as f64 && f.fract() == 0.0 => {
                self.too_large(node, field);
                None
            }
            NodeValue::Int(i) if i >= 0 => Some(i as u64),
            NodeValue::Int(i) => {
                self.push(
                    Code::NegativeAmount,
                    node.span.clone(),
                    format!("`{field}` is {i}, below zero"),
                    "negative",
                    "counts are 0 or more".into(),
                );
                None
            }
            _ => {
                self.wrong_type(
                    node,
                    field,
                    "a whole number",
                    &format!("write `{field}: 3`"),
                );
                None
            }
        }
    }

    fn format(&mut self, node: &Node) -> Option<(DeckFormat, Range<usize>)> {
        const FIELDS: &[&str] = &[
            "id",
            "name",
            "surplus",
            "zones",
            "bounds",
            "copies",
            "modifiers",
        ];
        let fields = self.fields(node, FIELDS, &["id", "name", "zones"], "a format");
        let get = |key: &str| {
            fields
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, e)| &e.value)
        };
        let id_node = get("id")?;
        let id = self.id(id_node, "id");
        let name = get("name").and_then(|n| self.text(n, "name"));
        let surplus = get("surplus").and_then(|n| self.text(n, "surplus"));
        let zones = get("zones").map(|n| self.zones(n)).unwrap_or_default();
        if zones.is_empty() {
            if let Some(node) = get("zones")
                && (matches!(node.value, NodeValue::Null)
                    || node.as_seq().is_some_and(<[Node]>::is_empty))
            {
                self.invalid(
                    node.span.clone(),
                    "a format needs at least one zone".into(),
                    "no zones",
                    "list the zones a deck has, e.g. `zones: [{id: deck, name: deck}]`".into(),
                );
            }
            return None;
        }
        let mut bounds = Vec::new();
        let mut bound_ids: Vec<(Option<Id>, Range<usize>)> = Vec::new();
        if let Some(node) = get("bounds") {
            for item in self.list(node, "bounds") {
                if let Some((bound, span)) = self.bound(item, &zones) {
                    if let Some(id) = &bound.id
                        && let Some((_, first)) =
                            bound_ids.iter().find(|(b, _)| b.as_ref() == Some(id))
                    {
                        let d = Diagnostic::error(
                            Code::FormatConflict,
                            self.path,
                            span.clone(),
                            format!("two bounds have the id `{id}`"),
                        )
                        .with_label("id used again")
                        .with_related(self.path, first.clone(), "first used here")
                        .with_help("give each bound its own id");
                        self.out.push(d);
                    }
                    bound_ids.push((bound.id.clone(), span));
                    bounds.push(bound);
                }
            }
        }
        let mut copies = Vec::new();
        if let Some(node) = get("copies") {
            for item in self.list(node, "copies") {
                copies.extend(self.copy_limit(item, &zones));
            }
        }
        let mut modifiers = Vec::new();
        if let Some(node) = get("modifiers") {
            for item in self.list(node, "modifiers") {
                modifiers.extend(self.modifier(item, &bounds));
            }
        }
        Some((
            DeckFormat {
                id: id?,
                name: name?,
                zones: zones.into_iter().map(|(z, _)| z).collect(),
                bounds,
                copies,
                modifiers,
                surplus,
                names: std::mem::take(&mut self.names),
            },
            id_node.span.clone(),
        ))
    }

    fn zones(&mut self, node: &Node) -> Vec<(Zone, Range<usize>)> {
        let mut zones: Vec<(Zone, Range<usize>)> = Vec::new();
        for item in self.list(node, "zones") {
            let fields = self.fields(item, &["id", "name", "also"], &["id"], "a zone");
            let mut zone = Zone {
                id: Id(String::new()),
                name: String::new(),
                also: Vec::new(),
            };
            let mut span = item.span.clone();
            let mut ok = true;
            for (key, entry) in &fields {
                match *key {
                    "id" => {
                        span = entry.value.span.clone();
                        match self.id(&entry.value, "id") {
                            Some(id) => zone.id = id,
                            None => ok = false,
                        }
                    }
                    "name" => zone.name = self.text(&entry.value, "name").unwrap_or_default(),
                    _ => {
                        for n in self.one_or_many(&entry.value) {
                            zone.also.extend(self.text(n, "also"));
                        }
                    }
                }
            }
            if !ok || !fields.iter().any(|(k, _)| *k == "id") {
                continue;
            }
            if zone.name.is_empty() {
                zone.name = zone.id.0.replace('-', " ");
            }
            if let Some((_, first)) = zones.iter().find(|(z, _)| z.id == zone.id) {
                let d = Diagnostic::error(
                    Code::FormatConflict,
                    self.path,
                    span.clone(),
                    format!("two zones have the id `{}`", zone.id),
                )
                .with_label("zone declared again")
                .with_related(self.path, first.clone(), "first declared here")
                .with_help("give each zone its own id");
                self.out.push(d);
                continue;
            }
            if let Some((other, first)) = zones
                .iter()
                .find(|(z, _)| shared_header(z, &zone).is_some())
            {
                let header = shared_header(other, &zone).unwrap_or_default();
                let d = Diagnostic::error(
                    Code::FormatConflict,
                    self.path,
                    span.clone(),
                    format!(
                        "the zones `{}` and `{}` both answer to the header `{header}:`",
                        other.id, zone.id
                    ),
                )
                .with_label("same header as another zone")
                .with_related(self.path, first.clone(), "this zone answers to it too")
                .with_help("a deck list's header names one zone: change the `name` or `also` of one of them");
                self.out.push(d);
                continue;
            }
            zones.push((zone, span));
        }
        zones
    }

    /// Zone references (`zones: [a, b]` or `zone: a`) as indexes.
    fn zone_refs(&mut self, node: &Node, zones: &[(Zone, Range<usize>)]) -> Option<Vec<usize>> {
        let mut out = Vec::new();
        let mut ok = true;
        for item in self.one_or_many(node) {
            let Some(name) = self.text(item, "zones") else {
                ok = false;
                continue;
            };
            match zones.iter().position(|(z, _)| z.id.0 == name) {
                Some(i) if !out.contains(&i) => out.push(i),
                Some(_) => {}
                None => {
                    let ids: Vec<&str> = zones.iter().map(|(z, _)| z.id.0.as_str()).collect();
                    let help = match closest(&name, ids.iter().copied()) {
                        Some(best) => format!(
                            "did you mean `{best}`? Zones of this format: {}",
                            listing(&ids)
                        ),
                        None => format!(
                            "zones of this format: {}; declare it under `zones:` first",
                            listing(&ids)
                        ),
                    };
                    self.conflict(
                        item.span.clone(),
                        format!("no zone `{name}` in this format"),
                        "unknown zone",
                        help,
                    );
                    ok = false;
                }
            }
        }
        if out.is_empty() && ok {
            self.invalid(
                node.span.clone(),
                "a bound on no zone".into(),
                "empty",
                "name at least one zone, or leave `zones` out for every zone".into(),
            );
            return None;
        }
        ok.then_some(out)
    }

    fn bound(
        &mut self,
        node: &Node,
        zones: &[(Zone, Range<usize>)],
    ) -> Option<(Bound, Range<usize>)> {
        const FIELDS: &[&str] = &[
            "id", "zones", "where", "min", "max", "rule", "min-rule", "one", "many",
        ];
        let fields = self.fields(node, FIELDS, &[], "a bound");
        let mut ok = true;
        let mut bound = Bound {
            id: None,
            zones: (0..zones.len()).collect(),
            filter: Filter::default(),
            min: None,
            max: None,
            max_rule: rule::TOO_MANY_IN_ZONE,
            min_rule: rule::TOO_FEW_IN_ZONE,
            one: "card".into(),
            many: String::new(),
        };
        let mut span = node.span.start..node.span.start;
        if let Some((_, first)) = fields.first() {
            span = first.key.span.clone();
        }
        let mut min_span = None;
        for (key, entry) in &fields {
            let value = &entry.value;
            match *key {
                "id" => {
                    span = value.span.clone();
                    bound.id = self.id(value, "id");
                    ok &= bound.id.is_some();
                }
                "zones" => match self.zone_refs(value, zones) {
                    Some(z) => bound.zones = z,
                    None => ok = false,
                },
                "where" => match self.filter(value) {
                    Some(f) => bound.filter = f,
                    None => ok = false,
                },
                "min" => {
                    bound.min = self.number(value, "min");
                    min_span = Some(value.span.clone());
                    ok &= bound.min.is_some();
                }
                "max" => {
                    bound.max = self.number(value, "max");
                    ok &= bound.max.is_some();
                }
                "rule" | "min-rule" => match self.rule(value) {
                    Some(r) if *key == "rule" => bound.max_rule = r,
                    Some(r) => bound.min_rule = r,
                    None => ok = false,
                },
                "one" => bound.one = self.text(value, "one").unwrap_or_default(),
                _ => bound.many = self.text(value, "many").unwrap_or_default(),
            }
        }
        if bound.many.is_empty() {
            bound.many = format!("{}s", bound.one);
        }
        if ok && bound.min.is_none() && bound.max.is_none() {
            self.invalid(
                span.clone(),
                "a bound with neither `min` nor `max`".into(),
                "bounds nothing",
                "give the bound a `min`, a `max` or both".into(),
            );
            ok = false;
        }
        if let (Some(min), Some(max)) = (bound.min, bound.max)
            && min > max
        {
            self.conflict(
                min_span.unwrap_or(span.clone()),
                format!("the minimum {min} is above the maximum {max}"),
                "min above max",
                "no deck can hold more than the maximum and fewer than the minimum at once: lower `min` or raise `max`".into(),
            );
            ok = false;
        }
        ok.then_some((bound, span))
    }

    fn rule(&mut self, node: &Node) -> Option<&'static str> {
        let name = self.text(node, "rule")?;
        if let Some(rule) = rule_named(&name) {
            return Some(rule);
        }
        let names: Vec<&str> = RULES.iter().map(|(r, _)| *r).collect();
        let help = match closest(&name, names.iter().copied()) {
            Some(best) => format!("did you mean `{best}`? Rules: {}", names.join(", ")),
            None => format!("rules: {}", names.join(", ")),
        };
        self.invalid(
            node.span.clone(),
            format!("unknown rule `{name}`"),
            "not a rule",
            help,
        );
        None
    }

    fn filter(&mut self, node: &Node) -> Option<Filter> {
        let NodeValue::Map(entries) = &node.value else {
            self.wrong_type(
                node,
                "where",
                "a mapping",
                "write `where: {attribute: value}`, e.g. `where: {kind: single}`",
            );
            return None;
        };
        let mut filter = Filter::default();
        let mut ok = true;
        // An attribute left empty tests nothing, as an empty field anywhere.
        for entry in entries {
            let key = entry.key.as_str().unwrap_or_default();
            if entry.value.value == NodeValue::Null && ATTRIBUTES.contains(&key) {
                continue;
            }
            let value = &entry.value;
            let test = match key {
                "kind" => self
                    .values(
                        value,
                        "kind",
                        |t| {
                            // Venues and characters are no player's: no
                            // deck holds them, so no format counts them.
                            CardKind::PLAYERS
                                .into_iter()
                                .find(|k| k.as_str() == t)
                                .map(|k| vec![k])
                        },
                        &CardKind::PLAYERS.map(CardKind::as_str),
                    )
                    .map(Test::Kind),
                "element" => self
                    .values(
                        value,
                        "element",
                        |t| {
                            Element::ALL
                                .into_iter()
                                .find(|e| e.as_str() == t)
                                .map(|e| vec![e])
                        },
                        &Element::ALL.map(Element::as_str),
                    )
                    .map(Test::Element),
                "rarity" => {
                    let mut names: Vec<&str> = SetKind::ALL.iter().map(|k| k.as_str()).collect();
                    names.push("promo");
                    self.values(
                        value,
                        "rarity",
                        |t| {
                            if t == "promo" {
                                return Some(vec![
                                    SetKind::BronzePromo,
                                    SetKind::SilverPromo,
                                    SetKind::GoldPromo,
                                ]);
                            }
                            SetKind::ALL
                                .into_iter()
                                .find(|k| k.as_str() == t)
                                .map(|k| vec![k])
                        },
                        &names,
                    )
                    .map(Test::Rarity)
                }
                "type" => self.named_ids(value, "type").map(Test::Type),
                "set" => self.named_ids(value, "set").map(Test::Set),
                "category" => self.ids(value, "category").map(Test::Category),
                "card" => self.named_ids(value, "card").map(Test::Card),
                "stars" => self.stars(value).map(|(a, b)| Test::Stars(a, b)),
                "not" => {
                    match self.filter(value) {
                        Some(f) if filter.not.is_none() => filter.not = Some(Box::new(f)),
                        Some(_) => {}
                        None => ok = false,
                    }
                    continue;
                }
                _ => {
                    let help = match closest(key, ATTRIBUTES) {
                        Some(best) => format!(
                            "did you mean `{best}`? A filter tests: {}",
                            ATTRIBUTES.join(", ")
                        ),
                        None => format!("a filter tests: {}", ATTRIBUTES.join(", ")),
                    };
                    self.invalid(
                        entry.key.span.clone(),
                        format!("`{key}` is not a card attribute"),
                        "unknown attribute",
                        help,
                    );
                    ok = false;
                    continue;
                }
            };
            match test {
                Some(t) => filter.tests.push(t),
                None => ok = false,
            }
        }
        ok.then_some(filter)
    }

    /// Values of an attribute with a fixed vocabulary.
    fn values<T>(
        &mut self,
        node: &Node,
        field: &str,
        parse: impl Fn(&str) -> Option<Vec<T>>,
        known: &[&str],
    ) -> Option<Vec<T>> {
        let mut out = Vec::new();
        let mut ok = true;
        for item in self.one_or_many(node) {
            let Some(text) = self.text(item, field) else {
                ok = false;
                continue;
            };
            let folded = zone_fold(&text).replace(' ', "-");
            match parse(&folded) {
                Some(values) => out.extend(values),
                None => {
                    let help = match closest(&folded, known.iter().copied()) {
                        Some(best) => {
                            format!("did you mean `{best}`? Values: {}", known.join(", "))
                        }
                        None => format!("values: {}", known.join(", ")),
                    };
                    self.push(
                        Code::InvalidValue,
                        item.span.clone(),
                        format!("`{text}` is not a {field}"),
                        "unknown value",
                        help,
                    );
                    ok = false;
                }
            }
        }
        ok.then_some(out)
    }

    /// [`Reader::ids`] of a card, set or type, each kept with its place
    /// to be checked against the pool.
    fn named_ids(&mut self, node: &Node, attribute: &'static str) -> Option<Vec<Id>> {
        let ids = self.ids(node, attribute)?;
        for (id, item) in ids.iter().zip(self.one_or_many(node)) {
            self.names.push(Named {
                attribute,
                id: id.clone(),
                path: self.path.clone(),
                span: item.span.clone(),
            });
        }
        Some(ids)
    }

    fn ids(&mut self, node: &Node, field: &str) -> Option<Vec<Id>> {
        let items = self.one_or_many(node);
        let ids: Vec<Option<Id>> = items.into_iter().map(|n| self.id(n, field)).collect();
        ids.into_iter().collect()
    }

    /// `stars: 3`, `stars: [1, 2]` is not allowed; `stars: {min: 1, max: 3}`.
    fn stars(&mut self, node: &Node) -> Option<(u8, u8)> {
        let (from, to) = match &node.value {
            NodeValue::Int(_) => {
                let n = self.number(node, "stars")?;
                (n, n)
            }
            NodeValue::Map(_) => {
                let fields = self.fields(node, &["min", "max"], &[], "a STAR range");
                let mut from = 1;
                let mut to = 10;
                for (key, entry) in fields {
                    let n = self.number(&entry.value, key)?;
                    if key == "min" {
                        from = n;
                    } else {
                        to = n;
                    }
                }
                (from, to)
            }
            _ => {
                self.wrong_type(
                    node,
                    "stars",
                    "a whole number or a range",
                    "write `stars: 3` or `stars: {min: 1, max: 3}`",
                );
                return None;
            }
        };
        if from > to || to > 10 || from == 0 {
            self.conflict(
                node.span.clone(),
                format!("no card has a STAR from {from} to {to}"),
                "empty STAR range",
                "STARs go from 1 to 10, and `min` is at most `max`".into(),
            );
            return None;
        }
        Some((from as u8, to as u8))
    }

    fn copy_limit(&mut self, node: &Node, zones: &[(Zone, Range<usize>)]) -> Option<CopyLimit> {
        let fields = self.fields(node, &["zones", "max", "rule"], &["max"], "a copy limit");
        let mut limit = CopyLimit {
            zones: (0..zones.len()).collect(),
            max: 1,
            rule: "",
        };
        let mut ok = true;
        for (key, entry) in fields.iter() {
            let value = &entry.value;
            match *key {
                "zones" => match self.zone_refs(value, zones) {
                    Some(z) => limit.zones = z,
                    None => ok = false,
                },
                "max" => match self.number(value, "max") {
                    Some(0) => {
                        self.invalid(value.span.clone(), "a copy limit of 0 allows no card at all".into(), "zero", "a copy limit is 1 (no card twice) or more; to keep cards out, use a bound with `max: 0`".into());
                        ok = false;
                    }
                    Some(n) => limit.max = n,
                    None => ok = false,
                },
                _ => match self.rule(value) {
                    Some(r) => limit.rule = r,
                    None => ok = false,
                },
            }
        }
        if !fields.iter().any(|(k, _)| *k == "max") {
            return None;
        }
        if limit.rule.is_empty() {
            limit.rule = if limit.max == 1 {
                rule::DUPLICATE_CARD
            } else {
                rule::TOO_MANY_OF_A_CARD
            };
        }
        ok.then_some(limit)
    }

    fn modifier(&mut self, node: &Node, bounds: &[Bound]) -> Option<Modifier> {
        let fields = self.fields(
            node,
            &["character", "bound", "add"],
            &["character", "bound", "add"],
            "a modifier",
        );
        let get = |key: &str| {
            fields
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, e)| &e.value)
        };
        let (character, bound, add) = (get("character")?, get("bound")?, get("add")?);
        let add = self.number(add, "add");
        let who = self.text(character, "character");
        let character = who.and_then(|who| match characters::resolve(&who) {
            Ok(c) => Some(c.id.clone()),
            Err(_) => {
                let ids: Vec<&str> = characters::all().iter().map(|c| c.id.0.as_str()).collect();
                let help = match closest(&who, ids.iter().copied()) {
                    Some(best) => format!("did you mean `{best}`? Characters: {}", ids.join(", ")),
                    None => format!("characters: {}", ids.join(", ")),
                };
                self.push(
                    Code::UnknownCharacter,
                    character.span.clone(),
                    format!("unknown character `{who}`"),
                    "not a character",
                    help,
                );
                None
            }
        });
        let bound_name = self.text(bound, "bound");
        let bound_index = bound_name.and_then(|name| {
            match bounds
                .iter()
                .position(|b| b.id.as_ref().is_some_and(|id| id.0 == name))
            {
                Some(i) if bounds[i].max.is_some() => Some(i),
                Some(_) => {
                    self.conflict(
                        bound.span.clone(),
                        format!("the bound `{name}` has no maximum to add to"),
                        "no `max`",
                        "a modifier adds to a bound's `max`; give that bound one".into(),
                    );
                    None
                }
                None => {
                    let ids: Vec<&str> = bounds
                        .iter()
                        .filter_map(|b| b.id.as_ref())
                        .map(|i| i.0.as_str())
                        .collect();
                    let help = match closest(&name, ids.iter().copied()) {
                        Some(best) => format!(
                            "did you mean `{best}`? Bounds with an id: {}",
                            listing(&ids)
                        ),
                        None if ids.is_empty() => "give the bound an `id:` and name it here".into(),
                        None => format!("bounds with an id: {}", listing(&ids)),
                    };
                    self.conflict(
                        bound.span.clone(),
                        format!("no bound `{name}` in this format"),
                        "unknown bound",
                        help,
                    );
                    None
                }
            }
        });
        Some(Modifier {
            character: character?,
            bound: bound_index?,
            add: add?,
        })
    }
}

// ---------------------------------------------------------- input schema

/// A deck-format file (`data/deck-formats.yaml`, a pool's
/// `formats/*.yaml`); see `docs/formats.md`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
#[schemars(title = "blades deck formats")]
pub struct FormatsFile {
    #[schemars(transform = yaml::nullable)]
    pub formats: Vec<FormatSource>,
}

/// One deck format.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct FormatSource {
    /// Kebab-case id: the name `blades deck check --rules` takes.
    pub id: TextId,
    pub name: Text,
    /// Where surplus cards go (`your binder`), for the messages.
    #[serde(default)]
    pub surplus: Option<Text>,
    /// The zones; cards under no zone header go to the first.
    #[schemars(length(min = 1))]
    pub zones: Vec<ZoneSource>,
    #[serde(default)]
    pub bounds: Option<Vec<BoundSource>>,
    /// Copy limits: at most `max` copies of a card in the zones together.
    #[serde(default)]
    pub copies: Option<Vec<CopyLimitSource>>,
    /// What a character adds to a bound's maximum.
    #[serde(default)]
    pub modifiers: Option<Vec<ModifierSource>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ZoneSource {
    pub id: TextId,
    /// As messages name it ("the {name}"); default: the id.
    #[serde(default)]
    pub name: Option<Text>,
    /// Other headers a deck list may use for the zone.
    #[serde(default)]
    pub also: Option<OneOrMany<Text>>,
}

/// A count bound on cards matching `where`, in `zones` together.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
#[schemars(extend("anyOf" = [
    { "required": ["min"], "properties": { "min": { "type": "integer" } } },
    { "required": ["max"], "properties": { "max": { "type": "integer" } } }
]))]
pub struct BoundSource {
    /// For modifiers to name the bound.
    #[serde(default)]
    pub id: Option<TextId>,
    /// The zones counted together; default: every zone.
    #[serde(default)]
    pub zones: Option<ZoneList>,
    /// Which cards count; default: every card.
    #[serde(default, rename = "where")]
    pub filter: Option<FilterSource>,
    #[serde(default)]
    #[schemars(range(max = MAX_FORMAT_NUMBER))]
    pub min: Option<u64>,
    #[serde(default)]
    #[schemars(range(max = MAX_FORMAT_NUMBER))]
    pub max: Option<u64>,
    /// The rule a deck above `max` breaks (default `too-many-in-zone`).
    #[serde(default)]
    pub rule: Option<RuleName>,
    /// The rule a deck below `min` breaks (default `too-few-in-zone`).
    #[serde(default)]
    pub min_rule: Option<RuleName>,
    /// One matching card in messages (default `card`).
    #[serde(default)]
    pub one: Option<Text>,
    /// Several (default: `one` and an s).
    #[serde(default)]
    pub many: Option<Text>,
}

/// The card kinds a format may count: a player's (`CardKind::PLAYERS`),
/// never a venue or a character. For the schema only.
#[derive(JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[allow(dead_code)]
enum PlayersKind {
    Single,
    DeckBox,
    Accessory,
}

/// Card attribute tests, all of which must hold; a list means any of.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct FilterSource {
    #[serde(default)]
    #[schemars(with = "Option<OneOrMany<PlayersKind>>")]
    pub kind: Option<OneOrMany<CardKind>>,
    #[serde(default)]
    pub element: Option<OneOrMany<Element>>,
    #[serde(default, rename = "type")]
    pub card_type: Option<OneOrMany<TextId>>,
    /// A set kind, or `promo` for the three promo kinds.
    #[serde(default)]
    pub rarity: Option<OneOrMany<Text>>,
    #[serde(default)]
    pub set: Option<OneOrMany<TextId>>,
    /// A card's pool-defined `category`.
    #[serde(default)]
    pub category: Option<OneOrMany<TextId>>,
    #[serde(default)]
    pub card: Option<OneOrMany<TextId>>,
    #[serde(default)]
    pub stars: Option<StarsSource>,
    /// Cards this filter does not match.
    #[serde(default)]
    pub not: Option<Box<FilterSource>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum OneOrMany<T> {
    One(T),
    Many(Vec<T>),
}

/// The zones a bound or copy limit counts: one, or a list of at least one.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ZoneList {
    One(Text),
    Many(#[schemars(length(min = 1))] Vec<Text>),
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum StarsSource {
    /// Exactly this STAR (1 to 10).
    Exactly(u8),
    Range {
        #[serde(default)]
        min: Option<u8>,
        #[serde(default)]
        max: Option<u8>,
    },
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CopyLimitSource {
    #[serde(default)]
    pub zones: Option<ZoneList>,
    #[schemars(range(min = 1, max = MAX_FORMAT_NUMBER))]
    pub max: u64,
    /// Default `duplicate-card` for 1, `too-many-of-a-card` above.
    #[serde(default)]
    pub rule: Option<RuleName>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ModifierSource {
    /// A character id or name (`deques`).
    pub character: Text,
    /// The id of a bound with a `max`.
    pub bound: Text,
    #[schemars(range(max = MAX_FORMAT_NUMBER))]
    pub add: u64,
}

/// A rule's name (`too-many-singles`): one of the rules the checks know.
#[derive(Debug, Deserialize)]
#[serde(transparent)]
pub struct RuleName(pub String);

yaml::written_schema!(
    RuleName,
    "RuleName",
    schemars::json_schema!({
        "description": "A rule the checks know, named as findings name it.",
        "enum": RULES.iter().map(|(r, _)| *r).collect::<Vec<&str>>()
    })
);

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(text: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        parse_located(text, &Arc::from("f.yaml"), &mut out);
        out.iter()
            .map(|d| {
                (
                    d.code.as_str().to_string(),
                    text[d.span.clone()].to_string(),
                )
            })
            .collect()
    }

    const HEAD: &str =
        "formats:\n  - id: x\n    name: X\n    zones: [{id: main, name: Main Deck}, {id: side}]\n";

    #[test]
    fn the_embedded_formats_read() {
        let ids: Vec<&str> = builtin().iter().map(|f| f.id.0.as_str()).collect();
        assert_eq!(
            ids,
            ["tournament", "millennium-deck", "starting-hand", "holdings"]
        );
    }

    #[test]
    fn contradictions_are_located() {
        let text = format!(
            "{HEAD}    bounds:\n      - {{min: 5, max: 3}}\n      - {{zones: [extra], max: 1}}\n      - {{where: {{colour: red}}, max: 1}}\n      - {{where: {{kind: singel}}, max: 1}}\n"
        );
        assert_eq!(
            errors(&text),
            [
                ("format-conflict".into(), "5".into()),
                ("format-conflict".into(), "extra".into()),
                ("format-invalid".into(), "colour".into()),
                ("invalid-value".into(), "singel".into()),
            ]
        );
    }

    /// No deck holds a venue or a character, so a format counts neither:
    /// the reader refuses them, located, as the schema does.
    #[test]
    fn a_format_counts_no_venue_or_character() {
        let text = format!(
            "{HEAD}    bounds:\n      - {{where: {{kind: venue}}, max: 1}}\n      - {{where: {{kind: [single, character]}}, max: 1}}\n"
        );
        assert_eq!(
            errors(&text),
            [
                ("invalid-value".into(), "venue".into()),
                ("invalid-value".into(), "character".into()),
            ]
        );
        let schema = crate::schema::SchemaName::FormatInput.generate();
        let validator = jsonschema::validator_for(&schema).unwrap();
        let doc = yaml::parse(&text).unwrap().to_json();
        assert!(!validator.is_valid(&doc));
        let single = text
            .replace("kind: venue", "kind: single")
            .replace(", character", "");
        let doc = yaml::parse(&single).unwrap().to_json();
        assert!(validator.is_valid(&doc));
    }

    #[test]
    fn modifiers_need_a_known_character_and_bound() {
        let text = format!(
            "{HEAD}    bounds: [{{id: b, max: 1}}, {{id: c, min: 1}}]\n    modifiers:\n      - {{character: dekues, bound: b, add: 1}}\n      - {{character: deques, bound: z, add: 1}}\n      - {{character: deques, bound: c, add: 1}}\n"
        );
        let codes: Vec<(String, String)> = errors(&text);
        assert_eq!(
            codes,
            [
                ("unknown-character".into(), "dekues".into()),
                ("format-conflict".into(), "z".into()),
                ("format-conflict".into(), "c".into()),
            ]
        );
    }

    /// Past `i64` a YAML number is a float; past the bound or not, it is
    /// refused as too large where it is written, not as a wrong type.
    #[test]
    fn numbers_past_any_deck_are_too_large() {
        let text = format!(
            "{HEAD}    bounds: [{{id: b, max: 1000001}}, {{max: 18446744073709551616}}]\n    copies: [{{max: 1000000}}]\n"
        );
        assert_eq!(
            errors(&text),
            [
                ("format-invalid".into(), "1000001".into()),
                ("format-invalid".into(), "18446744073709551616".into()),
            ]
        );
    }

    /// A format built in code has no bound on its numbers: a limit and a
    /// character's adds past `u64` stay the largest limit.
    #[test]
    fn a_limit_past_the_integer_range_saturates() {
        let mut format = builtin()[0].clone();
        let deques = characters::resolve("deques").unwrap();
        format.modifiers = vec![
            Modifier {
                character: deques.id.clone(),
                bound: 0,
                add: u64::MAX,
            };
            2
        ];
        assert_eq!(format.extra(Some(deques), 0), u64::MAX);
    }

    #[test]
    fn zones_are_named_loosely() {
        let f = &builtin()[1];
        assert_eq!(f.zone_named("Main Deck"), Some(0));
        assert_eq!(f.zone_named("main-deck"), Some(0));
        assert_eq!(f.zone_named("MILLENNIUM  deck"), Some(1));
        assert_eq!(f.zone_named("MAINDECK"), Some(0));
        assert_eq!(f.zone_named("ＭＡＩＮ　ＤＥＣＫ"), Some(0));
        let t = &builtin()[0];
        for header in [
            "Singles",
            "Deck Box",
            "deck boxes",
            "Accessories",
            "Accessory",
        ] {
            assert_eq!(t.zone_named(header), Some(0), "{header}");
        }
        assert_eq!(f.zone_named("sideboard"), None);
    }

    #[test]
    fn names_resolve_with_a_suggestion() {
        let formats = Formats::builtin();
        assert_eq!(formats.resolve("Holdings").unwrap().id.0, "holdings");
        let err = formats.resolve("holding").unwrap_err();
        assert_eq!(err.suggestion.as_deref(), Some("holdings"));
    }
}
