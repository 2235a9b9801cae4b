//! The sample inputs in `examples/inputs/` (shown in the README) stay legal
//! against the built-in pool.

mod common;

/// `blades ARGS` from the repository root: (exit code, stdout + stderr).
fn check(args: &[&str]) -> (i32, String) {
    let run = common::blades(common::root(), args);
    (run.code, run.stdout + &run.stderr)
}

#[test]
fn readme_inputs_check_against_the_builtin_pool() {
    for args in [
        &[
            "deck",
            "check",
            "examples/inputs/deck.yaml",
            "examples/inputs/deck.txt",
        ][..],
        &["collection", "check", "examples/inputs/collection.yaml"],
        &["collection", "best", "examples/inputs/binder.yaml"],
        &[
            "collection",
            "best",
            "--duel",
            "examples/inputs/binder.yaml",
        ],
        &["trade", "check", "examples/inputs/trade.yaml"],
        &["score", "examples/inputs/score.yaml"],
    ] {
        let (code, output) = check(args);
        assert_eq!(code, 0, "{args:?}: {output}");
    }
    // The copies sample shows a violation on purpose.
    let (code, output) = check(&["copies", "check", "examples/inputs/copies.yaml"]);
    assert_eq!(code, 1, "{output}");
    assert!(output.contains("too-many-copies"), "{output}");
}

#[test]
fn japanese_names_resolve_and_misspellings_suggest_the_card() {
    let dir = tempfile::tempdir().unwrap();
    let deck = dir.path().join("deck.yaml");
    std::fs::write(
        &deck,
        "cards:\n  - リベットグレムリン\n  - リベット・グレムリソ\n",
    )
    .unwrap();
    let (code, output) = check(&["deck", "check", deck.to_str().unwrap()]);
    assert_eq!(code, 2, "{output}");
    assert!(
        output.contains("unknown card `リベット・グレムリソ`"),
        "{output}"
    );
    assert!(output.contains("did you mean `Rivet Gremlin`?"), "{output}");
    assert!(
        !output.contains("`リベットグレムリン`"),
        "the name without the dot resolves: {output}"
    );
}
