//! Synthetic card pools for benchmarks and stress tests: valid sets of every
//! kind, deterministic for a seed.

use std::fmt::Write;

use crate::model::{BASE_TYPES, Element};

/// A small deterministic generator (SplitMix64), so pools are reproducible
/// without a dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Set kinds cycled through, with how many distinct cards each holds.
/// The large core sets make the average file about 40 cards, as in a
/// publisher's archive (a few thousand files for 100,000 cards).
const KINDS: [(&str, usize, Option<u32>); 6] = [
    ("expansion", 6, Some(5)),
    ("premium", 6, Some(8)),
    ("master", 6, Some(10)),
    ("gold-promo", 6, None),
    ("starter", 9, None),
    ("core", 217, Some(3)),
];

/// Generates about `cards` distinct cards as set files: `(file name, YAML)`.
pub fn pool(cards: usize, seed: u64) -> Vec<(String, String)> {
    let mut rng = Rng::new(seed);
    let mut files = Vec::new();
    let mut made = 0;
    let mut set = 0;
    while made < cards {
        let (kind, size, cost) = KINDS[set % KINDS.len()];
        let id = format!("synth-set-{set}");
        let mut text = format!("id: {id}\nname: Synthetic Set {set}\nkind: {kind}\n");
        if let Some(cost) = cost {
            let _ = writeln!(text, "cost: {cost}");
        }
        text.push_str("cards:\n");
        for i in 0..size {
            let stars = match kind {
                "core" => 1 + i % 5,
                "starter" => 1 + i % 3,
                _ => i + 1,
            };
            let card_kind = match i {
                2 => "deck-box",
                4 => "accessory",
                _ => "single",
            };
            let _ = write!(
                text,
                "  - id: {id}-card-{i}\n    name: Synthetic Card {set} {i}\n    kind: {card_kind}\n    stars: {stars}\n"
            );
            if card_kind == "single" {
                let element = Element::ALL[rng.below(Element::ALL.len())].as_str();
                let ty = BASE_TYPES[rng.below(BASE_TYPES.len())];
                let _ = write!(text, "    elements: [{element}]\n    types: [{ty}]\n");
                let _ = writeln!(text, "    effect: \"Play: Gain {} RP.\"", 1 + rng.below(5));
            }
            if kind == "core" {
                let _ = writeln!(text, "    copies: {}", 1 + i % 3);
            }
            let _ = writeln!(
                text,
                "    flavor: \"Generated card number {made}, written to give the parser a realistic amount of text.\""
            );
            made += 1;
        }
        files.push((format!("{id}.yaml"), text));
        set += 1;
    }
    files
}

/// Plants `count` faults, one per file, spread evenly over the files; each
/// fault produces exactly one error diagnostic. Returns how many were planted.
pub fn plant_faults(files: &mut [(String, String)], count: usize, seed: u64) -> usize {
    let mut rng = Rng::new(seed ^ 0xFA17);
    let count = count.min(files.len());
    if count == 0 {
        return 0;
    }
    let step = files.len() / count;
    for n in 0..count {
        let (_, text) = &mut files[n * step];
        let fault = match rng.below(4) {
            0 => ("stars: 1\n", "stars: 11\n"),
            1 => ("kind: single\n", "kind: singel\n"),
            2 => ("    flavor:", "    flavour:"),
            _ => ("types: [", "types: [wizard, "),
        };
        *text = text.replacen(fault.0, fault.1, 1);
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compile;
    use crate::pool::{Pool, SourceFile};
    use std::sync::Arc;

    fn as_pool(files: &[(String, String)]) -> Pool {
        let mut pool = Pool::default();
        for (name, text) in files {
            pool.sets.push(SourceFile {
                path: Arc::from(name.as_str()),
                relative: name.clone(),
                text: Arc::from(text.as_str()),
            });
        }
        pool
    }

    #[test]
    fn synthetic_pools_are_valid_and_deterministic() {
        let files = pool(500, 3);
        assert_eq!(files, pool(500, 3));
        let compiled = compile(&as_pool(&files));
        assert!(
            compiled.diagnostics.is_empty(),
            "{:?}",
            compiled.diagnostics.first()
        );
        assert!(compiled.database.unwrap().cards.len() >= 500);
    }

    #[test]
    fn planted_faults_are_each_found_once() {
        let mut files = pool(3000, 5);
        let planted = plant_faults(&mut files, 20, 5);
        assert_eq!(planted, 20);
        let compiled = compile(&as_pool(&files));
        assert_eq!(compiled.error_count(), 20, "{:#?}", compiled.diagnostics);
    }
}
