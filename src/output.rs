//! Rendering findings and writing results: miette reports for people, JSON
//! for editors and CI, and atomic file writes (temp file + rename).

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::io::Write;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceSpan};
use serde::Serialize;

use crate::compile::{CardsJson, DatabaseJson};
use crate::diagnostics::{Code, Diagnostic, Related, Severity, Sources};
use crate::excerpt::Excerpt;
use crate::model::Database;

/// How findings are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    #[default]
    Human,
    Json,
}

/// Options for human output.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    pub color: bool,
    pub width: usize,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            color: false,
            width: 100,
        }
    }
}

/// Reports drawn for one code in one file; the rest are counted in a note.
/// A file with 100,000 empty cards has 400,000 findings: drawn, they are a
/// 100 MB report nobody reads, and the first few of a kind say what to fix.
/// JSON output keeps every finding.
pub const MAX_DRAWN_PER_CODE: usize = 10;

/// Renders diagnostics as miette reports (at most [`MAX_DRAWN_PER_CODE`]
/// of one code in one file, the rest counted in a note), then a count line.
pub fn render_human(diagnostics: &[Diagnostic], sources: &Sources, style: Style) -> String {
    let theme = if style.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_links(false);
    let mut out = String::new();
    let mut drawn: HashMap<(&str, Code), usize> = HashMap::new();
    let mut not_drawn: BTreeMap<(&str, &str), Vec<&Diagnostic>> = BTreeMap::new();
    for diagnostic in diagnostics {
        let count = drawn
            .entry((&diagnostic.path, diagnostic.code))
            .or_default();
        *count += 1;
        if *count > MAX_DRAWN_PER_CODE {
            let key = (&*diagnostic.path, diagnostic.code.as_str());
            not_drawn.entry(key).or_default().push(diagnostic);
            continue;
        }
        let report = MietteDiagnostic::new(diagnostic, sources);
        if handler.render_report(&mut out, &report).is_err() {
            out.push_str(&format!("{}: {}\n", diagnostic.path, diagnostic.message));
        }
        out.push('\n');
    }
    for ((path, code), rest) in &not_drawn {
        out.push_str(&format!(
            "note: `{code}` in {path}: {} not drawn (the first {MAX_DRAWN_PER_CODE} \
             are above; `--format json` lists every one)\n\n",
            summary(rest.iter().copied()),
        ));
    }
    out.push_str(&summary(diagnostics));
    out.push('\n');
    out
}

/// "3 errors, 1 warning" (or "no problems").
pub fn summary<'a>(diagnostics: impl IntoIterator<Item = &'a Diagnostic>) -> String {
    let (mut errors, mut warnings) = (0, 0);
    for diagnostic in diagnostics {
        if diagnostic.is_error() {
            errors += 1;
        } else {
            warnings += 1;
        }
    }
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    match (errors, warnings) {
        (0, 0) => "no problems found".to_string(),
        (e, 0) => plural(e, "error"),
        (0, w) => plural(w, "warning"),
        (e, w) => format!("{}, {}", plural(e, "error"), plural(w, "warning")),
    }
}

/// One diagnostic in the JSON output.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct JsonDiagnostic {
    pub code: String,
    pub severity: String,
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    /// Byte offsets into the file.
    pub start: usize,
    pub end: usize,
    pub message: String,
    pub label: String,
    pub help: Option<String>,
    pub related: Vec<JsonRelated>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct JsonRelated {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub label: String,
}

/// The JSON report: every diagnostic and the counts.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct JsonReport {
    pub diagnostics: Vec<JsonDiagnostic>,
    pub errors: usize,
    pub warnings: usize,
}

pub fn json_report(diagnostics: &[Diagnostic], sources: &Sources) -> JsonReport {
    let items = diagnostics
        .iter()
        .map(|d| {
            let (line, column) = sources.line_col(&d.path, d.span.start);
            let (end_line, end_column) = sources.line_col(&d.path, d.span.end);
            JsonDiagnostic {
                code: d.code.as_str().to_string(),
                severity: match d.severity {
                    Severity::Error => "error".into(),
                    Severity::Warning => "warning".into(),
                },
                file: d.path.to_string(),
                line,
                column,
                end_line,
                end_column,
                start: d.span.start,
                end: d.span.end,
                message: d.message.clone(),
                label: d.label.clone(),
                help: d.help.clone(),
                related: d
                    .related
                    .iter()
                    .map(|r| {
                        let (line, column) = sources.line_col(&r.path, r.span.start);
                        JsonRelated {
                            file: r.path.to_string(),
                            line,
                            column,
                            label: r.label.clone(),
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    JsonReport {
        diagnostics: items,
        errors,
        warnings: diagnostics.len() - errors,
    }
}

pub fn render_json(diagnostics: &[Diagnostic], sources: &Sources) -> String {
    let mut text =
        serde_json::to_string_pretty(&json_report(diagnostics, sources)).unwrap_or_default();
    text.push('\n');
    text
}

/// Adapter from our diagnostic to miette's trait.
struct MietteDiagnostic {
    message: String,
    code: &'static str,
    severity: miette::Severity,
    help: Option<String>,
    source: Option<Excerpt>,
    labels: Vec<LabeledSpan>,
    related: Vec<MietteDiagnostic>,
}

impl MietteDiagnostic {
    fn new(d: &Diagnostic, sources: &Sources) -> Self {
        let file = sources.file(&d.path);
        // Related places in the same file are labels on its excerpt; the
        // others are reports of their own.
        let (same_file, other_files): (Vec<&Related>, Vec<&Related>) = d
            .related
            .iter()
            .partition(|r| r.path == d.path && file.is_some());
        let mut labels = Vec::new();
        let source = file.map(|file| {
            let spans: Vec<Range<usize>> = std::iter::once(d.span.clone())
                .chain(same_file.iter().map(|r| r.span.clone()))
                .collect();
            let (excerpt, moved) = Excerpt::new(&d.path, file, &spans);
            let mut moved = moved.into_iter();
            if let Some(primary) = moved.next() {
                labels.push(LabeledSpan::new_primary_with_span(
                    (!d.label.is_empty()).then(|| d.label.clone()),
                    span(&primary),
                ));
            }
            for (r, place) in same_file.iter().zip(moved) {
                labels.push(LabeledSpan::new_with_span(
                    Some(r.label.clone()),
                    span(&place),
                ));
            }
            excerpt
        });
        let related = other_files
            .into_iter()
            .map(|r| MietteDiagnostic::elsewhere(r, sources))
            .collect();
        let message = if source.is_none() {
            // No text to show (unreadable file): name the file in the message.
            format!("{}: {}", d.path, d.message)
        } else {
            d.message.clone()
        };
        MietteDiagnostic {
            message,
            code: d.code.as_str(),
            severity: match d.severity {
                Severity::Error => miette::Severity::Error,
                Severity::Warning => miette::Severity::Warning,
            },
            help: d.help.clone(),
            source,
            labels,
            related,
        }
    }

    /// A related place in another file, as an advice of its own.
    fn elsewhere(r: &Related, sources: &Sources) -> MietteDiagnostic {
        // Without its own text, a label would be drawn on the main file's
        // lines (miette's fallback): name the file instead.
        let (message, source, labels) = match sources.file(&r.path) {
            Some(file) => {
                let (excerpt, moved) = Excerpt::new(&r.path, file, std::slice::from_ref(&r.span));
                let labels = moved
                    .iter()
                    .map(|place| {
                        LabeledSpan::new_primary_with_span(Some(r.label.clone()), span(place))
                    })
                    .collect();
                (r.label.clone(), Some(excerpt), labels)
            }
            None => (format!("{}: {}", r.label, r.path), None, Vec::new()),
        };
        MietteDiagnostic {
            message,
            code: "",
            severity: miette::Severity::Advice,
            help: None,
            source,
            labels,
            related: Vec::new(),
        }
    }
}

fn span(range: &Range<usize>) -> SourceSpan {
    SourceSpan::new(range.start.into(), range.end - range.start)
}

impl fmt::Debug for MietteDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Display for MietteDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MietteDiagnostic {}

impl miette::Diagnostic for MietteDiagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        (!self.code.is_empty())
            .then(|| Box::new(format!("blades::{}", self.code)) as Box<dyn fmt::Display>)
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        (!self.labels.is_empty())
            .then(|| Box::new(self.labels.iter().cloned()) as Box<dyn Iterator<Item = LabeledSpan>>)
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        (!self.related.is_empty()).then(|| {
            Box::new(self.related.iter().map(|r| r as &dyn miette::Diagnostic))
                as Box<dyn Iterator<Item = &'a dyn miette::Diagnostic>>
        })
    }
}

/// Writes a file atomically: a temp file beside it, then a rename, so a
/// failure leaves any existing file as it was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |out| out.write_all(bytes))
}

/// [`write_atomic`] for output produced piece by piece (a large database is
/// streamed to the temp file rather than built in memory first).
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    replace_file(path, true, write)
}

/// [`write_atomic_with`] for a build artifact (the database, the build
/// cache): replaced just as atomically, but without waiting for the disk.
/// A power cut may lose it, which costs a rebuild; forcing a large
/// database to disk would cost more than the incremental build itself.
/// Source files (`fmt`, translation updates) are always synced.
pub fn write_artifact(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    replace_file(path, false, write)
}

fn replace_file(
    path: &Path,
    durable: bool,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    replace_file_with(path, durable, |file| {
        let mut buffered = std::io::BufWriter::with_capacity(1 << 20, file);
        write(&mut buffered)?;
        buffered.flush()
    })
}

/// Replaces `path` with a temp file filled by `fill`, then renamed over it.
fn replace_file_with<R>(
    path: &Path,
    durable: bool,
    fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<R>,
) -> std::io::Result<R> {
    let mut temp = temp_file_beside(path)?;
    let filled = fill(temp.as_file_mut())?;
    // The replaced file, if any, is deleted as it drops.
    put_in_place(temp, path, durable)?;
    Ok(filled)
}

/// A new temp file in `path`'s folder (made if missing), to be renamed
/// over `path` by [`put_in_place`]: named as the tool's own, so that a run
/// that is killed leaves nothing the next one does not delete (see
/// [`crate::files`]).
fn temp_file_beside(path: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    crate::files::temp_beside(path)
}

/// Puts a filled temp file (made beside `path`) in `path`'s place. Returns
/// the file it replaced when that now has the temp file's name (and is
/// deleted when dropped).
fn put_in_place(
    temp: tempfile::NamedTempFile,
    path: &Path,
    durable: bool,
) -> std::io::Result<Option<tempfile::NamedTempFile>> {
    if durable {
        temp.as_file().sync_all()?;
    }
    // A temp file has the usual permissions of a new file; give the result
    // those of the file it replaces, if any.
    if let Ok(meta) = std::fs::metadata(path) {
        temp.as_file().set_permissions(meta.permissions())?;
    }
    if !durable && exchange(temp.path(), path) {
        // The temp file's name now holds the old file.
        return Ok(Some(temp));
    }
    temp.persist(path).map_err(|e| e.error)?;
    Ok(None)
}

/// Where a build that keeps a cache leaves the database it replaced, for
/// the next build to delete. Deleting a large file that has reached the
/// disk frees its blocks, and with a file system mounted with `discard`
/// that waits on the device: 30 ms for a 100 MB database, a third of a
/// one-file rebuild. The next build deletes it on a thread while it copies
/// the unchanged cards (one core's work), so the wait overlaps the copy.
pub fn previous_database_path(out: &Path) -> std::path::PathBuf {
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

/// Swaps two files atomically, where the system can. ext4 writes a file out
/// when it is renamed over another one unsynced (so a crash cannot leave an
/// empty file where a full one was); for a 100 MB database that flush took
/// 35 of the 120 ms of a one-file rebuild. An exchange does not trigger it, and an
/// artifact that a crash loses only costs a rebuild.
///
/// Only over a regular file: a folder (or a link) in the output's place
/// must fail the way a rename fails, not be swapped away.
#[cfg(target_os = "linux")]
fn exchange(temp: &Path, path: &Path) -> bool {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    std::fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_file())
        && renameat_with(CWD, temp, CWD, path, RenameFlags::EXCHANGE).is_ok()
}

#[cfg(not(target_os = "linux"))]
fn exchange(_temp: &Path, _path: &Path) -> bool {
    false
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
/// [`Database`]: the head, the cards, [`CARDS_TO_SETS`], the sets, [`DATABASE_END`].
fn database_head(format: u32) -> String {
    format!("{{\"format\":{format},\"cards\":[")
}

const CARDS_TO_SETS: &[u8] = b"],\"sets\":[";
const DATABASE_END: &[u8] = b"]}\n";

/// Writes a database kept as JSON pieces (see [`DatabaseJson`]), byte for
/// byte what [`write_database`] writes for the same database, compact.
pub fn write_database_json(w: &mut dyn Write, database: &DatabaseJson) -> std::io::Result<()> {
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
            CardsJson::Built(bytes) => w.write_all(bytes)?,
            CardsJson::Written { file, range } => copy_range(file, range.clone(), w)?,
        }
    }
    w.write_all(CARDS_TO_SETS)?;
    for (i, part) in database.sets.iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        w.write_all(&part.set)?;
    }
    w.write_all(DATABASE_END)
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

/// What tells one version of a file from another without reading it: its
/// length, modification time and inode. Every database is a new file (a
/// temp file renamed into place), so any rewrite changes the inode.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct FileIdentity {
    pub len: u64,
    pub modified: (u64, u32),
    pub inode: u64,
}

impl FileIdentity {
    pub fn of(meta: &std::fs::Metadata) -> FileIdentity {
        let modified = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or((0, 0), |d| (d.as_secs(), d.subsec_nanos()));
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(meta);
        #[cfg(not(unix))]
        let inode = 0;
        FileIdentity {
            len: meta.len(),
            modified,
            inode,
        }
    }
}

/// Writes the database from its JSON pieces to `path` as a build artifact
/// ([`write_artifact`]): the same bytes as [`write_database_json`].
pub fn write_database_json_file(
    path: &Path,
    database: &DatabaseJson,
) -> std::io::Result<WrittenDatabase> {
    let mut writer = DatabaseWriter::new(path, database.format);
    for set in &database.sets {
        writer.push(set)?;
    }
    writer.finish()
}

/// A database file written set by set while a build renders them: each
/// set's cards go out as they come (so they need not all be held in memory
/// at once), the sets' own small objects at the end; then the file is put in
/// place like any build artifact ([`write_artifact`]). Cards still in the
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
    sets: Vec<crate::compile::SharedBytes>,
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
        }
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
            let mut temp = temp_file_beside(&self.path)?;
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
    pub fn push(&mut self, set: &crate::compile::SetJson) -> std::io::Result<Range<u64>> {
        if let Some(e) = &self.failed {
            return Err(std::io::Error::new(e.kind(), e.to_string()));
        }
        let pushed = self.push_unchecked(set);
        if let Err(e) = &pushed {
            self.failed = Some(std::io::Error::new(e.kind(), e.to_string()));
        }
        pushed
    }

    fn push_unchecked(&mut self, set: &crate::compile::SetJson) -> std::io::Result<Range<u64>> {
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
            CardsJson::Built(bytes) => {
                db.flush_run()?;
                let mut slices = vec![std::io::IoSlice::new(comma), std::io::IoSlice::new(bytes)];
                write_slices(db.temp.as_file_mut(), &mut slices)?;
            }
            CardsJson::Written { file, range: from } => match &mut db.run {
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
        let db = self.open()?;
        db.flush_run()?;
        let mut tail: Vec<&[u8]> = vec![CARDS_TO_SETS];
        for (i, set) in db.sets.iter().enumerate() {
            if i > 0 {
                tail.push(b",");
            }
            tail.push(set);
        }
        tail.push(DATABASE_END);
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
    w.write_all(b"}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_related_place_without_its_text_is_named_not_drawn_on_the_main_file() {
        let main: Arc<str> = Arc::from("a.yaml");
        let other: Arc<str> = Arc::from("b.yaml");
        let mut sources = Sources::default();
        sources.insert(main.clone(), Arc::from("id: x\nname: y\n"));
        let finding = Diagnostic::error(Code::DuplicateCardId, &main, 4..5, "taken")
            .with_label("used again here")
            .with_related(&other, 4..5, "first used here");
        let style = Style {
            color: false,
            width: 80,
        };
        let shown = render_human(std::slice::from_ref(&finding), &sources, style);
        assert!(shown.contains("first used here: b.yaml"), "{shown}");
        assert_eq!(shown.matches("id: x").count(), 1, "{shown}");
        // With the other file's text, its line is shown.
        sources.insert(other, Arc::from("id: z\n"));
        let shown = render_human(&[finding], &sources, style);
        assert!(
            shown.contains("b.yaml:1:5") && shown.contains("id: z"),
            "{shown}"
        );
    }

    #[test]
    fn chunked_database_json_is_what_serde_writes() {
        let compiled = crate::compile::compile(&crate::pool::Pool::builtin());
        let database = compiled.database.expect("the built-in pool builds");
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
        let database = crate::compile::compile(&pool).database.expect("builds");
        let mut expected = serde_json::to_vec(&database).unwrap();
        expected.push(b'\n');
        let options = crate::compile::Options {
            pieces: true,
            ..Default::default()
        };
        let pieces = crate::compile::compile_with(&pool, options)
            .json
            .expect("pieces");
        (expected, pieces)
    }

    #[test]
    fn a_database_written_while_building_is_what_serde_writes() {
        let (expected, _) = builtin_database();
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("dist/cards.json");
        let mut writer = DatabaseWriter::new(&out, crate::model::DATABASE_FORMAT);
        let options = crate::compile::Options {
            writer: Some(&mut writer),
            ..Default::default()
        };
        let compiled = crate::compile::compile_with(&crate::pool::Pool::builtin(), options);
        let json = compiled.json.expect("pieces");
        // Every set's cards are already in the file being written.
        assert!(
            json.sets
                .iter()
                .all(|s| matches!(s.cards, CardsJson::Written { .. }))
        );
        assert!(
            !out.exists(),
            "nothing is in place before the writer finishes"
        );
        let written = writer.finish().unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), expected);
        assert_eq!(written.cards.len(), json.sets.len());
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
            let CardsJson::Built(bytes) = &set.cards else {
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
        };
        let middle = pieces.sets.len() / 2;
        for (i, (set, range)) in pieces.sets.iter().zip(&written.cards).enumerate() {
            let cards = match i == middle {
                true => set.cards.clone(),
                false => CardsJson::Written {
                    file: Arc::clone(&written.file),
                    range: range.clone(),
                },
            };
            again.sets.push(crate::compile::SetJson {
                set: set.set.clone(),
                cards,
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
        let mut writer = DatabaseWriter::new(&blocker.join("cards.json"), 1);
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
            let mut writer = DatabaseWriter::new(&out, 1).keeping_replaced();
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
        let mut writer = DatabaseWriter::new(&out, 1);
        writer.push(&pieces.sets[0]).unwrap();
        writer.finish().unwrap();
        assert_eq!(names(dir.path()), ["cards.json"]);
    }

    #[test]
    fn database_pieces_are_what_serde_writes() {
        let pool = crate::pool::Pool::builtin();
        let database = crate::compile::compile(&pool)
            .database
            .expect("the built-in pool builds");
        let mut expected = serde_json::to_vec(&database).unwrap();
        expected.push(b'\n');
        let options = crate::compile::Options {
            pieces: true,
            ..Default::default()
        };
        let compiled = crate::compile::compile_with(&pool, options);
        assert!(compiled.database.is_none());
        let pieces = compiled.json.expect("pieces");
        assert_eq!(pieces.cards, database.cards.len());
        let mut written = Vec::new();
        write_database_json(&mut written, &pieces).unwrap();
        assert_eq!(
            String::from_utf8(written).unwrap(),
            String::from_utf8(expected).unwrap()
        );
    }
}
