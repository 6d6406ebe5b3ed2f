//! Promotion questions: the rule set (bundled, by path, or a `RuleSet` object),
//! the operands as Python objects, the options as keyword arguments, and the
//! answers `promo-query` and `promo-core` give, as the `promo` command gives them.

use numpy::{PyArrayDescr, PyUntypedArray, PyUntypedArrayMethods};
use promo_core::{rules, DType, Op, Operand, Options, PyScalar, RuleTable};
use promo_query::diff::{self as compare, Answer};
use promo_query::names;
use promo_query::source::{self, LoadError, RuleSet};
use promo_rules::RuleFile;
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyComplex, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple, PyType};
use std::borrow::Cow;
use std::path::Path;

use crate::dtypes::{self, dtype_of_descr, numpy_type_dtype, type_name, PyDType};
use crate::{PromotionError, RuleFileError};

/// Runs `f`, which works on a user's rule file, so that a panic in promo (a bug:
/// none is known) reaches Python as a `RuleFileError` naming it, never as the
/// `PanicException` that `except Exception` does not catch.
pub(crate) fn without_panic<R>(f: impl FnOnce() -> R) -> PyResult<R> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|payload| {
        let what = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("a panic");
        RuleFileError::new_err(format!(
            "promo failed on this rule file ({what}); this is a bug in promo, please report it with the file"
        ))
    })
}

/// A rule set: one of the bundled ones (`rule_sets()`) or a rule file (`load`),
/// loaded as the `promo` command loads it (a rule file's answers flattened once).
///
/// >>> import promo
/// >>> torch = promo.rule_sets()[[r.name for r in promo.rule_sets()].index("torch")]
/// >>> torch.path
/// 'bundled rules/torch.toml'
/// >>> str(torch.promote("i8", "u8"))
/// 'i16'
#[pyclass(name = "RuleSet", module = "promo", frozen)]
pub struct PyRuleSet {
    set: RuleSet,
}

/// The Python exception for a rule set that did not load.
fn load_error(e: LoadError) -> PyErr {
    match e {
        LoadError::Unknown(m) => PyValueError::new_err(m),
        LoadError::Read(m) => PyOSError::new_err(m),
        LoadError::Invalid(m) => RuleFileError::new_err(m),
    }
}

impl PyRuleSet {
    fn with_table<R>(&self, f: impl FnOnce(&RuleTable<'_>) -> PyResult<R>) -> PyResult<R> {
        if self.set.is_bundled() {
            return self.set.with_table(f);
        }
        // A user's rule file is walked by code a bundled one never reaches.
        without_panic(|| self.set.with_table(f))?
    }

    /// The rule file, its path and its text (a bundled one parsed again).
    pub(crate) fn source(&self) -> PyResult<(Cow<'_, RuleFile>, String, Cow<'_, str>)> {
        self.set.source().map_err(load_error)
    }

    /// Loads the rule file at `path` (a `str` or any `os.PathLike`).
    pub(crate) fn load(path: &Path) -> PyResult<PyRuleSet> {
        let set = without_panic(|| RuleSet::load(path))?.map_err(load_error)?;
        Ok(PyRuleSet { set })
    }
}

#[pymethods]
impl PyRuleSet {
    /// The short name (`"torch"`).
    #[getter]
    fn name(&self) -> PyResult<String> {
        self.with_table(|t| Ok(t.name.to_owned()))
    }

    /// The framework and the operation the rules state.
    #[getter]
    fn title(&self) -> PyResult<String> {
        self.with_table(|t| Ok(t.title.to_owned()))
    }

    /// `"bundled rules/NAME.toml"` or the rule file's path.
    #[getter]
    fn path(&self) -> String {
        self.set.path()
    }

    /// The dtypes the framework accepts.
    #[getter]
    fn dtypes<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDType>>> {
        self.with_table(|t| t.dtypes.iter().map(|&d| dtypes::of(py, d)).collect())
    }

    /// The operations the rule set covers (empty: it answers every operation alike).
    #[getter]
    fn ops(&self) -> PyResult<Vec<&'static str>> {
        self.with_table(|t| Ok(t.ops.iter().map(|o| o.name()).collect()))
    }

    /// Each option's default, as `promo list` prints it.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        self.with_table(|t| -> PyResult<()> {
            for o in t.options {
                dict.set_item(o.name, o.format_value(o.default))?;
            }
            Ok(())
        })?;
        Ok(dict)
    }

    fn __repr__(&self) -> String {
        format!("promo.RuleSet('{}')", promo_table::text::visible(&self.path()))
    }

    /// `promo.promote(self, lhs, rhs, op=op, **options)`.
    #[pyo3(signature = (lhs, rhs, /, *, op = "add", **options))]
    fn promote<'py>(
        slf: &Bound<'py, Self>,
        lhs: &Bound<'py, PyAny>,
        rhs: &Bound<'py, PyAny>,
        op: &str,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyDType>> {
        promote(slf.as_any(), lhs, rhs, op, options)
    }

    /// `promo.apply(self, op, *operands, out=out, dtype=dtype, **options)`.
    #[pyo3(signature = (op, *operands, out = None, dtype = None, **options))]
    fn apply<'py>(
        slf: &Bound<'py, Self>,
        op: &str,
        operands: &Bound<'py, PyTuple>,
        out: Option<&Bound<'py, PyAny>>,
        dtype: Option<&Bound<'py, PyAny>>,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<crate::operations::PyOutcome> {
        crate::operations::apply(slf.as_any(), op, operands, out, dtype, options)
    }

    /// `promo.result_type(self, *operands, op=op, **options)`.
    #[pyo3(signature = (*operands, op = "add", **options))]
    fn result_type<'py>(
        slf: &Bound<'py, Self>,
        operands: &Bound<'py, PyTuple>,
        op: &str,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyDType>> {
        result_type(slf.as_any(), operands, op, options)
    }
}

/// Runs `f` on the rule set `rules` names: a `RuleSet`, a bundled name or a rule
/// file's path (a `str` or any `os.PathLike`).
pub(crate) fn with_rules<R>(
    rules: &Bound<'_, PyAny>,
    f: impl FnOnce(&RuleTable<'_>) -> PyResult<R>,
) -> PyResult<R> {
    if let Ok(set) = rules.cast::<PyRuleSet>() {
        return set.get().with_table(f);
    }
    let Ok(spec) = rules.cast::<PyString>() else {
        if let Ok(path) = path_like(rules) {
            return PyRuleSet::load(&path)?.with_table(f);
        }
        return Err(PyTypeError::new_err(format!(
            "rules is a bundled rule set's name, a rule file's path or a promo.RuleSet, not {}",
            type_name(rules)
        )));
    };
    load_spec(&spec.to_cow()?)?.with_table(f)
}

/// The bundled rule table `rules` names (a `RuleSet`, a bundled name), or `None`
/// for a rule file (loaded first, so that a name that is neither, or a file that
/// does not load, raises as it does everywhere).
pub(crate) fn bundled_table(rules: &Bound<'_, PyAny>) -> PyResult<Option<&'static RuleTable<'static>>> {
    let bundled = |set: &PyRuleSet| -> PyResult<Option<&'static RuleTable<'static>>> {
        if !set.set.is_bundled() {
            return Ok(None);
        }
        set.with_table(|t| Ok(rules::ALL.iter().copied().find(|b| b.name == t.name)))
    };
    if let Ok(set) = rules.cast::<PyRuleSet>() {
        return bundled(set.get());
    }
    if let Ok(spec) = rules.cast::<PyString>() {
        return bundled(&load_spec(&spec.to_cow()?)?);
    }
    if let Ok(path) = path_like(rules) {
        PyRuleSet::load(&path)?;
        return Ok(None);
    }
    // The TypeError every function gives for such a `rules`.
    with_rules(rules, |_| Ok(None))
}

/// The path an `os.PathLike` (not a `str`) names.
pub(crate) fn path_like(obj: &Bound<'_, PyAny>) -> PyResult<std::path::PathBuf> {
    if !obj.hasattr("__fspath__")? {
        return Err(PyTypeError::new_err("not a path"));
    }
    obj.extract()
}

/// The bundled rule set called `spec`, or the rule file at `spec`, or the error for
/// a name that is neither.
pub(crate) fn load_spec(spec: &str) -> PyResult<PyRuleSet> {
    let set = without_panic(|| RuleSet::named(spec))?.map_err(load_error)?;
    Ok(PyRuleSet { set })
}

/// The operand a Python object stands for, each dtype spelled as `table` spells them.
pub(crate) fn operand(table: &RuleTable<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Operand> {
    let py = obj.py();
    if let Ok(s) = obj.cast::<PyString>() {
        return names::operand(table, &s.to_cow()?).map_err(PyValueError::new_err);
    }
    if let Ok(d) = obj.cast::<PyDType>() {
        let d = d.get();
        return Ok(if d.weak {
            Operand::Weak(d.dtype)
        } else {
            Operand::Dimensioned(d.dtype)
        });
    }
    // bool first: a Python bool is an int too.
    if obj.is_instance_of::<PyBool>() {
        return Ok(Operand::Python(PyScalar::Bool));
    }
    if obj.is_exact_instance_of::<PyInt>() {
        return Ok(Operand::Python(PyScalar::Int));
    }
    if obj.is_exact_instance_of::<PyFloat>() {
        return Ok(Operand::Python(PyScalar::Float));
    }
    if obj.is_exact_instance_of::<PyComplex>() {
        return Ok(Operand::Python(PyScalar::Complex));
    }
    if let Ok(descr) = obj.cast::<PyArrayDescr>() {
        return tensor_dtype(descr).map(Operand::Dimensioned);
    }
    if let Ok(array) = obj.cast::<PyUntypedArray>() {
        let dtype = tensor_dtype(&array.dtype())?;
        return Ok(if array.ndim() == 0 {
            Operand::Scalar(dtype)
        } else {
            Operand::Dimensioned(dtype)
        });
    }
    let numpy = dtypes::numpy(py)?;
    if let Ok(t) = obj.cast::<PyType>() {
        for (kind, class) in PyScalar::ALL.into_iter().zip(&numpy.python_types) {
            if t.is(class.bind(py)) {
                return Ok(Operand::Python(kind));
            }
        }
        if let Some(d) = numpy_type_dtype(t)? {
            return Ok(Operand::Dimensioned(d));
        }
    }
    // A numpy scalar (`numpy.float32(1)`) is a rank-0 operand.
    if obj.is_instance(numpy.generic.bind(py))? {
        return tensor_dtype(&PyArrayDescr::new(py, obj.get_type())?).map(Operand::Scalar);
    }
    // Subclasses of the Python scalar types (numpy.float64 is caught above).
    for (class, kind) in [
        (py.get_type::<PyInt>(), PyScalar::Int),
        (py.get_type::<PyFloat>(), PyScalar::Float),
        (py.get_type::<PyComplex>(), PyScalar::Complex),
    ] {
        if obj.is_instance(&class)? {
            return Ok(Operand::Python(kind));
        }
    }
    Err(PyTypeError::new_err(format!(
        "an operand is an operand string (\"f16\", \"scalar:i8\", \"python:float\"), a dtype, \
         a numpy array or a Python scalar or type, not {}",
        type_name(obj)
    )))
}

fn tensor_dtype(descr: &Bound<'_, PyArrayDescr>) -> PyResult<DType> {
    dtype_of_descr(descr)
        .ok_or_else(|| PyTypeError::new_err(format!("promo has no dtype for numpy's {descr}")))
}

/// The options keyword arguments set, as `--set KEY=VALUE` would.
pub(crate) fn options(table: &RuleTable<'_>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Options> {
    let Some(kwargs) = kwargs.filter(|k| !k.is_empty()) else {
        return Ok(table.default_options());
    };
    let set = settings(kwargs)?;
    source::options(table, &set).map_err(PyValueError::new_err)
}

/// `KEY=VALUE` for each item of `kwargs`: a bool as `true`/`false`, a dtype by
/// its name, anything else as its `str()`.
fn settings(kwargs: &Bound<'_, PyDict>) -> PyResult<Vec<String>> {
    kwargs
        .iter()
        .map(|(k, v)| {
            let value = if let Ok(b) = v.cast::<PyBool>() {
                b.is_true().to_string()
            } else if let Ok(d) = v.cast::<PyDType>() {
                d.get().dtype.name().to_owned()
            } else if v.is_instance_of::<PyString>() || v.is_instance_of::<PyInt>() {
                v.str()?.to_cow()?.into_owned()
            } else if v.cast::<PyArrayDescr>().is_ok() || v.cast::<PyType>().is_ok() {
                dtypes::dtype_arg(&v)?.name().to_owned()
            } else {
                return Err(PyTypeError::new_err(format!(
                    "option `{}` takes a bool, an int, a string or a dtype, not {}",
                    k.str()?,
                    type_name(&v)
                )));
            };
            Ok(format!("{}={value}", k.str()?))
        })
        .collect()
}

pub(crate) fn op(table: &RuleTable<'_>, name: &str) -> PyResult<Op> {
    names::op(table, name).map_err(PyValueError::new_err)
}

/// `PromotionError` with the framework's reason.
pub(crate) fn refused(py: Python<'_>, reason: String) -> PyErr {
    let err = PromotionError::new_err(reason.clone());
    if let Err(e) = err.value(py).setattr("reason", reason) {
        return e;
    }
    err
}

/// The common dtype of `lhs` and `rhs` under `op`.
///
/// ``rules`` is a bundled rule set's name, a rule file's path or a ``RuleSet``;
/// options are keyword arguments with the rule set's own names. A refusal raises
/// ``PromotionError`` with the framework's reason.
///
/// >>> import promo, numpy as np
/// >>> promo.promote("numpy", np.int8, np.uint8)
/// promo.DType('i16')
/// >>> promo.promote("torch", "f32", "scalar:f64"), promo.promote("torch", "f32", 2.5)
/// (promo.DType('f32'), promo.DType('f32'))
/// >>> promo.promote("jax", "i8", "u64", jax_numpy_dtype_promotion="strict")
/// Traceback (most recent call last):
/// ...
/// promo.PromotionError: ...
#[pyfunction]
#[pyo3(signature = (rules, lhs, rhs, /, *, op = "add", **options))]
pub fn promote<'py>(
    rules: &Bound<'py, PyAny>,
    lhs: &Bound<'py, PyAny>,
    rhs: &Bound<'py, PyAny>,
    op: &str,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDType>> {
    let py = rules.py();
    with_rules(rules, |table| {
        let (settings, op) = (self::options(table, options)?, self::op(table, op)?);
        let (lhs, rhs) = (operand(table, lhs)?, operand(table, rhs)?);
        match table.promote_result(&settings, op, lhs, rhs) {
            Ok(p) => dtypes::interned(py, p),
            Err(e) => Err(refused(py, e.to_string())),
        }
    })
}

/// The common dtype of every operand, promoted left to right (each step's result
/// a tensor when either side is one, weak when the step is weak); for an operation
/// that is not elementwise (a unary operation or a reduction of one operand,
/// `matmul`, `concatenate`), its result as ``apply`` gives it.
///
/// >>> import promo, numpy as np
/// >>> promo.result_type("numpy", np.int8, np.int16, np.float16)
/// promo.DType('f32')
/// >>> promo.result_type("jax", 1, 2.0)
/// promo.DType('weak:f32')
/// >>> promo.result_type("torch", np.int8, op="sqrt")
/// promo.DType('f32')
#[pyfunction]
#[pyo3(signature = (rules, *operands, op = "add", **options))]
pub fn result_type<'py>(
    rules: &Bound<'py, PyAny>,
    operands: &Bound<'py, PyTuple>,
    op: &str,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDType>> {
    let py = rules.py();
    if operands.is_empty() {
        return Err(PyTypeError::new_err("result_type() needs at least one operand"));
    }
    with_rules(rules, |table| {
        let (settings, op) = (self::options(table, options)?, self::op(table, op)?);
        let operands = operands
            .iter()
            .map(|o| operand(table, &o))
            .collect::<PyResult<Vec<Operand>>>()?;
        match promo_core::result_promotion(table, &settings, op, &operands) {
            Ok(p) => dtypes::interned(py, p),
            Err(e) => Err(refused(py, e.to_string())),
        }
    })
}

/// The text `promo explain` prints: the answer (with the dtype it is computed in,
/// where that differs) and which statement of the rule file decided each cell it
/// reads (the layer, the lattice path or the rule, and the exception if one
/// applied). Operands as ``apply`` takes them.
///
/// >>> import promo
/// >>> print(promo.explain("numpy", "i8", "u8"))  # doctest: +ELLIPSIS
/// numpy: add(i8, u8) = i16
///   decided by layer ...
#[pyfunction]
#[pyo3(signature = (rules, *operands, op = "add", out = None, dtype = None, **options))]
pub fn explain(
    rules: &Bound<'_, PyAny>,
    operands: &Bound<'_, PyTuple>,
    op: &str,
    out: Option<&Bound<'_, PyAny>>,
    dtype: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let loaded;
    let set = if let Ok(set) = rules.cast::<PyRuleSet>() {
        set.get()
    } else if let Ok(spec) = rules.cast::<PyString>() {
        loaded = load_spec(&spec.to_cow()?)?;
        &loaded
    } else if let Ok(path) = path_like(rules) {
        loaded = PyRuleSet::load(&path)?;
        &loaded
    } else {
        // The TypeError every function gives for such a `rules`.
        return with_rules(rules, |_| Ok(String::new()));
    };
    let (model, path, src) = set.source()?;
    without_panic(|| {
        model.with_table(|table| {
            let settings = self::options(table, options)?;
            let q = crate::operations::question(table, op, operands, out, dtype)?;
            Ok(promo_rules::explain_operation(
                &model,
                &path,
                &src,
                &settings,
                q.op,
                &q.operands,
                q.out,
            ))
        })
    })?
}

/// One cell where two rule sets disagree: each side's dtype, or `None` and the
/// reason it refused.
#[pyclass(name = "Difference", module = "promo", frozen, get_all)]
pub struct PyDifference {
    /// The left operand (a tensor).
    lhs: Py<PyDType>,
    /// The right operand (a tensor).
    rhs: Py<PyDType>,
    /// The first rule set's result, `None` where it refuses.
    a: Option<Py<PyDType>>,
    /// The second rule set's result, `None` where it refuses.
    b: Option<Py<PyDType>>,
    /// Why the first rule set refuses, where it does.
    a_refused: Option<String>,
    /// Why the second rule set refuses, where it does.
    b_refused: Option<String>,
}

#[pymethods]
impl PyDifference {
    fn __repr__(&self) -> String {
        let side = |d: &Option<Py<PyDType>>, r: &Option<String>| match (d, r) {
            (Some(d), _) => d.get().dtype.name().to_owned(),
            (None, Some(r)) => format!("refused: {}", promo_table::text::visible(r)),
            (None, None) => "?".to_owned(),
        };
        format!(
            "promo.Difference({} + {}: {} vs {})",
            self.lhs.get().dtype,
            self.rhs.get().dtype,
            side(&self.a, &self.a_refused),
            side(&self.b, &self.b_refused)
        )
    }
}

/// Where two rule sets, or two option settings of one, disagree; `str()` is
/// `promo diff`'s text.
#[pyclass(name = "Diff", module = "promo", frozen, get_all)]
pub struct PyDiff {
    /// The first rule set's name, with the options that differ from its defaults.
    a: String,
    /// The second rule set's, likewise.
    b: String,
    /// The operation compared.
    op: String,
    /// The dtypes both accept, in the first rule set's order.
    dtypes: Py<PyList>,
    /// Every ordered pair of `dtypes`.
    cells: usize,
    /// The cells where the two agree (both refusing counts as agreeing).
    agree: usize,
    /// The cells where they differ.
    differences: Py<PyList>,
    /// `promo diff`'s text.
    text: String,
}

#[pymethods]
impl PyDiff {
    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "promo.Diff({} vs {}, op {}: {} of {} cells differ)",
            promo_table::text::visible(&self.a),
            promo_table::text::visible(&self.b),
            self.op,
            self.cells - self.agree,
            self.cells
        )
    }

    fn __len__(&self) -> usize {
        self.cells - self.agree
    }
}

/// Every tensor-with-tensor cell where ``a`` and ``b`` disagree under ``op``.
/// ``options`` apply to both sides (each side's rule set must have them), and
/// ``a_options`` / ``b_options`` to one.
///
/// >>> import promo
/// >>> d = promo.diff("jax", "jax", b_options={"jax_enable_x64": True})
/// >>> d.a, d.b, len(d) > 0
/// ('jax', 'jax [jax_enable_x64=true]', True)
/// >>> d.differences[0]
/// promo.Difference(...)
#[pyfunction]
#[pyo3(signature = (a, b, /, *, op = "add", a_options = None, b_options = None, **options))]
pub fn diff<'py>(
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    op: &str,
    a_options: Option<&Bound<'py, PyDict>>,
    b_options: Option<&Bound<'py, PyDict>>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<PyDiff> {
    let py = a.py();
    let side = |own: Option<&Bound<'py, PyDict>>| -> PyResult<Bound<'py, PyDict>> {
        let all = PyDict::new(py);
        if let Some(o) = options {
            all.update(o.as_mapping())?;
        }
        if let Some(o) = own {
            all.update(o.as_mapping())?;
        }
        Ok(all)
    };
    let (sa, sb) = (side(a_options)?, side(b_options)?);
    with_rules(a, |ta| {
        let (oa, op) = (self::options(ta, Some(&sa))?, self::op(ta, op)?);
        with_rules(b, |tb| {
            let ob = self::options(tb, Some(&sb))?;
            let op_b = self::op(tb, op.name())?;
            let c = compare::compare(ta, &oa, tb, &ob, op_b);
            let (mut la, mut lb) = (compare::label(ta, &oa), compare::label(tb, &ob));
            if la == lb {
                (la, lb) = (format!("a: {la}"), format!("b: {lb}"));
            }
            let summary = compare::summary(&la, &lb, op, &c);
            let text = compare::text(&summary, &la, &lb, &c.differences);
            let side = |x: &Answer| -> PyResult<(Option<Py<PyDType>>, Option<String>)> {
                Ok(match x {
                    Ok(d) => (Some(dtypes::of(py, *d)?.unbind()), None),
                    Err(r) => (None, Some(r.clone())),
                })
            };
            let differences = PyList::empty(py);
            for (l, r, x, y) in &c.differences {
                let ((a, a_refused), (b, b_refused)) = (side(x)?, side(y)?);
                // `compare` pairs tensors, each of a dtype.
                let tensor = |o: &promo_table::Operand| {
                    o.dtype()
                        .ok_or_else(|| PyValueError::new_err(format!("`{o}` is not a tensor")))
                };
                let cell = PyDifference {
                    lhs: dtypes::of(py, tensor(l)?)?.unbind(),
                    rhs: dtypes::of(py, tensor(r)?)?.unbind(),
                    a,
                    b,
                    a_refused,
                    b_refused,
                };
                differences.append(Py::new(py, cell)?)?;
            }
            let dtypes = c
                .dtypes
                .iter()
                .map(|&d| dtypes::of(py, d))
                .collect::<PyResult<Vec<_>>>()?;
            Ok(PyDiff {
                a: la,
                b: lb,
                op: op.name().to_owned(),
                dtypes: PyList::new(py, dtypes)?.unbind(),
                cells: c.cells(),
                agree: c.cells() - c.differences.len(),
                differences: differences.unbind(),
                text,
            })
        })
    })
}

/// The bundled rule sets, in `promo list` order.
///
/// >>> import promo
/// >>> "torch" in [r.name for r in promo.rule_sets()]
/// True
#[pyfunction]
pub fn rule_sets() -> Vec<PyRuleSet> {
    (0..rules::ALL.len())
        .filter_map(RuleSet::bundled)
        .map(|set| PyRuleSet { set })
        .collect()
}

/// Loads a rule file, named by a ``str`` or any ``os.PathLike``:
/// ``RuleFileError`` (with the ``file:line:col`` diagnostic) if it is invalid,
/// ``OSError`` if it cannot be read.
#[pyfunction]
pub fn load(path: std::path::PathBuf) -> PyResult<PyRuleSet> {
    PyRuleSet::load(&path)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRuleSet>()?;
    m.add_class::<PyDiff>()?;
    m.add_class::<PyDifference>()?;
    m.add_function(wrap_pyfunction!(promote, m)?)?;
    m.add_function(wrap_pyfunction!(result_type, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(diff, m)?)?;
    m.add_function(wrap_pyfunction!(rule_sets, m)?)?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    Ok(())
}
