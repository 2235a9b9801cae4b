//! The parse floor for `bench/compare.sh`: read every YAML file under a
//! folder and run the same YAML parser `blades build` uses over it (events
//! only: no tree, no schema, no checks), on all cores like the build.
//! `cargo run --release --example yaml_floor -- DIR`

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
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: yaml_floor DIR");
        std::process::exit(2);
    };
    let mut files = Vec::new();
    collect(Path::new(&dir), &mut files);
    let events: usize = files
        .par_iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            Parser::new_from_str(&text)
                .take_while(Result::is_ok)
                .count()
        })
        .sum();
    println!("{} files, {events} events", files.len());
}
