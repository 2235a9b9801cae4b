//! blades: the card-data toolchain for *Millennium Blades*.
//!
//! The library never prints; the CLI (`src/cli`) renders what it returns.
//! Modules follow the data: source files → YAML with positions → schema →
//! card model → rules → diagnostics → output.

pub mod effect;
