//! YAML with positions: a document tree in which every node, and every mapping
//! key, knows its byte span in the source.
//!
//! Built on `saphyr-parser`'s event stream rather than on a serde
//! deserializer, so that the tree can be validated against a JSON Schema and
//! any JSON pointer can be walked back to the node it names (see
//! `docs/decisions.md`). The builder is iterative and budgeted: duplicate
//! keys, alias bombs and deep nesting are errors, never panics.

use foldhash::HashMap;
use std::ops::Range;
use std::sync::Arc;

use saphyr_parser::{Event, Parser, ScalarStyle, Span};
use serde_json::{Map, Number, Value};

use crate::diagnostics::{Code, Diagnostic, Fix};
use crate::suggest::closest;

/// Nesting deeper than this is rejected (card files need about 5 levels).
pub(crate) const MAX_DEPTH: usize = 64;
/// An alias expansion that makes the tree larger than this many nodes is
/// rejected: the classic "billion laughs" document stops here.
pub(crate) const MAX_NODES: usize = 2_000_000;

/// Text as the readers of player inputs and format files take it: a plain
/// number or `true`/`false` is read as written (a card named `1000`), so
/// their schemas take any scalar there. Only the schemas use this type.
#[derive(Debug, serde::Deserialize)]
#[serde(transparent)]
pub struct Text(pub Value);

/// Implements `JsonSchema` for a type whose schema is written out: its
/// name, then the schema (for the input types whose readers are written by
/// hand, so no derived schema says what they take).
macro_rules! written_schema {
    ($ty:ty, $name:literal, $schema:expr) => {
        impl schemars::JsonSchema for $ty {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                $name.into()
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                $schema
            }
        }
    };
}
pub(crate) use written_schema;

written_schema!(
    Text,
    "Text",
    schemars::json_schema!({
        "description": "Text; a plain number or `true`/`false` is read as written.",
        "type": ["string", "number", "boolean"]
    })
);

/// A required field's schema that also takes `null`: those readers read a
/// list or mapping left empty (`cards:`) as empty.
pub fn nullable(schema: &mut schemars::Schema) {
    let inner = std::mem::replace(schema, schemars::json_schema!({}));
    *schema = schemars::json_schema!({ "anyOf": [inner, { "type": "null" }] });
}

/// A kebab-case id as those readers take it: written as text, or as a
/// whole number or `true`/`false`, whose text is an id too.
#[derive(Debug, serde::Deserialize)]
#[serde(transparent)]
pub struct TextId(pub Value);

written_schema!(
    TextId,
    "TextId",
    schemars::json_schema!({
        "description": "A kebab-case id (`main-deck`).",
        "anyOf": [
            { "type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$" },
            { "type": "integer", "minimum": 0 },
            { "type": "boolean" }
        ]
    })
);

/// A node of the document with its byte span.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub value: NodeValue,
    pub span: Range<usize>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum NodeValue {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    /// A string, with its scalar style (quoted and block scalars need it to
    /// map offsets inside the string back to the file).
    Str(String, ScalarStyle),
    Seq(Vec<Node>),
    Map(Vec<Entry>),
}

/// One `key: value` pair of a mapping.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key: Node,
    pub value: Node,
}

/// Why a document could not be read as YAML.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    pub kind: YamlErrorKind,
    pub span: Range<usize>,
    pub message: String,
    /// For a duplicate key: where the key was first defined.
    pub first: Option<Range<usize>>,
    /// For a syntax error inside a flow list or mapping (`[…]`, `{…}`):
    /// its opening bracket, which is often never closed.
    pub unclosed: Option<Unclosed>,
}

/// A flow collection still open where a syntax error was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unclosed {
    /// The opening `[` or `{`.
    pub bracket: Range<usize>,
    /// `]` or `}`.
    pub close: char,
    /// The last item before the error (the text of its line, comments
    /// and spaces trimmed), which the closing bracket would follow.
    pub last_item: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum YamlErrorKind {
    Syntax,
    DuplicateKey,
    TooDeep,
    AliasBomb,
    UnsupportedKey,
    MultipleDocuments,
}

/// `text` as a YAML double-quoted scalar, which reads back as exactly
/// `text`: line breaks, tabs, control characters, YAML's other line breaks
/// and the byte order mark are escaped.
pub(crate) fn double_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() || is_break(c) || c == '\u{feff}' => {
                out.push_str(&format!("\\u{:04X}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Can this text stand as a plain scalar inside a mapping or flow
/// collection?
pub fn plain_safe(text: &str) -> bool {
    !text.contains(": ")
        && !text.contains(" #")
        && !text.contains(['{', '}', '[', ']', ',', '"', '\''])
        && !text.starts_with(['-', '?', ':', '!', '&', '*', '|', '>', '%', '@', '`', ' '])
}

/// The fix that writes `word` as the scalar or key at `span` (its quotes
/// and all): none when the word cannot stand there unquoted or would
/// read as something else than text.
pub fn word_fix(span: Range<usize>, word: &str) -> Option<Fix> {
    let plain = !word.is_empty()
        && plain_safe(word)
        && !word.contains(['\n', '\r', '#'])
        && !word.ends_with([':', ' '])
        && matches!(
            resolve_scalar(word.into(), ScalarStyle::Plain),
            NodeValue::Str(..)
        );
    plain.then(|| Fix::replace(format!("write `{word}`"), span, word))
}

/// The line ends of a text file: `\n`, `\r\n` or a bare `\r`. The tool
/// writes `\n`; a file it rewrites keeps the style it had.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LineEnd {
    #[default]
    Lf,
    CrLf,
    Cr,
}

impl LineEnd {
    /// The style of most of `text`'s line ends (of the first one on a
    /// tie); `\n` for a text without any.
    pub fn of(text: &str) -> LineEnd {
        let bytes = text.as_bytes();
        // Most files: no `\r` at all (a fast search; every locale file is
        // read on every build).
        if !bytes.contains(&b'\r') {
            return LineEnd::Lf;
        }
        // Count and first place of each style.
        let mut seen = [(0usize, usize::MAX); 3];
        let mut i = 0;
        while let Some(at) = bytes[i..].iter().position(|&b| b == b'\n' || b == b'\r') {
            let at = i + at;
            let (style, len) = match (bytes[at], bytes.get(at + 1)) {
                (b'\r', Some(b'\n')) => (1, 2),
                (b'\r', _) => (2, 1),
                _ => (0, 1),
            };
            seen[style].0 += 1;
            seen[style].1 = seen[style].1.min(at);
            i = at + len;
        }
        let best = (0..3)
            .max_by_key(|&s| (seen[s].0, std::cmp::Reverse(seen[s].1)))
            .filter(|&s| seen[s].0 > 0);
        match best {
            Some(1) => LineEnd::CrLf,
            Some(2) => LineEnd::Cr,
            _ => LineEnd::Lf,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            LineEnd::Lf => "\n",
            LineEnd::CrLf => "\r\n",
            LineEnd::Cr => "\r",
        }
    }

    /// `text`, written with `\n`, with this style's line ends.
    pub fn apply(self, text: String) -> String {
        match self {
            LineEnd::Lf => text,
            _ => text.replace('\n', self.as_str()),
        }
    }
}

/// A character YAML reads as a line break besides `\n`.
pub(crate) fn is_break(c: char) -> bool {
    matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}' | '\r')
}

impl YamlError {
    /// This error as a located diagnostic in the file `path` (set, data,
    /// locale and player input files alike).
    pub fn diagnostic(self, path: &Arc<str>) -> Diagnostic {
        let (code, label, help) = match self.kind {
            // The parser's words for a tab ("tabs disallowed …") name no fix.
            YamlErrorKind::Syntax if self.message.contains("tab") => (
                Code::YamlSyntax,
                "a tab",
                "YAML indents with spaces, never tabs: replace the tab at the start of this line with spaces",
            ),
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
        let mut diagnostic = Diagnostic::error(code, path, self.span, self.message)
            .with_label(label)
            .with_help(help);
        if let Some(open) = self.unclosed
            && self.kind == YamlErrorKind::Syntax
            && !diagnostic.label.contains("tab")
        {
            diagnostic = unclosed_flow(diagnostic, path, open);
        }
        if let Some(first) = self.first {
            diagnostic = diagnostic.with_related(path, first, "first defined here");
        }
        diagnostic
    }
}

/// A syntax error inside a flow list or mapping: the opening bracket is
/// labelled too (the error is often far from it, at the end of the file),
/// and the help says where the closing bracket goes.
fn unclosed_flow(diagnostic: Diagnostic, path: &Arc<str>, open: Unclosed) -> Diagnostic {
    let (what, item, opening) = match open.close {
        '}' => ("mapping", "entry", '{'),
        _ => ("list", "item", '['),
    };
    let close = open.close;
    let help = match &open.last_item {
        Some(last) => format!(
            "close the {what} with `{close}` after its last {item}: `{last}{close}`; or write one `- {item}` per line without brackets"
        ),
        None => format!("close the {what} with `{close}` after its last {item}"),
    };
    diagnostic
        .with_label(format!(
            "the {what} opened with `{opening}` is still open here"
        ))
        .with_related(
            path,
            open.bracket,
            format!("this `{opening}` is not closed"),
        )
        .with_help(help)
}

/// Parses `text`, or reports its YAML error as a diagnostic naming `path`.
pub(crate) fn parse_reported(
    text: &str,
    path: &Arc<str>,
    out: &mut Vec<Diagnostic>,
) -> Option<Node> {
    parse(text)
        .map_err(|error| out.push(error.diagnostic(path)))
        .ok()
}

impl Node {
    /// A scalar as text, numbers and `true`/`false` as written in
    /// `source` (so a card named `1000` works); `None` for anything else.
    pub fn scalar_text(&self, source: &str) -> Option<String> {
        match &self.value {
            NodeValue::Str(s, _) => Some(s.clone()),
            NodeValue::Int(_) | NodeValue::Float(_) | NodeValue::Bool(_) => {
                source.get(self.span.clone()).map(str::to_string)
            }
            _ => None,
        }
    }

    /// What the node holds, in words for a finding (`a list`, `text`).
    pub fn kind_words(&self) -> &'static str {
        match &self.value {
            NodeValue::Null => "nothing",
            NodeValue::Bool(_) => "a boolean",
            NodeValue::Int(_) => "a whole number",
            NodeValue::Float(_) => "a number",
            NodeValue::Str(..) => "text",
            NodeValue::Seq(_) => "a list",
            NodeValue::Map(_) => "a mapping",
        }
    }

    /// A `wrong-type` finding: `field`, this node, must be `expected`. An
    /// empty value is labelled where it would start.
    pub fn wrong_type(&self, path: &Arc<str>, field: &str, expected: &str) -> Diagnostic {
        let span = match self.span.is_empty() {
            true => self.span.start..self.span.start,
            false => self.span.clone(),
        };
        let message = format!("`{field}` must be {expected}, found {}", self.kind_words());
        Diagnostic::error(Code::WrongType, path, span, message)
            .with_label(format!("expected {expected}"))
    }
}

/// A mapping of known fields in a hand-written file (a format, a deck
/// sheet): what it is called in findings, its fields and the required ones.
pub struct Fields<'k> {
    /// What the mapping is, in findings: `a zone`, `the score sheet`.
    pub what: &'k str,
    pub allowed: &'k [&'k str],
    pub required: &'k [&'k str],
    /// Where the fields are documented, for the help of a missing one.
    pub docs: Option<&'k str>,
}

impl<'k> Fields<'k> {
    /// The entries of `node` whose keys are allowed, in file order; a node
    /// that is not a mapping, each unknown key (with the closest known one)
    /// and each missing required key are findings in `out`. An optional
    /// field left empty (`character:`) is as if it were not written, as
    /// the input schemas say (`null` is allowed for every optional field).
    pub fn read<'n>(
        &self,
        path: &Arc<str>,
        node: &'n Node,
        out: &mut Vec<Diagnostic>,
    ) -> Vec<(&'k str, &'n Entry)> {
        let listed = self.allowed.join(", ");
        let NodeValue::Map(entries) = &node.value else {
            let help = format!("write {} as `key: value` lines ({listed})", self.what);
            out.push(
                node.wrong_type(path, self.what, "a mapping")
                    .with_help(help),
            );
            return Vec::new();
        };
        let mut found = Vec::new();
        for entry in entries {
            let key = entry.key.as_str().unwrap_or_default();
            match self.allowed.iter().find(|a| **a == key) {
                Some(known)
                    if entry.value.value == NodeValue::Null && !self.required.contains(known) => {}
                Some(known) => found.push((*known, entry)),
                None => out.push(self.unknown(path, entry, key, &listed)),
            }
        }
        for name in self.required {
            if !found.iter().any(|(k, _)| k == name) {
                let span = entries
                    .first()
                    .map_or(node.span.start..node.span.start, |e| e.key.span.clone());
                let see = self.docs.map(|d| format!(" (see {d})")).unwrap_or_default();
                let message = format!("{} needs `{name}`", self.what);
                out.push(
                    Diagnostic::error(Code::MissingField, path, span, message)
                        .with_label(format!("no `{name}` in this mapping"))
                        .with_help(format!("add `{name}: …`{see}")),
                );
            }
        }
        found
    }

    fn unknown(&self, path: &Arc<str>, entry: &Entry, key: &str, listed: &str) -> Diagnostic {
        let help = match closest(key, self.allowed.iter().copied()) {
            Some(best) => format!("did you mean `{best}`? Fields of {}: {listed}", self.what),
            None => format!("fields of {}: {listed}", self.what),
        };
        let message = format!("unknown field `{key}` in {}", self.what);
        Diagnostic::error(Code::UnknownField, path, entry.key.span.clone(), message)
            .with_label("not a field here")
            .with_help(help)
    }
}

impl Node {
    /// The mapping value under `key`, if this is a mapping holding it.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|e| &e.value)
    }

    /// The whole entry under `key` (for the key's own span).
    pub fn entry(&self, key: &str) -> Option<&Entry> {
        match &self.value {
            NodeValue::Map(entries) => entries.iter().find(|e| e.key.as_str() == Some(key)),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            NodeValue::Str(s, _) => Some(s),
            _ => None,
        }
    }

    /// The string of a string scalar, moved out.
    pub fn into_string(self) -> Option<String> {
        match self.value {
            NodeValue::Str(s, _) => Some(s),
            _ => None,
        }
    }

    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            NodeValue::Seq(items) => Some(items),
            _ => None,
        }
    }

    /// The node a JSON pointer (RFC 6901) names, and the key span when the
    /// last step is a mapping key. Returns the deepest node reached when the
    /// pointer runs past the tree (e.g. it names a missing property).
    pub fn locate(&self, pointer: &str) -> Located<'_> {
        let mut node = self;
        let mut key = None;
        for raw in pointer.split('/').skip(1) {
            let step: std::borrow::Cow<'_, str> = if raw.contains('~') {
                raw.replace("~1", "/").replace("~0", "~").into()
            } else {
                raw.into()
            };
            let next = match &node.value {
                NodeValue::Map(entries) => entries
                    .iter()
                    .find(|e| e.key.as_str() == Some(&*step))
                    .map(|e| (&e.value, Some(e.key.span.clone()))),
                NodeValue::Seq(items) => step
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| items.get(i))
                    .map(|n| (n, None)),
                _ => None,
            };
            match next {
                Some((n, k)) => {
                    node = n;
                    key = k;
                }
                None => break,
            }
        }
        Located { node, key }
    }

    /// The same data as JSON, for schema validation and typed deserializing.
    pub fn to_json(&self) -> Value {
        match &self.value {
            NodeValue::Null => Value::Null,
            NodeValue::Bool(b) => Value::Bool(*b),
            NodeValue::Int(i) => Value::Number((*i).into()),
            NodeValue::Float(f) => Number::from_f64(*f).map_or(Value::Null, Value::Number),
            NodeValue::Str(s, _) => Value::String(s.clone()),
            NodeValue::Seq(items) => Value::Array(items.iter().map(Node::to_json).collect()),
            NodeValue::Map(entries) => {
                let mut map = Map::new();
                for e in entries {
                    map.insert(e.key.key_text(), e.value.to_json());
                }
                Value::Object(map)
            }
        }
    }

    /// [`Node::to_json`], taking the tree apart: its text moves into the
    /// JSON instead of being copied.
    pub fn into_json(self) -> Value {
        match self.value {
            NodeValue::Str(s, _) => Value::String(s),
            NodeValue::Seq(items) => Value::Array(items.into_iter().map(Node::into_json).collect()),
            NodeValue::Map(entries) => {
                let mut map = Map::new();
                for e in entries {
                    let key = match e.key.value {
                        NodeValue::Str(s, _) => s,
                        _ => e.key.key_text(),
                    };
                    map.insert(key, e.value.into_json());
                }
                Value::Object(map)
            }
            _ => self.to_json(),
        }
    }

    /// A mapping key as text (JSON keys are strings).
    fn key_text(&self) -> String {
        match &self.value {
            NodeValue::Str(s, _) => s.clone(),
            NodeValue::Null => "null".into(),
            NodeValue::Bool(b) => b.to_string(),
            NodeValue::Int(i) => i.to_string(),
            NodeValue::Float(f) => f.to_string(),
            NodeValue::Seq(_) | NodeValue::Map(_) => String::new(),
        }
    }
}

/// Result of [`Node::locate`].
pub struct Located<'a> {
    pub node: &'a Node,
    pub key: Option<Range<usize>>,
}

/// Parses one YAML document. An empty file is a `Null` document.
pub fn parse(src: &str) -> Result<Node, YamlError> {
    let offsets = CharOffsets::new(src);
    let mut builder = Builder::new(&offsets);
    let mut parser = Parser::new_from_str(src);
    while let Some(event) = parser.next_event() {
        match event {
            Ok((event, span)) => {
                if builder.event(event, span)? {
                    break;
                }
            }
            Err(e) => {
                let at = offsets.byte(e.marker().index());
                // The scanner has its own nesting limit (flow levels).
                let (kind, message) = if e.info() == "recursion limit exceeded" {
                    (
                        YamlErrorKind::TooDeep,
                        format!("nesting deeper than {MAX_DEPTH} levels"),
                    )
                } else {
                    (YamlErrorKind::Syntax, e.info().to_string())
                };
                let unclosed = match kind {
                    YamlErrorKind::Syntax => builder.unclosed(src, at),
                    _ => None,
                };
                return Err(YamlError {
                    kind,
                    span: at..at,
                    message,
                    first: None,
                    unclosed,
                });
            }
        }
    }
    Ok(builder.root.unwrap_or(Node {
        value: NodeValue::Null,
        span: 0..0,
    }))
}

/// saphyr reports positions in characters; miette and Rust strings want bytes.
struct CharOffsets<'a> {
    src: &'a str,
    /// An ASCII text's characters are its bytes.
    ascii: bool,
    /// The last position asked for (character, byte): the parser asks in
    /// nearly increasing order, so most lookups walk on from there.
    cursor: std::cell::Cell<(usize, usize)>,
    /// Positions (character, byte) passed on the way, at most two
    /// [`CHECKPOINT`]s of characters apart over the text walked: a lookup
    /// behind the cursor walks on from the last one before it. (A table of
    /// every character would be eight bytes per character: on a large
    /// Japanese pool, more memory than the trees.)
    checkpoints: std::cell::RefCell<Vec<(usize, usize)>>,
    /// The character from which the next checkpoint is kept.
    next_checkpoint: std::cell::Cell<usize>,
}

/// Characters between two checkpoints of [`CharOffsets`], at least.
const CHECKPOINT: usize = 256;

impl<'a> CharOffsets<'a> {
    fn new(src: &'a str) -> Self {
        CharOffsets {
            src,
            ascii: src.is_ascii(),
            cursor: std::cell::Cell::new((0, 0)),
            checkpoints: std::cell::RefCell::new(vec![(0, 0)]),
            next_checkpoint: std::cell::Cell::new(CHECKPOINT),
        }
    }

    fn byte(&self, char_index: usize) -> usize {
        if self.ascii {
            return char_index.min(self.src.len());
        }
        let bytes = self.src.as_bytes();
        let (cursor_char, cursor_byte) = self.cursor.get();
        // One node's end is often the next one's start.
        if char_index == cursor_char {
            return cursor_byte;
        }
        let (mut at_char, mut at_byte) = if char_index > cursor_char {
            (cursor_char, cursor_byte)
        } else if cursor_char - char_index <= CHECKPOINT {
            // A little way back (a node's end, then the next one's start):
            // back a character at a time.
            let at_byte = back(bytes, cursor_byte, cursor_char - char_index);
            self.cursor.set((char_index, at_byte));
            return at_byte;
        } else {
            let checkpoints = self.checkpoints.borrow();
            let before = checkpoints.partition_point(|&(c, _)| c <= char_index);
            checkpoints[before.saturating_sub(1)]
        };
        // In steps of a checkpoint, remembering each new stretch of text.
        while at_char < char_index {
            let step = (char_index - at_char).min(CHECKPOINT);
            at_byte = advance(bytes, at_byte, step);
            if at_byte == bytes.len() {
                return at_byte;
            }
            at_char += step;
            if at_char >= self.next_checkpoint.get() {
                self.checkpoints.borrow_mut().push((at_char, at_byte));
                self.next_checkpoint.set(at_char + CHECKPOINT);
            }
        }
        self.cursor.set((at_char, at_byte));
        at_byte
    }

    fn range(&self, span: Span) -> Range<usize> {
        self.byte(span.start.index())..self.byte(span.end.index())
    }
}

/// Whether a byte of UTF-8 starts a character (is no continuation byte).
fn starts_char(b: u8) -> bool {
    (b as i8) >= -0x40
}

/// The byte `n` characters before byte `at` (where a character starts, or
/// the end) of UTF-8 `bytes`, or their start.
fn back(bytes: &[u8], mut at: usize, n: usize) -> usize {
    for _ in 0..n {
        if at == 0 {
            return 0;
        }
        at -= 1;
        while at > 0 && !starts_char(bytes[at]) {
            at -= 1;
        }
    }
    at
}

/// The byte `n` characters after byte `at` (where a character starts) of
/// UTF-8 `bytes`, or their end. Whole blocks are passed by counting the
/// bytes that start a character, which the compiler does many at a time.
fn advance(bytes: &[u8], mut at: usize, mut n: usize) -> usize {
    const BLOCK: usize = 32;
    // Keys and English text: the next `n` characters are as many bytes.
    if let Some(next) = bytes.get(at..at + n)
        && next.is_ascii()
    {
        return at + n;
    }
    // Most steps are a few characters (one token to the next): counting a
    // block would cost more than it saves.
    while n >= BLOCK / 2
        && let Some(block) = bytes.get(at..at + BLOCK)
    {
        let starts = block.iter().filter(|&&b| starts_char(b)).count();
        if starts > n {
            break;
        }
        n -= starts;
        at += BLOCK;
    }
    // A block passed may have ended inside a character.
    while bytes.get(at).is_some_and(|&b| !starts_char(b)) {
        at += 1;
    }
    // Then a character at a time, by the length its first byte gives.
    for _ in 0..n {
        let Some(&lead) = bytes.get(at) else {
            return bytes.len();
        };
        at += match lead {
            0..0xc0 => 1,
            0xc0..0xe0 => 2,
            0xe0..0xf0 => 3,
            _ => 4,
        };
    }
    at.min(bytes.len())
}

/// A collection under construction. Its items wait on the builder's
/// shared stacks (from index `from`) until it closes, and then move into a
/// vector of exactly their number: growing a vector per collection copied
/// each one several times and left it a third empty on average.
enum Open {
    Seq {
        start: usize,
        anchor: usize,
        from: usize,
    },
    Map {
        start: usize,
        anchor: usize,
        from: usize,
        pending_key: Option<Node>,
        /// Key index, built only for large mappings (small ones are scanned).
        seen: Option<HashMap<String, Range<usize>>>,
    },
}

struct Builder<'a> {
    offsets: &'a CharOffsets<'a>,
    stack: Vec<Open>,
    /// Items of the open sequences, and entries of the open mappings.
    items: Vec<Node>,
    entries: Vec<Entry>,
    anchors: HashMap<usize, Node>,
    nodes: usize,
    root: Option<Node>,
    documents: usize,
}

impl<'a> Builder<'a> {
    fn new(offsets: &'a CharOffsets<'a>) -> Self {
        Builder {
            offsets,
            stack: Vec::new(),
            items: Vec::new(),
            entries: Vec::new(),
            anchors: HashMap::default(),
            nodes: 0,
            root: None,
            documents: 0,
        }
    }

    /// Feeds one event; returns true at the end of the stream.
    fn event(&mut self, event: Event<'_>, span: Span) -> Result<bool, YamlError> {
        // A collection's start needs only where it starts, its end only
        // where it ends (each a walk through the text).
        let start = || self.offsets.byte(span.start.index());
        let range = || self.offsets.range(span);
        match event {
            Event::StreamEnd => return Ok(true),
            Event::DocumentStart(_) => {
                self.documents += 1;
                if self.documents > 1 {
                    return Err(YamlError {
                        kind: YamlErrorKind::MultipleDocuments,
                        span: range(),
                        message: "a card file holds one YAML document; found a second `---`".into(),
                        first: None,
                        unclosed: None,
                    });
                }
            }
            Event::Scalar(text, style, anchor, _tag) => {
                let node = Node {
                    value: resolve_scalar(text, style),
                    span: range(),
                };
                self.count(1, &node.span)?;
                self.push(node, anchor)?;
            }
            Event::Alias(id) => self.alias(id, range())?,
            Event::SequenceStart(anchor, _) => {
                self.open(
                    Open::Seq {
                        start: start(),
                        anchor,
                        from: self.items.len(),
                    },
                    span,
                )?;
            }
            Event::MappingStart(anchor, _) => {
                self.open(
                    Open::Map {
                        start: start(),
                        anchor,
                        from: self.entries.len(),
                        pending_key: None,
                        seen: None,
                    },
                    span,
                )?;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some((node, anchor)) = self.close(self.offsets.byte(span.end.index())) else {
                    return Ok(false);
                };
                self.push(node, anchor)?;
            }
            Event::Nothing | Event::StreamStart | Event::DocumentEnd => {}
        }
        Ok(false)
    }

    /// The innermost flow list or mapping still open at byte `at` of
    /// `src` (where a syntax error was found), if any.
    fn unclosed(&self, src: &str, at: usize) -> Option<Unclosed> {
        let (start, close) = self.stack.iter().rev().find_map(|open| {
            let start = match open {
                Open::Seq { start, .. } | Open::Map { start, .. } => *start,
            };
            match src.as_bytes().get(start)? {
                b'[' => Some((start, ']')),
                b'{' => Some((start, '}')),
                _ => None,
            }
        })?;
        // The last line with an item before the error's line (or the part
        // of the error's line before it, when the list opened there).
        let at = at.min(src.len());
        let line_start = src[..at].rfind('\n').map_or(0, |i| i + 1);
        let item = |line: &str| {
            let line = match line.find(" #") {
                Some(comment) => &line[..comment],
                None if line.trim_start().starts_with('#') => "",
                None => line,
            };
            Some(line.trim().trim_end_matches(',').trim_end().to_string()).filter(|l| !l.is_empty())
        };
        let last_item = if start >= line_start {
            item(&src[line_start..at])
        } else {
            src[start..line_start].lines().rev().find_map(item)
        };
        Some(Unclosed {
            bracket: start..start + 1,
            close,
            last_item,
        })
    }

    /// A copy of the node an alias names.
    fn alias(&mut self, id: usize, range: Range<usize>) -> Result<(), YamlError> {
        let Some(size) = self.anchors.get(&id).map(count_nodes) else {
            return Err(YamlError {
                kind: YamlErrorKind::Syntax,
                span: range,
                message: "alias to an unknown anchor".into(),
                first: None,
                unclosed: None,
            });
        };
        // Count before cloning, so a bomb is refused before it is built.
        self.count(size, &range)?;
        let mut copy = self.anchors[&id].clone();
        copy.span = range;
        self.push(copy, 0)
    }

    /// The sequence or mapping that ends at `end`, made from the items or
    /// entries read since it opened, with its anchor; `None` if none is open.
    fn close(&mut self, end: usize) -> Option<(Node, usize)> {
        Some(match self.stack.pop()? {
            Open::Seq {
                start,
                anchor,
                from,
            } => {
                let items: Vec<Node> = self.items.drain(from..).collect();
                (
                    Node {
                        span: start..end.max(items.last().map_or(start, |n| n.span.end)),
                        value: NodeValue::Seq(items),
                    },
                    anchor,
                )
            }
            Open::Map {
                start,
                anchor,
                from,
                ..
            } => {
                let entries: Vec<Entry> = self.entries.drain(from..).collect();
                (
                    Node {
                        span: start..end.max(entries.last().map_or(start, |e| e.value.span.end)),
                        value: NodeValue::Map(entries),
                    },
                    anchor,
                )
            }
        })
    }

    fn count(&mut self, n: usize, span: &Range<usize>) -> Result<(), YamlError> {
        self.nodes = self.nodes.saturating_add(n);
        if self.nodes > MAX_NODES {
            return Err(YamlError {
                kind: YamlErrorKind::AliasBomb,
                span: span.clone(),
                message: format!(
                    "the document expands to more than {MAX_NODES} nodes (aliases repeated inside aliases?)"
                ),
                first: None,
                unclosed: None,
            });
        }
        Ok(())
    }

    /// Opens a collection; `span` is its start event's, made bytes only
    /// for a finding.
    fn open(&mut self, open: Open, span: Span) -> Result<(), YamlError> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(YamlError {
                kind: YamlErrorKind::TooDeep,
                span: self.offsets.range(span),
                message: format!("nesting deeper than {MAX_DEPTH} levels"),
                first: None,
                unclosed: None,
            });
        }
        if self.nodes >= MAX_NODES {
            self.count(1, &self.offsets.range(span))?;
        }
        self.nodes += 1;
        self.stack.push(open);
        Ok(())
    }

    /// Places a finished node into the open collection (or as the root).
    fn push(&mut self, node: Node, anchor: usize) -> Result<(), YamlError> {
        if anchor != 0 {
            self.anchors.insert(anchor, node.clone());
        }
        match self.stack.last_mut() {
            None => self.root = Some(node),
            Some(Open::Seq { .. }) => self.items.push(node),
            Some(Open::Map {
                from,
                pending_key,
                seen,
                ..
            }) => match pending_key.take() {
                None => {
                    if matches!(node.value, NodeValue::Seq(_) | NodeValue::Map(_)) {
                        return Err(YamlError {
                            kind: YamlErrorKind::UnsupportedKey,
                            span: node.span,
                            message: "a mapping key must be a plain value, not a list or mapping"
                                .into(),
                            first: None,
                            unclosed: None,
                        });
                    }
                    if let Some(first) = find_key(&self.entries[*from..], seen, &node) {
                        return Err(YamlError {
                            kind: YamlErrorKind::DuplicateKey,
                            message: format!("duplicate key `{}`", node.key_text()),
                            span: node.span,
                            first: Some(first),
                            unclosed: None,
                        });
                    }
                    *pending_key = Some(node);
                }
                Some(key) => self.entries.push(Entry { key, value: node }),
            },
        }
        Ok(())
    }
}

/// Mappings up to this size are checked for duplicate keys by a scan.
const SCAN_KEYS: usize = 16;

/// Where `key` was defined before in this mapping, if it was; records it.
fn find_key(
    entries: &[Entry],
    index: &mut Option<HashMap<String, Range<usize>>>,
    key: &Node,
) -> Option<Range<usize>> {
    let same = |other: &Node| match (&other.value, &key.value) {
        (NodeValue::Str(a, _), NodeValue::Str(b, _)) => a == b,
        _ => other.key_text() == key.key_text(),
    };
    if entries.len() < SCAN_KEYS {
        return entries
            .iter()
            .find(|e| same(&e.key))
            .map(|e| e.key.span.clone());
    }
    let index = index.get_or_insert_with(|| {
        entries
            .iter()
            .map(|e| (e.key.key_text(), e.key.span.clone()))
            .collect()
    });
    let text = key.key_text();
    if let Some(first) = index.get(&text) {
        return Some(first.clone());
    }
    index.insert(text, key.span.clone());
    None
}

fn count_nodes(node: &Node) -> usize {
    let mut total = 0usize;
    let mut todo = vec![node];
    while let Some(n) = todo.pop() {
        total += 1;
        match &n.value {
            NodeValue::Seq(items) => todo.extend(items),
            NodeValue::Map(entries) => {
                for e in entries {
                    todo.push(&e.key);
                    todo.push(&e.value);
                }
            }
            _ => {}
        }
    }
    total
}

/// The value of a scalar by the YAML 1.2 core schema (quoted and block
/// scalars are always strings); its text moves into the node (the scanner
/// made it a `String` already, mostly).
fn resolve_scalar(scalar: std::borrow::Cow<'_, str>, style: ScalarStyle) -> NodeValue {
    if style != ScalarStyle::Plain || !may_be_other_than_text(&scalar) {
        return NodeValue::Str(scalar.into_owned(), style);
    }
    match resolve_plain(&scalar) {
        Some(value) => value,
        None => NodeValue::Str(scalar.into_owned(), style),
    }
}

/// Whether a plain scalar may be a null, a boolean or a number: only these
/// first bytes begin one. Most plain scalars (names, English and Japanese
/// text) are text at once, without the schema's scans.
fn may_be_other_than_text(text: &str) -> bool {
    text.as_bytes().first().is_none_or(|b| {
        matches!(
            b,
            b'0'..=b'9' | b'+' | b'-' | b'.' | b'~' | b'n' | b'N' | b't' | b'T' | b'f' | b'F'
        )
    })
}

/// A plain scalar's null, boolean or number by the core schema; `None` for
/// text.
fn resolve_plain(text: &str) -> Option<NodeValue> {
    let value = match text {
        "" | "~" | "null" | "Null" | "NULL" => NodeValue::Null,
        "true" | "True" | "TRUE" => NodeValue::Bool(true),
        "false" | "False" | "FALSE" => NodeValue::Bool(false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => NodeValue::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => NodeValue::Float(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => NodeValue::Float(f64::NAN),
        _ => {
            if let Some(int) = parse_int(text) {
                NodeValue::Int(int)
            } else if looks_like_float(text)
                && let Ok(f) = text.parse::<f64>()
            {
                NodeValue::Float(f)
            } else {
                return None;
            }
        }
    };
    Some(value)
}

fn parse_int(text: &str) -> Option<i64> {
    let (sign, digits) = match text.as_bytes().first()? {
        b'-' => (-1, &text[1..]),
        b'+' => (1, &text[1..]),
        _ => (1, text),
    };
    let value = if let Some(hex) = digits.strip_prefix("0x") {
        i64::from_str_radix(hex, 16).ok()?
    } else if let Some(oct) = digits.strip_prefix("0o") {
        i64::from_str_radix(oct, 8).ok()?
    } else if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        digits.parse::<i64>().ok()?
    } else {
        return None;
    };
    Some(sign * value)
}

fn looks_like_float(text: &str) -> bool {
    let t = text.trim_start_matches(['+', '-']);
    !t.is_empty()
        && t.bytes().any(|b| b.is_ascii_digit())
        && t.bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
}

/// Maps byte offsets inside a string scalar's value back to byte offsets in
/// the file, through quotes, escapes, line folding and block indentation:
/// `map[i]` is where byte `i` of the value came from (`map[len]` is the end).
/// Used to locate errors found inside a value (an effect's parse error).
pub(crate) fn scalar_offsets(file_text: &str, node: &Node) -> Vec<usize> {
    match &node.value {
        NodeValue::Str(value, style) => {
            text_offsets(file_text, node.span.start, TextStyle::of(*style), value)
        }
        _ => vec![node.span.start],
    }
}

/// How a string scalar is written, for [`text_offsets`]; small and
/// serializable so it can be kept with cached results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum TextStyle {
    #[default]
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Block,
}

impl TextStyle {
    pub fn of(style: ScalarStyle) -> TextStyle {
        match style {
            ScalarStyle::Plain => TextStyle::Plain,
            ScalarStyle::SingleQuoted => TextStyle::SingleQuoted,
            ScalarStyle::DoubleQuoted => TextStyle::DoubleQuoted,
            _ => TextStyle::Block,
        }
    }
}

/// [`scalar_offsets`] for a value written at `start` in `style`.
pub(crate) fn text_offsets(
    file_text: &str,
    start: usize,
    style: TextStyle,
    value: &str,
) -> Vec<usize> {
    let source = file_text.get(start..).unwrap_or_default();
    // Skip the opening quote or the block header line.
    let mut pos = match style {
        TextStyle::SingleQuoted | TextStyle::DoubleQuoted => 1,
        // saphyr starts a block scalar's span at its content; skip a header
        // line only if the span includes one.
        TextStyle::Block if source.starts_with(['|', '>']) => {
            source.find('\n').map_or(source.len(), |i| i + 1)
        }
        _ => 0,
    };
    let bytes = source.as_bytes();
    let mut map = vec![start; value.len() + 1];
    for (i, c) in value.char_indices() {
        let found = loop {
            let Some(sc) = source.get(pos..).and_then(|rest| rest.chars().next()) else {
                break None;
            };
            if style == TextStyle::DoubleQuoted && sc == '\\' {
                let (decoded, len) = decode_escape(&source[pos..]);
                if decoded == Some(c) {
                    break Some((pos, len));
                }
                pos += len;
                continue;
            }
            if style == TextStyle::SingleQuoted && sc == '\'' && bytes.get(pos + 1) == Some(&b'\'')
            {
                if c == '\'' {
                    break Some((pos, 2));
                }
                pos += 2;
                continue;
            }
            if sc == c || (sc == '\n' && (c == ' ' || c == '\n')) {
                break Some((pos, sc.len_utf8()));
            }
            pos += sc.len_utf8();
        };
        let Some((at, len)) = found else {
            // Should not happen; stay at the last known place.
            let last = map[i];
            map[i..].fill(last);
            return map;
        };
        for b in 0..c.len_utf8() {
            map[i + b] = start + at;
        }
        pos = at + len;
        map[i + c.len_utf8()] = start + pos;
    }
    map
}

/// The character a double-quoted escape stands for, and its length.
fn decode_escape(text: &str) -> (Option<char>, usize) {
    let mut chars = text.chars().skip(1);
    let Some(kind) = chars.next() else {
        return (None, 1);
    };
    let hex = |n: usize| {
        text.get(2..2 + n)
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .and_then(char::from_u32)
    };
    match kind {
        'n' => (Some('\n'), 2),
        't' | '\t' => (Some('\t'), 2),
        'r' => (Some('\r'), 2),
        '0' => (Some('\0'), 2),
        ' ' => (Some(' '), 2),
        '"' => (Some('"'), 2),
        '/' => (Some('/'), 2),
        '\\' => (Some('\\'), 2),
        'x' => (hex(2), 4),
        'u' => (hex(4), 6),
        'U' => (hex(8), 10),
        // An escaped line break joins lines without a space.
        '\n' => (None, 2),
        other => (Some(other), 1 + other.len_utf8()),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn char_offsets_agree_with_a_full_table() {
        let texts = [
            String::new(),
            "plain ascii".to_string(),
            "名前: 峡谷の竜\nflavor: é".repeat(20),
            "a".repeat(31) + "é" + &"日本".repeat(40),
            // Long enough for many checkpoints, with every width of character.
            "aé日😀".repeat(700),
        ];
        for text in &texts {
            let offsets = CharOffsets::new(text);
            let table: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
            // In order, as the parser mostly asks, then in a scrambled order
            // (back and forth around the last position).
            let n = table.len() + 3;
            let scrambled = (0..n).map(|i| (i * 7919 + 13) % n);
            for char_index in (0..n).chain(scrambled) {
                let expected = table.get(char_index).copied().unwrap_or(text.len());
                assert_eq!(
                    offsets.byte(char_index),
                    expected,
                    "{text:?} at {char_index}"
                );
            }
        }
    }

    use super::*;

    fn text_at<'a>(src: &'a str, r: &Range<usize>) -> &'a str {
        &src[r.clone()]
    }

    #[test]
    fn spans_point_at_keys_and_values() {
        let src = "id: gulch\ncards:\n  - {id: wyrm, stars: 5}\n  - id: owl\n    stars: 2\n";
        let doc = parse(src).unwrap();
        let stars = doc.locate("/cards/1/stars");
        assert_eq!(text_at(src, &stars.node.span), "2");
        assert_eq!(text_at(src, stars.key.as_ref().unwrap()), "stars");
        let flow = doc.locate("/cards/0/id");
        assert_eq!(text_at(src, &flow.node.span), "wyrm");
    }

    #[test]
    fn spans_are_bytes_in_non_ascii_text() {
        let src = "name: 峡谷の竜\nstars: 5\n";
        let doc = parse(src).unwrap();
        let stars = doc.locate("/stars");
        assert_eq!(text_at(src, &stars.node.span), "5");
    }

    #[test]
    fn scalars_resolve_by_core_schema() {
        let doc = parse("a: 5\nb: '5'\nc: true\nd: ~\ne: 1.5\nf: -3\ng: x").unwrap();
        let j = doc.to_json();
        assert_eq!(j["a"], 5);
        assert_eq!(j["b"], "5");
        assert_eq!(j["c"], true);
        assert!(j["d"].is_null());
        assert_eq!(j["e"], 1.5);
        assert_eq!(j["f"], -3);
        assert_eq!(j["g"], "x");
    }

    /// Every spelling of the core schema that is not text, each read as
    /// such through the first-byte shortcut.
    #[test]
    fn every_core_schema_spelling_passes_the_shortcut() {
        let spellings = [
            "", "~", "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE",
            ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan",
            ".NaN", ".NAN", "0", "7", "+7", "-7", "0x1f", "0o17", "1.5", "-1.5", "+1e3", ".5",
        ];
        for text in spellings {
            assert!(resolve_plain(text).is_some(), "{text:?} is not text");
            assert!(may_be_other_than_text(text), "{text:?} skipped");
            let value = resolve_scalar(text.into(), ScalarStyle::Plain);
            assert!(!matches!(value, NodeValue::Str(..)), "{text:?}");
        }
    }

    #[test]
    fn duplicate_keys_name_both_places() {
        let src = "id: a\nname: b\nid: c\n";
        let err = parse(src).unwrap_err();
        assert_eq!(err.kind, YamlErrorKind::DuplicateKey);
        assert_eq!(err.span, 14..16);
        assert_eq!(err.first, Some(0..2));
    }

    #[test]
    fn duplicate_keys_are_found_in_large_mappings() {
        let mut src: String = (0..40).map(|i| format!("k{i}: {i}\n")).collect();
        src.push_str("k33: again\n");
        let err = parse(&src).unwrap_err();
        assert_eq!(err.kind, YamlErrorKind::DuplicateKey);
        assert_eq!(&src[err.first.unwrap()], "k33");
        assert!(parse(&src[..src.len() - 11]).is_ok());
    }

    #[test]
    fn alias_bombs_are_refused() {
        let mut src = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..9 {
            let p = i - 1;
            src.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        let err = parse(&src).unwrap_err();
        assert_eq!(err.kind, YamlErrorKind::AliasBomb);
    }

    #[test]
    fn deep_nesting_is_refused() {
        let src = "[".repeat(10_000) + &"]".repeat(10_000);
        let err = parse(&src).unwrap_err();
        assert_eq!(err.kind, YamlErrorKind::TooDeep);
    }

    #[test]
    fn syntax_errors_are_located() {
        let src = "id: a\nname: [unclosed\n";
        let err = parse(src).unwrap_err();
        assert_eq!(err.kind, YamlErrorKind::Syntax);
        assert!(err.span.start > 5);
    }

    #[test]
    fn an_unclosed_flow_collection_names_its_bracket_and_last_item() {
        let src = "cards: [Dust Devil,\n  Cactus Mage\n\n# end\n";
        let err = parse(src).unwrap_err();
        let open = err.unclosed.clone().expect("the open list");
        assert_eq!(&src[open.bracket.clone()], "[");
        assert_eq!(open.last_item.as_deref(), Some("Cactus Mage"));
        let d = err.diagnostic(&Arc::from("c.yaml"));
        assert_eq!(d.related[0].span, 7..8);
        assert!(d.help.unwrap().contains("`Cactus Mage]`"));
        // Mappings too, and a list closed before the error is not named.
        let err = parse("a: {b: 1\nc: 2\n").unwrap_err();
        assert_eq!(err.unclosed.map(|u| u.close), Some('}'));
        assert_eq!(
            parse("a: [1, 2]\nb: [\n")
                .unwrap_err()
                .unclosed
                .map(|u| u.bracket),
            Some(13..14)
        );
        assert_eq!(parse("a: [1]\n b: c: d\n").unwrap_err().unclosed, None);
    }

    /// Where each character of a scalar's value sits in the file.
    fn check_offsets(src: &str, key: &str) {
        let doc = parse(src).unwrap();
        let node = doc.get(key).unwrap();
        let value = node.as_str().unwrap();
        let map = scalar_offsets(src, node);
        for (i, c) in value.char_indices() {
            let at = map[i];
            let in_file = src[at..].chars().next().unwrap();
            let ok = in_file == c
                || (in_file == '\n' && c == ' ')
                || in_file == '\\'
                || (in_file == '\'' && c == '\'');
            assert!(
                ok,
                "{key}: value char {c:?} at {i} maps to {in_file:?} at {at}"
            );
        }
    }

    #[test]
    fn scalar_offsets_follow_every_style() {
        let src = concat!(
            "plain: Gain 2 RP.\n",
            "single: 'It''s Play: Gain 2 RP.'\n",
            "double: \"Tab\\there \\\"quoted\\\" \\u00e9 end\"\n",
            "literal: |\n  Play: Gain 2 RP.\n  Top: Flip this card.\n",
            "folded: >\n  Play: Gain\n  2 RP.\n",
            "multi: Gain\n  2 RP now.\n",
            "ja: \"プレイ：2RPを得る。\"\n",
        );
        for key in [
            "plain", "single", "double", "literal", "folded", "multi", "ja",
        ] {
            check_offsets(src, key);
        }
        let doc = parse(src).unwrap();
        let node = doc.get("literal").unwrap();
        let map = scalar_offsets(src, node);
        let value = node.as_str().unwrap();
        let top = value.find("Top").unwrap();
        assert_eq!(&src[map[top]..map[top] + 3], "Top");
    }

    #[test]
    fn small_aliases_expand() {
        let doc = parse("base: &b [fire]\nx: *b\n").unwrap();
        assert_eq!(doc.to_json()["x"][0], "fire");
    }

    proptest::proptest! {
        /// The first-byte shortcut never takes for text what the core
        /// schema reads as a null, a boolean or a number.
        #[test]
        fn only_the_shortcuts_first_bytes_begin_other_than_text(text in "[0-9a-zA-Z+.~_ eE-]{0,8}|\\PC{0,8}") {
            if resolve_plain(&text).is_some() {
                proptest::prop_assert!(may_be_other_than_text(&text), "{text:?}");
            }
        }

        /// Byte offsets of characters asked in any order agree with a table
        /// of every character.
        #[test]
        fn char_offsets_agree_in_any_order(text in "[aé日😀]{0,1200}", asks in proptest::collection::vec(0usize..1300, 0..40)) {
            let offsets = CharOffsets::new(&text);
            let table: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
            for char_index in asks {
                let expected = table.get(char_index).copied().unwrap_or(text.len());
                proptest::prop_assert_eq!(offsets.byte(char_index), expected);
            }
        }

        /// Whatever the text, its double-quoted form reads back as it.
        #[test]
        fn a_double_quoted_text_reads_back_as_itself(text in "(\\PC|[\\x00-\\x1f\\x7f\\u{85}\\u{2028}\\u{2029}\\u{feff}\"\\\\ ]){0,40}") {
            let doc = parse(&format!("k: {}\n", double_quoted(&text))).unwrap();
            proptest::prop_assert_eq!(doc.get("k").and_then(Node::as_str), Some(text.as_str()));
        }
    }
}
