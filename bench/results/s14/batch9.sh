#!/usr/bin/env bash
# session 14 batch 9: the Python package on the H200 at 9e5aa3a (the run's tree: the committed
# code): pip install --no-build-isolation . and pytest tests/python.
bash bench/device/python_tests.sh $OUT
