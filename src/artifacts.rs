//! Build artifacts: the database written as JSON (whole, or set by set
//! while a build renders, copying unchanged cards from the previous file),
//! put in place like every artifact (see [`crate::files`]).

use std::io::Write;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

pub use crate::files::FileIdentity;
use crate::files::{put_in_place, read_at, temp_beside};
use crate::index::{self, PoolState};
use crate::model::{Card, Database, KeywordName, Set};

/// A set's part of the database as JSON, as `serde_json` writes it: the
/// set's object in `sets` and its cards' objects in `cards`, comma-separated.
#[derive(Debug, Clone)]
pub struct SetJson {
    pub set: SharedBytes,
    pub cards: Piece,
    /// The set's section of the card index ([`crate::index`]).
    pub index: Piece,
}

/// A set's part of an artifact (its cards as database JSON, its section of
/// the card index): made by this build, or still in the file an earlier
/// build wrote, where the next one is copied from (by the kernel, without
/// passing through this process).
#[derive(Debug, Clone)]
pub enum Piece {
    Built(SharedBytes),
    Written {
        /// That file, opened when its build cache was read (so it stays
        /// readable after a new one is renamed over it).
        file: Arc<std::fs::File>,
        range: Range<u64>,
    },
}

impl Piece {
    /// Length in bytes.
    pub fn len(&self) -> u64 {
        match self {
            Piece::Built(bytes) => bytes.len() as u64,
            Piece::Written { range, .. } => range.end - range.start,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cards as a JSON array (`[` card objects `]`), read from the
    /// database file that holds them if they are there.
    pub fn read_array(&self) -> std::io::Result<Vec<u8>> {
        let len = usize::try_from(self.len()).map_err(std::io::Error::other)?;
        let mut array = Vec::with_capacity(len + 2);
        array.push(b'[');
        match self {
            Piece::Built(bytes) => array.extend_from_slice(bytes),
            Piece::Written { file, range } => {
                array.resize(len + 1, 0);
                read_at(file, range.start, &mut array[1..])?;
            }
        }
        array.push(b']');
        Ok(array)
    }
}

/// Bytes kept in a shared buffer: a piece of the database JSON, made by
/// this build or read with the whole cache file, without a copy.
#[derive(Debug, Clone)]
pub struct SharedBytes {
    buffer: Arc<Vec<u8>>,
    range: Range<usize>,
}

impl SharedBytes {
    /// The part `range` of `buffer`.
    pub fn slice(buffer: &Arc<Vec<u8>>, range: Range<usize>) -> Option<SharedBytes> {
        buffer.get(range.clone())?;
        Some(SharedBytes {
            buffer: Arc::clone(buffer),
            range,
        })
    }
}

impl From<Vec<u8>> for SharedBytes {
    fn from(bytes: Vec<u8>) -> SharedBytes {
        let range = 0..bytes.len();
        SharedBytes {
            buffer: Arc::new(bytes),
            range,
        }
    }
}

impl std::ops::Deref for SharedBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.buffer[self.range.clone()]
    }
}

impl SetJson {
    pub(crate) fn of(set: &Set, cards: &[Card]) -> SetJson {
        thread_local! {
            // Grown once per thread: serializing into a fresh vector per set
            // regrew it (copying) for most sets.
            static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        SCRATCH.with_borrow_mut(|json| {
            json.clear();
            serde_json::to_writer(&mut *json, set).expect("a set serializes");
            let set_end = json.len();
            for (i, card) in cards.iter().enumerate() {
                if i > 0 {
                    json.push(b',');
                }
                serde_json::to_writer(&mut *json, card).expect("a card serializes");
            }
            // Apart: the cards are written (and freed) before the set's
            // object, which waits for the end of the file.
            SetJson {
                set: json[..set_end].to_vec().into(),
                cards: Piece::Built(json[set_end..].to_vec().into()),
                index: Piece::Built(index::encode_section(set, cards).into()),
            }
        })
    }
}

/// The database as JSON pieces, in pool order: what an incremental build
/// writes, reusing the pieces of unchanged sets.
#[derive(Debug, Clone)]
pub struct DatabaseJson {
    pub format: u32,
    pub sets: Vec<SetJson>,
    /// The set file of each piece.
    pub paths: Vec<Arc<str>>,
    /// How many cards the pieces hold.
    pub cards: usize,
    /// The pool's keyword table ([`Database::keywords`]).
    pub keywords: Option<Vec<KeywordName>>,
}

/// The largest database file read back (`search --db`, `diff`): ten
/// times a 100,000-card database.
pub const MAX_DATABASE_BYTES: u64 = 1 << 30;

/// A database file opened to be read back.
pub enum DatabaseFile {
    /// A file's bytes, its size checked before they were read.
    Bytes(Vec<u8>),
    /// Something that is not a file (a pipe, a device such as `/dev/zero`):
    /// to be parsed as it streams, at most [`MAX_DATABASE_BYTES`], so an
    /// endless or wrong stream costs no memory for the bytes.
    Stream(std::io::Take<std::io::BufReader<std::fs::File>>),
}

/// Opens a database file to read back: a file larger than
/// [`MAX_DATABASE_BYTES`] is refused before a byte is read.
pub fn open_database(path: &Path) -> std::io::Result<DatabaseFile> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Ok(DatabaseFile::Stream(
            std::io::BufReader::new(file).take(MAX_DATABASE_BYTES),
        ));
    }
    if meta.len() > MAX_DATABASE_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            format!(
                "it is {} bytes; a database is read up to {} MiB",
                meta.len(),
                MAX_DATABASE_BYTES >> 20
            ),
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize + 1);
    file.take(MAX_DATABASE_BYTES).read_to_end(&mut bytes)?;
    Ok(DatabaseFile::Bytes(bytes))
}

/// Where a build that keeps a cache leaves the database it replaced, for
/// the next build to delete. Deleting a large file that has reached the
/// disk frees its blocks, and with a file system mounted with `discard`
/// that waits on the device: 30 ms for a 100 MB database, a third of a
/// one-file rebuild. The next build deletes it on a thread while it copies
/// the unchanged cards (one core's work), so the wait overlaps the copy.
pub(crate) fn previous_database_path(out: &Path) -> std::path::PathBuf {
    let name = out
        .file_name()
        .map_or_else(|| "database".into(), |n| n.to_string_lossy().into_owned());
    out.with_file_name(format!(".blades-previous-{name}"))
}

/// Deletes the database an earlier build left at `previous` (see
/// [`previous_database_path`]): its name at once, its blocks on a thread.
/// The file is opened before its name is removed, so the removal only
/// drops the name; the blocks are freed when the thread closes the file
/// (if the process ends first, its exit closes it).
fn delete_previous_database(previous: &Path) {
    // Only a regular file of ours: never a folder or a link.
    if !std::fs::symlink_metadata(previous).is_ok_and(|m| m.file_type().is_file()) {
        return;
    }
    let held = std::fs::File::open(previous);
    if std::fs::remove_file(previous).is_ok()
        && let Ok(file) = held
    {
        std::thread::spawn(move || drop(file));
    }
}
/// Writes the database as JSON, byte for byte what `serde_json` writes
/// (compact or pretty). Compact output, the default, serializes the cards in
/// parallel chunks: on a large pool the JSON text costs as much as the checks.
pub fn write_database(w: &mut dyn Write, database: &Database, pretty: bool) -> std::io::Result<()> {
    if pretty {
        serde_json::to_writer_pretty(&mut *w, database)?;
        return w.write_all(b"\n");
    }
    write_compact(w, database, 2048)
}

/// The database's compact JSON around its pieces, as `serde_json` writes
/// [`Database`]: the head, the cards, [`CARDS_TO_SETS`], the sets, [`database_end`].
fn database_head(format: u32) -> String {
    format!("{{\"format\":{format},\"cards\":[")
}

const CARDS_TO_SETS: &[u8] = b"],\"sets\":[";

/// What follows the sets: the keyword table when there is one, and the end.
fn database_end(keywords: Option<&[KeywordName]>) -> std::io::Result<Vec<u8>> {
    let mut end = b"]".to_vec();
    if let Some(keywords) = keywords {
        end.extend_from_slice(b",\"keywords\":");
        serde_json::to_writer(&mut end, keywords)?;
    }
    end.extend_from_slice(b"}\n");
    Ok(end)
}

/// Writes a database kept as JSON pieces (see [`DatabaseJson`]), byte for
/// byte what [`write_database`] writes for the same database, compact: the
/// reference the tests hold [`DatabaseWriter`] to.
#[cfg(test)]
fn write_database_json(w: &mut dyn Write, database: &DatabaseJson) -> std::io::Result<()> {
    w.write_all(database_head(database.format).as_bytes())?;
    let mut first = true;
    for part in &database.sets {
        // A set without cards has an empty piece, which takes no comma.
        if part.cards.is_empty() {
            continue;
        }
        if !first {
            w.write_all(b",")?;
        }
        first = false;
        match &part.cards {
            Piece::Built(bytes) => w.write_all(bytes)?,
            Piece::Written { file, range } => copy_range(file, range.clone(), w)?,
        }
    }
    w.write_all(CARDS_TO_SETS)?;
    for (i, part) in database.sets.iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        w.write_all(&part.set)?;
    }
    w.write_all(&database_end(database.keywords.as_deref())?)
}

/// A database file as a build wrote it: which file it is, and where each
/// set's cards are in it (in the order of [`DatabaseJson::sets`]), so the
/// next build can copy the cards of unchanged sets out of it.
#[derive(Debug, Clone)]
pub struct WrittenDatabase {
    pub identity: FileIdentity,
    pub cards: Vec<Range<u64>>,
    /// The file itself, open for reading.
    pub file: Arc<std::fs::File>,
}

/// Writes the database from its JSON pieces to `path` as a build artifact
/// ([`crate::files::write_artifact`]): the same bytes as [`write_database`] compact.
pub(crate) fn write_database_json_file(
    path: &Path,
    database: &DatabaseJson,
) -> std::io::Result<WrittenDatabase> {
    let mut writer = DatabaseWriter::new(path, database.format);
    writer.set_keywords(database.keywords.clone());
    for set in &database.sets {
        writer.push(set)?;
    }
    writer.finish()
}

/// A database file written set by set while a build renders them: each
/// set's cards go out as they come (so they need not all be held in memory
/// at once), the sets' own small objects at the end; then the file is put in
/// place like any build artifact ([`crate::files::write_artifact`]). Cards still in the
/// previous database file are copied from it by the kernel, in runs. Pieces
/// in memory go out with vectored writes (a buffered writer would copy them
/// once more). One thread writes: a file takes one writer at a time, and a
/// second one only spins on the inode's lock.
///
/// Nothing is created before the first set arrives, and a writer dropped
/// unfinished deletes its temp file: a failed build leaves every file as it
/// was.
pub struct DatabaseWriter {
    path: std::path::PathBuf,
    format: u32,
    open: Option<OpenDatabase>,
    /// The first write that failed: nothing more is written, and
    /// [`DatabaseWriter::finish`] returns it.
    failed: Option<std::io::Error>,
    /// Where an earlier build may have left the database it replaced
    /// ([`previous_database_path`]), deleted while this one is finished.
    previous: std::path::PathBuf,
    /// Whether to leave the database this one replaces there in turn,
    /// rather than delete it now.
    keep_replaced: bool,
    /// The pool's keyword table, written after the sets.
    keywords: Option<Vec<KeywordName>>,
    /// The scratch file of index sections put aside, and its length.
    aside: Option<(Arc<std::fs::File>, u64)>,
}

struct OpenDatabase {
    temp: tempfile::NamedTempFile,
    /// The temp file, for reading back what was written.
    file: Arc<std::fs::File>,
    /// Bytes written or planned so far (the pending run included).
    offset: u64,
    /// Where each set's cards are.
    cards: Vec<Range<u64>>,
    /// The sets' objects, written last.
    sets: Vec<SharedBytes>,
    /// A run of the previous database not copied yet, which the next set's
    /// cards may extend.
    run: Option<(Arc<std::fs::File>, Range<u64>)>,
    /// Whether a set with cards came yet (the next one takes a comma).
    any_cards: bool,
}

impl DatabaseWriter {
    pub fn new(path: &Path, format: u32) -> DatabaseWriter {
        DatabaseWriter {
            path: path.to_path_buf(),
            format,
            open: None,
            failed: None,
            previous: previous_database_path(path),
            keep_replaced: false,
            keywords: None,
            aside: None,
        }
    }

    /// The pool's keyword table, written after the sets.
    pub fn set_keywords(&mut self, keywords: Option<Vec<KeywordName>>) {
        self.keywords = keywords;
    }

    /// Leaves the database this one replaces at [`previous_database_path`]
    /// for the next build to delete, rather than deleting it now.
    pub fn keeping_replaced(mut self) -> DatabaseWriter {
        delete_previous_database(&self.previous);
        self.keep_replaced = true;
        self
    }

    fn open(&mut self) -> std::io::Result<&mut OpenDatabase> {
        if self.open.is_none() {
            let mut temp = temp_beside(&self.path)?;
            let head = database_head(self.format);
            temp.as_file_mut().write_all(head.as_bytes())?;
            let file = Arc::new(temp.as_file().try_clone()?);
            self.open = Some(OpenDatabase {
                temp,
                file,
                offset: head.len() as u64,
                cards: Vec::new(),
                sets: Vec::new(),
                run: None,
                any_cards: false,
            });
        }
        Ok(self.open.as_mut().expect("opened above"))
    }

    /// Writes the next set's cards (in pool order) and keeps its object for
    /// the end; returns where its cards are in the new file, which can be
    /// read back through [`DatabaseWriter::file`].
    pub fn push(&mut self, set: &SetJson) -> std::io::Result<Range<u64>> {
        if let Some(e) = &self.failed {
            return Err(std::io::Error::new(e.kind(), e.to_string()));
        }
        let pushed = self.push_unchecked(set);
        if let Err(e) = &pushed {
            self.failed = Some(std::io::Error::new(e.kind(), e.to_string()));
        }
        pushed
    }

    /// [`DatabaseWriter::push`], and the set's card index section put
    /// aside on disk too (in an unnamed scratch file beside the database,
    /// which the system deletes with its last handle): the set as now
    /// written, whose pieces hold no bytes in memory. A build's index
    /// sections were most of what it kept to the end (0.87 times the
    /// pool's bytes at a million cards).
    pub fn push_aside(&mut self, set: SetJson) -> std::io::Result<SetJson> {
        let cards = self.push(&set)?;
        let index = match set.index {
            Piece::Built(bytes) => self.put_aside(&bytes)?,
            written => written,
        };
        let file = Arc::clone(self.file().expect("open once written to"));
        Ok(SetJson {
            set: set.set,
            cards: Piece::Written { file, range: cards },
            index,
        })
    }

    fn put_aside(&mut self, bytes: &[u8]) -> std::io::Result<Piece> {
        let put = self.put_aside_unchecked(bytes);
        if let Err(e) = &put {
            self.failed = Some(std::io::Error::new(e.kind(), e.to_string()));
        }
        put
    }

    fn put_aside_unchecked(&mut self, bytes: &[u8]) -> std::io::Result<Piece> {
        if self.aside.is_none() {
            let file = crate::files::scratch_beside(&self.path)?;
            self.aside = Some((Arc::new(file), 0));
        }
        let (file, offset) = self.aside.as_mut().expect("made above");
        (&**file).write_all(bytes)?;
        let range = *offset..*offset + bytes.len() as u64;
        *offset = range.end;
        Ok(Piece::Written {
            file: Arc::clone(file),
            range,
        })
    }

    fn push_unchecked(&mut self, set: &SetJson) -> std::io::Result<Range<u64>> {
        let db = self.open()?;
        db.sets.push(set.set.clone());
        // A set without cards has an empty piece, which takes no comma.
        if set.cards.is_empty() {
            db.cards.push(db.offset..db.offset);
            return Ok(db.offset..db.offset);
        }
        let comma: &[u8] = if db.any_cards { b"," } else { b"" };
        db.any_cards = true;
        let at = db.offset + comma.len() as u64;
        let range = at..at + set.cards.len();
        match &set.cards {
            Piece::Built(bytes) => {
                db.flush_run()?;
                let mut slices = vec![std::io::IoSlice::new(comma), std::io::IoSlice::new(bytes)];
                write_slices(db.temp.as_file_mut(), &mut slices)?;
            }
            Piece::Written { file, range: from } => match &mut db.run {
                // Cards that were next to each other in the earlier file,
                // comma and all: one run.
                Some((run_file, run))
                    if Arc::ptr_eq(run_file, file) && run.end + 1 == from.start =>
                {
                    run.end = from.end;
                }
                _ => {
                    db.flush_run()?;
                    if !comma.is_empty() {
                        db.temp.as_file_mut().write_all(comma)?;
                    }
                    db.run = Some((Arc::clone(file), from.clone()));
                }
            },
        }
        db.offset = range.end;
        db.cards.push(range.clone());
        Ok(range)
    }

    /// Writes what is still pending (a run of cards copied from the
    /// previous database), so that [`DatabaseWriter::finish`] has only the
    /// end to write; a failure is reported by `finish`.
    pub fn flush(&mut self) {
        if self.failed.is_some() {
            return;
        }
        if let Some(db) = &mut self.open
            && let Err(e) = db.flush_run()
        {
            self.failed = Some(e);
        }
    }

    /// The file being written (none before the first set).
    pub fn file(&self) -> Option<&Arc<std::fs::File>> {
        self.open.as_ref().map(|db| &db.file)
    }

    /// Writes the sets' objects and puts the file in place.
    pub fn finish(mut self) -> std::io::Result<WrittenDatabase> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        let end = database_end(self.keywords.as_deref())?;
        let db = self.open()?;
        db.flush_run()?;
        let mut tail: Vec<&[u8]> = vec![CARDS_TO_SETS];
        for (i, set) in db.sets.iter().enumerate() {
            if i > 0 {
                tail.push(b",");
            }
            tail.push(set);
        }
        tail.push(&end);
        let file = db.temp.as_file_mut();
        // At most IOV_MAX slices a call (write_slices writes them all).
        for chunk in tail.chunks(1024) {
            let mut slices: Vec<std::io::IoSlice<'_>> =
                chunk.iter().map(|b| std::io::IoSlice::new(b)).collect();
            write_slices(file, &mut slices)?;
        }
        let db = self.open.take().expect("opened above");
        let cards = db.cards;
        let read_back = db.file;
        let replaced = put_in_place(db.temp, &self.path, false)?;
        if let Some(replaced) = replaced
            && self.keep_replaced
        {
            // When the rename fails, the file is deleted as it drops.
            let _ = replaced.persist(&self.previous);
        }
        Ok(WrittenDatabase {
            identity: FileIdentity::of(&read_back.metadata()?),
            cards,
            file: read_back,
        })
    }
}

impl OpenDatabase {
    fn flush_run(&mut self) -> std::io::Result<()> {
        if let Some((file, range)) = self.run.take() {
            copy_range(&file, range, self.temp.as_file_mut())?;
        }
        Ok(())
    }
}

/// Writes `slices` whole and empties the list.
fn write_slices(
    file: &mut std::fs::File,
    slices: &mut Vec<std::io::IoSlice<'_>>,
) -> std::io::Result<()> {
    let mut rest = &mut slices[..];
    while !rest.is_empty() {
        match file.write_vectored(rest) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(n) => std::io::IoSlice::advance_slices(&mut rest, n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    slices.clear();
    Ok(())
}

/// Copies `range` of `source` to `out` (`std::io::copy` uses
/// `copy_file_range` when `out` is a file and the system has it).
pub(crate) fn copy_range<W: Write + ?Sized>(
    mut source: &std::fs::File,
    range: Range<u64>,
    out: &mut W,
) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    source.seek(SeekFrom::Start(range.start))?;
    let len = range.end - range.start;
    if std::io::copy(&mut source.take(len), out)? != len {
        return Err(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            "the previous database file is shorter than its build cache says",
        ));
    }
    Ok(())
}

fn write_compact(w: &mut dyn Write, database: &Database, chunk: usize) -> std::io::Result<()> {
    use rayon::prelude::*;
    w.write_all(b"{\"format\":")?;
    serde_json::to_writer(&mut *w, &database.format)?;
    w.write_all(b",\"cards\":[")?;
    // A few chunks per round, so the JSON text never sits in memory whole.
    let round = chunk * rayon::current_num_threads().max(1) * 2;
    for (r, cards) in database.cards.chunks(round).enumerate() {
        let chunks: Vec<serde_json::Result<Vec<u8>>> = cards
            .par_chunks(chunk)
            .map(|cards| {
                let mut buffer = Vec::with_capacity(cards.len() * 1024);
                for (i, card) in cards.iter().enumerate() {
                    if i > 0 {
                        buffer.push(b',');
                    }
                    serde_json::to_writer(&mut buffer, card)?;
                }
                Ok(buffer)
            })
            .collect();
        for (i, chunk) in chunks.into_iter().enumerate() {
            if r > 0 || i > 0 {
                w.write_all(b",")?;
            }
            w.write_all(&chunk?)?;
        }
    }
    w.write_all(b"],\"sets\":")?;
    serde_json::to_writer(&mut *w, &database.sets)?;
    if let Some(keywords) = &database.keywords {
        w.write_all(b",\"keywords\":")?;
        serde_json::to_writer(&mut *w, keywords)?;
    }
    w.write_all(b"}\n")
}

/// An index file as a build wrote it: which file it is, where each set's
/// section is in it (in database order), and the file, open for reading,
/// so that the next build copies the sections of unchanged sets from it.
#[derive(Debug, Clone)]
pub struct WrittenIndex {
    pub identity: FileIdentity,
    pub sections: Vec<Range<u64>>,
    pub file: Arc<std::fs::File>,
}

/// Writes the card index ([`crate::index`]) of the database `json` built
/// from a pool in `state` (and written to the file `database` identifies)
/// to `path`, as a build artifact: appended to the index there when every
/// unchanged set's section is in it and most of it stays in use, else
/// written anew (a temp file renamed into place).
pub fn write_index(
    path: &Path,
    state: PoolState,
    json: &DatabaseJson,
    database: Option<FileIdentity>,
) -> std::io::Result<WrittenIndex> {
    let mut head = index::Head {
        state,
        database,
        format: json.format,
        keywords: json.keywords.clone(),
        cards: json.cards,
        sets: Vec::with_capacity(json.sets.len()),
    };
    if let Some(previous) = appendable_index(path, json) {
        if let Some(written) = append_index(path, &previous, &mut head, json)? {
            return Ok(written);
        }
        head.sets.clear();
    }
    write_index_anew(path, &mut head, json)
}

/// The index at `path`, open, when some of this build's sections are in
/// it (those of the sets that did not change).
fn appendable_index(path: &Path, json: &DatabaseJson) -> Option<Arc<std::fs::File>> {
    let there = FileIdentity::of(&std::fs::metadata(path).ok()?);
    if there.inode == 0 {
        return None;
    }
    let mut seen: Option<&Arc<std::fs::File>> = None;
    json.sets.iter().find_map(|set| match &set.index {
        Piece::Written { file, .. } if !seen.is_some_and(|seen| Arc::ptr_eq(seen, file)) => {
            seen = Some(file);
            let open = FileIdentity::of(&file.metadata().ok()?);
            (open == there).then(|| Arc::clone(file))
        }
        _ => None,
    })
}

/// Appends the sections that are not yet in the index `file` (the one at
/// `path`: those of the sets made anew) and a new head to it; `None`, with
/// nothing written, when more than half of the file would then be out of
/// date. A failed append is cut off again, so the index is as it was.
fn append_index(
    path: &Path,
    file: &Arc<std::fs::File>,
    head: &mut index::Head,
    json: &DatabaseJson,
) -> std::io::Result<Option<WrittenIndex>> {
    use std::io::{Seek, SeekFrom};
    let end = file.metadata()?.len();
    let in_index =
        |piece: &Piece| matches!(piece, Piece::Written { file: f, .. } if Arc::ptr_eq(f, file));
    let (mut at, mut live) = (end, index::prefix_len());
    for (path, set) in json.paths.iter().zip(&json.sets) {
        let range = match &set.index {
            Piece::Written { range, .. } if in_index(&set.index) => range.clone(),
            piece => {
                at += piece.len();
                at - piece.len()..at
            }
        };
        live += range.end - range.start;
        head.sets.push((Arc::clone(path), range));
    }
    let tail = index::head_and_trailer(head)?;
    live += tail.len() as u64;
    if at + tail.len() as u64 > 2 * live {
        return Ok(None);
    }
    let mut out = std::fs::OpenOptions::new().write(true).open(path)?;
    if FileIdentity::of(&out.metadata()?) != FileIdentity::of(&file.metadata()?) {
        return Ok(None);
    }
    let appended = (|| {
        out.seek(SeekFrom::Start(end))?;
        let mut out = std::io::BufWriter::with_capacity(1 << 16, &mut out);
        for set in json.sets.iter().filter(|set| !in_index(&set.index)) {
            match &set.index {
                Piece::Built(bytes) => out.write_all(bytes)?,
                Piece::Written { file, range } => {
                    out.flush()?;
                    copy_range(file, range.clone(), out.get_mut())?;
                }
            }
        }
        out.write_all(&tail)?;
        out.flush()
    })();
    if let Err(e) = appended {
        let _ = out.set_len(end);
        return Err(e);
    }
    Ok(Some(WrittenIndex {
        identity: FileIdentity::of(&out.metadata()?),
        sections: head.sets.iter().map(|(_, r)| r.clone()).collect(),
        file: Arc::clone(file),
    }))
}

/// Writes the index whole: a temp file renamed into place.
fn write_index_anew(
    path: &Path,
    head: &mut index::Head,
    json: &DatabaseJson,
) -> std::io::Result<WrittenIndex> {
    let mut offset = index::prefix_len();
    for (path, set) in json.paths.iter().zip(&json.sets) {
        let len = set.index.len();
        head.sets.push((Arc::clone(path), offset..offset + len));
        offset += len;
    }
    let mut temp = temp_beside(path)?;
    let out = temp.as_file_mut();
    out.write_all(&index::prefix())?;
    // Sections still in the previous index are copied by the kernel, in
    // runs of neighbours.
    let mut run: Option<(&Arc<std::fs::File>, Range<u64>)> = None;
    for set in &json.sets {
        match (&set.index, &mut run) {
            (Piece::Written { file, range }, Some((from, next)))
                if Arc::ptr_eq(file, from) && next.end == range.start =>
            {
                next.end = range.end;
            }
            (piece, _) => {
                if let Some((from, range)) = run.take() {
                    copy_range(from, range, out)?;
                }
                match piece {
                    Piece::Built(bytes) => out.write_all(bytes)?,
                    Piece::Written { file, range } => run = Some((file, range.clone())),
                }
            }
        }
    }
    if let Some((from, range)) = run {
        copy_range(from, range, out)?;
    }
    out.write_all(&index::head_and_trailer(head)?)?;
    let file = temp.reopen()?;
    // The index it replaces, if any, goes as the temp file drops.
    drop(put_in_place(temp, path, false)?);
    Ok(WrittenIndex {
        identity: FileIdentity::of(&file.metadata()?),
        sections: head.sets.iter().map(|(_, r)| r.clone()).collect(),
        file: Arc::new(file),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_database_json_is_what_serde_writes() {
        let compiled = crate::compile::compile(&crate::pool::Pool::builtin());
        let database = compiled
            .output
            .into_database()
            .expect("the built-in pool builds");
        let mut expected = serde_json::to_vec(&database).unwrap();
        expected.push(b'\n');
        for chunk in [1, 3, 1000] {
            let mut written = Vec::new();
            write_compact(&mut written, &database, chunk).unwrap();
            assert_eq!(
                String::from_utf8(written).unwrap(),
                String::from_utf8(expected.clone()).unwrap()
            );
        }
        let mut pretty = Vec::new();
        write_database(&mut pretty, &database, true).unwrap();
        let mut expected = serde_json::to_vec_pretty(&database).unwrap();
        expected.push(b'\n');
        assert_eq!(pretty, expected);
    }

    /// What serde writes for the built-in pool's database, and its pieces.
    fn builtin_database() -> (Vec<u8>, DatabaseJson) {
        let pool = crate::pool::Pool::builtin();
        let database = crate::compile::compile(&pool)
            .output
            .into_database()
            .expect("builds");
        let mut expected = serde_json::to_vec(&database).unwrap();
        expected.push(b'\n');
        let options = crate::compile::Options {
            pieces: true,
            ..Default::default()
        };
        let pieces = crate::compile::compile_with(&pool, options)
            .output
            .into_pieces()
            .expect("pieces");
        (expected, pieces)
    }

    #[test]
    fn a_database_written_while_building_is_what_serde_writes() {
        let (expected, built) = builtin_database();
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("dist/cards.json");
        let mut writer = DatabaseWriter::new(&out, crate::model::DATABASE_FORMAT);
        let options = crate::compile::Options {
            writer: Some(&mut writer),
            ..Default::default()
        };
        let compiled = crate::compile::compile_with(&crate::pool::Pool::builtin(), options);
        let json = compiled.output.into_pieces().expect("pieces");
        // Every set's cards are already in the file being written, and
        // its index section put aside.
        assert!(json.sets.iter().all(|s| {
            matches!(s.cards, Piece::Written { .. }) && matches!(s.index, Piece::Written { .. })
        }));
        assert!(
            !out.exists(),
            "nothing is in place before the writer finishes"
        );
        let written = writer.finish().unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), expected);
        assert_eq!(written.cards.len(), json.sets.len());
        // The index from the sections put aside is the index from the
        // sections in memory.
        let pool = crate::pool::Pool::builtin();
        let index_of = |json: &DatabaseJson, name: &str| {
            let path = dir.path().join(name);
            write_index(&path, PoolState::of(&pool), json, None).unwrap();
            std::fs::read(path).unwrap()
        };
        assert_eq!(index_of(&json, "aside"), index_of(&built, "in-memory"));
        // The scratch file has no name: the folder holds the artifacts alone.
        let mut names: Vec<_> = std::fs::read_dir(dir.path().join("dist"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["cards.json"]);
    }

    #[test]
    fn cards_copied_from_an_earlier_database_come_out_the_same() {
        let (expected, pieces) = builtin_database();
        let dir = tempfile::tempdir().unwrap();
        let first = dir.path().join("first.json");
        let written = write_database_json_file(&first, &pieces).unwrap();
        assert_eq!(std::fs::read(&first).unwrap(), expected);
        // Each range holds that set's cards.
        for (set, range) in pieces.sets.iter().zip(&written.cards) {
            let Piece::Built(bytes) = &set.cards else {
                panic!("built")
            };
            let mut copied = Vec::new();
            copy_range(&written.file, range.clone(), &mut copied).unwrap();
            assert_eq!(&copied[..], &bytes[..]);
        }
        // The next database from the first one's cards (adjacent ones
        // copied as one run), with one set made anew in the middle.
        let mut again = DatabaseJson {
            format: pieces.format,
            sets: Vec::new(),
            paths: pieces.paths.clone(),
            cards: pieces.cards,
            keywords: pieces.keywords.clone(),
        };
        let middle = pieces.sets.len() / 2;
        for (i, (set, range)) in pieces.sets.iter().zip(&written.cards).enumerate() {
            let cards = match i == middle {
                true => set.cards.clone(),
                false => Piece::Written {
                    file: Arc::clone(&written.file),
                    range: range.clone(),
                },
            };
            again.sets.push(SetJson {
                set: set.set.clone(),
                cards,
                index: set.index.clone(),
            });
        }
        let second = dir.path().join("second.json");
        write_database_json_file(&second, &again).unwrap();
        assert_eq!(std::fs::read(&second).unwrap(), expected);
    }

    #[test]
    fn a_writer_that_fails_reports_it_when_finished_and_leaves_nothing() {
        let (_, pieces) = builtin_database();
        let dir = tempfile::tempdir().unwrap();
        // The output's folder is a file: nothing can be created there.
        let blocker = dir.path().join("dist");
        std::fs::write(&blocker, "not a folder").unwrap();
        let mut writer =
            DatabaseWriter::new(&blocker.join("cards.json"), crate::model::DATABASE_FORMAT);
        assert!(writer.push(&pieces.sets[0]).is_err());
        assert!(writer.push(&pieces.sets[1]).is_err(), "later sets fail too");
        assert!(writer.finish().is_err());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_replaced_database_is_left_for_the_next_build_which_deletes_it() {
        let (expected, pieces) = builtin_database();
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("cards.json");
        let previous = previous_database_path(&out);
        assert_eq!(previous, dir.path().join(".blades-previous-cards.json"));
        let write = |sets: usize| {
            let mut writer =
                DatabaseWriter::new(&out, crate::model::DATABASE_FORMAT).keeping_replaced();
            writer.set_keywords(pieces.keywords.clone());
            for set in &pieces.sets[..sets] {
                writer.push(set).unwrap();
            }
            writer.finish().unwrap();
        };
        write(pieces.sets.len());
        assert!(!previous.exists(), "nothing was replaced");
        write(1);
        assert_eq!(std::fs::read(&previous).unwrap(), expected);
        let one_set = std::fs::read(&out).unwrap();
        write(pieces.sets.len());
        assert_eq!(
            std::fs::read(&previous).unwrap(),
            one_set,
            "the older one is gone"
        );
        assert_eq!(std::fs::read(&out).unwrap(), expected);
        let names = |dir: &Path| -> Vec<String> {
            let mut names: Vec<String> = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        };
        assert_eq!(
            names(dir.path()),
            [".blades-previous-cards.json", "cards.json"]
        );
        // Something else in that place is not ours to delete: the replaced
        // database is deleted instead.
        std::fs::remove_file(&previous).unwrap();
        std::fs::create_dir(&previous).unwrap();
        std::fs::write(previous.join("keep.txt"), "mine").unwrap();
        write(1);
        assert!(previous.join("keep.txt").exists());
        assert_eq!(
            names(dir.path()),
            [".blades-previous-cards.json", "cards.json"]
        );
        // Without `keeping_replaced`, nothing is left behind.
        std::fs::remove_dir_all(&previous).unwrap();
        let mut writer = DatabaseWriter::new(&out, crate::model::DATABASE_FORMAT);
        writer.push(&pieces.sets[0]).unwrap();
        writer.finish().unwrap();
        assert_eq!(names(dir.path()), ["cards.json"]);
    }

    #[test]
    fn database_pieces_are_what_serde_writes() {
        let pool = crate::pool::Pool::builtin();
        let database = crate::compile::compile(&pool)
            .output
            .into_database()
            .expect("the built-in pool builds");
        let mut expected = serde_json::to_vec(&database).unwrap();
        expected.push(b'\n');
        let options = crate::compile::Options {
            pieces: true,
            ..Default::default()
        };
        let compiled = crate::compile::compile_with(&pool, options);
        assert!(compiled.output.database().is_none());
        let pieces = compiled.output.into_pieces().expect("pieces");
        assert_eq!(pieces.cards, database.cards.len());
        let mut written = Vec::new();
        write_database_json(&mut written, &pieces).unwrap();
        assert_eq!(
            String::from_utf8(written).unwrap(),
            String::from_utf8(expected).unwrap()
        );
    }
}
