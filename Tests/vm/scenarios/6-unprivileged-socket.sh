# 6. The daemon runs unprivileged — user gdaemon, groups input and gesture, no capabilities —
# with the socket's group and mode from the config. It still opens the touchscreen (through
# group input), a client in group gesture (client "c") receives the swipe, the bound command runs as
# gdaemon, and a client outside the group is refused by the socket's permissions.
input_gid=$(getent group input | cut -d: -f3)
gesture_gid=$(getent group gesture | cut -d: -f3)
mkdir -p "$WORK/run" "$WORK/actions"
chown gdaemon:gdaemon "$WORK/run"; chmod 755 "$WORK/run"
chmod 777 "$WORK/actions"
SOCK=$WORK/run/gestured.sock
daemon_start "$(config unprivileged)" --reuid=1101 --regid=1101 --groups="$input_gid,$gesture_gid" --inh-caps=-all --bounding-set=-all
grep -q '^Uid:\s*1101\s' "/proc/$DAEMON_PID/status" || die "the daemon is not running as uid 1101: $(grep Uid "/proc/$DAEMON_PID/status")"
grep -q '^CapEff:\s*0*$' "/proc/$DAEMON_PID/status" || die "the daemon has capabilities: $(grep Cap "/proc/$DAEMON_PID/status")"

perm=$(stat -c '%U %G %a' "$SOCK")
say "socket: $perm"
[ "$perm" = "gdaemon gesture 660" ] || die "socket is '$perm', expected 'gdaemon gesture 660'"

client_start c --reuid=1102 --regid=1102 --groups="$gesture_gid"
setpriv --reuid=1103 --regid=1103 --clear-groups -- python3 "$VMDIR/client.py" "$SOCK" "$WORK/other.connected" \
  > "$SDIR/other.jsonl" 2> "$SDIR/other.err"
rc=$?
say "client outside the group: exit $rc, $(cat "$SDIR/other.err")"
[ $rc -eq 3 ] || die "a client outside group gesture was not refused with EACCES (exit $rc: $(cat "$SDIR/other.err"))"

device_add TS "$ISDV4.desc"
wait_daemon_opens "$TS_node"
swipe_right "$TS_node" "device=Wacom ISDv4 E6 Finger"
wait_until 10 grep -q 'GESTURE_NAME=swipe' "$WORK/actions/actions.log" 2>/dev/null || die "the bound command did not run"
cp "$WORK/actions/actions.log" "$SDIR/actions.log"
grep -q ' uid=1101 ' "$WORK/actions/actions.log" || die "the bound command did not run as gdaemon: $(cat "$WORK/actions/actions.log")"
expect_daemon_alive "at the end"
