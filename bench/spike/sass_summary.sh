#!/usr/bin/env bash
# Summarise a SASS dump (cuobjdump --dump-sass) per kernel: highest register index,
# tensor-core instructions, local-memory traffic (spills), wgmma waits.
#   bash bench/spike/sass_summary.sh build-spike/spike.sass
set -euo pipefail
sass="$1"
printf "%-48s %5s %6s %6s %4s %4s %7s %6s %6s\n" kernel maxR HGMMA QGMMA LDL STL WG.WAIT HMUL2 F2FP
for f in $(grep -o "Function : [^ ]*" "$sass" | awk '{print $3}'); do
  awk -v f="$f" '/Function : /{p=($3==f)} p' "$sass" > /tmp/sass_one.$$
  maxr=$(grep -o "\bR[0-9]\+" /tmp/sass_one.$$ | tr -d R | sort -n | tail -1)
  printf "%-48s %5s %6s %6s %4s %4s %7s %6s %6s\n" "$(echo "$f" | cut -c1-48)" "$maxr" \
    "$(grep -c 'HGMMA' /tmp/sass_one.$$ || true)" "$(grep -c 'QGMMA' /tmp/sass_one.$$ || true)" \
    "$(grep -c 'LDL' /tmp/sass_one.$$ || true)" "$(grep -c 'STL' /tmp/sass_one.$$ || true)" \
    "$(grep -c 'WARPGROUP.DEPBAR\|WARPGROUP.ARRIVE' /tmp/sass_one.$$ || true)" \
    "$(grep -c 'HMUL2\|HFMA2' /tmp/sass_one.$$ || true)" "$(grep -c 'F2FP' /tmp/sass_one.$$ || true)"
done
rm -f /tmp/sass_one.$$
