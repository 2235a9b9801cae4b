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
pub fn nearest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    limit: usize,
) -> Vec<&'a str> {
    let candidates: Vec<&'a str> = candidates.into_iter().collect();
    let lexicon = Lexicon::new(candidates.iter().copied());
    lexicon
        .nearest_orders(word, limit)
        .into_iter()
        .map(|order| candidates[order])
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
        let word = word.to_lowercase();
        let chars = word.chars().count();
        let word_bag = bag(&word);
        // Allow about one edit per three characters of the longer word; the
        // distance is at least the difference in length, so only words
        // from 2/3 to 3/2 of this one's length (and one more) can qualify.
        let shortest = (chars * 2 / 3).saturating_sub(1);
        let longest = chars.saturating_mul(3) / 2 + 1;
        let from = self.known.partition_point(|k| k.chars < shortest);
        let mut distances = Distances::of(&word);
        let mut scored: Vec<(usize, usize, &str)> = self.known[from..]
            .iter()
            .take_while(|k| k.chars <= longest)
            .filter_map(|k| {
                let budget = (chars.max(k.chars) / 3).max(1);
                if chars.abs_diff(k.chars) > budget
                    // An edit changes at most two letters of the bag.
                    || bag_difference(&word_bag, &k.bag) > 2 * budget
                {
                    return None;
                }
                let distance = distances.within(&k.lower, budget)?;
                Some((distance, k.order, k.word.as_str()))
            })
            .collect();
        scored.sort_by_key(|&(distance, order, _)| (distance, order));
        scored.dedup_by(|a, b| a.2 == b.2);
        scored
            .into_iter()
            .take(limit)
            .map(|(_, order, _)| order)
            .collect()
    }
}

/// The Damerau–Levenshtein distance (insertions, deletions, substitutions
/// and transpositions of adjacent letters, with no restriction on editing
/// a transposed pair again: `strsim::damerau_levenshtein`) of one word to
/// many, its buffers kept from one to the next, each given up as soon as
/// it must exceed its budget. A row's smallest cell never falls in later
/// rows (a transposition that skips rows pays a deletion for each), so a
/// row all over the budget ends the computation: a pool of 100,000
/// similar names is not a matrix per name.
struct Distances {
    word: Vec<char>,
    other: Vec<char>,
    /// The matrix, row by row, with the algorithm's border of sentinels.
    cells: Vec<usize>,
    /// The last row each letter of the word was seen in.
    seen: Vec<(char, usize)>,
}

impl Distances {
    fn of(word: &str) -> Distances {
        Distances {
            word: word.chars().collect(),
            other: Vec::new(),
            cells: Vec::new(),
            seen: Vec::new(),
        }
    }

    /// The distance from the word to `other`, when it is at most `budget`.
    fn within(&mut self, other: &str, budget: usize) -> Option<usize> {
        self.other.clear();
        self.other.extend(other.chars());
        let (a, b) = (&self.word, &self.other);
        let (n, m) = (a.len(), b.len());
        let width = m + 2;
        let far = n + m;
        let at = |i: usize, j: usize| i * width + j;
        self.cells.clear();
        self.cells.resize((n + 2) * width, 0);
        let d = &mut self.cells;
        d[0] = far;
        for i in 0..=n {
            d[at(i + 1, 0)] = far;
            d[at(i + 1, 1)] = i;
        }
        for j in 0..=m {
            d[at(0, j + 1)] = far;
            d[at(1, j + 1)] = j;
        }
        self.seen.clear();
        for i in 1..=n {
            let mut matched = 0;
            let mut least = d[at(i + 1, 1)];
            for j in 1..=m {
                let k = (self.seen.iter())
                    .find(|(c, _)| *c == b[j - 1])
                    .map_or(0, |&(_, row)| row);
                let insertion = d[at(i, j + 1)] + 1;
                let deletion = d[at(i + 1, j)] + 1;
                let transposition = d[at(k, matched)] + (i - k - 1) + 1 + (j - matched - 1);
                let mut substitution = d[at(i, j)] + 1;
                if a[i - 1] == b[j - 1] {
                    matched = j;
                    substitution -= 1;
                }
                let cell = substitution.min(insertion).min(deletion).min(transposition);
                d[at(i + 1, j + 1)] = cell;
                least = least.min(cell);
            }
            if least > budget {
                return None;
            }
            match self.seen.iter_mut().find(|(c, _)| *c == a[i - 1]) {
                Some(seen) => seen.1 = i,
                None => self.seen.push((a[i - 1], i)),
            }
        }
        let distance = d[at(n + 1, m + 1)];
        (distance <= budget).then_some(distance)
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
        /// The distance given up early is strsim's whenever it is within
        /// the budget, and nothing otherwise.
        #[test]
        fn a_bounded_distance_is_the_distance_within_its_budget(
            word in "[abcé ]{0,10}",
            others in proptest::collection::vec("[abcé ]{0,12}", 1..12),
            budget in 0usize..8,
        ) {
            let mut distances = Distances::of(&word);
            for other in &others {
                let full = strsim::damerau_levenshtein(&word, other);
                proptest::prop_assert_eq!(
                    distances.within(other, budget),
                    (full <= budget).then_some(full),
                    "{:?} {:?}", word, other
                );
            }
        }

        /// The lexicon's shortcuts (lengths, bags of letters) never drop a
        /// word the distance itself would keep.
        #[test]
        fn the_lexicon_finds_what_every_distance_finds(
            word in "[a-dA-D ]{0,9}",
            candidates in proptest::collection::vec("[a-dA-D ]{0,12}", 0..30),
            limit in 1usize..5,
        ) {
            let candidates: Vec<&str> = candidates.iter().map(String::as_str).collect();
            proptest::prop_assert_eq!(
                nearest(&word, candidates.iter().copied(), limit),
                every_distance(&word, &candidates, limit)
            );
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
    fn a_transposed_pair_may_be_edited_again() {
        // `ca` → `ac` → `abc`: 2, where the restricted distance says 3.
        assert_eq!(Distances::of("ca").within("abc", 3), Some(2));
        assert_eq!(Distances::of("ca").within("abc", 1), None);
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
