//! What people expect of a command-line tool: completions for their shell,
//! a manual page, `--color` and `--quiet`.

mod common;

use common::{blades, root};

const SUBCOMMANDS: [&str; 10] = [
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
