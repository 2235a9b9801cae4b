//! The API of `blades serve`: each handler one call into the library (the
//! search language, a card's summary and face, the deck check and export,
//! the player checks, a deck's print-and-play sheet) and its answer as
//! JSON (the sheet as the HTML `blades print` writes).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;
use serde_json::value::RawValue;

use super::Site;
use super::http::{self, MAX_QUERY, Method, Reply, Stages, Target};
use crate::cards::CardIndex;
use crate::compile::find_set;
use crate::diagnostics::{Diagnostic, Sources};
use crate::effect::Lang;
use crate::faces::render::face_svg;
use crate::faces::sheets::{self, Paper, PrintOptions};
use crate::faces::svg::FaceOptions;
use crate::i18n::{self, glossary::Glossary};
use crate::model::{CardShown, Database};
use crate::report;
use crate::rules::characters;
use crate::rules::check;
use crate::rules::deck::{DeckFormat, DeckReport};
use crate::rules::deck_diff::DeckDiff;
use crate::rules::input::{self, InputFile};
use crate::rules::missing::MissingReport;
use crate::rules::stats::DeckStats;
use crate::search::{self, Catalog, Index, Query};
use crate::summary;
use crate::words::{CardKind, Id};

/// What every handler reads: the site, its search index and its cards
/// by id and name, made once.
pub struct State<'a> {
    pub site: &'a Site,
    pub index: &'a Index<'a>,
    pub catalog: &'a Catalog<'a>,
    /// One for the server's life: its map of ids is filled once, not at
    /// every request (100,000 ids hashed again each time).
    pub cards: &'a CardIndex<'a>,
    /// Every type a card of the pool has, gathered once.
    pub types: &'a [String],
    /// The `Host` names a request must give (none: any, on an address
    /// others reach by names of their own).
    pub hosts: Option<Vec<String>>,
}

impl State<'_> {
    fn database(&self) -> &Database {
        &self.site.ground.database
    }
}

/// Routes `/api/REST`; `body` is the request's, read (a POST's only).
pub fn route(
    state: &State,
    method: &Method,
    rest: &str,
    target: &Target,
    body: Option<Result<String, Reply>>,
) -> Reply {
    let reading = http::reads(method);
    if let Some(handler) = posted(rest) {
        return match body {
            Some(Ok(text)) if *method == Method::Post => handler(state, target, &text),
            Some(Err(reply)) => reply,
            _ => Reply::not_allowed("POST"),
        };
    }
    match rest {
        "search" if reading => search(state, target),
        "formats" if reading => formats(state),
        "score/modes" if reading => score_modes(),
        "deck/sheet" if reading => deck_sheet(state, target),
        // Where the sheet's own link to its fonts leads (`fonts.css` beside
        // it): the app's faces' fonts.
        "deck/fonts.css" if reading => super::assets::asset("fonts.css"),
        "search" | "formats" | "score/modes" | "deck/sheet" | "deck/fonts.css" => {
            Reply::not_allowed("GET, HEAD")
        }
        _ => match rest.strip_prefix("card/") {
            Some(id) if reading => card(state, id, target),
            Some(_) => Reply::not_allowed("GET, HEAD"),
            None => Reply::error(404, format!("no API at `/api/{rest}`")),
        },
    }
}

/// A handler of a text posted to it.
type Posted = fn(&State, &Target, &str) -> Reply;

/// The handler of each path that takes a posted text (a deck, a
/// collection, a binder, a trade, a score sheet).
fn posted(rest: &str) -> Option<Posted> {
    Some(match rest {
        "deck/check" => deck,
        "deck/diff" => deck_diff,
        "deck/stats" => deck_stats,
        "deck/missing" => deck_missing,
        "collection/check" => collection_check,
        "collection/best" => collection_best,
        "trade/check" => trade_check,
        "score" => score,
        _ => return None,
    })
}

/// A yes-or-no option (`duel=true`); absent is no.
fn flag(target: &Target, key: &str) -> Result<bool, Reply> {
    match target.get(key) {
        None | Some("" | "false" | "0") => Ok(false),
        Some("true" | "1") => Ok(true),
        Some(other) => Err(Reply::error(
            400,
            format!("`{key}` is `true` or `false`, not `{other}`"),
        )),
    }
}

/// A player check's answer: the report the command prints for the same
/// text under the same name (`--format json`), byte for byte, and the rows
/// of the cards it names, by id.
#[derive(Serialize)]
struct CheckAnswer {
    report: Box<RawValue>,
    cards: BTreeMap<String, Row>,
    /// Each symbol of the pool (`fire`, `mage`) as the language asked
    /// writes it: the glossary's official term in Japanese.
    words: BTreeMap<String, String>,
}

fn check_answer(report: &impl Serialize, state: &State, lang: Lang) -> Reply {
    let Ok(Ok(raw)) = serde_json::to_string_pretty(report).map(RawValue::from_string) else {
        return Reply::error(500, "the report could not be written");
    };
    let mut ids = Vec::new();
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(raw.get()) {
        cards_named(&value, &mut ids);
    }
    let mut cards = BTreeMap::new();
    for id in ids {
        if let Some(card) = state.cards.by_id(&id) {
            cards.insert(id, Row::of(card, state.database(), lang));
        }
    }
    Reply::json(&CheckAnswer {
        report: raw,
        cards,
        words: symbol_words(state.types, lang),
    })
}

/// Every element, and every type a card of the pool has (`types`), in a
/// language.
fn symbol_words(types: &[String], lang: Lang) -> BTreeMap<String, String> {
    let elements = crate::words::Element::ALL.iter().map(|e| e.as_str());
    (elements.chain(types.iter().map(String::as_str)))
        .map(|value| (value.to_string(), word_in(value, lang)))
        .collect()
}

/// Every type a card of the pool has, once each, in order.
pub fn pool_types(database: &Database) -> Vec<String> {
    let types = (database.cards.iter()).flat_map(|c| c.types.iter().map(|t| t.0.as_str()));
    let distinct: std::collections::BTreeSet<&str> = types.collect();
    distinct.into_iter().map(str::to_string).collect()
}

/// An id (`deck-box`, `fire`) as a language writes it: the glossary's
/// official term in Japanese, the id's words in English.
fn word_in(value: &str, lang: Lang) -> String {
    let official = match lang {
        Lang::Ja => Glossary::builtin().official_for(value).map(str::to_string),
        Lang::En => None,
    };
    official.unwrap_or_else(|| value.replace('-', " "))
}

/// Every card id a report names: the strings of its `cards` lists, at any
/// depth (a violation's, a side's, a chosen collection's).
fn cards_named(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, inner) in map {
                match (key.as_str(), inner) {
                    ("cards", serde_json::Value::Array(items)) => {
                        out.extend(items.iter().filter_map(|i| i.as_str().map(str::to_string)));
                        items.iter().for_each(|i| cards_named(i, out));
                    }
                    _ => cards_named(inner, out),
                }
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|i| cards_named(i, out)),
        _ => {}
    }
}

/// [`asked`], and a yes-or-no option of the request ([`flag`]).
fn asked_with_flag(
    target: &Target,
    fallback: &str,
    text: &str,
    key: &str,
) -> Result<(Lang, String, check::Read, bool), Reply> {
    let (lang, shown, read) = asked(target, fallback, text)?;
    Ok((lang, shown, read, flag(target, key)?))
}

/// What every player check reads of a request: the language, the name the
/// text goes by (`name=`, `fallback` without), and the text as a file.
fn asked(
    target: &Target,
    fallback: &str,
    text: &str,
) -> Result<(Lang, String, check::Read), Reply> {
    let lang = lang(target)?;
    let name = target.get("name").unwrap_or(fallback);
    Ok((
        lang,
        input::pasted_shown(name, text),
        InputFile::pasted(name, text),
    ))
}

/// `POST /api/collection/check?duel=BOOL&name=NAME&lang=en|ja`: a
/// collection (`collection check`).
fn collection_check(state: &State, target: &Target, text: &str) -> Reply {
    let (lang, shown, read, duel) = match asked_with_flag(target, "collection", text, "duel") {
        Ok(asked) => asked,
        Err(reply) => return reply,
    };
    let checked = check::collection(state.database(), state.cards, &shown, read, duel);
    check_answer(&checked.report, state, lang)
}

/// `POST /api/collection/best?duel=BOOL&name=NAME&lang=en|ja`: the best
/// collection of a binder (`collection best`).
fn collection_best(state: &State, target: &Target, text: &str) -> Reply {
    let (lang, shown, read, duel) = match asked_with_flag(target, "binder", text, "duel") {
        Ok(asked) => asked,
        Err(reply) => return reply,
    };
    let checked = check::best(state.cards, &shown, read, duel);
    check_answer(&checked.report, state, lang)
}

/// `POST /api/trade/check?free-market=BOOL&name=NAME&lang=en|ja`: both
/// sides of a trade (`trade check`).
fn trade_check(state: &State, target: &Target, text: &str) -> Reply {
    let (lang, shown, read, free_market) =
        match asked_with_flag(target, "trade", text, "free-market") {
            Ok(asked) => asked,
            Err(reply) => return reply,
        };
    let checked = check::trade(state.cards, &shown, read, free_market);
    check_answer(&checked.report, state, lang)
}

/// `POST /api/score?name=NAME` with a score sheet: the ranking `blades
/// score --format json` prints, byte for byte; 400 with the located
/// findings when the sheet cannot be scored.
fn score(_: &State, target: &Target, text: &str) -> Reply {
    let name = target.get("name").unwrap_or("score");
    let file = InputFile::new(name, text);
    let mut found = Vec::new();
    let report = crate::rules::score::score(&file, &mut found);
    let mut sources = Sources::default();
    sources.insert(file.path.clone(), file.text.clone());
    crate::diagnostics::sort(&mut found);
    match report.map(|r| serde_json::to_string_pretty(&r)) {
        Some(Ok(mut json)) => {
            json.push('\n');
            Reply::bytes(200, http::JSON, Cow::Owned(json.into_bytes()))
        }
        Some(Err(_)) => Reply::error(500, "the ranking could not be written"),
        None => unreadable_input(&found, &sources),
    }
}

/// `GET /api/score/modes`: the scoring modes (the default first) and the
/// tournaments a sheet places players in, by id and name: what a score
/// sheet's form asks for.
#[derive(Serialize)]
struct ModeEntry<'a> {
    id: &'a str,
    name: &'a str,
    tournaments: Vec<TournamentEntry<'a>>,
}

#[derive(Serialize)]
struct TournamentEntry<'a> {
    id: &'a str,
    name: &'a str,
}

fn score_modes() -> Reply {
    let modes: Vec<ModeEntry> = (crate::rules::score::modes().iter())
        .map(|mode| ModeEntry {
            id: &mode.id,
            name: &mode.name,
            tournaments: (mode.tournaments.iter())
                .map(|t| TournamentEntry {
                    id: &t.id,
                    name: &t.name,
                })
                .collect(),
        })
        .collect();
    Reply::json(&modes)
}

/// The language asked (`lang=en|ja`, English by default).
fn lang(target: &Target) -> Result<Lang, Reply> {
    match target.get("lang").unwrap_or("en") {
        "en" => Ok(Lang::En),
        "ja" => Ok(Lang::Ja),
        other => Err(Reply::error(
            400,
            format!("unknown language `{other}`: the app speaks `en` and `ja`"),
        )),
    }
}

fn code(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "en",
        Lang::Ja => "ja",
    }
}

/// A card as a results table's row, in a language (as `blades search`
/// prints it): id, name, set, kind, STAR, elements, types, copies.
#[derive(Serialize)]
struct Row {
    id: Id,
    kind: CardKind,
    cells: [String; 8],
}

impl Row {
    fn of(card: &crate::model::Card, database: &Database, lang: Lang) -> Row {
        Row {
            id: card.id.clone(),
            kind: card.kind,
            cells: search::table_row(card, database, code(lang)),
        }
    }
}

/// `GET /api/search?q=QUERY&lang=en|ja&from=N&limit=M`: the count of
/// the cards found, and the rows of `limit` of them from position `from`
/// (0 and [`PAGE`] without): a list shows a screenful, and asks for more
/// as it scrolls; a one-letter query at 100,000 cards is a count and a
/// page, not tens of megabytes of rows.
#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
struct Found<'a> {
    query: &'a str,
    /// What the query means, in the language asked (`--explain`).
    explain: String,
    /// How many cards match, in all.
    count: usize,
    /// The position of the first row below among all the cards found.
    from: usize,
    /// The table's heading, in the language asked.
    head: [&'static str; 8],
    /// The cards from `from` on, in the order `blades search --ids`
    /// prints them.
    cards: Vec<Row>,
    hints: Vec<String>,
}

/// The rows of a search answered when the request names no `limit`.
pub const PAGE: usize = 100;
/// The most rows a search answers at once.
pub const MAX_PAGE: usize = 1000;

/// A whole number the request may give (`from=`, `limit=`), `fallback`
/// without.
fn count_asked(target: &Target, key: &str, fallback: usize) -> Result<usize, Reply> {
    match target.get(key) {
        None | Some("") => Ok(fallback),
        Some(text) => text
            .parse()
            .map_err(|_| Reply::error(400, format!("`{key}` is a whole number, not `{text}`"))),
    }
}

/// The page a search request asks for: where it starts and how many rows.
fn page_asked(target: &Target) -> Result<(usize, usize), Reply> {
    let from = count_asked(target, "from", 0)?;
    let limit = count_asked(target, "limit", PAGE)?;
    if limit > MAX_PAGE {
        return Err(Reply::error(
            400,
            format!("`limit` is at most {MAX_PAGE} rows, not {limit}"),
        ));
    }
    Ok((from, limit))
}

fn search(state: &State, target: &Target) -> Reply {
    let lang = match lang(target) {
        Ok(lang) => lang,
        Err(reply) => return reply,
    };
    let (from, limit) = match page_asked(target) {
        Ok(page) => page,
        Err(reply) => return reply,
    };
    let text = target.get("q").unwrap_or("");
    if text.len() > MAX_QUERY {
        return Reply::error(400, format!("a query is at most {MAX_QUERY} bytes"));
    }
    let mut stages = Stages::start();
    let query = match Query::parse_in(text, state.catalog, code(lang)) {
        Ok(query) => query,
        Err(problems) => return unreadable_query(text, &problems),
    };
    let database = state.database();
    let found: Vec<&crate::model::Card> = state.index.search(&query).collect();
    stages.lap("search");
    let cards: Vec<Row> = (found.iter().skip(from).take(limit))
        .map(|card| Row::of(card, database, lang))
        .collect();
    stages.lap("rows");
    let reply = Reply::json(&Found {
        query: text,
        explain: query.explain(lang),
        count: found.len(),
        from,
        head: search::table_head(code(lang)),
        cards,
        hints: query.hints.iter().map(|h| h.text.clone()).collect(),
    });
    stages.onto("json", reply)
}

/// A query the search language cannot read: 400, its first finding's
/// message as the error, and every finding located in the query (the
/// report `blades search --format json` prints).
fn unreadable_query(text: &str, problems: &[Diagnostic]) -> Reply {
    let mut sources = Sources::default();
    sources.insert(Arc::from(search::QUERY_PATH), Arc::from(text));
    let message = problems
        .first()
        .map_or_else(|| "the query cannot be read".to_string(), full_message);
    let located = RawValue::from_string(report::render_json(problems, &sources)).ok();
    Reply::error_with(400, &message, located)
}

/// A finding's message and its help, for one line of a page.
fn full_message(finding: &Diagnostic) -> String {
    match &finding.help {
        Some(help) => format!("{} ({help})", finding.message),
        None => finding.message.to_string(),
    }
}

/// `GET /api/card/ID?lang=en|ja`: the card as `card show --format json`
/// gives it, its summary in every language (`card show`'s text) and its
/// face in the language asked.
#[derive(Serialize)]
struct CardPage<'a> {
    #[serde(flatten)]
    shown: CardShown<'a>,
    summary: String,
    /// The card as a results row, under the table's heading.
    head: [&'static str; 8],
    row: Row,
    face: Option<String>,
}

fn card(state: &State, name: &str, target: &Target) -> Reply {
    let lang = match lang(target) {
        Ok(lang) => lang,
        Err(reply) => return reply,
    };
    let database = state.database();
    let card = match i18n::card_named(database, name) {
        Ok(card) => card,
        Err(unknown) => return Reply::error(404, full_message(&unknown)),
    };
    let set = find_set(database, &card.set);
    let options = FaceOptions {
        font_url: "/assets/fonts/".to_string(),
        art: state.site.art.clone(),
    };
    Reply::json(&CardPage {
        shown: CardShown { card, set },
        summary: summary::render(card, set, None),
        head: search::table_head(code(lang)),
        row: Row::of(card, database, lang),
        face: face_svg(database, &card.id.0, code(lang), &options),
    })
}

/// `GET /api/formats`: the deck formats the pool knows, the default
/// first, each with its zones.
#[derive(Serialize)]
struct FormatEntry<'a> {
    id: &'a Id,
    name: &'a str,
    zones: Vec<ZoneEntry<'a>>,
}

#[derive(Serialize)]
struct ZoneEntry<'a> {
    id: &'a Id,
    name: &'a str,
}

#[derive(Serialize)]
struct FormatList<'a> {
    /// The pool's folder; `null` for the built-in pool.
    pool: Option<&'a str>,
    formats: Vec<FormatEntry<'a>>,
}

fn formats(state: &State) -> Reply {
    let formats = (state.site.ground.formats.list.iter())
        .map(|f| FormatEntry {
            id: &f.id,
            name: &f.name,
            zones: (f.zones.iter())
                .map(|z| ZoneEntry {
                    id: &z.id,
                    name: &z.name,
                })
                .collect(),
        })
        .collect();
    Reply::json(&FormatList {
        pool: state.site.pool.as_deref(),
        formats,
    })
}

/// `POST /api/deck/check?rules=FORMAT&name=NAME&lang=en|ja` with a deck
/// (any form `deck check` reads, a share code too) as the body.
#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
struct DeckAnswer {
    /// What `blades deck check --format json` prints for the same text
    /// under the same name, byte for byte.
    report: Box<RawValue>,
    /// What `blades deck export` prints, when the deck can be read whole.
    list: Option<String>,
    share_code: Option<String>,
    /// Each bound's count, named in the language asked.
    slots: Vec<SlotEntry>,
    /// The rows of the cards the report names, by id.
    cards: BTreeMap<String, Row>,
    /// The deck's character, as the language asked writes its name.
    character: Option<String>,
}

#[derive(Serialize)]
struct SlotEntry {
    what: String,
    /// The zones counted together, by id (`/api/formats` names them).
    zones: Vec<Id>,
    count: u64,
    min: Option<u64>,
    limit: Option<u64>,
}

fn deck(state: &State, target: &Target, text: &str) -> Reply {
    let ground = &state.site.ground;
    let (lang, format, shown, read) = match deck_asked(ground, target, text) {
        Ok(asked) => asked,
        Err(reply) => return reply,
    };
    let mut stages = Stages::start();
    let index = state.cards;
    let checked = check::deck(index, format, &shown, read.clone());
    stages.lap("check");
    // The command prints the report pretty: the same bytes here.
    let report = match serde_json::to_string_pretty(&checked.report).map(RawValue::from_string) {
        Ok(Ok(report)) => report,
        _ => return Reply::error(500, "the report could not be written"),
    };
    stages.lap("report");
    let exported = read
        .ok()
        .and_then(|file| check::export(index, format, &shown, &file).ok());
    let (list, share_code) = exported.map(|e| (e.list, e.share_code)).unzip();
    stages.lap("export");
    let cards = rows_named(&checked.report, state, lang);
    stages.lap("rows");
    let reply = Reply::json(&DeckAnswer {
        report,
        list,
        share_code,
        slots: slots(&checked.report, lang),
        cards,
        character: (checked.report.character.as_ref()).map(|c| character_in(&c.name, lang)),
    });
    stages.onto("json", reply)
}

/// What a deck request reads: [`asked`] (a deck by default), and the
/// format `rules=` names ([`format_asked`]).
fn deck_asked<'g>(
    ground: &'g check::Ground,
    target: &Target,
    text: &str,
) -> Result<(Lang, &'g DeckFormat, String, check::Read), Reply> {
    let (lang, shown, read) = asked(target, "deck", text)?;
    Ok((lang, format_asked(ground, target)?, shown, read))
}

/// The deck format asked (`rules=FORMAT`), or the pool's default.
fn format_asked<'g>(ground: &'g check::Ground, target: &Target) -> Result<&'g DeckFormat, Reply> {
    match target.get("rules") {
        None | Some("") => Ok(ground.formats.default_format()),
        Some(name) => ground.formats.resolve(name).map_err(|unknown| {
            let message = format!(
                "unknown deck format `{name}`; formats: {}",
                unknown.known.join(", ")
            );
            Reply::error(400, message)
        }),
    }
}

/// A JSON body of two texts: the decks `deck diff` compares.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Two {
    a: String,
    b: String,
}

/// The body as two texts, or 400 saying what it should be.
fn two_texts(body: &str) -> Result<Two, Reply> {
    serde_json::from_str(body).map_err(|e| {
        Reply::error(
            400,
            format!("the body must be JSON `{{\"a\": TEXT, \"b\": TEXT}}`: {e}"),
        )
    })
}

/// `POST /api/deck/diff?rules=FORMAT&a=NAME&b=NAME&lang=en|ja` with
/// `{"a": TEXT, "b": TEXT}`: what `blades deck diff --format json` prints
/// for the two decks under those names, with the names of the cards and
/// characters it names in the language asked; 400 with the located
/// findings when either cannot be read whole.
fn deck_diff(state: &State, target: &Target, body: &str) -> Reply {
    let texts = match two_texts(body) {
        Ok(texts) => texts,
        Err(reply) => return reply,
    };
    let ground = &state.site.ground;
    let format = match format_asked(ground, target) {
        Ok(format) => format,
        Err(reply) => return reply,
    };
    let (name_a, name_b) = (
        target.get("a").unwrap_or("a"),
        target.get("b").unwrap_or("b"),
    );
    if name_a == name_b {
        return Reply::error(400, "the two decks need two names (`a=` and `b=`)");
    }
    let lang = match lang(target) {
        Ok(lang) => lang,
        Err(reply) => return reply,
    };
    let (shown_a, shown_b) = (
        input::pasted_shown(name_a, &texts.a),
        input::pasted_shown(name_b, &texts.b),
    );
    let compared = check::deck_diff(
        state.cards,
        format,
        (&shown_a, InputFile::pasted(name_a, &texts.a)),
        (&shown_b, InputFile::pasted(name_b, &texts.b)),
    );
    let Some(diff) = compared.answer else {
        return unreadable_input(&compared.problems, &compared.sources);
    };
    let changed = (diff.zones.iter()).flat_map(|zone| {
        let counts = zone.added.iter().chain(&zone.removed).map(|c| &c.id);
        counts.chain(zone.changed.iter().map(|c| &c.id))
    });
    let names = names_in(state, changed, lang);
    let who = (diff.character.iter()).flat_map(|c| c.a.iter().chain(&c.b));
    let characters = characters_in(who, lang);
    Reply::json(&DiffAnswer {
        diff,
        names,
        characters,
    })
}

/// `POST /api/deck/diff`: the command's change and the names a page
/// lists it by.
#[derive(Serialize)]
struct DiffAnswer {
    /// What `blades deck diff --format json` prints, as it prints it.
    diff: DeckDiff,
    /// Each card the change names, by id, in the language asked.
    names: BTreeMap<String, String>,
    /// Each character the change names, by its name in the change, in
    /// the language asked.
    characters: BTreeMap<String, String>,
}

/// `POST /api/deck/stats?rules=FORMAT&name=NAME&lang=en|ja` with a deck (any form
/// `deck check` reads) as the body: what `blades deck stats --format json`
/// prints for it under that name, with the words for its values in the
/// language asked; 400 with the located findings when it
/// cannot be read whole.
fn deck_stats(state: &State, target: &Target, text: &str) -> Reply {
    let ground = &state.site.ground;
    let (lang, format, shown, read) = match deck_asked(ground, target, text) {
        Ok(asked) => asked,
        Err(reply) => return reply,
    };
    let counted = check::deck_stats(state.cards, format, &shown, read);
    let Some(stats) = counted.answer else {
        return unreadable_input(&counted.problems, &counted.sources);
    };
    let words = stats_words(&stats, lang);
    let collected = stats.collections.iter().flat_map(|c| &c.cards);
    let names = names_in(state, collected, lang);
    Reply::json(&StatsAnswer {
        stats,
        words,
        names,
    })
}

/// `POST /api/deck/stats`: the command's statistics and the words a page
/// shows for their values.
#[derive(Serialize)]
struct StatsAnswer {
    /// What `blades deck stats --format json` prints, as it prints it.
    stats: DeckStats,
    /// Each kind, element and type the statistics name (`deck-box`,
    /// `fire`), as the language asked writes it: the glossary's official
    /// term in Japanese.
    words: BTreeMap<String, String>,
    /// Each card of the collections it lists, by id, in the language asked.
    names: BTreeMap<String, String>,
}

fn stats_words(stats: &DeckStats, lang: Lang) -> BTreeMap<String, String> {
    let named = (stats.kinds.iter())
        .chain(&stats.elements)
        .chain(&stats.types)
        .map(|spread| spread.value.as_str())
        .chain(stats.collections.iter().map(|c| c.symbol.as_str()));
    named
        .map(|value| (value.to_string(), word_in(value, lang)))
        .collect()
}

/// `POST /api/deck/missing?rules=FORMAT&owned=binder|copies&a=NAME&b=NAME&lang=en|ja`
/// with `{"a": DECK, "b": OWNED}`: what `blades deck missing --format
/// json` prints for the two texts under those names (`deck` and `owned`
/// without), with the names of its cards in the language asked: the cards the deck needs that what is owned (a binder, or a
/// copies file as `copies check` reads it) lacks; 400 with the located
/// findings when either cannot be read whole.
fn deck_missing(state: &State, target: &Target, body: &str) -> Reply {
    let texts = match two_texts(body) {
        Ok(texts) => texts,
        Err(reply) => return reply,
    };
    let ground = &state.site.ground;
    let format = match format_asked(ground, target) {
        Ok(format) => format,
        Err(reply) => return reply,
    };
    let lang = match lang(target) {
        Ok(lang) => lang,
        Err(reply) => return reply,
    };
    let kind = match target.get("owned") {
        None | Some("" | "binder") => check::Owned::Binder,
        Some("copies") => check::Owned::Copies,
        Some(other) => {
            return Reply::error(
                400,
                format!("`owned` is `binder` or `copies`, not `{other}`"),
            );
        }
    };
    let (deck_name, owned_name) = (
        target.get("a").unwrap_or("deck"),
        target.get("b").unwrap_or("owned"),
    );
    if deck_name == owned_name {
        return Reply::error(400, "the two texts need two names (`a=` and `b=`)");
    }
    let compared = check::deck_missing(
        state.cards,
        format,
        (
            &input::pasted_shown(deck_name, &texts.a),
            InputFile::pasted(deck_name, &texts.a),
        ),
        (
            &input::pasted_shown(owned_name, &texts.b),
            InputFile::pasted(owned_name, &texts.b),
            kind,
        ),
    );
    let Some(missing) = compared.answer else {
        return unreadable_input(&compared.problems, &compared.sources);
    };
    let names = names_in(state, missing.cards.iter().map(|c| &c.id), lang);
    Reply::json(&MissingAnswer { missing, names })
}

/// `POST /api/deck/missing`: the command's answer and the names a page
/// lists its cards by.
#[derive(Serialize)]
struct MissingAnswer {
    /// What `blades deck missing --format json` prints, as it prints it.
    missing: MissingReport,
    /// Each card it lists, by id, in the language asked.
    names: BTreeMap<String, String>,
}

/// Each card's name in a language (its translation in the database, else
/// the English), by id: what a page lists cards by.
fn names_in<'i>(
    state: &State,
    ids: impl IntoIterator<Item = &'i Id>,
    lang: Lang,
) -> BTreeMap<String, String> {
    (ids.into_iter())
        .filter_map(|id| {
            let card = state.cards.by_id(&id.0)?;
            Some((id.0.clone(), card.name_in(code(lang)).text.to_string()))
        })
        .collect()
}

/// Each character named (by its English name), as the language asked
/// writes it: its Japanese name when it has one.
fn characters_in<'n>(
    named: impl IntoIterator<Item = &'n String>,
    lang: Lang,
) -> BTreeMap<String, String> {
    (named.into_iter())
        .map(|name| (name.clone(), character_in(name, lang)))
        .collect()
}

fn character_in(name: &str, lang: Lang) -> String {
    let japanese = match lang {
        Lang::Ja => (characters::all().iter())
            .find(|c| c.name == name)
            .and_then(|c| c.ja.clone()),
        Lang::En => None,
    };
    japanese.unwrap_or_else(|| name.to_string())
}

/// `GET /api/deck/sheet?deck=TEXT&rules=FORMAT&lang=en|ja&paper=a4|letter&name=NAME`:
/// the deck's print-and-play sheet (the deck as any text `deck check`
/// reads, a share code above all), the HTML `blades print --deck` writes
/// for it under that name, byte for byte (in English when the pool has no
/// translation into the language asked); 400 with the located findings
/// when it cannot be read whole. A GET, so that a link opens it.
fn deck_sheet(state: &State, target: &Target) -> Reply {
    let ground = &state.site.ground;
    let text = target.get("deck").unwrap_or("");
    let (lang, format, shown, read) = match deck_asked(ground, target, text) {
        Ok(asked) => asked,
        Err(reply) => return reply,
    };
    let paper = match target.get("paper") {
        None | Some("") => Paper::A4,
        Some(name) => match Paper::parse(name) {
            Some(paper) => paper,
            None => {
                return Reply::error(400, format!("`paper` is `a4` or `letter`, not `{name}`"));
            }
        },
    };
    let read = check::deck_cards(state.cards, format, read);
    let Some(cards) = read.answer else {
        return unreadable_input(&read.problems, &read.sources);
    };
    if cards.is_empty() {
        return Reply::error(400, "the deck has no cards to print");
    }
    // A pool that has no translation into the page's language prints in
    // English (the command refuses such a `--lang`; a page cannot choose).
    let printed_in = i18n::choose_languages(state.database(), code(lang))
        .ok()
        .and_then(|mut langs| langs.pop())
        .unwrap_or_else(|| "en".to_string());
    let options = PrintOptions {
        paper,
        lang: printed_in,
        copies: false,
        art: state.site.art.clone(),
    };
    let sheet = sheets::deck_sheets(state.database(), &shown, &cards, &options);
    let html = sheets::html(&sheet).into_bytes();
    Reply::bytes(200, "text/html; charset=utf-8", Cow::Owned(html))
}

/// Inputs a check cannot read: 400, the first error's message, and every
/// finding located in the inputs (as `--format json` reports them).
fn unreadable_input(problems: &[Diagnostic], sources: &Sources) -> Reply {
    let first = problems.iter().find(|p| p.is_error()).or(problems.first());
    let message = first.map_or_else(|| "the input cannot be read".to_string(), full_message);
    let located = RawValue::from_string(report::render_json(problems, sources)).ok();
    Reply::error_with(400, &message, located)
}

/// The report's bounds as a page shows them: what each counts, in the
/// glossary's word for a kind in Japanese.
fn slots(report: &DeckReport, lang: Lang) -> Vec<SlotEntry> {
    (report.slots.iter())
        .map(|slot| {
            let word = slot.kind.and_then(|kind| match lang {
                Lang::Ja => Glossary::builtin()
                    .official_for(kind.as_str())
                    .map(str::to_string),
                Lang::En => None,
            });
            SlotEntry {
                what: word.unwrap_or_else(|| slot.words.clone()),
                zones: slot.zones.clone(),
                count: slot.count,
                min: slot.min,
                limit: slot.limit,
            }
        })
        .collect()
}

/// The rows of every card a deck report names (its cards and those of
/// its violations), by id.
fn rows_named(report: &DeckReport, state: &State, lang: Lang) -> BTreeMap<String, Row> {
    let named = (report.cards.iter()).chain(report.common.violations.iter().flat_map(|v| &v.cards));
    let mut rows = BTreeMap::new();
    for id in named {
        if rows.contains_key(&id.0) {
            continue;
        }
        if let Some(card) = state.cards.by_id(&id.0) {
            rows.insert(id.0.clone(), Row::of(card, state.database(), lang));
        }
    }
    rows
}
