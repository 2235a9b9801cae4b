//! The `blades` command line: a thin layer over the `blades` library.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
