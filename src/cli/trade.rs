//! `blades trade check FILE`: are both sides worth the same?

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use blades::cards::{CardIndex, Sought};
use blades::rules::check;
use blades::rules::trade::{SideValue, TradeReport};

use super::Context;
use super::checks;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: TradeCommand,
}

#[derive(Debug, clap::Subcommand)]
enum TradeCommand {
    /// Check a trade: STARs plus Millennium Dollars equal on both sides
    /// (friendship cards ride along without value).
    Check {
        /// Trade files with sides `a` and `b` (YAML or plain text; `-` reads
        /// standard input). One result per file.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Free Market Mode: uneven trades are allowed (values still shown).
        #[arg(long)]
        free_market: bool,
    },
}

pub fn run(context: &Context, args: Args) -> ExitCode {
    let TradeCommand::Check { files, free_market } = args.command;
    let inputs = match checks::read_each(context, &files) {
        Ok(inputs) => inputs,
        Err(code) => return code,
    };
    let mut sought = Sought::default();
    (inputs.iter()).for_each(|input| check::seek_trade(&input.read, &mut sought));
    let database = match checks::database_for(context, &sought) {
        Ok(database) => database,
        Err(code) => return code,
    };
    let index = CardIndex::new(database);
    checks::check_each(
        context,
        inputs,
        |input| {
            let checked = check::trade(&index, &input.shown, input.read, free_market);
            checks::report(context, checked)
        },
        |report| report.common.verdict(),
        |out, report| print_human(out, &index, report),
    )
}

fn side_words(side: &SideValue) -> String {
    let mut words = format!("{} ({} STAR + ${})", side.value, side.stars, side.dollars);
    if side.friendship > 0 {
        words.push_str(&format!(
            ", plus {} friendship card{}",
            side.friendship,
            if side.friendship == 1 { "" } else { "s" }
        ));
    }
    words
}

fn print_human(out: &mut impl Write, index: &CardIndex, report: &TradeReport) {
    let common = &report.common;
    let mode = if report.free_market && common.checked {
        " (Free Market Mode)"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "{}: {}{mode}",
        common.file,
        checks::verdict_words(common)
    );
    if !common.checked {
        return;
    }
    let _ = writeln!(out, "  side a: {}", side_words(&report.a));
    let _ = writeln!(out, "  side b: {}", side_words(&report.b));
    match &report.balance {
        None => {
            let _ = writeln!(out, "  difference: 0, the trade is even");
        }
        Some(balance) => {
            let _ = writeln!(
                out,
                "  difference: {} (a - b); to balance, side {} adds {} in Millennium Dollars or STARs",
                report.difference, balance.side, balance.amount
            );
        }
    }
    checks::print_violations(out, index, &common.violations);
}
