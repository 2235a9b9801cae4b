//! A pool as the cursor's requests and completion see it: where each card
//! is defined, every name a reader may write for it, the cards each file
//! names, the pool's sets, types and keywords, and each card as the last
//! build that made a database has it.
//!
//! The index follows the server's checks: after each check of a pool
//! ([`Indexes::checked`]) it takes the pool that check read (the open
//! documents' unsaved texts laid over the files on disk) and the database
//! it built. A file whose path and content hash the index holds already is
//! not read again; a changed file's names leave the name table and its new
//! ones go in. An edit to one set file of a 100,000-card pool costs that
//! file, not the pool.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use rayon::prelude::*;

use super::check::{Checked, pool_dir};
use super::documents::{input_pool, relative_in};
use super::locate::{CardRef, Naming, Place, card_refs};
use crate::cards::{NameIndex, NameSource, fold};
use crate::compile::{Output, PoolVocabulary, pool_keywords, read_vocabulary};
use crate::effect::Keywords;
use crate::model::{Card, Set};
use crate::pool::{Pool, SourceFile};
use crate::workspace::card_made;
use crate::yaml::{self, Node, NodeValue};

/// Where a card is defined: its entry in a set file, and what completion
/// shows of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Defined {
    pub id: String,
    pub name: Option<String>,
    /// The set file (its path as the pool names it: absolute).
    pub path: Arc<str>,
    /// The card's whole entry, and its `id:` value.
    pub entry: Range<usize>,
    pub id_span: Range<usize>,
    pub kind: Option<String>,
    pub stars: Option<i64>,
    /// The id of the set its file declares.
    pub set: Option<Arc<str>>,
    /// The name (else the id) in lower case: what completion matches
    /// typed text against.
    pub lowered: String,
}

impl Defined {
    /// The name a list shows: the card's name, else its id.
    pub fn shown_name(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.id)
    }
}

/// A card of the index: its file's slot and its place in that file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CardKey {
    file: u32,
    n: u32,
}

/// What one pool file defines and names, read once per text.
struct FileDefs {
    /// The hash of the text this was read from ([`SourceFile::hash`]).
    hash: u64,
    path: Arc<str>,
    relative: String,
    /// A set file's set id and extra types.
    set: Option<Arc<str>>,
    types: Vec<String>,
    cards: Vec<Defined>,
    /// A locale file's translated names: (card id, name).
    translated: Vec<(String, String)>,
    /// The cards the file names, with its text: read when references are
    /// first asked for.
    refs: OnceLock<FileRefs>,
}

impl FileDefs {
    /// Reads what `file` of a pool defines: a set file's set and cards, a
    /// locale file's translated names.
    fn read(file: &SourceFile, is_set: bool) -> FileDefs {
        let mut defs = FileDefs {
            hash: file.hash(),
            path: file.path.clone(),
            relative: file.relative.clone(),
            set: None,
            types: Vec::new(),
            cards: Vec::new(),
            translated: Vec::new(),
            refs: OnceLock::new(),
        };
        let place = Place::of(Some(&file.relative));
        if !is_set && !matches!(place, Place::Locale { .. }) {
            return defs;
        }
        let Ok(doc) = yaml::parse(file.text()) else {
            return defs;
        };
        match is_set {
            true => defs.read_set(&doc),
            false => defs.translated = translated_names(&doc),
        }
        defs
    }

    fn read_set(&mut self, doc: &Node) {
        let text_of =
            |node: &Node, key: &str| node.get(key).and_then(Node::as_str).map(str::to_string);
        self.set = text_of(doc, "id").map(Arc::from);
        self.types = (doc.get("extra-types").and_then(Node::as_seq))
            .unwrap_or_default()
            .iter()
            .filter_map(|t| t.as_str().map(str::to_string))
            .collect();
        for card in doc.get("cards").and_then(Node::as_seq).unwrap_or_default() {
            let Some(id) = card.get("id") else { continue };
            let Some(text) = id.as_str() else { continue };
            let name = text_of(card, "name");
            let lowered = name.as_deref().unwrap_or(text).to_lowercase();
            self.cards.push(Defined {
                id: text.to_string(),
                name,
                path: self.path.clone(),
                entry: card.span.clone(),
                id_span: id.span.clone(),
                kind: text_of(card, "kind"),
                stars: match card.get("stars").map(|s| &s.value) {
                    Some(NodeValue::Int(n)) => Some(*n),
                    _ => None,
                },
                set: self.set.clone(),
                lowered,
            });
        }
    }

    /// Every name the file gives a card: (name, source, what it names).
    fn names(&self) -> impl Iterator<Item = (&str, NameSource, Names)> {
        let own = self.cards.iter().enumerate().flat_map(|(n, card)| {
            let n = n as u32;
            let id = (card.id.as_str(), NameSource::Id, Names::Card(n));
            let name =
                (card.name.as_deref()).map(|name| (name, NameSource::English, Names::Card(n)));
            std::iter::once(id).chain(name)
        });
        let translated = self.translated.iter().map(|(id, name)| {
            let names = Names::Id(id.as_str().into());
            (name.as_str(), NameSource::Translation, names)
        });
        own.chain(translated)
    }
}

/// (card id, name) of a locale file's translated names.
fn translated_names(doc: &Node) -> Vec<(String, String)> {
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

/// What a name names: a card of the file that gives it, or (a translated
/// name) the card with an id, wherever it is defined.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Names {
    Card(u32),
    Id(Box<str>),
}

/// One name a file gives.
#[derive(Debug, Clone)]
struct Named {
    source: NameSource,
    file: u32,
    names: Names,
}

/// The cards a file names.
pub struct FileRefs {
    pub path: Arc<str>,
    pub text: Arc<str>,
    pub refs: Vec<CardRef>,
}

/// One pool, indexed for the cursor's requests and completion.
pub struct PoolIndex {
    pub dir: PathBuf,
    pool: Arc<Pool>,
    /// What each file defines, by slot ([`CardKey`]'s file); a removed
    /// file's slot is free for the next new one.
    files: Vec<Option<FileDefs>>,
    slots: HashMap<Arc<str>, u32>,
    free: Vec<u32>,
    /// Every name of every card, folded ([`fold`]): what gives it.
    names: HashMap<String, Vec<Named>>,
    /// The cards with each id (more than one: the pool repeats an id).
    ids: HashMap<String, Vec<CardKey>>,
    /// The keyword table (the built-in one and `keywords.yaml`'s), and the
    /// hash of the `keywords.yaml` it was read from.
    keywords: Keywords,
    keywords_hash: Option<u64>,
    vocabulary: OnceLock<PoolVocabulary>,
    /// The last database a check built (kept while the pool has errors:
    /// a card being typed shows as it last built).
    built: Option<Output>,
}

impl PoolIndex {
    /// An index of nothing yet, for the pool in `dir`.
    pub fn new(dir: &Path) -> PoolIndex {
        PoolIndex {
            dir: dir.to_path_buf(),
            pool: Arc::new(Pool::default()),
            files: Vec::new(),
            slots: HashMap::new(),
            free: Vec::new(),
            names: HashMap::new(),
            ids: HashMap::new(),
            keywords: Keywords::builtin(),
            keywords_hash: None,
            vocabulary: OnceLock::new(),
            built: None,
        }
    }

    /// The index of `pool` read from scratch (what [`PoolIndex::update`]
    /// must always agree with).
    pub fn of(dir: &Path, pool: Arc<Pool>, output: Output) -> PoolIndex {
        let mut index = PoolIndex::new(dir);
        index.update(pool, output);
        index
    }

    /// Takes in the pool as a check read it now and what that check built
    /// (nothing: the pool has errors, and the last database stays). Only
    /// the files whose text changed are read.
    pub fn update(&mut self, pool: Arc<Pool>, output: Output) {
        let now: HashSet<&str> = all_files(&pool).map(|f| &*f.path).collect();
        let gone: Vec<u32> = (self.slots.iter())
            .filter(|(path, _)| !now.contains(&***path))
            .map(|(_, &slot)| slot)
            .collect();
        let changed: Vec<(&SourceFile, bool)> = (pool.sets.iter().map(|f| (f, true)))
            .chain(pool.data.iter().map(|f| (f, false)))
            .filter(|(file, _)| {
                (self.defs_of(&file.path)).is_none_or(|defs| defs.hash != file.hash())
            })
            .collect();
        let read: Vec<FileDefs> = changed
            .par_iter()
            .map(|(file, is_set)| FileDefs::read(file, *is_set))
            .collect();
        let altered = !gone.is_empty() || !read.is_empty();
        for slot in gone {
            self.remove(slot);
        }
        for defs in read {
            self.put(defs);
        }
        let keywords = pool.data_file("keywords.yaml").map(SourceFile::hash);
        if keywords != self.keywords_hash {
            self.keywords = pool_keywords(&pool, &mut Vec::new());
            self.keywords_hash = keywords;
        }
        if altered {
            self.vocabulary = OnceLock::new();
        }
        if !matches!(output, Output::None) {
            self.built = Some(output);
        }
        self.pool = pool;
    }

    /// Puts a file's definitions in, in place of what its path held.
    fn put(&mut self, defs: FileDefs) {
        let slot = match self.slots.get(&defs.path) {
            Some(&slot) => {
                self.unindex(slot);
                slot
            }
            None => match self.free.pop() {
                Some(slot) => slot,
                None => {
                    self.files.push(None);
                    (self.files.len() - 1) as u32
                }
            },
        };
        self.slots.insert(defs.path.clone(), slot);
        for (n, card) in defs.cards.iter().enumerate() {
            let key = CardKey {
                file: slot,
                n: n as u32,
            };
            self.ids.entry(card.id.clone()).or_default().push(key);
        }
        for (name, source, names) in defs.names() {
            let key = fold(name);
            if !key.is_empty() {
                let named = Named {
                    source,
                    file: slot,
                    names,
                };
                self.names.entry(key).or_default().push(named);
            }
        }
        self.files[slot as usize] = Some(defs);
    }

    /// Takes a file that is no longer in the pool out.
    fn remove(&mut self, slot: u32) {
        self.unindex(slot);
        if let Some(defs) = self.files[slot as usize].take() {
            self.slots.remove(&defs.path);
        }
        self.free.push(slot);
    }

    /// Takes the names and ids of the file in `slot` out of the tables.
    fn unindex(&mut self, slot: u32) {
        let Some(defs) = &self.files[slot as usize] else {
            return;
        };
        for card in &defs.cards {
            if let Some(keys) = self.ids.get_mut(&card.id) {
                keys.retain(|k| k.file != slot);
                if keys.is_empty() {
                    self.ids.remove(&card.id);
                }
            }
        }
        for (name, _, _) in defs.names() {
            let key = fold(name);
            if let Some(named) = self.names.get_mut(&key) {
                named.retain(|n| n.file != slot);
                if named.is_empty() {
                    self.names.remove(&key);
                }
            }
        }
    }

    fn defs_of(&self, path: &str) -> Option<&FileDefs> {
        let slot = *self.slots.get(path)?;
        self.files[slot as usize].as_ref()
    }

    /// The card `key` names.
    pub fn card(&self, key: CardKey) -> Option<&Defined> {
        let defs = self.files.get(key.file as usize)?.as_ref()?;
        defs.cards.get(key.n as usize)
    }

    /// Every card of the pool, in no particular order.
    pub fn cards(&self) -> impl Iterator<Item = &Defined> {
        self.files.iter().flatten().flat_map(|defs| &defs.cards)
    }

    /// The ids of the pool's sets, sorted.
    pub fn sets(&self) -> Vec<&str> {
        let files = self.files.iter().flatten();
        let mut sets: Vec<&str> = files.filter_map(|d| d.set.as_deref()).collect();
        sets.sort_unstable();
        sets
    }

    /// The extra types the pool's set files declare.
    pub fn extra_types(&self) -> impl Iterator<Item = &str> {
        (self.files.iter().flatten()).flat_map(|d| d.types.iter().map(String::as_str))
    }

    /// The keyword table effects of the pool may use.
    pub fn keywords(&self) -> &Keywords {
        &self.keywords
    }

    /// Every name the index knows for a card, folded ([`fold`]).
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.keys().map(String::as_str)
    }

    /// The card a name names, as a [`NameIndex`] of every card's names
    /// would answer: an id before a name before a translated name; two
    /// cards with the same name from the same source, none.
    pub fn find(&self, written: &str) -> Option<CardKey> {
        let key = fold(written);
        let named = self.names.get(&key)?;
        // The rule is NameIndex's: it is asked with this name's candidates.
        let mut targets: Vec<CardKey> = Vec::new();
        let mut candidates = NameIndex::new();
        for entry in named {
            let card = match &entry.names {
                Names::Card(n) => CardKey {
                    file: entry.file,
                    n: *n,
                },
                Names::Id(id) => match self.by_id(id) {
                    Some(card) => card,
                    None => continue,
                },
            };
            let target = match targets.iter().position(|&t| t == card) {
                Some(target) => target,
                None => {
                    targets.push(card);
                    targets.len() - 1
                }
            };
            candidates.insert(&key, entry.source, target);
        }
        candidates.find(&key).map(|target| targets[target])
    }

    /// The card a reference names, and the bytes of its name: a deck
    /// line's bare count (`2 Tin Cat`) is read as the deck check reads it,
    /// only when the whole text names no card.
    pub fn resolve(&self, reference: &CardRef) -> Option<(CardKey, Range<usize>)> {
        if let Some(card) = self.find(&reference.written) {
            return Some((card, reference.span.clone()));
        }
        if reference.naming != Naming::Input {
            return None;
        }
        let (count, rest) = reference.written.split_once(char::is_whitespace)?;
        if count.is_empty() || !count.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let rest_trimmed = rest.trim_start();
        let card = self.find(rest_trimmed)?;
        // The name alone, where the span is the text as written (a text
        // line; a quoted YAML string keeps its whole span).
        let span = &reference.span;
        let skipped = reference.written.len() - rest_trimmed.len();
        match span.len() == reference.written.len() {
            true => Some((card, span.start + skipped..span.end)),
            false => Some((card, span.clone())),
        }
    }

    /// The card with this id: of several (the pool repeats it), the one
    /// first in its file whose path sorts first, however the index grew.
    pub fn by_id(&self, id: &str) -> Option<CardKey> {
        let keys = self.ids.get(id)?;
        keys.iter().copied().min_by_key(|&key| {
            let defs = self.files[key.file as usize].as_ref();
            (defs.map(|d| d.path.clone()), key.n)
        })
    }

    /// The card as the last build that made a database has it, with its
    /// set (only its set's piece of the database is read).
    pub fn made(&self, key: CardKey) -> Option<(Card, Option<Set>)> {
        let defs = self.files.get(key.file as usize)?.as_ref()?;
        let card = defs.cards.get(key.n as usize)?;
        card_made(self.built.as_ref()?, &defs.relative, &card.id)
    }

    /// What the pool's effects may name and how they print: as the last
    /// check assembled it, else read now.
    pub fn vocabulary(&self) -> &PoolVocabulary {
        self.vocabulary
            .get_or_init(|| read_vocabulary(&self.pool, None).0)
    }

    /// The text of a pool file (unsaved when open), by its path.
    pub fn text_of(&self, path: &str) -> Option<&Arc<str>> {
        all_files(&self.pool)
            .find(|f| &*f.path == path)
            .map(SourceFile::text)
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

    /// Every card each pool file names, in the pool's order: each file
    /// read once per text.
    pub fn pool_refs(&self) -> Vec<&FileRefs> {
        all_files(&self.pool)
            .filter_map(|file| {
                let defs = self.defs_of(&file.path)?;
                let refs = defs.refs.get_or_init(|| {
                    let place = Place::of(Some(&file.relative));
                    FileRefs {
                        path: file.path.clone(),
                        text: file.text().clone(),
                        refs: card_refs(&place, &file.path, file.text()),
                    }
                });
                (!refs.refs.is_empty()).then_some(refs)
            })
            .collect()
    }
}

/// Every file of a pool, sets and data.
fn all_files(pool: &Pool) -> impl Iterator<Item = &SourceFile> {
    pool.sets.iter().chain(&pool.data)
}

/// The pool a document belongs to and what it is there. A file outside
/// the workspace's `cards/` is a player input of that pool (as a command
/// run in the workspace folder would read it); without a `cards/` folder,
/// the pool is the one [`pool_dir`] chooses and a file it does not read is
/// an input of it.
pub fn place_of(root: Option<&Path>, path: &Path) -> (PathBuf, Place) {
    if let Some(cards) = input_pool(root)
        && !path.starts_with(&cards)
    {
        return (cards, Place::Input);
    }
    let dir = pool_dir(root, path);
    let place = Place::of(relative_in(&dir, path).as_deref());
    (dir, place)
}

/// The index of each pool the server checked, kept up to date by each
/// check, and the built-in pool's.
#[derive(Default)]
pub struct Indexes {
    kept: HashMap<PathBuf, PoolIndex>,
    builtin: OnceLock<PoolIndex>,
}

impl Indexes {
    /// Takes in a check of the pool in `dir`: the pool it read, what it
    /// built and the vocabulary it built with.
    pub fn checked(&mut self, dir: &Path, checked: Checked) {
        let index = match self.kept.get_mut(dir) {
            Some(index) => {
                index.update(checked.pool, checked.output);
                index
            }
            None => {
                let index = PoolIndex::of(dir, checked.pool, checked.output);
                self.kept.entry(dir.to_path_buf()).or_insert(index)
            }
        };
        if let Some(vocabulary) = checked.vocabulary {
            index.vocabulary = OnceLock::from(vocabulary);
        }
    }

    /// The index of the pool in `dir`, if it was checked.
    pub fn get(&self, dir: &Path) -> Option<&PoolIndex> {
        self.kept.get(dir)
    }

    /// The built-in pool's index (no database: completion's words only).
    pub fn builtin(&self) -> &PoolIndex {
        self.builtin
            .get_or_init(|| PoolIndex::of(Path::new(""), Arc::new(Pool::builtin()), Output::None))
    }

    /// Forgets the index of the pool in `dir` (its check failed).
    pub fn forget(&mut self, dir: &Path) {
        self.kept.remove(dir);
    }
}
