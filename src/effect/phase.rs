//! Which part of the game an ability works in, and the words that belong
//! to another one.
//!
//! A round is a Deckbuilding Phase, then a tournament, and the game ends
//! after the last round (rulebook). `Deckbuilding` abilities work while the
//! Deckbuilding Phase lasts, where there is no tableau, no turn, no clash
//! and no RP; `Game End` abilities when the game ends, when neither phase
//! has anything left to do; every other timing in the tournament. A word of
//! another part would make the sentence do nothing, so it is an error
//! (`wrong-phase`), located at the clause, trigger or sentence that says it.

use super::ast::*;
use super::error::EffectError;

/// Every word of `a` that belongs to a part of the game it does not work in.
pub(crate) fn check(a: &Ability) -> Vec<EffectError> {
    let mut out = Vec::new();
    if let Some(e) = &a.trigger {
        event(e, a.timing, a.timing_span, &mut out);
    }
    for s in &a.sentences {
        if let Some(e) = &s.whenever {
            event(e, a.timing, s.span, &mut out);
        }
        if let Some(until) = s.until {
            duration(until, a.timing, s.span, &mut out);
        }
        if a.timing.stage() != Stage::Deckbuilding {
            for c in s.each_clause() {
                match c {
                    // A deck is built, then brought to the tournament.
                    Clause::Rule {
                        rule: PlayerRule::DeckLimit { .. },
                        ..
                    } if a.timing == Timing::Tournament => {}
                    Clause::Rule { rule, span, .. } => {
                        out.push(rule_out_of_deckbuilding(Some(*rule), a.timing, *span))
                    }
                    Clause::Cannot {
                        deed: Deed::Trade,
                        span,
                        ..
                    } => out.push(rule_out_of_deckbuilding(None, a.timing, *span)),
                    _ => {}
                }
            }
        }
        if a.timing.in_tournament() {
            continue;
        }
        let out_of_tournament = OutOfTournament(a.timing);
        if let Some(o) = s.outcome {
            let word = match o {
                ClashResult::Win => "`Win:`",
                ClashResult::Lose => "`Lose:`",
                ClashResult::Tie => "`Tie:`",
            };
            out.push(out_of_tournament.word(word, "a clash result", s.span));
        }
        if let Some(Condition::Compare {
            measure: Measure::Rp,
            span,
            ..
        }) = &s.condition
        {
            out.push(out_of_tournament.word("RP", "a comparison of RP", *span));
        }
        for c in s.each_clause() {
            clause(c, out_of_tournament, &mut out);
        }
    }
    out
}

/// A duration that ends before the ability could work, or (at the end of
/// the game) that has nothing left to last through.
fn duration(until: Until, timing: Timing, at: Span, out: &mut Vec<EffectError>) {
    let words = format!("`{}`", super::format::until_words(until));
    match (timing.stage(), until) {
        (Stage::Tournament, Until::EndOfDeckbuilding) => out.push(phase_over(at)),
        (Stage::Deckbuilding, Until::EndOfTurn | Until::EndOfTournament) => {
            out.push(OutOfTournament(timing).word(&words, "a tournament's time", at))
        }
        (Stage::GameEnd, _) => out.push(
            EffectError::new(
                "wrong-phase",
                at.range(),
                format!("{words} in a `Game End:` ability lasts no time: the game is over"),
                "a duration after the last round",
            )
            .with_help("say what happens once, when the game ends"),
        ),
        _ => {}
    }
}

/// A timing that works outside the tournament (`Deckbuilding:`, `Game
/// End:`): the words only a tournament has are errors in it.
#[derive(Clone, Copy)]
struct OutOfTournament(Timing);

impl OutOfTournament {
    fn word(self, word: &str, what: &str, at: Span) -> EffectError {
        let Self(timing) = self;
        let during = timing.stage().during();
        EffectError::new(
            "wrong-phase",
            at.range(),
            format!(
                "{word} belongs to the tournament, and `{}:` works {}",
                timing.word(),
                timing.when()
            ),
            format!("{what} {during}"),
        )
        .with_help(match timing.stage() {
            Stage::GameEnd => "move it to a tournament ability (`Play:`, `Score:`, …), or say what happens when the game ends (VP, Millennium Dollars)",
            _ => "move it to a tournament ability (`Play:`, `Ongoing:`, …), or say what happens in the Deckbuilding Phase (buy, sell, Millennium Dollars)",
        })
    }
}

/// A clause of a Deckbuilding ability: its action and the cards it names.
fn clause(c: &Clause, stage: OutOfTournament, out: &mut Vec<EffectError>) {
    let (Clause::Act {
        subject: who, span, ..
    }
    | Clause::Cannot { who, span, .. }) = c
    else {
        return clause_words(c, stage, out);
    };
    let counted_by_rp = match c {
        Clause::Act { action, .. } => matches!(
            action.per(),
            Some(Count::OpponentsWith {
                measure: Measure::Rp,
                ..
            })
        ),
        _ => false,
    };
    let compared_by_rp = matches!(
        who,
        Player::EachOpponentWith {
            measure: Measure::Rp,
            ..
        }
    );
    if compared_by_rp || counted_by_rp {
        out.push(stage.word("RP", "a comparison of RP", *span));
    }
    clause_words(c, stage, out);
}

/// The actions, deeds and cards of a clause that only a tournament has.
fn clause_words(c: &Clause, stage: OutOfTournament, out: &mut Vec<EffectError>) {
    match c {
        Clause::Act { action, span, .. } => {
            if let Some(word) = tournament_action(action) {
                out.push(stage.word(word, "a tournament action", *span));
            }
            action.each_target(&mut |t| target(t, stage, out));
            if let Some(word) = deckbuilding_action(action)
                && stage.0.stage() == Stage::GameEnd
            {
                out.push(game_over(word, *span));
            }
        }
        Clause::State { target: t, .. } => target(t, stage, out),
        // Said in `check`: a hand size is wrong in every timing but one.
        Clause::Rule { .. } => {}
        Clause::Cannot { deed, span, .. } => {
            let word = match deed {
                Deed::GainRp => Some("`gain RP`"),
                Deed::Clash => Some("`clash`"),
                Deed::Play { .. } => Some("`play`"),
                Deed::Flip { .. } => Some("`flip`"),
                Deed::Buy { .. } | Deed::Sell { .. } | Deed::Trade => None,
            };
            if let Some(word) = word {
                out.push(stage.word(word, "a tournament action", *span));
            }
            if let Some(t) = deed.target() {
                target(t, stage, out);
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
fn target(t: &Target, stage: OutOfTournament, out: &mut Vec<EffectError>) {
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
    out.push(stage.word(word, "a card in play", t.span));
}

/// The words of an action that only the Deckbuilding Phase has.
fn deckbuilding_action(a: &Action) -> Option<&'static str> {
    Some(match a {
        Action::Buy { .. } => "`buy`",
        Action::Sell { .. } => "`sell`",
        Action::ToAftermarket { .. } => "`put … into the Aftermarket`",
        _ => return None,
    })
}

/// An event of a part of the game the ability does not work in.
fn event(e: &Event, timing: Timing, at: Span, out: &mut Vec<EffectError>) {
    let deckbuilding = match e {
        Event::DeckbuildingStarts | Event::DeckbuildingEnds => {
            Some("the start or end of the Deckbuilding Phase")
        }
        Event::Fuses { .. } => Some("a Card Fusion"),
        Event::MakesCollection { .. } => Some("making a collection"),
        Event::Trades { .. } => Some("a trade"),
        Event::Buys { .. } | Event::Sells { .. } if timing.stage() == Stage::GameEnd => {
            Some("buying and selling")
        }
        _ => None,
    };
    match (timing.stage(), deckbuilding) {
        (Stage::Tournament, Some(what)) => out.push(
            EffectError::new(
                "wrong-phase",
                at.range(),
                format!("{what} belongs to the Deckbuilding Phase, outside the tournament, when this ability does not work"),
                "a Deckbuilding event",
            )
            .with_help("write it as a `Deckbuilding:` ability"),
        ),
        (Stage::GameEnd, Some(what)) => out.push(game_over(what, at)),
        _ => {}
    }
    if matches!(e, Event::TournamentStarts | Event::TournamentEnds) && timing != Timing::Tournament
    {
        out.push(tournament_moment(timing, at));
    }
    if timing.in_tournament() || deckbuilding.is_some() {
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
    out.push(OutOfTournament(timing).word(word, "a tournament event", at));
}

/// The start or end of the tournament outside a `Tournament:` ability: a
/// card in play comes after the start, its end is `Score:`, and other
/// phases' abilities do not work then.
fn tournament_moment(timing: Timing, at: Span) -> EffectError {
    EffectError::new(
        "wrong-phase",
        at.range(),
        format!(
            "the start or end of the tournament is a moment of `Tournament:` abilities, and `{}:` works {}",
            timing.word(),
            timing.when()
        ),
        "the tournament's start or end",
    )
    .with_help("a card in play says `Score:` for the end of the tournament; a Venue's or a character's rules say `Tournament: At the start of the tournament, …`")
}

/// A player's rule outside the Deckbuilding Phase: the rulebook's hand
/// size limits the cards a player holds while buying (Turn-Based Mode),
/// trades and Card Fusions are made while deckbuilding, and a deck is built
/// then (and brought to the tournament: a `Tournament:` ability may raise
/// its limits too). `None`: a prohibition to trade.
fn rule_out_of_deckbuilding(rule: Option<PlayerRule>, timing: Timing, at: Span) -> EffectError {
    let (what, help) = match rule {
        Some(PlayerRule::FusionSize { .. }) => (
            "a Card Fusion's size",
            "players fuse cards in the Deckbuilding Phase",
        ),
        Some(PlayerRule::DeckLimit { .. }) => (
            "a deck's limit",
            "a deck is built in the Deckbuilding Phase (a character's `Tournament:` side may raise it too, as the deck is brought)",
        ),
        Some(PlayerRule::HandSize { .. }) => (
            "a hand size",
            "the hand size limits the cards a player holds while buying",
        ),
        Some(PlayerRule::UnevenTrades) | None => (
            "a rule of trades",
            "players trade in the Deckbuilding Phase",
        ),
    };
    EffectError::new(
        "wrong-phase",
        at.range(),
        format!(
            "{what} belongs to the Deckbuilding Phase, and `{}:` works {}",
            timing.word(),
            timing.when()
        ),
        format!("{what} {}", timing.stage().during()),
    )
    .with_help(format!("write it as a `Deckbuilding:` ability: {help}"))
}

/// Something of the Deckbuilding Phase in a `Game End:` ability.
fn game_over(what: &str, at: Span) -> EffectError {
    EffectError::new(
        "wrong-phase",
        at.range(),
        format!("{what} belongs to the Deckbuilding Phase, and the game is over when a `Game End:` ability works"),
        "the Deckbuilding Phase at the end of the game",
    )
    .with_help("write it as a `Deckbuilding:` ability, or say what happens when the game ends (VP, Millennium Dollars)")
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
