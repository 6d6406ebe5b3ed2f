"""finfo.json: every field of `ml_dtypes.finfo` for each narrow float format (and of
numpy's `finfo` for f16, f32 and f64, which ml_dtypes.finfo hands to numpy), as ml_dtypes
0.6.0 / numpy 2.4.6 report them. Float fields are written as the bit pattern of the field
converted to an f64 (exact: every value is a value of its format), as the cast oracles
write values; `readable` repeats them as decimals for people.

    /work/venvs/onnx/bin/python tools/oracles/finfo/gen_finfo.py tests/data/finfo.json
"""
import json
import sys

import ml_dtypes
import numpy as np

FORMATS = {
    "f4e2m1": ml_dtypes.float4_e2m1fn,
    "f6e2m3fn": ml_dtypes.float6_e2m3fn,
    "f6e3m2fn": ml_dtypes.float6_e3m2fn,
    "f8e3m4": ml_dtypes.float8_e3m4,
    "f8e4m3": ml_dtypes.float8_e4m3,
    "f8e4m3b11fnuz": ml_dtypes.float8_e4m3b11fnuz,
    "f8e4m3fn": ml_dtypes.float8_e4m3fn,
    "f8e4m3fnuz": ml_dtypes.float8_e4m3fnuz,
    "f8e5m2": ml_dtypes.float8_e5m2,
    "f8e5m2fnuz": ml_dtypes.float8_e5m2fnuz,
    "f8e8m0": ml_dtypes.float8_e8m0fnu,
    "bf16": ml_dtypes.bfloat16,
    "f16": np.float16,
    "f32": np.float32,
    "f64": np.float64,
}
FLOATS = ("eps", "epsneg", "max", "min", "tiny", "smallest_normal", "smallest_subnormal", "resolution")
INTS = ("bits", "precision", "nmant", "nexp", "minexp", "maxexp", "machep", "negep", "iexp")


def main(out):
    doc = {"_about": {
        "implementation": f"ml_dtypes {ml_dtypes.__version__}.finfo (numpy {np.__version__}.finfo for f16, f32, f64)",
        "floats": list(FLOATS), "ints": list(INTS),
    }}
    for name, t in FORMATS.items():
        fi = ml_dtypes.finfo(t)
        entry = {"dtype": np.dtype(t).name}
        readable = {}
        for f in FLOATS:
            x = float(getattr(fi, f))
            entry[f] = int(np.float64(x).view(np.uint64))
            readable[f] = x
        for f in INTS:
            entry[f] = int(getattr(fi, f))
        entry["readable"] = readable
        doc[name] = entry
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/finfo.json")
