"""Casts through the Python package, bit for bit against ``promo convert`` and, where
the semantics agree, ml_dtypes and numpy; ``finfo``, ``iinfo`` and ``can_cast``
against ml_dtypes, numpy and ``tests/data/cast/can_cast.json``."""

import math

import ml_dtypes
import numpy as np
import pytest

import promo
from conftest import load_json, run_cli

# promo name -> ml_dtypes / numpy type
NARROW_FLOATS = {
    "bf16": ml_dtypes.bfloat16,
    "f8e4m3fn": ml_dtypes.float8_e4m3fn,
    "f8e4m3fnuz": ml_dtypes.float8_e4m3fnuz,
    "f8e5m2": ml_dtypes.float8_e5m2,
    "f8e5m2fnuz": ml_dtypes.float8_e5m2fnuz,
    "f8e8m0": ml_dtypes.float8_e8m0fnu,
    "f8e4m3": ml_dtypes.float8_e4m3,
    "f8e3m4": ml_dtypes.float8_e3m4,
    "f8e4m3b11fnuz": ml_dtypes.float8_e4m3b11fnuz,
    "f6e2m3fn": ml_dtypes.float6_e2m3fn,
    "f6e3m2fn": ml_dtypes.float6_e3m2fn,
    "f4e2m1": ml_dtypes.float4_e2m1fn,
}
NARROW_INTS = {"i4": ml_dtypes.int4, "u4": ml_dtypes.uint4, "i2": ml_dtypes.int2, "u2": ml_dtypes.uint2}
NARROW = {**NARROW_FLOATS, **NARROW_INTS}
WIDE = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i8": np.int8, "u8": np.uint8,
        "i16": np.int16, "u16": np.uint16, "i32": np.int32, "u32": np.uint32, "i64": np.int64,
        "u64": np.uint64, "bool": np.bool_}
TYPES = {**NARROW, **WIDE}
BITS = {"f4e2m1": 4, "i4": 4, "u4": 4, "i2": 2, "u2": 2, "f6e2m3fn": 6, "f6e3m2fn": 6}


def bits(name):
    return BITS.get(name, np.dtype(TYPES[name]).itemsize * 8)


# --------------------------------------------------------------------------------------
# The command's packed layout
# --------------------------------------------------------------------------------------


def pack(codes, b):
    """One code per byte (ml_dtypes' layout) -> ONNX's packed layout, low bits first
    (4-bit codes two to a byte, 2-bit codes four)."""
    codes = np.asarray(codes, dtype=np.uint8).ravel()
    if b not in (2, 4):
        return codes.tobytes()
    per = 8 // b
    n = len(codes)
    padded = np.zeros(-(-n // per) * per, np.uint8)
    padded[:n] = codes & ((1 << b) - 1)
    padded = padded.reshape(-1, per).astype(np.uint16)
    out = np.zeros(len(padded), np.uint16)
    for i in range(per):
        out |= padded[:, i] << (b * i)
    return out.astype(np.uint8).tobytes()


def unpack(data, b, n):
    """ONNX's packed layout -> one code per byte, ``n`` codes."""
    raw = np.frombuffer(data, np.uint8)
    if b not in (2, 4):
        return raw[:n].copy()
    per = 8 // b
    parts = [(raw >> (b * i)) & ((1 << b) - 1) for i in range(per)]
    return np.stack(parts, axis=1).ravel()[:n].astype(np.uint8)


def cli_convert(src, frm, to, *, saturate=None, round_mode=None):
    """``promo convert`` of ``src`` (a numpy array of ``frm``, one element per byte
    for sub-byte formats), as one code per byte / raw little-endian bytes."""
    flat = np.ascontiguousarray(src).ravel()
    n = flat.size
    if frm in BITS:
        data = pack(flat.view(np.uint8), BITS[frm])
    else:
        data = flat.astype(flat.dtype.newbyteorder("<"), copy=False).tobytes()
    args = ["convert", "--from", frm, "--to", to, "--count", n]
    if saturate is not None:
        args += ["--saturate", "true" if saturate else "false"]
    if round_mode is not None:
        args += ["--round-mode", round_mode]
    out = run_cli(*args, input=data).stdout
    if to in BITS:
        return unpack(out, BITS[to], n)
    return np.frombuffer(out, np.uint8).copy()


def as_bytes(a):
    """The result's bytes, little-endian, one element per byte for sub-byte formats."""
    a = np.ascontiguousarray(a)
    if a.dtype.byteorder == ">":
        a = a.astype(a.dtype.newbyteorder("<"))
    return a.view(np.uint8).ravel()


def assert_same_bytes(got, want, what):
    got = as_bytes(got)
    if not np.array_equal(got, want):
        diff = np.flatnonzero(got != want)
        raise AssertionError(f"{what}: {len(diff)} bytes differ, first at {diff[:8]}: "
                             f"promo.cast {got[diff[:8]]} vs promo convert {want[diff[:8]]}")


# --------------------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------------------


def f32_edge():
    vals = [0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, 3.5, 1e-45, -1e-45, 1e-40, 1e-38, 1.1754942e-38,
            1.17549435e-38, 3.4028235e38, -3.4028235e38, 1e30, -1e30, 1e10, 65504.0, 65520.0,
            65536.0, 448.0, 464.0, 480.0, 57344.0, 61440.0, 240.0, 256.0, 6.0, 7.0, 28.0, 30.0,
            0.25, 0.125, 2 ** -6, 2 ** -7, 2 ** -9, 2 ** -10, 2 ** -16, 2 ** -17, 2 ** -24, 2 ** -25,
            2 ** -126, 2 ** -127, 2 ** -149, 2 ** 127, 1 / 3, -1 / 3, 100.0, -100.0, 7.5, 15.0, 16.0,
            -8.0, -9.0, 2.0 ** 100, math.pi, -math.e]
    a = np.array(vals, np.float32)
    special = np.array([0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001,
                        0x7FBFFFFF, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000,
                        0x7F7FFFFF, 0x3F800001, 0x3F7FFFFF, 0x43E00000, 0x43E00001, 0x43F00000,
                        0x47600000, 0x47700000, 0x477FFFFF], np.uint32).view(np.float32)
    # Ties of every narrow format's rounding: halfway points between near values.
    ties = (np.arange(-512, 512, dtype=np.float32) / np.float32(64)) + np.float32(1 / 128)
    return np.concatenate([a, special, ties])


def f32_random(n=20000, seed=0):
    rng = np.random.default_rng(seed)
    bits_ = rng.integers(0, 2 ** 32, size=n, dtype=np.uint64).astype(np.uint32).view(np.float32)
    scaled = (rng.standard_normal(n) * np.exp2(rng.integers(-30, 30, n))).astype(np.float32)
    return np.concatenate([bits_, scaled, f32_edge()])


def every_code(name):
    """Every code of a format, as an array of the ml_dtypes (or numpy) type."""
    b = bits(name)
    t = TYPES[name]
    if name == "bool":
        return np.array([False, True])
    if b <= 8:
        return np.arange(1 << b, dtype=np.uint8).view(t)
    if b == 16:
        return np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(t)
    raise ValueError(name)


# --------------------------------------------------------------------------------------
# Against promo convert
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("to", list(NARROW) + ["f16"])
@pytest.mark.parametrize("saturate", [None, True, False])
def test_f32_to_narrow_matches_command(to, saturate):
    src = f32_random()
    got = promo.cast(src, to, saturate=saturate)
    assert got.shape == src.shape
    assert got.dtype == np.dtype(TYPES[to])
    assert_same_bytes(got, cli_convert(src, "f32", to, saturate=saturate), f"f32 -> {to} saturate={saturate}")


@pytest.mark.parametrize("frm", list(NARROW) + ["f16", "f32"])
@pytest.mark.parametrize("to", ["f32", "f16", "f64", "bf16"])
def test_every_code_back_matches_command(frm, to):
    src = every_code(frm) if frm != "f32" else f32_random(4000, seed=3)
    got = promo.cast(src, to)
    assert got.dtype == np.dtype(TYPES[to])
    assert_same_bytes(got, cli_convert(src, frm, to), f"{frm} -> {to}")


@pytest.mark.parametrize("frm", ["f16", "bf16"])
@pytest.mark.parametrize("to", [n for n in NARROW if n != "bf16"] + ["i8", "u8"])
def test_f16_and_bf16_sources_match_command(frm, to):
    src = every_code(frm)
    for saturate in (None, False):
        got = promo.cast(src, to, saturate=saturate)
        assert_same_bytes(got, cli_convert(src, frm, to, saturate=saturate), f"{frm} -> {to} saturate={saturate}")


@pytest.mark.parametrize("round_mode", ["up", "down", "nearest"])
@pytest.mark.parametrize("frm", ["f32", "bf16", "f16"])
def test_f8e8m0_round_modes_match_command(round_mode, frm):
    src = f32_random(5000, seed=7) if frm == "f32" else every_code(frm)
    for saturate in (None, True, False):
        got = promo.cast(src, "f8e8m0", round_mode=round_mode, saturate=saturate)
        want = cli_convert(src, frm, "f8e8m0", round_mode=round_mode, saturate=saturate)
        assert_same_bytes(got, want, f"{frm} -> f8e8m0 {round_mode} saturate={saturate}")


@pytest.mark.parametrize("frm,to", [("f32", "i8"), ("f32", "u8"), ("f32", "i32"), ("f64", "f32"),
                                     ("f64", "f8e4m3fn"), ("i32", "f8e5m2"), ("i8", "i4"), ("u8", "u2"),
                                     ("i64", "bf16"), ("f32", "bool"), ("bool", "f8e4m3fn")])
def test_other_pairs_match_command(frm, to):
    rng = np.random.default_rng(11)
    if frm.startswith("f"):
        with np.errstate(invalid="ignore", over="ignore"):
            src = np.concatenate([f32_random(3000, seed=11), rng.standard_normal(500) * 300]).astype(TYPES[frm])
    elif frm == "bool":
        src = rng.integers(0, 2, 100).astype(bool)
    else:
        info = np.iinfo(TYPES[frm])
        src = rng.integers(info.min, info.max, 5000, dtype=TYPES[frm], endpoint=True)
    got = promo.cast(src, to)
    assert_same_bytes(got, cli_convert(src, frm, to), f"{frm} -> {to}")


# --------------------------------------------------------------------------------------
# Against ml_dtypes and numpy, where the semantics agree
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "target, seed", [(ml_dtypes.bfloat16, 1), (np.float16, 2)], ids=["bf16 as ml_dtypes", "f16 as numpy"]
)
def test_f32_to_a_16_bit_float_matches_its_library(target, seed):
    src = f32_random(200000, seed=seed)
    got = promo.cast(src, target)
    with np.errstate(invalid="ignore", over="ignore"):
        want = src.astype(target)
    nan = np.isnan(src)
    assert got.dtype == np.dtype(target)
    assert np.array_equal(np.isnan(got.astype(np.float32)), nan)
    assert np.array_equal(got.view(np.uint16)[~nan], want.view(np.uint16)[~nan])


def test_f32_to_f8e5m2_unsaturated_matches_ml_dtypes_in_range():
    src = f32_random(200000, seed=4)
    fmax = float(ml_dtypes.finfo(ml_dtypes.float8_e5m2).max)
    ok = np.isfinite(src) & (np.abs(src) <= fmax)
    src = src[ok]
    got = promo.cast(src, "f8e5m2", saturate=False)
    want = src.astype(ml_dtypes.float8_e5m2)
    assert np.array_equal(got.view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("name", ["f8e4m3fn", "f8e5m2", "f8e4m3fnuz", "f8e5m2fnuz", "f8e4m3",
                                  "f8e3m4", "f8e4m3b11fnuz", "f8e8m0", "f6e2m3fn", "f6e3m2fn",
                                  "f4e2m1", "bf16"])
def test_decode_every_code_matches_ml_dtypes(name):
    src = every_code(name)
    got = promo.cast(src, np.float32)
    want = src.astype(np.float32)
    nan = np.isnan(want)
    assert got.dtype == np.float32
    assert np.array_equal(np.isnan(got), nan), name
    assert np.array_equal(got.view(np.uint32)[~nan], want.view(np.uint32)[~nan]), name


@pytest.mark.parametrize("name", ["i4", "u4", "i2", "u2"])
def test_narrow_ints_match_ml_dtypes_in_range(name):
    info = ml_dtypes.iinfo(TYPES[name])
    vals = np.arange(int(info.min), int(info.max) + 1, dtype=np.int8)
    got = promo.cast(vals, name)
    want = vals.astype(TYPES[name])
    assert got.dtype == want.dtype
    assert np.array_equal(got.view(np.uint8), want.view(np.uint8))
    back = promo.cast(got, np.int8)
    assert np.array_equal(back, vals)


# --------------------------------------------------------------------------------------
# Layout: strides, byte order, shape, out=, the parallel path
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("to", ["f8e4m3fn", "bf16", "f16", "f4e2m1", "i4"])
def test_noncontiguous_and_big_endian_inputs(to):
    base = f32_random(3000, seed=5)[:6000].reshape(60, 100)
    want = promo.cast(np.ascontiguousarray(base), to)
    flat = base.ravel()
    assert_same_bytes(promo.cast(flat[::2], to), as_bytes(promo.cast(flat[::2].copy(), to)), "a[::2]")
    assert_same_bytes(promo.cast(flat[::-3], to), as_bytes(promo.cast(flat[::-3].copy(), to)), "a[::-3]")
    t = base.T
    got = promo.cast(t, to)
    assert got.shape == t.shape
    assert_same_bytes(got, as_bytes(promo.cast(np.ascontiguousarray(t), to)), "transposed")
    assert_same_bytes(got.T, as_bytes(want), "transposed back")
    be = base.astype(">f4")
    got = promo.cast(be, to)
    assert got.shape == base.shape
    assert_same_bytes(got, as_bytes(want), "big-endian >f4")
    f = np.asfortranarray(base)
    assert_same_bytes(promo.cast(f, to), as_bytes(want), "Fortran order")


def test_shapes_are_preserved():
    for shape in [(), (0,), (1,), (7,), (3, 0, 2), (2, 3, 4), (1, 1, 1, 5)]:
        a = np.full(shape, 1.5, np.float32)
        got = promo.cast(a, "f8e4m3fn")
        assert got.shape == shape
        assert got.dtype == np.dtype(ml_dtypes.float8_e4m3fn)
        if a.size:
            assert np.all(got.astype(np.float32) == 1.5)


def test_array_likes():
    """Lists and scalars are array-likes, as ``np.asarray`` makes them."""
    got = promo.cast([1.0, 2.5, -3.0], "f8e4m3fn")
    want = promo.cast(np.asarray([1.0, 2.5, -3.0]), "f8e4m3fn")
    assert np.array_equal(got.view(np.uint8), want.view(np.uint8))
    assert promo.cast(1.5, "bf16").shape == ()


def test_target_spellings_agree():
    src = f32_random(2000, seed=6)
    a = promo.cast(src, "f8e4m3fn")
    for t in [ml_dtypes.float8_e4m3fn, np.dtype(ml_dtypes.float8_e4m3fn), "float8_e4m3fn",
              promo.finfo("f8e4m3fn").dtype]:
        assert np.array_equal(promo.cast(src, t).view(np.uint8), a.view(np.uint8)), t


def test_out():
    src = f32_random(5000, seed=8)[:5000].reshape(50, -1)
    want = promo.cast(src, "f8e5m2")
    out = np.empty(src.shape, ml_dtypes.float8_e5m2)
    got = promo.cast(src, "f8e5m2", out=out)
    assert got is out or np.shares_memory(got, out)
    assert np.array_equal(out.view(np.uint8), want.view(np.uint8))
    out16 = np.empty(src.shape, np.float16)
    promo.cast(src, np.float16, out=out16)
    assert np.array_equal(out16.view(np.uint16), promo.cast(src, "f16").view(np.uint16))


LARGE = (1 << 20) + 12345


@pytest.mark.parametrize("frm,to", [("f32", "f8e4m3fn"), ("f32", "bf16"), ("bf16", "f32"),
                                     ("f32", "f16"), ("f16", "f8e5m2"), ("f32", "f4e2m1"),
                                     ("f8e4m3fn", "f32")])
def test_large_arrays_match_small_path(frm, to):
    rng = np.random.default_rng(9)
    src = (rng.standard_normal(LARGE) * np.exp2(rng.integers(-20, 20, LARGE))).astype(np.float32)
    src[::1001] = np.nan
    src[::977] = np.inf
    if frm != "f32":
        src = promo.cast(src, frm)
    big = promo.cast(src, to)
    chunk = 65536
    small = np.concatenate([promo.cast(src[i:i + chunk], to) for i in range(0, LARGE, chunk)])
    assert big.shape == src.shape
    assert np.array_equal(as_bytes(big), as_bytes(small))
    # And the command agrees on a slice that straddles a chunk boundary.
    part = src[chunk - 100:chunk + 100]
    assert_same_bytes(big[chunk - 100:chunk + 100], cli_convert(part, frm, to), "large slice")


def test_large_array_with_out():
    src = np.linspace(-500, 500, LARGE, dtype=np.float32)
    out = np.empty(LARGE, ml_dtypes.float8_e4m3fn)
    promo.cast(src, "f8e4m3fn", out=out)
    assert np.array_equal(out.view(np.uint8), promo.cast(src, "f8e4m3fn").view(np.uint8))


# --------------------------------------------------------------------------------------
# finfo, iinfo, can_cast
# --------------------------------------------------------------------------------------

FINFO_FIELDS = ["dtype", "bits", "max", "min", "eps", "epsneg", "tiny", "smallest_normal",
                "smallest_subnormal", "resolution", "precision", "nmant", "nexp", "iexp",
                "minexp", "maxexp", "machep", "negep"]


def same_field(a, b):
    if isinstance(b, np.dtype) or isinstance(a, promo.DType):
        return a == b
    if isinstance(b, (int, np.integer)) and not isinstance(b, (bool, np.bool_)):
        return isinstance(a, int) and a == int(b)
    fa, fb = float(a), float(b)
    return (math.isnan(fa) and math.isnan(fb)) or fa == fb


@pytest.mark.parametrize("name", list(NARROW_FLOATS) + ["f16", "f32", "f64"])
def test_finfo_matches_ml_dtypes(name):
    t = TYPES[name]
    ours = promo.finfo(t)
    theirs = ml_dtypes.finfo(t)
    compared = []
    for field in FINFO_FIELDS:
        if not hasattr(theirs, field):
            continue
        a, b = getattr(ours, field), getattr(theirs, field)
        assert same_field(a, b), f"{name}.{field}: promo {a!r}, ml_dtypes {b!r}"
        compared.append(field)
    assert len(compared) >= 15, compared
    for spelling in (name, np.dtype(t), ours.dtype):
        assert promo.finfo(spelling).max == ours.max
    assert ours.dtype == name


def test_every_ml_dtypes_format_is_covered():
    """The formats above are every narrow float and int ml_dtypes has."""
    floats = {n for n in dir(ml_dtypes) if n.startswith(("float8_", "float6_", "float4_", "bfloat"))}
    assert floats == {np.dtype(t).name for t in NARROW_FLOATS.values()}
    ints = {n for n in dir(ml_dtypes) if n.startswith(("int", "uint")) and n != "iinfo"}
    assert ints == {np.dtype(t).name for t in NARROW_INTS.values()} | {"int1", "uint1"}


@pytest.mark.parametrize("name", ["i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "i16", "u16", "i32", "u32",
                                  "i64", "u64"])
def test_iinfo_matches(name):
    t = {"i1": ml_dtypes.int1, "u1": ml_dtypes.uint1, **TYPES}[name]
    ours = promo.iinfo(t)
    theirs = ml_dtypes.iinfo(t) if name in NARROW_INTS or name in ("i1", "u1") else np.iinfo(t)
    assert (ours.min, ours.max, ours.bits) == (int(theirs.min), int(theirs.max), int(theirs.bits))
    assert isinstance(ours.min, int) and isinstance(ours.max, int)
    assert ours.dtype == name
    assert promo.iinfo(name).max == ours.max


def test_finfo_json_facts():
    """``tests/data/cast/can_cast.json``'s finfo: the 20 dtypes as tests/can_cast.rs
    compares them."""
    facts = load_json("cast/can_cast.json")["finfo"]
    compared = 0
    for name, f in facts.items():
        if f is None:
            continue
        if f["kind"] == "int":
            i = promo.iinfo(name)
            assert (i.min, i.max, i.bits) == (f["min"], f["max"], f["bits"]), name
        else:
            x = promo.finfo(name)
            for ours, key in [(x.max, "max"), (x.smallest_normal, "smallest_normal"),
                              (x.smallest_subnormal, "smallest_subnormal"), (x.eps, "eps"),
                              (x.bits, "bits"), (x.nmant, "nmant"), (x.min, "min")]:
                want = f[key]
                assert ours == want or abs((ours - want) / want) < 1e-14, f"{name}.{key}: {ours} vs {want}"
        compared += 1
    assert compared == 20


def test_can_cast_against_numpy_data():
    """As tests/can_cast.rs: every (pair, level) of the data; the disagreements on
    numpy's own dtypes are exactly the i64/u64 -> f64/c128 ones, and the ml_dtypes
    ``safe`` disagreements are 35 claims refuted by a lost value and 15 under-claims."""
    d = load_json("cast/can_cast.json")
    ml = {"bf16", "f4e2m1", "f8e4m3fn", "f8e4m3fnuz", "f8e5m2", "f8e5m2fnuz", "f8e8m0", "i4", "u4"}
    disagree = set()
    compared = 0
    for pair, granted in d["can_cast"].items():
        a, b = pair.split(" ")
        for level in d["levels"]:
            compared += 1
            numpy_says = level in granted
            ours = promo.can_cast(a, b, level)
            assert isinstance(ours, bool)
            if ours != numpy_says:
                tag = " (ml_dtypes)" if a in ml or b in ml else ""
                disagree.add(f"{a} {b} {level}: numpy {str(numpy_says).lower()}{tag}")
    assert compared == 23 * 23 * 5
    own = sorted(x for x in disagree if "ml_dtypes" not in x)
    assert own == ["i64 c128 safe: numpy true", "i64 f64 safe: numpy true",
                   "u64 c128 safe: numpy true", "u64 f64 safe: numpy true"]
    safe_ml = [x for x in disagree if " safe:" in x and "ml_dtypes" in x]
    refuted = [x for x in safe_ml if "numpy true" in x]
    under = [x for x in safe_ml if "numpy false" in x]
    assert (len(refuted), len(under)) == (35, 15)
    # Each refuted claim loses a value on the round trip through promo.cast.
    for claim in refuted:
        a, b = claim.split()[:2]
        if a not in TYPES or b not in TYPES or bits(a) > 16:
            continue
        src = every_code(a)
        there = promo.cast(promo.cast(src, b), a)
        x, y = promo.cast(src, "f64"), promo.cast(there, "f64")
        kept = (x == y) & (np.signbit(x) == np.signbit(y)) | (np.isnan(x) & np.isnan(y))
        assert not kept.all(), claim


def test_can_cast_spellings_and_levels():
    assert promo.can_cast("bf16", "f32") is True
    assert promo.can_cast(np.float32, ml_dtypes.bfloat16) is False
    assert promo.can_cast(np.dtype("float32"), "bf16", "same_kind") is True
    assert promo.can_cast("f32", "f32", "no") is True
    assert promo.can_cast("f8e4m3fn", np.float16, "safe") is True
    for level in ["no", "equiv", "safe", "same_kind", "unsafe"]:
        assert promo.can_cast("i8", "i8", level)


# --------------------------------------------------------------------------------------
# Without ml_dtypes; from many threads
# --------------------------------------------------------------------------------------


def test_without_ml_dtypes_narrow_formats_are_codes():
    """With ml_dtypes unimportable, a narrow result is its unsigned codes (one per
    byte), the same codes as with it; numpy's own dtypes are unchanged."""
    import subprocess
    import sys

    code = r"""
import sys
sys.modules["ml_dtypes"] = None  # import ml_dtypes raises ImportError
import numpy as np, promo
x = np.array([1.5, -3.0, 1e9, -0.0, 0.1], np.float32)
for to in ["f8e4m3fn", "f8e5m2", "bf16", "f4e2m1", "i4", "f16"]:
    r = promo.cast(x, to)
    print(to, r.dtype.str, r.shape, r.view(np.uint8).tolist())
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = dict(line.split(" ", 1) for line in proc.stdout.strip().splitlines())
    x = np.array([1.5, -3.0, 1e9, -0.0, 0.1], np.float32)
    for to in ["f8e4m3fn", "f8e5m2", "bf16", "f4e2m1", "i4", "f16"]:
        with_ml = promo.cast(x, to)
        want_dtype = "<f2" if to == "f16" else ("<u2" if to == "bf16" else "|u1")
        assert lines[to] == f"{want_dtype} {x.shape} {with_ml.view(np.uint8).tolist()}", (to, lines[to])


def test_concurrent_casts_agree():
    """Casts from several threads at once (large ones release the GIL) give the same
    bytes as one at a time."""
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(21)
    arrays = [(rng.standard_normal(n) * 100).astype(np.float32) for n in (100, 70000, LARGE)]
    targets = ["f8e4m3fn", "bf16", "f16", "f4e2m1"]
    want = {(i, t): as_bytes(promo.cast(a, t)) for i, a in enumerate(arrays) for t in targets}
    jobs = [(i, t) for i in range(len(arrays)) for t in targets] * 3
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda job: as_bytes(promo.cast(arrays[job[0]], job[1])), jobs))
    for job, got in zip(jobs, results):
        assert np.array_equal(got, want[job]), job


# Triton's tl.float8e4b15 (promo's f8e4m3b15): neither numpy nor ml_dtypes has it, so
# promo gives and reads its codes; both directions against Triton's own conversions
# (tests/data/cast/triton_f8e4m3b15.json, tools/oracles/cast/gen_triton.py).
TRITON = load_json("cast/triton_f8e4m3b15.json")


def test_triton_codes_decode_as_triton_does():
    codes = np.arange(256, dtype=np.uint8)
    got = promo.cast(codes, "f16", from_dtype="fp8e4b15")
    assert got.dtype == np.float16
    assert got.view(np.uint16).tolist() == TRITON["decode"]


def test_every_f16_encodes_as_triton_does():
    x = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
    got = promo.cast(x, "f8e4m3b15")
    assert got.dtype == np.uint8
    assert got.tobytes().hex() == TRITON["f16"]
    # saturate does not change Triton's conversion, which always clamps
    assert promo.cast(x, "f8e4m3b15", saturate=False).tobytes().hex() == TRITON["f16"]


def test_from_dtype_wants_codes_of_the_storage_width():
    with pytest.raises(TypeError, match="1-byte unsigned"):
        promo.cast(np.zeros(3, dtype=np.int8), "f32", from_dtype="fp8e4b15")
    with pytest.raises(TypeError, match="2-byte unsigned"):
        promo.cast(np.zeros(3, dtype=np.uint8), "f32", from_dtype="bf16")
    # bf16 codes read back through from_dtype are ml_dtypes' bfloat16 bits
    x = np.array([1.5, -2.0], dtype=ml_dtypes.bfloat16)
    assert promo.cast(x.view(np.uint16), "f32", from_dtype="bf16").tolist() == [1.5, -2.0]


# --------------------------------------------------------------------------------------
# Memory: out= by address range, masked arrays, bytes narrower than their byte
# --------------------------------------------------------------------------------------


def overlapping_views(n_in, in_dtype, out_offset, out_dtype, n_out):
    """Two views of one buffer, neither the other's base: the input at offset 0, the
    output `out_offset` bytes in."""
    buf = bytearray(max(n_in * np.dtype(in_dtype).itemsize, out_offset + n_out * np.dtype(out_dtype).itemsize) + 64)
    src = np.frombuffer(buf, in_dtype, count=n_in)
    dst = np.frombuffer(buf, out_dtype, count=n_out, offset=out_offset)
    return buf, src, dst


@pytest.mark.parametrize("n", [100, 1 << 21])
@pytest.mark.parametrize("out_offset_elements", [0, 1, None])
def test_out_overlapping_the_input_gets_what_a_separate_out_gets(n, out_offset_elements):
    # f32 -> f16 into the input's own bytes: at its start, one element in, or its
    # second half (whose input elements are read after their bytes are written).
    offset = 2 * n if out_offset_elements is None else 2 * out_offset_elements
    buf, src, dst = overlapping_views(n, np.float32, offset, np.float16, n)
    values = np.linspace(-1000, 1000, n, dtype=np.float32)
    src[:] = values
    assert src.base is not dst.base and np.may_share_memory(src, dst)
    promo.cast(src, "f16", out=dst)
    want = promo.cast(values, "f16")
    assert np.array_equal(dst.view(np.uint16), want.view(np.uint16))


def test_out_overlapping_through_two_memory_maps(tmp_path):
    path = tmp_path / "m.bin"
    n = 70000
    np.linspace(0, 1, n, dtype=np.float32).tofile(path)
    src = np.memmap(path, np.float32, mode="r+", shape=(n,))
    values = np.array(src)
    dst = np.memmap(path, np.float16, mode="r+", shape=(n,), offset=4)
    promo.cast(src, "f16", out=dst)
    dst.flush()
    assert np.array_equal(np.array(dst).view(np.uint16), promo.cast(values, "f16").view(np.uint16))


def test_masked_arrays_are_refused_with_what_to_pass():
    masked = np.ma.masked_array(np.float32([1, 2, 3]), mask=[0, 1, 0])
    with pytest.raises(TypeError, match="masked array"):
        promo.cast(masked, "f16")
    with pytest.raises(TypeError, match="masked array"):
        promo.cast(np.float32([1, 2, 3]), "f16", out=np.ma.masked_array(np.zeros(3, np.float16)))
    assert promo.cast(masked.filled(0), "f16").tolist() == [1, 0, 3]


@pytest.mark.parametrize("name", ["f6e2m3fn", "f6e3m2fn", "f4e2m1"])
def test_a_byte_holding_a_narrow_code_is_read_by_its_low_bits(name):
    # ml_dtypes keeps each float6 and float4 value in a byte; the high bits, which
    # no conversion writes, are not part of the value (promo's documented reading).
    b = BITS[name]
    raw = np.arange(256, dtype=np.uint8)
    high = promo.cast(raw.view(NARROW_FLOATS[name]), "f32")
    low = promo.cast((raw & ((1 << b) - 1)).view(NARROW_FLOATS[name]), "f32")
    assert np.array_equal(high.view(np.uint32), low.view(np.uint32))
