# 7. The input layer's own live-kernel tests (Tests/EvdevTests/LiveKernelTests.swift), which the
# host skips with a stated reason (no /dev/uinput there): run here against real uinput devices.
# They check that frames read live equal the frames replayed from the file, that a reader that
# falls behind gets SYN_DROPPED and resyncs with every contact paired, and that an unplug
# mid-touch is reported and cancels the contacts down. Here they must run, not skip.
# TEST_BUNDLE (run.sh; scripts/test.sh gives its release test build), else the newer local one.
bundle=${TEST_BUNDLE:-$(ls -t "$REPO"/.build/{release,debug}/gesturedPackageTests.xctest 2>/dev/null | head -1)}
[ -n "$bundle" ] && [ -x "$bundle" ] || die "no test bundle at ${bundle:-$REPO/.build/{release,debug}} (swift test builds it; scripts/test.sh gives TEST_BUNDLE)"
out=$SDIR/live-kernel-tests.log
"$bundle" --testing-library swift-testing --filter LiveKernelTests > "$out" 2>&1 \
  || die "LiveKernelTests failed: $(grep -E '✘|error' "$out" | head -20)"
if grep -q "skipped" "$out"; then die "LiveKernelTests skipped inside the VM: $(grep skipped "$out" | head -3)"; fi
grep -qE "Test run with [3-9][0-9]* tests? .*passed|Test run with [1-9][0-9]+ tests? .*passed" "$out" \
  || die "LiveKernelTests did not run their tests: $(tail -5 "$out")"
say "live-kernel tests: $(grep -E 'Test run with' "$out" | tail -1)"
