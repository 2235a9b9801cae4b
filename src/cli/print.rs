//! `blades print [--set SET…] [--lang en|ja] [--paper a4|letter] [--out DIR]
//! [--pdf FILE]`: print-and-play sheets.

use blades::words::{plural, plural_word};
use std::path::PathBuf;
use std::process::ExitCode;

use blades::diagnostics::{Code, Diagnostic};
use blades::faces::render;
use blades::faces::sheets::{self, Paper, PrintOptions, PrintReport, PrintedPdf};
use blades::i18n;
use blades::report::Format;

use super::out::stderrln;
use super::out::stdoutln;
use super::{Context, exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Sets to print, each an id or name (any case); default: every set.
    #[arg(long = "set", value_name = "SET", num_args = 1..)]
    sets: Vec<String>,
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
    if args.pdf.as_deref() == Some(std::path::Path::new("-")) {
        return context.refuse(
            Diagnostic::general(
                Code::Usage,
                "the PDF is written to a file, not standard output",
            )
            .with_help("give a file name, for example `--pdf sheets.pdf`"),
        );
    }
    let (workspace, database) = match context.database("no sheet can be printed") {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    let lang = match i18n::choose_languages(database, &args.lang) {
        Ok(mut langs) if langs.len() == 1 => langs.remove(0),
        Ok(_) => {
            return context.refuse(
                Diagnostic::general(Code::Usage, "a sheet is printed in one language")
                    .with_help("use `--lang en` or `--lang ja`"),
            );
        }
        Err(diagnostic) => return context.refuse(*diagnostic),
    };
    let sets = match sheets::select_sets(database, &args.sets) {
        Ok(sets) => sets,
        Err(diagnostic) => return context.refuse(*diagnostic),
    };
    let options = PrintOptions {
        paper,
        lang,
        copies: args.copies,
        art: render::art_images(workspace.pool(), database),
    };
    let printed = sheets::sheets(database, &sets, &options);
    if printed.iter().all(|s| s.pages.is_empty()) {
        return context.refuse(
            Diagnostic::general(Code::Usage, "the sets chosen have no cards to print")
                .with_help("choose other sets with --set"),
        );
    }
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
                    plural(printed.len(), "set", "sets"),
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
