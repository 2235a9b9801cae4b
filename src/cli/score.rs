//! `blades score FILE`: the end-of-game arithmetic of a score sheet.

use blades::words::plural;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use blades::diagnostics::{self, Sources};
use blades::report::Format;
use blades::rules::score::{self, PlayerScore, ScoreReport};

use super::out::{self, stdout};
use super::{Context, checks, exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The score sheet (YAML: `mode:` and `players:`, each with `name`,
    /// `placings`, `collections`, `dollars` and `friendship`; `-` reads
    /// standard input).
    #[arg(value_name = "FILE")]
    file: PathBuf,
}

pub fn run(context: &Context, args: Args) -> ExitCode {
    let file = match checks::read(&args.file) {
        Ok(file) => file,
        Err(problem) => return context.fail(exit::CANNOT_RUN, &[*problem], &Sources::default()),
    };
    let mut found = Vec::new();
    let report = score::score(&file, &mut found);
    let mut sources = Sources::default();
    sources.insert(file.path.clone(), file.text.clone());
    diagnostics::sort(&mut found);
    let Some(report) = report else {
        return context.fail(exit::CANNOT_RUN, &found, &sources);
    };
    match context.format {
        Format::Json => stdout!(
            "{}\n",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        ),
        Format::Human => out::stdout_shown(&render(&report)),
    }
    ExitCode::from(exit::OK)
}

/// The ranking as a table, then where each player's VP came from.
fn render(report: &ScoreReport) -> String {
    let width = report
        .players
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    let mut out = format!("{} ({} mode)\n\n", report.file, report.mode);
    let _ = writeln!(
        out,
        "  rank  {:<width$}  total  tournaments  collections  money  friendship",
        "player"
    );
    for p in &report.players {
        let _ = writeln!(
            out,
            "  {:>4}  {:<width$}  {:>5}  {:>11}  {:>11}  {:>5}  {:>10}",
            p.rank, p.name, p.total, p.tournament_vp, p.collection_vp, p.money_vp, p.friendship_vp
        );
    }
    for p in &report.players {
        out.push('\n');
        out.push_str(&details(p));
    }
    out
}

/// One player's VP, source by source.
fn details(p: &PlayerScore) -> String {
    let mut out = format!("{}:\n", p.name);
    for t in &p.tournaments {
        let tie = match t.tied {
            1 => String::new(),
            n => format!(", tied with {}", n - 1),
        };
        let _ = writeln!(
            out,
            "  {} place {}{tie}: {} VP",
            t.tournament, t.place, t.vp
        );
    }
    for c in &p.collections {
        let _ = writeln!(
            out,
            "  collection of {}: {} VP",
            plural(c.cards, "card", "cards"),
            c.vp
        );
    }
    let _ = writeln!(out, "  {} Millennium Dollars: {} VP", p.dollars, p.money_vp);
    for f in &p.friendship {
        let capped = match f.counted < f.vp {
            true => format!(" (of {}: at most {} from one player)", f.vp, f.counted),
            false => String::new(),
        };
        let _ = writeln!(
            out,
            "  Friendship from {}: {} VP{capped}",
            f.from, f.counted
        );
    }
    out
}
