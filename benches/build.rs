//! Load + validate: the built-in pool and a 10,000-card synthetic pool.

use std::hint::black_box;
use std::sync::Arc;

use blades::compile::compile;
use blades::pool::{Pool, SourceFile};
use criterion::{Criterion, criterion_group, criterion_main};

fn synthetic(cards: usize) -> Pool {
    let mut pool = Pool::default();
    for (name, text) in blades::synth::pool(cards, 7) {
        pool.sets.push(SourceFile::new(
            Arc::from(name.as_str()),
            name,
            Arc::from(text),
        ));
    }
    pool
}

fn bench(c: &mut Criterion) {
    let builtin = Pool::builtin();
    c.bench_function("compile builtin pool", |b| {
        b.iter(|| compile(black_box(&builtin)))
    });
    let big = synthetic(10_000);
    assert!(
        compile(&big).output.is_some(),
        "the synthetic pool is valid"
    );
    let mut group = c.benchmark_group("large");
    group.sample_size(10);
    group.bench_function("compile 10,000 cards", |b| {
        b.iter(|| compile(black_box(&big)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
