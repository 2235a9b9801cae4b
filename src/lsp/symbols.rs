//! Document symbols: a set file's set and its cards, each with its range,
//! for an editor's outline and "go to symbol".

use lsp_types::{DocumentSymbol, Range, SymbolKind};

use super::position::{Encoding, position};
use crate::diagnostics::LineIndex;
use crate::yaml::{self, Node};

/// The set a set file's text declares, its cards inside it; nothing for
/// a text that is not a set file (or not YAML yet, while it is typed).
pub fn document_symbols(text: &str, encoding: Encoding) -> Vec<DocumentSymbol> {
    let Ok(doc) = yaml::parse(text) else {
        return Vec::new();
    };
    let Some(cards) = doc.get("cards").and_then(Node::as_seq) else {
        return Vec::new();
    };
    let lines = LineIndex::new(text);
    let range = |span: &std::ops::Range<usize>| {
        Range::new(
            position(&lines, text, span.start, encoding),
            position(&lines, text, span.end, encoding),
        )
    };
    let children = cards
        .iter()
        .enumerate()
        .map(|(i, card)| {
            let id = card.get("id").and_then(Node::as_str);
            let name = card.get("name").and_then(Node::as_str).or(id);
            let chosen = card.get("name").or_else(|| card.get("id")).unwrap_or(card);
            symbol(
                name.map_or_else(|| format!("card {}", i + 1), str::to_string),
                id,
                SymbolKind::OBJECT,
                range(&card.span),
                range(&chosen.span),
                None,
            )
        })
        .collect();
    let id = doc.get("id").and_then(Node::as_str);
    let name = doc
        .get("name")
        .and_then(Node::as_str)
        .or(id)
        .unwrap_or("set");
    let chosen = doc.get("id").unwrap_or(&doc);
    vec![symbol(
        name.to_string(),
        id,
        SymbolKind::NAMESPACE,
        range(&(0..text.len())),
        range(&chosen.span),
        Some(children),
    )]
}

fn symbol(
    name: String,
    id: Option<&str>,
    kind: SymbolKind,
    range: Range,
    selection_range: Range,
    children: Option<Vec<DocumentSymbol>>,
) -> DocumentSymbol {
    // `deprecated` is the protocol's old field; `tags` replaced it.
    #[allow(deprecated)]
    DocumentSymbol {
        // An editor refuses an empty name.
        name: if name.is_empty() {
            "…".to_string()
        } else {
            name
        },
        detail: id.map(str::to_string),
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range,
        children,
    }
}
