# Helpers for the kiosk tier (scenarios 60–62, 64, 65), sourced after lib.sh and passthrough.sh: a real
# compositor from Debian's packages reads gestured's clone through libinput and shows one real
# client that logs every event it gets (wev on Wayland, `xinput test-xi2 --root` on X11).
# How each compositor runs in the VM: docs/kiosk.md. Each scenario:
#
#   source "$VMDIR/passthrough.sh"; source "$VMDIR/kiosk/kiosk.sh"
#   kiosk_daemon            the scripted touchscreen and gestured (configs/kiosk.toml, defaults)
#   kiosk_cage              (or _sway, _weston, _xorg): compositor + client running
#   kiosk_cases             plays every case, then kiosk/check.py judges what the client logged
#
# The client's log is $SDIR/app.log; each case's lines are recorded in $SDIR/cases.tsv.

KIOSK=$VMDIR/kiosk

# kiosk_daemon [CONFIG [SETTING...]]: finger.py (reporting contact size, for the palm case) and the
# daemon with configs/kiosk.toml (or CONFIG.toml; each SETTING, e.g. 'taken_touch_end = "cancel"',
# added to its device), its socket client c, the clone up (CLONE). Generous
# limits: an emulated VM on a loaded host took over 30 s to start the debug build.
kiosk_daemon() {
  SOCK=$WORK/gestured.sock
  KIOSK_CONFIG=$(config "${1:-kiosk}")
  [ $# -gt 0 ] && shift
  local setting
  for setting in "$@"; do sed -i "s/^delay_fingers = 3\$/&\n$setting/" "$KIOSK_CONFIG"; done
  cp "$KIOSK_CONFIG" "$SDIR/"
  FINGER_SIZE=1 FINGER_START_S=180 finger_start
  DAEMON_START_S=120 daemon_start "$KIOSK_CONFIG"
  CLIENT_START_S=120 client_start c
  wait_until 120 grep -q 'passed through to' "$SDIR/daemon.log" || die "no clone: $(tail -5 "$SDIR/daemon.log")"
  udevadm settle --timeout=10
  CLONE=$(socket_command '{"status":true}' | sed -n 's|.*"clone":"\([^"]*\)".*|\1|p')
  [ -c "$CLONE" ] || die "status shows no clone: $(socket_command '{"status":true}')"
}

# kiosk_seatd: seatd for the unprivileged compositor (cage refuses root) and its runtime dir; one
# seatd serves every compositor a scenario starts in turn (scenario 77).
kiosk_seatd() {
  XDG=$WORK/xdg; mkdir -p "$XDG" "$WORK/home"; chown nobody "$XDG" "$WORK/home"; chmod 700 "$XDG"
  : > "$SDIR/app.log"; chmod 666 "$SDIR/app.log"
  pgrep -x seatd > /dev/null && return 0
  seatd -u nobody -g nogroup > "$SDIR/seatd.log" 2>&1 &
  track $!
  wait_until 10 test -S /run/seatd.sock || die "seatd made no socket: $(cat "$SDIR/seatd.log")"
}

# as_nobody CMD...: the compositor as an unprivileged user, its devices opened through seatd;
# headless output, pixman renderer (WLR_BACKENDS, WLR_RENDERER given pick others), input through
# libinput (wlroots); WAYLAND_DISPLAY given is kept (a client); NOBODY_GROUPS given, its
# supplementary groups (else none). It replaces the calling
# (background) shell, so that `$!` is the compositor's pid (runuser would fork it).
as_nobody() {
  local groups=(--clear-groups)
  [ -z "${NOBODY_GROUPS:-}" ] || groups=(--groups "$NOBODY_GROUPS")
  exec setpriv --reuid=nobody --regid=nogroup "${groups[@]}" -- env -i PATH=/usr/bin:/bin HOME="$WORK/home" XDG_RUNTIME_DIR="$XDG" \
    LIBSEAT_BACKEND=seatd WLR_BACKENDS="${WLR_BACKENDS:-headless,libinput}" WLR_RENDERER="${WLR_RENDERER:-pixman}" \
    WLR_LIBINPUT_NO_DEVICES=1 ${WAYLAND_DISPLAY:+WAYLAND_DISPLAY=$WAYLAND_DISPLAY} "$@"
}

# warm_up_until ERE X Y: warm-up taps at X/Y mm, each its own case (cases.tsv starts anew), until
# the client's log has ERE: six at most; true if it came.
warm_up_until() {
  : > "$SDIR/cases.tsv"
  local i
  for i in 1 2 3 4 5 6; do
    grep -qE "$1" "$SDIR/app.log" && return 0
    kcase warm-up "tap $2 $3"
  done
  grep -qE "$1" "$SDIR/app.log"
}

# kiosk_ready NAME VERSION: waits until the compositor (COMP_PID) has the clone open and the
# client is ready (KIOSK_READY_RE in its log: wev's seat has touch — the compositor adds the
# devices it opened a while later); records the compositor's name, the guest root's Debian release
# and the package's version for the table.
kiosk_ready() {
  KIOSK_NAME=$1 KIOSK_VERSION=$2
  KIOSK_RELEASE=$(. /etc/os-release && echo "$VERSION_ID ($VERSION_CODENAME)")
  wait_until 150 comp_holds "$CLONE" || { comp_show; die "$1 did not open the clone $CLONE within 150 s"; }
  # KIOSK_BEFORE_TOUCH: a command that must hold before the first touch (wayfire's mapped window).
  [ -z "${KIOSK_BEFORE_TOUCH:-}" ] || wait_until 150 "$KIOSK_BEFORE_TOUCH" \
    || { comp_show; die "$1: no '$KIOSK_BEFORE_TOUCH' within 150 s: $(tail -5 "$SDIR/app.log")"; }
  # wlroots queues the devices it opened and adds them at the next input event: a warm-up tap
  # (its own case, checked by the same rules) until wev's seat has touch.
  warm_up_until "${KIOSK_READY_RE:-configure}" 100 60
  kill -0 "$COMP_PID" 2>/dev/null || { tail -20 "$SDIR/compositor.log"; die "$1 exited during the warm-up taps"; }
  grep -qE "${KIOSK_READY_RE:-configure}" "$SDIR/app.log" || { tail -20 "$SDIR/compositor.log"; die "the client under $1 is not ready (no /${KIOSK_READY_RE:-configure}/ in its log): $(tail -5 "$SDIR/app.log")"; }
  nap 1
  comp_holds "$FINGER_node" && say "$1 also opened the grabbed real device $FINGER_node (it must get nothing from it)"
  say "$1 $2 (Debian $KIOSK_RELEASE) is up (pid $COMP_PID), the client logs to app.log"
}

# comp_show: for a failure, the compositor's processes, open input nodes and last log lines.
comp_show() {
  local p
  for p in $COMP_PID $(pgrep -P "$COMP_PID" 2>/dev/null); do
    echo "process $p: $(tr '\0' ' ' < /proc/"$p"/cmdline 2>/dev/null) state $(awk '{print $3}' /proc/"$p"/stat 2>/dev/null)"
    ls -l /proc/"$p"/fd 2>/dev/null | grep -E 'dev/(input|dri)' || true
  done
  tail -20 "$SDIR/compositor.log"
}

comp_holds() {
  local p fd
  for p in $COMP_PID $(pgrep -P "$COMP_PID" 2>/dev/null); do
    for fd in /proc/"$p"/fd/*; do [ "$fd" -ef "$1" ] && return 0; done
  done
  return 1
}

deb_version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo "?"; }

# ---- the compositors ---------------------------------------------------------------------------

# kiosk_cage [CAGE OPTIONS...]: e.g. -r, the output turned 90° clockwise (scenario 65).
kiosk_cage() {
  kiosk_seatd
  wlr_kiosk cage cage "$@" -- sh -c "exec stdbuf -oL wev > $SDIR/app.log 2>&1"
}

# wlr_kiosk NAME CMD...: a wlroots compositor (Debian package NAME) as nobody, up with its client.
wlr_kiosk() {
  local name=$1; shift
  as_nobody "$@" > "$SDIR/compositor.log" 2>&1 &
  COMP_PID=$!; track "$COMP_PID"
  KIOSK_READY_RE="wl_seat\] capabilities: .*touch" kiosk_ready "$name" "$(deb_version "$name")"
}

kiosk_sway() {
  kiosk_seatd
  printf '%s\n' "default_border none" "default_floating_border none" \
    "exec stdbuf -oL wev > $SDIR/app.log 2>&1" > "$WORK/sway.conf"
  chmod 644 "$WORK/sway.conf"
  wlr_kiosk sway sway -c "$WORK/sway.conf"
}

# labwc (Raspberry Pi OS's compositor; wlroots): its own rc.xml maximizes every window without
# server decorations, so wev covers the output as under cage.
kiosk_labwc() {
  kiosk_seatd
  mkdir -p "$WORK/labwc"
  cat > "$WORK/labwc/rc.xml" <<'EOF'
<?xml version="1.0"?>
<labwc_config>
  <windowRules>
    <windowRule identifier="*" serverDecoration="no">
      <action name="Maximize"/>
    </windowRule>
  </windowRules>
</labwc_config>
EOF
  chmod -R a+rX "$WORK/labwc"
  # The client starts only after a tap has made labwc add the devices it opened (wlroots adds them
  # at their first input event): a window mapped before the keyboard was added never got keyboard
  # focus, and the circle's keys reached nobody (scenario 71 at low load, 2026-11-29).
  KIOSK_BEFORE_TOUCH=labwc_client_start wlr_kiosk labwc labwc -C "$WORK/labwc" \
    -s "$(labwc_after_tap "exec stdbuf -oL wev > $SDIR/app.log 2>&1")"
}

# labwc_after_tap COMMAND: labwc's startup command (-s) that runs COMMAND once labwc_client_start
# has tapped (kiosk_labwc's wev, browser_labwc's Chromium).
LABWC_GO=$WORK/labwc/client-may-start
labwc_after_tap() {
  rm -f "$LABWC_GO"
  echo "sh -c 'while [ ! -e $LABWC_GO ]; do sleep 0.2; done; $1'"
}

# labwc_client_start: the tap with no client yet, then the client may start (once).
labwc_client_start() {
  [ -e "$LABWC_GO" ] && return 0
  finger "tap 100 60"
  nap 1
  touch "$LABWC_GO"
}

# wayfire renders only with GLES (no pixman): the DRM backend on the VM's virtio GPU, Mesa's
# software GLES (llvmpipe: the virtio GPU has no 3D), as nobody through seatd. Mesa's EGL opens the
# GPU's nodes itself, not through seatd: nobody is in the groups render and video (as a desktop's
# user is given the nodes by logind; without them: "failed to open /dev/dri/renderD128:
# Permission denied", no EGL, wayfire aborts on `core.renderer`).
# Its config: the autostart plugin starts wev, window-rules maximizes it; no panel or background
# (wf-shell is not installed), no decoration plugin.
kiosk_wayfire() {
  kiosk_drm
  kiosk_seatd
  printf '%s\n' '[core]' 'plugins = autostart window-rules' '[autostart]' 'autostart_wf_shell = false' \
    "app = stdbuf -oL wev > $SDIR/app.log 2>&1" '[window-rules]' 'maximize_all = on created then maximize' > "$WORK/wayfire.ini"
  chmod 644 "$WORK/wayfire.ini"
  # wayfire 0.9.0 segfaulted once when the warm-up taps came before wev's window was mapped (and
  # at other times without: docs/kiosk.md): the first touch waits for the window (wev's keyboard
  # focus), as a kiosk's first touch comes after its app is up.
  wayfire_mapped() { grep -q 'wl_keyboard\] enter' "$SDIR/app.log"; }
  NOBODY_GROUPS=render,video WLR_BACKENDS=drm,libinput WLR_RENDERER=gles2 KIOSK_BEFORE_TOUCH=wayfire_mapped \
    wlr_kiosk wayfire wayfire -c "$WORK/wayfire.ini"
}

# kiosk_drm: the VM's virtio GPU (run.sh gives the VM a virtio-gpu-pci device) as /dev/dri/card0.
kiosk_drm() {
  modprobe virtio_gpu || die "no virtio_gpu module"
  wait_until 10 test -e /dev/dri/card0 || die "no /dev/dri/card0 (the VM needs -device virtio-gpu-pci)"
}

# weston with kiosk-shell: the DRM backend on the VM's virtio GPU, the pixman renderer. Debian 12's
# weston 10 has no libseat launcher: it runs as root on --tty=2. weston 11 dropped that
# (direct) launcher: from there it runs as nobody through seatd, as the wlroots compositors do.
kiosk_weston() {
  kiosk_drm
  local version; version=$(deb_version weston)
  if dpkg --compare-versions "$version" lt 11; then
    XDG=$WORK/xdg; mkdir -p "$XDG"; chmod 700 "$XDG"
    : > "$SDIR/app.log"
    XDG_RUNTIME_DIR=$XDG weston --tty=2 --backend=drm-backend.so --use-pixman --shell=kiosk-shell.so \
      --socket=wayland-1 > "$SDIR/compositor.log" 2>&1 &
    COMP_PID=$!; track "$COMP_PID"
    wait_until 60 test -S "$XDG/wayland-1" || { tail -20 "$SDIR/compositor.log"; die "weston made no socket"; }
    XDG_RUNTIME_DIR=$XDG WAYLAND_DISPLAY=wayland-1 stdbuf -oL wev > "$SDIR/app.log" 2>&1 &
  else
    kiosk_seatd
    as_nobody weston --backend=drm --renderer=pixman --shell=kiosk --socket=wayland-1 > "$SDIR/compositor.log" 2>&1 &
    COMP_PID=$!; track "$COMP_PID"
    wait_until 60 test -S "$XDG/wayland-1" || { tail -20 "$SDIR/compositor.log"; die "weston made no socket"; }
    WAYLAND_DISPLAY=wayland-1 as_nobody sh -c "exec stdbuf -oL wev > $SDIR/app.log 2>&1" &
  fi
  track $!
  KIOSK_READY_RE="wl_seat\] capabilities: .*touch" kiosk_ready weston "$version"
}

# Xorg without a GPU: the dummy video driver, input through xf86-input-libinput (as root).
kiosk_xorg() {
  cat > "$WORK/xorg.conf" <<'EOF'
Section "ServerFlags"
  Option "AutoAddGPU" "false"
EndSection
Section "Device"
  Identifier "dummy"
  Driver "dummy"
  VideoRam 64000
EndSection
Section "Monitor"
  Identifier "monitor"
  HorizSync 5.0-1000.0
  VertRefresh 5.0-200.0
  Modeline "1280x720" 74.25 1280 1390 1430 1650 720 725 730 750 +hsync +vsync
EndSection
Section "Screen"
  Identifier "screen"
  Device "dummy"
  Monitor "monitor"
  DefaultDepth 24
  SubSection "Display"
    Depth 24
    Modes "1280x720"
    Virtual 1280 720
  EndSubSection
EndSection
EOF
  : > "$SDIR/app.log"
  Xorg :1 -config "$WORK/xorg.conf" -logfile "$SDIR/Xorg.log" -noreset -nolisten tcp -novtswitch vt3 \
    > "$SDIR/compositor.log" 2>&1 &
  COMP_PID=$!; track "$COMP_PID"
  wait_until 60 test -S /tmp/.X11-unix/X1 || { tail -20 "$SDIR/Xorg.log"; die "Xorg made no socket"; }
  wait_until 30 sh -c 'DISPLAY=:1 xinput list --short | grep -q "gestured clone"' \
    || die "Xorg has no clone device: $(DISPLAY=:1 xinput list --short 2>&1)"
  DISPLAY=:1 stdbuf -oL xinput test-xi2 --root > "$SDIR/app.log" 2>&1 &
  track $!
  nap 1
  KIOSK_READY_RE="." kiosk_ready Xorg "$(deb_version xserver-xorg-core) (xf86-input-libinput $(deb_version xserver-xorg-input-libinput))"
  KIOSK_READY_RE=
}

# ---- the cases ---------------------------------------------------------------------------------

# kcase NAME FINGER-COMMANDS...: plays one case and records the client's lines it produced:
# from the case's start until the client has been quiet for a second (the emulated VM under
# load delivers late).
kcase() {
  local name=$1 from; shift
  from=$(lines "$SDIR/app.log")
  say "case $name"
  [ $# -gt 0 ] && finger "$@"
  app_quiet
  printf '%s\t%s\t%s\n' "$name" "$from" "$(lines "$SDIR/app.log")" >> "$SDIR/cases.tsv"
}

# app_quiet: waits (at most 30 s) until the client's log has not grown for a second.
app_quiet() {
  local before after=-1 i
  for i in $(seq 1 30); do
    before=$after
    nap 1
    after=$(lines "$SDIR/app.log")
    [ "$after" = "$before" ] && return 0
  done
}

# kiosk_cases [conditioning]: every case, in order (each case's expectation is check.py's), then
# the check; with `conditioning` (scenario 60 only: the rules act below the compositor, and each
# compositor's run would cost 35–60 s more), issue 37's cases before the daemon is stopped.
kiosk_cases() {
  local m moves=() i
  kcase tap "tap 50 30" "sleep 300" "tap 150 90"
  kcase drag "stroke 0 60 60 140 60 500"
  kcase circle "circle 100 60 25 1200"
  moves=()
  for i in $(seq 1 12); do moves+=("move 0 $((60 + i * 6)) 50" "move 1 $((60 + i * 6)) 70" "sleep 15"); done
  kcase swipe "down 0 60 50" "down 1 60 70" "${moves[@]}" "up 0" "up 1"
  moves=()
  for i in $(seq 1 15); do moves+=("move 0 $((90 - i * 2)) 60" "move 1 $((110 + i * 2)) 60" "sleep 20"); done
  kcase pinch "down 0 90 60" "down 1 110 60" "sleep 50" "${moves[@]}" "up 0" "up 1"
  kcase edge "stroke 0 2 60 60 60 400"
  moves=()
  for i in $(seq 1 15); do moves+=("move 0 50 $((40 + i * 3))" "move 1 70 $((40 + i * 3))" "move 2 90 $((40 + i * 3))" "sleep 15"); done
  kcase fingers3 "down 0 50 40" "sleep 150" "down 1 70 40" "sleep 150" "down 2 90 40" "sleep 50" "${moves[@]}" "up 0" "up 1" "up 2"
  kcase after-gestures "tap 100 60"
  # gestured took what it should (its socket client's events, in order, once).
  kiosk_gestures
  [ "${1:-}" = conditioning ] && kiosk_conditioning
  # The clone removed mid-touch: the daemon stopped (SIGTERM) while the app has a touch down.
  local from
  from=$(lines "$SDIR/app.log")
  finger "down 0 100 60" "move 0 110 60" "move 0 120 60"
  nap 1
  kill -TERM "$DAEMON_PID"
  wait_until 10 test ! -e "$CLONE" || die "the clone outlived the stopped daemon"
  nap 1.5
  finger "up 0"
  app_quiet
  printf '%s\t%s\t%s\n' stopped "$from" "$(lines "$SDIR/app.log")" >> "$SDIR/cases.tsv"
  kiosk_check
}

# kiosk_conditioning: issue 37's touch conditioning under the same compositor and client: the
# config reloaded (SIGHUP: the same clone) with ghosts quarantined, palms from 20 mm, the app
# limited to one finger and an idle mode 3 s after the last touch-down. Cases (check.py judges
# what the app saw): a palm-sized contact sliding in from the edge (it would be the edge swipe's:
# no recognizer may see it, the app nothing); a two-finger pinch (no two touches, no tap for the
# app; gestured reports the pinch); a two-finger tap (no tap for the app); four phantoms (down and
# up at one kernel time, as the Pi Touch Display 2's) at 1.2 s intervals, each followed by a real
# tap at the same place (the app gets the four taps, no phantom), then the phantoms go on alone
# and the idle mode must come 3 s after the last real tap, not 3 s after the last phantom.
kiosk_conditioning() {
  sed -i 's/^delay_fingers = 3$/&\nquarantine_ghosts = true\nlongest_ghost_ms = 30\npalm_mm = 20\napp_fingers = 1/' "$KIOSK_CONFIG"
  printf '%s\n' '[[mode]]' 'name = "normal"' 'idle_timeout = 3' 'idle_mode = "idle"' '[[mode]]' 'name = "idle"' >> "$KIOSK_CONFIG"
  cp "$KIOSK_CONFIG" "$SDIR/kiosk-conditioned.toml"
  local reloads m status i t_tap t_last idles
  reloads=$(lines "$SDIR/daemon.log")
  kill -HUP "$DAEMON_PID"
  wait_until 30 sh -c "tail -n +$((reloads + 1)) '$SDIR/daemon.log' | grep -q 'configuration reloaded'" \
    || die "no reload: $(tail -5 "$SDIR/daemon.log")"
  status=$(socket_command '{"status":true}')
  grep -q "\"clone\":\"$CLONE\"" <<< "$status" || die "the reload replaced the clone $CLONE: $status"
  grep -q '"app_fingers":1' <<< "$status" && grep -q '"palm_mm":20' <<< "$status" && grep -q '"ghosts":0' <<< "$status" \
    || die "status after the reload lacks the conditioning: $status"
  m=$(lines "$SDIR/c.jsonl")
  kcase palm "stroke 0 2 60 60 60 400 40"
  ! grep -q '"gesture"' <(tail -n +"$((m + 1))" "$SDIR/c.jsonl") || die "a recognizer saw the palm: $(tail -n +"$((m + 1))" "$SDIR/c.jsonl")"
  m=$(lines "$SDIR/c.jsonl")
  local moves=()
  for i in $(seq 1 15); do moves+=("move 0 $((90 - i * 2)) 60" "move 1 $((110 + i * 2)) 60" "sleep 20"); done
  kcase pinch-app1 "down 0 90 60" "down 1 110 60" "sleep 50" "${moves[@]}" "up 0" "up 1"
  wait_event 10 "$SDIR/c.jsonl" --after "$m" gesture=pinch phase=began
  # A second finger lands beside a still one and both lift unmoved (a two-finger tap): the app's
  # touch, taken within the slop, must not end as a tap (TouchRelay's escape).
  kcase tap2-app1 "down 0 100 60" "sleep 150" "down 1 120 60" "sleep 100" "up 0" "up 1"
  local from
  from=$(lines "$SDIR/app.log")
  say "case ghosts"
  finger "ghost 150 60" "sleep 300" "tap 150 60" "sleep 900" "ghost 150 60" "sleep 300" "tap 150 60" "sleep 900" \
    "ghost 150 60" "sleep 300" "tap 150 60" "sleep 900" "ghost 150 60" "sleep 300"
  # Back to normal just before the last real tap (the idle mode may have come during the cases:
  # the loaded VM took 7 s from a switch to the first phantom once), then the tap.
  idles=$(grep -c 'mode idle (was normal; idle)' "$SDIR/daemon.log" || true)
  socket_command '{"mode":"normal"}' > /dev/null
  finger "tap 150 60"
  # finger.py makes each call's mark file right after its last command: its time is the tap's lift.
  t_tap=$(date -r "$WORK/finger.mark.$finger_marks" +%T.%N)
  for i in $(seq 1 6); do
    nap 0.9
    finger "ghost 150 60"
  done
  t_last=$(date -r "$WORK/finger.mark.$finger_marks" +%T.%N)
  # On time: the daemon logs the change (its log's clock is the VM's) 3 s after the last real
  # touch-down (60 ms before t_tap), while the phantoms still came.
  python3 - "$SDIR/daemon.log" "$t_tap" "$t_last" "$idles" <<'PY' || die "the idle mode did not come on time while phantoms came (above)"
import re, sys
def s(t):
    h, m, x = t.split(":")
    return int(h) * 3600 + int(m) * 60 + float(x[:9])
tap, last = s(sys.argv[2]), s(sys.argv[3])
idle = [s(m.group(1)) for l in open(sys.argv[1]) for m in [re.search(r"(\d\d:\d\d:\d\d\.\d+) .*mode idle \(was normal; idle\)", l)] if m]
idle = idle[int(sys.argv[4]):]
if not idle:
    sys.exit("no idle mode while the phantoms came")
print(f"idle mode {idle[0] - tap:.2f} s after the last real tap (idle_timeout 3 s); the phantoms went on until {last - tap:.2f} s")
sys.exit(0 if 2.0 <= idle[0] - tap <= 5.0 and idle[0] < last else 1)
PY
  app_quiet
  printf '%s\t%s\t%s\n' ghosts "$from" "$(lines "$SDIR/app.log")" >> "$SDIR/cases.tsv"
  status=$(socket_command '{"status":true}')
  grep -q '"ghosts":10,' <<< "$status" || die "status does not count the 10 phantoms: $status"
}

# kiosk_gestures: the daemon recognized the circle, the two-finger swipe, the pinch, the edge swipe
# and the three-finger swipe, in that order (one pass over its socket client's events).
kiosk_gestures() {
  python3 - "$SDIR/c.jsonl" <<'PY' || die "gestured did not recognize the cases' gestures (c.jsonl above)"
import json, sys
want = [("circle", None), ("swipe", 2), ("pinch", None), ("edge_swipe", None), ("swipe", 3)]
seen = []
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e.get("gesture") in ("circle", "swipe", "edge_swipe") and e.get("phase") == "recognized" \
            or e.get("gesture") == "pinch" and e.get("phase") == "began":
        seen.append((e["gesture"], e.get("fingers") if e["gesture"] == "swipe" else None))
print("gestured recognized:", seen)
sys.exit(0 if seen == want else 1)
PY
}

# kiosk_check: check.py's verdict on what the client logged; its rows go to the table.
kiosk_check() {
  local kind=wev
  [ "$KIOSK_NAME" = Xorg ] && kind=xi2
  python3 "$KIOSK/check.py" "$kind" "$SDIR/app.log" "$SDIR/cases.tsv" "$KIOSK_NAME" "$KIOSK_RELEASE" "$KIOSK_VERSION" "$SDIR/kiosk.table" \
    || die "what the app saw under $KIOSK_NAME breaks the rules above (check.py)"
}
