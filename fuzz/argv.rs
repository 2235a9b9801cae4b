//! The `argv` fuzz target's body: a command line of any bytes (its words
//! separated by NUL bytes, as `/proc/PID/cmdline` holds them, and as the
//! fixtures of `tests/fixtures/argv/` are written) through the parser and
//! the usage report, as `blades` reads its own command line.
//!
//! It needs the command line itself (`src/cli`, which is not part of the
//! library), so it is apart from `targets.rs`: the fuzz binary and
//! `tests/fuzz_regressions.rs` both include `src/cli` at their crate root
//! and this file beside it.

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;

/// One command line: parsed, or refused with a report in the format asked
/// for (help and version exit 0, a usage error 2), never a panic.
pub fn argv(data: &[u8]) {
    let mut words: Vec<OsString> = vec!["blades".into()];
    words.extend(
        data.split(|&b| b == 0)
            .map(|word| OsString::from_vec(word.to_vec())),
    );
    let refusal = match crate::cli::parse(&words) {
        Ok(cli) => {
            let _ = format!("{cli:?}");
            return;
        }
        Err(refusal) => refusal,
    };
    match refusal.exit {
        0 => assert!(!refusal.text.is_empty(), "help or version says something"),
        2 => match refusal.stream {
            // Asked for JSON or SARIF: one report, with the usage code.
            crate::cli::Stream::Stdout => {
                let report: serde_json::Value = serde_json::from_str(&refusal.text)
                    .unwrap_or_else(|e| panic!("not JSON ({e}): {}", refusal.text));
                let code = match report.get("runs") {
                    Some(runs) => &runs[0]["results"][0]["ruleId"],
                    None => &report["diagnostics"][0]["code"],
                };
                assert_eq!(code, "usage", "{}", refusal.text);
            }
            crate::cli::Stream::Stderr => {
                assert!(refusal.text.starts_with("error: "), "{}", refusal.text);
            }
        },
        other => panic!("a refused command line exits {other}"),
    }
}
