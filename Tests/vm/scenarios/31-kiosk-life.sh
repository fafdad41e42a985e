# 31. A kiosk's life compressed (issue 48; kiosk-life.sh): two passed-through panels playing
# recordings and strokes, unplugged and replugged every cycle (every other time with a finger
# down), reloads (half of them changing the config), socket clients coming and going (some
# mid-line), mode switches, the broker (mosquitto) stopped and started, the wall clock an hour
# forward and back. soak-check.py decides from the daemon's samples that nothing grows
# (descriptors, threads, timerfds, input devices, resident memory; the log's rate) — and is shown
# to fail on leaks planted from outside (plant-leak.c, LD_PRELOAD): one descriptor per panel
# opened plus 64 KiB never freed per panel opened or config read (one run), a clone left behind
# per replug (another). The real run must pass, each planted one must fail on its measures.
# SOAK_SCALE=N (default 0: the CI soak) runs instead one long real run of 8×N cycles, no planted
# ones (docs/testing.md, "The long soak"); give it SCENARIO_TIMEOUT and VM_TIMEOUT to match.
# time-limit: 900
source "$VMDIR/passthrough.sh"
source "$VMDIR/kiosk-life.sh"
command -v mosquitto >/dev/null || die "no mosquitto (scripts/deps.sh vm)"
command -v cc >/dev/null || die "no C compiler (cc) for the planted leaks (scripts/deps.sh vm)"
ip link set lo up || die "no loopback for the broker"
PLANT_SO=$WORK/plant-leak.so
cc -shared -fPIC -O2 -Wall -o "$PLANT_SO" "$VMDIR/plant-leak.c" -ldl > "$SDIR/cc.log" 2>&1 \
  || die "plant-leak.c does not compile: $(cat "$SDIR/cc.log")"

# check NAME: soak-check.py on run NAME; its verdict in $SDIR/NAME/verdict, its status returned.
check() {
  python3 "$VMDIR/soak-check.py" "$SDIR/$1/samples.jsonl" > "$SDIR/$1/verdict" 2>&1
  local rc=$?
  sed "s/^/  [$1] /" "$SDIR/$1/verdict"
  return $rc
}
# grows NAME MEASURE…: the verdict of NAME names each MEASURE as growing.
grows() {
  local run=$1 m; shift
  for m in "$@"; do grep -q "^soak-check: GROWS: .*\b$m\b" "$SDIR/$run/verdict" || die "the checker did not see $m grow in $run"; done
}

scale=${SOAK_SCALE:-0}
if [ "$scale" -gt 0 ]; then
  life_run long $(( 8 * scale ))
  check long || die "the long soak grew (above)"
  exit 0
fi
life_run real 8
check real || die "the real soak grew (above)"
life_run planted-fd-rss 6 fd,rss
check planted-fd-rss && die "the checker passed a run with a descriptor and 64 KiB leaked per panel opened"
grows planted-fd-rss fds rss_kb
grep -q "^soak-check: GROWS: .*inputs" "$SDIR/planted-fd-rss/verdict" && die "the checker blamed devices for a descriptor leak"
life_run planted-clone 6 clone
check planted-clone && die "the checker passed a run with a clone left behind per replug"
grows planted-clone inputs sys_inputs
say "the checker passes the real soak and fails both planted leaks"
