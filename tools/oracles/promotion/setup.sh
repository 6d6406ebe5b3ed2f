#!/usr/bin/env bash
# Creates one virtual environment per framework (versions pinned to those the data in
# tests/data/promotion/ was produced with). VENVS defaults to ./.venvs beside this file.
set -euo pipefail
venvs=${VENVS:-$(cd "$(dirname "$0")" && pwd)/.venvs}
mkdir -p "$venvs"
make_venv() { # name packages...
  local name=$1; shift
  [ -x "$venvs/$name/bin/python" ] || python3 -m venv "$venvs/$name"
  "$venvs/$name/bin/pip" install --quiet "$@"
}
make_venv openvino openvino==2026.4.1 numpy
make_venv paddle paddlepaddle==3.3.1
make_venv dali nvidia-dali-cuda120==2.4.0 numpy
echo "venvs in $venvs"
