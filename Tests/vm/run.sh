#!/usr/bin/env bash
# Kernel-level end-to-end suite (testing tier 4): boots one virtme-ng VM on a Debian kernel,
# runs every scenario in Tests/vm/scenarios/ inside it against real uinput devices made from
# real recordings, and reports each scenario with the daemon's log on failure.
#
#   Tests/vm/run.sh                 all scenarios
#   Tests/vm/run.sh 1 3             only scenarios whose file names start with 1- and 3-
#   VM_ROOT=trixie Tests/vm/run.sh  the scenarios that run in the Debian 13 root (a "# root: trixie"
#                                   line), booted from Tests/vm/trixie-root.sh's root on its own kernel
#
# Each scenario runs in one root: the host's (Debian 12) unless its file has a "# root: NAME" line.
# A scenario with a "# matrix: NAME" line runs only when named: the browser's longer runs
# (67, 68, 82; docs/kiosk.md).
# One VM boots one root (VM_ROOT, default the host's): with no numbers it runs every scenario of
# that root; a number of another root's scenario is refused.
#
# The binary under test is .build/debug/gestured (build it first; scripts/test.sh does).
# GESTURED=/path/to/gestured picks another build (e.g. a release build) — a test-runner knob,
# not a product one. VM_TIMEOUT (seconds, default 3000) bounds the whole VM run; SCENARIO_TIMEOUT
# (default 120) each scenario, DAEMON_START_S (default 30) each daemon start (a loaded host needs more).
# HID_PANELS picks the real touchscreens of scenario 50: all (default), styles (18), or names, comma-separated;
# HID_GESTURED the daemon binary scenario 50 runs (default: the one above; scripts/test.sh gives
# it the release build: the emulated VM's CPU is the tier's limit); SOAK_SCALE the long soak of
# scenario 31 (8×N cycles; docs/testing.md), LIFE_CLIENTS, LIFE_RELOADS and LIFE_PLAYS its clients, reloads
# and recordings a cycle; HID_RECORD the panels whose
# node scenario 50 records with evemu-record (names, comma-separated, or all). TEST_BUNDLE the
# test bundle scenario 7 runs (default: the newer of .build/release's and .build/debug's).
# Ends with the line "vm: N passed, M failed"; exits non-zero if anything failed or the VM
# did not boot. Nothing is ever skipped: a scenario that did not report is a failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
gestured=${GESTURED:-$repo/.build/debug/gestured}
vm_timeout=${VM_TIMEOUT:-3000}
vm_root=${VM_ROOT:-host}
# The guest's memory: Debian 13's root runs Chromium (scenarios 80–82), the host's root at most
# Debian 12's Chromium beside weston (67, 68).
vm_memory=${VM_MEMORY:-$([ "$vm_root" = trixie ] && echo 2G || echo 1G)}

# Which scenarios: all of this root's by default, else those whose number is given.
scenario_root() { sed -n 's/^# root: \([a-z0-9]*\)$/\1/p' "$here/scenarios/$1.sh" | grep . || echo host; }
mapfile -t all < <(cd "$here/scenarios" && ls -1 *.sh | sort -n | sed 's/\.sh$//')
selected=()
if [ $# -eq 0 ]; then
  for s in "${all[@]}"; do
    [ "$(scenario_root "$s")" = "$vm_root" ] && ! grep -q '^# matrix: ' "$here/scenarios/$s.sh" && selected+=("$s")
  done
else
  for want in "$@"; do
    found=
    for s in "${all[@]}"; do [ "${s%%-*}" = "$want" ] && { selected+=("$s"); found=1; }; done
    [ -n "$found" ] || { echo "vm: no scenario numbered '$want' in $here/scenarios" >&2; exit 2; }
  done
  for s in "${selected[@]}"; do
    [ "$(scenario_root "$s")" = "$vm_root" ] || { echo "vm: scenario $s runs in the $(scenario_root "$s") root, not $vm_root (VM_ROOT=$(scenario_root "$s"))" >&2; exit 2; }
  done
fi
[ "${#selected[@]}" -gt 0 ] || { echo "vm: no scenario runs in the $vm_root root" >&2; exit 2; }

finish() { # passed failed
  echo "vm: $1 passed, $2 failed"
  [ "$2" -eq 0 ] && exit 0 || exit 1
}
cannot_run() {
  echo "vm: CANNOT RUN: $*" >&2
  finish 0 "${#selected[@]}"
}

# The guest's root: the host's, or a Debian 13 one (made once per package list, kept; its own
# kernel and modules). in_root CMD...: CMD as the guest's root would run it.
case "$vm_root" in
  host) root= ;;
  trixie) root=$("$here/trixie-root.sh") || cannot_run "no trixie root (Tests/vm/trixie-root.sh failed)" ;;
  *) echo "vm: unknown VM_ROOT '$vm_root' (host, trixie)" >&2; exit 2 ;;
esac
in_root() { if [ -n "$root" ]; then chroot "$root" "$@"; else "$@"; fi; }
have() { in_root sh -c 'command -v "$1"' _ "$1" >/dev/null 2>&1; }

# Everything the VM needs, checked up front so a missing piece is named, not a mystery hang.
for tool in vng qemu-system-x86_64; do
  command -v "$tool" >/dev/null 2>&1 || cannot_run "'$tool' not found (run scripts/deps.sh vm)"
done
for tool in evemu-device evemu-play libinput python3 setpriv strace timeout; do
  have "$tool" || cannot_run "'$tool' not found in the $vm_root root (run scripts/deps.sh vm, or Tests/vm/trixie-root.sh's list)"
done
# The kiosk tier (60–66 in the host's root, 70– in trixie's) needs real compositors and clients;
# it is never skipped for want of one.
if printf '%s\n' "${selected[@]}" | grep -q -- '-kiosk'; then
  case "$vm_root" in
    host) kiosk_tools="cage sway weston wev seatd Xorg xinput Xwayland" ;;
    trixie) kiosk_tools="cage labwc sway weston wayfire wev seatd Xwayland" ;;
  esac
  for tool in $kiosk_tools; do
    have "$tool" || cannot_run "'$tool' not found for the kiosk tier in the $vm_root root (run scripts/deps.sh vm)"
  done
  if [ "$vm_root" = host ]; then
    [ -e /usr/lib/xorg/modules/drivers/dummy_drv.so ] || cannot_run "no Xorg dummy driver (xserver-xorg-video-dummy; run scripts/deps.sh vm)"
    [ -e /usr/lib/xorg/modules/input/libinput_drv.so ] || cannot_run "no xf86-input-libinput (xserver-xorg-input-libinput; run scripts/deps.sh vm)"
  fi
fi
# The browser tier (67 in the host's root, 80– in trixie's) runs a real Chromium under a compositor.
if printf '%s\n' "${selected[@]}" | grep -q -- '-browser'; then
  for tool in chromium weston seatd; do
    have "$tool" || cannot_run "'$tool' not found for the browser tier in the $vm_root root (run scripts/deps.sh vm)"
  done
fi
# The soak (31) stops and starts a real broker.
if printf '%s\n' "${selected[@]}" | grep -q '^31-'; then
  have mosquitto || cannot_run "'mosquitto' not found for the soak (run scripts/deps.sh vm)"
fi
in_root /usr/bin/python3 -c 'import evdev' 2>/dev/null || cannot_run "python3-evdev not found in the $vm_root root (run scripts/deps.sh vm)"
# hid-tools only for the host's root: the trixie root carries the kiosk tier, which makes no HID device.
[ -n "$root" ] || /usr/bin/python3 -c 'import hidtools.uhid' 2>/dev/null || cannot_run "hid-tools not found for /usr/bin/python3 (run scripts/deps.sh vm)"
# The root's own Debian kernel; virtme-ng finds its modules in the root's /lib/modules.
kernel=$(ls -1 "$root"/boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -1)
[ -n "$kernel" ] || cannot_run "no $root/boot/vmlinuz-*-amd64 (install linux-image-amd64)"
[ -x "$gestured" ] || cannot_run "no daemon binary at $gestured (run swift build)"
hid_gestured=
if [ -n "${HID_GESTURED:-}" ]; then
  hid_gestured=$(realpath "$HID_GESTURED")
  [ -x "$hid_gestured" ] || cannot_run "no daemon binary at HID_GESTURED=$HID_GESTURED"
fi

results=$(mktemp -d /tmp/gestured-vm.XXXXXX)
chmod 755 "$results"
echo "vm: root $vm_root${root:+ ($root)}, kernel $kernel, daemon $gestured, scenarios: ${selected[*]}"
echo "vm: results in $results"
start=$(date +%s)

# KVM hangs on this host class, so the VM is emulated (TCG): about 20 s to boot.
# The VM has a virtio GPU: weston 10 (scenario 62) runs only on a DRM device.
# No TTY and no stdin in CI: stdin comes from /dev/null, the guest's output is a plain stream.
# The guest's settings and scenarios go through the shared directory, not the command: virtme
# hands the command to the guest on the kernel's command line, which x86 cuts at 2,048 bytes,
# and a cut command never starts (the whole suite's names and settings passed 2,048 when the
# soak's were added: the guest stalled at boot, twice).
cat > "$results/guest.env" <<ENV
export HID_PANELS='${HID_PANELS:-all}' HID_GESTURED='$hid_gestured' TEST_BUNDLE='${TEST_BUNDLE:-}'
export HID_RECORD='${HID_RECORD:-}' HID_LANES='${HID_LANES:-}'
export SOAK_STROKES='${SOAK_STROKES:-12}' SOAK_SPEED='${SOAK_SPEED:-1}' SOAK_PAUSE='${SOAK_PAUSE:-0.4}' SOAK_SCALE='${SOAK_SCALE:-0}'
export LIFE_CLIENTS='${LIFE_CLIENTS:-25}' LIFE_RELOADS='${LIFE_RELOADS:-4}' LIFE_PLAYS='${LIFE_PLAYS:-1}'
export SCENARIO_TIMEOUT='${SCENARIO_TIMEOUT:-120}' DAEMON_START_S='${DAEMON_START_S:-30}'
ENV
printf '%s\n' "${selected[@]}" > "$results/scenarios"
# Another root than the host's sees of the host only what is shared with it, at the host's paths
# (made in the root as empty mount points): the repository and the binaries under test, read-only,
# and the results.
root_opts=(--rwdir "$results")
if [ -n "$root" ]; then
  root_opts=(--root "$root" --rwdir "$results=$results")
  for dir in "$repo" "$(dirname "$gestured")" ${hid_gestured:+"$(dirname "$hid_gestured")"} ${TEST_BUNDLE:+"$(dirname "$TEST_BUNDLE")"}; do
    root_opts+=(--rodir "$dir=$dir")
  done
  for opt in "${root_opts[@]}"; do case "$opt" in /*=/*) mkdir -p "$root${opt%%=*}" ;; esac; done
fi
run_vm() {
  timeout -k 20 "$vm_timeout" \
    vng --run "$kernel" "${root_opts[@]}" --disable-kvm --memory "$vm_memory" --cpus 2 \
        --qemu-opts=-device --qemu-opts=virtio-gpu-pci \
        -- "bash $here/guest.sh $results $repo $gestured" \
    </dev/null 2>&1 | tee -a "$results/console.log"
  return "${PIPESTATUS[0]}"
}
# A guest that has not started its script BOOT_WAIT s after the VM did is stuck at boot (as with
# the cut command above: qemu idle until the suite's 50 min limit would have ended it). Such a
# VM is stopped and booted again, once, so a stall costs minutes and says so; the second boot
# has no such limit.
boot_wait=${BOOT_WAIT:-300}
stop_tree() { local child; for child in $(pgrep -P "$1"); do stop_tree "$child"; done; kill "$1" 2>/dev/null; }
for attempt in 1 2; do
  run_vm & vm_pid=$!
  waited=0
  while [ "$attempt" = 1 ] && [ ! -f "$results/booted" ] && kill -0 "$vm_pid" 2>/dev/null && [ "$waited" -lt "$boot_wait" ]; do
    sleep 1; waited=$((waited + 1))
  done
  if [ "$attempt" = 2 ] || [ -f "$results/booted" ] || ! kill -0 "$vm_pid" 2>/dev/null; then
    vm_status=0; wait "$vm_pid" || vm_status=$?
    break
  fi
  echo "vm: the guest did not start its script within ${boot_wait} s: the VM is stopped and booted again" | tee -a "$results/console.log" >&2
  stop_tree "$vm_pid"; wait "$vm_pid" 2>/dev/null || true
done
echo "vm: VM exited with status $vm_status after $(( $(date +%s) - start )) s"

if [ ! -f "$results/booted" ]; then
  echo "vm: THE VM DID NOT BOOT (or could not run the guest script). Console output:" >&2
  tail -n 60 "$results/console.log" >&2
  finish 0 "${#selected[@]}"
fi
echo "vm: guest booted after $(cat "$results/booted") s of guest uptime"
[ "$vm_status" = 124 ] && echo "vm: the VM run hit the ${vm_timeout}s limit" >&2

passed=0 failed=0
for s in "${selected[@]}"; do
  d="$results/$s"
  status=$(cat "$d/status" 2>/dev/null || echo "did not report (VM stopped early?)")
  secs="$(cat "$d/seconds" 2>/dev/null || echo "?") s, VM busy $(cat "$d/busy" 2>/dev/null || echo "?") %"
  if [ "$status" = pass ]; then
    passed=$((passed + 1)); echo "PASS $s (${secs})"
  else
    failed=$((failed + 1)); echo "FAIL $s (${secs}): $status"
    for f in log daemon.log; do
      [ -s "$d/$f" ] || continue
      echo "---- $s: $f (last 80 lines) ----"
      tail -n 80 "$d/$f"
    done
    echo "---- end of $s ----"
  fi
done
# The kiosk tier's compatibility table (docs/kiosk.md): what the app saw, per compositor and case.
if compgen -G "$results/*-kiosk-*/kiosk.table" >/dev/null || compgen -G "$results/*-browser-*/kiosk.table" >/dev/null; then
  echo "vm: kiosk tier — what the app saw under each compositor (gestured's default passthrough):"
  echo "| compositor | Debian | version | case | what the app saw |"
  echo "|---|---|---|---|---|"
  cat "$results"/*-kiosk-*/kiosk.table "$results"/*-browser-*/kiosk.table 2>/dev/null
fi
finish "$passed" "$failed"
