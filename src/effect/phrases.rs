//! Per-language phrase templates: every piece of printed card text comes
//! from here, so a translator fixes a phrasing once for every card.
//!
//! A phrasebook is a set of templates under dotted keys (`action.flip`).
//! Templates use `{placeholders}`. A key may have variants chosen by the
//! renderer, written as an extra last part:
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
//!
//! Files: English, the source of truth, is `phrases/en.yaml` in the book
//! format (JSON-syntax YAML with `lang`, `options` and nested `phrases`).
//! Every other language is a translation file `phrases/<lang>.yaml` in the
//! locale format of `blades i18n` (`key: {text, source, fingerprint}`, read
//! by [`locale::parse_phrase_file`]), so a template whose English moved is
//! reported stale like any card text. A pool may bring its own books
//! ([`Phrasebooks::of_files`]); the built-in ones are `cards/phrases/`.

use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::{Arc, LazyLock};

use serde::Deserialize;

use super::Lang;
use super::ast::{Element, RarityFilter};
use crate::diagnostics::{Code, Diagnostic};
use crate::i18n::keys::{PHRASES_EN, UnitKey};
use crate::i18n::locale::{self, FileClass, LocaleFile, PhraseOptions};
use crate::pool::SourceFile;
use crate::suggest::closest;
use crate::yaml::{self, Node, NodeValue};

/// The variants a key may have, with when the renderer picks each (see the
/// module docs).
pub(crate) const VARIANTS: &[(&str, &str)] = &[
    ("3rd", "the subject is a single other player (`gains`)"),
    (
        "plural",
        "the phrase is about several cards (`have`, `cards`)",
    ),
    ("vowel", "the next word starts with a vowel (`an`)"),
    (
        "cont",
        "the clause is followed by another (Japanese 連用形)",
    ),
    (
        "from",
        "the cards are taken out of the place (`from your hand`)",
    ),
    ("one", "the number is 1 (`a +1 STAR token`)"),
    (
        "other",
        "`your` in a clause another player does (Japanese あなた, where 自分 would be that player)",
    ),
    (
        "down",
        "the change is negative (Japanese 下がる, where up is 上がる)",
    ),
];

/// Every required key with the placeholders its template may use.
pub(crate) const KEYS: &[(&str, &[&str])] = &[
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
    ("timing.deckbuilding", &[]),
    ("timing.tournament", &[]),
    ("timing.game_end", &[]),
    ("outcome.win", &[]),
    ("outcome.lose", &[]),
    ("outcome.tie", &[]),
    // players
    ("action.gain", &["amount"]),
    ("action.lose", &["amount"]),
    ("action.pay", &["amount"]),
    ("resource.money", &["n"]),
    ("resource.vp", &["n"]),
    ("resource.sell_marker", &["n"]),
    ("player.you", &[]),
    ("player.an_opponent", &[]),
    ("player.each_opponent", &[]),
    ("player.all_players", &[]),
    ("player.that_opponent", &[]),
    ("player.each_opponent_with", &["cmp", "measure"]),
    ("who.you", &[]),
    ("who.an_opponent", &[]),
    ("who.each_opponent", &[]),
    ("who.all_players", &[]),
    ("who.that_opponent", &[]),
    ("who.each_opponent_with", &["cmp", "measure"]),
    ("compare.more", &[]),
    ("compare.fewer", &[]),
    ("compare.each_opponent", &[]),
    ("compare.an_opponent", &[]),
    ("compare.that_opponent", &[]),
    ("measure.rp", &[]),
    ("measure.money", &[]),
    ("measure.vp", &[]),
    ("owner.you", &[]),
    ("owner.their", &[]),
    ("owner.an_opponent", &[]),
    ("owner.each_opponent", &[]),
    ("owner.each_player", &[]),
    ("owner.any", &[]),
    ("owner.that_opponent", &[]),
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
    ("action.sell", &["target"]),
    ("action.buy", &["target"]),
    ("action.to_aftermarket", &["target"]),
    ("action.name_card", &[]),
    ("action.give_friendship", &["cards", "to"]),
    ("action.friendship_cards", &["n"]),
    ("action.give_money", &["amount", "to"]),
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
    ("state.star_bonus", &["target", "delta", "n"]),
    ("state.mimic", &["target", "symbols", "source"]),
    ("cannot.gain_rp", &["who"]),
    ("cannot.clash", &["who"]),
    ("cannot.trade", &["who"]),
    ("cannot.play", &["who", "target"]),
    ("cannot.flip", &["who", "target"]),
    ("cannot.buy", &["who", "target"]),
    ("cannot.sell", &["who", "target"]),
    ("hand_size.increased", &["owner", "n"]),
    ("hand_size.reduced", &["owner", "n"]),
    ("hand_size.exactly", &["owner", "n"]),
    ("rule.uneven_trades", &["owner"]),
    ("rule.fusion_fewer", &["owner", "n"]),
    ("rule.fusion_more", &["owner", "n"]),
    ("rule.deck_limit", &["owner", "n", "noun"]),
    ("state.cost_less", &["target", "amount"]),
    ("state.cost_more", &["target", "amount"]),
    ("state.sell_more", &["target", "amount"]),
    ("state.sell_less", &["target", "amount"]),
    ("symbols.elements", &[]),
    ("symbols.types", &[]),
    ("symbols.elements_and_types", &[]),
    // amounts and counts
    ("amount.fixed", &["rp"]),
    ("amount.per_each", &["rp", "count"]),
    ("amount.resource_per_each", &["amount", "count"]),
    ("amount.star_of", &["target"]),
    ("count.cards", &["cards"]),
    ("count.elements", &["among"]),
    ("count.types", &["among"]),
    ("count.sets", &["among"]),
    ("count.tokens", &["on"]),
    ("count.opponents", &[]),
    ("count.money", &["n"]),
    ("count.opponents_with", &["cmp", "measure"]),
    ("count.friendship", &[]),
    // targets
    ("target.this", &[]),
    ("target.it", &[]),
    ("target.it_next", &[]),
    ("target.them", &[]),
    ("target.rest", &[]),
    ("target.join", &[]),
    ("target.last", &[]),
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
    ("place.store", &[]),
    ("place.deck_box_slot", &["owner"]),
    ("place.accessory_slots", &["owner"]),
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
    ("cond.compare", &["cmp", "measure", "than"]),
    ("cond.is_named", &["target"]),
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
    ("event.turn_starts", &["owner"]),
    ("event.turn_ends", &["owner"]),
    ("event.passes", &["who"]),
    ("event.buys", &["who", "target"]),
    ("event.sells", &["who", "target"]),
    ("event.fuses", &["who"]),
    ("event.makes_collection", &["who"]),
    ("event.trades", &["who"]),
    ("event.deckbuilding_starts", &[]),
    ("event.deckbuilding_ends", &[]),
    ("event.tournament_starts", &[]),
    ("event.tournament_ends", &[]),
    ("sentence.whenever", &["event", "body"]),
    ("sentence.until_turn", &["body"]),
    ("sentence.until_tournament", &["body"]),
    ("sentence.until_deckbuilding", &["body"]),
    ("sentence.until_round", &["body"]),
    ("sentence.turn_start", &["owner", "body"]),
    ("sentence.turn_end", &["owner", "body"]),
    ("sentence.deckbuilding_start", &["body"]),
    ("sentence.choice", &["options"]),
    ("choice.option", &["option"]),
    ("choice.join", &[]),
    ("sentence.deckbuilding_end", &["body"]),
    ("sentence.tournament_start", &["body"]),
    ("sentence.tournament_end", &["body"]),
];

/// Names of the fixed vocabulary, required in every phrasebook.
static NAME_KEYS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let mut keys: Vec<String> = Element::ALL
        .iter()
        .map(|e| format!("name.element.{}", e.as_str()))
        .collect();
    keys.extend(
        RarityFilter::ALL
            .iter()
            .map(|r| format!("name.rarity.{}", r.id())),
    );
    keys.extend(super::BASE_TYPES.iter().map(|t| format!("name.type.{t}")));
    keys
});

/// Every required key: those of [`KEYS`], then the names.
pub(crate) fn required_keys() -> impl Iterator<Item = &'static str> {
    KEYS.iter()
        .map(|(k, _)| *k)
        .chain(NAME_KEYS.iter().map(String::as_str))
}

fn is_required(key: &str) -> bool {
    required_keys().any(|k| k == key)
}

/// The required key a key belongs to: the key itself when it is required
/// (or names a type a set declares, `name.type.<id>`), the plain key of a
/// variant (`action.flip` for `action.flip.3rd`), `None` for an unknown key.
pub(crate) fn base_key(key: &str) -> Option<&str> {
    if is_required(key) || key.starts_with("name.type.") {
        return Some(key);
    }
    let (base, variant) = key.rsplit_once('.')?;
    (is_variant(variant) && is_required(base)).then_some(base)
}

fn is_variant(name: &str) -> bool {
    VARIANTS.iter().any(|(v, _)| *v == name)
}

/// The placeholders a key's template may use (`None` for an unknown key).
pub(crate) fn allowed_placeholders(key: &str) -> Option<&'static [&'static str]> {
    let base = base_key(key)?;
    Some(
        KEYS.iter()
            .find(|(k, _)| *k == base)
            .map_or(&[], |(_, p)| *p),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PhrasebookFile {
    lang: String,
    #[serde(default)]
    options: Option<PhraseOptions>,
    phrases: serde_json::Value,
}

/// One template as written in a file.
#[derive(Clone, Debug, PartialEq)]
pub struct Template {
    /// The dotted key (`action.flip.3rd`).
    pub key: String,
    /// The template as written: spaces at its ends are part of it (` and `).
    pub text: String,
    /// Where the key is written (`0..0` for a book read from JSON).
    pub key_span: Range<usize>,
    /// The text's node in the file (none for a book read from JSON).
    pub node: Option<Node>,
}

impl Template {
    fn text_span(&self) -> Range<usize> {
        self.node
            .as_ref()
            .map_or(self.key_span.clone(), |n| n.span.clone())
    }
}

/// What is wrong with a phrasebook, and where (a byte span of its file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhraseProblem {
    pub kind: ProblemKind,
    pub span: Range<usize>,
    pub message: String,
    pub label: String,
    pub help: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    /// The file does not have the shape of a phrasebook.
    Shape,
    /// A key the renderer does not know.
    UnknownKey,
    /// A placeholder the key's template may not use.
    UnknownPlaceholder,
    /// A required key is not there (for a translation, `blades i18n status`
    /// reports it as missing).
    Missing { key: String },
}

impl PhraseProblem {
    fn shape(
        span: Range<usize>,
        message: impl Into<String>,
        label: &str,
        help: impl Into<String>,
    ) -> Self {
        PhraseProblem {
            kind: ProblemKind::Shape,
            span,
            message: message.into(),
            label: label.into(),
            help: help.into(),
        }
    }

    fn is_missing(&self) -> bool {
        matches!(self.kind, ProblemKind::Missing { .. })
    }
}

/// Located `data-invalid` diagnostics for a book's problems; the missing
/// keys make one diagnostic, not one per key.
pub(crate) fn problem_diagnostics(
    path: &Arc<str>,
    problems: Vec<PhraseProblem>,
) -> Vec<Diagnostic> {
    let (missing, other): (Vec<_>, Vec<_>) =
        problems.into_iter().partition(PhraseProblem::is_missing);
    let mut out: Vec<Diagnostic> = other
        .into_iter()
        .map(|p| {
            Diagnostic::error(Code::DataInvalid, path, p.span, p.message)
                .with_label(p.label)
                .with_help(p.help)
        })
        .collect();
    if let Some(first) = missing.first() {
        const SHOWN: usize = 8;
        let keys: Vec<String> = missing
            .iter()
            .take(SHOWN)
            .filter_map(|p| match &p.kind {
                ProblemKind::Missing { key } => Some(format!("`{key}`")),
                _ => None,
            })
            .collect();
        let more = match missing.len().saturating_sub(SHOWN) {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        let message = if missing.len() == 1 {
            first.message.clone()
        } else {
            format!(
                "missing {} phrases: {}{more}",
                missing.len(),
                keys.join(", ")
            )
        };
        out.push(
            Diagnostic::error(Code::DataInvalid, path, first.span.clone(), message)
                .with_label(first.label.clone())
                .with_help(first.help.clone()),
        );
    }
    out
}

/// Checks templates against [`KEYS`]: known keys, allowed placeholders,
/// each key once, every required key there (reported at `missing_at`, with
/// `missing_help`).
fn validate(
    templates: &[Template],
    missing_at: Range<usize>,
    missing_help: &str,
) -> Vec<PhraseProblem> {
    let mut problems = Vec::new();
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for t in templates {
        if !seen.insert(&t.key) {
            problems.push(PhraseProblem::shape(
                t.key_span.clone(),
                format!("phrase `{}` is written twice", t.key),
                "second time",
                "keep one of the two",
            ));
        }
        let Some(allowed) = allowed_placeholders(&t.key) else {
            let help = match closest(&t.key, required_keys()) {
                Some(best) => format!(
                    "did you mean `{best}`? src/effect/phrases.rs (`KEYS`) lists every key"
                ),
                None => "src/effect/phrases.rs (`KEYS`) lists every key; a variant adds `.3rd`, `.plural`, `.vowel`, `.cont`, `.from` or `.one`".into(),
            };
            problems.push(PhraseProblem {
                kind: ProblemKind::UnknownKey,
                span: t.key_span.clone(),
                message: format!("unknown phrase `{}`", t.key),
                label: "not a phrase key".into(),
                help,
            });
            continue;
        };
        for placeholder in placeholders(&t.text) {
            if allowed.contains(&placeholder) {
                continue;
            }
            let listed = if allowed.is_empty() {
                "none".to_string()
            } else {
                allowed.join(", ")
            };
            let help = match closest(placeholder, allowed.iter().copied()) {
                Some(best) => format!("did you mean `{{{best}}}`?"),
                None if allowed.is_empty() => "this phrase takes no placeholders".into(),
                None => format!(
                    "this phrase may use {}",
                    allowed
                        .iter()
                        .map(|p| format!("`{{{p}}}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            problems.push(PhraseProblem {
                kind: ProblemKind::UnknownPlaceholder,
                span: t.text_span(),
                message: format!(
                    "`{}`: unknown placeholder `{{{placeholder}}}` (allowed: {listed})",
                    t.key
                ),
                label: format!("unknown placeholder `{{{placeholder}}}`"),
                help,
            });
        }
    }
    for key in required_keys() {
        if !seen.contains(key) {
            problems.push(PhraseProblem {
                kind: ProblemKind::Missing { key: key.into() },
                span: missing_at.clone(),
                message: format!("missing phrase `{key}`"),
                label: "required phrases are missing".into(),
                help: missing_help.into(),
            });
        }
    }
    problems
}

/// A book in the English format (`{"lang": …, "options": {…}, "phrases":
/// {…}}`) as read from its YAML tree: every template that could be read,
/// and what is wrong with the rest.
#[derive(Clone, Debug, Default)]
pub struct BookFile {
    pub options: Option<PhraseOptions>,
    /// In file order.
    pub templates: Vec<Template>,
    pub problems: Vec<PhraseProblem>,
    /// The `phrases` key (where missing phrases are reported).
    pub phrases_span: Range<usize>,
}

const BOOK_FIELDS: [&str; 3] = ["lang", "options", "phrases"];

/// Reads a book in the English format; problems are collected, not fatal,
/// so translation tools still see every readable template.
pub(crate) fn read_book_file(doc: &Node, lang: Lang) -> BookFile {
    let mut book = BookFile::default();
    let first_line = doc.span.start..doc.span.start;
    let NodeValue::Map(fields) = &doc.value else {
        book.problems.push(PhraseProblem::shape(
            first_line,
            "a phrasebook is a mapping with `lang`, `options` and `phrases`",
            "not a phrasebook",
            format!(
                "start with `{{\"lang\": \"{}\", \"phrases\": {{…}}}}`",
                lang.code()
            ),
        ));
        return book;
    };
    for required in ["lang", "phrases"] {
        if doc.get(required).is_none() {
            book.problems.push(PhraseProblem::shape(
                first_line.clone(),
                format!("missing field `{required}`"),
                &format!("this needs `{required}`"),
                format!("a phrasebook has {}", BOOK_FIELDS.join(", ")),
            ));
        }
    }
    for field in fields {
        let name = field.key.as_str().unwrap_or_default();
        match name {
            "lang" => {
                if field.value.as_str() != Some(lang.code()) {
                    book.problems.push(PhraseProblem::shape(
                        field.value.span.clone(),
                        format!("`lang` is not `{}`", lang.code()),
                        "wrong language",
                        format!(
                            "this file holds the `{}` phrases: write `\"lang\": \"{}\"`",
                            lang.code(),
                            lang.code()
                        ),
                    ));
                }
            }
            "options" => match serde_json::from_value::<PhraseOptions>(field.value.to_json()) {
                Ok(options) => book.options = Some(options),
                Err(e) => book.problems.push(PhraseProblem::shape(
                    field.value.span.clone(),
                    format!("`options`: {e}"),
                    "not phrase options",
                    "the options are `{\"capitalize\": true}` or `false`",
                )),
            },
            "phrases" => {
                book.phrases_span = field.key.span.clone();
                read_group("", &field.value, &mut book);
            }
            other => {
                let help = match closest(other, BOOK_FIELDS) {
                    Some(best) => format!("did you mean `{best}`?"),
                    None => format!("a phrasebook has {}", BOOK_FIELDS.join(", ")),
                };
                book.problems.push(PhraseProblem::shape(
                    field.key.span.clone(),
                    format!("unknown field `{other}`"),
                    "not a field here",
                    help,
                ));
            }
        }
    }
    book
}

fn read_group(prefix: &str, node: &Node, book: &mut BookFile) {
    let NodeValue::Map(entries) = &node.value else {
        book.problems.push(PhraseProblem::shape(
            node.span.clone(),
            format!("`{prefix}` must be a group of phrases or a template"),
            "expected a mapping",
            "write a template as a string, a group as `{ \"key\": \"template\", … }`",
        ));
        return;
    };
    for entry in entries {
        let Some(name) = entry.key.as_str() else {
            book.problems.push(PhraseProblem::shape(
                entry.key.span.clone(),
                "a phrase key is text",
                "not text",
                "write the key in quotes",
            ));
            continue;
        };
        let key = if prefix.is_empty() {
            name.to_string()
        } else {
            format!("{prefix}.{name}")
        };
        match &entry.value.value {
            NodeValue::Str(text, _) => book.templates.push(Template {
                key,
                text: text.clone(),
                key_span: entry.key.span.clone(),
                node: Some(entry.value.clone()),
            }),
            NodeValue::Map(_) => read_group(&key, &entry.value, book),
            _ => book.problems.push(PhraseProblem::shape(
                entry.value.span.clone(),
                format!("`{key}`: expected a template (a string)"),
                "expected a string",
                "quote the template",
            )),
        }
    }
}

/// The phrase templates of one language. Two books are equal when they
/// print alike, wherever they were read from.
#[derive(Clone, Debug)]
pub struct Phrasebook {
    pub lang: Lang,
    pub options: PhraseOptions,
    /// Hashed, not ordered: rendering looks up several templates per
    /// effect line, on every card of the pool.
    phrases: foldhash::HashMap<Box<str>, Box<str>>,
    /// Whether this is the built-in book of its language (whose English
    /// prints an ability as its canonical source).
    builtin: bool,
}

const EN: &str = include_str!("../../cards/phrases/en.yaml");
const JA: &str = include_str!("../../cards/phrases/ja.yaml");

/// A built-in book as a pool file, shown as `<built-in>/phrases/<lang>.yaml`.
pub(crate) fn builtin_file(lang: Lang) -> SourceFile {
    let relative = format!("phrases/{}.yaml", lang.code());
    let text = match lang {
        Lang::En => EN,
        Lang::Ja => JA,
    };
    SourceFile::new(
        Arc::from(format!("<built-in>/{relative}")),
        relative,
        Arc::from(text),
    )
}

/// The built-in books, read once.
static BUILTIN: LazyLock<Phrasebooks> = LazyLock::new(|| {
    let read = |lang: Lang| {
        let file = builtin_file(lang);
        let mut problems = Vec::new();
        let book = Phrasebook::from_file(lang, &file, &mut problems).unwrap_or_else(|| {
            panic!("built-in phrasebook {} is invalid: {problems:?}", file.path)
        });
        Phrasebook {
            builtin: true,
            ..book
        }
    };
    Phrasebooks {
        en: read(Lang::En),
        ja: read(Lang::Ja),
    }
});

const MISSING_IN_BOOK: &str = "add them under `phrases`; src/effect/phrases.rs (`KEYS`) lists every key with its placeholders";
const MISSING_IN_TRANSLATION: &str = "add them as `key: {text: …, source: …, fingerprint: …}`; `blades i18n status` lists each with its English";

impl PartialEq for Phrasebook {
    fn eq(&self, other: &Phrasebook) -> bool {
        self.lang == other.lang && self.options == other.options && self.phrases == other.phrases
    }
}

impl Eq for Phrasebook {}

impl Phrasebook {
    /// The built-in phrasebook of a language (`cards/phrases/<lang>.yaml`).
    pub fn builtin(lang: Lang) -> Phrasebook {
        BUILTIN.get(lang).clone()
    }

    /// Whether this is the built-in book of its language, not a pool's.
    pub fn is_builtin(&self) -> bool {
        self.builtin
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
        let mut templates = Vec::new();
        let mut problems = Vec::new();
        flatten_json("", &file.phrases, &mut templates, &mut problems);
        let result = Phrasebook::assemble(lang, file.options, templates, 0..0, MISSING_IN_BOOK);
        problems.extend(
            result
                .as_ref()
                .err()
                .into_iter()
                .flatten()
                .map(|p| p.message.clone()),
        );
        match result {
            Ok(book) if problems.is_empty() => Ok(book),
            _ => Err(problems.join("\n")),
        }
    }

    /// A book in the English format, from its YAML tree.
    pub fn from_book(lang: Lang, doc: &Node) -> Result<Phrasebook, Vec<PhraseProblem>> {
        let book = read_book_file(doc, lang);
        let mut problems = book.problems;
        // Every problem at once: the templates read are checked too.
        match Phrasebook::assemble(
            lang,
            book.options,
            book.templates,
            book.phrases_span,
            MISSING_IN_BOOK,
        ) {
            Ok(phrasebook) if problems.is_empty() => Ok(phrasebook),
            Ok(_) => Err(problems),
            Err(more) => {
                problems.extend(more);
                Err(problems)
            }
        }
    }

    /// A language's book from its translation file (`phrases/<lang>.yaml`,
    /// the locale format): the translated templates, whatever their
    /// fingerprints say (a stale template still renders), and the file's
    /// options. Validated like a book: the keys and placeholders must be
    /// known, and every required key must be translated.
    pub fn from_translation(
        lang: Lang,
        file: &LocaleFile,
    ) -> Result<Phrasebook, Vec<PhraseProblem>> {
        if file.lang != lang.code() {
            return Err(vec![PhraseProblem::shape(
                0..0,
                format!(
                    "this file holds `{}` phrases, not `{}`",
                    file.lang,
                    lang.code()
                ),
                "wrong language",
                format!(
                    "the {} phrases are in `phrases/{}.yaml`",
                    lang.code(),
                    lang.code()
                ),
            )]);
        }
        Phrasebook::assemble(
            lang,
            file.options.clone(),
            translation_templates(file),
            0..0,
            MISSING_IN_TRANSLATION,
        )
    }

    /// Reads a language's book from a pool file: English in the book
    /// format, other languages as translation files. Problems become
    /// located diagnostics; a book with any is not returned.
    pub fn from_file(
        lang: Lang,
        file: &SourceFile,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Phrasebook> {
        let result = match lang {
            Lang::En => {
                Phrasebook::from_book(lang, &yaml::parse_reported(file.text(), &file.path, out)?)
            }
            _ => {
                let mut found = Vec::new();
                let parsed = locale::parse_phrase_file(file, lang.code(), &mut found);
                let failed = found.iter().any(Diagnostic::is_error);
                out.extend(found);
                Phrasebook::from_translation(lang, &parsed.filter(|_| !failed)?)
            }
        };
        result
            .map_err(|problems| out.extend(problem_diagnostics(&file.path, problems)))
            .ok()
    }

    fn assemble(
        lang: Lang,
        options: Option<PhraseOptions>,
        templates: Vec<Template>,
        missing_at: Range<usize>,
        missing_help: &str,
    ) -> Result<Phrasebook, Vec<PhraseProblem>> {
        let problems = validate(&templates, missing_at, missing_help);
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(Phrasebook {
            lang,
            builtin: false,
            options: options.unwrap_or(PhraseOptions { capitalize: false }),
            phrases: templates
                .into_iter()
                .map(|t| (t.key.into_boxed_str(), t.text.into_boxed_str()))
                .collect(),
        })
    }

    /// The template of a key, trying the variants in order, then the plain key.
    pub fn get(&self, key: &str, variants: &[&str]) -> &str {
        // `key.variant` is spelled out in a stack buffer: no allocation.
        let mut buffer = [0u8; 96];
        for v in variants {
            let len = key.len() + 1 + v.len();
            if len > buffer.len() {
                if let Some(t) = self.phrases.get(format!("{key}.{v}").as_str()) {
                    return t;
                }
                continue;
            }
            buffer[..key.len()].copy_from_slice(key.as_bytes());
            buffer[key.len()] = b'.';
            buffer[key.len() + 1..len].copy_from_slice(v.as_bytes());
            if let Ok(full) = std::str::from_utf8(&buffer[..len])
                && let Some(t) = self.phrases.get(full)
            {
                return t;
            }
        }
        self.phrases.get(key).map_or("", |t| t)
    }

    /// An optional phrase (e.g. the name of a type a set declares).
    pub fn lookup(&self, key: &str) -> Option<&str> {
        self.phrases.get(key).map(|t| &**t)
    }

    /// Every key, for tools and tests.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        let mut keys: Vec<&str> = self.phrases.keys().map(|k| &**k).collect();
        keys.sort_unstable();
        keys.into_iter()
    }
}

/// The templates of a translation file (its phrase entries, as written).
fn translation_templates(file: &LocaleFile) -> Vec<Template> {
    file.entries
        .iter()
        .filter_map(|e| match &e.key {
            UnitKey::Phrase { key } => Some(Template {
                key: key.clone(),
                text: e.text.clone(),
                key_span: e.key_span.clone(),
                node: e.text_at.as_ref().map(|at| at.node(&e.text)),
            }),
            _ => None,
        })
        .collect()
}

/// What is wrong with the templates of a translation file, apart from
/// missing keys (which `blades i18n status` reports): unknown keys and
/// placeholders, keys written twice.
pub(crate) fn translation_problems(file: &LocaleFile) -> Vec<PhraseProblem> {
    validate(&translation_templates(file), 0..0, "")
        .into_iter()
        .filter(|p| !p.is_missing())
        .collect()
}

/// The books a pool renders with, one per language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phrasebooks {
    pub en: Phrasebook,
    pub ja: Phrasebook,
}

impl Phrasebooks {
    /// The built-in books (`cards/phrases/`).
    pub fn builtin() -> Phrasebooks {
        BUILTIN.clone()
    }

    pub fn get(&self, lang: Lang) -> &Phrasebook {
        match lang {
            Lang::En => &self.en,
            Lang::Ja => &self.ja,
        }
    }

    /// The books among a pool's data files (`phrases/en.yaml`, `phrases/ja.yaml`), each
    /// falling back to the built-in one when the pool has none. A broken
    /// book is an error (located diagnostics) and the built-in one stands
    /// in, as for `keywords.yaml`.
    pub fn of_files(files: &[SourceFile], out: &mut Vec<Diagnostic>) -> Phrasebooks {
        let mut book = |lang: Lang| {
            files
                .iter()
                .find(|f| book_lang(&f.relative) == Some(lang))
                .and_then(|file| Phrasebook::from_file(lang, file, out))
                .unwrap_or_else(|| Phrasebook::builtin(lang))
        };
        Phrasebooks {
            en: book(Lang::En),
            ja: book(Lang::Ja),
        }
    }
}

/// The language whose book a pool file is: `phrases/en.yaml`, or a phrase
/// translation file (`phrases/ja.yaml`).
fn book_lang(relative: &str) -> Option<Lang> {
    if relative == PHRASES_EN {
        return Some(Lang::En);
    }
    match locale::classify(relative)? {
        (code, FileClass::Phrases) => Lang::ALL.into_iter().find(|l| l.code() == code),
        _ => None,
    }
}

fn flatten_json(
    prefix: &str,
    value: &serde_json::Value,
    out: &mut Vec<Template>,
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
                flatten_json(&key, v, out, problems);
            }
        }
        serde_json::Value::String(s) => out.push(Template {
            key: prefix.to_string(),
            text: s.clone(),
            key_span: 0..0,
            node: None,
        }),
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

/// A template with each `{placeholder}` blanked out, byte for byte, so
/// word matching never takes a placeholder's name for a word (`{player}`).
pub(crate) fn mask_placeholders(template: &str) -> String {
    let mut out = template.to_string();
    let mut from = 0;
    while let Some(open) = template[from..].find('{').map(|i| from + i) {
        let Some(close) = template[open..].find('}').map(|i| open + i) else {
            break;
        };
        out.replace_range(open..=close, &" ".repeat(close + 1 - open));
        from = close + 1;
    }
    out
}

/// Fills a template's placeholders; unknown ones become empty.
pub(crate) fn fill(template: &str, args: &[(&str, &str)]) -> String {
    // Templates are short: a byte loop beats a `str::find` per brace (a
    // large build fills hundreds of thousands of them).
    let find = |text: &str, brace: u8| text.bytes().position(|b| b == brace);
    // Room for each value once (placeholders are rarely repeated).
    let values: usize = args.iter().map(|(_, v)| v.len()).sum();
    let mut out = String::with_capacity(template.len() + values);
    let mut rest = template;
    while let Some(open) = find(rest, b'{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match find(after, b'}') {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn source(relative: &str, text: &str) -> SourceFile {
        SourceFile::new(Arc::from(relative), relative.into(), Arc::from(text))
    }

    fn translation(text: &str) -> LocaleFile {
        let mut diagnostics = Vec::new();
        let file =
            locale::parse_phrase_file(&source("phrases/ja.yaml", text), "ja", &mut diagnostics);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        file.unwrap()
    }

    #[test]
    fn variants_belong_to_their_plain_key() {
        assert_eq!(base_key("action.flip"), Some("action.flip"));
        assert_eq!(base_key("action.flip.3rd"), Some("action.flip"));
        assert_eq!(base_key("action.flip.cont"), Some("action.flip"));
        // A required key may end like a variant.
        assert_eq!(base_key("quant.one"), Some("quant.one"));
        assert_eq!(base_key("quant.one.vowel"), Some("quant.one"));
        assert_eq!(base_key("name.type.robot"), Some("name.type.robot"));
        assert_eq!(base_key("action.flip.cheese"), None);
        assert_eq!(base_key("bogus.cont"), None);
        assert_eq!(
            allowed_placeholders("action.flip.cont"),
            Some(&["target"][..])
        );
        assert_eq!(allowed_placeholders("timing.play"), Some(&[][..]));
        assert_eq!(
            mask_placeholders("{player} plays {target}"),
            "         plays         "
        );
    }

    #[test]
    fn the_builtin_japanese_book_is_its_translation_file() {
        let book = Phrasebook::from_translation(Lang::Ja, &translation(JA)).unwrap();
        assert_eq!(book, Phrasebook::builtin(Lang::Ja));
        assert!(!book.options.capitalize);
        // `cont` is Japanese only; English-only variants fall back.
        assert_eq!(book.get("action.flip", &["cont"]), "{target}を裏返し");
        assert_eq!(book.get("action.flip", &["3rd"]), "{target}を裏返す");
        assert_eq!(book.lookup("sentence.join"), Some(""));
        assert!(Phrasebook::builtin(Lang::En).options.capitalize);
    }

    #[test]
    fn translation_problems_are_located() {
        let text = "options: {capitalize: false}\n\
                    action.flip: {text: \"{card}を裏返す\", source: \"flip {target}\"}\n\
                    timing.nxt: {text: ネクスト}\n\
                    timing:\n  play: {text: プレイ}\n\
                    timing.play: {text: プレイ}\n";
        let file = translation(text);
        let problems = translation_problems(&file);
        let found: Vec<(&str, &str)> = problems
            .iter()
            .map(|p| (&text[p.span.clone()], p.message.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                (
                    "\"{card}を裏返す\"",
                    "`action.flip`: unknown placeholder `{card}` (allowed: target)"
                ),
                ("timing.nxt", "unknown phrase `timing.nxt`"),
                ("timing.play", "phrase `timing.play` is written twice"),
            ]
        );
        assert_eq!(problems[0].help, "this phrase may use `{target}`");
        assert!(problems[1].help.starts_with("did you mean `timing.next`?"));
        // The renderer also needs every required key.
        let all = Phrasebook::from_translation(Lang::Ja, &file).unwrap_err();
        let missing = all.iter().filter(|p| p.is_missing()).count();
        assert_eq!(missing, required_keys().count() - 2);
        let diagnostics = problem_diagnostics(&file.path, all);
        assert_eq!(diagnostics.len(), 4, "missing keys make one diagnostic");
        assert!(
            diagnostics[3]
                .message
                .starts_with(&format!("missing {missing} phrases: `line.ability`, ")),
            "{}",
            diagnostics[3].message
        );
        assert!(Phrasebook::from_translation(Lang::En, &file).is_err());
    }

    #[test]
    fn english_books_report_every_problem_located() {
        let text = r#"{ "lang": "ja", "options": {"capitalise": true}, "extra": 1,
  "phrases": { "action": { "flip": "flip {card}" }, "bogus": "x", "n": 3 } }"#;
        let doc = yaml::parse(text).unwrap();
        let problems = Phrasebook::from_book(Lang::En, &doc).unwrap_err();
        let found: Vec<(&str, &str)> = problems
            .iter()
            .filter(|p| !p.is_missing())
            .map(|p| (text[p.span.clone()].trim_end(), p.message.as_str()))
            .collect();
        assert_eq!(found.len(), 6, "{found:#?}");
        assert_eq!(found[0], ("\"ja\"", "`lang` is not `en`"));
        assert_eq!(found[1].0, r#"{"capitalise": true}"#);
        assert!(
            found[1]
                .1
                .starts_with("`options`: unknown field `capitalise`")
        );
        assert_eq!(found[2], ("\"extra\"", "unknown field `extra`"));
        assert_eq!(found[3], ("3", "`n`: expected a template (a string)"));
        assert_eq!(
            found[4],
            (
                "\"flip {card}\"",
                "`action.flip`: unknown placeholder `{card}` (allowed: target)"
            )
        );
        assert_eq!(found[5], ("\"bogus\"", "unknown phrase `bogus`"));
        let missing = problems.iter().find(|p| p.is_missing()).unwrap();
        assert_eq!(&text[missing.span.clone()], "\"phrases\"");
    }

    #[test]
    fn pools_bring_their_own_books() {
        let en = EN.replace(
            r#""flip": "flip {target}""#,
            r#""flip": "turn over {target}""#,
        );
        assert_ne!(en, EN);
        let mut diagnostics = Vec::new();
        let books = Phrasebooks::of_files(&[source("phrases/en.yaml", &en)], &mut diagnostics);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(books.en.get("action.flip", &[]), "turn over {target}");
        // No Japanese book of its own: the built-in one.
        assert_eq!(books.ja, Phrasebook::builtin(Lang::Ja));

        let ja = JA.replace(
            r#"action.flip: {text: "{target}を裏返す""#,
            r#"action.flip: {text: "{card}を裏返す""#,
        );
        let books = Phrasebooks::of_files(&[source("phrases/ja.yaml", &ja)], &mut diagnostics);
        assert_eq!(books, Phrasebooks::builtin(), "the built-in book stands in");
        let codes: Vec<(&str, &str)> = diagnostics
            .iter()
            .map(|d| (d.code.as_str(), &*d.message))
            .collect();
        assert_eq!(
            codes,
            [(
                "data-invalid",
                "`action.flip`: unknown placeholder `{card}` (allowed: target)"
            )]
        );
    }
}
