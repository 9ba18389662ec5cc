#!/usr/bin/env bash
# Session 22 batch 5: x = 58ecc4d + the skinny kernel not preferred where the streaming
# kernel splits K (split_k_fills). GPU suite on x; the skinny kernel against x on N = 8192
# (--compare-kernel skinny, column "vs compare": skinny time / x time), two rounds; decode
# suites of x; the Python package's tests on this tree.
cd .device/s22
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 150 ./x/mxgemm_gpu_tests > $OUT/gpu_tests_x.log 2>&1; echo "gpu suite x rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_x.log | head -12
run() { local name=$1; shift; timeout 80 ./x/mxgemm_bench "$@" >> $OUT/${name}.log 2>&1 || echo "$name rc=$?"; }
for round in 1 2; do
  for k in 2048 4096 8192; do run cx --m 1,2,4,8,12,16 --n 8192 --k $k --iters 30 --compare-kernel skinny; done
  for k in 2048 4096; do run cw --mode weight-only --m 1,4,8 --n 8192 --k $k --iters 30 --compare-kernel skinny; done
done
timeout 100 ./x/mxgemm_bench --suite decode --iters 30 > $OUT/decode_mx_x.log 2>&1 || echo "decode mx rc=$?"
timeout 100 ./x/mxgemm_bench --mode weight-only --suite decode --iters 30 > $OUT/decode_wo_x.log 2>&1 || echo "decode wo rc=$?"
cd ../..
bash bench/device/python_tests.sh $OUT > $OUT/python_run.log 2>&1; echo "python rc=$?"; tail -1 $OUT/pytest.log
echo "== geomeans vs cuBLAS bf16"
for f in $OUT/decode_*.log; do echo "$(basename $f) $(grep -A1 'geometric mean' $f | tail -1)"; done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s\n", $1"x"$2"x"$3, $5"/"$22}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k3,3n -k1,1n; }
echo "== x us / (skinny us / x us), rounds"
for f in cx cw; do echo "-- $f"; table $OUT/$f.log; done
grep -l "FAIL" $OUT/*.log | head
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
