//! End-of-game scoring (`blades score FILE`): each player's tournament,
//! collection, money and Friendship VP, and the final ranking with the
//! rulebook's tie-breaks. The numbers of each mode are data
//! (`data/score-modes.yaml`, embedded).
//!
//! A score sheet is checked whole before anything is added up: a player
//! named twice, a place outside the table or inside another tie, a
//! Friendship card from nobody or from oneself are located errors, all
//! reported at once.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::{Arc, OnceLock};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::input::{InputFile, PlayerDoc, ScoreDoc, Spanned};
use super::{collection, plural};
use crate::diagnostics::{Code, Diagnostic};
use crate::suggest::{Lexicon, listing};
use crate::yaml;

/// The embedded scoring modes.
pub(crate) const MODES_YAML: &str = include_str!("../../data/score-modes.yaml");

/// How a game is scored: the VP of each tournament place, the money rate
/// and the cap on one player's Friendship cards.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ScoreMode {
    pub id: String,
    pub name: String,
    /// Millennium Dollars to one VP, rounded down.
    pub dollars_per_vp: u64,
    /// At most this many VP from one player's Friendship cards.
    pub friendship_cap: u64,
    pub tournaments: Vec<Tournament>,
}

/// One tournament and the VP of its places, first place first.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tournament {
    pub id: String,
    pub name: String,
    pub vp: Vec<u64>,
    /// Other names players give it (`round-3` for the final), suggested
    /// for it; not read as it.
    #[serde(default)]
    pub also: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ModesFile {
    // The anchor the modes share.
    #[allow(dead_code)]
    tournaments: Vec<Tournament>,
    modes: Vec<ScoreMode>,
}

fn parse_modes(text: &str) -> Result<Vec<ScoreMode>, String> {
    let doc = yaml::parse(text).map_err(|e| e.message)?;
    let file: ModesFile = serde_json::from_value(doc.to_json()).map_err(|e| e.to_string())?;
    Ok(file.modes)
}

/// Every scoring mode; the first is the default.
pub fn modes() -> &'static [ScoreMode] {
    static MODES: OnceLock<Vec<ScoreMode>> = OnceLock::new();
    MODES.get_or_init(|| parse_modes(MODES_YAML).expect("data/score-modes.yaml is valid"))
}

/// `blades score --format json`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct ScoreReport {
    pub file: String,
    /// The scoring mode's id.
    pub mode: String,
    /// Every player, in the order of the final ranking.
    pub players: Vec<PlayerScore>,
}

/// One player's score.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct PlayerScore {
    pub name: String,
    /// 1 for the winner; players tied on every tie-break share a rank.
    pub rank: usize,
    pub total: u64,
    pub tournament_vp: u64,
    pub collection_vp: u64,
    pub money_vp: u64,
    pub friendship_vp: u64,
    pub tournaments: Vec<TournamentScore>,
    pub collections: Vec<CollectionScore>,
    pub dollars: u64,
    pub friendship: Vec<FriendshipScore>,
}

/// A place in one tournament and what it scored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct TournamentScore {
    pub tournament: String,
    pub place: u64,
    /// Players who shared the place (1: no tie).
    pub tied: u64,
    pub vp: u64,
}

/// One collection scored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct CollectionScore {
    pub cards: u64,
    pub vp: u64,
}

/// The Friendship cards one other player gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct FriendshipScore {
    pub from: String,
    /// The VP printed on the cards.
    pub vp: u64,
    /// What counts: at most the mode's cap.
    pub counted: u64,
}

/// Reads, checks and scores a score sheet; every problem of the sheet
/// is in `out`, and nothing is scored when there is one.
pub fn score(file: &InputFile, out: &mut Vec<Diagnostic>) -> Option<ScoreReport> {
    let before = out.len();
    let doc = super::input::read_score(file, out);
    let mode = mode_of(&file.path, &doc, out);
    check_players(&file.path, &doc.players, out);
    // Modes share their tournaments: with an unknown mode the places are
    // still checked, against the default's.
    if let Some(checked) = mode.or(modes().first()) {
        check_placings(&file.path, checked, &doc.players, out);
    }
    check_collections(&file.path, &doc.players, out);
    let mode = mode?;
    if out[before..].iter().any(Diagnostic::is_error) {
        return None;
    }
    let ties = tournament_ties(mode, &doc.players);
    let mut players: Vec<PlayerScore> = doc
        .players
        .iter()
        .map(|p| player_score(mode, &ties, p))
        .collect();
    rank(&mut players);
    Some(ScoreReport {
        file: file.path.to_string(),
        mode: mode.id.clone(),
        players,
    })
}

/// The sheet's mode (the default when it names none).
fn mode_of(
    path: &Arc<str>,
    doc: &ScoreDoc,
    out: &mut Vec<Diagnostic>,
) -> Option<&'static ScoreMode> {
    let Some(named) = &doc.mode else {
        return modes().first();
    };
    if let Some(mode) = modes().iter().find(|m| m.id == named.value) {
        return Some(mode);
    }
    let ids: Vec<&str> = modes().iter().map(|m| m.id.as_str()).collect();
    out.push(
        Diagnostic::error(
            Code::UnknownMode,
            path,
            named.span.clone(),
            format!("no scoring mode is called `{}`", named.value),
        )
        .with_label("unknown mode")
        .with_help(did_you_mean(&named.value, &ids, "modes")),
    );
    None
}

/// "did you mean `x`? Modes: a, b".
fn did_you_mean(written: &str, known: &[&str], what: &str) -> String {
    did_you_mean_in(written, known, &Lexicon::new(known.iter().copied()), what)
}

/// [`did_you_mean`] with the known words made ready once, for a sheet's
/// many questions.
fn did_you_mean_in(written: &str, known: &[&str], lexicon: &Lexicon, what: &str) -> String {
    let list = listing(known);
    match lexicon.nearest(written, 1).first() {
        Some(best) => format!("did you mean `{best}`? {}: {list}", capitalized(what)),
        None => format!("{what}: {list}"),
    }
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Names are unique (folded for case); Friendship cards come from another
/// player of the sheet.
fn check_players(path: &Arc<str>, players: &[PlayerDoc], out: &mut Vec<Diagnostic>) {
    let mut first: HashMap<String, &Spanned<String>> = HashMap::new();
    for player in players {
        let key = fold(&player.name.value);
        match first.get(&key) {
            Some(earlier) => out.push(
                Diagnostic::error(
                    Code::DuplicatePlayer,
                    path,
                    player.name.span.clone(),
                    format!("`{}` is listed twice", player.name.value),
                )
                .with_label("listed again here")
                .with_related(path, earlier.span.clone(), "first listed here")
                .with_help("list each player once, with all their results"),
            ),
            None => {
                first.insert(key, &player.name);
            }
        }
    }
    let names: Vec<&str> = players.iter().map(|p| p.name.value.as_str()).collect();
    let lexicon = Lexicon::new(names.iter().copied());
    for player in players {
        for (giver, _) in &player.friendship {
            if fold(&giver.value) == fold(&player.name.value) {
                out.push(
                    Diagnostic::error(
                        Code::OwnFriendship,
                        path,
                        giver.span.clone(),
                        format!("`{}` cannot score their own Friendship cards", giver.value),
                    )
                    .with_label("their own")
                    .with_help("a Friendship card scores only for the player it was given to; remove this line"),
                );
            } else if !first.contains_key(&fold(&giver.value)) {
                out.push(
                    Diagnostic::error(
                        Code::UnknownPlayer,
                        path,
                        giver.span.clone(),
                        format!("no player of the sheet is called `{}`", giver.value),
                    )
                    .with_label("not a player")
                    .with_help(did_you_mean_in(
                        &giver.value,
                        &names,
                        &lexicon,
                        "players",
                    )),
                );
            }
        }
    }
}

/// Names compare without case or surrounding space.
fn fold(name: &str) -> String {
    name.trim().to_lowercase()
}

/// Each place is a tournament of the mode, between 1 and the number of
/// players (and the table's length), and not inside a tie above it: with
/// two players tied for 1st, the next place is 3rd.
fn check_placings(
    path: &Arc<str>,
    mode: &ScoreMode,
    players: &[PlayerDoc],
    out: &mut Vec<Diagnostic>,
) {
    let ids: Vec<&str> = mode.tournaments.iter().map(|t| t.id.as_str()).collect();
    let mut places: HashMap<&str, Vec<&Spanned<u64>>> = HashMap::new();
    for player in players {
        for (tournament, place) in &player.placings {
            match mode.tournaments.iter().find(|t| t.id == tournament.value) {
                Some(t) => places.entry(t.id.as_str()).or_default().push(place),
                None => out.push(
                    Diagnostic::error(
                        Code::UnknownTournament,
                        path,
                        tournament.span.clone(),
                        format!(
                            "the {} mode has no tournament `{}`",
                            mode.id, tournament.value
                        ),
                    )
                    .with_label("unknown tournament")
                    .with_help(tournament_help(mode, &tournament.value, &ids)),
                ),
            }
        }
    }
    for tournament in &mode.tournaments {
        let Some(placed) = places.get(tournament.id.as_str()) else {
            continue;
        };
        let last = (players.len() as u64).min(tournament.vp.len() as u64);
        let counts = ties(placed.iter().map(|p| p.value));
        let covered = covering_ties(&counts);
        let tied = |place: u64| counts.get(&place).copied().unwrap_or(0);
        for place in placed {
            if place.value == 0 || place.value > last {
                out.push(out_of_range(path, place, &tournament.name, last));
            } else if let Some(&tie) = covered.get(&place.value) {
                out.push(
                    Diagnostic::error(
                        Code::PlacingOutOfRange,
                        path,
                        place.span.clone(),
                        format!(
                            "{} place {} is taken by the {}-way tie for place {tie}",
                            tournament.name,
                            place.value,
                            tied(tie)
                        ),
                    )
                    .with_label("inside a tie")
                    .with_help(format!(
                        "players tied for place {tie} take the places up to {}; the next place is {}",
                        tie + tied(tie) - 1,
                        tie + tied(tie)
                    )),
                );
            } else if placed.len() == players.len()
                && let Some(due) = skipped_place(placed, place.value)
            {
                out.push(
                    Diagnostic::error(
                        Code::PlacingOutOfRange,
                        path,
                        place.span.clone(),
                        format!(
                            "{} place {} cannot be: every player is placed, and nobody is {}",
                            tournament.name,
                            place.value,
                            ordinal(due)
                        ),
                    )
                    .with_label(format!(
                        "{} placed above",
                        plural(due - 1, "player", "players")
                    ))
                    .with_help(format!(
                        "did you mean `{due}`? With {} above, this place is {due}",
                        plural(due - 1, "player", "players"),
                    )),
                );
            }
        }
    }
    check_tournament_count(path, players, out);
}

/// The place due instead of `place` when every player is placed and a
/// place above it is left empty (two players tied for 3rd of 3, nobody
/// 2nd): a place is one more than the players placed above it.
fn skipped_place(placed: &[&Spanned<u64>], place: u64) -> Option<u64> {
    let above = placed.iter().filter(|p| p.value < place).count() as u64;
    (place != above + 1).then_some(above + 1)
}

/// `1st`, `2nd`, `3rd`, `4th`.
fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Tournaments a game has (rulebook, "Pre-Release Tournament": with one,
/// "skip the third round of deckbuilding and the third tournament later on
/// in the game, so that there are still only three tournaments in the
/// game").
pub const TOURNAMENTS_PER_GAME: usize = 3;

/// The sheet names at most [`TOURNAMENTS_PER_GAME`] tournaments; each one
/// past them is refused where it is first named.
fn check_tournament_count(path: &Arc<str>, players: &[PlayerDoc], out: &mut Vec<Diagnostic>) {
    let mut named: Vec<&str> = Vec::new();
    for player in players {
        for (tournament, _) in &player.placings {
            if named.contains(&tournament.value.as_str()) {
                continue;
            }
            named.push(&tournament.value);
            if named.len() > TOURNAMENTS_PER_GAME {
                out.push(
                    Diagnostic::error(
                        Code::PlacingOutOfRange,
                        path,
                        tournament.span.clone(),
                        format!(
                            "`{}` is the sheet's {} tournament; a game has {TOURNAMENTS_PER_GAME}",
                            tournament.value,
                            ordinal(named.len() as u64)
                        ),
                    )
                    .with_label("one tournament too many")
                    .with_help(
                        "a game with a Pre-Release skips the third round, so there are still three tournaments: take out the one not played",
                    ),
                );
            }
        }
    }
}

/// "did you mean `final`?" for a tournament by another name (`round-3`),
/// else the nearest id.
fn tournament_help(mode: &ScoreMode, written: &str, ids: &[&str]) -> String {
    let folded = fold(written);
    match mode
        .tournaments
        .iter()
        .find(|t| t.also.iter().any(|a| fold(a) == folded))
    {
        Some(t) => format!(
            "did you mean `{}`? The {} is the game's last tournament. Tournaments: {}",
            t.id,
            t.name,
            listing(ids)
        ),
        None => did_you_mean(written, ids, "tournaments"),
    }
}

fn out_of_range(path: &Arc<str>, place: &Spanned<u64>, tournament: &str, last: u64) -> Diagnostic {
    Diagnostic::error(
        Code::PlacingOutOfRange,
        path,
        place.span.clone(),
        format!("{tournament} place {} is out of range", place.value),
    )
    .with_label(format!("not 1 to {last}"))
    .with_help(format!(
        "a place is 1 to {last} (the number of players, at most the places the tournament scores)"
    ))
}

/// How many players share each place (of one tournament).
fn ties(places: impl IntoIterator<Item = u64>) -> HashMap<u64, u64> {
    let mut counts = HashMap::new();
    for place in places {
        *counts.entry(place).or_insert(0) += 1;
    }
    counts
}

/// Each place inside a tie above it, with the place of the highest such
/// tie: `k` players tied for place `q` take the places up to `q + k - 1`.
/// One sweep of the places in order, the ties still reaching the place in
/// a heap by their own place (a tie once passed is never reached again).
fn covering_ties(counts: &HashMap<u64, u64>) -> HashMap<u64, u64> {
    let mut places: Vec<u64> = counts.keys().copied().collect();
    places.sort_unstable();
    let mut covered = HashMap::new();
    let mut reaching: BinaryHeap<Reverse<(u64, u64)>> = BinaryHeap::new(); // (place, last place taken)
    for place in places {
        while reaching
            .peek()
            .is_some_and(|Reverse((_, end))| *end < place)
        {
            reaching.pop();
        }
        if let Some(Reverse((tie, _))) = reaching.peek() {
            covered.insert(place, *tie);
        }
        let end = place.saturating_add(counts[&place] - 1);
        reaching.push(Reverse((place, end)));
    }
    covered
}

/// A collection holds 2 to 8 cards, and a player turns in at most one per
/// Deckbuilding Phase (rulebook, "Make your Collection": "You can only
/// build one collection per Deckbuilding Phase"): three in a game, two
/// when a Pre-Release took the place of the third round.
fn check_collections(path: &Arc<str>, players: &[PlayerDoc], out: &mut Vec<Diagnostic>) {
    let pre_release = players
        .iter()
        .flat_map(|p| &p.placings)
        .any(|(t, _)| t.value == "pre-release");
    let phases = if pre_release { 2 } else { 3 };
    for player in players {
        if let Some(extra) = player.collections.get(phases) {
            let why = match pre_release {
                true => "two Deckbuilding Phases (the Pre-Release took the third round's place)",
                false => "three Deckbuilding Phases",
            };
            out.push(
                Diagnostic::error(
                    Code::InvalidInput,
                    path,
                    extra.span.clone(),
                    format!(
                        "{} scores {} collections; a game has {phases}",
                        player.name.value,
                        player.collections.len()
                    ),
                )
                .with_label("one collection too many")
                .with_help(format!(
                    "a player turns in at most one collection per Deckbuilding Phase, and this game has {why}"
                )),
            );
        }
    }
    for player in players {
        for size in &player.collections {
            if collection::vp(size.value).is_none() {
                out.push(
                    Diagnostic::error(
                        Code::InvalidInput,
                        path,
                        size.span.clone(),
                        format!("a collection of {} scores nothing", plural(size.value, "card", "cards")),
                    )
                    .with_label("not 2 to 8")
                    .with_help("a collection holds 2 to 8 cards; write the number of cards of each collection scored"),
                );
            }
        }
    }
}

/// One player's score, the sheet checked.
/// Each tournament's ties (see [`ties`]), counted once for the sheet.
fn tournament_ties<'a>(
    mode: &'a ScoreMode,
    players: &[PlayerDoc],
) -> HashMap<&'a str, HashMap<u64, u64>> {
    mode.tournaments
        .iter()
        .map(|t| {
            let places = players.iter().filter_map(|p| {
                let (_, place) = p.placings.iter().find(|(id, _)| id.value == t.id)?;
                Some(place.value)
            });
            (t.id.as_str(), ties(places))
        })
        .collect()
}

fn player_score(
    mode: &ScoreMode,
    ties: &HashMap<&str, HashMap<u64, u64>>,
    player: &PlayerDoc,
) -> PlayerScore {
    let tournaments: Vec<TournamentScore> = mode
        .tournaments
        .iter()
        .filter_map(|t| {
            let (_, place) = player.placings.iter().find(|(id, _)| id.value == t.id)?;
            let tied = ties
                .get(t.id.as_str())
                .and_then(|counts| counts.get(&place.value))
                .copied()
                .unwrap_or(1);
            Some(TournamentScore {
                tournament: t.id.clone(),
                place: place.value,
                tied,
                vp: place_vp(&t.vp, place.value, tied),
            })
        })
        .collect();
    let collections: Vec<CollectionScore> = player
        .collections
        .iter()
        .map(|size| CollectionScore {
            cards: size.value,
            vp: collection::vp(size.value).unwrap_or(0),
        })
        .collect();
    let friendship: Vec<FriendshipScore> = player
        .friendship
        .iter()
        .map(|(giver, vp)| FriendshipScore {
            from: giver.value.clone(),
            vp: *vp,
            counted: (*vp).min(mode.friendship_cap),
        })
        .collect();
    let tournament_vp = tournaments.iter().map(|t| t.vp).sum();
    let collection_vp = collections.iter().map(|c| c.vp).sum();
    let money_vp = player.dollars / mode.dollars_per_vp.max(1);
    let friendship_vp = friendship.iter().map(|f| f.counted).sum();
    PlayerScore {
        name: player.name.value.clone(),
        rank: 0,
        total: tournament_vp + collection_vp + money_vp + friendship_vp,
        tournament_vp,
        collection_vp,
        money_vp,
        friendship_vp,
        tournaments,
        collections,
        dollars: player.dollars,
        friendship,
    }
}

/// VP of `place` shared by `tied` players: the tied places' VP added up and
/// divided among them, rounded down (places past the table score 0).
pub fn place_vp(table: &[u64], place: u64, tied: u64) -> u64 {
    let first = place.saturating_sub(1) as usize;
    let sum: u64 = (first..first + tied as usize)
        .map(|i| table.get(i).copied().unwrap_or(0))
        .sum();
    sum / tied.max(1)
}

/// What decides the ranking, best first: the total, then tournament VP,
/// collection VP, money VP and Friendship VP.
fn standing(p: &PlayerScore) -> [u64; 5] {
    [
        p.total,
        p.tournament_vp,
        p.collection_vp,
        p.money_vp,
        p.friendship_vp,
    ]
}

/// Orders players best first and gives each a rank; players equal on every
/// tie-break share one (1, 1, 3).
pub fn rank(players: &mut [PlayerScore]) {
    players.sort_by_key(|p| Reverse(standing(p)));
    for i in 0..players.len() {
        players[i].rank = match i {
            0 => 1,
            _ if standing(&players[i]) == standing(&players[i - 1]) => players[i - 1].rank,
            _ => i + 1,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_modes_read() {
        let ids: Vec<&str> = modes().iter().map(|m| m.id.as_str()).collect();
        assert_eq!(ids, ["standard", "liquidation"]);
        assert_eq!(modes()[1].dollars_per_vp, 8);
        assert_eq!(modes()[0].tournaments[3].vp, [42, 30, 24, 18, 12]);
    }

    /// The sweep finds what trying every tie above each place finds.
    #[test]
    fn covering_ties_are_the_highest_tie_reaching_each_place() {
        let sheets: [&[u64]; 5] = [
            &[1, 1, 1, 2, 2, 2, 2, 2, 4],
            &[1, 2, 2, 3, 4],
            &[2, 2, 2, 2, 2, 3, 5, 7, 7],
            &[1, 1, 1, 1, 1, 1, 1, 1, 9],
            &[3, 1, 3, 1, 2, 5, 5, 5, 5, 6],
        ];
        for places in sheets {
            let counts = ties(places.iter().copied());
            let slow = |place: u64| {
                places
                    .iter()
                    .copied()
                    .filter(|&other| other < place && other + counts[&other] > place)
                    .min()
            };
            let covered = covering_ties(&counts);
            for &place in places {
                assert_eq!(
                    covered.get(&place).copied(),
                    slow(place),
                    "{places:?} {place}"
                );
            }
        }
    }

    #[test]
    fn tied_places_share_their_vp_rounded_down() {
        let final_round = [42, 30, 24, 18, 12];
        assert_eq!(place_vp(&final_round, 1, 1), 42);
        // Two tied for 1st: (42 + 30) / 2.
        assert_eq!(place_vp(&final_round, 1, 2), 36);
        // Three tied for 2nd: (30 + 24 + 18) / 3.
        assert_eq!(place_vp(&final_round, 2, 3), 24);
        // Two tied for 4th: (18 + 12) / 2.
        assert_eq!(place_vp(&final_round, 4, 2), 15);
        // Rounded down: (7 + 5 + 4) / 3 = 5.33.
        assert_eq!(place_vp(&[7, 5, 4, 3, 2], 1, 3), 5);
    }
}
