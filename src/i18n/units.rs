//! What the translation tools track: a translatable English text (a
//! *unit*), the facts of its card a translator is shown, and a set as
//! they see it.

use std::ops::Range;
use std::sync::Arc;

use super::keys::UnitKey;
use crate::words::{CardKind, Element, Id};
use crate::yaml::Node;

/// What a card unit's translator should know (PO extracted comments).
#[derive(Debug, Clone, PartialEq)]
pub struct CardInfo {
    pub kind: CardKind,
    pub stars: Option<u8>,
    pub elements: Vec<Element>,
    pub types: Vec<Id>,
    /// The card's English effect text (normalised).
    pub effect: Option<String>,
}

/// One translatable English text.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    pub key: UnitKey,
    /// The English text, normalised (see [`normalize`]).
    pub english: String,
    /// Must every language translate it? Effect overrides are optional: the
    /// effect language renders effects in every language.
    pub required: bool,
    /// Where the English is written.
    pub path: Arc<str>,
    pub span: Range<usize>,
    /// The English value in its file (to locate words inside it).
    pub node: Option<Node>,
    /// The card's facts, shared by its units.
    pub card: Option<Arc<CardInfo>>,
}

/// A set of the pool, as the translation tools see it.
#[derive(Debug, Clone)]
pub struct SetInfo {
    pub id: String,
    pub path: Arc<str>,
    /// Card ids in file order.
    pub cards: Vec<String>,
}
