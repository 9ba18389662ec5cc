#!/usr/bin/env bash
# Session 26 batch 7: the suites of weight-only with bf16 activations and with fp16 ones (the
# fp16 values form), same binary (c326ade's library, .device/s26/f16/), same values, sustained.
cd .device/s26/f16
for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
mkdir -p $OUT/logs
for mode in weight-only weight-only-fp16; do
  timeout 120 ./mxgemm_bench --mode $mode --suite decode --iters 30 > $OUT/logs/decode_$mode.log 2>&1 || echo "decode $mode rc=$?"
  timeout 60 ./mxgemm_bench --mode $mode --suite mid --iters 20 > $OUT/logs/mid_$mode.log 2>&1 || echo "mid $mode rc=$?"
  timeout 100 ./mxgemm_bench --mode $mode --suite large --iters 20 > $OUT/logs/large_$mode.log 2>&1 || echo "large $mode rc=$?"
done
for s in decode mid large; do for mode in weight-only weight-only-fp16; do
  echo "== $s $mode"; grep -E "over [0-9]+ shapes|checks" $OUT/logs/${s}_$mode.log | head -5
done; done
for mode in weight-only weight-only-fp16; do echo "== decode rows $mode (us / x floor)"
  awk '$4=="|" && $1+0>0 && ($2==28672 || $3==28672 || ($2==8192 && $3==8192)) {printf "%sx%sx%s %s/%s  ", $1,$2,$3,$5,$25} END{print ""}' $OUT/logs/decode_$mode.log
done
cd $OUT && tar czf logs.tgz logs && rm -rf logs
