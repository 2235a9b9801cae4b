//! Findings as data: every problem is a [`Diagnostic`] located in a source
//! file, with a stable [`Code`]. The library collects them; `output` renders
//! them (miette for people, JSON for editors and CI).

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

/// Stable diagnostic codes. Never rename one: editors and CI scripts match
/// on them (a test snapshots the whole list).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    // Running the tool.
    Usage,
    CannotWrite,
    UnknownLanguage,
    PoolHasErrors,
    // Reading files.
    Unreadable,
    NotUtf8,
    FileTooLarge,
    ChangedDuringBuild,
    NoSets,
    IgnoredFile,
    // YAML.
    YamlSyntax,
    DuplicateKey,
    TooDeep,
    AliasBomb,
    UnsupportedKey,
    MultipleDocuments,
    // Schema.
    UnknownField,
    MissingField,
    WrongType,
    InvalidValue,
    OutOfRange,
    InvalidId,
    EmptyText,
    Schema,
    // Card semantics.
    NotCanonical,
    DuplicateSetId,
    DuplicateCardId,
    DuplicateCardName,
    UnknownType,
    DuplicateSymbol,
    SetSize,
    CopiesMismatch,
    MissingCopies,
    MissingCost,
    UnexpectedCost,
    ExtraTypesOutsideProPlayer,
    MissingStars,
    NotOnKind,
    KindOutsideSet,
    DataInvalid,
    DuplicateErrata,
    KeywordClash,
    ReminderDiffers,
    // Comparing releases (`blades diff`).
    DatabaseInvalid,
    // Player checks (deck, collection, trade and copies files).
    UnknownCard,
    AmbiguousCard,
    UnknownCharacter,
    UnknownSet,
    UnknownSymbol,
    InvalidInput,
    NegativeAmount,
    UnknownFormat,
    UnknownZone,
    FormatInvalid,
    FormatConflict,
    // Score sheets.
    UnknownMode,
    UnknownTournament,
    DuplicatePlayer,
    UnknownPlayer,
    OwnFriendship,
    PlacingOutOfRange,
    // Translations.
    LocaleInvalid,
    LocaleDuplicate,
    LocaleFingerprint,
    LocaleStale,
    GlossaryTerm,
    GlossaryForbidden,
    OverrideNumbers,
    OverrideIcons,
    OverrideKeywords,
    NameConflict,
    NameReference,
    StylePunctuation,
    StyleFullwidthAlnum,
    StyleHalfwidthKana,
    StyleSpacing,
    TextFit,
    TextOverflow,
    MissingGlyph,
    ArtOutsidePool,
    ArtMissing,
    ArtUnreadable,
    ArtNotImage,
    ArtTooLarge,
    PoSyntax,
    PoUnknownContext,
    PoDuplicateContext,
    PoStale,
    PoLanguage,
    // Search queries (`blades search`).
    SearchSyntax,
    SearchUnknownKey,
    SearchUnknownValue,
    SearchRegex,
    /// A finding of the effect language; its own code names the kind.
    Effect(&'static str),
}

/// Every code of the card-data layer with what it means (`Effect` codes are
/// listed by the effect module).
pub const CODES: &[(Code, &str)] = &[
    (
        Code::Usage,
        "the command line is wrong: an unknown option, a missing argument, options that do not go together",
    ),
    (
        Code::CannotWrite,
        "an output file or stream could not be written",
    ),
    (
        Code::UnknownLanguage,
        "a language the pool has no translation for",
    ),
    (
        Code::PoolHasErrors,
        "the card pool has errors, so nothing can be checked against it",
    ),
    (Code::Unreadable, "a file or folder could not be read"),
    (Code::NotUtf8, "a file is not valid UTF-8 text"),
    (Code::FileTooLarge, "a file is larger than the size limit"),
    (
        Code::ChangedDuringBuild,
        "a file changed while the build was running",
    ),
    (Code::NoSets, "the card folder holds no set files"),
    (
        Code::IgnoredFile,
        "a file named like a pool file is not read (an upper-case extension)",
    ),
    (Code::YamlSyntax, "the file is not valid YAML"),
    (Code::DuplicateKey, "a mapping has the same key twice"),
    (Code::TooDeep, "the YAML nests deeper than the limit"),
    (
        Code::AliasBomb,
        "YAML aliases expand beyond the node budget",
    ),
    (Code::UnsupportedKey, "a mapping key is a list or a mapping"),
    (
        Code::MultipleDocuments,
        "a file holds more than one YAML document",
    ),
    (
        Code::UnknownField,
        "a mapping has a field the schema does not know",
    ),
    (Code::MissingField, "a required field is missing"),
    (
        Code::WrongType,
        "a value has the wrong type (text for a number, …)",
    ),
    (
        Code::InvalidValue,
        "a value is not one of the allowed words",
    ),
    (Code::OutOfRange, "a number is outside its allowed range"),
    (Code::InvalidId, "an id is not kebab-case"),
    (Code::EmptyText, "a text field is empty"),
    (Code::Schema, "any other mismatch with the JSON Schema"),
    (
        Code::NotCanonical,
        "an effect is not written in canonical form (`blades fmt --check`)",
    ),
    (Code::DuplicateSetId, "two sets share an id"),
    (Code::DuplicateCardId, "two cards share an id"),
    (
        Code::DuplicateCardName,
        "two cards share a name (ignoring case)",
    ),
    (
        Code::UnknownType,
        "a card type is neither a base type nor declared",
    ),
    (
        Code::DuplicateSymbol,
        "a card lists the same element or type twice",
    ),
    (Code::SetSize, "a set's physical size does not fit its kind"),
    (
        Code::CopiesMismatch,
        "a stated copy count disagrees with the copy rule",
    ),
    (
        Code::MissingCopies,
        "a core set card does not state its copies",
    ),
    (Code::MissingCost, "a store set has no buy cost"),
    (
        Code::MissingStars,
        "a single, deck box or accessory has no STAR",
    ),
    (
        Code::NotOnKind,
        "a venue or character has a STAR, an element or a type",
    ),
    (
        Code::KindOutsideSet,
        "a venue or character stands outside its set kind, or another card in a venue or character set",
    ),
    (
        Code::UnexpectedCost,
        "a set outside the store states a buy cost",
    ),
    (
        Code::ExtraTypesOutsideProPlayer,
        "only Pro Player sets declare extra types",
    ),
    (
        Code::DataInvalid,
        "a pool data file (keywords, phrase templates) does not have the expected shape",
    ),
    (
        Code::DuplicateErrata,
        "two errata entries of one card name the same release",
    ),
    (
        Code::KeywordClash,
        "a pool keyword has the name or id of a built-in keyword",
    ),
    (
        Code::ReminderDiffers,
        "a warning: a keyword's hand-written reminder does something else than its meaning",
    ),
    (
        Code::DatabaseInvalid,
        "a file given as a built database is not one this tool can read",
    ),
    (
        Code::UnknownCard,
        "a card reference names no card of the pool",
    ),
    (
        Code::AmbiguousCard,
        "a card reference names several cards of the pool",
    ),
    (
        Code::UnknownCharacter,
        "a deck names a character the project does not know",
    ),
    (Code::UnknownSet, "a set reference names no set of the pool"),
    (
        Code::UnknownSymbol,
        "a symbol is neither an element nor a type of the pool",
    ),
    (
        Code::InvalidInput,
        "a check's input does not have the expected shape",
    ),
    (
        Code::NegativeAmount,
        "a count or amount of money is below zero",
    ),
    (
        Code::UnknownFormat,
        "a deck format name matches no format of the tool or the pool",
    ),
    (
        Code::UnknownZone,
        "a deck list's header names a zone its format does not have",
    ),
    (
        Code::FormatInvalid,
        "a deck format is malformed: a bound on nothing or with neither min nor max, an unknown rule or attribute, a count no deck holds",
    ),
    (
        Code::FormatConflict,
        "a deck format's parts do not fit together: min above max, a zone or bound it does not declare, one id or header twice",
    ),
    (
        Code::UnknownMode,
        "a score sheet names a scoring mode that does not exist",
    ),
    (
        Code::UnknownTournament,
        "a score sheet names a tournament its mode does not have",
    ),
    (Code::DuplicatePlayer, "a score sheet lists a player twice"),
    (
        Code::UnknownPlayer,
        "Friendship cards from a player the score sheet does not list",
    ),
    (
        Code::OwnFriendship,
        "a player scores their own Friendship cards",
    ),
    (
        Code::PlacingOutOfRange,
        "a tournament place outside 1 to the number of players, or inside another tie",
    ),
    (
        Code::LocaleInvalid,
        "a locale or phrase file does not have the expected shape",
    ),
    (
        Code::LocaleDuplicate,
        "two locale files of one language translate the same set",
    ),
    (
        Code::LocaleFingerprint,
        "a recorded fingerprint is not the hash of the recorded English",
    ),
    (
        Code::LocaleStale,
        "a translation whose English changed since it was made, or marked for review",
    ),
    (
        Code::GlossaryTerm,
        "a glossary term is not rendered with its official translation",
    ),
    (
        Code::GlossaryForbidden,
        "a translation uses a forbidden variant of an official term",
    ),
    (
        Code::OverrideNumbers,
        "an effect override's numbers differ from the English",
    ),
    (
        Code::OverrideIcons,
        "an effect override's STAR/RP icons differ from the English",
    ),
    (
        Code::OverrideKeywords,
        "an effect override's timing words or keywords differ from the English",
    ),
    (
        Code::NameConflict,
        "one English name has two translations, or two English names one",
    ),
    (
        Code::NameReference,
        "an effect override names a card or set without its translated name",
    ),
    (
        Code::StylePunctuation,
        "half-width punctuation in Japanese text",
    ),
    (
        Code::StyleFullwidthAlnum,
        "full-width digits or Latin letters in Japanese text",
    ),
    (
        Code::StyleHalfwidthKana,
        "half-width katakana in Japanese text",
    ),
    (Code::StyleSpacing, "a space next to full-width text"),
    (Code::TextFit, "a translation does not fit its text box"),
    (
        Code::TextOverflow,
        "a card's text does not fit its box on the face even at the smallest type size",
    ),
    (
        Code::MissingGlyph,
        "a card's text has a character the shipped fonts cannot draw",
    ),
    (
        Code::ArtOutsidePool,
        "a card's art path is absolute or climbs out of its folder (`..`)",
    ),
    (Code::ArtMissing, "a card's art file does not exist"),
    (Code::ArtUnreadable, "a card's art file cannot be read"),
    (
        Code::ArtNotImage,
        "a card's art file is not a PNG, JPEG, WebP or SVG image",
    ),
    (Code::ArtTooLarge, "a card's art file is larger than 8 MiB"),
    (Code::PoSyntax, "a PO file is not valid"),
    (
        Code::PoUnknownContext,
        "a PO entry's msgctxt names no translatable field",
    ),
    (
        Code::PoDuplicateContext,
        "a PO file has two entries with the same msgctxt",
    ),
    (
        Code::PoStale,
        "a PO entry was translated from English that has changed since",
    ),
    (Code::PoLanguage, "a PO file is for another language"),
    (
        Code::SearchSyntax,
        "a search query does not parse, or uses an operator its key does not take",
    ),
    (
        Code::SearchUnknownKey,
        "a search query names an unknown key",
    ),
    (
        Code::SearchUnknownValue,
        "a search query gives a key a value it does not know",
    ),
    (
        Code::SearchRegex,
        "a search query's regular expression does not compile",
    ),
];

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Usage => "usage",
            Code::CannotWrite => "cannot-write",
            Code::UnknownLanguage => "unknown-language",
            Code::PoolHasErrors => "pool-has-errors",
            Code::Unreadable => "unreadable",
            Code::NotUtf8 => "not-utf8",
            Code::FileTooLarge => "file-too-large",
            Code::ChangedDuringBuild => "changed-during-build",
            Code::NoSets => "no-sets",
            Code::IgnoredFile => "ignored-file",
            Code::YamlSyntax => "yaml-syntax",
            Code::DuplicateKey => "duplicate-key",
            Code::TooDeep => "too-deep",
            Code::AliasBomb => "alias-bomb",
            Code::UnsupportedKey => "unsupported-key",
            Code::MultipleDocuments => "multiple-documents",
            Code::UnknownField => "unknown-field",
            Code::MissingField => "missing-field",
            Code::WrongType => "wrong-type",
            Code::InvalidValue => "invalid-value",
            Code::OutOfRange => "out-of-range",
            Code::InvalidId => "invalid-id",
            Code::EmptyText => "empty-text",
            Code::Schema => "schema",
            Code::NotCanonical => "not-canonical",
            Code::DuplicateSetId => "duplicate-set-id",
            Code::DuplicateCardId => "duplicate-card-id",
            Code::DuplicateCardName => "duplicate-card-name",
            Code::UnknownType => "unknown-type",
            Code::DuplicateSymbol => "duplicate-symbol",
            Code::SetSize => "set-size",
            Code::CopiesMismatch => "copies-mismatch",
            Code::MissingCopies => "missing-copies",
            Code::MissingCost => "missing-cost",
            Code::MissingStars => "missing-stars",
            Code::NotOnKind => "not-on-kind",
            Code::KindOutsideSet => "kind-outside-set",
            Code::UnexpectedCost => "unexpected-cost",
            Code::ExtraTypesOutsideProPlayer => "extra-types-outside-pro-player",
            Code::DataInvalid => "data-invalid",
            Code::DuplicateErrata => "duplicate-errata",
            Code::KeywordClash => "keyword-clash",
            Code::ReminderDiffers => "reminder-differs",
            Code::DatabaseInvalid => "database-invalid",
            Code::UnknownCard => "unknown-card",
            Code::AmbiguousCard => "ambiguous-card",
            Code::UnknownCharacter => "unknown-character",
            Code::UnknownSet => "unknown-set",
            Code::UnknownSymbol => "unknown-symbol",
            Code::InvalidInput => "invalid-input",
            Code::NegativeAmount => "negative-amount",
            Code::UnknownFormat => "unknown-format",
            Code::UnknownZone => "unknown-zone",
            Code::FormatInvalid => "format-invalid",
            Code::FormatConflict => "format-conflict",
            Code::UnknownMode => "unknown-mode",
            Code::UnknownTournament => "unknown-tournament",
            Code::DuplicatePlayer => "duplicate-player",
            Code::UnknownPlayer => "unknown-player",
            Code::OwnFriendship => "own-friendship",
            Code::PlacingOutOfRange => "placing-out-of-range",
            Code::LocaleInvalid => "locale-invalid",
            Code::LocaleDuplicate => "locale-duplicate",
            Code::LocaleFingerprint => "locale-fingerprint",
            Code::LocaleStale => "locale-stale",
            Code::GlossaryTerm => "glossary-term",
            Code::GlossaryForbidden => "glossary-forbidden",
            Code::OverrideNumbers => "override-numbers",
            Code::OverrideIcons => "override-icons",
            Code::OverrideKeywords => "override-keywords",
            Code::NameConflict => "name-conflict",
            Code::NameReference => "name-reference",
            Code::StylePunctuation => "style-punctuation",
            Code::StyleFullwidthAlnum => "style-fullwidth-alnum",
            Code::StyleHalfwidthKana => "style-halfwidth-kana",
            Code::StyleSpacing => "style-spacing",
            Code::TextFit => "text-fit",
            Code::TextOverflow => "text-overflow",
            Code::MissingGlyph => "missing-glyph",
            Code::ArtOutsidePool => "art-outside-pool",
            Code::ArtMissing => "art-missing",
            Code::ArtUnreadable => "art-unreadable",
            Code::ArtNotImage => "art-not-image",
            Code::ArtTooLarge => "art-too-large",
            Code::PoSyntax => "po-syntax",
            Code::PoUnknownContext => "po-unknown-context",
            Code::PoDuplicateContext => "po-duplicate-context",
            Code::PoStale => "po-stale",
            Code::PoLanguage => "po-language",
            Code::SearchSyntax => "search-syntax",
            Code::SearchUnknownKey => "search-unknown-key",
            Code::SearchUnknownValue => "search-unknown-value",
            Code::SearchRegex => "search-regex",
            Code::Effect(code) => code,
        }
    }
}

/// Every code the effect language reports (`Code::Effect`), with what it
/// means: kept here, below the language, so that a cached finding reads
/// back. Codes are stable: a test snapshots this list so none is renamed
/// by accident.
pub const EFFECT_CODES: &[(&str, &str)] = &[
    (
        "effect-syntax",
        "the text does not follow the effect grammar",
    ),
    (
        "effect-too-long",
        "an effect text longer than the language allows (2,000 characters)",
    ),
    (
        "effect-too-deep",
        "card descriptions nested more deeply than the language allows (16 levels)",
    ),
    (
        "unknown-keyword",
        "a keyword line names no keyword of the keyword table",
    ),
    (
        "keyword-number-missing",
        "the keyword takes a number and none is written",
    ),
    (
        "keyword-number-unexpected",
        "a number follows a keyword that takes none",
    ),
    (
        "keyword-symbol-missing",
        "the keyword takes an element or a type and none is written after its name",
    ),
    (
        "keyword-symbol-wrong",
        "the word after a keyword's name is not the element or type it takes",
    ),
    ("duplicate-keyword", "the same keyword is written twice"),
    (
        "unknown-type",
        "an element, type or rarity word that the vocabulary does not know",
    ),
    (
        "unknown-set",
        "a set name or id that the vocabulary does not know",
    ),
    (
        "number-out-of-range",
        "a number outside what the rules allow (RP 1-99, STAR 1-20, ...)",
    ),
    (
        "reaction-without-trigger",
        "a Reaction has no `(when ...)` condition",
    ),
    (
        "trigger-not-allowed",
        "a `(when ...)` condition on a timing other than Reaction",
    ),
    (
        "outcome-without-clash",
        "a `Win:`/`Lose:`/`Tie:` sentence that follows no clash",
    ),
    (
        "duplicate-outcome",
        "the same clash result is given twice for one clash",
    ),
    (
        "pronoun-without-antecedent",
        "`it` or `them` refers to no card named before it",
    ),
    (
        "player-without-antecedent",
        "`their` or `that opponent` refers to no player named before it",
    ),
    (
        "ambiguous-reference",
        "`their` or `that opponent` could mean either of two opponents the line names",
    ),
    ("copy-self", "a copy effect that copies its own card"),
    ("mimic-self", "a card that takes its own elements or types"),
    ("attach-self", "a card attached to itself"),
    (
        "flip-face-down",
        "flipping face-down cards (flipping only turns cards face down)",
    ),
    (
        "face-down-attributes",
        "face-down cards asked for STAR, element, type, rarity or set, which they do not have",
    ),
    (
        "state-needs-continuous-timing",
        "a lasting state (cannot be flipped, +STAR, Mimicry) outside Ongoing or Top",
    ),
    (
        "other-without-card",
        "`other` or `adjacent` where there is no card to compare with",
    ),
    (
        "sense-flip-flipped",
        "a warning: flipping this card where it is face down already (a Flip ability, a Reaction to its own flip, a second flip)",
    ),
    (
        "sense-one-shot-lasting",
        "a warning: a one-shot action under `Ongoing:` or `Top:`, which never say when it happens",
    ),
    (
        "sense-gain-and-lose",
        "a warning: one sentence makes a player gain and lose (or pay) the same: RP, Millennium Dollars or VP",
    ),
    (
        "sense-opposite-modifiers",
        "a warning: opposite STAR changes on the same cards under the same condition",
    ),
    (
        "sense-never-holds",
        "a warning: a condition no game state meets",
    ),
    (
        "sense-never-there",
        "a warning: a card kind where it never is (a deck box or accessory in a tableau, or as a Top Card)",
    ),
    (
        "deck-limit-kind",
        "`your deck may include N more cards`: a deck's limits are per kind (singles, deck boxes, accessories)",
    ),
    (
        "sense-timing-kind",
        "a warning: a timing a card of this kind never reaches (a Venue or character played, flipped or in a tableau; `Tournament:` on a card of a tableau)",
    ),
    (
        "sense-venue-every-player",
        "a warning: a clause every player or each opponent does, on a Venue, whose rules each player follows as `you`",
    ),
    (
        "sense-reference",
        "a warning: `it`, `them` or `N of them` for cards that are not one, several or that many",
    ),
    (
        "whenever-needs-lasting-timing",
        "`whenever …` or `at the start of … turn` outside `Ongoing:`/`Top:`/`Deckbuilding:`",
    ),
    (
        "ambiguous-subjects",
        "subjects sharing a state where a later one's place, set or STAR could be the earlier ones' too",
    ),
    (
        "gives-to-self",
        "money given by a player to themselves (`you give … to you`)",
    ),
    (
        "wrong-phase",
        "a word of one part of the game in an ability of another: the tournament's in `Deckbuilding:` or `Game End:`, the Deckbuilding Phase's in the tournament or at the end of the game, a hand size outside `Deckbuilding:`",
    ),
    (
        "until-in-lasting-timing",
        "`until the end of …` in an `Ongoing:`/`Top:` ability, which lasts anyway",
    ),
    (
        "sense-until-nothing-lasts",
        "`until the end of …` over actions that each happen once",
    ),
    (
        "effect-reads-differently",
        "the English a card prints reads back as a different effect than the one it has",
    ),
    (
        "effect-not-formatted",
        "a warning of `fmt`: an effect left as written, as its canonical form would not read back as the same effect",
    ),
];

impl Code {
    /// The code with this name, for reading cached results back.
    pub fn from_name(name: &str) -> Option<Code> {
        let effect = || EFFECT_CODES.iter().find(|(code, _)| *code == name);
        (CODES.iter().map(|(code, _)| *code))
            .find(|code| code.as_str() == name)
            .or_else(|| effect().map(|(code, _)| Code::Effect(code)))
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Code {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Code::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown code `{name}`")))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// Shares the texts of findings that say the same thing: a million cards
/// missing one field make a million findings but one message, one label
/// and one help, each held once (a finding is then its place and three
/// pointers).
#[derive(Debug, Default)]
pub struct Interner {
    texts: std::collections::HashSet<Arc<str>>,
}

impl Interner {
    /// The finding with its texts replaced by equal ones already held.
    pub fn share(&mut self, mut d: Diagnostic) -> Diagnostic {
        d.message = self.text(d.message);
        d.label = self.text(d.label);
        d.help = d.help.map(|help| self.text(help));
        d
    }

    fn text(&mut self, text: Arc<str>) -> Arc<str> {
        match self.texts.get(&text) {
            Some(held) => held.clone(),
            None => {
                self.texts.insert(text.clone());
                text
            }
        }
    }
}

/// A second place that matters ("first defined here").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Related {
    pub path: Arc<str>,
    pub span: Range<usize>,
    pub label: String,
}

/// One finding, located in a source file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    /// The file as the user named it (or `cards/<file>` for the built-in pool).
    pub path: Arc<str>,
    /// Byte range in the file (empty for a finding about the whole file).
    pub span: Range<usize>,
    pub message: Arc<str>,
    pub label: Arc<str>,
    pub help: Option<Arc<str>>,
    pub related: Vec<Related>,
    /// The changes that do what the help says, when it names one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fixes: Vec<Fix>,
}

/// A change to the finding's file that does what its help says
/// (`did you mean `air`?` is the fix `air` over the misspelt word): data,
/// so that `blades fix` and an editor's quick fix apply the same edits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fix {
    /// What it does, for a menu: "write `air`".
    pub title: Arc<str>,
    /// Byte ranges of the finding's file and their new text, in order,
    /// none overlapping another.
    pub edits: Vec<Edit>,
    /// It records a person's judgement (a translation reviewed against
    /// the English now), so it is made only when asked for by name: an
    /// editor's menu, `blades fix --reviewed`; never by a plain `blades fix`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub review: bool,
}

/// One replacement in a file's text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edit {
    pub span: Range<usize>,
    pub text: Arc<str>,
}

impl Fix {
    /// One replacement: `span` becomes `text`.
    pub fn replace(
        title: impl Into<Arc<str>>,
        span: Range<usize>,
        text: impl Into<Arc<str>>,
    ) -> Fix {
        Fix {
            title: title.into(),
            edits: vec![Edit {
                span,
                text: text.into(),
            }],
            review: false,
        }
    }

    /// A fix that says a person has reviewed the text (see [`Fix::review`]).
    pub fn after_review(title: impl Into<Arc<str>>, edits: Vec<Edit>) -> Fix {
        Fix {
            title: title.into(),
            edits,
            review: true,
        }
    }

    /// `text` with the edits made, or `None` when an edit does not fall
    /// on character boundaries of `text` in order (the text has changed
    /// since the finding was made).
    pub fn apply(&self, text: &str) -> Option<String> {
        apply_edits(text, self.edits.iter())
    }
}

/// `text` with every edit made (given in order, none overlapping), or
/// `None` when one does not fit the text.
pub fn apply_edits<'a>(text: &str, edits: impl IntoIterator<Item = &'a Edit>) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for edit in edits {
        let Range { start, end } = edit.span;
        if start < at || end < start || !text.is_char_boundary(start) || !text.is_char_boundary(end)
        {
            return None;
        }
        out.push_str(&text[at..start]);
        out.push_str(&edit.text);
        at = end;
    }
    out.push_str(text.get(at..)?);
    Some(out)
}

impl Diagnostic {
    pub fn error(
        code: Code,
        path: &Arc<str>,
        span: Range<usize>,
        message: impl Into<Arc<str>>,
    ) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            path: path.clone(),
            span,
            message: message.into(),
            label: Arc::from(""),
            help: None,
            related: Vec::new(),
            fixes: Vec::new(),
        }
    }

    /// A finding about the run, not a place in a file: bad arguments, an
    /// output that cannot be written, a name that matches nothing.
    pub fn general(code: Code, message: impl Into<Arc<str>>) -> Self {
        Diagnostic::error(code, &Arc::from(""), 0..0, message)
    }

    /// Whether the finding points into no file (see [`Diagnostic::general`]).
    pub fn is_general(&self) -> bool {
        self.path.is_empty()
    }

    pub fn warning(
        code: Code,
        path: &Arc<str>,
        span: Range<usize>,
        message: impl Into<Arc<str>>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, path, span, message)
        }
    }

    /// The same finding as a warning.
    pub fn as_warning(mut self) -> Self {
        self.severity = Severity::Warning;
        self
    }

    pub fn with_label(mut self, label: impl Into<Arc<str>>) -> Self {
        self.label = label.into();
        self
    }

    pub fn with_help(mut self, help: impl Into<Arc<str>>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The finding with fixes that do what its help says (an `Option`
    /// for a fix there may not be).
    pub fn with_fixes(mut self, fixes: impl IntoIterator<Item = Fix>) -> Self {
        self.fixes.extend(fixes);
        self
    }

    /// The fix that writes `text` over `span`, titled "write `text`" (or
    /// "add `text`" where the span is empty: an insertion).
    pub fn with_replacement(self, span: Range<usize>, text: &str) -> Self {
        let verb = if span.is_empty() { "add" } else { "write" };
        self.with_fixes([Fix::replace(format!("{verb} `{text}`"), span, text)])
    }

    pub fn with_related(
        mut self,
        path: &Arc<str>,
        span: Range<usize>,
        label: impl Into<String>,
    ) -> Self {
        self.related.push(Related {
            path: path.clone(),
            span,
            label: label.into(),
        });
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// The text of every file diagnostics may point into, by path, each with
/// its line index built the first time a position in it is asked for.
#[derive(Debug, Default, Clone)]
pub struct Sources {
    files: BTreeMap<Arc<str>, Arc<SourceText>>,
}

/// One file's text and its [`LineIndex`] (built on first use: most files
/// have no findings).
#[derive(Debug)]
pub struct SourceText {
    text: Arc<str>,
    lines: OnceLock<LineIndex>,
}

impl SourceText {
    pub fn text(&self) -> &Arc<str> {
        &self.text
    }

    pub fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(&self.text))
    }
}

impl Sources {
    pub fn insert(&mut self, path: Arc<str>, text: Arc<str>) {
        let text = SourceText {
            text,
            lines: OnceLock::new(),
        };
        self.files.insert(path, Arc::new(text));
    }

    pub fn get(&self, path: &str) -> Option<&Arc<str>> {
        self.files.get(path).map(|file| &file.text)
    }

    /// Adds every file of `other` (its text for a path replaces this one's).
    pub fn extend(&mut self, other: Sources) {
        self.files.extend(other.files);
    }

    /// The file's text with its line index.
    pub fn file(&self, path: &str) -> Option<&Arc<SourceText>> {
        self.files.get(path)
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, path: &str, offset: usize) -> (usize, usize) {
        match self.file(path) {
            Some(file) => file.lines().line_col(&file.text, offset),
            None => (1, 1),
        }
    }
}

/// Where lines start in a text, and how many characters come before every
/// [`CHAR_MARK`]th byte: a byte offset becomes a line and a column in
/// logarithmic time plus at most `CHAR_MARK` bytes scanned, however long
/// the line. Built once per file, so a report's cost is linear in the
/// number of findings (rescanning the text for each one was quadratic).
#[derive(Debug, Clone)]
pub struct LineIndex {
    /// Byte offset where each line starts (the first is 0).
    line_starts: Vec<usize>,
    /// Characters before byte `i * CHAR_MARK`; empty for ASCII text, where
    /// bytes are characters.
    char_marks: Vec<usize>,
}

/// Where each line of `text` starts (the first at 0). A line ends at LF,
/// CRLF or a lone CR (YAML's line breaks, and the old Mac files an editor
/// still opens line by line).
pub(crate) fn line_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = text.as_bytes();
    let ends = memchr::memchr2_iter(b'\r', b'\n', bytes)
        .filter(|&i| !(bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n')));
    std::iter::once(0).chain(ends.map(|i| i + 1))
}

/// Bytes between two character counts kept by a [`LineIndex`].
const CHAR_MARK: usize = 64;

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let line_starts = line_starts(text).collect();
        let char_marks = if text.is_ascii() {
            Vec::new()
        } else {
            // One mark per chunk start, and one for the end of the text.
            let mut marks = Vec::with_capacity(bytes.len() / CHAR_MARK + 2);
            let mut count = 0;
            for chunk in bytes.chunks(CHAR_MARK) {
                marks.push(count);
                count += char_starts(chunk);
            }
            marks.push(count);
            marks
        };
        LineIndex {
            line_starts,
            char_marks,
        }
    }

    /// 1-based line of a byte offset.
    pub fn line(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&start| start <= offset)
    }

    /// Byte offset where a 1-based line starts (the end of the text past
    /// the last line).
    pub fn line_start(&self, line: usize) -> Option<usize> {
        self.line_starts.get(line.checked_sub(1)?).copied()
    }

    /// The bytes of a 1-based line in `text`, without its line break.
    pub fn line_range(&self, text: &str, line: usize) -> Range<usize> {
        let start = self.line_start(line).unwrap_or(text.len());
        let mut end = self.line_start(line + 1).unwrap_or(text.len());
        let bytes = text.as_bytes();
        if end > start && bytes[end - 1] == b'\n' {
            end -= 1;
        }
        if end > start && bytes[end - 1] == b'\r' {
            end -= 1;
        }
        start..end
    }

    /// Number of lines (a text ending in a newline has an empty last one).
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Characters in `text` before byte `offset` (a char boundary).
    pub fn chars_before(&self, text: &str, offset: usize) -> usize {
        if self.char_marks.is_empty() {
            return offset;
        }
        let mark = offset / CHAR_MARK;
        self.char_marks[mark] + char_starts(&text.as_bytes()[mark * CHAR_MARK..offset])
    }

    /// 1-based line and column (in characters) of a byte offset in `text`,
    /// the text this index was built from. An offset past the end or
    /// inside a character counts as the character's start.
    pub fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = char_floor(text, offset);
        let line = self.line(offset);
        let start = self.line_starts[line - 1];
        let column = self.chars_before(text, offset) - self.chars_before(text, start) + 1;
        (line, column)
    }
}

impl LineIndex {
    /// 1-based line and column in UTF-16 code units (what the Language
    /// Server Protocol counts by default) of a byte offset in `text`: the
    /// same place as [`LineIndex::line_col`], for an editor. Linear in the
    /// line's length.
    pub fn line_col_utf16(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = char_floor(text, offset);
        let line = self.line(offset);
        let start = self.line_starts[line - 1];
        (line, text[start..offset].encode_utf16().count() + 1)
    }
}

/// The largest char boundary at or before `offset` (clamped to the text).
pub(crate) fn char_floor(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Bytes that start a character (all but UTF-8 continuation bytes).
fn char_starts(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// Sorts diagnostics by file, then position, then code, so output is stable.
pub fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        (&a.path, a.span.start, a.code, &a.message).cmp(&(
            &b.path,
            b.span.start,
            b.code,
            &b.message,
        ))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_reads_back_as_it_was_written_including_the_effect_languages() {
        let codes = (CODES.iter().map(|(code, _)| *code))
            .chain(EFFECT_CODES.iter().map(|(code, _)| Code::Effect(code)));
        for code in codes {
            let json = serde_json::to_string(&code).unwrap();
            let back: Code = serde_json::from_str(&json).unwrap();
            assert_eq!(back.as_str(), code.as_str());
        }
        assert!(serde_json::from_str::<Code>("\"no-such-code\"").is_err());
    }

    /// The position by scanning the text from its start: the definition
    /// the index must agree with.
    fn scanned_line_col(text: &str, offset: usize) -> (usize, usize) {
        let (mut line, mut column) = (1, 1);
        for (i, c) in text[..char_floor(text, offset)].char_indices() {
            let lone_cr = c == '\r' && !text[i + 1..].starts_with('\n');
            if c == '\n' || lone_cr {
                (line, column) = (line + 1, 1);
            } else {
                column += 1;
            }
        }
        (line, column)
    }

    #[test]
    fn utf16_columns_count_surrogate_pairs_twice() {
        // `𝄞` is one character and two UTF-16 code units; `峡` is one of each.
        let text = "a\n峡𝄞x\n";
        let index = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(index.line_col(text, x), (2, 3));
        assert_eq!(index.line_col_utf16(text, x), (2, 4));
        assert_eq!(index.line_col_utf16(text, 0), (1, 1));
    }

    #[test]
    fn line_col_counts_characters() {
        let text = "ab\n峡谷x\n";
        let index = LineIndex::new(text);
        assert_eq!(index.line_col(text, 0), (1, 1));
        assert_eq!(index.line_col(text, 3), (2, 1));
        assert_eq!(index.line_col(text, 9), (2, 3));
        assert_eq!(index.line_col(text, 4), (2, 1), "inside a character");
        assert_eq!(index.line_col(text, 99), (3, 1), "past the end");
        let breaks = "a\rb\r\nc\nd";
        let index = LineIndex::new(breaks);
        let starts: Vec<usize> = (1..=4)
            .map(|l| index.line_col(breaks, index.line_start(l).unwrap()).0)
            .collect();
        assert_eq!(starts, [1, 2, 3, 4], "CR, CRLF and LF each end a line");
        assert_eq!(index.line_range(breaks, 2), 2..3);
    }

    #[test]
    fn a_position_far_into_a_long_line_is_found_without_rescanning() {
        let text = format!("a\n{}峡{}x", "é".repeat(70_000), " ".repeat(70_000));
        let index = LineIndex::new(&text);
        let x = text.len() - 1;
        assert_eq!(index.line_col(&text, x), (2, 140_002));
        assert_eq!(index.line_col(&text, x), scanned_line_col(&text, x));
    }

    proptest::proptest! {
        #[test]
        fn the_index_agrees_with_scanning(
            text in "(a|é|峡|\n|\r|🂡| ){0,300}",
            offsets in proptest::collection::vec(0usize..1300, 1..20),
        ) {
            let index = LineIndex::new(&text);
            for offset in offsets {
                proptest::prop_assert_eq!(
                    index.line_col(&text, offset),
                    scanned_line_col(&text, offset)
                );
            }
        }
    }

    #[test]
    fn every_code_is_listed_once_with_a_distinct_name() {
        let mut names: Vec<&str> = CODES.iter().map(|(c, _)| c.as_str()).collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count);
        assert!(names.iter().all(|n| {
            n.chars()
                .all(|c| c.is_ascii_lowercase() || c == '-' || c.is_ascii_digit())
        }));
    }
}
