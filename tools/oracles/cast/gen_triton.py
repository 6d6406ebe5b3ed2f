"""triton_f8e4m3b15.json: Triton's own conversions of `tl.float8e4b15` (promo's
`f8e4m3b15`), taken from the installed triton package and run here without a GPU.

Triton compiles these conversions to inline PTX written in
`triton/language/extra/cuda/utils.py` (`convert_fp8e4b15_to_float16`,
`convert_float16_to_fp8e4b15`, the latter in two variants: `min.f16x2` on sm80+, a
compare-and-select on sm70). This script captures those PTX strings from the installed
package (it calls the builtins with `inline_asm_elementwise` replaced by a recorder) and
executes them with a small interpreter of the PTX instructions they use, four packed
elements per call, as the GPU does. Nothing about the format is written here by hand.

  decode        the f16 bits of every code 0..255 (the upcast PTX)
  interpreter_decode_differs
                the codes the CPU interpreter (TRITON_INTERPRET=1, `_convert_float`)
                decodes differently from the PTX, with both f32 values: it
                mishandles the subnormal codes; every other code, 0x7f = 1.875
                included, agrees
  f16           the code of every f16 bit pattern 0..65535 (the sm80 PTX), as hex;
                `f16_sm70_agrees` says whether the sm70 variant gives the same codes
  f32           SHA-256 of the codes of all 2^32 f32 bit patterns in increasing order,
                one byte each: Triton converts f32 to f16 rounding toward zero
                (`fp_downcast_rounding="rtz"` in `convert_custom_float8`), then runs
                the f16 PTX. The toward-zero step is numpy's f16 rounding stepped back
                one code where it rounded away from zero. A NaN keeps its sign.
  interpreter_f16_differs
                how many f16 inputs the CPU interpreter encodes differently from the
                PTX (its `_convert_float` saturates the exponent only), with examples

Run in the triton environment (tools/oracles/cast/setup.sh):
  python tools/oracles/cast/gen_triton.py tests/data/cast/triton_f8e4m3b15.json
"""
import hashlib
import json
import re
import sys

import numpy as np
import triton
from triton.language import core
from triton.language.extra.cuda import utils

MASK = 0xFFFF_FFFF


def capture():
    """The three PTX strings, as the installed triton writes them."""
    seen = []

    def record(asm, constraints, args, dtype, is_pure, pack, **_):
        seen.append((asm, constraints, pack))

    saved = core.inline_asm_elementwise
    core.inline_asm_elementwise = record
    try:
        utils.convert_fp8e4b15_to_float16(None, _semantic=object())
        utils.convert_float16_to_fp8e4b15(None, True, _semantic=object())
        utils.convert_float16_to_fp8e4b15(None, False, _semantic=object())
    finally:
        core.inline_asm_elementwise = saved
    assert [c for _, c, _ in seen] == ["=r,=r,r", "=r,r,r", "=r,r,r"], seen
    assert all(p == 4 for _, _, p in seen)
    return [a for a, _, _ in seen]


def f16_halves(x):
    """(low, high) halves of u32 lanes as float16 arrays."""
    lo = (x & 0xFFFF).astype(np.uint16).view(np.float16)
    hi = (x >> 16).astype(np.uint16).view(np.float16)
    return lo, hi


def pack_halves(lo, hi):
    return lo.view(np.uint16).astype(np.uint64) | (hi.view(np.uint16).astype(np.uint64) << 16)


def f16_min(a, b):
    """PTX min.f16: the other operand when one is NaN."""
    out = np.where(a < b, a, b)
    out = np.where(np.isnan(a), b, out)
    return np.where(np.isnan(b), a, out)


def run_ptx(asm, operands):
    """Executes `asm` on numpy u64 arrays holding u32 (or u16/pred) lanes. `operands`
    maps "$1".. to inputs; returns the registers, "$0".. included."""
    regs = dict(operands)
    body = asm.strip().strip("{}")
    for stmt in body.split(";"):
        stmt = " ".join(stmt.split())
        if not stmt or stmt.startswith(".reg"):
            continue
        op, rest = stmt.split(" ", 1)
        args = [a.strip() for a in re.split(r",(?![^{]*})", rest)]

        def val(a):
            if a in regs:
                return regs[a]
            return np.uint64(int(a, 0))

        if op in ("mov.b16", "mov.b32") and args[0].startswith("{"):
            lo, hi = [s.strip() for s in args[0].strip("{}").split(",")]
            x = val(args[1])
            regs[lo], regs[hi] = x & 0xFFFF, (x >> 16) & 0xFFFF
        elif op == "mov.b32" and args[1].startswith("{"):
            lo, hi = [s.strip() for s in args[1].strip("{}").split(",")]
            regs[args[0]] = (val(lo) & 0xFFFF) | ((val(hi) & 0xFFFF) << 16)
        elif op in ("mov.b16", "mov.b32"):
            regs[args[0]] = val(args[1]) + np.uint64(0)
        elif op == "and.b32":
            regs[args[0]] = val(args[1]) & val(args[2])
        elif op == "shr.b32":
            regs[args[0]] = val(args[1]) >> val(args[2])
        elif op == "shl.b32":
            regs[args[0]] = (val(args[1]) << val(args[2])) & MASK
        elif op == "add.u32":
            regs[args[0]] = (val(args[1]) + val(args[2])) & MASK
        elif op == "mad.lo.u32":
            regs[args[0]] = (val(args[1]) * val(args[2]) + val(args[3])) & MASK
        elif op == "lop3.b32":
            a, b, c, lut = (val(x) for x in args[1:5])
            out = np.zeros_like(a + b + c)
            for bit in range(32):
                idx = (((a >> bit) & 1) << 2) | (((b >> bit) & 1) << 1) | ((c >> bit) & 1)
                out |= ((np.uint64(int(lut)) >> idx) & 1) << np.uint64(bit)
            regs[args[0]] = out
        elif op == "prmt.b32":
            a, b, sel = val(args[1]), val(args[2]), int(val(args[3]))
            both = (b << 32) | a
            out = np.zeros_like(both)
            for i in range(4):
                nib = (sel >> (4 * i)) & 0xF
                byte = (both >> np.uint64(8 * (nib & 7))) & 0xFF
                if nib & 8:  # sign-replicate mode
                    byte = np.where(byte & 0x80, np.uint64(0xFF), np.uint64(0))
                out |= byte << np.uint64(8 * i)
            regs[args[0]] = out
        elif op == "min.f16x2":
            alo, ahi = f16_halves(val(args[1]))
            blo, bhi = f16_halves(val(args[2]) + np.zeros_like(val(args[1])))
            regs[args[0]] = pack_halves(f16_min(alo, blo), f16_min(ahi, bhi))
        elif op == "setp.lt.f16x2":
            p, q = [s.strip() for s in args[0].split("|")]
            alo, ahi = f16_halves(val(args[1]))
            blo, bhi = f16_halves(val(args[2]) + np.zeros_like(val(args[1])))
            regs[p], regs[q] = alo < blo, ahi < bhi  # ordered: false with a NaN
        elif op == "selp.b16":
            regs[args[0]] = np.where(val(args[3]), val(args[1]), val(args[2])).astype(np.uint64)
        else:
            raise ValueError(f"PTX instruction not interpreted: {stmt}")
    return regs


def decode_all(asm):
    codes = np.arange(256, dtype=np.uint64).reshape(-1, 4)
    packed = codes[:, 0] | (codes[:, 1] << 8) | (codes[:, 2] << 16) | (codes[:, 3] << 24)
    regs = run_ptx(asm, {"$2": packed})
    r0, r1 = regs["$0"], regs["$1"]
    out = np.stack([r0 & 0xFFFF, r0 >> 16, r1 & 0xFFFF, r1 >> 16], axis=1).ravel()
    return out.astype(np.uint16)


def encode_all(asm):
    h = np.arange(1 << 16, dtype=np.uint64).reshape(-1, 4)
    regs = run_ptx(asm, {"$1": h[:, 0] | (h[:, 1] << 16), "$2": h[:, 2] | (h[:, 3] << 16)})
    r = regs["$0"]
    return np.stack([(r >> np.uint64(8 * i)) & 0xFF for i in range(4)], axis=1).ravel().astype(np.uint8)


def f32_to_f16_toward_zero(x):
    """f16 bits of f32 `x` rounded toward zero (NaN keeps its sign, payload dropped)."""
    h = x.astype(np.float16)
    back = h.astype(np.float32)
    bits = h.view(np.uint16)
    away = np.abs(back) > np.abs(x)  # false for NaN and for exact values
    return np.where(away, bits - np.uint16(1), bits).astype(np.uint16)


def interpreter_decode():
    from triton.runtime import interpreter
    import triton.language as tl

    codes = np.arange(256, dtype=np.uint8)
    f16 = interpreter._convert_float(codes, tl.float8e4b15, tl.float16, None)
    return f16.view(np.float16).astype(np.float32).view(np.uint32)


def interpreter_encode():
    from triton.runtime import interpreter
    import triton.language as tl
    from triton._C.libtriton import ir

    h = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
    return interpreter._convert_float(h, tl.float16, tl.float8e4b15, ir.ROUNDING_MODE.RTNE).view(np.uint8)


def main(path):
    import warnings

    warnings.filterwarnings("ignore")
    up, down80, down70 = capture()
    decode = decode_all(up)
    f16 = encode_all(down80)
    sm70 = encode_all(down70)
    interp = interpreter_decode()
    decode_f32 = decode.view(np.float16).astype(np.float32).view(np.uint32)
    decode_differs = np.nonzero(interp != decode_f32)[0]
    interp_enc = interpreter_encode()
    differ = np.nonzero(interp_enc != f16)[0]
    digest = hashlib.sha256()
    for k in range(256):
        x = (np.arange(1 << 24, dtype=np.uint64) + (k << 24)).astype(np.uint32).view(np.float32)
        with np.errstate(all="ignore"):
            digest.update(f16[f32_to_f16_toward_zero(x)].tobytes())
    data = {
        "_about": {
            "triton": triton.__version__,
            "numpy": np.__version__,
            "source": "triton/language/extra/cuda/utils.py (inline PTX, run by gen_triton.py)",
        },
        "decode": [int(v) for v in decode],
        "interpreter_decode_differs": {
            f"{int(i):#04x}": [float(decode_f32[i : i + 1].view(np.float32)[0]), float(interp[i : i + 1].view(np.float32)[0])]
            for i in decode_differs
        },
        "f16": f16.tobytes().hex(),
        "f16_sm70_agrees": bool((sm70 == f16).all()),
        "f32": digest.hexdigest(),
        "interpreter_f16_differs": {
            "count": int(differ.size),
            "examples": {f"{int(i):#06x}": [int(interp_enc[i]), int(f16[i])] for i in differ[:8]},
        },
    }
    with open(path, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
