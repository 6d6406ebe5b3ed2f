//! `finfo`, `iinfo` and `can_cast`: promo-core's facts of each number format,
//! under NumPy's names.

use promo_core::{Casting, DType};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::dtypes::{self, dtype_arg, PyDType};

/// NumPy's ``finfo`` fields for every float format promo has, computed from the
/// format (they agree with ``ml_dtypes.finfo`` field by field).
///
/// >>> import promo
/// >>> f = promo.finfo("float8_e4m3fn")
/// >>> f.max, f.eps, f.smallest_subnormal, f.nmant
/// (448.0, 0.125, 0.001953125, 3)
#[pyclass(name = "finfo", module = "promo", frozen, get_all)]
pub struct PyFinfo {
    /// The dtype described.
    dtype: Py<PyDType>,
    /// Bits of one value.
    bits: u32,
    /// The largest finite value.
    max: f64,
    /// The most negative finite value.
    min: f64,
    /// The distance from 1 to the next larger value.
    eps: f64,
    /// The distance from 1 to the next smaller value.
    epsneg: f64,
    /// The smallest positive normal value (`smallest_normal`).
    tiny: f64,
    /// The smallest positive normal value.
    smallest_normal: f64,
    /// The smallest positive value.
    smallest_subnormal: f64,
    /// `10**-precision`, rounded to the format.
    resolution: f64,
    /// Decimal digits of precision.
    precision: u32,
    /// Explicit mantissa bits.
    nmant: u32,
    /// Exponent bits.
    nexp: u32,
    /// Exponent bits (NumPy's second name).
    iexp: u32,
    /// The smallest normal value's power of two.
    minexp: i32,
    /// The power of two just above the largest finite value.
    maxexp: i32,
    /// `eps`'s power of two.
    machep: i32,
    /// `epsneg`'s power of two.
    negep: i32,
}

#[pymethods]
impl PyFinfo {
    #[new]
    fn new(py: Python<'_>, dtype: &Bound<'_, PyAny>) -> PyResult<Self> {
        let d = dtype_arg(dtype)?;
        let f = promo_core::finfo(d)
            .ok_or_else(|| PyValueError::new_err(format!("{d} is not a float format")))?;
        Ok(PyFinfo {
            dtype: dtypes::of(py, d)?.unbind(),
            bits: f.bits,
            max: f.max,
            min: f.min,
            eps: f.eps(),
            epsneg: f.epsneg,
            tiny: f.tiny(),
            smallest_normal: f.smallest_normal,
            smallest_subnormal: f.smallest_subnormal,
            resolution: f.resolution,
            precision: f.precision,
            nmant: f.nmant(),
            nexp: f.nexp(),
            iexp: f.iexp(),
            minexp: f.minexp,
            maxexp: f.maxexp,
            machep: f.machep,
            negep: f.negep,
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "promo.finfo(dtype={}, bits={}, max={}, min={}, eps={}, smallest_normal={}, smallest_subnormal={})",
            self.dtype.get().dtype,
            self.bits,
            self.max,
            self.min,
            self.eps,
            self.smallest_normal,
            self.smallest_subnormal
        )
    }
}

/// The range of every integer dtype promo has, sub-byte ones included.
///
/// >>> import promo
/// >>> i = promo.iinfo("int4")
/// >>> i.min, i.max, i.bits
/// (-8, 7, 4)
#[pyclass(name = "iinfo", module = "promo", frozen, get_all)]
pub struct PyIinfo {
    /// The dtype described.
    dtype: Py<PyDType>,
    /// Bits of one value.
    bits: u32,
    /// The smallest value.
    min: i128,
    /// The largest value.
    max: i128,
}

#[pymethods]
impl PyIinfo {
    #[new]
    fn new(py: Python<'_>, dtype: &Bound<'_, PyAny>) -> PyResult<Self> {
        let d = dtype_arg(dtype)?;
        let i = promo_core::iinfo(d)
            .ok_or_else(|| PyValueError::new_err(format!("{d} is not an integer dtype")))?;
        Ok(PyIinfo {
            dtype: dtypes::of(py, d)?.unbind(),
            bits: i.bits,
            min: i.min,
            max: i.max,
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "promo.iinfo(dtype={}, bits={}, min={}, max={})",
            self.dtype.get().dtype,
            self.bits,
            self.min,
            self.max
        )
    }
}

/// Whether ``from_`` converts to ``to`` at ``casting`` ("no", "equiv", "safe",
/// "same_kind", "unsafe"), decided from the two formats' values as NumPy defines
/// the levels.
///
/// >>> import promo
/// >>> promo.can_cast("float8_e4m3fn", "float16"), promo.can_cast("float8_e4m3fnuz", "float8_e4m3fn")
/// (True, False)
#[pyfunction]
#[pyo3(signature = (from_, to, casting = "safe"))]
pub fn can_cast(from_: &Bound<'_, PyAny>, to: &Bound<'_, PyAny>, casting: &str) -> PyResult<bool> {
    let casting: Casting = casting
        .parse()
        .map_err(|e: promo_core::numeric::UnknownCasting| PyValueError::new_err(e.to_string()))?;
    let (from, to): (DType, DType) = (dtype_arg(from_)?, dtype_arg(to)?);
    Ok(promo_core::can_cast(from, to, casting))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyFinfo>()?;
    m.add_class::<PyIinfo>()?;
    m.add_function(wrap_pyfunction!(can_cast, m)?)?;
    Ok(())
}
