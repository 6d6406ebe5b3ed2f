//! Compile-time promotion: [`Promote`], [`Promoted`] and [`RuleSet`].

use crate::Element;
use promo_table::{Options, RuleTable};

/// `Self` (a rule set's marker type) promotes `A` with `B` to [`Promote::Output`].
///
/// Implemented by `promo-macros` from the rule files, only for pairs the rule set
/// accepts; a refused pair fails to compile with the framework's reason. The third
/// parameter is the hook for that message; leave it at its default.
///
/// ```
/// use promo_core::{rules::openvino::OpenVino, Promoted};
/// let x: Promoted<OpenVino, i32, u8> = 7i32;
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no promotion of `{A}` with `{B}`",
    label = "no promotion of `{A}` with `{B}` in `{Self}`",
    note = "the rule set does not accept one of these dtypes; see `promo table`"
)]
pub trait Promote<A: Element, B: Element, Why = ()> {
    /// The common type.
    type Output: Element;
}

/// The common type of `A` and `B` under rule set `R`: `<R as Promote<A, B>>::Output`.
pub type Promoted<R, A, B> = <R as Promote<A, B>>::Output;

/// A rule set's marker type, with its run-time table and fixed options.
pub trait RuleSet: Copy + Default + 'static {
    /// The rule set's table.
    const TABLE: &'static RuleTable<'static>;
    /// The option values this marker stands for.
    const OPTIONS: Options;
}
