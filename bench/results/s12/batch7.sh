#!/usr/bin/env bash
# session 12 batch 7: at 7d12940 (kernels of a7684fe), pip install . on the device, the
# Python tests, then the peer benchmark's square suite (every method, Triton and humming too).
set -u
export CMAKE_BUILD_PARALLEL_LEVEL=16 PYTHONUNBUFFERED=1 MXGEMM_GIT_COMMIT="${1:?commit}"
python3 -m pip install -q --no-index --no-deps --no-cache-dir .whl/humming_kernels-*.whl > $OUT/pip_humming.log 2>&1; echo "humming install rc=$?"
timeout 240 bash bench/device/python_tests.sh $OUT > $OUT/python_tests.out 2>&1; echo "python tests rc=$?"
tail -2 $OUT/pytest.log
timeout 150 python3 bench/peers/peer_bench.py --suite square --out $OUT/peers.json > $OUT/peers_square.log 2>&1; echo "square rc=$?"
grep -E "^check|wrote" $OUT/peers_square.log | head -14
tail -25 $OUT/peers_square.log
