#!/usr/bin/env bash
# Regenerates tests/data/promotion/*.json from the real frameworks.
#   tools/oracles/promotion/setup.sh          # once
#   tools/oracles/promotion/run_all.sh [KERNEL_FLOAT_CHECKOUT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../../../tests/data/promotion
venvs=${VENVS:-$here/.venvs}
"$venvs/openvino/bin/python" "$here/openvino_oracle.py" "$data/openvino.json"
"$venvs/paddle/bin/python" "$here/paddle_oracle.py" "$data/paddle.json"
"$venvs/dali/bin/python" "$here/dali_oracle.py" "$data/dali.json"
if [ $# -ge 1 ]; then
  "$here/kernel_float_oracle.sh" "$1" "$data/kernel_float.json"
else
  echo "kernel_float skipped: pass a checkout of KernelTuner/kernel_float" >&2
fi
