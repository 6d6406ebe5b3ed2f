//! Operations of every arity (docs/operations.md): `promo.apply` answers `sqrt(x)`,
//! `sum(x, dtype=D)`, `concatenate([a, b, c])`, `a += b` and `add(a, b, out=c)` with
//! the result's dtype and the dtype the framework computes in, as `promo query` and
//! `promo explain` answer them.

use promo_core::{Operand, Promotion, RuleTable};
use promo_query::question::Question;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::ask::{op, operand, options, refused, with_rules};
use crate::dtypes::{self, PyDType};

/// What an operation gives: its ``result`` (a ``DType``, weakly typed where the
/// framework's is) and the dtype it is ``compute``\\ d in.
#[pyclass(name = "Outcome", module = "promo", frozen, get_all)]
pub struct PyOutcome {
    /// The result's dtype.
    result: Py<PyDType>,
    /// The dtype the framework computes in: the result's unless the rule set says
    /// otherwise (PyTorch's f32 for f16 arithmetic).
    compute: Py<PyDType>,
}

#[pymethods]
impl PyOutcome {
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        let py = other.py();
        let same =
            |a: &Py<PyDType>, b: &Py<PyDType>| a.bind(py).get().promotion() == b.bind(py).get().promotion();
        other
            .cast::<PyOutcome>()
            .is_ok_and(|o| same(&self.result, &o.get().result) && same(&self.compute, &o.get().compute))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "promo.Outcome(result={}, compute={})",
            self.result.bind(py).get().__repr__(),
            self.compute.bind(py).get().__repr__()
        )
    }
}

/// The question `operands` (Python objects, as ``promote`` takes them), `out` and
/// `dtype` ask of `op` under `table`.
pub(crate) fn question(
    table: &RuleTable<'_>,
    op_name: &str,
    operands: &Bound<'_, PyTuple>,
    out: Option<&Bound<'_, PyAny>>,
    dtype: Option<&Bound<'_, PyAny>>,
) -> PyResult<Question> {
    let op = op(table, op_name)?;
    let operands = operands
        .iter()
        .map(|o| operand(table, &o))
        .collect::<PyResult<Vec<Operand>>>()?;
    let out = out.map(|o| operand(table, o)).transpose()?;
    let dtype = match dtype.map(|d| operand(table, d)).transpose()? {
        None => None,
        Some(Operand::Dimensioned(d) | Operand::Scalar(d)) => Some(d),
        Some(other) => {
            return Err(PyTypeError::new_err(format!(
                "dtype= is a dtype, not the operand {other}"
            )))
        }
    };
    Question::new(op, operands, dtype, out)
        .map_err(|e| PyValueError::new_err(e.message(&format!("promo.apply(rules, {op:?}, "), false)))
}

/// ``op`` on ``operands``: one for a unary operation or a reduction (``"sqrt"``,
/// ``"sum"``), two for an elementwise operation, ``matmul`` or an in-place one
/// (``"+="``), two or more for ``concatenate``; ``dtype=`` a reduction's argument,
/// ``out=`` the array written into. Returns an ``Outcome``; a refusal raises
/// ``PromotionError`` with the framework's reason, a count the operation does not
/// take ``ValueError``.
///
/// >>> import promo
/// >>> promo.apply("numpy", "add", "i8", "u8")
/// promo.Outcome(result=promo.DType('i16'), compute=promo.DType('i16'))
#[pyfunction]
#[pyo3(signature = (rules, op, *operands, out = None, dtype = None, **options))]
pub fn apply<'py>(
    rules: &Bound<'py, PyAny>,
    op: &str,
    operands: &Bound<'py, PyTuple>,
    out: Option<&Bound<'py, PyAny>>,
    dtype: Option<&Bound<'py, PyAny>>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<PyOutcome> {
    let py = rules.py();
    with_rules(rules, |table| {
        let settings = self::options(table, options)?;
        let q = question(table, op, operands, out, dtype)?;
        match table.apply(&settings, q.op, &q.operands, q.out) {
            Ok(o) => Ok(PyOutcome {
                result: dtypes::interned(py, o.result)?.unbind(),
                compute: dtypes::interned(
                    py,
                    Promotion {
                        dtype: o.compute,
                        weak: false,
                    },
                )?
                .unbind(),
            }),
            Err(e) => Err(refused(py, promo_query::names::refusal(table, &e))),
        }
    })
}

/// Adds the operations' functions and classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyOutcome>()?;
    m.add_function(wrap_pyfunction!(apply, m)?)?;
    Ok(())
}
