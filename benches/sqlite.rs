//! Writing the database as SQLite (`blades build --sqlite`) for a
//! 100,000-card synthetic pool with Japanese translations: from the models
//! (a build without the cache) and from the JSON pieces (a cached build).
//! The issue asks under 2 s; the median is in bench/RESULTS.md.

use std::hint::black_box;

use blades::compile::{Output, compile};
use blades::pool::Pool;
use blades::sqlite::{Source, write_dated};
use blades::workspace::{BuildSettings, Builder};
use criterion::{Criterion, criterion_group, criterion_main};

const CARDS: usize = 100_000;

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, text) in blades::synth::pool_with(CARDS, 7, true) {
        let path = dir.path().join("pool").join(name);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("pool folder");
        std::fs::write(path, text).expect("write pool");
    }
    let pool = Pool::from_dir(&dir.path().join("pool")).expect("pool");
    let database = compile(&pool)
        .output
        .into_database()
        .expect("the synthetic pool is valid");
    assert_eq!(database.cards.len(), CARDS);
    // A cached build, then one that finds the JSON database up to date:
    // its pieces are the cards in that file.
    let mut builder = Builder::new(BuildSettings {
        cards: Some(dir.path().join("pool")),
        out: dir.path().join("dist/cards.json"),
        ..BuildSettings::default()
    });
    for _ in 0..2 {
        let pool = builder.read(None).expect("pool");
        let build = builder.build(&pool, None);
        assert!(build.unwritten.is_empty(), "cache kept");
    }
    let pool = builder.read(None).expect("pool");
    let build = builder.build(&pool, None);
    let Output::Unchanged(pieces) = &build.compiled.output else {
        panic!("the JSON database is up to date");
    };
    let out = dir.path().join("cards.sqlite");
    let mut group = c.benchmark_group("sqlite");
    group.sample_size(10);
    group.bench_function("write 100,000 cards from models", |b| {
        b.iter(|| write_dated(black_box(&out), Source::Models(&database), 0).expect("written"))
    });
    group.bench_function("write 100,000 cards from JSON pieces", |b| {
        b.iter(|| write_dated(black_box(&out), Source::Pieces(pieces), 0).expect("written"))
    });
    group.finish();
    let size = std::fs::metadata(&out).map_or(0, |m| m.len());
    println!("SQLite file: {:.1} MB", size as f64 / 1e6);
}

criterion_group!(benches, bench);
criterion_main!(benches);
