#!/usr/bin/env bash
# session 11 batch 7: the peer benchmark (bench/peers/peer_bench.py, square and llm suites, every
# method including Triton tl.dot_scaled and humming-kernels) at the committed kernels.
set -u
export CMAKE_BUILD_PARALLEL_LEVEL=16 PYTHONUNBUFFERED=1 MXGEMM_GIT_COMMIT="${1:?commit}"
python3 -m pip install -q --no-index --no-deps --no-cache-dir .whl/humming_kernels-*.whl > $OUT/pip_humming.log 2>&1; echo "humming install rc=$?"
timeout 200 python3 -m pip install --no-build-isolation --no-deps -q . > $OUT/pip_install.log 2>&1; echo "mxgemm install rc=$?"
tail -3 $OUT/pip_install.log
timeout 110 python3 bench/peers/peer_bench.py --suite square --out $OUT/peers.json > $OUT/peers_square.log 2>&1; echo "square rc=$?"
timeout 250 python3 bench/peers/peer_bench.py --suite llm --out $OUT/peers.json --append > $OUT/peers_llm.log 2>&1; echo "llm rc=$?"
grep -E "^check|wrote" $OUT/peers_square.log | head -14
tail -2 $OUT/peers_llm.log
