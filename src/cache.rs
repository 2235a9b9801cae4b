//! The incremental build cache: each set file's result (its readable cards
//! with their spans, and its own findings), keyed by the file's path and a
//! hash of its content, for one build of the tool. Stored as one file beside
//! the database output; deleting it only costs a full build.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::compile::FileResult;

/// Identity of the code that produced a cache; a cache from any other build
/// is ignored.
pub const BUILD_ID: &str = concat!(env!("CARGO_PKG_VERSION"), "+", env!("BLADES_BUILD_ID"));

/// Hash of a file's content.
pub fn content_hash(text: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(text.as_bytes())
}

#[derive(Serialize, Deserialize)]
struct Stored {
    build: String,
    entries: HashMap<String, Entry>,
}

#[derive(Serialize)]
struct StoredRef<'a> {
    build: &'a str,
    entries: &'a HashMap<String, Entry>,
}

#[derive(Clone, Serialize, Deserialize)]
struct Entry {
    hash: u64,
    result: FileResult,
}

/// Per-file results of earlier builds.
pub struct Cache {
    path: PathBuf,
    entries: HashMap<String, Entry>,
    /// Results of this build, which replace the old ones on save.
    fresh: HashMap<String, Entry>,
}

impl Cache {
    /// The cache file for a database written to `out`.
    pub fn beside(out: &Path) -> PathBuf {
        let dir = out
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        dir.join(".blades-cache.json")
    }

    /// Opens a cache; a missing, unreadable or foreign one is empty.
    pub fn open(path: &Path) -> Cache {
        let entries = std::fs::read(path)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<Stored>(&bytes).ok())
            .filter(|stored| stored.build == BUILD_ID)
            .map(|stored| stored.entries)
            .unwrap_or_default();
        Cache {
            path: path.to_path_buf(),
            entries,
            fresh: HashMap::new(),
        }
    }

    /// The result cached for this file content, if any.
    pub fn get(&self, path: &str, hash: u64) -> Option<&FileResult> {
        self.entries
            .get(path)
            .filter(|e| e.hash == hash)
            .map(|e| &e.result)
    }

    /// Records this build's result for a file.
    pub fn put(&mut self, path: &str, hash: u64, result: FileResult) {
        self.fresh.insert(path.to_string(), Entry { hash, result });
    }

    /// Ends a build in memory only: its results become the cache (for
    /// `--watch`, which keeps results of failed builds too).
    pub fn commit(&mut self) {
        self.entries = std::mem::take(&mut self.fresh);
    }

    /// Ends a build: this build's results become the cache (files not in
    /// this build are dropped), and are written to disk.
    pub fn save(&mut self) -> std::io::Result<()> {
        self.commit();
        let stored = StoredRef {
            build: BUILD_ID,
            entries: &self.entries,
        };
        crate::output::write_atomic_with(&self.path, |out| {
            serde_json::to_writer(out, &stored).map_err(std::io::Error::other)
        })
    }
}
