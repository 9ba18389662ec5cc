#!/bin/bash
# Session 62, never run (for the next H200): session 61's call2.sh, every suite that makes the
# README's columns, on the build named by BIN from .device/s62 (default mxgemm_bench_slot: main
# with slot_size.patch, as landed in session 62). Carry [".device/s62"].
D=.device/s62 BIN=${BIN:-mxgemm_bench_slot} exec bash bench/results/s61/call2.sh
