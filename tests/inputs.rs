//! Every input can be `-` (standard input), read once.

mod common;

use common::{blades, blades_with_stdin, copy_dir, root};

#[test]
fn an_effect_comes_from_the_command_line_a_file_or_standard_input() {
    let from_stdin = blades_with_stdin(
        root(),
        &["effect", "check", "-"],
        Some("play: gain 2 rp.\n"),
    );
    assert_eq!(
        (from_stdin.code, from_stdin.stdout.as_str()),
        (0, "Play: Gain 2 RP.\n")
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("effect.txt");
    std::fs::write(&file, "Play: Gian 2 RP.\r\n").unwrap();
    let file = file.display().to_string();
    let from_file = blades(root(), &["effect", "check", "--file", &file]);
    assert_eq!(from_file.code, 1);
    assert!(
        from_file.stderr.contains("effect.txt:1:7"),
        "{}",
        from_file.stderr
    );
    let rendered = blades_with_stdin(
        root(),
        &["effect", "render", "--lang", "ja", "-f", "-"],
        Some("Flip: Gain 2 RP."),
    );
    assert_eq!(rendered.stdout, "リバース：2RPを得る。\n");
}

#[test]
fn standard_input_named_twice_is_refused() {
    let run = blades_with_stdin(root(), &["deck", "check", "-", "-"], Some("cards: []\n"));
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("only once"), "{}", run.stderr);
}

#[test]
fn a_po_file_can_be_imported_from_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("cards"), &dir.path().join("pool"));
    let export = blades(
        dir.path(),
        &["--cards", "pool", "i18n", "export", "--lang", "ja"],
    );
    assert_eq!(export.code, 0, "{}", export.stderr);
    let import = blades_with_stdin(
        dir.path(),
        &["--cards", "pool", "i18n", "import", "-"],
        Some(&export.stdout),
    );
    assert_eq!(import.code, 0, "{}", import.stderr);
    assert!(
        import.stderr.contains("imported - (ja)"),
        "{}",
        import.stderr
    );
}
