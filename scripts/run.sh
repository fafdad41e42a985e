#!/usr/bin/env bash
# Builds gestured and runs the daemon on the example config (extra arguments are passed on).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh build
swift build -c release
exec .build/release/gestured --config config/gestures.toml "$@"
