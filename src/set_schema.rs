//! Validation of a set file against the set schema (generated from
//! [`SetSource`]), with every error mapped back to the YAML node its
//! instance path names, and a suggestion where one helps.

use std::ops::Range;
use std::sync::{Arc, OnceLock};

use jsonschema::Validator;
use jsonschema::error::{TypeKind, ValidationErrorKind};
use serde_json::Value;

use crate::diagnostics::{Code, Diagnostic, Interner};
use crate::model::SetSource;
use crate::suggest::closest;
use crate::yaml::{Node, NodeValue, word_fix};

/// The set-file schema, generated from the model's [`SetSource`].
pub fn set_schema() -> Value {
    schemars::schema_for!(SetSource).to_value()
}

/// The set-file schema, compiled once.
pub struct SetValidator {
    validator: Validator,
    /// One card against `CardSource`: a set's cards are validated one at a
    /// time, so the schema library's errors for a hundred thousand broken
    /// cards are never all held at once.
    card_validator: Validator,
    set_fields: Vec<String>,
    card_fields: Vec<String>,
    stars: std::ops::RangeInclusive<u8>,
}

impl SetValidator {
    /// The shared validator for set files.
    pub fn get() -> &'static SetValidator {
        static VALIDATOR: OnceLock<SetValidator> = OnceLock::new();
        VALIDATOR.get_or_init(|| {
            let schema = set_schema();
            let validator = jsonschema::validator_for(&schema)
                .expect("the generated set schema is a valid JSON Schema");
            let card_schema = serde_json::json!({
                "$defs": schema.get("$defs").cloned().unwrap_or_default(),
                "$ref": "#/$defs/CardSource",
            });
            let card_validator = jsonschema::validator_for(&card_schema)
                .expect("the set schema's card is a valid JSON Schema");
            let fields = |v: Option<&Value>| -> Vec<String> {
                v.and_then(|p| p.as_object())
                    .map(|o| o.keys().cloned().collect())
                    .unwrap_or_default()
            };
            let bound = |name: &str| {
                schema
                    .pointer(&format!("/$defs/CardSource/properties/stars/{name}"))
                    .and_then(Value::as_u64)
                    .and_then(|n| u8::try_from(n).ok())
            };
            SetValidator {
                stars: bound("minimum").unwrap_or(0)..=bound("maximum").unwrap_or(u8::MAX),
                set_fields: fields(schema.get("properties")),
                card_fields: fields(schema.pointer("/$defs/CardSource/properties")),
                validator,
                card_validator,
            }
        })
    }

    /// The STARs the schema allows a card (`1..=10`): a card's STAR outside
    /// them was refused and is not known, so checks that need it skip it.
    pub fn stars(&self) -> std::ops::RangeInclusive<u8> {
        self.stars.clone()
    }

    /// Whether a set document (as JSON) matches the schema: the quick check
    /// that spares a valid document the located diagnostics.
    pub fn is_valid(&self, json: &Value) -> bool {
        self.validator.is_valid(json)
    }

    /// Validates a set document; every schema error becomes a diagnostic at
    /// the node it concerns.
    pub fn validate(&self, path: &Arc<str>, doc: &Node, json: &Value) -> Vec<Diagnostic> {
        let mut texts = Interner::default();
        let mut out = Vec::new();
        let cards = json.get("cards").and_then(Value::as_array);
        let Some(cards) = cards.filter(|_| json.is_object()) else {
            for error in self.validator.iter_errors(json) {
                let pointer = error.instance_path().as_str().to_string();
                let d = self.diagnose(path, doc, &pointer, error.kind(), error.instance());
                out.push(texts.share(d));
            }
            return out;
        };
        // The set without its cards, then each card on its own.
        let mut header: serde_json::Map<String, Value> = json
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(key, _)| *key != "cards")
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        header.insert("cards".into(), Value::Array(Vec::new()));
        let header = Value::Object(header);
        for error in self.validator.iter_errors(&header) {
            let pointer = error.instance_path().as_str().to_string();
            let d = self.diagnose(path, doc, &pointer, error.kind(), error.instance());
            out.push(texts.share(d));
        }
        for (i, card) in cards.iter().enumerate() {
            for error in self.card_validator.iter_errors(card) {
                let pointer = format!("/cards/{i}{}", error.instance_path().as_str());
                let d = self.diagnose(path, doc, &pointer, error.kind(), error.instance());
                out.push(texts.share(d));
            }
        }
        out
    }

    /// Properties allowed at a pointer (the set itself or one of its cards).
    fn fields_at(&self, pointer: &str) -> &[String] {
        if pointer.is_empty() {
            &self.set_fields
        } else {
            &self.card_fields
        }
    }
    fn diagnose(
        &self,
        path: &Arc<str>,
        doc: &Node,
        pointer: &str,
        kind: &ValidationErrorKind,
        instance: &Value,
    ) -> Diagnostic {
        let located = doc.locate(pointer);
        let span = located.node.span.clone();
        let field = field_name(pointer);
        match kind {
            ValidationErrorKind::AdditionalProperties { unexpected } => {
                let name = unexpected.first().cloned().unwrap_or_default();
                let child = format!("{pointer}/{}", name.replace('~', "~0").replace('/', "~1"));
                let span = doc.locate(&child).key.unwrap_or(span);
                unknown_field(path, span, &name, self.fields_at(pointer))
            }
            ValidationErrorKind::Required { property } => {
                let name = property.as_str().unwrap_or_default();
                // Point at the first line of the mapping that lacks the field.
                let span = first_line(located.node, &span);
                Diagnostic::error(
                    Code::MissingField,
                    path,
                    span,
                    format!("missing field `{name}`"),
                )
                .with_label(format!("this needs `{name}`"))
                .with_help(format!("add `{name}: …` here"))
            }
            ValidationErrorKind::Enum { options } => {
                invalid_value(path, span, field, options, instance)
            }
            ValidationErrorKind::Type { kind } => wrong_type(path, span, field, kind, instance),
            ValidationErrorKind::Minimum { limit } | ValidationErrorKind::Maximum { limit } => {
                let low = matches!(kind, ValidationErrorKind::Minimum { .. });
                out_of_range(path, span, field, low, limit, instance)
            }
            ValidationErrorKind::Pattern { .. } => {
                let got = instance.as_str().unwrap_or_default();
                let fix = word_fix(span.clone(), &kebab_case(got));
                Diagnostic::error(
                    Code::InvalidId,
                    path,
                    span,
                    format!("`{got}` is not a kebab-case id"),
                )
                .with_label("not kebab-case")
                .with_help(format!(
                    "ids use lowercase letters, digits and single hyphens, e.g. `{}`",
                    kebab_case(got)
                ))
                .with_fixes(fix)
            }
            ValidationErrorKind::MinLength { .. } => {
                Diagnostic::error(Code::EmptyText, path, span, format!("`{field}` is empty"))
                    .with_label("empty")
                    .with_help(format!("write the {field}"))
            }
            other => Diagnostic::error(
                Code::Schema,
                path,
                span,
                format!("`{field}`: {}", describe_other(other, instance)),
            )
            .with_label("does not match the schema")
            .with_help("see schema/set.schema.json for the expected shape"),
        }
    }
}

/// A field the schema does not know, with the nearest known one.
fn unknown_field(path: &Arc<str>, span: Range<usize>, name: &str, fields: &[String]) -> Diagnostic {
    let best = closest(name, fields.iter().map(String::as_str));
    let fix = best.and_then(|best| word_fix(span.clone(), best));
    let help = match best {
        Some(best) => format!("did you mean `{best}`? Known fields: {}", fields.join(", ")),
        None => format!("known fields: {}", fields.join(", ")),
    };
    Diagnostic::error(
        Code::UnknownField,
        path,
        span,
        format!("unknown field `{name}`"),
    )
    .with_label("not a field here")
    .with_help(help)
    .with_fixes(fix)
}

/// A value outside the schema's list, with the nearest allowed one.
fn invalid_value(
    path: &Arc<str>,
    span: Range<usize>,
    field: &str,
    options: &Value,
    instance: &Value,
) -> Diagnostic {
    let choices: Vec<&str> = options
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let got = display_value(instance);
    let best = instance
        .as_str()
        .and_then(|s| closest(s, choices.iter().copied()));
    let fix = best.and_then(|best| word_fix(span.clone(), best));
    let help = match best {
        Some(best) => format!(
            "did you mean `{best}`? Expected one of: {}",
            choices.join(", ")
        ),
        None => format!("expected one of: {}", choices.join(", ")),
    };
    Diagnostic::error(
        Code::InvalidValue,
        path,
        span,
        format!("{got} is not a valid {field}"),
    )
    .with_label("unknown value")
    .with_help(help)
    .with_fixes(fix)
}

/// A value of the wrong YAML type.
fn wrong_type(
    path: &Arc<str>,
    span: Range<usize>,
    field: &str,
    kind: &TypeKind,
    instance: &Value,
) -> Diagnostic {
    let expected = match kind {
        TypeKind::Single(t) => yaml_type_name(&t.to_string()).to_string(),
        TypeKind::Multiple(set) => set
            .iter()
            .map(|t| t.to_string())
            .filter(|t| t != "null")
            .map(|t| yaml_type_name(&t).to_string())
            .collect::<Vec<_>>()
            .join(" or "),
    };
    Diagnostic::error(
        Code::WrongType,
        path,
        span,
        format!(
            "{} must be {}, found {}",
            subject(field),
            article(&expected),
            json_type(instance)
        ),
    )
    .with_label(format!("expected {expected}"))
    .with_help(type_help(&expected, field))
}

/// A number below the schema's minimum (`low`) or above its maximum.
fn out_of_range(
    path: &Arc<str>,
    span: Range<usize>,
    field: &str,
    low: bool,
    limit: &Value,
    instance: &Value,
) -> Diagnostic {
    let (word, range) = bounds(field);
    Diagnostic::error(
        Code::OutOfRange,
        path,
        span,
        format!(
            "`{field}` is {} but must be {} {limit}",
            display_value(instance),
            if low { "at least" } else { "at most" }
        ),
    )
    .with_label(if low { "too small" } else { "too large" })
    .with_help(format!("{word} range from {range}"))
}

fn describe_other(kind: &ValidationErrorKind, instance: &Value) -> String {
    match kind {
        ValidationErrorKind::MaxLength { limit } => format!("longer than {limit} characters"),
        ValidationErrorKind::MinItems { limit } => format!("needs at least {limit} items"),
        ValidationErrorKind::MaxItems { limit } => format!("allows at most {limit} items"),
        _ => format!("{} does not match the schema", display_value(instance)),
    }
}

/// The last named field of a pointer (`/cards/3/stars` → `stars`).
fn field_name(pointer: &str) -> &str {
    let mut segments = pointer.rsplit('/').filter(|s| !s.is_empty());
    match segments.next() {
        None => "set file",
        // An item of a list is named after the list.
        Some(last) if last.bytes().all(|b| b.is_ascii_digit()) => match segments.next() {
            Some("cards") => "card",
            Some("elements") => "element",
            Some("types") => "type",
            Some("extra-types") => "extra type",
            _ => "item",
        },
        Some(last) => last,
    }
}

/// A JSON Schema type in the words of a YAML author.
fn yaml_type_name(json_type: &str) -> &str {
    match json_type {
        "object" => "mapping",
        "array" => "list",
        "integer" => "whole number",
        "string" => "text",
        other => other,
    }
}

/// Where to point for a mapping that lacks a field: its first key (a
/// whole card's span would underline many lines).
fn first_line(node: &Node, span: &Range<usize>) -> Range<usize> {
    match &node.value {
        NodeValue::Map(entries) if !entries.is_empty() => entries[0].key.span.clone(),
        _ => span.start..span.start,
    }
}

fn bounds(field: &str) -> (&'static str, &'static str) {
    match field {
        "stars" => ("STARs", "1 to 10"),
        "copies" => ("copies", "1 to 9"),
        "cost" => ("costs", "1 to 99 Millennium Dollars"),
        _ => ("values", "the limits in schema/set.schema.json"),
    }
}

fn type_help(expected: &str, field: &str) -> String {
    match expected {
        "whole number" => format!("write `{field}` as a whole number without quotes"),
        "list" => format!("write `{field}` as a list, e.g. `[a, b]`"),
        "text" => format!("quote the {field} if it looks like a number or boolean"),
        "mapping" if field == "set file" => {
            "a set file is a mapping with `id`, `name`, `kind` and `cards`".to_string()
        }
        "mapping" if field == "card" => {
            "write each card as a mapping, e.g. `- {id: ..., name: ..., kind: single, stars: 3}`"
                .to_string()
        }
        "mapping" => "write a mapping of `key: value` lines".to_string(),
        _ => format!("`{field}` must be {expected}"),
    }
}

/// How a message names a field: the pseudo-fields (a list item, the whole
/// file) in words, real keys in backticks.
fn subject(field: &str) -> String {
    match field {
        "set file" => "the set file".to_string(),
        "card" | "element" | "type" | "extra type" | "item" => format!("each {field}"),
        key => format!("`{key}`"),
    }
}

fn article(word: &str) -> String {
    match word {
        "text" => word.to_string(),
        _ => crate::words::with_article(word),
    }
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "nothing (null)",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "a whole number",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

fn display_value(v: &Value) -> String {
    match v {
        Value::String(s) => format!("`{s}`"),
        Value::Array(_) | Value::Object(_) => json_type(v).to_string(),
        other => format!("`{other}`"),
    }
}

/// A kebab-case rendering of any text, for the help line.
pub(crate) fn kebab_case(text: &str) -> String {
    crate::words::Id::suggested(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Findings that say the same thing share their texts: a set of many
    /// empty cards holds one message per missing field, not one per card.
    #[test]
    fn findings_of_many_broken_cards_share_their_texts() {
        let text = "id: big\nname: Big\nkind: expansion\ncost: 3\ncards:\n  - {}\n  - {}\n  - {}\n";
        let doc = crate::yaml::parse(text).unwrap();
        let found = SetValidator::get().validate(&Arc::from("big.yaml"), &doc, &doc.to_json());
        let kinds: Vec<&Diagnostic> = found
            .iter()
            .filter(|d| &*d.message == "missing field `kind`")
            .collect();
        assert_eq!(kinds.len(), 3);
        assert!(Arc::ptr_eq(&kinds[0].message, &kinds[2].message));
        assert!(Arc::ptr_eq(&kinds[0].label, &kinds[1].label));
        let lines: Vec<usize> = kinds.iter().map(|d| d.span.start).collect();
        assert!(lines.windows(2).all(|w| w[0] < w[1]), "{lines:?}");
    }

    #[test]
    fn kebab_case_suggestions() {
        assert_eq!(kebab_case("Canyon Wyrm"), "canyon-wyrm");
        assert_eq!(kebab_case("a__b"), "a-b");
        assert_eq!(kebab_case("!!"), "my-id");
    }

    #[test]
    fn field_names_skip_indices() {
        assert_eq!(field_name("/cards/3/elements/0"), "element");
        assert_eq!(field_name("/cards/3/stars"), "stars");
        assert_eq!(field_name("/cards/3"), "card");
        assert_eq!(field_name(""), "set file");
    }

    #[test]
    fn the_star_range_is_read_from_the_schema() {
        assert_eq!(SetValidator::get().stars(), 1..=10);
    }
}
