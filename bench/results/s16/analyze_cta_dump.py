#!/usr/bin/env python3
"""Per-CTA analysis of a skinny-kernel timeline dump (MXGEMM_TRACE=1 MXGEMM_TRACE_DUMP=1 with a
-DMXGEMM_STREAM_TRACE build; TRACECTA lines: launch cta smid start first_unit last_loop_end end
units, us from the launch's first CTA start). Usage: analyze_cta_dump.py dump.log[.xz] ...

Prints, averaged over the launches of a bench run (the first, checked launch left out):
the spread of the CTAs' busy time (start to last warp's end), warp 0's ns per unit, whether the
CTA -> SM placement repeats from launch to launch, how a CTA's busy time in one half of the
launches predicts it in the other, and how the two CTAs that share an SM agree."""
import collections
import lzma
import sys

import numpy as np


def load(path):
    opener = lzma.open if path.endswith(".xz") else open
    d = collections.defaultdict(dict)
    with opener(path, "rt") as f:
        for line in f:
            if not line.startswith("TRACECTA"):
                continue
            r = line.split()
            launch, cta, sm = int(r[1]), int(r[2]), int(r[3])
            start, first, loop_end, end = map(float, r[4:8])
            d[launch][cta] = (sm, start, first, loop_end, end, int(r[8]))
    return d


for path in sys.argv[1:]:
    d = load(path)
    launches = sorted(d)[1:]
    ctas = sorted(d[launches[0]])
    sm = np.array([[d[L][c][0] for c in ctas] for L in launches])
    busy = np.array([[d[L][c][4] - d[L][c][1] for c in ctas] for L in launches])
    rate = np.array([[(d[L][c][3] - d[L][c][2]) / max(d[L][c][5] - 1, 1) for c in ctas] for L in launches])
    first = np.array([[d[L][c][2] - d[L][c][1] for c in ctas] for L in launches])
    pct = lambda a, q: np.round(np.mean([np.percentile(x, q) for x in a], 0), 2)
    print(f"{path}: {len(launches)} launches, {len(ctas)} CTAs")
    print("  busy us p10/p50/p90/max:", pct(busy, [10, 50, 90, 100]), " mean", round(busy.mean(), 2))
    print("  warp 0 ns/unit p10/p50/p90:", np.round(pct(rate, [10, 50, 90]) * 1000))
    print("  first unit after start us p10/p50/p90:", pct(first, [10, 50, 90]))
    print("  CTAs on the same SM as in the first launch: %.1f%%" % (100 * (sm == sm[0]).mean()))
    odd, even = busy[0::2].mean(0), busy[1::2].mean(0)
    print("  corr of a CTA's busy time, odd vs even launches: %.2f" % np.corrcoef(odd, even)[0, 1])
    pa, pb = [], []
    for i in range(len(launches)):
        by_sm = collections.defaultdict(list)
        for j in range(len(ctas)):
            by_sm[sm[i][j]].append(busy[i][j])
        for v in by_sm.values():
            if len(v) == 2:
                pa.append(v[0])
                pb.append(v[1])
    print("  corr of the busy times of the two CTAs on one SM: %.2f" % np.corrcoef(pa, pb)[0, 1])
    print("  corr of first-unit latency with busy time: %.2f; of ns/unit with busy time: %.2f"
          % (np.corrcoef(first.ravel(), busy.ravel())[0, 1], np.corrcoef(rate.ravel(), busy.ravel())[0, 1]))
