//! The effect AST: what a card's effect text says, independent of how it is
//! spelled. `parse` builds it, `format` prints its canonical English source,
//! `render` prints card text in a language, `check` validates it.
//!
//! Nodes that errors point at carry a [`Span`] (byte offsets into the whole
//! effect text). Spans are skipped by serde and ignored by `==`, so two ASTs
//! are equal when they say the same thing.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::words::SetKind;

/// Byte offsets `start..end` into the effect text.
///
/// Equality ignores spans: every two spans are equal, so `#[derive(PartialEq)]`
/// on AST nodes compares meaning only. Spans are not serialized.
#[derive(Clone, Copy, Debug, Default, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl PartialEq for Span {
    fn eq(&self, _other: &Span) -> bool {
        true
    }
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The span as a range, for slicing the effect text.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start..self.end
    }
}

/// A number written on the card, with where it is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct Num {
    pub value: u32,
    #[serde(skip)]
    #[schemars(skip)]
    pub span: Span,
}

impl Num {
    /// A number with no position (built by code, not parsed).
    pub fn new(value: u32) -> Num {
        Num {
            value,
            span: Span::default(),
        }
    }
}

/// A whole effect text: one line per ability or keyword.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Effect {
    pub lines: Vec<Line>,
}

/// One line of effect text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "line", rename_all = "kebab-case")]
pub enum Line {
    /// A set keyword (`Scurry.`), defined in `cards/keywords.yaml`.
    Keyword(KeywordLine),
    /// `Timing: sentences.`
    Ability(Ability),
}

/// A keyword line: the keyword's English name and maybe a number.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct KeywordLine {
    /// The name as written (matched against the keyword table ignoring case).
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Num>,
    #[serde(skip)]
    #[schemars(skip)]
    pub span: Span,
    /// Where the name is written.
    #[serde(skip)]
    #[schemars(skip)]
    pub name_span: Span,
}

/// An ability: a timing word, a trigger for Reactions, and sentences.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Ability {
    pub timing: Timing,
    /// The `(when …)` condition; required for Reactions, allowed nowhere else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<Event>,
    pub sentences: Vec<Sentence>,
    #[serde(skip)]
    #[schemars(skip)]
    pub span: Span,
    /// Where the timing word is written.
    #[serde(skip)]
    #[schemars(skip)]
    pub timing_span: Span,
}

/// Timing words, in the rulebook's order, then the project's
/// `Deckbuilding`, `Tournament` and `Game End` (docs/decisions.md). Priority among the tournament's is Top > Ongoing > Play > Next > Score;
/// only Reactions and Actions are optional.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Timing {
    Play,
    Next,
    Flip,
    Ongoing,
    Top,
    Score,
    Reaction,
    Action,
    /// While the Deckbuilding Phase lasts (デッキ構築), for the card's
    /// owner: the rulebook's characters and Venues have powers for that
    /// phase; the project names the timing (docs/decisions.md).
    Deckbuilding,
    /// While the tournament lasts (トーナメント), from its start to its end:
    /// the Tournament side of a character and a Venue's tournament rules
    /// (a Single's lasting ability is `Ongoing:`, from when it is played).
    Tournament,
    /// When the game ends (ゲーム終了), before the final scores are
    /// totalled: once, for the card's owner.
    GameEnd,
}

/// The part of the game an ability works in: a round is a Deckbuilding
/// Phase and a tournament, and the game ends after the last round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    Deckbuilding,
    Tournament,
    GameEnd,
}

impl Stage {
    /// When, in words (`in the Deckbuilding Phase`).
    pub fn during(self) -> &'static str {
        match self {
            Stage::Deckbuilding => "in the Deckbuilding Phase",
            Stage::Tournament => "in the tournament",
            Stage::GameEnd => "at the end of the game",
        }
    }
}

impl Timing {
    pub const ALL: [Timing; 11] = [
        Timing::Play,
        Timing::Next,
        Timing::Flip,
        Timing::Ongoing,
        Timing::Top,
        Timing::Score,
        Timing::Reaction,
        Timing::Action,
        Timing::Deckbuilding,
        Timing::Tournament,
        Timing::GameEnd,
    ];

    /// The English timing word.
    pub fn word(self) -> &'static str {
        match self {
            Timing::Play => "Play",
            Timing::Next => "Next",
            Timing::Flip => "Flip",
            Timing::Ongoing => "Ongoing",
            Timing::Top => "Top",
            Timing::Score => "Score",
            Timing::Reaction => "Reaction",
            Timing::Action => "Action",
            Timing::Deckbuilding => "Deckbuilding",
            Timing::Tournament => "Tournament",
            Timing::GameEnd => "Game End",
        }
    }

    /// The timing word `line` starts with (any case; `Game End` is two
    /// words), and its length in bytes: the word must end there.
    pub fn starting(line: &str) -> Option<(Timing, usize)> {
        Timing::ALL.into_iter().find_map(|t| {
            let len = t.word().len();
            let head = line.get(..len)?;
            let ends = !line[len..].starts_with(|c: char| c.is_ascii_alphabetic());
            (ends && head.eq_ignore_ascii_case(t.word())).then_some((t, len))
        })
    }

    /// The timing's name in the phrase books (`timing.game_end`).
    pub fn phrase_key(self) -> &'static str {
        match self {
            Timing::Play => "play",
            Timing::Next => "next",
            Timing::Flip => "flip",
            Timing::Ongoing => "ongoing",
            Timing::Top => "top",
            Timing::Score => "score",
            Timing::Reaction => "reaction",
            Timing::Action => "action",
            Timing::Deckbuilding => "deckbuilding",
            Timing::Tournament => "tournament",
            Timing::GameEnd => "game_end",
        }
    }

    /// Does this timing describe a lasting state (where statements such as
    /// "cannot be flipped" belong)?
    pub fn is_continuous(self) -> bool {
        matches!(
            self,
            Timing::Ongoing | Timing::Top | Timing::Deckbuilding | Timing::Tournament
        )
    }

    /// When an ability of this timing works, in words
    /// (docs/effect-language.md's table of timing words, which a test holds
    /// this to).
    pub fn when(self) -> &'static str {
        match self {
            Timing::Play => "when the card is played",
            Timing::Next => "on the next card you play (`it` is that card)",
            Timing::Flip => "when the card is flipped face down",
            Timing::Ongoing => "while the card is face-up in your tableau",
            Timing::Top => "while the card is your Top Card",
            Timing::Score => "at the end of the tournament",
            Timing::Reaction => "when the trigger happens; optional, flips the card",
            Timing::Action => "once per turn; optional, flips the card",
            Timing::Deckbuilding => "while the Deckbuilding Phase lasts",
            Timing::Tournament => "while the tournament lasts",
            Timing::GameEnd => "when the game ends",
        }
    }

    /// The part of the game the ability works in.
    pub fn stage(self) -> Stage {
        match self {
            Timing::Deckbuilding => Stage::Deckbuilding,
            Timing::GameEnd => Stage::GameEnd,
            _ => Stage::Tournament,
        }
    }

    /// Does the ability work in a tournament?
    pub fn in_tournament(self) -> bool {
        self.stage() == Stage::Tournament
    }
}

/// One sentence of an ability.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Sentence {
    /// `Win:` / `Lose:` / `Tie:`: the sentence applies to that clash result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<ClashResult>,
    /// `Whenever …,` / `At the start of your turn,`: inside a lasting
    /// ability, the sentence happens each time the event does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub whenever: Option<Event>,
    /// `If …,`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
    /// `Until the end of the turn,`: what the sentence does lasts until
    /// then (a state set up by a one-shot ability).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<Until>,
    /// `You may …`: the sentence is optional.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    /// Clauses paid before `to` (`flip this card to …`); empty when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cost: Vec<Clause>,
    /// What happens, in order (empty when the sentence is a choice).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clauses: Vec<Clause>,
    /// `Choose one — …; or …`: the player whose ability it is does one of
    /// these, each as `clauses` would be done; empty when there is no choice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choice: Vec<Vec<Clause>>,
    #[serde(skip)]
    #[schemars(skip)]
    pub span: Span,
}

impl Sentence {
    /// Every clause in the order written: the cost, the clauses, then each
    /// option of a choice in turn.
    pub fn each_clause(&self) -> impl Iterator<Item = &Clause> {
        self.cost
            .iter()
            .chain(&self.clauses)
            .chain(self.choice.iter().flatten())
    }

    /// What the sentence may do, one list per way it can go: its clauses,
    /// or each option of its choice (its cost is paid either way).
    pub fn ways(&self) -> impl Iterator<Item = &[Clause]> {
        let plain = self.choice.is_empty().then_some(self.clauses.as_slice());
        plain
            .into_iter()
            .chain(self.choice.iter().map(Vec::as_slice))
    }
}

/// How long what a sentence does lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Until {
    /// The end of the current turn of the tournament (ターンの終了時).
    EndOfTurn,
    /// The end of the tournament (トーナメントの終了時), when Score
    /// effects happen.
    EndOfTournament,
    /// The end of the Deckbuilding Phase (デッキ構築フェイズの終了時), when
    /// the tournament is about to start.
    EndOfDeckbuilding,
    /// The end of the round (ラウンドの終了時): a Deckbuilding Phase and
    /// the tournament after it.
    EndOfRound,
}

/// The result of a clash for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ClashResult {
    Win,
    Lose,
    Tie,
}

/// A clause: a player doing something, or a state that holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "clause", rename_all = "kebab-case")]
pub enum Clause {
    /// `[player] verb …`; the player is `you` when none is written.
    Act {
        subject: Player,
        action: Action,
        #[serde(skip)]
        #[schemars(skip)]
        span: Span,
    },
    /// `<cards> cannot be flipped`, `<cards> has +1 STAR`, …
    State {
        target: Target,
        state: State,
        #[serde(skip)]
        #[schemars(skip)]
        span: Span,
    },
    /// `your hand size is increased by 1`, `your trades need not be even`:
    /// a rule of the game changed for a player while the ability (or its
    /// duration) lasts.
    Rule {
        who: Player,
        rule: PlayerRule,
        #[serde(skip)]
        #[schemars(skip)]
        span: Span,
    },
    /// `opponents cannot gain RP`: what a player may not do while the
    /// ability (or its duration) lasts.
    Cannot {
        who: Player,
        deed: Deed,
        #[serde(skip)]
        #[schemars(skip)]
        span: Span,
    },
}

/// A rule of the game a card changes for a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "rule", rename_all = "kebab-case")]
pub enum PlayerRule {
    /// `hand size is …`: the most cards the player may hold in hand.
    HandSize { size: HandSize },
    /// `trades need not be even`: the player's trades are not held to equal
    /// value, as in the rulebook's Free Market Mode ("players may make
    /// uneven trades").
    UnevenTrades,
    /// `Card Fusions need 1 fewer card` (`delta` -1): each of the player's
    /// Card Fusions takes that many cards fewer (more) than the rulebook's
    /// 5, 7 or 9.
    FusionSize { delta: i32 },
    /// `deck may include 1 more accessory`: the player's deck holds that
    /// many more cards of the kind than the rulebook's 8 singles, 1 deck box
    /// and 2 accessories.
    DeckLimit { noun: Noun, more: u32 },
}

/// A player's hand size: the rulebook's Turn-Based Mode deals "a hand size
/// of 7 cards", and a card may change it or set it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "change", rename_all = "kebab-case")]
pub enum HandSize {
    /// `is increased by 1` (`delta` 1), `is reduced by 2` (`delta` -2).
    By { delta: i32 },
    /// `is 5`: that many cards, whatever it was.
    Exactly { cards: u32 },
}

/// What a prohibition forbids a player to do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "deed", rename_all = "kebab-case")]
pub enum Deed {
    /// `gain RP` (from any source).
    GainRp,
    /// `clash` (start a clash or take part in one).
    Clash,
    /// `play <cards>`.
    Play { target: Target },
    /// `flip <cards>`.
    Flip { target: Target },
    /// `buy <cards>`.
    Buy { target: Target },
    /// `sell <cards> to the Aftermarket`.
    Sell { target: Target },
    /// `trade` with another player.
    Trade,
}

impl Deed {
    /// The cards the deed names, if any.
    pub fn target(&self) -> Option<&Target> {
        match self {
            Deed::GainRp | Deed::Clash | Deed::Trade => None,
            Deed::Play { target }
            | Deed::Flip { target }
            | Deed::Buy { target }
            | Deed::Sell { target } => Some(target),
        }
    }
}

impl Clause {
    pub fn span(&self) -> Span {
        match self {
            Clause::Act { span, .. }
            | Clause::State { span, .. }
            | Clause::Cannot { span, .. }
            | Clause::Rule { span, .. } => *span,
        }
    }
}

/// Something a player does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "action", rename_all = "kebab-case")]
pub enum Action {
    /// `gain 2 RP`.
    GainRp { amount: Amount },
    /// `lose 1 RP` (never below zero).
    LoseRp { amount: Amount },
    /// `gain 1 extra tableau slot` (always at the right end).
    GainSlots { count: Num },
    /// `gain 3 Millennium Dollars`, `gain 2 VP`, `gain 1 VP for each …`
    /// (`n` for each one `per` counts).
    Gain {
        n: Num,
        resource: Resource,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        per: Option<Count>,
    },
    /// `lose 3 Millennium Dollars`, `lose 1 VP` (never below zero), with
    /// `for each …` as `Gain`.
    Lose {
        n: Num,
        resource: Resource,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        per: Option<Count>,
    },
    /// `pay 3 Millennium Dollars`: money to the bank; as a cost, what it
    /// pays for happens only when it can be paid in full.
    PayMoney { n: Num },
    /// `name a card`: the player says a card's name (any card of the game);
    /// `the named card` later in the line tests a card against it.
    NameCard,
    /// `give a Friendship Card to an opponent`: `n` of your own Friendship
    /// Cards (友情カード) go to `to`, worth VP to them at the end of the
    /// game.
    GiveFriendship { n: Num, to: Player },
    /// `give 2 Millennium Dollars to an opponent`: money from the player
    /// doing the clause to `to` (as much as they have, up to `n`).
    GiveMoney { n: Num, to: Player },
    /// `flip <cards>` face down.
    Flip { target: Target },
    /// `clash with an opponent` / `clash with all players`.
    Clash { with: ClashWith },
    /// `discard <cards> [to …]`.
    Discard { target: Target, to: Pile },
    /// `reveal <cards>`.
    Reveal { target: Target },
    /// `take <cards> into your hand`.
    Take { target: Target, to: TakeTo },
    /// `look at <cards>`.
    LookAt { target: Target },
    /// `put 3 +1 STAR tokens on <cards>`.
    PutTokens { count: Num, target: Target },
    /// `insert <card> anywhere into your tableau`.
    Insert { target: Target, position: Position },
    /// `copy the effect of <card>`.
    CopyEffect { source: Target },
    /// `attach <card> to <card>`.
    Attach { card: Target, to: Target },
    /// `return <card> to your hand`.
    ReturnToHand { target: Target },
    /// `play <card>` (an extra play).
    PlayCard { target: Target },
    /// `sell <card> to the Aftermarket`: with one of the seller's Sell
    /// Markers, for Millennium Dollars equal to its STAR.
    Sell { target: Target },
    /// `buy <card>`: for its price (a Store card's buy cost, an Aftermarket
    /// card's STAR), into the buyer's binder.
    Buy { target: Target },
    /// `put <card> into the Aftermarket`: for sale, with no Sell Marker and
    /// no money.
    ToAftermarket { target: Target },
}

impl Action {
    /// Every card the action names itself, in the order written (those an
    /// amount names are the amount's: see [`Action::amount`]).
    pub fn each_target<'a>(&'a self, f: &mut impl FnMut(&'a Target)) {
        match self {
            Action::GainRp { .. }
            | Action::LoseRp { .. }
            | Action::GainSlots { .. }
            | Action::Clash { .. }
            | Action::Gain { .. }
            | Action::Lose { .. }
            | Action::PayMoney { .. }
            | Action::NameCard
            | Action::GiveFriendship { .. }
            | Action::GiveMoney { .. } => {}
            Action::Flip { target }
            | Action::Discard { target, .. }
            | Action::Reveal { target }
            | Action::Take { target, .. }
            | Action::LookAt { target }
            | Action::PutTokens { target, .. }
            | Action::CopyEffect { source: target }
            | Action::ReturnToHand { target }
            | Action::PlayCard { target }
            | Action::Sell { target }
            | Action::Buy { target }
            | Action::ToAftermarket { target } => f(target),
            Action::Insert { target, position } => {
                f(target);
                if let Position::Beside { of, .. } = position {
                    f(of);
                }
            }
            Action::Attach { card, to } => {
                f(card);
                f(to);
            }
        }
    }

    /// The RP amount of `gain`/`lose … RP`.
    pub fn amount(&self) -> Option<&Amount> {
        match self {
            Action::GainRp { amount } | Action::LoseRp { amount } => Some(amount),
            _ => None,
        }
    }

    /// What a change of money, VP or Sell Markers counts (`for each …`).
    pub fn per(&self) -> Option<&Count> {
        match self {
            Action::Gain { per, .. } | Action::Lose { per, .. } => per.as_ref(),
            _ => None,
        }
    }
}

/// What a player has besides cards and RP (Ranking Points, which
/// [`Action::GainRp`] counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Resource {
    /// Millennium Dollars (ミレニアムドル): spent in the Deckbuilding Phase,
    /// 4 are worth 1 VP at the end of the game.
    Money,
    /// Victory Points (勝利点), which decide the game.
    Vp,
    /// Sell Markers (売却マーカー): one goes with each card sold to the
    /// Aftermarket and each Card Fusion, and comes back when the card is
    /// bought or the tournament ends.
    SellMarker,
}

impl Resource {
    /// The unit as the source writes it, in the plural.
    pub fn unit(self) -> &'static str {
        match self {
            Resource::Money => "Millennium Dollars",
            Resource::Vp => "VP",
            Resource::SellMarker => "Sell Markers",
        }
    }
}

/// A lasting state of some cards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(
    tag = "state",
    rename_all = "kebab-case",
    rename_all_fields = "kebab-case"
)]
pub enum State {
    /// `cannot be flipped [by opponents' effects]`.
    CannotBeFlipped { by_opponents: bool },
    /// `has +2 STAR`.
    StarBonus { delta: i32 },
    /// `has the elements and types of <card>` (Mimicry).
    Mimic { symbols: Symbols, source: Target },
    /// `cost 1 Millennium Dollar less`: the price you pay to buy the cards
    /// changes by `delta` (never below zero).
    BuyCost { delta: i32 },
    /// `sell for 1 Millennium Dollar more`: what you take when you sell the
    /// cards changes by `delta` (never below zero).
    SellPrice { delta: i32 },
}

/// Which symbols a Mimic state takes over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Symbols {
    Elements,
    Types,
    ElementsAndTypes,
}

/// How much RP.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Amount {
    /// `2 RP`.
    Fixed { rp: Num },
    /// `2 RP for each …`.
    PerEach { rp: Num, count: Count },
    /// `RP equal to the STAR of <card>`.
    StarOf { target: Target },
}

/// What `for each` counts (and what `If you have …` compares).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Count {
    /// `fire card in your tableau`. The query's quantity is always `each`.
    Cards { cards: Box<CardQuery> },
    /// `different element among <cards>`.
    Elements { among: Target },
    /// `different type among <cards>`.
    Types { among: Target },
    /// `different set among <cards>` (face-down cards have no set).
    Sets { among: Target },
    /// `+1 STAR token on <card>`.
    Tokens { on: Target },
    /// `opponent`.
    Opponents,
    /// `opponent with more RP than you`: the opponents who have more (or
    /// fewer) than you when the count is made.
    OpponentsWith { more: bool, measure: Measure },
    /// `Friendship Card given to you`: the Friendship Cards other players
    /// gave you (your own, not yet given away, are not counted).
    FriendshipCards,
}

/// Who clashes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ClashWith {
    /// One chosen opponent with a Top Card.
    Opponent,
    /// Every player with a Top Card.
    AllPlayers,
}

/// Where discarded cards go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Pile {
    /// The owner's binder (the default).
    Binder,
    StoreDiscard,
    /// The game box: out of the game.
    Box,
}

/// Where taken cards go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TakeTo {
    Hand,
    Binder,
}

/// Where an inserted card goes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Position {
    /// `anywhere into your tableau`.
    Anywhere,
    /// `into your tableau to the left of <card>`.
    Beside { side: Side, of: Target },
}

/// Left or right in a tableau.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    Left,
    Right,
}

/// A player or group of players doing something.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Player {
    You,
    /// One opponent (chosen by you).
    AnOpponent,
    EachOpponent,
    AllPlayers,
    /// `that opponent` after `clash with an opponent`: the opponent you
    /// clashed with.
    ClashedOpponent,
    /// `that opponent` in a Reaction whose trigger is done by `an opponent`,
    /// or in a sentence after `Whenever an opponent …,`: the opponent who
    /// did it.
    TriggerPlayer,
    /// `each opponent with more RP than you` (`more: false`: fewer): each
    /// opponent who has more (or fewer) than you when the clause happens.
    EachOpponentWith {
        more: bool,
        measure: Measure,
    },
}

/// What players are compared by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Measure {
    Rp,
    Money,
    Vp,
}

impl Player {
    /// Does the player refer back to one named earlier in the line?
    pub fn is_reference(self) -> bool {
        matches!(self, Player::ClashedOpponent | Player::TriggerPlayer)
    }
}

/// Whose cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Owner {
    You,
    /// The player doing the clause, when that is not you (`each opponent
    /// loses 1 RP for each card in their hand`); in a clause you do, `their`
    /// is the player the line named before (see [`Owner::ClashedOpponent`]).
    Their,
    AnOpponent,
    EachOpponent,
    EachPlayer,
    Any,
    /// `their` (or `that opponent's`) after `clash with an opponent`, in a
    /// clause you do: the opponent you clashed with.
    ClashedOpponent,
    /// `their` (or `that opponent's`) in a Reaction whose trigger is done by
    /// `an opponent`, in a clause you do: the opponent who did it.
    TriggerPlayer,
}

impl Owner {
    /// The player an owner that refers back names (`None` for the others).
    pub fn reference(self) -> Option<Player> {
        match self {
            Owner::ClashedOpponent => Some(Player::ClashedOpponent),
            Owner::TriggerPlayer => Some(Player::TriggerPlayer),
            _ => None,
        }
    }
}

/// A card or group of cards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Target {
    #[serde(flatten)]
    pub kind: TargetKind,
    #[serde(skip)]
    #[schemars(skip)]
    pub span: Span,
}

/// What a target names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(
    tag = "target",
    rename_all = "kebab-case",
    rename_all_fields = "kebab-case"
)]
pub enum TargetKind {
    /// `this card`.
    This,
    /// `it`: the card named earlier (in a Next ability, the next card played).
    It,
    /// `them`: the cards named earlier.
    Them,
    /// `the card to the left` / `the card to the right`.
    Neighbor { side: Side },
    /// `your Top Card`.
    TopCard { owner: Owner },
    /// `the next card you play`.
    NextCard,
    /// `one of them`, `2 of them`, `up to 2 of them`: some of the cards named before.
    OfThem { n: Num, up_to: bool },
    /// `the rest`: the cards named before that the line has not picked out
    /// (with `one of them`, `it`, …).
    Rest,
    /// `the top card of the Store` (`count` 1) / `the top 3 cards of the Store`.
    StoreTop { count: Num },
    // Boxed here and in `Count`: a query is several times the size of the
    // other variants, and every clause would carry its room (a tree per card
    // is kept through a build).
    /// A described group (`a fire card in an opponent's tableau`).
    Cards(Box<CardQuery>),
}

impl Target {
    pub fn new(kind: TargetKind) -> Target {
        Target {
            kind,
            span: Span::default(),
        }
    }

    /// Does the target name more than one card (so English says `them`, `have`)?
    pub fn is_plural(&self) -> bool {
        match &self.kind {
            TargetKind::Them | TargetKind::Rest => true,
            TargetKind::TopCard { owner } => {
                matches!(owner, Owner::EachOpponent | Owner::EachPlayer)
            }
            TargetKind::StoreTop { count } => count.value != 1,
            TargetKind::OfThem { n, .. } => n.value != 1,
            TargetKind::Cards(q) => q.quant.is_plural(),
            _ => false,
        }
    }
}

/// A described group of cards: quantity, adjectives, noun, and what follows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CardQuery {
    pub quant: Quant,
    /// `other`: not this card.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub other: bool,
    /// `adjacent`: next to this card.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub adjacent: bool,
    /// `face-up` / `face-down`; unwritten means the rule's default: targets
    /// are face-up cards, plain counts count face-down cards too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face: Option<Face>,
    /// Elements, types and rarities, in the order written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub filters: Vec<Filter>,
    pub noun: Noun,
    /// `from the Tin Town set`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set: Option<SetRef>,
    /// `to the left of this card`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    /// `in your tableau`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<Place>,
    /// `with a lower STAR than this card`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub star: Option<StarFilter>,
    #[serde(skip)]
    #[schemars(skip)]
    pub span: Span,
}

impl CardQuery {
    /// A query with only a quantity and a noun.
    pub fn new(quant: Quant, noun: Noun) -> CardQuery {
        CardQuery {
            quant,
            other: false,
            adjacent: false,
            face: None,
            filters: Vec::new(),
            noun,
            set: None,
            side: None,
            place: None,
            star: None,
            span: Span::default(),
        }
    }
}

/// How many cards of a query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Quant {
    /// `a` / `an` (one chosen card).
    One,
    /// `another` (one chosen card other than this one).
    Another,
    /// `2 cards`.
    Number { n: Num },
    /// `up to 2 cards`.
    UpTo { n: Num },
    /// `each card`.
    Each,
    /// `all cards`.
    All,
    /// `cards`: no determiner, every matching card.
    Bare,
    /// `the highest-STAR card`.
    Highest,
    /// `the lowest-STAR card`.
    Lowest,
}

impl Quant {
    /// Does English use the plural noun with this quantity?
    pub fn is_plural(self) -> bool {
        match self {
            Quant::Number { n } | Quant::UpTo { n } => n.value != 1,
            Quant::All | Quant::Bare => true,
            _ => false,
        }
    }
}

/// Face-up or face-down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Face {
    Up,
    Down,
}

/// Card kinds, used as the noun of a query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Noun {
    /// Any card.
    Card,
    Single,
    DeckBox,
    Accessory,
}

/// An element, type or rarity a card must have.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "filter", rename_all = "kebab-case")]
pub enum Filter {
    Element {
        element: Element,
    },
    /// A type id (`mage`, or a type a set declares); checked against the vocabulary.
    Type {
        name: String,
        #[serde(skip)]
        #[schemars(skip)]
        span: Span,
    },
    Rarity {
        rarity: RarityFilter,
    },
}

/// The six elements: the game's words (their `as_str` is the English
/// source word).
pub use crate::words::Element;

/// A rarity a query asks for: one set kind's (a card's rarity is its set's
/// kind), or any of the three promo rarities (`promo`). Written as its id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RarityFilter {
    Is(SetKind),
    AnyPromo,
}

impl RarityFilter {
    /// Every filter, in the order the language lists them.
    pub const ALL: [RarityFilter; 10] = [
        RarityFilter::Is(SetKind::Starter),
        RarityFilter::Is(SetKind::Core),
        RarityFilter::Is(SetKind::Expansion),
        RarityFilter::Is(SetKind::Premium),
        RarityFilter::Is(SetKind::Master),
        RarityFilter::Is(SetKind::BronzePromo),
        RarityFilter::Is(SetKind::SilverPromo),
        RarityFilter::Is(SetKind::GoldPromo),
        RarityFilter::AnyPromo,
        RarityFilter::Is(SetKind::ProPlayer),
    ];

    /// The id (`bronze-promo`, `promo`).
    pub fn id(self) -> &'static str {
        match self {
            RarityFilter::Is(kind) => kind.as_str(),
            RarityFilter::AnyPromo => "promo",
        }
    }

    /// The English source words (`bronze promo`).
    pub fn words(self) -> &'static str {
        match self {
            RarityFilter::Is(kind) => kind.words(),
            RarityFilter::AnyPromo => "promo",
        }
    }

    fn from_id(id: &str) -> Option<RarityFilter> {
        RarityFilter::ALL.into_iter().find(|r| r.id() == id)
    }
}

impl Serialize for RarityFilter {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for RarityFilter {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let id = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        RarityFilter::from_id(&id).ok_or_else(|| {
            let ids = RarityFilter::ALL.map(RarityFilter::id).join(", ");
            serde::de::Error::custom(format!("unknown rarity `{id}`, expected one of {ids}"))
        })
    }
}

impl JsonSchema for RarityFilter {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "RarityFilter".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A rarity a query asks for: a set kind's, or `promo` (any of the three promo rarities).",
            "type": "string",
            "enum": RarityFilter::ALL.map(RarityFilter::id),
        })
    }
}

/// `from the Tin Town set`: a set by name or id, checked against the vocabulary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct SetRef {
    pub name: String,
    #[serde(skip)]
    #[schemars(skip)]
    pub span: Span,
}

/// Where cards are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Place {
    Tableau {
        owner: Owner,
    },
    Hand {
        owner: Owner,
    },
    Binder {
        owner: Owner,
    },
    StoreDiscard,
    Aftermarket,
    /// The Store area's face-down cards (ショップ), the top of the Store
    /// deck among them.
    Store,
    /// The deck box played beside a player's tableau (デッキケース枠).
    DeckBoxSlot {
        owner: Owner,
    },
    /// The accessories played beside a player's tableau (アクセサリー枠).
    AccessorySlots {
        owner: Owner,
    },
}

impl Place {
    /// Whose place it is (`None` for the shared ones: the Store, its
    /// discard, the Aftermarket).
    pub fn owner(self) -> Option<Owner> {
        match self {
            Place::Tableau { owner }
            | Place::Hand { owner }
            | Place::Binder { owner }
            | Place::DeckBoxSlot { owner }
            | Place::AccessorySlots { owner } => Some(owner),
            Place::StoreDiscard | Place::Aftermarket | Place::Store => None,
        }
    }
}

/// A STAR condition on cards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum StarFilter {
    /// `a lower STAR than <card>` / `a higher …` / `the same STAR as <card>`.
    Compare { cmp: StarCmp, than: Box<Target> },
    /// `STAR 3` / `STAR 3 or more` / `STAR 3 or less`.
    Value { n: Num, bound: Bound },
}

/// A comparison with another card's STAR.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum StarCmp {
    Lower,
    Higher,
    Same,
}

/// How a number bounds a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Bound {
    Exactly,
    OrMore,
    OrLess,
}

/// What an `If …,` tests.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "test", rename_all = "kebab-case")]
pub enum Condition {
    /// `you have 3 or more fire cards in your tableau` (`no` is exactly 0).
    Count { count: Count, bound: Bound, n: Num },
    /// `the card to the left has a lower STAR than this card`.
    Star { target: Target, star: StarFilter },
    /// `your Top Card is a fire card`.
    Is {
        target: Target,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        face: Option<Face>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        filters: Vec<Filter>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        noun: Option<Noun>,
    },
    /// `this card is your Top Card`.
    IsTopCard { target: Target, owner: Owner },
    /// `it is the named card`: its name is the one the line named.
    IsNamed { target: Target },
    /// `you have more RP than each opponent`: you compared with `than`
    /// (each opponent: with every one; an opponent: with at least one).
    Compare {
        more: bool,
        measure: Measure,
        than: Player,
        #[serde(skip)]
        #[schemars(skip)]
        span: Span,
    },
}

/// What a Reaction waits for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// `an opponent flips this card`.
    Flips { who: Player, target: Target },
    /// `a card in your tableau is flipped`.
    IsFlipped { target: Target },
    /// `an opponent plays a fire card`.
    Plays { who: Player, target: Target },
    /// `you clash` / `you win a clash`.
    Clash {
        who: Player,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        result: Option<ClashResult>,
    },
    /// `an opponent gains RP`.
    GainsRp { who: Player },
    /// `you lose RP`.
    LosesRp { who: Player },
    /// `your turn starts` (`at the start of your turn`).
    TurnStarts { who: Player },
    /// `an opponent's turn ends` (`at the end of an opponent's turn`).
    TurnEnds { who: Player },
    /// `an opponent passes`: cannot play a Single, so takes no more turns
    /// this tournament.
    Passes { who: Player },
    /// `you buy a card from the Store` (from where the card's place says;
    /// from the Store or the Aftermarket when it says none).
    Buys { who: Player, target: Target },
    /// `an opponent sells a card to the Aftermarket`.
    Sells { who: Player, target: Target },
    /// `you fuse cards`: a Card Fusion (カード合成).
    Fuses { who: Player },
    /// `you make a collection` (コレクションを作成).
    MakesCollection { who: Player },
    /// `an opponent trades` (with any player).
    Trades { who: Player },
    /// `the Deckbuilding Phase starts` (`at the start of the Deckbuilding
    /// Phase`).
    DeckbuildingStarts,
    /// `the Deckbuilding Phase ends` (`at the end of the Deckbuilding Phase`).
    DeckbuildingEnds,
    /// `the tournament starts` (`at the start of the tournament`): in a
    /// `Tournament:` ability, which lasts from then.
    TournamentStarts,
    /// `the tournament ends` (`at the end of the tournament`): in a
    /// `Tournament:` ability (a card in play says `Score:`).
    TournamentEnds,
}

impl Player {
    /// Whose: `your` for you, `an opponent's` for an opponent.
    pub fn owner(self) -> Owner {
        match self {
            Player::You => Owner::You,
            Player::AnOpponent => Owner::AnOpponent,
            // No owner form names the compared opponents; no turn or card
            // of theirs is read with one.
            Player::EachOpponent | Player::EachOpponentWith { .. } => Owner::EachOpponent,
            Player::AllPlayers => Owner::EachPlayer,
            Player::ClashedOpponent => Owner::ClashedOpponent,
            Player::TriggerPlayer => Owner::TriggerPlayer,
        }
    }
}

impl Owner {
    /// The player whose it is (`any player's` is each player's; `their`
    /// names the player doing the clause, which an event has not).
    pub fn player(self) -> Player {
        match self {
            Owner::You | Owner::Their => Player::You,
            Owner::AnOpponent => Player::AnOpponent,
            Owner::EachOpponent => Player::EachOpponent,
            Owner::EachPlayer | Owner::Any => Player::AllPlayers,
            Owner::ClashedOpponent => Player::ClashedOpponent,
            Owner::TriggerPlayer => Player::TriggerPlayer,
        }
    }
}
