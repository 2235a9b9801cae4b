//! What every request about the cursor needs of the server (the
//! workspace folder, the open documents, the position encoding), and what
//! it found under the cursor.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_types::{Location, Range as LspRange};

use super::check::{Document, uri_of};
use super::index::PoolIndex;
use super::locate::{Found, Place};
use super::position::{Encoding, position};
use crate::diagnostics::LineIndex;

/// What every request needs of the server: the workspace folder, the open
/// documents, the position encoding.
pub struct Session<'a> {
    pub root: Option<&'a Path>,
    pub open: &'a HashMap<String, Document>,
    pub encoding: Encoding,
    /// The client tells of every change to the pools' files on disk.
    pub watched: bool,
}

impl Session<'_> {
    /// A document's text: unsaved when it is open, else as on disk.
    pub fn text(&self, path: &Path) -> Option<Arc<str>> {
        match self.open.values().find(|d| d.path == path) {
            Some(document) => Some(document.text.clone()),
            None => std::fs::read_to_string(path).ok().map(Arc::from),
        }
    }

    /// The folder the commands' outputs are looked for in.
    pub fn workspace(&self, dir: &Path) -> PathBuf {
        self.root
            .map(Path::to_path_buf)
            .or_else(|| dir.parent().map(Path::to_path_buf))
            .unwrap_or_default()
    }

    /// A span of a text as the protocol's range.
    pub fn range(&self, text: &str, span: &Range<usize>) -> LspRange {
        let lines = LineIndex::new(text);
        LspRange::new(
            position(&lines, text, span.start, self.encoding),
            position(&lines, text, span.end, self.encoding),
        )
    }

    /// A span of a file as the protocol's location.
    pub fn location(&self, path: &str, text: &str, span: &Range<usize>) -> Option<Location> {
        Some(Location::new(
            uri_of(Path::new(path))?,
            self.range(text, span),
        ))
    }
}

/// What is under the cursor, in its document and pool.
pub struct AtCursor<'a> {
    pub found: Found,
    pub index: &'a PoolIndex,
    pub path: PathBuf,
    pub text: Arc<str>,
    pub place: Place,
}
