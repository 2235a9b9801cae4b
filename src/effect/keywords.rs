//! Set keywords as data (`cards/keywords.yaml`): each keyword has an id,
//! English and Japanese names and reminder texts, and its meaning written in
//! the effect language, so a designer adds a keyword without touching code.

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
    /// Reminder text printed after the name; `{n}` stands for the keyword's number.
    pub reminder: Texts,
    /// What the keyword does, in the effect language; `{n}` stands for the number.
    pub meaning: String,
    /// Does the keyword take a number (`Thwomp! 3.`)?
    #[serde(default)]
    pub number: bool,
}

impl Keyword {
    /// The meaning with `{n}` replaced, parsed.
    pub fn expand(&self, value: Option<u32>) -> Result<Effect, Vec<EffectError>> {
        let n = value.unwrap_or(1).to_string();
        super::parse(&self.meaning.replace("{n}", &n))
    }

    /// The reminder text in a language with `{n}` replaced.
    pub fn reminder_text(&self, lang: super::Lang, value: Option<u32>) -> String {
        let text = match lang {
            super::Lang::En => &self.reminder.en,
            super::Lang::Ja => &self.reminder.ja,
        };
        match value {
            Some(v) => text.replace("{n}", &v.to_string()),
            None => text.clone(),
        }
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
            let first_word = k.name.en.split_whitespace().next().unwrap_or_default();
            if super::Timing::ALL
                .iter()
                .any(|t| t.word().eq_ignore_ascii_case(first_word))
            {
                problems.push(format!(
                    "{at}: name `{}` cannot start with a timing word",
                    k.name.en
                ));
            }
            for (what, text) in [
                ("reminder.en", &k.reminder.en),
                ("reminder.ja", &k.reminder.ja),
                ("meaning", &k.meaning),
            ] {
                if text.contains("{n}") != k.number {
                    problems.push(if k.number {
                        format!("{at}: {what} must use `{{n}}` (the keyword takes a number)")
                    } else {
                        format!("{at}: {what} uses `{{n}}` but `number` is false")
                    });
                }
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
    !s.is_empty()
        && s.split('-').all(|part| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}
