//! `blades gallery [--out DIR] [--lang en|ja|all]`: a static site of the
//! pool's cards that works from `file://`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use blades::diagnostics::{Code, Diagnostic};
use blades::faces::art::ArtImages;
use blades::faces::gallery::{self, Gallery, GalleryReport, GalleryWritten};
use blades::faces::render;
use blades::files::WriteError;
use blades::i18n;
use blades::model::Database;
use blades::report::Format;

use super::out::{stderrln, stdoutln};
use super::{Context, exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The folder to write the site into (`index.html`, `cards/ID.html`,
    /// `faces/ID.LANG.svg`); updated all or nothing, only changed faces drawn.
    #[arg(long, value_name = "DIR", default_value = "dist/gallery")]
    out: PathBuf,
    /// The faces' languages: `en`, `ja`, or `all` (English and every
    /// language the pool translates).
    #[arg(long, value_name = "LANG", default_value = "all")]
    lang: String,
}

/// Makes the gallery and writes it into `out`.
pub fn write(
    database: &Database,
    langs: &[String],
    art: &ArtImages,
    out: &Path,
) -> Result<(Gallery, GalleryWritten), Box<Diagnostic>> {
    let cannot_write = |error: WriteError| {
        Box::new(
            Diagnostic::general(Code::CannotWrite, error.to_string())
                .with_help("choose another folder with --out"),
        )
    };
    gallery::make_and_write(database, langs, art, out).map_err(cannot_write)
}

pub fn run(context: &Context, args: Args) -> ExitCode {
    let (workspace, database) = match context.database("no gallery can be made") {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    let langs = match i18n::choose_languages(database, &args.lang) {
        Ok(langs) => langs,
        Err(diagnostic) => return context.refuse(*diagnostic),
    };
    let art = render::art_images(workspace.pool(), database);
    let (made, written) = match write(database, &langs, &art, &args.out) {
        Ok(done) => done,
        Err(diagnostic) => return context.refuse(*diagnostic),
    };
    let project = workspace.translations();
    let diagnostics = render::locate(&project, &made.faces);
    match context.format {
        Format::Json => {
            let report =
                GalleryReport::new(&args.out, &made, &written, &diagnostics, &project.sources);
            stdoutln!(
                "{}",
                serde_json::to_string_pretty(&report).unwrap_or_default()
            );
        }
        Format::Human => {
            context.report(&diagnostics, &project.sources);
            if context.tells() {
                stderrln!("{}", said(&made, &written, &args.out, diagnostics.len()));
            }
        }
    }
    ExitCode::from(exit::OK)
}

/// What writing the gallery did, in a line.
pub fn said(made: &Gallery, written: &GalleryWritten, out: &Path, warnings: usize) -> String {
    let warnings = match warnings {
        0 => String::new(),
        1 => "; 1 warning".to_string(),
        n => format!("; {n} warnings"),
    };
    let removed = match written.removed.len() {
        0 => String::new(),
        n => format!(", {n} removed"),
    };
    format!(
        "gallery of {} cards in {} written into {}: {} faces drawn, {} unchanged; {} files written, {} unchanged{removed}{warnings} (open {})",
        made.cards,
        made.langs.join(" and "),
        out.display(),
        made.drawn_count(),
        made.reused_count(),
        written.files.written.len(),
        written.files.unchanged,
        out.join("index.html").display()
    )
}
