"""Dump NumPy's `np.can_cast` for every pair of promo dtypes NumPy knows (with
ml_dtypes imported, which registers its narrow types and their casts), at every
casting level, and ml_dtypes' `finfo`/`iinfo` facts for every dtype.

    python gen_can_cast.py > tests/data/cast/can_cast.json

Runs in the `onnx` environment of setup.sh (numpy + ml_dtypes)."""

import json
import sys

import ml_dtypes
import numpy as np

DTYPES = {
    "bool": np.bool_,
    "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
    "f16": np.float16, "f32": np.float32, "f64": np.float64,
    "c64": np.complex64, "c128": np.complex128,
    "bf16": ml_dtypes.bfloat16,
    "f8e4m3fn": ml_dtypes.float8_e4m3fn,
    "f8e4m3fnuz": ml_dtypes.float8_e4m3fnuz,
    "f8e5m2": ml_dtypes.float8_e5m2,
    "f8e5m2fnuz": ml_dtypes.float8_e5m2fnuz,
    "f8e8m0": ml_dtypes.float8_e8m0fnu,
    "f4e2m1": ml_dtypes.float4_e2m1fn,
    "i4": ml_dtypes.int4,
    "u4": ml_dtypes.uint4,
}
LEVELS = ["no", "equiv", "safe", "same_kind", "unsafe"]


def finfo(t):
    if np.issubdtype(np.dtype(t), np.integer) or t in (ml_dtypes.int4, ml_dtypes.uint4):
        i = ml_dtypes.iinfo(t)
        return {"kind": "int", "bits": int(i.bits), "min": int(i.min), "max": int(i.max)}
    if t is np.bool_ or np.dtype(t).kind == "c":
        return None
    f = ml_dtypes.finfo(t)
    return {
        "kind": "float",
        "bits": int(f.bits),
        "max": float(f.max),
        "min": float(f.min),
        "smallest_normal": float(f.smallest_normal),
        "smallest_subnormal": float(f.smallest_subnormal),
        "eps": float(f.eps),
        "nexp": int(f.nexp),
        "nmant": int(f.nmant),
        "maxexp": int(f.maxexp),
        "minexp": int(f.minexp),
    }


def main():
    can_cast = {}
    for a, ta in DTYPES.items():
        for b, tb in DTYPES.items():
            can_cast[f"{a} {b}"] = [lvl for lvl in LEVELS if np.can_cast(np.dtype(ta), np.dtype(tb), casting=lvl)]
    out = {
        "numpy": np.__version__,
        "ml_dtypes": ml_dtypes.__version__,
        "levels": LEVELS,
        "can_cast": can_cast,
        "finfo": {name: finfo(t) for name, t in DTYPES.items()},
    }
    json.dump(out, sys.stdout, indent=0, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
