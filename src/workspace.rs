//! A pool opened for work: the one entry point every front end uses for a
//! pool's build, vocabulary, database and findings, so that no command
//! assembles them again.
//!
//! Two ways in:
//! - [`Workspace`] answers questions about a pool (its database for the
//!   player checks and card lookups, its vocabulary for the effect
//!   commands, its translations). It reads the pool through the build cache
//!   of [`DEFAULT_DATABASE`] when there is one, read-only: with the pool
//!   unchanged since that build, a question costs about what a cached build
//!   with nothing to do costs.
//! - [`Builder`] runs `blades build`: it reads the pool through the cache
//!   beside the output, compiles, writes the database and stores the cache,
//!   once or again and again (`--watch`).
//!
//! ```
//! use blades::workspace::Workspace;
//!
//! let workspace = Workspace::builtin();
//! let database = workspace.database().expect("the built-in pool is valid");
//! assert!(database.cards.iter().any(|card| card.copies == 3));
//! ```

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::artifacts::{self, DatabaseJson, DatabaseWriter, FileIdentity, Piece, SetJson};
use crate::cache::Cache;
use crate::cards::Sought;
use crate::compile::{
    ChecksMemo, Compiled, Options, Output, PoolVocabulary, compile_with, find_set, read_vocabulary,
};
use crate::diagnostics::{self, Code, Diagnostic, Sources};
use crate::faces::gallery::{self, Gallery, GalleryWritten};
use crate::faces::render::{self as face_render, FitMemo, face_findings};
use crate::files::{self, Destination};
use crate::i18n::{self, answers::Answer, answers::Answers, memo::Memo};
use crate::index::{self, Columns, Index, PoolState};
use crate::model::{Card, DATABASE_FORMAT, Database, Set};
use crate::pool::{Listing, Pool, PoolError, SourceFile};
use crate::rules::check::{self, Ground};
use crate::rules::format::Formats;
use crate::search;
use crate::sqlite;

/// Where `blades build` writes the database unless told otherwise; the
/// build cache sits beside it.
pub const DEFAULT_DATABASE: &str = "dist/cards.json";

/// Why no player check can run on a pool ([`Workspace::ground`]).
#[derive(Debug)]
pub enum Unchecked {
    /// The pool's deck formats have errors, or name what it lacks: the
    /// findings say so.
    Formats(Findings),
    /// The pool has errors: its findings.
    Pool(Findings),
}

/// Findings about a pool, with the text of the files they point into.
#[derive(Debug, Default)]
pub struct Findings {
    pub diagnostics: Vec<Diagnostic>,
    pub sources: Sources,
}

impl Findings {
    pub fn error_count(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }

    /// Other findings about the same files.
    fn with(self, diagnostics: Vec<Diagnostic>) -> Findings {
        Findings {
            diagnostics,
            sources: self.sources,
        }
    }
}

/// One card of a pool and its set ([`Workspace::card_named`]), or why no
/// card has that name; and the languages of the pool's database.
#[derive(Debug)]
pub struct CardNamed {
    pub card: Result<(Card, Option<Set>), Box<Diagnostic>>,
    pub languages: Vec<String>,
}

/// A pool opened to answer questions about it.
pub struct Workspace {
    pool: Pool,
    /// The card index of the last build (to [`DEFAULT_DATABASE`]), when
    /// it describes the pool as it is: the database without a build.
    index: Option<Index>,
    /// The cache of that build, opened when a question needs a build:
    /// never written from here. Building takes it (hence the lock).
    cache: Mutex<Option<Cache>>,
    /// The database whose cache answers questions, if one does.
    cached: Option<PathBuf>,
    /// Asked once ([`Workspace::asked_once`]): a database built as models
    /// is given as one read back is, without its effect trees.
    once: bool,
}

/// The build cache a build to `out` keeps and starts from: copied beside
/// another output, a build there reuses what it vouches for (`blades
/// serve`'s child build).
pub fn cache_beside(out: &Path) -> PathBuf {
    Cache::beside(out)
}

impl Workspace {
    /// The built-in pool.
    pub fn builtin() -> Workspace {
        Workspace::of(Pool::builtin(), None, None)
    }

    fn of(pool: Pool, cache: Option<Cache>, cached: Option<PathBuf>) -> Workspace {
        Workspace {
            pool,
            index: None,
            cache: Mutex::new(cache),
            cached,
            once: false,
        }
    }

    /// The pool in `cards`, or the built-in one, read through the card
    /// index or the cache of the last build to [`DEFAULT_DATABASE`] (files
    /// they vouch for are read only if their text is needed; the others
    /// when a build comes to them, their text not kept).
    pub fn open(cards: Option<&Path>) -> Result<Workspace, PoolError> {
        Workspace::open_beside(cards, Path::new(DEFAULT_DATABASE))
    }

    /// [`Workspace::open`], through the index and cache of the last build
    /// to `out`.
    pub fn open_beside(cards: Option<&Path>, out: &Path) -> Result<Workspace, PoolError> {
        let index = Index::open(&index::beside(out));
        let (pool, cache) = match (cards, &index) {
            (None, _) => (Pool::builtin(), None),
            (Some(dir), Some(index)) => {
                let listing = Pool::list(dir).map(Listing::stamp)?.deferring();
                (
                    listing.read(|path, stamp| index.state().known(path, stamp))?,
                    None,
                )
            }
            (Some(dir), None) => {
                let cache = Cache::open_beside(out);
                let listing = Pool::list(dir).map(|l| l.stamp().deferring());
                let pool = read_through(listing, Some(&cache))?;
                (pool, Some(cache))
            }
        };
        let mut workspace = Workspace::of(pool, cache, Some(out.to_path_buf()));
        workspace.index = index.filter(|index| index.state().describes(&workspace.pool));
        Ok(workspace)
    }

    /// A translation report on the pool in `cards` (`i18n status`,
    /// `i18n check`): read back from the answers kept beside the last
    /// build's output when the pool is as it was when the same question was
    /// last answered ([`i18n::answers`]: no file is read), else `make` on
    /// the pool's translations, read as `reading` says, and the answer kept.
    /// The built-in pool's answers are made every time.
    pub fn translation_report<A: Answer>(
        cards: Option<&Path>,
        question: &str,
        reading: Reading,
        make: impl FnOnce(&i18n::Project) -> A,
    ) -> Result<Report<A>, PoolError> {
        let Some(dir) = cards else {
            let pool = Pool::builtin();
            let project = i18n::Project::load(&pool);
            return Ok(Report::of(&pool, make(&project), Some(project)));
        };
        let mut answers = Answers::open(&i18n::answers::beside(Path::new(DEFAULT_DATABASE)));
        let listing = Pool::list(dir).map(Listing::stamp)?;
        let pool = listing.read(|path, stamp| answers.known(path, stamp))?;
        let inputs = i18n::answers::inputs_of(&pool);
        if let Some(answer) = inputs.and_then(|inputs| answers.get(inputs, question)) {
            return Ok(Report::of(&pool, answer, None));
        }
        let mut project = translations_read(&pool, reading);
        let (pool, inputs) = match read_as_listed(&pool) {
            true => (pool, inputs),
            false => {
                // A file left unread changed before it was read: every
                // file is read again, no stamp trusted.
                let pool = Pool::list(dir).map(Listing::stamp)?.read(|_, _| None)?;
                project = translations_read(&pool, reading);
                let inputs = i18n::answers::inputs_of(&pool);
                (pool, inputs)
            }
        };
        let answer = make(&project);
        if let Some(inputs) = inputs {
            answers.put(inputs, question, &answer);
            // Answers that cannot be kept cost only the next run's time.
            let _ = answers.save(&pool);
        }
        Ok(Report::of(&pool, answer, Some(project)))
    }

    /// The pool in `cards`, or the built-in one, every file read (for the
    /// commands that rewrite or translate its files).
    pub fn open_uncached(cards: Option<&Path>) -> Result<Workspace, PoolError> {
        let pool = match cards {
            None => Pool::builtin(),
            Some(dir) => Pool::from_dir(dir)?,
        };
        Ok(Workspace::of(pool, None, None))
    }

    /// This workspace for a caller that asks for the database once and
    /// keeps it (`blades serve`): when the cache has no earlier database
    /// to reuse, the build makes the models directly, freeing each set as
    /// it is made, rather than filling the cache (which nothing here
    /// writes) with every set's JSON and reading it all back. Either way
    /// the database is the one read back (no effect trees). A card index
    /// that describes the pool answers alone: the cache is not opened (at
    /// 100,000 cards, reading and decoding it took 86 MB for nothing).
    pub fn asked_once(mut self) -> Workspace {
        self.once = true;
        if self.index.is_some() {
            return self;
        }
        let cache = self.cache.get_mut().unwrap_or_else(|e| e.into_inner());
        let opened = cache
            .take()
            .or_else(|| self.cached.as_deref().map(Cache::open_beside));
        match opened {
            Some(opened) if opened.database_identity().is_some() => *cache = Some(opened),
            _ => self.cached = None,
        }
        self
    }

    /// Whether the database comes from the card index (the pool is as the
    /// last build left it).
    pub fn has_index(&self) -> bool {
        self.index.is_some()
    }

    /// The cache, opened at the first question that needs it.
    fn cache(&self) -> std::sync::MutexGuard<'_, Option<Cache>> {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(out) = &self.cached
            && cache.is_none()
        {
            *cache = Some(Cache::open_beside(out));
        }
        cache
    }

    /// The pool's files.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// The checked database, or the findings that stand in its way (every
    /// finding of a build, errors and warnings).
    pub fn database(&self) -> Result<Database, Findings> {
        self.database_with(Columns::All)
            .map(|(database, _)| database)
    }

    /// [`Workspace::database`] with only `columns` of each card when the
    /// card index can give them, else every column (a build makes them
    /// all): the database and the columns it has.
    pub fn database_with(&self, columns: Columns) -> Result<(Database, Columns), Findings> {
        if let Some(database) = self.index.as_ref().and_then(|i| i.database_with(columns)) {
            return Ok((database, columns));
        }
        self.database_built()
            .map(|database| (database, Columns::All))
    }

    /// The sets and only the cards a search of `text` finds, when the card
    /// index can give them so ([`search::sieved_database`]); `None` when
    /// the database is to be read.
    pub fn database_sieved(
        &self,
        text: &str,
        lang: &str,
        shows_texts: bool,
    ) -> Option<search::Sieved> {
        search::sieved_database(self.index.as_ref()?, text, lang, shows_texts)
    }

    /// The database built from the pool (through the cache when there is one).
    fn database_built(&self) -> Result<Database, Findings> {
        let mut cache = self.cache();
        let compiled = compile_with(
            &self.pool,
            Options {
                pieces: cache.is_some(),
                cache: cache.as_mut(),
                ..Options::default()
            },
        );
        match database_of(compiled) {
            // The same answer whichever way it was made: the trees are
            // not read back from pieces (or the index), so not kept here.
            Ok(mut database) if self.once => {
                database.cards.iter_mut().for_each(|c| c.effect_tree = None);
                Ok(database)
            }
            Ok(database) => Ok(database),
            // Pieces that could not be read back (the previous database file
            // changed under the cache): built anew, from the files alone.
            Err(None) => database_of(compile_with(&self.pool, Options::default()))
                .map_err(Option::unwrap_or_default),
            Err(Some(findings)) => Err(findings),
        }
    }

    /// What the player checks need of the pool ([`Ground`]: its deck
    /// formats and database), asked in `deck check`'s order: formats
    /// without errors, a database, formats that name only what it has.
    /// With `sought`, the database holds only the cards sought and those
    /// the formats name, when the card index has them all
    /// ([`Workspace::cards_sought`]).
    pub fn ground(&self, sought: Option<Sought>) -> Result<Ground, Unchecked> {
        let (formats, findings) = self.formats();
        if let Some(refused) = check::formats_refused(&findings.diagnostics) {
            return Err(Unchecked::Formats(findings.with(refused)));
        }
        let named = sought.and_then(|mut sought| {
            formats.named_cards().for_each(|id| sought.add([id]));
            self.cards_sought(&sought)
        });
        // What the formats name is found in the cut-down database, or
        // reported (with suggestions from every card) from the whole one.
        if let Some(database) = named
            && check::formats_unknown(&formats, &database).is_none()
        {
            return Ok(Ground::new(database, formats));
        }
        let database = self.database().map_err(Unchecked::Pool)?;
        if let Some(unknown) = check::formats_unknown(&formats, &database) {
            return Err(Unchecked::Formats(findings.with(unknown)));
        }
        Ok(Ground::new(database, formats))
    }

    /// The database a check of `sought` needs: cut down to the cards it
    /// names when the card index has them all
    /// ([`Workspace::cards_sought`]), else whole.
    pub fn database_for(&self, sought: &Sought) -> Result<Database, Findings> {
        match self.cards_sought(sought) {
            Some(database) => Ok(database),
            None => self.database(),
        }
    }

    /// The database cut down to the cards `sought` names, with every set
    /// ([`Index::cards_sought`]): what a player check needs when each of
    /// its references names a card. `None` without a card index of the
    /// pool as it is, or when a reference names no card (its report
    /// suggests names from every card): then ask [`Workspace::database`].
    pub fn cards_sought(&self, sought: &Sought) -> Option<Database> {
        let found = self.index.as_ref()?.cards_sought(sought)?;
        found.every_reference_found.then_some(found.database)
    }

    /// One card, by id or name in any language ([`i18n::card_named`]),
    /// with its set, and the database's languages: what `card show` needs.
    /// Through the card index only the sections' directories and the
    /// card's own section are read; an unknown name (its suggestions need
    /// every name) and a pool without an index go through the database.
    pub fn card_named(&self, name: &str) -> Result<CardNamed, Findings> {
        if let Some(lookup) = self.index.as_ref().and_then(|index| index.lookup(name))
            && let Some((card, set)) = lookup.found
        {
            return Ok(CardNamed {
                card: Ok((card, Some(set))),
                languages: i18n::languages_of(lookup.languages.iter().map(String::as_str)),
            });
        }
        let database = self.database()?;
        let card = i18n::card_named(&database, name)
            .map(|card| (card.clone(), find_set(&database, &card.set).cloned()));
        Ok(CardNamed {
            card,
            languages: i18n::languages(&database),
        })
    }

    /// What the pool's effects may name and how they print: the same
    /// vocabulary the build checks and renders with. Findings are those of
    /// the pool's keyword table and phrase books.
    pub fn vocabulary(&self) -> (PoolVocabulary, Findings) {
        let mut cache = self.cache();
        let (vocabulary, diagnostics) = read_vocabulary(&self.pool, cache.as_mut());
        let mut sources = Sources::default();
        // Every format file, so that a later check of what the formats
        // name (`Formats::unknown_names`) is located in them too.
        for file in &self.pool.data {
            if file.relative.starts_with("formats/")
                || diagnostics.iter().any(|d| d.path == file.path)
            {
                sources.insert(file.path.clone(), file.text().clone());
            }
        }
        (
            vocabulary,
            Findings {
                diagnostics,
                sources,
            },
        )
    }

    /// The deck formats a check may use: the built-in ones and the pool's
    /// own (`formats/*.yaml`). Findings are those of the pool's format
    /// files; a format with a problem is left out.
    pub fn formats(&self) -> (Formats, Findings) {
        let mut diagnostics = Vec::new();
        let formats = Formats::of_pool(&self.pool, &mut diagnostics);
        let mut sources = Sources::default();
        // Every format file, so that a later check of what the formats
        // name (`Formats::unknown_names`) is located in them too.
        for file in &self.pool.data {
            if file.relative.starts_with("formats/")
                || diagnostics.iter().any(|d| d.path == file.path)
            {
                sources.insert(file.path.clone(), file.text().clone());
            }
        }
        (
            formats,
            Findings {
                diagnostics,
                sources,
            },
        )
    }

    /// The pool's translation units and translations.
    pub fn translations(&self) -> i18n::Project {
        i18n::Project::load(&self.pool)
    }
}

/// How a translation report reads the files of a pool it has no answer
/// for: through the memo of earlier runs ([`i18n::memo`]) either way, so
/// only the files changed since are parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// The other files are not read either (`i18n status`: a report names
    /// lines, which the memo keeps).
    Remembered,
    /// Every file's text is read (not parsed): the reviewer's checks
    /// locate words in the translation and in the English (`i18n check`).
    WithTexts,
}

/// A translation report, the texts of the files its findings name, and the
/// translations it was made from when it was made now (a caller may keep
/// them until it exits: freeing a large pool's units is slow).
pub struct Report<A> {
    pub answer: A,
    pub sources: Sources,
    pub project: Option<i18n::Project>,
}

impl<A: Answer> Report<A> {
    fn of(pool: &Pool, answer: A, project: Option<i18n::Project>) -> Report<A> {
        Report {
            sources: i18n::sources_of(pool, answer.findings()),
            answer,
            project,
        }
    }
}

/// The translations of `pool`, read as `reading` says.
fn translations_read(pool: &Pool, reading: Reading) -> i18n::Project {
    if reading == Reading::WithTexts {
        (pool.sets.par_iter().chain(&pool.data)).for_each(|file| {
            file.text();
        });
    }
    translations_remembered(pool)
}

/// The translations of `pool` through the memo of earlier runs kept beside
/// the last build's output ([`i18n::memo`]): only the set and locale files
/// changed since are parsed, and the memo is brought up to date.
fn translations_remembered(pool: &Pool) -> i18n::Project {
    let mut memo = Memo::open(&i18n::memo::beside(Path::new(DEFAULT_DATABASE)));
    let project = i18n::Project::load_remembering(pool, &mut memo);
    if read_as_listed(pool) {
        let files: Vec<&SourceFile> = pool.sets.iter().chain(&pool.data).collect();
        // A memo that cannot be written costs only the next run's time.
        let _ = memo.save(&files);
    }
    project
}

/// Whether every file left unread when the pool was listed was, when read
/// later, still what its stamp said (else what was made from it was made
/// from an empty text).
fn read_as_listed(pool: &Pool) -> bool {
    (pool.sets.iter().chain(&pool.data)).all(|file| file.late_read_problem().is_none())
}

/// The database of a finished build, as models or from its JSON pieces;
/// else the build's findings, or `None` when the pieces could not be read.
fn database_of(compiled: Compiled) -> Result<Database, Option<Findings>> {
    match compiled.output {
        Output::Models(database) => Ok(database),
        Output::Pieces(json) | Output::Unchanged(json) => database_from_pieces(&json).ok_or(None),
        Output::None => Err(Some(Findings {
            diagnostics: compiled.diagnostics,
            sources: compiled.sources,
        })),
    }
}

/// The database a build without errors made, as models: its own, or
/// parsed back from its JSON pieces.
pub fn database_made(output: &Output) -> Option<Database> {
    match output {
        Output::Models(database) => Some(database.clone()),
        Output::Pieces(json) | Output::Unchanged(json) => database_from_pieces(json),
        Output::None => None,
    }
}

/// One card of the database a build made, and its set: only the piece of
/// its set file (`relative`, its path within the pool) is parsed back.
pub fn card_made(output: &Output, relative: &str, id: &str) -> Option<(Card, Option<Set>)> {
    match output {
        Output::Models(database) => {
            let card = database.cards.iter().find(|c| c.id.0 == id)?;
            Some((card.clone(), find_set(database, &card.set).cloned()))
        }
        Output::Pieces(json) | Output::Unchanged(json) => {
            let at = json.paths.iter().position(|p| &**p == relative)?;
            let (set, cards) = set_of(&json.sets[at])?;
            let card = cards.into_iter().find(|c| c.id.0 == id)?;
            Some((card, Some(set)))
        }
        Output::None => None,
    }
}

/// The database parsed back from its JSON pieces, each set's in parallel.
/// The cards still in the previous database file are read from it, each
/// set's straight into the buffer it is parsed from.
fn database_from_pieces(json: &DatabaseJson) -> Option<Database> {
    let sets: Vec<(Set, Vec<Card>)> = json.sets.par_iter().map(set_of).collect::<Option<_>>()?;
    let mut database = Database {
        keywords: json.keywords.clone(),
        format: json.format,
        sets: Vec::with_capacity(sets.len()),
        cards: Vec::with_capacity(json.cards),
    };
    for (set, cards) in sets {
        database.sets.push(set);
        database.cards.extend(cards);
    }
    Some(database)
}

/// A pool folder checked again at every change an editor makes to its
/// files (`blades lsp`): the build cache is kept in memory between checks
/// and never written, so a check reads from disk only the files whose
/// stamp changed and parses, checks and renders again only the files whose
/// text changed; the pool-wide checks check again only the sets whose file
/// changed, and compare every card's id and name by hashes kept per set.
pub struct LivePool {
    dir: PathBuf,
    cache: Cache,
    /// What the pool checks learnt of each set.
    checks: ChecksMemo,
    /// The pool as the last listing found it on disk.
    on_disk: Option<Pool>,
    /// The editor tells of every change on disk ([`LivePool::watched`]):
    /// the folder is listed again only when it does.
    watched: bool,
    /// A change on disk was told of since the last listing.
    disk_changed: bool,
}

impl LivePool {
    /// The pool in `dir`, nothing read yet.
    pub fn new(dir: &Path) -> LivePool {
        LivePool {
            dir: dir.to_path_buf(),
            // Named like a build's cache, but only ever held in memory.
            cache: Cache::empty(&dir.join(".blades-cache")),
            checks: ChecksMemo::default(),
            on_disk: None,
            watched: false,
            disk_changed: false,
        }
    }

    /// The editor watches the pool's files and tells of every change
    /// ([`LivePool::disk_changed`]): a read trusts the last listing until
    /// it does, instead of listing thousands of files at every keystroke.
    pub fn watched(&mut self) {
        self.watched = true;
    }

    /// Files of the pool changed on disk (made, saved, deleted): the next
    /// read lists the folder again.
    pub fn disk_changed(&mut self) {
        self.disk_changed = true;
    }

    /// The pool's folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The pool as it is on disk now, with `open` (paths within the pool
    /// and their unsaved text) laid over its files. A folder that cannot
    /// be read, or holds no set yet, is the open files alone. The folder
    /// is listed again unless it is watched and no change was told of.
    pub fn read(&mut self, open: impl IntoIterator<Item = (String, Arc<str>)>) -> Pool {
        let trusted = self.watched && !self.disk_changed;
        let mut pool = match (&self.on_disk, trusted) {
            (Some(on_disk), true) => on_disk.clone(),
            _ => {
                let listing = Pool::list(&self.dir).map(Listing::stamp);
                let on_disk = read_through(listing, Some(&self.cache)).unwrap_or_else(|_| Pool {
                    root: Some(self.dir.clone()),
                    ..Pool::default()
                });
                // Hashed once here, not in every copy of it.
                let files = on_disk.sets.par_iter().chain(on_disk.data.par_iter());
                files.for_each(|file| {
                    file.hash();
                });
                self.disk_changed = false;
                self.on_disk.insert(on_disk).clone()
            }
        };
        for (relative, text) in open {
            pool.overlay(&relative, text);
        }
        pool
    }

    /// What `blades build` finds in `pool` (read by [`LivePool::read`]),
    /// through the cache; the database comes as JSON pieces. The results
    /// become the cache for the next check, whatever they found.
    pub fn compile(&mut self, pool: &Pool) -> Compiled {
        let options = Options {
            cache: Some(&mut self.cache),
            checks_memo: Some(&mut self.checks),
            ..Options::default()
        };
        let compiled = compile_with(pool, options);
        self.cache.commit();
        compiled
    }
}

/// A set and its cards from their piece of JSON.
fn set_of(piece: &SetJson) -> Option<(Set, Vec<Card>)> {
    let set: Set = serde_json::from_slice(&piece.set).ok()?;
    Some((set, cards_of(&piece.cards)?))
}

/// A set's cards from their piece of JSON.
fn cards_of(piece: &Piece) -> Option<Vec<Card>> {
    serde_json::from_slice(&piece.read_array().ok()?).ok()
}

/// Reads a listed pool, leaving unread the files `cache` vouches for.
fn read_through(
    listing: Result<Listing, PoolError>,
    cache: Option<&Cache>,
) -> Result<Pool, PoolError> {
    listing?.read(|path, stamp| cache?.known(path, stamp))
}

/// How `blades build` goes.
#[derive(Debug, Clone)]
pub struct BuildSettings {
    /// The pool folder; `None` is the built-in pool.
    pub cards: Option<PathBuf>,
    /// Where the database goes (the cache beside it).
    pub out: PathBuf,
    /// YAML and the JSON Schema only: nothing written.
    pub schema_only: bool,
    /// Neither read nor write the build cache.
    pub no_cache: bool,
    /// Indented JSON, made whole at the end (builds without the cache).
    pub pretty: bool,
    /// Also fit every face's texts and report what does not fit or has
    /// no glyph ([`Build::faces`]); texts known to fit from an earlier
    /// build (`.blades-faces` beside the cache) are not fitted again.
    pub faces: bool,
    /// Also write the database as SQLite to this file ([`Build::sqlite`]).
    pub sqlite: Option<PathBuf>,
    /// Also write the card gallery into this folder, drawing only the
    /// faces that changed ([`Build::gallery`]); what its faces found is
    /// [`Build::faces`].
    pub gallery: Option<PathBuf>,
}

impl Default for BuildSettings {
    /// The built-in pool into [`DEFAULT_DATABASE`], with the cache, and
    /// nothing else written.
    fn default() -> BuildSettings {
        BuildSettings {
            cards: None,
            out: PathBuf::from(DEFAULT_DATABASE),
            schema_only: false,
            no_cache: false,
            pretty: false,
            faces: false,
            sqlite: None,
            gallery: None,
        }
    }
}

impl BuildSettings {
    /// Whether a build reads and writes the cache.
    fn uses_cache(&self) -> bool {
        !self.no_cache && !self.schema_only && !self.pretty
    }

    /// Whether the database is written while the sets are made (compact
    /// JSON, set by set); `--pretty` serializes it whole at the end.
    fn writes_while_building(&self) -> bool {
        !self.schema_only && !self.pretty
    }
}

/// What became of the database.
#[derive(Debug)]
pub enum Written {
    /// Written (or already on disk as it would be written).
    Done { sets: usize, cards: usize },
    /// Only checked (`schema_only`): nothing to write.
    Checked,
    /// The build has errors: nothing written.
    NotBuilt,
    /// Writing failed.
    Failed(std::io::Error),
}

/// One build: what it found and what it wrote.
pub struct Build {
    pub compiled: Compiled,
    pub written: Written,
    /// Set and data files in the pool, and how many were read (the others
    /// the cache vouched for).
    pub files: usize,
    pub files_read: usize,
    pub sets: usize,
    pub timings: BuildTimings,
    /// What the card faces found (`text-overflow`, `missing-glyph`), when
    /// [`BuildSettings::faces`] or [`BuildSettings::gallery`] asked and
    /// the build made a database.
    pub faces: Findings,
    /// The SQLite file written, when [`BuildSettings::sqlite`] asked and
    /// the build made a database.
    pub sqlite: Option<PathBuf>,
    /// The gallery written, when [`BuildSettings::gallery`] asked and the
    /// build made a database.
    pub gallery: Option<GalleryBuilt>,
    /// What the run could not write (the database, the SQLite file, the
    /// gallery: errors; the cache: a warning), after the build's findings.
    pub unwritten: Vec<Diagnostic>,
    /// The database read back from the JSON pieces, once asked for.
    read_back: std::sync::OnceLock<Option<Database>>,
}

impl Build {
    /// The database this build made (its models, or read back from its
    /// JSON pieces, once, for every front end that asks: the face check,
    /// the gallery); `None` when it has errors.
    pub fn database(&self) -> Option<&Database> {
        if let Some(database) = self.compiled.output.database() {
            return Some(database);
        }
        self.read_back
            .get_or_init(|| database_from_pieces(self.compiled.output.pieces()?))
            .as_ref()
    }

    /// Whether the database was written (or found already written).
    pub fn wrote_database(&self) -> bool {
        matches!(self.written, Written::Done { .. })
    }

    /// Whether something the build was asked to write could not be
    /// written (the cache aside: it is only a warning).
    pub fn failed_to_write(&self) -> bool {
        self.unwritten.iter().any(Diagnostic::is_error)
    }

    /// The build's findings, the faces' and the run's own, in that order
    /// (each part sorted), with the text of the files they point into.
    pub fn findings(&self) -> (Vec<Diagnostic>, Sources) {
        let mut all: Vec<Diagnostic> = self
            .compiled
            .diagnostics
            .iter()
            .chain(&self.faces.diagnostics)
            .cloned()
            .collect();
        diagnostics::sort(&mut all);
        all.extend(self.unwritten.iter().cloned());
        let mut sources = self.compiled.sources.clone();
        sources.extend(self.faces.sources.clone());
        (all, sources)
    }

    /// A build of `pool`: compiled in `built`, written by `done`.
    fn of(
        pool: &Pool,
        compiled: Compiled,
        written: Written,
        built: Duration,
        done: Duration,
    ) -> Build {
        let files_read = pool
            .sets
            .iter()
            .chain(&pool.data)
            .filter(|f| f.was_read())
            .count();
        Build {
            timings: BuildTimings {
                files: compiled.timings.files,
                pool: compiled.timings.pool,
                write: done - built,
                save: Duration::ZERO,
            },
            compiled,
            written,
            files: pool.sets.len() + pool.data.len(),
            files_read,
            sets: pool.sets.len(),
            faces: Findings::default(),
            sqlite: None,
            gallery: None,
            unwritten: Vec::new(),
            read_back: std::sync::OnceLock::new(),
        }
    }
}

impl Build {
    /// Writes the database this build wrote (or found already written) as
    /// SQLite to `path` (see [`crate::sqlite`]); an error when the build
    /// made no database.
    pub fn write_sqlite(&self, path: &Path) -> std::io::Result<()> {
        let source = match &self.compiled.output {
            Output::Models(database) => sqlite::Source::Models(database),
            Output::Pieces(json) | Output::Unchanged(json) => sqlite::Source::Pieces(json),
            Output::None => {
                return Err(std::io::Error::other("the build made no database"));
            }
        };
        sqlite::write(path, source)
    }
}

/// The gallery a build wrote ([`BuildSettings::gallery`]).
#[derive(Debug)]
pub struct GalleryBuilt {
    pub dir: PathBuf,
    pub made: Gallery,
    pub written: GalleryWritten,
}

/// Where a build's time went (reading the pool is [`Builder::read`]'s).
#[derive(Debug, Clone, Copy, Default)]
pub struct BuildTimings {
    /// Per-file checks, then the pool-wide ones (see [`Compiled::timings`]).
    pub files: Duration,
    pub pool: Duration,
    pub write: Duration,
    /// Storing the cache (and the faces' fit memo).
    pub save: Duration,
}

/// Runs `blades build`, once or on every change (`--watch`), keeping the
/// cache between builds.
pub struct Builder {
    settings: BuildSettings,
    cache: Option<Cache>,
    opened: bool,
    /// The output is not a file (a device, a pipe): written straight into,
    /// with no cache beside it.
    streamed: bool,
    /// The texts known to fit, for [`BuildSettings::faces`] (opened with
    /// the first build that checks faces).
    fit_memo: Option<FitMemo>,
    /// Why the last build could not write its card index.
    index_problem: Option<Diagnostic>,
}

impl Builder {
    pub fn new(mut settings: BuildSettings) -> Builder {
        // The database, and the cache beside it, go where the output
        // really is: the file a link names.
        let streamed = match files::destination(&settings.out) {
            Destination::Replace(path) => {
                settings.out = path;
                false
            }
            Destination::Stream(path) => {
                settings.out = path;
                true
            }
        };
        if streamed {
            settings.no_cache = true;
        }
        Builder {
            settings,
            cache: None,
            opened: false,
            streamed,
            fit_memo: None,
            index_problem: None,
        }
    }

    /// The pool folder's files and their stamps, as they are now (`None`
    /// for the built-in pool): any change to them starts a rebuild.
    pub fn list(&self) -> Option<Result<Listing, PoolError>> {
        let dir = self.settings.cards.as_ref()?;
        Some(Pool::list(dir).map(Listing::stamp))
    }

    /// Reads the pool (listed already, or listed now), the cache opened
    /// alongside on the first call.
    pub fn read(&mut self, listing: Option<Result<Listing, PoolError>>) -> Result<Pool, PoolError> {
        let uses_cache = self.settings.uses_cache();
        let open = !self.opened && uses_cache;
        let out = self.settings.out.clone();
        let open_cache = || open.then(|| Cache::open_beside(&out));
        let Some(dir) = self.settings.cards.clone() else {
            self.keep_opened(open_cache());
            return Ok(Pool::builtin());
        };
        let list = || match listing {
            Some(listing) => listing,
            // Stamps only matter to a cache.
            None if uses_cache => Pool::list(&dir).map(Listing::stamp),
            None => Pool::list(&dir),
        };
        let (listing, opened) = rayon::join(list, open_cache);
        self.keep_opened(opened);
        // Each file is read when the build comes to it, its text not kept.
        read_through(listing.map(Listing::deferring), self.cache.as_ref())
    }

    fn keep_opened(&mut self, cache: Option<Cache>) {
        if !self.opened {
            self.cache = cache;
            self.opened = true;
        }
    }

    /// Builds a pool read by [`Builder::read`] and writes everything the
    /// settings ask for: the database, the SQLite file, the gallery, the
    /// faces' findings and the cache, printing nothing; `progress` counts
    /// the set files done.
    pub fn build(&mut self, pool: &Pool, progress: Option<&AtomicUsize>) -> Build {
        let mut build = self.build_database(pool, progress);
        self.finish(pool, &mut build);
        build
    }

    /// [`Builder::build`], the database written into `sink` (standard
    /// output, a pipe): no cache is read or written beside it.
    pub fn build_into(
        &mut self,
        pool: &Pool,
        progress: Option<&AtomicUsize>,
        sink: &mut dyn std::io::Write,
    ) -> Build {
        let mut build = self.build_streamed(pool, progress, sink);
        self.finish(pool, &mut build);
        build
    }

    /// What follows the database: the faces, the SQLite file, the
    /// gallery, the cache, and what of them could not be written.
    fn finish(&mut self, pool: &Pool, build: &mut Build) {
        build
            .unwritten
            .extend(self.database_failure(&build.written));
        build.unwritten.extend(self.index_problem.take());
        if build.wrote_database() {
            self.write_sqlite(build);
            self.write_gallery(pool, build);
        }
        if build.gallery.is_none() {
            self.check_faces(pool, build);
        }
        let saving = Instant::now();
        if let Err(e) = self.keep(build) {
            build.unwritten.push(
                Diagnostic::general(
                    Code::CannotWrite,
                    format!("cannot write the build cache: {e}"),
                )
                .as_warning()
                .with_help("the database was written; the next build reads every file again"),
            );
        }
        build.timings.save = saving.elapsed();
    }

    /// The finding for a database that could not be written (none for a
    /// reader that closed the pipe early: that ends quietly).
    fn database_failure(&self, written: &Written) -> Option<Diagnostic> {
        match written {
            Written::Failed(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Some(
                Diagnostic::general(
                    Code::CannotWrite,
                    format!("cannot write `{}`: {e}", self.settings.out.display()),
                )
                .with_help(
                    "check that the folder exists and can be written, or name another file with --out",
                ),
            ),
            _ => None,
        }
    }

    /// Writes the SQLite file the settings ask for.
    fn write_sqlite(&self, build: &mut Build) {
        let Some(path) = &self.settings.sqlite else {
            return;
        };
        match build.write_sqlite(path) {
            Ok(()) => build.sqlite = Some(path.clone()),
            Err(e) => build.unwritten.push(
                Diagnostic::general(
                    Code::CannotWrite,
                    format!("cannot write `{}`: {e}", path.display()),
                )
                .with_help(
                    "check that the folder exists and can be written, or name another file with --sqlite; the file there, if any, was left as it was",
                ),
            ),
        }
    }

    /// Writes the gallery the settings ask for (every language), its
    /// faces' findings located in the pool's files.
    fn write_gallery(&self, pool: &Pool, build: &mut Build) {
        let Some(dir) = &self.settings.gallery else {
            return;
        };
        let Some(database) = build.database() else {
            return;
        };
        let art = face_render::art_images(pool, database);
        match gallery::make_and_write(database, &i18n::languages(database), &art, dir) {
            Ok((made, written)) => {
                if made.faces.iter().any(|f| !f.face.findings.is_empty()) {
                    let project = i18n::Project::load(pool);
                    build.faces = Findings {
                        diagnostics: face_render::locate(&project, &made.faces),
                        sources: project.sources,
                    };
                }
                build.gallery = Some(GalleryBuilt {
                    dir: dir.clone(),
                    made,
                    written,
                });
            }
            Err(e) => build.unwritten.push(
                Diagnostic::general(Code::CannotWrite, e.to_string()).with_help(
                    "check that the folder can be written, or name another with --gallery",
                ),
            ),
        }
    }

    fn build_database(&mut self, pool: &Pool, progress: Option<&AtomicUsize>) -> Build {
        if self.streamed && !self.settings.schema_only {
            let out = self.settings.out.clone();
            return match std::fs::OpenOptions::new().write(true).open(&out) {
                Ok(file) => self.build_streamed(pool, progress, &mut std::io::BufWriter::new(file)),
                Err(e) => {
                    let mut build = self.build_streamed(pool, progress, &mut std::io::sink());
                    if matches!(build.written, Written::Done { .. }) {
                        build.written = Written::Failed(e);
                    }
                    build
                }
            };
        }
        let started = Instant::now();
        let mut writer = self.database_writer();
        let compiled = compile_with(
            pool,
            Options {
                cache: self.cache.as_mut(),
                schema_only: self.settings.schema_only,
                progress,
                // The database is only written: as JSON made set by set,
                // unless it is to be indented.
                pieces: !self.settings.pretty,
                writer: writer.as_mut(),
                // The pool checks wait for the writer here (`checks_later`).
                checks_memo: None,
            },
        );
        let built = started.elapsed();
        // The database is written before anything is reported: what the
        // build leaves on disk never depends on whether anyone reads it.
        let written = match self.settings.schema_only {
            true => Written::Checked,
            false => self.write_database(pool, &compiled, writer),
        };
        Build::of(pool, compiled, written, built, started.elapsed())
    }

    /// Fits the faces' texts of a build that made a database, when asked.
    fn check_faces(&mut self, pool: &Pool, build: &mut Build) {
        if !self.settings.faces {
            return;
        }
        let Some(database) = build.database() else {
            return;
        };
        let memo_path = FitMemo::path_beside(&self.settings.out);
        let uses_cache = self.settings.uses_cache();
        let memo = self.fit_memo.get_or_insert_with(|| match uses_cache {
            true => FitMemo::open(&memo_path),
            false => FitMemo::default(),
        });
        let (diagnostics, sources) = face_findings(pool, database, memo);
        build.faces = Findings {
            diagnostics,
            sources,
        };
    }

    /// Builds a pool and writes its database into `sink`.
    fn build_streamed(
        &mut self,
        pool: &Pool,
        progress: Option<&AtomicUsize>,
        sink: &mut dyn std::io::Write,
    ) -> Build {
        let started = Instant::now();
        let compiled = compile_with(
            pool,
            Options {
                schema_only: self.settings.schema_only,
                progress,
                ..Options::default()
            },
        );
        let built = started.elapsed();
        let written = match (compiled.output.database(), self.settings.schema_only) {
            (_, true) => Written::Checked,
            (None, false) => Written::NotBuilt,
            (Some(database), false) => {
                let done = artifacts::write_database(sink, database, self.settings.pretty)
                    .and_then(|()| sink.flush());
                match done {
                    Ok(()) => Written::Done {
                        sets: database.sets.len(),
                        cards: database.cards.len(),
                    },
                    Err(e) => Written::Failed(e),
                }
            }
        };
        Build::of(pool, compiled, written, built, started.elapsed())
    }

    /// Keeps what a build taught the cache: stored on disk after a build
    /// that wrote its database, kept in memory only after a failed one (a
    /// failed build leaves every file as it was, the cache too).
    fn keep(&mut self, build: &Build) -> std::io::Result<()> {
        let Some(cache) = self.cache.as_mut() else {
            return Ok(());
        };
        let saved = match build.written {
            Written::Done { .. } => cache.save(),
            _ => {
                cache.commit();
                Ok(())
            }
        };
        saved?;
        match (&self.fit_memo, &build.written) {
            (Some(memo), Written::Done { .. }) => {
                memo.save(&FitMemo::path_beside(&self.settings.out))
            }
            _ => Ok(()),
        }
    }

    /// Writes the card index beside a database the cache describes (left
    /// as it is when it describes that very file and the pool's files);
    /// the warning when it cannot be written.
    fn keep_index(
        &mut self,
        pool: &Pool,
        json: &DatabaseJson,
        database: Option<FileIdentity>,
        names_art: bool,
    ) -> Option<Diagnostic> {
        let cache = self.cache.as_mut()?;
        let path = index::beside(&self.settings.out);
        if names_art {
            // Art is read again by every build; an index could not tell
            // that an image changed, so there is none.
            let _ = std::fs::remove_file(&path);
            return None;
        }
        let state = PoolState::of(pool);
        let current = Index::open(&path);
        if current.is_some_and(|index| index.describes(&state, database.as_ref())) {
            return None;
        }
        match artifacts::write_index(&path, state, json, database) {
            Ok(written) => {
                cache.index_written(&json.paths, &written);
                None
            }
            Err(e) => Some(
                Diagnostic::general(
                    Code::CannotWrite,
                    format!("cannot write the card index `{}`: {e}", path.display()),
                )
                .as_warning()
                .with_help("the database was written; commands build the pool again until a build writes the index"),
            ),
        }
    }

    /// The writer of the database as it is made, if it is; with a cache,
    /// the database it replaces is left for the next build to delete.
    fn database_writer(&self) -> Option<DatabaseWriter> {
        let settings = &self.settings;
        let writer = settings
            .writes_while_building()
            .then(|| DatabaseWriter::new(&settings.out, DATABASE_FORMAT))?;
        Some(match settings.uses_cache() {
            true => writer.keeping_replaced(),
            false => writer,
        })
    }

    /// Writes the database of a successful build (telling the cache where
    /// its sets went).
    fn write_database(
        &mut self,
        pool: &Pool,
        compiled: &Compiled,
        writer: Option<DatabaseWriter>,
    ) -> Written {
        let out = &self.settings.out;
        // A killed build's temp file goes even when nothing is written.
        files::remove_stale_temp_files_once(files::parent_of(out));
        let (written, sets, cards) = match &compiled.output {
            // Only `--pretty` builds the database as models.
            Output::Models(database) => (
                files::write_artifact(out, |w| artifacts::write_database(w, database, true)),
                database.sets.len(),
                database.cards.len(),
            ),
            // Already on disk as this build would write it: left untouched
            // (a tool that watches it sees no change).
            Output::Unchanged(json) => {
                let database =
                    (self.cache.as_ref()).and_then(|cache| cache.database_identity().cloned());
                self.index_problem = self.keep_index(pool, json, database, compiled.names_art);
                (Ok(()), json.sets.len(), json.cards)
            }
            Output::Pieces(json) => {
                let written = match writer {
                    Some(writer) => writer.finish(),
                    None => artifacts::write_database_json_file(out, json),
                };
                if let (Ok(written), Some(cache)) = (&written, self.cache.as_mut()) {
                    cache.database_written(&json.paths, written);
                }
                if let Ok(written) = &written {
                    let database = Some(written.identity.clone());
                    self.index_problem = self.keep_index(pool, json, database, compiled.names_art);
                }
                (written.map(|_| ()), json.sets.len(), json.cards)
            }
            Output::None => return Written::NotBuilt,
        };
        match written {
            Ok(()) => Written::Done { sets, cards },
            Err(e) => Written::Failed(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database as JSON text, effect trees aside (they are not read back).
    fn without_trees(mut database: Database) -> String {
        for card in &mut database.cards {
            card.effect_tree = None;
        }
        serde_json::to_string(&database).unwrap()
    }

    #[test]
    fn every_fixture_pool_builds_the_same_from_cards_left_in_the_cache_or_damaged_there() {
        for dir in crate::compile::fixture_pools() {
            let shown = dir.display();
            let pool = Pool::from_dir(&dir).unwrap();
            let fresh = crate::compile::compile(&pool);
            let expected = fresh.output.database().cloned().map(without_trees);
            let temp = tempfile::tempdir().unwrap();
            let path = temp.path().join(".blades-cache");
            let mut cache = Cache::empty(&path);
            fn cached(cache: &mut Cache) -> Options<'_> {
                Options {
                    cache: Some(cache),
                    ..Options::default()
                }
            }
            compile_with(&pool, cached(&mut cache));
            cache.save().unwrap();
            for damaged in [false, true] {
                // Read back without a database: every set renders again
                // from its cards as the cache file holds them.
                let mut cache = Cache::open(&path);
                if damaged {
                    cache.damage_stored_cards();
                }
                let again = compile_with(&pool, cached(&mut cache));
                assert_eq!(again.diagnostics, fresh.diagnostics, "{shown}");
                let built = again.output.pieces().and_then(database_from_pieces);
                assert_eq!(built.map(without_trees), expected, "{shown}, {damaged}");
            }
        }
    }

    #[test]
    fn a_workspace_asked_once_builds_models_unless_an_index_or_an_earlier_database_helps() {
        let dir = tempfile::tempdir().unwrap();
        let cards = dir.path().join("cards");
        let builtin = Pool::builtin();
        for file in builtin.sets.iter().chain(&builtin.data) {
            let path = cards.join(&file.relative);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, &**file.text()).unwrap();
        }
        let out = dir.path().join("dist/cards.json");
        let expected = |workspace: &Workspace| {
            let built = crate::compile::compile(workspace.pool())
                .output
                .into_database();
            without_trees(built.unwrap())
        };
        // Nothing built yet: no cache to reuse, the models made directly.
        let cold = Workspace::open_beside(Some(&cards), &out)
            .unwrap()
            .asked_once();
        assert!(cold.cached.is_none());
        let database = cold.database().unwrap();
        assert!(database.cards.iter().all(|c| c.effect_tree.is_none()));
        assert_eq!(without_trees(database), expected(&cold));
        // Built, then a set edited: the cache's database helps, and is kept.
        let mut builder = Builder::new(BuildSettings {
            out: out.clone(),
            ..BuildSettings::default()
        });
        let pool = builder
            .read(Some(Pool::list(&cards).map(Listing::stamp)))
            .unwrap();
        assert!(matches!(
            builder.build(&pool, None).written,
            Written::Done { .. }
        ));
        // Built and unchanged: the card index answers, no cache opened.
        let indexed = Workspace::open_beside(Some(&cards), &out)
            .unwrap()
            .asked_once();
        assert!(indexed.has_index());
        assert_eq!(
            without_trees(indexed.database().unwrap()),
            expected(&indexed)
        );
        assert!(indexed.cache.lock().unwrap().is_none());
        let edited = cards.join(&builtin.sets[0].relative);
        let text = std::fs::read_to_string(&edited).unwrap();
        std::fs::write(&edited, text.replacen("name: ", "name: Renamed ", 1)).unwrap();
        let warm = Workspace::open_beside(Some(&cards), &out)
            .unwrap()
            .asked_once();
        assert!(!warm.has_index());
        assert!(warm.cached.is_some());
        assert_eq!(without_trees(warm.database().unwrap()), expected(&warm));
    }

    #[test]
    fn the_pieces_of_a_cached_build_read_back_as_the_database_it_wrote() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("cards.json");
        let mut builder = Builder::new(BuildSettings {
            out: out.clone(),
            ..BuildSettings::default()
        });
        let pool = builder.read(None).unwrap();
        let build = builder.build(&pool, None);
        assert!(matches!(build.written, Written::Done { .. }));
        // A second build with the cache: every set's cards are still in the
        // database file it wrote.
        let mut cache = Cache::open_beside(&out);
        let compiled = compile_with(
            &pool,
            Options {
                cache: Some(&mut cache),
                pieces: true,
                ..Options::default()
            },
        );
        let json = compiled.output.pieces().expect("a database as pieces");
        assert!(
            json.sets
                .iter()
                .all(|s| matches!(s.cards, Piece::Written { .. }) || s.cards.is_empty())
        );
        let read = database_from_pieces(json).expect("the pieces read back");
        let built = crate::compile::compile(&pool)
            .output
            .into_database()
            .unwrap();
        assert_eq!(without_trees(read), without_trees(built));
    }
}
