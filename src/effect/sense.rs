//! Sense checks: effects that parse and check but do nothing or contradict
//! themselves (flipping what the timing already flips, one-shots under
//! lasting timings, gaining and losing the same, opposite modifiers,
//! conditions that can never hold, places a card kind is never in,
//! references whose card is not what they say). Each finding is a warning
//! with a fix; the card may still be what its designer meant.
//!
//! [`what_it_does`] is the normal form under which two texts do the same:
//! the flip an Action or Reaction makes anyway, and its `you may`, are no
//! difference. The keyword table compares a reminder override with its
//! meaning through it.

use super::Vocabulary;
use super::ast::*;
use super::error::EffectError;
use crate::words::CardKind;

/// The six elements: a count of different elements above this never holds.
const ELEMENTS: u32 = 6;

/// Sense findings of a checked effect on a card of `kind` (when known), in
/// text order per check.
pub fn sense(effect: &Effect, kind: Option<CardKind>, vocab: &Vocabulary) -> Vec<EffectError> {
    let mut out = Vec::new();
    let mut modifiers = Vec::new();
    for line in &effect.lines {
        let Line::Ability(a) = line else { continue };
        flips_already_flipped(a, &mut out);
        one_shots_under_lasting_timing(a, &mut out);
        durations_over_one_shots(a, &mut out);
        kind_never_there(a, kind, &mut out);
        timing_never_works(a, kind, &mut out);
        if kind == Some(CardKind::Venue) {
            every_player_once_per_player(a, &mut out);
        }
        references(a, &mut out);
        for s in &a.sentences {
            gains_and_loses(s, &mut out);
            if let Some(c) = &s.condition {
                condition_never_holds(a.timing, c, kind, vocab, s.span, &mut out);
            }
            for c in s.each_clause() {
                each_query(c, &mut |q| place_never_holds(q, &mut out));
                if let Some(m) = Modifier::of(c, a.timing, s.condition.as_ref()) {
                    modifiers.push(m);
                }
            }
        }
    }
    opposite_modifiers(&modifiers, &mut out);
    out
}

/// The effect as what it does: an Action's or Reaction's own flip of this
/// card (the rulebook flips it anyway: "To use an action, perform the text
/// on the card, then flip the card face-down"; "When you activate a
/// Reaction, the card that triggers it is flipped face-down") and its `you
/// may` (both are optional anyway) are dropped, as are sentences left empty.
pub fn what_it_does(effect: &Effect) -> Effect {
    let mut effect = effect.clone();
    for line in &mut effect.lines {
        let Line::Ability(a) = line else { continue };
        if !flips_itself_anyway(a.timing) {
            continue;
        }
        let mut dropped = false;
        for s in &mut a.sentences {
            s.optional = false;
            for list in [&mut s.cost, &mut s.clauses] {
                if !dropped && let Some(i) = list.iter().position(flips_this_card) {
                    list.remove(i);
                    dropped = true;
                }
            }
            if s.clauses.is_empty() && s.choice.is_empty() {
                s.clauses = std::mem::take(&mut s.cost);
            }
        }
        a.sentences.retain(|s| {
            !s.clauses.is_empty()
                || !s.choice.is_empty()
                || s.outcome.is_some()
                || s.condition.is_some()
        });
    }
    effect
}

/// Timings whose use flips this card (an Action) or that flip it when they
/// activate (a Reaction).
fn flips_itself_anyway(t: Timing) -> bool {
    matches!(t, Timing::Action | Timing::Reaction)
}

/// `flip this card`, done by you.
fn flips_this_card(c: &Clause) -> bool {
    matches!(
        c,
        Clause::Act {
            subject: Player::You,
            action: Action::Flip { target },
            ..
        } if target.kind == TargetKind::This
    )
}

/// Is this card face-down already when the ability's text starts? After a
/// Flip (it has just been flipped) or a Reaction to its own flip.
fn already_face_down(a: &Ability) -> bool {
    let flipped_itself = |t: &Target| t.kind == TargetKind::This;
    a.timing == Timing::Flip
        || matches!(
            &a.trigger,
            Some(Event::Flips { target, .. } | Event::IsFlipped { target }) if flipped_itself(target)
        )
}

/// Flipping this card where it is face-down already, or a second time in an
/// Action or Reaction (whose one flip, written or not, is the rule's).
fn flips_already_flipped(a: &Ability, out: &mut Vec<EffectError>) {
    let face_down = already_face_down(a);
    let mut flips = 0;
    for c in a.sentences.iter().flat_map(Sentence::each_clause) {
        if !flips_this_card(c) {
            continue;
        }
        flips += 1;
        let why = if face_down {
            match a.timing {
                Timing::Flip => {
                    "a Flip ability works when this card has just been flipped face down"
                }
                _ => "this Reaction answers this card being flipped: it is face down already",
            }
        } else if flips > 1 {
            "this card is flipped earlier in the same ability"
        } else {
            continue;
        };
        out.push(
            EffectError::new(
                "sense-flip-flipped",
                c.span().range(),
                "this flips a card that is already face down",
                why,
            )
            .with_help("remove `flip this card`: it does nothing here"),
        );
    }
}

/// A one-shot action under `Ongoing:` or `Top:`, which state what holds
/// while the card is face-up and never say when something happens (unless
/// the sentence says `Whenever …,` or `At the start of your turn,`).
fn one_shots_under_lasting_timing(a: &Ability, out: &mut Vec<EffectError>) {
    if !a.timing.is_continuous() || a.trigger.is_some() {
        return;
    }
    // A `whenever` sentence says when it happens: each time its event does.
    for s in a.sentences.iter().filter(|s| s.whenever.is_none()) {
        for c in s.each_clause() {
            if is_one_shot(c) {
                out.push(
                    EffectError::new(
                        "sense-one-shot-lasting",
                        c.span().range(),
                        format!(
                            "a one-shot action under `{}:`, which states what holds {}",
                            a.timing.word(),
                            a.timing.when()
                        ),
                        "never says when this happens",
                    )
                    .with_help(
                        "write it as `Play:` (once, when played) or `Score:` (at the end of the tournament), or state what holds (`has +1 STAR`, `cannot be flipped`)",
                    ),
                );
            }
        }
    }
}

/// `Until the end of the turn,` over a sentence whose every clause happens
/// once: nothing it does lasts, so the duration says nothing.
fn durations_over_one_shots(a: &Ability, out: &mut Vec<EffectError>) {
    for s in a.sentences.iter().filter(|s| s.until.is_some()) {
        if s.ways().all(|way| way.iter().all(is_one_shot)) {
            out.push(
                EffectError::new(
                    "sense-until-nothing-lasts",
                    s.span.range(),
                    "nothing this sentence does lasts: each of its actions happens once",
                    "lasts until nothing",
                )
                .with_help(
                    "remove `until the end of …`, or say what holds until then (`this card has +1 STAR`)",
                ),
            );
        }
    }
}

/// An action that happens once. Extra tableau slots last while the card
/// does, and a copied effect is the copied card's, lasting or not.
fn is_one_shot(c: &Clause) -> bool {
    match c {
        Clause::Act { action, .. } => {
            !matches!(action, Action::GainSlots { .. } | Action::CopyEffect { .. })
        }
        Clause::State { .. } | Clause::Cannot { .. } | Clause::Rule { .. } => false,
    }
}

/// What a player gains or loses: RP, Millennium Dollars or VP.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Counter {
    Rp,
    Other(Resource),
}

impl Counter {
    /// The unit as the source writes it.
    fn unit(self) -> &'static str {
        match self {
            Counter::Rp => "RP",
            Counter::Other(r) => r.unit(),
        }
    }
}

/// How much of it: an RP amount, or a number.
#[derive(Clone, Copy, PartialEq)]
enum Much<'a> {
    Amount(&'a Amount),
    Fixed(u32),
    /// `1 VP for each …`.
    PerEach(u32, &'a Count),
}

impl<'a> Much<'a> {
    fn of(n: Num, per: &'a Option<Count>) -> Much<'a> {
        match per {
            None => Much::Fixed(n.value),
            Some(count) => Much::PerEach(n.value, count),
        }
    }

    fn fixed(self) -> Option<u32> {
        match self {
            Much::Fixed(n) => Some(n),
            Much::Amount(Amount::Fixed { rp }) => Some(rp.value),
            Much::Amount(_) | Much::PerEach(..) => None,
        }
    }
}

/// One gain or loss of a sentence (paying money is losing it).
struct Change<'a> {
    subject: Player,
    counter: Counter,
    gain: bool,
    much: Much<'a>,
    span: Span,
}

/// The gain or loss a clause makes, if it makes one.
fn change(c: &Clause) -> Option<Change<'_>> {
    let Clause::Act {
        subject,
        action,
        span,
    } = c
    else {
        return None;
    };
    let (counter, gain, much) = match action {
        Action::GainRp { amount } => (Counter::Rp, true, Much::Amount(amount)),
        Action::LoseRp { amount } => (Counter::Rp, false, Much::Amount(amount)),
        Action::Gain { n, resource, per } => (Counter::Other(*resource), true, Much::of(*n, per)),
        Action::Lose { n, resource, per } => (Counter::Other(*resource), false, Much::of(*n, per)),
        Action::PayMoney { n } => (Counter::Other(Resource::Money), false, Much::Fixed(n.value)),
        _ => return None,
    };
    Some(Change {
        subject: *subject,
        counter,
        gain,
        much,
        span: *span,
    })
}

/// Gaining and losing (or paying) the same for the same player in one
/// sentence, its cost included.
fn gains_and_loses(s: &Sentence, out: &mut Vec<EffectError>) {
    // The options of a choice are alternatives: each is weighed with the
    // cost, never with another option.
    for way in s.ways() {
        let changes: Vec<Change> = s.cost.iter().chain(way).filter_map(change).collect();
        undone_changes(&changes, out);
    }
}

/// Each change that undoes one written before it.
fn undone_changes(changes: &[Change], out: &mut Vec<EffectError>) {
    for (i, later) in changes.iter().enumerate() {
        let Some(earlier) = changes[..i].iter().find(|e| {
            e.subject == later.subject && e.counter == later.counter && e.gain != later.gain
        }) else {
            continue;
        };
        let unit = later.counter.unit();
        let help = match (earlier.much.fixed(), later.much.fixed()) {
            (Some(a), Some(b)) if a != b => {
                let (gain, lose) = if earlier.gain { (a, b) } else { (b, a) };
                match gain > lose {
                    true => format!("write the difference once: `gain {} {unit}`", gain - lose),
                    false => format!("write the difference once: `lose {} {unit}`", lose - gain),
                }
            }
            _ if earlier.much == later.much => "remove both: together they do nothing".to_string(),
            _ => format!("write one change of {unit} for the player"),
        };
        out.push(
            EffectError::new(
                "sense-gain-and-lose",
                later.span.range(),
                format!("one sentence makes the same player gain and lose {unit}"),
                format!(
                    "undoes `{}` written before",
                    if earlier.gain { "gain" } else { "lose" }
                ),
            )
            .with_help(format!(
                "{help} (the other is at bytes {}..{})",
                earlier.span.start, earlier.span.end
            )),
        );
    }
}

/// What a modifier changes: a STAR of cards, or a number of a player's
/// (hand size, Card Fusion size).
#[derive(PartialEq)]
enum Modified<'a> {
    Star(&'a Target),
    Rule { who: Player, what: &'static str },
}

/// A lasting `+N` or `-N`, for the opposite-modifier check.
struct Modifier<'a> {
    modified: Modified<'a>,
    timing: Timing,
    condition: Option<&'a Condition>,
    delta: i32,
    span: Span,
}

impl<'a> Modifier<'a> {
    fn of(c: &'a Clause, timing: Timing, condition: Option<&'a Condition>) -> Option<Self> {
        let (modified, delta, span) = match c {
            Clause::State {
                target,
                state: State::StarBonus { delta },
                span,
            } => (Modified::Star(target), *delta, *span),
            Clause::Rule { who, rule, span } => {
                let (what, delta) = match *rule {
                    PlayerRule::HandSize {
                        size: HandSize::By { delta },
                    } => ("hand size", delta),
                    PlayerRule::FusionSize { delta } => ("Card Fusion size", delta),
                    _ => return None,
                };
                (Modified::Rule { who: *who, what }, delta, *span)
            }
            _ => return None,
        };
        Some(Modifier {
            modified,
            timing,
            condition,
            delta,
            span,
        })
    }
}

/// `+1 STAR` and `-1 STAR` on the same cards (or a player's hand size
/// raised and lowered) under the same condition.
fn opposite_modifiers(modifiers: &[Modifier], out: &mut Vec<EffectError>) {
    for (i, later) in modifiers.iter().enumerate() {
        let opposite = modifiers[..i].iter().find(|m| {
            m.modified == later.modified
                && m.condition == later.condition
                && m.timing.is_continuous() == later.timing.is_continuous()
                && m.delta.signum() == -later.delta.signum()
        });
        let Some(earlier) = opposite else { continue };
        let sum = earlier.delta + later.delta;
        let (what, whose, sum_once) = match later.modified {
            Modified::Star(_) => ("STAR", "on the same cards", format!("`has {sum:+} STAR`")),
            Modified::Rule { what, .. } => (what, "for the same player", format!("({sum:+})")),
        };
        let fix = match sum {
            0 => "remove both: together they do nothing".to_string(),
            _ => format!("write their sum once: {sum_once}"),
        };
        out.push(
            EffectError::new(
                "sense-opposite-modifiers",
                later.span.range(),
                format!(
                    "opposite {what} changes ({:+} and {:+}) {whose}",
                    earlier.delta, later.delta
                ),
                "undoes the change written before",
            )
            .with_help(format!(
                "{fix} (the other is at bytes {}..{})",
                earlier.span.start, earlier.span.end
            )),
        );
    }
}

/// A condition no game state meets.
fn condition_never_holds(
    timing: Timing,
    c: &Condition,
    kind: Option<CardKind>,
    vocab: &Vocabulary,
    at: Span,
    out: &mut Vec<EffectError>,
) {
    let why = match c {
        Condition::Count {
            count: count @ (Count::Elements { .. } | Count::Types { .. }),
            bound: Bound::OrMore | Bound::Exactly,
            n,
        } => {
            let (most, what) = match count {
                Count::Elements { .. } => (ELEMENTS, "elements"),
                _ => (vocab.types.len() as u32, "types"),
            };
            (n.value > most).then(|| format!("there are only {most} {what}"))
        }
        Condition::Star {
            target,
            star: StarFilter::Compare { cmp, than },
        } if target.kind == TargetKind::This
            && than.kind == TargetKind::This
            && *cmp != StarCmp::Same =>
        {
            Some("a card's STAR is never lower or higher than its own".to_string())
        }
        Condition::Is {
            target,
            face: Some(face),
            ..
        } if target.kind == TargetKind::This => face_never(timing, *face),
        Condition::Is {
            target,
            noun: Some(noun),
            ..
        } if target.kind == TargetKind::This => kind
            .filter(|k| !noun_fits(*noun, *k))
            .map(|k| format!("this card is {}", kind_words(k))),
        Condition::IsTopCard { target, owner } if target.kind == TargetKind::This => {
            if !matches!(owner, Owner::You | Owner::Their | Owner::Any) {
                Some("this card is in your tableau, never an opponent's".to_string())
            } else if kind.is_some_and(|k| k != CardKind::Single) {
                Some("a Top Card is always a single".to_string())
            } else {
                None
            }
        }
        _ => None,
    };
    if let Some(why) = why {
        out.push(
            EffectError::new(
                "sense-never-holds",
                at.range(),
                "this condition can never hold",
                why,
            )
            .with_help("change the condition or remove the sentence: as written it never happens"),
        );
    }
}

/// Why this card is never `face` while the ability works, if it never is.
fn face_never(timing: Timing, face: Face) -> Option<String> {
    let face_up_timing = matches!(
        timing,
        Timing::Play | Timing::Ongoing | Timing::Top | Timing::Score
    );
    match face {
        Face::Down if face_up_timing => Some(format!(
            "`{}:` works while this card is face-up",
            timing.word()
        )),
        Face::Up if timing == Timing::Flip => {
            Some("a Flip ability works when this card has just been flipped face down".to_string())
        }
        _ => None,
    }
}

/// A card of this kind, in words.
fn kind_words(kind: CardKind) -> &'static str {
    match kind {
        CardKind::Single => "a single",
        CardKind::DeckBox => "a deck box",
        CardKind::Accessory => "an accessory",
        CardKind::Venue => "a venue",
        CardKind::Character => "a character",
    }
}

/// Is a card of this kind what the noun names?
fn noun_fits(noun: Noun, kind: CardKind) -> bool {
    match noun {
        Noun::Card => true,
        Noun::Single => kind == CardKind::Single,
        Noun::DeckBox => kind == CardKind::DeckBox,
        Noun::Accessory => kind == CardKind::Accessory,
    }
}

/// Deck boxes and accessories are never in a tableau, which holds singles.
fn place_never_holds(q: &CardQuery, out: &mut Vec<EffectError>) {
    let Some(place) = q.place else { return };
    // What each place of play holds: a tableau singles, the deck box slot
    // a deck box, the accessory slots accessories.
    let (holds, place_words, help) = match place {
        Place::Tableau { .. } => (
            Noun::Single,
            "a tableau",
            "a tableau holds singles: write `single` or `card`, or name the hand or binder",
        ),
        Place::DeckBoxSlot { .. } => (
            Noun::DeckBox,
            "the deck box slot",
            "the deck box slot holds a deck box: write `deck box` or `card`",
        ),
        Place::AccessorySlots { .. } => (
            Noun::Accessory,
            "the accessory slots",
            "the accessory slots hold accessories: write `accessory` or `card`",
        ),
        _ => return,
    };
    if q.noun == Noun::Card || q.noun == holds {
        return;
    }
    let noun = match q.noun {
        Noun::DeckBox => "deck box",
        Noun::Accessory => "accessory",
        _ => "single",
    };
    out.push(
        EffectError::new(
            "sense-never-there",
            q.span.range(),
            format!("{place_words} never holds a {noun}"),
            "no card is ever here",
        )
        .with_help(help),
    );
}

/// Abilities of a deck box or accessory that only a single in the tableau
/// can use: a Top ability, inserting itself into the tableau.
fn kind_never_there(a: &Ability, kind: Option<CardKind>, out: &mut Vec<EffectError>) {
    let Some(kind) = kind.filter(|k| *k != CardKind::Single) else {
        return;
    };
    // A Venue's or a character's timings are `timing_never_works`'s.
    if a.timing == Timing::Top && !is_table_card(kind) {
        out.push(
            EffectError::new(
                "sense-never-there",
                a.timing_span.range(),
                format!("{} is never a Top Card", kind_words(kind)),
                "never works",
            )
            .with_help("a Top Card is the right-most face-up single in a tableau: use `Ongoing:` or another timing"),
        );
    }
    for c in a.sentences.iter().flat_map(Sentence::each_clause) {
        if let Clause::Act {
            action: Action::Insert { target, .. },
            span,
            ..
        } = c
            && target.kind == TargetKind::This
        {
            out.push(
                EffectError::new(
                    "sense-never-there",
                    span.range(),
                    format!("{} never goes into a tableau", kind_words(kind)),
                    "never happens",
                )
                .with_help("a tableau holds singles: insert a single, or remove this"),
            );
        }
    }
}

/// Venues and characters: cards on the table, never in a deck, a tableau
/// or a binder.
fn is_table_card(kind: CardKind) -> bool {
    matches!(kind, CardKind::Venue | CardKind::Character)
}

/// A timing a card of this kind never reaches. A Venue or a character is
/// never played, flipped or in a tableau: its powers are `Deckbuilding:`
/// and `Tournament:` abilities (a character's also `Game End:`; a Venue is
/// discarded "when the tournament ends"). A card of a tableau lasts
/// through the tournament as `Ongoing:` says, from when it is played.
fn timing_never_works(a: &Ability, kind: Option<CardKind>, out: &mut Vec<EffectError>) {
    let Some(kind) = kind else { return };
    let what = kind_words(kind);
    let (message, help, fix) = match (is_table_card(kind), a.timing) {
        (false, Timing::Tournament) => (
            format!(
                "`Tournament:` is a Venue's or a character's, and {what} works in a tournament from when it is played"
            ),
            "write its lasting ability as `Ongoing:`",
            Some("Ongoing"),
        ),
        (true, Timing::Deckbuilding | Timing::Tournament) => return,
        (true, Timing::GameEnd) if kind == CardKind::Character => return,
        (true, Timing::GameEnd) => (
            format!("{what} is discarded when the tournament ends, before the game ends"),
            "say it `At the end of the tournament,` in a `Tournament:` ability",
            None,
        ),
        (true, Timing::Ongoing | Timing::Top) => (
            format!(
                "{what} is never in a tableau, so `{}:` never works",
                a.timing.word()
            ),
            "its tournament rules are `Tournament:` abilities, lasting while the tournament does",
            Some("Tournament"),
        ),
        (true, _) => (
            format!(
                "{what} is never played or flipped, so `{}:` never works",
                a.timing.word()
            ),
            "its powers are `Deckbuilding:` and `Tournament:` abilities (`At the start of the tournament,` happens once)",
            None,
        ),
        (false, _) => return,
    };
    out.push(
        EffectError::new(
            "sense-timing-kind",
            a.timing_span.range(),
            message,
            "never works",
        )
        .with_help(help)
        .with_fix(a.timing_span.range(), fix),
    );
}

/// A Venue's rules are every player's ("rules to follow"): each player
/// follows them as `you`. A clause that every player or each opponent does
/// would then happen once for each player: `all players gain 1 RP` on a
/// Venue gives each player 1 RP for every player at the table.
fn every_player_once_per_player(a: &Ability, out: &mut Vec<EffectError>) {
    for c in a.sentences.iter().flat_map(Sentence::each_clause) {
        let (Clause::Act {
            subject: who, span, ..
        }
        | Clause::Cannot { who, span, .. }
        | Clause::Rule { who, span, .. }) = c
        else {
            continue;
        };
        if matches!(
            who,
            Player::AllPlayers | Player::EachOpponent | Player::EachOpponentWith { .. }
        ) {
            out.push(
                EffectError::new(
                    "sense-venue-every-player",
                    span.range(),
                    "a Venue's rules are every player's, so a clause of every player (or of each opponent) happens once for each player",
                    "happens once per player",
                )
                .with_help("write it for one player, as `you`: each player follows a Venue's rules (`gain 1 RP`, not `all players gain 1 RP`)"),
            );
        }
    }
}

/// What `it` or `them` could refer to: one card or several.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Referent {
    One,
    /// Several cards, at most this many when known.
    Several(Option<u32>),
}

/// `it` for several cards, `them` for one, `3 of them` out of two.
fn references(a: &Ability, out: &mut Vec<EffectError>) {
    let mut referent = (a.timing == Timing::Next).then_some(Referent::One);
    let mut picked_from = None;
    if let Some(target) = a.trigger.as_ref().and_then(event_target) {
        referent = Some(referent_of(target, referent));
    }
    for s in &a.sentences {
        if let Some(target) = s.whenever.as_ref().and_then(event_target) {
            referent = Some(referent_of(target, referent));
        }
        if let Some(c) = &s.condition {
            each_condition_target(c, &mut |t| referent = Some(referent_of(t, referent)));
        }
        for c in s.each_clause() {
            each_target(c, &mut |t| {
                if let Some(r) = referent {
                    // `the rest` is what remains of the cards a pick was made from.
                    let r = match t.kind {
                        TargetKind::Rest => picked_from.unwrap_or(r),
                        _ => r,
                    };
                    reference(t, r, out);
                }
                if matches!(t.kind, TargetKind::It | TargetKind::OfThem { .. }) {
                    picked_from = referent;
                }
                referent = Some(referent_of(t, referent));
            });
        }
    }
}

/// The card an event names, which `it` may refer to.
fn event_target(e: &Event) -> Option<&Target> {
    match e {
        Event::Flips { target, .. } | Event::IsFlipped { target } | Event::Plays { target, .. } => {
            Some(target)
        }
        _ => None,
    }
}

/// One target that refers back, against what it refers to.
fn reference(t: &Target, r: Referent, out: &mut Vec<EffectError>) {
    let (why, help) = match (&t.kind, r) {
        (TargetKind::It, Referent::Several(_)) => (
            "`it` names one card, but the cards before it are several".to_string(),
            "write `them`, or `one of them`",
        ),
        (TargetKind::Them, Referent::One) => (
            "`them` names several cards, but the card before it is one".to_string(),
            "write `it`",
        ),
        (TargetKind::Rest, Referent::One) => (
            "`the rest` of one card is no card".to_string(),
            "name several cards before (`the top 3 cards of the Store`), or leave it out",
        ),
        (TargetKind::OfThem { n, .. }, Referent::One) if n.value > 1 => (
            format!("`{} of them` out of one card", n.value),
            "write `it`, or name more cards before",
        ),
        (TargetKind::OfThem { n, up_to: false }, Referent::Several(Some(most)))
            if n.value > most =>
        {
            (
                format!("`{} of them` out of {most} cards", n.value),
                "take at most as many as were named, or write `up to`",
            )
        }
        _ => return,
    };
    out.push(
        EffectError::new(
            "sense-reference",
            t.span.range(),
            "this refers to cards that are not what it says",
            why,
        )
        .with_help(help),
    );
}

/// What a target leaves for `it`/`them`: a pronoun keeps what it refers to.
fn referent_of(t: &Target, before: Option<Referent>) -> Referent {
    match &t.kind {
        TargetKind::It => before.unwrap_or(Referent::One),
        TargetKind::Them => before.unwrap_or(Referent::Several(None)),
        TargetKind::OfThem { n, up_to } => match (n.value, up_to) {
            (1, false) => Referent::One,
            (n, _) => Referent::Several(Some(n)),
        },
        TargetKind::StoreTop { count } if count.value > 1 => Referent::Several(Some(count.value)),
        TargetKind::Cards(q) => match q.quant {
            Quant::One | Quant::Another | Quant::Highest | Quant::Lowest => Referent::One,
            Quant::Number { n } if n.value == 1 => Referent::One,
            Quant::Number { n } | Quant::UpTo { n } => Referent::Several(Some(n.value)),
            _ => Referent::Several(None),
        },
        _ if t.is_plural() => Referent::Several(None),
        _ => Referent::One,
    }
}

/// The cards a clause names, in the order written (not those inside them).
fn each_target<'a>(c: &'a Clause, f: &mut impl FnMut(&'a Target)) {
    match c {
        Clause::State { target, state, .. } => {
            f(target);
            if let State::Mimic { source, .. } = state {
                f(source);
            }
        }
        Clause::Cannot { deed, .. } => {
            if let Some(target) = deed.target() {
                f(target);
            }
        }
        Clause::Rule { .. } => {}
        Clause::Act { action, .. } => {
            match action.amount() {
                Some(Amount::StarOf { target }) => f(target),
                Some(Amount::PerEach { count, .. }) => each_count_target(count, f),
                Some(Amount::Fixed { .. }) | None => {}
            }
            if let Some(count) = action.per() {
                each_count_target(count, f);
            }
            action.each_target(f);
        }
    }
}

fn each_count_target<'a>(c: &'a Count, f: &mut impl FnMut(&'a Target)) {
    match c {
        Count::Elements { among } | Count::Types { among } | Count::Sets { among } => f(among),
        Count::Tokens { on } => f(on),
        Count::Cards { .. }
        | Count::Opponents
        | Count::OpponentsWith { .. }
        | Count::FriendshipCards
        | Count::Money { .. } => {}
    }
}

fn each_condition_target<'a>(c: &'a Condition, f: &mut impl FnMut(&'a Target)) {
    match c {
        Condition::Count { count, .. } => each_count_target(count, f),
        Condition::Star { target, .. }
        | Condition::Is { target, .. }
        | Condition::IsTopCard { target, .. }
        | Condition::IsNamed { target } => f(target),
        Condition::Compare { .. } => {}
    }
}

/// Every card description of a clause, nested ones included.
fn each_query<'a>(c: &'a Clause, f: &mut impl FnMut(&'a CardQuery)) {
    fn target<'a>(t: &'a Target, f: &mut impl FnMut(&'a CardQuery)) {
        if let TargetKind::Cards(q) = &t.kind {
            query(q, f);
        }
    }
    fn query<'a>(q: &'a CardQuery, f: &mut impl FnMut(&'a CardQuery)) {
        f(q);
        if let Some(StarFilter::Compare { than, .. }) = &q.star {
            target(than, f);
        }
    }
    if let Clause::Act {
        action:
            Action::GainRp {
                amount:
                    Amount::PerEach {
                        count: Count::Cards { cards },
                        ..
                    },
            }
            | Action::LoseRp {
                amount:
                    Amount::PerEach {
                        count: Count::Cards { cards },
                        ..
                    },
            },
        ..
    } = c
    {
        query(cards, f);
    }
    each_target(c, &mut |t| target(t, f));
}
