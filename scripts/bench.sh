#!/usr/bin/env bash
# Prints the performance figures of docs/performance.md:
#   1. gestured-bench (release): ns per input event, allocations, circle fit time
#   2. the daemon (release, static Swift stdlib): resident memory with a device open,
#      and wakeups (context switches) over an idle period
# Usage: scripts/bench.sh [--idle SECONDS] [--json DIR]
# The lisgd comparison runs in the VM: Tests/vm/compare-lisgd.sh (see docs/performance.md).
set -euo pipefail
cd "$(dirname "$0")/.."
idle=30
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --idle) idle=$2; shift 2 ;;
    --json) out=$2; shift 2 ;;
    *) echo "bench.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
scripts/deps.sh build

echo "== building release binaries (static Swift standard library)"
swift build -c release --static-swift-stdlib --product gestured-bench >/dev/null
swift build -c release --static-swift-stdlib --product gestured >/dev/null
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)

echo "== gestured-bench"
"$bin/gestured-bench" ${out:+--json "$out/bench.json"}
"$bin/gestured-bench" output
"$bin/gestured-bench" shapes --speed-only   # taught-shape matching cost (accuracy: gestured-bench shapes)

echo "== daemon: resident memory and idle wakeups"
tmp=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
cat > "$tmp/gestures.toml" <<TOML
[socket]
path = "$tmp/gestured.sock"
TOML
"$bin/gestured" --config "$tmp/gestures.toml" --fast \
  --replay Tests/Fixtures/recordings/tablets/Wacom_ISDv4_E6_Finger.single-center-circle.events \
  >"$tmp/out" 2>"$tmp/log" &
pid=$!
for _ in $(seq 50); do [ -S "$tmp/gestured.sock" ] && break; sleep 0.1; done
[ -S "$tmp/gestured.sock" ] || { echo "daemon did not start:"; cat "$tmp/log"; exit 1; }
sleep 1
rss=$(awk '/^VmRSS:/ {print $2}' /proc/$pid/status)
anon=$(awk '/^RssAnon:/ {print $2}' /proc/$pid/status)
file=$(awk '/^RssFile:/ {print $2}' /proc/$pid/status)
switches() { cat /proc/$pid/task/*/status | awk '/ctxt_switches/ {n += $2} END {print n}'; }
before=$(switches)
sleep "$idle"
after=$(switches)
echo "binary size: $(stat -c %s "$bin/gestured") bytes ($(ldd "$bin/gestured" | wc -l) shared libraries)"
echo "resident memory after replaying a device: $rss kB ($anon kB anonymous, $file kB file-backed)"
echo "context switches while idle for ${idle}s: $((after - before))"
if [ -n "$out" ]; then
  printf '{"daemon_rss_kb":%s,"daemon_rss_anon_kb":%s,"daemon_rss_file_kb":%s,"idle_seconds":%s,"idle_context_switches":%s}\n' "$rss" "$anon" "$file" "$idle" "$((after - before))" > "$out/daemon.json"
fi
