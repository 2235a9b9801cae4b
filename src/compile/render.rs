//! The render-and-write stage: each set whose context changed is assembled
//! and rendered in every language, then written to the database (set by set
//! while the next chunk renders) or kept as models; the unchanged sets keep
//! the JSON the cache has for them.

use std::sync::Arc;

use rayon::prelude::*;

use crate::artifacts::{DatabaseJson, DatabaseWriter, SetJson};
use crate::cache::Cache;
use crate::diagnostics::{self, Diagnostic};
use crate::effect::{Effect, Vocabulary};
use crate::i18n::set_text::SetText;
use crate::load::LoadedSet;
use crate::model::{DATABASE_FORMAT, Database, KeywordName};
use crate::pool::{Pool, SourceFile};

use super::assemble::{Books, PrintMemo, assemble_set, assemble_set_taking, render_card};
use super::checks::Derived;
use super::pool_checks::PoolChecks;
use super::read::{FilesRead, read_locale, whole_set};
use super::stream::stream_sets;
use super::vocabulary::PoolVocabulary;
use super::{Built, Output, Plan, SetWork};
use crate::effect::ParseMemo;

/// What the stage needs besides the files read.
pub(super) struct RenderInput<'a> {
    pub pool: &'a Pool,
    pub plan: &'a Plan,
    pub vocabulary: &'a PoolVocabulary,
    /// Each loaded set's translation files.
    pub translations: &'a [Vec<usize>],
    /// The pool checks' copies, unless the checks come later.
    pub derived: Derived,
    pub cache: Option<&'a Cache>,
}

/// Renders and writes the sets of a build without errors. With deferred pool
/// checks (`plan.checks_later`), their findings join `diagnostics`, and a
/// build that fails them keeps nothing it made.
pub(super) fn render_and_write<'p>(
    input: RenderInput<'_>,
    read: &mut FilesRead<'p>,
    mut writer: Option<&mut DatabaseWriter>,
    checks: &mut PoolChecks<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Output {
    let RenderInput {
        pool,
        plan,
        vocabulary,
        translations,
        derived,
        cache,
    } = input;
    let keys = context_keys(read, translations, vocabulary.key);
    let fresh = fresh_sets(&read.works, &keys, cache.is_some());
    let database_unchanged =
        writer.is_some() && database_on_disk_is_current(pool, &read.works, &fresh, cache);
    let owner = read.owner.clone();
    let locale_files = translations_to_render(read, translations, &owner, &fresh);
    let derived = match plan.checks_later {
        true => Derived::of(
            &read.loaded,
            |i| fresh[owner[i]],
            &|i| read.remembered_copies(i),
            &|i| read.restored(pool, i),
        ),
        false => derived,
    };
    let card_count = read.card_count();
    let renderer = Renderer {
        pool,
        works: &read.works,
        owner: &owner,
        fresh: &fresh,
        derived: &derived,
        books: Books::of(&vocabulary.phrases),
        vocab: &vocabulary.vocab,
        plan,
        memo: &read.memo,
        printed: PrintMemo::new(),
    };
    // The database carries the pool's keywords, so that a reader of the
    // file names them as a reader of the pool does.
    let keyword_table = KeywordName::table(&vocabulary.vocab.keywords);
    if let Some(writer) = writer.as_deref_mut() {
        writer.set_keywords(Some(keyword_table.clone()));
    }
    let render = |index: usize, set: &mut LoadedSet, files: Vec<Translation<'p>>| {
        renderer.render(index, set, files)
    };
    let built: Vec<(usize, Option<Built>)> = match writer.as_deref_mut() {
        // Each set keeps its place in the database file.
        Some(_) if database_unchanged => Vec::new(),
        Some(writer) => stream_sets(&mut read.loaded, locale_files, &render, &read.works, writer),
        None => read
            .loaded
            .par_iter_mut()
            .zip(locale_files)
            .enumerate()
            .map(|(index, (set, files))| render(index, set, files))
            .collect(),
    };
    let passed = match (plan.checks_later, writer) {
        (true, Some(writer)) => deferred_pool_checks(pool, read, checks, writer, diagnostics),
        _ => true,
    };
    // A build that failed its pool checks keeps nothing it made.
    match (passed, plan.as_pieces) {
        (false, _) => Output::None,
        (true, true) => {
            let mut json = keep_pieces(pool, built, &mut read.works, &keys, card_count);
            json.keywords = Some(keyword_table);
            match database_unchanged {
                true => Output::Unchanged(json),
                false => Output::Pieces(json),
            }
        }
        (true, false) => {
            let mut database = gather_models(built, card_count);
            database.keywords = Some(keyword_table);
            Output::Models(database)
        }
    }
}

/// Each set's context key: its file, its translation files, and what every
/// effect may name or be printed with. A set whose key is unchanged has
/// nothing to render.
fn context_keys(read: &FilesRead<'_>, translations: &[Vec<usize>], vocab_key: u64) -> Vec<u64> {
    read.works
        .iter()
        .map(|work| {
            let mut key = xxhash_rust::xxh3::Xxh3::new();
            key.update(&work.hash.to_le_bytes());
            key.update(&vocab_key.to_le_bytes());
            key.update(&work.art.to_le_bytes());
            for &l in work.loaded.iter().flat_map(|&i| &translations[i]) {
                key.update(read.locales[l].file.relative.as_bytes());
                key.update(&read.locales[l].hash.to_le_bytes());
            }
            key.digest()
        })
        .collect()
}

/// Which set files are rendered anew: all of them without a cache, else
/// those whose cached JSON was made for another context.
fn fresh_sets(works: &[SetWork], keys: &[u64], cached: bool) -> Vec<bool> {
    works
        .iter()
        .zip(keys)
        .map(|(work, key)| !cached || work.output.as_ref().is_none_or(|(k, _)| k != key))
        .collect()
}

/// Nothing to render, and the sets in the database's order: the database
/// on disk is what this build would write, byte for byte.
fn database_on_disk_is_current(
    pool: &Pool,
    works: &[SetWork],
    fresh: &[bool],
    cache: Option<&Cache>,
) -> bool {
    let sets = works
        .iter()
        .zip(&pool.sets)
        .zip(fresh)
        .filter(|((work, _), _)| work.loaded.is_some());
    sets.clone().all(|(_, fresh)| !fresh)
        && cache.is_some_and(|cache| {
            let paths = sets.map(|((_, file), _)| file.relative.as_str());
            cache.database_sets().eq(paths)
        })
}

/// Each loaded set's own translation files, for the sets to render: all a
/// set's text needs, so sets are translated in parallel, each with its own
/// small index. A file the cache answered for is read when its set renders,
/// so only the translations of the sets in hand are held whole.
fn translations_to_render<'p>(
    read: &mut FilesRead<'p>,
    translations: &[Vec<usize>],
    owner: &[usize],
    fresh: &[bool],
) -> Vec<Vec<Translation<'p>>> {
    (0..read.loaded.len())
        .map(|i| match fresh[owner[i]] {
            false => Vec::new(),
            true => translations[i]
                .iter()
                .map(|&l| {
                    let work = &mut read.locales[l];
                    match work.parsed.take() {
                        Some(parsed) => Translation::Parsed(parsed),
                        None => Translation::Unread(work.file, work.hash),
                    }
                })
                .collect(),
        })
        .collect()
}

/// A set's translation file on its way to be rendered.
pub(super) enum Translation<'p> {
    /// Read with the other files.
    Parsed(SetText),
    /// Left unread then (the cache knew it): read when its set renders.
    Unread(&'p SourceFile, u64),
}

impl Translation<'_> {
    /// What the file says of the set; none when it cannot be read.
    fn parsed(self) -> Option<SetText> {
        match self {
            Translation::Parsed(parsed) => Some(parsed),
            Translation::Unread(file, hash) => {
                read_locale(file, &*file.in_hand_or_late()?, hash).parsed
            }
        }
    }
}

/// Renders one set: assembled with its copies, every effect rendered in
/// every language, its translations attached.
struct Renderer<'a> {
    pool: &'a Pool,
    works: &'a [SetWork],
    owner: &'a [usize],
    fresh: &'a [bool],
    derived: &'a Derived,
    books: Books<'a>,
    vocab: &'a Vocabulary,
    plan: &'a Plan,
    memo: &'a ParseMemo,
    printed: PrintMemo,
}

impl Renderer<'_> {
    /// The loaded set `index` built for the database, or nothing when its
    /// cached JSON stands.
    fn render(
        &self,
        index: usize,
        set: &mut LoadedSet,
        files: Vec<Translation<'_>>,
    ) -> (usize, Option<Built>) {
        let w = self.owner[index];
        if !self.fresh[w] {
            return (w, None);
        }
        if self.works[w].reused {
            *set = whole_set(&self.works[w], set, &self.pool.sets[w], self.memo);
        }
        let trees: Vec<Option<Arc<Effect>>> =
            set.cards.iter_mut().map(|c| c.effect.take()).collect();
        // Without a cache, the set is not needed after this: its cards'
        // text moves into the database.
        let (set_model, mut cards) = match self.plan.keeps_sets {
            true => assemble_set(index, set, self.derived),
            false => assemble_set_taking(index, set, self.derived),
        };
        for (card, tree) in cards.iter_mut().zip(trees) {
            render_card(card, tree, &self.books, self.vocab, &self.printed);
        }
        let mut one = Database {
            keywords: None,
            format: DATABASE_FORMAT,
            sets: vec![set_model],
            cards,
        };
        // Second files for a set were reported when they were paired.
        let texts: Vec<SetText> = files.into_iter().filter_map(Translation::parsed).collect();
        crate::i18n::set_text::attach(&mut one, &texts);
        let set_model = one.sets.pop().expect("one set");
        let built = match self.plan.as_pieces {
            true => Built::Json(SetJson::of(&set_model, &one.cards)),
            false => Built::Model((set_model, one.cards)),
        };
        (w, Some(built))
    }
}

/// The pool checks a build with a cache and a writer left until the sets
/// were out: run while the writer copies the unchanged cards (one core's
/// work in the kernel). Whether they passed.
fn deferred_pool_checks(
    pool: &Pool,
    read: &FilesRead<'_>,
    checks: &mut PoolChecks<'_>,
    writer: &mut DatabaseWriter,
    diagnostics: &mut Vec<Diagnostic>,
) -> bool {
    let mut found = Vec::new();
    rayon::join(|| checks.run(pool, read, &mut found), || writer.flush());
    let passed = !found.iter().any(Diagnostic::is_error);
    diagnostics.extend(found);
    diagnostics::sort(diagnostics);
    passed
}

/// The database as JSON pieces in pool order: the sets rendered now, and
/// the cached JSON of the others; each set file's work keeps its piece.
fn keep_pieces(
    pool: &Pool,
    built: Vec<(usize, Option<Built>)>,
    works: &mut [SetWork],
    keys: &[u64],
    card_count: usize,
) -> DatabaseJson {
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
        .filter_map(|(w, file)| Some((Arc::from(&*file.relative), w.output.as_ref()?.1.clone())))
        .unzip();
    DatabaseJson {
        format: DATABASE_FORMAT,
        sets,
        paths,
        cards: card_count,
        keywords: None,
    }
}

/// The database as models, the sets in pool order.
fn gather_models(built: Vec<(usize, Option<Built>)>, card_count: usize) -> Database {
    let mut all = Database {
        keywords: None,
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
    all
}
