//! What is under the cursor: from a document's text and a byte offset,
//! the card, keyword, effect or glossary term written there, with the
//! bytes it spans.
//!
//! Everything is read with the readers the commands use: set, locale and
//! format files through [`yaml::parse`] (a span for every node), effect
//! text through the effect parser (its own spans, moved into the file by
//! the build's offset map, [`yaml::scalar_offsets`]), player inputs
//! through the deck and trade readers, Japanese text through the glossary
//! the translation checks use. [`card_refs`] lists every card a document
//! names, which finding references and renaming reuse.

use std::ops::Range;

use crate::effect::{self, Effect, KeywordLine, Line};
use crate::i18n::glossary::Glossary;
use crate::i18n::locale::{FileClass, classify};
use crate::pool::is_data_file;
use crate::rules::input::{self, InputFile};
use crate::yaml::{self, Node, NodeValue, scalar_offsets};

/// What a file is, for finding what it names: read from its path within
/// the pool by the pool reader's and the translation commands' rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// A set file: its cards' ids and names, their effects.
    Set,
    /// A translation of a set (`locales/<lang>/…`): card keys, text in
    /// `lang`.
    Locale { lang: String },
    /// A phrase book in another language (`phrases/<lang>.yaml`).
    Phrases { lang: String },
    /// A deck format (`formats/…`): the cards its filters name.
    Format,
    /// `keywords.yaml` and the other data files.
    Data,
    /// A player input (deck, collection, trade, score sheet): any file
    /// outside the pool, or one the pool does not read.
    Input,
}

impl Place {
    /// The place of a file at `relative` within its pool (none: outside
    /// it).
    pub fn of(relative: Option<&str>) -> Place {
        let Some(relative) = relative.filter(|r| r.ends_with(".yaml") || r.ends_with(".yml"))
        else {
            return Place::Input;
        };
        match classify(relative) {
            Some((lang, FileClass::Set)) => Place::Locale { lang },
            Some((lang, FileClass::Phrases)) => Place::Phrases { lang },
            None if relative.starts_with("formats/") => Place::Format,
            None if is_data_file(relative) => Place::Data,
            None => Place::Set,
        }
    }
}

/// How a card is named where it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Naming {
    /// A set file's `id:` of the card: where it is defined.
    Definition,
    /// A set file's `name:` of the card.
    Name,
    /// A locale file's key for the card, always its id.
    Key,
    /// A format's `card:`, always an id.
    FormatId,
    /// A player input's line: an id or any of the card's names.
    Input,
}

/// A card named in a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardRef {
    /// As written (an id or a name).
    pub written: String,
    /// The bytes it takes in the file (with its quotes, in YAML).
    pub span: Range<usize>,
    pub naming: Naming,
}

/// What is under the cursor.
#[derive(Debug, Clone, PartialEq)]
pub enum Thing {
    Card(CardRef),
    /// A keyword line of an effect (`Scurry.`, `Thwomp! 3.`).
    Keyword(KeywordLine),
    /// An effect text as a whole, of the card with this id (if it has one).
    Effect {
        tree: Effect,
        card: Option<String>,
    },
    /// An official Japanese term of the glossary ([`Glossary::terms`]'s
    /// index).
    Term(usize),
}

/// A thing and the bytes of the file it spans.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub thing: Thing,
    pub span: Range<usize>,
}

/// What is written at byte `offset` of a document at `path` (as a
/// player input is named, for its syntax) of the kind `place`.
pub fn locate(place: &Place, path: &str, text: &str, offset: usize) -> Option<Found> {
    let card = card_refs(place, path, text)
        .into_iter()
        .find(|r| r.span.start <= offset && offset <= r.span.end);
    if let Some(card) = card {
        let span = card.span.clone();
        return Some(Found {
            thing: Thing::Card(card),
            span,
        });
    }
    let doc = yaml::parse(text).ok()?;
    match place {
        Place::Set => effect_at(&doc, text, offset),
        Place::Locale { lang } | Place::Phrases { lang } if lang == Glossary::LANG => {
            term_at(&doc, text, offset)
        }
        _ => None,
    }
}

/// Every card a document names, in file order.
pub fn card_refs(place: &Place, path: &str, text: &str) -> Vec<CardRef> {
    if *place == Place::Input {
        return input_refs(path, text);
    }
    let Ok(doc) = yaml::parse(text) else {
        return Vec::new();
    };
    let mut refs = Vec::new();
    match place {
        Place::Set => set_refs(&doc, &mut refs),
        Place::Locale { .. } => {
            for entry in map_entries(doc.get("cards")) {
                push_scalar(&entry.key, Naming::Key, &mut refs);
            }
        }
        Place::Format => format_refs(&doc, &mut refs),
        _ => {}
    }
    refs
}

fn set_refs(doc: &Node, refs: &mut Vec<CardRef>) {
    for card in doc.get("cards").and_then(Node::as_seq).unwrap_or_default() {
        if let Some(id) = card.get("id") {
            push_scalar(id, Naming::Definition, refs);
        }
        if let Some(name) = card.get("name") {
            push_scalar(name, Naming::Name, refs);
        }
    }
}

/// Every `card:` a format's filters hold, at any depth (one id or a list).
fn format_refs(node: &Node, refs: &mut Vec<CardRef>) {
    match &node.value {
        NodeValue::Map(entries) => {
            for entry in entries {
                if entry.key.as_str() == Some("card") {
                    match entry.value.as_seq() {
                        Some(items) => {
                            for item in items {
                                push_scalar(item, Naming::FormatId, refs);
                            }
                        }
                        None => push_scalar(&entry.value, Naming::FormatId, refs),
                    }
                } else {
                    format_refs(&entry.value, refs);
                }
            }
        }
        NodeValue::Seq(items) => items.iter().for_each(|item| format_refs(item, refs)),
        _ => {}
    }
}

/// The cards of a player input, as the deck reader reads them (any list
/// of cards, zones and headers included), or the trade reader when the
/// YAML has the sides `a:` and `b:`. A score sheet names no card.
fn input_refs(path: &str, text: &str) -> Vec<CardRef> {
    let file = InputFile::new(path, text);
    let mut ignored = Vec::new();
    let is_trade = input::detect(path, text) == input::Syntax::Yaml
        && yaml::parse(text).is_ok_and(|doc| doc.get("a").is_some() || doc.get("b").is_some());
    let references = if is_trade {
        let trade = input::read_trade(&file, &mut ignored);
        [trade.a.cards, trade.b.cards].concat()
    } else {
        let deck = input::read_deck(&file, &mut ignored);
        let zoned = deck.sections.into_iter().flat_map(|s| s.cards);
        deck.cards.into_iter().chain(zoned).collect()
    };
    let mut refs: Vec<CardRef> = references
        .into_iter()
        .map(|r| CardRef {
            written: r.name,
            span: r.span,
            naming: Naming::Input,
        })
        .collect();
    refs.sort_by_key(|r| r.span.start);
    refs
}

fn map_entries(node: Option<&Node>) -> &[yaml::Entry] {
    match node.map(|n| &n.value) {
        Some(NodeValue::Map(entries)) => entries,
        _ => &[],
    }
}

fn push_scalar(node: &Node, naming: Naming, refs: &mut Vec<CardRef>) {
    if let Some(written) = node.as_str() {
        refs.push(CardRef {
            written: written.to_string(),
            span: node.span.clone(),
            naming,
        });
    }
}

/// A keyword of a card's effect under the cursor, else the effect.
fn effect_at(doc: &Node, text: &str, offset: usize) -> Option<Found> {
    let cards = doc.get("cards").and_then(Node::as_seq)?;
    let card = cards.iter().find(|c| contains(&c.span, offset))?;
    let node = card.get("effect").filter(|e| contains(&e.span, offset))?;
    let value = node.as_str()?;
    let tree = effect::parse(value).ok()?;
    let offsets = scalar_offsets(text, node);
    let at = |i: usize| offsets.get(i).or(offsets.last()).copied().unwrap_or(0);
    let inside = value_offset(&offsets, offset);
    let keyword = tree.lines.iter().find_map(|line| match line {
        Line::Keyword(k) if k.span.start <= inside && inside < k.span.end.max(k.span.start + 1) => {
            Some(k)
        }
        _ => None,
    });
    if let Some(keyword) = keyword {
        return Some(Found {
            span: at(keyword.name_span.start)..at(keyword.name_span.end),
            thing: Thing::Keyword(keyword.clone()),
        });
    }
    let id = card.get("id").and_then(Node::as_str).map(str::to_string);
    Some(Found {
        thing: Thing::Effect { tree, card: id },
        span: node.span.clone(),
    })
}

/// An official Japanese term in the text value under the cursor.
fn term_at(doc: &Node, text: &str, offset: usize) -> Option<Found> {
    let node = scalar_at(doc, offset)?;
    let value = node.as_str()?;
    let offsets = scalar_offsets(text, node);
    let inside = value_offset(&offsets, offset);
    let hit = Glossary::builtin()
        .japanese(value)
        .into_iter()
        .find(|hit| hit.range.start <= inside && inside < hit.range.end)?;
    let at = |i: usize| offsets.get(i).or(offsets.last()).copied().unwrap_or(0);
    Some(Found {
        thing: Thing::Term(hit.term),
        span: at(hit.range.start)..at(hit.range.end),
    })
}

/// The innermost scalar value holding `offset`.
fn scalar_at(node: &Node, offset: usize) -> Option<&Node> {
    match &node.value {
        NodeValue::Map(entries) => entries
            .iter()
            .find_map(|e| scalar_at(&e.value, offset).filter(|_| contains(&e.value.span, offset))),
        NodeValue::Seq(items) => items.iter().find_map(|item| scalar_at(item, offset)),
        NodeValue::Str(..) if contains(&node.span, offset) => Some(node),
        _ => None,
    }
}

fn contains(span: &Range<usize>, offset: usize) -> bool {
    span.start <= offset && offset < span.end
}

/// The byte of a scalar's value that file byte `offset` is (or follows),
/// through the value's offset map (`map[i]` is where value byte `i` is).
fn value_offset(offsets: &[usize], offset: usize) -> usize {
    offsets
        .partition_point(|&at| at <= offset)
        .saturating_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SET: &str = "id: tin\nname: Tin\nkind: core\ncards:\n  - id: tin-cat\n    name: \"Tin Cat\"\n    effect: |\n      Scurry.\n      Play: Gain 1 RP.\n";

    fn at(place: &Place, text: &str, needle: &str) -> Option<Found> {
        let offset = text.find(needle).expect("the needle is in the text");
        locate(place, "x.yaml", text, offset + 1)
    }

    #[test]
    fn a_files_place_is_read_from_its_path() {
        for (relative, place) in [
            (Some("tin.yaml"), Place::Set),
            (Some("more/tin.yml"), Place::Set),
            (Some("keywords.yaml"), Place::Data),
            (Some("formats/cube.yaml"), Place::Format),
            (
                Some("locales/ja/tin.yaml"),
                Place::Locale {
                    lang: "ja".to_string(),
                },
            ),
            (
                Some("phrases/ja.yaml"),
                Place::Phrases {
                    lang: "ja".to_string(),
                },
            ),
            (Some("deck.txt"), Place::Input),
            (None, Place::Input),
        ] {
            assert_eq!(Place::of(relative), place, "{relative:?}");
        }
    }

    #[test]
    fn a_set_files_id_and_name_are_its_card() {
        let found = at(&Place::Set, SET, "tin-cat").expect("the id");
        let Thing::Card(card) = found.thing else {
            panic!("{found:?}")
        };
        assert_eq!(
            (card.written.as_str(), card.naming),
            ("tin-cat", Naming::Definition)
        );
        let found = at(&Place::Set, SET, "Tin Cat").expect("the name");
        assert_eq!(&SET[found.span], "\"Tin Cat\"");
    }

    #[test]
    fn a_keyword_inside_a_block_effect_is_located_in_the_file() {
        let found = at(&Place::Set, SET, "Scurry").expect("the keyword");
        assert!(matches!(found.thing, Thing::Keyword(ref k) if k.name == "Scurry"));
        assert_eq!(&SET[found.span], "Scurry");
        let found = at(&Place::Set, SET, "Gain 1").expect("the effect");
        assert!(
            matches!(found.thing, Thing::Effect { ref card, .. } if card.as_deref() == Some("tin-cat"))
        );
    }

    #[test]
    fn a_keyword_in_a_quoted_effect_after_an_escape() {
        let text = "cards:\n  - id: a\n    effect: \"Play: Gain 1 RP.\\nScurry.\"\n";
        let found = at(&Place::Set, text, "Scurry").expect("the keyword");
        assert_eq!(&text[found.span], "Scurry");
    }

    #[test]
    fn a_locale_key_is_its_card_and_a_term_in_japanese_text_is_found() {
        let text =
            "set: tin\ncards:\n  tin-cat:\n    effect:\n      text: \"🐉プレイ：1RPを得る。\"\n";
        let ja = Place::Locale {
            lang: "ja".to_string(),
        };
        let found = at(&ja, text, "tin-cat").expect("the key");
        assert!(matches!(found.thing, Thing::Card(ref c) if c.naming == Naming::Key));
        let found = at(&ja, text, "プレイ").expect("the term");
        assert_eq!(&text[found.span.clone()], "プレイ：");
        let Thing::Term(term) = found.thing else {
            panic!()
        };
        assert_eq!(Glossary::builtin().terms[term].english(), "Play:");
    }

    #[test]
    fn a_formats_cards_and_an_inputs_lines() {
        let text = "formats:\n  - id: f\n    bounds:\n      - {where: {card: [mist-owl, tin-cat]}, max: 0}\n";
        let refs = card_refs(&Place::Format, "f.yaml", text);
        let written: Vec<&str> = refs.iter().map(|r| r.written.as_str()).collect();
        assert_eq!(written, ["mist-owl", "tin-cat"]);
        let deck = "character: Deques\n2 Tin Cat\nSideboard:\nmist-owl x3\n";
        let refs = card_refs(&Place::Input, "deck.txt", deck);
        let written: Vec<&str> = refs.iter().map(|r| &deck[r.span.clone()]).collect();
        // A bare count stays in the name until the card is looked up, as
        // the deck reader leaves it (a card may be named `1000 Needles`).
        assert_eq!(written, ["2 Tin Cat", "mist-owl"]);
        let trade = "a:\n  cards: [tin-cat]\nb:\n  cards: [Mist Owl]\n";
        let refs = card_refs(&Place::Input, "trade.yaml", trade);
        assert_eq!(refs.len(), 2);
    }
}
