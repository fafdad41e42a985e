# Helpers for the passthrough scenarios (10–13), sourced by them after lib.sh.

# finger_start: the scripted touchscreen (finger.py) named "Passthrough Touchscreen" (FINGER_NAME
# names another); commands go to it with `finger CMD...`. Sets FINGER_node and FINGER_pid.
finger_start() {
  mkfifo "$WORK/finger.in"
  /usr/bin/python3 "$VMDIR/finger.py" "${FINGER_NAME:-Passthrough Touchscreen}" "$WORK/finger.node" < "$WORK/finger.in" >> "$SDIR/finger.log" 2>&1 &
  FINGER_pid=$!; track "$FINGER_pid"
  exec 7> "$WORK/finger.in"
  wait_until "${FINGER_START_S:-180}" test -s "$WORK/finger.node" || die "finger.py made no device: $(cat "$SDIR/finger.log")"
  FINGER_node=$(cat "$WORK/finger.node")
  udevadm settle --timeout=10
  say "scripted touchscreen at $FINGER_node"
}

# finger_stop: the scripted touchscreen goes as an unplugged panel does (its uinput device is
# destroyed with its process); finger_start makes it again.
finger_stop() {
  exec 7>&-
  kill -TERM "$FINGER_pid" 2>/dev/null
  wait "$FINGER_pid" 2>/dev/null
  rm -f "$WORK/finger.in" "$WORK/finger.node"
  wait_until 10 test ! -e "$FINGER_node" || die "$FINGER_node outlived finger.py"
  say "scripted touchscreen $FINGER_node gone"
}

# passthrough_start [c]: the scripted touchscreen, the daemon with the passthrough config
# (PASSTHROUGH_CONFIG names another, PASSTHROUGH_CONFIG_FILE gives a file made by the scenario)
# and the socket client c if asked; waits until the device is passed through. Sets CLONE (the
# clone's node, from the socket's status).
passthrough_start() {
  SOCK=$WORK/gestured.sock
  finger_start
  daemon_start "${PASSTHROUGH_CONFIG_FILE:-$(config "${PASSTHROUGH_CONFIG:-passthrough}")}"
  [ "${1:-}" = c ] && client_start c
  wait_daemon_opens "$FINGER_node"
  wait_until 30 grep -q 'passed through to' "$SDIR/daemon.log" || die "no clone: $(tail -5 "$SDIR/daemon.log")"
  udevadm settle --timeout=10
  CLONE=$(socket_command '{"status":true}' | sed -n 's|.*"clone":"\([^"]*\)".*|\1|p')
  [ -c "$CLONE" ] || die "status shows no clone: $(socket_command '{"status":true}')"
}

# finger CMD...: runs finger.py commands (one per argument) and waits until they are done.
finger_marks=0
finger() {
  local c
  finger_marks=$((finger_marks + 1))
  for c in "$@"; do echo "$c" >&7; done
  echo "mark $WORK/finger.mark.$finger_marks" >&7
  wait_until 30 test -e "$WORK/finger.mark.$finger_marks" || die "finger.py did not finish: $* ($(cat "$SDIR/finger.log"))"
}

# The app is `libinput_start NAME --device CLONE` (lib.sh); N below is a `libinput_mark NAME`.
# app_since NAME N [EVENT]: libinput's touch lines after line N (of one EVENT type if given).
app_since() {
  tail -n +"$(($2 + 1))" "$SDIR/$1.libinput" | grep -E "${3:-TOUCH_(DOWN|UP|CANCEL|MOTION)}" || true
}

# app_count NAME N [EVENT]: how many (EVENT) lines libinput printed after line N.
app_count() { app_since "$@" | wc -l; }

# app_down_mm NAME N: the millimetres of each TOUCH_DOWN after line N, "x y" per line.
app_down_mm() {
  app_since "$1" "$2" TOUCH_DOWN | sed -n 's|.*( *\([0-9.]*\)/ *\([0-9.]*\)mm).*|\1 \2|p'
}

# near A B TOL: |A - B| <= TOL.
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }

# app_show NAME N: what libinput printed after line N, for failure messages.
app_show() { app_since "$1" "$2" | cut -c1-100 | head -20 | tr '\n' '|'; }

# app_tap NAME X Y [SEEN_X SEEN_Y]: taps at X/Y mm and checks that libinput client NAME got the
# touch, down at SEEN_X/SEEN_Y mm (default X/Y) and up; sets TAP_AT to where it came down
# ("x/y"). Not in $(…): `die` must end the scenario, not a subshell.
app_tap() {
  local name=$1 n x y
  n=$(libinput_mark "$name")
  finger "tap $2 $3"
  wait_until 10 at_least 1 app_count "$name" "$n" TOUCH_UP || die "the tap at $2/$3 mm did not reach $name: $(app_show "$name" "$n")"
  read -r x y <<< "$(app_down_mm "$name" "$n" | head -1)"
  near "$x" "${4:-$2}" 0.3 && near "$y" "${5:-$3}" 0.3 || die "the tap at $2/$3 mm came down at $x/$y mm, not ${4:-$2}/${5:-$3}: $(app_show "$name" "$n")"
  TAP_AT="$x/$y"
}
