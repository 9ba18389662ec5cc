#!/usr/bin/env bash
# session 14 batch 2: the fused conversion as its own kernel instances (the other instances are
# SASS-identical to 61930a1): a timeline of two CTAs (trace build, MXGEMM_FUSED_TRACE) at
# M = 64 and 1024, then the A/B against 61930a1 ("base"), one round.
cd .device
for v in base new trace; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
for m in 64 1024; do timeout 60 ./trace/mxgemm_cli --m $m --n 8192 --k 8192 --iters 2 > $OUT/trace_m$m.log 2>&1; echo "trace $m rc=$?"; done
python3 - "$OUT" <<'PY'
import sys, re, collections
for m in (64, 1024):
    lines = [l for l in open(f"{sys.argv[1]}/trace_m{m}.log") if l.startswith("trace")]
    # the last launch: events after the last "start" of CTA 0
    starts = [i for i, l in enumerate(lines) if " start " in l and l.startswith("trace cta 0 ")]
    if not starts: print(m, "no trace"); continue
    # group by launch: take events from the last launch's window
    t0 = int(lines[starts[-1]].split()[-1])
    ev = [(int(l.split()[-1]) - t0, l.split(" t ")[0]) for l in lines if int(l.split()[-1]) >= t0 - 5000]
    ev.sort()
    print(f"M={m}: last launch, ns after CTA 0 start")
    seen = collections.Counter()
    for t, e in ev:
        key = re.sub(r" -?\d+$", "", e)
        seen[key] += 1
        if seen[key] <= 3: print(f"  {t:8d}  {e}")
PY
run() { local name=$1 bin=$2; shift 2; timeout 100 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for v in base new; do
  run ab_$v $v --m 64,128,256,512,1024 --n 8192 --k 8192 --iters 20
done
for v in base new; do echo "-- $v"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/ab_$v.log; echo; done
