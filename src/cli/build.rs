//! `blades build`: compile the pool into `dist/cards.json`.

use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use blades::artifacts::{self, DatabaseWriter};
use blades::cache::Cache;
use blades::compile::{Compiled, Options, compile_with};
use blades::diagnostics::Diagnostic;
use blades::files;
use blades::model::DATABASE_FORMAT;
use blades::pool::{Listing, Pool, PoolError};
use blades::report::{self, Format};

use super::out::{self, stderr, stderrln};
use super::{Context, exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where to write the database.
    #[arg(long, short, value_name = "FILE", default_value = "dist/cards.json")]
    out: PathBuf,
    /// Check YAML and the JSON Schema only: no pool-wide checks, nothing written.
    #[arg(long)]
    schema_only: bool,
    /// Neither read nor write the build cache (`.blades-cache` beside the output).
    #[arg(long)]
    no_cache: bool,
    /// Rebuild whenever a file of the pool changes, printing only new problems (needs --cards).
    #[arg(long, conflicts_with = "schema_only")]
    watch: bool,
    /// Print where the time went (reading, per-file checks, pool checks, writing).
    #[arg(long)]
    timings: bool,
    /// Indent the database JSON (larger; the default is compact). Builds
    /// without the cache, which keeps compact JSON.
    #[arg(long)]
    pretty: bool,
}

/// Pools smaller than this build too fast to need a progress bar.
const PROGRESS_MIN_FILES: usize = 200;

pub fn run(context: &Context, args: Args) -> ExitCode {
    if args.watch {
        return watch(context, &args);
    }
    let started = Instant::now();
    let (pool, mut cache) = match pool_and_cache(context, &args) {
        Ok(found) => found,
        Err(code) => return code,
    };
    let read = started.elapsed();
    let files = pool.sets.len() + pool.data.len();
    let files_read = pool
        .sets
        .iter()
        .chain(&pool.data)
        .filter(|f| f.is_read())
        .count();
    let mut writer = database_writer(&args);
    let compiled = build_with_progress(&pool, cache.as_mut(), writer.as_mut(), &args);
    let before_write = started.elapsed();
    if args.schema_only {
        context.report(&compiled.diagnostics, &compiled.sources);
        return ExitCode::from(if compiled.error_count() > 0 {
            exit::PROBLEMS
        } else {
            exit::OK
        });
    }
    // The database is written before anything is reported: what the build
    // leaves on disk never depends on whether anyone reads its report.
    let written = write_database(&args.out, &compiled, cache.as_mut(), writer);
    let code = written.code();
    let written_at = started.elapsed();
    context.report(&compiled.diagnostics, &compiled.sources);
    written.report(context, &args.out);
    // A failed build leaves every file as it was, the cache too.
    if code == exit::OK
        && let Some(cache) = cache.as_mut()
        && let Err(e) = cache.save()
    {
        stderrln!("warning: cannot write the build cache: {e}");
    }
    if args.timings {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        stderrln!(
            "timings: read and cache load {:.1} ms ({files_read} of {files} files read), per-file checks {:.1} ms ({} of {} files reused), pool checks {:.1} ms, write {:.1} ms, cache save {:.1} ms",
            ms(read),
            ms(compiled.timings.files),
            compiled.reused_files,
            pool.sets.len(),
            ms(compiled.timings.pool),
            ms(written_at - before_write),
            ms(started.elapsed() - written_at)
        );
    }
    // The process ends here: the OS takes the memory back at once, where
    // freeing a large pool's millions of strings one by one takes a while.
    std::mem::forget((compiled, pool, cache));
    ExitCode::from(code)
}

/// The pool and the build cache. The cache is decoded while the pool's
/// files are found and stamped, and the files it vouches for (unchanged
/// since a build read them) are not read.
fn pool_and_cache(context: &Context, args: &Args) -> Result<(Pool, Option<Cache>), ExitCode> {
    let open_cache = || uses_cache(args).then(|| Cache::open_beside(&args.out));
    let Some(dir) = &context.cards else {
        return Ok((Pool::builtin(), open_cache()));
    };
    // Stamps only matter to a cache.
    let list = || match uses_cache(args) {
        true => Pool::list(dir).map(Listing::stamp),
        false => Pool::list(dir),
    };
    let (listing, cache) = rayon::join(list, open_cache);
    let pool = read_listed(listing, cache.as_ref()).map_err(super::pool_error)?;
    Ok((pool, cache))
}

/// Reads the files of a listed pool that `cache` does not vouch for.
fn read_listed(
    listing: Result<Listing, PoolError>,
    cache: Option<&Cache>,
) -> Result<Pool, PoolError> {
    listing?.read(|path, stamp| cache?.known(path, stamp))
}

/// Whether a build reads and writes the cache.
fn uses_cache(args: &Args) -> bool {
    !args.no_cache && !args.schema_only && !args.pretty
}

/// Whether the database is written while the sets are made (compact JSON,
/// set by set); `--pretty` serializes the whole database at the end.
fn writes_while_building(args: &Args) -> bool {
    !args.schema_only && !args.pretty
}

/// The writer of the database as it is made, if it is; with a cache, the
/// database it replaces is left for the next build to delete.
fn database_writer(args: &Args) -> Option<DatabaseWriter> {
    let writer =
        writes_while_building(args).then(|| DatabaseWriter::new(&args.out, DATABASE_FORMAT))?;
    Some(match uses_cache(args) {
        true => writer.keeping_replaced(),
        false => writer,
    })
}

/// What became of the database.
enum Written {
    /// Written (or already on disk as it would be written).
    Done { sets: usize, cards: usize },
    /// The build has errors: nothing written.
    NotBuilt,
    /// Writing failed.
    Failed(std::io::Error),
}

impl Written {
    fn code(&self) -> u8 {
        match self {
            Written::Done { .. } => exit::OK,
            Written::NotBuilt => exit::PROBLEMS,
            Written::Failed(_) => exit::CANNOT_RUN,
        }
    }

    /// Says what was written, or why not (after the diagnostics).
    fn report(&self, context: &Context, out: &Path) {
        match self {
            Written::Done { sets, cards } => {
                if context.format == Format::Human {
                    stderrln!("built {sets} sets, {cards} cards into {}", out.display());
                }
            }
            Written::NotBuilt => {}
            Written::Failed(e) => stderrln!("error: cannot write `{}`: {e}", out.display()),
        }
    }
}

/// Writes the database of a successful build (telling the cache where its
/// sets went), printing nothing.
fn write_database(
    out: &Path,
    compiled: &Compiled,
    cache: Option<&mut Cache>,
    writer: Option<DatabaseWriter>,
) -> Written {
    let (written, sets, cards) = match (&compiled.database, &compiled.json) {
        // Only `--pretty` builds the database as models.
        (Some(database), _) => (
            files::write_artifact(out, |w| artifacts::write_database(w, database, true)),
            database.sets.len(),
            database.cards.len(),
        ),
        // Already on disk as this build would write it: left untouched (a
        // tool that watches it sees no change).
        (None, Some(json)) if compiled.database_unchanged => (Ok(()), json.sets.len(), json.cards),
        (None, Some(json)) => {
            let written = match writer {
                Some(writer) => writer.finish(),
                None => artifacts::write_database_json_file(out, json),
            };
            if let (Ok(written), Some(cache)) = (&written, cache) {
                cache.database_written(&json.paths, written);
            }
            (written.map(|_| ()), json.sets.len(), json.cards)
        }
        (None, None) => return Written::NotBuilt,
    };
    match written {
        Ok(()) => Written::Done { sets, cards },
        Err(e) => Written::Failed(e),
    }
}

/// Compiles, showing a progress bar on a terminal for large pools.
fn build_with_progress(
    pool: &Pool,
    cache: Option<&mut Cache>,
    writer: Option<&mut DatabaseWriter>,
    args: &Args,
) -> Compiled {
    let total = pool.sets.len();
    let show = total >= PROGRESS_MIN_FILES
        && std::io::stderr().is_terminal()
        && std::env::var_os("CI").is_none();
    let done = AtomicUsize::new(0);
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        if show {
            scope.spawn(|| {
                while !finished.load(Ordering::Relaxed) {
                    let n = done.load(Ordering::Relaxed);
                    let filled = n * 30 / total.max(1);
                    stderr!(
                        "\r[{}{}] {n}/{total} files",
                        "=".repeat(filled),
                        " ".repeat(30 - filled)
                    );
                    std::thread::sleep(Duration::from_millis(100));
                }
                stderr!("\r{}\r", " ".repeat(50));
            });
        }
        let compiled = compile_with(
            pool,
            Options {
                cache,
                schema_only: args.schema_only,
                progress: Some(&done),
                // The database is only written: as JSON made set by set,
                // unless it is to be indented.
                pieces: !args.pretty,
                writer,
            },
        );
        finished.store(true, Ordering::Relaxed);
        compiled
    })
}

/// What identifies a finding across rebuilds (its text and place).
fn identity(d: &Diagnostic) -> (String, usize, &'static str, String) {
    (
        d.path.to_string(),
        d.span.start,
        d.code.as_str(),
        d.message.clone(),
    )
}

/// `--watch`: rebuild on every change, keeping the cache in memory.
fn watch(context: &Context, args: &Args) -> ExitCode {
    let Some(dir) = context.cards.clone() else {
        stderrln!("error: --watch needs --cards DIR (the built-in pool never changes)");
        return ExitCode::from(exit::CANNOT_RUN);
    };
    let mut cache = uses_cache(args).then(|| Cache::open_beside(&args.out));
    let reports = match context.format {
        Format::Json => out::Stream::Stdout,
        Format::Human => out::Stream::Stderr,
    };
    let mut previous: HashSet<(String, usize, &'static str, String)> = HashSet::new();
    // The pool's files and their stamps as last built: any change to them
    // (an edit, a new or removed file) starts a build.
    let mut seen = None;
    loop {
        let listing = Pool::list(&dir).map(Listing::stamp);
        let state = listing.as_ref().ok().map(|l| l.stamps().to_vec());
        if seen.as_ref() != Some(&state) {
            seen = Some(state);
            let started = Instant::now();
            match read_listed(listing, cache.as_ref()) {
                Ok(pool) => {
                    let mut writer = database_writer(args);
                    let compiled =
                        build_with_progress(&pool, cache.as_mut(), writer.as_mut(), args);
                    let current: HashSet<_> = compiled.diagnostics.iter().map(identity).collect();
                    let new: Vec<Diagnostic> = compiled
                        .diagnostics
                        .iter()
                        .filter(|d| !previous.contains(&identity(d)))
                        .cloned()
                        .collect();
                    let written = write_database(&args.out, &compiled, cache.as_mut(), writer);
                    let code = written.code();
                    if !new.is_empty() {
                        context.report(&new, &compiled.sources);
                    }
                    written.report(context, &args.out);
                    // Failed builds are kept in memory only, like their output.
                    if let Some(cache) = cache.as_mut() {
                        if code != exit::OK {
                            cache.commit();
                        } else if let Err(e) = cache.save() {
                            stderrln!("[watch] warning: cannot write the build cache: {e}");
                        }
                    }
                    stderrln!(
                        "[watch] {} ({} new, {} fixed) in {} ms; {} of {} files reused",
                        report::summary(&compiled.diagnostics),
                        new.len(),
                        previous.difference(&current).count(),
                        started.elapsed().as_millis(),
                        compiled.reused_files,
                        pool.sets.len()
                    );
                    previous = current;
                    // Nobody reads the reports any more: stop watching.
                    if out::gone(reports) {
                        return ExitCode::from(code);
                    }
                }
                Err(e) => stderrln!("[watch] error: {e}"),
            }
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}
