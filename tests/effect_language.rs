//! Tests of the effect language: grammar constructs, the reference's examples,
//! rendering and error snapshots, round-trip properties, keyword and phrase data.

use blades::effect::*;
use blades::words::SetKind;
use proptest::prelude::*;

// ───────────────────────────── helpers ─────────────────────────────

/// The vocabulary of the tests: base types, a few set-declared types and sets.
fn vocab() -> Vocabulary {
    let mut v = Vocabulary::base();
    v.types.push("speedster".into());
    v.sets = vec![
        ("sunset-gulch".into(), "Sunset Gulch".into()),
        ("tin-town".into(), "Tin Town".into()),
        ("fist-of-steel".into(), "Fist of Steel".into()),
    ];
    v
}

fn parse_ok(text: &str) -> Effect {
    match parse(text) {
        Ok(e) => e,
        Err(errors) => panic!("`{text}` does not parse: {errors:#?}"),
    }
}

/// The only ability of a one-line effect.
fn ability(text: &str) -> Ability {
    let e = parse_ok(text);
    assert_eq!(e.lines.len(), 1, "{text}");
    match e.lines.into_iter().next().unwrap() {
        Line::Ability(a) => a,
        Line::Keyword(k) => panic!("`{text}` is a keyword line: {k:?}"),
    }
}

/// The only clause of a one-sentence ability.
fn clause(text: &str) -> Clause {
    let a = ability(text);
    assert_eq!(a.sentences.len(), 1, "{text}");
    let s = a.sentences.into_iter().next().unwrap();
    assert_eq!(s.clauses.len(), 1, "{text}");
    s.clauses.into_iter().next().unwrap()
}

/// The action of a one-clause ability done by `you`.
fn action(text: &str) -> Action {
    match clause(text) {
        Clause::Act {
            subject: Player::You,
            action,
            ..
        } => action,
        other => panic!("`{text}`: not an action of yours: {other:?}"),
    }
}

fn query_of(t: &Target) -> &CardQuery {
    match &t.kind {
        TargetKind::Cards(q) => q,
        other => panic!("not a card query: {other:?}"),
    }
}

fn flip_target(text: &str) -> Target {
    match action(text) {
        Action::Flip { target } => target,
        other => panic!("`{text}`: not a flip: {other:?}"),
    }
}

fn codes(text: &str) -> Vec<&'static str> {
    match parse(text) {
        Ok(e) => check(&e, &vocab()).into_iter().map(|e| e.code).collect(),
        Err(errors) => errors.into_iter().map(|e| e.code).collect(),
    }
}

// ───────────────────────────── grammar ─────────────────────────────

#[test]
fn timing_words() {
    for (word, timing) in [
        ("Play", Timing::Play),
        ("Next", Timing::Next),
        ("Flip", Timing::Flip),
        ("Ongoing", Timing::Ongoing),
        ("Top", Timing::Top),
        ("Score", Timing::Score),
        ("Action", Timing::Action),
    ] {
        let a = ability(&format!("{word}: Gain 1 RP."));
        assert_eq!(a.timing, timing);
        assert!(a.trigger.is_none());
    }
    let a = ability("Reaction (when an opponent flips this card): Gain 1 RP.");
    assert_eq!(a.timing, Timing::Reaction);
    assert_eq!(
        a.trigger,
        Some(Event::Flips {
            who: Player::AnOpponent,
            target: Target::new(TargetKind::This)
        })
    );
    // Words are case-insensitive.
    assert_eq!(ability("play: gain 1 rp."), ability("Play: Gain 1 RP."));
}

#[test]
fn triggers() {
    let event = |t: &str| {
        ability(&format!("Reaction (when {t}): Gain 1 RP."))
            .trigger
            .unwrap()
    };
    assert!(matches!(
        event("a card in your tableau is flipped"),
        Event::IsFlipped { .. }
    ));
    assert!(matches!(
        event("an opponent plays a fire card"),
        Event::Plays {
            who: Player::AnOpponent,
            ..
        }
    ));
    assert_eq!(
        event("you lose a clash"),
        Event::Clash {
            who: Player::You,
            result: Some(ClashResult::Lose)
        }
    );
    assert_eq!(
        event("an opponent clashes"),
        Event::Clash {
            who: Player::AnOpponent,
            result: None
        }
    );
    assert_eq!(event("you lose RP"), Event::LosesRp { who: Player::You });
    assert_eq!(
        event("each opponent gains RP"),
        Event::GainsRp {
            who: Player::EachOpponent
        }
    );
}

#[test]
fn keyword_lines() {
    for (text, name, value) in [
        ("Scurry.", "Scurry", None),
        ("Scurry", "Scurry", None),
        ("Blast Off PLUS.", "Blast Off PLUS", None),
        ("Thwomp! 3.", "Thwomp!", Some(3)),
        ("Thwomp!", "Thwomp!", None),
        ("Anvil   Drop.", "Anvil Drop", None),
    ] {
        let e = parse_ok(text);
        match &e.lines[0] {
            Line::Keyword(k) => {
                assert_eq!(k.name, name, "{text}");
                assert_eq!(k.value.map(|v| v.value), value, "{text}");
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    // A keyword line is any capitalised phrase; the checker knows the names.
    assert_eq!(codes("Made Up Keyword."), ["unknown-keyword"]);
    assert_eq!(codes("Scurry.\nBlast Off."), Vec::<&str>::new());
}

#[test]
fn rp_amounts() {
    assert_eq!(
        action("Play: Gain 2 RP."),
        Action::GainRp {
            amount: Amount::Fixed { rp: Num::new(2) }
        }
    );
    assert_eq!(
        action("Play: Lose 1 RP."),
        Action::LoseRp {
            amount: Amount::Fixed { rp: Num::new(1) }
        }
    );
    let Action::GainRp {
        amount: Amount::PerEach { rp, count },
    } = action("Score: Gain 2 RP for each fire card in your tableau.")
    else {
        panic!()
    };
    assert_eq!(rp.value, 2);
    let Count::Cards { cards } = count else {
        panic!()
    };
    assert_eq!(
        cards.filters,
        [Filter::Element {
            element: Element::Fire
        }]
    );
    assert_eq!(cards.place, Some(Place::Tableau { owner: Owner::You }));
    assert!(matches!(
        action("Score: Gain RP equal to the STAR of your Top Card."),
        Action::GainRp {
            amount: Amount::StarOf { .. }
        }
    ));
    // Counts of distinct symbols, both spellings.
    let among = action("Score: Gain 1 RP for each different element among cards in your tableau.");
    let short = action("Score: Gain 1 RP for each different element in your tableau.");
    assert_eq!(among, short);
    assert!(matches!(
        action("Score: Gain 1 RP for each different type among adjacent cards."),
        Action::GainRp {
            amount: Amount::PerEach {
                count: Count::Types { .. },
                ..
            }
        }
    ));
    assert!(matches!(
        action("Score: Gain 1 RP for each +1 STAR token on this card."),
        Action::GainRp {
            amount: Amount::PerEach {
                count: Count::Tokens { .. },
                ..
            }
        }
    ));
    assert!(matches!(
        action("Score: Gain 1 RP for each opponent."),
        Action::GainRp {
            amount: Amount::PerEach {
                count: Count::Opponents,
                ..
            }
        }
    ));
}

#[test]
fn players_as_subjects() {
    for (text, player) in [
        ("Play: Each opponent loses 1 RP.", Player::EachOpponent),
        ("Play: An opponent loses 1 RP.", Player::AnOpponent),
        ("Play: All players gain 1 RP.", Player::AllPlayers),
        ("Play: Each player gains 1 RP.", Player::AllPlayers),
        ("Play: You gain 1 RP.", Player::You),
    ] {
        match clause(text) {
            Clause::Act { subject, .. } => assert_eq!(subject, player, "{text}"),
            other => panic!("{other:?}"),
        }
    }
}

/// A clause written without a player is done by the player before when its
/// verb agrees with that player as written, and by you when it does not.
#[test]
fn one_player_does_the_clauses_its_verb_agrees_with() {
    let subjects = |text: &str| -> Vec<Player> {
        ability(text).sentences[0]
            .clauses
            .iter()
            .map(|c| match c {
                Clause::Act { subject, .. } | Clause::Cannot { who: subject, .. } => *subject,
                Clause::State { .. } | Clause::Rule { .. } => You,
            })
            .collect()
    };
    use Player::*;
    for (text, expected, canonical) in [
        (
            "Play: Each opponent loses 1 RP and gains 1 VP.",
            [EachOpponent, EachOpponent],
            "Play: Each opponent loses 1 RP and gains 1 VP.",
        ),
        (
            "Play: Opponents lose 1 RP and gain 1 VP.",
            [EachOpponent, EachOpponent],
            "Play: Each opponent loses 1 RP and gains 1 VP.",
        ),
        (
            "Play: All players gain 1 RP and lose 1 VP.",
            [AllPlayers, AllPlayers],
            "Play: All players gain 1 RP and lose 1 VP.",
        ),
        (
            "Play: Each opponent loses 1 RP and gain 1 VP.",
            [EachOpponent, You],
            "Play: Each opponent loses 1 RP and you gain 1 VP.",
        ),
        (
            "Until the end of the turn, each opponent cannot gain RP and loses 1 VP.",
            [EachOpponent, EachOpponent],
            "Play: Until the end of the turn, each opponent cannot gain RP and each opponent loses 1 VP.",
        ),
    ] {
        let text = if text.starts_with("Until") {
            format!("Play: {text}")
        } else {
            text.to_string()
        };
        assert_eq!(subjects(&text), expected, "{text}");
        assert_eq!(format(&parse_ok(&text)), canonical, "{text}");
        assert!(codes(&text).is_empty(), "{text}: {:?}", codes(&text));
    }
    // Their hand is the player's who does the clause.
    let clash = "Action: Clash with an opponent. Win: that opponent loses 2 RP and discards a card from their hand.";
    let a = ability(clash);
    let Clause::Act {
        subject,
        action: Action::Discard { target, .. },
        ..
    } = &a.sentences[1].clauses[1]
    else {
        panic!()
    };
    assert_eq!(*subject, ClashedOpponent);
    assert_eq!(
        query_of(target).place,
        Some(Place::Hand {
            owner: Owner::Their
        })
    );
    assert_eq!(
        render(
            &parse_ok(clash),
            Lang::Ja,
            &Phrasebook::builtin(Lang::Ja),
            &vocab()
        ),
        "アクション：相手1人とクラッシュする。勝利：その相手は2RPを失い、自分の手札のカード1枚をバインダーに捨てる。"
    );
}

#[test]
fn friendship_cards_are_given_and_counted() {
    let give = "Deckbuilding: Whenever an opponent trades, you may give a Friendship Card to that opponent.";
    let a = ability(give);
    assert_eq!(
        a.sentences[0].clauses[0],
        Clause::Act {
            subject: Player::You,
            action: Action::GiveFriendship {
                n: Num::new(1),
                to: Player::TriggerPlayer
            },
            span: Span::default()
        }
    );
    assert!(codes(give).is_empty());
    let count = "Deckbuilding: At the end of the Deckbuilding Phase, gain 1 Millennium Dollar for each Friendship Card given to you.";
    assert!(matches!(
        &ability(count).sentences[0].clauses[0],
        Clause::Act {
            action: Action::Gain {
                per: Some(Count::FriendshipCards),
                ..
            },
            ..
        }
    ));
    for text in [give, count] {
        assert_eq!(format(&parse_ok(text)), text);
    }
    assert_eq!(
        render(
            &parse_ok(give),
            Lang::Ja,
            &Phrasebook::builtin(Lang::Ja),
            &vocab()
        ),
        "デッキ構築：相手がトレードした時、その相手に友情カード1枚を渡すことができる。"
    );
    // A player has six Friendship Cards to give.
    assert_eq!(
        codes("Play: Give 7 Friendship Cards to each opponent."),
        ["number-out-of-range"]
    );
    assert_eq!(
        codes("Deckbuilding: Whenever you trade, give a Friendship Card to that opponent."),
        ["player-without-antecedent"]
    );
}

#[test]
fn money_changes_hands() {
    let text =
        "Deckbuilding: Whenever an opponent trades, each opponent gives you 1 Millennium Dollar.";
    let a = ability(text);
    assert_eq!(
        a.sentences[0].clauses[0],
        Clause::Act {
            subject: Player::EachOpponent,
            action: Action::GiveMoney {
                n: Num::new(1),
                to: Player::You
            },
            span: Span::default()
        }
    );
    let canonical = "Deckbuilding: Whenever an opponent trades, each opponent gives 1 Millennium Dollar to you.";
    assert_eq!(format(&parse_ok(text)), canonical);
    // `you` in another player's clause is あなた, as `your` is.
    assert_eq!(
        render(
            &parse_ok(text),
            Lang::Ja,
            &Phrasebook::builtin(Lang::Ja),
            &vocab()
        ),
        "デッキ構築：相手がトレードした時、各相手はあなたに1ミレニアムドルを渡す。"
    );
    let lose = "Action: Clash with an opponent. Lose: give 2 Millennium Dollars to that opponent.";
    assert!(codes(lose).is_empty());
    assert_eq!(format(&parse_ok(lose)), lose);
    assert_eq!(
        codes("Play: Give 2 Millennium Dollars to you."),
        ["gives-to-self"]
    );
}

/// `Whenever an opponent …,` names that opponent for its sentence only.
#[test]
fn whenever_names_its_opponent_for_its_sentence() {
    let a = ability("Ongoing: Whenever an opponent passes, that opponent loses 1 RP.");
    assert!(matches!(
        a.sentences[0].clauses[0],
        Clause::Act {
            subject: Player::TriggerPlayer,
            ..
        }
    ));
    assert!(codes("Ongoing: Whenever an opponent passes, that opponent loses 1 RP.").is_empty());
    assert_eq!(
        codes("Ongoing: Whenever an opponent passes, gain 1 RP. That opponent loses 1 RP."),
        ["player-without-antecedent"]
    );
}

/// Subjects sharing one state are the same state of each; printed as
/// one clause again, and refused where a later subject's place could be
/// the earlier ones' too.
#[test]
fn several_subjects_share_one_state() {
    let text = "Ongoing: This card and the card to the left cannot be flipped.";
    let a = ability(text);
    let state = State::CannotBeFlipped {
        by_opponents: false,
    };
    assert_eq!(
        a.sentences[0].clauses,
        [
            Clause::State {
                target: Target::new(TargetKind::This),
                state: state.clone(),
                span: Span::default()
            },
            Clause::State {
                target: Target::new(TargetKind::Neighbor { side: Side::Left }),
                state,
                span: Span::default()
            }
        ]
    );
    assert!(codes(text).is_empty());
    assert_eq!(format(&parse_ok(text)), text);
    // The same tree written as two clauses prints as one.
    assert_eq!(
        format(&parse_ok(
            "Ongoing: This card cannot be flipped and the card to the left cannot be flipped."
        )),
        text
    );
    let three = "Top: This card, the card to the left and the card to the right have +1 STAR.";
    assert_eq!(format(&parse_ok(three)), three);
    assert_eq!(
        render(
            &parse_ok(three),
            Lang::Ja,
            &Phrasebook::builtin(Lang::Ja),
            &vocab()
        ),
        "トップ：このカードと左のカードと右のカードのスターレーティングは1上がる。"
    );
    assert_eq!(
        codes(
            "Deckbuilding: Fire cards and water cards in the Store cost 1 Millennium Dollar less."
        ),
        ["ambiguous-subjects"]
    );
    let each = "Deckbuilding: Fire cards in the Store and water cards in the Store cost 1 Millennium Dollar less.";
    assert!(codes(each).is_empty());
    // Two clauses that would read so together stay apart.
    let apart =
        "Ongoing: Fire cards cannot be flipped and water cards in your tableau cannot be flipped.";
    assert_eq!(format(&parse_ok(apart)), apart);
}

#[test]
fn naming_a_card() {
    let text =
        "Play: Name a card. Reveal the top card of the Store. If it is the named card, gain 5 RP.";
    let a = ability(text);
    assert_eq!(
        a.sentences[0].clauses[0],
        Clause::Act {
            subject: Player::You,
            action: Action::NameCard,
            span: Span::default()
        }
    );
    assert!(matches!(
        &a.sentences[2].condition,
        Some(Condition::IsNamed { target }) if target.kind == TargetKind::It
    ));
    assert!(codes(text).is_empty());
    assert_eq!(format(&parse_ok(text)), text);
    assert_eq!(
        codes("Play: If your Top Card is the named card, gain 1 RP."),
        ["pronoun-without-antecedent"]
    );
    let opponent = "Play: Each opponent names a card and gains 1 RP.";
    assert_eq!(format(&parse_ok(opponent)), opponent);
}

#[test]
fn flip_targets() {
    assert_eq!(flip_target("Play: Flip this card.").kind, TargetKind::This);
    assert_eq!(flip_target("Play: Flip this one.").kind, TargetKind::This);
    assert_eq!(
        flip_target("Play: Flip the card to the left.").kind,
        TargetKind::Neighbor { side: Side::Left }
    );
    assert_eq!(
        flip_target("Play: Flip the card to its right.").kind,
        TargetKind::Neighbor { side: Side::Right }
    );
    assert_eq!(
        flip_target("Play: Flip each opponent's Top Card.").kind,
        TargetKind::TopCard {
            owner: Owner::EachOpponent
        }
    );
    let t = flip_target("Play: Flip all adjacent cards.");
    let q = query_of(&t);
    assert_eq!(q.quant, Quant::All);
    assert!(q.adjacent);
    let t = flip_target("Play: Flip up to 2 cards in an opponent's tableau.");
    let q = query_of(&t);
    assert_eq!(q.quant, Quant::UpTo { n: Num::new(2) });
    assert_eq!(
        q.place,
        Some(Place::Tableau {
            owner: Owner::AnOpponent
        })
    );
    // `another player's` is `an opponent's`.
    assert_eq!(
        flip_target("Play: Flip a card in another player's tableau."),
        flip_target("Play: Flip a card in an opponent's tableau.")
    );
}

#[test]
fn filters() {
    let t = flip_target("Play: Flip a face-up fire mage premium single in your tableau.");
    let q = query_of(&t);
    assert_eq!(q.face, Some(Face::Up));
    assert_eq!(q.noun, Noun::Single);
    assert_eq!(
        q.filters,
        [
            Filter::Element {
                element: Element::Fire
            },
            Filter::Type {
                name: "mage".into(),
                span: Span::default()
            },
            Filter::Rarity {
                rarity: RarityFilter::Is(SetKind::Premium)
            },
        ]
    );
    let t = flip_target("Play: Flip a bronze promo deck box.");
    let q = query_of(&t);
    assert_eq!(q.noun, Noun::DeckBox);
    assert_eq!(
        q.filters,
        [Filter::Rarity {
            rarity: RarityFilter::Is(SetKind::BronzePromo)
        }]
    );
    let t = flip_target("Play: Flip an accessory from the Tin Town set.");
    assert_eq!(query_of(&t).set.as_ref().unwrap().name, "Tin Town");
    let t = flip_target("Play: Flip a card from tin-town in your tableau.");
    let q = query_of(&t);
    assert_eq!(q.set.as_ref().unwrap().name, "tin-town");
    assert!(q.place.is_some());
    let t = flip_target("Play: Flip another card in your tableau.");
    assert_eq!(query_of(&t).quant, Quant::Another);
}

#[test]
fn star_filters() {
    let t = flip_target(
        "Action: Flip a card in an opponent's tableau with a lower STAR than this card.",
    );
    let q = query_of(&t);
    assert_eq!(
        q.star,
        Some(StarFilter::Compare {
            cmp: StarCmp::Lower,
            than: Box::new(Target::new(TargetKind::This))
        })
    );
    // The filters may come in any order.
    assert_eq!(
        t,
        flip_target(
            "Action: Flip a card with a lower STAR than this card in an opponent's tableau."
        )
    );
    let t = flip_target("Play: Flip a card with STAR 3 or less.");
    assert_eq!(
        query_of(&t).star,
        Some(StarFilter::Value {
            n: Num::new(3),
            bound: Bound::OrLess
        })
    );
    let t = flip_target("Play: Flip a card with the same STAR as your Top Card.");
    assert!(matches!(
        query_of(&t).star,
        Some(StarFilter::Compare {
            cmp: StarCmp::Same,
            ..
        })
    ));
    let t = flip_target("Play: Flip the highest-STAR card in an opponent's tableau.");
    assert_eq!(query_of(&t).quant, Quant::Highest);
    assert_eq!(
        t,
        flip_target("Play: Flip the card with the highest STAR in an opponent's tableau.")
    );
    let t = flip_target("Play: Flip the lowest-STAR card in your tableau.");
    assert_eq!(query_of(&t).quant, Quant::Lowest);
}

#[test]
fn positions_and_places() {
    let t = flip_target("Score: Flip each card to the left of this card.");
    assert_eq!(query_of(&t).side, Some(Side::Left));
    for (text, place) in [
        ("in your hand", Place::Hand { owner: Owner::You }),
        (
            "in their binder",
            Place::Binder {
                owner: Owner::Their,
            },
        ),
        ("in the Store Discard", Place::StoreDiscard),
        ("in the Aftermarket", Place::Aftermarket),
        ("in any tableau", Place::Tableau { owner: Owner::Any }),
        (
            "in each player's tableau",
            Place::Tableau {
                owner: Owner::EachPlayer,
            },
        ),
    ] {
        let t = flip_target(&format!("Play: Flip a card {text}."));
        assert_eq!(query_of(&t).place, Some(place), "{text}");
    }
}

#[test]
fn clashes() {
    let a = ability(
        "Reaction (when an opponent flips this card): Clash with an opponent. Win: gain 3 RP. Lose: lose 1 RP. Tie: gain 1 RP.",
    );
    assert_eq!(a.sentences.len(), 4);
    assert_eq!(
        a.sentences.iter().map(|s| s.outcome).collect::<Vec<_>>(),
        [
            None,
            Some(ClashResult::Win),
            Some(ClashResult::Lose),
            Some(ClashResult::Tie)
        ]
    );
    assert_eq!(
        action("Play: Clash with all players."),
        Action::Clash {
            with: ClashWith::AllPlayers
        }
    );
    assert_eq!(
        action("Play: Clash with another player."),
        Action::Clash {
            with: ClashWith::Opponent
        }
    );
}

/// The first action of sentence `n` of a one-line ability.
fn nth_action(text: &str, n: usize) -> (Player, Action) {
    match &ability(text).sentences[n].clauses[0] {
        Clause::Act {
            subject, action, ..
        } => (*subject, action.clone()),
        other => panic!("{other:?}"),
    }
}

fn top_card(owner: Owner) -> Target {
    Target::new(TargetKind::TopCard { owner })
}

#[test]
fn their_after_a_clash_is_the_opponent_clashed_with() {
    let text = "Action: Clash with an opponent. Win: flip their Top Card.";
    assert_eq!(
        nth_action(text, 1),
        (
            Player::You,
            Action::Flip {
                target: top_card(Owner::ClashedOpponent)
            }
        )
    );
    let e = parse_ok(text);
    assert!(check(&e, &vocab()).is_empty());
    assert_eq!(
        render(&e, Lang::En, &Phrasebook::builtin(Lang::En), &vocab()),
        "Action: Clash with an opponent. Win: flip that opponent's Top Card."
    );
    assert_eq!(
        render(&e, Lang::Ja, &Phrasebook::builtin(Lang::Ja), &vocab()),
        "アクション：相手1人とクラッシュする。勝利：その相手のトップカードを裏返す。"
    );
}

#[test]
fn references_bind_to_what_the_line_named() {
    let reaction = "Reaction (when an opponent plays a fire card): That opponent loses 1 RP and you flip their Top Card.";
    let a = ability(reaction);
    let acts: Vec<(Player, Action)> = a.sentences[0]
        .clauses
        .iter()
        .map(|c| match c {
            Clause::Act {
                subject, action, ..
            } => (*subject, action.clone()),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(acts[0].0, Player::TriggerPlayer);
    assert_eq!(
        acts[1].1,
        Action::Flip {
            target: top_card(Owner::TriggerPlayer)
        }
    );
    // `they` is the player named before, as `that opponent` is.
    let they = "Reaction (when an opponent plays a fire card): They lose 1 RP and you flip their Top Card.";
    assert_eq!(ability(they), a);
    assert_eq!(
        codes("Play: They lose 1 RP."),
        ["player-without-antecedent"]
    );
    // `their` in a clause another player does is that player.
    let (subject, action) = nth_action(
        "Play: Clash with an opponent. Each opponent loses 1 RP for each card in their hand.",
        1,
    );
    assert_eq!(subject, Player::EachOpponent);
    let Action::LoseRp {
        amount:
            Amount::PerEach {
                count: Count::Cards { cards },
                ..
            },
    } = action
    else {
        panic!("{action:?}")
    };
    assert_eq!(
        cards.place,
        Some(Place::Hand {
            owner: Owner::Their
        })
    );
    // `that opponent's` is the same as `their` in a clause you do.
    assert_eq!(
        parse_ok("Action: Clash with an opponent. Win: flip that opponent's Top Card."),
        parse_ok("Action: Clash with an opponent. Win: flip their Top Card.")
    );
    assert_eq!(
        codes("Play: Flip their Top Card."),
        ["player-without-antecedent"]
    );
    assert_eq!(
        codes("Play: That opponent loses 1 RP."),
        ["player-without-antecedent"]
    );
    assert_eq!(
        codes("Reaction (when that opponent plays a card): Gain 1 RP."),
        ["player-without-antecedent"]
    );
    assert_eq!(
        codes(
            "Reaction (when an opponent flips this card): Clash with an opponent. Win: flip their Top Card."
        ),
        ["ambiguous-reference"]
    );
}

#[test]
fn the_touchstone_finds_a_tree_whose_english_means_another() {
    let text = "Action: Clash with an opponent. Win: flip their Top Card.";
    let parsed = parse_ok(text);
    assert_eq!(reads_back(&parsed, text), None);
    assert_eq!(
        reads_back(
            &parsed,
            "action: clash with an opponent. win: flip their top card."
        ),
        None
    );
    // A tree (from JSON, or built by a tool) that says "their" for the
    // player doing the clause, where that player is you: printed, it reads
    // as the opponent clashed with.
    let mut wrong = parsed.clone();
    let Line::Ability(a) = &mut wrong.lines[0] else {
        unreachable!()
    };
    a.sentences[1].clauses[0] = Clause::Act {
        subject: Player::You,
        action: Action::Flip {
            target: top_card(Owner::Their),
        },
        span: Span::default(),
    };
    let written = "action: clash with an opponent. win: flip their top card.";
    let finding = reads_back(&wrong, written).expect("reads differently");
    assert_eq!(finding.code, "effect-reads-differently");
    assert_eq!(finding.span, 0..written.len());
    assert!(
        finding.message.contains("line 1 (`Action:`)"),
        "{}",
        finding.message
    );
}

#[test]
fn turns_passing_and_whenever() {
    let a = ability("Ongoing: Whenever an opponent passes, gain 1 RP.");
    assert_eq!(
        a.sentences[0].whenever,
        Some(Event::Passes {
            who: Player::AnOpponent
        })
    );
    let a = ability("Top: At the start of your turn, gain 1 Millennium Dollar.");
    assert_eq!(
        a.sentences[0].whenever,
        Some(Event::TurnStarts { who: Player::You })
    );
    // The same moment as an event, and as a Reaction's trigger.
    assert_eq!(
        ability("Top: Whenever your turn starts, gain 1 Millennium Dollar."),
        a
    );
    assert_eq!(
        ability("Reaction (when an opponent's turn ends): That opponent loses 1 RP.").trigger,
        Some(Event::TurnEnds {
            who: Player::AnOpponent
        })
    );
    assert_eq!(
        codes("Play: Whenever you play a fire card, gain 1 RP."),
        ["whenever-needs-lasting-timing"]
    );
    // A one-shot action in a lasting ability is no mistake when it says
    // when it happens.
    assert!(codes("Ongoing: Whenever an opponent passes, gain 1 RP.").is_empty());
    let e = parse_ok(
        "Ongoing: At the end of each opponent's turn, gain 1 RP.\nOngoing: Whenever an opponent passes, gain 1 RP.",
    );
    assert_eq!(
        render(&e, Lang::Ja, &Phrasebook::builtin(Lang::Ja), &vocab()),
        "持続：各相手のターン終了時、1RPを得る。\n持続：相手がパスした時、1RPを得る。"
    );
}

#[test]
fn durations_span_the_turn_the_tournament_the_phase_and_the_round() {
    let cases = [
        ("turn", Until::EndOfTurn),
        ("tournament", Until::EndOfTournament),
        ("round", Until::EndOfRound),
    ];
    for (word, until) in cases {
        let text = format!("Play: Until the end of the {word}, each opponent cannot gain RP.");
        assert_eq!(ability(&text).sentences[0].until, Some(until), "{text}");
        assert!(codes(&text).is_empty(), "{text}");
    }
    // Written after the clauses, the same duration; canonical first.
    let after = "Play: Flip this card. It cannot be flipped until the end of the turn.";
    assert_eq!(
        format(&parse_ok(after)),
        "Play: Flip this card. Until the end of the turn, it cannot be flipped."
    );
    let a =
        ability("Play: Cards from the Tin Town set cannot be flipped until the end of the round.");
    assert_eq!(a.sentences[0].until, Some(Until::EndOfRound));
    // The Deckbuilding Phase is over before a tournament ability works.
    let phase = "Deckbuilding: Whenever you buy a card, until the end of the Deckbuilding Phase, cards in the Store cost 1 Millennium Dollar less.";
    assert_eq!(
        ability(phase).sentences[0].until,
        Some(Until::EndOfDeckbuilding)
    );
    assert!(codes(phase).is_empty());
    assert_eq!(
        codes("Play: Until the end of the Deckbuilding Phase, each opponent cannot gain RP."),
        ["wrong-phase"]
    );
}

#[test]
fn you_compared_with_the_others() {
    let a = ability("Play: If you have fewer RP than each opponent, gain 4 RP.");
    assert_eq!(
        a.sentences[0].condition,
        Some(Condition::Compare {
            more: false,
            measure: Measure::Rp,
            than: Player::EachOpponent,
            span: Span::default(),
        })
    );
    let clash = "Action: Clash with an opponent. Lose: if you have more VP than they, gain 1 VP.";
    assert!(matches!(
        ability(clash).sentences[1].condition,
        Some(Condition::Compare {
            than: Player::ClashedOpponent,
            ..
        })
    ));
    assert_eq!(
        codes("Play: If you have more RP than that opponent, gain 1 RP."),
        ["player-without-antecedent"]
    );
    let Action::GainRp {
        amount: Amount::PerEach { count, .. },
    } = action("Play: Gain 1 RP for each opponent with more RP than you.")
    else {
        panic!()
    };
    assert_eq!(
        count,
        Count::OpponentsWith {
            more: true,
            measure: Measure::Rp
        }
    );
    assert_eq!(
        codes(
            "Deckbuilding: Whenever you sell a card, if you have fewer RP than each opponent, gain 1 Millennium Dollar."
        ),
        ["wrong-phase"]
    );
    assert_eq!(
        codes(
            "Deckbuilding: At the end of the Deckbuilding Phase, gain 1 Millennium Dollar for each opponent with more RP than you."
        ),
        ["wrong-phase"]
    );
    assert!(
        codes("Deckbuilding: At the end of the Deckbuilding Phase, gain 1 Millennium Dollar for each opponent with more VP than you.")
            .is_empty()
    );
}

#[test]
fn a_cost_before_a_colon_and_a_leading_then_are_other_spellings() {
    assert_eq!(
        ability("Action: Pay 2 Millennium Dollars: gain 3 RP."),
        ability("Action: Pay 2 Millennium Dollars to gain 3 RP.")
    );
    assert_eq!(
        ability("Play: Discard a card from your hand: gain 3 RP."),
        ability("Play: Discard a card from your hand to gain 3 RP.")
    );
    let then = "Play: All players gain 1 RP. Then each opponent loses 1 RP.";
    assert_eq!(
        format(&parse_ok(then)),
        "Play: All players gain 1 RP. Each opponent loses 1 RP."
    );
}

#[test]
fn next_names_the_card_played_next_in_japanese() {
    let e = parse_ok("Next: If it is a mage card, put 2 +1 STAR tokens on it.");
    assert_eq!(
        render(&e, Lang::Ja, &Phrasebook::builtin(Lang::Ja), &vocab()),
        "ネクスト：自分が次にプレイしたカードが魔道士のカードである場合、そのカードに★+1トークン2個を置く。"
    );
    // Elsewhere `it` is the card just named.
    let e = parse_ok("Play: Reveal the top card of the Store. If it is a dark card, gain 2 RP.");
    assert_eq!(
        render(&e, Lang::Ja, &Phrasebook::builtin(Lang::Ja), &vocab()),
        "プレイ：ショップデッキの一番上のカードを公開する。そのカードが闇のカードである場合、2RPを得る。"
    );
}

#[test]
fn money_and_victory_points() {
    assert_eq!(
        action("Play: Gain 3 Millennium Dollars."),
        Action::Gain {
            n: Num::new(3),
            resource: Resource::Money,
            per: None
        }
    );
    assert_eq!(
        action("Score: Lose 1 Millennium Dollar."),
        Action::Lose {
            n: Num::new(1),
            resource: Resource::Money,
            per: None
        }
    );
    let a = ability("Action: Pay 2 Millennium Dollars to gain 1 VP.");
    assert_eq!(
        a.sentences[0].cost,
        [Clause::Act {
            subject: Player::You,
            action: Action::PayMoney { n: Num::new(2) },
            span: Span::default()
        }]
    );
    assert_eq!(codes("Play: Gain 100 VP."), ["number-out-of-range"]);
    let e =
        parse_ok("Action: Pay 2 Millennium Dollars to gain 1 VP.\nPlay: Gain 1 Millennium Dollar.");
    assert_eq!(
        render(&e, Lang::Ja, &Phrasebook::builtin(Lang::Ja), &vocab()),
        "アクション：2ミレニアムドルを支払うことで、1勝利点を得る。\nプレイ：1ミレニアムドルを得る。"
    );
}

#[test]
fn you_is_named_again_after_another_player() {
    let e = parse_ok("Play: Each opponent loses 1 RP and you gain 2 RP.");
    assert_eq!(
        format(&e),
        "Play: Each opponent loses 1 RP and you gain 2 RP."
    );
    assert_eq!(
        render(&e, Lang::Ja, &Phrasebook::builtin(Lang::Ja), &vocab()),
        "プレイ：各相手は1RPを失い、自分は2RPを得る。"
    );
    // The first clause, and one after a clause you do, need no `you`.
    let e = parse_ok("Play: You gain 1 RP and lose 1 RP.");
    assert_eq!(format(&e), "Play: Gain 1 RP and lose 1 RP.");
}

#[test]
fn store_discard_and_moves() {
    assert_eq!(
        action("Play: Discard a card from your hand."),
        action("Play: Discard a card from your hand to your binder.")
    );
    assert!(matches!(
        action("Play: Discard the top card of the Store to the Store Discard."),
        Action::Discard {
            to: Pile::StoreDiscard,
            ..
        }
    ));
    assert_eq!(
        action("Play: Put a deck box from your hand in the box."),
        action("Play: Discard a deck box from your hand to the box.")
    );
    assert!(matches!(
        action("Play: Reveal a card from your hand."),
        Action::Reveal { .. }
    ));
    assert!(matches!(
        action("Play: Look at the top 3 cards of the Store."),
        Action::LookAt {
            target: Target {
                kind: TargetKind::StoreTop { .. },
                ..
            }
        }
    ));
    let a = ability("Play: Look at the top 3 cards of the Store. Take 1 of them.");
    let Clause::Act {
        action: Action::Take { target, to },
        ..
    } = &a.sentences[1].clauses[0]
    else {
        panic!()
    };
    assert_eq!(*to, TakeTo::Hand);
    assert_eq!(
        target.kind,
        TargetKind::OfThem {
            n: Num::new(1),
            up_to: false
        }
    );
    // `the rest`: what remains of the cards a pick was made from.
    let rest = "Play: Look at the top 3 cards of the Store. Take one of them into your hand. Put the others of them into the Aftermarket.";
    assert!(matches!(
        &ability(rest).sentences[2].clauses[0],
        Clause::Act { action: Action::ToAftermarket { target }, .. } if target.kind == TargetKind::Rest
    ));
    assert!(codes(rest).is_empty());
    assert_eq!(
        codes("Play: Discard the rest."),
        ["pronoun-without-antecedent"]
    );
    assert!(matches!(
        action("Play: Take a card from the Store Discard into your binder."),
        Action::Take {
            to: TakeTo::Binder,
            ..
        }
    ));
    assert!(matches!(
        action("Play: Return the card to the left to your hand."),
        Action::ReturnToHand { .. }
    ));
    assert!(matches!(
        action("Play: Play a card from your hand."),
        Action::PlayCard { .. }
    ));
}

#[test]
fn tokens_insert_slots_copy_attach() {
    assert_eq!(
        action("Play: Put 3 +1 STAR tokens on the next card you play."),
        Action::PutTokens {
            count: Num::new(3),
            target: Target::new(TargetKind::NextCard)
        }
    );
    assert_eq!(
        action("Play: Put a +1 STAR token on this card."),
        Action::PutTokens {
            count: Num::new(1),
            target: Target::new(TargetKind::This)
        }
    );
    assert_eq!(
        action("Play: Insert this card anywhere into your tableau."),
        Action::Insert {
            target: Target::new(TargetKind::This),
            position: Position::Anywhere
        }
    );
    assert_eq!(
        action("Play: Insert 1 card from your hand into your tableau."),
        action("Play: Insert 1 card from your hand anywhere into your tableau.")
    );
    assert!(matches!(
        action("Play: Insert a card from your hand into your tableau to the right of this card."),
        Action::Insert {
            position: Position::Beside {
                side: Side::Right,
                ..
            },
            ..
        }
    ));
    assert_eq!(
        action("Ongoing: Gain 1 extra tableau slot."),
        Action::GainSlots { count: Num::new(1) }
    );
    assert_eq!(
        clause("Ongoing: You have 2 extra tableau slots."),
        clause("Ongoing: Gain 2 extra tableau slots.")
    );
    assert_eq!(
        action("Play: Copy the effect of the card to the left."),
        Action::CopyEffect {
            source: Target::new(TargetKind::Neighbor { side: Side::Left })
        }
    );
    assert!(matches!(
        action("Play: Attach a card from your hand to this card."),
        Action::Attach { .. }
    ));
}

#[test]
fn statements() {
    let Clause::State { target, state, .. } = clause("Ongoing: Adjacent cards cannot be flipped.")
    else {
        panic!()
    };
    assert!(query_of(&target).adjacent);
    assert_eq!(
        state,
        State::CannotBeFlipped {
            by_opponents: false
        }
    );
    let Clause::State { state, .. } =
        clause("Ongoing: Adjacent cards cannot be flipped by opponents' effects.")
    else {
        panic!()
    };
    assert_eq!(state, State::CannotBeFlipped { by_opponents: true });
    let Clause::State { state, .. } = clause("Top: Your Top Card has +2 STAR.") else {
        panic!()
    };
    assert_eq!(state, State::StarBonus { delta: 2 });
    let Clause::State { state, .. } = clause(
        "Ongoing: This card has the elements and types of the card to the left instead of its own.",
    ) else {
        panic!()
    };
    assert_eq!(
        state,
        State::Mimic {
            symbols: Symbols::ElementsAndTypes,
            source: Target::new(TargetKind::Neighbor { side: Side::Left })
        }
    );
}

#[test]
fn sentences_conditions_costs() {
    let a = ability(
        "Play: If the card to the left has a lower STAR than this card, flip it and gain 3 RP.",
    );
    let s = &a.sentences[0];
    assert!(matches!(s.condition, Some(Condition::Star { .. })));
    assert_eq!(s.clauses.len(), 2);
    let a = ability(
        "Action: You may flip this card to put 3 +1 STAR tokens on the next card you play.",
    );
    let s = &a.sentences[0];
    assert!(s.optional);
    assert_eq!(s.cost.len(), 1);
    assert_eq!(s.clauses.len(), 1);
    for (text, bound, n) in [
        (
            "you have 3 or more fire cards in your tableau",
            Bound::OrMore,
            3,
        ),
        (
            "you have at least 3 fire cards in your tableau",
            Bound::OrMore,
            3,
        ),
        ("you have 2 or fewer cards in your hand", Bound::OrLess, 2),
        ("you have no cards in your hand", Bound::Exactly, 0),
        (
            "there are exactly 2 different elements among cards in your tableau",
            Bound::Exactly,
            2,
        ),
    ] {
        let a = ability(&format!("Score: If {text}, gain 1 RP."));
        match &a.sentences[0].condition {
            Some(Condition::Count { bound: b, n: m, .. }) => {
                assert_eq!((*b, m.value), (bound, n), "{text}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    assert!(matches!(
        ability("Score: If your Top Card is a citizen card, gain 3 RP.").sentences[0].condition,
        Some(Condition::Is {
            noun: Some(Noun::Card),
            ..
        })
    ));
    assert!(matches!(
        ability("Score: If this card is your Top Card, gain 3 RP.").sentences[0].condition,
        Some(Condition::IsTopCard { .. })
    ));
    // Joiners: `and`, `then`, commas.
    let a = ability("Play: Flip this card, gain 1 RP, then lose 1 RP and gain 2 RP.");
    assert_eq!(a.sentences[0].clauses.len(), 4);
}

#[test]
fn spans_point_into_the_text() {
    let text = "Scurry.\nPlay: Flip a fyre card.";
    let e = parse_ok(text);
    let errors = check(&e, &vocab());
    assert_eq!(errors.len(), 1);
    assert_eq!(&text[errors[0].span.clone()], "fyre");
    let Line::Ability(a) = &e.lines[1] else {
        panic!()
    };
    assert_eq!(&text[a.timing_span.range()], "Play");
    assert_eq!(&text[a.span.range()], "Play: Flip a fyre card.");
}

#[test]
fn extra_spaces_and_tabs_keep_spans_right() {
    let text = "Scurry.\n  Play:\t Flip  a   fyre card .  ";
    let e = parse_ok(text);
    assert_eq!(e, parse_ok("Scurry.\nPlay: Flip a fyre card."));
    let errors = check(&e, &vocab());
    assert_eq!(&text[errors[0].span.clone()], "fyre");
    let Line::Ability(a) = &e.lines[1] else {
        panic!()
    };
    assert_eq!(&text[a.span.range()], "Play:\t Flip  a   fyre card .");
    let text = "Play:  Gain 1 RP.\n\tScore:   Gian  2 RP.";
    let errors = parse(text).unwrap_err();
    assert_eq!(&text[errors[0].span.clone()], "Gian");
    let text = "Play:  Gain 1 RP.  \n Play: Gain 2 RP";
    let errors = parse(text).unwrap_err();
    assert_eq!(errors[0].span, text.len()..text.len());
}

#[test]
fn every_bad_line_is_reported() {
    let text = "Play: Gian 2 RP.\nScore: Gain 1 RP.\nOngoing: Flip.\nGain 2 RP.";
    let errors = parse(text).unwrap_err();
    assert_eq!(errors.len(), 3, "{errors:#?}");
    assert!(errors.iter().all(|e| e.code == "effect-syntax"));
    let lines: Vec<usize> = errors
        .iter()
        .map(|e| text[..e.span.start].matches('\n').count())
        .collect();
    assert_eq!(lines, [0, 2, 3]);
}

// ──────────────────────────── the reference ────────────────────────────

/// Every ```effect block of `docs/effect-language.md`.
/// The fenced blocks of the reference: (fence word, first line, text).
fn doc_blocks() -> Vec<(String, usize, String)> {
    let doc = include_str!("../docs/effect-language.md");
    let mut out = Vec::new();
    let mut current: Option<(String, usize, String)> = None;
    for (i, line) in doc.lines().enumerate() {
        match &mut current {
            None => {
                if let Some(kind) = line.trim().strip_prefix("```")
                    && !kind.is_empty()
                {
                    current = Some((kind.to_string(), i + 2, String::new()));
                }
            }
            Some(_) if line.trim() == "```" => out.push(current.take().unwrap()),
            Some((_, _, text)) => {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    assert!(current.is_none(), "unclosed ``` block");
    out
}

fn doc_examples() -> Vec<(usize, String)> {
    doc_blocks()
        .into_iter()
        .filter(|(kind, _, _)| kind == "effect")
        .map(|(_, line, text)| (line, text))
        .collect()
}

/// A ```ja block right after an ```effect block is that effect's Japanese,
/// as the built-in phrase book prints it.
#[test]
fn every_japanese_doc_example_is_what_the_renderer_prints() {
    let blocks = doc_blocks();
    let mut checked = 0;
    for pair in blocks.windows(2) {
        let [(kind, _, source), (ja, line, expected)] = pair else {
            unreachable!()
        };
        if ja != "ja" {
            continue;
        }
        assert_eq!(
            kind, "effect",
            "docs line {line}: a ```ja block follows no ```effect block"
        );
        let effect = parse(source).unwrap();
        let printed = render(&effect, Lang::Ja, &Phrasebook::builtin(Lang::Ja), &vocab());
        assert_eq!(printed.trim(), expected.trim(), "docs line {line}");
        checked += 1;
    }
    assert!(checked >= 2, "only {checked} Japanese examples");
}

#[test]
fn every_doc_example_parses_checks_and_is_canonical() {
    let examples = doc_examples();
    assert!(examples.len() >= 30, "only {} examples", examples.len());
    let vocab = vocab();
    for (line, text) in examples {
        let effect = match parse(&text) {
            Ok(e) => e,
            Err(errors) => panic!("docs line {line}: {text}\n{errors:#?}"),
        };
        let findings = check(&effect, &vocab);
        assert!(
            findings.is_empty(),
            "docs line {line}: {text}\n{findings:#?}"
        );
        let formatted = format(&effect);
        assert_eq!(parse(&formatted).unwrap(), effect, "docs line {line}");
    }
}

#[test]
fn doc_lists_every_error_code() {
    let doc = include_str!("../docs/effect-language.md");
    for (code, _) in CODES {
        assert!(doc.contains(&format!("`{code}`")), "docs miss `{code}`");
    }
}

// ─────────────────────────── rendering ───────────────────────────

/// A representative list of effects for the rendering snapshots.
const REPRESENTATIVE: &[&str] = &[
    "Play: Gain 2 RP for each fire card in your tableau.",
    "Reaction (when an opponent flips this card): Clash with an opponent. Win: gain 3 RP. Lose: lose 1 RP. Tie: gain 1 RP.",
    "Ongoing: Adjacent cards cannot be flipped.",
    "Scurry.",
    "Blast Off PLUS.",
    "Mimicry.",
    "Anvil Drop.",
    "Thwomp! 3.",
    "Action: You may flip this card to put 3 +1 STAR tokens on the next card you play.",
    "Play: If the card to the left has a lower STAR than this card, flip it and gain 3 RP.",
    "Action: Flip a card in an opponent's tableau with a lower STAR than this card.",
    "Score: Gain 5 RP for each card to the left of this card.",
    "Score: Gain 1 RP for each different element among cards in your tableau.",
    "Top: Each opponent loses 1 RP for each card in their hand.",
    "Play: Discard a card from your hand to the Store Discard to gain 4 RP.",
    "Action: Flip this card. Look at the top 3 cards of the Store. Take one of them into your hand.",
    "Next: If it is a mage card, put 2 +1 STAR tokens on it.",
    "Ongoing: You have 1 extra tableau slot.",
    "Play: Copy the effect of the card to the left.",
    "Play: Attach a card from your hand to this card.",
    "Play: Flip the highest-STAR card in an opponent's tableau.",
    "Score: If you have 3 or more water cards in your tableau, gain 6 RP.",
    "Score: If you have no cards in your hand, gain 2 RP.",
    "Score: Gain 2 RP for each premium card from the Tin Town set in your tableau.",
    "Top: Your Top Card has +2 STAR.",
    "Ongoing: This card cannot be flipped by opponents' effects.",
    "Play: Clash with all players. Win: gain 4 RP. Lose: lose 2 RP.",
    "Reaction (when you lose a clash): Gain 2 RP.",
    "Reaction (when a card in your tableau is flipped): Put a +1 STAR token on your Top Card.",
    "Play: Insert a soldier card from your hand into your tableau to the left of this card.",
    "Play: Reveal the top card of the Store. If it is a dark card, gain 2 RP.",
    "Flip: Discard up to 2 accessories from your hand to the box.",
    "Score: If your Top Card is a speedster card, gain 4 RP.",
    "Play: Return the card to the right to your hand, then all players gain 1 RP.",
    "Score: Gain RP equal to the STAR of your Top Card.",
];

fn render_all(lang: Lang) -> String {
    let vocab = vocab();
    let phrases = Phrasebook::builtin(lang);
    REPRESENTATIVE
        .iter()
        .map(|text| {
            let e = parse_ok(text);
            assert!(
                check(&e, &vocab).is_empty(),
                "{text}: {:?}",
                check(&e, &vocab)
            );
            render(&e, lang, &phrases, &vocab)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn render_english() {
    insta::assert_snapshot!("render_en", render_all(Lang::En));
}

#[test]
fn render_japanese() {
    insta::assert_snapshot!("render_ja", render_all(Lang::Ja));
}

#[test]
fn english_rendering_of_abilities_is_the_canonical_source() {
    let vocab = vocab();
    let en = Phrasebook::builtin(Lang::En);
    for (_, text) in doc_examples() {
        let e = parse_ok(&text);
        let abilities = Effect {
            lines: e
                .lines
                .into_iter()
                .filter(|l| matches!(l, Line::Ability(_)))
                .collect(),
        };
        assert_eq!(
            render_from_phrases(&abilities, Lang::En, &en, &vocab),
            format(&abilities)
        );
        // What the build prints, keyword lines and sets included.
        for lang in Lang::ALL {
            let book = Phrasebook::builtin(lang);
            let e = parse_ok(&text);
            assert_eq!(
                render(&e, lang, &book, &vocab),
                render_from_phrases(&e, lang, &book, &vocab),
                "{text}"
            );
        }
    }
}

#[test]
fn japanese_uses_the_official_terms() {
    let ja = render_all(Lang::Ja);
    for term in [
        "プレイ：",
        "リアクション（",
        "持続：",
        "トップ：",
        "得点：",
        "アクション：",
        "ネクスト：",
        "リバース：",
        "プレイエリア",
        "トップカード",
        "クラッシュ",
        "擬態",
        "射出+",
        "ちょこまか",
        "金床落とし",
        "ドッスン！",
        "炎",
        "水",
        "魔道士",
        "兵士",
        "ショップ",
    ] {
        assert!(ja.contains(term), "no `{term}` in:\n{ja}");
    }
    // No English words are left, except RP and set names.
    for word in ["card", "tableau", "gain", "flip", " the "] {
        assert!(!ja.contains(word), "`{word}` left in:\n{ja}");
    }
}

#[test]
fn renders_names_from_the_vocabulary() {
    let mut v = vocab();
    v.sets.push(("lake-town".into(), "Lake Town".into()));
    let e = parse_ok("Score: Gain 1 RP for each card from lake-town in your tableau.");
    let en = render(&e, Lang::En, &Phrasebook::builtin(Lang::En), &v);
    assert!(en.contains("from the Lake Town set"), "{en}");
    let ja = render(&e, Lang::Ja, &Phrasebook::builtin(Lang::Ja), &v);
    assert!(ja.contains("「Lake Town」"), "{ja}");
}

// ───────────────────────────── errors ─────────────────────────────

/// Error findings as JSON, with the text each span covers.
fn findings(texts: &[&str]) -> serde_json::Value {
    let vocab = vocab();
    let mut out = Vec::new();
    for text in texts {
        let errors = match parse(text) {
            Ok(e) => check(&e, &vocab),
            Err(errors) => errors,
        };
        assert!(!errors.is_empty(), "no error for `{text}`");
        for e in errors {
            out.push(serde_json::json!({
                "text": text,
                "code": e.code,
                "span": [e.span.start, e.span.end],
                "at": &text[e.span.clone()],
                "message": e.message,
                "label": e.label,
                "help": e.help,
            }));
        }
    }
    serde_json::Value::Array(out)
}

#[test]
fn syntax_errors() {
    insta::assert_json_snapshot!(
        "syntax_errors",
        findings(&[
            "Play: Gian 2 RP.",
            "Play: Gain 2 RP",
            "Playy: Gain 2 RP.",
            "Gain 2 RP.",
            "Play: Flip a crad in your tableau.",
            "Play: Flip a card in your tablaeu.",
            "Win: gain 2 RP.",
            "Reaction (whenn you lose RP): Gain 1 RP.",
            "Play: Gain 2 RP for each fire card in your tableau in your hand.",
            "Play: Flip a face-up face-down card.",
            "Score: If it is an other card, gain 1 RP.",
        ])
    );
}

/// Syntax errors that once came without a way out: each now has a help
/// line that says what to write instead.
#[test]
fn syntax_errors_say_what_to_write() {
    let found = findings(&[
        "Play: Clash with an opponent. If you win, gain 2 RP.",
        "Play: If you lose, lose 1 RP.",
        "Play: Put two +1 STAR tokens on this card.",
        "Play: Gain three RP.",
        "Play: Gane 2 RP.",
        "Score: You may dicsard a card from your hand to gain 1 RP.",
        "Play: Gain RP equal to this card's STAR.",
        "Play: Gain RP equal to your Top Card’s STAR.",
        "Play： Gain 2 RP。",
        "Play: Gain ２ RP.",
        "プレイ：2RPを得る。",
        "ちょこまか。",
        "Play: 2RPを得る。",
        "スカリー。",
    ]);
    for finding in found.as_array().unwrap() {
        assert!(finding["help"].is_string(), "no help: {finding:#}");
    }
    insta::assert_json_snapshot!("syntax_errors_with_help", found);
}

/// Words of other card games and spellings just outside the language: each
/// error says what it is, and the line it suggests parses and checks.
#[test]
fn errors_teach_the_nearest_sentence_inside_the_language() {
    for (text, says, suggests) in [
        (
            "Play: Draw a card.",
            "no deck to draw from",
            Some("Play: Take the top card of the Store into your hand."),
        ),
        (
            "Play: Draw 2 cards and gain 1 RP.",
            "no deck to draw from",
            Some("Play: Take the top 2 cards of the Store into your hand and gain 1 RP."),
        ),
        (
            "Play: Choose one: gain 2 RP or flip this card.",
            "a choice is written",
            Some("Play: Choose one — gain 2 RP; or flip this card."),
        ),
        (
            "Play: Choose one, gain 2 RP, or each opponent loses 1 RP.",
            "a choice is written",
            Some("Play: Choose one — gain 2 RP; or each opponent loses 1 RP."),
        ),
        (
            "Play: You may discard a card from your hand. If you do, gain 3 RP.",
            "`If you do`",
            Some("Play: You may discard a card from your hand to gain 3 RP."),
        ),
        ("Play: Gain a Friendship Card.", "not gained", None),
        (
            "Score: At the end of the game, gain 1 VP.",
            "a timing of its own",
            Some("Game End: Gain 1 VP."),
        ),
        (
            "Deckbuilding: Your maximum hand size is increased by 1.",
            "their `hand size`",
            Some("Deckbuilding: Your hand size is increased by 1."),
        ),
        (
            "Deckbuilding: You may make uneven trades.",
            "a rule of a player's trades",
            None,
        ),
        (
            "Deckbuilding: Trade a card with an opponent.",
            "two players who agree",
            None,
        ),
        (
            "Play: Discard your hand and gain 1 RP.",
            "a hand is not a card",
            Some("Play: Discard each card from your hand and gain 1 RP."),
        ),
        (
            "Score: If you have the most RP, gain 2 RP.",
            "players tie",
            Some("Score: If you have more RP than each opponent, gain 2 RP."),
        ),
        (
            "Play: If you have the fewest Millennium Dollars, gain 2 Millennium Dollars.",
            "players tie",
            Some(
                "Play: If you have fewer Millennium Dollars than each opponent, gain 2 Millennium Dollars.",
            ),
        ),
        (
            "Ongoing: At the start of each of your turns, gain 1 RP.",
            "`each of your turns`",
            Some("Ongoing: At the start of your turn, gain 1 RP."),
        ),
        (
            "Play: Reveal the top card of the Store. If that card is a dark card, gain 2 RP.",
            "refers back to a card",
            Some("Play: Reveal the top card of the Store. If it is a dark card, gain 2 RP."),
        ),
    ] {
        let errors = parse(text).expect_err(text);
        assert_eq!(errors.len(), 1, "{text}: {errors:#?}");
        let e = &errors[0];
        assert!(e.message.contains(says), "{text}: {}", e.message);
        let help = e.help.as_deref().unwrap_or_default();
        assert!(!help.contains("did you mean"), "{text}: {help}");
        if let Some(line) = suggests {
            assert!(help.contains(&format!("`{line}`")), "{text}: {help}");
            let fixed = parse(line).unwrap();
            assert!(check(&fixed, &vocab()).is_empty(), "{line}");
        }
    }
}

#[test]
fn semantic_errors() {
    insta::assert_json_snapshot!(
        "semantic_errors",
        findings(&[
            "Blast Of.",
            "Thwomp!",
            "Scurry 2.",
            "Scurry.\nScurry.",
            "Play: Flip a fyre card.",
            "Play: Flip a robot card.",
            "Score: Gain 1 RP for each card from the Sunset Gulsh set.",
            "Play: Gain 0 RP. Lose 100 RP.",
            "Play: Put 50 +1 STAR tokens on this card.",
            "Reaction: Gain 1 RP.",
            "Play (when you lose RP): Gain 1 RP.",
            "Play: Win: gain 1 RP.",
            "Play: Clash with an opponent. Win: gain 1 RP. Win: gain 2 RP.",
            "Play: Flip it.",
            "Play: Copy the effect of this card.",
            "Ongoing: This card has the elements of this card.",
            "Play: Attach this card to this card.",
            "Play: Flip a face-down card.",
            "Score: Gain 1 RP for each face-down fire card in your tableau.",
            "Play: Adjacent cards cannot be flipped.",
            "Top: This card has +0 STAR.",
        ])
    );
}

#[test]
fn error_codes_are_stable() {
    let codes: Vec<String> = CODES.iter().map(|(c, d)| format!("{c}: {d}")).collect();
    insta::assert_snapshot!("error_codes", codes.join("\n"));
}

#[test]
fn every_code_is_kebab_case_and_documented_once() {
    for (i, (code, description)) in CODES.iter().enumerate() {
        assert!(
            code.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
            "{code}"
        );
        assert!(!description.is_empty());
        assert!(!CODES[..i].iter().any(|(c, _)| c == code), "{code} twice");
    }
}

// ──────────────────────────── data files ────────────────────────────

#[test]
fn builtin_keywords() {
    let k = Keywords::builtin();
    let ids: Vec<&str> = k.iter().map(|k| k.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "mimicry",
            "blast-off",
            "blast-off-plus",
            "scurry",
            "anvil-drop",
            "thwomp"
        ]
    );
    let ja: Vec<&str> = k.iter().map(|k| k.name.ja.as_str()).collect();
    assert_eq!(
        ja,
        [
            "擬態",
            "射出",
            "射出+",
            "ちょこまか",
            "金床落とし",
            "ドッスン！"
        ]
    );
    // The meanings are effect text and expand with the number.
    let thwomp = k.get("THWOMP!").unwrap();
    let e = thwomp.expand(Some(4)).unwrap();
    assert_eq!(
        format(&e),
        "Play: If the card to the left has a lower STAR than this card, flip it and gain 4 RP."
    );
    // The reminder is rendered from the meaning.
    assert_eq!(thwomp.reminder, None);
    assert_eq!(
        render(
            &parse_ok("Thwomp! 4."),
            Lang::Ja,
            &Phrasebook::builtin(Lang::Ja),
            &vocab()
        ),
        "ドッスン！4（プレイ：左のカードのスターレーティングがこのカードよりも低い場合、そのカードを裏返し、4RPを得る。）"
    );
}

#[test]
fn keywords_from_json_validate() {
    let good = serde_json::json!({"keywords": [{
        "id": "steam-up", "name": {"en": "Steam Up", "ja": "蒸気"},
        "reminder": {"en": "Play: Gain {n} RP.", "ja": "プレイ：{n}RPを得る。"},
        "meaning": "Play: Gain {n} RP.", "number": true
    }]});
    let k = Keywords::from_json(&good).unwrap();
    let mut v = vocab();
    v.keywords = k;
    assert_eq!(check(&parse_ok("Steam Up 2."), &v), []);
    assert_eq!(
        check(&parse_ok("Steam Up."), &v)[0].code,
        "keyword-number-missing"
    );
    let bad = serde_json::json!({"keywords": [
        {"id": "Bad_Id", "name": {"en": "lowercase", "ja": ""},
         "reminder": {"en": "{n}", "ja": "x"}, "meaning": "Play: Gian 2 RP."},
        {"id": "top-deck", "name": {"en": "Top Deck", "ja": "x"},
         "reminder": {"en": "x", "ja": "x"}, "meaning": "Play: Copy the effect of this card."}
    ]});
    let err = Keywords::from_json(&bad).unwrap_err();
    for part in [
        "id must be kebab-case",
        "Japanese name is empty",
        "must be capitalised words",
        "reminder.en uses `{n}`",
        "meaning: `Gian` is not understood here",
        "cannot start with a timing word",
        "copy effect cannot copy its own card",
    ] {
        assert!(err.contains(part), "no `{part}` in:\n{err}");
    }
    assert!(Keywords::from_json(&serde_json::json!({"keywords": 3})).is_err());
}

#[test]
fn phrasebooks_validate() {
    for lang in [Lang::En, Lang::Ja] {
        let p = Phrasebook::builtin(lang);
        assert_eq!(p.lang, lang);
    }
    let err = Phrasebook::from_json(
        Lang::En,
        &serde_json::json!({"lang": "en", "phrases": {"action": {"flip": "flip {card}"}, "bogus": "x"}}),
    )
    .unwrap_err();
    assert!(err.contains("unknown placeholder `{card}`"), "{err}");
    assert!(err.contains("unknown phrase `bogus`"), "{err}");
    assert!(err.contains("missing phrase `action.gain_rp`"), "{err}");
    assert!(err.contains("missing phrase `name.element.fire`"), "{err}");
    assert!(
        Phrasebook::from_json(Lang::Ja, &serde_json::json!({"lang": "en", "phrases": {}}))
            .unwrap_err()
            .contains("`lang`")
    );
}

#[test]
fn a_translator_fixes_a_phrase_once() {
    let yaml = include_str!("../cards/phrases/en.yaml");
    let text: String = yaml
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    value["phrases"]["action"]["flip"] = "turn over {target}".into();
    let custom = Phrasebook::from_json(Lang::En, &value).unwrap();
    let e = parse_ok("Play: Flip this card.\nFlip: Flip a card in your tableau.");
    assert_eq!(
        render(&e, Lang::En, &custom, &vocab()),
        "Play: Turn over this card.\nFlip: Turn over a card in your tableau."
    );
}

#[test]
fn ast_json_round_trips_and_has_a_schema() {
    for text in REPRESENTATIVE {
        let e = parse_ok(text);
        let json = serde_json::to_value(&e).unwrap();
        let back: Effect = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(back, e, "{text}");
        assert!(!json.to_string().contains("span"), "{json}");
    }
    let schema = schemars::schema_for!(Effect);
    let text = serde_json::to_string(&schema).unwrap();
    assert!(text.contains("\"lines\""));
    assert!(!text.contains("span"));
    insta::assert_json_snapshot!(
        "ast_json",
        serde_json::to_value(parse_ok(REPRESENTATIVE[1])).unwrap()
    );
}

// ───────────────────────────── properties ─────────────────────────────

fn num(range: std::ops::RangeInclusive<u32>) -> impl Strategy<Value = Num> {
    range.prop_map(Num::new)
}

fn player() -> impl Strategy<Value = Player> {
    prop_oneof![
        Just(Player::You),
        Just(Player::AnOpponent),
        Just(Player::EachOpponent),
        Just(Player::AllPlayers),
        Just(Player::ClashedOpponent),
        Just(Player::TriggerPlayer),
    ]
}

/// Who does a clause: any player, or the opponents compared with you.
fn subject() -> impl Strategy<Value = Player> {
    prop_oneof![
        5 => player(),
        1 => (any::<bool>(), measure())
            .prop_map(|(more, measure)| Player::EachOpponentWith { more, measure }),
    ]
}

fn measure() -> impl Strategy<Value = Measure> {
    prop_oneof![Just(Measure::Rp), Just(Measure::Money), Just(Measure::Vp)]
}

/// Whom `you have more RP than …` compares you with.
fn rival() -> impl Strategy<Value = Player> {
    prop_oneof![
        Just(Player::EachOpponent),
        Just(Player::AnOpponent),
        Just(Player::ClashedOpponent),
        Just(Player::TriggerPlayer),
    ]
}

fn owner() -> impl Strategy<Value = Owner> {
    prop_oneof![
        Just(Owner::You),
        Just(Owner::Their),
        Just(Owner::AnOpponent),
        Just(Owner::EachOpponent),
        Just(Owner::EachPlayer),
        Just(Owner::Any),
        Just(Owner::ClashedOpponent),
        Just(Owner::TriggerPlayer),
    ]
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::Left), Just(Side::Right)]
}

fn bound() -> impl Strategy<Value = Bound> {
    prop_oneof![
        Just(Bound::Exactly),
        Just(Bound::OrMore),
        Just(Bound::OrLess)
    ]
}

// Boxed: an unboxed union of this many arms, inlined in every query's
// strategy, overflows the test thread's stack.
fn place() -> BoxedStrategy<Place> {
    prop_oneof![
        owner().prop_map(|owner| Place::Tableau { owner }),
        owner().prop_map(|owner| Place::Hand { owner }),
        owner().prop_map(|owner| Place::Binder { owner }),
        owner().prop_map(|owner| Place::DeckBoxSlot { owner }),
        owner().prop_map(|owner| Place::AccessorySlots { owner }),
        Just(Place::StoreDiscard),
        Just(Place::Aftermarket),
        Just(Place::Store),
    ]
    .boxed()
}

fn filter() -> impl Strategy<Value = Filter> {
    prop_oneof![
        proptest::sample::select(Element::ALL.to_vec())
            .prop_map(|element| Filter::Element { element }),
        proptest::sample::select(vec!["mage", "animal", "speedster", "robot-kin"]).prop_map(|n| {
            Filter::Type {
                name: n.to_string(),
                span: Span::default(),
            }
        }),
        proptest::sample::select(RarityFilter::ALL.to_vec())
            .prop_map(|rarity| Filter::Rarity { rarity }),
    ]
}

fn face() -> impl Strategy<Value = Option<Face>> {
    prop_oneof![Just(None), Just(Some(Face::Up)), Just(Some(Face::Down))]
}

fn noun() -> impl Strategy<Value = Noun> {
    prop_oneof![
        Just(Noun::Card),
        Just(Noun::Single),
        Just(Noun::DeckBox),
        Just(Noun::Accessory)
    ]
}

fn quant() -> impl Strategy<Value = Quant> {
    prop_oneof![
        Just(Quant::One),
        Just(Quant::Another),
        num(1..=5).prop_map(|n| Quant::Number { n }),
        num(1..=5).prop_map(|n| Quant::UpTo { n }),
        Just(Quant::Each),
        Just(Quant::All),
        Just(Quant::Bare),
        Just(Quant::Highest),
        Just(Quant::Lowest),
    ]
}

fn star_filter(depth: u32) -> BoxedStrategy<StarFilter> {
    let value = (num(1..=10), bound())
        .prop_map(|(n, bound)| StarFilter::Value { n, bound })
        .boxed();
    if depth == 0 {
        return value;
    }
    prop_oneof![
        value,
        (
            prop_oneof![
                Just(StarCmp::Lower),
                Just(StarCmp::Higher),
                Just(StarCmp::Same)
            ],
            target(depth - 1)
        )
            .prop_map(|(cmp, than)| StarFilter::Compare {
                cmp,
                than: Box::new(than)
            }),
    ]
    .boxed()
}

fn query(depth: u32, fixed_quant: Option<Quant>) -> BoxedStrategy<CardQuery> {
    let quant = match fixed_quant {
        Some(q) => Just(q).boxed(),
        None => quant().boxed(),
    };
    (
        (quant, any::<bool>(), any::<bool>(), face()),
        (
            proptest::collection::vec(filter(), 0..3),
            noun(),
            proptest::option::of(proptest::sample::select(vec![
                "Tin Town",
                "Fist of Steel",
                "sunset-gulch",
            ])),
        ),
        (
            proptest::option::of(side()),
            proptest::option::of(place()),
            proptest::option::of(star_filter(depth)),
        ),
    )
        .prop_map(
            |((quant, other, adjacent, face), (filters, noun, set), (side, place, star))| {
                let mut q = CardQuery::new(quant, noun);
                q.other = other;
                q.adjacent = adjacent;
                q.face = face;
                q.filters = filters;
                q.set = set.map(|name| SetRef {
                    name: name.to_string(),
                    span: Span::default(),
                });
                q.side = side;
                q.place = place;
                q.star = star;
                q
            },
        )
        .boxed()
}

fn target(depth: u32) -> BoxedStrategy<Target> {
    let simple = prop_oneof![
        Just(TargetKind::This),
        Just(TargetKind::It),
        Just(TargetKind::Them),
        side().prop_map(|side| TargetKind::Neighbor { side }),
        owner().prop_map(|owner| TargetKind::TopCard { owner }),
        Just(TargetKind::NextCard),
        num(1..=5).prop_map(|count| TargetKind::StoreTop { count }),
        (num(1..=3), any::<bool>()).prop_map(|(n, up_to)| TargetKind::OfThem { n, up_to }),
        Just(TargetKind::Rest),
    ];
    prop_oneof![
        3 => simple,
        2 => query(depth, None).prop_map(|q| TargetKind::Cards(Box::new(q))),
    ]
    .prop_map(Target::new)
    .boxed()
}

fn count(depth: u32) -> BoxedStrategy<Count> {
    prop_oneof![
        query(depth, Some(Quant::Each)).prop_map(|cards| Count::Cards {
            cards: Box::new(cards)
        }),
        target(depth).prop_map(|among| Count::Elements { among }),
        target(depth).prop_map(|among| Count::Types { among }),
        target(depth).prop_map(|among| Count::Sets { among }),
        target(depth).prop_map(|on| Count::Tokens { on }),
        Just(Count::Opponents),
        (any::<bool>(), measure())
            .prop_map(|(more, measure)| Count::OpponentsWith { more, measure }),
        Just(Count::FriendshipCards),
    ]
    .boxed()
}

/// What `for each` counts: a count, or money (which conditions compare).
fn per_each(depth: u32) -> BoxedStrategy<Count> {
    prop_oneof![
        6 => count(depth),
        1 => num(1..=5).prop_map(|per| Count::Money { per }),
    ]
    .boxed()
}

fn amount(depth: u32) -> BoxedStrategy<Amount> {
    prop_oneof![
        num(1..=9).prop_map(|rp| Amount::Fixed { rp }),
        (num(1..=9), per_each(depth)).prop_map(|(rp, count)| Amount::PerEach { rp, count }),
        target(depth).prop_map(|target| Amount::StarOf { target }),
    ]
    .boxed()
}

fn resource() -> impl Strategy<Value = Resource> {
    prop_oneof![
        Just(Resource::Money),
        Just(Resource::Vp),
        Just(Resource::SellMarker)
    ]
}

fn action_strategy(depth: u32) -> BoxedStrategy<Action> {
    let t = || target(depth);
    prop_oneof![
        amount(depth).prop_map(|amount| Action::GainRp { amount }),
        amount(depth).prop_map(|amount| Action::LoseRp { amount }),
        num(1..=3).prop_map(|count| Action::GainSlots { count }),
        (
            num(1..=9),
            resource(),
            proptest::option::of(per_each(depth))
        )
            .prop_map(|(n, resource, per)| Action::Gain { n, resource, per }),
        (
            num(1..=9),
            resource(),
            proptest::option::of(per_each(depth))
        )
            .prop_map(|(n, resource, per)| Action::Lose { n, resource, per }),
        num(1..=9).prop_map(|n| Action::PayMoney { n }),
        Just(Action::NameCard),
        (num(1..=6), rival()).prop_map(|(n, to)| Action::GiveFriendship { n, to }),
        (num(1..=9), prop_oneof![rival(), Just(Player::You)])
            .prop_map(|(n, to)| Action::GiveMoney { n, to }),
        t().prop_map(|target| Action::Flip { target }),
        prop_oneof![Just(ClashWith::Opponent), Just(ClashWith::AllPlayers)]
            .prop_map(|with| Action::Clash { with }),
        (
            t(),
            prop_oneof![
                Just(Pile::Binder),
                Just(Pile::StoreDiscard),
                Just(Pile::Box)
            ]
        )
            .prop_map(|(target, to)| Action::Discard { target, to }),
        t().prop_map(|target| Action::Reveal { target }),
        (t(), prop_oneof![Just(TakeTo::Hand), Just(TakeTo::Binder)])
            .prop_map(|(target, to)| Action::Take { target, to }),
        t().prop_map(|target| Action::LookAt { target }),
        (num(1..=5), t()).prop_map(|(count, target)| Action::PutTokens { count, target }),
        (
            t(),
            prop_oneof![
                Just(Position::Anywhere),
                (side(), t()).prop_map(|(side, of)| Position::Beside { side, of })
            ]
        )
            .prop_map(|(target, position)| Action::Insert { target, position }),
        t().prop_map(|source| Action::CopyEffect { source }),
        (t(), t()).prop_map(|(card, to)| Action::Attach { card, to }),
        t().prop_map(|target| Action::ReturnToHand { target }),
        t().prop_map(|target| Action::PlayCard { target }),
        t().prop_map(|target| Action::Sell { target }),
        t().prop_map(|target| Action::Buy { target }),
        t().prop_map(|target| Action::ToAftermarket { target }),
    ]
    .boxed()
}

fn state(depth: u32) -> BoxedStrategy<State> {
    prop_oneof![
        any::<bool>().prop_map(|by_opponents| State::CannotBeFlipped { by_opponents }),
        prop_oneof![-3..=-1i32, 1..=3i32].prop_map(|delta| State::StarBonus { delta }),
        (
            prop_oneof![
                Just(Symbols::Elements),
                Just(Symbols::Types),
                Just(Symbols::ElementsAndTypes)
            ],
            target(depth)
        )
            .prop_map(|(symbols, source)| State::Mimic { symbols, source }),
        prop_oneof![-3..=-1i32, 1..=3i32].prop_map(|delta| State::BuyCost { delta }),
        prop_oneof![-3..=-1i32, 1..=3i32].prop_map(|delta| State::SellPrice { delta }),
    ]
    .boxed()
}

fn player_rule() -> impl Strategy<Value = PlayerRule> {
    let size = prop_oneof![
        prop_oneof![-3..=-1i32, 1..=3i32].prop_map(|delta| HandSize::By { delta }),
        (1..=9u32).prop_map(|cards| HandSize::Exactly { cards }),
    ];
    let kind = prop_oneof![
        Just(Noun::Single),
        Just(Noun::DeckBox),
        Just(Noun::Accessory)
    ];
    prop_oneof![
        3 => size.prop_map(|size| PlayerRule::HandSize { size }),
        1 => Just(PlayerRule::UnevenTrades),
        1 => prop_oneof![-3..=-1i32, 1..=3i32].prop_map(|delta| PlayerRule::FusionSize { delta }),
        1 => (kind, 1..=3u32).prop_map(|(noun, more)| PlayerRule::DeckLimit { noun, more }),
    ]
}

fn deed(depth: u32) -> BoxedStrategy<Deed> {
    prop_oneof![
        Just(Deed::GainRp),
        Just(Deed::Clash),
        Just(Deed::Trade),
        target(depth).prop_map(|target| Deed::Play { target }),
        target(depth).prop_map(|target| Deed::Flip { target }),
        target(depth).prop_map(|target| Deed::Buy { target }),
        target(depth).prop_map(|target| Deed::Sell { target }),
    ]
    .boxed()
}

fn clause_strategy(depth: u32) -> BoxedStrategy<Clause> {
    prop_oneof![
        3 => (subject(), action_strategy(depth)).prop_map(|(subject, action)| Clause::Act {
            subject,
            action,
            span: Span::default()
        }),
        1 => (subject(), deed(depth)).prop_map(|(who, deed)| Clause::Cannot {
            who,
            deed,
            span: Span::default()
        }),
        1 => (target(depth), state(depth)).prop_map(|(target, state)| Clause::State {
            target,
            state,
            span: Span::default()
        }),
        1 => (player(), player_rule()).prop_map(|(who, rule)| Clause::Rule {
            who,
            rule,
            span: Span::default()
        }),
    ]
    .boxed()
}

fn condition(depth: u32) -> BoxedStrategy<Condition> {
    prop_oneof![
        (count(depth), bound(), num(0..=4)).prop_map(|(count, bound, n)| Condition::Count {
            count,
            bound,
            n
        }),
        (target(depth), star_filter(depth))
            .prop_map(|(target, star)| Condition::Star { target, star }),
        (
            target(depth),
            face(),
            proptest::collection::vec(filter(), 0..3),
            proptest::option::of(noun())
        )
            .prop_filter("something to test", |(_, face, filters, _)| {
                face.is_some() || !filters.is_empty()
            })
            .prop_map(|(target, face, filters, noun)| Condition::Is {
                target,
                face,
                filters,
                noun
            }),
        (target(depth), owner()).prop_map(|(target, owner)| Condition::IsTopCard { target, owner }),
        target(depth).prop_map(|target| Condition::IsNamed { target }),
        (any::<bool>(), measure(), rival()).prop_map(|(more, measure, than)| Condition::Compare {
            more,
            measure,
            than,
            span: Default::default(),
        }),
    ]
    .boxed()
}

fn event_strategy(depth: u32) -> BoxedStrategy<Event> {
    let result = prop_oneof![
        Just(None),
        Just(Some(ClashResult::Win)),
        Just(Some(ClashResult::Lose)),
        Just(Some(ClashResult::Tie))
    ];
    prop_oneof![
        (player(), target(depth)).prop_map(|(who, target)| Event::Flips { who, target }),
        target(depth).prop_map(|target| Event::IsFlipped { target }),
        (player(), target(depth)).prop_map(|(who, target)| Event::Plays { who, target }),
        (player(), result).prop_map(|(who, result)| Event::Clash { who, result }),
        player().prop_map(|who| Event::GainsRp { who }),
        player().prop_map(|who| Event::LosesRp { who }),
        player().prop_map(|who| Event::TurnStarts { who }),
        player().prop_map(|who| Event::TurnEnds { who }),
        player().prop_map(|who| Event::Passes { who }),
        (player(), target(depth)).prop_map(|(who, target)| Event::Buys { who, target }),
        (player(), target(depth)).prop_map(|(who, target)| Event::Sells { who, target }),
        player().prop_map(|who| Event::Fuses { who }),
        player().prop_map(|who| Event::MakesCollection { who }),
        player().prop_map(|who| Event::Trades { who }),
        Just(Event::DeckbuildingStarts),
        Just(Event::DeckbuildingEnds),
        Just(Event::TournamentStarts),
        Just(Event::TournamentEnds),
    ]
    .boxed()
}

fn sentence(depth: u32) -> BoxedStrategy<Sentence> {
    (
        proptest::option::of(prop_oneof![
            Just(ClashResult::Win),
            Just(ClashResult::Lose),
            Just(ClashResult::Tie)
        ]),
        proptest::option::of(event_strategy(depth)),
        proptest::option::of(condition(depth)),
        proptest::option::of(prop_oneof![
            Just(Until::EndOfTurn),
            Just(Until::EndOfTournament),
            Just(Until::EndOfDeckbuilding),
            Just(Until::EndOfRound)
        ]),
        any::<bool>(),
        proptest::collection::vec(clause_strategy(depth), 0..2),
        proptest::collection::vec(clause_strategy(depth), 1..4),
        // One sentence in four is a choice (its options replace the
        // clauses; a choice has no cost).
        proptest::option::weighted(
            0.25,
            proptest::collection::vec(
                proptest::collection::vec(clause_strategy(depth), 1..3),
                2..3,
            ),
        ),
    )
        .prop_map(
            |(outcome, whenever, condition, until, optional, cost, clauses, choice)| {
                let (cost, clauses, choice) = match choice {
                    Some(options) => (Vec::new(), Vec::new(), options),
                    None => (cost, clauses, Vec::new()),
                };
                Sentence {
                    outcome,
                    whenever,
                    condition,
                    until,
                    optional,
                    cost,
                    clauses,
                    choice,
                    span: Span::default(),
                }
            },
        )
        .boxed()
}

fn line_strategy() -> BoxedStrategy<Line> {
    let keyword = (
        proptest::sample::select(vec![
            "Scurry",
            "Blast Off PLUS",
            "Thwomp!",
            "Anvil Drop",
            "Made-Up Word",
        ]),
        proptest::option::of(num(1..=9)),
    )
        .prop_map(|(name, value)| {
            Line::Keyword(KeywordLine {
                name: name.to_string(),
                value,
                span: Span::default(),
                name_span: Span::default(),
            })
        });
    let ability = (
        proptest::sample::select(Timing::ALL.to_vec()),
        proptest::option::of(event_strategy(1)),
        proptest::collection::vec(sentence(1), 1..3),
    )
        .prop_map(|(timing, trigger, sentences)| {
            Line::Ability(Ability {
                timing,
                trigger,
                sentences,
                span: Span::default(),
                timing_span: Span::default(),
            })
        })
        .prop_filter("every player reference is bound", references_bound);
    prop_oneof![1 => keyword, 4 => ability].boxed()
}

/// A tree whose `their` and `that opponent` each have exactly one player to
/// refer to (the others are reported by `check`, and no text says them).
fn references_bound(line: &Line) -> bool {
    let effect = Effect {
        lines: vec![line.clone()],
    };
    !check(&effect, &vocab())
        .iter()
        .any(|e| matches!(e.code, "player-without-antecedent" | "ambiguous-reference"))
}

fn effect_strategy() -> impl Strategy<Value = Effect> {
    proptest::collection::vec(line_strategy(), 0..3)
        .prop_map(|lines| Effect { lines })
        // The language bounds an effect's length (`effect-too-long`); a
        // longer random tree has no text to round-trip through.
        .prop_filter("within the effect length bound", |effect| {
            format(effect).chars().count() <= MAX_EFFECT_CHARS
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn format_round_trips(effect in effect_strategy()) {
        let text = format(&effect);
        let parsed = parse(&text);
        prop_assert!(parsed.is_ok(), "`{}` does not parse: {:?}", text, parsed.err());
        prop_assert_eq!(parsed.unwrap(), effect, "text: {}", text);
    }

    #[test]
    fn format_is_idempotent(effect in effect_strategy()) {
        let once = format(&effect);
        let twice = format(&parse(&once).unwrap());
        prop_assert_eq!(once, twice);
    }

    #[test]
    fn rendering_never_panics_and_english_abilities_match_the_source(effect in effect_strategy()) {
        // No sets: rendering prints a set's name where the source has its id.
        let mut vocab = Vocabulary::base();
        vocab.types.push("speedster".into());
        let _ = render(&effect, Lang::Ja, &Phrasebook::builtin(Lang::Ja), &vocab);
        let abilities = Effect {
            lines: effect.lines.into_iter().filter(|l| matches!(l, Line::Ability(_))).collect(),
        };
        prop_assert_eq!(
            render_from_phrases(&abilities, Lang::En, &Phrasebook::builtin(Lang::En), &vocab),
            format(&abilities)
        );
    }

    /// The build prints the built-in English book's abilities as their
    /// canonical source: the same text as through the phrase book, sets
    /// (whose names the renderer looks up) and keyword lines included.
    #[test]
    fn rendering_prints_what_the_phrase_book_does(effect in effect_strategy()) {
        let vocab = vocab();
        for lang in Lang::ALL {
            let book = Phrasebook::builtin(lang);
            prop_assert_eq!(
                render(&effect, lang, &book, &vocab),
                render_from_phrases(&effect, lang, &book, &vocab)
            );
        }
    }

    #[test]
    fn every_language_names_the_player_the_tree_refers_to(effect in effect_strategy()) {
        let vocab = vocab();
        let tree = serde_json::to_string(&effect).unwrap();
        let english = render(&effect, Lang::En, &Phrasebook::builtin(Lang::En), &vocab);
        let japanese = render(&effect, Lang::Ja, &Phrasebook::builtin(Lang::Ja), &vocab);
        // Each opponent referred back to is `that opponent` / その相手, and
        // nothing else is.
        let refers_back = tree.contains("\"clashed-opponent\"") || tree.contains("\"trigger-player\"");
        prop_assert_eq!(refers_back, english.to_lowercase().contains("that opponent"), "{}", english);
        prop_assert_eq!(refers_back, japanese.contains("その相手"), "{}", japanese);
        // `their` is the player doing the clause: 自分 in Japanese, after
        // that player's name.
        if tree.contains("\"their\"") {
            prop_assert!(japanese.contains("自分"), "{}", japanese);
        }
        // `your` in a clause another player does is あなた, never 自分
        // (which would name that player).
        if others_clause_names_you(&effect) {
            prop_assert!(japanese.contains("あなた"), "{}", japanese);
        }
    }

    #[test]
    fn parse_never_panics(text in "[ -~\n]{0,80}") {
        let _ = parse(&text).map(|e| check(&e, &vocab()));
    }

    /// The hints (full-width, Japanese, numbers in words, possessives,
    /// clash results, verbs) never panic and point inside the text.
    #[test]
    fn hinted_errors_stay_inside_the_text(
        text in "(Play|Score|プレイ)[:：]( |If you (win|lose),|two|one|this card['’]s STAR|Gane|ちょこまか|２|。|、|　|[A-Za-z +1.,'’：]){0,12}"
    ) {
        let errors = match parse(&text) {
            Ok(e) => check(&e, &vocab()),
            Err(errors) => errors,
        };
        for e in errors {
            prop_assert!(e.span.start <= e.span.end && e.span.end <= text.len());
            prop_assert!(text.is_char_boundary(e.span.start) && text.is_char_boundary(e.span.end));
        }
    }

    #[test]
    fn error_spans_are_inside_the_text(text in "(Play|Score|Ongoing): [A-Za-z +1.,']{0,40}") {
        let errors = match parse(&text) {
            Ok(e) => check(&e, &vocab()),
            Err(errors) => errors,
        };
        for e in errors {
            prop_assert!(e.span.start <= e.span.end && e.span.end <= text.len());
            prop_assert!(text.is_char_boundary(e.span.start) && text.is_char_boundary(e.span.end));
        }
    }
}

/// Does a clause done by a player other than you name cards of yours?
fn others_clause_names_you(effect: &Effect) -> bool {
    effect.lines.iter().any(|line| {
        let Line::Ability(a) = line else { return false };
        a.sentences.iter().flat_map(Sentence::each_clause).any(|c| {
            let (who, json) = match c {
                Clause::Act {
                    subject, action, ..
                } => (*subject, serde_json::to_string(action)),
                Clause::Cannot { who, deed, .. } => (*who, serde_json::to_string(deed)),
                Clause::State { .. } | Clause::Rule { .. } => return false,
            };
            who != Player::You && json.unwrap().contains("\"owner\":\"you\"")
        })
    })
}

/// Words of the grammar, for random sentences.
const WORDS: &[&str] = &[
    "gain",
    "lose",
    "flip",
    "clash",
    "with",
    "an",
    "a",
    "opponent",
    "opponent's",
    "all",
    "players",
    "each",
    "card",
    "cards",
    "this",
    "the",
    "to",
    "left",
    "right",
    "of",
    "in",
    "your",
    "tableau",
    "hand",
    "for",
    "fire",
    "mage",
    "2",
    "RP",
    "STAR",
    "+1",
    "token",
    "tokens",
    "put",
    "on",
    "it",
    "them",
    "one",
    "up",
    "if",
    "you",
    "have",
    "has",
    "or",
    "more",
    "less",
    "cannot",
    "be",
    "flipped",
    "adjacent",
    "face-up",
    "face-down",
    "other",
    "another",
    "highest-STAR",
    "top",
    "Top",
    "Card",
    "next",
    "play",
    "Store",
    "Discard",
    "box",
    "from",
    "set",
    "Tin",
    "Town",
    "and",
    "then",
    ",",
    "may",
    "different",
    "element",
    "among",
    "lower",
    "than",
    "is",
    "are",
    "win",
    "Win:",
    "no",
    "at",
    "least",
    "exactly",
    "any",
    "their",
    "single",
    "deck box",
    "accessory",
    "take",
    "into",
    "look",
    "reveal",
    "discard",
    "insert",
    "anywhere",
    "copy",
    "effect",
    "attach",
    "return",
    "extra",
    "slot",
    "bronze promo",
    "premium",
    "there",
    "when",
    "loses",
    "wins",
];

/// Near-misses: a formatted ability line with one word replaced, dropped or
/// doubled, or plain random words.
fn random_line() -> impl Strategy<Value = String> {
    let random = (
        proptest::sample::select(vec![
            "Play:",
            "Ongoing:",
            "Reaction (when you lose RP):",
            "Score:",
        ]),
        proptest::collection::vec(proptest::sample::select(WORDS.to_vec()), 1..12),
    )
        .prop_map(|(timing, words)| format!("{timing} {}.", words.join(" ")));
    let mutated = (
        line_strategy(),
        any::<proptest::sample::Index>(),
        0..4u8,
        proptest::sample::select(WORDS.to_vec()),
    )
        .prop_map(|(line, at, how, word)| {
            let text = format(&Effect { lines: vec![line] });
            let mut words: Vec<&str> = text.split(' ').collect();
            let i = at.index(words.len());
            match how {
                0 => words[i] = word,
                1 if words.len() > 1 => {
                    words.remove(i);
                }
                2 => words.insert(i, word),
                _ => {}
            }
            words.join(" ")
        });
    prop_oneof![1 => random, 3 => mutated]
}
proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// The fast grammar's guards only skip alternatives that cannot match:
    /// it accepts exactly what diagnostic mode accepts.
    #[test]
    fn guards_never_change_what_parses(line in random_line()) {
        use pest::Parser as _;
        let fast = EffectParser::parse(Rule::ability_line, &line).is_ok();
        let diag = EffectParser::parse(Rule::ability_line_diag, &line).is_ok();
        prop_assert_eq!(fast, diag, "{}", line);
    }
}

#[test]
fn some_random_lines_parse() {
    // The generator above must reach valid lines too, or it proves nothing.
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut ok = 0;
    for _ in 0..2_000 {
        let line = random_line().new_tree(&mut runner).unwrap().current();
        ok += usize::from(parse(&line).is_ok());
    }
    assert!(ok > 400, "only {ok} of 2000 random lines parse");
    assert!(
        ok < 1_900,
        "{ok} of 2000 random lines parse: too few errors"
    );
}

/// `Play: Flip a card` with `levels` nested STAR comparisons.
fn nested(levels: usize) -> String {
    let mut text = String::from("Play: Flip a card");
    for _ in 1..levels {
        text.push_str(" with a lower STAR than a card");
    }
    text.push_str(" with a lower STAR than this card.");
    text
}

#[test]
fn nesting_is_bounded_not_a_stack_overflow() {
    let deepest = nested(MAX_NESTING);
    assert!(parse(&deepest).is_ok(), "{deepest}");
    let errors = parse(&nested(MAX_NESTING + 1)).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].code, "effect-too-deep");
    // A hostile text (as deep as the length bound allows) is refused at
    // once, located at the first comparison too many.
    let hostile = nested(60);
    assert!(hostile.chars().count() <= MAX_EFFECT_CHARS);
    let errors = parse(&hostile).unwrap_err();
    assert_eq!(errors[0].code, "effect-too-deep");
    let nth = hostile.match_indices("than").nth(MAX_NESTING).unwrap().0;
    assert_eq!(errors[0].span, nth..nth + 4);
    // Deeper still is longer than an effect may be.
    let errors = parse(&nested(100_000)).unwrap_err();
    assert_eq!(errors[0].code, "effect-too-long");
}

/// A valid effect of exactly `chars` characters: many abilities, padded
/// with spaces at the end (which the parser ignores).
fn long_effect(chars: usize) -> String {
    let mut text = String::new();
    while text.len() + 17 < chars {
        text.push_str("Play: Gain 2 RP.\n");
    }
    text.push_str(&" ".repeat(chars - text.len()));
    text
}

#[test]
fn effect_length_is_bounded_before_parsing() {
    let longest = long_effect(MAX_EFFECT_CHARS);
    assert_eq!(longest.chars().count(), MAX_EFFECT_CHARS);
    assert!(parse(&longest).is_ok());
    // One character more is one located error, at that character.
    let errors = parse(&long_effect(MAX_EFFECT_CHARS + 1)).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0].code, "effect-too-long");
    assert_eq!(errors[0].span, MAX_EFFECT_CHARS..MAX_EFFECT_CHARS + 1);
    assert!(errors[0].message.contains("2001 characters"), "{errors:?}");
    // Characters, not bytes: 2,000 two-byte letters are within the bound,
    // and the span of the next one is in bytes.
    let accented = "é".repeat(MAX_EFFECT_CHARS);
    assert_ne!(
        parse(&accented).unwrap_err()[0].code,
        "effect-too-long",
        "a bound in bytes"
    );
    let errors = parse(&format!("{accented}éé")).unwrap_err();
    assert_eq!(errors[0].code, "effect-too-long");
    assert_eq!(
        errors[0].span,
        2 * MAX_EFFECT_CHARS..2 * MAX_EFFECT_CHARS + 2
    );
    // A valid effect of 10 MB is refused as one finding, not parsed.
    let errors = parse(&"Play: Gain 2 RP.\n".repeat(600_000)).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].code, "effect-too-long");
}
