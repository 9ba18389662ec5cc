#!/usr/bin/env bash
# session 12 batch 6: (1) chunked stream-K with the imbalance limit at 1.20 ("t120": whole
# tiles or halves taken up to 20% over even) against main before (head = 96101c3) and the
# committed version (new = a7684fe, limit 1.10), on the shapes it changes, two rounds;
# (2) the committed version's mid, large and decode suites.
cd .device
for v in head new t120; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
run() { local name=$1 bin=$2; shift 2; timeout 200 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for r in 1 2; do for v in head new t120; do
  run ab_$v $v --m 64,128,256 --n 28672 --k 8192 --iters 20
  run ab_$v $v --m 128 --n 28672 --k 28672 --iters 20
done; done
echo "== per shape: mxgemm us (ratio vs cuBLAS bf16): round 1, round 2"
for v in head new t120; do
  echo "-- ab_$v"; awk '/^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{printf "%s %s(%s)\n", $1"x"$2"x"$3, $5, $10}' $OUT/ab_$v.log | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k1,1n -k2,2n -k3,3n | tr '\n' ';'; echo
done
timeout 150 ./new/mxgemm_bench --suite mid --iters 20 > $OUT/mid_mx.log 2>&1; echo "mid rc=$?"
timeout 150 ./new/mxgemm_bench --suite mid --iters 20 --mode weight-only > $OUT/mid_wo.log 2>&1; echo "mid wo rc=$?"
timeout 250 ./new/mxgemm_bench --suite large --iters 20 > $OUT/large_mx.log 2>&1; echo "large rc=$?"
timeout 250 ./new/mxgemm_bench --suite large --iters 20 --mode weight-only > $OUT/large_wo.log 2>&1; echo "large wo rc=$?"
for f in mid_mx mid_wo large_mx large_wo; do echo "-- $f"; awk '/^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/$f.log; echo; grep -A1 "geometric mean" $OUT/$f.log | tail -1; done
