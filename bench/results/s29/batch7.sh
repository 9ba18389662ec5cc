#!/usr/bin/env bash
# Session 29 batch 7: the decode suites with c3 (06bd5c1, main: whole tiles for the fp16 values
# form of 32 rows): MXFP8 against the bf16 form, and weight-only with FP16 activations.
cd .device/s29/${BIN:-c3}
for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
mkdir -p $OUT/logs
timeout 170 ./mxgemm_bench --suite decode --compare-kernel bf16-values --iters 30 > $OUT/logs/decode.log 2>&1 || echo "decode rc=$?"
timeout 170 ./mxgemm_bench --suite decode --mode weight-only-fp16 --iters 30 > $OUT/logs/decode_wf.log 2>&1 || echo "decode wf rc=$?"
for f in decode decode_wf; do
  echo "== $f"; grep -E "over [0-9]+ shapes|checks" $OUT/logs/$f.log | head -5
  echo "   M N K: us / compare us / x cuBLAS bf16 / x floor (M >= 32)"
  awk '$4=="|" && $1+0>=32 {printf "%sx%sx%s %s/%s %s %s | ", $1,$2,$3,$5,$20,$10,$25} END{print ""}' $OUT/logs/$f.log
done
cd $OUT && tar czf logs.tgz logs && rm -rf logs
