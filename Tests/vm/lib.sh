# Helpers for the in-guest scenarios (sourced by guest.sh before each scenario).
# Set by guest.sh: SDIR (this scenario's output directory), REPO, VMDIR, GESTURED.
# A scenario is a bash script: it calls these helpers and `die` on the first broken
# expectation; reaching its end is a pass. Every process it starts is recorded in
# $SDIR/pids so that guest.sh stops it afterwards, whatever happened.
set -uo pipefail
FIX=$REPO/Tests/Fixtures/recordings
ISDV4=$FIX/tablets/Wacom_ISDv4_E6_Finger            # touchscreen (INPUT_PROP_DIRECT), 2 slots
ATMEL=$FIX/touchscreens/Atmel_maXTouch_Touchscreen  # touchscreen, 10 slots
WORK=$(mktemp -d /tmp/scenario.XXXXXX)              # guest-only scratch space
chmod 1777 "$WORK"

say() { echo "[$(cut -d' ' -f1 /proc/uptime)] $*"; }
die() { echo "FAIL: $*"; exit 1; }
track() { echo "$1" >> "$SDIR/pids"; }

# nap SECONDS: sleeps without a process (`read -t` on a pipe nobody writes to). Polling with
# `sleep` and `date` cost two forks and execs every 0.1 s per waiting shell, dear in the
# emulated VM: scenario 50's lanes wait in parallel for minutes.
exec {NAP_FD}<> <(:)
nap() { read -rt "$1" -u "$NAP_FD" || :; }

# wait_until SECONDS COMMAND...: polls COMMAND, first after 0.1 s, then 0.1 s later each time up
# to every 0.5 s; false if it never succeeds. Each poll is a process started from the VM's 9p root
# (grep: 0.15–0.5 s of the emulated CPU): at a steady 0.1 s, one long wait kept a vCPU busy polling
# while the daemon it waited for had the other.
wait_until() {
  local limit=$1; shift
  local end=$(( ${EPOCHREALTIME/./} + limit * 1000000 )) step=1
  until "$@"; do
    [ "${EPOCHREALTIME/./}" -ge "$end" ] && return 1
    nap "0.$step"
    if [ "$step" -lt 5 ]; then step=$((step + 1)); fi
  done
  return 0
}

# at_least N COMMAND...: true when COMMAND prints a number of at least N. For counts polled by
# wait_until, which reruns it: `wait_until 5 test "$(grep -c …)" -ge 1` expands the count once,
# before the first poll, and then waits on that stale figure for its whole limit.
at_least() { local n=$1; shift; local got; got=$("$@") || :; [ "${got:-0}" -ge "$n" ]; }

# ---- devices ---------------------------------------------------------------------------------

# device_add VAR DESC [NAME]: a uinput device from a recording's description (renamed to NAME
# if given). Sets ${VAR}_node (/dev/input/eventN) and ${VAR}_pid (the evemu-device process;
# killing it unplugs the device). Waits until udev has processed it.
device_add() {
  local var=$1 desc=$2 name=${3:-} out node pid
  if [ -n "$name" ]; then
    sed "s/^N: .*/N: $name/" "$desc" > "$WORK/$var.desc"
    desc=$WORK/$var.desc
  fi
  out=$WORK/$var.evemu-device
  evemu-device "$desc" > "$out" 2>&1 &
  pid=$!; track "$pid"
  wait_until 15 grep -q '/dev/input/event' "$out" || die "evemu-device $desc made no device: $(cat "$out")"
  node=$(grep -o '/dev/input/event[0-9]*' "$out" | head -1)
  udevadm settle --timeout=10
  wait_until 10 test -c "$node" || die "$node did not appear"
  printf -v "${var}_node" %s "$node"
  printf -v "${var}_pid" %s "$pid"
  say "device $var: $(head -1 "$out") (pid $pid)"
}

# device_remove VAR: unplugs the device (evemu-device destroys it on SIGTERM).
device_remove() {
  local var=$1 node pid
  node=${var}_node; node=${!node}
  pid=${var}_pid; pid=${!pid}
  kill -TERM "$pid"
  wait_until 10 test ! -e "$node" || die "$node still exists after its evemu-device was stopped"
  udevadm settle --timeout=10
  say "device $var ($node) removed"
}

# udev_prop NODE KEY: a udev property of a device node.
udev_prop() { udevadm info --query=property --name="$1" | sed -n "s/^$2=//p"; }

# play NODE RECORDING: writes the recording's events to NODE with their recorded timing, each
# event's time kept from the start of the file (play-timed.py). evemu-play sleeps from event to
# event, and under emulation on a busy host each sleep overshoots: a 1.2 s swipe took longer
# than the swipe's 2.5 s limit and arrived as a pan.
play() {
  say "play $(basename "$2") on $1"
  python3 "$VMDIR/play-timed.py" "$1" "$2" 1 0 > /dev/null || die "play-timed.py $2 on $1 failed"
}

# events_part FILE FROM TO: the events of a recording from fraction FROM to TO of its frames
# (a frame ends with SYN_REPORT), so a gesture can be stopped and resumed mid-stroke.
events_part() {
  awk -v from="$2" -v to="$3" '
    /^E:/ { line[n++] = $0; if ($3 == "0000" && $4 == "0000") ends[f++] = n }
    END { a = (from == 0) ? 0 : ends[int(f * from) - 1]; b = ends[int(f * to) - 1]
          for (i = a; i < b; i++) print line[i] }' "$1"
}

# swipe_right NODE [FILTER...]: plays the one-finger left→right swipe along the top edge and
# waits for the daemon's swipe (the "later gestures still work" check: swipe is a core
# recognizer, so these scenarios test the kernel-level behaviour, not the shape recognizers).
swipe_right() {
  local node=$1 mark; shift
  mark=$(lines "$SDIR/c.jsonl")
  play "$node" "$ISDV4.single-top-swipe.events"
  wait_event 20 "$SDIR/c.jsonl" --after "$mark" gesture=swipe phase=recognized direction=right "$@"
}

# ---- the daemon ------------------------------------------------------------------------------

# config NAME: the scenario config Tests/vm/configs/NAME.toml with @WORK@ and @VMDIR@ filled
# in, written to $WORK/NAME.toml (path printed).
config() {
  sed -e "s|@WORK@|$WORK|g" -e "s|@VMDIR@|$VMDIR|g" "$VMDIR/configs/$1.toml" > "$WORK/$1.toml"
  cp "$WORK/$1.toml" "$SDIR/$1.toml"
  echo "$WORK/$1.toml"
}

# daemon_start CONFIG [setpriv options...]: starts gestured (as root, or as the user the
# setpriv options give) and waits for its socket, whose path is SOCK (DAEMON_START_S seconds,
# default 30).
daemon_start() {
  local conf=$1; shift
  if [ $# -gt 0 ]; then
    setpriv "$@" -- "$GESTURED" --config "$conf" >> "$SDIR/daemon.log" 2>&1 &
  else
    "$GESTURED" --config "$conf" >> "$SDIR/daemon.log" 2>&1 &
  fi
  DAEMON_PID=$!; track "$DAEMON_PID"
  say "daemon started (pid $DAEMON_PID) with $conf"
  wait_until "${DAEMON_START_S:-30}" socket_or_exit || true
  daemon_alive || die "the daemon exited at start"
  test -S "$SOCK" || die "the daemon made no socket at $SOCK in ${DAEMON_START_S:-30} s"
  say "daemon socket $SOCK is up"
}

socket_or_exit() { test -S "$SOCK" || ! daemon_alive; }

# daemon_alive: the daemon process exists and is not a zombie.
daemon_alive() {
  local state
  state=$(awk '{print $3}' "/proc/$DAEMON_PID/stat" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}
expect_daemon_alive() { daemon_alive || die "the daemon died ($1)"; }

# daemon_holds NODE: the daemon has NODE open (the kernel's view, not the daemon's word). `-ef`
# (same device and inode) follows each fd's link without a readlink process per fd.
daemon_holds() {
  local fd
  for fd in /proc/"$DAEMON_PID"/fd/*; do
    [ "$fd" -ef "$1" ] && return 0
  done
  return 1
}
# daemon_holds_deleted: the daemon still has an unplugged (deleted) input node open.
daemon_holds_deleted() { ls -l /proc/"$DAEMON_PID"/fd/ 2>/dev/null | grep -q '/dev/input/.*(deleted)'; }

wait_daemon_opens() {
  wait_until 20 daemon_holds "$1" || { expect_daemon_alive "waiting for it to open $1"; die "the daemon did not open $1 within 20 s (hotplug)"; }
  say "daemon opened $1"
}

# ---- socket clients and actions --------------------------------------------------------------

# client_start NAME [setpriv options...]: a socket client writing every line it receives to
# $SDIR/NAME.jsonl; it has connected when $WORK/NAME.connected exists (within CLIENT_START_S
# seconds, default 30).
client_start() {
  local name=$1; shift
  local cmd=(python3 "$VMDIR/client.py" "$SOCK" "$WORK/$name.connected")
  if [ $# -gt 0 ]; then cmd=(setpriv "$@" -- "${cmd[@]}"); fi
  "${cmd[@]}" > "$SDIR/$name.jsonl" 2> "$SDIR/$name.err" &
  track $!
  printf -v "${name}_pid" %s $!
  wait_until "${CLIENT_START_S:-30}" test -e "$WORK/$name.connected" || die "client $name did not connect: $(cat "$SDIR/$name.err")"
  say "client $name connected"
}

# lines FILE: how many lines a client has received so far (to look only at later events).
lines() { wc -l < "$1"; }

# event FILE [--after N] FILTER...: at least one event in FILE (after line N) matches every
# FILTER (see events.py); prints the matches.
event() { python3 "$VMDIR/events.py" "$@"; }

# wait_event SECONDS FILE FILTER...: waits for a matching event; dies with what did arrive.
# One events.py follows the file (--wait): a python3 started per poll costs 1–2 s of the
# emulated CPU, so polling with it kept a vCPU busy.
wait_event() {
  local limit=$1 found; shift
  if found=$(event --wait "$limit" "$@"); then
    say "event: ${found##*$'\n'}"
    return 0
  fi
  expect_daemon_alive "waiting for an event $*"
  echo "---- what $1 received: $(lines "$1") events; per device, gesture, phase: ----"
  python3 -c '
import collections, json, sys
c = collections.Counter()
for line in open(sys.argv[1]):
    try: e = json.loads(line)
    except ValueError: c[("not JSON", line[:60], "")] += 1; continue
    c[(e.get("device"), e.get("gesture"), e.get("phase"))] += 1
for k, n in sorted(c.items(), key=str): print(f"  {n:5d} x {k[0]} / {k[1]} / {k[2]}")' "$1"
  echo "  last event: $(tail -n 1 "$1" | cut -c1-400)"; echo "----"
  die "no event matching ${*:2} in $1 within ${limit} s"
}

# ---- a libinput client (what a compositor sees) ----------------------------------------------

# libinput_start NAME [ARGS...]: `libinput debug-events` (Debian's libinput-tools) in the
# background, reading the udev seat (seat0) unless ARGS say otherwise (e.g. --device NODE);
# keycodes are shown (libinput hides letter keys by default). Its output, line-buffered, goes to
# $SDIR/NAME.libinput; the variable NAME_pid holds its pid. Waits until it has listed the
# devices present (LIBINPUT_START_S seconds, default 15). Its lines start with " eventN", or
# "-eventN" when the device differs from the previous line's: match both with "^[ -]eventN ".
libinput_start() {
  local name=$1; shift
  [ $# -gt 0 ] || set -- --udev seat0
  stdbuf -oL -eL libinput debug-events --show-keycodes "$@" > "$SDIR/$name.libinput" 2>&1 &
  track $!
  printf -v "${name}_pid" %s $!
  wait_until "${LIBINPUT_START_S:-15}" grep -q DEVICE_ADDED "$SDIR/$name.libinput" \
    || die "libinput debug-events $* listed no device: $(head -5 "$SDIR/$name.libinput")"
  say "libinput client $name started ($*)"
}

# libinput_mark NAME: how many lines the client has printed so far (for --after).
libinput_mark() { lines "$SDIR/$1.libinput"; }

# libinput_line NAME AFTER REGEX: the first line after line AFTER matching the extended REGEX.
libinput_line() { tail -n +"$(( $2 + 1 ))" "$SDIR/$1.libinput" | grep -E -m1 -- "$3"; }

# libinput_wait SECONDS NAME AFTER REGEX: waits for such a line, prints it; dies with the
# client's recent output if none comes.
libinput_wait() {
  local limit=$1 name=$2 after=$3 re=$4
  if wait_until "$limit" libinput_line "$name" "$after" "$re" >/dev/null; then
    say "libinput: $(libinput_line "$name" "$after" "$re")"
    return 0
  fi
  echo "---- libinput client $name, output after line $after: ----"
  tail -n +"$(( after + 1 ))" "$SDIR/$name.libinput" | tail -n 30
  echo "----"
  die "libinput client $name printed no line matching '$re' within $limit s"
}

# socket_command JSON: sends one command line to the daemon's socket, prints the reply line: the
# first line that is a reply ("ok", "error" or "status"): a gesture or mode event broadcast to
# every client may come before it (the soak met one; soak-agent.py reads replies the same way).
socket_command() {
  python3 - "$SOCK" "$1" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1]); s.sendall(sys.argv[2].encode() + b"\n")
buf = b""
while True:
    while b"\n" not in buf:
        chunk = s.recv(65536)
        if not chunk:
            sys.exit(f"socket_command: the daemon closed the connection before replying to {sys.argv[2]}")
        buf += chunk
    line, buf = buf.split(b"\n", 1)
    try:
        reply = json.loads(line)
    except ValueError:
        sys.exit(f"socket_command: not JSON: {line!r}")
    if {"ok", "error", "status"} & reply.keys():
        print(line.decode())
        break
PY
}

# virtual_node ROLE: the event node of the daemon's virtual keyboard or pointer, from its status.
virtual_node() {
  socket_command '{"status":true}' | python3 -c '
import json, sys
for d in json.load(sys.stdin)["status"].get("virtual_devices", []):
    if d["role"] == sys.argv[1]: print(d["devnode"])' "$1"
}

# expect_not_opened_own NODE...: the daemon never opened its own virtual devices as input.
expect_not_opened_own() {
  local n
  for n in "$@"; do daemon_holds "$n" && die "the daemon opened its own virtual device $n as an input device"; done
  grep -q 'opened gestured virtual' "$SDIR/daemon.log" && die "the daemon log shows it opened its own virtual device: $(grep 'opened gestured virtual' "$SDIR/daemon.log")"
  return 0
}
