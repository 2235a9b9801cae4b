//! The incremental build cache, for one build of the tool, keyed by each
//! file's path within the pool (however the pool's folder is named) and a
//! hash of its content:
//!
//! - a set file's own result (its readable cards with their spans, and its
//!   own findings), its effect findings for one vocabulary, and its part of
//!   the database as JSON for one context (vocabulary, phrase books and its
//!   translation files);
//! - a translation file's language, target set and own findings.
//!
//! Stored as one file beside the database output; deleting it only costs a
//! full build. The file is a header and a log of records, one per source
//! file result: the structured part as JSON, the cards in a binary form
//! (`card_codec`), decoded in parallel, and the set's own database JSON.
//! The cards' database JSON is not stored: a [`DatabaseLayout`] record says
//! where each set's cards are in the database file the last build wrote,
//! and the next build copies them from there while that file is unchanged.
//! A build appends the records of what changed (a later record for a path
//! replaces an earlier one) and rewrites the file only when most of its
//! bytes are out of date. Every record ends with a checksum; a damaged file
//! is ignored as a whole.

use foldhash::HashMap;
use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

mod card_codec;

use crate::artifacts::{FileIdentity, WrittenDatabase, WrittenIndex};
use crate::artifacts::{Piece, SetJson, SharedBytes};
use crate::diagnostics::Diagnostic;
use crate::load::{FileResult, LoadedCard, LoadedSet, LocaleSummary};
use crate::pool::FileStamp;

/// Identity of the code that produced a cache; a cache from any other build
/// is ignored.
pub(crate) const BUILD_ID: &str = concat!(env!("CARGO_PKG_VERSION"), "+", env!("BLADES_BUILD_ID"));

/// First line of a cache file (its format).
const MAGIC: &[u8] = b"blades-cache 12\n";

/// What a set file contributed to a build.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SetEntry {
    /// Hash of the file's content.
    pub hash: u64,
    /// The file's stamp when it was read, when it vouches for the content:
    /// a build that finds the file with this stamp need not read it.
    pub stamp: Option<FileStamp>,
    /// The file's own result (cards without their parsed effects).
    pub result: FileResult,
    /// Effect findings that depend on the pool's vocabulary, for the
    /// vocabulary with this key.
    pub effects: Option<(u64, Vec<Diagnostic>)>,
    /// The set's part of the database, for the context with this key (its
    /// cards are found in the database file through [`DatabaseLayout`]).
    #[serde(skip)]
    pub output: Option<(u64, SetJson)>,
    /// The effect and flavor texts of the set's cards, kept apart.
    #[serde(skip)]
    pub texts: Option<CardTexts>,
    /// Whether this entry is in the cache file as it is.
    #[serde(skip)]
    pub stored: bool,
    /// The set's cards as the cache file holds them: the set's `cards`
    /// are left empty until a build needs them (see [`StoredCards`]).
    #[serde(skip)]
    pub cards: Option<StoredCards>,
    /// What the pool checks found of the set on its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked: Option<Arc<CheckedSet>>,
    /// Whether a card of the set names art (which every build looks for).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub names_art: bool,
}

/// A cached set's cards, undecoded. Decoding every card of a large pool
/// and holding them was most of what a build with nothing changed did, and
/// most of its memory; now a build decodes only the sets it checks or
/// renders anew (docs/decisions.md, "Cards left in the cache").
#[derive(Clone, Debug)]
pub struct StoredCards(SharedBytes);

impl StoredCards {
    /// How many cards there are; `None` when that does not decode.
    pub fn count(&self) -> Option<usize> {
        crate::codec::Reader(&self.0).number()
    }

    /// The cards (without their effect and flavor texts, which the cache
    /// keeps apart); `None` when they do not decode.
    pub fn decode(&self) -> Option<Vec<LoadedCard>> {
        card_codec::decode(&self.0)
    }
}

/// What the pool checks found of one set file on its own, kept from one
/// check of a pool to the next (by the cache, and by the editor server):
/// its findings and copies, while its text and the pool's types are the
/// same, and the keys its cards' ids and names are compared by.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CheckedSet {
    /// The file's content hash.
    pub hash: u64,
    /// The key of the pool's declared types the set was checked with.
    pub types: u64,
    pub findings: Vec<Diagnostic>,
    /// Copies by card index, sorted.
    pub copies: Vec<(usize, u8)>,
    /// Its cards' keys, in file order (a binary chunk of the record).
    #[serde(skip)]
    pub keys: Vec<CardKeys>,
}

/// A card's id and name as the uniqueness checks compare them: hashed (the
/// name folded), each when the card has it as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardKeys {
    pub id: Option<u64>,
    pub name: Option<u64>,
}

impl CardKeys {
    fn encode(keys: &[CardKeys]) -> Vec<u8> {
        let mut out = Vec::with_capacity(keys.len() * 17);
        for key in keys {
            out.push(u8::from(key.id.is_some()) | u8::from(key.name.is_some()) << 1);
            for hash in [key.id, key.name].into_iter().flatten() {
                out.extend_from_slice(&hash.to_le_bytes());
            }
        }
        out
    }

    fn decode(mut bytes: &[u8]) -> Option<Vec<CardKeys>> {
        let mut keys = Vec::with_capacity(bytes.len() / 17);
        let hash = |present: bool, bytes: &mut &[u8]| -> Option<Option<u64>> {
            if !present {
                return Some(None);
            }
            let (head, rest) = bytes.split_first_chunk::<8>()?;
            *bytes = rest;
            Some(Some(u64::from_le_bytes(*head)))
        };
        while let Some((&flags, rest)) = bytes.split_first() {
            bytes = rest;
            if flags > 3 {
                return None;
            }
            let id = hash(flags & 1 != 0, &mut bytes)?;
            let name = hash(flags & 2 != 0, &mut bytes)?;
            keys.push(CardKeys { id, name });
        }
        Some(keys)
    }
}

/// The effect and flavor texts of a cached set's cards, in card order. They
/// are most of a set's cached bytes and a build needs them only to check or
/// render the set anew (a vocabulary change), so they stay undecoded in the
/// cache file's buffer until then.
#[derive(Clone, Debug)]
pub enum CardTexts {
    Decoded(Vec<(Option<String>, Option<String>)>),
    Stored(SharedBytes),
}

impl CardTexts {
    /// Takes the texts out of a set's cards.
    pub fn take_from(set: &mut LoadedSet) -> CardTexts {
        CardTexts::Decoded(
            set.cards
                .iter_mut()
                .map(|c| (c.card.effect.take(), c.card.flavor.take()))
                .collect(),
        )
    }

    /// Puts the texts back into the cards of `set`; false when they do
    /// not decode or do not fit its cards.
    pub fn restore(&self, set: &mut LoadedSet) -> bool {
        let decoded;
        let texts = match self {
            CardTexts::Decoded(texts) => texts,
            CardTexts::Stored(bytes) => {
                let Ok(texts) =
                    serde_json::from_slice::<Vec<(Option<String>, Option<String>)>>(bytes)
                else {
                    return false;
                };
                decoded = texts;
                &decoded
            }
        };
        if texts.len() != set.cards.len() {
            return false;
        }
        for (card, (effect, flavor)) in set.cards.iter_mut().zip(texts) {
            card.card.effect.clone_from(effect);
            card.card.flavor.clone_from(flavor);
        }
        true
    }

    fn encode(this: Option<&CardTexts>) -> Vec<u8> {
        match this {
            None => b"null".to_vec(),
            Some(CardTexts::Stored(bytes)) => bytes.to_vec(),
            Some(CardTexts::Decoded(texts)) => serde_json::to_vec(texts).expect("texts serialize"),
        }
    }
}

/// What a translation file contributed to a build.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LocaleEntry {
    pub hash: u64,
    /// As [`SetEntry::stamp`].
    pub stamp: Option<FileStamp>,
    pub summary: LocaleSummary,
    /// Whether this entry is in the cache file as it is.
    #[serde(skip)]
    pub stored: bool,
}

impl SetEntry {
    /// Whether the entry's findings name the file as `path` (see
    /// [`crate::load::fits`]).
    pub fn fits(&self, path: &Arc<str>) -> bool {
        let effects = self.effects.as_ref().map_or(&[][..], |(_, found)| found);
        crate::load::fits(&self.result.diagnostics, path) && crate::load::fits(effects, path)
    }
}

/// Per-file results of earlier builds, by path within the pool.
pub struct Cache {
    path: PathBuf,
    sets: HashMap<Arc<str>, SetEntry>,
    locales: HashMap<Arc<str>, LocaleEntry>,
    /// What the file holds; `None` when there is no usable file to append to.
    disk: Option<OnDisk>,
    /// Bytes of out-of-date records the file may hold beyond its current
    /// ones before it is written anew.
    slack: usize,
    /// Results of this build, which replace the old ones on save.
    fresh_sets: Vec<(Arc<str>, SetEntry)>,
    fresh_locales: Vec<(Arc<str>, LocaleEntry)>,
    /// Where the cards of each set are in the database file, and whether
    /// the cache file has this layout as it is.
    layout: Option<(DatabaseLayout, bool)>,
}

/// The database file a build wrote (by its identity) and where each set's
/// cards are in it. The cards are most of a build's output; keeping them
/// there rather than in the cache file means a build copies the unchanged
/// ones from the old database to the new one without reading them, and
/// the cache file stays small. A database replaced by anything else (a
/// `--pretty` or `--no-cache` build, an edit, a copy) no longer has the
/// identity, and its sets are rendered again.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DatabaseLayout {
    /// The database, and where each set's cards are in it.
    pub cards: FileLayout,
    /// The card index written beside the database, in the same way: the
    /// next build copies the sections of unchanged sets from it.
    pub index: Option<FileLayout>,
}

/// A file a build wrote (by its identity) and where each set's piece of
/// it is.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FileLayout {
    pub identity: FileIdentity,
    /// Set file path, and the byte range of its piece.
    pub pieces: Vec<(Arc<str>, Range<u64>)>,
}

impl FileLayout {
    /// The file at `path`, opened, if it is the file this layout describes.
    fn open(&self, path: &Path) -> Option<Arc<std::fs::File>> {
        let file = std::fs::File::open(path).ok()?;
        let meta = file.metadata().ok()?;
        (FileIdentity::of(&meta) == self.identity).then(|| Arc::new(file))
    }

    /// Each set's piece in `file`, the file this layout describes.
    fn pieces_in(&self, file: &Arc<std::fs::File>) -> HashMap<&str, Piece> {
        let len = self.identity.len;
        self.pieces
            .iter()
            .filter(|(_, range)| range.start <= range.end && range.end <= len)
            .map(|(path, range)| {
                let piece = Piece::Written {
                    file: Arc::clone(file),
                    range: range.clone(),
                };
                (&**path, piece)
            })
            .collect()
    }
}

impl Cache {
    /// The cache file for a database written to `out`.
    pub fn beside(out: &Path) -> PathBuf {
        let dir = out
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        dir.join(".blades-cache")
    }

    /// An empty cache that will be stored at `path`.
    pub fn empty(path: &Path) -> Cache {
        Cache {
            path: path.to_path_buf(),
            sets: HashMap::default(),
            locales: HashMap::default(),
            disk: None,
            slack: REWRITE_SLACK,
            fresh_sets: Vec::new(),
            fresh_locales: Vec::new(),
            layout: None,
        }
    }

    /// Opens the cache of the database written to `out`; a missing,
    /// unreadable, corrupt or foreign one is empty. Set outputs are kept
    /// only while `out` is the database file the cache describes.
    pub fn open_beside(out: &Path) -> Cache {
        Cache::open_with(&Cache::beside(out), Some(out))
    }

    /// Opens a cache without a database: set outputs are dropped.
    pub fn open(path: &Path) -> Cache {
        Cache::open_with(path, None)
    }

    fn open_with(path: &Path, database: Option<&Path>) -> Cache {
        let mut cache = Cache::empty(path);
        if let Ok(bytes) = std::fs::read(path)
            && let Some(decoded) = decode(&Arc::new(bytes), database)
        {
            cache.sets = decoded.sets;
            cache.locales = decoded.locales;
            cache.disk = Some(decoded.disk);
            cache.layout = decoded.layout.map(|layout| (layout, true));
        }
        cache
    }

    /// Records where this build's database put each set's cards (`paths`
    /// in the order of the written sets).
    pub fn database_written(&mut self, paths: &[Arc<str>], written: &WrittenDatabase) {
        let layout = DatabaseLayout {
            cards: FileLayout {
                identity: written.identity.clone(),
                pieces: paths
                    .iter()
                    .cloned()
                    .zip(written.cards.iter().cloned())
                    .collect(),
            },
            index: None,
        };
        // This build's sets now find their cards in the new file: kept in
        // memory or in an older file, they would hold on to it (`--watch`
        // runs build after build).
        let cards = layout.cards.pieces_in(&written.file);
        for (path, entry) in &mut self.fresh_sets {
            if let Some((_, json)) = &mut entry.output
                && let Some(written) = cards.get(&**path)
            {
                json.cards = written.clone();
            }
        }
        drop(cards);
        self.layout = Some((layout, false));
    }

    /// Records where this build's card index put each set's section
    /// (`paths` in the order of the written sets), after the database.
    pub fn index_written(&mut self, paths: &[Arc<str>], written: &WrittenIndex) {
        let Some((layout, stored)) = &mut self.layout else {
            return;
        };
        let index = FileLayout {
            identity: written.identity.clone(),
            pieces: (paths.iter().cloned())
                .zip(written.sections.iter().cloned())
                .collect(),
        };
        // As for the cards: the old index file is let go.
        let sections = index.pieces_in(&written.file);
        for (path, entry) in &mut self.fresh_sets {
            if let Some((_, json)) = &mut entry.output
                && let Some(written) = sections.get(&**path)
            {
                json.index = written.clone();
            }
        }
        drop(sections);
        layout.index = Some(index);
        *stored = false;
    }

    /// The content hash of the file at `path` when the cache vouches for it:
    /// an earlier build read it with this very stamp. For the
    /// `known` argument of [`crate::pool::Listing::read`].
    pub fn known(&self, path: &str, stamp: &FileStamp) -> Option<u64> {
        let (hash, recorded) = match self.sets.get(path) {
            Some(entry) => (entry.hash, entry.stamp),
            None => self.locales.get(path).map(|e| (e.hash, e.stamp))?,
        };
        (recorded.as_ref() == Some(stamp)).then_some(hash)
    }

    /// The database file this cache describes.
    pub fn database_identity(&self) -> Option<&FileIdentity> {
        self.layout
            .as_ref()
            .map(|(layout, _)| &layout.cards.identity)
    }

    /// The set files of the database this cache describes, in the
    /// database's order.
    pub fn database_sets(&self) -> impl Iterator<Item = &str> {
        let layout = self.layout.iter().map(|(layout, _)| layout);
        layout.flat_map(|layout| layout.cards.pieces.iter().map(|(path, _)| &**path))
    }

    /// Takes the set entry recorded for this path (whatever its content was).
    pub fn take_set(&mut self, path: &str) -> Option<SetEntry> {
        self.sets.remove(path)
    }

    /// Damages every set's cards as the cache file held them (their
    /// checksums passed): for the tests of what a build does then.
    #[cfg(test)]
    pub(crate) fn damage_stored_cards(&mut self) {
        for entry in self.sets.values_mut().filter(|e| e.cards.is_some()) {
            entry.cards = Some(StoredCards(SharedBytes::from(vec![0xFF])));
        }
    }

    /// The locale entry recorded for this file content, if any.
    pub fn locale(&self, path: &str, hash: u64) -> Option<&LocaleEntry> {
        self.locales.get(path).filter(|e| e.hash == hash)
    }

    /// Records this build's result for a set file (`stored` when it is the
    /// entry read from the file, unchanged).
    pub fn put_set(&mut self, path: Arc<str>, entry: SetEntry) {
        self.fresh_sets.push((path, entry));
    }

    /// Records this build's result for a translation file.
    pub fn put_locale(&mut self, path: Arc<str>, entry: LocaleEntry) {
        self.fresh_locales.push((path, entry));
    }

    /// Ends a build in memory only: its results become the cache (files not
    /// in this build are dropped), the file stays as it is. For `--watch`,
    /// which keeps the results of failed builds too.
    pub fn commit(&mut self) {
        self.sets = std::mem::take(&mut self.fresh_sets).into_iter().collect();
        self.locales = std::mem::take(&mut self.fresh_locales)
            .into_iter()
            .collect();
    }

    /// Ends a build: this build's results become the cache (files not in
    /// it are dropped), and the file is brought up to date: the changed
    /// entries are appended, or, when most of the file would then be out of
    /// date, the file is written anew (through a temp file).
    pub fn save(&mut self) -> std::io::Result<()> {
        self.commit();
        let changed = self.records(true);
        let result = match self.disk.take() {
            Some(mut disk) => {
                let new_bytes: usize = changed.iter().map(|(_, r)| r.len()).sum();
                let kept: usize = self
                    .stored_keys()
                    .filter_map(|key| disk.current.get(&key))
                    .sum();
                if disk.len + new_bytes <= 2 * (kept + new_bytes) + self.slack {
                    self.append(&changed).map(|()| {
                        disk.len += new_bytes;
                        disk.current
                            .extend(changed.into_iter().map(|(key, r)| (key, r.len())));
                        disk
                    })
                } else {
                    self.rewrite()
                }
            }
            None => self.rewrite(),
        };
        // After a failure the file may be cut short: the next save starts
        // it anew.
        self.disk = Some(result?);
        self.sets.values_mut().for_each(|e| e.stored = true);
        self.locales.values_mut().for_each(|e| e.stored = true);
        if let Some((_, stored)) = &mut self.layout {
            *stored = true;
        }
        Ok(())
    }

    /// The record keys of the entries that are in the file as they are.
    fn stored_keys(&self) -> impl Iterator<Item = (u8, Arc<str>)> + '_ {
        let sets = self.sets.iter().filter(|(_, e)| e.stored);
        let locales = self.locales.iter().filter(|(_, e)| e.stored);
        let layout = self.layout.as_ref().filter(|(_, stored)| *stored);
        sets.map(|(p, _)| (SET_RECORD, p.clone()))
            .chain(locales.map(|(p, _)| (LOCALE_RECORD, p.clone())))
            .chain(layout.map(|_| (DATABASE_RECORD, Arc::from(""))))
    }

    /// Records of the entries to write (all of them, or the ones not in the
    /// file), in path order, encoded in parallel.
    fn records(&self, only_changed: bool) -> Vec<EncodedRecord> {
        let mut sets: Vec<(&Arc<str>, &SetEntry)> = self
            .sets
            .iter()
            .filter(|(_, e)| !(only_changed && e.stored))
            .collect();
        sets.sort_by(|a, b| a.0.cmp(b.0));
        let mut locales: Vec<(&Arc<str>, &LocaleEntry)> = self
            .locales
            .iter()
            .filter(|(_, e)| !(only_changed && e.stored))
            .collect();
        locales.sort_by(|a, b| a.0.cmp(b.0));
        let mut records: Vec<EncodedRecord> = sets
            .par_iter()
            .map(|(path, entry)| ((SET_RECORD, Arc::clone(path)), encode_set(path, entry)))
            .collect();
        records.par_extend(locales.par_iter().map(|(path, entry)| {
            (
                (LOCALE_RECORD, Arc::clone(path)),
                encode_locale(path, entry),
            )
        }));
        if let Some((layout, stored)) = &self.layout
            && !(only_changed && *stored)
        {
            records.push(((DATABASE_RECORD, Arc::from("")), encode_layout(layout)));
        }
        records
    }

    fn append(&self, records: &[EncodedRecord]) -> std::io::Result<()> {
        if records.is_empty() {
            return Ok(());
        }
        let bytes: Vec<u8> = records
            .iter()
            .flat_map(|(_, r)| r.iter().copied())
            .collect();
        let mut file = std::fs::OpenOptions::new().append(true).open(&self.path)?;
        // One write; a torn one fails its checksum on the next read.
        file.write_all(&bytes)
    }

    fn rewrite(&self) -> std::io::Result<OnDisk> {
        let records = self.records(false);
        let mut disk = OnDisk {
            len: MAGIC.len() + 8 + BUILD_ID.len(),
            current: HashMap::default(),
        };
        crate::files::write_artifact(&self.path, |out| {
            out.write_all(MAGIC)?;
            write_chunk(out, BUILD_ID.as_bytes())?;
            for (_, record) in &records {
                out.write_all(record)?;
            }
            Ok(())
        })?;
        for (key, record) in records {
            disk.len += record.len();
            disk.current.insert(key, record.len());
        }
        Ok(disk)
    }
}

/// Bytes of out-of-date records a cache file may hold beyond its current
/// ones before it is written anew.
const REWRITE_SLACK: usize = 1 << 20;

/// A cache file record: its kind and path, and its bytes.
type EncodedRecord = ((u8, Arc<str>), Vec<u8>);

/// What a cache file holds: its length, and the size of the current
/// record of each file.
struct OnDisk {
    len: usize,
    current: HashMap<(u8, Arc<str>), usize>,
}

const SET_RECORD: u8 = 1;
const LOCALE_RECORD: u8 = 2;
const DATABASE_RECORD: u8 = 3;

fn write_chunk(out: &mut (impl Write + ?Sized), bytes: &[u8]) -> std::io::Result<()> {
    out.write_all(&(bytes.len() as u64).to_le_bytes())?;
    out.write_all(bytes)
}

/// Ends a record with the checksum of its bytes.
fn seal(mut record: Vec<u8>) -> Vec<u8> {
    let sum = xxhash_rust::xxh3::xxh3_64(&record);
    record.extend_from_slice(&sum.to_le_bytes());
    record
}

fn encode_set(path: &str, entry: &SetEntry) -> Vec<u8> {
    let meta = serde_json::to_vec(entry).expect("a cache entry serializes");
    let mut cards = Vec::new();
    match (&entry.cards, &entry.result.set) {
        (Some(stored), _) => cards.extend_from_slice(&stored.0),
        (None, Some(set)) => card_codec::encode(&set.cards, &mut cards),
        (None, None) => {}
    }
    let texts = CardTexts::encode(entry.texts.as_ref());
    let keys = entry
        .checked
        .as_ref()
        .map_or_else(Vec::new, |checked| CardKeys::encode(&checked.keys));
    let output = entry.output.as_ref();
    let size = output.map_or(0, |(_, j)| j.set.len());
    let mut record = Vec::with_capacity(
        path.len() + meta.len() + cards.len() + texts.len() + keys.len() + size + 80,
    );
    record.push(SET_RECORD);
    let write = |record: &mut Vec<u8>| -> std::io::Result<()> {
        write_chunk(record, path.as_bytes())?;
        write_chunk(record, &meta)?;
        write_chunk(record, &cards)?;
        write_chunk(record, &texts)?;
        write_chunk(record, &keys)?;
        match output {
            Some((key, json)) => {
                record.push(1);
                record.extend_from_slice(&key.to_le_bytes());
                write_chunk(record, &json.set)
            }
            None => {
                record.push(0);
                Ok(())
            }
        }
    };
    write(&mut record).expect("writing to memory");
    seal(record)
}

fn encode_locale(path: &str, entry: &LocaleEntry) -> Vec<u8> {
    let meta = serde_json::to_vec(entry).expect("a cache entry serializes");
    encode_plain(LOCALE_RECORD, path, &meta)
}

fn encode_layout(layout: &DatabaseLayout) -> Vec<u8> {
    let meta = serde_json::to_vec(layout).expect("a layout serializes");
    encode_plain(DATABASE_RECORD, "", &meta)
}

/// A record of a path and its metadata only.
fn encode_plain(kind: u8, path: &str, meta: &[u8]) -> Vec<u8> {
    let mut record = vec![kind];
    write_chunk(&mut record, path.as_bytes()).expect("writing to memory");
    write_chunk(&mut record, meta).expect("writing to memory");
    seal(record)
}

/// Reads the pieces of a cache file in order; `None` if it is cut short.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.bytes.len() < n {
            return None;
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Some(head)
    }

    fn byte(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    fn u64(&mut self) -> Option<u64> {
        self.take(8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
    }

    fn chunk(&mut self) -> Option<&'a [u8]> {
        let len = usize::try_from(self.u64()?).ok()?;
        self.take(len)
    }
}

/// One record, split but not yet decoded.
struct Record<'a> {
    /// The record's bytes before its checksum, and the checksum.
    sealed: (&'a [u8], u64),
    kind: u8,
    path: &'a str,
    meta: &'a [u8],
    cards: &'a [u8],
    texts: &'a [u8],
    keys: &'a [u8],
    output: Option<(u64, &'a [u8])>,
}

struct Decoded {
    sets: HashMap<Arc<str>, SetEntry>,
    locales: HashMap<Arc<str>, LocaleEntry>,
    disk: OnDisk,
    layout: Option<DatabaseLayout>,
}

/// A cache file's entries, or `None` when it is not a cache of this build
/// or is damaged in any way.
fn decode(buffer: &Arc<Vec<u8>>, database: Option<&Path>) -> Option<Decoded> {
    let bytes = buffer.as_slice();
    let mut reader = Reader {
        bytes: bytes.strip_prefix(MAGIC)?,
    };
    if reader.chunk()? != BUILD_ID.as_bytes() {
        return None;
    }
    // Split into records first (cheap), then check and decode them in
    // parallel.
    let records = split_records(reader)?;
    let intact = records
        .par_iter()
        .all(|r| xxhash_rust::xxh3::xxh3_64(r.sealed.0) == r.sealed.1);
    if !intact {
        return None;
    }
    let current = latest_records(&records);
    let layout: Option<DatabaseLayout> = match current.iter().find(|r| r.kind == DATABASE_RECORD) {
        Some(r) => Some(serde_json::from_slice(r.meta).ok()?),
        None => None,
    };
    // The cards of each set, while the database is the file the layout
    // describes, and their sections of the card index, while it is too.
    let written: HashMap<&str, Piece> = layout
        .as_ref()
        .zip(database)
        .and_then(|(layout, path)| Some(layout.cards.pieces_in(&layout.cards.open(path)?)))
        .unwrap_or_default();
    let sections: HashMap<&str, Piece> = layout
        .as_ref()
        .and_then(|layout| layout.index.as_ref())
        .zip(database)
        .and_then(|(index, path)| Some(index.pieces_in(&index.open(&crate::index::beside(path))?)))
        .unwrap_or_default();
    let current_sizes = current
        .iter()
        .map(|r| {
            let size = r.sealed.0.len() + 8;
            ((r.kind, Arc::from(r.path)), size)
        })
        .collect();
    Some(Decoded {
        sets: decode_sets(buffer, &current, &written, &sections)?,
        locales: decode_locales(&current)?,
        disk: OnDisk {
            len: bytes.len(),
            current: current_sizes,
        },
        layout,
    })
}

/// The cache file's records, each with its checksum, not yet checked.
fn split_records(mut reader: Reader<'_>) -> Option<Vec<Record<'_>>> {
    let mut records = Vec::new();
    while !reader.bytes.is_empty() {
        let start = reader.bytes;
        let kind = reader.byte()?;
        let path = std::str::from_utf8(reader.chunk()?).ok()?;
        let meta = reader.chunk()?;
        let (cards, texts, keys, output) = match kind {
            SET_RECORD => {
                let cards = reader.chunk()?;
                let texts = reader.chunk()?;
                let keys = reader.chunk()?;
                let output = match reader.byte()? {
                    0 => None,
                    1 => Some((reader.u64()?, reader.chunk()?)),
                    _ => return None,
                };
                (cards, texts, keys, output)
            }
            LOCALE_RECORD | DATABASE_RECORD => (&[][..], &[][..], &[][..], None),
            _ => return None,
        };
        let body = &start[..start.len() - reader.bytes.len()];
        let sum = reader.u64()?;
        records.push(Record {
            sealed: (body, sum),
            kind,
            path,
            meta,
            cards,
            texts,
            keys,
            output,
        });
    }
    Some(records)
}

/// Of several records for a path, the last one counts.
fn latest_records<'r, 'b>(records: &'r [Record<'b>]) -> Vec<&'r Record<'b>> {
    let mut last: HashMap<(u8, &str), usize> = HashMap::default();
    last.reserve(records.len());
    for (i, record) in records.iter().enumerate() {
        last.insert((record.kind, record.path), i);
    }
    records
        .iter()
        .enumerate()
        .filter(|(i, r)| last.get(&(r.kind, r.path)) == Some(i))
        .map(|(_, r)| r)
        .collect()
}

/// A piece of the cache file, kept in its buffer (found by its offset).
fn shared_piece(buffer: &Arc<Vec<u8>>, piece: &[u8]) -> Option<SharedBytes> {
    let start = piece.as_ptr() as usize - buffer.as_ptr() as usize;
    SharedBytes::slice(buffer, start..start + piece.len())
}

/// The set entries, their cards, texts and JSON pieces left in the
/// buffer; `written` has each set's cards in the database.
fn decode_sets(
    buffer: &Arc<Vec<u8>>,
    current: &[&Record<'_>],
    written: &HashMap<&str, Piece>,
    sections: &HashMap<&str, Piece>,
) -> Option<HashMap<Arc<str>, SetEntry>> {
    current
        .par_iter()
        .filter(|r| r.kind == SET_RECORD)
        .map(|r| {
            // Checked as UTF-8 once, not string by string.
            let meta = std::str::from_utf8(r.meta).ok()?;
            let mut entry: SetEntry = serde_json::from_str(meta).ok()?;
            let path: Arc<str> = Arc::from(r.path);
            if let Some(set) = &mut entry.result.set {
                set.path = Arc::clone(&path);
                entry.cards = Some(StoredCards(shared_piece(buffer, r.cards)?));
            }
            if let Some(checked) = entry.checked.as_mut().and_then(Arc::get_mut) {
                checked.keys = CardKeys::decode(r.keys)?;
            }
            // A set's output is kept only with both its cards and its
            // section of the index on disk.
            let on_disk = written.get(r.path).zip(sections.get(r.path));
            entry.output = match (r.output, on_disk) {
                (Some((key, set)), Some((cards, index))) => Some((
                    key,
                    SetJson {
                        set: shared_piece(buffer, set)?,
                        cards: cards.clone(),
                        index: index.clone(),
                    },
                )),
                _ => None,
            };
            entry.texts = match r.texts {
                b"null" => None,
                texts => Some(CardTexts::Stored(shared_piece(buffer, texts)?)),
            };
            entry.stored = true;
            Some((path, entry))
        })
        .collect()
}

fn decode_locales(current: &[&Record<'_>]) -> Option<HashMap<Arc<str>, LocaleEntry>> {
    current
        .par_iter()
        .filter(|r| r.kind == LOCALE_RECORD)
        .map(|r| {
            let meta = std::str::from_utf8(r.meta).ok()?;
            let mut entry: LocaleEntry = serde_json::from_str(meta).ok()?;
            entry.stored = true;
            Some((Arc::from(r.path), entry))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(hash: u64) -> SetEntry {
        SetEntry {
            hash,
            stamp: None,
            result: FileResult {
                set: None,
                diagnostics: Vec::new(),
            },
            effects: None,
            texts: None,
            output: Some((
                hash,
                SetJson {
                    set: format!("{{\"n\":{hash}}}").into_bytes().into(),
                    cards: Piece::Built(vec![b'x'; 1000].into()),
                    index: Piece::Built(vec![b'i'; 100].into()),
                },
            )),
            stored: false,
            cards: None,
            checked: None,
            names_art: false,
        }
    }

    #[test]
    fn card_keys_come_back_as_they_went_in_and_damage_is_refused() {
        let keys = [
            CardKeys {
                id: Some(1),
                name: Some(u64::MAX),
            },
            CardKeys {
                id: None,
                name: Some(7),
            },
            CardKeys {
                id: Some(9),
                name: None,
            },
            CardKeys {
                id: None,
                name: None,
            },
        ];
        let bytes = CardKeys::encode(&keys);
        assert_eq!(CardKeys::decode(&bytes).as_deref(), Some(&keys[..]));
        assert_eq!(CardKeys::decode(&bytes[..bytes.len() - 2]), None);
        assert_eq!(CardKeys::decode(&[4]), None);
    }

    /// One build of paths `a`..`j`, `a` with content `hash`, the rest as stored.
    fn build(cache: &mut Cache, hash: u64) {
        for name in ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"] {
            let path: Arc<str> = Arc::from(name);
            let mut entry = cache.take_set(name).unwrap_or_else(|| entry(0));
            if name == "a" && entry.hash != hash {
                entry = self::entry(hash);
            }
            cache.put_set(path, entry);
        }
        cache.save().unwrap();
    }

    #[test]
    fn edits_are_appended_and_the_file_is_rewritten_before_it_doubles() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".blades-cache");
        let mut cache = Cache::open(&path);
        cache.slack = 0;
        build(&mut cache, 1);
        let full = std::fs::metadata(&path).unwrap().len();
        let mut sizes = Vec::new();
        for hash in 2..40 {
            // A new process each time, as with `blades build`.
            let mut cache = Cache::open(&path);
            cache.slack = 0;
            assert_eq!(cache.sets.len(), 10);
            assert_eq!(cache.sets["a"].hash, hash - 1, "the last record counts");
            build(&mut cache, hash);
            sizes.push(std::fs::metadata(&path).unwrap().len());
        }
        assert!(sizes[0] > full, "an edit is appended");
        assert!(sizes.iter().all(|&s| s <= 2 * full + 100), "{sizes:?}");
        assert!(
            sizes.windows(2).any(|w| w[1] < w[0]),
            "rewritten: {sizes:?}"
        );
        let cache = Cache::open(&path);
        assert_eq!(cache.sets["a"].hash, 39);
        // No database file describes where the cards are: no output.
        assert!(cache.sets["a"].output.is_none());
    }

    /// A database of sets `a`..`j` as the build writes it, recorded in the
    /// cache; returns the database's path.
    fn write_database(cache: &mut Cache, dir: &Path) -> PathBuf {
        let out = dir.join("cards.json");
        let mut paths = Vec::new();
        let mut sets = Vec::new();
        for name in ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"] {
            let entry = cache.sets.get(name).unwrap();
            paths.push(Arc::from(name));
            sets.push(entry.output.as_ref().unwrap().1.clone());
        }
        let json = crate::artifacts::DatabaseJson {
            format: 1,
            sets,
            paths,
            cards: 10,
            keywords: None,
        };
        let written = crate::artifacts::write_database_json_file(&out, &json).unwrap();
        cache.database_written(&json.paths, &written);
        let state = crate::index::PoolState::default();
        let index = crate::artifacts::write_index(&crate::index::beside(&out), state, &json, None);
        cache.index_written(&json.paths, &index.unwrap());
        out
    }

    #[test]
    fn outputs_come_from_the_database_while_it_is_the_one_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".blades-cache");
        let mut cache = Cache::open(&path);
        build(&mut cache, 1);
        let out = write_database(&mut cache, dir.path());
        cache.save().unwrap();
        let first = std::fs::read(&out).unwrap();

        // Read back: every set's cards are in the database file.
        let mut cache = Cache::open_beside(&out);
        let cards = |cache: &Cache, name: &str| match &cache.sets[name].output {
            Some((_, json)) => match &json.cards {
                Piece::Written { file, range } => {
                    let mut bytes = Vec::new();
                    crate::artifacts::copy_range(file, range.clone(), &mut bytes).unwrap();
                    Some(bytes)
                }
                Piece::Built(_) => panic!("built, not read"),
            },
            None => None,
        };
        assert_eq!(cards(&cache, "c"), Some(vec![b'x'; 1000]));
        // A new database copied from the old one is the same file.
        build(&mut cache, 1);
        write_database(&mut cache, dir.path());
        cache.save().unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), first);
        assert!(Cache::open_beside(&out).sets["c"].output.is_some());

        // Rewritten by anything else, even to the same length: not used.
        std::fs::write(&out, vec![b'y'; first.len()]).unwrap();
        let cache = Cache::open_beside(&out);
        assert!(cache.sets.values().all(|e| e.output.is_none()));
        // Nor a database elsewhere.
        let elsewhere = dir.path().join("other.json");
        std::fs::copy(dir.path().join("cards.json"), &elsewhere).unwrap();
        assert!(
            Cache::open_with(&path, Some(&elsewhere)).sets["c"]
                .output
                .is_none()
        );
    }

    #[test]
    fn an_entry_with_findings_fits_only_the_file_named_as_they_name_it() {
        let shown: Arc<str> = Arc::from("cards/x.yaml");
        let mut entry = entry(1);
        assert!(
            entry.fits(&Arc::from("./cards/x.yaml")),
            "no findings: any name"
        );
        let finding = Diagnostic::error(crate::diagnostics::Code::YamlSyntax, &shown, 0..1, "bad");
        entry.effects = Some((7, vec![finding.clone()]));
        assert!(entry.fits(&shown));
        assert!(!entry.fits(&Arc::from("./cards/x.yaml")));
        entry.effects = None;
        let elsewhere = finding.with_related(&Arc::from("./cards/x.yaml"), 0..1, "here");
        entry.result.diagnostics.push(elsewhere);
        assert!(!entry.fits(&shown));
    }

    #[test]
    fn an_unchanged_build_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".blades-cache");
        build(&mut Cache::open(&path), 1);
        let before = std::fs::read(&path).unwrap();
        build(&mut Cache::open(&path), 1);
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }
}
