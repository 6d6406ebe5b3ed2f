"""Dump what array-api-strict (the reference implementation of the Python Array API
standard) does with operations of every arity: unary functions, reductions (with and
without `dtype=`), matmul, concat of two and three arrays and the augmented
assignments `a += b` etc., for every released standard version it supports (the
`api_version` flag), to tests/data/operations/array_api.json.

    python tools/oracles/operations/array_api_oracle.py [OUT]

Dtypes: those of tools/oracles/promotion/array_api_oracle.py (bool, u8..u64,
i8..i64, f32, f64, c64, c128: the standard has no f16/bf16). `DTYPE` is
`xp.ones(2, dtype=...)` (`xp.ones((2, 2), ...)` for matmul), `scalar:DTYPE`
`xp.ones((), dtype=...)`, `python:KIND` True, 3, 2.5 or 1+2j passed as it is.
Operands are made again after each `set_array_api_strict_flags(api_version=...)`.
A function a version does not have (absent from the namespace, or refused with "requires
API version ...") gets no group for that version: `missing_ops_by_api_version`
says why. The draft version is not swept. No compute dtypes: array-api-strict neither
states nor shows one (it computes with NumPy underneath).
"""
import itertools
import operator
import os
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import array_api_strict as xp  # noqa: E402
from array_api_strict import _flags  # noqa: E402

from ops_common_a import (COMMON, INPLACE, REDUCTIONS, UNARY, Sweep, count_cases, default_out,  # noqa: E402
                          drop_rank0, first_line, fold_check, functions_map, load_promotion_oracle, python_operands,
                          write)

P = load_promotion_oracle("array_api_oracle")  # NAMES, name_of
NAMES, name_of = P.NAMES, P.name_of
# promo's op name -> the standard's function
FUNCTIONS = {op: op for op in UNARY}
FUNCTIONS.update({"absolute": "abs", "bitwise_not": "bitwise_invert"})
REDUCTION_FUNCTIONS = {op: op for op in REDUCTIONS}
REDUCTION_FUNCTIONS.update({"cumsum": "cumulative_sum", "cumprod": "cumulative_prod"})
IOPS = {"add": operator.iadd, "subtract": operator.isub, "multiply": operator.imul, "divide": operator.itruediv}


def versions():
    """The released standard versions array-api-strict supports (not the draft)."""
    return [v for v in _flags.supported_versions if v != getattr(_flags, "draft_version", None)]


def available(name, probe):
    """None if the namespace has function `name` under the current version, else why
    not (absent, or refused for the version when called on `probe`)."""
    f = getattr(xp, name, None)
    if f is None:
        return f"array_api_strict has no {name}"
    try:
        f(probe)
    except RuntimeError as e:
        if "requires API version" in str(e):
            return first_line(e)
    except Exception:  # noqa: BLE001
        pass
    return None


def main(out_path):
    start = time.time()
    warnings.simplefilter("ignore")
    sweep = Sweep()
    groups, rank0_differs, missing_by_version, folds, version_warning, operator_differs = [], {}, {}, {}, {}, {}
    for version in versions():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            xp.set_array_api_strict_flags(api_version=version)
        if caught:
            version_warning[version] = str(caught[0].message)
        options = {"api_version": version}
        sweep.prefix = f"{version}:"
        flags = xp.get_array_api_strict_flags()
        assert flags["api_version"] == version, flags
        order = [n for n in NAMES if hasattr(xp, n)]
        types = {NAMES[n]: getattr(xp, n) for n in order}
        arrays = list(types)
        by_name = {d: xp.ones(2, dtype=t) for d, t in types.items()}
        by_name.update({"scalar:" + d: xp.ones((), dtype=t) for d, t in types.items()})
        by_name.update(dict(python_operands()))
        unary_operands = arrays + ["scalar:" + d for d in arrays] + [n for n, _ in python_operands()]
        pythons = [n for n, _ in python_operands()]
        common = [d for d in COMMON if d in types]
        probe = xp.ones(2, dtype=xp.float32)
        missing = missing_by_version.setdefault(version, {})

        def group(op, kind, function, cases):
            groups.append({"options": options, "op": op, "kind": kind, "function": function, "cases": cases})

        def res(r):
            return name_of(r.dtype)

        # 1. unary
        for op in UNARY:
            why = available(FUNCTIONS[op], probe)
            if why:
                missing[op] = why
                continue
            fn = getattr(xp, FUNCTIONS[op])
            cases = [sweep.run(f"unary:{op}", [n], lambda x=by_name[n]: res(fn(x))) for n in unary_operands]
            group(op, "unary", f"xp.{FUNCTIONS[op]}", drop_rank0(cases, rank0_differs, f"{version}:unary:{op}"))

        # 2. reductions
        for op in REDUCTIONS:
            why = available(REDUCTION_FUNCTIONS[op], probe)
            if why:
                missing[op] = why
                continue
            fn = getattr(xp, REDUCTION_FUNCTIONS[op])
            cases = [sweep.run(f"reduction:{op}", [n], lambda x=by_name[n]: res(fn(x))) for n in unary_operands]
            group(op, "reduction", f"xp.{REDUCTION_FUNCTIONS[op]}",
                  drop_rank0(cases, rank0_differs, f"{version}:reduction:{op}"))
        for op in ("sum", "prod", "mean"):
            fn = getattr(xp, op)
            try:
                fn(probe, dtype=xp.float32)
            except TypeError as e:
                missing[f"{op}(dtype=)"] = f"xp.{op} takes no dtype=: " + first_line(e)
                continue
            cases = [sweep.run(f"reduction_dtype:{op}", [n, d], lambda n=n, d=d: res(fn(by_name[n], dtype=types[d])))
                     for n, d in itertools.product(arrays, arrays)]
            group(op, "reduction_dtype", f"xp.{op}(x, dtype=D)", cases)

        # 3. matmul
        mat = {d: xp.ones((2, 2), dtype=t) for d, t in types.items()}
        cases = [sweep.run("binary:matmul", [a, b], lambda a=a, b=b: res(xp.matmul(mat[a], mat[b])))
                 for a, b in itertools.product(arrays, arrays)]
        for a, b in (("scalar:f32", "f32"), ("f32", "scalar:f32"), ("python:float", "f32"), ("f32", "python:float")):
            xs = [by_name[o] if ":" in o else mat[o] for o in (a, b)]
            cases.append(sweep.run("binary:matmul", [a, b], lambda xs=xs: res(xp.matmul(*xs))))
        group("matmul", "binary", "xp.matmul", cases)
        # the operator `a @ b` on the same arrays
        differ = []
        for c in cases[:len(arrays) ** 2]:
            a, b = c[0]
            op_case = sweep.run("binary:@", [a, b], lambda a=a, b=b: res(mat[a] @ mat[b]))
            if (op_case[1], op_case[1] is None) != (c[1], c[1] is None):
                differ.append([c[0], c[1:], op_case[1:]])
        operator_differs[version] = {"cases that differ": len(differ),
                                     "[operands, xp.matmul, a @ b]": differ}

        # 4. concat
        pair_cases = [sweep.run("list:concatenate", [a, b], lambda a=a, b=b: res(xp.concat([by_name[a], by_name[b]])))
                      for a, b in itertools.product(arrays, arrays)]
        triple_cases = [sweep.run("list:concatenate", list(t), lambda t=t: res(xp.concat([by_name[o] for o in t])))
                        for t in itertools.product(common, common, common)]
        extra = [sweep.run("list:concatenate", [a, b], lambda a=a, b=b: res(xp.concat([by_name[a], by_name[b]])))
                 for a, b in (("scalar:f32", "f32"), ("f32", "python:float"))]
        group("concatenate", "list", "xp.concat([a, b, ...])", pair_cases + triple_cases + extra)
        folds[version] = fold_check(pair_cases, triple_cases)

        # 5. a += b
        def inplace(op, a, b):
            x = xp.ones(2, dtype=types[a])
            r = IOPS[op](x, b)
            assert r is x, (op, a)
            return res(r)

        for op, sym in INPLACE.items():
            cases = [sweep.run(f"inplace:{op}", [a, b], lambda a=a, b=b: inplace(op, a, by_name[b]))
                     for a in arrays for b in arrays + pythons]
            group(op, "inplace", f"a {sym} b", cases)
        print(f"array_api {version}: {count_cases(groups)} cases so far, {time.time() - start:.1f}s", file=sys.stderr)

    newest = versions()[-1]
    xp.set_array_api_strict_flags(api_version=newest)
    every = set.intersection(*(set(m) for m in missing_by_version.values()))
    doc = {
        "framework": "array_api",
        "version": xp.__version__,
        "generated_by": "tools/oracles/operations/array_api_oracle.py",
        "package": "array-api-strict",
        "api_versions": versions(),
        "draft_api_version_not_swept": getattr(_flags, "draft_version", None),
        "api_version_warnings": version_warning,
        "dtypes": arrays,
        "not_dtypes": {"f16": "not in the standard", "bf16": "not in the standard"},
        "operands": {"DTYPE": "xp.ones(2, dtype=...); xp.ones((2, 2), dtype=...) for matmul",
                     "scalar:DTYPE": "xp.ones((), dtype=...)", "python:KIND": "True, 3, 2.5, 1+2j as they are"},
        "functions": functions_map(groups),
        "missing_ops": {**{op: missing_by_version[newest][op] for op in sorted(every, key=str)},
                        "out": "the standard's functions take no out= (nor does array-api-strict)"},
        "missing_ops_by_api_version": {v: {op: why for op, why in m.items() if op not in every}
                                       for v, m in missing_by_version.items()},
        "common_dtypes": [d for d in COMMON if d in arrays],
        "compute_observed": "none: array-api-strict neither states nor shows a compute dtype",
        "matmul_operator_vs_function": operator_differs,
        "concatenate_three_vs_left_fold": folds,
        "rank0_cases_left_out": "a unary or reduction case with a `scalar:` operand is left out when it has the "
                                "outcome of the same case on a shape-[2] array; rank0_differs lists where some do not",
        "rank0_differs": rank0_differs,
        "warnings": sweep.warnings,
        "groups": groups,
    }
    write(out_path, doc)
    print(f"array-api-strict {xp.__version__}: {len(versions())} versions, {count_cases(groups)} cases, "
          f"{time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else default_out("array_api"))
