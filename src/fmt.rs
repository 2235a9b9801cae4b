//! `blades fmt`: rewrite every card effect of a set file in canonical form,
//! touching nothing else in the file (comments, order, quoting of other
//! values all stay).

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;

use crate::diagnostics::{Code, Diagnostic, Fix, Sources};
use crate::effect;
use crate::files::{WriteError, write_all};
use crate::pool::Pool;
use crate::report::{JsonDiagnostic, json_report};
use crate::yaml::{self, LineEnd, Node, NodeValue, TextStyle, text_offsets};
use saphyr_parser::ScalarStyle;

/// One effect that is not in canonical form.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The card's id (empty when the card has none).
    pub card: String,
    /// Byte range of the effect's value in the file.
    pub span: Range<usize>,
    pub before: String,
    pub after: String,
    /// What is written over `span`: `after` as a YAML value in the style
    /// the effect had.
    pub replacement: String,
}

/// `blades fmt --format json`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct FmtReport {
    /// True for `--check` (nothing written).
    pub check: bool,
    /// The files with effects not in canonical form.
    pub files: Vec<FmtFile>,
    /// Effects that could not be parsed or were left as written, and files
    /// that could not be read.
    pub skipped: Vec<JsonDiagnostic>,
}

/// One file `fmt` rewrites.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct FmtFile {
    pub file: String,
    pub changes: Vec<FmtChange>,
}

/// One effect rewritten: where it is, as written and in canonical form.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct FmtChange {
    /// The card's id (empty when the card has none).
    pub card: String,
    /// 1-based line and column (in characters) of the effect's value.
    pub line: usize,
    pub column: usize,
    pub before: String,
    pub after: String,
}

/// The result of formatting one file.
#[derive(Debug, Default)]
pub struct Formatted {
    /// The new text, when anything changed.
    pub text: Option<String>,
    pub changes: Vec<Change>,
    /// Effects that could not be formatted: syntax errors and YAML errors
    /// (nothing may be rewritten then), and warnings for effects left as
    /// written because their canonical form would read as another effect.
    pub problems: Vec<Diagnostic>,
}
/// A set file whose effects `fmt` rewrites: its new text and each effect
/// that changed.
pub struct Rewrite {
    pub path: Arc<str>,
    pub text: String,
    pub changes: Vec<Change>,
}

/// Every set file of a pool in canonical form.
pub struct PoolFormat {
    pub rewrites: Vec<Rewrite>,
    /// Findings: the pool's own (files and folders it could not read: a
    /// rewrite must not pass over a set file without a word) and every
    /// effect that could not be parsed or was left as written.
    pub problems: Vec<Diagnostic>,
    pub sources: Sources,
}

impl PoolFormat {
    /// Whether a rewrite must wait: an effect that cannot be parsed stops
    /// every rewrite; effects left as written (warnings) stop none.
    pub fn blocked(&self) -> bool {
        self.problems.iter().any(Diagnostic::is_error)
    }

    /// What `fmt --format json` prints: each file and effect that is (or,
    /// with `check`, would be) rewritten, and the findings.
    pub fn report(&self, check: bool) -> FmtReport {
        let files = self
            .rewrites
            .iter()
            .map(|rewrite| FmtFile {
                file: rewrite.path.to_string(),
                changes: rewrite
                    .changes
                    .iter()
                    .map(|change| {
                        let (line, column) =
                            self.sources.line_col(&rewrite.path, change.span.start);
                        FmtChange {
                            card: change.card.clone(),
                            line,
                            column,
                            before: change.before.clone(),
                            after: change.after.clone(),
                        }
                    })
                    .collect(),
            })
            .collect();
        FmtReport {
            check,
            files,
            skipped: json_report(&self.problems, &self.sources).diagnostics,
        }
    }

    /// Each effect not in canonical form as a finding (for SARIF), with the
    /// canonical text in its help line.
    pub fn changes_as_findings(&self) -> Vec<Diagnostic> {
        self.rewrites
            .iter()
            .flat_map(|rewrite| {
                rewrite.changes.iter().map(|change| {
                    let card = match change.card.is_empty() {
                        true => "a card".to_string(),
                        false => format!("`{}`", change.card),
                    };
                    Diagnostic::error(
                        Code::NotCanonical,
                        &rewrite.path,
                        change.span.clone(),
                        format!("the effect of {card} is not in canonical form"),
                    )
                    .with_label("not canonical")
                    .with_help(format!(
                        "write `{}` (`blades fmt` rewrites it)",
                        change.after.trim_end().replace('\n', " / ")
                    ))
                    .with_fixes([Fix::replace(
                        "write the effect in canonical form",
                        change.span.clone(),
                        change.replacement.as_str(),
                    )])
                })
            })
            .collect()
    }

    /// Writes every rewritten file, or none.
    pub fn write(&self) -> Result<(), WriteError> {
        write_all(
            self.rewrites
                .iter()
                .map(|rewrite| (Path::new(&*rewrite.path), rewrite.text.as_bytes())),
        )
    }
}

/// Formats every set file of `pool`.
pub fn format_pool(pool: &Pool) -> PoolFormat {
    let mut sources = Sources::default();
    let mut problems = pool.problems.clone();
    let mut rewrites = Vec::new();
    for file in &pool.sets {
        sources.insert(file.path.clone(), file.text().clone());
        let formatted = format_set_file(&file.path, file.text());
        problems.extend(formatted.problems);
        if let Some(text) = formatted.text {
            rewrites.push(Rewrite {
                path: file.path.clone(),
                text,
                changes: formatted.changes,
            });
        }
    }
    PoolFormat {
        rewrites,
        problems,
        sources,
    }
}

/// Formats every effect of a set file's text.
pub fn format_set_file(path: &Arc<str>, text: &str) -> Formatted {
    let mut formatted = Formatted::default();
    let Some(doc) = yaml::parse_reported(text, path, &mut formatted.problems) else {
        return formatted;
    };
    let Some(cards) = doc.get("cards").and_then(Node::as_seq) else {
        return formatted;
    };
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    // A block scalar rewritten over several lines takes the file's line ends.
    let line_end = LineEnd::of(text);
    for card in cards {
        let Some(node) = card.get("effect") else {
            continue;
        };
        let NodeValue::Str(source, style) = &node.value else {
            continue;
        };
        let tree = match effect::parse(source) {
            Ok(tree) => tree,
            Err(errors) => {
                // Offsets only as far as the findings reach: a text refused
                // for its length is not mapped whole.
                let reach = errors.iter().map(|e| e.span.end).max().unwrap_or(0);
                let located = source.get(..reach).unwrap_or(source);
                let offsets = text_offsets(text, node.span.start, TextStyle::of(*style), located);
                formatted.problems.extend(
                    errors
                        .into_iter()
                        .map(|e| e.into_diagnostic(path, &offsets)),
                );
                continue;
            }
        };
        let canonical = effect::format(&tree);
        if canonical == source.trim_end_matches('\n') {
            continue;
        }
        // Only a rewrite that reads back as the same effect is made (an
        // effect that fails its check may have no canonical spelling).
        let reread = effect::parse(&canonical);
        if reread.as_ref() != Ok(&tree) {
            formatted
                .problems
                .push(not_formatted(path, text, node, &canonical, reread.is_ok()));
            continue;
        }
        let span = value_extent(text, node, *style);
        let replacement = write_scalar(text, node, *style, source, &canonical, line_end);
        let card_id = card.get("id").and_then(Node::as_str).unwrap_or_default();
        formatted.changes.push(Change {
            card: card_id.to_string(),
            span: span.clone(),
            before: source.clone(),
            after: canonical,
            replacement: replacement.clone(),
        });
        edits.push((span, replacement));
    }
    if edits.is_empty() {
        return formatted;
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (span, replacement) in &edits {
        out.push_str(&text[at..span.start]);
        out.push_str(replacement);
        at = span.end;
    }
    out.push_str(&text[at..]);
    formatted.text = Some(out);
    formatted
}

/// The warning for an effect left as written: located at the first line of
/// its value.
fn not_formatted(
    path: &Arc<str>,
    text: &str,
    node: &Node,
    canonical: &str,
    parses: bool,
) -> Diagnostic {
    let start = node.span.start.min(text.len());
    let end = text[start..node.span.end.min(text.len()).max(start)]
        .find('\n')
        .map_or(node.span.end, |i| start + i)
        .max(start);
    let outcome = if parses {
        "reads as a different effect"
    } else {
        "does not parse"
    };
    let canonical = canonical.replace('\n', " / ");
    Diagnostic::warning(
        Code::Effect("effect-not-formatted"),
        path,
        start..end,
        "this effect is left as written: its canonical form would not read back as the same effect",
    )
    .with_label("not rewritten")
    .with_help(format!(
        "its canonical form `{canonical}` {outcome}; fix what `blades build` reports for this effect, then run `blades fmt` again"
    ))
}

/// The bytes a scalar's value occupies. A block scalar's span runs on to
/// the indentation of the next line, which belongs to that line.
fn value_extent(text: &str, node: &Node, style: ScalarStyle) -> Range<usize> {
    let span = node.span.clone();
    if matches!(style, ScalarStyle::Literal | ScalarStyle::Folded) {
        let value = &text[span.clone()];
        let kept = value.trim_end_matches(' ').len();
        if value[..kept].ends_with('\n') {
            return span.start..span.start + kept;
        }
    }
    span
}

/// The new value text for a scalar, in a style that fits where it stands.
fn write_scalar(
    text: &str,
    node: &Node,
    style: ScalarStyle,
    old: &str,
    new: &str,
    line_end: LineEnd,
) -> String {
    match style {
        ScalarStyle::Literal | ScalarStyle::Folded => {
            // The span starts at the content; its column is the indentation.
            let line_start = text[..node.span.start]
                .rfind(['\n', '\r'])
                .map_or(0, |i| i + 1);
            let indent = &text[line_start..node.span.start];
            let end = line_end.as_str();
            let separator = if style == ScalarStyle::Folded {
                format!("{end}{end}")
            } else {
                end.to_string()
            };
            let mut out = new.replace('\n', &format!("{separator}{indent}"));
            if old.ends_with('\n') {
                out.push_str(end);
            }
            out
        }
        ScalarStyle::SingleQuoted if !new.contains('\n') => {
            format!("'{}'", new.replace('\'', "''"))
        }
        ScalarStyle::Plain if !new.contains('\n') && yaml::plain_safe(new) => new.to_string(),
        _ => yaml::double_quoted(new),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn effects(text: &str) -> Vec<String> {
        let doc = yaml::parse(text).unwrap();
        doc.get("cards")
            .and_then(Node::as_seq)
            .unwrap()
            .iter()
            .filter_map(|c| c.get("effect").and_then(Node::as_str).map(str::to_string))
            .collect()
    }

    #[test]
    fn rewrites_effects_in_every_style_and_nothing_else() {
        let text = "# a comment\nid: s\ncards:\n  - id: a  # keep me\n    effect: |\n      play:   gain 2 rp.\n      Top: Flip this card.\n    flavor: x\n  - {id: b, effect: \"play: gain 1 rp.\"}\n  - id: c\n    effect: 'Play: Gain 3 RP.'\n";
        let path: Arc<str> = Arc::from("s.yaml");
        let formatted = format_set_file(&path, text);
        assert!(formatted.problems.is_empty(), "{:?}", formatted.problems);
        let new = formatted.text.expect("changed");
        assert!(new.starts_with("# a comment\nid: s\ncards:\n  - id: a  # keep me\n"));
        assert!(new.contains("    flavor: x\n"));
        let after = effects(&new);
        for (old, new) in effects(text).iter().zip(&after) {
            let canonical = effect::format(&effect::parse(old).unwrap());
            assert_eq!(new.trim_end(), canonical);
        }
        // Formatting twice changes nothing.
        assert!(format_set_file(&path, &new).text.is_none());
    }

    #[test]
    fn an_effect_whose_canonical_form_reads_differently_is_left_as_written() {
        // `Play` fails its check (no such keyword); its canonical `Play.`
        // would not parse at all.
        let text = "id: s\ncards:\n  - {id: a, effect: \"Play\"}\n  - {id: b, effect: \"play: gain 1 rp.\"}\n";
        let formatted = format_set_file(&Arc::from("s.yaml"), text);
        assert_eq!(formatted.problems.len(), 1, "{:?}", formatted.problems);
        let warning = &formatted.problems[0];
        assert!(!warning.is_error());
        assert_eq!(warning.code.as_str(), "effect-not-formatted");
        assert_eq!(&text[warning.span.clone()], "\"Play\"");
        assert!(warning.help.as_deref().unwrap().contains("`Play.`"));
        // The other effect is rewritten, this one kept.
        let new = formatted.text.expect("the other effect changed");
        assert_eq!(effects(&new), ["Play", "Play: Gain 1 RP."]);
        assert_eq!(formatted.changes.len(), 1);
    }

    #[test]
    fn an_effect_too_long_is_located_not_mapped_whole() {
        let long = "Play: Gain 2 RP. ".repeat(50_000);
        let text = format!("id: s\ncards:\n  - id: a\n    effect: '{long}'\n");
        let formatted = format_set_file(&Arc::from("s.yaml"), &text);
        assert!(formatted.text.is_none());
        assert_eq!(formatted.problems.len(), 1);
        let problem = &formatted.problems[0];
        assert_eq!(problem.code.as_str(), "effect-too-long");
        let start = text.find('\'').unwrap() + 1 + effect::MAX_EFFECT_CHARS;
        assert_eq!(problem.span, start..start + 1);
    }

    /// A block scalar rewritten over several lines keeps the file's line
    /// ends (LF, CRLF or a bare CR) and its indentation.
    #[test]
    fn block_effects_keep_the_files_line_ends() {
        for end in ["\n", "\r\n", "\r"] {
            let text = [
                "id: s",
                "cards:",
                "  - id: a",
                "    effect: |",
                "      Play:   Gain 2 RP.",
                "      Scurry.",
                "",
            ]
            .join(end);
            let formatted = format_set_file(&Arc::from("s.yaml"), &text);
            let new = formatted.text.expect("the effect is rewritten");
            let expected = text.replace("Play:   Gain", "Play: Gain");
            assert_eq!(new, expected, "line end {end:?}");
        }
    }

    #[test]
    fn syntax_errors_are_reported_not_rewritten() {
        let text = "id: s\ncards:\n  - {id: a, effect: \"Play: Gian 2 RP.\"}\n";
        let formatted = format_set_file(&Arc::from("s.yaml"), text);
        assert!(formatted.text.is_none());
        assert_eq!(formatted.problems.len(), 1);
        assert_eq!(&text[formatted.problems[0].span.clone()], "Gian");
    }
}
