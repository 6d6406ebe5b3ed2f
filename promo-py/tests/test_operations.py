"""Operations of every arity through the Python package (docs/operations.md):
``promo.apply`` and ``explain`` on a rule file of unary operations, reductions,
lists, stores and compute dtypes, as the ``promo`` command answers them."""

import numpy as np
import pytest

import promo
from conftest import run_cli

RULES = '''
[rules]
name = "ops"
marker = "Ops"
title = "operations of every arity"
version = "1"
commutative = false
dtypes = ["bool", "i8", "u8", "i16", "f16", "f32"]
ops = ["add", "sqrt", "sum", "sum_dtype", "concatenate", "store", "add_inplace"]

[reasons]
narrowing = "cannot cast the result into the output"

[lattice]
edges = """
bool -> i8 u8 f16
i8 u8 -> i16 -> f32
f16 -> f32
"""

[[compute]]
name = "f16 arithmetic computes in f32"
ops = ["add", "sum"]
promoted = ["f16"]
result = "f32"

[[layer]]
name = "sqrt of bool or an integer is f32"
ops = ["sqrt"]
rows = ["bool", "integer"]
result = "f32"

[[layer]]
name = "sum with dtype= is that dtype"
ops = ["sum_dtype"]
result = "rhs"

[[layer]]
name = "a result is stored into an array of its kind or above"
ops = ["store"]
cases = [{ where = "kind(lhs) <= kind(rhs)", result = "rhs" }, { result = "!narrowing" }]

[[layer]]
name = "base"
result = "lub"
'''


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    path = tmp_path_factory.mktemp("ops") / "ops.toml"
    path.write_text(RULES, encoding="utf-8")
    return promo.load(str(path))


def outcome(o):
    """An ``Outcome`` as ``(result, compute)`` names."""
    return (str(o.result), str(o.compute))


def test_one_operand_two_and_a_list(rules):
    assert outcome(promo.apply(rules, "sqrt", np.int8)) == ("f32", "f32")
    assert outcome(rules.apply("sqrt", "f16")) == ("f16", "f16")
    assert outcome(promo.apply(rules, "add", "i8", "u8")) == ("i16", "i16")
    assert outcome(promo.apply(rules, "concatenate", "i8", "u8", "f16")) == ("f32", "f32")
    assert outcome(promo.apply(rules, "sum", "u8", dtype=np.float32)) == ("f32", "f32")


def test_the_compute_dtype_is_returned_beside_the_result(rules):
    o = promo.apply(rules, "add", "f16", "f16")
    assert outcome(o) == ("f16", "f32")
    assert o == promo.apply(rules, "sum", "f16")
    assert o != promo.apply(rules, "add", "f32", "f16")
    assert repr(o) == "promo.Outcome(result=promo.DType('f16'), compute=promo.DType('f32'))"
    # An in-place add computes as the add does.
    assert outcome(promo.apply(rules, "+=", "f16", "u8")) == ("f16", "f32")


def test_out_and_in_place_store_the_result_or_refuse(rules):
    assert outcome(promo.apply(rules, "add", "i8", "u8", out="f32")) == ("f32", "i16")
    with pytest.raises(promo.PromotionError, match="cannot cast the result into the output"):
        promo.apply(rules, "add", "i8", "f16", out="i16")
    with pytest.raises(promo.PromotionError, match="cannot cast"):
        promo.apply(rules, "add_inplace", "i8", "f32")


def test_a_count_the_operation_does_not_take_is_a_value_error(rules):
    with pytest.raises(ValueError, match="`sqrt` takes one operand, not 2"):
        promo.apply(rules, "sqrt", "i8", "i8")
    with pytest.raises(ValueError, match="`concatenate` takes two or more operands, not 1"):
        promo.apply(rules, "concatenate", "i8")
    with pytest.raises(ValueError, match="takes no `dtype=`"):
        promo.apply(rules, "sqrt", "i8", dtype="f32")


def test_a_rule_set_of_binary_promotion_covers_no_other_operation():
    with pytest.raises(ValueError, match="does not cover `sqrt`"):
        promo.apply("openvino", "sqrt", "f16")


def test_explain_reads_each_cell_as_the_command_does(rules, tmp_path):
    text = promo.explain(rules, "f16", "u8", op="+=")
    assert text.startswith("ops: add_inplace(f16, u8) = f16 (computed in f32)\n")
    assert "is store(add(f16, u8), f16)" in text
    path = tmp_path / "ops.toml"
    path.write_text(RULES, encoding="utf-8")
    for args in (["i8", "--op", "sqrt"], ["i8", "u8", "f16", "--op", "concatenate"], ["f16", "u8", "--op", "+="]):
        out = run_cli("explain", path, *args)
        kw = args[args.index("--op") + 1]
        operands = args[: args.index("--op")]
        assert out.stdout == promo.explain(str(path), *operands, op=kw)
