//! The lines of a file that a human report shows for one finding, cut out
//! with the file's [`LineIndex`] instead of handing the whole file to the
//! report renderer.
//!
//! Handing miette a whole file costs a scan from the file's start for every
//! label (quadratic over a file's findings), prints a long line whole, and
//! panics past column 65,535 (a `{:width$}` argument out of range). An
//! [`Excerpt`] holds only the lines around the labels: a long line is cut to
//! a window around its label (marked with `…`), control characters are
//! shown as their visible pictures (`␀`), and the labels are moved into the
//! excerpt's own offsets. Line numbers and the header's column stay those of
//! the file.

use std::borrow::Cow;
use std::ops::Range;

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

use crate::diagnostics::{LineIndex, SourceText, char_floor};

/// Lines longer than this (in characters) are cut to a window.
const MAX_LINE_CHARS: usize = 160;
/// Characters shown before a label's start on a line that is cut.
const WINDOW_BEFORE: usize = 60;
/// Characters a cut line shows in all.
const WINDOW_CHARS: usize = 120;
/// A label over more lines than this is shown on its first line only.
const MAX_LABEL_LINES: usize = 8;
/// Marks a line cut at either end.
const CUT: &str = "…";

/// Lines of one file for one report, in file order.
pub struct Excerpt {
    name: String,
    /// The shown lines, each ending in `\n`.
    text: String,
    lines: Vec<ShownLine>,
}

/// One shown line: where it is in the excerpt and in the file.
struct ShownLine {
    /// Offset of the line in the excerpt's text.
    at: usize,
    /// Bytes of the line in the excerpt (without its `\n`).
    len: usize,
    /// 1-based line number in the file.
    number: usize,
    /// The bytes of the file shown (a window of a long line).
    shown: Range<usize>,
    /// 0-based column in the file of the first shown character.
    column: usize,
    /// Whether the line starts with [`CUT`].
    cut_before: bool,
}

impl Excerpt {
    /// The lines that show `spans` (byte ranges in `file`), with a line of
    /// context before and after each where it is short; returns the spans
    /// moved into the excerpt, in the same order.
    pub fn new(
        name: &str,
        file: &SourceText,
        spans: &[Range<usize>],
    ) -> (Excerpt, Vec<Range<usize>>) {
        let text = file.text();
        let index = file.lines();
        let labels: Vec<LabelLines> = spans
            .iter()
            .map(|span| LabelLines::of(text, index, span))
            .collect();
        let mut wanted: Vec<(usize, usize)> = Vec::new();
        for label in &labels {
            wanted.push((label.first, label.start));
            for line in label.first + 1..=label.last {
                wanted.push((line, index.line_range(text, line).start));
            }
            let context = [label.first.checked_sub(1), Some(label.last + 1)];
            for line in context.into_iter().flatten() {
                if line >= 1 && is_short_context(text, index, line) {
                    let start = index.line_range(text, line).start;
                    wanted.push((line, start));
                }
            }
        }
        // One entry per line, focused on its earliest label.
        wanted.sort_unstable();
        wanted.dedup_by_key(|(line, _)| *line);
        let mut excerpt = Excerpt {
            name: shown(name).into_owned(),
            text: String::new(),
            lines: Vec::with_capacity(wanted.len()),
        };
        for (line, focus) in wanted {
            excerpt.push_line(text, index, line, focus);
        }
        let moved = labels
            .iter()
            .map(|label| excerpt.move_span(text, index, label))
            .collect();
        (excerpt, moved)
    }

    fn push_line(&mut self, text: &str, index: &LineIndex, number: usize, focus: usize) {
        let range = index.line_range(text, number);
        let shown = window(text, index, &range, focus);
        let cut_before = shown.start > range.start;
        let at = self.text.len();
        if cut_before {
            self.text.push_str(CUT);
        }
        push_visible(&mut self.text, &text[shown.clone()]);
        if shown.end < range.end {
            self.text.push_str(CUT);
        }
        self.lines.push(ShownLine {
            at,
            len: self.text.len() - at,
            number,
            column: index.chars_before(text, shown.start) - index.chars_before(text, range.start),
            shown,
            cut_before,
        });
        self.text.push('\n');
    }

    /// A label's span in the excerpt's offsets, cut to what is shown.
    fn move_span(&self, text: &str, index: &LineIndex, label: &LabelLines) -> Range<usize> {
        let start = self.offset_in(text, label.first, label.start);
        let end = if label.last == label.first && index.line(label.end) != label.first {
            // A span cut to its first line, or one that takes the line
            // break: it ends where the line's shown text does.
            let line = self.find(label.first);
            let line = &self.lines[line];
            (line.at + line.len).max(start)
        } else {
            self.offset_in(text, label.last, label.end)
        };
        start..end.max(start)
    }

    /// The excerpt offset of file offset `offset`, which is on line `number`
    /// (clamped to what the line shows).
    fn offset_in(&self, text: &str, number: usize, offset: usize) -> usize {
        let line = &self.lines[self.find(number)];
        let offset = char_floor(text, offset.clamp(line.shown.start, line.shown.end));
        let marker = if line.cut_before { CUT.len() } else { 0 };
        line.at + marker + visible_len(&text[line.shown.start..offset])
    }

    fn find(&self, number: usize) -> usize {
        self.lines.partition_point(|line| line.number < number)
    }

    /// The shown line holding excerpt offset `offset`.
    fn line_at(&self, offset: usize) -> usize {
        self.lines
            .partition_point(|line| line.at + line.len < offset)
    }

    /// Characters of the file's line before excerpt offset `offset`.
    fn column_at(&self, line: usize, offset: usize) -> usize {
        let line = &self.lines[line];
        let marker = if line.cut_before { CUT.len() } else { 0 };
        let from = (line.at + marker).min(offset);
        line.column + self.text[from..offset].chars().count()
    }

    /// Whether two shown lines follow each other in the file.
    fn adjacent(&self, before: usize) -> bool {
        self.lines[before].number + 1 == self.lines[before + 1].number
    }
}

/// The lines a span covers: its first and last line (the last one cut to
/// the first when the span runs over many lines).
struct LabelLines {
    start: usize,
    end: usize,
    first: usize,
    last: usize,
}

impl LabelLines {
    fn of(text: &str, index: &LineIndex, span: &Range<usize>) -> LabelLines {
        let start = char_floor(text, span.start);
        let end = char_floor(text, span.end.max(span.start));
        let first = index.line(start);
        // The line of the span's last byte: a span that takes a line break
        // ends on that line.
        let last = if end > start {
            index.line(end - 1)
        } else {
            first
        };
        let last = if last - first > MAX_LABEL_LINES {
            first
        } else {
            last
        };
        LabelLines {
            start,
            end,
            first,
            last,
        }
    }
}

/// A context line is shown only when it is short: a long neighbour would
/// have to be cut around nothing in particular.
fn is_short_context(text: &str, index: &LineIndex, line: usize) -> bool {
    let Some(start) = index.line_start(line) else {
        return false;
    };
    // The empty line after a final line break is not shown.
    if start >= text.len() {
        return false;
    }
    let range = index.line_range(text, line);
    index.chars_before(text, range.end) - index.chars_before(text, range.start) <= MAX_LINE_CHARS
}

/// The part of a line that is shown: all of a short line, else a window
/// around `focus`.
fn window(text: &str, index: &LineIndex, line: &Range<usize>, focus: usize) -> Range<usize> {
    let chars = index.chars_before(text, line.end) - index.chars_before(text, line.start);
    if chars <= MAX_LINE_CHARS {
        return line.clone();
    }
    let focus = char_floor(text, focus.clamp(line.start, line.end));
    let start = text[line.start..focus]
        .char_indices()
        .rev()
        .nth(WINDOW_BEFORE - 1)
        .map_or(line.start, |(i, _)| line.start + i);
    let end = text[start..line.end]
        .char_indices()
        .nth(WINDOW_CHARS)
        .map_or(line.end, |(i, _)| start + i);
    start..end
}

/// Control characters as their visible pictures (`␀`, `␛`, `␡`): raw, they
/// would move or clear the reader's terminal. Tabs stay (the renderer
/// expands them).
fn visible(c: char) -> Option<char> {
    match c {
        '\t' => None,
        '\0'..='\x1f' => char::from_u32(0x2400 + c as u32),
        '\x7f' => Some('␡'),
        '\u{80}'..='\u{9f}' => Some('�'),
        _ => None,
    }
}

/// Text as it may reach a terminal: every control character but the line
/// end and the tab as its picture, as the snippets draw them. Card names,
/// query text and file names come from anyone; raw, an escape sequence in
/// one would recolour, move or clear the reader's screen.
pub fn shown(text: &str) -> Cow<'_, str> {
    let escaped = |c: char| c != '\n' && visible(c).is_some();
    if !text.chars().any(escaped) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| match escaped(c) {
                true => visible(c).unwrap_or(c),
                false => c,
            })
            .collect(),
    )
}

fn push_visible(out: &mut String, text: &str) {
    for c in text.chars() {
        out.push(visible(c).unwrap_or(c));
    }
}

fn visible_len(text: &str) -> usize {
    text.chars()
        .map(|c| visible(c).unwrap_or(c).len_utf8())
        .sum()
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let start = span.offset();
        let end = start + span.len();
        if self.lines.is_empty() || end > self.text.len() {
            return Err(MietteError::OutOfBounds);
        }
        let first = self.line_at(start).min(self.lines.len() - 1);
        let last = self
            .line_at(end.saturating_sub(1).max(start))
            .min(self.lines.len() - 1);
        if (first..last).any(|line| !self.adjacent(line)) {
            // Lines apart in the file: the renderer shows them apart.
            return Err(MietteError::OutOfBounds);
        }
        let mut from = first;
        while from > 0 && first - from < context_lines_before && self.adjacent(from - 1) {
            from -= 1;
        }
        let mut to = last;
        while to + 1 < self.lines.len() && to - last < context_lines_after && self.adjacent(to) {
            to += 1;
        }
        let (data_start, column) = if context_lines_before == 0 {
            (start, self.column_at(first, start))
        } else {
            (self.lines[from].at, self.lines[from].column)
        };
        let data_end = self.lines[to].at + self.lines[to].len + 1;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            &self.text.as_bytes()[data_start..data_end],
            SourceSpan::new(data_start.into(), data_end - data_start),
            self.lines[if context_lines_before == 0 {
                first
            } else {
                from
            }]
            .number
                - 1,
            column,
            to - from + 1,
        )))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource};

    use super::*;
    use crate::diagnostics::Sources;

    #[derive(Debug)]
    struct Report<S> {
        source: S,
        labels: Vec<LabeledSpan>,
    }

    impl<S> std::fmt::Display for Report<S> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("finding")
        }
    }

    impl<S: std::fmt::Debug> std::error::Error for Report<S> {}

    impl<S: SourceCode + std::fmt::Debug> miette::Diagnostic for Report<S> {
        fn source_code(&self) -> Option<&dyn SourceCode> {
            Some(&self.source)
        }

        fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
            Some(Box::new(self.labels.iter().cloned()))
        }
    }

    impl std::fmt::Debug for Excerpt {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(&self.text)
        }
    }

    fn render(report: &dyn miette::Diagnostic) -> String {
        let handler =
            GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(100);
        let mut out = String::new();
        handler.render_report(&mut out, report).unwrap();
        out
    }

    fn file(text: &str) -> Arc<SourceText> {
        let mut sources = Sources::default();
        sources.insert("f.yaml".into(), Arc::from(text));
        sources.file("f.yaml").unwrap().clone()
    }

    fn excerpt_report(text: &str, spans: &[Range<usize>]) -> String {
        let (excerpt, moved) = Excerpt::new("f.yaml", &file(text), spans);
        let labels = moved
            .iter()
            .map(|s| LabeledSpan::new_with_span(Some("here".into()), (s.start, s.end - s.start)))
            .collect();
        render(&Report {
            source: excerpt,
            labels,
        })
    }

    fn whole_file_report(text: &str, spans: &[Range<usize>]) -> String {
        let labels = spans
            .iter()
            .map(|s| LabeledSpan::new_with_span(Some("here".into()), (s.start, s.end - s.start)))
            .collect();
        render(&Report {
            source: NamedSource::new("f.yaml", text.to_string()),
            labels,
        })
    }

    /// On short ASCII lines an excerpt draws exactly what miette draws from
    /// the whole file, for a label anywhere on a line.
    #[test]
    fn short_lines_render_as_from_the_whole_file() {
        let mut checked = 0;
        for dir in ["cards", "tests/fixtures/build", "tests/fixtures/rules"] {
            for path in yaml_files(std::path::Path::new(dir)) {
                let text = std::fs::read_to_string(&path).unwrap();
                if !text.is_ascii() || text.lines().any(|l| l.len() > MAX_LINE_CHARS) {
                    continue;
                }
                let index = LineIndex::new(&text);
                for line in (1..index.line_count()).step_by(7) {
                    let range = index.line_range(&text, line);
                    for span in [
                        range.start..range.end,
                        range.start..range.start,
                        range.end..range.end,
                    ] {
                        assert_eq!(
                            excerpt_report(&text, std::slice::from_ref(&span)),
                            whole_file_report(&text, std::slice::from_ref(&span)),
                            "{} {span:?}",
                            path.display()
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 100, "only {checked} spans checked");
    }

    fn yaml_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let mut found = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                found.extend(yaml_files(&path));
            } else if path.extension().is_some_and(|e| e == "yaml") {
                found.push(path);
            }
        }
        found.sort();
        found
    }

    #[test]
    fn a_label_far_into_a_long_line_is_drawn_in_a_window_with_its_true_column() {
        let text = format!("cards:\n  - {}No Such Card\n", " ".repeat(70_000));
        let start = text.find("No Such").unwrap();
        let out = excerpt_report(&text, std::slice::from_ref(&(start..start + 12)));
        assert!(out.contains("[f.yaml:2:70005]"), "{out}");
        assert!(out.contains("…") && out.contains("No Such Card"), "{out}");
        assert!(out.len() < 2_000, "{} bytes drawn", out.len());
    }

    #[test]
    fn control_characters_are_drawn_as_their_pictures() {
        let text = "id: a\0b\x1b[2J\nname: x\n";
        let out = excerpt_report(text, std::slice::from_ref(&(4..8)));
        assert!(out.contains("a␀b␛[2J"), "{out}");
        assert!(!out.contains('\0') && !out.contains('\x1b'), "{out}");
        assert!(
            out.contains("──┬─"),
            "the label spans the four characters: {out}"
        );
    }

    #[test]
    fn places_far_apart_are_drawn_apart_and_long_spans_on_their_first_line() {
        let text: String = (1..=300).map(|i| format!("line {i}\n")).collect();
        let at = |line: usize| text.find(&format!("line {line}\n")).unwrap();
        let out = excerpt_report(&text, &[at(3)..at(3) + 6, at(250)..at(290)]);
        assert!(
            out.contains("[f.yaml:3:1]") && out.contains("[f.yaml:250:1]"),
            "{out}"
        );
        assert!(
            !out.contains("line 100") && !out.contains("line 289"),
            "{out}"
        );
    }

    #[test]
    fn a_label_at_the_end_of_the_file_is_drawn() {
        let text = "id: a\nname: b";
        let out = excerpt_report(text, std::slice::from_ref(&(text.len()..text.len())));
        assert!(out.contains("[f.yaml:2:8]"), "{out}");
        let text = "id: a\nname: b\n";
        let out = excerpt_report(text, std::slice::from_ref(&(text.len()..text.len())));
        assert!(out.contains("[f.yaml:3:1]"), "{out}");
    }
}
