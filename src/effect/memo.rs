//! Effect texts parsed (and printed) once per build: a pool says the
//! same thing on many cards (a keyword line alone, a promo reprinting a
//! card, the same `Score:` bonus across a set), and parsing is a pure
//! function of the text, as printing is of the tree.

use std::sync::{Arc, Mutex, PoisonError};

use foldhash::HashMap;

use super::ast::Effect;
use super::error::EffectError;

/// What [`super::parse`] answers for one text, its tree shared by every
/// card that says it.
pub type Parsed = Result<Arc<Effect>, Vec<EffectError>>;

/// Separate locks, so the threads of a build seldom wait on each other.
const SHARDS: usize = 16;

/// Texts each shard remembers before it starts again: a pool with few
/// distinct texts keeps them all, and one whose texts are all different
/// holds a few megabytes at most (the memo's memory never grows with the
/// pool).
const TEXTS_PER_SHARD: usize = 256;

/// What a function of an effect text answered for the texts seen again
/// lately (its tree, its printed texts). Shared by the threads of a build.
///
/// A text's answer is kept from its second sighting on: its first only
/// notes the text, so a pool whose texts are all different pays a look-up
/// per card, not a copy of every answer.
pub struct TextMemo<V> {
    shards: [Mutex<HashMap<Box<str>, Option<V>>>; SHARDS],
    hasher: foldhash::fast::FixedState,
}

/// [`super::parse`] through a [`TextMemo`].
pub type ParseMemo = TextMemo<Parsed>;

impl<V: Clone> Default for TextMemo<V> {
    fn default() -> TextMemo<V> {
        TextMemo::new()
    }
}

impl<V: Clone> TextMemo<V> {
    pub fn new() -> TextMemo<V> {
        TextMemo {
            shards: std::array::from_fn(|_| Mutex::new(HashMap::default())),
            hasher: foldhash::fast::FixedState::default(),
        }
    }

    /// The answer for `text`: remembered, or `make` (run with no lock held).
    pub fn get_or(&self, text: &str, make: impl FnOnce() -> V) -> V {
        use std::hash::BuildHasher;
        let shard = &self.shards[self.hasher.hash_one(text) as usize % SHARDS];
        let lock = || shard.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(Some(answer)) = lock().get(text) {
            return answer.clone();
        }
        let answer = make();
        let mut texts = lock();
        match texts.get_mut(text) {
            Some(kept) => *kept = Some(answer.clone()),
            None => {
                if texts.len() >= TEXTS_PER_SHARD {
                    texts.clear();
                }
                texts.insert(text.into(), None);
            }
        }
        answer
    }
}

impl TextMemo<Parsed> {
    /// The parse of `text`.
    pub fn parse(&self, text: &str) -> Parsed {
        self.get_or(text, || super::parse(text).map(Arc::new))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Asked in any order and any number of times, the memo answers
        /// as the parser does (that it forgets rather than grows is the
        /// next tests').
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
                let remembered = memo.parse(&text).map(|tree| (*tree).clone());
                prop_assert_eq!(remembered, super::super::parse(&text));
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
