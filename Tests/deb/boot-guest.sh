#!/bin/bash
# Inside the VM Tests/deb/boot.sh boots (systemd is PID 1, the package installed, no network but
# loopback): the operator's steps, then what an app and the fleet see. Run once for the package
# and, after `apt-get purge` and `make install`, once more (not with boot.sh's BOOT_PHASES=deb).
# Prints `boot: ok: …`/`boot: FAILED: …` lines and last `boot: N passed, M failed`.
#   boot-guest.sh            (as the unit gestured-e2e.service runs it)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=/var/tmp/e2e
mkdir -p "$work"
passed=0 failed=0
ok() { echo "boot: ok: $*"; passed=$((passed + 1)); }
bad() { echo "boot: FAILED: $*"; failed=$((failed + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; diagnose; fi; }
# After a failure, once per phase: what the service and the system said.
diagnosed=
diagnose() {
  [ -z "$diagnosed" ] || return 0
  diagnosed=1
  { systemctl status --no-pager -l gestured.service; journalctl -q -b -o short-monotonic --no-pager -u gestured.service | tail -n 40
    systemctl status --no-pager gestured-commands.socket; journalctl -q -b --no-pager -u 'gestured-commands@*' | tail -n 20
    cat /run/systemd/generator/gestured.service.d/50-features.conf; ls -l /dev/uinput; } 2>&1 | sed 's/^/boot: | /'
}
wait_until() { local limit=$1; shift; local end=$((SECONDS + limit)); until "$@"; do [ $SECONDS -lt $end ] || return 1; sleep 0.3; done; }
since() { journalctl -q -o cat -u gestured.service --since "@$1"; }
exposure() { systemd-analyze security --no-pager gestured.service | sed -n 's/.*Overall exposure level for gestured.service: \([0-9.]*\).*/\1/p'; }
# exposure_within WHAT: prints the unit's exposure figure; true if it is at most 2.0 (issue 35's
# bound: the unit's sandbox may not loosen as features are added).
exposure_within() {
  local e; e=$(exposure)
  echo "boot: $1: systemd-analyze security gestured.service: ${e:-no figure}"
  awk -v e="$e" 'BEGIN { exit !(e != "" && e + 0 <= 2.0) }'
}

# The config an operator writes: passthrough on the touchscreen, ctrl+r and a command on a
# circle, and the fleet's broker (mosquitto on this machine's loopback).
write_config() {
  cat > /etc/gestured/gestures.toml <<'TOML'
[[device]]
name = "e2e touchscreen"
passthrough = true

[[bind]]
gesture = "circle"
keys = "ctrl+r"

[[bind]]
gesture = "circle"
run = ["/bin/sh", "-c", 'echo "e2e-command uid=$(id -u) groups=$(id -G | tr " " ,) creds=${CREDENTIALS_DIRECTORY:-none} gesture=$GESTURE_NAME"']

[mqtt]
url = "mqtt://127.0.0.1:1883"
TOML
}

# One installation (deb or make): the service as installed, then the operator's config with
# every feature, then what libinput and the broker see.
run_checks() {
  local how=$1 t
  echo "== $how"
  diagnosed=
  check "$how: gestured.service is active as installed" wait_until 30 systemctl is-active -q gestured.service
  check "$how: /dev/uinput is root:gestured-uinput 0660 (the udev rule)" \
    test "$(stat -c '%G %a' /dev/uinput)" = "gestured-uinput 660"

  # Every feature on, first with a reload only: the service keeps running and says what it lacks.
  write_config
  t=$(date +%s); sleep 1
  systemctl reload gestured.service
  check "$how: reload with [mqtt] logs the missing grant and its fix" wait_until 20 \
    bash -c "journalctl -q -o cat -u gestured.service --since @$t | grep -q 'needs the network (\[mqtt\] mqtt://127.0.0.1:1883), which gestured.service is not granted: run .systemctl daemon-reload && systemctl restart gestured.'"
  check "$how: check-config by hand warns of the same" \
    bash -c "gestured check-config --quiet /etc/gestured/gestures.toml 2>&1 | grep -q 'warning: the config needs the network'"
  # A restart without daemon-reload: ExecStartPre refuses, naming the fix.
  t=$(date +%s); sleep 1
  systemctl restart gestured.service 2>/dev/null
  check "$how: restart without daemon-reload fails in ExecStartPre with the fix" wait_until 20 \
    bash -c "journalctl -q -o cat -u gestured.service --since @$t | grep -q 'which gestured.service is not granted: run .systemctl daemon-reload && systemctl restart gestured.'"
  check "$how: gestured doctor names the missing daemon-reload and exits 1" \
    bash -c "gestured doctor --broker-timeout 2 > $work/$how.doctor 2>&1; rc=\$?; [ \$rc = 1 ] && grep -q 'a .systemctl daemon-reload. is missing' $work/$how.doctor || { sed 's/^/boot: | /' $work/$how.doctor; false; }"

  # The fix.
  systemctl daemon-reload && systemctl restart gestured.service
  check "$how: after daemon-reload and restart the service is active" wait_until 30 systemctl is-active -q gestured.service
  check "$how: the generator's drop-in grants uinput, the network and the command runner" \
    grep -qx 'Environment=GESTURED_GRANTS=uinput,network,commands' /run/systemd/generator/gestured.service.d/50-features.conf
  check "$how: systemd-analyze security with every feature is at most 2.0" exposure_within "$how, every feature"

  # The touchscreen, an app (libinput on the seat) and the fleet.
  rm -f "$work/node" "$work/fifo"; mkfifo "$work/fifo"
  python3 "$here/finger.py" "e2e touchscreen" "$work/node" < "$work/fifo" > "$work/finger.log" 2>&1 &
  local finger_pid=$!
  exec 3> "$work/fifo"
  stdbuf -oL libinput debug-events --udev seat0 --show-keycodes > "$work/$how.libinput" 2>&1 &
  local li_pid=$!
  check "$how: libinput reads the clone" wait_until 30 grep -q 'DEVICE_ADDED.*e2e touchscreen (gestured clone)' "$work/$how.libinput"
  check "$how: libinput reads gestured's virtual keyboard" wait_until 10 grep -q 'DEVICE_ADDED.*gestured virtual keyboard' "$work/$how.libinput"
  local clone
  clone=$(grep -m1 'DEVICE_ADDED.*e2e touchscreen (gestured clone)' "$work/$how.libinput" | grep -oE 'event[0-9]+')
  echo "tap 100 60" >&3
  check "$how: a tap passes through the clone ($clone)" wait_until 15 grep -qE "^[ -]$clone +TOUCH_UP" "$work/$how.libinput"
  # An app's client on the package's socket (gestured.socket, root's: mode 0660, no group), as
  # `gestured listen` connects: the circle must reach it.
  stdbuf -oL gestured listen --json --socket /run/gestured/gestured.sock --gesture circle > "$work/$how.listen" 2>&1 &
  local listen_pid=$!
  check "$how: a socket client is connected to /run/gestured/gestured.sock" wait_until 10 \
    bash -c "ls -l /proc/$listen_pid/fd 2>/dev/null | grep -q 'socket:'"
  local circled_at; circled_at=$(date +%s)
  echo "circle 100 60 25 1200" >&3
  check "$how: the circle reaches the socket client" wait_until 30 grep -q '"gesture":"circle"' "$work/$how.listen"
  check "$how: the circle types ctrl+r" wait_until 30 grep -q 'KEY_R (19) released' "$work/$how.libinput"
  # The command ran as the runner's transient user: not the daemon's, without its groups or credentials.
  check "$how: the circle's command ran in gestured-commands@.service" wait_until 30 \
    bash -c "journalctl -q -o cat -u 'gestured-commands@*' --since @$circled_at | grep -q '^e2e-command .*gesture=circle$'"
  local ran daemon_uid input_gid uinput_gid
  ran=$(journalctl -q -o cat -u 'gestured-commands@*' --since "@$circled_at" | grep -m1 '^e2e-command ')
  daemon_uid=$(awk '/^Uid:/ { print $2 }' "/proc/$(systemctl show -P MainPID gestured.service)/status")
  input_gid=$(getent group input | cut -d: -f3)
  uinput_gid=$(getent group gestured-uinput | cut -d: -f3)
  echo "boot: $how: $ran (the daemon's uid $daemon_uid, input $input_gid, gestured-uinput $uinput_gid)"
  local uid groups
  uid=$(sed -n 's/.* uid=\([0-9]*\) .*/\1/p' <<< "$ran")
  groups=,$(sed -n 's/.* groups=\([0-9,]*\) .*/\1/p' <<< "$ran"),
  check "$how: the command's user ($uid) is neither the daemon's nor root" test -n "$uid" -a "$uid" != "$daemon_uid" -a "$uid" != 0
  check "$how: the command has neither the input nor the gestured-uinput group" \
    bash -c '[[ -n "$2" && -n "$3" && "$1" != *,$2,* && "$1" != *,$3,* ]]' _ "$groups" "$input_gid" "$uinput_gid"
  check "$how: the command sees no credentials directory" bash -c '[[ "$1" == *" creds=none "* ]]' _ "$ran"
  local keys
  keys=$(grep -oE 'KEY_[A-Z]+ \([0-9]+\) (pressed|released)' "$work/$how.libinput" | tr '\n' ';')
  check "$how: keys in order: $keys" test "$keys" = "KEY_LEFTCTRL (29) pressed;KEY_R (19) pressed;KEY_R (19) released;KEY_LEFTCTRL (29) released;"
  # Fail closed: the package's udev rule hides the panel from libinput, so while the service
  # is down (killed: the watchdog's or the OOM killer's way) a tap reaches nothing; systemd
  # restarts it (RestartSec=2) and touch comes back through a new clone.
  local node n
  node=$(cat "$work/node")
  check "$how: the panel is hidden from libinput (LIBINPUT_IGNORE_DEVICE=1, the package's udev rule)" \
    test "$(udevadm info --query=property --name="$node" | sed -n 's/^LIBINPUT_IGNORE_DEVICE=//p')" = 1
  check "$how: libinput on the seat never opened the raw panel" \
    bash -c "! grep DEVICE_ADDED '$work/$how.libinput' | grep -v 'gestured clone' | grep -q 'e2e touchscreen'"
  n=$(wc -l < "$work/$how.libinput")
  local killed_at=$EPOCHREALTIME
  systemctl kill -s KILL gestured.service
  check "$how: killed, its clone is gone" wait_until 10 \
    bash -c "tail -n +$((n + 1)) '$work/$how.libinput' | grep -q 'DEVICE_REMOVED.*e2e touchscreen (gestured clone)'"
  echo "tap 100 60" >&3
  sleep 1
  check "$how: a tap while gestured is down reaches no app" \
    bash -c "! tail -n +$((n + 1)) '$work/$how.libinput' | grep -q TOUCH_"
  check "$how: systemd restarts it and libinput reads its new clone" wait_until 60 \
    bash -c "tail -n +$((n + 1)) '$work/$how.libinput' | grep -q 'DEVICE_ADDED.*e2e touchscreen (gestured clone)'"
  # How long the app had no touch: the kill to libinput reading the new clone (polled every 0.3 s).
  echo "boot: $how: touch was gone for $(awk -v a="$killed_at" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s (kill -9 to the new clone)"
  clone=$(tail -n +$((n + 1)) "$work/$how.libinput" | grep -m1 'DEVICE_ADDED.*e2e touchscreen (gestured clone)' | grep -oE 'event[0-9]+')
  echo "tap 100 60" >&3
  check "$how: after the restart a tap passes through the new clone ($clone)" wait_until 15 \
    bash -c "tail -n +$((n + 1)) '$work/$how.libinput' | grep -qE '^[ -]$clone +TOUCH_UP'"
  local status
  status=$(timeout 20 mosquitto_sub -h 127.0.0.1 -C 1 -W 15 -t 'gestured/+/status' 2>&1)
  check "$how: status online retained on the broker (got '$status')" test "$status" = online
  exec 3>&-
  kill "$li_pid" "$finger_pid" "$listen_pid" 2>/dev/null; wait "$li_pid" "$finger_pid" "$listen_pid" 2>/dev/null
}

timeout 120 systemctl is-system-running --wait > /dev/null
echo "boot: booted after $(cut -d' ' -f1 /proc/uptime) s ($(systemctl is-system-running))"
systemctl --failed --no-legend | sed 's/^/boot: failed unit: /' 
check "no network but loopback" test "$(ls /sys/class/net)" = lo
check "the kernel's page size is $(cat "$here/pagesize") bytes ($(uname -r))" test "$(getconf PAGESIZE)" = "$(cat "$here/pagesize")"
check "mosquitto is active" wait_until 30 systemctl is-active -q mosquitto.service

# With no feature the exposure figure of the shipped unit.
cp /etc/gestured/gestures.toml "$work/example.toml"
printf '[[device]]\nname = "none"\n' > /etc/gestured/gestures.toml
systemctl daemon-reload
check "deb: systemd-analyze security with no feature is at most 2.0" exposure_within "deb, no feature"
cp "$work/example.toml" /etc/gestured/gestures.toml
systemctl daemon-reload && systemctl restart gestured.service

run_checks deb

# boot.sh's BOOT_PHASES=deb: the package only (purge and make install are the same on every
# architecture; CI runs them for amd64).
if [ "$(cat "$here/phases" 2>/dev/null)" = deb ]; then
  echo "boot: $passed passed, $failed failed"
  exit 0
fi
echo "== apt-get purge gestured, then make install"
apt-get purge -y -qq gestured > "$work/purge.log" 2>&1 || { bad "apt-get purge"; cat "$work/purge.log"; }
check "purge removes the gestured-uinput and gestured-run groups" bash -c '! getent group gestured-uinput && ! getent group gestured-run'
check "make install" bash -c "make -C /root/src install GESTURED_BIN=/root/src/gestured > $work/make.log 2>&1 || { cat $work/make.log; false; }"
systemctl enable --now gestured.socket gestured.service
run_checks make

echo "boot: $passed passed, $failed failed"
