#!/bin/bash
# Session 61: on an H200, call2.sh (the H200 columns, main's build); on any other GPU, call3.sh
# (pre-session-60 against main at K = 8192). Carry [".device/s61c"].
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  exec bash bench/results/s61/call2.sh
else
  exec bash bench/results/s61/call3.sh
fi
