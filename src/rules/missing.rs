//! What is missing from what I own: the cards a deck needs that a binder
//! (or a copies file) lacks, copy by copy, in the order `deck export`
//! lists cards.

use schemars::JsonSchema;
use serde::Serialize;

use super::Counted;
use super::deck::Placed;
use super::share;

/// One card the deck needs more copies of than are owned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Lacking {
    pub id: crate::words::Id,
    pub name: String,
    /// Copies the deck holds (all zones together).
    pub need: u64,
    /// Copies owned.
    pub own: u64,
    /// `need - own`.
    pub missing: u64,
}

/// What `blades deck missing --format json` prints (and `POST
/// /api/deck/missing` answers).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct MissingReport {
    /// The deck, as named.
    pub deck: String,
    /// What is owned, as named.
    pub owned: String,
    /// The cards lacking, in the canonical list's order.
    pub cards: Vec<Lacking>,
    /// Copies lacking in all.
    pub missing: u64,
}

/// The cards of `deck` that `owned` has fewer copies of.
pub fn missing(
    deck_name: &str,
    owned_name: &str,
    deck: &[Placed],
    owned: &[Counted],
) -> MissingReport {
    let mut needed: Vec<(&crate::model::Card, u64)> = Vec::new();
    for (_, card, n) in deck {
        match needed.iter_mut().find(|(c, _)| c.id == card.id) {
            Some(entry) => entry.1 += n,
            None => needed.push((card, *n)),
        }
    }
    needed.sort_by(|a, b| {
        share::list_order(a.0)
            .cmp(&share::list_order(b.0))
            .then(a.0.id.cmp(&b.0.id))
    });
    let cards: Vec<Lacking> = (needed.into_iter())
        .filter_map(|(card, need)| {
            let own = owned
                .iter()
                .filter(|(c, _)| c.id == card.id)
                .map(|(_, n)| n)
                .sum();
            (need > own).then(|| Lacking {
                id: card.id.clone(),
                name: card.name.clone(),
                need,
                own,
                missing: need - own,
            })
        })
        .collect();
    MissingReport {
        deck: deck_name.to_string(),
        owned: owned_name.to_string(),
        missing: cards.iter().map(|c| c.missing).sum(),
        cards,
    }
}
