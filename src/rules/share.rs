//! Share codes: a deck (or any card list) as one short word a player can
//! paste in chat, which every command accepts in place of a file.
//!
//! `MB1-` then Crockford base32 of the list in bytes and its CRC-32. Each
//! card is four bytes of its stable id's hash (resolved against the pool,
//! where two ids sharing a tag are reported as ambiguous), sorted, so the
//! same cards give the same code in any order. The CRC detects every error of
//! up to 32 bits in a row, so any one mistyped character (5 bits) is an
//! error, not another deck; so is a code whose last character carries bits
//! the encoding never sets.

use std::fmt;

use schemars::JsonSchema;
use serde::Serialize;

use super::characters::Character;
use super::deck::{DeckFormat, Placed};
use crate::words::CardKind;

/// What starts every share code, before its version.
pub const PREFIX: &str = "MB";
/// The version this tool writes (and the only one it reads).
pub const VERSION: u32 = 1;

/// One line of a shared list.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Shared {
    /// The deck's character (by id).
    Character(String),
    /// `count` copies of a card (by id), in a zone (`None`: the list's
    /// only or first zone).
    Card {
        zone: Option<String>,
        id: String,
        count: u64,
    },
}

/// Why a share code was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShareError {
    /// Not `MB<version>-…`.
    NotACode,
    /// A version this tool does not read.
    Version(String),
    /// A character outside the code's alphabet, at this position.
    Alphabet { at: usize, found: char },
    /// The check does not match: a character is mistyped or missing.
    Checksum,
    /// The checked data is not a list (never made by this tool).
    Corrupt,
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShareError::NotACode => write!(f, "not a share code (they start `{PREFIX}{VERSION}-`)"),
            ShareError::Version(v) => write!(
                f,
                "share code version {v} is not one this blades reads (it reads version {VERSION})"
            ),
            ShareError::Alphabet { at, found } => write!(
                f,
                "`{found}` (character {at} of the code) is not a share-code character"
            ),
            ShareError::Checksum => write!(
                f,
                "the share code's check does not match: a character is mistyped, missing or extra"
            ),
            ShareError::Corrupt => write!(f, "the share code holds no card list"),
        }
    }
}

/// A code as a report names it: a short code whole, a long one by its
/// first characters and its last (which hold its check, so two codes
/// named alike are almost never two codes), so that a report's findings do
/// not each repeat a code of many kilobytes.
pub fn short(code: &str) -> std::sync::Arc<str> {
    const HEAD: usize = 16;
    const TAIL: usize = 8;
    let code = code.trim();
    let chars = code.chars().count();
    if chars <= HEAD + TAIL + 1 {
        return std::sync::Arc::from(code);
    }
    let head: String = code.chars().take(HEAD).collect();
    let tail: String = code.chars().skip(chars - TAIL).collect();
    std::sync::Arc::from(format!("{head}…{tail}"))
}

/// Whether `text` has the form of a share code (it may still be wrong).
pub fn looks_like_code(text: &str) -> bool {
    let Some(rest) = text.trim().get(..PREFIX.len()) else {
        return false;
    };
    rest.eq_ignore_ascii_case(PREFIX)
        && text.trim()[PREFIX.len()..]
            .split_once('-')
            .is_some_and(|(v, _)| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
}

/// The code of a list; the order of `lines` does not matter. Cards are
/// written as their id tags ([`crate::cards::id_tag`]), four bytes each.
pub fn encode(lines: &[Shared]) -> String {
    let mut data = payload(lines);
    data.extend_from_slice(&crc32(&data).to_be_bytes());
    format!("{PREFIX}{VERSION}-{}", base32(&data))
}

/// The list a code holds: the character by id, each card by its tag
/// written `%1a2b3c4d` (which [`crate::cards::CardIndex`] resolves).
pub fn decode(code: &str) -> Result<Vec<Shared>, ShareError> {
    let code = code.trim();
    if !looks_like_code(code) {
        return Err(ShareError::NotACode);
    }
    let (version, body) = code[PREFIX.len()..]
        .split_once('-')
        .ok_or(ShareError::NotACode)?;
    if version != VERSION.to_string() {
        return Err(ShareError::Version(version.to_string()));
    }
    let offset = PREFIX.len() + version.len() + 1;
    let data = unbase32(body, offset)?;
    let (data, check) = data.split_last_chunk::<4>().ok_or(ShareError::Checksum)?;
    if crc32(data) != u32::from_be_bytes(*check) {
        return Err(ShareError::Checksum);
    }
    read_payload(data).ok_or(ShareError::Corrupt)
}

/// The list in bytes: the zone names, the character's id, then each card
/// as (tag, count, zone), sorted so any order gives the same bytes.
fn payload(lines: &[Shared]) -> Vec<u8> {
    let mut zones: Vec<&str> = Vec::new();
    let mut character = "";
    let mut cards: Vec<(usize, u32, u64)> = Vec::new();
    for line in lines {
        match line {
            Shared::Character(id) => character = id,
            Shared::Card { zone, id, count } => {
                let zone = zone.as_deref().unwrap_or("");
                let at = zones.iter().position(|z| *z == zone).unwrap_or_else(|| {
                    zones.push(zone);
                    zones.len() - 1
                });
                let tag = crate::cards::parse_tag(id).unwrap_or_else(|| crate::cards::id_tag(id));
                cards.push((at, tag, *count));
            }
        }
    }
    // Zones in name order, the main (unnamed) zone first.
    let mut order: Vec<usize> = (0..zones.len()).collect();
    order.sort_by_key(|&i| zones[i]);
    let rank = |i: usize| order.iter().position(|&o| o == i).unwrap_or(0);
    let mut out = Vec::new();
    varint(&mut out, zones.len() as u64);
    for &i in &order {
        text(&mut out, zones[i]);
    }
    text(&mut out, character);
    let mut cards: Vec<(usize, u32, u64)> =
        cards.into_iter().map(|(z, t, n)| (rank(z), t, n)).collect();
    cards.sort();
    varint(&mut out, cards.len() as u64);
    for (zone, tag, count) in cards {
        out.extend_from_slice(&tag.to_be_bytes());
        varint(&mut out, count);
        if zones.len() > 1 {
            varint(&mut out, zone as u64);
        }
    }
    out
}

fn read_payload(data: &[u8]) -> Option<Vec<Shared>> {
    let mut at = 0;
    let zone_count = read_varint(data, &mut at)?;
    let zones: Vec<String> = (0..zone_count)
        .map(|_| read_text(data, &mut at))
        .collect::<Option<_>>()?;
    let character = read_text(data, &mut at)?;
    let mut lines: Vec<Shared> = match character.is_empty() {
        true => Vec::new(),
        false => vec![Shared::Character(character)],
    };
    let count = read_varint(data, &mut at)?;
    for _ in 0..count {
        let tag = u32::from_be_bytes(data.get(at..at + 4)?.try_into().ok()?);
        at += 4;
        let copies = read_varint(data, &mut at)?;
        let zone = match zones.len() > 1 {
            true => read_varint(data, &mut at)? as usize,
            false => 0,
        };
        let zone = zones.get(zone)?;
        lines.push(Shared::Card {
            zone: (!zone.is_empty()).then(|| zone.clone()),
            id: format!("%{tag:08x}"),
            count: copies,
        });
    }
    (at == data.len()).then_some(lines)
}

fn varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn read_varint(data: &[u8], at: &mut usize) -> Option<u64> {
    let mut n = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *data.get(*at)?;
        *at += 1;
        n |= u64::from(byte & 0x7F) << shift;
        if byte < 0x80 {
            return Some(n);
        }
    }
    None
}

fn text(out: &mut Vec<u8>, s: &str) {
    varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

fn read_text(data: &[u8], at: &mut usize) -> Option<String> {
    let len = usize::try_from(read_varint(data, at)?).ok()?;
    let bytes = data.get(*at..at.checked_add(len)?)?;
    *at += len;
    String::from_utf8(bytes.to_vec()).ok()
}

/// `blades deck export --format json`: a deck as a canonical list and a
/// share code.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct DeckExport {
    pub file: String,
    /// The deck as a plain-text list (names; any command reads it back).
    pub list: String,
    /// The deck as a share code (any command reads it in place of a file).
    pub share_code: String,
}

/// A resolved deck as share-code lines: cards of the format's first zone
/// in no zone, the others under their zone's id.
pub fn deck_lines(
    format: &DeckFormat,
    character: Option<&Character>,
    cards: &[Placed],
) -> Vec<Shared> {
    let mut lines: Vec<Shared> = character
        .map(|c| Shared::Character(c.id.0.clone()))
        .into_iter()
        .collect();
    lines.extend(cards.iter().map(|(zone, card, count)| Shared::Card {
        zone: (*zone > 0).then(|| format.zones[*zone].id.0.clone()),
        id: card.id.0.clone(),
        count: *count,
    }));
    lines
}

/// A resolved deck as the canonical plain-text list: the character, then
/// each zone of the format in its order (a header for all but the first),
/// its singles, deck boxes and accessories by name, one line per card with
/// its count (`1 Canyon Wyrm`); the same deck in any order or spelling
/// gives the same text.
pub fn canonical_list(
    format: &DeckFormat,
    character: Option<&Character>,
    cards: &[Placed],
) -> String {
    let mut out = String::new();
    if let Some(c) = character {
        out.push_str(&format!("character: {}\n", c.name));
    }
    for (z, zone) in format.zones.iter().enumerate() {
        let mut counted: Vec<(CardKind, &str, u64)> = Vec::new();
        for (_, card, count) in cards.iter().filter(|(at, _, _)| *at == z) {
            match counted.iter_mut().find(|(_, name, _)| *name == card.name) {
                Some(entry) => entry.2 += count,
                None => counted.push((card.kind, &card.name, *count)),
            }
        }
        if counted.is_empty() {
            continue;
        }
        // Every zone of a format with several is named, the first too: a
        // reader need not know which zone takes cards without a header.
        if format.zones.len() > 1 {
            out.push_str(&format!("{}:\n", zone.name));
        }
        counted.sort_by_key(|&(kind, name, _)| (kind_order(kind), name));
        for (_, name, count) in counted {
            out.push_str(&format!("{count} {name}\n"));
        }
    }
    out
}

/// Where a card goes in a canonical list: by kind (singles, deck boxes,
/// accessories), then by name; `deck diff` lists its changes so too.
pub fn list_order(card: &crate::model::Card) -> (usize, &str) {
    (kind_order(card.kind), &card.name)
}

fn kind_order(kind: CardKind) -> usize {
    CardKind::ALL.iter().position(|k| *k == kind).unwrap_or(0)
}

/// A decoded list as the plain text any command reads: `character:`, then
/// `count %tag` lines, a zone's cards after a `zone:` line.
pub fn list_text(lines: &[Shared]) -> String {
    let mut out = String::new();
    let mut zone: Option<&str> = None;
    for line in lines {
        match line {
            Shared::Character(id) => out.push_str(&format!("character: {id}\n")),
            Shared::Card { zone: z, id, count } => {
                if z.as_deref() != zone {
                    zone = z.as_deref();
                    if let Some(zone) = zone {
                        out.push_str(&format!("{zone}:\n"));
                    }
                }
                out.push_str(&format!("{count} {id}\n"));
            }
        }
    }
    out
}

/// Crockford's base32 alphabet: no I, L, O or U to misread.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

fn base32(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len() * 8 / 5 + 1);
    let (mut buffer, mut bits) = (0u32, 0u32);
    for &byte in data {
        buffer = (buffer << 8) | u32::from(byte);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(ALPHABET[(buffer >> bits) as usize & 31] as char);
        }
    }
    if bits > 0 {
        out.push(ALPHABET[(buffer << (5 - bits)) as usize & 31] as char);
    }
    out
}

/// The value of a code character; lower case and the letters Crockford
/// reads as digits (I, L as 1; O as 0) are accepted.
fn value(c: char) -> Option<u32> {
    let c = match c.to_ascii_uppercase() {
        'I' | 'L' => '1',
        'O' => '0',
        c => c,
    };
    ALPHABET
        .iter()
        .position(|&a| a as char == c)
        .map(|i| i as u32)
}

/// `offset`: where `text` starts in the code, for positions in errors.
fn unbase32(text: &str, offset: usize) -> Result<Vec<u8>, ShareError> {
    let mut out = Vec::with_capacity(text.len() * 5 / 8);
    let (mut buffer, mut bits) = (0u32, 0u32);
    for (i, c) in text.chars().enumerate() {
        let v = value(c).ok_or(ShareError::Alphabet {
            at: offset + i + 1,
            found: c,
        })?;
        buffer = ((buffer << 5) | v) & 0xFFFF;
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
        }
    }
    // Bits past the last byte are always zero in a code this tool wrote:
    // set, they mean a mistyped last character.
    if bits >= 5 || buffer & ((1 << bits) - 1) != 0 {
        return Err(ShareError::Checksum);
    }
    Ok(out)
}

/// CRC-32 (IEEE, as zip and PNG use).
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = (crc >> 1) ^ (0xEDB8_8320 & (crc & 1).wrapping_neg());
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(zone: Option<&str>, id: &str, count: u64) -> Shared {
        Shared::Card {
            zone: zone.map(str::to_string),
            id: id.to_string(),
            count,
        }
    }

    #[test]
    fn crc32_is_the_ieee_one() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn a_deck_round_trips_in_any_order() {
        let deck = vec![
            Shared::Character("deques".into()),
            card(None, "canyon-wyrm", 1),
            card(None, "dust-devil", 2),
            card(Some("millennium"), "star-titan", 1),
        ];
        let mut reversed = deck.clone();
        reversed.reverse();
        let code = encode(&deck);
        assert!(code.starts_with("MB1-"), "{code}");
        assert_eq!(encode(&reversed), code);
        let tagged: Vec<Shared> = deck
            .iter()
            .map(|line| match line {
                Shared::Card { zone, id, count } => Shared::Card {
                    zone: zone.clone(),
                    id: format!("%{:08x}", crate::cards::id_tag(id)),
                    count: *count,
                },
                other => other.clone(),
            })
            .collect();
        let mut decoded = decode(&code).unwrap();
        decoded.sort();
        let mut expected = tagged;
        expected.sort();
        assert_eq!(decoded, expected);
        assert_eq!(
            decode(&code.to_lowercase()).map(|mut d| {
                d.sort();
                d
            }),
            Ok(expected)
        );
        // Re-encoding the decoded list gives the same code.
        assert_eq!(encode(&decoded), code);
    }

    #[test]
    fn wrong_codes_say_what_is_wrong() {
        let code = encode(&[card(None, "canyon-wyrm", 1)]);
        assert_eq!(decode("hello"), Err(ShareError::NotACode));
        assert_eq!(
            decode(&code.replacen("MB1-", "MB7-", 1)),
            Err(ShareError::Version("7".into()))
        );
        let mut bad = code.clone();
        bad.push('U');
        assert!(matches!(
            decode(&bad),
            Err(ShareError::Alphabet { found: 'U', .. })
        ));
        assert_eq!(decode(&code[..code.len() - 1]), Err(ShareError::Checksum));
    }
}
