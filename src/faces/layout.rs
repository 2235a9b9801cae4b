//! Text layout for card faces, and the one fit model: does a text fit its
//! box on the printed card?
//!
//! Text is shaped with the shipped fonts' own metrics (rustybuzz, the
//! HarfBuzz algorithm a browser uses), broken at the opportunities of the
//! Unicode line breaking algorithm (UAX #14) with kinsoku shori on top (no
//! line starts with `。、」` or a small kana, none ends with `「（`), and set
//! at the largest size from the box's maximum down to its floor at which it
//! fits. `blades render` draws what [`fit`] returns, and `blades i18n check`
//! reports `text-fit` from the same call, so the two can never disagree.

use std::ops::Range;

use rustybuzz::UnicodeBuffer;
use unicode_linebreak::{BreakOpportunity, linebreaks};

use super::fonts::{self, FontId, Script, Style};
use crate::i18n::text::{NO_LINE_END, NO_LINE_START};

/// Millimetres in a typographic point.
pub const MM_PER_PT: f32 = 25.4 / 72.0;

/// How much smaller each try is, in points.
const SIZE_STEP: f32 = 0.25;

/// Ascent of a line's text, in ems (the fonts' ideographic em box).
const ASCENT: f32 = 0.88;

/// A text box on the face: its size in millimetres and the type sizes it
/// may use, in points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextBox {
    pub width: f32,
    pub height: f32,
    /// The size tried first.
    pub max_size: f32,
    /// The floor: below it the text is said not to fit.
    pub min_size: f32,
    /// Line advance, in ems.
    pub line_height: f32,
    /// Extra space between paragraphs, in ems.
    pub paragraph_gap: f32,
    /// At most this many lines (whatever the height allows).
    pub max_lines: usize,
}

/// The fields of a face that hold text that can be too long.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Field {
    Name,
    Effect,
    Flavor,
    SetName,
}

impl Field {
    /// The field's box on a poker-size (63 × 88 mm) face.
    pub fn text_box(self) -> TextBox {
        match self {
            Field::Name => TextBox {
                width: 41.0,
                height: 6.0,
                max_size: 9.5,
                min_size: 6.5,
                line_height: 1.2,
                paragraph_gap: 0.0,
                max_lines: 1,
            },
            Field::Effect => TextBox {
                width: 52.0,
                height: 21.5,
                max_size: 8.0,
                min_size: 5.5,
                line_height: 1.22,
                paragraph_gap: 0.3,
                max_lines: usize::MAX,
            },
            Field::Flavor => TextBox {
                width: 52.0,
                height: 6.2,
                max_size: 6.5,
                min_size: 5.0,
                line_height: 1.2,
                paragraph_gap: 0.0,
                max_lines: 2,
            },
            Field::SetName => TextBox {
                width: 30.0,
                height: 3.0,
                max_size: 5.5,
                min_size: 4.5,
                line_height: 1.2,
                paragraph_gap: 0.0,
                max_lines: 1,
            },
        }
    }

    /// The style the whole field is set in, before the effect's own spans.
    pub fn base_style(self) -> Style {
        match self {
            Field::Name => Style::Bold,
            Field::Flavor => Style::Italic,
            Field::Effect | Field::SetName => Style::Regular,
        }
    }

    /// The field's styled spans of a text.
    pub fn spans(self, text: &str) -> Vec<Span> {
        match self {
            Field::Effect => effect_spans(text),
            _ => vec![Span {
                range: 0..text.len(),
                style: self.base_style(),
            }],
        }
    }

    /// Sets a text of this field in its box, in a language (`en`, `ja`):
    /// the one call both `render` and `i18n check` make.
    pub fn fit(self, text: &str, lang: &str) -> Fitted {
        fit(
            text,
            &self.spans(text),
            Script::of_lang(lang),
            self.text_box(),
        )
    }

    /// What a person calls it.
    pub fn what(self) -> &'static str {
        match self {
            Field::Name => "card name",
            Field::Effect => "effect text",
            Field::Flavor => "flavor text",
            Field::SetName => "set name",
        }
    }

    /// Its key in JSON output.
    pub fn key(self) -> &'static str {
        match self {
            Field::Name => "name",
            Field::Effect => "effect",
            Field::Flavor => "flavor",
            Field::SetName => "set-name",
        }
    }
}

/// A styled range of a text (bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub range: Range<usize>,
    pub style: Style,
}

/// Effect text styles: a timing word at the start of a line (`Play:`,
/// `Reaction (…):`, `得点：`) is bold; reminder text, a parenthesised group
/// not followed by a colon, is italic (Japanese sets it upright, in grey).
pub fn effect_spans(text: &str) -> Vec<Span> {
    let mut styles = vec![Style::Regular; text.len()];
    let mut line_start = 0;
    for line in text.split('\n') {
        // Timing: up to the first colon, when what precedes it is short and
        // holds no sentence end.
        let mut depth = 0i32;
        let colon = line.char_indices().find(|&(_, c)| {
            match c {
                '(' | '（' => depth += 1,
                ')' | '）' => depth -= 1,
                _ => {}
            }
            depth == 0 && (c == ':' || c == '：')
        });
        if let Some((at, colon)) = colon {
            let head = &line[..at];
            if !head.is_empty()
                && outside_parentheses(head) <= 32
                && !head.contains(['.', '。'])
                && !head.starts_with([' ', '('])
            {
                let end = line_start + at + colon.len_utf8();
                styles[line_start..end].fill(Style::Bold);
            }
        }
        // Reminder text.
        let mut open: Option<usize> = None;
        let mut depth = 0usize;
        for (i, c) in line.char_indices() {
            match c {
                '(' | '（' => {
                    if depth == 0 {
                        open = Some(i);
                    }
                    depth += 1;
                }
                ')' | '）' if depth > 0 => {
                    depth -= 1;
                    if depth == 0
                        && let Some(o) = open.take()
                    {
                        let end = i + c.len_utf8();
                        let next = line[end..].chars().next();
                        if !matches!(next, Some(':' | '：')) {
                            styles[line_start + o..line_start + end].fill(Style::Italic);
                        }
                    }
                }
                _ => {}
            }
        }
        line_start += line.len() + 1;
    }
    let mut spans: Vec<Span> = Vec::new();
    for (i, &style) in styles.iter().enumerate() {
        match spans.last_mut() {
            Some(last) if last.style == style => last.range.end = i + 1,
            _ => spans.push(Span {
                range: i..i + 1,
                style,
            }),
        }
    }
    spans
}

/// The characters of a timing head outside its parentheses: a Reaction's
/// trigger (`Reaction (when an opponent flips this card)`) may be long
/// and is still part of the bold head.
fn outside_parentheses(head: &str) -> usize {
    let mut depth = 0usize;
    head.chars()
        .filter(|&c| {
            match c {
                '(' | '（' => depth += 1,
                ')' | '）' => {
                    depth = depth.saturating_sub(1);
                    return false;
                }
                _ => {}
            }
            depth == 0
        })
        .count()
}

/// One line as laid out.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Its bytes in the text, without trailing spaces.
    pub range: Range<usize>,
    /// Its width in millimetres.
    pub width: f32,
    /// Its paragraph (lines of the same paragraph have no gap between them).
    pub paragraph: usize,
    /// Its baseline, in millimetres below the top of the box.
    pub baseline: f32,
    /// Its styled pieces, in order.
    pub runs: Vec<Span>,
}

/// A text set in its box.
#[derive(Debug, Clone, PartialEq)]
pub struct Fitted {
    /// The type size used, in points.
    pub size: f32,
    pub lines: Vec<Line>,
    /// The height the lines take, in millimetres.
    pub height: f32,
    /// When even the floor size does not fit: the text that falls outside
    /// (from the first line past the box to the end).
    pub overflow: Option<Range<usize>>,
    /// Characters no shipped font draws, with their byte offsets.
    pub missing: Vec<(usize, char)>,
}

impl Fitted {
    pub fn fits(&self) -> bool {
        self.overflow.is_none()
    }
}

/// The width a text takes on one line at a size, in millimetres.
pub fn line_width(text: &str, style: Style, script: Script, size: f32) -> f32 {
    let spans = [Span {
        range: 0..text.len(),
        style,
    }];
    let shaped = shape(text, &spans, script);
    shaped.width(0, text.len()) * size * MM_PER_PT
}

/// Sets a text in a box: the largest size from the box's maximum down to its
/// floor, in steps of a quarter point, at which every line fits.
pub fn fit(text: &str, spans: &[Span], script: Script, text_box: TextBox) -> Fitted {
    let text = text.trim_end();
    let shaped = shape(text, spans, script);
    let breaks = break_opportunities(text);
    let mut size = text_box.max_size;
    loop {
        let at_floor = size <= text_box.min_size + 1e-4;
        let size_now = size.max(text_box.min_size);
        let mut fitted = set(text, spans, &shaped, &breaks, text_box, size_now);
        if fitted.fits() || at_floor {
            fitted.missing = shaped.missing;
            return fitted;
        }
        size -= SIZE_STEP;
    }
}

/// Lays the text out at one size.
fn set(
    text: &str,
    spans: &[Span],
    shaped: &Shaped,
    breaks: &[(usize, bool)],
    text_box: TextBox,
    size: f32,
) -> Fitted {
    let em = size * MM_PER_PT;
    let width_em = text_box.width / em;
    let advance = text_box.line_height * em;
    let gap = text_box.paragraph_gap * em;
    let raw = break_lines(text, shaped, breaks, width_em);
    let mut lines = Vec::with_capacity(raw.len());
    let mut height = 0.0f32;
    let mut overflow = None;
    let mut last_paragraph = 0;
    for (i, (range, width, paragraph)) in raw.into_iter().enumerate() {
        if i > 0 && paragraph != last_paragraph {
            height += gap;
        }
        last_paragraph = paragraph;
        let baseline = height + (advance - em) / 2.0 + ASCENT * em;
        height += advance;
        if overflow.is_none() && (i >= text_box.max_lines || height > text_box.height + 1e-3) {
            overflow = Some(range.start..text.len());
        }
        let runs = runs_of(spans, range.clone());
        lines.push(Line {
            range,
            width: width * em,
            paragraph,
            baseline,
            runs,
        });
    }
    Fitted {
        size,
        lines,
        height,
        overflow,
        missing: Vec::new(),
    }
}

/// The styled pieces of a range.
fn runs_of(spans: &[Span], range: Range<usize>) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::new();
    for span in spans {
        let start = span.range.start.max(range.start);
        let end = span.range.end.min(range.end);
        if start < end {
            out.push(Span {
                range: start..end,
                style: span.style,
            });
        }
    }
    if out.is_empty() && !range.is_empty() {
        out.push(Span {
            range,
            style: Style::Regular,
        });
    }
    out
}

/// A text's advances, as prefix sums in ems per byte.
struct Shaped {
    prefix: Vec<f32>,
    missing: Vec<(usize, char)>,
}

impl Shaped {
    fn width(&self, start: usize, end: usize) -> f32 {
        self.prefix[end] - self.prefix[start]
    }
}

fn style_at(spans: &[Span], at: usize) -> Style {
    spans
        .iter()
        .find(|s| s.range.contains(&at))
        .map_or(Style::Regular, |s| s.style)
}

/// Shapes a text run by run: each run one style in one font, the font the
/// first of the script's fonts that draws the character (as a browser's
/// font fallback chooses).
fn shape(text: &str, spans: &[Span], script: Script) -> Shaped {
    let order = match script {
        Script::Latin => [Script::Latin, Script::Japanese],
        Script::Japanese => [Script::Japanese, Script::Latin],
    };
    let mut advances = vec![0.0f32; text.len() + 1];
    let mut missing = Vec::new();
    let mut run: Option<(usize, FontId)> = None;
    let flush = |start: usize, end: usize, font: FontId, advances: &mut Vec<f32>| {
        if start < end {
            shape_run(&text[start..end], start, font, script, advances);
        }
    };
    for (i, c) in text.char_indices() {
        let font = if c == '\n' {
            None
        } else {
            let style = style_at(spans, i);
            let found = order
                .iter()
                .map(|&s| FontId::of(s, style))
                .find(|&f| fonts::has_glyph(f, c));
            if found.is_none() && !c.is_control() {
                missing.push((i, c));
            }
            Some(found.unwrap_or(FontId::of(order[0], style)))
        };
        match (run, font) {
            (Some((_, current)), Some(f)) if current == f => {}
            (current, f) => {
                if let Some((start, font)) = current {
                    flush(start, i, font, &mut advances);
                }
                run = f.map(|f| (i, f));
            }
        }
    }
    if let Some((start, font)) = run {
        flush(start, text.len(), font, &mut advances);
    }
    let mut prefix = Vec::with_capacity(text.len() + 1);
    let mut sum = 0.0;
    prefix.push(0.0);
    for a in &advances[..text.len()] {
        sum += a;
        prefix.push(sum);
    }
    Shaped { prefix, missing }
}

fn shape_run(run: &str, offset: usize, font: FontId, script: Script, advances: &mut [f32]) {
    let face = fonts::face(font);
    let mut buffer = UnicodeBuffer::new();
    buffer.push_str(run);
    if script == Script::Japanese
        && let Ok(lang) = "ja".parse()
    {
        buffer.set_language(lang);
    }
    buffer.guess_segment_properties();
    let shaped = rustybuzz::shape(face, &[], buffer);
    let per_em = face.units_per_em() as f32;
    for (info, pos) in shaped.glyph_infos().iter().zip(shaped.glyph_positions()) {
        advances[offset + info.cluster as usize] += pos.x_advance as f32 / per_em;
    }
}

/// Where lines may start (byte offsets), and whether the break is forced;
/// the last one is the end of the text. UAX #14, with kinsoku shori.
fn break_opportunities(text: &str) -> Vec<(usize, bool)> {
    linebreaks(text)
        .filter_map(|(at, kind)| {
            let mandatory = kind == BreakOpportunity::Mandatory;
            if mandatory || at >= text.len() {
                return Some((at, true));
            }
            let next = text[at..].chars().next()?;
            let previous = text[..at]
                .trim_end_matches([' ', '\u{3000}'])
                .chars()
                .next_back();
            let forbidden =
                NO_LINE_START.contains(next) || previous.is_some_and(|p| NO_LINE_END.contains(p));
            (!forbidden).then_some((at, false))
        })
        .collect()
}

/// The end of a line's visible text: trailing spaces and the line break
/// hang past the edge.
fn visible_end(text: &str, start: usize, end: usize) -> usize {
    start
        + text[start..end]
            .trim_end_matches([' ', '\u{3000}', '\n', '\r'])
            .len()
}

/// Greedy line filling in ems: each line takes every piece up to the last
/// break that fits; a piece wider than the line is cut between characters.
fn break_lines(
    text: &str,
    shaped: &Shaped,
    breaks: &[(usize, bool)],
    width: f32,
) -> Vec<(Range<usize>, f32, usize)> {
    const EPSILON: f32 = 1e-4;
    let mut lines = Vec::new();
    let mut start = 0;
    let mut paragraph = 0;
    let mut fit_end: Option<usize> = None;
    let mut i = 0;
    while i < breaks.len() {
        let (at, mandatory) = breaks[i];
        let end = visible_end(text, start, at);
        let w = shaped.width(start, end);
        if w <= width + EPSILON || end == start {
            if mandatory {
                lines.push((start..end, w, paragraph));
                paragraph += 1;
                start = at;
                fit_end = None;
            } else {
                fit_end = Some(at);
            }
            i += 1;
            continue;
        }
        if let Some(fe) = fit_end.take() {
            let end = visible_end(text, start, fe);
            lines.push((start..end, shaped.width(start, end), paragraph));
            start = fe;
            continue;
        }
        // One piece wider than the line: cut it between characters.
        let mut cut = start;
        for (ci, c) in text[start..end].char_indices() {
            let next = start + ci + c.len_utf8();
            if cut > start && shaped.width(start, next) > width + EPSILON {
                break;
            }
            cut = next;
        }
        lines.push((start..cut, shaped.width(start, cut), paragraph));
        start = cut;
    }
    if lines.is_empty() {
        lines.push((0..0, 0.0, 0));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts<'a>(text: &'a str, fitted: &Fitted) -> Vec<&'a str> {
        fitted
            .lines
            .iter()
            .map(|l| &text[l.range.clone()])
            .collect()
    }

    fn effect(text: &str, script: Script) -> Fitted {
        fit(text, &effect_spans(text), script, Field::Effect.text_box())
    }

    /// The bold part of each line of `text`.
    fn bold(text: &str) -> Vec<&str> {
        effect_spans(text)
            .into_iter()
            .filter(|s| s.style == Style::Bold)
            .map(|s| &text[s.range])
            .collect()
    }

    #[test]
    fn a_reaction_heading_is_bold_however_long_its_trigger() {
        let text = "Reaction (when an opponent flips this card): Gain 3 RP.\nPlay: Gain 1 RP.";
        assert_eq!(
            bold(text),
            ["Reaction (when an opponent flips this card):", "Play:"]
        );
        // A sentence that happens to hold a colon is not a heading.
        assert!(
            bold("Gain 2 RP for each card in your tableau that is fire or air: then flip.")
                .is_empty()
        );
    }

    #[test]
    fn real_metrics_make_narrow_letters_narrower() {
        let i = line_width("iiiiiiiiii", Style::Regular, Script::Latin, 10.0);
        let m = line_width("MMMMMMMMMM", Style::Regular, Script::Latin, 10.0);
        assert!(m > 3.0 * i, "{i} {m}");
        let bold = line_width("Gain", Style::Bold, Script::Latin, 10.0);
        let regular = line_width("Gain", Style::Regular, Script::Latin, 10.0);
        assert!(bold > regular);
        // A full-width character is one em wide.
        let kana = line_width("あ", Style::Regular, Script::Japanese, 10.0);
        assert!((kana - 10.0 * MM_PER_PT).abs() < 0.01, "{kana}");
    }

    #[test]
    fn short_text_keeps_the_largest_size() {
        let fitted = effect("Play: Gain 2 RP.", Script::Latin);
        assert_eq!(fitted.size, 8.0);
        assert_eq!(texts("Play: Gain 2 RP.", &fitted), ["Play: Gain 2 RP."]);
        assert!(fitted.fits() && fitted.missing.is_empty());
    }

    #[test]
    fn long_text_shrinks_then_overflows_below_the_floor() {
        let long = "Score: Gain 1 RP for each construct card in your tableau. ".repeat(4);
        let fitted = effect(&long, Script::Latin);
        assert!(fitted.size < 8.0 && fitted.fits(), "{}", fitted.size);
        let longer = long.repeat(3);
        let fitted = effect(&longer, Script::Latin);
        assert_eq!(fitted.size, 5.5);
        let overflow = fitted.overflow.clone().expect("overflows");
        assert!(overflow.start > 0 && overflow.end == longer.trim_end().len());
        assert!(fitted.height > Field::Effect.text_box().height);
    }

    #[test]
    fn lines_break_between_words_and_never_exceed_the_box() {
        let text =
            "Action: Flip this card. Put a +1 STAR token on the highest-STAR card in your tableau.";
        let fitted = fit(
            text,
            &effect_spans(text),
            Script::Latin,
            TextBox {
                width: 20.0,
                ..Field::Effect.text_box()
            },
        );
        for line in &fitted.lines {
            assert!(line.width <= 20.0 + 1e-3, "{line:?}");
            let s = &text[line.range.clone()];
            assert!(!s.ends_with(' ') && !s.starts_with(' '), "{s:?}");
        }
        // Every character is on a line, the spaces between them hang.
        let joined: String = texts(text, &fitted).concat();
        assert_eq!(joined.replace(' ', ""), text.replace(' ', ""));
        assert!(fitted.lines.len() > 2);
    }

    #[test]
    fn kinsoku_keeps_punctuation_and_small_kana_off_line_starts() {
        let text = "自分のプレイエリアにある機械のカード1枚につき1RPを得る。「このカード」は、ちょっとだけ強い。".repeat(3);
        for width in [14.0, 15.5, 17.0, 19.0, 23.5] {
            let fitted = fit(
                &text,
                &[],
                Script::Japanese,
                TextBox {
                    width,
                    max_size: 7.0,
                    min_size: 7.0,
                    ..Field::Effect.text_box()
                },
            );
            for (n, line) in fitted.lines.iter().enumerate() {
                let s = &text[line.range.clone()];
                let first = s.chars().next().unwrap();
                let last = s.chars().next_back().unwrap();
                assert!(n == 0 || !NO_LINE_START.contains(first), "{s}");
                assert!(!NO_LINE_END.contains(last), "{s}");
                assert!(line.width <= width + 1e-3);
            }
        }
    }

    #[test]
    fn timing_words_are_bold_and_reminders_italic() {
        let text = "Anvil Drop (Action: Flip a card.)\nReaction (a card is flipped): Gain 1 RP.";
        let spans = effect_spans(text);
        let styled: Vec<(&str, Style)> = spans
            .iter()
            .map(|s| (&text[s.range.clone()], s.style))
            .collect();
        assert_eq!(
            styled,
            [
                ("Anvil Drop ", Style::Regular),
                ("(Action: Flip a card.)", Style::Italic),
                ("\n", Style::Regular),
                ("Reaction (a card is flipped):", Style::Bold),
                (" Gain 1 RP.", Style::Regular),
            ]
        );
        let ja = "得点：1RPを得る。";
        assert_eq!(effect_spans(ja)[0].range, 0..("得点：".len()));
    }

    #[test]
    fn missing_characters_are_reported_with_their_offsets() {
        let fitted = effect("齟 Gain 1 RP.", Script::Japanese);
        assert_eq!(fitted.missing, [(0, '齟')]);
    }

    #[test]
    fn paragraphs_are_kept_and_counted() {
        let text = "Play: Flip the card to the left.\nFlip: Gain 2 RP.\n";
        let fitted = effect(text, Script::Latin);
        assert_eq!(
            texts(text, &fitted),
            ["Play: Flip the card to the left.", "Flip: Gain 2 RP."]
        );
        assert_eq!(fitted.lines[1].paragraph, 1);
        assert!(fitted.lines[1].baseline > fitted.lines[0].baseline);
    }
}
