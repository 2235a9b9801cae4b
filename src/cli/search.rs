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
use blades::search::{self, Catalog, Index, Query, SearchReport};

use super::out::{self, stderrln, stdout_str, stdoutln};
use super::{Context, exit};

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
    let (database, keywords) = match load(context, &args) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let index = Index::new(&database);
    let catalog = Catalog::for_index(&index, &keywords);
    let query = match Query::parse(&text, &catalog) {
        Ok(query) => query,
        Err(problems) => {
            let mut sources = Sources::default();
            sources.insert(Arc::from(search::QUERY_PATH), Arc::from(text.as_str()));
            return context.fail(exit::CANNOT_RUN, &problems, &sources);
        }
    };
    let found: Vec<&Card> = index.search(&query).collect();
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
            stdout_str(&table(&found));
            if context.tells() {
                stdoutln!(
                    "{}",
                    match found.len() {
                        0 => "no card matches".to_string(),
                        1 => "1 card".to_string(),
                        n => format!("{n} cards"),
                    }
                );
            }
        }
    }
    ExitCode::from(exit::OK)
}

/// The database searched, and the keyword table values are named from:
/// the built database `--db` names (with the built-in keywords), else the
/// pool's.
fn load(context: &Context, args: &Args) -> Result<(Database, Keywords), ExitCode> {
    if let Some(path) = &args.db {
        if context.tells() {
            stderrln!("database: {}", path.display());
        }
        return match search::read_database(path) {
            Ok(database) => Ok((database, Keywords::builtin())),
            Err(problem) => Err(context.refuse(*problem)),
        };
    }
    let workspace = context.workspace()?;
    let database = workspace
        .database()
        .map_err(|findings| context.pool_has_errors(&findings, "it cannot be searched"))?;
    let (vocabulary, _) = workspace.vocabulary();
    Ok((database, vocabulary.vocab.keywords))
}

/// The cards as a table: id, name, set, kind, STAR, elements, types, copies.
fn table(cards: &[&Card]) -> String {
    if cards.is_empty() {
        return String::new();
    }
    let head = [
        "id", "name", "set", "kind", "STAR", "elements", "types", "copies",
    ];
    let rows: Vec<[String; 8]> = cards
        .iter()
        .map(|card| {
            [
                card.id.0.clone(),
                // A name comes from anyone: on one line, its control
                // characters as pictures.
                shown(&card.name).replace('\n', "␊"),
                card.set.0.clone(),
                card.kind.as_str().to_string(),
                card.stars.to_string(),
                card.elements
                    .iter()
                    .map(|e| e.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                card.types
                    .iter()
                    .map(|t| t.0.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                card.copies.to_string(),
            ]
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
