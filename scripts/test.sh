#!/usr/bin/env bash
# The whole test suite, from a fresh Debian machine: dependencies, unit and recording tests,
# daemon tests with real sockets and processes, then the kernel-level suite in a VM.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh vm
swift build
swift test
# Bad input (issue 13, docs/testing.md): the unit tests under AddressSanitizer in their own build
# directory, then every fuzz target for 40 s.
ASAN_OPTIONS=detect_leaks=0 swift test --sanitize=address --scratch-path .build-asan
scripts/fuzz.sh 40
# The Debian package: lintian, then install, verify and purge in a clean debootstrapped root.
Tests/deb/run.sh
if [ -x Tests/vm/run.sh ]; then
  Tests/vm/run.sh
fi
