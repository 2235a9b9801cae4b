//! A pool's faces: which cards, each drawn in each language, what the
//! drawing found located in the set and locale files, and the output folder
//! written all or nothing.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use schemars::JsonSchema;
use serde::Serialize;

use crate::diagnostics::Sources;
use crate::diagnostics::{Code, Diagnostic};
use crate::files::{FileSet, WriteError};
use crate::i18n::{self, Project, UnitKey};
use crate::model::{Card, Database, Set};
use crate::pool::Pool;
use crate::report::{JsonReport, json_report};
use crate::suggest::nearest;

use super::fonts::{FONT_FILES, FONT_LICENSE};
use super::layout::Field;
use super::svg::{self, Face, FaceOptions, Problem};

/// One face drawn: its card, language and file name in the output folder.
#[derive(Debug, Clone)]
pub struct Rendered {
    pub card: String,
    pub set: String,
    pub lang: String,
    pub file: String,
    pub face: Face,
}

/// The cards named (by id, English or translated name, any case), in the
/// order named, or every card in database order when none is named; a name
/// that matches no card is an `unknown-card` finding with the nearest names.
pub fn select<'a>(
    database: &'a Database,
    names: &[String],
) -> Result<Vec<&'a Card>, Box<Diagnostic>> {
    if names.is_empty() {
        return Ok(database.cards.iter().collect());
    }
    let mut out: Vec<&Card> = Vec::new();
    for name in names {
        let Some(card) = i18n::find_card(database, name) else {
            let mut known: Vec<&str> = Vec::new();
            for c in &database.cards {
                known.push(&c.name);
                known.extend(c.translations.values().filter_map(|t| t.name.as_deref()));
            }
            let suggestions = nearest(name, known.iter().copied(), 3);
            let help = if suggestions.is_empty() {
                "give a card id, English name or Japanese name".to_string()
            } else {
                let quoted: Vec<String> = suggestions.iter().map(|s| format!("`{s}`")).collect();
                format!("did you mean {}?", quoted.join(" or "))
            };
            let unknown =
                Diagnostic::general(Code::UnknownCard, format!("no card is named `{name}`"));
            return Err(Box::new(unknown.with_help(help)));
        };
        if !out.iter().any(|c| c.id == card.id) {
            out.push(card);
        }
    }
    Ok(out)
}

/// The languages a pool's faces can be drawn in: English and every
/// language its database has a translation for.
pub fn languages(database: &Database) -> Vec<String> {
    let mut langs = vec![i18n::SOURCE_LANG.to_string()];
    for lang in database
        .cards
        .iter()
        .flat_map(|c| c.translations.keys())
        .chain(database.sets.iter().flat_map(|s| s.translations.keys()))
    {
        if !langs.contains(lang) {
            langs.push(lang.clone());
        }
    }
    langs[1..].sort();
    langs
}

/// A card's place in its set (1-based) and the set's distinct cards.
pub fn numbers(database: &Database) -> HashMap<&str, (usize, usize)> {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    let mut out = HashMap::with_capacity(database.cards.len());
    for card in &database.cards {
        let n = counts.entry(card.set.0.as_str()).or_default();
        *n += 1;
        out.insert(card.id.0.as_str(), (*n, 0));
    }
    for card in &database.cards {
        if let Some(entry) = out.get_mut(card.id.0.as_str()) {
            entry.1 = counts[card.set.0.as_str()];
        }
    }
    out
}

/// The file name of a face in the output folder.
pub fn file_name(card: &str, lang: &str) -> String {
    format!("{card}.{lang}.svg")
}

/// Draws each card in each language (in parallel), in card then language
/// order.
pub fn render_faces(
    database: &Database,
    cards: &[&Card],
    langs: &[String],
    options: &FaceOptions,
) -> Vec<Rendered> {
    let sets: HashMap<&str, &Set> = database.sets.iter().map(|s| (s.id.0.as_str(), s)).collect();
    let numbers = numbers(database);
    let jobs: Vec<(&Card, &String)> = cards
        .iter()
        .flat_map(|card| langs.iter().map(move |lang| (*card, lang)))
        .collect();
    jobs.par_iter()
        .filter_map(|&(card, lang)| {
            let set = sets.get(card.set.0.as_str())?;
            let (number, of) = numbers.get(card.id.0.as_str()).copied().unwrap_or((1, 1));
            let face = svg::draw(card, set, number, of, lang, options);
            Some(Rendered {
                card: card.id.0.clone(),
                set: card.set.0.clone(),
                lang: lang.clone(),
                file: file_name(&card.id.0, lang),
                face,
            })
        })
        .collect()
}

/// What drawing every face of these cards would find, without drawing
/// them (`blades build`): each distinct text is fitted once, with the same
/// model `render` draws with.
pub fn check_faces(database: &Database, langs: &[String]) -> Vec<Rendered> {
    use std::collections::HashSet;
    let sets: HashMap<&str, &Set> = database.sets.iter().map(|s| (s.id.0.as_str(), s)).collect();
    let texts: Vec<(&Card, &String, svg::FaceText)> = database
        .cards
        .iter()
        .flat_map(|card| langs.iter().map(move |lang| (card, lang)))
        .filter_map(|(card, lang)| {
            let set = sets.get(card.set.0.as_str())?;
            Some((card, lang, svg::FaceText::of(card, set, lang)))
        })
        .collect();
    let mut distinct: HashSet<(Field, &str, &str)> = HashSet::new();
    for (_, lang, text) in &texts {
        for (field, t) in svg::fields(text) {
            distinct.insert((field, lang.as_str(), t));
        }
    }
    let distinct: Vec<(Field, &str, &str)> = distinct.into_iter().collect();
    let found: HashMap<(Field, &str, &str), Vec<svg::FaceFinding>> = distinct
        .par_iter()
        .filter_map(|&(field, lang, text)| {
            let findings = svg::findings_of(field, text, &field.fit(text, lang));
            (!findings.is_empty()).then_some(((field, lang, text), findings))
        })
        .collect();
    let mut out = Vec::new();
    for (card, lang, text) in &texts {
        let findings: Vec<svg::FaceFinding> = svg::fields(text)
            .into_iter()
            .filter_map(|(field, t)| found.get(&(field, lang.as_str(), t)))
            .flatten()
            .cloned()
            .collect();
        if !findings.is_empty() {
            out.push(Rendered {
                card: card.id.0.clone(),
                set: card.set.0.clone(),
                lang: (*lang).clone(),
                file: file_name(&card.id.0, lang),
                face: Face {
                    svg: String::new(),
                    effect_size: None,
                    findings,
                },
            });
        }
    }
    out
}

/// What the faces of a built pool find (`text-overflow`, `missing-glyph`),
/// located in its set and locale files, with those files' text.
pub fn face_findings(pool: &Pool, database: &Database) -> (Vec<Diagnostic>, Sources) {
    let found = check_faces(database, &languages(database));
    if found.is_empty() {
        return (Vec::new(), Sources::default());
    }
    let project = Project::load(pool);
    (locate(&project, &found), project.sources)
}

/// One face's SVG, for front ends that show a single card (the gallery,
/// print sheets): `None` when the database has no such card.
pub fn face_svg(
    database: &Database,
    card_id: &str,
    lang: &str,
    options: &FaceOptions,
) -> Option<String> {
    let card = database.cards.iter().find(|c| c.id.0 == card_id)?;
    let faces = render_faces(database, &[card], &[lang.to_string()], options);
    faces.into_iter().next().map(|r| r.face.svg)
}

/// Where each language's translation of a unit is written.
type Translated = HashMap<(String, UnitKey), (Arc<str>, Range<usize>)>;

/// Where a field of a card is written: its translation in the locale file
/// for a language other than English, when there is one, else the English
/// in the set file.
fn place(
    project: &Project,
    translated: &Translated,
    rendered: &Rendered,
    field: Field,
) -> Option<(Arc<str>, Range<usize>)> {
    let key = match field {
        Field::SetName => UnitKey::SetName {
            set: rendered.set.clone(),
        },
        _ => UnitKey::Card {
            set: rendered.set.clone(),
            card: rendered.card.clone(),
            field: match field {
                Field::Name => i18n::Field::Name,
                Field::Flavor => i18n::Field::Flavor,
                _ => i18n::Field::Effect,
            },
        },
    };
    if let Some(found) = translated.get(&(rendered.lang.clone(), key.clone())) {
        return Some(found.clone());
    }
    project
        .unit(&key)
        .map(|unit| (unit.path.clone(), unit.span.clone()))
}

/// What the faces found, as warnings located in the pool's files:
/// `text-overflow` for a text that does not fit its box even at the floor
/// size, `missing-glyph` for a character no shipped font draws.
pub fn locate(project: &Project, rendered: &[Rendered]) -> Vec<Diagnostic> {
    let mut translated: Translated = HashMap::new();
    for locale in &project.locales.languages {
        for (file, entry) in locale.entries() {
            let span = entry
                .text_at
                .as_ref()
                .map_or(entry.key_span.clone(), |at| at.span.clone());
            translated
                .entry((locale.lang.clone(), entry.key.clone()))
                .or_insert((file.path.clone(), span));
        }
    }
    let mut out = Vec::new();
    for face in rendered {
        for finding in &face.face.findings {
            let Some((path, span)) = place(project, &translated, face, finding.field) else {
                continue;
            };
            let what = finding.field.what();
            // A set name is the set's, printed on each of its cards.
            let whose = match finding.field {
                Field::SetName => &face.set,
                _ => &face.card,
            };
            let diagnostic = match &finding.problem {
                Problem::Overflow { size, text } => Diagnostic::warning(
                    Code::TextOverflow,
                    &path,
                    span,
                    format!(
                        "the {what} of `{whose}` does not fit its box on the {} face, even at {size} pt",
                        face.lang
                    ),
                )
                .with_label("does not fit")
                .with_help(format!(
                    "shorten it; this part falls outside the box: `{}`",
                    shorten(text, 60)
                )),
                Problem::MissingGlyph { characters } => Diagnostic::warning(
                    Code::MissingGlyph,
                    &path,
                    span,
                    format!(
                        "the {what} of `{whose}` has {}, which the card fonts cannot draw",
                        characters
                            .iter()
                            .map(|c| format!("`{c}` (U+{:04X})", u32::from(*c)))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
                .with_label("not in the fonts")
                .with_help(
                    "write it with another character, or add it to the font subset (bash fonts/subset.sh)",
                ),
            };
            out.push(diagnostic);
        }
    }
    out.sort_by(|a, b| {
        (&a.path, a.span.start, a.code.as_str()).cmp(&(&b.path, b.span.start, b.code.as_str()))
    });
    out.dedup_by(|a, b| a.path == b.path && a.span == b.span && a.message == b.message);
    out
}

fn shorten(text: &str, chars: usize) -> String {
    let text = text.replace('\n', " ");
    if text.chars().count() <= chars {
        return text;
    }
    let cut: String = text.chars().take(chars).collect();
    format!("{cut}…")
}

/// What writing the output folder did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    /// Files written (new or changed).
    pub written: Vec<PathBuf>,
    /// Files left as they were, their bytes already right.
    pub unchanged: usize,
}

/// Writes the faces, the fonts they use (`fonts/`) and the fonts' licence
/// into `dir`, all or none; a file whose bytes are already right is not
/// written again (so a one-card edit rewrites that card's faces only).
pub fn write(dir: &Path, rendered: &[Rendered]) -> Result<Written, WriteError> {
    let mut files: Vec<(PathBuf, &[u8])> = rendered
        .iter()
        .map(|r| (dir.join(&r.file), r.face.svg.as_bytes()))
        .collect();
    let fonts = dir.join("fonts");
    for font in &FONT_FILES {
        files.push((fonts.join(font.file), font.bytes));
    }
    files.push((fonts.join(FONT_LICENSE.0), FONT_LICENSE.1.as_bytes()));
    let mut set = FileSet::new();
    let mut unchanged = 0;
    for (path, bytes) in files {
        if std::fs::read(&path).is_ok_and(|old| old == bytes) {
            unchanged += 1;
            continue;
        }
        set.stage(&path, bytes)?;
    }
    let written = set.commit()?;
    Ok(Written { written, unchanged })
}

/// `blades render --format json`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct RenderReport {
    /// The output folder.
    pub out: String,
    /// Every face drawn, in card then language order.
    pub faces: Vec<RenderedFace>,
    /// Files written (new or changed; fonts included).
    pub written: usize,
    /// Files whose bytes were already right.
    pub unchanged: usize,
    /// What the faces found (`text-overflow`, `missing-glyph`), located.
    pub report: JsonReport,
}

/// One face in [`RenderReport`].
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct RenderedFace {
    pub card: String,
    pub lang: String,
    /// The SVG's file name in the output folder.
    pub file: String,
    /// The effect text's type size in points (absent without an effect).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect_size: Option<f32>,
    /// Fields whose text overflows its box (`name`, `effect`, `flavor`,
    /// `set-name`).
    pub overflow: Vec<String>,
}

impl RenderReport {
    pub fn new(
        out: &Path,
        rendered: &[Rendered],
        written: &Written,
        diagnostics: &[Diagnostic],
        sources: &Sources,
    ) -> RenderReport {
        RenderReport {
            out: out.display().to_string(),
            faces: rendered
                .iter()
                .map(|r| RenderedFace {
                    card: r.card.clone(),
                    lang: r.lang.clone(),
                    file: r.file.clone(),
                    effect_size: r.face.effect_size,
                    overflow: overflowing(&r.face),
                })
                .collect(),
            written: written.written.len(),
            unchanged: written.unchanged,
            report: json_report(diagnostics, sources),
        }
    }
}

/// The fields of a face that overflow.
pub fn overflowing(face: &Face) -> Vec<String> {
    face.findings
        .iter()
        .filter(|f| matches!(f.problem, Problem::Overflow { .. }))
        .map(|f| f.field.key().to_string())
        .collect()
}
