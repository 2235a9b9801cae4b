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
pub use crate::files::Written;
use crate::files::{self, WriteError};
use crate::i18n::{self, Project, UnitKey};
use crate::model::{Card, Database, Set};
use crate::pool::Pool;
use crate::report::{JsonReport, json_report};

use super::art::{ArtImages, MAX_ART_BYTES};
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
        let card = i18n::card_named(database, name)?;
        if !out.iter().any(|c| c.id == card.id) {
            out.push(card);
        }
    }
    Ok(out)
}

/// A card's place in its set (1-based) and the set's distinct cards.
pub fn numbers(database: &Database) -> HashMap<&str, (usize, usize)> {
    numbers_of(database, |_| true)
}

/// [`numbers`] of the cards `wanted` picks out: every card is counted, only
/// those are kept (a face of one card needs no map of every card's number).
fn numbers_of(
    database: &Database,
    wanted: impl Fn(&Card) -> bool,
) -> HashMap<&str, (usize, usize)> {
    let mut counts: foldhash::HashMap<&str, usize> = foldhash::HashMap::default();
    let mut places = Vec::new();
    for card in &database.cards {
        let n = counts.entry(card.set.0.as_str()).or_default();
        *n += 1;
        if wanted(card) {
            places.push((card.id.0.as_str(), card.set.0.as_str(), *n));
        }
    }
    (places.into_iter())
        .map(|(id, set, n)| (id, (n, counts[set])))
        .collect()
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
    let ids: foldhash::HashSet<&str> = cards.iter().map(|c| c.id.0.as_str()).collect();
    let numbers = numbers_of(database, |card| ids.contains(card.id.0.as_str()));
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
/// them (`blades build --faces`): each distinct text is fitted once, with
/// the same model `render` draws with.
pub fn check_faces(database: &Database, langs: &[String]) -> Vec<Rendered> {
    check_faces_with(database, langs, &mut FitMemo::default())
}

/// A text of a face: its field, language and text.
type FieldText<'a> = (Field, &'a str, &'a str);

/// [`check_faces`], fitting only the texts `memo` does not already know to
/// fit (and teaching it the ones that do).
pub fn check_faces_with(
    database: &Database,
    langs: &[String],
    memo: &mut FitMemo,
) -> Vec<Rendered> {
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
    let keyed: Vec<(u64, (Field, &str, &str))> = distinct
        .into_iter()
        .map(|triple| (FitMemo::key(triple), triple))
        .collect();
    let fitted: Vec<(u64, FieldText, Vec<svg::FaceFinding>)> = keyed
        .par_iter()
        .filter(|(key, _)| !memo.fits(*key))
        .map(|&(key, (field, lang, text))| {
            let findings = svg::findings_of(field, text, &field.fit(text, lang));
            (key, (field, lang, text), findings)
        })
        .collect();
    memo.meet(keyed.iter().map(|(key, _)| *key));
    let mut found: HashMap<FieldText, Vec<svg::FaceFinding>> = HashMap::new();
    for (key, triple, findings) in fitted {
        match findings.is_empty() {
            true => memo.learn(key),
            false => {
                found.insert(triple, findings);
            }
        }
    }
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

/// The texts known to fit their boxes, by a hash of the field, language,
/// text and tool build: kept beside the build cache (`.blades-faces`) so
/// that `build --faces` fits only texts it has not seen fit. A text that
/// does not fit is never remembered (its finding is made anew each time).
#[derive(Debug, Default)]
pub struct FitMemo {
    known: foldhash::HashSet<u64>,
    /// The known texts this run met: what is saved (texts no card uses
    /// any more are forgotten).
    met: foldhash::HashSet<u64>,
}

const FIT_MEMO_MAGIC: &[u8] = b"blades-faces 1\n";

impl FitMemo {
    /// The memo kept for a database at `out`, beside its build cache.
    pub fn path_beside(out: &Path) -> PathBuf {
        crate::cache::Cache::beside(out).with_file_name(".blades-faces")
    }

    /// The memo at `path`; empty when there is none, or it is another
    /// tool build's or unreadable (it is only ever a shortcut).
    pub fn open(path: &Path) -> FitMemo {
        let Ok(bytes) = std::fs::read(path) else {
            return FitMemo::default();
        };
        let stamp = Self::stamp();
        let Some(keys) = bytes
            .strip_prefix(FIT_MEMO_MAGIC)
            .and_then(|rest| rest.strip_prefix(stamp.as_slice()))
        else {
            return FitMemo::default();
        };
        let known = keys
            .chunks_exact(8)
            .filter_map(|k| k.try_into().ok().map(u64::from_le_bytes))
            .collect();
        FitMemo {
            known,
            met: Default::default(),
        }
    }

    /// Writes the texts met this run that fit (atomically).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut met: Vec<u64> = self.met.iter().copied().collect();
        met.sort_unstable();
        let mut bytes = FIT_MEMO_MAGIC.to_vec();
        bytes.extend(Self::stamp());
        for key in met {
            bytes.extend(key.to_le_bytes());
        }
        files::write_atomic(path, &bytes)
    }

    fn stamp() -> Vec<u8> {
        format!("{}\n", crate::cache::BUILD_ID).into_bytes()
    }

    fn key((field, lang, text): (Field, &str, &str)) -> u64 {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        for part in [field.key(), lang, text] {
            h.update(part.as_bytes());
            h.update(&[0]);
        }
        h.digest()
    }

    /// Whether the text is known to fit.
    fn fits(&self, key: u64) -> bool {
        self.known.contains(&key)
    }

    /// The texts this run sets: those known to fit are kept.
    fn meet(&mut self, keys: impl Iterator<Item = u64>) {
        let known = &self.known;
        self.met.extend(keys.filter(|k| known.contains(k)));
    }

    /// A text found to fit.
    fn learn(&mut self, key: u64) {
        self.known.insert(key);
        self.met.insert(key);
    }

    /// How many texts are known to fit.
    pub fn len(&self) -> usize {
        self.known.len()
    }

    pub fn is_empty(&self) -> bool {
        self.known.is_empty()
    }
}

/// What the faces of a built pool find (`text-overflow`, `missing-glyph`),
/// located in its set and locale files, with those files' text.
pub fn face_findings(
    pool: &Pool,
    database: &Database,
    memo: &mut FitMemo,
) -> (Vec<Diagnostic>, Sources) {
    let found = check_faces_with(database, &i18n::languages(database), memo);
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

/// The art of the database's cards, read from the pool's folder (the
/// built-in pool has none). An image whose bytes are no longer those the
/// database was built from is left out, and its card drawn without art: a
/// face never shows an image its card's fingerprint does not name.
pub fn art_images(pool: &Pool, database: &Database) -> ArtImages {
    let Some(root) = &pool.root else {
        return ArtImages::default();
    };
    let mut files: Vec<&str> = database
        .cards
        .iter()
        .filter_map(|c| c.art.as_ref().map(|a| a.file.as_str()))
        .collect();
    files.sort_unstable();
    files.dedup();
    let read: Vec<Vec<u8>> = files
        .par_iter()
        .filter_map(|file| {
            let path = root.join(file);
            let small = std::fs::metadata(&path).ok()?.len() <= MAX_ART_BYTES;
            small.then(|| std::fs::read(&path).ok()).flatten()
        })
        .collect();
    ArtImages::of(read.iter().map(Vec::as_slice))
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
            let source = project.sources.get(&path).map(|t| &t[..]).unwrap_or("");
            match &finding.problem {
                Problem::Overflow { size, text } => {
                    let span = overflow_span(source, span, text);
                    out.push(
                        Diagnostic::warning(
                            Code::TextOverflow,
                            &path,
                            span,
                            format!(
                                "the {what} of `{whose}` does not fit its box on the {} face, even at {size} pt",
                                face.lang
                            ),
                        )
                        .with_label("from here on, this does not fit")
                        .with_help(format!(
                            "shorten it; this part falls outside the box: `{}`",
                            shorten(text, 60)
                        )),
                    );
                }
                Problem::MissingGlyph { characters } => {
                    for (span, run) in missing_runs(source, span, characters) {
                        out.push(
                            Diagnostic::warning(
                                Code::MissingGlyph,
                                &path,
                                span,
                                format!(
                                    "the {what} of `{whose}` has {}, which the card fonts cannot draw",
                                    run.iter()
                                        .map(|c| format!("`{c}` (U+{:04X})", u32::from(*c)))
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                ),
                            )
                            .with_label("not in the fonts")
                            .with_help(
                                "write it with another character, or add it to the font subset (bash fonts/subset.sh)",
                            ),
                        );
                    }
                }
            }
        }
    }
    out.sort_by(|a, b| {
        (&a.path, a.span.start, a.code.as_str()).cmp(&(&b.path, b.span.start, b.code.as_str()))
    });
    out.dedup_by(|a, b| a.path == b.path && a.span == b.span && a.message == b.message);
    out
}

/// Each run of characters the fonts lack as the file writes them in a
/// value's span, with its distinct characters; the whole value with all of
/// them when the file writes them otherwise (escapes).
fn missing_runs(
    source: &str,
    span: Range<usize>,
    missing: &[char],
) -> Vec<(Range<usize>, Vec<char>)> {
    let mut runs: Vec<(Range<usize>, Vec<char>)> = Vec::new();
    let value = source.get(span.clone()).unwrap_or("");
    for (at, c) in value.char_indices().filter(|(_, c)| missing.contains(c)) {
        let (start, end) = (span.start + at, span.start + at + c.len_utf8());
        match runs.last_mut() {
            Some((range, chars)) if range.end == start => {
                range.end = end;
                if !chars.contains(&c) {
                    chars.push(c);
                }
            }
            _ => runs.push((start..end, vec![c])),
        }
    }
    let found: usize = runs.iter().map(|(_, chars)| chars.len()).sum();
    if runs.is_empty() || found < missing.len() && missing.iter().any(|c| !value.contains(*c)) {
        return vec![(span, missing.to_vec())];
    }
    runs
}

/// Where the part of a value that falls outside its box starts in the file,
/// to the value's end: the part's characters matched from the value's end,
/// blanks aside (a YAML file folds lines and indents). The whole value
/// when the file writes it otherwise (escapes).
fn overflow_span(source: &str, span: Range<usize>, outside: &str) -> Range<usize> {
    let Some(value) = source.get(span.clone()) else {
        return span;
    };
    let value = value.trim_end();
    let quoted = value.strip_suffix(['"', '\'']).map(str::trim_end);
    [Some(value), quoted]
        .into_iter()
        .flatten()
        .find_map(|value| suffix_start(value, outside))
        .map_or(span.clone(), |at| span.start + at..span.start + value.len())
}

/// Where `value` ends with the non-blank characters of `tail`, in order.
fn suffix_start(value: &str, tail: &str) -> Option<usize> {
    let mut written = value
        .char_indices()
        .rev()
        .filter(|(_, c)| !c.is_whitespace());
    let mut start = None;
    for wanted in tail.chars().rev().filter(|c| !c.is_whitespace()) {
        let (at, c) = written.next()?;
        if c != wanted {
            return None;
        }
        start = Some(at);
    }
    start
}

fn shorten(text: &str, chars: usize) -> String {
    let text = text.replace('\n', " ");
    if text.chars().count() <= chars {
        return text;
    }
    let cut: String = text.chars().take(chars).collect();
    format!("{cut}…")
}

/// Writes the faces, the fonts they use (`fonts/`) and the fonts' licence
/// into `dir`, all or none, as an [`files::OutputFolder`] (one writer, a
/// killed run finished by the next); a file whose bytes are already right
/// is not written again (so a one-card edit rewrites that card's faces only).
pub fn write(dir: &Path, rendered: &[Rendered]) -> Result<Written, WriteError> {
    let mut out: Vec<(PathBuf, &[u8])> = rendered
        .iter()
        .map(|r| (dir.join(&r.file), r.face.svg.as_bytes()))
        .collect();
    let fonts = dir.join("fonts");
    for font in &FONT_FILES {
        out.push((fonts.join(font.file), font.bytes));
    }
    out.push((fonts.join(FONT_LICENSE.0), FONT_LICENSE.1.as_bytes()));
    files::OutputFolder::open(dir)?.write_changed(out, [])
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

#[cfg(test)]
mod tests {
    use super::*;

    fn located(source: &str, value: &str) -> Range<usize> {
        let start = source.find(value).unwrap();
        start..start + value.len()
    }

    #[test]
    fn overflow_is_located_where_the_part_outside_starts_in_the_file() {
        let source = "effect: Gain 1 RP. Gain 1 RP.\n  Then gain 2 RP.\nflavor: x\n";
        let span = located(source, "Gain 1 RP. Gain 1 RP.\n  Then gain 2 RP.");
        // The folded line and its indent are not in the laid-out text.
        let at = overflow_span(source, span.clone(), "RP. Then gain 2 RP.");
        assert_eq!(&source[at], "RP.\n  Then gain 2 RP.");
        // A quoted value ends with its quote.
        let quoted = "name: \"A very long name\"\n";
        let span = located(quoted, "\"A very long name\"");
        let at = overflow_span(quoted, span, "long name");
        assert_eq!(&quoted[at], "long name\"");
        // Written otherwise (an escape): the whole value.
        let escaped = "name: \"caf\\u00e9 au lait\"\n";
        let span = located(escaped, "\"caf\\u00e9 au lait\"");
        assert_eq!(overflow_span(escaped, span.clone(), "café au lait"), span);
    }

    #[test]
    fn missing_characters_are_located_run_by_run() {
        let source = "text: 掟はｶﾀｶﾅ。また ﾀ\n";
        let span = located(source, "掟はｶﾀｶﾅ。また ﾀ");
        let runs = missing_runs(source, span.clone(), &['ｶ', 'ﾀ', 'ﾅ']);
        let texts: Vec<(&str, Vec<char>)> = runs
            .iter()
            .map(|(range, chars)| (&source[range.clone()], chars.clone()))
            .collect();
        assert_eq!(texts, [("ｶﾀｶﾅ", vec!['ｶ', 'ﾀ', 'ﾅ']), ("ﾀ", vec!['ﾀ'])]);
        // A character the file writes as an escape: the whole value.
        let escaped = "text: \"a\\uFF76\"\n";
        let span = located(escaped, "\"a\\uFF76\"");
        assert_eq!(
            missing_runs(escaped, span.clone(), &['ｶ']),
            [(span, vec!['ｶ'])]
        );
    }
}

#[cfg(test)]
mod memo_tests {
    use super::*;

    #[test]
    fn a_memo_keeps_the_texts_met_and_is_ignored_when_another_build_wrote_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".blades-faces");
        let mut memo = FitMemo::default();
        let a = FitMemo::key((Field::Name, "en", "Tin Scout"));
        let b = FitMemo::key((Field::Name, "ja", "ブリキの斥候"));
        memo.learn(a);
        memo.learn(b);
        memo.save(&path).unwrap();
        let mut reopened = FitMemo::open(&path);
        assert!(reopened.fits(a) && reopened.fits(b));
        // Only what a run meets is kept.
        reopened.meet([a].into_iter());
        reopened.save(&path).unwrap();
        let again = FitMemo::open(&path);
        assert!(again.fits(a) && !again.fits(b));
        // Another tool build's memo (its fit model may differ) is empty.
        let mut bytes = std::fs::read(&path).unwrap();
        let at = FIT_MEMO_MAGIC.len();
        bytes[at] ^= 1;
        std::fs::write(&path, bytes).unwrap();
        assert!(FitMemo::open(&path).is_empty());
        assert!(FitMemo::open(&dir.path().join("none")).is_empty());
    }
}
