#!/usr/bin/env bash
# Regenerates tests/data/promotion/functions/*.json: what each framework's own
# promotion function (result_type, promote_types) answers.
#   tools/oracles/promotion/setup.sh                             # once
#   tools/oracles/promotion/run_functions.sh
# VENVS (default /work/venvs) is where setup.sh put the environments.
source "$(dirname "$0")/oracle_common.sh"   # here, data, venvs, timed
data=$data/functions
mkdir -p "$data"
timed "$venvs/numpy/bin/python" "$here/numpy_functions_oracle.py" "$data/numpy.json"
timed "$venvs/torch/bin/python" "$here/torch_functions_oracle.py" "$data/torch.json"
timed "$venvs/array_api/bin/python" "$here/array_api_functions_oracle.py" "$data/array_api.json"
timed "$venvs/tensorflow/bin/python" "$here/tensorflow_functions_oracle.py" "$data/tensorflow.json"
timed "$venvs/jax/bin/python" "$here/jax_functions_oracle.py" "$data/jax.json"
timed "$venvs/keras/bin/python" "$here/keras_functions_oracle.py" "$data/keras.json"
