#!/usr/bin/env bash
# session 10 batch I: the split reduction at mid M (MXGEMM_DEV_SPLIT_CTAS_PER_TILE=1, dev build) vs default
cd .device
for r in 1 2; do for v in default split1; do
  echo "### $v"
  if [ $v = split1 ]; then export MXGEMM_DEV_SPLIT_CTAS_PER_TILE=1; else unset MXGEMM_DEV_SPLIT_CTAS_PER_TILE; fi
  ./knob/mxgemm_bench --suite mid --iters 20
  ./knob/mxgemm_bench --m 256 --n 4096,28672 --k 4096,8192 --iters 20 --mode weight-only
done > $OUT/mid_r$r.log 2>&1; done
echo "== us: default split1 default split1"
paste <(awk '/^###/{v=$2; i=0} /^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{i++; key[i]=$1"x"$2"x"$3; t[v,i]=$5; n=i} END{for(i=1;i<=n;i++) printf "%-16s %7s %7s\n", key[i], t["default",i], t["split1",i]}' $OUT/mid_r1.log) \
      <(awk '/^###/{v=$2; i=0} /^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{i++; t[v,i]=$5; n=i} END{for(i=1;i<=n;i++) printf "%7s %7s\n", t["default",i], t["split1",i]}' $OUT/mid_r2.log)
