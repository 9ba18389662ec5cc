#!/usr/bin/env bash
# session 14 batch 3: the fused conversion's timeline (trace build, MXGEMM_FUSED_TRACE: per-CTA
# global-timer stamps), M = 64, 512, 1024 at N = K = 8192; the last launch of each run is printed.
cd .device
for f in trace/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
for m in 64 512 1024; do
  MXGEMM_TRACE=1 timeout 60 ./trace/mxgemm_cli --m $m --n 8192 --k 8192 --iters 3 > $OUT/trace_m$m.log 2>&1; echo "trace $m rc=$?"
  awk '/^trace M=/{buf=""} {buf=buf $0 "\n"} /poller all ready|conv exit/{last=buf} END{printf "%s", last}' $OUT/trace_m$m.log
  grep -E "^time:|PASS|FAIL" $OUT/trace_m$m.log
done
