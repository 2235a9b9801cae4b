//! The parse floor for `bench/compare.sh`: read every YAML file under a
//! folder and run the same YAML parser `blades build` uses over it, on all
//! cores like the build; no schema, no checks, nothing kept.
//!
//! By default the parser's events only (saphyr-parser, a lower bound no YAML
//! load reaches); with `--tree`, each file parsed into the spanned document
//! tree `blades::yaml::parse` builds from those events, which is what the
//! build (and any YAML load) starts from.
//! `cargo run --release --example yaml_floor -- DIR [--tree]`

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use saphyr_parser::Parser;

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml") {
            out.push(path);
        }
    }
}

fn main() {
    // Words as the system gives them: a folder name need not be UTF-8.
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let tree = args.iter().any(|a| a == "--tree");
    let Some(dir) = args
        .iter()
        .find(|a| !a.as_encoded_bytes().starts_with(b"--"))
    else {
        eprintln!("usage: yaml_floor DIR [--tree]");
        std::process::exit(2);
    };
    let mut files = Vec::new();
    collect(Path::new(&dir), &mut files);
    let events: usize = files
        .par_iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            if tree {
                return usize::from(blades::yaml::parse(&text).is_ok());
            }
            Parser::new_from_str(&text)
                .take_while(Result::is_ok)
                .count()
        })
        .sum();
    let what = if tree { "documents" } else { "events" };
    println!("{} files, {events} {what}", files.len());
}
