#!/usr/bin/env bash
# Run the spike on the GPU machine (binary built by bench/spike/build.sh, carried in
# build-spike/). One process per variant under a timeout, so a hang costs seconds and
# cannot hide the other results. Logs go to $OUT (default /tmp/spike-out); the summary
# table is printed last.
#   bash bench/spike/run.sh [--k K] [--reps N]        VARIANTS="V0 B1" to choose
set -uo pipefail
OUT="${OUT:-/tmp/spike-out}"
mkdir -p "$OUT"
bin=build-spike/spike
variants="${VARIANTS:-V0 V1 A1 A2 A3 B0 B1 B2 B3 B4 B5 CONV}"
if ! "$bin" --help > /dev/null 2>&1; then
  echo "carried binary does not start here; rebuilding" >&2
  bash bench/spike/build.sh > "$OUT/build.log" 2>&1 || { cat "$OUT/build.log"; exit 1; }
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu \
  --format=csv > "$OUT/gpu_before.txt" 2>&1
: > "$OUT/spike.log"
fails=0
for v in $variants; do
  echo "== $v" >> "$OUT/spike.log"
  timeout -k 5 45 "$bin" --only "$v" "$@" >> "$OUT/spike.log" 2>&1
  rc=$?
  if [ $rc -ne 0 ]; then echo "!! $v exited with rc=$rc" >> "$OUT/spike.log"; fails=$((fails + 1)); fi
done
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv > "$OUT/gpu_after.txt" 2>&1
cuobjdump --dump-sass "$bin" > "$OUT/spike.sass" 2> "$OUT/cuobjdump.err" &&
  bash bench/spike/sass_summary.sh "$OUT/spike.sass" > "$OUT/sass_summary.txt"
grep -v "^|" "$OUT/spike.log"
echo "== GPU before / after"; cat "$OUT/gpu_before.txt" "$OUT/gpu_after.txt"
echo "== SASS (device cuobjdump)"; cat "$OUT/sass_summary.txt" 2>/dev/null || cat "$OUT/cuobjdump.err"
echo
echo "| variant | what | CTA tile | K | median ms | TFLOP/s | % of 989 | SM MHz | check (K small) |"
echo "|---|---|---|---|---|---|---|---|---|"
grep "^| [VAB][0-9] " "$OUT/spike.log"
echo "failed variants: $fails"
exit $fails
