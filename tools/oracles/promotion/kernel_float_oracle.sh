#!/usr/bin/env bash
# Dumps kernel_float's promotion table to tests/data/promotion/kernel_float.json.
#
#   tools/oracles/promotion/kernel_float_oracle.sh KERNEL_FLOAT_CHECKOUT [OUT.json]
#
# KERNEL_FLOAT_CHECKOUT is a checkout of github.com/KernelTuner/kernel_float (nothing
# of it is kept here). Needs g++ with C++17 and python3.
set -euo pipefail
kf=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
out=${2:-$here/../../../tests/data/promotion/kernel_float.json}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
commit=${KERNEL_FLOAT_COMMIT:-$(git -C "$kf" rev-parse --verify -q HEAD 2>/dev/null || echo unknown)}

# Stand-ins for the CUDA element types, then the promotion declarations of fp16.h,
# bf16.h and fp8.h as the library writes them (macro calls and the explicit
# promote_type specialisations), extracted rather than retyped.
{
  echo 'struct __half {}; struct __nv_bfloat16 {}; struct __nv_fp8_e4m3 {}; struct __nv_fp8_e5m2 {};'
  echo 'namespace kernel_float { using half_t = ::__half; using bfloat16_t = ::__nv_bfloat16;'
  for h in fp16.h bf16.h fp8.h; do
    grep -E '^KERNEL_FLOAT_DEFINE_PROMOTED_(FLOAT|TYPE)\(' "$kf/include/kernel_float/$h"
    awk '/^template<>$/ { held = $0; next }
         held != "" && /^struct promote_type</ { print held; on = 1 }
         { held = "" }
         on { print } on && /^};$/ { on = 0 }' "$kf/include/kernel_float/$h"
  done
  echo '}'
} > "$work/kf_cuda_promotions.h"

g++ -std=c++17 -O0 -I "$kf/include" -I "$work" "$here/kernel_float_oracle.cpp" -o "$work/oracle"
"$work/oracle" > "$work/cases.json"

python3 - "$work/cases.json" "$out" "$commit" <<'PY'
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
    "provenance": "bool, integers, float, double: kernel_float/meta.h compiled as is with g++; "
                  "f16, bf16, f8e4m3fn, f8e5m2: the promotion declarations of fp16.h, bf16.h and fp8.h "
                  "compiled against empty stand-in types (their CUDA headers are not available)",
    "dtypes": dtypes,
    "groups": [{"options": {}, "op": "add", "cases": cases}],
}
json.dump(doc, open(sys.argv[2], "w"), indent=None, separators=(",", ":"))
open(sys.argv[2], "a").write("\n")
PY
echo "wrote $out"
