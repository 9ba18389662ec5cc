#!/bin/bash
# Session 54, call 1, as run (nvidia-h100-x1; it got an H100 80GB HBM3): session 53's prepared
# call, main 7bf803e's binaries and cp312 wheel (.device/s53, built as ../s53/call1.sh's header
# says), with the budget the device had left. Carry [".device/s53"].
BUDGET=540 bash bench/results/s53/call1.sh
