//! What people expect of a command-line tool: completions for their shell,
//! a manual page, `--color` and `--quiet`.

mod common;

use common::{blades, root};

const SUBCOMMANDS: [&str; 11] = [
    "build",
    "schema",
    "deck",
    "collection",
    "trade",
    "copies",
    "i18n",
    "card",
    "effect",
    "fmt",
    "serve",
];

#[test]
fn completions_for_every_shell_know_every_command() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let run = blades(root(), &["completions", shell]);
        assert_eq!(run.code, 0, "{shell}: {}", run.stderr);
        for command in SUBCOMMANDS {
            assert!(run.stdout.contains(command), "{shell} misses {command}");
        }
    }
    let unknown = blades(root(), &["completions", "tcsh"]);
    assert_eq!(unknown.code, 2);
}

#[test]
fn the_manual_page_is_roff_and_names_every_command() {
    let run = blades(root(), &["man"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains(".TH blades 1"), "{}", run.stdout);
    for command in SUBCOMMANDS {
        assert!(run.stdout.contains(command), "the page misses {command}");
    }
}

#[test]
fn color_is_chosen_by_the_flag_on_a_pipe() {
    let args = |color: &'static str| ["--color", color, "effect", "check", "Play: Gian 2 RP."];
    let always = blades(root(), &args("always"));
    assert_eq!(always.code, 1);
    assert!(always.stderr.contains("\u{1b}["), "{}", always.stderr);
    // Standard error is a pipe here: `auto` is plain, like `never`.
    for plain in ["never", "auto"] {
        let run = blades(root(), &args(plain));
        assert_eq!(run.code, 1);
        assert!(!run.stderr.contains('\u{1b}'), "{plain}: {}", run.stderr);
    }
}

#[test]
fn frames_are_plain_ascii_off_a_terminal() {
    let args = |color: &'static str| ["--color", color, "effect", "check", "Play: Gian 2 RP."];
    // Standard error is a pipe here: a log or CI console gets ASCII frames.
    for plain in ["never", "auto"] {
        let run = blades(root(), &args(plain));
        assert!(
            run.stderr.contains(",-[<effect>:1:7]"),
            "{plain}: {}",
            run.stderr
        );
        assert!(run.stderr.is_ascii(), "{plain}: {}", run.stderr);
    }
    // Forced colour is for a terminal that is not detected: its frames too.
    let always = blades(root(), &args("always"));
    assert!(always.stderr.contains('╭'), "{}", always.stderr);
}

#[test]
fn quiet_keeps_results_and_problems_and_drops_what_was_done() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cards.json").display().to_string();
    let told = blades(dir.path(), &["build", "--out", &out]);
    assert_eq!(told.code, 0);
    assert!(
        told.stderr.starts_with("pool: the built-in pool\nbuilt "),
        "{}",
        told.stderr
    );
    let quiet = blades(dir.path(), &["-q", "build", "--out", &out]);
    assert_eq!((quiet.code, quiet.stderr.as_str()), (0, ""));
    // Problems are still reported.
    let problem = blades(root(), &["--quiet", "effect", "check", "Play: Gian 2 RP."]);
    assert_eq!(problem.code, 1);
    assert!(
        problem.stderr.contains("effect-syntax"),
        "{}",
        problem.stderr
    );
}

/// Columns count characters in every output: a finding after Japanese
/// text on its line has the same column in the human header, in JSON and
/// in SARIF (where `columnKind` says so).
#[test]
fn columns_count_characters_in_every_output() {
    let dir = tempfile::tempdir().unwrap();
    common::copy_dir(&root().join("cards"), &dir.path().join("pool"));
    let set = dir.path().join("pool/cogwork-foundry.yaml");
    let text = std::fs::read_to_string(&set).unwrap();
    // `fyre` starts at character 21 of its line, byte 23.
    let text = text.replacen(
        "    elements: [fire]\n",
        "    elements: [\"火\", fyre]\n",
        1,
    );
    std::fs::write(&set, text).unwrap();
    let args = |format: &'static str| {
        [
            "--cards", "pool", "--format", format, "build", "--out", "db.json",
        ]
    };
    let human = blades(dir.path(), &args("human"));
    assert!(
        human.stderr.contains("pool/cogwork-foundry.yaml:11:21]"),
        "{}",
        human.stderr
    );
    let json = blades(dir.path(), &args("json")).json();
    let fyre = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["message"].as_str().unwrap_or_default().contains("fyre"))
        .expect("a finding for `fyre`")
        .clone();
    assert_eq!(
        (fyre["line"].as_u64(), fyre["column"].as_u64()),
        (Some(11), Some(21))
    );
    assert_eq!(fyre["end-column"].as_u64(), Some(25));
    let sarif = blades(dir.path(), &args("sarif")).json();
    let run = &sarif["runs"][0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let regions: Vec<_> = run["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| {
            r["message"]["text"]
                .as_str()
                .unwrap_or_default()
                .contains("fyre")
        })
        .map(|r| r["locations"][0]["physicalLocation"]["region"].clone())
        .collect();
    assert_eq!(regions.len(), 1);
    assert_eq!(
        (
            regions[0]["startLine"].as_u64(),
            regions[0]["startColumn"].as_u64()
        ),
        (Some(11), Some(21))
    );
}

/// The browser checks find the binary where cargo put it: under
/// `CARGO_TARGET_DIR` when it is set (CI sets it), never a fixed `target/`.
#[test]
fn the_browser_checks_honour_cargo_target_dir() {
    let browser = root().join("tests/browser");
    for script in ["check.py", "gallery.py", "sheets.py"] {
        let text = std::fs::read_to_string(browser.join(script)).unwrap();
        assert!(
            !text.contains("\"target/"),
            "{script} names a fixed target folder"
        );
    }
    let asked = |target: Option<&str>| {
        let mut python = std::process::Command::new("python3");
        python
            .args(["-c", "import chromium; print(chromium.target_dir())"])
            .current_dir(&browser)
            .env_remove("CARGO_TARGET_DIR");
        if let Some(target) = target {
            python.env("CARGO_TARGET_DIR", target);
        }
        let out = python.output().expect("python3 runs");
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    assert_eq!(asked(Some("/elsewhere/build")), "/elsewhere/build");
    assert_eq!(asked(None), root().join("target").display().to_string());
}

/// The rules the README points to are in the repository, each with the
/// rulebook place it comes from, and every finding they name is one the
/// tool can report.
#[test]
fn the_rules_are_in_docs_each_with_its_rulebook_section() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(readme.contains("(docs/rules.md)"));
    let rules = std::fs::read_to_string(root().join("docs/rules.md")).unwrap();
    let mut sources = String::new();
    for dir in ["src", "src/rules", "src/compile"] {
        for entry in std::fs::read_dir(root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rs") {
                sources.push_str(&std::fs::read_to_string(path).unwrap());
            }
        }
    }
    let rows: Vec<&str> = rules
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| rule |"))
        .collect();
    assert!(rows.len() > 20, "{} rules", rows.len());
    for row in rows {
        let cells: Vec<&str> = row.split(" | ").collect();
        assert_eq!(cells.len(), 3, "{row}");
        assert!(!cells[1].trim().is_empty(), "no rulebook place: {row}");
        for code in cells[2].split('`').skip(1).step_by(2) {
            let code = code.split_whitespace().next().unwrap_or(code);
            if code.contains('-') && !code.starts_with("--") && !code.contains('/') {
                assert!(
                    sources.contains(&format!("\"{code}\"")),
                    "`{code}` is no finding: {row}"
                );
            }
        }
    }
}
