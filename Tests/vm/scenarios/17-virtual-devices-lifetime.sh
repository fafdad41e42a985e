# 17. The virtual devices exist only while the configuration needs them: a reload that drops the
# keys binding removes the keyboard and keeps the pointer; SIGTERM removes the pointer; kill -9
# leaves nothing behind either (the kernel destroys a uinput device when its fd closes).
SOCK=$WORK/gestured.sock
conf=$(config output-actions)
daemon_start "$conf"
kbd=$(virtual_node keyboard); ptr=$(virtual_node pointer)
[ -c "$kbd" ] && [ -c "$ptr" ] || die "no virtual devices at start"
grep -v '^keys = ' "$conf" | sed 's/^gesture = "circle"$/gesture = "circle"\nrun = ["true"]/' > "$WORK/no-keys.toml"
cp "$WORK/no-keys.toml" "$conf"
kill -HUP "$DAEMON_PID"
wait_until 10 test ! -e "$kbd" || die "the virtual keyboard $kbd is still there after a reload without keys"
[ -c "$ptr" ] || die "the reload removed the pointer, which a binding still needs"
[ "$(virtual_node pointer)" = "$ptr" ] || die "the reload re-created the pointer instead of keeping it"
[ -z "$(virtual_node keyboard)" ] || die "status still lists a keyboard"
grep -q "virtual keyboard at $kbd destroyed" "$SDIR/daemon.log" || die "the log does not account for the keyboard's removal"
kill -TERM "$DAEMON_PID"
wait_until 10 test ! -e "$ptr" || die "the virtual pointer $ptr outlived the daemon's SIGTERM"
wait_until 10 sh -c "! kill -0 $DAEMON_PID 2>/dev/null" || die "the daemon did not stop"
grep -q "virtual pointer at $ptr destroyed" "$SDIR/daemon.log" || die "the log does not account for the pointer's removal"

rm -f "$SOCK"
cp "$SDIR/output-actions.toml" "$conf"
daemon_start "$conf"
ptr=$(virtual_node pointer)
[ -c "$ptr" ] || die "no virtual pointer after restart"
kill -KILL "$DAEMON_PID"
wait_until 10 test ! -e "$ptr" || die "the virtual pointer $ptr outlived kill -9"
say "virtual devices removed on reload, SIGTERM and kill -9"
