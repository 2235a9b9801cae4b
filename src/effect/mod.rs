//! The effect language: what a card's effect text says, written for set
//! designers in the words of the printed cards, one ability per line.
//!
//! ```text
//! Play: Gain 2 RP for each fire card in your tableau.
//! Reaction (when an opponent flips this card): Clash with an opponent. Win: gain 3 RP.
//! Ongoing: Adjacent cards cannot be flipped.
//! Scurry.
//! ```
//!
//! The pipeline: [`parse`] (syntax, every line on its own) → [`check`]
//! (vocabulary and rules visible on the card) → [`render`] (printed text in a
//! language, through a [`Phrasebook`]) or [`format`] (canonical source).
//! [`holdings`] says what a player holds the effect deals in (for search).
//! Keywords ([`Keywords`]) and phrases are data in `cards/`. The grammar is
//! `grammar/effect.pest`; the reference is `docs/effect-language.md`.

pub mod ast;
mod check;
mod error;
mod format;
mod grammar;
mod hints;
mod holdings;
mod keywords;
mod memo;
mod parser;
mod phase;
pub mod phrases;
mod refer;
mod render;
mod sense;
pub mod sides;
mod syntax_error;
mod touchstone;

pub use ast::*;
pub use error::{CODES, EffectError};
pub use format::{OutlineLine, outline};
pub use holdings::{Holding, Holdings, holdings};
pub use keywords::{Keyword, Keywords, Reminder, Takes, Texts};
pub use memo::{ParseMemo, Parsed, TextMemo};
pub use phrases::{Phrasebook, Phrasebooks};
pub use sides::{CharacterSide, sides};
pub use touchstone::reads_back;

use serde::{Deserialize, Serialize};

/// The six base types; sets may declare more.
pub const BASE_TYPES: [&str; 6] = ["animal", "myth", "construct", "citizen", "soldier", "mage"];

/// A card language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Lang {
    En,
    Ja,
}

/// `blades effect render --format json`: the card text of one effect.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Rendered {
    pub lang: Lang,
    /// The text as the card prints it, one line per ability.
    pub text: String,
}

/// What effect text may name beyond the fixed words: types (the six base
/// types plus those sets declare), sets (id, name) and keywords. Elements,
/// rarities and kinds are fixed by the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vocabulary {
    /// Type ids (`mage`, `deques`).
    pub types: Vec<String>,
    /// Sets as (id, name).
    pub sets: Vec<(String, String)>,
    /// Sets' translated names as (language code, id, name): an effect
    /// rendered in that language names the set so.
    pub set_names: Vec<(String, String, String)>,
    pub keywords: Keywords,
}

impl Vocabulary {
    /// The base types, no sets, and the built-in keywords.
    pub fn base() -> Vocabulary {
        Vocabulary {
            keywords: Keywords::builtin(),
            ..Vocabulary::base_without_keywords()
        }
    }

    /// The base types, no sets, no keywords.
    pub fn base_without_keywords() -> Vocabulary {
        Vocabulary {
            types: BASE_TYPES.iter().map(|t| t.to_string()).collect(),
            sets: Vec::new(),
            set_names: Vec::new(),
            keywords: Keywords::empty(),
        }
    }
}

impl Default for Vocabulary {
    fn default() -> Vocabulary {
        Vocabulary::base()
    }
}

/// Parses effect text. Every line is parsed on its own, so the errors of all
/// bad lines are reported together; spans are byte offsets into `text`.
pub fn parse(text: &str) -> Result<Effect, Vec<EffectError>> {
    parser::parse(text)
}

/// Semantic errors: unknown element/type/keyword/set, numbers out of range,
/// Reactions without trigger, and what the rulebook forbids that the card
/// itself shows (a copy effect that copies its own card, flipping face-down
/// cards, …). Returns every finding, in text order per line.
pub fn check(effect: &Effect, vocab: &Vocabulary) -> Vec<EffectError> {
    check::check(effect, vocab)
}

/// Sense warnings of a checked effect on a card of `kind` (when known):
/// what does nothing or contradicts itself, each with a fix. Run on effects
/// `check` accepts.
pub fn sense(
    effect: &Effect,
    kind: Option<crate::words::CardKind>,
    vocab: &Vocabulary,
) -> Vec<EffectError> {
    sense::sense(effect, kind, vocab)
}

/// The effect as what it does, for comparing two texts by meaning: the flip
/// an Action or Reaction makes anyway and its `you may` are dropped.
pub fn what_it_does(effect: &Effect) -> Effect {
    sense::what_it_does(effect)
}

/// Printed card text in a language, from the phrase templates.
pub fn render(effect: &Effect, lang: Lang, phrases: &Phrasebook, vocab: &Vocabulary) -> String {
    render::render(effect, lang, phrases, vocab)
}

pub use render::render_from_phrases;

/// Canonical English source: `parse(format(e)) == e` (spans aside), and
/// formatting is idempotent.
pub fn format(effect: &Effect) -> String {
    format::format(effect)
}

/// The grammar's rules, for tools that want to walk pest's parse tree.
pub use grammar::Rule;
pub use parser::{MAX_EFFECT_CHARS, MAX_NESTING, tree_spans};

/// The pest parser itself (`EffectParser::parse(Rule::ability_line, line)`).
pub use grammar::EffectParser;
