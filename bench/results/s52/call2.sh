#!/bin/bash
# Session 52, call 2: session 51's prepared script as it stands
# with the binaries built then (.device/next); carry [".device/next"].
exec bash bench/results/s51/call4.sh
