//! AST → canonical English source. `parse(format(e)) == e` and `format` is
//! idempotent; the spelling chosen here is the one the docs call canonical.
//!
//! Every build formats every card (its touchstone), so the text is written
//! into one buffer as it goes: each part appends, none returns a string of
//! its own.

use std::fmt::Write;

use super::ast::*;

/// Prints an effect in canonical source form, one line per ability or keyword.
pub fn format(effect: &Effect) -> String {
    let mut out = Out::default();
    out.text.reserve(128);
    for (i, l) in effect.lines.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        line(&mut out, l);
    }
    out.text
}

/// An ability's canonical English, unless it names a set (whose printed
/// name the renderer looks up in the pool).
pub(crate) fn ability_naming_no_set(a: &Ability) -> Option<String> {
    let mut out = Out::default();
    ability(&mut out, a);
    (!out.named_set).then_some(out.text)
}

/// The text written so far, and whether it names a set.
#[derive(Default)]
struct Out {
    text: String,
    named_set: bool,
}

impl std::ops::Deref for Out {
    type Target = String;
    fn deref(&self) -> &String {
        &self.text
    }
}

impl std::ops::DerefMut for Out {
    fn deref_mut(&mut self) -> &mut String {
        &mut self.text
    }
}

/// What a writer of one part made, as a string of its own (the outline's
/// parts).
fn written_alone(write: impl FnOnce(&mut Out)) -> String {
    let mut out = Out::default();
    write(&mut out);
    out.text
}

/// Appends a number (writing to a `String` cannot fail).
fn number(out: &mut Out, n: impl std::fmt::Display) {
    let _ = write!(out.text, "{n}");
}

fn line(out: &mut Out, line: &Line) {
    match line {
        Line::Keyword(k) => keyword_into(out, k),
        Line::Ability(a) => ability(out, a),
    }
}

/// `Scurry.`, `Thwomp! 3.`; a name ending in `!` takes no full stop.
pub(crate) fn keyword(k: &KeywordLine) -> String {
    written_alone(|out| keyword_into(out, k))
}

fn keyword_into(out: &mut Out, k: &KeywordLine) {
    out.push_str(&k.name);
    if let Some(v) = k.value {
        out.push(' ');
        number(out, v.value);
    }
    if !out.ends_with('!') {
        out.push('.');
    }
}

fn ability(out: &mut Out, a: &Ability) {
    out.push_str(a.timing.word());
    if let Some(e) = &a.trigger {
        out.push_str(" (when ");
        event(out, e);
        out.push(')');
    }
    out.push(':');
    for s in &a.sentences {
        out.push(' ');
        sentence(out, s);
    }
}

/// An effect as a reader's outline, in the canonical English: each line's
/// heading (its timing word and trigger, or the keyword line), then each
/// sentence's parts in the order they apply, every clause on its own (a
/// clause you do says `you`, so none reads as another player's).
pub fn outline(effect: &Effect) -> Vec<OutlineLine> {
    effect
        .lines
        .iter()
        .map(|line| match line {
            Line::Keyword(k) => OutlineLine {
                heading: keyword(k),
                sentences: Vec::new(),
            },
            Line::Ability(a) => OutlineLine {
                heading: written_alone(|out| {
                    out.push_str(a.timing.word());
                    if let Some(e) = &a.trigger {
                        out.push_str(" (when ");
                        event(out, e);
                        out.push(')');
                    }
                }),
                sentences: a.sentences.iter().map(outline_sentence).collect(),
            },
        })
        .collect()
}

/// One line of an [`outline`].
#[derive(Clone, Debug, PartialEq)]
pub struct OutlineLine {
    pub heading: String,
    /// Each sentence as its parts: what the part is (`when`, `if`, `for`,
    /// `may`, `pay`, `do`, or the clash result) and its words.
    pub sentences: Vec<Vec<(&'static str, String)>>,
}

fn outline_sentence(s: &Sentence) -> Vec<(&'static str, String)> {
    let one = |c: &Clause| written_alone(|out| clause(out, c, true, false));
    let mut parts = Vec::new();
    if let Some(o) = s.outcome {
        parts.push(("result", outcome(o).to_string()));
    }
    if let Some(e) = &s.whenever {
        parts.push(("when", written_alone(|out| whenever(out, e))));
    }
    if let Some(c) = &s.condition {
        parts.push(("if", written_alone(|out| condition(out, c))));
    }
    if let Some(until) = s.until {
        parts.push(("for", until_words(until).to_string()));
    }
    if s.optional {
        parts.push(("may", "optional".to_string()));
    }
    for c in &s.cost {
        parts.push(("pay", one(c)));
    }
    for c in &s.clauses {
        parts.push(("do", one(c)));
    }
    for option in &s.choice {
        let each: Vec<String> = option.iter().map(one).collect();
        parts.push(("or", each.join(", then ")));
    }
    parts
}

/// Capitalises the first letter, without a copy when it is ASCII (nearly
/// always: it runs on every sentence of a large build).
pub(crate) fn capitalise_in_place(s: &mut String) {
    capitalise_from(s, 0);
}

/// Capitalises the letter at byte `start` of `s`.
fn capitalise_from(s: &mut String, start: usize) {
    match s[start..].chars().next() {
        Some(c) if c.is_ascii() => s[start..start + 1].make_ascii_uppercase(),
        Some(c) => {
            let upper: String = c.to_uppercase().collect();
            s.replace_range(start..start + c.len_utf8(), &upper);
        }
        None => {}
    }
}

fn sentence(out: &mut Out, s: &Sentence) {
    if let Some(o) = s.outcome {
        out.push_str(outcome(o));
        out.push_str(": ");
    }
    let start = out.len();
    if let Some(e) = &s.whenever {
        whenever(out, e);
        out.push_str(", ");
    }
    if let Some(c) = &s.condition {
        out.push_str("if ");
        condition(out, c);
        out.push_str(", ");
    }
    if let Some(until) = s.until {
        out.push_str(until_words(until));
        out.push_str(", ");
    }
    if s.optional {
        out.push_str("you may ");
    }
    if !s.cost.is_empty() {
        clauses(out, &s.cost);
        out.push_str(" to ");
    }
    if s.choice.is_empty() {
        clauses(out, &s.clauses);
    } else {
        out.push_str("choose one — ");
        for (i, option) in s.choice.iter().enumerate() {
            if i > 0 {
                out.push_str("; or ");
            }
            clauses(out, option);
        }
    }
    out.push('.');
    if s.outcome.is_none() {
        capitalise_from(out, start);
    }
}

/// `until the end of the turn`: how long a sentence's state lasts.
pub(crate) fn until_words(until: Until) -> &'static str {
    match until {
        Until::EndOfTurn => "until the end of the turn",
        Until::EndOfTournament => "until the end of the tournament",
        Until::EndOfDeckbuilding => "until the end of the Deckbuilding Phase",
        Until::EndOfRound => "until the end of the round",
    }
}

fn outcome(o: ClashResult) -> &'static str {
    match o {
        ClashResult::Win => "Win",
        ClashResult::Lose => "Lose",
        ClashResult::Tie => "Tie",
    }
}

/// Writes the items `a`, `a and b`, `a, b and c`.
fn and_list<T>(out: &mut Out, items: impl Iterator<Item = T>, mut write: impl FnMut(&mut Out, T)) {
    let mut items = items.peekable();
    let mut first = true;
    while let Some(item) = items.next() {
        if !first {
            out.push_str(if items.peek().is_none() {
                " and "
            } else {
                ", "
            });
        }
        first = false;
        write(out, item);
    }
}

/// `a`, `a and b`, `a, b and c`.
fn clauses(out: &mut Out, list: &[Clause]) {
    and_list(out, written(list), |out, (i, group)| match group {
        [Clause::State { state, .. }, _, ..] => statement(out, group, state),
        _ => clause(out, &list[i], names_you(list, i), shares_subject(list, i)),
    });
}

/// Must clause `i` say `you`? Only the first clause, and those after a
/// clause you do, leave it out: after `each opponent loses 1 RP`, `and gain
/// 2 RP` would read as the opponents gaining.
pub(crate) fn names_you(list: &[Clause], i: usize) -> bool {
    i > 0
        && !matches!(
            list[i - 1],
            Clause::Act {
                subject: Player::You,
                ..
            }
        )
}

/// May clause `i` leave out its player, the one of the clause before (`each
/// opponent loses 1 RP and gains 1 VP`)? The verb's form says who it is:
/// any player but you, who is named again after another player.
pub(crate) fn shares_subject(list: &[Clause], i: usize) -> bool {
    let Some(Clause::Act { subject, .. }) = list.get(i) else {
        return false;
    };
    i > 0
        && *subject != Player::You
        && matches!(&list[i - 1], Clause::Act { subject: before, .. } if before == subject)
}

fn clause(out: &mut Out, c: &Clause, name_you: bool, shared: bool) {
    match c {
        Clause::Cannot { who, deed, .. } => {
            player(out, *who);
            out.push_str(" cannot ");
            self::deed(out, deed);
        }
        Clause::Rule { who, rule, .. } => player_rule(out, owner(who.owner()), rule),
        Clause::Act {
            subject, action, ..
        } => {
            if shared {
                self::action(out, action, third_person(*subject));
            } else if *subject == Player::You && !name_you {
                self::action(out, action, false);
            } else {
                player(out, *subject);
                out.push(' ');
                self::action(out, action, third_person(*subject));
            }
        }
        Clause::State { state, .. } => statement(out, std::slice::from_ref(c), state),
    }
}

/// `your hand size is increased by 1`, `your trades need not be even`.
fn player_rule(out: &mut Out, whose: &str, rule: &PlayerRule) {
    out.push_str(whose);
    match rule {
        PlayerRule::HandSize {
            size: HandSize::By { delta },
        } if *delta < 0 => {
            out.push_str(" hand size is reduced by ");
            number(out, delta.unsigned_abs());
        }
        PlayerRule::HandSize {
            size: HandSize::By { delta },
        } => {
            out.push_str(" hand size is increased by ");
            number(out, delta);
        }
        PlayerRule::HandSize {
            size: HandSize::Exactly { cards },
        } => {
            out.push_str(" hand size is ");
            number(out, cards);
        }
        PlayerRule::UnevenTrades => out.push_str(" trades need not be even"),
        PlayerRule::FusionSize { delta } => {
            let n = delta.unsigned_abs();
            out.push_str(" Card Fusions need ");
            number(out, n);
            out.push_str(if *delta < 0 { " fewer " } else { " more " });
            out.push_str(crate::words::plural_word(n, "card", "cards"));
        }
        PlayerRule::DeckLimit { noun, more } => {
            out.push_str(" deck may include ");
            number(out, more);
            out.push_str(" more ");
            out.push_str(self::noun(*noun, *more != 1));
        }
    }
}

/// The clauses of a list as written, each with the index of its first:
/// states one after another that say the same of several cards are one
/// (`this card and the card to the left cannot be flipped`).
pub(crate) fn written(list: &[Clause]) -> impl Iterator<Item = (usize, &[Clause])> {
    let mut i = 0;
    std::iter::from_fn(move || {
        let start = i;
        let first = list.get(start)?;
        i += 1;
        if let Clause::State { state, .. } = first {
            while let Some(Clause::State {
                state: next,
                target,
                ..
            }) = list.get(i)
                && next == state
                && !reads_shared(&list[start..i], target)
            {
                i += 1;
            }
        }
        Some((start, &list[start..i]))
    })
}

/// Would `last`, after the cards of `before` in one list, lend them its
/// place, set, STAR or side, which they do not say for themselves? (`fire
/// cards and water cards in the Store`: a reader may take both to be in the
/// Store.) Such a list has two readings.
pub(crate) fn reads_shared(before: &[Clause], last: &Target) -> bool {
    let TargetKind::Cards(q) = &last.kind else {
        return false;
    };
    before.iter().any(|c| {
        let Clause::State { target, .. } = c else {
            return false;
        };
        let TargetKind::Cards(e) = &target.kind else {
            return false;
        };
        (q.place.is_some() && e.place.is_none())
            || (q.set.is_some() && e.set.is_none())
            || (q.star.is_some() && e.star.is_none())
            || (q.side.is_some() && e.side.is_none())
    })
}

/// The cards several states share, and whether they are written plural.
pub(crate) fn subjects(group: &[Clause]) -> (impl Iterator<Item = &Target>, bool) {
    let targets = group.iter().filter_map(|c| match c {
        Clause::State { target, .. } => Some(target),
        _ => None,
    });
    let plural = match group {
        [Clause::State { target, .. }] => target.is_plural(),
        _ => true,
    };
    (targets, plural)
}

/// A state of one group of cards, or of several sharing it.
fn statement(out: &mut Out, group: &[Clause], state: &State) {
    let (targets, plural) = subjects(group);
    and_list(out, targets, |out, t| target(out, t, Ctx::In));
    let has = if plural { " have " } else { " has " };
    match state {
        State::CannotBeFlipped { by_opponents } => {
            out.push_str(" cannot be flipped");
            if *by_opponents {
                out.push_str(" by opponents' effects");
            }
        }
        State::StarBonus { delta } => {
            out.push_str(has);
            let _ = write!(out.text, "{delta:+}");
            out.push_str(" STAR");
        }
        State::Mimic { symbols, source } => {
            out.push_str(has);
            out.push_str("the ");
            out.push_str(match symbols {
                Symbols::Elements => "elements",
                Symbols::Types => "types",
                Symbols::ElementsAndTypes => "elements and types",
            });
            out.push_str(" of ");
            target(out, source, Ctx::In);
            out.push_str(if plural {
                " instead of their own"
            } else {
                " instead of its own"
            });
        }
        State::BuyCost { delta } => {
            out.push_str(if plural { " cost " } else { " costs " });
            money_change(out, *delta, "less", "more");
        }
        State::SellPrice { delta } => {
            out.push_str(if plural { " sell for " } else { " sells for " });
            money_change(out, *delta, "less", "more");
        }
    }
}

/// `1 Millennium Dollar less` for -1, `2 Millennium Dollars more` for +2.
fn money_change(out: &mut Out, delta: i32, less: &str, more: &str) {
    resource(out, Num::new(delta.unsigned_abs()), Resource::Money);
    out.push(' ');
    out.push_str(if delta < 0 { less } else { more });
}

/// `1 VP`, or `1 VP for each fire card in your tableau`.
fn resource_per(out: &mut Out, n: Num, r: Resource, per: Option<&Count>) {
    resource(out, n, r);
    if let Some(c) = per {
        out.push_str(" for each ");
        count(out, c, false);
    }
}

/// Does the player take the `-s` form of a verb?
pub(crate) fn third_person(p: Player) -> bool {
    matches!(
        p,
        Player::AnOpponent
            | Player::EachOpponent
            | Player::ClashedOpponent
            | Player::TriggerPlayer
            | Player::EachOpponentWith { .. }
    )
}

/// `gain` or `gains`, `copy` or `copies`.
fn verb(out: &mut Out, base: &str, third: bool) {
    if !third {
        out.push_str(base);
    } else if base.ends_with("sh") || base.ends_with("ch") || base.ends_with('s') {
        out.push_str(base);
        out.push_str("es");
    } else if let Some(stem) = base
        .strip_suffix('y')
        .filter(|stem| !stem.ends_with(['a', 'e', 'o', 'u']))
    {
        out.push_str(stem);
        out.push_str("ies");
    } else {
        out.push_str(base);
        out.push('s');
    }
}

fn action(out: &mut Out, a: &Action, third: bool) {
    // The verb and a space: every action goes on with more words.
    let v = |out: &mut Out, base: &str| {
        verb(out, base, third);
        out.push(' ');
    };
    match a {
        Action::GainRp { amount } => {
            v(out, "gain");
            self::amount(out, amount);
        }
        Action::LoseRp { amount } => {
            v(out, "lose");
            self::amount(out, amount);
        }
        Action::GainSlots { count } => {
            v(out, "gain");
            number(out, count.value);
            out.push_str(if count.value == 1 {
                " extra tableau slot"
            } else {
                " extra tableau slots"
            });
        }
        Action::Gain { n, resource, per } => {
            v(out, "gain");
            resource_per(out, *n, *resource, per.as_ref());
        }
        Action::Lose { n, resource, per } => {
            v(out, "lose");
            resource_per(out, *n, *resource, per.as_ref());
        }
        Action::PayMoney { n } => {
            v(out, "pay");
            resource(out, *n, Resource::Money);
        }
        Action::NameCard => {
            v(out, "name");
            out.push_str("a card");
        }
        Action::GiveMoney { n, to } => {
            v(out, "give");
            resource(out, *n, Resource::Money);
            out.push_str(" to ");
            player(out, *to);
        }
        Action::GiveFriendship { n, to } => {
            v(out, "give");
            match n.value {
                1 => out.push_str("a Friendship Card"),
                n => {
                    number(out, n);
                    out.push_str(" Friendship Cards");
                }
            }
            out.push_str(" to ");
            player(out, *to);
        }
        Action::Flip { target } => {
            v(out, "flip");
            self::target(out, target, Ctx::In);
        }
        Action::Clash { with } => {
            v(out, "clash");
            out.push_str(match with {
                ClashWith::Opponent => "with an opponent",
                ClashWith::AllPlayers => "with all players",
            });
        }
        Action::Discard { target, to } => {
            v(out, "discard");
            self::target(out, target, Ctx::From);
            match to {
                Pile::Binder => {}
                Pile::StoreDiscard => out.push_str(" to the Store Discard"),
                Pile::Box => out.push_str(" to the box"),
            }
        }
        Action::Reveal { target } => {
            v(out, "reveal");
            self::target(out, target, Ctx::From);
        }
        Action::Take { target, to } => {
            v(out, "take");
            self::target(out, target, Ctx::From);
            out.push_str(match to {
                TakeTo::Hand => " into your hand",
                TakeTo::Binder => " into your binder",
            });
        }
        Action::LookAt { target } => {
            v(out, "look");
            out.push_str("at ");
            self::target(out, target, Ctx::In);
        }
        Action::PutTokens { count, target } => {
            v(out, "put");
            tokens(out, count.value);
            out.push_str(" on ");
            self::target(out, target, Ctx::In);
        }
        Action::Insert { target, position } => {
            v(out, "insert");
            self::target(out, target, Ctx::From);
            match position {
                Position::Anywhere => out.push_str(" anywhere into your tableau"),
                Position::Beside { side, of } => {
                    out.push_str(" into your tableau to the ");
                    out.push_str(self::side(*side));
                    out.push_str(" of ");
                    self::target(out, of, Ctx::In);
                }
            }
        }
        Action::CopyEffect { source } => {
            v(out, "copy");
            out.push_str("the effect of ");
            target(out, source, Ctx::In);
        }
        Action::Attach { card, to } => {
            v(out, "attach");
            target(out, card, Ctx::From);
            out.push_str(" to ");
            target(out, to, Ctx::In);
        }
        Action::ReturnToHand { target } => {
            v(out, "return");
            self::target(out, target, Ctx::In);
            out.push_str(" to your hand");
        }
        Action::PlayCard { target } => {
            v(out, "play");
            self::target(out, target, Ctx::From);
        }
        Action::Sell { target } => {
            v(out, "sell");
            self::target(out, target, Ctx::From);
            out.push_str(" to the Aftermarket");
        }
        Action::Buy { target } => {
            v(out, "buy");
            self::target(out, target, Ctx::From);
        }
        Action::ToAftermarket { target } => {
            v(out, "put");
            self::target(out, target, Ctx::From);
            out.push_str(" into the Aftermarket");
        }
    }
}

/// What a prohibition forbids, in the base form (`play fire cards`).
fn deed(out: &mut Out, d: &Deed) {
    match d {
        Deed::GainRp => out.push_str("gain RP"),
        Deed::Clash => out.push_str("clash"),
        Deed::Trade => out.push_str("trade"),
        Deed::Play { target } => {
            out.push_str("play ");
            self::target(out, target, Ctx::From);
        }
        Deed::Flip { target } => {
            out.push_str("flip ");
            self::target(out, target, Ctx::In);
        }
        Deed::Buy { target } => {
            out.push_str("buy ");
            self::target(out, target, Ctx::From);
        }
        Deed::Sell { target } => {
            out.push_str("sell ");
            self::target(out, target, Ctx::From);
            out.push_str(" to the Aftermarket");
        }
    }
}

/// `a +1 STAR token`, `3 +1 STAR tokens`.
fn tokens(out: &mut Out, n: u32) {
    if n == 1 {
        out.push_str("a +1 STAR token");
    } else {
        number(out, n);
        out.push_str(" +1 STAR tokens");
    }
}

fn amount(out: &mut Out, a: &Amount) {
    match a {
        Amount::Fixed { rp } => {
            number(out, rp.value);
            out.push_str(" RP");
        }
        Amount::PerEach { rp, count } => {
            number(out, rp.value);
            out.push_str(" RP for each ");
            self::count(out, count, false);
        }
        Amount::StarOf { target } => {
            out.push_str("RP equal to the STAR of ");
            self::target(out, target, Ctx::In);
        }
    }
}

/// What `for each` counts (`plural` in conditions: `3 or more fire cards`).
fn count(out: &mut Out, c: &Count, plural: bool) {
    let different = |out: &mut Out, one: &str, many: &str, among: &Target| {
        out.push_str("different ");
        out.push_str(if plural { many } else { one });
        out.push_str(" among ");
        target(out, among, Ctx::In);
    };
    match c {
        Count::Cards { cards } => query_body(out, cards, plural, Ctx::In),
        Count::Elements { among } => different(out, "element", "elements", among),
        Count::Types { among } => different(out, "type", "types", among),
        Count::Sets { among } => different(out, "set", "sets", among),
        Count::Tokens { on } => {
            out.push_str(if plural {
                "+1 STAR tokens on "
            } else {
                "+1 STAR token on "
            });
            target(out, on, Ctx::In);
        }
        Count::Opponents => out.push_str(if plural { "opponents" } else { "opponent" }),
        Count::FriendshipCards => out.push_str(if plural {
            "Friendship Cards given to you"
        } else {
            "Friendship Card given to you"
        }),
        Count::Money { per } if per.value == 1 => out.push_str("Millennium Dollar you have"),
        Count::Money { per } => {
            number(out, per.value);
            out.push_str(" Millennium Dollars you have");
        }
        Count::OpponentsWith { more, measure } => {
            out.push_str(if plural {
                "opponents with "
            } else {
                "opponent with "
            });
            compared(out, *more, *measure);
            out.push_str(" than you");
        }
    }
}

/// `3 Millennium Dollars`, `1 Millennium Dollar`, `2 VP`.
fn resource(out: &mut Out, n: Num, r: Resource) {
    match (r, n.value) {
        (Resource::Money, 1) => out.push_str("1 Millennium Dollar"),
        (Resource::SellMarker, 1) => out.push_str("a Sell Marker"),
        (r, n) => {
            number(out, n);
            out.push_str(match r {
                Resource::Money => " Millennium Dollars",
                Resource::Vp => " VP",
                Resource::SellMarker => " Sell Markers",
            });
        }
    }
}

/// `more RP`, `fewer Millennium Dollars`: what a comparison of players says.
fn compared(out: &mut Out, more: bool, measure: Measure) {
    out.push_str(if more { "more " } else { "fewer " });
    out.push_str(match measure {
        Measure::Rp => "RP",
        Measure::Money => "Millennium Dollars",
        Measure::Vp => "VP",
    });
}

fn player(out: &mut Out, p: Player) {
    let word = match p {
        Player::You => "you",
        Player::AnOpponent => "an opponent",
        Player::EachOpponent => "each opponent",
        Player::AllPlayers => "all players",
        Player::ClashedOpponent | Player::TriggerPlayer => "that opponent",
        Player::EachOpponentWith { more, measure } => {
            out.push_str("each opponent with ");
            compared(out, more, measure);
            " than you"
        }
    };
    out.push_str(word);
}

fn owner(o: Owner) -> &'static str {
    match o {
        Owner::You => "your",
        Owner::Their => "their",
        Owner::AnOpponent => "an opponent's",
        Owner::EachOpponent => "each opponent's",
        Owner::EachPlayer => "each player's",
        Owner::Any => "any player's",
        Owner::ClashedOpponent | Owner::TriggerPlayer => "that opponent's",
    }
}

fn side(s: Side) -> &'static str {
    match s {
        Side::Left => "left",
        Side::Right => "right",
    }
}

/// Which preposition a place takes: cards taken out of a place are `from` it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    In,
    From,
}

fn target(out: &mut Out, t: &Target, ctx: Ctx) {
    match &t.kind {
        TargetKind::This => out.push_str("this card"),
        TargetKind::It => out.push_str("it"),
        TargetKind::Them => out.push_str("them"),
        TargetKind::Rest => out.push_str("the rest"),
        TargetKind::Neighbor { side } => {
            out.push_str("the card to the ");
            out.push_str(self::side(*side));
        }
        TargetKind::TopCard { owner } => {
            out.push_str(self::owner(*owner));
            out.push_str(" Top Card");
        }
        TargetKind::NextCard => out.push_str("the next card you play"),
        TargetKind::OfThem { n, up_to } => match (up_to, n.value) {
            (false, 1) => out.push_str("one of them"),
            (false, v) => {
                number(out, v);
                out.push_str(" of them");
            }
            (true, v) => {
                out.push_str("up to ");
                number(out, v);
                out.push_str(" of them");
            }
        },
        TargetKind::StoreTop { count } => {
            if count.value == 1 {
                out.push_str("the top card of the Store");
            } else {
                out.push_str("the top ");
                number(out, count.value);
                out.push_str(" cards of the Store");
            }
        }
        TargetKind::Cards(q) => query(out, q, ctx),
    }
}

fn query(out: &mut Out, q: &CardQuery, ctx: Ctx) {
    match q.quant {
        Quant::One => {
            // `a` or `an`, as the words after it begin.
            let start = out.len();
            query_body(out, q, q.quant.is_plural(), ctx);
            let article = article(&out[start..]);
            out.insert(start, ' ');
            out.insert_str(start, article);
            return;
        }
        Quant::Another => out.push_str("another "),
        Quant::Number { n } => {
            number(out, n.value);
            out.push(' ');
        }
        Quant::UpTo { n } => {
            out.push_str("up to ");
            number(out, n.value);
            out.push(' ');
        }
        Quant::Each => out.push_str("each "),
        Quant::All => out.push_str("all "),
        Quant::Bare => {}
        Quant::Highest => out.push_str("the highest-STAR "),
        Quant::Lowest => out.push_str("the lowest-STAR "),
    }
    query_body(out, q, q.quant.is_plural(), ctx);
}

/// `a` or `an` before a word.
pub(crate) fn article(next: &str) -> &'static str {
    match next.chars().next() {
        Some(c) if "aeiouAEIOU".contains(c) => "an",
        _ => "a",
    }
}

/// Adjectives, noun and what follows, without the quantity.
fn query_body(out: &mut Out, q: &CardQuery, plural: bool, ctx: Ctx) {
    if q.other {
        out.push_str("other ");
    }
    if q.adjacent {
        out.push_str("adjacent ");
    }
    if let Some(f) = q.face {
        out.push_str(face(f));
        out.push(' ');
    }
    for f in &q.filters {
        out.push_str(filter(f));
        out.push(' ');
    }
    out.push_str(noun(q.noun, plural));
    if let Some(set) = &q.set {
        out.named_set = true;
        out.push_str(" from the ");
        out.push_str(&set.name);
        out.push_str(" set");
    }
    if let Some(s) = q.side {
        out.push_str(" to the ");
        out.push_str(side(s));
        out.push_str(" of this card");
    }
    if let Some(p) = q.place {
        out.push(' ');
        place(out, p, ctx);
    }
    if let Some(s) = &q.star {
        out.push_str(" with ");
        star(out, s);
    }
}

fn face(f: Face) -> &'static str {
    match f {
        Face::Up => "face-up",
        Face::Down => "face-down",
    }
}

fn filter(f: &Filter) -> &str {
    match f {
        Filter::Element { element } => element.as_str(),
        Filter::Type { name, .. } => name,
        Filter::Rarity { rarity } => rarity.words(),
    }
}

fn noun(n: Noun, plural: bool) -> &'static str {
    match (n, plural) {
        (Noun::Card, false) => "card",
        (Noun::Card, true) => "cards",
        (Noun::Single, false) => "single",
        (Noun::Single, true) => "singles",
        (Noun::DeckBox, false) => "deck box",
        (Noun::DeckBox, true) => "deck boxes",
        (Noun::Accessory, false) => "accessory",
        (Noun::Accessory, true) => "accessories",
    }
}

fn place(out: &mut Out, p: Place, ctx: Ctx) {
    out.push_str(if ctx == Ctx::From { "from " } else { "in " });
    let owned = |out: &mut Out, o: Owner, what: &str| {
        out.push_str(owner(o));
        out.push_str(what);
    };
    match p {
        Place::Tableau { owner: Owner::Any } => out.push_str("any tableau"),
        Place::Tableau { owner } => owned(out, owner, " tableau"),
        Place::Hand { owner } => owned(out, owner, " hand"),
        Place::Binder { owner } => owned(out, owner, " binder"),
        Place::StoreDiscard => out.push_str("the Store Discard"),
        Place::Aftermarket => out.push_str("the Aftermarket"),
        Place::Store => out.push_str("the Store"),
        Place::DeckBoxSlot { owner } => owned(out, owner, " deck box slot"),
        Place::AccessorySlots { owner } => owned(out, owner, " accessory slots"),
    }
}

fn star(out: &mut Out, s: &StarFilter) {
    match s {
        StarFilter::Compare { cmp, than } => {
            out.push_str(match cmp {
                StarCmp::Lower => "a lower STAR than ",
                StarCmp::Higher => "a higher STAR than ",
                StarCmp::Same => "the same STAR as ",
            });
            target(out, than, Ctx::In);
        }
        StarFilter::Value { n, bound } => {
            out.push_str("STAR ");
            number(out, n.value);
            match bound {
                Bound::Exactly => {}
                Bound::OrMore => out.push_str(" or more"),
                Bound::OrLess => out.push_str(" or less"),
            }
        }
    }
}

fn condition(out: &mut Out, c: &Condition) {
    match c {
        Condition::Count { count, bound, n } => {
            let plural = !(n.value == 1 && *bound == Bound::Exactly);
            out.push_str(if counts_yours(count) {
                "you have "
            } else {
                "there are "
            });
            match (bound, n.value) {
                (Bound::Exactly, 0) => out.push_str("no"),
                (Bound::Exactly, v) => {
                    out.push_str("exactly ");
                    number(out, v);
                }
                (Bound::OrMore, v) => {
                    number(out, v);
                    out.push_str(" or more");
                }
                (Bound::OrLess, v) => {
                    number(out, v);
                    out.push_str(" or less");
                }
            }
            out.push(' ');
            self::count(out, count, plural);
        }
        Condition::Star { target, star } => {
            self::target(out, target, Ctx::In);
            out.push_str(if target.is_plural() {
                " have "
            } else {
                " has "
            });
            self::star(out, star);
        }
        Condition::Is {
            target,
            face,
            filters,
            noun,
        } => {
            self::target(out, target, Ctx::In);
            out.push_str(if target.is_plural() { " are " } else { " is " });
            let start = out.len();
            let mut words = face
                .map(self::face)
                .into_iter()
                .chain(filters.iter().map(filter))
                .chain(noun.map(|n| self::noun(n, target.is_plural())));
            if let Some(first) = words.next() {
                out.push_str(first);
            }
            for word in words {
                out.push(' ');
                out.push_str(word);
            }
            if noun.is_some() && !target.is_plural() {
                let article = article(&out[start..]);
                out.insert(start, ' ');
                out.insert_str(start, article);
            }
        }
        Condition::Compare {
            more,
            measure,
            than,
            ..
        } => {
            out.push_str("you have ");
            compared(out, *more, *measure);
            out.push_str(" than ");
            player(out, *than);
        }
        Condition::IsTopCard { target, owner } => {
            self::target(out, target, Ctx::In);
            out.push_str(" is ");
            out.push_str(self::owner(*owner));
            out.push_str(" Top Card");
        }
        Condition::IsNamed { target } => {
            self::target(out, target, Ctx::In);
            out.push_str(if target.is_plural() {
                " are the named card"
            } else {
                " is the named card"
            });
        }
    }
}

/// Does a count count your own cards (so a condition says `you have`,
/// not `there are`)?
pub(crate) fn counts_yours(count: &Count) -> bool {
    match count {
        Count::Cards { cards } => cards.place.is_none_or(|p| p.owner() == Some(Owner::You)),
        Count::FriendshipCards => true,
        _ => false,
    }
}

/// `whenever <event>`, or `at the start of your turn` for a turn's ends.
fn whenever(out: &mut Out, e: &Event) {
    match e {
        Event::TurnStarts { who } => {
            out.push_str("at the start of ");
            out.push_str(owner(who.owner()));
            out.push_str(" turn");
        }
        Event::TurnEnds { who } => {
            out.push_str("at the end of ");
            out.push_str(owner(who.owner()));
            out.push_str(" turn");
        }
        Event::DeckbuildingStarts => out.push_str("at the start of the Deckbuilding Phase"),
        Event::DeckbuildingEnds => out.push_str("at the end of the Deckbuilding Phase"),
        Event::TournamentStarts => out.push_str("at the start of the tournament"),
        Event::TournamentEnds => out.push_str("at the end of the tournament"),
        _ => {
            out.push_str("whenever ");
            event(out, e);
        }
    }
}

fn event(out: &mut Out, e: &Event) {
    // `<player> <verb>`, the verb in the player's form.
    let does = |out: &mut Out, p: Player, base: &str| {
        player(out, p);
        out.push(' ');
        verb(out, base, third_person(p));
    };
    match e {
        Event::Flips { who, target } => {
            does(out, *who, "flip");
            out.push(' ');
            self::target(out, target, Ctx::In);
        }
        Event::IsFlipped { target } => {
            self::target(out, target, Ctx::In);
            out.push_str(if target.is_plural() {
                " are flipped"
            } else {
                " is flipped"
            });
        }
        Event::Plays { who, target } => {
            does(out, *who, "play");
            out.push(' ');
            self::target(out, target, Ctx::In);
        }
        Event::Clash { who, result } => match result {
            None => does(out, *who, "clash"),
            Some(r) => {
                let base = match r {
                    ClashResult::Win => "win",
                    ClashResult::Lose => "lose",
                    ClashResult::Tie => "tie",
                };
                does(out, *who, base);
                out.push_str(" a clash");
            }
        },
        Event::GainsRp { who } => {
            does(out, *who, "gain");
            out.push_str(" RP");
        }
        Event::LosesRp { who } => {
            does(out, *who, "lose");
            out.push_str(" RP");
        }
        Event::TurnStarts { who } => {
            out.push_str(owner(who.owner()));
            out.push_str(" turn starts");
        }
        Event::TurnEnds { who } => {
            out.push_str(owner(who.owner()));
            out.push_str(" turn ends");
        }
        Event::Passes { who } => does(out, *who, "pass"),
        Event::Fuses { who } => {
            does(out, *who, "fuse");
            out.push_str(" cards");
        }
        Event::MakesCollection { who } => {
            does(out, *who, "make");
            out.push_str(" a collection");
        }
        Event::Trades { who } => does(out, *who, "trade"),
        Event::Buys { who, target } => {
            does(out, *who, "buy");
            out.push(' ');
            self::target(out, target, Ctx::From);
        }
        Event::Sells { who, target } => {
            does(out, *who, "sell");
            out.push(' ');
            self::target(out, target, Ctx::From);
            out.push_str(" to the Aftermarket");
        }
        Event::DeckbuildingStarts => out.push_str("the Deckbuilding Phase starts"),
        Event::DeckbuildingEnds => out.push_str("the Deckbuilding Phase ends"),
        Event::TournamentStarts => out.push_str("the tournament starts"),
        Event::TournamentEnds => out.push_str("the tournament ends"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capitalising_changes_the_first_letter_only() {
        for (text, expected) in [
            ("gain 1 RP.", "Gain 1 RP."),
            ("Gain", "Gain"),
            ("", ""),
            ("été", "Été"),
            ("ßa", "SSa"),
            ("1 card", "1 card"),
        ] {
            let mut in_place = text.to_string();
            capitalise_in_place(&mut in_place);
            assert_eq!(in_place, expected);
        }
    }
}
