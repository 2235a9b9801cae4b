//! Deck checks against every shipped format: 10,000 decks each, read
//! from text, resolved against a generated pool and checked (the issue's
//! figure: 10,000 decks under 2 s).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

use blades::cards::CardIndex;
use blades::model::{Card, Database};
use blades::rules::deck::{self, Placed};
use blades::rules::input::{self, InputFile};
use blades::words::{CardKind, Element, Id};

fn database() -> Database {
    let categories = [
        "face",
        "number",
        "monster-slider",
        "trap-tile",
        "millennium",
        "monster",
    ];
    let cards = (0..240)
        .map(|i| Card {
            elements: vec![Element::ALL[i % 6]],
            category: Some(Id(categories[i % 6].to_string())),
            ..Card::new(
                &format!("card-{i:03}"),
                &format!("Bench Card {i}"),
                "bench",
                [
                    CardKind::Single,
                    CardKind::Single,
                    CardKind::Single,
                    CardKind::DeckBox,
                    CardKind::Accessory,
                ][i % 5],
                (i % 10) as u8 + 1,
            )
        })
        .collect();
    Database {
        keywords: None,
        format: 1,
        sets: Vec::new(),
        cards,
    }
}

/// 10,000 deck lists of 11 to 60 cards, the second half of each under a
/// second zone header (read as the first zone for one-zone formats).
fn decks(format: &deck::DeckFormat) -> Vec<InputFile> {
    let second = format
        .zones
        .get(1)
        .map_or(&format.zones[0].name, |z| &z.name);
    (0..10_000)
        .map(|d| {
            let size = 11 + d % 50;
            let mut text = String::new();
            for i in 0..size {
                if i == size / 2 {
                    text.push_str(&format!("{second}:\n"));
                }
                text.push_str(&format!("Bench Card {}\n", (d * 7 + i * 13) % 240));
            }
            InputFile::new("deck.txt", &text)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let db = database();
    let index = CardIndex::new(&db);
    let mut group = c.benchmark_group("10,000 decks");
    group.sample_size(10);
    for format in deck::formats() {
        let files = decks(format);
        group.bench_function(format.id.0.as_str(), |b| {
            b.iter(|| {
                let mut legal = 0;
                for file in &files {
                    let mut found = Vec::new();
                    let doc = input::read_deck(black_box(file), &mut found);
                    let mut placed: Vec<Placed> =
                        input::resolve_cards(&index, file, &doc.cards, &mut found)
                            .into_iter()
                            .map(|(c, n)| (0, c, n))
                            .collect();
                    for section in &doc.sections {
                        let zone =
                            input::resolve_zone(format, &file.path, &section.zone, &mut found)
                                .unwrap_or(0);
                        placed.extend(
                            input::resolve_cards(&index, file, &section.cards, &mut found)
                                .into_iter()
                                .map(|(c, n)| (zone, c, n)),
                        );
                    }
                    legal += usize::from(
                        deck::check_zoned(format, None, &placed)
                            .violations
                            .is_empty(),
                    );
                }
                legal
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
