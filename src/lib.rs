//! blades: the card-data toolchain for *Millennium Blades*.
//!
//! The library never prints; the CLI (`src/cli`) renders what it returns.
//! Modules follow the data: source files → YAML with positions → schema →
//! card model → rules → diagnostics → output.
//!
//! Building the built-in pool from another program:
//!
//! ```
//! use blades::compile::compile;
//! use blades::pool::Pool;
//!
//! let compiled = compile(&Pool::builtin());
//! assert_eq!(compiled.error_count(), 0);
//! let database = compiled.database.expect("the built-in pool is valid");
//! assert!(database.cards.iter().any(|card| card.copies == 3));
//! ```

pub mod cache;
pub mod cards;
pub mod compile;
pub mod diagnostics;
pub mod effect;
pub mod fmt;
pub mod i18n;
pub mod model;
pub mod output;
pub mod pool;
pub mod rules;
pub mod schema;
pub mod suggest;
pub mod synth;
pub mod yaml;
