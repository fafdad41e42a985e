# 66. The panel goes and comes back, and the compositor restarts, under a real compositor (issue
# 48): cage with wev reads the
# clone (the kiosk tier, kiosk.sh); the scripted touchscreen is destroyed with a finger down and
# made again with the same identity. The resting finger's touch ends for wev as the panel goes,
# never as a tap; cage keeps the
# clone open throughout (udev never removes or adds it, so cage never re-adds a device); a tap
# after the return reaches wev through the same clone. Then cage restarts (stopped, as a kiosk
# session's unit restarts it or a crash ends it, and started again): it closes the clone and opens
# it again; gestured keeps the clone and its panel throughout, a tap with no compositor reading the
# clone costs the daemon nothing, and a tap after the restart reaches the new wev through the same
# clone, without udev adding a device. check.py judges wev's log before and after the restart.
# time-limit: 600
source "$VMDIR/passthrough.sh"; source "$VMDIR/kiosk/kiosk.sh"
stdbuf -oL udevadm monitor --kernel --subsystem-match=input > "$SDIR/udev.log" 2>&1 &
track $!
kiosk_daemon
clone_sys=$(readlink -f "/sys/class/input/${CLONE##*/}"); clone_sys=${clone_sys#/sys}
kiosk_cage
kcase tap "tap 50 30" "sleep 300" "tap 150 90"

# The panel goes with a finger resting on it that wev has: it ends, and not as a tap.
from=$(lines "$SDIR/app.log")
say "case unplugged"
finger "down 0 100 60"
nap 1
finger_stop
app_quiet
printf '%s\t%s\t%s\n' unplugged "$from" "$(lines "$SDIR/app.log")" >> "$SDIR/cases.tsv"
[ -c "$CLONE" ] || die "the clone went with its panel"

# The same panel back (finger.py again, the same name, ids, axes and contact size).
FINGER_SIZE=1 FINGER_START_S=180 finger_start
wait_until 30 grep -q "back, passed through to its kept clone $CLONE" "$SDIR/daemon.log" \
  || die "the panel did not take its kept clone: $(grep -E 'passed through|clone' "$SDIR/daemon.log" | tail -3)"
kcase after-replug "tap 100 60"
comp_holds "$CLONE" || { comp_show; die "cage no longer holds the clone $CLONE"; }
grep -q " remove .*$clone_sys " "$SDIR/udev.log" && die "udev saw the clone removed: $(grep "$clone_sys" "$SDIR/udev.log")"
say "cage kept the clone $CLONE open through the replug; the tap after it reached wev"
kiosk_check

# The compositor restarts. What the first cage's wev saw is judged above and kept aside.
for f in app.log cases.tsv kiosk.table; do mv "$SDIR/$f" "$SDIR/before-restart.$f"; done
say "case compositor restart: cage stopped"
udev_from=$(lines "$SDIR/udev.log")
# As systemd stops a kiosk session's unit: SIGTERM to its processes, the compositor and its client
# (cage 0.1.4 aborts on SIGTERM, in wl_display_terminate: it ends either way).
kill -TERM "$COMP_PID" $(pgrep -x wev) 2>/dev/null; wait "$COMP_PID" 2>/dev/null || true
# (A wev that ended is a zombie until the guest's init reaps it: only a live one counts.)
wait_until 20 sh -c "! pgrep -r R,S,D,T -x wev >/dev/null" || die "wev did not stop: $(ps -o pid,stat,args -C wev)"
comp_holds "$CLONE" && die "the stopped cage still holds the clone"
[ -c "$CLONE" ] && kill -0 "$DAEMON_PID" || die "the clone or the daemon went with the compositor"
from=$(lines "$SDIR/daemon.log")
finger "tap 100 60"
nap 1
tail -n +"$((from + 1))" "$SDIR/daemon.log" | grep -iE 'error|warning' && die "a tap with no compositor on the clone made the daemon complain (above)"
wlr_kiosk cage cage -- sh -c "exec stdbuf -oL wev > $SDIR/app.log 2>&1"
kcase tap "tap 50 30" "sleep 300" "tap 150 90"
kcase after-restart "tap 100 60"
comp_holds "$CLONE" || { comp_show; die "the restarted cage does not hold the clone $CLONE"; }
tail -n +"$((udev_from + 1))" "$SDIR/udev.log" | grep -qE " (add|remove) .*$clone_sys " && die "udev saw the clone come or go: $(grep "$clone_sys" "$SDIR/udev.log")"
say "cage restarted on the same clone $CLONE; the tap after it reached the new wev"
kiosk_check
cat "$SDIR/before-restart.kiosk.table" "$SDIR/kiosk.table" > "$SDIR/kiosk.table.all" && mv "$SDIR/kiosk.table.all" "$SDIR/kiosk.table"
