//! Rendering findings: miette reports for people (drawn from excerpts of
//! the files, see [`crate::excerpt`]) and JSON for editors and CI.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::ops::Range;

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceSpan, ThemeCharacters, ThemeStyles,
};
use serde::Serialize;

use crate::diagnostics::{Code, Diagnostic, Related, Severity, Sources};
use crate::excerpt::Excerpt;
// Text for people, control characters as pictures: for every front end.
pub use crate::excerpt::shown;

/// How findings are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    #[default]
    Human,
    Json,
}

/// Options for human output.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    pub color: bool,
    /// Frames drawn with box-drawing characters (`╭─[`, `│`); plain ASCII
    /// (`,-[`, `|`) otherwise, for logs, CI consoles and files.
    pub unicode: bool,
    pub width: usize,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            color: false,
            unicode: true,
            width: 100,
        }
    }
}

/// Reports drawn for one code in one file; the rest are counted in a note.
/// A file with 100,000 empty cards has 400,000 findings: drawn, they are a
/// 100 MB report nobody reads, and the first few of a kind say what to fix.
/// JSON output keeps every finding.
pub(crate) const MAX_DRAWN_PER_CODE: usize = 10;

/// Renders diagnostics as miette reports (at most [`MAX_DRAWN_PER_CODE`]
/// of one code in one file, the rest counted in a note), then a count line.
pub fn render_human(diagnostics: &[Diagnostic], sources: &Sources, style: Style) -> String {
    let theme = GraphicalTheme {
        characters: match style.unicode {
            true => ThemeCharacters::unicode(),
            false => ThemeCharacters::ascii(),
        },
        styles: match style.color {
            true => ThemeStyles::ansi(),
            false => ThemeStyles::none(),
        },
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_links(false);
    let mut out = String::new();
    let mut drawn: HashMap<(&str, Code), usize> = HashMap::new();
    let mut not_drawn: BTreeMap<(&str, &str), Vec<&Diagnostic>> = BTreeMap::new();
    for diagnostic in diagnostics {
        let count = drawn
            .entry((&diagnostic.path, diagnostic.code))
            .or_default();
        *count += 1;
        if *count > MAX_DRAWN_PER_CODE {
            let key = (&*diagnostic.path, diagnostic.code.as_str());
            not_drawn.entry(key).or_default().push(diagnostic);
            continue;
        }
        let report = MietteDiagnostic::new(diagnostic, sources);
        if handler.render_report(&mut out, &report).is_err() {
            let line = format!("{}: {}\n", diagnostic.path, diagnostic.message);
            out.push_str(&shown(&line));
        }
        out.push('\n');
    }
    for ((path, code), rest) in &not_drawn {
        out.push_str(&format!(
            "note: `{code}` in {}: {} not drawn (the first {MAX_DRAWN_PER_CODE} \
             are above; `--format json` lists every one)\n\n",
            shown(path),
            summary(rest.iter().copied()),
        ));
    }
    out.push_str(&summary(diagnostics));
    out.push('\n');
    out
}

/// "3 errors, 1 warning" (or "no problems").
pub fn summary<'a>(diagnostics: impl IntoIterator<Item = &'a Diagnostic>) -> String {
    let (mut errors, mut warnings) = (0, 0);
    for diagnostic in diagnostics {
        if diagnostic.is_error() {
            errors += 1;
        } else {
            warnings += 1;
        }
    }
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    match (errors, warnings) {
        (0, 0) => "no problems found".to_string(),
        (e, 0) => plural(e, "error"),
        (0, w) => plural(w, "warning"),
        (e, w) => format!("{}, {}", plural(e, "error"), plural(w, "warning")),
    }
}

/// One diagnostic in the JSON output. The place is `null` for a finding
/// about the run rather than a file (bad arguments, an unknown name).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct JsonDiagnostic {
    /// The stable code of this kind of finding (listed in the README).
    pub code: String,
    /// `error` or `warning`.
    pub severity: String,
    pub file: Option<String>,
    /// 1-based line and column (in characters) where the finding starts.
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// 1-based line and column (in characters) where it ends.
    pub end_line: Option<usize>,
    pub end_column: Option<usize>,
    /// Byte offsets into the file.
    pub start: Option<usize>,
    pub end: Option<usize>,
    pub message: String,
    pub label: String,
    pub help: Option<String>,
    pub related: Vec<JsonRelated>,
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct JsonRelated {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub label: String,
}

/// The JSON report: every diagnostic and the counts. It is also what any
/// command prints in place of its result when it cannot produce one.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct JsonReport {
    pub diagnostics: Vec<JsonDiagnostic>,
    pub errors: usize,
    pub warnings: usize,
}

pub fn json_report(diagnostics: &[Diagnostic], sources: &Sources) -> JsonReport {
    let items = diagnostics
        .iter()
        .map(|d| json_diagnostic(d, sources))
        .collect();
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    JsonReport {
        diagnostics: items,
        errors,
        warnings: diagnostics.len() - errors,
    }
}

fn json_diagnostic(d: &Diagnostic, sources: &Sources) -> JsonDiagnostic {
    let place = (!d.is_general()).then(|| {
        (
            sources.line_col(&d.path, d.span.start),
            sources.line_col(&d.path, d.span.end),
        )
    });
    JsonDiagnostic {
        code: d.code.as_str().to_string(),
        severity: match d.severity {
            Severity::Error => "error".into(),
            Severity::Warning => "warning".into(),
        },
        file: place.map(|_| d.path.to_string()),
        line: place.map(|((line, _), _)| line),
        column: place.map(|((_, column), _)| column),
        end_line: place.map(|(_, (line, _))| line),
        end_column: place.map(|(_, (_, column))| column),
        start: place.map(|_| d.span.start),
        end: place.map(|_| d.span.end),
        message: d.message.to_string(),
        label: d.label.to_string(),
        help: d.help.as_deref().map(str::to_string),
        related: d
            .related
            .iter()
            .map(|r| {
                let (line, column) = sources.line_col(&r.path, r.span.start);
                JsonRelated {
                    file: r.path.to_string(),
                    line,
                    column,
                    label: r.label.clone(),
                }
            })
            .collect(),
    }
}

pub fn render_json(diagnostics: &[Diagnostic], sources: &Sources) -> String {
    let mut text = String::new();
    stream_json(diagnostics, sources, &mut |chunk| text.push_str(chunk));
    text
}

/// [`render_json`] a finding at a time, each handed to `write` as soon as it
/// is rendered: the report of a million findings is never held whole
/// (the same text as the [`JsonReport`] pretty-printed, which a test holds).
pub fn stream_json(diagnostics: &[Diagnostic], sources: &Sources, write: &mut dyn FnMut(&str)) {
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = diagnostics.len() - errors;
    if diagnostics.is_empty() {
        write("{\n  \"diagnostics\": [],\n");
    } else {
        write("{\n  \"diagnostics\": [\n");
        for (i, d) in diagnostics.iter().enumerate() {
            let item =
                serde_json::to_string_pretty(&json_diagnostic(d, sources)).unwrap_or_default();
            // An item two levels in: each of its lines indented by four
            // more spaces (JSON strings hold no raw line break).
            let mut chunk = String::with_capacity(item.len() + 64);
            if i > 0 {
                chunk.push_str(",\n");
            }
            chunk.push_str("    ");
            chunk.push_str(&item.replace('\n', "\n    "));
            write(&chunk);
        }
        write("\n  ],\n");
    }
    write(&format!(
        "  \"errors\": {errors},\n  \"warnings\": {warnings}\n}}\n"
    ));
}

/// What a SARIF rule says of a code (its `shortDescription`), given by
/// the caller: the codes of the effect language live above this layer.
pub type Describe<'a> = &'a dyn Fn(Code) -> Option<&'static str>;

/// Renders diagnostics as one SARIF 2.1.0 log (a run of `blades`), for
/// code-scanning views that show findings inline. Columns are counted in
/// characters (`columnKind: unicodeCodePoints`), as everywhere else.
pub fn render_sarif(diagnostics: &[Diagnostic], sources: &Sources, describe: Describe) -> String {
    let mut rules: Vec<Code> = Vec::new();
    let mut rule_index: HashMap<Code, usize> = HashMap::new();
    let results: Vec<serde_json::Value> = diagnostics
        .iter()
        .map(|d| {
            let index = *rule_index.entry(d.code).or_insert_with(|| {
                rules.push(d.code);
                rules.len() - 1
            });
            sarif_result(d, index, sources)
        })
        .collect();
    let rules: Vec<serde_json::Value> = rules
        .iter()
        .map(|code| {
            let mut rule = serde_json::json!({ "id": code.as_str() });
            if let Some(text) = describe(*code) {
                rule["shortDescription"] = serde_json::json!({ "text": text });
            }
            rule
        })
        .collect();
    let log = serde_json::json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "blades",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    let mut text = serde_json::to_string_pretty(&log).unwrap_or_default();
    text.push('\n');
    text
}

/// One SARIF result: the message (with the help line, which SARIF has no
/// field of its own for), the place and the related places.
fn sarif_result(d: &Diagnostic, rule_index: usize, sources: &Sources) -> serde_json::Value {
    let text = match &d.help {
        Some(help) => format!("{}\nhelp: {help}", d.message),
        None => d.message.to_string(),
    };
    let mut result = serde_json::json!({
        "ruleId": d.code.as_str(),
        "ruleIndex": rule_index,
        "level": match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        },
        "message": { "text": text },
    });
    if !d.is_general() {
        result["locations"] =
            serde_json::json!([sarif_location(&d.path, &d.span, &d.label, sources)]);
    }
    if !d.related.is_empty() {
        let related: Vec<serde_json::Value> = d
            .related
            .iter()
            .enumerate()
            .map(|(id, r)| {
                let mut place = sarif_location(&r.path, &r.span, &r.label, sources);
                place["id"] = serde_json::json!(id);
                place
            })
            .collect();
        result["relatedLocations"] = serde_json::Value::Array(related);
    }
    result
}

fn sarif_location(
    path: &str,
    span: &Range<usize>,
    label: &str,
    sources: &Sources,
) -> serde_json::Value {
    let (line, column) = sources.line_col(path, span.start);
    let (end_line, end_column) = sources.line_col(path, span.end);
    let mut location = serde_json::json!({
        "physicalLocation": {
            "artifactLocation": { "uri": uri(path) },
            "region": {
                "startLine": line,
                "startColumn": column,
                "endLine": end_line,
                "endColumn": end_column.max(if end_line == line { column } else { 1 }),
            },
        },
    });
    if !label.is_empty() {
        location["message"] = serde_json::json!({ "text": label });
    }
    location
}

/// A path as a relative URI reference: `/` separators, and the characters
/// a URI cannot hold percent-encoded.
fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.replace('\\', "/").bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' | b':' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// Adapter from our diagnostic to miette's trait.
struct MietteDiagnostic {
    message: String,
    code: &'static str,
    severity: miette::Severity,
    help: Option<String>,
    source: Option<Excerpt>,
    labels: Vec<LabeledSpan>,
    related: Vec<MietteDiagnostic>,
}

impl MietteDiagnostic {
    fn new(d: &Diagnostic, sources: &Sources) -> Self {
        let file = sources.file(&d.path);
        // Related places in the same file are labels on its excerpt; the
        // others are reports of their own.
        let (same_file, other_files): (Vec<&Related>, Vec<&Related>) = d
            .related
            .iter()
            .partition(|r| r.path == d.path && file.is_some());
        let mut labels = Vec::new();
        let source = file.map(|file| {
            let spans: Vec<Range<usize>> = std::iter::once(d.span.clone())
                .chain(same_file.iter().map(|r| r.span.clone()))
                .collect();
            let (excerpt, moved) = Excerpt::new(&d.path, file, &spans);
            let mut moved = moved.into_iter();
            if let Some(primary) = moved.next() {
                labels.push(LabeledSpan::new_primary_with_span(
                    (!d.label.is_empty()).then(|| shown(&d.label).into_owned()),
                    span(&primary),
                ));
            }
            for (r, place) in same_file.iter().zip(moved) {
                labels.push(LabeledSpan::new_with_span(
                    Some(shown(&r.label).into_owned()),
                    span(&place),
                ));
            }
            excerpt
        });
        let related = other_files
            .into_iter()
            .map(|r| MietteDiagnostic::elsewhere(r, sources))
            .collect();
        let message = if source.is_none() && !d.is_general() {
            // No text to show (unreadable file): name the file in the message.
            format!("{}: {}", d.path, d.message)
        } else {
            d.message.to_string()
        };
        MietteDiagnostic {
            message: shown(&message).into_owned(),
            code: d.code.as_str(),
            severity: match d.severity {
                Severity::Error => miette::Severity::Error,
                Severity::Warning => miette::Severity::Warning,
            },
            help: d.help.as_deref().map(|help| shown(help).into_owned()),
            source,
            labels,
            related,
        }
    }

    /// A related place in another file, as an advice of its own.
    fn elsewhere(r: &Related, sources: &Sources) -> MietteDiagnostic {
        // Without its own text, a label would be drawn on the main file's
        // lines (miette's fallback): name the file instead.
        let (message, source, labels) = match sources.file(&r.path) {
            Some(file) => {
                let (excerpt, moved) = Excerpt::new(&r.path, file, std::slice::from_ref(&r.span));
                let labels = moved
                    .iter()
                    .map(|place| {
                        let label = shown(&r.label).into_owned();
                        LabeledSpan::new_primary_with_span(Some(label), span(place))
                    })
                    .collect();
                (r.label.clone(), Some(excerpt), labels)
            }
            None => (format!("{}: {}", r.label, r.path), None, Vec::new()),
        };
        MietteDiagnostic {
            message: shown(&message).into_owned(),
            code: "",
            severity: miette::Severity::Advice,
            help: None,
            source,
            labels,
            related: Vec::new(),
        }
    }
}

fn span(range: &Range<usize>) -> SourceSpan {
    SourceSpan::new(range.start.into(), range.end - range.start)
}

impl fmt::Debug for MietteDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Display for MietteDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MietteDiagnostic {}

impl miette::Diagnostic for MietteDiagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        (!self.code.is_empty())
            .then(|| Box::new(format!("blades::{}", self.code)) as Box<dyn fmt::Display>)
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        (!self.labels.is_empty())
            .then(|| Box::new(self.labels.iter().cloned()) as Box<dyn Iterator<Item = LabeledSpan>>)
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        (!self.related.is_empty()).then(|| {
            Box::new(self.related.iter().map(|r| r as &dyn miette::Diagnostic))
                as Box<dyn Iterator<Item = &'a dyn miette::Diagnostic>>
        })
    }
}
#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    /// The streamed report is, byte for byte, the whole report
    /// pretty-printed at once: with no finding, one, and several of every
    /// shape (a related place, a general finding, a warning, quotes and
    /// line breaks in texts).
    #[test]
    fn the_streamed_json_is_the_report_pretty_printed() {
        let path: Arc<str> = Arc::from("a.yaml");
        let mut sources = Sources::default();
        sources.insert(path.clone(), Arc::from("id: x\nname: \"y\"\n"));
        let every = [
            Diagnostic::error(Code::DuplicateCardId, &path, 4..5, "taken \"x\"\nagain")
                .with_label("used again here")
                .with_help("rename it")
                .with_related(&path, 0..2, "first"),
            Diagnostic::general(Code::Usage, "no such thing"),
            Diagnostic::warning(Code::TextOverflow, &path, 6..10, "too long"),
        ];
        for count in 0..=every.len() {
            let found = &every[..count];
            let whole = serde_json::to_string_pretty(&json_report(found, &sources)).unwrap() + "\n";
            assert_eq!(render_json(found, &sources), whole, "{count} findings");
        }
    }

    #[test]
    fn a_related_place_without_its_text_is_named_not_drawn_on_the_main_file() {
        let main: Arc<str> = Arc::from("a.yaml");
        let other: Arc<str> = Arc::from("b.yaml");
        let mut sources = Sources::default();
        sources.insert(main.clone(), Arc::from("id: x\nname: y\n"));
        let finding = Diagnostic::error(Code::DuplicateCardId, &main, 4..5, "taken")
            .with_label("used again here")
            .with_related(&other, 4..5, "first used here");
        let style = Style {
            width: 80,
            ..Style::default()
        };
        let shown = render_human(std::slice::from_ref(&finding), &sources, style);
        assert!(shown.contains("first used here: b.yaml"), "{shown}");
        assert_eq!(shown.matches("id: x").count(), 1, "{shown}");
        // With the other file's text, its line is shown.
        sources.insert(other, Arc::from("id: z\n"));
        let shown = render_human(&[finding], &sources, style);
        assert!(
            shown.contains("b.yaml:1:5") && shown.contains("id: z"),
            "{shown}"
        );
    }
}
