#!/usr/bin/env bash
# Session 17 batch 2 (device; build first with build_variants.sh, carry [".device"]):
# the early stream-K fixup (early_fixup.patch, two-part tiles only) against main: GPU suite on it, same-run A/B
# on the 224 MB and 64 MB decode shapes (two rounds), timelines of both; summary last.
cd .device/s17v
for d in */; do for f in $d*.xz; do [ -e "${f%.xz}" ] || xz -d -k $f; chmod +x ${f%.xz}; done; done
timeout 240 ./early/mxgemm_gpu_tests > $OUT/gpu_tests_early.log 2>&1; echo "gpu suite early rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_early.log | head -8
run() { local name=$1 v=$2; shift 2; timeout 120 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for round in 1 2; do
  for v in base early; do
    run mx $v --m 1,8,16,32 --n 28672 --k 8192 --iters 30
    run mx $v --m 1,8,16,32 --n 8192 --k 28672 --iters 30
    run mx $v --m 1,8,16 --n 8192 --k 8192 --iters 30
    run mx $v --m 64,128 --n 28672 --k 8192 --iters 30
    run mx $v --m 128 --n 8192 --k 8192 --iters 30
    run wo $v --mode weight-only --m 1,8,16,32,64 --n 28672,8192 --k 8192 --iters 30
  done
done
export MXGEMM_TRACE=1
for v in base early; do
  timeout 100 ./${v}_trace/mxgemm_bench --mode weight-only --m 16 --n 28672 --k 8192 --iters 20 > $OUT/tr_wo_$v.log 2>&1
  timeout 100 ./${v}_trace/mxgemm_bench --m 1,16 --n 28672 --k 8192 --iters 20 > $OUT/tr_mx_$v.log 2>&1
done
unset MXGEMM_TRACE
table() { awk '$4=="|" && $1+0>0 {printf "%s %s/%s\n", $1"x"$2"x"$3, $5, $25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n | tr '\n' ';'; echo; }
for f in mx wo; do for v in base early; do echo "-- $f $v (us/x floor, rounds 1 2)"; table $OUT/${f}_$v.log; done; done
for f in tr_wo tr_mx; do for v in base early; do
  echo "-- $f $v (last 2 launches per M)"
  for m in 1 16; do grep -E "^TRACE( skinny)? m=$m n=28672" $OUT/${f}_$v.log | tail -n 2; done | while read -r l; do
    echo "$(echo "$l" | grep -oE "^TRACE( skinny)? m=[0-9]+") $(echo "$l" | grep -oE "\| (end|prestore_ns|fixup_ns|cta busy us) [^|]*" | tr -d '|' | tr '\n' ';')"
  done
done; done
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
