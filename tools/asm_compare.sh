#!/usr/bin/env bash
# Shows that generic code over `Promote` compiles to the same machine code as the
# hand-written version: emits release assembly for promo-core/examples/promote_codegen.rs
# and diffs the bodies of `add_i32_i16_generic` and `add_i32_i16_by_hand`.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo rustc --quiet --release -p promo-core --example promote_codegen -- --emit asm -C "codegen-units=1"
asm=$(ls -t target/release/examples/promote_codegen-*.s | head -n 1)
body() { # the instructions of the function whose symbol contains $1, labels normalised
  awk -v f="$1" '
    $0 ~ "^_?[A-Za-z0-9_$.]*" f "[A-Za-z0-9_$.]*:$" { on = 1; next }
    on && /^[ \t]*\.cfi_endproc/ { exit }
    on && !/^[ \t]*\./ { print }' "$asm" | sed -E 's/\.LBB[0-9_]+/.L/g; s/[A-Za-z0-9_$.]*(add_i32_i16_generic|add_i32_i16_by_hand|add_promoted)[A-Za-z0-9_$.]*/FN/g'
}
generic=$(body add_i32_i16_generic)
hand=$(body add_i32_i16_by_hand)
# The generic wrapper may be a jump to the monomorphized `add_promoted`; follow it.
if [ "$(printf '%s\n' "$generic" | grep -cv '^[[:space:]]*$')" -le 2 ] && printf '%s' "$generic" | grep -q 'jmp'; then
  generic=$(body add_promoted)
fi
echo "hand-written: $(printf "%s\n" "$hand" | wc -l) lines; generic: $(printf "%s\n" "$generic" | wc -l) lines"
if diff <(printf '%s\n' "$generic") <(printf '%s\n' "$hand"); then
  echo "identical machine code"
else
  echo "the machine code differs" >&2
  exit 1
fi
