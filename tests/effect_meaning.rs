//! Meaning is the one source: keyword reminders rendered from their
//! meanings, hand-written overrides compared by what they do, and the sense
//! warnings (effects that do nothing or contradict themselves), with the
//! reference's examples of each.

mod common;

use blades::effect::*;
use blades::words::CardKind;

use common::{blades, root};

fn parse_ok(text: &str) -> Effect {
    match parse(text) {
        Ok(e) => e,
        Err(errors) => panic!("`{text}` does not parse: {errors:#?}"),
    }
}

/// The sense codes of an effect the checks accept, on a card of `kind`.
fn sense_of(text: &str, kind: Option<CardKind>) -> Vec<&'static str> {
    let effect = parse_ok(text);
    let vocab = Vocabulary::base();
    assert_eq!(check(&effect, &vocab), [], "`{text}` fails its checks");
    sense(&effect, kind, &vocab)
        .into_iter()
        .map(|e| e.code)
        .collect()
}

fn codes(text: &str) -> Vec<&'static str> {
    sense_of(text, None)
}

// ───────────────────────── keyword reminders ─────────────────────────

#[test]
fn every_builtin_reminder_is_its_meaning_rendered() {
    let vocab = Vocabulary::base();
    for keyword in Keywords::builtin().iter() {
        assert_eq!(
            keyword.reminder, None,
            "{} has a hand-written reminder",
            keyword.id
        );
        let value = keyword.number.then_some(3);
        let line = match value {
            Some(n) => format!("{} {n}.", keyword.name.en),
            None => format!("{}.", keyword.name.en),
        };
        let meaning = keyword.expand(value).unwrap();
        for (lang, open, close) in [(Lang::En, " (", ")"), (Lang::Ja, "（", "）")] {
            let book = Phrasebook::builtin(lang);
            let name = match (lang, value) {
                (Lang::En, Some(n)) => format!("{} {n}", keyword.name.en),
                (Lang::Ja, Some(n)) => format!("{}{n}", keyword.name.ja),
                _ => keyword.name_in(lang).to_string(),
            };
            let reminder = render(&meaning, lang, &book, &vocab);
            assert_eq!(
                render(&parse_ok(&line), lang, &book, &vocab),
                format!("{name}{open}{reminder}{close}"),
                "{line} in {lang:?}"
            );
        }
        // The built-in meanings make sense too.
        assert_eq!(sense(&meaning, None, &vocab), [], "{}", keyword.id);
    }
}

#[test]
fn the_reminders_that_said_something_else_now_print_their_meaning() {
    // Scurry, Mimicry and Anvil Drop printed hand-written reminders that
    // were not their meanings; Mimicry's printed text lost `instead of its own`.
    let vocab = Vocabulary::base();
    let en = Phrasebook::builtin(Lang::En);
    let ja = Phrasebook::builtin(Lang::Ja);
    let printed = |text: &str, book: &Phrasebook, lang| render(&parse_ok(text), lang, book, &vocab);
    assert_eq!(
        printed("Mimicry.", &en, Lang::En),
        "Mimicry (Ongoing: This card has the elements and types of the card to the left instead of its own.)"
    );
    assert_eq!(
        printed("Mimicry.", &ja, Lang::Ja),
        "擬態（持続：このカードは自身の属性と種族の代わりに左のカードの属性と種族を持つ。）"
    );
    assert_eq!(
        printed("Scurry.", &en, Lang::En),
        "Scurry (Play: You may insert this card anywhere into your tableau.)"
    );
    assert_eq!(
        printed("Anvil Drop.", &en, Lang::En),
        "Anvil Drop (Action: Flip a card in an opponent's tableau with a lower STAR than this card.)"
    );
}

/// A one-keyword table with this reminder and meaning.
fn keyword(reminder: serde_json::Value, meaning: &str) -> Keyword {
    let table = serde_json::json!({"keywords": [{
        "id": "rocket", "name": {"en": "Rocket", "ja": "ロケット"},
        "reminder": reminder, "meaning": meaning,
    }]});
    let keywords = Keywords::from_json(&table).unwrap();
    keywords.get("Rocket").unwrap().clone()
}

#[test]
fn an_override_is_compared_with_the_meaning_by_what_it_does() {
    let meaning = "Action: Put 2 +1 STAR tokens on the next card you play.";
    // The rulebook's wording: the Action's own flip and `you may` are no difference.
    let rulebook = serde_json::json!({"en": "Action: You may flip this card to put 2 +1 STAR tokens on the next card you play."});
    assert_eq!(keyword(rulebook, meaning).override_differs(), None);
    let written = serde_json::json!({"en": "Action: Flip this card. Put 2 +1 STAR tokens on the next card you play."});
    assert_eq!(keyword(written, meaning).override_differs(), None);
    // Another amount, another card: something else.
    let more = serde_json::json!({"en": "Action: Put 3 +1 STAR tokens on the next card you play."});
    let found = keyword(more, meaning).override_differs().unwrap();
    assert!(found.contains("Put 3 +1 STAR tokens"), "{found}");
    let play = serde_json::json!({"en": "Play: Put 2 +1 STAR tokens on the next card you play."});
    assert!(keyword(play, meaning).override_differs().is_some());
    // Prose cannot be compared.
    let prose = serde_json::json!({"en": "Rockets your next card."});
    assert!(
        keyword(prose, meaning)
            .override_differs()
            .unwrap()
            .contains("not effect text")
    );
    // A Japanese override alone is printed, and leaves the English rendered.
    let ja = serde_json::json!({"ja": "アクション：次のカードに★+1トークン2個を置く。"});
    let k = keyword(ja, meaning);
    assert_eq!(k.override_differs(), None);
    assert_eq!(k.reminder_override(Lang::En, None), None);
    assert!(k.reminder_override(Lang::Ja, None).is_some());
}

// ───────────────────────────── sense ─────────────────────────────

/// The card kind an example of the sense table is on (`… on a venue`),
/// and the example without it.
fn example_on(cell: &str) -> (String, Option<CardKind>) {
    let (text, kind) = match cell.rsplit_once("` on a ") {
        Some((text, kind)) => (text, Some(kind.trim_matches(|c| c == '|' || c == ' '))),
        None => (cell, None),
    };
    let kind = kind.map(|k| match k {
        "venue" => CardKind::Venue,
        "character" => CardKind::Character,
        "single" => CardKind::Single,
        "deck box" => CardKind::DeckBox,
        "accessory" => CardKind::Accessory,
        other => panic!("no card kind `{other}`"),
    });
    let text = text.trim_matches(|ch| ch == '`' || ch == '|' || ch == ' ');
    (text.to_string(), kind)
}

/// The sense table of the reference: (code, example, fixed example, the
/// kind of card both are on when it matters).
fn reference_rows() -> Vec<(String, String, String, Option<CardKind>)> {
    let doc = include_str!("../docs/effect-language.md");
    let section = doc
        .split("### Sense warnings")
        .nth(1)
        .expect("the reference has a sense section");
    section
        .lines()
        .filter(|l| l.starts_with("| `sense-"))
        .map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            let unquote = |c: &str| {
                c.trim_matches(|ch| ch == '`' || ch == '|' || ch == ' ')
                    .to_string()
            };
            let (example, kind) = example_on(cells[2]);
            let (fixed, _) = example_on(cells[3]);
            (unquote(cells[0]), example, fixed, kind)
        })
        .collect()
}

#[test]
fn every_sense_warning_of_the_reference_is_found_and_its_fix_is_clean() {
    let rows = reference_rows();
    let documented: Vec<&str> = rows.iter().map(|(c, ..)| c.as_str()).collect();
    let listed: Vec<&str> = CODES
        .iter()
        .map(|(c, _)| *c)
        .filter(|c| c.starts_with("sense-"))
        .collect();
    assert_eq!(
        documented, listed,
        "the reference lists every sense code once"
    );
    for (code, example, fixed, kind) in &rows {
        assert_eq!(sense_of(example, *kind), [code.as_str()], "{example}");
        assert_eq!(sense_of(fixed, *kind), Vec::<&str>::new(), "{fixed}");
    }
}

#[test]
fn every_sense_warning_is_located_with_a_fix() {
    for (_, example, _, kind) in reference_rows() {
        let effect = parse_ok(&example);
        for e in sense(&effect, kind, &Vocabulary::base()) {
            assert!(
                e.span.end <= example.len() && e.span.start < e.span.end,
                "{e:?}"
            );
            assert!(e.help.as_deref().is_some_and(|h| !h.is_empty()), "{e:?}");
        }
    }
}

#[test]
fn flipping_what_the_timing_already_flips() {
    assert_eq!(codes("Flip: Flip this card."), ["sense-flip-flipped"]);
    assert_eq!(
        codes("Reaction (when this card is flipped): Flip this card and gain 1 RP."),
        ["sense-flip-flipped"]
    );
    assert_eq!(
        codes("Action: Flip this card. Gain 2 RP. Flip this card."),
        ["sense-flip-flipped"]
    );
    // The Action's own flip, written once, is the rule's: no finding.
    assert_eq!(codes("Action: Flip this card. Gain 2 RP."), [] as [&str; 0]);
    assert_eq!(
        codes("Action: You may flip this card to put 3 +1 STAR tokens on the next card you play."),
        [] as [&str; 0]
    );
    // Flipping another card is no repetition.
    assert_eq!(codes("Flip: Flip the card to the left."), [] as [&str; 0]);
}

#[test]
fn one_shots_under_lasting_timings() {
    assert_eq!(
        codes("Top: Each opponent loses 1 RP."),
        ["sense-one-shot-lasting"]
    );
    assert_eq!(
        codes("Ongoing: Gain 2 Millennium Dollars."),
        ["sense-one-shot-lasting"]
    );
    assert_eq!(
        codes("Ongoing: Gain 1 extra tableau slot."),
        [] as [&str; 0]
    );
    assert_eq!(codes("Top: Your Top Card has +2 STAR."), [] as [&str; 0]);
    // `Whenever …,` and `At the start of your turn,` say when.
    assert_eq!(
        codes("Ongoing: Whenever an opponent passes, gain 1 RP."),
        [] as [&str; 0]
    );
    assert_eq!(
        codes("Top: At the start of your turn, gain 1 RP."),
        [] as [&str; 0]
    );
}

#[test]
fn gaining_and_losing_the_same() {
    assert_eq!(
        codes("Play: Gain 2 RP and lose 2 RP."),
        ["sense-gain-and-lose"]
    );
    let help = sense(
        &parse_ok("Play: Lose 1 RP and gain 4 RP."),
        None,
        &Vocabulary::base(),
    )
    .remove(0)
    .help
    .unwrap();
    assert!(
        help.starts_with("write the difference once: `gain 3 RP`"),
        "{help}"
    );
    // Millennium Dollars and VP too; paying money is losing it, a cost included.
    assert_eq!(
        codes("Play: Pay 3 Millennium Dollars to gain 3 Millennium Dollars."),
        ["sense-gain-and-lose"]
    );
    assert_eq!(
        codes("Play: Gain 2 VP and lose 1 VP."),
        ["sense-gain-and-lose"]
    );
    assert_eq!(codes("Play: Gain 2 VP and lose 2 RP."), [] as [&str; 0]);
    // Different players, or different clash results, are no contradiction.
    assert_eq!(
        codes("Play: Gain 2 RP and each opponent loses 2 RP."),
        [] as [&str; 0]
    );
    assert_eq!(
        codes("Action: Clash with an opponent. Win: gain 2 RP. Lose: lose 2 RP."),
        [] as [&str; 0]
    );
}

#[test]
fn opposite_modifiers_on_the_same_cards() {
    assert_eq!(
        codes("Ongoing: This card has +1 STAR.\nTop: This card has -1 STAR."),
        ["sense-opposite-modifiers"]
    );
    // Other cards, or other conditions, are no contradiction.
    assert_eq!(
        codes("Ongoing: This card has +1 STAR. Adjacent cards have -1 STAR."),
        [] as [&str; 0]
    );
    assert_eq!(
        codes(
            "Ongoing: If you have 3 or more fire cards in your tableau, this card has +2 STAR. This card has -1 STAR."
        ),
        [] as [&str; 0]
    );
}

#[test]
fn conditions_that_never_hold() {
    for text in [
        "Play: If this card has a lower STAR than this card, gain 2 RP.",
        "Ongoing: If this card is face-down, this card has +1 STAR.",
        "Flip: If this card is face-up, gain 1 RP.",
        "Play: If this card is an opponent's Top Card, gain 1 RP.",
        "Play: If there are 7 or more different types among cards in your tableau, gain 1 RP.",
    ] {
        assert_eq!(codes(text), ["sense-never-holds"], "{text}");
    }
    for text in [
        "Play: If this card has the same STAR as your Top Card, gain 2 RP.",
        "Action: If this card is your Top Card, gain 1 RP.",
        "Play: If there are 6 or more different types among cards in your tableau, gain 1 RP.",
    ] {
        assert_eq!(codes(text), [] as [&str; 0], "{text}");
    }
    // The card's kind: an accessory is never a Top Card, nor a single.
    let text = "Action: If this card is your Top Card, gain 1 RP.";
    assert_eq!(
        sense_of(text, Some(CardKind::Accessory)),
        ["sense-never-holds"]
    );
    assert_eq!(sense_of(text, Some(CardKind::Single)), [] as [&str; 0]);
}

#[test]
fn card_kinds_where_they_never_are() {
    assert_eq!(
        codes("Action: Flip a deck box in an opponent's tableau."),
        ["sense-never-there"]
    );
    assert_eq!(
        codes("Action: Flip a deck box in an opponent's hand."),
        [] as [&str; 0]
    );
    let top = "Top: This card cannot be flipped.";
    assert_eq!(
        sense_of(top, Some(CardKind::DeckBox)),
        ["sense-never-there"]
    );
    assert_eq!(sense_of(top, Some(CardKind::Single)), [] as [&str; 0]);
    let scurry = "Play: You may insert this card anywhere into your tableau.";
    assert_eq!(
        sense_of(scurry, Some(CardKind::Accessory)),
        ["sense-never-there"]
    );
    assert_eq!(sense_of(scurry, Some(CardKind::Single)), [] as [&str; 0]);
}

/// A Venue or a character is never played, flipped or in a tableau; a
/// Venue is gone before the game ends; a card of a tableau lasts through
/// the tournament as `Ongoing:`. Each finding's fix is a timing that works.
#[test]
fn timings_a_card_kind_never_reaches() {
    use CardKind::*;
    let never = ["sense-timing-kind"];
    let works: [&str; 0] = [];
    for (text, kind, expected) in [
        ("Play: Gain 1 RP.", Venue, &never[..]),
        ("Action: Gain 1 RP.", Character, &never),
        ("Score: Gain 1 RP.", Venue, &never),
        ("Ongoing: This card cannot be flipped.", Character, &never),
        ("Top: This card cannot be flipped.", Venue, &never),
        ("Game End: Gain 1 VP.", Venue, &never),
        ("Game End: Gain 1 VP.", Character, &works),
        ("Game End: Gain 1 VP.", Single, &works),
        (
            "Tournament: At the start of the tournament, gain 1 RP.",
            Venue,
            &works,
        ),
        (
            "Tournament: At the start of the tournament, gain 1 RP.",
            Character,
            &works,
        ),
        (
            "Deckbuilding: Your hand size is increased by 1.",
            Venue,
            &works,
        ),
        (
            "Tournament: Fire cards in your tableau have +1 STAR.",
            Single,
            &never,
        ),
        (
            "Tournament: Fire cards in your tableau have +1 STAR.",
            Accessory,
            &never,
        ),
        (
            "Ongoing: Fire cards in your tableau have +1 STAR.",
            Single,
            &works,
        ),
    ] {
        assert_eq!(sense_of(text, Some(kind)), expected, "{text} on a {kind:?}");
    }
    // The fix writes the timing that works, and the fixed text is clean.
    for (text, kind, fixed) in [
        (
            "Ongoing: This card cannot be flipped.",
            Venue,
            "Tournament: This card cannot be flipped.",
        ),
        (
            "Tournament: This card cannot be flipped.",
            Single,
            "Ongoing: This card cannot be flipped.",
        ),
    ] {
        let effect = parse_ok(text);
        let found = sense(&effect, Some(kind), &Vocabulary::base());
        let (span, with) = found[0].fix.clone().expect("a fix");
        let after = format!("{}{with}{}", &text[..span.start], &text[span.end..]);
        assert_eq!(after, fixed);
        assert_eq!(sense_of(&after, Some(kind)), works, "{after}");
    }
}

/// A player's hand size or Card Fusion size raised and lowered alike.
#[test]
fn opposite_changes_of_a_players_rule() {
    for text in [
        "Deckbuilding: Your hand size is increased by 1. Your hand size is reduced by 2.",
        "Deckbuilding: Your Card Fusions need 1 fewer card and your Card Fusions need 1 more card.",
    ] {
        assert_eq!(codes(text), ["sense-opposite-modifiers"], "{text}");
    }
    for text in [
        "Deckbuilding: Your hand size is increased by 1. Each opponent's hand size is reduced by 1.",
        "Deckbuilding: Your hand size is increased by 1. Your Card Fusions need 1 more card.",
    ] {
        assert_eq!(codes(text), [] as [&str; 0], "{text}");
    }
}

/// Each player follows a Venue's rules as `you`: a clause of every player
/// or of each opponent would happen once for each player.
#[test]
fn a_venue_says_what_one_player_does() {
    let once_per_player = ["sense-venue-every-player"];
    for text in [
        "Tournament: At the start of the tournament, all players gain 1 RP.",
        "Tournament: Each opponent cannot clash.",
        "Deckbuilding: Each opponent's hand size is reduced by 1.",
    ] {
        assert_eq!(
            sense_of(text, Some(CardKind::Venue)),
            once_per_player,
            "{text}"
        );
        assert_eq!(
            sense_of(text, Some(CardKind::Character)),
            [] as [&str; 0],
            "{text}"
        );
    }
    assert_eq!(
        sense_of(
            "Tournament: At the start of the tournament, gain 1 RP.",
            Some(CardKind::Venue)
        ),
        [] as [&str; 0]
    );
}

#[test]
fn references_that_are_not_what_they_say() {
    assert_eq!(
        codes("Play: Reveal a card from your hand. Discard them."),
        ["sense-reference"]
    );
    assert_eq!(
        codes("Play: Look at the top 2 cards of the Store. Take 3 of them into your hand."),
        ["sense-reference"]
    );
    // `the rest` of what `it` was picked from: one card, so nothing.
    assert_eq!(
        codes("Play: Reveal the top card of the Store. Take it into your hand. Discard the rest."),
        ["sense-reference"]
    );
    for text in [
        "Play: Look at the top 3 cards of the Store. Take one of them into your hand. Discard the rest.",
        "Play: Look at the top 3 cards of the Store. Take 2 of them into your hand.",
        "Play: Reveal a card from your hand. Discard it.",
        "Next: Put a +1 STAR token on it.",
        "Play: If the card to the left has a lower STAR than this card, flip it and gain 2 RP.",
    ] {
        assert_eq!(codes(text), [] as [&str; 0], "{text}");
    }
}

#[test]
fn the_builtin_pool_builds_with_no_sense_warning() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cards.json");
    let run = blades(
        root(),
        &["build", "--format", "json", "--out", out.to_str().unwrap()],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let found: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(found, [] as [&str; 0]);
}

#[test]
fn the_build_reports_sense_warnings_with_the_card_kind() {
    let dir = tempfile::tempdir().unwrap();
    let pool = dir.path().join("pool");
    std::fs::create_dir(&pool).unwrap();
    std::fs::write(
        pool.join("odd.yaml"),
        "id: odd\nname: Odd\nkind: bronze-promo\ncards:\n  - {id: o1, name: O1, kind: single, stars: 1, elements: [fire], types: [construct], effect: \"Ongoing: Gain 2 RP.\"}\n  - {id: o2, name: O2, kind: accessory, stars: 2, effect: \"Top: This card cannot be flipped.\"}\n  - {id: o3, name: O3, kind: single, stars: 3, elements: [fire], types: [construct]}\n  - {id: o4, name: O4, kind: single, stars: 4, elements: [fire], types: [construct]}\n  - {id: o5, name: O5, kind: single, stars: 5, elements: [fire], types: [construct]}\n  - {id: o6, name: O6, kind: single, stars: 6, elements: [fire], types: [construct]}\n",
    )
    .unwrap();
    let out = dir.path().join("cards.json");
    let run = blades(
        dir.path(),
        &[
            "--cards",
            "pool",
            "build",
            "--format",
            "json",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    // Warnings: the build succeeds and says what it found.
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let found: Vec<(String, String, u64)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                "sense-one-shot-lasting".to_string(),
                "warning".to_string(),
                5
            ),
            ("sense-never-there".to_string(), "warning".to_string(), 6),
        ]
    );
    // `effect check` says the same of the text (it knows no card kind).
    let run = blades(
        dir.path(),
        &["--cards", "pool", "effect", "check", "Ongoing: Gain 2 RP."],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("sense-one-shot-lasting"),
        "{}",
        run.stderr
    );
}

// ───────────────────────── parameterised keywords ─────────────────────────

/// The built-in keywords and two that take a type or an element as well as
/// a number (the rulebook's Oppress: "lets them flip opponents cards if you
/// have enough singles of certain types").
fn parameterised() -> Vocabulary {
    let table = serde_json::json!({"keywords": [
        {"id": "oppress", "name": {"en": "Oppress", "ja": "抑圧"}, "number": true, "symbol": "type",
         "meaning": "Play: If you have {n} or more {symbol} cards in your tableau, flip a card in an opponent's tableau."},
        {"id": "kindle", "name": {"en": "Kindle", "ja": "点火"}, "symbol": "element",
         "meaning": "Score: Gain 1 RP for each {symbol} card in your tableau."}
    ]});
    let mut vocab = Vocabulary::base();
    for keyword in Keywords::from_json(&table).unwrap().iter() {
        vocab.keywords.push(keyword.clone());
    }
    vocab
}

#[test]
fn a_keyword_takes_a_type_or_an_element_as_well_as_a_number() {
    let vocab = parameterised();
    let errors = |text: &str| -> Vec<&'static str> {
        check(&parse_ok(text), &vocab)
            .into_iter()
            .map(|e| e.code)
            .collect()
    };
    assert_eq!(errors("Oppress Soldier 3."), [] as [&str; 0]);
    assert_eq!(errors("Kindle Water.\nScurry."), [] as [&str; 0]);
    assert_eq!(errors("Oppress 3."), ["keyword-symbol-missing"]);
    assert_eq!(errors("Oppress Soldier."), ["keyword-number-missing"]);
    // An element where a type is taken, located at the word.
    let wrong = check(&parse_ok("Oppress Fire 3."), &vocab);
    assert_eq!(wrong.len(), 1, "{wrong:?}");
    assert_eq!(
        (wrong[0].code, wrong[0].span.clone()),
        ("keyword-symbol-wrong", 8..12)
    );
    let typo = check(&parse_ok("Kindle Watr."), &vocab).remove(0);
    assert_eq!(typo.help.as_deref(), Some("did you mean `water`?"));
    // A keyword that takes nothing more stays unknown with a word after it.
    assert_eq!(errors("Scurry Fire."), ["unknown-keyword"]);

    // The reminder is the meaning with the type and number filled in.
    let en = Phrasebook::builtin(Lang::En);
    let ja = Phrasebook::builtin(Lang::Ja);
    let line = parse_ok("Oppress Soldier 3.");
    let meaning = parse_ok(
        "Play: If you have 3 or more soldier cards in your tableau, flip a card in an opponent's tableau.",
    );
    assert_eq!(
        render(&line, Lang::En, &en, &vocab),
        format!(
            "Oppress Soldier 3 ({})",
            render(&meaning, Lang::En, &en, &vocab)
        )
    );
    assert_eq!(
        render(&line, Lang::Ja, &ja, &vocab),
        format!("抑圧兵士3（{}）", render(&meaning, Lang::Ja, &ja, &vocab))
    );
}

#[test]
fn a_parameterised_keyword_uses_its_symbol_in_its_meaning() {
    let table = |symbol: Option<&str>, meaning: &str| {
        let mut keyword = serde_json::json!({"id": "oppress", "name": {"en": "Oppress", "ja": "抑圧"}, "meaning": meaning});
        if let Some(symbol) = symbol {
            keyword["symbol"] = symbol.into();
        }
        Keywords::from_json(&serde_json::json!({"keywords": [keyword]}))
    };
    let err = table(Some("type"), "Play: Gain 1 RP.").unwrap_err();
    assert!(
        err.contains("meaning must use `{symbol}` (the keyword takes a type)"),
        "{err}"
    );
    let err = table(
        None,
        "Score: Gain 1 RP for each {symbol} card in your tableau.",
    )
    .unwrap_err();
    assert!(
        err.contains("meaning uses `{symbol}` but `symbol` is not set"),
        "{err}"
    );
    assert!(table(Some("colour"), "Play: Gain 1 RP.").is_err());
    assert!(
        table(
            Some("element"),
            "Score: Gain 1 RP for each {symbol} card in your tableau."
        )
        .is_ok()
    );
}

// ───────────────────────────── durations ─────────────────────────────

/// The codes `check` gives an effect.
fn check_codes(text: &str) -> Vec<&'static str> {
    check(&parse_ok(text), &Vocabulary::base())
        .into_iter()
        .map(|e| e.code)
        .collect()
}

/// `text` is said whole: canonical, its printed English reads back as its
/// tree, and its Japanese is `ja`.
fn said_whole(text: &str, ja: &str) {
    let effect = parse_ok(text);
    assert_eq!(format(&effect), text, "`{text}` is not canonical");
    assert_eq!(reads_back(&effect, text), None, "`{text}`");
    let book = Phrasebook::builtin(Lang::Ja);
    assert_eq!(
        render(&effect, Lang::Ja, &book, &Vocabulary::base()),
        ja,
        "`{text}`"
    );
}

/// A state set up by a one-shot ability needs a duration, a lasting
/// ability needs none, and every rewrite the findings suggest is clean.
#[test]
fn a_duration_lets_a_one_shot_ability_set_up_a_state_and_only_then() {
    let cases: [(&str, &str, &[&str]); 3] = [
        (
            "Play: This card has +1 STAR.",
            "state-needs-continuous-timing",
            &[
                "Play: Until the end of the turn, this card has +1 STAR.",
                "Ongoing: This card has +1 STAR.",
            ],
        ),
        (
            "Ongoing: Until the end of the turn, this card has +1 STAR.",
            "until-in-lasting-timing",
            &[
                "Ongoing: This card has +1 STAR.",
                "Play: Until the end of the turn, this card has +1 STAR.",
            ],
        ),
        (
            "Top: Until the end of the tournament, adjacent cards cannot be flipped.",
            "until-in-lasting-timing",
            &["Top: Adjacent cards cannot be flipped."],
        ),
    ];
    for (text, code, fixes) in cases {
        assert_eq!(check_codes(text), [code], "`{text}`");
        for fix in fixes {
            assert_eq!(check_codes(fix), [] as [&str; 0], "`{fix}`");
            assert_eq!(codes(fix), [] as [&str; 0], "`{fix}`");
        }
    }
    // With `Whenever …,` a lasting ability says when the state starts.
    let repeating =
        "Ongoing: Whenever an opponent passes, until the end of the turn, this card has +1 STAR.";
    assert_eq!(check_codes(repeating), [] as [&str; 0]);
    assert_eq!(codes(repeating), [] as [&str; 0]);
}

/// Both durations print and read back, in English and in Japanese.
#[test]
fn durations_print_in_both_languages_and_read_back() {
    for (text, ja) in [
        (
            "Play: Until the end of the turn, this card has +2 STAR.",
            "プレイ：ターンの終了時まで、このカードのスターレーティングは2上がる。",
        ),
        (
            "Action: Until the end of the tournament, your Top Card cannot be flipped.",
            "アクション：トーナメントの終了時まで、自分のトップカードは裏返されない。",
        ),
    ] {
        said_whole(text, ja);
    }
}

/// The outline a card page shows: each line's timing and trigger, then
/// each sentence's parts in the order they apply, each clause on its own
/// and naming who does it.
#[test]
fn an_effect_reads_as_an_outline_of_who_does_what_when() {
    let effect = parse_ok(
        "Scurry.\nReaction (when an opponent flips this card): If you have no cards in your hand, \
         you may flip your Top Card to gain 2 RP and each opponent loses 1 RP.\n\
         Play: Clash with an opponent. Win: flip their Top Card. \
         Until the end of the turn, this card has +1 STAR.",
    );
    type Parts = Vec<Vec<(&'static str, String)>>;
    let shown: Vec<(String, Parts)> = outline(&effect)
        .into_iter()
        .map(|l| (l.heading, l.sentences))
        .collect();
    let part = |role: &'static str, text: &str| (role, text.to_string());
    assert_eq!(
        shown,
        [
            ("Scurry.".to_string(), vec![]),
            (
                "Reaction (when an opponent flips this card)".to_string(),
                vec![vec![
                    part("if", "you have no cards in your hand"),
                    part("may", "optional"),
                    part("pay", "you flip your Top Card"),
                    part("do", "you gain 2 RP"),
                    part("do", "each opponent loses 1 RP"),
                ]],
            ),
            (
                "Play".to_string(),
                vec![
                    vec![part("do", "you clash with an opponent")],
                    vec![
                        part("result", "Win"),
                        part("do", "you flip that opponent's Top Card")
                    ],
                    vec![
                        part("for", "until the end of the turn"),
                        part("do", "this card has +1 STAR"),
                    ],
                ],
            ),
        ]
    );
}

// ───────────────────────── the Deckbuilding Phase ─────────────────────────

/// Each word of the tournament in a `Deckbuilding:` ability is an error at
/// that word, and so is the start of the Deckbuilding Phase in a tournament
/// ability; the rewrites the help suggests are clean.
#[test]
fn a_word_of_the_other_phase_is_an_error_where_it_is_written() {
    let wrong = [
        "Deckbuilding: Clash with an opponent.",
        "Deckbuilding: Gain 2 RP.",
        "Deckbuilding: Flip a card in your hand.",
        "Deckbuilding: Whenever an opponent passes, gain 1 Millennium Dollar.",
        "Deckbuilding: At the start of your turn, gain 1 Millennium Dollar.",
        "Deckbuilding: Your Top Card costs 1 Millennium Dollar less.",
        "Deckbuilding: Cards in your tableau sell for 1 Millennium Dollar more.",
        "Deckbuilding: Whenever you sell a card to the Aftermarket, put a +1 STAR token on it.",
        "Ongoing: At the start of the Deckbuilding Phase, gain 1 Millennium Dollar.",
        "Reaction (when the Deckbuilding Phase ends): Gain 1 RP.",
        "Ongoing: Whenever you trade, gain 1 Millennium Dollar.",
        "Top: Whenever an opponent makes a collection, gain 1 Millennium Dollar.",
        "Reaction (when an opponent fuses cards): Gain 1 RP.",
        // The tournament's own moments belong to `Tournament:` abilities.
        "Ongoing: At the start of the tournament, gain 1 RP.",
        "Deckbuilding: At the end of the tournament, gain 1 Millennium Dollar.",
        "Reaction (when the tournament ends): Gain 1 RP.",
        // A player's rules and trading belong to the Deckbuilding Phase.
        "Ongoing: Your hand size is increased by 1.",
        "Tournament: Each opponent's hand size is 5.",
        "Top: Your trades need not be even.",
        "Ongoing: Each opponent cannot trade.",
        // Nothing of either phase is left when the game ends.
        "Game End: Gain 2 RP.",
        "Game End: Buy a card from the Aftermarket.",
        "Game End: Clash with an opponent.",
    ];
    for text in wrong {
        assert_eq!(check_codes(text), ["wrong-phase"], "`{text}`");
    }
    for text in [
        "Tournament: At the start of the tournament, gain 1 RP.",
        "Tournament: At the end of the tournament, gain 1 Millennium Dollar.",
        "Deckbuilding: Your hand size is increased by 1.",
        "Deckbuilding: Your trades need not be even.",
        "Deckbuilding: Each opponent cannot trade.",
        "Game End: Gain 1 VP for each Friendship Card given to you.",
    ] {
        assert_eq!(check_codes(text), [] as [&str; 0], "`{text}`");
    }
    // Located at the clause that says it, not at the whole line.
    let text = "Deckbuilding: Gain 1 Millennium Dollar and gain 2 RP.";
    let errors = check(&parse_ok(text), &Vocabulary::base());
    assert_eq!(errors.len(), 1);
    assert_eq!(&text[errors[0].span.clone()], "gain 2 RP");
    let right = [
        "Deckbuilding: At the start of the Deckbuilding Phase, gain 1 Millennium Dollar.",
        "Deckbuilding: Whenever you sell a card to the Aftermarket, gain 1 Millennium Dollar.",
        "Deckbuilding: Cards in the Store cost 1 Millennium Dollar less.",
        "Action: Flip this card. Sell a card from your hand to the Aftermarket.",
        "Play: Put the card to the left into the Aftermarket.",
        "Deckbuilding: Whenever you fuse cards, gain a Sell Marker.",
        "Deckbuilding: Whenever an opponent makes a collection, gain 2 Millennium Dollars.",
        "Deckbuilding: Whenever you trade, gain 1 Millennium Dollar.",
    ];
    for text in right {
        assert_eq!(check_codes(text), [] as [&str; 0], "`{text}`");
        assert_eq!(codes(text), [] as [&str; 0], "`{text}`");
    }
}

/// The words of the Deckbuilding Phase print in both languages (the
/// official edition's terms) and read back as the same tree; accepted
/// spellings format to the canonical one.
#[test]
fn deckbuilding_words_print_in_both_languages_and_read_back() {
    for (text, ja) in [
        (
            "Deckbuilding: Whenever an opponent sells a card to the Aftermarket, you may buy it.",
            "デッキ構築：相手がカード1枚を流通市場に売却した時、そのカードを購入することができる。",
        ),
        (
            "Deckbuilding: The top card of the Store costs 2 Millennium Dollars less.",
            "デッキ構築：ショップデッキの一番上のカードの購入コストは2ミレニアムドル少なくなる。",
        ),
        (
            "Deckbuilding: At the end of the Deckbuilding Phase, lose a Sell Marker.",
            "デッキ構築：デッキ構築フェイズの終了時、売却マーカー1個を失う。",
        ),
        (
            "Deckbuilding: Cards from the Tin Town set sell for 1 Millennium Dollar less.",
            "デッキ構築：「Tin Town」セットのカードの売却額は1ミレニアムドル少なくなる。",
        ),
    ] {
        said_whole(text, ja);
    }
    for (written, canonical) in [
        (
            "deckbuilding: whenever you sell a card, gain 1 millennium dollar.",
            "Deckbuilding: Whenever you sell a card to the Aftermarket, gain 1 Millennium Dollar.",
        ),
        (
            "Deckbuilding: At the start of the Deckbuilding Phase, gain 1 Sell Marker.",
            "Deckbuilding: At the start of the Deckbuilding Phase, gain a Sell Marker.",
        ),
        (
            "Play: Put this card in the Aftermarket.",
            "Play: Put this card into the Aftermarket.",
        ),
        (
            "Deckbuilding: Whenever the Deckbuilding Phase starts, gain 1 Millennium Dollar.",
            "Deckbuilding: At the start of the Deckbuilding Phase, gain 1 Millennium Dollar.",
        ),
    ] {
        assert_eq!(format(&parse_ok(written)), canonical, "`{written}`");
    }
}

/// A price changed by nothing, or by more than any card costs, is refused.
#[test]
fn a_price_changes_by_one_to_ninety_nine() {
    for text in [
        "Deckbuilding: Cards cost 0 Millennium Dollars less.",
        "Deckbuilding: Cards sell for 100 Millennium Dollars more.",
    ] {
        assert_eq!(check_codes(text), ["number-out-of-range"], "`{text}`");
    }
}

/// A STAR bonus is a lasting state in Japanese as the official edition
/// writes one (スターレーティングは1上がります), up or down.
#[test]
fn a_star_bonus_reads_as_a_state_in_japanese_up_and_down() {
    for (text, ja) in [
        (
            "Top: Your Top Card has +2 STAR.",
            "トップ：自分のトップカードのスターレーティングは2上がる。",
        ),
        (
            "Ongoing: Adjacent cards have -1 STAR.",
            "持続：隣のカードのスターレーティングは1下がる。",
        ),
    ] {
        said_whole(text, ja);
    }
}

/// `for each` multiplies money, VP and Sell Markers as it does RP; gaining
/// and losing the same per-each amount undoes itself, a fixed amount
/// against a counted one does not read as the same.
#[test]
fn money_and_vp_for_each_count_and_are_weighed_as_amounts() {
    let text = "Score: Gain 1 VP for each different set among cards in your tableau.";
    let effect = parse_ok(text);
    assert_eq!(format(&effect), text);
    let Line::Ability(a) = &effect.lines[0] else {
        panic!("an ability")
    };
    let Clause::Act { action, .. } = &a.sentences[0].clauses[0] else {
        panic!("an action")
    };
    assert!(matches!(action.per(), Some(Count::Sets { .. })));
    assert_eq!(codes(text), [] as [&str; 0]);
    let both = "Play: Gain 1 VP for each opponent and lose 1 VP for each opponent.";
    let errors = sense(&parse_ok(both), None, &Vocabulary::base());
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].code, "sense-gain-and-lose");
    assert!(
        errors[0]
            .help
            .as_deref()
            .unwrap()
            .starts_with("remove both")
    );
    let mixed = "Play: Gain 1 VP for each opponent and lose 1 VP.";
    let errors = sense(&parse_ok(mixed), None, &Vocabulary::base());
    assert!(
        errors[0]
            .help
            .as_deref()
            .unwrap()
            .starts_with("write one change of VP")
    );
}

// ───────────────────────────── choices ─────────────────────────────

/// The options of a choice are alternatives: the checks walk each one, and
/// the sense checks never weigh one option against another.
#[test]
fn a_choice_is_checked_option_by_option() {
    let text = "Play: Choose one — gain 1 VP; or lose 1 VP and gain 3 RP.";
    let effect = parse_ok(text);
    assert_eq!(format(&effect), text);
    let Line::Ability(a) = &effect.lines[0] else {
        panic!("an ability")
    };
    assert_eq!(a.sentences[0].choice.len(), 2);
    assert!(a.sentences[0].clauses.is_empty());
    assert_eq!(codes(text), [] as [&str; 0]);
    // Within one option, the same change undone is still found.
    let undone = "Play: Choose one — gain 1 VP and lose 1 VP; or gain 3 RP.";
    assert_eq!(codes(undone), ["sense-gain-and-lose"]);
    // A word of the tournament in any option of a Deckbuilding choice.
    let wrong = "Deckbuilding: At the start of the Deckbuilding Phase, choose one — gain a Sell Marker; or gain 2 RP.";
    let errors = check(&parse_ok(wrong), &Vocabulary::base());
    assert_eq!(
        errors.iter().map(|e| e.code).collect::<Vec<_>>(),
        ["wrong-phase"]
    );
    assert_eq!(&wrong[errors[0].span.clone()], "gain 2 RP");
    // The outline lists each option.
    let shown = outline(&effect);
    assert_eq!(
        shown[0].sentences[0],
        [
            ("or", "you gain 1 VP".to_string()),
            ("or", "you lose 1 VP, then you gain 3 RP".to_string()),
        ]
    );
}

/// A choice reads back as its tree and prints in both languages.
#[test]
fn a_choice_prints_in_both_languages_and_reads_back() {
    let vocab = Vocabulary::base();
    let text = "Play: You may choose one — gain 2 RP; or each opponent loses 1 RP; or look at the top card of the Store.";
    let effect = parse_ok(text);
    assert_eq!(format(&effect), text);
    assert_eq!(reads_back(&effect, text), None);
    let book = Phrasebook::builtin(Lang::Ja);
    assert_eq!(
        render(&effect, Lang::Ja, &book, &vocab),
        "プレイ：「2RPを得る」、「各相手は1RPを失う」、「ショップデッキの一番上のカードを見る」のうち1つを行うことができる。"
    );
    for written in [
        "Play: Choose one – gain 2 RP; or flip this card.",
        "Play: choose one - gain 2 RP; OR flip this card.",
    ] {
        assert_eq!(
            format(&parse_ok(written)),
            "Play: Choose one — gain 2 RP; or flip this card.",
            "`{written}`"
        );
    }
}

// ─────────────────────────── prohibitions ───────────────────────────

/// A prohibition is a lasting state of a player: it needs a lasting timing
/// or a duration, reads back as its tree, and in a Deckbuilding ability may
/// forbid only what that phase has.
#[test]
fn a_prohibition_lasts_reads_back_and_keeps_to_its_phase() {
    for (text, ja) in [
        (
            "Top: Each opponent cannot play fire cards.",
            "トップ：各相手は炎のカードをプレイすることができない。",
        ),
        (
            "Ongoing: Each opponent cannot clash and you gain 1 extra tableau slot.",
            "持続：各相手はクラッシュすることができず、自分は自分のプレイエリアに枠を1つ追加する。",
        ),
        (
            "Deckbuilding: Each opponent cannot sell cards to the Aftermarket.",
            "デッキ構築：各相手はカードを流通市場に売却することができない。",
        ),
    ] {
        assert_eq!(check_codes(text), [] as [&str; 0], "`{text}`");
        said_whole(text, ja);
    }
    assert_eq!(
        check_codes("Play: Each opponent cannot gain RP."),
        ["state-needs-continuous-timing"]
    );
    assert_eq!(
        check_codes("Play: Until the end of the turn, each opponent cannot gain RP."),
        [] as [&str; 0]
    );
    assert_eq!(
        check_codes("Deckbuilding: Each opponent cannot flip cards."),
        ["wrong-phase"]
    );
    for (written, canonical) in [
        (
            "Ongoing: Opponents can't gain RP.",
            "Ongoing: Each opponent cannot gain RP.",
        ),
        (
            "Ongoing: each opponent can not sell cards.",
            "Ongoing: Each opponent cannot sell cards to the Aftermarket.",
        ),
    ] {
        assert_eq!(format(&parse_ok(written)), canonical, "`{written}`");
    }
}

/// `your` in a clause or trigger another player does is the card owner's:
/// Japanese says あなた there, and the two trees that differ only in whose
/// cards print differently.
#[test]
fn your_in_another_players_clause_is_not_their_own_in_japanese() {
    let vocab = Vocabulary::base();
    let book = Phrasebook::builtin(Lang::Ja);
    let ja = |text: &str| render(&parse_ok(text), Lang::Ja, &book, &vocab);
    let yours = ja("Play: Each opponent loses 1 RP for each card in your hand.");
    let theirs = ja("Play: Each opponent loses 1 RP for each card in their hand.");
    assert_ne!(yours, theirs);
    assert_eq!(
        yours,
        "プレイ：各相手はあなたの手札のカード1枚につき1RPを失う。"
    );
    assert_eq!(
        ja("Reaction (when an opponent flips a card in your tableau): Gain 1 RP."),
        "リアクション（相手があなたのプレイエリアにあるカード1枚を裏返した時）：1RPを得る。"
    );
    // Where you do the clause, your cards are 自分の.
    assert_eq!(
        ja("Play: Flip a card in your hand."),
        "プレイ：自分の手札のカード1枚を裏返す。"
    );
}

/// The deck box slot and the accessory slots are places of their own: each
/// holds only its kind, and a condition on your slots says `you have`.
#[test]
fn the_deck_box_and_accessory_slots_hold_their_own_kind() {
    assert_eq!(
        codes("Score: Gain 1 RP for each single in your deck box slot."),
        ["sense-never-there"]
    );
    assert_eq!(
        codes("Score: Gain 1 RP for each deck box in your accessory slots."),
        ["sense-never-there"]
    );
    for text in [
        "Score: Gain 2 RP for each fire card in your accessory slots.",
        "Score: Gain 1 RP for each deck box in each opponent's deck box slot.",
        "Play: If you have 2 or more cards in your accessory slots, gain 1 RP.",
    ] {
        let effect = parse_ok(text);
        assert_eq!(format(&effect), text);
        assert_eq!(codes(text), [] as [&str; 0], "`{text}`");
    }
}

/// Opponents compared with you by RP, Millennium Dollars or VP: the same
/// tree in English and back, their own Japanese, and RP only where the
/// tournament has it.
#[test]
fn opponents_are_compared_with_you_by_what_they_have() {
    for (text, ja) in [
        (
            "Play: Each opponent with more RP than you loses 2 RP.",
            "プレイ：あなたよりRPが多い各相手は2RPを失う。",
        ),
        (
            "Ongoing: Each opponent with fewer VP than you cannot clash.",
            "持続：あなたより勝利点が少ない各相手はクラッシュすることができない。",
        ),
    ] {
        said_whole(text, ja);
    }
    assert_eq!(
        format(&parse_ok(
            "Play: every opponent with less Millennium Dollars than you gains 1 Millennium Dollar."
        )),
        "Play: Each opponent with fewer Millennium Dollars than you gains 1 Millennium Dollar."
    );
    assert_eq!(
        check_codes("Deckbuilding: Each opponent with more RP than you loses 1 Millennium Dollar."),
        ["wrong-phase"]
    );
    assert_eq!(
        check_codes(
            "Deckbuilding: At the start of the Deckbuilding Phase, each opponent with more VP than you loses 1 Millennium Dollar."
        ),
        [] as [&str; 0]
    );
}

// ─────────────────────────── the designer's intents ───────────────────────────

/// Effects a designer would write from the rulebook, tournament and
/// Deckbuilding Phase alike (`tests/fixtures/effect/intents.txt`): each is
/// in the language with its meaning kept — it parses, checks and makes sense
/// with no finding, its printed English reads back as its tree, it is in
/// canonical form, and its Japanese leaves no English word behind.
#[test]
fn every_intent_of_the_catalogue_is_said_whole_in_both_languages() {
    let vocab = Vocabulary::base();
    let book = Phrasebook::builtin(Lang::Ja);
    let catalogue =
        std::fs::read_to_string(root().join("tests/fixtures/effect/intents.txt")).unwrap();
    let intents: Vec<&str> = catalogue
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    assert!(
        intents.len() >= 40,
        "the catalogue holds at least 40 intents"
    );
    for text in intents {
        let effect = parse_ok(text);
        assert_eq!(check_codes(text), [] as [&str; 0], "`{text}`");
        assert_eq!(codes(text), [] as [&str; 0], "`{text}`");
        assert_eq!(format(&effect), text, "`{text}` is not canonical");
        assert_eq!(reads_back(&effect, text), None, "`{text}`");
        let ja = render(&effect, Lang::Ja, &book, &vocab);
        // Icons (RP, STAR, VP) are written as they are.
        let english: Vec<&str> = ja
            .split(|c: char| !c.is_ascii_alphabetic())
            .filter(|w| w.len() > 1 && !["RP", "STAR", "VP"].contains(w))
            .collect();
        assert!(english.is_empty(), "`{text}` → {ja}: {english:?}");
    }
}
