//! The editor server's index of a pool (`lsp::index::PoolIndex`) on a
//! 100,000-card synthetic pool with Japanese names: read from scratch,
//! brought up to date after an edit of one set file, and a name looked up;
//! beside them, what rebuilding one `NameIndex` of every name would cost
//! (the alternative to updating the index's names file by file).

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use blades::cards::{NameIndex, NameSource};
use blades::compile::Output;
use blades::lsp::index::PoolIndex;
use blades::pool::Pool;
use criterion::{Criterion, criterion_group, criterion_main};

const CARDS: usize = 100_000;

fn bench(c: &mut Criterion) {
    let mut pool = Pool::default();
    for (name, text) in blades::synth::pool_with(CARDS, 11, true) {
        pool.overlay(&name, Arc::from(text));
    }
    let pool = Arc::new(pool);
    let first = pool.sets[0].clone();
    let mut edited = (*pool).clone();
    let renamed = first.text().replacen("name: ", "name: Edited ", 2);
    edited.overlay(&first.relative, Arc::from(renamed));
    let edited = Arc::new(edited);
    let dir = Path::new("cards");
    let mut group = c.benchmark_group("lsp index, 100,000 cards");
    group.sample_size(10);
    group.bench_function("read from scratch", |b| {
        b.iter(|| PoolIndex::of(dir, pool.clone(), Output::None));
    });
    let mut index = PoolIndex::of(dir, pool.clone(), Output::None);
    let mut which = false;
    group.bench_function("update after one set file's edit", |b| {
        b.iter(|| {
            which = !which;
            let now = if which { &edited } else { &pool };
            index.update(now.clone(), Output::None);
        });
    });
    let names: Vec<(String, Option<String>)> = index
        .cards()
        .map(|c| (c.id.clone(), c.name.clone()))
        .collect();
    group.bench_function("a NameIndex of every id and name, rebuilt", |b| {
        b.iter(|| {
            let mut rebuilt = NameIndex::new();
            for (i, (id, name)) in names.iter().enumerate() {
                rebuilt.insert(id, NameSource::Id, i);
                if let Some(name) = name {
                    rebuilt.insert(name, NameSource::English, i);
                }
            }
            rebuilt
        });
    });
    let last = &names[names.len() - 1].0;
    group.bench_function("find a card by id", |b| {
        b.iter(|| index.find(black_box(last)));
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
