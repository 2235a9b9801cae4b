//! The card index: the database a build wrote, in a compact binary form,
//! beside the build cache (`.blades-index`), with the state of the pool it
//! was built from. A command that asks about an unchanged pool (`deck
//! check`, `card show`, `search`) opens it instead of building the pool
//! again and parsing the database's JSON back.
//!
//! The file is a log, appended to by the builds that change a few sets:
//!
//! - `blades-index 4\n`, then the identity of the tool that wrote it (a
//!   file from any other build is ignored);
//! - sections, one per set (and those of earlier builds' sets that have
//!   changed since): a directory (the set, and every card but its texts:
//!   id, names, STARs, kind, elements, types, copies…), with its length
//!   before it and its checksum after it, then the cards' texts (effect,
//!   flavor, errata, art) in [`crate::codec`]'s form, then the checksum
//!   of the whole section, so that a section stays where it is from one
//!   build to the next while its set is unchanged, a command that looks
//!   for one card reads the directories and that card's section alone,
//!   and a search that reads no text reads the directories alone;
//! - at the end, the head (JSON): every pool file's path, content hash
//!   and stamp, the database's format and keyword table, and where each
//!   set's section is; then the head's length and checksum. A build that
//!   changed a few sets appends their sections and a new head; the file
//!   is written anew when most of it is out of date.
//!
//! Anything wrong (another tool's file, a checksum that does not match, a
//! section that does not decode, a pool that is not the one it describes)
//! makes the index unused: the command builds as it would without it, and
//! the next build writes it anew. Commands never write it.

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::cards::{self, Sought};
use crate::codec::{Reader, Writer};
use crate::faces::art::ArtFormat;
use crate::files::{FileIdentity, read_at};
use crate::model::{Art, ByLang, Card, CardTranslation, Database, Errata, KeywordName, Set};
use crate::pool::{FileStamp, Pool};
use crate::words::{CardKind, Element, Id, SetKind};

/// First line of an index file (its format).
pub(crate) const MAGIC: &[u8] = b"blades-index 4\n";

/// Identity of the code that wrote an index: the same as the cache's.
pub(crate) const BUILD_ID: &str = concat!(env!("CARGO_PKG_VERSION"), "+", env!("BLADES_BUILD_ID"));

/// The largest head read (a pool of a million files stays well under it).
const MAX_HEAD_BYTES: u64 = 1 << 28;

/// Which parts of each card a reader of the index decodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Columns {
    /// The whole card.
    All,
    /// Without its texts: the effect (as written and rendered), the
    /// flavor, what translations say besides the name, errata and art.
    /// What a search that reads none of them needs, in a fraction of the
    /// time and memory.
    WithoutTexts,
}

/// The index file for a database written to `out`.
pub fn beside(out: &Path) -> PathBuf {
    crate::files::parent_of(out).join(".blades-index")
}

/// One pool file as the build that wrote the index read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileState {
    /// Path within the pool, with `/` separators.
    pub relative: String,
    /// Hash of its content.
    pub hash: u64,
    /// Its stamp, when the stamp alone vouches for the content.
    pub stamp: Option<FileStamp>,
}

/// Every file of a pool, in path order: what a database was built from.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolState {
    pub files: Vec<FileState>,
}

impl PoolState {
    /// The state of `pool` as read (a file left unread has the hash an
    /// earlier build vouched for).
    pub fn of(pool: &Pool) -> PoolState {
        let mut files: Vec<FileState> = (pool.sets.iter().chain(&pool.data))
            .map(|file| FileState {
                relative: file.relative.clone(),
                hash: file.hash(),
                stamp: file.stamp,
            })
            .collect();
        files.sort_by(|a, b| a.relative.cmp(&b.relative));
        PoolState { files }
    }

    /// Whether `pool` holds the same files with the same content (stamps
    /// aside). A pool with files that could not be read is never the same.
    pub fn describes(&self, pool: &Pool) -> bool {
        if !pool.problems.is_empty() || !pool.lossy.is_empty() {
            return false;
        }
        let now = PoolState::of(pool);
        now.files.len() == self.files.len()
            && (now.files.iter().zip(&self.files))
                .all(|(a, b)| a.relative == b.relative && a.hash == b.hash)
    }

    /// The content hash of the file at `relative` when the index vouches
    /// for it: the build read it with this very stamp.
    pub fn known(&self, relative: &str, stamp: &FileStamp) -> Option<u64> {
        let at = (self.files)
            .binary_search_by(|f| f.relative.as_str().cmp(relative))
            .ok()?;
        let file = &self.files[at];
        (file.stamp.as_ref() == Some(stamp)).then_some(file.hash)
    }
}

/// What the head of an index says.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Head {
    pub(crate) state: PoolState,
    /// The database file written beside the index, when the build wrote it.
    pub(crate) database: Option<FileIdentity>,
    pub(crate) format: u32,
    pub(crate) keywords: Option<Vec<KeywordName>>,
    pub(crate) cards: usize,
    /// Each set's file path, and its section's bytes in the file.
    pub(crate) sets: Vec<(Arc<str>, Range<u64>)>,
}

/// What a name designates in the index ([`Index::lookup`]).
#[derive(Debug)]
pub struct Lookup {
    /// The first card the name designates, in database order, with its set.
    pub found: Option<(Card, Set)>,
    /// Every language a card or set of the database is translated into.
    pub languages: BTreeSet<String>,
}

/// What [`Index::cards_sought`] found.
#[derive(Debug)]
pub struct SoughtCards {
    /// Every set, and the cards that answer to a reading.
    pub database: Database,
    /// Whether every reference has a reading some card answers to: when
    /// one has none, its check must report it with suggestions, from
    /// every name.
    pub every_reference_found: bool,
}

/// What one section's directory told [`Index::lookup`].
struct Scanned {
    /// The place in the section of the card looked for.
    hit: Option<usize>,
    languages: BTreeSet<String>,
}

/// An index file opened: its head read and checked, its sections left on
/// disk until the database is asked for.
#[derive(Debug)]
pub struct Index {
    file: std::fs::File,
    head: Head,
}

impl Index {
    /// The index at `path`, if there is one this build wrote, whole.
    pub fn open(path: &Path) -> Option<Index> {
        let file = std::fs::File::open(path).ok()?;
        let len = file.metadata().ok()?.len();
        let expected = prefix();
        let mut prefix = vec![0; expected.len()];
        read_at(&file, 0, &mut prefix).ok()?;
        if prefix != expected {
            return None;
        }
        let first_section = prefix.len() as u64;
        let head_end = len.checked_sub(TRAILER_LEN)?;
        let mut trailer = [0; TRAILER_LEN as usize];
        read_at(&file, head_end, &mut trailer).ok()?;
        let (head_len, sum) = trailer.split_at(8);
        let head_len = u64::from_le_bytes(head_len.try_into().ok()?);
        let head_start = head_end.checked_sub(head_len)?;
        if head_len > MAX_HEAD_BYTES || head_start < first_section {
            return None;
        }
        let mut head_bytes = vec![0; usize::try_from(head_len).ok()?];
        read_at(&file, head_start, &mut head_bytes).ok()?;
        if xxhash_rust::xxh3::xxh3_64(&head_bytes) != u64::from_le_bytes(sum.try_into().ok()?) {
            return None;
        }
        let head: Head = serde_json::from_slice(&head_bytes).ok()?;
        let fits =
            |r: &Range<u64>| first_section <= r.start && r.start <= r.end && r.end <= head_start;
        if !head.sets.iter().all(|(_, r)| fits(r)) {
            return None;
        }
        Some(Index { file, head })
    }

    /// The card index beside the database file at `path`, when it was
    /// written with that very file (`search --db`).
    pub fn of_database(path: &Path) -> Option<Index> {
        let identity = FileIdentity::of(&std::fs::metadata(path).ok()?);
        let index = Index::open(&beside(path))?;
        (index.head.database.as_ref() == Some(&identity)).then_some(index)
    }

    /// Whether the index was written for a pool in `state` and the
    /// database file `database`.
    pub fn describes(&self, state: &PoolState, database: Option<&FileIdentity>) -> bool {
        &self.head.state == state && self.head.database.as_ref() == database
    }

    /// The state of the pool the index was built from.
    pub fn state(&self) -> &PoolState {
        &self.head.state
    }

    /// The database, the sets' sections read and decoded in parallel a
    /// batch at a time; `None` when any section is
    /// damaged.
    pub fn database(&self) -> Option<Database> {
        self.database_with(Columns::All)
    }

    /// [`Index::database`] with only `columns` of each card.
    pub fn database_with(&self, columns: Columns) -> Option<Database> {
        let every_card = self.head.cards;
        self.gather(every_card, &|range, buffer| {
            self.decode(range, columns, buffer)
        })
    }

    /// Every set, without a card: what the sections' directories say of
    /// their sets.
    pub fn sets(&self) -> Option<Database> {
        self.gather(0, &|range, buffer| {
            let set = read_set(&mut Reader(self.directory(range, buffer)?))?;
            Some((set, Vec::new()))
        })
    }

    /// Every set, and the cards `keep` keeps, without their texts: each
    /// section's directory is read and its cards decoded as a database
    /// of their own, whose places `keep` gives (in order); the others
    /// are dropped there. What a search holds is then a batch of sets and
    /// the cards it found, not the pool.
    pub fn database_sieved(
        &self,
        keep: &(dyn Fn(&Database) -> Vec<usize> + Sync),
    ) -> Option<Database> {
        self.gather(0, &|range, buffer| {
            let (set, cards) = self.decode(range, Columns::WithoutTexts, buffer)?;
            let mut section = Database {
                format: self.head.format,
                cards,
                sets: vec![set],
                keywords: None,
            };
            let mut places = keep(&section).into_iter().peekable();
            let kept = (std::mem::take(&mut section.cards).into_iter().enumerate())
                .filter(|(at, _)| places.next_if_eq(at).is_some())
                .map(|(_, card)| card)
                .collect();
            Some((section.sets.pop()?, kept))
        })
    }

    /// The database of what `section` makes of each section (given a
    /// buffer its thread keeps), read in parallel a batch at a time, with
    /// room for `cards` cards; `None` when any section is damaged.
    ///
    /// Each set's cards are made into a vector of their own and then
    /// moved into the database's: a batch bounds those vectors and the
    /// sections' bytes to what [`DECODE_BATCH`] sets hold, freed and used
    /// again by the next batch, where the whole pool's at once stayed
    /// resident after the decode (bench/SERVE.md, part 8).
    fn gather(&self, cards: usize, section: &SectionReader<'_>) -> Option<Database> {
        let mut database = Database {
            format: self.head.format,
            cards: Vec::with_capacity(cards),
            sets: Vec::with_capacity(self.head.sets.len()),
            keywords: self.head.keywords.clone(),
        };
        for batch in self.head.sets.chunks(DECODE_BATCH) {
            let sets: Vec<(Set, Vec<Card>)> = (batch.par_iter())
                .map_init(Vec::new, |buffer, (_, range)| section(range, buffer))
                .collect::<Option<_>>()?;
            for (set, cards) in sets {
                database.sets.push(set);
                database.cards.extend(cards);
            }
        }
        Some(database)
    }

    /// One section decoded with `columns`: without texts, only its
    /// directory is read.
    fn decode(
        &self,
        range: &Range<u64>,
        columns: Columns,
        buffer: &mut Vec<u8>,
    ) -> Option<(Set, Vec<Card>)> {
        match columns {
            Columns::All => decode_section(&self.section(range)?, columns),
            Columns::WithoutTexts => {
                let directory = read_directory(self.directory(range, buffer)?)?;
                let cards = cards_without_texts(&directory)?;
                Some((directory.set, cards))
            }
        }
    }

    /// The first card `name` designates ([`cards::designates`]), in
    /// database order, and the database's languages, from the sections'
    /// directories: only that card's section is read whole and only that
    /// card decoded. `None` when a directory or that section is damaged.
    pub fn lookup(&self, name: &str) -> Option<Lookup> {
        let wanted = cards::wanted(name);
        let scanned: Vec<Scanned> = (self.head.sets.par_iter())
            .map_init(Vec::new, |buffer, (_, range)| {
                self.scan(range, &wanted, buffer)
            })
            .collect::<Option<_>>()?;
        let mut languages = BTreeSet::new();
        let mut first = None;
        for (section, scanned) in scanned.into_iter().enumerate() {
            languages.extend(scanned.languages);
            first = first.or(scanned.hit.map(|hit| (section, hit)));
        }
        let found = match first {
            Some((section, hit)) => {
                let (mut cards, set) = self.cards_in(section, &[hit])?;
                Some((cards.pop()?, set))
            }
            None => None,
        };
        Some(Lookup { found, languages })
    }

    /// The database cut down to the cards that answer to a reading of
    /// `sought` ([`Sought::answers`]), in database order, with every set:
    /// only the sections' directories and the sections of those cards are
    /// read, and only those cards decoded. `None` when a section read is
    /// damaged.
    pub fn cards_sought(&self, sought: &Sought) -> Option<SoughtCards> {
        let hits: Vec<(Set, Vec<usize>, Vec<bool>)> = (self.head.sets.par_iter())
            .map_init(Vec::new, |buffer, (_, range)| {
                self.hits(range, sought, buffer)
            })
            .collect::<Option<_>>()?;
        let mut found = vec![false; sought.readings()];
        let mut database = Database {
            format: self.head.format,
            cards: Vec::new(),
            sets: Vec::with_capacity(hits.len()),
            keywords: self.head.keywords.clone(),
        };
        for (section, (set, at, answered)) in hits.into_iter().enumerate() {
            database.sets.push(set);
            (found.iter_mut().zip(answered)).for_each(|(found, answered)| *found |= answered);
            if !at.is_empty() {
                database.cards.extend(self.cards_in(section, &at)?.0);
            }
        }
        Some(SoughtCards {
            every_reference_found: sought.all_found(&found),
            database,
        })
    }

    /// The places in one section of the cards that answer to `sought`,
    /// from its directory, with the section's set and the readings they
    /// answer to.
    fn hits(
        &self,
        range: &Range<u64>,
        sought: &Sought,
        buffer: &mut Vec<u8>,
    ) -> Option<(Set, Vec<usize>, Vec<bool>)> {
        let directory = read_directory(self.directory(range, buffer)?)?;
        let mut found = vec![false; sought.readings()];
        let mut buffer = String::new();
        let mut hits = Vec::new();
        for (at, entry) in directory.entries.iter().enumerate() {
            let names = std::iter::once(entry.name)
                .chain(entry.translations.iter().filter_map(|(_, name)| *name));
            if sought.answers(entry.id, names, &mut found, &mut buffer) {
                hits.push(at);
            }
        }
        Some((directory.set, hits, found))
    }

    /// The cards at places `at` in section `section`, with the section's
    /// set (the section read whole, to check its checksum).
    fn cards_in(&self, section: usize, at: &[usize]) -> Option<(Vec<Card>, Set)> {
        let bytes = self.section(&self.head.sets.get(section)?.1)?;
        let (directory, texts) = split_section(&bytes)?;
        let directory = read_directory(directory)?;
        let texts_at: Vec<Range<usize>> = directory.texts_at().collect();
        let cards = (at.iter())
            .map(|&at| {
                card_of(
                    directory.entries.get(at)?,
                    Some(texts.get(texts_at.get(at)?.clone())?),
                )
            })
            .collect::<Option<_>>()?;
        Some((cards, directory.set))
    }

    /// One section's directory read for [`Index::lookup`].
    fn scan(&self, range: &Range<u64>, wanted: &str, buffer: &mut Vec<u8>) -> Option<Scanned> {
        let directory = read_directory(self.directory(range, buffer)?)?;
        let mut languages: BTreeSet<String> = directory.set.translations.keys().cloned().collect();
        let mut hit = None;
        for (at, entry) in directory.entries.iter().enumerate() {
            for (lang, _) in &entry.translations {
                if !languages.contains(*lang) {
                    languages.insert(lang.to_string());
                }
            }
            if hit.is_none() && entry.designated_by(wanted) {
                hit = Some(at);
            }
        }
        Some(Scanned { hit, languages })
    }

    /// A section's directory alone, read from the file into `buffer` (a
    /// thread's, used again for each section) and checked. One read
    /// when the directory is under [`DIRECTORY_GUESS`] bytes, as most are.
    fn directory<'b>(&self, range: &Range<u64>, buffer: &'b mut Vec<u8>) -> Option<&'b [u8]> {
        let section_len = usize::try_from(range.end - range.start).ok()?;
        let first = section_len.min(DIRECTORY_GUESS);
        buffer.resize(first, 0);
        read_at(&self.file, range.start, buffer).ok()?;
        let len = u64::from_le_bytes(*buffer.first_chunk::<8>()?);
        let whole = usize::try_from(len).ok()?.checked_add(16)?;
        if whole > section_len {
            return None;
        }
        if whole > first {
            buffer.resize(whole, 0);
            read_at(&self.file, range.start + first as u64, &mut buffer[first..]).ok()?;
        }
        let (directory, sum) = buffer.get(8..whole)?.split_at(whole - 16);
        let sum = u64::from_le_bytes(sum.try_into().ok()?);
        (xxhash_rust::xxh3::xxh3_64(directory) == sum).then_some(directory)
    }

    /// A section's bytes, read from the file (without its checksum, once
    /// checked).
    fn section(&self, range: &Range<u64>) -> Option<Vec<u8>> {
        let len = usize::try_from(range.end - range.start).ok()?;
        let mut bytes = vec![0; len];
        read_at(&self.file, range.start, &mut bytes).ok()?;
        let (body, sum) = bytes.split_at(len.checked_sub(8)?);
        let sum = u64::from_le_bytes(sum.try_into().ok()?);
        (xxhash_rust::xxh3::xxh3_64(body) == sum).then(|| {
            bytes.truncate(len - 8);
            bytes
        })
    }
}

/// What [`Index::gather`] makes of one section (at a range of the file,
/// with a buffer its thread keeps): its set and cards, `None` if damaged.
type SectionReader<'a> = dyn Fn(&Range<u64>, &mut Vec<u8>) -> Option<(Set, Vec<Card>)> + Sync + 'a;

/// Bytes read at first for a section's directory: its length, and the
/// whole of it when it is that short (a set of 40 cards takes about 3 KB).
const DIRECTORY_GUESS: usize = 8 << 10;

/// Sets decoded at once by [`Index::database`]: enough to keep both
/// cores busy, few enough that their transient bytes stay small.
const DECODE_BATCH: usize = 64;

/// Bytes after the head: its length and its checksum.
pub(crate) const TRAILER_LEN: u64 = 16;

/// What an index file begins with: its format and the tool's identity.
pub(crate) fn prefix() -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&(BUILD_ID.len() as u64).to_le_bytes());
    out.extend_from_slice(BUILD_ID.as_bytes());
    out
}

/// Where the first section starts.
pub(crate) fn prefix_len() -> u64 {
    prefix().len() as u64
}

/// The end of an index file: its head, then the head's length and
/// checksum.
pub(crate) fn head_and_trailer(head: &Head) -> std::io::Result<Vec<u8>> {
    let mut out = serde_json::to_vec(head).map_err(std::io::Error::other)?;
    let sum = xxhash_rust::xxh3::xxh3_64(&out);
    out.extend_from_slice(&(out.len() as u64).to_le_bytes());
    out.extend_from_slice(&sum.to_le_bytes());
    Ok(out)
}

/// A set's section without its checksum, as [`read_section`] reads it.
pub fn write_section(set: &Set, cards: &[Card]) -> Vec<u8> {
    let mut bytes = encode_section(set, cards);
    bytes.truncate(bytes.len() - 8);
    bytes
}

/// The set and cards of a section without its checksum; `None` for
/// anything [`write_section`] did not write (never a panic).
pub fn read_section(bytes: &[u8]) -> Option<(Set, Vec<Card>)> {
    decode_section(bytes, Columns::All)
}

/// [`read_section`], the cards with only `columns`.
pub fn read_section_with(bytes: &[u8], columns: Columns) -> Option<(Set, Vec<Card>)> {
    decode_section(bytes, columns)
}

/// A set's section: its directory, the cards' texts, then the checksum of
/// those bytes. The directory holds the set (as JSON, one small object)
/// and every card but its texts: all that a deck check, a lookup and a
/// search that reads no text need. It has its length before it and its
/// own checksum after it, so that it is read and trusted alone.
pub(crate) fn encode_section(set: &Set, cards: &[Card]) -> Vec<u8> {
    let mut texts = Vec::with_capacity(cards.len() * 192);
    let mut lens = Vec::with_capacity(cards.len());
    for card in cards {
        let start = texts.len();
        encode_texts(&mut Writer(&mut texts), card);
        lens.push(texts.len() - start);
    }
    let directory = encode_directory(set, cards, &lens);
    let mut out = Vec::with_capacity(directory.len() + texts.len() + 24);
    out.extend_from_slice(&(directory.len() as u64).to_le_bytes());
    out.extend_from_slice(&directory);
    out.extend_from_slice(&xxhash_rust::xxh3::xxh3_64(&directory).to_le_bytes());
    out.extend_from_slice(&texts);
    let sum = xxhash_rust::xxh3::xxh3_64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// The set, then each card's id, names, columns (length-prefixed, so
/// that a reader after a name skips them) and the length of its texts.
fn encode_directory(set: &Set, cards: &[Card], lens: &[usize]) -> Vec<u8> {
    let mut out = Vec::with_capacity(256 + cards.len() * 64);
    let set_json = serde_json::to_vec(set).expect("a set serializes");
    let mut columns = Vec::with_capacity(64);
    let mut w = Writer(&mut out);
    w.number(set_json.len());
    w.0.extend_from_slice(&set_json);
    w.number(cards.len());
    for (card, &len) in cards.iter().zip(lens) {
        w.text(&card.id.0);
        w.text(&card.name);
        w.number(card.translations.len());
        for (lang, translation) in card.translations.iter() {
            w.text(lang);
            w.optional_text(translation.name.as_deref());
        }
        columns.clear();
        encode_columns(&mut Writer(&mut columns), card);
        w.number(columns.len());
        w.0.extend_from_slice(&columns);
        w.number(len);
    }
    out
}

/// A card's fields that are not texts, names aside.
fn encode_columns(w: &mut Writer<'_>, card: &Card) {
    w.text(&card.set.0);
    w.choice(&CardKind::ALL, &card.kind);
    // No STAR is 0, which no STAR is (they run from 1).
    w.0.push(card.stars.unwrap_or(0));
    w.list(&card.elements, |w, e| w.choice(&Element::ALL, e));
    w.list(&card.types, |w, t| w.text(&t.0));
    w.optional_text(card.category.as_ref().map(|c| c.0.as_str()));
    w.choice(&SetKind::ALL, &card.rarity);
    w.0.push(card.copies);
}

/// A card's texts: its effect (as written and rendered), flavor, what
/// its translations say besides the name (in the directory's order),
/// errata and art.
fn encode_texts(w: &mut Writer<'_>, card: &Card) {
    w.optional_text(card.effect.as_deref());
    w.number(card.effect_text.len());
    for (lang, text) in card.effect_text.iter() {
        w.text(lang);
        w.text(text);
    }
    w.optional_text(card.flavor.as_deref());
    w.number(card.translations.len());
    for (_, t) in card.translations.iter() {
        w.optional_text(t.flavor.as_deref());
        w.optional_text(t.effect.as_deref());
        w.list(&t.stale, |w, field| w.text(field));
    }
    write_errata(w, &card.errata);
    match &card.art {
        None => w.0.push(0),
        Some(art) => {
            w.0.push(1);
            w.text(&art.file);
            w.choice(&ArtFormat::ALL, &art.format);
            w.number(art.width as usize);
            w.number(art.height as usize);
            w.text(&art.fingerprint);
        }
    }
}

/// What a section's directory says of one card.
struct Entry<'a> {
    id: &'a str,
    name: &'a str,
    /// Every translation's language, and its name of the card if it has one.
    translations: Vec<(&'a str, Option<&'a str>)>,
    /// The card's columns, as [`encode_columns`] wrote them.
    columns: &'a [u8],
    /// The length of the card's texts.
    len: usize,
}

impl Entry<'_> {
    fn designated_by(&self, wanted: &str) -> bool {
        let translated = self.translations.iter().filter_map(|(_, name)| *name);
        cards::designates(wanted, self.id, self.name, translated)
    }
}

/// A section's directory: its set and what it says of each card.
struct Directory<'a> {
    set: Set,
    entries: Vec<Entry<'a>>,
}

impl Directory<'_> {
    /// Where each card's texts lie in the section's texts.
    fn texts_at(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        let mut at = 0;
        self.entries.iter().map(move |entry| {
            let start = at;
            at += entry.len;
            start..at
        })
    }
}

fn read_directory(bytes: &[u8]) -> Option<Directory<'_>> {
    let mut r = Reader(bytes);
    let set = read_set(&mut r)?;
    let entries = r.list(|r| {
        Some(Entry {
            id: r.str()?,
            name: r.str()?,
            translations: r.list(|r| Some((r.str()?, r.optional_str()?)))?,
            columns: r.bytes()?,
            len: r.number()?,
        })
    })?;
    r.0.is_empty().then_some(Directory { set, entries })
}

fn read_set(r: &mut Reader<'_>) -> Option<Set> {
    let set_len = r.number()?;
    let (set_json, rest) = r.0.split_at_checked(set_len)?;
    r.0 = rest;
    serde_json::from_slice(set_json).ok()
}

/// A section (without its final checksum) cut into its directory and its
/// cards' texts; `None` when the directory's checksum fails.
fn split_section(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let (len, rest) = bytes.split_first_chunk::<8>()?;
    let len = usize::try_from(u64::from_le_bytes(*len)).ok()?;
    let directory = rest.get(..len)?;
    let (sum, texts) = rest[len..].split_first_chunk::<8>()?;
    (xxhash_rust::xxh3::xxh3_64(directory) == u64::from_le_bytes(*sum))
        .then_some((directory, texts))
}

fn decode_section(bytes: &[u8], columns: Columns) -> Option<(Set, Vec<Card>)> {
    let (directory, texts) = split_section(bytes)?;
    let directory = read_directory(directory)?;
    let every_text: usize = directory.entries.iter().map(|e| e.len).sum();
    if every_text != texts.len() {
        return None;
    }
    let cards = match columns {
        Columns::All => (directory.entries.iter().zip(directory.texts_at()))
            .map(|(entry, at)| card_of(entry, Some(texts.get(at)?)))
            .collect::<Option<_>>()?,
        Columns::WithoutTexts => cards_without_texts(&directory)?,
    };
    Some((directory.set, cards))
}

/// Every card of a directory, without its texts.
fn cards_without_texts(directory: &Directory<'_>) -> Option<Vec<Card>> {
    (directory.entries.iter())
        .map(|entry| card_of(entry, None))
        .collect()
}

/// The card a directory's entry describes, with `texts` when given.
fn card_of(entry: &Entry<'_>, texts: Option<&[u8]>) -> Option<Card> {
    let mut r = Reader(entry.columns);
    let set = Id(r.text()?);
    let kind = r.choice(&CardKind::ALL)?;
    let stars = Some(r.byte()?).filter(|s| *s != 0);
    let elements = r.list(|r| r.choice(&Element::ALL))?;
    let types = r.list(|r| r.text().map(Id))?;
    let category = r.optional_text()?.map(Id);
    let rarity = r.choice(&SetKind::ALL)?;
    let copies = r.byte()?;
    if !r.0.is_empty() {
        return None;
    }
    let texts = match texts {
        Some(bytes) => read_texts(bytes, entry.translations.len())?,
        None => Texts::default(),
    };
    let mut told = texts.translations.into_iter();
    let translations = (entry.translations.iter())
        .map(|&(lang, name)| {
            let (flavor, effect, stale) = told.next().unwrap_or_default();
            let name = name.map(str::to_owned);
            let translation = CardTranslation {
                name,
                flavor,
                effect,
                stale,
            };
            (lang.to_owned(), translation)
        })
        .collect();
    let translations = ByLang::from_sorted(translations)?;
    Some(Card {
        id: Id(entry.id.to_owned()),
        name: entry.name.to_owned(),
        set,
        kind,
        stars,
        elements,
        types,
        category,
        rarity,
        copies,
        effect: texts.effect,
        effect_tree: None,
        effect_text: texts.effect_text,
        flavor: texts.flavor,
        translations,
        errata: texts.errata,
        art: texts.art,
    })
}

/// A translation's flavor, effect and stale fields.
type TranslationTexts = (Option<String>, Option<String>, Vec<String>);

/// What [`encode_texts`] wrote of one card.
#[derive(Default)]
struct Texts {
    effect: Option<String>,
    effect_text: ByLang<String>,
    flavor: Option<String>,
    translations: Vec<TranslationTexts>,
    errata: Vec<Errata>,
    art: Option<Art>,
}

/// A card's texts from exactly their bytes, for a card with
/// `translations` translations.
fn read_texts(bytes: &[u8], translations: usize) -> Option<Texts> {
    let mut r = Reader(bytes);
    let effect = r.optional_text()?;
    let effect_text = (0..r.count()?)
        .map(|_| Some((r.text()?, r.text()?)))
        .collect::<Option<Vec<_>>>()?;
    let effect_text = ByLang::from_sorted(effect_text)?;
    let flavor = r.optional_text()?;
    let told = r.list(|r| {
        let flavor = r.optional_text()?;
        let effect = r.optional_text()?;
        Some((flavor, effect, r.list(Reader::text)?))
    })?;
    if told.len() != translations {
        return None;
    }
    let errata = read_errata(&mut r)?;
    let art = match r.byte()? {
        0 => None,
        1 => Some(Art {
            file: r.text()?,
            format: r.choice(&ArtFormat::ALL)?,
            width: u32::try_from(r.number()?).ok()?,
            height: u32::try_from(r.number()?).ok()?,
            fingerprint: r.text()?,
        }),
        _ => return None,
    };
    r.0.is_empty().then_some(Texts {
        effect,
        effect_text,
        flavor,
        translations: told,
        errata,
        art,
    })
}

/// A card's errata, as the cache and the index both keep them.
pub(crate) fn write_errata(w: &mut Writer<'_>, errata: &[Errata]) {
    w.list(errata, |w, errata| {
        w.text(&errata.until);
        w.text(&errata.effect);
        w.optional_text(errata.note.as_deref());
    });
}

/// Errata written by [`write_errata`].
pub(crate) fn read_errata(r: &mut Reader<'_>) -> Option<Vec<Errata>> {
    r.list(|r| {
        Some(Errata {
            until: r.text()?,
            effect: r.text()?,
            note: r.optional_text()?,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_come_back_as_they_went_in_and_damage_is_refused() {
        let database = crate::compile::builtin_as_read();
        let set = &database.sets[0];
        let cards: Vec<Card> = (database.cards.iter())
            .filter(|c| c.set == set.id)
            .cloned()
            .collect();
        let bytes = encode_section(set, &cards);
        let (body, _) = bytes.split_at(bytes.len() - 8);
        let (set_back, cards_back) = decode_section(body, Columns::All).expect("decodes");
        assert_eq!(&set_back, set);
        assert_eq!(cards_back, cards);
        crate::codec::assert_refuses_damage(body, |b| decode_section(b, Columns::All));
    }
}
