//! ONNX `Cast` on numpy arrays: the bytes of the array go through promo-core's
//! `Converter` (on every core for large arrays, without the GIL), so the result
//! is bit-identical to `promo convert`.

use numpy::{
    PyArrayDescr, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods,
};
use promo_core::cast::{
    par_convert_to_slice, Backend, CastOptions, ConvertError, Converter, PAR_MIN_ELEMENTS,
};
use promo_core::narrow::{pack_codes, unpack_codes};
use promo_core::DType;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::dtypes::{dtype_arg, dtype_of_descr, no_numpy_dtype, numpy, numpy_dtype, type_name};

/// The dtype an array of `dtype` comes back as: numpy's or ml_dtypes', or, without
/// ml_dtypes or for a format neither names (Triton's `f8e4m3b15`), the unsigned
/// integer of the same width holding the codes.
pub(crate) fn result_descr<'py>(
    py: Python<'py>,
    dtype: DType,
    storage_bits: usize,
) -> PyResult<Bound<'py, PyArrayDescr>> {
    if let Some(descr) = numpy_dtype(py, dtype)? {
        return Ok(descr);
    }
    if dtype == DType::String {
        return Err(no_numpy_dtype(dtype));
    }
    let codes = match storage_bits.max(8) {
        8 => "uint8",
        16 => "uint16",
        32 => "uint32",
        _ => return Err(no_numpy_dtype(dtype)),
    };
    let numpy = py.import("numpy")?;
    Ok(numpy
        .getattr("dtype")?
        .call1((codes,))?
        .cast_into::<PyArrayDescr>()?)
}

/// Refuses a masked array: its mask would be dropped without a word.
pub(crate) fn not_masked(array: &Bound<'_, PyAny>, what: &str) -> PyResult<()> {
    if array.is_instance(numpy(array.py())?.masked_array.bind(array.py()))? {
        return Err(PyTypeError::new_err(format!(
            "{what} is a masked array, which a cast would read without its mask: pass `a.filled(value)`, or `a.data` to cast the masked values too"
        )));
    }
    Ok(())
}

/// `array` as a C-contiguous numpy array in native byte order (itself when it is one).
pub(crate) fn contiguous<'py>(array: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyUntypedArray>> {
    let py = array.py();
    let numpy = numpy(py)?;
    not_masked(array, "the array")?;
    let array = match array.cast::<PyUntypedArray>() {
        Ok(a) => a.clone(),
        Err(_) => numpy
            .asarray
            .bind(py)
            .call1((array,))?
            .cast_into::<PyUntypedArray>()
            .map_err(|_| PyTypeError::new_err(format!("cannot cast {}: not an array", type_name(array))))?,
    };
    let native = array.dtype().is_native_byteorder() != Some(false);
    if array.is_c_contiguous() && native {
        return Ok(array);
    }
    let descr = if native {
        array.dtype()
    } else {
        array
            .dtype()
            .call_method1("newbyteorder", ("=",))?
            .cast_into::<PyArrayDescr>()?
    };
    Ok(numpy
        .ascontiguousarray
        .bind(py)
        .call1((array, descr))?
        .cast_into::<PyUntypedArray>()?)
}

/// The bytes of a C-contiguous array, as a `uint8` view of it (the last axis
/// counted in bytes).
pub(crate) fn byte_view<'py>(array: &Bound<'py, PyUntypedArray>) -> PyResult<Bound<'py, PyArrayDyn<u8>>> {
    let py = array.py();
    let uint8 = numpy(py)?.uint8.bind(py);
    let view = if array.ndim() == 0 {
        // numpy does not change a 0-d array's item size.
        array
            .call_method1("reshape", (1,))?
            .call_method1("view", (uint8,))?
    } else {
        array.call_method1("view", (uint8,))?
    };
    Ok(view.cast_into::<PyArrayDyn<u8>>()?)
}

/// The array `out=` names, checked against the result's shape and dtype.
pub(crate) fn checked_out<'py>(
    out: &Bound<'py, PyAny>,
    shape: &[usize],
    to: DType,
    descr: &Bound<'py, PyArrayDescr>,
) -> PyResult<Bound<'py, PyUntypedArray>> {
    not_masked(out, "out=")?;
    let out = out
        .cast::<PyUntypedArray>()
        .map_err(|_| PyTypeError::new_err(format!("out= takes a numpy array, not {}", type_name(out))))?;
    if out.shape() != shape {
        return Err(PyValueError::new_err(format!(
            "out= has shape {:?}, the result {shape:?}",
            out.shape()
        )));
    }
    if !out.dtype().is_equiv_to(descr) {
        return Err(PyTypeError::new_err(format!(
            "out= has dtype {}, the result {descr} ({to})",
            out.dtype()
        )));
    }
    if !out.is_c_contiguous() {
        return Err(PyValueError::new_err("out= must be C-contiguous"));
    }
    Ok(out.clone())
}

/// ONNX ``Cast`` of every element of ``array`` to ``dtype``, bit-identical to
/// ``promo convert``.
///
/// ``saturate=None`` is each format's own rule (the ONNX float8 formats clamp, as
/// ONNX's default ``saturate=1``; ml_dtypes' formats do not); ``True`` and
/// ``False`` apply to every format. ``round_mode`` ("up", "down", "nearest") is
/// ONNX's for ``float8_e8m0fnu`` targets. The result has ``array``'s shape and
/// the ml_dtypes dtype (sub-byte formats one element per byte, as ml_dtypes lays
/// them out); without ml_dtypes, and for Triton's ``f8e4m3b15``, which neither
/// numpy nor ml_dtypes has, the narrow formats come back as their unsigned codes.
/// ``from_dtype`` reads such codes back: the array's unsigned integers are the codes
/// of ``from_dtype`` (one per byte for the formats of 8 bits and fewer). Large
/// arrays convert on every core, without the GIL.
///
/// >>> import promo, numpy as np
/// >>> x = promo.cast(np.array([1.0, 500.0, -0.3, np.nan], dtype=np.float32), "float8_e4m3fn")
/// >>> x.dtype.name, x.view(np.uint8).tolist(), x.astype(np.float32).tolist()
/// ('float8_e4m3fn', [56, 126, 170, 127], [1.0, 448.0, -0.3125, nan])
/// >>> promo.cast(np.float32([500.0]), "float8_e4m3fn", saturate=False).astype(np.float32)
/// array([nan], dtype=float32)
/// >>> codes = promo.cast(np.float32([1.0625, 2.0, -np.inf]), "fp8e4b15")
/// >>> codes.tolist(), promo.cast(codes, "f32", from_dtype="fp8e4b15").tolist()
/// ([121, 126, 254], [1.125, 1.75, -1.75])
#[pyfunction]
#[pyo3(signature = (array, dtype, /, *, saturate = None, round_mode = "up", out = None, from_dtype = None))]
pub fn cast<'py>(
    array: &Bound<'py, PyAny>,
    dtype: &Bound<'py, PyAny>,
    saturate: Option<bool>,
    round_mode: &str,
    out: Option<&Bound<'py, PyAny>>,
    from_dtype: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = array.py();
    let src = contiguous(array)?;
    let from = match from_dtype {
        Some(from) => codes_of(&src, dtype_arg(from)?)?,
        None => dtype_of_descr(&src.dtype())
            .ok_or_else(|| PyTypeError::new_err(format!("promo has no dtype for numpy's {}", src.dtype())))?,
    };
    let to = dtype_arg(dtype)?;
    let options = CastOptions {
        saturate,
        round_mode: round_mode
            .parse()
            .map_err(|e: String| PyValueError::new_err(format!("round_mode: {e}")))?,
        ..CastOptions::default()
    };
    options.check_opset(from, to).map_err(PyValueError::new_err)?;
    let converter = Converter::new(from, to, options).map_err(|e| PyTypeError::new_err(e.to_string()))?;
    let descr = result_descr(py, to, converter.to_bits())?;
    let shape = src.shape().to_vec();
    let out = match out {
        Some(out) => checked_out(out, &shape, to, &descr)?,
        None => numpy(py)?
            .empty
            .bind(py)
            .call1((shape.clone(), &descr))?
            .cast_into::<PyUntypedArray>()?,
    };
    let count: usize = shape.iter().product();
    let src = apart_from(src, &out)?;
    let src_view = byte_view(&src)?;
    let dst_view = byte_view(&out)?;
    let src_bytes = src_view
        .try_readonly()
        .map_err(|e| PyValueError::new_err(format!("cannot read the array: {e}")))?;
    let mut dst_bytes = dst_view
        .try_readwrite()
        .map_err(|e| PyValueError::new_err(format!("cannot write out=: {e}")))?;
    let src_slice = src_bytes
        .as_slice()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let dst_slice = dst_bytes
        .as_slice_mut()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    if count >= DETACH_MIN_ELEMENTS {
        py.detach(|| run(&converter, from, to, &options, src_slice, dst_slice, count))?;
    } else {
        run(&converter, from, to, &options, src_slice, dst_slice, count)?;
    }
    Ok(out.into_any())
}

/// `src`, or a copy of it where its bytes overlap those of `out`, whatever objects
/// hold the two: by address range (two views of one buffer), or, for arrays that
/// map a file (`numpy.memmap`, or views of one), by the file's device, inode and
/// byte range (one file mapped twice: two address ranges, the same bytes). Rust
/// then never holds a `&[u8]` and a `&mut [u8]` over the same bytes, and each
/// element is read before it is overwritten.
pub(crate) fn apart_from<'py>(
    src: Bound<'py, PyUntypedArray>,
    out: &Bound<'py, PyUntypedArray>,
) -> PyResult<Bound<'py, PyUntypedArray>> {
    let py = src.py();
    let numpy = numpy(py)?;
    let shared = numpy.may_share_memory.bind(py).call1((&src, out))?.is_truthy()?
        || match (file_range(src.as_any())?, file_range(out.as_any())?) {
            (Some((a, ra)), Some((b, rb))) => a == b && ra.start < rb.end && rb.start < ra.end,
            _ => false,
        };
    if !shared {
        return Ok(src);
    }
    Ok(src.call_method0("copy")?.cast_into::<PyUntypedArray>()?)
}

/// A file, by device and inode, and a range of its bytes.
type FileRange = ((u64, u64), std::ops::Range<u64>);

/// The file a C-contiguous array maps and the byte range of it the array's data
/// lies on, when the array is a `numpy.memmap` or a view of one.
fn file_range(array: &Bound<'_, PyAny>) -> PyResult<Option<FileRange>> {
    let py = array.py();
    let memmap = numpy(py)?.memmap.bind(py);
    let address = |a: &Bound<'_, PyAny>| -> PyResult<u64> {
        a.getattr("__array_interface__")?
            .get_item("data")?
            .get_item(0)?
            .extract()
    };
    // The memmap that maps the file itself: the last array down the `base` chain
    // (its own base is the `mmap` object), whose data starts at its `offset`.
    let mut root = None;
    let mut at = array.clone();
    while at.is_instance_of::<PyUntypedArray>() {
        if at.is_instance(memmap)? {
            root = Some(at.clone());
        }
        let base = at.getattr("base")?;
        if base.is_none() {
            break;
        }
        at = base;
    }
    let Some(root) = root else { return Ok(None) };
    let filename = root.getattr("filename")?;
    if filename.is_none() {
        return Ok(None);
    }
    let stat = py.import("os")?.call_method1("stat", (filename,))?;
    let file = (
        stat.getattr("st_dev")?.extract()?,
        stat.getattr("st_ino")?.extract()?,
    );
    let offset: u64 = root.getattr("offset")?.extract()?;
    let start = offset + address(array)?.wrapping_sub(address(&root)?);
    let len: u64 = array.getattr("nbytes")?.extract()?;
    Ok(Some((file, start..start + len)))
}

/// `from`, when `src` holds its codes: unsigned integers of its storage width
/// (one byte for the formats of 8 bits and fewer).
fn codes_of(src: &Bound<'_, PyUntypedArray>, from: DType) -> PyResult<DType> {
    let storage = (from.bits().max(8) / 8) as usize;
    let dtype = src.dtype();
    if from.bits() == 0 || dtype.kind() != b'u' || dtype.itemsize() != storage {
        return Err(PyTypeError::new_err(format!(
            "from_dtype={from} reads codes from an array of {}-byte unsigned integers, not {dtype}",
            storage
        )));
    }
    Ok(from)
}

/// The smallest array converted without the GIL: below it, releasing and taking
/// the GIL back would cost more than the conversion.
const DETACH_MIN_ELEMENTS: usize = 1 << 16;

/// Converts `count` elements from `src` (one per byte for the sub-byte formats, as
/// numpy holds them) into `dst` (likewise).
fn run(
    converter: &Converter,
    from: DType,
    to: DType,
    options: &CastOptions,
    src: &[u8],
    dst: &mut [u8],
    count: usize,
) -> PyResult<()> {
    let error = |e: ConvertError| PyValueError::new_err(e.to_string());
    let (from_bits, to_bits) = (converter.from_bits(), converter.to_bits());
    if from_bits >= 8 && to_bits >= 8 {
        if count >= PAR_MIN_ELEMENTS {
            par_convert_to_slice(from, to, src, dst, options).map_err(error)?;
        } else {
            converter.convert_to_slice(src, dst).map_err(error)?;
        }
        return Ok(());
    }
    // Sub-byte formats are packed in promo's buffers (ONNX's layout) and one per
    // byte in numpy's: pack the source, unpack the result.
    let packed_src;
    let src = if from_bits < 8 {
        let mut packed = Vec::with_capacity(count.div_ceil(8 / from_bits));
        pack_codes(from_bits as u32, src, &mut packed);
        packed_src = packed;
        &packed_src[..]
    } else {
        src
    };
    let mut result = Vec::new();
    converter.convert_into(src, count, &mut result);
    if to_bits < 8 {
        let mut codes = Vec::with_capacity(count);
        unpack_codes(to_bits as u32, &result, count, &mut codes);
        result = codes;
    }
    dst.get_mut(..result.len())
        .ok_or_else(|| PyValueError::new_err("the result does not fit out="))?
        .copy_from_slice(&result);
    Ok(())
}

/// The SIMD backend casts use on this CPU: ``"avx512"``, ``"avx2"`` or ``"portable"``.
///
/// >>> import promo
/// >>> promo.backend() in ("avx512", "avx2", "portable")
/// True
#[pyfunction]
pub fn backend() -> &'static str {
    Backend::detect().name()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(cast, m)?)?;
    m.add_function(wrap_pyfunction!(backend, m)?)?;
    Ok(())
}
