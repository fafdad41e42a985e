#!/usr/bin/env bash
# Builds gestured and runs the daemon on the example config (extra arguments are passed on).
# The same static release binary as `make install` and scripts/bench.sh build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh build
swift build -c release --static-swift-stdlib --product gestured
exec "$(swift build -c release --static-swift-stdlib --show-bin-path)/gestured" --config config/gestures.toml "$@"
