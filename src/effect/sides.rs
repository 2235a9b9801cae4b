//! The two sides of a character card, read off its effect's timing words.
//!
//! The rulebook's character card "has two sides, a Deckbuilding side and a
//! Tournament side, giving you new powers during each phase". A character's
//! effect holds both sides' abilities at once: its `Deckbuilding:`
//! abilities are the Deckbuilding side and every other line the Tournament
//! side, so the sides are never written twice and can never disagree with
//! the timings.

use super::ast::{Effect, Line, Timing};

/// A side of a character card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CharacterSide {
    Deckbuilding,
    Tournament,
}

impl CharacterSide {
    pub const ALL: [CharacterSide; 2] = [CharacterSide::Deckbuilding, CharacterSide::Tournament];

    /// The side a line of an effect is on: a `Deckbuilding:` ability on the
    /// Deckbuilding side, anything else (a keyword works in the
    /// tournament) on the Tournament side.
    pub fn of(line: &Line) -> CharacterSide {
        match line {
            Line::Ability(a) if a.timing == Timing::Deckbuilding => CharacterSide::Deckbuilding,
            _ => CharacterSide::Tournament,
        }
    }

    /// The side's name as the card prints it: the rulebook's words, and
    /// the official edition's (デッキ構築面, トーナメント面); another
    /// language prints the English.
    pub fn title(self, lang: &str) -> &'static str {
        match (self, lang) {
            (CharacterSide::Deckbuilding, "ja") => "デッキ構築面",
            (CharacterSide::Tournament, "ja") => "トーナメント面",
            (CharacterSide::Deckbuilding, _) => "Deckbuilding side",
            (CharacterSide::Tournament, _) => "Tournament side",
        }
    }
}

/// The side of each line of `effect`, in order.
pub fn sides(effect: &Effect) -> Vec<CharacterSide> {
    effect.lines.iter().map(CharacterSide::of).collect()
}

/// The lines of a printed effect `text` on `side`, given the side of each
/// of its lines (the text prints one line per ability, as the tree holds
/// them); `None` when the text has another number of lines (a
/// translator's override written otherwise), which no side can be read
/// from.
pub fn lines_on<'t>(
    text: &'t str,
    sides: &[CharacterSide],
    side: CharacterSide,
) -> Option<Vec<&'t str>> {
    let lines: Vec<&str> = text.trim_end().lines().collect();
    (lines.len() == sides.len()).then(|| {
        (lines.into_iter().zip(sides))
            .filter(|(_, s)| **s == side)
            .map(|(line, _)| line)
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deckbuilding_abilities_are_one_side_and_every_other_line_the_other() {
        let text = "Deckbuilding: At the start of the Deckbuilding Phase, gain 3 Millennium Dollars.\n\
                    Scurry.\n\
                    Tournament: Whenever you win a clash, gain 1 RP.\n\
                    Deckbuilding: Cards in the Store cost 1 Millennium Dollar less.";
        let effect = crate::effect::parse(text).expect("it parses");
        let sides = sides(&effect);
        assert_eq!(
            sides,
            [
                CharacterSide::Deckbuilding,
                CharacterSide::Tournament,
                CharacterSide::Tournament,
                CharacterSide::Deckbuilding
            ]
        );
        let deckbuilding = lines_on(text, &sides, CharacterSide::Deckbuilding).unwrap();
        assert_eq!(deckbuilding.len(), 2);
        assert!(deckbuilding.iter().all(|l| l.starts_with("Deckbuilding:")));
        assert_eq!(
            lines_on(text, &sides, CharacterSide::Tournament).unwrap(),
            [
                "Scurry.",
                "Tournament: Whenever you win a clash, gain 1 RP."
            ]
        );
        // A text of other lines than the tree's says no side.
        assert_eq!(
            lines_on("One line.", &sides, CharacterSide::Tournament),
            None
        );
    }
}
