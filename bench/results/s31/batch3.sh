#!/usr/bin/env bash
# Session 31 batch 3: where the fp16 values form of BF16 activations (s31/c3) wins, on the
# smaller weights, against the bf16 values form in the same binary and call; and main
# (s29/c3) against c3 without the comparison column on 32 / 64 x 28672 x 8192.
B=.device/s31/c3; OLD=.device/s29/c3
for d in $B $OLD; do (cd $d && for f in mxgemm_bench.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done); done
mkdir -p $OUT/logs
timeout 120 $B/mxgemm_bench --mode weight-only --m 24,32,48,64,96,128 --n 4096 --k 4096 --compare-kernel bf16-values --iters 20 > $OUT/logs/s4k.log 2>&1 || echo "s4k rc=$?"
timeout 120 $B/mxgemm_bench --mode weight-only --m 24,32,64,128 --n 1024 --k 8192 --compare-kernel bf16-values --iters 20 > $OUT/logs/s1k.log 2>&1 || echo "s1k rc=$?"
timeout 120 $B/mxgemm_bench --mode weight-only --m 24,32,64,128 --n 14336,4096 --k 4096,14336 --compare-kernel bf16-values --iters 20 > $OUT/logs/s14k.log 2>&1 || echo "s14k rc=$?"
for r in 1 2; do
  for b in $OLD $B; do
    t=$(echo ${b#.device/} | tr / _)_r$r
    timeout 60 $b/mxgemm_bench --mode weight-only --m 32,64 --n 28672 --k 8192 --iters 20 > $OUT/logs/plain_$t.log 2>&1 || echo "plain $t rc=$?"
  done
done
echo "== compare: M N K | f16 form us [x cuBLAS bf16] | bf16 form us [bf16/f16] | x floor"
for f in $OUT/logs/s*.log; do
  awk '$4=="|" && $1+0>8 {printf "%sx%sx%s %s [%s] | %s [%s] | %s\n", $1,$2,$3,$5,$10,$20,$22,$25}' $f
done | sort -t x -k2,2n -k3,3n -k1,1n
echo "== plain: tag M N K us [x cuBLAS bf16] (x floor)"
for f in $OUT/logs/plain*.log; do
  awk -v t=$(basename $f .log) '$4=="|" && $1+0>8 {printf "%s %sx%sx%s %s [%s] (%s)\n", t,$1,$2,$3,$5,$10,$21}' $f
done | sort -k2,2 -k1,1
cd $OUT && tar czf logs.tgz logs && rm -rf logs
