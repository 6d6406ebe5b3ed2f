"""``promo.compute`` against NumPy's own ufuncs (numpy rules), against itself on
strided, byte-swapped and broadcast operands, and against the frameworks' recorded
outputs in ``tests/data/compute`` (torch and jax, without the frameworks); ``out=``
and every error."""

import gzip
import itertools

import ml_dtypes
import numpy as np
import pytest

import promo
from conftest import DATA, load_json

OPS = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "divide": np.divide,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "equal": np.equal,
    "not_equal": np.not_equal,
    "less_than": np.less,
    "less_equal": np.less_equal,
    "greater_than": np.greater,
    "greater_equal": np.greater_equal,
}

# promo name -> numpy / ml_dtypes type, for the data sets' codes
TYPES = {
    "bool": np.bool_, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
    "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "f16": np.float16, "f32": np.float32, "f64": np.float64,
    "bf16": ml_dtypes.bfloat16, "i4": ml_dtypes.int4, "u4": ml_dtypes.uint4,
    "i2": ml_dtypes.int2, "u2": ml_dtypes.uint2,
    "f8e4m3fn": ml_dtypes.float8_e4m3fn, "f8e4m3fnuz": ml_dtypes.float8_e4m3fnuz,
    "f8e5m2": ml_dtypes.float8_e5m2, "f8e5m2fnuz": ml_dtypes.float8_e5m2fnuz,
    "f8e8m0": ml_dtypes.float8_e8m0fnu, "f8e4m3": ml_dtypes.float8_e4m3,
    "f8e3m4": ml_dtypes.float8_e3m4, "f8e4m3b11fnuz": ml_dtypes.float8_e4m3b11fnuz,
    "f6e2m3fn": ml_dtypes.float6_e2m3fn, "f6e3m2fn": ml_dtypes.float6_e3m2fn,
    "f4e2m1": ml_dtypes.float4_e2m1fn,
}
CODES = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def codes(array):
    """The bit patterns of an array's elements, one unsigned integer each."""
    array = np.ascontiguousarray(array)
    return array.view(CODES[array.dtype.itemsize])


def is_nan(array):
    if array.dtype.kind in "biu" or array.dtype in (ml_dtypes.int4, ml_dtypes.uint4,
                                                     ml_dtypes.int2, ml_dtypes.uint2):
        return np.zeros(array.shape, bool)
    with np.errstate(all="ignore"):
        return np.isnan(array.astype(np.float64))


def assert_same(got, expected):
    """Same dtype and shape, the same bits, NaNs compared by class (NaN or not)."""
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    nan = is_nan(expected)
    assert np.array_equal(is_nan(got), nan), "NaNs differ"
    differ = (codes(got) != codes(expected)) & ~nan
    if differ.any():
        at = np.argwhere(differ)[:5]
        raise AssertionError(
            f"{int(differ.sum())} elements differ, first at {at.tolist()}: "
            f"{got[tuple(at.T)].tolist()} vs {expected[tuple(at.T)].tolist()}")


def assert_identical(got, expected):
    """Same dtype, shape and bits, NaN payloads included."""
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert np.array_equal(codes(got), codes(expected))


# --------------------------------------------------------------------------------------
# NumPy's own results (numpy rules)
# --------------------------------------------------------------------------------------


def sample(name, n=160, seed=0):
    """Specials and random bit patterns of a numpy dtype: every value for int8."""
    t = TYPES[name]
    if name == "i8":
        return np.arange(-128, 128, dtype=np.int8)
    finfo = ml_dtypes.finfo(t)
    specials = [0.0, -0.0, 1.0, -1.0, 0.5, 1.5, -2.0, 3.0, float(finfo.max), -float(finfo.max),
                float(finfo.smallest_subnormal), -float(finfo.smallest_normal), np.inf, -np.inf,
                np.nan, 0.1, 1 / 3, 65504.0, 448.0]
    bits = np.dtype(t).itemsize * 8
    rng = np.random.default_rng(seed + bits)
    random = rng.integers(0, 2**bits, n, dtype=np.uint64).astype(CODES[bits // 8]).view(t)
    moderate = (rng.standard_normal(n) * 100).astype(t)
    with np.errstate(all="ignore"):
        return np.concatenate([np.array(specials).astype(t), random, moderate])


NUMPY_TYPES = ["f16", "f32", "bf16", "i8"]


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("lhs,rhs", list(itertools.product(NUMPY_TYPES, repeat=2)))
def test_numpy_rules_agree_with_numpys_ufuncs(op, lhs, rhs):
    a, b = sample(lhs)[:, None], sample(rhs, seed=1)[None, :]
    try:
        with np.errstate(all="ignore"):
            expected = OPS[op](a, b)
    except TypeError:
        with pytest.raises(promo.PromotionError):
            promo.compute("numpy", op, a, b)
        return
    assert_same(promo.compute("numpy", op, a, b), expected)


def test_numpy_sub_byte_and_float8_agree_with_numpy():
    i4 = np.arange(-8, 8).astype(ml_dtypes.int4)
    u2 = np.arange(4).astype(ml_dtypes.uint2)
    e4 = np.arange(256, dtype=np.uint8).view(ml_dtypes.float8_e4m3fn)
    f4 = np.arange(16, dtype=np.uint8).view(ml_dtypes.float4_e2m1fn)
    with np.errstate(all="ignore"):
        for x, y in [(i4, i4), (u2, u2), (e4, e4), (f4, f4), (i4, e4[:16])]:
            for op in ("add", "multiply", "maximum", "less_than"):
                a, b = x[:, None], y[None, :]
                assert_same(promo.compute("numpy", op, a, b), OPS[op](a, b))


def test_the_op_takes_aliases():
    a, b = np.float32([1, 2, 3]), np.float32([3, 2, 1])
    assert_same(promo.compute("numpy", "+", a, b), a + b)
    assert_same(promo.compute("numpy", "<=", a, b), a <= b)
    assert_same(promo.compute("numpy", "/", a, b), a / b)


def test_a_rule_set_object_and_options():
    torch = [r for r in promo.rule_sets() if r.name == "torch"][0]
    a, b = np.float16([1, 2]), np.float16([0.5, 4])
    assert_same(promo.compute(torch, "add", a, b), a + b)
    x, y = np.int32([1, 2]), np.float64([0.5, 0.25])
    assert promo.compute("jax", "add", x, y).dtype == np.float32
    r = promo.compute("jax", "add", x, y, jax_enable_x64=True)
    assert r.dtype == np.float64 and r.tolist() == [1.5, 2.25]


# --------------------------------------------------------------------------------------
# Layouts: strides, byte order, broadcasting
# --------------------------------------------------------------------------------------


LAYOUT_CASES = [
    ("numpy", "add", np.float16, np.float32),
    ("torch", "multiply", ml_dtypes.bfloat16, np.float16),
    ("jax", "subtract", np.int8, np.int16),
    ("numpy", "less_than", np.float32, ml_dtypes.bfloat16),
    ("numpy", "add", ml_dtypes.int4, ml_dtypes.int4),
    ("numpy", "maximum", ml_dtypes.float8_e5m2, ml_dtypes.float8_e5m2),
]


def random_array(t, shape, seed):
    rng = np.random.default_rng(seed)
    values = rng.standard_normal(shape) * 4
    with np.errstate(all="ignore"):
        return values.astype(t)


@pytest.mark.parametrize("rules,op,x,y", LAYOUT_CASES)
def test_strided_and_byte_swapped_operands_give_the_contiguous_bits(rules, op, x, y):
    big_a = random_array(x, (6, 10), 1)
    big_b = random_array(y, (6, 10), 2)
    a, b = big_a[::2, ::-3], np.asfortranarray(big_b)[1::2, ::-3]  # a strided, b Fortran-ordered and sliced
    assert not a.flags.c_contiguous and not b.flags.c_contiguous
    expected = promo.compute(rules, op, np.ascontiguousarray(a), np.ascontiguousarray(b))
    assert_identical(promo.compute(rules, op, a, b), expected)
    # The other byte order (numpy's own dtypes of more than one byte have one).
    if np.dtype(x).itemsize > 1 and np.dtype(x).kind in "fiu":
        swapped = np.ascontiguousarray(a).astype(np.dtype(x).newbyteorder())
        assert not swapped.dtype.isnative
        assert_identical(promo.compute(rules, op, swapped, b), expected)
    if np.dtype(y).itemsize > 1 and np.dtype(y).kind in "fiu":
        swapped = b.astype(np.dtype(y).newbyteorder())[::-1, ::2]
        assert not swapped.dtype.isnative
        assert_identical(promo.compute(rules, op, a[::-1, ::2], swapped), expected[::-1, ::2])


@pytest.mark.parametrize("rules,op,x,y", LAYOUT_CASES)
@pytest.mark.parametrize("sa,sb", [
    ((3, 1), (4,)),
    ((2, 1, 3), (5, 1)),
    ((), (3,)),
    ((1,), (5,)),
    ((1,), (2,)),
    ((4,), (1, 1)),
    ((2, 3), ()),
    ((0, 3), (1, 3)),
    ((), ()),
])
def test_broadcasting_as_numpy_broadcasts(rules, op, x, y, sa, sb):
    a, b = random_array(x, sa, 3), random_array(y, sb, 4)
    shape = np.broadcast_shapes(sa, sb)
    got = promo.compute(rules, op, a, b)
    assert got.shape == shape
    full = promo.compute(rules, op, np.broadcast_to(a, shape).copy(), np.broadcast_to(b, shape).copy())
    assert_identical(got, full)
    if rules == "numpy":
        with np.errstate(all="ignore"):
            assert_same(got, OPS[op](a, b))


def test_0d_arrays_and_numpy_scalars_are_arrays():
    r = promo.compute("numpy", "add", np.array(2, np.int8), np.array(3, np.int16))
    assert r.shape == () and r.dtype == np.int16 and int(r) == 5
    r = promo.compute("numpy", "add", np.float32(1.5), np.array([1, 2], np.int8))
    assert r.dtype == np.float32 and r.tolist() == [2.5, 3.5]


def test_large_operands():
    a = np.arange(600_000, dtype=np.float32)
    b = np.float16(0.5)
    r = promo.compute("numpy", "multiply", a, b)
    assert_same(r, a * b)
    assert_same(promo.compute("numpy", "add", a[::3], a[1::3]), a[::3] + a[1::3])
    # Parts on several threads (from promo_core::cast::PAR_MIN_ELEMENTS, 512 Ki), packed
    # operands and results among them.
    rng = np.random.default_rng(5)
    i4 = rng.integers(-8, 8, 600_001).astype(ml_dtypes.int4)
    u2 = rng.integers(0, 4, 600_001).astype(ml_dtypes.uint2)
    one = np.array([5], ml_dtypes.int4)
    assert_same(promo.compute("numpy", "add", i4, i4[::-1]), i4 + i4[::-1])
    assert_same(promo.compute("numpy", "subtract", one, i4), one - i4)
    assert_same(promo.compute("numpy", "less_than", u2, one), u2 < one)
    b = rng.standard_normal(600_001).astype(ml_dtypes.bfloat16)
    assert_same(promo.compute("numpy", "multiply", b, i4), b * i4)


# --------------------------------------------------------------------------------------
# out=
# --------------------------------------------------------------------------------------


def test_out_is_written_and_returned():
    a, b = np.float16([[1], [2]]), np.float32([0.5, 0.25, 4])
    out = np.zeros((2, 3), np.float32)
    r = promo.compute("numpy", "add", a, b, out=out)
    assert r is out
    assert_same(out, a + b)


def test_out_may_be_an_operand():
    a = np.arange(8, dtype=np.float32)
    expected = a * a[::-1]
    r = promo.compute("numpy", "*", a, a[::-1], out=a)
    assert r is a
    assert_same(a, expected)


def test_out_of_a_sub_byte_dtype():
    a = np.arange(-8, 8).astype(ml_dtypes.int4)
    out = np.zeros(16, ml_dtypes.int4)
    promo.compute("numpy", "add", a, a[::-1], out=out)
    assert_same(out, a + a[::-1])


def test_out_must_match_the_result():
    a, b = np.float16([1, 2, 3]), np.float16([1, 2, 3])
    with pytest.raises(TypeError, match="out= has dtype float32, the result float16"):
        promo.compute("numpy", "add", a, b, out=np.zeros(3, np.float32))
    with pytest.raises(ValueError, match=r"out= has shape \[2\], the result \[3\]"):
        promo.compute("numpy", "add", a, b, out=np.zeros(2, np.float16))
    with pytest.raises(ValueError, match="C-contiguous"):
        promo.compute("numpy", "add", a, b, out=np.zeros(6, np.float16)[::2])
    frozen = np.zeros(3, np.float16)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="cannot write out="):
        promo.compute("numpy", "add", a, b, out=frozen)
    with pytest.raises(TypeError, match="out= takes a numpy array"):
        promo.compute("numpy", "add", a, b, out=[0, 0, 0])
    with pytest.raises(TypeError):
        promo.compute("numpy", "add", a, b, out=np.zeros(3, np.float16).astype(">f2"))


# --------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------


def test_a_refusal_is_a_promotion_error_with_the_frameworks_reason():
    a = np.zeros(2, ml_dtypes.float8_e4m3fn)
    with pytest.raises(promo.PromotionError) as e:
        promo.compute("torch", "add", a, np.zeros(2, np.float32))
    assert e.value.reason == str(e.value)
    assert str(e.value) == str(e.value.reason) and e.value.reason
    try:
        promo.promote("torch", "f8e4m3fn", "f32")
    except promo.PromotionError as p:
        assert p.reason == e.value.reason


def test_what_promo_does_not_compute_is_a_value_error():
    a = np.float32([1, 2])
    with pytest.raises(ValueError, match="is not computed"):
        promo.compute("numpy", "pow", a, a)
    with pytest.raises(ValueError, match="does not compute keras's arithmetic"):
        promo.compute("keras", "add", a, a)
    with pytest.raises(ValueError, match="no arithmetic"):
        promo.compute("numpy", "add", np.complex64([1j]), a)
    with pytest.raises(ValueError):
        promo.compute("numpy", "no such op", a, a)
    with pytest.raises(ValueError, match="could not be broadcast together with shapes"):
        promo.compute("numpy", "add", np.zeros((2, 3), np.float32), np.zeros(4, np.float32))


def test_bad_operands_are_type_errors():
    a = np.float32([1, 2])
    with pytest.raises(TypeError, match="a numpy array or a Python bool, int or float"):
        promo.compute("numpy", "add", a, [1, 2])
    with pytest.raises(TypeError, match="promo has no dtype"):
        promo.compute("numpy", "add", a, np.array(["x", "y"]))
    with pytest.raises(TypeError, match="masked array"):
        promo.compute("numpy", "add", np.ma.masked_array(a, [0, 1]), a)
    with pytest.raises(TypeError, match="both Python scalars"):
        promo.compute("numpy", "add", 1, 2.5)


# --------------------------------------------------------------------------------------
# The frameworks' recorded outputs (tests/data/compute)
# --------------------------------------------------------------------------------------

INPUTS = "compute/inputs.json"


def type_codes(name, values):
    t = TYPES[name]
    width = load_json(INPUTS)["types"][name]["bytes"]
    return np.array(values, dtype=CODES[width]).view(t) if width > 1 else np.array(values, np.uint8).view(t)


def case_inputs(case):
    """The lhs and rhs arrays of a two-array case."""
    op, lhs, rhs, inputs, result, offset, n = case[:7]
    types = load_json(INPUTS)["types"]
    if inputs == "all":
        count = 2 if lhs == "bool" else 2 ** types[lhs]["bits"]
        k = np.arange(n)
        return type_codes(lhs, k % count), type_codes(rhs, k // count)
    sa, sb = types[lhs]["specials"], types[rhs]["specials"]
    la = [sa[k % len(sa)] for k in range(len(sa) * len(sb))] + types[lhs]["random_lhs"]
    lb = [sb[k // len(sa)] for k in range(len(sa) * len(sb))] + types[rhs]["random_rhs"]
    return type_codes(lhs, la[:n]), type_codes(rhs, lb[:n])


_BLOBS = {}


def outputs(name, case):
    """A case's recorded output codes."""
    if name not in _BLOBS:
        with gzip.open(DATA / "compute" / f"{name}.bin.gz") as f:
            _BLOBS[name] = f.read()
    op, lhs, rhs, inputs, result, offset, n = case[:7]
    width = load_json(INPUTS)["types"][result]["bytes"]
    raw = np.frombuffer(_BLOBS[name], np.uint8, count=n * width, offset=offset)
    return raw.view(CODES[width])


RECORDED = {
    "torch": ("torch", {}),
    "jax_x32": ("jax", {}),
    "jax_x64": ("jax", {"jax_enable_x64": True}),
}
WANTED = [
    ("add", "f16", "bf16"), ("multiply", "bf16", "f16"), ("divide", "i8", "f16"),
    ("subtract", "f32", "bf16"), ("maximum", "f16", "f16"), ("minimum", "bf16", "f32"),
    ("less_than", "bf16", "f16"), ("equal", "f32", "f16"), ("divide", "i32", "i32"),
    ("add", "u8", "i8"), ("add", "f8e4m3fn", "f8e4m3fn"), ("multiply", "f8e5m2", "bf16"),
    ("add", "i4", "i4"), ("multiply", "u4", "i8"), ("divide", "f4e2m1", "f4e2m1"),
    ("greater_equal", "i2", "u2"), ("add", "bool", "bool"), ("multiply", "bool", "f16"),
]


def recorded_cases(name):
    wanted = set(WANTED)
    return [c for c in load_json(f"compute/{name}.json")["cases"]
            if tuple(c[:3]) in wanted and c[3] != "scalar"]


@pytest.mark.parametrize("name", RECORDED)
def test_recorded_outputs_of_torch_and_jax(name):
    rules, options = RECORDED[name]
    cases = recorded_cases(name)
    assert len(cases) >= 10
    computed = 0
    for case in cases:
        op, lhs, rhs = case[:3]
        if lhs not in TYPES or rhs not in TYPES:
            continue
        a, b = case_inputs(case)
        if case[4] is None:  # refused, by the rules or for want of a CPU kernel
            continue
        got = promo.compute(rules, op, a, b, **options)
        expected = outputs(name, case)
        assert got.dtype == TYPES[case[4]], (case[:5], got.dtype)
        agree = codes(got) == expected
        # NaN by class, and in PyTorch's maximum/minimum the zero of a ±0 tie, which
        # depends on the element's position (tests/compute_conformance.rs does so too).
        agree |= is_nan(got) & is_nan(expected.view(got.dtype))
        if rules == "torch" and op in ("maximum", "minimum") and not is_nan(got).all():
            with np.errstate(all="ignore"):
                zero = (got.astype(np.float64) == 0) & (expected.view(got.dtype).astype(np.float64) == 0)
            agree |= zero
        assert agree.all(), (case[:5], np.nonzero(~agree)[0][:5])
        computed += 1
    assert computed >= 8



# --------------------------------------------------------------------------------------
# Python scalars
# --------------------------------------------------------------------------------------

PY_SCALARS = [True, False, 0, 3, -1, 100, 127, 300, -129, 2**40, 0.1, 1 / 3, -0.0, 0.5,
              float("inf"), float("nan"), 65519.0, 1e30, 1 + 2**-8 + 2**-30]


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("t", NUMPY_TYPES)
def test_numpy_rules_with_python_scalars_agree_with_numpy(op, t):
    a = sample(t)
    for s in PY_SCALARS:
        for lhs, rhs in ((a, s), (s, a)):
            try:
                with np.errstate(all="ignore"):
                    expected = OPS[op](lhs, rhs)
            except OverflowError:
                with pytest.raises(OverflowError):
                    promo.compute("numpy", op, lhs, rhs)
                continue
            except TypeError:
                with pytest.raises(promo.PromotionError):
                    promo.compute("numpy", op, lhs, rhs)
                continue
            got = promo.compute("numpy", op, lhs, rhs)
            try:
                assert_same(got, expected)
            except AssertionError as e:
                raise AssertionError(f"{op}({'array' if lhs is a else lhs!r}, {'array' if rhs is a else rhs!r}): {e}")


def test_a_python_scalar_on_either_side_with_out():
    a = np.float16([1.0, 2.0, 65504.0])
    out = np.empty(3, np.float16)
    assert promo.compute("torch", "*", a, 2, out=out) is out
    assert out.tolist() == [2.0, 4.0, float("inf")]
    assert promo.compute("torch", "-", 1.5, a).tolist() == [0.5, -0.5, -65504.0]
    assert promo.compute("numpy", "add", np.int8([1]), True).dtype == np.int8
    assert promo.compute("jax", "<", 2.5, np.int32([1, 3])).tolist() == [False, True]


def test_a_python_scalar_the_framework_refuses_is_an_overflow_error():
    with pytest.raises(OverflowError):
        promo.compute("numpy", "add", np.int8([1, 2]), 300)
    with pytest.raises(OverflowError):
        promo.compute("numpy", "add", np.int64([1, 2]), 2**200)
    with pytest.raises(ValueError, match="complex"):
        promo.compute("numpy", "add", np.float32([1]), 1j)


def scalar_case_inputs(case):
    """The array of a scalar case and the Python scalar, on its side."""
    op, lhs, rhs = case[:3]
    inputs = load_json(INPUTS)
    array_type, scalar = (rhs, lhs) if lhs.startswith("py:") else (lhs, rhs)
    t = inputs["types"][array_type]
    if t["bytes"] == 1:
        values = list(range(2 if array_type == "bool" else 2 ** t["bits"]))
    else:
        values = t["specials"] + t["random_lhs"][:128]
    source = inputs["scalars"][int(scalar[3:])]
    value = eval(source, {"__builtins__": {"float": float}})  # the data's own Python sources
    array = type_codes(array_type, values)
    return (value, array) if lhs.startswith("py:") else (array, value)


SCALAR_TYPES = {"f16", "bf16", "f32", "i8", "u8", "i32", "bool", "f8e4m3fn", "i4"}


@pytest.mark.parametrize("name", RECORDED)
def test_recorded_scalar_outputs_of_torch_and_jax(name):
    rules, options = RECORDED[name]
    computed = 0
    for case in load_json(f"compute/{name}.json")["cases"]:
        op, lhs, rhs, kind, result = case[:5]
        array_type = rhs if lhs.startswith("py:") else lhs
        if kind != "scalar" or result is None or array_type not in SCALAR_TYPES:
            continue
        if op not in ("add", "multiply", "divide", "less_than", "maximum"):
            continue
        a, b = scalar_case_inputs(case)
        got = promo.compute(rules, op, a, b, **options)
        expected = outputs(name, case)
        assert got.dtype == TYPES[result], (case[:5], got.dtype)
        agree = (codes(got) == expected) | (is_nan(got) & is_nan(expected.view(got.dtype)))
        if op == "maximum" and rules == "torch":
            with np.errstate(all="ignore"):
                agree |= (got.astype(np.float64) == 0) & (expected.view(got.dtype).astype(np.float64) == 0)
        assert agree.all(), (case[:5], np.nonzero(~agree)[0][:5])
        computed += 1
    assert computed >= 50
