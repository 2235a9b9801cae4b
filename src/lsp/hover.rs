//! Hover: what the thing under the cursor ([`super::locate`]) is, as
//! markdown, in the words the rest of the tool prints it with: a card as
//! `blades card show` says it ([`crate::summary`]), an effect and a
//! keyword as the card prints them (the effect renderer and its phrase
//! books), a Japanese term with the glossary's English.

use std::path::Path;

use super::index::{CardKey, PoolIndex};
use super::locate::{Found, Thing};
use crate::effect::{self, Effect, KeywordLine, Lang, Line, Timing};
use crate::i18n::glossary::Glossary;
use crate::model::Card;

/// The markdown to show for `found`, if there is something to say.
/// `workspace` is the folder where the commands' default outputs are
/// looked for (a card's face).
pub fn hover(found: &Found, index: &PoolIndex, workspace: &Path) -> Option<String> {
    match &found.thing {
        Thing::Card(reference) => {
            let (key, _) = index.resolve(reference)?;
            card(index, key, workspace)
        }
        Thing::Keyword(line) => keyword(line, index),
        Thing::Effect { tree, card } => Some(effect_text(tree, card.as_deref(), index)),
        Thing::Term(term) => Some(term_text(*term)),
    }
}

/// The card's summary as its last build made it, and a link to its face
/// when one was drawn.
fn card(index: &PoolIndex, key: CardKey, workspace: &Path) -> Option<String> {
    let defined = index.card(key)?;
    let mut out = match index.made(key) {
        Some((card, set)) => {
            format!(
                "```text\n{}```",
                crate::summary::render(&card, set.as_ref(), None)
            )
        }
        // A card the pool has not built yet (its set has an error).
        None => format!(
            "**{}** (`{}`)\n\nnot built yet: `blades build` says why",
            defined.name.as_deref().unwrap_or(&defined.id),
            defined.id
        ),
    };
    if let Some(face) = face_of(workspace, &defined.id) {
        out.push_str(&format!("\n\n[face]({face})"));
    }
    Some(out)
}

/// Where the commands write a card's English face by default: `blades
/// render` into `dist/faces/`, `blades gallery` into
/// `dist/gallery/faces/`; the first that exists, as a `file:` URI.
pub fn face_of(workspace: &Path, id: &str) -> Option<String> {
    let file = crate::faces::render::file_name(id, "en");
    ["dist/faces", "dist/gallery/faces"]
        .iter()
        .map(|dir| workspace.join(dir).join(&file))
        .find(|path| path.is_file())
        .and_then(|path| super::check::uri_of(&path))
        .map(|uri| uri.as_str().to_string())
}

/// A keyword line as the card prints it, with its reminder, in both
/// languages.
fn keyword(line: &KeywordLine, index: &PoolIndex) -> Option<String> {
    let vocabulary = index.vocabulary();
    let (keyword, _) = vocabulary.vocab.keywords.find(&line.name)?;
    let alone = Effect {
        lines: vec![Line::Keyword(line.clone())],
    };
    let printed = |lang: Lang| {
        effect::render(
            &alone,
            lang,
            vocabulary.phrases.get(lang),
            &vocabulary.vocab,
        )
    };
    Some(format!(
        "**{}** ({}), keyword `{}`\n\n{}\n\n{}",
        keyword.name.en,
        keyword.name.ja,
        keyword.id,
        printed(Lang::En),
        printed(Lang::Ja)
    ))
}

/// An effect as the card prints it in English and Japanese, and what
/// each of its timing words means.
fn effect_text(tree: &Effect, card: Option<&str>, index: &PoolIndex) -> String {
    let vocabulary = index.vocabulary();
    let built = card.and_then(|id| built_card(index, id, tree));
    let printed = |lang: Lang, code: &str| match built.as_ref().and_then(|c| c.effect_in(code)) {
        Some(shown) => shown.text.trim().to_string(),
        None => effect::render(tree, lang, vocabulary.phrases.get(lang), &vocabulary.vocab),
    };
    let mut out = format!("{}\n\n{}", printed(Lang::En, "en"), printed(Lang::Ja, "ja"));
    let mut timings: Vec<Timing> = Vec::new();
    for line in &tree.lines {
        if let Line::Ability(ability) = line
            && !timings.contains(&ability.timing)
        {
            timings.push(ability.timing);
        }
    }
    if !timings.is_empty() {
        out.push_str("\n\n---");
    }
    let japanese = vocabulary.phrases.get(Lang::Ja);
    for timing in timings {
        let key = format!("timing.{}", timing.phrase_key());
        out.push_str(&format!(
            "\n\n**{}** ({}): {}",
            timing.word(),
            japanese.get(&key, &[]),
            timing.when()
        ));
    }
    out
}

/// The card of the last build when its effect is the one written now: its
/// printed texts are what its face shows (a reviewed translation
/// included).
fn built_card(index: &PoolIndex, id: &str, tree: &Effect) -> Option<Card> {
    let (card, _) = index.made(index.by_id(id)?)?;
    let same = effect::parse(card.effect.as_deref()?).is_ok_and(|built| built == *tree);
    same.then_some(card)
}

/// A glossary term: its official Japanese, its English, where the
/// rulebook prints it.
fn term_text(term: usize) -> String {
    let term = &Glossary::builtin().terms[term];
    let mut out = format!(
        "**{}**: official Japanese of `{}`",
        term.official(),
        term.english()
    );
    if term.en.len() > 1 {
        let forms: Vec<String> = term.en.iter().map(|f| format!("`{f}`")).collect();
        out.push_str(&format!(" ({})", forms.join(", ")));
    }
    if let Some(source) = &term.source {
        out.push_str(&format!("\n\nrulebook: {source}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The timing table of docs/effect-language.md says what [`when`]
    /// says, for every timing word.
    #[test]
    fn each_timing_is_explained_as_the_language_reference_says() {
        let docs = include_str!("../../docs/effect-language.md");
        for timing in Timing::ALL {
            let row = docs
                .lines()
                .find(|l| l.starts_with(&format!("| `{}", timing.word())))
                .unwrap_or_else(|| panic!("no row for {}", timing.word()));
            let explained = row.split('|').nth(3).unwrap_or_default().trim();
            let explained = explained.split(" (see ").next().unwrap_or_default();
            assert_eq!(explained, timing.when(), "{}", timing.word());
        }
    }
}
