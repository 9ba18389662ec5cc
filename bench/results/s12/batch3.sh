#!/usr/bin/env bash
# session 12 batch 3: chunked stream-K (the CTAs kept at 1, 2 or 4 K offsets) against main
# (head = 96101c3), two rounds, and the new build's streaming / weight-only GPU tests.
cd .device
for v in head new; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
timeout 300 ./new/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.*:GpuWeightOnly.*:GpuGemm.*' > $OUT/tests_new.log 2>&1; echo "tests rc=$?"; tail -3 $OUT/tests_new.log
run() { local name=$1 bin=$2; shift 2; timeout 200 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for r in 1 2; do for v in head new; do
  run mid_$v $v --m 128,256,512,1024 --n 8192 --k 8192 --iters 20
  run mid_$v $v --m 128,256 --n 28672 --k 8192 --iters 20
  run mid_$v $v --m 128,256 --n 8192 --k 28672 --iters 20
  run wo_$v $v --m 128,256,512 --n 8192,28672 --k 8192 --iters 20 --mode weight-only
  run lg_$v $v --m 2048,4096 --n 4096 --k 4096 --iters 20
  run lg_$v $v --m 4096 --n 8192 --k 8192 --iters 20
  run dec_$v $v --m 16,32,64 --n 8192,28672 --k 8192 --iters 30
done; done
echo "== per shape: mxgemm us (ratio vs cuBLAS bf16), round 1 then round 2"
for f in mid wo lg dec; do for v in head new; do
  echo "-- ${f}_$v"; awk '/^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/${f}_$v.log; echo
done; done
