#!/bin/bash
# Each shape's mean mxgemm time (us) over call1's three rounds, per mode and build, and the
# mean cuBLAS bf16 time of the same runs: `bash means.sh` in this folder.
cd "$(dirname "$0")/call1"
for mode in weight-only mxfp8; do
  echo "-- $mode"
  for set in P Q; do
    for v in mxgemm_bench_ring5 mxgemm_bench; do
      cat ${set}${mode}_${v}_r[0-9].log | awk -v v=$v '$1 ~ /^[0-9]+$/ && NF > 20 {
        k = $1 " " $2 " " $3; s[k] += $5; b[k] += $8; n[k]++ }
        END { for (k in s) printf "%s %s %.1f (n=%d) cuBLAS bf16 %.1f\n", k, v, s[k] / n[k], n[k], b[k] / n[k] }'
    done
  done | sort -n -k1,1 -k3,3
done
