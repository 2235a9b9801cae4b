//! `blades schema`: print a JSON Schema, or rewrite the checked-in ones.

use std::path::PathBuf;
use std::process::ExitCode;

use blades::output;
use blades::schema::SchemaName;

use super::out::{stderrln, stdout};
use super::{Context, exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which schema to print.
    #[arg(value_enum, default_value_t = Which::Set)]
    which: Which,
    /// Write every schema into this folder instead of printing one.
    #[arg(long, value_name = "DIR")]
    write: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Which {
    Set,
    Database,
    Deck,
    Collection,
    Binder,
    Trade,
    Copies,
    DeckCheck,
    CollectionCheck,
    CollectionBest,
    TradeCheck,
    CopiesCheck,
    CopiesList,
}

pub fn run(_context: &Context, args: Args) -> ExitCode {
    if let Some(dir) = args.write {
        for name in SchemaName::ALL {
            let path = dir.join(name.file_name());
            if let Err(e) = output::write_atomic(&path, name.generate_text().as_bytes()) {
                stderrln!("error: cannot write `{}`: {e}", path.display());
                return ExitCode::from(exit::CANNOT_RUN);
            }
        }
        return ExitCode::from(exit::OK);
    }
    let name = match args.which {
        Which::Set => SchemaName::Set,
        Which::Database => SchemaName::Database,
        Which::Deck => SchemaName::DeckInput,
        Which::Collection => SchemaName::CollectionInput,
        Which::Binder => SchemaName::BinderInput,
        Which::Trade => SchemaName::TradeInput,
        Which::Copies => SchemaName::CopiesInput,
        Which::DeckCheck => SchemaName::DeckCheck,
        Which::CollectionCheck => SchemaName::CollectionCheck,
        Which::CollectionBest => SchemaName::CollectionBest,
        Which::TradeCheck => SchemaName::TradeCheck,
        Which::CopiesCheck => SchemaName::CopiesCheck,
        Which::CopiesList => SchemaName::CopiesList,
    };
    stdout!("{}", name.generate_text());
    ExitCode::from(exit::OK)
}
