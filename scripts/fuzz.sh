#!/usr/bin/env bash
# libFuzzer + AddressSanitizer on everything gestured parses from outside (docs/testing.md):
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     default: 60 s for each target
#
# Targets: Evemu, LibinputRecord (each parsed recording is also replayed through the pipeline),
# Config (the whole loader), ClientCommand (socket input), Shape (taught shape files). Built in .build-fuzz only, so the
# normal build never sees them. Any crash, leak, slow input (> 10 s) or memory use past 2 GB
# fails the run; the input that did it is written to Fuzz/Regressions/<target>/ — commit it,
# and every later run replays it first. The corpus grows in .build-fuzz/corpus/<target>.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(Evemu LibinputRecord Config ClientCommand Shape)
build=.build-fuzz
# Where a target's findings are kept (and replayed first by every later run).
regressions() { echo "Fuzz/Regressions/$1"; }
# Swift's own crash backtracer would run inside ASan and report itself; libFuzzer reports traps.
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

# Seeds from the fixtures. A recording seed is a description followed by one of its event
# files, so that mutations reach the pipeline and not only the description check.
seed() {
  local t=$1 dir=$build/seeds/$1
  rm -rf "$dir"; mkdir -p "$dir"
  case $t in
    Evemu)
      local n=0
      while IFS= read -r desc; do
        local stem=${desc%.desc}
        for ev in $(ls "$stem"[._-]*.events 2>/dev/null | head -3); do
          [ "$(stat -c %s "$ev")" -le 16384 ] || continue
          n=$((n + 1)); cat "$desc" "$ev" > "$dir/seed-$n"
        done
      done < <(find Tests/Fixtures/recordings -name '*.desc' | sort) ;;
    LibinputRecord) find Tests/Fixtures/recordings -name '*.yml' -exec cp {} "$dir" \; ;;
    # Named by their folder: config/ and Tests/vm/configs/ may hold files of the same name.
    Config) for f in config/*.toml Tests/vm/configs/*.toml; do cp "$f" "$dir/$(echo "${f%/*}" | tr / -)-${f##*/}"; done ;;
    ClientCommand) cp Fuzz/Seeds/ClientCommand/* "$dir" ;;
    Shape) cp Fuzz/Seeds/Shape/* "$dir" ;;
  esac
}

status=0
ready=()
for t in "${targets[@]}"; do
  echo "== fuzz-$t: building (.build-fuzz)"
  GESTURED_FUZZ=1 swift build --scratch-path "$build" --product "fuzz-$t" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld 2>&1 | grep -E "error:" || true
  bin=$build/debug/fuzz-$t
  [ -x "$bin" ] || { echo "fuzz-$t did not build"; exit 1; }
  seed "$t"
  regressions=$(regressions "$t")
  mkdir -p "$regressions" "$build/corpus/$t"
  if compgen -G "$regressions/*" > /dev/null; then
    echo "== fuzz-$t: replaying $(ls "$regressions" | wc -l) regression input(s)"
    "$bin" -timeout=10 -rss_limit_mb=2048 "$regressions"/* > "$build/$t.regressions.log" 2>&1 \
      || { tail -40 "$build/$t.regressions.log"; status=1; continue; }
  fi
  ready+=("$t")
done

# fuzz TARGET: one libFuzzer run of SECONDS; its status is its log's verdict (report, below).
fuzz() {
  local t=$1
  touch "$build/$t.start"
  "$build/debug/fuzz-$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=32768 -print_final_stats=1 \
    -artifact_prefix="$(regressions "$t")/" "$build/corpus/$t" "$build/seeds/$t" > "$build/$t.log" 2>&1
}
# The targets run FUZZ_JOBS at a time (default: one per core; each libFuzzer process uses one),
# so the tier takes SECONDS × targets / cores; each still gets SECONDS of its own.
jobs=${FUZZ_JOBS:-$(nproc)}
echo "== fuzzing ${#ready[@]} target(s) for $secs s each, $jobs at a time"
pids=()
for t in "${ready[@]}"; do
  while [ "$(jobs -pr | wc -l)" -ge "$jobs" ]; do wait -n || :; done
  fuzz "$t" &
  pids+=($!)
done
for i in "${!ready[@]}"; do
  t=${ready[$i]}
  if wait "${pids[$i]}"; then
    echo "== fuzz-$t: $(grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$build/$t.log" | tr '\n' ' ')"
  else
    echo "== fuzz-$t: FAILED"
    tail -60 "$build/$t.log"
    for f in $(find "$(regressions "$t")" -type f -newer "$build/$t.start"); do
      echo "finding kept as $f (commit it); base64:"; base64 -w 0 "$f"; echo
    done
    status=1
  fi
done
exit $status
