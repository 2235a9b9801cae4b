//! Card faces: each card drawn as a poker-size SVG in each language, its
//! text laid out with the shipped fonts' real metrics.
//!
//! - [`fonts`], [`layout`], [`icons`] and [`art`] (layer 3) know nothing of
//!   cards: the fonts, the one fit model (`blades render` and `blades i18n
//!   check` both call [`layout::fit`]), the symbols and art images' headers;
//! - [`svg`] (layer 7) draws one card of the database
//!   ([`svg::draw`]: a face as an SVG string, the entry point for the
//!   gallery and print sheets);
//! - [`render`] (layer 8) renders a pool's faces, locates what they found
//!   in the set and locale files, and writes the output folder;
//! - [`gallery`] (layer 8) makes the static site of a pool's cards;
//! - [`sheets`] (layer 8) lays the faces out on print-and-play pages (HTML
//!   and PDF).

pub mod art;
pub mod fonts;
pub mod gallery;
pub mod icons;
pub mod layout;
pub mod render;
pub mod sheets;
pub mod svg;
