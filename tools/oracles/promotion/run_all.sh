#!/usr/bin/env bash
# Regenerates tests/data/promotion/*.json from the real frameworks.
#   tools/oracles/promotion/setup.sh                             # once
#   tools/oracles/promotion/run_all.sh [KERNEL_FLOAT_CHECKOUT]
# VENVS (default /work/venvs) is where setup.sh put the environments. Without a
# kernel_float checkout, kernel_float.json is left as it is.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
data=$(cd "$here/../../../tests/data/promotion" && pwd)
venvs=${VENVS:-/work/venvs}
timed() { local t=$SECONDS; "$@"; echo "  ($((SECONDS - t)) s)" >&2; }
timed "$venvs/openvino/bin/python" "$here/openvino_oracle.py" "$data/openvino.json"
timed "$venvs/paddle/bin/python" "$here/paddle_oracle.py" "$data/paddle.json"
timed "$venvs/dali/bin/python" "$here/dali_oracle.py" "$data/dali.json"
if [ $# -ge 1 ]; then
  VENVS=$venvs timed "$here/kernel_float_oracle.sh" "$1" "$data/kernel_float.json"
else
  echo "kernel_float skipped: pass a checkout of KernelTuner/kernel_float" >&2
fi
