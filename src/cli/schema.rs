//! `blades schema`: print a JSON Schema, or rewrite the checked-in ones.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use blades::diagnostics::{Code, Diagnostic};
use blades::files::FileSet;
use blades::schema::SchemaName;

use super::out::{stderrln, stdout};
use super::{Context, exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which schema (default: `set` to print, every schema with `--write`).
    #[arg(value_parser = schema_names())]
    which: Option<String>,
    /// Write the schema (or every schema) into this folder instead of printing it.
    #[arg(long, value_name = "DIR")]
    write: Option<PathBuf>,
}

/// The library's list of schemas, as the values clap accepts.
fn schema_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(SchemaName::ALL.map(SchemaName::name))
}

pub fn run(context: &Context, args: Args) -> ExitCode {
    // clap accepts only the names of SchemaName::ALL.
    let named = match args.which.as_deref().map(SchemaName::from_name) {
        Some(None) => {
            return context.refuse(
                Diagnostic::general(
                    Code::Usage,
                    format!("no schema is called `{}`", args.which.unwrap_or_default()),
                )
                .with_help("`blades schema --help` lists the schemas"),
            );
        }
        Some(Some(name)) => Some(name),
        None => None,
    };
    if let Some(dir) = args.write {
        let names: Vec<SchemaName> = match named {
            Some(name) => vec![name],
            None => SchemaName::ALL.to_vec(),
        };
        return write(context, &dir, &names);
    }
    let name = named.unwrap_or(SchemaName::Set);
    stdout!("{}", name.generate_text());
    ExitCode::from(exit::OK)
}

/// Writes the schemas named into `dir`: every one or none.
fn write(context: &Context, dir: &Path, names: &[SchemaName]) -> ExitCode {
    let mut set = FileSet::new();
    let written = names
        .iter()
        .try_for_each(|name| set.stage(dir.join(name.file_name()), name.generate_text().as_bytes()))
        .and_then(|()| set.commit());
    if let Err(e) = written {
        return context.refuse(
            Diagnostic::general(Code::CannotWrite, e.to_string())
                .with_help("nothing was written: check that the folder can be written"),
        );
    }
    if context.tells() {
        let what = match names {
            [one] => one.file_name(),
            _ => format!("{} schemas", names.len()),
        };
        stderrln!("wrote {what} into {}", dir.display());
    }
    ExitCode::from(exit::OK)
}
