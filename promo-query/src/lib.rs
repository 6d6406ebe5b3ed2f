//! A promotion question as a person types it, answered the same way by the `promo`
//! command and by the Python package: the rule set by name or by path, loaded once
//! ([`source::RuleSet`]; a user's rule file flattened like a bundled one); dtype, operand, operation and option names, with the closest
//! known name suggested for a slip ([`names`]); and the cells where two rule sets,
//! or two option settings of one, disagree ([`diff`]); a question about an operation
//! of any arity, checked against what it takes ([`question`]).
//!
//! ```
//! use promo_query::{names, source};
//! let answer = source::with_rules("torch", |table| -> Result<String, String> {
//!     let (options, op) = source::options_and_op(table, &[], "add")?;
//!     let lhs = names::operand(table, "torch.float16")?;
//!     let rhs = names::operand(table, "python:float")?;
//!     Ok(table.promote(&options, op, lhs, rhs).map_err(|e| e.to_string())?.name().to_owned())
//! });
//! assert_eq!(answer, Ok(Ok("f16".to_owned())));
//! assert!(names::operand(promo_core::rules::by_name("numpy").unwrap(), "flaot32")
//!     .unwrap_err()
//!     .contains("did you mean `f32`"));
//! ```

pub mod diff;
pub mod names;
pub mod question;
pub mod source;
