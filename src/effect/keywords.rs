//! Set keywords as data (`cards/keywords.yaml`): each keyword has an id,
//! English and Japanese names and its meaning written in the effect language,
//! so a designer adds a keyword without touching code. The reminder text
//! printed after the name is rendered from the meaning; a hand-written one is
//! a reviewed override, compared with the meaning by what it does.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use serde::{Deserialize, Serialize};

use super::ast::{Effect, Line};
use super::error::EffectError;
use super::grammar::{EffectParser, Rule};

/// A text in both card languages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Texts {
    pub en: String,
    pub ja: String,
}

/// One set keyword.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Keyword {
    /// Kebab-case id (`blast-off-plus`).
    pub id: String,
    /// The printed name; the English one is what effect text writes.
    pub name: Texts,
    /// A reviewed reminder printed instead of the one rendered from the
    /// meaning, in either language; `{n}` stands for the keyword's number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reminder: Option<Reminder>,
    /// What the keyword does, in the effect language; `{n}` stands for the number.
    pub meaning: String,
    /// Does the keyword take a number (`Thwomp! 3.`)?
    #[serde(default)]
    pub number: bool,
    /// Does the keyword take an element or a type, written after its name
    /// (`Oppress Soldier 3.`)? `{symbol}` stands for it in the meaning.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<Takes>,
    /// The meanings parsed so far, by their text (a card's keyword line is
    /// rendered in every language without parsing the meaning again).
    #[serde(skip)]
    trees: Trees,
}

/// What a parameterised keyword takes besides a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Takes {
    Element,
    Type,
}

impl Takes {
    /// The word a meaning is checked with when no card gives one.
    fn sample(self) -> &'static str {
        match self {
            Takes::Element => "fire",
            Takes::Type => "soldier",
        }
    }

    /// `an element` / `a type`.
    pub fn words(self) -> &'static str {
        match self {
            Takes::Element => "an element",
            Takes::Type => "a type",
        }
    }
}

/// A hand-written reminder in one language or both.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reminder {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub en: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ja: Option<String>,
}

/// Parsed meanings by their expanded text; a memo, so it compares equal
/// and clones empty.
#[derive(Default)]
struct Trees(RwLock<HashMap<String, Arc<Effect>>>);

impl Clone for Trees {
    fn clone(&self) -> Trees {
        Trees::default()
    }
}

impl PartialEq for Trees {
    fn eq(&self, _: &Trees) -> bool {
        true
    }
}

impl Eq for Trees {}

impl std::fmt::Debug for Trees {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Trees")
    }
}

impl Keyword {
    /// The meaning with `{n}` replaced, parsed.
    pub fn expand(&self, value: Option<u32>) -> Result<Effect, Vec<EffectError>> {
        super::parse(&self.expanded_text(value, None))
    }

    /// The meaning with `{n}` replaced (by 1 when no number is given) and
    /// `{symbol}` by the element or type (a sample one when none is given).
    fn expanded_text(&self, value: Option<u32>, symbol: Option<&str>) -> String {
        let mut text = self.meaning.replace("{n}", &value.unwrap_or(1).to_string());
        if let Some(takes) = self.symbol {
            let word = symbol.unwrap_or(takes.sample()).to_ascii_lowercase();
            text = text.replace("{symbol}", &word);
        }
        text
    }

    /// The meaning's tree for a number and symbol, parsed once for each;
    /// `None` when the meaning does not parse (a validated table's always
    /// does, with any element or known type).
    pub fn meaning_tree(&self, value: Option<u32>, symbol: Option<&str>) -> Option<Arc<Effect>> {
        let text = self.expanded_text(value, symbol);
        if let Some(tree) = self.trees.0.read().ok()?.get(&text) {
            return Some(tree.clone());
        }
        let tree = Arc::new(super::parse(&text).ok()?);
        if let Ok(mut trees) = self.trees.0.write() {
            trees.insert(text, tree.clone());
        }
        Some(tree)
    }

    /// The hand-written reminder in a language with `{n}` replaced, when
    /// there is one; else the reminder is rendered from the meaning.
    pub fn reminder_override(&self, lang: super::Lang, value: Option<u32>) -> Option<String> {
        let reminder = self.reminder.as_ref()?;
        let text = match lang {
            super::Lang::En => reminder.en.as_ref(),
            super::Lang::Ja => reminder.ja.as_ref(),
        }?;
        Some(match value {
            Some(v) => text.replace("{n}", &v.to_string()),
            None => text.clone(),
        })
    }

    /// How the hand-written English reminder differs from the meaning in
    /// what it does (see [`super::what_it_does`]), when it does; wording
    /// alone is no difference. `{n}` is compared as 2 in both.
    pub fn override_differs(&self) -> Option<String> {
        let text = self.reminder.as_ref()?.en.as_ref()?;
        let meaning = self.meaning_tree(self.number.then_some(2), None)?;
        let sample = self.symbol.map_or("", Takes::sample);
        let said = match super::parse(&text.replace("{n}", "2").replace("{symbol}", sample)) {
            Ok(tree) => tree,
            Err(_) => {
                return Some(
                    "it is not effect text, so what it does cannot be compared with the meaning"
                        .to_string(),
                );
            }
        };
        let (said, meant) = (super::what_it_does(&said), super::what_it_does(&meaning));
        (said != meant).then(|| {
            format!(
                "it does `{}`, the meaning `{}`",
                super::format(&said),
                super::format(&meant)
            )
        })
    }

    /// The printed name in a language.
    pub fn name_in(&self, lang: super::Lang) -> &str {
        match lang {
            super::Lang::En => &self.name.en,
            super::Lang::Ja => &self.name.ja,
        }
    }
}

/// The keyword table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Keywords {
    list: Vec<Keyword>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KeywordsFile {
    keywords: Vec<Keyword>,
}

/// The built-in keyword table, JSON-compatible YAML.
const BUILTIN: &str = include_str!("../../cards/keywords.yaml");

/// Drops whole-line `#` comments, so a JSON-compatible YAML file with
/// comments can be read by serde_json (JSON strings never span lines).
pub(crate) fn strip_comment_lines(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n")
}

impl Keywords {
    /// The keywords of `cards/keywords.yaml`, embedded in the binary.
    pub fn builtin() -> Keywords {
        let value: serde_json::Value = serde_json::from_str(&strip_comment_lines(BUILTIN))
            .expect("cards/keywords.yaml is JSON-compatible YAML");
        Keywords::from_json(&value).expect("cards/keywords.yaml is valid")
    }

    /// An empty table.
    pub fn empty() -> Keywords {
        Keywords::default()
    }

    /// Reads `{"keywords": [...]}` and validates every entry: ids kebab-case
    /// and unique, names unique and usable as keyword lines, `{n}` used
    /// exactly when the keyword takes a number, meanings that parse and check.
    pub fn from_json(value: &serde_json::Value) -> Result<Keywords, String> {
        let file: KeywordsFile =
            serde_json::from_value(value.clone()).map_err(|e| format!("keywords: {e}"))?;
        let mut problems = Vec::new();
        for (i, k) in file.keywords.iter().enumerate() {
            let at = format!("keywords[{i}] ({})", k.id);
            if !is_kebab(&k.id) {
                problems.push(format!("{at}: id must be kebab-case"));
            }
            if file.keywords[..i].iter().any(|o| o.id == k.id) {
                problems.push(format!("{at}: id used twice"));
            }
            if file.keywords[..i]
                .iter()
                .any(|o| o.name.en.eq_ignore_ascii_case(&k.name.en))
            {
                problems.push(format!("{at}: English name `{}` used twice", k.name.en));
            }
            if k.name.ja.trim().is_empty() {
                problems.push(format!("{at}: Japanese name is empty"));
            }
            use pest::Parser as _;
            if EffectParser::parse(Rule::keyword_name, &k.name.en)
                .map_or(true, |p| p.as_str() != k.name.en)
            {
                problems.push(format!(
                    "{at}: name `{}` must be capitalised words (`Blast Off PLUS`)",
                    k.name.en
                ));
            }
            if super::Timing::starting(&k.name.en).is_some() {
                problems.push(format!(
                    "{at}: name `{}` cannot start with a timing word",
                    k.name.en
                ));
            }
            let overrides = k.reminder.clone().unwrap_or_default();
            for (what, text) in [
                ("reminder.en", overrides.en.as_ref()),
                ("reminder.ja", overrides.ja.as_ref()),
                ("meaning", Some(&k.meaning)),
            ] {
                let Some(text) = text else { continue };
                if text.contains("{n}") != k.number {
                    problems.push(if k.number {
                        format!("{at}: {what} must use `{{n}}` (the keyword takes a number)")
                    } else {
                        format!("{at}: {what} uses `{{n}}` but `number` is false")
                    });
                }
            }
            if k.meaning.contains("{symbol}") != k.symbol.is_some() {
                problems.push(match k.symbol {
                    Some(takes) => format!(
                        "{at}: meaning must use `{{symbol}}` (the keyword takes {})",
                        takes.words()
                    ),
                    None => format!("{at}: meaning uses `{{symbol}}` but `symbol` is not set"),
                });
            }
            match k.expand(Some(1)) {
                Ok(effect) => {
                    if effect.lines.iter().any(|l| matches!(l, Line::Keyword(_))) {
                        problems.push(format!("{at}: a meaning cannot use keywords"));
                    }
                    if effect.lines.is_empty() {
                        problems.push(format!("{at}: meaning is empty"));
                    }
                    let vocab = super::Vocabulary {
                        keywords: Keywords::empty(),
                        ..super::Vocabulary::base_without_keywords()
                    };
                    for e in super::check(&effect, &vocab) {
                        problems.push(format!("{at}: meaning: {}", e.message));
                    }
                }
                Err(errors) => {
                    for e in errors {
                        problems.push(format!("{at}: meaning: {}", e.message));
                    }
                }
            }
        }
        if problems.is_empty() {
            Ok(Keywords {
                list: file.keywords,
            })
        } else {
            Err(problems.join("\n"))
        }
    }

    /// The keyword a keyword line names, and the element or type it is
    /// given: `Scurry` is Scurry; `Oppress Soldier` is Oppress with
    /// `Soldier` when Oppress takes an element or type (its last word, which
    /// the caller checks against the vocabulary).
    pub fn find<'a, 'n>(&'a self, written: &'n str) -> Option<(&'a Keyword, Option<&'n str>)> {
        if let Some(keyword) = self.get(written) {
            return Some((keyword, None));
        }
        let (head, last) = written.rsplit_once(' ')?;
        let keyword = self.get(head).filter(|k| k.symbol.is_some())?;
        Some((keyword, Some(last)))
    }

    /// Adds a keyword after those of the table (a pool's to the built-ins);
    /// the caller has made sure its id and name are new.
    pub fn push(&mut self, keyword: Keyword) {
        self.list.push(keyword);
    }

    /// The keyword with this English name, ignoring case.
    pub fn get(&self, name: &str) -> Option<&Keyword> {
        self.list
            .iter()
            .find(|k| k.name.en.eq_ignore_ascii_case(name))
    }

    /// The keyword with this id.
    pub fn by_id(&self, id: &str) -> Option<&Keyword> {
        self.list.iter().find(|k| k.id == id)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Keyword> {
        self.list.iter()
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

fn is_kebab(s: &str) -> bool {
    crate::words::Id::is_valid(s)
}
