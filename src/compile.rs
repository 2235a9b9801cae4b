//! `blades build`: set files → validated card database.
//!
//! Each file goes through YAML (with spans) and the JSON Schema on its own;
//! the pool-wide semantics (unique ids and names, copy rule, set sizes) then
//! run over every card that could be read. Every problem is collected; a
//! database is produced only when there is no error.

use foldhash::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::artifacts::{CardsJson, DatabaseJson, DatabaseWriter, SetJson};
use crate::cache::Cache;
use crate::diagnostics::{self, Code, Diagnostic, Sources};
use crate::effect::{self, Effect, Keywords, Lang, Phrasebooks, Vocabulary};
use crate::i18n::locale::LocaleFile;
use crate::load::{
    CardSpans, FileResult, LoadedCard, LoadedSet, LocaleSummary, fits, load_file, parse_effect,
};
use crate::model::{BASE_TYPES, Card, CardSource, DATABASE_FORMAT, Database, Id, Set, SetKind};
use crate::pool::{Pool, SourceFile};
use crate::suggest::closest;
use crate::yaml::{self, text_offsets};

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

/// A set and its cards, as they go into the database.
type SetModel = (Set, Vec<Card>);

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
        Phrasebooks::of_pool(pool, &mut diagnostics)
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

/// Renders the sets in chunks, each chunk while the one before it is
/// written (in pool order, reused sets too): the write overlaps the
/// rendering, and a chunk's JSON is freed once written.
fn stream_sets<R>(
    loaded: &mut [LoadedSet],
    locale_files: Vec<Vec<(String, LocaleFile)>>,
    render: &R,
    works: &[SetWork],
    writer: &mut DatabaseWriter,
) -> Vec<(usize, Option<Built>)>
where
    R: Fn(usize, &mut LoadedSet, Vec<(String, LocaleFile)>) -> (usize, Option<Built>) + Sync,
{
    // Enough sets to share out between threads, few enough that the
    // chunks waiting to be written stay small.
    const CHUNK: usize = 64;
    let mut files = locale_files.into_iter();
    let mut done = Vec::with_capacity(loaded.len());
    let mut pending = Vec::new();
    for (c, chunk) in loaded.chunks_mut(CHUNK).enumerate() {
        let files: Vec<_> = files.by_ref().take(chunk.len()).collect();
        let to_write = std::mem::take(&mut pending);
        let (rendered, written) = rayon::join(
            || {
                chunk
                    .par_iter_mut()
                    .zip(files)
                    .enumerate()
                    .map(|(i, (set, files))| render(c * CHUNK + i, set, files))
                    .collect::<Vec<_>>()
            },
            || write_chunk(to_write, works, writer),
        );
        done.extend(written);
        pending = rendered;
    }
    done.extend(write_chunk(pending, works, writer));
    done
}

/// Writes rendered sets, and the reused ones among them, to the database
/// being written; their cards are then found there. After a failed write
/// (which the writer reports when finished) sets stay as they were.
fn write_chunk(
    sets: Vec<(usize, Option<Built>)>,
    works: &[SetWork],
    writer: &mut DatabaseWriter,
) -> Vec<(usize, Option<Built>)> {
    sets.into_iter()
        .map(|(w, built)| {
            let (json, fresh) = match built {
                Some(Built::Json(json)) => (json, true),
                None => match &works[w].output {
                    Some((_, json)) => (json.clone(), false),
                    None => return (w, None),
                },
                other => return (w, other),
            };
            let json = match writer.push(&json) {
                Ok(range) => SetJson {
                    set: json.set,
                    cards: CardsJson::Written {
                        file: Arc::clone(writer.file().expect("open once written to")),
                        range,
                    },
                },
                Err(_) => json,
            };
            let built = match fresh {
                true => Built::Json(json),
                false => Built::Written(json),
            };
            (w, Some(built))
        })
        .collect()
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

/// A key for what effect text may name and how it prints: the pool's sets
/// and types, its keyword table and its phrase books.
fn vocabulary_key(pool: &Pool, vocab: &Vocabulary) -> u64 {
    let mut key = xxhash_rust::xxh3::Xxh3::new();
    for t in &vocab.types {
        key.update(t.as_bytes());
        key.update(b"\n");
    }
    for (id, name) in &vocab.sets {
        key.update(id.as_bytes());
        key.update(b"\t");
        key.update(name.as_bytes());
        key.update(b"\n");
    }
    for file in &pool.data {
        if file.relative == "keywords.yaml" || file.relative.starts_with("phrases/") {
            key.update(file.relative.as_bytes());
            key.update(&file.hash().to_le_bytes());
        }
    }
    key.digest()
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

/// The keyword table of a pool: its own `keywords.yaml` when it has one (so
/// a designer adds a set keyword without touching code), else the built-in
/// table. A broken file is an error, and the built-in table stands in.
pub fn pool_keywords(pool: &Pool, out: &mut Vec<Diagnostic>) -> Keywords {
    let Some(file) = pool.data_file("keywords.yaml") else {
        return Keywords::builtin();
    };
    let Some(doc) = yaml::parse_reported(file.text(), &file.path, out) else {
        return Keywords::builtin();
    };
    match Keywords::from_json(&doc.to_json()) {
        Ok(keywords) => keywords,
        Err(problem) => {
            out.push(
                Diagnostic::error(Code::DataInvalid, &file.path, doc.span.start..doc.span.start, problem)
                    .with_label("keyword table")
                    .with_help("each keyword needs id, name {en, ja}, reminder {en, ja} and meaning; see docs/effect-language.md"),
            );
            Keywords::builtin()
        }
    }
}

/// What effect text may name in this pool: its sets and types, and the
/// keywords.
pub fn vocabulary(sets: &[LoadedSet], keywords: Keywords) -> Vocabulary {
    let mut types: Vec<String> = BASE_TYPES.iter().map(|t| t.to_string()).collect();
    types.extend(
        sets.iter()
            .flat_map(|s| s.set.extra_types.iter().map(|t| t.0.clone())),
    );
    Vocabulary {
        types,
        sets: sets
            .iter()
            .map(|s| (s.set.id.0.clone(), s.set.name.clone()))
            .collect(),
        keywords,
    }
}

/// The effect checks that need the whole pool (its sets, types, keywords).
pub fn check_effects(
    sets: &[LoadedSet],
    vocab: &Vocabulary,
    sources: &Sources,
    out: &mut Vec<Diagnostic>,
) {
    for set in sets {
        let text = sources.get(&set.path).map_or("", |t| &**t);
        out.extend(check_set_effects(set, vocab, text));
    }
}

/// [`check_effects`] for one set; `text` is its file's.
pub fn check_set_effects(set: &LoadedSet, vocab: &Vocabulary, text: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for loaded in &set.cards {
        let (Some(tree), Some(effect_text)) = (&loaded.effect, &loaded.card.effect) else {
            continue;
        };
        let errors = effect::check(tree, vocab);
        if errors.is_empty() {
            continue;
        }
        let offsets = text_offsets(
            text,
            loaded.spans.effect.start,
            loaded.spans.effect_style,
            effect_text,
        );
        out.extend(
            errors
                .into_iter()
                .map(|e| e.into_diagnostic(&set.path, &offsets)),
        );
    }
    out
}

/// Derived copies of each card, by set (its index among the loaded sets)
/// and card (its index in the set's file).
#[derive(Debug, Clone, Default)]
pub struct Derived {
    /// Per set, (card index, copies) in card order.
    by_set: Vec<Vec<(usize, u8)>>,
}

impl Derived {
    /// The copies of a card, when the copy rule or the card gives them.
    pub fn copies(&self, set_index: usize, card_index: usize) -> Option<u8> {
        let cards = self.by_set.get(set_index)?;
        let at = cards.binary_search_by_key(&card_index, |&(i, _)| i).ok()?;
        Some(cards[at].1)
    }
}

impl Derived {
    /// The copies of the sets `wanted` picks (by index), without their
    /// findings (the pool checks report those).
    fn of(sets: &[LoadedSet], wanted: impl Fn(usize) -> bool + Sync) -> Derived {
        let by_set = sets
            .par_iter()
            .enumerate()
            .map(|(i, set)| match wanted(i) {
                true => {
                    let mut copies = check_copies(set, &mut Vec::new());
                    copies.sort_unstable_by_key(|&(index, _)| index);
                    copies
                }
                false => Vec::new(),
            })
            .collect();
        Derived { by_set }
    }
}

/// One set's own pool checks: findings, and copies by card index.
type SetChecks = (Vec<Diagnostic>, Vec<(usize, u8)>);

/// The pool-wide checks.
pub fn check_pool(sets: &[LoadedSet], out: &mut Vec<Diagnostic>) -> Derived {
    let declared_types: HashSet<&str> = sets
        .iter()
        .flat_map(|s| s.set.extra_types.iter().map(|t| t.0.as_str()))
        .chain(BASE_TYPES)
        .collect();
    // Uniqueness looks across sets; the rest is set by set, in parallel.
    let (unique, per_set) = rayon::join(
        || {
            let mut found = Vec::new();
            check_unique_sets(sets, &mut found);
            check_unique_cards(sets, &mut found);
            found
        },
        || -> Vec<SetChecks> {
            sets.par_iter()
                .map(|set| {
                    let mut found = Vec::new();
                    check_set_header(set, &mut found);
                    for card in &set.cards {
                        check_card_symbols(set, card, &declared_types, &mut found);
                    }
                    let copies = check_copies(set, &mut found);
                    (found, copies)
                })
                .collect()
        },
    );
    out.extend(unique);
    let mut by_set = Vec::with_capacity(per_set.len());
    for (found, mut copies) in per_set {
        out.extend(found);
        copies.sort_unstable_by_key(|&(index, _)| index);
        by_set.push(copies);
    }
    Derived { by_set }
}

fn check_unique_sets(sets: &[LoadedSet], out: &mut Vec<Diagnostic>) {
    let mut seen: HashMap<&str, &LoadedSet> = HashMap::default();
    for set in sets {
        match seen.get(set.set.id.0.as_str()) {
            Some(first) => out.push(
                Diagnostic::error(
                    Code::DuplicateSetId,
                    &set.path,
                    set.spans.id.clone(),
                    format!("set id `{}` is already used by {}", set.set.id, first.path),
                )
                .with_label("used again here")
                .with_related(&first.path, first.spans.id.clone(), "first used here")
                .with_help("give each set its own id"),
            ),
            None => {
                seen.insert(&set.set.id.0, set);
            }
        }
    }
}

fn check_unique_cards(sets: &[LoadedSet], out: &mut Vec<Diagnostic>) {
    // Ids and names are independent: checked side by side (on a large pool
    // this was the longest step between the parallel phases).
    let cards = || {
        sets.iter()
            .flat_map(|set| set.cards.iter().map(move |c| (set, c)))
    };
    let count = sets.iter().map(|s| s.cards.len()).sum();
    let (ids, names) = rayon::join(
        || {
            let mut found = Vec::new();
            let mut first: HashMap<&str, (&LoadedSet, &LoadedCard)> = HashMap::default();
            first.reserve(count);
            for (set, loaded) in cards() {
                let id = loaded.card.id.0.as_str();
                match first.get(id) {
                    Some(&(first_set, first_card)) => {
                        found.push(duplicate_card_id(set, loaded, first_set, first_card))
                    }
                    None => {
                        first.insert(id, (set, loaded));
                    }
                }
            }
            found
        },
        || {
            let mut found = Vec::new();
            let mut names = FoldedNames::with_capacity(count);
            for (set, loaded) in cards() {
                if let Some((first_set, first_card)) =
                    names.insert(&loaded.card.name, (set, loaded))
                {
                    found.push(duplicate_card_name(set, loaded, first_set, first_card));
                }
            }
            found
        },
    );
    out.extend(ids);
    out.extend(names);
}

fn duplicate_card_id(
    set: &LoadedSet,
    loaded: &LoadedCard,
    first: &LoadedSet,
    first_card: &LoadedCard,
) -> Diagnostic {
    Diagnostic::error(
        Code::DuplicateCardId,
        &set.path,
        loaded.spans.id.clone(),
        format!(
            "card id `{}` is already used in {}",
            loaded.card.id, first.path
        ),
    )
    .with_label("used again here")
    .with_related(&first.path, first_card.spans.id.clone(), "first used here")
    .with_help("card ids are unique across the whole pool; rename one of them")
}

fn duplicate_card_name(
    set: &LoadedSet,
    loaded: &LoadedCard,
    first: &LoadedSet,
    first_card: &LoadedCard,
) -> Diagnostic {
    Diagnostic::error(
        Code::DuplicateCardName,
        &set.path,
        loaded.spans.name.clone(),
        format!(
            "card name `{}` is already used by `{}` in {}",
            loaded.card.name, first_card.card.name, first.path
        ),
    )
    .with_label("used again here")
    .with_related(
        &first.path,
        first_card.spans.name.clone(),
        "first used here",
    )
    .with_help("card names are unique across the pool, ignoring case")
}

/// Names compared ignoring case (as `str::to_lowercase` folds them), keyed
/// by a hash of the folded characters so that no folded copy of each name
/// is made: a large pool has 100,000 of them.
struct FoldedNames<'a, T> {
    /// First name (and its value) for each hash.
    first: HashMap<u64, (&'a str, T)>,
    /// Names whose hash an unequal name took first (a 64-bit collision:
    /// kept correct, not expected to happen).
    others: HashMap<String, T>,
}

impl<'a, T: Copy> FoldedNames<'a, T> {
    fn with_capacity(count: usize) -> Self {
        let mut first = HashMap::default();
        first.reserve(count);
        FoldedNames {
            first,
            others: HashMap::default(),
        }
    }

    /// Records `name`; returns the value of an earlier name equal to it
    /// ignoring case (keeping the earlier one).
    fn insert(&mut self, name: &'a str, value: T) -> Option<T> {
        self.insert_hashed(fold_hash(name), name, value)
    }

    fn insert_hashed(&mut self, hash: u64, name: &'a str, value: T) -> Option<T> {
        match self.first.entry(hash) {
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert((name, value));
                None
            }
            std::collections::hash_map::Entry::Occupied(slot) => {
                let (earlier, earlier_value) = *slot.get();
                let folded = name.to_lowercase();
                if earlier.to_lowercase() == folded {
                    return Some(earlier_value);
                }
                match self.others.entry(folded) {
                    std::collections::hash_map::Entry::Vacant(slot) => {
                        slot.insert(value);
                        None
                    }
                    std::collections::hash_map::Entry::Occupied(slot) => Some(*slot.get()),
                }
            }
        }
    }
}

/// A hash of a name's characters as `str::to_lowercase` folds them: equal
/// folded names hash equal. (`to_lowercase` writes a final capital sigma
/// as `ς` and others as `σ`; both hash as `σ`.)
fn fold_hash(name: &str) -> u64 {
    use std::hash::BuildHasher;
    let state = foldhash::fast::FixedState::default();
    // The folded name is spelled out (as UTF-8) and hashed once: hashing
    // it character by character took twice as long. Short names, nearly
    // all of them, are spelled in a stack buffer.
    let mut buffer = [0u8; 128];
    if name.is_ascii() && name.len() <= buffer.len() {
        let folded = &mut buffer[..name.len()];
        folded.copy_from_slice(name.as_bytes());
        folded.make_ascii_lowercase();
        return state.hash_one(&*folded);
    }
    let mut folded = Vec::with_capacity(name.len());
    let mut utf8 = [0u8; 4];
    for c in name.chars().flat_map(char::to_lowercase) {
        let c = if c == 'ς' { 'σ' } else { c };
        folded.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
    }
    state.hash_one(&folded[..])
}

fn check_set_header(set: &LoadedSet, out: &mut Vec<Diagnostic>) {
    let kind = set.set.kind;
    match (kind.is_store_set(), set.set.cost) {
        (true, None) => out.push(
            Diagnostic::error(
                Code::MissingCost,
                &set.path,
                set.spans.kind_key.clone(),
                format!(
                    "a {} set is sold in the Store and needs a buy cost",
                    kind.as_str()
                ),
            )
            .with_label("store set without `cost`")
            .with_help("add `cost: <Millennium Dollars>` (e.g. `cost: 5`)"),
        ),
        (false, Some(_)) => out.push(
            Diagnostic::error(
                Code::UnexpectedCost,
                &set.path,
                set.spans.cost_key.clone(),
                format!(
                    "a {} set is not sold in the Store, so it has no buy cost",
                    kind.as_str()
                ),
            )
            .with_label("not a store set")
            .with_help("remove `cost`; only core, expansion, premium and master sets have one"),
        ),
        _ => {}
    }
    if !set.set.extra_types.is_empty() && kind != SetKind::ProPlayer {
        out.push(
            Diagnostic::error(
                Code::ExtraTypesOutsideProPlayer,
                &set.path,
                set.spans.extra_types_key.clone(),
                "only Pro Player sets declare extra types",
            )
            .with_label("extra types here")
            .with_help("use a base type (animal, myth, construct, citizen, soldier, mage), or make this a pro-player set"),
        );
    }
}

fn check_card_symbols(
    set: &LoadedSet,
    loaded: &LoadedCard,
    declared: &HashSet<&str>,
    out: &mut Vec<Diagnostic>,
) {
    let card = &loaded.card;
    for (i, ty) in card.types.iter().enumerate() {
        if !declared.contains(ty.0.as_str()) {
            let mut known: Vec<&str> = declared.iter().copied().collect();
            known.sort_unstable();
            let help = match closest(&ty.0, known.iter().copied()) {
                Some(best) => format!("did you mean `{best}`? Known types: {}", known.join(", ")),
                None => format!(
                    "known types: {}; a Pro Player set may declare more in `extra-types`",
                    known.join(", ")
                ),
            };
            out.push(
                Diagnostic::error(
                    Code::UnknownType,
                    &set.path,
                    CardSpans::item(&loaded.spans.types, i),
                    format!("unknown type `{ty}` on `{}`", card.name),
                )
                .with_label("unknown type")
                .with_help(help),
            );
        }
    }
    // Symbols in card order, each with its span: a symbol listed before is
    // a duplicate.
    let symbols = card
        .elements
        .iter()
        .map(|e| e.as_str())
        .zip(spans_of(&loaded.spans.elements, card.elements.len()))
        .chain(
            card.types
                .iter()
                .map(|t| t.0.as_str())
                .zip(spans_of(&loaded.spans.types, card.types.len())),
        );
    // A card has a handful of symbols: comparing with the ones before is
    // cheaper than a set per card (100,000 of them), and a hostile card
    // with thousands still gets a set.
    const FEW: usize = 16;
    if card.elements.len() + card.types.len() <= FEW {
        let mut seen: [&str; FEW] = [""; FEW];
        for (count, (symbol, span)) in symbols.enumerate() {
            if seen[..count].contains(&symbol) {
                out.push(duplicate_symbol(set, span, symbol));
            }
            seen[count] = symbol;
        }
    } else {
        let mut seen = HashSet::default();
        for (symbol, span) in symbols {
            if !seen.insert(symbol) {
                out.push(duplicate_symbol(set, span, symbol));
            }
        }
    }
}

/// The span of each of the first `count` items of a list.
fn spans_of(list: &[Range<usize>], count: usize) -> impl Iterator<Item = Range<usize>> + '_ {
    (0..count).map(|i| CardSpans::item(list, i))
}

fn duplicate_symbol(set: &LoadedSet, span: Range<usize>, symbol: &str) -> Diagnostic {
    Diagnostic::error(
        Code::DuplicateSymbol,
        &set.path,
        span,
        format!("`{symbol}` is listed twice"),
    )
    .with_label("listed again here")
    .with_help(format!("remove the second `{symbol}`"))
}

/// The copy rule: in a set, the highest-STAR card has 1 copy, the lowest 3,
/// every other card 2; starters, promos and Pro Player sets have 1 of each;
/// Core Set cards state their copies. Ties: every card tied for highest has
/// 1 copy and every card tied for lowest 3; when all cards share one STAR,
/// each has 2 (see docs/decisions.md).
pub fn derive_copies(kind: SetKind, stars: &[u8]) -> Vec<Option<u8>> {
    if kind == SetKind::Core {
        return vec![None; stars.len()];
    }
    if kind.single_copies() {
        return vec![Some(1); stars.len()];
    }
    let high = stars.iter().copied().max().unwrap_or(0);
    let low = stars.iter().copied().min().unwrap_or(0);
    stars
        .iter()
        .map(|&s| {
            Some(if high == low {
                2
            } else if s == high {
                1
            } else if s == low {
                3
            } else {
                2
            })
        })
        .collect()
}

/// Applies the copy rule and the physical set size; returns each card's copies.
fn check_copies(set: &LoadedSet, out: &mut Vec<Diagnostic>) -> Vec<(usize, u8)> {
    let kind = set.set.kind;
    let stars: Vec<u8> = set.cards.iter().map(|c| c.card.stars).collect();
    let rule = derive_copies(kind, &stars);
    let mut result = Vec::with_capacity(set.cards.len());
    for (loaded, derived) in set.cards.iter().zip(rule) {
        let card = &loaded.card;
        let copies = match (derived, card.copies) {
            (None, Some(stated)) => stated,
            (None, None) => {
                out.push(
                    Diagnostic::error(
                        Code::MissingCopies,
                        &set.path,
                        loaded.spans.id_key.clone(),
                        format!("core set card `{}` must state its copies", card.name),
                    )
                    .with_label("no `copies`")
                    .with_help(
                        "the copy rule does not apply to the Core Set: add `copies: 1`, `2` or `3`",
                    ),
                );
                1
            }
            (Some(derived), Some(stated)) if stated != derived => {
                out.push(
                    Diagnostic::error(
                        Code::CopiesMismatch,
                        &set.path,
                        loaded.spans.copies.clone(),
                        format!(
                            "`{}` states `copies: {stated}`, but the copy rule gives {derived}",
                            card.name
                        ),
                    )
                    .with_label(format!("the copy rule gives {derived}"))
                    .with_help(copy_rule_help(kind)),
                );
                derived
            }
            (Some(derived), _) => derived,
        };
        result.push((loaded.index, copies));
    }
    if let Some(expected) = kind.physical_size() {
        let physical: u32 = result.iter().map(|(_, c)| u32::from(*c)).sum();
        // Skipped when a card could not be read: its copies are unknown.
        if physical != expected && Some(set.cards.len()) == set.listed_cards {
            out.push(
                Diagnostic::error(
                    Code::SetSize,
                    &set.path,
                    set.spans.cards_key.clone(),
                    format!(
                        "a {} set has {expected} physical cards; these cards make {physical}",
                        kind.as_str()
                    ),
                )
                .with_label(format!("{physical} physical"))
                .with_help(set_size_help(kind)),
            );
        }
    }
    result
}

fn copy_rule_help(kind: SetKind) -> String {
    if kind.single_copies() {
        format!(
            "every card of a {} set has 1 copy; remove `copies`",
            kind.as_str()
        )
    } else {
        "highest STAR: 1 copy, lowest STAR: 3, others: 2; remove `copies` or fix the STARs".into()
    }
}

fn set_size_help(kind: SetKind) -> String {
    match kind {
        SetKind::Expansion | SetKind::Premium | SetKind::Master => {
            "12 physical cards are 6 different cards: one unique highest STAR (1 copy), one unique lowest (3), four in between (2 each)".into()
        }
        SetKind::Starter => "a starter deck is 9 different cards, 1 copy each".into(),
        SetKind::ProPlayer => "a Pro Player set is 5 different cards, 1 copy each".into(),
        _ => "a promo set is 6 different cards, 1 copy each".into(),
    }
}

pub fn assemble(sets: &[LoadedSet], derived: &Derived) -> Database {
    let mut database = Database {
        format: DATABASE_FORMAT,
        sets: Vec::new(),
        cards: Vec::new(),
    };
    for (set_index, loaded) in sets.iter().enumerate() {
        let (set, cards) = assemble_set(set_index, loaded, derived);
        database.sets.push(set);
        database.cards.extend(cards);
    }
    database
}

/// One set and its cards as they go into the database (`set_index` is its
/// place among the loaded sets, which `derived` is keyed by).
pub fn assemble_set(set_index: usize, loaded: &LoadedSet, derived: &Derived) -> (Set, Vec<Card>) {
    let cards = loaded.cards.iter().map(|c| (c.index, c.card.clone()));
    assemble_cards(set_index, loaded, cards, derived)
}

/// [`assemble_set`] that moves the cards' fields out of `loaded` rather
/// than copying them (the set is left without cards), for a build that
/// keeps no loaded sets after rendering them.
fn assemble_set_taking(
    set_index: usize,
    loaded: &mut LoadedSet,
    derived: &Derived,
) -> (Set, Vec<Card>) {
    let taken = std::mem::take(&mut loaded.cards);
    let cards = taken.into_iter().map(|c| (c.index, c.card));
    assemble_cards(set_index, loaded, cards, derived)
}

fn assemble_cards(
    set_index: usize,
    loaded: &LoadedSet,
    sources: impl ExactSizeIterator<Item = (usize, CardSource)>,
    derived: &Derived,
) -> (Set, Vec<Card>) {
    let set = &loaded.set;
    let mut physical = 0u32;
    let mut cards = Vec::with_capacity(sources.len());
    for (index, card) in sources {
        let copies = derived.copies(set_index, index).unwrap_or(1);
        physical += u32::from(copies);
        cards.push(Card {
            id: card.id,
            name: card.name,
            set: set.id.clone(),
            kind: card.kind,
            stars: card.stars,
            elements: card.elements,
            types: card.types,
            rarity: set.kind.rarity(),
            copies,
            effect: card.effect,
            effect_tree: None,
            effect_text: Default::default(),
            flavor: card.flavor,
            translations: Default::default(),
        });
    }
    let set = Set {
        id: set.id.clone(),
        name: set.name.clone(),
        kind: set.kind,
        cost: set.cost,
        extra_types: set.extra_types.clone(),
        distinct_cards: cards.len() as u32,
        physical_cards: physical,
        translations: Default::default(),
    };
    (set, cards)
}

/// Renders every parsed effect in English and Japanese into the database.
pub fn render_effects(
    database: &mut Database,
    sets: &mut [LoadedSet],
    vocab: &Vocabulary,
    phrases: &Phrasebooks,
) {
    let books = Books::of(phrases);
    // The trees move into the database (no second copy of every effect).
    let trees: Vec<Option<Effect>> = sets
        .iter_mut()
        .flat_map(|s| s.cards.iter_mut().map(|c| c.effect.take()))
        .collect();
    database
        .cards
        .par_iter_mut()
        .zip(trees)
        .for_each(|(card, tree)| render_card(card, tree, &books, vocab));
}

/// The phrase book of each language, with its code.
struct Books<'a>([(&'static str, Lang, &'a effect::Phrasebook); Lang::ALL.len()]);

impl<'a> Books<'a> {
    fn of(phrases: &'a Phrasebooks) -> Books<'a> {
        Books(Lang::ALL.map(|lang| (lang.code(), lang, phrases.get(lang))))
    }
}

/// Prints a card's effect in every language; the tree moves into the card.
fn render_card(card: &mut Card, tree: Option<Effect>, books: &Books<'_>, vocab: &Vocabulary) {
    let Some(tree) = tree else { return };
    for (code, lang, book) in &books.0 {
        card.effect_text.insert(
            (*code).to_string(),
            effect::render(&tree, *lang, book, vocab),
        );
    }
    card.effect_tree = Some(tree);
}

/// Looks a set id up in a database.
pub fn find_set<'a>(database: &'a Database, id: &Id) -> Option<&'a Set> {
    database.sets.iter().find(|s| &s.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// What `FoldedNames` must agree with: a map of `to_lowercase` copies.
    fn naive_duplicates(names: &[&str]) -> Vec<Option<usize>> {
        let mut first: std::collections::HashMap<String, usize> = Default::default();
        names
            .iter()
            .enumerate()
            .map(|(i, n)| match first.get(&n.to_lowercase()) {
                Some(&f) => Some(f),
                None => {
                    first.insert(n.to_lowercase(), i);
                    None
                }
            })
            .collect()
    }

    #[test]
    fn names_that_share_a_hash_but_differ_are_told_apart() {
        let names = ["Wyrm", "Owl", "OWL", "wyrm", "Gull", "owl"];
        let mut folded = FoldedNames::with_capacity(names.len());
        // Every name under one hash: the collision path does all the work.
        let found: Vec<Option<usize>> = names
            .iter()
            .enumerate()
            .map(|(i, n)| folded.insert_hashed(7, n, i))
            .collect();
        assert_eq!(found, naive_duplicates(&names));
    }

    #[test]
    fn every_symbol_listed_again_is_reported_on_small_and_hostile_cards() {
        for count in [3, 40] {
            let elements = vec!["fire"; count].join(", ");
            let text = format!(
                "id: test-set\nname: Test Set\nkind: gold-promo\ncards:\n  - id: test-card\n    name: Test Card\n    kind: single\n    stars: 1\n    elements: [{elements}, water]\n    types: [citizen, citizen]\n"
            );
            let mut pool = Pool::default();
            pool.sets.push(SourceFile::new(
                Arc::from("t.yaml"),
                "t.yaml".into(),
                Arc::from(text),
            ));
            let compiled = compile(&pool);
            let again: Vec<&Diagnostic> = compiled
                .diagnostics
                .iter()
                .filter(|d| d.code == Code::DuplicateSymbol)
                .collect();
            // Every `fire` after the first, and the second `citizen`.
            assert_eq!(again.len(), count, "{again:?}");
            assert!(again.windows(2).all(|w| w[0].span.start < w[1].span.start));
        }
    }

    #[test]
    fn long_names_are_folded_too() {
        let long = "Ab".repeat(100);
        let names = [
            long.as_str(),
            &long.to_uppercase(),
            &format!("{long}K"),
            &format!("{long}k"),
        ];
        let mut folded = FoldedNames::with_capacity(names.len());
        let found: Vec<Option<usize>> = names
            .iter()
            .enumerate()
            .map(|(i, n)| folded.insert(n, i))
            .collect();
        assert_eq!(found, [None, Some(0), None, Some(2)]);
    }

    proptest::proptest! {
        #[test]
        fn folded_names_find_the_duplicates_lowercase_copies_find(
            // The Kelvin sign folds to an ASCII `k`: both spellings of a
            // folded name must hash alike.
            names in proptest::collection::vec("[aAbBkKK ΣσςİiIΩ]{0,4}", 0..24)
        ) {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let mut folded = FoldedNames::with_capacity(names.len());
            let found: Vec<Option<usize>> =
                names.iter().enumerate().map(|(i, n)| folded.insert(n, i)).collect();
            proptest::prop_assert_eq!(found, naive_duplicates(&names));
        }
    }

    #[test]
    fn copy_rule_for_a_twelve_card_set() {
        let copies = derive_copies(SetKind::Expansion, &[1, 2, 3, 4, 5, 6]);
        let copies: Vec<u8> = copies.into_iter().map(Option::unwrap).collect();
        assert_eq!(copies, [3, 2, 2, 2, 2, 1]);
        assert_eq!(copies.iter().map(|&c| u32::from(c)).sum::<u32>(), 12);
    }

    #[test]
    fn copy_rule_ties_share() {
        let copies = derive_copies(SetKind::Premium, &[2, 2, 4, 6, 6]);
        assert_eq!(copies, [Some(3), Some(3), Some(2), Some(1), Some(1)]);
        assert_eq!(derive_copies(SetKind::Master, &[4, 4]), [Some(2), Some(2)]);
    }

    #[test]
    fn copy_rule_single_copy_kinds_and_core() {
        assert_eq!(
            derive_copies(SetKind::GoldPromo, &[1, 9]),
            [Some(1), Some(1)]
        );
        assert_eq!(derive_copies(SetKind::Starter, &[1, 2]), [Some(1), Some(1)]);
        assert_eq!(derive_copies(SetKind::Core, &[1, 2]), [None, None]);
    }
}
