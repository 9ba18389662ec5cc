#!/usr/bin/env bash
# Session 29 batch 2: b1 found 6 stages at 64 rows level with 4 (88.2 / 88.3 us at 64 x 28672 x
# 8192), against s28 b7's 82.8. Repeat b7's exact command with three benches in one call, rounds
# alternated: s28/c4 (4 stages), s28/c7 (b7's binary: six_stages_at_64_rows.patch), s29/c1 (6 at
# 64 rows, 5 at 32).
mkdir -p $OUT/logs
for d in .device/s28/c4 .device/s28/c7 .device/s29/c1; do (cd $d && for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done); done
for r in 1 2; do
  for b in s28/c4 s28/c7 s29/c1; do
    t=$(echo $b | tr / _)_r$r
    timeout 100 .device/$b/mxgemm_bench --m 64 --n 8192,28672 --k 8192,28672 --compare-kernel bf16-values --iters 20 > $OUT/logs/$t.log 2>&1 || echo "$t rc=$?"
  done
done
grep -h "checks" $OUT/logs/*.log | sort | uniq -c
echo "== tag: M N K fp16 form us / bf16 form us (x floor)"
for f in $OUT/logs/*.log; do
  awk -v t=$(basename $f .log) '$4=="|" && $1+0>16 {printf "%s %sx%sx%s %s/%s (%s)\n", t,$1,$2,$3,$5,$20,$25}' $f
done | sort -k2,2 -k1,1
cd $OUT && tar czf logs.tgz logs && rm -rf logs
