//! `blades lsp`: the editor server on standard input and output (the
//! server itself is [`blades::lsp`]; see docs/editors.md).

use std::io;
use std::process::ExitCode;

use blades::lsp::{Ending, serve};

use super::exit;
use super::out::stderrln;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Talk over standard input and output (the only way; accepted because editors pass it).
    #[arg(long)]
    stdio: bool,
}

/// Serves until the client says `exit`: 0 after `shutdown`, 1 without it
/// (as the protocol asks), 2 when the client's end of the streams broke.
pub fn run(_args: Args) -> ExitCode {
    let stdout = io::stdout();
    match serve(io::BufReader::new(io::stdin()), &mut stdout.lock()) {
        Ok(Ending::Clean) => ExitCode::from(exit::OK),
        Ok(Ending::Abrupt) => ExitCode::from(exit::PROBLEMS),
        Err(e) => {
            stderrln!("error: the editor's connection broke: {e}");
            ExitCode::from(exit::CANNOT_RUN)
        }
    }
}
