//! Open documents laid over their pool on disk, checked by the build's
//! own pipeline ([`compile`]), and the findings as the protocol's
//! diagnostics, one list per open file.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::str::FromStr as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

use lsp_types::{
    DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Range, TextEdit,
    Uri,
};

pub use super::documents::Document;
use super::documents::open_in;
use super::position::{Encoding, position};
use crate::compile::{Output, PoolVocabulary, Timings};
use crate::diagnostics::{Diagnostic, Severity, Sources};
use crate::i18n;
use crate::model::Database;
use crate::pool::{FOUND_FOLDER, Pool};
use crate::rules::format::Formats;
use crate::workspace::{LivePool, database_made};

/// The pool a file belongs to, by [`crate::pool::PoolChoice`]'s rule seen
/// from the workspace folder: its `cards/` folder when the file is in
/// it, else the folder holding the file.
pub fn pool_dir(workspace: Option<&Path>, file: &Path) -> PathBuf {
    if let Some(cards) = workspace.map(|root| root.join(FOUND_FOLDER))
        && file.starts_with(&cards)
        && cards.is_dir()
    {
        return cards;
    }
    file.parent().map_or_else(PathBuf::new, Path::to_path_buf)
}

/// The kept state of the pool in `dir`, made when it has none (`watched`:
/// the client tells of every change on disk).
pub fn live_pool<'p>(
    pools: &'p mut HashMap<PathBuf, LivePool>,
    dir: &Path,
    watched: bool,
) -> &'p mut LivePool {
    pools.entry(dir.to_path_buf()).or_insert_with(|| {
        let mut live = LivePool::new(dir);
        if watched {
            live.watched();
        }
        live
    })
}

/// What a pool file is, by the rules the pool reader and the translation
/// commands use: which command's findings an editor shows for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A set file, `keywords.yaml`, an English phrase book, any other
    /// data file: what `blades build` finds.
    Build,
    /// A translation (`locales/<lang>/…`, `phrases/<lang>.yaml`): what
    /// `blades build` and `blades i18n check` find.
    Translation,
    /// A deck format (`formats/…`): what reading the pool's formats finds
    /// (`blades deck check` reports it).
    Format,
}

impl FileKind {
    /// The kind of the file at `relative` (a path within its pool).
    pub fn of(relative: &str) -> FileKind {
        if relative.starts_with("formats/") {
            FileKind::Format
        } else if i18n::locale::classify(relative).is_some() {
            FileKind::Translation
        } else {
            FileKind::Build
        }
    }
}

/// What one check of a pool gave: each open document's findings, the pool
/// it read and the database it built (for the cursor's index), and where
/// the time went.
pub struct Checked {
    pub lists: Vec<(Uri, Vec<lsp_types::Diagnostic>)>,
    pub pool: Arc<Pool>,
    pub output: Output,
    pub vocabulary: Option<PoolVocabulary>,
    /// Listing the pool and reading what changed on disk.
    pub read: Duration,
    /// The build's per-file checks, then its pool checks and rendering.
    pub build: Timings,
    /// Everything, the commands' other checks and the conversion too.
    pub total: Duration,
}

impl Checked {
    /// The check in a line, for the client's trace.
    pub fn summary(&self) -> String {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        format!(
            "checked in {:.1} ms: read {:.1} ms, per-file checks {:.1} ms, pool checks {:.1} ms \
             (effects {:.1} ms, rendering {:.1} ms)",
            ms(self.total),
            ms(self.read),
            ms(self.build.files),
            ms(self.build.pool),
            ms(self.build.effects),
            ms(self.build.render),
        )
    }
}

/// Checks the pool in `dir` through what `pools` keep of it (made at its
/// first check; `watched`: the client tells of every change on disk). A
/// check that fails on some input must not take the editor's session down
/// with it: that pool goes unchecked this time (no answer), and what was
/// kept of it between checks is forgotten.
pub fn check_kept<'a>(
    pools: &mut HashMap<PathBuf, LivePool>,
    dir: &Path,
    open: impl IntoIterator<Item = &'a Document>,
    encoding: Encoding,
    watched: bool,
) -> Option<Checked> {
    let live = live_pool(pools, dir, watched);
    let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        check_pool(live, open, encoding)
    }));
    if checked.is_err() {
        pools.remove(dir);
    }
    checked.ok()
}

/// Checks the pool with every open document under its folder laid over
/// its file, and gives each of those documents its findings (an empty
/// list for one with none, which clears what an editor shows).
pub fn check_pool<'a>(
    live: &mut LivePool,
    open: impl IntoIterator<Item = &'a Document>,
    encoding: Encoding,
) -> Checked {
    let started = Instant::now();
    let dir = live.dir().to_path_buf();
    let mut overlays = Vec::new();
    let mut shown: BTreeMap<Arc<str>, (Uri, FileKind)> = BTreeMap::new();
    for (relative, document) in open_in(&dir, open) {
        let path = Arc::from(dir.join(&relative).display().to_string());
        shown.insert(path, (document.uri.clone(), FileKind::of(&relative)));
        overlays.push((relative, document.text.clone()));
    }
    let pool = live.read(overlays);
    let read = started.elapsed();
    let kinds: Vec<FileKind> = shown.values().map(|(_, kind)| *kind).collect();
    let mut found = Findings::of(live, &pool, &kinds);
    let lists = shown
        .iter()
        .map(|(path, (uri, kind))| {
            let list = found
                .in_file(path, *kind)
                .iter()
                .map(|finding| to_lsp(finding, &found.sources, encoding))
                .collect();
            (uri.clone(), list)
        })
        .collect();
    Checked {
        lists,
        pool: Arc::new(pool),
        output: std::mem::take(&mut found.output),
        vocabulary: found.vocabulary.take(),
        read,
        build: found.timings,
        total: started.elapsed(),
    }
}

/// What the commands that check a pool's files find: `blades build`
/// always, `i18n check` and `deck check`'s look at the formats when a file
/// of theirs is open.
struct Findings {
    build: Vec<Diagnostic>,
    translations: Vec<Diagnostic>,
    formats: Vec<Diagnostic>,
    sources: Sources,
    timings: Timings,
    output: Output,
    vocabulary: Option<PoolVocabulary>,
}

impl Findings {
    fn of(live: &mut LivePool, pool: &Pool, kinds: &[FileKind]) -> Findings {
        let compiled = live.compile(pool);
        let mut sources = compiled.sources;
        let mut translations = Vec::new();
        if kinds.contains(&FileKind::Translation) {
            let project = i18n::Project::load(pool);
            translations = i18n::check::findings(&project, None);
            sources.extend(project.sources);
        }
        let mut formats = Vec::new();
        if kinds.contains(&FileKind::Format) {
            let database = database_made(&compiled.output);
            format_findings(pool, database.as_ref(), &mut formats);
        }
        let mut findings = Findings {
            build: compiled.diagnostics,
            translations,
            formats,
            sources,
            timings: compiled.timings,
            output: compiled.output,
            vocabulary: compiled.vocabulary,
        };
        findings.add_sources(pool);
        findings
    }

    /// The text of every file a finding points into that the checks did
    /// not keep already.
    fn add_sources(&mut self, pool: &Pool) {
        let pointed: HashSet<&str> = (self.build.iter())
            .chain(&self.translations)
            .chain(&self.formats)
            .map(|d| &*d.path)
            .collect();
        let missing: Vec<_> = (pool.sets.iter())
            .chain(&pool.data)
            .filter(|file| pointed.contains(&*file.path) && self.sources.get(&file.path).is_none())
            .map(|file| (file.path.clone(), file.text().clone()))
            .collect();
        for (path, text) in missing {
            self.sources.insert(path, text);
        }
    }

    /// The findings in the file at `path` (as shown) of the kind given,
    /// in order, each once (a translation's load problems are both the
    /// build's and `i18n check`'s).
    fn in_file(&self, path: &str, kind: FileKind) -> Vec<&Diagnostic> {
        let more = match kind {
            FileKind::Build => &[][..],
            FileKind::Translation => &self.translations,
            FileKind::Format => &self.formats,
        };
        let mut found: Vec<&Diagnostic> = self
            .build
            .iter()
            .chain(more)
            .filter(|d| &*d.path == path)
            .collect();
        found.sort_by(|a, b| {
            (a.span.start, a.code, &a.message).cmp(&(b.span.start, b.code, &b.message))
        });
        found.dedup_by(|a, b| (&a.span, a.code, &a.message) == (&b.span, b.code, &b.message));
        found
    }
}

/// What `blades deck check` finds in the pool's formats before it checks
/// a deck: the format files' problems, else the names they give that the
/// pool's database (when it built) does not have.
fn format_findings(pool: &Pool, database: Option<&Database>, out: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    let formats = Formats::of_pool(pool, &mut found);
    if !found.iter().any(Diagnostic::is_error)
        && let Some(database) = database
    {
        found.extend(formats.unknown_names(database));
    }
    out.extend(found);
}

/// A finding as the protocol's diagnostic: its code in `code`, its help
/// after the message and in `data`, its related places as related
/// information.
pub fn to_lsp(
    finding: &Diagnostic,
    sources: &Sources,
    encoding: Encoding,
) -> lsp_types::Diagnostic {
    let mut message = finding.message.to_string();
    if let Some(help) = &finding.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let related = finding
        .related
        .iter()
        .filter_map(|r| {
            Some(DiagnosticRelatedInformation {
                location: Location::new(
                    uri_of(Path::new(&*r.path))?,
                    range(sources, &r.path, &r.span, encoding),
                ),
                message: r.label.clone(),
            })
        })
        .collect::<Vec<_>>();
    lsp_types::Diagnostic {
        range: range(sources, &finding.path, &finding.span, encoding),
        severity: Some(match finding.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(finding.code.as_str().to_string())),
        source: Some("blades".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        data: Some(serde_json::json!({
            "label": &*finding.label,
            "help": finding.help.as_deref(),
            "fixes": fixes(finding, sources, encoding),
        })),
        ..lsp_types::Diagnostic::default()
    }
}

/// A finding's fixes as the code actions' titles and text edits, in the
/// finding's file: kept in the diagnostic's `data`, which the client
/// sends back with `textDocument/codeAction`.
fn fixes(finding: &Diagnostic, sources: &Sources, encoding: Encoding) -> Vec<FixData> {
    if sources.file(&finding.path).is_none() {
        return Vec::new();
    }
    finding
        .fixes
        .iter()
        .map(|fix| FixData {
            title: fix.title.to_string(),
            edits: fix
                .edits
                .iter()
                .map(|edit| TextEdit {
                    range: range(sources, &finding.path, &edit.span, encoding),
                    new_text: edit.text.to_string(),
                })
                .collect(),
            review: fix.review,
        })
        .collect()
}

/// One fix as a diagnostic's `data` holds it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FixData {
    pub title: String,
    pub edits: Vec<TextEdit>,
    /// It records a review ([`crate::diagnostics::Fix::review`]): offered,
    /// never preferred, so that no "fix all" makes it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub review: bool,
}

/// The quick fixes of the diagnostics a client sends with a
/// `textDocument/codeAction` request, from their `data`.
pub fn code_actions(
    uri: &Uri,
    diagnostics: &[lsp_types::Diagnostic],
) -> Vec<lsp_types::CodeActionOrCommand> {
    let mut actions = Vec::new();
    for diagnostic in diagnostics {
        let fixes: Vec<FixData> = diagnostic
            .data
            .as_ref()
            .and_then(|data| data.get("fixes"))
            .and_then(|fixes| serde_json::from_value(fixes.clone()).ok())
            .unwrap_or_default();
        let only = fixes.len() == 1;
        for fix in fixes {
            let preferred = only && !fix.review;
            let edit = lsp_types::WorkspaceEdit {
                changes: Some([(uri.clone(), fix.edits)].into_iter().collect()),
                ..lsp_types::WorkspaceEdit::default()
            };
            actions.push(lsp_types::CodeActionOrCommand::CodeAction(
                lsp_types::CodeAction {
                    title: fix.title,
                    kind: Some(lsp_types::CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![diagnostic.clone()]),
                    edit: Some(edit),
                    is_preferred: Some(preferred),
                    ..lsp_types::CodeAction::default()
                },
            ));
        }
    }
    actions
}

/// A span of a file as a range (the file's start when its text is unknown).
fn range(
    sources: &Sources,
    path: &str,
    span: &std::ops::Range<usize>,
    encoding: Encoding,
) -> Range {
    match sources.file(path) {
        Some(file) => Range::new(
            position(file.lines(), file.text(), span.start, encoding),
            position(file.lines(), file.text(), span.end, encoding),
        ),
        None => Range::default(),
    }
}

/// How this system writes paths: Windows puts a drive letter first and
/// separates with `\\`; a `file:` URI writes either with `/`.
const WINDOWS: bool = cfg!(windows);

/// The local path a `file:` URI names.
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file://host/path`: only the local host.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    local_path(&percent_decode(rest)?, WINDOWS).map(PathBuf::from)
}

/// The path a `file:` URI's (decoded) path names: `/home/x` as it is;
/// on Windows `/C:/x` (or `/c%3A/x`, as VS Code writes it) is `C:\x`.
fn local_path(uri_path: &str, windows: bool) -> Option<String> {
    if !windows {
        return uri_path.starts_with('/').then(|| uri_path.to_string());
    }
    let drive = uri_path.strip_prefix('/')?;
    let bytes = drive.as_bytes();
    let lettered = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    lettered.then(|| drive.replace('/', "\\"))
}

/// The `file:` URI of an absolute local path.
pub fn uri_of(path: &Path) -> Option<Uri> {
    Uri::from_str(&uri_text(path.to_str()?, WINDOWS)?).ok()
}

/// [`uri_of`] as text: each byte outside the URI's unreserved set
/// percent-encoded; on Windows `C:\x` is `file:///C:/x`.
fn uri_text(path: &str, windows: bool) -> Option<String> {
    let path = match windows {
        true => {
            let bytes = path.as_bytes();
            let lettered = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
            lettered.then(|| format!("/{}", path.replace('\\', "/")))?
        }
        false => path.to_string(),
    };
    let mut uri = String::from("file://");
    for (i, byte) in path.bytes().enumerate() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                uri.push(byte as char);
            }
            // A drive's colon is written as it is.
            b':' if windows && i == 2 => uri.push(':'),
            _ => uri.push_str(&format!("%{byte:02X}")),
        }
    }
    Some(uri)
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_goes_to_a_uri_and_back() {
        let path = Path::new("/tmp/pool 1/カード/set#2.yaml");
        let uri = uri_of(path).expect("an absolute UTF-8 path");
        assert_eq!(
            uri.as_str(),
            "file:///tmp/pool%201/%E3%82%AB%E3%83%BC%E3%83%89/set%232.yaml"
        );
        assert_eq!(path_of(&uri).as_deref(), Some(path));
    }

    #[test]
    fn windows_paths_have_a_drive_and_backslashes_and_go_to_a_uri_and_back() {
        let path = r"C:\Users\ユーザー\cards\tin town.yaml";
        let uri = uri_text(path, true).expect("a drive letter");
        assert_eq!(
            uri,
            "file:///C:/Users/%E3%83%A6%E3%83%BC%E3%82%B6%E3%83%BC/cards/tin%20town.yaml"
        );
        let decoded = percent_decode(uri.strip_prefix("file://").unwrap()).unwrap();
        assert_eq!(local_path(&decoded, true).as_deref(), Some(path));
        // VS Code writes the drive in lower case with its colon encoded.
        let vscode = percent_decode("/c%3A/Users/x.yaml").unwrap();
        assert_eq!(
            local_path(&vscode, true).as_deref(),
            Some(r"c:\Users\x.yaml")
        );
        assert_eq!(local_path("/home/x.yaml", true), None, "no drive");
        assert_eq!(uri_text("relative\\x.yaml", true), None);
        assert_eq!(local_path("C:/x.yaml", false), None, "not absolute here");
    }

    #[test]
    fn a_files_kind_is_read_from_its_path_in_the_pool() {
        for (relative, kind) in [
            ("tin-town.yaml", FileKind::Build),
            ("more/basics.yml", FileKind::Build),
            ("keywords.yaml", FileKind::Build),
            ("phrases/en.yaml", FileKind::Build),
            ("phrases/ja.yaml", FileKind::Translation),
            ("locales/ja/tin-town.yaml", FileKind::Translation),
            ("more/locales/ja/basics.yaml", FileKind::Translation),
            ("formats/cube.yaml", FileKind::Format),
        ] {
            assert_eq!(FileKind::of(relative), kind, "{relative}");
        }
    }

    #[test]
    fn the_pool_is_the_workspaces_cards_folder_else_the_files_folder() {
        let workspace = tempfile::tempdir().unwrap();
        let root = workspace.path();
        std::fs::create_dir_all(root.join("cards/more")).unwrap();
        let in_cards = root.join("cards/more/set.yaml");
        assert_eq!(pool_dir(Some(root), &in_cards), root.join("cards"));
        let elsewhere = root.join("other/set.yaml");
        assert_eq!(pool_dir(Some(root), &elsewhere), root.join("other"));
        assert_eq!(pool_dir(None, &in_cards), root.join("cards/more"));
    }

    #[test]
    fn only_local_files_have_a_path() {
        let uri = Uri::from_str("untitled:Untitled-1").expect("a URI");
        assert_eq!(path_of(&uri), None);
    }
}
