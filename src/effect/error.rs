//! Findings of the effect language: syntax errors from `parse`, semantic
//! errors from `check`. Every finding has a stable kebab-case code, a span in
//! the effect text, a message, a label for the span, and usually a help line.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use serde::Serialize;

use crate::diagnostics::{Code, Diagnostic};

/// One finding in an effect text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EffectError {
    /// Stable kebab-case code (see [`CODES`]).
    pub code: &'static str,
    /// Byte offsets into the effect text.
    pub span: Range<usize>,
    /// What is wrong.
    pub message: String,
    /// What the span shows.
    pub label: String,
    /// What to do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// The replacement the help names: this range of the effect text
    /// and its new text.
    #[serde(skip)]
    pub fix: Option<(Range<usize>, String)>,
}

impl EffectError {
    pub(crate) fn new(
        code: &'static str,
        span: Range<usize>,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> EffectError {
        debug_assert!(
            CODES.iter().any(|(c, _)| *c == code),
            "unlisted code {code}"
        );
        EffectError {
            code,
            span,
            message: message.into(),
            label: label.into(),
            help: None,
            fix: None,
        }
    }

    pub(crate) fn with_help(mut self, help: impl Into<String>) -> EffectError {
        self.help = Some(help.into());
        self
    }

    /// The finding with the replacement its help names.
    pub(crate) fn with_fix(
        mut self,
        span: Range<usize>,
        text: Option<impl Into<String>>,
    ) -> EffectError {
        self.fix = text.map(|text| (span, text.into()));
        self
    }

    pub(crate) fn with_help_opt(mut self, help: Option<String>) -> EffectError {
        self.help = help;
        self
    }
}

impl fmt::Display for EffectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for EffectError {}

/// Every code the effect language reports, with what it means. Codes are
/// stable: a test snapshots this list so none is renamed by accident.
pub const CODES: &[(&str, &str)] = &[
    (
        "effect-syntax",
        "the text does not follow the effect grammar",
    ),
    (
        "effect-too-long",
        "an effect text longer than the language allows (2,000 characters)",
    ),
    (
        "effect-too-deep",
        "card descriptions nested more deeply than the language allows (16 levels)",
    ),
    (
        "unknown-keyword",
        "a keyword line names no keyword of the keyword table",
    ),
    (
        "keyword-number-missing",
        "the keyword takes a number and none is written",
    ),
    (
        "keyword-number-unexpected",
        "a number follows a keyword that takes none",
    ),
    (
        "keyword-symbol-missing",
        "the keyword takes an element or a type and none is written after its name",
    ),
    (
        "keyword-symbol-wrong",
        "the word after a keyword's name is not the element or type it takes",
    ),
    ("duplicate-keyword", "the same keyword is written twice"),
    (
        "unknown-type",
        "an element, type or rarity word that the vocabulary does not know",
    ),
    (
        "unknown-set",
        "a set name or id that the vocabulary does not know",
    ),
    (
        "number-out-of-range",
        "a number outside what the rules allow (RP 1-99, STAR 1-20, ...)",
    ),
    (
        "reaction-without-trigger",
        "a Reaction has no `(when ...)` condition",
    ),
    (
        "trigger-not-allowed",
        "a `(when ...)` condition on a timing other than Reaction",
    ),
    (
        "outcome-without-clash",
        "a `Win:`/`Lose:`/`Tie:` sentence that follows no clash",
    ),
    (
        "duplicate-outcome",
        "the same clash result is given twice for one clash",
    ),
    (
        "pronoun-without-antecedent",
        "`it` or `them` refers to no card named before it",
    ),
    (
        "player-without-antecedent",
        "`their` or `that opponent` refers to no player named before it",
    ),
    (
        "ambiguous-reference",
        "`their` or `that opponent` could mean either of two opponents the line names",
    ),
    ("copy-self", "a copy effect that copies its own card"),
    ("mimic-self", "a card that takes its own elements or types"),
    ("attach-self", "a card attached to itself"),
    (
        "flip-face-down",
        "flipping face-down cards (flipping only turns cards face down)",
    ),
    (
        "face-down-attributes",
        "face-down cards asked for STAR, element, type, rarity or set, which they do not have",
    ),
    (
        "state-needs-continuous-timing",
        "a lasting state (cannot be flipped, +STAR, Mimicry) outside Ongoing or Top",
    ),
    (
        "other-without-card",
        "`other` or `adjacent` where there is no card to compare with",
    ),
    (
        "sense-flip-flipped",
        "a warning: flipping this card where it is face down already (a Flip ability, a Reaction to its own flip, a second flip)",
    ),
    (
        "sense-one-shot-lasting",
        "a warning: a one-shot action under `Ongoing:` or `Top:`, which never say when it happens",
    ),
    (
        "sense-gain-and-lose",
        "a warning: one sentence makes a player gain and lose (or pay) the same: RP, Millennium Dollars or VP",
    ),
    (
        "sense-opposite-modifiers",
        "a warning: opposite STAR changes on the same cards under the same condition",
    ),
    (
        "sense-never-holds",
        "a warning: a condition no game state meets",
    ),
    (
        "sense-never-there",
        "a warning: a card kind where it never is (a deck box or accessory in a tableau, or as a Top Card)",
    ),
    (
        "deck-limit-kind",
        "`your deck may include N more cards`: a deck's limits are per kind (singles, deck boxes, accessories)",
    ),
    (
        "sense-timing-kind",
        "a warning: a timing a card of this kind never reaches (a Venue or character played, flipped or in a tableau; `Tournament:` on a card of a tableau)",
    ),
    (
        "sense-venue-every-player",
        "a warning: a clause every player or each opponent does, on a Venue, whose rules each player follows as `you`",
    ),
    (
        "sense-reference",
        "a warning: `it`, `them` or `N of them` for cards that are not one, several or that many",
    ),
    (
        "whenever-needs-lasting-timing",
        "`whenever …` or `at the start of … turn` outside `Ongoing:`/`Top:`/`Deckbuilding:`",
    ),
    (
        "ambiguous-subjects",
        "subjects sharing a state where a later one's place, set or STAR could be the earlier ones' too",
    ),
    (
        "gives-to-self",
        "money given by a player to themselves (`you give … to you`)",
    ),
    (
        "wrong-phase",
        "a word of one part of the game in an ability of another: the tournament's in `Deckbuilding:` or `Game End:`, the Deckbuilding Phase's in the tournament or at the end of the game, a hand size outside `Deckbuilding:`",
    ),
    (
        "until-in-lasting-timing",
        "`until the end of …` in an `Ongoing:`/`Top:` ability, which lasts anyway",
    ),
    (
        "sense-until-nothing-lasts",
        "`until the end of …` over actions that each happen once",
    ),
    (
        "effect-reads-differently",
        "the English a card prints reads back as a different effect than the one it has",
    ),
    (
        "effect-not-formatted",
        "a warning of `fmt`: an effect left as written, as its canonical form would not read back as the same effect",
    ),
];

impl EffectError {
    /// This finding as a diagnostic in a file, its span moved from the
    /// effect text into the file through the value's offset map.
    pub fn into_diagnostic(self, path: &Arc<str>, offsets: &[usize]) -> Diagnostic {
        let at = |i: usize| offsets.get(i).or(offsets.last()).copied().unwrap_or(0);
        let span = at(self.span.start)..at(self.span.end).max(at(self.span.start));
        let mut diagnostic = Diagnostic::error(Code::Effect(self.code), path, span, self.message)
            .with_label(self.label);
        if let Some(help) = self.help {
            diagnostic = diagnostic.with_help(help);
        }
        // Only where the text stands in the file as written (no escape,
        // quote or folded line inside), with words any scalar style takes.
        if let Some((span, text)) = self.fix {
            let inline = !text.contains(['\n', '\r', '"', '\'', '\\', '#', ':']);
            if let Some(range) = as_written(&span, offsets)
                && inline
            {
                diagnostic = diagnostic.with_replacement(range, &text);
            }
        }
        diagnostic
    }
}

/// A range of an effect text as the range of the file it is written in,
/// when those bytes stand there as they are (no escape, quote or folded
/// line inside). An empty range (an insertion) is placed right after the
/// byte before it, when that is where the next byte stands too.
fn as_written(span: &Range<usize>, offsets: &[usize]) -> Option<Range<usize>> {
    if span.is_empty() {
        let after = offsets.get(span.start.checked_sub(1)?)? + 1;
        let next = offsets.get(span.start);
        return next
            .is_none_or(|&next| next == after)
            .then_some(after..after);
    }
    // The end as one past the last byte: the map may stop at it.
    let start = *offsets.get(span.start)?;
    let end = offsets.get(span.end - 1)? + 1;
    (end >= start && end - start == span.len()).then_some(start..end)
}
