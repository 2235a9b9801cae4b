//! Byte offsets in a file's text as the positions an editor counts: a
//! line and a column in UTF-16 code units (the protocol's default) or in
//! UTF-8 bytes, when the client offers them.

use lsp_types::{Position, PositionEncodingKind};

use crate::diagnostics::LineIndex;

/// How columns are counted, agreed at `initialize`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf16,
    Utf8,
}

impl Encoding {
    /// UTF-8 when the client lists it among `general.positionEncodings`
    /// (no conversion at all), else UTF-16, which every client accepts.
    pub fn choose(offered: Option<&[PositionEncodingKind]>) -> Encoding {
        match offered {
            Some(kinds) if kinds.contains(&PositionEncodingKind::UTF8) => Encoding::Utf8,
            _ => Encoding::Utf16,
        }
    }

    pub fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf16 => PositionEncodingKind::UTF16,
            Encoding::Utf8 => PositionEncodingKind::UTF8,
        }
    }
}

/// The position of byte `offset` in `text` (whose index is `lines`): an
/// offset inside a character counts as the character's start, one past
/// the end as the end.
pub fn position(lines: &LineIndex, text: &str, offset: usize, encoding: Encoding) -> Position {
    let (line, column) = match encoding {
        Encoding::Utf16 => lines.line_col_utf16(text, offset),
        Encoding::Utf8 => {
            let offset = crate::diagnostics::char_floor(text, offset);
            let line = lines.line(offset);
            let start = lines.line_start(line).unwrap_or(0);
            (line, offset - start + 1)
        }
    };
    Position::new(to_u32(line - 1), to_u32(column - 1))
}

/// The byte offset of an editor's position in `text` (the inverse of
/// [`position`]): a column past the line's end is its end, a line past
/// the text's end is the text's end, a column inside a character (half a
/// UTF-16 pair) is the character's start.
pub fn offset(lines: &LineIndex, text: &str, at: Position, encoding: Encoding) -> usize {
    let line = at.line as usize + 1;
    let Some(start) = lines.line_start(line) else {
        return text.len();
    };
    let end = lines.line_range(text, line).end;
    let column = at.character as usize;
    let line_text = &text[start..end];
    let within = match encoding {
        Encoding::Utf8 => crate::diagnostics::char_floor(line_text, column.min(line_text.len())),
        Encoding::Utf16 => {
            let mut units = 0;
            line_text
                .char_indices()
                .find(|(_, c)| {
                    units += c.len_utf16();
                    units > column
                })
                .map_or(line_text.len(), |(i, _)| i)
        }
    };
    start + within
}

/// A count as the protocol's `uinteger` (a 16 MB file cannot pass it).
fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, needle: &str, encoding: Encoding) -> (u32, u32) {
        let offset = text.find(needle).expect("the needle is in the text");
        let p = position(&LineIndex::new(text), text, offset, encoding);
        (p.line, p.character)
    }

    #[test]
    fn a_tab_is_one_unit() {
        let text = "a:\n\tname: x\n";
        assert_eq!(at(text, "name", Encoding::Utf16), (1, 1));
        assert_eq!(at(text, "name", Encoding::Utf8), (1, 1));
    }

    #[test]
    fn cjk_is_one_utf16_unit_and_three_bytes() {
        let text = "name: 山の竜 typo\n";
        assert_eq!(at(text, "typo", Encoding::Utf16), (0, 10));
        assert_eq!(at(text, "typo", Encoding::Utf8), (0, 16));
    }

    #[test]
    fn outside_the_bmp_is_two_utf16_units_and_four_bytes() {
        let text = "x\nflavor: 🐉🐉 typo";
        assert_eq!(at(text, "typo", Encoding::Utf16), (1, 13));
        assert_eq!(at(text, "typo", Encoding::Utf8), (1, 17));
    }

    #[test]
    fn inside_a_character_is_its_start() {
        let text = "🐉";
        let p = position(&LineIndex::new(text), text, 2, Encoding::Utf16);
        assert_eq!((p.line, p.character), (0, 0));
    }

    #[test]
    fn an_offset_goes_to_a_position_and_back() {
        let text = "a:\n\tname: 山の竜 🐉typo\r\nlast";
        let lines = LineIndex::new(text);
        for encoding in [Encoding::Utf16, Encoding::Utf8] {
            for (i, _) in text.char_indices().chain([(text.len(), ' ')]) {
                let at = position(&lines, text, i, encoding);
                if text[i..].starts_with('\n') {
                    continue; // the CR before it ends the line too
                }
                assert_eq!(offset(&lines, text, at, encoding), i, "{encoding:?} {i}");
            }
        }
        let past = Position::new(0, 99);
        assert_eq!(offset(&lines, text, past, Encoding::Utf16), 2);
        assert_eq!(
            offset(&lines, text, Position::new(9, 0), Encoding::Utf8),
            text.len()
        );
    }

    #[test]
    fn utf8_only_when_offered() {
        let both = [PositionEncodingKind::UTF16, PositionEncodingKind::UTF8];
        assert_eq!(Encoding::choose(Some(&both)), Encoding::Utf8);
        assert_eq!(Encoding::choose(Some(&both[..1])), Encoding::Utf16);
        assert_eq!(Encoding::choose(None), Encoding::Utf16);
    }
}
