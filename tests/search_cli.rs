//! `blades search` through the real binary on the built-in pool: every key
//! and operator both ways (each query finds some cards and leaves out
//! others, exactly those a filter over the built database picks), the
//! Japanese keys and values, the pool and `--db`, the outputs, and every
//! kind of bad query located, with exit 2.

mod common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use common::{blades, root};

/// The built-in pool built once into a temporary folder: (folder, database
/// file, the database as JSON).
fn built() -> &'static (tempfile::TempDir, PathBuf, Value) {
    static BUILT: OnceLock<(tempfile::TempDir, PathBuf, Value)> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("db.json");
        let run = blades(dir.path(), &["build", "-q", "--out", db.to_str().unwrap()]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let json = serde_json::from_str(&std::fs::read_to_string(&db).unwrap()).unwrap();
        (dir, db, json)
    })
}

fn cards() -> &'static [Value] {
    built().2["cards"].as_array().unwrap()
}

/// The ids `blades search --ids QUERY` prints, run in `dir` with `extra`
/// arguments.
fn search_in(dir: &Path, query: &str, extra: &[&str]) -> Vec<String> {
    let mut args = vec!["search", "-q", "--ids"];
    args.extend_from_slice(extra);
    args.push("--");
    args.push(query);
    let run = blades(dir, &args);
    assert_eq!(run.code, 0, "`{query}`: {}", run.stderr);
    assert_eq!(run.stderr, "", "`{query}`");
    run.stdout.lines().map(str::to_string).collect()
}

/// The ids of the built database's cards that `keep` picks.
fn expected(keep: &dyn Fn(&Value) -> bool) -> Vec<String> {
    cards()
        .iter()
        .filter(|c| keep(c))
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect()
}

fn text(card: &Value, key: &str) -> String {
    card[key].as_str().unwrap_or("").to_lowercase()
}

fn list(card: &Value, key: &str) -> Vec<String> {
    card[key]
        .as_array()
        .map(|a| a.iter().map(|v| v.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

fn ja(card: &Value, key: &str) -> String {
    card["translations"]["ja"][key]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// The rendered texts, English and Japanese.
fn rendered(card: &Value) -> String {
    format!(
        "{}\n{}",
        card["effect-text"]["en"].as_str().unwrap_or(""),
        card["effect-text"]["ja"].as_str().unwrap_or("")
    )
    .to_lowercase()
}

fn num(card: &Value, key: &str) -> u64 {
    card[key].as_u64().unwrap()
}

/// A card's STAR; none on a venue or a character, which no STAR query
/// matches (`star!=7` included, as SQL's `NULL` compares).
fn stars(card: &Value) -> Option<u64> {
    card["stars"].as_u64()
}

fn effect_lines(card: &Value) -> Vec<String> {
    card["effect"]
        .as_str()
        .unwrap_or("")
        .lines()
        .map(str::to_string)
        .collect()
}

type Case = (&'static str, Box<dyn Fn(&Value) -> bool>);

fn cases() -> Vec<Case> {
    fn case(query: &'static str, keep: impl Fn(&Value) -> bool + 'static) -> Case {
        (query, Box::new(keep))
    }
    let has_kw = |c: &Value, kw: &str| effect_lines(c).iter().any(|l| l.starts_with(kw));
    let has_timing = |c: &Value, t: &str| effect_lines(c).iter().any(|l| l.starts_with(t));
    vec![
        // A bare word, a phrase and a regex search the name.
        case("golem", |c| text(c, "name").contains("golem")),
        case("-golem", |c| !text(c, "name").contains("golem")),
        case("sundered anvil", |c| {
            text(c, "name").contains("sundered") && text(c, "name").contains("anvil")
        }),
        case("\"of the\"", |c| text(c, "name").contains("of the")),
        case("/^b.*golem$/", |c| c["name"] == "Boiler Golem"),
        // name
        case("name:golem", |c| text(c, "name").contains("golem")),
        case("n:GOLEM", |c| text(c, "name").contains("golem")),
        case("name=\"boiler golem\"", |c| c["name"] == "Boiler Golem"),
        case("name!=\"boiler golem\"", |c| c["name"] != "Boiler Golem"),
        case("name:/sentinel|sentry/", |c| {
            text(c, "name").contains("sentinel") || text(c, "name").contains("sentry")
        }),
        case("name!=/e/", |c| {
            !text(c, "name").contains('e') && !ja(c, "name").contains('e')
        }),
        case("name:巨人", |c| ja(c, "name").contains("巨人")),
        case("名前:ゴーレム", |c| {
            ja(c, "name").contains("ゴーレム")
        }),
        // id
        case("id:golem", |c| text(c, "id").contains("golem")),
        case("id=boiler-golem", |c| c["id"] == "boiler-golem"),
        case("id!=boiler-golem", |c| c["id"] != "boiler-golem"),
        case("id:/^s[a-z]+-s/", |c| {
            let id = text(c, "id");
            id.starts_with('s') && id.split('-').nth(1).is_some_and(|w| w.starts_with('s'))
        }),
        // set: id, English name, Japanese name
        case("set:sunset-gulch", |c| c["set"] == "sunset-gulch"),
        case("s=\"Sunset Gulch\"", |c| c["set"] == "sunset-gulch"),
        case("set!=sunset-gulch", |c| c["set"] != "sunset-gulch"),
        case("セット:夕焼け峡谷", |c| c["set"] == "sunset-gulch"),
        // kind
        case("kind:accessory", |c| c["kind"] == "accessory"),
        case("kind:venue", |c| c["kind"] == "venue"),
        case("kind:character", |c| c["kind"] == "character"),
        case("種類:会場", |c| c["kind"] == "venue"),
        case("種類:キャラクター", |c| c["kind"] == "character"),
        case("rarity:venue", |c| c["rarity"] == "venue"),
        case("k=deck-box", |c| c["kind"] == "deck-box"),
        case("kind!=single", |c| c["kind"] != "single"),
        case("種類:デッキケース", |c| c["kind"] == "deck-box"),
        // rarity
        case("rarity:premium", |c| c["rarity"] == "premium"),
        case("r=bronze-promo", |c| c["rarity"] == "bronze-promo"),
        case("r!=starter", |c| c["rarity"] != "starter"),
        case("レアリティ:プレミア", |c| c["rarity"] == "premium"),
        // element
        case("e:water", |c| list(c, "elements").contains(&"water".into())),
        case("element=WATER", |c| {
            list(c, "elements").contains(&"water".into())
        }),
        case("e!=water", |c| {
            !list(c, "elements").contains(&"water".into())
        }),
        case("属性:炎", |c| {
            list(c, "elements").contains(&"fire".into())
        }),
        case("属性：闇", |c| {
            list(c, "elements").contains(&"dark".into())
        }),
        // type
        case("t:speedster", |c| {
            list(c, "types").contains(&"speedster".into())
        }),
        case("type=mage", |c| list(c, "types").contains(&"mage".into())),
        case("t!=construct", |c| {
            !list(c, "types").contains(&"construct".into())
        }),
        case("種族:機械", |c| {
            list(c, "types").contains(&"construct".into())
        }),
        // star: every operator
        case("star:7", |c| stars(c).is_some_and(|s| s == 7)),
        case("stars=7", |c| stars(c).is_some_and(|s| s == 7)),
        case("star!=7", |c| stars(c).is_some_and(|s| s != 7)),
        case("star<2", |c| stars(c).is_some_and(|s| s < 2)),
        case("star>6", |c| stars(c).is_some_and(|s| s > 6)),
        case("star<=2", |c| stars(c).is_some_and(|s| s <= 2)),
        case("star>=6", |c| stars(c).is_some_and(|s| s >= 6)),
        case("スター>=6", |c| stars(c).is_some_and(|s| s >= 6)),
        // copies: every operator
        case("copies:3", |c| num(c, "copies") == 3),
        case("copies=2", |c| num(c, "copies") == 2),
        case("copies!=1", |c| num(c, "copies") != 1),
        case("copies<2", |c| num(c, "copies") < 2),
        case("copies>2", |c| num(c, "copies") > 2),
        case("copies<=2", |c| num(c, "copies") <= 2),
        case("copies>=2", |c| num(c, "copies") >= 2),
        case("枚数:3", |c| num(c, "copies") == 3),
        // keyword: English name, id, Japanese name
        case("kw:scurry", move |c| has_kw(c, "Scurry")),
        case("keyword=\"blast off\"", move |c| {
            effect_lines(c).iter().any(|l| l == "Blast Off.")
        }),
        case("kw:blast-off-plus", move |c| has_kw(c, "Blast Off PLUS")),
        case("kw!=mimicry", move |c| !has_kw(c, "Mimicry")),
        case("キーワード:ドッスン！", move |c| {
            has_kw(c, "Thwomp!")
        }),
        // timing
        case("timing:reaction", move |c| has_timing(c, "Reaction")),
        case("timing=top", move |c| has_timing(c, "Top:")),
        case("timing!=play", move |c| !has_timing(c, "Play:")),
        case("タイミング:持続", move |c| has_timing(c, "Ongoing:")),
        // rendered text, English and Japanese
        case("o:\"gain 3 rp\"", |c| rendered(c).contains("gain 3 rp")),
        case("o:/gain [45] rp/", |c| {
            rendered(c).contains("gain 4 rp") || rendered(c).contains("gain 5 rp")
        }),
        case("text!=/rp/", |c| !rendered(c).contains("rp")),
        case("o=\"play: gain 1 rp.\"", |c| {
            c["effect-text"]["en"].as_str().unwrap_or("").to_lowercase() == "play: gain 1 rp."
        }),
        case("テキスト:裏返", |c| rendered(c).contains("裏返")),
        case("効果文:\"4RP\"", |c| rendered(c).contains("4rp")),
        // flavor, English and Japanese
        case("flavor:city", |c| {
            text(c, "flavor").contains("city") || ja(c, "flavor").contains("city")
        }),
        case("ft:/^every/", |c| text(c, "flavor").starts_with("every")),
        case("フレーバー:ボルト", |c| {
            ja(c, "flavor").contains("ボルト")
        }),
        // has: and is:
        case("has:effect", |c| c.get("effect").is_some()),
        case("is:vanilla", |c| c.get("effect").is_none()),
        case("-is:vanilla", |c| c.get("effect").is_some()),
        case("is!=vanilla", |c| c.get("effect").is_some()),
        case("状態:バニラ", |c| c.get("effect").is_none()),
        case("持つ:効果", |c| c.get("effect").is_some()),
        // or, implicit AND, parentheses, negation
        case("e:fire t:construct", |c| {
            list(c, "elements").contains(&"fire".into())
                && list(c, "types").contains(&"construct".into())
        }),
        case("e:fire or e:water", |c| {
            let e = list(c, "elements");
            e.contains(&"fire".into()) || e.contains(&"water".into())
        }),
        case("(e:fire OR e:water) star>=4", |c| {
            let e = list(c, "elements");
            (e.contains(&"fire".into()) || e.contains(&"water".into()))
                && stars(c).is_some_and(|s| s >= 4)
        }),
        case("-(kind:single or kind:accessory)", |c| {
            c["kind"] != "single" && c["kind"] != "accessory"
        }),
        case("--e:fire", |c| list(c, "elements").contains(&"fire".into())),
        case("e:fire star:2 or e:water star:1", |c| {
            let e = list(c, "elements");
            (e.contains(&"fire".into()) && stars(c).is_some_and(|s| s == 2))
                || (e.contains(&"water".into()) && stars(c).is_some_and(|s| s == 1))
        }),
    ]
}

#[test]
fn every_key_and_operator_finds_some_cards_and_leaves_out_others() {
    let (dir, db, _) = built();
    let db = db.to_str().unwrap();
    for (query, keep) in cases() {
        let want = expected(keep.as_ref());
        assert!(
            !want.is_empty() && want.len() < cards().len(),
            "`{query}` must find some cards and leave out others ({} of {})",
            want.len(),
            cards().len()
        );
        let found = search_in(dir.path(), query, &["--db", db]);
        assert_eq!(found, want, "`{query}`");
    }
}

/// Every fixture pool a search can run on, the built-in one (`None`) first:
/// pools with their own keyword tables, translations, categories, errata.
const POOLS: [Option<&str>; 8] = [
    None,
    Some("tests/fixtures/workspace/own-words"),
    Some("tests/fixtures/build/valid"),
    Some("tests/fixtures/i18n/drifted"),
    Some("tests/fixtures/rules/pool"),
    Some("tests/fixtures/diff/new"),
    Some("examples/pools/millennium-monsters"),
    Some("examples/pools/playing-cards"),
];

/// Queries beyond the cases that name the fixture pools' own keywords (and
/// built-in ones they do not have), by name, id and Japanese name.
const OWN_WORDS: [&str; 8] = [
    "kw:gear-up",
    "kw:\"gear up\"",
    "kw:ギアアップ",
    "keyword!=gear-up",
    "kw:scurry",
    "kw:thwomp!",
    "scurry",
    "gear",
];

/// What a query answers on a database: the ids found, or the codes and
/// places of its mistakes.
fn answer(database: &blades::model::Database, query: &str) -> Result<Vec<String>, Vec<String>> {
    use blades::search::{Catalog, Index, Query};
    let index = Index::new(database);
    let catalog = Catalog::for_index(&index, &blades::effect::Keywords::builtin());
    match Query::parse(query, &catalog) {
        Ok(query) => Ok(index.search(&query).map(|c| c.id.0.clone()).collect()),
        Err(problems) => Err(problems
            .iter()
            .map(|d| format!("{} at {:?}", d.code.as_str(), d.span))
            .collect()),
    }
}

/// Every search case, run on every fixture pool both ways: on the pool (as
/// `blades search` opens it) and on the database `blades build` wrote of
/// it (as `--db` reads it). The answers, found cards or mistakes, are the
/// same: the file carries the pool's vocabulary.
#[test]
fn every_case_answers_alike_with_and_without_db_on_every_fixture_pool() {
    let queries: Vec<&str> = cases().iter().map(|(q, _)| *q).chain(OWN_WORDS).collect();
    for pool in POOLS {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("db.json");
        let mut args = Vec::new();
        if let Some(pool) = pool {
            args.extend(["--cards", pool]);
        }
        args.extend(["build", "-q", "--no-cache", "--out", db.to_str().unwrap()]);
        let run = blades(root(), &args);
        assert_eq!(run.code, 0, "{pool:?}: {}", run.stderr);
        let from_file = blades::search::read_database(&db).unwrap();
        let path = pool.map(|p| root().join(p));
        let workspace = blades::workspace::Workspace::open_uncached(path.as_deref()).unwrap();
        let from_pool = workspace.database().unwrap();
        for query in &queries {
            assert_eq!(
                answer(&from_pool, query),
                answer(&from_file, query),
                "`{query}` on {pool:?}"
            );
        }
    }
}

/// Builds `pool`'s database in `dir`, and returns a search that asks the
/// pool and the database alike, requires the same ids, and gives them.
fn built_both_ways<'a>(dir: &'a Path, pool: &'a str) -> impl Fn(&str) -> Vec<String> + 'a {
    let db = dir.join("db.json");
    let db_arg = db.to_str().unwrap().to_string();
    let run = blades(dir, &["--cards", pool, "build", "-q", "--out", &db_arg]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    move |query| {
        let from_pool = search_in(dir, query, &["--cards", pool]);
        let from_db = search_in(dir, query, &["--db", &db_arg]);
        assert_eq!(
            from_db, from_pool,
            "`{query}`: the database answers otherwise"
        );
        from_pool
    }
}

#[test]
fn a_pools_own_keywords_are_found_by_name_id_and_japanese_name_with_db_too() {
    let dir = tempfile::tempdir().unwrap();
    let pool = root().join("tests/fixtures/workspace/own-words");
    let pool = pool.to_str().unwrap();
    let both_ways = built_both_ways(dir.path(), pool);
    for query in ["kw:gear-up", "kw:ギアアップ", "kw:\"Gear Up\""] {
        assert_eq!(both_ways(query), ["g1"], "`{query}`");
    }
    // A pool's keywords add to the built-ins: a built-in one the pool does
    // not use is known either way, and finds nothing either way.
    for query in ["kw:scurry", "kw:ちょこまか"] {
        let found = both_ways(query);
        assert!(found.is_empty(), "`{query}`: {found:?}");
    }
}

#[test]
fn the_pool_and_its_built_database_answer_alike() {
    let (dir, db, _) = built();
    for query in [
        "kw:scurry",
        "timing:reaction e:water",
        "set:夕焼け峡谷 -is:vanilla",
    ] {
        let from_pool = search_in(dir.path(), query, &[]);
        let from_db = search_in(dir.path(), query, &["--db", db.to_str().unwrap()]);
        assert!(!from_pool.is_empty());
        assert_eq!(from_pool, from_db, "`{query}`");
    }
}

#[test]
fn full_width_digits_are_numbers_as_full_width_keys_are_keys() {
    let (dir, db, _) = built();
    let db = db.to_str().unwrap();
    for (full, ascii) in [
        ("ＳＴＡＲ>=３", "star>=3"),
        ("star:３", "star:3"),
        ("枚数：２", "copies:2"),
    ] {
        let found = search_in(dir.path(), full, &["--db", db]);
        assert!(!found.is_empty(), "`{full}`");
        assert_eq!(
            found,
            search_in(dir.path(), ascii, &["--db", db]),
            "`{full}`"
        );
    }
}

#[test]
fn a_bare_word_that_is_a_keyword_says_so_and_the_term_offered_finds_the_cards() {
    let (dir, db, _) = built();
    let db = db.to_str().unwrap();
    let run = blades(dir.path(), &["search", "--db", db, "scurry"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("hint: `scurry` searches card names; it is also a keyword: `kw:scurry`"),
        "{}",
        run.stderr
    );
    let json = blades(
        dir.path(),
        &["search", "--format", "json", "--db", db, "scurry", "fire"],
    );
    let hints = json.json()["hints"].clone();
    assert_eq!(hints.as_array().map(Vec::len), Some(2), "{hints}");
    // Every term a hint offers is a query that finds cards.
    let database = blades::search::read_database(db.as_ref()).unwrap();
    let index = blades::search::Index::new(&database);
    let catalog = blades::search::Catalog::for_index(&index, &blades::effect::Keywords::builtin());
    let query = blades::search::Query::parse("scurry -fire t:speedster", &catalog).unwrap();
    assert_eq!(query.hints.len(), 2);
    for hint in &query.hints {
        let offered = blades::search::Query::parse(&hint.instead, &catalog).unwrap();
        assert!(offered.hints.is_empty(), "{}", hint.instead);
        assert!(index.search(&offered).next().is_some(), "{}", hint.instead);
    }
    assert!(search_in(dir.path(), "golem", &["--db", db]).len() > 1);
    let plain = blades(dir.path(), &["search", "--db", db, "golem"]);
    assert!(!plain.stderr.contains("hint:"), "{}", plain.stderr);
}

#[test]
fn stale_and_translated_are_both_ways_on_a_drifted_pool() {
    let pool = root().join("tests/fixtures/i18n/drifted");
    let pool = pool.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let stale = search_in(dir.path(), "is:stale", &["--cards", pool]);
    let fresh = search_in(dir.path(), "-is:stale", &["--cards", pool]);
    let translated = search_in(dir.path(), "is:translated", &["--cards", pool]);
    let untranslated = search_in(dir.path(), "-is:translated", &["--cards", pool]);
    assert!(
        !stale.is_empty() && !fresh.is_empty(),
        "{stale:?} {fresh:?}"
    );
    assert!(!translated.is_empty() && !untranslated.is_empty());
    assert!(stale.iter().all(|id| translated.contains(id)));
}

#[test]
fn an_empty_query_finds_every_card() {
    let (dir, db, _) = built();
    let found = search_in(dir.path(), "", &["--db", db.to_str().unwrap()]);
    assert_eq!(found.len(), cards().len());
}

#[test]
fn human_output_is_a_table_with_a_count_and_explain_says_it_in_both_languages() {
    let (dir, db, _) = built();
    let run = blades(
        dir.path(),
        &[
            "search",
            "--explain",
            "--db",
            db.to_str().unwrap(),
            "e:fire",
            "t:construct",
            "star>=4",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "means: a card matches when it has the fire element and it has the type construct and its STAR is at least 4"
    );
    assert_eq!(
        lines[1],
        "意味: 次の条件を満たすカード：属性「炎」を持つ、かつ種族「機械」を持つ、かつスターが4以上"
    );
    assert!(lines[3].starts_with("id "), "{}", run.stdout);
    assert!(lines[4].starts_with("boiler-golem "), "{}", run.stdout);
    assert_eq!(lines.last(), Some(&"2 cards"));
    assert!(run.stderr.starts_with("database: "), "{}", run.stderr);
    let none = blades(
        dir.path(),
        &["search", "--db", db.to_str().unwrap(), "zzzz"],
    );
    assert_eq!(none.stdout, "no card matches\n");
}

#[test]
fn the_results_table_speaks_the_language_asked() {
    let (dir, db, _) = built();
    let db = db.to_str().unwrap();
    let run = blades(
        dir.path(),
        &["search", "--lang", "ja", "--db", db, "e:fire", "star>=4"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines[0].starts_with("ID ") && lines[0].contains("名前"),
        "{}",
        run.stdout
    );
    let row: Vec<&str> = lines[1]
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(
        row,
        [
            "boiler-golem",
            "ボイラー・ゴーレム",
            "歯車仕掛けの鋳造所",
            "シングル",
            "4",
            "炎, 地",
            "機械",
            "2"
        ],
        "{}",
        run.stdout
    );
    assert_eq!(lines.last(), Some(&"4枚"));
    // English stays the default, and a language the pool lacks is refused.
    let en = blades(dir.path(), &["search", "--db", db, "e:fire", "star>=4"]);
    assert!(en.stdout.contains("Boiler Golem") && en.stdout.contains("fire, earth"));
    // Help lines list values in the language asked.
    let bad = blades(
        dir.path(),
        &[
            "search", "--lang", "ja", "--format", "json", "--db", db, "e:fyre",
        ],
    );
    let help = bad.json()["diagnostics"][0]["help"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(help.contains("`e` takes 炎, 風, 光, 水, 地, 闇"), "{help}");
    let fr = blades(
        dir.path(),
        &["search", "--lang", "fr", "--db", db, "e:fire"],
    );
    assert_eq!(fr.code, 2);
    assert!(
        fr.stderr.contains("blades::unknown-language"),
        "{}",
        fr.stderr
    );
}

#[test]
fn json_output_is_the_search_report() {
    let (dir, db, _) = built();
    let run = blades(
        dir.path(),
        &[
            "search",
            "--format",
            "json",
            "--db",
            db.to_str().unwrap(),
            "kw:thwomp!",
        ],
    );
    assert_eq!(run.code, 0);
    assert_eq!(run.stderr, "");
    let report = run.json();
    assert_eq!(report["query"], "kw:thwomp!");
    assert_eq!(report["count"], 2);
    assert_eq!(report["cards"][0]["id"], "boiler-golem");
    assert_eq!(report["cards"][0]["names"]["ja"], "ボイラー・ゴーレム");
    assert!(
        report["explain"]["ja"]
            .as_str()
            .unwrap()
            .contains("ドッスン！")
    );
}

/// A bad query: its one diagnostic (JSON), with the text it points at.
fn refused(query: &str) -> (String, String, String, String) {
    let (dir, db, _) = built();
    let run = blades(
        dir.path(),
        &[
            "search",
            "--format",
            "json",
            "--db",
            db.to_str().unwrap(),
            "--",
            query,
        ],
    );
    assert_eq!(run.code, 2, "`{query}`: {}", run.stdout);
    assert_eq!(run.stderr, "");
    let report = run.json();
    let d = &report["diagnostics"][0];
    let (start, end) = (
        d["start"].as_u64().unwrap() as usize,
        d["end"].as_u64().unwrap() as usize,
    );
    assert_eq!(d["file"], "<query>");
    (
        d["code"].as_str().unwrap().to_string(),
        query[start..end].to_string(),
        d["message"].as_str().unwrap().to_string(),
        d["help"].as_str().unwrap_or("").to_string(),
    )
}

#[test]
fn bad_queries_are_located_with_the_nearest_key_or_value_and_exit_2() {
    let (code, at, _, help) = refused("elemnt:fire star>3");
    assert_eq!(
        (code.as_str(), at.as_str()),
        ("search-unknown-key", "elemnt")
    );
    assert!(help.starts_with("did you mean `element`?"), "{help}");

    let (code, at, _, help) = refused("e:fire t:constrct");
    assert_eq!(
        (code.as_str(), at.as_str()),
        ("search-unknown-value", "constrct")
    );
    assert!(help.starts_with("did you mean `construct`?"), "{help}");

    let (code, at, _, help) = refused("属性:炎 種族:機");
    assert_eq!(code, "search-unknown-value");
    assert_eq!(at, "機");
    assert!(help.contains("`種族` takes"), "{help}");

    let (code, at, _, _) = refused("star>=three");
    assert_eq!(
        (code.as_str(), at.as_str()),
        ("search-unknown-value", "three")
    );

    let (code, at, message, _) = refused("name:/[a-/");
    assert_eq!((code.as_str(), at.as_str()), ("search-regex", "/[a-/"));
    assert!(message.contains("does not compile"), "{message}");

    let (code, at, message, _) = refused("o:/(?:a{1000}){1000}/");
    assert_eq!(code, "search-regex");
    assert_eq!(at, "/(?:a{1000}){1000}/");
    assert!(message.contains("KiB"), "{message}");

    let (code, at, _, _) = refused("e:/fi/");
    assert_eq!((code.as_str(), at.as_str()), ("search-syntax", "/fi/"));

    let (code, at, message, _) = refused("e<fire");
    assert_eq!((code.as_str(), at.as_str()), ("search-syntax", "<"));
    assert!(message.contains("compares numbers"), "{message}");

    let (code, at, message, _) = refused("(e:fire or e:water");
    assert_eq!((code.as_str(), at.as_str()), ("search-syntax", "("));
    assert!(message.contains("never closed"), "{message}");

    let (code, at, _, _) = refused("e:fire)");
    assert_eq!((code.as_str(), at.as_str()), ("search-syntax", ")"));

    let (code, at, _, _) = refused("name:\"open");
    assert_eq!((code.as_str(), at.as_str()), ("search-syntax", "\""));

    let (code, _, message, _) = refused("e:fire or");
    assert_eq!(code, "search-syntax");
    assert!(message.contains("`or`"), "{message}");

    let (code, at, _, _) = refused("e: fire");
    assert_eq!((code.as_str(), at.as_str()), ("search-syntax", " "));

    let deep = format!("{}e:fire{}", "(".repeat(40), ")".repeat(40));
    let (code, _, message, _) = refused(&deep);
    assert_eq!(code, "search-syntax");
    assert!(message.contains("nest deeper"), "{message}");

    let long = "a ".repeat(3000);
    let (code, _, message, _) = refused(&long);
    assert_eq!(code, "search-syntax");
    assert!(message.contains("longer than"), "{message}");
}

#[test]
fn every_mistake_of_a_query_is_reported_at_once_for_people() {
    let (dir, db, _) = built();
    let run = blades(
        dir.path(),
        &[
            "search",
            "--db",
            db.to_str().unwrap(),
            "colour:red",
            "e:fyre",
        ],
    );
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains("blades::search-unknown-key"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("blades::search-unknown-value"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("<query>:1:1"), "{}", run.stderr);
    assert!(run.stderr.contains("<query>:1:14"), "{}", run.stderr);
    assert!(run.stderr.contains("2 errors"), "{}", run.stderr);
}

#[test]
fn a_database_that_cannot_be_read_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.json");
    let run = blades(
        dir.path(),
        &["search", "--db", missing.to_str().unwrap(), "x"],
    );
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("blades::unreadable"), "{}", run.stderr);
    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "{\"format\": 2}").unwrap();
    let run = blades(dir.path(), &["search", "--db", junk.to_str().unwrap(), "x"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("is not a card database"),
        "{}",
        run.stderr
    );
    let run = blades(dir.path(), &["search", "--ids", "--format", "json", "x"]);
    assert_eq!(run.code, 2);
}

/// A pool folder in `dir` holding one set file; its path.
fn one_set_pool(dir: &Path, file: &str, yaml: &str) -> String {
    let pool = dir.join("pool");
    std::fs::create_dir(&pool).unwrap();
    std::fs::write(pool.join(file), yaml).unwrap();
    pool.to_str().unwrap().to_string()
}

/// The Deckbuilding timing is a timing like the others: found by its
/// English and Japanese words, alike in the pool and its built database.
#[test]
fn a_deckbuilding_ability_is_found_by_its_timing_in_both_languages_with_db_too() {
    let dir = tempfile::tempdir().unwrap();
    let pool = one_set_pool(
        dir.path(),
        "market.yaml",
        r#"id: market
name: Market
kind: bronze-promo
cards:
  - {id: m1, name: M1, kind: single, stars: 1, elements: [fire], types: [citizen], effect: "Deckbuilding: Cards in the Store cost 1 Millennium Dollar less."}
  - {id: m2, name: M2, kind: single, stars: 2, elements: [fire], types: [citizen], effect: "Play: Gain 1 RP."}
  - {id: m3, name: M3, kind: single, stars: 3, elements: [fire], types: [citizen], effect: "Deckbuilding: Whenever you sell a card to the Aftermarket, gain 1 Millennium Dollar."}
  - {id: m4, name: M4, kind: single, stars: 4, elements: [fire], types: [citizen]}
  - {id: m5, name: M5, kind: single, stars: 5, elements: [fire], types: [citizen]}
  - {id: m6, name: M6, kind: single, stars: 6, elements: [fire], types: [citizen]}
"#,
    );
    let both_ways = built_both_ways(dir.path(), &pool);
    for query in ["timing:deckbuilding", "タイミング:デッキ構築"] {
        assert_eq!(both_ways(query), ["m1", "m3"], "`{query}`");
    }
}

/// The tournament's and the game's own timings are found by their English
/// (`Game End` as one word too) and Japanese words, in the pool and its
/// built database alike.
#[test]
fn tournament_and_game_end_abilities_are_found_by_their_timing_with_db_too() {
    let dir = tempfile::tempdir().unwrap();
    let pool = one_set_pool(
        dir.path(),
        "heroes.yaml",
        r#"id: heroes
name: Heroes
kind: bronze-promo
cards:
  - {id: h1, name: H1, kind: single, stars: 1, elements: [fire], types: [citizen], effect: "Game End: Gain 1 VP for each Friendship Card given to you."}
  - {id: h2, name: H2, kind: single, stars: 2, elements: [fire], types: [citizen], effect: "Ongoing: Fire cards in your tableau have +1 STAR."}
  - {id: h3, name: H3, kind: single, stars: 3, elements: [fire], types: [citizen], effect: "Deckbuilding: Your hand size is increased by 1.\nGame End: Gain 2 Millennium Dollars."}
  - {id: h4, name: H4, kind: single, stars: 4, elements: [fire], types: [citizen]}
  - {id: h5, name: H5, kind: single, stars: 5, elements: [fire], types: [citizen]}
  - {id: h6, name: H6, kind: single, stars: 6, elements: [fire], types: [citizen]}
"#,
    );
    let both_ways = built_both_ways(dir.path(), &pool);
    for query in [
        "timing:\"game end\"",
        "timing:game-end",
        "タイミング:ゲーム終了",
    ] {
        assert_eq!(both_ways(query), ["h1", "h3"], "`{query}`");
    }
    assert_eq!(both_ways("timing:deckbuilding"), ["h3"]);
}

/// `resource:` finds what an effect deals in, read off its tree: alike in
/// the pool and in its built database (which keeps no trees), and by the
/// English and Japanese words.
#[test]
fn cards_are_found_by_what_their_effect_deals_in_with_db_too() {
    let dir = tempfile::tempdir().unwrap();
    let pool = one_set_pool(
        dir.path(),
        "money.yaml",
        r#"id: money
name: Money
kind: bronze-promo
cards:
  - {id: r1, name: R1, kind: single, stars: 1, elements: [fire], types: [citizen], effect: "Deckbuilding: Cards in the Store cost 1 Millennium Dollar less."}
  - {id: r2, name: R2, kind: single, stars: 2, elements: [fire], types: [citizen], effect: "Play: Gain 1 RP."}
  - {id: r3, name: R3, kind: single, stars: 3, elements: [fire], types: [citizen], effect: "Action: Sell a card from your hand to the Aftermarket."}
  - {id: r4, name: R4, kind: single, stars: 4, elements: [fire], types: [citizen], effect: "Play: If you have more VP than each opponent, flip a card in an opponent's tableau."}
  - {id: r5, name: R5, kind: single, stars: 5, elements: [fire], types: [citizen], effect: "Play: Flip a card from the Money set."}
  - {id: r6, name: R6, kind: single, stars: 6, elements: [fire], types: [citizen], effect: "Deckbuilding: Whenever an opponent trades, you may give a Friendship Card to that opponent."}
"#,
    );
    let both_ways = built_both_ways(dir.path(), &pool);
    for (query, expected) in [
        ("resource:money", &["r1", "r3"][..]),
        ("resource:\"Millennium Dollars\"", &["r1", "r3"]),
        ("リソース:ミレニアムドル", &["r1", "r3"]),
        ("resource:rp", &["r2"]),
        ("resource:vp", &["r4"]),
        ("resource:sell-marker", &["r3"]),
        ("resource:friendship", &["r6"]),
        ("-resource:money resource:rp", &["r2"]),
    ] {
        assert_eq!(both_ways(query), expected, "`{query}`");
    }
}
