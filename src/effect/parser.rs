//! Effect text → AST. Each line is parsed on its own (so one bad line does not
//! hide the errors of the others) with the pest grammar `grammar/effect.pest`,
//! then the parse tree is turned into the AST of `ast.rs`.

use pest::Parser as _;
use pest::iterators::Pair;

use super::ast::*;
use super::error::EffectError;
use super::grammar::{EffectParser, Rule};
use super::syntax_error;
use crate::words::SetKind;

/// Parses an effect text; see [`crate::effect::parse`].
pub fn parse(text: &str) -> Result<Effect, Vec<EffectError>> {
    if let Some(error) = too_long(text) {
        return Err(vec![error]);
    }
    if let Some(error) = nested_too_deeply(text) {
        return Err(vec![error]);
    }
    let many = split_lines(text)
        .filter(|(_, l)| !l.trim().is_empty())
        .nth(1)
        .is_some();
    if many && let Some(effect) = parse_at_once(text) {
        return Ok(effect);
    }
    parse_each_line(text)
}

/// The longest effect text, in characters (Unicode scalar values, line
/// ends included). A printed card holds a few hundred characters and the
/// longest effect of the built-in pool has 127; the bound is far beyond
/// any card, and keeps one hostile value from costing seconds and
/// gigabytes (parse trees, the rendered texts, the database).
pub const MAX_EFFECT_CHARS: usize = 2_000;

/// A text longer than [`MAX_EFFECT_CHARS`] is refused before parsing; the
/// finding points at the first character past the bound, so locating it
/// never needs the whole text.
fn too_long(text: &str) -> Option<EffectError> {
    // Fewer bytes than the bound means fewer characters too.
    if text.len() <= MAX_EFFECT_CHARS {
        return None;
    }
    let (at, c) = text.char_indices().nth(MAX_EFFECT_CHARS)?;
    let length = MAX_EFFECT_CHARS + text[at..].chars().count();
    Some(
        EffectError::new(
            "effect-too-long",
            at..at + c.len_utf8(),
            format!(
                "this effect is {length} characters long; an effect may have at most {MAX_EFFECT_CHARS}"
            ),
            format!("character {} of the effect", MAX_EFFECT_CHARS + 1),
        )
        .with_help("a printed card holds a few hundred characters: shorten the text, or split the card"),
    )
}

/// How deeply card descriptions may nest (`a card with a lower STAR than a
/// card with a lower STAR than …`). Far beyond any printed card; it keeps a
/// hostile text from exhausting the stack, as the grammar recurses there.
pub const MAX_NESTING: usize = 16;

/// The grammar recurses only through STAR comparisons, and each level
/// needs its own `than` or `as`: more of those words on one line than
/// [`MAX_NESTING`] is refused before parsing.
fn nested_too_deeply(text: &str) -> Option<EffectError> {
    if nesting_words_at_most(text) <= MAX_NESTING {
        return None;
    }
    for (base, line) in split_lines(text) {
        let mut count = 0;
        for word in line.split(|c: char| !c.is_alphanumeric()) {
            // The word's offset in its line (a sub-slice of it).
            let start = word.as_ptr() as usize - line.as_ptr() as usize;
            if word.eq_ignore_ascii_case("than") || word.eq_ignore_ascii_case("as") {
                count += 1;
                if count > MAX_NESTING {
                    let span = base + start..base + start + word.len();
                    return Some(
                        EffectError::new(
                            "effect-too-deep",
                            span,
                            format!("card descriptions nest more than {MAX_NESTING} levels deep"),
                            "one comparison too many",
                        )
                        .with_help("compare with a card named more simply, such as `this card`"),
                    );
                }
            }
        }
    }
    None
}

/// A bound on the `than` and `as` words of any one line of `text`: the
/// places where `as` or `than` is spelt, in any case, inside a word or not.
/// Each such word is one of these places, and no two words share one, so
/// the words are never more. Most texts stay under [`MAX_NESTING`] and
/// skip splitting every line into words (a byte search, not a char walk).
fn nesting_words_at_most(text: &str) -> usize {
    let bytes = text.as_bytes();
    let ends_with = |end: usize, word: &[u8]| {
        end >= word.len() && bytes[end - word.len()..end].eq_ignore_ascii_case(word)
    };
    let as_words = memchr::memchr2_iter(b's', b'S', bytes)
        .filter(|&s| ends_with(s + 1, b"as"))
        .count();
    let than_words = memchr::memchr2_iter(b'n', b'N', bytes)
        .filter(|&n| ends_with(n + 1, b"than"))
        .count();
    as_words + than_words
}

/// The fast path for texts of several lines: one parse of the whole text.
/// `None` when anything is wrong; the caller then parses line by line,
/// which finds and reports every error.
fn parse_at_once(text: &str) -> Option<Effect> {
    let lines: Vec<(usize, Normalized<'_>)> = split_lines(text)
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(base, raw)| (base, Normalized::new(raw)))
        .collect();
    let mut joined = String::with_capacity(text.len());
    let mut starts = Vec::with_capacity(lines.len());
    for (i, (_, norm)) in lines.iter().enumerate() {
        if i > 0 {
            joined.push('\n');
        }
        starts.push(joined.len());
        joined.push_str(&norm.text);
    }
    let effect = EffectParser::parse(Rule::effect, &joined).ok()?.next()?;
    let mut out = Vec::with_capacity(lines.len());
    let parts = effect.into_inner().filter(|p| p.as_rule() != Rule::EOI);
    for (i, pair) in parts.enumerate() {
        let (base, norm) = lines.get(i)?;
        let mut builder = Builder {
            base: *base,
            offset: starts[i],
            map: norm.map.as_deref(),
            errors: Vec::new(),
            scope: Scope::default(),
        };
        // The line must be read the way the line-by-line parse reads it.
        match (pair.as_rule(), is_ability(&norm.text)) {
            (Rule::ability, true) => out.push(Line::Ability(builder.ability(pair))),
            (Rule::keyword, false) => out.push(Line::Keyword(builder.keyword(pair))),
            _ => return None,
        }
        if !builder.errors.is_empty() {
            return None;
        }
    }
    (out.len() == lines.len()).then(|| Effect { lines: tight(out) })
}

/// A vector without spare room: trees are kept for the whole build (100,000
/// cards on a large pool), and a vector's first growth reserves room for
/// four of these large nodes.
fn tight<T>(mut items: Vec<T>) -> Vec<T> {
    items.shrink_to_fit();
    items
}

/// Parses every line on its own, collecting the errors of all lines.
fn parse_each_line(text: &str) -> Result<Effect, Vec<EffectError>> {
    let mut lines = Vec::new();
    let mut errors = Vec::new();
    for (base, raw) in split_lines(text) {
        if raw.trim().is_empty() {
            continue;
        }
        let norm = Normalized::new(raw);
        let line = norm.text.as_ref();
        let mut builder = Builder {
            base,
            offset: 0,
            map: norm.map.as_deref(),
            errors: Vec::new(),
            scope: Scope::default(),
        };
        if is_ability(line) {
            match EffectParser::parse(Rule::ability_line, line) {
                Ok(mut pairs) => {
                    let pair = pairs
                        .next()
                        .and_then(|p| p.into_inner().next())
                        .expect("ability");
                    lines.push(Line::Ability(builder.ability(pair)));
                }
                Err(fast) => {
                    // The fast parse skips alternatives that cannot match;
                    // parse again in diagnostic mode to list them all.
                    let e = EffectParser::parse(Rule::ability_line_diag, line)
                        .err()
                        .unwrap_or(fast);
                    errors.push(norm.relocate(syntax_error::from_pest(&e, line, 0, true), base))
                }
            }
        } else {
            match EffectParser::parse(Rule::keyword_line, line) {
                Ok(mut pairs) => {
                    let pair = pairs
                        .next()
                        .and_then(|p| p.into_inner().next())
                        .expect("keyword");
                    lines.push(Line::Keyword(builder.keyword(pair)));
                }
                Err(_) => errors.push(norm.relocate(syntax_error::not_a_line(line, 0), base)),
            }
        }
        errors.append(&mut builder.errors);
    }
    if errors.is_empty() {
        Ok(Effect {
            lines: tight(lines),
        })
    } else {
        Err(errors)
    }
}

/// The lines of a text with the byte offset where each starts (`\r` dropped).
pub(crate) fn split_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut offset = 0;
    text.split('\n').map(move |line| {
        let start = offset;
        offset += line.len() + 1;
        (start, line.strip_suffix('\r').unwrap_or(line))
    })
}

/// A line as the grammar sees it: single spaces between tokens, none at the
/// ends, tabs turned into spaces. `map` gives, for every byte of `text`, its
/// offset in the original line (`None` when the line needed no change).
struct Normalized<'a> {
    text: std::borrow::Cow<'a, str>,
    map: Option<Vec<usize>>,
}

impl<'a> Normalized<'a> {
    fn new(line: &'a str) -> Normalized<'a> {
        let clean = !line.starts_with([' ', '\t'])
            && !line.ends_with([' ', '\t'])
            && !line.contains('\t')
            && !line.contains("  ");
        if clean {
            return Normalized {
                text: std::borrow::Cow::Borrowed(line),
                map: None,
            };
        }
        let mut text = String::with_capacity(line.len());
        let mut map = Vec::with_capacity(line.len());
        let mut pending_space = None;
        for (i, c) in line.char_indices() {
            if c == ' ' || c == '\t' {
                if !text.is_empty() && pending_space.is_none() {
                    pending_space = Some(i);
                }
                continue;
            }
            if let Some(at) = pending_space.take() {
                text.push(' ');
                map.push(at);
            }
            text.push(c);
            map.extend(i..i + c.len_utf8());
        }
        Normalized {
            text: std::borrow::Cow::Owned(text),
            map: Some(map),
        }
    }

    /// Moves an error found in the normalized line (offsets from 0) to the
    /// original text (the line starts at `base`).
    fn relocate(&self, mut e: EffectError, base: usize) -> EffectError {
        e.span = self.relocate_span(&e.span, base);
        // A fix is kept where its text stands unchanged by normalizing.
        e.fix = e.fix.take().and_then(|(span, text)| {
            let moved = self.relocate_span(&span, base);
            (moved.len() == span.len()).then_some((moved, text))
        });
        e
    }

    fn relocate_span(&self, span: &std::ops::Range<usize>, base: usize) -> std::ops::Range<usize> {
        let start = original(self.map.as_deref(), span.start);
        let end = if span.end > span.start {
            original_end(self.map.as_deref(), span.end)
        } else {
            start
        };
        base + start..base + end
    }
}

/// The original offset of normalized offset `i`.
fn original(map: Option<&[usize]>, i: usize) -> usize {
    match map {
        None => i,
        Some(m) => match m.get(i) {
            Some(o) => *o,
            None => m.last().map_or(0, |o| o + 1),
        },
    }
}

/// The original offset of an exclusive end `e` (`e > 0`).
fn original_end(map: Option<&[usize]>, e: usize) -> usize {
    match map {
        None => e,
        Some(m) => m.get(e - 1).map_or(0, |o| o + 1),
    }
}

/// Is the line an ability (it has a colon, or starts with a timing word)?
fn is_ability(line: &str) -> bool {
    if line.contains(':') {
        return true;
    }
    let rest = line.trim_start();
    Timing::starting(rest).is_some_and(|(_, len)| rest.len() > len)
}

/// Builds AST nodes from pest pairs of one line.
struct Builder<'m> {
    /// Offset of the line in the effect text.
    base: usize,
    /// Offset of the line in the text pest parsed (several lines at once).
    offset: usize,
    /// Offsets of the normalized line's bytes in the original line.
    map: Option<&'m [usize]>,
    /// Errors found while building (grammar-valid but ill-formed text).
    errors: Vec<EffectError>,
    /// Who `their` and `that opponent` refer to where the builder is.
    scope: Scope,
}

/// What the line has said so far that a player reference can refer back to,
/// and who does the clause being built. The build goes through the line in
/// the order it is written, so this is what a reader knows at each word.
#[derive(Clone, Copy)]
struct Scope {
    /// Who does the clause (`you` in conditions and statements).
    subject: Player,
    /// The nearest player named before: the trigger's opponent, then the
    /// opponent of a clash, which is nearer once it is written.
    named: Option<Player>,
}

impl Default for Scope {
    fn default() -> Scope {
        Scope {
            subject: Player::You,
            named: None,
        }
    }
}

type P<'i> = Pair<'i, Rule>;

/// What an action is built from (see [`Builder::action_parts`]).
struct ActionParts<'i> {
    targets: (Option<Target>, Option<Target>),
    num: Option<Num>,
    part: Option<P<'i>>,
    pile: Pile,
    resource: Resource,
}

fn first(pair: &P<'_>) -> Rule {
    pair.clone()
        .into_inner()
        .next()
        .map_or(Rule::EOI, |p| p.as_rule())
}

impl Builder<'_> {
    /// Where a pair is written in the effect text, without the space its
    /// last token ate.
    fn span(&self, pair: &P<'_>) -> Span {
        let start = pair.as_span().start() - self.offset;
        let len = pair.as_str().trim_end_matches(' ').len();
        let end = if len == 0 {
            original(self.map, start)
        } else {
            original_end(self.map, start + len)
        };
        Span::new(self.base + original(self.map, start), self.base + end)
    }

    fn num(&self, pair: &P<'_>) -> Num {
        Num {
            value: pair.as_str().trim().parse::<u32>().unwrap_or(u32::MAX),
            span: self.span(pair),
        }
    }

    /// The number 1 written as a word (`one`).
    fn num_one(&self, pair: &P<'_>) -> Num {
        Num {
            value: 1,
            span: self.span(pair),
        }
    }

    fn error(&mut self, pair: &P<'_>, message: &str, label: &str, help: &str) {
        let span = self.span(pair);
        self.errors
            .push(EffectError::new("effect-syntax", span.range(), message, label).with_help(help));
    }

    // ── lines ──

    fn keyword(&mut self, pair: P<'_>) -> KeywordLine {
        let span = self.span(&pair);
        let mut name = String::new();
        let mut name_span = span;
        let mut value = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::keyword_name => {
                    name = p.as_str().split_whitespace().collect::<Vec<_>>().join(" ");
                    name_span = self.span(&p);
                }
                Rule::keyword_value => value = Some(self.num(&p)),
                _ => {}
            }
        }
        KeywordLine {
            name,
            value,
            span,
            name_span,
        }
    }

    fn ability(&mut self, pair: P<'_>) -> Ability {
        self.scope = Scope::default();
        let span = self.span(&pair);
        let mut timing = Timing::Play;
        let mut timing_span = span;
        let mut trigger = None;
        let mut sentences = Vec::new();
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::timing => {
                    timing_span = self.span(&p);
                    let word = p.as_str().trim_end();
                    timing = Timing::ALL
                        .into_iter()
                        .find(|t| t.word().eq_ignore_ascii_case(word))
                        .unwrap_or(Timing::Action);
                }
                Rule::trigger => {
                    let event = p.into_inner().find(|q| {
                        matches!(
                            q.as_rule(),
                            Rule::event_turn
                                | Rule::event_phase
                                | Rule::event_is_flipped
                                | Rule::event_player
                        )
                    });
                    trigger = event.map(|e| self.event(e));
                    self.scope.subject = Player::You;
                    self.scope.named = trigger.as_ref().and_then(super::refer::named_by_trigger);
                }
                Rule::sentence => sentences.push(self.sentence(p)),
                _ => {}
            }
        }
        Ability {
            timing,
            trigger,
            sentences: tight(sentences),
            span,
            timing_span,
        }
    }

    fn sentence(&mut self, pair: P<'_>) -> Sentence {
        let span = self.span(&pair);
        let named_before = self.scope.named;
        let mut sentence = Sentence {
            outcome: None,
            whenever: None,
            condition: None,
            until: None,
            optional: false,
            cost: Vec::new(),
            clauses: Vec::new(),
            choice: Vec::new(),
            span,
        };
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::outcome => {
                    sentence.outcome = Some(match first(&p) {
                        Rule::k_win => ClashResult::Win,
                        Rule::k_lose => ClashResult::Lose,
                        _ => ClashResult::Tie,
                    })
                }
                Rule::cond_count | Rule::cond_compare | Rule::cond_about => {
                    sentence.condition = Some(self.condition(p))
                }
                Rule::whenever => sentence.whenever = self.whenever(p),
                Rule::until | Rule::until_after => sentence.until = Some(until(p)),
                Rule::may => sentence.optional = true,
                Rule::clauses => sentence.clauses = self.clauses(p),
                Rule::choice => sentence.choice = self.choice(p),
                Rule::purpose | Rule::paid => {
                    let clauses = p.into_inner().find(|q| q.as_rule() == Rule::clauses);
                    sentence.cost = std::mem::take(&mut sentence.clauses);
                    sentence.clauses = clauses.map(|c| self.clauses(c)).unwrap_or_default();
                }
                _ => {}
            }
        }
        // The opponent a `Whenever` named is gone with its sentence (unless
        // the sentence named another since).
        if let Some(event) = &sentence.whenever
            && self.scope.named.is_some()
            && self.scope.named == super::refer::named_by_trigger(event)
        {
            self.scope.named = named_before;
        }
        sentence
    }

    /// A player's rule: `your hand size is increased by 1` / `… is 5`,
    /// `your trades need not be even`, `your Card Fusions need 1 fewer
    /// card`, `your deck may include 1 more accessory`.
    fn player_rule(&self, pair: P<'_>) -> Clause {
        let span = self.span(&pair);
        let mut who = Player::You;
        let mut which = Rule::hand_size;
        let mut sign = None;
        let mut n = 0;
        let mut kind = Noun::Card;
        for p in pair.into_inner().flat_map(|p| match p.as_rule() {
            Rule::hand_size | Rule::uneven_trades | Rule::fusion_size | Rule::deck_limit => {
                which = p.as_rule();
                p.into_inner().collect::<Vec<_>>()
            }
            _ => vec![p],
        }) {
            match p.as_rule() {
                Rule::owner => who = self.owner(&p).player(),
                Rule::number => n = self.num(&p).value,
                Rule::k_increased | Rule::k_more => sign = Some(1),
                Rule::k_reduced | Rule::k_less => sign = Some(-1),
                Rule::noun => kind = noun(&p),
                _ => {}
            }
        }
        let delta = sign.unwrap_or(1) * i32::try_from(n).unwrap_or(i32::MAX);
        let rule = match which {
            Rule::uneven_trades => PlayerRule::UnevenTrades,
            Rule::fusion_size => PlayerRule::FusionSize { delta },
            Rule::deck_limit => PlayerRule::DeckLimit {
                noun: kind,
                more: n,
            },
            _ if sign.is_none() => PlayerRule::HandSize {
                size: HandSize::Exactly { cards: n },
            },
            _ => PlayerRule::HandSize {
                size: HandSize::By { delta },
            },
        };
        Clause::Rule { who, rule, span }
    }

    /// What a prohibition forbids.
    fn deed(&mut self, pair: P<'_>) -> Deed {
        let rule = pair.as_rule();
        let target = pair
            .into_inner()
            .find(|p| p.as_rule() == Rule::target)
            .map(|p| self.target(p));
        let target = || target.unwrap_or_else(|| Target::new(TargetKind::This));
        match rule {
            Rule::deed_gain_rp => Deed::GainRp,
            Rule::deed_clash => Deed::Clash,
            Rule::deed_play => Deed::Play { target: target() },
            Rule::deed_flip => Deed::Flip { target: target() },
            Rule::deed_buy => Deed::Buy { target: target() },
            Rule::deed_trade => Deed::Trade,
            _ => Deed::Sell { target: target() },
        }
    }

    /// The options of `choose one — …; or …`, each read as clauses are.
    fn choice(&mut self, pair: P<'_>) -> Vec<Vec<Clause>> {
        pair.into_inner()
            .filter(|p| p.as_rule() == Rule::option)
            .filter_map(|p| p.into_inner().next())
            .map(|clauses| self.clauses(clauses))
            .collect()
    }

    fn clauses(&mut self, pair: P<'_>) -> Vec<Clause> {
        let mut out = Vec::new();
        // The verb of the clause before: `loses` (one player) or `lose`.
        let mut verb_before = Agreement::Either;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::k_and | Rule::k_then | Rule::comma => {}
                Rule::subject_clause => {
                    let span = self.span(&p);
                    let mut inner = p.into_inner();
                    let player = self.player(inner.next().expect("player"));
                    let what = inner.next().expect("action or prohibition");
                    if what.as_rule() == Rule::prohibition {
                        let deed = what
                            .into_inner()
                            .find(|q| q.as_rule() != Rule::k_cannot)
                            .expect("deed");
                        // `their` in the deed is the player kept from it.
                        self.scope.subject = player;
                        let deed = self.deed(deed);
                        self.scope.subject = Player::You;
                        out.push(Clause::Cannot {
                            who: player,
                            deed,
                            span,
                        });
                        verb_before = Agreement::Either;
                        continue;
                    }
                    verb_before = match player {
                        Player::You => Agreement::Base,
                        _ => agreement(&what),
                    };
                    self.scope.subject = player;
                    let action = self.action(what);
                    self.scope.subject = Player::You;
                    self.scope.named = super::refer::named_after(self.scope.named, player, &action);
                    out.push(Clause::Act {
                        subject: player,
                        action,
                        span,
                    });
                }
                Rule::player_rule => {
                    verb_before = Agreement::Either;
                    out.push(self.player_rule(p));
                }
                Rule::statement => {
                    verb_before = Agreement::Either;
                    let span = self.span(&p);
                    let mut targets = Vec::new();
                    let mut state = None;
                    for q in p.into_inner() {
                        match q.as_rule() {
                            Rule::target => targets.push(self.target(q)),
                            Rule::k_and | Rule::comma => {}
                            _ => state = Some(self.state(q)),
                        }
                    }
                    // Subjects sharing a state: the same state of each.
                    let state = state.expect("predicate");
                    out.extend(targets.into_iter().map(|target| Clause::State {
                        target,
                        state: state.clone(),
                        span,
                    }));
                }
                _ => {
                    let span = self.span(&p);
                    let subject = shared_subject(out.last(), verb_before, &p);
                    // Only another player's verb is read again by the next clause.
                    verb_before = match subject {
                        Player::You => Agreement::Base,
                        _ => agreement(&p),
                    };
                    self.scope.subject = subject;
                    let action = self.action(p);
                    self.scope.subject = Player::You;
                    self.scope.named =
                        super::refer::named_after(self.scope.named, subject, &action);
                    out.push(Clause::Act {
                        subject,
                        action,
                        span,
                    });
                }
            }
        }
        tight(out)
    }

    // ── actions ──

    fn action(&mut self, pair: P<'_>) -> Action {
        let rule = pair.as_rule();
        let parts = self.action_parts(pair);
        let part = parts.part;
        let target = parts
            .targets
            .0
            .unwrap_or_else(|| Target::new(TargetKind::This));
        match rule {
            Rule::gain_rp => Action::GainRp {
                amount: self.amount(part.expect("amount")),
            },
            Rule::lose_rp => Action::LoseRp {
                amount: self.amount(part.expect("amount")),
            },
            Rule::gain_resource => Action::Gain {
                n: parts.num.unwrap_or(Num::new(1)),
                resource: parts.resource,
                per: part.map(|p| self.countable(p)),
            },
            Rule::lose_resource => Action::Lose {
                n: parts.num.unwrap_or(Num::new(1)),
                resource: parts.resource,
                per: part.map(|p| self.countable(p)),
            },
            Rule::pay_money => Action::PayMoney {
                n: parts.num.unwrap_or(Num::new(1)),
            },
            Rule::gain_slots => Action::GainSlots {
                count: parts.num.unwrap_or(Num::new(1)),
            },
            Rule::flip => Action::Flip { target },
            Rule::clash => {
                let all = part.is_some_and(|p| p.as_rule() == Rule::clash_all);
                Action::Clash {
                    with: if all {
                        ClashWith::AllPlayers
                    } else {
                        ClashWith::Opponent
                    },
                }
            }
            Rule::discard | Rule::put_in => Action::Discard {
                target,
                to: parts.pile,
            },
            Rule::reveal => Action::Reveal { target },
            Rule::take => {
                let binder =
                    part.is_some_and(|p| p.into_inner().any(|q| q.as_rule() == Rule::k_binder));
                Action::Take {
                    target,
                    to: if binder { TakeTo::Binder } else { TakeTo::Hand },
                }
            }
            Rule::look => Action::LookAt { target },
            Rule::put_tokens => Action::PutTokens {
                count: self.token_count(part.expect("token_count")),
                target,
            },
            Rule::insert => Action::Insert {
                target,
                position: self.insert_position(part),
            },
            Rule::copy_effect => Action::CopyEffect { source: target },
            Rule::attach => Action::Attach {
                card: target,
                to: parts
                    .targets
                    .1
                    .unwrap_or_else(|| Target::new(TargetKind::This)),
            },
            Rule::return_hand => Action::ReturnToHand { target },
            Rule::sell => Action::Sell { target },
            Rule::buy => Action::Buy { target },
            Rule::put_aftermarket => Action::ToAftermarket { target },
            Rule::name_card => Action::NameCard,
            Rule::give_money => Action::GiveMoney {
                n: parts.num.unwrap_or(Num::new(1)),
                // `gives you 1 Millennium Dollar` has no `recipient`.
                to: part
                    .and_then(|p| p.into_inner().next())
                    .filter(|p| p.as_rule() == Rule::rival)
                    .map_or(Player::You, |p| self.player(p)),
            },
            Rule::give_friendship => Action::GiveFriendship {
                n: parts.num.unwrap_or(Num::new(1)),
                to: part.map_or(Player::AnOpponent, |p| self.player(p)),
            },
            _ => Action::PlayCard { target },
        }
    }

    /// An action's parts, in one pass over its children: at most two
    /// targets, a number, a pile, and the one part its kind reads further.
    fn action_parts<'i>(&mut self, pair: P<'i>) -> ActionParts<'i> {
        let mut parts = ActionParts {
            targets: (None, None),
            num: None,
            part: None,
            pile: Pile::Binder,
            resource: Resource::Money,
        };
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::target => {
                    let t = self.target(p);
                    if parts.targets.0.is_none() {
                        parts.targets.0 = Some(t);
                    } else {
                        parts.targets.1 = Some(t);
                    }
                }
                Rule::number => parts.num = Some(self.num(&p)),
                Rule::k_vp => parts.resource = Resource::Vp,
                Rule::k_sell_marker => parts.resource = Resource::SellMarker,
                Rule::pile_store_discard => parts.pile = Pile::StoreDiscard,
                Rule::pile_box => parts.pile = Pile::Box,
                Rule::discard_to => {
                    for q in p.into_inner() {
                        match q.as_rule() {
                            Rule::pile_store_discard => parts.pile = Pile::StoreDiscard,
                            Rule::pile_box => parts.pile = Pile::Box,
                            _ => {}
                        }
                    }
                }
                Rule::rp_fixed
                | Rule::rp_star
                | Rule::clash_all
                | Rule::clash_one
                | Rule::take_to
                | Rule::token_count
                | Rule::insert_anywhere
                | Rule::insert_beside
                | Rule::insert_plain
                | Rule::rival
                | Rule::recipient
                | Rule::count_symbols
                | Rule::count_tokens
                | Rule::count_opponents
                | Rule::count_friendship
                | Rule::count_money
                | Rule::count_cards => parts.part = Some(p),
                _ => {}
            }
        }
        parts
    }

    /// `a +1 STAR token` (one) or `3 +1 STAR tokens`.
    fn token_count(&mut self, pair: P<'_>) -> Num {
        let span = self.span(&pair);
        pair.into_inner()
            .find(|p| p.as_rule() == Rule::number)
            .map_or(Num { value: 1, span }, |p| self.num(&p))
    }

    /// Where an inserted card goes: anywhere, or beside a card.
    fn insert_position(&mut self, part: Option<P<'_>>) -> Position {
        match part {
            Some(p) if p.as_rule() == Rule::insert_beside => {
                let mut side = Side::Left;
                let mut of = Target::new(TargetKind::This);
                for q in p.into_inner() {
                    match q.as_rule() {
                        Rule::side => side = self.side(&q),
                        Rule::target => of = self.target(q),
                        _ => {}
                    }
                }
                Position::Beside { side, of }
            }
            _ => Position::Anywhere,
        }
    }

    fn amount(&mut self, pair: P<'_>) -> Amount {
        if pair.as_rule() == Rule::rp_star {
            let target = pair
                .into_inner()
                .find(|p| p.as_rule() == Rule::target)
                .expect("target");
            return Amount::StarOf {
                target: self.target(target),
            };
        }
        let mut rp = Num::new(0);
        let mut count = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::number => rp = self.num(&p),
                Rule::count_symbols
                | Rule::count_tokens
                | Rule::count_opponents
                | Rule::count_friendship
                | Rule::count_money
                | Rule::count_cards => count = Some(self.countable(p)),
                _ => {}
            }
        }
        match count {
            Some(count) => Amount::PerEach { rp, count },
            None => Amount::Fixed { rp },
        }
    }

    /// One of the `count_*` pairs.
    fn countable(&mut self, inner: P<'_>) -> Count {
        match inner.as_rule() {
            Rule::count_symbols => {
                let mut types = false;
                let mut among = Target::new(TargetKind::This);
                let mut sets = false;
                for p in inner.into_inner() {
                    match p.as_rule() {
                        Rule::k_type => types = true,
                        Rule::k_sets => sets = true,
                        Rule::target => among = self.target(p),
                        Rule::place => {
                            let span = self.span(&p);
                            let mut q = CardQuery::new(Quant::Bare, Noun::Card);
                            q.span = span;
                            q.place = Some(self.place(p));
                            among = Target {
                                kind: TargetKind::Cards(Box::new(q)),
                                span,
                            };
                        }
                        _ => {}
                    }
                }
                match (types, sets) {
                    (true, _) => Count::Types { among },
                    (_, true) => Count::Sets { among },
                    _ => Count::Elements { among },
                }
            }
            Rule::count_tokens => {
                let on = inner
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::target)
                    .expect("target");
                Count::Tokens {
                    on: self.target(on),
                }
            }
            Rule::count_opponents
                if inner
                    .clone()
                    .into_inner()
                    .any(|p| p.as_rule() == Rule::k_with) =>
            {
                let (more, measure) = comparison(&inner);
                Count::OpponentsWith { more, measure }
            }
            Rule::count_opponents => Count::Opponents,
            Rule::count_friendship => Count::FriendshipCards,
            Rule::count_money => Count::Money {
                per: inner
                    .clone()
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::number)
                    .map_or(Num::new(1), |p| self.num(&p)),
            },
            _ => Count::Cards {
                cards: Box::new(self.query(inner, Quant::Each)),
            },
        }
    }

    fn state(&mut self, pair: P<'_>) -> State {
        match pair.as_rule() {
            Rule::cannot_flip => State::CannotBeFlipped {
                by_opponents: pair.into_inner().any(|p| p.as_rule() == Rule::by_opponents),
            },
            Rule::has_star => {
                let delta = pair
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::star_delta)
                    .map_or(0, |p| {
                        let s = p.as_str().trim_end();
                        let magnitude = s[1..].parse::<i32>().unwrap_or(i32::MAX);
                        if s.starts_with('-') {
                            -magnitude
                        } else {
                            magnitude
                        }
                    });
                State::StarBonus { delta }
            }
            Rule::costs | Rule::sells_for => {
                let rule = pair.as_rule();
                let mut n = 0;
                let mut less = false;
                for p in pair.into_inner() {
                    match p.as_rule() {
                        Rule::number => n = self.num(&p).value,
                        Rule::k_less => less = true,
                        _ => {}
                    }
                }
                let magnitude = i32::try_from(n).unwrap_or(i32::MAX);
                let delta = if less { -magnitude } else { magnitude };
                if rule == Rule::costs {
                    State::BuyCost { delta }
                } else {
                    State::SellPrice { delta }
                }
            }
            _ => {
                let mut symbols = Symbols::ElementsAndTypes;
                let mut source = Target::new(TargetKind::This);
                for p in pair.into_inner() {
                    match p.as_rule() {
                        Rule::symbols_both => symbols = Symbols::ElementsAndTypes,
                        Rule::k_element => symbols = Symbols::Elements,
                        Rule::k_type => symbols = Symbols::Types,
                        Rule::target => source = self.target(p),
                        _ => {}
                    }
                }
                State::Mimic { symbols, source }
            }
        }
    }

    // ── targets ──

    fn target(&mut self, pair: P<'_>) -> Target {
        let span = self.span(&pair);
        let inner = pair
            .into_inner()
            .find(|p| p.as_rule() != Rule::k_the)
            .expect("target");
        let kind = match inner.as_rule() {
            Rule::this_card => TargetKind::This,
            Rule::of_them => {
                let mut n = Num::new(1);
                let mut up_to = false;
                for p in inner.into_inner() {
                    match p.as_rule() {
                        Rule::number => n = self.num(&p),
                        Rule::k_one => n = self.num_one(&p),
                        Rule::up_to => {
                            up_to = true;
                            if let Some(q) = p.into_inner().find(|q| q.as_rule() == Rule::number) {
                                n = self.num(&q);
                            }
                        }
                        _ => {}
                    }
                }
                TargetKind::OfThem { n, up_to }
            }
            Rule::the_rest => TargetKind::Rest,
            Rule::pronoun => {
                if first(&inner) == Rule::k_them {
                    TargetKind::Them
                } else {
                    TargetKind::It
                }
            }
            Rule::neighbor => {
                let side = inner
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::side)
                    .map_or(Side::Left, |p| self.side(&p));
                TargetKind::Neighbor { side }
            }
            Rule::top_card => {
                let owner = inner
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::owner)
                    .map_or(Owner::You, |p| self.owner(&p));
                TargetKind::TopCard { owner }
            }
            Rule::next_card => TargetKind::NextCard,
            Rule::store_top => {
                let whole = self.span(&inner);
                let count = inner
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::number)
                    .map_or(
                        Num {
                            value: 1,
                            span: whole,
                        },
                        |p| self.num(&p),
                    );
                TargetKind::StoreTop { count }
            }
            _ => TargetKind::Cards(Box::new(self.query(inner, Quant::Bare))),
        };
        Target { kind, span }
    }

    /// A `query` or `count_cards` pair; `default` is the quantity when none is written.
    fn query(&mut self, pair: P<'_>, default: Quant) -> CardQuery {
        let mut q = CardQuery::new(default, Noun::Card);
        q.span = self.span(&pair);
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::k_highest => q.quant = Quant::Highest,
                Rule::k_lowest => q.quant = Quant::Lowest,
                Rule::superlative => {
                    q.quant = if first(&p) == Rule::k_highest_star {
                        Quant::Highest
                    } else {
                        Quant::Lowest
                    }
                }
                Rule::quant => q.quant = self.quant(p),
                Rule::noun => q.noun = noun(&p),
                Rule::set_filter => {
                    if q.set.is_some() {
                        self.duplicate(&p, "set");
                    }
                    let name = p
                        .into_inner()
                        .find(|n| n.as_rule() == Rule::set_name)
                        .expect("set_name");
                    q.set = Some(SetRef {
                        name: name
                            .as_str()
                            .split_whitespace()
                            .collect::<Vec<_>>()
                            .join(" "),
                        span: self.span(&name),
                    });
                }
                Rule::place => {
                    if q.place.is_some() {
                        self.duplicate(&p, "place");
                    }
                    q.place = Some(self.place(p));
                }
                Rule::side_of => {
                    if q.side.is_some() {
                        self.duplicate(&p, "side");
                    }
                    q.side = p
                        .into_inner()
                        .find(|s| s.as_rule() == Rule::side)
                        .map(|s| self.side(&s));
                }
                Rule::star_filter => {
                    if q.star.is_some() {
                        self.duplicate(&p, "STAR condition");
                    }
                    let cmp = p
                        .into_inner()
                        .find(|s| {
                            matches!(
                                s.as_rule(),
                                Rule::star_relative | Rule::star_same | Rule::star_value
                            )
                        })
                        .expect("star comparison");
                    q.star = Some(self.star_cmp(cmp));
                }
                _ => {
                    self.adjective(
                        p,
                        &mut q.face,
                        &mut q.filters,
                        Some((&mut q.other, &mut q.adjacent)),
                    );
                }
            }
        }
        q
    }

    fn duplicate(&mut self, pair: &P<'_>, what: &str) {
        self.error(
            pair,
            &format!("a card description has a second {what}"),
            "second one here",
            &format!("give each card description at most one {what}"),
        );
    }

    /// Records one adjective. `flags` is `None` where `other`/`adjacent` make no sense.
    fn adjective(
        &mut self,
        p: P<'_>,
        face: &mut Option<Face>,
        filters: &mut Vec<Filter>,
        flags: Option<(&mut bool, &mut bool)>,
    ) {
        match p.as_rule() {
            Rule::k_face_up | Rule::k_face_down => {
                let f = if p.as_rule() == Rule::k_face_up {
                    Face::Up
                } else {
                    Face::Down
                };
                if face.is_some_and(|old| old != f) {
                    self.error(
                        &p,
                        "a card cannot be both face-up and face-down",
                        "second face here",
                        "keep one of `face-up` and `face-down`",
                    );
                }
                *face = Some(f);
            }
            Rule::k_other | Rule::k_adjacent => match flags {
                Some((other, adjacent)) => {
                    if p.as_rule() == Rule::k_other {
                        *other = true;
                    } else {
                        *adjacent = true;
                    }
                }
                None => {
                    let span = self.span(&p);
                    self.errors.push(
                        EffectError::new(
                            "other-without-card",
                            span.range(),
                            format!("`{}` cannot be tested here", p.as_str().trim_end()),
                            "not a property of a card",
                        )
                        .with_help("test elements, types, rarities or `face-down` here"),
                    );
                }
            },
            Rule::rarity_phrase => {
                let words: Vec<String> = p
                    .as_str()
                    .split([' ', '-', '\t'])
                    .filter(|w| !w.is_empty())
                    .map(str::to_ascii_lowercase)
                    .collect();
                let rarity = match words.first().map(String::as_str) {
                    Some("bronze") => RarityFilter::Is(SetKind::BronzePromo),
                    Some("silver") => RarityFilter::Is(SetKind::SilverPromo),
                    Some("gold") => RarityFilter::Is(SetKind::GoldPromo),
                    _ => RarityFilter::Is(SetKind::ProPlayer),
                };
                filters.push(Filter::Rarity { rarity });
            }
            Rule::symbol_word => {
                let word = p.as_str().trim_end().to_ascii_lowercase();
                filters.push(classify_word(&word).unwrap_or(Filter::Type {
                    name: word,
                    span: self.span(&p),
                }));
            }
            _ => {}
        }
    }

    fn quant(&mut self, pair: P<'_>) -> Quant {
        let inner = pair.into_inner().next().expect("quant");
        match inner.as_rule() {
            Rule::up_to => {
                let n = inner
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::number)
                    .expect("number");
                Quant::UpTo { n: self.num(&n) }
            }
            Rule::k_another => Quant::Another,
            Rule::k_a | Rule::k_an => Quant::One,
            Rule::k_each | Rule::k_every => Quant::Each,
            Rule::k_all => Quant::All,
            _ => Quant::Number {
                n: self.num(&inner),
            },
        }
    }

    fn place(&mut self, pair: P<'_>) -> Place {
        let zone = pair
            .into_inner()
            .find(|p| {
                matches!(
                    p.as_rule(),
                    Rule::zone_any_tableau
                        | Rule::zone_store_discard
                        | Rule::zone_aftermarket
                        | Rule::zone_store
                        | Rule::zone_owned
                )
            })
            .expect("zone");
        match zone.as_rule() {
            Rule::zone_any_tableau => Place::Tableau { owner: Owner::Any },
            Rule::zone_store_discard => Place::StoreDiscard,
            Rule::zone_aftermarket => Place::Aftermarket,
            Rule::zone_store => Place::Store,
            _ => {
                let mut owner = Owner::You;
                let mut kind = Rule::k_tableau;
                for p in zone.into_inner() {
                    match p.as_rule() {
                        Rule::owner => owner = self.owner(&p),
                        r => kind = r,
                    }
                }
                match kind {
                    Rule::k_hand => Place::Hand { owner },
                    Rule::k_binder => Place::Binder { owner },
                    Rule::k_deck_box_slot => Place::DeckBoxSlot { owner },
                    Rule::k_accessory_slots => Place::AccessorySlots { owner },
                    _ => Place::Tableau { owner },
                }
            }
        }
    }

    /// A `star_relative`, `star_same` or `star_value` pair.
    fn star_cmp(&mut self, inner: P<'_>) -> StarFilter {
        match inner.as_rule() {
            Rule::star_relative | Rule::star_same => {
                let mut cmp = StarCmp::Same;
                let mut than = Target::new(TargetKind::This);
                for p in inner.into_inner() {
                    match p.as_rule() {
                        Rule::k_lower => cmp = StarCmp::Lower,
                        Rule::k_higher => cmp = StarCmp::Higher,
                        Rule::target => than = self.target(p),
                        _ => {}
                    }
                }
                StarFilter::Compare {
                    cmp,
                    than: Box::new(than),
                }
            }
            _ => {
                let mut n = Num::new(0);
                let mut bound = Bound::Exactly;
                for p in inner.into_inner() {
                    match p.as_rule() {
                        Rule::number => n = self.num(&p),
                        Rule::or_bound => bound = or_bound(&p),
                        _ => {}
                    }
                }
                StarFilter::Value { n, bound }
            }
        }
    }

    fn side(&self, pair: &P<'_>) -> Side {
        if first(pair) == Rule::k_right {
            Side::Right
        } else {
            Side::Left
        }
    }

    fn owner(&self, pair: &P<'_>) -> Owner {
        let mut words = pair.clone().into_inner().map(|p| p.as_rule());
        match (words.next(), words.next()) {
            (Some(Rule::k_your), _) => Owner::You,
            (Some(Rule::k_their), _) => super::refer::their(self.scope.subject, self.scope.named),
            (Some(Rule::k_that), _) => super::refer::owner_of(self.scope.named),
            (Some(Rule::k_an | Rule::k_another), _) => Owner::AnOpponent,
            (Some(Rule::k_each | Rule::k_every), Some(Rule::k_opponent_s)) => Owner::EachOpponent,
            (Some(Rule::k_each | Rule::k_every), _) => Owner::EachPlayer,
            _ => Owner::Any,
        }
    }

    fn player(&self, pair: P<'_>) -> Player {
        if let Some(compared) = pair
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::player_compared)
        {
            let (more, measure) = comparison(&compared);
            return Player::EachOpponentWith { more, measure };
        }
        let mut words = pair.into_inner().map(|p| p.as_rule());
        match (words.next(), words.next()) {
            (Some(Rule::k_you), _) => Player::You,
            (Some(Rule::k_that | Rule::k_they), _) => {
                self.scope.named.unwrap_or(Player::ClashedOpponent)
            }
            (Some(Rule::k_an | Rule::k_another), _) => Player::AnOpponent,
            (Some(Rule::k_each | Rule::k_every), Some(Rule::k_opponent))
            | (Some(Rule::k_opponents), _) => Player::EachOpponent,
            _ => Player::AllPlayers,
        }
    }

    // ── conditions and events ──

    /// A `cond_*` pair.
    fn condition(&mut self, inner: P<'_>) -> Condition {
        match inner.as_rule() {
            Rule::cond_count => {
                let mut bound = Bound::OrMore;
                let mut n = Num::new(1);
                let mut count = Count::Opponents;
                for p in inner.into_inner() {
                    match p.as_rule() {
                        Rule::bound_no
                        | Rule::bound_at_least
                        | Rule::bound_at_most
                        | Rule::bound_exactly
                        | Rule::bound_or => (bound, n) = self.bound(p),
                        Rule::count_symbols
                        | Rule::count_tokens
                        | Rule::count_opponents
                        | Rule::count_friendship
                        | Rule::count_money
                        | Rule::count_cards => count = self.countable(p),
                        _ => {}
                    }
                }
                Condition::Count { count, bound, n }
            }
            Rule::cond_compare => {
                let span = self.span(&inner);
                let (more, measure) = comparison(&inner);
                let rival = inner.into_inner().find(|p| p.as_rule() == Rule::rival);
                let than = rival.map_or(Player::EachOpponent, |p| self.player(p));
                Condition::Compare {
                    more,
                    measure,
                    than,
                    span,
                }
            }
            _ => {
                let mut children = inner.into_inner();
                let target = self.target(children.next().expect("target"));
                let test = children.next().expect("test");
                match test.as_rule() {
                    Rule::cond_top => {
                        let owner = test
                            .into_inner()
                            .find(|p| p.as_rule() == Rule::owner)
                            .map_or(Owner::You, |p| self.owner(&p));
                        Condition::IsTopCard { target, owner }
                    }
                    Rule::cond_named => Condition::IsNamed { target },
                    Rule::cond_star => {
                        let cmp = test
                            .into_inner()
                            .find(|p| {
                                matches!(
                                    p.as_rule(),
                                    Rule::star_relative | Rule::star_same | Rule::star_value
                                )
                            })
                            .expect("star comparison");
                        Condition::Star {
                            target,
                            star: self.star_cmp(cmp),
                        }
                    }
                    _ => {
                        let mut face = None;
                        let mut filters = Vec::new();
                        let mut noun_ = None;
                        for p in test.into_inner() {
                            match p.as_rule() {
                                Rule::noun => noun_ = Some(noun(&p)),
                                Rule::k_is | Rule::k_a | Rule::k_an => {}
                                _ => self.adjective(p, &mut face, &mut filters, None),
                            }
                        }
                        Condition::Is {
                            target,
                            face,
                            filters,
                            noun: noun_,
                        }
                    }
                }
            }
        }
    }

    /// A `bound_*` pair.
    fn bound(&mut self, inner: P<'_>) -> (Bound, Num) {
        let rule = inner.as_rule();
        if rule == Rule::bound_no {
            return (
                Bound::Exactly,
                Num {
                    value: 0,
                    span: self.span(&inner),
                },
            );
        }
        let mut n = Num::new(0);
        let mut bound = match rule {
            Rule::bound_at_least => Bound::OrMore,
            Rule::bound_at_most => Bound::OrLess,
            _ => Bound::Exactly,
        };
        for p in inner.into_inner() {
            match p.as_rule() {
                Rule::number => n = self.num(&p),
                Rule::or_bound => bound = or_bound(&p),
                _ => {}
            }
        }
        (bound, n)
    }

    /// `Whenever <event>,` or `At the start of <owner> turn,`.
    fn whenever(&mut self, pair: P<'_>) -> Option<Event> {
        let inner = pair.into_inner().find(|p| {
            matches!(
                p.as_rule(),
                Rule::turn_moment
                    | Rule::phase_moment
                    | Rule::event_turn
                    | Rule::event_phase
                    | Rule::event_is_flipped
                    | Rule::event_player
            )
        })?;
        // An event refers back to no one (the check says so), so it is read
        // as a trigger is, before anyone is named.
        let named = self.scope.named.take();
        let event = match inner.as_rule() {
            Rule::turn_moment => self.turn_event(inner, Rule::k_start),
            Rule::phase_moment => phase_event(&inner, Rule::k_start),
            _ => self.event(inner),
        };
        // The opponent who sets the sentence off is `that opponent` in it.
        self.scope = Scope {
            subject: Player::You,
            named: super::refer::named_by_trigger(&event).or(named),
        };
        Some(event)
    }

    /// `your turn starts` (`starts` after the owner) or `at the start of
    /// your turn` (`start` before it): `starting` is the word that says so.
    fn turn_event(&mut self, inner: P<'_>, starting: Rule) -> Event {
        let mut who = Player::You;
        let mut starts = false;
        for p in inner.into_inner() {
            match p.as_rule() {
                Rule::owner => who = self.owner(&p).player(),
                r if r == starting => starts = true,
                _ => {}
            }
        }
        if starts {
            Event::TurnStarts { who }
        } else {
            Event::TurnEnds { who }
        }
    }

    /// An `event_turn`, `event_is_flipped` or `event_player` pair.
    fn event(&mut self, inner: P<'_>) -> Event {
        if inner.as_rule() == Rule::event_turn {
            return self.turn_event(inner, Rule::k_starts);
        }
        if inner.as_rule() == Rule::event_phase {
            return phase_event(&inner, Rule::k_starts);
        }
        if inner.as_rule() == Rule::event_is_flipped {
            let target = inner
                .into_inner()
                .find(|p| p.as_rule() == Rule::target)
                .expect("target");
            return Event::IsFlipped {
                target: self.target(target),
            };
        }
        let mut parts = inner.into_inner();
        let who = self.player(parts.next().expect("player"));
        // `their` in the trigger is the player who does it.
        self.scope.subject = who;
        let what = parts.next().expect("event kind");
        match what.as_rule() {
            Rule::event_flips | Rule::event_plays | Rule::event_buys | Rule::event_sells => {
                let kind = what.as_rule();
                let target = what
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::target)
                    .expect("target");
                let target = self.target(target);
                match kind {
                    Rule::event_flips => Event::Flips { who, target },
                    Rule::event_plays => Event::Plays { who, target },
                    Rule::event_buys => Event::Buys { who, target },
                    _ => Event::Sells { who, target },
                }
            }
            Rule::event_clash_result => Event::Clash {
                who,
                result: Some(match first(&what) {
                    Rule::k_win => ClashResult::Win,
                    Rule::k_lose => ClashResult::Lose,
                    _ => ClashResult::Tie,
                }),
            },
            Rule::event_clash => Event::Clash { who, result: None },
            Rule::event_passes => Event::Passes { who },
            Rule::event_fuses => Event::Fuses { who },
            Rule::event_collects => Event::MakesCollection { who },
            Rule::event_trades => Event::Trades { who },
            _ => {
                if first(&what) == Rule::k_gain {
                    Event::GainsRp { who }
                } else {
                    Event::LosesRp { who }
                }
            }
        }
    }
}

/// `each opponent with more RP than you`.
/// `more RP than` / `fewer Millennium Dollars than` inside `pair`: whether
/// it is more, and what is compared.
fn comparison(pair: &P<'_>) -> (bool, Measure) {
    let mut more = true;
    let mut measure = Measure::Rp;
    for p in pair.clone().into_inner() {
        match p.as_rule() {
            Rule::k_less => more = false,
            Rule::measure => {
                measure = match first(&p) {
                    Rule::k_money => Measure::Money,
                    Rule::k_vp => Measure::Vp,
                    _ => Measure::Rp,
                }
            }
            _ => {}
        }
    }
    (more, measure)
}

/// `the Deckbuilding Phase starts` or `at the start of the tournament`:
/// `starting` is the word that says it starts.
fn phase_event(inner: &P<'_>, starting: Rule) -> Event {
    let words = inner.clone().into_inner();
    let starts = words.clone().any(|p| p.as_rule() == starting);
    let tournament = words.into_iter().any(|p| p.as_rule() == Rule::k_tournament);
    match (tournament, starts) {
        (false, true) => Event::DeckbuildingStarts,
        (false, false) => Event::DeckbuildingEnds,
        (true, true) => Event::TournamentStarts,
        (true, false) => Event::TournamentEnds,
    }
}

/// What a verb's form says of its player.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Agreement {
    /// `loses`: one player, not you.
    One,
    /// `lose`: you, or several players.
    Base,
    /// `cannot …`: either.
    Either,
}

/// The form of the verb an action starts with.
fn agreement(action: &P<'_>) -> Agreement {
    let text = action.as_str().as_bytes();
    let verb = text.split(|b| *b == b' ').next().unwrap_or_default();
    if matches!(verb.last(), Some(b's' | b'S')) {
        Agreement::One
    } else {
        Agreement::Base
    }
}

/// Who does an action written without a subject: the player of the clause
/// before when the verb agrees with that player as the clause before wrote
/// it (`each opponent loses 1 RP and gains 1 VP`, `all players gain 1 RP and
/// lose 1 VP`), else you (`each opponent loses 1 RP and gain 1 VP`: `gain`
/// is not the opponent's).
fn shared_subject(before: Option<&Clause>, verb_before: Agreement, action: &P<'_>) -> Player {
    let before = match before {
        Some(Clause::Act { subject, .. }) => *subject,
        Some(Clause::Cannot { who, .. }) => *who,
        _ => return Player::You,
    };
    if before == Player::You {
        return Player::You;
    }
    let verb_before = match verb_before {
        Agreement::Either if super::format::third_person(before) => Agreement::One,
        Agreement::Either => Agreement::Base,
        written => written,
    };
    if agreement(action) == verb_before {
        before
    } else {
        Player::You
    }
}

/// How long `until the end of …` lasts: the word after `of the` says.
fn until(pair: P<'_>) -> Until {
    let ends = pair.into_inner().find_map(|p| match p.as_rule() {
        Rule::k_turn => Some(Until::EndOfTurn),
        Rule::k_tournament => Some(Until::EndOfTournament),
        Rule::k_round => Some(Until::EndOfRound),
        Rule::k_deckbuilding_phase => Some(Until::EndOfDeckbuilding),
        _ => None,
    });
    ends.unwrap_or(Until::EndOfTurn)
}

fn noun(pair: &P<'_>) -> Noun {
    match first(pair) {
        Rule::k_single => Noun::Single,
        Rule::k_deck_box => Noun::DeckBox,
        Rule::k_accessory => Noun::Accessory,
        _ => Noun::Card,
    }
}

fn or_bound(pair: &P<'_>) -> Bound {
    if pair
        .clone()
        .into_inner()
        .any(|p| p.as_rule() == Rule::k_more)
    {
        Bound::OrMore
    } else {
        Bound::OrLess
    }
}

/// An element or one-word rarity, from its lowercase English word.
pub(crate) fn classify_word(word: &str) -> Option<Filter> {
    if let Some(element) = Element::ALL.into_iter().find(|e| e.as_str() == word) {
        return Some(Filter::Element { element });
    }
    RarityFilter::ALL
        .into_iter()
        .find(|r| r.words() == word)
        .map(|rarity| Filter::Rarity { rarity })
}

/// Every node of the parse tree of each line that parses, outermost first,
/// as its rule and its span in `text` (an editor colours the tokens with
/// them). A line that does not parse has none; a text refused before
/// parsing (too long, nested too deeply) has none.
pub fn tree_spans(text: &str) -> Vec<(Rule, std::ops::Range<usize>)> {
    if too_long(text).is_some() || nested_too_deeply(text).is_some() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (base, raw) in split_lines(text).filter(|(_, l)| !l.trim().is_empty()) {
        let norm = Normalized::new(raw);
        let rule = match is_ability(&norm.text) {
            true => Rule::ability_line,
            false => Rule::keyword_line,
        };
        let Ok(pairs) = EffectParser::parse(rule, &norm.text) else {
            continue;
        };
        for pair in pairs.flatten() {
            let span = pair.as_span().start()..pair.as_span().end();
            out.push((pair.as_rule(), norm.relocate_span(&span, base)));
        }
    }
    out
}

#[cfg(test)]
mod nesting_tests {
    use proptest::prelude::*;

    /// The words `nested_too_deeply` counts on its slowest line.
    fn most_words_on_a_line(text: &str) -> usize {
        super::split_lines(text)
            .map(|(_, line)| {
                line.split(|c: char| !c.is_alphanumeric())
                    .filter(|w| w.eq_ignore_ascii_case("than") || w.eq_ignore_ascii_case("as"))
                    .count()
            })
            .max()
            .unwrap_or(0)
    }

    proptest! {
        /// The byte count never falls below the words of any line, so the
        /// early return never hides a text nested too deeply.
        #[test]
        fn the_bound_is_never_below_the_words(
            text in "((as|AS|aS|than|THAN|tHaN|a|s|t|h|n|é|—|-|'|\\n|\\r| |[a-zA-Z0-9]{1,4})){0,60}"
        ) {
            prop_assert!(super::nesting_words_at_most(&text) >= most_words_on_a_line(&text));
        }
    }

    #[test]
    fn the_bound_counts_words_glued_to_letters_too() {
        assert_eq!(super::nesting_words_at_most("Than as AS thanas bass"), 6);
        assert_eq!(super::nesting_words_at_most("Play: Gain 1 RP."), 0);
    }
}

#[cfg(test)]
mod fast_path_tests {
    #[test]
    fn multi_line_texts_parse_at_once() {
        for text in [
            "Scurry.\nPlay: Gain 1 RP.",
            "Blast Off PLUS.\nScore: Gain 1 RP for each face-up card in your tableau.",
            "Play: Copy the effect of the card to the left.\nTop: Adjacent cards cannot be flipped.",
            "Thwomp! 3.\nTop: This card cannot be flipped.",
        ] {
            let fast = super::parse_at_once(text);
            assert!(fast.is_some(), "{text}");
            assert_eq!(fast.unwrap(), super::parse_each_line(text).unwrap());
        }
    }
}
