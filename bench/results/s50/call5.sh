#!/bin/bash
# Session 50, call 5: call 4 again (asked of the H200; a second H100 came), same binary.
bash "$(dirname "$0")/call4.sh"
