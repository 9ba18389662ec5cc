#!/bin/bash
# (Session 59, call 0: session 58's next.sh as it ran, copied here; it reads .device/s58/.)
# Prepared in session 58 for the next session with a device (not run). The four-stage lead
# (README.md here, "The 256-row ring at 4 stages"). Build here first (about 4 min on 2 cores):
#   cmake --build build-dev -j2 --target mxgemm_bench && xz -T2 -c build-dev/apps/mxgemm_bench > .device/s58/mxgemm_bench.xz
#   git apply bench/results/s58/wide_four_stages.patch
#   cmake --build build-dev -j2 --target mxgemm_bench mxgemm_gpu_tests
#   xz -T2 -c build-dev/apps/mxgemm_bench > .device/s58/mxgemm_bench_4st.xz
#   xz -T2 -c build-dev/tests/mxgemm_gpu_tests > .device/s58/mxgemm_gpu_tests_4st.xz
#   git checkout src/cuda/sm90/stream_gemm_config.cuh
# Carry [".device/s58"]. (1) the patch's GPU suite; (2) main against the patch, alternated, two
# rounds, both modes: the 192-row shapes (129 / 160 / 192 / 300 / 384 x 8192^2) and call 8's
# shapes again; (3) the mid suite with each. About 8 min; the large suites need a second call
# (`--suite large --iters 20`, about 45 s a mode and binary).
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-560}
: > $L/summary.txt
for b in mxgemm_bench mxgemm_bench_4st mxgemm_gpu_tests_4st; do xz -dc .device/s58/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
limited 220 /tmp/mxgemm_gpu_tests_4st > $L/tests_4st.log 2>&1; stamp "GPU suite (4 stages) rc=$?"
for r in 1 2; do
  for mode in mxfp8 weight-only; do
    for v in mxgemm_bench mxgemm_bench_4st; do
      limited 30 /tmp/$v --m 129,160,192,300,384 --n 8192 --k 8192 --iters 20 --mode $mode > $L/W${mode}_${v}_r$r.log 2>&1
      stamp "192-row $mode $v r$r rc=$?"
      limited 40 /tmp/$v --m 256,2048,4096 --n 8192 --k 8192,28672 --iters 20 --mode $mode > $L/T${mode}_${v}_r$r.log 2>&1
      stamp "call-8 shapes $mode $v r$r rc=$?"
    done
  done
done
for v in mxgemm_bench mxgemm_bench_4st; do
  limited 20 /tmp/$v --suite mid --iters 20 --mode mxfp8 > $L/mid_$v.log 2>&1; stamp "mid $v rc=$?"
done
cd $OUT && tar czf logs.tgz logs
echo "== GPU suite (4 stages)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" logs/tests_4st.log | tail -6
for set in W T; do
  for r in 1 2; do
    echo "== $set round $r: M N K | main, 4 stages (us) | cuBLAS bf16 (4 stages' run) | check"
    for mode in mxfp8 weight-only; do
      echo "-- $mode"
      paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/$set${mode}_mxgemm_bench_r$r.log) \
            <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, $8, $NF}' logs/$set${mode}_mxgemm_bench_4st_r$r.log)
    done
  done
done
for v in mxgemm_bench mxgemm_bench_4st; do echo "== mid $v"; grep -A1 "geometric mean" logs/mid_$v.log | tail -1; done
cat logs/summary.txt
rm -rf logs
