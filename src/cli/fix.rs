//! `blades fix [--check]`: make the fixes the pool's findings name.

use std::process::ExitCode;

use blades::diagnostics::{Code, Diagnostic};
use blades::fix::{FixReport, PoolFixes, Reviews, fix_pool};
use blades::report::Format;

use super::out::stdoutln;
use super::{Context, exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Report the fixes there are to make (exit 1) instead of making them.
    #[arg(long)]
    pub check: bool,
    /// Also mark stale translations as reviewed against the English now
    /// (their `source` and `fingerprint` rewritten): only once every one
    /// of them has been checked.
    #[arg(long)]
    pub reviewed: bool,
}

pub fn run(context: &Context, args: Args) -> ExitCode {
    let workspace = match context.workspace_to_rewrite("fix", args.check) {
        Ok(workspace) => workspace,
        Err(code) => return code,
    };
    let reviews = match args.reviewed {
        true => Reviews::Mark,
        false => Reviews::Leave,
    };
    let fixes = fix_pool(workspace.pool(), reviews);
    if !args.check
        && let Err(e) = fixes.write()
    {
        return context.refuse(
            Diagnostic::general(Code::CannotWrite, e.to_string())
                .with_help("nothing was fixed: check that the files can be written"),
        );
    }
    match context.format {
        Format::Json => {
            let report = FixReport::of(&fixes, args.check);
            stdoutln!(
                "{}",
                serde_json::to_string_pretty(&report).unwrap_or_default()
            );
        }
        _ => print_fixes(context, &fixes, args.check),
    }
    ExitCode::from(if args.check && !fixes.files.is_empty() {
        exit::PROBLEMS
    } else {
        exit::OK
    })
}

/// Each fix, where and what; then how many, and the findings whose fix
/// was left out.
fn print_fixes(context: &Context, fixes: &PoolFixes, check: bool) {
    let report = FixReport::of(fixes, check);
    for file in &report.files {
        for fix in &file.fixes {
            stdoutln!(
                "{}:{}:{}: {}: {}",
                file.file,
                fix.line,
                fix.column,
                fix.code,
                fix.title
            );
        }
    }
    if context.tells() {
        let made: usize = report.files.iter().map(|f| f.fixes.len()).sum();
        let verb = if check { "to make" } else { "made" };
        stdoutln!(
            "{made} fix(es) {verb} in {} file(s); {} finding(s) with a fix left for you to choose",
            report.files.len(),
            report.ambiguous
        );
        if report.awaiting_review > 0 {
            stdoutln!(
                "{} stale translation(s) left as they are: once reviewed, `blades fix --reviewed` marks them",
                report.awaiting_review
            );
        }
    }
}
