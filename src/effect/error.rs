//! Findings of the effect language: syntax errors from `parse`, semantic
//! errors from `check`. Every finding has a stable kebab-case code, a span in
//! the effect text, a message, a label for the span, and usually a help line.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use serde::Serialize;

use crate::diagnostics::{Code, Diagnostic};

/// One finding in an effect text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EffectError {
    /// Stable kebab-case code (see [`CODES`]).
    pub code: &'static str,
    /// Byte offsets into the effect text.
    pub span: Range<usize>,
    /// What is wrong.
    pub message: String,
    /// What the span shows.
    pub label: String,
    /// What to do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// The replacement the help names: this range of the effect text
    /// and its new text.
    #[serde(skip)]
    pub fix: Option<(Range<usize>, String)>,
}

impl EffectError {
    pub(crate) fn new(
        code: &'static str,
        span: Range<usize>,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> EffectError {
        debug_assert!(
            CODES.iter().any(|(c, _)| *c == code),
            "unlisted code {code}"
        );
        EffectError {
            code,
            span,
            message: message.into(),
            label: label.into(),
            help: None,
            fix: None,
        }
    }

    pub(crate) fn with_help(mut self, help: impl Into<String>) -> EffectError {
        self.help = Some(help.into());
        self
    }

    /// The finding with the replacement its help names.
    pub(crate) fn with_fix(
        mut self,
        span: Range<usize>,
        text: Option<impl Into<String>>,
    ) -> EffectError {
        self.fix = text.map(|text| (span, text.into()));
        self
    }

    pub(crate) fn with_help_opt(mut self, help: Option<String>) -> EffectError {
        self.help = help;
        self
    }
}

impl fmt::Display for EffectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for EffectError {}

pub use crate::diagnostics::EFFECT_CODES as CODES;

impl EffectError {
    /// This finding as a diagnostic in a file, its span moved from the
    /// effect text into the file through the value's offset map.
    pub fn into_diagnostic(self, path: &Arc<str>, offsets: &[usize]) -> Diagnostic {
        let at = |i: usize| offsets.get(i).or(offsets.last()).copied().unwrap_or(0);
        let span = at(self.span.start)..at(self.span.end).max(at(self.span.start));
        let mut diagnostic = Diagnostic::error(Code::Effect(self.code), path, span, self.message)
            .with_label(self.label);
        if let Some(help) = self.help {
            diagnostic = diagnostic.with_help(help);
        }
        // Only where the text stands in the file as written (no escape,
        // quote or folded line inside), with words any scalar style takes.
        if let Some((span, text)) = self.fix {
            let inline = !text.contains(['\n', '\r', '"', '\'', '\\', '#', ':']);
            if let Some(range) = as_written(&span, offsets)
                && inline
            {
                diagnostic = diagnostic.with_replacement(range, &text);
            }
        }
        diagnostic
    }
}

/// A range of an effect text as the range of the file it is written in,
/// when those bytes stand there as they are (no escape, quote or folded
/// line inside). An empty range (an insertion) is placed right after the
/// byte before it, when that is where the next byte stands too.
fn as_written(span: &Range<usize>, offsets: &[usize]) -> Option<Range<usize>> {
    if span.is_empty() {
        let after = offsets.get(span.start.checked_sub(1)?)? + 1;
        let next = offsets.get(span.start);
        return next
            .is_none_or(|&next| next == after)
            .then_some(after..after);
    }
    // The end as one past the last byte: the map may stop at it.
    let start = *offsets.get(span.start)?;
    let end = offsets.get(span.end - 1)? + 1;
    (end >= start && end - start == span.len()).then_some(start..end)
}
