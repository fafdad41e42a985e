# 7. The input layer's own live-kernel tests (Tests/EvdevTests/LiveKernelTests.swift), which the
# host skips with a stated reason (no /dev/uinput there): run here against real uinput devices.
# They check that frames read live equal the frames replayed from the file, that a reader that
# falls behind gets SYN_DROPPED and resyncs with every contact paired, and that an unplug
# mid-touch is reported and cancels the contacts down. Here they must run, not skip.
bundle=$REPO/.build/debug/gesturedPackageTests.xctest
[ -x "$bundle" ] || die "no test bundle at $bundle (scripts/test.sh builds it with swift test)"
out=$SDIR/live-kernel-tests.log
"$bundle" --testing-library swift-testing --filter LiveKernelTests > "$out" 2>&1 \
  || die "LiveKernelTests failed: $(grep -E '✘|error' "$out" | head -20)"
if grep -q "skipped" "$out"; then die "LiveKernelTests skipped inside the VM: $(grep skipped "$out" | head -3)"; fi
grep -qE "Test run with [3-9][0-9]* tests? .*passed|Test run with [1-9][0-9]+ tests? .*passed" "$out" \
  || die "LiveKernelTests did not run their tests: $(tail -5 "$out")"
say "live-kernel tests: $(grep -E 'Test run with' "$out" | tail -1)"
