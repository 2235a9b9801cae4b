//! The search language against a brute-force filter: random queries (every
//! key, every operator, `or`, parentheses, negation) over random databases
//! find exactly the cards a plain filter written from the same query picks.

use proptest::prelude::*;

use blades::effect::{Keywords, Timing};
use blades::model::{ByLang, Card, CardTranslation, Database, Set};
use blades::search::{Catalog, Columns, Index, Query, columns_needed};
use blades::words::{BASE_TYPES, CardKind, Element, Id, SetKind};

const NAME_WORDS: [&str; 8] = [
    "Ember", "Golem", "Tide", "Fox", "Crown", "Sentinel", "Moth", "Anvil",
];
const KEYWORDS: [&str; 5] = ["Scurry", "Mimicry", "Blast Off", "Thwomp!", "Anvil Drop"];
const SETS: [(&str, &str); 3] = [
    ("set-a", "Alpha Set"),
    ("set-b", "Beta Set"),
    ("set-c", "Gamma Set"),
];
const KINDS: [CardKind; 3] = [CardKind::Single, CardKind::DeckBox, CardKind::Accessory];
const RARITIES: [SetKind; 3] = [SetKind::Core, SetKind::Premium, SetKind::Starter];

/// A tiny deterministic generator, so a seed is a database.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// The database as the card index gives it without the cards' texts: each
/// set's section written and read back with only the other columns.
fn without_texts(database: &Database) -> Database {
    let mut light = Database {
        cards: Vec::new(),
        ..database.clone()
    };
    for set in &database.sets {
        let cards: Vec<Card> = (database.cards.iter())
            .filter(|c| c.set == set.id)
            .cloned()
            .collect();
        let section = blades::index::write_section(set, &cards);
        let (_, cards) = blades::index::read_section_with(&section, Columns::WithoutTexts)
            .expect("a section reads back");
        light.cards.extend(cards);
    }
    light
}

/// One generated card, with the keywords and timings its effect holds.
struct Made {
    keywords: Vec<&'static str>,
    timings: Vec<Timing>,
}

fn database(seed: u64, count: usize) -> (Database, Vec<Made>) {
    let mut rng = Rng(seed);
    let mut cards = Vec::new();
    let mut made = Vec::new();
    for i in 0..count {
        let set = rng.below(SETS.len());
        let name = match rng.chance(10) {
            // A name that `name=WORD` finds whole.
            true => NAME_WORDS[rng.below(NAME_WORDS.len())].to_string(),
            false => format!(
                "{} {} {i}",
                NAME_WORDS[rng.below(NAME_WORDS.len())],
                NAME_WORDS[rng.below(NAME_WORDS.len())]
            ),
        };
        let mut card = Card::new(
            &format!("card-{i}"),
            &name,
            SETS[set].0,
            KINDS[rng.below(KINDS.len())],
            1 + rng.below(10) as u8,
        );
        card.rarity = RARITIES[set];
        card.copies = 1 + rng.below(3) as u8;
        for element in Element::ALL {
            if rng.chance(25) {
                card.elements.push(element);
            }
        }
        for ty in BASE_TYPES.iter().chain(&["speedster"]) {
            if rng.chance(20) {
                card.types.push(Id(ty.to_string()));
            }
        }
        let mut lines = Vec::new();
        let mut keywords = Vec::new();
        let mut timings = Vec::new();
        for keyword in KEYWORDS {
            if rng.chance(15) {
                keywords.push(keyword);
                lines.push(match keyword {
                    "Thwomp!" => "Thwomp! 3.".to_string(),
                    other => format!("{other}."),
                });
            }
        }
        for timing in Timing::ALL {
            if rng.chance(15) {
                timings.push(timing);
                lines.push(match timing {
                    Timing::Reaction => {
                        "Reaction (when an opponent flips this card): Gain 1 RP.".to_string()
                    }
                    other => format!("{}: Gain {} RP.", other.word(), 1 + rng.below(5)),
                });
            }
        }
        if !lines.is_empty() {
            let text = lines.join("\n");
            card.effect_text.insert("en".into(), text.clone());
            card.effect = Some(text);
        }
        if rng.chance(50) {
            card.flavor = Some(format!(
                "{} flavor",
                NAME_WORDS[rng.below(NAME_WORDS.len())]
            ));
        }
        if rng.chance(70) {
            let stale = match rng.chance(30) {
                true => vec!["name".to_string()],
                false => Vec::new(),
            };
            card.translations.insert(
                "ja".into(),
                CardTranslation {
                    name: Some(format!("カード{i}")),
                    stale,
                    ..CardTranslation::default()
                },
            );
        }
        cards.push(card);
        made.push(Made { keywords, timings });
    }
    let sets = SETS
        .iter()
        .zip(RARITIES)
        .map(|((id, name), kind)| Set {
            id: Id(id.to_string()),
            name: name.to_string(),
            kind,
            cost: None,
            extra_types: Vec::new(),
            distinct_cards: 0,
            physical_cards: 0,
            translations: ByLang::new(),
        })
        .collect();
    (
        Database {
            keywords: None,
            format: 2,
            cards,
            sets,
        },
        made,
    )
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
    Has,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

impl Op {
    fn text(self) -> &'static str {
        match self {
            Op::Has => ":",
            Op::Eq => "=",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Gt => ">",
            Op::Le => "<=",
            Op::Ge => ">=",
        }
    }

    fn compare(self, have: u32, want: u32) -> bool {
        match self {
            Op::Has | Op::Eq => have == want,
            Op::Ne => have != want,
            Op::Lt => have < want,
            Op::Gt => have > want,
            Op::Le => have <= want,
            Op::Ge => have >= want,
        }
    }

    /// For keys with a list of values: has it, or (`!=`) does not.
    fn has(self, has: bool) -> bool {
        has != (self == Op::Ne)
    }
}

/// A term as the test writes it and judges it.
#[derive(Debug, Clone)]
enum Term {
    /// A bare word of the name.
    Word(usize),
    Name(Op, usize),
    Element(Op, usize),
    Type(Op, usize),
    Kind(Op, usize),
    Rarity(Op, usize),
    Set(Op, usize),
    Star(Op, u32),
    Copies(Op, u32),
    Keyword(Op, usize),
    Timing(Op, usize),
    Text(Op, u32),
    Is(usize, bool),
}

#[derive(Debug, Clone)]
enum Q {
    Term(Term),
    All(Vec<Q>),
    Any(Vec<Q>),
    Not(Box<Q>),
}

const FLAGS: [&str; 5] = ["effect", "vanilla", "flavor", "translated", "stale"];

fn any_op() -> impl Strategy<Value = Op> {
    prop_oneof![Just(Op::Has), Just(Op::Eq), Just(Op::Ne)]
}

fn any_order() -> impl Strategy<Value = Op> {
    prop_oneof![
        Just(Op::Has),
        Just(Op::Eq),
        Just(Op::Ne),
        Just(Op::Lt),
        Just(Op::Gt),
        Just(Op::Le),
        Just(Op::Ge)
    ]
}

fn term() -> impl Strategy<Value = Term> {
    prop_oneof![
        (0..NAME_WORDS.len()).prop_map(Term::Word),
        (any_op(), 0..NAME_WORDS.len()).prop_map(|(o, w)| Term::Name(o, w)),
        (any_op(), 0..6usize).prop_map(|(o, e)| Term::Element(o, e)),
        (any_op(), 0..7usize).prop_map(|(o, t)| Term::Type(o, t)),
        (any_op(), 0..3usize).prop_map(|(o, k)| Term::Kind(o, k)),
        (any_op(), 0..3usize).prop_map(|(o, r)| Term::Rarity(o, r)),
        (any_op(), 0..3usize).prop_map(|(o, s)| Term::Set(o, s)),
        (any_order(), 0..12u32).prop_map(|(o, n)| Term::Star(o, n)),
        (any_order(), 0..4u32).prop_map(|(o, n)| Term::Copies(o, n)),
        (any_op(), 0..KEYWORDS.len()).prop_map(|(o, k)| Term::Keyword(o, k)),
        (any_op(), 0..8usize).prop_map(|(o, t)| Term::Timing(o, t)),
        (any_op(), 1..6u32).prop_map(|(o, n)| Term::Text(o, n)),
        (0..FLAGS.len(), any::<bool>()).prop_map(|(f, has)| Term::Is(f, has)),
    ]
}

fn query() -> impl Strategy<Value = Q> {
    term().prop_map(Q::Term).prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 2..4).prop_map(Q::All),
            proptest::collection::vec(inner.clone(), 2..4).prop_map(Q::Any),
            inner.prop_map(|q| Q::Not(Box::new(q))),
        ]
    })
}

/// The query text; `nested` groups a list of parts in parentheses.
fn write(q: &Q, nested: bool) -> String {
    let group = |text: String| match nested {
        true => format!("({text})"),
        false => text,
    };
    match q {
        Q::Term(t) => write_term(t),
        Q::All(parts) => group(
            parts
                .iter()
                .map(|p| write(p, true))
                .collect::<Vec<_>>()
                .join(" "),
        ),
        Q::Any(parts) => group(
            parts
                .iter()
                .map(|p| write(p, true))
                .collect::<Vec<_>>()
                .join(" or "),
        ),
        Q::Not(part) => format!("-{}", write(part, true)),
    }
}

fn write_term(t: &Term) -> String {
    match t {
        Term::Word(w) => NAME_WORDS[*w].to_lowercase(),
        Term::Name(o, w) => format!("name{}{}", o.text(), NAME_WORDS[*w]),
        Term::Element(o, e) => format!("e{}{}", o.text(), Element::ALL[*e].as_str()),
        Term::Type(o, t) => {
            let ty = BASE_TYPES.get(*t).copied().unwrap_or("speedster");
            format!("t{}{ty}", o.text())
        }
        Term::Kind(o, k) => format!("kind{}{}", o.text(), KINDS[*k].as_str()),
        Term::Rarity(o, r) => format!("r{}{}", o.text(), RARITIES[*r].as_str()),
        Term::Set(o, s) => format!("set{}\"{}\"", o.text(), SETS[*s].1),
        Term::Star(o, n) => format!("star{}{n}", o.text()),
        Term::Copies(o, n) => format!("copies{}{n}", o.text()),
        Term::Keyword(o, k) => format!("kw{}\"{}\"", o.text(), KEYWORDS[*k]),
        Term::Timing(o, t) => format!("timing{}{}", o.text(), Timing::ALL[*t].word()),
        Term::Text(Op::Has, n) => format!("o:\"gain {n} rp\""),
        Term::Text(o, n) => format!("o{}\"Play: Gain {n} RP.\"", o.text()),
        Term::Is(f, true) => format!("is:{}", FLAGS[*f]),
        Term::Is(f, false) => format!("is!={}", FLAGS[*f]),
    }
}

/// The brute-force filter: the query judged on one card, from its fields.
fn judge(q: &Q, card: &Card, made: &Made) -> bool {
    match q {
        Q::All(parts) => parts.iter().all(|p| judge(p, card, made)),
        Q::Any(parts) => parts.iter().any(|p| judge(p, card, made)),
        Q::Not(part) => !judge(part, card, made),
        Q::Term(t) => judge_term(t, card, made),
    }
}

fn judge_term(t: &Term, card: &Card, made: &Made) -> bool {
    let name_has = |w: &str| {
        let w = w.to_lowercase();
        card.name.to_lowercase().contains(&w)
            || card.translations.values().any(|t| {
                t.name
                    .as_deref()
                    .is_some_and(|n| n.to_lowercase().contains(&w))
            })
    };
    match t {
        Term::Word(w) => name_has(NAME_WORDS[*w]),
        // `:` contains; `=` and `!=` compare whole names.
        Term::Name(Op::Has, w) => name_has(NAME_WORDS[*w]),
        Term::Name(o, w) => {
            let w = NAME_WORDS[*w].to_lowercase();
            let equal = card.name.to_lowercase() == w
                || card
                    .translations
                    .values()
                    .any(|t| t.name.as_deref().is_some_and(|n| n.to_lowercase() == w));
            o.has(equal)
        }
        Term::Element(o, e) => o.has(card.elements.contains(&Element::ALL[*e])),
        Term::Type(o, t) => {
            let ty = BASE_TYPES.get(*t).copied().unwrap_or("speedster");
            o.has(card.types.iter().any(|have| have.0 == ty))
        }
        Term::Kind(o, k) => o.has(card.kind == KINDS[*k]),
        Term::Rarity(o, r) => o.has(card.rarity == RARITIES[*r]),
        Term::Set(o, s) => o.has(card.set.0 == SETS[*s].0),
        Term::Star(o, n) => card.stars.is_some_and(|s| o.compare(u32::from(s), *n)),
        Term::Copies(o, n) => o.compare(u32::from(card.copies), *n),
        Term::Keyword(o, k) => o.has(made.keywords.contains(&KEYWORDS[*k])),
        Term::Timing(o, t) => o.has(made.timings.contains(&Timing::ALL[*t])),
        Term::Text(Op::Has, n) => card
            .effect_text
            .values()
            .any(|text| text.to_lowercase().contains(&format!("gain {n} rp"))),
        Term::Text(o, n) => o.has(
            card.effect_text
                .values()
                .any(|text| text.to_lowercase() == format!("play: gain {n} rp.")),
        ),
        Term::Is(f, want) => {
            let has = match FLAGS[*f] {
                "effect" => card.effect.is_some(),
                "vanilla" => card.effect.is_none(),
                "flavor" => card.flavor.is_some(),
                "translated" => !card.translations.is_empty(),
                _ => card.translations.values().any(|t| !t.stale.is_empty()),
            };
            has == *want
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn search_finds_what_a_brute_force_filter_finds(seed in any::<u64>(), q in query()) {
        let (database, made) = database(seed, 60);
        let catalog = Catalog::new(&database, &Keywords::builtin());
        let text = write(&q, false);
        let query = match Query::parse(&text, &catalog) {
            Ok(query) => query,
            Err(problems) => panic!("`{text}` does not parse: {problems:#?}"),
        };
        let found: Vec<&str> = Index::new(&database)
            .search(&query)
            .map(|c| c.id.0.as_str())
            .collect();
        // The server's index, every column made and the texts folded
        // once, finds the same.
        let columns = Index::new(&database);
        columns.make_columns();
        let found_in_columns: Vec<&str> = columns.search(&query).map(|c| c.id.0.as_str()).collect();
        prop_assert_eq!(&found_in_columns, &found, "`{}`, columns made", text);
        let want: Vec<&str> = database
            .cards
            .iter()
            .zip(&made)
            .filter(|(card, made)| judge(&q, card, made))
            .map(|(card, _)| card.id.0.as_str())
            .collect();
        // Read from the card index without the cards' texts, a query that
        // needs none of them finds the same.
        let light = without_texts(&database);
        let light_catalog = Catalog::new(&light, &Keywords::builtin());
        if let Ok(light_query) = Query::parse(&text, &light_catalog)
            && columns_needed(&light_query, &light_catalog, false) == Columns::WithoutTexts
        {
            let mut found_light: Vec<&str> = Index::new(&light)
                .search(&light_query)
                .map(|c| c.id.0.as_str())
                .collect();
            // The sections hold each set's cards together.
            let mut found_sorted = found.clone();
            found_light.sort_unstable();
            found_sorted.sort_unstable();
            prop_assert_eq!(&found_light, &found_sorted, "`{}`, without texts", text);
            // Sieved as the card index sieves: parsed against the sets
            // alone, and when that parse read no card, the query run on
            // each set's cards as a database of their own.
            let sets_only = Database { cards: Vec::new(), ..light.clone() };
            let sets_catalog = Catalog::new(&sets_only, &Keywords::builtin());
            if let Ok(sieve_query) = Query::parse(&text, &sets_catalog)
                && !sets_catalog.read_cards_words()
            {
                let mut sieved: Vec<String> = Vec::new();
                for set in &light.sets {
                    let section = Database {
                        cards: (light.cards.iter()).filter(|c| c.set == set.id).cloned().collect(),
                        sets: vec![set.clone()],
                        ..light.clone()
                    };
                    let places = Index::new(&section).places(&sieve_query);
                    sieved.extend(places.into_iter().map(|at| section.cards[at].id.0.clone()));
                }
                sieved.sort_unstable();
                prop_assert_eq!(&sieved, &found_sorted, "`{}`, sieved", text);
            }
        }
        prop_assert_eq!(found, want, "`{}`", text);
        // Saying the query back never fails, in either language.
        prop_assert!(!query.explain(blades::effect::Lang::En).is_empty());
        prop_assert!(!query.explain(blades::effect::Lang::Ja).is_empty());
    }
}
