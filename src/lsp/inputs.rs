//! Player inputs (decks, collections, trades, score sheets) as documents:
//! which check a file gets ([`Kind::of`]), and that check's findings, by
//! the library call the command runs ([`crate::rules::check`]), as the
//! protocol's diagnostics.
//!
//! What a check needs of the pool (its database, formats and card names:
//! a [`Ground`]) is made once per state of the pool and kept, so typing in
//! a deck checks the deck, not the pool.

use std::collections::{BTreeSet, HashMap};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_types::{DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Uri};

use super::check::{Document, live_pool, to_lsp, uri_of};
use super::documents::declares_a_set;
use super::position::{Encoding, position};
use crate::diagnostics::{Code, Diagnostic, LineIndex, Sources};
use crate::model::Database;
use crate::pool::{FOUND_FOLDER, Pool, is_data_file};
use crate::rules::check::{self, Checked, Ground};
use crate::rules::format::Formats;
use crate::rules::input::InputFile;
use crate::rules::{Violation, score};
use crate::workspace::{LivePool, Workspace, database_made};

/// Which check a player input gets: the command a player would run on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `blades deck check`, in the pool's default format.
    Deck,
    /// `blades collection check`.
    Collection,
    /// `blades trade check`.
    Trade,
    /// `blades score`.
    Score,
}

impl Kind {
    /// The kind of the document at `path` with `text`, in the workspace
    /// folder `root`; `None` for a file of the pool (the workspace's
    /// `cards/`, a set file, a data file) or one that says nothing of what
    /// it is. By, in order: the file's name or a folder on its path within
    /// the workspace (`decks/`, `deck-1.txt`, `x.deck`, `collections/`,
    /// `trade-with-sam.yaml`, `scores/`); what a YAML file's top-level keys
    /// are (`players:` a score sheet, `a:`/`b:` a trade, `symbol:` a
    /// collection, `character:`, `zones:`, `cards:` or a bare list a deck);
    /// a text list's headers (`a:`/`b:` a trade, `symbol:` a collection);
    /// else a text list (`.txt`, `.text`, `.list`) is a deck.
    pub fn of(root: Option<&Path>, path: &Path, text: &str) -> Option<Kind> {
        let cards = root.map(|root| root.join(FOUND_FOLDER));
        if cards.as_ref().is_some_and(|cards| path.starts_with(cards)) {
            return None;
        }
        let relative = root
            .and_then(|root| path.strip_prefix(root).ok())
            .unwrap_or_else(|| Path::new(path.file_name().unwrap_or_default()));
        let relative = relative.to_string_lossy().replace('\\', "/");
        let name = relative
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .to_lowercase();
        let extension = name.rsplit_once('.').map(|(_, e)| e);
        let yaml = matches!(extension, Some("yaml" | "yml"));
        let list = matches!(extension, Some("txt" | "text" | "list" | "deck"));
        if !yaml && !list {
            return None;
        }
        if yaml && (is_data_file(&relative) || declares_a_set(text)) {
            return None;
        }
        if let Some(kind) = named(&relative, &name) {
            return Some(kind);
        }
        match yaml {
            true => shaped(text),
            false => Some(headed(text)),
        }
    }
}

/// The kind a folder on the path (the nearest first) or the file's name says.
fn named(relative: &str, name: &str) -> Option<Kind> {
    let word = |word: &str| -> Option<Kind> {
        let word = word.to_lowercase();
        let starts = |prefix: &str| word.starts_with(prefix);
        if starts("deck") {
            Some(Kind::Deck)
        } else if starts("collection") || starts("binder") {
            Some(Kind::Collection)
        } else if starts("trade") {
            Some(Kind::Trade)
        } else if starts("score") {
            Some(Kind::Score)
        } else {
            None
        }
    };
    if name.ends_with(".deck") {
        return Some(Kind::Deck);
    }
    let mut folders = relative.split('/').rev().skip(1);
    word(name).or_else(|| folders.find_map(word))
}

/// The kind a YAML file's top-level keys say.
fn shaped(text: &str) -> Option<Kind> {
    let keys: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with([' ', '\t', '#']))
        .filter_map(|l| {
            l.split_once(':')
                .map(|(key, _)| key.trim_matches(['"', '\'']))
        })
        .collect();
    let has = |key: &str| keys.contains(&key);
    let listed = text.lines().any(|l| l.starts_with("- ") || l == "-");
    if has("players") {
        Some(Kind::Score)
    } else if has("a") || has("b") {
        Some(Kind::Trade)
    } else if has("symbol") {
        Some(Kind::Collection)
    } else if has("character") || has("zones") || has("cards") || (listed && keys.is_empty()) {
        Some(Kind::Deck)
    } else {
        None
    }
}

/// The kind a text list's headers say: a deck unless they open a trade's
/// sides or declare a collection's symbol.
fn headed(text: &str) -> Kind {
    let header = |line: &str| {
        let line = line.trim().to_lowercase();
        let key = line.split_once(':').map(|(key, _)| key.trim().to_string());
        key.unwrap_or_default()
    };
    let headers: Vec<String> = text.lines().map(header).collect();
    if headers.iter().any(|h| h == "a" || h == "b") {
        Kind::Trade
    } else if headers.iter().any(|h| h == "symbol") {
        Kind::Collection
    } else {
        Kind::Deck
    }
}

/// What the checks need of a pool, or why it cannot be checked against
/// (the findings the command refuses with, exit 2).
type Standing = Result<Ground, Vec<Diagnostic>>;

/// The open player inputs, and what their checks need of each pool.
#[derive(Default)]
pub struct Inputs {
    /// Each open input's kind, by URI.
    kinds: HashMap<String, Kind>,
    /// The inputs to check again.
    stale: BTreeSet<String>,
    /// What the checks need of each pool (`None`: the built-in one),
    /// made at the first check after the pool changed.
    grounds: HashMap<Option<PathBuf>, Arc<Standing>>,
}

impl Inputs {
    /// Takes in an input's text (the server keeps the document).
    pub fn changed(&mut self, uri: &Uri, kind: Kind) {
        self.kinds.insert(uri.as_str().to_string(), kind);
        self.stale.insert(uri.as_str().to_string());
    }

    /// Whether the document is a player input.
    pub fn is_input(&self, uri: &Uri) -> bool {
        self.kinds.contains_key(uri.as_str())
    }

    /// Forgets a closed (or no longer an input's) document.
    pub fn forget(&mut self, uri: &Uri) -> bool {
        self.stale.remove(uri.as_str());
        self.kinds.remove(uri.as_str()).is_some()
    }

    /// Whether an input waits to be checked.
    pub fn any_stale(&self) -> bool {
        !self.stale.is_empty()
    }

    /// The pool in `dir` changed (a document of it, or a file on disk):
    /// its ground is made again, and every open input is checked again.
    pub fn pool_changed(&mut self, dir: &Path) {
        if self.grounds.remove(&Some(dir.to_path_buf())).is_some() {
            self.stale.extend(self.kinds.keys().cloned());
        }
    }

    /// Checks every stale input: each one's URI and findings.
    pub fn check_stale(
        &mut self,
        pool: &mut Pools,
        open: &HashMap<String, Document>,
        encoding: Encoding,
    ) -> Vec<(Uri, Vec<lsp_types::Diagnostic>)> {
        let mut lists = Vec::new();
        for uri in std::mem::take(&mut self.stale) {
            let (Some(document), Some(&kind)) = (open.get(&uri), self.kinds.get(&uri)) else {
                continue;
            };
            let standing = || self.standing(pool, open);
            let findings = findings(kind, standing, document, encoding);
            lists.push((document.uri.clone(), findings));
        }
        lists
    }

    /// What the checks need of the inputs' pool, made when it changed.
    fn standing(&mut self, pools: &mut Pools, open: &HashMap<String, Document>) -> Arc<Standing> {
        let dir = pools.input_pool.clone();
        let made = self.grounds.entry(dir.clone()).or_insert_with(|| {
            let standing = match &dir {
                None => builtin_standing(),
                Some(dir) => {
                    let live = live_pool(pools.live, dir, pools.watched);
                    live_standing(
                        live,
                        open.values()
                            .filter(|d| !self.kinds.contains_key(d.uri.as_str())),
                    )
                }
            };
            Arc::new(standing)
        });
        made.clone()
    }
}

/// The server's pools, lent to the inputs' checks: the pool player inputs
/// name cards of (the workspace's `cards/`, `None` for the built-in pool)
/// and each pool's build cache.
pub struct Pools<'a> {
    pub input_pool: Option<PathBuf>,
    pub live: &'a mut HashMap<PathBuf, LivePool>,
    /// The client tells of every change on disk.
    pub watched: bool,
}

/// The built-in pool's ground (it has no errors, but is asked all the same).
fn builtin_standing() -> Standing {
    let workspace = Workspace::builtin();
    let (formats, findings) = workspace.formats();
    standing(formats, &findings.diagnostics, || workspace.database().ok())
}

/// The ground of a pool folder with the open documents laid over its files,
/// built through the server's cache of it.
fn live_standing<'a>(live: &mut LivePool, open: impl Iterator<Item = &'a Document>) -> Standing {
    let dir = live.dir().to_path_buf();
    let overlays = open.filter_map(|document| {
        let relative = document.path.strip_prefix(&dir).ok()?;
        let relative = relative.to_string_lossy().replace('\\', "/");
        Some((relative, document.text.clone()))
    });
    let pool: Pool = live.read(overlays.collect::<Vec<_>>());
    let mut found = Vec::new();
    let formats = Formats::of_pool(&pool, &mut found);
    standing(formats, &found, || {
        database_made(&live.compile(&pool).output)
    })
}

/// What `deck check` asks of a pool before it checks a deck, in its order:
/// formats without errors, a database (the pool without errors), formats
/// that name only what the database has.
fn standing(
    formats: Formats,
    findings: &[Diagnostic],
    database: impl FnOnce() -> Option<Database>,
) -> Standing {
    if let Some(refused) = check::formats_refused(findings) {
        return Err(refused);
    }
    let database = database().ok_or_else(refused_pool)?;
    if let Some(unknown) = check::formats_unknown(&formats, &database) {
        return Err(unknown);
    }
    Ok(Ground::new(database, formats))
}

/// What the commands say of a pool with errors.
fn refused_pool() -> Vec<Diagnostic> {
    vec![
        Diagnostic::general(
            Code::PoolHasErrors,
            "the card pool has errors, so nothing can be checked against it",
        )
        .with_help("fix the pool first: `blades build` lists the same errors"),
    ]
}

/// One input's findings: what its command reports, the input's problems
/// and the rules it breaks, each where it is written. `standing` is asked
/// only by the checks that name cards.
fn findings(
    kind: Kind,
    standing: impl FnOnce() -> Arc<Standing>,
    document: &Document,
    encoding: Encoding,
) -> Vec<lsp_types::Diagnostic> {
    let shown = document.path.display().to_string();
    let file = InputFile::new(&shown, &document.text);
    if kind == Kind::Score {
        return score_findings(&file, encoding);
    }
    let standing = standing();
    let ground = match &*standing {
        Ok(ground) => ground,
        Err(refused) => return refusal(refused, &file, encoding),
    };
    let index = ground.index();
    let read = Ok(file.clone());
    match kind {
        Kind::Collection => {
            let checked = check::collection(&ground.database, &index, &shown, read, false);
            published(checked, &file, encoding)
        }
        Kind::Trade => published(check::trade(&index, &shown, read, false), &file, encoding),
        // (A score sheet was answered above.)
        Kind::Deck | Kind::Score => {
            let format = ground.formats.default_format();
            published(check::deck(&index, format, &shown, read), &file, encoding)
        }
    }
}

/// What `blades score` finds in a score sheet (it names no card: no pool).
fn score_findings(file: &InputFile, encoding: Encoding) -> Vec<lsp_types::Diagnostic> {
    let mut found = Vec::new();
    let _ = score::score(file, &mut found);
    crate::diagnostics::sort(&mut found);
    let sources = sources_of(file);
    found
        .iter()
        .map(|d| to_lsp(d, &sources, encoding))
        .collect()
}

/// Why the input is not checked, at its start: the commands' findings
/// about the run (the pool's own are shown in its files).
fn refusal(
    refused: &[Diagnostic],
    file: &InputFile,
    encoding: Encoding,
) -> Vec<lsp_types::Diagnostic> {
    let sources = sources_of(file);
    let general = refused.iter().filter(|d| d.is_general());
    let placed = general.map(|d| Diagnostic {
        path: file.path.clone(),
        span: 0..0,
        ..d.clone()
    });
    placed.map(|d| to_lsp(&d, &sources, encoding)).collect()
}

fn sources_of(file: &InputFile) -> Sources {
    let mut sources = Sources::default();
    sources.insert(file.path.clone(), file.text.clone());
    sources
}

/// A report's problems and violations as the protocol's diagnostics.
fn published<R: check::Report>(
    checked: Checked<R>,
    file: &InputFile,
    encoding: Encoding,
) -> Vec<lsp_types::Diagnostic> {
    let mut list: Vec<lsp_types::Diagnostic> = (checked.problems.iter())
        .map(|d| to_lsp(d, &checked.sources, encoding))
        .collect();
    let violations = checked.report.common().violations.iter();
    for (violation, places) in violations.zip(&checked.places) {
        list.push(broken(violation, places, file, encoding));
    }
    list
}

/// A broken rule at the first card it names; the others as related places.
fn broken(
    violation: &Violation,
    places: &[Range<usize>],
    file: &InputFile,
    encoding: Encoding,
) -> lsp_types::Diagnostic {
    let lines = LineIndex::new(&file.text);
    let range = |span: &Range<usize>| {
        lsp_types::Range::new(
            position(&lines, &file.text, span.start, encoding),
            position(&lines, &file.text, span.end, encoding),
        )
    };
    let uri = uri_of(Path::new(&*file.path));
    let related: Vec<DiagnosticRelatedInformation> = (places.iter().skip(1))
        .filter_map(|span| {
            Some(DiagnosticRelatedInformation {
                location: Location::new(uri.clone()?, range(span)),
                message: "a card of this violation".to_string(),
            })
        })
        .collect();
    lsp_types::Diagnostic {
        range: places.first().map(range).unwrap_or_default(),
        severity: Some(DiagnosticSeverity::ERROR),
        code: Some(NumberOrString::String(violation.rule.to_string())),
        source: Some("blades".to_string()),
        message: violation.message.clone(),
        related_information: (!related.is_empty()).then_some(related),
        data: Some(serde_json::json!({ "cards": &violation.cards })),
        ..lsp_types::Diagnostic::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_files_kind_is_read_from_its_name_its_folder_else_its_keys() {
        let root = Path::new("/w");
        let kind = |relative: &str, text: &str| Kind::of(Some(root), &root.join(relative), text);
        // The workspace's pool, set files, data files: no input.
        assert_eq!(kind("cards/decks/a.txt", "x\n"), None);
        assert_eq!(kind("decks/set.yaml", "id: s\ncards: []\n"), None);
        assert_eq!(kind("more/keywords.yaml", "keywords: []\n"), None);
        assert_eq!(kind("x/locales/ja/s.yaml", "cards: {}\n"), None);
        // Names and folders, the nearest first.
        assert_eq!(kind("decks/mine.yaml", "players: []\n"), Some(Kind::Deck));
        assert_eq!(kind("mine.deck", ""), Some(Kind::Deck));
        assert_eq!(kind("Deck-2.txt", ""), Some(Kind::Deck));
        assert_eq!(kind("collections/fire.txt", ""), Some(Kind::Collection));
        assert_eq!(kind("binder.yaml", ""), Some(Kind::Collection));
        assert_eq!(kind("trades/old/decks-for-sam.txt", ""), Some(Kind::Deck));
        assert_eq!(kind("decks/trade-with-sam.txt", ""), Some(Kind::Trade));
        assert_eq!(kind("scores/final.yaml", ""), Some(Kind::Score));
        // YAML keys, text headers.
        assert_eq!(
            kind("a.yaml", "mode: tournament\nplayers: []\n"),
            Some(Kind::Score)
        );
        assert_eq!(
            kind("a.yaml", "a:\n  cards: [x]\nb:\n  dollars: 2\n"),
            Some(Kind::Trade)
        );
        assert_eq!(
            kind("a.yaml", "symbol: fire\ncards: [x]\n"),
            Some(Kind::Collection)
        );
        assert_eq!(
            kind("a.yaml", "character: deques\ncards: [x]\n"),
            Some(Kind::Deck)
        );
        assert_eq!(kind("a.yaml", "- x\n- y\n"), Some(Kind::Deck));
        assert_eq!(
            kind("a.txt", "a:\nRivet Gremlin\nb:\ndollars: 2\n"),
            Some(Kind::Trade)
        );
        assert_eq!(kind("a.txt", "symbol: fire\nx\n"), Some(Kind::Collection));
        assert_eq!(kind("a.txt", "Rivet Gremlin\n"), Some(Kind::Deck));
        // Nothing that says what it is.
        assert_eq!(kind("ci.yml", "on: push\njobs: {}\n"), None);
        assert_eq!(kind("notes.md", "Rivet Gremlin\n"), None);
        assert_eq!(kind("deck", "Rivet Gremlin\n"), None);
    }
}
