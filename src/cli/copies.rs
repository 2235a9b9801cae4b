//! `blades copies check FILE` and `blades copies list [SET]`.

use blades::words::plural;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use blades::cards::{CardIndex, LookupError};
use blades::diagnostics::{Code, Diagnostic};
use blades::model::Database;
use blades::report::Format;
use blades::rules::check;
use blades::rules::copies::{self, CopiesReport, Manifest};
use blades::rules::input;

use super::checks;
use super::out;
use super::{Context, exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: CopiesCommand,
}

#[derive(Debug, clap::Subcommand)]
enum CopiesCommand {
    /// Check owned copies against the copies that exist in the sets in play.
    Check {
        /// Files with `sets:` in play and `cards:` (name → count owned; `-`
        /// reads standard input). One result per file.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// Print the copy manifest: every card of a set (or of every set) with
    /// its copies.
    List {
        /// A set id or name; default: every set.
        #[arg(value_name = "SET")]
        set: Option<String>,
    },
}

pub fn run(context: &Context, args: Args) -> ExitCode {
    let database = match checks::database(context) {
        Ok(database) => database,
        Err(code) => return code,
    };
    let mut out = std::io::BufWriter::new(out::Stdout);
    let code = match args.command {
        CopiesCommand::Check { files } => {
            let inputs = match checks::read_each(context, &files) {
                Ok(inputs) => inputs,
                Err(code) => return code,
            };
            let index = CardIndex::new(database);
            checks::check_each(
                context,
                inputs,
                |input| {
                    let checked = check::copies(database, &index, &input.shown, input.read);
                    checks::report(context, checked)
                },
                |report| report.common.verdict(),
                |out, report| print_check(out, &index, report),
            )
        }
        CopiesCommand::List { set } => list(context, database, set.as_deref(), &mut out),
    };
    let _ = out.flush();
    code
}

fn print_check(out: &mut impl Write, index: &CardIndex, report: &CopiesReport) {
    let common = &report.common;
    let _ = writeln!(out, "{}: {}", common.file, checks::verdict_words(common));
    if !common.checked {
        return;
    }
    let sets: Vec<&str> = report.sets.iter().map(|s| s.0.as_str()).collect();
    let _ = writeln!(
        out,
        "  {} checked against {}",
        plural(report.cards.len(), "card", "cards"),
        if sets.is_empty() {
            "no set in play".to_string()
        } else {
            sets.join(", ")
        }
    );
    checks::print_violations(out, index, &common.violations);
}

fn list(
    context: &Context,
    database: &Database,
    set: Option<&str>,
    out: &mut impl Write,
) -> ExitCode {
    let only = match set {
        None => None,
        Some(reference) => match input::set_index(database).resolve(reference) {
            Ok(i) => Some(&database.sets[i].id),
            Err(error) => {
                let help = match error {
                    LookupError::Unknown { suggestions } if !suggestions.is_empty() => format!(
                        "did you mean {}?",
                        suggestions
                            .iter()
                            .map(|s| format!("`{s}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    _ => "give a set id or name of the pool (`blades copies list` lists them)"
                        .to_string(),
                };
                return context.refuse(
                    Diagnostic::general(
                        Code::UnknownSet,
                        format!("no set of the pool is named `{reference}`"),
                    )
                    .with_help(help),
                );
            }
        },
    };
    let manifest = copies::manifest(database, only);
    match context.format {
        Format::Json => checks::print_json(out, &manifest, false),
        Format::Human => print_manifest(&mut out::Shown(out), &manifest),
    }
    ExitCode::from(exit::OK)
}

fn print_manifest(out: &mut impl Write, manifest: &Manifest) {
    for set in &manifest.sets {
        let _ = writeln!(
            out,
            "{} ({}, {}): {}, {} physical",
            set.name,
            set.id,
            set.kind.as_str(),
            plural(set.distinct, "card", "cards"),
            set.physical
        );
        for card in &set.cards {
            let kind = card.kind.title().to_lowercase();
            let stars = match card.stars {
                Some(stars) => format!("{stars:>2} STAR"),
                None => " no STAR".to_string(),
            };
            let _ = writeln!(out, "  {}x  {:<28} {stars}  {kind}", card.copies, card.name);
        }
    }
    let _ = writeln!(out, "{} physical cards in all", manifest.physical);
}
