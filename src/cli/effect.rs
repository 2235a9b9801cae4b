//! `blades effect check|render TEXT`: try the effect language on one text.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use blades::diagnostics::{Diagnostic, Sources};
use blades::effect::{self, Lang, Rendered};
use blades::report::Format;

use super::out::stdoutln;
use super::{Context, exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Debug, clap::Subcommand)]
enum Sub {
    /// Parse and check an effect against the pool's sets, types and keywords; print its
    /// canonical form (JSON: the parsed tree).
    Check {
        /// The effect text (one ability per line); `-` reads it from standard input.
        #[arg(required_unless_present = "file")]
        text: Option<String>,
        /// Read the effect text from this file (`-`: standard input).
        #[arg(long, short, value_name = "FILE", conflicts_with = "text")]
        file: Option<PathBuf>,
    },
    /// Print the card text an effect renders to.
    Render {
        /// The effect text; `-` reads it from standard input.
        #[arg(required_unless_present = "file")]
        text: Option<String>,
        /// Read the effect text from this file (`-`: standard input).
        #[arg(long, short, value_name = "FILE", conflicts_with = "text")]
        file: Option<PathBuf>,
        /// Language of the printed text.
        #[arg(long, value_enum, default_value = "en")]
        lang: LangArg,
    },
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum LangArg {
    En,
    Ja,
}

pub fn run(context: &Context, args: Args) -> ExitCode {
    let (read, lang) = match &args.command {
        Sub::Check { text, file } => (input(text, file), None),
        Sub::Render { text, file, lang } => (
            input(text, file),
            Some(match lang {
                LangArg::En => Lang::En,
                LangArg::Ja => Lang::Ja,
            }),
        ),
    };
    let (path, text) = match read {
        Ok(read) => read,
        Err(problem) => return context.fail(exit::CANNOT_RUN, &[*problem], &Sources::default()),
    };
    let text = &text;
    let workspace = match context.workspace() {
        Ok(workspace) => workspace,
        Err(code) => return code,
    };
    // What the build checks and renders this pool's effects with.
    let (vocabulary, findings) = workspace.vocabulary();
    if findings.error_count() > 0 {
        // As for the player checks: a broken pool is nothing to check against.
        return context.pool_has_errors(
            &findings,
            "no effect can be checked against its keyword table and phrase books",
        );
    }
    let vocab = &vocabulary.vocab;
    let mut sources = Sources::default();
    sources.insert(path.clone(), Arc::from(text.as_str()));
    // Offsets in the text are the offsets in the pseudo-file.
    let offsets: Vec<usize> = (0..=text.len()).collect();
    let problems: Vec<_> = match effect::parse(text) {
        Ok(tree) => {
            let errors = effect::check(&tree, vocab);
            if errors.is_empty() {
                // The build's sense warnings (it knows the card's kind; this
                // text has none), beside the result; JSON keeps stdout to it.
                let warnings: Vec<Diagnostic> = effect::sense(&tree, None, vocab)
                    .into_iter()
                    .map(|e| e.into_diagnostic(&path, &offsets).as_warning())
                    .collect();
                if context.format == Format::Human {
                    context.report(&warnings, &sources);
                }
                match lang {
                    Some(lang) => {
                        let text = effect::render(&tree, lang, vocabulary.phrases.get(lang), vocab);
                        match context.format {
                            Format::Json => stdoutln!(
                                "{}",
                                serde_json::to_string_pretty(&Rendered { lang, text })
                                    .unwrap_or_default()
                            ),
                            Format::Human => stdoutln!("{text}"),
                        }
                    }
                    None if context.format == Format::Json => {
                        stdoutln!(
                            "{}",
                            serde_json::to_string_pretty(&tree).unwrap_or_default()
                        )
                    }
                    None => stdoutln!("{}", effect::format(&tree)),
                }
                return ExitCode::from(exit::OK);
            }
            errors
        }
        Err(errors) => errors,
    }
    .into_iter()
    .map(|e| e.into_diagnostic(&path, &offsets))
    .collect();
    context.fail(exit::PROBLEMS, &problems, &sources)
}

/// The effect text: given on the command line, or read from a file or
/// standard input (`-`), its last line end dropped; with the name its
/// findings are shown under.
fn input(
    text: &Option<String>,
    file: &Option<PathBuf>,
) -> Result<(Arc<str>, String), Box<Diagnostic>> {
    let from = match (text.as_deref(), file) {
        (_, Some(file)) => file.as_path(),
        (Some("-"), None) => Path::new("-"),
        (text, None) => return Ok((Arc::from("<effect>"), text.unwrap_or_default().to_string())),
    };
    let (shown, read) = blades::pool::read_input(from)?;
    let text = read.strip_suffix('\n').unwrap_or(&read);
    let text = text.strip_suffix('\r').unwrap_or(text);
    Ok((shown, text.to_string()))
}
