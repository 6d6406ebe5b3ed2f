"""Bad input raises a Python exception, of the documented type, and never crashes;
rule files load or report ``promo check``'s diagnostic; the docstrings' examples run."""

import doctest
import inspect
import random
import re
import string

import ml_dtypes
import numpy as np
import pytest

import promo
from conftest import DATA, run_cli

# What a bad argument may raise: ValueError (a bad name or value), TypeError (an
# argument of the wrong kind); never a PromotionError (that is a refusal), never a crash.
BAD = (ValueError, TypeError)


def raises_bad(fn, *args, **kwargs):
    with pytest.raises(BAD) as e:
        fn(*args, **kwargs)
    assert not isinstance(e.value, promo.PromotionError), f"{fn.__name__}{args}: {e.value!r} is a refusal"
    return e.value


# --------------------------------------------------------------------------------------
# Names
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("call", [
    lambda: promo.promote("numpy", "f17", "f32"),
    lambda: promo.promote("numpy", "f32", "scalar:f17"),
    lambda: promo.promote("numpy", "flaot16", "f32"),
    lambda: promo.result_type("numpy", "f32", "i8", "bfloat61"),
    lambda: promo.explain("numpy", "f17", "f32"),
    lambda: promo.cast(np.zeros(3, np.float32), "f8e4m3fnn"),
    lambda: promo.cast(np.zeros(3, np.float32), "bfloat61"),
    lambda: promo.finfo("f8e4m3fnn"),
    lambda: promo.iinfo("int33"),
    lambda: promo.can_cast("f33", "f32"),
    lambda: promo.can_cast("f32", "f33"),
])
def test_unknown_dtype_names_suggest(call):
    with pytest.raises(ValueError) as e:
        call()
    assert not isinstance(e.value, promo.PromotionError)
    assert "did you mean" in str(e.value), str(e.value)


def test_unknown_dtype_matches_command_message(cli):
    msg = cli("query", "numpy", "f17", "f32", check=False).stderr
    with pytest.raises(ValueError) as e:
        promo.promote("numpy", "f17", "f32")
    assert str(e.value) in msg, (str(e.value), msg)


def test_unknown_rule_set():
    with pytest.raises(ValueError) as e:
        promo.promote("nump", "f32", "f32")
    assert "numpy" in str(e.value)
    raises_bad(promo.diff, "numpy", "trch")
    raises_bad(promo.explain, "jaxx", "f32", "f32")
    raises_bad(promo.result_type, "", "f32")


def test_unknown_option_and_bad_value():
    e = raises_bad(promo.promote, "numpy", "f32", "f32", bogus="1")
    assert "bogus" in str(e)
    e = raises_bad(promo.promote, "jax", "f32", "f32", jax_enable_x64="maybe")
    assert "maybe" in str(e)
    raises_bad(promo.promote, "jax", "f32", "f32", jax_numpy_dtype_promotion="loose")
    raises_bad(promo.promote, "openvino", "f32", "f32", u64_integer_promotion_target="f17")
    raises_bad(promo.promote, "torch", "f32", "f32", device=3.5)
    raises_bad(promo.promote, "torch", "f32", "f32", device=None)
    raises_bad(promo.diff, "jax", "jax", a_options={"jax_enable_x64": "maybe"})
    raises_bad(promo.diff, "jax", "jax", b_options={"nope": "1"})
    rs = {r.name: r for r in promo.rule_sets()}
    raises_bad(rs["jax"].promote, "f32", "f32", jax_enable_x64="maybe")
    raises_bad(rs["numpy"].result_type, "f32", "f32", bogus=True)


def test_unknown_op():
    e = raises_bad(promo.promote, "numpy", "f32", "f32", op="frobnicate")
    assert "frobnicate" in str(e)
    raises_bad(promo.result_type, "numpy", "f32", "f32", op="")
    raises_bad(promo.explain, "numpy", "f32", "f32", op="???")
    raises_bad(promo.diff, "numpy", "torch", op="frobnicate")
    raises_bad(promo.promote, "numpy", "f32", "f32", op=3)


def test_bad_operands():
    for bad in [None, object(), [1, 2], {"a": 1}, np.dtype("U5"), np.dtype("O"), np.dtype("M8[s]"),
                np.zeros(3, object), np.array(["a", "b"]), np.array(["2020-01-01"], "datetime64[D]"),
                np.dtype([("a", "f4")]), np.zeros(2, [("a", "f4")]), "", " ", "scalar:", "python:",
                "python:str", "weak:", b"f32", slice(1), str, bytes, np.str_("x")]:
        raises_bad(promo.promote, "numpy", bad, "f32")
        raises_bad(promo.promote, "numpy", "f32", bad)


def test_dtype_not_in_rule_set_is_refused_or_bad():
    """A dtype promo knows but the rule set does not accept: refused, as ``promo query``
    says (``refused: dtype `f16` is not supported``)."""
    with pytest.raises(promo.PromotionError) as e:
        promo.promote("dali", "f16", "f32")
    assert "not supported" in str(e.value)
    with pytest.raises(promo.PromotionError):
        promo.promote("torch", np.dtype(ml_dtypes.float4_e2m1fn), "f32")


def test_result_type_needs_operands():
    raises_bad(promo.result_type, "numpy")
    rs = {r.name: r for r in promo.rule_sets()}
    raises_bad(rs["numpy"].result_type)


def test_bad_rules_argument():
    for bad in [None, 3, np.float32, object()]:
        raises_bad(promo.promote, bad, "f32", "f32")


# --------------------------------------------------------------------------------------
# Casts
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [
    np.array([object(), 1], dtype=object),
    np.array(["a", "bc"]),
    np.array([b"a", b"bc"]),
    np.array(["2020-01-01"], "datetime64[D]"),
    np.array([1], "timedelta64[s]"),
    np.zeros(2, [("a", "f4"), ("b", "i4")]),
    np.zeros(2, "V4"),
])
def test_cast_refuses_array_kinds(bad):
    raises_bad(promo.cast, bad, "f8e4m3fn")


def test_cast_refuses_target_kinds():
    a = np.zeros(4, np.float32)
    for bad in [np.dtype("O"), np.dtype("U3"), np.dtype("M8[s]"), object, 3, "string?"]:
        raises_bad(promo.cast, a, bad)
    # None is no dtype (the .pyi's signature), not numpy's default f64.
    with pytest.raises(TypeError):
        promo.cast(a, None)


def test_cast_bad_out():
    a = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
    raises_bad(promo.cast, a, "f8e4m3fn", out=np.empty((4, 3), ml_dtypes.float8_e4m3fn))
    raises_bad(promo.cast, a, "f8e4m3fn", out=np.empty(12, ml_dtypes.float8_e4m3fn))
    raises_bad(promo.cast, a, "f8e4m3fn", out=np.empty((3, 4), ml_dtypes.float8_e5m2))
    raises_bad(promo.cast, a, "f8e4m3fn", out=np.empty((3, 4), np.uint16))
    ro = np.empty((3, 4), ml_dtypes.float8_e4m3fn)
    ro.flags.writeable = False
    raises_bad(promo.cast, a, "f8e4m3fn", out=ro)
    nc = np.empty((3, 8), ml_dtypes.float8_e4m3fn)[:, ::2]
    assert nc.shape == (3, 4)
    raises_bad(promo.cast, a, "f8e4m3fn", out=nc)
    raises_bad(promo.cast, a, "f8e4m3fn", out=[0] * 12)
    raises_bad(promo.cast, a, "f8e4m3fn", out="x")
    # The good out= still works after all that.
    out = np.empty((3, 4), ml_dtypes.float8_e4m3fn)
    promo.cast(a, "f8e4m3fn", out=out)
    assert np.array_equal(out.view(np.uint8), promo.cast(a, "f8e4m3fn").view(np.uint8))


def test_cast_bad_options():
    a = np.ones(4, np.float32)
    e = raises_bad(promo.cast, a, "f8e8m0", round_mode="sideways")
    assert "sideways" in str(e)
    raises_bad(promo.cast, a, "f8e8m0", round_mode=None)
    raises_bad(promo.cast, a, "f8e4m3fn", saturate="yes")
    raises_bad(promo.cast, a, "f8e4m3fn", bogus=1)


def test_cast_refuses_unconvertible_pairs():
    """Pairs without a cast (where the command refuses too) raise, never crash."""
    a = np.ones(4, np.float32)
    for target in ["i1", "u1", "c32", "bc32"]:
        try:
            promo.cast(a, target)
        except BAD:
            pass


def test_info_of_wrong_kinds():
    raises_bad(promo.finfo, "i8")
    raises_bad(promo.finfo, np.int32)
    raises_bad(promo.iinfo, "f32")
    raises_bad(promo.iinfo, ml_dtypes.bfloat16)
    raises_bad(promo.iinfo, object())
    raises_bad(promo.can_cast, "f32", "f16", "sometimes")
    for fn, args in [(promo.finfo, (None,)), (promo.iinfo, (None,)), (promo.can_cast, (None, "f16")),
                     (promo.can_cast, ("f16", None))]:
        with pytest.raises(TypeError):
            fn(*args)


# --------------------------------------------------------------------------------------
# Rule files
# --------------------------------------------------------------------------------------


def example(tmp_path, old=None, new=None):
    src = (DATA / "example_rules.toml").read_text()
    if old is not None:
        assert old in src
        src = src.replace(old, new, 1)
    path = tmp_path / "file.toml"
    path.write_text(src)
    return path


def test_load_good_rule_file(tmp_path):
    path = example(tmp_path)
    rs = promo.load(str(path))
    assert rs.name == "tiny"
    assert rs.path == str(path)
    assert sorted(d.name for d in rs.dtypes) == sorted(["bool", "i8", "u8", "i16", "f32"])
    assert rs.options == {"strict": "false"}
    assert str(rs.promote("i8", "u8")) == "i16"
    assert str(promo.promote(rs, "i8", "u8")) == str(promo.promote(str(path), "i8", "u8"))
    with pytest.raises(promo.PromotionError) as e:
        rs.promote("i8", "u8", strict=True)
    assert "strict" in str(e.value) and e.value.reason
    assert str(rs.promote("i8", "i8", op="divide")) == "f32"
    assert str(rs.promote("i8", "u8", op="equal")) == "bool"


def test_load_matches_query(tmp_path, cli):
    path = example(tmp_path)
    rs = promo.load(str(path))
    for a in ["bool", "i8", "u8", "i16", "f32"]:
        for b in ["bool", "i8", "u8", "i16", "f32"]:
            for op in ["add", "divide", "equal"]:
                out = cli("query", str(path), a, b, "--op", op, check=False)
                try:
                    got = str(rs.promote(a, b, op=op))
                except promo.PromotionError:
                    got = None
                assert (got is None) == (out.returncode != 0 or "refused" in out.stdout), (a, b, op, out.stdout)
                if got is not None:
                    assert got in out.stdout


@pytest.mark.parametrize("old,new,line,col", [
    ("bool -> i8 u8", "bool -> i9 u8", 39, 9),
    ("i8 -> i16\n", "i8 -> i16\nf32 -> bool\n", 41, 8),
    ('name = "tiny"', 'name = 3', 3, 8),
    ("[python]", "[pythn]", 26, 2),
    ("edges = '''", "edges = 3\nx = '''", 38, 9),
    ('int = "i8"', 'int = "i64"', 27, 7),
])
def test_bad_rule_file(tmp_path, old, new, line, col):
    path = example(tmp_path, old, new)
    with pytest.raises(promo.RuleFileError) as e:
        promo.load(str(path))
    assert isinstance(e.value, ValueError)
    msg = str(e.value)
    m = re.search(r"file\.toml:(\d+):(\d+)", msg)
    assert m, msg
    if line is not None:
        assert int(m.group(1)) == line, msg
    if col is not None:
        assert int(m.group(2)) == col, msg
    # Also as a rules argument.
    with pytest.raises(promo.RuleFileError):
        promo.promote(str(path), "i8", "u8")


def test_bad_rule_file_matches_check(tmp_path, cli):
    path = example(tmp_path, "bool -> i8 u8", "bool -> i9 u8")
    out = cli("check", str(path), check=False)
    assert out.returncode != 0
    with pytest.raises(promo.RuleFileError) as e:
        promo.load(str(path))
    text = out.stdout + out.stderr
    for line in str(e.value).strip().splitlines():
        assert line.strip() in text, (line, text)
    assert f"{path}:39:9" in str(e.value)


def test_unreadable_rule_file(tmp_path):
    with pytest.raises(OSError):
        promo.load(str(tmp_path / "missing.toml"))
    with pytest.raises(OSError):
        promo.load(str(tmp_path))  # a directory
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises((promo.RuleFileError, OSError)):
        promo.load(str(tmp_path / "bin.toml"))


def test_rule_file_errors_are_catchable_as_value_errors():
    assert issubclass(promo.RuleFileError, ValueError)
    assert issubclass(promo.PromotionError, TypeError)


# --------------------------------------------------------------------------------------
# Fuzz: random strings everywhere, only the allowed exceptions come out
# --------------------------------------------------------------------------------------

NAMES = ["f32", "i8", "bf16", "f8e4m3fn", "scalar:f16", "python:int", "weak:f32", "torch.bfloat16",
         "float8_e5m2", "numpy", "torch", "jax", "device", "cpu", "add", "true"]


def random_string(rng):
    kind = rng.random()
    if kind < 0.3:
        base = rng.choice(NAMES)
        pos = rng.randrange(len(base) + 1)
        return base[:pos] + "".join(rng.choice(string.printable) for _ in range(rng.randrange(3))) + base[pos + 1:]
    if kind < 0.5:
        return "".join(rng.choice(string.ascii_letters + ":._-0123456789") for _ in range(rng.randrange(20)))
    if kind < 0.6:
        return "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(12)))
    if kind < 0.65:
        return "\x00" + rng.choice(NAMES)
    if kind < 0.7:
        return rng.choice(NAMES) * rng.randrange(200, 2000)
    if kind < 0.8:
        return rng.choice(["scalar:", "weak:", "python:", "torch.", "a:", "b:"]) + rng.choice(NAMES)
    return rng.choice(NAMES)


def test_fuzz_strings():
    rng = random.Random(1234)
    rule_sets = [r.name for r in promo.rule_sets()]
    allowed = (ValueError, TypeError, OSError)  # OSError: a string taken as a rule file path
    counts = {"ok": 0, "refused": 0, "bad": 0}
    for i in range(6000):
        rules = rng.choice(rule_sets) if rng.random() < 0.8 else random_string(rng)
        lhs, rhs = random_string(rng), random_string(rng)
        options = {}
        if rng.random() < 0.3:
            key = rng.choice(["device", "jax_enable_x64", "mode", "dtype_conversion_mode",
                              "u64_integer_promotion_target", "api_version"])
            if rng.random() < 0.2:
                key = random_string(rng) or "k"
            options[key] = random_string(rng)
        op = rng.choice(["add", "divide", "equal", random_string(rng)])
        which = rng.randrange(6)
        try:
            if which == 0:
                promo.promote(rules, lhs, rhs, op=op, **options)
            elif which == 1:
                promo.result_type(rules, lhs, rhs, random_string(rng), op=op, **options)
            elif which == 2:
                promo.explain(rules, lhs, rhs, op=op, **options)
            elif which == 3:
                promo.cast(np.ones(3, np.float32), lhs, round_mode=rng.choice(["up", "down", "nearest", rhs]))
            elif which == 4:
                rng.choice([promo.finfo, promo.iinfo])(lhs)
            else:
                promo.can_cast(lhs, rhs, rng.choice(["safe", "unsafe", op]))
            counts["ok"] += 1
        except promo.PromotionError:
            counts["refused"] += 1
        except allowed as e:
            counts["bad"] += 1
            assert str(e), f"empty message for {which} {rules!r} {lhs!r} {rhs!r} {options!r}"
    assert counts["ok"] > 0 and counts["bad"] > 0, counts


def random_object(rng):
    return rng.choice([
        None, object(), float("nan"), float("inf"), 2 ** 100, -(2 ** 70), 0, 1e308, complex("nan+1j"),
        np.zeros(2, object), np.zeros((), "U3"), np.zeros(3, "M8[s]"), np.zeros((0, 2), np.int8),
        np.zeros(2, [("a", "f4")]), np.float32, np.dtype("f2"), np.int64(7), np.str_("f32"),
        np.bytes_(b"f32"), b"f32", bytearray(b"x"), [], (), {}, set(), int, float, str, type,
        np.ndarray, np.generic, np.floating, np.number, np.dtype, ml_dtypes.bfloat16,
        np.zeros(3, ml_dtypes.float8_e4m3fn), random_string(rng), ...,
    ])


def test_fuzz_objects():
    rng = random.Random(4321)
    rule_sets = [r.name for r in promo.rule_sets()]
    for _ in range(3000):
        rules = rng.choice(rule_sets)
        a, b = random_object(rng), random_object(rng)
        which = rng.randrange(5)
        try:
            if which == 0:
                promo.promote(rules, a, b)
            elif which == 1:
                promo.result_type(rules, a, b, random_object(rng))
            elif which == 2:
                promo.cast(a if isinstance(a, np.ndarray) else np.ones(2, np.float32), b)
            elif which == 3:
                rng.choice([promo.finfo, promo.iinfo])(a)
            else:
                promo.can_cast(a, b)
        except (ValueError, TypeError):  # PromotionError is a TypeError
            pass


def test_fuzz_diff_options():
    rng = random.Random(99)
    for _ in range(100):
        try:
            promo.diff("jax", rng.choice(["jax", "numpy", random_string(rng)]),
                       a_options={random_string(rng) or "k": random_string(rng)},
                       op=rng.choice(["add", random_string(rng)]))
        except (ValueError, TypeError, OSError):
            pass


# --------------------------------------------------------------------------------------
# The docstrings' examples
# --------------------------------------------------------------------------------------


def docstrings():
    """Every docstring of the module, its functions, classes and their members
    (``DocTestFinder`` skips a compiled module's builtins, whose ``__module__`` it
    cannot tie to a source file)."""
    seen = set()
    out = [("promo", promo.__doc__)]
    for name, obj in sorted(vars(promo).items()):
        if name.startswith("__") or id(obj) in seen:
            continue
        seen.add(id(obj))
        if not (inspect.isroutine(obj) or inspect.isclass(obj)):
            continue
        out.append((f"promo.{name}", getattr(obj, "__doc__", None)))
        if inspect.isclass(obj):
            for mname, member in sorted(vars(obj).items()):
                if mname.startswith("__") and mname != "__init__":
                    continue
                out.append((f"promo.{name}.{mname}", getattr(member, "__doc__", None)))
    return [(n, d) for n, d in out if isinstance(d, str) and d]


def test_docstring_examples():
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    globs = {"promo": promo, "np": np, "numpy": np, "ml_dtypes": ml_dtypes}
    examples = 0
    for name, doc in docstrings():
        test = parser.get_doctest(doc, dict(globs), name, "promo", 0)
        examples += len(test.examples)
        runner.run(test, out=lambda s: None)
    results = runner.summarize(verbose=False)
    assert examples > 0, "no docstring has an example (>>>)"
    if results.failed:
        # Run again to show the failures.
        report = []
        runner2 = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        for name, doc in docstrings():
            runner2.run(parser.get_doctest(doc, dict(globs), name, "promo", 0), out=report.append)
        pytest.fail(f"{results.failed} of {results.attempted} docstring examples failed:\n" + "".join(report)[:8000])


def test_load_takes_any_path_like(tmp_path):
    import pathlib
    path = example(tmp_path)
    for given in (pathlib.Path(path), pathlib.PurePosixPath(path)):
        assert promo.load(given).name == "tiny"
        assert str(promo.promote(given, "i8", "u8")) == "i16"
        assert promo.explain(given, "i8", "u8").startswith("tiny: add(i8, u8) = i16")
    with pytest.raises(TypeError):
        promo.load(3)


def test_a_rule_file_never_raises_a_panic():
    # A rule file that panicked every command (found by the structure-aware fuzzer)
    # is a RuleFileError, which `except Exception` catches.
    path = DATA / "fuzz" / "commutative_promoted_lhs.toml"
    with pytest.raises(promo.RuleFileError) as e:
        promo.load(str(path))
    assert "asymmetric cell: (i8, u8)" in str(e.value)
    try:
        promo.promote(str(path), "i8", "u8")
    except Exception as caught:  # noqa: BLE001 - the point: an ordinary exception
        assert isinstance(caught, promo.RuleFileError)
