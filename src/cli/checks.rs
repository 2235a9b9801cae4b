//! What the player checks (`deck`, `collection`, `trade`, `copies`) share:
//! loading the card database, reporting input problems, printing results
//! and the exit code.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use serde::Serialize;

use blades::cards::{CardIndex, Sought};
use blades::diagnostics::{Code, Diagnostic};
use blades::model::Database;
use blades::report::{self, Format};
use blades::rules::check::{self, Checked};
use blades::rules::input::InputFile;
use blades::rules::{Common, Verdict, Violation};
use blades::words::Id;

use super::out::{self, Shown, Stdout};
use super::{Context, exit};

/// The card database of the pool named by `--cards`; a pool with errors
/// cannot be checked against (exit 2).
pub fn database(context: &Context) -> Result<&'static Database, ExitCode> {
    let (_, database) = context.database("nothing can be checked against it")?;
    Ok(database)
}

/// [`database`] for a check of the cards `sought`: only those, when the
/// card index has them all.
pub fn database_for(context: &Context, sought: &Sought) -> Result<&'static Database, ExitCode> {
    context.database_for(sought, "nothing can be checked against it")
}

/// An input read, under the name its report gives it.
pub struct Input {
    pub shown: String,
    pub read: check::Read,
}

/// Reads every input before any is checked (a check looks up the cards of
/// all of them at once); standard input once.
pub fn read_each(context: &Context, files: &[std::path::PathBuf]) -> Result<Vec<Input>, ExitCode> {
    stdin_once(context, files)?;
    let input = |path: &std::path::PathBuf| Input {
        shown: shown(path),
        read: read(path),
    };
    Ok(files.iter().map(input).collect())
}

/// Checks each input in turn and prints each result as it comes (JSON
/// Lines for several inputs); the exit code is the worst verdict's.
pub fn check_each<R: Serialize>(
    context: &Context,
    inputs: Vec<Input>,
    check: impl Fn(Input) -> R,
    verdict: impl Fn(&R) -> Verdict,
    human: impl Fn(&mut Shown<&mut std::io::BufWriter<Stdout>>, &R),
) -> ExitCode {
    let mut out = std::io::BufWriter::new(Stdout);
    let mut worst = Verdict::Legal;
    let lines = inputs.len() > 1;
    for input in inputs {
        let report = check(input);
        worst = worst.max(verdict(&report));
        match context.format {
            Format::Json => print_json(&mut out, &report, lines),
            Format::Human => human(&mut Shown(&mut out), &report),
        }
        if verdict(&report) == Verdict::NotChecked {
            // Keep stderr and stdout in step for people reading both.
            let _ = out.flush();
        }
    }
    let _ = out.flush();
    exit_code(worst)
}

/// Standard input (`-`) can be read once: named twice, the second would
/// be read empty and pass as an empty input.
pub fn stdin_once(context: &Context, files: &[std::path::PathBuf]) -> Result<(), ExitCode> {
    if files
        .iter()
        .filter(|f| f.as_path() == Path::new("-"))
        .count()
        > 1
    {
        return Err(context.refuse(
            Diagnostic::general(
                Code::Usage,
                "`-` (standard input) is named more than once; it can be read only once",
            )
            .with_help("name `-` once, or save the input to a file"),
        ));
    }
    Ok(())
}

/// Reads an input file (standard input for `-`, or a share code's list).
pub fn read(path: &Path) -> check::Read {
    InputFile::read(path)
}

/// The file name to show for an input.
pub fn shown(path: &Path) -> String {
    blades::rules::input::shown(path)
}

/// A check's report, its input problems first rendered to stderr for
/// people.
pub fn report<R>(context: &Context, checked: Checked<R>) -> R {
    if context.format == Format::Human && !checked.problems.is_empty() {
        out::stderr_str(&report::render_human(
            &checked.problems,
            &checked.sources,
            context.stderr_style(),
        ));
    }
    checked.report
}

/// The exit code of the worst verdict.
pub fn exit_code(worst: Verdict) -> ExitCode {
    ExitCode::from(match worst {
        Verdict::Legal => exit::OK,
        Verdict::Violations => exit::PROBLEMS,
        Verdict::NotChecked => exit::CANNOT_RUN,
    })
}

/// Prints one JSON value: pretty for a single result, one line each for
/// several (JSON Lines).
pub fn print_json<T: Serialize>(out: &mut impl Write, value: &T, lines: bool) {
    let text = if lines {
        serde_json::to_string(value)
    } else {
        serde_json::to_string_pretty(value)
    };
    let _ = writeln!(out, "{}", text.unwrap_or_default());
}

/// Card names for ids, for people.
pub fn names(index: &CardIndex, ids: &[Id]) -> String {
    ids.iter()
        .map(|id| {
            index
                .by_id(&id.0)
                .map_or(id.0.as_str(), |c| c.name.as_str())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The human lines of a report's verdict: `legal` or the violations.
pub fn print_violations(out: &mut impl Write, index: &CardIndex, violations: &[Violation]) {
    for v in violations {
        let _ = writeln!(out, "  - {}: {}", v.rule, v.message);
        if !v.cards.is_empty() {
            let _ = writeln!(out, "    cards: {}", names(index, &v.cards));
        }
    }
}

/// `not legal, 2 violations` / `legal`.
pub fn verdict_words(common: &Common) -> String {
    if !common.checked {
        let n = common.diagnostics.len();
        return format!(
            "not checked, {n} input {} (see stderr)",
            if n == 1 { "error" } else { "errors" }
        );
    }
    match common.violations.len() {
        0 => "legal".to_string(),
        1 => "not legal, 1 violation".to_string(),
        n => format!("not legal, {n} violations"),
    }
}
