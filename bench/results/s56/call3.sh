#!/bin/bash
# Session 56, call 3: main 8227abd. Any GPU: (W) the Python suite from main's cp312 wheel (built
# here: PYENV_VERSION=3.12.1 python3.12 -m pip wheel --no-build-isolation --no-deps
# -w .device/s56/wheel --config-settings=cmake.define.CMAKE_CUDA_ARCHITECTURES=90a
# --config-settings=cmake.define.MXGEMM_SM100=OFF .). Then on an H200: (P) call1.sh's H200 part
# (does the permuted copy help the H200's 17..64 weight-only rows?); elsewhere: (L) the large
# suite in weight-only mode with the values form forced: auto (BF16 rows read in place) against
# bf16-permuted (copied into the permuted K order: one 8-byte fragment load a 32-block instead of
# four) and f16 (the fp16 form's pre-pass), alternated, two rounds. Carry [".device/s56"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-560}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
B=/tmp/mxgemm_bench
xz -dc .device/s56/mxgemm_bench.xz > $B && chmod +x $B
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .device/s56/wheel/*.whl > $L/pip.log 2>&1
stamp "wheel install rc=$?"
(cd tests/python && export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 && limited 170 python3 -m pytest -q -rs . > $L/pytest.log 2>&1)
stamp "pytest rc=$?"
if grep -q H200 $L/smi.log; then
  for r in 1 2; do
    for v in auto bf16-permuted bf16; do
      limited 35 $B --m 17,24,32,48,64 --n 8192 --k 8192,28672 --iters 30 --mode weight-only --mx-values $v > $L/P_${v}_r$r.log 2>&1
      stamp "P $v r$r rc=$?"
    done
    limited 35 $B --m 17,24,32,48,64 --n 8192 --k 8192,28672 --iters 30 --mode mxfp8 > $L/P_mxfp8_r$r.log 2>&1
    stamp "P mxfp8 r$r rc=$?"
  done
else
  for r in 1 2; do
    for v in auto bf16-permuted f16; do
      limited 60 $B --suite large --iters 20 --mode weight-only --mx-values $v --csv $L/L_${v}_r$r.csv > $L/L_${v}_r$r.log 2>&1
      stamp "L $v r$r rc=$?"
    done
  done
fi
cd $OUT && tar czf logs.tgz logs
tail -4 logs/pytest.log
[ -f logs/P_auto_r1.log ] && { grep -h "memory floor's bandwidth" logs/P_auto_r1.log; table P auto bf16-permuted bf16 mxfp8; }
[ -f logs/L_auto_r1.log ] && { table L auto bf16-permuted f16; for f in logs/L_*.log; do echo "$f $(grep -A1 'geometric mean' $f | sed -n 2p)"; done; }
cat logs/summary.txt
rm -rf logs
