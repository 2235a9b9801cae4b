//! "Did you mean …?": the nearest known word to a misspelling.

use std::borrow::Cow;

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

/// Up to `limit` plausible candidates, nearest first (ties keep input
/// order), each word once.
///
/// One question, in two passes over the candidates: the first keeps those
/// whose length and letters allow them to be near, by the least distance
/// those allow (nothing is kept beyond the question, where a [`Lexicon`]
/// keeps every word ready for many questions); the second measures them, the nearest bound first, and
/// stops once no candidate left can be among the `limit` nearest. An
/// unknown card asked of a pool's 300,000 names measures a few of them.
pub fn nearest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    limit: usize,
) -> Vec<&'a str> {
    let enough = |nearest: &[&str]| (nearest.len() >= limit).then_some(limit);
    nearest_in(word, candidates, Case::AsWritten, enough)
}

/// The candidates nearest `word` (in lowercase already, as folded names
/// are: none is lower-cased again), nearest first, ties in input order,
/// each word once: as many as `enough` needs. Given the nearest so far,
/// `enough` says how many of them answer the question (`None`: more are
/// needed); the further ones, and every candidate farther than the last
/// of those, are then passed over. Words that were enough must stay enough
/// with other words put among them.
pub fn nearest_lowercase_until<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    enough: impl FnMut(&[&'a str]) -> Option<usize>,
) -> Vec<&'a str> {
    nearest_in(word, candidates, Case::Lower, enough)
}

/// The case of the candidates given to [`nearest_in`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Case {
    AsWritten,
    Lower,
}

fn nearest_in<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    case: Case,
    mut enough: impl FnMut(&[&'a str]) -> Option<usize>,
) -> Vec<&'a str> {
    let asked = Asked::new(word);
    let mut scratch = Scratch::default();
    let lowered = |candidate: &'a str| match case {
        Case::Lower => Cow::Borrowed(candidate),
        Case::AsWritten => Cow::Owned(candidate.to_lowercase()),
    };
    // First the candidates that could be near, by the least distance
    // their lengths and letters allow, each in input order.
    let mut by_bound: Vec<Vec<(usize, &'a str)>> = Vec::new();
    for (order, candidate) in candidates.into_iter().enumerate() {
        let chars = match case {
            Case::Lower => candidate.chars().count(),
            Case::AsWritten => lower_chars(candidate),
        };
        if !asked.fits(chars) {
            continue;
        }
        let Some(bound) = asked.bound(&lowered(candidate), chars, &mut scratch) else {
            continue;
        };
        if by_bound.len() <= bound {
            by_bound.resize_with(bound + 1, Vec::new);
        }
        by_bound[bound].push((order, candidate));
    }
    // Then their distances, the nearest bound first: once the answer has
    // enough words, a candidate whose bound is past the farthest of them
    // cannot be among them, nor can any after it.
    let mut kept: Vec<(usize, usize)> = Vec::new();
    let mut words: Vec<&'a str> = Vec::new();
    let mut cutoff = usize::MAX;
    if enough(&words) == Some(0) {
        return words;
    }
    for (bound, candidates) in by_bound.iter().enumerate() {
        if bound > cutoff {
            break;
        }
        for &(order, candidate) in candidates {
            let lower = lowered(candidate);
            let chars = lower.chars().count();
            let budget = asked.budget(chars).min(cutoff);
            let Some(distance) = asked.distance(&lower, chars, budget, &mut scratch) else {
                continue;
            };
            // The same word again: the first, of the same distance, stays.
            if words.contains(&candidate) {
                continue;
            }
            let at = kept.partition_point(|&(d, o)| (d, o) <= (distance, order));
            kept.insert(at, (distance, order));
            words.insert(at, candidate);
            if let Some(needed) = enough(&words).filter(|&n| n > 0 && n <= kept.len()) {
                kept.truncate(needed);
                words.truncate(needed);
                cutoff = kept[needed - 1].0;
            }
        }
    }
    words
}

/// The characters of `word` lower-cased, counted without making it.
fn lower_chars(word: &str) -> usize {
    word.chars().map(|c| c.to_lowercase().count()).sum()
}

/// A word asked about, lower-cased, with what rules candidates out.
struct Asked {
    /// The word, lower-cased, letter by letter.
    letters: Vec<char>,
    bag: Vec<char>,
    mask: u64,
    /// The lengths a candidate can have: about one edit per three
    /// characters of the longer word, and the distance is at least the
    /// difference in length, so only words from 2/3 to 3/2 of this one's
    /// length (and one more) can qualify.
    shortest: usize,
    longest: usize,
}

impl Asked {
    fn new(word: &str) -> Asked {
        let letters: Vec<char> = word.to_lowercase().chars().collect();
        let chars = letters.len();
        let mut bag = letters.clone();
        bag.sort_unstable();
        Asked {
            mask: mask(&letters),
            bag,
            letters,
            shortest: (chars * 2 / 3).saturating_sub(1),
            longest: chars.saturating_mul(3) / 2 + 1,
        }
    }

    /// Whether a word of `chars` characters (lower-cased) can qualify.
    fn fits(&self, chars: usize) -> bool {
        (self.shortest..=self.longest).contains(&chars)
    }

    /// How many edits a candidate of `chars` characters may be away:
    /// about one per three characters of the longer word.
    fn budget(&self, chars: usize) -> usize {
        (self.letters.len().max(chars) / 3).max(1)
    }

    /// The least distance to a lower-cased word of `chars` characters that
    /// its length and letters allow, when within its budget: the
    /// difference in length, and half the letters one word has and the
    /// other not (an edit changes at most two letters of a word's bag;
    /// a letter in no bucket of the other's mask is one of those). Leaves
    /// the word's letters in `scratch`.
    fn bound(&self, lower: &str, chars: usize, scratch: &mut Scratch) -> Option<usize> {
        let budget = self.budget(chars);
        let length = self.letters.len().abs_diff(chars);
        if length > budget {
            return None;
        }
        scratch.letters.clear();
        scratch.letters.extend(lower.chars());
        let masks = (mask(&scratch.letters) ^ self.mask).count_ones() as usize;
        if masks.div_ceil(2) > budget {
            return None;
        }
        scratch.bag.clear();
        scratch.bag.extend_from_slice(&scratch.letters);
        scratch.bag.sort_unstable();
        let bags = bag_difference(&self.bag, &scratch.bag);
        let bound = length.max(masks.div_ceil(2)).max(bags.div_ceil(2));
        (bound <= budget).then_some(bound)
    }

    /// The edit distance to a lower-cased word of `chars` characters, when
    /// at most `budget`.
    fn distance(
        &self,
        lower: &str,
        chars: usize,
        budget: usize,
        scratch: &mut Scratch,
    ) -> Option<usize> {
        if self.bound(lower, chars, scratch)? > budget {
            return None;
        }
        let distance = scratch.edits.between(&self.letters, &scratch.letters);
        (distance <= budget).then_some(distance)
    }
}

/// Which of 64 buckets of letters a word has a letter in.
fn mask(letters: &[char]) -> u64 {
    (letters.iter()).fold(0, |mask, &c| mask | 1 << (c as u32 % 64))
}

/// What measuring a candidate needs, kept for the next: a question over a
/// pool's names allocates nothing per name.
#[derive(Default)]
struct Scratch {
    letters: Vec<char>,
    bag: Vec<char>,
    edits: Edits,
}

/// The Damerau–Levenshtein distance (adjacent transpositions, with edits
/// between and after them: `strsim::damerau_levenshtein`'s, which a test
/// holds it to), over a matrix kept from one pair to the next.
#[derive(Default)]
struct Edits {
    matrix: Vec<usize>,
    /// The last row in which each letter of `a` was seen: ASCII letters by
    /// code, others in a short list.
    ascii: Vec<usize>,
    other: Vec<(char, usize)>,
}

impl Edits {
    fn between(&mut self, a: &[char], b: &[char]) -> usize {
        let (n, m) = (a.len(), b.len());
        if n == 0 || m == 0 {
            return n.max(m);
        }
        let width = n + 2;
        let at = |i: usize, j: usize| j * width + i;
        let most = n + m;
        self.matrix.clear();
        self.matrix.resize((n + 2) * (m + 2), 0);
        self.ascii.clear();
        self.ascii.resize(128, 0);
        self.other.clear();
        let d = &mut self.matrix;
        d[0] = most;
        for i in 0..=n {
            d[at(i + 1, 0)] = most;
            d[at(i + 1, 1)] = i;
        }
        for j in 0..=m {
            d[at(0, j + 1)] = most;
            d[at(1, j + 1)] = j;
        }
        for i in 1..=n {
            let mut last_column = 0;
            for j in 1..=m {
                let row = match b[j - 1] {
                    c if c.is_ascii() => self.ascii[c as usize],
                    c => (self.other.iter())
                        .find(|(o, _)| *o == c)
                        .map_or(0, |&(_, r)| r),
                };
                let insertion = d[at(i, j + 1)] + 1;
                let deletion = d[at(i + 1, j)] + 1;
                let transposition =
                    d[at(row, last_column)] + (i - row - 1) + 1 + (j - last_column - 1);
                let mut substitution = d[at(i, j)] + 1;
                if a[i - 1] == b[j - 1] {
                    last_column = j;
                    substitution -= 1;
                }
                d[at(i + 1, j + 1)] = substitution.min(insertion).min(deletion).min(transposition);
            }
            match a[i - 1] {
                c if c.is_ascii() => self.ascii[c as usize] = i,
                c => match self.other.iter_mut().find(|(o, _)| *o == c) {
                    Some(seen) => seen.1 = i,
                    None => self.other.push((c, i)),
                },
            }
        }
        d[at(n + 1, m + 1)]
    }
}

/// The `limit` nearest of the scored (distance, input order, word),
/// nearest first and ties in input order, each word once (at its first
/// place): their input orders and words.
fn best(mut scored: Vec<(usize, usize, &str)>, limit: usize) -> Vec<(usize, &str)> {
    scored.sort_by_key(|&(distance, order, _)| (distance, order));
    let mut seen = foldhash::HashSet::default();
    (scored.into_iter())
        .filter(|&(_, _, word)| seen.insert(word))
        .take(limit)
        .map(|(_, order, word)| (order, word))
        .collect()
}

/// Known words made ready for many "did you mean" questions: each
/// lower-cased once, with its length, in order of length, so that a
/// question looks only at words of about its length (and rules most of
/// those out by their letters before any edit distance is computed). (2,000 unknown Friendship givers against 2,000 players: 77 s
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
        let mut scratch = Scratch::default();
        let from = self.known.partition_point(|k| k.chars < asked.shortest);
        let scored = self.known[from..]
            .iter()
            .take_while(|k| k.chars <= asked.longest)
            .filter_map(|k| {
                let budget = asked.budget(k.chars);
                let distance = asked.distance(&k.lower, k.chars, budget, &mut scratch)?;
                Some((distance, k.order, k.word.as_str()))
            })
            .collect();
        best(scored, limit)
            .into_iter()
            .map(|(order, _)| order)
            .collect()
    }
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
        let mut once: Vec<&str> = Vec::new();
        for (_, _, c) in scored {
            if !once.contains(&c) {
                once.push(c);
            }
        }
        once.truncate(limit);
        once
    }

    proptest::proptest! {
        /// The distance with its matrix kept is `strsim`'s, for letters in
        /// and out of ASCII, pair after pair.
        #[test]
        fn edits_are_damerau_levenshtein(
            pairs in proptest::collection::vec(("[abcé日 ]{0,9}", "[abcé日 ]{0,9}"), 1..8),
        ) {
            let mut edits = Edits::default();
            for (a, b) in &pairs {
                let (x, y): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
                proptest::prop_assert_eq!(edits.between(&x, &y), strsim::damerau_levenshtein(a, b));
            }
        }

        /// The shortcuts (lengths, bags of letters) never drop a word the
        /// distance itself would keep, asked once or of a lexicon.
        #[test]
        fn the_lexicon_finds_what_every_distance_finds(
            word in "[a-dA-DéÉİ ]{0,9}",
            candidates in proptest::collection::vec("[a-dA-DéÉİ ]{0,12}", 0..30),
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
