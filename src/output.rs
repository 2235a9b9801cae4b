//! Rendering findings and writing results: miette reports for people, JSON
//! for editors and CI, and atomic file writes (temp file + rename).

use std::fmt;
use std::io::Write;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceSpan};
use serde::Serialize;

use crate::compile::{CardsJson, DatabaseJson};
use crate::diagnostics::{Diagnostic, Severity, Sources};
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

/// Renders diagnostics as miette reports, then a count line.
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
    for diagnostic in diagnostics {
        let report = MietteDiagnostic::new(diagnostic, sources);
        if handler.render_report(&mut out, &report).is_err() {
            out.push_str(&format!("{}: {}\n", diagnostic.path, diagnostic.message));
        }
        out.push('\n');
    }
    out.push_str(&summary(diagnostics));
    out.push('\n');
    out
}

/// "3 errors, 1 warning" (or "no problems").
pub fn summary(diagnostics: &[Diagnostic]) -> String {
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = diagnostics.len() - errors;
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
    source: Option<NamedSource<Arc<str>>>,
    labels: Vec<LabeledSpan>,
    related: Vec<MietteDiagnostic>,
}

impl MietteDiagnostic {
    fn new(d: &Diagnostic, sources: &Sources) -> Self {
        let source = sources
            .get(&d.path)
            .map(|text| NamedSource::new(&*d.path, text.clone()));
        let mut labels = Vec::new();
        let mut related = Vec::new();
        if source.is_some() {
            labels.push(LabeledSpan::new_primary_with_span(
                (!d.label.is_empty()).then(|| d.label.clone()),
                span(&d.span),
            ));
        }
        for r in &d.related {
            if r.path == d.path && source.is_some() {
                labels.push(LabeledSpan::new_with_span(
                    Some(r.label.clone()),
                    span(&r.span),
                ));
            } else {
                related.push(MietteDiagnostic {
                    message: r.label.clone(),
                    code: "",
                    severity: miette::Severity::Advice,
                    help: None,
                    source: sources
                        .get(&r.path)
                        .map(|t| NamedSource::new(&*r.path, t.clone())),
                    labels: vec![LabeledSpan::new_primary_with_span(
                        Some(r.label.clone()),
                        span(&r.span),
                    )],
                    related: Vec::new(),
                });
            }
        }
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
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let mut temp = tempfile::NamedTempFile::new_in(dir)?;
    let filled = fill(temp.as_file_mut())?;
    if durable {
        temp.as_file().sync_all()?;
    }
    // A temp file is private (0600); give the result the permissions of
    // the file it replaces, or the usual ones for a new file.
    let permissions = match std::fs::metadata(path) {
        Ok(meta) => Some(meta.permissions()),
        Err(_) => default_permissions(),
    };
    if let Some(permissions) = permissions {
        temp.as_file().set_permissions(permissions)?;
    }
    if !durable && exchange(temp.path(), path) {
        // The temp file's name now holds the old file, deleted with it.
        return Ok(filled);
    }
    temp.persist(path).map_err(|e| e.error)?;
    Ok(filled)
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

/// Writes a database kept as JSON pieces (see [`DatabaseJson`]), byte for
/// byte what [`write_database`] writes for the same database, compact.
pub fn write_database_json(w: &mut dyn Write, database: &DatabaseJson) -> std::io::Result<()> {
    let head = database_json_head(database);
    for op in database_json_ops(database, &head).0 {
        match op {
            Piece::Bytes(bytes) => w.write_all(bytes)?,
            Piece::Copy(file, range) => copy_range(file, range, w)?,
        }
    }
    Ok(())
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
/// ([`write_artifact`]): the same bytes as [`write_database_json`]. Pieces
/// in memory go out with vectored writes (a buffered writer would copy
/// them once more); cards still in the previous database file are copied
/// from it in runs, by the kernel. One thread writes: a file takes one
/// writer at a time, and a second one only spins on the inode's lock.
pub fn write_database_json_file(
    path: &Path,
    database: &DatabaseJson,
) -> std::io::Result<WrittenDatabase> {
    let head = database_json_head(database);
    let (pieces, cards) = database_json_ops(database, &head);
    replace_file_with(path, false, |file| {
        let mut slices: Vec<std::io::IoSlice<'_>> = Vec::new();
        for piece in &pieces {
            match piece {
                Piece::Bytes(bytes) => slices.push(std::io::IoSlice::new(bytes)),
                Piece::Copy(source, range) => {
                    write_slices(file, &mut slices)?;
                    copy_range(source, range.clone(), file)?;
                }
            }
        }
        write_slices(file, &mut slices)?;
        Ok(WrittenDatabase {
            identity: FileIdentity::of(&file.metadata()?),
            cards,
            file: Arc::new(file.try_clone()?),
        })
    })
}

/// A run of the database file: bytes in memory, or a range of an earlier
/// database file.
enum Piece<'a> {
    Bytes(&'a [u8]),
    Copy(&'a std::fs::File, Range<u64>),
}

fn database_json_head(database: &DatabaseJson) -> Vec<u8> {
    let mut head = b"{\"format\":".to_vec();
    serde_json::to_writer(&mut head, &database.format).expect("a number serializes");
    head.extend_from_slice(b",\"sets\":[");
    head
}

/// The database file as a sequence of pieces (`head`, the set pieces, the
/// card pieces, with the punctuation between them), and where each set's
/// cards land in it. Cards that were next to each other in the earlier
/// file, comma and all, are copied as one run.
fn database_json_ops<'a>(
    database: &'a DatabaseJson,
    head: &'a [u8],
) -> (Vec<Piece<'a>>, Vec<Range<u64>>) {
    let mut ops = Ops {
        pieces: Vec::new(),
        offset: 0,
    };
    ops.push(Piece::Bytes(head));
    for (i, part) in database.sets.iter().enumerate() {
        if i > 0 {
            ops.push(Piece::Bytes(b","));
        }
        ops.push(Piece::Bytes(&part.set));
    }
    ops.push(Piece::Bytes(b"],\"cards\":["));
    let mut cards = Vec::with_capacity(database.sets.len());
    let mut first = true;
    for part in &database.sets {
        // A set without cards has an empty piece, which takes no comma.
        if part.cards.is_empty() {
            cards.push(ops.offset..ops.offset);
            continue;
        }
        if !first {
            ops.push(Piece::Bytes(b","));
        }
        first = false;
        let piece = match &part.cards {
            CardsJson::Built(bytes) => Piece::Bytes(bytes),
            CardsJson::Written { file, range } => Piece::Copy(file, range.clone()),
        };
        cards.push(ops.push(piece));
    }
    ops.push(Piece::Bytes(b"]}\n"));
    (ops.pieces, cards)
}

/// Pieces of a file being planned, and its length so far.
struct Ops<'a> {
    pieces: Vec<Piece<'a>>,
    offset: u64,
}

impl<'a> Ops<'a> {
    /// Adds a piece; returns where it lands in the file.
    fn push(&mut self, piece: Piece<'a>) -> Range<u64> {
        let len = match &piece {
            Piece::Bytes(bytes) => bytes.len() as u64,
            Piece::Copy(_, range) => range.end - range.start,
        };
        let at = self.offset;
        self.offset += len;
        // A run of the earlier file, a comma, and the range right after it
        // there (where the comma is too): one run.
        if let Piece::Copy(file, range) = &piece
            && let [.., Piece::Copy(last_file, last), Piece::Bytes(b",")] = &self.pieces[..]
            && std::ptr::eq(*file, *last_file)
            && last.end + 1 == range.start
        {
            let joined = Piece::Copy(file, last.start..range.end);
            self.pieces.truncate(self.pieces.len() - 2);
            self.pieces.push(joined);
        } else {
            self.pieces.push(piece);
        }
        at..at + len
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
    w.write_all(b",\"sets\":")?;
    serde_json::to_writer(&mut *w, &database.sets)?;
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
    w.write_all(b"]}\n")
}

/// Permissions for a new output file: read-write for the owner, readable by all.
#[cfg(unix)]
fn default_permissions() -> Option<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Some(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn default_permissions() -> Option<std::fs::Permissions> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

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
