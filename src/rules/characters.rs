//! The characters (`data/characters.yaml`, embedded in the binary) and what
//! they change in the checks. A character is named by id, English name or
//! Japanese name, folded like card names. What a character changes in a
//! deck is the deck format's business (its `modifiers`).

use std::sync::OnceLock;

use serde::Deserialize;

use crate::cards::{LookupError, NameIndex, NameSource};
use crate::words::Id;
use crate::yaml;

/// The embedded character data.
pub(crate) const CHARACTERS_YAML: &str = include_str!("../../data/characters.yaml");

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Character {
    pub id: Id,
    pub name: String,
    /// Japanese name.
    #[serde(default)]
    pub ja: Option<String>,
    /// Other names a player may write.
    #[serde(default)]
    pub also: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CharactersFile {
    characters: Vec<Character>,
}

struct Loaded {
    characters: Vec<Character>,
    names: NameIndex,
}

fn loaded() -> &'static Loaded {
    static LOADED: OnceLock<Loaded> = OnceLock::new();
    LOADED.get_or_init(|| {
        let file: CharactersFile = parse(CHARACTERS_YAML).expect("data/characters.yaml is valid");
        let mut names = NameIndex::new();
        for (i, c) in file.characters.iter().enumerate() {
            names.insert(&c.id.0, NameSource::Id, i);
            names.insert(&c.name, NameSource::English, i);
            for name in &c.also {
                names.insert(name, NameSource::English, i);
            }
            if let Some(ja) = &c.ja {
                names.insert(ja, NameSource::Translation, i);
            }
        }
        Loaded {
            characters: file.characters,
            names,
        }
    })
}

fn parse(text: &str) -> Result<CharactersFile, String> {
    let doc = yaml::parse(text).map_err(|e| e.message)?;
    serde_json::from_value(doc.to_json()).map_err(|e| e.to_string())
}

/// Every character, in file order.
pub fn all() -> &'static [Character] {
    &loaded().characters
}

/// The character a reference names (id, name or Japanese name).
pub fn resolve(reference: &str) -> Result<&'static Character, LookupError> {
    let loaded = loaded();
    loaded
        .names
        .resolve(reference)
        .map(|i| &loaded.characters[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_data_is_valid_and_unique() {
        let all = all();
        assert!(all.len() >= 2);
        let mut ids: Vec<&str> = all.iter().map(|c| c.id.0.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), all.len());
    }

    #[test]
    fn deques_is_named_many_ways() {
        let deques = resolve("deques").unwrap();
        assert_eq!(resolve("Deques Applenti").unwrap(), deques);
        assert_eq!(resolve("deques  applenti").unwrap(), deques);
        assert_eq!(resolve("デックス・アプレンティ").unwrap(), deques);
        assert_eq!(resolve("power creep").unwrap().id.0, "power-creep");
    }

    #[test]
    fn unknown_characters_get_suggestions() {
        match resolve("Dekues") {
            Err(LookupError::Unknown { suggestions }) => {
                assert_eq!(suggestions, ["Deques Applenti"]);
            }
            other => panic!("{other:?}"),
        }
    }
}
