# Sourced by run_all.sh and run_functions.sh (not run by itself). Sets `here` (this
# directory), `data` (tests/data/promotion), `venvs` (VENVS, default /work/venvs: where
# setup.sh put the environments) and `timed` (runs a command, then says how long it
# took).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
data=$(cd "$here/../../../tests/data/promotion" && pwd)
venvs=${VENVS:-/work/venvs}
export PYTHONHASHSEED=0   # error messages that list a set of dtypes follow string hashing
timed() { local t=$SECONDS; "$@"; echo "  ($((SECONDS - t)) s)" >&2; }
