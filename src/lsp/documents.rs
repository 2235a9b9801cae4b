//! The documents an editor has open, and where each lies in a pool: the
//! one answer the check, the cursor's index and completion share (below
//! them all, so none of them imports another for it).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_types::Uri;

/// A file the editor has open, with its unsaved text.
#[derive(Debug, Clone)]
pub struct Document {
    pub uri: Uri,
    pub path: PathBuf,
    pub text: Arc<str>,
}

/// `path` within the pool folder `dir`, with `/` separators (none: the
/// file is outside it).
pub fn relative_in(dir: &Path, path: &Path) -> Option<String> {
    let relative = path.strip_prefix(dir).ok()?;
    Some(relative.to_string_lossy().replace('\\', "/"))
}

/// The open documents under the pool folder `dir`, each with its path
/// within the pool: what is laid over the pool's files on disk.
pub fn open_in<'a>(
    dir: &Path,
    open: impl IntoIterator<Item = &'a Document>,
) -> Vec<(String, &'a Document)> {
    open.into_iter()
        .filter_map(|document| Some((relative_in(dir, &document.path)?, document)))
        .collect()
}

/// The pool a player's input names cards of: the workspace's `cards/`,
/// else (`None`) the built-in pool: the rule every command uses run in the
/// workspace folder.
pub fn input_pool(root: Option<&Path>) -> Option<PathBuf> {
    root.map(|r| r.join(crate::pool::FOUND_FOLDER))
        .filter(|cards| cards.is_dir())
}

/// A YAML file with `id:` or `kind:` at its top level declares a set (a
/// file outside any pool's folder is read as a set file, not an input).
pub fn declares_a_set(text: &str) -> bool {
    text.lines()
        .any(|l| l.starts_with("id:") || l.starts_with("kind:"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_documents_place_in_its_pool_has_slashes_and_outside_it_none() {
        let dir = Path::new("/w/cards");
        assert_eq!(
            relative_in(dir, Path::new("/w/cards/more/set.yaml")).as_deref(),
            Some("more/set.yaml")
        );
        assert_eq!(relative_in(dir, Path::new("/w/deck.txt")), None);
        assert_eq!(relative_in(dir, Path::new("/w/cards-old/set.yaml")), None);
    }
}
