//! Trade check: a trade is legal when the STARs plus Millennium Dollars on
//! each side are equal. Friendship cards ride along without value; Free
//! Market Mode allows uneven trades.

use schemars::JsonSchema;
use serde::Serialize;

use super::{Common, Counted, Violation, ids, rule};
use crate::words::Id;

/// One side of a trade.
#[derive(Debug, Clone, Default)]
pub struct Side<'a> {
    pub cards: Vec<Counted<'a>>,
    /// Millennium Dollars.
    pub dollars: u64,
    /// Friendship cards (no trade value).
    pub friendship: u64,
}

/// What one side is worth.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SideValue {
    /// STARs plus dollars.
    pub value: u64,
    /// Sum of the cards' STARs.
    pub stars: u64,
    /// Millennium Dollars.
    pub dollars: u64,
    /// Friendship cards, worth nothing in the trade.
    pub friendship: u64,
    /// The side's cards by id, in input order, repeats included.
    pub cards: Vec<Id>,
}

/// What would even the trade: the poorer side adds this much.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Balance {
    /// `a` or `b`: the side that should add value.
    pub side: String,
    /// Millennium Dollars, or STARs of cards, to add.
    pub amount: u64,
}

/// What a trade check found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TradeOutcome {
    pub a: SideValue,
    pub b: SideValue,
    /// `a.value - b.value`.
    pub difference: i64,
    pub balance: Option<Balance>,
    pub violations: Vec<Violation>,
}

pub fn value(side: &Side) -> SideValue {
    let stars: u64 = side
        .cards
        .iter()
        .map(|(c, n)| c.star_value().saturating_mul(*n))
        .fold(0, u64::saturating_add);
    SideValue {
        value: stars.saturating_add(side.dollars),
        stars,
        dollars: side.dollars,
        friendship: side.friendship,
        cards: side
            .cards
            .iter()
            .flat_map(|(c, n)| std::iter::repeat_n(c.id.clone(), (*n).min(10_000) as usize))
            .collect(),
    }
}

/// Checks a trade; with `free_market` an uneven trade is legal (the values
/// are still reported).
pub fn check(a: &Side, b: &Side, free_market: bool) -> TradeOutcome {
    let (va, vb) = (value(a), value(b));
    let difference = i128::from(va.value) - i128::from(vb.value);
    let difference = difference.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
    let balance = (difference != 0).then(|| Balance {
        side: if difference > 0 { "b" } else { "a" }.to_string(),
        amount: difference.unsigned_abs(),
    });
    let mut violations = Vec::new();
    if let (Some(balance), false) = (&balance, free_market) {
        let (rich, poor) = if balance.side == "b" {
            (("a", &va), ("b", &vb))
        } else {
            (("b", &vb), ("a", &va))
        };
        violations.push(Violation::new(
            rule::UNEQUAL_VALUE,
            format!(
                "side {} is worth {} and side {} {}: side {} should add {} (Millennium Dollars or STARs of cards), or side {} take as much away; friendship cards do not count",
                rich.0,
                rich.1.value,
                poor.0,
                poor.1.value,
                poor.0,
                balance.amount,
                rich.0,
            ),
            ids(a.cards.iter().chain(&b.cards).map(|(c, _)| *c)),
        ));
    }
    TradeOutcome {
        a: va,
        b: vb,
        difference,
        balance,
        violations,
    }
}

/// The JSON output of `blades trade check`.
#[derive(Debug, Default, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[schemars(title = "blades trade check result")]
pub struct TradeReport {
    #[serde(flatten)]
    pub common: Common,
    /// Checked in Free Market Mode (`--free-market`).
    pub free_market: bool,
    pub a: SideValue,
    pub b: SideValue,
    /// `a.value - b.value`.
    pub difference: i64,
    /// What would even the trade; null when it is even.
    pub balance: Option<Balance>,
}
