//! `blades new SET`: start a set file that builds.

use std::path::PathBuf;
use std::process::ExitCode;

use blades::diagnostics::{Code, Diagnostic};
use blades::files::write_atomic;
use blades::report::shown;
use blades::synth::{default_cost, new_set};
use blades::words::{Id, SetKind};

use super::out::stderrln;
use super::{Context, exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The new set's id, kebab-case (`sunset-gulch`); the file is `ID.yaml` in the pool folder.
    id: String,
    /// The set's name (default: the id in words, `Sunset Gulch`).
    #[arg(long)]
    name: Option<String>,
    /// The set's kind, which decides its size and copy rule.
    #[arg(long, value_parser = kinds(), default_value = "expansion")]
    kind: String,
    /// The Store buy cost (store sets only; default: the built-in pool's for the kind).
    #[arg(long)]
    cost: Option<u32>,
}

fn kinds() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(SetKind::ALL.map(SetKind::as_str))
}

pub fn run(context: &Context, args: Args) -> ExitCode {
    if !Id::is_valid(&args.id) {
        return context.refuse(
            Diagnostic::general(
                Code::Usage,
                format!("`{}` is not a kebab-case id", shown(&args.id)),
            )
            .with_help(format!(
                "write lower-case words joined by hyphens, e.g. `blades new {}`",
                Id::suggested(&args.id)
            )),
        );
    }
    // clap accepts only the kinds' ids.
    let kind = SetKind::ALL
        .into_iter()
        .find(|k| k.as_str() == args.kind)
        .unwrap_or(SetKind::Expansion);
    if args.cost.is_some() && !kind.is_store_set() {
        return context.refuse(
            Diagnostic::general(
                Code::Usage,
                format!("a {} set has no Store cost", kind.words()),
            )
            .with_help("leave out `--cost`: only core, expansion, premium and master sets are bought from the Store"),
        );
    }
    let folder = context
        .cards
        .clone()
        .unwrap_or_else(|| PathBuf::from("cards"));
    let path = folder.join(format!("{}.yaml", args.id));
    if path.exists() {
        return context.refuse(
            Diagnostic::general(
                Code::CannotWrite,
                format!("{} exists already", path.display()),
            )
            .with_help("choose another id, or edit that file"),
        );
    }
    let name = args.name.unwrap_or_else(|| words_of(&args.id));
    let cost = args.cost.or(default_cost(kind));
    let text = new_set(&args.id, &name, kind, cost);
    let written =
        std::fs::create_dir_all(&folder).and_then(|()| write_atomic(&path, text.as_bytes()));
    if let Err(e) = written {
        return context.refuse(
            Diagnostic::general(
                Code::CannotWrite,
                format!("cannot write {}: {e}", path.display()),
            )
            .with_help("check that the folder can be written"),
        );
    }
    if context.tells() {
        stderrln!(
            "wrote {}: a new {} set with placeholder cards; `blades build` builds it",
            path.display(),
            kind.words()
        );
    }
    ExitCode::from(exit::OK)
}

/// `sunset-gulch` → `Sunset Gulch`.
fn words_of(id: &str) -> String {
    id.split('-')
        .map(|word| {
            let mut chars = word.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<String>>()
        .join(" ")
}
