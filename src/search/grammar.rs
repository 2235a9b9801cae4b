//! The pest parser generated from `grammar/search.pest`.

/// The parser of search queries (`SearchParser::parse(Rule::query, text)`).
#[derive(pest_derive::Parser)]
#[grammar = "grammar/search.pest"]
pub struct SearchParser;
