//! The app's files, compiled into the binary: one page, its ES modules, one
//! style sheet and the shipped fonts. Only these names are served; no path
//! ever reaches the file system.

use std::borrow::Cow;

use super::http::Reply;
use crate::faces::fonts::{FONT_FILES, FONT_LICENSE};

/// Each file by name, with its type.
const FILES: &[(&str, &str, &str)] = &[
    ("app.js", JS, include_str!("assets/app.js")),
    ("api.js", JS, include_str!("assets/api.js")),
    ("words.js", JS, include_str!("assets/words.js")),
    ("deck.js", JS, include_str!("assets/deck.js")),
    ("list.js", JS, include_str!("assets/list.js")),
    ("table.js", JS, include_str!("assets/table.js")),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("assets/style.css"),
    ),
];

const JS: &str = "text/javascript; charset=utf-8";

/// The app's one page.
pub fn page() -> Reply {
    let page = include_str!("assets/index.html");
    Reply::bytes(
        200,
        "text/html; charset=utf-8",
        Cow::Borrowed(page.as_bytes()),
    )
}

/// `/assets/NAME`: a file of the app or a font (`fonts/NotoSans-Regular.ttf`).
pub fn asset(name: &str) -> Reply {
    if name == "fonts.css" {
        let css = fonts_css();
        return Reply {
            cache: true,
            ..Reply::bytes(200, "text/css; charset=utf-8", Cow::Owned(css.into_bytes()))
        };
    }
    let found = match name.strip_prefix("fonts/") {
        Some(font) => font_file(font),
        None => (FILES.iter())
            .find(|(file, _, _)| *file == name)
            .map(|(_, kind, text)| (*kind, text.as_bytes())),
    };
    match found {
        Some((kind, bytes)) => Reply {
            cache: true,
            ..Reply::bytes(200, kind, Cow::Borrowed(bytes))
        },
        None => Reply::error(404, format!("no asset `{name}`")),
    }
}

/// The `@font-face` rules of the faces' own fonts, served beside them:
/// the page's text and the faces' are set in the same families.
fn fonts_css() -> String {
    FONT_FILES
        .iter()
        .map(|font| {
            format!(
                "@font-face {{ font-family: '{}'; src: url('/assets/fonts/{}'); font-weight: {}; font-style: {}; }}\n",
                font.family,
                font.file,
                font.weight,
                if font.italic { "italic" } else { "normal" }
            )
        })
        .collect()
}

/// A shipped font (or its licence) by file name.
fn font_file(name: &str) -> Option<(&'static str, &'static [u8])> {
    if name == FONT_LICENSE.0 {
        return Some(("text/plain; charset=utf-8", FONT_LICENSE.1.as_bytes()));
    }
    let font = FONT_FILES.iter().find(|f| f.file == name)?;
    let kind = match font.file.ends_with(".otf") {
        true => "font/otf",
        false => "font/ttf",
    };
    Some((kind, font.bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_apps_own_files_are_served() {
        assert_eq!(asset("app.js").status, 200);
        assert_eq!(asset("fonts/NotoSans-Regular.ttf").status, 200);
        assert_eq!(asset("fonts/OFL.txt").status, 200);
        let css = String::from_utf8(asset("fonts.css").body.into_owned()).unwrap_or_default();
        for font in &FONT_FILES {
            assert!(css.contains(&format!("url('/assets/fonts/{}')", font.file)));
        }
        for name in [
            "../Cargo.toml",
            "fonts/../app.js",
            "",
            "fonts/",
            "/etc/passwd",
        ] {
            assert_eq!(asset(name).status, 404, "{name}");
        }
    }
}
