//! Card references: finding a card of a [`Database`] from what a player
//! wrote (`Canyon Wyrm`, `canyon-wyrm`, `ｃａｎｙｏｎ  ＷＹＲＭ`).
//!
//! Every name goes through [`fold`]: Unicode NFKC, curly and straight
//! apostrophes alike, lowercase, no whitespace. A [`NameIndex`] maps folded
//! names from several sources (ids, English names, and later the Japanese
//! names of a translation, taken from the database) to what they name; [`CardIndex`] is one over the
//! cards of a database. The same index resolves characters and sets.

use std::sync::{Arc, OnceLock};

use std::hash::BuildHasher;

use foldhash::HashMap;
use hashbrown::HashTable;

use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfkc_quick};

use crate::model::{Card, Database};
use crate::suggest;
use crate::words::Id;

/// How many names an unknown reference suggests at most.
pub(crate) const SUGGESTIONS: usize = 3;

/// A name in comparable form: NFKC, every apostrophe-like character as `'`,
/// lowercase, whitespace and the Japanese middle dot (`・`, which separates
/// words of a katakana name as a space does) removed.
pub(crate) fn fold(text: &str) -> String {
    let mut folded = String::with_capacity(text.len());
    fold_into(text, &mut folded);
    folded
}

/// [`fold`] into `folded`, which is cleared first (a scan of every name
/// folds them all into one buffer).
fn fold_into(text: &str, folded: &mut String) {
    folded.clear();
    // Most names are in NFKC already (every ASCII name is), and normalising
    // them changes nothing: the check is much cheaper than the
    // normalisation, and a deck check folds every name of the pool.
    if text.is_ascii() {
        // Byte by byte: most names are ASCII.
        let kept = text.bytes().filter(|&b| !char::from(b).is_whitespace());
        folded.extend(kept.map(|b| match b {
            b'`' => '\'',
            b => char::from(b.to_ascii_lowercase()),
        }));
    } else if text.chars().all(is_stable_letter) || is_nfkc_quick(text.chars()) == IsNormalized::Yes
    {
        fold_normalized(text.chars(), folded);
    } else {
        fold_normalized(text.nfkc(), folded);
    }
}

/// Characters NFKC leaves as they are, whatever stands around them when
/// every character around is one of them too: ASCII, kana (not the
/// combining, spacing or digraph sound marks) and the unified ideographs;
/// the letters of Japanese names, checked without the normalisation
/// tables.
fn is_stable_letter(c: char) -> bool {
    matches!(c, '\0'..='\u{7F}' | '\u{3041}'..='\u{3096}' | '\u{30A1}'..='\u{30FA}' | '\u{30FC}' | '\u{4E00}'..='\u{9FFF}')
}

/// The folding of [`fold`] after NFKC.
fn fold_normalized(chars: impl Iterator<Item = char>, folded: &mut String) {
    for c in chars {
        if c.is_whitespace() || c == '\u{30FB}' {
            continue;
        }
        match c {
            // Curly, modifier and prime apostrophes, and the grave and acute
            // accents people type for them.
            '\u{2018}' | '\u{2019}' | '\u{201B}' | '\u{02BC}' | '\u{2032}' | '`' | '\u{00B4}' => {
                folded.push('\'')
            }
            c if c.is_ascii() => folded.push(c.to_ascii_lowercase()),
            c => folded.extend(c.to_lowercase()),
        }
    }
}

/// A name as [`designates`] compares it: trimmed, in lowercase.
pub fn wanted(name: &str) -> String {
    name.trim().to_lowercase()
}

/// Whether a card with this id, English name and translated names is the
/// one `wanted` ([`wanted`]) designates: its id, or a name in any language
/// but for case (`card show`, the translation tools).
pub fn designates<'n>(
    wanted: &str,
    id: &str,
    name: &str,
    mut translated: impl Iterator<Item = &'n str>,
) -> bool {
    id == wanted || lowercase_is(name, wanted) || translated.any(|name| lowercase_is(name, wanted))
}

/// `text.to_lowercase() == lowercase`, without making the lowercase text
/// (a look-up compares every card's names, in every language). Only a
/// capital sigma lowers by what stands around it; elsewhere each character
/// lowers on its own, and the comparison stops at the first difference.
fn lowercase_is(text: &str, lowercase: &str) -> bool {
    if text.is_ascii() && lowercase.is_ascii() {
        text.len() == lowercase.len()
            && (text.bytes().zip(lowercase.bytes())).all(|(a, b)| a.to_ascii_lowercase() == b)
    } else if text.contains('\u{3A3}') {
        text.to_lowercase() == lowercase
    } else {
        text.chars()
            .flat_map(char::to_lowercase)
            .eq(lowercase.chars())
    }
}

/// Where a name comes from; an earlier source wins when two targets fold to
/// the same name (an id beats somebody else's name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NameSource {
    Id,
    English,
    /// A translated name, in any language.
    Translation,
}

/// The card references a player check will resolve, each with its
/// readings (`2 Canyon Wyrm` is also read as two of `Canyon Wyrm`), folded
/// as a [`NameIndex`] folds them: what a scan of a pool's names looks for,
/// so that a check needs only the cards its input names.
#[derive(Debug, Clone, Default)]
pub struct Sought {
    /// Each folded name looked for, and its number.
    keys: HashMap<String, usize>,
    /// Each id tag looked for (`%1a2b3c4d`), and its number.
    tags: HashMap<u32, usize>,
    /// The numbers of each reference's readings.
    references: Vec<Vec<usize>>,
}

impl Sought {
    /// Adds a reference read in each of `readings` (an id tag is read as a
    /// tag only, as [`CardIndex::resolve`] reads it; a name that folds to
    /// nothing names nothing).
    pub fn add<S: AsRef<str>>(&mut self, readings: impl IntoIterator<Item = S>) {
        let mut numbers = Vec::new();
        for reading in readings {
            let reading = reading.as_ref();
            let next = self.keys.len() + self.tags.len();
            let number = match parse_tag(reading) {
                Some(tag) => *self.tags.entry(tag).or_insert(next),
                None => match fold(reading) {
                    key if key.is_empty() => continue,
                    key => *self.keys.entry(key).or_insert(next),
                },
            };
            numbers.push(number);
        }
        self.references.push(numbers);
    }

    /// How many readings are looked for: the length of a scan's `found`.
    pub fn readings(&self) -> usize {
        self.keys.len() + self.tags.len()
    }

    /// Whether a card with this id and these names answers to a reading,
    /// each reading it answers to marked in `found`; `buffer` is for
    /// folding.
    pub fn answers<'n>(
        &self,
        id: &str,
        names: impl IntoIterator<Item = &'n str>,
        found: &mut [bool],
        buffer: &mut String,
    ) -> bool {
        let mut answers = false;
        let mut mark = |number: Option<&usize>| {
            if let Some(&number) = number {
                found[number] = true;
                answers = true;
            }
        };
        if !self.tags.is_empty() {
            mark(self.tags.get(&id_tag(id)));
        }
        fold_into(id, buffer);
        mark(self.keys.get(buffer.as_str()));
        for name in names {
            fold_into(name, buffer);
            mark(self.keys.get(buffer.as_str()));
        }
        answers
    }

    /// Whether every reference has a reading some card answers to.
    pub fn all_found(&self, found: &[bool]) -> bool {
        (self.references.iter()).all(|readings| readings.iter().any(|&n| found[n]))
    }
}

/// Why a reference did not resolve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LookupError {
    /// Nothing has that name; the closest known names, nearest first.
    Unknown { suggestions: Vec<String> },
    /// Several things share that name from the same source (two different
    /// cards whose names only differ in case or spacing); their targets.
    Ambiguous { targets: Vec<usize> },
}

/// One folded name of a [`NameIndex`]: where it is in the index's text,
/// the source that holds it, and what it names. 20 bytes: a 100,000-card
/// pool has 300,000 names, and a server keeps their index for its life.
#[derive(Debug, Clone)]
struct Slot {
    /// The folded name: `folded[start..end]`.
    start: u32,
    end: u32,
    source: NameSource,
    /// The first target; almost always the only one.
    first: u32,
    /// The place in `more` of the further targets, when there are some
    /// (`NONE` when not).
    more: u32,
}

/// No place: a slot with a single target.
const NONE: u32 = u32::MAX;

/// Folded names → targets (indices into whatever the caller indexes).
///
/// Held in a few flat vectors (positions as `u32`) rather than a string
/// and a map entry per name: at 100,000 cards a map of boxed names held
/// about 48 MiB, and this about a third of that (docs/decisions.md,
/// "What the server holds", part 10).
#[derive(Clone, Default)]
pub struct NameIndex {
    /// Every folded name once, one after another, in the order first added.
    folded: String,
    /// Each folded name, in the same order, with its targets.
    slots: Vec<Slot>,
    /// `slots` by folded name: each place, hashed as its name.
    table: HashTable<u32>,
    hasher: foldhash::fast::RandomState,
    /// The targets of slots that name more than one, past their first.
    more: Vec<Vec<u32>>,
    /// (place of the folded name in `slots`, target) of every name added,
    /// in order, for suggestions.
    keys: Vec<(u32, u32)>,
    /// The name each target is shown by in suggestions (its first name that
    /// is not an id, else its id), by target: its source and where it is
    /// in `shown_names`.
    shown: Vec<Option<(NameSource, u32, u32)>>,
    shown_names: String,
}

/// The hash of the folded name at a place in `slots`, as the table moves
/// its entries (its fields, not the index: the table is borrowed apart).
fn slot_hash<'a>(
    folded: &'a str,
    slots: &'a [Slot],
    hasher: &'a foldhash::fast::RandomState,
) -> impl Fn(&u32) -> u64 + 'a {
    move |&place| {
        let slot = &slots[place as usize];
        hasher.hash_one(&folded[slot.start as usize..slot.end as usize])
    }
}

impl std::fmt::Debug for NameIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names = (self.slots.iter()).map(|slot| {
            (
                self.text(slot),
                slot.source,
                self.targets(slot).collect::<Vec<_>>(),
            )
        });
        f.debug_list().entries(names).finish()
    }
}

impl NameIndex {
    pub fn new() -> Self {
        NameIndex::default()
    }

    /// Adds one name of `target`. Names that fold to an existing name of
    /// another target: the earlier source wins; the same source makes the
    /// name ambiguous. A name or target past what a `u32` counts (four
    /// gigabytes of names) is not added.
    pub fn insert(&mut self, name: &str, source: NameSource, target: usize) {
        let key = fold(name);
        let Ok(target) = u32::try_from(target) else {
            return;
        };
        if key.is_empty() || self.folded.len() + key.len() > NONE as usize {
            return;
        }
        self.show(target, source, name);
        let place = match self.place(&key) {
            None => self.add_slot(&key, source, target),
            Some(place) => {
                self.add_target(place, source, target);
                place
            }
        };
        self.keys.push((place, target));
    }

    /// Keeps `name` as what `target` is shown by, unless it has a name
    /// already that is not an id.
    fn show(&mut self, target: u32, source: NameSource, name: &str) {
        let at = target as usize;
        if self.shown.len() <= at {
            self.shown.resize(at + 1, None);
        }
        let replace = match self.shown[at] {
            None => true,
            Some((was, _, _)) => was == NameSource::Id && source != NameSource::Id,
        };
        if replace && self.shown_names.len() + name.len() <= NONE as usize {
            let start = self.shown_names.len() as u32;
            self.shown_names.push_str(name);
            self.shown[at] = Some((source, start, self.shown_names.len() as u32));
        }
    }

    /// A new slot for a folded name no earlier name had: its place.
    fn add_slot(&mut self, key: &str, source: NameSource, target: u32) -> u32 {
        let place = self.slots.len() as u32;
        let start = self.folded.len() as u32;
        self.folded.push_str(key);
        self.slots.push(Slot {
            start,
            end: self.folded.len() as u32,
            source,
            first: target,
            more: NONE,
        });
        let hash = self.hasher.hash_one(key);
        let rehash = slot_hash(&self.folded, &self.slots, &self.hasher);
        self.table.insert_unique(hash, place, rehash);
        place
    }

    /// Another name folding to the slot at `place`: the earlier source
    /// wins, the same source adds its target.
    fn add_target(&mut self, place: u32, source: NameSource, target: u32) {
        let slot = &self.slots[place as usize];
        if self.targets(slot).any(|t| t == target) {
            let slot = &mut self.slots[place as usize];
            slot.source = slot.source.min(source);
        } else if source < slot.source {
            if slot.more != NONE {
                self.more[slot.more as usize] = Vec::new();
            }
            let slot = &mut self.slots[place as usize];
            (slot.source, slot.first, slot.more) = (source, target, NONE);
        } else if source == slot.source {
            match slot.more {
                NONE => {
                    self.slots[place as usize].more = self.more.len() as u32;
                    self.more.push(vec![target]);
                }
                more => self.more[more as usize].push(target),
            }
        }
    }

    /// Gives back the room the names grew into: for an index that is
    /// complete and kept (a pool's cards, asked thousands of times).
    pub fn shrink_to_fit(&mut self) {
        self.folded.shrink_to_fit();
        self.slots.shrink_to_fit();
        let rehash = slot_hash(&self.folded, &self.slots, &self.hasher);
        self.table.shrink_to_fit(rehash);
        self.more.shrink_to_fit();
        self.keys.shrink_to_fit();
        self.shown.shrink_to_fit();
        self.shown_names.shrink_to_fit();
    }

    /// The folded name of a slot.
    fn text(&self, slot: &Slot) -> &str {
        &self.folded[slot.start as usize..slot.end as usize]
    }

    /// The targets of a slot, the first first.
    fn targets(&self, slot: &Slot) -> impl Iterator<Item = u32> {
        let more = match slot.more {
            NONE => &[][..],
            more => &self.more[more as usize][..],
        };
        std::iter::once(slot.first).chain(more.iter().copied())
    }

    /// The place of a folded name in `slots`.
    fn place(&self, key: &str) -> Option<u32> {
        let hash = self.hasher.hash_one(key);
        let found = self
            .table
            .find(hash, |&p| self.text(&self.slots[p as usize]) == key);
        found.copied()
    }

    /// The slot of a folded name.
    fn slot(&self, key: &str) -> Option<&Slot> {
        self.place(key).map(|place| &self.slots[place as usize])
    }

    /// The one target of a slot, or the ambiguity of several.
    fn resolved(&self, slot: &Slot) -> Result<usize, LookupError> {
        match slot.more {
            NONE => Ok(slot.first as usize),
            _ => Err(LookupError::Ambiguous {
                targets: self.targets(slot).map(|t| t as usize).collect(),
            }),
        }
    }

    /// The target a reference names.
    pub fn resolve(&self, reference: &str) -> Result<usize, LookupError> {
        let key = fold(reference);
        match self.slot(&key) {
            Some(slot) => self.resolved(slot),
            None => Err(LookupError::Unknown {
                suggestions: self.suggest(&key),
            }),
        }
    }

    /// [`NameIndex::resolve`] without looking for suggestions when no
    /// target has the name (`Unknown` then holds none): for a caller that
    /// may read the reference another way before it reports it.
    pub fn resolve_plain(&self, reference: &str) -> Result<usize, LookupError> {
        match self.slot(&fold(reference)) {
            Some(slot) => self.resolved(slot),
            None => Err(LookupError::Unknown {
                suggestions: Vec::new(),
            }),
        }
    }

    /// The names closest to a reference no target has, nearest first.
    pub fn suggestions(&self, reference: &str) -> Vec<String> {
        self.suggest(&fold(reference))
    }

    /// The one target a reference names, if one does, without looking for
    /// suggestions when none does (an editor asks about every word it
    /// hovers; a suggestion costs a search of every name).
    pub fn find(&self, reference: &str) -> Option<usize> {
        let slot = self.slot(&fold(reference))?;
        (slot.more == NONE).then_some(slot.first as usize)
    }

    /// The names of the targets whose names are closest to a folded
    /// reference, nearest first. The folded names are asked as they are
    /// ([`suggest::nearest_lowercase_until`], until they show enough
    /// names): nothing is kept for the next question (a
    /// [`crate::suggest::Lexicon`] of a 100,000-card pool's names held 80
    /// MiB for as long as a server ran).
    fn suggest(&self, key: &str) -> Vec<String> {
        let names = self.slots.iter().map(|slot| self.text(slot));
        let close = suggest::nearest_lowercase_until(key, names, |near| self.shows_enough(near));
        let mut out: Vec<String> = Vec::new();
        for k in close {
            let place = self.place(k);
            for (_, target) in self.keys.iter().filter(|(p, _)| Some(*p) == place) {
                if let Some(name) = self.shown(*target as usize)
                    && !out.iter().any(|shown| shown == name)
                {
                    out.push(name.to_string());
                }
            }
            if out.len() >= SUGGESTIONS {
                break;
            }
        }
        out.truncate(SUGGESTIONS);
        out
    }

    /// How many of the folded names `near` show [`SUGGESTIONS`] different
    /// names through their slots' targets (the names other sources
    /// gave them can only add more).
    fn shows_enough(&self, near: &[&str]) -> Option<usize> {
        let mut shown: Vec<&str> = Vec::new();
        for (i, key) in near.iter().enumerate() {
            let slot = &self.slots[self.place(key)? as usize];
            for target in self.targets(slot) {
                if let Some(name) = self.shown(target as usize)
                    && !shown.contains(&name)
                {
                    shown.push(name);
                }
            }
            if shown.len() >= SUGGESTIONS {
                return Some(i + 1);
            }
        }
        None
    }

    /// The name a target is shown by.
    pub fn shown(&self, target: usize) -> Option<&str> {
        let (_, start, end) = (*self.shown.get(target)?)?;
        Some(&self.shown_names[start as usize..end as usize])
    }
}

/// The cards of a database by id and name.
#[derive(Debug, Clone)]
pub struct CardIndex<'a> {
    database: &'a Database,
    /// Shared, so that an index of the same database is made again at no
    /// cost ([`CardIndex::with_names`]: an editor checks a deck per keystroke).
    names: Arc<NameIndex>,
    /// Made at the first look-up by id.
    by_id: OnceLock<HashMap<&'a str, usize>>,
}

impl<'a> CardIndex<'a> {
    /// Indexes ids and English names.
    pub fn new(database: &'a Database) -> Self {
        let mut names = NameIndex::new();
        for (i, card) in database.cards.iter().enumerate() {
            names.insert(&card.id.0, NameSource::Id, i);
        }
        for (i, card) in database.cards.iter().enumerate() {
            names.insert(&card.name, NameSource::English, i);
        }
        // Translated names (Japanese, …) from the database's locale data.
        for (i, card) in database.cards.iter().enumerate() {
            for translation in card.translations.values() {
                if let Some(name) = &translation.name {
                    names.insert(name, NameSource::Translation, i);
                }
            }
        }
        names.shrink_to_fit();
        CardIndex::with_names(database, Arc::new(names))
    }

    /// The index of `database` with the names an earlier index of the same
    /// database made ([`CardIndex::names`]): no name is folded again.
    pub fn with_names(database: &'a Database, names: Arc<NameIndex>) -> Self {
        CardIndex {
            database,
            names,
            by_id: OnceLock::new(),
        }
    }

    /// The index's names, to make it again with [`CardIndex::with_names`].
    pub fn names(&self) -> Arc<NameIndex> {
        self.names.clone()
    }

    fn ids(&self) -> &HashMap<&'a str, usize> {
        self.by_id.get_or_init(|| {
            let cards = self.database.cards.iter().enumerate();
            cards.map(|(i, card)| (card.id.0.as_str(), i)).collect()
        })
    }

    /// Adds names from another source, e.g. a translation's `(card id, name)`
    /// pairs; names of unknown ids are ignored.
    pub fn add_names<'n>(
        &mut self,
        source: NameSource,
        names: impl IntoIterator<Item = (&'n Id, &'n str)>,
    ) {
        for (id, name) in names {
            if let Some(&i) = self.ids().get(id.0.as_str()) {
                Arc::make_mut(&mut self.names).insert(name, source, i);
            }
        }
    }

    pub fn database(&self) -> &'a Database {
        self.database
    }

    /// The card a reference names, by its index in `database.cards`: an
    /// id, a name in any language, or an id tag (`%1a2b3c4d`, as share codes
    /// write cards).
    pub fn resolve(&self, reference: &str) -> Result<usize, LookupError> {
        match parse_tag(reference) {
            Some(tag) => self.resolve_tag(tag),
            None => self.names.resolve(reference),
        }
    }

    /// [`CardIndex::resolve`] without suggestions for an unknown name
    /// ([`NameIndex::resolve_plain`]).
    pub fn resolve_plain(&self, reference: &str) -> Result<usize, LookupError> {
        match parse_tag(reference) {
            Some(tag) => self.resolve_tag(tag),
            None => self.names.resolve_plain(reference),
        }
    }

    /// The names closest to a reference no card has (none for an id tag).
    pub fn suggestions(&self, reference: &str) -> Vec<String> {
        match parse_tag(reference) {
            Some(_) => Vec::new(),
            None => self.names.suggestions(reference),
        }
    }

    /// The one card whose id has this tag (a linear scan: a share code
    /// names a handful of cards).
    fn resolve_tag(&self, tag: u32) -> Result<usize, LookupError> {
        let targets: Vec<usize> = (0..self.database.cards.len())
            .filter(|&i| id_tag(&self.database.cards[i].id.0) == tag)
            .collect();
        match targets[..] {
            [one] => Ok(one),
            [] => Err(LookupError::Unknown {
                suggestions: Vec::new(),
            }),
            _ => Err(LookupError::Ambiguous { targets }),
        }
    }

    pub fn card(&self, index: usize) -> &'a Card {
        &self.database.cards[index]
    }

    /// A card by exact id.
    pub fn by_id(&self, id: &str) -> Option<&'a Card> {
        self.ids().get(id).map(|&i| &self.database.cards[i])
    }
}

/// A card id's tag: 32 bits of its hash, how a share code names a card in
/// four bytes. Stable as long as the id is.
pub fn id_tag(id: &str) -> u32 {
    xxhash_rust::xxh3::xxh3_64(id.as_bytes()) as u32
}

/// `%` and eight hex digits: an id tag written as text (`#` starts a comment in a list).
pub fn parse_tag(reference: &str) -> Option<u32> {
    let hex = reference.trim().strip_prefix('%')?;
    (hex.len() == 8).then(|| u32::from_str_radix(hex, 16).ok())?
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::{CardKind, Element, SetKind};

    /// `find` names what `resolve` names, and nothing where `resolve`
    /// finds nothing or too much.
    #[test]
    fn find_agrees_with_resolve() {
        let mut names = NameIndex::new();
        names.insert("canyon-wyrm", NameSource::Id, 0);
        names.insert("Canyon Wyrm", NameSource::English, 0);
        names.insert("Twin", NameSource::English, 1);
        names.insert("twin", NameSource::English, 2);
        for reference in [
            "canyon-wyrm",
            "ｃａｎｙｏｎ  ＷＹＲＭ",
            "twin",
            "canyon wyrn",
            "",
        ] {
            assert_eq!(
                names.find(reference),
                names.resolve(reference).ok(),
                "{reference}"
            );
        }
        assert_eq!(names.find("Canyon Wyrm"), Some(0));
        assert_eq!(names.find("twin"), None);
    }

    fn card(id: &str, name: &str) -> Card {
        Card {
            id: Id(id.into()),
            name: name.into(),
            set: Id("s".into()),
            kind: CardKind::Single,
            stars: Some(1),
            elements: vec![Element::Fire],
            types: Vec::new(),
            rarity: SetKind::Expansion,
            copies: 1,
            ..Card::new("", "", "", CardKind::Single, 1)
        }
    }

    fn database() -> Database {
        Database {
            keywords: None,
            format: 1,
            sets: Vec::new(),
            cards: vec![
                card("canyon-wyrm", "Canyon Wyrm"),
                card("wyrms-hoard", "Wyrm's Hoard"),
                card("dust-devil", "Dust Devil"),
            ],
        }
    }

    #[test]
    fn folding_ignores_case_space_width_and_apostrophes() {
        assert_eq!(fold("  Canyon   WYRM "), "canyonwyrm");
        assert_eq!(fold("Ｃａｎｙｏｎ\u{3000}Ｗｙｒｍ"), "canyonwyrm");
        assert_eq!(fold("Wyrm\u{2019}s Hoard"), fold("wyrm's hoard"));
        assert_eq!(fold("Wyrm＇s Hoard"), fold("wyrm's hoard"));
        // NFKC joins a decomposed accent.
        assert_eq!(fold("Cafe\u{301}"), fold("Café"));
    }

    /// The folding as first written: every name normalised.
    fn fold_by_definition(text: &str) -> String {
        text.nfkc()
            .filter(|c| !c.is_whitespace() && *c != '\u{30FB}')
            .map(|c| match c {
                '\u{2018}' | '\u{2019}' | '\u{201B}' | '\u{02BC}' | '\u{2032}' | '`'
                | '\u{00B4}' => '\'',
                other => other,
            })
            .flat_map(char::to_lowercase)
            .collect()
    }

    /// Every character [`fold`] takes as NFKC without the tables is one
    /// NFKC keeps, and none of them combines with what stands before it, so
    /// a name made only of them is in NFKC.
    #[test]
    fn stable_letters_are_stable() {
        let stable = (0..=0x10FFFF)
            .filter_map(char::from_u32)
            .filter(|&c| is_stable_letter(c));
        for c in stable {
            let text = c.to_string();
            assert_eq!(text.nfkc().collect::<String>(), text, "{c:?}");
            assert_eq!(
                unicode_normalization::char::canonical_combining_class(c),
                0,
                "{c:?}"
            );
            assert_eq!(is_nfkc_quick(text.chars()), IsNormalized::Yes, "{c:?}");
        }
    }

    proptest::proptest! {
        /// Skipping the normalisation of names already in NFKC folds every
        /// name as normalising all of them does.
        #[test]
        fn folding_skips_nothing_it_needs(
            text in "[a-zA-Z0-9 \t\u{b}'`´’ＡｂﾞｶｹﾞケﾞカﾞがÉé\u{301}\u{3000}・ſK\u{130}İΣσﬁ①㌔\u{3040}-\u{30FF}\u{4E00}-\u{4E08}\u{9FF8}-\u{9FFF}\u{F900}-\u{F904}]{0,10}",
            any in proptest::prelude::any::<String>(),
        ) {
            proptest::prop_assert_eq!(fold(&text), fold_by_definition(&text));
            proptest::prop_assert_eq!(fold(&any), fold_by_definition(&any));
        }
    }

    #[test]
    fn resolves_ids_names_and_variants() {
        let db = database();
        let index = CardIndex::new(&db);
        assert_eq!(index.resolve("canyon-wyrm"), Ok(0));
        assert_eq!(index.resolve("canyon wyrm"), Ok(0));
        assert_eq!(index.resolve("Wyrm’s Hoard"), Ok(1));
        assert_eq!(index.resolve("DUST DEVIL"), Ok(2));
    }

    #[test]
    fn unknown_names_suggest_the_closest() {
        let db = database();
        let index = CardIndex::new(&db);
        match index.resolve("Canyon Wyrn") {
            Err(LookupError::Unknown { suggestions }) => {
                assert_eq!(suggestions, ["Canyon Wyrm"]);
            }
            other => panic!("{other:?}"),
        }
        match index.resolve("zzzzzzzz") {
            Err(LookupError::Unknown { suggestions }) => assert!(suggestions.is_empty()),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn another_name_source_can_be_added() {
        let db = database();
        let mut index = CardIndex::new(&db);
        let id = Id("canyon-wyrm".into());
        index.add_names(NameSource::Translation, [(&id, "峡谷のワーム")]);
        assert_eq!(index.resolve("峡谷の ワーム"), Ok(0));
    }

    /// The index as first written, a map of folded names with a vector of
    /// targets each: what the compact [`NameIndex`] must answer.
    #[derive(Default)]
    struct PlainNames {
        slots: Vec<(String, NameSource, Vec<usize>)>,
        keys: Vec<(usize, usize)>,
        shown: std::collections::HashMap<usize, (NameSource, String)>,
    }

    impl PlainNames {
        fn insert(&mut self, name: &str, source: NameSource, target: usize) {
            let key = fold(name);
            if key.is_empty() {
                return;
            }
            let shown = (self.shown)
                .entry(target)
                .or_insert_with(|| (source, name.to_string()));
            if shown.0 == NameSource::Id && source != NameSource::Id {
                *shown = (source, name.to_string());
            }
            let place = match self.slots.iter().position(|(k, _, _)| *k == key) {
                None => {
                    self.slots.push((key, source, vec![target]));
                    self.slots.len() - 1
                }
                Some(place) => {
                    let slot = &mut self.slots[place];
                    if slot.2.contains(&target) {
                        slot.1 = slot.1.min(source);
                    } else if source < slot.1 {
                        (slot.1, slot.2) = (source, vec![target]);
                    } else if source == slot.1 {
                        slot.2.push(target);
                    }
                    place
                }
            };
            self.keys.push((place, target));
        }

        fn resolve(&self, reference: &str) -> Result<usize, LookupError> {
            let key = fold(reference);
            match self.slots.iter().find(|(k, _, _)| *k == key) {
                Some((_, _, targets)) if targets.len() == 1 => Ok(targets[0]),
                Some((_, _, targets)) => Err(LookupError::Ambiguous {
                    targets: targets.clone(),
                }),
                None => Err(LookupError::Unknown {
                    suggestions: self.suggest(&key),
                }),
            }
        }

        /// Suggestions as a [`Lexicon`](crate::suggest::Lexicon) of every
        /// name added, in order, made them.
        fn suggest(&self, key: &str) -> Vec<String> {
            let words = self
                .keys
                .iter()
                .map(|&(place, _)| self.slots[place].0.as_str());
            let lexicon = suggest::Lexicon::new(words);
            let mut out: Vec<String> = Vec::new();
            for k in lexicon.nearest(key, usize::MAX) {
                let place = self.slots.iter().position(|(w, _, _)| w == k);
                for (_, target) in self.keys.iter().filter(|(p, _)| Some(*p) == place) {
                    if let Some((_, name)) = self.shown.get(target)
                        && !out.contains(name)
                    {
                        out.push(name.clone());
                    }
                }
                if out.len() >= SUGGESTIONS {
                    break;
                }
            }
            out.truncate(SUGGESTIONS);
            out
        }
    }

    fn name_source() -> impl proptest::strategy::Strategy<Value = NameSource> {
        proptest::prop_oneof![
            proptest::strategy::Just(NameSource::Id),
            proptest::strategy::Just(NameSource::English),
            proptest::strategy::Just(NameSource::Translation),
        ]
    }

    proptest::proptest! {
        /// The compact index resolves, finds, suggests and shows as the
        /// plain one does, whatever names are added in whatever order
        /// (few letters, so that names collide, fold together and come
        /// close).
        #[test]
        fn the_compact_index_answers_as_the_plain_one(
            added in proptest::collection::vec(("[abcAB -]{0,5}", name_source(), 0usize..6), 0..24),
            asked in proptest::collection::vec("[abcdAB -]{0,6}", 1..6),
        ) {
            let mut compact = NameIndex::new();
            let mut plain = PlainNames::default();
            for (name, source, target) in &added {
                compact.insert(name, *source, *target);
                plain.insert(name, *source, *target);
            }
            compact.shrink_to_fit();
            for reference in &asked {
                let expected = plain.resolve(reference);
                proptest::prop_assert_eq!(compact.resolve(reference), expected.clone());
                proptest::prop_assert_eq!(compact.find(reference), expected.ok());
            }
            for target in 0..6 {
                let expected = plain.shown.get(&target).map(|(_, name)| name.as_str());
                proptest::prop_assert_eq!(compact.shown(target), expected);
            }
        }
    }

    proptest::proptest! {
        /// Comparing as characters lower is comparing the lowered texts.
        #[test]
        fn lowercase_is_comparing_lowercase_texts(
            text in "[aAΣσςİKé日 ]{0,6}",
            other in "[aAΣσςİKé日 ]{0,6}",
        ) {
            proptest::prop_assert_eq!(lowercase_is(&text, &text.to_lowercase()), true);
            let lowered = other.to_lowercase();
            proptest::prop_assert_eq!(lowercase_is(&text, &lowered), text.to_lowercase() == lowered);
        }
    }

    /// Folded names are in lowercase already: [`suggest::nearest_lowercase_until`]
    /// may take them as they are.
    #[test]
    fn lowercase_is_lowercase_again() {
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let lower: String = c.to_lowercase().collect();
            assert_eq!(lower.to_lowercase(), lower, "{c:?}");
        }
    }

    #[test]
    fn ids_win_over_names_and_equal_names_are_ambiguous() {
        let mut names = NameIndex::new();
        names.insert("fire-drake", NameSource::Id, 0);
        names.insert("Fire-Drake", NameSource::English, 1);
        assert_eq!(names.resolve("fire-drake"), Ok(0));
        names.insert("Twin", NameSource::English, 2);
        names.insert("twin", NameSource::English, 3);
        assert_eq!(
            names.resolve("TWIN"),
            Err(LookupError::Ambiguous {
                targets: vec![2, 3]
            })
        );
    }
}
