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
    #[arg(default_value = "set", value_parser = schema_names())]
    which: String,
    /// Write every schema into this folder instead of printing one.
    #[arg(long, value_name = "DIR")]
    write: Option<PathBuf>,
}

/// The library's list of schemas, as the values clap accepts.
fn schema_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(SchemaName::ALL.map(SchemaName::name))
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
    // clap accepts only the names of SchemaName::ALL.
    let Some(name) = SchemaName::from_name(&args.which) else {
        stderrln!("error: no schema is called `{}`", args.which);
        return ExitCode::from(exit::CANNOT_RUN);
    };
    stdout!("{}", name.generate_text());
    ExitCode::from(exit::OK)
}
