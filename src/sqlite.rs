//! The database as SQLite (`blades build --sqlite FILE`): the same data as
//! the JSON database, in tables (described in `docs/database.md`, whose
//! schema is [`SCHEMA`] verbatim).
//!
//! The file is made as every artifact is (see [`crate::files`]): a temp file
//! beside the target, filled, then renamed over it; a failure leaves the
//! target as it was and deletes the temp file.
//!
//! It is written from the database as models (a build without the cache,
//! `--pretty`, `--out -`) or from the JSON pieces a cached build wrote or
//! kept ([`DatabaseJson`]), parsed back set by set: so a cached build that
//! wrote no new JSON writes the same SQLite file as a full build.

use std::io;
use std::path::Path;

use rayon::prelude::*;
use rusqlite::{Connection, Statement, params};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::artifacts::{DatabaseJson, SetJson};
use crate::effect::{Effect, Line};
use crate::files::{self, Destination};
use crate::model::{Card, DATABASE_FORMAT, Database, KeywordName, Set};

/// The tables and indexes, as `docs/database.md` shows them. List values
/// (a card's elements and types, a set's extra types, a translation's stale
/// fields) are rows of their own table, in order by `position`.
pub const SCHEMA: &str = "\
CREATE TABLE meta (
  key   TEXT NOT NULL,
  value TEXT NOT NULL
) STRICT;
CREATE TABLE sets (
  id             TEXT NOT NULL,
  position       INTEGER NOT NULL,
  name           TEXT NOT NULL,
  kind           TEXT NOT NULL,
  cost           INTEGER,
  distinct_cards INTEGER NOT NULL,
  physical_cards INTEGER NOT NULL
) STRICT;
CREATE TABLE set_extra_types (
  set_id   TEXT NOT NULL REFERENCES sets (id),
  position INTEGER NOT NULL,
  type     TEXT NOT NULL
) STRICT;
CREATE TABLE set_translations (
  set_id TEXT NOT NULL REFERENCES sets (id),
  lang   TEXT NOT NULL,
  name   TEXT NOT NULL,
  stale  INTEGER NOT NULL
) STRICT;
CREATE TABLE cards (
  id       TEXT NOT NULL,
  position INTEGER NOT NULL,
  name     TEXT NOT NULL,
  set_id   TEXT NOT NULL REFERENCES sets (id),
  kind     TEXT NOT NULL,
  stars    INTEGER,
  rarity   TEXT NOT NULL,
  copies   INTEGER NOT NULL,
  category TEXT,
  flavor   TEXT
) STRICT;
CREATE TABLE card_symbols (
  card_id  TEXT NOT NULL REFERENCES cards (id),
  kind     TEXT NOT NULL,
  position INTEGER NOT NULL,
  symbol   TEXT NOT NULL
) STRICT;
CREATE TABLE card_translations (
  card_id TEXT NOT NULL REFERENCES cards (id),
  lang    TEXT NOT NULL,
  name    TEXT,
  flavor  TEXT,
  effect  TEXT
) STRICT;
CREATE TABLE card_translation_stale (
  card_id  TEXT NOT NULL,
  lang     TEXT NOT NULL,
  position INTEGER NOT NULL,
  field    TEXT NOT NULL,
  FOREIGN KEY (card_id, lang) REFERENCES card_translations (card_id, lang)
) STRICT;
CREATE TABLE card_errata (
  card_id  TEXT NOT NULL REFERENCES cards (id),
  position INTEGER NOT NULL,
  until    TEXT NOT NULL,
  effect   TEXT NOT NULL,
  note     TEXT
) STRICT;
CREATE TABLE card_art (
  card_id     TEXT NOT NULL REFERENCES cards (id),
  file        TEXT NOT NULL,
  format      TEXT NOT NULL,
  width       INTEGER NOT NULL,
  height      INTEGER NOT NULL,
  fingerprint TEXT NOT NULL
) STRICT;
CREATE TABLE effects (
  card_id TEXT NOT NULL REFERENCES cards (id),
  source  TEXT,
  tree    TEXT
) STRICT;
CREATE TABLE effect_texts (
  card_id TEXT NOT NULL REFERENCES cards (id),
  lang    TEXT NOT NULL,
  text    TEXT NOT NULL
) STRICT;
CREATE TABLE pool_keywords (
  id       TEXT NOT NULL,
  position INTEGER NOT NULL,
  name     TEXT NOT NULL
) STRICT;
CREATE TABLE pool_keyword_names (
  keyword_id TEXT NOT NULL REFERENCES pool_keywords (id),
  lang       TEXT NOT NULL,
  name       TEXT NOT NULL
) STRICT;
CREATE TABLE keywords (
  card_id TEXT NOT NULL REFERENCES cards (id),
  line    INTEGER NOT NULL,
  name    TEXT NOT NULL,
  value   INTEGER
) STRICT;
";

/// The keys (unique indexes) and the other indexes, made after the rows
/// go in: sorting every row once is much faster than keeping a B-tree in
/// order row by row, and leaves its pages full. The rows themselves go in
/// the order of the JSON, appended.
pub const INDEXES: &str = "\
CREATE UNIQUE INDEX meta_key ON meta (key);
CREATE UNIQUE INDEX sets_id ON sets (id);
CREATE UNIQUE INDEX set_extra_types_key ON set_extra_types (set_id, position);
CREATE UNIQUE INDEX set_translations_key ON set_translations (set_id, lang);
CREATE UNIQUE INDEX cards_id ON cards (id);
CREATE UNIQUE INDEX card_symbols_key ON card_symbols (card_id, kind, position);
CREATE UNIQUE INDEX card_translations_key ON card_translations (card_id, lang);
CREATE UNIQUE INDEX card_translation_stale_key
  ON card_translation_stale (card_id, lang, position);
CREATE UNIQUE INDEX card_errata_key ON card_errata (card_id, position);
CREATE UNIQUE INDEX card_art_card ON card_art (card_id);
CREATE UNIQUE INDEX effects_card ON effects (card_id);
CREATE UNIQUE INDEX effect_texts_key ON effect_texts (card_id, lang);
CREATE UNIQUE INDEX keywords_key ON keywords (card_id, line);
CREATE UNIQUE INDEX pool_keywords_id ON pool_keywords (id);
CREATE UNIQUE INDEX pool_keyword_names_key ON pool_keyword_names (keyword_id, lang);
CREATE INDEX sets_name ON sets (name);
CREATE INDEX cards_name ON cards (name);
CREATE INDEX cards_set ON cards (set_id, position);
CREATE INDEX card_symbols_symbol ON card_symbols (symbol, kind);
CREATE INDEX card_translations_name ON card_translations (name);
CREATE INDEX set_translations_name ON set_translations (name);
CREATE INDEX keywords_name ON keywords (name);
";

/// What the SQLite file is written from.
#[derive(Clone, Copy)]
pub enum Source<'a> {
    /// The database as models (with effect trees).
    Models(&'a Database),
    /// The database as the JSON pieces a cached build wrote or kept.
    Pieces(&'a DatabaseJson),
}

/// Writes the database as SQLite to `path` (a link is followed and kept),
/// atomically. The build date in `meta` is `SOURCE_DATE_EPOCH` when that
/// is set (so that two builds of one pool give the same bytes), else now.
pub fn write(path: &Path, source: Source<'_>) -> io::Result<()> {
    let built = build_date()?;
    write_dated(path, source, built)
}

/// [`write`], built at `built` (seconds since 1970, UTC).
pub fn write_dated(path: &Path, source: Source<'_>, built: u64) -> io::Result<()> {
    let path = match files::destination(path) {
        Destination::Replace(path) => path,
        Destination::Stream(_) => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a regular file (a SQLite database is a file, renamed into place)",
            ));
        }
    };
    if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
        return Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "a folder is in its place",
        ));
    }
    let temp = files::temp_beside(&path)?;
    fill(temp.path(), source, built).map_err(sql_error)?;
    clear_stale_wal(&path)?;
    // The file it replaces, if any, is deleted as it drops.
    files::put_in_place(temp, &path, false)?;
    Ok(())
}

/// The file SQLite keeps beside a database in WAL mode, `PATH-SUFFIX`.
fn beside(path: &Path, suffix: &str) -> std::path::PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(suffix);
    name.into()
}

/// Makes sure no `-wal` is left beside `path` before a new database takes
/// its place: SQLite replays a WAL it finds beside any database, so the
/// new file would be read with an old client's pages over it.
///
/// SQLite removes the `-wal` and `-shm` itself when the last connection to
/// the database closes, after checking no other process has it open (the
/// locks of its own protocol): so the database is opened and closed once,
/// which finishes a dead client's WAL into the old file (about to be
/// replaced) and removes it. A `-wal` still there is another process's,
/// live: refused, saying so. A lone `-shm` is harmless and removed.
fn clear_stale_wal(path: &Path) -> io::Result<()> {
    let wal = beside(path, "-wal");
    let shm = beside(path, "-shm");
    let present = |p: &Path| std::fs::symlink_metadata(p).is_ok();
    if !present(&wal) && !present(&shm) {
        return Ok(());
    }
    if present(&wal) {
        let opened = Connection::open(path).and_then(|c| {
            c.query_row("SELECT count(*) FROM sqlite_master", [], |r| {
                r.get::<_, i64>(0)
            })?;
            c.close().map_err(|(_, e)| e)
        });
        if let Err(e) = opened {
            return Err(io::Error::new(
                io::ErrorKind::ResourceBusy,
                format!(
                    "`{}` is beside it and cannot be checked ({e}); if no program has the database open, delete it and build again",
                    wal.display()
                ),
            ));
        }
    }
    if present(&wal) {
        return Err(io::Error::new(
            io::ErrorKind::ResourceBusy,
            format!(
                "another program has it open in WAL mode (`{}` is in use); close that program and build again: a new file would be read with its WAL",
                wal.display()
            ),
        ));
    }
    match std::fs::remove_file(&shm) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// An SQLite failure as an I/O error, with SQLite's message.
fn sql_error(error: rusqlite::Error) -> io::Error {
    match error {
        rusqlite::Error::ToSqlConversionFailure(e) => match e.downcast::<io::Error>() {
            Ok(io) => *io,
            Err(e) => io::Error::other(e.to_string()),
        },
        e => io::Error::other(e.to_string()),
    }
}

/// The value of `SOURCE_DATE_EPOCH`, else the time now, in seconds.
fn build_date() -> io::Result<u64> {
    match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(value) if !value.trim().is_empty() => value
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|&s| s < LAST_DATE)
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "SOURCE_DATE_EPOCH is `{value}`, not a number of seconds since 1970 (before the year 10000)"
                    ),
                )
            }),
        Err(std::env::VarError::NotUnicode(_)) => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "SOURCE_DATE_EPOCH is not a number of seconds since 1970",
        )),
        _ => Ok(std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())),
    }
}

/// 10000-01-01T00:00:00Z: a date past it takes five digits of year.
const LAST_DATE: u64 = 253_402_300_800;

/// `secs` since 1970 as an RFC 3339 date and time in UTC
/// (`2026-11-24T09:30:00Z`).
pub fn rfc3339(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rest = secs % 86_400;
    // Howard Hinnant's `civil_from_days`.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// Fills the (empty) SQLite file at `path`.
fn fill(path: &Path, source: Source<'_>, built: u64) -> rusqlite::Result<()> {
    let connection = Connection::open(path)?;
    // A temp file nobody else opens, thrown away on failure: no journal, no
    // locking dance, no waiting for the disk (the rename comes after). The
    // rows come from a checked database: no foreign key is looked up as
    // they go in (the keys they name are indexed only at the end).
    connection.execute_batch(
        "PRAGMA foreign_keys = OFF;
         PRAGMA journal_mode = OFF;
         PRAGMA synchronous = OFF;
         PRAGMA locking_mode = EXCLUSIVE;
         PRAGMA temp_store = MEMORY;
         PRAGMA page_size = 16384;
         PRAGMA cache_size = -1048576;",
    )?;
    connection.pragma_update(None, "user_version", DATABASE_FORMAT)?;
    connection.execute_batch("BEGIN")?;
    connection.execute_batch(SCHEMA)?;
    {
        let mut meta = connection.prepare("INSERT INTO meta (key, value) VALUES (?1, ?2)")?;
        for (key, value) in [
            ("format", DATABASE_FORMAT.to_string()),
            ("tool", env!("CARGO_PKG_NAME").to_string()),
            ("tool-version", env!("CARGO_PKG_VERSION").to_string()),
            ("built", rfc3339(built)),
        ] {
            meta.execute(params![key, value])?;
        }
        let mut inserts = Inserts::new(&connection)?;
        let keywords = match source {
            Source::Models(database) => {
                inserts.models(database)?;
                database.keywords.as_deref()
            }
            Source::Pieces(database) => {
                inserts.pieces(database)?;
                database.keywords.as_deref()
            }
        };
        insert_keyword_table(&connection, keywords.unwrap_or_default())?;
    }
    connection.execute_batch(INDEXES)?;
    connection.execute_batch("COMMIT")?;
    connection.close().map_err(|(_, e)| e)
}

/// The pool's keyword table ([`Database::keywords`]), in its order.
fn insert_keyword_table(connection: &Connection, table: &[KeywordName]) -> rusqlite::Result<()> {
    let mut keyword =
        connection.prepare("INSERT INTO pool_keywords (id, position, name) VALUES (?1, ?2, ?3)")?;
    let mut name = connection
        .prepare("INSERT INTO pool_keyword_names (keyword_id, lang, name) VALUES (?1, ?2, ?3)")?;
    for (position, k) in table.iter().enumerate() {
        keyword.execute(params![k.id.0, position as i64, k.name])?;
        for (lang, text) in k.names.iter() {
            name.execute(params![k.id.0, lang, text])?;
        }
    }
    Ok(())
}

/// A card's effect tree as JSON, and the keyword lines in it.
struct Tree {
    json: Box<str>,
    keywords: Vec<KeywordLine>,
}

/// A keyword line of an effect: its line number (from 0), name and number.
#[derive(Debug, Clone, PartialEq, Deserialize)]
struct KeywordLine {
    #[serde(skip)]
    line: usize,
    name: String,
    #[serde(default)]
    value: Option<u32>,
}

impl Tree {
    fn of(effect: &Effect) -> Tree {
        let json = serde_json::to_string(effect).expect("an effect tree serializes");
        let keywords = effect
            .lines
            .iter()
            .enumerate()
            .filter_map(|(line, l)| match l {
                Line::Keyword(k) => Some(KeywordLine {
                    line,
                    name: k.name.clone(),
                    value: k.value.map(|n| n.value),
                }),
                Line::Ability(_) => None,
            })
            .collect();
        Tree {
            json: json.into(),
            keywords,
        }
    }

    /// A tree as the JSON database holds it, its keyword lines read from it.
    fn from_json(json: Box<RawValue>) -> serde_json::Result<Tree> {
        /// A line of a tree: only a keyword line's name and number matter.
        #[derive(Deserialize)]
        #[serde(tag = "line", rename_all = "kebab-case")]
        enum LineHead {
            Keyword(KeywordLine),
            #[serde(other)]
            Other,
        }
        #[derive(Deserialize)]
        struct Lines<'a> {
            #[serde(borrow)]
            lines: Vec<&'a RawValue>,
        }
        let lines: Lines = serde_json::from_str(json.get())?;
        let mut keywords = Vec::new();
        for (line, text) in lines.lines.iter().map(|l| l.get()).enumerate() {
            // A build writes the tag first: an ability line is known by
            // it and not read further.
            if text.starts_with(r#"{"line":""#) && !text.starts_with(r#"{"line":"keyword""#) {
                continue;
            }
            if let LineHead::Keyword(k) = serde_json::from_str(text)? {
                keywords.push(KeywordLine { line, ..k });
            }
        }
        Ok(Tree {
            json: json.into(),
            keywords,
        })
    }
}

/// A set's part of the database, parsed back from its JSON pieces.
struct ParsedSet {
    set: Set,
    cards: Vec<Card>,
    /// Each card's effect tree, as written in the JSON.
    trees: Vec<Option<Tree>>,
}

/// Only the effect tree of a card's JSON object.
#[derive(Deserialize)]
struct TreeOnly {
    #[serde(rename = "effect-tree", default)]
    effect_tree: Option<Box<RawValue>>,
}

fn parse_piece(piece: &SetJson) -> io::Result<ParsedSet> {
    let set: Set = serde_json::from_slice(&piece.set)?;
    let array = piece.cards.read_array()?;
    let cards: Vec<Card> = serde_json::from_slice(&array)?;
    let trees: Vec<TreeOnly> = serde_json::from_slice(&array)?;
    if trees.len() != cards.len() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "a set's cards read back differently",
        ));
    }
    let trees = trees
        .into_iter()
        .map(|t| t.effect_tree.map(Tree::from_json).transpose())
        .collect::<serde_json::Result<_>>()?;
    Ok(ParsedSet { set, cards, trees })
}

/// Makes each item's rows on other threads while this one inserts those
/// of the item before: SQLite takes one writer, the rest runs beside it.
fn pipelined<I, T>(
    items: I,
    make: impl Fn(I::Item) -> io::Result<T> + Send,
    mut insert: impl FnMut(T) -> rusqlite::Result<()>,
) -> rusqlite::Result<()>
where
    I: IntoIterator,
    I::IntoIter: Send,
    T: Send,
{
    let items = items.into_iter();
    std::thread::scope(|scope| {
        let (sender, receiver) = std::sync::mpsc::sync_channel(1);
        scope.spawn(move || {
            for item in items {
                let made = make(item);
                let failed = made.is_err();
                // Sending fails once the inserts stopped (an error).
                if sender.send(made).is_err() || failed {
                    break;
                }
            }
        });
        for made in receiver {
            insert(made.map_err(io_in_sql)?)?;
        }
        Ok(())
    })
}

/// An I/O error in an SQLite result (reading the JSON pieces back).
fn io_in_sql(error: io::Error) -> rusqlite::Error {
    rusqlite::Error::ToSqlConversionFailure(Box::new(error))
}

/// The prepared inserts, and where the next set and card go.
struct Inserts<'c> {
    set: Statement<'c>,
    set_extra_type: Statement<'c>,
    set_translation: Statement<'c>,
    card: Statement<'c>,
    symbol: Statement<'c>,
    card_translation: Statement<'c>,
    stale: Statement<'c>,
    errata: Statement<'c>,
    art: Statement<'c>,
    effect: Statement<'c>,
    effect_text: Statement<'c>,
    keyword: Statement<'c>,
    sets: usize,
    cards: usize,
}

/// How many sets are parsed back at once (in parallel) before their rows
/// go in: a bound on what is held in memory.
const PIECES_AT_ONCE: usize = 64;

/// How many cards' trees are serialized at once (in parallel).
const CARDS_AT_ONCE: usize = 4096;

impl<'c> Inserts<'c> {
    fn new(c: &'c Connection) -> rusqlite::Result<Inserts<'c>> {
        Ok(Inserts {
            set: c.prepare(
                "INSERT INTO sets (id, position, name, kind, cost, distinct_cards, physical_cards)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?,
            set_extra_type: c.prepare(
                "INSERT INTO set_extra_types (set_id, position, type) VALUES (?1, ?2, ?3)",
            )?,
            set_translation: c.prepare(
                "INSERT INTO set_translations (set_id, lang, name, stale) VALUES (?1, ?2, ?3, ?4)",
            )?,
            card: c.prepare(
                "INSERT INTO cards (id, position, name, set_id, kind, stars, rarity, copies, category, flavor)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )?,
            symbol: c.prepare(
                "INSERT INTO card_symbols (card_id, kind, position, symbol) VALUES (?1, ?2, ?3, ?4)",
            )?,
            card_translation: c.prepare(
                "INSERT INTO card_translations (card_id, lang, name, flavor, effect)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?,
            stale: c.prepare(
                "INSERT INTO card_translation_stale (card_id, lang, position, field)
                 VALUES (?1, ?2, ?3, ?4)",
            )?,
            errata: c.prepare(
                "INSERT INTO card_errata (card_id, position, until, effect, note)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?,
            art: c.prepare(
                "INSERT INTO card_art (card_id, file, format, width, height, fingerprint)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?,
            effect: c.prepare("INSERT INTO effects (card_id, source, tree) VALUES (?1, ?2, ?3)")?,
            effect_text: c
                .prepare("INSERT INTO effect_texts (card_id, lang, text) VALUES (?1, ?2, ?3)")?,
            keyword: c.prepare(
                "INSERT INTO keywords (card_id, line, name, value) VALUES (?1, ?2, ?3, ?4)",
            )?,
            sets: 0,
            cards: 0,
        })
    }

    fn models(&mut self, database: &Database) -> rusqlite::Result<()> {
        for set in &database.sets {
            self.set(set)?;
        }
        // The trees serialized in parallel, a chunk at a time.
        pipelined(
            database.cards.chunks(CARDS_AT_ONCE),
            |chunk| {
                let trees: Vec<Option<Tree>> = chunk
                    .par_iter()
                    .map(|card| card.effect_tree.as_deref().map(Tree::of))
                    .collect();
                Ok((chunk, trees))
            },
            |(chunk, trees)| {
                for (card, tree) in chunk.iter().zip(trees) {
                    self.card(card, tree)?;
                }
                Ok(())
            },
        )
    }

    fn pieces(&mut self, database: &DatabaseJson) -> rusqlite::Result<()> {
        pipelined(
            database.sets.chunks(PIECES_AT_ONCE),
            |chunk| chunk.par_iter().map(parse_piece).collect::<io::Result<_>>(),
            |parsed: Vec<ParsedSet>| {
                for part in parsed {
                    self.set(&part.set)?;
                    for (card, tree) in part.cards.iter().zip(part.trees) {
                        self.card(card, tree)?;
                    }
                }
                Ok(())
            },
        )
    }

    fn set(&mut self, set: &Set) -> rusqlite::Result<()> {
        let id = set.id.0.as_str();
        self.set.execute(params![
            id,
            self.sets as i64,
            set.name,
            set.kind.as_str(),
            set.cost,
            set.distinct_cards,
            set.physical_cards,
        ])?;
        self.sets += 1;
        for (position, extra) in set.extra_types.iter().enumerate() {
            self.set_extra_type
                .execute(params![id, position as i64, extra.0])?;
        }
        for (lang, translation) in set.translations.iter() {
            self.set_translation
                .execute(params![id, lang, translation.name, translation.stale])?;
        }
        Ok(())
    }

    fn card(&mut self, card: &Card, tree: Option<Tree>) -> rusqlite::Result<()> {
        let id = card.id.0.as_str();
        self.card.execute(params![
            id,
            self.cards as i64,
            card.name,
            card.set.0,
            card.kind.as_str(),
            card.stars,
            card.rarity.as_str(),
            card.copies,
            card.category.as_ref().map(|c| c.0.as_str()),
            card.flavor,
        ])?;
        self.cards += 1;
        for (position, element) in card.elements.iter().enumerate() {
            self.symbol
                .execute(params![id, "element", position as i64, element.as_str()])?;
        }
        for (position, kind) in card.types.iter().enumerate() {
            self.symbol
                .execute(params![id, "type", position as i64, kind.0])?;
        }
        for (lang, t) in card.translations.iter() {
            self.card_translation
                .execute(params![id, lang, t.name, t.flavor, t.effect])?;
            for (position, field) in t.stale.iter().enumerate() {
                self.stale
                    .execute(params![id, lang, position as i64, field])?;
            }
        }
        for (position, errata) in card.errata.iter().enumerate() {
            self.errata.execute(params![
                id,
                position as i64,
                errata.until,
                errata.effect,
                errata.note
            ])?;
        }
        if let Some(art) = &card.art {
            self.art.execute(params![
                id,
                art.file,
                art.format.as_str(),
                art.width,
                art.height,
                art.fingerprint
            ])?;
        }
        if card.effect.is_some() || tree.is_some() {
            let json = tree.as_ref().map(|t| &*t.json);
            self.effect.execute(params![id, card.effect, json])?;
        }
        for (lang, text) in card.effect_text.iter() {
            self.effect_text.execute(params![id, lang, text])?;
        }
        for k in tree.iter().flat_map(|t| &t.keywords) {
            self.keyword
                .execute(params![id, k.line as i64, k.name, k.value])?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_rfc3339_in_utc() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(rfc3339(LAST_DATE - 1), "9999-12-31T23:59:59Z");
    }
}
