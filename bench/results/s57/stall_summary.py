# Session 57: stall samples of an ncu "--page source --csv --print-source sass" export: totals by
# reason over all instructions, then the 40 instructions with the most samples.
# Usage: python3 stall_summary.py ncuNNN_sass.csv
import csv,sys,collections
f=sys.argv[1]
rows=list(csv.reader(open(f)))
hdr=rows[1]; data=rows[2:]
ix={h:i for i,h in enumerate(hdr)}
stall_cols=[h for h in hdr if h.startswith('stall_') and 'Not Issued' not in h]
tot=collections.Counter(); total=0
for r in data:
    for h in stall_cols:
        v=int(r[ix[h]] or 0); tot[h]+=v; total+=v
print(f, "total samples", total)
for h,v in tot.most_common(12): print(f"  {h:28s} {v:8d} {100*v/total:5.1f}%")
# top instructions by samples
data.sort(key=lambda r:-int(r[ix['Warp Stall Sampling (All Samples)']] or 0))
print("top instructions:")
for r in data[:40]:
    s=int(r[ix['Warp Stall Sampling (All Samples)']] or 0)
    top=sorted(((int(r[ix[h]] or 0),h) for h in stall_cols),reverse=True)[:2]
    print(f"  {s:6d} {r[ix['Address']][-5:]} {r[ix['Source']].strip()[:60]:60s} {top[0][1][6:]}={top[0][0]} {top[1][1][6:]}={top[1][0]}  exc={r[ix['L1 Wavefronts Shared Excessive']]} ex={r[ix['Instructions Executed']]}")
