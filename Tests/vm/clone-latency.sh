#!/usr/bin/env bash
# What gestured's passthrough adds to a touch's way to the app, beside a bare C forwarder
# (bare-forwarder.c: grab, libevdev uinput clone, copy every event) in the same VM run. Two
# scripted touchscreens (clone-latency.py): A is the forwarder's, B is gestured's (passthrough,
# every default recognizer on). Each round plays the same one-finger strokes (STROKES of 30
# frames, a frame every 10 ms) on A and on B in turn (which goes first alternates), after one
# first stroke each (the first after start, timed on its own: its worst frame against the warm
# p99); the added latency of a frame is the kernel's timestamp of it on the clone
# minus CLOCK_MONOTONIC just before the writer's write(2) of it (clone-latency.py). Prints each
# one's median, p99 and max over all rounds, and gestured's ratio to the forwarder, then the
# daemon's own figures from `status` (frame time to the clone write returning).
#
#   Tests/vm/clone-latency.sh [ROUNDS [STROKES]]        (default 3 rounds of 10 strokes)
#
# GESTURED=path picks the binary (default .build/release/gestured; a debug build is refused:
# its figures say nothing about the product). BASELINE=path runs a second gestured (another
# build, e.g. before a change) on a third touchscreen C in the same rounds: before/after in one
# run. The VM scenario 22 runs the same with a bound.
#
# Inside the VM (the scenario and the host command both come here):
#   clone-latency.sh --inside RESULTS REPO GESTURED ROUNDS STROKES BASELINE|none [SUMMARY OPTIONS...]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

if [ "${1:-}" != --inside ]; then
  rounds=${1:-3} strokes=${2:-10}
  gestured=${GESTURED:-$repo/.build/release/gestured}
  baseline=${BASELINE:-none}
  [ -x "$gestured" ] || { echo "clone-latency: no daemon binary at $gestured (swift build -c release)" >&2; exit 1; }
  [ "$baseline" = none ] || [ -x "$baseline" ] || { echo "clone-latency: no baseline binary at $baseline" >&2; exit 1; }
  source "$here/launch.sh"
  vm_prepare clone-latency clone-latency
  vm_figures clone-latency 600 1G "bash $here/clone-latency.sh --inside $results $repo $gestured $rounds $strokes $baseline > $results/figures.txt 2>&1; cat $results/figures.txt"
fi

# ---- inside the VM ----------------------------------------------------------------------------
shift
results=$1 repo=$2 gestured=$3 rounds=$4 strokes=$5 baseline=$6
shift 6
export SDIR=$results REPO=$repo VMDIR=$repo/Tests/vm GESTURED=$gestured
source "$VMDIR/lib.sh"
case "$gestured" in
  */debug/*) die "$gestured is a debug build: latency is measured on the release build (HID_GESTURED=… or GESTURED=…)" ;;
esac
# `doctor` finds the daemon behind the socket by its process name.
[ "$(basename "$gestured")" = gestured ] || die "$gestured: the daemon binary must be named gestured (doctor finds it by its name); copy it to a directory of its own"
modprobe uinput || die "modprobe uinput"
pgrep -x systemd-udevd >/dev/null || /lib/systemd/systemd-udevd --daemon
command -v cc >/dev/null || die "no C compiler (cc) for the bare forwarder (scripts/deps.sh)"
cc -O2 -Wall -o "$WORK/bare-forwarder" "$VMDIR/bare-forwarder.c" $(pkg-config --cflags --libs libevdev) \
  > "$SDIR/cc.log" 2>&1 || die "the bare forwarder does not compile: $(cat "$SDIR/cc.log")"

mkfifo "$WORK/sources.in"
third=()
[ "$baseline" = none ] || third=("Latency Touchscreen C" "$WORK/c.node")
/usr/bin/python3 "$VMDIR/clone-latency.py" sources "Latency Touchscreen A" "$WORK/a.node" "Latency Touchscreen B" "$WORK/b.node" "${third[@]}" \
  < "$WORK/sources.in" > "$SDIR/sources.log" 2>&1 &
track $!
exec 8> "$WORK/sources.in"
wait_until 120 test -s "${third[1]:-$WORK/b.node}" || die "clone-latency.py made no devices: $(cat "$SDIR/sources.log")"
A=$(cat "$WORK/a.node") B=$(cat "$WORK/b.node")
udevadm settle --timeout=10

"$WORK/bare-forwarder" "$A" "$WORK/bare.node" > "$SDIR/bare-forwarder.log" 2>&1 &
track $!
wait_until 20 test -s "$WORK/bare.node" || die "the bare forwarder made no clone: $(cat "$SDIR/bare-forwarder.log")"
BARE_CLONE=$(cat "$WORK/bare.node")
SOCK=$WORK/gestured.sock
# gestured_start: the daemon started, B passed through; sets GESTURED_CLONE (from `status`).
gestured_start() {
  local before
  before=$(grep -c 'passed through to' "$SDIR/daemon.log" 2>/dev/null)
  daemon_start "$WORK/clone-latency.toml"
  wait_daemon_opens "$B"
  wait_until 30 at_least $(( ${before:-0} + 1 )) grep -c 'passed through to' "$SDIR/daemon.log" || die "no clone: $(tail -5 "$SDIR/daemon.log")"
  GESTURED_CLONE=$(socket_command '{"status":true}' | python3 -c '
import json, sys
for d in json.load(sys.stdin)["status"]["devices"]:
    if d["name"] == "Latency Touchscreen B" and "clone" in d: print(d["clone"])')
  [ -c "$GESTURED_CLONE" ] || die "status shows no clone of Latency Touchscreen B: $(socket_command '{"status":true}')"
}
config clone-latency > /dev/null
gestured_start
BASELINE_CLONE=
if [ "$baseline" != none ]; then
  # The baseline build on touchscreen C, with its own socket.
  sed -e "s|gestured.sock|baseline.sock|" -e "s|Latency Touchscreen B|Latency Touchscreen C|" "$WORK/clone-latency.toml" > "$WORK/baseline.toml"
  "$baseline" --config "$WORK/baseline.toml" >> "$SDIR/baseline.log" 2>&1 &
  track $!
  wait_until 120 grep -q 'passed through to' "$SDIR/baseline.log" || die "the baseline made no clone: $(tail -5 "$SDIR/baseline.log")"
  BASELINE_CLONE=$(SOCK=$WORK/baseline.sock socket_command '{"status":true}' | python3 -c '
import json, sys
for d in json.load(sys.stdin)["status"]["devices"]:
    if d["name"] == "Latency Touchscreen C" and "clone" in d: print(d["clone"])')
  [ -c "$BASELINE_CLONE" ] || die "the baseline's status shows no clone of Latency Touchscreen C"
fi
udevadm settle --timeout=10
say "bare forwarder: $A -> $BARE_CLONE; gestured: $B -> $GESTURED_CLONE${BASELINE_CLONE:+; baseline: C -> $BASELINE_CLONE}"

marks=0
# play_round SOURCE CLONE STROKES OUT: one round on one source, waited for.
play_round() {
  marks=$((marks + 1))
  echo "round $1 $2 $3 30 $4" >&8
  echo "mark $WORK/mark.$marks" >&8
  wait_until 120 test -e "$WORK/mark.$marks" || die "clone-latency.py did not finish a round: $(cat "$SDIR/sources.log")"
}

# measure TAG: ROUNDS rounds on both, the summary of them all; its status is the summary's.
measure() {
  local tag=$1 r
  shift
  for r in $(seq "$rounds"); do
    if [ $((r % 2)) = 1 ]; then
      play_round A "$BARE_CLONE" "$strokes" "$WORK/$tag.bare.$r"; play_round B "$GESTURED_CLONE" "$strokes" "$WORK/$tag.gestured.$r"
    else
      play_round B "$GESTURED_CLONE" "$strokes" "$WORK/$tag.gestured.$r"; play_round A "$BARE_CLONE" "$strokes" "$WORK/$tag.bare.$r"
    fi
    [ -z "$BASELINE_CLONE" ] || play_round C "$BASELINE_CLONE" "$strokes" "$WORK/$tag.baseline.$r"
    say "round $r: $(cat "$WORK/$tag.bare.$r" | wc -l) frames through the bare clone, $(cat "$WORK/$tag.gestured.$r" | wc -l) through gestured's"
  done
  cat "$WORK"/"$tag".bare.* > "$SDIR/$tag.bare.frames"
  cat "$WORK"/"$tag".gestured.* > "$SDIR/$tag.gestured.frames"
  local also=()
  if [ -n "$BASELINE_CLONE" ]; then
    cat "$WORK"/"$tag".baseline.* > "$SDIR/$tag.baseline.frames"
    also=("baseline=$SDIR/$tag.baseline.frames")
  fi
  python3 "$VMDIR/clone-latency.py" summary "$@" "bare=$SDIR/$tag.bare.frames" "gestured=$SDIR/$tag.gestured.frames" "${also[@]}"
}

# The first stroke after each forwarder started (issue 48: the first touch of the morning), timed
# like the rest and set against the warm rounds below; not in the rounds' figures.
say "first stroke after start: one stroke each"
play_round A "$BARE_CLONE" 1 "$SDIR/first-stroke.bare"
play_round B "$GESTURED_CLONE" 1 "$SDIR/first-stroke.gestured"
expect_daemon_alive "after the first stroke"
warm=first
if ! measure first "$@"; then
  # A lag of the emulated VM (the host is shared) can land on either forwarder's rounds: the
  # bound must hold in one of two measurements, each over every round.
  say "above the bound once: measuring again"
  warm=second
  measure second "$@" || die "gestured's clone added more than the bound allows, twice (figures above)"
fi
expect_daemon_alive "after the rounds"
# FIRST_MAX=K: gestured's first stroke's worst frame within K times its warm p99 (scenario 22: 2).
# first_stroke_check TAG: the first stroke TAG against the warm rounds; its status is the check's.
first_stroke_check() {
  python3 "$VMDIR/clone-latency.py" first ${FIRST_MAX:+--max-times "$FIRST_MAX"} \
    "bare=$SDIR/first-stroke.bare,$SDIR/$warm.bare.frames" "gestured=$SDIR/$1,$SDIR/$warm.gestured.frames"
}
if ! first_stroke_check first-stroke.gestured; then
  # One frame is one sample: a lag of the shared host on it decides alone. A second start (the
  # daemon stopped and started again, its first stroke timed) must then be within the bound.
  say "first stroke above the bound once: the daemon started again"
  kill -TERM "$DAEMON_PID"; wait "$DAEMON_PID" 2>/dev/null
  rm -f "$SOCK"  # daemon_start waits for the new one
  udevadm settle --timeout=10
  gestured_start
  udevadm settle --timeout=10
  play_round B "$GESTURED_CLONE" 1 "$SDIR/first-stroke-again.gestured"
  first_stroke_check first-stroke-again.gestured || die "gestured's first stroke after start was slower than ${FIRST_MAX}x its warm p99, twice (figures above)"
fi
# The daemon's own figures, in `status`: from each frame's kernel time to its clone write.
socket_command '{"status":true}' > "$SDIR/status.json"
python3 - "$SDIR/status.json" <<'PY' || die "status has no clone latency for Latency Touchscreen B: $(cat "$SDIR/status.json")"
import json, sys
for d in json.load(open(sys.argv[1]))["status"]["devices"]:
    if d["name"] == "Latency Touchscreen B":
        c = d["latency"]["clone"]
        print("gestured status: clone p50 %s ms, p99 %s ms, max %s ms, %d frames" % (c["p50_ms"], c["p99_ms"], c["max_ms"], c["count"]))
        sys.exit(0 if c["count"] >= 300 and 0 < c["p50_ms"] <= c["p99_ms"] <= c["max_ms"] else 1)
sys.exit(1)
PY
"$GESTURED" doctor --config "$WORK/clone-latency.toml" > "$SDIR/doctor.txt" 2>&1
grep -F -- '– latency of "Latency Touchscreen B" from the kernel'"'"'s frame time, p50/p99 (count): clone ' "$SDIR/doctor.txt" \
  || die "doctor shows no clone latency for Latency Touchscreen B: $(cat "$SDIR/doctor.txt")"
