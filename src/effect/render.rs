//! AST → printed card text in a language, through the phrasebook. The code
//! decides the structure (which phrase, which variant, what fills it); every
//! word comes from the phrase data.

use super::ast::*;
use super::phrases::{Phrasebook, fill};
use super::{Lang, Vocabulary};

/// Renders an effect as printed card text; see [`crate::effect::render`].
pub fn render(effect: &Effect, lang: Lang, phrases: &Phrasebook, vocab: &Vocabulary) -> String {
    let r = Renderer::new(lang, phrases, vocab);
    // The built-in English book prints an ability as its canonical source
    // (`render_from_phrases` agrees, a property test says so), and formatting
    // is a fraction of the cost; a set's name is the renderer's to look up.
    let canonical = lang == Lang::En && phrases.is_builtin();
    let lines: Vec<String> = effect
        .lines
        .iter()
        .map(|l| match l {
            Line::Ability(a) if canonical => {
                super::format::ability_naming_no_set(a).unwrap_or_else(|| r.line(l))
            }
            _ => r.line(l),
        })
        .collect();
    lines.join("\n")
}

/// Every line through the phrase book: what [`render`] prints, without its
/// shortcut for the built-in English book.
pub fn render_from_phrases(
    effect: &Effect,
    lang: Lang,
    phrases: &Phrasebook,
    vocab: &Vocabulary,
) -> String {
    let r = Renderer::new(lang, phrases, vocab);
    let lines: Vec<String> = effect.lines.iter().map(|l| r.line(l)).collect();
    lines.join("\n")
}

struct Renderer<'a> {
    pb: &'a Phrasebook,
    vocab: &'a Vocabulary,
    lang: Lang,
    /// In a Next ability, before its first `it` (the card played next).
    next_unnamed: std::cell::Cell<bool>,
    /// In a clause another player does (`each opponent loses 1 RP for each
    /// card in your hand`): Japanese 自分 would name that player, so `your`
    /// takes the `other` variant (あなた).
    other_subject: std::cell::Cell<bool>,
}

/// How a clause ends: last in its list, or followed by another.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    Last,
    Cont,
}

/// Which preposition a place takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    In,
    From,
}

fn starts_with_vowel(s: &str) -> bool {
    s.chars().next().is_some_and(|c| "aeiouAEIOU".contains(c))
}

impl<'a> Renderer<'a> {
    fn new(lang: Lang, pb: &'a Phrasebook, vocab: &'a Vocabulary) -> Renderer<'a> {
        Renderer {
            pb,
            vocab,
            lang,
            next_unnamed: std::cell::Cell::new(false),
            other_subject: std::cell::Cell::new(false),
        }
    }
}

impl Renderer<'_> {
    /// Fills the template of `key`, trying `variants` first.
    fn t(&self, key: &str, variants: &[&str], args: &[(&str, &str)]) -> String {
        fill(self.pb.get(key, variants), args)
    }

    fn word(&self, key: &str) -> String {
        self.pb.get(key, &[]).to_string()
    }

    fn line(&self, line: &Line) -> String {
        match line {
            Line::Keyword(k) => self.keyword(k),
            Line::Ability(a) => self.ability(a),
        }
    }

    fn keyword(&self, k: &KeywordLine) -> String {
        let Some((kw, symbol)) = self.vocab.keywords.find(&k.name) else {
            return super::format::keyword(k);
        };
        let value = k.value.map(|v| v.value);
        let mut name = kw.name_in(self.lang).to_string();
        // The element or type of a parameterised keyword follows its name
        // as a number does (`Oppress Soldier 3`, `抑圧兵士3`).
        let symbol_name = symbol.map(|word| self.symbol_name(word));
        if let Some(symbol) = &symbol_name {
            name = self.t(
                "line.keyword_number",
                &[],
                &[("name", &name), ("n", symbol)],
            );
        }
        if let Some(v) = value {
            name = self.t(
                "line.keyword_number",
                &[],
                &[("name", &name), ("n", &v.to_string())],
            );
        }
        let reminder = match kw.reminder_override(self.lang, value) {
            Some(text) => text.replace("{symbol}", symbol_name.as_deref().unwrap_or_default()),
            None => self.meaning(kw, value, symbol),
        };
        self.t(
            "line.keyword",
            &[],
            &[("name", &name), ("reminder", &reminder)],
        )
    }

    /// A keyword's reminder, rendered from its meaning. A valid meaning
    /// holds no keyword lines; one that did is written as its source rather
    /// than expanded, so a keyword never expands into itself.
    fn meaning(&self, kw: &super::Keyword, value: Option<u32>, symbol: Option<&str>) -> String {
        let Some(tree) = kw.meaning_tree(value, symbol) else {
            return kw.meaning.clone();
        };
        let lines: Vec<String> = tree
            .lines
            .iter()
            .map(|line| match line {
                Line::Ability(a) => self.ability(a),
                Line::Keyword(k) => super::format::keyword(k),
            })
            .collect();
        lines.join(self.pb.get("sentence.join", &[]))
    }

    /// An element or type given to a keyword, as a title word (`Soldier`).
    fn symbol_name(&self, word: &str) -> String {
        let lower = word.to_ascii_lowercase();
        let filter = match Element::ALL.iter().find(|e| e.as_str() == lower) {
            Some(element) => Filter::Element { element: *element },
            None => Filter::Type {
                name: lower,
                span: Span::default(),
            },
        };
        let name = self.filter_name(&filter);
        let mut chars = name.chars();
        match chars.next() {
            Some(first) => first.to_uppercase().chain(chars).collect(),
            None => name,
        }
    }

    fn ability(&self, a: &Ability) -> String {
        self.next_unnamed.set(a.timing == Timing::Next);
        let timing = self.word(&format!("timing.{}", a.timing.phrase_key()));
        let sentences: Vec<String> = a.sentences.iter().map(|s| self.sentence(s)).collect();
        let sentences = sentences.join(self.pb.get("sentence.join", &[]));
        match &a.trigger {
            Some(e) => {
                let trigger = self.t("trigger", &[], &[("event", &self.event(e))]);
                self.t(
                    "line.reaction",
                    &[],
                    &[
                        ("timing", &timing),
                        ("trigger", &trigger),
                        ("sentences", &sentences),
                    ],
                )
            }
            None => self.t(
                "line.ability",
                &[],
                &[("timing", &timing), ("sentences", &sentences)],
            ),
        }
    }

    fn sentence(&self, s: &Sentence) -> String {
        // Parts are rendered in the order they are read, so the first `it`
        // of a Next ability is the one that names the card.
        let event = s.whenever.as_ref().map(|e| (e, self.event(e)));
        let condition = s.condition.as_ref().map(|c| self.condition(c));
        let cost = (!s.cost.is_empty()).then(|| self.clauses(&s.cost));
        let mut body = if s.choice.is_empty() {
            self.clauses(&s.clauses)
        } else {
            self.choice(&s.choice)
        };
        if let Some(cost) = cost {
            body = self.t("sentence.cost", &[], &[("cost", &cost), ("body", &body)]);
        }
        if s.optional {
            body = self.t("sentence.may", &[], &[("body", &body)]);
        }
        if let Some(until) = s.until {
            let key = match until {
                Until::EndOfTurn => "sentence.until_turn",
                Until::EndOfTournament => "sentence.until_tournament",
                Until::EndOfDeckbuilding => "sentence.until_deckbuilding",
                Until::EndOfRound => "sentence.until_round",
            };
            body = self.t(key, &[], &[("body", &body)]);
        }
        if let Some(condition) = condition {
            body = self.t(
                "sentence.condition",
                &[],
                &[("condition", &condition), ("body", &body)],
            );
        }
        if let Some((e, text)) = event {
            body = self.whenever(e, &text, &body);
        }
        match s.outcome {
            Some(o) => {
                let key = match o {
                    ClashResult::Win => "outcome.win",
                    ClashResult::Lose => "outcome.lose",
                    ClashResult::Tie => "outcome.tie",
                };
                self.t(
                    "sentence.outcome",
                    &[],
                    &[("outcome", &self.word(key)), ("body", &body)],
                )
            }
            None => {
                if self.pb.options.capitalize {
                    super::format::capitalise_in_place(&mut body);
                }
                self.t("sentence.plain", &[], &[("body", &body)])
            }
        }
    }

    /// `choose one — a; or b` (English), `「a」、「b」のうち1つを行う`
    /// (Japanese).
    fn choice(&self, options: &[Vec<Clause>]) -> String {
        let join = self.word("choice.join");
        let options: Vec<String> = options
            .iter()
            .map(|o| self.t("choice.option", &[], &[("option", &self.clauses(o))]))
            .collect();
        self.t("sentence.choice", &[], &[("options", &options.join(&join))])
    }

    /// Clauses joined as `a, b and c` (English) or `a、b、c` (Japanese).
    fn clauses(&self, list: &[Clause]) -> String {
        let mut out = String::new();
        let mut groups = super::format::written(list).peekable();
        while let Some((i, group)) = groups.next() {
            let last = groups.peek().is_none();
            if i > 0 {
                out.push_str(
                    self.pb
                        .get(if last { "clauses.last" } else { "clauses.join" }, &[]),
                );
            }
            let form = if last { Form::Last } else { Form::Cont };
            let text = match group {
                [Clause::State { state, .. }, _, ..] => self.statement(group, state, form),
                _ => {
                    let name_you = super::format::names_you(list, i);
                    let shared = super::format::shares_subject(list, i);
                    self.clause(&list[i], form, name_you, shared)
                }
            };
            out.push_str(&text);
        }
        out
    }

    fn clause(&self, c: &Clause, form: Form, name_you: bool, shared: bool) -> String {
        let cont: &[&str] = if form == Form::Cont { &["cont"] } else { &[] };
        match c {
            Clause::Act {
                subject, action, ..
            } => {
                let third = super::format::third_person(*subject);
                let text = self.done_by(*subject, || self.action(action, third, form));
                if shared || (*subject == Player::You && !name_you) {
                    text
                } else {
                    self.t(
                        "clause.subject",
                        &[],
                        &[("player", &self.player(*subject)), ("action", &text)],
                    )
                }
            }
            Clause::Cannot { who, deed, .. } => self.done_by(*who, || {
                let (key, target) = match deed {
                    Deed::GainRp => ("cannot.gain_rp", None),
                    Deed::Clash => ("cannot.clash", None),
                    Deed::Trade => ("cannot.trade", None),
                    Deed::Play { target } => ("cannot.play", Some(self.target(target, Ctx::From))),
                    Deed::Flip { target } => ("cannot.flip", Some(self.target(target, Ctx::In))),
                    Deed::Buy { target } => ("cannot.buy", Some(self.target(target, Ctx::From))),
                    Deed::Sell { target } => ("cannot.sell", Some(self.target(target, Ctx::From))),
                };
                let target = target.unwrap_or_default();
                self.t(
                    key,
                    cont,
                    &[("who", &self.player(*who)), ("target", &target)],
                )
            }),
            Clause::Rule { who, rule, .. } => self.done_by(*who, || {
                let owner = self.owner(who.owner());
                let (key, n, noun) = match *rule {
                    PlayerRule::HandSize {
                        size: HandSize::By { delta },
                    } if delta < 0 => ("hand_size.reduced", delta.unsigned_abs(), None),
                    PlayerRule::HandSize {
                        size: HandSize::By { delta },
                    } => ("hand_size.increased", delta.unsigned_abs(), None),
                    PlayerRule::HandSize {
                        size: HandSize::Exactly { cards },
                    } => ("hand_size.exactly", cards, None),
                    PlayerRule::UnevenTrades => ("rule.uneven_trades", 0, None),
                    PlayerRule::FusionSize { delta } if delta < 0 => {
                        ("rule.fusion_fewer", delta.unsigned_abs(), None)
                    }
                    PlayerRule::FusionSize { delta } => {
                        ("rule.fusion_more", delta.unsigned_abs(), None)
                    }
                    PlayerRule::DeckLimit { noun, more } => ("rule.deck_limit", more, Some(noun)),
                };
                let plural: &[&str] = if n == 1 { &[] } else { &["plural"] };
                let noun = noun.map(|k| self.t(noun_key(k), plural, &[]));
                let variants: Vec<&str> = cont.iter().chain(plural).copied().collect();
                self.t(
                    key,
                    &variants,
                    &[
                        ("owner", &owner),
                        ("n", &n.to_string()),
                        ("noun", noun.as_deref().unwrap_or_default()),
                    ],
                )
            }),
            Clause::State { state, .. } => self.statement(std::slice::from_ref(c), state, form),
        }
    }

    /// A state of one group of cards, or of several sharing it (`このカード
    /// と左隣のカードは裏返されない`).
    fn statement(&self, group: &[Clause], state: &State, form: Form) -> String {
        let cont: &[&str] = if form == Form::Cont { &["cont"] } else { &[] };
        let (targets, plural) = super::format::subjects(group);
        let mut variants: Vec<&str> = cont.to_vec();
        if plural {
            variants.push("plural");
        }
        let names: Vec<String> = targets.map(|t| self.target(t, Ctx::In)).collect();
        let t = self.listed(&names);
        match state {
            State::CannotBeFlipped { by_opponents } => self.t(
                if *by_opponents {
                    "state.cannot_be_flipped_by_opponents"
                } else {
                    "state.cannot_be_flipped"
                },
                &variants,
                &[("target", &t)],
            ),
            State::StarBonus { delta } => {
                if *delta < 0 {
                    variants.push("down");
                }
                self.t(
                    "state.star_bonus",
                    &variants,
                    &[
                        ("target", &t),
                        ("delta", &format!("{delta:+}")),
                        ("n", &delta.unsigned_abs().to_string()),
                    ],
                )
            }
            State::Mimic { symbols, source } => {
                let symbols = self.word(match symbols {
                    Symbols::Elements => "symbols.elements",
                    Symbols::Types => "symbols.types",
                    Symbols::ElementsAndTypes => "symbols.elements_and_types",
                });
                self.t(
                    "state.mimic",
                    &variants,
                    &[
                        ("target", &t),
                        ("symbols", &symbols),
                        ("source", &self.target(source, Ctx::In)),
                    ],
                )
            }
            State::BuyCost { delta } | State::SellPrice { delta } => {
                let key = match (state, *delta < 0) {
                    (State::BuyCost { .. }, true) => "state.cost_less",
                    (State::BuyCost { .. }, false) => "state.cost_more",
                    (_, true) => "state.sell_less",
                    (_, false) => "state.sell_more",
                };
                let amount = self.resource(Num::new(delta.unsigned_abs()), Resource::Money);
                self.t(key, &variants, &[("target", &t), ("amount", &amount)])
            }
        }
    }

    /// `a, b and c` (English) or `aとbとc` (Japanese): cards sharing a state.
    fn listed(&self, names: &[String]) -> String {
        let mut out = String::new();
        for (i, name) in names.iter().enumerate() {
            if i > 0 {
                let last = i + 1 == names.len();
                out.push_str(
                    self.pb
                        .get(if last { "target.last" } else { "target.join" }, &[]),
                );
            }
            out.push_str(name);
        }
        out
    }

    fn player(&self, p: Player) -> String {
        self.player_words(false, p)
    }

    fn who(&self, p: Player) -> String {
        self.player_words(true, p)
    }

    /// A player as the subject of a clause (`player.*`, `event` false) or
    /// of an event (`who.*`).
    fn player_words(&self, event: bool, p: Player) -> String {
        // You, in a clause another player does (`each opponent gives 1
        // Millennium Dollar to you`): あなた, as `your` there.
        if !event && p == Player::You && self.other_subject.get() {
            return self.t("player.you", &["other"], &[]);
        }
        let key = match (event, p) {
            (false, Player::You) => "player.you",
            (false, Player::AnOpponent) => "player.an_opponent",
            (false, Player::EachOpponent) => "player.each_opponent",
            (false, Player::AllPlayers) => "player.all_players",
            (false, Player::ClashedOpponent | Player::TriggerPlayer) => "player.that_opponent",
            (false, Player::EachOpponentWith { .. }) => "player.each_opponent_with",
            (true, Player::You) => "who.you",
            (true, Player::AnOpponent) => "who.an_opponent",
            (true, Player::EachOpponent) => "who.each_opponent",
            (true, Player::AllPlayers) => "who.all_players",
            (true, Player::ClashedOpponent | Player::TriggerPlayer) => "who.that_opponent",
            (true, Player::EachOpponentWith { .. }) => "who.each_opponent_with",
        };
        let Player::EachOpponentWith { more, measure } = p else {
            return self.word(key);
        };
        self.compared(key, &[], more, measure, &[])
    }

    /// A phrase that compares players (`each opponent with {cmp} {measure}
    /// than you`): `cmp` and `measure` filled in, with `more` arguments.
    fn compared(
        &self,
        key: &str,
        variants: &[&str],
        more: bool,
        measure: Measure,
        more_args: &[(&str, &str)],
    ) -> String {
        let cmp = self.word(if more {
            "compare.more"
        } else {
            "compare.fewer"
        });
        let measure = self.word(match measure {
            Measure::Rp => "measure.rp",
            Measure::Money => "measure.money",
            Measure::Vp => "measure.vp",
        });
        let mut args = vec![("cmp", cmp.as_str()), ("measure", measure.as_str())];
        args.extend_from_slice(more_args);
        self.t(key, variants, &args)
    }

    /// Renders what `who` does: inside it, `your` is the other variant
    /// when `who` is not you.
    fn done_by(&self, who: Player, render: impl FnOnce() -> String) -> String {
        let before = self.other_subject.replace(who != Player::You);
        let text = render();
        self.other_subject.set(before);
        text
    }

    fn owner(&self, o: Owner) -> String {
        if o == Owner::You && self.other_subject.get() {
            return self.t("owner.you", &["other"], &[]);
        }
        self.word(match o {
            Owner::You => "owner.you",
            Owner::Their => "owner.their",
            Owner::AnOpponent => "owner.an_opponent",
            Owner::EachOpponent => "owner.each_opponent",
            Owner::EachPlayer => "owner.each_player",
            Owner::Any => "owner.any",
            Owner::ClashedOpponent | Owner::TriggerPlayer => "owner.that_opponent",
        })
    }

    fn action(&self, a: &Action, third: bool, form: Form) -> String {
        let mut variants: Vec<&str> = Vec::new();
        if form == Form::Cont {
            variants.push("cont");
        }
        if third {
            variants.push("3rd");
        }
        let t = |key: &str, args: &[(&str, &str)]| self.t(key, &variants, args);
        let from = |target: &Target| self.target(target, Ctx::From);
        let at = |target: &Target| self.target(target, Ctx::In);
        match a {
            Action::GainRp { amount } => t("action.gain_rp", &[("amount", &self.amount(amount))]),
            Action::LoseRp { amount } => t("action.lose_rp", &[("amount", &self.amount(amount))]),
            Action::GainSlots { count } => {
                let slots = self.slots(count.value);
                t(
                    "action.gain_slots",
                    &[("n", &count.value.to_string()), ("slots", &slots)],
                )
            }
            Action::Gain { n, resource, per } => t(
                "action.gain",
                &[("amount", &self.resource_per(*n, *resource, per.as_ref()))],
            ),
            Action::Lose { n, resource, per } => t(
                "action.lose",
                &[("amount", &self.resource_per(*n, *resource, per.as_ref()))],
            ),
            Action::PayMoney { n } => t(
                "action.pay",
                &[("amount", &self.resource(*n, Resource::Money))],
            ),
            Action::NameCard => t("action.name_card", &[]),
            Action::GiveMoney { n, to } => {
                let to = self.player(*to);
                t(
                    "action.give_money",
                    &[("amount", &self.resource(*n, Resource::Money)), ("to", &to)],
                )
            }
            Action::GiveFriendship { n, to } => {
                let cards = self.t(
                    "action.friendship_cards",
                    if n.value == 1 { &["one"] } else { &[] },
                    &[("n", &n.value.to_string())],
                );
                let to = self.player(*to);
                t("action.give_friendship", &[("cards", &cards), ("to", &to)])
            }
            Action::Flip { target } => t("action.flip", &[("target", &at(target))]),
            Action::Clash { with } => t("action.clash", &[("with", &self.clash_with(*with))]),
            Action::Discard { target, to } => t(
                "action.discard",
                &[("target", &from(target)), ("to", &self.pile(*to))],
            ),
            Action::Reveal { target } => t("action.reveal", &[("target", &from(target))]),
            Action::Take { target, to } => t(
                "action.take",
                &[("target", &from(target)), ("to", &self.take_to(*to))],
            ),
            Action::LookAt { target } => t("action.look_at", &[("target", &at(target))]),
            Action::PutTokens { count, target } => t(
                "action.put_tokens",
                &[
                    ("tokens", &self.tokens(count.value)),
                    ("target", &at(target)),
                ],
            ),
            Action::Insert { target, position } => match position {
                Position::Anywhere => t("action.insert_anywhere", &[("target", &from(target))]),
                Position::Beside { side, of } => t(
                    "action.insert_beside",
                    &[
                        ("target", &from(target)),
                        ("side", &self.side(*side)),
                        ("of", &at(of)),
                    ],
                ),
            },
            Action::CopyEffect { source } => t("action.copy_effect", &[("source", &at(source))]),
            Action::Attach { card, to } => {
                t("action.attach", &[("card", &from(card)), ("to", &at(to))])
            }
            Action::ReturnToHand { target } => {
                t("action.return_to_hand", &[("target", &at(target))])
            }
            Action::PlayCard { target } => t("action.play_card", &[("target", &from(target))]),
            Action::Sell { target } => t("action.sell", &[("target", &from(target))]),
            Action::Buy { target } => t("action.buy", &[("target", &from(target))]),
            Action::ToAftermarket { target } => {
                t("action.to_aftermarket", &[("target", &from(target))])
            }
        }
    }

    /// `3 Millennium Dollars`, `2 VP`.
    fn resource(&self, n: Num, r: Resource) -> String {
        let key = match r {
            Resource::Money => "resource.money",
            Resource::Vp => "resource.vp",
            Resource::SellMarker => "resource.sell_marker",
        };
        self.t(
            key,
            if n.value == 1 { &["one"] } else { &[] },
            &[("n", &n.value.to_string())],
        )
    }

    /// `1 VP`, or `1 VP for each fire card in your tableau`.
    fn resource_per(&self, n: Num, r: Resource, per: Option<&Count>) -> String {
        let amount = self.resource(n, r);
        match per {
            None => amount,
            Some(count) => self.t(
                "amount.resource_per_each",
                &[],
                &[("amount", &amount), ("count", &self.count(count, false))],
            ),
        }
    }

    /// `a slot`, `2 slots`: the word, in the number given.
    fn slots(&self, n: u32) -> String {
        self.t("word.slot", if n == 1 { &[] } else { &["plural"] }, &[])
    }

    /// `a +1 STAR token`, `2 +1 STAR tokens`.
    fn tokens(&self, n: u32) -> String {
        self.t(
            "tokens",
            if n == 1 { &["one"] } else { &[] },
            &[("n", &n.to_string())],
        )
    }

    fn clash_with(&self, with: ClashWith) -> String {
        self.word(match with {
            ClashWith::Opponent => "clash.opponent",
            ClashWith::AllPlayers => "clash.all_players",
        })
    }

    fn pile(&self, pile: Pile) -> String {
        self.word(match pile {
            Pile::Binder => "pile.binder",
            Pile::StoreDiscard => "pile.store_discard",
            Pile::Box => "pile.box",
        })
    }

    fn take_to(&self, to: TakeTo) -> String {
        self.word(match to {
            TakeTo::Hand => "take_to.hand",
            TakeTo::Binder => "take_to.binder",
        })
    }

    fn side(&self, s: Side) -> String {
        self.word(match s {
            Side::Left => "side.left",
            Side::Right => "side.right",
        })
    }

    fn amount(&self, a: &Amount) -> String {
        match a {
            Amount::Fixed { rp } => self.t("amount.fixed", &[], &[("rp", &rp.value.to_string())]),
            Amount::PerEach { rp, count } => self.t(
                "amount.per_each",
                &[],
                &[
                    ("rp", &rp.value.to_string()),
                    ("count", &self.count(count, false)),
                ],
            ),
            Amount::StarOf { target } => self.t(
                "amount.star_of",
                &[],
                &[("target", &self.target(target, Ctx::In))],
            ),
        }
    }

    fn count(&self, c: &Count, plural: bool) -> String {
        let v: &[&str] = if plural { &["plural"] } else { &[] };
        match c {
            Count::Cards { cards } => self.t(
                "count.cards",
                v,
                &[("cards", &self.query_body(cards, plural, Ctx::In))],
            ),
            Count::Elements { among } => self.t(
                "count.elements",
                v,
                &[("among", &self.target(among, Ctx::In))],
            ),
            Count::Types { among } => {
                self.t("count.types", v, &[("among", &self.target(among, Ctx::In))])
            }
            Count::Sets { among } => {
                self.t("count.sets", v, &[("among", &self.target(among, Ctx::In))])
            }
            Count::Tokens { on } => self.t("count.tokens", v, &[("on", &self.target(on, Ctx::In))]),
            Count::Opponents => self.t("count.opponents", v, &[]),
            Count::OpponentsWith { more, measure } => {
                self.compared("count.opponents_with", v, *more, *measure, &[])
            }
            Count::FriendshipCards => self.t("count.friendship", v, &[]),
            Count::Money { per } => {
                let one: &[&str] = if per.value == 1 { &["one"] } else { &[] };
                self.t("count.money", one, &[("n", &per.value.to_string())])
            }
        }
    }

    fn target(&self, t: &Target, ctx: Ctx) -> String {
        match &t.kind {
            TargetKind::This => self.word("target.this"),
            // In a Next ability the card is named the first time: 自分が
            // 次にプレイしたカード, as the official edition says.
            TargetKind::It if self.next_unnamed.replace(false) => self.word("target.it_next"),
            TargetKind::It => self.word("target.it"),
            TargetKind::Them => self.word("target.them"),
            TargetKind::Rest => self.word("target.rest"),
            TargetKind::Neighbor { side } => self.word(match side {
                Side::Left => "target.neighbor_left",
                Side::Right => "target.neighbor_right",
            }),
            TargetKind::TopCard { owner } => {
                self.t("target.top_card", &[], &[("owner", &self.owner(*owner))])
            }
            TargetKind::NextCard => self.word("target.next_card"),
            TargetKind::OfThem { n, up_to } => {
                let key = if *up_to {
                    "target.up_to_of_them"
                } else {
                    "target.of_them"
                };
                self.t(
                    key,
                    if n.value == 1 { &["one"] } else { &[] },
                    &[("n", &n.value.to_string())],
                )
            }
            TargetKind::StoreTop { count } => {
                if count.value == 1 {
                    self.word("target.store_top")
                } else {
                    self.t(
                        "target.store_top_n",
                        &[],
                        &[("n", &count.value.to_string())],
                    )
                }
            }
            TargetKind::Cards(q) => self.query(q, ctx),
        }
    }

    fn query(&self, q: &CardQuery, ctx: Ctx) -> String {
        let rest = self.query_body(q, q.quant.is_plural(), ctx);
        let vowel: &[&str] = if starts_with_vowel(&rest) {
            &["vowel"]
        } else {
            &[]
        };
        let rest_arg = ("rest", rest.as_str());
        match q.quant {
            Quant::One => self.t("quant.one", vowel, &[rest_arg]),
            Quant::Another => self.t("quant.another", vowel, &[rest_arg]),
            Quant::Number { n } => self.t(
                "quant.number",
                &[],
                &[("n", &n.value.to_string()), rest_arg],
            ),
            Quant::UpTo { n } => {
                self.t("quant.up_to", &[], &[("n", &n.value.to_string()), rest_arg])
            }
            Quant::Each => self.t("quant.each", vowel, &[rest_arg]),
            Quant::All => self.t("quant.all", vowel, &[rest_arg]),
            Quant::Bare => self.t("quant.bare", vowel, &[rest_arg]),
            Quant::Highest => self.t("quant.highest", vowel, &[rest_arg]),
            Quant::Lowest => self.t("quant.lowest", vowel, &[rest_arg]),
        }
    }

    /// The parts of a card description in the language's order, without the quantity.
    fn query_body(&self, q: &CardQuery, plural: bool, ctx: Ctx) -> String {
        let order = self.pb.get("query.order", &[]);
        let sep = self.pb.get("query.separator", &[]);
        let pl: &[&str] = if plural { &["plural"] } else { &[] };
        let mut parts: Vec<String> = Vec::new();
        for part in order.split_whitespace() {
            match part {
                "superlative" => match q.quant {
                    Quant::Highest => parts.push(self.word("superlative.highest")),
                    Quant::Lowest => parts.push(self.word("superlative.lowest")),
                    _ => {}
                },
                "other" if q.other => parts.push(self.word("other")),
                "adjacent" if q.adjacent => parts.push(self.word("adjacent")),
                "face" => match q.face {
                    Some(Face::Up) => parts.push(self.word("face.up")),
                    Some(Face::Down) => parts.push(self.word("face.down")),
                    None => {}
                },
                "filters" => {
                    for f in &q.filters {
                        parts.push(self.t("filter", &[], &[("name", &self.filter_name(f))]));
                    }
                }
                "noun" => parts.push(self.t(noun_key(q.noun), pl, &[])),
                "set" => {
                    if let Some(set) = &q.set {
                        parts.push(self.t("set", &[], &[("set", &self.set_name(set))]));
                    }
                }
                "side" => match q.side {
                    Some(Side::Left) => parts.push(self.word("side_of.left")),
                    Some(Side::Right) => parts.push(self.word("side_of.right")),
                    None => {}
                },
                "place" => {
                    if let Some(p) = q.place {
                        parts.push(self.place(p, ctx));
                    }
                }
                "star" => {
                    if let Some(s) = &q.star {
                        parts.push(self.star(s));
                    }
                }
                _ => {}
            }
        }
        parts.retain(|p| !p.is_empty());
        parts.join(sep)
    }

    fn filter_name(&self, f: &Filter) -> String {
        match f {
            Filter::Element { element } => self.word(&format!("name.element.{}", element.as_str())),
            Filter::Rarity { rarity } => self.word(&format!("name.rarity.{}", rarity.id())),
            Filter::Type { name, .. } => {
                let id = name.to_ascii_lowercase();
                self.pb
                    .lookup(&format!("name.type.{id}"))
                    .map_or(id.clone(), str::to_string)
            }
        }
    }

    /// A set's name in the language rendered: its translation when the
    /// pool has one, else its English name.
    fn set_name(&self, set: &SetRef) -> String {
        let Some((id, name)) = self.vocab.sets.iter().find(|(id, name)| {
            id.eq_ignore_ascii_case(&set.name) || name.eq_ignore_ascii_case(&set.name)
        }) else {
            return set.name.clone();
        };
        let lang = self.lang.code();
        self.vocab
            .set_names
            .iter()
            .find(|(l, set, _)| l == lang && set == id)
            .map_or_else(|| name.clone(), |(_, _, translated)| translated.clone())
    }

    fn place(&self, p: Place, ctx: Ctx) -> String {
        let v: &[&str] = if ctx == Ctx::From { &["from"] } else { &[] };
        match p {
            Place::Tableau { owner: Owner::Any } => self.t("place.any_tableau", v, &[]),
            Place::Tableau { owner } => {
                self.t("place.tableau", v, &[("owner", &self.owner(owner))])
            }
            Place::Hand { owner } => self.t("place.hand", v, &[("owner", &self.owner(owner))]),
            Place::Binder { owner } => self.t("place.binder", v, &[("owner", &self.owner(owner))]),
            Place::StoreDiscard => self.t("place.store_discard", v, &[]),
            Place::Aftermarket => self.t("place.aftermarket", v, &[]),
            Place::Store => self.t("place.store", v, &[]),
            Place::DeckBoxSlot { owner } => {
                self.t("place.deck_box_slot", v, &[("owner", &self.owner(owner))])
            }
            Place::AccessorySlots { owner } => {
                self.t("place.accessory_slots", v, &[("owner", &self.owner(owner))])
            }
        }
    }

    fn star(&self, s: &StarFilter) -> String {
        match s {
            StarFilter::Compare { cmp, than } => {
                let key = match cmp {
                    StarCmp::Lower => "star.lower",
                    StarCmp::Higher => "star.higher",
                    StarCmp::Same => "star.same",
                };
                self.t(key, &[], &[("than", &self.target(than, Ctx::In))])
            }
            StarFilter::Value { n, bound } => {
                let key = match bound {
                    Bound::Exactly => "star.exactly",
                    Bound::OrMore => "star.or_more",
                    Bound::OrLess => "star.or_less",
                };
                self.t(key, &[], &[("n", &n.value.to_string())])
            }
        }
    }

    fn condition(&self, c: &Condition) -> String {
        match c {
            Condition::Count { count, bound, n } => self.count_condition(count, *bound, n.value),
            Condition::Star { target, star } => self.star_condition(target, star),
            Condition::Is {
                target,
                face,
                filters,
                noun,
            } => self.is_condition(target, *face, filters, *noun),
            Condition::Compare {
                more,
                measure,
                than,
                ..
            } => {
                let rival = self.word(match than {
                    Player::AnOpponent => "compare.an_opponent",
                    Player::ClashedOpponent | Player::TriggerPlayer => "compare.that_opponent",
                    _ => "compare.each_opponent",
                });
                self.compared("cond.compare", &[], *more, *measure, &[("than", &rival)])
            }
            Condition::IsTopCard { target, owner } => self.t(
                "cond.is_top_card",
                &[],
                &[
                    ("target", &self.target(target, Ctx::In)),
                    ("owner", &self.owner(*owner)),
                ],
            ),
            Condition::IsNamed { target } => self.t(
                "cond.is_named",
                if target.is_plural() { &["plural"] } else { &[] },
                &[("target", &self.target(target, Ctx::In))],
            ),
        }
    }

    /// `if you have 3 or more fire cards in your tableau`.
    fn count_condition(&self, count: &Count, bound: Bound, n: u32) -> String {
        let plural = !(n == 1 && bound == Bound::Exactly);
        let unit = self.word(match count {
            Count::Cards { .. } => "unit.cards",
            Count::Elements { .. } | Count::Types { .. } | Count::Sets { .. } => "unit.symbols",
            Count::Tokens { .. } => "unit.tokens",
            Count::Opponents | Count::OpponentsWith { .. } => "unit.opponents",
            Count::FriendshipCards => "unit.cards",
            // Never parsed in a condition (money is compared there).
            Count::Money { .. } => "unit.cards",
        });
        let what = self.count(count, plural);
        let yours = super::format::counts_yours(count);
        if bound == Bound::Exactly && n == 0 {
            let key = if yours {
                "cond.count_none_yours"
            } else {
                "cond.count_none_there"
            };
            return self.t(key, &[], &[("count", &what), ("unit", &unit)]);
        }
        let bound = self.t(
            match bound {
                Bound::Exactly => "bound.exactly",
                Bound::OrMore => "bound.or_more",
                Bound::OrLess => "bound.or_less",
            },
            &[],
            &[("n", &n.to_string()), ("unit", &unit)],
        );
        let key = if yours {
            "cond.count_yours"
        } else {
            "cond.count_there"
        };
        self.t(key, &[], &[("bound", &bound), ("count", &what)])
    }

    /// `if this card has a lower STAR than …`, `if it has 4 or more STAR`.
    fn star_condition(&self, target: &Target, star: &StarFilter) -> String {
        let v: &[&str] = if target.is_plural() { &["plural"] } else { &[] };
        let t = self.target(target, Ctx::In);
        match star {
            StarFilter::Compare { cmp, than } => {
                let key = match cmp {
                    StarCmp::Lower => "cond_star.lower",
                    StarCmp::Higher => "cond_star.higher",
                    StarCmp::Same => "cond_star.same",
                };
                self.t(
                    key,
                    v,
                    &[("target", &t), ("than", &self.target(than, Ctx::In))],
                )
            }
            StarFilter::Value { n, bound } => {
                let key = match bound {
                    Bound::Exactly => "cond_star.exactly",
                    Bound::OrMore => "cond_star.or_more",
                    Bound::OrLess => "cond_star.or_less",
                };
                self.t(key, v, &[("target", &t), ("n", &n.value.to_string())])
            }
        }
    }

    /// `if it is a face-up fire single`.
    fn is_condition(
        &self,
        target: &Target,
        face: Option<Face>,
        filters: &[Filter],
        noun: Option<Noun>,
    ) -> String {
        let plural = target.is_plural();
        let sep = self.pb.get("query.separator", &[]);
        let mut words: Vec<String> = Vec::new();
        match face {
            Some(Face::Up) => words.push(self.word("face.up")),
            Some(Face::Down) => words.push(self.word("face.down")),
            None => {}
        }
        for f in filters {
            words.push(self.t("filter", &[], &[("name", &self.filter_name(f))]));
        }
        let key = match noun {
            Some(n) => {
                words.push(self.t(noun_key(n), if plural { &["plural"] } else { &[] }, &[]));
                "cond.is_noun"
            }
            None => "cond.is_adjective",
        };
        let desc = words.join(sep);
        let v: &[&str] = if plural {
            &["plural"]
        } else if starts_with_vowel(&desc) {
            &["vowel"]
        } else {
            &[]
        };
        self.t(
            key,
            v,
            &[("target", &self.target(target, Ctx::In)), ("desc", &desc)],
        )
    }

    /// `whenever <event>, <body>`; a turn's start and end have their own
    /// phrases (`at the start of your turn`).
    fn whenever(&self, e: &Event, event: &str, body: &str) -> String {
        let turn = |key: &str, who: Player| {
            self.t(
                key,
                &[],
                &[("owner", &self.owner(who.owner())), ("body", body)],
            )
        };
        match e {
            Event::TurnStarts { who } => turn("sentence.turn_start", *who),
            Event::TurnEnds { who } => turn("sentence.turn_end", *who),
            Event::DeckbuildingStarts => {
                self.t("sentence.deckbuilding_start", &[], &[("body", body)])
            }
            Event::DeckbuildingEnds => self.t("sentence.deckbuilding_end", &[], &[("body", body)]),
            Event::TournamentStarts => self.t("sentence.tournament_start", &[], &[("body", body)]),
            Event::TournamentEnds => self.t("sentence.tournament_end", &[], &[("body", body)]),
            _ => self.t(
                "sentence.whenever",
                &[],
                &[("event", event), ("body", body)],
            ),
        }
    }

    fn event(&self, e: &Event) -> String {
        let who = match e {
            Event::Flips { who, .. }
            | Event::Plays { who, .. }
            | Event::Buys { who, .. }
            | Event::Sells { who, .. } => *who,
            _ => Player::You,
        };
        self.done_by(who, || self.event_text(e))
    }

    fn event_text(&self, e: &Event) -> String {
        let v = |p: Player| -> &'static [&'static str] {
            if super::format::third_person(p) {
                &["3rd"]
            } else {
                &[]
            }
        };
        match e {
            Event::Flips { who, target } => self.t(
                "event.flips",
                v(*who),
                &[
                    ("who", &self.who(*who)),
                    ("target", &self.target(target, Ctx::In)),
                ],
            ),
            Event::IsFlipped { target } => self.t(
                "event.is_flipped",
                if target.is_plural() { &["plural"] } else { &[] },
                &[("target", &self.target(target, Ctx::In))],
            ),
            Event::Plays { who, target } => self.t(
                "event.plays",
                v(*who),
                &[
                    ("who", &self.who(*who)),
                    ("target", &self.target(target, Ctx::In)),
                ],
            ),
            Event::Clash { who, result } => {
                let key = match result {
                    None => "event.clash",
                    Some(ClashResult::Win) => "event.win",
                    Some(ClashResult::Lose) => "event.lose",
                    Some(ClashResult::Tie) => "event.tie",
                };
                self.t(key, v(*who), &[("who", &self.who(*who))])
            }
            Event::GainsRp { who } => {
                self.t("event.gains_rp", v(*who), &[("who", &self.who(*who))])
            }
            Event::LosesRp { who } => {
                self.t("event.loses_rp", v(*who), &[("who", &self.who(*who))])
            }
            Event::TurnStarts { who } => self.t(
                "event.turn_starts",
                &[],
                &[("owner", &self.owner(who.owner()))],
            ),
            Event::TurnEnds { who } => self.t(
                "event.turn_ends",
                &[],
                &[("owner", &self.owner(who.owner()))],
            ),
            Event::Passes { who } => self.t("event.passes", v(*who), &[("who", &self.who(*who))]),
            Event::Fuses { who } => self.t("event.fuses", v(*who), &[("who", &self.who(*who))]),
            Event::MakesCollection { who } => self.t(
                "event.makes_collection",
                v(*who),
                &[("who", &self.who(*who))],
            ),
            Event::Trades { who } => self.t("event.trades", v(*who), &[("who", &self.who(*who))]),
            Event::Buys { who, target } => self.t(
                "event.buys",
                v(*who),
                &[
                    ("who", &self.who(*who)),
                    ("target", &self.target(target, Ctx::From)),
                ],
            ),
            Event::Sells { who, target } => self.t(
                "event.sells",
                v(*who),
                &[
                    ("who", &self.who(*who)),
                    ("target", &self.target(target, Ctx::From)),
                ],
            ),
            Event::DeckbuildingStarts => self.t("event.deckbuilding_starts", &[], &[]),
            Event::DeckbuildingEnds => self.t("event.deckbuilding_ends", &[], &[]),
            Event::TournamentStarts => self.t("event.tournament_starts", &[], &[]),
            Event::TournamentEnds => self.t("event.tournament_ends", &[], &[]),
        }
    }
}

fn noun_key(n: Noun) -> &'static str {
    match n {
        Noun::Card => "noun.card",
        Noun::Single => "noun.single",
        Noun::DeckBox => "noun.deck_box",
        Noun::Accessory => "noun.accessory",
    }
}

impl Lang {
    /// Every language the renderer prints.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ja];

    /// The language code (`en`, `ja`).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
        }
    }
}
