//! What reaches a terminal: card names, set names, player names, query
//! text and names typed in a list may hold control characters (an escape
//! sequence clears or retitles the reader's terminal). Every human output
//! shows them as their pictures (`␛`), as the diagnostics' snippets do.
//! The pool and the inputs are `tests/fixtures/terminal/`.

mod common;

use std::path::Path;

use common::{Run, blades, root};

fn fixtures() -> std::path::PathBuf {
    root().join("tests/fixtures/terminal")
}

/// The characters no human output may hold raw: C0 controls but the line
/// end and the tab, DEL, and the C1 controls (U+009B is a one-byte CSI).
fn raw_controls(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| c != '\n' && c != '\t' && c.is_control())
        .collect()
}

fn assert_shown(args: &[&str], run: &Run) {
    for (stream, text) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
        let raw = raw_controls(text);
        assert!(
            raw.is_empty(),
            "`blades {}` sends {raw:?} to {stream}:\n{text}",
            args.join(" ")
        );
    }
}

/// Runs `blades --cards pool ARGS` in the fixture folder, human output.
fn human(dir: &Path, args: &[&str]) -> Run {
    let mut all = vec!["--cards", "pool"];
    all.extend_from_slice(args);
    let run = blades(dir, &all);
    assert_ne!(run.code, 101, "{}", run.stderr);
    assert_shown(&all, &run);
    run
}

#[test]
fn every_human_output_shows_control_characters_as_pictures() {
    let dir = fixtures();
    let temp = tempfile::tempdir().unwrap();
    let db = temp.path().join("cards.json");
    let faces = temp.path().join("faces");
    let (db, faces) = (db.to_str().unwrap(), faces.to_str().unwrap());

    let built = human(&dir, &["build", "--out", db]);
    assert_eq!(built.code, 0, "{}", built.stderr);
    let table = human(&dir, &["search", "e:fire"]);
    assert!(
        table.stdout.contains("Clear ␛[2J␛[HScreen"),
        "{}",
        table.stdout
    );
    assert!(table.stdout.contains("Carriage␍Return"), "{}", table.stdout);
    human(&dir, &["search", "--db", db, "e:fire"]);
    let explained = human(&dir, &["search", "--explain", "name:\"\x1b[2J\""]);
    assert!(explained.stdout.contains("␛[2J"), "{}", explained.stdout);
    human(&dir, &["search", "name:\"\x1b[2J"]);
    human(&dir, &["search", "e:\x1b[2J"]);
    let card = human(&dir, &["card", "show", "clear"]);
    assert!(card.stdout.contains("Ring ␇ ring."), "{}", card.stdout);
    human(&dir, &["card", "show", "csi"]);
    human(&dir, &["card", "show", "no\x1b[2Jsuch"]);
    let deck = human(&dir, &["deck", "check", "deck.txt"]);
    assert!(deck.stderr.contains("Un␛[31mknown"), "{}", deck.stderr);
    human(&dir, &["deck", "check", "legal.txt"]);
    human(&dir, &["deck", "export", "legal.txt"]);
    human(&dir, &["collection", "check", "collection.yaml"]);
    human(&dir, &["collection", "best", "collection.yaml"]);
    human(&dir, &["trade", "check", "trade.yaml"]);
    human(&dir, &["copies", "check", "copies.yaml"]);
    human(&dir, &["copies", "list"]);
    let score = human(&dir, &["score", "score.yaml"]);
    assert!(score.stdout.contains("Ada ␛[2J"), "{}", score.stdout);
    human(&dir, &["diff", "pool", "renamed"]);
    human(&dir, &["diff", "--markdown", "pool", "renamed"]);
    human(&dir, &["i18n", "status"]);
    human(&dir, &["render", "--out", faces]);
}
