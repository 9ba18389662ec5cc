#!/usr/bin/env bash
# session 14 batch 14: the Python package on the H200 at 8db812b (e95ce14's kernels): pip
# install --no-build-isolation . and pytest tests/python.
bash bench/device/python_tests.sh $OUT
