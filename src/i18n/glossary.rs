//! The official Japanese glossary (`data/glossary.yaml`, compiled in) and
//! term matching in English and Japanese text.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::OnceLock;

use serde::Deserialize;

use crate::yaml;

/// What role a term plays; overrides must keep timing words, keywords and
/// icons of their English.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    #[default]
    Term,
    Timing,
    Keyword,
    Icon,
}

/// One glossary term.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Term {
    /// English forms.
    pub en: Vec<String>,
    /// Official Japanese forms; the first is the one to write.
    pub ja: Vec<String>,
    /// Variants that are errors.
    #[serde(default)]
    pub forbidden: Vec<String>,
    #[serde(default)]
    pub category: Category,
    /// Where the Japanese rulebook prints it.
    #[serde(default)]
    pub source: Option<String>,
}

impl Term {
    /// The English term as people name it (its first form).
    pub fn english(&self) -> &str {
        self.en.first().map_or("", String::as_str)
    }

    /// The Japanese to write.
    pub fn official(&self) -> &str {
        self.ja.first().map_or("", String::as_str)
    }

    /// Checked for count in effect overrides?
    pub fn counted(&self) -> bool {
        self.category != Category::Term
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GlossaryFile {
    terms: Vec<Term>,
}

/// A term found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// Index into [`Glossary::terms`].
    pub term: usize,
    /// Bytes of the text.
    pub range: Range<usize>,
}

/// How English forms match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Effect text and phrases: a lower-case form also matches capitalised.
    Text,
    /// Names: forms match exactly (every word of a name is capitalised).
    Names,
}

/// The glossary with its forms sorted for longest-first matching.
#[derive(Debug, Clone)]
pub struct Glossary {
    pub terms: Vec<Term>,
    /// (form, term), longest first.
    en_forms: Vec<(String, usize)>,
    ja_forms: Vec<(String, usize)>,
    /// Lower-cased first character → indices into `en_forms` (longest first).
    en_index: HashMap<char, Vec<usize>>,
    /// First character → indices into `ja_forms` (longest first).
    ja_index: HashMap<char, Vec<usize>>,
}

/// The glossary file shipped with the tool.
pub(crate) const BUILTIN_TEXT: &str = include_str!("../../data/glossary.yaml");

impl Glossary {
    /// The built-in glossary (parsed once).
    pub fn builtin() -> &'static Glossary {
        static GLOSSARY: OnceLock<Glossary> = OnceLock::new();
        GLOSSARY.get_or_init(|| {
            Glossary::parse(BUILTIN_TEXT).expect("data/glossary.yaml is valid (a test checks it)")
        })
    }

    /// Reads a glossary file.
    pub fn parse(text: &str) -> Result<Glossary, String> {
        let doc = yaml::parse(text).map_err(|e| e.message)?;
        let file: GlossaryFile =
            serde_json::from_value(doc.to_json()).map_err(|e| e.to_string())?;
        for term in &file.terms {
            if term.en.is_empty() || term.ja.is_empty() {
                return Err(format!(
                    "a term needs English and Japanese forms: {:?}",
                    term.en
                ));
            }
        }
        Ok(Glossary::new(file.terms))
    }

    pub fn new(terms: Vec<Term>) -> Glossary {
        let sorted = |pick: fn(&Term) -> &Vec<String>| {
            let mut forms: Vec<(String, usize)> = terms
                .iter()
                .enumerate()
                .flat_map(|(i, t)| pick(t).iter().map(move |f| (f.clone(), i)))
                .filter(|(f, _)| !f.is_empty())
                .collect();
            forms.sort_by_key(|f| std::cmp::Reverse(f.0.chars().count()));
            forms
        };
        let index = |forms: &[(String, usize)], fold: bool| {
            let mut index: HashMap<char, Vec<usize>> = HashMap::new();
            for (i, (form, _)) in forms.iter().enumerate() {
                if let Some(first) = form.chars().next() {
                    let key = if fold {
                        first.to_ascii_lowercase()
                    } else {
                        first
                    };
                    index.entry(key).or_default().push(i);
                }
            }
            index
        };
        let en_forms = sorted(|t| &t.en);
        let ja_forms = sorted(|t| &t.ja);
        Glossary {
            en_index: index(&en_forms, true),
            ja_index: index(&ja_forms, false),
            en_forms,
            ja_forms,
            terms,
        }
    }

    /// The language of the official terms: the glossary is the Japanese
    /// edition's.
    pub const LANG: &'static str = "ja";

    /// The official Japanese of an English word or id (`fire`, `deck-box`,
    /// `bronze-promo`), ignoring case.
    pub fn official_for(&self, english: &str) -> Option<&str> {
        let wanted = english.replace('-', " ").to_lowercase();
        self.terms
            .iter()
            .find(|t| t.en.iter().any(|f| f.to_lowercase() == wanted))
            .map(Term::official)
    }

    /// Glossary terms in an English text, longest match first, as whole
    /// words.
    pub fn english(&self, text: &str, mode: Mode) -> Vec<Hit> {
        let mut hits = Vec::new();
        let mut i = 0;
        while i < text.len() {
            let word_start = text[..i]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_ascii_alphanumeric());
            let first = text[i..].chars().next().map(|c| c.to_ascii_lowercase());
            let candidates = first.and_then(|c| self.en_index.get(&c));
            let found = (word_start && candidates.is_some())
                .then(|| {
                    candidates.into_iter().flatten().find_map(|&k| {
                        let (form, term) = &self.en_forms[k];
                        let len = matches_english(&text[i..], form, mode)?;
                        let after = text[i + len..].chars().next();
                        let ends_word = form
                            .chars()
                            .last()
                            .is_some_and(|c| c.is_ascii_alphanumeric());
                        (!ends_word || after.is_none_or(|c| !c.is_ascii_alphanumeric()))
                            .then_some((len, *term))
                    })
                })
                .flatten();
            match found {
                Some((len, term)) => {
                    hits.push(Hit {
                        term,
                        range: i..i + len,
                    });
                    i += len;
                }
                None => i += text[i..].chars().next().map_or(1, char::len_utf8),
            }
        }
        hits
    }

    /// Official Japanese forms in a text, longest match first.
    pub fn japanese(&self, text: &str) -> Vec<Hit> {
        let mut hits = Vec::new();
        let mut i = 0;
        while i < text.len() {
            let found = text[i..]
                .chars()
                .next()
                .and_then(|c| self.ja_index.get(&c))
                .into_iter()
                .flatten()
                .map(|&k| &self.ja_forms[k])
                .find(|(form, _)| text[i..].starts_with(form.as_str()));
            match found {
                Some((form, term)) => {
                    hits.push(Hit {
                        term: *term,
                        range: i..i + form.len(),
                    });
                    i += form.len();
                }
                None => i += text[i..].chars().next().map_or(1, char::len_utf8),
            }
        }
        hits
    }

    /// Forbidden variants in a text, except inside an official form:
    /// (term, range, the variant).
    pub fn forbidden(&self, text: &str) -> Vec<(usize, Range<usize>, &str)> {
        let official = self.japanese(text);
        let mut found = Vec::new();
        for (index, term) in self.terms.iter().enumerate() {
            for variant in &term.forbidden {
                for (at, _) in text.match_indices(variant.as_str()) {
                    let range = at..at + variant.len();
                    let inside = official
                        .iter()
                        .any(|h| h.range.start <= range.start && range.end <= h.range.end);
                    if !inside {
                        found.push((index, range, variant.as_str()));
                    }
                }
            }
        }
        found.sort_by_key(|(_, r, _)| r.start);
        found
    }
}

/// Length of `form` at the start of `text`, if it matches: exactly, or with
/// a capital first letter for a lower-case form in text mode.
fn matches_english(text: &str, form: &str, mode: Mode) -> Option<usize> {
    if text.starts_with(form) {
        return Some(form.len());
    }
    if mode == Mode::Names {
        return None;
    }
    let mut form_chars = form.chars();
    let first = form_chars.next()?;
    if !first.is_ascii_lowercase() {
        return None;
    }
    let mut text_chars = text.chars();
    let t = text_chars.next()?;
    (t == first.to_ascii_uppercase() && text_chars.as_str().starts_with(form_chars.as_str()))
        .then_some(form.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn english_terms(text: &str, mode: Mode) -> Vec<&'static str> {
        let g = Glossary::builtin();
        g.english(text, mode)
            .iter()
            .map(|h| g.terms[h.term].english())
            .collect()
    }

    fn japanese_terms(text: &str) -> Vec<&'static str> {
        let g = Glossary::builtin();
        g.japanese(text)
            .iter()
            .map(|h| g.terms[h.term].english())
            .collect()
    }

    #[test]
    fn the_builtin_glossary_parses_and_has_the_rulebook_terms() {
        let g = Glossary::builtin();
        let official = |en: &str| {
            g.terms
                .iter()
                .find(|t| t.en.iter().any(|f| f == en))
                .map(Term::official)
        };
        assert_eq!(official("Deck Box"), Some("デッキケース"));
        assert_eq!(official("Flip:"), Some("リバース："));
        assert_eq!(official("Mimicry"), Some("擬態"));
        assert_eq!(official("tableau"), Some("プレイエリア"));
        assert_eq!(official("mage"), Some("魔道士"));
        // Every form belongs to one term only.
        let mut forms: Vec<&str> = g
            .terms
            .iter()
            .flat_map(|t| t.en.iter().map(String::as_str))
            .collect();
        let count = forms.len();
        forms.sort_unstable();
        forms.dedup();
        assert_eq!(forms.len(), count);
    }

    #[test]
    fn english_matches_whole_words_longest_first() {
        assert_eq!(
            english_terms("Flip: Flip this card. Top: your Top Card.", Mode::Text),
            ["Flip:", "flip", "Top:", "Top Card"]
        );
        assert_eq!(
            english_terms("Blast Off PLUS. Blast Off.", Mode::Text),
            ["Blast Off PLUS", "Blast Off"]
        );
        // "Grandmaster" holds no "master"; names match exactly.
        assert_eq!(
            english_terms("Moonless Grandmaster", Mode::Names),
            Vec::<&str>::new()
        );
        assert_eq!(
            english_terms("Token Collector Kid", Mode::Names),
            Vec::<&str>::new()
        );
        assert_eq!(english_terms("Token Collector Kid", Mode::Text), ["token"]);
        assert_eq!(
            english_terms("Checkered Flag Deck Box", Mode::Names),
            ["Deck Box"]
        );
    }

    #[test]
    fn japanese_matches_longest_first() {
        assert_eq!(
            japanese_terms("プレイ：プレイエリアの"),
            ["Play:", "tableau"]
        );
        assert_eq!(
            japanese_terms("射出+。射出。"),
            ["Blast Off PLUS", "Blast Off"]
        );
        assert_eq!(japanese_terms("トップカード"), ["Top Card"]);
    }

    #[test]
    fn forbidden_variants_outside_official_terms() {
        let g = Glossary::builtin();
        let variants = |text: &str| -> Vec<String> {
            g.forbidden(text)
                .into_iter()
                .map(|(_, _, v)| v.to_string())
                .collect()
        };
        assert_eq!(variants("アクセサリーとデッキボックス"), ["デッキボックス"]);
        assert_eq!(variants("アクセサリを1枚"), ["アクセサリ"]);
        assert!(variants("アクセサリー").is_empty());
        assert_eq!(variants("ドッスン!"), ["ドッスン!"]);
        assert!(variants("ドッスン！").is_empty());
    }
}
