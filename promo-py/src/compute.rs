//! `promo.compute`: `a OP b` on numpy arrays (or an array and a Python scalar),
//! computed by promo-core's `Computation` bit for bit as the rule set's framework
//! computes it.
//! This module only lays the operands out as `Computation::apply` reads them
//! (broadcast, C-contiguous, native byte order, sub-byte formats packed) and the
//! result out as numpy holds it.

use std::borrow::Cow;

use numpy::{PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArray, PyUntypedArrayMethods};
use promo_core::cast::element_size;
use promo_core::compute::{Computation, ComputeError, Scalar, Side};
use promo_core::narrow::{pack_codes, unpack_codes};
use promo_core::DType;
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyComplex, PyDict, PyFloat, PyInt};

use crate::arrays::{apart_from, byte_view, checked_out, contiguous, not_masked, result_descr};
use crate::ask::{bundled_table, op as op_named, options as options_of, refused};
use crate::dtypes::{dtype_of_descr, numpy, type_name};

/// One operand of `compute`.
enum Operand<'py> {
    /// A numpy array (a numpy scalar is a 0-d array), with its promo dtype.
    Array(Bound<'py, PyUntypedArray>, DType),
    /// A Python scalar.
    Number(Scalar),
}

/// The operand `obj` stands for: a numpy array or numpy scalar, or a Python
/// `bool`, `int` or `float`.
fn operand<'py>(obj: &Bound<'py, PyAny>, which: &str) -> PyResult<Operand<'py>> {
    let py = obj.py();
    let np = numpy(py)?;
    // bool first: a Python bool is an int too.
    if obj.is_instance_of::<PyBool>() {
        return Ok(Operand::Number(Scalar::Bool(obj.is_truthy()?)));
    }
    let array = if let Ok(array) = obj.cast::<PyUntypedArray>() {
        not_masked(obj, which)?;
        array.clone()
    } else if obj.is_instance(np.generic.bind(py))? {
        // A numpy scalar (`numpy.float32(1)`, `numpy.float64(2)` too, though it is a
        // float) is typed, as a 0-d array is.
        np.asarray.bind(py).call1((obj,))?.cast_into::<PyUntypedArray>()?
    } else if obj.is_instance_of::<PyInt>() {
        let value: i128 = obj.extract().map_err(|_| {
            PyOverflowError::new_err(format!(
                "{which}: the Python int {} is beyond every dtype's range",
                obj.str().map_or_else(|_| "?".to_owned(), |s| s.to_string())
            ))
        })?;
        return Ok(Operand::Number(Scalar::Int(value)));
    } else if obj.is_instance_of::<PyFloat>() {
        return Ok(Operand::Number(Scalar::Float(obj.extract()?)));
    } else if obj.is_instance_of::<PyComplex>() {
        return Err(PyValueError::new_err(format!(
            "{which} is a Python complex: promo computes bool, integer and float dtypes, not complex ones"
        )));
    } else {
        return Err(PyTypeError::new_err(format!(
            "{which} is a numpy array or a Python bool, int or float, not {}",
            type_name(obj)
        )));
    };
    let descr = array.dtype();
    let dtype = dtype_of_descr(&descr)
        .ok_or_else(|| PyTypeError::new_err(format!("{which}: promo has no dtype for numpy's {descr}")))?;
    Ok(Operand::Array(array, dtype))
}

/// The Python exception for a `ComputeError`: the rule set's refusal as
/// `PromotionError`, a Python scalar the framework refuses as `OverflowError`
/// (with the framework's message), anything promo does not compute as
/// `ValueError`.
fn compute_error(py: Python<'_>, e: ComputeError) -> PyErr {
    match e {
        ComputeError::Refused(reason) => refused(py, reason),
        ComputeError::ScalarOutOfRange(message) => {
            // The message names the framework's exception: not twice when it is Python's.
            let message = message.strip_prefix("OverflowError: ").unwrap_or(&message);
            PyOverflowError::new_err(message.to_owned())
        }
        other => PyValueError::new_err(other.to_string()),
    }
}

/// The shape two shapes broadcast to, as NumPy broadcasts them.
fn broadcast(a: &[usize], b: &[usize]) -> PyResult<Vec<usize>> {
    let n = a.len().max(b.len());
    let at = |s: &[usize], i: usize| if i + s.len() < n { 1 } else { s[i + s.len() - n] };
    (0..n)
        .map(|i| match (at(a, i), at(b, i)) {
            (x, y) if x == y || y == 1 => Ok(x),
            (1, y) => Ok(y),
            _ => Err(PyValueError::new_err(format!(
                "operands could not be broadcast together with shapes {} {}",
                shape_text(a),
                shape_text(b)
            ))),
        })
        .collect()
}

/// A shape as numpy writes it: `(2,3)`, `(4,)`, `()`.
fn shape_text(shape: &[usize]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            shape.iter().map(usize::to_string).collect::<Vec<_>>().join(",")
        ),
    }
}

/// `array` as `apply` reads it for `count` results of `shape`: C-contiguous, in
/// native byte order, holding `count` elements, or one where it has one element
/// and one element's bytes cannot be taken for `count` (sub-byte dtypes: a byte of
/// `i4` codes is two elements, one of them padding).
fn laid_out<'py>(
    array: &Bound<'py, PyUntypedArray>,
    bits: usize,
    shape: &[usize],
    count: usize,
) -> PyResult<Bound<'py, PyUntypedArray>> {
    let size = array.len();
    let one = size == 1 && (count == 1 || (count * bits).div_ceil(8) != bits.div_ceil(8));
    if one || size == count {
        // Same elements in the same order as the broadcast operand.
        return contiguous(array.as_any());
    }
    let py = array.py();
    let full = numpy(py)?.broadcast_to.bind(py).call1((array, shape.to_vec()))?;
    contiguous(&full)
}

/// `a OP b` computed as the rule set's framework computes it, bit for bit.
///
/// ``a`` and ``b`` are numpy arrays of any dtype promo knows (ml_dtypes' too),
/// of any strides and byte order, of shapes that broadcast together (0-d arrays
/// and numpy scalars are arrays); one of them may be a Python ``bool``, ``int``
/// or ``float``, typed and converted by the framework's rules for Python
/// scalars (two Python scalars are a ``TypeError``). ``op`` is an operation's name or alias (``"add"``, ``"+"``,
/// ``"less_than"``, ``"<"``): ``add``, ``subtract``, ``multiply``, ``divide``,
/// ``maximum``, ``minimum`` and the six comparisons. ``rules`` and the options
/// are those ``promote`` takes (the bundled numpy, torch, jax, tensorflow and
/// mlx). Returns a new array of the framework's result dtype (ml_dtypes' for the
/// narrow formats) and the broadcast shape, or writes into ``out=`` (of that
/// dtype and shape, C-contiguous) and returns it.
///
/// The rule set's refusal raises ``PromotionError`` with the framework's reason;
/// a Python scalar the framework refuses, ``OverflowError``; an operation, a rule
/// set or a dtype (complex) promo does not compute, and shapes that do not
/// broadcast, ``ValueError``. Computes without the GIL.
///
/// >>> import promo, numpy as np
/// >>> a = np.array([1.0, 2.5, 65504.0], dtype=np.float16)
/// >>> r = promo.compute("torch", "+", a, np.float16([1.0]))  # in f32, rounded once to f16
/// >>> r.dtype, r.tolist()
/// (dtype('float16'), [2.0, 3.5, 65504.0])
/// >>> promo.compute("numpy", "<", np.int8([-1, 5]), np.uint8([[0], [200]])).tolist()
/// [[True, False], [True, True]]
/// >>> promo.compute("torch", "*", np.float16([1.0, 2.0]), 2.5).tolist()  # a Python float: f16
/// [2.5, 5.0]
/// >>> promo.compute("numpy", "+", np.int8([1, 2]), 300)
/// Traceback (most recent call last):
/// ...
/// OverflowError: Python integer 300 out of bounds for int8
#[pyfunction]
#[pyo3(signature = (rules, op, a, b, /, *, out = None, **options))]
pub fn compute<'py>(
    rules: &Bound<'py, PyAny>,
    op: &str,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    out: Option<&Bound<'py, PyAny>>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = rules.py();
    let (a, b) = (operand(a, "a")?, operand(b, "b")?);
    let shape = match (&a, &b) {
        (Operand::Array(x, _), Operand::Array(y, _)) => broadcast(x.shape(), y.shape())?,
        (Operand::Array(x, _), _) | (_, Operand::Array(x, _)) => x.shape().to_vec(),
        _ => {
            return Err(PyTypeError::new_err(
                "promo.compute needs an array operand: a and b are both Python scalars (pass one as a numpy array)",
            ))
        }
    };
    let table = bundled_table(rules)?.ok_or_else(|| {
        PyValueError::new_err(
            "promo computes the arithmetic of the bundled rule sets (numpy, torch, jax, tensorflow, mlx), not of a rule file",
        )
    })?;
    let plan = {
        let (settings, op) = (options_of(table, options)?, op_named(table, op)?);
        match (&a, &b) {
            (Operand::Array(_, x), Operand::Number(n)) => {
                Computation::with_scalar(table, &settings, op, *x, *n, Side::Rhs)
                    .map_err(|e| compute_error(py, e))
            }
            (Operand::Number(n), Operand::Array(_, y)) => {
                Computation::with_scalar(table, &settings, op, *y, *n, Side::Lhs)
                    .map_err(|e| compute_error(py, e))
            }
            (Operand::Array(_, x), Operand::Array(_, y)) => {
                Computation::new(table, &settings, op, *x, *y).map_err(|e| compute_error(py, e))
            }
            (Operand::Number(_), Operand::Number(_)) => {
                Err(PyTypeError::new_err("promo.compute needs an array operand"))
            }
        }
    }?;
    let result = plan.result();
    let unsupported = |d: DType| compute_error(py, ComputeError::UnsupportedDType(d));
    let result_bits = element_size(result).ok_or_else(|| unsupported(result))?;
    let descr = result_descr(py, result, result_bits)?;
    let out = match out {
        Some(out) => checked_out(out, &shape, result, &descr)?,
        None => numpy(py)?
            .empty
            .bind(py)
            .call1((shape.clone(), &descr))?
            .cast_into::<PyUntypedArray>()?,
    };
    let count: usize = shape.iter().product();
    if count == 0 {
        return Ok(out.into_any());
    }
    // Each array operand's bytes as `apply` reads them, apart from `out=`'s.
    let bytes = |x: &Operand<'py>| -> PyResult<Option<(Bound<'py, PyArrayDyn<u8>>, usize)>> {
        let Operand::Array(array, dtype) = x else {
            return Ok(None);
        };
        let bits = element_size(*dtype).ok_or_else(|| unsupported(*dtype))?;
        let laid = apart_from(laid_out(array, bits, &shape, count)?, &out)?;
        Ok(Some((byte_view(&laid)?, bits)))
    };
    let (lhs_view, rhs_view) = (bytes(&a)?, bytes(&b)?);
    let read = |view: &Option<(Bound<'py, PyArrayDyn<u8>>, usize)>| {
        view.as_ref()
            .map(|(v, bits)| {
                v.try_readonly()
                    .map(|r| (r, *bits))
                    .map_err(|e| PyValueError::new_err(format!("cannot read an operand: {e}")))
            })
            .transpose()
    };
    let (lhs_read, rhs_read) = (read(&lhs_view)?, read(&rhs_view)?);
    let dst_view = byte_view(&out)?;
    let mut dst = dst_view
        .try_readwrite()
        .map_err(|e| PyValueError::new_err(format!("cannot write out=: {e}")))?;
    let (lhs, rhs) = (slice(&lhs_read)?, slice(&rhs_read)?);
    let dst = dst
        .as_slice_mut()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    py.detach(|| run(&plan, lhs, rhs, dst, result_bits, count))
        .map_err(|e| compute_error(py, e))?;
    Ok(out.into_any())
}

/// An operand's bytes and bits per element; none for a Python scalar's side.
fn slice<'a>(read: &'a Option<(PyReadonlyArrayDyn<'_, u8>, usize)>) -> PyResult<(&'a [u8], usize)> {
    match read {
        None => Ok((&[], 8)),
        Some((r, bits)) => Ok((
            r.as_slice().map_err(|e| PyValueError::new_err(e.to_string()))?,
            *bits,
        )),
    }
}

/// Packs one element per byte (numpy's layout of the sub-byte formats) into
/// promo's packed layout; other dtypes' bytes as they are.
fn packed((bytes, bits): (&[u8], usize)) -> Cow<'_, [u8]> {
    if bits >= 8 || bytes.is_empty() {
        return Cow::Borrowed(bytes);
    }
    let mut packed = Vec::with_capacity(bytes.len().div_ceil(8 / bits));
    pack_codes(bits as u32, bytes, &mut packed);
    Cow::Owned(packed)
}

/// `count` results into `out` (one per byte for the sub-byte formats, as numpy
/// holds them), on rayon's threads for large counts (`Computation::par_apply`:
/// the same bits as one thread).
fn run(
    plan: &Computation,
    lhs: (&[u8], usize),
    rhs: (&[u8], usize),
    out: &mut [u8],
    result_bits: usize,
    count: usize,
) -> Result<(), ComputeError> {
    let (lhs, rhs) = (packed(lhs), packed(rhs));
    if result_bits >= 8 {
        plan.par_apply(&lhs, &rhs, out, count)?;
        return Ok(());
    }
    let mut result = vec![0u8; (count * result_bits).div_ceil(8)];
    plan.par_apply(&lhs, &rhs, &mut result, count)?;
    let mut codes = Vec::with_capacity(count);
    unpack_codes(result_bits as u32, &result, count, &mut codes);
    let needed = out.len().min(codes.len());
    out[..needed].copy_from_slice(&codes[..needed]);
    Ok(())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(compute, m)?)?;
    Ok(())
}
