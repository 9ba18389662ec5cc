#!/usr/bin/env bash
# session 13 batch 5: per-SASS-instruction stall samples of the in-kernel path at 1024 x 8192 x 8192.
cd .device
for f in new/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 240 ncu --kernel-name regex:stream_gemm_sm90_kernel --launch-skip 5 --launch-count 1 \
  --section SourceCounters --section WarpStateStats --page source --print-source sass --csv \
  ./new/mxgemm_bench --mx-activation in-kernel --m 1024 --n 8192 --k 8192 --iters 20 > $OUT/sass.csv 2>$OUT/ncu_err.txt
echo "ncu rc=$?"
python3 - "$OUT/sass.csv" <<'PY' | tee $OUT/top.txt
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 5]
hdr = None
for i, r in enumerate(rows):
    if any('Source' == c or 'Address' in c for c in r): hdr = i; break
h = rows[hdr]; print(h[:40])
body = rows[hdr+1:]
def col(name):
    for j, c in enumerate(h):
        if c.strip() == name: return j
    for j, c in enumerate(h):
        if name.lower() in c.lower(): return j
    return None
js = col('Warp Stall Sampling (All Samples)'); jsrc = col('Source'); jaddr = col('Address')
print('cols', js, jsrc, jaddr)
def num(x):
    try: return float(x.replace(',', ''))
    except: return 0.0
tot = sum(num(r[js]) for r in body)
print('total samples', tot)
stall_cols = [j for j, c in enumerate(h) if c.startswith('stall_') or 'Stall' in c]
for r in sorted(body, key=lambda r: -num(r[js]))[:45]:
    extra = sorted(((num(r[j]), h[j]) for j in stall_cols if j != js), reverse=True)[:3]
    print(f"{num(r[js])/tot*100:5.1f}% {r[jaddr]:>8} {r[jsrc][:60]:60} {[(e[1][:28], int(e[0])) for e in extra if e[0] > 0]}")
PY
xz -T4 -6 $OUT/sass.csv
