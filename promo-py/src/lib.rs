//! The Python module `promo`: the bundled rule sets and rule files answered by
//! `promo-query` and `promo-core`, and ONNX `Cast` and the frameworks' arithmetic
//! on numpy arrays by `promo-core`'s kernels. Nothing here decides a promotion or
//! converts or computes a number: this crate turns Python objects into the
//! questions the Rust crates answer, and the answers into Python objects.
//!
//! - `dtypes`: the `DType` class, numpy and ml_dtypes dtypes both ways;
//! - `ask`: rule sets, operands, options, `promote`, `result_type`, `explain`,
//!   `diff`;
//! - `numbers`: `finfo`, `iinfo`, `can_cast`;
//! - `arrays`: `cast` and `backend`;
//! - `compute`: `compute`, `a OP b` on arrays as the framework computes it.

use pyo3::prelude::*;

mod arrays;
mod ask;
mod compute;
mod dtypes;
mod numbers;
mod operations;

pyo3::create_exception!(
    promo,
    PromotionError,
    pyo3::exceptions::PyTypeError,
    "A rule set refused the promotion; `str()` and `.reason` are the framework's reason."
);
pyo3::create_exception!(
    promo,
    RuleFileError,
    pyo3::exceptions::PyValueError,
    "A rule file that does not load: `str()` is the `file:line:col` diagnostic `promo check` prints."
);

/// ML dtype promotion of many frameworks as reviewed rules, and ONNX `Cast` bit
/// for bit. The same Rust crates as the `promo` command: every answer is the one
/// `promo query` prints for the same question, every cast bit-identical to
/// `promo convert`; `compute` does a framework's arithmetic on numpy arrays, bit
/// for bit.
///
/// >>> import promo
/// >>> str(promo.promote("torch", "torch.float16", 2.5))
/// 'f16'
/// >>> str(promo.promote("jax", "python:int", "python:float"))
/// 'weak:f32'
#[pymodule]
fn promo(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("PromotionError", py.get_type::<PromotionError>())?;
    m.add("RuleFileError", py.get_type::<RuleFileError>())?;
    dtypes::register(m)?;
    ask::register(m)?;
    operations::register(m)?;
    numbers::register(m)?;
    arrays::register(m)?;
    compute::register(m)?;
    Ok(())
}
