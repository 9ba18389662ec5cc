#!/usr/bin/env bash
# Session 17 batch 4 (device; carry [".device"]): an L2 prefetch of the weight ahead of the ring
# (weight_prefetch.patch on 1c42555: MXGEMM_WEIGHT_PREFETCH=D, the streaming kernel's producer
# prefetches stage ks + D of its weight and scale chunks with each stage it loads, the skinny
# kernel's lane 0 unit group + D, lanes 0..15 its scale words). D = 0 is the committed code's
# behaviour. GPU suite with D = 8; the 224 MB and 64 MB decode shapes at D = 0, 4, 8, 16.
cd .device/s17p
for f in *.xz; do [ -e "${f%.xz}" ] || xz -d -k $f; chmod +x ${f%.xz}; done
MXGEMM_WEIGHT_PREFETCH=8 timeout 240 ./mxgemm_gpu_tests > $OUT/gpu_tests_d8.log 2>&1; echo "gpu suite D=8 rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_d8.log | head -5
run() { local name=$1 d=$2; shift 2; MXGEMM_WEIGHT_PREFETCH=$d timeout 120 ./mxgemm_bench "$@" >> $OUT/${name}_d$d.log 2>&1 || echo "$name $d rc=$?"; }
for round in 1 2; do
  for d in 0 8 4 16; do
    [ $round = 2 ] && [ $d != 0 ] && [ $d != 8 ] && continue
    run mx $d --m 1,8,16,32,64 --n 28672 --k 8192 --iters 30
    run mx $d --m 1,16 --n 8192 --k 28672 --iters 30
    run mx $d --m 1,8 --n 8192 --k 8192 --iters 30
    run wo $d --mode weight-only --m 1,16 --n 28672 --k 8192 --iters 30
    run wo $d --mode weight-only --m 1,16 --n 8192 --k 8192 --iters 30
  done
done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s/%s\n", $1"x"$2"x"$3, $5, $25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n | tr '\n' ';'; echo; }
for f in mx wo; do for d in 0 4 8 16; do echo "-- $f D=$d (us/x floor, rounds)"; table $OUT/${f}_d$d.log; done; done
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
