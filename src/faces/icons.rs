//! The symbols printed on a face: the six elements, the base types and the
//! STAR, drawn for this project as SVG paths in a 10 × 10 box (our own
//! shapes, not the game's artwork).

use std::fmt::Write;

/// An icon: its SVG path data (10 × 10 box), and whether it is filled or
/// stroked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Icon {
    pub path: String,
    pub stroke: bool,
    /// Its colour on the face.
    pub color: &'static str,
}

fn filled(path: &str, color: &'static str) -> Icon {
    Icon {
        path: path.to_string(),
        stroke: false,
        color,
    }
}

fn stroked(path: &str, color: &'static str) -> Icon {
    Icon {
        path: path.to_string(),
        stroke: true,
        color,
    }
}

/// An element's icon (`fire`, `air`, `light`, `water`, `earth`, `dark`).
pub fn element(id: &str) -> Icon {
    match id {
        "fire" => filled(
            "M5 0.6C6.6 3 8.6 4.6 8.6 6.8A3.6 3.6 0 0 1 1.4 6.8C1.4 5 2.5 3.9 3.3 3.1C3.4 4.4 4 5 4.7 5.3C4.2 3.6 4.3 2.1 5 0.6Z",
            "#e4572e",
        ),
        "air" => stroked(
            "M0.9 3.6H6.4A1.6 1.6 0 1 0 4.9 1.7M0.9 5.6H8.1A1.7 1.7 0 1 1 6.5 7.6M0.9 7.6H4.4",
            "#5fa8b3",
        ),
        "light" => Icon {
            path: format!(
                "M5 3A2 2 0 1 1 5 7A2 2 0 1 1 5 3Z{}",
                rays(5.0, 5.0, 2.8, 4.4, 8)
            ),
            stroke: true,
            color: "#e0a81c",
        },
        "water" => filled(
            "M5 0.8C6.8 3.6 8.2 5.2 8.2 6.7A3.2 3.2 0 0 1 1.8 6.7C1.8 5.2 3.2 3.6 5 0.8Z",
            "#2f7fd1",
        ),
        "earth" => filled("M0.6 8.8L3.8 3.2L5.6 5.8L6.7 4.3L9.4 8.8Z", "#8d6a3f"),
        "dark" => filled(
            "M6.4 0.9A4.3 4.3 0 1 0 9.1 7.3A3.5 3.5 0 1 1 6.4 0.9Z",
            "#5b3f86",
        ),
        _ => other(),
    }
}

/// A type's icon: the six base types, and a diamond for a set's own type.
pub fn card_type(id: &str) -> Icon {
    const INK: &str = "#333333";
    match id {
        "animal" => filled(
            "M5 4.6C6.9 4.6 8.3 6.6 8.3 7.9C8.3 9.1 7 9.1 5 8.6C3 9.1 1.7 9.1 1.7 7.9C1.7 6.6 3.1 4.6 5 4.6Z\
             M2.1 2.6A1.1 1.3 0 1 1 2.1 5.2A1.1 1.3 0 1 1 2.1 2.6Z\
             M7.9 2.6A1.1 1.3 0 1 1 7.9 5.2A1.1 1.3 0 1 1 7.9 2.6Z\
             M3.9 0.8A1.1 1.3 0 1 1 3.9 3.4A1.1 1.3 0 1 1 3.9 0.8Z\
             M6.1 0.8A1.1 1.3 0 1 1 6.1 3.4A1.1 1.3 0 1 1 6.1 0.8Z",
            INK,
        ),
        "myth" => filled(
            "M0.8 8.6C1.6 4.6 4.6 1.6 9.2 0.9C7.8 2.4 7.9 3.4 6.6 4.4C7.3 4.6 7.8 4.9 8.3 5.2C6.8 6.3 5.2 6.6 3.9 6.5C3 7.3 1.9 8 0.8 8.6Z",
            INK,
        ),
        "construct" => Icon {
            path: gear(),
            stroke: false,
            color: INK,
        },
        "citizen" => filled(
            "M5 1A1.9 1.9 0 1 1 5 4.8A1.9 1.9 0 1 1 5 1ZM1.5 9.2C1.5 6.8 3 5.6 5 5.6C7 5.6 8.5 6.8 8.5 9.2Z",
            INK,
        ),
        "soldier" => filled(
            "M7.8 0.7L9.3 0.7L9.3 2.2L4.4 7.1L2.9 5.6ZM2.1 5.1L4.9 7.9L4.2 8.6L3.4 7.8L1.8 9.4L0.6 8.2L2.2 6.6L1.4 5.8Z",
            INK,
        ),
        "mage" => filled(
            "M5.2 0.6L7.6 7.1H2.4ZM0.8 7.5H9.2V8.8H0.8ZM7.6 1.2L8 2.2L9 2.3L8.2 2.9L8.5 3.9L7.6 3.3L6.7 3.9L7 2.9L6.2 2.3L7.2 2.2Z",
            INK,
        ),
        _ => other(),
    }
}

fn other() -> Icon {
    filled("M5 0.8L9.2 5L5 9.2L0.8 5ZM5 3L3 5L5 7L7 5Z", "#333333")
}

/// A five-pointed star in a 10 × 10 box (the STAR badge).
pub fn star() -> String {
    polygon(5.0, 5.3, 4.9, 2.0, 5, -90.0)
}

/// Rays around a centre, as stroked segments.
fn rays(cx: f32, cy: f32, inner: f32, outer: f32, count: usize) -> String {
    let mut out = String::new();
    for i in 0..count {
        let a = (i as f32) * std::f32::consts::TAU / count as f32;
        let _ = write!(
            out,
            "M{} {}L{} {}",
            num(cx + inner * a.cos()),
            num(cy + inner * a.sin()),
            num(cx + outer * a.cos()),
            num(cy + outer * a.sin())
        );
    }
    out
}

/// A star polygon: `points` tips at `outer`, notches at `inner`.
fn polygon(cx: f32, cy: f32, outer: f32, inner: f32, points: usize, start_deg: f32) -> String {
    let mut out = String::new();
    for i in 0..points * 2 {
        let r = if i % 2 == 0 { outer } else { inner };
        let a = (start_deg + i as f32 * 180.0 / points as f32).to_radians();
        let _ = write!(
            out,
            "{}{} {}",
            if i == 0 { "M" } else { "L" },
            num(cx + r * a.cos()),
            num(cy + r * a.sin())
        );
    }
    out.push('Z');
    out
}

/// A cog with eight teeth and a hole.
fn gear() -> String {
    let mut out = String::new();
    let teeth = 8;
    for i in 0..teeth * 4 {
        let r = if (i / 2) % 2 == 0 { 4.5 } else { 3.4 };
        let a = (i as f32 * 360.0 / (teeth * 4) as f32 - 5.6).to_radians();
        let _ = write!(
            out,
            "{}{} {}",
            if i == 0 { "M" } else { "L" },
            num(5.0 + r * a.cos()),
            num(5.0 + r * a.sin())
        );
    }
    out.push_str("ZM5 3.5A1.5 1.5 0 1 0 5 6.5A1.5 1.5 0 1 0 5 3.5Z");
    out
}

/// A number for SVG: at most two decimals, no trailing zeros.
pub fn num(value: f32) -> String {
    let rounded = (value * 100.0).round() / 100.0;
    let rounded = if rounded == 0.0 { 0.0 } else { rounded };
    format!("{rounded}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_symbol_has_its_own_icon() {
        let elements = ["fire", "air", "light", "water", "earth", "dark"];
        let types = ["animal", "myth", "construct", "citizen", "soldier", "mage"];
        let mut paths: Vec<String> = elements.iter().map(|e| element(e).path).collect();
        paths.extend(types.iter().map(|t| card_type(t).path));
        let count = paths.len();
        paths.sort();
        paths.dedup();
        assert_eq!(paths.len(), count);
        assert_eq!(card_type("racer"), other());
    }

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(2.345), "2.35");
        assert_eq!(num(-0.001), "0");
    }
}
