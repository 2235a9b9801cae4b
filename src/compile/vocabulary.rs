//! What effect text may name in a pool (its sets, types and keyword table)
//! and the effect checks that need it.

use crate::diagnostics::{Code, Diagnostic};
use crate::effect::{self, Keywords, Vocabulary};
use crate::load::LoadedSet;
use crate::model::BASE_TYPES;
use crate::pool::Pool;
use crate::yaml::{self, text_offsets};

/// A key for what effect text may name and how it prints: the pool's sets
/// and types, its keyword table and its phrase books.
pub(super) fn vocabulary_key(pool: &Pool, vocab: &Vocabulary) -> u64 {
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
