//! AST → canonical English source. `parse(format(e)) == e` and `format` is
//! idempotent; the spelling chosen here is the one the docs call canonical.

use super::ast::*;

/// Prints an effect in canonical source form, one line per ability or keyword.
pub fn format(effect: &Effect) -> String {
    // Every build formats every card (its touchstone): the first line's
    // text is kept, not copied into a joined one.
    let mut lines = effect.lines.iter().map(line);
    let mut out = lines.next().unwrap_or_default();
    for next in lines {
        out.push('\n');
        out.push_str(&next);
    }
    out
}

fn line(line: &Line) -> String {
    match line {
        Line::Keyword(k) => keyword(k),
        Line::Ability(a) => ability(a),
    }
}

/// `Scurry.`, `Thwomp! 3.`; a name ending in `!` takes no full stop.
pub(crate) fn keyword(k: &KeywordLine) -> String {
    let mut out = k.name.clone();
    if let Some(v) = k.value {
        out.push(' ');
        out.push_str(&v.value.to_string());
    }
    if !out.ends_with('!') {
        out.push('.');
    }
    out
}

fn ability(a: &Ability) -> String {
    let mut out = a.timing.word().to_string();
    if let Some(event) = &a.trigger {
        out.push_str(" (when ");
        out.push_str(&self::event(event));
        out.push(')');
    }
    out.push(':');
    for s in &a.sentences {
        out.push(' ');
        out.push_str(&sentence(s));
    }
    out
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
                heading: match &a.trigger {
                    Some(e) => format!("{} (when {})", a.timing.word(), event(e)),
                    None => a.timing.word().to_string(),
                },
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
    let mut parts = Vec::new();
    if let Some(o) = s.outcome {
        parts.push(("result", outcome(o).to_string()));
    }
    if let Some(e) = &s.whenever {
        parts.push(("when", whenever(e)));
    }
    if let Some(c) = &s.condition {
        parts.push(("if", condition(c)));
    }
    if let Some(until) = s.until {
        parts.push(("for", until_words(until).to_string()));
    }
    if s.optional {
        parts.push(("may", "optional".to_string()));
    }
    for c in &s.cost {
        parts.push(("pay", clause(c, true, false)));
    }
    for c in &s.clauses {
        parts.push(("do", clause(c, true, false)));
    }
    for option in &s.choice {
        let each: Vec<String> = option.iter().map(|c| clause(c, true, false)).collect();
        parts.push(("or", each.join(", then ")));
    }
    parts
}

/// Capitalises the first letter, without a copy when it is ASCII (nearly
/// always: it runs on every sentence of a large build).
pub(crate) fn capitalise_in_place(s: &mut String) {
    match s.chars().next() {
        Some(c) if c.is_ascii() => s[..1].make_ascii_uppercase(),
        Some(c) => {
            let upper: String = c.to_uppercase().collect();
            s.replace_range(..c.len_utf8(), &upper);
        }
        None => {}
    }
}

fn sentence(s: &Sentence) -> String {
    let mut body = String::new();
    if let Some(e) = &s.whenever {
        body.push_str(&whenever(e));
        body.push_str(", ");
    }
    if let Some(c) = &s.condition {
        body.push_str("if ");
        body.push_str(&condition(c));
        body.push_str(", ");
    }
    if let Some(until) = s.until {
        body.push_str(until_words(until));
        body.push_str(", ");
    }
    if s.optional {
        body.push_str("you may ");
    }
    if !s.cost.is_empty() {
        body.push_str(&clauses(&s.cost));
        body.push_str(" to ");
    }
    if s.choice.is_empty() {
        body.push_str(&clauses(&s.clauses));
    } else {
        body.push_str("choose one — ");
        let options: Vec<String> = s.choice.iter().map(|o| clauses(o)).collect();
        body.push_str(&options.join("; or "));
    }
    body.push('.');
    match s.outcome {
        Some(o) => format!("{}: {body}", outcome(o)),
        None => {
            capitalise_in_place(&mut body);
            body
        }
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

/// `a`, `a and b`, `a, b and c`.
fn clauses(list: &[Clause]) -> String {
    let parts: Vec<String> = written(list)
        .map(|(i, group)| match group {
            [Clause::State { state, .. }, _, ..] => statement(group, state),
            _ => clause(&list[i], names_you(list, i), shares_subject(list, i)),
        })
        .collect();
    and_list(parts)
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

fn clause(c: &Clause, name_you: bool, shared: bool) -> String {
    match c {
        Clause::Cannot { who, deed, .. } => format!("{} cannot {}", player(*who), self::deed(deed)),
        Clause::Rule { who, rule, .. } => {
            let whose = owner(who.owner());
            match rule {
                PlayerRule::HandSize {
                    size: HandSize::By { delta },
                } if *delta < 0 => {
                    format!("{whose} hand size is reduced by {}", delta.unsigned_abs())
                }
                PlayerRule::HandSize {
                    size: HandSize::By { delta },
                } => format!("{whose} hand size is increased by {delta}"),
                PlayerRule::HandSize {
                    size: HandSize::Exactly { cards },
                } => format!("{whose} hand size is {cards}"),
                PlayerRule::UnevenTrades => format!("{whose} trades need not be even"),
                PlayerRule::FusionSize { delta } => {
                    let n = delta.unsigned_abs();
                    let more = if *delta < 0 { "fewer" } else { "more" };
                    format!(
                        "{whose} Card Fusions need {n} {more} {}",
                        crate::words::plural_word(n, "card", "cards")
                    )
                }
                PlayerRule::DeckLimit { noun, more } => format!(
                    "{whose} deck may include {more} more {}",
                    self::noun(*noun, *more != 1)
                ),
            }
        }
        Clause::Act {
            subject, action, ..
        } => {
            if shared {
                self::action(action, third_person(*subject))
            } else if *subject == Player::You && !name_you {
                self::action(action, false)
            } else {
                format!(
                    "{} {}",
                    player(*subject),
                    self::action(action, third_person(*subject))
                )
            }
        }
        Clause::State { state, .. } => statement(std::slice::from_ref(c), state),
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

/// `a`, `a and b`, `a, b and c`.
fn and_list(mut parts: Vec<String>) -> String {
    match parts.as_slice() {
        [] => String::new(),
        [_] => parts.pop().unwrap_or_default(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A state of one group of cards, or of several sharing it.
fn statement(group: &[Clause], state: &State) -> String {
    let (targets, plural) = subjects(group);
    let names: Vec<String> = targets.map(|t| target(t, Ctx::In)).collect();
    let t = and_list(names);
    let has = if plural { "have" } else { "has" };
    match state {
        State::CannotBeFlipped { by_opponents } => {
            let by = if *by_opponents {
                " by opponents' effects"
            } else {
                ""
            };
            format!("{t} cannot be flipped{by}")
        }
        State::StarBonus { delta } => format!("{t} {has} {delta:+} STAR"),
        State::Mimic { symbols, source } => format!(
            "{t} {has} the {} of {} instead of {} own",
            match symbols {
                Symbols::Elements => "elements",
                Symbols::Types => "types",
                Symbols::ElementsAndTypes => "elements and types",
            },
            target(source, Ctx::In),
            if plural { "their" } else { "its" }
        ),
        State::BuyCost { delta } => format!(
            "{t} {} {}",
            if plural { "cost" } else { "costs" },
            money_change(*delta, "less", "more")
        ),
        State::SellPrice { delta } => format!(
            "{t} {} for {}",
            if plural { "sell" } else { "sells" },
            money_change(*delta, "less", "more")
        ),
    }
}

/// `1 Millennium Dollar less` for -1, `2 Millennium Dollars more` for +2.
fn money_change(delta: i32, less: &str, more: &str) -> String {
    let n = Num::new(delta.unsigned_abs());
    let word = if delta < 0 { less } else { more };
    format!("{} {word}", resource(n, Resource::Money))
}

/// `1 VP`, or `1 VP for each fire card in your tableau`.
fn resource_per(n: Num, r: Resource, per: Option<&Count>) -> String {
    match per {
        None => resource(n, r),
        Some(c) => format!("{} for each {}", resource(n, r), count(c, false)),
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
fn verb(base: &'static str, third: bool) -> std::borrow::Cow<'static, str> {
    if !third {
        return base.into();
    }
    if base.ends_with("sh") || base.ends_with("ch") || base.ends_with('s') {
        format!("{base}es").into()
    } else if let Some(stem) = base
        .strip_suffix('y')
        .filter(|stem| !stem.ends_with(['a', 'e', 'o', 'u']))
    {
        format!("{stem}ies").into()
    } else {
        format!("{base}s").into()
    }
}

fn action(a: &Action, third: bool) -> String {
    let v = |base: &'static str| verb(base, third);
    match a {
        Action::GainRp { amount } => format!("{} {}", v("gain"), self::amount(amount)),
        Action::LoseRp { amount } => format!("{} {}", v("lose"), self::amount(amount)),
        Action::GainSlots { count } => format!(
            "{} {} extra tableau {}",
            v("gain"),
            count.value,
            if count.value == 1 { "slot" } else { "slots" }
        ),
        Action::Gain { n, resource, per } => {
            format!(
                "{} {}",
                v("gain"),
                resource_per(*n, *resource, per.as_ref())
            )
        }
        Action::Lose { n, resource, per } => {
            format!(
                "{} {}",
                v("lose"),
                resource_per(*n, *resource, per.as_ref())
            )
        }
        Action::PayMoney { n } => format!("{} {}", v("pay"), resource(*n, Resource::Money)),
        Action::NameCard => format!("{} a card", v("name")),
        Action::GiveMoney { n, to } => format!(
            "{} {} to {}",
            v("give"),
            resource(*n, Resource::Money),
            player(*to)
        ),
        Action::GiveFriendship { n, to } => format!(
            "{} {} to {}",
            v("give"),
            match n.value {
                1 => "a Friendship Card".to_string(),
                n => format!("{n} Friendship Cards"),
            },
            player(*to)
        ),
        Action::Flip { target } => format!("{} {}", v("flip"), self::target(target, Ctx::In)),
        Action::Clash { with } => format!(
            "{} with {}",
            v("clash"),
            match with {
                ClashWith::Opponent => "an opponent",
                ClashWith::AllPlayers => "all players",
            }
        ),
        Action::Discard { target, to } => {
            let mut out = format!("{} {}", v("discard"), self::target(target, Ctx::From));
            match to {
                Pile::Binder => {}
                Pile::StoreDiscard => out.push_str(" to the Store Discard"),
                Pile::Box => out.push_str(" to the box"),
            }
            out
        }
        Action::Reveal { target } => {
            format!("{} {}", v("reveal"), self::target(target, Ctx::From))
        }
        Action::Take { target, to } => format!(
            "{} {} into your {}",
            v("take"),
            self::target(target, Ctx::From),
            match to {
                TakeTo::Hand => "hand",
                TakeTo::Binder => "binder",
            }
        ),
        Action::LookAt { target } => {
            format!("{} at {}", v("look"), self::target(target, Ctx::In))
        }
        Action::PutTokens { count, target } => format!(
            "{} {} on {}",
            v("put"),
            tokens(count.value),
            self::target(target, Ctx::In)
        ),
        Action::Insert { target, position } => {
            let t = self::target(target, Ctx::From);
            match position {
                Position::Anywhere => format!("{} {t} anywhere into your tableau", v("insert")),
                Position::Beside { side, of } => format!(
                    "{} {t} into your tableau to the {} of {}",
                    v("insert"),
                    self::side(*side),
                    self::target(of, Ctx::In)
                ),
            }
        }
        Action::CopyEffect { source } => {
            format!("{} the effect of {}", v("copy"), target(source, Ctx::In))
        }
        Action::Attach { card, to } => format!(
            "{} {} to {}",
            v("attach"),
            target(card, Ctx::From),
            target(to, Ctx::In)
        ),
        Action::ReturnToHand { target } => format!(
            "{} {} to your hand",
            v("return"),
            self::target(target, Ctx::In)
        ),
        Action::PlayCard { target } => {
            format!("{} {}", v("play"), self::target(target, Ctx::From))
        }
        Action::Sell { target } => format!(
            "{} {} to the Aftermarket",
            v("sell"),
            self::target(target, Ctx::From)
        ),
        Action::Buy { target } => format!("{} {}", v("buy"), self::target(target, Ctx::From)),
        Action::ToAftermarket { target } => format!(
            "{} {} into the Aftermarket",
            v("put"),
            self::target(target, Ctx::From)
        ),
    }
}

/// What a prohibition forbids, in the base form (`play fire cards`).
fn deed(d: &Deed) -> String {
    match d {
        Deed::GainRp => "gain RP".to_string(),
        Deed::Clash => "clash".to_string(),
        Deed::Trade => "trade".to_string(),
        Deed::Play { target } => format!("play {}", self::target(target, Ctx::From)),
        Deed::Flip { target } => format!("flip {}", self::target(target, Ctx::In)),
        Deed::Buy { target } => format!("buy {}", self::target(target, Ctx::From)),
        Deed::Sell { target } => {
            format!(
                "sell {} to the Aftermarket",
                self::target(target, Ctx::From)
            )
        }
    }
}

/// `a +1 STAR token`, `3 +1 STAR tokens`.
fn tokens(n: u32) -> String {
    if n == 1 {
        "a +1 STAR token".to_string()
    } else {
        format!("{n} +1 STAR tokens")
    }
}

fn amount(a: &Amount) -> String {
    match a {
        Amount::Fixed { rp } => format!("{} RP", rp.value),
        Amount::PerEach { rp, count } => {
            format!("{} RP for each {}", rp.value, self::count(count, false))
        }
        Amount::StarOf { target } => {
            format!("RP equal to the STAR of {}", self::target(target, Ctx::In))
        }
    }
}

/// What `for each` counts (`plural` in conditions: `3 or more fire cards`).
fn count(c: &Count, plural: bool) -> String {
    match c {
        Count::Cards { cards } => query_body(cards, plural, Ctx::In),
        Count::Elements { among } => format!(
            "different {} among {}",
            if plural { "elements" } else { "element" },
            target(among, Ctx::In)
        ),
        Count::Types { among } => format!(
            "different {} among {}",
            if plural { "types" } else { "type" },
            target(among, Ctx::In)
        ),
        Count::Sets { among } => format!(
            "different {} among {}",
            if plural { "sets" } else { "set" },
            target(among, Ctx::In)
        ),
        Count::Tokens { on } => format!(
            "+1 STAR {} on {}",
            if plural { "tokens" } else { "token" },
            target(on, Ctx::In)
        ),
        Count::Opponents => if plural { "opponents" } else { "opponent" }.to_string(),
        Count::FriendshipCards => format!(
            "Friendship {} given to you",
            if plural { "Cards" } else { "Card" }
        ),
        Count::Money { per } if per.value == 1 => "Millennium Dollar you have".to_string(),
        Count::Money { per } => format!("{} Millennium Dollars you have", per.value),
        Count::OpponentsWith { more, measure } => format!(
            "{} with {} than you",
            if plural { "opponents" } else { "opponent" },
            compared(*more, *measure)
        ),
    }
}

/// `3 Millennium Dollars`, `1 Millennium Dollar`, `2 VP`.
fn resource(n: Num, r: Resource) -> String {
    match (r, n.value) {
        (Resource::Money, 1) => "1 Millennium Dollar".to_string(),
        (Resource::Money, n) => format!("{n} Millennium Dollars"),
        (Resource::Vp, n) => format!("{n} VP"),
        (Resource::SellMarker, 1) => "a Sell Marker".to_string(),
        (Resource::SellMarker, n) => format!("{n} Sell Markers"),
    }
}

/// `more RP`, `fewer Millennium Dollars`: what a comparison of players says.
fn compared(more: bool, measure: Measure) -> String {
    let measure = match measure {
        Measure::Rp => "RP",
        Measure::Money => "Millennium Dollars",
        Measure::Vp => "VP",
    };
    format!("{} {measure}", if more { "more" } else { "fewer" })
}

fn player(p: Player) -> String {
    match p {
        Player::You => "you",
        Player::AnOpponent => "an opponent",
        Player::EachOpponent => "each opponent",
        Player::AllPlayers => "all players",
        Player::ClashedOpponent | Player::TriggerPlayer => "that opponent",
        Player::EachOpponentWith { more, measure } => {
            return format!("each opponent with {} than you", compared(more, measure));
        }
    }
    .to_string()
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

fn target(t: &Target, ctx: Ctx) -> String {
    match &t.kind {
        TargetKind::This => "this card".to_string(),
        TargetKind::It => "it".to_string(),
        TargetKind::Them => "them".to_string(),
        TargetKind::Rest => "the rest".to_string(),
        TargetKind::Neighbor { side } => format!("the card to the {}", self::side(*side)),
        TargetKind::TopCard { owner } => format!("{} Top Card", self::owner(*owner)),
        TargetKind::NextCard => "the next card you play".to_string(),
        TargetKind::OfThem { n, up_to } => match (up_to, n.value) {
            (false, 1) => "one of them".to_string(),
            (false, v) => format!("{v} of them"),
            (true, v) => format!("up to {v} of them"),
        },
        TargetKind::StoreTop { count } => {
            if count.value == 1 {
                "the top card of the Store".to_string()
            } else {
                format!("the top {} cards of the Store", count.value)
            }
        }
        TargetKind::Cards(q) => query(q, ctx),
    }
}

fn query(q: &CardQuery, ctx: Ctx) -> String {
    let body = query_body(q, q.quant.is_plural(), ctx);
    match q.quant {
        Quant::One => format!("{} {body}", article(&body)),
        Quant::Another => format!("another {body}"),
        Quant::Number { n } => format!("{} {body}", n.value),
        Quant::UpTo { n } => format!("up to {} {body}", n.value),
        Quant::Each => format!("each {body}"),
        Quant::All => format!("all {body}"),
        Quant::Bare => body,
        Quant::Highest => format!("the highest-STAR {body}"),
        Quant::Lowest => format!("the lowest-STAR {body}"),
    }
}

/// `a` or `an` before a word.
pub(crate) fn article(next: &str) -> &'static str {
    match next.chars().next() {
        Some(c) if "aeiouAEIOU".contains(c) => "an",
        _ => "a",
    }
}

/// Adjectives, noun and what follows, without the quantity.
fn query_body(q: &CardQuery, plural: bool, ctx: Ctx) -> String {
    let mut words: Vec<String> = Vec::new();
    if q.other {
        words.push("other".into());
    }
    if q.adjacent {
        words.push("adjacent".into());
    }
    if let Some(f) = q.face {
        words.push(face(f).into());
    }
    for f in &q.filters {
        words.push(filter(f));
    }
    words.push(noun(q.noun, plural).into());
    if let Some(set) = &q.set {
        words.push(format!("from the {} set", set.name));
    }
    if let Some(s) = q.side {
        words.push(format!("to the {} of this card", side(s)));
    }
    if let Some(p) = q.place {
        words.push(place(p, ctx));
    }
    if let Some(s) = &q.star {
        words.push(format!("with {}", star(s)));
    }
    words.join(" ")
}

fn face(f: Face) -> &'static str {
    match f {
        Face::Up => "face-up",
        Face::Down => "face-down",
    }
}

fn filter(f: &Filter) -> String {
    match f {
        Filter::Element { element } => element.as_str().to_string(),
        Filter::Type { name, .. } => name.clone(),
        Filter::Rarity { rarity } => rarity.words().to_string(),
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

fn place(p: Place, ctx: Ctx) -> String {
    let prep = if ctx == Ctx::From { "from" } else { "in" };
    match p {
        Place::Tableau { owner: Owner::Any } => format!("{prep} any tableau"),
        Place::Tableau { owner } => format!("{prep} {} tableau", self::owner(owner)),
        Place::Hand { owner } => format!("{prep} {} hand", self::owner(owner)),
        Place::Binder { owner } => format!("{prep} {} binder", self::owner(owner)),
        Place::StoreDiscard => format!("{prep} the Store Discard"),
        Place::Aftermarket => format!("{prep} the Aftermarket"),
        Place::Store => format!("{prep} the Store"),
        Place::DeckBoxSlot { owner } => format!("{prep} {} deck box slot", self::owner(owner)),
        Place::AccessorySlots { owner } => {
            format!("{prep} {} accessory slots", self::owner(owner))
        }
    }
}

fn star(s: &StarFilter) -> String {
    match s {
        StarFilter::Compare { cmp, than } => {
            let t = target(than, Ctx::In);
            match cmp {
                StarCmp::Lower => format!("a lower STAR than {t}"),
                StarCmp::Higher => format!("a higher STAR than {t}"),
                StarCmp::Same => format!("the same STAR as {t}"),
            }
        }
        StarFilter::Value { n, bound } => match bound {
            Bound::Exactly => format!("STAR {}", n.value),
            Bound::OrMore => format!("STAR {} or more", n.value),
            Bound::OrLess => format!("STAR {} or less", n.value),
        },
    }
}

fn condition(c: &Condition) -> String {
    match c {
        Condition::Count { count, bound, n } => {
            let plural = !(n.value == 1 && *bound == Bound::Exactly);
            let amount = match (bound, n.value) {
                (Bound::Exactly, 0) => "no".to_string(),
                (Bound::Exactly, v) => format!("exactly {v}"),
                (Bound::OrMore, v) => format!("{v} or more"),
                (Bound::OrLess, v) => format!("{v} or less"),
            };
            let what = self::count(count, plural);
            if counts_yours(count) {
                format!("you have {amount} {what}")
            } else {
                format!("there are {amount} {what}")
            }
        }
        Condition::Star { target, star } => {
            let has = if target.is_plural() { "have" } else { "has" };
            format!(
                "{} {has} {}",
                self::target(target, Ctx::In),
                self::star(star)
            )
        }
        Condition::Is {
            target,
            face,
            filters,
            noun,
        } => {
            let is = if target.is_plural() { "are" } else { "is" };
            let mut words: Vec<String> = Vec::new();
            if let Some(f) = face {
                words.push(self::face(*f).into());
            }
            words.extend(filters.iter().map(filter));
            let mut out = format!("{} {is} ", self::target(target, Ctx::In));
            if let Some(n) = noun {
                words.push(self::noun(*n, target.is_plural()).into());
                let desc = words.join(" ");
                if !target.is_plural() {
                    out.push_str(article(&desc));
                    out.push(' ');
                }
                out.push_str(&desc);
            } else {
                out.push_str(&words.join(" "));
            }
            out
        }
        Condition::Compare {
            more,
            measure,
            than,
            ..
        } => format!(
            "you have {} than {}",
            compared(*more, *measure),
            player(*than)
        ),
        Condition::IsTopCard { target, owner } => format!(
            "{} is {} Top Card",
            self::target(target, Ctx::In),
            self::owner(*owner)
        ),
        Condition::IsNamed { target } => format!(
            "{} {} the named card",
            self::target(target, Ctx::In),
            if target.is_plural() { "are" } else { "is" }
        ),
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
fn whenever(e: &Event) -> String {
    match e {
        Event::TurnStarts { who } => format!("at the start of {} turn", owner(who.owner())),
        Event::TurnEnds { who } => format!("at the end of {} turn", owner(who.owner())),
        Event::DeckbuildingStarts => "at the start of the Deckbuilding Phase".to_string(),
        Event::DeckbuildingEnds => "at the end of the Deckbuilding Phase".to_string(),
        Event::TournamentStarts => "at the start of the tournament".to_string(),
        Event::TournamentEnds => "at the end of the tournament".to_string(),
        _ => format!("whenever {}", event(e)),
    }
}

fn event(e: &Event) -> String {
    let who = |p: Player| player(p);
    let third = |p: Player| third_person(p);
    match e {
        Event::Flips { who: p, target } => format!(
            "{} {} {}",
            who(*p),
            verb("flip", third(*p)),
            self::target(target, Ctx::In)
        ),
        Event::IsFlipped { target } => {
            let is = if target.is_plural() { "are" } else { "is" };
            format!("{} {is} flipped", self::target(target, Ctx::In))
        }
        Event::Plays { who: p, target } => format!(
            "{} {} {}",
            who(*p),
            verb("play", third(*p)),
            self::target(target, Ctx::In)
        ),
        Event::Clash { who: p, result } => match result {
            None => format!("{} {}", who(*p), verb("clash", third(*p))),
            Some(r) => format!(
                "{} {} a clash",
                who(*p),
                verb(
                    match r {
                        ClashResult::Win => "win",
                        ClashResult::Lose => "lose",
                        ClashResult::Tie => "tie",
                    },
                    third(*p)
                )
            ),
        },
        Event::GainsRp { who: p } => format!("{} {} RP", who(*p), verb("gain", third(*p))),
        Event::LosesRp { who: p } => format!("{} {} RP", who(*p), verb("lose", third(*p))),
        Event::TurnStarts { who: p } => format!("{} turn starts", owner(p.owner())),
        Event::TurnEnds { who: p } => format!("{} turn ends", owner(p.owner())),
        Event::Passes { who: p } => format!("{} {}", who(*p), verb("pass", third(*p))),
        Event::Fuses { who: p } => format!("{} {} cards", who(*p), verb("fuse", third(*p))),
        Event::MakesCollection { who: p } => {
            format!("{} {} a collection", who(*p), verb("make", third(*p)))
        }
        Event::Trades { who: p } => format!("{} {}", who(*p), verb("trade", third(*p))),
        Event::Buys { who: p, target } => format!(
            "{} {} {}",
            who(*p),
            verb("buy", third(*p)),
            self::target(target, Ctx::From)
        ),
        Event::Sells { who: p, target } => format!(
            "{} {} {} to the Aftermarket",
            who(*p),
            verb("sell", third(*p)),
            self::target(target, Ctx::From)
        ),
        Event::DeckbuildingStarts => "the Deckbuilding Phase starts".to_string(),
        Event::DeckbuildingEnds => "the Deckbuilding Phase ends".to_string(),
        Event::TournamentStarts => "the tournament starts".to_string(),
        Event::TournamentEnds => "the tournament ends".to_string(),
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
