//! "Did you mean …?": the nearest known word to a misspelling.

/// The candidate closest to `word` by edit distance, when it is close enough
/// to be a plausible typo (case is ignored).
pub(crate) fn closest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    nearest(word, candidates, 1).into_iter().next()
}

/// [`closest`], passing over candidates that are the word itself (in any
/// case): for a word the reader refused, its own spelling is no suggestion.
pub(crate) fn closest_other<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let lower = word.to_lowercase();
    closest(
        word,
        candidates.into_iter().filter(|c| c.to_lowercase() != lower),
    )
}

/// Up to `limit` plausible candidates, nearest first (ties keep input order).
///
/// One question: the candidates are looked at as they come, and only those
/// of about the word's length are lower-cased and measured, so a question
/// asked once of a whole pool's names (an unknown card in `blades serve`,
/// 200,000 names) allocates for the few that could be near, where a
/// [`Lexicon`] keeps every word ready for many questions.
pub fn nearest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    limit: usize,
) -> Vec<&'a str> {
    let asked = Asked::new(word);
    let scored = candidates
        .into_iter()
        .enumerate()
        .filter_map(|(order, candidate)| {
            let chars = lower_chars(candidate);
            if !asked.fits(chars) {
                return None;
            }
            let lower = candidate.to_lowercase();
            let distance = asked.distance(&lower, chars, &bag(&lower))?;
            Some((distance, order, candidate))
        })
        .collect();
    best(scored, limit)
        .into_iter()
        .map(|(_, word)| word)
        .collect()
}

/// The characters of `word` lower-cased, counted without making it.
fn lower_chars(word: &str) -> usize {
    word.chars().map(|c| c.to_lowercase().count()).sum()
}

/// A word asked about, lower-cased, with what rules candidates out.
struct Asked {
    word: String,
    chars: usize,
    bag: Vec<char>,
    /// The lengths a candidate can have: about one edit per three
    /// characters of the longer word, and the distance is at least the
    /// difference in length, so only words from 2/3 to 3/2 of this one's
    /// length (and one more) can qualify.
    shortest: usize,
    longest: usize,
}

impl Asked {
    fn new(word: &str) -> Asked {
        let word = word.to_lowercase();
        let chars = word.chars().count();
        Asked {
            bag: bag(&word),
            shortest: (chars * 2 / 3).saturating_sub(1),
            longest: chars.saturating_mul(3) / 2 + 1,
            word,
            chars,
        }
    }

    /// Whether a word of `chars` characters (lower-cased) can qualify.
    fn fits(&self, chars: usize) -> bool {
        (self.shortest..=self.longest).contains(&chars)
    }

    /// The edit distance to a lower-cased word of `chars` characters and
    /// bag of letters `bag`, when within its budget.
    fn distance(&self, lower: &str, chars: usize, bag: &[char]) -> Option<usize> {
        let budget = (self.chars.max(chars) / 3).max(1);
        if self.chars.abs_diff(chars) > budget
            // An edit changes at most two letters of the bag.
            || bag_difference(&self.bag, bag) > 2 * budget
        {
            return None;
        }
        let distance = strsim::damerau_levenshtein(&self.word, lower);
        (distance <= budget).then_some(distance)
    }
}

/// The `limit` nearest of the scored (distance, input order, word),
/// nearest first and ties in input order, each word once: their input
/// orders and words.
fn best(mut scored: Vec<(usize, usize, &str)>, limit: usize) -> Vec<(usize, &str)> {
    scored.sort_by_key(|&(distance, order, _)| (distance, order));
    scored.dedup_by(|a, b| a.2 == b.2);
    (scored.into_iter().take(limit))
        .map(|(_, order, word)| (order, word))
        .collect()
}

/// Known words made ready for many "did you mean" questions: each
/// lower-cased once, with its length and its bag of letters, in order of
/// length, so that a question looks only at words of about its length and
/// rules most of those out by their letters before any edit distance is
/// computed. (2,000 unknown Friendship givers against 2,000 players: 77 s
/// of a debug build with a distance for every pair, 1.3 s with these.)
#[derive(Debug, Clone, Default)]
pub struct Lexicon {
    /// By length in characters, then input order.
    known: Vec<Known>,
    /// Where each word of the input is in `known`.
    at: Vec<usize>,
}

#[derive(Debug, Clone)]
struct Known {
    word: String,
    lower: String,
    chars: usize,
    bag: Vec<char>,
    order: usize,
}

impl Lexicon {
    pub fn new<'w>(words: impl IntoIterator<Item = &'w str>) -> Lexicon {
        let mut known: Vec<Known> = words
            .into_iter()
            .enumerate()
            .map(|(order, word)| {
                let lower = word.to_lowercase();
                Known {
                    word: word.to_string(),
                    chars: lower.chars().count(),
                    bag: bag(&lower),
                    lower,
                    order,
                }
            })
            .collect();
        known.sort_by_key(|k| (k.chars, k.order));
        let mut at = vec![0; known.len()];
        for (i, k) in known.iter().enumerate() {
            at[k.order] = i;
        }
        Lexicon { known, at }
    }

    /// Up to `limit` plausible words for `word`, nearest first (ties keep
    /// input order).
    pub fn nearest(&self, word: &str, limit: usize) -> Vec<&str> {
        self.nearest_orders(word, limit)
            .into_iter()
            .map(|order| self.known[self.at[order]].word.as_str())
            .collect()
    }

    /// [`Lexicon::nearest`], as the words' places in the input.
    fn nearest_orders(&self, word: &str, limit: usize) -> Vec<usize> {
        let asked = Asked::new(word);
        let from = self.known.partition_point(|k| k.chars < asked.shortest);
        let scored = self.known[from..]
            .iter()
            .take_while(|k| k.chars <= asked.longest)
            .filter_map(|k| {
                let distance = asked.distance(&k.lower, k.chars, &k.bag)?;
                Some((distance, k.order, k.word.as_str()))
            })
            .collect();
        best(scored, limit)
            .into_iter()
            .map(|(order, _)| order)
            .collect()
    }
}

/// A word's letters, sorted: its bag of letters.
fn bag(word: &str) -> Vec<char> {
    let mut letters: Vec<char> = word.chars().collect();
    letters.sort_unstable();
    letters
}

/// How many letters are in one bag and not the other (counted with
/// repeats): a lower bound of twice the edit distance.
fn bag_difference(a: &[char], b: &[char]) -> usize {
    let (mut i, mut j, mut differ) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Less => {
                differ += 1;
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                differ += 1;
                j += 1;
            }
        }
    }
    differ + (a.len() - i) + (b.len() - j)
}

/// How many known words a help line lists before it says how many more.
pub const LISTED: usize = 12;

/// The known words for a help line (`a, b, c`), the first [`LISTED`] and
/// then how many more: a help line stays short, and a report's size
/// linear, however large the pool or sheet the words come from.
pub fn listing<S: AsRef<str>>(words: &[S]) -> String {
    let shown: Vec<&str> = words.iter().take(LISTED).map(AsRef::as_ref).collect();
    match words.len().saturating_sub(LISTED) {
        0 => shown.join(", "),
        more => format!("{}, and {more} more", shown.join(", ")),
    }
}

/// `did you mean `a` or `b`?` for the suggestions, or `None` without any.
pub fn did_you_mean(suggestions: &[&str]) -> Option<String> {
    if suggestions.is_empty() {
        return None;
    }
    let quoted: Vec<String> = suggestions.iter().map(|s| format!("`{s}`")).collect();
    Some(format!("did you mean {}?", quoted.join(" or ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The brute-force definition: every candidate's edit distance against
    /// its budget, nearest first, ties in input order.
    fn every_distance<'a>(word: &str, candidates: &[&'a str], limit: usize) -> Vec<&'a str> {
        let word = word.to_lowercase();
        let chars = word.chars().count();
        let mut scored: Vec<(usize, usize, &str)> = candidates
            .iter()
            .enumerate()
            .filter_map(|(i, c)| {
                let lower = c.to_lowercase();
                let budget = (chars.max(lower.chars().count()) / 3).max(1);
                let distance = strsim::damerau_levenshtein(&word, &lower);
                (distance <= budget).then_some((distance, i, *c))
            })
            .collect();
        scored.sort_by_key(|&(d, i, _)| (d, i));
        scored.dedup_by(|a, b| a.2 == b.2);
        scored.into_iter().take(limit).map(|(_, _, c)| c).collect()
    }

    proptest::proptest! {
        /// The shortcuts (lengths, bags of letters) never drop a word the
        /// distance itself would keep, asked once or of a lexicon.
        #[test]
        fn the_lexicon_finds_what_every_distance_finds(
            word in "[a-dA-D ]{0,9}",
            candidates in proptest::collection::vec("[a-dA-D ]{0,12}", 0..30),
            limit in 1usize..5,
        ) {
            let candidates: Vec<&str> = candidates.iter().map(String::as_str).collect();
            let want = every_distance(&word, &candidates, limit);
            proptest::prop_assert_eq!(nearest(&word, candidates.iter().copied(), limit), want.clone());
            let lexicon = Lexicon::new(candidates.iter().copied());
            proptest::prop_assert_eq!(lexicon.nearest(&word, limit), want);
        }
    }

    #[test]
    fn listings_stop_at_a_dozen_and_count_the_rest() {
        let few = ["a", "b", "c"];
        assert_eq!(listing(&few), "a, b, c");
        let many: Vec<String> = (0..40).map(|i| format!("w{i}")).collect();
        let listed = listing(&many);
        assert!(listed.starts_with("w0, w1, "), "{listed}");
        assert!(listed.ends_with("w11, and 28 more"), "{listed}");
    }

    #[test]
    fn finds_typos_not_strangers() {
        let words = ["fire", "air", "light", "water", "earth", "dark"];
        assert_eq!(closest("fyre", words), Some("fire"));
        assert_eq!(closest("Watr", words), Some("water"));
        assert_eq!(closest("banana", words), None);
    }

    #[test]
    fn words_of_very_different_length_are_never_suggested() {
        // The length test is exact: a difference beyond the budget is a
        // distance beyond it too. (It also spares the distance matrix of a
        // 60,000-character deck line against every card name: 15 s of a
        // debug build before, 0.2 s after.)
        let words = ["fire", "firestorm", "air"];
        assert_eq!(nearest("fires", words, 3), ["fire"]);
        assert_eq!(nearest("firestor", words, 3), ["firestorm"]);
        assert_eq!(nearest(&"x".repeat(60_000), words, 3), Vec::<&str>::new());
        // Lowercasing may change a length (`İ` is two characters lowercased).
        assert_eq!(nearest("i̇stanbul", ["İstanbul"], 1), ["İstanbul"]);
    }
}
