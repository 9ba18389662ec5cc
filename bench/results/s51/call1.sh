#!/bin/bash
# Session 51, call 1: bench/results/s50/next.sh as prepared there (the device gave an H100, not the
# H200 it was written for).
exec bash bench/results/s50/next.sh
