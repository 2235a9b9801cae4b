//! Search speed on a 100,000-card synthetic database (issue 18: a search
//! under 100 ms after load, the whole process under 0.5 s): the database
//! read from its JSON file (what `blades search --db` does first), the
//! catalog of words a query is checked against, and queries of every kind,
//! on a fresh index (the keyword and timing columns a query needs built
//! inside the measurement) and on one already built, and whole queries
//! after load (catalog, query, fresh index, search).

use std::hint::black_box;
use std::sync::Arc;

use blades::compile::compile;
use blades::effect::Keywords;
use blades::model::Database;
use blades::pool::{Pool, SourceFile};
use blades::search::{Catalog, Index, Query};
use criterion::{Criterion, criterion_group, criterion_main};

const CARDS: usize = 100_000;

const QUERIES: &[&str] = &[
    "e:fire t:construct star>=3",
    "name:\"card 12\" or o:\"gain 3 rp\"",
    "kw:scurry -is:vanilla timing:play",
    "o:/gain [0-9] RP/ flavor:a",
    "属性:炎 種族:機械 レアリティ:基本",
];

fn database() -> Database {
    let mut pool = Pool::default();
    for (name, text) in blades::synth::pool_with(CARDS, 7, true) {
        let file = SourceFile::new(Arc::from(name.as_str()), name.clone(), Arc::from(text));
        match name.starts_with("locales/") {
            true => pool.data.push(file),
            false => pool.sets.push(file),
        }
    }
    let mut database = compile(&pool)
        .output
        .into_database()
        .expect("the synthetic pool is valid");
    // As `--db` reads it: the file holds no parsed trees for a reader.
    for card in &mut database.cards {
        card.effect_tree = None;
    }
    database
}

fn bench(c: &mut Criterion) {
    let database = database();
    assert!(database.cards.len() >= CARDS);
    let json = serde_json::to_vec(&database).expect("the database serializes");
    let dir = tempfile::tempdir().expect("a temp folder");
    let file = dir.path().join("cards.json");
    std::fs::write(&file, &json).expect("the database is written");
    let keywords = Keywords::builtin();
    let catalog = Catalog::new(&database, &keywords);
    let mut group = c.benchmark_group("search 100,000 cards");
    group.sample_size(10);
    group.bench_function("read the database file", |b| {
        b.iter(|| blades::search::read_database(black_box(&file)).expect("it reads"))
    });
    group.bench_function("catalog", |b| {
        b.iter(|| Catalog::new(black_box(&database), &keywords))
    });
    for text in QUERIES {
        let query = Query::parse(text, &catalog).expect("a good query");
        group.bench_function(format!("fresh index: {text}"), |b| {
            b.iter(|| Index::new(black_box(&database)).search(&query).count())
        });
        // What `blades search --db` does once the file is read: the
        // catalog, the query checked against it, a fresh index and the
        // search.
        group.bench_function(format!("whole query after load: {text}"), |b| {
            b.iter(|| {
                let index = Index::new(black_box(&database));
                let catalog = Catalog::for_index(&index, &keywords);
                let query = Query::parse(text, &catalog).expect("a good query");
                index.search(&query).count()
            })
        });
        let index = Index::new(&database);
        let _ = index.search(&query).count();
        group.bench_function(format!("built index: {text}"), |b| {
            b.iter(|| index.search(black_box(&query)).count())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
