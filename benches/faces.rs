//! Card-face speed: every face of the built-in pool (83 cards) in English
//! and Japanese, drawn as SVG with its text fitted (the brief: under 1 s),
//! and the fit-only check `blades build` runs.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

use blades::faces::render;
use blades::faces::svg::FaceOptions;
use blades::workspace::Workspace;

fn faces(c: &mut Criterion) {
    let database = Workspace::builtin().database().expect("built-in pool");
    let cards: Vec<_> = database.cards.iter().collect();
    let langs = vec!["en".to_string(), "ja".to_string()];
    let options = FaceOptions::default();
    let mut group = c.benchmark_group("faces");
    group.sample_size(20);
    group.bench_function("render all faces of the built-in pool, en and ja", |b| {
        b.iter(|| black_box(render::render_faces(&database, &cards, &langs, &options)))
    });
    group.bench_function("check all faces of the built-in pool (build)", |b| {
        b.iter(|| black_box(render::check_faces(&database, &langs)))
    });
    group.finish();
}

criterion_group!(benches, faces);
criterion_main!(benches);
