//! A query's text into a [`Query`]: the grammar, then every key and value
//! resolved, each mistake a located diagnostic.

use std::ops::Range;
use std::sync::Arc;

use pest::Parser;
use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;

use crate::diagnostics::{Code, Diagnostic};
use crate::suggest::{listing, nearest};

use super::catalog::{Catalog, KEYS, field_of};
use super::grammar::{Rule, SearchParser};
use super::{
    Field, Hint, MAX_NESTING, MAX_QUERY_CHARS, MAX_QUERY_REGEXES, MAX_REGEX_BYTES, Needle, Node,
    Op, QUERY_PATH, QUERY_REGEX_BYTES, Query, Test, Value,
};

pub(super) fn parse(text: &str, catalog: &Catalog, lang: &str) -> Result<Query, Vec<Diagnostic>> {
    let path: Arc<str> = Arc::from(QUERY_PATH);
    let problems = shape(text, &path);
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut pairs = match SearchParser::parse(Rule::query, text) {
        Ok(pairs) => pairs,
        Err(error) => return Err(vec![syntax_error(text, &path, &error)]),
    };
    let mut resolver = Resolver {
        catalog,
        path,
        problems: Vec::new(),
        hints: Vec::new(),
        regexes: Regexes::of(pairs.clone()),
        japanese: lang == "ja",
    };
    let root = pairs
        .next()
        .and_then(|query| query.into_inner().find(|p| p.as_rule() == Rule::expr))
        .map(|expr| resolver.expr(expr));
    if !resolver.problems.is_empty() {
        return Err(resolver.problems);
    }
    Ok(Query {
        text: text.to_string(),
        root,
        hints: resolver.hints,
    })
}

/// Problems the grammar would report less clearly, found by a scan: a
/// query too long, parentheses that do not pair or nest too deep, a phrase
/// or regular expression never closed.
fn shape(text: &str, path: &Arc<str>) -> Vec<Diagnostic> {
    let error = |code: Code, span: Range<usize>, message: &str, label: &str, help: &str| {
        Diagnostic::error(code, path, span, message)
            .with_label(label)
            .with_help(help)
    };
    if let Some((at, _)) = text.char_indices().nth(MAX_QUERY_CHARS) {
        return vec![error(
            Code::SearchSyntax,
            at..text.len(),
            &format!("the query is longer than {MAX_QUERY_CHARS} characters"),
            "past the limit",
            "search with a shorter query",
        )];
    }
    let mut problems = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    // The quote or slash that opened the phrase or regex we are in.
    let mut inside: Option<(usize, char)> = None;
    let mut escaped = false;
    let mut previous: Option<char> = None;
    for (i, c) in text.char_indices() {
        if let Some((_, close)) = inside {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == close {
                inside = None;
            }
            previous = Some(c);
            continue;
        }
        let starts_value = previous.is_none_or(|p| {
            p.is_whitespace() || matches!(p, '(' | ':' | '：' | '=' | '<' | '>' | '-')
        });
        match c {
            '"' => inside = Some((i, '"')),
            '/' if starts_value => inside = Some((i, '/')),
            '(' => {
                open.push(i);
                if open.len() == MAX_NESTING + 1 {
                    problems.push(error(
                        Code::SearchSyntax,
                        i..i + 1,
                        &format!("parentheses nest deeper than {MAX_NESTING}"),
                        "too deep",
                        "take out parentheses that group nothing",
                    ));
                }
            }
            ')' if open.pop().is_none() => {
                problems.push(error(
                    Code::SearchSyntax,
                    i..i + 1,
                    "this parenthesis closes nothing",
                    "no `(` before it",
                    "take it out, or add the `(` it closes",
                ));
            }
            _ => {}
        }
        previous = Some(c);
    }
    if let Some((at, quote)) = inside {
        let (what, help) = match quote {
            '"' => (
                "phrase",
                "end the phrase with `\"` (write `\\\"` for a quote inside it)",
            ),
            _ => (
                "regular expression",
                "end it with `/` (write `\\/` for a slash inside it)",
            ),
        };
        problems.push(error(
            Code::SearchSyntax,
            at..at + 1,
            &format!("this {what} is never closed"),
            "opened here",
            help,
        ));
    }
    for at in open {
        problems.push(error(
            Code::SearchSyntax,
            at..at + 1,
            "this parenthesis is never closed",
            "opened here",
            "close it with `)`",
        ));
    }
    problems.sort_by_key(|d| d.span.start);
    problems
}

/// The help for a regular expression that does not compile: the same
/// text searched literally, written so that it parses (`/[/` → `/\[/`).
fn regex_help(text: &str) -> String {
    let literal = regex::escape(text).replace('/', "\\/");
    format!(
        "did you mean `/{literal}/`, the text itself? The syntax is the `regex` crate's (no look-around or back-references); write `\\/` for a slash"
    )
}

/// What the grammar expected, in words.
fn expected(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::value | Rule::phrase | Rule::regex | Rule::word => "a value",
        Rule::term | Rule::unary | Rule::group | Rule::negate | Rule::conj | Rule::expr => "a term",
        Rule::key => "a key",
        Rule::op => "an operator",
        Rule::or => "`or`",
        Rule::EOI => "the end of the query",
        _ => return None,
    })
}

/// The grammar's error, located: the character where it stopped, and
/// what could have come there.
fn syntax_error(text: &str, path: &Arc<str>, error: &pest::error::Error<Rule>) -> Diagnostic {
    let at = match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let at = crate::diagnostics::char_floor(text, at);
    let next = text[at..].chars().next();
    let span = at..at + next.map_or(0, char::len_utf8);
    let mut wanted: Vec<&str> = Vec::new();
    if let ErrorVariant::ParsingError { positives, .. } = &error.variant {
        for rule in positives {
            if let Some(word) = expected(*rule)
                && !wanted.contains(&word)
            {
                wanted.push(word);
            }
        }
    }
    let before = text[..at].trim_end();
    let after_or = before.len() >= 2
        && before.is_char_boundary(before.len() - 2)
        && before[before.len() - 2..].eq_ignore_ascii_case("or")
        && !before[..before.len() - 2]
            .chars()
            .next_back()
            .is_some_and(|c| !c.is_whitespace() && c != ')');
    let (message, label) = match (next, after_or) {
        (_, true) => (
            "`or` needs a term on each side".to_string(),
            "a term goes here".to_string(),
        ),
        (None, false) => ("the query ends too early".to_string(), label_of(&wanted)),
        (Some(c), _) => (format!("unexpected `{c}` in the query"), label_of(&wanted)),
    };
    let help = if after_or {
        "`or` goes between two terms (`e:fire or e:water`); to search a name for \"or\", quote it"
    } else if matches!(next, Some(':' | '：')) {
        "a key goes right before its operator (`e:fire`); quote a value that holds a colon"
    } else {
        "a term is `key:value` (`e:fire`, `star>=3`) or a word of the name; see `docs/search.md`"
    };
    Diagnostic::error(Code::SearchSyntax, path, span, message)
        .with_label(label)
        .with_help(help)
}

fn label_of(wanted: &[&str]) -> String {
    match wanted.is_empty() {
        true => "not expected here".to_string(),
        false => format!("expected {}", wanted.join(" or ")),
    }
}

/// Turns the parse tree into nodes, resolving keys and values.
struct Resolver<'a> {
    catalog: &'a Catalog<'a>,
    path: Arc<str>,
    problems: Vec<Diagnostic>,
    hints: Vec<Hint>,
    regexes: Regexes,
    /// Help lines list values in Japanese (`--lang ja`); a key written in
    /// Japanese gets them too.
    japanese: bool,
}

/// A query's regular expressions under one budget: how many distinct ones
/// it holds, the bytes each may take compiled, and those compiled so far
/// (a regex written twice is compiled once).
struct Regexes {
    /// Each distinct text, in the order written.
    distinct: std::collections::HashMap<String, usize>,
    /// Bytes each may take compiled (and its lazy automaton's cache).
    each: usize,
    compiled: std::collections::HashMap<String, Arc<regex::Regex>>,
    /// Whether the query's count was reported over the limit already.
    over_reported: bool,
}

impl Regexes {
    fn of(pairs: pest::iterators::Pairs<'_, Rule>) -> Regexes {
        let mut distinct = std::collections::HashMap::new();
        for pair in pairs.flatten().filter(|p| p.as_rule() == Rule::regex) {
            let next = distinct.len();
            distinct.entry(written(pair).text).or_insert(next);
        }
        let shares = distinct.len().clamp(1, MAX_QUERY_REGEXES);
        Regexes {
            distinct,
            each: (QUERY_REGEX_BYTES / shares).min(MAX_REGEX_BYTES),
            compiled: std::collections::HashMap::new(),
            over_reported: false,
        }
    }

    /// Whether `text` is past the query's limit of distinct regexes.
    fn over_limit(&self, text: &str) -> bool {
        self.distinct
            .get(text)
            .is_some_and(|&at| at >= MAX_QUERY_REGEXES)
    }

    fn compile(&mut self, text: &str) -> Result<Arc<regex::Regex>, regex::Error> {
        if let Some(regex) = self.compiled.get(text) {
            return Ok(Arc::clone(regex));
        }
        let regex = regex::RegexBuilder::new(text)
            .case_insensitive(true)
            .size_limit(self.each)
            .dfa_size_limit(self.each)
            .build()?;
        let regex = Arc::new(regex);
        self.compiled.insert(text.to_string(), Arc::clone(&regex));
        Ok(regex)
    }
}

/// The keys whose values a bare word may be meant as, with the key a hint
/// offers and what the value is called.
const HINTED: [(Field, &str, &str); 8] = [
    (Field::Keyword, "kw", "a keyword"),
    (Field::Type, "t", "a type"),
    (Field::Element, "e", "an element"),
    (Field::Set, "set", "a set"),
    (Field::Kind, "kind", "a kind"),
    (Field::Rarity, "r", "a rarity"),
    (Field::Timing, "timing", "a timing"),
    (Field::Resource, "resource", "a resource"),
];

/// The value of a term as written.
struct Written<'i> {
    /// The text, with a phrase's or regex's escapes taken out.
    text: String,
    kind: Rule,
    span: Range<usize>,
    raw: &'i str,
}

impl Resolver<'_> {
    fn expr(&mut self, pair: Pair<'_, Rule>) -> Node {
        let parts: Vec<Node> = pair
            .into_inner()
            .filter(|p| p.as_rule() == Rule::conj)
            .map(|conj| self.conj(conj))
            .collect();
        one_or(parts, Node::Any)
    }

    fn conj(&mut self, pair: Pair<'_, Rule>) -> Node {
        let parts: Vec<Node> = pair.into_inner().map(|unary| self.unary(unary)).collect();
        one_or(parts, Node::All)
    }

    fn unary(&mut self, pair: Pair<'_, Rule>) -> Node {
        let mut negations = 0;
        let mut node = None;
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::negate => negations += 1,
                Rule::group => {
                    let expr = part.into_inner().next();
                    node = expr.map(|e| self.expr(e));
                }
                Rule::term => node = Some(self.term(part)),
                _ => {}
            }
        }
        let node = node.unwrap_or(Node::All(Vec::new()));
        match negations % 2 {
            1 => Node::Not(Box::new(node)),
            _ => node,
        }
    }

    fn term(&mut self, pair: Pair<'_, Rule>) -> Node {
        let span = pair.as_span().start()..pair.as_span().end();
        let mut key = None;
        let mut op = None;
        let mut value = None;
        for part in pair.into_inner() {
            let part_span = part.as_span().start()..part.as_span().end();
            match part.as_rule() {
                Rule::key => key = Some((part.as_str(), part_span)),
                Rule::op => op = Some((part.as_str(), part_span)),
                Rule::value => value = part.into_inner().next().map(written),
                _ => {}
            }
        }
        let Some(value) = value else {
            return Node::All(Vec::new());
        };
        if key.is_none() && value.kind == Rule::word {
            self.hint_other_keys(&value);
        }
        let field = match &key {
            None => Field::Name,
            Some((key, key_span)) => match field_of(key) {
                Some(field) => field,
                None => {
                    self.unknown_key(key, key_span.clone());
                    return Node::All(Vec::new());
                }
            },
        };
        let (op, op_span) = match &op {
            Some((op, op_span)) => (parse_op(op), op_span.clone()),
            None => (Op::Has, span.start..span.start),
        };
        let key_word = key.map_or("name", |(k, _)| k);
        if op.is_order() && !matches!(field, Field::Star | Field::Copies) {
            self.problems.push(
                Diagnostic::error(
                    Code::SearchSyntax,
                    &self.path,
                    op_span,
                    format!("`{}` compares numbers, and `{key_word}` is not a number", op.as_str()),
                )
                .with_label("no order here")
                .with_help(format!(
                    "use `:`, `=` or `!=` with `{key_word}`; `<`, `>`, `<=` and `>=` go with `star` and `copies`"
                )),
            );
            return Node::All(Vec::new());
        }
        match self.value(field, key_word, &value) {
            Some((value, said)) => Node::Test(Test {
                field,
                op,
                value,
                span,
                said,
            }),
            None => Node::All(Vec::new()),
        }
    }

    /// A bare word searches names; when it is also a value of a closed
    /// key (`scurry`, a keyword), says so and offers the term (`kw:scurry`).
    fn hint_other_keys(&mut self, written: &Written<'_>) {
        for (field, key, what) in HINTED {
            if self.catalog.value(field, &written.text).is_some() {
                let word = written.text.as_str();
                self.hints.push(Hint {
                    span: written.span.clone(),
                    instead: format!("{key}:{word}"),
                    text: format!(
                        "`{word}` searches card names; it is also {what}: `{key}:{word}` finds the cards with it"
                    ),
                });
            }
        }
    }

    /// The first regular expression past the query's limit, reported once.
    fn too_many_regexes(&mut self, written: &Written<'_>) {
        if std::mem::replace(&mut self.regexes.over_reported, true) {
            return;
        }
        self.problems.push(
            Diagnostic::error(
                Code::SearchRegex,
                &self.path,
                written.span.clone(),
                format!(
                    "the query has {} different regular expressions; at most {MAX_QUERY_REGEXES} are read",
                    self.regexes.distinct.len()
                ),
            )
            .with_label(format!("regular expression {}", MAX_QUERY_REGEXES + 1))
            .with_help("join alternatives into one: `/ab|cd/` matches either"),
        );
    }

    /// The value resolved for its field, with how to say it back (English,
    /// Japanese); `None` after reporting why not.
    fn value(
        &mut self,
        field: Field,
        key: &str,
        written: &Written<'_>,
    ) -> Option<(Value, [String; 2])> {
        let text_field = matches!(field, Field::Name | Field::Id | Field::Text | Field::Flavor);
        if written.kind == Rule::regex {
            if !text_field {
                self.problems.push(
                    Diagnostic::error(
                        Code::SearchSyntax,
                        &self.path,
                        written.span.clone(),
                        format!("`{key}` takes a word, not a regular expression"),
                    )
                    .with_label("a regular expression")
                    .with_help(
                        "regular expressions search text: `name`, `id`, `o` (the effect text) and `flavor`",
                    ),
                );
                return None;
            }
            if self.regexes.over_limit(&written.text) {
                self.too_many_regexes(written);
                return None;
            }
            return match self.regexes.compile(&written.text) {
                Ok(regex) => {
                    let said = written.raw.to_string();
                    Some((Value::Regex(regex), [said.clone(), said]))
                }
                Err(e) => {
                    let reason = match &e {
                        regex::Error::CompiledTooBig(_) if self.regexes.each < MAX_REGEX_BYTES => {
                            format!(
                                "it would take more than {} KiB compiled (the query's {} KiB shared by its {} regular expressions)",
                                self.regexes.each / 1024,
                                QUERY_REGEX_BYTES / 1024,
                                self.regexes.distinct.len().min(MAX_QUERY_REGEXES)
                            )
                        }
                        regex::Error::CompiledTooBig(_) => format!(
                            "it would take more than {} KiB compiled",
                            MAX_REGEX_BYTES / 1024
                        ),
                        other => other
                            .to_string()
                            .lines()
                            .rev()
                            .find(|l| l.starts_with("error:"))
                            .map_or_else(
                                || other.to_string(),
                                |l| l["error:".len()..].trim().to_string(),
                            ),
                    };
                    self.problems.push(
                        Diagnostic::error(
                            Code::SearchRegex,
                            &self.path,
                            written.span.clone(),
                            format!(
                                "the regular expression `{}` does not compile: {reason}",
                                written.text
                            ),
                        )
                        .with_label("not a valid regular expression")
                        .with_help(regex_help(&written.text)),
                    );
                    None
                }
            };
        }
        if text_field {
            let said = match written.kind {
                Rule::phrase => written.raw.to_string(),
                _ => format!("\"{}\"", written.text),
            };
            return Some((
                Value::Text(Box::new(Needle::new(&written.text))),
                [said.clone(), said],
            ));
        }
        if matches!(field, Field::Star | Field::Copies) {
            // Digits fold as keys do: `star:３` is `star:3`.
            return match super::fold(written.text.trim()).parse::<u32>() {
                Ok(n) => Some((Value::Number(n), [n.to_string(), n.to_string()])),
                Err(_) => {
                    self.problems.push(
                        Diagnostic::error(
                            Code::SearchUnknownValue,
                            &self.path,
                            written.span.clone(),
                            format!("`{}` is not a number", written.text),
                        )
                        .with_label("a whole number goes here")
                        .with_help(format!("`{key}` takes a whole number: `{key}>=3`")),
                    );
                    None
                }
            };
        }
        match self.catalog.value(field, &written.text) {
            Some(value) => {
                let en = self.english(value);
                let ja = self
                    .catalog
                    .japanese_of(field, value)
                    .map_or_else(|| en.clone(), str::to_string);
                let ja = match value {
                    Value::Set(id) => self
                        .catalog
                        .sets
                        .iter()
                        .find(|(i, _, _)| i == id)
                        .and_then(|(_, _, ja)| ja.clone())
                        .unwrap_or(ja),
                    _ => ja,
                };
                Some((value.clone(), [en, ja]))
            }
            None => {
                self.unknown_value(field, key, written);
                None
            }
        }
    }

    /// How a closed value is said in English.
    fn english(&self, value: &Value) -> String {
        match value {
            Value::Element(e) => e.as_str().to_string(),
            Value::Kind(k) => k.as_str().replace('-', " "),
            Value::Rarity(r) => r.words().to_string(),
            Value::Type(t) => t.clone(),
            Value::Set(id) => self
                .catalog
                .sets
                .iter()
                .find(|(i, _, _)| i == id)
                .map_or_else(|| id.clone(), |(_, name, _)| name.clone()),
            Value::Timing(t) => t.word().to_string(),
            Value::Resource(h) => h.word().to_string(),
            Value::Keyword(k) => self.catalog.keyword_name(k).to_string(),
            Value::Flag(f) => f.as_str().to_string(),
            Value::Text(t) => t.text.clone(),
            Value::Regex(r) => r.as_str().to_string(),
            Value::Number(n) => n.to_string(),
        }
    }

    fn unknown_key(&mut self, key: &str, span: Range<usize>) {
        let names = KEYS.iter().map(|(k, _)| *k);
        let near = nearest(key, names, 3);
        let english: Vec<&str> = KEYS
            .iter()
            .map(|(k, _)| *k)
            .filter(|k| k.is_ascii())
            .collect();
        let mut help = match near.is_empty() {
            false => format!("did you mean {}? ", quoted(&near)),
            true => String::new(),
        };
        help.push_str(&format!("Keys: {}", english.join(", ")));
        self.problems.push(
            Diagnostic::error(
                Code::SearchUnknownKey,
                &self.path,
                span,
                format!("`{key}` is not a search key"),
            )
            .with_label("unknown key")
            .with_help(help),
        );
    }

    fn unknown_value(&mut self, field: Field, key: &str, written: &Written<'_>) {
        let near = nearest(&written.text, self.catalog.words(field), 3);
        let japanese = self.japanese || !key.is_ascii();
        let in_language = |w: &&str| w.is_ascii() != japanese;
        let mut known: Vec<&str> = self.catalog.words(field).filter(in_language).collect();
        if known.is_empty() {
            // No word of this key in Japanese (a pool's own types): English.
            known = self.catalog.words(field).filter(|w| w.is_ascii()).collect();
        }
        let mut help = match near.is_empty() {
            false => format!("did you mean {}? ", quoted(&near)),
            true => String::new(),
        };
        help.push_str(&format!("`{key}` takes {}", listing(&known)));
        self.problems.push(
            Diagnostic::error(
                Code::SearchUnknownValue,
                &self.path,
                written.span.clone(),
                format!("`{}` is not a value of `{key}`", written.text),
            )
            .with_label("unknown value")
            .with_help(help),
        );
    }
}

/// A value pair as written.
fn written(pair: Pair<'_, Rule>) -> Written<'_> {
    let kind = pair.as_rule();
    let span = pair.as_span().start()..pair.as_span().end();
    let raw = pair.as_str();
    let inner = pair.clone().into_inner().next().map_or(raw, |p| p.as_str());
    let text = match kind {
        Rule::phrase => unescape(inner, '"'),
        Rule::regex => inner.replace("\\/", "/"),
        _ => raw.to_string(),
    };
    Written {
        text,
        kind,
        span,
        raw,
    }
}

/// A phrase's text: `\"` is `"` and `\\` is `\`.
fn unescape(text: &str, quote: char) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(next) if next == quote || next == '\\' => out.push(next),
                Some(next) => {
                    out.push('\\');
                    out.push(next);
                }
                None => out.push('\\'),
            },
            c => out.push(c),
        }
    }
    out
}

fn parse_op(op: &str) -> Op {
    match op {
        "=" => Op::Eq,
        "!=" => Op::Ne,
        "<" => Op::Lt,
        ">" => Op::Gt,
        "<=" => Op::Le,
        ">=" => Op::Ge,
        _ => Op::Has,
    }
}

/// One part as itself, several joined.
fn one_or(mut parts: Vec<Node>, join: fn(Vec<Node>) -> Node) -> Node {
    match parts.len() {
        1 => parts.remove(0),
        _ => join(parts),
    }
}

fn quoted(words: &[&str]) -> String {
    words
        .iter()
        .map(|w| format!("`{w}`"))
        .collect::<Vec<_>>()
        .join(" or ")
}
