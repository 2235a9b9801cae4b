//! Player checks: deck, collection, trade and copy counts.
//!
//! Every check returns every [`Violation`] at once, each naming its stable
//! rule, saying how to fix it and listing the cards involved. Input problems
//! (an unknown card, a negative amount) are not violations but located
//! [`Diagnostic`](crate::diagnostics::Diagnostic)s, produced by [`input`].
//!
//! The checks themselves know nothing of files: they take resolved cards
//! with counts (`(&Card, u64)`, a count being physical copies).

use schemars::JsonSchema;
use serde::Serialize;

use crate::model::Card;
use crate::report::JsonDiagnostic;
use crate::words::Id;

pub mod characters;
pub mod check;
pub mod collection;
pub mod copies;
pub mod deck;
pub mod deck_diff;
pub mod format;
pub mod input;
pub mod missing;
pub mod score;
pub mod share;
pub mod stats;
pub mod trade;

/// A card of the pool with how many physical copies of it are meant.
pub type Counted<'a> = (&'a Card, u64);

/// One broken rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Violation {
    /// Stable kebab-case rule name (see `blades::rules::RULES`).
    pub rule: &'static str,
    /// What is wrong and how to fix it.
    pub message: String,
    /// Ids of the cards involved, in input order.
    pub cards: Vec<Id>,
}

impl Violation {
    pub fn new(rule: &'static str, message: impl Into<String>, cards: Vec<Id>) -> Self {
        Violation {
            rule,
            message: message.into(),
            cards,
        }
    }
}

/// Stable rule names. Never rename one: other tools match on them.
pub mod rule {
    pub const TOO_MANY_SINGLES: &str = "too-many-singles";
    pub const TOO_MANY_DECK_BOXES: &str = "too-many-deck-boxes";
    pub const TOO_MANY_ACCESSORIES: &str = "too-many-accessories";
    pub const DUPLICATE_CARD: &str = "duplicate-card";
    pub const TOO_FEW_CARDS: &str = "too-few-cards";
    pub const TOO_MANY_CARDS: &str = "too-many-cards";
    pub const NO_SHARED_SYMBOL: &str = "no-shared-symbol";
    pub const DUPLICATE_STAR: &str = "duplicate-star";
    pub const UNEQUAL_VALUE: &str = "unequal-value";
    pub const TOO_MANY_COPIES: &str = "too-many-copies";
    pub const SET_NOT_IN_PLAY: &str = "set-not-in-play";
    pub const NO_COLLECTION: &str = "no-collection";
    pub const TOO_MANY_IN_ZONE: &str = "too-many-in-zone";
    pub const TOO_FEW_IN_ZONE: &str = "too-few-in-zone";
    pub const TOO_MANY_OF_A_CARD: &str = "too-many-of-a-card";
    pub const NOT_A_PLAYERS_CARD: &str = "not-a-players-card";
}

/// Every rule with what it means (a test snapshots the list).
pub(crate) const RULES: &[(&str, &str)] = &[
    (
        rule::TOO_MANY_SINGLES,
        "a deck holds more singles than allowed",
    ),
    (
        rule::TOO_MANY_DECK_BOXES,
        "a deck holds more deck boxes than allowed",
    ),
    (
        rule::TOO_MANY_ACCESSORIES,
        "a deck holds more accessories than allowed",
    ),
    (rule::DUPLICATE_CARD, "a deck holds the same card twice"),
    (rule::TOO_FEW_CARDS, "a collection has fewer than 2 cards"),
    (rule::TOO_MANY_CARDS, "a collection has more than 8 cards"),
    (
        rule::NO_SHARED_SYMBOL,
        "no element or type is on every card of a collection",
    ),
    (
        rule::DUPLICATE_STAR,
        "two cards of a collection have the same STAR",
    ),
    (
        rule::UNEQUAL_VALUE,
        "the two sides of a trade are not worth the same",
    ),
    (
        rule::TOO_MANY_COPIES,
        "more copies of a card than the sets in play hold",
    ),
    (rule::SET_NOT_IN_PLAY, "a card's set is not in play"),
    (
        rule::NO_COLLECTION,
        "a binder holds no legal collection at all",
    ),
    (
        rule::TOO_MANY_IN_ZONE,
        "a deck's zone (or zones together) holds more cards of a sort than its format allows",
    ),
    (
        rule::TOO_FEW_IN_ZONE,
        "a deck's zone (or zones together) holds fewer cards of a sort than its format requires",
    ),
    (
        rule::TOO_MANY_OF_A_CARD,
        "a deck holds more copies of one card than its format allows",
    ),
    (
        rule::NOT_A_PLAYERS_CARD,
        "an input names a venue or a character, which no player owns, brings or trades",
    ),
];

/// The `&'static` name of a rule, for rules named in data files.
pub fn rule_named(name: &str) -> Option<&'static str> {
    RULES.iter().map(|(r, _)| *r).find(|r| *r == name)
}

/// How a check ended, worst last (the exit code follows it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    Legal,
    Violations,
    NotChecked,
}

impl Verdict {
    pub fn of(violations: &[Violation]) -> Verdict {
        if violations.is_empty() {
            Verdict::Legal
        } else {
            Verdict::Violations
        }
    }
}

/// What every report carries: the file, whether it could be checked, the
/// verdict and the findings.
#[derive(Debug, Default, Serialize, JsonSchema)]
pub struct Common {
    /// The input file as named on the command line.
    pub file: String,
    /// False when the input could not be checked (see `diagnostics`).
    pub checked: bool,
    /// True when the input was checked and breaks no rule.
    pub legal: bool,
    /// Every broken rule; when the input could not be checked whole (an
    /// unknown card, a title line), those the cards that were read break.
    pub violations: Vec<Violation>,
    /// Problems of the input itself (unknown card, malformed file), with
    /// their location; non-empty exactly when `checked` is false.
    pub diagnostics: Vec<JsonDiagnostic>,
}

impl Common {
    pub fn checked(file: &str, violations: Vec<Violation>) -> Self {
        Common {
            file: file.to_string(),
            checked: true,
            legal: violations.is_empty(),
            violations,
            diagnostics: Vec::new(),
        }
    }

    pub fn not_checked(file: &str, diagnostics: Vec<JsonDiagnostic>) -> Self {
        Common {
            file: file.to_string(),
            checked: false,
            legal: false,
            violations: Vec::new(),
            diagnostics,
        }
    }

    pub fn verdict(&self) -> Verdict {
        if !self.checked {
            Verdict::NotChecked
        } else {
            Verdict::of(&self.violations)
        }
    }
}

/// One violation for each venue or character `cards` name (each once, in
/// input order): they are the table's, so no deck, collection, trade or
/// count of copies holds one. The checks proper take the other cards.
pub fn not_players<'a>(cards: impl IntoIterator<Item = &'a Card>) -> Vec<Violation> {
    let table = cards.into_iter().filter(|c| !c.kind.is_players());
    let mut seen: Vec<&Card> = Vec::new();
    for card in table {
        if !seen.iter().any(|c| c.id == card.id) {
            seen.push(card);
        }
    }
    seen.into_iter().map(not_players_card).collect()
}

fn not_players_card(card: &Card) -> Violation {
    let why = match card.kind {
        crate::words::CardKind::Venue => {
            "Venues are revealed from the Venue Deck at the start of a round, for every player"
        }
        _ => "a character is chosen at the start of the game, beside the cards a player owns",
    };
    Violation::new(
        rule::NOT_A_PLAYERS_CARD,
        format!(
            "`{}` is a {}: it is no player's card ({why}); remove it",
            card.name,
            card.kind.title()
        ),
        vec![card.id.clone()],
    )
}

/// Ids of cards, each once, in first-seen order.
pub fn ids<'a>(cards: impl IntoIterator<Item = &'a Card>) -> Vec<Id> {
    let mut out: Vec<Id> = Vec::new();
    for card in cards {
        if !out.contains(&card.id) {
            out.push(card.id.clone());
        }
    }
    out
}

pub use crate::words::plural;

/// `` `A`, `B` and `C` ``.
pub(crate) fn list_names<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<String> = names.into_iter().map(|n| format!("`{n}`")).collect();
    match names.len() {
        0 => String::new(),
        1 => names[0].clone(),
        n => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_names_are_unique_kebab_case() {
        let mut names: Vec<&str> = RULES.iter().map(|(r, _)| *r).collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count);
        assert!(
            names
                .iter()
                .all(|n| n.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
        );
    }

    #[test]
    fn rule_list_is_stable() {
        let names: Vec<&str> = RULES.iter().map(|(r, _)| *r).collect();
        insta::assert_snapshot!(names.join("\n"));
    }

    #[test]
    fn lists_read_naturally() {
        assert_eq!(list_names(["A"]), "`A`");
        assert_eq!(list_names(["A", "B", "C"]), "`A`, `B` and `C`");
        assert_eq!(plural(1, "card", "cards"), "1 card");
    }
}
