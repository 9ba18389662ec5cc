#!/usr/bin/env bash
# session 16 batch 8: issue #3's large shapes in the peer benchmark (new suite "large"), mxgemm
# against cuBLAS bf16 and Triton tl.dot_scaled only (humming left out), at main.
set -u
export CMAKE_BUILD_PARALLEL_LEVEL=16 PYTHONUNBUFFERED=1 MXGEMM_GIT_COMMIT="${1:?commit}"
timeout 200 python3 -m pip install --no-build-isolation --no-deps -q . > $OUT/pip_install.log 2>&1; echo "mxgemm install rc=$?"
tail -3 $OUT/pip_install.log
timeout 330 python3 bench/peers/peer_bench.py --suite large --methods mxgemm,mxgemm_weight_only,cublas_bf16,triton_dot_scaled \
  --out $OUT/peers_large.json > $OUT/peers_large.log 2>&1; echo "large rc=$?"
grep -E "^check|wrote" $OUT/peers_large.log | head -8
