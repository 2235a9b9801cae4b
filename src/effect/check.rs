//! Semantic checks of a parsed effect against the vocabulary and the rules
//! that are visible on the card itself. Every finding is collected; nothing
//! stops the walk.

use super::Vocabulary;
use super::ast::*;
use super::error::EffectError;
use crate::suggest::{closest_other as nearest, listing};

/// Checks an effect; see [`crate::effect::check`].
pub fn check(effect: &Effect, vocab: &Vocabulary) -> Vec<EffectError> {
    let mut c = Checker {
        vocab,
        errors: Vec::new(),
        antecedent: false,
        named: false,
        timing: Timing::Play,
        lasts: false,
    };
    let mut keywords_seen: Vec<(String, Span)> = Vec::new();
    for line in &effect.lines {
        match line {
            Line::Keyword(k) => {
                c.keyword(k);
                let key = k.name.to_lowercase();
                if let Some((_, first)) = keywords_seen.iter().find(|(n, _)| *n == key) {
                    c.errors.push(
                        EffectError::new(
                            "duplicate-keyword",
                            k.name_span.range(),
                            format!("`{}` is written twice", k.name),
                            "written again here",
                        )
                        .with_help(format!(
                            "remove one of the two lines (the first is at bytes {}..{})",
                            first.start, first.end
                        )),
                    );
                } else {
                    keywords_seen.push((key, k.name_span));
                }
            }
            Line::Ability(a) => c.ability(a),
        }
    }
    c.errors
}

struct Checker<'v> {
    vocab: &'v Vocabulary,
    errors: Vec<EffectError>,
    /// Has the line named a card that `it`/`them` can refer to?
    antecedent: bool,
    /// Has the line said `name a card`, so `the named card` means one?
    named: bool,
    timing: Timing,
    /// Does the sentence being checked last (`Until the end of the turn,`),
    /// so that a state may be set up by a one-shot ability?
    lasts: bool,
}

/// What a target is used for, for the checks that depend on it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Plain,
    Flip,
}

impl Checker<'_> {
    fn push(&mut self, e: EffectError) {
        self.errors.push(e);
    }

    fn keyword(&mut self, k: &KeywordLine) {
        let Some((kw, symbol)) = self.vocab.keywords.find(&k.name) else {
            let names: Vec<&str> = self
                .vocab
                .keywords
                .iter()
                .map(|k| k.name.en.as_str())
                .collect();
            let near = nearest(&k.name, names.iter().copied());
            let help = match near {
                Some(n) => format!("did you mean `{n}`?"),
                None if names.is_empty() => "no keywords are defined".to_string(),
                None => format!("known keywords: {}", listing(&names)),
            };
            self.push(
                EffectError::new(
                    "unknown-keyword",
                    k.name_span.range(),
                    format!("unknown keyword `{}`", k.name),
                    "not in the keyword table",
                )
                .with_help(help)
                .with_fix(k.name_span.range(), near),
            );
            return;
        };
        match (kw.number, k.value) {
            (true, None) => self.push(
                EffectError::new(
                    "keyword-number-missing",
                    k.span.range(),
                    format!("`{}` takes a number", kw.name.en),
                    "no number here",
                )
                .with_help(format!("write it after the name, e.g. `{} 2.`", kw.name.en)),
            ),
            (false, Some(v)) => self.push(
                EffectError::new(
                    "keyword-number-unexpected",
                    v.span.range(),
                    format!("`{}` takes no number", kw.name.en),
                    "unexpected number",
                )
                .with_help("remove the number"),
            ),
            (true, Some(v)) => self.range(v, 1, 99, "a keyword's number"),
            (false, None) => {}
        }
        if let Some(takes) = kw.symbol {
            self.keyword_symbol(k, kw, takes, symbol);
        }
    }

    /// The element or type a parameterised keyword is given (the last word
    /// of its name as written): there, and of the kind it takes.
    fn keyword_symbol(
        &mut self,
        k: &KeywordLine,
        kw: &super::Keyword,
        takes: super::Takes,
        symbol: Option<&str>,
    ) {
        let Some(word) = symbol else {
            let example = match takes {
                super::Takes::Element => "Fire",
                super::Takes::Type => "Soldier",
            };
            self.push(
                EffectError::new(
                    "keyword-symbol-missing",
                    k.name_span.range(),
                    format!("`{}` takes {}", kw.name.en, takes.words()),
                    format!("no {} after the name", takes.words()),
                )
                .with_help(format!(
                    "write it after the name, e.g. `{} {example}`",
                    kw.name.en
                )),
            );
            return;
        };
        let known = match takes {
            super::Takes::Element => Element::ALL
                .iter()
                .any(|e| e.as_str().eq_ignore_ascii_case(word)),
            super::Takes::Type => self
                .vocab
                .types
                .iter()
                .any(|t| t.eq_ignore_ascii_case(word)),
        };
        if known {
            return;
        }
        let end = k.name_span.end.min(k.name_span.start + k.name.len());
        let at = end.saturating_sub(word.len())..end;
        let words: Vec<String> = match takes {
            super::Takes::Element => Element::ALL
                .iter()
                .map(|e| e.as_str().to_string())
                .collect(),
            super::Takes::Type => self.vocab.types.clone(),
        };
        let near = nearest(word, words.iter().map(String::as_str));
        let help = match near {
            Some(n) => format!("did you mean `{n}`?"),
            None => format!("`{}` takes one of: {}", kw.name.en, words.join(", ")),
        };
        self.push(
            EffectError::new(
                "keyword-symbol-wrong",
                at.clone(),
                format!(
                    "`{}` takes {}, and `{word}` is none",
                    kw.name.en,
                    takes.words()
                ),
                format!("not {}", takes.words()),
            )
            .with_help(help)
            .with_fix(at, near),
        );
    }

    fn ability(&mut self, a: &Ability) {
        self.timing = a.timing;
        self.antecedent = a.timing == Timing::Next;
        self.named = false;
        match (&a.trigger, a.timing) {
            (None, Timing::Reaction) => self.push(
                EffectError::new(
                    "reaction-without-trigger",
                    a.timing_span.range(),
                    "a Reaction needs a trigger",
                    "no `(when …)` after this",
                )
                .with_help("write the trigger after the timing word, e.g. `Reaction (when an opponent flips this card): …`"),
            ),
            (Some(_), t) if t != Timing::Reaction => self.push(
                EffectError::new(
                    "trigger-not-allowed",
                    a.timing_span.range(),
                    format!("only Reactions have a trigger, not {} abilities", t.word()),
                    "has a `(when …)` condition",
                )
                .with_help("use `Reaction (when …):` or remove the trigger"),
            ),
            _ => {}
        }
        if let Some(event) = &a.trigger {
            self.event(event);
        }
        self.errors.extend(super::phase::check(a));
        // Clash results: each labelled sentence must follow a clash.
        let mut open_clash: Option<Vec<ClashResult>> = None;
        for s in &a.sentences {
            match s.outcome {
                Some(o) => match &mut open_clash {
                    None => self.push(
                        EffectError::new(
                            "outcome-without-clash",
                            s.span.range(),
                            format!("`{o:?}:` follows no clash"),
                            "no clash before this",
                        )
                        .with_help(
                            "put a sentence with `clash with …` before it, on the same line",
                        ),
                    ),
                    Some(seen) => {
                        if seen.contains(&o) {
                            self.push(
                                EffectError::new(
                                    "duplicate-outcome",
                                    s.span.range(),
                                    format!("`{o:?}:` is given twice for one clash"),
                                    "second one here",
                                )
                                .with_help("merge the two sentences"),
                            );
                        }
                        seen.push(o);
                    }
                },
                None => {
                    open_clash = has_clash(s).then(Vec::new);
                }
            }
            self.sentence(s);
        }
        super::refer::check(a, &mut self.errors);
    }

    fn sentence(&mut self, s: &Sentence) {
        if let Some(e) = &s.whenever {
            self.whenever(e, s.span);
        }
        if s.until.is_some()
            && self.timing.is_continuous()
            && self.timing.in_tournament()
            && s.whenever.is_none()
        {
            self.push(
                EffectError::new(
                    "until-in-lasting-timing",
                    s.span.range(),
                    format!(
                        "`until the end of …` in a {} ability, which lasts {}",
                        self.timing.word(),
                        self.timing.when()
                    ),
                    "already lasts",
                )
                .with_help("remove `until the end of …`, or make it a `Play:` ability whose effect lasts until then"),
            );
        }
        self.lasts = s.until.is_some();
        if let Some(c) = &s.condition {
            self.condition(c);
        }
        for c in s.each_clause() {
            self.clause(c);
        }
        for list in std::iter::once(s.cost.as_slice()).chain(s.ways()) {
            self.shared_subjects(list);
        }
    }

    /// `Fire cards and water cards in the Store cost …`: one state of
    /// several subjects (parsed from one statement, so one span), where a
    /// later subject's place, set or STAR could belong to the earlier ones
    /// too. The tree keeps the reading without; a reader may take the other.
    fn shared_subjects(&mut self, list: &[Clause]) {
        for (k, c) in list.iter().enumerate().skip(1) {
            let Clause::State { target, span, .. } = c else {
                continue;
            };
            let group_start = list[..k]
                .iter()
                .rposition(
                    |b| !matches!(b, Clause::State { span: s, .. } if s.range() == span.range()),
                )
                .map_or(0, |p| p + 1);
            if group_start < k && super::format::reads_shared(&list[group_start..k], target) {
                self.push(
                    EffectError::new(
                        "ambiguous-subjects",
                        span.range(),
                        "cards listed before the last may or may not share its place, set or STAR",
                        "two readings",
                    )
                    .with_help("say it of each (`fire cards in the Store and water cards in the Store`), or write one sentence for each"),
                );
            }
        }
    }

    fn clause(&mut self, c: &Clause) {
        match c {
            Clause::Act {
                subject,
                action,
                span,
            } => {
                if let Action::GiveMoney { to, .. } = action
                    && to == subject
                {
                    self.push(
                        EffectError::new(
                            "gives-to-self",
                            span.range(),
                            "a player gives money to themselves: nothing changes hands",
                            "to whom?",
                        )
                        .with_help("give it to another player (`give 2 Millennium Dollars to an opponent`), or write `gain` or `pay`"),
                    );
                }
                self.action(action)
            }
            Clause::Rule { rule, span, .. } => {
                self.lasting(*span);
                self.player_rule(*rule, *span);
            }
            Clause::Cannot { deed, span, .. } => {
                self.lasting(*span);
                if let Some(target) = deed.target() {
                    self.target(target, Role::Plain);
                }
            }
            Clause::State {
                target,
                state,
                span,
            } => {
                self.lasting(*span);
                self.target(target, Role::Plain);
                match state {
                    State::CannotBeFlipped { .. } => {}
                    State::BuyCost { delta } | State::SellPrice { delta } => {
                        if *delta == 0 || !(-99..=99).contains(delta) {
                            self.push(
                                EffectError::new(
                                    "number-out-of-range",
                                    c.span().range(),
                                    format!(
                                        "a price change of {} Millennium Dollars",
                                        delta.unsigned_abs()
                                    ),
                                    "out of range",
                                )
                                .with_help("a price changes by 1 to 99 Millennium Dollars"),
                            );
                        }
                    }
                    State::StarBonus { delta } => {
                        if *delta == 0 || !(-10..=10).contains(delta) {
                            self.push(
                                EffectError::new(
                                    "number-out-of-range",
                                    c.span().range(),
                                    format!("a STAR change of {delta:+}"),
                                    "out of range",
                                )
                                .with_help("a STAR change is between -10 and +10 and not 0"),
                            );
                        }
                    }
                    State::Mimic { source, .. } => {
                        if source.kind == TargetKind::This {
                            self.push(
                                EffectError::new(
                                    "mimic-self",
                                    source.span.range(),
                                    "a card cannot take its own elements and types",
                                    "this card",
                                )
                                .with_help("name another card, e.g. `the card to the left`"),
                            );
                        }
                        self.target(source, Role::Plain);
                    }
                }
            }
        }
    }

    /// A player's rule within what the game can hold: a hand size changes
    /// by 1 to 20 cards or is 1 to 20 cards (the rulebook's is 7, and a
    /// hand of none could never buy); a Card Fusion (5 cards at least) takes
    /// 1 to 4 fewer or 1 to 9 more; a deck (8 singles, 1 deck box, 2
    /// accessories) holds 1 to 8 more of a kind.
    fn player_rule(&mut self, rule: PlayerRule, span: Span) {
        let (fits, said, help) = match rule {
            PlayerRule::HandSize {
                size: HandSize::By { delta },
            } => (
                delta != 0 && (-20..=20).contains(&delta),
                format!("a hand size change of {delta:+}"),
                "a hand size changes by 1 to 20 cards, or is 1 to 20 cards",
            ),
            PlayerRule::HandSize {
                size: HandSize::Exactly { cards },
            } => (
                (1..=20).contains(&cards),
                format!("a hand size of {cards}"),
                "a hand size changes by 1 to 20 cards, or is 1 to 20 cards",
            ),
            PlayerRule::FusionSize { delta } => (
                delta != 0 && (-4..=9).contains(&delta),
                format!("a Card Fusion size change of {delta:+}"),
                "a Card Fusion takes 1 to 4 fewer cards (it takes 5 at least) or 1 to 9 more",
            ),
            PlayerRule::DeckLimit {
                noun: Noun::Card, ..
            } => {
                self.push(
                    EffectError::new(
                        "deck-limit-kind",
                        span.range(),
                        "a deck's limit is of one kind of card: 8 singles, 1 deck box, 2 accessories",
                        "which limit?",
                    )
                    .with_help("say `more singles`, `more deck boxes` or `more accessories`"),
                );
                return;
            }
            PlayerRule::DeckLimit { more, .. } => (
                (1..=8).contains(&more),
                format!("{more} more cards of a kind in a deck"),
                "a deck may include 1 to 8 more cards of a kind",
            ),
            PlayerRule::UnevenTrades => return,
        };
        if !fits {
            self.push(
                EffectError::new("number-out-of-range", span.range(), said, "out of range")
                    .with_help(help),
            );
        }
    }

    /// A state or prohibition holds while the ability does: it needs a
    /// lasting timing or a duration.
    fn lasting(&mut self, span: Span) {
        if !self.timing.is_continuous() && !self.lasts {
            self.push(
                EffectError::new(
                    "state-needs-continuous-timing",
                    span.range(),
                    format!("a lasting state in a {} ability", self.timing.word()),
                    "this holds only while the card is in play",
                )
                .with_help("write it as an `Ongoing:` or `Top:` ability, or say how long it lasts (`Until the end of the turn, …`)"),
            );
        }
    }

    fn action(&mut self, a: &Action) {
        match a {
            Action::GainRp { amount } | Action::LoseRp { amount } => self.amount(amount),
            Action::GainSlots { count } => self.range(*count, 1, 5, "extra tableau slots"),
            Action::Gain { n, resource, per } | Action::Lose { n, resource, per } => {
                self.range(*n, 1, 99, resource.unit());
                if let Some(count) = per {
                    self.count(count);
                }
            }
            Action::PayMoney { n } => self.range(*n, 1, 99, Resource::Money.unit()),
            Action::NameCard => self.named = true,
            Action::GiveFriendship { n, .. } => self.range(*n, 1, 6, "Friendship Cards"),
            Action::GiveMoney { n, .. } => self.range(*n, 1, 99, Resource::Money.unit()),
            Action::Flip { target } => self.target(target, Role::Flip),
            Action::Clash { .. } => {}
            Action::Discard { target, .. }
            | Action::Reveal { target }
            | Action::Take { target, .. }
            | Action::LookAt { target }
            | Action::ReturnToHand { target }
            | Action::PlayCard { target }
            | Action::Sell { target }
            | Action::Buy { target }
            | Action::ToAftermarket { target } => self.target(target, Role::Plain),
            Action::PutTokens { count, target } => {
                self.range(*count, 1, 20, "+1 STAR tokens");
                self.target(target, Role::Plain);
            }
            Action::Insert { target, position } => {
                self.target(target, Role::Plain);
                if let Position::Beside { of, .. } = position {
                    self.target(of, Role::Plain);
                }
            }
            Action::CopyEffect { source } => {
                if source.kind == TargetKind::This {
                    self.push(
                        EffectError::new(
                            "copy-self",
                            source.span.range(),
                            "a copy effect cannot copy its own card",
                            "this card",
                        )
                        .with_help(
                            "copy another card, e.g. `copy the effect of the card to the left`",
                        ),
                    );
                }
                self.target(source, Role::Plain);
            }
            Action::Attach { card, to } => {
                if card.kind == TargetKind::This && to.kind == TargetKind::This {
                    self.push(
                        EffectError::new(
                            "attach-self",
                            to.span.range(),
                            "a card cannot be attached to itself",
                            "this card",
                        )
                        .with_help(
                            "attach another card, e.g. `attach a card from your hand to this card`",
                        ),
                    );
                }
                self.target(card, Role::Plain);
                self.target(to, Role::Plain);
            }
        }
    }

    fn amount(&mut self, a: &Amount) {
        match a {
            Amount::Fixed { rp } => self.range(*rp, 1, 99, "RP"),
            Amount::PerEach { rp, count } => {
                self.range(*rp, 1, 99, "RP");
                self.count(count);
            }
            Amount::StarOf { target } => self.target(target, Role::Plain),
        }
    }

    fn count(&mut self, c: &Count) {
        match c {
            Count::Cards { cards } => self.query(cards, Role::Plain),
            Count::Elements { among } | Count::Types { among } | Count::Sets { among } => {
                self.target(among, Role::Plain)
            }
            Count::Tokens { on } => self.target(on, Role::Plain),
            Count::Opponents | Count::OpponentsWith { .. } | Count::FriendshipCards => {}
        }
    }

    fn range(&mut self, n: Num, min: u32, max: u32, what: &str) {
        if n.value < min || n.value > max {
            self.push(
                EffectError::new(
                    "number-out-of-range",
                    n.span.range(),
                    format!("{} is not a valid number of {what}", n.value),
                    "out of range",
                )
                .with_help(format!("use a number from {min} to {max}")),
            );
        }
    }

    fn target(&mut self, t: &Target, role: Role) {
        match &t.kind {
            TargetKind::It | TargetKind::Them | TargetKind::OfThem { .. } | TargetKind::Rest => {
                if let TargetKind::OfThem { n, .. } = &t.kind {
                    self.range(*n, 1, 20, "cards");
                }
                if !self.antecedent {
                    let word = match t.kind {
                        TargetKind::It => "it",
                        TargetKind::Rest => "the rest",
                        _ => "them",
                    };
                    self.push(
                        EffectError::new(
                            "pronoun-without-antecedent",
                            t.span.range(),
                            format!("`{word}` refers to no card named before it"),
                            "refers to nothing",
                        )
                        .with_help("name the card (`this card`, `the card to the left`, …)"),
                    );
                }
            }
            TargetKind::StoreTop { count } => {
                self.range(*count, 1, 10, "cards from the top of the Store");
            }
            TargetKind::Cards(q) => self.query(q, role),
            _ => {}
        }
        self.antecedent = true;
    }

    fn query(&mut self, q: &CardQuery, role: Role) {
        if let Quant::Number { n } | Quant::UpTo { n } = q.quant {
            self.range(n, 1, 20, "cards");
        }
        if q.face == Some(Face::Down) {
            if role == Role::Flip {
                self.push(
                    EffectError::new(
                        "flip-face-down",
                        self.last_span(q),
                        "flipping turns face-up cards face down; face-down cards cannot be chosen",
                        "face-down cards",
                    )
                    .with_help("remove `face-down` (flip effects choose face-up cards)"),
                );
            }
            let has_attributes = !q.filters.is_empty()
                || q.set.is_some()
                || q.star.is_some()
                || matches!(q.quant, Quant::Highest | Quant::Lowest);
            if has_attributes {
                self.push(
                    EffectError::new(
                        "face-down-attributes",
                        self.last_span(q),
                        "face-down cards have no STAR, element, type, rarity or set",
                        "asks face-down cards for attributes",
                    )
                    .with_help("remove `face-down` or the attribute filters"),
                );
            }
        }
        self.filters(&q.filters);
        if let Some(set) = &q.set {
            self.set(set);
        }
        match &q.star {
            Some(StarFilter::Compare { than, .. }) => self.target(than, Role::Plain),
            Some(StarFilter::Value { n, .. }) => self.range(*n, 1, 20, "STAR"),
            None => {}
        }
    }

    /// Where a query is written.
    fn last_span(&self, q: &CardQuery) -> std::ops::Range<usize> {
        q.span.range()
    }

    fn filters(&mut self, filters: &[Filter]) {
        for f in filters {
            if let Filter::Type { name, span } = f
                && !self
                    .vocab
                    .types
                    .iter()
                    .any(|t| t.eq_ignore_ascii_case(name))
            {
                let mut words: Vec<String> = self.vocab.types.clone();
                words.extend(Element::ALL.iter().map(|e| e.as_str().to_string()));
                words.extend(RarityFilter::ALL.iter().map(|r| r.words().to_string()));
                let near = nearest(name, words.iter().map(String::as_str));
                let help = match near {
                    Some(n) => format!("did you mean `{n}`?"),
                    None => format!(
                        "elements are fire, air, light, water, earth, dark; types are {}",
                        listing(&self.vocab.types)
                    ),
                };
                self.push(
                    EffectError::new(
                        "unknown-type",
                        span.range(),
                        format!("`{name}` is not an element, type or rarity"),
                        "unknown word",
                    )
                    .with_help(help)
                    .with_fix(span.range(), near),
                );
            }
        }
    }

    fn set(&mut self, set: &SetRef) {
        let known = self.vocab.sets.iter().any(|(id, name)| {
            id.eq_ignore_ascii_case(&set.name) || name.eq_ignore_ascii_case(&set.name)
        });
        if !known {
            let candidates: Vec<&str> = self
                .vocab
                .sets
                .iter()
                .flat_map(|(id, name)| [id.as_str(), name.as_str()])
                .collect();
            let help = match nearest(&set.name, candidates.iter().copied()) {
                Some(n) => format!("did you mean `{n}`?"),
                None => "name a set of the pool by its name or id".to_string(),
            };
            self.push(
                EffectError::new(
                    "unknown-set",
                    set.span.range(),
                    format!("unknown set `{}`", set.name),
                    "no set has this name or id",
                )
                .with_help(help),
            );
        }
    }

    fn condition(&mut self, c: &Condition) {
        match c {
            Condition::Count { count, bound, n } => {
                let min = if *bound == Bound::Exactly { 0 } else { 1 };
                self.range(*n, min, 20, "cards");
                self.count(count);
            }
            Condition::Star { target, star } => {
                self.target(target, Role::Plain);
                match star {
                    StarFilter::Compare { than, .. } => self.target(than, Role::Plain),
                    StarFilter::Value { n, .. } => self.range(*n, 1, 20, "STAR"),
                }
            }
            Condition::Is {
                target,
                face,
                filters,
                ..
            } => {
                self.target(target, Role::Plain);
                if *face == Some(Face::Down) && !filters.is_empty() {
                    self.push(
                        EffectError::new(
                            "face-down-attributes",
                            target.span.range(),
                            "face-down cards have no STAR, element, type, rarity or set",
                            "asked for attributes of a face-down card",
                        )
                        .with_help("test `face-down` alone"),
                    );
                }
                self.filters(filters);
            }
            Condition::IsTopCard { target, .. } => self.target(target, Role::Plain),
            Condition::IsNamed { target } => {
                self.target(target, Role::Plain);
                if !self.named {
                    self.push(
                        EffectError::new(
                            "pronoun-without-antecedent",
                            target.span.range(),
                            "`the named card` refers to no name: nothing in the line names a card before it",
                            "named where?",
                        )
                        .with_help("name one first: `Name a card. Reveal the top card of the Store. If it is the named card, gain 5 RP.`"),
                    );
                }
            }
            Condition::Compare { .. } => {}
        }
    }

    /// `Whenever …,` belongs in a lasting ability: a one-shot timing has
    /// no "each time" to repeat in.
    fn whenever(&mut self, e: &Event, at: Span) {
        if !self.timing.is_continuous() {
            self.push(
                EffectError::new(
                    "whenever-needs-lasting-timing",
                    at.range(),
                    format!(
                        "`whenever` repeats while the ability lasts, but a {} ability happens once",
                        self.timing.word()
                    ),
                    "repeats in a one-shot ability",
                )
                .with_help("use `Ongoing:`, `Top:` or `Deckbuilding:` for an effect that repeats, or a Reaction `(when …)` for one that happens once"),
            );
        }
        self.event(e);
    }

    fn event(&mut self, e: &Event) {
        match e {
            Event::Flips { target, .. }
            | Event::IsFlipped { target }
            | Event::Plays { target, .. }
            | Event::Buys { target, .. }
            | Event::Sells { target, .. } => self.target(target, Role::Plain),
            Event::Clash { .. }
            | Event::GainsRp { .. }
            | Event::LosesRp { .. }
            | Event::TurnStarts { .. }
            | Event::TurnEnds { .. }
            | Event::Passes { .. }
            | Event::Fuses { .. }
            | Event::MakesCollection { .. }
            | Event::Trades { .. }
            | Event::DeckbuildingStarts
            | Event::DeckbuildingEnds
            | Event::TournamentStarts
            | Event::TournamentEnds => {}
        }
    }
}

/// Does a sentence clash?
fn has_clash(s: &Sentence) -> bool {
    s.each_clause().any(|c| {
        matches!(
            c,
            Clause::Act {
                action: Action::Clash { .. },
                ..
            }
        )
    })
}
