//! The card index (`dist/.blades-index`) answers exactly as a build would:
//! every read-only command-line case (`tests/cmd`), and searches and card
//! lookups on each case's pool, give the same output, byte for byte, with
//! the index, without it, and with a damaged one.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use blades::model::Database;
use blades::workspace::{BuildSettings, Builder, Workspace};
use common::{Run, blades_with_stdin, root};

/// Commands that only read the pool (and their inputs).
const READ_ONLY: &[&str] = &["deck", "collection", "trade", "copies", "score", "card"];

/// One command-line case: its arguments and standard input.
struct Case {
    name: String,
    args: Vec<String>,
    stdin: Option<String>,
}

/// The read-only cases of `tests/cmd`, by the pool they name (`cards`, the
/// checkout's own, when they name none).
fn cases_by_pool() -> BTreeMap<String, Vec<Case>> {
    let mut pools: BTreeMap<String, Vec<Case>> = BTreeMap::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/cmd"))
        .unwrap()
        .flat_map(|dir| std::fs::read_dir(dir.unwrap().path()).unwrap())
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        // `args` and `stdin` are one line each, in TOML's JSON-like syntax.
        let value = |key: &str| {
            (text.lines())
                .find_map(|line| line.strip_prefix(key)?.trim_start().strip_prefix('='))
                .map(|json| serde_json::from_str::<serde_json::Value>(json.trim()).unwrap())
        };
        let Some(args) = value("args") else { continue };
        let args: Vec<String> = serde_json::from_value(args).unwrap();
        if !READ_ONLY.contains(&subcommand(&args)) {
            continue;
        }
        let pool = (args.iter().position(|a| a == "--cards"))
            .map_or_else(|| "cards".to_string(), |at| args[at + 1].clone());
        let stdin = value("stdin").map(|v| v.as_str().unwrap().to_string());
        let name = file.strip_prefix(root()).unwrap().display().to_string();
        pools
            .entry(pool)
            .or_default()
            .push(Case { name, args, stdin });
    }
    pools
}

/// The command of a case's arguments, past the global options.
fn subcommand(args: &[String]) -> &str {
    let mut at = 0;
    while at < args.len() && args[at].starts_with('-') {
        at += match args[at].as_str() {
            "--cards" | "--format" => 2,
            _ => 1,
        };
    }
    args.get(at).map_or("", String::as_str)
}

/// A folder to run cases in: the checkout's `tests` and `cards` linked
/// into it, so a case's paths mean what they mean at the root, while its
/// `dist/` (where the index goes) is its own.
fn workdir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["tests", "cards"] {
        std::os::unix::fs::symlink(root().join(name), dir.path().join(name)).unwrap();
    }
    dir
}

fn run(dir: &Path, args: &[String], stdin: Option<&str>) -> Run {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    blades_with_stdin(dir, &args, stdin)
}

fn shown(run: &Run) -> String {
    format!(
        "exit {}\n--- stdout\n{}--- stderr\n{}",
        run.code, run.stdout, run.stderr
    )
}

/// Searches and lookups asked of every pool beside its cases.
fn questions(pool: &str) -> Vec<Vec<String>> {
    let asked: &[&[&str]] = &[
        &["search", "--ids", "star>=3"],
        &["search", "kind:single"],
        &["--format", "json", "search", "e"],
        &["search", "--explain", "element:fire or type:animal"],
        // Queries that read the cards' texts (the index is read again whole),
        // and a bare word looked up among the keywords the effects use.
        &["search", "text:gain or flavor:a or is:stale"],
        &["search", "scurry"],
        // Queries the index answers keeping only the cards found (by the
        // sets alone), one that finds none, the Japanese table, and a
        // language the pool may not have (checked against every card).
        &["search", "copies>=2 or not kind:single"],
        &["search", "--ids", "star>=99"],
        &["search", "--lang", "JA", "star>=2"],
        &["search", "--lang", "fr", "star>=2"],
        &["card", "show", "a"],
    ];
    let mut questions: Vec<Vec<String>> = (asked.iter())
        .map(|args| {
            let mut all = vec!["--cards".to_string(), pool.to_string()];
            all.extend(args.iter().map(|a| a.to_string()));
            all
        })
        .collect();
    // The database the build wrote, searched through its index.
    for query in ["star>=3", "e", "kind:single star<=2"] {
        questions.push(
            ["search", "--db", "dist/cards.json", query]
                .map(String::from)
                .to_vec(),
        );
    }
    questions
}

/// Flips one byte of an index's last set's section, just before its head
/// (the index ends with the head, its length and its checksum).
fn damage(path: &Path) {
    let mut bytes = std::fs::read(path).unwrap();
    let trailer = bytes.len() - 16;
    let head_len = u64::from_le_bytes(bytes[trailer..trailer + 8].try_into().unwrap());
    let at = trailer - head_len as usize - 20;
    bytes[at] ^= 0x55;
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn every_read_only_case_answers_alike_with_without_and_with_a_damaged_index() {
    let mut indexed = 0;
    for (pool, cases) in cases_by_pool() {
        let dir = workdir();
        let built = blades_with_stdin(dir.path(), &["--cards", &pool, "-q", "build"], None);
        let index = dir.path().join("dist/.blades-index");
        if built.code == 0 {
            assert!(
                index.is_file(),
                "{pool}: a build that succeeds writes the index"
            );
            indexed += 1;
        }
        let mut asked: Vec<(String, Vec<String>, Option<String>)> = (cases.into_iter())
            .map(|c| (c.name, c.args, c.stdin))
            .collect();
        asked.extend(
            questions(&pool)
                .into_iter()
                .map(|args| (args.join(" "), args, None)),
        );
        let answers = |dir: &Path| -> Vec<String> {
            (asked.iter())
                .map(|(_, args, stdin)| shown(&run(dir, args, stdin.as_deref())))
                .collect()
        };
        let with_index = answers(dir.path());
        let damaged = match index.is_file() {
            true => {
                damage(&index);
                Some(answers(dir.path()))
            }
            false => None,
        };
        let _ = std::fs::remove_file(&index);
        let without = answers(dir.path());
        for (i, (name, _, _)) in asked.iter().enumerate() {
            assert_eq!(
                with_index[i], without[i],
                "{name} on {pool}: with the index (left), without (right)"
            );
            if let Some(damaged) = &damaged {
                assert_eq!(
                    damaged[i], without[i],
                    "{name} on {pool}: with a damaged index (left), without (right)"
                );
            }
        }
    }
    assert!(indexed >= 3, "the cases' pools build and are indexed");
}

/// A copy of a fixture pool, built into `dist/` beside it.
fn built_copy(pool: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let cards = dir.path().join("cards");
    common::copy_dir(&root().join(pool), &cards);
    let out = dir.path().join("dist/cards.json");
    let mut builder = Builder::new(BuildSettings {
        cards: Some(cards.clone()),
        out: out.clone(),
        ..BuildSettings::default()
    });
    let pool = builder.read(builder.list()).unwrap();
    let build = builder.build(&pool, None);
    assert!(build.wrote_database());
    (dir, cards, out)
}

/// A set file of a pool folder.
fn first_set_file(cards: &Path) -> PathBuf {
    let mut files: Vec<PathBuf> = std::fs::read_dir(cards)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files.remove(0)
}

/// The database as a build without cache or index makes it, effect trees
/// aside (a database read back has none).
fn built_afresh(cards: &Path) -> Database {
    let workspace = Workspace::open_uncached(Some(cards)).unwrap();
    let mut database = workspace.database().unwrap();
    for card in &mut database.cards {
        card.effect_tree = None;
    }
    database
}

#[test]
fn the_index_answers_for_the_pool_it_was_built_from_and_nothing_else() {
    let (_dir, cards, out) = built_copy("tests/fixtures/rules/pool");
    let open = || Workspace::open_beside(Some(&cards), &out).unwrap();
    let expected = built_afresh(&cards);

    let workspace = open();
    assert!(
        workspace.has_index(),
        "an unchanged pool is answered by the index"
    );
    let by_database = blades::index::Index::of_database(&out).expect("the index of that file");
    assert_eq!(by_database.database().unwrap(), expected);
    assert_eq!(workspace.database().unwrap(), expected);

    // The same text written again: a new stamp, the same content.
    let set = first_set_file(&cards);
    let text = std::fs::read_to_string(&set).unwrap();
    std::fs::write(&set, &text).unwrap();
    assert!(open().has_index(), "content, not stamps, decides");

    // Changed: the index is not used, the answer is the build's.
    std::fs::write(&set, text.replace("name: ", "name: X")).unwrap();
    let changed = open();
    assert!(!changed.has_index());
    std::fs::write(&set, &text).unwrap();

    // A new file in the pool: not the pool the index describes.
    std::fs::write(cards.join("extra.yaml"), "id: extra\n").unwrap();
    assert!(!open().has_index());
    std::fs::remove_file(cards.join("extra.yaml")).unwrap();
    assert!(open().has_index());

    // A damaged section: the head still opens, the database is built.
    let index = out.parent().unwrap().join(".blades-index");
    damage(&index);
    assert_eq!(open().database().unwrap(), expected);

    // Cut short, or from another tool: not opened at all.
    let bytes = std::fs::read(&index).unwrap();
    std::fs::write(&index, &bytes[..bytes.len() / 3]).unwrap();
    assert!(!open().has_index());
    std::fs::write(&index, b"blades-index 999\n").unwrap();
    assert!(!open().has_index());
    assert_eq!(open().database().unwrap(), expected);
}

/// Builds the pool at `cards` into `out` again, with its cache.
fn build_again(cards: &Path, out: &Path) {
    let mut builder = Builder::new(BuildSettings {
        cards: Some(cards.to_path_buf()),
        out: out.to_path_buf(),
        ..BuildSettings::default()
    });
    let pool = builder.read(builder.list()).unwrap();
    assert!(builder.build(&pool, None).wrote_database());
}

#[test]
fn a_build_after_an_edit_writes_an_index_that_answers_as_a_fresh_build() {
    let (_dir, cards, out) = built_copy("tests/fixtures/rules/pool");
    let set = first_set_file(&cards);
    let text = std::fs::read_to_string(&set).unwrap();
    std::fs::write(&set, text.replacen("name: ", "name: Renamed ", 1)).unwrap();
    build_again(&cards, &out);
    let workspace = Workspace::open_beside(Some(&cards), &out).unwrap();
    assert!(workspace.has_index());
    assert_eq!(workspace.database().unwrap(), built_afresh(&cards));
}

#[cfg(unix)]
fn inode(path: &Path) -> u64 {
    std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(path).unwrap())
}

/// Edits append the changed set's section and a new head to the index,
/// which answers as a fresh build after each; once most of it is out of
/// date it is written anew, so it never grows past twice what it holds.
/// An append cut short leaves an index nobody trusts, and the next build
/// writes it whole.
#[cfg(unix)]
#[test]
fn edits_append_to_the_index_until_most_of_it_is_out_of_date() {
    let (_dir, cards, out) = built_copy("tests/fixtures/rules/pool");
    let index = out.parent().unwrap().join(".blades-index");
    let fresh_len = std::fs::metadata(&index).unwrap().len();
    let set = first_set_file(&cards);
    let text = std::fs::read_to_string(&set).unwrap();
    let (mut appended, mut rewritten) = (0, 0);
    for edit in 1..=12 {
        let (before_len, before_inode) = (std::fs::metadata(&index).unwrap().len(), inode(&index));
        // A card renamed (not the set: a set's name is in every set's
        // effect vocabulary, so every set would be made anew).
        let renamed = text.replacen("    name: ", &format!("    name: Edit{edit} "), 1);
        std::fs::write(&set, renamed).unwrap();
        build_again(&cards, &out);
        let len = std::fs::metadata(&index).unwrap().len();
        match inode(&index) == before_inode {
            true => {
                assert!(len > before_len, "edit {edit}: appended");
                appended += 1;
            }
            false => rewritten += 1,
        }
        assert!(
            len < 3 * fresh_len,
            "edit {edit}: {len} bytes, fresh {fresh_len}"
        );
        let workspace = Workspace::open_beside(Some(&cards), &out).unwrap();
        assert!(workspace.has_index(), "edit {edit}");
        assert_eq!(
            workspace.database().unwrap(),
            built_afresh(&cards),
            "edit {edit}"
        );
    }
    assert!(
        appended > 0 && rewritten > 0,
        "{appended} appended, {rewritten} rewritten"
    );

    // An append cut short: the trailer is gone, the index is not opened.
    std::fs::write(&set, text.replacen("    name: ", "    name: Torn ", 1)).unwrap();
    build_again(&cards, &out);
    let bytes = std::fs::read(&index).unwrap();
    std::fs::write(&index, &bytes[..bytes.len() - 5]).unwrap();
    let open = || Workspace::open_beside(Some(&cards), &out).unwrap();
    assert!(!open().has_index());
    assert_eq!(open().database().unwrap(), built_afresh(&cards));
    build_again(&cards, &out);
    assert!(open().has_index());
    assert_eq!(open().database().unwrap(), built_afresh(&cards));
}

/// `card show` through the index reads the directories and one section:
/// every id and name of every card, in any case, finds the card and set
/// the database finds, and the languages are the database's.
#[test]
fn a_card_looked_up_in_the_index_is_the_card_the_database_gives() {
    let (_dir, cards, out) = built_copy("cards");
    let workspace = Workspace::open_beside(Some(&cards), &out).unwrap();
    assert!(workspace.has_index());
    let database = built_afresh(&cards);
    let index = blades::index::Index::of_database(&out).expect("the index of that file");
    let mut asked = 0;
    for card in &database.cards {
        let translated = card.translations.values().filter_map(|t| t.name.clone());
        for name in [card.id.0.clone(), card.name.to_uppercase()]
            .into_iter()
            .chain(translated)
        {
            let expected = blades::i18n::find_card(&database, &name).unwrap();
            let lookup = index.lookup(&format!(" {name} ")).expect("an index whole");
            let (found, set) = lookup.found.expect("found");
            assert_eq!(&found, expected, "{name}");
            assert_eq!(Some(&set), blades::compile::find_set(&database, &found.set));
            let named = workspace.card_named(&name).unwrap();
            assert_eq!(named.card.unwrap().0, found);
            assert_eq!(named.languages, blades::i18n::languages(&database));
            asked += 1;
        }
    }
    assert!(
        asked > database.cards.len() * 2,
        "Japanese names were asked"
    );
    let nobody = index.lookup("no such card").unwrap();
    assert!(nobody.found.is_none());
    assert_eq!(
        blades::i18n::languages_of(nobody.languages.iter().map(String::as_str)),
        blades::i18n::languages(&database)
    );
}

/// A player check through the index decodes only the cards its input
/// names: every reference, in each way a deck list writes it, resolves in
/// the cut-down database exactly as in the whole one, and a reference that
/// names nothing sends the check to the whole database (its report
/// suggests names from every card).
#[test]
fn a_check_over_the_named_cards_resolves_as_over_every_card() {
    use blades::cards::{CardIndex, LookupError, Sought};
    for pool in ["cards", "tests/fixtures/rules/pool"] {
        let (_dir, cards, out) = built_copy(pool);
        let workspace = Workspace::open_beside(Some(&cards), &out).unwrap();
        assert!(workspace.has_index(), "{pool}");
        let database = built_afresh(&cards);
        let whole = CardIndex::new(&database);
        let mut references = vec!["no such card".to_string(), "3 no such card".into()];
        for card in &database.cards {
            references.push(card.id.0.clone());
            references.push(format!(" {} ", card.name.to_uppercase()));
            references.push(format!("2 {}", card.name));
            references.push(format!("%{:08x}", blades::cards::id_tag(&card.id.0)));
            let translated = card.translations.values().filter_map(|t| t.name.clone());
            references.extend(translated.map(|name| name.replace("", " ").trim().to_string()));
        }
        let ids = |index: &CardIndex, found: Result<usize, LookupError>| match found {
            Ok(i) => Ok(vec![index.card(i).id.0.clone()]),
            Err(LookupError::Ambiguous { targets }) => Err(targets
                .iter()
                .map(|&i| index.card(i).id.0.clone())
                .collect()),
            Err(LookupError::Unknown { .. }) => Err(Vec::new()),
        };
        for reference in &references {
            let bare = reference.split_once(' ').map(|(_, name)| name.trim());
            let mut sought = Sought::default();
            sought.add(std::iter::once(reference.as_str()).chain(bare));
            let named = workspace.cards_sought(&sought);
            let readings = std::iter::once(reference.as_str()).chain(bare);
            let names_nothing = readings
                .clone()
                .all(|r| matches!(whole.resolve_plain(r), Err(LookupError::Unknown { .. })));
            assert_eq!(named.is_none(), names_nothing, "{pool}: {reference}");
            let Some(named) = named else { continue };
            assert!(named.cards.len() < database.cards.len() || database.cards.len() < 3);
            assert_eq!(named.sets, database.sets);
            let part = CardIndex::new(&named);
            for reading in readings {
                assert_eq!(
                    ids(&part, part.resolve_plain(reading)),
                    ids(&whole, whole.resolve_plain(reading)),
                    "{pool}: {reading}"
                );
            }
        }
    }
}
