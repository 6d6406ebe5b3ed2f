//! One module per command family; each takes its clap arguments and gives the
//! process's exit status.

pub mod cast;
pub mod check;
pub mod convert_promote;
pub mod diff;
pub mod gen;
pub mod list;
pub mod query;
pub mod table;
