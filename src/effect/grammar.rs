//! The pest parser generated from the grammar, and its rules: what the
//! parser builds from and the syntax errors are described in.

/// The pest parser generated from `grammar/effect.pest`.
#[derive(pest_derive::Parser)]
#[grammar = "grammar/effect.pest"]
pub struct EffectParser;
