//! The `blades` command line: a thin layer over the `blades` library.

mod cli;

// Building a large pool allocates millions of small strings and nodes from
// two threads; mimalloc does that markedly faster than the system malloc
// (see docs/decisions.md, "Whole-build speed").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::run()
}
