//! Translation coverage: for one language, each unit is translated,
//! missing, stale (its English changed since it was translated) or orphaned
//! (a translation whose English is gone).

use crate::words::plural;
use std::collections::HashMap;
use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::answers::Answer;
use super::{Entry, Locale, Project, Unit, language_name};
use crate::diagnostics::Diagnostic;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum State {
    Translated,
    Missing,
    Stale,
    Orphaned,
}

impl State {
    pub fn as_str(self) -> &'static str {
        match self {
            State::Translated => "translated",
            State::Missing => "missing",
            State::Stale => "stale",
            State::Orphaned => "orphaned",
        }
    }

    pub fn parse(text: &str) -> Option<State> {
        [
            State::Translated,
            State::Missing,
            State::Stale,
            State::Orphaned,
        ]
        .into_iter()
        .find(|s| s.as_str() == text)
    }
}

/// Why a translation is stale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum StaleReason {
    /// The English changed since the text was translated.
    EnglishChanged,
    /// A translator marked it for review.
    Fuzzy,
    /// No fingerprint recorded: the English it was made from is unknown.
    NoFingerprint,
}

#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct Counts {
    pub translated: usize,
    pub missing: usize,
    pub stale: usize,
    pub orphaned: usize,
}

impl Counts {
    fn add(&mut self, state: State) {
        match state {
            State::Translated => self.translated += 1,
            State::Missing => self.missing += 1,
            State::Stale => self.stale += 1,
            State::Orphaned => self.orphaned += 1,
        }
    }

    pub fn get(&self, state: State) -> usize {
        match state {
            State::Translated => self.translated,
            State::Missing => self.missing,
            State::Stale => self.stale,
            State::Orphaned => self.orphaned,
        }
    }

    /// Texts the current English asks for.
    pub fn current(&self) -> usize {
        self.translated + self.missing + self.stale
    }
}

/// One unit's state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct StatusEntry {
    /// The PO `msgctxt`.
    pub context: String,
    /// Set id (`null` for phrase templates).
    pub set: Option<String>,
    /// Card id (`null` for set names and phrases).
    pub card: Option<String>,
    /// `name`, `flavor`, `effect` or `phrase`.
    pub field: String,
    pub state: State,
    /// The file that holds the translation (or the English, when missing).
    pub file: String,
    pub line: usize,
    /// Stale: why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<StaleReason>,
    /// Stale: the English the translation was made from, when recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub then: Option<String>,
    /// Stale and missing: the English now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub now: Option<String>,
}

/// Counts of one set (or `phrases`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SetStatus {
    pub set: String,
    #[serde(flatten)]
    pub counts: Counts,
}

/// The status of one language.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LanguageStatus {
    pub lang: String,
    #[serde(flatten)]
    pub counts: Counts,
    pub sets: Vec<SetStatus>,
    /// Every unit, in pool order, then orphaned translations.
    pub entries: Vec<StatusEntry>,
}

/// `blades i18n status --format json`.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct StatusReport {
    pub languages: Vec<LanguageStatus>,
    /// Problems reading the locale files.
    pub diagnostics: Vec<crate::report::JsonDiagnostic>,
}

/// Which entries a status lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listed {
    /// Every unit's (`--format json`).
    Every,
    /// Only those that are not translated (the report people read); the
    /// counts still count every unit.
    Problems,
}

/// Everything `blades i18n status` shows, as one answer a later run can
/// read back ([`super::answers`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StatusAnswer {
    /// Errors in the set files (their cards are left out).
    pub set_errors: usize,
    /// Problems reading the locale files.
    pub diagnostics: Vec<Diagnostic>,
    /// The status of each language asked for; `None` when the one asked
    /// for is not a language to translate into.
    pub languages: Option<Vec<LanguageStatus>>,
}

impl StatusAnswer {
    /// The status of the language `asked` for (each of the pool's when
    /// `None`), its entries as `listed`.
    pub fn of(project: &Project, asked: Option<&str>, listed: Listed) -> StatusAnswer {
        let languages = (project.asked_languages(asked)).map(|langs| {
            (langs.iter())
                .map(|lang| status(project, lang, listed))
                .collect()
        });
        StatusAnswer {
            set_errors: project.set_errors,
            diagnostics: project.diagnostics.clone(),
            languages,
        }
    }

    /// The question the answer is kept under.
    pub fn question(asked: Option<&str>, listed: Listed) -> String {
        format!("status {listed:?} {asked:?}")
    }
}

impl Answer for StatusAnswer {
    fn findings(&self) -> &[Diagnostic] {
        &self.diagnostics
    }
}

/// The status of one language over a project.
pub fn status(project: &Project, lang: &str, listed: Listed) -> LanguageStatus {
    let locale = project.locales.get(lang);
    let mut counts = Tally::new(project);
    let mut entries = Vec::new();
    for unit in &project.units {
        let Some((state, entry)) = unit_state(locale, unit) else {
            continue;
        };
        counts.add(unit.key.set(), state);
        if listed == Listed::Every || state != State::Translated {
            entries.push(unit_status(project, locale, unit, state, entry));
        }
    }
    if let Some(locale) = locale {
        for entry in orphaned(project, locale) {
            counts.add(entry.set.as_deref(), entry.state);
            entries.push(entry);
        }
    }
    LanguageStatus {
        lang: lang.to_string(),
        counts: counts.all,
        sets: counts.sets,
        entries,
    }
}

/// A unit's state in a language and its translation; `None` for an
/// optional unit left untranslated.
fn unit_state<'l>(locale: Option<&'l Locale>, unit: &Unit) -> Option<(State, Option<&'l Entry>)> {
    let entry = locale.and_then(|l| l.entry(&unit.key));
    let state = match entry {
        None if !unit.required => return None,
        None => State::Missing,
        Some(e) if e.is_current(&unit.english) => State::Translated,
        Some(_) => State::Stale,
    };
    Some((state, entry))
}

/// A unit's entry in the status, in its state.
fn unit_status(
    project: &Project,
    locale: Option<&Locale>,
    unit: &Unit,
    state: State,
    entry: Option<&Entry>,
) -> StatusEntry {
    let (reason, file, span) = match entry {
        None => (None, unit.path.clone(), unit.span.clone()),
        Some(e) => {
            let file = locale
                .and_then(|l| l.file_of(&unit.key))
                .map(|f| f.path.clone())
                .unwrap_or_else(|| unit.path.clone());
            let reason = (state == State::Stale).then(|| stale_reason(e, unit));
            (reason, file, e.text_span())
        }
    };
    let then = match (state, entry) {
        (State::Stale, Some(e)) => e.source.clone(),
        _ => None,
    };
    let line = project.line(&file, span.start);
    StatusEntry {
        context: unit.key.to_string(),
        set: unit.key.set().map(str::to_string),
        card: unit.key.card().map(str::to_string),
        field: unit.key.field().as_str().to_string(),
        state,
        file: file.to_string(),
        line,
        reason,
        then,
        now: matches!(state, State::Stale | State::Missing).then(|| unit.english.clone()),
    }
}

/// Why a translation is stale.
fn stale_reason(entry: &Entry, unit: &Unit) -> StaleReason {
    if entry.fingerprint.is_none() {
        StaleReason::NoFingerprint
    } else if entry.fingerprint.as_deref() == Some(super::fingerprint(&unit.english).as_str()) {
        StaleReason::Fuzzy
    } else {
        StaleReason::EnglishChanged
    }
}

/// The translations of units the pool no longer has.
fn orphaned<'a>(
    project: &'a Project,
    locale: &'a Locale,
) -> impl Iterator<Item = StatusEntry> + 'a {
    locale
        .entries()
        .filter(|(_, entry)| project.unit(&entry.key).is_none())
        .map(|(file, entry)| {
            let line = project.line(&file.path, entry.key_span.start);
            StatusEntry {
                context: entry.key.to_string(),
                set: entry.key.set().map(str::to_string),
                card: entry.key.card().map(str::to_string),
                field: entry.key.field().as_str().to_string(),
                state: State::Orphaned,
                file: file.path.to_string(),
                line,
                reason: None,
                then: entry.source.clone(),
                now: None,
            }
        })
}

/// The counts of each state, over all and by set (the pool's sets in
/// order, then groups met in the entries; phrase templates as `phrases`).
struct Tally {
    all: Counts,
    sets: Vec<SetStatus>,
    index: HashMap<String, usize>,
}

impl Tally {
    fn new(project: &Project) -> Tally {
        let sets: Vec<SetStatus> = (project.sets.iter())
            .map(|s| SetStatus {
                set: s.id.clone(),
                counts: Counts::default(),
            })
            .collect();
        let mut index: HashMap<String, usize> = HashMap::with_capacity(sets.len());
        for (i, set) in sets.iter().enumerate() {
            index.entry(set.set.clone()).or_insert(i);
        }
        Tally {
            all: Counts::default(),
            sets,
            index,
        }
    }

    /// Counts one entry of a set (`None`: the phrase templates).
    fn add(&mut self, set: Option<&str>, state: State) {
        self.all.add(state);
        let name = set.unwrap_or("phrases");
        let i = match self.index.get(name) {
            Some(&i) => i,
            None => {
                self.sets.push(SetStatus {
                    set: name.to_string(),
                    counts: Counts::default(),
                });
                self.index.insert(name.to_string(), self.sets.len() - 1);
                self.sets.len() - 1
            }
        };
        self.sets[i].counts.add(state);
    }
}

/// A word diff in `git diff --word-diff=plain` style: `[-old-]{+new+}`.
/// Words and punctuation marks are compared one by one; line breaks show
/// as spaces.
pub(crate) fn word_diff(then: &str, now: &str) -> String {
    let a = tokens(then);
    let b = tokens(now);
    // Longest common subsequence table, from the end.
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i].1 == b[j].1 {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut out = String::new();
    let mut removed: Vec<&(bool, String)> = Vec::new();
    let mut added: Vec<&(bool, String)> = Vec::new();
    let flush =
        |out: &mut String, removed: &mut Vec<&(bool, String)>, added: &mut Vec<&(bool, String)>| {
            let group = |tokens: &[&(bool, String)]| {
                let mut text = String::new();
                for (k, (space, token)) in tokens.iter().enumerate() {
                    if *space && k > 0 {
                        text.push(' ');
                    }
                    text.push_str(token);
                }
                text
            };
            let lead = removed.first().or(added.first()).is_some_and(|t| t.0);
            if (!removed.is_empty() || !added.is_empty()) && lead && !out.is_empty() {
                out.push(' ');
            }
            if !removed.is_empty() {
                out.push_str(&format!("[-{}-]", group(removed)));
                removed.clear();
            }
            if !added.is_empty() {
                out.push_str(&format!("{{+{}+}}", group(added)));
                added.clear();
            }
        };
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i].1 == b[j].1 {
            flush(&mut out, &mut removed, &mut added);
            if a[i].0 && !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&a[i].1);
            i += 1;
            j += 1;
        } else if j < b.len() && (i == a.len() || lcs[i][j + 1] >= lcs[i + 1][j]) {
            added.push(&b[j]);
            j += 1;
        } else {
            removed.push(&a[i]);
            i += 1;
        }
    }
    flush(&mut out, &mut removed, &mut added);
    out
}

/// Words (letters, digits, `-`, `'`, `{`, `}`) and single other marks, each
/// with whether a space came before it.
fn tokens(text: &str) -> Vec<(bool, String)> {
    let mut out: Vec<(bool, String)> = Vec::new();
    let mut space = false;
    let mut in_word = false;
    for c in text.chars() {
        if c.is_whitespace() {
            space = true;
            in_word = false;
            continue;
        }
        let word_char = c.is_alphanumeric() || matches!(c, '-' | '\'' | '{' | '}' | '+');
        match out.last_mut() {
            Some((_, word)) if in_word && word_char => word.push(c),
            _ => out.push((space, c.to_string())),
        }
        in_word = word_char;
        space = false;
    }
    out
}

/// Human report of one language's status.
pub fn render_human(status: &LanguageStatus) -> String {
    let mut out = String::new();
    let c = &status.counts;
    let current = c.current();
    let share = if current == 0 {
        "nothing to translate".to_string()
    } else {
        format!(
            "{} of {} translated ({:.1}%)",
            c.translated,
            plural(current, "text", "texts"),
            c.translated as f64 * 100.0 / current as f64
        )
    };
    let _ = writeln!(
        out,
        "{} ({}): {share}, {} missing, {} stale, {} orphaned",
        language_name(&status.lang),
        status.lang,
        c.missing,
        c.stale,
        c.orphaned
    );
    let width = status
        .sets
        .iter()
        .map(|s| s.set.chars().count())
        .chain([5])
        .max()
        .unwrap_or(5);
    let _ = writeln!(
        out,
        "\n  {:width$}  translated  missing  stale  orphaned",
        "set"
    );
    let row = |out: &mut String, name: &str, c: &Counts| {
        let _ = writeln!(
            out,
            "  {name:width$}  {:>10}  {:>7}  {:>5}  {:>8}",
            c.translated, c.missing, c.stale, c.orphaned
        );
    };
    for set in &status.sets {
        row(&mut out, &set.set, &set.counts);
    }
    row(&mut out, "total", c);
    let problems: Vec<&StatusEntry> = status
        .entries
        .iter()
        .filter(|e| e.state != State::Translated)
        .collect();
    if !problems.is_empty() {
        out.push('\n');
    }
    let indent = "           ";
    for entry in problems {
        let _ = writeln!(
            out,
            "{:<9}  {}  ({}:{})",
            entry.state.as_str(),
            entry.context,
            entry.file,
            entry.line
        );
        if entry.state == State::Stale {
            let reason = match entry.reason {
                Some(StaleReason::Fuzzy) => Some("marked for review (fuzzy)"),
                Some(StaleReason::NoFingerprint) => {
                    Some("no fingerprint: the English it was made from is unknown")
                }
                _ => None,
            };
            if let Some(reason) = reason {
                let _ = writeln!(out, "{indent}{reason}");
            }
            let now = entry.now.as_deref().unwrap_or_default();
            match entry.then.as_deref() {
                Some(then) if then != now => {
                    let _ = writeln!(out, "{indent}then: {}", indented(then, indent));
                    let _ = writeln!(out, "{indent}now:  {}", indented(now, indent));
                    let _ = writeln!(out, "{indent}diff: {}", word_diff(then, now));
                }
                _ => {
                    let _ = writeln!(out, "{indent}now:  {}", indented(now, indent));
                }
            }
        }
        if entry.state == State::Missing
            && let Some(now) = &entry.now
        {
            let _ = writeln!(out, "{indent}english: {}", indented(now, indent));
        }
        if entry.state == State::Orphaned {
            let _ = writeln!(
                out,
                "{indent}no such text in the English any more; remove it or move it to the new id"
            );
        }
    }
    out
}

/// Later lines of a multi-line text, indented under the first.
fn indented(text: &str, indent: &str) -> String {
    text.replace('\n', &format!("\n{indent}      "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_diffs_mark_changed_words() {
        assert_eq!(
            word_diff("High Noon Sheriff", "High Midnight Sheriff"),
            "High [-Noon-]{+Midnight+} Sheriff"
        );
        assert_eq!(word_diff("a b", "a b c"), "a b {+c+}");
        assert_eq!(word_diff("Gain 2 RP.", "Gain 3 RP."), "Gain [-2-]{+3+} RP.");
        assert_eq!(word_diff("same", "same"), "same");
        assert_eq!(
            word_diff("Sun-baked and patient.", "Sun-baked, patient and hungry."),
            "Sun-baked{+, patient+} and [-patient-]{+hungry+}."
        );
        assert_eq!(
            word_diff("Scurry.\nPlay: Gain 1 RP.", "Scurry.\nPlay: Gain 2 RP."),
            "Scurry. Play: Gain [-1-]{+2+} RP."
        );
        assert_eq!(word_diff("", "new words"), "{+new words+}");
    }
}
