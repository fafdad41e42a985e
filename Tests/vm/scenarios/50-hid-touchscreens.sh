# 50. Real touchscreens through the kernel's own hid-multitouch driver: each panel of
# Tests/Fixtures/hid-touchscreens/ is made through /dev/uhid from its real report descriptor
# (Tests/vm/hid-panel.py), the daemon is started on it, and the gesture script is played
# (Tests/vm/hid-gestures.py): circle, checkmark, 1–4-finger taps, 3- and 4-finger swipes in four
# directions (where the panel reports that many contacts), pinch, rotate, an edge swipe, a long
# press, an unplug in the middle of a pan (pan cancelled); with passthrough on for the panels in
# PASSTHROUGH, the one-finger tap must reach `libinput debug-events` on the clone. Ends with
# the per-panel table (also in $SDIR/table.md); any failed cell fails the scenario.
# HID_PANELS: "ci" (default, CI_PANELS below), "all", or panel names separated by commas.
# time-limit: 900
# One panel of each reporting style: one contact per report without a contact count (slot
# ids / arbitrary ids / 2 contacts), two per report in hybrid mode (pen and mouse nodes
# beside; contact-number slots; slot+1 ids), four, five and ten per report, and panels that
# report no physical size.
CI_PANELS="Egalax_capacitive_0eef_72fa Data_modul_7374_1232 Ideacom_1cb6_6651 n_trig_1b96_0f00
  Pixart_093a_8002 Asus_computers_0486_0185 Lumio_202e_0006 advanced_silicon_2149_2306
  3m_0596_0500 Zytronic_14c8_0006"
PASSTHROUGH=" Egalax_capacitive_0eef_72fa n_trig_1b96_0f00 3m_0596_0500 "
FIXTURE=$REPO/Tests/Fixtures/hid-touchscreens/touchscreens.json
PY=/usr/bin/python3

modprobe uhid || die "modprobe uhid failed"
modprobe hid-multitouch || die "modprobe hid-multitouch failed"
test -c /dev/uhid || die "no /dev/uhid after modprobe uhid"

case ${HID_PANELS:-ci} in
  all) panels=$($PY -c 'import json, sys; print(" ".join(p["name"] for p in json.load(open(sys.argv[1]))))' "$FIXTURE") ;;
  ci) panels=$CI_PANELS ;;
  *) panels=${HID_PANELS//,/ } ;;
esac
mkdir -p "$SDIR/panels"
# One hid-panel.py for the whole run (its imports take most of a minute here); commands go
# to it through a FIFO, from here and from hid-gestures.py.
mkfifo "$WORK/panel.in"
$PY "$VMDIR/hid-panel.py" "$FIXTURE" < "$WORK/panel.in" > "$SDIR/hid-panel.log" 2>&1 &
panel_pid=$!; track "$panel_pid"
exec 8> "$WORK/panel.in"
failed=0 i=0

for p in $panels; do
  i=$((i + 1)); t0=$(date +%s)
  say "panel $i: $p"
  info=$WORK/panel-$i.json
  echo "create $p $info" >&8
  wait_until $(( i == 1 ? 240 : 60 )) test -s "$info" || die "hid-panel.py made no device for $p: $(tail -5 "$SDIR/hid-panel.log")"
  udevadm settle --timeout=10
  node=$(sed -n 's/.*"node": "\([^"]*\)".*/\1/p' "$info")
  say "$p: $(cat "$info")"

  SOCK=$WORK/gestured-$i.sock
  conf=$WORK/hid-$i.toml
  printf '[socket]\npath = "%s"\n' "$SOCK" > "$conf"
  # A panel with no physical size: the daemon is told the size the gestures are played on.
  if grep -q '"width_mm": null' "$info"; then
    printf '\n[[device]]\nname = "uhid %s*"\nsize_mm = [%s]\n' "$p" \
      "$(sed -n 's/.*"assumed_mm": \[\([^]]*\)\].*/\1/p' "$info")" >> "$conf"
  fi
  app=()
  case $PASSTHROUGH in *" $p "*) printf '\n[[device]]\nname = "uhid %s*"\npassthrough = true\n' "$p" >> "$conf" ;; esac
  cp "$conf" "$SDIR/panels/$p.toml"
  log_mark=$(lines "$SDIR/daemon.log" 2>/dev/null || echo 0)
  daemon_start "$conf"
  wait_daemon_opens "$node"
  case $PASSTHROUGH in *" $p "*)
    wait_until 30 bash -c "tail -n +$((log_mark + 1)) '$SDIR/daemon.log' | grep -q 'passed through to'" \
      || die "$p: no clone: $(tail -3 "$SDIR/daemon.log")"
    udevadm settle --timeout=10
    clone=$(socket_command '{"status":true}' | sed -n 's|.*"clone":"\([^"]*\)".*|\1|p')
    [ -c "$clone" ] || die "$p: status shows no clone"
    libinput_start "app$i" --device "$clone"
    app=("$SDIR/app$i.libinput") ;;
  esac

  $PY "$VMDIR/hid-gestures.py" "$SOCK" "$WORK/panel.in" "$info" "$SDIR/panels/$p.json" "${app[@]}" \
    > "$SDIR/panels/$p.gestures.log" 2>&1 || failed=$((failed + 1))
  sed "s/^/  $p: /" "$SDIR/panels/$p.gestures.log"
  [ -s "$SDIR/panels/$p.json" ] || die "$p: the gesture script did not finish"

  expect_daemon_alive "after $p"
  kill -TERM "$DAEMON_PID"
  wait_until 10 bash -c "! kill -0 $DAEMON_PID 2>/dev/null" || die "the daemon did not stop on SIGTERM ($p)"
  kill -0 "$panel_pid" 2>/dev/null || die "hid-panel.py died: $(tail -5 "$SDIR/hid-panel.log")"
  if [ ${#app[@]} -gt 0 ]; then v=app${i}_pid; kill "${!v}"; fi
  say "panel $p took $(( $(date +%s) - t0 )) s"
done

exec 8>&-
$PY "$VMDIR/hid-gestures.py" --table "$SDIR"/panels/*.json > "$SDIR/table.md"
cat "$SDIR/table.md"
[ "$failed" = 0 ] || die "$failed of $i panels failed a gesture (table above)"
