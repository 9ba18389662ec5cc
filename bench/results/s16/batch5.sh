#!/usr/bin/env bash
# Session 16's prepared experiments, for the next device run (build first with
# build_variants.sh; carry [".device"]): the GPU suite on each variant, then same-run A/B
# against main, two rounds. Summary table last.
cd .device/s16v
for d in */; do for f in $d*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
for v in fixup fp32 skinny16; do
  timeout 200 ./$v/mxgemm_gpu_tests > $OUT/gpu_tests_$v.log 2>&1; echo "gpu suite $v rc=$?"
  grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_$v.log | head -5
done
run() { local name=$1 v=$2; shift 2; timeout 100 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1; }
for round in 1 2; do
  for v in base fixup; do  # split tiles of the streaming kernel
    run fix $v --m 16,32,64 --n 8192,28672 --k 8192 --iters 30
    run fix $v --m 16,32,64 --n 8192 --k 28672 --iters 30
    run fixwo $v --mode weight-only --m 1,8,16,32,64 --n 8192,28672 --k 8192 --iters 30
    run fix $v --m 128,512,1024 --n 8192 --k 8192 --iters 20
  done
  for v in base skinny16; do  # the shapes the skinny kernel takes
    run sk $v --m 1,8 --n 8192,28672 --k 8192 --iters 30
    run sk $v --m 1,8 --n 8192 --k 28672 --iters 30
    run sk $v --m 1,8,16 --n 1024,4096 --k 4096,8192 --iters 30
    run skwo $v --mode weight-only --m 1,8 --n 4096,8192 --k 8192 --iters 30
  done
  # The skinny kernel forced where main picks the streaming kernel (224 MB weights: weight-only
  # M <= 8, MXFP8 M = 9..16; session 6 measured it 2-8% slower there, before sessions 7-15).
  for nk in "--n 28672 --k 8192" "--n 8192 --k 28672"; do
    run cmp base --mode weight-only --m 1,8 $nk --iters 30 --compare-kernel skinny
    run cmp base --m 12,16 $nk --iters 30 --compare-kernel skinny
  done
  for v in base fp32; do  # FP32 outputs (the CLI: median of back-to-back runs)
    for s in "512 8192 8192" "1024 8192 8192" "4096 8192 8192" "8192 8192 8192" "2048 28672 8192"; do
      set -- $s
      for o in fp32 bf16; do
        echo "$1x$2x$3 $o $(./$v/mxgemm_cli --m $1 --n $2 --k $3 --out $o --iters 20 2>&1 | grep -o 'time: [0-9.]* ms')" >> $OUT/out_$v.log
      done
    done
  done
done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s\n", $1"x"$2"x"$3, $5}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n | tr '\n' ';'; echo; }
for f in fix fixwo; do for v in base fixup; do echo "-- $f $v (us, round 1 and 2)"; table $OUT/${f}_$v.log; done; done
for f in sk skwo; do for v in base skinny16; do echo "-- $f $v"; table $OUT/${f}_$v.log; done; done
echo "-- forced skinny (us: main's pick | skinny forced, per round)"; awk '$4=="|" && $1+0>0 {printf "%s %s|%s\n", $1"x"$2"x"$3, $5, $20}' $OUT/cmp_base.log | sort | tr '\n' ';'; echo
for v in base fp32; do echo "-- out $v"; sort $OUT/out_$v.log | awk '{a[$1" "$2]=a[$1" "$2]" "$4} END{for(k in a) print k, a[k]}' | sort | tr '\n' ';'; echo; done
