//! The gallery: a static site of a pool's cards that works from `file://`
//! with no server (`blades gallery`, `blades build --gallery DIR`).
//!
//! - `index.html`: the sets, then every card with its faces side by side,
//!   filtered by set, kind, element, type, rarity and STAR (`gallery.js`
//!   over the cards' `data-*` attributes; the filter is the URL's hash, so
//!   `index.html#set=core&element=fire` opens filtered);
//! - `cards/ID.html`: a card's data, its text in each language, its effect
//!   tree, its faces, and links to the index and the cards before and after;
//! - `faces/ID.LANG.svg` and `faces/fonts/`, drawn by [`super::render`];
//! - `gallery.css`, `gallery.js`; nothing is loaded from elsewhere.
//!
//! Faces are shown through `<object>`: an SVG in `<img>` loads no fonts.
//! A manifest (`.blades-gallery.json`) keeps each face's fingerprint (the
//! card's data, its set's, its number in the set, the language and the tool
//! build) and what drawing it found; a face whose fingerprint is
//! unchanged and whose file is there is not drawn again. The folder is an
//! [`OutputFolder`], held from before the manifest is read until the
//! gallery is written: one journaled commit writes the files whose bytes
//! changed, the manifest among them, and deletes those no longer in the
//! gallery, so a killed run is finished by the next one and the manifest
//! never claims a face the folder does not hold.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::xxh3_128;

use crate::diagnostics::{Diagnostic, Sources};
use crate::files::{OutputFolder, WriteError};
use crate::model::{Card, Database, Set};
use crate::report::{JsonReport, json_report};
use crate::search::card_keywords;

use super::art::ArtImages;
use super::fonts::{FONT_FILES, FONT_LICENSE};
use super::layout::Field;
use super::render::{self, Rendered, Written};
use super::sheets::{self, Paper, PrintOptions};
use super::svg::{Face, FaceFinding, FaceOptions, FaceText, Problem, escape};

/// The manifest's file name in the output folder.
pub const MANIFEST: &str = ".blades-gallery.json";

/// The manifest's format; another format is read as no manifest.
const MANIFEST_FORMAT: u32 = 1;

/// The stylesheet and the filter script, written as they are.
const CSS: &str = include_str!("gallery.css");
const JS: &str = include_str!("gallery.js");

/// A face's entry in the manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
struct Entry {
    fingerprint: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    effect_size: Option<f32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    findings: Vec<StoredFinding>,
}

/// A finding of a face as the manifest keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
struct StoredFinding {
    field: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    overflow: Option<(f32, String)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    missing: Vec<char>,
}

impl StoredFinding {
    fn of(finding: &FaceFinding) -> StoredFinding {
        let (overflow, missing) = match &finding.problem {
            Problem::Overflow { size, text } => (Some((*size, text.clone())), Vec::new()),
            Problem::MissingGlyph { characters } => (None, characters.clone()),
        };
        StoredFinding {
            field: finding.field.key().to_string(),
            overflow,
            missing,
        }
    }

    fn finding(&self) -> Option<FaceFinding> {
        let field = [Field::Name, Field::Effect, Field::Flavor, Field::SetName]
            .into_iter()
            .find(|f| f.key() == self.field)?;
        let problem = match &self.overflow {
            Some((size, text)) => Problem::Overflow {
                size: *size,
                text: text.clone(),
            },
            None => Problem::MissingGlyph {
                characters: self.missing.clone(),
            },
        };
        Some(FaceFinding { field, problem })
    }
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
struct Manifest {
    format: u32,
    /// By face file name (`ID.LANG.svg`).
    faces: BTreeMap<String, Entry>,
    /// The card pages written (`cards/ID.html`).
    #[serde(default)]
    pages: BTreeSet<String>,
    /// The print sheets written (`print/SET.a4.LANG.html`), each with the
    /// fingerprint of its faces in order.
    #[serde(default)]
    sheets: BTreeMap<String, String>,
}

impl Manifest {
    fn read(dir: &Path) -> Manifest {
        std::fs::read(dir.join(MANIFEST))
            .ok()
            .and_then(|bytes| serde_json::from_slice::<Manifest>(&bytes).ok())
            .filter(|m| m.format == MANIFEST_FORMAT)
            .unwrap_or_default()
    }
}

/// A gallery made in memory: its files, and which faces were drawn.
#[derive(Debug)]
pub struct Gallery {
    /// Every face of the gallery, card then language order; a face not
    /// drawn again has an empty `svg` and the findings the manifest kept.
    pub faces: Vec<Rendered>,
    /// Which of `faces` were drawn this time.
    pub drawn: Vec<bool>,
    /// The cards shown.
    pub cards: usize,
    /// The languages of the faces.
    pub langs: Vec<String>,
    /// Files by path relative to the output folder (faces not drawn again
    /// are not among them).
    files: Vec<(String, Vec<u8>)>,
    /// Faces and pages an earlier run wrote (by its manifest) that this
    /// gallery no longer has: a card removed, a language no longer asked.
    stale: Vec<String>,
}

impl Gallery {
    pub fn drawn_count(&self) -> usize {
        self.drawn.iter().filter(|d| **d).count()
    }

    pub fn reused_count(&self) -> usize {
        self.drawn.len() - self.drawn_count()
    }
}

/// Everything a face depends on, hashed: the card's data, its set's, its
/// number in the set, the language, the fonts' place and the tool build
/// (its version and a hash of its sources, as the build cache uses).
/// The effect tree is left out: it is derived from the effect, and a
/// database read back from a build's pieces has none.
fn fingerprint(card: &Card, set: &Set, number: (usize, usize), lang: &str) -> String {
    let mut bytes = if card.effect_tree.is_some() {
        let mut bare = card.clone();
        bare.effect_tree = None;
        serde_json::to_vec(&bare)
    } else {
        serde_json::to_vec(card)
    }
    .unwrap_or_default();
    bytes.push(0);
    bytes.extend(serde_json::to_vec(set).unwrap_or_default());
    let _ = write!(
        Tail(&mut bytes),
        "\0{}/{}\0{lang}\0{}\0{}",
        number.0,
        number.1,
        FaceOptions::default().font_url,
        crate::cache::BUILD_ID
    );
    format!("{:032x}", xxh3_128(&bytes))
}

/// `write!` into a byte vector.
struct Tail<'a>(&'a mut Vec<u8>);

impl std::fmt::Write for Tail<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// Opens (and locks) the output folder `dir`, makes the gallery of
/// `database` in `langs` against what the folder holds, and writes it.
pub fn make_and_write(
    database: &Database,
    langs: &[String],
    art: &ArtImages,
    dir: &Path,
) -> Result<(Gallery, GalleryWritten), WriteError> {
    let mut folder = OutputFolder::open(dir)?;
    let made = make(database, langs, art, &folder);
    let written = write(&mut folder, &made)?;
    Ok((made, written))
}

/// Makes the gallery of `database` with faces in `langs`, drawing only the
/// faces whose fingerprint differs from the manifest in `folder` or whose
/// file is missing there.
pub fn make(
    database: &Database,
    langs: &[String],
    art: &ArtImages,
    folder: &OutputFolder,
) -> Gallery {
    let dir = folder.path();
    let manifest = Manifest::read(dir);
    let sets: HashMap<&str, &Set> = database.sets.iter().map(|s| (s.id.0.as_str(), s)).collect();
    let numbers = render::numbers(database);
    let cards: Vec<&Card> = database
        .cards
        .iter()
        .filter(|c| sets.contains_key(c.set.0.as_str()))
        .collect();
    // Which faces to draw, per language.
    let mut prints: Vec<(usize, String, String)> = Vec::new(); // card index, lang, fingerprint
    let mut to_draw: Vec<Vec<&Card>> = vec![Vec::new(); langs.len()];
    for (i, card) in cards.iter().enumerate() {
        let set = sets[card.set.0.as_str()];
        let number = numbers.get(card.id.0.as_str()).copied().unwrap_or((1, 1));
        for (l, lang) in langs.iter().enumerate() {
            let print = fingerprint(card, set, number, lang);
            let file = render::file_name(&card.id.0, lang);
            let kept = manifest
                .faces
                .get(&file)
                .is_some_and(|e| e.fingerprint == print)
                && dir.join("faces").join(&file).is_file();
            if !kept {
                to_draw[l].push(card);
            }
            prints.push((i, lang.clone(), print));
        }
    }
    let options = FaceOptions::with_art(art.clone());
    let mut drawn: HashMap<String, Rendered> = HashMap::new();
    for (l, lang) in langs.iter().enumerate() {
        if to_draw[l].is_empty() {
            continue;
        }
        for face in
            render::render_faces(database, &to_draw[l], std::slice::from_ref(lang), &options)
        {
            drawn.insert(face.file.clone(), face);
        }
    }
    let mut faces = Vec::with_capacity(prints.len());
    let mut was_drawn = Vec::with_capacity(prints.len());
    let mut entries = BTreeMap::new();
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for (i, lang, print) in prints {
        let card = cards[i];
        let file = render::file_name(&card.id.0, &lang);
        let face = match drawn.remove(&file) {
            Some(face) => {
                files.push((format!("faces/{file}"), face.face.svg.clone().into_bytes()));
                was_drawn.push(true);
                face
            }
            None => {
                let entry = &manifest.faces[&file];
                was_drawn.push(false);
                Rendered {
                    card: card.id.0.clone(),
                    set: card.set.0.clone(),
                    lang: lang.clone(),
                    file: file.clone(),
                    face: Face {
                        svg: String::new(),
                        effect_size: entry.effect_size,
                        findings: entry
                            .findings
                            .iter()
                            .filter_map(StoredFinding::finding)
                            .collect(),
                    },
                }
            }
        };
        entries.insert(
            file,
            Entry {
                fingerprint: print,
                effect_size: face.face.effect_size,
                findings: face.face.findings.iter().map(StoredFinding::of).collect(),
            },
        );
        faces.push(face);
    }
    let sheets = print_sheets(database, langs, art, dir, &manifest, &entries, &mut files);
    for font in &FONT_FILES {
        files.push((format!("faces/fonts/{}", font.file), font.bytes.to_vec()));
    }
    files.push((
        format!("faces/fonts/{}", FONT_LICENSE.0),
        FONT_LICENSE.1.as_bytes().to_vec(),
    ));
    files.push(("gallery.css".to_string(), CSS.as_bytes().to_vec()));
    files.push(("gallery.js".to_string(), JS.as_bytes().to_vec()));
    files.push((
        "index.html".to_string(),
        index_page(database, &cards, langs).into_bytes(),
    ));
    let mut warnings: HashMap<&str, Vec<String>> = HashMap::new();
    for face in &faces {
        for finding in &face.face.findings {
            warnings
                .entry(face.card.as_str())
                .or_default()
                .push(warning(&face.lang, finding));
        }
    }
    let mut pages = BTreeSet::new();
    for (i, card) in cards.iter().enumerate() {
        let set = sets[card.set.0.as_str()];
        let before = i.checked_sub(1).map(|j| cards[j]);
        let after = cards.get(i + 1).copied();
        let page = format!("cards/{}.html", card.id.0);
        pages.insert(page.clone());
        files.push((
            page,
            card_page(
                card,
                set,
                langs,
                (before, after),
                warnings.get(card.id.0.as_str()),
            )
            .into_bytes(),
        ));
    }
    let stale = manifest
        .faces
        .keys()
        .filter(|file| !entries.contains_key(*file))
        .map(|file| format!("faces/{file}"))
        .chain(manifest.pages.difference(&pages).cloned())
        .chain(
            manifest
                .sheets
                .keys()
                .filter(|sheet| !sheets.contains_key(*sheet))
                .cloned(),
        )
        .collect();
    let manifest = Manifest {
        format: MANIFEST_FORMAT,
        faces: entries,
        pages,
        sheets,
    };
    let mut json = serde_json::to_vec_pretty(&manifest).unwrap_or_default();
    json.push(b'\n');
    files.push((MANIFEST.to_string(), json));
    Gallery {
        faces,
        drawn: was_drawn,
        cards: cards.len(),
        langs: langs.to_vec(),
        files,
        stale,
    }
}

/// The paper of the gallery's print sheets (`blades print` makes others).
const SHEET_PAPER: Paper = Paper::A4;

/// The gallery's print-and-play sheets (`print/SET.a4.LANG.html`, one per
/// set and language, linked from the index), added to `files`; a set's
/// sheet is laid out again only when the fingerprints of its faces (in
/// order) changed or its file is missing. The sheets by path, each with
/// that fingerprint.
fn print_sheets(
    database: &Database,
    langs: &[String],
    art: &ArtImages,
    dir: &Path,
    manifest: &Manifest,
    faces: &BTreeMap<String, Entry>,
    files: &mut Vec<(String, Vec<u8>)>,
) -> BTreeMap<String, String> {
    let mut sheets = BTreeMap::new();
    for (l, lang) in langs.iter().enumerate() {
        let mut stale: Vec<&Set> = Vec::new();
        for set in &database.sets {
            let path = format!("print/{}", sheets::sheet_file(&set.id.0, SHEET_PAPER, lang));
            let mut prints = String::new();
            for card in database.cards.iter().filter(|c| c.set == set.id) {
                let face = faces.get(&render::file_name(&card.id.0, lang));
                prints.push_str(face.map_or("", |e| e.fingerprint.as_str()));
            }
            let print = format!("{:032x}", xxh3_128(prints.as_bytes()));
            if manifest.sheets.get(&path) != Some(&print) || !dir.join(&path).is_file() {
                stale.push(set);
            }
            sheets.insert(path, print);
        }
        let options = PrintOptions {
            paper: SHEET_PAPER,
            lang: lang.clone(),
            copies: false,
            art: art.clone(),
        };
        let laid_out = sheets::sheets(database, &stale, &options);
        // The fonts' stylesheet and licence come with every language's files.
        for file in sheets::sheet_files(&laid_out)
            .into_iter()
            .filter(|f| l == 0 || f.path.ends_with(".html"))
        {
            files.push((format!("print/{}", file.path), file.bytes));
        }
    }
    sheets
}

/// What writing a gallery did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GalleryWritten {
    pub files: Written,
    /// Faces and pages of an earlier run that the gallery no longer has,
    /// deleted once the rest was written.
    pub removed: Vec<PathBuf>,
}

/// Writes the gallery into `folder` (the one it was made from), all or
/// none; files whose bytes are already right are left alone, and the faces
/// and pages an earlier run wrote that the gallery no longer has are
/// deleted in the same commit (only files the manifest names: nothing else
/// in the folder is touched).
pub fn write(folder: &mut OutputFolder, gallery: &Gallery) -> Result<GalleryWritten, WriteError> {
    let dir = folder.path().to_path_buf();
    let removed: Vec<PathBuf> = gallery
        .stale
        .iter()
        .map(|file| dir.join(file))
        .filter(|path| path.is_file())
        .collect();
    let paths = gallery
        .files
        .iter()
        .map(|(path, bytes)| (dir.join(path), bytes.as_slice()));
    let files = folder.write_changed(paths, removed.clone())?;
    Ok(GalleryWritten { files, removed })
}

// ----- pages -----------------------------------------------------------------

/// A face's finding, said on its card's page.
fn warning(lang: &str, finding: &FaceFinding) -> String {
    let what = finding.field.what();
    match &finding.problem {
        Problem::Overflow { size, .. } => format!(
            "the {what} does not fit its box on the {lang} face, even at {size} pt (text-overflow)"
        ),
        Problem::MissingGlyph { characters } => format!(
            "the {what} on the {lang} face has {}, which the card fonts cannot draw (missing-glyph)",
            characters
                .iter()
                .map(|c| format!("`{c}` (U+{:04X})", u32::from(*c)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

const LANG_NAMES: [(&str, &str); 2] = [("en", "English"), ("ja", "日本語")];

fn lang_name(lang: &str) -> &str {
    LANG_NAMES
        .iter()
        .find(|(code, _)| *code == lang)
        .map_or(lang, |(_, name)| name)
}

/// A page's head: the shipped fonts (the print sheets' `fonts.css`, data
/// URLs a page opened from `file://` may use) before the stylesheet, so the
/// page's own text never depends on a system font.
fn head(out: &mut String, title: &str, root: &str) {
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<link rel=\"stylesheet\" href=\"{root}print/{fonts}\">\n\
         <link rel=\"stylesheet\" href=\"{root}gallery.css\">\n</head>\n<body>\n",
        escape(title),
        fonts = sheets::FONTS_CSS,
    );
}

/// The faces of a card, one `<object>` per language (an SVG in `<img>`
/// loads no fonts).
fn faces_html(out: &mut String, card: &Card, langs: &[String], root: &str) {
    out.push_str("<div class=\"faces\">");
    for lang in langs {
        let _ = write!(
            out,
            "<object class=\"face\" type=\"image/svg+xml\" data=\"{root}faces/{file}\" data-lang=\"{lang}\" title=\"{name} ({lang_name})\"></object>",
            file = escape(&render::file_name(&card.id.0, lang)),
            lang = escape(lang),
            name = escape(&card.name),
            lang_name = escape(lang_name(lang)),
        );
    }
    out.push_str("</div>");
}

fn join<T: AsRef<str>>(items: impl IntoIterator<Item = T>, sep: &str) -> String {
    items
        .into_iter()
        .map(|s| s.as_ref().to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

fn translated_name<'a>(card: &'a Card, lang: &str) -> Option<&'a str> {
    card.translations.get(lang).and_then(|t| t.name.as_deref())
}

/// `index.html`.
fn index_page(database: &Database, cards: &[&Card], langs: &[String]) -> String {
    let mut out = String::with_capacity(1024 + cards.len() * 600);
    head(&mut out, "Card gallery", "");
    let total = cards.len();
    let _ = write!(
        out,
        "<header><h1>Card gallery</h1>\n<p class=\"count\"><span id=\"shown\">{total}</span> of {total} cards shown</p></header>\n"
    );
    // The sets.
    out.push_str(
        "<section id=\"sets\"><h2>Sets</h2>\n<table>\n<tr><th>set</th><th>日本語</th><th>kind</th><th>cards</th><th>print (A4)</th></tr>\n",
    );
    for set in &database.sets {
        let count = cards.iter().filter(|c| c.set == set.id).count();
        let print: Vec<String> = langs
            .iter()
            .map(|lang| {
                let file = sheets::sheet_file(&set.id.0, SHEET_PAPER, lang);
                format!(
                    "<a class=\"sheet\" href=\"print/{}\">{}</a>",
                    escape(&file),
                    lang_name(lang)
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "<tr data-set=\"{id}\"><td><a href=\"#set={id}\">{name}</a></td><td lang=\"ja\">{ja}</td><td>{kind}</td><td>{count}</td><td>{print}</td></tr>",
            id = escape(&set.id.0),
            name = escape(&set.name),
            ja = escape(set.translations.get("ja").map_or("", |t| t.name.as_str())),
            kind = set.kind.as_str(),
            print = print.join(" · "),
        );
    }
    out.push_str("</table></section>\n");
    // The filters, each with the values the cards have.
    let mut values: BTreeMap<&str, Vec<(String, String)>> = BTreeMap::new();
    let mut add = |key: &'static str, value: String, label: String| {
        let list = values.entry(key).or_default();
        if !list.iter().any(|(v, _)| *v == value) {
            list.push((value, label));
        }
    };
    for set in &database.sets {
        add("set", set.id.0.clone(), set.name.clone());
    }
    for card in cards {
        add("kind", card.kind.as_str().into(), card.kind.as_str().into());
        for e in &card.elements {
            add("element", e.as_str().into(), e.as_str().into());
        }
        for t in &card.types {
            add("type", t.0.clone(), t.0.clone());
        }
        add(
            "rarity",
            card.rarity.as_str().into(),
            card.rarity.as_str().into(),
        );
        if let Some(stars) = card.stars {
            add("star", stars.to_string(), stars.to_string());
        }
    }
    for (key, list) in values.iter_mut() {
        match *key {
            "set" | "rarity" => {}
            "star" => list.sort_by_key(|(v, _)| v.parse::<u32>().unwrap_or(0)),
            _ => list.sort(),
        }
    }
    out.push_str("<form id=\"filters\">\n");
    for key in ["set", "kind", "element", "type", "rarity", "star"] {
        let label = if key == "star" { "STAR" } else { key };
        let _ = write!(
            out,
            "<label>{label} <select name=\"{key}\"><option value=\"\">any</option>"
        );
        for (value, text) in values.get(key).map(Vec::as_slice).unwrap_or_default() {
            let _ = write!(
                out,
                "<option value=\"{}\">{}</option>",
                escape(value),
                escape(text)
            );
        }
        out.push_str("</select></label>\n");
    }
    out.push_str("<a href=\"#\" id=\"clear\">show all</a>\n</form>\n<main id=\"cards\">\n");
    for card in cards {
        let _ = write!(
            out,
            "<article class=\"card\" id=\"card-{id}\" data-id=\"{id}\" data-set=\"{set}\" data-kind=\"{kind}\" data-elements=\"{elements}\" data-types=\"{types}\" data-rarity=\"{rarity}\" data-star=\"{star}\">\n<h3><a href=\"cards/{id}.html\">{name}</a>",
            id = escape(&card.id.0),
            set = escape(&card.set.0),
            kind = card.kind.as_str(),
            elements = join(card.elements.iter().map(|e| e.as_str()), " "),
            types = escape(&join(card.types.iter().map(|t| t.0.as_str()), " ")),
            rarity = card.rarity.as_str(),
            star = card.stars.map(|s| s.to_string()).unwrap_or_default(),
            name = escape(&card.name),
        );
        if let Some(ja) = translated_name(card, "ja") {
            let _ = write!(out, " <span lang=\"ja\">{}</span>", escape(ja));
        }
        out.push_str("</h3>\n");
        faces_html(&mut out, card, langs, "");
        out.push_str("\n</article>\n");
    }
    out.push_str("</main>\n<script src=\"gallery.js\"></script>\n</body>\n</html>\n");
    out
}

/// `cards/ID.html`.
fn card_page(
    card: &Card,
    set: &Set,
    langs: &[String],
    (before, after): (Option<&Card>, Option<&Card>),
    warnings: Option<&Vec<String>>,
) -> String {
    let mut out = String::with_capacity(8 * 1024);
    head(&mut out, &card.name, "../");
    let link = |c: Option<&Card>, rel: &str, text: &str| match c {
        Some(c) => format!(
            "<a rel=\"{rel}\" href=\"{}.html\">{text} {}</a>",
            escape(&c.id.0),
            escape(&c.name)
        ),
        None => String::new(),
    };
    let _ = writeln!(
        out,
        "<nav><a href=\"../index.html\">all cards</a> · <a href=\"../index.html#set={set}\">{set_name}</a> {prev} {next}</nav>",
        set = escape(&set.id.0),
        set_name = escape(&set.name),
        prev = link(before, "prev", "←"),
        next = link(after, "next", "→"),
    );
    let _ = write!(out, "<h1>{}", escape(&card.name));
    if let Some(ja) = translated_name(card, "ja") {
        let _ = write!(out, " <span lang=\"ja\">{}</span>", escape(ja));
    }
    out.push_str("</h1>\n");
    faces_html(&mut out, card, langs, "../");
    if let Some(warnings) = warnings {
        out.push_str("\n<ul class=\"warnings\">");
        for warning in warnings {
            let _ = write!(out, "<li>{}</li>", escape(warning));
        }
        out.push_str("</ul>");
    }
    // The data.
    let keywords = card_keywords(card);
    let rows: Vec<(&str, String)> = vec![
        ("id", escape(&card.id.0)),
        (
            "set",
            format!(
                "<a href=\"../index.html#set={}\">{}</a>",
                escape(&set.id.0),
                escape(&set.name)
            ),
        ),
        ("kind", card.kind.as_str().to_string()),
        ("STAR", card.stars_shown()),
        (
            "elements",
            join(card.elements.iter().map(|e| e.as_str()), ", "),
        ),
        (
            "types",
            escape(&join(card.types.iter().map(|t| t.0.as_str()), ", ")),
        ),
        (
            "category",
            card.category
                .as_ref()
                .map_or(String::new(), |c| escape(&c.0)),
        ),
        ("rarity", card.rarity.as_str().to_string()),
        ("copies", card.copies.to_string()),
        ("keywords", escape(&keywords.join(", "))),
    ];
    out.push_str("<section class=\"data\"><h2>Data</h2>\n<table>\n");
    for (key, value) in rows {
        let _ = writeln!(
            out,
            "<tr data-key=\"{}\"><th>{key}</th><td>{value}</td></tr>",
            key.to_lowercase()
        );
    }
    out.push_str("</table></section>\n");
    // The text in each language.
    out.push_str("<section class=\"text\"><h2>Text</h2>\n");
    for lang in langs {
        let text = FaceText::of(card, set, lang);
        let _ = write!(
            out,
            "<div class=\"lang\" lang=\"{lang}\" data-lang=\"{lang}\"><h3>{}</h3>\n<p class=\"name\">{}</p>\n",
            escape(lang_name(lang)),
            escape(&text.name),
            lang = escape(lang),
        );
        if let Some(effect) = &text.effect {
            out.push_str("<p class=\"effect\">");
            out.push_str(&escape(effect).replace('\n', "<br>\n"));
            out.push_str("</p>\n");
        }
        if let Some(flavor) = &text.flavor {
            let _ = writeln!(out, "<p class=\"flavor\">{}</p>", escape(flavor));
        }
        if let Some(stale) = card.translations.get(lang).filter(|t| !t.stale.is_empty()) {
            let _ = writeln!(
                out,
                "<p class=\"stale\">English changed since translated: {}</p>",
                escape(&stale.stale.join(", "))
            );
        }
        out.push_str("</div>\n");
    }
    out.push_str("</section>\n");
    // The effect: as written, and its tree.
    if let Some(effect) = &card.effect {
        let _ = writeln!(
            out,
            "<section class=\"effect\"><h2>Effect</h2>\n<pre class=\"source\">{}</pre>",
            escape(effect.trim_end())
        );
        // A database read back from a build's pieces has no trees.
        let parsed = match &card.effect_tree {
            Some(_) => None,
            None => crate::effect::parse(effect).ok(),
        };
        if let Some(tree) = card.effect_tree.as_deref().or(parsed.as_ref()) {
            outline_html(&mut out, &crate::effect::outline(tree));
        }
        out.push_str("</section>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// The effect's meaning as an outline: per line its timing, then per
/// sentence what applies when, and each thing done on its own line.
fn outline_html(out: &mut String, lines: &[crate::effect::OutlineLine]) {
    out.push_str("<ol class=\"outline\">");
    for line in lines {
        let _ = write!(
            out,
            "<li><span class=\"timing\">{}</span>",
            escape(&line.heading)
        );
        for sentence in &line.sentences {
            out.push_str("<dl class=\"sentence\">");
            for (part, words) in sentence {
                let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", escape(part), escape(words));
            }
            out.push_str("</dl>");
        }
        out.push_str("</li>");
    }
    out.push_str("</ol>\n");
}

// ----- the report ------------------------------------------------------------

/// `blades gallery --format json`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct GalleryReport {
    /// The output folder.
    pub out: String,
    /// The cards shown.
    pub cards: usize,
    /// The languages of the faces.
    pub langs: Vec<String>,
    /// Faces in the gallery (cards × languages).
    pub faces: usize,
    /// The faces drawn this time (new, or changed since the manifest).
    pub drawn: Vec<GalleryFace>,
    /// Faces left as they were: unchanged since they were drawn.
    pub reused: usize,
    /// Files written (new or changed).
    pub written: usize,
    /// Files whose bytes were already right.
    pub unchanged: usize,
    /// Faces and pages of an earlier run deleted: their card is gone, or
    /// their language no longer asked for.
    pub removed: usize,
    /// What the faces found (`text-overflow`, `missing-glyph`), located.
    pub report: JsonReport,
}

/// One face drawn, in [`GalleryReport`].
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct GalleryFace {
    pub card: String,
    pub lang: String,
    /// The SVG's path in the output folder (`faces/ID.LANG.svg`).
    pub file: String,
}

impl GalleryReport {
    pub fn new(
        out: &Path,
        gallery: &Gallery,
        written: &GalleryWritten,
        diagnostics: &[Diagnostic],
        sources: &Sources,
    ) -> GalleryReport {
        GalleryReport {
            out: out.display().to_string(),
            cards: gallery.cards,
            langs: gallery.langs.clone(),
            faces: gallery.faces.len(),
            drawn: gallery
                .faces
                .iter()
                .zip(&gallery.drawn)
                .filter(|(_, d)| **d)
                .map(|(f, _)| GalleryFace {
                    card: f.card.clone(),
                    lang: f.lang.clone(),
                    file: format!("faces/{}", f.file),
                })
                .collect(),
            reused: gallery.reused_count(),
            written: written.files.written.len(),
            unchanged: written.files.unchanged,
            removed: written.removed.len(),
            report: json_report(diagnostics, sources),
        }
    }
}
