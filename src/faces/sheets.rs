//! Print-and-play sheets: each set's card faces, nine to a page (3 × 3) at
//! true size (63 × 88 mm), centred on A4 or US Letter, with crop marks in
//! the margins at every cut line.
//!
//! One layout ([`layout`]: the cards' rectangles and the crop marks of a
//! page, in millimetres) is drawn two ways: as HTML (`SET.PAPER.LANG.html`,
//! CSS `@page`, faces inlined, fonts from `fonts.css` as data URLs so the
//! page works from `file://`), and as one SVG per page ([`page_svg`], faces
//! nested as `<svg x y width height>`) that [`pdf`] turns into a PDF page
//! with svg2pdf, the shipped fonts embedded.

use std::collections::HashMap;
use std::fmt::{self, Write};
use std::path::Path;
use std::sync::{Arc, LazyLock};

use rayon::prelude::*;
use schemars::JsonSchema;
use serde::Serialize;

use crate::diagnostics::{Code, Diagnostic};
use crate::files::{self, WriteError};
use crate::model::{Card, Database, Set};
use crate::suggest::{did_you_mean, nearest};

use super::art::ArtImages;
use super::fonts::{FONT_FILES, FONT_LICENSE};
use super::icons::num;
use super::render::{self, Written};
use super::svg::{self as face, FaceOptions};

/// Cards across and down a page.
pub const COLUMNS: usize = 3;
pub const ROWS: usize = 3;
/// Cards on a full page.
pub const PER_PAGE: usize = COLUMNS * ROWS;
/// How far a crop mark stays from the card area, mm.
pub const MARK_GAP: f32 = 1.0;
/// A crop mark's longest length, mm.
pub const MARK_LENGTH: f32 = 5.0;
/// How close a crop mark may come to the paper's edge, mm.
pub const MARK_EDGE: f32 = 2.0;
/// A crop mark's stroke width, mm.
pub const MARK_STROKE: f32 = 0.2;
/// The band along the paper's edges most printers cannot print, mm; every
/// card lies inside it.
pub const UNPRINTABLE: f32 = 5.0;

/// A paper size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Paper {
    /// 210 × 297 mm.
    A4,
    /// US Letter, 8.5 × 11 in (215.9 × 279.4 mm).
    Letter,
}

impl Paper {
    pub const ALL: [Paper; 2] = [Paper::A4, Paper::Letter];

    /// `a4` or `letter`, any case.
    pub fn parse(text: &str) -> Option<Paper> {
        match text.trim().to_lowercase().as_str() {
            "a4" => Some(Paper::A4),
            "letter" | "us-letter" => Some(Paper::Letter),
            _ => None,
        }
    }

    /// The name in file names and arguments.
    pub fn key(self) -> &'static str {
        match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
        }
    }

    /// Width and height, mm.
    pub fn size(self) -> (f32, f32) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
        }
    }

    /// Width and height in PDF points (1/72 in).
    pub fn size_pt(self) -> (f32, f32) {
        match self {
            // 210 × 297 mm at 72/25.4 points a millimetre.
            Paper::A4 => (595.2756, 841.8898),
            Paper::Letter => (612.0, 792.0),
        }
    }

    /// The CSS `@page` size keyword.
    fn css(self) -> &'static str {
        match self {
            Paper::A4 => "A4",
            Paper::Letter => "letter",
        }
    }
}

impl fmt::Display for Paper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// A rectangle on a page, mm from the top-left corner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
}

/// A crop mark: a line on a page, mm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mark {
    pub x1: f32,
    pub y1: f32,
    pub x2: f32,
    pub y2: f32,
}

/// Where a page's cards and crop marks go.
#[derive(Debug, Clone, PartialEq)]
pub struct PageLayout {
    pub paper: Paper,
    /// The cards, in reading order (left to right, top to bottom).
    pub cards: Vec<Rect>,
    pub marks: Vec<Mark>,
}

/// The layout of a page holding `cards` cards (at most [`PER_PAGE`]): the
/// 3 × 3 grid of card slots, abutting (one cut between neighbours), is
/// centred on the paper whatever the count, so every page cuts the same;
/// the cards fill its slots in reading order. A crop mark continues each
/// cut line (every column and row edge of the filled part of the grid)
/// into the margin, from [`MARK_GAP`] outside the grid for up to
/// [`MARK_LENGTH`], never nearer the paper's edge than [`MARK_EDGE`].
pub fn layout(paper: Paper, cards: usize) -> PageLayout {
    let cards = cards.min(PER_PAGE);
    let (page_w, page_h) = paper.size();
    let grid_w = COLUMNS as f32 * face::WIDTH;
    let grid_h = ROWS as f32 * face::HEIGHT;
    let x0 = (page_w - grid_w) / 2.0;
    let y0 = (page_h - grid_h) / 2.0;
    let rects = (0..cards)
        .map(|i| Rect {
            x: x0 + (i % COLUMNS) as f32 * face::WIDTH,
            y: y0 + (i / COLUMNS) as f32 * face::HEIGHT,
            width: face::WIDTH,
            height: face::HEIGHT,
        })
        .collect();
    let mut marks = Vec::new();
    if cards > 0 {
        let columns = cards.min(COLUMNS);
        let rows = cards.div_ceil(COLUMNS);
        let (left, top) = (x0, y0);
        let right = x0 + columns as f32 * face::WIDTH;
        let bottom = y0 + rows as f32 * face::HEIGHT;
        // A mark from `from` (an edge of the grid) outwards, towards `edge`
        // (the paper's edge): none when the margin has no room.
        let span = |from: f32, towards_edge: f32| -> Option<(f32, f32)> {
            let dir = if towards_edge < from { -1.0 } else { 1.0 };
            let start = from + dir * MARK_GAP;
            let room = (towards_edge - start).abs() - MARK_EDGE;
            (room > 0.5).then(|| (start, start + dir * room.min(MARK_LENGTH)))
        };
        for c in 0..=columns {
            let x = x0 + c as f32 * face::WIDTH;
            for (from, edge) in [(top, 0.0), (bottom, page_h)] {
                if let Some((y1, y2)) = span(from, edge) {
                    marks.push(Mark {
                        x1: x,
                        y1,
                        x2: x,
                        y2,
                    });
                }
            }
        }
        for r in 0..=rows {
            let y = y0 + r as f32 * face::HEIGHT;
            for (from, edge) in [(left, 0.0), (right, page_w)] {
                if let Some((x1, x2)) = span(from, edge) {
                    marks.push(Mark {
                        x1,
                        y1: y,
                        x2,
                        y2: y,
                    });
                }
            }
        }
    }
    PageLayout {
        paper,
        cards: rects,
        marks,
    }
}

/// The sets named (by id or name, English or translated, any case), in the
/// order named, or every set in database order when none is named; a name
/// that matches no set is an `unknown-set` finding with the nearest names.
pub fn select_sets<'a>(
    database: &'a Database,
    names: &[String],
) -> Result<Vec<&'a Set>, Box<Diagnostic>> {
    if names.is_empty() {
        return Ok(database.sets.iter().collect());
    }
    let mut out: Vec<&Set> = Vec::new();
    for name in names {
        let folded = name.trim().to_lowercase();
        let found = database.sets.iter().find(|s| {
            s.id.0.to_lowercase() == folded
                || s.name.to_lowercase() == folded
                || s.translations
                    .values()
                    .any(|t| t.name.to_lowercase() == folded)
        });
        let Some(set) = found else {
            let known = database
                .sets
                .iter()
                .flat_map(|s| [s.id.0.as_str(), s.name.as_str()]);
            // Each set once, by its id, however it was nearest.
            let mut suggestions: Vec<&str> = Vec::new();
            for near in nearest(name, known, 6) {
                let id = database
                    .sets
                    .iter()
                    .find(|s| s.id.0 == near || s.name == near)
                    .map_or(near, |s| s.id.0.as_str());
                if !suggestions.contains(&id) && suggestions.len() < 3 {
                    suggestions.push(id);
                }
            }
            let help = did_you_mean(&suggestions).unwrap_or_else(|| {
                "give a set id or name (`blades card` lists a card's set)".to_string()
            });
            let unknown =
                Diagnostic::general(Code::UnknownSet, format!("no set is named `{name}`"));
            return Err(Box::new(unknown.with_help(help)));
        };
        if !out.iter().any(|s| s.id == set.id) {
            out.push(set);
        }
    }
    Ok(out)
}

/// What to print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrintOptions {
    pub paper: Paper,
    /// One language per sheet (`en`, `ja`).
    pub lang: String,
    /// Each card as many times as its copies in the set (else once).
    pub copies: bool,
    /// The cards' art images.
    pub art: ArtImages,
}

/// One page of a set's sheets: its layout and a face SVG per card slot.
#[derive(Debug, Clone)]
pub struct Page {
    pub layout: PageLayout,
    /// The card ids, in slot order.
    pub cards: Vec<String>,
    /// The faces, in slot order, each ready to be placed in a page
    /// (its ids prefixed by its slot, so nine faces do not share one).
    faces: Vec<Arc<str>>,
}

/// A set's sheets (or one deck's: [`deck_sheets`]).
#[derive(Debug, Clone)]
pub struct SetSheets {
    /// The set's id; [`DECK`] for a deck's sheets.
    pub set: String,
    /// The set's name in the sheets' language; the deck's, as named.
    pub set_name: String,
    pub paper: Paper,
    pub lang: String,
    /// Cards printed (with `copies`, each copy counts).
    pub cards: usize,
    pub pages: Vec<Page>,
}

impl SetSheets {
    /// The HTML file's name in the output folder: `SET.PAPER.LANG.html`.
    pub fn file(&self) -> String {
        sheet_file(&self.set, self.paper, &self.lang)
    }
}

/// The HTML file name of a set's sheets.
pub fn sheet_file(set: &str, paper: Paper, lang: &str) -> String {
    format!("{set}.{}.{lang}.html", paper.key())
}

/// Lays out the sets' cards (in the set's card order) on pages and draws
/// their faces (each distinct card once, in parallel).
pub fn sheets(database: &Database, sets: &[&Set], options: &PrintOptions) -> Vec<SetSheets> {
    let wanted: Vec<&str> = sets.iter().map(|s| s.id.0.as_str()).collect();
    let cards: Vec<&Card> = database
        .cards
        .iter()
        .filter(|c| wanted.contains(&c.set.0.as_str()))
        .collect();
    let faces = faces_of(database, &cards, options);
    sets.iter()
        .map(|set| {
            let mut printed: Vec<&Card> = Vec::new();
            for card in cards.iter().filter(|c| c.set == set.id) {
                let times = if options.copies {
                    usize::from(card.copies.max(1))
                } else {
                    1
                };
                printed.extend(std::iter::repeat_n(*card, times));
            }
            SetSheets {
                set: set.id.0.clone(),
                set_name: set
                    .translations
                    .get(&options.lang)
                    .map_or_else(|| set.name.clone(), |t| t.name.clone()),
                paper: options.paper,
                lang: options.lang.clone(),
                cards: printed.len(),
                pages: pages(&printed, &faces, options.paper),
            }
        })
        .collect()
}

/// The id of a deck's sheets (their file is `deck.PAPER.LANG.html`).
pub const DECK: &str = "deck";

/// One deck's sheets: the faces of its cards, each as many times as the
/// deck holds it, in the order given (the deck's), on the pages a set's
/// sheets are laid on. `name` is the deck's, for the title.
pub fn deck_sheets(
    database: &Database,
    name: &str,
    cards: &[(&Card, u64)],
    options: &PrintOptions,
) -> SetSheets {
    let mut seen = std::collections::HashSet::new();
    let distinct: Vec<&Card> = (cards.iter())
        .filter(|(card, _)| seen.insert(&card.id))
        .map(|(card, _)| *card)
        .collect();
    let faces = faces_of(database, &distinct, options);
    let printed: Vec<&Card> = (cards.iter())
        .flat_map(|(card, n)| std::iter::repeat_n(*card, usize::try_from(*n).unwrap_or(0)))
        .collect();
    SetSheets {
        set: DECK.to_string(),
        set_name: name.to_string(),
        paper: options.paper,
        lang: options.lang.clone(),
        cards: printed.len(),
        pages: pages(&printed, &faces, options.paper),
    }
}

/// Each card's face in the sheets' language, as SVG by card id (each
/// card drawn once, in parallel).
fn faces_of(
    database: &Database,
    cards: &[&Card],
    options: &PrintOptions,
) -> HashMap<String, String> {
    let rendered = render::render_faces(
        database,
        cards,
        std::slice::from_ref(&options.lang),
        &FaceOptions::with_art(options.art.clone()),
    );
    (rendered.into_iter())
        .map(|r| (r.card, r.face.svg))
        .collect()
}

/// The cards printed, in order, nine to a page, each slot with its face
/// (`faces`: each card's SVG by id).
fn pages(printed: &[&Card], faces: &HashMap<String, String>, paper: Paper) -> Vec<Page> {
    printed
        .chunks(PER_PAGE)
        .map(|chunk| Page {
            layout: layout(paper, chunk.len()),
            cards: chunk.iter().map(|c| c.id.0.clone()).collect(),
            faces: chunk
                .iter()
                .enumerate()
                .map(|(slot, c)| {
                    let svg = faces.get(c.id.0.as_str()).map_or("", String::as_str);
                    Arc::from(placeable(svg, slot))
                })
                .collect(),
        })
        .collect()
}

/// A face ready to sit beside others in one document: without its
/// `@font-face` rules (the sheet declares the fonts once) and with its ids
/// (and the references to them) prefixed by its slot.
fn placeable(svg: &str, slot: usize) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(at) = rest.find("@font-face{") {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        match rest.find('}') {
            Some(end) => rest = &rest[end + 1..],
            None => break,
        }
    }
    out.push_str(rest);
    let mut ids: Vec<String> = Vec::new();
    let mut scan = out.as_str();
    while let Some(at) = scan.find(" id=\"") {
        scan = &scan[at + 5..];
        if let Some(end) = scan.find('"') {
            ids.push(scan[..end].to_string());
            scan = &scan[end..];
        }
    }
    for id in ids {
        let new = format!("s{slot}-{id}");
        out = out
            .replace(&format!(" id=\"{id}\""), &format!(" id=\"{new}\""))
            .replace(&format!("url(#{id})"), &format!("url(#{new})"))
            .replace(&format!("href=\"#{id}\""), &format!("href=\"#{new}\""));
    }
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The crop marks as SVG lines.
fn marks_svg(out: &mut String, marks: &[Mark]) {
    let _ = write!(
        out,
        r##"<g class="crop-marks" stroke="#000000" stroke-width="{}" fill="none">"##,
        num(MARK_STROKE)
    );
    for m in marks {
        let _ = write!(
            out,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
            num(m.x1),
            num(m.y1),
            num(m.x2),
            num(m.y2)
        );
    }
    out.push_str("</g>\n");
}

/// The name of the stylesheet that declares the fonts (as data URLs).
pub const FONTS_CSS: &str = "fonts.css";

/// A set's sheets as one HTML document: one `.sheet` element per page
/// (`@page` sized to the paper, no margin), each card a `.card` placed
/// absolutely in millimetres with its face inlined, the crop marks an SVG
/// over the page.
pub fn html(sheets: &SetSheets) -> String {
    let (w, h) = sheets.paper.size();
    let mut out = String::with_capacity(sheets.pages.len() * 80 * 1024);
    let _ = write!(
        out,
        r#"<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8">
<title>{title} — print sheets ({paper})</title>
<link rel="stylesheet" href="{FONTS_CSS}">
<style>
@page {{ size: {css}; margin: 0 }}
html, body {{ margin: 0; padding: 0 }}
body {{ background: #8a8a8a }}
.sheet {{ position: relative; width: {w}mm; height: {h}mm; background: #ffffff; overflow: hidden; margin: 0 0 8mm 0; break-after: page; page-break-after: always }}
.sheet:last-child {{ break-after: auto; page-break-after: auto }}
.card {{ position: absolute; width: {cw}mm; height: {ch}mm }}
.card > svg {{ display: block; width: {cw}mm; height: {ch}mm }}
.marks {{ position: absolute; left: 0; top: 0; width: {w}mm; height: {h}mm }}
@media print {{ body {{ background: none }} .sheet {{ margin: 0 }} }}
</style></head>
<body data-set="{set}" data-paper="{paper}" data-lang="{lang}">
"#,
        lang = escape(&sheets.lang),
        title = escape(&sheets.set_name),
        paper = sheets.paper.key(),
        css = sheets.paper.css(),
        set = escape(&sheets.set),
        w = num(w),
        h = num(h),
        cw = num(face::WIDTH),
        ch = num(face::HEIGHT),
    );
    for (n, page) in sheets.pages.iter().enumerate() {
        let _ = writeln!(
            out,
            r#"<section class="sheet" data-page="{}" data-cards="{}">"#,
            n + 1,
            page.cards.len()
        );
        for ((rect, card), svg) in page.layout.cards.iter().zip(&page.cards).zip(&page.faces) {
            let _ = write!(
                out,
                r#"<div class="card" data-card="{}" style="left:{}mm;top:{}mm;width:{}mm;height:{}mm">"#,
                escape(card),
                num(rect.x),
                num(rect.y),
                num(rect.width),
                num(rect.height)
            );
            out.push_str(svg.trim_end());
            out.push_str("</div>\n");
        }
        let _ = write!(
            out,
            r#"<svg class="marks" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}">"#,
            num(w),
            num(h)
        );
        marks_svg(&mut out, &page.layout.marks);
        out.push_str("</svg>\n</section>\n");
    }
    out.push_str("</body></html>\n");
    out
}

/// One page as a standalone SVG (user unit: the millimetre): the faces
/// nested as `<svg x y width height>`, then the crop marks.
pub fn page_svg(page: &Page) -> String {
    let (w, h) = page.layout.paper.size();
    let mut out = String::with_capacity(page.faces.len() * 16 * 1024);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">"#,
        w = num(w),
        h = num(h)
    );
    let size = format!(
        r#"width="{}mm" height="{}mm""#,
        num(face::WIDTH),
        num(face::HEIGHT)
    );
    for (rect, svg) in page.layout.cards.iter().zip(&page.faces) {
        let placed = format!(
            r#"x="{}" y="{}" width="{}" height="{}""#,
            num(rect.x),
            num(rect.y),
            num(rect.width),
            num(rect.height)
        );
        out.push_str(&svg.replacen(&size, &placed, 1));
    }
    marks_svg(&mut out, &page.layout.marks);
    out.push_str("</svg>\n");
    out
}

/// The stylesheet that declares the shipped fonts as data URLs: a page
/// opened from `file://` may not fetch font files beside it (Chromium
/// refuses them), but it may read a stylesheet, and a data URL is no fetch.
pub fn fonts_css() -> String {
    let mut out = String::from("/* The card fonts (SIL Open Font License 1.1, see OFL.txt). */\n");
    for font in &FONT_FILES {
        let (mime, format) = if font.file.ends_with(".otf") {
            ("font/otf", "opentype")
        } else {
            ("font/ttf", "truetype")
        };
        let _ = writeln!(
            out,
            "@font-face {{ font-family: '{}'; font-weight: {}; font-style: {}; src: url(data:{mime};base64,{}) format('{format}') }}",
            font.family,
            font.weight,
            if font.italic { "italic" } else { "normal" },
            base64(font.bytes)
        );
    }
    out
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A file of the sheets' folder: its path inside the folder and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetFile {
    pub path: String,
    pub bytes: Vec<u8>,
}

/// Every file of the sheets' folder: one HTML per set
/// (`SET.PAPER.LANG.html`), the fonts' stylesheet (`fonts.css`) and their
/// licence (`OFL.txt`). For front ends that link sheets (the gallery).
pub fn sheet_files(sheets: &[SetSheets]) -> Vec<SheetFile> {
    let mut files: Vec<SheetFile> = sheets
        .par_iter()
        .map(|s| SheetFile {
            path: s.file(),
            bytes: html(s).into_bytes(),
        })
        .collect();
    files.push(SheetFile {
        path: FONTS_CSS.to_string(),
        bytes: fonts_css().into_bytes(),
    });
    files.push(SheetFile {
        path: FONT_LICENSE.0.to_string(),
        bytes: FONT_LICENSE.1.as_bytes().to_vec(),
    });
    files
}

/// Writes the files into `dir` (and the PDF, when given, where it is
/// asked for), all or none, as an [`files::OutputFolder`]; a file whose
/// bytes are already right is not written again.
pub fn write(
    dir: &Path,
    files: &[SheetFile],
    pdf: Option<(&Path, &[u8])>,
) -> Result<Written, WriteError> {
    let all = files
        .iter()
        .map(|f| (dir.join(&f.path), f.bytes.as_slice()))
        .chain(pdf.map(|(path, bytes)| (path.to_path_buf(), bytes)));
    files::OutputFolder::open(dir)?.write_changed(all, [])
}

/// Why the PDF could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdfError {
    pub set: String,
    pub page: usize,
    pub message: String,
}

impl fmt::Display for PdfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "page {} of the `{}` sheets could not be converted to PDF: {}",
            self.page, self.set, self.message
        )
    }
}

impl std::error::Error for PdfError {}

/// The shipped fonts in a font database (never the system's), and the
/// family names the fonts call themselves, by the CSS family a face asks
/// for.
struct PdfFonts {
    options: svg2pdf::usvg::Options<'static>,
    families: Vec<(&'static str, String)>,
}

static PDF_FONTS: LazyLock<PdfFonts> = LazyLock::new(|| {
    use svg2pdf::usvg::fontdb::{Database as FontDb, Source};
    let mut db = FontDb::new();
    let mut families: Vec<(&'static str, String)> = Vec::new();
    for font in &FONT_FILES {
        let ids = db.load_font_source(Source::Binary(Arc::new(font.bytes)));
        let own = ids
            .first()
            .and_then(|id| db.face(*id))
            .and_then(|info| info.families.first())
            .map(|(name, _)| name.clone());
        if let Some(own) = own
            && !families.iter().any(|(css, _)| *css == font.family)
        {
            families.push((font.family, own));
        }
    }
    // Longest first, so `Blades Sans JP` is renamed before `Blades Sans`.
    families.sort_by_key(|(css, _)| std::cmp::Reverse(css.len()));
    let latin = families
        .iter()
        .find(|(css, _)| *css == FONT_FILES[0].family)
        .map(|(_, own)| own.clone())
        .unwrap_or_default();
    db.set_sans_serif_family(latin.clone());
    let mut options = svg2pdf::usvg::Options {
        font_family: latin,
        ..Default::default()
    };
    options.fontdb = Arc::new(db);
    PdfFonts { options, families }
});

/// The sets' sheets as one PDF: a page per sheet, in set then page order,
/// each sized to its paper, the fonts it uses embedded (subset).
pub fn pdf(sheets: &[SetSheets]) -> Result<Vec<u8>, PdfError> {
    use pdf_writer::{Content, Finish, Name, Pdf, Rect as PdfRect, Ref};
    let fonts = &*PDF_FONTS;
    let jobs: Vec<(&SetSheets, usize, &Page)> = sheets
        .iter()
        .flat_map(|s| s.pages.iter().enumerate().map(move |(n, p)| (s, n + 1, p)))
        .collect();
    let chunks = jobs
        .par_iter()
        .map(|&(set, number, page)| {
            let fail = |message: String| PdfError {
                set: set.set.clone(),
                page: number,
                message,
            };
            let mut svg = page_svg(page);
            for (css, own) in &fonts.families {
                svg = svg.replace(&format!("'{css}'"), &format!("'{own}'"));
            }
            let tree = svg2pdf::usvg::Tree::from_str(&svg, &fonts.options)
                .map_err(|e| fail(e.to_string()))?;
            let (chunk, root) = svg2pdf::to_chunk(&tree, svg2pdf::ConversionOptions::default())
                .map_err(|e| fail(e.to_string()))?;
            Ok((page.layout.paper, chunk, root))
        })
        .collect::<Result<Vec<_>, PdfError>>()?;
    let mut next = Ref::new(1);
    let catalog = next.bump();
    let tree = next.bump();
    let mut pdf = Pdf::new();
    let mut kids = Vec::with_capacity(chunks.len());
    for (paper, chunk, root) in chunks {
        let mut map = HashMap::new();
        let chunk = chunk.renumber(|old| *map.entry(old).or_insert_with(|| next.bump()));
        let root = map.get(&root).copied().unwrap_or(root);
        let page_id = next.bump();
        let content_id = next.bump();
        let (w, h) = paper.size_pt();
        let mut page = pdf.page(page_id);
        page.media_box(PdfRect::new(0.0, 0.0, w, h));
        page.parent(tree);
        page.contents(content_id);
        page.resources().x_objects().pair(Name(b"Sheet"), root);
        page.finish();
        let mut content = Content::new();
        content.transform([w, 0.0, 0.0, h, 0.0, 0.0]);
        content.x_object(Name(b"Sheet"));
        pdf.stream(content_id, &content.finish());
        pdf.extend(&chunk);
        kids.push(page_id);
    }
    pdf.catalog(catalog).pages(tree);
    let count = i32::try_from(kids.len()).unwrap_or(i32::MAX);
    pdf.pages(tree).kids(kids).count(count);
    Ok(pdf.finish())
}

/// `blades print --format json`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct PrintReport {
    /// The output folder.
    pub out: String,
    pub paper: Paper,
    pub lang: String,
    /// Each set's sheets, in the order printed.
    pub sets: Vec<PrintedSet>,
    /// The PDF written (with `--pdf`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pdf: Option<PrintedPdf>,
    /// Files written in the output folder (new or changed).
    pub written: usize,
    /// Files whose bytes were already right.
    pub unchanged: usize,
}

/// One set in [`PrintReport`].
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct PrintedSet {
    pub set: String,
    /// The HTML file's name in the output folder.
    pub file: String,
    /// Cards printed (each copy counts with `--copies`).
    pub cards: usize,
    /// Pages: cards / 9, rounded up.
    pub pages: usize,
}

/// The PDF in [`PrintReport`].
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct PrintedPdf {
    pub file: String,
    pub pages: usize,
    pub bytes: usize,
}

impl PrintReport {
    pub fn new(
        out: &Path,
        options: &PrintOptions,
        sheets: &[SetSheets],
        written: &Written,
        pdf: Option<PrintedPdf>,
    ) -> PrintReport {
        PrintReport {
            out: out.display().to_string(),
            paper: options.paper,
            lang: options.lang.clone(),
            sets: sheets
                .iter()
                .map(|s| PrintedSet {
                    set: s.set.clone(),
                    file: s.file(),
                    cards: s.cards,
                    pages: s.pages.len(),
                })
                .collect(),
            pdf,
            written: written.written.len(),
            unchanged: written.unchanged,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn overlaps(m: &Mark, r: &Rect) -> bool {
        // A segment meets a rectangle's inside (a mark may touch no card).
        let (lo_x, hi_x) = (m.x1.min(m.x2), m.x1.max(m.x2));
        let (lo_y, hi_y) = (m.y1.min(m.y2), m.y1.max(m.y2));
        let half = MARK_STROKE / 2.0;
        lo_x - half < r.x + r.width
            && hi_x + half > r.x
            && lo_y - half < r.y + r.height
            && hi_y + half > r.y
    }

    #[test]
    fn a_full_a4_page_is_centred_at_true_size() {
        let page = layout(Paper::A4, 9);
        assert_eq!(page.cards.len(), 9);
        assert!((page.cards[0].x - 10.5).abs() < 1e-4);
        assert!((page.cards[0].y - 16.5).abs() < 1e-4);
        for r in &page.cards {
            assert_eq!((r.width, r.height), (63.0, 88.0));
        }
        let last = page.cards[8];
        assert!((210.0 - (last.x + last.width) - 10.5).abs() < 1e-3);
        assert!((297.0 - (last.y + last.height) - 16.5).abs() < 1e-3);
        // 4 cut lines each way, a mark at both ends of each.
        assert_eq!(page.marks.len(), 16);
    }

    #[test]
    fn letter_keeps_marks_inside_its_narrow_top_margin() {
        let page = layout(Paper::Letter, 9);
        assert!((page.cards[0].y - 7.7).abs() < 1e-3);
        for m in page.marks.iter().filter(|m| m.x1 == m.x2) {
            assert!(m.y1.min(m.y2) >= MARK_EDGE - 1e-3, "{m:?}");
        }
        assert_eq!(page.marks.len(), 16);
    }

    #[test]
    fn a_partial_page_marks_only_its_filled_grid() {
        let page = layout(Paper::A4, 4);
        assert_eq!(page.cards.len(), 4);
        // Two rows: 4 column cuts top and bottom, 3 row cuts left and right.
        assert_eq!(page.marks.len(), 4 * 2 + 3 * 2);
    }

    #[test]
    fn paper_in_points_is_the_paper_in_millimetres() {
        for paper in Paper::ALL {
            let (w, h) = paper.size();
            let (pw, ph) = paper.size_pt();
            assert!((w * 72.0 / 25.4 - pw).abs() < 1e-3 && (h * 72.0 / 25.4 - ph).abs() < 1e-3);
        }
    }

    #[test]
    fn base64_matches_the_standard() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn placed_faces_have_their_own_ids_and_no_font_rules() {
        let svg = r#"<svg><style>@font-face{a:b}@font-face{c:d}text{x:y}</style><linearGradient id="art"/><rect fill="url(#art)"/></svg>"#;
        let placed = placeable(svg, 4);
        assert_eq!(
            placed,
            r#"<svg><style>text{x:y}</style><linearGradient id="s4-art"/><rect fill="url(#s4-art)"/></svg>"#
        );
    }

    #[test]
    fn a_page_svg_nests_each_face_at_its_slot_in_millimetres() {
        let workspace = crate::workspace::Workspace::open(None).unwrap();
        let database = workspace.database().unwrap();
        let sets = select_sets(&database, &["first-light-core".to_string()]).unwrap();
        let options = PrintOptions {
            paper: Paper::Letter,
            lang: "ja".to_string(),
            copies: false,
            art: ArtImages::default(),
        };
        let printed = sheets(&database, &sets, &options);
        let page = &printed[0].pages[0];
        assert_eq!(page.cards.len(), PER_PAGE);
        let svg = page_svg(page);
        assert!(svg.starts_with(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="215.9mm" height="279.4mm" viewBox="0 0 215.9 279.4">"#
        ));
        // Every face placed by its slot's rectangle, none left at its own size.
        for rect in &page.layout.cards {
            let placed = format!(
                r#"x="{}" y="{}" width="63" height="88" viewBox="0 0 63 88""#,
                num(rect.x),
                num(rect.y)
            );
            assert_eq!(svg.matches(&placed).count(), 1, "{placed}");
        }
        assert!(!svg.contains("63mm"));
        assert!(!svg.contains("@font-face"));
        let marks = &svg[svg.find(r#"<g class="crop-marks""#).unwrap()..];
        assert_eq!(marks.matches("<line ").count(), page.layout.marks.len());
        // Each face's gradient is its own.
        for slot in 0..PER_PAGE {
            assert_eq!(svg.matches(&format!("id=\"s{slot}-art\"")).count(), 1);
            assert_eq!(svg.matches(&format!("url(#s{slot}-art)")).count(), 1);
        }
        // The PDF of the page: one page, the Japanese font embedded.
        let one = SetSheets {
            pages: vec![page.clone()],
            ..printed[0].clone()
        };
        let bytes = pdf(&[one]).unwrap();
        assert!(bytes.starts_with(b"%PDF-"));
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.contains("/MediaBox [0 0 612 792]"), "Letter in points");
        assert!(text.contains("/FontFile3"));
    }

    #[test]
    fn a_decks_sheet_has_each_card_as_often_as_the_deck_in_its_order() {
        let workspace = crate::workspace::Workspace::open(None).unwrap();
        let database = workspace.database().unwrap();
        let [a, b, c] = [&database.cards[5], &database.cards[0], &database.cards[3]];
        let deck = [(a, 2), (b, 1), (c, 7), (a, 1)];
        let options = PrintOptions {
            paper: Paper::A4,
            lang: "ja".to_string(),
            copies: false,
            art: ArtImages::default(),
        };
        let sheet = deck_sheets(&database, "my deck", &deck, &options);
        let expected: Vec<&str> = (deck.iter())
            .flat_map(|(card, n)| std::iter::repeat_n(card.id.0.as_str(), *n as usize))
            .collect();
        let printed: Vec<&str> = (sheet.pages.iter())
            .flat_map(|page| page.cards.iter().map(String::as_str))
            .collect();
        assert_eq!(printed, expected);
        assert_eq!(sheet.cards, 11);
        let sizes: Vec<usize> = sheet.pages.iter().map(|p| p.cards.len()).collect();
        assert_eq!(sizes, [9, 2]);
        // The set's layout: a partial page sits where a full page's first
        // slots do.
        assert_eq!(sheet.pages[1].layout, layout(Paper::A4, 2));
        let html = html(&sheet);
        assert_eq!(html.matches(r#"<div class="card" "#).count(), 11);
        assert!(html.contains("<title>my deck — print sheets (a4)</title>"));
        assert_eq!(sheet.file(), "deck.a4.ja.html");
        // Each face is the card's own, in the sheet's language.
        let first = &sheet.pages[0].faces[0];
        assert!(
            first.contains(&format!("data-card=\"{}\"", a.id.0)),
            "{first:.200}"
        );
    }

    proptest! {
        #[test]
        fn no_mark_crosses_a_card_and_cards_lie_in_the_printable_page(
            cards in 0usize..=9,
            letter in any::<bool>(),
        ) {
            let paper = if letter { Paper::Letter } else { Paper::A4 };
            let page = layout(paper, cards);
            let (w, h) = paper.size();
            prop_assert_eq!(page.cards.len(), cards);
            for r in &page.cards {
                prop_assert!(r.x >= UNPRINTABLE && r.y >= UNPRINTABLE);
                prop_assert!(r.x + r.width <= w - UNPRINTABLE);
                prop_assert!(r.y + r.height <= h - UNPRINTABLE);
                prop_assert_eq!((r.width, r.height), (face::WIDTH, face::HEIGHT));
            }
            for m in &page.marks {
                for r in &page.cards {
                    prop_assert!(!overlaps(m, r), "{:?} crosses {:?}", m, r);
                }
                for (a, b) in [(m.x1, w), (m.x2, w), (m.y1, h), (m.y2, h)] {
                    prop_assert!(a >= MARK_EDGE - 1e-3 && a <= b - MARK_EDGE + 1e-3);
                }
                // Axis-aligned, continuing a cut line.
                prop_assert!(m.x1 == m.x2 || m.y1 == m.y2);
            }
            // Every cut line of the cards has a mark on it.
            for r in &page.cards {
                for x in [r.x, r.x + r.width] {
                    prop_assert!(page.marks.iter().any(|m| m.x1 == m.x2 && (m.x1 - x).abs() < 1e-3));
                }
                for y in [r.y, r.y + r.height] {
                    prop_assert!(page.marks.iter().any(|m| m.y1 == m.y2 && (m.y1 - y).abs() < 1e-3));
                }
            }
        }
    }
}
