//! The names translation files and units go by: language codes, the
//! translatable fields and the context key of each unit. Locale files, the
//! effect language's phrase books and every translation command share them.

use std::fmt;

/// The language English texts are written in.
pub const SOURCE_LANG: &str = "en";

/// Where the effect language keeps its English phrase templates.
pub(crate) const PHRASES_EN: &str = "phrases/en.yaml";

/// A translatable field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Field {
    Name,
    Flavor,
    /// A per-card override of the effect text rendered by the effect language.
    Effect,
    /// A phrase template of the effect language.
    Phrase,
}

impl Field {
    /// Card fields in the order locale files list them.
    pub const CARD: [Field; 3] = [Field::Name, Field::Flavor, Field::Effect];

    pub fn as_str(self) -> &'static str {
        match self {
            Field::Name => "name",
            Field::Flavor => "flavor",
            Field::Effect => "effect",
            Field::Phrase => "phrase",
        }
    }

    pub fn parse_card_field(text: &str) -> Option<Field> {
        Field::CARD.into_iter().find(|f| f.as_str() == text)
    }
}

/// The address of a translation unit; its text form is the PO `msgctxt`:
/// `set/name`, `set/card/field`, or `phrase:key`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnitKey {
    SetName {
        set: String,
    },
    Card {
        set: String,
        card: String,
        field: Field,
    },
    Phrase {
        key: String,
    },
}

impl UnitKey {
    /// Parses a context string (`sunset-gulch/canyon-wyrm/flavor`).
    pub fn parse(context: &str) -> Option<UnitKey> {
        if let Some(key) = context.strip_prefix("phrase:") {
            return (!key.is_empty()).then(|| UnitKey::Phrase { key: key.into() });
        }
        let parts: Vec<&str> = context.split('/').collect();
        let id = |s: &str| !s.is_empty() && !s.contains(char::is_whitespace);
        match parts.as_slice() {
            [set, "name"] if id(set) => Some(UnitKey::SetName { set: (*set).into() }),
            [set, card, field] if id(set) && id(card) => Some(UnitKey::Card {
                set: (*set).into(),
                card: (*card).into(),
                field: Field::parse_card_field(field)?,
            }),
            _ => None,
        }
    }

    /// The set this unit belongs to (`None` for phrases).
    pub fn set(&self) -> Option<&str> {
        match self {
            UnitKey::SetName { set } | UnitKey::Card { set, .. } => Some(set),
            UnitKey::Phrase { .. } => None,
        }
    }

    pub fn card(&self) -> Option<&str> {
        match self {
            UnitKey::Card { card, .. } => Some(card),
            _ => None,
        }
    }

    pub fn field(&self) -> Field {
        match self {
            UnitKey::SetName { .. } => Field::Name,
            UnitKey::Card { field, .. } => *field,
            UnitKey::Phrase { .. } => Field::Phrase,
        }
    }

    /// Is this a name (set or card)? Names are looked up and must be unique.
    pub fn is_name(&self) -> bool {
        self.field() == Field::Name
    }
}

impl fmt::Display for UnitKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitKey::SetName { set } => write!(f, "{set}/name"),
            UnitKey::Card { set, card, field } => write!(f, "{set}/{card}/{}", field.as_str()),
            UnitKey::Phrase { key } => write!(f, "phrase:{key}"),
        }
    }
}

/// Is this a plausible language id (`ja`, `pt-br`, `zh-hant`)?
pub fn valid_lang(lang: &str) -> bool {
    let mut parts = lang.split('-');
    let first = parts.next().unwrap_or_default();
    (2..=3).contains(&first.len())
        && first.bytes().all(|b| b.is_ascii_lowercase())
        && parts.all(|p| (1..=8).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_alphanumeric()))
        && lang != SOURCE_LANG
}

/// The project's id for a language code written any common way: a BCP 47
/// tag (`ja-JP`, `zh-Hant-TW`) or a POSIX locale (`ja_JP.UTF-8`,
/// `de_DE@euro`), in any case. Ids are lowercase with `-`: the language and
/// its script (`ja`, `zh-hant`); a region is kept only when `known` (the
/// project's languages) has the id with it (`pt-br`), so `ja_JP` is `ja`.
/// `None` when the code is no language to translate into (`en`, `C`,
/// `日本語`).
pub fn language_id(code: &str, known: &[String]) -> Option<String> {
    let code = code.trim();
    let code = code.split(['.', '@']).next().unwrap_or_default();
    let full = code.replace('_', "-").to_ascii_lowercase();
    if !full.is_ascii() {
        return None;
    }
    if known.contains(&full) && valid_lang(&full) {
        return Some(full);
    }
    let mut parts = full.split('-');
    let mut id = parts.next().unwrap_or_default().to_string();
    if let Some(script) = parts
        .next()
        .filter(|p| p.len() == 4 && p.bytes().all(|b| b.is_ascii_alphabetic()))
    {
        id.push('-');
        id.push_str(script);
    }
    valid_lang(&id).then_some(id)
}

/// English name of a language code, for messages and file headers.
pub fn language_name(lang: &str) -> &str {
    match lang {
        "ja" => "Japanese",
        "en" => "English",
        "fr" => "French",
        "de" => "German",
        "ko" => "Korean",
        "zh" | "zh-hans" | "zh-hant" => "Chinese",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_codes_become_the_projects_ids() {
        let known = vec!["ja".to_string(), "pt-br".to_string()];
        for code in [
            "ja",
            "JA",
            "ja-JP",
            "ja_JP",
            "ja_JP.UTF-8",
            "ja_JP.eucJP@x",
            " ja ",
        ] {
            assert_eq!(language_id(code, &known).as_deref(), Some("ja"), "{code}");
        }
        assert_eq!(language_id("pt_BR", &known).as_deref(), Some("pt-br"));
        assert_eq!(language_id("pt-PT", &known).as_deref(), Some("pt"));
        assert_eq!(language_id("zh-Hant-TW", &[]).as_deref(), Some("zh-hant"));
        assert_eq!(language_id("zh_TW", &[]).as_deref(), Some("zh"));
        for bad in ["en", "en_US", "C", "", "日本語", "j"] {
            assert_eq!(language_id(bad, &known), None, "{bad}");
        }
    }
}
