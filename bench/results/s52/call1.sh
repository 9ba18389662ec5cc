#!/bin/bash
# Session 52, call 1: session 51's prepared script (its GPU suite moved first this session)
# with the binaries built then (.device/next); carry [".device/next"].
exec bash bench/results/s51/call3.sh
