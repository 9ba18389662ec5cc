#!/usr/bin/env bash
# session 13 batch 4: ncu of the in-kernel path (integer conversion) at 1024 x 8192 x 8192:
# where the warps stall.
cd .device
for f in new/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 240 ncu --kernel-name regex:stream_gemm_sm90_kernel --launch-skip 5 --launch-count 1 \
  --section SpeedOfLight --section WarpStateStats --section SourceCounters --section MemoryWorkloadAnalysis_Tables \
  --section SchedulerStats --section ComputeWorkloadAnalysis --import-source no \
  ./new/mxgemm_bench --mx-activation in-kernel --m 1024 --n 8192 --k 8192 --iters 20 > $OUT/ncu_inkernel.txt 2>&1
echo "ncu rc=$?"
grep -E "Duration|Throughput|Stall|stall|Issue|Eligible|Active Warps|Bank|Conflicts|Pipe|Utilization" $OUT/ncu_inkernel.txt | head -70
