#!/usr/bin/env bash
# Regenerates tests/data/promotion/*.json from the real frameworks.
#   tools/oracles/promotion/setup.sh                             # once
#   tools/oracles/promotion/run_all.sh [KERNEL_FLOAT_CHECKOUT]
# VENVS (default /work/venvs) is where setup.sh put the environments. Without a
# kernel_float checkout, kernel_float.json is left as it is.
source "$(dirname "$0")/oracle_common.sh"   # here, data, venvs, timed
timed "$venvs/openvino/bin/python" "$here/openvino_oracle.py" "$data/openvino.json"
timed "$venvs/paddle/bin/python" "$here/paddle_oracle.py" "$data/paddle.json"
timed "$venvs/dali/bin/python" "$here/dali_oracle.py" "$data/dali.json"
timed "$venvs/numpy/bin/python" "$here/numpy_oracle.py" "$data/numpy.json"
timed "$venvs/torch/bin/python" "$here/torch_oracle.py" "$data/torch.json"
timed "$venvs/array_api/bin/python" "$here/array_api_oracle.py" "$data/array_api.json"
timed "$venvs/tensorflow/bin/python" "$here/tensorflow_oracle.py" "$data/tensorflow.json"
timed "$venvs/jax/bin/python" "$here/jax_oracle.py" "$data/jax.json"
timed "$venvs/keras/bin/python" "$here/keras_oracle.py" "$data/keras.json"
DEV=PYTHON timed "$venvs/tinygrad/bin/python" "$here/tinygrad_oracle.py" "$data/tinygrad.json"
timed "$venvs/mlx/bin/python" "$here/mlx_oracle.py" "$data/mlx.json"
timed "$venvs/triton/bin/python" "$here/triton_oracle.py" "$data/triton.json"
timed "$venvs/mindspore/bin/python" "$here/mindspore_oracle.py" "$data/mindspore.json"
if [ $# -ge 1 ]; then
  VENVS=$venvs timed "$here/kernel_float_oracle.sh" "$1" "$data/kernel_float.json"
else
  echo "kernel_float skipped: pass a checkout of KernelTuner/kernel_float" >&2
fi
