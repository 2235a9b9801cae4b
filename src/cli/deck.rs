//! `blades deck check FILE... [--rules FORMAT]`: every violation of every
//! deck, against the tournament deck or another format.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use blades::cards::CardIndex;
use blades::diagnostics::{Code, Diagnostic, Sources};
use blades::report::Format;
use blades::rules::Common;
use blades::rules::deck::{self, CharacterRef, DeckFormat, DeckReport, Placed, ZoneCards};
use blades::rules::input;
use blades::rules::share::{self, DeckExport};
use blades::words::Id;

use super::out::{stdout, stdoutln};
use super::{Context, checks, exit};

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
    },
}

pub fn run(context: &Context, args: Args) -> ExitCode {
    let (files, rules) = match args.command {
        DeckCommand::Check { files, rules } => (files, rules),
        DeckCommand::Export { file, share } => return export(context, &file, share),
    };
    if let Err(code) = checks::stdin_once(context, &files) {
        return code;
    }
    let workspace = match context.workspace() {
        Ok(workspace) => workspace,
        Err(code) => return code,
    };
    let (formats, findings) = workspace.formats();
    if findings.error_count() > 0 {
        let mut diagnostics = findings.diagnostics.clone();
        diagnostics.push(
            Diagnostic::general(
                Code::FormatInvalid,
                "the pool's deck formats have errors, so no deck is checked",
            )
            .with_help("fix the format files (see docs/formats.md)"),
        );
        return context.fail(exit::CANNOT_RUN, &diagnostics, &findings.sources);
    }
    let format = match rules.as_deref() {
        None => formats.default_format(),
        Some(name) => match formats.resolve(name) {
            Ok(format) => format,
            Err(unknown) => {
                let known = unknown.known.join(", ");
                let help = match unknown.suggestion {
                    Some(best) => format!("did you mean `{best}`? Formats: {known}"),
                    None => format!("formats: {known}"),
                };
                return context.refuse(
                    Diagnostic::general(
                        Code::UnknownFormat,
                        format!("unknown deck format `{name}`"),
                    )
                    .with_help(help),
                );
            }
        },
    };
    let database = match workspace.database() {
        Ok(database) => database,
        Err(findings) => {
            return context.pool_has_errors(&findings, "nothing can be checked against it");
        }
    };
    let index = CardIndex::new(&database);
    let named = rules.is_some();
    checks::check_each(
        context,
        &files,
        |path| check_file(context, &index, format, path),
        |report| report.common.verdict(),
        |out, report| print_human(out, &index, format, named, report),
    )
}

/// Reads, resolves and checks one deck file against a format.
pub fn check_file(
    context: &Context,
    index: &CardIndex,
    format: &DeckFormat,
    path: &Path,
) -> DeckReport {
    let shown = checks::shown(path);
    let mut found = Vec::new();
    let Some(file) = checks::read(path, &mut found) else {
        return not_checked(context, &shown, None, found);
    };
    let doc = input::read_deck(&file, &mut found);
    let character = doc
        .character
        .as_ref()
        .and_then(|c| input::resolve_character(&file.path, c, &mut found));
    let mut placed: Vec<Placed> = input::resolve_cards(index, &file.path, &doc.cards, &mut found)
        .into_iter()
        .map(|(c, n)| (0, c, n))
        .collect();
    for section in &doc.sections {
        let zone = input::resolve_zone(format, &file.path, &section.zone, &mut found);
        let cards = input::resolve_cards(index, &file.path, &section.cards, &mut found);
        if let Some(zone) = zone {
            placed.extend(cards.into_iter().map(|(c, n)| (zone, c, n)));
        }
    }
    if checks::has_errors(&found) {
        return not_checked(context, &shown, Some(&file), found);
    }
    let outcome = deck::check_zoned(format, character, &placed);
    let ids_of = |zone: Option<usize>| -> Vec<Id> {
        placed
            .iter()
            .filter(|(z, _, _)| zone.is_none_or(|zone| *z == zone))
            .flat_map(|(_, c, n)| std::iter::repeat_n(c.id.clone(), *n as usize))
            .collect()
    };
    let zones = if format.zones.len() > 1 {
        format
            .zones
            .iter()
            .enumerate()
            .map(|(i, z)| ZoneCards {
                zone: z.id.clone(),
                cards: ids_of(Some(i)),
            })
            .collect()
    } else {
        Vec::new()
    };
    DeckReport {
        common: Common::checked(&shown, outcome.violations),
        format: Some(format.id.clone()),
        character: character.map(|c| CharacterRef {
            id: c.id.clone(),
            name: c.name.clone(),
        }),
        slots: outcome.slots,
        cards: ids_of(None),
        zones,
    }
}

/// `deck export`: the deck read and resolved (not checked: a deck being
/// built may break a rule), then written out canonically.
fn export(context: &Context, path: &Path, share_only: bool) -> ExitCode {
    let database = match checks::database(context) {
        Ok(database) => database,
        Err(code) => return code,
    };
    let index = CardIndex::new(&database);
    let mut found = Vec::new();
    let Some(file) = checks::read(path, &mut found) else {
        return context.fail(exit::CANNOT_RUN, &found, &Sources::default());
    };
    let doc = input::read_deck(&file, &mut found);
    let character = doc
        .character
        .as_ref()
        .and_then(|c| input::resolve_character(&file.path, c, &mut found));
    let cards = input::resolve_cards(&index, &file.path, &doc.cards, &mut found);
    if checks::has_errors(&found) {
        let mut sources = Sources::default();
        sources.insert(file.path.clone(), file.text.clone());
        return context.fail(exit::CANNOT_RUN, &found, &sources);
    }
    let exported = DeckExport {
        file: checks::shown(path),
        list: share::canonical_list(character, &cards),
        share_code: share::encode(&share::deck_lines(character, &cards)),
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
            stdout!("{}", exported.list);
            stdoutln!("# share code: {}", exported.share_code);
        }
    }
    ExitCode::from(exit::OK)
}

fn not_checked(
    context: &Context,
    shown: &str,
    file: Option<&input::InputFile>,
    found: Vec<Diagnostic>,
) -> DeckReport {
    DeckReport {
        common: checks::not_checked(context, shown, file, found),
        ..DeckReport::default()
    }
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
