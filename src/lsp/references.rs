//! Every place a workspace names a card: its set file's `id:` and
//! `name:`, the locale files' keys, the formats' `card:` lists and the
//! player inputs' lines, each read with the unsaved text of an open
//! document over the file on disk.
//!
//! Player inputs are the files of the workspace folder outside the pool
//! that a check reads (`*.txt`, `*.text`, `*.list`, `*.deck`, `*.yaml`,
//! `*.yml`), found to a few folders deep, skipping hidden folders and
//! the commands' outputs (`dist/`, `target/`), and any open document
//! that is such an input.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::index::{CardKey, PoolIndex, place_of};
use super::locate::{CardRef, Naming, Place, card_refs};
use super::session::Session;

/// How deep the workspace folder is searched for player inputs, and how
/// many files at most (a home folder opened as a workspace stays cheap).
const INPUT_DEPTH: usize = 4;
const INPUT_FILES: usize = 10_000;

/// A card named in a file.
#[derive(Debug, Clone)]
pub struct Reference {
    pub path: Arc<str>,
    pub text: Arc<str>,
    /// The bytes of the name as written.
    pub span: Range<usize>,
    pub naming: Naming,
    pub written: String,
}

impl Reference {
    /// The card's own entry (its `id:` and `name:`), not a use of it.
    pub fn is_declaration(&self) -> bool {
        matches!(self.naming, Naming::Definition | Naming::Name)
    }
}

/// Every place the workspace names the card `card` of `index`, the pool's
/// files first, in a stable order.
pub fn of_card(
    session: &Session,
    index: &PoolIndex,
    workspace: &Path,
    card: CardKey,
) -> Vec<Reference> {
    let mut found = Vec::new();
    let mut keep = |path: &Arc<str>, text: &Arc<str>, refs: &[CardRef]| {
        for reference in refs {
            if let Some((i, span)) = index.resolve(reference)
                && i == card
            {
                found.push(Reference {
                    path: path.clone(),
                    text: text.clone(),
                    span,
                    naming: reference.naming,
                    written: reference.written.clone(),
                });
            }
        }
    };
    for file in index.pool_refs() {
        keep(&file.path, &file.text, &file.refs);
    }
    for path in inputs(session, workspace, &index.dir) {
        let Some(text) = session.text(&path) else {
            continue;
        };
        let shown: Arc<str> = Arc::from(path.to_string_lossy());
        let refs = card_refs(&Place::Input, &shown, &text);
        keep(&shown, &text, &refs);
    }
    found
}

/// The player inputs of the pool in `dir`: files of the workspace folder
/// outside the pool, and open documents that are inputs of it.
fn inputs(session: &Session, workspace: &Path, dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    if dir != workspace && workspace.is_dir() {
        walk(workspace, dir, 0, &mut found);
    }
    for document in session.open.values() {
        let (pool, place) = place_of(session.root, &document.path);
        if place == Place::Input && pool == dir && !found.contains(&document.path) {
            found.push(document.path.clone());
        }
    }
    found.sort();
    found
}

fn walk(folder: &Path, pool: &Path, depth: usize, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        if found.len() >= INPUT_FILES {
            return;
        }
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if name.starts_with('.') || path == pool {
            continue;
        }
        if kind.is_dir() {
            if depth + 1 < INPUT_DEPTH
                && !matches!(name.as_str(), "dist" | "target" | "node_modules")
            {
                walk(&path, pool, depth + 1, found);
            }
        } else if kind.is_file() && is_input_name(&name) {
            found.push(path);
        }
    }
}

/// A file name the player checks read.
fn is_input_name(name: &str) -> bool {
    let extension = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    matches!(
        extension.as_deref(),
        Some("txt" | "text" | "list" | "deck" | "yaml" | "yml")
    )
}
