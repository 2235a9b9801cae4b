//! `blades build`: set files → validated card database.
//!
//! Each file goes through YAML (with spans) and the JSON Schema on its own;
//! the pool-wide semantics (unique ids and names, copy rule, set sizes) then
//! run over every card that could be read. Every problem is collected; a
//! database is produced only when there is no error.

use foldhash::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::artifacts::{DatabaseJson, DatabaseWriter, SetJson};
mod assemble;
mod checks;
mod stream;
mod vocabulary;

use assemble::{Books, SetModel, assemble_set_taking, render_card};
pub use assemble::{assemble, assemble_set, find_set};
pub use checks::{Derived, check_pool};
use stream::stream_sets;
use vocabulary::vocabulary_key;
pub use vocabulary::{check_set_effects, pool_keywords, vocabulary};

use crate::cache::Cache;
use crate::diagnostics::{self, Diagnostic, Sources};
use crate::effect::{Effect, Keywords, Phrasebooks};
use crate::i18n::locale::LocaleFile;
use crate::load::{FileResult, LoadedSet, LocaleSummary, fits, load_file, parse_effect};
use crate::model::{DATABASE_FORMAT, Database};
use crate::pool::{Pool, SourceFile};

/// What a build produced.
pub struct Compiled {
    /// The database, when there were no errors (and no cache was used).
    pub database: Option<Database>,
    /// The database as JSON per set, when there were no errors and a cache
    /// was used (see [`compile_with`]).
    pub json: Option<DatabaseJson>,
    /// Every finding, sorted by file and position.
    pub diagnostics: Vec<Diagnostic>,
    /// The text of every file, for rendering the findings.
    pub sources: Sources,
    /// Set files whose result came from the cache.
    pub reused_files: usize,
    /// Whether the database file the cache describes is already what this
    /// build would write (nothing to render, the same sets in the same
    /// order): it is then left as it is, not written again.
    pub database_unchanged: bool,
    /// Time spent on the per-file checks and on the pool-wide ones.
    pub timings: Timings,
}

/// Where a build spent its time.
#[derive(Debug, Clone, Copy, Default)]
pub struct Timings {
    pub files: std::time::Duration,
    pub pool: std::time::Duration,
}

impl Compiled {
    pub fn error_count(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
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
}

/// Builds the database from a pool, collecting every problem.
pub fn compile(pool: &Pool) -> Compiled {
    compile_with(pool, Options::default())
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
}

/// A translation file on its way through a build.
struct LocaleWork<'a> {
    file: &'a SourceFile,
    hash: u64,
    summary: LocaleSummary,
    /// The file itself, when it was read in this build.
    parsed: Option<LocaleFile>,
    /// Whether the cache file has this file's entry as it is (the summary
    /// and the stamp).
    stored: bool,
}

/// [`compile`] with a cache, a progress counter or schema-only checking.
///
/// With a cache, files whose content is unchanged are not read again, and a
/// set whose file, translations and vocabulary are unchanged is not rendered
/// again: the database then comes as JSON per set ([`Compiled::json`], ready
/// to write) instead of the model ([`Compiled::database`]).
pub fn compile_with(pool: &Pool, options: Options<'_>) -> Compiled {
    let mut sources = Sources::default();
    let mut diagnostics = pool.problems.clone();
    // Files left unread (the cache vouched for them) join at the end if
    // a finding points into them.
    for file in pool.lossy.iter().chain(&pool.sets) {
        if file.is_read() {
            sources.insert(file.path.clone(), file.text().clone());
        }
    }
    let mut cache = options.cache;
    let schema_only = options.schema_only;
    let pieces = options.pieces;
    let mut writer = options.writer;
    let started = std::time::Instant::now();
    let previous: Vec<Option<crate::cache::SetEntry>> = pool
        .sets
        .iter()
        .map(|f| cache.as_deref_mut().and_then(|c| c.take_set(&f.relative)))
        .collect();
    let locale_files: Vec<&SourceFile> = if schema_only {
        Vec::new()
    } else {
        pool.data
            .iter()
            .filter(|f| {
                matches!(
                    crate::i18n::locale::classify(&f.relative),
                    Some((_, crate::i18n::locale::FileClass::Set))
                )
            })
            .collect()
    };
    let cached = cache.as_deref();
    // Files are independent until the pool-wide checks: set files parse in
    // parallel, and the translation files alongside them.
    let (per_set, mut per_locale) = rayon::join(
        || -> Vec<(SetWork, Option<LoadedSet>)> {
            pool.sets
                .par_iter()
                .zip(previous)
                .map(|(file, previous)| {
                    let hash = file.hash();
                    let (reused, result, effects, output, texts, restamped) =
                        match previous.filter(|p| p.hash == hash && p.fits(&file.path)) {
                            Some(mut e) => {
                                if let Some(set) = &mut e.result.set {
                                    set.path = file.path.clone();
                                }
                                let restamped = e.stamp != file.stamp;
                                (true, e.result, e.effects, e.output, e.texts, restamped)
                            }
                            None => {
                                let result = load_file(file, schema_only);
                                (false, result, None, None, None, true)
                            }
                        };
                    let work = (
                        SetWork {
                            hash,
                            reused,
                            diagnostics: result.diagnostics,
                            loaded: None,
                            effects,
                            output,
                            changed: restamped,
                            texts,
                        },
                        result.set,
                    );
                    if let Some(progress) = options.progress {
                        progress.fetch_add(1, Ordering::Relaxed);
                    }
                    work
                })
                .collect()
        },
        || -> Vec<LocaleWork<'_>> {
            locale_files
                .par_iter()
                .map(|&file| {
                    let hash = file.hash();
                    let entry = cached.and_then(|c| c.locale(&file.relative, hash));
                    match entry.filter(|e| fits(&e.summary.diagnostics, &file.path)) {
                        Some(entry) => LocaleWork {
                            file,
                            hash,
                            summary: entry.summary.clone(),
                            parsed: None,
                            stored: entry.stamp == file.stamp,
                        },
                        None => read_locale(file, hash),
                    }
                })
                .collect()
        },
    );
    let reused_files = per_set.iter().filter(|(w, _)| w.reused).count();
    let mut works = Vec::with_capacity(per_set.len());
    let mut loaded = Vec::with_capacity(per_set.len());
    for (mut work, set) in per_set {
        diagnostics.extend(work.diagnostics.iter().cloned());
        if let Some(set) = set {
            work.loaded = Some(loaded.len());
            loaded.push(set);
        }
        works.push(work);
    }
    // Which translation files each set has, in pool order; a second file
    // for the same set and language is an error and is left out.
    let mut locales_of: HashMap<&str, Vec<usize>> = HashMap::default();
    let mut first_file: HashMap<(&str, &str), usize> = HashMap::default();
    for (i, work) in per_locale.iter().enumerate() {
        diagnostics.extend(work.summary.diagnostics.iter().cloned());
        let Some(set) = &work.summary.set else {
            continue;
        };
        match first_file.get(&(work.summary.lang.as_str(), set.as_str())) {
            Some(&first) => {
                let first = &per_locale[first];
                diagnostics.push(crate::i18n::duplicate_locale_file(
                    &work.summary.lang,
                    &crate::i18n::locale::Target::Set(set.clone()),
                    (&work.file.path, work.summary.set_span.clone()),
                    (&first.file.path, first.summary.set_span.clone()),
                ));
            }
            None => {
                first_file.insert((&work.summary.lang, set), i);
                locales_of.entry(set).or_default().push(i);
            }
        }
    }
    let files_done = started.elapsed();
    // With a cache and a writer, the pool-wide checks wait until the sets
    // are out, and run while the writer copies the unchanged cards (one
    // core's work in the kernel): they only decide whether the database is
    // kept, and a rebuild's copy took longer than its checks.
    let checks_later = !schema_only && cache.is_some() && writer.is_some();
    let derived = if schema_only || checks_later {
        Derived::default()
    } else {
        check_pool(&loaded, &mut diagnostics)
    };
    let keywords = if schema_only {
        Keywords::builtin()
    } else {
        pool_keywords(pool, &mut diagnostics)
    };
    let vocab = vocabulary(&loaded, keywords);
    let phrases = if schema_only {
        Phrasebooks::builtin()
    } else {
        Phrasebooks::of_files(&pool.data, &mut diagnostics)
    };
    let vocab_key = vocabulary_key(pool, &vocab);
    if !schema_only {
        // Effect checks that depend on the pool, reused while the
        // vocabulary is the same.
        let found: Vec<(usize, Vec<Diagnostic>, bool)> = works
            .par_iter()
            .enumerate()
            .filter_map(|(w, work)| {
                let index = work.loaded?;
                if let Some((key, found)) = &work.effects
                    && *key == vocab_key
                {
                    return Some((w, found.clone(), false));
                }
                let file = &pool.sets[w];
                let set = match work.reused {
                    true => std::borrow::Cow::Owned(whole_set(work, &loaded[index], file)),
                    false => std::borrow::Cow::Borrowed(&loaded[index]),
                };
                Some((w, check_set_effects(&set, &vocab, file.text()), true))
            })
            .collect();
        for (w, found, fresh) in found {
            diagnostics.extend(found.iter().cloned());
            works[w].effects = Some((vocab_key, found));
            works[w].changed |= fresh;
        }
    }
    for file in &pool.data {
        if file.is_read() {
            sources.insert(file.path.clone(), file.text().clone());
        }
    }
    let has_errors = diagnostics.iter().any(Diagnostic::is_error);
    if checks_later && has_errors {
        // Nothing is going to be written: nothing to wait for.
        check_pool(&loaded, &mut diagnostics);
    }
    diagnostics::sort(&mut diagnostics);
    let mut database = None;
    let mut json = None;
    let mut database_unchanged = false;
    if !has_errors && !schema_only {
        // Each set's context: its file, its translation files, and what
        // every effect may name or be printed with.
        let keys: Vec<u64> = works
            .iter()
            .map(|work| {
                let set = work.loaded.map(|i| loaded[i].set.id.0.as_str());
                let mut key = xxhash_rust::xxh3::Xxh3::new();
                key.update(&work.hash.to_le_bytes());
                key.update(&vocab_key.to_le_bytes());
                for &l in set.and_then(|s| locales_of.get(s)).into_iter().flatten() {
                    key.update(per_locale[l].file.relative.as_bytes());
                    key.update(&per_locale[l].hash.to_le_bytes());
                }
                key.digest()
            })
            .collect();
        let fresh: Vec<bool> = works
            .iter()
            .zip(&keys)
            .map(|(work, key)| {
                cache.is_none() || work.output.as_ref().is_none_or(|(k, _)| k != key)
            })
            .collect();
        // Nothing to render, and the sets in the database's order: the
        // database on disk is what this build would write, byte for byte.
        let sets = works
            .iter()
            .zip(&pool.sets)
            .zip(&fresh)
            .filter(|((work, _), _)| work.loaded.is_some());
        database_unchanged = writer.is_some()
            && sets.clone().all(|(_, fresh)| !fresh)
            && cache.as_deref().is_some_and(|cache| {
                let paths = sets.map(|((_, file), _)| file.relative.as_str());
                cache.database_sets().eq(paths)
            });
        // The translation files of each loaded set.
        let files_of: Vec<Vec<usize>> = loaded
            .iter()
            .map(|set| {
                locales_of
                    .get(set.set.id.0.as_str())
                    .cloned()
                    .unwrap_or_default()
            })
            .collect();
        // Translation files of the sets to render, read now if the cache
        // had them.
        let wanted: HashSet<usize> = works
            .iter()
            .zip(&fresh)
            .filter(|(_, fresh)| **fresh)
            .filter_map(|(work, _)| work.loaded)
            .flat_map(|i| files_of[i].iter().copied())
            .collect();
        per_locale.par_iter_mut().enumerate().for_each(|(i, work)| {
            if work.parsed.is_none() && wanted.contains(&i) {
                work.parsed = read_locale(work.file, work.hash).parsed;
            }
        });
        // The file (work) of each loaded set.
        let mut owner = vec![0; loaded.len()];
        for (w, work) in works.iter().enumerate() {
            if let Some(i) = work.loaded {
                owner[i] = w;
            }
        }
        // Each set's own translation files: all its text needs, so sets
        // are translated in parallel, each with its own small index.
        let mut locale_files: Vec<Vec<(String, LocaleFile)>> =
            (0..loaded.len()).map(|_| Vec::new()).collect();
        for i in 0..loaded.len() {
            if !fresh[owner[i]] {
                continue;
            }
            for &l in &files_of[i] {
                if let Some(parsed) = per_locale[l].parsed.take() {
                    locale_files[i].push((per_locale[l].summary.lang.clone(), parsed));
                }
            }
        }
        // The copies of the sets to render, when the checks that give them
        // for every set come later.
        let derived = match checks_later {
            true => Derived::of(&loaded, |i| fresh[owner[i]]),
            false => derived,
        };
        let as_pieces = cache.is_some() || pieces || writer.is_some();
        let keeps_sets = cache.is_some();
        let card_count = loaded.iter().map(|s| s.cards.len()).sum();
        let books = Books::of(&phrases);
        let render = |index: usize, set: &mut LoadedSet, files| -> (usize, Option<Built>) {
            let w = owner[index];
            if !fresh[w] {
                return (w, None);
            }
            if works[w].reused {
                *set = whole_set(&works[w], set, &pool.sets[w]);
            }
            let trees: Vec<Option<Effect>> =
                set.cards.iter_mut().map(|c| c.effect.take()).collect();
            // Without a cache, the set is not needed after this: its
            // cards' text moves into the database.
            let (set_model, mut cards) = match keeps_sets {
                true => assemble_set(index, set, &derived),
                false => assemble_set_taking(index, set, &derived),
            };
            for (card, tree) in cards.iter_mut().zip(trees) {
                render_card(card, tree, &books, &vocab);
            }
            let mut one = Database {
                format: DATABASE_FORMAT,
                sets: vec![set_model],
                cards,
            };
            // Second files for a set were reported above.
            let locales = crate::i18n::Locales::from_files(files, &mut Vec::new());
            crate::i18n::attach(&mut one, &locales);
            let set_model = one.sets.pop().expect("one set");
            let built = match as_pieces {
                true => Built::Json(SetJson::of(&set_model, &one.cards)),
                false => Built::Model((set_model, one.cards)),
            };
            (w, Some(built))
        };
        let built: Vec<(usize, Option<Built>)> = match writer.as_deref_mut() {
            // Each set keeps its place in the database file.
            Some(_) if database_unchanged => Vec::new(),
            Some(writer) => stream_sets(&mut loaded, locale_files, &render, &works, writer),
            _ => loaded
                .par_iter_mut()
                .zip(locale_files)
                .enumerate()
                .map(|(index, (set, files))| render(index, set, files))
                .collect(),
        };
        let mut passed = true;
        if checks_later && let Some(writer) = &mut writer {
            let mut found = Vec::new();
            rayon::join(|| check_pool(&loaded, &mut found), || writer.flush());
            passed = !found.iter().any(Diagnostic::is_error);
            diagnostics.extend(found);
            diagnostics::sort(&mut diagnostics);
        }
        // A build that failed its pool checks keeps nothing it made.
        if as_pieces && passed {
            for (w, built) in built {
                match built {
                    Some(Built::Json(set_json)) => {
                        works[w].output = Some((keys[w], set_json));
                        works[w].changed = true;
                    }
                    // Reused, and now written to the new database.
                    Some(Built::Written(set_json)) => {
                        if let Some(output) = &mut works[w].output {
                            output.1 = set_json;
                        }
                    }
                    _ => {}
                }
            }
            let (paths, sets) = works
                .iter()
                .zip(&pool.sets)
                .filter(|(w, _)| w.loaded.is_some())
                .filter_map(|(w, file)| {
                    Some((Arc::from(&*file.relative), w.output.as_ref()?.1.clone()))
                })
                .unzip();
            json = Some(DatabaseJson {
                format: DATABASE_FORMAT,
                sets,
                paths,
                cards: card_count,
            });
        } else if passed {
            let mut all = Database {
                format: DATABASE_FORMAT,
                sets: Vec::with_capacity(built.len()),
                cards: Vec::with_capacity(card_count),
            };
            for (_, built) in built {
                if let Some(Built::Model((set, cards))) = built {
                    all.sets.push(set);
                    all.cards.extend(cards);
                }
            }
            database = Some(all);
        }
    }
    // A file left unread that could not be read when its text was needed
    // after all: what was built from it cannot be trusted.
    let late: Vec<Diagnostic> = pool
        .sets
        .iter()
        .chain(&pool.data)
        .filter_map(|f| f.late_read_problem().cloned())
        .collect();
    if !late.is_empty() {
        diagnostics.extend(late);
        diagnostics::sort(&mut diagnostics);
        database = None;
        json = None;
    }
    add_unread_sources(pool, &diagnostics, &mut sources);
    // Only a build that has a database keeps the one on disk.
    database_unchanged &= json.is_some();
    let timings = Timings {
        files: files_done,
        pool: started.elapsed() - files_done,
    };
    if let Some(cache) = cache {
        let mut loaded: Vec<Option<LoadedSet>> = loaded.into_iter().map(Some).collect();
        for (work, file) in works.into_iter().zip(&pool.sets) {
            let mut set = work.loaded.and_then(|i| loaded[i].take());
            // Cached without trees, and with the texts apart.
            let texts = set.as_mut().map(|set| {
                for card in &mut set.cards {
                    card.effect = None;
                }
                let texts = crate::cache::CardTexts::take_from(set);
                match work.texts {
                    Some(cached) if work.reused => cached,
                    _ => texts,
                }
            });
            cache.put_set(
                Arc::from(&*file.relative),
                crate::cache::SetEntry {
                    hash: work.hash,
                    stamp: file.stamp,
                    result: FileResult {
                        set,
                        diagnostics: work.diagnostics,
                    },
                    effects: work.effects,
                    output: work.output,
                    texts,
                    stored: !work.changed,
                },
            );
        }
        for work in per_locale {
            cache.put_locale(
                Arc::from(&*work.file.relative),
                crate::cache::LocaleEntry {
                    hash: work.hash,
                    stamp: work.file.stamp,
                    summary: work.summary,
                    stored: work.stored,
                },
            );
        }
    }
    Compiled {
        database,
        json,
        diagnostics,
        sources,
        reused_files,
        database_unchanged,
        timings,
    }
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

/// Reads a translation file of set text.
fn read_locale(file: &SourceFile, hash: u64) -> LocaleWork<'_> {
    let (lang, parsed, found) =
        crate::i18n::parse_locale_file(file, false).expect("a set translation file");
    let (set, set_span) = match &parsed {
        Some(parsed) => match &parsed.target {
            crate::i18n::locale::Target::Set(set) => {
                (Some(set.clone()), parsed.target_span.clone())
            }
            crate::i18n::locale::Target::Phrases => (None, 0..0),
        },
        None => (None, 0..0),
    };
    LocaleWork {
        file,
        hash,
        summary: LocaleSummary {
            lang,
            set,
            set_span,
            diagnostics: found,
        },
        parsed,
        stored: false,
    }
}

/// A set from the cache made whole again, for checking or rendering it
/// anew: its card texts put back and its effects parsed (their findings were
/// reported when the file was first read). Should the cached texts not
/// decode, the file is read again.
fn whole_set(work: &SetWork, cached: &LoadedSet, file: &SourceFile) -> LoadedSet {
    let mut set = cached.clone();
    let restored = work.texts.as_ref().is_some_and(|t| t.restore(&mut set));
    if !restored {
        return load_file(file, false).set.unwrap_or(set);
    }
    for card in &mut set.cards {
        card.effect = parse_effect(file, &card.card, &card.spans, &mut Vec::new());
    }
    set
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
        // A third set changes the vocabulary, so every set's effects are
        // checked again, which needs their text.
        let third = &builtin.sets[2];
        std::fs::write(dir.path().join(&third.relative), &**third.text()).unwrap();
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
        assert!(second.json.is_none() && second.database.is_none());
    }
}
