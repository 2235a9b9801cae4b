//! What the translation commands read of each file, kept between runs so a
//! run parses only the files that changed since the last one: a set file's
//! translation units, a locale file as parsed, each with its findings and
//! where its lines start (a report names a line; the text itself is read
//! again only for a file with findings).
//!
//! Kept in one file beside the last build's output (`dist/.blades-i18n`),
//! keyed by each file's path within the pool and the hash of its content;
//! a file whose stamp the memo recorded is not even read. Written whole
//! through a temp file and a rename; a damaged, foreign or older memo is
//! ignored (it costs one full read). Phrase books are not kept: they are
//! few, small, and checked against the effect language's own books.

use std::io::Read;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use foldhash::HashMap;
use saphyr_parser::ScalarStyle;

use super::keys::{Field, UnitKey};
use super::locale::{Entry, LocaleFile, Recorded, Target, TextAt};
use super::units::{CardInfo, SetInfo, Unit};
use crate::codec::{Reader, Writer};
use crate::diagnostics::Diagnostic;
use crate::index::BUILD_ID;
use crate::pool::{FileStamp, Pool, SourceFile};
use crate::words::{CardKind, Element, Id};
use crate::yaml::{LineEnd, Node, NodeValue};

/// First line of a memo file (its format).
const MAGIC: &[u8] = b"blades-i18n 2\n";

/// Where the memo of a build to `out` is kept.
pub fn beside(out: &Path) -> PathBuf {
    out.with_file_name(".blades-i18n")
}

/// Where a file's lines start: its report's line numbers without its text.
#[derive(Debug, Clone, Default)]
pub struct Lines(Arc<[usize]>);

impl Lines {
    pub fn of(text: &str) -> Lines {
        Lines(crate::diagnostics::line_starts(text).collect())
    }

    /// The 1-based line of a byte offset.
    pub fn line(&self, offset: usize) -> usize {
        self.0.partition_point(|&start| start <= offset)
    }
}

/// What a set file gives the translation tools.
#[derive(Debug, Clone)]
pub struct SetRecord {
    /// The set, when the file could be read as one.
    pub set: Option<SetInfo>,
    /// Its units, in file order (read from the memo: with their YAML node
    /// when it is a string, the only nodes the checks read).
    pub units: Vec<Unit>,
    /// How many errors reading it found (`blades build` reports them).
    pub errors: usize,
    pub lines: Lines,
}

/// What a locale file of a set gives the translation tools.
#[derive(Debug, Clone)]
pub struct LocaleRecord {
    pub lang: String,
    pub file: Option<LocaleFile>,
    /// Its own findings.
    pub diagnostics: Vec<Diagnostic>,
    pub lines: Lines,
}

/// One file's record as stored: the content it was made from, and its
/// bytes (decoded when asked for, copied as they are when saved again).
#[derive(Debug, Clone)]
struct Stored {
    hash: u64,
    stamp: Option<FileStamp>,
    /// The memo file's bytes (or a fresh record's), and where the record
    /// lies in them.
    buffer: Arc<[u8]>,
    at: Range<usize>,
}

impl Stored {
    fn bytes(&self) -> &[u8] {
        &self.buffer[self.at.clone()]
    }
}

/// The records of one memo file, and those made since it was read.
#[derive(Debug, Default)]
pub struct Memo {
    path: PathBuf,
    records: HashMap<String, Stored>,
    /// Whether a record was added or replaced since the file was read.
    changed: bool,
}

impl Memo {
    /// The memo at `path`; an empty one when there is none that this
    /// build of the tool wrote, whole.
    pub fn open(path: &Path) -> Memo {
        let records = read_records(path).unwrap_or_default();
        Memo {
            path: path.to_path_buf(),
            records,
            changed: false,
        }
    }

    /// The hash of a file the memo read with this very stamp (so it need
    /// not be read again).
    pub fn known(&self, relative: &str, stamp: &FileStamp) -> Option<u64> {
        let stored = self.records.get(relative)?;
        (stored.stamp.as_ref() == Some(stamp)).then_some(stored.hash)
    }

    /// The record of a set file as it is, if the memo has it.
    pub fn set(&self, file: &SourceFile) -> Option<SetRecord> {
        decode_set(self.stored(file)?.bytes(), &file.path)
    }

    /// The record of a locale file as it is, if the memo has it and its
    /// findings name the file as the pool names it now.
    pub fn locale(&self, file: &SourceFile) -> Option<LocaleRecord> {
        let record = decode_locale(self.stored(file)?.bytes(), &file.path, &file.relative)?;
        crate::load::fits(&record.diagnostics, &file.path).then_some(record)
    }

    fn stored(&self, file: &SourceFile) -> Option<&Stored> {
        (self.records.get(&file.relative)).filter(|stored| stored.hash == file.hash())
    }

    /// Keeps a set file's record.
    pub fn put_set(&mut self, file: &SourceFile, record: &SetRecord) {
        self.put(file, encode_set(record));
    }

    /// Keeps a locale file's record.
    pub fn put_locale(&mut self, file: &SourceFile, record: &LocaleRecord) {
        // Findings are kept as JSON: they are rare, and the cache stores
        // them so too.
        let json = serde_json::to_vec(&record.diagnostics);
        if let Some(bytes) = json.ok().and_then(|json| encode_locale(record, &json)) {
            self.put(file, bytes);
        }
    }

    fn put(&mut self, file: &SourceFile, bytes: Vec<u8>) {
        let stored = Stored {
            hash: file.hash(),
            stamp: file.stamp,
            at: 0..bytes.len(),
            buffer: bytes.into(),
        };
        self.records.insert(file.relative.clone(), stored);
        self.changed = true;
    }

    /// Writes the records of `files` (the pool's files now: a file gone
    /// from the pool is forgotten), when something changed and the folder
    /// beside which it lives exists (a build made it). A memo that cannot
    /// be written costs only the next run's time.
    pub fn save(&self, files: &[&SourceFile]) -> std::io::Result<()> {
        let kept: Vec<(&str, &Stored)> = (files.iter())
            .filter_map(|f| Some((f.relative.as_str(), self.records.get(&f.relative)?)))
            .collect();
        let forgets = kept.len() != self.records.len();
        if !(self.changed || forgets) || !self.path.parent().is_some_and(Path::is_dir) {
            return Ok(());
        }
        let mut body = Vec::new();
        let mut w = Writer(&mut body);
        w.number(kept.len());
        for (relative, stored) in kept {
            w.text(relative);
            w.0.extend_from_slice(&stored.hash.to_le_bytes());
            write_stamp(&mut w, stored.stamp.as_ref());
            w.number(stored.at.len());
            w.0.extend_from_slice(stored.bytes());
        }
        crate::files::write_atomic(&self.path, &framed(MAGIC, &body))
    }
}

/// A record's bytes read as a set file's and as a locale file's, each
/// written again when it decodes: for the fuzz target, which holds that
/// any bytes decode to a record or to nothing, never a panic, and that
/// what is written reads back and writes again as the same bytes.
pub fn read_and_write_again(bytes: &[u8]) -> (Option<Vec<u8>>, Option<Vec<u8>>) {
    let path: Arc<str> = Arc::from("pool/set.yaml");
    let set = decode_set(bytes, &path).map(|record| encode_set(&record));
    let locale = decode_locale(bytes, &path, "locales/ja/set.yaml").and_then(|record| {
        let json = serde_json::to_vec(&record.diagnostics).ok()?;
        encode_locale(&record, &json)
    });
    (set, locale)
}

/// Every set and locale file's record of a pool, as a memo keeps them
/// (the fuzz regressions' seeds).
pub fn records_of(pool: &Pool) -> Vec<Vec<u8>> {
    let sets = (pool.sets.iter()).map(|file| encode_set(&super::read_set_file(file)));
    let locales = pool.data.iter().filter_map(|file| {
        let record = super::read_locale_file(file)?;
        let json = serde_json::to_vec(&record.diagnostics).ok()?;
        encode_locale(&record, &json)
    });
    sets.chain(locales).collect()
}

fn read_records(path: &Path) -> Option<HashMap<String, Stored>> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .read_to_end(&mut bytes)
        .ok()?;
    let buffer: Arc<[u8]> = bytes.into();
    let mut r = Reader(unframed(&buffer, MAGIC)?);
    let mut records = HashMap::default();
    for _ in 0..r.count()? {
        let relative = r.text()?;
        let hash = read_u64(&mut r)?;
        let stamp = read_stamp(&mut r)?;
        let record = r.bytes()?;
        // Where the record lies in the buffer it was read from.
        let start = record.as_ptr() as usize - buffer.as_ptr() as usize;
        let at = start..start + record.len();
        let buffer = buffer.clone();
        records.insert(
            relative,
            Stored {
                hash,
                stamp,
                buffer,
                at,
            },
        );
    }
    r.0.is_empty().then_some(records)
}

/// A file the translation tools keep: its format's first line, the build
/// of the tool that wrote it, the body, and the body's checksum.
pub(super) fn framed(magic: &[u8], body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 64);
    out.extend_from_slice(magic);
    Writer(&mut out).text(BUILD_ID);
    out.extend_from_slice(body);
    out.extend_from_slice(&xxhash_rust::xxh3::xxh3_64(body).to_le_bytes());
    out
}

/// The body of a file [`framed`] with `magic` by this build of the tool,
/// whole; `None` for any other file.
pub(super) fn unframed<'b>(bytes: &'b [u8], magic: &[u8]) -> Option<&'b [u8]> {
    let mut r = Reader(bytes.strip_prefix(magic)?);
    if r.str()? != BUILD_ID {
        return None;
    }
    let (body, sum) = r.0.split_last_chunk::<8>()?;
    (xxhash_rust::xxh3::xxh3_64(body) == u64::from_le_bytes(*sum)).then_some(body)
}

pub(super) fn read_u64(r: &mut Reader<'_>) -> Option<u64> {
    let (n, rest) = r.0.split_first_chunk::<8>()?;
    r.0 = rest;
    Some(u64::from_le_bytes(*n))
}

pub(super) fn write_stamp(w: &mut Writer<'_>, stamp: Option<&FileStamp>) {
    let Some(s) = stamp else {
        w.0.push(0);
        return;
    };
    w.0.push(1);
    for n in [
        s.len,
        s.modified.0 as u64,
        s.changed.0 as u64,
        s.inode,
        s.device,
    ] {
        w.0.extend_from_slice(&n.to_le_bytes());
    }
    w.number(s.modified.1 as usize);
    w.number(s.changed.1 as usize);
}

pub(super) fn read_stamp(r: &mut Reader<'_>) -> Option<Option<FileStamp>> {
    match r.byte()? {
        0 => return Some(None),
        1 => {}
        _ => return None,
    }
    let mut n = [0u64; 5];
    for n in &mut n {
        *n = u64::from_le_bytes(*r.0.split_first_chunk::<8>()?.0);
        r.0 = &r.0[8..];
    }
    let nanos = |r: &mut Reader<'_>| u32::try_from(r.number()?).ok();
    Some(Some(FileStamp {
        len: n[0],
        modified: (n[1] as i64, nanos(r)?),
        changed: (n[2] as i64, nanos(r)?),
        inode: n[3],
        device: n[4],
    }))
}

const FIELDS: [Field; 4] = [Field::Name, Field::Flavor, Field::Effect, Field::Phrase];
const STYLES: [ScalarStyle; 5] = [
    ScalarStyle::Plain,
    ScalarStyle::SingleQuoted,
    ScalarStyle::DoubleQuoted,
    ScalarStyle::Literal,
    ScalarStyle::Folded,
];
const LINE_ENDS: [LineEnd; 3] = [LineEnd::Lf, LineEnd::CrLf, LineEnd::Cr];

fn write_lines(w: &mut Writer<'_>, lines: &Lines) {
    // Each start as its distance from the one before.
    w.number(lines.0.len());
    let mut last = 0;
    for &start in lines.0.iter() {
        w.number(start - last);
        last = start;
    }
}

fn read_lines(r: &mut Reader<'_>) -> Option<Lines> {
    let mut last = 0usize;
    let starts = r.list(|r| {
        last = last.checked_add(r.number()?)?;
        Some(last)
    })?;
    Some(Lines(starts.into()))
}

// ---------------------------------------------------------------- set files

/// A set file's record: its lines, errors and set, then its units in
/// order: the set's name, and for each card its facts and its texts.
fn encode_set(record: &SetRecord) -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = Writer(&mut out);
    write_lines(&mut w, &record.lines);
    w.number(record.errors);
    let Some(set) = &record.set else {
        w.0.push(0);
        return out;
    };
    w.0.push(1);
    w.text(&set.id);
    w.list(&set.cards, |w, card| w.text(card));
    write_units(&mut w, &record.units);
    out
}

/// A set file's units, each card's facts written once, with its first
/// unit (its other units share them).
fn write_units(w: &mut Writer<'_>, units: &[Unit]) {
    w.number(units.len());
    let mut last: Option<&Arc<CardInfo>> = None;
    for unit in units {
        let shared = match (&unit.card, last) {
            (Some(card), Some(last)) => Arc::ptr_eq(card, last),
            _ => false,
        };
        write_unit(w, unit, shared);
        last = unit.card.as_ref();
    }
}

/// A unit's or entry's key, without its set (the record's).
fn write_key(w: &mut Writer<'_>, key: &UnitKey) {
    match key {
        UnitKey::SetName { .. } => w.0.push(0),
        UnitKey::Card { card, field, .. } => {
            w.0.push(1);
            w.text(card);
            w.choice(&FIELDS, field);
        }
        UnitKey::Phrase { key } => {
            w.0.push(2);
            w.text(key);
        }
    }
}

/// A key written by [`write_key`], in the record's set.
fn read_key(r: &mut Reader<'_>, set: &str) -> Option<UnitKey> {
    Some(match r.byte()? {
        0 => UnitKey::SetName { set: set.into() },
        1 => UnitKey::Card {
            set: set.into(),
            card: r.text()?,
            field: r.choice(&FIELDS)?,
        },
        2 => UnitKey::Phrase { key: r.text()? },
        _ => return None,
    })
}

fn write_unit(w: &mut Writer<'_>, unit: &Unit, shared: bool) {
    write_key(w, &unit.key);
    w.text(&unit.english);
    w.0.push(u8::from(unit.required));
    w.span(&unit.span);
    write_text_node(w, unit);
    match &unit.card {
        None => w.0.push(0),
        Some(_) if shared => w.0.push(2),
        Some(info) => {
            w.0.push(1);
            w.choice(&CardKind::ALL, &info.kind);
            match info.stars {
                None => w.0.push(0),
                Some(stars) => {
                    w.0.push(1);
                    w.0.push(stars);
                }
            }
            w.list(&info.elements, |w, e| w.choice(&Element::ALL, e));
            w.list(&info.types, |w, t| w.text(&t.0));
            w.optional_text(info.effect.as_deref());
        }
    }
}

fn decode_set(bytes: &[u8], path: &Arc<str>) -> Option<SetRecord> {
    let mut r = Reader(bytes);
    let lines = read_lines(&mut r)?;
    let errors = r.number()?;
    let (set, units) = match r.byte()? {
        0 => (None, Vec::new()),
        1 => {
            let id = r.text()?;
            let cards = r.list(Reader::text)?;
            let mut last = None;
            let units = r.list(|r| {
                let unit = read_unit(r, &id, path, last.take())?;
                last = unit.card.clone();
                Some(unit)
            })?;
            let set = SetInfo {
                id,
                path: path.clone(),
                cards,
            };
            (Some(set), units)
        }
        _ => return None,
    };
    r.0.is_empty().then_some(SetRecord {
        set,
        units,
        errors,
        lines,
    })
}

/// A unit; `last` is the card facts of the unit before it, which it may
/// share.
fn read_unit(
    r: &mut Reader<'_>,
    set: &str,
    path: &Arc<str>,
    last: Option<Arc<CardInfo>>,
) -> Option<Unit> {
    let key = read_key(r, set)?;
    let english = r.text()?;
    let required = read_bool(r)?;
    let span = r.span()?;
    let node = read_text_node(r, &english, &span)?;
    let card = match r.byte()? {
        0 => None,
        1 => Some(Arc::new(CardInfo {
            kind: r.choice(&CardKind::ALL)?,
            stars: match r.byte()? {
                0 => None,
                1 => Some(r.byte()?),
                _ => return None,
            },
            elements: r.list(|r| r.choice(&Element::ALL))?,
            types: r.list(|r| r.text().map(Id))?,
            effect: r.optional_text()?,
        })),
        2 => Some(last?),
        _ => return None,
    };
    Some(Unit {
        key,
        english,
        required,
        path: path.clone(),
        span,
        node,
        card,
    })
}

/// A unit's YAML node when it is a string: what the reviewer's checks read
/// of it (its raw text and style, to locate words in the English). Any
/// other node is kept as none, which they read the same way.
fn write_text_node(w: &mut Writer<'_>, unit: &Unit) {
    let Some(Node {
        value: NodeValue::Str(raw, style),
        span,
    }) = &unit.node
    else {
        w.0.push(0);
        return;
    };
    // Most often the English as written, where the unit is.
    if *raw == unit.english && *span == unit.span {
        w.0.push(1);
        w.choice(&STYLES, style);
    } else {
        w.0.push(2);
        w.choice(&STYLES, style);
        w.text(raw);
        w.span(span);
    }
}

/// A node written by [`write_text_node`].
fn read_text_node(r: &mut Reader<'_>, english: &str, span: &Range<usize>) -> Option<Option<Node>> {
    let (raw, style, span) = match r.byte()? {
        0 => return Some(None),
        1 => (english.to_string(), r.choice(&STYLES)?, span.clone()),
        2 => {
            let style = r.choice(&STYLES)?;
            (r.text()?, style, r.span()?)
        }
        _ => return None,
    };
    Some(Some(Node {
        value: NodeValue::Str(raw, style),
        span,
    }))
}

fn read_bool(r: &mut Reader<'_>) -> Option<bool> {
    match r.byte()? {
        0 => Some(false),
        1 => Some(true),
        _ => None,
    }
}

// ------------------------------------------------------------- locale files

/// A locale file's record: its language, lines and findings (JSON), then
/// the file as parsed, when it could be. `None` for a phrase book, and for
/// a file with an entry of another set (neither is kept).
fn encode_locale(record: &LocaleRecord, diagnostics: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut w = Writer(&mut out);
    w.text(&record.lang);
    write_lines(&mut w, &record.lines);
    w.number(diagnostics.len());
    w.0.extend_from_slice(diagnostics);
    let Some(file) = &record.file else {
        w.0.push(0);
        return Some(out);
    };
    let Target::Set(set) = &file.target else {
        return None;
    };
    if !file
        .entries
        .iter()
        .all(|e| e.key.set() == Some(set.as_str()))
    {
        return None;
    }
    w.0.push(1);
    w.text(set);
    w.span(&file.target_span);
    w.choice(&LINE_ENDS, &file.line_end);
    w.list(&file.entries, write_entry);
    Some(out)
}

fn write_entry(w: &mut Writer<'_>, entry: &Entry) {
    write_key(w, &entry.key);
    w.text(&entry.text);
    w.optional_text(entry.source.as_deref());
    w.optional_text(entry.fingerprint.as_deref());
    w.0.push(u8::from(entry.fuzzy));
    w.optional_text(entry.note.as_deref());
    write_text_at(w, entry.text_at.as_ref());
    w.span(&entry.key_span);
    write_text_at(w, entry.recorded.source.as_ref());
    write_optional_span(w, entry.recorded.fingerprint.as_ref());
    match &entry.recorded.fuzzy {
        None => w.0.push(0),
        Some((key, value)) => {
            w.0.push(1);
            w.span(key);
            w.span(value);
        }
    }
}

fn write_text_at(w: &mut Writer<'_>, at: Option<&TextAt>) {
    match at {
        None => w.0.push(0),
        Some(at) => {
            w.0.push(1);
            w.span(&at.span);
            w.choice(&STYLES, &at.style);
        }
    }
}

fn write_optional_span(w: &mut Writer<'_>, span: Option<&Range<usize>>) {
    match span {
        None => w.0.push(0),
        Some(span) => {
            w.0.push(1);
            w.span(span);
        }
    }
}

fn decode_locale(bytes: &[u8], path: &Arc<str>, relative: &str) -> Option<LocaleRecord> {
    let mut r = Reader(bytes);
    let lang = r.text()?;
    let lines = read_lines(&mut r)?;
    let diagnostics = serde_json::from_slice(r.bytes()?).ok()?;
    let parsed = match r.byte()? {
        0 => None,
        1 => {
            let set = r.text()?;
            let target_span = r.span()?;
            let line_end = r.choice(&LINE_ENDS)?;
            let entries = r.list(|r| read_entry(r, &set))?;
            Some(LocaleFile {
                lang: lang.clone(),
                path: path.clone(),
                relative: relative.to_string(),
                target: Target::Set(set),
                target_span,
                entries,
                options: None,
                header: None,
                line_end,
            })
        }
        _ => return None,
    };
    r.0.is_empty().then_some(LocaleRecord {
        lang,
        file: parsed,
        diagnostics,
        lines,
    })
}

fn read_entry(r: &mut Reader<'_>, set: &str) -> Option<Entry> {
    Some(Entry {
        key: read_key(r, set)?,
        text: r.text()?,
        source: r.optional_text()?,
        fingerprint: r.optional_text()?,
        fuzzy: read_bool(r)?,
        note: r.optional_text()?,
        text_at: read_text_at(r)?,
        key_span: r.span()?,
        recorded: Recorded {
            source: read_text_at(r)?,
            fingerprint: read_optional_span(r)?,
            fuzzy: match r.byte()? {
                0 => None,
                1 => Some((r.span()?, r.span()?)),
                _ => return None,
            },
        },
    })
}

fn read_text_at(r: &mut Reader<'_>) -> Option<Option<TextAt>> {
    match r.byte()? {
        0 => Some(None),
        1 => Some(Some(TextAt {
            span: r.span()?,
            style: r.choice(&STYLES)?,
        })),
        _ => None,
    }
}

fn read_optional_span(r: &mut Reader<'_>) -> Option<Option<Range<usize>>> {
    match r.byte()? {
        0 => Some(None),
        1 => r.span().map(Some),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::assert_refuses_damage;

    /// Every set and locale file of the translation fixtures comes back
    /// from its record as it went in (written again, the same bytes), and
    /// a damaged record is refused, never a panic.
    #[test]
    fn records_come_back_as_they_went_in_and_damage_is_refused() {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/i18n");
        let mut kept = 0;
        for pool in ["drifted", "synced", "check-bad", "long-override"] {
            let pool = Pool::from_dir(&fixtures.join(pool)).unwrap();
            for file in &pool.sets {
                let record = super::super::read_set_file(file);
                let bytes = encode_set(&record);
                let again = decode_set(&bytes, &file.path).expect("a record decodes");
                assert_eq!(encode_set(&again), bytes, "{}", file.path);
                // String nodes are kept; others read as none.
                let text_nodes = |units: &[Unit]| {
                    let mut units = units.to_vec();
                    for unit in &mut units {
                        unit.node.take_if(|n| n.as_str().is_none());
                    }
                    units
                };
                assert_eq!(again.units, text_nodes(&record.units));
                assert!(again.units.iter().any(|u| u.node.is_some()));
                assert_refuses_damage(&bytes, |b| decode_set(b, &file.path));
                kept += 1;
            }
            for file in &pool.data {
                let Some(record) = super::super::read_locale_file(file) else {
                    continue;
                };
                let json = serde_json::to_vec(&record.diagnostics).unwrap();
                let Some(bytes) = encode_locale(&record, &json) else {
                    continue;
                };
                let again =
                    decode_locale(&bytes, &file.path, &file.relative).expect("a record decodes");
                let json_again = serde_json::to_vec(&again.diagnostics).unwrap();
                assert_eq!(encode_locale(&again, &json_again), Some(bytes.clone()));
                assert_refuses_damage(&bytes, |b| decode_locale(b, &file.path, &file.relative));
                kept += 1;
            }
        }
        assert!(kept > 8, "set and locale files were kept");
    }
}
