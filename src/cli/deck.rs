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

use super::out::{self, stdoutln};
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
struct Ground {
    formats: blades::rules::format::Formats,
    database: blades::model::Database,
}

fn ground(context: &Context) -> Result<Ground, ExitCode> {
    let workspace = context.workspace()?;
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
        return Err(context.fail(exit::CANNOT_RUN, &diagnostics, &findings.sources));
    }
    let database = workspace.database().map_err(|findings| {
        context.pool_has_errors(&findings, "nothing can be checked against it")
    })?;
    let unknown = formats.unknown_names(&database);
    if !unknown.is_empty() {
        let mut diagnostics = unknown;
        diagnostics.push(
            Diagnostic::general(
                Code::FormatInvalid,
                "the pool's deck formats name cards, sets or types it does not have, so no deck is checked",
            )
            .with_help("fix the format files (see docs/formats.md)"),
        );
        return Err(context.fail(exit::CANNOT_RUN, &diagnostics, &findings.sources));
    }
    Ok(Ground { formats, database })
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
    let format = match format(context, &ground, rules) {
        Ok(format) => format,
        Err(code) => return code,
    };
    let index = CardIndex::new(&ground.database);
    let named = rules.is_some();
    checks::check_each(
        context,
        files,
        |path| check_file(context, &index, format, path),
        |report| report.common.verdict(),
        |out, report| print_human(out, &index, format, named, report),
    )
}

/// A deck as read: its character and its cards, each in its zone.
struct ReadDeck<'a> {
    file: input::InputFile,
    character: Option<&'static blades::rules::characters::Character>,
    /// A character was named and is not one: the limits it changes are
    /// unknown, so no rule is checked.
    character_unknown: bool,
    placed: Vec<Placed<'a>>,
}

/// Reads a deck file and resolves its character, cards and zone headers;
/// `None` (with the problems in `found`) when it cannot be read.
fn read_deck<'a>(
    index: &CardIndex<'a>,
    format: &DeckFormat,
    path: &Path,
    found: &mut Vec<Diagnostic>,
) -> Option<ReadDeck<'a>> {
    let file = checks::read(path, found)?;
    let deck = input::place_deck(index, format, &file, found);
    Some(ReadDeck {
        file,
        character_unknown: deck.character_unknown,
        character: deck.character,
        placed: deck.placed,
    })
}

pub fn check_file(
    context: &Context,
    index: &CardIndex,
    format: &DeckFormat,
    path: &Path,
) -> DeckReport {
    let shown = checks::shown(path);
    let mut found = Vec::new();
    let Some(ReadDeck {
        file,
        character,
        character_unknown,
        placed,
    }) = read_deck(index, format, path, &mut found)
    else {
        return not_checked(context, &shown, None, found);
    };
    let outcome = deck::check_zoned(format, character, &placed);
    if checks::has_errors(&found) {
        // A title line or a misspelt name does not hide what the cards
        // that were read break: both are reported in one run.
        let mut report = not_checked(context, &shown, Some(&file), found);
        if !character_unknown {
            report.common.violations = outcome.violations;
        }
        return report;
    }
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
fn export(context: &Context, path: &Path, share_only: bool, rules: Option<&str>) -> ExitCode {
    let ground = match ground(context) {
        Ok(ground) => ground,
        Err(code) => return code,
    };
    let format = match format(context, &ground, rules) {
        Ok(format) => format,
        Err(code) => return code,
    };
    let index = CardIndex::new(&ground.database);
    let mut found = Vec::new();
    let Some(deck) = read_deck(&index, format, path, &mut found) else {
        return context.fail(exit::CANNOT_RUN, &found, &Sources::default());
    };
    if checks::has_errors(&found) {
        let mut sources = Sources::default();
        sources.insert(deck.file.path.clone(), deck.file.text.clone());
        return context.fail(exit::CANNOT_RUN, &found, &sources);
    }
    let exported = DeckExport {
        file: checks::shown(path),
        list: share::canonical_list(format, deck.character, &deck.placed),
        share_code: share::encode(&share::deck_lines(format, deck.character, &deck.placed)),
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
