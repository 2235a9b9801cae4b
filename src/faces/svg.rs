//! One card face as SVG: poker size (63 × 88 mm), drawn from the database's
//! card and set, its text set by [`layout::fit`] (the one fit model).
//!
//! The SVG's user unit is the millimetre. Each text box is a
//! `<g class="text-box">` that states its field, box (`data-x`, `data-y`,
//! `data-width`, `data-height`), type size and whether it overflows, with
//! one `<text>` per line placed where the layout put it, so a browser only
//! draws single lines and its own metrics can be compared with ours.

use std::fmt::Write;

use crate::i18n::glossary::Glossary;
use crate::model::{Card, Set};
use crate::words::SetKind;

use super::art::ArtImages;
use super::fonts::{FONT_FILES, Script, Style};
use super::icons::{self, num};
use super::layout::{Field, Fitted, MM_PER_PT};

/// Poker size, millimetres.
pub const WIDTH: f32 = 63.0;
pub const HEIGHT: f32 = 88.0;

/// Where each text box's top-left corner is on the face (its size is the
/// fit model's [`Field::text_box`]).
pub fn box_origin(field: Field) -> (f32, f32) {
    match field {
        Field::Name => (5.2, 4.4),
        Field::Effect => (5.5, 50.6),
        Field::Flavor => (5.5, 73.2),
        Field::SetName => (5.5, 80.6),
    }
}

/// How faces refer to their fonts, and the art they embed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaceOptions {
    /// Prefix of the font files' URLs (`fonts/` beside the SVG by default).
    pub font_url: String,
    /// The cards' art images (none by default: the art box shows the
    /// rarity's colours).
    pub art: ArtImages,
}

impl Default for FaceOptions {
    fn default() -> Self {
        FaceOptions {
            font_url: "fonts/".to_string(),
            art: ArtImages::default(),
        }
    }
}

impl FaceOptions {
    /// The default options with these art images.
    pub fn with_art(art: ArtImages) -> FaceOptions {
        FaceOptions {
            art,
            ..FaceOptions::default()
        }
    }
}

/// What drawing a face found wrong with a text.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// The text does not fit even at the floor size: `text` falls outside.
    Overflow { size: f32, text: String },
    /// No shipped font draws these characters (each once, in text order).
    MissingGlyph { characters: Vec<char> },
}

/// One finding of a face, about one field.
#[derive(Debug, Clone, PartialEq)]
pub struct FaceFinding {
    pub field: Field,
    pub problem: Problem,
}

/// A face drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct Face {
    pub svg: String,
    /// The effect text's type size, in points (`None` without an effect).
    pub effect_size: Option<f32>,
    pub findings: Vec<FaceFinding>,
}

/// The printed texts of a card in one language (English where a
/// translation is missing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaceText {
    pub name: String,
    pub effect: Option<String>,
    pub flavor: Option<String>,
    pub set_name: String,
    pub kind: String,
    pub rarity: String,
}

impl FaceText {
    pub fn of(card: &Card, set: &Set, lang: &str) -> FaceText {
        let name = card.name_in(lang).text.to_string();
        let effect = card.printed_effect(lang).map(|e| e.into_owned());
        let flavor = card.flavor_in(lang).map(|f| f.text.to_string());
        let set_name = set
            .translations
            .get(lang)
            .map_or_else(|| set.name.clone(), |t| t.name.clone());
        // The glossary is the Japanese edition's: its words are Japanese
        // only; any other language prints the English word until the pool
        // gives its own.
        let word = |english: &str| -> String {
            match lang == Glossary::LANG {
                true => Glossary::builtin()
                    .official_for(english)
                    .unwrap_or(english)
                    .to_string(),
                false => english.to_string(),
            }
        };
        let kind = word(card.kind.title());
        let rarity = word(rarity_name(card.rarity));
        FaceText {
            name,
            effect,
            flavor,
            set_name,
            kind,
            rarity,
        }
    }
}

fn rarity_name(kind: SetKind) -> &'static str {
    match kind {
        SetKind::Starter => "Starter",
        SetKind::Core => "Core",
        SetKind::Expansion => "Expansion",
        SetKind::Premium => "Premium",
        SetKind::Master => "Master",
        SetKind::BronzePromo => "Bronze Promo",
        SetKind::SilverPromo => "Silver Promo",
        SetKind::GoldPromo => "Gold Promo",
        SetKind::ProPlayer => "Pro Player",
        SetKind::Venue => "Venue",
        SetKind::Character => "Character",
    }
}

/// A rarity's colours: the frame, its trim, and the name bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette {
    pub frame: &'static str,
    pub trim: &'static str,
    pub bar: &'static str,
}

/// Grey starter, white core, green expansion, blue premium, purple master,
/// orange promos, a black-and-gold Pro Player, a slate Venue and a
/// crimson Character.
pub fn palette(rarity: SetKind) -> Palette {
    match rarity {
        SetKind::Starter => Palette {
            frame: "#9a9a9a",
            trim: "#6e6e6e",
            bar: "#e4e4e4",
        },
        SetKind::Core => Palette {
            frame: "#f7f7f7",
            trim: "#b8b8b8",
            bar: "#ffffff",
        },
        SetKind::Expansion => Palette {
            frame: "#2e9d4f",
            trim: "#1d6b35",
            bar: "#d8f0de",
        },
        SetKind::Premium => Palette {
            frame: "#2f6fd6",
            trim: "#1d4a94",
            bar: "#dbe7fa",
        },
        SetKind::Master => Palette {
            frame: "#8a3fc7",
            trim: "#5d2588",
            bar: "#eadcf6",
        },
        SetKind::BronzePromo | SetKind::SilverPromo | SetKind::GoldPromo => Palette {
            frame: "#f08a24",
            trim: "#b35f10",
            bar: "#fde6cf",
        },
        SetKind::ProPlayer => Palette {
            frame: "#1f1f1f",
            trim: "#d4af37",
            bar: "#f6e9bd",
        },
        SetKind::Venue => Palette {
            frame: "#3f5f6f",
            trim: "#243a45",
            bar: "#d9e6ec",
        },
        SetKind::Character => Palette {
            frame: "#b3263a",
            trim: "#761826",
            bar: "#f8dce0",
        },
    }
}

/// Fits one field's text (the same call `i18n check` makes).
pub fn fit_field(field: Field, text: &str, lang: &str) -> Fitted {
    field.fit(text, lang)
}

/// What a fitted text found: the characters no font draws, and the text
/// outside the box when even the floor size does not fit.
pub fn findings_of(field: Field, text: &str, fitted: &Fitted) -> Vec<FaceFinding> {
    let text = text.trim_end();
    let mut out = Vec::new();
    if !fitted.missing.is_empty() {
        let mut characters: Vec<char> = Vec::new();
        for &(_, c) in &fitted.missing {
            if !characters.contains(&c) {
                characters.push(c);
            }
        }
        out.push(FaceFinding {
            field,
            problem: Problem::MissingGlyph { characters },
        });
    }
    if let Some(range) = &fitted.overflow {
        out.push(FaceFinding {
            field,
            problem: Problem::Overflow {
                size: fitted.size,
                text: text[range.clone()].to_string(),
            },
        });
    }
    out
}

/// The texts a face sets in boxes, by field.
pub fn fields(text: &FaceText) -> Vec<(Field, &str)> {
    let mut out = vec![(Field::Name, text.name.as_str())];
    out.extend(text.effect.as_deref().map(|e| (Field::Effect, e)));
    out.extend(text.flavor.as_deref().map(|f| (Field::Flavor, f)));
    out.push((Field::SetName, text.set_name.as_str()));
    out
}

/// Draws a card's face in one language. `number` is its place in its set
/// (1-based) and `of` the set's distinct cards.
pub fn draw(
    card: &Card,
    set: &Set,
    number: usize,
    of: usize,
    lang: &str,
    options: &FaceOptions,
) -> Face {
    let text = FaceText::of(card, set, lang);
    let script = Script::of_lang(lang);
    let colors = palette(card.rarity);
    let mut findings = Vec::new();
    let mut svg = String::with_capacity(8 * 1024);
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}mm" height="{HEIGHT}mm" viewBox="0 0 {WIDTH} {HEIGHT}" lang="{lang}" data-card="{id}" data-lang="{lang}" data-rarity="{rarity}">"#,
        id = escape(&card.id.0),
        rarity = card.rarity.as_str(),
    );
    let _ = write!(svg, "\n<title>{}</title>\n<style>", escape(&text.name));
    for font in &FONT_FILES {
        let _ = write!(
            svg,
            "@font-face{{font-family:'{}';src:url('{}{}');font-weight:{};font-style:{}}}",
            font.family,
            options.font_url,
            font.file,
            font.weight,
            if font.italic { "italic" } else { "normal" }
        );
    }
    let _ = write!(
        svg,
        "\ntext{{font-family:{};white-space:pre;fill:#1b1b1b}}.b{{font-weight:700}}.i{{font-style:italic}}.r{{fill:#555555}}</style>\n",
        script.css_families()
    );
    // Frame, panel and name bar.
    let _ = writeln!(
        svg,
        r#"<rect class="frame" x="0" y="0" width="{WIDTH}" height="{HEIGHT}" rx="3.2" fill="{}" stroke="{}" stroke-width="0.6"/>"#,
        colors.frame, colors.trim
    );
    let _ = writeln!(
        svg,
        r##"<rect class="panel" x="2.6" y="2.6" width="57.8" height="82.8" rx="2" fill="#fbf8f1" stroke="{}" stroke-width="0.4"/>"##,
        colors.trim
    );
    let _ = writeln!(
        svg,
        r#"<rect class="name-bar" x="3.6" y="3.6" width="44.6" height="7.6" rx="1.2" fill="{}" stroke="{}" stroke-width="0.3"/>"#,
        colors.bar, colors.trim
    );
    text_box(&mut svg, Field::Name, &text.name, lang, &mut findings, None);
    // STAR badge (venues and characters have none).
    if let Some(stars) = card.stars {
        let _ = writeln!(
            svg,
            r##"<g class="star" data-stars="{stars}" transform="translate(49.6 2.2) scale(1.02)"><title>{stars} STAR</title><path d="{path}" fill="#f5c542" stroke="#8a6400" stroke-width="0.35"/><text x="5" y="6.7" text-anchor="middle" class="b" font-size="3.4">{stars}</text></g>"##,
            path = icons::star(),
        );
    }
    art_window(&mut svg, card, &colors, options);
    // Symbols: elements then types, 5 mm each; the kind on the right.
    let mut x = 4.6;
    for element in &card.elements {
        let id = element.as_str();
        icon(&mut svg, "element", id, &icons::element(id), x, 44.2);
        x += 5.6;
    }
    if !card.elements.is_empty() && !card.types.is_empty() {
        x += 1.2;
    }
    for card_type in &card.types {
        icon(
            &mut svg,
            "type",
            &card_type.0,
            &icons::card_type(&card_type.0),
            x,
            44.2,
        );
        x += 5.6;
    }
    let _ = writeln!(
        svg,
        r#"<text class="kind b" x="58.4" y="48" text-anchor="end" font-size="{}">{}</text>"#,
        num(6.5 * MM_PER_PT),
        escape(&text.kind)
    );
    // Effect and flavor.
    let _ = writeln!(
        svg,
        r##"<rect class="text-panel" x="4" y="49.8" width="55" height="30" rx="1" fill="#ffffff" stroke="{}" stroke-width="0.3"/>"##,
        colors.trim
    );
    let mut effect_size = None;
    if let Some(effect) = &text.effect {
        effect_size = Some(text_box(
            &mut svg,
            Field::Effect,
            effect,
            lang,
            &mut findings,
            Some(true),
        ));
    }
    if let Some(flavor) = &text.flavor {
        let _ = writeln!(
            svg,
            r#"<line class="rule" x1="14" y1="72.7" x2="49" y2="72.7" stroke="{}" stroke-width="0.2"/>"#,
            colors.trim
        );
        text_box(&mut svg, Field::Flavor, flavor, lang, &mut findings, None);
    }
    // Footer: set name; rarity gem, number in set and copies.
    text_box(
        &mut svg,
        Field::SetName,
        &text.set_name,
        lang,
        &mut findings,
        None,
    );
    let _ = writeln!(
        svg,
        r#"<g class="rarity" data-rarity="{}"><title>{}</title><circle cx="40.6" cy="82.1" r="1.3" fill="{}" stroke="{}" stroke-width="0.3"/></g>"#,
        card.rarity.as_str(),
        escape(&text.rarity),
        colors.frame,
        colors.trim
    );
    let _ = writeln!(
        svg,
        r#"<text class="number" x="57.6" y="83.1" text-anchor="end" font-size="{}">{:02}/{:02} ×{}</text>"#,
        num(5.5 * MM_PER_PT),
        number,
        of,
        card.copies
    );
    svg.push_str("</svg>\n");
    Face {
        svg,
        effect_size,
        findings,
    }
}

/// The art box: the card's art when the options have its image, scaled to
/// cover the box and clipped to it; else the rarity's colours.
fn art_window(svg: &mut String, card: &Card, colors: &Palette, options: &FaceOptions) {
    let (x, y, w, h) = ART_BOX;
    let image = card
        .art
        .as_ref()
        .and_then(|art| Some((art, options.art.uri(&art.fingerprint)?)));
    let fill = match image {
        Some((art, uri)) => {
            let _ = writeln!(
                svg,
                r#"<defs><clipPath id="art-clip"><rect x="{x}" y="{y}" width="{w}" height="{h}" rx="1"/></clipPath></defs>"#
            );
            let _ = writeln!(
                svg,
                r#"<image class="art-image" data-art="{file}" data-fingerprint="{print}" x="{x}" y="{y}" width="{w}" height="{h}" preserveAspectRatio="xMidYMid slice" clip-path="url(#art-clip)" href="{uri}"/>"#,
                file = escape(&art.file),
                print = escape(&art.fingerprint),
            );
            "none".to_string()
        }
        None => {
            let _ = writeln!(
                svg,
                r#"<defs><linearGradient id="art" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="{}"/><stop offset="1" stop-color="{}"/></linearGradient></defs>"#,
                colors.bar, colors.frame
            );
            "url(#art)".to_string()
        }
    };
    let _ = writeln!(
        svg,
        r#"<rect class="art" x="{x}" y="{y}" width="{w}" height="{h}" rx="1" fill="{fill}" stroke="{}" stroke-width="0.3"/>"#,
        colors.trim
    );
}

/// The art box on the face: x, y, width and height in millimetres.
pub const ART_BOX: (f32, f32, f32, f32) = (4.0, 12.2, 55.0, 30.6);

fn icon(svg: &mut String, class: &str, id: &str, icon: &icons::Icon, x: f32, y: f32) {
    let paint = if icon.stroke {
        format!(
            r#"fill="none" stroke="{}" stroke-width="1.1" stroke-linecap="round""#,
            icon.color
        )
    } else {
        format!(r#"fill="{}""#, icon.color)
    };
    let _ = writeln!(
        svg,
        r##"<g class="icon {class}" data-symbol="{id}" transform="translate({} {}) scale(0.5)"><title>{id}</title><circle cx="5" cy="5" r="5" fill="#ffffff" stroke="#888888" stroke-width="0.4"/><g transform="translate(1.5 1.5) scale(0.7)"><path d="{}" {paint}/></g></g>"##,
        num(x),
        num(y),
        icon.path,
        id = escape(id),
    );
}

/// Sets one field in its box and writes it; returns the size used.
fn text_box(
    svg: &mut String,
    field: Field,
    text: &str,
    lang: &str,
    findings: &mut Vec<FaceFinding>,
    center: Option<bool>,
) -> f32 {
    let fitted = fit_field(field, text, lang);
    let text = text.trim_end();
    let text_box = field.text_box();
    let (x, y) = box_origin(field);
    findings.extend(findings_of(field, text, &fitted));
    let top = if center == Some(true) && fitted.fits() {
        y + (text_box.height - fitted.height) / 2.0
    } else {
        y
    };
    let _ = writeln!(
        svg,
        r#"<g class="text-box" data-field="{}" data-x="{}" data-y="{}" data-width="{}" data-height="{}" data-line-height="{}" data-max-lines="{}" data-size="{}" data-overflow="{}" font-size="{}">"#,
        field.key(),
        num(x),
        num(y),
        num(text_box.width),
        num(text_box.height),
        text_box.line_height,
        text_box.max_lines.min(99),
        fitted.size,
        !fitted.fits(),
        // Four decimals: the browser must set the size the layout measured.
        (fitted.size * MM_PER_PT * 10_000.0).round() / 10_000.0,
    );
    let base = field.base_style();
    for line in &fitted.lines {
        let _ = write!(
            svg,
            r#"<text x="{}" y="{}""#,
            num(x),
            num(top + line.baseline)
        );
        let whole = line.runs.len() == 1;
        if whole {
            let _ = write!(svg, "{}", class_attr(line.runs[0].style, base, lang));
        }
        svg.push('>');
        for run in &line.runs {
            let piece = escape(&text[run.range.clone()]);
            let class = class_attr(run.style, base, lang);
            if whole || class.is_empty() {
                svg.push_str(&piece);
            } else {
                let _ = write!(svg, "<tspan{class}>{piece}</tspan>");
            }
        }
        svg.push_str("</text>\n");
    }
    svg.push_str("</g>\n");
    fitted.size
}

/// The class of a styled run: bold `b`, italic `i`, and Japanese reminder
/// text upright in grey (`r`, set in the regular face as the layout did).
fn class_attr(style: Style, base: Style, lang: &str) -> String {
    let _ = base;
    match (style, Script::of_lang(lang)) {
        (Style::Regular, _) => String::new(),
        (Style::Bold, _) => r#" class="b""#.to_string(),
        (Style::Italic, Script::Latin) => r#" class="i""#.to_string(),
        (Style::Italic, Script::Japanese) => r#" class="r""#.to_string(),
    }
}

/// Text for XML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
