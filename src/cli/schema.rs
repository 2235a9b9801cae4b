//! `blades schema`: print a JSON Schema, or rewrite the checked-in ones.

use std::path::PathBuf;
use std::process::ExitCode;

use blades::files::FileSet;
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
        // Every schema or none.
        let mut set = FileSet::new();
        let written = SchemaName::ALL
            .iter()
            .try_for_each(|name| {
                set.stage(dir.join(name.file_name()), name.generate_text().as_bytes())
            })
            .and_then(|()| set.commit());
        if let Err(e) = written {
            stderrln!("error: {e}");
            return ExitCode::from(exit::CANNOT_RUN);
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
