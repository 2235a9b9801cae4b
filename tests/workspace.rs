//! Every command gets a pool's vocabulary and database from one library
//! entry point (`blades::workspace`): the effect commands agree with the
//! build on a pool's own keywords and phrase books, and the commands that
//! read the database after a build answer as they would from scratch, the
//! pool edited or not.

mod common;

use std::path::Path;

use common::{Run, blades, copy_dir, root};

fn own_words() -> String {
    root()
        .join("tests/fixtures/workspace/own-words")
        .display()
        .to_string()
}

#[test]
fn effect_check_and_render_agree_with_the_build_on_a_pools_own_keywords() {
    let pool = own_words();
    let here = root();
    // The pool's keyword table adds to the built-in one, for every command.
    let own = blades(here, &["--cards", &pool, "effect", "check", "Gear Up."]);
    assert_eq!(
        (own.code, own.stdout.as_str()),
        (0, "Gear Up.\n"),
        "{}",
        own.stderr
    );
    let builtin = blades(here, &["--cards", &pool, "effect", "check", "Scurry."]);
    assert_eq!(
        (builtin.code, builtin.stdout.as_str()),
        (0, "Scurry.\n"),
        "{}",
        builtin.stderr
    );
    let rendered = blades(
        here,
        &[
            "--cards", &pool, "effect", "render", "--lang", "ja", "Gear Up.",
        ],
    );
    assert_eq!(rendered.stdout, "ギアアップ（プレイ：2RPを得る。）\n");
    // The build accepts the same keyword and prints it the same way.
    let dir = tempfile::tempdir().unwrap();
    let database = built(dir.path(), &pool);
    assert_eq!(
        effect_text(&database, "g1", "ja"),
        "ギアアップ（プレイ：2RPを得る。）"
    );
}

#[test]
fn effect_render_prints_with_the_pools_own_phrase_book_as_the_build_does() {
    let pool = own_words();
    let effect = "Action: Flip this card. Gain 1 RP.";
    let rendered = blades(root(), &["--cards", &pool, "effect", "render", effect]);
    assert_eq!(rendered.code, 0, "{}", rendered.stderr);
    assert_eq!(rendered.stdout, "Action: Turn over this card. Gain 1 RP.\n");
    let dir = tempfile::tempdir().unwrap();
    let database = built(dir.path(), &pool);
    assert_eq!(
        format!("{}\n", effect_text(&database, "g2", "en")),
        rendered.stdout
    );
}

#[test]
fn a_broken_keyword_table_is_named_before_any_effect_is_checked_against_it() {
    let dir = tempfile::tempdir().unwrap();
    let pool = dir.path().join("pool");
    copy_dir(Path::new(&own_words()), &pool);
    std::fs::write(pool.join("keywords.yaml"), "keywords: [1, 2]\n").unwrap();
    let run = blades(
        dir.path(),
        &["--cards", "pool", "effect", "check", "Gear Up."],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("keywords.yaml"), "{}", run.stderr);
}

/// Builds `pool` into `dir/out.json` and reads the database back.
fn built(dir: &Path, pool: &str) -> serde_json::Value {
    let out = dir.join("out.json");
    let run = blades(
        dir,
        &[
            "--cards",
            pool,
            "build",
            "--out",
            &out.display().to_string(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap()
}

fn effect_text<'a>(database: &'a serde_json::Value, card: &str, lang: &str) -> &'a str {
    let card = database["cards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == card)
        .unwrap();
    card["effect-text"][lang].as_str().unwrap()
}

/// The same command in a folder where the pool was built (its database and
/// cache in `dist/`) and in one where it never was.
fn after_a_build_and_from_scratch(built: &Path, fresh: &Path, args: &[&str]) -> (Run, Run) {
    (blades(built, args), blades(fresh, args))
}

#[test]
fn questions_after_a_build_are_answered_as_from_scratch_and_follow_edits() {
    let built = tempfile::tempdir().unwrap();
    let fresh = tempfile::tempdir().unwrap();
    let pool = built.path().join("pool");
    copy_dir(&root().join("cards"), &pool);
    let pool_arg = pool.display().to_string();
    let build = blades(built.path(), &["--cards", &pool_arg, "build"]);
    assert_eq!(build.code, 0, "{}", build.stderr);
    assert!(built.path().join("dist/.blades-cache").exists());
    let deck = root().join("tests/fixtures/rules/deck/legal.yaml");
    let deck = deck.display().to_string();
    let commands: [&[&str]; 3] = [
        &[
            "--cards",
            &pool_arg,
            "card",
            "show",
            "Tumbleweed Jackrabbit",
        ],
        &[
            "--cards", &pool_arg, "--format", "json", "deck", "check", &deck,
        ],
        &["--cards", &pool_arg, "copies", "list"],
    ];
    for args in commands {
        let (cached, scratch) = after_a_build_and_from_scratch(built.path(), fresh.path(), args);
        assert_eq!(cached.code, scratch.code, "{args:?}: {}", cached.stderr);
        assert_eq!(cached.stdout, scratch.stdout, "{args:?}");
        assert_eq!(cached.stderr, scratch.stderr, "{args:?}");
    }
    // An edit after the build is seen at once.
    let set = pool.join("sunset-gulch.yaml");
    let text = std::fs::read_to_string(&set).unwrap();
    std::fs::write(
        &set,
        text.replace("Tumbleweed Jackrabbit", "Tumbleweed Hare"),
    )
    .unwrap();
    let show = |name: &str| blades(built.path(), &["--cards", &pool_arg, "card", "show", name]);
    assert_eq!(show("Tumbleweed Hare").code, 0);
    assert_ne!(show("Tumbleweed Jackrabbit").code, 0);
    // And so is an error: nothing is answered from the last good build.
    std::fs::write(&set, text.replace("stars: ", "stars: x")).unwrap();
    let broken = show("Dustdevil Roadrunner");
    assert_eq!(broken.code, 2, "{}", broken.stderr);
    assert!(
        broken.stderr.contains("sunset-gulch.yaml"),
        "{}",
        broken.stderr
    );
}
