#!/usr/bin/env bash
# Session 25 batch 1: h = 00a0f80 (head); w = h + the second math warpgroup of the 256-row
# tiles promoting half a chain out of phase with the first (its first chain half as long), so
# that one warpgroup's drain and slot stores overlap the other's wgmmas. Long-K accuracy on w;
# h / w two rounds on the promoting shapes; then whether long runs slow down (clocks, power).
cd .device/s25
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
nvidia-smi --query-gpu=name,power.limit,clocks.max.sm,clocks.sm,temperature.gpu --format=csv > $OUT/smi0.log 2>&1
timeout 200 ./w/mxgemm_gpu_tests --gtest_filter='*LongK*:*WideTiles*:*WholeTiles*' > $OUT/gpu_longk_w.log 2>&1; echo "longk w rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_longk_w.log | head -12
grep -i "margin" $OUT/gpu_longk_w.log | head -20
run() { local name=$1 v=$2; shift 2; timeout 150 ./$v/mxgemm_bench "$@" --iters 20 >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for r in 1 2; do for v in h w; do
  run l28 $v --m 2048,8192 --n 8192 --k 28672
  run l28w $v --mode weight-only --m 2048,8192 --n 8192 --k 28672
  run h32 $v --m 4096,8192 --n 8192 --k 8192 --mx-out fp32
done; done
echo "== shape: us h | w (two rounds each), vs cublas bf16"
for s in l28 l28w h32; do echo "-- $s"; for v in h w; do awk -v v=$v '$4=="|" && $1+0>0 {print v, $1"x"$2"x"$3, $5, $10}' $OUT/${s}_$v.log; done | sort -k2,2 -k1,1 -s | awk '{k=$1" "$2; a[k]=a[k]" "$3"/"$4; if(!(k in o)){o[k]=n++; ord[n-1]=k}} END{for(i=0;i<n;i++) print ord[i], a[ord[i]]}'; done
# Weight-only large M split into launches of fewer rows (bench --wo-m-chunk, w's bench).
for args in "--m 16384 --n 8192 --k 8192" "--m 16384 --n 28672 --k 8192" "--m 8192 --n 8192 --k 28672"; do
  for c in 0 4096 2048; do
    echo "-- $args chunk $c" >> $OUT/chunk.log
    timeout 150 ./w/mxgemm_bench --mode weight-only $args --wo-m-chunk $c --iters 20 >> $OUT/chunk.log 2>&1 || echo "chunk $args $c rc=$?"
  done
done
echo "== chunked weight-only: shape chunk us TFLOP/s vs-bf16"
awk '/^-- /{c=$NF} $4=="|" && $1+0>0 {print $1"x"$2"x"$3, "chunk", c, $5, $6, $10}' $OUT/chunk.log
# Clocks and power during short and long runs of one shape (weight-only, head).
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv,noheader -lms 20 > $OUT/smi_trace.log 2>&1 &
SMI=$!
sleep 0.5
for cfg in "2048 20" "2048 300" "16384 20"; do
  set -- $cfg
  echo "-- start wo $1x28672x8192 iters $2 $(date +%T.%N)" >> $OUT/smi_marks.log
  timeout 150 ./h/mxgemm_bench --mode weight-only --m $1 --n 28672 --k 8192 --iters $2 > $OUT/pw_$1_$2.log 2>&1
  echo "-- end $(date +%T.%N)" >> $OUT/smi_marks.log
done
kill $SMI
echo "== iters: file shape us TFLOP/s vs-bf16 cuBLAS-us"
for g in $OUT/pw_*.log; do awk -v f=$(basename $g) '$4=="|" && $1+0>0 {print f, $1"x"$2"x"$3, $5, $6, $10, $8}' $g; done
echo "== smi trace: clock min/median/max, power max"
awk -F', ' '{c=$2+0; p=$3+0; if(NR==1||c<cmin) cmin=c; if(c>cmax) cmax=c; if(p>pm) pm=p; n++} END{print "samples", n, "sm MHz min", cmin, "max", cmax, "power max W", pm}' $OUT/smi_trace.log
awk -F', ' '{print $5}' $OUT/smi_trace.log | sort | uniq -c | sort -rn | head -5
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
