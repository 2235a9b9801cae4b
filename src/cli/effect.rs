//! `blades effect check|render TEXT`: try the effect language on one text.

use std::process::ExitCode;
use std::sync::Arc;

use blades::compile;
use blades::diagnostics::Sources;
use blades::effect::{self, Keywords, Lang, Phrasebook};
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
        /// The effect text (one ability per line).
        text: String,
    },
    /// Print the card text an effect renders to.
    Render {
        text: String,
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
    let (text, lang) = match &args.command {
        Sub::Check { text } => (text, None),
        Sub::Render { text, lang } => (
            text,
            Some(match lang {
                LangArg::En => Lang::En,
                LangArg::Ja => Lang::Ja,
            }),
        ),
    };
    let pool = match context.pool() {
        Ok(pool) => pool,
        Err(code) => return code,
    };
    // The pool's sets and types are what an effect may name.
    let sets: Vec<_> = pool
        .sets
        .iter()
        .filter_map(|f| blades::load::load_set(f, &mut Vec::new()))
        .collect();
    let vocab = compile::vocabulary(&sets, Keywords::builtin());
    let path: Arc<str> = Arc::from("<effect>");
    let mut sources = Sources::default();
    sources.insert(path.clone(), Arc::from(text.as_str()));
    // Offsets in the text are the offsets in the pseudo-file.
    let offsets: Vec<usize> = (0..=text.len()).collect();
    let problems: Vec<_> = match effect::parse(text) {
        Ok(tree) => {
            let errors = effect::check(&tree, &vocab);
            if errors.is_empty() {
                match lang {
                    Some(lang) => stdoutln!(
                        "{}",
                        effect::render(&tree, lang, &Phrasebook::builtin(lang), &vocab)
                    ),
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
    context.report(&problems, &sources);
    ExitCode::from(exit::PROBLEMS)
}
