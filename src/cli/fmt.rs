//! `blades fmt [--check]`: rewrite effects in canonical form.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use blades::diagnostics::{Diagnostic, Sources};
use blades::files::{FileSet, WriteError};
use blades::fmt::format_set_file;
use blades::report::{self, Format};

use super::out::{stderrln, stdoutln};
use super::{Context, exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Report the files that are not in canonical form (exit 1) instead of rewriting them.
    #[arg(long)]
    check: bool,
}

pub fn run(context: &Context, args: Args) -> ExitCode {
    if context.cards.is_none() && !args.check {
        stderrln!(
            "error: `blades fmt` rewrites files: name the pool folder with --cards DIR (or use --check)"
        );
        return ExitCode::from(exit::CANNOT_RUN);
    }
    let workspace = match context.workspace_uncached() {
        Ok(workspace) => workspace,
        Err(code) => return code,
    };
    let pool = workspace.pool();
    let mut sources = Sources::default();
    // Files and folders the pool could not read are problems too: a
    // rewrite must not pass over a set file without a word.
    let mut problems = pool.problems.clone();
    let mut rewrites = Vec::new();
    for file in &pool.sets {
        sources.insert(file.path.clone(), file.text().clone());
        let formatted = format_set_file(&file.path, file.text());
        problems.extend(formatted.problems);
        if let Some(text) = formatted.text {
            rewrites.push((file.path.clone(), text, formatted.changes.len()));
        }
    }
    // Nothing is rewritten while any effect cannot be parsed; effects left
    // as written (warnings) do not stop the others.
    if problems.iter().any(Diagnostic::is_error) {
        context.report(&problems, &sources);
        return ExitCode::from(exit::PROBLEMS);
    }
    if context.format == Format::Human {
        context.report(&problems, &sources);
    }
    // Every file or none.
    if !args.check
        && let Err(e) = write_all(&rewrites)
    {
        stderrln!("error: {e}");
        return ExitCode::from(exit::CANNOT_RUN);
    }
    for (path, _, changes) in &rewrites {
        if args.check {
            if context.format == Format::Human {
                stdoutln!("{path}: {changes} effect(s) not in canonical form");
            }
            continue;
        }
        if context.format == Format::Human {
            stdoutln!("{path}: {changes} effect(s) rewritten");
        }
    }
    if context.format == Format::Json {
        let files: Vec<_> = rewrites
            .iter()
            .map(|(path, _, changes)| serde_json::json!({"file": &**path, "changes": changes}))
            .collect();
        let skipped = report::json_report(&problems, &sources).diagnostics;
        stdoutln!(
            "{}",
            serde_json::json!({"check": args.check, "files": files, "skipped": skipped})
        );
    }
    ExitCode::from(if args.check && !rewrites.is_empty() {
        exit::PROBLEMS
    } else {
        exit::OK
    })
}

/// Writes the rewritten set files as one [`FileSet`].
fn write_all(rewrites: &[(Arc<str>, String, usize)]) -> Result<(), WriteError> {
    let mut set = FileSet::new();
    for (path, text, _) in rewrites {
        set.stage(Path::new(&**path), text.as_bytes())?;
    }
    set.commit().map(drop)
}
