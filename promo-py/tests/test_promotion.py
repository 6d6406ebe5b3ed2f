"""Promotion through the Python package: the framework data of ``tests/data/promotion``
(as ``tests/promotion_conformance.rs`` reads it), every kind of operand, the
``DType`` object, and ``explain`` and ``diff`` against the ``promo`` command."""

import itertools

import ml_dtypes
import numpy as np
import pytest

import promo
from conftest import DATA, load_json, outcome

# --------------------------------------------------------------------------------------
# Conformance with the frameworks' data, as tests/promotion_conformance.rs
# --------------------------------------------------------------------------------------


def settings(group):
    """A group's options as ``{key: "value"}``: strings as they are, other JSON values
    as JSON spells them (``false``, ``true``, numbers), as ``PromotionGroup::settings``."""
    out = {}
    for k, v in group["options"].items():
        if isinstance(v, str):
            out[k] = v
        elif isinstance(v, bool):
            out[k] = "true" if v else "false"
        elif v is None:
            out[k] = "null"
        else:
            out[k] = str(v)
    return out


def strip_weak(s):
    return s[len("weak:"):] if s.startswith("weak:") else s


def conform_to(name, data, extra=(), ran=False):
    """Compares rule set ``name`` with ``data`` case by case, as ``conform_to`` of
    ``tests/promotion_conformance.rs``; returns ``(compared, unknown_promotion)``."""
    rule_set = {r.name: r for r in promo.rule_sets()}[name]

    # The rule set accepts exactly the framework's dtypes.
    ours = list(rule_set.dtypes)
    unmatched = list(ours)
    for accepted in data["dtypes"]:
        hits = [d for d in unmatched if d == accepted]
        assert len(hits) == 1, f"{name}: data dtype {accepted!r} matches {hits} of {ours}"
        unmatched.remove(hits[0])
    assert not unmatched, f"{name}: dtypes the framework does not accept: {unmatched}"

    mismatches = []
    compared = 0
    unknown_promotion = 0
    for group in data["groups"]:
        options = settings(group)
        for setting in extra:
            k, v = setting.split("=", 1)
            options[k] = v
        op = group["op"]
        shown = " ".join(f"{k}={v}" for k, v in options.items())
        for case in group["cases"]:
            lhs, rhs, promoted = case[0], case[1], case[2]
            failed_to_run = len(case) > 3 and isinstance(case[3], str)
            if len(case) > 4 and case[4] == "unknown_promotion":
                assert failed_to_run and promoted is None, f"{name}: bad case {case}"
                if not ran:
                    unknown_promotion += 1
                    continue
            expected = None if (ran and failed_to_run) else promoted
            compared += 1
            try:
                actual = promo.promote(name, lhs, rhs, op=op, **options)
            except promo.PromotionError as e:
                actual, refused = None, str(e)
            except Exception as e:  # any other exception is a mismatch, shown
                mismatches.append(f"{op} {lhs} {rhs} [{shown}]: raised {type(e).__name__}: {e}")
                continue
            if actual is None:
                agree = expected is None
                got = f"refused ({refused})"
            elif expected is None:
                agree = False
                got = str(actual)
            elif failed_to_run and not (len(case) > 4 and case[4] == "abstract_evaluation"):
                # A result the build could not compute shows its dtype, not its weakness
                # (a traced one, JAX's abstract evaluation, shows both).
                agree = actual.name == strip_weak(expected) and str(actual) in (
                    strip_weak(expected),
                    "weak:" + strip_weak(expected),
                )
                got = str(actual)
            else:
                agree = str(actual) == expected
                got = str(actual)
            if not agree:
                err = case[3] if failed_to_run else ""
                mismatches.append(
                    f"{op} {lhs} {rhs} [{shown}]: framework "
                    f"{expected if expected is not None else 'refused'} ({err}), promo {got}"
                )
    assert not mismatches, (
        f"{name}: {len(mismatches)} of {compared} cases differ from "
        f"{data['framework']} {data['version']}:\n" + "\n".join(mismatches[:40])
    )
    return compared, unknown_promotion


def data(rel, ops=None):
    d = load_json(f"promotion/{rel}.json")
    if ops is not None:
        d = dict(d, groups=[g for g in d["groups"] if g["op"] in ops])
    return d


# (test id, rule set, data file, ops kept, extra settings, ran, compared, unknown_promotion)
# The counts are tests/promotion_conformance.rs's assertions.
CONFORMANCE = [
    ("openvino", "openvino", "openvino", None, (), False, 93_312, None),
    ("paddle", "paddle", "paddle", None, (), False, 60_274, 1_742),
    ("paddle-device-cpu", "paddle", "paddle", None, ("device=cpu",), True, 62_016, None),
    ("torch", "torch", "torch", None, (), False, 147_920, 0),
    ("torch-device-cpu", "torch", "torch", None, ("device=cpu",), True, 147_920, None),
    ("dali", "dali", "dali", None, (), False, 2_992, None),
    ("kernel_float", "kernel_float", "kernel_float", None, (), False, 289, None),
    ("array_api", "array_api", "array_api", None, (), False, 12_376, None),
    ("numpy", "numpy", "numpy", None, (), False, 72_576, None),
    ("tensorflow", "tensorflow", "tensorflow", None, (), False, 59_014, 7_256),
    ("tensorflow-device-cpu", "tensorflow", "tensorflow", None, ("device=cpu",), True, 66_270, None),
    ("jax", "jax", "jax", None, (), False, 294_208, None),
    ("jax-device-cpu", "jax", "jax", None, ("device=cpu",), True, 294_208, None),
    ("tinygrad", "tinygrad", "tinygrad", None, (), False, 17_008, None),
    ("mlx", "mlx", "mlx", None, (), False, 14_336, None),
    ("triton", "triton", "triton", None, (), False, 16_632, None),
    ("mindspore", "mindspore", "mindspore", None, (), False, 1_080, None),
    ("jax-result_type", "jax", "functions/jax", ["result_type"], (), False, 40_000, None),
    ("array_api-result_type", "array_api", "functions/array_api", ["result_type"], (), False, 900, None),
    ("tensorflow-result_type", "tensorflow", "functions/tensorflow", ["result_type"], (), False, 4_418, None),
    ("torch-result_type", "torch", "functions/torch", ["result_type"], (), False, 7_396, None),
    ("torch-promote_types", "torch", "functions/torch", ["promote_types"], (), False, 7_396, None),
    ("numpy-result_type", "numpy", "functions/numpy", ["result_type"], (), False, 5_184, None),
    ("numpy-promote_types", "numpy", "functions/numpy", ["promote_types"], (), False, 5_184, None),
    ("keras", "keras", "keras", None, (), False, 6_736, None),
    ("keras-result_type", "keras", "functions/keras", ["result_type"], (), False, 441, None),
]


@pytest.mark.parametrize(
    "name,rel,ops,extra,ran,count,unknown",
    [pytest.param(*c[1:], id=c[0]) for c in CONFORMANCE],
)
def test_conforms_to_framework_data(name, rel, ops, extra, ran, count, unknown):
    compared, unknown_promotion = conform_to(name, data(rel, ops), extra, ran)
    assert compared == count
    if unknown is not None:
        assert unknown_promotion == unknown


def test_every_data_file_is_covered():
    """Every data file is read by some conformance test."""
    base = DATA / "promotion"
    files = {p.relative_to(base).with_suffix("").as_posix() for p in base.rglob("*.json")}
    assert files == {c[2] for c in CONFORMANCE}


def test_rule_set_object_agrees_with_function():
    """``RuleSet.promote`` and ``RuleSet.result_type`` answer as ``promo.promote``."""
    rule_sets = {r.name: r for r in promo.rule_sets()}
    d = data("jax")
    for group in d["groups"][:4]:
        options = settings(group)
        for case in group["cases"][:400]:
            a = outcome(promo.promote, "jax", case[0], case[1], op=group["op"], **options)
            b = outcome(rule_sets["jax"].promote, case[0], case[1], op=group["op"], **options)
            c = outcome(rule_sets["jax"].result_type, case[0], case[1], op=group["op"], **options)
            e = outcome(promo.result_type, "jax", case[0], case[1], op=group["op"], **options)
            f = outcome(promo.promote, rule_sets["jax"], case[0], case[1], op=group["op"], **options)
            assert a == b == c == e == f, case


def test_rule_sets_listing():
    sets = promo.rule_sets()
    names = [r.name for r in sets]
    for n in ["numpy", "torch", "jax", "tensorflow", "array_api", "paddle", "openvino", "dali", "kernel_float"]:
        assert n in names
    for r in sets:
        assert r.path == f"bundled rules/{r.name}.toml"
        assert isinstance(r.title, str) and r.title
        assert all(isinstance(d, promo.DType) for d in r.dtypes)
        assert all(isinstance(o, str) for o in r.ops)
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in r.options.items())
    torch = {r.name: r for r in sets}["torch"]
    assert "device" in torch.options


def test_option_values_of_other_types():
    """A bool option may be given as a Python bool, a dtype option as a DType or
    numpy dtype: the same answers as the strings."""
    d = data("jax")
    g = next(g for g in d["groups"] if g["options"]["jax_enable_x64"] is True
             and g["options"]["jax_numpy_dtype_promotion"] == "standard" and g["op"] == "add")
    for case in g["cases"][:300]:
        s = outcome(promo.promote, "jax", case[0], case[1], op="add",
                    jax_enable_x64="true", jax_numpy_dtype_promotion="standard")
        b = outcome(promo.promote, "jax", case[0], case[1], op="add",
                    jax_enable_x64=True, jax_numpy_dtype_promotion="standard")
        assert s == b, case
    ov = data("openvino")["groups"]
    g = next(g for g in ov if g["options"]["u64_integer_promotion_target"] == "f32"
             and g["options"]["promote_unsafe"] is True)
    opts = settings(g)
    for case in g["cases"][:300]:
        s = outcome(promo.promote, "openvino", case[0], case[1], **opts)
        t = outcome(promo.promote, "openvino", case[0], case[1], **dict(
            opts, u64_integer_promotion_target=np.dtype(np.float32), promote_unsafe=True,
            pytorch_scalar_promotion=opts["pytorch_scalar_promotion"] == "true"))
        assert s == t, case


# --------------------------------------------------------------------------------------
# Operands of every kind
# --------------------------------------------------------------------------------------


def rule_set(name):
    return {r.name: r for r in promo.rule_sets()}[name]


def numpy_dtypes(name):
    """The rule set's dtypes that numpy or ml_dtypes has, as ``(promo name, np.dtype)``."""
    out = []
    for d in rule_set(name).dtypes:
        if d.numpy_name is not None:
            t = getattr(ml_dtypes, d.numpy_name, None)
            if t is None:
                t = getattr(np, d.numpy_name)
            out.append((d.name, np.dtype(t)))
    return out


PY_VALUES = {"int": [3, int], "float": [2.5, float], "bool": [True, bool], "complex": [1j, complex]}


def objects_for(operand, dtypes):
    """Python objects that stand for the operand string ``operand``; empty where none
    does (a weakly typed operand, a dtype numpy does not have)."""
    if operand.startswith("python:"):
        return PY_VALUES[operand.split(":", 1)[1]]
    if operand.startswith("weak:"):
        return []
    if operand.startswith("scalar:"):
        dt = dtypes.get(operand.split(":", 1)[1])
        if dt is None:
            return []
        return [np.zeros((), dt), np.zeros((), dt)[()]]
    dt = dtypes.get(operand)
    if dt is None:
        return []
    objs = [dt, np.zeros((2, 3), dt), np.zeros((0,), dt), np.zeros((1,), dt)]
    objs.append(dt.type)  # a numpy scalar type (ml_dtypes' too) is a tensor
    return objs


@pytest.mark.parametrize("name", ["numpy", "torch", "array_api", "jax", "tensorflow", "paddle"])
def test_numpy_and_python_operands_match_strings_and_framework(name):
    """Every case of the framework's add data whose operands numpy or Python can spell:
    the objects give the same answer as the strings, and as the framework."""
    dtypes = dict(numpy_dtypes(name))
    d = data(name)
    compared = 0
    for group in d["groups"]:
        if group["op"] != "add":
            continue
        options = settings(group)
        for case in group["cases"]:
            lhs_objs = objects_for(case[0], dtypes)
            rhs_objs = objects_for(case[1], dtypes)
            if not lhs_objs or not rhs_objs:
                continue
            want = outcome(promo.promote, name, case[0], case[1], op="add", **options)
            failed_to_run = len(case) > 3 and isinstance(case[3], str)
            if case[2] is not None and not failed_to_run:
                assert want == case[2], case  # the framework's fact, from the data
            for a, b in itertools.product(lhs_objs, rhs_objs):
                got = outcome(promo.promote, name, a, b, op="add", **options)
                assert got == want, f"{name} {case} as {a!r}, {b!r}: {got} vs strings {want}"
                compared += 1
    assert compared > 100


def test_known_numpy_facts_with_objects():
    """A few NumPy facts, from tests/data/promotion/numpy.json, asked with objects."""
    facts = {(c[0], c[1]): c[2] for g in data("numpy")["groups"] if g["op"] == "add"
             for c in g["cases"] if len(c) == 3}
    assert facts[("f16", "python:float")] == "f16"
    assert str(promo.promote("numpy", np.dtype("float16"), 2.5)) == facts[("f16", "python:float")]
    assert str(promo.promote("numpy", np.zeros(4, np.int8), np.int64(1))) == facts[("i8", "scalar:i64")]
    assert str(promo.promote("numpy", np.uint8, np.int8)) == facts[("u8", "i8")]
    assert str(promo.promote("numpy", np.float32, np.zeros((), np.float64))) == facts[("f32", "scalar:f64")]
    assert str(promo.promote("numpy", np.dtype(ml_dtypes.bfloat16), np.float32)) == facts[("bf16", "f32")]
    assert str(promo.promote("numpy", 3, np.zeros((2,), np.int16))) == facts[("python:int", "i16")]
    assert str(promo.promote("numpy", True, 1j)) == facts[("python:bool", "python:complex")]
    assert str(promo.promote("numpy", int, float)) == facts[("python:int", "python:float")]


def test_known_framework_facts_with_objects():
    """torch and jax facts from the data, asked with objects and framework spellings."""
    tfacts = {(c[0], c[1]): c[2] for g in data("torch")["groups"] if g["op"] == "add"
              for c in g["cases"] if len(c) == 3}
    assert str(promo.promote("torch", "torch.bfloat16", "torch.float16")) == tfacts[("bf16", "f16")]
    assert str(promo.promote("torch", "torch.bfloat16", 2.5)) == tfacts[("bf16", "python:float")]
    assert str(promo.promote("torch", np.zeros((), np.float64), "torch.int32")) == tfacts[("scalar:f64", "i32")]
    assert str(promo.promote("torch", np.zeros((3,), np.uint8), np.int8)) == tfacts[("u8", "i8")]
    jfacts = {(c[0], c[1]): c[2] for g in data("jax")["groups"] if g["op"] == "add"
              and g["options"] == {"jax_enable_x64": True, "jax_numpy_dtype_promotion": "standard"}
              for c in g["cases"] if len(c) == 3}
    got = promo.promote("jax", 2.5, 3, jax_enable_x64="true", jax_numpy_dtype_promotion="standard")
    assert str(got) == jfacts[("python:float", "python:int")]
    got = promo.promote("jax", np.int8, 2.5, jax_enable_x64=True, jax_numpy_dtype_promotion="standard")
    assert str(got) == jfacts[("i8", "python:float")]


@pytest.mark.parametrize("name", ["numpy", "torch", "jax"])
def test_dtype_spellings_are_tensors(name):
    """``np.dtype``, numpy scalar types, ml_dtypes types and ``DType`` objects are tensor
    operands; n-d arrays too; 0-d arrays and numpy scalars are rank-0."""
    pairs = numpy_dtypes(name)
    for (a, da), (b, db) in itertools.product(pairs, pairs[::3]):
        want = outcome(promo.promote, name, a, b)
        assert outcome(promo.promote, name, da, db) == want, (a, b)
        assert outcome(promo.promote, name, da.type, db.type) == want, (a, b)
        assert outcome(promo.promote, name, np.empty((2, 2), da), np.empty(5, db)) == want, (a, b)
        assert outcome(promo.promote, name, da.name, db) == want, (a, b)  # numpy's names
        ws = outcome(promo.promote, name, f"scalar:{a}", b)
        assert outcome(promo.promote, name, np.zeros((), da), db) == ws, (a, b)
        assert outcome(promo.promote, name, np.zeros((), da)[()], db) == ws, (a, b)
        wss = outcome(promo.promote, name, f"scalar:{a}", f"scalar:{b}")
        assert outcome(promo.promote, name, np.zeros((), da), np.ones((), db)[()]) == wss, (a, b)
    # DType objects are operands too, as their dtype.
    for d in rule_set(name).dtypes:
        assert outcome(promo.promote, name, d, d) == outcome(promo.promote, name, d.name, d.name)


@pytest.mark.parametrize("name", ["numpy", "torch", "jax", "array_api", "tensorflow"])
def test_python_values_and_types(name):
    for kind, (value, typ) in PY_VALUES.items():
        for other in ["f32", "i8", "python:int", "python:float", "bool"]:
            if other not in ("python:int", "python:float") and other not in [d.name for d in rule_set(name).dtypes]:
                continue
            want = outcome(promo.promote, name, f"python:{kind}", other)
            assert outcome(promo.promote, name, value, other) == want, (kind, other)
            assert outcome(promo.promote, name, typ, other) == want, (kind, other)
            want = outcome(promo.promote, name, other, f"python:{kind}")
            assert outcome(promo.promote, name, other, value) == want, (kind, other)
            assert outcome(promo.promote, name, other, typ) == want, (kind, other)
    # A bool is a Python bool, not an int; large ints and negative values are ints.
    assert outcome(promo.promote, name, False, "python:bool") == outcome(promo.promote, name, "python:bool", "python:bool")
    assert outcome(promo.promote, name, 2**40, 3.0) == outcome(promo.promote, name, "python:int", "python:float")
    assert outcome(promo.promote, name, -1, 1 + 2j) == outcome(promo.promote, name, "python:int", "python:complex")


def test_torch_spellings():
    for t, p in [("torch.bfloat16", "bf16"), ("torch.float16", "f16"), ("torch.float32", "f32"),
                 ("torch.int64", "i64"), ("torch.bool", "bool"), ("torch.uint8", "u8"),
                 ("torch.float8_e4m3fn", "f8e4m3fn"), ("torch.complex64", "c64")]:
        for other in ["f32", "i8", "python:float", "scalar:f64"]:
            assert outcome(promo.promote, "torch", t, other) == outcome(promo.promote, "torch", p, other), t


def test_result_type_of_many_operands():
    """Left to right, as repeated ``promote``; a single operand is its own answer."""
    ops = ["i8", "u8", "f16", "python:float", "scalar:f64"]
    acc = ops[0]
    for o in ops[1:]:
        acc = str(promo.promote("numpy", acc, o))
    assert str(promo.result_type("numpy", *ops)) == acc
    assert str(promo.result_type("numpy", np.int8, np.uint8, np.float16, 2.5, np.float64(1))) == acc
    assert str(promo.result_type("numpy", "f16")) == "f16"
    assert str(promo.result_type("numpy", np.float32, np.int8)) == str(promo.promote("numpy", "f32", "i8"))


def test_result_type_of_operations_of_every_arity():
    """An operation that is not elementwise answers as ``apply`` does: one operand for a
    unary operation or a reduction, NumPy's order-dependent ``concatenate``; another
    count of operands is a ``PromotionError`` naming the operation's arity."""
    for rules, operands, op in [("torch", ["i8"], "sqrt"), ("numpy", ["i8"], "sqrt"), ("jax", ["u8"], "sum"),
                                ("numpy", ["f32", "bf16", "i16"], "concatenate"),
                                ("numpy", ["f16", "bf16"], "matmul")]:
        assert promo.result_type(rules, *operands, op=op) == promo.apply(rules, op, *operands).result, (rules, op)
    assert str(promo.result_type("torch", "i8", op="sqrt")) == "f32"
    assert str(promo.result_type("numpy", "i8", op="sqrt")) == "f16"
    with pytest.raises(promo.PromotionError, match="`sqrt` takes one operand, not 2"):
        promo.result_type("torch", "i8", "i8", op="sqrt")
    with pytest.raises(promo.PromotionError, match="could not be promoted by"):
        promo.result_type("numpy", "bf16", "f32", "i16", op="concatenate")


# --------------------------------------------------------------------------------------
# The DType object
# --------------------------------------------------------------------------------------


def all_dtypes():
    seen = {}
    for r in promo.rule_sets():
        for d in r.dtypes:
            seen.setdefault(str(d), d)
    return list(seen.values())


def test_dtype_str_name_eq_hash():
    f16 = promo.promote("numpy", "f16", "f16")
    assert str(f16) == "f16"
    assert f16.name == "f16"
    assert f16.weak is False
    assert f16.bits == 16
    assert f16.numpy_name == "float16"
    assert f16 == "f16" and f16 == "float16" and f16 == np.dtype("float16") and f16 == np.dtype(np.float16)
    assert f16 != "f32" and f16 != np.dtype("float32") and f16 != 3 and f16 != None  # noqa: E711
    assert np.dtype(f16) == np.dtype("float16")
    assert f16.dtype == np.dtype("float16")
    other = promo.promote("torch", "torch.float16", "f16")
    assert f16 == other and hash(f16) == hash(other)
    assert len({f16, other, promo.promote("numpy", "f32", "f32")}) == 2
    assert {f16: 1}[other] == 1

    bf = promo.promote("numpy", np.dtype(ml_dtypes.bfloat16), "bf16")
    assert str(bf) == "bf16" and bf.numpy_name == "bfloat16"
    assert bf == np.dtype(ml_dtypes.bfloat16) and np.dtype(bf) == np.dtype(ml_dtypes.bfloat16)


def test_weak_dtypes():
    facts = {(c[0], c[1]): c[2] for g in data("jax")["groups"] if g["op"] == "add"
             and g["options"] == {"jax_enable_x64": True, "jax_numpy_dtype_promotion": "standard"}
             for c in g["cases"] if len(c) == 3}
    want = facts[("python:float", "python:float")]
    assert want.startswith("weak:")
    w = promo.promote("jax", 2.5, 1.5, jax_enable_x64=True, jax_numpy_dtype_promotion="standard")
    assert str(w) == want and w.weak is True and w.name == want[len("weak:"):]
    strong = promo.promote("jax", w.name, w.name, jax_enable_x64=True)
    assert strong.weak is False
    assert w != strong
    assert w == promo.promote("jax", "weak:" + w.name, 1.0, jax_enable_x64=True)
    # A weak DType is a weakly typed operand, as its string.
    for other in ["i8", "f16", "python:int", "weak:f32", "scalar:bf16"]:
        assert outcome(promo.promote, "jax", w, other, jax_enable_x64=True) == outcome(
            promo.promote, "jax", str(w), other, jax_enable_x64=True), other


def test_every_dtype_converts_to_numpy():
    checked = 0
    for d in all_dtypes():
        assert isinstance(d.bits, int) and d.bits > 0
        assert d.weak is False
        if d.numpy_name is None:
            with pytest.raises(TypeError):
                d.dtype
            continue
        t = getattr(ml_dtypes, d.numpy_name, None)
        if t is None:
            t = getattr(np, d.numpy_name)
        want = np.dtype(t)
        assert np.dtype(d) == want, d
        assert d.dtype == want, d
        assert d == want and d == d.numpy_name and d == d.name and d == str(d), d
        if d.bits % 8 == 0:
            assert want.itemsize * 8 == d.bits, d
        checked += 1
    assert checked >= 25


# --------------------------------------------------------------------------------------
# explain and diff against the command
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules,lhs,rhs,args,kwargs",
    [
        ("numpy", "f16", "i8", [], {}),
        ("numpy", "i8", "u8", [], {}),
        ("numpy", "f16", "python:float", [], {}),
        ("torch", "bf16", "f16", [], {}),
        ("torch", "u16", "u16", ["--set", "device=cpu"], {"device": "cpu"}),
        ("jax", "i8", "u64", ["--set", "jax_enable_x64=true"], {"jax_enable_x64": "true"}),
        ("jax", "bf16", "f16", ["--op", "divide"], {"op": "divide"}),
        ("array_api", "f32", "i8", [], {}),
        ("tensorflow", "weak:f32", "i8", [], {}),
    ],
)
def test_explain_matches_command(cli, rules, lhs, rhs, args, kwargs):
    want = cli("explain", rules, lhs, rhs, *args, check=False)
    try:
        got = promo.explain(rules, lhs, rhs, **kwargs)
    except promo.PromotionError:
        pytest.fail(f"explain raised for {rules} {lhs} {rhs}; promo explain printed {want.stdout!r}")
    assert got == want.stdout or got + "\n" == want.stdout or got == want.stdout.rstrip("\n")


def test_explain_objects_equal_strings():
    assert promo.explain("numpy", np.float16, 2.5) == promo.explain("numpy", "f16", "python:float")


@pytest.mark.parametrize(
    "args,a,b,kwargs",
    [
        (["numpy", "torch"], "numpy", "torch", {}),
        (["numpy", "jax"], "numpy", "jax", {}),
        (["jax", "jax", "--set", "a:jax_enable_x64=true"], "jax", "jax", {"a_options": {"jax_enable_x64": "true"}}),
        (["torch", "torch", "--set", "b:device=cpu"], "torch", "torch", {"b_options": {"device": "cpu"}}),
        (["numpy", "array_api", "--op", "divide"], "numpy", "array_api", {"op": "divide"}),
    ],
)
def test_diff_matches_command(cli, args, a, b, kwargs):
    want = cli("diff", *args, check=False)
    d = promo.diff(a, b, **kwargs)
    assert d.text == want.stdout or d.text.rstrip("\n") == want.stdout.rstrip("\n")
    assert str(d) == d.text
    assert d.cells >= d.agree >= 0
    assert d.cells - d.agree == len(d.differences)
    for x in d.differences:
        assert (x.a is None) == (x.a_refused is not None)
        assert (x.b is None) == (x.b_refused is not None)
        # A difference is of dtypes, as the command's table: a weakly typed result
        # (JAX's u64 + i64 with x64) shows as its dtype.
        for side, rules, got, refused in (("a", a, x.a, x.a_refused), ("b", b, x.b, x.b_refused)):
            opts = dict(kwargs.get(f"{side}_options", {}))
            want = outcome(promo.promote, rules, x.lhs, x.rhs, op=d.op, **opts)
            if got is None:
                assert want == ("refused", refused), (side, x)
            else:
                assert isinstance(want, str) and want.removeprefix("weak:") == str(got), (side, x, want)


def test_diff_of_a_rule_set_with_itself_is_empty():
    d = promo.diff("numpy", "numpy")
    assert d.differences == [] and d.cells == d.agree > 0


def test_version_is_the_command_version(cli):
    out = cli("--version").stdout.split()
    assert promo.__version__ == out[-1]


@pytest.mark.parametrize("name", ["numpy", "torch", "jax", "tensorflow", "array_api", "paddle",
                                  "openvino", "dali", "kernel_float"])
def test_every_pair_matches_query(cli, name):
    """Every pair of operand strings (tensors, rank-0, weak, Python scalars) on a few
    operations and option settings: the result, or the refusal's reason, is what
    ``promo query --stdin`` prints (``!REASON`` for a refusal)."""
    rs = rule_set(name)
    dtypes = [d.name for d in rs.dtypes]
    operands = dtypes + [f"scalar:{d}" for d in dtypes] + [f"weak:{d}" for d in dtypes[::4]] + [
        f"python:{k}" for k in PY_VALUES]
    ops = [o for o in ["add", "divide", "equal", "bitwise_and"] if not rs.ops or o in rs.ops] or ["add"]
    settings_list = [{}]
    if "device" in rs.options:
        settings_list.append({"device": "cpu"})
    if name == "jax":
        settings_list.append({"jax_enable_x64": "true", "jax_numpy_dtype_promotion": "strict"})
    if name == "openvino":
        settings_list.append({"promote_unsafe": "true", "u64_integer_promotion_target": "i64"})
    for options in settings_list:
        for op in ops:
            pairs = list(itertools.product(operands, operands))
            extra = " ".join(f"{k}={v}" for k, v in options.items())
            text = "".join(f"{a} {b} {extra} op={op}\n" for a, b in pairs)
            proc = cli("query", name, "--stdin", input=text, check=False)  # exits 1 on a refusal
            assert proc.stderr == "", proc.stderr
            out = proc.stdout.splitlines()
            assert len(out) == len(pairs)
            bad = []
            for (a, b), want in zip(pairs, out):
                got = outcome(promo.promote, name, a, b, op=op, **options)
                got = got if isinstance(got, str) else "!" + got[1]
                if got != want:
                    bad.append(f"{op} {a} {b} {extra}: promo.promote {got!r}, promo query {want!r}")
            assert not bad, f"{len(bad)} of {len(pairs)} differ:\n" + "\n".join(bad[:20])


def test_promotion_error_reason():
    with pytest.raises(promo.PromotionError) as e:
        promo.promote("torch", "u16", "u16", device="cpu")
    assert e.value.reason and e.value.reason in str(e.value)
    assert isinstance(e.value, TypeError)
