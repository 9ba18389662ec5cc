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
# Each step's timeout is cut to what is left of 540 s, so that the summary always prints.
limited() {  # limited SECONDS command...: run with timeout min(SECONDS, 540 - elapsed)
  local t=$1; shift
  local left=$((540 - SECONDS))
  [ $left -lt $t ] && t=$left
  if [ $t -lt 5 ]; then echo "skipped (time): $*" >> $L/summary.txt; return 124; fi
  timeout $t "$@"
}
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
for log in logs/*_r[12].log; do  # one column a file: time, and c0's peers, w3's check
  b=${log%.log}
  awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' $log > $b.us
  awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8}' $log > $b.bf16
  awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $16}' $log > $b.fp8
  awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $NF}' $log > $b.check
done
for f in $SETS; do
  echo "== $MODE $f: M N K | $VARIANTS r1 | r2 (us) | cuBLAS bf16 (c0 r1) | fp8 | w3 check"
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3}' logs/${f}_c0_r1.log) \
        $(for r in 1 2; do for v in $VARIANTS; do echo logs/${f}_${v}_r$r.us; done; done) \
        logs/${f}_c0_r1.bf16 logs/${f}_c0_r1.fp8 logs/${f}_w3_r1.check
done
grep -c "all checks passed" logs/*.log | tr '\n' ' '; echo
rm -rf logs
