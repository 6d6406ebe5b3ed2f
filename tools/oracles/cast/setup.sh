#!/usr/bin/env bash
# Create the two virtual environments the Cast oracles run in (outside the repository).
#   PROMO_CAST_VENVS=/some/dir tools/oracles/cast/setup.sh
set -euo pipefail
ROOT="${PROMO_CAST_VENVS:-/work/venvs}"
PY="${PYTHON:-python3}"
mkdir -p "$ROOT"
if [ ! -x "$ROOT/onnx/bin/python" ]; then "$PY" -m venv "$ROOT/onnx"; fi
"$ROOT/onnx/bin/pip" install -q --upgrade pip
"$ROOT/onnx/bin/pip" install -q onnx==1.23.2 onnxruntime==1.32.0 ml-dtypes==0.6.0 numpy==2.4.6 protobuf==7.36.2
if [ ! -x "$ROOT/onnx-old/bin/python" ]; then "$PY" -m venv "$ROOT/onnx-old"; fi
"$ROOT/onnx-old/bin/pip" install -q --upgrade pip
"$ROOT/onnx-old/bin/pip" install -q onnx==1.17.0 ml-dtypes==0.6.0 numpy==2.4.6 protobuf==7.36.2
if [ ! -x "$ROOT/triton/bin/python" ]; then "$PY" -m venv "$ROOT/triton"; fi
"$ROOT/triton/bin/pip" install -q --upgrade pip
"$ROOT/triton/bin/pip" install -q triton==3.9.0 numpy==2.4.6
"$ROOT/onnx/bin/python" -c "import onnx, onnxruntime, ml_dtypes, numpy; print('onnx', onnx.__version__, 'onnxruntime', onnxruntime.__version__, 'ml_dtypes', ml_dtypes.__version__, 'numpy', numpy.__version__)"
"$ROOT/onnx-old/bin/python" -c "import onnx; print('old onnx', onnx.__version__)"
