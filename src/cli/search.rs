//! `blades search QUERY`: the cards of a pool or a built database that
//! match a query (see `docs/search.md`).

use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use unicode_width::UnicodeWidthStr;

use blades::diagnostics::Sources;
use blades::effect::{Keywords, Lang};
use blades::model::{Card, Database};
use blades::report::{Format, shown};
use blades::search::{self, Catalog, Columns, Index, Query, SearchReport};

use super::out::{self, stderrln, stdout_str, stdoutln};
use super::{Context, exit, kept_until_exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The query, quoted (`'e:fire t:construct star>=3'`): several words are one query. After
    /// `--` when it starts with `-`: `blades search -- '-is:vanilla e:fire'` (see docs/search.md).
    #[arg(value_name = "QUERY", required = true, num_args = 1..)]
    query: Vec<String>,
    /// Search this built database (`blades build`'s `dist/cards.json`) instead of the pool.
    #[arg(long, value_name = "FILE")]
    db: Option<PathBuf>,
    /// Say what the query means, in English and Japanese, before the results.
    #[arg(long, conflicts_with = "ids")]
    explain: bool,
    /// Print only the ids of the cards found, one per line (for scripts).
    #[arg(long)]
    ids: bool,
    /// The language of the results table: `en` (the default) or a language the pool is
    /// translated into (`ja`): names, set names, kinds, elements and types as translated.
    #[arg(long, value_name = "LANG", default_value = "en")]
    lang: String,
}

pub fn run(context: &Context, args: Args) -> ExitCode {
    if args.ids && context.format == Format::Json {
        return context.refuse(
            blades::diagnostics::Diagnostic::general(
                blades::diagnostics::Code::Usage,
                "`--ids` prints plain lines; it does not go with `--format json`",
            )
            .with_help("drop one of them: the JSON report lists every card's id too"),
        );
    }
    let text = args.query.join(" ");
    // Read first without the cards' texts, which most queries never look
    // at; again whole when the query or its report needs them.
    let source = match Source::of(context, &args) {
        Ok(source) => source,
        Err(code) => return code,
    };
    // From the card index, only the cards found are kept when the query
    // allows it; else the database is read.
    let shows_texts = context.format == Format::Json;
    if let Some((database, languages)) = source.sieved(&text, &args.lang, shows_texts) {
        let searched = Searched {
            database,
            columns: Columns::WithoutTexts,
            languages: Some(languages),
        };
        if let Answered::Done(code) = answer(context, &args, &text, searched) {
            return code;
        }
    }
    let mut columns = Columns::WithoutTexts;
    loop {
        let (database, has) = match source.load(context, columns) {
            Ok(loaded) => loaded,
            Err(code) => return code,
        };
        let searched = Searched {
            database,
            columns: has,
            languages: None,
        };
        match answer(context, &args, &text, searched) {
            Answered::Done(code) => return code,
            Answered::NeedsTexts => columns = Columns::All,
        }
    }
}

/// How a search went on the database it read.
enum Answered {
    Done(ExitCode),
    /// The database was read without the texts the query needs.
    NeedsTexts,
}

/// A database a query is answered against.
struct Searched {
    database: &'static Database,
    /// The columns each card has.
    columns: Columns,
    /// The languages of the whole pool, when the database holds only the
    /// cards found (else its own).
    languages: Option<Vec<String>>,
}

/// Answers the query against the database `searched`.
fn answer(context: &Context, args: &Args, text: &str, searched: Searched) -> Answered {
    let Searched {
        database,
        columns,
        languages,
    } = searched;
    let languages = languages.unwrap_or_else(|| blades::i18n::languages(database));
    let lang = match blades::i18n::choose_among(languages, &args.lang) {
        Ok(langs) if langs.len() == 1 => langs[0].clone(),
        Ok(_) => {
            return Answered::Done(
                context.refuse(
                    blades::diagnostics::Diagnostic::general(
                        blades::diagnostics::Code::UnknownLanguage,
                        "the results table is in one language",
                    )
                    .with_help("use `--lang en` or `--lang ja`"),
                ),
            );
        }
        Err(unknown) => return Answered::Done(context.refuse(*unknown)),
    };
    let index = Index::new(database);
    let catalog = Catalog::for_index(&index, &Keywords::builtin());
    let query = match Query::parse_in(text, &catalog, &lang) {
        Ok(query) => query,
        Err(problems) => {
            let mut sources = Sources::default();
            sources.insert(Arc::from(search::QUERY_PATH), Arc::from(text));
            return Answered::Done(context.fail(exit::CANNOT_RUN, &problems, &sources));
        }
    };
    let shows_texts = context.format == Format::Json;
    if columns != Columns::All
        && search::columns_needed(&query, &catalog, shows_texts) == Columns::All
    {
        return Answered::NeedsTexts;
    }
    let found: Vec<&Card> = index.search(&query).collect();
    if context.tells() {
        for hint in &query.hints {
            stderrln!("hint: {}", hint.text);
        }
    }
    match context.format {
        Format::Json => stdoutln!(
            "{}",
            serde_json::to_string_pretty(&SearchReport::new(&query, found.iter().copied()))
                .unwrap_or_default()
        ),
        Format::Human if args.ids => {
            let mut out = String::new();
            for card in &found {
                let _ = writeln!(out, "{}", card.id);
            }
            stdout_str(&out);
        }
        Format::Human => {
            if args.explain {
                // The query's own words come back: shown safely.
                out::stdout_shown(&format!(
                    "means: {}\n意味: {}\n\n",
                    query.explain(Lang::En),
                    query.explain(Lang::Ja)
                ));
            }
            stdout_str(&table(&found, database, &lang));
            if context.tells() {
                stdoutln!(
                    "{}",
                    match (found.len(), lang.as_str()) {
                        (0, "ja") => "一致するカードはありません".to_string(),
                        (n, "ja") => format!("{n}枚"),
                        (0, _) => "no card matches".to_string(),
                        (1, _) => "1 card".to_string(),
                        (n, _) => format!("{n} cards"),
                    }
                );
            }
        }
    }
    Answered::Done(ExitCode::from(exit::OK))
}

/// Where the cards searched come from: the built database `--db` names,
/// else the pool's. Either carries the pool's keyword table, which `kw:` is
/// read against (a file written without one is read with the built-in
/// table).
enum Source<'a> {
    File(&'a std::path::Path),
    Pool(Box<blades::workspace::Workspace>),
}

impl<'a> Source<'a> {
    /// The source `args` name, said once.
    fn of(context: &Context, args: &'a Args) -> Result<Source<'a>, ExitCode> {
        match &args.db {
            Some(path) => {
                if context.tells() {
                    stderrln!("database: {}", path.display());
                }
                Ok(Source::File(path))
            }
            None => context.workspace().map(|w| Source::Pool(Box::new(w))),
        }
    }

    /// The sets and the cards a search of `text` finds, when the card
    /// index can give only those, and the languages of the whole pool.
    fn sieved(
        &self,
        text: &str,
        lang: &str,
        shows_texts: bool,
    ) -> Option<(&'static Database, Vec<String>)> {
        let sieved = match self {
            Source::File(path) => search::read_database_sieved(path, text, lang, shows_texts),
            Source::Pool(workspace) => workspace.database_sieved(text, lang, shows_texts),
        }?;
        Some((kept_until_exit(sieved.database), sieved.languages))
    }

    /// The database with `columns` of each card if it can, and the
    /// columns it has.
    fn load(
        &self,
        context: &Context,
        columns: Columns,
    ) -> Result<(&'static Database, Columns), ExitCode> {
        let keep = |(database, has)| (kept_until_exit(database), has);
        match self {
            Source::File(path) => search::read_database_with(path, columns)
                .map(keep)
                .map_err(|problem| context.refuse(*problem)),
            Source::Pool(workspace) => workspace
                .database_with(columns)
                .map(keep)
                .map_err(|findings| context.pool_has_errors(&findings, "it cannot be searched")),
        }
    }
}

/// The cards as a table: id, name, set, kind, STAR, elements, types,
/// copies, in `lang`.
fn table(cards: &[&Card], database: &Database, lang: &str) -> String {
    if cards.is_empty() {
        return String::new();
    }
    let head = search::table_head(lang);
    let rows: Vec<[String; 8]> = cards
        .iter()
        // Names come from anyone: each cell on one line, its control
        // characters as pictures.
        .map(|card| {
            search::table_row(card, database, lang).map(|cell| shown(&cell).replace('\n', "␊"))
        })
        .collect();
    let mut widths = head.map(UnicodeWidthStr::width);
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.width());
        }
    }
    let mut out = String::new();
    let mut line = |cells: &[&str]| {
        let mut text = String::new();
        for (i, (cell, width)) in cells.iter().zip(widths).enumerate() {
            if i > 0 {
                text.push_str("  ");
            }
            text.push_str(cell);
            if i + 1 < cells.len() {
                text.push_str(&" ".repeat(width - cell.width()));
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    };
    line(&head);
    for row in &rows {
        line(&row.each_ref().map(String::as_str));
    }
    out
}
