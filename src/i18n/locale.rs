//! Locale files: one language's text for one set
//! (`locales/<lang>/<set-id>.yaml`) or for the effect language's phrase
//! templates (`phrases/<lang>.yaml`, also the renderer's book of that
//! language), with the fingerprint and the text of the English each
//! translation was made from.
//!
//! The tool owns the layout: [`render_set_file`] and [`render_phrase_file`]
//! write a canonical form (header, pool order, fixed field order,
//! plain/quoted/block scalars chosen by rule), which is also the form of the
//! shipped files, so reading and writing an unchanged file is byte-identical.

use std::ops::Range;
use std::sync::Arc;

use crate::diagnostics::{Code, Diagnostic, Edit};
use crate::pool::SourceFile;
use crate::suggest::closest;
use crate::yaml::{self, LineEnd, Node, NodeValue};
use saphyr_parser::ScalarStyle;
use serde::{Deserialize, Serialize};

use super::keys::{Field, UnitKey, language_name, valid_lang};

/// Layout options of a language (a phrase file's `options:`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PhraseOptions {
    /// Capitalise the first letter of each sentence.
    #[serde(default)]
    pub capitalize: bool,
}

/// Fingerprint of an English text: the first 16 hex digits of the 64-bit
/// FNV-1a hash of its normalised UTF-8 bytes. Stable across platforms,
/// versions and runs (unlike std's `DefaultHasher`).
pub fn fingerprint(english: &str) -> String {
    format!("{:016x}", fingerprint_value(english))
}

/// The number a fingerprint writes in hex.
pub(super) fn fingerprint_value(english: &str) -> u64 {
    if is_normal(english) {
        return fnv1a64(english.as_bytes());
    }
    fnv1a64(normalize(english).as_bytes())
}

/// The number a written fingerprint (16 lowercase hex digits) stands for.
fn fingerprint_number(written: &str) -> Option<u64> {
    valid_fingerprint(written)
        .then(|| u64::from_str_radix(written, 16).ok())
        .flatten()
}

/// Whether a text with this fingerprint (its number), marked for review
/// or not, was translated from `english` and stands.
pub(super) fn is_current(fuzzy: bool, fingerprint: Option<u64>, english: &str) -> bool {
    !fuzzy && fingerprint.is_some_and(|f| f == fingerprint_value(english))
}

/// 64-bit FNV-1a.
pub(crate) fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The form of a text that fingerprints and comparisons use: surrounding
/// blank space removed, trailing spaces of each line removed, `\r\n` as
/// `\n`. A YAML block scalar's final newline, or re-indenting a file, is not
/// a change of the English.
pub(crate) fn normalize(text: &str) -> String {
    if is_normal(text) {
        return text.to_string();
    }
    let lines: Vec<&str> = text.trim().lines().map(str::trim_end).collect();
    lines.join("\n")
}

/// [`normalize`] for a string that can be kept as it is (most texts already
/// are normal: a large pool has hundreds of thousands).
pub(crate) fn normalize_owned(text: String) -> String {
    if is_normal(&text) {
        return text;
    }
    normalize(&text)
}

fn is_normal(text: &str) -> bool {
    // What `normalize` would change: blank space at either end or at the
    // end of a line, and carriage returns. Line ends are found many bytes
    // at a time (every translation's texts are asked, several times).
    let blank_before = |end: usize| text[..end].ends_with(char::is_whitespace);
    if text.starts_with(char::is_whitespace) || blank_before(text.len()) {
        return false;
    }
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(found) = memchr::memchr2(b'\n', b'\r', &bytes[from..]) {
        let at = from + found;
        if bytes[at] == b'\r' || blank_before(at) {
            return false;
        }
        from = at + 1;
    }
    true
}

/// [`normalize`] with, for each byte of the result (and its end), the
/// offset in `text` it came from.
pub(crate) fn normalize_with_offsets(text: &str) -> (String, Vec<usize>) {
    let start = text.len() - text.trim_start().len();
    let body = text.trim();
    let mut out = String::with_capacity(body.len());
    let mut map = Vec::with_capacity(body.len() + 1);
    let mut offset = start;
    for (n, line) in body.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
            map.push(offset - 1);
        }
        let kept = line.trim_end();
        out.push_str(kept);
        map.extend((0..kept.len()).map(|i| offset + i));
        offset += line.len() + 1;
    }
    map.push(start + body.len());
    (out, map)
}

/// The form of a translated text that files and PO entries hold: card texts
/// are [`normalize`]d; a phrase template keeps its spaces (` and ` joins
/// clauses), only its line breaks are made `\n`.
pub(crate) fn normalize_text(key: &UnitKey, text: &str) -> String {
    match key {
        UnitKey::Phrase { .. } => text.replace("\r\n", "\n"),
        _ => normalize(text),
    }
}

/// Is `text` a well-formed fingerprint (16 lowercase hex digits)?
pub(crate) fn valid_fingerprint(text: &str) -> bool {
    text.len() == 16 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// What a translation file translates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// The set with this id.
    Set(String),
    /// The phrase templates of the effect language.
    Phrases,
}

/// Kinds of translation files, by path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileClass {
    Set,
    Phrases,
}

/// Is a pool data file a translation file, and of which language?
/// `…/locales/<lang>/<any>.yaml` holds set text; `phrases/<lang>.yaml` (at
/// the pool root, `lang` not `en`) holds phrase templates.
pub fn classify(relative: &str) -> Option<(String, FileClass)> {
    let parts: Vec<&str> = relative.split('/').collect();
    if let [dir, file] = parts.as_slice()
        && *dir == "phrases"
    {
        let stem = file.rsplit_once('.').map_or(*file, |(s, _)| s);
        return valid_lang(stem).then(|| (stem.to_string(), FileClass::Phrases));
    }
    let at = parts.iter().position(|p| *p == "locales")?;
    if parts.len() < at + 3 {
        return None;
    }
    let lang = parts[at + 1];
    valid_lang(lang).then(|| (lang.to_string(), FileClass::Set))
}

/// One translated text.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key: UnitKey,
    /// The translation as written.
    pub text: String,
    /// The English it was translated from (normalised), when recorded.
    pub source: Option<String>,
    /// The fingerprint of that English, when recorded.
    pub fingerprint: Option<String>,
    /// Marked for review by a translator (PO `#, fuzzy` kept on import).
    pub fuzzy: bool,
    /// Translator's note (PO translator comments).
    pub note: Option<String>,
    /// Where the `text` value is in the file (`None` for entries made in
    /// memory).
    pub text_at: Option<TextAt>,
    /// The field's key in the file (`flavor:`).
    pub key_span: Range<usize>,
    /// Where `source`, `fingerprint` and `fuzzy` are written, for fixes
    /// that record a review.
    pub recorded: Recorded,
}

/// Where an entry's record of its English is written in its file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Recorded {
    pub source: Option<TextAt>,
    pub fingerprint: Option<Range<usize>>,
    /// The `fuzzy` key and its value.
    pub fuzzy: Option<(Range<usize>, Range<usize>)>,
}

/// Where and how a text value is written (its value is the entry's `text`;
/// keeping just this, not the YAML node, saves a copy of every text).
#[derive(Debug, Clone, PartialEq)]
pub struct TextAt {
    pub span: Range<usize>,
    pub style: ScalarStyle,
}

impl TextAt {
    /// `text`'s node again, as it was in the file.
    pub fn node(&self, text: &str) -> Node {
        Node {
            value: NodeValue::Str(text.to_string(), self.style),
            span: self.span.clone(),
        }
    }
}

impl Entry {
    /// A new entry translated from `english`.
    pub fn new(key: UnitKey, text: &str, english: &str) -> Entry {
        Entry {
            text: normalize_text(&key, text),
            key,
            source: Some(normalize(english)),
            fingerprint: Some(fingerprint(english)),
            fuzzy: false,
            note: None,
            text_at: None,
            key_span: 0..0,
            recorded: Recorded::default(),
        }
    }

    /// Was it translated from this English (and not marked for review)?
    pub fn is_current(&self, english: &str) -> bool {
        is_current(self.fuzzy, self.fingerprint_number(), english)
    }

    /// The number the recorded fingerprint stands for, when it is one.
    pub fn fingerprint_number(&self) -> Option<u64> {
        self.fingerprint.as_deref().and_then(fingerprint_number)
    }

    /// Span of the text in the file (the key for in-memory entries).
    pub fn text_span(&self) -> Range<usize> {
        self.text_at
            .as_ref()
            .map_or(self.key_span.clone(), |at| at.span.clone())
    }

    /// The text, normalised (what exports and comparisons use; see
    /// [`normalize_text`]).
    pub fn normalized(&self) -> String {
        normalize_text(&self.key, &self.text)
    }

    /// The edits to this entry's file that record it as reviewed against
    /// `english` (the English now): its `source` and `fingerprint` written
    /// anew, its `fuzzy: true` taken out. `None` when the file records
    /// neither `source` nor `fingerprint` (nothing to update in place).
    pub fn review_edits(&self, english: &str, file_text: &str) -> Option<Vec<Edit>> {
        let at = &self.recorded;
        if at.source.is_none() && at.fingerprint.is_none() {
            return None;
        }
        let mut edits = Vec::new();
        if let Some(source) = &at.source {
            let in_flow = file_text
                .get(source.span.end..)
                .and_then(|after| after.trim_start_matches([' ', '\t']).chars().next())
                .is_some_and(|c| c == ',' || c == '}');
            let english = normalize(english);
            let text = match source.style {
                ScalarStyle::Literal if block_ok(&english) => LineEnd::of(file_text).apply(
                    literal_block(&english, content_indent(file_text, source.span.start)),
                ),
                style => recorded_scalar(&english, style, in_flow),
            };
            edits.push(Edit {
                span: scalar_span(file_text, source),
                text: Arc::from(text),
            });
        }
        if let Some(span) = &at.fingerprint {
            edits.push(Edit {
                span: span.clone(),
                text: Arc::from(scalar(&fingerprint(english), 0)),
            });
        }
        if self.fuzzy
            && let Some((key, value)) = &at.fuzzy
        {
            edits.push(unmark_fuzzy(file_text, key, value));
        }
        edits.sort_by_key(|edit| edit.span.start);
        Some(edits)
    }

    /// Same content as another entry (positions aside)?
    pub fn same_content(&self, other: &Entry) -> bool {
        self.key == other.key
            && self.normalized() == other.normalized()
            && self.source == other.source
            && self.fingerprint == other.fingerprint
            && self.fuzzy == other.fuzzy
            && self.note == other.note
    }
}

/// One parsed translation file.
#[derive(Debug, Clone)]
pub struct LocaleFile {
    pub lang: String,
    pub path: Arc<str>,
    /// Path relative to the pool root.
    pub relative: String,
    pub target: Target,
    /// The `set:` value (the start of the file for phrase files).
    pub target_span: Range<usize>,
    pub entries: Vec<Entry>,
    /// Phrase files: the language's layout options (`options:`).
    pub options: Option<PhraseOptions>,
    /// Phrase files: the comment lines the file starts with, kept when the
    /// file is rewritten (they document the language's terms).
    pub header: Option<String>,
    /// The file's line ends, kept when it is rewritten.
    pub line_end: LineEnd,
}

/// The lines of `text`, whichever line ends it uses (`str::lines` knows
/// no bare `\r`).
pub(crate) fn lines_any_end(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let text = rest?;
        match text.find(['\n', '\r']) {
            Some(at) => {
                let len = if text[at..].starts_with("\r\n") { 2 } else { 1 };
                rest = Some(&text[at + len..]).filter(|r| !r.is_empty());
                Some(&text[..at])
            }
            None => {
                rest = None;
                Some(text)
            }
        }
    })
    .filter(|_| !text.is_empty())
}

fn invalid(
    file: &SourceFile,
    span: Range<usize>,
    message: impl Into<Arc<str>>,
    label: &str,
    help: impl Into<Arc<str>>,
) -> Diagnostic {
    Diagnostic::error(Code::LocaleInvalid, &file.path, span, message)
        .with_label(label)
        .with_help(help)
}

const ENTRY_FIELDS: [&str; 5] = ["text", "source", "fingerprint", "fuzzy", "note"];
const SET_FIELDS: [&str; 3] = ["set", "name", "cards"];

fn first_line(text: &str, span: &Range<usize>) -> Range<usize> {
    let start = span.start.min(text.len());
    let end = text[start..]
        .find(['\n', '\r'])
        .map_or(text.len(), |i| start + i);
    start..end.max(start)
}

/// Reads a set's locale file; problems become diagnostics.
pub fn parse_set_file(
    file: &SourceFile,
    lang: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<LocaleFile> {
    let doc = yaml::parse_reported(file.text(), &file.path, diagnostics)?;
    // The tree is taken apart: its nodes move into the entries.
    let NodeValue::Map(fields) = doc.value else {
        diagnostics.push(invalid(
            file,
            first_line(file.text(), &doc.span),
            "a locale file is a mapping with `set`, `name` and `cards`",
            "not a mapping",
            "start the file with `set: <set-id>`",
        ));
        return None;
    };
    let mut set = None;
    let mut entries = Vec::new();
    for field in fields.iter().filter(|f| f.key.as_str() == Some("set")) {
        match field.value.as_str() {
            Some(id) if !id.trim().is_empty() => {
                set = Some((id.trim().to_string(), field.value.span.clone()));
            }
            _ => diagnostics.push(invalid(
                file,
                field.value.span.clone(),
                "`set` names the set this file translates",
                "expected a set id",
                "write the id of the set, e.g. `set: sunset-gulch`",
            )),
        }
    }
    let Some((set_id, set_span)) = set else {
        if !fields.iter().any(|f| f.key.as_str() == Some("set")) {
            diagnostics.push(invalid(
                file,
                first_line(file.text(), &doc.span),
                "missing field `set`",
                "this needs `set`",
                "add `set: <set-id>`: the id of the set this file translates",
            ));
        }
        return None;
    };
    for field in fields {
        match field.key.as_str().unwrap_or_default() {
            "set" => {}
            "name" => {
                let key = UnitKey::SetName {
                    set: set_id.clone(),
                };
                if let Some(entry) = parse_entry(file, key, field, diagnostics) {
                    entries.push(entry);
                }
            }
            "cards" => parse_cards(file, &set_id, field.value, &mut entries, diagnostics),
            other => diagnostics.push(unknown_field(file, &field, other, &SET_FIELDS)),
        }
    }
    Some(LocaleFile {
        lang: lang.to_string(),
        path: file.path.clone(),
        relative: file.relative.clone(),
        target: Target::Set(set_id),
        target_span: set_span,
        entries,
        options: None,
        header: None,
        line_end: LineEnd::of(file.text()),
    })
}

fn unknown_field(file: &SourceFile, field: &yaml::Entry, name: &str, known: &[&str]) -> Diagnostic {
    let help = match closest(name, known.iter().copied()) {
        Some(best) => format!("did you mean `{best}`? Known fields: {}", known.join(", ")),
        None => format!("known fields: {}", known.join(", ")),
    };
    invalid(
        file,
        field.key.span.clone(),
        format!("unknown field `{name}`"),
        "not a field here",
        help,
    )
}

fn parse_cards(
    file: &SourceFile,
    set: &str,
    node: Node,
    entries: &mut Vec<Entry>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let NodeValue::Map(cards) = node.value else {
        if node.value != NodeValue::Null {
            diagnostics.push(invalid(
                file,
                node.span.clone(),
                "`cards` maps card ids to their translated fields",
                "expected a mapping",
                "write `cards:` then `  <card-id>:` then `    name: …`",
            ));
        }
        return;
    };
    // Room for every field at once: an entry is a few hundred bytes, and
    // growing the list card by card copied them over and over.
    entries.reserve(
        cards
            .iter()
            .map(|card| match &card.value.value {
                NodeValue::Map(fields) => fields.len(),
                _ => 0,
            })
            .sum(),
    );
    for card in cards {
        let Some(card_id) = card.key.as_str() else {
            diagnostics.push(invalid(
                file,
                card.key.span.clone(),
                "a card id is text",
                "expected a card id",
                "use the card's id from its set file",
            ));
            continue;
        };
        let NodeValue::Map(fields) = card.value.value else {
            diagnostics.push(invalid(
                file,
                card.value.span.clone(),
                format!("card `{card_id}` maps fields (name, flavor, effect) to text"),
                "expected a mapping",
                "write `name:`, `flavor:` or `effect:` under the card id",
            ));
            continue;
        };
        for field in fields {
            let name = field.key.as_str().unwrap_or_default();
            match Field::parse_card_field(name) {
                Some(f) => {
                    let key = UnitKey::Card {
                        set: set.to_string(),
                        card: card_id.to_string(),
                        field: f,
                    };
                    if let Some(entry) = parse_entry(file, key, field, diagnostics) {
                        entries.push(entry);
                    }
                }
                None => diagnostics.push(unknown_field(
                    file,
                    &field,
                    name,
                    &["name", "flavor", "effect"],
                )),
            }
        }
    }
}

/// One entry: a plain string (text whose English is unknown) or a mapping
/// with `text`, `source`, `fingerprint`, `fuzzy`, `note`.
fn parse_entry(
    file: &SourceFile,
    key: UnitKey,
    field: yaml::Entry,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Entry> {
    let mut entry = Entry {
        key,
        text: String::new(),
        source: None,
        fingerprint: None,
        fuzzy: false,
        note: None,
        text_at: None,
        key_span: field.key.span.clone(),
        recorded: Recorded::default(),
    };
    let value_span = field.value.span.clone();
    match field.value.value {
        NodeValue::Str(text, style) => {
            entry.text = text;
            entry.text_at = Some(TextAt {
                span: value_span,
                style,
            });
        }
        NodeValue::Map(items) => {
            for item in items {
                read_entry_field(file, &mut entry, item, diagnostics);
            }
            if entry.text_at.is_none() {
                diagnostics.push(invalid(
                    file,
                    first_line(file.text(), &value_span),
                    format!("`{}` has no `text`", entry.key),
                    "this needs `text`",
                    "add `text: <translation>`",
                ));
                return None;
            }
        }
        _ => {
            diagnostics.push(invalid(
                file,
                value_span,
                format!("`{}` must be the translated text", entry.key),
                "expected text",
                "write the translation, or a mapping with `text`, `source` and `fingerprint`",
            ));
            return None;
        }
    }
    // A phrase template may be empty: Japanese joins sentences with nothing.
    if entry.text.trim().is_empty() && entry.key.field() != Field::Phrase {
        diagnostics.push(invalid(
            file,
            entry.text_span(),
            format!("`{}` is empty", entry.key),
            "empty text",
            "write the translation, or remove the entry to mark it missing",
        ));
        return None;
    }
    Some(entry)
}

/// One field of an entry written as a mapping (`text`, `source`,
/// `fingerprint`, `note`, `fuzzy`).
fn read_entry_field(
    file: &SourceFile,
    entry: &mut Entry,
    item: yaml::Entry,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let name = item.key.as_str().unwrap_or_default();
    let text = item.value.as_str();
    match (name, text) {
        ("text", Some(_)) => {
            if let NodeValue::Str(text, style) = item.value.value {
                entry.text = text;
                entry.text_at = Some(TextAt {
                    span: item.value.span,
                    style,
                });
            }
        }
        ("source", Some(_)) => {
            if let NodeValue::Str(source, style) = item.value.value {
                entry.source = Some(normalize_owned(source));
                entry.recorded.source = Some(TextAt {
                    span: item.value.span,
                    style,
                });
            }
        }
        ("fingerprint", Some(t)) if valid_fingerprint(t) => {
            entry.recorded.fingerprint = Some(item.value.span.clone());
            entry.fingerprint = item.value.into_string();
        }
        ("fingerprint", text) => diagnostics.push(invalid(
            file,
            item.value.span.clone(),
            "a fingerprint is 16 lowercase hex digits, as text",
            "not a fingerprint",
            if text.is_none() {
                "quote it: YAML reads digits alone as a number (`fingerprint: \"0123456789012345\"`)"
            } else {
                "let `blades i18n import` write it, or copy it from `blades i18n export`"
            },
        )),
        ("note", Some(t)) => entry.note = Some(t.to_string()),
        ("fuzzy", _) => match item.value.value {
            NodeValue::Bool(b) => {
                entry.fuzzy = b;
                entry.recorded.fuzzy = Some((item.key.span.clone(), item.value.span.clone()));
            }
            _ => diagnostics.push(invalid(
                file,
                item.value.span.clone(),
                "`fuzzy` is `true` or `false`",
                "expected true or false",
                "write `fuzzy: true` to mark the text for review, or remove it",
            )),
        },
        ("text" | "source" | "note", None) => diagnostics.push(invalid(
            file,
            item.value.span.clone(),
            format!("`{name}` is text"),
            "expected text",
            "quote the value",
        )),
        (other, _) => diagnostics.push(unknown_field(file, &item, other, &ENTRY_FIELDS)),
    }
}

/// Reads a language's phrase-template file (`phrases/<lang>.yaml`): keys
/// (dotted, or nested groups) map to entries as in set locale files; a
/// top-level `options:` holds the language's layout options.
pub fn parse_phrase_file(
    file: &SourceFile,
    lang: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<LocaleFile> {
    let doc = yaml::parse_reported(file.text(), &file.path, diagnostics)?;
    if doc.get("lang").is_some() && doc.get("phrases").is_some() {
        diagnostics.push(invalid(
            file,
            first_line(file.text(), &doc.span),
            "this is a phrasebook in the English book format (`lang`, `phrases`), not a translation",
            "book format",
            "a translated phrase file maps each key to its entry: `line.ability: {text: \"…\", source: \"{timing}: {sentences}\", fingerprint: …}` (see cards/phrases/ja.yaml)",
        ));
        return None;
    }
    let mut entries = Vec::new();
    let mut options = None;
    let mut todo: Vec<(String, &Node)> = vec![(String::new(), &doc)];
    while let Some((prefix, node)) = todo.pop() {
        let NodeValue::Map(items) = &node.value else {
            if node.value != NodeValue::Null {
                diagnostics.push(invalid(
                    file,
                    node.span.clone(),
                    "a phrase file maps phrase keys to translated templates",
                    "expected a mapping",
                    "write `<phrase-key>: {text: …, source: …, fingerprint: …}`",
                ));
            }
            continue;
        };
        for item in items.iter().rev() {
            let Some(name) = item.key.as_str() else {
                continue;
            };
            if prefix.is_empty() && name == "options" {
                match serde_json::from_value::<PhraseOptions>(item.value.to_json()) {
                    Ok(found) => options = Some(found),
                    Err(e) => diagnostics.push(invalid(
                        file,
                        item.value.span.clone(),
                        format!("`options`: {e}"),
                        "not phrase options",
                        "write `options: {capitalize: false}` (capitalise sentences or not)",
                    )),
                }
                continue;
            }
            let key = if prefix.is_empty() {
                name.to_string()
            } else {
                format!("{prefix}.{name}")
            };
            // A mapping with entry fields is an entry; any other mapping
            // is a group of keys.
            let is_entry = match &item.value.value {
                NodeValue::Map(fields) => fields
                    .iter()
                    .any(|f| f.key.as_str().is_some_and(|k| ENTRY_FIELDS.contains(&k))),
                _ => true,
            };
            if is_entry {
                if let Some(entry) =
                    parse_entry(file, UnitKey::Phrase { key }, item.clone(), diagnostics)
                {
                    entries.push(entry);
                }
            } else {
                todo.push((key, &item.value));
            }
        }
    }
    entries.sort_by_key(|e| e.key_span.start);
    // Split at every line end: a file with bare `\r` ends is one line to
    // `str::lines`, and all of it would be taken for the header.
    let header: String = lines_any_end(file.text())
        .take_while(|l| l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    Some(LocaleFile {
        lang: lang.to_string(),
        path: file.path.clone(),
        relative: file.relative.clone(),
        target: Target::Phrases,
        target_span: 0..0,
        entries,
        options,
        header: (!header.is_empty()).then_some(header),
        line_end: LineEnd::of(file.text()),
    })
}

/// Writes a set's locale file in canonical form: the set name, then cards
/// in pool order (`position` gives a unit's place in the pool; units the
/// pool no longer has keep their order, after the others), fields in the
/// order name, flavor, effect.
pub fn render_set_file(
    lang: &str,
    set: &str,
    entries: &[Entry],
    position: &dyn Fn(&UnitKey) -> Option<usize>,
) -> String {
    let mut out = format!(
        "# {} ({lang}) text of the set `{set}`, kept by `blades i18n`.\n\
         # `source` is the English a text was translated from, `fingerprint` its\n\
         # hash; `blades i18n status` reports texts whose English has changed.\n",
        language_name(lang)
    );
    out.push_str(&format!("set: {}\n", scalar(set, 0)));
    if let Some(entry) = entries
        .iter()
        .find(|e| matches!(e.key, UnitKey::SetName { .. }))
    {
        out.push_str("name:\n");
        write_entry(&mut out, entry, 2);
    }
    // Cards: first appearance order, then by pool position.
    let mut cards: Vec<(&str, Option<usize>, usize)> = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let Some(card) = entry.key.card() else {
            continue;
        };
        let pos = position(&entry.key);
        match cards.iter_mut().find(|(c, _, _)| *c == card) {
            Some(found) => {
                found.1 = match (found.1, pos) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
            }
            None => cards.push((card, pos, i)),
        }
    }
    cards.sort_by_key(|&(_, pos, first)| (pos.is_none(), pos, first));
    if !cards.is_empty() {
        out.push_str("cards:\n");
    }
    for (card, _, _) in cards {
        out.push_str(&format!("  {}:\n", key_text(card)));
        for field in Field::CARD {
            if let Some(entry) = entries
                .iter()
                .find(|e| e.key.card() == Some(card) && e.key.field() == field)
            {
                out.push_str(&format!("    {}:\n", field.as_str()));
                write_entry(&mut out, entry, 6);
            }
        }
    }
    out
}

/// Writes a phrase file in canonical form: the header (the file's own
/// comment lines, or a standard one), the options, then one line per
/// template, `key: {text: "…", source: "…", fingerprint: …}`, in the order
/// of the English phrase file (unknown keys after, in their order).
pub fn render_phrase_file(
    lang: &str,
    header: Option<&str>,
    options: Option<&PhraseOptions>,
    entries: &[Entry],
    position: &dyn Fn(&UnitKey) -> Option<usize>,
) -> String {
    let mut out = match header {
        Some(header) => header.to_string(),
        None => format!(
            "# {} ({lang}) phrase templates of the effect language, kept by `blades i18n`.\n\
             # `source` is the English a template was translated from, `fingerprint` its\n\
             # hash; `blades i18n status` reports templates whose English has changed.\n",
            language_name(lang)
        ),
    };
    if let Some(serde_json::Value::Object(fields)) =
        options.and_then(|o| serde_json::to_value(o).ok())
    {
        let fields: Vec<String> = fields.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        out.push_str(&format!("options: {{{}}}\n", fields.join(", ")));
    }
    let mut sorted: Vec<(usize, &Entry)> = entries.iter().enumerate().collect();
    sorted.sort_by_key(|&(i, e)| {
        let pos = position(&e.key);
        (pos.is_none(), pos, i)
    });
    for (_, entry) in sorted {
        let UnitKey::Phrase { key } = &entry.key else {
            continue;
        };
        // Templates are short: one line each, every text double-quoted
        // (most start with `{`, and spaces at their ends matter).
        let mut fields = vec![format!(
            "text: {}",
            yaml::double_quoted(&entry.normalized())
        )];
        if let Some(source) = &entry.source {
            fields.push(format!("source: {}", yaml::double_quoted(source)));
        }
        if let Some(fp) = &entry.fingerprint {
            fields.push(format!("fingerprint: {}", scalar(fp, 0)));
        }
        if entry.fuzzy {
            fields.push("fuzzy: true".into());
        }
        if let Some(note) = &entry.note {
            fields.push(format!("note: {}", yaml::double_quoted(note)));
        }
        out.push_str(&format!("{}: {{{}}}\n", key_text(key), fields.join(", ")));
    }
    out
}

fn write_entry(out: &mut String, entry: &Entry, indent: usize) {
    let pad = " ".repeat(indent);
    out.push_str(&format!(
        "{pad}text:{}",
        value(&entry.normalized(), indent + 2)
    ));
    if let Some(source) = &entry.source {
        out.push_str(&format!("{pad}source:{}", value(source, indent + 2)));
    }
    if let Some(fp) = &entry.fingerprint {
        // Quoted when YAML would read it as a number (`1234567890123456`).
        out.push_str(&format!("{pad}fingerprint: {}\n", scalar(fp, indent)));
    }
    if entry.fuzzy {
        out.push_str(&format!("{pad}fuzzy: true\n"));
    }
    if let Some(note) = &entry.note {
        out.push_str(&format!("{pad}note:{}", value(note, indent + 2)));
    }
}

/// A recorded English written where one was: plain when it was plain and
/// reads back the same where it stands, else double-quoted.
fn recorded_scalar(text: &str, was: ScalarStyle, in_flow: bool) -> String {
    let flow_safe = !in_flow || !text.contains([',', '[', ']', '{', '}']);
    if was == ScalarStyle::Plain && flow_safe && plain_ok(text) {
        text.to_string()
    } else {
        yaml::double_quoted(text)
    }
}

/// The bytes a scalar value takes in its file: its node's span, or for a
/// block scalar (whose span starts at its first line of content and runs
/// into the next key's indentation) its `|`/`>` header through the end of
/// its last line of content.
fn scalar_span(text: &str, at: &TextAt) -> Range<usize> {
    if !matches!(at.style, ScalarStyle::Literal | ScalarStyle::Folded) {
        return at.span.clone();
    }
    let Some(content) = text.get(..at.span.start) else {
        return at.span.clone();
    };
    let header_end = content.rfind('\n').unwrap_or(0);
    let header_start = content[..header_end].rfind('\n').map_or(0, |i| i + 1);
    let Some(indicator) = content[header_start..header_end].find(['|', '>']) else {
        return at.span.clone();
    };
    let end = text
        .get(..at.span.end)
        .map_or(at.span.end, |upto| upto.trim_end().len());
    header_start + indicator..end.max(at.span.start)
}

/// How far the line holding byte `at` is indented.
fn content_indent(text: &str, at: usize) -> usize {
    let before = text.get(..at).unwrap_or_default();
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    line.len() - line.trim_start_matches(' ').len()
}

/// `text` as a `|-` literal block whose lines are indented `indent`
/// spaces, without the line break after its last line.
fn literal_block(text: &str, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let lines: Vec<String> = text
        .split('\n')
        .map(|line| match line.is_empty() {
            true => String::new(),
            false => format!("{pad}{line}"),
        })
        .collect();
    format!("|-\n{}", lines.join("\n"))
}

/// The edit that takes `fuzzy: true` out: its whole line when it stands
/// alone on one, else `false` for its value (in a flow mapping).
fn unmark_fuzzy(text: &str, key: &Range<usize>, value: &Range<usize>) -> Edit {
    let (Some(before), Some(after)) = (text.get(..key.start), text.get(value.end..)) else {
        return Edit {
            span: value.clone(),
            text: Arc::from("false"),
        };
    };
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line_end = after.find('\n').map_or(text.len(), |i| value.end + i + 1);
    let alone =
        before[line_start..].trim().is_empty() && text[value.end..line_end].trim().is_empty();
    Edit {
        span: if alone {
            line_start..line_end
        } else {
            value.clone()
        },
        text: Arc::from(if alone { "" } else { "false" }),
    }
}

/// A mapping key: plain when it reads back the same, else double-quoted.
fn key_text(key: &str) -> String {
    scalar(key, 0)
}

/// A single-line scalar: plain when it reads back as the same string, else
/// double-quoted.
fn scalar(text: &str, _indent: usize) -> String {
    if plain_ok(text) {
        text.to_string()
    } else {
        yaml::double_quoted(text)
    }
}

/// The text after `key:` for a string value, with the line break: ` plain`,
/// ` "quoted"`, or a `|-` literal block for several lines.
fn value(text: &str, indent: usize) -> String {
    if !text.contains('\n') {
        return format!(" {}\n", scalar(text, indent));
    }
    if block_ok(text) {
        let pad = " ".repeat(indent);
        let mut out = String::from(" |-\n");
        for line in text.split('\n') {
            if line.is_empty() {
                out.push('\n');
            } else {
                out.push_str(&format!("{pad}{line}\n"));
            }
        }
        return out;
    }
    format!(" {}\n", yaml::double_quoted(text))
}

fn plain_ok(text: &str) -> bool {
    let Some(first) = text.chars().next() else {
        return false;
    };
    if text.trim() != text
        || text.chars().any(|c| c.is_control() || yaml::is_break(c))
        || "!&*%@`|>{}[],#?:-'\"".contains(first)
        || text.contains(" #")
        || text.contains(": ")
        || text.ends_with(':')
        || text.contains('\t')
    {
        return false;
    }
    let probe = format!("k: {text}\n");
    match yaml::parse(&probe).ok().and_then(|d| d.get("k").cloned()) {
        Some(Node {
            value: NodeValue::Str(s, ScalarStyle::Plain),
            ..
        }) => s == text,
        _ => false,
    }
}

fn block_ok(text: &str) -> bool {
    !text.starts_with([' ', '\n'])
        && !text.ends_with('\n')
        && !text
            .chars()
            .any(|c| (c.is_control() && c != '\n') || yaml::is_break(c) || c == '\u{feff}')
        && text
            .split('\n')
            .all(|l| l.trim_end() == l && !l.starts_with(' '))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn source(relative: &str, text: &str) -> SourceFile {
        SourceFile::new(Arc::from(relative), relative.into(), Arc::from(text))
    }

    #[test]
    fn fingerprints_are_stable_and_ignore_layout() {
        // FNV-1a 64 reference values.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fingerprint("Canyon Wyrm"), fingerprint("  Canyon Wyrm\n"));
        assert_eq!(
            fingerprint("Scurry.\nPlay: Gain 1 RP.\n"),
            fingerprint("Scurry.  \r\nPlay: Gain 1 RP.")
        );
        assert_ne!(fingerprint("Canyon Wyrm"), fingerprint("Canyon Wyrms"));
        assert!(valid_fingerprint(&fingerprint("x")));
        let raw = "  Scurry.  \r\nPlay: Gain 1 RP.\n";
        let (normal, map) = normalize_with_offsets(raw);
        assert_eq!(normal, normalize(raw));
        assert_eq!(map.len(), normal.len() + 1);
        let play = normal.find("Play").unwrap();
        assert_eq!(&raw[map[play]..map[play] + 4], "Play");
    }

    #[test]
    fn an_entry_is_current_when_its_fingerprint_is_the_englishs() {
        let mut e = entry("g/wyrm/name", "竜", "Canyon Wyrm");
        assert!(e.is_current("Canyon Wyrm"));
        assert!(e.is_current("  Canyon Wyrm \r\n"));
        assert!(!e.is_current("Canyon Wyrms"));
        // Only the written form counts: the same number in capitals is no
        // fingerprint.
        let written = e.fingerprint.clone().unwrap();
        e.fingerprint = Some(written.to_uppercase());
        assert!(written.to_uppercase() != written && !e.is_current("Canyon Wyrm"));
        e.fingerprint = Some(written);
        e.fuzzy = true;
        assert!(!e.is_current("Canyon Wyrm"));
    }

    #[test]
    fn files_are_classified_by_path() {
        assert_eq!(
            classify("locales/ja/sunset-gulch.yaml"),
            Some(("ja".into(), FileClass::Set))
        );
        assert_eq!(
            classify("more/locales/pt-br/x.yaml"),
            Some(("pt-br".into(), FileClass::Set))
        );
        assert_eq!(
            classify("phrases/ja.yaml"),
            Some(("ja".into(), FileClass::Phrases))
        );
        assert_eq!(classify("phrases/en.yaml"), None);
        assert_eq!(classify("locales/en/x.yaml"), None);
        assert_eq!(classify("locales/ja.yaml"), None);
        assert_eq!(classify("sunset-gulch.yaml"), None);
    }

    /// Each entry of `text` (a set's locale file, or a phrase file) marked
    /// reviewed against `english`: every entry then current, its text as
    /// it was, the file's other bytes untouched.
    fn reviewed(relative: &str, text: &str, english: &str) -> String {
        let parse = |text: &str| {
            let mut found = Vec::new();
            let file = source(relative, text);
            let parsed = match relative.starts_with("phrases/") {
                true => parse_phrase_file(&file, "ja", &mut found),
                false => parse_set_file(&file, "ja", &mut found),
            };
            assert!(found.is_empty(), "{found:?}");
            parsed.expect("the file reads")
        };
        let before = parse(text);
        let mut edits: Vec<Edit> = before
            .entries
            .iter()
            .flat_map(|entry| {
                entry
                    .review_edits(english, text)
                    .expect("a record to update")
            })
            .collect();
        edits.sort_by_key(|edit| edit.span.start);
        let fixed = crate::diagnostics::apply_edits(text, &edits).expect("the edits fit");
        let after = parse(&fixed);
        for (old, new) in before.entries.iter().zip(&after.entries) {
            assert!(new.is_current(english), "{fixed}");
            assert_eq!(new.text, old.text);
            assert_eq!(new.note, old.note);
        }
        fixed
    }

    #[test]
    fn a_review_rewrites_the_record_of_the_english_in_place() {
        let now = "Scurry.\nPlay: Gain 2 RP.";
        let fp = fingerprint(now);
        let plain = "set: g\ncards:\n  owl:\n    name:\n      text: フクロウ\n      source: Owl\n      fingerprint: c6c9a175efd8f44b\n";
        assert_eq!(
            reviewed("locales/ja/g.yaml", plain, "Dusk Owl"),
            format!(
                "set: g\ncards:\n  owl:\n    name:\n      text: フクロウ\n      source: Dusk Owl\n      fingerprint: {}\n",
                fingerprint("Dusk Owl")
            )
        );
        let literal = "set: g\ncards:\n  owl:\n    effect:\n      text: x\n      source: |-\n        Scurry.\n        Play: Gain 1 RP.\n      fingerprint: 6da4c88c2a05210d\n      note: keep\n";
        assert_eq!(
            reviewed("locales/ja/g.yaml", literal, now),
            format!(
                "set: g\ncards:\n  owl:\n    effect:\n      text: x\n      source: |-\n        Scurry.\n        Play: Gain 2 RP.\n      fingerprint: {fp}\n      note: keep\n"
            )
        );
        let crlf = literal.replace('\n', "\r\n");
        assert_eq!(
            reviewed("locales/ja/g.yaml", &crlf, now),
            format!(
                "set: g\ncards:\n  owl:\n    effect:\n      text: x\n      source: |-\n        Scurry.\n        Play: Gain 2 RP.\n      fingerprint: {fp}\n      note: keep\n"
            )
            .replace('\n', "\r\n")
        );
        let fuzzy = "set: g\ncards:\n  owl:\n    name:\n      text: x\n      source: Owl\n      fuzzy: true\n      fingerprint: 2f677b172589b652\n";
        assert_eq!(
            reviewed("locales/ja/g.yaml", fuzzy, "Owl"),
            format!(
                "set: g\ncards:\n  owl:\n    name:\n      text: x\n      source: Owl\n      fingerprint: {}\n",
                fingerprint("Owl")
            )
        );
        let flow = "line.ability: {text: \"{timing}：{sentences}\", source: \"{timing}: {sentences}\", fingerprint: 5881cfac1c70401f, fuzzy: true}\n";
        let english = "{timing}, then: {sentences}";
        assert_eq!(
            reviewed("phrases/ja.yaml", flow, english),
            format!(
                "line.ability: {{text: \"{{timing}}：{{sentences}}\", source: \"{english}\", fingerprint: {}, fuzzy: false}}\n",
                fingerprint(english)
            )
        );
    }

    #[test]
    fn set_files_read_and_report_shape_errors() {
        let text = "set: gulch\nname: 峡谷\ncards:\n  wyrm:\n    name:\n      text: 竜\n      source: Wyrm\n      fingerprint: 0123456789abcdef\n    flavour: x\n  owl:\n    flavor:\n      source: Owl\n";
        let mut diagnostics = Vec::new();
        let file =
            parse_set_file(&source("locales/ja/g.yaml", text), "ja", &mut diagnostics).unwrap();
        assert_eq!(file.target, Target::Set("gulch".into()));
        assert_eq!(file.entries.len(), 2);
        assert_eq!(file.entries[0].text, "峡谷");
        assert_eq!(file.entries[0].fingerprint, None);
        assert_eq!(file.entries[1].source.as_deref(), Some("Wyrm"));
        let codes: Vec<&str> = diagnostics.iter().map(|d| &*d.message).collect();
        assert_eq!(
            codes,
            [
                "unknown field `flavour`",
                "`gulch/owl/flavor` has no `text`"
            ]
        );
        assert_eq!(
            diagnostics[0].help.as_deref(),
            Some("did you mean `flavor`? Known fields: name, flavor, effect")
        );
    }

    fn entry(key: &str, text: &str, english: &str) -> Entry {
        Entry::new(UnitKey::parse(key).unwrap(), text, english)
    }

    #[test]
    fn canonical_set_files_read_back_identically() {
        let entries = vec![
            entry("g/owl/flavor", "夜ふかし。", "Up late."),
            entry("g/name", "峡谷", "Gulch"),
            entry("g/wyrm/name", "竜", "Wyrm"),
            entry(
                "g/wyrm/effect",
                "ちょこまか。\nプレイ：1RPを得る。",
                "Scurry.\nPlay: Gain 1 RP.",
            ),
            entry("g/ghost/name", "幽霊", "Ghost"),
            entry("g/owl/name", "フクロウ: 賢い #1", "Owl: wise #1"),
        ];
        let order = [
            "g/name",
            "g/wyrm/name",
            "g/wyrm/effect",
            "g/owl/name",
            "g/owl/flavor",
        ];
        let position = |k: &UnitKey| order.iter().position(|o| *o == k.to_string());
        let text = render_set_file("ja", "g", &entries, &position);
        let mut diagnostics = Vec::new();
        let file =
            parse_set_file(&source("locales/ja/g.yaml", &text), "ja", &mut diagnostics).unwrap();
        assert!(diagnostics.is_empty(), "{diagnostics:?}\n{text}");
        let again = render_set_file("ja", "g", &file.entries, &position);
        assert_eq!(text, again);
        let keys: Vec<String> = file.entries.iter().map(|e| e.key.to_string()).collect();
        assert_eq!(
            keys,
            [
                "g/name",
                "g/wyrm/name",
                "g/wyrm/effect",
                "g/owl/name",
                "g/owl/flavor",
                "g/ghost/name"
            ]
        );
        for e in &entries {
            let read = file.entries.iter().find(|r| r.key == e.key).unwrap();
            assert!(read.same_content(e), "{read:?} vs {e:?}");
        }
    }

    #[test]
    fn fingerprints_that_look_like_numbers_are_quoted() {
        let mut e = entry("g/wyrm/name", "竜", "Wyrm");
        for fp in ["1234567890123456", "1e34567890123456", "0000000000000000"] {
            e.fingerprint = Some(fp.into());
            let written = render_set_file("ja", "g", std::slice::from_ref(&e), &|_| Some(0));
            let mut diagnostics = Vec::new();
            let file = parse_set_file(
                &source("locales/ja/g.yaml", &written),
                "ja",
                &mut diagnostics,
            )
            .unwrap();
            assert!(diagnostics.is_empty(), "{written}");
            assert_eq!(file.entries[0].fingerprint.as_deref(), Some(fp));
        }
    }

    fn phrase(key: &str, text: &str, english: &str) -> Entry {
        Entry::new(UnitKey::Phrase { key: key.into() }, text, english)
    }

    #[test]
    fn canonical_phrase_files_read_back_identically() {
        let mut fuzzy = phrase("action.flip", "{target}を裏返す", "turn over {target}");
        fuzzy.fuzzy = true;
        fuzzy.note = Some("「めくる」ではない。\n公式用語。".into());
        let entries = vec![
            phrase("sentence.join", "", " "),
            phrase("clauses.last", " et ", " and "),
            fuzzy,
            phrase("action.flip.cont", "{target}を裏返し", "flip {target}"),
            phrase("quote", "「\"x\"」\\", "\"x\""),
        ];
        let order = [
            "sentence.join",
            "clauses.last",
            "action.flip",
            "action.flip.cont",
        ];
        let position = |k: &UnitKey| {
            order
                .iter()
                .position(|o| k.to_string() == format!("phrase:{o}"))
        };
        let options = PhraseOptions { capitalize: false };
        for header in [None, Some("# 見出し\n#\n# two lines\n")] {
            let text = render_phrase_file("ja", header, Some(&options), &entries, &position);
            let mut diagnostics = Vec::new();
            let file = parse_phrase_file(&source("phrases/ja.yaml", &text), "ja", &mut diagnostics)
                .unwrap();
            assert!(diagnostics.is_empty(), "{diagnostics:?}\n{text}");
            assert_eq!(file.options, Some(options.clone()));
            if let Some(header) = header {
                assert!(text.starts_with(header), "{text}");
                assert_eq!(file.header.as_deref(), Some(header));
            }
            let again = render_phrase_file(
                "ja",
                file.header.as_deref(),
                file.options.as_ref(),
                &file.entries,
                &position,
            );
            assert_eq!(text, again);
            assert_eq!(file.entries.len(), entries.len());
            for e in &entries {
                let read = file.entries.iter().find(|r| r.key == e.key).unwrap();
                assert!(read.same_content(e), "{read:?} vs {e:?}");
            }
        }
        let text = render_phrase_file("ja", None, None, &entries[..2], &position);
        assert_eq!(
            text.lines().skip(3).collect::<Vec<_>>(),
            [
                "sentence.join: {text: \"\", source: \"\", fingerprint: cbf29ce484222325}",
                "clauses.last: {text: \" et \", source: \"and\", fingerprint: e6f79719051ff286}",
            ],
            "one line per template; spaces at a template's ends are kept"
        );
    }

    #[test]
    fn line_ends_are_told_and_kept() {
        assert_eq!(LineEnd::of("a\nb\n"), LineEnd::Lf);
        assert_eq!(LineEnd::of("a\r\nb\r\n"), LineEnd::CrLf);
        assert_eq!(LineEnd::of("a\rb\r"), LineEnd::Cr);
        assert_eq!(LineEnd::of("no end"), LineEnd::Lf);
        // Mixed: the most used, the first one on a tie.
        assert_eq!(LineEnd::of("a\rb\r\nc\r\n"), LineEnd::CrLf);
        assert_eq!(LineEnd::of("a\rb\nc"), LineEnd::Cr);
        assert_eq!(LineEnd::Cr.apply("a\nb\n".into()), "a\rb\r");
        assert_eq!(LineEnd::CrLf.apply("a\nb\n".into()), "a\r\nb\r\n");
        let lines = |text| lines_any_end(text).collect::<Vec<_>>();
        assert_eq!(lines("a\rb\r\nc\n\nd"), ["a", "b", "c", "", "d"]);
        assert_eq!(lines("a\r"), ["a"]);
        assert_eq!(lines(""), [] as [&str; 0]);
        assert_eq!(lines("\r\r"), ["", ""]);
    }

    #[test]
    fn a_phrase_file_with_bare_cr_ends_keeps_its_header_and_line_ends() {
        let position = |_: &UnitKey| None;
        let entries = vec![phrase(
            "line.ability",
            "{timing}：{sentences}",
            "{timing}: {sentences}",
        )];
        let header = "# 見出し\n# two lines\n";
        let canonical = render_phrase_file("ja", Some(header), None, &entries, &position);
        for end in [LineEnd::Lf, LineEnd::CrLf, LineEnd::Cr] {
            let text = end.apply(canonical.clone());
            let mut diagnostics = Vec::new();
            let file = parse_phrase_file(&source("phrases/ja.yaml", &text), "ja", &mut diagnostics)
                .expect("reads");
            assert!(diagnostics.is_empty(), "{diagnostics:?}");
            assert_eq!(file.line_end, end);
            assert_eq!(file.header.as_deref(), Some(header), "{end:?}");
            assert_eq!(file.entries.len(), 1);
            let again =
                render_phrase_file("ja", file.header.as_deref(), None, &file.entries, &position);
            assert_eq!(file.line_end.apply(again), text, "{end:?}");
        }
    }

    #[test]
    fn phrase_files_in_the_book_format_are_refused() {
        let text = "# old\n{\"lang\": \"ja\", \"phrases\": {\"timing\": {\"play\": \"プレイ\"}}}\n";
        let mut diagnostics = Vec::new();
        assert!(
            parse_phrase_file(&source("phrases/ja.yaml", text), "ja", &mut diagnostics).is_none()
        );
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(diagnostics[0].code, Code::LocaleInvalid);
        assert_eq!(
            &text[diagnostics[0].span.clone()],
            "{\"lang\": \"ja\", \"phrases\": {\"timing\": {\"play\": \"プレイ\"}}}"
        );
        // Options must be options; an entry without `text` is not a group.
        let text = "options: {capitalise: true}\nline.ability: {source: \"x\"}\n";
        let mut diagnostics = Vec::new();
        let file =
            parse_phrase_file(&source("phrases/ja.yaml", text), "ja", &mut diagnostics).unwrap();
        assert!(file.entries.is_empty());
        let mut messages: Vec<&str> = diagnostics.iter().map(|d| &*d.message).collect();
        messages.sort_unstable();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(messages[0].starts_with("`options`: unknown field `capitalise`"));
        assert_eq!(messages[1], "`phrase:line.ability` has no `text`");
    }

    proptest! {
        /// The shortcut for text that needs no change agrees with the
        /// definition: trimmed, lines without trailing space, `\n` between.
        #[test]
        fn normalize_is_trim_and_join(text in "[ a\t\r\n\u{3000}あ]{0,12}") {
            let lines: Vec<&str> = text.trim().lines().map(str::trim_end).collect();
            prop_assert_eq!(normalize(&text), lines.join("\n"));
            prop_assert_eq!(normalize_owned(text.clone()), normalize(&text));
        }

        #[test]
        fn any_text_survives_the_writer(text in "\\PC{0,40}(\n\\PC{0,20}){0,3}", note in "[ -~あ-ん\n\t\"\\\\]{0,30}") {
            let text = normalize(&text);
            prop_assume!(!text.is_empty());
            let mut e = entry("g/wyrm/flavor", &text, "English");
            e.note = Some(note.clone());
            let position = |_: &UnitKey| Some(0);
            let written = render_set_file("ja", "g", std::slice::from_ref(&e), &position);
            let mut diagnostics = Vec::new();
            let file = parse_set_file(&source("locales/ja/g.yaml", &written), "ja", &mut diagnostics);
            prop_assert!(diagnostics.is_empty(), "{:?}\n{}", diagnostics, written);
            let read = &file.unwrap().entries[0];
            prop_assert_eq!(&read.text, &text);
            prop_assert_eq!(read.note.as_deref(), Some(note.as_str()));
        }

        #[test]
        fn any_template_survives_the_phrase_writer(text in "[ ]{0,2}\\PC{0,30}[ ]{0,2}", note in "[ -~あ-ん\n\t\"\\\\]{0,30}") {
            let mut e = phrase("clauses.last", &text, "English");
            e.note = Some(note.clone());
            let written = render_phrase_file("ja", None, None, std::slice::from_ref(&e), &|_| Some(0));
            let mut diagnostics = Vec::new();
            let file = parse_phrase_file(&source("phrases/ja.yaml", &written), "ja", &mut diagnostics);
            prop_assert!(diagnostics.is_empty(), "{:?}\n{}", diagnostics, written);
            let read = &file.unwrap().entries[0];
            prop_assert_eq!(&read.text, &text);
            prop_assert_eq!(read.note.as_deref(), Some(note.as_str()));
        }
    }
}
