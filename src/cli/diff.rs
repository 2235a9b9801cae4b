//! `blades diff OLD NEW`: the classified changes between two releases, as
//! a report, a Markdown changelog or JSON; `--fail-on` makes it a CI gate.

use blades::words::plural;
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use blades::diagnostics::{Code, Diagnostic, Sources};
use blades::diff::{self, CardChange, ChangeClass, DiffReport, FieldChange, Opened, Unopened};
use blades::report::Format;

use super::out::{self, stdout};
use super::{Context, exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The earlier release: a pool folder or a database `blades build` wrote.
    #[arg(value_name = "OLD")]
    old: PathBuf,
    /// The later release: a pool folder or a database file.
    #[arg(value_name = "NEW")]
    new: PathBuf,
    /// Print a Markdown changelog for release notes (instead of the report).
    #[arg(long)]
    markdown: bool,
    /// The changelog's language (`en`, `ja`).
    #[arg(long, value_name = "LANG", requires = "markdown", default_value = "en", value_parser = ["en", "ja"])]
    lang: String,
    /// Exit 1 when a change of one of these classes exists (comma-separated:
    /// added, removed, renamed, stats, functional, wording, translation, flavor).
    #[arg(long, value_name = "CLASSES", value_delimiter = ',', value_parser = parse_class)]
    fail_on: Vec<ChangeClass>,
}

fn parse_class(word: &str) -> Result<ChangeClass, String> {
    ChangeClass::from_name(word.trim()).ok_or_else(|| {
        let names: Vec<&str> = ChangeClass::ALL.iter().map(|c| c.as_str()).collect();
        match blades::suggest::nearest(word, names.iter().copied(), 1).first() {
            Some(best) => format!("did you mean `{best}`? Classes: {}", names.join(", ")),
            None => format!("not a class of change; classes: {}", names.join(", ")),
        }
    })
}

pub fn run(context: &Context, args: Args) -> ExitCode {
    if args.markdown && context.format == Format::Json {
        return context.refuse(
            Diagnostic::general(
                Code::Usage,
                "`--markdown` and `--format json` do not go together",
            )
            .with_help("choose one: the changelog as Markdown, or the report as JSON"),
        );
    }
    let (old, new) = diff::open_both(&args.old, &args.new);
    let (old, new) = match (old, new) {
        (Ok(old), Ok(new)) => (old, new),
        (old, new) => return unopened(context, old.err(), new.err()),
    };
    let report = diff::diff_opened(&old, &new);
    match (context.format, args.markdown) {
        (Format::Json, _) => stdout!(
            "{}\n",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        ),
        (Format::Human, true) => out::stdout_shown(&report.markdown(&args.lang)),
        (Format::Human, false) => out::stdout_shown(&render(&report, &old, &new)),
    }
    match report.has_any(&args.fail_on) {
        true => ExitCode::from(exit::PROBLEMS),
        false => ExitCode::from(exit::OK),
    }
}

/// One side or both could not be opened: every finding, and for a pool
/// with errors a line that says which side; exit 2.
fn unopened(context: &Context, old: Option<Unopened>, new: Option<Unopened>) -> ExitCode {
    let mut diagnostics = Vec::new();
    let mut sources = Sources::default();
    for (side, unopened) in [("old", old), ("new", new)] {
        let Some(unopened) = unopened else { continue };
        let (findings, pool) = match unopened {
            Unopened::PoolErrors(findings) => (findings, true),
            Unopened::Refused(findings) => (findings, false),
        };
        diagnostics.extend(findings.diagnostics);
        sources.extend(findings.sources);
        if pool {
            diagnostics.push(
                Diagnostic::general(
                    Code::PoolHasErrors,
                    format!("the {side} pool has errors, so the releases cannot be compared"),
                )
                .with_help("fix the pool first: `blades build --cards DIR` lists the same errors"),
            );
        }
    }
    context.fail(exit::CANNOT_RUN, &diagnostics, &sources)
}

/// The human report: both sides, each changed card with its classes and
/// fields, and a summary line.
fn render(report: &DiffReport, old: &Opened, new: &Opened) -> String {
    let mut out = String::new();
    for (label, side) in [("old", old), ("new", new)] {
        let _ = writeln!(
            out,
            "{label}: {} ({}, {})",
            side.path.display(),
            side.kind.as_str(),
            plural(side.database.cards.len(), "card", "cards")
        );
    }
    out.push('\n');
    for change in &report.changes {
        card(&mut out, change);
    }
    if !report.changes.is_empty() {
        out.push('\n');
    }
    let _ = writeln!(out, "{}", report.summary());
    out
}

fn card(out: &mut String, change: &CardChange) {
    let mark = match (
        change.has(ChangeClass::Added),
        change.has(ChangeClass::Removed),
    ) {
        (true, _) => '+',
        (_, true) => '-',
        _ => '~',
    };
    let classes: Vec<&str> = change.classes.iter().map(|c| c.as_str()).collect();
    let _ = writeln!(
        out,
        "{mark} {}  {} ({})  [{}]",
        change.id,
        change.name,
        change.set,
        classes.join(", ")
    );
    for field_change in &change.fields {
        field(out, field_change);
    }
    if let Some(errata) = &change.errata {
        let note = errata
            .note
            .as_deref()
            .map(|n| format!(": {n}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "    errata history: the old text was used until {}{note}",
            errata.until
        );
    }
}

/// A field's change: `old → new` on one line when both are short, else
/// the old and new text under it.
fn field(out: &mut String, change: &FieldChange) {
    let shown = |v: &Option<String>| {
        v.as_deref()
            .map_or("(none)".to_string(), |v| v.trim().to_string())
    };
    let (old, new) = (shown(&change.old), shown(&change.new));
    let short = |v: &str| !v.contains('\n') && v.chars().count() <= 40;
    if short(&old) && short(&new) {
        let _ = writeln!(out, "    {}: {old} → {new}", change.field);
        return;
    }
    let _ = writeln!(out, "    {}:", change.field);
    for (sign, text) in [('-', &old), ('+', &new)] {
        for line in text.lines() {
            let _ = writeln!(out, "      {sign} {line}");
        }
    }
}
