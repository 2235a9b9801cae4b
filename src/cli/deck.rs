//! `blades deck check FILE...`: every violation of every deck.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use blades::cards::CardIndex;
use blades::diagnostics::Sources;
use blades::report::Format;
use blades::rules::Common;
use blades::rules::deck::{self, CharacterRef, DeckReport};
use blades::rules::input;
use blades::rules::share::{self, DeckExport};
use blades::words::CardKind;

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
    /// (a character may change the limits). One result per file.
    Check {
        /// Deck files (YAML or a plain-text list; `-` reads standard input).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
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
    let files = match args.command {
        DeckCommand::Check { files } => files,
        DeckCommand::Export { file, share } => return export(context, &file, share),
    };
    if let Err(code) = checks::stdin_once(context, &files) {
        return code;
    }
    let database = match checks::database(context) {
        Ok(database) => database,
        Err(code) => return code,
    };
    let index = CardIndex::new(&database);
    checks::check_each(
        context,
        &files,
        |path| check_file(context, &index, path),
        |report| report.common.verdict(),
        |out, report| print_human(out, &index, report),
    )
}

/// Reads, resolves and checks one deck file.
pub fn check_file(context: &Context, index: &CardIndex, path: &Path) -> DeckReport {
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
    let cards = input::resolve_cards(index, &file.path, &doc.cards, &mut found);
    if checks::has_errors(&found) {
        return not_checked(context, &shown, Some(&file), found);
    }
    let format = deck::tournament();
    let outcome = deck::check(format, character, &cards);
    DeckReport {
        common: Common::checked(&shown, outcome.violations),
        format: Some(format.id.clone()),
        character: character.map(|c| CharacterRef {
            id: c.id.clone(),
            name: c.name.clone(),
        }),
        slots: outcome.slots,
        cards: cards
            .iter()
            .flat_map(|(c, n)| std::iter::repeat_n(c.id.clone(), *n as usize))
            .collect(),
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
    found: Vec<blades::diagnostics::Diagnostic>,
) -> DeckReport {
    DeckReport {
        common: checks::not_checked(context, shown, file, found),
        ..DeckReport::default()
    }
}

fn print_human(out: &mut impl Write, index: &CardIndex, report: &DeckReport) {
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
    let slots: Vec<String> = report
        .slots
        .iter()
        .map(|s| {
            let word = match s.kind {
                CardKind::Single => "singles",
                CardKind::DeckBox => "deck boxes",
                CardKind::Accessory => "accessories",
            };
            format!("{word} {}/{}", s.count, s.limit)
        })
        .collect();
    let _ = writeln!(out, "  {}", slots.join(", "));
    checks::print_violations(out, index, &common.violations);
}
