#!/usr/bin/env python3
"""Summarise MXGEMM_TRACE / RING_TRACE lines: per shape, for each event, the median over the
launches of the per-launch median (us from the launch's first CTA start), skipping the first
launch of each shape (the checked run); end_max: the median of the last CTA's end."""
import re
import statistics
import sys
from collections import OrderedDict

shapes = OrderedDict()
for path in sys.argv[1:]:
    for line in open(path, errors="replace"):
        if not (line.startswith("TRACE") or line.startswith("RING_TRACE")):
            continue
        head, *fields = [f.strip() for f in line.split("|")]
        key = (path.split("/")[-1], head)
        evs = shapes.setdefault(key, OrderedDict())
        for f in fields:
            m = re.match(r"([a-z_]+) (-?[\d.]+)/(-?[\d.]+)/(-?[\d.]+)$", f)
            if m:
                evs.setdefault(m.group(1), []).append(float(m.group(3)))
                if m.group(1) in ("end", "last_exit"):  # the last CTA's too
                    evs.setdefault(m.group(1) + "_max", []).append(float(m.group(4)))
for (path, head), evs in shapes.items():
    out = []
    for name, vals in evs.items():
        if name in ("epi_ns", "prestore_ns", "stages", "MHz", "cyc"):
            continue
        v = vals[1:] if len(vals) > 2 else vals
        out.append(f"{name} {statistics.median(v):.2f}")
    print(f"{path} {head[:60]} (n={max(len(v) for v in evs.values())}): " + " | ".join(out))
