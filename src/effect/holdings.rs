//! What a player holds that an effect deals in: RP, Millennium Dollars, VP,
//! Sell Markers and Friendship Cards. An effect deals in one when it gains,
//! loses, pays or gives it, buys or sells for it, changes a price in it,
//! forbids gaining it, waits for it to change, or counts or compares by it.
//! Search asks it (`resource:money`); it is read off the tree, so a card
//! whose text only names a holding in passing (a set called "Money") does
//! not deal in it.

use super::ast::*;

/// One thing a player holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Holding {
    Rp,
    Money,
    Vp,
    SellMarkers,
    Friendship,
}

impl Holding {
    pub const ALL: [Holding; 5] = [
        Holding::Rp,
        Holding::Money,
        Holding::Vp,
        Holding::SellMarkers,
        Holding::Friendship,
    ];

    /// The word a search writes (`resource:money`).
    pub fn word(self) -> &'static str {
        match self {
            Holding::Rp => "rp",
            Holding::Money => "money",
            Holding::Vp => "vp",
            Holding::SellMarkers => "sell-marker",
            Holding::Friendship => "friendship",
        }
    }

    /// The rulebook's name, as the glossary has it.
    pub fn term(self) -> &'static str {
        match self {
            Holding::Rp => "RP",
            Holding::Money => "Millennium Dollars",
            Holding::Vp => "VP",
            Holding::SellMarkers => "Sell Marker",
            Holding::Friendship => "Friendship card",
        }
    }

    fn bit(self) -> u8 {
        1 << Holding::ALL.iter().position(|h| *h == self).unwrap_or(0)
    }
}

/// A set of holdings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Holdings(u8);

impl Holdings {
    pub fn contains(self, h: Holding) -> bool {
        self.0 & h.bit() != 0
    }

    fn add(&mut self, h: Holding) {
        self.0 |= h.bit();
    }
}

/// The holdings `effect` deals in.
pub fn holdings(effect: &Effect) -> Holdings {
    let mut found = Holdings::default();
    for line in &effect.lines {
        if let Line::Ability(a) = line {
            ability(a, &mut found);
        }
    }
    found
}

fn ability(a: &Ability, found: &mut Holdings) {
    if let Some(e) = &a.trigger {
        event(e, found);
    }
    for s in &a.sentences {
        if let Some(e) = &s.whenever {
            event(e, found);
        }
        if let Some(c) = &s.condition {
            condition(c, found);
        }
        for c in s.each_clause() {
            clause(c, found);
        }
    }
}

fn clause(c: &Clause, found: &mut Holdings) {
    match c {
        Clause::Act {
            subject, action, ..
        } => {
            player(*subject, found);
            act(action, found);
        }
        Clause::Rule { who, .. } => player(*who, found),
        Clause::Cannot { who, deed, .. } => {
            player(*who, found);
            match deed {
                Deed::GainRp => found.add(Holding::Rp),
                Deed::Buy { .. } | Deed::Sell { .. } => found.add(Holding::Money),
                Deed::Clash | Deed::Play { .. } | Deed::Flip { .. } | Deed::Trade => {}
            }
        }
        Clause::State { state, .. } => {
            if matches!(state, State::BuyCost { .. } | State::SellPrice { .. }) {
                found.add(Holding::Money);
            }
        }
    }
}

fn act(a: &Action, found: &mut Holdings) {
    match a {
        Action::GainRp { .. } | Action::LoseRp { .. } => found.add(Holding::Rp),
        Action::Gain { resource, .. } | Action::Lose { resource, .. } => {
            found.add(resource_holding(*resource))
        }
        Action::PayMoney { .. } | Action::GiveMoney { .. } | Action::Buy { .. } => {
            found.add(Holding::Money)
        }
        Action::Sell { .. } => {
            found.add(Holding::Money);
            found.add(Holding::SellMarkers);
        }
        Action::GiveFriendship { .. } => found.add(Holding::Friendship),
        _ => {}
    }
    if let Some(amount) = a.amount()
        && let Amount::PerEach { count, .. } = amount
    {
        count_of(count, found);
    }
    if let Some(count) = a.per() {
        count_of(count, found);
    }
}

fn count_of(c: &Count, found: &mut Holdings) {
    match c {
        Count::OpponentsWith { measure, .. } => found.add(measured(*measure)),
        Count::FriendshipCards => found.add(Holding::Friendship),
        _ => {}
    }
}

fn condition(c: &Condition, found: &mut Holdings) {
    match c {
        Condition::Compare { measure, than, .. } => {
            found.add(measured(*measure));
            player(*than, found);
        }
        Condition::Count { count, .. } => count_of(count, found),
        _ => {}
    }
}

fn event(e: &Event, found: &mut Holdings) {
    match e {
        Event::GainsRp { .. } | Event::LosesRp { .. } => found.add(Holding::Rp),
        Event::Buys { .. } => found.add(Holding::Money),
        Event::Sells { .. } => {
            found.add(Holding::Money);
            found.add(Holding::SellMarkers);
        }
        _ => {}
    }
}

/// A player compared by a holding (`each opponent with more VP than you`).
fn player(p: Player, found: &mut Holdings) {
    if let Player::EachOpponentWith { measure, .. } = p {
        found.add(measured(measure));
    }
}

fn measured(m: Measure) -> Holding {
    match m {
        Measure::Rp => Holding::Rp,
        Measure::Money => Holding::Money,
        Measure::Vp => Holding::Vp,
    }
}

fn resource_holding(r: Resource) -> Holding {
    match r {
        Resource::Money => Holding::Money,
        Resource::Vp => Holding::Vp,
        Resource::SellMarker => Holding::SellMarkers,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(text: &str) -> Vec<Holding> {
        let found = holdings(&super::super::parse(text).unwrap());
        Holding::ALL
            .into_iter()
            .filter(|h| found.contains(*h))
            .collect()
    }

    #[test]
    fn each_holding_is_found_where_the_tree_deals_in_it() {
        use Holding::*;
        for (text, expected) in [
            ("Play: Gain 2 RP.", vec![Rp]),
            (
                "Play: Pay 2 Millennium Dollars to gain 1 VP.",
                vec![Money, Vp],
            ),
            (
                "Action: Sell a card from your hand to the Aftermarket.",
                vec![Money, SellMarkers],
            ),
            (
                "Deckbuilding: Cards in the Store cost 1 Millennium Dollar less.",
                vec![Money],
            ),
            ("Ongoing: Each opponent cannot gain RP.", vec![Rp]),
            (
                "Play: If you have more VP than each opponent, flip this card.",
                vec![Vp],
            ),
            (
                "Play: Give a Friendship Card to an opponent.",
                vec![Friendship],
            ),
            (
                "Reaction (when an opponent gains RP): Gain a Sell Marker.",
                vec![Rp, SellMarkers],
            ),
            ("Ongoing: Adjacent cards cannot be flipped.", vec![]),
            // A set named so is no holding.
            ("Play: Flip a card from the Money set.", vec![]),
        ] {
            assert_eq!(of(text), expected, "{text}");
        }
    }
}
