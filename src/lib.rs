//! blades: the card-data toolchain for *Millennium Blades*.
//!
//! The library never prints; the CLI (`src/cli`) renders what it returns.
//! Modules follow the data: source files → YAML with positions → schema →
//! card model → rules → diagnostics → output.

pub mod compile;
pub mod diagnostics;
pub mod i18n;
pub mod model;
pub mod output;
pub mod pool;
pub mod schema;
pub mod suggest;
pub mod synth;
pub mod yaml;
