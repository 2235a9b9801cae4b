//! The fonts a card face is set in, shipped in the repository (`fonts/`,
//! SIL Open Font License 1.1; see `fonts/README.md`) and compiled into the
//! binary, so layout needs no system font and looks the same everywhere.

use std::sync::LazyLock;

use rustybuzz::Face;

/// A face's style: regular text, timing words, reminder and flavor text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Style {
    Regular,
    Bold,
    Italic,
}

/// The language a text is set in: it decides which font is tried first
/// (Japanese text uses the Japanese font's own Latin letters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Script {
    Latin,
    Japanese,
}

impl Script {
    /// The script of a language code (`ja` is Japanese, anything else Latin).
    pub fn of_lang(lang: &str) -> Script {
        if lang == "ja" {
            Script::Japanese
        } else {
            Script::Latin
        }
    }

    /// The CSS font families, first choice first.
    pub fn css_families(self) -> &'static str {
        match self {
            Script::Latin => "'Blades Sans', 'Blades Sans JP'",
            Script::Japanese => "'Blades Sans JP', 'Blades Sans'",
        }
    }
}

/// One font file of the set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FontId {
    LatinRegular,
    LatinBold,
    LatinItalic,
    JapaneseRegular,
    JapaneseBold,
}

/// A shipped font file: its name in `fonts/`, its CSS family, weight and
/// style, and its bytes.
#[derive(Debug, Clone, Copy)]
pub struct FontFile {
    pub file: &'static str,
    pub family: &'static str,
    pub weight: u16,
    pub italic: bool,
    pub bytes: &'static [u8],
}

/// Every font file, in [`FontId`] order.
pub const FONT_FILES: [FontFile; 5] = [
    FontFile {
        file: "NotoSans-Regular.ttf",
        family: "Blades Sans",
        weight: 400,
        italic: false,
        bytes: include_bytes!("../../fonts/NotoSans-Regular.ttf"),
    },
    FontFile {
        file: "NotoSans-Bold.ttf",
        family: "Blades Sans",
        weight: 700,
        italic: false,
        bytes: include_bytes!("../../fonts/NotoSans-Bold.ttf"),
    },
    FontFile {
        file: "NotoSans-Italic.ttf",
        family: "Blades Sans",
        weight: 400,
        italic: true,
        bytes: include_bytes!("../../fonts/NotoSans-Italic.ttf"),
    },
    FontFile {
        file: "NotoSansJP-Regular.otf",
        family: "Blades Sans JP",
        weight: 400,
        italic: false,
        bytes: include_bytes!("../../fonts/NotoSansJP-Regular.otf"),
    },
    FontFile {
        file: "NotoSansJP-Bold.otf",
        family: "Blades Sans JP",
        weight: 700,
        italic: false,
        bytes: include_bytes!("../../fonts/NotoSansJP-Bold.otf"),
    },
];

/// The licence that goes with the font files wherever they are copied.
pub const FONT_LICENSE: (&str, &str) = ("OFL.txt", include_str!("../../fonts/OFL.txt"));

impl FontId {
    fn index(self) -> usize {
        self as usize
    }

    /// The font for a style in a script: Japanese has no italic, so its
    /// italic text is set in the regular face.
    pub fn of(script: Script, style: Style) -> FontId {
        match (script, style) {
            (Script::Latin, Style::Regular) => FontId::LatinRegular,
            (Script::Latin, Style::Bold) => FontId::LatinBold,
            (Script::Latin, Style::Italic) => FontId::LatinItalic,
            (Script::Japanese, Style::Bold) => FontId::JapaneseBold,
            (Script::Japanese, _) => FontId::JapaneseRegular,
        }
    }

    pub fn file(self) -> &'static FontFile {
        &FONT_FILES[self.index()]
    }
}

struct Loaded {
    faces: Vec<Face<'static>>,
}

static FONTS: LazyLock<Loaded> = LazyLock::new(|| Loaded {
    faces: FONT_FILES
        .iter()
        .map(|f| Face::from_slice(f.bytes, 0).expect("a shipped font parses"))
        .collect(),
});

/// The parsed face of a font.
pub(crate) fn face(id: FontId) -> &'static Face<'static> {
    &FONTS.faces[id.index()]
}

/// Does any shipped font draw this character? (What a page set in the
/// shipped fonts can show without a system font.)
pub fn drawable(c: char) -> bool {
    FONTS.faces.iter().any(|face| face.glyph_index(c).is_some())
}

/// Does this font draw this character?
pub(crate) fn has_glyph(id: FontId, c: char) -> bool {
    face(id).glyph_index(c).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_font_parses_and_covers_its_script() {
        for id in [FontId::LatinRegular, FontId::LatinBold, FontId::LatinItalic] {
            assert!(has_glyph(id, 'A') && has_glyph(id, 'é'), "{id:?}");
        }
        for id in [FontId::JapaneseRegular, FontId::JapaneseBold] {
            for c in "あア得点、。★".chars() {
                assert!(has_glyph(id, c), "{id:?} lacks {c}");
            }
        }
        assert!(!has_glyph(FontId::JapaneseRegular, '齟'));
    }
}
