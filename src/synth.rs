//! Synthetic card pools for benchmarks and stress tests: valid sets of every
//! kind, deterministic for a seed; and the set file a designer starts from
//! (`blades new`).

use std::fmt::Write;
use std::sync::OnceLock;

use crate::effect::{self, Vocabulary};
use crate::i18n::locale::{Entry, fingerprint, render_set_file};
use crate::i18n::{Field, UnitKey};
use crate::words::{BASE_TYPES, CardKind, Element, SetKind};

/// Effects to draw from: every example of the effect language reference
/// (which covers the whole grammar) that is valid in any pool, i.e. names
/// no set.
fn effect_corpus() -> &'static [String] {
    static CORPUS: OnceLock<Vec<String>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let doc = include_str!("../docs/effect-language.md");
        let vocab = Vocabulary::base();
        let mut examples = Vec::new();
        let mut current: Option<String> = None;
        for line in doc.lines() {
            match &mut current {
                None if line.trim() == "```effect" => current = Some(String::new()),
                Some(text) if line.trim() == "```" => {
                    examples.push(text.trim_end().to_string());
                    current = None;
                }
                Some(text) => {
                    text.push_str(line);
                    text.push('\n');
                }
                None => {}
            }
        }
        examples
            .into_iter()
            .filter(|text| {
                // A synthetic pool builds clean: no errors, and no sense
                // warnings (the reference shows some on purpose).
                effect::parse(text).is_ok_and(|tree| {
                    effect::check(&tree, &vocab).is_empty()
                        && effect::sense(&tree, Some(CardKind::Single), &vocab).is_empty()
                })
            })
            .collect()
    })
}

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

/// The Store cost `blades new` gives a set of each kind, as in the built-in
/// pool (Core Set 3, expansion 5, premium 8, master 10).
pub fn default_cost(kind: SetKind) -> Option<u32> {
    match kind {
        SetKind::Core => Some(3),
        SetKind::Expansion => Some(5),
        SetKind::Premium => Some(8),
        SetKind::Master => Some(10),
        _ => None,
    }
}

/// A set file to start from: the set `id` named `name`, of `kind`, with
/// placeholder cards that already make the kind's physical size under the
/// copy rule (STARs 1 to 6 make 3 + 2 + 2 + 2 + 2 + 1 = 12 cards; sets of
/// single copies get one card per slot), so the pool builds at once and
/// each check then speaks of the designer's own changes.
pub fn new_set(id: &str, name: &str, kind: SetKind, cost: Option<u32>) -> String {
    let mut text = format!(
        "# A new {} set: replace the placeholder cards with your own.\n\
         id: {id}\nname: {}\nkind: {}\n",
        kind.words(),
        yaml_text(name),
        kind.as_str()
    );
    if let Some(cost) = cost {
        let _ = writeln!(text, "cost: {cost}");
    }
    text.push_str("cards:\n");
    if let Some(card_kind) = kind.card_kind() {
        return table_cards(text, id, name, card_kind);
    }
    let cards = match kind.physical_size() {
        Some(size) if kind.single_copies() => size,
        _ => 6,
    };
    for i in 1..=cards {
        let stars = i.min(10);
        let _ = write!(
            text,
            "  - id: {id}-card-{i}\n    name: {}\n    kind: single\n    stars: {stars}\n",
            yaml_text(&format!("{name} Card {i}"))
        );
        if kind == SetKind::Core {
            // The Core Set states its copies; these follow the copy rule.
            let copies = match i {
                1 => 3,
                6 => 1,
                _ => 2,
            };
            let _ = writeln!(text, "    copies: {copies}");
        }
        if i == 1 {
            text.push_str("    effect: \"Play: Gain 1 RP.\"\n");
        }
    }
    text
}

/// A venue or character set's placeholder cards: three, with no STAR,
/// the first with a rule of the Deckbuilding Phase (on a venue, every
/// player follows it as `you`).
fn table_cards(mut text: String, id: &str, name: &str, kind: CardKind) -> String {
    for i in 1..=3 {
        let _ = write!(
            text,
            "  - id: {id}-card-{i}\n    name: {}\n    kind: {}\n",
            yaml_text(&format!("{name} Card {i}")),
            kind.as_str()
        );
        if i == 1 {
            text.push_str(
                "    effect: \"Deckbuilding: At the start of the Deckbuilding Phase, gain 1 Millennium Dollar.\"\n",
            );
        }
    }
    text
}

/// A text as a YAML scalar: plain where YAML reads it back as the same text.
fn yaml_text(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '\'')
        && !text.starts_with(['-', ' ', '\''])
        && !text.ends_with(' ')
        && text.parse::<f64>().is_err()
        && !matches!(text, "true" | "false" | "null" | "yes" | "no");
    match plain {
        true => text.to_string(),
        false => serde_json::to_string(text).unwrap_or_default(),
    }
}

/// Generates about `cards` distinct cards as set files: `(file name, YAML)`.
pub fn pool(cards: usize, seed: u64) -> Vec<(String, String)> {
    pool_with(cards, seed, false)
}

/// [`pool`], optionally with a Japanese locale file per set
/// (`locales/ja/<set>.yaml`, every name and flavor translated).
pub fn pool_with(cards: usize, seed: u64, japanese: bool) -> Vec<(String, String)> {
    let corpus = effect_corpus();
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
        let mut entries = vec![ja_entry(
            UnitKey::SetName { set: id.clone() },
            &format!("Synthetic Set {set}"),
            format!("合成セット{set}"),
        )];
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
                if !corpus.is_empty() {
                    let effect = &corpus[rng.below(corpus.len())];
                    let quoted = serde_json::to_string(effect).unwrap_or_default();
                    let _ = writeln!(text, "    effect: {quoted}");
                }
            }
            if kind == "core" {
                let _ = writeln!(text, "    copies: {}", 1 + i % 3);
            }
            let flavor = format!(
                "Generated card number {made}, written to give the parser a realistic amount of text."
            );
            let _ = writeln!(text, "    flavor: \"{flavor}\"");
            let card = format!("{id}-card-{i}");
            entries.push(ja_entry(
                UnitKey::Card {
                    set: id.clone(),
                    card: card.clone(),
                    field: Field::Name,
                },
                &format!("Synthetic Card {set} {i}"),
                format!("合成カード{set}の{i}"),
            ));
            entries.push(ja_entry(
                UnitKey::Card { set: id.clone(), card, field: Field::Flavor },
                &flavor,
                format!("負荷試験のために生成された{made}番目のカード。読む量を現実に近づけるための文章。"),
            ));
            made += 1;
        }
        files.push((format!("{id}.yaml"), text));
        if japanese {
            let order: Vec<UnitKey> = entries.iter().map(|e| e.key.clone()).collect();
            let position = |key: &UnitKey| order.iter().position(|k| k == key);
            files.push((
                format!("locales/ja/{id}.yaml"),
                render_set_file("ja", &id, &entries, &position),
            ));
        }
        set += 1;
    }
    files
}

/// A Japanese translation of an English text, fingerprinted.
fn ja_entry(key: UnitKey, english: &str, japanese: String) -> Entry {
    Entry {
        key,
        text: japanese,
        source: Some(english.to_string()),
        fingerprint: Some(fingerprint(english)),
        fuzzy: false,
        note: None,
        text_at: None,
        key_span: 0..0,
        recorded: Default::default(),
    }
}

/// Plants `count` faults, one per file, spread evenly over the files; each
/// fault produces exactly one error diagnostic. Returns how many were planted.
pub fn plant_faults(files: &mut [(String, String)], count: usize, seed: u64) -> usize {
    let mut rng = Rng::new(seed ^ 0xFA17);
    let count = count.min(files.len());
    if count == 0 {
        return 0;
    }
    let sets: Vec<usize> = (0..files.len())
        .filter(|&i| !files[i].0.starts_with("locales/"))
        .collect();
    let count = count.min(sets.len());
    if count == 0 {
        return 0;
    }
    let step = sets.len() / count;
    for n in 0..count {
        let (_, text) = &mut files[sets[n * step]];
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
            pool.sets.push(SourceFile::new(
                Arc::from(name.as_str()),
                name.clone(),
                Arc::from(text.as_str()),
            ));
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
        assert!(compiled.output.into_database().unwrap().cards.len() >= 500);
    }

    #[test]
    fn synthetic_pools_use_the_whole_effect_corpus_and_carry_japanese() {
        assert!(effect_corpus().len() >= 30, "{}", effect_corpus().len());
        let files = pool_with(600, 9, true);
        let mut pool = as_pool(&files);
        let (sets, data): (Vec<_>, Vec<_>) = pool
            .sets
            .drain(..)
            .partition(|f| !f.relative.starts_with("locales/"));
        pool.sets = sets;
        pool.data = data;
        let compiled = compile(&pool);
        assert!(
            compiled.diagnostics.is_empty(),
            "{:?}",
            compiled.diagnostics.first()
        );
        let database = compiled.output.into_database().unwrap();
        assert!(
            database
                .cards
                .iter()
                .all(|c| c.translations.contains_key("ja"))
        );
        assert!(
            database
                .cards
                .iter()
                .any(|c| c.effect_text.contains_key("ja"))
        );
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
