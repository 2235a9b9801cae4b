//! `blades diff OLD NEW`: what changed between two releases of a card pool,
//! each change classified by what it means for play.
//!
//! Either side is a pool folder (built here, through
//! [`Workspace`]) or a built database (`dist/cards.json`). Cards are
//! matched by id. A card may fall in several classes ([`ChangeClass`]):
//! added, removed, renamed (same id, new English name); stats (STAR,
//! symbols, kind, set, rarity, copies); functional errata (the parsed
//! effect tree changed); wording (the printed English changed, the tree
//! did not); translation (a translated text changed while the tree did not);
//! flavor (the English flavor text changed).
//!
//! An effect rewritten without changing its tree or its printed text (a
//! reflowed block, canonical spacing) is no change at all.
//!
//! When the new card keeps an errata history (`errata:` in its set file),
//! a functional change whose old text is in it carries that entry (the
//! release the old text was used until, and the note).

use std::borrow::Cow;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use foldhash::{HashMap, HashSet};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::value::RawValue;

use crate::artifacts::{DatabaseFile, open_database};
use crate::diagnostics::{Code, Diagnostic, Sources};
use crate::effect::{self, Effect};
use crate::i18n::SOURCE_LANG;
use crate::i18n::glossary::Glossary;
use crate::model::{Card, DATABASE_FORMAT, Database, Errata};
use crate::words::Id;
use crate::workspace::{Findings, Workspace};

/// What a change to a card means. A card may have several.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ChangeClass {
    /// A card the old release did not have.
    Added,
    /// A card the new release does not have.
    Removed,
    /// The same id with a new English name.
    Renamed,
    /// STAR, elements, types, kind, set, rarity or copies.
    Stats,
    /// The effect's parsed tree changed: the card plays differently.
    Functional,
    /// The printed English effect changed while the tree did not.
    Wording,
    /// A translated name, flavor or effect changed (the tree did not).
    Translation,
    /// The English flavor text changed.
    Flavor,
}

impl ChangeClass {
    pub const ALL: [ChangeClass; 8] = [
        ChangeClass::Added,
        ChangeClass::Removed,
        ChangeClass::Renamed,
        ChangeClass::Stats,
        ChangeClass::Functional,
        ChangeClass::Wording,
        ChangeClass::Translation,
        ChangeClass::Flavor,
    ];

    /// The class's name in JSON and on the command line (`--fail-on`).
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeClass::Added => "added",
            ChangeClass::Removed => "removed",
            ChangeClass::Renamed => "renamed",
            ChangeClass::Stats => "stats",
            ChangeClass::Functional => "functional",
            ChangeClass::Wording => "wording",
            ChangeClass::Translation => "translation",
            ChangeClass::Flavor => "flavor",
        }
    }

    pub fn from_name(name: &str) -> Option<ChangeClass> {
        ChangeClass::ALL.into_iter().find(|c| c.as_str() == name)
    }

    /// A changelog section's heading in `lang` (`en`, `ja`). A card is
    /// listed under every class it has, so no heading says "only": a card
    /// with a stat, a functional and a flavor change is under all three.
    pub fn heading(self, lang: &str) -> &'static str {
        let ja = lang == "ja";
        match self {
            ChangeClass::Added if ja => "追加されたカード",
            ChangeClass::Added => "Added cards",
            ChangeClass::Removed if ja => "削除されたカード",
            ChangeClass::Removed => "Removed cards",
            ChangeClass::Renamed if ja => "名称変更",
            ChangeClass::Renamed => "Renamed cards",
            ChangeClass::Stats if ja => "能力値の変更",
            ChangeClass::Stats => "Stat changes",
            ChangeClass::Functional if ja => "機能的エラッタ",
            ChangeClass::Functional => "Functional errata",
            ChangeClass::Wording if ja => "文言の修正",
            ChangeClass::Wording => "Wording changes",
            ChangeClass::Translation if ja => "翻訳の修正",
            ChangeClass::Translation => "Translation changes",
            ChangeClass::Flavor if ja => "フレーバーテキストの修正",
            ChangeClass::Flavor => "Flavor text changes",
        }
    }
}

/// `blades diff --format json`: every changed card of two releases.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct DiffReport {
    pub old: Side,
    pub new: Side,
    /// How many cards fall in each class (a card may count in several).
    pub counts: Counts,
    /// Each changed card once, in the new release's order, then the
    /// removed cards in the old release's order.
    pub changes: Vec<CardChange>,
}

/// One side of a diff.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct Side {
    /// The folder or file as given.
    pub path: String,
    pub kind: SourceKind,
    /// Distinct cards in it.
    pub cards: usize,
}

/// Cards per class.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct Counts {
    /// Cards with any change.
    pub changed: usize,
    pub added: usize,
    pub removed: usize,
    pub renamed: usize,
    pub stats: usize,
    pub functional: usize,
    pub wording: usize,
    pub translation: usize,
    pub flavor: usize,
}

impl Counts {
    pub fn get(&self, class: ChangeClass) -> usize {
        match class {
            ChangeClass::Added => self.added,
            ChangeClass::Removed => self.removed,
            ChangeClass::Renamed => self.renamed,
            ChangeClass::Stats => self.stats,
            ChangeClass::Functional => self.functional,
            ChangeClass::Wording => self.wording,
            ChangeClass::Translation => self.translation,
            ChangeClass::Flavor => self.flavor,
        }
    }

    fn count(&mut self, class: ChangeClass) {
        *match class {
            ChangeClass::Added => &mut self.added,
            ChangeClass::Removed => &mut self.removed,
            ChangeClass::Renamed => &mut self.renamed,
            ChangeClass::Stats => &mut self.stats,
            ChangeClass::Functional => &mut self.functional,
            ChangeClass::Wording => &mut self.wording,
            ChangeClass::Translation => &mut self.translation,
            ChangeClass::Flavor => &mut self.flavor,
        } += 1;
    }
}

/// One card that changed.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct CardChange {
    pub id: Id,
    /// The English name (the new one; the old one for a removed card).
    pub name: String,
    /// The Japanese name, when the card has one (new, else old).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_ja: Option<String>,
    /// The card's set (new; old for a removed card).
    pub set: Id,
    /// Its classes, in the order of [`ChangeClass::ALL`].
    pub classes: Vec<ChangeClass>,
    /// What changed, field by field (none for an added or removed card).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<FieldChange>,
    /// For a functional errata: the entry of the card's errata history
    /// that holds the old text, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub errata: Option<Errata>,
}

impl CardChange {
    pub fn has(&self, class: ChangeClass) -> bool {
        self.classes.contains(&class)
    }

    /// The fields of one class.
    pub fn fields_of(&self, class: ChangeClass) -> impl Iterator<Item = &FieldChange> {
        self.fields.iter().filter(move |f| f.class == class)
    }
}

/// One field's old and new value, as text (`null`: the card had none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct FieldChange {
    /// `name`, `stars`, `elements`, `types`, `kind`, `set`, `rarity`,
    /// `copies`, `effect` (the effect language), `effect-text.LANG` (the
    /// printed effect), `flavor`, `translations.LANG.name|flavor|effect`.
    pub field: String,
    pub class: ChangeClass,
    pub old: Option<String>,
    pub new: Option<String>,
}

/// What a path given to `diff` holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SourceKind {
    /// A pool folder, built for the comparison.
    Pool,
    /// A database `blades build` wrote.
    Database,
}

impl SourceKind {
    /// A folder is a pool; anything else a database file.
    pub fn of(path: &Path) -> SourceKind {
        match path.is_dir() {
            true => SourceKind::Pool,
            false => SourceKind::Database,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SourceKind::Pool => "pool",
            SourceKind::Database => "database",
        }
    }
}

/// Why one side could not be opened.
#[derive(Debug)]
pub enum Unopened {
    /// The pool has errors: its findings.
    PoolErrors(Findings),
    /// The path cannot be read, or is not a database.
    Refused(Findings),
}

/// One side opened: its database.
pub struct Opened {
    pub path: PathBuf,
    pub kind: SourceKind,
    pub database: Database,
}

/// Opens a pool folder (built through [`Workspace`]) or reads a database.
pub fn open(path: &Path) -> Result<Opened, Unopened> {
    let kind = SourceKind::of(path);
    let database = match kind {
        SourceKind::Pool => {
            // Built as models, with their effect trees: a release folder
            // is not what the last build's cache vouches for, and reading
            // a database back from its JSON pieces would cost more than
            // the models do.
            let workspace = Workspace::open_uncached(Some(path)).map_err(|e| {
                Unopened::Refused(Findings {
                    diagnostics: vec![e.into_diagnostic()],
                    sources: Sources::default(),
                })
            })?;
            workspace.database().map_err(Unopened::PoolErrors)?
        }
        SourceKind::Database => read_database(path).map_err(Unopened::Refused)?,
    };
    Ok(Opened {
        path: path.to_path_buf(),
        kind,
        database,
    })
}

/// Opens both sides at once.
pub fn open_both(old: &Path, new: &Path) -> (Result<Opened, Unopened>, Result<Opened, Unopened>) {
    rayon::join(|| open(old), || open(new))
}

/// A database file read back (its effect trees are not read: they are
/// parsed again from each effect's text where two texts differ).
fn read_database(path: &Path) -> Result<Database, Findings> {
    let shown: Arc<str> = Arc::from(path.display().to_string());
    let refuse = |diagnostic: Diagnostic| Findings {
        diagnostics: vec![diagnostic],
        sources: Sources::default(),
    };
    let unreadable = |e: std::io::Error| {
        refuse(
            Diagnostic::general(Code::Unreadable, format!("cannot read `{shown}`: {e}"))
                .with_help("give a pool folder or a database file `blades build` wrote"),
        )
    };
    let bytes = match open_database(path).map_err(unreadable)? {
        DatabaseFile::Bytes(bytes) => bytes,
        DatabaseFile::Stream(stream) => {
            let database = serde_json::from_reader::<_, Database>(stream).map_err(|e| {
                refuse(
                    Diagnostic::general(
                        Code::DatabaseInvalid,
                        format!("`{shown}` is not a card database: {e}"),
                    )
                    .with_help("give a pool folder or a database file `blades build` wrote"),
                )
            })?;
            return match database.format {
                DATABASE_FORMAT => Ok(database),
                format => Err(refuse(other_format(&shown, format))),
            };
        }
    };
    // The format first, so a database of another format is named as such.
    #[derive(serde::Deserialize)]
    struct Format {
        format: Option<u32>,
    }
    let format = serde_json::from_slice::<Format>(&bytes)
        .ok()
        .and_then(|f| f.format);
    if let Some(format) = format
        && format != DATABASE_FORMAT
    {
        return Err(refuse(other_format(&shown, format)));
    }
    let database = serde_json::from_slice::<Database>(&bytes).map_err(|e| {
        let text: Arc<str> = Arc::from(String::from_utf8_lossy(&bytes).into_owned());
        let offset = offset_of(&text, e.line(), e.column());
        let mut sources = Sources::default();
        sources.insert(shown.clone(), text.clone());
        let end = text[offset..]
            .chars()
            .next()
            .map_or(offset, |c| offset + c.len_utf8());
        Findings {
            diagnostics: vec![
                Diagnostic::error(
                    Code::DatabaseInvalid,
                    &shown,
                    offset..end,
                    format!("`{shown}` is not a card database: {e}"),
                )
                .with_label("here")
                .with_help("give a pool folder or a database file `blades build` wrote"),
            ],
            sources,
        }
    })?;
    refuse_repeated_ids(&shown, &bytes, &database)?;
    Ok(database)
}

/// A database with a card id twice is refused, every repeat located with
/// its first use: cards are matched by id, so a repeat would be compared
/// with one of its namesakes at random, and a change reported or hidden.
/// The ids are located in the text only when one repeats.
fn refuse_repeated_ids(
    shown: &Arc<str>,
    bytes: &[u8],
    database: &Database,
) -> Result<(), Findings> {
    let mut seen = HashSet::default();
    if database.cards.iter().all(|c| seen.insert(c.id.0.as_str())) {
        return Ok(());
    }
    let text: Arc<str> = Arc::from(String::from_utf8_lossy(bytes).into_owned());
    let mut first: HashMap<String, Range<usize>> = HashMap::default();
    let mut diagnostics = Vec::new();
    for (id, span) in card_id_spans(&text) {
        match first.get(&id) {
            Some(earlier) => diagnostics.push(
                Diagnostic::error(
                    Code::DuplicateCardId,
                    shown,
                    span,
                    format!("the card id `{id}` is in this database twice"),
                )
                .with_label("used again")
                .with_related(shown, earlier.clone(), "first used here")
                .with_help("a database `blades build` wrote holds each id once: build it again from its pool, or diff the pools"),
            ),
            None => {
                first.insert(id, span);
            }
        }
    }
    let mut sources = Sources::default();
    sources.insert(shown.clone(), text);
    Err(Findings {
        diagnostics,
        sources,
    })
}

/// Each card's id in a database's JSON text, with the byte span of its
/// value (borrowed raw values point into `text`).
fn card_id_spans(text: &str) -> Vec<(String, Range<usize>)> {
    #[derive(serde::Deserialize)]
    struct Cards<'a> {
        #[serde(borrow)]
        cards: Vec<&'a RawValue>,
    }
    #[derive(serde::Deserialize)]
    struct IdOf<'a> {
        #[serde(borrow)]
        id: &'a RawValue,
    }
    let Ok(doc) = serde_json::from_str::<Cards>(text) else {
        return Vec::new();
    };
    doc.cards
        .iter()
        .filter_map(|card| {
            let raw = serde_json::from_str::<IdOf>(card.get()).ok()?.id.get();
            let id: String = serde_json::from_str(raw).ok()?;
            let start = raw.as_ptr() as usize - text.as_ptr() as usize;
            Some((id, start..start + raw.len()))
        })
        .collect()
}

/// A database of another format than this tool's, refused.
fn other_format(shown: &str, format: u32) -> Diagnostic {
    Diagnostic::general(
        Code::DatabaseInvalid,
        format!(
            "`{shown}` is a database of format {format}; this tool reads format {DATABASE_FORMAT}"
        ),
    )
    .with_help("build both releases with the same version of `blades`, or diff the pools")
}

/// The byte offset of serde_json's line and column (both from 1; the
/// column counts bytes).
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let mut offset = (start + column.saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Compares two opened sides.
pub fn diff_opened(old: &Opened, new: &Opened) -> DiffReport {
    let side = |o: &Opened| Side {
        path: o.path.display().to_string(),
        kind: o.kind,
        cards: o.database.cards.len(),
    };
    let mut report = diff(&old.database, &new.database);
    report.old = side(old);
    report.new = side(new);
    report
}

/// Compares two databases (the sides are named by [`diff_opened`]).
pub fn diff(old: &Database, new: &Database) -> DiffReport {
    let old_by_id: HashMap<&str, &Card> = old.cards.iter().map(|c| (c.id.0.as_str(), c)).collect();
    let new_ids: HashMap<&str, ()> = new.cards.iter().map(|c| (c.id.0.as_str(), ())).collect();
    let mut changes: Vec<CardChange> = {
        use rayon::prelude::*;
        new.cards
            .par_iter()
            .filter_map(|card| match old_by_id.get(card.id.0.as_str()) {
                None => Some(whole(card, ChangeClass::Added)),
                Some(before) => compare(before, card),
            })
            .collect()
    };
    changes.extend(
        old.cards
            .iter()
            .filter(|c| !new_ids.contains_key(c.id.0.as_str()))
            .map(|c| whole(c, ChangeClass::Removed)),
    );
    let mut counts = Counts {
        changed: changes.len(),
        ..Counts::default()
    };
    for change in &changes {
        for class in &change.classes {
            counts.count(*class);
        }
    }
    let side = |database: &Database| Side {
        path: String::new(),
        kind: SourceKind::Database,
        cards: database.cards.len(),
    };
    DiffReport {
        old: side(old),
        new: side(new),
        counts,
        changes,
    }
}

/// An added or removed card.
fn whole(card: &Card, class: ChangeClass) -> CardChange {
    CardChange {
        id: card.id.clone(),
        name: card.name.clone(),
        name_ja: ja_name(card),
        set: card.set.clone(),
        classes: vec![class],
        fields: Vec::new(),
        errata: None,
    }
}

fn ja_name(card: &Card) -> Option<String> {
    card.translations.get("ja").and_then(|t| t.name.clone())
}

/// A card in both releases: its change, if it has one.
fn compare(old: &Card, new: &Card) -> Option<CardChange> {
    let mut fields = Vec::new();
    let mut field = |name: &str, class: ChangeClass, a: Option<String>, b: Option<String>| {
        if a != b {
            fields.push(FieldChange {
                field: name.to_string(),
                class,
                old: a,
                new: b,
            });
        }
    };
    use ChangeClass::*;
    field(
        "name",
        Renamed,
        Some(old.name.clone()),
        Some(new.name.clone()),
    );
    let list = |items: Vec<&str>| Some(items.join(", "));
    field(
        "stars",
        Stats,
        old.stars.map(|s| s.to_string()),
        new.stars.map(|s| s.to_string()),
    );
    field(
        "elements",
        Stats,
        list(old.elements.iter().map(|e| e.as_str()).collect()),
        list(new.elements.iter().map(|e| e.as_str()).collect()),
    );
    field(
        "types",
        Stats,
        list(old.types.iter().map(|t| t.0.as_str()).collect()),
        list(new.types.iter().map(|t| t.0.as_str()).collect()),
    );
    let kind = |c: &Card| Some(c.kind.as_str().to_string());
    field("kind", Stats, kind(old), kind(new));
    field(
        "set",
        Stats,
        Some(old.set.0.clone()),
        Some(new.set.0.clone()),
    );
    let rarity = |c: &Card| Some(c.rarity.as_str().to_string());
    field("rarity", Stats, rarity(old), rarity(new));
    field(
        "copies",
        Stats,
        Some(old.copies.to_string()),
        Some(new.copies.to_string()),
    );
    let functional = !same_tree(old, new);
    if functional {
        field("effect", Functional, old.effect.clone(), new.effect.clone());
    }
    // The printed effect in every language either side has.
    let mut langs: Vec<&str> = old.effect_text.keys().map(String::as_str).collect();
    for lang in new.effect_text.keys() {
        if !langs.contains(&lang.as_str()) {
            langs.push(lang);
        }
    }
    langs.sort_unstable_by_key(|lang| (*lang != SOURCE_LANG, *lang));
    for lang in langs {
        let class = match (functional, lang == SOURCE_LANG) {
            (true, _) => Functional,
            (false, true) => Wording,
            (false, false) => Translation,
        };
        field(
            &format!("effect-text.{lang}"),
            class,
            old.effect_text.get(lang).cloned(),
            new.effect_text.get(lang).cloned(),
        );
    }
    field("flavor", Flavor, old.flavor.clone(), new.flavor.clone());
    let mut langs: Vec<&str> = old.translations.keys().map(String::as_str).collect();
    for lang in new.translations.keys() {
        if !langs.contains(&lang.as_str()) {
            langs.push(lang);
        }
    }
    langs.sort_unstable();
    for lang in langs {
        let (a, b) = (old.translations.get(lang), new.translations.get(lang));
        for (name, get) in [
            (
                "name",
                (|t| t.name.clone()) as fn(&crate::model::CardTranslation) -> _,
            ),
            ("flavor", |t| t.flavor.clone()),
            ("effect", |t| t.effect.clone()),
        ] {
            field(
                &format!("translations.{lang}.{name}"),
                Translation,
                a.and_then(get),
                b.and_then(get),
            );
        }
    }
    if fields.is_empty() {
        return None;
    }
    let mut classes: Vec<ChangeClass> = fields.iter().map(|f| f.class).collect();
    classes.sort_unstable();
    classes.dedup();
    let errata = match functional {
        true => recorded(old, new),
        false => None,
    };
    Some(CardChange {
        id: new.id.clone(),
        name: new.name.clone(),
        name_ja: ja_name(new).or_else(|| ja_name(old)),
        set: new.set.clone(),
        classes,
        fields,
        errata,
    })
}

/// Whether two cards' effects have the same tree: the same text parses
/// the same, so trees are compared only where the texts differ (from the
/// database when it holds them, else parsed again).
fn same_tree(old: &Card, new: &Card) -> bool {
    if old.effect == new.effect {
        return true;
    }
    match (tree(old), tree(new)) {
        (Some(a), Some(b)) => a == b,
        // An effect on one side only, or one that no longer parses.
        _ => false,
    }
}

fn tree(card: &Card) -> Option<Cow<'_, Effect>> {
    if let Some(tree) = &card.effect_tree {
        return Some(Cow::Borrowed(tree));
    }
    effect::parse(card.effect.as_deref()?).ok().map(Cow::Owned)
}

/// The new card's errata entry that holds the old card's effect (the same
/// tree, or the same text when it does not parse).
fn recorded(old: &Card, new: &Card) -> Option<Errata> {
    let old_effect = old.effect.as_deref()?;
    let old_tree = tree(old);
    new.errata
        .iter()
        .find(|errata| {
            errata.effect.trim() == old_effect.trim()
                || old_tree.as_deref().is_some_and(|old_tree| {
                    effect::parse(&errata.effect).is_ok_and(|t| t == *old_tree)
                })
        })
        .cloned()
}

impl DiffReport {
    /// Whether any card has one of `classes`.
    pub fn has_any(&self, classes: &[ChangeClass]) -> bool {
        classes.iter().any(|c| self.counts.get(*c) > 0)
    }

    /// The one-line summary: `9 cards changed: 1 added, …` (English).
    pub fn summary(&self) -> String {
        if self.counts.changed == 0 {
            return "no card changed".to_string();
        }
        let parts: Vec<String> = ChangeClass::ALL
            .into_iter()
            .filter(|c| self.counts.get(*c) > 0)
            .map(|c| format!("{} {}", self.counts.get(c), c.as_str()))
            .collect();
        let cards = match self.counts.changed {
            1 => "card",
            _ => "cards",
        };
        format!(
            "{} {cards} changed: {}",
            self.counts.changed,
            parts.join(", ")
        )
    }

    /// The changelog as Markdown, for release notes, in English or
    /// Japanese (`lang`: `en`, `ja`): a section per class, each card with
    /// what changed.
    pub fn markdown(&self, lang: &str) -> String {
        use std::fmt::Write;
        let ja = lang == "ja";
        let glossary = Glossary::builtin();
        let mut out = String::new();
        let _ = writeln!(out, "# {}\n", if ja { "変更履歴" } else { "Changelog" });
        if self.counts.changed == 0 {
            let _ = writeln!(
                out,
                "{}",
                if ja {
                    "変更されたカードはありません。"
                } else {
                    "No card changed."
                }
            );
            return out;
        }
        let _ = writeln!(out, "{}\n", self.markdown_summary(ja));
        for class in ChangeClass::ALL {
            let cards: Vec<&CardChange> = self.changes.iter().filter(|c| c.has(class)).collect();
            if cards.is_empty() {
                continue;
            }
            let _ = writeln!(out, "## {}\n", class.heading(lang));
            for card in cards {
                let name = match ja {
                    true => card.name_ja.as_deref().unwrap_or(&card.name),
                    false => &card.name,
                };
                let _ = writeln!(out, "- **{}** (`{}`, {})", md(name), card.id, card.set);
                // The changelog's own language, else every language (the
                // English wording in the Japanese changelog, a Japanese
                // name in the English one), each labelled with its language.
                let mut fields: Vec<&FieldChange> = card
                    .fields_of(class)
                    .filter(|f| shown_in(f, lang))
                    .collect();
                if fields.is_empty() {
                    fields = card
                        .fields_of(class)
                        .filter(|f| f.field != "effect")
                        .collect();
                }
                for field in fields {
                    let mut label = field_label(&field.field, ja, glossary);
                    if let Some(of) = field_lang(&field.field)
                        && of != lang
                    {
                        label = match ja {
                            true => format!("{label}（{of}）"),
                            false => format!("{label} ({of})"),
                        };
                    }
                    let value = |v: &Option<String>| match v {
                        Some(v) if ja && is_word_list(&field.field) => md(&official(v, glossary)),
                        Some(v) => md(v.trim()),
                        None => if ja { "（なし）" } else { "(none)" }.to_string(),
                    };
                    let _ = writeln!(
                        out,
                        "  - {label}: {} → {}",
                        value(&field.old),
                        value(&field.new)
                    );
                }
                if let (Some(errata), ChangeClass::Functional) = (&card.errata, class) {
                    let note = errata
                        .note
                        .as_deref()
                        .map(|n| match ja {
                            true => format!("（{}）", md(n)),
                            false => format!(" ({})", md(n)),
                        })
                        .unwrap_or_default();
                    let _ = match ja {
                        true => writeln!(
                            out,
                            "  - 旧テキストは {} まで使用されました{note}",
                            md(&errata.until)
                        ),
                        false => writeln!(
                            out,
                            "  - the old text was used until {}{note}",
                            md(&errata.until)
                        ),
                    };
                }
            }
            out.push('\n');
        }
        out
    }

    fn markdown_summary(&self, ja: bool) -> String {
        let parts: Vec<String> = ChangeClass::ALL
            .into_iter()
            .filter(|c| self.counts.get(*c) > 0)
            .map(|c| match ja {
                true => format!("{}：{}枚", c.heading("ja"), self.counts.get(c)),
                false => format!("{}: {}", c.heading("en"), self.counts.get(c)),
            })
            .collect();
        match ja {
            true => format!(
                "{}枚のカードが変更されました（{}）。",
                self.counts.changed,
                parts.join("、")
            ),
            false => format!(
                "{} {} changed ({}).",
                self.counts.changed,
                if self.counts.changed == 1 {
                    "card"
                } else {
                    "cards"
                },
                parts.join("; ")
            ),
        }
    }
}

/// Whether a changelog in `lang` shows a field: the printed effect in its
/// own language only, and the translations of that language (the English
/// changelog shows none; the Japanese one its own).
fn shown_in(field: &FieldChange, lang: &str) -> bool {
    if field.field == "effect" {
        // The effect language: the printed text says the same for readers.
        return false;
    }
    if let Some(of) = field.field.strip_prefix("effect-text.") {
        return of == lang;
    }
    if let Some(rest) = field.field.strip_prefix("translations.") {
        return rest.split('.').next() == Some(lang);
    }
    true
}

/// Fields whose values are game words (the Japanese changelog gives their
/// official Japanese).
fn is_word_list(field: &str) -> bool {
    matches!(field, "elements" | "types" | "kind" | "rarity")
}

/// A list of game words with each word's official Japanese.
fn official(words: &str, glossary: &Glossary) -> String {
    words
        .split(", ")
        .map(|w| glossary.official_for(w).unwrap_or(w))
        .collect::<Vec<_>>()
        .join("、")
}

/// The language of a field of one language (`effect-text.ja`,
/// `translations.ja.name`).
fn field_lang(field: &str) -> Option<&str> {
    field
        .strip_prefix("effect-text.")
        .or_else(|| field.strip_prefix("translations.")?.split('.').next())
}

/// A field's name in a changelog.
fn field_label(field: &str, ja: bool, glossary: &Glossary) -> String {
    let base = field
        .strip_prefix("translations.")
        .and_then(|rest| rest.split_once('.').map(|(_, f)| f))
        .or_else(|| field.strip_prefix("effect-text.").map(|_| "effect"))
        .unwrap_or(field);
    if !ja {
        return match base {
            "stars" => "STAR".to_string(),
            other => other.to_string(),
        };
    }
    let word = match base {
        "name" => "名前",
        "stars" => "★",
        "elements" => "属性",
        "types" => "種族",
        "kind" => "種類",
        "set" => "セット",
        "rarity" => "レアリティ",
        "copies" => "枚数",
        "effect" => "効果",
        "flavor" => "フレーバーテキスト",
        other => return glossary.official_for(other).unwrap_or(other).to_string(),
    };
    word.to_string()
}

/// Text as Markdown shows it: one line, its markup characters escaped.
fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.lines().enumerate() {
        if i > 0 {
            out.push_str(" / ");
        }
        for c in line.chars() {
            if matches!(
                c,
                '\\' | '*' | '_' | '`' | '[' | ']' | '<' | '>' | '#' | '|'
            ) {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::CardKind;

    fn card(id: &str) -> Card {
        Card::new(id, &id.to_uppercase(), "s", CardKind::Single, 2)
    }

    fn database(cards: Vec<Card>) -> Database {
        Database {
            keywords: None,
            format: DATABASE_FORMAT,
            cards,
            sets: Vec::new(),
        }
    }

    #[test]
    fn a_reflowed_effect_is_no_change_and_a_new_number_is_functional() {
        let mut a = card("a");
        a.effect = Some("Play: Gain 1 RP.".into());
        let mut b = a.clone();
        b.effect = Some("Play: Gain 1 RP.\n".into());
        assert!(
            diff(&database(vec![a.clone()]), &database(vec![b]))
                .changes
                .is_empty()
        );
        let mut c = a.clone();
        c.effect = Some("Play: Gain 2 RP.".into());
        let report = diff(&database(vec![a]), &database(vec![c]));
        assert_eq!(report.changes[0].classes, vec![ChangeClass::Functional]);
        assert_eq!(report.counts.functional, 1);
    }

    #[test]
    fn the_errata_history_is_found_by_tree() {
        let mut a = card("a");
        a.effect = Some("Play: Gain 1 RP.".into());
        let mut b = a.clone();
        b.effect = Some("Play: Gain 2 RP.".into());
        b.errata = vec![Errata {
            until: "1.1".into(),
            // Spelt otherwise, the same tree.
            effect: "Play:  Gain 1 RP.\n".into(),
            note: None,
        }];
        let report = diff(&database(vec![a]), &database(vec![b]));
        assert_eq!(report.changes[0].errata.as_ref().unwrap().until, "1.1");
    }

    /// The section a card is listed under in a changelog: the headings
    /// above each of its lines.
    fn sections_of(markdown: &str, id: &str) -> Vec<String> {
        let mut heading = "";
        let mut found = Vec::new();
        for line in markdown.lines() {
            if let Some(h) = line.strip_prefix("## ") {
                heading = h;
            } else if line.contains(&format!("(`{id}`")) {
                found.push(heading.to_string());
            }
        }
        found
    }

    #[test]
    fn a_card_with_several_changes_is_under_each_and_no_heading_says_only() {
        let mut a = card("a");
        a.effect = Some("Play: Gain 1 RP.".into());
        a.flavor = Some("Old.".into());
        let mut b = a.clone();
        b.stars = Some(3);
        b.effect = Some("Play: Gain 2 RP.".into());
        b.flavor = Some("New.".into());
        let report = diff(&database(vec![a]), &database(vec![b]));
        for lang in ["en", "ja"] {
            let markdown = report.markdown(lang);
            let want: Vec<String> = [
                ChangeClass::Stats,
                ChangeClass::Functional,
                ChangeClass::Flavor,
            ]
            .map(|c| c.heading(lang).to_string())
            .into();
            assert_eq!(sections_of(&markdown, "a"), want, "{markdown}");
        }
        for class in ChangeClass::ALL {
            let (en, ja) = (class.heading("en"), class.heading("ja"));
            assert!(!en.contains("only") && !ja.contains("のみ"), "{en} {ja}");
        }
    }

    #[test]
    fn a_single_made_a_venue_changes_its_kind_and_loses_its_star() {
        let a = card("a");
        let mut b = a.clone();
        b.kind = CardKind::Venue;
        b.stars = None;
        let report = diff(&database(vec![a]), &database(vec![b]));
        let [change] = &report.changes[..] else {
            panic!("one change: {:?}", report.changes);
        };
        assert_eq!(change.classes, [ChangeClass::Stats]);
        let fields: Vec<(&str, Option<&str>, Option<&str>)> = (change.fields.iter())
            .map(|f| (f.field.as_str(), f.old.as_deref(), f.new.as_deref()))
            .collect();
        assert_eq!(
            fields,
            [
                ("stars", Some("2"), None),
                ("kind", Some("single"), Some("venue"))
            ]
        );
        let markdown = report.markdown("en");
        assert!(markdown.contains("single → venue"), "{markdown}");
    }

    #[test]
    fn markdown_escapes_and_joins_lines() {
        assert_eq!(md("a*b\nc_d"), "a\\*b / c\\_d");
    }

    #[test]
    fn serde_json_positions_become_offsets() {
        assert_eq!(offset_of("ab\ncd", 2, 2), 4);
        assert_eq!(offset_of("ab", 9, 9), 2);
    }
}
