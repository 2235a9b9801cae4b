//! The touchstone every build applies to every card: the English the card
//! prints for its abilities is the canonical source (`format`, which the
//! English phrase book reproduces; a property test holds them equal), and
//! that English must read back as the very tree the build keeps. A tree
//! whose English reads as another tree would print one meaning and play
//! another.

use super::ast::{Effect, Line};
use super::error::EffectError;

/// `None` when the printed English of `effect` reads back as `effect`; else
/// a finding over the whole text. `effect` is what `written` parsed to (or
/// was taken for), so canonical text needs no second parse.
pub fn reads_back(effect: &Effect, written: &str) -> Option<EffectError> {
    let english = super::format(effect);
    // Most cards are written canonically: the text is the one just parsed.
    if english == written.trim_end() {
        return None;
    }
    let reading = super::parse(&english).ok();
    if reading.as_ref() == Some(effect) {
        return None;
    }
    let differs = match &reading {
        Some(other) => first_different_line(effect, other),
        None => "it does not parse".to_string(),
    };
    Some(
        EffectError::new(
            "effect-reads-differently",
            0..written.len(),
            format!("the English this card prints reads back as a different effect: {differs}"),
            "printed English means something else",
        )
        .with_help(format!(
            "the card prints `{}`; reword the effect so that it says what it does in one reading",
            english.replace('\n', " / ")
        )),
    )
}

/// Which line of the printed English reads differently.
fn first_different_line(effect: &Effect, other: &Effect) -> String {
    let at = effect
        .lines
        .iter()
        .zip(&other.lines)
        .position(|(a, b)| a != b)
        .unwrap_or(effect.lines.len().min(other.lines.len()));
    match effect.lines.get(at) {
        Some(Line::Ability(a)) => format!("line {} (`{}:`)", at + 1, a.timing.word()),
        _ => format!("line {}", at + 1),
    }
}
