#!/usr/bin/env bash
# Instructions per frame, counted exactly: gestured and lisgd (with libinput) under callgrind in
# the VM of the end-to-end suite, reading the same uinput touchscreen (Wacom ISDv4 E6), the same
# played one-finger swipes (left to right along the top, 110 frames each), each swipe bound in
# both to the same command. Instructions are what the emulated VM cannot blur: callgrind counts
# the same total for the same binary and input however busy the host is (CPU time moves 20–40 %
# from run to run under TCG).
#
#   Tests/vm/count-instructions.sh [SWIPES [SLOW]]    (default 10 swipes, played 4× slower)
#
# Under callgrind in the emulated guest both daemons run some 50× slower: played at the
# recorded speed, the kernel's buffer overflows (SYN_DROPPED) before they read it. So every
# recording is played SLOW times slower, and both daemons accept a swipe that long (gestured
# `[defaults.swipe] max_duration_s = 10`, lisgd `-m 10000`): the same frames, further apart.
#
# Prints, per daemon: user-space instructions (callgrind's Ir) while the swipes play, counted
# from after one warm-up swipe (start-up and first-time costs left out) to after the last
# swipe's command ran, divided by the frames played; their ratio; the functions that take the
# most (callgrind_annotate, self cost). Then gestured alone on the 10-finger recording (Wacom
# DTH2242, 16,593 events) with a socket client connected: instructions per event and per frame.
# Last, both daemons natively under `strace -c` during 3 swipes: system calls per frame.
#
# GESTURED=path picks the binary (default .build/release/gestured). valgrind 3.19 cannot read
# the static binary's DWARF 5, so it runs a stripped copy (symbols kept, debug info dropped).
# The guest gets 2 GiB: callgrind holds the 34 MB binary's symbol tables.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

if [ "${1:-}" != --inside ]; then
  swipes=${1:-10} slow=${2:-4}
  gestured=${GESTURED:-$repo/.build/release/gestured}
  [ -x "$gestured" ] || { echo "count-instructions: no daemon binary at $gestured (swift build -c release --static-swift-stdlib)" >&2; exit 1; }
  for tool in lisgd strace valgrind callgrind_control callgrind_annotate strip; do
    command -v $tool >/dev/null || { echo "count-instructions: $tool is not installed (scripts/deps.sh vm)" >&2; exit 1; }
  done
  source "$here/launch.sh"
  vm_prepare count-instructions instructions
  strip --strip-debug -o "$results/gestured" "$gestured" || exit 1
  vm_figures count-instructions 1800 2G "bash $here/count-instructions.sh --inside $results $repo $swipes $slow"
fi

# ---- inside the VM ----------------------------------------------------------------------------
shift
results=$1 repo=$2 swipes=$3 slow=$4
export SDIR=$results REPO=$repo VMDIR=$repo/Tests/vm GESTURED=$results/gestured
source "$VMDIR/lib.sh"
modprobe uinput || die "modprobe uinput"
pgrep -x systemd-udevd >/dev/null || /lib/systemd/systemd-udevd --daemon
udevadm trigger --action=add; udevadm settle --timeout=30

# slowed FILE: the recording with every event's time multiplied by $slow, in $WORK.
slowed() {
  python3 - "$1" "$WORK/slow.$(basename "$1")" "$slow" <<'PY'
import sys
with open(sys.argv[1]) as f, open(sys.argv[2], "w") as out:
    for line in f:
        p = line.split()
        if len(p) >= 5 and p[0] == "E:":
            p[1] = f"{float(p[1]) * float(sys.argv[3]):.6f}"; line = " ".join(p) + "\n"
        out.write(line)
PY
  echo "$WORK/slow.$(basename "$1")"
}
SWIPE=$(slowed "$ISDV4.single-top-swipe.events")
swipe_frames=$(awk '$1 == "E:" && $3 == "0000" && $4 == "0000"' "$SWIPE" | wc -l)
device_add TS "$ISDV4.desc"
SOCK=$WORK/gestured.sock
conf=$(config compare-lisgd)
printf '\n[defaults.swipe]\nmax_duration_s = 10\n' >> "$conf"

callgrind() { # NAME COMMAND...: runs COMMAND under callgrind with counting off until switched on
  local name=$1; shift
  valgrind --tool=callgrind --instr-atstart=no --dump-instr=no --compress-strings=no \
    --callgrind-out-file="$SDIR/callgrind.$name" "$@" >> "$SDIR/$name.log" 2>&1 &
  track $!
  printf -v "${name}_pid" %s $!
}
stamps() { cat "$WORK/$1.times" 2>/dev/null | wc -l; }
# wait_stamps NAME N: the daemon's bound command has run N times (callgrind slows it ~50×). On
# a host so busy that a daemon misses a swipe, the count goes on: the figures say how many
# swipes each recognized and how many SYN_DROPPED gestured saw.
both_stamped() { [ "$(stamps gestured)" -ge 1 ] && [ "$(stamps lisgd)" -ge 1 ]; }
wait_stamps() {
  wait_until 600 at_least "$2" stamps "$1" ||
    say "WARNING: $1 ran its command $(stamps "$1") of $2 times (see $SDIR/$1.log); counted anyway"
}
total() { # DUMP: the Ir total of a callgrind dump
  awk '/^(summary|totals):/ {print $2; exit}' "$1"
}

callgrind gestured "$GESTURED" --config "$conf"
DAEMON_PID=$gestured_pid
wait_until 300 socket_or_exit; test -S "$SOCK" || die "gestured under callgrind made no socket: $(tail -5 "$SDIR/gestured.log")"
wait_until 60 daemon_holds "$TS_node" || die "gestured did not open $TS_node"
# lisgd needs a screen size without X/Wayland and a gesture timeout longer than the 1.2 s swipe.
callgrind lisgd lisgd -m 10000 -w 1280 -h 800 -d "$TS_node" -g "1,LR,*,*,R,$VMDIR/stamp.sh $WORK/lisgd.times"
DAEMON_PID=$lisgd_pid wait_until 300 daemon_holds "$TS_node" || die "lisgd did not open $TS_node: $(tail -5 "$SDIR/lisgd.log")"
sleep 5

# Warm-up, not counted: valgrind translates each code path the first time it runs, so the first
# swipe is slow enough to overflow the kernel's buffer; swipes until both daemons ran their command.
for warm in 1 2 3 4 5; do
  say "warm-up swipe $warm (not counted)"
  python3 "$VMDIR/play-timed.py" "$TS_node" "$SWIPE" 1 0 > /dev/null || die "play-timed.py failed"
  wait_until 300 both_stamped && break
done
sleep 5
warmed_g=$(stamps gestured) warmed_l=$(stamps lisgd)
[ "$warmed_g" -ge 1 ] && [ "$warmed_l" -ge 1 ] || die "after 5 warm-up swipes gestured ran its command $warmed_g times, lisgd $warmed_l"
drops_before=$(grep -c SYN_DROPPED "$SDIR/gestured.log")
for p in $gestured_pid $lisgd_pid; do
  callgrind_control -i on "$p" > /dev/null || die "callgrind_control -i on $p"
  callgrind_control -z "$p" > /dev/null || die "callgrind_control -z $p"
done
say "counting: $swipes swipes of $swipe_frames frames"
python3 "$VMDIR/play-timed.py" "$TS_node" "$SWIPE" "$swipes" 2 > /dev/null || die "play-timed.py failed"
wait_stamps gestured $((swipes + warmed_g)); wait_stamps lisgd $((swipes + warmed_l))
sleep 3
for p in $gestured_pid $lisgd_pid; do callgrind_control -d swipes "$p" > /dev/null || die "callgrind_control -d $p"; done
g_dump=$(ls "$SDIR"/callgrind.gestured.* | head -1); l_dump=$(ls "$SDIR"/callgrind.lisgd.* | head -1)
[ -s "$g_dump" ] && [ -s "$l_dump" ] || die "no callgrind dumps in $SDIR"
g_ir=$(total "$g_dump"); l_ir=$(total "$l_dump")
frames=$((swipes * swipe_frames))
{
  echo "instructions per frame: $swipes one-finger swipes (Wacom ISDv4 E6 single-top-swipe, $swipe_frames frames each, $frames frames, played $slow× slower), after one warm-up swipe, each bound to a command"
  awk -v g="$g_ir" -v l="$l_ir" -v f="$frames" 'BEGIN {
    printf "%-22s %14s %12s\n", "daemon", "instructions", "per frame"
    printf "%-22s %14d %12.0f\n", "gestured", g, g / f
    printf "%-22s %14d %12.0f\n", "lisgd + libinput", l, l / f
    printf "instruction ratio gestured / lisgd: %.2f\n", g / l }'
  echo "swipes recognized (commands run): gestured $(( $(stamps gestured) - warmed_g )) of $swipes, lisgd $(( $(stamps lisgd) - warmed_l )) of $swipes;" \
       "gestured's SYN_DROPPED while counting: $(( $(grep -c SYN_DROPPED "$SDIR/gestured.log") - drops_before ))"
} | tee "$SDIR/figures.txt"
for name in gestured lisgd; do
  dump=$g_dump; [ $name = lisgd ] && dump=$l_dump
  callgrind_annotate --threshold=95 "$dump" 2>/dev/null | head -45 > "$SDIR/profile.$name.txt"
done
echo "profiles (self cost, callgrind_annotate): $SDIR/profile.gestured.txt, $SDIR/profile.lisgd.txt" | tee -a "$SDIR/figures.txt"

# ---- 10 fingers, a socket client connected: gestured alone --------------------------------------
TEN=$FIX/tablets/Wacom_DTH2242_Finger.events
ten_events=$(grep -c '^E:' "$TEN")
ten_frames=$(awk '$1 == "E:" && $3 == "0000" && $4 == "0000"' "$TEN" | wc -l)
device_add TEN "$TEN"
DAEMON_PID=$gestured_pid wait_until 60 daemon_holds "$TEN_node" || die "gestured did not open $TEN_node"
client_start c
sleep 3
callgrind_control -z "$gestured_pid" > /dev/null || die "callgrind_control -z"
drops_before=$(grep -c SYN_DROPPED "$SDIR/gestured.log")
play "$TEN_node" "$(slowed "$TEN")"
sleep 10
callgrind_control -d ten "$gestured_pid" > /dev/null || die "callgrind_control -d"
ten_dump=$(ls -t "$SDIR"/callgrind.gestured.* | head -1)
ten_ir=$(total "$ten_dump")
[ "$(grep -c SYN_DROPPED "$SDIR/gestured.log")" = "$drops_before" ] || echo "WARNING: gestured saw SYN_DROPPED during the 10-finger recording" | tee -a "$SDIR/figures.txt"
{
  echo
  echo "10-finger recording (Wacom DTH2242, $ten_events events, $ten_frames frames, played $slow× slower), one socket client ($(lines "$SDIR/c.jsonl") lines sent):"
  awk -v g="$ten_ir" -v e="$ten_events" -v f="$ten_frames" 'BEGIN {
    printf "gestured: %d instructions, %.0f per event, %.0f per frame\n", g, g / e, g / f }'
} | tee -a "$SDIR/figures.txt"
callgrind_annotate --threshold=95 "$ten_dump" 2>/dev/null | head -45 > "$SDIR/profile.gestured-ten.txt"

# ---- system calls per frame, both natively (strace -c, 3 swipes) --------------------------------
kill -TERM "$gestured_pid" "$lisgd_pid"; wait "$gestured_pid" "$lisgd_pid" 2>/dev/null
rm -f "$SOCK"
GESTURED=$repo/.build/release/gestured
[ -x "$GESTURED" ] || GESTURED=$results/gestured
daemon_start "$conf"
gpid=$DAEMON_PID
lisgd -m 10000 -w 1280 -h 800 -d "$TS_node" -g "1,LR,*,*,R,true" > "$SDIR/lisgd-native.log" 2>&1 &
lpid=$!; track $lpid
DAEMON_PID=$lpid wait_until 20 daemon_holds "$TS_node" || die "lisgd did not open $TS_node"
DAEMON_PID=$gpid
sleep 2
strace -c -o "$WORK/gestured.strace" -p "$gpid" 2>/dev/null & s1=$!
strace -c -o "$WORK/lisgd.strace" -p "$lpid" 2>/dev/null & s2=$!
sleep 2
python3 "$VMDIR/play-timed.py" "$TS_node" "$SWIPE" 3 0.6 > /dev/null || die "play-timed.py failed"
sleep 2
kill -INT $s1 $s2; wait $s1 $s2
cp "$WORK"/*.strace "$SDIR/"
{
  echo
  echo "system calls during 3 swipes ($((3 * swipe_frames)) frames), natively under strace -c:"
  for name in gestured lisgd; do
    awk -v n=$name -v f=$((3 * swipe_frames)) '$NF == "total" {printf "%-10s %6d calls, %.2f per frame\n", n, $4, $4 / f}' "$WORK/$name.strace"
  done
} | tee -a "$SDIR/figures.txt"
