#!/usr/bin/env bash
# Instructions per frame of the whole daemon on this host, counted exactly (callgrind): the
# loop, the timer, the registry and session, the pipeline, the sinks and the bound command,
# on a recording replayed as a device (`gestured run --replay … --hold-replay`).
#
#   scripts/count-daemon-instructions.sh [SWIPES]   (default 5)
#
# The Wacom ISDv4 E6 `single-top-swipe` recording (110 frames) is replayed SWIPES times at its
# recorded pace, its right swipe bound to /bin/true, after one warm-up replay that is not
# counted (`callgrind_control -i on` after it, as Tests/vm/count-instructions.sh does). A socket
# client starts each replay (`{"replay":true}`) and subscribes to no gesture; its commands are
# counted with the rest (a few hundred instructions per frame). What differs from the daemon
# reading a live device (Tests/vm/count-instructions.sh, in the VM): the timer wakes the loop
# for each frame instead of the device's fd, and RecordingPlayer feeds the pipeline instead of
# EvdevDevice.read and DeviceSession.readable. Prints instructions per frame and the functions
# that take the most (self cost). scripts/count-instructions.sh counts the pipeline alone.
#
# valgrind 3.19 cannot read the DWARF 5 of a Swift binary: a copy with the debug info stripped
# (symbols kept) is counted. BIN=path picks a built gestured instead of building one; OUT=file
# keeps callgrind's output (for callgrind_annotate --inclusive=yes or --tree=caller).
set -euo pipefail
cd "$(dirname "$0")/.."
swipes=${1:-5}
recording=$PWD/Tests/Fixtures/recordings/tablets/Wacom_ISDv4_E6_Finger.single-top-swipe.events
for tool in valgrind callgrind_control callgrind_annotate strip python3; do
  command -v $tool >/dev/null || { echo "count-daemon-instructions: $tool is not installed (scripts/deps.sh vm)" >&2; exit 1; }
done
if [ -z "${BIN:-}" ]; then
  swift build -c release --static-swift-stdlib --product gestured >/dev/null
  BIN=$(swift build -c release --static-swift-stdlib --show-bin-path)/gestured
fi
tmp=$(mktemp -d /tmp/gestured-count-daemon.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
strip --strip-debug -o "$tmp/gestured" "$BIN"
cat > "$tmp/gestures.toml" <<TOML
[socket]
path = "$tmp/gestured.sock"

[[bind]]
gesture = "swipe"
direction = "right"
run = ["/bin/true"]
TOML
frames=$(awk '$1 == "E:" && $3 == "0000" && $4 == "0000"' "$recording" | wc -l)

valgrind --tool=callgrind --instr-atstart=no --dump-instr=no --compress-strings=no \
  --callgrind-out-file="$tmp/callgrind.out" "$tmp/gestured" run --config "$tmp/gestures.toml" \
  --replay "$recording" --hold-replay > "$tmp/log" 2>&1 &
pid=$!
for _ in $(seq 150); do [ -S "$tmp/gestured.sock" ] && break; sleep 0.2; done
[ -S "$tmp/gestured.sock" ] || { echo "count-daemon-instructions: no socket (see $tmp/log)" >&2; cat "$tmp/log" >&2; exit 1; }
# The client: a warm-up replay, then (once counting is on) one replay every 2.5 s.
python3 - "$tmp" "$swipes" <<'PY' &
import os, socket, sys, time
d, n = sys.argv[1], int(sys.argv[2])
s = socket.socket(socket.AF_UNIX)
s.connect(d + "/gestured.sock")
s.sendall(b'{"subscribe":[]}\n{"replay":true}\n')
time.sleep(3)
open(d + "/warm", "w").close()
while not os.path.exists(d + "/counting"):
    time.sleep(0.05)
for _ in range(n):
    s.sendall(b'{"replay":true}\n')
    time.sleep(2.5)
s.close()
PY
client=$!
while [ ! -e "$tmp/warm" ]; do sleep 0.1; done
callgrind_control -i on "$pid" >/dev/null 2>&1
callgrind_control -z "$pid" >/dev/null 2>&1
touch "$tmp/counting"
wait $client
kill -TERM "$pid"; wait "$pid" || true; pid=
[ -z "${OUT:-}" ] || cp "$tmp/callgrind.out" "$OUT"
ran=$(grep -c 'started /bin/true' "$tmp/log" || true)
total=$(awk '/^(summary|totals):/ {print $2; exit}' "$tmp/callgrind.out")
echo "$swipes replayed swipes ($frames frames each) after one warm-up; commands run: $ran (1 in the warm-up)"
echo "instructions: $total  per frame: $((total / (swipes * frames)))"
echo
echo "== where they go (self cost, top functions)"
demangle() { if command -v swift >/dev/null; then swift demangle --simplified; else cat; fi; }
callgrind_annotate --threshold=99 "$tmp/callgrind.out" 2>/dev/null \
  | awk '/^-+$/ {n++} n >= 4 && NF' | sed -n '2,31p' | demangle | sed 's/ \[\/tmp[^]]*\]//' | cut -c1-150
