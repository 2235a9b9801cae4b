//! Translations: every translatable English text of a pool is a
//! *translation unit* (a context key, the English text, where it lives);
//! each other language keeps its text for a unit in its own files, with the
//! fingerprint of the English it was translated from, so a unit whose English
//! moved is reported as stale.
//!
//! Sources of units:
//! - card fields ([`set_units`]): set name, card name, flavor, and an
//!   optional per-card override of the rendered effect text;
//! - phrase templates of the effect language ([`phrase_units`]): the
//!   templates of `phrases/en.yaml`, translated in `phrases/<lang>.yaml`
//!   (which is also the renderer's book of that language). A variant key a
//!   translation adds (Japanese `action.flip.cont`) is tracked against the
//!   English of the same key, or of its plain key when English has no such
//!   variant ([`Project::load`]).
//!
//! Files: [`locale`] (locale files, fingerprints, the canonical writer),
//! [`status`] (coverage and staleness), [`check`] (reviewer checks),
//! [`glossary`] (official terms), [`text`] (display width, kinsoku line
//! breaking), [`po`] (the PO format) and [`exchange`] (PO export/import).

use foldhash::HashMap;
use std::ops::Range;
use std::sync::Arc;

use rayon::prelude::*;

use crate::diagnostics::{self, Code, Diagnostic, Sources};
use crate::effect::{Lang, phrases};
use crate::load::{self, LoadedCard, LoadedSet};
use crate::model::{Card, Database};
use crate::pool::{Pool, SourceFile};
use crate::yaml::{self, Node};

pub mod answers;
pub mod check;
pub mod exchange;
pub mod glossary;
pub mod keys;
pub mod locale;
pub mod memo;
pub mod po;
pub mod set_text;
pub mod status;
pub mod text;
pub mod units;

pub(crate) use keys::PHRASES_EN;
pub use keys::{Field, SOURCE_LANG, UnitKey, language_id, language_name, valid_lang};
use locale::Target;
pub(crate) use locale::normalize;
pub use locale::{Entry, LocaleFile, fingerprint};
use memo::{Lines, LocaleRecord, Memo, SetRecord};
pub use units::{CardInfo, SetInfo, Unit};

/// Every unit of a pool and every language's translations.
pub struct Project {
    /// Units in pool order: sets in file order, each set's name then its
    /// cards' fields; then phrases.
    pub units: Vec<Unit>,
    pub sets: Vec<SetInfo>,
    pub locales: Locales,
    /// Problems reading locale and phrase files (located).
    pub diagnostics: Vec<Diagnostic>,
    /// Errors in the set files themselves (`blades build` reports them).
    pub set_errors: usize,
    /// The text of every file read (a file the memo answered for is not).
    pub sources: Sources,
    /// Where the lines start in the files not read ([`Project::line`]).
    lines: HashMap<Arc<str>, Lines>,
    index: HashMap<UnitKey, usize>,
}

/// The files' texts a project shows, and the lines of those it need not.
#[derive(Default)]
struct Texts {
    sources: Sources,
    lines: HashMap<Arc<str>, Lines>,
}

impl Texts {
    /// A pool file: its text when it was read, else its lines.
    fn add(&mut self, file: &SourceFile, lines: Lines) {
        match file.is_read() {
            true => self.sources.insert(file.path.clone(), file.text().clone()),
            false => {
                self.lines.insert(file.path.clone(), lines);
            }
        }
    }
}

/// A set file read and parsed: its set, units and errors.
fn read_set_file(file: &SourceFile) -> SetRecord {
    let mut found = Vec::new();
    let loaded = load::load_set_and_doc(file, &mut found);
    let (set, units) = match loaded {
        Some((set, doc)) => {
            let info = SetInfo {
                id: set.set.id.0.clone(),
                path: set.path.clone(),
                cards: set.cards.iter().map(|c| c.card.id.0.clone()).collect(),
            };
            (Some(info), set_units(&set, &doc))
        }
        None => (None, Vec::new()),
    };
    SetRecord {
        set,
        units,
        errors: found.iter().filter(|d| d.is_error()).count(),
        lines: Lines::of(file.text()),
    }
}

/// A translation file (of a set, or a phrase book) read and parsed; `None`
/// for other files.
fn read_locale_file(file: &SourceFile) -> Option<LocaleRecord> {
    let (lang, parsed, diagnostics) = parse_locale_file(file, true)?;
    Some(LocaleRecord {
        lang,
        file: parsed,
        diagnostics,
        lines: Lines::of(file.text()),
    })
}

impl Project {
    /// Reads the set files and every locale and phrase file of a pool.
    pub fn load(pool: &Pool) -> Project {
        let sets = (pool.sets.par_iter()).map(read_set_file).collect();
        let locales = (pool.data.par_iter())
            .filter_map(|file| Some((file, read_locale_file(file)?)))
            .collect();
        Project::assemble(pool, sets, locales)
    }

    /// [`Project::load`] through a memo of an earlier run: a set or
    /// locale file the memo has as it is now is not parsed (nor read, when
    /// its stamp vouches for it), and the records of the files parsed are
    /// kept in the memo. Units read from the memo carry no YAML node:
    /// what `i18n status` needs, not what the reviewer checks need.
    pub fn load_remembering(pool: &Pool, memo: &mut Memo) -> Project {
        let sets: Vec<(SetRecord, bool)> = (pool.sets.par_iter())
            .map(|file| match memo.set(file) {
                Some(record) => (record, false),
                None => (read_set_file(file), true),
            })
            .collect();
        let locales: Vec<(&SourceFile, LocaleRecord, bool)> = (pool.data.par_iter())
            .filter_map(|file| match memo.locale(file) {
                Some(record) => Some((file, record, false)),
                None => Some((file, read_locale_file(file)?, true)),
            })
            .collect();
        for (file, (record, fresh)) in pool.sets.iter().zip(&sets) {
            if *fresh {
                memo.put_set(file, record);
            }
        }
        for (file, record, fresh) in &locales {
            if *fresh {
                memo.put_locale(file, record);
            }
        }
        let sets = sets.into_iter().map(|(record, _)| record).collect();
        let locales = (locales.into_iter())
            .map(|(file, record, _)| (file, record))
            .collect();
        Project::assemble(pool, sets, locales)
    }

    /// The project of each set file's and locale file's record, in pool
    /// order.
    fn assemble(
        pool: &Pool,
        sets: Vec<SetRecord>,
        locale_files: Vec<(&SourceFile, LocaleRecord)>,
    ) -> Project {
        let mut texts = Texts::default();
        let mut set_errors = pool.problems.iter().filter(|d| d.is_error()).count();
        let mut units = Vec::new();
        let mut set_infos = Vec::new();
        for (file, record) in pool.sets.iter().zip(sets) {
            texts.add(file, record.lines);
            set_errors += record.errors;
            units.extend(record.units);
            set_infos.extend(record.set);
        }
        units.extend(phrase_units(pool));
        let mut diagnostics = Vec::new();
        let mut files = Vec::new();
        for (file, record) in locale_files {
            texts.add(file, record.lines);
            diagnostics.extend(record.diagnostics);
            files.extend(record.file.map(|parsed| (record.lang, parsed)));
        }
        let locales = Locales::from_files(files, &mut diagnostics);
        add_variant_units(&mut units, &locales);
        for file in &pool.data {
            if file.is_read() {
                texts.sources.insert(file.path.clone(), file.text().clone());
            }
        }
        // The built-in English book, when the pool's translations follow it.
        if let Some(file) = english_phrase_file(pool) {
            texts.sources.insert(file.path.clone(), file.text().clone());
        }
        // A finding is shown with its file's text, read if it was not.
        texts.sources.extend(sources_of(pool, &diagnostics));
        diagnostics::sort(&mut diagnostics);
        let mut index = HashMap::default();
        for (i, unit) in units.iter().enumerate() {
            index.entry(unit.key.clone()).or_insert(i);
        }
        Project {
            units,
            sets: set_infos,
            locales,
            diagnostics,
            set_errors,
            sources: texts.sources,
            lines: texts.lines,
            index,
        }
    }

    /// The 1-based line of a byte offset in a file of the project.
    pub fn line(&self, path: &str, offset: usize) -> usize {
        match (self.sources.file(path), self.lines.get(path)) {
            (Some(_), _) => self.sources.line_col(path, offset).0,
            (None, Some(lines)) => lines.line(offset),
            (None, None) => 1,
        }
    }

    /// The unit a key names.
    pub fn unit(&self, key: &UnitKey) -> Option<&Unit> {
        self.index.get(key).map(|&i| &self.units[i])
    }

    /// Position of a unit in pool order (for stable sorting).
    pub fn position(&self, key: &UnitKey) -> Option<usize> {
        self.index.get(key).copied()
    }

    pub fn set(&self, id: &str) -> Option<&SetInfo> {
        self.sets.iter().find(|s| s.id == id)
    }

    /// The languages to report on: the one asked for, or every language
    /// with files in the pool (Japanese when there is none).
    pub fn languages(&self, asked: Option<&str>) -> Vec<String> {
        match asked {
            Some(lang) => vec![lang.to_string()],
            None => {
                let mut langs: Vec<String> = self
                    .locales
                    .languages
                    .iter()
                    .map(|l| l.lang.clone())
                    .collect();
                if langs.is_empty() {
                    langs.push("ja".into());
                }
                langs
            }
        }
    }

    /// [`Project::languages`] for a code as a person gives it (`ja_JP`
    /// and `ja-JP` mean `ja`); `None` when it is not a language to
    /// translate into.
    pub fn asked_languages(&self, asked: Option<&str>) -> Option<Vec<String>> {
        match asked {
            None => Some(self.languages(None)),
            Some(code) => language_id(code, &self.languages(None)).map(|lang| vec![lang]),
        }
    }
}

/// The texts of the files `findings` name, each read if it was not: what a
/// report shows its findings with.
pub fn sources_of(pool: &Pool, findings: &[Diagnostic]) -> Sources {
    let english = english_phrase_file(pool);
    let files: HashMap<&str, &SourceFile> = (pool.sets.iter().chain(&pool.data))
        .chain(english.as_ref())
        .map(|file| (&*file.path, file))
        .collect();
    let named = (findings.iter())
        .flat_map(|d| std::iter::once(&d.path).chain(d.related.iter().map(|r| &r.path)));
    let mut sources = Sources::default();
    for path in named {
        if sources.file(path).is_none()
            && let Some(file) = files.get(&**path)
        {
            sources.insert(file.path.clone(), file.text().clone());
        }
    }
    sources
}

/// The units of a set's card fields: its name, and each card's name,
/// flavor and effect (the effect as an optional override).
fn set_units(set: &LoadedSet, doc: &Node) -> Vec<Unit> {
    let mut units = Vec::new();
    let set_id = set.set.id.0.clone();
    units.push(Unit {
        key: UnitKey::SetName {
            set: set_id.clone(),
        },
        english: normalize(&set.set.name),
        required: true,
        path: set.path.clone(),
        span: doc.locate("/name").node.span.clone(),
        node: Some(doc.locate("/name").node.clone()),
        card: None,
    });
    for LoadedCard { index, card, .. } in &set.cards {
        let info = Arc::new(CardInfo {
            kind: card.kind,
            stars: card.stars,
            elements: card.elements.clone(),
            types: card.types.clone(),
            effect: card.effect.as_deref().map(normalize),
        });
        let texts = [
            (Field::Name, Some(&card.name), true),
            (Field::Flavor, card.flavor.as_ref(), true),
            (Field::Effect, card.effect.as_ref(), false),
        ];
        for (field, english, required) in texts {
            let Some(english) = english else { continue };
            let english = normalize(english);
            if english.is_empty() {
                continue;
            }
            let pointer = format!("/cards/{index}/{}", field.as_str());
            let node = doc.locate(&pointer).node.clone();
            units.push(Unit {
                key: UnitKey::Card {
                    set: set_id.clone(),
                    card: card.id.0.clone(),
                    field,
                },
                english,
                required,
                path: set.path.clone(),
                span: node.span.clone(),
                node: Some(node),
                card: Some(info.clone()),
            });
        }
    }
    units
}

/// The English phrase book a pool's phrase translations follow: its own
/// `phrases/en.yaml`, or the built-in one when the pool translates the
/// templates without an English book of its own (it renders with that
/// one). `None` for a pool with no phrase files: it renders with the
/// built-in books, whose translations the built-in pool tracks.
pub(crate) fn english_phrase_file(pool: &Pool) -> Option<SourceFile> {
    if let Some(file) = pool.data_file(PHRASES_EN) {
        return Some(file.clone());
    }
    let translates = pool.data.iter().any(|f| {
        matches!(
            locale::classify(&f.relative),
            Some((_, locale::FileClass::Phrases))
        )
    });
    translates.then(|| phrases::builtin_file(Lang::En))
}

/// The units of the effect language's English phrase templates (see
/// [`english_phrase_file`]), one per template, keyed by its dotted path
/// (`timing.play`, `action.flip.3rd`). A plain key is required; an English
/// variant (`.3rd`, `.plural`, …) is optional, since another language
/// words it its own way.
pub(crate) fn phrase_units(pool: &Pool) -> Vec<Unit> {
    let Some(file) = english_phrase_file(pool) else {
        return Vec::new();
    };
    // Problems with the English book are the effect language's to report
    // (`blades build`); every template that can be read is a unit.
    let Ok(doc) = yaml::parse(file.text()) else {
        return Vec::new();
    };
    let book = phrases::read_book_file(&doc, Lang::En);
    book.templates
        .into_iter()
        .filter_map(|t| {
            let node = t.node?;
            Some(Unit {
                // A variant is optional; a plain key (or one the renderer
                // does not know, which `build` reports) is required.
                required: phrases::base_key(&t.key).is_none_or(|base| base == t.key),
                key: UnitKey::Phrase { key: t.key },
                english: normalize(&t.text),
                path: file.path.clone(),
                span: node.span.clone(),
                node: Some(node),
                card: None,
            })
        })
        .collect()
}

/// Adds an optional unit for every phrase variant a translation has and
/// English has not (Japanese `action.flip.cont`): it is tracked against
/// the English of its plain key, and sits after that key's units.
fn add_variant_units(units: &mut Vec<Unit>, locales: &Locales) {
    let phrase_units: HashMap<&str, usize> = units
        .iter()
        .enumerate()
        .filter_map(|(i, u)| match &u.key {
            UnitKey::Phrase { key } => Some((key.as_str(), i)),
            _ => None,
        })
        .collect();
    let mut added: Vec<(usize, Unit)> = Vec::new();
    for (_, entry) in locales.languages.iter().flat_map(Locale::entries) {
        let UnitKey::Phrase { key } = &entry.key else {
            continue;
        };
        if phrase_units.contains_key(key.as_str()) || added.iter().any(|(_, u)| u.key == entry.key)
        {
            continue;
        }
        let Some(base) = phrases::base_key(key).filter(|base| base != key) else {
            continue;
        };
        let Some(&at) = phrase_units.get(base) else {
            continue;
        };
        // After the plain key and its English variants.
        let mut after = at + 1;
        while units.get(after).is_some_and(|u| match &u.key {
            UnitKey::Phrase { key } => key != base && phrases::base_key(key) == Some(base),
            _ => false,
        }) {
            after += 1;
        }
        let unit = Unit {
            key: entry.key.clone(),
            required: false,
            ..units[at].clone()
        };
        added.push((after, unit));
    }
    // Insert from the back so the positions stay right; variants of one key
    // in the order of `phrases::VARIANTS`.
    let rank = |u: &Unit| {
        let key = u.key.to_string();
        let variant = key.rsplit('.').next().unwrap_or_default();
        phrases::VARIANTS.iter().position(|(v, _)| *v == variant)
    };
    added.sort_by_key(|(after, u)| (*after, rank(u)));
    for (after, unit) in added.into_iter().rev() {
        units.insert(after, unit);
    }
}

/// Every language's translation files.
#[derive(Debug, Default, Clone)]
pub struct Locales {
    /// Sorted by language code.
    pub languages: Vec<Locale>,
}

impl Locales {
    /// Reads every `locales/<lang>/*.yaml` and `phrases/<lang>.yaml` file.
    pub fn load(pool: &Pool) -> (Locales, Vec<Diagnostic>) {
        // Files parse independently (in parallel); they join their language
        // in pool order.
        let parsed: Vec<(String, Option<LocaleFile>, Vec<Diagnostic>)> = pool
            .data
            .par_iter()
            .filter_map(|file| parse_locale_file(file, true))
            .collect();
        let mut diagnostics = Vec::new();
        let mut files = Vec::new();
        for (lang, parsed, found) in parsed {
            diagnostics.extend(found);
            files.extend(parsed.map(|parsed| (lang, parsed)));
        }
        let locales = Locales::from_files(files, &mut diagnostics);
        (locales, diagnostics)
    }

    /// The languages of parsed translation files, in the given order; a
    /// second file for the same set (or phrase book) is reported and left out.
    pub fn from_files(
        files: impl IntoIterator<Item = (String, LocaleFile)>,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Locales {
        let mut by_lang: Vec<Locale> = Vec::new();
        for (lang, parsed) in files {
            let position = match by_lang.iter().position(|l| l.lang == lang) {
                Some(i) => i,
                None => {
                    by_lang.push(Locale::new(lang.clone()));
                    by_lang.len() - 1
                }
            };
            by_lang[position].add(parsed, diagnostics);
        }
        by_lang.sort_by(|a, b| a.lang.cmp(&b.lang));
        Locales { languages: by_lang }
    }

    pub fn get(&self, lang: &str) -> Option<&Locale> {
        self.languages.iter().find(|l| l.lang == lang)
    }

    /// The id of the card whose translated name is `name` in any language
    /// (case-insensitive), for lookups by a Japanese name.
    pub fn card_by_name(&self, name: &str) -> Option<&str> {
        self.languages.iter().find_map(|l| l.card_by_name(name))
    }
}

/// Reads a pool data file if it is a translation file (set text, and phrase
/// books when `phrases`): its language, the file when it could be read, and
/// its own findings. `None` for other files.
pub(crate) fn parse_locale_file(
    file: &SourceFile,
    phrases: bool,
) -> Option<(String, Option<LocaleFile>, Vec<Diagnostic>)> {
    let (lang, kind) = locale::classify(&file.relative)?;
    if kind == locale::FileClass::Phrases && !phrases {
        return None;
    }
    let mut found = Vec::new();
    let parsed = match kind {
        locale::FileClass::Set => locale::parse_set_file(file, &lang, &mut found),
        locale::FileClass::Phrases => locale::parse_phrase_file(file, &lang, &mut found),
    };
    Some((lang, parsed, found))
}

/// A second translation file for the same set (or phrase book) and language.
pub(crate) fn duplicate_locale_file(
    lang: &str,
    target: &Target,
    (path, span): (&Arc<str>, Range<usize>),
    (first_path, first_span): (&Arc<str>, Range<usize>),
) -> Diagnostic {
    let what = match target {
        Target::Set(set) => format!("set `{set}`"),
        Target::Phrases => "the phrase templates".into(),
    };
    Diagnostic::error(
        Code::LocaleDuplicate,
        path,
        span,
        format!(
            "{} text for {what} is already in {first_path}",
            language_name(lang),
        ),
    )
    .with_label("second file for this set")
    .with_related(first_path, first_span, "first file")
    .with_help("keep one locale file per set and language; merge the two")
}

/// One language's translation files.
#[derive(Debug, Clone)]
pub struct Locale {
    pub lang: String,
    pub files: Vec<LocaleFile>,
    /// Unit key → (file, entry) of the first file that holds it; built on
    /// first use (a build finds texts by set and card alone, and keying
    /// every text of a large pool costs two strings each).
    index: std::sync::OnceLock<HashMap<UnitKey, (usize, usize)>>,
    /// Set id → (file, entry) of its first translated name.
    set_names: HashMap<String, (usize, usize)>,
    /// Card id → its entries' (file, entry).
    by_card: HashMap<String, Vec<(usize, usize)>>,
    /// Lower-cased translated card name → card id (the first one); built
    /// on first use, since only the player checks look cards up by name.
    by_name: std::sync::OnceLock<HashMap<String, String>>,
}

impl Locale {
    pub fn new(lang: String) -> Locale {
        Locale {
            lang,
            files: Vec::new(),
            index: std::sync::OnceLock::new(),
            set_names: HashMap::default(),
            by_card: HashMap::default(),
            by_name: std::sync::OnceLock::new(),
        }
    }

    /// Adds a parsed file; a file for a set (or phrase file) this language
    /// already has is reported and left out.
    pub fn add(&mut self, file: LocaleFile, diagnostics: &mut Vec<Diagnostic>) {
        if let Some(first) = self.files.iter().find(|f| f.target == file.target) {
            diagnostics.push(duplicate_locale_file(
                &self.lang,
                &file.target,
                (&file.path, file.target_span.clone()),
                (&first.path, first.target_span.clone()),
            ));
            return;
        }
        let file_index = self.files.len();
        for (i, entry) in file.entries.iter().enumerate() {
            match &entry.key {
                UnitKey::Card { card, .. } => self
                    .by_card
                    .entry(card.clone())
                    .or_default()
                    .push((file_index, i)),
                UnitKey::SetName { set } => {
                    self.set_names.entry(set.clone()).or_insert((file_index, i));
                }
                UnitKey::Phrase { .. } => {}
            }
        }
        self.files.push(file);
        self.index = std::sync::OnceLock::new();
        self.by_name = std::sync::OnceLock::new();
    }

    fn index(&self) -> &HashMap<UnitKey, (usize, usize)> {
        self.index.get_or_init(|| {
            let mut index = HashMap::default();
            for (f, file) in self.files.iter().enumerate() {
                for (e, entry) in file.entries.iter().enumerate() {
                    index.entry(entry.key.clone()).or_insert((f, e));
                }
            }
            index
        })
    }

    /// The translation of a unit.
    pub fn entry(&self, key: &UnitKey) -> Option<&Entry> {
        self.index()
            .get(key)
            .map(|&(f, e)| &self.files[f].entries[e])
    }

    /// The file that holds a unit's translation.
    pub fn file_of(&self, key: &UnitKey) -> Option<&LocaleFile> {
        self.index().get(key).map(|&(f, _)| &self.files[f])
    }

    /// The translated name of a set (the first file's).
    pub fn set_name_entry(&self, set: &str) -> Option<&Entry> {
        self.set_names
            .get(set)
            .map(|&(f, e)| &self.files[f].entries[e])
    }

    /// A card's translated fields: for each field, the first file's entry.
    pub fn card_entries(&self, set: &str, card: &str) -> [Option<&Entry>; 3] {
        let mut found = [None; 3];
        for &(f, e) in self.by_card.get(card).into_iter().flatten() {
            let entry = &self.files[f].entries[e];
            if let UnitKey::Card { set: s, field, .. } = &entry.key
                && s == set
                && let Some(i) = Field::CARD.iter().position(|c| c == field)
            {
                found[i].get_or_insert(entry);
            }
        }
        found
    }

    /// Every entry, file by file.
    pub fn entries(&self) -> impl Iterator<Item = (&LocaleFile, &Entry)> {
        self.files
            .iter()
            .flat_map(|f| f.entries.iter().map(move |e| (f, e)))
    }

    /// The translated name of a card, by card id.
    pub fn card_name(&self, card: &str) -> Option<&str> {
        self.card_field(card, Field::Name)
    }

    /// A translated card field, by card id.
    pub fn card_field(&self, card: &str, field: Field) -> Option<&str> {
        self.by_card
            .get(card)?
            .iter()
            .map(|&(f, e)| &self.files[f].entries[e])
            .find(|e| e.key.field() == field)
            .map(|e| e.text.as_str())
    }

    /// The translated name of a set, by set id.
    pub fn set_name(&self, set: &str) -> Option<&str> {
        self.entry(&UnitKey::SetName { set: set.into() })
            .map(|e| e.text.as_str())
    }

    /// The id of the card with this translated name (case-insensitive).
    pub fn card_by_name(&self, name: &str) -> Option<&str> {
        let by_name = self.by_name.get_or_init(|| {
            let mut by_name = HashMap::default();
            for (_, entry) in self.entries() {
                if let UnitKey::Card {
                    card,
                    field: Field::Name,
                    ..
                } = &entry.key
                {
                    by_name
                        .entry(entry.normalized().to_lowercase())
                        .or_insert_with(|| card.clone());
                }
            }
            by_name
        });
        by_name
            .get(&normalize(name).to_lowercase())
            .map(String::as_str)
    }
}

/// The card a name designates in a database: its id, English name or a
/// translated name (`峡谷の竜`), ignoring case. Decks, collections and trades
/// can accept names in any language through this.
pub fn find_card<'a>(database: &'a Database, name: &str) -> Option<&'a Card> {
    let wanted = crate::cards::wanted(name);
    database.cards.iter().find(|c| {
        let translated = c.translations.values().filter_map(|t| t.name.as_deref());
        crate::cards::designates(&wanted, &c.id.0, &c.name, translated)
    })
}

/// A database's languages: English, then every language it has a
/// translation for (sorted).
pub fn languages(database: &Database) -> Vec<String> {
    let translated = (database.cards.iter())
        .flat_map(|c| c.translations.keys())
        .chain(database.sets.iter().flat_map(|s| s.translations.keys()));
    languages_of(translated.map(String::as_str))
}

/// English, then the other languages among `translated` (sorted, each
/// once): each copied once, not once per card that has it.
pub fn languages_of<'a>(translated: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let others: std::collections::BTreeSet<&str> = translated
        .into_iter()
        .filter(|lang| *lang != SOURCE_LANG)
        .collect();
    std::iter::once(SOURCE_LANG)
        .chain(others)
        .map(str::to_string)
        .collect()
}

/// The languages asked for (`en`, `ja`, `all`: English and every language
/// the pool translates), or an `unknown-language` finding.
pub fn choose_languages(database: &Database, asked: &str) -> Result<Vec<String>, Box<Diagnostic>> {
    choose_among(languages(database), asked)
}

/// The one language `asked` names, as a code (` JA` is `ja`); `None` for
/// `all` and for what is no language code.
pub fn one_language(asked: &str) -> Option<String> {
    let lang = asked.trim().to_lowercase();
    (lang != "all" && (lang == SOURCE_LANG || valid_lang(&lang))).then_some(lang)
}

/// [`choose_languages`] among a database's languages, `known`
/// ([`languages`]).
pub fn choose_among(known: Vec<String>, asked: &str) -> Result<Vec<String>, Box<Diagnostic>> {
    if asked.trim().to_lowercase() == "all" {
        return Ok(known);
    }
    let Some(lang) = one_language(asked) else {
        let unknown = Diagnostic::general(
            Code::UnknownLanguage,
            format!("`{asked}` is not a language code"),
        );
        return Err(Box::new(unknown.with_help("use `en`, `ja` or `all`")));
    };
    if known.contains(&lang) {
        return Ok(vec![lang]);
    }
    let missing = Diagnostic::general(
        Code::UnknownLanguage,
        format!("the pool has no `{lang}` translation"),
    );
    Err(Box::new(missing.with_help(format!(
        "languages of this pool: {}",
        known.join(", ")
    ))))
}

/// [`find_card`], or an `unknown-card` finding that suggests the nearest
/// names in any language.
pub fn card_named<'a>(database: &'a Database, name: &str) -> Result<&'a Card, Box<Diagnostic>> {
    if let Some(card) = find_card(database, name) {
        return Ok(card);
    }
    let mut known: Vec<&str> = Vec::new();
    for c in &database.cards {
        known.push(&c.name);
        known.extend(c.translations.values().filter_map(|t| t.name.as_deref()));
    }
    let help = crate::suggest::did_you_mean(&crate::suggest::nearest(name, known, 3))
        .unwrap_or_else(|| "give a card id, English name or Japanese name".to_string());
    let unknown = Diagnostic::general(Code::UnknownCard, format!("no card is named `{name}`"));
    Err(Box::new(unknown.with_help(help)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contexts_round_trip() {
        for context in [
            "sunset-gulch/name",
            "sunset-gulch/canyon-wyrm/flavor",
            "sunset-gulch/canyon-wyrm/effect",
            "phrase:timing.play",
        ] {
            let key = UnitKey::parse(context).unwrap();
            assert_eq!(key.to_string(), context);
        }
        assert_eq!(UnitKey::parse("sunset-gulch/canyon-wyrm/cost"), None);
        assert_eq!(UnitKey::parse("a/b/c/d"), None);
        assert_eq!(UnitKey::parse("phrase:"), None);
    }

    #[test]
    fn language_codes() {
        assert!(valid_lang("ja"));
        assert!(valid_lang("pt-br"));
        assert!(!valid_lang("en"));
        assert!(!valid_lang("Japanese"));
        assert!(!valid_lang("j"));
    }
}
