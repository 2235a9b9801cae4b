//! The incremental build cache, for one build of the tool, keyed by each
//! file's path and a hash of its content:
//!
//! - a set file's own result (its readable cards with their spans, and its
//!   own findings), its effect findings for one vocabulary, and its part of
//!   the database as JSON for one context (vocabulary, phrase books and its
//!   translation files);
//! - a translation file's language, target set and own findings.
//!
//! Stored as one file beside the database output; deleting it only costs a
//! full build. The file is a header and a log of records, one per source
//! file result: the structured part as JSON, decoded in parallel, and the
//! database JSON as raw bytes, copied out as they are. A build appends the
//! records of what changed (a later record for a path replaces an earlier
//! one) and rewrites the file only when most of its bytes are out of date.
//! Every record ends with a checksum; a damaged file is ignored as a whole.

use std::collections::HashMap;
use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use serde::{Deserialize, Serialize, Serializer};

use crate::compile::{
    CardSpans, FileResult, LoadedCard, LoadedSet, LocaleSummary, SetJson, SharedBytes,
};
use crate::diagnostics::Diagnostic;
use crate::model::{CardKind, CardSource, Element, Id};
use crate::yaml::TextStyle;

/// Identity of the code that produced a cache; a cache from any other build
/// is ignored.
pub const BUILD_ID: &str = concat!(env!("CARGO_PKG_VERSION"), "+", env!("BLADES_BUILD_ID"));

/// First line of a cache file (its format).
const MAGIC: &[u8] = b"blades-cache 5\n";

/// Hash of a file's content.
pub fn content_hash(text: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(text.as_bytes())
}

/// What a set file contributed to a build.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SetEntry {
    /// Hash of the file's content.
    pub hash: u64,
    /// The file's own result (cards without their parsed effects).
    pub result: FileResult,
    /// Effect findings that depend on the pool's vocabulary, for the
    /// vocabulary with this key.
    pub effects: Option<(u64, Vec<Diagnostic>)>,
    /// The set's part of the database, for the context with this key.
    #[serde(skip)]
    pub output: Option<(u64, SetJson)>,
    /// The effect and flavor texts of the set's cards, kept apart.
    #[serde(skip)]
    pub texts: Option<CardTexts>,
    /// Whether this entry is in the cache file as it is.
    #[serde(skip)]
    pub stored: bool,
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

/// How the cache stores a card: one JSON array, without field names. A
/// cached pool holds 100,000 cards, and the names were a third of the
/// cache's bytes and most of the time spent reading it.
#[derive(Deserialize)]
pub struct CachedCard(
    usize,
    Id,
    String,
    CardKind,
    u8,
    Vec<Element>,
    Vec<Id>,
    Option<u8>,
    Option<String>,
    Option<String>,
    CachedSpans,
);

/// [`CardSpans`] as an array of `[start, end]` pairs.
#[derive(Deserialize)]
pub struct CachedSpans(
    (usize, usize),
    (usize, usize),
    (usize, usize),
    (usize, usize),
    Vec<(usize, usize)>,
    Vec<(usize, usize)>,
    (usize, usize),
    TextStyle,
);

impl From<CachedCard> for LoadedCard {
    fn from(cached: CachedCard) -> LoadedCard {
        let CachedCard(
            index,
            id,
            name,
            kind,
            stars,
            elements,
            types,
            copies,
            effect,
            flavor,
            spans,
        ) = cached;
        let CachedSpans(
            id_span,
            id_key,
            name_span,
            copies_span,
            element_spans,
            type_spans,
            effect_span,
            effect_style,
        ) = spans;
        let range = |(start, end): (usize, usize)| start..end;
        LoadedCard {
            index,
            card: CardSource {
                id,
                name,
                kind,
                stars,
                elements,
                types,
                copies,
                effect,
                flavor,
            },
            spans: CardSpans {
                id: range(id_span),
                id_key: range(id_key),
                name: range(name_span),
                copies: range(copies_span),
                elements: element_spans.into_iter().map(range).collect(),
                types: type_spans.into_iter().map(range).collect(),
                effect: range(effect_span),
                effect_style,
            },
            // Parsed again from the text when needed.
            effect: None,
        }
    }
}

impl Serialize for LoadedCard {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (card, spans) = (&self.card, &self.spans);
        let pair = |r: &Range<usize>| (r.start, r.end);
        let spans = (
            pair(&spans.id),
            pair(&spans.id_key),
            pair(&spans.name),
            pair(&spans.copies),
            Pairs(&spans.elements),
            Pairs(&spans.types),
            pair(&spans.effect),
            spans.effect_style,
        );
        (
            self.index,
            &card.id,
            &card.name,
            card.kind,
            card.stars,
            &card.elements,
            &card.types,
            card.copies,
            &card.effect,
            &card.flavor,
            spans,
        )
            .serialize(serializer)
    }
}

/// Spans serialized as `[[start, end], ...]`.
struct Pairs<'a>(&'a [Range<usize>]);

impl Serialize for Pairs<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|r| (r.start, r.end)))
    }
}

/// What a translation file contributed to a build.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LocaleEntry {
    pub hash: u64,
    pub summary: LocaleSummary,
    /// Whether this entry is in the cache file as it is.
    #[serde(skip)]
    pub stored: bool,
}

/// Per-file results of earlier builds.
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
            sets: HashMap::new(),
            locales: HashMap::new(),
            disk: None,
            slack: REWRITE_SLACK,
            fresh_sets: Vec::new(),
            fresh_locales: Vec::new(),
        }
    }

    /// Opens a cache; a missing, unreadable, corrupt or foreign one is empty.
    pub fn open(path: &Path) -> Cache {
        let mut cache = Cache::empty(path);
        if let Ok(bytes) = std::fs::read(path)
            && let Some(decoded) = decode(&Arc::new(bytes))
        {
            cache.sets = decoded.sets;
            cache.locales = decoded.locales;
            cache.disk = Some(decoded.disk);
        }
        cache
    }

    /// Takes the set entry recorded for this path (whatever its content was).
    pub fn take_set(&mut self, path: &str) -> Option<SetEntry> {
        self.sets.remove(path)
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

    /// How many set files this build recorded.
    pub fn len(&self) -> usize {
        self.fresh_sets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.fresh_sets.is_empty()
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
        Ok(())
    }

    /// The record keys of the entries that are in the file as they are.
    fn stored_keys(&self) -> impl Iterator<Item = (u8, Arc<str>)> + '_ {
        let sets = self.sets.iter().filter(|(_, e)| e.stored);
        let locales = self.locales.iter().filter(|(_, e)| e.stored);
        sets.map(|(p, _)| (SET_RECORD, p.clone()))
            .chain(locales.map(|(p, _)| (LOCALE_RECORD, p.clone())))
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
            current: HashMap::new(),
        };
        crate::output::write_artifact(&self.path, |out| {
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
    let texts = CardTexts::encode(entry.texts.as_ref());
    let output = entry.output.as_ref();
    let size = output.map_or(0, |(_, j)| j.set.len() + j.cards.len());
    let mut record = Vec::with_capacity(path.len() + meta.len() + texts.len() + size + 64);
    record.push(SET_RECORD);
    let write = |record: &mut Vec<u8>| -> std::io::Result<()> {
        write_chunk(record, path.as_bytes())?;
        write_chunk(record, &meta)?;
        write_chunk(record, &texts)?;
        match output {
            Some((key, json)) => {
                record.push(1);
                record.extend_from_slice(&key.to_le_bytes());
                write_chunk(record, &json.set)?;
                write_chunk(record, &json.cards)
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
    let mut record = vec![LOCALE_RECORD];
    write_chunk(&mut record, path.as_bytes()).expect("writing to memory");
    write_chunk(&mut record, &meta).expect("writing to memory");
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
    texts: &'a [u8],
    output: Option<(u64, &'a [u8], &'a [u8])>,
}

struct Decoded {
    sets: HashMap<Arc<str>, SetEntry>,
    locales: HashMap<Arc<str>, LocaleEntry>,
    disk: OnDisk,
}

/// A cache file's entries, or `None` when it is not a cache of this build
/// or is damaged in any way.
fn decode(buffer: &Arc<Vec<u8>>) -> Option<Decoded> {
    let bytes = buffer.as_slice();
    // The database pieces stay in the buffer, found by their offset.
    let shared = |piece: &[u8]| {
        let start = piece.as_ptr() as usize - bytes.as_ptr() as usize;
        SharedBytes::slice(buffer, start..start + piece.len())
    };
    let mut reader = Reader {
        bytes: bytes.strip_prefix(MAGIC)?,
    };
    if reader.chunk()? != BUILD_ID.as_bytes() {
        return None;
    }
    // Split into records first (cheap), then check and decode them in
    // parallel; of several records for a path, the last one counts.
    let mut records = Vec::new();
    while !reader.bytes.is_empty() {
        let start = reader.bytes;
        let kind = reader.byte()?;
        let path = std::str::from_utf8(reader.chunk()?).ok()?;
        let meta = reader.chunk()?;
        let (texts, output) = match kind {
            SET_RECORD => {
                let texts = reader.chunk()?;
                let output = match reader.byte()? {
                    0 => None,
                    1 => Some((reader.u64()?, reader.chunk()?, reader.chunk()?)),
                    _ => return None,
                };
                (texts, output)
            }
            LOCALE_RECORD => (&[][..], None),
            _ => return None,
        };
        let body = &start[..start.len() - reader.bytes.len()];
        let sum = reader.u64()?;
        records.push(Record {
            sealed: (body, sum),
            kind,
            path,
            meta,
            texts,
            output,
        });
    }
    let intact = records
        .par_iter()
        .all(|r| xxhash_rust::xxh3::xxh3_64(r.sealed.0) == r.sealed.1);
    if !intact {
        return None;
    }
    let mut last: HashMap<(u8, &str), usize> = HashMap::new();
    for (i, record) in records.iter().enumerate() {
        last.insert((record.kind, record.path), i);
    }
    let current: Vec<&Record> = records
        .iter()
        .enumerate()
        .filter(|(i, r)| last.get(&(r.kind, r.path)) == Some(i))
        .map(|(_, r)| r)
        .collect();
    let sets: Option<HashMap<Arc<str>, SetEntry>> = current
        .par_iter()
        .filter(|r| r.kind == SET_RECORD)
        .map(|r| {
            // Checked as UTF-8 once, not string by string.
            let meta = std::str::from_utf8(r.meta).ok()?;
            let mut entry: SetEntry = serde_json::from_str(meta).ok()?;
            let path: Arc<str> = Arc::from(r.path);
            if let Some(set) = &mut entry.result.set {
                set.path = Arc::clone(&path);
            }
            entry.output = match r.output {
                Some((key, set, cards)) => Some((
                    key,
                    SetJson {
                        set: shared(set)?,
                        cards: shared(cards)?,
                    },
                )),
                None => None,
            };
            entry.texts = match r.texts {
                b"null" => None,
                texts => Some(CardTexts::Stored(shared(texts)?)),
            };
            entry.stored = true;
            Some((path, entry))
        })
        .collect();
    let locales: Option<HashMap<Arc<str>, LocaleEntry>> = current
        .par_iter()
        .filter(|r| r.kind == LOCALE_RECORD)
        .map(|r| {
            let meta = std::str::from_utf8(r.meta).ok()?;
            let mut entry: LocaleEntry = serde_json::from_str(meta).ok()?;
            entry.stored = true;
            Some((Arc::from(r.path), entry))
        })
        .collect();
    let current_sizes = current
        .iter()
        .map(|r| {
            let size = r.sealed.0.len() + 8;
            ((r.kind, Arc::from(r.path)), size)
        })
        .collect();
    Some(Decoded {
        sets: sets?,
        locales: locales?,
        disk: OnDisk {
            len: bytes.len(),
            current: current_sizes,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(hash: u64) -> SetEntry {
        SetEntry {
            hash,
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
                    cards: vec![b'x'; 1000].into(),
                },
            )),
            stored: false,
        }
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
        assert_eq!(
            &*cache.sets["a"].output.as_ref().unwrap().1.set,
            b"{\"n\":39}"
        );
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
