//! One card's summary in every language: what `blades card show` prints
//! and what the editor server shows when the cursor is on a card (so the
//! two never say different things).

use std::fmt::Write;

use crate::i18n::glossary::Glossary;
use crate::i18n::{self, language_name};
use crate::model::{Card, Origin, Set};

/// The card as text: English, then each translation (or one language).
pub fn render(card: &Card, set: Option<&Set>, only: Option<&str>) -> String {
    let page = Page {
        card,
        set,
        langs: languages(card, only),
        glossary: Glossary::builtin(),
    };
    let mut out = String::new();
    // Names: one line per language.
    for lang in &page.langs {
        let _ = writeln!(out, "{}", page.name(lang));
    }
    field(&mut out, "id", vec![card.id.0.clone()]);
    field(&mut out, "set", page.per_lang(|lang| page.set_line(lang)));
    field(
        &mut out,
        "kind",
        page.per_lang(|lang| page.word(card.kind.as_str(), lang)),
    );
    if let Some(stars) = card.stars {
        field(&mut out, "STAR", vec![stars.to_string()]);
    }
    if !card.elements.is_empty() {
        let words = |lang: &str| page.words(card.elements.iter().map(|e| e.as_str()), lang);
        field(&mut out, "elements", page.per_lang(words));
    }
    if !card.types.is_empty() {
        let words = |lang: &str| page.words(card.types.iter().map(|t| t.0.as_str()), lang);
        field(&mut out, "types", page.per_lang(words));
    }
    field(&mut out, "copies", vec![card.copies.to_string()]);
    if card.effect.is_some() {
        field(
            &mut out,
            "effect",
            page.per_lang(|lang| page.effect_line(lang)),
        );
    }
    if card.flavor.is_some() {
        field(
            &mut out,
            "flavor",
            page.per_lang(|lang| page.flavor_line(lang)),
        );
    }
    if let Some(stale) = page.stale() {
        field(&mut out, "stale", vec![stale]);
    }
    out
}

/// The languages shown: English and every translation, or the one asked for.
fn languages<'a>(card: &'a Card, only: Option<&'a str>) -> Vec<&'a str> {
    let mut langs: Vec<&str> = Vec::new();
    if only.is_none_or(|l| l == i18n::SOURCE_LANG) {
        langs.push(i18n::SOURCE_LANG);
    }
    for lang in card.translations.keys() {
        if only.is_none_or(|l| l == lang) {
            langs.push(lang);
        }
    }
    if let Some(l) = only
        && !langs.contains(&l)
    {
        langs.push(l);
    }
    langs
}

/// One labelled field: its values one under the other, the label on the
/// first line.
fn field(out: &mut String, label: &str, values: Vec<String>) {
    for (i, value) in values.iter().enumerate() {
        for (j, line) in value.lines().enumerate() {
            let head = if i == 0 && j == 0 { label } else { "" };
            let _ = writeln!(out, "  {head:<9}{line}");
        }
    }
}

/// A card shown in several languages.
struct Page<'a> {
    card: &'a Card,
    set: Option<&'a Set>,
    langs: Vec<&'a str>,
    glossary: &'static Glossary,
}

fn is_en(lang: &str) -> bool {
    lang == i18n::SOURCE_LANG
}

impl Page<'_> {
    /// A field's value in each language, each different value once.
    fn per_lang(&self, value: impl Fn(&str) -> String) -> Vec<String> {
        let mut values: Vec<String> = Vec::new();
        for lang in &self.langs {
            let v = value(lang);
            if !values.contains(&v) {
                values.push(v);
            }
        }
        values
    }

    /// A game word in `lang`: the official Japanese term in Japanese (the
    /// glossary is the Japanese edition's), else the English word.
    fn word(&self, word: &str, lang: &str) -> String {
        if lang != "ja" {
            return word.to_string();
        }
        self.glossary
            .official_for(word)
            .map_or_else(|| word.to_string(), str::to_string)
    }

    fn words<'w>(&self, words: impl Iterator<Item = &'w str>, lang: &str) -> String {
        words
            .map(|w| self.word(w, lang))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn name(&self, lang: &str) -> String {
        let name = self.card.name_in(lang);
        match name.from {
            Origin::English => format!("{} ({} name missing)", name.text, language_name(lang)),
            _ => name.text.to_string(),
        }
    }

    fn set_line(&self, lang: &str) -> String {
        let card = self.card;
        let name = self.set.map_or_else(
            || card.set.0.clone(),
            |s| match is_en(lang) {
                true => s.name.clone(),
                false => s
                    .translations
                    .get(lang)
                    .map_or_else(|| s.name.clone(), |t| t.name.clone()),
            },
        );
        let kind = self.set.map_or("", |s| s.kind.as_str());
        format!("{name} ({}, {})", card.set, self.word(kind, lang))
    }

    /// The effect as the card prints it in `lang` (what its face shows).
    fn effect_line(&self, lang: &str) -> String {
        let (Some(effect), Some(printed)) =
            (self.card.effect_in(lang), self.card.printed_effect(lang))
        else {
            return String::new();
        };
        match effect.from {
            Origin::Rendered if !is_en(lang) => {
                format!("[rendered by the effect language] {}", printed.trim())
            }
            Origin::English => format!(
                "({} effect missing) {}",
                language_name(lang),
                printed.trim()
            ),
            _ => printed.trim().to_string(),
        }
    }

    fn flavor_line(&self, lang: &str) -> String {
        let Some(flavor) = self.card.flavor_in(lang) else {
            return String::new();
        };
        match flavor.from {
            Origin::English => format!(
                "({} flavor missing) {}",
                language_name(lang),
                flavor.text.trim()
            ),
            _ => flavor.text.trim().to_string(),
        }
    }

    /// The translated fields whose English changed since, if any.
    fn stale(&self) -> Option<String> {
        let stale: Vec<String> = self
            .card
            .translations
            .iter()
            .filter(|(lang, t)| !t.stale.is_empty() && self.langs.contains(&lang.as_str()))
            .map(|(lang, t)| format!("{lang}: {}", t.stale.join(", ")))
            .collect();
        (!stale.is_empty()).then(|| {
            format!(
                "{} (the English changed since; see `blades i18n status`)",
                stale.join("; ")
            )
        })
    }
}
