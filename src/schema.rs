//! Every JSON Schema the tool publishes, generated from the types: the set
//! file, the database, the player checks' inputs and reports.
//!
//! The generated schemas are checked in under `schema/` for editors
//! (yaml-language-server completion); a test fails when they are stale.

use serde_json::Value;

use schemars::JsonSchema;

use crate::diff::DiffReport;
use crate::effect::{Effect, Rendered};
use crate::faces::gallery::GalleryReport;
use crate::faces::render::RenderReport;
use crate::faces::sheets::PrintReport;
use crate::fix::FixReport;
use crate::fmt::FmtReport;
use crate::i18n::exchange::{ExportReport, ImportReport, UpdateReport};
use crate::i18n::status::StatusReport;
use crate::model::{CardShown, Database};
use crate::report::JsonReport;
use crate::rules::collection::{BestReport, CollectionReport};
use crate::rules::copies::{CopiesReport, Manifest};
use crate::rules::deck::DeckReport;
use crate::rules::deck_diff::DeckDiff;
use crate::rules::format::FormatsFile;
use crate::rules::input;
use crate::rules::missing::MissingReport;
use crate::rules::score::ScoreReport;
use crate::rules::share::DeckExport;
use crate::rules::stats::DeckStats;
use crate::rules::trade::TradeReport;
use crate::search::SearchReport;
use crate::set_schema::set_schema;

/// What a command prints with `--format json`: its result, or, when it
/// cannot produce one (an unreadable pool, an unknown name, bad
/// arguments), the report of why, as `blades build` prints it.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)] // Only its schema is used.
enum Output<T> {
    Result(T),
    Report(JsonReport),
}

/// A named schema the project publishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemaName {
    Set,
    Database,
    // Player-check inputs.
    DeckInput,
    CollectionInput,
    BinderInput,
    TradeInput,
    CopiesInput,
    // Player-check outputs (`--format json`).
    DeckCheck,
    CollectionCheck,
    CollectionBest,
    TradeCheck,
    CopiesCheck,
    CopiesList,
    // Every other command's `--format json`.
    Report,
    EffectCheck,
    EffectRender,
    CardShow,
    Fmt,
    Fix,
    I18nStatus,
    I18nExport,
    I18nImport,
    I18nUpdate,
    ScoreInput,
    ScoreReport,
    Diff,
    DeckExport,
    DeckDiff,
    DeckStats,
    DeckMissing,
    Search,
    FormatInput,
    Render,
    Gallery,
    Print,
}

impl SchemaName {
    pub const ALL: [SchemaName; 35] = [
        SchemaName::Set,
        SchemaName::Database,
        SchemaName::DeckInput,
        SchemaName::CollectionInput,
        SchemaName::BinderInput,
        SchemaName::TradeInput,
        SchemaName::CopiesInput,
        SchemaName::DeckCheck,
        SchemaName::CollectionCheck,
        SchemaName::CollectionBest,
        SchemaName::TradeCheck,
        SchemaName::CopiesCheck,
        SchemaName::CopiesList,
        SchemaName::Report,
        SchemaName::EffectCheck,
        SchemaName::EffectRender,
        SchemaName::CardShow,
        SchemaName::Fmt,
        SchemaName::Fix,
        SchemaName::I18nStatus,
        SchemaName::I18nExport,
        SchemaName::I18nImport,
        SchemaName::I18nUpdate,
        SchemaName::ScoreInput,
        SchemaName::ScoreReport,
        SchemaName::Diff,
        SchemaName::DeckExport,
        SchemaName::DeckDiff,
        SchemaName::DeckStats,
        SchemaName::DeckMissing,
        SchemaName::Search,
        SchemaName::FormatInput,
        SchemaName::Render,
        SchemaName::Gallery,
        SchemaName::Print,
    ];

    /// The schema's name (`blades schema NAME`, and its file `schema/NAME.schema.json`).
    pub fn name(self) -> &'static str {
        match self {
            SchemaName::Set => "set",
            SchemaName::Database => "database",
            SchemaName::DeckInput => "deck",
            SchemaName::CollectionInput => "collection",
            SchemaName::BinderInput => "binder",
            SchemaName::TradeInput => "trade",
            SchemaName::CopiesInput => "copies",
            SchemaName::DeckCheck => "deck-check",
            SchemaName::CollectionCheck => "collection-check",
            SchemaName::CollectionBest => "collection-best",
            SchemaName::TradeCheck => "trade-check",
            SchemaName::CopiesCheck => "copies-check",
            SchemaName::CopiesList => "copies-list",
            SchemaName::Report => "report",
            SchemaName::EffectCheck => "effect-check",
            SchemaName::EffectRender => "effect-render",
            SchemaName::CardShow => "card-show",
            SchemaName::Fmt => "fmt",
            SchemaName::Fix => "fix",
            SchemaName::I18nStatus => "i18n-status",
            SchemaName::I18nExport => "i18n-export",
            SchemaName::I18nImport => "i18n-import",
            SchemaName::I18nUpdate => "i18n-update",
            SchemaName::ScoreInput => "score",
            SchemaName::ScoreReport => "score-report",
            SchemaName::Diff => "diff",
            SchemaName::DeckExport => "deck-export",
            SchemaName::DeckDiff => "deck-diff",
            SchemaName::DeckStats => "deck-stats",
            SchemaName::DeckMissing => "deck-missing",
            SchemaName::Search => "search",
            SchemaName::FormatInput => "deck-format",
            SchemaName::Render => "render",
            SchemaName::Gallery => "gallery",
            SchemaName::Print => "print",
        }
    }

    /// The schema called `name` (see [`SchemaName::name`]).
    pub fn from_name(name: &str) -> Option<SchemaName> {
        SchemaName::ALL
            .into_iter()
            .find(|schema| schema.name() == name)
    }

    /// File name under `schema/`.
    pub fn file_name(self) -> String {
        format!("{}.schema.json", self.name())
    }

    /// The schema, generated from the Rust types. A command's output may
    /// also be the report of why it has no result (see [`Output`]).
    pub fn generate(self) -> Value {
        let schema = match self {
            SchemaName::Set => return set_schema(),
            SchemaName::Database => schemars::schema_for!(Database),
            SchemaName::DeckInput => schemars::schema_for!(input::DeckFile),
            SchemaName::CollectionInput => schemars::schema_for!(input::CollectionFile),
            SchemaName::BinderInput => schemars::schema_for!(input::BinderFile),
            SchemaName::TradeInput => schemars::schema_for!(input::TradeFile),
            SchemaName::CopiesInput => schemars::schema_for!(input::CopiesFile),
            SchemaName::DeckCheck => schemars::schema_for!(Output<DeckReport>),
            SchemaName::CollectionCheck => schemars::schema_for!(Output<CollectionReport>),
            SchemaName::CollectionBest => schemars::schema_for!(Output<BestReport>),
            SchemaName::TradeCheck => schemars::schema_for!(Output<TradeReport>),
            SchemaName::CopiesCheck => schemars::schema_for!(Output<CopiesReport>),
            SchemaName::CopiesList => schemars::schema_for!(Output<Manifest>),
            SchemaName::Report => schemars::schema_for!(JsonReport),
            SchemaName::EffectCheck => schemars::schema_for!(Output<Effect>),
            SchemaName::EffectRender => schemars::schema_for!(Output<Rendered>),
            SchemaName::CardShow => schemars::schema_for!(Output<CardShown<'static>>),
            SchemaName::Fmt => schemars::schema_for!(Output<FmtReport>),
            SchemaName::Fix => schemars::schema_for!(Output<FixReport>),
            SchemaName::I18nStatus => schemars::schema_for!(Output<StatusReport>),
            SchemaName::I18nExport => schemars::schema_for!(Output<ExportReport>),
            SchemaName::I18nImport => schemars::schema_for!(Output<ImportReport>),
            SchemaName::I18nUpdate => schemars::schema_for!(Output<UpdateReport>),
            SchemaName::ScoreInput => schemars::schema_for!(input::ScoreFile),
            SchemaName::ScoreReport => schemars::schema_for!(Output<ScoreReport>),
            SchemaName::Diff => schemars::schema_for!(Output<DiffReport>),
            SchemaName::DeckExport => schemars::schema_for!(Output<DeckExport>),
            SchemaName::DeckDiff => schemars::schema_for!(Output<DeckDiff>),
            SchemaName::DeckStats => schemars::schema_for!(Output<DeckStats>),
            SchemaName::DeckMissing => schemars::schema_for!(Output<MissingReport>),
            SchemaName::Search => schemars::schema_for!(Output<SearchReport>),
            SchemaName::FormatInput => schemars::schema_for!(FormatsFile),
            SchemaName::Render => schemars::schema_for!(Output<RenderReport>),
            SchemaName::Gallery => schemars::schema_for!(Output<GalleryReport>),
            SchemaName::Print => schemars::schema_for!(Output<PrintReport>),
        };
        let mut value = schema.to_value();
        if let Some(object) = value.as_object_mut() {
            object.insert("title".into(), Value::from(self.name()));
        }
        value
    }

    /// The schema as the checked-in file holds it (pretty JSON, newline).
    pub fn generate_text(self) -> String {
        let mut text = serde_json::to_string_pretty(&self.generate()).unwrap_or_default();
        text.push('\n');
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checked-in schemas under `schema/` match the Rust types; run
    /// `blades schema --write schema` after changing a type.
    #[test]
    fn checked_in_schemas_are_current() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schema");
        for name in SchemaName::ALL {
            let path = dir.join(name.file_name());
            let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                on_disk == name.generate_text(),
                "{} is stale: run `blades schema --write schema`",
                path.display()
            );
        }
    }
}
