# 50. Real touchscreens through the kernel's own hid-multitouch driver: each panel of
# Tests/Fixtures/hid-touchscreens/ is made through /dev/uhid from its real report descriptor
# (Tests/vm/hid-panel.py) and plugged in while the daemon runs, and the gesture script is played
# (Tests/vm/hid-gestures.py): circle, checkmark, 1–4-finger taps, 3- and 4-finger swipes in four
# directions (where the panel reports that many contacts), pinch, rotate, an edge swipe, a long
# press, an unplug in the middle of a pan (pan cancelled); with passthrough on for the panels in
# PASSTHROUGH, the one-finger tap must reach `libinput debug-events` on the clone. Ends with
# the per-panel table (also in $SDIR/table.md); any failed cell not in KNOWN_FAILURES fails the scenario.
# HID_PANELS: "ci" (default, CI_PANELS below), "all", or panel names separated by commas.
# time-limit: 1500
# CI plays one panel of each reporting style (all 45: HID_PANELS=all, ≈ 20 minutes on a quiet
# host, 33 at load 3–11):
# one contact per report without a contact count, ids = slots (eGalax) or arbitrary (Data
# Modul); two per report in hybrid mode with pen and mouse nodes beside (N-Trig); 2 contacts
# with contact-number slots (Pixart) or ids = slot + 1 and a mouse node (Asus); four per report
# (Lumio); ten per report with no physical size (3M, Zytronic).
CI_PANELS="Egalax_capacitive_0eef_72fa Data_modul_7374_1232 n_trig_1b96_0f00 Pixart_093a_8002
  Asus_computers_0486_0185 Lumio_202e_0006 3m_0596_0500 Zytronic_14c8_0006"
PASSTHROUGH="Egalax_capacitive_0eef_72fa n_trig_1b96_0f00 3m_0596_0500"
# Cells known to fail, each with its issue ("PANEL:GESTURE" separated by spaces): the scenario
# fails on any other failed cell, and on a known one that passes (so the list cannot outlive
# the bug).
KNOWN_FAILURES=""
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
panels=$(echo $panels)  # one line
mkdir -p "$SDIR/panels"
# One hid-panel.py for the whole run (its imports take most of a minute here); commands go
# to it through a FIFO, from here and from hid-gestures.py.
mkfifo "$WORK/panel.in"
$PY "$VMDIR/hid-panel.py" "$FIXTURE" < "$WORK/panel.in" > "$SDIR/hid-panel.log" 2>&1 &
panel_pid=$!; track "$panel_pid"
exec 8> "$WORK/panel.in"

# One daemon for the run; the panels are plugged in one after another.
SOCK=$WORK/gestured.sock
printf '[socket]\npath = "%s"\n' "$SOCK" > "$WORK/hid.toml"
echo "config $WORK/hid.toml $panels passthrough $PASSTHROUGH" >&8
echo "mark $WORK/config.done" >&8
wait_until 240 test -e "$WORK/config.done" || die "hid-panel.py wrote no config: $(tail -5 "$SDIR/hid-panel.log")"
cp "$WORK/hid.toml" "$SDIR/hid.toml"
# Started right after hid-panel.py's imports, on a busy host the debug build can take over 30 s.
DAEMON_START_S=90 daemon_start "$WORK/hid.toml"

failed=0 i=0
for p in $panels; do
  i=$((i + 1)); t0=$(date +%s)
  say "panel $i: $p"
  info=$WORK/panel-$i.json
  echo "create $p $info" >&8
  wait_until 60 test -s "$info" || die "hid-panel.py made no device for $p: $(tail -5 "$SDIR/hid-panel.log")"
  node=$(sed -n 's/.*"node": "\([^"]*\)".*/\1/p' "$info")
  say "$p: $(cat "$info")"
  # Hotplug under emulation on a busy host can take longer than lib.sh's 20 s.
  wait_until 60 daemon_holds "$node" || { expect_daemon_alive "waiting for it to open $node"; die "the daemon did not open $p ($node) within 60 s"; }
  app=()
  case " $PASSTHROUGH " in *" $p "*)
    clone=
    for _ in $(seq 1 30); do
      clone=$(socket_command '{"status":true}' | sed -n 's|.*"clone":"\([^"]*\)".*|\1|p')
      [ -c "$clone" ] && break
      sleep 1
    done
    [ -c "$clone" ] || die "$p: status shows no clone: $(socket_command '{"status":true}' | cut -c1-300)"
    udevadm settle --timeout=10
    libinput_start "app$i" --device "$clone"
    app=("$SDIR/app$i.libinput") ;;
  esac

  DAEMON_LOG=$SDIR/daemon.log $PY "$VMDIR/hid-gestures.py" "$SOCK" "$WORK/panel.in" "$info" "$SDIR/panels/$p.json" "${app[@]}" \
    > "$SDIR/panels/$p.gestures.log" 2>&1
  sed "s/^/  $p: /" "$SDIR/panels/$p.gestures.log"
  [ -s "$SDIR/panels/$p.json" ] || die "$p: the gesture script did not finish"
  # Failed cells against the known ones: each unexpected failure, and each known one that passed.
  surprises=$($PY - "$SDIR/panels/$p.json" "$p" $KNOWN_FAILURES <<'PY'
import json, sys
results, panel = json.load(open(sys.argv[1])), sys.argv[2]
known = {k.split(":", 1)[1] for k in sys.argv[3:] if k.split(":", 1)[0] == panel}
for g, v in results.items():
    if g == "_info": continue
    failed = str(v).startswith("FAIL")
    if failed and g not in known: print(f"{g} failed")
    if not failed and g in known: print(f"{g} is a known failure but passed: remove it from KNOWN_FAILURES")
for g in known - results.keys(): print(f"{g} is a known failure but was not played")
PY
)
  [ -z "$surprises" ] || { failed=$((failed + 1)); echo "$surprises" | sed "s/^/  $p: /"; }
  expect_daemon_alive "after $p"
  wait_until 10 bash -c "! ls -l /proc/$DAEMON_PID/fd/ | grep -q '/dev/input/.*(deleted)'" \
    || die "the daemon still holds the unplugged $p open"
  kill -0 "$panel_pid" 2>/dev/null || die "hid-panel.py died: $(tail -5 "$SDIR/hid-panel.log")"
  if [ ${#app[@]} -gt 0 ]; then v=app${i}_pid; kill "${!v}"; fi
  say "panel $p took $(( $(date +%s) - t0 )) s"
done

exec 8>&-
$PY "$VMDIR/hid-gestures.py" --table "$SDIR"/panels/*.json > "$SDIR/table.md"
cat "$SDIR/table.md"
say "known failures: ${KNOWN_FAILURES:-none}"
[ "$failed" = 0 ] || die "$failed of $i panels failed a gesture not known to fail, or passed one that is (table above)"
