#!/usr/bin/env bash
# The whole test suite, from a fresh Debian machine: dependencies, unit and recording tests,
# daemon tests with real sockets and processes, then the kernel-level suite in a VM.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh vm
swift build
# The unit tests as shipped: -O, exclusivity checks off. The sanitizer runs below are debug
# builds, so the debug-only checks (Borrowed's owner, ByteWriter's end) are tested there.
swift test -c release
# Home Assistant discovery against a real Home Assistant core and mosquitto (≈ 25 s).
Tests/homeassistant/run.sh
# Bad input (docs/testing.md): the unit tests once under AddressSanitizer and once under
# ThreadSanitizer, each in its own build directory, then every fuzz target for 30 s.
ASAN_OPTIONS=detect_leaks=0 swift test --sanitize=address --scratch-path .build-asan
swift test --sanitize=thread --scratch-path .build-tsan
scripts/fuzz.sh 30
# The Debian package: lintian, then install, verify and purge in a clean debootstrapped root;
# then that root with the package booted under systemd in a VM, every feature turned on by
# editing the config, and the same after `make install` (docs/testing.md).
deb=$(scripts/deb.sh)
Tests/deb/run.sh "$deb"
Tests/deb/boot.sh "$deb"
# Every VM scenario; 50 plays all 45 real panels against the release build deb.sh made (the
# emulated VM's CPU is that tier's limit; docs/testing.md).
if [ -x Tests/vm/run.sh ]; then
  HID_GESTURED="$(swift build -c release --static-swift-stdlib --show-bin-path)/gestured" Tests/vm/run.sh
fi
