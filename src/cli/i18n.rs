//! `blades i18n`: translation status, checks, and the PO round trip.

use blades::words::{plural, plural_word};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::Subcommand;

use blades::diagnostics::{Code, Diagnostic, Sources};
use blades::files;
use blades::i18n::answers::Answer;
use blades::i18n::check::{CheckAnswer, Checked};
use blades::i18n::exchange::{
    self, ExportOptions, ExportReport, ImportOptions, ImportPlan, ImportReport, UpdateReport,
};
use blades::i18n::status::{self, LanguageStatus, Listed, State, StatusAnswer, StatusReport};
use blades::i18n::{self, Project, po};
use blades::pool;
use blades::report::{self, Format};
use blades::workspace::{Reading, Report, Workspace};

use super::out::{self, stderrln, stdout, stdoutln};
use super::{Context, exit, kept_until_exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Debug, Subcommand)]
enum Sub {
    /// Coverage per set: translated, missing, stale and orphaned texts.
    Status(StatusArgs),
    /// Glossary, override, name, style and fit checks of the translations.
    Check(CheckArgs),
    /// Write a language's texts as a PO file (Poedit, Weblate, Crowdin).
    Export(ExportArgs),
    /// Read a translated PO file back into the locale files.
    Import(ImportArgs),
    /// Bring a translator's PO file up to date with the pool (as msgmerge
    /// does): new texts added, changed ones fuzzy, gone ones obsolete (#~).
    Update(UpdateArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum FailOn {
    Missing,
    Stale,
    Orphaned,
}

#[derive(Debug, clap::Args)]
struct StatusArgs {
    /// Language code; default: every language with files in the pool.
    #[arg(long, value_name = "LANG")]
    lang: Option<String>,
    /// Exit 1 when any text is in one of these states (for CI).
    #[arg(long, value_enum, value_delimiter = ',', value_name = "STATES")]
    fail_on: Vec<FailOn>,
}

#[derive(Debug, clap::Args)]
struct CheckArgs {
    /// Language code; default: every language with files in the pool.
    #[arg(long, value_name = "LANG")]
    lang: Option<String>,
}

#[derive(Debug, clap::Args)]
struct ExportArgs {
    /// Language code.
    #[arg(long, value_name = "LANG", default_value = "ja")]
    lang: String,
    /// Where to write the PO file; default: standard output.
    #[arg(long, short, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Also export every effect without an override, as an empty entry.
    #[arg(long)]
    all_effects: bool,
    /// Write the template (`.pot`) every language's file is made from:
    /// every text, untranslated, for `msgmerge --previous ja.po FILE.pot`.
    #[arg(long)]
    template: bool,
}

#[derive(Debug, clap::Args)]
struct UpdateArgs {
    /// The translator's PO file; rewritten in place unless `-o` is given.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Language code; default: the PO file's `Language` header.
    #[arg(long, value_name = "LANG")]
    lang: Option<String>,
    /// Where to write the updated file (`-`: standard output).
    #[arg(long, short, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Also add every effect without an override, as an empty entry.
    #[arg(long)]
    all_effects: bool,
}

#[derive(Debug, clap::Args)]
struct ImportArgs {
    /// The translated PO file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Language code; default: the PO file's `Language` header.
    #[arg(long, value_name = "LANG")]
    lang: Option<String>,
    /// Keep entries translated from English that has changed since, as
    /// stale translations, instead of refusing the file.
    #[arg(long)]
    accept_stale: bool,
    /// Report what would change without writing anything.
    #[arg(long)]
    dry_run: bool,
}

impl Args {
    /// `i18n check`, whose whole output is findings.
    pub fn is_check(&self) -> bool {
        matches!(self.command, Sub::Check(_))
    }
}

pub fn run(context: &Context, args: Args) -> ExitCode {
    match args.command {
        Sub::Status(a) => status_command(context, a),
        Sub::Check(a) => check_command(context, a),
        Sub::Export(a) => export_command(context, a),
        Sub::Import(a) => import_command(context, a),
        Sub::Update(a) => update_command(context, a),
    }
}

/// `--lang` as the project's language id (`ja_JP` is `ja`), or exit 2.
fn lang_id(context: &Context, project: &Project, code: &str) -> Result<String, ExitCode> {
    i18n::language_id(code, &project.languages(None)).ok_or_else(|| bad_lang(context, code))
}

fn bad_lang(context: &Context, lang: &str) -> ExitCode {
    context.refuse(
        Diagnostic::general(
            Code::UnknownLanguage,
            format!("`{lang}` is not a language to translate into"),
        )
        .with_help(
            "use a code such as `ja` (`ja_JP` and `ja-JP` mean the same); `en` is the source",
        ),
    )
}

/// Loads the project; problems reading locale files are printed (human) and
/// counted.
fn load(context: &Context) -> Result<Project, ExitCode> {
    Ok(noted(context, context.workspace_uncached()?.translations()))
}

/// A translation report on the pool, read back from the answers of an
/// earlier run when the pool is unchanged since, else made and kept
/// ([`Workspace::translation_report`]); the set files' errors are noted.
fn report_of<A: Answer>(
    context: &Context,
    question: &str,
    reading: Reading,
    make: impl FnOnce(&Project) -> A,
) -> Result<Report<A>, ExitCode> {
    context.say_pool();
    let mut report =
        Workspace::translation_report(context.cards.as_deref(), question, reading, make)
            .map_err(|e| context.refuse(e.into_diagnostic()))?;
    // Left to the system at exit: freeing every unit costs a large pool a
    // fifth of the command.
    if let Some(project) = report.project.take() {
        kept_until_exit(project);
    }
    Ok(report)
}

/// Says that the set files have errors (their cards are left out).
fn noted(context: &Context, project: Project) -> Project {
    note_set_errors(context, project.set_errors);
    project
}

fn note_set_errors(context: &Context, set_errors: usize) {
    if set_errors > 0 && context.tells() {
        stderrln!(
            "note: the set files have {set_errors} error(s); their cards are left out here (`blades build` lists them)"
        );
    }
}

fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(Diagnostic::is_error)
}

fn status_command(context: &Context, args: StatusArgs) -> ExitCode {
    if let Some(lang) = &args.lang
        && i18n::language_id(lang, &[]).is_none()
    {
        return bad_lang(context, lang);
    }
    let listed = match context.format {
        Format::Human => Listed::Problems,
        Format::Json => Listed::Every,
    };
    let asked = args.lang.as_deref();
    let question = StatusAnswer::question(asked, listed);
    let report = match report_of(context, &question, Reading::Remembered, |project| {
        StatusAnswer::of(project, asked, listed)
    }) {
        Ok(report) => report,
        Err(code) => return code,
    };
    let StatusAnswer {
        set_errors,
        diagnostics,
        languages,
    } = report.answer;
    note_set_errors(context, set_errors);
    let Some(languages) = languages else {
        return bad_lang(context, asked.unwrap_or_default());
    };
    let errors = has_errors(&diagnostics);
    match context.format {
        Format::Human => {
            if !diagnostics.is_empty() {
                out::stderr_str(&report::render_human(
                    &diagnostics,
                    &report.sources,
                    context.stderr_style(),
                ));
            }
            for (i, language) in languages.iter().enumerate() {
                if i > 0 {
                    stdoutln!();
                }
                out::stdout_shown(&status::render_human(language));
            }
            status_exit(&args, &languages, errors)
        }
        Format::Json => {
            let report = StatusReport {
                languages,
                diagnostics: report::json_report(&diagnostics, &report.sources).diagnostics,
            };
            stdoutln!(
                "{}",
                serde_json::to_string_pretty(&report).unwrap_or_default()
            );
            status_exit(&args, &report.languages, errors)
        }
    }
}

/// Exit 1 when a language has texts in a state `--fail-on` names, or the
/// locale files have errors.
fn status_exit(args: &StatusArgs, languages: &[LanguageStatus], errors: bool) -> ExitCode {
    let failing = languages.iter().any(|l| {
        args.fail_on.iter().any(|f| {
            let state = match f {
                FailOn::Missing => State::Missing,
                FailOn::Stale => State::Stale,
                FailOn::Orphaned => State::Orphaned,
            };
            l.counts.get(state) > 0
        })
    });
    if failing || errors {
        ExitCode::from(exit::PROBLEMS)
    } else {
        ExitCode::from(exit::OK)
    }
}

fn check_command(context: &Context, args: CheckArgs) -> ExitCode {
    if let Some(lang) = &args.lang
        && i18n::language_id(lang, &[]).is_none()
    {
        return bad_lang(context, lang);
    }
    let asked = args.lang.as_deref();
    let question = CheckAnswer::question(asked);
    let report = match report_of(context, &question, Reading::WithTexts, |project| {
        CheckAnswer::of(project, asked)
    }) {
        Ok(report) => report,
        Err(code) => return code,
    };
    note_set_errors(context, report.answer.set_errors);
    let Some(Checked { findings, texts }) = &report.answer.checked else {
        return bad_lang(context, asked.unwrap_or_default());
    };
    context.report(findings, &report.sources);
    if context.tells() && findings.is_empty() {
        stderrln!("checked {texts} translated texts: no problems found");
    }
    if has_errors(findings) {
        ExitCode::from(exit::PROBLEMS)
    } else {
        ExitCode::from(exit::OK)
    }
}

fn export_command(context: &Context, mut args: ExportArgs) -> ExitCode {
    if i18n::language_id(&args.lang, &[]).is_none() {
        return bad_lang(context, &args.lang);
    }
    let project = match load(context) {
        Ok(p) => p,
        Err(code) => return code,
    };
    match lang_id(context, &project, &args.lang) {
        Ok(id) => args.lang = id,
        Err(code) => return code,
    }
    if has_errors(&project.diagnostics) {
        context.report(&project.diagnostics, &project.sources);
        return ExitCode::from(exit::PROBLEMS);
    }
    let file = if args.template {
        exchange::template(&project, args.all_effects)
    } else {
        exchange::export(
            &project,
            &ExportOptions {
                lang: args.lang.clone(),
                all_effects: args.all_effects,
            },
        )
    };
    let text = po::write(&file);
    let (texts, fuzzy, untranslated) = exchange::counts(&file);
    if let Some(path) = &args.out
        && let Err(e) = files::write_atomic(path, text.as_bytes())
    {
        return cannot_write(context, path, &e);
    }
    if context.format == Format::Json {
        let report = ExportReport {
            lang: args.lang.clone(),
            template: args.template,
            out: args.out.as_ref().map(|p| p.display().to_string()),
            texts,
            fuzzy,
            untranslated,
            po: args.out.is_none().then_some(text),
        };
        stdoutln!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
        return ExitCode::from(exit::OK);
    }
    match &args.out {
        Some(path) if context.tells() => {
            if args.template {
                stderrln!(
                    "exported a template of {} to {}",
                    plural(texts, "text", "texts"),
                    path.display()
                );
            } else {
                stderrln!(
                    "exported {texts} {} {} ({fuzzy} fuzzy, {untranslated} untranslated) to {}",
                    i18n::language_name(&args.lang),
                    plural_word(texts, "text", "texts"),
                    path.display()
                );
            }
        }
        Some(_) => {}
        None => stdout!("{text}"),
    }
    ExitCode::from(exit::OK)
}

/// An output file that could not be written (exit 2).
fn cannot_write(context: &Context, path: &Path, e: &dyn std::fmt::Display) -> ExitCode {
    context.refuse(
        Diagnostic::general(
            Code::CannotWrite,
            format!("cannot write `{}`: {e}", path.display()),
        )
        .with_help("check that the folder exists and can be written, or name another file"),
    )
}

/// The folder an import writes into: the pool's (the built-in pool is
/// read-only).
fn import_root(context: &Context) -> Result<PathBuf, ExitCode> {
    match &context.cards {
        Some(dir) => Ok(dir.clone()),
        None => Err(context.refuse(
            Diagnostic::general(
                Code::Usage,
                "import writes locale files into a pool folder, and the built-in pool is read-only",
            )
            .with_help(
                "name the pool folder with --cards DIR, or run in a folder that has `cards/`",
            ),
        )),
    }
}

fn import_command(context: &Context, args: ImportArgs) -> ExitCode {
    if let Some(lang) = &args.lang
        && i18n::language_id(lang, &[]).is_none()
    {
        return bad_lang(context, lang);
    }
    let root = match import_root(context) {
        Ok(root) => root,
        Err(code) => return code,
    };
    // The PO file first: one too large (or unreadable) is refused before
    // the pool is loaded (its size is checked before it is read).
    // A file that cannot be read as a PO file is exit 2, as any malformed
    // input; problems in a good file's entries are exit 1.
    let (shown, text) = match read_po(&args.file) {
        Ok(read) => read,
        Err((diagnostic, sources)) => {
            return context.fail(exit::CANNOT_RUN, &[*diagnostic], &sources);
        }
    };
    let workspace = match Workspace::open_uncached(Some(&root)) {
        Ok(workspace) => workspace,
        Err(e) => return context.refuse(e.into_diagnostic()),
    };
    let mut project = workspace.translations();
    if has_errors(&project.diagnostics) {
        let mut findings = project.diagnostics.clone();
        findings.push(
            Diagnostic::general(
                Code::LocaleInvalid,
                "the locale files have problems, so nothing was imported",
            )
            .with_help("fix them first: `blades i18n check` lists the same problems"),
        );
        return context.fail(exit::PROBLEMS, &findings, &project.sources);
    }
    project.sources.insert(shown.clone(), text.clone());
    let options = ImportOptions {
        lang: args.lang.clone(),
        accept_stale: args.accept_stale,
    };
    let plan = match exchange::import(&project, &shown, &text, &options) {
        Ok(plan) => plan,
        Err(mut error) => {
            blades::diagnostics::sort(&mut error.diagnostics);
            context.report(&error.diagnostics, &project.sources);
            if context.format == Format::Human {
                stderrln!("nothing was imported");
            }
            return ExitCode::from(if error.malformed {
                exit::CANNOT_RUN
            } else {
                exit::PROBLEMS
            });
        }
    };
    if !args.dry_run
        && let Err(e) = exchange::write_files(&root, &plan.writes)
    {
        return context.refuse(
            Diagnostic::general(Code::CannotWrite, e.to_string())
                .with_help("nothing was imported: check that the locale files can be written"),
        );
    }
    print_import(context, &args, &root, &plan, &project.sources);
    ExitCode::from(exit::OK)
}

fn update_command(context: &Context, args: UpdateArgs) -> ExitCode {
    if let Some(lang) = &args.lang
        && i18n::language_id(lang, &[]).is_none()
    {
        return bad_lang(context, lang);
    }
    let (shown, text) = match read_po(&args.file) {
        Ok(read) => read,
        Err((diagnostic, sources)) => {
            return context.fail(exit::CANNOT_RUN, &[*diagnostic], &sources);
        }
    };
    let mut project = match load(context) {
        Ok(p) => p,
        Err(code) => return code,
    };
    project.sources.insert(shown.clone(), text.clone());
    let old = match po::parse(&text) {
        Ok(old) => old,
        Err(errors) => {
            let diagnostics: Vec<Diagnostic> = errors
                .into_iter()
                .map(|e| {
                    Diagnostic::error(Code::PoSyntax, &shown, e.span, e.message)
                        .with_label(e.label)
                        .with_help(e.help)
                })
                .collect();
            return context.fail(exit::CANNOT_RUN, &diagnostics, &project.sources);
        }
    };
    let lang = match exchange::po_language(&project, &shown, &old, args.lang.as_deref()) {
        Ok(lang) => lang,
        Err(d) => return context.fail(exit::CANNOT_RUN, &[*d], &project.sources),
    };
    let new = exchange::update(&project, &lang, &old, args.all_effects);
    let written = po::write(&new);
    let target = args.out.clone().unwrap_or_else(|| args.file.clone());
    let to_stdout = target == Path::new("-");
    if !to_stdout && let Err(e) = files::write_atomic(&target, written.as_bytes()) {
        return cannot_write(context, &target, &e);
    }
    let (texts, fuzzy, untranslated) = exchange::counts(&new);
    let obsolete = new.entries.iter().filter(|e| e.obsolete).count();
    if context.format == Format::Json {
        let report = UpdateReport {
            lang,
            file: args.file.display().to_string(),
            out: target.display().to_string(),
            texts,
            fuzzy,
            untranslated,
            obsolete,
            po: to_stdout.then_some(written),
        };
        stdoutln!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
        return ExitCode::from(exit::OK);
    }
    if to_stdout {
        stdout!("{written}");
    } else if context.tells() {
        stderrln!(
            "updated {} ({lang}): {} ({fuzzy} fuzzy, {untranslated} untranslated), {obsolete} obsolete, to {}",
            args.file.display(),
            plural(texts, "text", "texts"),
            target.display()
        );
    }
    ExitCode::from(exit::OK)
}

/// Why a PO file was not read, and the text to show it in.
type Unread = (Box<Diagnostic>, Sources);

/// A PO file's name as shown and its text, decoded as its header's charset
/// says; or why not, with what to show the problem in (the bytes before a
/// bad one, read leniently).
fn read_po(path: &Path) -> Result<(Arc<str>, Arc<str>), Unread> {
    let (shown, bytes) = match pool::read_input(path) {
        Ok((shown, text)) => (shown, text.as_bytes().to_vec()),
        // Not UTF-8: it may say another charset; read its bytes (within the
        // size limit, checked above).
        Err(d) if d.code == Code::NotUtf8 && path != Path::new("-") => match std::fs::read(path) {
            Ok(bytes) => (Arc::from(path.display().to_string()), bytes),
            Err(_) => return Err((d, Sources::default())),
        },
        Err(d) => return Err((d, Sources::default())),
    };
    match exchange::decode(&shown, &bytes) {
        Ok(text) => Ok((shown, Arc::from(text))),
        Err(mut d) => {
            // The lenient text is the same up to the bad byte, which it
            // shows as one replacement character.
            let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
            let lossy = String::from_utf8_lossy(body).into_owned();
            let start = d.span.start.min(lossy.len());
            let end = (start + 1..=lossy.len())
                .find(|&i| lossy.is_char_boundary(i))
                .unwrap_or(start);
            if !lossy.is_char_boundary(start) || d.span.end > start {
                d.span = start..end;
            }
            let mut sources = Sources::default();
            sources.insert(shown, Arc::from(lossy));
            Err((d, sources))
        }
    }
}

/// What an import wrote (or would write), for people or as JSON.
fn print_import(
    context: &Context,
    args: &ImportArgs,
    root: &Path,
    plan: &ImportPlan,
    sources: &Sources,
) {
    let files: Vec<String> = plan
        .writes
        .iter()
        .map(|(relative, _)| root.join(relative).display().to_string())
        .collect();
    match context.format {
        Format::Human if context.quiet => context.report(&plan.warnings, sources),
        Format::Human => {
            context.report(&plan.warnings, sources);
            stderrln!(
                "{} {} ({}): {} added, {} updated, {} unchanged, {} untranslated{}",
                if args.dry_run {
                    "would import"
                } else {
                    "imported"
                },
                args.file.display(),
                plan.lang,
                plan.counts.added,
                plan.counts.updated,
                plan.counts.unchanged,
                plan.counts.untranslated,
                if plan.counts.orphaned > 0 {
                    format!(
                        ", {} skipped (their text is gone from the pool)",
                        plan.counts.orphaned
                    )
                } else {
                    String::new()
                }
            );
            for file in &files {
                stderrln!(
                    "  {} {file}",
                    if args.dry_run { "would write" } else { "wrote" }
                );
            }
        }
        Format::Json => {
            let report = ImportReport {
                lang: plan.lang.clone(),
                dry_run: args.dry_run,
                counts: plan.counts.clone(),
                files,
                diagnostics: report::json_report(&plan.warnings, sources).diagnostics,
            };
            stdoutln!(
                "{}",
                serde_json::to_string_pretty(&report).unwrap_or_default()
            );
        }
    }
}
