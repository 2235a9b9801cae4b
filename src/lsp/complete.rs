//! `textDocument/completion`: what may be written where the cursor is, from
//! the lists the build itself reads: the set schema's keys and values, the
//! pool's types, keywords and cards, the timing words, the glossary.
//!
//! Where the cursor is comes from the lines above it, not from a parse: a
//! key half typed is not YAML yet.

use std::ops::Range;

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionList, CompletionTextEdit, Documentation, TextEdit,
};
use serde_json::Value;

use super::documents::declares_a_set;
use super::index::{Defined, PoolIndex};
use super::locate;
use super::position::{Encoding, position};
use crate::diagnostics::LineIndex;
use crate::effect::{Keywords, Timing};
use crate::i18n::glossary::Glossary;
use crate::set_schema::set_schema;
use crate::words::{BASE_TYPES, CardKind, Element};
use crate::yaml;

/// At most this many cards are listed at once; the list says it is
/// incomplete, and the editor asks again as more is typed.
const MAX_CARDS: usize = 100;

/// What a document is, for completion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A set file: its keys, values and effects.
    Set,
    /// A translation into Japanese: the glossary's terms.
    Japanese,
    /// A deck format: card, set and type ids in its filters.
    Format,
    /// A player's deck, collection or trade, as text or YAML: card names.
    Input { yaml: bool },
    /// Anything else (`keywords.yaml`, a translation into another language).
    Other,
}

impl Role {
    /// The role of the file at `relative` in its pool (`in_pool`: the pool
    /// is the workspace's `cards/` folder, else the folder holding the
    /// file, which may be a player's). A YAML file beside no pool is a set
    /// file when it says what a set file says first (`id:`, `kind:`).
    pub fn of(relative: &str, in_pool: bool, text: &str) -> Role {
        // What the file is, as the cursor's requests read it (one rule).
        match locate::Place::of(Some(relative)) {
            locate::Place::Input => Role::Input { yaml: false },
            locate::Place::Format => Role::Format,
            locate::Place::Locale { lang } | locate::Place::Phrases { lang } => {
                match lang == Glossary::LANG {
                    true => Role::Japanese,
                    false => Role::Other,
                }
            }
            locate::Place::Data => Role::Other,
            locate::Place::Set => match in_pool || declares_a_set(text) {
                true => Role::Set,
                false => Role::Input { yaml: true },
            },
        }
    }
}

/// How a card is listed: by its id (a format's `card:`), else by its
/// name; and what the typed text is matched against (lower case).
fn shown(card: &Defined, by_id: bool) -> &str {
    match by_id {
        true => &card.id,
        false => card.shown_name(),
    }
}

fn matched(card: &Defined, by_id: bool) -> &str {
    match by_id {
        true => &card.id,
        false => &card.lowered,
    }
}

/// What a list says of a card: its kind, STAR (none on a venue or a
/// character, which have none) and set.
fn detail(card: &Defined) -> String {
    let kind = card.kind.as_deref().unwrap_or_default();
    let set = card.set.as_deref().unwrap_or_default();
    let starless = CardKind::ALL
        .iter()
        .any(|k| k.as_str() == kind && !k.has_stars());
    if starless && card.stars.is_none() {
        return format!("{kind} · {set}");
    }
    let stars = card
        .stars
        .map_or_else(|| "?".to_string(), |n| n.to_string());
    format!("{kind} · {stars} STAR · {set}")
}

/// The pool's types: the base types and its sets' extra types, sorted.
fn pool_types(words: &PoolIndex) -> Vec<&str> {
    let mut types: Vec<&str> = BASE_TYPES.to_vec();
    types.extend(words.extra_types());
    types.sort_unstable();
    types.dedup();
    types
}

/// One step of the way from a document's top to the cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Key(String),
    Item,
}

/// Where in a YAML document the cursor is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Place {
    /// Writing a key of the mapping at `path`.
    Key { path: Vec<Step> },
    /// Writing a value at `path` (its last step the key or the item).
    Value { path: Vec<Step> },
    /// Inside a string at `path` (quoted, or a block scalar's line).
    Text { path: Vec<Step> },
}

/// A line's sequence dashes (their columns) and where its content starts.
fn line_shape(line: &str) -> (Vec<usize>, usize) {
    let mut dashes = Vec::new();
    let mut at = 0;
    loop {
        let rest = &line[at..];
        let spaces = rest.len() - rest.trim_start_matches(' ').len();
        let rest = &rest[spaces..];
        if rest == "-" || rest.starts_with("- ") {
            dashes.push(at + spaces);
            at += spaces + 1;
        } else {
            return (dashes, at + spaces);
        }
    }
}

/// The key a line's content opens (`name` of `name: x`, `effect: |`).
fn line_key(content: &str) -> Option<&str> {
    let end = content.find(':')?;
    let key = &content[..end];
    let rest = &content[end + 1..];
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_');
    (plain && (rest.is_empty() || rest.starts_with(' '))).then_some(key)
}

/// Does a line's value open a block scalar (`|`, `>-`, `|2`)?
fn opens_block(content: &str) -> bool {
    let Some(end) = content.find(':') else {
        return false;
    };
    let value = content[end + 1..]
        .split(" #")
        .next()
        .unwrap_or_default()
        .trim();
    value.starts_with(['|', '>'])
        && value[1..]
            .chars()
            .all(|c| matches!(c, '-' | '+' | '1'..='9'))
}

/// The keys and items above the line starting at `line_start` whose
/// content starts at column `column` (outermost first), and whether the
/// line is inside a block scalar opened above it.
fn path_above(text: &str, line_start: usize, column: usize) -> (Vec<Step>, bool) {
    let mut reversed = Vec::new();
    let mut bound = column;
    let mut in_block = false;
    let mut first = true;
    for line in text[..line_start].lines().rev() {
        if bound == 0 {
            break;
        }
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (dashes, content) = line_shape(line);
        if content < bound
            && let Some(key) = line_key(&line[content..])
        {
            in_block |= first && opens_block(&line[content..]);
            first = false;
            reversed.push(Step::Key(key.to_string()));
            bound = content;
        }
        for &dash in dashes.iter().rev() {
            if dash < bound {
                first = false;
                reversed.push(Step::Item);
                bound = dash;
            }
        }
        first &= content >= bound;
    }
    reversed.reverse();
    (reversed, in_block)
}

/// Where the cursor at byte `offset` is, read from its line and the lines
/// above.
fn place(text: &str, offset: usize) -> Place {
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..offset];
    let (dashes, content) = line_shape(before);
    let (mut path, in_block) =
        path_above(text, line_start, dashes.first().copied().unwrap_or(content));
    if in_block {
        return Place::Text { path };
    }
    path.extend(dashes.iter().map(|_| Step::Item));
    within_line(&before[content.min(before.len())..], path)
}

/// The place within a line's content: a flow collection's keys and items,
/// a key's value, a quoted string.
fn within_line(content: &str, mut path: Vec<Step>) -> Place {
    // The keys and items the line opens, as a stack: a mapping's key or a
    // sequence's item, each with the depth of brackets it is in.
    let mut depth: Vec<usize> = Vec::new();
    let base = path.len();
    let mut quote: Option<char> = None;
    let mut value = false;
    let mut word_start = 0;
    let chars: Vec<(usize, char)> = content.char_indices().collect();
    for (n, &(i, c)) in chars.iter().enumerate() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        let next = chars.get(n + 1).map(|&(_, c)| c);
        match c {
            '"' | '\'' if value || depth.last().is_some() => quote = Some(c),
            '#' if i == 0 || content[..i].ends_with(' ') => return Place::Text { path },
            '{' => {
                depth.push(path.len());
                value = false;
                word_start = i + 1;
            }
            '[' => {
                depth.push(path.len());
                path.push(Step::Item);
                value = true;
                word_start = i + 1;
            }
            '}' | ']' => {
                path.truncate(depth.pop().unwrap_or(base));
                value = false;
            }
            ',' => {
                let keep = depth.last().copied().unwrap_or(base);
                let in_seq = path.get(keep) == Some(&Step::Item) && path.len() == keep + 1;
                path.truncate(keep);
                if in_seq {
                    path.push(Step::Item);
                }
                value = in_seq;
                word_start = i + 1;
            }
            ':' if !value && matches!(next, None | Some(' ')) => {
                let key = content[word_start..i].trim();
                path.push(Step::Key(key.to_string()));
                value = true;
            }
            _ => {}
        }
    }
    match (quote, value) {
        (Some(_), _) => Place::Text { path },
        (None, true) => Place::Value { path },
        (None, false) => Place::Key { path },
    }
}

/// The start of the word that ends at `offset` (letters, digits, `-`, `_`,
/// `!`, `+`, `'`).
fn word_start(text: &str, offset: usize) -> usize {
    text[..offset]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| c.is_alphanumeric() || matches!(c, '-' | '_' | '!' | '+' | '\''))
        .last()
        .map_or(offset, |(i, _)| i)
}

/// What completion needs of a request.
pub struct Request<'a> {
    pub text: &'a str,
    pub offset: usize,
    pub role: Role,
    pub encoding: Encoding,
}

/// The completions at the cursor; `words` are the pool's when the role
/// needs them.
pub fn complete(request: &Request<'_>, words: Option<&PoolIndex>) -> CompletionList {
    let Request {
        text, offset, role, ..
    } = *request;
    let offset = crate::diagnostics::char_floor(text, offset.min(text.len()));
    let mut found = Found::default();
    match role {
        Role::Set => set_file(text, offset, words, &mut found),
        Role::Japanese => glossary_terms(text, offset, &mut found),
        Role::Format => format_file(text, offset, words, &mut found),
        Role::Input { yaml } => player_input(text, offset, yaml, words, &mut found),
        Role::Other => {}
    }
    found.into_list(request)
}

/// Items found, each with the bytes it replaces.
#[derive(Default)]
struct Found {
    items: Vec<(CompletionItem, Range<usize>)>,
    incomplete: bool,
}

impl Found {
    fn add(
        &mut self,
        replaces: Range<usize>,
        label: &str,
        kind: CompletionItemKind,
        detail: Option<String>,
        docs: Option<String>,
    ) {
        self.add_as(replaces, label, label, kind, detail, docs);
    }

    fn add_as(
        &mut self,
        replaces: Range<usize>,
        label: &str,
        insert: &str,
        kind: CompletionItemKind,
        detail: Option<String>,
        docs: Option<String>,
    ) {
        let item = CompletionItem {
            label: label.to_string(),
            kind: Some(kind),
            detail,
            documentation: docs.map(Documentation::String),
            insert_text: Some(insert.to_string()),
            ..CompletionItem::default()
        };
        self.items.push((item, replaces));
    }

    fn into_list(self, request: &Request<'_>) -> CompletionList {
        let lines = LineIndex::new(request.text);
        let at = |offset| position(&lines, request.text, offset, request.encoding);
        let items = self
            .items
            .into_iter()
            .map(|(mut item, replaces)| {
                let new_text = item.insert_text.take().unwrap_or_default();
                item.text_edit = Some(CompletionTextEdit::Edit(TextEdit {
                    range: lsp_types::Range::new(at(replaces.start), at(replaces.end)),
                    new_text,
                }));
                item
            })
            .collect();
        CompletionList {
            is_incomplete: self.incomplete,
            items,
        }
    }
}

/// A set file: the schema's keys, its values, the pool's types, an
/// effect's timing words, keywords and symbols.
fn set_file(text: &str, offset: usize, words: Option<&PoolIndex>, found: &mut Found) {
    let replaces = word_start(text, offset)..offset;
    static SCHEMA: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    // Generated once: it is the same for every request.
    let schema = SCHEMA.get_or_init(set_schema);
    match place(text, offset) {
        Place::Key { path } | Place::Value { path }
            if path.last() == Some(&Step::Item)
                && path.iter().rev().nth(1) == Some(&Step::Key("types".into())) =>
        {
            types(words, replaces, found);
        }
        Place::Key { path } | Place::Value { path } => {
            let Some(node) = schema_at(schema, schema, &path) else {
                return;
            };
            let keys = resolve(schema, node)
                .get("properties")
                .and_then(Value::as_object);
            for (key, property) in keys.into_iter().flatten() {
                let docs = description(schema, property);
                found.add_as(
                    replaces.clone(),
                    key,
                    &format!("{key}: "),
                    CompletionItemKind::PROPERTY,
                    None,
                    docs,
                );
            }
            for (value, docs) in enum_values(schema, node) {
                found.add(
                    replaces.clone(),
                    &value,
                    CompletionItemKind::ENUM_MEMBER,
                    None,
                    docs,
                );
            }
        }
        Place::Text { path } if path.last() == Some(&Step::Key("effect".into())) => {
            effect_words(text, offset, words, found);
        }
        Place::Text { .. } => {}
    }
}

/// Inside an effect: at a line's start its timing words and keywords,
/// further on the elements and types an effect names.
fn effect_words(text: &str, offset: usize, words: Option<&PoolIndex>, found: &mut Found) {
    let replaces = word_start(text, offset)..offset;
    let before = &text[..replaces.start];
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    let opens_line = line.trim_end().is_empty()
        || line.trim_end().ends_with(['"', '\''])
        || line.trim_end().ends_with("effect:")
        || line.trim_end().ends_with("\\n");
    if opens_line {
        let glossary = Glossary::builtin();
        for timing in Timing::ALL {
            let word = timing.word();
            let ja = glossary
                .official_for(word)
                .map(|ja| format!("timing word · {ja}"));
            found.add(
                replaces.clone(),
                word,
                CompletionItemKind::KEYWORD,
                ja.or(Some("timing word".into())),
                None,
            );
        }
        let builtin = Keywords::builtin();
        let keywords = words.map_or(&builtin, PoolIndex::keywords);
        for keyword in keywords.iter() {
            let detail = format!("keyword · {}", keyword.name.ja);
            found.add(
                replaces.clone(),
                &keyword.name.en,
                CompletionItemKind::FUNCTION,
                Some(detail),
                Some(keyword.meaning.clone()),
            );
        }
        return;
    }
    for element in Element::ALL {
        found.add(
            replaces.clone(),
            element.as_str(),
            CompletionItemKind::ENUM_MEMBER,
            Some("element".into()),
            None,
        );
    }
    types(words, replaces, found);
}

/// The pool's types (the base types without a pool).
fn types(words: Option<&PoolIndex>, replaces: Range<usize>, found: &mut Found) {
    let types = words.map_or_else(|| BASE_TYPES.to_vec(), pool_types);
    for t in types {
        let detail = Some("type".to_string());
        found.add(
            replaces.clone(),
            t,
            CompletionItemKind::ENUM_MEMBER,
            detail,
            None,
        );
    }
}

/// A translation into Japanese: the glossary's official terms, the
/// English they translate as detail.
fn glossary_terms(text: &str, offset: usize, found: &mut Found) {
    if !matches!(
        place(text, offset),
        Place::Value { .. } | Place::Text { .. }
    ) {
        return;
    }
    let start = text[..offset]
        .char_indices()
        .rev()
        // Kana, kanji and `ー` are letters; Japanese punctuation is not.
        .take_while(|&(_, c)| !c.is_ascii() && c.is_alphabetic())
        .last()
        .map_or(offset, |(i, _)| i);
    for term in &Glossary::builtin().terms {
        let official = term.official();
        if !official.is_empty() {
            found.add(
                start..offset,
                official,
                CompletionItemKind::TEXT,
                Some(term.english().to_string()),
                None,
            );
        }
    }
}

/// A deck format: the ids a filter names (`card:`, `set:`, `type:`).
fn format_file(text: &str, offset: usize, words: Option<&PoolIndex>, found: &mut Found) {
    let (Place::Value { path }, Some(words)) = (place(text, offset), words) else {
        return;
    };
    let replaces = word_start(text, offset)..offset;
    let key = path.iter().rev().find_map(|step| match step {
        Step::Key(key) => Some(key.as_str()),
        Step::Item => None,
    });
    match key {
        Some("card") => cards(words, &text[replaces.clone()], replaces, true, false, found),
        Some("set") => {
            for set in words.sets() {
                found.add(
                    replaces.clone(),
                    set,
                    CompletionItemKind::MODULE,
                    Some("set".into()),
                    None,
                );
            }
        }
        Some("type") => types(Some(words), replaces, found),
        _ => {}
    }
}

/// A player's list: card names where a line (or a list's item) names a
/// card, after its count.
fn player_input(
    text: &str,
    offset: usize,
    yaml: bool,
    words: Option<&PoolIndex>,
    found: &mut Found,
) {
    let Some(words) = words else {
        return;
    };
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let mut start = line_start;
    if yaml {
        let (Place::Value { path } | Place::Key { path }) = place(text, offset) else {
            return;
        };
        let names_cards = path.last() == Some(&Step::Item)
            && path
                .iter()
                .any(|s| matches!(s, Step::Key(k) if k == "cards" || k == "zones"));
        if !names_cards {
            return;
        }
        start = word_start_of_item(text, line_start, offset);
    } else {
        let line = &text[line_start..offset];
        if line.trim_start().starts_with('#') || line.contains(':') {
            return;
        }
    }
    let start = after_count(text, start, offset);
    cards(
        words,
        &text[start..offset],
        start..offset,
        false,
        yaml,
        found,
    );
}

/// Where a flow or block sequence's item being typed starts on its line.
fn word_start_of_item(text: &str, line_start: usize, offset: usize) -> usize {
    let line = &text[line_start..offset];
    let cut = line.rfind(['[', ',']).map(|i| i + 1);
    let start = cut.unwrap_or_else(|| line_shape(line).1);
    line_start + start + (line[start..].len() - line[start..].trim_start().len())
}

/// Past a count written before a name (`2 `, `2x `, `2 x `).
fn after_count(text: &str, start: usize, offset: usize) -> usize {
    let written = &text[start..offset];
    let trimmed = written.trim_start();
    let digits = trimmed.len()
        - trimmed
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .len();
    if digits == 0 {
        return start + written.len() - trimmed.len();
    }
    let rest = &trimmed[digits..];
    let rest = rest.strip_prefix(['x', 'X']).unwrap_or(rest);
    if !rest.starts_with(' ') {
        return start + written.len() - trimmed.len();
    }
    offset - rest.trim_start().len()
}

/// The cards whose name (or id) starts with what is typed, or has a word
/// that does; at most [`MAX_CARDS`], the first in order.
fn cards(
    words: &PoolIndex,
    typed: &str,
    replaces: Range<usize>,
    by_id: bool,
    quote: bool,
    found: &mut Found,
) {
    let typed = typed.to_lowercase();
    let matches = |card: &Defined| {
        let key = matched(card, by_id);
        key.starts_with(&typed) || key.split([' ', '-']).any(|w| w.starts_with(&typed))
    };
    let order = |a: &&Defined, b: &&Defined| shown(a, by_id).cmp(shown(b, by_id));
    let mut chosen: Vec<&Defined> = words.cards().filter(|c| matches(c)).collect();
    if chosen.len() > MAX_CARDS {
        // The first hundred in order, without sorting them all.
        chosen.select_nth_unstable_by(MAX_CARDS, order);
        chosen.truncate(MAX_CARDS);
        found.incomplete = true;
    }
    chosen.sort_by(order);
    chosen.dedup_by(|a, b| shown(a, by_id) == shown(b, by_id));
    for card in chosen {
        let label = shown(card, by_id);
        let insert = match quote && !yaml::plain_safe(label) {
            true => yaml::double_quoted(label),
            false => label.to_string(),
        };
        let mut detail = detail(card);
        if label != card.id {
            detail = format!("{} · {detail}", card.id);
        }
        found.add_as(
            replaces.clone(),
            label,
            &insert,
            CompletionItemKind::VALUE,
            Some(detail),
            None,
        );
    }
}

/// The schema of what lies at `path` in a set file: properties followed
/// through `$ref`s, items through `items`.
fn schema_at<'a>(root: &'a Value, node: &'a Value, path: &[Step]) -> Option<&'a Value> {
    let node = resolve(root, node);
    let Some((step, rest)) = path.split_first() else {
        return Some(node);
    };
    let next = match step {
        Step::Key(key) => node.get("properties")?.get(key)?,
        Step::Item => node.get("items")?,
    };
    schema_at(root, next, rest)
}

/// A schema with its `$ref` followed and, of an `anyOf`, the first choice
/// that is not `null`.
fn resolve<'a>(root: &'a Value, node: &'a Value) -> &'a Value {
    if let Some(reference) = node.get("$ref").and_then(Value::as_str)
        && let Some(target) = root.pointer(reference.trim_start_matches('#'))
    {
        return resolve(root, target);
    }
    if let Some(choices) = node.get("anyOf").and_then(Value::as_array)
        && let Some(choice) = choices
            .iter()
            .find(|c| c.get("type") != Some(&Value::from("null")))
    {
        return resolve(root, choice);
    }
    node
}

/// A property's description, else its type's.
fn description(root: &Value, property: &Value) -> Option<String> {
    property
        .get("description")
        .or_else(|| resolve(root, property).get("description"))
        .and_then(Value::as_str)
        .map(str::to_string)
}

/// The values an `enum` allows, each with its description when the schema
/// gives one (`oneOf` of `const`s).
fn enum_values(root: &Value, node: &Value) -> Vec<(String, Option<String>)> {
    let node = resolve(root, node);
    if let Some(values) = node.get("enum").and_then(Value::as_array) {
        return values
            .iter()
            .filter_map(|v| Some((v.as_str()?.to_string(), None)))
            .collect();
    }
    node.get("oneOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|choice| {
            let value = choice.get("const").and_then(Value::as_str)?;
            Some((value.to_string(), description(root, choice)))
        })
        .collect()
}

/// Whether completion in `role` needs the pool's words.
pub fn needs_words(role: Role) -> bool {
    !matches!(role, Role::Japanese | Role::Other)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::Output;
    use crate::pool::Pool;
    use std::path::Path;
    use std::sync::Arc;

    fn key(k: &str) -> Step {
        Step::Key(k.to_string())
    }

    /// The place at `§` in `text`.
    fn at(text: &str) -> Place {
        let offset = text.find('§').expect("a cursor");
        place(&text.replace('§', ""), offset)
    }

    #[test]
    fn a_card_is_listed_with_its_star_unless_its_kind_has_none() {
        let card = |kind: &str, stars: Option<i64>| Defined {
            id: "x".into(),
            name: Some("X".into()),
            path: Arc::from("s.yaml"),
            entry: 0..0,
            id_span: 0..0,
            kind: Some(kind.into()),
            stars,
            set: Some(Arc::from("s")),
            lowered: "x".into(),
        };
        assert_eq!(detail(&card("single", Some(3))), "single · 3 STAR · s");
        assert_eq!(detail(&card("single", None)), "single · ? STAR · s");
        assert_eq!(detail(&card("venue", None)), "venue · s");
        assert_eq!(detail(&card("character", None)), "character · s");
    }

    #[test]
    fn the_place_is_read_from_the_lines_above() {
        let card = "id: s\ncards:\n  - id: a\n    name: A\n";
        assert_eq!(at("id: s\nna§"), Place::Key { path: vec![] });
        assert_eq!(
            at(&format!("{card}    ki§")),
            Place::Key {
                path: vec![key("cards"), Step::Item]
            }
        );
        assert_eq!(
            at(&format!("{card}  - ki§")),
            Place::Key {
                path: vec![key("cards"), Step::Item]
            }
        );
        assert_eq!(
            at(&format!("{card}    kind: si§")),
            Place::Value {
                path: vec![key("cards"), Step::Item, key("kind")]
            }
        );
        assert_eq!(
            at(&format!("{card}    elements: [fire, wa§")),
            Place::Value {
                path: vec![key("cards"), Step::Item, key("elements"), Step::Item]
            }
        );
        // An item may be a mapping's first key or a scalar: the schema says.
        assert_eq!(
            at(&format!("{card}    elements:\n      - fire\n      - wa§")),
            Place::Key {
                path: vec![key("cards"), Step::Item, key("elements"), Step::Item]
            }
        );
        assert_eq!(
            at(&format!("{card}    effect: |\n      Scurry.\n      Pl§")),
            Place::Text {
                path: vec![key("cards"), Step::Item, key("effect")]
            }
        );
        assert_eq!(
            at(&format!("{card}    effect: \"Play: Gain 2 RP. §")),
            Place::Text {
                path: vec![key("cards"), Step::Item, key("effect")]
            }
        );
        assert_eq!(
            at("cards:\n  - {id: b, name: 竜🐉, kind: si§"),
            Place::Value {
                path: vec![key("cards"), Step::Item, key("kind")]
            }
        );
        assert_eq!(
            at("cards:\n  - {id: b, ty§"),
            Place::Key {
                path: vec![key("cards"), Step::Item]
            }
        );
    }

    #[test]
    fn a_count_before_a_name_is_passed_over() {
        for (line, rest) in [
            ("7x Lan", "Lan"),
            ("2 Lan", "Lan"),
            ("Lan", "Lan"),
            ("  3x Lan", "Lan"),
            ("12", "12"),
        ] {
            assert_eq!(&line[after_count(line, 0, line.len())..], rest, "{line}");
        }
    }

    proptest::proptest! {
        /// Any text, any cursor, any role: an answer, never a panic.
        #[test]
        fn any_text_completes_without_failing(
            text in "(id: s\ncards:\n|  - |    |\\{|\\[|, |: |\"|'|#|竜|🐉|\\||effect|kind|types|[a-z]| |\n|\r){0,40}",
            cursor in 0usize..200,
        ) {
            static WORDS: std::sync::LazyLock<PoolIndex> = std::sync::LazyLock::new(|| {
                PoolIndex::of(Path::new(""), Arc::new(Pool::builtin()), Output::None)
            });
            let words = &*WORDS;
            for role in [Role::Set, Role::Japanese, Role::Format, Role::Input { yaml: true }, Role::Input { yaml: false }] {
                let request = Request { text: &text, offset: cursor, role, encoding: Encoding::Utf16 };
                complete(&request, Some(words));
            }
        }
    }

    #[test]
    fn a_long_list_of_cards_is_the_first_hundred_and_says_it_is_incomplete() {
        let mut set = String::from("id: s\ncards:\n");
        for n in (0..150).rev() {
            set.push_str(&format!("  - {{id: c{n:03}, name: Card {n:03}}}\n"));
        }
        let mut pool = Pool::default();
        pool.overlay("s.yaml", Arc::from(set));
        let words = PoolIndex::of(Path::new(""), Arc::new(pool), Output::None);
        let text = "7x ca";
        let request = Request {
            text,
            offset: text.len(),
            role: Role::Input { yaml: false },
            encoding: Encoding::Utf8,
        };
        let list = complete(&request, Some(&words));
        assert!(list.is_incomplete);
        let labels: Vec<String> = list.items.iter().map(|i| i.label.clone()).collect();
        let want: Vec<String> = (0..100).map(|n| format!("Card {n:03}")).collect();
        assert_eq!(labels, want);
        // A word inside the name matches too; few enough is complete.
        let text = "14";
        let request = Request {
            text,
            offset: 2,
            ..request
        };
        let list = complete(&request, Some(&words));
        assert!(!list.is_incomplete);
        let labels: Vec<String> = list.items.iter().map(|i| i.label.clone()).collect();
        assert_eq!(
            labels,
            (140..150).map(|n| format!("Card {n}")).collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_files_role_is_read_from_its_path() {
        assert_eq!(Role::of("tin-town.yaml", true, ""), Role::Set);
        assert_eq!(
            Role::of("deck.yaml", false, "cards: [a]\n"),
            Role::Input { yaml: true }
        );
        assert_eq!(Role::of("deck.txt", false, ""), Role::Input { yaml: false });
        assert_eq!(Role::of("set.yaml", false, "id: s\ncards: []\n"), Role::Set);
        assert_eq!(
            Role::of("locales/ja/tin-town.yaml", true, ""),
            Role::Japanese
        );
        assert_eq!(Role::of("formats/cube.yaml", true, ""), Role::Format);
        assert_eq!(Role::of("keywords.yaml", true, ""), Role::Other);
    }
}
