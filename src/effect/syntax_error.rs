//! pest errors → readable [`EffectError`]s: what was expected (in words a
//! designer knows, never rule names), where, and the nearest word for a typo.

use pest::error::{Error, ErrorVariant, InputLocation};

use super::ast::Timing;
use super::error::EffectError;
use super::grammar::Rule;
use super::hints::{self, Hint, word_before};
use crate::suggest::closest_other as nearest;

/// A readable name for what a rule matches; `None` hides the rule.
fn describe(rule: Rule) -> Option<&'static str> {
    sentence_part(rule)
        .or_else(|| card_part(rule))
        .or_else(|| counting_part(rule))
        .or_else(|| action_word(rule))
        .or_else(|| word_of(rule))
}

/// Punctuation, numbers, names and the parts of a sentence.
fn sentence_part(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::EOI => "the end of the line",
        Rule::stop => "`.`",
        Rule::colon => "`:`",
        Rule::comma => "`,`",
        Rule::open => "`(`",
        Rule::close => "`)`",
        Rule::number | Rule::keyword_value => "a number",
        Rule::symbol_word | Rule::rarity_phrase => "an element, type or rarity",
        Rule::keyword_word | Rule::keyword_name => "a keyword name",
        Rule::star_delta => "a STAR change such as `+1`",
        Rule::set_name | Rule::set_word => "a set name",
        Rule::timing => "a timing word (Play, Next, Flip, Ongoing, Top, Score, Reaction, Action)",
        Rule::trigger => "a trigger such as `(when an opponent flips this card)`",
        Rule::sentence => "a sentence",
        Rule::outcome => "a clash result (`Win:`, `Lose:`, `Tie:`)",
        Rule::cond_count | Rule::cond_compare | Rule::cond_about => "a condition",
        Rule::cond_top => "`is your Top Card`",
        Rule::cond_star => "`has` and a STAR comparison",
        Rule::cond_is => "`is` and what the card is",
        Rule::may => "`you may`",
        Rule::purpose => "`to` and what it achieves",
        Rule::clauses | Rule::subject_clause => "an action",
        Rule::statement => "a card and what holds for it",
        _ => return None,
    })
}

/// The ways to name a card, a place or a STAR comparison.
fn card_part(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::target => {
            "a card (`this card`, `the card to the left`, `a fire card in your tableau`, …)"
        }
        Rule::this_card => "`this card`",
        Rule::pronoun => "`it`",
        Rule::neighbor => "`the card to the left`",
        Rule::top_card => "`your Top Card`",
        Rule::next_card => "`the next card you play`",
        Rule::store_top => "`the top card of the Store`",
        Rule::query => "a card description",
        Rule::quant => "a quantity (`a`, `each`, `2`, `up to 2`, …)",
        Rule::up_to => "`up to`",
        Rule::superlative => "`highest-STAR`",
        Rule::super_query => "a card description",
        Rule::noun => "`card`, `single`, `deck box` or `accessory`",
        Rule::place => "a place (`in your tableau`, `from your hand`, …)",
        Rule::zone | Rule::zone_owned => "`your tableau`, `your hand` or another place",
        Rule::zone_any_tableau => "`any tableau`",
        Rule::zone_store_discard | Rule::pile_store_discard => "`the Store Discard`",
        Rule::zone_aftermarket => "`the Aftermarket`",
        Rule::pile_binder => "`your binder`",
        Rule::pile_box => "`the box`",
        Rule::side_of => "`to the left of this card`",
        Rule::side => "`left` or `right`",
        Rule::star_filter => "a STAR condition (`with a lower STAR than this card`, …)",
        Rule::star_cmp | Rule::star_relative | Rule::star_same | Rule::star_value => {
            "a STAR comparison (`a lower STAR than this card`, `STAR 3 or more`, …)"
        }
        Rule::or_bound => "`or more` or `or less`",
        Rule::set_filter => "`from the … set`",
        _ => return None,
    })
}

/// What is counted, players, owners, bounds and events.
fn counting_part(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::countable | Rule::count_cards => "what to count (`fire card in your tableau`, …)",
        Rule::count_symbols => "`different element among …`",
        Rule::count_tokens => "`+1 STAR token on …`",
        Rule::count_opponents => "`opponent`",
        Rule::player => "a player (`you`, `an opponent`, `each opponent`, `all players`)",
        Rule::owner => "whose cards (`your`, `an opponent's`, `each opponent's`, …)",
        Rule::bound
        | Rule::bound_no
        | Rule::bound_at_least
        | Rule::bound_at_most
        | Rule::bound_exactly
        | Rule::bound_or => "a bound (`3 or more`, `at most 2`, `no`, …)",
        Rule::event | Rule::event_player | Rule::event_is_flipped => "an event",
        Rule::event_flips => "`flips`",
        Rule::event_plays => "`plays`",
        Rule::event_clash_result => "`wins a clash`",
        Rule::event_clash => "`clashes`",
        Rule::event_rp => "`gains RP`",
        Rule::clash_party | Rule::clash_one | Rule::clash_all => "`an opponent` or `all players`",
        Rule::discard_to => "`to the Store Discard`, `to the box` or `to your binder`",
        Rule::take_to => "`into your hand`",
        Rule::token_count => "`a +1 STAR token` or `3 +1 STAR tokens`",
        Rule::insert_anywhere => "`anywhere into your tableau`",
        Rule::insert_beside => "`into your tableau to the left of …`",
        Rule::by_opponents => "`by opponents' effects`",
        Rule::symbols | Rule::symbols_both => "`elements and types`",
        Rule::cannot_flip => "`cannot be flipped`",
        _ => return None,
    })
}

/// The words of actions and the fixed phrases of the language.
fn action_word(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::has_star | Rule::has_symbols => "`has`",
        Rule::gain_rp | Rule::gain_slots => "`gain`",
        Rule::lose_rp => "`lose`",
        Rule::flip => "`flip`",
        Rule::clash => "`clash`",
        Rule::discard => "`discard`",
        Rule::reveal => "`reveal`",
        Rule::take => "`take`",
        Rule::look => "`look at`",
        Rule::put_tokens => "`put`",
        Rule::insert => "`insert`",
        Rule::copy_effect => "`copy`",
        Rule::attach => "`attach`",
        Rule::return_hand => "`return`",
        Rule::play_card => "`play`",
        Rule::rp_fixed | Rule::rp_star => "an amount of RP",
        Rule::k_rp => "`RP`",
        Rule::k_star => "`STAR`",
        Rule::k_store => "`Store`",
        Rule::k_aftermarket => "`Aftermarket`",
        Rule::k_deck_box => "`deck box`",
        Rule::k_face_up => "`face-up`",
        Rule::k_face_down => "`face-down`",
        Rule::k_highest_star => "`highest-STAR`",
        Rule::k_lowest_star => "`lowest-STAR`",
        Rule::k_owner_s => "`owner's`",
        Rule::k_opponent_s => "`opponent's`",
        Rule::k_opponents_poss => "`opponents'`",
        Rule::k_player_s => "`player's`",
        Rule::k_cannot_be_flipped => "`cannot be flipped`",
        Rule::k_for_each => "`for each`",
        Rule::k_clash_with => "`clash with`",
        Rule::k_star_token => "`+1 STAR token`",
        Rule::k_top_card => "`Top Card`",
        Rule::k_up_to => "`up to`",
        _ => return None,
    })
}

/// The word a `k_*` rule matches (`k_gain` → "`gain`").
fn word_of(rule: Rule) -> Option<&'static str> {
    macro_rules! words {
        ($($rule:ident => $word:literal),* $(,)?) => {
            match rule { $(Rule::$rule => Some(concat!("`", $word, "`")),)* _ => None }
        };
    }
    words! {
        k_next => "next", k_top => "top", k_play => "play", k_flip => "flip", k_flipped => "flipped",
        k_gain => "gain", k_lose => "lose", k_win => "win", k_tie => "tie", k_clash => "clash",
        k_discard => "discard", k_reveal => "reveal", k_take => "take", k_look => "look",
        k_put => "put", k_insert => "insert", k_copy => "copy", k_attach => "attach",
        k_return => "return", k_has => "has", k_have => "have", k_is => "is",
        k_may => "may", k_when => "when", k_if => "if", k_there => "there", k_you => "you",
        k_your => "your", k_their => "their", k_its => "its", k_own => "own",
        k_opponent => "opponent", k_opponents => "opponents", k_player => "player", k_a => "a",
        k_an => "an", k_another => "another", k_the => "the", k_this => "this", k_one => "one",
        k_it => "it", k_them => "them", k_each => "each", k_every => "every", k_all => "all",
        k_any => "any", k_other => "other", k_no => "no", k_to => "to", k_in => "in",
        k_into => "into", k_from => "from", k_on => "on", k_of => "of", k_at => "at", k_by => "by",
        k_with => "with", k_for => "for", k_among => "among", k_than => "than", k_as => "as",
        k_or => "or", k_and => "and", k_then => "then", k_least => "least", k_most => "most",
        k_exactly => "exactly", k_more => "more", k_less => "less", k_lower => "lower",
        k_higher => "higher", k_same => "same", k_equal => "equal", k_different => "different",
        k_left => "left", k_right => "right", k_immediate => "immediate", k_anywhere => "anywhere",
        k_extra => "extra", k_slot => "slot", k_effect => "effect", k_instead => "instead",
        k_element => "element", k_type => "type", k_set => "set", k_card => "card",
        k_single => "single", k_accessory => "accessory", k_adjacent => "adjacent",
        k_token => "token", k_tableau => "tableau", k_hand => "hand", k_binder => "binder",
        k_deck => "deck", k_box => "box",
    }
}

/// Every word of the grammar (verbs in their base form, nouns, …).
fn grammar_words() -> Vec<&'static str> {
    let mut words: Vec<&'static str> = Rule::all_rules()
        .iter()
        .filter_map(|r| word_of(*r))
        .map(|w| w.trim_matches('`'))
        .filter(|w| w.len() > 2)
        .collect();
    words.extend(["gains", "loses", "flips", "cards", "RP", "STAR", "tokens"]);
    words
}

/// The word (letters, digits, `-`, `'`, `+`, `!`) starting at `pos`, or the
/// next character when there is no word.
fn word_at(line: &str, pos: usize) -> (usize, usize) {
    let rest = &line[pos..];
    let len: usize = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || matches!(c, '-' | '\'' | '’' | '+' | '!'))
        .map(char::len_utf8)
        .sum();
    let len = if len == 0 {
        rest.chars().next().map_or(0, char::len_utf8)
    } else {
        len
    };
    (pos, pos + len)
}

/// Joins names as `a, b or c`.
pub(crate) fn one_of(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Converts a pest error on one line (starting at `base` in the effect text).
pub(crate) fn from_pest(
    error: &Error<Rule>,
    line: &str,
    base: usize,
    _ability: bool,
) -> EffectError {
    let pos = match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let mut expected: Vec<String> = Vec::new();
    let mut literals: Vec<&'static str> = Vec::new();
    if let ErrorVariant::ParsingError { positives, .. } = &error.variant {
        let all_timings = positives.contains(&Rule::timing);
        for rule in positives {
            if *rule == Rule::timing {
                continue;
            }
            if let Some(word) = word_of(*rule) {
                literals.push(word.trim_matches('`'));
            }
            if let Some(name) = describe(*rule) {
                let name = name.to_string();
                if !expected.contains(&name) {
                    expected.push(name);
                }
            }
        }
        if all_timings {
            expected.insert(0, describe(Rule::timing).unwrap_or_default().to_string());
            literals.extend(Timing::ALL.iter().map(|t| t.word()));
        }
    }
    let at_end = line[pos..].trim().is_empty();
    let (start, end) = if at_end {
        (pos, pos)
    } else {
        word_at(line, pos)
    };
    let found = &line[start..end];
    if let Some(hint) = hints::for_ability(line, pos, found) {
        return from_hint(hint, base);
    }
    let label = if at_end {
        "the line ends here".to_string()
    } else {
        format!("unexpected `{found}`")
    };
    let message = if expected.is_empty() {
        "the effect text does not follow the grammar".to_string()
    } else {
        format!("expected {}", one_of(&expected))
    };
    let mut span = (base + start, base + end);
    let mut message = message;
    let mut label = label;
    let mut help = None;
    let mut fix = None;
    if let Some(word) = nearest(found, literals.iter().copied()) {
        help = Some(format!("did you mean `{word}`?"));
        fix = (!at_end).then(|| word.to_string());
    } else if let Some((s, e)) = word_before(line, pos) {
        // A misspelt word is often read as an element or type word, and the
        // error shows up after it: look at the word before too.
        let before = &line[s..e];
        let words = grammar_words();
        // Short words (`to`, `of`) are known too, though never suggested.
        let known = Rule::all_rules()
            .iter()
            .filter_map(|r| word_of(*r))
            .map(|w| w.trim_matches('`'))
            .chain(words.iter().copied())
            .any(|w| w.eq_ignore_ascii_case(before));
        if !known && let Some(word) = nearest(before, words.iter().copied()) {
            message = format!("`{before}` is not understood here");
            label = "unknown word".to_string();
            help = Some(format!("did you mean `{word}`?"));
            fix = Some(word.to_string());
            span = (base + s, base + e);
        } else if !known && let Some(hint) = hints::verb(line, (s, e)) {
            return from_hint(hint, base);
        }
    }
    if help.is_none() && pos == 0 {
        let head = found.trim_end_matches(':').to_ascii_lowercase();
        if matches!(head.as_str(), "win" | "lose" | "tie") {
            help = Some(
                "clash results (`Win:`, `Lose:`, `Tie:`) go on the same line as their clash"
                    .to_string(),
            );
        } else if let Some(t) = nearest(&head, Timing::ALL.iter().map(|t| t.word())) {
            help = Some(format!("did you mean `{t}`?"));
        } else {
            help = Some(
                "start each ability with a timing word and a colon, e.g. `Play: Gain 2 RP.`"
                    .to_string(),
            );
        }
    }
    let mut fix_span = span.0..span.1;
    if help.is_none() && at_end && expected.iter().any(|e| e.contains("`.`") || e == "`.`") {
        help = Some("end each sentence with a full stop".to_string());
        // Right after the sentence's last word, not after the blanks
        // the line may end with.
        let stop = base + line[..pos].trim_end().len();
        fix_span = stop..stop;
        fix = Some(".".to_string());
    }
    EffectError::new("effect-syntax", span.0..span.1, message, label)
        .with_help_opt(help)
        .with_fix(fix_span, fix)
}

/// A finding made of a hint (its span in the line at `base`).
fn from_hint(hint: Hint, base: usize) -> EffectError {
    EffectError::new(
        "effect-syntax",
        base + hint.span.0..base + hint.span.1,
        hint.message
            .unwrap_or_else(|| "the effect text does not follow the grammar".to_string()),
        hint.label.unwrap_or_else(|| "here".to_string()),
    )
    .with_help(hint.help)
    .with_fix(base + hint.span.0..base + hint.span.1, hint.replacement)
}

/// A line with no colon that is not a keyword name either.
pub(crate) fn not_a_line(line: &str, base: usize) -> EffectError {
    if let Some(hint) = hints::for_other_line(line) {
        return from_hint(hint, base);
    }
    let lead = line.len() - line.trim_start().len();
    let trimmed = line.trim();
    let first: String = trimmed
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '!')
        .collect();
    let start = base + lead;
    let help = if let Some(t) = nearest(&first, Timing::ALL.iter().map(|t| t.word())) {
        format!("did you mean `{t}:`?")
    } else {
        "start an ability with a timing word and a colon (`Play: Gain 2 RP.`); a keyword line is just the keyword's name (`Scurry.`)".to_string()
    };
    EffectError::new(
        "effect-syntax",
        start..start + trimmed.len(),
        "this line is neither an ability (`Timing: …`) nor a keyword (`Name.`)",
        "no timing word and colon",
    )
    .with_help(help)
}
