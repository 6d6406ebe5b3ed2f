#!/usr/bin/env bash
# Regenerates tests/data/compute/ from the real frameworks, then checks the models of
# FINDINGS.md against every element (verify.py).
#   tools/oracles/compute/run_all.sh            # everything (about 40 minutes on 2 cores, most of it JAX)
#   tools/oracles/compute/run_all.sh numpy mlx  # some data sets only (numpy torch jax tensorflow mlx)
# VENVS (default /work/venvs) holds the environments of tools/oracles/promotion/setup.sh:
# numpy (numpy 2.4.6 + ml_dtypes 0.6.0), torch (2.15.0), jax (0.10.2), tensorflow
# (tensorflow-cpu 2.21.0), mlx (mlx[cpu] 0.32.4).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
data=$(cd "$here/../../.." && pwd)/tests/data/compute
venvs=${VENVS:-/work/venvs}
export PYTHONHASHSEED=0
mkdir -p "$data"
timed() { local t=$SECONDS; "$@"; echo "  ($((SECONDS - t)) s)" >&2; }
sets=("$@")
[ ${#sets[@]} -eq 0 ] && sets=(numpy torch jax tensorflow mlx)

timed "$venvs/numpy/bin/python" -c "import sys; sys.path.insert(0, '$here'); import compute_common as c; c.write_inputs('$data/inputs.json')"
names=()
for s in "${sets[@]}"; do
  timed "$venvs/$s/bin/python" "$here/${s}_compute_oracle.py" "$data"
  if [ "$s" = jax ]; then names+=(jax_x32 jax_x64); else names+=("$s"); fi
done
timed "$venvs/numpy/bin/python" "$here/verify.py" "$data" "${names[@]}"
