#!/usr/bin/env bash
# Session 16's prepared experiments, for the next device run (build first with
# build_variants.sh; carry [".device"]): the GPU suite on each variant, then same-run A/B
# against main, two rounds, summary last. One device call cannot hold all of it (10 minutes):
# name the parts, e.g. `bash batch5.sh suites fix`, then `bash batch5.sh skinny out`.
#   suites  mxgemm_gpu_tests of every variant (~40 s each)
#   fix     fixup_release against main; the skinny kernel forced on the 224 MB layers
#   skinny  skinny16 and aligned against main on the skinny kernel's shapes
#   out     staged_store_fp32 against main, mxgemm columns in FP32 and BF16 (--mx-out)
cd .device/s16v
for d in */; do for f in $d*.xz; do [ -e "${f%.xz}" ] || xz -d -k $f; chmod +x ${f%.xz}; done; done
parts=" $* "
has() { [[ "$parts" == *" $1 "* ]]; }
run() { local name=$1 v=$2; shift 2; timeout 100 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1; }
table() { awk '$4=="|" && $1+0>0 {printf "%s %s\n", $1"x"$2"x"$3, $5}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n | tr '\n' ';'; echo; }
if has suites; then
  for v in fixup fp32 skinny16 aligned; do
    timeout 200 ./$v/mxgemm_gpu_tests > $OUT/gpu_tests_$v.log 2>&1; echo "gpu suite $v rc=$?"
    grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_$v.log | head -5
  done
fi
for round in 1 2; do
  if has fix; then
    for v in base fixup; do  # split tiles of the streaming kernel
      run fix $v --m 16,32,64 --n 8192,28672 --k 8192 --iters 30
      run fix $v --m 16,32,64 --n 8192 --k 28672 --iters 30
      run fixwo $v --mode weight-only --m 1,8,16,32,64 --n 8192,28672 --k 8192 --iters 30
      run fix $v --m 128,512,1024 --n 8192 --k 8192 --iters 20
    done
    # The skinny kernel forced where main picks the streaming kernel (224 MB weights:
    # weight-only M <= 8, MXFP8 M = 9..16; session 6 measured it 2-8% slower there).
    for nk in "--n 28672 --k 8192" "--n 8192 --k 28672"; do
      run cmp base --mode weight-only --m 1,8 $nk --iters 30 --compare-kernel skinny
      run cmp base --m 12,16 $nk --iters 30 --compare-kernel skinny
    done
  fi
  if has skinny; then
    for v in base skinny16 aligned; do  # the shapes the skinny kernel takes
      run sk $v --m 1,8 --n 8192,28672 --k 8192 --iters 30
      run sk $v --m 1,8 --n 8192 --k 28672 --iters 30
      run sk $v --m 1,8,16 --n 1024,4096 --k 4096,8192 --iters 30
      run skwo $v --mode weight-only --m 1,8 --n 4096,8192 --k 8192 --iters 30
    done
  fi
  if has out; then
    for v in base fp32; do  # FP32 outputs of the mxgemm column (--mx-out; peers in BF16)
      run out_fp32 $v --mx-out fp32 --m 512,1024,8192 --n 8192 --k 8192 --iters 20
      [ $round = 1 ] && run out_bf16 $v --m 512,8192 --n 8192 --k 8192 --iters 20  # the 16-bit path kept
    done
  fi
done
if has fix; then
  for f in fix fixwo; do for v in base fixup; do echo "-- $f $v (us, round 1 and 2)"; table $OUT/${f}_$v.log; done; done
  echo "-- forced skinny (us: main's pick | skinny forced)"
  awk '$4=="|" && $1+0>0 {printf "%s %s|%s\n", $1"x"$2"x"$3, $5, $20}' $OUT/cmp_base.log | sort | tr '\n' ';'; echo
fi
if has skinny; then for f in sk skwo; do for v in base skinny16 aligned; do echo "-- $f $v"; table $OUT/${f}_$v.log; done; done; fi
if has out; then for o in fp32 bf16; do for v in base fp32; do echo "-- --mx-out $o, $v"; table $OUT/out_${o}_$v.log; done; done; fi
