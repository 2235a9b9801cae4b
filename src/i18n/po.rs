//! The gettext PO format: a writer, and a parser that keeps the byte span
//! of every entry and string so that problems are located.
//!
//! Supported: `msgctxt`, `msgid`, `msgid_plural`, `msgstr`, `msgstr[n]`,
//! strings continued over several lines, C escapes (`\n \t \" \\ \r \a \b
//! \f \v \? \' \ooo \xhh`), translator comments (`# `), extracted comments
//! (`#.`), references (`#:`), flags (`#,`), previous strings (`#|`) and
//! obsolete entries (`#~`).

use std::fmt::Write;
use std::ops::Range;

/// A string with the span of its keyword and every line of it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PoString {
    pub value: String,
    pub span: Range<usize>,
}

impl PoString {
    pub fn new(value: impl Into<String>) -> PoString {
        PoString {
            value: value.into(),
            span: 0..0,
        }
    }
}

/// One PO entry.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PoEntry {
    /// `# ` lines.
    pub translator_comments: Vec<String>,
    /// `#.` lines.
    pub extracted: Vec<String>,
    /// `#:` lines.
    pub references: Vec<String>,
    /// `#,` flags (`fuzzy`, `c-format`, …).
    pub flags: Vec<String>,
    /// `#| msgctxt`.
    pub previous_msgctxt: Option<String>,
    /// `#| msgid`.
    pub previous_msgid: Option<String>,
    pub msgctxt: Option<PoString>,
    pub msgid: PoString,
    pub msgid_plural: Option<PoString>,
    pub msgstr: PoString,
    /// `msgstr[n]` of a plural entry.
    pub msgstr_plural: Vec<PoString>,
    /// A `#~` entry, kept by translators for reference only.
    pub obsolete: bool,
    /// The entry's lines, comments included.
    pub span: Range<usize>,
}

impl PoEntry {
    pub fn is_fuzzy(&self) -> bool {
        self.flags.iter().any(|f| f == "fuzzy")
    }

    /// The header entry: empty `msgid`, no `msgctxt`.
    pub fn is_header(&self) -> bool {
        self.msgctxt.is_none() && self.msgid.value.is_empty() && !self.obsolete
    }
}

/// A PO file: its entries in order (the header first, when there is one).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PoFile {
    pub entries: Vec<PoEntry>,
}

impl PoFile {
    pub fn header(&self) -> Option<&PoEntry> {
        self.entries.iter().find(|e| e.is_header())
    }

    /// A header field (`Language`), when present.
    pub fn header_field(&self, name: &str) -> Option<String> {
        let header = self.header()?;
        header.msgstr.value.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            (key.trim().eq_ignore_ascii_case(name)).then(|| value.trim().to_string())
        })
    }
}

/// A located syntax error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoError {
    pub span: Range<usize>,
    pub message: String,
    pub label: String,
    pub help: String,
}

fn error(span: Range<usize>, message: impl Into<String>, label: &str, help: &str) -> PoError {
    PoError {
        span,
        message: message.into(),
        label: label.into(),
        help: help.into(),
    }
}

/// Which string a continuation line extends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Msgctxt,
    Msgid,
    MsgidPlural,
    Msgstr,
    MsgstrPlural(usize),
    PreviousMsgctxt,
    PreviousMsgid,
    PreviousOther,
}

#[derive(Default)]
struct Builder {
    entry: PoEntry,
    started: bool,
    has_msgid: bool,
    has_msgstr: bool,
    slot: Option<Slot>,
    /// Skipping to the next blank line after an error.
    skipping: bool,
}

/// Parses a PO file; every problem found is returned, located.
pub fn parse(text: &str) -> Result<PoFile, Vec<PoError>> {
    let mut file = PoFile::default();
    let mut errors = Vec::new();
    let mut b = Builder::default();
    let mut offset = 0;
    for raw in lines_with_ends(text) {
        let line_start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let end = line_start + line.len();
        let start = line_start + (line.len() - line.trim_start().len());
        let line = line.trim_start();
        if line.trim().is_empty() {
            finish(&mut b, &mut file, &mut errors);
            continue;
        }
        if b.skipping {
            continue;
        }
        if let Err(e) = parse_line(line, start, end, &mut b, &mut file, &mut errors) {
            errors.push(e);
            b = Builder {
                skipping: true,
                ..Builder::default()
            };
        }
    }
    finish(&mut b, &mut file, &mut errors);
    if errors.is_empty() {
        Ok(file)
    } else {
        Err(errors)
    }
}

/// The lines of `text` with their line ends, whichever they are (`\n`,
/// `\r\n`, or a bare `\r` as old Mac editors save).
fn lines_with_ends(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = match rest.find(['\n', '\r']) {
            Some(at) if rest[at..].starts_with("\r\n") => at + 2,
            Some(at) => at + 1,
            None => rest.len(),
        };
        let (line, after) = rest.split_at(end);
        rest = after;
        Some(line)
    })
}

/// Closes the entry being built.
fn finish(b: &mut Builder, file: &mut PoFile, errors: &mut Vec<PoError>) {
    let done = std::mem::take(b);
    if done.skipping || !done.started {
        return;
    }
    if !done.has_msgid {
        // Comments alone (at the end of a file, say) are no entry.
        return;
    }
    if !done.has_msgstr {
        errors.push(error(
            done.entry.msgid.span.clone(),
            "this entry has no `msgstr`",
            "msgid without msgstr",
            "add `msgstr \"\"` (empty when not translated yet)",
        ));
        return;
    }
    file.entries.push(done.entry);
}

fn parse_line(
    line: &str,
    start: usize,
    end: usize,
    b: &mut Builder,
    file: &mut PoFile,
    errors: &mut Vec<PoError>,
) -> Result<(), PoError> {
    if let Some(rest) = line.strip_prefix("#~") {
        return obsolete_line(line, rest, start, end, b, file, errors);
    }
    if let Some(rest) = line.strip_prefix('#') {
        return comment_line(rest, start, end, b, file, errors);
    }
    if line.starts_with('"') {
        return continued_string(line, start, end, b);
    }
    keyword_line(line, start, end, b, file, errors)
}

/// An obsolete line: what follows `#~` parsed as a normal line.
fn obsolete_line(
    line: &str,
    rest: &str,
    start: usize,
    end: usize,
    b: &mut Builder,
    file: &mut PoFile,
    errors: &mut Vec<PoError>,
) -> Result<(), PoError> {
    let skip = if rest.starts_with(' ') { 3 } else { 2 };
    let inner = &line[skip.min(line.len())..];
    // `#~` alone is an empty obsolete line: nothing to read.
    if inner.trim().is_empty() {
        return Ok(());
    }
    if b.started && b.has_msgstr && !b.entry.obsolete && !inner.starts_with('"') {
        finish(b, file, errors);
    }
    b.entry.obsolete = true;
    if inner.starts_with('#') {
        return Ok(());
    }
    parse_line(inner, start + skip.min(line.len()), end, b, file, errors)
        .map(|()| b.entry.obsolete = true)
}

/// A comment line (`rest` follows the `#`): translator comments, extracted
/// comments, references, flags and previous strings.
fn comment_line(
    rest: &str,
    start: usize,
    end: usize,
    b: &mut Builder,
    file: &mut PoFile,
    errors: &mut Vec<PoError>,
) -> Result<(), PoError> {
    // A comment after a complete entry starts the next one.
    if b.has_msgstr {
        finish(b, file, errors);
    }
    if b.has_msgid {
        return Err(error(
            start..end,
            "a comment between `msgid` and `msgstr`",
            "unexpected comment",
            "comments come before `msgctxt`/`msgid`; move it up or separate entries with a blank line",
        ));
    }
    begin(b, start);
    b.entry.span.end = end;
    let text = |r: &str| r.strip_prefix(' ').unwrap_or(r).to_string();
    match rest.chars().next() {
        Some('.') => b.entry.extracted.push(text(&rest[1..])),
        Some(':') => b.entry.references.push(text(&rest[1..])),
        Some(',') => b.entry.flags.extend(
            rest[1..]
                .split(',')
                .map(|f| f.trim().to_string())
                .filter(|f| !f.is_empty()),
        ),
        Some('|') => previous_string_line(&rest[1..], start, end, b)?,
        Some('~') => {}
        _ => b.entry.translator_comments.push(text(rest)),
    }
    Ok(())
}

/// A `#|` line (`rest` follows it): a previous `msgctxt` or `msgid`, or a
/// string continuing one.
fn previous_string_line(
    rest: &str,
    start: usize,
    end: usize,
    b: &mut Builder,
) -> Result<(), PoError> {
    let span = start..end;
    let inner = rest.trim_start();
    let inner_start = end - inner.len();
    let (slot, value_text, value_start) = if let Some(v) = inner.strip_prefix("msgctxt") {
        (Slot::PreviousMsgctxt, v, end - v.len())
    } else if let Some(v) = inner.strip_prefix("msgid_plural") {
        (Slot::PreviousOther, v, end - v.len())
    } else if let Some(v) = inner.strip_prefix("msgid") {
        (Slot::PreviousMsgid, v, end - v.len())
    } else if inner.starts_with('"') {
        let slot = match b.slot {
            Some(s @ (Slot::PreviousMsgctxt | Slot::PreviousMsgid | Slot::PreviousOther)) => s,
            _ => {
                return Err(error(
                    span,
                    "a `#|` string continues no previous string",
                    "nothing to continue",
                    "start with `#| msgid \"…\"`",
                ));
            }
        };
        let value = string(inner, inner_start)?;
        append(b, slot, &value, end);
        return Ok(());
    } else {
        return Err(error(
            span,
            "a `#|` line holds `msgctxt`, `msgid` or a continued string",
            "unknown previous-string line",
            "write `#| msgid \"the previous English\"`",
        ));
    };
    let value = keyword_string(value_text, value_start, &span)?;
    match slot {
        Slot::PreviousMsgctxt => b.entry.previous_msgctxt = Some(value),
        Slot::PreviousMsgid => b.entry.previous_msgid = Some(value),
        _ => {}
    }
    b.slot = Some(slot);
    Ok(())
}

/// A line of only a string: it continues the `msgid` or `msgstr` above.
fn continued_string(line: &str, start: usize, end: usize, b: &mut Builder) -> Result<(), PoError> {
    let Some(slot) = b.slot.filter(|s| {
        !matches!(
            s,
            Slot::PreviousMsgctxt | Slot::PreviousMsgid | Slot::PreviousOther
        )
    }) else {
        return Err(error(
            start..end,
            "a string line continues no `msgid` or `msgstr`",
            "nothing to continue",
            "start the string with a keyword: `msgid \"…\"`",
        ));
    };
    let value = string(line, start)?;
    append(b, slot, &value, end);
    Ok(())
}

/// A keyword line: `msgctxt`, `msgid`, `msgid_plural`, `msgstr` or
/// `msgstr[n]`, followed by its string.
fn keyword_line(
    line: &str,
    start: usize,
    end: usize,
    b: &mut Builder,
    file: &mut PoFile,
    errors: &mut Vec<PoError>,
) -> Result<(), PoError> {
    let span = start..end;
    let keyword_end = line
        .find(|c: char| c.is_whitespace() || c == '"')
        .unwrap_or(line.len());
    let slot = keyword_slot(&line[..keyword_end], start)?;
    // A new msgctxt/msgid after a complete entry starts the next one.
    if matches!(slot, Slot::Msgctxt | Slot::Msgid) && b.has_msgstr {
        finish(b, file, errors);
    }
    let value = keyword_string(&line[keyword_end..], start + keyword_end, &span)?;
    let string = PoString {
        value,
        span: span.clone(),
    };
    begin(b, start);
    b.entry.span.end = end;
    place_string(b, slot, string, span)?;
    b.slot = Some(slot);
    Ok(())
}

/// The slot a keyword fills (`start` is where the keyword is).
fn keyword_slot(keyword: &str, start: usize) -> Result<Slot, PoError> {
    let keyword_span = start..start + keyword.len();
    Ok(match keyword {
        "msgctxt" => Slot::Msgctxt,
        "msgid" => Slot::Msgid,
        "msgid_plural" => Slot::MsgidPlural,
        "msgstr" => Slot::Msgstr,
        k if k.starts_with("msgstr[") && k.ends_with(']') => {
            let n = k["msgstr[".len()..k.len() - 1]
                .parse::<usize>()
                .map_err(|_| {
                    error(
                        keyword_span,
                        format!("`{k}` needs a plural index"),
                        "bad index",
                        "write `msgstr[0]`, `msgstr[1]`, …",
                    )
                })?;
            Slot::MsgstrPlural(n)
        }
        _ => {
            let shown: String = keyword.chars().take(20).collect();
            return Err(error(
                start..start + keyword.len().max(1),
                format!("unknown keyword `{shown}`"),
                "not a PO keyword",
                "a PO line is a comment (`#`), a keyword (`msgctxt`, `msgid`, `msgstr`) followed by a quoted string, or a quoted string continuing the one above",
            ));
        }
    })
}

/// Puts a keyword's string in its place in the entry, if the entry has room
/// for it there.
fn place_string(
    b: &mut Builder,
    slot: Slot,
    string: PoString,
    span: Range<usize>,
) -> Result<(), PoError> {
    let misplaced =
        |message: &str, label: &str, help: &str| Err(error(span.clone(), message, label, help));
    match slot {
        Slot::Msgctxt => {
            if b.has_msgid || b.entry.msgctxt.is_some() {
                return misplaced(
                    "`msgctxt` must come before `msgid`, once per entry",
                    "misplaced msgctxt",
                    "separate entries with a blank line",
                );
            }
            b.entry.msgctxt = Some(string);
        }
        Slot::Msgid => {
            if b.has_msgid {
                return misplaced(
                    "a second `msgid` before any `msgstr`",
                    "second msgid",
                    "every `msgid` needs a `msgstr` after it",
                );
            }
            b.entry.msgid = string;
            b.has_msgid = true;
        }
        Slot::MsgidPlural => {
            if !b.has_msgid {
                return misplaced(
                    "`msgid_plural` before `msgid`",
                    "misplaced",
                    "write `msgid` first",
                );
            }
            b.entry.msgid_plural = Some(string);
        }
        Slot::Msgstr | Slot::MsgstrPlural(_) => {
            if !b.has_msgid {
                return misplaced(
                    "`msgstr` without a `msgid` before it",
                    "msgstr without msgid",
                    "every entry is `msgid \"English\"` then `msgstr \"translation\"`",
                );
            }
            if b.has_msgstr && slot == Slot::Msgstr {
                return misplaced(
                    "a second `msgstr` in one entry",
                    "second msgstr",
                    "continue a long string on lines that start with `\"`",
                );
            }
            if let Slot::MsgstrPlural(_) = slot {
                b.entry.msgstr_plural.push(string);
            } else {
                b.entry.msgstr = string;
            }
            b.has_msgstr = true;
        }
        _ => {}
    }
    Ok(())
}

fn begin(b: &mut Builder, start: usize) {
    if !b.started {
        b.started = true;
        b.entry.span = start..start;
    }
}

fn append(b: &mut Builder, slot: Slot, value: &str, end: usize) {
    let target = match slot {
        Slot::Msgctxt => b.entry.msgctxt.as_mut(),
        Slot::Msgid => Some(&mut b.entry.msgid),
        Slot::MsgidPlural => b.entry.msgid_plural.as_mut(),
        Slot::Msgstr => Some(&mut b.entry.msgstr),
        Slot::MsgstrPlural(_) => b.entry.msgstr_plural.last_mut(),
        Slot::PreviousMsgctxt => {
            if let Some(p) = b.entry.previous_msgctxt.as_mut() {
                p.push_str(value);
            }
            None
        }
        Slot::PreviousMsgid => {
            if let Some(p) = b.entry.previous_msgid.as_mut() {
                p.push_str(value);
            }
            None
        }
        Slot::PreviousOther => None,
    };
    if let Some(s) = target {
        s.value.push_str(value);
        s.span.end = end;
    }
    b.entry.span.end = end;
}

/// The quoted string after a keyword (whitespace, then `"…"`).
fn keyword_string(rest: &str, rest_start: usize, line: &Range<usize>) -> Result<String, PoError> {
    let trimmed = rest.trim_start();
    if trimmed.is_empty() {
        return Err(error(
            line.clone(),
            "a keyword needs a quoted string after it",
            "no string",
            "write the text in double quotes, e.g. `msgstr \"\"`",
        ));
    }
    if rest.len() == trimmed.len() {
        return Err(error(
            rest_start..rest_start + 1,
            "a space must separate the keyword from its string",
            "space needed",
            "write `msgid \"…\"`",
        ));
    }
    string(trimmed, rest_start + rest.len() - trimmed.len())
}

/// A quoted string with C escapes, alone on the rest of its line.
fn string(text: &str, start: usize) -> Result<String, PoError> {
    let Some(body) = text.strip_prefix('"') else {
        let shown: String = text.chars().take(12).collect();
        return Err(error(
            start..start + text.chars().next().map_or(0, char::len_utf8),
            format!("expected a string in double quotes, found `{shown}`"),
            "not a quoted string",
            "put the text in double quotes",
        ));
    };
    let mut out = String::new();
    let mut chars = body.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let at = start + 1 + i;
        match c {
            '"' => {
                let after = &body[i + 1..];
                if !after.trim().is_empty() {
                    let offset = after.len() - after.trim_start().len();
                    let from = at + 1 + offset;
                    return Err(error(
                        from..start + text.len(),
                        "text after the closing quote",
                        "unexpected text",
                        "escape a quote inside a string as `\\\"`",
                    ));
                }
                return Ok(out);
            }
            '\\' => {
                let Some((_, e)) = chars.next() else {
                    break;
                };
                let decoded = match e {
                    'n' => '\n',
                    't' => '\t',
                    'r' => '\r',
                    'a' => '\u{7}',
                    'b' => '\u{8}',
                    'f' => '\u{c}',
                    'v' => '\u{b}',
                    '\\' => '\\',
                    '"' => '"',
                    '\'' => '\'',
                    '?' => '?',
                    '0'..='7' => {
                        let mut value = e.to_digit(8).unwrap_or(0);
                        for _ in 0..2 {
                            match chars.peek() {
                                Some(&(_, d)) if d.is_digit(8) => {
                                    value = value * 8 + d.to_digit(8).unwrap_or(0);
                                    chars.next();
                                }
                                _ => break,
                            }
                        }
                        char::from_u32(value).unwrap_or('\u{fffd}')
                    }
                    'x' => {
                        let mut value = 0u32;
                        let mut digits = 0;
                        while let Some(&(_, d)) = chars.peek() {
                            let Some(v) = d.to_digit(16) else { break };
                            value = value.saturating_mul(16).saturating_add(v);
                            digits += 1;
                            chars.next();
                        }
                        if digits == 0 {
                            return Err(error(
                                at..at + 2,
                                "`\\x` needs hex digits",
                                "bad escape",
                                "write `\\x41`, or `\\\\x` for a backslash",
                            ));
                        }
                        char::from_u32(value).unwrap_or('\u{fffd}')
                    }
                    other => {
                        return Err(error(
                            at..at + 1 + other.len_utf8(),
                            format!("unknown escape `\\{other}`"),
                            "unknown escape",
                            "PO strings know \\n \\t \\\" \\\\ and C escapes; write `\\\\` for a backslash",
                        ));
                    }
                };
                out.push(decoded);
            }
            c => out.push(c),
        }
    }
    Err(error(
        start..start + text.len(),
        "this string has no closing quote",
        "unterminated string",
        "end the string with `\"` on the same line; continue on the next line with a new quoted string",
    ))
}

/// Writes a PO file; multi-line strings are split after each `\n`.
pub fn write(file: &PoFile) -> String {
    let mut out = String::new();
    for (i, entry) in file.entries.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        write_entry(&mut out, entry);
    }
    out
}

fn write_entry(out: &mut String, entry: &PoEntry) {
    let prefix = if entry.obsolete { "#~ " } else { "" };
    for c in &entry.translator_comments {
        push_comment(out, "#", c);
    }
    for c in &entry.extracted {
        push_comment(out, "#.", c);
    }
    for r in &entry.references {
        push_comment(out, "#:", r);
    }
    if !entry.flags.is_empty() {
        let _ = writeln!(out, "#, {}", entry.flags.join(", "));
    }
    if let Some(p) = &entry.previous_msgctxt {
        write_string(out, "#| ", "msgctxt", p);
    }
    if let Some(p) = &entry.previous_msgid {
        write_string(out, "#| ", "msgid", p);
    }
    if let Some(c) = &entry.msgctxt {
        write_string(out, prefix, "msgctxt", &c.value);
    }
    write_string(out, prefix, "msgid", &entry.msgid.value);
    if let Some(p) = &entry.msgid_plural {
        write_string(out, prefix, "msgid_plural", &p.value);
    }
    if entry.msgstr_plural.is_empty() {
        write_string(out, prefix, "msgstr", &entry.msgstr.value);
    } else {
        for (n, s) in entry.msgstr_plural.iter().enumerate() {
            write_string(out, prefix, &format!("msgstr[{n}]"), &s.value);
        }
    }
}

fn push_comment(out: &mut String, mark: &str, text: &str) {
    for line in text.split('\n') {
        if line.is_empty() {
            let _ = writeln!(out, "{mark}");
        } else {
            let _ = writeln!(out, "{mark} {line}");
        }
    }
}

fn write_string(out: &mut String, prefix: &str, keyword: &str, value: &str) {
    let pieces: Vec<&str> = value.split_inclusive('\n').collect();
    if pieces.len() <= 1 {
        let _ = writeln!(out, "{prefix}{keyword} \"{}\"", escape(value));
        return;
    }
    let _ = writeln!(out, "{prefix}{keyword} \"\"");
    for piece in pieces {
        let _ = writeln!(out, "{prefix}\"{}\"", escape(piece));
    }
}

/// Escapes a string for a PO file.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\{:03o}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const SAMPLE: &str = r#"# Header comment
msgid ""
msgstr ""
"Language: ja\n"
"Content-Type: text/plain; charset=UTF-8\n"

# A translator's note
#. single · 5 STAR
#: cards/sunset-gulch.yaml:7
#, fuzzy, no-wrap
#| msgid "Old English"
msgctxt "sunset-gulch/canyon-wyrm/name"
msgid "Canyon Wyrm"
msgstr "峡谷の竜"

msgctxt "sunset-gulch/canyon-wyrm/effect"
msgid ""
"Scurry.\n"
"Play: Gain 1 RP."
msgstr "ちょこまか。\nプレイ：1RPを得る。"

#~ msgctxt "sunset-gulch/gone/name"
#~ msgid "Gone"
#~ msgstr "消えた"
"#;

    #[test]
    fn parses_every_part() {
        let file = parse(SAMPLE).unwrap();
        assert_eq!(file.entries.len(), 4);
        assert_eq!(file.header_field("language").as_deref(), Some("ja"));
        let e = &file.entries[1];
        assert_eq!(e.translator_comments, ["A translator's note"]);
        assert_eq!(e.extracted, ["single · 5 STAR"]);
        assert_eq!(e.references, ["cards/sunset-gulch.yaml:7"]);
        assert_eq!(e.flags, ["fuzzy", "no-wrap"]);
        assert!(e.is_fuzzy());
        assert_eq!(e.previous_msgid.as_deref(), Some("Old English"));
        assert_eq!(
            e.msgctxt.as_ref().unwrap().value,
            "sunset-gulch/canyon-wyrm/name"
        );
        assert_eq!(e.msgstr.value, "峡谷の竜");
        let span = &e.msgstr.span;
        assert_eq!(&SAMPLE[span.clone()], "msgstr \"峡谷の竜\"");
        let e = &file.entries[2];
        assert_eq!(e.msgid.value, "Scurry.\nPlay: Gain 1 RP.");
        assert_eq!(e.msgstr.value, "ちょこまか。\nプレイ：1RPを得る。");
        assert!(file.entries[3].obsolete);
        assert_eq!(file.entries[3].msgstr.value, "消えた");
    }

    #[test]
    fn any_line_ends_parse_alike() {
        let lf = parse(SAMPLE).unwrap();
        for end in ["\r\n", "\r"] {
            let text = SAMPLE.replace('\n', end);
            let file = parse(&text).unwrap();
            assert_eq!(file.entries.len(), lf.entries.len(), "{end:?}");
            for (a, b) in file.entries.iter().zip(&lf.entries) {
                assert_eq!(
                    (&a.msgid.value, &a.msgstr.value),
                    (&b.msgid.value, &b.msgstr.value)
                );
                assert_eq!(a.flags, b.flags);
            }
            let span = &file.entries[1].msgstr.span;
            assert_eq!(&text[span.clone()], "msgstr \"峡谷の竜\"");
        }
    }

    #[test]
    fn escapes_decode() {
        let file = parse("msgid \"a\\tb\\\\c\\\"d\\101\\x42\"\nmsgstr \"\"\n").unwrap();
        assert_eq!(file.entries[0].msgid.value, "a\tb\\c\"dAB");
    }

    fn first_error(text: &str) -> (String, String) {
        let errors = parse(text).unwrap_err();
        let e = &errors[0];
        (e.message.clone(), text[e.span.clone()].to_string())
    }

    #[test]
    fn errors_are_located() {
        assert_eq!(
            first_error("msgid \"a\"\nmsgstr \"unterminated\n"),
            (
                "this string has no closing quote".into(),
                "\"unterminated".into()
            )
        );
        assert_eq!(
            first_error("msgid \"a\"\nmsgstr \"bad \\q escape\"\n"),
            ("unknown escape `\\q`".into(), "\\q".into())
        );
        assert_eq!(
            first_error("msgid \"a\"\nmsgtsr \"x\"\n"),
            ("unknown keyword `msgtsr`".into(), "msgtsr".into())
        );
        assert_eq!(
            first_error("msgid \"a\"\n\nmsgid \"b\"\nmsgstr \"\"\n"),
            ("this entry has no `msgstr`".into(), "msgid \"a\"".into())
        );
        assert_eq!(
            first_error("msgid \"a\" x\nmsgstr \"\"\n"),
            ("text after the closing quote".into(), "x".into())
        );
        assert_eq!(
            first_error("msgstr \"a\"\n"),
            (
                "`msgstr` without a `msgid` before it".into(),
                "msgstr \"a\"".into()
            )
        );
    }

    #[test]
    fn an_obsolete_marker_alone_is_an_empty_line_not_an_error_past_the_end() {
        assert_eq!(parse("#~").unwrap().entries, []);
        let file = parse("#~ msgid \"a\"\n#~\n#~ msgstr \"b\"\n").unwrap();
        assert_eq!(file.entries[0].msgstr.value, "b");
        assert!(file.entries[0].obsolete);
        // What the fuzzer found: the error's span was one byte past the end.
        let text = "#\t\0\n\n#~";
        if let Err(errors) = parse(text) {
            for e in errors {
                assert!(text.get(e.span.clone()).is_some(), "{e:?}");
            }
        }
    }

    #[test]
    fn several_errors_are_all_reported() {
        let errors = parse("msgid \"a\nmsgstr \"\"\n\nmsgid \"b\"\nmsgstr \"\\q\"\n").unwrap_err();
        assert_eq!(errors.len(), 2);
    }

    #[test]
    fn written_files_parse_back() {
        let file = parse(SAMPLE).unwrap();
        let written = write(&file);
        let again = parse(&written).unwrap();
        assert_eq!(written, write(&again));
        for (a, b) in file.entries.iter().zip(&again.entries) {
            assert_eq!(a.msgid.value, b.msgid.value);
            assert_eq!(a.msgstr.value, b.msgstr.value);
            assert_eq!(a.flags, b.flags);
            assert_eq!(a.previous_msgid, b.previous_msgid);
            assert_eq!(a.translator_comments, b.translator_comments);
            assert_eq!(a.obsolete, b.obsolete);
        }
    }

    proptest! {
        #[test]
        fn any_strings_round_trip(id in "\\PC{0,30}(\n\\PC{0,10}){0,2}", text in "[\\x00-\\x7f\\u{3000}-\\u{30ff}]{0,40}", note in "[ -~]{0,20}") {
            let entry = PoEntry {
                translator_comments: vec![note.clone()],
                msgctxt: Some(PoString::new("s/c/name")),
                msgid: PoString::new(id.clone()),
                msgstr: PoString::new(text.clone()),
                previous_msgid: Some(id.clone()),
                ..PoEntry::default()
            };
            let written = write(&PoFile { entries: vec![entry] });
            let parsed = parse(&written).map_err(|e| TestCaseError::fail(format!("{e:?}\n{written}")))?;
            let back = &parsed.entries[0];
            prop_assert_eq!(&back.msgid.value, &id);
            prop_assert_eq!(&back.msgstr.value, &text);
            prop_assert_eq!(back.previous_msgid.as_deref(), Some(id.as_str()));
            prop_assert_eq!(back.translator_comments.join("\n"), note);
        }
    }
}
