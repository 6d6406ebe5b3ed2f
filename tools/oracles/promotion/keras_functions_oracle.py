"""Dump what Keras' own promotion function, `keras.backend.result_type(a, b)`,
answers with the numpy backend and float32 floatx (as keras_oracle.py sets them), to
tests/data/promotion/functions/keras.json.

    python tools/oracles/promotion/keras_functions_oracle.py tests/data/promotion/functions/keras.json

result_type takes dtypes, not tensors, so there is no rank here: `DTYPE` is the
dtype's name (`"int8"`; the `.dtype` of `keras.ops.ones(2, dtype)` gives the same
answer in every case, `dtype_object_vs_name` lists any difference), and `python:KIND`
is the Python type `bool`, `int`, `float` or `complex` (what keras.ops passes for a
Python scalar, `type(x)`); Python with Python too. A Python value (`3`, `2.5`) is not
a dtype to it (`probes`), nor is a tensor.

'string', which result_type takes but no keras.ops function can make a tensor of, is
left out of the sweep; what result_type does with it is in `probes`.
"""
import sys
import time
import warnings

from keras_oracle import header, setup
from oracle_common import count_cases, first_line, sweep, write

PYTHON_TYPES = {"bool": bool, "int": int, "float": float, "complex": complex}


def main(out_path):
    start = time.time()
    keras, np, name_of, dtypes, not_dtypes, tensor, _ = setup()
    rt = keras.backend.result_type

    operands = [(n, t.dtype.name) for n, t in tensor] + [("python:" + k, v) for k, v in PYTHON_TYPES.items()]
    cases, seen = sweep(operands, lambda a, b: name_of(rt(a, b)), python_pairs=True)

    objects = dict((n, t.dtype) for n, t in tensor)
    differ = []
    for c in cases:
        if c[0] in objects and c[1] in objects:
            try:
                got = [name_of(rt(objects[c[0]], objects[c[1]]))]
            except Exception as e:  # noqa: BLE001
                got = [None, first_line(e)]
            if (got[0], len(got) > 1) != (c[2], len(c) > 3):
                differ.append([c[0], c[1], c[2:], got])

    def probe(*args):
        try:
            return rt(*args)
        except Exception as e:  # noqa: BLE001
            return "error: " + first_line(e)

    probes = {
        "result_type(3, 'int8')": probe(3, "int8"),
        "result_type(2.5, 'float16')": probe(2.5, "float16"),
        "result_type(True, 'bool')": probe(True, "bool"),
        "result_type(1+2j, 'complex64')": probe(1 + 2j, "complex64"),
        "result_type(keras.ops.ones(2, 'int8'), 'int8')": probe(keras.ops.ones(2, "int8"), "int8"),
        "result_type('string', 'string')": probe("string", "string"),
        "result_type('string', 'int8')": probe("string", "int8"),
        "result_type('string', str)": probe("string", str),
        "result_type('int32', None)": probe("int32", None),
        "result_type('int', int)": probe("int", int),
        "result_type()": probe(),
    }
    doc = {
        **header("keras_functions_oracle.py", keras, np),
        "dtypes": dtypes,
        "not_dtypes": {**not_dtypes, "string": "left out: no keras.ops tensor of it (see probes)"},
        "functions": {"result_type": "keras.backend.result_type(a, b): a dtype's name, or the Python type bool, "
                                     "int, float, complex for python:KIND"},
        "dtype_object_vs_name": differ,
        "probes": probes,
        "warnings": seen,
        "groups": [{"options": {}, "op": "result_type", "cases": cases}],
    }
    write(out_path, doc)
    print(f"keras {keras.__version__} functions: {len(dtypes)} dtypes, {count_cases(doc['groups'])} cases, "
          f"{time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    main(sys.argv[1])
