//! One benchmark per stage of `blades build`, on a 10,000-card synthetic pool:
//! read, YAML with spans, JSON Schema, per-file loading, pool-wide checks,
//! database assembly, database write and database load.

use std::hint::black_box;

use blades::compile::{assemble, check_pool, compile};
use blades::load::{LoadedSet, load_set};
use blades::model::Database;
use blades::pool::{Pool, SourceFile};
use blades::set_schema::SetValidator;
use blades::yaml;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const CARDS: usize = 10_000;

fn bench(c: &mut Criterion) {
    let files = blades::synth::pool(CARDS, 11);
    let bytes: usize = files.iter().map(|(_, t)| t.len()).sum();
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, text) in &files {
        std::fs::write(dir.path().join(name), text).expect("write pool");
    }
    let pool = Pool::from_dir(dir.path()).expect("pool");
    let sources: Vec<SourceFile> = files
        .iter()
        .map(|(name, text)| SourceFile::named(name, text))
        .collect();
    let docs: Vec<yaml::Node> = sources
        .iter()
        .map(|f| yaml::parse(f.text()).expect("valid"))
        .collect();
    let jsons: Vec<serde_json::Value> = docs.iter().map(yaml::Node::to_json).collect();
    let loaded: Vec<LoadedSet> = sources
        .iter()
        .filter_map(|f| load_set(f, &mut Vec::new()))
        .collect();
    let mut diagnostics = Vec::new();
    let derived = check_pool(&loaded, &mut diagnostics);
    assert!(diagnostics.is_empty());
    let database = compile(&pool).output.into_database().expect("valid pool");
    let json = serde_json::to_vec_pretty(&database).expect("serialises");

    let mut group = c.benchmark_group("stages (10,000 cards)");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("read files", |b| {
        b.iter(|| Pool::from_dir(black_box(dir.path())))
    });
    group.bench_function("yaml with spans", |b| {
        b.iter(|| {
            sources
                .iter()
                .filter(|f| yaml::parse(black_box(f.text())).is_ok())
                .count()
        })
    });
    group.bench_function("yaml to json", |b| {
        b.iter(|| docs.iter().filter(|d| d.to_json().is_object()).count())
    });
    let validator = SetValidator::get();
    group.bench_function("json schema", |b| {
        b.iter(|| {
            sources
                .iter()
                .zip(&docs)
                .zip(&jsons)
                .map(|((f, d), j)| validator.validate(&f.path, d, j).len())
                .sum::<usize>()
        })
    });
    group.bench_function("load set (one thread)", |b| {
        b.iter(|| {
            sources
                .iter()
                .filter_map(|f| load_set(f, &mut Vec::new()))
                .count()
        })
    });
    group.bench_function("pool checks", |b| {
        b.iter(|| check_pool(black_box(&loaded), &mut Vec::new()))
    });
    group.bench_function("assemble database", |b| {
        b.iter(|| assemble(black_box(&loaded), &derived))
    });
    group.throughput(Throughput::Bytes(json.len() as u64));
    group.bench_function("database write (pretty JSON)", |b| {
        b.iter(|| serde_json::to_vec_pretty(black_box(&database)).map(|v| v.len()))
    });
    group.bench_function("database load", |b| {
        b.iter(|| serde_json::from_slice::<Database>(black_box(&json)).map(|d| d.cards.len()))
    });
    group.bench_function("whole compile (parallel)", |b| {
        b.iter(|| compile(black_box(&pool)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
