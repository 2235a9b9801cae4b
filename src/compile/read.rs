//! The first stages: every set file loaded on its own, in parallel with the
//! translation files beside them (the cache answering for files it has
//! seen unchanged), and each set paired with its translation files.

use foldhash::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::cache::{Cache, SetEntry, StoredCards};
use crate::diagnostics::Diagnostic;
use crate::effect::ParseMemo;
use crate::i18n::UnitKey;
use crate::i18n::locale::{self, FileClass, Target};
use crate::i18n::set_text::SetText;
use crate::load::{LoadedSet, LocaleSummary, fits, load_file, parse_effect};
use crate::pool::{Pool, SourceFile};

use super::{LocaleWork, SetWork};

/// What the read stage gives: every set file's work in pool order, the sets
/// that could be read, and the translation files of sets.
pub(super) struct FilesRead<'p> {
    pub works: Vec<SetWork>,
    pub loaded: Vec<LoadedSet>,
    pub locales: Vec<LocaleWork<'p>>,
    /// The set file (index in `works`) of each loaded set.
    pub owner: Vec<usize>,
    /// Set files whose result came from the cache.
    pub reused: usize,
    /// The effect texts parsed so far, for the stages that parse a set's
    /// effects again (a set from the cache, checked or rendered anew).
    pub memo: ParseMemo,
}

impl FilesRead<'_> {
    /// How many cards the loaded sets have, in hand or not.
    pub fn card_count(&self) -> usize {
        let count = |(set, &w): (&LoadedSet, &usize)| {
            let stored = self.works[w].cards.as_ref().and_then(StoredCards::count);
            stored.unwrap_or(set.cards.len())
        };
        self.loaded.iter().zip(&self.owner).map(count).sum()
    }

    /// The copies the pool checks found of loaded set `index` in an
    /// earlier build of the same file (the cache keeps them).
    pub fn remembered_copies(&self, index: usize) -> Option<Vec<(usize, u8)>> {
        let work = &self.works[self.owner[index]];
        let checked = work.checked.as_ref().filter(|c| c.hash == work.hash)?;
        Some(checked.copies.clone())
    }

    /// Loaded set `index` with its cards, when they are not in hand (a
    /// set from the cache): decoded, or, should they not decode, the file
    /// read again. Without the effect and flavor texts ([`whole_set`]).
    pub fn restored(&self, pool: &Pool, index: usize) -> Option<LoadedSet> {
        let w = self.owner[index];
        let (work, set) = (&self.works[w], &self.loaded[index]);
        let stored = work.cards.as_ref()?;
        if stored.count() == Some(set.cards.len()) {
            return None;
        }
        Some(with_stored_cards(set, stored, &pool.sets[w], &self.memo))
    }

    /// What each translation file says of itself (its language, set, set
    /// name and findings).
    pub fn summaries(&self) -> Vec<&LocaleSummary> {
        self.locales.iter().map(|l| &l.summary).collect()
    }
}

/// Loads every set file and every translation file of a set, each on its
/// own; their findings go to `diagnostics` (the set files' here, the
/// translation files' when they are paired).
pub(super) fn read_files<'p>(
    pool: &'p Pool,
    mut cache: Option<&mut Cache>,
    schema_only: bool,
    progress: Option<&AtomicUsize>,
    diagnostics: &mut Vec<Diagnostic>,
) -> FilesRead<'p> {
    let previous: Vec<Option<SetEntry>> = pool
        .sets
        .iter()
        .map(|f| cache.as_deref_mut().and_then(|c| c.take_set(&f.relative)))
        .collect();
    let translation_files = match schema_only {
        true => Vec::new(),
        false => set_translation_files(pool),
    };
    let cached = cache.as_deref();
    let memo = ParseMemo::new();
    // Files are independent until the pool-wide checks: set files parse in
    // parallel, and the translation files alongside them.
    let (per_set, locales) = rayon::join(
        || -> Vec<(SetWork, Option<LoadedSet>)> {
            pool.sets
                .par_iter()
                .zip(previous)
                .map(|(file, previous)| {
                    let read = read_set_file(file, previous, schema_only, &memo);
                    if let Some(progress) = progress {
                        progress.fetch_add(1, Ordering::Relaxed);
                    }
                    read
                })
                .collect()
        },
        || -> Vec<LocaleWork<'p>> {
            translation_files
                .par_iter()
                .map(|&file| read_translation_file(file, cached))
                .collect()
        },
    );
    let reused = per_set.iter().filter(|(w, _)| w.reused).count();
    let mut works = Vec::with_capacity(per_set.len());
    let mut loaded = Vec::with_capacity(per_set.len());
    let mut owner = Vec::with_capacity(per_set.len());
    for (w, (mut work, set)) in per_set.into_iter().enumerate() {
        diagnostics.extend(work.diagnostics.iter().cloned());
        if let Some(set) = set {
            work.loaded = Some(loaded.len());
            loaded.push(set);
            owner.push(w);
        }
        works.push(work);
    }
    FilesRead {
        works,
        loaded,
        owner,
        locales,
        reused,
        memo,
    }
}

/// The pool's translation files of set text (not of phrase templates).
fn set_translation_files(pool: &Pool) -> Vec<&SourceFile> {
    pool.data
        .iter()
        .filter(|f| matches!(locale::classify(&f.relative), Some((_, FileClass::Set))))
        .collect()
}

/// One set file: its cached result when the cache has it for this text and
/// this name, else the file loaded anew. A file left unread is read only if
/// the cache does not answer for it, and its text is not kept.
fn read_set_file(
    file: &SourceFile,
    previous: Option<SetEntry>,
    schema_only: bool,
    memo: &ParseMemo,
) -> (SetWork, Option<LoadedSet>) {
    let fits = |entry: &SetEntry, hash: u64| entry.hash == hash && entry.fits(&file.path);
    let previous = match (file.known_hash(), previous) {
        (Some(hash), Some(entry)) if fits(&entry, hash) => return reuse_set_file(file, entry),
        (_, previous) => previous,
    };
    let in_hand = match file.in_hand() {
        Ok(in_hand) => in_hand,
        Err(problem) => return unreadable_set_file(*problem),
    };
    let hash = in_hand.hash();
    match previous.filter(|entry| fits(entry, hash)) {
        Some(entry) => reuse_set_file(file, entry),
        None => load_set_file(&in_hand, hash, schema_only, memo),
    }
}

/// A set file's result as the cache kept it.
fn reuse_set_file(file: &SourceFile, mut entry: SetEntry) -> (SetWork, Option<LoadedSet>) {
    if let Some(set) = &mut entry.result.set {
        set.path = file.path.clone();
    }
    let work = SetWork {
        hash: entry.hash,
        reused: true,
        diagnostics: entry.result.diagnostics,
        loaded: None,
        effects: entry.effects,
        output: entry.output,
        changed: entry.stamp != file.stamp,
        texts: entry.texts,
        art: 0,
        cards: entry.cards,
        checked: entry.checked,
        names_art: entry.names_art,
    };
    (work, entry.result.set)
}

/// A set file loaded anew.
fn load_set_file(
    file: &SourceFile,
    hash: u64,
    schema_only: bool,
    memo: &ParseMemo,
) -> (SetWork, Option<LoadedSet>) {
    let result = load_file(file, schema_only, memo);
    (SetWork::fresh(hash, result.diagnostics), result.set)
}

/// A set file that could not be read when the build came to it.
fn unreadable_set_file(problem: Diagnostic) -> (SetWork, Option<LoadedSet>) {
    (SetWork::fresh(0, vec![problem]), None)
}

/// One translation file: its summary from the cache, or the file read (a
/// file left unread is read only if the cache does not answer for it, and
/// its text is not kept).
fn read_translation_file<'p>(file: &'p SourceFile, cached: Option<&Cache>) -> LocaleWork<'p> {
    let remembered = |hash: u64| {
        let entry = cached.and_then(|c| c.locale(&file.relative, hash));
        entry.filter(|e| fits(&e.summary.diagnostics, &file.path))
    };
    let from_cache = |hash: u64, entry: &crate::cache::LocaleEntry| LocaleWork {
        file,
        hash,
        summary: entry.summary.clone(),
        parsed: None,
        stored: entry.stamp == file.stamp,
    };
    if let Some(hash) = file.known_hash()
        && let Some(entry) = remembered(hash)
    {
        return from_cache(hash, entry);
    }
    match file.in_hand() {
        Ok(in_hand) => {
            let hash = in_hand.hash();
            match remembered(hash) {
                Some(entry) => from_cache(hash, entry),
                None => read_locale(file, &in_hand, hash),
            }
        }
        Err(problem) => unreadable_locale(file, *problem),
    }
}

/// A translation file that could not be read when the build came to it.
fn unreadable_locale(file: &SourceFile, problem: Diagnostic) -> LocaleWork<'_> {
    let lang = locale::classify(&file.relative).map_or_else(String::new, |(lang, _)| lang);
    LocaleWork {
        file,
        hash: 0,
        summary: LocaleSummary {
            lang,
            set: None,
            set_span: 0..0,
            diagnostics: vec![problem],
            set_name: None,
        },
        parsed: None,
        stored: false,
    }
}

/// Reads a translation file of set text (`file`, its text in `in_hand`),
/// keeping what a build needs.
pub(super) fn read_locale<'p>(
    file: &'p SourceFile,
    in_hand: &SourceFile,
    hash: u64,
) -> LocaleWork<'p> {
    let (lang, parsed, found) =
        crate::i18n::parse_locale_file(in_hand, false).expect("a set translation file");
    let set_name = parsed.as_ref().and_then(|parsed| {
        let entry = parsed
            .entries
            .iter()
            .find(|e| matches!(e.key, UnitKey::SetName { .. }))?;
        Some(entry.text.clone())
    });
    let (set, set_span) = match &parsed {
        Some(parsed) => match &parsed.target {
            Target::Set(set) => (Some(set.clone()), parsed.target_span.clone()),
            Target::Phrases => (None, 0..0),
        },
        None => (None, 0..0),
    };
    let parsed = parsed.map(|parsed| SetText::of(lang.clone(), &parsed));
    LocaleWork {
        file,
        hash,
        summary: LocaleSummary {
            lang,
            set,
            set_span,
            diagnostics: found,
            set_name,
        },
        parsed,
        stored: false,
    }
}

/// Which translation files each loaded set has (indices into the
/// translation files, in pool order). A second file for the same set and
/// language is an error and is left out. The translation files' own
/// findings join `diagnostics` here.
pub(super) fn pair_translations(
    loaded: &[LoadedSet],
    locales: &[LocaleWork<'_>],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Vec<usize>> {
    let mut of_set: HashMap<&str, Vec<usize>> = HashMap::default();
    let mut first_file: HashMap<(&str, &str), usize> = HashMap::default();
    for (i, work) in locales.iter().enumerate() {
        diagnostics.extend(work.summary.diagnostics.iter().cloned());
        let Some(set) = &work.summary.set else {
            continue;
        };
        match first_file.get(&(work.summary.lang.as_str(), set.as_str())) {
            Some(&first) => {
                let first = &locales[first];
                diagnostics.push(crate::i18n::duplicate_locale_file(
                    &work.summary.lang,
                    &Target::Set(set.clone()),
                    (&work.file.path, work.summary.set_span.clone()),
                    (&first.file.path, first.summary.set_span.clone()),
                ));
            }
            None => {
                first_file.insert((&work.summary.lang, set), i);
                of_set.entry(set).or_default().push(i);
            }
        }
    }
    loaded
        .iter()
        .map(|set| {
            of_set
                .get(set.set.id.0.as_str())
                .cloned()
                .unwrap_or_default()
        })
        .collect()
}

/// A set from the cache made whole again, for checking or rendering it
/// anew: its card texts put back and its effects parsed (their findings were
/// reported when the file was first read). Should the cached texts not
/// decode, the file is read again.
pub(super) fn whole_set(
    work: &SetWork,
    cached: &LoadedSet,
    file: &SourceFile,
    memo: &ParseMemo,
) -> LoadedSet {
    let mut set = match &work.cards {
        Some(stored) if stored.count() != Some(cached.cards.len()) => {
            with_stored_cards(cached, stored, file, memo)
        }
        _ => cached.clone(),
    };
    let restored = work.texts.as_ref().is_some_and(|t| t.restore(&mut set));
    if !restored {
        return load_file(file, false, memo).set.unwrap_or(set);
    }
    for card in &mut set.cards {
        card.effect = parse_effect(file, &card.card, &card.spans, memo, &mut Vec::new());
    }
    set
}

/// A set from the cache with its cards decoded; should they not decode
/// (a cache this build wrote, checked by its checksum: not expected), the
/// file read again.
fn with_stored_cards(
    cached: &LoadedSet,
    stored: &StoredCards,
    file: &SourceFile,
    memo: &ParseMemo,
) -> LoadedSet {
    match stored.decode() {
        Some(cards) => LoadedSet {
            cards,
            ..cached.clone()
        },
        None => load_file(file, false, memo)
            .set
            .unwrap_or_else(|| cached.clone()),
    }
}
