#!/usr/bin/env bash
# Instructions per frame of the input pipeline on this host, counted exactly: callgrind counts
# the same total for the same binary and input however busy the machine is.
#
#   scripts/count-instructions.sh [PASSES [RECORDING]]
#       (default 10 passes over Tests/Fixtures/recordings/tablets/Wacom_ISDv4_E6_Finger.single-top-swipe.events)
#
# Runs `gestured-bench instructions` (release, static Swift standard library) under
# `valgrind --tool=callgrind`, counting only its replay loop (CountedReplay.run, by
# --toggle-collect): tracker, every default recognizer, arena and timers, for PASSES played
# swipes after one warm-up pass, fed in reads of one frame (EventBatch) as the daemon feeds them. Reading the device, the event loop and running the bound
# command are the daemon's, counted in the VM by Tests/vm/count-instructions.sh.
# Prints instructions per frame and per input event twice — every event built, as the daemon
# does while some client or binding hears every gesture's `changed` events, and with no `changed`
# event built (`--unheard-changes`: GestureArena.reportChanges, as the daemon does when nobody
# hears them: GestureService.heardChanges) — and the functions that take the most (self cost,
# callgrind_annotate, Swift names demangled).
#
# valgrind 3.19 cannot read the DWARF 5 of a Swift binary: a copy with the debug info stripped
# (symbols kept) is counted. BIN=path picks a built gestured-bench instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."
passes=${1:-10}
recording=${2:-Tests/Fixtures/recordings/tablets/Wacom_ISDv4_E6_Finger.single-top-swipe.events}
for tool in valgrind callgrind_annotate strip; do
  command -v $tool >/dev/null || { echo "count-instructions: $tool is not installed (scripts/deps.sh vm)" >&2; exit 1; }
done
if [ -z "${BIN:-}" ]; then
  swift build -c release --static-swift-stdlib --product gestured-bench >/dev/null
  BIN=$(swift build -c release --static-swift-stdlib --show-bin-path)/gestured-bench
fi
tmp=$(mktemp -d /tmp/gestured-count.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
strip --strip-debug -o "$tmp/gestured-bench" "$BIN"

# count NAME [OPTIONS]: one counted run; prints its figures.
count() {
  local name=$1; shift
  valgrind --tool=callgrind --toggle-collect='*CountedReplay*run*' --dump-instr=no --compress-strings=no \
    --callgrind-out-file="$tmp/callgrind.$name" "$tmp/gestured-bench" instructions --passes "$passes" "$@" "$recording" \
    >"$tmp/out.$name" 2>"$tmp/log.$name" || { cat "$tmp/log.$name" >&2; exit 1; }
  cat "$tmp/out.$name"
  local frames events total
  frames=$(sed -n 's/.*frames: \([0-9]*\).*/\1/p' "$tmp/out.$name")
  events=$(sed -n 's/.*events: \([0-9]*\).*/\1/p' "$tmp/out.$name")
  total=$(awk '/^summary:/ {print $2}' "$tmp/callgrind.$name")
  [ -n "$total" ] && [ "${frames:-0}" -gt 0 ] || { echo "count-instructions: no count (see $tmp/log.$name)" >&2; exit 1; }
  echo "instructions: $total  per frame: $((total / frames))  per input event: $((total / events))"
}
echo "== every event built (the daemon with a client that wants every gesture)"
count all
echo
echo "== no changed events built (the daemon when nobody hears them: GestureService.heardChanges)"
count unheard --unheard-changes
echo
echo "== where they go, every event built (self cost, top functions)"
demangle() { if command -v swift >/dev/null; then swift demangle --simplified; else cat; fi; }
callgrind_annotate --threshold=99 "$tmp/callgrind.all" 2>/dev/null \
  | awk '/^-+$/ {n++} n >= 4 && NF' | sed -n '2,31p' | demangle | sed 's/ \[\/tmp[^]]*\]//' | cut -c1-150
