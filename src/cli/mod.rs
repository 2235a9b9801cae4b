//! Command-line interface: argument parsing and one module per command.
//! Commands call the library and decide what to print and the exit code.

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use blades::cards::Sought;
use blades::diagnostics::{Code, Diagnostic, Sources};
use blades::model::Database;
use blades::pool::PoolChoice;
use blades::report::shown;
use blades::report::{self, Format, Style};
use blades::workspace::Workspace;

pub use out::Stream;
use out::{stderrln, stdout_str};

mod build;
mod card;
mod checks;
mod collection;
mod copies;
mod deck;
mod diff;
mod effect;
mod fix;
mod fmt;
mod gallery;
mod i18n;
mod lsp;
mod new;
mod out;
mod print;
mod render;
mod schema;
mod score;
mod search;
mod serve;
mod trade;

/// Exit codes shared by every command.
pub mod exit {
    /// Success: built, or legal.
    pub const OK: u8 = 0;
    /// The input has problems (card data errors, rule violations).
    pub const PROBLEMS: u8 = 1;
    /// Could not run: bad arguments, unreadable input.
    pub const CANNOT_RUN: u8 = 2;
}

#[derive(Debug, Parser)]
#[command(
    name = "blades",
    version,
    about = "Card-data toolchain for Millennium Blades"
)]
pub struct Cli {
    /// Card pool folder (every *.yaml set file under it); default: `./cards` when the current
    /// folder has one, else the built-in pool (read-only).
    #[arg(long, global = true, value_name = "DIR")]
    cards: Option<PathBuf>,
    /// Output format (`sarif`: SARIF 2.1.0, for `build`, `i18n check` and `fmt --check`).
    #[arg(long, global = true, value_enum, default_value_t = OutputFormat::Human)]
    format: OutputFormat,
    /// Colour in human reports: on a terminal (and without NO_COLOR), always or never.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// Print results and problems only, not what was done (`built 3 sets …`).
    #[arg(long, short, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Compile the card pool into one validated database.
    Build(build::Args),
    /// Print or write the JSON Schemas.
    Schema(schema::Args),
    /// Check decks against the deck limits.
    Deck(deck::Args),
    /// Check a collection, or find the best one in a binder.
    Collection(collection::Args),
    /// Check that a trade is even.
    Trade(trade::Args),
    /// Add up the final score of a game from a score sheet, with the tie-breaks.
    Score(score::Args),
    /// Check copy counts against the sets in play, or list them.
    Copies(copies::Args),
    /// Translations: status, checks, PO export and import.
    I18n(i18n::Args),
    /// Look up cards.
    Card(card::Args),
    /// Find cards with a query (`e:fire t:construct star>=3`; see docs/search.md).
    Search(search::Args),
    /// Try the effect language: check or render one effect text.
    Effect(effect::Args),
    /// Start a new set file whose placeholder cards already build (`blades new sunset-gulch`).
    New(new::Args),
    /// Rewrite every card effect in canonical form (`--check`: only report).
    Fmt(fmt::Args),
    /// Make every fix the pool's findings name (`did you mean `air`?`), all files or none (`--check`: only report).
    Fix(fix::Args),
    /// What changed between two releases (pool folders or built databases), classified.
    Diff(diff::Args),
    /// Draw card faces as SVG (poker size, English and Japanese), text set with real font metrics.
    Render(render::Args),
    /// Write a static site of the cards (faces side by side, filters, a page per card) that works from file://.
    Gallery(gallery::Args),
    /// Print-and-play sheets: 9 cards a page at true size with crop marks, as HTML (and PDF).
    Print(print::Args),
    /// Print a shell completion script (`blades completions bash > /etc/bash_completion.d/blades`).
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff: `blades man > blades.1`).
    Man,
    /// A local web app for players: find cards, build and check decks, share them (http://127.0.0.1:8000/).
    Serve(serve::Args),
    /// Serve the Language Server Protocol on standard input and output, for editors (docs/editors.md).
    Lsp(lsp::Args),
}

/// What `--format` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    Human,
    Json,
    /// SARIF 2.1.0: the findings of `build`, `i18n check` and `fmt --check` for code-scanning views.
    Sarif,
}

/// When human reports are coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    Always,
    Never,
}

/// A value a command keeps until the process ends. It is never freed: the
/// system takes the memory back at exit at no cost, where dropping a
/// 100,000-card database one string at a time took a tenth of a `deck check`.
pub fn kept_until_exit<T>(value: T) -> &'static T {
    Box::leak(Box::new(value))
}

/// What every command gets: the global options.
pub struct Context {
    /// The pool's folder (none for the built-in pool), as [`PoolChoice`]
    /// chose it.
    pub cards: Option<PathBuf>,
    pub pool: PoolChoice,
    /// Human or JSON; JSON too for `--format sarif`, whose commands print
    /// nothing but their findings (see [`Context::sarif`]).
    pub format: Format,
    /// `--format sarif`: findings are printed as one SARIF log.
    pub sarif: bool,
    pub color: ColorChoice,
    /// Only results and problems: no word of what was done.
    pub quiet: bool,
}

impl Context {
    /// Style for human output on stderr: colour as `--color` says; frames
    /// of box-drawing characters on a terminal (or with colour forced),
    /// plain ASCII in logs and files.
    pub fn stderr_style(&self) -> Style {
        let terminal = std::io::stderr().is_terminal();
        let color = match self.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => terminal && std::env::var_os("NO_COLOR").is_none(),
        };
        Style {
            color,
            unicode: terminal || self.color == ColorChoice::Always,
            width: 100,
        }
    }

    /// Whether to say what was done (human format, not `--quiet`).
    pub fn tells(&self) -> bool {
        self.format == Format::Human && !self.quiet
    }

    /// The pool named by `--cards` (or the built-in one), opened to answer
    /// questions about it through the last build's cache.
    pub fn workspace(&self) -> Result<Workspace, ExitCode> {
        self.say_pool();
        Workspace::open(self.cards.as_deref()).map_err(|e| self.refuse(e.into_diagnostic()))
    }

    /// The pool's workspace and its database; a pool with errors is
    /// refused, saying that `consequence` (`no face can be drawn`).
    pub fn database(&self, consequence: &str) -> Result<(Workspace, &'static Database), ExitCode> {
        let workspace = self.workspace()?;
        match workspace.database() {
            Ok(database) => Ok((workspace, kept_until_exit(database))),
            Err(findings) => Err(self.pool_has_errors(&findings, consequence)),
        }
    }

    /// [`Context::database`] for a check of the cards `sought`
    /// ([`Workspace::database_for`]).
    pub fn database_for(
        &self,
        sought: &Sought,
        consequence: &str,
    ) -> Result<&'static Database, ExitCode> {
        match self.workspace()?.database_for(sought) {
            Ok(database) => Ok(kept_until_exit(database)),
            Err(findings) => Err(self.pool_has_errors(&findings, consequence)),
        }
    }

    /// [`Context::workspace`] with every file read, for the commands that
    /// rewrite or translate the pool's files.
    pub fn workspace_uncached(&self) -> Result<Workspace, ExitCode> {
        self.say_pool();
        Workspace::open_uncached(self.cards.as_deref())
            .map_err(|e| self.refuse(e.into_diagnostic()))
    }

    /// [`Context::workspace_uncached`] for a command that rewrites the
    /// pool's files (`blades fmt`, `blades fix`): refused for the built-in
    /// pool unless the command only reports (`check`).
    pub fn workspace_to_rewrite(&self, command: &str, check: bool) -> Result<Workspace, ExitCode> {
        if self.cards.is_none() && !check {
            return Err(self.refuse(
                Diagnostic::general(
                    Code::Usage,
                    format!("`blades {command}` rewrites files, and the built-in pool is not files to rewrite"),
                )
                .with_help("name the pool folder with --cards DIR, or only report with --check"),
            ));
        }
        self.workspace_uncached()
    }

    /// Says which pool the command reads (human reports, not `--quiet`).
    pub fn say_pool(&self) {
        if self.tells() {
            stderrln!("pool: {}", self.pool.describe());
        }
    }

    /// Reports why the command cannot do its job (in JSON, as the report
    /// printed in place of the result) and gives exit 2.
    pub fn refuse(&self, diagnostic: Diagnostic) -> ExitCode {
        self.fail(exit::CANNOT_RUN, &[diagnostic], &Sources::default())
    }

    /// Reports findings in place of the command's result, with `exit`.
    pub fn fail(&self, exit: u8, diagnostics: &[Diagnostic], sources: &Sources) -> ExitCode {
        self.report(diagnostics, sources);
        ExitCode::from(exit)
    }

    /// A pool with errors cannot be checked against: its findings and one
    /// that says so, exit 2.
    pub fn pool_has_errors(&self, findings: &blades::workspace::Findings, what: &str) -> ExitCode {
        let mut diagnostics = findings.diagnostics.clone();
        diagnostics.push(
            Diagnostic::general(
                Code::PoolHasErrors,
                format!("the card pool has errors, so {what}"),
            )
            .with_help("fix the pool first: `blades build` lists the same errors"),
        );
        self.fail(exit::CANNOT_RUN, &diagnostics, &findings.sources)
    }

    /// Prints diagnostics to stderr (human) or stdout (JSON, SARIF).
    pub fn report(&self, diagnostics: &[Diagnostic], sources: &Sources) {
        if self.sarif {
            stdout_str(&report::render_sarif(diagnostics, sources, &describe));
            return;
        }
        match self.format {
            Format::Human => {
                if !diagnostics.is_empty() {
                    out::stderr_str(&report::render_human(
                        diagnostics,
                        sources,
                        self.stderr_style(),
                    ));
                }
            }
            Format::Json => {
                // Written in pieces of about 64 KiB: never the whole report
                // in memory, nor a write for every line.
                let mut pending = String::new();
                report::stream_json(diagnostics, sources, &mut |chunk| {
                    pending.push_str(chunk);
                    if pending.len() >= 1 << 16 {
                        stdout_str(&pending);
                        pending.clear();
                    }
                });
                stdout_str(&pending);
            }
        }
    }
}

/// Runs the command line; whatever happens to the output streams, the
/// command runs to its end (see [`out`]).
pub fn run() -> ExitCode {
    out::finish(dispatch(std::env::args_os().collect()))
}

/// What the parser made of a command line it refused: the text to print,
/// where, and the exit code.
#[derive(Debug)]
pub struct Refusal {
    pub text: String,
    pub stream: Stream,
    pub exit: u8,
}

/// The command line read from its words, as the system gave them: any
/// bytes, so a file name that is not UTF-8 is a path like any other, and
/// a word a command needs as text is a usage error, never a panic. Help,
/// version and usage errors are refusals, rendered but not printed.
pub fn parse(words: &[OsString]) -> Result<Cli, Refusal> {
    let error = match Cli::try_parse_from(words) {
        Ok(cli) => return Ok(cli),
        Err(error) => error,
    };
    let exit = match error.use_stderr() {
        true => exit::CANNOT_RUN,
        false => exit::OK,
    };
    if error.use_stderr() && machine_format_asked(words).is_some() {
        return Err(Refusal {
            text: usage_report(&error, words),
            stream: Stream::Stdout,
            exit,
        });
    }
    let stream = match error.use_stderr() {
        true => Stream::Stderr,
        false => Stream::Stdout,
    };
    Err(Refusal {
        text: error.render().to_string(),
        stream,
        exit,
    })
}

fn dispatch(words: Vec<OsString>) -> ExitCode {
    let cli = match parse(&words) {
        Ok(cli) => cli,
        Err(refusal) => {
            // A word of the command line comes back in the message: shown
            // safely, unless it is JSON (which escapes its own).
            match refusal.stream {
                Stream::Stdout if refusal.exit == exit::OK => out::stdout_shown(&refusal.text),
                Stream::Stdout => stdout_str(&refusal.text),
                Stream::Stderr => out::stderr_str(&shown(&refusal.text)),
            }
            return ExitCode::from(refusal.exit);
        }
    };
    let pool = PoolChoice::of(cli.cards.as_deref());
    let context = Context {
        cards: pool.dir().map(Path::to_path_buf),
        pool,
        format: match cli.format {
            OutputFormat::Human => Format::Human,
            OutputFormat::Json | OutputFormat::Sarif => Format::Json,
        },
        sarif: cli.format == OutputFormat::Sarif,
        color: cli.color,
        quiet: cli.quiet,
    };
    if context.sarif && !speaks_sarif(&cli.command) {
        return context.refuse(
            Diagnostic::general(
                Code::Usage,
                "`--format sarif` is for the commands that check files: `build`, `i18n check` and `fmt --check`",
            )
            .with_help("use `--format json` for the other commands"),
        );
    }
    match cli.command {
        Command::Build(args) => build::run(&context, args),
        Command::Schema(args) => schema::run(&context, args),
        Command::Deck(args) => deck::run(&context, args),
        Command::Collection(args) => collection::run(&context, args),
        Command::Trade(args) => trade::run(&context, args),
        Command::Copies(args) => copies::run(&context, args),
        Command::Score(args) => score::run(&context, args),
        Command::I18n(args) => i18n::run(&context, args),
        Command::Card(args) => card::run(&context, args),
        Command::Search(args) => search::run(&context, args),
        Command::Effect(args) => effect::run(&context, args),
        Command::Fmt(args) => fmt::run(&context, args),
        Command::Fix(args) => fix::run(&context, args),
        Command::New(args) => new::run(&context, args),
        Command::Diff(args) => diff::run(&context, args),
        Command::Render(args) => render::run(&context, args),
        Command::Gallery(args) => gallery::run(&context, args),
        Command::Print(args) => print::run(&context, args),
        Command::Completions { shell } => completions(shell),
        Command::Man => manual(),
        Command::Serve(args) => serve::run(&context, args),
        Command::Lsp(args) => lsp::run(args),
    }
}

/// The commands whose whole output is findings in files, which SARIF holds.
fn speaks_sarif(command: &Command) -> bool {
    match command {
        Command::Build(args) => !args.watches(),
        Command::I18n(args) => args.is_check(),
        Command::Fmt(args) => args.check,
        _ => false,
    }
}

/// What a code means, for SARIF's rule descriptions.
fn describe(code: Code) -> Option<&'static str> {
    let listed = |codes: &[(Code, &'static str)]| {
        codes
            .iter()
            .find(|(c, _)| *c == code)
            .map(|(_, what)| *what)
    };
    listed(blades::diagnostics::CODES).or_else(|| match code {
        Code::Effect(name) => blades::effect::CODES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, what)| *what),
        _ => None,
    })
}

/// The machine format the command line asks for (`--format json` or
/// `sarif`), read from the words themselves when the parser refused them.
fn machine_format_asked(words: &[OsString]) -> Option<OutputFormat> {
    let machine = |w: &std::ffi::OsStr| match w.to_str() {
        Some("json") => Some(OutputFormat::Json),
        Some("sarif") => Some(OutputFormat::Sarif),
        _ => None,
    };
    words
        .iter()
        .enumerate()
        .find_map(|(i, word)| match word.to_str()?.strip_prefix("--format") {
            Some(rest) => match rest.strip_prefix('=') {
                Some(value) => machine(value.as_ref()),
                None if rest.is_empty() => machine(words.get(i + 1)?),
                None => None,
            },
            None => None,
        })
}

/// A usage error as the JSON (or SARIF) report every command prints when
/// it cannot run (exit 2).
fn usage_report(error: &clap::Error, words: &[OsString]) -> String {
    let text = error.render().to_string();
    let mut lines = text.lines().filter(|line| !line.trim().is_empty());
    let message = match error.kind() {
        // The parser's answer is the help, whose first line is no message.
        clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            "a command is missing".to_string()
        }
        _ => lines
            .next()
            .unwrap_or("the command line is wrong")
            .trim_start_matches("error: ")
            .to_string(),
    };
    let diagnostic = Diagnostic::general(Code::Usage, message)
        .with_help("`blades --help` (or `blades COMMAND --help`) shows what the command takes");
    let sources = Sources::default();
    match machine_format_asked(words) {
        Some(OutputFormat::Sarif) => report::render_sarif(&[diagnostic], &sources, &describe),
        _ => report::render_json(&[diagnostic], &sources),
    }
}

/// `blades completions SHELL`: the completion script, on stdout.
fn completions(shell: clap_complete::Shell) -> ExitCode {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "blades", &mut script);
    stdout_str(&String::from_utf8_lossy(&script));
    ExitCode::from(exit::OK)
}

/// `blades man`: the manual page in roff, on stdout.
fn manual() -> ExitCode {
    let mut page = Vec::new();
    match clap_mangen::Man::new(Cli::command()).render(&mut page) {
        Ok(()) => {
            stdout_str(&String::from_utf8_lossy(&page));
            ExitCode::from(exit::OK)
        }
        Err(e) => {
            stderrln!("error: cannot render the manual page: {e}");
            ExitCode::from(exit::CANNOT_RUN)
        }
    }
}
