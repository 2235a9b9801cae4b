//! Which phase of a round an ability works in, and the words that belong to
//! the other one.
//!
//! A round is a Deckbuilding Phase, then a tournament (rulebook). Every
//! timing word but `Deckbuilding` works in the tournament; a `Deckbuilding`
//! ability works while the Deckbuilding Phase lasts, where there is no
//! tableau, no turn, no clash and no RP. A word of the other phase would
//! make the sentence do nothing, so it is an error (`wrong-phase`), located
//! at the clause, trigger or sentence that says it.

use super::ast::*;
use super::error::EffectError;

/// Every word of `a` that belongs to the phase it does not work in.
pub(crate) fn check(a: &Ability) -> Vec<EffectError> {
    let mut out = Vec::new();
    let in_tournament = a.timing.in_tournament();
    if let Some(e) = &a.trigger {
        event(e, in_tournament, a.timing_span, &mut out);
    }
    for s in &a.sentences {
        if let Some(e) = &s.whenever {
            event(e, in_tournament, s.span, &mut out);
        }
        if in_tournament {
            if s.until == Some(Until::EndOfDeckbuilding) {
                out.push(phase_over(s.span));
            }
            continue;
        }
        if let Some(o) = s.outcome {
            let word = match o {
                ClashResult::Win => "`Win:`",
                ClashResult::Lose => "`Lose:`",
                ClashResult::Tie => "`Tie:`",
            };
            out.push(tournament_word(word, "a clash result", s.span));
        }
        if let Some(Condition::Compare {
            measure: Measure::Rp,
            span,
            ..
        }) = &s.condition
        {
            out.push(tournament_word("RP", "a comparison of RP", *span));
        }
        if let Some(until @ (Until::EndOfTurn | Until::EndOfTournament)) = s.until {
            let word = format!("`{}`", super::format::until_words(until));
            out.push(tournament_word(&word, "a tournament's time", s.span));
        }
        for c in s.each_clause() {
            clause(c, &mut out);
        }
    }
    out
}

/// A clause of a Deckbuilding ability: its action and the cards it names.
fn clause(c: &Clause, out: &mut Vec<EffectError>) {
    let (Clause::Act {
        subject: who, span, ..
    }
    | Clause::Cannot { who, span, .. }) = c
    else {
        return clause_words(c, out);
    };
    if let Player::EachOpponentWith {
        measure: Measure::Rp,
        ..
    } = who
    {
        out.push(tournament_word("RP", "a comparison of RP", *span));
    }
    clause_words(c, out);
}

/// The actions, deeds and cards of a clause that only a tournament has.
fn clause_words(c: &Clause, out: &mut Vec<EffectError>) {
    match c {
        Clause::Act { action, span, .. } => {
            if let Some(word) = tournament_action(action) {
                out.push(tournament_word(word, "a tournament action", *span));
            }
            action.each_target(&mut |t| target(t, out));
        }
        Clause::State { target: t, .. } => target(t, out),
        Clause::Cannot { deed, span, .. } => {
            let word = match deed {
                Deed::GainRp => Some("`gain RP`"),
                Deed::Clash => Some("`clash`"),
                Deed::Play { .. } => Some("`play`"),
                Deed::Flip { .. } => Some("`flip`"),
                Deed::Buy { .. } | Deed::Sell { .. } => None,
            };
            if let Some(word) = word {
                out.push(tournament_word(word, "a tournament action", *span));
            }
            if let Some(t) = deed.target() {
                target(t, out);
            }
        }
    }
}

/// The words of an action that only a tournament has.
fn tournament_action(a: &Action) -> Option<&'static str> {
    Some(match a {
        Action::GainRp { .. } => "`gain … RP`",
        Action::LoseRp { .. } => "`lose … RP`",
        Action::GainSlots { .. } => "`extra tableau slot`",
        Action::Flip { .. } => "`flip`",
        Action::Clash { .. } => "`clash`",
        Action::PutTokens { .. } => "`+1 STAR token`",
        Action::Insert { .. } => "`insert … into your tableau`",
        Action::CopyEffect { .. } => "`copy the effect of`",
        Action::Attach { .. } => "`attach`",
        Action::PlayCard { .. } => "`play`",
        _ => return None,
    })
}

/// A card a Deckbuilding ability names where only a tournament has it.
fn target(t: &Target, out: &mut Vec<EffectError>) {
    let word = match &t.kind {
        TargetKind::TopCard { .. } => "`Top Card`",
        TargetKind::NextCard => "`the next card you play`",
        TargetKind::Neighbor { .. } => "`the card to the left/right`",
        TargetKind::Cards(q) => match q.place {
            Some(Place::Tableau { .. }) => "`tableau`",
            Some(Place::DeckBoxSlot { .. }) => "`deck box slot`",
            Some(Place::AccessorySlots { .. }) => "`accessory slots`",
            _ => return,
        },
        _ => return,
    };
    out.push(tournament_word(word, "a card in play", t.span));
}

/// An event in the phase the ability does not work in.
fn event(e: &Event, in_tournament: bool, at: Span, out: &mut Vec<EffectError>) {
    let deckbuilding = match e {
        Event::DeckbuildingStarts | Event::DeckbuildingEnds => {
            Some("the start or end of the Deckbuilding Phase")
        }
        Event::Fuses { .. } => Some("a Card Fusion"),
        Event::MakesCollection { .. } => Some("making a collection"),
        Event::Trades { .. } => Some("a trade"),
        _ => None,
    };
    if let (true, Some(what)) = (in_tournament, deckbuilding) {
        out.push(
            EffectError::new(
                "wrong-phase",
                at.range(),
                format!("{what} belongs to the Deckbuilding Phase, outside the tournament, when this ability does not work"),
                "a Deckbuilding event",
            )
            .with_help("write it as a `Deckbuilding:` ability"),
        );
    }
    if in_tournament || deckbuilding.is_some() {
        return;
    }
    let word = match e {
        Event::Flips { .. } | Event::IsFlipped { .. } => "a flip",
        Event::Plays { .. } => "a play",
        Event::Clash { .. } => "a clash",
        Event::GainsRp { .. } | Event::LosesRp { .. } => "RP",
        Event::TurnStarts { .. } | Event::TurnEnds { .. } => "a turn",
        Event::Passes { .. } => "passing",
        _ => return,
    };
    out.push(tournament_word(word, "a tournament event", at));
}

/// `until the end of the Deckbuilding Phase` in a tournament ability: the
/// phase ended before the ability could work, so the state would never hold.
fn phase_over(at: Span) -> EffectError {
    EffectError::new(
        "wrong-phase",
        at.range(),
        "`until the end of the Deckbuilding Phase` in a tournament ability lasts no time: the Deckbuilding Phase is over before a tournament starts",
        "a Deckbuilding duration in the tournament",
    )
    .with_help("say `until the end of the turn`, `… of the tournament` or `… of the round`")
}

fn tournament_word(word: &str, what: &str, at: Span) -> EffectError {
    EffectError::new(
        "wrong-phase",
        at.range(),
        format!("{word} belongs to the tournament, and a Deckbuilding ability works in the Deckbuilding Phase"),
        format!("{what} in the Deckbuilding Phase"),
    )
    .with_help("move it to a tournament ability (`Play:`, `Ongoing:`, …), or say what happens in the Deckbuilding Phase (buy, sell, Millennium Dollars)")
}
