//! The PO round trip: export a language's units for Poedit, Weblate or
//! Crowdin; import the translated file back into the locale files.
//!
//! Import is all or nothing: every problem is reported and nothing is
//! written unless the whole file is good. An entry whose text, flags,
//! previous English and comments are what an export would write is left
//! untouched, and only files with a changed entry are rewritten (in the
//! canonical layout), so importing an unchanged export changes no byte.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;

use crate::diagnostics::{Code, Diagnostic};
use crate::effect::phrases;
use crate::files::{FileSet, WriteError};
use crate::suggest::closest;

use super::check::{Located, face_field, house_rules};
use super::glossary::{Glossary, Mode};
use super::locale::{self, Target};
use super::po::{self, PoEntry, PoFile, PoString};
use super::{Entry, Field, Project, Unit, UnitKey, fingerprint, language_name, normalize};
use crate::faces::layout::MM_PER_PT;
use crate::yaml::LineEnd;

/// What to export.
#[derive(Debug, Clone)]
pub struct ExportOptions {
    pub lang: String,
    /// Export every card's effect as an (optional) override entry, not only
    /// the effects that have one.
    pub all_effects: bool,
}

/// How an empty phrase template is written in a PO file, on either side:
/// an empty `msgid` is no message to gettext tools, and an empty `msgstr`
/// is "not translated", so a template empty in English, or translated as
/// empty, is written as this word (and read back as empty).
pub const EMPTY_TEXT: &str = "(empty)";

/// A text as a PO entry holds it ([`EMPTY_TEXT`] for an empty template).
fn po_text(key: &UnitKey, text: &str) -> String {
    if key.field() == Field::Phrase && text.is_empty() {
        EMPTY_TEXT.to_string()
    } else {
        text.to_string()
    }
}

/// A PO entry's translation as the locale files hold it.
fn from_po_text(key: &UnitKey, text: &str) -> String {
    if key.field() == Field::Phrase && text == EMPTY_TEXT {
        String::new()
    } else {
        locale::normalize_text(key, text)
    }
}

/// A PO entry's English (`msgid`, previous `msgid`), normalised.
fn from_po_source(key: &UnitKey, text: &str) -> String {
    if key.field() == Field::Phrase && text == EMPTY_TEXT {
        String::new()
    } else {
        normalize(text)
    }
}

/// The header of an export: complete (so `msgfmt -c` is silent) and the
/// same on every export, so exporting twice gives the same bytes. Who last
/// translated, and when, is not known to the pool: those fields are empty
/// (as Poedit writes them for a new file) and the editor fills them in.
/// A template (`lang` none) names no language.
pub fn header(lang: Option<&str>) -> PoEntry {
    let (comment, team, language) = match lang {
        Some(lang) => (
            format!(
                "{} ({lang}) translation of the Millennium Blades card pool.",
                language_name(lang)
            ),
            language_name(lang).to_string(),
            lang.to_string(),
        ),
        None => (
            "Template of the Millennium Blades card pool's translations.".to_string(),
            String::new(),
            String::new(),
        ),
    };
    PoEntry {
        translator_comments: vec![
            comment,
            "Exported by `blades i18n export`; import with `blades i18n import`.".into(),
        ],
        msgid: PoString::new(""),
        msgstr: PoString::new(format!(
            "Project-Id-Version: blades card pool\n\
             PO-Revision-Date: \n\
             Last-Translator: \n\
             Language-Team: {team}\n\
             Language: {language}\n\
             MIME-Version: 1.0\n\
             Content-Type: text/plain; charset=UTF-8\n\
             Content-Transfer-Encoding: 8bit\n\
             Plural-Forms: {}\n\
             X-Generator: blades {}\n",
            plural_forms(lang.unwrap_or("ja")),
            env!("CARGO_PKG_VERSION")
        )),
        ..PoEntry::default()
    }
}

/// The languages' plural rules as gettext writes them (its manual's
/// table): the header must say the language's own, though the pool's
/// texts have no plural forms. A language not listed gets the rule most
/// languages share.
const PLURAL_FORMS: [(&[&str], &str); 4] = [
    (
        &["ja", "zh", "ko", "vi", "th", "id"],
        "nplurals=1; plural=0;",
    ),
    (&["fr", "pt-br"], "nplurals=2; plural=(n > 1);"),
    (
        &["ru", "uk"],
        "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    ),
    (
        &["pl"],
        "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    ),
];

/// The `Plural-Forms` of a language (by its id, `ja`, `pt-br`).
pub fn plural_forms(lang: &str) -> &'static str {
    let language = lang.split('-').next().unwrap_or(lang);
    let of = |id: &str| PLURAL_FORMS.iter().find(|(langs, _)| langs.contains(&id));
    of(lang)
        .or_else(|| of(language))
        .map_or("nplurals=2; plural=(n != 1);", |(_, forms)| forms)
}

/// The PO file of one language.
pub fn export(project: &Project, options: &ExportOptions) -> PoFile {
    let lang = &options.lang;
    let locale = project.locales.get(lang);
    let mut file = PoFile::default();
    file.entries.push(header(Some(lang)));
    for unit in &project.units {
        let entry = locale.and_then(|l| l.entry(&unit.key));
        let all = options.all_effects && unit.key.field() == Field::Effect;
        if !unit.required && entry.is_none() && !all {
            continue;
        }
        file.entries.push(unit_entry(project, unit, entry));
    }
    // Translations whose English is gone: obsolete entries, for reference.
    if let Some(locale) = locale {
        for (_, entry) in locale.entries() {
            if project.unit(&entry.key).is_some() {
                continue;
            }
            file.entries.push(obsolete_entry(entry));
        }
    }
    file
}

/// A translation whose English is gone, as an obsolete (`#~`) entry.
fn obsolete_entry(entry: &Entry) -> PoEntry {
    PoEntry {
        translator_comments: note_lines(entry),
        msgctxt: Some(PoString::new(entry.key.to_string())),
        msgid: PoString::new(po_text(
            &entry.key,
            entry.source.as_deref().unwrap_or_default(),
        )),
        msgstr: PoString::new(po_text(&entry.key, &entry.normalized())),
        obsolete: true,
        ..PoEntry::default()
    }
}

/// The template (`.pot`) every language's PO file is made from: each text
/// any language exports, untranslated, with what a translator should know
/// (`msgmerge --previous ja.po blades.pot` brings a PO file up to date).
pub fn template(project: &Project, all_effects: bool) -> PoFile {
    let mut file = PoFile::default();
    file.entries.push(header(None));
    for unit in &project.units {
        let overridden = || {
            project.languages(None).iter().any(|lang| {
                project
                    .locales
                    .get(lang)
                    .is_some_and(|l| l.entry(&unit.key).is_some())
            })
        };
        let all = all_effects && unit.key.field() == Field::Effect;
        if !unit.required && !all && !overridden() {
            continue;
        }
        file.entries.push(unit_entry(project, unit, None));
    }
    file
}

fn note_lines(entry: &Entry) -> Vec<String> {
    entry
        .note
        .as_deref()
        .map(|n| n.split('\n').map(str::to_string).collect())
        .unwrap_or_default()
}

/// The PO entry of a unit with its current translation.
pub(crate) fn unit_entry(project: &Project, unit: &Unit, entry: Option<&Entry>) -> PoEntry {
    let mut extracted = about_unit(project, unit, entry);
    extracted.extend(budget_note(unit));
    extracted.extend(glossary_note(unit));
    let line = project.line(&unit.path, unit.span.start);
    let stale = entry.is_some_and(|e| !e.is_current(&unit.english));
    let previous = entry
        .filter(|_| stale)
        .and_then(|e| e.source.clone())
        .filter(|s| *s != unit.english);
    let mut flags = Vec::new();
    if stale {
        flags.push("fuzzy".to_string());
    }
    if has_placeholders(unit) {
        flags.push(po::BRACE_FORMAT.to_string());
    }
    PoEntry {
        translator_comments: entry.map(note_lines).unwrap_or_default(),
        extracted,
        references: vec![format!("{}:{line}", unit.path)],
        flags,
        previous_msgid: previous.map(|p| po_text(&unit.key, &p)),
        msgctxt: Some(PoString::new(unit.key.to_string())),
        msgid: PoString::new(po_text(&unit.key, &unit.english)),
        msgstr: PoString::new(
            entry
                .map(|e| po_text(&unit.key, &e.normalized()))
                .unwrap_or_default(),
        ),
        ..PoEntry::default()
    }
}

/// Does a template's English hold every `{placeholder}` its key allows?
/// Its entry then has the `python-brace-format` flag, so that `msgfmt -c`,
/// Poedit and Weblate check that the translation keeps them and adds none.
/// (Not when the English leaves out one the translation may use: gettext
/// would call the translation's `{unit}` unknown.)
fn has_placeholders(unit: &Unit) -> bool {
    let UnitKey::Phrase { key } = &unit.key else {
        return false;
    };
    let Some(allowed) = phrases::allowed_placeholders(key) else {
        return false;
    };
    !allowed.is_empty()
        && allowed
            .iter()
            .all(|p| unit.english.contains(&format!("{{{p}}}")))
}

/// What the text is: a set name, a template, or a card's field with the
/// card's kind, STAR, symbols and effect.
fn about_unit(project: &Project, unit: &Unit, entry: Option<&Entry>) -> Vec<String> {
    let mut extracted = Vec::new();
    match (&unit.key, &unit.card) {
        (UnitKey::SetName { .. }, _) => extracted.push("set name".to_string()),
        (UnitKey::Phrase { key }, _) => {
            extracted.push("phrase template of the effect language".to_string());
            extracted.extend(phrase_notes(project, unit, key, entry));
        }
        (UnitKey::Card { field, .. }, Some(card)) => extracted.extend(card_notes(*field, card)),
        (UnitKey::Card { .. }, None) => {}
    }
    extracted
}

/// A card field's notes: the card at a glance, and its effect (or, for the
/// effect itself, that a translation is optional).
fn card_notes(field: Field, card: &super::CardInfo) -> Vec<String> {
    let mut about = vec![
        format!("card {}", field.as_str()),
        card.kind.as_str().to_string(),
    ];
    about.extend(card.stars.map(|s| format!("{s} STAR")));
    if !card.elements.is_empty() {
        let elements: Vec<&str> = card.elements.iter().map(|e| e.as_str()).collect();
        about.push(elements.join(", "));
    }
    if !card.types.is_empty() {
        let types: Vec<&str> = card.types.iter().map(|t| t.0.as_str()).collect();
        about.push(types.join(", "));
    }
    let mut notes = vec![about.join(" · ")];
    if field == Field::Effect {
        notes.push(
            "optional: leave empty to use the effect text the effect language renders".to_string(),
        );
    } else if let Some(effect) = &card.effect {
        let mut lines = effect.lines();
        if let Some(first) = lines.next() {
            notes.push(format!("effect: {first}"));
        }
        notes.extend(lines.map(|l| format!("        {l}")));
    }
    notes
}

/// How much room the printed card leaves the text (the face's text box;
/// `blades i18n check` measures with the fonts themselves).
fn budget_note(unit: &Unit) -> Option<String> {
    let b = face_field(&unit.key)?.text_box();
    let em = b.min_size * MM_PER_PT;
    let per_line = (b.width / em).floor();
    Some(if b.max_lines == 1 {
        format!(
            "fits one line of {} mm: about {per_line} full-width characters at the smallest size ({} pt)",
            b.width, b.min_size
        )
    } else {
        let lines = ((b.height / (b.line_height * em)).floor() as usize).min(b.max_lines);
        format!(
            "fits a {} × {} mm box: about {lines} lines of {per_line} full-width characters at the smallest size ({} pt)",
            b.width, b.height, b.min_size
        )
    })
}

/// The official terms the English uses, with their Japanese.
fn glossary_note(unit: &Unit) -> Option<String> {
    let glossary = Glossary::builtin();
    let mode = if unit.key.is_name() {
        Mode::Names
    } else {
        Mode::Text
    };
    let english = match unit.key {
        UnitKey::Phrase { .. } => phrases::mask_placeholders(&unit.english),
        _ => unit.english.clone(),
    };
    let mut terms: Vec<String> = Vec::new();
    for hit in glossary.english(&english, mode) {
        let term = &glossary.terms[hit.term];
        let pair = format!("{} = {}", &unit.english[hit.range], term.official());
        if !terms.contains(&pair) {
            terms.push(pair);
        }
    }
    (!terms.is_empty()).then(|| format!("glossary: {}", terms.join("; ")))
}

/// What a translator of a template should know: its placeholders, what a
/// variant is for, spaces at the ends of the English, empty templates.
fn phrase_notes(project: &Project, unit: &Unit, key: &str, entry: Option<&Entry>) -> Vec<String> {
    let mut notes = Vec::new();
    match phrases::allowed_placeholders(key) {
        Some([]) => notes.push("no placeholders".to_string()),
        Some(allowed) => notes.push(format!(
            "placeholders: {} (keep them; their order may change)",
            allowed
                .iter()
                .map(|p| format!("{{{p}}}"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
        None => {}
    }
    if let Some(base) = phrases::base_key(key).filter(|base| *base != key) {
        let variant = &key[base.len() + 1..];
        if let Some((_, when)) = phrases::VARIANTS.iter().find(|(v, _)| *v == variant) {
            notes.push(format!("variant `{variant}`, used when {when}"));
        }
        // A variant English lacks is tracked against its plain key's English.
        let base_unit = project.unit(&UnitKey::Phrase { key: base.into() });
        if base_unit.is_some_and(|b| b.span == unit.span) {
            notes.push(format!(
                "English has no `{variant}` form: translate the English of `{base}`"
            ));
        }
    }
    let raw = unit.node.as_ref().and_then(|n| n.as_str());
    match raw {
        Some("") => notes.push(format!(
            "the English template is empty: `{EMPTY_TEXT}` stands for it"
        )),
        Some(raw) if raw != unit.english => {
            notes.push(format!(
                "the English template is {raw:?}: spaces at its ends count"
            ));
            if unit.english.is_empty() {
                notes.push(format!("`{EMPTY_TEXT}` stands for it here"));
            }
        }
        _ => {}
    }
    if entry.is_some_and(|e| e.text.is_empty()) {
        notes.push(format!(
            "translated as empty, written `{EMPTY_TEXT}` (an empty msgstr is untranslated)"
        ));
    }
    notes
}

/// Brings a translator's PO file up to date with the pool, as `msgmerge
/// --previous old.po template.pot` does, entries matched by `msgctxt`:
///
/// - each text the language exports gets the current English, notes and
///   flags, and keeps the old entry's translation and translator comments;
///   when its English changed, it is marked fuzzy with the English the
///   translation was made from as the previous `msgid`;
/// - an entry whose text is gone becomes obsolete (`#~`), translation and
///   comments kept (one with nothing translated is dropped, as msgmerge
///   drops it); old obsolete entries stay;
/// - the header is the old file's (who translated it, and when), its
///   `Language` as the project's id.
///
/// Nothing a translator typed is lost, and the result imports.
pub fn update(project: &Project, lang: &str, old: &PoFile, all_effects: bool) -> PoFile {
    let locale = project.locales.get(lang);
    let mut by_context: HashMap<&str, &PoEntry> = HashMap::new();
    for entry in old.entries.iter().filter(|e| !e.is_header()) {
        if let Some(c) = &entry.msgctxt {
            // A live entry wins over an obsolete one; the first over later ones.
            match by_context.get(c.value.as_str()) {
                Some(first) if !first.obsolete || entry.obsolete => {}
                _ => {
                    by_context.insert(c.value.as_str(), entry);
                }
            }
        }
    }
    let mut file = PoFile::default();
    let mut header = header(Some(lang));
    if let Some(old_header) = old.header() {
        header.translator_comments = old_header.translator_comments.clone();
        header.msgstr.value = with_language(&old_header.msgstr.value, lang);
    }
    file.entries.push(header);
    let mut used: Vec<&str> = Vec::new();
    for unit in &project.units {
        let context = unit.key.to_string();
        let previous = by_context.get(context.as_str()).copied();
        let has_translation = locale.and_then(|l| l.entry(&unit.key)).is_some();
        let all = all_effects && unit.key.field() == Field::Effect;
        if !unit.required && !has_translation && !all && previous.is_none() {
            continue;
        }
        let mut entry = unit_entry(project, unit, None);
        if let Some(old) = previous {
            used.push(old.msgctxt.as_ref().map_or("", |c| c.value.as_str()));
            entry.translator_comments = old.translator_comments.clone();
            entry.msgstr = PoString::new(old.msgstr.value.clone());
            let old_english = from_po_source(&unit.key, &old.msgid.value);
            let made_from = if old.is_fuzzy() || old.obsolete {
                old.previous_msgid
                    .clone()
                    .unwrap_or_else(|| old.msgid.value.clone())
            } else {
                old.msgid.value.clone()
            };
            let changed = old_english != unit.english;
            if (changed || old.is_fuzzy() || old.obsolete) && !entry.msgstr.value.is_empty() {
                entry.flags.insert(0, "fuzzy".into());
                if from_po_source(&unit.key, &made_from) != unit.english {
                    entry.previous_msgid = Some(made_from);
                }
            }
        }
        file.entries.push(entry);
    }
    for entry in old.entries.iter().filter(|e| !e.is_header()) {
        let context = entry.msgctxt.as_ref().map_or("", |c| c.value.as_str());
        let live = !context.is_empty() && used.contains(&context);
        if live || entry.msgstr.value.is_empty() {
            continue;
        }
        if by_context
            .get(context)
            .is_some_and(|first| !std::ptr::eq(*first, entry))
        {
            continue;
        }
        file.entries.push(PoEntry {
            translator_comments: entry.translator_comments.clone(),
            previous_msgid: entry.previous_msgid.clone(),
            flags: if entry.is_fuzzy() {
                vec!["fuzzy".into()]
            } else {
                Vec::new()
            },
            msgctxt: entry.msgctxt.clone(),
            msgid: entry.msgid.clone(),
            msgstr: entry.msgstr.clone(),
            obsolete: true,
            ..PoEntry::default()
        });
    }
    file
}

/// A header's fields with `Language` set to `lang` (added when missing).
fn with_language(header: &str, lang: &str) -> String {
    let mut found = false;
    let mut out = String::new();
    for line in header.split_inclusive('\n') {
        if line
            .split(':')
            .next()
            .is_some_and(|k| k.trim().eq_ignore_ascii_case("Language"))
        {
            found = true;
            out.push_str(&format!("Language: {lang}\n"));
        } else {
            out.push_str(line);
        }
    }
    if !found {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&format!("Language: {lang}\n"));
    }
    out
}

/// The language a PO file is for, as the project's id: `--lang`, or its
/// header's (which must agree); see [`import`] for the rules.
pub fn po_language(
    project: &Project,
    po_path: &Arc<str>,
    file: &PoFile,
    lang: Option<&str>,
) -> Result<String, Box<Diagnostic>> {
    let options = ImportOptions {
        lang: lang.map(str::to_string),
        accept_stale: false,
    };
    import_language(project, file, po_path, &options)
}

/// How to import.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// The language; default: the PO header's `Language`.
    pub lang: Option<String>,
    /// Import entries translated from English that has changed since, as
    /// stale translations, instead of refusing them.
    pub accept_stale: bool,
}

/// What an import would write.
#[derive(Debug, Clone, Default)]
pub struct ImportPlan {
    pub lang: String,
    /// Files to write: path relative to the pool root, and content.
    pub writes: Vec<(String, String)>,
    pub counts: ImportCounts,
    /// Findings that do not stop the import (a text that may not fit its
    /// box), located in the PO file.
    pub warnings: Vec<Diagnostic>,
}

/// What an import did with each entry of the PO file.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct ImportCounts {
    pub added: usize,
    pub updated: usize,
    pub unchanged: usize,
    /// Entries with an empty `msgstr` (not translated in the PO).
    pub untranslated: usize,
    /// `#~` entries, ignored.
    pub obsolete: usize,
    /// Entries for texts the pool no longer has, skipped: untranslated
    /// ones always, translated ones with `--accept-stale` (else refused).
    pub orphaned: usize,
}

/// `blades i18n export --format json`: what was exported, and the PO text
/// itself when no `--out` file took it.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct ExportReport {
    pub lang: String,
    /// A template (`.pot`): every text, none translated.
    pub template: bool,
    /// The file written (`null`: the text is in `po`).
    pub out: Option<String>,
    pub texts: usize,
    pub fuzzy: usize,
    pub untranslated: usize,
    pub po: Option<String>,
}

impl ImportCounts {
    /// Counts one entry by what the import did with it.
    fn note(&mut self, imported: &Imported) {
        let count = match imported {
            Imported::Added(_) => &mut self.added,
            Imported::Updated(_) => &mut self.updated,
            Imported::Unchanged => &mut self.unchanged,
            Imported::Untranslated => &mut self.untranslated,
            Imported::Obsolete => &mut self.obsolete,
            Imported::Orphaned => &mut self.orphaned,
        };
        *count += 1;
    }
}

/// `blades i18n import --format json`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct ImportReport {
    pub lang: String,
    pub dry_run: bool,
    #[serde(flatten)]
    pub counts: ImportCounts,
    /// The locale files written (or, with `dry-run`, that would be).
    pub files: Vec<String>,
    /// Warnings that did not stop the import (a text that may not fit its
    /// box), located in the PO file.
    pub diagnostics: Vec<crate::report::JsonDiagnostic>,
}

/// `blades i18n update --format json`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct UpdateReport {
    pub lang: String,
    /// The PO file brought up to date.
    pub file: String,
    /// Where the result went (`-`: in `po`).
    pub out: String,
    pub texts: usize,
    pub fuzzy: usize,
    pub untranslated: usize,
    pub obsolete: usize,
    pub po: Option<String>,
}

/// Texts, fuzzy and untranslated entries of a PO file (the header and
/// obsolete entries left out); fuzzy counts translated entries only.
pub fn counts(file: &PoFile) -> (usize, usize, usize) {
    let live = file
        .entries
        .iter()
        .filter(|e| !e.is_header() && !e.obsolete);
    let (mut texts, mut fuzzy, mut untranslated) = (0, 0, 0);
    for e in live {
        texts += 1;
        fuzzy += usize::from(e.is_fuzzy() && !e.msgstr.value.is_empty());
        untranslated += usize::from(e.msgstr.value.is_empty());
    }
    (texts, fuzzy, untranslated)
}

/// Why an import writes nothing.
#[derive(Debug, Clone)]
pub struct ImportError {
    pub diagnostics: Vec<Diagnostic>,
    /// The file could not be read as a PO file for the language (its
    /// syntax, charset or language): exit 2, as any malformed input. Else
    /// the file is good but some entries cannot be imported: exit 1.
    pub malformed: bool,
}

/// A PO file's text from its bytes: UTF-8, or the header's `charset` when
/// that is ISO-8859-1 (or any charset when every byte is ASCII); another
/// charset is refused at its name, and a byte that is not UTF-8 is located.
pub fn decode(po_path: &Arc<str>, bytes: &[u8]) -> Result<String, Box<Diagnostic>> {
    po::decode(bytes).map_err(|e| {
        Box::new(
            Diagnostic::error(Code::NotUtf8, po_path, e.span, e.message)
                .with_label(e.label)
                .with_help(e.help),
        )
    })
}

/// Reads a PO file against a project; returns the files to write, or every
/// problem (nothing is to be written then).
pub fn import(
    project: &Project,
    po_path: &Arc<str>,
    po_text: &str,
    options: &ImportOptions,
) -> Result<ImportPlan, ImportError> {
    let malformed = |diagnostics| ImportError {
        diagnostics,
        malformed: true,
    };
    let file = po::parse(po_text).map_err(|errors| {
        malformed(
            errors
                .into_iter()
                .map(|e| {
                    Diagnostic::error(Code::PoSyntax, po_path, e.span, e.message)
                        .with_label(e.label)
                        .with_help(e.help)
                })
                .collect::<Vec<_>>(),
        )
    })?;
    let lang =
        import_language(project, &file, po_path, options).map_err(|d| malformed(vec![*d]))?;
    let import = Import {
        project,
        po_path,
        locale: project.locales.get(&lang),
        accept_stale: options.accept_stale,
    };
    let mut plan = ImportPlan {
        lang: lang.clone(),
        ..ImportPlan::default()
    };
    let mut problems = Vec::new();
    let mut seen: HashMap<String, &PoEntry> = HashMap::new();
    // New or changed entries, by unit key.
    let mut changes: Vec<Entry> = Vec::new();
    for entry in file.entries.iter().filter(|e| !e.is_header()) {
        let imported = match import.entry(entry, &mut seen) {
            Ok(imported) => imported,
            Err(problem) => {
                problems.push(*problem);
                continue;
            }
        };
        plan.counts.note(&imported);
        let (Imported::Updated(new) | Imported::Added(new)) = imported else {
            continue;
        };
        // The house rules, at the PO line, before anything is written.
        let located = Located::in_po(&new, po_path, po_text, &entry.msgstr);
        house_rules(project, &lang, &located, &mut problems);
        changes.push(new);
    }
    // Warnings (a text that may not fit) are the plan's; errors refuse it.
    let (errors, warnings): (Vec<Diagnostic>, Vec<Diagnostic>) =
        problems.into_iter().partition(Diagnostic::is_error);
    let problems = errors;
    plan.warnings = warnings;
    if !problems.is_empty() {
        return Err(ImportError {
            diagnostics: problems,
            malformed: false,
        });
    }
    plan.writes = render_changes(project, &lang, changes);
    Ok(plan)
}

/// The language a PO file is imported into: `--lang`, or its header's,
/// which must agree once both are made the project's ids (`ja_JP` is `ja`).
/// A language the pool has no translations of yet is started only when
/// `--lang` names it: a PO file for `fr` is not taken for a new language
/// by mistake.
fn import_language(
    project: &Project,
    file: &PoFile,
    po_path: &Arc<str>,
    options: &ImportOptions,
) -> Result<String, Box<Diagnostic>> {
    let known = project.languages(None);
    let header_lang = file.header_field("Language").filter(|l| !l.is_empty());
    let header_span = file.header().map_or(0..0, |h| h.msgstr.span.clone());
    let problem = |message: String, label: &str, help: &str| {
        Box::new(
            Diagnostic::error(Code::PoLanguage, po_path, header_span.clone(), message)
                .with_label(label)
                .with_help(help),
        )
    };
    let header_id = match &header_lang {
        Some(code) => Some(super::language_id(code, &known).ok_or_else(|| {
            problem(
                format!("`{code}` is not a language to translate into"),
                &format!("Language: {code}"),
                "the header's `Language` names the translation's language, such as `ja`",
            )
        })?),
        None => None,
    };
    let asked = match &options.lang {
        Some(code) => Some(super::language_id(code, &known).ok_or_else(|| {
            problem(
                format!("`{code}` is not a language to translate into"),
                "bad language",
                "use a code such as `ja`",
            )
        })?),
        None => None,
    };
    let lang = match (&asked, &header_id) {
        (Some(asked), Some(header)) if asked != header => {
            return Err(problem(
                format!(
                    "this PO file is for `{}`, not `{asked}`",
                    header_lang.as_deref().unwrap_or(header)
                ),
                &format!("Language: {}", header_lang.as_deref().unwrap_or(header)),
                "import it with the language it was exported for",
            ));
        }
        (Some(lang), _) | (None, Some(lang)) => lang.clone(),
        (None, None) => {
            return Err(problem(
                "this PO file does not say its language".into(),
                "no `Language:` header",
                "pass `--lang ja`, or add `\"Language: ja\\n\"` to the header",
            ));
        }
    };
    if asked.is_none() && !known.contains(&lang) {
        return Err(problem(
            format!(
                "the pool has no {} (`{lang}`) translations; this file would start them",
                language_name(&lang)
            ),
            &format!("Language: {}", header_lang.as_deref().unwrap_or(&lang)),
            &format!(
                "check the header's `Language`; to start a new language, pass `--lang {lang}` (the pool has {})",
                known.join(", ")
            ),
        ));
    }
    Ok(lang)
}

/// What importing one PO entry does.
enum Imported {
    Obsolete,
    Orphaned,
    Untranslated,
    Unchanged,
    Updated(Entry),
    Added(Entry),
}

/// One import's context: the pool, the PO file's name, the language's
/// current translations.
struct Import<'a> {
    project: &'a Project,
    po_path: &'a Arc<str>,
    locale: Option<&'a super::Locale>,
    accept_stale: bool,
}

impl<'a> Import<'a> {
    /// Imports one entry (`seen` holds the entries before it, by context).
    fn entry<'f>(
        &self,
        entry: &'f PoEntry,
        seen: &mut HashMap<String, &'f PoEntry>,
    ) -> Result<Imported, Box<Diagnostic>> {
        if entry.obsolete {
            return Ok(Imported::Obsolete);
        }
        let Some(unit) = self.unit_of(entry, seen)? else {
            return Ok(Imported::Orphaned);
        };
        // Blank is untranslated; only a template may be all spaces.
        let blank = match unit.key.field() {
            Field::Phrase => entry.msgstr.value.is_empty(),
            _ => entry.msgstr.value.trim().is_empty(),
        };
        if blank {
            return Ok(Imported::Untranslated);
        }
        let existing = self.locale.and_then(|l| l.entry(&unit.key));
        if let Some(existing) = existing
            && unchanged(self.project, unit, existing, entry)
        {
            return Ok(Imported::Unchanged);
        }
        let source = self.source_of(unit, entry)?;
        let note =
            (!entry.translator_comments.is_empty()).then(|| entry.translator_comments.join("\n"));
        let new = Entry {
            key: unit.key.clone(),
            text: from_po_text(&unit.key, &entry.msgstr.value),
            fingerprint: Some(fingerprint(&source)),
            fuzzy: entry.is_fuzzy() && source == unit.english,
            source: Some(source),
            note,
            text_at: None,
            key_span: 0..0,
            recorded: Default::default(),
        };
        Ok(match existing {
            Some(old) if old.same_content(&new) => Imported::Unchanged,
            Some(_) => Imported::Updated(new),
            None => Imported::Added(new),
        })
    }

    /// The unit an entry translates, named by its `msgctxt`: once per file,
    /// a unit of the pool, and no plural forms. `None`: the text is gone
    /// and the entry is skipped (it is untranslated, or stale entries are
    /// accepted).
    fn unit_of<'f>(
        &self,
        entry: &'f PoEntry,
        seen: &mut HashMap<String, &'f PoEntry>,
    ) -> Result<Option<&'a Unit>, Box<Diagnostic>> {
        let po_path = self.po_path;
        let Some(context) = &entry.msgctxt else {
            return Err(Box::new(
                Diagnostic::error(
                    Code::PoUnknownContext,
                    po_path,
                    entry.msgid.span.clone(),
                    "this entry has no `msgctxt`, so it names no field",
                )
                .with_label("no msgctxt")
                .with_help("every entry of a `blades i18n export` starts with `msgctxt \"set/card/field\"`"),
            ));
        };
        if let Some(first) = seen.get(&context.value) {
            return Err(Box::new(
                Diagnostic::error(
                    Code::PoDuplicateContext,
                    po_path,
                    context.span.clone(),
                    format!("`{}` appears twice", context.value),
                )
                .with_label("again here")
                .with_related(
                    po_path,
                    first.msgctxt.as_ref().map_or(0..0, |c| c.span.clone()),
                    "first here",
                )
                .with_help("keep one entry per field"),
            ));
        }
        seen.insert(context.value.clone(), entry);
        let unit = UnitKey::parse(&context.value).and_then(|k| self.project.unit(&k));
        let Some(unit) = unit else {
            if self.accept_stale || entry.msgstr.value.trim().is_empty() {
                return Ok(None);
            }
            return Err(Box::new(self.unknown_context(context)));
        };
        if entry.msgid_plural.is_some() || !entry.msgstr_plural.is_empty() {
            return Err(Box::new(
                Diagnostic::error(
                    Code::PoSyntax,
                    po_path,
                    entry.msgid.span.clone(),
                    "card texts have no plural forms",
                )
                .with_label("plural entry")
                .with_help("use `msgid` and `msgstr` only"),
            ));
        }
        Ok(Some(unit))
    }

    /// A `msgctxt` that names no translatable text of the pool.
    fn unknown_context(&self, context: &PoString) -> Diagnostic {
        let contexts: Vec<String> = self
            .project
            .units
            .iter()
            .map(|u| u.key.to_string())
            .collect();
        let help = match closest(&context.value, contexts.iter().map(String::as_str)) {
            Some(best) => format!(
                "did you mean `{best}`? If its text is gone, `blades i18n update FILE` makes the entry obsolete, or --accept-stale skips it"
            ),
            None => "the text is not in the pool: `blades i18n update FILE` makes the entry obsolete, or --accept-stale skips it".into(),
        };
        Diagnostic::error(
            Code::PoUnknownContext,
            self.po_path,
            context.span.clone(),
            format!("`{}` names no translatable text of the pool", context.value),
        )
        .with_label("unknown field")
        .with_help(help)
    }

    /// The English a translation was made from: a fuzzy entry's previous
    /// `msgid`, else its `msgid`, which must be the current English unless
    /// stale translations are accepted.
    fn source_of(&self, unit: &Unit, entry: &PoEntry) -> Result<String, Box<Diagnostic>> {
        let msgid = from_po_source(&unit.key, &entry.msgid.value);
        if entry.is_fuzzy() {
            return Ok(entry
                .previous_msgid
                .as_deref()
                .map_or(msgid.clone(), |p| from_po_source(&unit.key, p)));
        }
        if msgid == unit.english || self.accept_stale {
            return Ok(msgid);
        }
        Err(Box::new(
            Diagnostic::error(
                Code::PoStale,
                self.po_path,
                entry.msgid.span.clone(),
                format!(
                    "`{}` was translated from English that has changed since",
                    unit.key
                ),
            )
            .with_label("not the current English")
            .with_related(&unit.path, super::check::english_whole(self.project, unit), "the English now")
            .with_help(format!(
                "the English is now {:?}; export again and review the entry, or pass --accept-stale to keep it as a stale translation",
                unit.english
            )),
        ))
    }
}

/// Is the PO entry what an export of the existing translation would say?
fn unchanged(project: &Project, unit: &Unit, existing: &Entry, incoming: &PoEntry) -> bool {
    let exported = unit_entry(project, unit, Some(existing));
    let key = &unit.key;
    from_po_source(key, &incoming.msgid.value) == unit.english
        && from_po_text(key, &incoming.msgstr.value) == existing.normalized()
        && incoming.is_fuzzy() == exported.is_fuzzy()
        && incoming
            .previous_msgid
            .as_deref()
            .map(|p| from_po_source(key, p))
            == exported
                .previous_msgid
                .as_deref()
                .map(|p| from_po_source(key, p))
        && incoming.translator_comments == exported.translator_comments
}

/// The files the changes touch, rendered whole.
fn render_changes(project: &Project, lang: &str, changes: Vec<Entry>) -> Vec<(String, String)> {
    let locale = project.locales.get(lang);
    let position = |key: &UnitKey| project.position(key);
    // Group by target.
    let mut targets: Vec<(Target, Vec<Entry>)> = Vec::new();
    for change in changes {
        let target = match change.key.set() {
            Some(set) => Target::Set(set.to_string()),
            None => Target::Phrases,
        };
        match targets.iter_mut().find(|(t, _)| *t == target) {
            Some((_, list)) => list.push(change),
            None => targets.push((target, vec![change])),
        }
    }
    let mut writes = Vec::new();
    for (target, changes) in targets {
        let existing = locale.and_then(|l| l.files.iter().find(|f| f.target == target));
        let mut entries: Vec<Entry> = existing.map(|f| f.entries.clone()).unwrap_or_default();
        for change in changes {
            match entries.iter_mut().find(|e| e.key == change.key) {
                Some(slot) => *slot = change,
                None => entries.push(change),
            }
        }
        let (relative, text) = match &target {
            Target::Set(set) => (
                existing.map_or_else(
                    || format!("locales/{lang}/{set}.yaml"),
                    |f| f.relative.clone(),
                ),
                locale::render_set_file(lang, set, &entries, &position),
            ),
            Target::Phrases => (
                existing.map_or_else(|| format!("phrases/{lang}.yaml"), |f| f.relative.clone()),
                locale::render_phrase_file(
                    lang,
                    existing.and_then(|f| f.header.as_deref()),
                    existing.and_then(|f| f.options.as_ref()),
                    &entries,
                    &position,
                ),
            ),
        };
        // A rewritten file keeps its line ends.
        let line_end = existing.map_or(LineEnd::Lf, |f| f.line_end);
        writes.push((relative, line_end.apply(text)));
    }
    writes.sort();
    writes
}

/// Writes files under `root` all together or not at all (see
/// [`FileSet`]): each to a temp file beside its target first, and only
/// when all are written are they renamed into place; a failure puts back
/// the files already renamed and names the one that failed.
pub fn write_files(root: &Path, writes: &[(String, String)]) -> Result<Vec<PathBuf>, WriteError> {
    let mut set = FileSet::new();
    for (relative, text) in writes {
        set.stage(root.join(relative), text.as_bytes())?;
    }
    set.commit()
}

#[cfg(test)]
mod plural_rules {
    use super::*;

    /// A PO header says the language's own plural rule: French is not
    /// Japanese.
    #[test]
    fn each_language_gets_its_own_plural_rule() {
        assert_eq!(plural_forms("ja"), "nplurals=1; plural=0;");
        assert_eq!(plural_forms("fr"), "nplurals=2; plural=(n > 1);");
        assert_eq!(plural_forms("fr-ca"), "nplurals=2; plural=(n > 1);");
        assert_eq!(plural_forms("de"), "nplurals=2; plural=(n != 1);");
        assert_eq!(plural_forms("pt"), "nplurals=2; plural=(n != 1);");
        assert_eq!(plural_forms("pt-br"), "nplurals=2; plural=(n > 1);");
        let header = header(Some("fr")).msgstr.value;
        assert!(
            header.contains("Plural-Forms: nplurals=2; plural=(n > 1);"),
            "{header}"
        );
    }
}
