//! What a build keeps of a translation file of set text: the set's name and
//! each card's texts, normalised, with what tells whether each is current.
//! The parsed file also has every text's place, its recorded English and
//! its notes, which only the `i18n` commands read: kept whole for every
//! file until its set renders, they were a build's largest holding (170 MB
//! of a 100,000-card build's 454 MB at its peak).

use foldhash::HashMap;

use super::keys::{Field, UnitKey};
use super::locale::{Entry, LocaleFile, is_current};
use crate::model::{CardTranslation, Database, SetTranslation};

/// One language's translation of one set, as a build puts it into the
/// database.
#[derive(Debug)]
pub struct SetText {
    lang: String,
    name: Option<Translated>,
    /// By card id: the name, flavor and effect (in [`Field::CARD`] order).
    cards: HashMap<Box<str>, [Option<Translated>; 3]>,
}

/// One translated text.
#[derive(Debug)]
struct Translated {
    /// As the database has it ([`Entry::normalized`]).
    text: Box<str>,
    /// The recorded English's fingerprint, when it is one.
    fingerprint: Option<u64>,
    fuzzy: bool,
}

impl Translated {
    fn of(entry: &Entry) -> Translated {
        Translated {
            text: entry.normalized().into(),
            fingerprint: entry.fingerprint_number(),
            fuzzy: entry.fuzzy,
        }
    }

    /// [`Entry::is_current`].
    fn is_current(&self, english: &str) -> bool {
        is_current(self.fuzzy, self.fingerprint, english)
    }
}

impl SetText {
    /// What `file` (in language `lang`) says of its set. Where a unit is
    /// translated twice, the first entry counts, as in [`super::Locales`].
    pub fn of(lang: String, file: &LocaleFile) -> SetText {
        let mut text = SetText {
            lang,
            name: None,
            cards: HashMap::default(),
        };
        for entry in &file.entries {
            match &entry.key {
                UnitKey::SetName { .. } => {
                    text.name.get_or_insert_with(|| Translated::of(entry));
                }
                UnitKey::Card { card, field, .. } => {
                    let Some(i) = Field::CARD.iter().position(|c| c == field) else {
                        continue;
                    };
                    let fields = text.cards.entry(card.as_str().into()).or_default();
                    fields[i].get_or_insert_with(|| Translated::of(entry));
                }
                UnitKey::Phrase { .. } => {}
            }
        }
        text
    }
}

/// Puts one set's translations into its database (`one`: the set and its
/// cards): its name, the cards' names, flavor and effect overrides, each
/// marked stale when its English changed since it was translated.
pub fn attach(one: &mut Database, texts: &[SetText]) {
    for text in texts {
        for set in &mut one.sets {
            if let Some(name) = &text.name {
                set.translations.insert(
                    text.lang.clone(),
                    SetTranslation {
                        name: name.text.to_string(),
                        stale: !name.is_current(&set.name),
                    },
                );
            }
        }
        for card in &mut one.cards {
            let Some(fields) = text.cards.get(card.id.0.as_str()) else {
                continue;
            };
            let mut translation = CardTranslation::default();
            for (field, translated) in Field::CARD.into_iter().zip(fields) {
                let english = match field {
                    Field::Name => Some(&card.name),
                    Field::Flavor => card.flavor.as_ref(),
                    _ => card.effect.as_ref(),
                };
                let (Some(translated), Some(english)) = (translated, english) else {
                    continue;
                };
                let text = Some(translated.text.to_string());
                match field {
                    Field::Name => translation.name = text,
                    Field::Flavor => translation.flavor = text,
                    _ => translation.effect = text,
                }
                if !translated.is_current(english) {
                    translation.stale.push(field.as_str().to_string());
                }
            }
            if translation != CardTranslation::default() {
                card.translations.insert(text.lang.clone(), translation);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{Locales, parse_locale_file};
    use crate::pool::{Pool, SourceFile};

    /// A file with what the built-in pool's files lack: a text marked for
    /// review, a fingerprint of nothing, one that is no fingerprint, a text
    /// without one.
    const ODD: &str = "set: odd\nname:\n  text: 奇\n  source: Odd\n  fingerprint: 0000000000000000\ncards:\n  a:\n    name:\n      text: 甲\n      source: A\n      fingerprint: FP_OF_A\n      fuzzy: true\n    flavor:\n      text: \"乙　 \"\n      fingerprint: NOT-HEX-AT-ALL!!\n  b:\n    name:\n      text: 丙\n";

    /// Each unit's text and whether it stands against `english`, as the
    /// parsed file's entries answer and as the kept text answers.
    fn both_ways(lang: &str, file: &LocaleFile, english: &str) {
        let locales = Locales::from_files([(lang.to_string(), file.clone())], &mut Vec::new());
        let locale = &locales.languages[0];
        let kept = SetText::of(lang.to_string(), file);
        let Target::Set(set) = &file.target else {
            return;
        };
        let answer = |e: Option<&Entry>| e.map(|e| (e.normalized(), e.is_current(english)));
        let kept_answer =
            |t: Option<&Translated>| t.map(|t| (t.text.to_string(), t.is_current(english)));
        assert_eq!(
            answer(locale.set_name_entry(set)),
            kept_answer(kept.name.as_ref())
        );
        let mut cards: Vec<&str> = file
            .entries
            .iter()
            .filter_map(|e| match &e.key {
                UnitKey::Card { card, .. } => Some(card.as_str()),
                _ => None,
            })
            .collect();
        cards.push("no-such-card");
        for card in cards {
            let entries = locale.card_entries(set, card);
            let fields = kept.cards.get(card);
            for (i, entry) in entries.into_iter().enumerate() {
                let translated = fields.and_then(|f| f[i].as_ref());
                assert_eq!(answer(entry), kept_answer(translated), "{card} field {i}");
            }
        }
    }

    use super::super::locale::Target;

    #[test]
    fn the_kept_text_answers_as_the_parsed_file() {
        let pool = Pool::builtin();
        let mut files = Vec::new();
        for file in &pool.data {
            if let Some((lang, Some(parsed), _)) = parse_locale_file(file, false) {
                files.push((lang, parsed));
            }
        }
        let odd = ODD.replace("FP_OF_A", &crate::i18n::fingerprint("A"));
        let odd = SourceFile::new(
            "locales/ja/odd.yaml".into(),
            "locales/ja/odd.yaml".into(),
            odd.into(),
        );
        let (lang, odd, found) = parse_locale_file(&odd, false).unwrap();
        files.push((lang, odd.unwrap_or_else(|| panic!("{found:?}"))));
        assert!(files.len() > 3, "the built-in pool has translation files");
        for (lang, file) in &files {
            // Against each recorded English (current unless marked for
            // review) and an English nobody translated.
            let englishes = file.entries.iter().filter_map(|e| e.source.clone());
            for english in
                englishes.chain(["Odd".to_string(), "A".to_string(), "nothing".to_string()])
            {
                both_ways(lang, file, &english);
            }
        }
    }
}
