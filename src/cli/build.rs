//! `blades build`: compile the pool into `dist/cards.json`.

use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use blades::diagnostics::{self, Code, Diagnostic};
use blades::i18n;
use blades::pool::Pool;
use blades::report::{self, Format};
use blades::workspace::{Build, BuildSettings, Builder, DEFAULT_DATABASE, Written};

use super::out::{self, stderr, stderrln};
use super::{Context, exit};

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
    context.say_pool();
    let mut builder = Builder::new(settings(context, &args));
    let started = Instant::now();
    let pool = match builder.read(None) {
        Ok(pool) => pool,
        Err(e) => return context.refuse(e.into_diagnostic()),
    };
    let read = started.elapsed();
    let build = build_with_progress(&mut builder, &pool, to_stdout(&args));
    let sqlite = write_sqlite(&build, args.sqlite.as_deref());
    let (gallery, gallery_said) = write_gallery(&build, args.gallery.as_deref());
    let sqlite = sqlite.or(gallery);
    let saving = Instant::now();
    let cache = builder.keep(&build).err().map(|e| {
        Diagnostic::general(
            Code::CannotWrite,
            format!("cannot write the build cache: {e}"),
        )
        .as_warning()
        .with_help("the database was written; the next build reads every file again")
    });
    let saving = saving.elapsed();
    let findings: Vec<Diagnostic> = cache
        .into_iter()
        .chain(write_failure(&build.written, &args.out))
        .chain(sqlite.clone())
        .collect();
    // The SQLite file named, when it was written.
    let sqlite_written = args.sqlite.as_deref().filter(|_| sqlite.is_none());
    report(context, &build, &args.out, sqlite_written, findings);
    if let Some(line) = gallery_said.filter(|_| context.tells()) {
        stderrln!("{line}");
    }
    if args.timings {
        print_timings(&build, read, saving);
    }
    let code = match sqlite {
        Some(_) => exit::CANNOT_RUN,
        None => exit_code(&build),
    };
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

/// Prints the build's findings with `more` of the run's own (the cache or
/// the output that could not be written), then says what was done.
fn report(
    context: &Context,
    build: &Build,
    out: &Path,
    sqlite: Option<&Path>,
    more: Vec<Diagnostic>,
) {
    let compiled = &build.compiled;
    let faces = &build.faces;
    if more.is_empty() && faces.diagnostics.is_empty() {
        context.report(&compiled.diagnostics, &compiled.sources);
    } else {
        let mut all: Vec<Diagnostic> = compiled
            .diagnostics
            .iter()
            .chain(&faces.diagnostics)
            .cloned()
            .collect();
        diagnostics::sort(&mut all);
        all.extend(more);
        let mut sources = compiled.sources.clone();
        sources.extend(faces.sources.clone());
        context.report(&all, &sources);
    }
    say_written(context, &build.written, out, sqlite);
    if matches!(build.written, Written::Checked) && compiled.error_count() == 0 && context.tells() {
        stderrln!(
            "checked {} set files (YAML and schema only): {}",
            build.sets,
            report::summary(&compiled.diagnostics)
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
    }
}

/// `--out -`: the database goes to standard output.
fn to_stdout(args: &Args) -> bool {
    args.out == Path::new("-")
}

fn exit_code(build: &Build) -> u8 {
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

/// Says what was written (after the diagnostics): the database, and the
/// SQLite file when one was written.
fn say_written(context: &Context, written: &Written, out: &Path, sqlite: Option<&Path>) {
    if let Written::Done { sets, cards } = written
        && context.tells()
    {
        let into = match out == Path::new("-") {
            true => "standard output".to_string(),
            false => out.display().to_string(),
        };
        match sqlite {
            Some(sqlite) => stderrln!(
                "built {sets} sets, {cards} cards into {into} and {}",
                sqlite.display()
            ),
            None => stderrln!("built {sets} sets, {cards} cards into {into}"),
        }
    }
}

/// The finding for a database that could not be written (none for a
/// reader that closed the pipe early: that ends quietly, see `out`).
fn write_failure(written: &Written, out: &Path) -> Option<Diagnostic> {
    match written {
        Written::Failed(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Some(
            Diagnostic::general(
                Code::CannotWrite,
                format!("cannot write `{}`: {e}", out.display()),
            )
            .with_help(
                "check that the folder exists and can be written, or name another file with --out",
            ),
        ),
        _ => None,
    }
}

/// Writes the SQLite file `--sqlite` asks for, after a build that made its
/// database; the finding when it cannot be written.
fn write_sqlite(build: &Build, path: Option<&Path>) -> Option<Diagnostic> {
    let path = path?;
    if !matches!(build.written, Written::Done { .. }) {
        return None;
    }
    let e = build.write_sqlite(path).err()?;
    Some(
        Diagnostic::general(
            Code::CannotWrite,
            format!("cannot write `{}`: {e}", path.display()),
        )
        .with_help(
            "check that the folder exists and can be written, or name another file with --sqlite; the file there, if any, was left as it was",
        ),
    )
}

/// Writes the gallery `--gallery` asks for from the database a build made
/// (every language): the finding when it cannot be written, else what was
/// done, to say.
fn write_gallery(build: &Build, dir: Option<&Path>) -> (Option<Diagnostic>, Option<String>) {
    let Some(dir) = dir.filter(|_| matches!(build.written, Written::Done { .. })) else {
        return (None, None);
    };
    let Some(database) = build.database() else {
        return (None, None);
    };
    let langs = i18n::languages(database);
    match super::gallery::write(database, &langs, dir) {
        Ok((made, written)) => (None, Some(super::gallery::said(&made, &written, dir, 0))),
        Err(diagnostic) => {
            (
                Some(diagnostic.with_help(
                    "check that the folder can be written, or name another with --gallery",
                )),
                None,
            )
        }
    }
}

/// `--timings`: where the time went.
fn print_timings(build: &Build, read: Duration, saving: Duration) {
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
        ms(saving)
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
        d.message.clone(),
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
                    let compiled = &build.compiled;
                    // The build's findings and, with --faces, the faces'.
                    let found = compiled.diagnostics.iter().chain(&build.faces.diagnostics);
                    let current: HashSet<_> = found.clone().map(identity).collect();
                    let new: Vec<Diagnostic> = found
                        .filter(|d| !previous.contains(&identity(d)))
                        .cloned()
                        .collect();
                    let sqlite = write_sqlite(&build, args.sqlite.as_deref());
                    let sqlite_written = args.sqlite.as_deref().filter(|_| sqlite.is_none());
                    let new: Vec<Diagnostic> = new
                        .into_iter()
                        .chain(write_failure(&build.written, &args.out))
                        .chain(sqlite)
                        .collect();
                    if !new.is_empty() {
                        let mut sources = compiled.sources.clone();
                        sources.extend(build.faces.sources.clone());
                        context.report(&new, &sources);
                    }
                    say_written(context, &build.written, &args.out, sqlite_written);
                    // Failed builds are kept in memory only, like their output.
                    if let Err(e) = builder.keep(&build) {
                        stderrln!("[watch] warning: cannot write the build cache: {e}");
                    }
                    let summary = match build.faces.diagnostics.is_empty() {
                        true => report::summary(&compiled.diagnostics),
                        false => {
                            let faces = build.faces.diagnostics.iter();
                            let all: Vec<Diagnostic> =
                                compiled.diagnostics.iter().chain(faces).cloned().collect();
                            report::summary(&all)
                        }
                    };
                    stderrln!(
                        "[watch] {} ({} new, {} fixed) in {} ms; {} of {} files reused",
                        summary,
                        new.len(),
                        previous.difference(&current).count(),
                        started.elapsed().as_millis(),
                        compiled.reused_files,
                        pool.sets.len()
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
