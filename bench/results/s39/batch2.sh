#!/bin/bash
# Session 39 b2 (prepared, not yet run): the other one-tile launches whose boxes w1 / w3 keep
# within M, alternated, two rounds. MODE=mxfp8 (default): c0 / w1 / w3, sets D S C T; MODE=
# weight-only (BF16 activations): c0 / w3, sets D S C O T.
#   D: 1 / 4 / 7 rows (the 8-row codes form, through the workspace) on N in {1024, 4096, 8192,
#      28672} x 8192;
#   S: 1, 12 (16-row tiles), 17 / 24 (32-row tiles: the four-warpgroup split) on 8192 x {8192,
#      28672};
#   C: 17 / 24 rows in the 32-row split's clusters, N in {1024, 4096} x K in {4096, 8192};
#   O: 13 / 27 / 45 rows on N in {1024, 4096, 8192} x 8192 (weight-only reads these in place);
#   T: part tiles of 128 and 256 rows, 65 / 100 / 129 / 200 x 8192^2 (w1's whole MXFP8 boxes read
#      rows of the workspace past M from memory, where TMA filled zeros before).
# Binaries as batch1.sh says; carry .device/s39.
set -u
MODE=${MODE:-mxfp8}
if [ "$MODE" = mxfp8 ]; then VARIANTS="c0 w1 w3"; SETS="D S C T"; else VARIANTS="c0 w3"; SETS="D S C O T"; fi
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/common.sh"  # limited, table
for v in $VARIANTS; do xz -dc .device/s39/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v; done
declare -A SET=(
  [D]="--m 1,4,7 --n 1024,4096,8192,28672 --k 8192 --iters 30"
  [S]="--m 1,12,17,24 --n 8192 --k 8192,28672 --iters 30"
  [C]="--m 17,24 --n 1024,4096 --k 4096,8192 --iters 30"
  [O]="--m 13,27,45 --n 1024,4096,8192 --k 8192 --iters 30"
  [T]="--m 65,100,129,200 --n 8192 --k 8192 --iters 20")
for round in 1 2; do
  for v in $VARIANTS; do
    for f in $SETS; do limited 60 /tmp/bench_$v ${SET[$f]} --mode $MODE > $L/${f}_${v}_r$round.log 2>&1; done
  done
done
cd $OUT && tar czf logs.tgz logs
echo "== mode $MODE"
for f in $SETS; do table $f $VARIANTS; done
grep -c "all checks passed" logs/*.log | tr '\n' ' '; echo
rm -rf logs
