//! Display width and line breaking for card text boxes.
//!
//! Width follows Unicode East Asian Width in a CJK context: wide, full-width
//! and ambiguous characters take 2 columns, others 1 (a card prints `…` or
//! `※` as wide). Lines break between any two full-width characters, and at
//! spaces between Latin words, never inside a Latin word or number; kinsoku
//! shori keeps closing punctuation and small kana off the start of a line and
//! opening brackets off its end, by pushing characters to the next line.

use std::ops::Range;

use unicode_width::UnicodeWidthChar;

/// Characters that may not start a line (行頭禁則).
pub(crate) const NO_LINE_START: &str = "、。，．・：；？！ー―‐〜～」』）】〕〉》〙〗｝］゛゜ゝゞ々ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ…‥,.:;!?)]}%";
/// Characters that may not end a line (行末禁則).
pub(crate) const NO_LINE_END: &str = "「『（【〔〈《〘〖｛［([{";

/// Columns a character takes (control characters take none).
pub(crate) fn char_width(c: char) -> usize {
    if c == '\t' {
        return 1;
    }
    c.width_cjk().unwrap_or(0)
}

/// Columns a text takes on one line.
pub fn width(text: &str) -> usize {
    text.chars().map(char_width).sum()
}

/// Is this a wide (full-width) character?
pub(crate) fn is_wide(c: char) -> bool {
    c.width().unwrap_or(0) == 2
}

/// One line of broken text: its bytes in the text and its width.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub range: Range<usize>,
    pub width: usize,
}

/// An unbreakable piece: a Latin word, one wide character, or a space.
#[derive(Debug, Clone)]
struct Piece {
    range: Range<usize>,
    width: usize,
    space: bool,
    first: char,
    last: char,
}

fn pieces(text: &str, offset: usize) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::new();
    let mut word: Option<Piece> = None;
    for (i, c) in text.char_indices() {
        let at = offset + i;
        let w = char_width(c);
        if c == ' ' || c == '\u{3000}' {
            out.extend(word.take());
            out.push(Piece {
                range: at..at + c.len_utf8(),
                width: w,
                space: true,
                first: c,
                last: c,
            });
        } else if w >= 2 {
            out.extend(word.take());
            out.push(Piece {
                range: at..at + c.len_utf8(),
                width: w,
                space: false,
                first: c,
                last: c,
            });
        } else {
            match &mut word {
                Some(p) => {
                    p.range.end = at + c.len_utf8();
                    p.width += w;
                    p.last = c;
                }
                None => {
                    word = Some(Piece {
                        range: at..at + c.len_utf8(),
                        width: w,
                        space: false,
                        first: c,
                        last: c,
                    });
                }
            }
        }
    }
    out.extend(word);
    out
}

/// Splits a piece wider than a line into single characters.
fn split_piece(text: &str, piece: &Piece) -> Vec<Piece> {
    text[piece.range.clone()]
        .char_indices()
        .map(|(i, c)| {
            let at = piece.range.start + i;
            Piece {
                range: at..at + c.len_utf8(),
                width: char_width(c),
                space: false,
                first: c,
                last: c,
            }
        })
        .collect()
}

/// Breaks a text into lines of at most `columns` columns; `\n` is a hard
/// break. A line exceeds `columns` only when one character is wider.
pub(crate) fn break_lines(text: &str, columns: usize) -> Vec<Line> {
    let columns = columns.max(2);
    let mut lines = Vec::new();
    let mut offset = 0;
    for paragraph in text.split('\n') {
        break_paragraph(text, paragraph, offset, columns, &mut lines);
        offset += paragraph.len() + 1;
    }
    lines
}

fn break_paragraph(
    text: &str,
    paragraph: &str,
    offset: usize,
    columns: usize,
    lines: &mut Vec<Line>,
) {
    let mut all = Vec::new();
    for piece in pieces(paragraph, offset) {
        if piece.width > columns {
            all.extend(split_piece(text, &piece));
        } else {
            all.push(piece);
        }
    }
    if all.is_empty() {
        lines.push(Line {
            range: offset..offset,
            width: 0,
        });
        return;
    }
    let mut start = 0;
    while start < all.len() {
        // Skip spaces at the start of a line.
        while start < all.len() && all[start].space {
            start += 1;
        }
        if start >= all.len() {
            break;
        }
        let mut end = start;
        let mut used = 0;
        while end < all.len() && used + all[end].width <= columns {
            used += all[end].width;
            end += 1;
        }
        if end < all.len() {
            // Kinsoku: move the break back while the next line would start
            // with a forbidden character or this one end with one.
            let mut at = end;
            while at > start + 1
                && (NO_LINE_START.contains(all[at].first) || NO_LINE_END.contains(all[at - 1].last))
                && !all[at].space
            {
                at -= 1;
            }
            if at > start {
                end = at;
            }
        }
        let mut last = end;
        while last > start && all[last - 1].space {
            last -= 1;
        }
        let range = all[start].range.start..all[last.max(start + 1) - 1].range.end;
        lines.push(Line {
            width: width(&text[range.clone()]),
            range,
        });
        start = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn broken(text: &str, columns: usize) -> Vec<&str> {
        break_lines(text, columns)
            .into_iter()
            .map(|l| &text[l.range])
            .collect()
    }

    #[test]
    fn widths_follow_east_asian_width() {
        assert_eq!(width("RP"), 2);
        assert_eq!(width("２ＲＰ"), 6);
        assert_eq!(width("プレイ：2RPを得る。"), 19);
        assert_eq!(width("ｶﾀｶﾅ"), 4);
        assert_eq!(width("…"), 2);
    }

    #[test]
    fn lines_fill_to_the_width() {
        assert_eq!(
            broken("あいうえおかきくけこ", 8),
            ["あいうえ", "おかきく", "けこ"]
        );
        assert_eq!(broken("Gain 2 RP now", 8), ["Gain 2", "RP now"]);
        assert_eq!(broken("一\n二", 8), ["一", "二"]);
    }

    #[test]
    fn latin_words_stay_whole() {
        assert_eq!(broken("あいう+1 STARを", 8), ["あいう+1", "STARを"]);
        assert_eq!(broken("あいうえ+1 STAR", 8), ["あいうえ", "+1 STAR"]);
    }

    #[test]
    fn kinsoku_keeps_punctuation_off_line_starts() {
        // Without kinsoku the second line would start with 。
        assert_eq!(broken("あいうえ。かき", 8), ["あいう", "え。かき"]);
        assert_eq!(broken("あいうっかき", 6), ["あい", "うっか", "き"]);
        for line in broken("竜は言った「来い」。そして去った。", 6) {
            let first = line.chars().next().unwrap();
            let last = line.chars().last().unwrap();
            assert!(!NO_LINE_START.contains(first), "{line}");
            assert!(!NO_LINE_END.contains(last), "{line}");
        }
    }

    #[test]
    fn kinsoku_keeps_opening_brackets_off_line_ends() {
        assert_eq!(broken("あいう「え」", 8), ["あいう", "「え」"]);
    }

    #[test]
    fn overlong_words_are_split() {
        assert_eq!(broken("ABCDEFGHIJ", 4), ["ABCD", "EFGH", "IJ"]);
    }
}
