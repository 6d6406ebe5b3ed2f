#!/usr/bin/env bash
# Creates one virtual environment per framework, outside the repository, with the
# exact versions the data in tests/data/promotion/ was produced with.
#   VENVS=/work/venvs tools/oracles/promotion/setup.sh       (VENVS defaults to /work/venvs)
set -euo pipefail
venvs=${VENVS:-/work/venvs}
mkdir -p "$venvs"
make_venv() { # name packages...
  local name=$1; shift
  [ -x "$venvs/$name/bin/python" ] || python3 -m venv "$venvs/$name"
  "$venvs/$name/bin/pip" install --quiet "$@"
}
make_venv openvino openvino==2026.4.1 openvino-telemetry==2025.2.0 numpy==2.4.6
make_venv paddle paddlepaddle==3.3.1 numpy==2.4.6 protobuf==7.36.2
make_venv dali nvidia-dali-cuda120==2.4.0 numpy==2.4.6
# CUDA headers only (cuda_fp16.h, cuda_bf16.h, cuda_fp8.h and what they include), for
# compiling kernel_float's CUDA element types with the host compiler.
make_venv cuda nvidia-cuda-runtime-cu12==12.9.79 nvidia-cuda-nvcc-cu12==12.9.86 nvidia-cuda-cccl-cu12==12.9.27
make_venv numpy numpy==2.4.6 ml_dtypes==0.6.0
# PyPI's torch wheel for Linux is the CUDA build (it pulls about 3 GB of nvidia-*
# wheels, pinned by torch itself); it runs on a CPU-only machine.
make_venv torch torch==2.15.0 numpy==2.4.6
make_venv jax jax==0.10.2 jaxlib==0.10.2 ml_dtypes==0.6.0 numpy==2.4.6 scipy==1.17.1 opt_einsum==3.4.0
make_venv array_api array-api-strict==2.6.1 numpy==2.4.6
make_venv tensorflow tensorflow-cpu==2.21.0 numpy==2.4.6 ml_dtypes==0.6.0 keras==3.15.1 protobuf==7.36.2
# keras 3 with the numpy backend, which imports scipy and jax when it loads
make_venv keras keras==3.15.1 numpy==2.4.6 ml_dtypes==0.6.0 scipy==1.17.1 jax==0.10.2 jaxlib==0.10.2
# tinygrad runs on its pure-Python device (DEV=PYTHON, set by the oracle): no C compiler needed
make_venv tinygrad tinygrad==0.14.0
# MLX's CPU build for Linux
make_venv mlx "mlx[cpu]==0.32.4" mlx-cpu==0.32.4
# Triton's front end only (the oracle lowers kernels to Triton IR): no GPU, no CUDA toolkit
make_venv triton triton==3.9.0
# MindSpore's PyPI wheel (CPU on Linux), built against NumPy 1.x
make_venv mindspore mindspore==2.10.0 numpy==1.26.4
echo "venvs in $venvs"
