#!/usr/bin/env bash
# Dumps kernel_float's promotion table to tests/data/promotion/kernel_float.json.
#
#   tools/oracles/promotion/kernel_float_oracle.sh KERNEL_FLOAT_CHECKOUT [OUT.json]
#
# KERNEL_FLOAT_CHECKOUT is a checkout of github.com/KernelTuner/kernel_float (nothing
# of it is kept in this repository); KERNEL_FLOAT_COMMIT names its commit when the
# checkout is not a git work tree. The CUDA element types come from the headers of
# NVIDIA's pip packages in the `cuda` venv that setup.sh makes (VENVS, default
# /work/venvs). Needs g++ (C++17) and python3.
set -euo pipefail
kf=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
out=${2:-$here/../../../tests/data/promotion/kernel_float.json}
venvs=${VENVS:-/work/venvs}
nv=$("$venvs/cuda/bin/python" -c 'import nvidia; print(list(nvidia.__path__)[0])')
commit=${KERNEL_FLOAT_COMMIT:-$(git -C "$kf" rev-parse --verify -q HEAD 2>/dev/null || echo unknown)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A host compile of headers written for nvcc: KERNEL_FLOAT_IS_CUDA selects the CUDA
# element types (__half, __nv_bfloat16), KERNEL_FLOAT_DEVICE is given the meaning it
# has in a host pass, fp8 is switched on as nvcc >= 12 would, and <math.h> comes first
# because the library expects nvcc's implicit math declarations.
g++ -std=c++17 -O0 -w \
  -include math.h \
  -DKERNEL_FLOAT_IS_CUDA=1 -DKERNEL_FLOAT_DEVICE=inline -DKERNEL_FLOAT_FP8_AVAILABLE=1 \
  -I "$nv/cuda_runtime/include" -I "$nv/cuda_nvcc/include" -I "$nv/cuda_cccl/include" \
  -I "$kf/include" \
  "$here/kernel_float_oracle.cpp" -o "$work/oracle"
"$work/oracle" > "$work/cases.json"

# promote_t of a complex type with itself is a hard compile error (two partial
# specializations match); the oracle records it as refused without instantiating
# it, and this probe checks that it really does not compile.
for t in float double; do
  printf '#include "kernel_float.h"\n#include "kernel_float/complex.h"\nusing C = kernel_float::complex_type<%s>;\nusing P = kernel_float::promote_t<C, C>;\nint main() { return sizeof(P); }\n' "$t" > "$work/probe_$t.cpp"
  if g++ -std=c++17 -fsyntax-only -w -include math.h \
    -DKERNEL_FLOAT_IS_CUDA=1 -DKERNEL_FLOAT_DEVICE=inline -DKERNEL_FLOAT_FP8_AVAILABLE=1 \
    -I "$nv/cuda_runtime/include" -I "$nv/cuda_nvcc/include" -I "$nv/cuda_cccl/include" \
    -I "$kf/include" "$work/probe_$t.cpp" 2>/dev/null; then
    echo "kernel_float now promotes complex_type<$t> with itself: update the oracle" >&2
    exit 1
  fi
done

cuda_version=$("$venvs/cuda/bin/pip" show nvidia-cuda-runtime-cu12 2>/dev/null | sed -n 's/^Version: //p')
python3 - "$work/cases.json" "$out" "$commit" "$cuda_version" <<'PY'
import json, sys
cases = json.load(open(sys.argv[1]))
dtypes = []
for c in cases:
    if c[0] not in dtypes:
        dtypes.append(c[0])
doc = {
    "framework": "kernel_float",
    "version": "commit " + sys.argv[3],
    "generated_by": "tools/oracles/promotion/kernel_float_oracle.sh",
    "provenance": "every cell compiled: kernel_float.h and kernel_float/fp8.h included as they are, "
                  "built with g++ -std=c++17 (host only) against the CUDA headers of "
                  "nvidia-cuda-runtime-cu12 " + sys.argv[4] + " (__half, __nv_bfloat16, "
                  "__nv_fp8_e4m3, __nv_fp8_e5m2) and kernel_float/complex.h (complex_type<float>, "
                  "complex_type<double>); a null cell is a pair for which "
                  "kernel_float::promote_t names no type (detected with SFINAE), or a complex "
                  "type with itself, whose promote_t is ambiguous (a hard error, checked by a "
                  "separate compile)",
    "dtypes": dtypes,
    "groups": [{"options": {}, "op": "add", "cases": cases}],
}
with open(sys.argv[2], "w") as f:
    json.dump(doc, f, separators=(",", ":"))
    f.write("\n")
PY
echo "wrote $out"
