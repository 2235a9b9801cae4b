//! The bodies of the fuzz targets, through the public API of `blades` only.
//!
//! One file, two users: the fuzz binaries of `fuzz/fuzz_targets/` call these
//! functions (nightly, `cargo fuzz`), and `tests/fuzz_regressions.rs`
//! includes this file to replay every input saved under
//! `fuzz/regressions/<target>/` with `cargo test` on stable. A target
//! fails by panicking: a panic of the library, or an assertion here that a
//! property the project promises does not hold.

use std::sync::{Arc, OnceLock};

use blades::artifacts;
use blades::cards::CardIndex;
use blades::compile::compile;
use blades::diagnostics::{Diagnostic, Sources};
use blades::effect::{self, Keywords, Lang, Phrasebook, Vocabulary};
use blades::fmt::format_set_file;
use blades::i18n::exchange::{self, ImportOptions};
use blades::i18n::locale::{self, Entry, LocaleFile};
use blades::i18n::{Project, po};
use blades::model::Database;
use blades::pool::{Pool, SourceFile, text_from_bytes};
use blades::report::{self, Style};
use blades::rules::collection;
use blades::rules::deck::Placed;
use blades::rules::format;
use blades::rules::input::{self, InputFile};
use blades::rules::share::{self, Shared};
use blades::rules::{characters, score};
use blades::rules::{copies, deck, trade};
use blades::search::{self, Catalog, Index, Query};
use blades::words::CardKind;
use blades::yaml::{self, Node, NodeValue};

/// A target's body: one input, any bytes.
pub type Target = fn(&[u8]);

/// Every target by name, as its folder under `fuzz/regressions/` is named.
pub const TARGETS: &[(&str, Target)] = &[
    ("set_file", set_file),
    ("http_head", http_head),
    ("effect", effect),
    ("rules", rules),
    ("po", po),
    ("locale", locale),
    ("search", search),
    ("deck_format", deck_format),
    ("share", share_code),
    ("score", score_sheet),
    ("deck_list", deck_list),
    ("keyword_table", keyword_table),
    ("lsp", lsp),
    ("card_index", index_section),
];

/// Both reports of a list of findings: miette's for people, and JSON that
/// must be valid JSON.
fn report(diagnostics: &[Diagnostic], sources: &Sources) {
    let _ = report::render_human(diagnostics, sources, Style::default());
    let json = report::render_json(diagnostics, sources);
    if let Err(e) = serde_json::from_str::<serde_json::Value>(&json) {
        panic!("the JSON report is not JSON ({e}): {json}");
    }
}

/// Every finding's span lies in its file, on character boundaries.
fn assert_located(diagnostics: &[Diagnostic], sources: &Sources) {
    for d in diagnostics {
        if let Some(text) = sources.get(&d.path) {
            assert!(
                text.get(d.span.clone()).is_some(),
                "{} at {:?} is outside `{}` ({} bytes) or splits a character",
                d.code.as_str(),
                d.span,
                d.path,
                text.len()
            );
        }
    }
}

// ─────────────────────────────── set files ───────────────────────────────

/// A set file through loading, checking, both reports, the database and
/// `fmt` (whose rewrite must read back as the same effects, change nothing
/// else, and be a fixed point).
pub fn set_file(data: &[u8]) {
    let path: Arc<str> = Arc::from("fuzz/set.yaml");
    let mut pool = Pool::default();
    match text_from_bytes(data.to_vec(), &path) {
        Ok(text) => pool
            .sets
            .push(SourceFile::new(path.clone(), "set.yaml".into(), text)),
        Err(problem) => pool.problems.push(*problem),
    }
    let compiled = compile(&pool);
    assert_located(&compiled.diagnostics, &compiled.sources);
    report(&compiled.diagnostics, &compiled.sources);
    if let Some(database) = compiled.output.database() {
        let mut json = Vec::new();
        artifacts::write_database(&mut json, database, false).expect("the database is written");
        serde_json::from_slice::<serde_json::Value>(&json).expect("the database is JSON");
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let formatted = format_set_file(&path, text);
    let mut sources = Sources::default();
    sources.insert(path.clone(), Arc::from(text));
    assert_located(&formatted.problems, &sources);
    report(&formatted.problems, &sources);
    // `fmt` writes nothing while a file has errors, but the rewrite of the
    // effects that parse is made all the same.
    if let Some(new) = &formatted.text {
        check_rewrite(&path, text, new);
    }
}

/// What `fmt` promises of a rewrite.
fn check_rewrite(path: &Arc<str>, old: &str, new: &str) {
    let before = yaml::parse(old).expect("the file fmt read is YAML");
    let after = match yaml::parse(new) {
        Ok(after) => after,
        Err(e) => panic!("fmt wrote YAML that does not parse ({e:?}):\n{new}"),
    };
    let (old_effects, old_rest) = effects_apart(&before);
    let (new_effects, new_rest) = effects_apart(&after);
    assert_eq!(old_rest, new_rest, "fmt changed more than effects:\n{new}");
    assert_eq!(old_effects.len(), new_effects.len());
    for (was, is) in old_effects.iter().zip(&new_effects) {
        let (Some(was), Some(is)) = (was, is) else {
            assert_eq!(was, is, "fmt changed an effect that is not text");
            continue;
        };
        match (effect::parse(was), effect::parse(is)) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "fmt changed `{was}` into `{is}`"),
            (Err(_), Err(_)) => assert_eq!(was, is, "fmt rewrote an effect with errors"),
            _ => panic!("fmt changed `{was:?}` into `{is:?}`"),
        }
    }
    let again = format_set_file(path, new);
    assert!(
        again.text.is_none(),
        "fmt is not a fixed point: {:?}",
        again.changes
    );
}

/// A set file's card effects (text or not), and the rest of the document
/// as JSON with the effects taken out.
fn effects_apart(doc: &Node) -> (Vec<Option<String>>, serde_json::Value) {
    let mut json = doc.to_json();
    let mut effects = Vec::new();
    if let Some(cards) = doc.get("cards").and_then(Node::as_seq) {
        for card in cards {
            if let Some(node) = card.get("effect") {
                effects.push(match &node.value {
                    NodeValue::Str(text, _) => Some(text.clone()),
                    _ => None,
                });
            }
        }
    }
    if let Some(cards) = json.get_mut("cards").and_then(|c| c.as_array_mut()) {
        for card in cards {
            if let Some(card) = card.as_object_mut() {
                card.remove("effect");
            }
        }
    }
    (effects, json)
}

// ──────────────────────────────── effects ────────────────────────────────

/// The vocabulary effects are checked against: the base types and keywords,
/// one declared type and two sets.
fn vocabulary() -> &'static Vocabulary {
    static VOCABULARY: OnceLock<Vocabulary> = OnceLock::new();
    VOCABULARY.get_or_init(|| {
        let mut vocab = Vocabulary::base();
        vocab.types.push("speedster".into());
        vocab.sets = vec![
            ("sunset-gulch".into(), "Sunset Gulch".into()),
            ("tin-town".into(), "Tin Town".into()),
        ];
        vocab
    })
}

fn phrasebook(lang: Lang) -> &'static Phrasebook {
    static EN: OnceLock<Phrasebook> = OnceLock::new();
    static JA: OnceLock<Phrasebook> = OnceLock::new();
    match lang {
        Lang::En => EN.get_or_init(|| Phrasebook::builtin(Lang::En)),
        Lang::Ja => JA.get_or_init(|| Phrasebook::builtin(Lang::Ja)),
    }
}

/// Effect text through parse, check, render (both languages) and format,
/// with the round trip `parse(format(x)) == parse(x)`, and located findings.
///
/// The round trip holds for every effect that parses but two kinds, which
/// `fmt` leaves as written (`effect-not-formatted`): a line that is only a
/// timing word (`Play`) is read as a keyword line (no such keyword: it
/// fails its check), and its canonical form `Play.` reads as an ability,
/// which does not parse; and an effect whose canonical form (periods added)
/// is longer than the length bound. It must hold for every other effect
/// that parses, checked or not.
pub fn effect(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let vocab = vocabulary();
    let path: Arc<str> = Arc::from("<effect>");
    let mut sources = Sources::default();
    sources.insert(path.clone(), Arc::from(text));
    let offsets: Vec<usize> = (0..=text.len()).collect();
    let findings = match effect::parse(text) {
        Ok(tree) => {
            let mut errors = effect::check(&tree, vocab);
            if errors.is_empty() {
                errors = sense(&tree, vocab);
            }
            for lang in [Lang::En, Lang::Ja] {
                // The build's shortcut for the built-in English book prints
                // what the phrase book does.
                assert_eq!(
                    effect::render(&tree, lang, phrasebook(lang), vocab),
                    effect::render_from_phrases(&tree, lang, phrasebook(lang), vocab),
                    "`{text}`"
                );
            }
            let canonical = effect::format(&tree);
            let _ = serde_json::to_string(&tree).expect("the tree serializes");
            let within_bound = canonical.chars().count() <= effect::MAX_EFFECT_CHARS;
            if within_bound && (errors.is_empty() || !bare_timing_word(&tree)) {
                match effect::parse(&canonical) {
                    Ok(again) => {
                        assert_eq!(again, tree, "`{text}` formats as `{canonical}`");
                        assert_eq!(effect::format(&again), canonical, "format is idempotent");
                        // The build's touchstone agrees: the printed English reads back.
                        assert_eq!(effect::reads_back(&tree, text), None, "`{text}`");
                    }
                    Err(e) => panic!("`{text}` formats as `{canonical}`, which fails: {e:?}"),
                }
            }
            errors
        }
        Err(errors) => errors,
    };
    let diagnostics: Vec<Diagnostic> = findings
        .into_iter()
        .map(|e| e.into_diagnostic(&path, &offsets))
        .collect();
    assert_located(&diagnostics, &sources);
    report(&diagnostics, &sources);
}

/// The sense warnings of a checked effect on a card of each kind (what the
/// build reports), and the normal form they share with the keyword
/// override check: idempotent, and kept by the canonical form.
fn sense(tree: &effect::Effect, vocab: &Vocabulary) -> Vec<effect::EffectError> {
    let mut found = effect::sense(tree, None, vocab);
    for kind in [CardKind::Single, CardKind::DeckBox, CardKind::Accessory] {
        let _ = effect::sense(tree, Some(kind), vocab);
    }
    let normal = effect::what_it_does(tree);
    assert_eq!(
        effect::what_it_does(&normal),
        normal,
        "what_it_does is idempotent"
    );
    if let Ok(again) = effect::parse(&effect::format(tree)) {
        assert_eq!(
            effect::what_it_does(&again),
            normal,
            "formatting keeps what it does"
        );
    }
    for e in &mut found {
        assert!(e.help.is_some(), "a sense warning without a fix: {e:?}");
    }
    found
}

/// Does the effect have a keyword line named like a timing word (`Play`)?
fn bare_timing_word(tree: &effect::Effect) -> bool {
    tree.lines.iter().any(|line| match line {
        effect::Line::Keyword(keyword) => effect::Timing::ALL
            .iter()
            .any(|t| t.word().eq_ignore_ascii_case(keyword.name.trim())),
        effect::Line::Ability(_) => false,
    })
}

/// A pool's keyword table (YAML) as the build reads it: validated, and each
/// keyword's line, with a number when it takes one, checked and rendered in
/// both languages (its reminder from its meaning, or the override), and the
/// override compared with the meaning.
pub fn keyword_table(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(doc) = yaml::parse(text) else {
        return;
    };
    let Ok(keywords) = Keywords::from_json(&doc.to_json()) else {
        return;
    };
    let mut vocab = vocabulary().clone();
    vocab.keywords = keywords.clone();
    for keyword in keywords.iter() {
        let symbol = match keyword.symbol {
            Some(effect::Takes::Element) => " Water",
            Some(effect::Takes::Type) => " Mage",
            None => "",
        };
        let line = match keyword.number {
            true => format!("{}{symbol} 7.", keyword.name.en),
            false => format!("{}{symbol}.", keyword.name.en),
        };
        let tree = effect::parse(&line).unwrap_or_else(|e| panic!("`{line}`: {e:?}"));
        assert_eq!(effect::check(&tree, &vocab), [], "`{line}` checks");
        for lang in [Lang::En, Lang::Ja] {
            let _ = effect::render(&tree, lang, phrasebook(lang), &vocab);
        }
        let _ = keyword.override_differs();
        if let Some(meaning) = keyword.meaning_tree(keyword.number.then_some(7), None) {
            let _ = effect::sense(&meaning, None, &vocab);
        }
    }
}

// ───────────────────────────── player checks ─────────────────────────────

/// The built-in pool's database, built once.
fn database() -> &'static Database {
    static DATABASE: OnceLock<Database> = OnceLock::new();
    DATABASE.get_or_init(|| {
        compile(&Pool::builtin())
            .output
            .into_database()
            .expect("the built-in pool builds")
    })
}

/// The built-in database's card index, built once (with the lexicon its
/// suggestions build on the first unknown name).
fn card_index() -> &'static CardIndex<'static> {
    static INDEX: OnceLock<CardIndex<'static>> = OnceLock::new();
    INDEX.get_or_init(|| CardIndex::new(database()))
}

/// A deck, collection, binder, trade or copies list, YAML or plain text,
/// through reading, name resolution and the rules: every check reads the
/// same input, named so that it is read as detected, as YAML and as text.
pub fn rules(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let database = database();
    let index = card_index();
    for name in ["input", "input.yaml", "input.txt"] {
        let file = InputFile::new(name, text);
        let mut sources = Sources::default();
        sources.insert(file.path.clone(), file.text.clone());
        let mut found = Vec::new();

        let doc = input::read_deck(&file, &mut found);
        let character = doc
            .character
            .as_ref()
            .and_then(|c| input::resolve_character(&file.path, c, &mut found));
        let cards = input::resolve_cards(index, &file, &doc.cards, &mut found);
        let _ = deck::check(deck::tournament(), character, &cards);

        let doc = input::read_cards(&file, true, &mut found);
        let symbol = doc
            .symbol
            .as_ref()
            .and_then(|s| input::resolve_symbol(database, &file.path, s, &mut found));
        let cards = input::resolve_cards(index, &file, &doc.cards, &mut found);
        let _ = collection::check(&cards, symbol.as_ref());

        let doc = input::read_cards(&file, false, &mut found);
        let binder = input::resolve_cards(index, &file, &doc.cards, &mut found);
        let _ = collection::best(&binder);
        let _ = collection::best_duel(&binder);

        let doc = input::read_trade(&file, &mut found);
        let a = trade::Side {
            cards: input::resolve_cards(index, &file, &doc.a.cards, &mut found),
            dollars: doc.a.dollars,
            friendship: doc.a.friendship,
        };
        let b = trade::Side {
            cards: input::resolve_cards(index, &file, &doc.b.cards, &mut found),
            dollars: doc.b.dollars,
            friendship: doc.b.friendship,
        };
        let _ = trade::check(&a, &b, false);
        let _ = trade::check(&a, &b, true);

        let doc = input::read_copies(&file, &mut found);
        let sets = input::resolve_sets(database, &file.path, &doc.sets, &mut found);
        let cards = input::resolve_cards(index, &file, &doc.cards, &mut found);
        let _ = copies::check(&sets, &cards);

        blades::diagnostics::sort(&mut found);
        assert_located(&found, &sources);
        report(&found, &sources);
    }
}

// ──────────────────────────────── PO files ───────────────────────────────

/// The built-in pool as a translation project, loaded once.
fn project() -> &'static Project {
    static PROJECT: OnceLock<Project> = OnceLock::new();
    PROJECT.get_or_init(|| Project::load(&Pool::builtin()))
}

/// A PO file through the parser (a parsed file written and parsed again is
/// the same file) and an import into the built-in pool, whose locale files
/// must read back without a problem.
pub fn po(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match po::parse(text) {
        Ok(file) => {
            let written = po::write(&file);
            match po::parse(&written) {
                Ok(again) => assert_eq!(
                    without_spans(again),
                    without_spans(file),
                    "a PO file changes when written:\n{written}"
                ),
                Err(e) => panic!("a written PO file does not parse: {e:?}\n{written}"),
            }
        }
        Err(errors) => {
            for e in errors {
                assert!(
                    text.get(e.span.clone()).is_some(),
                    "PO error at {:?}",
                    e.span
                );
            }
        }
    }
    let project = project();
    let path: Arc<str> = Arc::from("fuzz.po");
    let mut sources = project.sources.clone();
    sources.insert(path.clone(), Arc::from(text));
    for options in [
        ImportOptions {
            lang: None,
            accept_stale: true,
        },
        ImportOptions {
            lang: Some("ja".into()),
            accept_stale: false,
        },
    ] {
        match exchange::import(project, &path, text, &options) {
            Ok(plan) => reread_writes(&plan.lang, &plan.writes),
            Err(problems) => {
                assert_located(&problems.diagnostics, &sources);
                report(&problems.diagnostics, &sources);
            }
        }
    }
}

/// A PO file's entries with every span zeroed.
fn without_spans(mut file: po::PoFile) -> po::PoFile {
    for entry in &mut file.entries {
        entry.span = 0..0;
        for s in [&mut entry.msgid, &mut entry.msgstr]
            .into_iter()
            .chain(entry.msgctxt.as_mut())
            .chain(entry.msgid_plural.as_mut())
            .chain(entry.msgstr_plural.iter_mut())
        {
            s.span = 0..0;
        }
    }
    file
}

/// The locale files an import would write read back without a problem.
fn reread_writes(lang: &str, writes: &[(String, String)]) {
    for (relative, text) in writes {
        let file = SourceFile::new(
            Arc::from(relative.as_str()),
            relative.clone(),
            Arc::from(text.as_str()),
        );
        let mut problems = Vec::new();
        let parsed = match locale::classify(relative) {
            Some((_, locale::FileClass::Phrases)) => {
                locale::parse_phrase_file(&file, lang, &mut problems)
            }
            _ => locale::parse_set_file(&file, lang, &mut problems),
        };
        assert!(
            parsed.is_some() && problems.is_empty(),
            "an imported file does not read back: {problems:?}\n{text}"
        );
    }
}

// ───────────────────────────── locale files ──────────────────────────────

/// A set locale file and a phrase book through their parsers and their
/// canonical rewrite (what `i18n import` writes): a file read without a
/// problem, written and read again, has the same entries. Then the file in
/// the built-in pool, through the project's load and `i18n check`.
pub fn locale(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let text: Arc<str> = Arc::from(text);
    for relative in ["locales/ja/fuzz.yaml", "phrases/ja.yaml"] {
        let file = SourceFile::new(Arc::from(relative), relative.into(), text.clone());
        let mut sources = Sources::default();
        sources.insert(file.path.clone(), text.clone());
        let mut problems = Vec::new();
        let phrases = relative.starts_with("phrases/");
        let parsed = if phrases {
            locale::parse_phrase_file(&file, "ja", &mut problems)
        } else {
            locale::parse_set_file(&file, "ja", &mut problems)
        };
        assert_located(&problems, &sources);
        report(&problems, &sources);
        if let Some(parsed) = parsed
            && problems.is_empty()
        {
            check_locale_rewrite(&file, &parsed);
        }
    }
    // In a pool: the built-in one with this file as the Japanese text of
    // one of its sets.
    let mut pool = Pool::builtin();
    let relative = "locales/ja/sunset-gulch.yaml";
    pool.data.retain(|f| f.relative != relative);
    pool.data.push(SourceFile::new(
        Arc::from(format!("cards/{relative}")),
        relative.into(),
        text,
    ));
    let project = Project::load(&pool);
    let mut found = project.diagnostics.clone();
    found.extend(blades::i18n::check::check(&project, "ja"));
    assert_located(&found, &project.sources);
    report(&found, &project.sources);
}

/// The canonical rewrite of a locale file reads back as the same entries.
fn check_locale_rewrite(file: &SourceFile, parsed: &LocaleFile) {
    let position = |_: &blades::i18n::UnitKey| None;
    let written = match &parsed.target {
        locale::Target::Set(set) => locale::render_set_file("ja", set, &parsed.entries, &position),
        locale::Target::Phrases => locale::render_phrase_file(
            "ja",
            parsed.header.as_deref(),
            parsed.options.as_ref(),
            &parsed.entries,
            &position,
        ),
    };
    let again_file = SourceFile::new(
        file.path.clone(),
        file.relative.clone(),
        Arc::from(written.as_str()),
    );
    let mut problems = Vec::new();
    let again = match &parsed.target {
        locale::Target::Set(_) => locale::parse_set_file(&again_file, "ja", &mut problems),
        locale::Target::Phrases => locale::parse_phrase_file(&again_file, "ja", &mut problems),
    };
    let Some(again) = again.filter(|_| problems.is_empty()) else {
        panic!("a rewritten locale file does not read back: {problems:?}\n{written}");
    };
    assert_eq!(again.target, parsed.target);
    let key = |e: &&Entry| format!("{:?}", e.key);
    let mut before: Vec<&Entry> = parsed.entries.iter().collect();
    let mut after: Vec<&Entry> = again.entries.iter().collect();
    before.sort_by_key(key);
    after.sort_by_key(key);
    assert_eq!(
        before.len(),
        after.len(),
        "entries lost or added:\n{written}"
    );
    for (a, b) in before.iter().zip(&after) {
        assert!(
            a.same_content(b),
            "an entry changed in the rewrite: {a:?} became {b:?}\n{written}"
        );
    }
}

// ───────────────────────────── search queries ─────────────────────────────

/// The built-in pool's catalog of search words, made once.
fn catalog() -> &'static Catalog<'static> {
    static CATALOG: OnceLock<Catalog<'static>> = OnceLock::new();
    CATALOG.get_or_init(|| Catalog::new(database(), &Keywords::builtin()))
}

/// A search query through the parser (with the plain catalog and with the
/// one `blades search` makes from its index, which must agree), the search
/// over the built-in database, the explanation in both languages and the
/// JSON report; or, when it does not parse, located findings in both
/// reports.
pub fn search(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The catalog `blades search` makes (its words read through the index)
    // reads a query as the plain one does.
    let index = Index::new(database());
    let keywords = Keywords::builtin();
    let through_index = Catalog::for_index(&index, &keywords);
    let again = Query::parse(text, &through_index);
    match Query::parse(text, catalog()) {
        Ok(query) => {
            let found: Vec<&str> = index.search(&query).map(|c| c.id.0.as_str()).collect();
            assert!(found.len() <= database().cards.len());
            let again = again.expect("both catalogs read the query");
            let same: Vec<&str> = index.search(&again).map(|c| c.id.0.as_str()).collect();
            assert_eq!(found, same, "two catalogs, two answers");
            for lang in [Lang::En, Lang::Ja] {
                assert!(!query.explain(lang).is_empty());
            }
            let report = search::SearchReport::new(&query, index.search(&query));
            serde_json::to_string(&report).expect("the search report is JSON");
        }
        Err(problems) => {
            assert!(!problems.is_empty(), "a refused query says why");
            let path: Arc<str> = Arc::from(search::QUERY_PATH);
            let mut sources = Sources::default();
            sources.insert(path, Arc::from(text));
            assert_located(&problems, &sources);
            report(&problems, &sources);
        }
    }
}

/// A deck-format file: every problem located; a format that reads checks
/// a deck of every card of the pool in every zone, for no character and
/// for each (whose modifiers only raise limits), and the same text read
/// as a deck list puts its zone headers through the format.
pub fn deck_format(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path: Arc<str> = Arc::from("formats/fuzz.yaml");
    let mut sources = Sources::default();
    sources.insert(path.clone(), Arc::from(text));
    let mut found = Vec::new();
    let formats = format::parse_located(text, &path, &mut found);
    assert_located(&found, &sources);
    report(&found, &sources);
    let database = database();
    let index = card_index();
    for (format, _) in &formats {
        let placed: Vec<Placed> = (0..format.zones.len())
            .flat_map(|z| database.cards.iter().map(move |c| (z, c, 2)))
            .collect();
        let outcome = deck::check_zoned(format, None, &placed);
        assert_eq!(outcome.slots.len(), format.bounds.len());
        // A character's modifiers only add to a bound's limit.
        for character in characters::all() {
            let with = deck::check_zoned(format, Some(character), &placed);
            for (plain, more) in outcome.slots.iter().zip(&with.slots) {
                assert_eq!(plain.count, more.count);
                match (plain.limit, more.limit) {
                    (Some(a), Some(b)) => assert!(a <= b, "{} lowers a limit", character.id),
                    (a, b) => assert_eq!(a.is_none(), b.is_none()),
                }
            }
        }
        let file = InputFile::new("deck.txt", text);
        let mut found = Vec::new();
        let doc = input::read_deck(&file, &mut found);
        for section in &doc.sections {
            let _ = input::resolve_zone(format, &file.path, &section.zone, &mut found);
            let _ = input::resolve_cards(index, &file, &section.cards, &mut found);
        }
        let mut sources = Sources::default();
        sources.insert(file.path.clone(), file.text.clone());
        assert_located(&found, &sources);
    }
}

// ────────────────────────────── share codes ──────────────────────────────

/// A share code as every command reads one in place of a file: decoded (or
/// refused with a reason), the list it holds read and resolved as a deck
/// against the built-in pool with every finding located, and a code that
/// decodes written again holds the same list.
pub fn share_code(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let lines = match share::decode(text) {
        Ok(lines) => lines,
        Err(error) => {
            assert!(!error.to_string().is_empty());
            return;
        }
    };
    let again = share::decode(&share::encode(&lines)).expect("a code written reads back");
    assert_eq!(
        sorted(again),
        sorted(lines.clone()),
        "a code changes when written"
    );
    if share::looks_like_code(text) && !std::path::Path::new(text).exists() {
        let file = InputFile::read(std::path::Path::new(text)).expect("a code that decodes reads");
        placed_deck(&file, deck::tournament());
    }
}

fn sorted(mut lines: Vec<Shared>) -> Vec<Shared> {
    lines.sort();
    lines
}

// ────────────────────────────── score sheets ─────────────────────────────

/// A score sheet, read as YAML and as detected: every finding located, and
/// a sheet that scores adds up (each total is its parts; the ranking is
/// by total, first rank 1).
pub fn score_sheet(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for name in ["sheet", "sheet.yaml"] {
        let file = InputFile::new(name, text);
        let mut sources = Sources::default();
        sources.insert(file.path.clone(), file.text.clone());
        let mut found = Vec::new();
        let scored = score::score(&file, &mut found);
        assert_located(&found, &sources);
        report(&found, &sources);
        let Some(scored) = scored else { continue };
        for player in &scored.players {
            let parts = [
                player.tournament_vp,
                player.collection_vp,
                player.money_vp,
                player.friendship_vp,
            ];
            assert_eq!(
                Some(player.total),
                parts.iter().try_fold(0u64, |a, b| a.checked_add(*b))
            );
        }
        for pair in scored.players.windows(2) {
            assert!(pair[0].total >= pair[1].total, "ranked by total");
            assert!(pair[0].rank <= pair[1].rank);
        }
        if let Some(first) = scored.players.first() {
            assert_eq!(first.rank, 1);
        }
        serde_json::to_string(&scored).expect("the score report is JSON");
    }
}

// ────────────────────────────── deck lists ───────────────────────────────

/// A deck list (text or YAML) with a character and zone headers, resolved
/// against the built-in pool and checked in every built-in format, as
/// `deck check --rules` reads it; a deck that reads is exported (the
/// canonical list and the share code) and both read back as the same deck.
pub fn deck_list(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for name in ["deck", "deck.txt", "deck.yaml"] {
        let file = InputFile::new(name, text);
        for format in deck::formats() {
            placed_deck(&file, format);
        }
    }
}

/// Reads, resolves and checks a deck in `format`, for its own character
/// and for every character; returns what was placed when it read cleanly.
fn placed_deck(file: &InputFile, format: &deck::DeckFormat) {
    let index = card_index();
    let mut found = Vec::new();
    let (character, placed) = read_placed(index, format, file, &mut found);
    let mut sources = Sources::default();
    sources.insert(file.path.clone(), file.text.clone());
    blades::diagnostics::sort(&mut found);
    assert_located(&found, &sources);
    report(&found, &sources);
    for who in std::iter::once(character).chain(characters::all().iter().map(Some)) {
        let outcome = deck::check_zoned(format, who, &placed);
        assert_eq!(outcome.slots.len(), format.bounds.len());
        for slot in &outcome.slots {
            let total: u64 = placed.iter().map(|(_, _, n)| n).sum();
            assert!(
                slot.count <= total,
                "a bound counts more cards than the deck has"
            );
        }
    }
    if found.iter().any(Diagnostic::is_error) {
        return;
    }
    // Exported and read back: the same cards, zone by zone.
    let list = share::canonical_list(format, character, &placed);
    let relisted = InputFile::new("export.txt", &list);
    let mut again_found = Vec::new();
    let (again_character, again) = read_placed(index, format, &relisted, &mut again_found);
    assert!(
        !again_found.iter().any(Diagnostic::is_error),
        "an exported list does not read back: {again_found:?}\n{list}"
    );
    assert_eq!(again_character.map(|c| &c.id), character.map(|c| &c.id));
    assert_eq!(
        totals(&again),
        totals(&placed),
        "the list holds another deck:\n{list}"
    );
    let code = share::encode(&share::deck_lines(format, character, &placed));
    let lines = share::decode(&code).expect("an exported code decodes");
    let shared = InputFile::new("code", &share::list_text(&lines));
    let mut code_found = Vec::new();
    let (_, from_code) = read_placed(index, format, &shared, &mut code_found);
    assert!(
        !code_found.iter().any(Diagnostic::is_error),
        "{code_found:?}"
    );
    assert_eq!(
        totals(&from_code),
        totals(&placed),
        "the code holds another deck"
    );
}

/// A deck file read as `deck check` reads it: its character and its cards,
/// each in its zone.
fn read_placed<'a>(
    index: &CardIndex<'a>,
    format: &deck::DeckFormat,
    file: &InputFile,
    found: &mut Vec<Diagnostic>,
) -> (Option<&'static characters::Character>, Vec<Placed<'a>>) {
    let deck = input::place_deck(index, format, file, found);
    (deck.character, deck.placed)
}

/// Copies of each card in each zone, in one order.
fn totals(placed: &[Placed]) -> Vec<(usize, String, u64)> {
    let mut totals: std::collections::BTreeMap<(usize, String), u64> = Default::default();
    for (zone, card, n) in placed {
        *totals.entry((*zone, card.id.0.clone())).or_default() += n;
    }
    totals.into_iter().map(|((z, id), n)| (z, id, n)).collect()
}

// ─────────────────────────────── lsp ───────────────────────────────

/// The pool `lsp` opens its document in: the editor server's fixture pool,
/// found from either crate that compiles this file (the fuzz crate lives in
/// `fuzz/`). The server reads it and never writes there.
fn lsp_pool() -> std::path::PathBuf {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let here = manifest.join("tests/fixtures/lsp/cards");
    if here.is_dir() {
        here
    } else {
        manifest.join("../tests/fixtures/lsp/cards")
    }
}

/// One protocol frame holding `body`.
fn frame(session: &mut Vec<u8>, body: &[u8]) {
    session.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
    session.extend_from_slice(body);
}

/// The ids of the responses in what the server wrote, in order.
fn response_ids(output: &[u8]) -> Vec<i64> {
    let mut ids = Vec::new();
    let mut rest = output;
    while !rest.is_empty() {
        let text = String::from_utf8_lossy(rest);
        let header_end = text.find("\r\n\r\n").expect("every frame has a header");
        let length: usize = text[..header_end]
            .strip_prefix("Content-Length: ")
            .and_then(|n| n.trim().parse().ok())
            .expect("every frame says its length");
        let start = header_end + 4;
        let body: serde_json::Value =
            serde_json::from_slice(&rest[start..start + length]).expect("every frame is JSON");
        let answers = body.get("result").is_some() || body.get("error").is_some();
        if let (true, Some(id)) = (answers, body.get("id").and_then(|id| id.as_i64())) {
            ids.push(id);
        }
        rest = &rest[start + length..];
    }
    ids
}

/// `blades lsp` through a session the input writes: the input as a frame of
/// its own (garbage gets a parse error), then as a set file opened in a
/// real pool and edited line by line (each edit the text up to that line),
/// with quick fixes, completions, symbols, semantic tokens and formatting
/// asked at places the input picks, then
/// `shutdown` and `exit`. The server must answer every request once (a
/// result or an error), never die, and end cleanly.
pub fn lsp(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let pool = lsp_pool();
    let root = format!("file://{}", pool.display());
    let uri = format!("{root}/fuzzed.yaml");
    let mut session = Vec::new();
    let mut next_id = 0;
    let mut request = |session: &mut Vec<u8>, method: &str, params: serde_json::Value| {
        next_id += 1;
        let message = serde_json::json!({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params});
        frame(session, message.to_string().as_bytes());
    };
    let notify = |session: &mut Vec<u8>, method: &str, params: serde_json::Value| {
        let message = serde_json::json!({"jsonrpc": "2.0", "method": method, "params": params});
        frame(session, message.to_string().as_bytes());
    };
    request(
        &mut session,
        "initialize",
        serde_json::json!({"capabilities": {}, "rootUri": root}),
    );
    notify(&mut session, "initialized", serde_json::json!({}));
    // The input as a frame of its own, when it is no JSON message (one
    // could say `exit`); the server answers it with a parse error.
    if serde_json::from_slice::<serde_json::Value>(data).is_err() {
        frame(&mut session, data);
    }
    notify(
        &mut session,
        "textDocument/didOpen",
        serde_json::json!({"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": ""}}),
    );
    let document = serde_json::json!({"uri": uri});
    let mut upto = 0;
    for (line, part) in text.split_inclusive('\n').take(6).enumerate() {
        upto += part.len();
        notify(
            &mut session,
            "textDocument/didChange",
            serde_json::json!({
                "textDocument": {"uri": uri, "version": line + 2},
                "contentChanges": [{"text": &text[..upto]}],
            }),
        );
        let at = serde_json::json!({"line": line, "character": part.chars().count() / 2});
        request(
            &mut session,
            "textDocument/codeAction",
            serde_json::json!({
                "textDocument": document,
                "range": {"start": at, "end": at},
                "context": {"diagnostics": []},
            }),
        );
        request(
            &mut session,
            "textDocument/completion",
            serde_json::json!({"textDocument": document, "position": at}),
        );
    }
    notify(
        &mut session,
        "textDocument/didChange",
        serde_json::json!({"textDocument": {"uri": uri, "version": 99}, "contentChanges": [{"text": text}]}),
    );
    for method in [
        "textDocument/documentSymbol",
        "textDocument/semanticTokens/full",
    ] {
        request(
            &mut session,
            method,
            serde_json::json!({"textDocument": document}),
        );
    }
    request(
        &mut session,
        "textDocument/formatting",
        serde_json::json!({"textDocument": document, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    request(&mut session, "shutdown", serde_json::Value::Null);
    notify(&mut session, "exit", serde_json::Value::Null);
    let last_id = next_id;

    let mut output = Vec::new();
    let ending = blades::lsp::serve(std::io::Cursor::new(session), &mut output)
        .expect("writing into memory cannot fail");
    assert!(
        matches!(ending, blades::lsp::Ending::Clean),
        "the session ends with shutdown and exit"
    );
    let ids = response_ids(&output);
    let expected: Vec<i64> = (1..=last_id).collect();
    assert_eq!(ids, expected, "every request is answered once, in order");
}

/// A section of the card index: any bytes decode to a set and its cards or
/// to nothing, never a panic, and what decodes is written and read back as
/// the same set and cards.
pub fn index_section(data: &[u8]) {
    let Some((set, cards)) = blades::index::read_section(data) else {
        return;
    };
    let again = blades::index::read_section(&blades::index::write_section(&set, &cards));
    assert_eq!(
        again,
        Some((set, cards)),
        "a section changes when written again"
    );
}

/// A record of the translation tools' memo: any bytes decode to a set
/// file's or a locale file's record or to nothing, never a panic, and a
/// record written is read back and written again as the same bytes.
pub fn i18n_memo(data: &[u8]) {
    let (set, locale) = blades::i18n::memo::read_and_write_again(data);
    for written in [set, locale].into_iter().flatten() {
        let (set, locale) = blades::i18n::memo::read_and_write_again(&written);
        assert!(
            set.as_ref() == Some(&written) || locale.as_ref() == Some(&written),
            "a record changes when written again"
        );
    }
}

/// The translation reports' answers file: any bytes decode to answers or
/// to nothing, never a panic, and answers written read back and write
/// again as the same bytes.
pub fn i18n_answers(data: &[u8]) {
    if let Some(written) = blades::i18n::answers::read_and_write_again(data) {
        let again = blades::i18n::answers::read_and_write_again(&written);
        assert_eq!(
            again.as_ref(),
            Some(&written),
            "answers change when written again"
        );
    }
}

/// The head of a request to `blades serve`: any bytes are a head not yet
/// whole, a request, or refused with a 4xx, never a panic; a request reads
/// the same from its head's bytes alone.
pub fn http_head(data: &[u8]) {
    let read = blades::serve::read_head_bytes(data);
    match &read {
        blades::serve::HeadRead::Partial => {}
        blades::serve::HeadRead::Refused(status) => {
            assert!((400..500).contains(status), "refused with {status}")
        }
        blades::serve::HeadRead::Request { length, .. } => {
            let again = blades::serve::read_head_bytes(&data[..*length]);
            assert_eq!(again, read, "the head alone reads otherwise");
        }
    }
}
