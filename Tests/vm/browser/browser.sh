# The browser as the kiosk's app (scenarios 67, 68, 80–82), sourced after lib.sh, passthrough.sh and
# kiosk/kiosk.sh, whose daemon start, compositors' settings and case player (kcase) it reuses:
# Chromium in kiosk mode shows Tests/vm/browser/page.html, which logs every event to the console,
# one line "GT <ms> <event> key=value..." each; Chromium prints them on stderr, the tier's app.log.
# browser/check.py judges them per case. How Chromium runs in the emulated VM: docs/kiosk.md.
#
#   kiosk_daemon browser; browser_weston (or _cage, _labwc); browser_cases [short]

BROWSER=$VMDIR/browser

# chromium_command: Chromium's command line, its stderr (the page's console) to app.log. Kiosk
# mode, with the network service and the GPU's work in the browser's process
# (NetworkServiceInProcess2, --in-process-gpu): under emulation the browser took more than the 15 s
# a child process waits for its connection, the child gave up ("Terminating current process after
# 15 seconds with no connection") and the page never loaded, in two starts of two under Debian 13's
# cage (2026-11-29). The page's renderer stays a process of its own, as on a kiosk. (With
# --single-process the page loaded, but Chromium crashed after the first pinch.) Without Vulkan
# and WebGPU (the VM has no 3D: Dawn's probe failed), background networking and component updates
# (no network in the VM); no sandbox (as root under Debian 12's weston; unprivileged user
# namespaces are not set up in the VM either). CHROMIUM_FLAGS adds the guards' flags.
chromium_command() {
  echo "exec chromium --ozone-platform=wayland --kiosk --no-first-run --no-sandbox --disable-gpu --in-process-gpu" \
    "--enable-features=NetworkServiceInProcess2 --disable-features=Vulkan,WebGPU --disable-background-networking --disable-component-update" \
    "--touch-events=enabled --user-data-dir=$WORK/home/chromium --enable-logging=stderr --v=0 ${CHROMIUM_FLAGS:-}" \
    "file://$BROWSER/page.html > $SDIR/app.log 2>&1"
}

# chromium_loaded NAME VERSION START: waits (CHROMIUM_LOAD_S a try, default 300 s) for the page's
# load line; a Chromium that did not load it is stopped with its compositor (COMP_PID, BROWSER_PID)
# and START runs again, once: a safety net from before the services ran in the browser's process,
# when a child missed its 15 s to connect in one start in four or five (chromium_command). Says how long
# the loading Chromium took from its start (BROWSER_T0) and records it; then the compositor holds
# the clone and the page gets touches (warm-up taps below the button: wlroots adds the devices it
# opened at the next input event).
chromium_loaded() {
  KIOSK_NAME=$1 KIOSK_VERSION=$2
  KIOSK_RELEASE=$(. /etc/os-release && echo "$VERSION_ID ($VERSION_CODENAME)")
  if ! wait_until "${CHROMIUM_LOAD_S:-300}" grep -q '"GT [0-9]* load ' "$SDIR/app.log"; then
    say "Chromium did not load the page within ${CHROMIUM_LOAD_S:-300} s under $1 (app.log: $(grep -c 'Network service crashed' "$SDIR/app.log") network service crashes): a second start"
    cp "$SDIR/app.log" "$SDIR/app-first-start.log"
    kill ${BROWSER_PID:-} "$COMP_PID" 2>/dev/null
    wait_until 20 sh -c "! kill -0 $COMP_PID 2>/dev/null" || kill -KILL "$COMP_PID" 2>/dev/null
    rm -rf "$WORK/home/chromium"
    "$3"
    wait_until "${CHROMIUM_LOAD_S:-300}" grep -q '"GT [0-9]* load ' "$SDIR/app.log" \
      || { tail -30 "$SDIR/app.log"; tail -10 "$SDIR/compositor.log"; die "Chromium did not load the page in two starts under $1"; }
  fi
  local ms=$(( (${EPOCHREALTIME/./} - BROWSER_T0) / 1000 ))
  echo "$ms" > "$SDIR/chromium-load-ms"
  say "Chromium $(deb_version chromium) under $1 $2 (Debian $KIOSK_RELEASE) loaded the page $((ms / 1000)).$((ms % 1000 / 100)) s after its start: $(grep -o 'GT [0-9]* load [^"]*' "$SDIR/app.log")"
  wait_until 150 comp_holds "$CLONE" || { comp_show; die "$1 did not open the clone $CLONE within 150 s"; }
  chromium_settled
  warm_up_until '"GT [0-9]* touchstart ' 100 100 || die "the page under $1 got no touch: $(grep -o 'GT .*' "$SDIR/app.log" | tail -5)"
}

# chromium_settled: waits (at most 120 s) until Chromium's processes use less than a third of a
# CPU for two seconds in a row: the kiosk's first touch comes after its app is up. In a whole CI
# run here (host load 3–4, another job beside it) the first warm-up taps after the load reached the page not at all, and the
# next one's up came 2.9 s after its down: Chromium, still busy starting, read the 60 ms tap as
# a long press and opened a context menu.
chromium_settled() {
  local t0=$SECONDS quiet=0 before after
  ticks() { local p sum=0; for p in $(pgrep -x chromium); do sum=$((sum + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0))); done; echo "$sum"; }
  before=$(ticks)
  while [ $((SECONDS - t0)) -lt 120 ] && [ "$quiet" -lt 2 ]; do
    sleep 1
    after=$(ticks)
    if [ $((after - before)) -lt 33 ]; then quiet=$((quiet + 1)); else quiet=0; fi
    before=$after
  done
  say "Chromium settled $((SECONDS - t0)) s after the load (CPU under a third for 2 s: $([ "$quiet" -ge 2 ] && echo yes || echo no, 120 s passed))"
}

# browser_weston: weston's kiosk-shell on the VM's virtual GPU as kiosk_weston runs it (Debian 12's
# weston 10 as root; from 11, as nobody through seatd), Chromium its one client.
browser_weston() {
  kiosk_drm
  mkdir -p "$WORK/home"
  dpkg --compare-versions "$(deb_version weston)" lt 11 || kiosk_seatd
  weston_chromium
  chromium_loaded weston "$(deb_version weston)" weston_chromium
}

weston_chromium() {
  BROWSER_T0=${EPOCHREALTIME/./}
  : > "$SDIR/app.log"
  if dpkg --compare-versions "$(deb_version weston)" lt 11; then
    XDG=$WORK/xdg; mkdir -p "$XDG"; chmod 700 "$XDG"
    rm -f "$XDG/wayland-1" "$XDG/wayland-1.lock"
    XDG_RUNTIME_DIR=$XDG weston --tty=2 --backend=drm-backend.so --use-pixman --shell=kiosk-shell.so \
      --socket=wayland-1 > "$SDIR/compositor.log" 2>&1 &
    COMP_PID=$!; track "$COMP_PID"
    wait_until 60 test -S "$XDG/wayland-1" || { tail -20 "$SDIR/compositor.log"; die "weston made no socket"; }
    XDG_RUNTIME_DIR=$XDG WAYLAND_DISPLAY=wayland-1 HOME=$WORK/home sh -c "$(chromium_command)" &
  else
    rm -f "$XDG/wayland-1" "$XDG/wayland-1.lock"
    as_nobody weston --backend=drm --renderer=pixman --shell=kiosk --socket=wayland-1 > "$SDIR/compositor.log" 2>&1 &
    COMP_PID=$!; track "$COMP_PID"
    wait_until 60 test -S "$XDG/wayland-1" || { tail -20 "$SDIR/compositor.log"; die "weston made no socket"; }
    WAYLAND_DISPLAY=wayland-1 as_nobody sh -c "$(chromium_command)" &
  fi
  BROWSER_PID=$!; track "$BROWSER_PID"
}

# browser_cage: cage (headless, pixman, seatd, as nobody) starts Chromium as its one client.
browser_cage() {
  kiosk_seatd
  cage_chromium
  chromium_loaded cage "$(deb_version cage)" cage_chromium
}

cage_chromium() {
  BROWSER_T0=${EPOCHREALTIME/./}
  : > "$SDIR/app.log"
  as_nobody cage -- sh -c "$(chromium_command)" > "$SDIR/compositor.log" 2>&1 &
  COMP_PID=$!; track "$COMP_PID"
}

# browser_labwc: labwc (headless, pixman, seatd, as nobody) with kiosk_labwc's rc.xml (every window
# maximized, no decorations) starts Chromium.
browser_labwc() {
  kiosk_seatd
  mkdir -p "$WORK/labwc"
  printf '%s\n' '<?xml version="1.0"?>' '<labwc_config><windowRules>' \
    '<windowRule identifier="*" serverDecoration="no"><action name="Maximize"/></windowRule>' \
    '</windowRules></labwc_config>' > "$WORK/labwc/rc.xml"
  chmod -R a+rX "$WORK/labwc"
  labwc_chromium
  chromium_loaded labwc "$(deb_version labwc)" labwc_chromium
}

# labwc adds the devices it opened at their first input event, and a window mapped before the
# keyboard was added never gets focus (gestured's keys then reach nobody: kiosk_labwc): Chromium
# starts after a tap, from labwc's startup command.
labwc_chromium() {
  : > "$SDIR/app.log"
  as_nobody labwc -C "$WORK/labwc" -s "$(labwc_after_tap "$(chromium_command)")" > "$SDIR/compositor.log" 2>&1 &
  COMP_PID=$!; track "$COMP_PID"
  wait_until 150 comp_holds "$CLONE" || { comp_show; die "labwc did not open the clone $CLONE within 150 s"; }
  labwc_client_start
  BROWSER_T0=${EPOCHREALTIME/./}
}

# browser_cases [short]: the cases (each case's expectation is browser/check.py's), then the check.
# The button covers 20–180 mm × 12–60 mm of the 200 × 120 mm screen; below it the page scrolls.
# `short` (CI): the gestures gestured takes that Chromium could read as a tap, a context menu or a
# zoom (pinch, two-finger tap, long press) between a tap and a drag, no reload.
browser_cases() {
  local i moves=()
  kcase tap "tap 100 30"
  kcase drag "stroke 0 100 110 100 70 500"
  if [ "${1:-}" != short ]; then
    kcase circle "circle 100 36 20 1200"
    for i in $(seq 1 12); do moves+=("move 0 $((40 + i * 6)) 25" "move 1 $((40 + i * 6)) 45" "sleep 15"); done
    kcase swipe "down 0 40 25" "down 1 40 45" "${moves[@]}" "up 0" "up 1"
  fi
  moves=()
  for i in $(seq 1 15); do moves+=("move 0 $((90 - i * 2)) 35" "move 1 $((110 + i * 2)) 35" "sleep 20"); done
  kcase pinch "down 0 90 35" "down 1 110 35" "sleep 50" "${moves[@]}" "up 0" "up 1"
  kcase tap2 "down 0 90 35" "down 1 110 35" "sleep 80" "up 0" "up 1"
  kcase long-press "down 0 100 35" "sleep 1200" "up 0"
  if [ "${1:-}" != short ]; then
    kcase edge "stroke 0 2 60 60 60 400"
    kcase after-gestures "tap 100 30"
    browser_app_fingers
  else
    kcase after-gestures "tap 100 30"
  fi
  browser_check
}

# browser_app_fingers: the config reloaded (SIGHUP, the same clone) with app_fingers = 1: the page
# must see no pinch at all (no zoom, at most one touch, never a tap).
browser_app_fingers() {
  sed -i 's/^delay_regions = \["edges"\]$/&\napp_fingers = 1/' "$KIOSK_CONFIG"
  cp "$KIOSK_CONFIG" "$SDIR/browser-app1.toml"
  local reloads moves=() i
  reloads=$(lines "$SDIR/daemon.log")
  kill -HUP "$DAEMON_PID"
  wait_until 30 sh -c "tail -n +$((reloads + 1)) '$SDIR/daemon.log' | grep -q 'configuration reloaded'" \
    || die "no reload: $(tail -5 "$SDIR/daemon.log")"
  grep -q '"app_fingers":1' <<< "$(socket_command '{"status":true}')" || die "status after the reload lacks app_fingers"
  for i in $(seq 1 15); do moves+=("move 0 $((90 - i * 2)) 35" "move 1 $((110 + i * 2)) 35" "sleep 20"); done
  kcase pinch-app1 "down 0 90 35" "down 1 110 35" "sleep 50" "${moves[@]}" "up 0" "up 1"
}

# browser_guard_cases: Chromium's own guards (scenario 68, CHROMIUM_FLAGS="--disable-pinch ..."),
# gestured taking nothing of two fingers: a tap clicks; a pinch is the page's two touches, no zoom.
browser_guard_cases() {
  local i moves=()
  kcase tap "tap 100 30"
  for i in $(seq 1 15); do moves+=("move 0 $((90 - i * 2)) 35" "move 1 $((110 + i * 2)) 35" "sleep 20"); done
  kcase pinch-free "down 0 90 35" "down 1 110 35" "sleep 50" "${moves[@]}" "up 0" "up 1"
  browser_check
}

browser_check() {
  python3 "$BROWSER/check.py" "$SDIR/app.log" "$SDIR/cases.tsv" "Chromium on $KIOSK_NAME" "$KIOSK_RELEASE" \
    "$(deb_version chromium) · $KIOSK_VERSION" "$SDIR/kiosk.table" \
    || die "what the page saw under $KIOSK_NAME breaks the rules above (browser/check.py)"
}
