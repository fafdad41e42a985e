# 50. Real touchscreens through the kernel's own hid-multitouch driver: each panel of
# Tests/Fixtures/hid-touchscreens/ is made through /dev/uhid from its real report descriptor
# (Tests/vm/hid-panel.py) and plugged in while the daemon runs, and the gesture script is played
# (Tests/vm/hid-gestures.py): circle, checkmark, 1–4-finger taps, 3- and 4-finger swipes in four
# directions (where the panel reports that many contacts), pinch, rotate, an edge swipe, a long
# press, an unplug in the middle of a pan (pan cancelled); with passthrough on for the panels in
# PASSTHROUGH, the one-finger tap must reach `libinput debug-events` on the clone. The palm
# case, on every panel that reports contact size (HID Width: ABS_MT_TOUCH_MAJOR; palm_mm on for
# them): a palm-sized tap reaches neither a recognizer nor the app (libinput on the clone, where
# passed through) and is counted in `status`, a finger-sized tap reaches both; the other panels
# say why they have no palm case. Ends with the per-panel table (also in $SDIR/table.md); any
# failed cell not in KNOWN_FAILURES fails the scenario.
# HID_PANELS: "all" (default: the 45 panels, as CI runs it), "styles" (STYLE_PANELS below), or
# panel names separated by commas. HID_LANES: panels played at once (default 5).
# time-limit: 1500
# STYLE_PANELS, 18 panels: every reporting style, and every panel of the style that broke
# multi-finger gestures (a quicker run while working on the tier).
# One contact per report without a contact count, ids = slots (eGalax 72fa) or arbitrary (the
# other eGalax, Data Modul, Atmel 211c, Ideacom); two per report in hybrid mode with pen and
# mouse nodes beside (N-Trig), or with 8 contacts (E4); 2 contacts with contact-number slots
# (Pixart) or ids = slot + 1 and a mouse node (Asus); three per report with 31 contacts
# (Irtouch); four per report (Lumio, Elo; Cvtouch with 2 contacts); six per report (3M 051c);
# ten per report (ElanXPS9360; 3M 0500 and Zytronic with no physical size).
STYLE_PANELS="Egalax_capacitive_0eef_72fa Egalax_capacitive_0eef_7337 Egalax_capacitive_0eef_73f4
  Data_modul_7374_1232 Atmel_03eb_211c Ideacom_1cb6_6651 n_trig_1b96_0f00 E4_2219_044c
  Pixart_093a_8002 Asus_computers_0486_0185 Irtouch_6615_0081 Lumio_202e_0006
  Elo_touchsystems_04e7_0080 Cvtouch_1ff7_0017 3m_0596_051c ElanXPS9360 3m_0596_0500
  Zytronic_14c8_0006"
PASSTHROUGH="Egalax_capacitive_0eef_72fa n_trig_1b96_0f00 3m_0596_0500"
# Cells known to fail, each with its issue ("PANEL:GESTURE" separated by spaces): the scenario
# fails on any other failed cell, and on a known one that passes (so the list cannot outlive
# the bug).
KNOWN_FAILURES=""
FIXTURE=$REPO/Tests/Fixtures/hid-touchscreens/touchscreens.json
PY=/usr/bin/python3

# Where the VM's CPU time goes (the tier is CPU-bound in the emulated VM): the VM's totals
# from /proc/stat at the start and end, each process's own from its /proc/PID/stat.
cpu_start=$(head -1 /proc/stat)
cpu_seconds() { awk -v t="$(getconf CLK_TCK)" '{ printf "%.1f", ($14 + $15 + $16 + $17) / t }' "/proc/$1/stat" 2>/dev/null || echo "?"; }
cpu_report() {
  local k v p="" g=""
  for k in $(seq 1 "$lanes"); do
    v=panel${k}_pid; p="$p $(cpu_seconds "${!v}")"
    v=gestures${k}_pid; g="$g $(cpu_seconds "${!v}")"
  done
  say "cpu seconds: daemon $(cpu_seconds "$DAEMON_PID"), hid-panel.py$p, hid-gestures.py$g, this script with the processes it waited for $(cpu_seconds $$)"
  { echo "$cpu_start"; head -1 /proc/stat; } | awk -v t="$(getconf CLK_TCK)" '
    NR == 1 { for (i = 2; i <= 9; i++) a[i] = $i }
    NR == 2 { for (i = 2; i <= 9; i++) d[i] = ($i - a[i]) / t
              all = 0; for (i = 2; i <= 9; i++) all += d[i]
              printf "cpu of the VM: %.0f s in all: user %.0f, system %.0f, irq+softirq %.0f, idle %.0f, iowait %.0f\n",
                     all, d[2] + d[3], d[4], d[7] + d[8], d[5], d[6] }'
}

modprobe uhid || die "modprobe uhid failed"
modprobe hid-multitouch || die "modprobe hid-multitouch failed"
test -c /dev/uhid || die "no /dev/uhid after modprobe uhid"

case ${HID_PANELS:-all} in
  all) panels=$($PY -c 'import json, sys; print(" ".join(p["name"] for p in json.load(open(sys.argv[1]))))' "$FIXTURE") ;;
  styles) panels=$STYLE_PANELS ;;
  *) panels=${HID_PANELS//,/ } ;;
esac
panels=$(echo $panels)  # one line
mkdir -p "$SDIR/panels"
# Panels are played HID_LANES at a time, each lane its own player (hid-panel.py: its own uhid
# device) with its own panel, judged by that device's events only. The players are forked from
# one hid-panel.py after its imports (most of a minute of the emulated VM's CPU, done once).
# Each panel is taken from a queue by whichever lane is free.
lanes=${HID_LANES:-5}
players=() redirects=()
for k in $(seq 1 "$lanes"); do
  mkfifo "$WORK/panel$k.in"
  players+=("$((2 + k)):$SDIR/hid-panel$k.log:$WORK/panel$k.pid")
  redirects+=("$((2 + k))<\"\$WORK/panel$k.in\"")
done
eval "\$PY \"\$VMDIR/hid-panel.py\" \"\$FIXTURE\" \"\${players[@]}\" ${redirects[*]} > \"\$SDIR/hid-panel.log\" 2>&1 &"
track $!
for k in $(seq 1 "$lanes"); do
  eval "exec $((10 + k))> \"\$WORK/panel$k.in\""
done

# One daemon for the run; the panels are plugged in while it runs.
SOCK=$WORK/gestured.sock
printf '[socket]\npath = "%s"\n' "$SOCK" > "$WORK/hid.toml"
echo "config $WORK/hid.toml $panels passthrough $PASSTHROUGH" >&11
echo "mark $WORK/config.done" >&11
wait_until 240 test -e "$WORK/config.done" || die "hid-panel.py wrote no config: $(tail -5 "$SDIR/hid-panel1.log")"
cp "$WORK/hid.toml" "$SDIR/hid.toml"
for k in $(seq 2 "$lanes"); do
  echo "mark $WORK/lane$k.ready" >&$((10 + k))
done
# One hid-gestures.py a lane, to judge its panels by the daemon's events.
for k in $(seq 1 "$lanes"); do
  mkfifo "$WORK/gestures$k.in" "$WORK/judged$k"
  eval "exec $((30 + k))<> \"\$WORK/judged$k\""
  KNOWN_FAILURES=$KNOWN_FAILURES DAEMON_LOG=$SDIR/daemon.log \
    $PY "$VMDIR/hid-gestures.py" --serve "$SOCK" "$WORK/panel$k.in" "$WORK/judged$k" < "$WORK/gestures$k.in" > "$SDIR/hid-gestures$k.log" 2>&1 &
  track $!; printf -v "gestures${k}_pid" %s $!
  eval "exec $((20 + k))> \"\$WORK/gestures$k.in\""
done
# Started right after hid-panel.py's imports, on a busy host the debug build can take over 30 s.
# HID_GESTURED (run.sh): another build of the daemon for this scenario (CI: the release build).
GESTURED=${HID_GESTURED:-$GESTURED}
say "daemon binary $GESTURED"
DAEMON_START_S=90 daemon_start "$WORK/hid.toml"
for k in $(seq 1 "$lanes"); do
  [ "$k" = 1 ] || wait_until 240 test -e "$WORK/lane$k.ready" || die "hid-panel.py of lane $k did not start: $(tail -5 "$SDIR/hid-panel$k.log")"
  read -r "panel${k}_pid" < "$WORK/panel$k.pid"
  v=panel${k}_pid; track "${!v}"
done

printf '%s\n' $panels > "$WORK/queue"
next_panel() {
  ( flock 9; p=$(head -n 1 "$WORK/queue"); [ -z "$p" ] || sed -i 1d "$WORK/queue"; echo "$p" ) 9> "$WORK/queue.lock"
}

# play_panel LANE N PANEL: plugs PANEL in on LANE's hid-panel.py, plays the script, unplugs it;
# false if a cell failed that is not a known failure (or a known one passed).
play_panel() {
  local k=$1 n=$2 p=$3 t0 info node clone surprises fifo=$WORK/panel$1.in fd=$((10 + $1))
  t0=$(date +%s)
  say "lane $k, panel $n: $p"
  info=$WORK/panel-$p.json
  echo "create $p $info" >&$fd
  wait_until 60 test -s "$info" || die "hid-panel.py made no device for $p: $(tail -5 "$SDIR/hid-panel$k.log")"
  node=$(sed -n 's/.*"node": "\([^"]*\)".*/\1/p' "$info")
  say "$p: $(cat "$info")"
  # Hotplug under emulation on a busy host can take longer than lib.sh's 20 s.
  wait_until 60 daemon_holds "$node" || { expect_daemon_alive "waiting for it to open $node"; die "the daemon did not open $p ($node) within 60 s"; }
  # HID_RECORD: the node's events as the daemon reads them, for replay on the host (evemu-record
  # ends when the node goes).
  case ",${HID_RECORD:-}," in *",$p,"*|*",all,"*)
    evemu-record "$node" > "$SDIR/panels/$p.events" 2>&1 &
    track $! ;;
  esac
  local app=() through=
  case " $PASSTHROUGH " in *" $p "*) through=1 ;; esac
  if [ -n "$through" ]; then
    clone=
    for _ in $(seq 1 30); do
      clone=$(socket_command '{"status":true}' | $PY -c '
import json, re, sys
device = re.compile(rf"uhid {re.escape(sys.argv[1])}\b")
print(next((d["clone"] for d in json.load(sys.stdin)["status"]["devices"] if device.match(d["name"]) and d.get("clone")), ""))' "$p")
      [ -c "$clone" ] && break
      sleep 1
    done
    [ -c "$clone" ] || die "$p: status shows no clone: $(socket_command '{"status":true}' | cut -c1-300)"
    udevadm settle --timeout=10
    # A loaded host's emulated VM took 16 s to list a clone.
    LIBINPUT_START_S=60 libinput_start "app$n" --device "$clone"
    app=("$SDIR/app$n.libinput")
  fi

  # The hotplug's udev work done before the first gesture (it starved the first circle).
  udevadm settle --timeout=30
  echo "$info $SDIR/panels/$p.json ${app[*]}" >&$((20 + k))
  # Waits for the gesture script's line on its lane's fifo (no polling).
  read -r -t 600 -u $((30 + k)) _ && test -e "$SDIR/panels/$p.judged" || die "$p: the gesture script did not finish in 600 s"
  sed "s/^/  $p: /" "$SDIR/panels/$p.gestures.log"
  [ -s "$SDIR/panels/$p.json" ] || die "$p: the gesture script did not finish"
  # Failed cells against the known ones: each unexpected failure, and each known one that passed.
  surprises=$(cat "$SDIR/panels/$p.judged")
  expect_daemon_alive "after $p"
  # This panel's node, deleted: another lane's panel may have the same node name by now.
  wait_until 10 bash -c "! ls -l /proc/$DAEMON_PID/fd/ | grep -q '$node (deleted)'" \
    || die "the daemon still holds the unplugged $p open"
  local v=panel${k}_pid
  kill -0 "${!v}" 2>/dev/null || die "hid-panel.py of lane $k died: $(tail -5 "$SDIR/hid-panel$k.log")"
  if [ ${#app[@]} -gt 0 ]; then v=app${n}_pid; kill "${!v}"; fi
  say "panel $p took $(( $(date +%s) - t0 )) s"
  [ -z "$surprises" ] || { echo "$surprises" | sed "s/^/  $p: /"; return 1; }
}

# lane K: plays panels from the queue until it is empty; writes how many of them failed to
# $WORK/laneK.failed.
lane() {
  local k=$1 failed=0 j=0 p
  while p=$(next_panel); [ -n "$p" ]; do
    j=$((j + 1)); play_panel "$k" "${k}_$j" "$p" || failed=$((failed + 1))
  done
  echo "$failed" > "$WORK/lane$k.failed"
}

for k in $(seq 1 "$lanes"); do
  lane "$k" &
  printf -v "lane${k}_pid" %s $!
done
failed=0
for k in $(seq 1 "$lanes"); do
  v=lane${k}_pid
  wait "${!v}" || die "lane $k stopped (above)"
  failed=$((failed + $(cat "$WORK/lane$k.failed")))
done
i=$(echo $panels | wc -w)

for k in $(seq 1 "$lanes"); do eval "exec $((10 + k))>&- $((20 + k))>&-"; done
cpu_report
$PY "$VMDIR/hid-gestures.py" --table "$SDIR"/panels/*.json > "$SDIR/table.md"
cat "$SDIR/table.md"
say "known failures: ${KNOWN_FAILURES:-none}"
[ "$failed" = 0 ] || die "$failed of $i panels failed a gesture not known to fail, or passed one that is (table above)"
