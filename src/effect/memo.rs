//! Effect texts parsed once per build: a pool says the same thing on many
//! cards (a keyword line alone, a promo reprinting a card, the same
//! `Score:` bonus across a set), and parsing is a pure function of the text.

use std::sync::{Mutex, PoisonError};

use foldhash::HashMap;

use super::ast::Effect;
use super::error::EffectError;

/// What [`super::parse`] answers for one text.
pub type Parsed = Result<Effect, Vec<EffectError>>;

/// Separate locks, so the threads of a build seldom wait on each other.
const SHARDS: usize = 16;

/// Texts each shard remembers before it starts again: a pool with few
/// distinct texts keeps them all, and one whose texts are all different
/// holds a few megabytes at most (the memo's memory never grows with the
/// pool).
const TEXTS_PER_SHARD: usize = 256;

/// [`super::parse`], remembering the answers for texts seen again lately.
/// Shared by the threads of one build.
///
/// A text's tree is kept from its second sighting on: its first only
/// notes the text, so a pool whose texts are all different pays a look-up
/// per card, not a copy of every tree.
pub struct ParseMemo {
    shards: [Mutex<HashMap<Box<str>, Option<Parsed>>>; SHARDS],
    hasher: foldhash::fast::FixedState,
}

impl Default for ParseMemo {
    fn default() -> ParseMemo {
        ParseMemo::new()
    }
}

impl ParseMemo {
    pub fn new() -> ParseMemo {
        ParseMemo {
            shards: std::array::from_fn(|_| Mutex::new(HashMap::default())),
            hasher: foldhash::fast::FixedState::default(),
        }
    }

    /// The parse of `text`: remembered, or made now (with no lock held).
    pub fn parse(&self, text: &str) -> Parsed {
        use std::hash::BuildHasher;
        let shard = &self.shards[self.hasher.hash_one(text) as usize % SHARDS];
        let lock = || shard.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(Some(parsed)) = lock().get(text) {
            return parsed.clone();
        }
        let parsed = super::parse(text);
        let mut texts = lock();
        match texts.get_mut(text) {
            Some(kept) => *kept = Some(parsed.clone()),
            None => {
                if texts.len() >= TEXTS_PER_SHARD {
                    texts.clear();
                }
                texts.insert(text.into(), None);
            }
        }
        parsed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Asked in any order and any number of times, past what the memo
        /// holds, it answers as the parser does.
        #[test]
        fn the_memo_answers_as_the_parser(
            picks in proptest::collection::vec(0..TEXTS.len() + 40, 1..600),
        ) {
            let memo = ParseMemo::new();
            for pick in picks {
                let text = match TEXTS.get(pick) {
                    Some(text) => text.to_string(),
                    None => format!("Play: Gain {} RP.", pick * 97),
                };
                prop_assert_eq!(memo.parse(&text), super::super::parse(&text));
            }
        }
    }

    #[test]
    fn a_text_is_kept_from_its_second_sighting() {
        let memo = ParseMemo::new();
        let kept = |memo: &ParseMemo| -> Vec<bool> {
            let shards = memo.shards.iter().map(|s| s.lock().unwrap());
            shards
                .flat_map(|s| s.values().map(Option::is_some).collect::<Vec<_>>())
                .collect()
        };
        assert!(memo.parse("Scurry.").is_ok());
        assert_eq!(kept(&memo), [false]);
        assert!(memo.parse("Scurry.").is_ok());
        assert_eq!(kept(&memo), [true]);
    }

    #[test]
    fn a_memo_forgets_rather_than_grows() {
        let memo = ParseMemo::new();
        for n in 0..SHARDS * TEXTS_PER_SHARD * 2 {
            assert!(memo.parse(&format!("Play: Gain {n} RP.")).is_ok());
        }
        for shard in &memo.shards {
            assert!(shard.lock().unwrap().len() <= TEXTS_PER_SHARD);
        }
    }

    const TEXTS: [&str; 6] = [
        "Play: Gain 2 RP.",
        "Scurry.",
        "Play: Gain two RP.",
        "Score: If you have no cards in your hand, gain 2 RP.",
        "Play: Gain 2 RP.\nNot an ability",
        "",
    ];
}
