//! Writes a synthetic card pool: `cargo run --release --example synth -- --cards N --out DIR
//! [--seed S] [--faults K]`. With `--faults K`, K known faults are spread over the files
//! (see `blades::synth::plant_faults`), for testing and benchmarking the error path.
//! Every set gets a Japanese locale file (`locales/ja/<set>.yaml`) unless `--english-only`.

use std::path::PathBuf;
use std::process::ExitCode;

/// A number written as a word (`None` when it is not one, or not UTF-8).
fn number<T: std::str::FromStr>(word: &std::ffi::OsStr) -> Option<T> {
    word.to_str()?.parse().ok()
}

fn main() -> ExitCode {
    let mut cards = 1_000usize;
    let mut out = PathBuf::from("synth-pool");
    let mut seed = 1u64;
    let mut faults = 0usize;
    let mut japanese = true;
    // Words as the system gives them: a folder name need not be UTF-8.
    let mut args = std::env::args_os().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--english-only" {
            japanese = false;
            continue;
        }
        let value = args.next();
        let parsed = match (arg.to_str(), value) {
            (Some("--cards"), Some(v)) => number(&v).map(|v| cards = v).is_some(),
            (Some("--out"), Some(v)) => {
                out = PathBuf::from(v);
                true
            }
            (Some("--seed"), Some(v)) => number(&v).map(|v| seed = v).is_some(),
            (Some("--faults"), Some(v)) => number(&v).map(|v| faults = v).is_some(),
            _ => false,
        };
        if !parsed {
            eprintln!("usage: synth --cards N --out DIR [--seed S] [--faults K] [--english-only]");
            return ExitCode::from(2);
        }
    }
    let mut files = blades::synth::pool_with(cards, seed, japanese);
    let planted = blades::synth::plant_faults(&mut files, faults, seed);
    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("error: cannot create {}: {e}", out.display());
        return ExitCode::from(2);
    }
    for (name, text) in &files {
        let path = out.join(name);
        if let Some(parent) = path.parent()
            && let Err(e) = std::fs::create_dir_all(parent)
        {
            eprintln!("error: cannot create {}: {e}", parent.display());
            return ExitCode::from(2);
        }
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("error: cannot write {name}: {e}");
            return ExitCode::from(2);
        }
    }
    let bytes: usize = files.iter().map(|(_, t)| t.len()).sum();
    eprintln!(
        "wrote {} files, {cards} cards, {:.1} MB, {planted} faults into {}",
        files.len(),
        bytes as f64 / 1e6,
        out.display()
    );
    ExitCode::SUCCESS
}
