//! `blades render [CARD…] [--lang en|ja|all] [--out DIR]`: card faces as SVG.

use blades::words::plural;
use std::path::PathBuf;
use std::process::ExitCode;

use blades::diagnostics::{Code, Diagnostic};
use blades::faces::render::{self, RenderReport};
use blades::faces::svg::FaceOptions;
use blades::i18n;
use blades::report::Format;

use super::out::stderrln;
use super::out::stdoutln;
use super::{Context, exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Cards to draw, each an id, English or translated name (any case;
    /// quote names with spaces); default: every card of the pool.
    #[arg(value_name = "CARD")]
    card: Vec<String>,
    /// `en`, `ja`, or `all` (English and every language the pool translates).
    #[arg(long, value_name = "LANG", default_value = "all")]
    lang: String,
    /// The folder to write the faces into (`CARD.LANG.svg`, with the fonts
    /// in `fonts/`); updated all or nothing.
    #[arg(long, value_name = "DIR", default_value = "dist/faces")]
    out: PathBuf,
}

pub fn run(context: &Context, args: Args) -> ExitCode {
    let (workspace, database) = match context.database("no face can be drawn") {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    let langs = match i18n::choose_languages(database, &args.lang) {
        Ok(langs) => langs,
        Err(diagnostic) => return context.refuse(*diagnostic),
    };
    let cards = match render::select(database, &args.card) {
        Ok(cards) => cards,
        Err(diagnostic) => return context.refuse(*diagnostic),
    };
    let options = FaceOptions::with_art(render::art_images(workspace.pool(), database));
    let rendered = render::render_faces(database, &cards, &langs, &options);
    let project = workspace.translations();
    let diagnostics = render::locate(&project, &rendered);
    let written = match render::write(&args.out, &rendered) {
        Ok(written) => written,
        Err(error) => {
            return context.refuse(
                Diagnostic::general(Code::CannotWrite, error.to_string())
                    .with_help("choose another folder with --out"),
            );
        }
    };
    match context.format {
        Format::Json => {
            let report = RenderReport::new(
                &args.out,
                &rendered,
                &written,
                &diagnostics,
                &project.sources,
            );
            stdoutln!(
                "{}",
                serde_json::to_string_pretty(&report).unwrap_or_default()
            );
        }
        Format::Human => {
            context.report(&diagnostics, &project.sources);
            if context.tells() {
                let warnings = match diagnostics.len() {
                    0 => String::new(),
                    1 => "; 1 warning".to_string(),
                    n => format!("; {n} warnings"),
                };
                stderrln!(
                    "rendered {} ({} in {}) into {}: {} files written, {} unchanged{warnings}",
                    plural(rendered.len(), "face", "faces"),
                    plural(cards.len(), "card", "cards"),
                    langs.join(" and "),
                    args.out.display(),
                    written.written.len(),
                    written.unchanged
                );
            }
        }
    }
    ExitCode::from(exit::OK)
}
