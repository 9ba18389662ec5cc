#!/bin/bash
# For the next session with a device (prepared in session 42, not yet run): both of session 42's
# unrun branches in one call, most telling first: call D (s42-m192 against main: 129 / 160 / 192
# x 8192^2, both modes, then the tests reaching the 192-row tile; at most ~230 s), then call E
# (s42-padded-ws against main on partial last tiles, then its StaleRows under memcheck and its
# GEMM tests; bounded to 300 s here). Each prints its own summary; logs under $OUT/d and $OUT/e.
# Carry [".device/s42/m42", ".device/s42/m192", ".device/s42/mpw"] (about 33 MB).
set -u
here="$(dirname "$0")"
mkdir -p "$OUT/d" "$OUT/e"
echo "######## call D (s42-m192)"; OUT="$OUT/d" bash "$here/batch_d.sh"
echo "######## call E (s42-padded-ws)"; OUT="$OUT/e" BUDGET=300 bash "$here/batch_e.sh"
