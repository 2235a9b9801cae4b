//! `blades fix`: the fixes a pool's findings carry ([`Fix`], made where
//! each finding is made), written into the files: every one that is
//! unambiguous, all files or none.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;

use crate::compile::compile;
use crate::diagnostics::{Code, Diagnostic, Edit, Fix, Sources, apply_edits};
use crate::files::{WriteError, write_all};
use crate::i18n;
use crate::pool::Pool;

/// One fix made in a file.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// The code of the finding it fixes.
    pub code: Code,
    /// Where the finding is, in the file as it was.
    pub span: Range<usize>,
    pub title: Arc<str>,
}

/// A file with its fixes made.
#[derive(Debug)]
pub struct FixedFile {
    pub path: Arc<str>,
    pub text: String,
    pub applied: Vec<Applied>,
}

/// What `blades fix` does to a pool.
#[derive(Debug, Default)]
pub struct PoolFixes {
    pub files: Vec<FixedFile>,
    /// Findings whose fix is left out: it offers several, or its edits
    /// overlap another finding's.
    pub ambiguous: Vec<Diagnostic>,
    /// Findings whose fix records a review, left out unless asked for
    /// ([`Reviews::Mark`]).
    pub awaiting_review: Vec<Diagnostic>,
    /// The text of every file, for locating what was done.
    pub sources: Sources,
}

impl PoolFixes {
    /// Writes every fixed file, or none.
    pub fn write(&self) -> Result<(), WriteError> {
        write_all(
            self.files
                .iter()
                .map(|file| (Path::new(&*file.path), file.text.as_bytes())),
        )
    }
}

/// Whether the fixes that record a person's review ([`Fix::review`]: a
/// stale translation marked as reviewed against the English now) are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reviews {
    /// Left out and counted: a plain `blades fix`.
    Leave,
    /// Made: `blades fix --reviewed`, once the texts are reviewed.
    Mark,
}

/// The fixes of everything `blades build` and `blades i18n check` find in
/// `pool`.
pub fn fix_pool(pool: &Pool, reviews: Reviews) -> PoolFixes {
    let compiled = compile(pool);
    let mut findings = compiled.diagnostics;
    let mut sources = compiled.sources;
    let project = i18n::Project::load(pool);
    findings.extend(i18n::check::findings(&project, None));
    sources.extend(project.sources);
    plan(&findings, sources, reviews)
}

/// The files `findings` point into with every unambiguous fix made: a
/// finding with one fix, whose edits overlap no other finding's (the same
/// fix found twice, by two commands, is made once).
pub fn plan(findings: &[Diagnostic], sources: Sources, reviews: Reviews) -> PoolFixes {
    let mut by_file: BTreeMap<&str, Vec<(&Diagnostic, &Fix)>> = BTreeMap::new();
    let mut ambiguous = Vec::new();
    let mut awaiting_review = Vec::new();
    for finding in findings {
        match finding.fixes.as_slice() {
            [] => {}
            [fix] if fix.review && reviews == Reviews::Leave => {
                awaiting_review.push(finding.clone());
            }
            [fix] if !fix.edits.is_empty() => {
                by_file
                    .entry(&finding.path)
                    .or_default()
                    .push((finding, fix));
            }
            _ => ambiguous.push(finding.clone()),
        }
    }
    let mut files = Vec::new();
    for (path, mut fixes) in by_file {
        let Some(text) = sources.get(path) else {
            continue;
        };
        fixes.sort_by_key(|(_, fix)| (fix.edits[0].span.start, fix.edits[0].span.end));
        fixes.dedup_by(|(_, a), (_, b)| a.edits == b.edits);
        let (kept, overlapping) = apart(fixes);
        ambiguous.extend(overlapping.into_iter().map(|(finding, _)| finding.clone()));
        let edits: Vec<&Edit> = kept.iter().flat_map(|(_, fix)| &fix.edits).collect();
        let Some(fixed) = apply_edits(text, edits.iter().copied()) else {
            continue;
        };
        if kept.is_empty() {
            continue;
        }
        let applied = kept
            .iter()
            .map(|(finding, fix)| Applied {
                code: finding.code,
                span: finding.span.clone(),
                title: fix.title.clone(),
            })
            .collect();
        files.push(FixedFile {
            path: Arc::from(path),
            text: fixed,
            applied,
        });
    }
    PoolFixes {
        files,
        ambiguous,
        awaiting_review,
        sources,
    }
}

/// `blades fix --format json`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct FixReport {
    /// True for `--check` (nothing written).
    pub check: bool,
    /// The files with fixes made (or, with `check`, to make).
    pub files: Vec<FixFile>,
    /// How many findings offer fixes that were left out: several fixes,
    /// or edits that overlap another finding's.
    pub ambiguous: usize,
    /// How many translations could be marked reviewed (`--reviewed`).
    pub awaiting_review: usize,
}

/// One file `fix` rewrites.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct FixFile {
    pub file: String,
    pub fixes: Vec<FixMade>,
}

/// One fix: the finding's code and place (1-based line and column in
/// characters, in the file as it was) and what the fix does.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct FixMade {
    pub code: String,
    pub line: usize,
    pub column: usize,
    pub title: String,
}

impl FixReport {
    pub fn of(fixes: &PoolFixes, check: bool) -> FixReport {
        let files = fixes
            .files
            .iter()
            .map(|file| FixFile {
                file: file.path.to_string(),
                fixes: file
                    .applied
                    .iter()
                    .map(|applied| {
                        let (line, column) = fixes.sources.line_col(&file.path, applied.span.start);
                        FixMade {
                            code: applied.code.as_str().to_string(),
                            line,
                            column,
                            title: applied.title.to_string(),
                        }
                    })
                    .collect(),
            })
            .collect();
        FixReport {
            check,
            files,
            ambiguous: fixes.ambiguous.len(),
            awaiting_review: fixes.awaiting_review.len(),
        }
    }
}

type Found<'a> = (&'a Diagnostic, &'a Fix);

/// The fixes (sorted by their first edit) that touch no other, and those
/// that do: which of two overlapping fixes is meant is not for the tool to
/// guess.
fn apart(fixes: Vec<Found<'_>>) -> (Vec<Found<'_>>, Vec<Found<'_>>) {
    let reach = |fix: &Fix| {
        let start = fix.edits.iter().map(|e| e.span.start).min().unwrap_or(0);
        let end = fix.edits.iter().map(|e| e.span.end).max().unwrap_or(0);
        start..end
    };
    let spans: Vec<Range<usize>> = fixes.iter().map(|(_, fix)| reach(fix)).collect();
    let touches = |i: usize| {
        let before = i > 0 && spans[i - 1].end > spans[i].start;
        let after = spans
            .get(i + 1)
            .is_some_and(|next| spans[i].end > next.start);
        before || after
    };
    let (mut kept, mut overlapping) = (Vec::new(), Vec::new());
    for (i, found) in fixes.into_iter().enumerate() {
        match touches(i) {
            true => overlapping.push(found),
            false => kept.push(found),
        }
    }
    (kept, overlapping)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(path: &Arc<str>, span: Range<usize>, word: &str) -> Diagnostic {
        Diagnostic::error(Code::InvalidValue, path, span.clone(), "typo")
            .with_replacement(span, word)
    }

    #[test]
    fn a_word_is_written_only_where_it_stands_as_text() {
        assert!(crate::yaml::word_fix(0..3, "air").is_some());
        for word in [
            "true", "null", "12", "~", "a: b", "-x", "a #b", "[x]", "", "x\ny",
        ] {
            assert!(crate::yaml::word_fix(0..3, word).is_none(), "{word:?}");
        }
    }

    /// An effect's fix is kept where its word stands in the file as
    /// written, and left out where an escape changes its bytes.
    #[test]
    fn an_effect_fix_is_left_out_across_an_escape() {
        let path: Arc<str> = Arc::from("s.yaml");
        let fixes = |text: &str| -> Vec<String> {
            let formatted = crate::fmt::format_set_file(&path, text);
            formatted
                .problems
                .iter()
                .flat_map(|d| &d.fixes)
                .map(|fix| fix.apply(text).unwrap())
                .collect()
        };
        let plain = "id: s\ncards:\n  - {id: a, effect: \"Play: Gane 1 RP.\"}\n";
        assert_eq!(
            fixes(plain),
            ["id: s\ncards:\n  - {id: a, effect: \"Play: Gain 1 RP.\"}\n"]
        );
        let escaped = "id: s\ncards:\n  - {id: a, effect: \"Play: G\\x61ne 1 RP.\"}\n";
        assert_eq!(fixes(escaped), Vec::<String>::new());
    }

    #[test]
    fn fixes_are_made_once_and_overlapping_ones_left_out() {
        let path: Arc<str> = Arc::from("s.yaml");
        let mut sources = Sources::default();
        sources.insert(path.clone(), Arc::from("a: [aer, fyre]\nb: lihgt\n"));
        let findings = [
            finding(&path, 4..7, "air"),
            // The same fix from a second command.
            finding(&path, 4..7, "air"),
            finding(&path, 9..13, "fire"),
            finding(&path, 11..13, "xx"),
            finding(&path, 18..23, "light"),
        ];
        let planned = plan(&findings, sources, Reviews::Leave);
        assert_eq!(planned.files.len(), 1);
        assert_eq!(planned.files[0].text, "a: [air, fyre]\nb: light\n");
        assert_eq!(planned.files[0].applied.len(), 2);
        assert_eq!(planned.ambiguous.len(), 2);
    }
}
