//! The game's words: what every layer names. Ids, the six elements, card
//! kinds, set kinds (which are also card rarities) and the base types.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A kebab-case identifier (`sunset-gulch`, `canyon-wyrm`).
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[schemars(extend("pattern" = "^[a-z0-9]+(-[a-z0-9]+)*$"))]
#[serde(transparent)]
pub struct Id(pub String);

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Id {
    /// Whether `text` is a kebab-case id: lower-case letters and digits,
    /// in words joined by single hyphens.
    pub fn is_valid(text: &str) -> bool {
        !text.is_empty()
            && text.split('-').all(|part| {
                !part.is_empty()
                    && part
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            })
    }

    /// The id any text suggests (`Sunset Gulch!` → `sunset-gulch`), for a
    /// help line; `my-id` when it has no letter or digit.
    pub fn suggested(text: &str) -> String {
        let mut out = String::new();
        for c in text.chars() {
            if c.is_ascii_alphanumeric() {
                out.push(c.to_ascii_lowercase());
            } else if !out.ends_with('-') && !out.is_empty() {
                out.push('-');
            }
        }
        let trimmed = out.trim_end_matches('-');
        if trimmed.is_empty() {
            "my-id".to_string()
        } else {
            trimmed.to_string()
        }
    }
}

/// A set's kind, which is also the rarity of every card in it (starter
/// decks are "grey", Pro Player cards have their own, and so do the Venue
/// Deck and the characters; see `docs/decisions.md`): one set of eleven
/// words for both.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum SetKind {
    Starter,
    Core,
    Expansion,
    Premium,
    Master,
    BronzePromo,
    SilverPromo,
    GoldPromo,
    ProPlayer,
    // The Venue Deck: venue cards only.
    Venue,
    // The characters players choose: character cards only.
    Character,
}

impl SetKind {
    pub const ALL: [SetKind; 11] = [
        SetKind::Starter,
        SetKind::Core,
        SetKind::Expansion,
        SetKind::Premium,
        SetKind::Master,
        SetKind::BronzePromo,
        SetKind::SilverPromo,
        SetKind::GoldPromo,
        SetKind::ProPlayer,
        SetKind::Venue,
        SetKind::Character,
    ];

    /// Physical cards in one set of this kind; `None` for the Core Set,
    /// the Venue Deck and a set of characters, whose sizes the rules leave
    /// open.
    pub fn physical_size(self) -> Option<u32> {
        match self {
            SetKind::Starter => Some(9),
            SetKind::Core | SetKind::Venue | SetKind::Character => None,
            SetKind::Expansion | SetKind::Premium | SetKind::Master => Some(12),
            SetKind::BronzePromo | SetKind::SilverPromo | SetKind::GoldPromo => Some(6),
            SetKind::ProPlayer => Some(5),
        }
    }

    /// Sets sold face down in the Store, which therefore carry a buy cost.
    pub fn is_store_set(self) -> bool {
        matches!(
            self,
            SetKind::Core | SetKind::Expansion | SetKind::Premium | SetKind::Master
        )
    }

    /// Sets whose every card exists once (promos, starters, Pro Player
    /// sets, venues and characters).
    pub fn single_copies(self) -> bool {
        matches!(
            self,
            SetKind::Starter
                | SetKind::BronzePromo
                | SetKind::SilverPromo
                | SetKind::GoldPromo
                | SetKind::ProPlayer
                | SetKind::Venue
                | SetKind::Character
        )
    }

    /// The one card kind a set of this kind holds, when it is bound to one:
    /// a venue set holds venues, a set of characters characters.
    pub fn card_kind(self) -> Option<CardKind> {
        match self {
            SetKind::Venue => Some(CardKind::Venue),
            SetKind::Character => Some(CardKind::Character),
            _ => None,
        }
    }

    /// The id (`bronze-promo`).
    pub fn as_str(self) -> &'static str {
        match self {
            SetKind::Starter => "starter",
            SetKind::Core => "core",
            SetKind::Expansion => "expansion",
            SetKind::Premium => "premium",
            SetKind::Master => "master",
            SetKind::BronzePromo => "bronze-promo",
            SetKind::SilverPromo => "silver-promo",
            SetKind::GoldPromo => "gold-promo",
            SetKind::ProPlayer => "pro-player",
            SetKind::Venue => "venue",
            SetKind::Character => "character",
        }
    }

    /// The English words (`bronze promo`).
    pub fn words(self) -> &'static str {
        match self {
            SetKind::BronzePromo => "bronze promo",
            SetKind::SilverPromo => "silver promo",
            SetKind::GoldPromo => "gold promo",
            SetKind::ProPlayer => "pro player",
            other => other.as_str(),
        }
    }
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum CardKind {
    Single,
    DeckBox,
    Accessory,
    // A Venue of the Venue Deck: rules for every player, no STAR.
    Venue,
    // A character: a Deckbuilding side and a Tournament side, no STAR.
    Character,
}

impl CardKind {
    pub const ALL: [CardKind; 5] = [
        CardKind::Single,
        CardKind::DeckBox,
        CardKind::Accessory,
        CardKind::Venue,
        CardKind::Character,
    ];

    /// The kinds a player brings, buys, sells and trades.
    pub const PLAYERS: [CardKind; 3] = [CardKind::Single, CardKind::DeckBox, CardKind::Accessory];

    pub fn as_str(self) -> &'static str {
        match self {
            CardKind::Single => "single",
            CardKind::DeckBox => "deck-box",
            CardKind::Accessory => "accessory",
            CardKind::Venue => "venue",
            CardKind::Character => "character",
        }
    }

    /// The English name, as a card's face prints it (`Deck Box`).
    pub fn title(self) -> &'static str {
        match self {
            CardKind::Single => "Single",
            CardKind::DeckBox => "Deck Box",
            CardKind::Accessory => "Accessory",
            CardKind::Venue => "Venue",
            CardKind::Character => "Character",
        }
    }

    /// Whether a player can own the card: bring it in a deck, collect,
    /// trade or count its copies. Venues and characters are the table's.
    pub fn is_players(self) -> bool {
        !matches!(self, CardKind::Venue | CardKind::Character)
    }

    /// Whether a card of this kind has a STAR (venues and characters do
    /// not: they are never bought, sold or collected).
    pub fn has_stars(self) -> bool {
        self.is_players()
    }

    /// The set kind a card of this kind must stand in, when it is bound to
    /// one (the converse of [`SetKind::card_kind`]).
    pub fn set_kind(self) -> Option<SetKind> {
        SetKind::ALL
            .into_iter()
            .find(|k| k.card_kind() == Some(self))
    }
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Element {
    Fire,
    Air,
    Light,
    Water,
    Earth,
    Dark,
}

impl Element {
    pub const ALL: [Element; 6] = [
        Element::Fire,
        Element::Air,
        Element::Light,
        Element::Water,
        Element::Earth,
        Element::Dark,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Element::Fire => "fire",
            Element::Air => "air",
            Element::Light => "light",
            Element::Water => "water",
            Element::Earth => "earth",
            Element::Dark => "dark",
        }
    }
}

/// The six base types; sets may declare more (`extra-types`).
pub const BASE_TYPES: [&str; 6] = ["animal", "myth", "construct", "citizen", "soldier", "mage"];

/// `1 card`, `2 cards`: a count with its noun in the number it takes. Every
/// message that counts says it through this (or [`with_article`]), so that
/// none says `1 sets`.
pub fn plural<N: PartialEq + From<u8> + fmt::Display>(n: N, one: &str, many: &str) -> String {
    let word = if n == N::from(1) { one } else { many };
    format!("{n} {word}")
}

/// `card` or `cards`: the noun alone, in the number `n` asks (the count
/// said elsewhere in the sentence).
pub fn plural_word<'a, N: PartialEq + From<u8>>(n: N, one: &'a str, many: &'a str) -> &'a str {
    if n == N::from(1) { one } else { many }
}

/// `a core set`, `an expansion set`: the indefinite article a word takes
/// (by its first letter's sound, as these words are spoken).
pub fn with_article(word: &str) -> String {
    let vowel = word
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    match vowel {
        true => format!("an {word}"),
        false => format!("a {word}"),
    }
}

#[cfg(test)]
mod counting {
    use super::*;

    #[test]
    fn a_count_takes_its_noun_in_the_right_number() {
        assert_eq!(plural(1u64, "set", "sets"), "1 set");
        assert_eq!(plural(0u64, "set", "sets"), "0 sets");
        assert_eq!(plural(2u64, "copy", "copies"), "2 copies");
    }

    #[test]
    fn a_word_takes_the_article_its_sound_asks() {
        assert_eq!(with_article("expansion set"), "an expansion set");
        assert_eq!(with_article("core set"), "a core set");
        assert_eq!(with_article("accessory"), "an accessory");
    }
}

#[cfg(test)]
mod kinds {
    use super::*;

    #[test]
    fn a_bound_card_kind_and_its_set_kind_name_each_other() {
        for kind in CardKind::ALL {
            if let Some(set) = kind.set_kind() {
                assert_eq!(set.card_kind(), Some(kind));
                assert!(set.single_copies() && !set.is_store_set());
                assert_eq!(set.physical_size(), None);
            }
            assert_eq!(kind.has_stars(), CardKind::PLAYERS.contains(&kind));
        }
        assert_eq!(CardKind::Venue.set_kind(), Some(SetKind::Venue));
        assert_eq!(CardKind::Single.set_kind(), None);
    }
}
