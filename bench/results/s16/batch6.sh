#!/usr/bin/env bash
# For the next device run (carry [".whl"]): pip install . on the device and the Python tests,
# then the peer benchmark (square and llm suites, every method: Triton tl.dot_scaled and
# humming-kernels too) at main. #3's ">= 3x Triton" bar and #7's humming comparison were last
# measured in sessions 11-12, before sessions 13-16. Afterwards, on the CPU machine:
#   python3 bench/peers/report.py <files_at>/peers.json --plots bench/results --readme README.md
set -u
export CMAKE_BUILD_PARALLEL_LEVEL=16 PYTHONUNBUFFERED=1 MXGEMM_GIT_COMMIT="${1:?commit}"
python3 -m pip install -q --no-index --no-deps --no-cache-dir .whl/humming_kernels-*.whl > $OUT/pip_humming.log 2>&1; echo "humming install rc=$?"
timeout 240 bash bench/device/python_tests.sh $OUT > $OUT/python_tests.out 2>&1; echo "python tests rc=$?"
tail -2 $OUT/pytest.log
timeout 120 python3 bench/peers/peer_bench.py --suite square --out $OUT/peers.json > $OUT/peers_square.log 2>&1; echo "square rc=$?"
timeout 220 python3 bench/peers/peer_bench.py --suite llm --out $OUT/peers.json --append > $OUT/peers_llm.log 2>&1; echo "llm rc=$?"
grep -E "^check|wrote" $OUT/peers_square.log | head -14
tail -25 $OUT/peers_llm.log
