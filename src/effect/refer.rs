//! Words that refer back to a player: `their` and `that opponent`.
//!
//! A line names players as it goes: a Reaction's trigger done by `an
//! opponent` names that opponent, and `clash with an opponent` names the
//! opponent you clash with, for the rest of the line; `Whenever an opponent
//! …,` names that opponent for its sentence. `that opponent` (and
//! `that opponent's`) is the player named last. `their` is the player doing
//! the clause (`each opponent loses 1 RP for each card in their hand`); in a
//! clause you do, where `your` would name you, it is the player named last
//! (`Clash with an opponent. Win: flip their Top Card.`).
//!
//! The parser binds each word as it reads the line, so the tree says who is
//! meant ([`Player::ClashedOpponent`], [`Owner::TriggerPlayer`], …); the
//! check reports a reference with nothing to refer to, and one with two
//! players it could mean (a Reaction to an opponent that also clashes with
//! an opponent), which a reader could take either way.

use super::ast::*;
use super::error::EffectError;

/// The player a Reaction's trigger names (`when an opponent plays …`).
pub(crate) fn named_by_trigger(event: &Event) -> Option<Player> {
    let who = match event {
        Event::Flips { who, .. }
        | Event::Plays { who, .. }
        | Event::Clash { who, .. }
        | Event::GainsRp { who }
        | Event::LosesRp { who }
        | Event::TurnStarts { who }
        | Event::TurnEnds { who }
        | Event::Passes { who }
        | Event::Fuses { who }
        | Event::MakesCollection { who }
        | Event::Trades { who }
        | Event::Buys { who, .. }
        | Event::Sells { who, .. } => *who,
        Event::IsFlipped { .. }
        | Event::DeckbuildingStarts
        | Event::DeckbuildingEnds
        | Event::TournamentStarts
        | Event::TournamentEnds => {
            return None;
        }
    };
    (who == Player::AnOpponent).then_some(Player::TriggerPlayer)
}

/// The player named last once `subject` has done `action`: a clash you
/// start with one opponent names that opponent.
pub(crate) fn named_after(
    named: Option<Player>,
    subject: Player,
    action: &Action,
) -> Option<Player> {
    match (subject, action) {
        (
            Player::You,
            Action::Clash {
                with: ClashWith::Opponent,
            },
        ) => Some(Player::ClashedOpponent),
        _ => named,
    }
}

/// What `their` means in a clause done by `subject`.
pub(crate) fn their(subject: Player, named: Option<Player>) -> Owner {
    match (subject, named) {
        (Player::You, Some(_)) => owner_of(named),
        _ => Owner::Their,
    }
}

/// `that opponent's`: the player named last. With no one named it still
/// reads as the clashed opponent, and the check reports it.
pub(crate) fn owner_of(named: Option<Player>) -> Owner {
    match named {
        Some(Player::TriggerPlayer) => Owner::TriggerPlayer,
        _ => Owner::ClashedOpponent,
    }
}

/// Reports, for one ability, every player reference with nothing to refer
/// to and every one a reader could take two ways.
pub(crate) fn check(a: &Ability, errors: &mut Vec<EffectError>) {
    if let Some(event) = &a.trigger {
        event_references(event, errors);
    }
    let trigger = a.trigger.as_ref().and_then(named_by_trigger);
    let mut clashed = None;
    for s in &a.sentences {
        if let Some(event) = &s.whenever {
            event_references(event, errors);
        }
        // A `Whenever` event's opponent is named for its sentence.
        let trigger = s.whenever.as_ref().and_then(named_by_trigger).or(trigger);
        if let Some(c) = &s.condition {
            condition_owners(c, &mut |o, at| {
                judge_owner(o, Player::You, [trigger, clashed], at, errors)
            });
        }
        for c in s.each_clause() {
            match c {
                Clause::Act {
                    subject,
                    action,
                    span,
                } => {
                    if subject.is_reference() {
                        judge_player(*subject, [trigger, clashed], *span, errors);
                    }
                    if let Action::GiveFriendship { to, .. } | Action::GiveMoney { to, .. } = action
                        && to.is_reference()
                    {
                        judge_player(*to, [trigger, clashed], *span, errors);
                    }
                    action_owners(action, &mut |o, at| {
                        judge_owner(o, *subject, [trigger, clashed], at, errors)
                    });
                    clashed = named_after(clashed, *subject, action);
                }
                Clause::Rule { who, span, .. } => {
                    if who.is_reference() {
                        judge_player(*who, [trigger, clashed], *span, errors);
                    }
                }
                Clause::Cannot { who, deed, span } => {
                    if who.is_reference() {
                        judge_player(*who, [trigger, clashed], *span, errors);
                    }
                    if let Some(target) = deed.target() {
                        target_owners(target, &mut |o, at| {
                            judge_owner(o, *who, [trigger, clashed], at, errors)
                        });
                    }
                }
                Clause::State { target, state, .. } => {
                    let mut judge =
                        |o, at| judge_owner(o, Player::You, [trigger, clashed], at, errors);
                    target_owners(target, &mut judge);
                    if let State::Mimic { source, .. } = state {
                        target_owners(source, &mut judge);
                    }
                }
            }
        }
    }
}

/// A trigger comes first in its line: nothing before it can be referred to.
fn event_references(event: &Event, errors: &mut Vec<EffectError>) {
    let (who, target) = match event {
        Event::Flips { who, target }
        | Event::Plays { who, target }
        | Event::Buys { who, target }
        | Event::Sells { who, target } => (*who, Some(target)),
        Event::IsFlipped { target } => (Player::You, Some(target)),
        Event::DeckbuildingStarts
        | Event::DeckbuildingEnds
        | Event::TournamentStarts
        | Event::TournamentEnds => (Player::You, None),
        Event::Clash { who, .. }
        | Event::GainsRp { who }
        | Event::LosesRp { who }
        | Event::TurnStarts { who }
        | Event::TurnEnds { who }
        | Event::Passes { who }
        | Event::Fuses { who }
        | Event::MakesCollection { who }
        | Event::Trades { who } => (*who, None),
    };
    let at = target.map_or(Span::default(), |t| t.span);
    if who.is_reference() {
        judge_player(who, [None, None], at, errors);
    }
    if let Some(target) = target {
        target_owners(target, &mut |o, at| {
            if let Some(p) = o.reference() {
                judge_player(p, [None, None], at, errors)
            }
        });
    }
}

fn judge_owner(
    owner: Owner,
    subject: Player,
    named: [Option<Player>; 2],
    at: Span,
    errors: &mut Vec<EffectError>,
) {
    if let Some(player) = owner.reference() {
        return judge_player(player, named, at, errors);
    }
    if owner == Owner::Their && subject == Player::You {
        errors.push(
            EffectError::new(
                "player-without-antecedent",
                at.range(),
                "`their` refers to no player here: you do this clause, and no other player is named before it",
                "whose?",
            )
            .with_help("write `your` for your own cards, or name the player first (`Clash with an opponent. Win: flip their Top Card.`)"),
        );
    }
}

fn judge_player(
    player: Player,
    named: [Option<Player>; 2],
    at: Span,
    errors: &mut Vec<EffectError>,
) {
    match named {
        [Some(_), Some(_)] => errors.push(
            EffectError::new(
                "ambiguous-reference",
                at.range(),
                "this can mean the opponent who set this off (a Reaction's trigger or a `Whenever`) or the opponent you clashed with",
                "which opponent?",
            )
            .with_help("a line can refer back to one opponent only: name the player again instead (`an opponent`, `each opponent`)"),
        ),
        [Some(p), None] | [None, Some(p)] if p == player => {}
        _ => errors.push(
            EffectError::new(
                "player-without-antecedent",
                at.range(),
                "`that opponent` refers to no opponent named before it",
                "which opponent?",
            )
            .with_help("name the opponent first: `clash with an opponent`, a Reaction's `(when an opponent …)` or `Whenever an opponent …,`"),
        ),
    }
}

type Visit<'a> = &'a mut dyn FnMut(Owner, Span);

/// Every owner written in an action, with the span of the card it names.
fn action_owners(a: &Action, f: Visit<'_>) {
    if let Some(amount) = a.amount() {
        amount_owners(amount, f);
    }
    if let Some(count) = a.per() {
        count_owners(count, f);
    }
    a.each_target(&mut |target| target_owners(target, f));
}

fn amount_owners(a: &Amount, f: Visit<'_>) {
    match a {
        Amount::Fixed { .. } => {}
        Amount::PerEach { count, .. } => count_owners(count, f),
        Amount::StarOf { target } => target_owners(target, f),
    }
}

fn count_owners(c: &Count, f: Visit<'_>) {
    match c {
        Count::Cards { cards } => query_owners(cards, cards.span, f),
        Count::Elements { among } | Count::Types { among } | Count::Sets { among } => {
            target_owners(among, f)
        }
        Count::Tokens { on } => target_owners(on, f),
        Count::Opponents | Count::OpponentsWith { .. } | Count::FriendshipCards => {}
    }
}

fn target_owners(t: &Target, f: Visit<'_>) {
    match &t.kind {
        TargetKind::TopCard { owner } => f(*owner, t.span),
        TargetKind::Cards(q) => query_owners(q, t.span, f),
        _ => {}
    }
}

fn query_owners(q: &CardQuery, at: Span, f: Visit<'_>) {
    if let Some(owner) = q.place.and_then(Place::owner) {
        f(owner, at);
    }
    if let Some(StarFilter::Compare { than, .. }) = &q.star {
        target_owners(than, f);
    }
}

fn condition_owners(c: &Condition, f: Visit<'_>) {
    match c {
        Condition::Count { count, .. } => count_owners(count, f),
        Condition::Star { target, star } => {
            target_owners(target, f);
            if let StarFilter::Compare { than, .. } = star {
                target_owners(than, f);
            }
        }
        Condition::Is { target, .. } => target_owners(target, f),
        Condition::IsTopCard { target, owner } => {
            target_owners(target, f);
            f(*owner, target.span);
        }
        Condition::Compare { than, span, .. } => f(than.owner(), *span),
        Condition::IsNamed { target } => target_owners(target, f),
    }
}
