#!/usr/bin/env bash
# Runs inside the VM (as root): sets up the input stack once, then each scenario in turn, each
# in its own process with a time limit. Results go to the host through the --rwdir directory:
#   $results/booted                 guest uptime when this script started
#   $results/<scenario>/status      "pass" or the reason it failed
#   $results/<scenario>/log         the scenario's own trace
#   $results/<scenario>/daemon.log  the daemon's stdout and stderr
set -uo pipefail
results=$1 repo=$2 gestured=$3
shift 3
cut -d' ' -f1 /proc/uptime > "$results/booted"
# The host's settings and the scenarios to run (run.sh writes them: the kernel's command line is
# too short for them); scenarios given as arguments instead are run as given.
# shellcheck disable=SC1091
[ ! -f "$results/guest.env" ] || source "$results/guest.env"
[ "$#" -gt 0 ] || mapfile -t scenarios_to_run < "$results/scenarios"
[ "$#" -gt 0 ] || set -- "${scenarios_to_run[@]}"
vmdir=$repo/Tests/vm

say() { echo "guest: $*"; }

setup() {
  modprobe uinput || return 1
  [ -c /dev/uinput ] || { say "no /dev/uinput after modprobe"; return 1; }
  # virtme-ng normally starts udevd; start it if not, since hotplug is what we test.
  if ! pgrep -x systemd-udevd >/dev/null; then
    /lib/systemd/systemd-udevd --daemon || return 1
  fi
  udevadm trigger --action=add
  udevadm settle --timeout=30
  # Users for the unprivileged scenario. /etc is a writable overlay in the guest only.
  getent group input >/dev/null || { say "no group 'input'"; return 1; }
  cat >> /etc/group <<'GROUPS'
gesture:x:1100:gdaemon,gclient
gdaemon:x:1101:
gclient:x:1102:
gother:x:1103:
GROUPS
  cat >> /etc/passwd <<'USERS'
gdaemon:x:1101:1101:gestured daemon:/nonexistent:/usr/sbin/nologin
gclient:x:1102:1102:socket client:/nonexistent:/usr/sbin/nologin
gother:x:1103:1103:not allowed:/nonexistent:/usr/sbin/nologin
USERS
}

if ! setup > "$results/setup.log" 2>&1; then
  say "SET-UP FAILED:"; cat "$results/setup.log"
  for s in "$@"; do mkdir -p "$results/$s"; echo "fail: VM set-up failed (uinput/udev), see setup.log" > "$results/$s/status"; done
  exit 1
fi
say "input stack ready at $(cut -d' ' -f1 /proc/uptime) s"

# The daemon under test runs from the guest's memory: the root is the host's over 9p without a
# cache, where each start read the 37 MB binary again (2–5 s of the emulated VM against under 1 s
# from tmpfs). Its folder's name is kept (…/release/gestured): scenario 22 refuses a debug build by it.
copy_to_memory() { # PATH: prints the copy's path
  local to=/run/under-test/$(basename "$(dirname "$1")")
  mkdir -p "$to" && cp "$1" "$to/" && echo "$to/$(basename "$1")"
}
gestured=$(copy_to_memory "$gestured") || { say "could not copy the daemon to memory"; exit 1; }
[ -n "${HID_GESTURED:-}" ] && { HID_GESTURED=$(copy_to_memory "$HID_GESTURED") || exit 1; }
say "daemon under test: $gestured${HID_GESTURED:+, scenario 50/22: $HID_GESTURED}"

failures=0
for s in "$@"; do
  sdir=$results/$s
  mkdir -p "$sdir"; chmod 777 "$sdir"
  t0=$(date +%s.%N)
  cpu0=$(head -1 /proc/stat)
  say "running $s"
  # Each scenario in its own bash with the helpers; a hard limit so one hang cannot eat the suite:
  # SCENARIO_TIMEOUT, or the scenario's own "# time-limit: N" line if that is longer.
  limit=${SCENARIO_TIMEOUT:-120}
  own=$(sed -n 's/^# time-limit: \([0-9]*\)$/\1/p' "$vmdir/scenarios/$s.sh" | head -1)
  [ -n "$own" ] && [ "$own" -gt "$limit" ] && limit=$own
  SDIR=$sdir REPO=$repo VMDIR=$vmdir GESTURED=$gestured \
    timeout -k 5 "$limit" bash -c 'source "$VMDIR/lib.sh"; source "$VMDIR/scenarios/$1.sh"' _ "$s" \
    > "$sdir/log" 2>&1 </dev/null
  rc=$?
  # Whatever the scenario left behind (daemon, devices, clients) is stopped by its recorded pid.
  if [ -f "$sdir/pids" ]; then
    while read -r pid; do kill -CONT "$pid" 2>/dev/null; kill -TERM "$pid" 2>/dev/null; done < "$sdir/pids"
    sleep 0.3
    while read -r pid; do kill -KILL "$pid" 2>/dev/null; done < "$sdir/pids"
  fi
  udevadm settle --timeout=10
  awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f\n", b-a}' > "$sdir/seconds"
  # How busy the VM's CPUs were (docs/testing.md): a scenario that leaves them idle waits on the
  # clock, one that keeps them busy is bound by the emulated CPU.
  { echo "$cpu0"; head -1 /proc/stat; } | awk '
    NR == 1 { for (i = 2; i <= 9; i++) a[i] = $i }
    NR == 2 { for (i = 2; i <= 9; i++) { d = $i - a[i]; all += d; if (i == 5 || i == 6) idle += d }
              printf "%.0f\n", (all > 0 ? 100 * (all - idle) / all : 0) }' > "$sdir/busy"
  if [ $rc -eq 0 ]; then
    echo pass > "$sdir/status"
  else
    failures=$((failures + 1))
    reason=$(grep -m1 '^FAIL' "$sdir/log" || true)
    [ $rc -eq 124 ] && reason="timed out after ${limit} s; ${reason}"
    echo "fail (exit $rc): ${reason:-no reason printed}" > "$sdir/status"
  fi
  say "$s: $(cat "$sdir/status") in $(cat "$sdir/seconds") s"
done
exit $failures
