//! Display width, and the kinsoku shori character classes.
//!
//! Width follows Unicode East Asian Width in a CJK context: wide, full-width
//! and ambiguous characters take 2 columns, others 1 (a card prints `…` or
//! `※` as wide). Kinsoku shori keeps closing punctuation and small kana off
//! the start of a line and opening brackets off its end; the card faces'
//! line breaker (`faces::layout`) applies it.

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_follow_east_asian_width() {
        assert_eq!(width("RP"), 2);
        assert_eq!(width("２ＲＰ"), 6);
        assert_eq!(width("プレイ：2RPを得る。"), 19);
        assert_eq!(width("ｶﾀｶﾅ"), 4);
        assert_eq!(width("…"), 2);
    }
}
