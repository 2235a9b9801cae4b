//! `blades collection check FILE` and `blades collection best FILE`.

use blades::words::plural;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use blades::cards::CardIndex;
use blades::model::Database;
use blades::report::Format;
use blades::rules::collection::{self, BestReport, ChosenReport, CollectionReport, RP_PER_CARD};
use blades::rules::input;
use blades::rules::{Common, Violation, rule};

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
    let database = match checks::database(context) {
        Ok(database) => database,
        Err(code) => return code,
    };
    let index = CardIndex::new(&database);
    let mut out = std::io::BufWriter::new(out::Stdout);
    let verdict = match args.command {
        CollectionCommand::Check { files, duel } => {
            return checks::check_each(
                context,
                &files,
                |path| check_file(context, &database, &index, path, duel),
                |report| report.common.verdict(),
                |out, report| print_check(out, &index, report),
            );
        }
        CollectionCommand::Best { file, duel } => {
            let report = best_file(context, &index, &file, duel);
            match context.format {
                Format::Json => checks::print_json(&mut out, &report, false),
                Format::Human => print_best(&mut out::Shown(&mut out), &index, &report),
            }
            report.common.verdict()
        }
    };
    let _ = out.flush();
    checks::exit_code(verdict)
}

fn check_file(
    context: &Context,
    database: &Database,
    index: &CardIndex,
    path: &Path,
    duel: bool,
) -> CollectionReport {
    let shown = checks::shown(path);
    let mut found = Vec::new();
    let not_checked = |found, file: Option<&input::InputFile>| CollectionReport {
        common: checks::not_checked(context, &shown, file, found),
        duel,
        ..CollectionReport::default()
    };
    let Some(file) = checks::read(path, &mut found) else {
        return not_checked(found, None);
    };
    let doc = input::read_cards(&file, true, &mut found);
    let symbol = doc
        .symbol
        .as_ref()
        .and_then(|s| input::resolve_symbol(database, &file.path, s, &mut found));
    let cards = input::resolve_cards(index, &file.path, &doc.cards, &mut found);
    if checks::has_errors(&found) {
        return not_checked(found, Some(&file));
    }
    let outcome = collection::check(&cards, symbol.as_ref());
    let legal = outcome.violations.is_empty();
    CollectionReport {
        common: Common::checked(&shown, outcome.violations),
        duel,
        cards: cards
            .iter()
            .flat_map(|(c, n)| std::iter::repeat_n(c.id.clone(), *n as usize))
            .collect(),
        symbols: outcome
            .symbols
            .iter()
            .map(|s| s.as_str().to_string())
            .collect(),
        vp: if legal && !duel {
            collection::vp(outcome.size)
        } else {
            None
        },
        rp: (legal && duel).then_some(outcome.size * RP_PER_CARD),
    }
}

fn best_file(context: &Context, index: &CardIndex, path: &Path, duel: bool) -> BestReport {
    let shown = checks::shown(path);
    let mut found = Vec::new();
    let not_checked = |found, file: Option<&input::InputFile>| BestReport {
        common: checks::not_checked(context, &shown, file, found),
        duel,
        ..BestReport::default()
    };
    let Some(file) = checks::read(path, &mut found) else {
        return not_checked(found, None);
    };
    let doc = input::read_cards(&file, false, &mut found);
    let binder = input::resolve_cards(index, &file.path, &doc.cards, &mut found);
    if checks::has_errors(&found) {
        return not_checked(found, Some(&file));
    }
    let none = || {
        vec![Violation::new(
            rule::NO_COLLECTION,
            "no two cards of the binder share an element or a type with different STARs: there is no legal collection to make",
            Vec::new(),
        )]
    };
    if duel {
        let pair = collection::best_duel(&binder);
        let violations = if pair.size() == 0 { none() } else { Vec::new() };
        BestReport {
            common: Common::checked(&shown, violations),
            duel,
            rp: Some(pair.rp()),
            element: Some(pair.element.as_ref().map(ChosenReport::from)),
            kind_type: Some(pair.kind_type.as_ref().map(ChosenReport::from)),
            ..BestReport::default()
        }
    } else {
        match collection::best(&binder) {
            Some(best) => BestReport {
                common: Common::checked(&shown, Vec::new()),
                duel,
                cards: Some(best.cards.iter().map(|c| c.id.clone()).collect()),
                symbol: Some(best.symbol.as_str().to_string()),
                vp: collection::vp(best.cards.len() as u64),
                ..BestReport::default()
            },
            None => BestReport {
                common: Common::checked(&shown, none()),
                duel,
                ..BestReport::default()
            },
        }
    }
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
                Some(c) => format!("{} ({})", c.name, c.stars),
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
