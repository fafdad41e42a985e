# 66. The panel goes and comes back under a real compositor (issue 48): cage with wev reads the
# clone (the kiosk tier, kiosk.sh); the scripted touchscreen is destroyed with a finger down and
# made again with the same identity. The resting finger's touch ends for wev as the panel goes,
# never as a tap; cage keeps the
# clone open throughout (udev never removes or adds it, so cage never re-adds a device); a tap
# after the return reaches wev through the same clone. check.py judges wev's log.
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
