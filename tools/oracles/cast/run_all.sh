#!/usr/bin/env bash
# Regenerate every file under tests/data/cast/ (run setup.sh first).
#   tools/oracles/cast/run_all.sh            # everything, exhaustive hashes included (~10 min on 2 cores)
#   tools/oracles/cast/run_all.sh --quick    # everything but exhaustive.json (seconds)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
ROOT="${PROMO_CAST_VENVS:-/work/venvs}"
export PROMO_CAST_VENVS="$ROOT"
PY="$ROOT/onnx/bin/python"
OUT="$REPO/tests/data/cast"
mkdir -p "$OUT"
cd "$REPO"
"$PY" "$HERE/gen_decode.py" "$OUT/decode.json"
"$PY" "$HERE/gen_encode.py" "$OUT/encode.json" "$OUT/encode_crosscheck.json"
"$PY" "$HERE/gen_ints.py" "$OUT/ints.json"
"$PY" "$HERE/gen_int2.py" "$OUT/int2.json"
"$PY" "$HERE/gen_strings.py" "$OUT/strings.json"
if [ "${1:-}" != "--quick" ]; then
  "$PY" "$HERE/gen_exhaustive.py" "$OUT/exhaustive.json"
  "$PY" "$HERE/gen_ml_dtypes.py" "$OUT/ml_dtypes_exhaustive.json"
  # Triton's own conversions of tl.float8e4b15, in the triton environment.
  "$ROOT/triton/bin/python" "$HERE/gen_triton.py" "$OUT/triton_f8e4m3b15.json"
fi
"$PY" "$HERE/../finfo/gen_finfo.py" "$REPO/tests/data/finfo.json"
