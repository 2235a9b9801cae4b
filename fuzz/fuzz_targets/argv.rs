#![no_main]

// The command line, at the crate root where its print macros expect it.
#[path = "../../src/cli/mod.rs"]
#[allow(dead_code)]
mod cli;

#[path = "../argv.rs"]
mod argv;

libfuzzer_sys::fuzz_target!(|data: &[u8]| argv::argv(data));
