//! `blades deck check FILE... [--rules FORMAT]`: every violation of every
//! deck, against the tournament deck or another format; and what else a
//! player asks of a deck: `export`, `stats`, `diff`, `missing`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use blades::cards::{CardIndex, Sought};
use blades::diagnostics::{Code, Diagnostic, Sources};
use blades::report::Format;
use blades::rules::Counted;
use blades::rules::check::{self, Ground};
use blades::rules::deck::{DeckFormat, DeckReport};
use blades::rules::deck_diff::DeckDiff;
use blades::rules::missing::MissingReport;
use blades::rules::stats::{DeckStats, Spread};
use blades::workspace::{Unchecked, Workspace};

use super::out::{self, Shown, stdoutln};
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
    /// A deck's statistics: its cards per kind, STAR, element and type, and
    /// the collections its singles could make, with their VP.
    Stats {
        /// The deck (a file, `-`, or a share code).
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The deck format whose zones the list names (as for `check`).
        #[arg(long, value_name = "FORMAT")]
        rules: Option<String>,
    },
    /// What changed between two versions of a deck, zone by zone: cards
    /// added, removed and counted again (exit 0 when they are the same deck,
    /// 1 when they differ, as `diff` does).
    Diff {
        /// The first version (a file, `-`, or a share code).
        #[arg(value_name = "A")]
        a: PathBuf,
        /// The second version.
        #[arg(value_name = "B")]
        b: PathBuf,
        /// The deck format whose zones are compared (as for `check`).
        #[arg(long, value_name = "FORMAT")]
        rules: Option<String>,
    },
    /// The cards a deck needs more copies of than you own, copy by copy
    /// (exit 0 when nothing is missing, 1 when something is).
    Missing {
        /// The deck (a file, `-`, or a share code).
        #[arg(value_name = "DECK")]
        deck: PathBuf,
        /// What you own: a binder (a list of cards, as `collection best`
        /// reads it), or with `--copies` a copies file.
        #[arg(value_name = "OWNED")]
        owned: PathBuf,
        /// OWNED is a copies file (`sets:` and `cards:` with counts, as
        /// `copies check` reads it), not a binder.
        #[arg(long)]
        copies: bool,
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
        DeckCommand::Diff { a, b, rules } => diff(context, &a, &b, rules.as_deref()),
        DeckCommand::Stats { file, rules } => stats(context, &file, rules.as_deref()),
        DeckCommand::Missing {
            deck,
            owned,
            copies,
            rules,
        } => {
            let kind = match copies {
                true => check::Owned::Copies,
                false => check::Owned::Binder,
            };
            missing(context, (&deck, &owned, kind), rules.as_deref())
        }
    }
}

/// What every deck command reads first: the pool's formats and the cards
/// `sought`, kept while the command runs.
fn ground(context: &Context, sought: Sought) -> Result<&'static Ground, ExitCode> {
    ground_of(context, &context.workspace()?, Some(sought)).map(kept_until_exit)
}

/// [`ground`] of a workspace already open, for the cards `sought` (every
/// card without it: `blades serve` checks whatever comes).
pub fn ground_of(
    context: &Context,
    workspace: &Workspace,
    sought: Option<Sought>,
) -> Result<Ground, ExitCode> {
    workspace
        .ground(sought)
        .map_err(|unchecked| match unchecked {
            Unchecked::Formats(findings) => {
                context.fail(exit::CANNOT_RUN, &findings.diagnostics, &findings.sources)
            }
            Unchecked::Pool(findings) => {
                context.pool_has_errors(&findings, "nothing can be checked against it")
            }
        })
}

/// [`ground_and_format_of`] for the cards the decks `inputs` name.
fn ground_and_format(
    context: &Context,
    inputs: &[&check::Read],
    rules: Option<&str>,
) -> Result<(&'static Ground, &'static DeckFormat), ExitCode> {
    let mut sought = Sought::default();
    (inputs.iter()).for_each(|read| check::seek_deck(read, &mut sought));
    ground_and_format_of(context, sought, rules)
}

/// [`ground`] for the cards `sought`, and the format `--rules` names in
/// it ([`format`]).
fn ground_and_format_of(
    context: &Context,
    sought: Sought,
    rules: Option<&str>,
) -> Result<(&'static Ground, &'static DeckFormat), ExitCode> {
    let ground = ground(context, sought)?;
    Ok((ground, format(context, ground, rules)?))
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
    let inputs = match checks::read_each(context, files) {
        Ok(inputs) => inputs,
        Err(code) => return code,
    };
    let reads: Vec<_> = inputs.iter().map(|input| &input.read).collect();
    let (ground, format) = match ground_and_format(context, &reads, rules) {
        Ok(both) => both,
        Err(code) => return code,
    };
    let index = ground.index();
    let named = rules.is_some();
    checks::check_each(
        context,
        inputs,
        |input| {
            let checked = check::deck(&index, format, &input.shown, input.read);
            checks::report(context, checked)
        },
        |report| report.common.verdict(),
        |out, report| print_human(out, &index, format, named, report),
    )
}

/// `deck export`: the deck read and resolved (not checked: a deck being
/// built may break a rule), then written out canonically.
fn export(context: &Context, path: &Path, share_only: bool, rules: Option<&str>) -> ExitCode {
    let read = checks::read(path);
    let (ground, format) = match ground_and_format(context, &[&read], rules) {
        Ok(both) => both,
        Err(code) => return code,
    };
    let index = ground.index();
    let file = match read {
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

/// `deck diff`: both versions read and resolved as `export` reads them,
/// the change printed; exit 0 for the same deck, 1 for a change.
fn diff(context: &Context, a: &Path, b: &Path, rules: Option<&str>) -> ExitCode {
    let both = [a.to_path_buf(), b.to_path_buf()];
    if let Err(code) = checks::stdin_once(context, &both) {
        return code;
    }
    let (read_a, read_b) = (checks::read(a), checks::read(b));
    let (ground, format) = match ground_and_format(context, &[&read_a, &read_b], rules) {
        Ok(both) => both,
        Err(code) => return code,
    };
    let (shown_a, shown_b) = (checks::shown(a), checks::shown(b));
    let compared = check::deck_diff(
        &ground.index(),
        format,
        (&shown_a, read_a),
        (&shown_b, read_b),
    );
    let Some(diff) = compared.answer else {
        return context.fail(exit::CANNOT_RUN, &compared.problems, &compared.sources);
    };
    if context.format == Format::Human {
        // Warnings (a card written twice in one version) beside the change.
        context.report(&compared.problems, &compared.sources);
    }
    let mut stdout = std::io::BufWriter::new(out::Stdout);
    match context.format {
        Format::Json => checks::print_json(&mut stdout, &diff, false),
        Format::Human => print_diff(&mut Shown(&mut stdout), format, &diff),
    }
    let _ = stdout.flush();
    ExitCode::from(if diff.same { exit::OK } else { exit::PROBLEMS })
}

/// `deck stats`: the deck read and resolved as `export` reads it, its
/// statistics printed.
fn stats(context: &Context, path: &Path, rules: Option<&str>) -> ExitCode {
    let read = checks::read(path);
    let (ground, format) = match ground_and_format(context, &[&read], rules) {
        Ok(both) => both,
        Err(code) => return code,
    };
    let shown = checks::shown(path);
    let counted = check::deck_stats(&ground.index(), format, &shown, read);
    let Some(stats) = counted.answer else {
        return context.fail(exit::CANNOT_RUN, &counted.problems, &counted.sources);
    };
    if context.format == Format::Human {
        context.report(&counted.problems, &counted.sources);
    }
    let mut stdout = std::io::BufWriter::new(out::Stdout);
    match context.format {
        Format::Json => checks::print_json(&mut stdout, &stats, false),
        Format::Human => print_stats(&mut Shown(&mut stdout), &stats),
    }
    let _ = stdout.flush();
    ExitCode::from(exit::OK)
}

/// A deck's cards for `print --deck`, in its order: read and resolved as
/// `export` reads it against the whole pool's `ground` (a face's number
/// counts its set's cards), with the name its report gives it.
pub fn cards_for_print(
    context: &Context,
    ground: &'static Ground,
    path: &Path,
    rules: Option<&str>,
) -> Result<(String, Vec<Counted<'static>>), ExitCode> {
    let format = format(context, ground, rules)?;
    let read = check::deck_cards(&ground.index(), format, checks::read(path));
    let Some(cards) = read.answer else {
        return Err(context.fail(exit::CANNOT_RUN, &read.problems, &read.sources));
    };
    if context.format == Format::Human {
        context.report(&read.problems, &read.sources);
    }
    Ok((checks::shown(path), cards))
}

/// `deck missing`: the deck and what is owned read whole (the deck as
/// `export` reads it); exit 0 when nothing is missing, 1 when something is.
fn missing(
    context: &Context,
    (deck, owned, kind): (&Path, &Path, check::Owned),
    rules: Option<&str>,
) -> ExitCode {
    let both = [deck.to_path_buf(), owned.to_path_buf()];
    if let Err(code) = checks::stdin_once(context, &both) {
        return code;
    }
    let (read_deck, read_owned) = (checks::read(deck), checks::read(owned));
    let mut sought = Sought::default();
    check::seek_deck(&read_deck, &mut sought);
    check::seek_owned(&read_owned, kind, &mut sought);
    let (ground, format) = match ground_and_format_of(context, sought, rules) {
        Ok(both) => both,
        Err(code) => return code,
    };
    let compared = check::deck_missing(
        &ground.index(),
        format,
        (&checks::shown(deck), read_deck),
        (&checks::shown(owned), read_owned, kind),
    );
    let Some(lacking) = compared.answer else {
        return context.fail(exit::CANNOT_RUN, &compared.problems, &compared.sources);
    };
    if context.format == Format::Human {
        context.report(&compared.problems, &compared.sources);
    }
    let mut stdout = std::io::BufWriter::new(out::Stdout);
    match context.format {
        Format::Json => checks::print_json(&mut stdout, &lacking, false),
        Format::Human => print_missing(&mut Shown(&mut stdout), &lacking),
    }
    let _ = stdout.flush();
    ExitCode::from(match lacking.missing {
        0 => exit::OK,
        _ => exit::PROBLEMS,
    })
}

/// What a deck lacks for people: `2 Canyon Wyrm (1 of 3 owned)` a line.
fn print_missing(out: &mut impl Write, report: &MissingReport) {
    if report.cards.is_empty() {
        let _ = writeln!(
            out,
            "{}: {} holds every card it needs",
            report.deck, report.owned
        );
        return;
    }
    let copies = match report.missing {
        1 => "1 copy".to_string(),
        n => format!("{n} copies"),
    };
    let _ = writeln!(
        out,
        "{} needs {copies} that {} lacks:",
        report.deck, report.owned
    );
    for card in &report.cards {
        let _ = writeln!(
            out,
            "  {} {} ({} of {} owned)",
            card.missing, card.name, card.own, card.need
        );
    }
}

/// A deck's statistics for people: one line per spread, `value count`.
fn print_stats(out: &mut impl Write, stats: &DeckStats) {
    let spread = |list: &[Spread]| -> String {
        let shown: Vec<String> = list
            .iter()
            .map(|s| format!("{} ×{}", s.value, s.count))
            .collect();
        if shown.is_empty() {
            "none".to_string()
        } else {
            shown.join(", ")
        }
    };
    let _ = writeln!(out, "{}: {} cards", stats.file, stats.cards);
    let _ = writeln!(out, "  kinds: {}", spread(&stats.kinds));
    let _ = writeln!(
        out,
        "  STARs: {} (total {})",
        spread(&stats.stars),
        stats.star_total
    );
    let _ = writeln!(out, "  elements: {}", spread(&stats.elements));
    let _ = writeln!(out, "  types: {}", spread(&stats.types));
    for possible in &stats.collections {
        let best = stats.best.as_ref() == Some(possible);
        let _ = writeln!(
            out,
            "  collection on {}: {} cards, {} VP{}",
            possible.symbol,
            possible.cards.len(),
            possible.vp,
            if best { " (the best)" } else { "" }
        );
    }
    if stats.collections.is_empty() {
        let _ = writeln!(
            out,
            "  no collection: no two singles share a symbol with different STARs"
        );
    }
}

/// A deck's change for people: `+ 1 Canyon Wyrm`, `- 1 Dust Devil`,
/// `~ Gear Sleeve: 1 → 2`, under each zone's name when there are several.
fn print_diff(out: &mut impl Write, format: &DeckFormat, diff: &DeckDiff) {
    if diff.same {
        let _ = writeln!(out, "{} and {}: the same deck", diff.a, diff.b);
        return;
    }
    let _ = writeln!(out, "{} → {}:", diff.a, diff.b);
    if let Some(change) = &diff.character {
        let name = |c: &Option<String>| c.clone().unwrap_or_else(|| "none".to_string());
        let _ = writeln!(
            out,
            "  character: {} → {}",
            name(&change.a),
            name(&change.b)
        );
    }
    let headed = format.zones.len() > 1;
    for zone in &diff.zones {
        let indent = if headed { "    " } else { "  " };
        if headed {
            let _ = writeln!(out, "  {}:", zone.name);
        }
        for card in &zone.added {
            let _ = writeln!(out, "{indent}+ {} {}", card.count, card.name);
        }
        for card in &zone.removed {
            let _ = writeln!(out, "{indent}- {} {}", card.count, card.name);
        }
        for card in &zone.changed {
            let _ = writeln!(out, "{indent}~ {}: {} → {}", card.name, card.a, card.b);
        }
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
