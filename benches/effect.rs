//! Parsing throughput of the effect language on a large corpus of realistic
//! card texts (the reference's examples and the pool's phrasing, repeated).
//! Target: at least 20 MB/s of effect text.

use std::hint::black_box;

use blades::effect::{Lang, Phrasebook, Vocabulary, check, format, parse, render};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

// The allocator the `blades` binary uses, so the figures are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Card effects as designers write them: one or two lines each.
const EFFECTS: &[&str] = &[
    "Play: Gain 2 RP for each fire card in your tableau.",
    "Reaction (when an opponent flips this card): Clash with an opponent. Win: gain 3 RP. Lose: lose 1 RP. Tie: gain 1 RP.",
    "Ongoing: Adjacent cards cannot be flipped.",
    "Scurry.\nPlay: Gain 1 RP.",
    "Blast Off PLUS.\nScore: Gain 1 RP for each face-up card in your tableau.",
    "Thwomp! 3.\nTop: This card cannot be flipped.",
    "Action: You may flip this card to put 3 +1 STAR tokens on the next card you play.",
    "Play: If the card to the left has a lower STAR than this card, flip it and gain 3 RP.",
    "Action: Flip a card in an opponent's tableau with a lower STAR than this card.",
    "Mimicry.\nScore: Gain 1 RP for each different element in your tableau.",
    "Score: Gain 5 RP for each card to the left of this card.",
    "Top: Each opponent loses 1 RP for each card in their hand.",
    "Play: Discard a card from your hand to the Store Discard to gain 4 RP.",
    "Action: Flip this card. Look at the top 3 cards of the store. Take 1 of them.",
    "Next: If it is a mage card, put 2 +1 STAR tokens on it.",
    "Ongoing: You have 1 extra tableau slot.",
    "Play: Copy the effect of the card to the left.\nTop: Adjacent cards cannot be flipped.",
    "Action: Flip this card. Put a +1 STAR token on the card with the highest STAR in your tableau.",
    "Score: If you have 3 or more water cards in your tableau, gain 6 RP.",
    "Play: Flip up to 2 face-up singles with STAR 3 or less in each opponent's tableau.",
    "Play: Insert 1 soldier card from your hand into your tableau.\nScore: Gain 1 RP for each soldier card in your tableau.",
    "Reaction (when a card in your tableau is flipped): Put a +1 STAR token on your Top Card.",
    "Play: Reveal the top card of the Store. If it is a dark card, gain 2 RP.",
    "Flip: Discard up to 2 accessories from your hand to the box.",
    "Score: If your Top Card is a citizen card, gain 3 RP.",
    "Play: Return the card to the right to your hand, then all players gain 1 RP.",
    "Anvil Drop.\nOngoing: Adjacent cards cannot be flipped.",
    "Play: Clash with all players. Win: gain 5 RP. Lose: lose 2 RP. Tie: gain 2 RP.",
    "Action: Flip this card. Put 1 deck box from your hand in the box. Gain 3 RP.",
    "Score: Gain 2 RP for each premium card from the Tin Town set in your tableau.",
    // The whole game: the Deckbuilding Phase, choices, comparisons,
    // referring back, shared subjects, money and Friendship Cards.
    "Deckbuilding: Whenever you sell a card to the Aftermarket, until the end of the Deckbuilding Phase, cards in the Store cost 1 Millennium Dollar less.",
    "Play: Choose one — gain 2 RP; or each opponent loses 1 RP.",
    "Play: If you have fewer RP than each opponent, gain 4 RP.",
    "Play: Look at the top 3 cards of the Store. Take one of them into your hand. Put the rest into the Aftermarket.",
    "Ongoing: This card and the card to the left cannot be flipped.",
    "Deckbuilding: Whenever an opponent trades, each opponent gives 1 Millennium Dollar to you.",
    "Action: Clash with an opponent. Win: that opponent loses 2 RP and discards a card from their hand.",
];

/// About `bytes` of effect text, as separate card effects.
fn corpus(bytes: usize) -> Vec<&'static str> {
    let mut out = Vec::new();
    let mut total = 0;
    while total < bytes {
        for e in EFFECTS {
            out.push(*e);
            total += e.len();
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let corpus = corpus(1 << 20);
    let bytes: usize = corpus.iter().map(|e| e.len()).sum();
    for text in &corpus[..EFFECTS.len()] {
        assert!(parse(text).is_ok(), "{text}");
    }

    let mut group = c.benchmark_group("effect");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.sample_size(20);
    group.bench_function("parse", |b| {
        b.iter(|| {
            for text in &corpus {
                black_box(parse(black_box(text)).is_ok());
            }
        })
    });

    let effects: Vec<_> = corpus.iter().map(|t| parse(t).unwrap()).collect();
    let mut vocab = Vocabulary::base();
    vocab.sets.push(("tin-town".into(), "Tin Town".into()));
    group.bench_function("check", |b| {
        b.iter(|| {
            for e in &effects {
                black_box(check(e, &vocab));
            }
        })
    });
    group.bench_function("format", |b| {
        b.iter(|| {
            for e in &effects {
                black_box(format(e));
            }
        })
    });
    let ja = Phrasebook::builtin(Lang::Ja);
    group.bench_function("render_ja", |b| {
        b.iter(|| {
            for e in &effects {
                black_box(render(e, Lang::Ja, &ja, &vocab));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
