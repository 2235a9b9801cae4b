//! `blades fmt [--check]`: rewrite effects in canonical form.

use std::process::ExitCode;

use blades::diagnostics::{Code, Diagnostic, Sources};
use blades::fmt::{Rewrite, format_pool};
use blades::report::Format;

use super::out::{self, stdoutln};
use super::{Context, exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Report the files that are not in canonical form (exit 1) instead of rewriting them.
    #[arg(long)]
    pub check: bool,
}

pub fn run(context: &Context, args: Args) -> ExitCode {
    let workspace = match context.workspace_to_rewrite("fmt", args.check) {
        Ok(workspace) => workspace,
        Err(code) => return code,
    };
    let formatted = format_pool(workspace.pool());
    let (problems, sources) = (&formatted.problems, &formatted.sources);
    if context.sarif {
        let findings: Vec<_> = problems
            .iter()
            .cloned()
            .chain(formatted.changes_as_findings())
            .collect();
        let code = match findings.iter().any(|d| d.is_error()) {
            true => exit::PROBLEMS,
            false => exit::OK,
        };
        return context.fail(code, &findings, sources);
    }
    if formatted.blocked() {
        return context.fail(exit::PROBLEMS, problems, sources);
    }
    if context.format == Format::Human {
        context.report(problems, sources);
    }
    if !args.check
        && let Err(e) = formatted.write()
    {
        return context.refuse(
            Diagnostic::general(Code::CannotWrite, e.to_string())
                .with_help("nothing was rewritten: check that the files can be written"),
        );
    }
    let rewrites = &formatted.rewrites;
    // What --check finds is its result; what a rewrite did is news.
    if context.format == Format::Human && args.check {
        for rewrite in rewrites {
            print_changes(rewrite, &formatted.sources);
        }
    } else if context.tells() {
        for rewrite in rewrites {
            stdoutln!(
                "{}: {} effect(s) rewritten",
                rewrite.path,
                rewrite.changes.len()
            );
        }
    }
    if context.format == Format::Json {
        let report = formatted.report(args.check);
        stdoutln!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    }
    ExitCode::from(if args.check && !rewrites.is_empty() {
        exit::PROBLEMS
    } else {
        exit::OK
    })
}

/// `fmt --check`: each effect not in canonical form, where it is and how
/// it would be written.
fn print_changes(rewrite: &Rewrite, sources: &Sources) {
    for change in &rewrite.changes {
        let (line, column) = sources.line_col(&rewrite.path, change.span.start);
        stdoutln!(
            "{}:{line}:{column}: the effect of `{}` is not in canonical form",
            rewrite.path,
            change.card
        );
        // Effects as written may hold anything: shown safely.
        for old in change.before.trim_end().lines() {
            out::stdout_shown(&format!("  - {old}\n"));
        }
        for new in change.after.lines() {
            out::stdout_shown(&format!("  + {new}\n"));
        }
    }
}
