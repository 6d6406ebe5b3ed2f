//! The type-level tests of promo-core (`Promote` for every operand kind, `PromoteOp`,
//! generic arithmetic in the promoted type) are this package's test targets; the
//! package has no code of its own.
