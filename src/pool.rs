//! Finding and reading the files of a card pool: the built-in one compiled
//! into the binary, or a folder on disk (`--cards DIR`).
//!
//! A pool is every `*.yaml`/`*.yml` file under the folder, at any depth.
//! Data files that are not sets (keywords, phrase templates, locales) are
//! recognised by name so they are never mistaken for sets; see
//! [`is_data_file`].

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::diagnostics::{Code, Diagnostic};

mod builtin {
    include!(concat!(env!("OUT_DIR"), "/builtin_pool.rs"));
}

/// A file larger than this is refused (the largest real set file is a few
/// kilobytes; a 100,000-card pool in 2,000 files averages 40 KB a file).
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;
/// Folders nested deeper than this are not searched.
const MAX_DIR_DEPTH: usize = 32;

/// One text file of a pool.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The path as shown to the user.
    pub path: Arc<str>,
    /// Path relative to the pool root, with `/` separators.
    pub relative: String,
    pub text: Arc<str>,
}

/// The files of a pool, split into set files and data files.
#[derive(Debug, Clone, Default)]
pub struct Pool {
    pub sets: Vec<SourceFile>,
    pub data: Vec<SourceFile>,
    /// Files that could not be read as text (located diagnostics).
    pub problems: Vec<Diagnostic>,
    /// Best-effort text of files that are not valid UTF-8, so their
    /// diagnostics can still show the lines before the bad byte.
    pub lossy: Vec<SourceFile>,
}

/// Why a pool could not be read at all (exit code 2).
#[derive(Debug)]
pub enum PoolError {
    NotADirectory(PathBuf),
    Unreadable(PathBuf, std::io::Error),
    NoSets(PathBuf),
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PoolError::NotADirectory(p) => {
                write!(f, "`{}` is not a folder of card sets", p.display())
            }
            PoolError::Unreadable(p, e) => write!(f, "cannot read `{}`: {e}", p.display()),
            PoolError::NoSets(p) => write!(
                f,
                "`{}` holds no set files (`*.yaml` files outside `locales/` and `phrases/`)",
                p.display()
            ),
        }
    }
}

impl std::error::Error for PoolError {}

/// Is this pool file data rather than a set? Reserved: `keywords.yaml`,
/// `characters.yaml`, `glossary.yaml`, anything under a `locales/` or
/// `phrases/` folder, and names starting with `_`.
pub fn is_data_file(relative: &str) -> bool {
    let mut parts = relative.split('/');
    let name = parts.next_back().unwrap_or_default();
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    parts.any(|dir| dir == "locales" || dir == "phrases")
        || matches!(stem, "keywords" | "characters" | "glossary")
        || name.starts_with('_')
}

impl Pool {
    /// The built-in pool shipped inside the binary.
    pub fn builtin() -> Pool {
        let mut pool = Pool::default();
        for (relative, text) in builtin::BUILTIN_FILES {
            pool.add(SourceFile {
                path: Arc::from(format!("cards/{relative}")),
                relative: (*relative).to_string(),
                text: Arc::from(*text),
            });
        }
        pool
    }

    /// Every YAML file under `dir`, at any depth, in a stable order.
    pub fn from_dir(dir: &Path) -> Result<Pool, PoolError> {
        let meta = fs::metadata(dir).map_err(|e| PoolError::Unreadable(dir.to_path_buf(), e))?;
        if !meta.is_dir() {
            return Err(PoolError::NotADirectory(dir.to_path_buf()));
        }
        let mut paths = Vec::new();
        walk(dir, 0, &mut paths).map_err(|e| PoolError::Unreadable(dir.to_path_buf(), e))?;
        paths.sort();
        // Files are read in parallel, then taken in path order.
        let read: Vec<_> = paths
            .par_iter()
            .map(|path| {
                let shown: Arc<str> = Arc::from(path.display().to_string());
                let text = read_text(path, &shown);
                (shown, text)
            })
            .collect();
        let mut pool = Pool::default();
        for (path, (shown, text)) in paths.into_iter().zip(read) {
            let relative = path
                .strip_prefix(dir)
                .unwrap_or(&path)
                .to_string_lossy()
                .replace('\\', "/");
            match text {
                Ok(text) => pool.add(SourceFile {
                    path: shown,
                    relative,
                    text,
                }),
                Err(diagnostic) => {
                    if let Ok(bytes) =
                        fs::read(&path).map(|b| String::from_utf8_lossy(&b).into_owned())
                        && diagnostic.code == Code::NotUtf8
                    {
                        pool.lossy.push(SourceFile {
                            path: shown.clone(),
                            relative,
                            text: Arc::from(bytes),
                        });
                    }
                    pool.problems.push(*diagnostic);
                }
            }
        }
        if pool.sets.is_empty() && pool.problems.is_empty() {
            return Err(PoolError::NoSets(dir.to_path_buf()));
        }
        Ok(pool)
    }

    fn add(&mut self, file: SourceFile) {
        if is_data_file(&file.relative) {
            self.data.push(file);
        } else {
            self.sets.push(file);
        }
    }

    /// A data file by its path relative to the pool root.
    pub fn data_file(&self, relative: &str) -> Option<&SourceFile> {
        self.data.iter().find(|f| f.relative == relative)
    }
}

fn walk(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if depth > MAX_DIR_DEPTH {
        return Ok(());
    }
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        // `file_type` does not follow links, so a linked folder cannot loop.
        let kind = entry.file_type()?;
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        if kind.is_dir() {
            walk(&path, depth + 1, out)?;
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml")
        ) {
            out.push(path);
        }
    }
    Ok(())
}

/// Reads a file as UTF-8 text within the size limit.
pub fn read_text(path: &Path, shown: &Arc<str>) -> Result<Arc<str>, Box<Diagnostic>> {
    let unreadable = |e: std::io::Error| {
        Box::new(
            Diagnostic::error(
                Code::Unreadable,
                shown,
                0..0,
                format!("cannot read this file: {e}"),
            )
            .with_label("unreadable")
            .with_help("check that the file exists and that you may read it"),
        )
    };
    // One open, then the size from the open file: a path lookup less per
    // file (thousands in a large pool), and a file that grows after the
    // check is still read only up to the limit.
    let file = fs::File::open(path).map_err(unreadable)?;
    let meta = file.metadata().map_err(unreadable)?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(Box::new(
            Diagnostic::error(
                Code::FileTooLarge,
                shown,
                0..0,
                format!(
                    "this file is {} MiB; the limit is {} MiB",
                    meta.len() / (1024 * 1024),
                    MAX_FILE_BYTES / (1024 * 1024)
                ),
            )
            .with_label("too large")
            .with_help("split the cards into several set files"),
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize + 1);
    std::io::Read::read_to_end(
        &mut std::io::Read::take(file, MAX_FILE_BYTES + 1),
        &mut bytes,
    )
    .map_err(unreadable)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(unreadable(std::io::Error::other(
            "it grew past the size limit while being read",
        )));
    }
    text_from_bytes(bytes, shown)
}

/// UTF-8 text from bytes, or a diagnostic at the first invalid byte.
pub fn text_from_bytes(bytes: Vec<u8>, shown: &Arc<str>) -> Result<Arc<str>, Box<Diagnostic>> {
    let bytes = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    String::from_utf8(bytes).map(Arc::from).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        Box::new(
            Diagnostic::error(
                Code::NotUtf8,
                shown,
                at..at,
                format!("byte {at} is not valid UTF-8"),
            )
            .with_label("invalid UTF-8 starts here")
            .with_help("save the file as UTF-8 text"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_files_are_recognised() {
        assert!(is_data_file("keywords.yaml"));
        assert!(is_data_file("locales/ja/sunset-gulch.yaml"));
        assert!(is_data_file("phrases/en.yaml"));
        assert!(is_data_file("_draft.yaml"));
        assert!(!is_data_file("sunset-gulch.yaml"));
        assert!(!is_data_file("promos/gold.yaml"));
    }

    #[test]
    fn invalid_utf8_is_located() {
        let err =
            text_from_bytes(b"id: ok\nname: \xff\n".to_vec(), &Arc::from("x.yaml")).unwrap_err();
        assert_eq!(err.code, Code::NotUtf8);
        assert_eq!(err.span, 13..13);
    }
}
