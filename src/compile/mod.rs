//! `blades build`: set files → validated card database.
//!
//! Each file goes through YAML (with spans) and the JSON Schema on its own;
//! the pool-wide semantics (unique ids and names, copy rule, set sizes) then
//! run over every card that could be read. Every problem is collected; a
//! database is produced only when there is no error.

use foldhash::HashSet;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::Instant;

use rayon::prelude::*;

use crate::artifacts::{DatabaseJson, DatabaseWriter, SetJson};
mod art;
mod assemble;
mod checks;
mod pool_checks;
mod read;
mod render;
mod store;
mod stream;
mod vocabulary;

use art::find_art;
use assemble::SetModel;
pub use assemble::{assemble, find_set};
pub use checks::{ChecksMemo, Derived, check_pool, check_pool_remembering};
use pool_checks::PoolChecks;
use read::{pair_translations, read_files};
use render::{RenderInput, render_and_write};
use store::store;
use vocabulary::check_effects;
pub(crate) use vocabulary::pool_keywords;
pub use vocabulary::{PoolVocabulary, vocabulary};

use crate::cache::{Cache, CheckedSet, StoredCards};
use crate::diagnostics::{self, Diagnostic, Sources};
use crate::i18n::set_text::SetText;
use crate::load::LocaleSummary;
use crate::model::Database;
use crate::pool::{Pool, SourceFile};

/// What a build produced.
pub struct Compiled {
    /// The database, when there were no errors.
    pub output: Output,
    /// Every finding, sorted by file and position.
    pub diagnostics: Vec<Diagnostic>,
    /// The text of every file, for rendering the findings.
    pub sources: Sources,
    /// Set files whose result came from the cache.
    pub reused_files: usize,
    /// What the pool's effects may name and how they print, as this build
    /// assembled it (none: only the files were checked).
    pub vocabulary: Option<PoolVocabulary>,
    /// Time spent on the per-file checks and on the pool-wide ones.
    pub timings: Timings,
    /// Whether a card names art: images the pool's state does not cover,
    /// read again by every build.
    pub names_art: bool,
}

/// Where a build spent its time.
#[derive(Debug, Clone, Copy, Default)]
pub struct Timings {
    pub files: std::time::Duration,
    pub pool: std::time::Duration,
    /// Of `pool`: the vocabulary and the effect checks.
    pub effects: std::time::Duration,
    /// Of `pool`: rendering (and writing) the database.
    pub render: std::time::Duration,
}

impl Compiled {
    pub fn error_count(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }
}

/// The database a build made, in the one form it made it in.
#[derive(Debug, Default)]
pub enum Output {
    /// No database: the pool has errors, or only its files were checked.
    #[default]
    None,
    /// As models: a build without a cache, or one to be indented.
    Models(Database),
    /// As JSON per set (see [`compile_with`]), to be written.
    Pieces(DatabaseJson),
    /// As JSON per set, and the database file the cache describes is
    /// already what this build would write (the same sets in the same
    /// order): it is left as it is, not written again.
    Unchanged(DatabaseJson),
}

impl Output {
    /// The database as models, when the build made them.
    pub fn database(&self) -> Option<&Database> {
        match self {
            Output::Models(database) => Some(database),
            _ => None,
        }
    }

    /// [`Output::database`], taken.
    pub fn into_database(self) -> Option<Database> {
        match self {
            Output::Models(database) => Some(database),
            _ => None,
        }
    }

    /// The database as JSON per set, when the build made it so.
    pub fn pieces(&self) -> Option<&DatabaseJson> {
        match self {
            Output::Pieces(json) | Output::Unchanged(json) => Some(json),
            _ => None,
        }
    }

    /// [`Output::pieces`], taken.
    pub fn into_pieces(self) -> Option<DatabaseJson> {
        match self {
            Output::Pieces(json) | Output::Unchanged(json) => Some(json),
            _ => None,
        }
    }

    /// Whether the build made a database at all.
    pub fn is_some(&self) -> bool {
        !matches!(self, Output::None)
    }
}

/// How to build.
#[derive(Default)]
pub struct Options<'a> {
    /// Reuse and record per-file results.
    pub cache: Option<&'a mut Cache>,
    /// Stop after YAML and the JSON Schema: no pool-wide checks, no database.
    pub schema_only: bool,
    /// Counts files as they are done (for a progress display).
    pub progress: Option<&'a AtomicUsize>,
    /// Give the database as JSON pieces ([`Compiled::json`]), made while
    /// each set is built, rather than as models: what a program that
    /// only writes the database wants (the cache implies it).
    pub pieces: bool,
    /// Write the database here while the sets are made (implies `pieces`):
    /// each set's cards go out as soon as they are rendered, so a large
    /// pool's JSON is never held whole; [`Compiled::json`] then has the
    /// cards as written. The caller finishes the writer if the build has
    /// no errors (nothing is written otherwise).
    pub writer: Option<&'a mut DatabaseWriter>,
    /// What the pool checks learnt of each set in an earlier build of
    /// this pool, used and brought up to date (the editor server's).
    pub checks_memo: Option<&'a mut ChecksMemo>,
}

/// Builds the database from a pool, collecting every problem.
pub fn compile(pool: &Pool) -> Compiled {
    compile_with(pool, Options::default())
}

/// The built-in pool's database as a reader gets it back (`search --db`,
/// the card index): without effect trees, which are not read back.
#[cfg(test)]
pub(crate) fn builtin_as_read() -> Database {
    let mut database = compile(&Pool::builtin())
        .output
        .into_database()
        .expect("the built-in pool builds");
    for card in &mut database.cards {
        card.effect_tree = None;
    }
    database
}

#[cfg(test)]
/// Every folder under `tests/fixtures` that holds a pool.
pub(crate) fn fixture_pools() -> Vec<std::path::PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        out.push(dir.to_path_buf());
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
        entries.sort_by_key(|e| e.path());
        for entry in entries.into_iter().filter(|e| e.path().is_dir()) {
            walk(&entry.path(), out);
        }
    }
    let mut dirs = Vec::new();
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"),
        &mut dirs,
    );
    dirs.retain(|dir| Pool::from_dir(dir).is_ok());
    dirs
}

/// A set built for the database: as models, or already as JSON.
enum Built {
    Model(SetModel),
    Json(SetJson),
    /// A reused set's JSON, now with its cards in the database being written.
    Written(SetJson),
}

/// A set file on its way through a build.
struct SetWork {
    hash: u64,
    /// Reused from the cache.
    reused: bool,
    /// The file's own findings.
    diagnostics: Vec<Diagnostic>,
    /// Index in the loaded sets, when the file could be read.
    loaded: Option<usize>,
    /// Effect findings for a vocabulary key.
    effects: Option<(u64, Vec<Diagnostic>)>,
    /// The set's database JSON for a context key.
    output: Option<(u64, SetJson)>,
    /// Whether the cache entry changes (anything above made anew).
    changed: bool,
    /// The card texts of a set from the cache, which keeps them apart.
    texts: Option<crate::cache::CardTexts>,
    /// What this build found of the set's card art (a hash; 0 without
    /// art), part of the set's context key.
    art: u64,
    /// The cards of a set from the cache as it holds them: the loaded
    /// set's cards stay empty until a stage needs them
    /// ([`read::FilesRead::restored`]).
    cards: Option<StoredCards>,
    /// What the pool checks found of the set on its own.
    checked: Option<Arc<CheckedSet>>,
    /// Whether a card of the set names art (known without its cards).
    names_art: bool,
}

impl SetWork {
    /// A set file read in this build, with its own findings.
    fn fresh(hash: u64, diagnostics: Vec<Diagnostic>) -> SetWork {
        SetWork {
            hash,
            reused: false,
            diagnostics,
            loaded: None,
            effects: None,
            output: None,
            changed: true,
            texts: None,
            art: 0,
            cards: None,
            checked: None,
            names_art: false,
        }
    }
}

/// A translation file on its way through a build.
struct LocaleWork<'a> {
    file: &'a SourceFile,
    hash: u64,
    summary: LocaleSummary,
    /// What a build keeps of the file, when it was read in this build.
    parsed: Option<SetText>,
    /// Whether the cache file has this file's entry as it is (the summary
    /// and the stamp).
    stored: bool,
}

/// How a build goes, decided once from its [`Options`].
struct Plan {
    /// YAML and the JSON Schema only.
    schema_only: bool,
    /// The pool checks wait until the sets are out, and run while the
    /// writer copies the unchanged cards: they only decide whether the
    /// database is kept, and a rebuild's copy took longer than its checks.
    checks_later: bool,
    /// The database is made as JSON pieces, not models.
    as_pieces: bool,
    /// The loaded sets outlive rendering (the cache keeps them).
    keeps_sets: bool,
}

impl Plan {
    fn of(options: &Options<'_>) -> Plan {
        let cached = options.cache.is_some();
        let writes = options.writer.is_some();
        Plan {
            schema_only: options.schema_only,
            checks_later: !options.schema_only && cached && writes,
            as_pieces: cached || options.pieces || writes,
            keeps_sets: cached,
        }
    }
}

/// [`compile`] with a cache, a progress counter or schema-only checking.
///
/// With a cache, files whose content is unchanged are not read again, and a
/// set whose file, translations and vocabulary are unchanged is not rendered
/// again: the database then comes as JSON per set ([`Compiled::json`], ready
/// to write) instead of the model ([`Compiled::database`]).
pub(crate) fn compile_with(pool: &Pool, options: Options<'_>) -> Compiled {
    let started = Instant::now();
    let plan = Plan::of(&options);
    let Options {
        mut cache,
        progress,
        writer,
        checks_memo,
        ..
    } = options;
    let mut diagnostics = pool.problems.clone();
    let mut sources = Sources::default();
    add_sources_read(&mut sources, pool.lossy.iter().chain(&pool.sets));
    let mut read = read_files(
        pool,
        cache.as_deref_mut(),
        plan.schema_only,
        progress,
        &mut diagnostics,
    );
    if !plan.schema_only {
        find_art(pool, &mut read, &mut diagnostics);
    }
    let translations = pair_translations(&read.loaded, &read.locales, &mut diagnostics);
    let files_done = started.elapsed();
    let mut checks = PoolChecks::new(&read, checks_memo, cache.is_some());
    let derived = match plan.schema_only || plan.checks_later {
        // None for schema-only checks; later while the database is written.
        true => Derived::default(),
        false => checks.run(pool, &read, &mut diagnostics),
    };
    let effects_began = Instant::now();
    let vocabulary = (!plan.schema_only).then(|| {
        let vocabulary =
            PoolVocabulary::of(pool, &read.loaded, &read.summaries(), &mut diagnostics);
        check_effects(pool, &mut read, &vocabulary, &mut diagnostics);
        vocabulary
    });
    let effects = effects_began.elapsed();
    add_sources_read(&mut sources, &pool.data);
    let has_errors = settle_findings(&plan, pool, &read, &mut checks, &mut diagnostics);
    let render_began = Instant::now();
    let mut rendered = match &vocabulary {
        Some(vocabulary) if !has_errors => {
            let input = RenderInput {
                pool,
                plan: &plan,
                vocabulary,
                translations: &translations,
                derived,
                cache: cache.as_deref(),
            };
            render_and_write(input, &mut read, writer, &mut checks, &mut diagnostics)
        }
        _ => Output::None,
    };
    let render = render_began.elapsed();
    read_the_rest(pool);
    if fail_on_late_reads(pool, &mut diagnostics) {
        rendered = Output::None;
    }
    add_unread_sources(pool, &diagnostics, &mut sources);
    let timings = Timings {
        files: files_done,
        pool: started.elapsed() - files_done,
        effects,
        render,
    };
    checks.record(&mut read);
    let reused_files = read.reused;
    let names_art = read.works.iter().any(|work| work.art != 0);
    if let Some(cache) = cache {
        store(cache, pool, read);
    }
    Compiled {
        output: rendered,
        diagnostics,
        sources,
        reused_files,
        timings,
        vocabulary,
        names_art,
    }
}

/// The vocabulary of a pool as a build assembles it, and the findings of
/// its keyword table and phrase books: the set files read through `cache`
/// when there is one (their results go back into it).
pub(crate) fn read_vocabulary(
    pool: &Pool,
    mut cache: Option<&mut Cache>,
) -> (PoolVocabulary, Vec<Diagnostic>) {
    let read = read_files(pool, cache.as_deref_mut(), false, None, &mut Vec::new());
    let mut diagnostics = Vec::new();
    let vocabulary = PoolVocabulary::of(pool, &read.loaded, &read.summaries(), &mut diagnostics);
    if let Some(cache) = cache {
        store(cache, pool, read);
    }
    diagnostics::sort(&mut diagnostics);
    (vocabulary, diagnostics)
}

/// Whether the findings so far hold an error; they are sorted, and the
/// deferred pool checks run at once when nothing is going to be written
/// for them to wait on.
fn settle_findings(
    plan: &Plan,
    pool: &Pool,
    read: &read::FilesRead<'_>,
    checks: &mut PoolChecks<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> bool {
    let has_errors = diagnostics.iter().any(Diagnostic::is_error);
    if plan.checks_later && has_errors {
        checks.run(pool, read, diagnostics);
    }
    diagnostics::sort(diagnostics);
    has_errors
}

/// Adds the texts of the files among `files` that were read, for drawing
/// findings. Files left unread (the cache vouched for them) join at the end
/// if a finding points into them.
fn add_sources_read<'a>(sources: &mut Sources, files: impl IntoIterator<Item = &'a SourceFile>) {
    for file in files {
        if file.is_read() {
            sources.insert(file.path.clone(), file.text().clone());
        }
    }
}

/// Reads once the files of a pool read deferring that the build never
/// needed (data files it does not read; translation files, when only the
/// set files are checked), as a pool read whole would have: one that
/// cannot be read is an error all the same.
fn read_the_rest(pool: &Pool) {
    (pool.sets.par_iter().chain(pool.data.par_iter()))
        .filter(|file| !file.was_read() && file.known_hash().is_none())
        .for_each(|file| {
            file.hash();
        });
}

/// A file left unread that could not be read when its text was needed
/// after all: what was built from it cannot be trusted. Whether there was
/// one (its finding joins `diagnostics`).
fn fail_on_late_reads(pool: &Pool, diagnostics: &mut Vec<Diagnostic>) -> bool {
    let late: Vec<Diagnostic> = pool
        .sets
        .iter()
        .chain(&pool.data)
        .filter_map(|f| f.late_read_problem().cloned())
        .collect();
    if late.is_empty() {
        return false;
    }
    diagnostics.extend(late);
    diagnostics::sort(diagnostics);
    true
}

/// The text of the files left unread that findings point into.
fn add_unread_sources(pool: &Pool, diagnostics: &[Diagnostic], sources: &mut Sources) {
    let missing: HashSet<&str> = diagnostics
        .iter()
        .flat_map(|d| std::iter::once(&d.path).chain(d.related.iter().map(|r| &r.path)))
        .map(|path| &**path)
        .filter(|path| sources.get(path).is_none())
        .collect();
    if missing.is_empty() {
        return;
    }
    for file in pool.sets.iter().chain(&pool.data) {
        if missing.contains(&*file.path) {
            sources.insert(file.path.clone(), file.text().clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Code;

    #[test]
    fn a_file_left_unread_that_changed_before_its_text_was_needed_fails_the_build() {
        let dir = tempfile::tempdir().unwrap();
        let builtin = Pool::builtin();
        let mut names = Vec::new();
        for file in builtin.sets.iter().take(2) {
            std::fs::write(dir.path().join(&file.relative), &**file.text()).unwrap();
            names.push(file.relative.clone());
        }
        let mut cache = Cache::empty(&dir.path().join(".blades-cache"));
        let pool = Pool::from_dir(dir.path()).unwrap();
        fn options(cache: &mut Cache) -> Options<'_> {
            Options {
                cache: Some(cache),
                ..Default::default()
            }
        }
        let first = compile_with(&pool, options(&mut cache));
        assert_eq!(first.error_count(), 0, "{:?}", first.diagnostics);
        cache.commit();
        // The first set's file changes, yet the listing takes it for the
        // file the cache knows (as a stamp that failed to change would).
        let changed = dir.path().join(&names[0]);
        let old_hash = crate::pool::content_hash(&std::fs::read_to_string(&changed).unwrap());
        let mut text = std::fs::read_to_string(&changed).unwrap();
        text.push_str("# edited\n");
        std::fs::write(&changed, text).unwrap();
        // The cache that knew the file is lost, so the build must read it.
        let mut cache = Cache::empty(&dir.path().join(".blades-cache"));
        let listed = Pool::list(dir.path()).unwrap().stamp();
        let first_name = names[0].clone();
        let pool = listed
            .read(|path, _| path.ends_with(&first_name).then_some(old_hash))
            .unwrap();
        assert!(
            !pool
                .sets
                .iter()
                .find(|f| f.relative == first_name)
                .unwrap()
                .is_read()
        );
        let second = compile_with(&pool, options(&mut cache));
        let codes: Vec<Code> = second.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(
            codes,
            [Code::ChangedDuringBuild],
            "{:?}",
            second.diagnostics
        );
        assert!(second.diagnostics[0].path.ends_with(&first_name));
        assert!(!second.output.is_some());
    }

    /// The built-in pool's first sets written to a folder, and a listing of it.
    fn written_pool(sets: usize) -> (tempfile::TempDir, Vec<String>) {
        let dir = tempfile::tempdir().unwrap();
        let names = (Pool::builtin().sets.iter().take(sets))
            .map(|file| {
                std::fs::write(dir.path().join(&file.relative), &**file.text()).unwrap();
                file.relative.clone()
            })
            .collect();
        (dir, names)
    }

    #[test]
    fn a_pool_read_deferring_builds_the_same_database_keeping_no_text() {
        let (dir, _) = written_pool(3);
        let eager = compile(&Pool::from_dir(dir.path()).unwrap());
        let deferred = Pool::list(dir.path())
            .unwrap()
            .deferring()
            .read(|_, _| None);
        let deferred = deferred.unwrap();
        let built = compile(&deferred);
        assert_eq!(built.diagnostics, eager.diagnostics);
        let (built, eager) = (built.output.database(), eager.output.database());
        assert!(built.is_some() && built == eager);
        assert!(
            deferred
                .sets
                .iter()
                .all(|file| file.was_read() && !file.is_read())
        );
    }

    #[test]
    fn every_fixture_pool_builds_the_same_read_whole_or_deferring() {
        let pools = fixture_pools();
        assert!(pools.len() > 20, "{pools:?}");
        for dir in pools {
            let whole = compile(&Pool::from_dir(&dir).unwrap());
            let deferring = Pool::list(&dir).unwrap().deferring().read(|_, _| None);
            let deferring = compile(&deferring.unwrap());
            let shown = dir.display();
            assert_eq!(deferring.diagnostics, whole.diagnostics, "{shown}");
            assert_eq!(
                deferring.output.database(),
                whole.output.database(),
                "{shown}"
            );
            for finding in &whole.diagnostics {
                let path = &finding.path;
                assert_eq!(
                    deferring.sources.get(path),
                    whole.sources.get(path),
                    "{shown}: {path}"
                );
            }
        }
    }

    #[test]
    fn a_pool_read_deferring_keeps_the_text_of_files_with_findings_and_says_which_cannot_be_read() {
        let (dir, names) = written_pool(2);
        let broken = dir.path().join(&names[0]);
        let text = std::fs::read_to_string(&broken).unwrap();
        std::fs::write(&broken, text.replacen("name:", "nme:", 1)).unwrap();
        std::fs::write(dir.path().join("latin1.yaml"), b"id: caf\xe9\n").unwrap();
        // A data file no build reads, and a translation file a check of the
        // set files alone does not read: still read, as a whole pool is.
        std::fs::write(dir.path().join("_notes.yaml"), b"caf\xe9\n").unwrap();
        std::fs::create_dir(dir.path().join("locales")).unwrap();
        std::fs::write(dir.path().join("locales/ja.yaml"), b"\xff\n").unwrap();
        let read = || {
            let pool = Pool::list(dir.path())
                .unwrap()
                .deferring()
                .read(|_, _| None);
            pool.unwrap()
        };
        let not_utf8 = |built: &Compiled| -> Vec<String> {
            let found = built.diagnostics.iter().filter(|d| d.code == Code::NotUtf8);
            let mut names: Vec<String> = found
                .map(|d| d.path.rsplit(['/', '\\']).next().unwrap().to_string())
                .collect();
            names.sort();
            names
        };
        let schema_only = Options {
            schema_only: true,
            ..Default::default()
        };
        let checked = compile_with(&read(), schema_only);
        assert_eq!(
            not_utf8(&checked),
            ["_notes.yaml", "ja.yaml", "latin1.yaml"]
        );
        let pool = read();
        let built = compile(&pool);
        assert_eq!(not_utf8(&built), ["_notes.yaml", "ja.yaml", "latin1.yaml"]);
        let not_utf8: Vec<_> = (built.diagnostics.iter())
            .filter(|d| d.code == Code::NotUtf8 && d.path.ends_with("latin1.yaml"))
            .collect();
        assert_eq!(
            built.sources.get(&not_utf8[0].path).map(|t| &**t),
            Some("id: caf\u{fffd}\n")
        );
        let found: HashSet<&str> = built.diagnostics.iter().map(|d| &*d.path).collect();
        for file in &pool.sets {
            let has_findings = found.contains(&*file.path);
            assert_eq!(file.is_read(), has_findings && file.relative == names[0]);
            assert_eq!(built.sources.get(&file.path).is_some(), has_findings);
        }
        assert!(!built.output.is_some());
    }
}
