//! Card art: the image file a card names (`art:` in its set file), known
//! by its header bytes alone (format and pixel size, never decoded), and
//! put into a face as a `data:` URI so that a face file stands alone.
//!
//! Knows nothing of cards: the build locates what it finds (`load`), and
//! [`super::svg`] draws the image.

use std::collections::HashMap;
use std::path::{Component, Path};
use std::sync::Arc;

use base64::Engine as _;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The largest art file read, in bytes (8 MiB): a face embeds its art, and
/// a card printed at 300 dpi needs far less than this (a 744 × 1039 px PNG
/// is about 2 MiB).
pub const MAX_ART_BYTES: u64 = 8 * 1024 * 1024;

/// The image formats a face can embed: what every browser and the PDF
/// writer draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ArtFormat {
    Png,
    Jpeg,
    Webp,
    Svg,
}

impl ArtFormat {
    /// Every format, in a fixed order (the card index stores a position).
    pub const ALL: [ArtFormat; 4] = [
        ArtFormat::Png,
        ArtFormat::Jpeg,
        ArtFormat::Webp,
        ArtFormat::Svg,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ArtFormat::Png => "png",
            ArtFormat::Jpeg => "jpeg",
            ArtFormat::Webp => "webp",
            ArtFormat::Svg => "svg",
        }
    }

    /// The media type a `data:` URI gives.
    pub fn mime(self) -> &'static str {
        match self {
            ArtFormat::Png => "image/png",
            ArtFormat::Jpeg => "image/jpeg",
            ArtFormat::Webp => "image/webp",
            ArtFormat::Svg => "image/svg+xml",
        }
    }
}

/// What an image's header says: its format and size in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Probed {
    pub format: ArtFormat,
    pub width: u32,
    pub height: u32,
}

/// Why an art path is refused before any file is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadPath {
    Empty,
    /// An absolute path (`/x.png`, `C:\x.png`).
    Absolute,
    /// A `..` step: the path may leave the pool's folder.
    Parent,
}

/// Checks an art path as the set file writes it: relative, and never
/// climbing out of its folder (`..`), so a pool names only its own files.
pub fn check_path(written: &str) -> Result<(), BadPath> {
    if written.trim().is_empty() {
        return Err(BadPath::Empty);
    }
    // A backslash or a drive letter is absolute on Windows, whatever runs.
    let windows_absolute = written.starts_with('\\')
        || written.as_bytes().get(1) == Some(&b':') && written.as_bytes()[0].is_ascii_alphabetic();
    let path = Path::new(written);
    if path.is_absolute() || path.has_root() || windows_absolute {
        return Err(BadPath::Absolute);
    }
    let climbs = path.components().any(|c| c == Component::ParentDir)
        || written.split(['/', '\\']).any(|part| part == "..");
    match climbs {
        true => Err(BadPath::Parent),
        false => Ok(()),
    }
}

/// The format and size of an image from its bytes: PNG, JPEG and WebP by
/// their headers; SVG by its root element and its size as a renderer reads
/// it. `None` when the bytes are none of these (or their size is zero).
pub fn probe(bytes: &[u8]) -> Option<Probed> {
    let format = match imagesize::image_type(bytes).ok() {
        Some(imagesize::ImageType::Png) => ArtFormat::Png,
        Some(imagesize::ImageType::Jpeg) => ArtFormat::Jpeg,
        Some(imagesize::ImageType::Webp) => ArtFormat::Webp,
        _ if looks_like_svg(bytes) => return probe_svg(bytes),
        _ => return None,
    };
    let size = imagesize::blob_size(bytes).ok()?;
    let (width, height) = (
        u32::try_from(size.width).ok()?,
        u32::try_from(size.height).ok()?,
    );
    (width > 0 && height > 0).then_some(Probed {
        format,
        width,
        height,
    })
}

/// Text whose first element (past a declaration, comments or a doctype) is
/// `<svg`.
fn looks_like_svg(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    let Ok(text) =
        std::str::from_utf8(head).or_else(|e| std::str::from_utf8(&head[..e.valid_up_to()]))
    else {
        return false;
    };
    let mut rest = text.trim_start_matches('\u{feff}').trim_start();
    loop {
        let skip = |open: &str, close: &str, rest: &str| -> Option<usize> {
            rest.strip_prefix(open)?
                .find(close)
                .map(|at| open.len() + at + close.len())
        };
        let step = skip("<?", "?>", rest)
            .or_else(|| skip("<!--", "-->", rest))
            .or_else(|| skip("<!DOCTYPE", ">", rest));
        match step {
            Some(at) => rest = rest[at..].trim_start(),
            None => return rest.starts_with("<svg"),
        }
    }
}

/// An SVG's size as a renderer reads it (its `width` and `height`, else its
/// `viewBox`), rounded to whole pixels.
fn probe_svg(bytes: &[u8]) -> Option<Probed> {
    let text = std::str::from_utf8(bytes).ok()?;
    let tree = svg2pdf::usvg::Tree::from_str(text, &svg2pdf::usvg::Options::default()).ok()?;
    let size = tree.size();
    let (width, height) = (size.width().round() as u32, size.height().round() as u32);
    (width > 0 && height > 0).then_some(Probed {
        format: ArtFormat::Svg,
        width,
        height,
    })
}

/// The art images faces embed, each a `data:` URI, by the fingerprint of
/// its bytes (so a face draws exactly the image its card was built with).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArtImages(Arc<HashMap<String, Arc<str>>>);

impl ArtImages {
    /// The images of these files' bytes (each probed for its format; bytes
    /// that are no image are left out).
    pub fn of<'a>(files: impl IntoIterator<Item = &'a [u8]>) -> ArtImages {
        let images = files
            .into_iter()
            .filter_map(|bytes| {
                let probed = probe(bytes)?;
                Some((
                    fingerprint(bytes),
                    Arc::from(data_uri(probed.format, bytes)),
                ))
            })
            .collect();
        ArtImages(Arc::new(images))
    }

    /// The image whose bytes have this fingerprint, as a `data:` URI.
    pub fn uri(&self, fingerprint: &str) -> Option<&str> {
        self.0.get(fingerprint).map(|uri| &**uri)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The bytes as a `data:` URI of their format.
pub fn data_uri(format: ArtFormat, bytes: &[u8]) -> String {
    let mut out = format!("data:{};base64,", format.mime());
    base64::engine::general_purpose::STANDARD.encode_string(bytes, &mut out);
    out
}

/// The fingerprint of an art file's bytes, as the database keeps it: a
/// changed image changes its card.
pub fn fingerprint(bytes: &[u8]) -> String {
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_that_leave_the_folder_are_refused() {
        assert_eq!(check_path("art/owl.png"), Ok(()));
        assert_eq!(check_path("owl.v2.png"), Ok(()));
        assert_eq!(check_path("../owl.png"), Err(BadPath::Parent));
        assert_eq!(check_path("art/../../owl.png"), Err(BadPath::Parent));
        assert_eq!(check_path("art\\..\\owl.png"), Err(BadPath::Parent));
        assert_eq!(check_path("/etc/passwd"), Err(BadPath::Absolute));
        assert_eq!(check_path("C:\\art\\owl.png"), Err(BadPath::Absolute));
        assert_eq!(check_path("\\\\server\\owl.png"), Err(BadPath::Absolute));
        assert_eq!(check_path(" "), Err(BadPath::Empty));
    }

    #[test]
    fn formats_and_sizes_come_from_the_header() {
        // A PNG's signature and IHDR: 3 × 2 pixels.
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        png.extend(3u32.to_be_bytes());
        png.extend(2u32.to_be_bytes());
        png.extend([8, 6, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(
            probe(&png),
            Some(Probed {
                format: ArtFormat::Png,
                width: 3,
                height: 2
            })
        );
        let svg = br#"<?xml version="1.0"?><!-- art --><svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"/>"#;
        assert_eq!(
            probe(svg),
            Some(Probed {
                format: ArtFormat::Svg,
                width: 40,
                height: 30
            })
        );
        assert_eq!(probe(b"GIF89a\x01\0\x01\0"), None);
        assert_eq!(probe(b"not an image at all"), None);
        assert_eq!(probe(b"\x89PNG\r\n\x1a\n"), None);
        assert_eq!(probe(b""), None);
        assert!(data_uri(ArtFormat::Png, b"ab").starts_with("data:image/png;base64,YWI="));
    }
}
