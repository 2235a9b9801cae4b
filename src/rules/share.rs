//! Share codes: a deck (or any card list) as one short word a player can
//! paste in chat, which every command accepts in place of a file.
//!
//! `MB1-` then Crockford base32 of the deflated canonical list and its
//! CRC-32. The list is built from stable card ids, sorted, so the same
//! cards give the same code in any order. The CRC detects every error of
//! up to 32 bits in a row, so any one mistyped character (5 bits) is an
//! error, not another deck; so is a code whose last character carries bits
//! the encoding never sets.

use std::fmt;

/// What starts every share code, before its version.
pub const PREFIX: &str = "MB";
/// The version this tool writes (and the only one it reads).
pub const VERSION: u32 = 1;
/// A decoded list larger than this is refused (a crafted code cannot make
/// the tool inflate gigabytes).
const MAX_LIST_BYTES: usize = 1 << 20;

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

/// The code of a list; the order of `lines` does not matter.
pub fn encode(lines: &[Shared]) -> String {
    let mut sorted = lines.to_vec();
    sorted.sort();
    let list = canonical(&sorted);
    let mut data = miniz_oxide::deflate::compress_to_vec(list.as_bytes(), 10);
    data.extend_from_slice(&crc32(&data).to_be_bytes());
    format!("{PREFIX}{VERSION}-{}", base32(&data))
}

/// The list a code holds, sorted.
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
    let list = miniz_oxide::inflate::decompress_to_vec_with_limit(data, MAX_LIST_BYTES)
        .map_err(|_| ShareError::Corrupt)?;
    let list = String::from_utf8(list).map_err(|_| ShareError::Corrupt)?;
    parse(&list)
}

/// `@character,zone/id*2,id`: the list as text, before compression.
fn canonical(lines: &[Shared]) -> String {
    let items: Vec<String> = lines
        .iter()
        .map(|line| match line {
            Shared::Character(id) => format!("@{id}"),
            Shared::Card { zone, id, count } => {
                let zone = zone.as_ref().map(|z| format!("{z}/")).unwrap_or_default();
                match count {
                    1 => format!("{zone}{id}"),
                    n => format!("{zone}{id}*{n}"),
                }
            }
        })
        .collect();
    items.join(",")
}

fn parse(list: &str) -> Result<Vec<Shared>, ShareError> {
    let valid = |word: &str| !word.is_empty() && !word.contains([',', '/', '*', '@']);
    list.split(',')
        .filter(|item| !item.is_empty())
        .map(|item| {
            if let Some(id) = item.strip_prefix('@') {
                return valid(id)
                    .then(|| Shared::Character(id.to_string()))
                    .ok_or(ShareError::Corrupt);
            }
            let (zone, rest) = match item.split_once('/') {
                Some((zone, rest)) => (Some(zone.to_string()), rest),
                None => (None, item),
            };
            let (id, count) = match rest.split_once('*') {
                Some((id, n)) => (id, n.parse().map_err(|_| ShareError::Corrupt)?),
                None => (rest, 1),
            };
            let zone_ok = zone.as_deref().is_none_or(valid);
            (valid(id) && zone_ok && count > 0)
                .then(|| Shared::Card {
                    zone,
                    id: id.to_string(),
                    count,
                })
                .ok_or(ShareError::Corrupt)
        })
        .collect()
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
        let mut sorted = deck.clone();
        sorted.sort();
        assert_eq!(decode(&code), Ok(sorted.clone()));
        assert_eq!(decode(&code.to_lowercase()), Ok(sorted));
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
