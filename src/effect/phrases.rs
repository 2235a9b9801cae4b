//! Per-language phrase templates (`cards/phrases/<lang>.yaml`): every piece
//! of printed card text comes from here, so a translator fixes a phrasing once
//! for every card.
//!
//! A phrasebook is a tree of strings, flattened to dotted keys
//! (`action.flip`). Templates use `{placeholders}`. A key may have variants
//! chosen by the renderer, written as an extra last part:
//!
//! | variant   | chosen when                                              |
//! |-----------|----------------------------------------------------------|
//! | `3rd`     | the subject is a single other player (`gains`)           |
//! | `plural`  | the phrase is about several cards (`have`, `cards`)      |
//! | `vowel`   | the next word starts with a vowel (`an`)                 |
//! | `cont`    | the clause is followed by another (Japanese 連用形)        |
//! | `from`    | the cards are taken out of the place (`from your hand`)  |
//! | `one`     | the number is 1 (`a +1 STAR token`)                      |
//!
//! A missing variant falls back to the plain key.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Lang;
use super::ast::{Element, Rarity};
use super::keywords::strip_comment_lines;

/// The variants a key may have (see the module docs).
pub const VARIANTS: &[&str] = &["3rd", "plural", "vowel", "cont", "from", "one"];

/// Every required key with the placeholders its template may use.
pub const KEYS: &[(&str, &[&str])] = &[
    // lines and sentences
    ("line.ability", &["timing", "sentences"]),
    ("line.reaction", &["timing", "trigger", "sentences"]),
    ("line.keyword", &["name", "reminder"]),
    ("line.keyword_number", &["name", "n"]),
    ("sentence.join", &[]),
    ("sentence.plain", &["body"]),
    ("sentence.outcome", &["outcome", "body"]),
    ("sentence.condition", &["condition", "body"]),
    ("sentence.may", &["body"]),
    ("sentence.cost", &["cost", "body"]),
    ("clauses.last", &[]),
    ("clauses.join", &[]),
    ("clause.subject", &["player", "action"]),
    ("trigger", &["event"]),
    ("timing.play", &[]),
    ("timing.next", &[]),
    ("timing.flip", &[]),
    ("timing.ongoing", &[]),
    ("timing.top", &[]),
    ("timing.score", &[]),
    ("timing.reaction", &[]),
    ("timing.action", &[]),
    ("outcome.win", &[]),
    ("outcome.lose", &[]),
    ("outcome.tie", &[]),
    // players
    ("player.you", &[]),
    ("player.an_opponent", &[]),
    ("player.each_opponent", &[]),
    ("player.all_players", &[]),
    ("who.you", &[]),
    ("who.an_opponent", &[]),
    ("who.each_opponent", &[]),
    ("who.all_players", &[]),
    ("owner.you", &[]),
    ("owner.their", &[]),
    ("owner.an_opponent", &[]),
    ("owner.each_opponent", &[]),
    ("owner.each_player", &[]),
    ("owner.any", &[]),
    // actions
    ("action.gain_rp", &["amount"]),
    ("action.lose_rp", &["amount"]),
    ("action.gain_slots", &["n", "slots"]),
    ("action.flip", &["target"]),
    ("action.clash", &["with"]),
    ("action.discard", &["target", "to"]),
    ("action.reveal", &["target"]),
    ("action.take", &["target", "to"]),
    ("action.look_at", &["target"]),
    ("action.put_tokens", &["tokens", "target"]),
    ("action.insert_anywhere", &["target"]),
    ("action.insert_beside", &["target", "side", "of"]),
    ("action.copy_effect", &["source"]),
    ("action.attach", &["card", "to"]),
    ("action.return_to_hand", &["target"]),
    ("action.play_card", &["target"]),
    ("word.slot", &[]),
    ("clash.opponent", &[]),
    ("clash.all_players", &[]),
    ("pile.binder", &[]),
    ("pile.store_discard", &[]),
    ("pile.box", &[]),
    ("take_to.hand", &[]),
    ("take_to.binder", &[]),
    ("tokens", &["n"]),
    ("side.left", &[]),
    ("side.right", &[]),
    // states
    ("state.cannot_be_flipped", &["target"]),
    ("state.cannot_be_flipped_by_opponents", &["target"]),
    ("state.star_bonus", &["target", "delta"]),
    ("state.mimic", &["target", "symbols", "source"]),
    ("symbols.elements", &[]),
    ("symbols.types", &[]),
    ("symbols.elements_and_types", &[]),
    // amounts and counts
    ("amount.fixed", &["rp"]),
    ("amount.per_each", &["rp", "count"]),
    ("amount.star_of", &["target"]),
    ("count.cards", &["cards"]),
    ("count.elements", &["among"]),
    ("count.types", &["among"]),
    ("count.tokens", &["on"]),
    ("count.opponents", &[]),
    // targets
    ("target.this", &[]),
    ("target.it", &[]),
    ("target.them", &[]),
    ("target.neighbor_left", &[]),
    ("target.neighbor_right", &[]),
    ("target.top_card", &["owner"]),
    ("target.next_card", &[]),
    ("target.of_them", &["n"]),
    ("target.up_to_of_them", &["n"]),
    ("target.store_top", &[]),
    ("target.store_top_n", &["n"]),
    // card descriptions
    ("query.order", &[]),
    ("query.separator", &[]),
    ("quant.one", &["rest"]),
    ("quant.another", &["rest"]),
    ("quant.number", &["n", "rest"]),
    ("quant.up_to", &["n", "rest"]),
    ("quant.each", &["rest"]),
    ("quant.all", &["rest"]),
    ("quant.bare", &["rest"]),
    ("quant.highest", &["rest"]),
    ("quant.lowest", &["rest"]),
    ("superlative.highest", &[]),
    ("superlative.lowest", &[]),
    ("other", &[]),
    ("adjacent", &[]),
    ("face.up", &[]),
    ("face.down", &[]),
    ("filter", &["name"]),
    ("noun.card", &[]),
    ("noun.single", &[]),
    ("noun.deck_box", &[]),
    ("noun.accessory", &[]),
    ("set", &["set"]),
    ("side_of.left", &[]),
    ("side_of.right", &[]),
    ("place.tableau", &["owner"]),
    ("place.any_tableau", &[]),
    ("place.hand", &["owner"]),
    ("place.binder", &["owner"]),
    ("place.store_discard", &[]),
    ("place.aftermarket", &[]),
    ("star.lower", &["than"]),
    ("star.higher", &["than"]),
    ("star.same", &["than"]),
    ("star.exactly", &["n"]),
    ("star.or_more", &["n"]),
    ("star.or_less", &["n"]),
    // conditions
    ("cond.count_yours", &["bound", "count"]),
    ("cond.count_there", &["bound", "count"]),
    ("cond.count_none_yours", &["count", "unit"]),
    ("cond.count_none_there", &["count", "unit"]),
    ("bound.exactly", &["n", "unit"]),
    ("bound.or_more", &["n", "unit"]),
    ("bound.or_less", &["n", "unit"]),
    ("unit.cards", &[]),
    ("unit.symbols", &[]),
    ("unit.tokens", &[]),
    ("unit.opponents", &[]),
    ("cond_star.lower", &["target", "than"]),
    ("cond_star.higher", &["target", "than"]),
    ("cond_star.same", &["target", "than"]),
    ("cond_star.exactly", &["target", "n"]),
    ("cond_star.or_more", &["target", "n"]),
    ("cond_star.or_less", &["target", "n"]),
    ("cond.is_noun", &["target", "desc"]),
    ("cond.is_adjective", &["target", "desc"]),
    ("cond.is_top_card", &["target", "owner"]),
    // events
    ("event.flips", &["who", "target"]),
    ("event.is_flipped", &["target"]),
    ("event.plays", &["who", "target"]),
    ("event.clash", &["who"]),
    ("event.win", &["who"]),
    ("event.lose", &["who"]),
    ("event.tie", &["who"]),
    ("event.gains_rp", &["who"]),
    ("event.loses_rp", &["who"]),
];

/// Names of the fixed vocabulary, required in every phrasebook.
fn name_keys() -> Vec<String> {
    let mut keys: Vec<String> = Element::ALL
        .iter()
        .map(|e| format!("name.element.{}", e.as_str()))
        .collect();
    keys.extend(
        Rarity::ALL
            .iter()
            .map(|r| format!("name.rarity.{}", r.id())),
    );
    keys.extend(super::BASE_TYPES.iter().map(|t| format!("name.type.{t}")));
    keys
}

/// Layout options of a language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Capitalise the first letter of each sentence.
    #[serde(default)]
    pub capitalize: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PhrasebookFile {
    lang: String,
    #[serde(default)]
    options: Option<Options>,
    phrases: serde_json::Value,
}

/// The phrase templates of one language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phrasebook {
    pub lang: Lang,
    pub options: Options,
    phrases: BTreeMap<String, String>,
}

const EN: &str = include_str!("../../cards/phrases/en.yaml");
const JA: &str = include_str!("../../cards/phrases/ja.yaml");

impl Phrasebook {
    /// The built-in phrasebook of a language (`cards/phrases/<lang>.yaml`).
    pub fn builtin(lang: Lang) -> Phrasebook {
        let text = match lang {
            Lang::En => EN,
            Lang::Ja => JA,
        };
        let value: serde_json::Value = serde_json::from_str(&strip_comment_lines(text))
            .expect("built-in phrasebook is JSON-compatible YAML");
        Phrasebook::from_json(lang, &value).expect("built-in phrasebook is valid")
    }

    /// Reads `{"lang": "en", "options": {...}, "phrases": {...}}`; every
    /// required key must be there, no unknown key or placeholder may be.
    pub fn from_json(lang: Lang, value: &serde_json::Value) -> Result<Phrasebook, String> {
        let file: PhrasebookFile =
            serde_json::from_value(value.clone()).map_err(|e| format!("phrasebook: {e}"))?;
        if file.lang != lang.code() {
            return Err(format!(
                "phrasebook: `lang` is `{}` but `{}` was expected",
                file.lang,
                lang.code()
            ));
        }
        let mut phrases = BTreeMap::new();
        let mut problems = Vec::new();
        flatten("", &file.phrases, &mut phrases, &mut problems);
        let names = name_keys();
        for (key, template) in &phrases {
            let base = base_key(key, &names);
            let Some(base) = base else {
                problems.push(format!("unknown phrase `{key}`"));
                continue;
            };
            let allowed: &[&str] = KEYS
                .iter()
                .find(|(k, _)| *k == base)
                .map_or(&[], |(_, p)| p);
            for placeholder in placeholders(template) {
                if !allowed.contains(&placeholder) {
                    problems.push(format!(
                        "`{key}`: unknown placeholder `{{{placeholder}}}` (allowed: {})",
                        if allowed.is_empty() {
                            "none".to_string()
                        } else {
                            allowed.join(", ")
                        }
                    ));
                }
            }
        }
        for (key, _) in KEYS {
            if !phrases.contains_key(*key) {
                problems.push(format!("missing phrase `{key}`"));
            }
        }
        for key in &names {
            if !phrases.contains_key(key) {
                problems.push(format!("missing phrase `{key}`"));
            }
        }
        if problems.is_empty() {
            Ok(Phrasebook {
                lang,
                options: file.options.unwrap_or(Options { capitalize: false }),
                phrases,
            })
        } else {
            Err(problems.join("\n"))
        }
    }

    /// The template of a key, trying the variants in order, then the plain key.
    pub fn get(&self, key: &str, variants: &[&str]) -> &str {
        for v in variants {
            if let Some(t) = self.phrases.get(&format!("{key}.{v}")) {
                return t;
            }
        }
        self.phrases.get(key).map_or("", String::as_str)
    }

    /// An optional phrase (e.g. the name of a type a set declares).
    pub fn lookup(&self, key: &str) -> Option<&str> {
        self.phrases.get(key).map(String::as_str)
    }

    /// Every key, for tools and tests.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.phrases.keys().map(String::as_str)
    }
}

/// The required key a (maybe variant) key belongs to; `name.type.*` keys for
/// types that sets declare are allowed too.
fn base_key<'k>(key: &'k str, names: &[String]) -> Option<&'k str> {
    let known = |k: &str| KEYS.iter().any(|(r, _)| *r == k) || names.iter().any(|n| n == k);
    if known(key) || key.starts_with("name.type.") {
        return Some(key);
    }
    let (base, variant) = key.rsplit_once('.')?;
    (VARIANTS.contains(&variant) && known(base)).then_some(base)
}

fn flatten(
    prefix: &str,
    value: &serde_json::Value,
    out: &mut BTreeMap<String, String>,
    problems: &mut Vec<String>,
) {
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&key, v, out, problems);
            }
        }
        serde_json::Value::String(s) => {
            out.insert(prefix.to_string(), s.clone());
        }
        other => problems.push(format!("`{prefix}`: expected a string, found {other}")),
    }
}

/// The `{names}` a template uses.
fn placeholders(template: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                out.push(&after[..close]);
                rest = &after[close + 1..];
            }
            None => break,
        }
    }
    out
}

/// Fills a template's placeholders; unknown ones become empty.
pub(crate) fn fill(template: &str, args: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let name = &after[..close];
                if let Some((_, v)) = args.iter().find(|(k, _)| *k == name) {
                    out.push_str(v);
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}
