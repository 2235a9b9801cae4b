//! Copy counts: how many physical copies of each card exist in the sets in
//! play (the copy rule, derived when the database is built), against how
//! many the table owns.

use schemars::JsonSchema;
use serde::Serialize;

use super::{Common, Counted, Violation, list_names, plural, rule};
use crate::model::{Database, Set};
use crate::words::{CardKind, Id, SetKind};

/// One card's count against the copies that exist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CopyCount {
    pub id: Id,
    /// Copies owned across the table (all entries of the card added up).
    pub owned: u64,
    /// Copies that exist in the sets in play (0 when its set is not in play).
    pub copies: u64,
}

/// What a copies check found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CopiesOutcome {
    pub cards: Vec<CopyCount>,
    pub violations: Vec<Violation>,
}

/// Checks owned counts against the sets in play.
pub fn check(in_play: &[&Set], cards: &[Counted]) -> CopiesOutcome {
    // Add up repeated entries of a card, in first-seen order.
    let mut owned: Vec<Counted> = Vec::new();
    for &(card, n) in cards {
        match owned.iter_mut().find(|(c, _)| c.id == card.id) {
            Some(entry) => entry.1 = entry.1.saturating_add(n),
            None => owned.push((card, n)),
        }
    }
    let mut counts = Vec::new();
    let mut violations = Vec::new();
    for (card, n) in owned {
        let playing = in_play.iter().any(|s| s.id == card.set);
        let copies = if playing { u64::from(card.copies) } else { 0 };
        if !playing && n > 0 {
            violations.push(Violation::new(
                rule::SET_NOT_IN_PLAY,
                format!(
                    "{} is from the set `{}`, which is not in play: add the set to `sets`, or remove the card",
                    list_names([card.name.as_str()]),
                    card.set
                ),
                vec![card.id.clone()],
            ));
        } else if n > copies {
            violations.push(Violation::new(
                rule::TOO_MANY_COPIES,
                format!(
                    "{} of {} are owned, but its set holds {}: {} too many",
                    plural(n, "copy", "copies"),
                    list_names([card.name.as_str()]),
                    plural(copies, "copy", "copies"),
                    n - copies
                ),
                vec![card.id.clone()],
            ));
        }
        counts.push(CopyCount {
            id: card.id.clone(),
            owned: n,
            copies,
        });
    }
    CopiesOutcome {
        cards: counts,
        violations,
    }
}

/// The JSON output of `blades copies check`.
#[derive(Debug, Default, Serialize, JsonSchema)]
#[schemars(title = "blades copies check result")]
pub struct CopiesReport {
    #[serde(flatten)]
    pub common: Common,
    /// Ids of the sets in play.
    pub sets: Vec<Id>,
    /// Every card of the input with its counts.
    pub cards: Vec<CopyCount>,
}

/// The copy manifest: every card of the chosen sets with its copies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(title = "blades copies list result")]
pub struct Manifest {
    pub sets: Vec<ManifestSet>,
    /// Physical cards of all listed sets.
    pub physical: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ManifestSet {
    pub id: Id,
    pub name: String,
    pub kind: SetKind,
    /// Different cards.
    pub distinct: u64,
    /// Physical cards (sum of copies).
    pub physical: u64,
    pub cards: Vec<ManifestCard>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ManifestCard {
    pub id: Id,
    pub name: String,
    pub kind: CardKind,
    /// Absent on venues and characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stars: Option<u8>,
    pub copies: u8,
}

/// The manifest of one set, or of every set of the database.
pub fn manifest(database: &Database, only: Option<&Id>) -> Manifest {
    let sets: Vec<ManifestSet> = database
        .sets
        .iter()
        .filter(|s| only.is_none_or(|id| &s.id == id))
        .map(|set| {
            let cards: Vec<ManifestCard> = database
                .cards
                .iter()
                .filter(|c| c.set == set.id)
                .map(|c| ManifestCard {
                    id: c.id.clone(),
                    name: c.name.clone(),
                    kind: c.kind,
                    stars: c.stars,
                    copies: c.copies,
                })
                .collect();
            ManifestSet {
                id: set.id.clone(),
                name: set.name.clone(),
                kind: set.kind,
                distinct: cards.len() as u64,
                physical: cards.iter().map(|c| u64::from(c.copies)).sum(),
                cards,
            }
        })
        .collect();
    Manifest {
        physical: sets.iter().map(|s| s.physical).sum(),
        sets,
    }
}
