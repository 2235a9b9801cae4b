//! `blades build`: compile the pool into `dist/cards.json`.

use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use blades::diagnostics::{Code, Diagnostic};
use blades::pool::Pool;
use blades::report::{self, Format};
use blades::workspace::{Build, BuildSettings, Builder, DEFAULT_DATABASE, Written};

use super::out::{self, stderr, stderrln};
use super::{Context, exit};
use blades::words::plural;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where to write the database (`-`: standard output; a link is followed
    /// and kept; a device or pipe is written straight into, without the cache).
    #[arg(long, short, value_name = "FILE", default_value = DEFAULT_DATABASE)]
    out: PathBuf,
    /// Check YAML and the JSON Schema only: no pool-wide checks, nothing written.
    #[arg(long)]
    schema_only: bool,
    /// Also lay out every card face and warn where text does not fit its box
    /// (`text-overflow`) or a character has no glyph (`missing-glyph`), as
    /// `blades render` does. Texts known to fit from an earlier build are
    /// not laid out again (`.blades-faces` beside the cache). Off by
    /// default: a first run multiplies the time of a large build.
    #[arg(long, conflicts_with = "schema_only")]
    faces: bool,
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
    /// Also write the database as SQLite to FILE (the tables are in docs/database.md).
    #[arg(long, value_name = "FILE", conflicts_with = "schema_only")]
    sqlite: Option<PathBuf>,
    /// Also write the card gallery (`blades gallery`) into DIR from the
    /// database built, drawing only the faces that changed.
    #[arg(long, value_name = "DIR", conflicts_with = "schema_only")]
    gallery: Option<PathBuf>,
}

impl Args {
    /// `--watch`: a report per rebuild, not one.
    pub fn watches(&self) -> bool {
        self.watch
    }
}

/// Pools smaller than this build too fast to need a progress bar.
const PROGRESS_MIN_FILES: usize = 200;

pub fn run(context: &Context, args: Args) -> ExitCode {
    if let Some(refusal) = refused_combination(context, &args) {
        return context.refuse(refusal);
    }
    if args.watch {
        return watch(context, &args);
    }
    // One build and the process ends (docs/decisions.md, "Effect texts
    // met again").
    blades_alloc::keep_freed_memory_until_exit();
    context.say_pool();
    let mut builder = Builder::new(settings(context, &args));
    let started = Instant::now();
    let pool = match builder.read(None) {
        Ok(pool) => pool,
        Err(e) => return context.refuse(e.into_diagnostic()),
    };
    let read = started.elapsed();
    let build = build_with_progress(&mut builder, &pool, to_stdout(&args));
    let (findings, sources) = build.findings();
    context.report(&findings, &sources);
    say_done(context, &build, &args.out);
    if args.timings {
        print_timings(&build, read);
    }
    let code = exit_code(&build);
    // The process ends here: the OS takes the memory back at once, where
    // freeing a large pool's millions of strings one by one takes a while.
    std::mem::forget((build, pool, builder));
    ExitCode::from(code)
}

/// Options that cannot go together, refused before anything is read.
fn refused_combination(context: &Context, args: &Args) -> Option<Diagnostic> {
    let usage =
        |message: &str, help: &str| Some(Diagnostic::general(Code::Usage, message).with_help(help));
    if to_stdout(args) && context.format == Format::Json {
        return usage(
            "`--out -` and `--format json` would both print to standard output",
            "write the database to a file (`--out FILE`), or drop `--format json` (findings then go to standard error)",
        );
    }
    if args.watch && context.cards.is_none() {
        return usage(
            "--watch needs --cards DIR (the built-in pool never changes)",
            "name the folder to watch: `blades build --watch --cards DIR`",
        );
    }
    if args.sqlite.as_deref() == Some(Path::new("-")) {
        return usage(
            "--sqlite cannot write to standard output: an SQLite database is a file",
            "name a file: `--sqlite dist/cards.sqlite`",
        );
    }
    if args.watch && to_stdout(args) {
        return usage(
            "--watch writes a file on every change; give --out FILE, not `-`",
            "name the database file: `--out dist/cards.json`",
        );
    }
    None
}

/// Says what the build did, after its findings: what it wrote, or
/// what it checked.
fn say_done(context: &Context, build: &Build, out: &Path) {
    if !context.tells() {
        return;
    }
    say_written(build, out);
    if matches!(build.written, Written::Checked) && build.compiled.error_count() == 0 {
        stderrln!(
            "checked {} (YAML and schema only): {}",
            plural(build.sets, "set file", "set files"),
            report::summary(&build.compiled.diagnostics)
        );
    }
}

/// The library's settings for this command line.
fn settings(context: &Context, args: &Args) -> BuildSettings {
    BuildSettings {
        cards: context.cards.clone(),
        out: args.out.clone(),
        schema_only: args.schema_only,
        // Nothing to keep a cache beside.
        no_cache: args.no_cache || to_stdout(args),
        pretty: args.pretty,
        faces: args.faces,
        sqlite: args.sqlite.clone(),
        gallery: args.gallery.clone(),
    }
}

/// `--out -`: the database goes to standard output.
fn to_stdout(args: &Args) -> bool {
    args.out == Path::new("-")
}

fn exit_code(build: &Build) -> u8 {
    if build.failed_to_write() {
        return exit::CANNOT_RUN;
    }
    match &build.written {
        Written::Done { .. } => exit::OK,
        Written::Checked if build.compiled.error_count() == 0 => exit::OK,
        Written::Checked => exit::PROBLEMS,
        Written::NotBuilt => exit::PROBLEMS,
        // A reader that closed the pipe early: ended quietly, as every
        // command's output does (see `out`).
        Written::Failed(e) if e.kind() == std::io::ErrorKind::BrokenPipe => exit::OK,
        Written::Failed(_) => exit::CANNOT_RUN,
    }
}

/// Says what was written: the database and the SQLite file, then the
/// gallery.
fn say_written(build: &Build, out: &Path) {
    if let Written::Done { sets, cards } = build.written {
        let into = match out == Path::new("-") {
            true => "standard output".to_string(),
            false => out.display().to_string(),
        };
        let and = match &build.sqlite {
            Some(sqlite) => format!(" and {}", sqlite.display()),
            None => String::new(),
        };
        stderrln!(
            "built {}, {} into {into}{and}",
            plural(sets, "set", "sets"),
            plural(cards, "card", "cards")
        );
    }
    if let Some(gallery) = &build.gallery {
        let warnings = build.faces.diagnostics.len();
        stderrln!(
            "{}",
            super::gallery::said(&gallery.made, &gallery.written, &gallery.dir, warnings)
        );
    }
}

/// `--timings`: where the time went.
fn print_timings(build: &Build, read: Duration) {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let timings = &build.timings;
    stderrln!(
        "timings: read and cache load {:.1} ms ({} of {} files read), per-file checks {:.1} ms ({} of {} files reused), pool checks {:.1} ms, write {:.1} ms, cache save {:.1} ms",
        ms(read),
        build.files_read,
        build.files,
        ms(timings.files),
        build.compiled.reused_files,
        build.sets,
        ms(timings.pool),
        ms(timings.write),
        ms(timings.save)
    );
}

/// Builds, showing a progress bar on a terminal for large pools.
fn build_with_progress(builder: &mut Builder, pool: &Pool, to_stdout: bool) -> Build {
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
        let build = match to_stdout {
            true => builder.build_into(pool, Some(&done), &mut out::Stdout),
            false => builder.build(pool, Some(&done)),
        };
        finished.store(true, Ordering::Relaxed);
        build
    })
}

/// What identifies a finding across rebuilds (its text and place).
fn identity(d: &Diagnostic) -> (String, usize, &'static str, String) {
    (
        d.path.to_string(),
        d.span.start,
        d.code.as_str(),
        d.message.to_string(),
    )
}

/// `--watch`: rebuild on every change, keeping the cache in memory.
fn watch(context: &Context, args: &Args) -> ExitCode {
    let mut builder = Builder::new(settings(context, args));
    let reports = match context.format {
        Format::Json => out::Stream::Stdout,
        Format::Human => out::Stream::Stderr,
    };
    let mut previous: HashSet<(String, usize, &'static str, String)> = HashSet::new();
    // The pool's files and their stamps as last built: any change to them
    // (an edit, a new or removed file) starts a build.
    let mut seen = None;
    loop {
        let listing = builder.list();
        let state = listing
            .as_ref()
            .and_then(|l| l.as_ref().ok())
            .map(|l| l.stamps().to_vec());
        if seen.as_ref() != Some(&state) {
            seen = Some(state);
            let started = Instant::now();
            match builder.read(listing) {
                Ok(pool) => {
                    let build = build_with_progress(&mut builder, &pool, false);
                    let (found, sources) = build.findings();
                    let current: HashSet<_> = found.iter().map(identity).collect();
                    // The run's own findings (what could not be written) are
                    // said every time; the build's and the faces' once.
                    let new: Vec<Diagnostic> = found
                        .into_iter()
                        .filter(|d| d.path.is_empty() || !previous.contains(&identity(d)))
                        .collect();
                    if !new.is_empty() {
                        context.report(&new, &sources);
                    }
                    if context.tells() {
                        say_written(&build, &args.out);
                    }
                    let mut counted = build.compiled.diagnostics.clone();
                    counted.extend(build.faces.diagnostics.iter().cloned());
                    stderrln!(
                        "[watch] {} ({} new, {} fixed) in {} ms; {} of {} reused",
                        report::summary(&counted),
                        new.len(),
                        previous.difference(&current).count(),
                        started.elapsed().as_millis(),
                        build.compiled.reused_files,
                        plural(pool.sets.len(), "file", "files")
                    );
                    previous = current;
                    // Nobody reads the reports any more: stop watching.
                    if out::gone(reports) {
                        return ExitCode::from(exit_code(&build));
                    }
                }
                Err(e) => stderrln!("[watch] error: {e}"),
            }
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}
