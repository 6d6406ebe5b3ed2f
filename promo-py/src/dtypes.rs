//! The `DType` class (a promo dtype, weakly typed or not), and promo's dtypes as
//! numpy and ml_dtypes name them, both ways.

use numpy::{PyArrayDescr, PyArrayDescrMethods};
use promo_core::{DType, Promotion};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyString, PyType};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// Every promo dtype numpy or ml_dtypes has but the minifloats, by the name of its
/// scalar type there, and whether that name is ml_dtypes'. The minifloats' names
/// are their rows' in promo-core's format table ([`numpy_names`]).
const NUMPY_NAMES: &[(DType, &str, bool)] = &[
    (DType::Bool, "bool", false),
    (DType::I8, "int8", false),
    (DType::I16, "int16", false),
    (DType::I32, "int32", false),
    (DType::I64, "int64", false),
    (DType::U8, "uint8", false),
    (DType::U16, "uint16", false),
    (DType::U32, "uint32", false),
    (DType::U64, "uint64", false),
    (DType::F16, "float16", false),
    (DType::F32, "float32", false),
    (DType::F64, "float64", false),
    (DType::C64, "complex64", false),
    (DType::C128, "complex128", false),
    (DType::BF16, "bfloat16", true),
    (DType::F8E8M0, "float8_e8m0fnu", true),
    (DType::I4, "int4", true),
    (DType::U4, "uint4", true),
    (DType::I2, "int2", true),
    (DType::U2, "uint2", true),
    (DType::I1, "int1", true),
    (DType::U1, "uint1", true),
    (DType::C32, "complex32", true),
    (DType::BC32, "bcomplex32", true),
];

/// Every promo dtype numpy or ml_dtypes has, by the name of its scalar type there,
/// and whether that name is ml_dtypes': [`NUMPY_NAMES`] and the minifloats
/// ml_dtypes has.
fn numpy_names() -> impl Iterator<Item = (DType, &'static str, bool)> {
    let minifloats = promo_core::narrow::MINIFLOATS.iter();
    let minifloats = minifloats.filter_map(|m| m.ml_dtypes.map(|name| (m.dtype, name, true)));
    NUMPY_NAMES.iter().copied().chain(minifloats)
}

/// numpy's first type number for dtypes registered by other packages (ml_dtypes').
const NPY_USERDEF: i32 = 256;

/// The name numpy or ml_dtypes gives `dtype`, if either has it.
pub fn numpy_name(dtype: DType) -> Option<&'static str> {
    numpy_names().find(|e| e.0 == dtype).map(|e| e.1)
}

/// The promo dtype of a numpy dtype (ml_dtypes' included), whatever its byte order.
pub fn dtype_of_descr(descr: &Bound<'_, PyArrayDescr>) -> Option<DType> {
    if descr.num() >= NPY_USERDEF {
        let name = descr.typeobj().name().ok()?;
        let name = name.to_cow().ok()?;
        return numpy_names().find(|e| e.2 && e.1 == name).map(|e| e.0);
    }
    Some(match (descr.kind(), descr.itemsize()) {
        (b'b', 1) => DType::Bool,
        (b'i', 1) => DType::I8,
        (b'i', 2) => DType::I16,
        (b'i', 4) => DType::I32,
        (b'i', 8) => DType::I64,
        (b'u', 1) => DType::U8,
        (b'u', 2) => DType::U16,
        (b'u', 4) => DType::U32,
        (b'u', 8) => DType::U64,
        (b'f', 2) => DType::F16,
        (b'f', 4) => DType::F32,
        (b'f', 8) => DType::F64,
        (b'c', 8) => DType::C64,
        (b'c', 16) => DType::C128,
        _ => return None,
    })
}

/// The numpy objects every call uses, looked up once.
pub struct Numpy {
    /// `numpy.asarray`.
    pub asarray: Py<PyAny>,
    /// `numpy.ascontiguousarray`.
    pub ascontiguousarray: Py<PyAny>,
    /// `numpy.broadcast_to`.
    pub broadcast_to: Py<PyAny>,
    /// `numpy.empty`.
    pub empty: Py<PyAny>,
    /// `numpy.may_share_memory`: whether two arrays' address ranges overlap.
    pub may_share_memory: Py<PyAny>,
    /// `numpy.ma.MaskedArray`.
    pub masked_array: Py<PyType>,
    /// `numpy.memmap`.
    pub memmap: Py<PyType>,
    /// `numpy.generic`, the type of numpy's scalars.
    pub generic: Py<PyType>,
    /// `numpy.dtype("uint8")`.
    pub uint8: Py<PyArrayDescr>,
    /// `bool`, `int`, `float` and `complex`, in `PyScalar::ALL` order.
    pub python_types: [Py<PyType>; 4],
}

static NUMPY: PyOnceLock<Numpy> = PyOnceLock::new();

/// numpy's functions and types, imported once.
pub fn numpy(py: Python<'_>) -> PyResult<&Numpy> {
    NUMPY.get_or_try_init(py, || {
        let numpy = py.import("numpy")?;
        let builtins = py.import("builtins")?;
        let python = |name: &str| -> PyResult<Py<PyType>> {
            Ok(builtins.getattr(name)?.cast_into::<PyType>()?.unbind())
        };
        Ok(Numpy {
            asarray: numpy.getattr("asarray")?.unbind(),
            ascontiguousarray: numpy.getattr("ascontiguousarray")?.unbind(),
            broadcast_to: numpy.getattr("broadcast_to")?.unbind(),
            empty: numpy.getattr("empty")?.unbind(),
            may_share_memory: numpy.getattr("may_share_memory")?.unbind(),
            masked_array: py
                .import("numpy.ma")?
                .getattr("MaskedArray")?
                .cast_into::<PyType>()?
                .unbind(),
            memmap: numpy.getattr("memmap")?.cast_into::<PyType>()?.unbind(),
            generic: numpy.getattr("generic")?.cast_into::<PyType>()?.unbind(),
            uint8: PyArrayDescr::new(py, "uint8")?.unbind(),
            python_types: [
                python("bool")?,
                python("int")?,
                python("float")?,
                python("complex")?,
            ],
        })
    })
}

/// The numpy dtype of each promo dtype that numpy or the installed ml_dtypes has,
/// looked up once.
static DESCRS: PyOnceLock<Vec<Option<Py<PyArrayDescr>>>> = PyOnceLock::new();

/// The `numpy.dtype` of `dtype`: numpy's own, or ml_dtypes' when it is installed.
pub fn numpy_dtype<'py>(py: Python<'py>, dtype: DType) -> PyResult<Option<Bound<'py, PyArrayDescr>>> {
    let descrs = DESCRS.get_or_try_init(py, || -> PyResult<_> {
        let numpy = py.import("numpy")?;
        let ml_dtypes = py.import("ml_dtypes").ok();
        let mut descrs: Vec<Option<Py<PyArrayDescr>>> = (0..DType::COUNT).map(|_| None).collect();
        for (d, name, ml) in numpy_names() {
            let module = if ml { ml_dtypes.as_ref() } else { Some(&numpy) };
            let Some(scalar_type) = module.and_then(|m| m.getattr(name).ok()) else {
                continue;
            };
            descrs[d.index()] = Some(PyArrayDescr::new(py, &scalar_type)?.unbind());
        }
        Ok(descrs)
    })?;
    Ok(descrs[dtype.index()].as_ref().map(|d| d.bind(py).clone()))
}

/// A promo dtype, weakly typed or not: `str()` is what `promo query` prints
/// (`"f16"`, `"weak:i32"`).
///
/// Equal to the names of its dtype (`"float16"`, `"half"`; `"weak:..."` for a
/// weak one), to the matching `numpy.dtype` (weakness aside: numpy has none) and
/// to a `DType` of the same dtype and weakness. `numpy.dtype(d)` converts it
/// where numpy or ml_dtypes has the dtype.
///
/// >>> import promo, numpy as np
/// >>> d = promo.promote("numpy", np.int16, np.float16)
/// >>> d, d == "float32", d == np.float32, np.dtype(d)
/// (promo.DType('f32'), True, True, dtype('float32'))
#[pyclass(name = "DType", module = "promo", frozen)]
pub struct PyDType {
    /// The dtype.
    pub dtype: DType,
    /// Whether it is weakly typed.
    pub weak: bool,
}

/// One `DType` object per dtype and weakness, made once.
static INTERNED: PyOnceLock<Vec<Py<PyDType>>> = PyOnceLock::new();

/// The `DType` object of a promotion result.
pub fn interned(py: Python<'_>, result: Promotion) -> PyResult<Bound<'_, PyDType>> {
    let all = INTERNED.get_or_try_init(py, || -> PyResult<_> {
        let mut all = Vec::with_capacity(2 * DType::COUNT);
        for &dtype in DType::ALL {
            for weak in [false, true] {
                all.push(Py::new(py, PyDType { dtype, weak })?);
            }
        }
        Ok(all)
    })?;
    Ok(all[2 * result.dtype.index() + usize::from(result.weak)]
        .bind(py)
        .clone())
}

/// The `DType` object of a dtype (not weak).
pub fn of(py: Python<'_>, dtype: DType) -> PyResult<Bound<'_, PyDType>> {
    interned(py, Promotion { dtype, weak: false })
}

impl PyDType {
    pub(crate) fn promotion(&self) -> Promotion {
        Promotion {
            dtype: self.dtype,
            weak: self.weak,
        }
    }
}

#[pymethods]
impl PyDType {
    /// promo's canonical name (`"f8e4m3fn"`), without `weak:`.
    #[getter]
    fn name(&self) -> &'static str {
        self.dtype.name()
    }

    /// Whether the result is weakly typed (JAX `weak_type`, TensorFlow `WeakTensor`).
    #[getter]
    fn weak(&self) -> bool {
        self.weak
    }

    /// Bits of one element.
    #[getter]
    fn bits(&self) -> u32 {
        self.dtype.bits()
    }

    /// The numpy or ml_dtypes name (`"float8_e4m3fn"`), or `None` where neither has
    /// the dtype.
    #[getter]
    fn numpy_name(&self) -> Option<&'static str> {
        numpy_name(self.dtype)
    }

    /// The `numpy.dtype` (ml_dtypes' for the narrow formats); `TypeError` where
    /// there is none.
    #[getter]
    fn dtype<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDescr>> {
        numpy_dtype(py, self.dtype)?.ok_or_else(|| no_numpy_dtype(self.dtype))
    }

    fn __str__(&self) -> String {
        self.promotion().to_string()
    }

    pub(crate) fn __repr__(&self) -> String {
        format!("promo.DType('{}')", self.promotion())
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        (self.dtype.name(), self.weak).hash(&mut h);
        h.finish()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let equal = if let Ok(d) = other.cast::<PyDType>() {
            let d = d.get();
            d.dtype == self.dtype && d.weak == self.weak
        } else if let Ok(s) = other.cast::<PyString>() {
            let s = s.to_cow()?;
            let (weak, name) = match s.trim().strip_prefix("weak:") {
                Some(rest) => (true, rest),
                None => (false, s.as_ref()),
            };
            weak == self.weak && name.parse::<DType>() == Ok(self.dtype)
        } else if let Ok(descr) = other.cast::<PyArrayDescr>() {
            dtype_of_descr(descr) == Some(self.dtype)
        } else if let Ok(t) = other.cast::<PyType>() {
            match numpy_type_dtype(t)? {
                Some(d) => d == self.dtype,
                None => return Ok(py.NotImplemented()),
            }
        } else {
            return Ok(py.NotImplemented());
        };
        Ok(equal.into_pyobject(py)?.to_owned().into_any().unbind())
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((py.import("promo")?.getattr("_dtype")?, (self.__str__(),)))
    }
}

/// Rebuilds a `DType` from its `str()` (pickling).
#[pyfunction]
fn _dtype<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyDType>> {
    let (weak, name) = match text.strip_prefix("weak:") {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let dtype = name
        .parse::<DType>()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    interned(py, Promotion { dtype, weak })
}

/// The promo dtype of a numpy scalar type (`numpy.float32`, `ml_dtypes.bfloat16`);
/// `None` for any other type.
pub fn numpy_type_dtype(t: &Bound<'_, PyType>) -> PyResult<Option<DType>> {
    let py = t.py();
    if !t.is_subclass(numpy(py)?.generic.bind(py))? {
        return Ok(None);
    }
    Ok(dtype_of_descr(&PyArrayDescr::new(py, t)?))
}

/// `TypeError`: numpy (with ml_dtypes, if installed) has no dtype for `dtype`.
pub fn no_numpy_dtype(dtype: DType) -> PyErr {
    match numpy_names().find(|e| e.0 == dtype) {
        Some((_, name, true)) => PyTypeError::new_err(format!(
            "{dtype} is ml_dtypes.{name}, and ml_dtypes is not installed (pip install ml_dtypes)"
        )),
        _ => PyTypeError::new_err(format!("numpy and ml_dtypes have no dtype for {dtype}")),
    }
}

/// A dtype given as a cast target, to `finfo`, `iinfo` or `can_cast`: a `DType`,
/// a name (promo's or a common spelling: `"bfloat16"`, `"float8_e4m3fn"`), a
/// `numpy.dtype`, or anything `numpy.dtype()` takes (`numpy.float32`, `float`).
pub fn dtype_arg(obj: &Bound<'_, PyAny>) -> PyResult<DType> {
    if let Ok(d) = obj.cast::<PyDType>() {
        return Ok(d.get().dtype);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return promo_query::names::dtype(None, &s.to_cow()?).map_err(PyValueError::new_err);
    }
    let descr = match obj.cast::<PyArrayDescr>() {
        Ok(descr) => descr.clone(),
        Err(_) => PyArrayDescr::new(obj.py(), obj).map_err(|_| {
            PyTypeError::new_err(format!(
                "expected a dtype (a promo.DType, a name or a numpy dtype), got {}",
                type_name(obj)
            ))
        })?,
    };
    dtype_of_descr(&descr)
        .ok_or_else(|| PyTypeError::new_err(format!("promo has no dtype for numpy's {descr}")))
}

/// The name of `obj`'s type, for messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "an object".to_owned(), |n| n.to_string())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDType>()?;
    m.add_function(wrap_pyfunction!(_dtype, m)?)?;
    Ok(())
}
