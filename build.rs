//! Embeds the built-in card pool (`cards/**/*.yaml`) into the binary, so
//! `blades` works from any folder with no files beside it.

use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=cards");
    let root =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    collect(&root.join("cards"), &mut files);
    files.sort();
    let mut out = String::from(
        "/// Every YAML file of the built-in pool: (path under `cards/`, text).\npub static BUILTIN_FILES: &[(&str, &str)] = &[\n",
    );
    for file in &files {
        let relative = file.strip_prefix(root.join("cards")).expect("under cards/");
        let name = relative.to_string_lossy().replace('\\', "/");
        out.push_str(&format!(
            "    ({name:?}, include_str!({:?})),\n",
            file.display().to_string()
        ));
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("builtin_pool.rs");
    fs::write(dest, out).expect("OUT_DIR is writable");

    // An identity of this build's code, so build caches from another build
    // of the tool are never reused (the version alone does not change
    // between development builds).
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=grammar");
    println!("cargo:rerun-if-changed=Cargo.lock");
    let mut code = Vec::new();
    collect_all(&root.join("src"), &mut code);
    collect_all(&root.join("grammar"), &mut code);
    code.push(root.join("Cargo.lock"));
    code.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for path in code {
        for byte in fs::read(&path).unwrap_or_default() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    println!("cargo:rustc-env=BLADES_BUILD_ID={hash:016x}");
}

fn collect_all(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_all(&path, files);
        } else {
            files.push(path);
        }
    }
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, files);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml")
        ) {
            files.push(path);
        }
    }
}
