#!/usr/bin/env bash
# Session 25 batch 2: h2 = 00a0f80's library + the bench's sustained warm-up (--warmup-ms, 300
# by default). The suites with it, and the large weight-only suite without it (--warmup-ms 0,
# the bench as it was), with nvidia-smi's clocks and power logged throughout.
cd .device/s25
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv,noheader -lms 100 > $OUT/smi_trace.log 2>&1 &
SMI=$!
T0=$(date +%s)
run() { local name=$1; shift; local left=$((560 - $(date +%s) + T0)); [ $left -lt 30 ] && { echo "$name skipped (time)"; return; }
  echo "-- $name start $(date +%T)" >> $OUT/marks.log
  timeout $left ./h2/mxgemm_bench "$@" > $OUT/$name.log 2>&1 || echo "$name rc=$?"
  echo "-- $name end $(date +%T)" >> $OUT/marks.log; }
run large_wo_s --mode weight-only --suite large --iters 20
run large_wo_0 --mode weight-only --suite large --iters 20 --warmup-ms 0
run large_mx_s --suite large --iters 20
run mid_mx_s --suite mid --iters 20
run mid_wo_s --mode weight-only --suite mid --iters 20
run decode_mx_s --suite decode --iters 30
run decode_wo_s --mode weight-only --suite decode --iters 30
kill $SMI
for f in large_wo_s large_wo_0 large_mx_s mid_mx_s mid_wo_s decode_mx_s decode_wo_s; do
  echo "== $f (shape us TFLOP/s vs-bf16 vs-fp8 xfloor)"
  awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5, $6, $10, $18, $25}' $OUT/$f.log | tr '\n' ';' | fold -w 4000; echo
  grep -E '^  vs (cuBLAS bf16|cuBLASLt fp8) ' $OUT/$f.log
done
cat $OUT/marks.log
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
