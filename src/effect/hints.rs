//! Help for mistakes the grammar's "expected …" cannot name: the text is
//! close to the language but written another way (a full-width colon,
//! Japanese, a number in words, `this card's STAR`, `If you win,`, a
//! misspelt verb). Each hint says what to write; where a rewrite of the
//! line parses, the help shows the line rewritten.

use pest::Parser as _;

use super::Lang;
use super::ast::Timing;
use super::grammar::{EffectParser, Rule};
use super::keywords::Keywords;
use super::phrases::Phrasebook;

/// A finding's parts that a hint replaces: the span (in the line), the
/// message and label (when the grammar's are not the best words), the help.
pub(crate) struct Hint {
    pub span: (usize, usize),
    pub message: Option<String>,
    pub label: Option<String>,
    pub help: String,
    /// The text the help says to write over the span, when it names one.
    pub replacement: Option<String>,
}

/// Whether `line` is a well-formed ability (a rewrite worth showing).
fn parses(line: &str) -> bool {
    EffectParser::parse(Rule::ability_line, line).is_ok()
}

/// The help that shows the line rewritten, when that parses; else `plain`.
fn with_rewrite(rewritten: &str, shown: impl FnOnce(&str) -> String, plain: String) -> String {
    if parses(rewritten) {
        shown(rewritten)
    } else {
        plain
    }
}

/// The first hint that fits an error at `pos` of an ability line, whose
/// word there is `found`.
pub(crate) fn for_ability(line: &str, pos: usize, found: &str) -> Option<Hint> {
    japanese(line, pos)
        .or_else(|| full_width(line, pos))
        .or_else(|| outside_the_game(line, pos, found))
        .or_else(|| each_of_your_turns(line, pos))
        .or_else(|| the_most(line, pos))
        .or_else(|| if_you_do(line, pos))
        .or_else(|| end_of_the_game(line, pos))
        .or_else(|| maximum_hand_size(line, pos))
        .or_else(|| trade_by_effect(line, pos))
        .or_else(|| gain_friendship(line, pos))
        .or_else(|| discard_your_hand(line, pos))
        .or_else(|| that_card(line, pos, found))
        // `Draw` and `that` read as an element or type word: the error
        // shows up after them.
        .or_else(|| {
            let (start, end) = word_before(line, pos)?;
            let word = &line[start..end];
            outside_the_game(line, start, word).or_else(|| that_card(line, start, word))
        })
        .or_else(|| choice_spelling(line, pos))
        .or_else(|| clash_result(line, pos, found))
        .or_else(|| possessive_star(line, pos))
        .or_else(|| number_word(line, pos, found))
}

/// A hint for a line that is neither an ability nor a keyword.
pub(crate) fn for_other_line(line: &str) -> Option<Hint> {
    japanese(line, line.len()).or_else(|| full_width(line, line.len()))
}

// ───────────────────────── other scripts ─────────────────────────

/// Kana or kanji.
fn is_japanese(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30ff}' | '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}' | '\u{ff66}'..='\u{ff9f}')
}

/// The ASCII character a full-width one stands for (`：` → `:`).
fn ascii_of(c: char) -> Option<char> {
    match c {
        '\u{ff01}'..='\u{ff5e}' => char::from_u32(c as u32 - 0xfee0),
        '\u{3000}' => Some(' '),
        '、' => Some(','),
        '。' => Some('.'),
        _ => None,
    }
}

/// Japanese where the English effect source goes (from `from` on, or
/// from its first Japanese character if that comes first). The Japanese
/// card text is rendered from the English; a Japanese timing word or a
/// built-in keyword's Japanese name is named in English.
fn japanese(line: &str, from: usize) -> Option<Hint> {
    let first = line.find(is_japanese)?;
    let start = first.min(from);
    let book = Phrasebook::builtin(Lang::Ja);
    let timing = Timing::ALL.iter().find_map(|t| {
        let ja = book.lookup(&format!("timing.{}", t.phrase_key()))?;
        let rest = line.strip_prefix(ja)?;
        rest.starts_with(['：', ':'])
            .then(|| format!("; `{ja}：` is `{}:`", t.word()))
    });
    let name = line.trim_end_matches(['。', '.', ' ']);
    let keyword = Keywords::builtin()
        .iter()
        .find(|k| k.name.ja == name)
        .map(|k| {
            format!(
                "; `{name}` is the keyword `{}`: write `{}.`",
                k.name.en, k.name.en
            )
        });
    let help = format!(
        "write the effect in English, in the words of the effect language (`Play: Gain 2 RP.`, `Scurry.`); its Japanese text is rendered from it{}",
        keyword.or(timing).unwrap_or_default()
    );
    Some(Hint {
        replacement: None,
        span: (start, line.len()),
        message: Some("effect text is written in English; this is Japanese".to_string()),
        label: Some("Japanese text".to_string()),
        help,
    })
}

/// A full-width character (`：`, `。`, `２`) at or before the error.
fn full_width(line: &str, pos: usize) -> Option<Hint> {
    let (at, wide) = line.char_indices().find(|(_, c)| ascii_of(*c).is_some())?;
    if at > pos {
        return None;
    }
    let ascii = ascii_of(wide)?;
    let rewritten: String = line.chars().map(|c| ascii_of(c).unwrap_or(c)).collect();
    let help = with_rewrite(
        &rewritten,
        |r| format!("write the ASCII `{ascii}`, not the full-width `{wide}`: `{r}`"),
        format!("write the ASCII `{ascii}`, not the full-width `{wide}`"),
    );
    Some(Hint {
        replacement: None,
        span: (at, at + wide.len_utf8()),
        message: Some(format!("`{wide}` is a full-width character")),
        label: Some(format!("full-width `{wide}`")),
        help,
    })
}

// ─────────────────────────── phrasings ───────────────────────────

/// The start of the word `word` (any case) that ends at or before `end`,
/// searching backwards.
fn word_start_before(line: &str, end: usize, word: &str) -> Option<usize> {
    let lower = line[..end].to_ascii_lowercase();
    let mut from = lower.len();
    while let Some(i) = lower[..from].rfind(word) {
        let before_ok = i == 0 || !lower.as_bytes()[i - 1].is_ascii_alphanumeric();
        let after = i + word.len();
        let after_ok = after >= lower.len() || !lower.as_bytes()[after].is_ascii_alphanumeric();
        if before_ok && after_ok {
            return Some(i);
        }
        from = i;
    }
    None
}

/// `If you win,`: a clash result is a label after the clash (`Win:`), not
/// a condition.
fn clash_result(line: &str, pos: usize, found: &str) -> Option<Hint> {
    let outcome = match found.to_ascii_lowercase().as_str() {
        "win" | "wins" | "won" => "Win",
        "lose" | "loses" | "lost" => "Lose",
        "tie" | "ties" | "tied" => "Tie",
        _ => return None,
    };
    let you = word_start_before(line, pos, "you")?;
    if !line[you..pos].trim().eq_ignore_ascii_case("you") {
        return None;
    }
    let start = word_start_before(line, you, "if")?;
    if !line[start..you].trim().eq_ignore_ascii_case("if") {
        return None;
    }
    let comma = pos + line[pos..].find(',')?;
    let (before, after) = (&line[..start], line[comma + 1..].trim_start());
    let written = &line[start..=comma];
    let clash_before = word_start_before(before, before.len(), "clash").is_some()
        || word_start_before(before, before.len(), "clashes").is_some();
    let rewritten = match clash_before {
        true => format!("{before}{outcome}: {after}"),
        false => format!("{before}Clash with an opponent. {outcome}: {after}"),
    };
    let help = with_rewrite(
        &rewritten,
        |r| format!("a clash result is written `{outcome}:` after a clash: write `{r}`"),
        format!(
            "a clash result is written `{outcome}:` after a clash (`Clash with an opponent. {outcome}: Gain 2 RP.`); `If` takes a count or a card (`If you have 3 or more fire cards in your tableau,`)"
        ),
    );
    Some(Hint {
        replacement: None,
        span: (start, comma + 1),
        message: Some(format!(
            "`{written}` is not a condition of the effect language"
        )),
        label: Some("a clash result".to_string()),
        help,
    })
}

// ─────────────── what other card games say, taught ───────────────

/// `Draw a card`: words of other card games. Millennium Blades has no deck
/// to draw from during play (new cards come from the Store).
fn outside_the_game(line: &str, pos: usize, found: &str) -> Option<Hint> {
    let word = found.to_ascii_lowercase();
    let end = pos + found.len();
    match word.as_str() {
        "draw" | "draws" => {
            let rest = line[end..].trim_start();
            let lower = rest.to_ascii_lowercase();
            let (taken, cards) = if lower.starts_with("a card") {
                ("a card".len(), "the top card of the Store".to_string())
            } else {
                let n: String = lower.chars().take_while(char::is_ascii_digit).collect();
                let after = lower[n.len()..].trim_start();
                if n.is_empty() || !after.starts_with("cards") {
                    (0, "the top card of the Store".to_string())
                } else {
                    (
                        lower.len() - after.len() + "cards".len(),
                        format!("the top {n} cards of the Store"),
                    )
                }
            };
            let take = if found.starts_with(char::is_uppercase) {
                "Take"
            } else {
                "take"
            };
            let replaced_end = line.len() - rest.len() + taken;
            let rewritten = format!(
                "{}{take} {cards} into your hand{}",
                &line[..pos],
                &line[replaced_end..]
            );
            Some(Hint {
                replacement: None,
                span: (pos, end),
                message: Some(format!(
                    "`{found}` is not an action of Millennium Blades: there is no deck to draw from during play"
                )),
                label: Some("a word of other card games".to_string()),
                help: with_rewrite(
                    &rewritten,
                    |r| format!("cards come from the Store: write `{r}`"),
                    "cards come from the Store: `take the top card of the Store into your hand`"
                        .to_string(),
                ),
            })
        }
        _ => None,
    }
}

/// A choice spelled as other games spell it (`Choose one: a or b.`): the
/// language writes `Choose one — a; or b.`, and the hint rewrites the line so.
fn choice_spelling(line: &str, pos: usize) -> Option<Hint> {
    let start = line.to_ascii_lowercase().find("choose one")?;
    (pos >= start).then_some(())?;
    let after = start + "choose one".len();
    let body = line[after..].trim_start_matches([' ', ':', ',', '—', '–', '-']);
    let (body, stop) = match body.trim_end().strip_suffix('.') {
        Some(b) => (b, "."),
        None => (body.trim_end(), ""),
    };
    let options: Vec<&str> = body
        .split(';')
        .flat_map(|part| part.split(" or "))
        .map(|o| o.trim().trim_start_matches("or ").trim_end_matches(','))
        .filter(|o| !o.is_empty())
        .collect();
    let rewritten = format!(
        "{}{} — {}{stop}",
        &line[..start],
        &line[start..after],
        options.join("; or ")
    );
    Some(Hint {
        span: (start, line.len()),
        message: Some(
            "a choice is written `Choose one — <option>; or <option>`: a dash after `one`, `; or` between the options"
                .to_string(),
        ),
        label: Some("a choice".to_string()),
        help: with_rewrite(
            &rewritten,
            |r| format!("write `{r}`"),
            "write `Choose one — gain 2 RP; or flip this card.`, each option's clauses as a sentence's".to_string(),
        ),
        replacement: parses(&rewritten).then(|| rewritten[start..].to_string()),
    })
}

/// Where the first of `phrases` found in `line` (any case) starts and
/// ends, when the error at `pos` is inside it.
fn phrase_at(line: &str, pos: usize, phrases: &[&str]) -> Option<(usize, usize)> {
    let lower = line.to_ascii_lowercase();
    let (start, phrase) = phrases
        .iter()
        .find_map(|p| lower.find(p).map(|i| (i, *p)))?;
    let end = start + phrase.len();
    (start..=end).contains(&pos).then_some((start, end))
}

/// `At the start of each of your turns`: the language says `At the start
/// of your turn` (each turn is meant: the sentence is a lasting one).
fn each_of_your_turns(line: &str, pos: usize) -> Option<Hint> {
    let (start, end) = phrase_at(line, pos, &["each of your turns", "each of your turn"])?;
    let rewritten = format!("{}your turn{}", &line[..start], &line[end..]);
    Some(Hint {
        replacement: None,
        span: (start, end),
        message: Some(format!(
            "`{}` is not how the effect language says it",
            &line[start..end]
        )),
        label: Some("every turn of yours".to_string()),
        help: with_rewrite(
            &rewritten,
            |r| format!("`at the start of your turn` happens on each of your turns: write `{r}`"),
            "write `at the start of your turn` (in an `Ongoing:` or `Top:` ability it happens on each of your turns)".to_string(),
        ),
    })
}

/// `you have the most RP`: a tie makes it unclear, so the language compares
/// with each opponent (`you have more RP than each opponent`: you alone).
fn the_most(line: &str, pos: usize) -> Option<Hint> {
    let lower = line.to_ascii_lowercase();
    let (start, more, most) = [
        ("the most ", "more", "most"),
        ("the fewest ", "fewer", "fewest"),
        ("the least ", "fewer", "fewest"),
    ]
    .iter()
    .find_map(|(p, more, most)| lower.find(p).map(|i| (i, *more, *most)))
    .filter(|(i, _, _)| *i == pos)?;
    let after = start + lower[start..].find(' ')? + 1;
    let after = after + lower[after..].find(' ')? + 1;
    let measure = ["millennium dollars", "rp", "vp"]
        .into_iter()
        .find(|m| lower[after..].starts_with(m))?;
    let end = after + measure.len();
    let rewritten = format!(
        "{}{more} {} than each opponent{}",
        &line[..start],
        &line[after..end],
        &line[end..]
    );
    Some(Hint {
        replacement: None,
        span: (start, end),
        message: Some(format!(
            "`{}` does not say who has it when players tie",
            &line[start..end]
        )),
        label: Some("and on a tie?".to_string()),
        help: with_rewrite(
            &rewritten,
            |r| format!("compare with each opponent (you alone have the {most}): `{r}`"),
            format!("write `{more} {} than each opponent`", &line[after..end]),
        ),
    })
}

/// `You may discard a card. If you do, gain 3 RP.`: the language ties a
/// result to what pays for it with `to` (`You may discard a card to gain 3
/// RP.`), which says the same: the rest happens only when it is paid.
fn if_you_do(line: &str, pos: usize) -> Option<Hint> {
    let (start, end) = phrase_at(line, pos, &["if you do"])?;
    // The sentence before, whose full stop the rewrite replaces with `to`.
    let before = line[..start].trim_end().strip_suffix('.')?;
    let rest = line[end..].trim_start().strip_prefix(',')?.trim_start();
    let rewritten = format!("{before} to {rest}");
    Some(Hint {
        replacement: None,
        span: (start, end),
        message: Some(
            "`If you do` ties a sentence to the one before, as other card games write it"
                .to_string(),
        ),
        label: Some("what pays for what follows".to_string()),
        help: with_rewrite(
            &rewritten,
            |r| {
                format!(
                    "say what pays for it with `to` (the rest happens only when it is done): `{r}`"
                )
            },
            "say what pays for it with `to`: `You may discard a card from your hand to gain 3 RP.`"
                .to_string(),
        ),
    })
}

/// `At the end of the game,` inside another timing: the end of the game
/// has a timing word of its own, after every phase's abilities have ended.
fn end_of_the_game(line: &str, pos: usize) -> Option<Hint> {
    let (start, end) = phrase_at(line, pos, &["at the end of the game", "when the game ends"])?;
    let colon = line.find(':').filter(|c| *c < start)?;
    let rest = line[end..]
        .trim_start()
        .trim_start_matches(',')
        .trim_start();
    let rewritten = format!(
        "Game End: {}{}",
        rest.get(..1)?.to_uppercase(),
        rest.get(1..)?
    );
    Some(Hint {
        replacement: None,
        span: (start, end),
        message: Some(format!(
            "`{}` is a timing of its own: every phase's abilities have ended by then",
            &line[start..end]
        )),
        label: Some("the end of the game".to_string()),
        help: with_rewrite(
            &rewritten,
            |r| format!("write it as a `Game End:` ability (ゲーム終了): `{r}`"),
            format!(
                "write it as a `Game End:` ability in place of `{}:` (`Game End: Gain 1 VP.`)",
                &line[..colon]
            ),
        ),
    })
}

/// `maximum hand size`: the rulebook's `hand size` is the maximum already.
fn maximum_hand_size(line: &str, pos: usize) -> Option<Hint> {
    let (start, end) = phrase_at(
        line,
        pos,
        &["maximum hand size", "max hand size", "hand limit"],
    )?;
    let rewritten = format!("{}hand size{}", &line[..start], &line[end..]);
    Some(Hint {
        replacement: None,
        span: (start, end),
        message: Some(format!(
            "`{}`: the rulebook calls the most cards a player may hold their `hand size`",
            &line[start..end]
        )),
        label: Some("a hand size".to_string()),
        help: with_rewrite(
            &rewritten,
            |r| format!("write `{r}`"),
            "write `Your hand size is increased by 1.` (in a `Deckbuilding:` ability)".to_string(),
        ),
    })
}

/// `Trade a card with an opponent`: a trade is two players' agreement, not
/// something an effect makes happen.
fn trade_by_effect(line: &str, pos: usize) -> Option<Hint> {
    let (start, end) = phrase_at(
        line,
        pos,
        &["trade ", "make uneven trades", "uneven trades"],
    )?;
    let uneven = line[start..end].to_ascii_lowercase().contains("uneven");
    let help = match uneven {
        true => {
            "a player's trades may be uneven while the ability lasts: `Deckbuilding: Your trades need not be even.`"
        }
        false => {
            "a card may let a player's trades be uneven (`Your trades need not be even.`), forbid trading (`Each opponent cannot trade.`) or happen when one trades (`Whenever you trade, …`), in a `Deckbuilding:` ability"
        }
    };
    Some(Hint {
        replacement: None,
        span: (start, end.min(start + line[start..end].trim_end().len())),
        message: Some(match uneven {
            true => "uneven trades are a rule of a player's trades, not something a player does"
                .to_string(),
            false => "a trade is made by two players who agree on it, not by an effect".to_string(),
        }),
        label: Some("a trade".to_string()),
        help: help.to_string(),
    })
}

/// `Gain a Friendship Card`: Friendship Cards are given by other players.
fn gain_friendship(line: &str, pos: usize) -> Option<Hint> {
    let lower = line.to_ascii_lowercase();
    let start = lower.find("friendship card")?;
    if start != pos {
        return None;
    }
    let verb = word_before(line, start).and_then(|(s, _)| word_before(line, s));
    let gained = verb.is_some_and(|(s, e)| {
        matches!(
            lower[s..e].as_ref(),
            "gain" | "gains" | "take" | "takes" | "get" | "gets"
        )
    });
    gained.then(|| Hint {
        replacement: None,
        span: (start, start + "friendship card".len()),
        message: Some(
            "a Friendship Card is not gained: each player gives their own to other players".to_string(),
        ),
        label: Some("given, not gained".to_string()),
        help: "give one of yours with `give a Friendship Card to an opponent`, or count those given to you with `for each Friendship Card given to you`".to_string(),
    })
}

/// `Discard your hand`: the language says which cards (`discard each card
/// from your hand`).
fn discard_your_hand(line: &str, pos: usize) -> Option<Hint> {
    let (start, end) = phrase_at(line, pos, &["discard your hand"])?;
    let verb = &line[start..start + "discard".len()];
    let rewritten = format!(
        "{}{verb} each card from your hand{}",
        &line[..start],
        &line[end..]
    );
    Some(Hint {
        replacement: None,
        span: (start, end),
        message: Some("a hand is not a card: say which cards are discarded".to_string()),
        label: Some("which cards?".to_string()),
        help: with_rewrite(
            &rewritten,
            |r| format!("discard each card of it: `{r}`"),
            "write `discard each card from your hand`".to_string(),
        ),
    })
}

/// `that card`: `that` refers back to a player (`that opponent`); a card
/// named before is `it`.
fn that_card(line: &str, pos: usize, found: &str) -> Option<Hint> {
    if !found.eq_ignore_ascii_case("that") && !found.eq_ignore_ascii_case("those") {
        return None;
    }
    let plural = found.eq_ignore_ascii_case("those");
    let (noun, pronoun) = if plural {
        ("cards", "them")
    } else {
        ("card", "it")
    };
    let after = line[pos + found.len()..].trim_start();
    let end = if after.to_ascii_lowercase().starts_with(noun) {
        line.len() - after.len() + noun.len()
    } else {
        pos + found.len()
    };
    let rewritten = format!("{}{pronoun}{}", &line[..pos], &line[end..]);
    Some(Hint {
        replacement: None,
        span: (pos, end),
        message: Some(format!(
            "`{}` is not how the effect language refers back to a card",
            &line[pos..end]
        )),
        label: Some("refers back".to_string()),
        help: with_rewrite(
            &rewritten,
            |r| {
                format!(
                    "a card named before is `{pronoun}` (`that` names players: `that opponent`): write `{r}`"
                )
            },
            format!(
                "a card named before is `{pronoun}`; `that` names players only (`that opponent`)"
            ),
        ),
    })
}

/// `this card's STAR`: the language says `the STAR of this card`.
fn possessive_star(line: &str, pos: usize) -> Option<Hint> {
    let lower = line[pos..].to_ascii_lowercase();
    let (at, len) = ["'s star", "’s star"]
        .iter()
        .find_map(|p| lower.find(p).map(|i| (i, p.len())))?;
    let target = &line[pos..pos + at];
    if target.is_empty() || target.contains(['.', ',', ':', '(', ')']) {
        return None;
    }
    let end = pos + at + len;
    let rewritten = format!("{}the STAR of {target}{}", &line[..pos], &line[end..]);
    Some(Hint {
        replacement: None,
        span: (pos, end),
        message: Some(format!(
            "`{}` is not how the effect language says it",
            &line[pos..end]
        )),
        label: Some("a possessive".to_string()),
        help: with_rewrite(
            &rewritten,
            |r| format!("write `the STAR of {target}`: `{r}`"),
            format!("write `the STAR of {target}`"),
        ),
    })
}

/// Numbers in words, `one` to `twenty`.
const NUMBER_WORDS: [&str; 20] = [
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
];

/// A number in words at the error or just before it (`two +1 STAR tokens`).
fn number_word(line: &str, pos: usize, found: &str) -> Option<Hint> {
    let (start, end) = if NUMBER_WORDS.contains(&found.to_ascii_lowercase().as_str()) {
        (pos, pos + found.len())
    } else {
        word_before(line, pos)?
    };
    let word = &line[start..end];
    let n = NUMBER_WORDS
        .iter()
        .position(|w| w.eq_ignore_ascii_case(word))?
        + 1;
    let rewritten = format!("{}{n}{}", &line[..start], &line[end..]);
    // `one` is also a word of the language (`one of them`): named only
    // when the digit mends the line.
    if n == 1 && !parses(&rewritten) {
        return None;
    }
    Some(Hint {
        replacement: None,
        span: (start, end),
        message: Some(format!("`{word}` is not understood here")),
        label: Some("a number in words".to_string()),
        help: with_rewrite(
            &rewritten,
            |r| format!("write numbers in digits: `{r}`"),
            format!("write numbers in digits: `{n}`"),
        ),
    })
}

// ───────────────────────────── verbs ─────────────────────────────

/// The first word of each action.
const VERBS: [&str; 14] = [
    "gain", "lose", "flip", "put", "clash", "discard", "take", "look", "insert", "reveal",
    "attach", "copy", "return", "play",
];

/// Whether the word starting at `start` begins a clause (after the colon,
/// a full stop, a comma, `you may`, `and`, `then` or `to`).
fn starts_clause(line: &str, start: usize) -> bool {
    let before = line[..start].trim_end();
    if before.ends_with([':', '.', ',']) {
        return true;
    }
    let last = before
        .rsplit(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    matches!(last.as_str(), "may" | "and" | "then" | "to")
}

/// A misspelt verb at the start of a clause (`Gane 2 RP`): the verb
/// nearest to it, as the grammar reads such a word as an element or type.
pub(crate) fn verb(line: &str, (start, end): (usize, usize)) -> Option<Hint> {
    if !starts_clause(line, start) {
        return None;
    }
    let word = &line[start..end];
    let lower = word.to_lowercase();
    let first = lower.chars().next()?;
    // One edit away, or two for a word of more than two letters that
    // starts like the verb (`gane` → `gain`).
    let nearest = VERBS
        .iter()
        .map(|v| (strsim::damerau_levenshtein(&lower, v), *v))
        .filter(|&(d, v)| d <= 1 || (d == 2 && v.starts_with(first) && lower.chars().count() > 2))
        .min_by_key(|&(d, v)| (d, !v.starts_with(first)));
    let mut replacement = None;
    let help = match nearest {
        Some((_, verb)) => {
            let spelt = match word.chars().next() {
                Some(c) if c.is_uppercase() => {
                    let mut s = verb.to_string();
                    s[..1].make_ascii_uppercase();
                    s
                }
                _ => verb.to_string(),
            };
            let rewritten = format!("{}{spelt}{}", &line[..start], &line[end..]);
            replacement = Some(spelt);
            with_rewrite(
                &rewritten,
                |r| format!("did you mean `{verb}`? Write `{r}`"),
                format!("did you mean `{verb}`?"),
            )
        }
        None => format!(
            "an action starts with a verb: {}",
            VERBS.map(|v| format!("`{v}`")).join(", ")
        ),
    };
    Some(Hint {
        span: (start, end),
        message: Some(format!("`{word}` is not understood here")),
        label: Some("unknown word".to_string()),
        help,
        replacement,
    })
}

/// The word that ends right before `pos` (skipping spaces), if any.
pub(crate) fn word_before(line: &str, pos: usize) -> Option<(usize, usize)> {
    let before = line[..pos].trim_end_matches([' ', '\t']);
    let end = before.len();
    let start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || matches!(c, '-' | '\'' | '’'))
        .last()
        .map(|(i, _)| i)?;
    Some((start, end))
}
