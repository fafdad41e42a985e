#!/bin/sh
# Bound command of the lisgd comparison: appends the CLOCK_REALTIME time it started to $1.
date +%s.%N >> "$1"
