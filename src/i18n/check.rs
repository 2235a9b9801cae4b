//! What a reviewer would catch in a translation, as located diagnostics:
//! the official glossary, numbers/icons/keywords of effect overrides, name
//! consistency, Japanese typography, and whether a text fits its box.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::sync::Arc;

use crate::diagnostics::{self, Code, Diagnostic, Fix};
use crate::effect::phrases;
use crate::yaml;

use super::glossary::{Category, Glossary, Mode};
use super::locale::Target;
use super::po::{self, PoString};
use super::text::is_wide;
use super::{Entry, Field, LocaleFile, Project, Unit, UnitKey};
use crate::faces::fonts::Script;
use crate::faces::layout::{Field as FaceField, line_width};

/// The face field a unit is printed in (phrases are not printed alone).
pub(crate) fn face_field(key: &UnitKey) -> Option<FaceField> {
    Some(match key {
        UnitKey::SetName { .. } => FaceField::SetName,
        UnitKey::Card { field, .. } => match field {
            Field::Name => FaceField::Name,
            Field::Flavor => FaceField::Flavor,
            Field::Effect => FaceField::Effect,
            Field::Phrase => return None,
        },
        UnitKey::Phrase { .. } => return None,
    })
}

/// Everything `blades i18n check` shows, as one answer a later run can
/// read back ([`super::answers`]).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct CheckAnswer {
    /// Errors in the set files (their cards are left out).
    pub set_errors: usize,
    /// What the checks found; `None` when the language asked for is not a
    /// language to translate into.
    pub checked: Option<Checked>,
}

/// What the checks of the languages asked for found.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Checked {
    /// [`findings`], sorted.
    pub findings: Vec<Diagnostic>,
    /// How many translated texts were checked.
    pub texts: usize,
}

impl CheckAnswer {
    /// Every check of the language `asked` for (each of the pool's when
    /// `None`).
    pub fn of(project: &Project, asked: Option<&str>) -> CheckAnswer {
        let checked = project.asked_languages(asked).map(|langs| {
            let texts = (langs.iter())
                .filter_map(|lang| project.locales.get(lang))
                .map(|locale| locale.entries().count())
                .sum();
            let lang = asked.and(langs.first().map(String::as_str));
            Checked {
                findings: findings(project, lang),
                texts,
            }
        });
        CheckAnswer {
            set_errors: project.set_errors,
            checked,
        }
    }

    /// The question the answer is kept under.
    pub fn question(asked: Option<&str>) -> String {
        format!("check {asked:?}")
    }
}

impl super::answers::Answer for CheckAnswer {
    fn findings(&self) -> &[Diagnostic] {
        self.checked
            .as_ref()
            .map_or(&[], |checked| &checked.findings)
    }
}

/// Everything `blades i18n check` finds: what loading the translations
/// found, then every check of each language asked for (all when `None`),
/// sorted.
pub fn findings(project: &Project, lang: Option<&str>) -> Vec<Diagnostic> {
    let mut out = project.diagnostics.clone();
    for lang in project.languages(lang) {
        out.extend(check(project, &lang));
    }
    diagnostics::sort(&mut out);
    out
}

/// Every check of one language's translations.
pub fn check(project: &Project, lang: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let Some(locale) = project.locales.get(lang) else {
        return out;
    };
    for (file, entry) in locale.entries() {
        let Some(located) = Located::new(project, file, entry) else {
            continue;
        };
        check_fingerprint(&located, &mut out);
        check_current(project, &located, &mut out);
        house_rules(project, lang, &located, &mut out);
    }
    // Phrase templates are also the renderer's book: unknown keys and
    // placeholders would fail `blades build` (missing keys are `status`'s).
    for file in locale.files.iter().filter(|f| f.target == Target::Phrases) {
        out.extend(phrases::problem_diagnostics(
            &file.path,
            phrases::translation_problems(file),
        ));
    }
    check_names(project, locale.entries(), &mut out);
    diagnostics::sort(&mut out);
    out
}

/// The rules one translated text keeps wherever it is written, in a
/// locale file or in a PO file being imported: the official glossary, the
/// house style, an effect override's meaning and the fit on the face.
/// Japanese only: the glossary and the style are the Japanese edition's.
pub fn house_rules(project: &Project, lang: &str, located: &Located, out: &mut Vec<Diagnostic>) {
    if lang != "ja" {
        return;
    }
    let glossary = Glossary::builtin();
    check_forbidden(glossary, located, out);
    if let Some(unit) = project.unit(&located.entry.key) {
        check_terms(project, glossary, located, unit, out);
        if located.entry.key.field() == Field::Effect {
            check_override(project, glossary, located, unit, out);
        }
    }
    check_style(located, out);
    check_fit(located, lang, out);
}

/// An entry with the means to locate a range of its text in the file.
pub struct Located<'a> {
    pub entry: &'a Entry,
    pub path: Arc<str>,
    /// `map[i]`: file offset of byte `i` of the text.
    map: Vec<usize>,
    /// The whole text's span in the file.
    whole: Range<usize>,
}

impl<'a> Located<'a> {
    fn new(project: &Project, file: &LocaleFile, entry: &'a Entry) -> Option<Located<'a>> {
        let text = project.sources.get(&file.path)?;
        let map = match &entry.text_at {
            Some(at) => yaml::text_offsets(
                text,
                at.span.start,
                yaml::TextStyle::of(at.style),
                &entry.text,
            ),
            None => vec![entry.key_span.start; entry.text.len() + 1],
        };
        Some(Located {
            entry,
            path: file.path.clone(),
            map,
            whole: entry.text_span(),
        })
    }

    /// An entry imported from a PO file, located at its `msgstr` there.
    pub fn in_po(
        entry: &'a Entry,
        po_path: &Arc<str>,
        po_text: &str,
        msgstr: &PoString,
    ) -> Located<'a> {
        let map = po::text_offsets(po_text, msgstr)
            .filter(|map| map.len() == entry.text.len() + 1)
            .unwrap_or_else(|| vec![msgstr.span.start; entry.text.len() + 1]);
        Located {
            entry,
            path: po_path.clone(),
            map,
            whole: msgstr.span.clone(),
        }
    }

    /// File span of a byte range of the text.
    pub fn span(&self, range: Range<usize>) -> Range<usize> {
        let at = |i: usize| {
            self.map
                .get(i)
                .copied()
                .unwrap_or(self.map[self.map.len() - 1])
        };
        let start = at(range.start);
        let end = if range.end > range.start {
            // End of the last character, not the start of the next one.
            let last = self.entry.text[..range.end]
                .char_indices()
                .next_back()
                .map_or(range.start, |(i, _)| i);
            at(last) + self.entry.text[last..range.end].len()
        } else {
            start
        };
        start..end.max(start)
    }

    /// The whole text's span.
    pub fn whole(&self) -> Range<usize> {
        self.whole.clone()
    }

    fn error(&self, code: Code, span: Range<usize>, message: impl Into<Arc<str>>) -> Diagnostic {
        Diagnostic::error(code, &self.path, span, message)
    }
}

/// File span of a byte range of a unit's (normalised) English.
fn english_span(project: &Project, unit: &Unit, range: Range<usize>) -> Range<usize> {
    let (Some(node), Some(text)) = (&unit.node, project.sources.get(&unit.path)) else {
        return unit.span.clone();
    };
    let Some(raw) = node.as_str() else {
        return unit.span.clone();
    };
    let file_map = yaml::scalar_offsets(text, node);
    let (_, norm_map) = super::locale::normalize_with_offsets(raw);
    let at = |i: usize| {
        let raw_at = norm_map.get(i).copied().unwrap_or(raw.len());
        file_map.get(raw_at).copied().unwrap_or(unit.span.end)
    };
    if range.is_empty() {
        return at(range.start)..at(range.start);
    }
    let last = unit.english[..range.end]
        .char_indices()
        .next_back()
        .map_or(range.start, |(i, _)| i);
    let start = at(range.start);
    let end = at(last) + unit.english[last..range.end].len();
    start..end.max(start)
}

/// The whole English of a unit, without a block scalar's trailing lines.
pub(crate) fn english_whole(project: &Project, unit: &Unit) -> Range<usize> {
    english_span(project, unit, 0..unit.english.len())
}

fn check_fingerprint(located: &Located, out: &mut Vec<Diagnostic>) {
    let entry = located.entry;
    if let (Some(source), Some(fp)) = (&entry.source, &entry.fingerprint)
        && super::fingerprint(source) != *fp
    {
        out.push(
            located
                .error(
                    Code::LocaleFingerprint,
                    entry.key_span.clone(),
                    format!(
                        "the fingerprint of `{}` is not the hash of its recorded `source`",
                        entry.key
                    ),
                )
                .with_label("fingerprint and source disagree")
                .with_help(
                    "one of them was edited by hand; re-import the text from a PO file, or fix `source` to the English it was translated from",
                ),
        );
    }
}

/// A translation made from older English, or marked for review: a
/// warning at its key, the English now as related information, and the
/// fix a translator makes once the text is reviewed (its record of the
/// English brought up to date).
fn check_current(project: &Project, located: &Located, out: &mut Vec<Diagnostic>) {
    let entry = located.entry;
    let Some(unit) = project.unit(&entry.key) else {
        return;
    };
    if entry.fingerprint.is_none() || entry.is_current(&unit.english) {
        return;
    }
    // A record at odds with itself is `locale-fingerprint`'s finding.
    if let (Some(source), Some(fp)) = (&entry.source, &entry.fingerprint)
        && super::fingerprint(source) != *fp
    {
        return;
    }
    let changed = !entry.fuzzy || entry.fingerprint != Some(super::fingerprint(&unit.english));
    let (message, label, help) = match (changed, &entry.source) {
        (true, Some(then)) => (
            format!(
                "the English of `{}` changed since it was translated",
                entry.key
            ),
            "translated from older English",
            format!(
                "it was translated from {then:?}; the English is now {:?}. Update the text, then mark it reviewed",
                unit.english
            ),
        ),
        (true, None) => (
            format!(
                "the English of `{}` changed since it was translated",
                entry.key
            ),
            "translated from older English",
            format!(
                "the English is now {:?}. Update the text, then mark it reviewed",
                unit.english
            ),
        ),
        (false, _) => (
            format!("`{}` is marked for review", entry.key),
            "`fuzzy: true`",
            "check the text against the English, then mark it reviewed".to_string(),
        ),
    };
    let text = project.sources.get(&located.path).map(|t| &**t);
    let fix = text
        .and_then(|text| entry.review_edits(&unit.english, text))
        .map(|edits| Fix::after_review("mark reviewed against the English now", edits));
    out.push(
        Diagnostic::warning(
            Code::LocaleStale,
            &located.path,
            entry.key_span.clone(),
            message,
        )
        .with_label(label)
        .with_help(help)
        .with_related(&unit.path, unit.span.clone(), "the English now")
        .with_fixes(fix),
    );
}

fn check_forbidden(glossary: &Glossary, located: &Located, out: &mut Vec<Diagnostic>) {
    for (term, range, variant) in glossary.forbidden(&located.entry.text) {
        let term = &glossary.terms[term];
        let span = located.span(range.clone());
        // The official term replaces the variant where it stands as
        // written in the file (no escape or folded line inside).
        let as_written = span.len() == range.len();
        let fix = as_written.then(|| {
            Fix::replace(
                format!("write `{}`", term.official()),
                span,
                term.official(),
            )
        });
        out.push(
            located
                .error(
                    Code::GlossaryForbidden,
                    located.span(range),
                    format!(
                        "`{variant}` is not the official term for `{}`; write `{}`",
                        term.english(),
                        term.official()
                    ),
                )
                .with_label(format!("write `{}`", term.official()))
                .with_help(rulebook_help(term))
                .with_fixes(fix),
        );
    }
}

fn rulebook_help(term: &super::glossary::Term) -> String {
    match &term.source {
        Some(source) => format!(
            "the Japanese rulebook writes `{}` ({source}); see data/glossary.yaml",
            term.official()
        ),
        None => format!(
            "the Japanese rulebook writes `{}`; see data/glossary.yaml",
            term.official()
        ),
    }
}

/// Glossary terms of the English must appear in their official form
/// (names and effect text). Flavor is prose and may paraphrase. A phrase
/// template is a fragment whose terms depend on where the renderer puts it
/// (`Flip` is the timing word in `timing.flip`, the verb elsewhere; `lose a
/// clash` is 敗北, not the 失う of RP), so templates are held to the
/// forbidden variants only (see docs/decisions.md).
fn check_terms(
    project: &Project,
    glossary: &Glossary,
    located: &Located,
    unit: &Unit,
    out: &mut Vec<Diagnostic>,
) {
    let mode = match unit.key.field() {
        Field::Name => Mode::Names,
        Field::Effect => Mode::Text,
        Field::Flavor | Field::Phrase => return,
    };
    let english = glossary.english(&unit.english, mode);
    let japanese = glossary.japanese(&located.entry.text);
    let mut reported = Vec::new();
    for hit in english {
        // In an override, timing words, keywords and icons are counted by
        // the override check.
        let counted = unit.key.field() == Field::Effect && glossary.terms[hit.term].counted();
        if counted || reported.contains(&hit.term) || japanese.iter().any(|h| h.term == hit.term) {
            continue;
        }
        reported.push(hit.term);
        let term = &glossary.terms[hit.term];
        let said = &unit.english[hit.range.clone()];
        out.push(
            located
                .error(
                    Code::GlossaryTerm,
                    located.whole(),
                    format!(
                        "the English says `{said}`, which is `{}` in the official glossary; this text does not use it",
                        term.official()
                    ),
                )
                .with_label(format!("no `{}` here", term.official()))
                .with_related(
                    &unit.path,
                    english_span(project, unit, hit.range.clone()),
                    format!("the English says `{said}`"),
                )
                .with_help(rulebook_help(term)),
        );
    }
}

/// Numbers, icons, timing words and keywords of an effect override must be
/// those of the English.
fn check_override(
    project: &Project,
    glossary: &Glossary,
    located: &Located,
    unit: &Unit,
    out: &mut Vec<Diagnostic>,
) {
    let text = &located.entry.text;
    let english_numbers = numbers(&unit.english);
    let japanese_numbers = numbers(text);
    if english_numbers != japanese_numbers {
        out.push(
            located
                .error(
                    Code::OverrideNumbers,
                    located.whole(),
                    format!(
                        "the English has the numbers {}; this text has {}",
                        list(&english_numbers),
                        list(&japanese_numbers)
                    ),
                )
                .with_label("numbers differ from the English")
                .with_related(&unit.path, english_whole(project, unit), "the English")
                .with_help("an override says what the English says: same amounts, same counts"),
        );
    }
    let count = |hits: Vec<super::glossary::Hit>, category: &[Category]| {
        let mut counts: BTreeMap<usize, usize> = BTreeMap::new();
        for hit in hits {
            if category.contains(&glossary.terms[hit.term].category) {
                *counts.entry(hit.term).or_default() += 1;
            }
        }
        counts
    };
    for (code, categories, what) in [
        (Code::OverrideIcons, &[Category::Icon][..], "STAR/RP icons"),
        (
            Code::OverrideKeywords,
            &[Category::Timing, Category::Keyword][..],
            "timing words and keywords",
        ),
    ] {
        let english = count(glossary.english(&unit.english, Mode::Text), categories);
        let japanese = count(glossary.japanese(text), categories);
        if english == japanese {
            continue;
        }
        let describe = |counts: &BTreeMap<usize, usize>| {
            if counts.is_empty() {
                return "none".to_string();
            }
            counts
                .iter()
                .map(|(t, n)| {
                    let term = &glossary.terms[*t];
                    format!("{} ×{n}", term.official())
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        out.push(
            located
                .error(
                    code,
                    located.whole(),
                    format!(
                        "the English has {what} {}; this text has {}",
                        describe(&english),
                        describe(&japanese)
                    ),
                )
                .with_label(format!("{what} differ from the English"))
                .with_related(&unit.path, english_whole(project, unit), "the English")
                .with_help(
                    "write each timing word, keyword and icon of the English, in its official form",
                ),
        );
    }
}

/// The numbers of a text, sorted (full-width digits count as digits).
pub(crate) fn numbers(text: &str) -> Vec<u64> {
    let mut found = Vec::new();
    let mut current: Option<u64> = None;
    for c in text.chars() {
        let digit = c
            .to_digit(10)
            .or_else(|| ('０'..='９').contains(&c).then(|| c as u32 - '０' as u32));
        match digit {
            Some(d) => {
                current = Some(
                    current
                        .unwrap_or(0)
                        .saturating_mul(10)
                        .saturating_add(u64::from(d)),
                )
            }
            None => found.extend(current.take()),
        }
    }
    found.extend(current);
    found.sort_unstable();
    found
}

fn list(numbers: &[u64]) -> String {
    if numbers.is_empty() {
        return "none".into();
    }
    numbers
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// One English name must have one translation, one translation one English
/// name; an override that names a card or set uses its translated name.
fn check_names<'a>(
    project: &'a Project,
    entries: impl Iterator<Item = (&'a LocaleFile, &'a Entry)>,
    out: &mut Vec<Diagnostic>,
) {
    let mut names: Vec<Name> = Vec::new();
    let mut overrides = Vec::new();
    for (file, entry) in entries {
        let Some(unit) = project.unit(&entry.key) else {
            continue;
        };
        if entry.key.is_name() {
            names.push(Name {
                english: &unit.english,
                entry,
                path: &file.path,
            });
        } else if entry.key.field() == Field::Effect {
            overrides.push((file, entry, unit));
        }
    }
    check_one_name_one_translation(&names, out);
    let by_first_word = names_by_first_word(&names);
    for (file, entry, unit) in overrides {
        check_names_in_override(&by_first_word, file, entry, unit, out);
    }
}

/// A translated name and the English it translates.
struct Name<'a> {
    english: &'a str,
    entry: &'a Entry,
    path: &'a Arc<str>,
}

/// Two English names never share a translation, and one English name has
/// one translation.
fn check_one_name_one_translation(names: &[Name<'_>], out: &mut Vec<Diagnostic>) {
    let mut by_translation: HashMap<String, &Name> = HashMap::new();
    let mut by_english: HashMap<String, &Name> = HashMap::new();
    for name in names {
        let translated = name.entry.normalized().to_lowercase();
        let english = name.english.to_lowercase();
        match by_translation.get(&translated) {
            Some(first) if first.english.to_lowercase() != english => out.push(
                Diagnostic::error(
                    Code::NameConflict,
                    name.path,
                    name.entry.text_span(),
                    format!(
                        "`{}` translates both `{}` and `{}`",
                        name.entry.normalized(),
                        first.english,
                        name.english
                    ),
                )
                .with_label(format!("the name of `{}`", name.english))
                .with_related(
                    first.path,
                    first.entry.text_span(),
                    format!("also the name of `{}`", first.english),
                )
                .with_help("two different English names need two different translations, or players cannot tell the cards apart"),
            ),
            Some(_) => {}
            None => {
                by_translation.insert(translated, name);
            }
        }
        match by_english.get(&english) {
            Some(first) if first.entry.normalized() != name.entry.normalized() => out.push(
                Diagnostic::error(
                    Code::NameConflict,
                    name.path,
                    name.entry.text_span(),
                    format!(
                        "`{}` is translated both `{}` and `{}`",
                        name.english,
                        first.entry.normalized(),
                        name.entry.normalized()
                    ),
                )
                .with_label("second translation")
                .with_related(first.path, first.entry.text_span(), "first translation")
                .with_help("use one translation for one English name"),
            ),
            Some(_) => {}
            None => {
                by_english.insert(english, name);
            }
        }
    }
}

/// Names by their first word, so an override only tests the names whose
/// first word it contains.
fn names_by_first_word<'n, 'a>(names: &'n [Name<'a>]) -> HashMap<&'a str, Vec<&'n Name<'a>>> {
    let mut by_first_word: HashMap<&str, Vec<&Name>> = HashMap::new();
    for name in names {
        if let Some(word) = name.english.split_whitespace().next() {
            let word =
                word.trim_end_matches(|c: char| c.is_ascii_punctuation() && c != '-' && c != '\'');
            by_first_word.entry(word).or_default().push(name);
        }
    }
    by_first_word
}

/// An effect override names a card or set in English: its text must use
/// that name's translation.
fn check_names_in_override(
    by_first_word: &HashMap<&str, Vec<&Name<'_>>>,
    file: &LocaleFile,
    entry: &Entry,
    unit: &Unit,
    out: &mut Vec<Diagnostic>,
) {
    let mut candidates: Vec<&Name> = unit
        .english
        .split(|c: char| c.is_whitespace() || (c.is_ascii_punctuation() && c != '-' && c != '\''))
        .filter_map(|w| by_first_word.get(w))
        .flatten()
        .copied()
        .collect();
    candidates.sort_by(|a, b| a.entry.key.cmp(&b.entry.key));
    candidates.dedup_by(|a, b| a.entry.key == b.entry.key);
    for name in candidates {
        if name.entry.key == entry.key || !contains_words(&unit.english, name.english) {
            continue;
        }
        let translated = name.entry.normalized();
        if entry.text.contains(&translated) {
            continue;
        }
        out.push(
            Diagnostic::error(
                Code::NameReference,
                &file.path,
                entry.text_span(),
                format!(
                    "the English names `{}`; this text does not use its translation `{translated}`",
                    name.english
                ),
            )
            .with_label(format!("no `{translated}` here"))
            .with_related(name.path, name.entry.text_span(), "the translated name")
            .with_help("refer to cards and sets by their translated names"),
        );
    }
}

/// Does `text` hold `words` as whole words?
fn contains_words(text: &str, words: &str) -> bool {
    text.match_indices(words).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + words.len()..].chars().next();
        before.is_none_or(|c| !c.is_alphanumeric()) && after.is_none_or(|c| !c.is_alphanumeric())
    })
}

/// What a style problem is, for grouping runs of characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    Punctuation,
    FullwidthAlnum,
    HalfwidthKana,
    Spacing,
}

/// Japanese typography: full-width punctuation, half-width digits and Latin
/// letters, no half-width katakana, no space next to full-width text.
fn check_style(located: &Located, out: &mut Vec<Diagnostic>) {
    let text = &located.entry.text;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut runs: Vec<(Style, Range<usize>, String)> = Vec::new();
    for (k, &(i, c)) in chars.iter().enumerate() {
        let prev = k.checked_sub(1).map(|p| chars[p].1);
        let next = chars.get(k + 1).map(|n| n.1);
        let style = if let Some(full) = full_width_punctuation(c) {
            let between_digits = matches!(c, '.' | ',' | ':')
                && prev.is_some_and(|p| p.is_ascii_digit())
                && next.is_some_and(|n| n.is_ascii_digit());
            let in_latin = prev.is_some_and(|p| p.is_ascii_alphanumeric())
                && next.is_some_and(|n| n.is_ascii_alphanumeric());
            (!between_digits && !in_latin).then_some((Style::Punctuation, full.to_string()))
        } else if let Some(half) = half_width_alnum(c) {
            Some((Style::FullwidthAlnum, half.to_string()))
        } else if ('\u{FF65}'..='\u{FF9F}').contains(&c) {
            Some((Style::HalfwidthKana, String::new()))
        } else if c == ' ' && (prev.is_some_and(is_wide) || next.is_some_and(is_wide)) {
            Some((Style::Spacing, String::new()))
        } else {
            None
        };
        let Some((style, fix)) = style else { continue };
        match runs.last_mut() {
            Some((s, range, f)) if *s == style && range.end == i => {
                range.end = i + c.len_utf8();
                f.push_str(&fix);
            }
            _ => runs.push((style, i..i + c.len_utf8(), fix)),
        }
    }
    for (style, range, fix) in runs {
        let found = &text[range.clone()];
        let (code, message, label, help) = match style {
            Style::Punctuation => (
                Code::StylePunctuation,
                format!("half-width punctuation `{found}` in Japanese text"),
                format!("write `{fix}`"),
                "Japanese text uses full-width 。、！？「」（）：".to_string(),
            ),
            Style::FullwidthAlnum => (
                Code::StyleFullwidthAlnum,
                format!("full-width `{found}` in Japanese text"),
                format!("write `{fix}`"),
                "digits and Latin letters are half-width (2RP, STAR)".to_string(),
            ),
            Style::HalfwidthKana => (
                Code::StyleHalfwidthKana,
                format!("half-width katakana `{found}`"),
                "half-width katakana".to_string(),
                "write full-width katakana".to_string(),
            ),
            Style::Spacing => (
                Code::StyleSpacing,
                "a space next to full-width text".to_string(),
                "remove this space".to_string(),
                "Japanese text has no space between full-width and half-width text (2RPを得る)"
                    .to_string(),
            ),
        };
        out.push(
            located
                .error(code, located.span(range), message)
                .with_label(label)
                .with_help(help),
        );
    }
}

fn full_width_punctuation(c: char) -> Option<char> {
    Some(match c {
        '.' | '｡' => '。',
        ',' | '､' => '、',
        '!' => '！',
        '?' => '？',
        '(' => '（',
        ')' => '）',
        ':' => '：',
        '｢' => '「',
        '｣' => '」',
        _ => return None,
    })
}

fn half_width_alnum(c: char) -> Option<char> {
    let code = u32::from(c);
    matches!(c, '０'..='９' | 'Ａ'..='Ｚ' | 'ａ'..='ｚ')
        .then(|| char::from_u32(code - 0xFEE0))
        .flatten()
}

/// The text must fit its box on the card face: the fit model `blades
/// render` draws with (real font metrics, kinsoku, shrinking to a floor).
fn check_fit(located: &Located, lang: &str, out: &mut Vec<Diagnostic>) {
    let Some(field) = face_field(&located.entry.key) else {
        return;
    };
    let text = &located.entry.text;
    let what = field.what();
    let fitted = field.fit(text, lang);
    let Some(overflow) = fitted.overflow.clone() else {
        return;
    };
    let text_box = field.text_box();
    let floor = text_box.min_size;
    if text_box.max_lines == 1 {
        let trimmed = text.trim_end();
        let width = line_width(trimmed, field.base_style(), Script::of_lang(lang), floor);
        let message = if trimmed.contains('\n') {
            format!("this {what} has a line break; its box holds one line")
        } else {
            format!(
                "this {what} is {width:.1} mm wide at the smallest size ({floor} pt); its box is {} mm",
                text_box.width
            )
        };
        out.push(
            located
                .error(Code::TextFit, located.whole(), message)
                .with_label("too wide")
                .with_help("shorten it (`blades render` draws the card face)"),
        );
        return;
    }
    let fitting = fitted
        .lines
        .iter()
        .position(|l| l.range.start >= overflow.start)
        .unwrap_or(fitted.lines.len());
    out.push(
        located
            .error(
                Code::TextFit,
                located.span(overflow),
                format!(
                    "this {what} needs {} lines at the smallest size ({floor} pt); its box holds {fitting}",
                    fitted.lines.len(),
                ),
            )
            .with_label("does not fit")
            .with_help(
                "shorten it; lines break with kinsoku (no line starts with 。、」 or small kana, none ends with 「（); `blades render` draws the card face",
            ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_collected_sorted() {
        assert_eq!(numbers("Gain 2 RP. Lose 10 RP, +1 STAR"), [1, 2, 10]);
        assert_eq!(numbers("１０RPと2"), [2, 10]);
        assert!(numbers("なし").is_empty());
    }

    #[test]
    fn whole_words() {
        assert!(contains_words(
            "each card from Sunset Gulch in",
            "Sunset Gulch"
        ));
        assert!(!contains_words("Sunset Gulches", "Sunset Gulch"));
    }

    #[test]
    fn half_width_forms() {
        assert_eq!(half_width_alnum('２'), Some('2'));
        assert_eq!(half_width_alnum('Ｒ'), Some('R'));
        assert_eq!(half_width_alnum('2'), None);
        assert_eq!(full_width_punctuation('.'), Some('。'));
    }
}
