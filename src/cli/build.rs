//! `blades build`: compile the pool into `dist/cards.json`.

use std::path::PathBuf;
use std::process::ExitCode;

use blades::compile::compile;
use blades::output::{self, Format};

use super::{Context, exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where to write the database.
    #[arg(long, short, value_name = "FILE", default_value = "dist/cards.json")]
    out: PathBuf,
}

pub fn run(context: &Context, args: Args) -> ExitCode {
    let pool = match context.pool() {
        Ok(pool) => pool,
        Err(code) => return code,
    };
    let compiled = compile(&pool);
    context.report(&compiled.diagnostics, &compiled.sources);
    let Some(database) = compiled.database else {
        return ExitCode::from(exit::PROBLEMS);
    };
    let mut json = match serde_json::to_vec_pretty(&database) {
        Ok(json) => json,
        Err(e) => {
            eprintln!("error: cannot serialise the database: {e}");
            return ExitCode::from(exit::CANNOT_RUN);
        }
    };
    json.push(b'\n');
    if let Err(e) = output::write_atomic(&args.out, &json) {
        eprintln!("error: cannot write `{}`: {e}", args.out.display());
        return ExitCode::from(exit::CANNOT_RUN);
    }
    if context.format == Format::Human {
        eprintln!(
            "built {} sets, {} cards into {}",
            database.sets.len(),
            database.cards.len(),
            args.out.display()
        );
    }
    ExitCode::from(exit::OK)
}
