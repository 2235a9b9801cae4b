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
    let word = word.to_lowercase();
    let word_chars = word.chars().count();
    let mut scored: Vec<(usize, &'a str)> = candidates
        .into_iter()
        .filter_map(|c| {
            // Allow about one edit per three characters.
            let budget = (word_chars.max(c.chars().count()) / 3).max(1);
            let lower = c.to_lowercase();
            // The distance is at least the difference in length: a line of
            // a thousand characters is not compared with every card name.
            if word_chars.abs_diff(lower.chars().count()) > budget {
                return None;
            }
            let distance = strsim::damerau_levenshtein(&word, &lower);
            (distance <= budget).then_some((distance, c))
        })
        .collect();
    scored.sort_by_key(|(d, _)| *d);
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(limit).map(|(_, c)| c).collect()
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
