//! `blades print [--set SET… | --deck DECK [--rules FORMAT]] [--lang en|ja]
//! [--paper a4|letter] [--out DIR] [--pdf FILE]`: print-and-play sheets, of
//! sets or of one deck.

use blades::words::{plural, plural_word};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use blades::diagnostics::{Code, Diagnostic};
use blades::faces::render;
use blades::faces::sheets::{self, Paper, PrintOptions, PrintReport, PrintedPdf, SetSheets};
use blades::i18n;
use blades::model::Database;
use blades::report::Format;

use super::out::stderrln;
use super::out::stdoutln;
use super::{Context, deck, exit, kept_until_exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Sets to print, each an id or name (any case); default: every set.
    #[arg(long = "set", value_name = "SET", num_args = 1..)]
    sets: Vec<String>,
    /// Print one deck instead of sets (a file, `-`, or a share code): each
    /// card as many times as the deck holds it, in the deck's order, into
    /// `deck.PAPER.LANG.html`.
    #[arg(long, value_name = "DECK", conflicts_with_all = ["sets", "copies"])]
    deck: Option<PathBuf>,
    /// The deck format whose zones the deck's list names (with --deck; as
    /// for `deck check`).
    #[arg(long, value_name = "FORMAT", requires = "deck")]
    rules: Option<String>,
    /// The language of the faces: `en` or `ja` (one language per sheet).
    #[arg(long, value_name = "LANG", default_value = "en")]
    lang: String,
    /// The paper: `a4` or `letter` (US Letter).
    #[arg(long, value_name = "PAPER", default_value = "a4")]
    paper: String,
    /// Print each card as many times as its copies in the set (else once).
    #[arg(long)]
    copies: bool,
    /// The folder to write the sheets into (`SET.PAPER.LANG.html`, with
    /// `fonts.css`); updated all or nothing.
    #[arg(long, value_name = "DIR", default_value = "dist/print")]
    out: PathBuf,
    /// Also write every sheet as one PDF, a page per sheet, fonts embedded.
    #[arg(long, value_name = "FILE")]
    pdf: Option<PathBuf>,
}

pub fn run(context: &Context, args: Args) -> ExitCode {
    let Some(paper) = Paper::parse(&args.paper) else {
        return context.refuse(
            Diagnostic::general(Code::Usage, format!("`{}` is not a paper size", args.paper))
                .with_help("use `a4` or `letter`"),
        );
    };
    if args.pdf.as_deref() == Some(Path::new("-")) {
        return context.refuse(
            Diagnostic::general(
                Code::Usage,
                "the PDF is written to a file, not standard output",
            )
            .with_help("give a file name, for example `--pdf sheets.pdf`"),
        );
    }
    let chosen = match &args.deck {
        Some(deck) => of_deck(context, &args, paper, deck),
        None => of_sets(context, &args, paper),
    };
    let (options, printed) = match chosen {
        Ok(chosen) => chosen,
        Err(code) => return code,
    };
    let files = sheets::sheet_files(&printed);
    let pdf = match &args.pdf {
        None => None,
        Some(path) => match sheets::pdf(&printed) {
            Ok(bytes) => Some((path.clone(), bytes)),
            Err(error) => {
                return context.refuse(
                    Diagnostic::general(Code::CannotWrite, error.to_string())
                        .with_help("the HTML sheets can still be printed; leave out --pdf"),
                );
            }
        },
    };
    let written = match sheets::write(
        &args.out,
        &files,
        pdf.as_ref().map(|(p, b)| (p.as_path(), b.as_slice())),
    ) {
        Ok(written) => written,
        Err(error) => {
            return context.refuse(
                Diagnostic::general(Code::CannotWrite, error.to_string())
                    .with_help("choose another folder with --out (or file with --pdf)"),
            );
        }
    };
    let pages: usize = printed.iter().map(|s| s.pages.len()).sum();
    let pdf = pdf.map(|(path, bytes)| PrintedPdf {
        file: path.display().to_string(),
        pages,
        bytes: bytes.len(),
    });
    match context.format {
        Format::Json => {
            let report = PrintReport::new(&args.out, &options, &printed, &written, pdf);
            stdoutln!(
                "{}",
                serde_json::to_string_pretty(&report).unwrap_or_default()
            );
        }
        Format::Human => {
            for set in &printed {
                stdoutln!(
                    "{}\t{}\t{}",
                    args.out.join(set.file()).display(),
                    plural(set.cards, "card", "cards"),
                    plural(set.pages.len(), "page", "pages")
                );
            }
            if let Some(pdf) = &pdf {
                stdoutln!(
                    "{}\t{}\t{}",
                    pdf.file,
                    plural(pdf.pages, "page", "pages"),
                    plural(pdf.bytes, "byte", "bytes")
                );
            }
            if context.tells() {
                stderrln!(
                    "printed {} on {pages} {} {} ({}) into {}: {} files written, {} unchanged",
                    match args.deck {
                        Some(_) => "the deck".to_string(),
                        None => plural(printed.len(), "set", "sets"),
                    },
                    options.paper,
                    plural_word(pages, "page", "pages"),
                    options.lang,
                    args.out.display(),
                    written.written.len(),
                    written.unchanged
                );
            }
        }
    }
    ExitCode::from(exit::OK)
}

/// The sheets of the sets `--set` names (every set without), and the
/// options they were printed with.
fn of_sets(
    context: &Context,
    args: &Args,
    paper: Paper,
) -> Result<(PrintOptions, Vec<SetSheets>), ExitCode> {
    let (workspace, database) = context.database("no sheet can be printed")?;
    let sets = sheets::select_sets(database, &args.sets).map_err(|d| context.refuse(*d))?;
    let options = PrintOptions {
        paper,
        lang: one_language(context, database, &args.lang)?,
        copies: args.copies,
        art: render::art_images(workspace.pool(), database),
    };
    let printed = sheets::sheets(database, &sets, &options);
    if printed.iter().all(|s| s.pages.is_empty()) {
        return Err(context.refuse(
            Diagnostic::general(Code::Usage, "the sets chosen have no cards to print")
                .with_help("choose other sets with --set"),
        ));
    }
    Ok((options, printed))
}

/// `--deck`: one deck's sheets, its cards read as `deck export` reads
/// them against the whole pool.
fn of_deck(
    context: &Context,
    args: &Args,
    paper: Paper,
    deck: &Path,
) -> Result<(PrintOptions, Vec<SetSheets>), ExitCode> {
    let workspace = context.workspace()?;
    let ground = kept_until_exit(deck::ground_of(context, &workspace, None)?);
    let (name, cards) = deck::cards_for_print(context, ground, deck, args.rules.as_deref())?;
    if cards.is_empty() {
        return Err(context.refuse(
            Diagnostic::general(
                Code::Usage,
                format!("the deck `{name}` has no cards to print"),
            )
            .with_help("add cards to the deck, or print sets with --set"),
        ));
    }
    let database = &ground.database;
    let options = PrintOptions {
        paper,
        lang: one_language(context, database, &args.lang)?,
        copies: false,
        art: render::art_images(workspace.pool(), database),
    };
    let printed = sheets::deck_sheets(database, &name, &cards, &options);
    Ok((options, vec![printed]))
}

/// The one language `--lang` names.
fn one_language(context: &Context, database: &Database, lang: &str) -> Result<String, ExitCode> {
    match i18n::choose_languages(database, lang) {
        Ok(mut langs) if langs.len() == 1 => Ok(langs.remove(0)),
        Ok(_) => Err(context.refuse(
            Diagnostic::general(Code::Usage, "a sheet is printed in one language")
                .with_help("use `--lang en` or `--lang ja`"),
        )),
        Err(diagnostic) => Err(context.refuse(*diagnostic)),
    }
}
