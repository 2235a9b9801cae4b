//! "Did you mean …?": the nearest known word to a misspelling.

/// The candidate closest to `word` by edit distance, when it is close enough
/// to be a plausible typo (case is ignored).
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    nearest(word, candidates, 1).into_iter().next()
}

/// Up to `limit` plausible candidates, nearest first (ties keep input order).
pub fn nearest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    limit: usize,
) -> Vec<&'a str> {
    let word = word.to_lowercase();
    let mut scored: Vec<(usize, &'a str)> = candidates
        .into_iter()
        .filter_map(|c| {
            let distance = strsim::damerau_levenshtein(&word, &c.to_lowercase());
            // Allow about one edit per three characters.
            let budget = (word.chars().count().max(c.chars().count()) / 3).max(1);
            (distance <= budget).then_some((distance, c))
        })
        .collect();
    scored.sort_by_key(|(d, _)| *d);
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(limit).map(|(_, c)| c).collect()
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
}
