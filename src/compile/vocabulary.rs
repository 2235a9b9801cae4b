//! What effect text may name in a pool and how it prints (its sets, types,
//! keyword table and phrase books), assembled here and nowhere else, and
//! the effect checks that need it.

use rayon::prelude::*;

use crate::diagnostics::{Code, Diagnostic};
use std::sync::Arc;

use crate::effect::{self, Keyword, Keywords, Lang, Phrasebook, Phrasebooks, Vocabulary};
use crate::i18n::check::numbers;
use crate::load::{LoadedSet, LocaleSummary};
use crate::pool::{Pool, SourceFile};
use crate::words::BASE_TYPES;
use crate::yaml::{self, Node, text_offsets};

use super::read::{FilesRead, whole_set};

/// A pool's vocabulary: what its effects may name, the phrase books they
/// print with, and a key that changes when either does.
pub struct PoolVocabulary {
    pub vocab: Vocabulary,
    pub phrases: Phrasebooks,
    pub key: u64,
}

impl PoolVocabulary {
    /// The vocabulary of `pool`, whose loaded sets are `sets`; a broken
    /// keyword table or phrase book is reported, and the built-in one
    /// stands in.
    pub fn of(
        pool: &Pool,
        sets: &[LoadedSet],
        locales: &[&LocaleSummary],
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Self {
        let mut vocab = vocabulary(sets, pool_keywords(pool, diagnostics));
        vocab.set_names = set_names(locales);
        let phrases = Phrasebooks::of_files(&pool.data, diagnostics);
        let key = vocabulary_key(pool, &vocab);
        PoolVocabulary {
            vocab,
            phrases,
            key,
        }
    }
}

/// The effect checks that need the pool's vocabulary, for every set that
/// could be read; a set's findings are reused while the vocabulary is the
/// same.
pub(super) fn check_effects(
    pool: &Pool,
    read: &mut FilesRead<'_>,
    vocabulary: &PoolVocabulary,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let key = vocabulary.key;
    let (loaded, memo) = (&read.loaded, &read.memo);
    let found: Vec<(usize, Vec<Diagnostic>, bool)> = read
        .works
        .par_iter()
        .enumerate()
        .filter_map(|(w, work)| {
            let index = work.loaded?;
            if let Some((cached_key, found)) = &work.effects
                && *cached_key == key
            {
                return Some((w, found.clone(), false));
            }
            let file = &pool.sets[w];
            let set = match work.reused {
                true => std::borrow::Cow::Owned(whole_set(work, &loaded[index], file, memo)),
                false => std::borrow::Cow::Borrowed(&loaded[index]),
            };
            Some((w, check_set_effects(&set, &vocabulary.vocab, file), true))
        })
        .collect();
    for (w, found, fresh) in found {
        diagnostics.extend(found.iter().cloned());
        read.works[w].effects = Some((key, found));
        read.works[w].changed |= fresh;
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
    for (lang, id, name) in &vocab.set_names {
        for part in [lang, id, name] {
            key.update(part.as_bytes());
            key.update(b"\t");
        }
    }
    for file in &pool.data {
        if file.relative == "keywords.yaml" || file.relative.starts_with("phrases/") {
            key.update(file.relative.as_bytes());
            key.update(&file.hash().to_le_bytes());
        }
    }
    key.digest()
}

/// The keyword table of a pool: the built-in keywords and, when the pool
/// has a `keywords.yaml`, its own after them (a designer adds a set keyword
/// without touching code, and never loses a built-in one). A pool keyword
/// with a built-in's name or id is an error located at it, and left out; a
/// broken file is an error, and the built-in table stands alone.
pub(crate) fn pool_keywords(pool: &Pool, out: &mut Vec<Diagnostic>) -> Keywords {
    let mut keywords = Keywords::builtin();
    let Some(file) = pool.data_file("keywords.yaml") else {
        return keywords;
    };
    let Some(doc) = yaml::parse_reported(file.text(), &file.path, out) else {
        return keywords;
    };
    let own = match Keywords::from_json(&doc.to_json()) {
        Ok(own) => own,
        Err(problem) => {
            out.push(
                Diagnostic::error(Code::DataInvalid, &file.path, doc.span.start..doc.span.start, problem)
                    .with_label("keyword table")
                    .with_help("each keyword needs id, name {en, ja} and meaning (a reminder {en, ja} is optional); see docs/effect-language.md"),
            );
            return keywords;
        }
    };
    let entries = doc.get("keywords").and_then(Node::as_seq).unwrap_or(&[]);
    let builtin = Keywords::builtin();
    for (keyword, entry) in own.iter().zip(entries) {
        // A table that restates a built-in keyword as it is (a copy of the
        // built-in pool's folder) says nothing new.
        if builtin.by_id(&keyword.id) == Some(keyword) {
            continue;
        }
        if let Some(clash) = clash(&builtin, keyword, entry, &file.path) {
            out.push(clash);
            continue;
        }
        out.extend(reminder_differs(keyword, entry, &file.path));
        keywords.push(keyword.clone());
    }
    keywords
}

/// A pool keyword that has a built-in keyword's name or id.
fn clash(
    builtin: &Keywords,
    keyword: &Keyword,
    entry: &Node,
    path: &Arc<str>,
) -> Option<Diagnostic> {
    let (taken, field, at) = if let Some(b) = builtin.get(&keyword.name.en) {
        (b, "name", entry.get("name").and_then(|n| n.get("en")))
    } else {
        let b = builtin.by_id(&keyword.id)?;
        (b, "id", entry.get("id"))
    };
    let span = at.unwrap_or(entry).span.clone();
    Some(
        Diagnostic::error(
            Code::KeywordClash,
            path,
            span,
            format!(
                "the built-in keyword `{}` has this {field} already",
                taken.name.en
            ),
        )
        .with_label(format!("a built-in keyword's {field}"))
        .with_help(format!(
            "a pool's keywords add to the built-in ones: give this keyword another {field} (cards that write `{}` mean the built-in one)",
            taken.name.en
        )),
    )
}

/// Warnings for a hand-written reminder that does something else than the
/// meaning: the English compared as trees, the Japanese by its numbers.
fn reminder_differs(keyword: &Keyword, entry: &Node, path: &Arc<str>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let at = |lang: &str| {
        entry
            .get("reminder")
            .and_then(|r| r.get(lang))
            .unwrap_or(entry)
            .span
            .clone()
    };
    if let Some(difference) = keyword.override_differs() {
        out.push(
            Diagnostic::warning(
                Code::ReminderDiffers,
                path,
                at("en"),
                format!("the reminder of `{}` does something else than its meaning: {difference}", keyword.name.en),
            )
            .with_label("hand-written reminder")
            .with_help("remove `reminder.en`: the reminder is rendered from the meaning; or correct the meaning"),
        );
    }
    if let Some(japanese) = keyword.reminder.as_ref().and_then(|r| r.ja.as_ref())
        && let Some(meaning) = keyword.meaning_tree(keyword.number.then_some(2), None)
    {
        let vocab = Vocabulary::base_without_keywords();
        let rendered = effect::render(&meaning, Lang::Ja, &Phrasebook::builtin(Lang::Ja), &vocab);
        let (said, meant) = (numbers(&japanese.replace("{n}", "2")), numbers(&rendered));
        if said != meant {
            out.push(
                Diagnostic::warning(
                    Code::ReminderDiffers,
                    path,
                    at("ja"),
                    format!(
                        "the Japanese reminder of `{}` has the numbers {said:?}; its meaning renders `{rendered}` ({meant:?})",
                        keyword.name.en
                    ),
                )
                .with_label("hand-written reminder")
                .with_help("remove `reminder.ja`: the reminder is rendered from the meaning; or write the meaning's amounts"),
            );
        }
    }
    out
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
        set_names: Vec::new(),
        keywords,
    }
}

/// The sets' translated names the translation files give, as (language,
/// set id, name).
fn set_names(locales: &[&LocaleSummary]) -> Vec<(String, String, String)> {
    locales
        .iter()
        .filter_map(|l| Some((l.lang.clone(), l.set.clone()?, l.set_name.clone()?)))
        .collect()
}

/// The effect checks that need the pool for one set, from its file.
pub(crate) fn check_set_effects(
    set: &LoadedSet,
    vocab: &Vocabulary,
    file: &SourceFile,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for loaded in &set.cards {
        let (Some(tree), Some(effect_text)) = (&loaded.effect, &loaded.card.effect) else {
            continue;
        };
        // Sense is asked of effects the checks accept: a broken one has its
        // errors to fix first.
        let mut errors = effect::check(tree, vocab);
        errors.extend(effect::reads_back(tree, effect_text));
        let (findings, warn) = match errors.is_empty() {
            true => (effect::sense(tree, Some(loaded.card.kind), vocab), true),
            false => (errors, false),
        };
        if findings.is_empty() {
            continue;
        }
        // The file's text is read (if it was left unread) only to locate
        // findings.
        let offsets = text_offsets(
            file.text(),
            loaded.spans.effect.start,
            loaded.spans.effect_style,
            effect_text,
        );
        out.extend(findings.into_iter().map(|e| {
            let found = e.into_diagnostic(&set.path, &offsets);
            if warn { found.as_warning() } else { found }
        }));
    }
    out
}
