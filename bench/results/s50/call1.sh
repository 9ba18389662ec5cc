#!/bin/bash
# Session 50, call 1 (H100): session 49's prepared batch, run as it was, on main d4be21f built with
# ../s49/promote_stagger.patch applied (its header has the build steps).
bash "$(dirname "$0")/../s49/next.sh"
