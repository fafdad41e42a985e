# 21. `gestured doctor` names each fault of an installation made wrong on purpose, with its fix,
# as the service sees it (the running daemon, found through its socket): the daemon as gdaemon
# without group input (it may not open the touchscreen), under a unit that granted nothing (no
# /dev/uinput for passthrough), a broker where none listens; exit status 1. Then the same
# config with the daemon as root, granted uinput, and a libinput client (the compositor)
# reading the clone: every check passes, the clone is named with its reader; exit status 0.
# time-limit: 400
# The emulated VM on a loaded host may take long to start the daemon (scenario 14 saw it).
DAEMON_START_S=120
gesture_gid=$(getent group gesture | cut -d: -f3)
mkdir -p "$WORK/run"
chown gdaemon:gdaemon "$WORK/run"; chmod 755 "$WORK/run"
SOCK=$WORK/run/gestured.sock
conf=$(config doctor)
faulty=$WORK/faulty.toml
{ cat "$conf"; printf '\n[mqtt]\nurl = "mqtt://127.0.0.1:1"\n'; } > "$faulty"
cp "$faulty" "$SDIR/faulty.toml"
device_add TS "$ISDV4.desc"

# The faulty installation.
GESTURED_GRANTS= daemon_start "$faulty" --reuid=1101 --regid=1101 --groups="$gesture_gid" --inh-caps=-all --bounding-set=-all
"$GESTURED" doctor --config "$faulty" --broker-timeout 2 > "$SDIR/doctor-faulty.txt" 2>&1
rc=$?
say "doctor on the faulty installation: exit $rc"; cat "$SDIR/doctor-faulty.txt"
[ $rc -eq 1 ] || die "doctor exited $rc on a faulty installation"
expect_line() {  # FILE TEXT: a line of FILE contains TEXT
  grep -qF -- "$2" "$1" || die "doctor did not say '$2'"
}
expect_line "$SDIR/doctor-faulty.txt" "– checking access as gestured (pid $DAEMON_PID, user gdaemon, groups gesture,gdaemon), under gestured.service, granted nothing"
expect_line "$SDIR/doctor-faulty.txt" "✔ $TS_node \"Wacom ISDv4 E6 Finger\": touchscreen (udev ID_INPUT_TOUCHSCREEN=1), 2 slots, passed through"
expect_line "$SDIR/doctor-faulty.txt" "✖ the service (user gdaemon) may not read $TS_node (root:input 0660)"
expect_line "$SDIR/doctor-faulty.txt" "fix: put the service's user in group input (\`usermod -aG input gdaemon\`"
expect_line "$SDIR/doctor-faulty.txt" "✖ the config needs /dev/uinput (passthrough in [defaults]), which gestured.service is not granted"
expect_line "$SDIR/doctor-faulty.txt" "fix: run \`systemctl daemon-reload && systemctl restart gestured\`"
expect_line "$SDIR/doctor-faulty.txt" "✖ the broker mqtt://127.0.0.1:1 does not accept us: Connection refused"
expect_line "$SDIR/doctor-faulty.txt" "✖ \"Wacom ISDv4 E6 Finger\" is passed through but has no clone"
expect_line "$SDIR/doctor-faulty.txt" "✔ socket $SOCK (gdaemon:gesture 0660): the daemon answers (pid $DAEMON_PID)"
expect_line "$SDIR/doctor-faulty.txt" "✖ $TS_node is not hidden from libinput: while gestured is down (a crash, a restart, an upgrade) the compositor reads the raw panel"
kill "$DAEMON_PID"; wait_until 10 sh -c "! kill -0 $DAEMON_PID 2>/dev/null" || die "the daemon did not stop"

# The package's udev rule (61-gestured-passthrough.rules), pointed at this build and config:
# the touchscreen is hidden from libinput (scenario 23 plays what that means).
rule=/etc/udev/rules.d/61-gestured-passthrough.rules
trap 'rm -f "$rule"; udevadm control --reload' EXIT
sed -e "s|/usr/local/bin/gestured|$GESTURED|" -e "s|/etc/gestured/gestures.toml|$conf|" "$REPO/systemd/61-gestured-passthrough.rules" > "$rule"
udevadm control --reload
udevadm trigger --action=change "$TS_node"
udevadm settle --timeout=30
[ "$(udev_prop "$TS_node" LIBINPUT_IGNORE_DEVICE)" = 1 ] || die "the rule did not hide $TS_node: $(udevadm info --query=property --name="$TS_node" | tr '\n' ' ')"

# Fixed: root, granted uinput; the app (a libinput client) reads the clone.
rm -f "$SOCK"
GESTURED_GRANTS=uinput daemon_start "$conf"
wait_daemon_opens "$TS_node"
wait_until 30 grep -q 'passed through to' "$SDIR/daemon.log" || die "no clone: $(tail -5 "$SDIR/daemon.log")"
udevadm settle --timeout=10
CLONE=$(socket_command '{"status":true}' | sed -n 's|.*"clone":"\([^"]*\)".*|\1|p')
[ -c "$CLONE" ] || die "status shows no clone"
libinput_start app --device "$CLONE"
"$GESTURED" doctor --config "$conf" > "$SDIR/doctor-fixed.txt" 2>&1
rc=$?
say "doctor on the fixed installation: exit $rc"; cat "$SDIR/doctor-fixed.txt"
[ $rc -eq 0 ] || die "doctor exited $rc on the fixed installation"
expect_line "$SDIR/doctor-fixed.txt" "✔ the service may read $TS_node (root:input 0660)"
expect_line "$SDIR/doctor-fixed.txt" "✔ the service may write /dev/uinput"
expect_line "$SDIR/doctor-fixed.txt" "✔ $TS_node is hidden from libinput (LIBINPUT_IGNORE_DEVICE=1)"
# libinput runs its debug-events tool in the same process (exec): comm "libinput-debug-".
expect_line "$SDIR/doctor-fixed.txt" "✔ the clone $CLONE of \"Wacom ISDv4 E6 Finger\" is open by libinput-debug- (pid $app_pid)"
expect_line "$SDIR/doctor-fixed.txt" "all checks passed"
expect_daemon_alive "at the end"
