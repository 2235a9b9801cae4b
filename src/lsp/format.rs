//! `textDocument/formatting`: a document as `blades fmt` would write it,
//! as the few text edits that make it so.

use std::path::Path;
use std::sync::Arc;

use lsp_types::{Range, TextEdit};

use super::position::{Encoding, position};
use crate::diagnostics::LineIndex;
use crate::fmt::format_pool;
use crate::pool::Pool;

/// The edits that put the document at `relative` (a path within its pool
/// at `dir`) in canonical form: one per effect `fmt` rewrites, none when it
/// is so already, when it is not a set file, or when `fmt` would refuse to
/// rewrite it (an effect that does not parse).
pub fn format_document(
    dir: &Path,
    relative: &str,
    text: &str,
    encoding: Encoding,
) -> Vec<TextEdit> {
    // The document as a pool of one file: the pool's own rule says whether
    // it is a set file, and `fmt`'s own function formats it.
    let mut pool = Pool {
        root: Some(dir.to_path_buf()),
        ..Pool::default()
    };
    pool.overlay(relative, Arc::from(text));
    let formatted = format_pool(&pool);
    if formatted.blocked() {
        return Vec::new();
    }
    let lines = LineIndex::new(text);
    formatted
        .rewrites
        .iter()
        .flat_map(|rewrite| &rewrite.changes)
        .map(|change| TextEdit {
            range: Range::new(
                position(&lines, text, change.span.start, encoding),
                position(&lines, text, change.span.end, encoding),
            ),
            new_text: change.replacement.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edits(relative: &str, text: &str) -> Vec<TextEdit> {
        format_document(Path::new("/pool"), relative, text, Encoding::Utf16)
    }

    #[test]
    fn one_edit_per_effect_rewritten_after_cjk_and_an_emoji() {
        let text = "id: s\ncards:\n  - {id: a, name: 竜🐉, effect: \"play:  gain 2 rp.\"}\n";
        let found = edits("s.yaml", text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].new_text, "\"Play: Gain 2 RP.\"");
        // `竜` is one UTF-16 unit (three bytes), `🐉` two (four bytes).
        assert_eq!(found[0].range.start, lsp_types::Position::new(2, 31));
        let utf8 = format_document(Path::new("/pool"), "s.yaml", text, Encoding::Utf8);
        assert_eq!(utf8[0].range.start, lsp_types::Position::new(2, 35));
    }

    #[test]
    fn nothing_for_formatted_text_data_files_and_syntax_errors() {
        assert_eq!(
            edits(
                "s.yaml",
                "id: s\ncards:\n  - {id: a, effect: \"Play: Gain 2 RP.\"}\n"
            ),
            []
        );
        let unformatted = "id: s\ncards:\n  - {id: a, effect: \"play: gain 2 rp.\"}\n";
        assert_eq!(edits("keywords.yaml", unformatted), []);
        assert_eq!(edits("s.txt", unformatted), []);
        let broken = "id: s\ncards:\n  - {id: a, effect: \"play: gain 2 rp.\"}\n  - {id: b, effect: \"Play: Gian 2 RP.\"}\n";
        assert_eq!(edits("s.yaml", broken), []);
        assert_eq!(edits("s.yaml", "cards: [\n"), []);
    }
}
