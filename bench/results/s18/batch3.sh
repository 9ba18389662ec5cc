#!/usr/bin/env bash
# Session 18 batch 3 (device; carry [".device"]; variants from build_variants.sh): `final` is
# the work tree (weight-only up to 8 rows in the codes form, which now watches the weight's
# scales; 9..16 rows stay values), `base` is 98e63e5. GPU suite and memcheck of the new and
# touched tests on final; the weight-only decode suite on both, same run; the MXFP8 decode
# suite on final with the streaming kernel as the comparison column (its 8-row codes form
# against the skinny kernel at M <= 8).
cd .device/s18v
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 200 ./final/mxgemm_gpu_tests > $OUT/gpu_tests_final.log 2>&1; echo "gpu suite final rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_final.log | head -8
timeout 200 compute-sanitizer --tool memcheck ./final/mxgemm_gpu_tests \
  --gtest_filter='GpuWeightOnly.CodesForm*:GpuStreamGemm.EightRowCodes*:GpuWeightOnly.WeightScales*:GpuWeightOnly.SmallM*:GpuWeightOnly.Nan*' \
  > $OUT/memcheck_final.log 2>&1
echo "memcheck rc=$?: $(grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck_final.log | tr '\n' ' ')"
run() { local name=$1 v=$2; shift 2; timeout 200 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
run decode_wo base --suite decode --mode weight-only --iters 30
run decode_wo final --suite decode --mode weight-only --iters 30
run decode_mx final --suite decode --iters 30 --compare-kernel streaming
geo() { grep -E "geomean|geometric" $1 | head -3; }
for f in decode_wo_base decode_wo_final decode_mx_final; do echo "-- $f"; geo $OUT/$f.log; done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s/%s\n", $1"x"$2"x"$3, $5, $25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n | tr '\n' ';'; echo; }
for v in base final; do echo "-- wo $v (us/x floor)"; table $OUT/decode_wo_$v.log; done
echo "-- mx final M<=8: mxgemm us / streaming us"
awk '$4=="|" && $1+0>0 && $1<=8 {printf "%s %s/%s; ", $1"x"$2"x"$3, $5, $20}' $OUT/decode_mx_final.log; echo
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
