//! What a query means, said back in English or Japanese
//! (`blades search --explain`).

use crate::effect::Lang;
use crate::words::with_article;

use super::{Field, Flag, Node, Op, Query, Test, Value};

pub(super) fn explain(query: &Query, lang: Lang) -> String {
    match (&query.root, lang) {
        (None, Lang::En) => "every card matches (the query is empty)".to_string(),
        (None, Lang::Ja) => "すべてのカード（条件なし）".to_string(),
        (Some(root), Lang::En) => format!("a card matches when {}", say(root, lang, false)),
        (Some(root), Lang::Ja) => format!("次の条件を満たすカード：{}", say(root, lang, false)),
    }
}

/// A node in words; `nested` puts parentheses around a list of parts.
fn say(node: &Node, lang: Lang, nested: bool) -> String {
    let join = |parts: &[Node], en: &str, ja: &str| {
        let words: Vec<String> = parts.iter().map(|p| say(p, lang, true)).collect();
        let joined = words.join(match lang {
            Lang::En => en,
            Lang::Ja => ja,
        });
        match nested && parts.len() > 1 {
            true => format!("({joined})"),
            false => joined,
        }
    };
    match node {
        Node::All(parts) if parts.is_empty() => match lang {
            Lang::En => "always".to_string(),
            Lang::Ja => "常に".to_string(),
        },
        Node::All(parts) => join(parts, " and ", "、かつ"),
        Node::Any(parts) => join(parts, " or ", "、または"),
        Node::Not(part) => match part.as_ref() {
            Node::Test(test) => term(test, lang, true),
            other => match lang {
                Lang::En => format!("not {}", say(other, lang, true)),
                Lang::Ja => format!("{}ではない", bracket(&say(other, lang, false))),
            },
        },
        Node::Test(test) => term(test, lang, false),
    }
}

fn bracket(text: &str) -> String {
    format!("（{text}）")
}

/// One term in words, maybe negated.
fn term(test: &Test, lang: Lang, negated: bool) -> String {
    let [en, ja] = &test.said;
    let op = if negated { negate(test.op) } else { test.op };
    // Negated containment has no operator of its own.
    let lacks = negated && test.op == Op::Has;
    let regex = matches!(test.value, Value::Regex(_));
    match lang {
        Lang::En => english(test.field, op, lacks, regex, en, &test.value),
        Lang::Ja => japanese(test.field, op, lacks, regex, ja, &test.value),
    }
}

fn negate(op: Op) -> Op {
    match op {
        Op::Has | Op::Eq => Op::Ne,
        Op::Ne => Op::Eq,
        Op::Lt => Op::Ge,
        Op::Ge => Op::Lt,
        Op::Gt => Op::Le,
        Op::Le => Op::Gt,
    }
}

fn english(field: Field, op: Op, lacks: bool, regex: bool, word: &str, value: &Value) -> String {
    let yes = !matches!(op, Op::Ne);
    let text = |what: &str| match (regex, op, lacks) {
        (true, _, _) if yes => format!("{what} matches {word}"),
        (true, _, _) => format!("{what} does not match {word}"),
        (false, _, true) => format!("{what} does not contain {word}"),
        (false, Op::Has, _) => format!("{what} contains {word}"),
        (false, Op::Eq, _) => format!("{what} is {word}"),
        (false, _, _) => format!("{what} is not {word}"),
    };
    let number = |what: &str| match op {
        Op::Has | Op::Eq => format!("{what} is {word}"),
        Op::Ne => format!("{what} is not {word}"),
        Op::Lt => format!("{what} is less than {word}"),
        Op::Gt => format!("{what} is more than {word}"),
        Op::Le => format!("{what} is at most {word}"),
        Op::Ge => format!("{what} is at least {word}"),
    };
    let has = |what: String| match yes {
        true => format!("it has {what}"),
        false => format!("it does not have {what}"),
    };
    let is = |what: String| match yes {
        true => format!("it is {what}"),
        false => format!("it is not {what}"),
    };
    match field {
        Field::Name => text("its name (in any language)"),
        Field::Id => text("its id"),
        Field::Text => text("its effect text (in any language)"),
        Field::Flavor => text("its flavor text (in any language)"),
        Field::Star => number("its STAR"),
        Field::Copies => number("its copy count"),
        Field::Element => has(format!("the {word} element")),
        Field::Type => has(format!("the type {word}")),
        Field::Keyword => has(format!("the keyword {word}")),
        Field::Timing => has(format!("{} ability", with_article(word))),
        Field::Resource => has(format!("an effect that deals in {word}")),
        Field::Set => is(format!("in the set {word}")),
        Field::Kind => is(with_article(word)),
        Field::Rarity => is(format!("of {word} rarity")),
        Field::Flag => match value {
            Value::Flag(Flag::Effect) => has("an effect".to_string()),
            Value::Flag(Flag::Vanilla) => is("vanilla (no effect)".to_string()),
            Value::Flag(Flag::Flavor) => has("flavor text".to_string()),
            Value::Flag(Flag::Translated) => is("translated".to_string()),
            _ => has("a stale translation (its English changed since)".to_string()),
        },
    }
}

fn japanese(field: Field, op: Op, lacks: bool, regex: bool, word: &str, value: &Value) -> String {
    let yes = !matches!(op, Op::Ne);
    let text = |what: &str| match (regex, op, lacks) {
        (true, _, _) if yes => format!("{what}が{word}に一致する"),
        (true, _, _) => format!("{what}が{word}に一致しない"),
        (false, _, true) => format!("{what}に{word}を含まない"),
        (false, Op::Has, _) => format!("{what}に{word}を含む"),
        (false, Op::Eq, _) => format!("{what}が{word}である"),
        (false, _, _) => format!("{what}が{word}ではない"),
    };
    let number = |what: &str| match op {
        Op::Has | Op::Eq => format!("{what}が{word}"),
        Op::Ne => format!("{what}が{word}ではない"),
        Op::Lt => format!("{what}が{word}未満"),
        Op::Gt => format!("{what}が{word}より大きい"),
        Op::Le => format!("{what}が{word}以下"),
        Op::Ge => format!("{what}が{word}以上"),
    };
    let has = |what: String| match yes {
        true => format!("{what}を持つ"),
        false => format!("{what}を持たない"),
    };
    let is = |what: &str| match yes {
        true => format!("{what}が「{word}」"),
        false => format!("{what}が「{word}」ではない"),
    };
    match field {
        Field::Name => text("名前（いずれかの言語）"),
        Field::Id => text("ID"),
        Field::Text => text("効果文（いずれかの言語）"),
        Field::Flavor => text("フレーバー（いずれかの言語）"),
        Field::Star => number("スター"),
        Field::Copies => number("枚数"),
        Field::Element => has(format!("属性「{word}」")),
        Field::Type => has(format!("種族「{word}」")),
        Field::Keyword => has(format!("キーワード「{word}」")),
        Field::Timing => has(format!("タイミング「{word}」の能力")),
        Field::Resource => has(format!("「{word}」を扱う効果")),
        Field::Set => is("セット"),
        Field::Kind => is("種類"),
        Field::Rarity => is("レアリティ"),
        Field::Flag => match (value, yes) {
            (Value::Flag(Flag::Effect), _) => has("効果".to_string()),
            (Value::Flag(Flag::Vanilla), true) => "バニラ（効果なし）である".to_string(),
            (Value::Flag(Flag::Vanilla), false) => "バニラではない".to_string(),
            (Value::Flag(Flag::Flavor), _) => has("フレーバー".to_string()),
            (Value::Flag(Flag::Translated), true) => "翻訳がある".to_string(),
            (Value::Flag(Flag::Translated), false) => "翻訳がない".to_string(),
            (_, true) => "古い翻訳（英語が変わった）がある".to_string(),
            (_, false) => "古い翻訳がない".to_string(),
        },
    }
}
