#!/usr/bin/env bash
# gestured beside lisgd (Debian's lisgd) in the VM of the end-to-end suite, on the same played
# recording of one-finger swipes (Wacom ISDv4 E6, left to right along the top, 441 events,
# 1.2 s each), both reading the same device at the same time, the swipe bound in both to
# the same command (Tests/vm/stamp.sh, which notes the time it started). After one warm-up
# swipe (first-time costs: code paged in, the first spawn), ROUNDS rounds of SWIPES swipes;
# prints, per daemon and round:
#   - CPU time the daemon process itself used during the round's playback (the scheduler's ns
#     from /proc/PID/schedstat, and utime+stime from /proc/PID/stat in clock ticks), its page
#     faults and wakeups (voluntary context switches), and the ratio; all rounds together,
#   - latency from the last event of each swipe written to the device (the lift's
#     SYN_REPORT) to the bound command running: median and max, and how many swipes ran it.
# Then, with a socket client connected to gestured (every gesture encoded and sent), the
# 10-finger recording (Wacom DTH2242, 16,593 events, 24 s) played on a second device that both
# daemons read: CPU time per input event (lisgd cannot follow ten fingers; its figure is what
# reading the same device costs it). Last, both daemons under `strace -c` while 3 swipes play:
# system calls per 1,000 input events, by call (strace slows them; only counts are reported).
#
#   Tests/vm/compare-lisgd.sh [SWIPES [ROUNDS]]        (default 20 swipes, 3 rounds)
#
# GESTURED=path picks the binary (default .build/release/gestured, else .build/debug/gestured
# with a warning: compare release builds). BASELINE=path runs a second gestured (another build,
# e.g. before a change) beside them on the same swipes, bound the same way: its CPU in the same
# rounds is the before/after comparison that a busy, emulated host cannot give across runs.
# BASELINE_APPEND=file runs that second gestured (the same binary unless BASELINE is given)
# with the file's TOML appended to its config: e.g. `[defaults]` + `recognizers = ["swipe"]`
# (what the other recognizers cost) or `read_interval_ms = 30` (coalesced reads), in the
# same rounds as the default setup.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

if [ "${1:-}" != --inside ]; then
  swipes=${1:-20} rounds=${2:-3}
  gestured=${GESTURED:-}
  baseline=${BASELINE:-none}
  baseline_append=${BASELINE_APPEND:-}
  [ -z "$baseline_append" ] || [ -r "$baseline_append" ] || { echo "compare-lisgd: cannot read $baseline_append" >&2; exit 1; }
  [ -z "$baseline_append" ] || baseline_append=$(realpath "$baseline_append")
  [ "$baseline" = none ] || [ -x "$baseline" ] || { echo "compare-lisgd: no baseline binary at $baseline" >&2; exit 1; }
  if [ -z "$gestured" ]; then
    if [ -x "$repo/.build/release/gestured" ]; then gestured=$repo/.build/release/gestured
    else gestured=$repo/.build/debug/gestured; echo "compare-lisgd: WARNING: no release build, using the debug build" >&2; fi
  fi
  [ -x "$gestured" ] || { echo "compare-lisgd: no daemon binary at $gestured" >&2; exit 1; }
  [ -z "$baseline_append" ] || [ "$baseline" != none ] || baseline=$gestured
  for tool in lisgd strace; do
    command -v $tool >/dev/null || { echo "compare-lisgd: $tool is not installed (scripts/deps.sh vm)" >&2; exit 1; }
  done
  source "$here/launch.sh"
  vm_prepare compare-lisgd lisgd
  vm_figures compare-lisgd 600 1G "bash $here/compare-lisgd.sh --inside $results $repo $gestured $swipes $rounds $baseline $baseline_append"
fi

# ---- inside the VM ----------------------------------------------------------------------------
shift
results=$1 repo=$2 gestured=$3 swipes=$4 rounds=$5 baseline=$6 baseline_append=${7:-}
export SDIR=$results REPO=$repo VMDIR=$repo/Tests/vm GESTURED=$gestured
source "$VMDIR/lib.sh"
modprobe uinput || die "modprobe uinput"
pgrep -x systemd-udevd >/dev/null || /lib/systemd/systemd-udevd --daemon
udevadm trigger --action=add; udevadm settle --timeout=30

device_add TS "$ISDV4.desc"
SOCK=$WORK/gestured.sock
conf=$(config compare-lisgd)
if [ "$baseline" != none ]; then
  sed -e "s|gestured.sock|baseline.sock|" -e "s|gestured.times|baseline.times|" "$conf" > "$WORK/baseline.toml"
  [ -z "$baseline_append" ] || { echo; cat "$baseline_append"; } >> "$WORK/baseline.toml"
  cp "$WORK/baseline.toml" "$SDIR/"
  "$baseline" --config "$WORK/baseline.toml" >> "$SDIR/baseline.log" 2>&1 &
  bpid=$!; track $bpid
  DAEMON_PID=$bpid wait_until 30 daemon_holds "$TS_node" || die "the baseline did not open $TS_node: $(cat "$SDIR/baseline.log")"
fi
daemon_start "$conf"
gpid=$DAEMON_PID
# lisgd needs a screen size without X/Wayland (-w/-h, any: the bind has no edge and any
# distance) and a gesture timeout longer than the recorded 1.2 s swipe (default 800 ms).
lisgd -m 3000 -w 1280 -h 800 -d "$TS_node" -g "1,LR,*,*,R,$VMDIR/stamp.sh $WORK/lisgd.times" > "$SDIR/lisgd.log" 2>&1 &
lpid=$!; track $lpid
wait_daemon_opens "$TS_node"
DAEMON_PID=$lpid wait_until 20 daemon_holds "$TS_node" || die "lisgd did not open $TS_node: $(cat "$SDIR/lisgd.log")"
sleep 2   # let both settle after start-up
memory() { awk '/^(VmRSS|RssAnon|RssFile):/ {printf "%s %s kB  ", $1, $2} /^Threads:/ {printf "threads %s  ", $2}' "/proc/$1/status"; }
idle_memory="idle, one device open: gestured $(memory $gpid)| lisgd $(memory $lpid)"

cpu() { # PID → "ticks ns system-ticks" (ticks: user + system; ns: all its threads)
  awk '{printf "%d ", $14 + $15}' "/proc/$1/stat"
  cat /proc/"$1"/task/*/schedstat | awk '{n += $1} END {printf "%.0f ", n}'
  awk '{print $15}' "/proc/$1/stat"
}
costs() { # PID → "minor-faults major-faults voluntary-switches involuntary-switches" (all threads)
  awk '{printf "%d %d ", $10, $12}' "/proc/$1/stat"
  cat /proc/"$1"/task/*/status | awk '/^voluntary_ctxt/ {v += $2} /^nonvoluntary_ctxt/ {n += $2} END {print v, n}'
}
# One swipe first, outside the measured window, for both daemons: what runs the first time
# (code paged in from the binary — gestured releases its start-up pages, StartupPages — the
# first command spawned, lisgd's first system()) is start-up, not the steady cost per swipe.
say "warm-up: 1 swipe on $TS_node (not measured)"
python3 "$VMDIR/play-timed.py" "$TS_node" "$ISDV4.single-top-swipe.events" 1 0.6 > "$WORK/ends.txt" || die "play-timed.py failed"
sleep 2
: > "$WORK/rounds.txt"; : > "$WORK/all-ends.txt"
for round in $(seq "$rounds"); do
  read -r g_t0 g_n0 g_s0 <<< "$(cpu $gpid)"; read -r l_t0 l_n0 l_s0 <<< "$(cpu $lpid)"
  read -r g_f0 g_m0 g_v0 g_i0 <<< "$(costs $gpid)"; read -r l_f0 l_m0 l_v0 l_i0 <<< "$(costs $lpid)"
  b_n0=0; [ "$baseline" = none ] || read -r _ b_n0 _ <<< "$(cpu $bpid)"
  say "round $round: playing $swipes swipes on $TS_node"
  python3 "$VMDIR/play-timed.py" "$TS_node" "$ISDV4.single-top-swipe.events" "$swipes" 0.6 >> "$WORK/all-ends.txt" \
    || die "play-timed.py failed"
  sleep 2
  read -r g_t1 g_n1 g_s1 <<< "$(cpu $gpid)"; read -r l_t1 l_n1 l_s1 <<< "$(cpu $lpid)"
  read -r g_f1 g_m1 g_v1 g_i1 <<< "$(costs $gpid)"; read -r l_f1 l_m1 l_v1 l_i1 <<< "$(costs $lpid)"
  b_n1=0; [ "$baseline" = none ] || read -r _ b_n1 _ <<< "$(cpu $bpid)"
  echo "$round $((g_t1 - g_t0)) $((g_n1 - g_n0)) $((g_s1 - g_s0)) $((l_t1 - l_t0)) $((l_n1 - l_n0)) $((l_s1 - l_s0))" \
       "$((g_f1 - g_f0)) $((g_m1 - g_m0)) $((g_v1 - g_v0)) $((g_i1 - g_i0))" \
       "$((l_f1 - l_f0)) $((l_m1 - l_m0)) $((l_v1 - l_v0)) $((l_i1 - l_i0)) $((b_n1 - b_n0))" >> "$WORK/rounds.txt"
done
daemon_alive || die "gestured died"
DAEMON_PID=$lpid daemon_alive || die "lisgd died"
cp "$WORK"/*.times "$WORK/all-ends.txt" "$WORK/rounds.txt" "$SDIR/" 2>/dev/null

python3 - "$WORK/all-ends.txt" "$WORK/gestured.times" "$WORK/lisgd.times" "$WORK/rounds.txt" "$(getconf CLK_TCK)" "$swipes" "$WORK/baseline.times" <<'PY' | tee "$SDIR/figures.txt"
import statistics, sys
ends = [float(x) for x in open(sys.argv[1])]
def stamps(p):
    try: return sorted(float(x) for x in open(p))
    except FileNotFoundError: return []
rounds = [[int(v) for v in line.split()] for line in open(sys.argv[4])]
hz, swipes = int(sys.argv[5]), int(sys.argv[6])
def latencies(ts):
    # each stamp belongs to the stroke whose lift preceded it most recently (the warm-up's
    # stamp comes before the first measured lift and is left out)
    out = []
    for i, e in enumerate(ends):
        nxt = ends[i + 1] if i + 1 < len(ends) else float("inf")
        mine = [t for t in ts if e - 1.0 <= t < nxt - 1.0]
        if mine: out.append((mine[0] - e) * 1000)
    return out
print(f"lisgd comparison: {len(rounds)} rounds of {swipes} one-finger swipes (Wacom ISDv4 E6 single-top-swipe, "
      f"441 events each) after one warm-up swipe; {len(ends)} lifts measured")
print("CPU time of each daemon process over each round's playback (from /proc/PID/schedstat, all threads):")
print(f"{'round':>5} {'gestured ms':>12} {'lisgd ms':>9} {'ratio':>6}   {'gestured: ticks (sys) faults min/maj wakeups (invol.)':>52}   lisgd: the same")
ratios = []
for r, gt, gn, gs, lt, ln, ls, gf, gm, gv, gi, lf, lm, lv, li, bn in rounds:
    ratio = gn / ln if ln > 0 else float("nan")
    ratios.append(ratio)
    print(f"{r:>5} {gn / 1e6:>12.1f} {ln / 1e6:>9.1f} {ratio:>6.2f}   {gt:>12} ({gs}) {gf:>6}/{gm:<3} {gv:>6} ({gi})"
          f"{'':>14}{lt} ({ls}) {lf}/{lm} {lv} ({li})")
g_ns = sum(r[2] for r in rounds); l_ns = sum(r[5] for r in rounds)
if l_ns > 0:
    print(f"cpu ratio gestured/lisgd (schedstat ns, all rounds): {g_ns / l_ns:.2f}; by round: median {statistics.median(ratios):.2f}, "
          f"min {min(ratios):.2f}, max {max(ratios):.2f}")
b_ns = sum(r[15] for r in rounds)
if b_ns > 0 and l_ns > 0:
    print(f"baseline gestured (BASELINE) in the same rounds: {b_ns / 1e6:.1f} ms, ratio to lisgd {b_ns / l_ns:.2f}; "
          f"this build / baseline: {g_ns / b_ns:.2f} (by round: " + ", ".join(f"{r[2] / r[15]:.2f}" for r in rounds if r[15] > 0) + ")"
          f"; baseline / lisgd by round: " + ", ".join(f"{r[15] / r[5]:.2f}" for r in rounds if r[5] > 0))
print(f"{'daemon':10} {'cmd runs':>8} {'latency median ms':>18} {'max ms':>8}")
lat = {}
for name, path in (("gestured", sys.argv[2]), ("lisgd", sys.argv[3]), ("baseline", sys.argv[7])):
    lat[name] = latencies(stamps(path))
    if name == "baseline" and not lat[name]: continue
    l = lat[name]
    print(f"{name:10} {len(l):>8} {statistics.median(l) if l else float('nan'):>18.1f} {max(l) if l else float('nan'):>8.1f}")
if lat["gestured"] and lat["lisgd"]:
    print(f"latency ratio gestured/lisgd (median): {statistics.median(lat['gestured']) / statistics.median(lat['lisgd']):.2f}")
if lat["baseline"] and lat["lisgd"]:
    print(f"latency ratio baseline/lisgd (median): {statistics.median(lat['baseline']) / statistics.median(lat['lisgd']):.2f}")
print(f"(clock ticks are 1/{hz} s; wakeups are voluntary context switches; the VM is emulated (TCG), so absolute figures are slow, ratios are the point)")
PY
echo "resident memory, $idle_memory" | tee -a "$SDIR/figures.txt"

# ---- 10 fingers, a socket client connected: CPU per input event --------------------------------
TEN=$FIX/tablets/Wacom_DTH2242_Finger.events
ten_events=$(grep -c '^E:' "$TEN")
device_add TEN "$TEN"
wait_daemon_opens "$TEN_node"
lisgd -m 3000 -w 1280 -h 800 -d "$TEN_node" -g "1,LR,*,*,R,true" > "$SDIR/lisgd-ten.log" 2>&1 &
ltpid=$!; track $ltpid
DAEMON_PID=$ltpid wait_until 20 daemon_holds "$TEN_node" || die "lisgd did not open $TEN_node: $(cat "$SDIR/lisgd-ten.log")"
client_start c
sleep 2
read -r g_t0 g_n0 g_s0 <<< "$(cpu $gpid)"; read -r l_t0 l_n0 l_s0 <<< "$(cpu $ltpid)"
play "$TEN_node" "$TEN"
sleep 2
read -r g_t1 g_n1 g_s1 <<< "$(cpu $gpid)"; read -r l_t1 l_n1 l_s1 <<< "$(cpu $ltpid)"
daemon_alive || die "gestured died on the 10-finger recording"
sent=$(wc -l < "$SDIR/c.jsonl")
lisgd_alive=yes; DAEMON_PID=$ltpid daemon_alive || lisgd_alive="no, it exited: $(tail -1 "$SDIR/lisgd-ten.log")"
{
  echo
  echo "10-finger recording (Wacom DTH2242, $ten_events events, real time), one socket client connected ($sent lines sent to it):"
  awk -v g=$((g_n1 - g_n0)) -v l=$((l_n1 - l_n0)) -v n="$ten_events" -v alive="$lisgd_alive" 'BEGIN {
    printf "%-10s %8s %13s\n", "daemon", "cpu ms", "ns per event"
    printf "%-10s %8.1f %13.0f\n", "gestured", g / 1e6, g / n
    printf "%-10s %8.1f %13.0f   (lisgd still running: %s)\n", "lisgd", l / 1e6, l / n, alive
    if (l > 0) printf "cpu ratio gestured/lisgd, 10 fingers with a client: %.2f\n", g / l }'
  echo "of the ticks, in the kernel (system time): gestured $((g_s1 - g_s0)) of $((g_t1 - g_t0)), lisgd $((l_s1 - l_s0)) of $((l_t1 - l_t0))"
} | tee -a "$SDIR/figures.txt"

# ---- system calls per 1,000 input events (strace -c, 3 swipes) ---------------------------------
strace -c -o "$WORK/gestured.strace" -p "$gpid" 2>/dev/null & s1=$!
strace -c -o "$WORK/lisgd.strace" -p "$lpid" 2>/dev/null & s2=$!
sleep 2
python3 "$VMDIR/play-timed.py" "$TS_node" "$ISDV4.single-top-swipe.events" 3 0.6 > /dev/null || die "play-timed.py failed"
sleep 2
kill -INT $s1 $s2; wait $s1 $s2
cp "$WORK"/*.strace "$SDIR/"
python3 "$VMDIR/syscalls.py" 1323 "gestured=$WORK/gestured.strace" "lisgd=$WORK/lisgd.strace" | tee -a "$SDIR/figures.txt"
