# The browser as the kiosk's app (scenario 67), sourced after lib.sh, passthrough.sh and
# kiosk/kiosk.sh, whose daemon start, compositors and case player (kcase) it reuses: Chromium in
# kiosk mode shows Tests/vm/browser/page.html, which logs every event to the console, one line
# "GT <ms> <event> key=value..." each; Chromium prints them on stderr, the tier's app.log.
# browser/check.py judges them per case. How Chromium runs in the emulated VM: docs/kiosk.md.

BROWSER=$VMDIR/browser

# chromium_start: Chromium on the compositor's Wayland socket (XDG, WAYLAND_DISPLAY), as root
# (the VM's weston 10 runs as root: no sandbox), logging the page's console to app.log; waits
# for the page's load line and says how long it took. Without Vulkan and WebGPU (the emulated
# VM has no 3D: Chromium's Dawn probe lost a service and the page never loaded, one start in
# four) and without background networking and component updates (no network in the VM).
chromium_start() {
  mkdir -p "$WORK/chromium"
  : > "$SDIR/app.log"
  local t0=${EPOCHREALTIME/./}
  XDG_RUNTIME_DIR=$XDG WAYLAND_DISPLAY=$1 HOME=$WORK/chromium chromium --ozone-platform=wayland --kiosk \
    --no-first-run --no-sandbox --disable-gpu --disable-features=Vulkan,WebGPU \
    --disable-background-networking --disable-component-update --touch-events=enabled \
    --user-data-dir="$WORK/chromium" --enable-logging=stderr --v=0 ${CHROMIUM_FLAGS:-} \
    "file://$BROWSER/page.html" > "$SDIR/app.log" 2>&1 &
  track $!
  wait_until "${CHROMIUM_LOAD_S:-300}" grep -q '"GT [0-9]* load ' "$SDIR/app.log" \
    || { tail -30 "$SDIR/app.log"; die "Chromium did not load the page within ${CHROMIUM_LOAD_S:-300} s"; }
  CHROMIUM_LOAD_MS=$(( (${EPOCHREALTIME/./} - t0) / 1000 ))
  say "Chromium $(deb_version chromium) loaded the page $((CHROMIUM_LOAD_MS / 1000)).$((CHROMIUM_LOAD_MS % 1000 / 100)) s after its start: $(grep -o 'GT [0-9]* load [^"]*' "$SDIR/app.log")"
  echo "$CHROMIUM_LOAD_MS" > "$SDIR/chromium-load-ms"
}

# browser_weston: weston 10's kiosk-shell as in kiosk_weston (DRM on the virtual GPU, pixman, as
# root), Chromium its one client; warm-up taps below the button until the page sees a touch.
browser_weston() {
  modprobe virtio_gpu || die "no virtio_gpu module"
  wait_until 10 test -e /dev/dri/card0 || die "no /dev/dri/card0 (the VM needs -device virtio-gpu-pci)"
  XDG=$WORK/xdg; mkdir -p "$XDG"; chmod 700 "$XDG"
  XDG_RUNTIME_DIR=$XDG weston --tty=2 --backend=drm-backend.so --use-pixman --shell=kiosk-shell.so \
    --socket=wayland-1 > "$SDIR/compositor.log" 2>&1 &
  COMP_PID=$!; track "$COMP_PID"
  wait_until 60 test -S "$XDG/wayland-1" || { tail -20 "$SDIR/compositor.log"; die "weston made no socket"; }
  chromium_start wayland-1
  browser_ready weston "$(deb_version weston)"
}

# browser_ready NAME VERSION: the compositor has the clone open and the page gets touches.
browser_ready() {
  KIOSK_NAME=$1 KIOSK_VERSION=$2
  wait_until 150 comp_holds "$CLONE" || { comp_show; die "$1 did not open the clone $CLONE within 150 s"; }
  : > "$SDIR/cases.tsv"
  local i
  for i in 1 2 3 4 5 6; do
    grep -q '"GT [0-9]* touchstart ' "$SDIR/app.log" && break
    kcase warm-up "tap 100 100"
  done
  grep -q '"GT [0-9]* touchstart ' "$SDIR/app.log" || die "the page under $1 got no touch: $(grep -o 'GT .*' "$SDIR/app.log" | tail -5)"
  say "Chromium under $1 $2 gets touches"
}

# browser_cases [short]: the cases (each case's expectation is browser/check.py's), then the
# check. The button covers 20–180 mm × 12–60 mm of the 200 × 120 mm screen; below it the page
# scrolls.
browser_cases() {
  local i moves=()
  kcase tap "tap 100 30"
  kcase drag "stroke 0 100 110 100 70 500"
  kcase circle "circle 100 36 20 1200"
  for i in $(seq 1 12); do moves+=("move 0 $((40 + i * 6)) 25" "move 1 $((40 + i * 6)) 45" "sleep 15"); done
  kcase swipe "down 0 40 25" "down 1 40 45" "${moves[@]}" "up 0" "up 1"
  moves=()
  for i in $(seq 1 15); do moves+=("move 0 $((90 - i * 2)) 35" "move 1 $((110 + i * 2)) 35" "sleep 20"); done
  kcase pinch "down 0 90 35" "down 1 110 35" "sleep 50" "${moves[@]}" "up 0" "up 1"
  kcase tap2 "down 0 90 35" "down 1 110 35" "sleep 80" "up 0" "up 1"
  kcase long-press "down 0 100 35" "sleep 1200" "up 0"
  kcase edge "stroke 0 2 60 60 60 400"
  kcase after-gestures "tap 100 30"
  browser_app_fingers
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

browser_check() {
  python3 "$BROWSER/check.py" "$SDIR/app.log" "$SDIR/cases.tsv" "Chromium $(deb_version chromium) on $KIOSK_NAME" \
    "$KIOSK_VERSION" "$SDIR/kiosk.table" || die "what the page saw under $KIOSK_NAME breaks the rules above (browser/check.py)"
}
