//! `blades deck check FILE... [--rules FORMAT]`: every violation of every
//! deck, against the tournament deck or another format.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use blades::cards::CardIndex;
use blades::diagnostics::{Code, Diagnostic, Sources};
use blades::report::Format;
use blades::rules::check::{self, Ground};
use blades::rules::deck::{DeckFormat, DeckReport};
use blades::workspace::Workspace;

use super::out::{self, stdoutln};
use super::{Context, checks, exit, kept_until_exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: DeckCommand,
}

#[derive(Debug, clap::Subcommand)]
enum DeckCommand {
    /// Check decks: up to 8 singles, 1 deck box, 2 accessories, no card twice
    /// (a character may change the limits), or another format's rules.
    /// One result per file.
    Check {
        /// Deck files (YAML or a plain-text list; `-` reads standard input).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// The deck format, by id or name: `tournament` (the default),
        /// `millennium-deck`, `starting-hand`, `holdings`, or one of the
        /// pool's own (`formats/*.yaml`).
        #[arg(long, value_name = "FORMAT")]
        rules: Option<String>,
    },
    /// Print a deck as a canonical plain-text list (`--share`: as a share code,
    /// which every command takes in place of a file).
    Export {
        /// The deck (a file, `-`, or a share code).
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Print the share code only.
        #[arg(long)]
        share: bool,
        /// The deck format whose zones the list names (as for `check`).
        #[arg(long, value_name = "FORMAT")]
        rules: Option<String>,
    },
}

pub fn run(context: &Context, args: Args) -> ExitCode {
    match args.command {
        DeckCommand::Check { files, rules } => check(context, &files, rules.as_deref()),
        DeckCommand::Export { file, share, rules } => {
            export(context, &file, share, rules.as_deref())
        }
    }
}

/// What every deck command reads first: the pool's formats (the one
/// named, or the default) and its database.
fn ground(context: &Context) -> Result<&'static Ground, ExitCode> {
    ground_of(context, &context.workspace()?).map(kept_until_exit)
}

/// [`ground`] of a workspace already open (`blades serve` keeps it).
pub fn ground_of(context: &Context, workspace: &Workspace) -> Result<Ground, ExitCode> {
    let (formats, findings) = workspace.formats();
    if let Some(refused) = check::formats_refused(&findings.diagnostics) {
        return Err(context.fail(exit::CANNOT_RUN, &refused, &findings.sources));
    }
    let database = workspace.database().map_err(|findings| {
        context.pool_has_errors(&findings, "nothing can be checked against it")
    })?;
    if let Some(unknown) = check::formats_unknown(&formats, &database) {
        return Err(context.fail(exit::CANNOT_RUN, &unknown, &findings.sources));
    }
    Ok(Ground::new(database, formats))
}

/// The format `--rules` names, or the default one.
fn format<'g>(
    context: &Context,
    ground: &'g Ground,
    rules: Option<&str>,
) -> Result<&'g DeckFormat, ExitCode> {
    let Some(name) = rules else {
        return Ok(ground.formats.default_format());
    };
    ground.formats.resolve(name).map_err(|unknown| {
        let known = unknown.known.join(", ");
        let help = match unknown.suggestion {
            Some(best) => format!("did you mean `{best}`? Formats: {known}"),
            None => format!("formats: {known}"),
        };
        context.refuse(
            Diagnostic::general(Code::UnknownFormat, format!("unknown deck format `{name}`"))
                .with_help(help),
        )
    })
}

fn check(context: &Context, files: &[PathBuf], rules: Option<&str>) -> ExitCode {
    if let Err(code) = checks::stdin_once(context, files) {
        return code;
    }
    let ground = match ground(context) {
        Ok(ground) => ground,
        Err(code) => return code,
    };
    let format = match format(context, ground, rules) {
        Ok(format) => format,
        Err(code) => return code,
    };
    let index = ground.index();
    let named = rules.is_some();
    checks::check_each(
        context,
        files,
        |path| {
            let checked = check::deck(&index, format, &checks::shown(path), checks::read(path));
            checks::report(context, checked)
        },
        |report| report.common.verdict(),
        |out, report| print_human(out, &index, format, named, report),
    )
}

/// `deck export`: the deck read and resolved (not checked: a deck being
/// built may break a rule), then written out canonically.
fn export(context: &Context, path: &Path, share_only: bool, rules: Option<&str>) -> ExitCode {
    let ground = match ground(context) {
        Ok(ground) => ground,
        Err(code) => return code,
    };
    let format = match format(context, ground, rules) {
        Ok(format) => format,
        Err(code) => return code,
    };
    let index = ground.index();
    let file = match checks::read(path) {
        Ok(file) => file,
        Err(problem) => return context.fail(exit::CANNOT_RUN, &[*problem], &Sources::default()),
    };
    let exported = match check::export(&index, format, &checks::shown(path), &file) {
        Ok(exported) => exported,
        Err(found) => {
            let mut sources = Sources::default();
            sources.insert(file.path.clone(), file.text.clone());
            return context.fail(exit::CANNOT_RUN, &found, &sources);
        }
    };
    match (context.format, share_only) {
        (Format::Json, _) => {
            stdoutln!(
                "{}",
                serde_json::to_string_pretty(&exported).unwrap_or_default()
            )
        }
        (Format::Human, true) => stdoutln!("{}", exported.share_code),
        (Format::Human, false) => {
            // For people (the code is the form for tools): shown safely.
            out::stdout_shown(&exported.list);
            stdoutln!("# share code: {}", exported.share_code);
        }
    }
    ExitCode::from(exit::OK)
}

fn print_human(
    out: &mut impl Write,
    index: &CardIndex,
    format: &DeckFormat,
    named: bool,
    report: &DeckReport,
) {
    let common = &report.common;
    let who = report
        .character
        .as_ref()
        .map(|c| format!(" (character: {})", c.name))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "{}: {}{}",
        common.file,
        checks::verdict_words(common),
        if common.checked { who } else { String::new() }
    );
    if !common.checked {
        if !common.violations.is_empty() {
            let _ = writeln!(out, "  and among the cards read:");
            checks::print_violations(out, index, &common.violations);
        }
        return;
    }
    if named {
        let _ = writeln!(out, "  format: {} ({})", format.name, format.id);
    }
    let slots: Vec<String> = report
        .slots
        .iter()
        .map(|s| {
            let zones = if s.zones.is_empty() {
                String::new()
            } else {
                let names: Vec<&str> = s
                    .zones
                    .iter()
                    .filter_map(|id| format.zones.iter().find(|z| z.id == *id))
                    .map(|z| z.name.as_str())
                    .collect();
                format!("{}: ", names.join(" + "))
            };
            let bound = match (s.min, s.limit) {
                (None, Some(max)) => format!("{}/{max}", s.count),
                (Some(min), None) => format!("{} (at least {min})", s.count),
                (Some(min), Some(max)) => format!("{} ({min} to {max})", s.count),
                (None, None) => s.count.to_string(),
            };
            format!("{zones}{} {bound}", s.words)
        })
        .collect();
    let _ = writeln!(out, "  {}", slots.join(", "));
    checks::print_violations(out, index, &common.violations);
}
