#!/usr/bin/env bash
# What depending on promo-core costs a user's build: a fresh crate outside the
# workspace that depends on promo-core by path (and on `half`, so both are built in
# the same run), built from cold (an empty target directory) with `cargo build
# --timings`, in the debug and the release profile, with every bundled rule set and
# with one. Prints promo-core's own unit time beside half's and the whole build's,
# and the size of the release binary.
#
#   tools/build_cost.sh            # every rule set and `jax` alone, both profiles
#   tools/build_cost.sh torch      # every rule set and `torch` alone
#   BUILD_COST_SETS=all tools/build_cost.sh   # every rule set only
#
# The dependencies are downloaded once (cargo's cache); only compile time counts.
# It times, it asserts nothing: CI runs a one-rule-set build in .ci/external.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
one=${1:-jax}
work=$(mktemp -d "${TMPDIR:-/tmp}/promo-build-cost.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The marker type of rule set `$one`: the first `marker` of its rule file.
marker=$(sed -n 's/^marker *= *"\([A-Za-z0-9_]*\)".*/\1/p' "$repo/rules/$one.toml" | head -n 1)
[ -n "$marker" ] || { echo "no rule set \`$one\` in rules/" >&2; exit 2; }

# crate NAME FEATURES: a crate that makes one run-time promotion and names one
# `Promoted` type of rule set `$one`.
crate() {
    local dir="$work/$1"
    mkdir -p "$dir/src"
    cat > "$dir/Cargo.toml" <<EOF
[package]
name = "build-cost-$1"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
promo-core = { path = "$repo/promo-core"$2 }
half = "2"

[workspace]
EOF
    cat > "$dir/src/main.rs" <<EOF
use promo_core::rules::$one::$marker;
use promo_core::{DType, Promoted};

fn main() {
    let x: Promoted<$marker, i8, u8> = Default::default();
    let found = promo_core::promote(&promo_core::rules::$one::TABLE, DType::I8, DType::F16);
    println!("{x:?} {found:?} {}", half::f16::from_f32(1.5));
}
EOF
}

# unit_seconds HTML NAME: the build time of crate NAME's unit in a --timings report.
unit_seconds() {
    python3 - "$1" "$2" <<'EOF'
import json, re, sys
html = open(sys.argv[1]).read()
units = json.loads(re.search(r"const UNIT_DATA = (\[.*?\]);", html, re.S).group(1))
print(f"{sum(u['duration'] for u in units if u['name'] == sys.argv[2]):.1f}")
EOF
}

crate all ""
crate one ", default-features = false, features = [\"$one\"]"

echo "cpu: $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores; $(rustc --version)"
printf '%-26s %-8s %12s %10s %10s %12s\n' "rule sets" profile "promo-core s" "half s" "total s" "binary KiB"
for set in ${BUILD_COST_SETS:-all one}; do
    label=$([ "$set" = all ] && echo "all (default features)" || echo "$one only")
    cargo fetch --quiet --manifest-path "$work/$set/Cargo.toml"
    for profile in debug release; do
        flag=$([ "$profile" = release ] && echo --release || true)
        target="$work/target-$set-$profile"
        start=$(date +%s.%N)
        (cd "$work/$set" && CARGO_TARGET_DIR="$target" cargo build --quiet --timings $flag)
        total=$(python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$start" "$(date +%s.%N)")
        report=$(ls "$target"/cargo-timings/cargo-timing-*.html | head -n 1)
        size=$(( $(stat -c %s "$target/$profile/build-cost-$set") / 1024 ))
        printf '%-26s %-8s %12s %10s %10.1f %12s\n' "$label" "$profile" \
            "$(unit_seconds "$report" promo-core)" "$(unit_seconds "$report" half)" "$total" "$size"
    done
done
