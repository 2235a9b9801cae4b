//! Player-check speed: one deck check (reading, resolving and checking),
//! and the exact best collection and Duel Mode pair on a 200-card binder.
//!
//! The card pool is generated here (200 cards over every element and base
//! type, STARs 1 to 10), so the figures do not depend on the built-in pool.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

use blades::cards::CardIndex;
use blades::model::{Card, Database};
use blades::rules::input::{self, InputFile};
use blades::rules::{Counted, collection, deck};
use blades::words::{BASE_TYPES, CardKind, Element, Id, SetKind};

fn database(cards: usize) -> Database {
    let cards = (0..cards)
        .map(|i| {
            let kind = match i % 10 {
                8 => CardKind::DeckBox,
                9 => CardKind::Accessory,
                _ => CardKind::Single,
            };
            Card {
                id: Id(format!("card-{i:03}")),
                name: format!("Bench Card {i}"),
                set: Id(format!("set-{}", i / 12)),
                kind,
                stars: Some((i % 10) as u8 + 1),
                elements: vec![Element::ALL[i % 6], Element::ALL[(i / 6) % 6]],
                types: vec![Id(BASE_TYPES[(i / 3) % 6].to_string())],
                rarity: SetKind::Expansion,
                copies: 2,
                ..Card::new("", "", "", CardKind::Single, 1)
            }
        })
        .collect();
    Database {
        keywords: None,
        format: 1,
        sets: Vec::new(),
        cards,
    }
}

fn bench(c: &mut Criterion) {
    let db = database(200);
    let index = CardIndex::new(&db);
    let deck_text = "character: Deques Applenti\ncards:\n".to_string()
        + &(0..11)
            .map(|i| format!("  - Bench Card {}\n", i * 7))
            .collect::<String>();
    let file = InputFile::new("deck.yaml", &deck_text);
    c.bench_function("deck check (read, resolve, check)", |b| {
        b.iter(|| {
            let mut found = Vec::new();
            let doc = input::read_deck(black_box(&file), &mut found);
            let character = doc
                .character
                .as_ref()
                .and_then(|r| input::resolve_character(&file.path, r, &mut found));
            let cards = input::resolve_cards(&index, &file, &doc.cards, &mut found);
            deck::check(deck::tournament(), character, &cards)
        })
    });
    let binder: Vec<Counted> = db
        .cards
        .iter()
        .map(|c| (c, 1 + c.star_value() % 2))
        .collect();
    c.bench_function("collection best, 200-card binder", |b| {
        b.iter(|| collection::best(black_box(&binder)))
    });
    c.bench_function("duel best pair, 200-card binder", |b| {
        b.iter(|| collection::best_duel(black_box(&binder)))
    });
    c.bench_function("card index of 200 cards", |b| {
        b.iter(|| CardIndex::new(black_box(&db)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
