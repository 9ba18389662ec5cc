#!/usr/bin/env bash
# Session 27 batch 3: the decode suite of weight-only with bf16 activations and with fp16
# ones, same binary (b2's, the committed library), same values, sustained.
cd .device/s27/c8c
for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
mkdir -p $OUT/logs
for mode in weight-only weight-only-fp16; do
  timeout 150 ./mxgemm_bench --mode $mode --suite decode --iters 30 > $OUT/logs/decode_$mode.log 2>&1 || echo "decode $mode rc=$?"
done
for mode in weight-only weight-only-fp16; do
  echo "== decode $mode"; grep -E "over [0-9]+ shapes|checks" $OUT/logs/decode_$mode.log | head -5
done
for mode in weight-only weight-only-fp16; do echo "== decode rows $mode (us / x floor)"
  awk '$4=="|" && $1+0>0 && ($2==28672 || $3==28672 || ($2==8192 && $3==8192)) {printf "%sx%sx%s %s/%s  ", $1,$2,$3,$5,$25} END{print ""}' $OUT/logs/decode_$mode.log
done
cd $OUT && tar czf logs.tgz logs && rm -rf logs
