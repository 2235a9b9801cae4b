//! A pool as the cursor's requests see it (hover, definition, references,
//! rename): its files with the editor's unsaved texts laid over them,
//! where each card is defined, every name a reader may write for it, and,
//! asked for once, its vocabulary and built database.
//!
//! An index is made when a request needs it and kept until a document of
//! its pool is opened, changed or closed (the [`Indexes`] key is the open
//! texts), so hovering over a large pool costs a lookup, not a build.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use super::check::{Document, pool_dir};
use super::locate::{CardRef, Naming, Place, card_refs};
use crate::cards::{NameIndex, NameSource};
use crate::compile::{PoolVocabulary, compile, read_vocabulary};
use crate::model::Database;
use crate::pool::{FOUND_FOLDER, Pool, SourceFile};
use crate::workspace::{LivePool, database_made};
use crate::yaml::{self, Node, NodeValue};

/// Where a card is defined: its entry in a set file.
#[derive(Debug, Clone)]
pub struct Defined {
    pub id: String,
    pub name: Option<String>,
    /// The set file (its path as the pool names it: absolute).
    pub path: Arc<str>,
    /// The card's whole entry, and its `id:` value.
    pub entry: Range<usize>,
    pub id_span: Range<usize>,
}

/// One pool, read for the cursor's requests.
pub struct PoolIndex {
    pub dir: PathBuf,
    pub pool: Pool,
    pub cards: Vec<Defined>,
    names: NameIndex,
    vocabulary: OnceLock<PoolVocabulary>,
    database: OnceLock<Option<Arc<Database>>>,
    refs: OnceLock<Vec<FileRefs>>,
    /// The database of an earlier index of this pool, shown while the
    /// pool does not build (a card being typed).
    earlier: Option<Arc<Database>>,
}

impl PoolIndex {
    /// The pool in `dir` (as much of it as can be read) with the open
    /// documents under it laid over their files.
    pub fn read<'a>(dir: &Path, open: impl IntoIterator<Item = &'a Document>) -> PoolIndex {
        let mut pool = Pool::from_dir(dir).unwrap_or_else(|_| Pool {
            root: Some(dir.to_path_buf()),
            ..Pool::default()
        });
        for document in open {
            if let Some(relative) = relative_in(dir, &document.path) {
                pool.overlay(&relative, document.text.clone());
            }
        }
        let mut cards = Vec::new();
        let mut names = NameIndex::new();
        for file in &pool.sets {
            defined_in(file, &mut cards);
        }
        for (i, card) in cards.iter().enumerate() {
            names.insert(&card.id, NameSource::Id, i);
            if let Some(name) = &card.name {
                names.insert(name, NameSource::English, i);
            }
        }
        let by_id: HashMap<&str, usize> = cards
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id.as_str(), i))
            .collect();
        for file in &pool.data {
            for (id, name) in translated_names(file) {
                if let Some(&i) = by_id.get(id.as_str()) {
                    names.insert(&name, NameSource::Translation, i);
                }
            }
        }
        PoolIndex {
            dir: dir.to_path_buf(),
            pool,
            cards,
            names,
            vocabulary: OnceLock::new(),
            database: OnceLock::new(),
            refs: OnceLock::new(),
            earlier: None,
        }
    }

    /// The card a reference names, and the bytes of its name: a deck
    /// line's bare count (`2 Tin Cat`) is read as the deck check reads it,
    /// only when the whole text names no card.
    pub fn resolve(&self, reference: &CardRef) -> Option<(usize, Range<usize>)> {
        if let Some(i) = self.names.find(&reference.written) {
            return Some((i, reference.span.clone()));
        }
        if reference.naming != Naming::Input {
            return None;
        }
        let (count, rest) = reference.written.split_once(char::is_whitespace)?;
        if count.is_empty() || !count.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let rest_trimmed = rest.trim_start();
        let i = self.names.find(rest_trimmed)?;
        // The name alone, where the span is the text as written (a text
        // line; a quoted YAML string keeps its whole span).
        let span = &reference.span;
        let skipped = reference.written.len() - rest_trimmed.len();
        match span.len() == reference.written.len() {
            true => Some((i, span.start + skipped..span.end)),
            false => Some((i, span.clone())),
        }
    }

    /// The card with this id.
    pub fn by_id(&self, id: &str) -> Option<usize> {
        self.cards.iter().position(|c| c.id == id)
    }

    /// What the pool's effects may name and how they print, as the build
    /// has it.
    pub fn vocabulary(&self) -> &PoolVocabulary {
        self.vocabulary
            .get_or_init(|| read_vocabulary(&self.pool, None).0)
    }

    /// Builds the pool's database, if not built yet, through the build
    /// cache the server keeps for its diagnostics (only the files changed
    /// since its last check are built again).
    pub fn build_with(&self, live: &mut LivePool) {
        self.database
            .get_or_init(|| database_made(&live.compile(&self.pool).output).map(Arc::new));
    }

    /// The pool's database as built now, else (while it has errors) the
    /// one an earlier index of it built.
    pub fn database(&self) -> Option<&Database> {
        let built = self
            .database
            .get_or_init(|| compile(&self.pool).output.into_database().map(Arc::new));
        built.as_deref().or(self.earlier.as_deref())
    }

    /// The text of a pool file (unsaved when open), by its path.
    pub fn text_of(&self, path: &str) -> Option<&Arc<str>> {
        self.files()
            .find(|f| &*f.path == path)
            .map(SourceFile::text)
    }

    /// Every file of the pool, sets and data.
    pub fn files(&self) -> impl Iterator<Item = &SourceFile> {
        self.pool.sets.iter().chain(&self.pool.data)
    }

    /// Where the pool's `keywords.yaml` defines the keyword `id`: none for
    /// the built-in keywords a pool does not restate.
    pub fn keyword_definition(&self, id: &str) -> Option<(Arc<str>, Range<usize>)> {
        let file = self.pool.data_file("keywords.yaml")?;
        let doc = yaml::parse(file.text()).ok()?;
        let entry = doc
            .get("keywords")
            .and_then(Node::as_seq)?
            .iter()
            .find(|k| k.get("id").and_then(Node::as_str) == Some(id))?;
        let span = entry
            .get("id")
            .map_or(entry.span.clone(), |n| n.span.clone());
        Some((file.path.clone(), span))
    }

    /// Every card each pool file names, read once.
    pub fn pool_refs(&self) -> &[FileRefs] {
        self.refs.get_or_init(|| {
            self.files()
                .filter_map(|file| {
                    let place = Place::of(Some(&file.relative));
                    let refs = card_refs(&place, &file.path, file.text());
                    (!refs.is_empty()).then(|| FileRefs {
                        path: file.path.clone(),
                        text: file.text().clone(),
                        refs,
                    })
                })
                .collect()
        })
    }
}

/// The cards a file names.
pub struct FileRefs {
    pub path: Arc<str>,
    pub text: Arc<str>,
    pub refs: Vec<CardRef>,
}

/// The cards a set file defines.
fn defined_in(file: &SourceFile, out: &mut Vec<Defined>) {
    let Ok(doc) = yaml::parse(file.text()) else {
        return;
    };
    for card in doc.get("cards").and_then(Node::as_seq).unwrap_or_default() {
        let Some(id) = card.get("id") else { continue };
        let Some(text) = id.as_str() else { continue };
        out.push(Defined {
            id: text.to_string(),
            name: card.get("name").and_then(Node::as_str).map(str::to_string),
            path: file.path.clone(),
            entry: card.span.clone(),
            id_span: id.span.clone(),
        });
    }
}

/// (card id, name) of a locale file's translated names.
fn translated_names(file: &SourceFile) -> Vec<(String, String)> {
    if !matches!(Place::of(Some(&file.relative)), Place::Locale { .. }) {
        return Vec::new();
    }
    let Ok(doc) = yaml::parse(file.text()) else {
        return Vec::new();
    };
    let Some(NodeValue::Map(entries)) = doc.get("cards").map(|n| &n.value) else {
        return Vec::new();
    };
    entries
        .iter()
        .filter_map(|e| {
            let id = e.key.as_str()?;
            let name = e.value.get("name")?.get("text")?.as_str()?;
            Some((id.to_string(), name.to_string()))
        })
        .collect()
}

/// `path` within the pool folder `dir`, with `/` separators.
pub fn relative_in(dir: &Path, path: &Path) -> Option<String> {
    let relative = path.strip_prefix(dir).ok()?;
    Some(relative.to_string_lossy().replace('\\', "/"))
}

/// The pool a document belongs to and what it is there. A file outside
/// the workspace's `cards/` is a player input of that pool (as a command
/// run in the workspace folder would read it); without a `cards/` folder,
/// the pool is the one [`pool_dir`] chooses and a file it does not read is
/// an input of it.
pub fn place_of(root: Option<&Path>, path: &Path) -> (PathBuf, Place) {
    if let Some(cards) = root.map(|r| r.join(FOUND_FOLDER))
        && cards.is_dir()
        && !path.starts_with(&cards)
    {
        return (cards, Place::Input);
    }
    let dir = pool_dir(root, path);
    let place = Place::of(relative_in(&dir, path).as_deref());
    (dir, place)
}

/// The indexes of the pools requests asked about, each kept while the
/// open texts under its folder are unchanged.
#[derive(Default)]
pub struct Indexes {
    kept: HashMap<PathBuf, (u64, Arc<PoolIndex>)>,
}

impl Indexes {
    /// The index of the pool in `dir`, as the open documents are now.
    pub fn of<'a>(
        &mut self,
        dir: &Path,
        open: impl IntoIterator<Item = &'a Document> + Clone,
    ) -> Arc<PoolIndex> {
        let key = open_key(dir, open.clone());
        if let Some((kept, index)) = self.kept.get(dir)
            && *kept == key
        {
            return index.clone();
        }
        let mut index = PoolIndex::read(dir, open);
        index.earlier = self.kept.get(dir).and_then(|(_, old)| {
            old.database
                .get()
                .cloned()
                .flatten()
                .or(old.earlier.clone())
        });
        let index = Arc::new(index);
        self.kept.insert(dir.to_path_buf(), (key, index.clone()));
        index
    }
}

impl Indexes {
    /// Forgets the index of every pool `path` is in (a file changed on
    /// disk): the next request reads it again.
    pub fn forget(&mut self, path: &Path) {
        self.kept.retain(|dir, _| !path.starts_with(dir));
    }
}

/// A hash of the open documents under `dir`: their paths and texts.
fn open_key<'a>(dir: &Path, open: impl IntoIterator<Item = &'a Document>) -> u64 {
    let mut under: Vec<(&Path, &str)> = open
        .into_iter()
        .filter(|d| d.path.starts_with(dir))
        .map(|d| (d.path.as_path(), &*d.text))
        .collect();
    under.sort();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    under.hash(&mut hasher);
    hasher.finish()
}
