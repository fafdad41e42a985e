#!/usr/bin/python3
"""The soak's verdict (scenario 31, kiosk-life.sh): does anything grow? Reads the samples of
soak-agent.py and decides in one place, with the tolerances below.

    soak-check.py SAMPLES [--warmup N]

The quiescent samples (kind "q": taken at the end of each cycle of the soak, with both panels
plugged, no client but the sampler's, the broker connected) are compared after the first N
(default 2: the warm-up, where pools, caches and the kernel's first clones settle). For each
measure the floor of the first two compared samples is set against the floor of the last two
(a transient — a bound command still running, a client leaving — adds to one sample, a leak to
every later one): the growth must not exceed the tolerance. A leak of one descriptor or one
device per replug, a cycle replugging at least once, grows by one per cycle; with at least
4 compared samples (required) it grows by at least 2 between the two floors.

The periodic samples (kind "p") give the peaks and the log's rate, which must stay under the
daemon's own ceiling (LogRateLimit: 300 lines at once, then 20 a second; docs/reliability.md).
Prints a table and the verdict ("nothing grows" or "GROWS: measure …"); exits 0 or 1 (2 when the
samples cannot decide).
"""
import json
import sys

# Tolerances, measured over the compared samples (docs/reliability.md):
TOLERANCE = {
    "fds": 1,          # descriptors: one in flight (a socket client's, a command's pipe)
    "threads": 2,      # Swift's cooperative pool and the broker's threads start lazily
    "timers": 0,       # timerfds
    "inputs": 0,       # /dev/input/event* nodes (panels and clones)
    "sys_inputs": 0,   # /sys/class/input/input* devices
    "rss_kb": 384,     # resident memory, KiB: allocator noise; the reload leak was 4–29 KiB a reload
}
MIN_COMPARED = 4
LOG_BURST, LOG_PER_S = 300, 20


def floor(rows, key):
    return min(r[key] for r in rows)


def main():
    args = sys.argv[1:]
    warmup = 2
    if "--warmup" in args:
        i = args.index("--warmup")
        warmup = int(args[i + 1])
        del args[i:i + 2]
    rows = [json.loads(line) for line in open(args[0]) if line.strip()]
    quiet = [r for r in rows if r["kind"] == "q"]
    periodic = [r for r in rows if r["kind"] == "p"]
    compared = quiet[warmup:]
    if len(compared) < MIN_COMPARED:
        print(f"soak-check: {len(quiet)} quiescent samples, {len(compared)} after a warm-up of {warmup}: "
              f"at least {MIN_COMPARED} are needed to decide")
        return 2
    head, tail = compared[:2], compared[-2:]
    grows = []
    print(f"soak-check: {len(quiet)} quiescent samples ({warmup} of warm-up), {len(periodic)} periodic")
    print(f"  {'measure':<11} {'start':>8} {'end':>8} {'growth':>7} {'allowed':>7} {'peak':>8}  per cycle after warm-up")
    for key, tol in TOLERANCE.items():
        a, b = floor(head, key), floor(tail, key)
        peak = max(r[key] for r in rows)
        series = " ".join(str(r[key]) for r in compared)
        verdict = "" if b - a <= tol else "  <- GROWS"
        if verdict:
            grows.append(key)
        print(f"  {key:<11} {a:>8} {b:>8} {b - a:>+7} {tol:>7} {peak:>8}  {series}{verdict}")
    # The log's rate: lines per hour after the warm-up, and the ceiling over the same span.
    t0, t1 = compared[0]["t"], compared[-1]["t"]
    lines = compared[-1]["log_lines"] - compared[0]["log_lines"]
    per_hour = lines / (t1 - t0) * 3600 if t1 > t0 else 0
    ceiling = LOG_BURST + LOG_PER_S * (t1 - t0)
    print(f"  log: {lines} lines in {t1 - t0:.0f} s after warm-up ({per_hour:,.0f} an hour); ceiling {ceiling:,.0f}")
    if lines > ceiling:
        grows.append("log_lines")
    lat = [r for r in compared if r.get("p99_ms") is not None]
    if lat:
        print(f"  clone latency: p50/p99 {lat[0]['p50_ms']}/{lat[0]['p99_ms']} ms at the start, "
              f"{lat[-1]['p50_ms']}/{lat[-1]['p99_ms']} ms at the end")
    disconnected = [r["label"] for r in compared if not r.get("mqtt")]
    if disconnected:
        print(f"  broker not connected at: {' '.join(disconnected)}")
    if grows:
        print(f"soak-check: GROWS: {' '.join(grows)}")
        return 1
    print("soak-check: nothing grows")
    return 0


sys.exit(main())
