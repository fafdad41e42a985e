# A kiosk's life compressed (issue 48), sourced by scenario 31 after lib.sh: one mechanism for
# the CI soak and the long one (SOAK_SCALE, docs/testing.md).
#
#   life_run NAME CYCLES [PLANT]
#
# runs one daemon (the release or debug build under test; with PLANT, a leak planted from outside
# by plant-leak.so: fd, clone, rss, or several comma-separated) for CYCLES cycles. Each cycle:
#   - both panels unplugged and plugged again (on odd cycles with a finger down), each waited
#     for until the daemon passes it through again: "Kiosk Panel Kept" (finger.py; its clone
#     outlives it: keep_clone_s) and "Kiosk Panel Quick" (keep_clone_s = 0: a clone per replug);
#   - at the middle cycle the wall clock jumps an hour forward, at the next one back;
#   - LIFE_RELOADS SIGHUPs, every other one with the config changed (its variant);
#   - mode switches (locked, a tap, normal, maintenance left to its 2 s idle timeout);
#   - the broker (mosquitto) stopped, a circle while it is away, started again;
#   - LIFE_PLAYS real recordings on Kept (ISDv4's circle, swipe or double tap in turn, positions
#     scaled) through passthrough and the recognizers; a stroke and a circle on Quick;
#   - LIFE_CLIENTS socket clients (soak-agent.py: asking, listening, leaving mid-line…);
#   - a quiescent sample (soak-agent.py's mark), besides the periodic ones every 2 s.
# Leaves $SDIR/NAME/samples.jsonl (soak-check.py's input), daemon.log, and counts in life.counts.
# Every process it starts is stopped when it returns.

LIFE_CLIENTS=${LIFE_CLIENTS:-25}
LIFE_RELOADS=${LIFE_RELOADS:-4}
LIFE_PLAYS=${LIFE_PLAYS:-1}      # recordings played on Kept a cycle (the long soak's frames)
ISDV4_XMAX=2776 ISDV4_YMAX=1569   # the recording's ranges (its .desc), scaled to the panel's

# broker_start / broker_stop: mosquitto on 127.0.0.1:18830, as the config's [mqtt] names it.
broker_start() {
  mosquitto -c "$WORK/mosquitto.conf" >> "$SDIR/broker.log" 2>&1 &
  BROKER_pid=$!; track "$BROKER_pid"
}
broker_stop() { kill -TERM "$BROKER_pid" 2>/dev/null; wait "$BROKER_pid" 2>/dev/null; }

# panel_start VAR NAME: a finger.py panel fed by a FIFO; `panel VAR CMD…` runs commands on it.
panel_start() {
  local var=$1 fd
  mkfifo "$WORK/$var.in"
  /usr/bin/python3 "$VMDIR/finger.py" "$2" "$WORK/$var.node" < "$WORK/$var.in" >> "$SDIR/$var.log" 2>&1 &
  track $!
  exec {fd}> "$WORK/$var.in"
  printf -v "${var}_fd" %s "$fd"
  wait_until 180 test -s "$WORK/$var.node" || die "finger.py $2 made no device: $(cat "$SDIR/$var.log")"
  udevadm settle --timeout=10
}
panel_marks=0
panel() {
  local var=$1 fd c; shift
  fd=${var}_fd; fd=${!fd}
  panel_marks=$((panel_marks + 1))
  for c in "$@"; do echo "$c" >&"$fd"; done
  echo "mark $WORK/panel.mark.$panel_marks" >&"$fd"
  wait_until 60 test -e "$WORK/panel.mark.$panel_marks" || die "finger.py $var did not finish: $* ($(tail -3 "$SDIR/$var.log"))"
}

# agent CMD…: a command to soak-agent.py, waited for.
agent_marks=0
agent() {
  agent_marks=$((agent_marks + 1))
  echo "$* $WORK/agent.mark.$agent_marks" >&"$AGENT_fd"
  wait_until 90 test -e "$WORK/agent.mark.$agent_marks" || die "soak-agent.py did not finish: $* ($(tail -3 "$SDIR/agent.log"))"
}

# mode NAME: the mode switched through the socket (by soak-agent.py), its reply checked.
mode() {
  agent ask "{\"mode\":\"$1\"}"
  grep -q '"ok": true' "$WORK/agent.mark.$agent_marks" || die "mode $1 refused: $(cat "$WORK/agent.mark.$agent_marks")"
}

log_count() { grep -c -- "$1" "$SDIR/daemon.log"; }

# replug VAR DOWN: the panel unplugged (with a finger resting on it if DOWN is 1) and plugged
# again; returns once the daemon has it open again and has passed it through once more.
replug() {
  local var=$1 node before
  node=$(cat "$WORK/$var.node")
  before=$(log_count ": .*passed through to")
  [ "$2" = 1 ] && panel "$var" "down 0 100 60" "sleep 50"
  panel "$var" unplug
  wait_until 10 test ! -e "$node" || die "$node outlived its unplug"
  panel "$var" "plug $WORK/$var.node"
  node=$(cat "$WORK/$var.node")
  wait_until 30 daemon_holds "$node" || { expect_daemon_alive "replugging $var"; die "the daemon did not open $var again ($node)"; }
  wait_until 30 at_least $((before + 1)) log_count ": .*passed through to" || die "$var was not passed through after its replug: $(tail -3 "$SDIR/daemon.log")"
  REPLUGS=$((REPLUGS + 1))
}

# reload N: SIGHUP; every other one swaps the config for its variant.
reload() {
  local before
  before=$(log_count 'configuration reloaded')
  if [ $(( $1 % 2 )) = 1 ]; then
    if cmp -s "$CONF" "$WORK/life.a.toml"; then cp "$WORK/life.b.toml" "$CONF"; else cp "$WORK/life.a.toml" "$CONF"; fi
  fi
  kill -HUP "$DAEMON_PID"
  wait_until 30 at_least $((before + 1)) log_count 'configuration reloaded' || { expect_daemon_alive "reloading"; die "reload $1 was not done in 30 s: $(tail -3 "$SDIR/daemon.log")"; }
  RELOADS=$((RELOADS + 1))
}

life_cycle() {
  local i=$1 r rec recs=(single-center-circle single-top-swipe double-tap-center)
  replug kept $(( i % 2 ))
  replug quick $(( i % 2 ))
  if [ "$i" = "$(( LIFE_CYCLES / 2 ))" ]; then date -s '+1 hour' > /dev/null; say "wall clock: an hour forward"; fi
  if [ "$i" = "$(( LIFE_CYCLES / 2 + 1 ))" ]; then date -s '-1 hour' > /dev/null; say "wall clock: an hour back"; fi
  for r in $(seq "$LIFE_RELOADS"); do reload "$r"; done
  mode locked
  panel kept "tap 100 60"
  mode normal
  mode maintenance
  MODES=$((MODES + 3))
  broker_stop
  panel quick "circle 100 60 30 600"
  broker_start; BROKERS=$((BROKERS + 1))
  # Last before the sample: the clone latency in `status` is the panel's since its return and
  # the last reload, so the sample's figures are this recording's.
  for r in $(seq "$LIFE_PLAYS"); do
    rec=$ISDV4.${recs[$(( (i + r) % 3 ))]}.events
    panel kept "play $rec $ISDV4_XMAX $ISDV4_YMAX"
    FRAMES=$(( FRAMES + ${REC_FRAMES[$rec]} ))
  done
  panel quick "stroke 0 20 60 180 60 300" "circle 100 60 30 600"
  # The other frames written: the stroke's 32 (down, 30 moves, up), each circle's 62, the tap's 2,
  # a resting finger's 1 on each panel on odd cycles.
  FRAMES=$(( FRAMES + 32 + 62 + 2 + 62 + (i % 2) * 2 ))
  agent clients "$LIFE_CLIENTS"; CLIENTS=$((CLIENTS + LIFE_CLIENTS))
  agent mark "cycle$i"
}

life_run() {
  local name=$1 top=$SDIR
  LIFE_CYCLES=$2
  local SDIR=$top/$name WORK=$WORK/$name i pid t0
  mkdir -p "$SDIR" "$WORK"; chmod 777 "$SDIR"; chmod 1777 "$WORK"
  SOCK=$WORK/gestured.sock
  REPLUGS=0 RELOADS=0 CLIENTS=0 BROKERS=0 MODES=0 FRAMES=0
  # Each recording's frames (its SYN_REPORTs), counted once: a grep per play costs under emulation.
  declare -gA REC_FRAMES
  for i in single-center-circle single-top-swipe double-tap-center; do
    REC_FRAMES[$ISDV4.$i.events]=$(grep -c ' 0000 0000 0$' "$ISDV4.$i.events")
  done
  t0=${EPOCHREALTIME%.*}
  printf 'listener 18830 127.0.0.1\nallow_anonymous true\n' > "$WORK/mosquitto.conf"
  broker_start
  CONF=$(config kiosk-life)
  cp "$CONF" "$WORK/life.a.toml"
  # The variant: another recognizer set, another gesture published (what a pushed config changes).
  sed -e 's/^recognizers = \["circle", "edge_swipe", "swipe", "tap"\]/recognizers = ["circle", "swipe", "tap", "long_press"]/' \
      -e 's/^gesture = "swipe"$/gesture = "tap"/' "$CONF" > "$WORK/life.b.toml"
  cmp -s "$WORK/life.a.toml" "$WORK/life.b.toml" && die "the config's variant is the same file"
  "$GESTURED" check-config "$WORK/life.b.toml" > "$SDIR/variant.check" 2>&1 || die "the variant config is refused: $(tail -3 "$SDIR/variant.check")"
  panel_start kept "Kiosk Panel Kept"
  panel_start quick "Kiosk Panel Quick"
  if [ -n "${3:-}" ]; then
    LD_PRELOAD=$PLANT_SO PLANT_LEAK=$3 daemon_start "$CONF"
  else
    daemon_start "$CONF"
  fi
  wait_until 60 at_least 2 log_count ': passed through to' || die "the panels were not passed through: $(tail -5 "$SDIR/daemon.log")"
  mkfifo "$WORK/agent.in"
  /usr/bin/python3 "$VMDIR/soak-agent.py" "$DAEMON_PID" "$SOCK" "$SDIR/daemon.log" "$SDIR/samples.jsonl" 2 "Kiosk Panel Kept" \
    < "$WORK/agent.in" > "$SDIR/agent.log" 2>&1 &
  track $!
  exec {AGENT_fd}> "$WORK/agent.in"
  for i in $(seq "$LIFE_CYCLES"); do
    life_cycle "$i"
    expect_daemon_alive "after cycle $i of $name"
    [ $(( i % 10 )) = 0 ] && say "$name: $i of $LIFE_CYCLES cycles"
  done
  # A plant that never fired would prove nothing: each says so once, on stderr.
  if [ -n "${3:-}" ]; then
    [ "$(grep -c '^plant-leak: ' "$SDIR/daemon.log")" = "$(tr , '\n' <<< "$3" | wc -l)" ] \
      || die "not every planted leak ($3) fired: $(grep '^plant-leak: ' "$SDIR/daemon.log")"
  fi
  printf 'frames %s\ncycles %s\nreplugs %s\nreloads %s\nclients %s\nbroker_restarts %s\nmode_switches %s\nseconds %s\n' \
    "$FRAMES" "$LIFE_CYCLES" "$REPLUGS" "$RELOADS" "$CLIENTS" "$BROKERS" "$MODES" $(( ${EPOCHREALTIME%.*} - t0 )) > "$SDIR/life.counts"
  say "$name: $(tr '\n' ' ' < "$SDIR/life.counts")"
  # Everything of this run stops: the next one starts from the same state.
  exec {AGENT_fd}>&-
  kill -TERM "$DAEMON_PID"; wait "$DAEMON_PID" 2>/dev/null
  exec {kept_fd}>&- {quick_fd}>&-
  while read -r pid; do kill -TERM "$pid" 2>/dev/null; done < "$SDIR/pids"
  while read -r pid; do wait "$pid" 2>/dev/null; done < "$SDIR/pids"
  cat "$SDIR/pids" >> "$top/pids"
  udevadm settle --timeout=10
}
