//! Semantic tokens for the effect text inside a set file's YAML strings:
//! the effect parser's own parse tree, its nodes coloured by rule and moved
//! into the file the way the build moves an effect's findings there.

use std::ops::Range;

use lsp_types::{SemanticToken, SemanticTokenType, SemanticTokensLegend};

use super::position::{Encoding, position};
use crate::diagnostics::LineIndex;
use crate::effect::{self, Rule};
use crate::yaml::{self, Node};

/// The token types published, in the legend's order (a token's type is its
/// index here): what each colours is in `docs/editors.md`.
const TYPES: [SemanticTokenType; 7] = [
    // Timing words: `Play`, `Ongoing`, `Reaction`.
    SemanticTokenType::KEYWORD,
    // The game's keywords: `Scurry`, `Blast Off PLUS`.
    SemanticTokenType::MACRO,
    // Numbers: `2` in `gain 2 RP`, `3` in `Thwomp! 3`.
    SemanticTokenType::NUMBER,
    // What amounts count: `RP`, `VP`, `Millennium Dollars`, `STAR`.
    SemanticTokenType::ENUM_MEMBER,
    // Elements, types and rarities: `fire`, `mage`, `gold promo`.
    SemanticTokenType::TYPE,
    // Card kinds: `card`, `single`, `deck box`, `accessory`.
    SemanticTokenType::CLASS,
    // Players: `you`, `your`, `opponent`, `their`.
    SemanticTokenType::VARIABLE,
];

/// The legend `initialize` announces.
pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES.to_vec(),
        token_modifiers: Vec::new(),
    }
}

/// The token type (an index into [`TYPES`]) a parse-tree node is coloured
/// with, if any; what it holds is then not looked at.
fn token_type(rule: Rule) -> Option<u32> {
    Some(match rule {
        Rule::timing => 0,
        Rule::keyword_name => 1,
        Rule::number | Rule::keyword_value => 2,
        Rule::k_rp | Rule::k_vp | Rule::k_money | Rule::k_star => 3,
        Rule::symbol_word | Rule::rarity_phrase => 4,
        Rule::k_card | Rule::k_single | Rule::k_deck_box | Rule::k_accessory => 5,
        Rule::k_you
        | Rule::k_your
        | Rule::k_they
        | Rule::k_their
        | Rule::k_opponent
        | Rule::k_opponents
        | Rule::k_opponent_s
        | Rule::k_opponents_poss
        | Rule::k_player
        | Rule::k_player_s => 6,
        _ => return None,
    })
}

/// The tokens of every card's effect in a set file's text, in the
/// protocol's relative encoding; none for a text that is not a set file
/// (or not YAML yet, while it is typed).
pub fn semantic_tokens(text: &str, encoding: Encoding) -> Vec<SemanticToken> {
    let Ok(doc) = yaml::parse(text) else {
        return Vec::new();
    };
    let Some(cards) = doc.get("cards").and_then(Node::as_seq) else {
        return Vec::new();
    };
    let lines = LineIndex::new(text);
    let mut tokens = Vec::new();
    for effect in cards.iter().filter_map(|card| card.get("effect")) {
        let Some(value) = effect.as_str() else {
            continue;
        };
        let found = effect_tokens(value);
        if found.is_empty() {
            continue;
        }
        // The build's map from an effect's bytes to the file's.
        let offsets = yaml::scalar_offsets(text, effect);
        let at = |i: usize| offsets.get(i).or(offsets.last()).copied().unwrap_or(0);
        for (span, kind) in found {
            for piece in on_each_line(text, at(span.start)..at(span.end)) {
                tokens.push((piece, kind));
            }
        }
    }
    encode(text, &lines, &tokens, encoding)
}

/// The coloured tokens of one effect text: spans in it and token types,
/// in order, none inside another, the spaces after a word left out.
fn effect_tokens(value: &str) -> Vec<(Range<usize>, u32)> {
    let mut tokens: Vec<(Range<usize>, u32)> = Vec::new();
    for (rule, span) in effect::tree_spans(value) {
        let inside = tokens.last().is_some_and(|(last, _)| span.start < last.end);
        let Some(kind) = token_type(rule).filter(|_| !inside) else {
            continue;
        };
        let word = value.get(span.clone()).unwrap_or_default();
        let end = span.start + word.trim_end().len();
        if end > span.start {
            tokens.push((span.start..end, kind));
        }
    }
    tokens
}

/// A span of the file cut at its line ends (a token may not span lines; a
/// word can, in a folded or quoted scalar), each piece without the
/// indentation before it.
fn on_each_line(text: &str, span: Range<usize>) -> Vec<Range<usize>> {
    let mut pieces = Vec::new();
    let mut start = span.start;
    let within = text.get(span.clone()).unwrap_or_default();
    for line in within.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let indent = body.len() - body.trim_start().len();
        if body.len() > indent {
            pieces.push(start + indent..start + body.len());
        }
        start += line.len();
    }
    pieces
}

/// Tokens (file spans, each on one line, in order) as the protocol's
/// deltas: line and start relative to the token before, lengths in the
/// agreed encoding.
fn encode(
    text: &str,
    lines: &LineIndex,
    tokens: &[(Range<usize>, u32)],
    encoding: Encoding,
) -> Vec<SemanticToken> {
    let mut out = Vec::with_capacity(tokens.len());
    let (mut line, mut column) = (0, 0);
    for (span, kind) in tokens {
        let start = position(lines, text, span.start, encoding);
        let end = position(lines, text, span.end, encoding);
        let delta_line = start.line - line;
        let delta_start = match delta_line {
            0 => start.character - column,
            _ => start.character,
        };
        out.push(SemanticToken {
            delta_line,
            delta_start,
            length: end.character.saturating_sub(start.character),
            token_type: *kind,
            token_modifiers_bitset: 0,
        });
        (line, column) = (start.line, start.character);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(value: &str) -> Vec<(&str, u32)> {
        effect_tokens(value)
            .into_iter()
            .map(|(span, kind)| (&value[span], kind))
            .collect()
    }

    #[test]
    fn each_kind_of_word_is_coloured() {
        assert_eq!(
            words("Play: Gain 2 RP for each fire card in your tableau."),
            [
                ("Play", 0),
                ("2", 2),
                ("RP", 3),
                ("fire", 4),
                ("card", 5),
                ("your", 6)
            ]
        );
        assert_eq!(words("Thwomp! 3."), [("Thwomp!", 1), ("3", 2)]);
        assert_eq!(
            words("Reaction (when an opponent flips this card): Clash with an opponent."),
            [
                ("Reaction", 0),
                ("opponent", 6),
                ("card", 5),
                ("opponent", 6)
            ]
        );
    }

    #[test]
    fn a_line_that_does_not_parse_has_none_and_the_others_keep_theirs() {
        assert_eq!(words("Play: Gian 2 RP.\nScurry."), [("Scurry", 1)]);
    }

    #[test]
    fn tokens_are_in_order_on_one_line_each() {
        let text = "id: s\ncards:\n  - id: a\n    effect: Play: gain\n      2 RP.\n";
        // A plain scalar cannot hold `: `; a quoted one over two lines can.
        let text = text.replace("Play: gain\n      2 RP.", "\"Play:   gain\n      2 RP.\"");
        let tokens = semantic_tokens(&text, Encoding::Utf16);
        let lines: Vec<(u32, u32, u32)> = tokens
            .iter()
            .map(|t| (t.delta_line, t.delta_start, t.length))
            .collect();
        assert_eq!(lines, [(3, 13, 4), (1, 6, 1), (0, 2, 2)]);
    }
}
