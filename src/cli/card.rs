//! `blades card show NAME`: one card in English, another language, or both.

use std::process::ExitCode;

use clap::Subcommand;

use blades::i18n;
use blades::model::CardShown;
use blades::report::Format;
use blades::summary::render;

use super::out::{self, stdoutln};
use super::{Context, exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Debug, Subcommand)]
enum Sub {
    /// Show a card, found by id, English name or translated name.
    Show(ShowArgs),
}

#[derive(Debug, clap::Args)]
struct ShowArgs {
    /// Card id, English name or translated name (any case; quotes optional).
    #[arg(value_name = "NAME", required = true, num_args = 1..)]
    name: Vec<String>,
    /// Show only this language (`en`, `ja`); default: English and every
    /// translation.
    #[arg(long, value_name = "LANG")]
    lang: Option<String>,
}

pub fn run(context: &Context, args: Args) -> ExitCode {
    match args.command {
        Sub::Show(a) => show(context, a),
    }
}

fn show(context: &Context, args: ShowArgs) -> ExitCode {
    let name = args.name.join(" ");
    let workspace = match context.workspace() {
        Ok(workspace) => workspace,
        Err(code) => return code,
    };
    let named = match workspace.card_named(&name) {
        Ok(named) => named,
        Err(findings) => return context.pool_has_errors(&findings, "no card can be shown"),
    };
    if let Some(lang) = &args.lang
        && let Err(unknown) = i18n::choose_among(named.languages, lang)
    {
        return context.refuse(*unknown);
    }
    let (card, set) = match named.card {
        Ok(found) => found,
        Err(unknown) => return context.refuse(*unknown),
    };
    let (card, set) = (&card, set.as_ref());
    match context.format {
        Format::Json => {
            let value = CardShown { card, set };
            stdoutln!(
                "{}",
                serde_json::to_string_pretty(&value).unwrap_or_default()
            );
        }
        Format::Human => out::stdout_shown(&render(card, set, args.lang.as_deref())),
    }
    ExitCode::from(exit::OK)
}
