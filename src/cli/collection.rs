//! `blades collection check FILE` and `blades collection best FILE`.

use blades::words::plural;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use blades::cards::{CardIndex, Sought};
use blades::report::Format;
use blades::rules::check;
use blades::rules::collection::{BestReport, ChosenReport, CollectionReport};

use super::checks;
use super::{Context, out};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: CollectionCommand,
}

#[derive(Debug, clap::Subcommand)]
enum CollectionCommand {
    /// Check a collection: 2 to 8 cards, one element or type on all of them,
    /// a different STAR each. Shows the shared symbols and the VP.
    Check {
        /// Collection files (YAML or a plain-text list; `-` reads standard
        /// input). One result per file.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Duel Mode: built on an element or a type, 10 RP per card.
        #[arg(long)]
        duel: bool,
    },
    /// The legal collection worth the most VP in a binder.
    Best {
        /// Binder file: a list of cards, repeats allowed.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Duel Mode: the best element collection and type collection using
        /// different cards, 10 RP per card.
        #[arg(long)]
        duel: bool,
    },
}

pub fn run(context: &Context, args: Args) -> ExitCode {
    match args.command {
        CollectionCommand::Check { files, duel } => check(context, &files, duel),
        CollectionCommand::Best { file, duel } => best(context, &file, duel),
    }
}

/// `collection check`: each collection against the cards it names.
fn check(context: &Context, files: &[PathBuf], duel: bool) -> ExitCode {
    let inputs = match checks::read_each(context, files) {
        Ok(inputs) => inputs,
        Err(code) => return code,
    };
    let mut sought = Sought::default();
    (inputs.iter()).for_each(|input| check::seek_cards(&input.read, true, &mut sought));
    let database = match checks::database_for(context, &sought) {
        Ok(database) => database,
        Err(code) => return code,
    };
    let index = CardIndex::new(database);
    checks::check_each(
        context,
        inputs,
        |input| {
            let checked = check::collection(database, &index, &input.shown, input.read, duel);
            checks::report(context, checked)
        },
        |report| report.common.verdict(),
        |out, report| print_check(out, &index, report),
    )
}

/// `collection best`: the best collection of a binder's cards.
fn best(context: &Context, file: &Path, duel: bool) -> ExitCode {
    let read = checks::read(file);
    let mut sought = Sought::default();
    check::seek_cards(&read, false, &mut sought);
    let database = match checks::database_for(context, &sought) {
        Ok(database) => database,
        Err(code) => return code,
    };
    let index = CardIndex::new(database);
    let report = checks::report(
        context,
        check::best(&index, &checks::shown(file), read, duel),
    );
    let mut out = std::io::BufWriter::new(out::Stdout);
    match context.format {
        Format::Json => checks::print_json(&mut out, &report, false),
        Format::Human => print_best(&mut out::Shown(&mut out), &index, &report),
    }
    let _ = out.flush();
    checks::exit_code(report.common.verdict())
}

fn symbol_words(symbol: &str) -> String {
    let is_element = blades::words::Element::ALL
        .iter()
        .any(|e| e.as_str() == symbol);
    format!("{symbol} ({})", if is_element { "element" } else { "type" })
}

fn print_check(out: &mut impl Write, index: &CardIndex, report: &CollectionReport) {
    let common = &report.common;
    let score = match (report.vp, report.rp) {
        (Some(vp), _) => format!(": {vp} VP"),
        (_, Some(rp)) => format!(" in Duel Mode: {rp} RP"),
        _ => String::new(),
    };
    let _ = writeln!(
        out,
        "{}: {}{score}",
        common.file,
        checks::verdict_words(common)
    );
    if !common.checked {
        return;
    }
    let shared = if report.symbols.is_empty() {
        "none".to_string()
    } else {
        report
            .symbols
            .iter()
            .map(|s| symbol_words(s))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(
        out,
        "  {}, shared symbols: {shared}",
        plural(report.cards.len(), "card", "cards")
    );
    checks::print_violations(out, index, &common.violations);
}

fn print_best(out: &mut impl Write, index: &CardIndex, report: &BestReport) {
    let common = &report.common;
    if !common.checked || !common.legal {
        let _ = writeln!(out, "{}: {}", common.file, checks::verdict_words(common));
        checks::print_violations(out, index, &common.violations);
        return;
    }
    let describe = |chosen: &ChosenReport| {
        let cards: Vec<String> = chosen
            .cards
            .iter()
            .map(|id| match index.by_id(&id.0) {
                Some(c) => format!("{} ({})", c.name, c.stars_shown()),
                None => id.0.clone(),
            })
            .collect();
        format!(
            "{} on {}: {}",
            plural(chosen.cards.len(), "card", "cards"),
            symbol_words(&chosen.symbol),
            cards.join(", ")
        )
    };
    if report.duel {
        let _ = writeln!(
            out,
            "{}: best Duel Mode pair: {} RP",
            common.file,
            report.rp.unwrap_or(0)
        );
        for (what, chosen) in [("element", &report.element), ("type", &report.kind_type)] {
            match chosen.as_ref().and_then(Option::as_ref) {
                Some(c) => {
                    let _ = writeln!(out, "  {what} collection: {}", describe(c));
                }
                None => {
                    let _ = writeln!(out, "  {what} collection: none");
                }
            }
        }
    } else if let (Some(cards), Some(symbol)) = (&report.cards, &report.symbol) {
        let chosen = ChosenReport {
            symbol: symbol.clone(),
            cards: cards.clone(),
            stars: 0,
        };
        let _ = writeln!(
            out,
            "{}: best collection: {} VP",
            common.file,
            report.vp.unwrap_or(0)
        );
        let _ = writeln!(out, "  {}", describe(&chosen));
    }
}
