#!/bin/bash
# Session 51, call 3: is the auto-vs-bf16 gap of calls 1-2 (one kernel, same ncu time) the bench's
# spin? The spin before each timed run is max(50, 3 x host us + 20) us, so a method with a slower
# host side waits longer on an idle GPU. attr_cost (attr_cost.cu here): host cost of the attributes
# auto read per call. mxgemm_bench: built at 0238014 (--spin-us, the device queried on every call).
# Then --spin-us 50 (the old rule) against 200 (one spin for every method), auto and bf16, CSVs;
# and mxgemm_bench_cached (main after session 51: the device answers read once per device, and
# every method of a shape behind one spin) at its default; then the whole GPU suite of that build
# (with GpuDeviceTraits). If the spin was the cause, auto and bf16 agree at 200 and in 'cached'.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-540}
: > $L/summary.txt
unpack mxgemm_bench mxgemm_bench_cached attr_cost mxgemm_gpu_tests
# The GPU suite first (session 52): the landed build has not run on a GPU yet.
limited 200 /tmp/mxgemm_gpu_tests > $L/tests.log 2>&1; stamp "gpu tests rc=$?"
B=/tmp/mxgemm_bench
/tmp/attr_cost > $L/attr_cost.log 2>&1
for r in 1 2; do
  for s in 50 200; do
    for v in bf16 auto; do
      limited 30 $B --m 48,64 --n 8192 --k 8192,28672 --iters 30 --mode weight-only --mx-values $v --spin-us $s \
        --csv $L/S_${v}${s}_r$r.csv > $L/S_${v}${s}_r$r.log 2>&1
      stamp "spin $s values $v r$r rc=$?"
    done
  done
  for v in bf16 auto; do
    limited 30 /tmp/mxgemm_bench_cached --m 48,64 --n 8192 --k 8192,28672 --iters 30 --mode weight-only --mx-values $v \
      --csv $L/S_${v}cached_r$r.csv > $L/S_${v}cached_r$r.log 2>&1
    stamp "cached values $v r$r rc=$?"
  done
done
cd $OUT && tar czf logs.tgz logs
cat logs/attr_cost.log
table S bf1650 auto50 bf16200 auto200 bf16cached autocached
echo "== host_us of the mxgemm column (CSV), per shape"
for f in logs/S_*_r1.csv; do echo "$f: $(python3 -c "
import csv,sys
r=list(csv.DictReader(open('$f')))
k=[c for c in r[0] if c.endswith('host_us')]
print(' | '.join(x['m']+'x'+x['k']+' '+' '.join(c.split('_')[0]+'='+x[c] for c in k) for x in r))" 2>&1)"; done
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran|GpuDeviceTraits" logs/tests.log | tail -8
cat logs/summary.txt
rm -rf logs
