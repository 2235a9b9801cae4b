//! Reporting many findings: a set file of empty cards (four `missing-field`
//! errors each) compiled, then reported as JSON and for people, at 10,000
//! and 100,000 errors. Time per error should stay flat from one size to the
//! next: locating a finding goes through the file's line index, and the
//! human report draws a bounded number per code and file.

use std::hint::black_box;

use blades::compile::compile;
use blades::pool::Pool;
use blades::report::{Style, render_human, render_json};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

fn pool_with_errors(errors: usize) -> (tempfile::TempDir, Pool) {
    let dir = tempfile::tempdir().expect("temp dir");
    let cards = "  - {}\n".repeat(errors / 4);
    let text = format!("id: big\nname: Big\nkind: expansion\ncost: 3\ncards:\n{cards}");
    std::fs::write(dir.path().join("big.yaml"), text).expect("write pool");
    let pool = Pool::from_dir(dir.path()).expect("pool");
    (dir, pool)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("diagnostics");
    group.sample_size(10);
    for errors in [10_000, 100_000] {
        let (_dir, pool) = pool_with_errors(errors);
        let compiled = compile(&pool);
        assert!(compiled.error_count() >= errors);
        group.throughput(Throughput::Elements(errors as u64));
        group.bench_with_input(BenchmarkId::new("compile", errors), &pool, |b, pool| {
            b.iter(|| compile(black_box(pool)).error_count())
        });
        group.bench_with_input(
            BenchmarkId::new("json", errors),
            &compiled,
            |b, compiled| {
                b.iter(|| render_json(black_box(&compiled.diagnostics), &compiled.sources).len())
            },
        );
        group.bench_with_input(
            BenchmarkId::new("human", errors),
            &compiled,
            |b, compiled| {
                b.iter(|| {
                    render_human(
                        black_box(&compiled.diagnostics),
                        &compiled.sources,
                        Style::default(),
                    )
                    .len()
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
