#!/usr/bin/python3
"""Plays the gesture script on one uhid panel and judges it by the daemon's socket events.

    hid-gestures.py SOCKET PANEL_FIFO INFO_FILE RESULT_FILE [APP_FILE]
    hid-gestures.py --serve SOCKET PANEL_FIFO [DONE_FIFO] < "INFO_FILE RESULT_FILE [APP_FILE]" lines
    hid-gestures.py --table RESULT_FILE...

PANEL_FIFO is the stdin of a running hid-panel.py, INFO_FILE what it wrote. Each gesture is
played on the panel and the daemon's events are read from its socket until the expected one
arrives (WAIT_S at most; then it failed, with what came instead). A failed gesture whose
scans came more than MAX_GAP_MS apart, or during which the daemon's log (DAEMON_LOG) shows the
kernel dropped its events (the emulated VM starved), is played again, LAG_PLAYS times in all;
the table lists such cells. A gesture that needs more
contacts than the panel reports at once is skipped, and the table says so. Last comes an
unplug in the middle of a pan, which must cancel the pan. With APP_FILE (the output of
`libinput debug-events` on the passthrough clone), the one-finger tap must also reach the app.
Before the unplug, on a panel that reports contact size (INFO_FILE's palm), the palm case: a
palm-sized tap then a finger-sized one; the palm must reach neither a recognizer nor the app
and be counted in `status`, the finger must be a tap for both. A panel without contact size
has the case skipped, with why (INFO_FILE's palm_skip).
RESULT_FILE gets one JSON object: panel facts and gesture -> "ok" | "skip: …" | "FAIL: …".
Exit status 0 when no gesture failed.

--serve plays one panel per line of stdin (Python's start in the emulated VM takes seconds, a
run has many panels): the log of each goes to RESULT_FILE's .gestures.log, and RESULT_FILE's
.judged gets the cells that surprise against KNOWN_FAILURES (env, "PANEL:GESTURE ..."): each
failure not known, each known one that passed; "error: …" if the script could not finish.
Then a line goes to DONE_FIFO, which the scenario waits on (polling costs the emulated VM).

--table prints the results of many panels as a Markdown table (a row per panel).
"""
import json
import os
import re
import socket
import sys
import time

WAIT_S = 6.0  # a 1-finger tap waits out the double-tap interval; emulation is slow
# A gesture whose scans came further apart than this was not played as a panel sends it (the
# emulated VM starved of CPU): its result says so, and the table marks it "lag", a failure
# of the run, not of the panel. Three missed scans at the panel's 10 ms (hid-panel.py SCAN_S):
# at 50 ms, a three-finger swipe whose scans lagged 43 ms gave pan + pinch on a quiet host
# (E4 2219:044c, 2026-11-26), as those that lagged 57-257 ms had. Only a failed play is played
# again (LAG_PLAYS in all): a cell that fails every time still fails the scenario.
MAX_GAP_MS = 30
LAG_PLAYS = 3
# From a gesture's recognition to the next gesture's first touch (the previous swipe's lift was
# 0–0.2 s before it; the daemon must keep quick successive gestures apart).
PAUSE_S = 0.25

# gesture -> (fingers it needs, the event that recognizes it: key -> value or regex)
EXPECT = {
    "circle": (1, {"gesture": "circle"}),
    "checkmark": (1, {"gesture": "checkmark"}),
    "tap-1": (1, {"gesture": "tap", "fingers": 1}),
    "tap-2": (2, {"gesture": "tap", "fingers": 2}),
    "tap-3": (3, {"gesture": "tap", "fingers": 3}),
    "tap-4": (4, {"gesture": "tap", "fingers": 4}),
    "pinch": (2, {"gesture": "pinch"}),
    "rotate": (2, {"gesture": "rotate"}),
    "edge-swipe": (1, {"gesture": "edge_swipe", "edge": "left"}),
    "long-press": (1, {"gesture": "long_press", "phase": "began"}),
}
for n in (3, 4):
    for d in ("right", "left", "up", "down"):
        EXPECT[f"swipe-{n}-{d}"] = (n, {"gesture": "swipe", "fingers": n, "direction": d})
ORDER = (["circle", "checkmark", "tap-1", "tap-2", "tap-3", "tap-4"]
         + [f"swipe-{n}-{d}" for n in (3, 4) for d in ("right", "left", "up", "down")]
         + ["pinch", "rotate", "edge-swipe", "long-press", "unplug"])


class Events:
    """The daemon's events for one device (other panels may be played at the same time)."""
    def __init__(self, path, device):
        self.device = re.compile(rf"uhid {re.escape(device)}\b")
        # Every lane's client gets every panel's events (a pan's `changed` at the scan rate):
        # lines that do not name this device are skipped before they are parsed.
        self.name = f"uhid {device}".encode()
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(path)
        self.s.settimeout(0.1)
        self.buf = b""
        self.seen = []

    def pump(self):
        try:
            chunk = self.s.recv(65536)
        except socket.timeout:
            return
        if not chunk:
            raise SystemExit("hid-gestures.py: the daemon closed the socket")
        self.buf += chunk
        *lines, self.buf = self.buf.split(b"\n")
        for line in lines:
            if self.name in line:
                e = json.loads(line)
                if self.device.match(str(e.get("device", ""))):
                    self.seen.append(e)

    def wait(self, after, want, limit):
        end = time.monotonic() + limit
        while time.monotonic() < end:
            if any(matches(e, want) for e in self.seen[after:]):
                return True
            self.pump()
        return False


def matches(e, want):
    return all(str(e.get(k)) == str(v) for k, v in want.items())


def summary(events):
    """What the daemon recognized: discrete gestures and continuous ones that began."""
    out = []
    for e in events:
        if e.get("phase") not in ("recognized", "began", "cancelled"):
            continue
        s = e.get("gesture", "?")
        if e.get("fingers", 1) != 1:
            s += f"/{e['fingers']}"
        if e.get("direction"):
            s += f" {e['direction']}"
        if e.get("phase") == "cancelled":
            s += " cancelled"
        if s not in out:
            out.append(s)
    return "+".join(out) or "nothing"


class Panel:
    def __init__(self, fifo, marks):
        self.f = open(fifo, "w")
        self.marks = marks
        self.n = 0

    def do(self, cmd, limit=30):
        self.n += 1
        mark = f"{self.marks}.done.{self.n}"
        self.f.write(f"{cmd}\nmark {mark}\n")
        self.f.flush()
        end = time.monotonic() + limit
        while not os.path.exists(mark):
            if time.monotonic() > end:
                raise SystemExit(f"hid-gestures.py: the panel did not finish '{cmd}' in {limit} s")
            time.sleep(0.05)
        return open(mark).read()


def lagged(timing):
    return any(int(g) > MAX_GAP_MS for g in re.findall(r"longest gap (\d+) ms", timing))


def opened_so_far(device):
    """How often the daemon's log (DAEMON_LOG) says it opened DEVICE."""
    path = os.environ.get("DAEMON_LOG")
    if not path or not os.path.exists(path):
        return 0
    return sum(1 for line in open(path, errors="replace") if f"opened uhid {device} at " in line)


def dropped_so_far(device):
    """DEVICE's SYN_DROPPED lines in the daemon's log (DAEMON_LOG): the kernel dropped events
    the daemon, starved of CPU, did not read in time."""
    path = os.environ.get("DAEMON_LOG")
    if not path or not os.path.exists(path):
        return 0
    return sum(1 for line in open(path, errors="replace")
               if "SYN_DROPPED" in line and f"uhid {device}" in line)


def app_tap(app_file, after_line):
    lines = open(app_file, errors="replace").read().splitlines()[after_line:]
    kinds = [m.group(1) for m in (re.search(r"TOUCH_(DOWN|UP|CANCEL)", l) for l in lines) if m]
    if kinds[:1] == ["DOWN"] and ("UP" in kinds or "CANCEL" in kinds):
        return "ok (" + " ".join(kinds) + ")"
    return "FAIL: the app saw " + (" ".join(kinds) or "no touch")


def palms_counted(sock, name):
    """The palms `status` counts on this panel's nodes (None: no node has a palm rule)."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sock)
    s.settimeout(WAIT_S)
    s.sendall(b'{"status":true}\n')
    # A client gets every panel's gesture events too: the reply is the line with "status".
    buf, reply = b"", None
    while reply is None:
        chunk = s.recv(65536)
        if not chunk:
            raise SystemExit("hid-gestures.py: the daemon closed the status connection")
        *lines, buf = (buf + chunk).split(b"\n")
        reply = next((r for r in (json.loads(l).get("status") for l in lines if b'"status"' in l) if r), None)
    s.close()
    device = re.compile(rf"uhid {re.escape(name)}\b")
    counts = [d["conditioning"]["palms"] for d in reply["devices"]
              if device.match(d["name"]) and "palms" in d.get("conditioning", {})]
    return sum(counts) if counts else None


def app_touches(app_file, after_line):
    """The touches the app began after AFTER_LINE: x of each TOUCH_DOWN (% of the width)."""
    lines = open(app_file, errors="replace").read().splitlines()[after_line:]
    return [float(m.group(1)) for m in (re.search(r"TOUCH_DOWN.*?\(\d+\)\s+([\d.]+)/", l) for l in lines) if m]


def palm_case(sock, ev, panel, name, info, app_file):
    """A palm-sized tap left of the centre, then a finger-sized one right of it: only the
    finger may reach a recognizer (one tap) and, when passed through, the app (one touch, on
    the right), and
    `status` counts one palm more."""
    p = info["palm"]
    sizes = (f"palm {p['palm_size_mm']} mm ({p['palm_units']} units), finger {p['finger_size_mm']} mm "
             f"({p['finger_units']}), palm_mm {p['palm_mm']:g} = {p['rule_units']} units")
    before = palms_counted(sock, name)
    ev.pump()
    mark = len(ev.seen)
    app_mark = len(open(app_file).read().splitlines()) if app_file else 0
    timing = panel.do("play palm")
    time.sleep(0.3)
    timing += "; " + panel.do("play finger")
    ev.wait(mark, {"gesture": "tap", "fingers": 1}, WAIT_S)
    time.sleep(0.5)  # whatever else the two made, and libinput's output
    ev.pump()
    after = palms_counted(sock, name)
    got = [e for e in ev.seen[mark:] if e.get("phase") in ("recognized", "began", "cancelled")]
    problems = []
    if len(got) != 1 or not matches(got[0], {"gesture": "tap", "fingers": 1}):
        problems.append(f"recognized {summary(got)} ({len(got)} events), not the finger's tap alone")
    if before is None or after is None:
        problems.append("status shows no palm rule on the panel")
    elif after - before != 1:
        problems.append(f"status counted {after - before} palms, not 1")
    # The app, where the panel is passed through (PASSTHROUGH in scenario 50).
    if app_file:
        downs = app_touches(app_file, app_mark)
        if len(downs) != 1 or downs[0] < 50:
            problems.append(f"the app's touches began at x {downs} %, not the finger's alone (right of 50 %)")
    if problems:
        starved = lagged(timing)
        return f"FAIL{' (lag)' if starved else ''}: {'; '.join(problems)}; {sizes}; panel {timing}"
    return f"ok: {sizes}"


def run(sock, fifo, info_file, result_file, app_file=None):
    info = json.load(open(info_file))
    name = os.path.basename(result_file).removesuffix(".json")
    ev = Events(sock, name)
    panel = Panel(fifo, info_file)
    results = {"_info": info}
    time.sleep(0.5)
    for g in ORDER[:-1]:
        need, want = EXPECT[g]
        if need > info["contacts"]:
            results[g] = f"skip: {need} fingers, the panel reports {info['contacts']}"
            continue
        # A failure whose scans lagged, or whose events the kernel dropped (the daemon starved),
        # is played again (LAG_PLAYS in all): it was not played as a panel sends it, or not read
        # as the daemon reads it. What the lagged plays gave stays in the result.
        lagged_plays = []
        for _ in range(LAG_PLAYS):
            ev.pump()
            mark = len(ev.seen)
            app_mark = len(open(app_file).read().splitlines()) if app_file and g == "tap-1" else 0
            t0 = time.monotonic()
            drops = dropped_so_far(name)
            timing = panel.do(f"play {g}")
            ok = ev.wait(mark, want, WAIT_S)
            if not ok:
                time.sleep(0.3)  # whatever else this gesture made, for the result
            ev.pump()
            got = summary(ev.seen[mark:])
            if dropped_so_far(name) > drops:
                timing += ", events dropped by the kernel (SYN_DROPPED)"
            starved = lagged(timing) or "SYN_DROPPED" in timing
            results[g] = "ok" if ok else f"FAIL{' (lag)' if starved else ''}: {got}; panel {timing}"
            print(f"{g}: {results[g]} ({time.monotonic() - t0:.1f} s; recognized {got}; panel {timing})", flush=True)
            if ok or not starved:
                break
            lagged_plays.append(f"{got} ({timing})")
            time.sleep(1.0)
        if ok and lagged_plays:
            results[g] = "ok after lagged plays: " + "; ".join(lagged_plays)
        if app_file and g == "tap-1":
            time.sleep(0.5)
            results["app-tap"] = app_tap(app_file, app_mark)
            print(f"app-tap: {results['app-tap']}", flush=True)
        # The next gesture begins PAUSE_S after this one was recognized, as a quick user's would;
        # a gesture not recognized may leave arbitration undecided: let it settle.
        time.sleep(PAUSE_S if ok else 1.0)
    # The palm case, played again (LAG_PLAYS in all) as a gesture is when its scans lagged.
    t0 = time.monotonic()
    results["palm"] = f"skip: {info.get('palm_skip', 'no palm case')}"
    for _ in range(LAG_PLAYS if "palm" in info else 0):
        results["palm"] = palm_case(sock, ev, panel, name, info, app_file)
        print(f"palm: {results['palm']} ({time.monotonic() - t0:.1f} s)", flush=True)
        if not results["palm"].startswith("FAIL (lag)"):
            break
        time.sleep(1.0)
    if "palm" not in info:
        print(f"palm: {results['palm']}", flush=True)
    time.sleep(PAUSE_S)
    # An unplug in the middle of a pan: the pan is cancelled, never ended. Only events after
    # the drag's pan began count (the last gesture's may still be arriving). A failure while the
    # held finger's scans lagged (hid-multitouch lifts a Win8 panel's contacts when its reports
    # stop: the pan ends) is played again on the panel plugged in anew, LAG_PLAYS in all.
    lagged_plays = []
    for attempt in range(LAG_PLAYS):
        if attempt:
            opened = opened_so_far(name)
            panel.do(f"create {name} {info_file}", limit=90)
            end = time.monotonic() + 60
            while opened_so_far(name) == opened and time.monotonic() < end:
                time.sleep(0.1)
        time.sleep(0.3)
        ev.pump()
        mark = len(ev.seen)
        drops = dropped_so_far(name)
        panel.do("drag")
        began = ev.wait(mark, {"gesture": "pan", "phase": "began"}, WAIT_S)
        if began:
            mark += next(i for i, e in enumerate(ev.seen[mark:]) if matches(e, {"gesture": "pan", "phase": "began"}))
        timing = panel.do("unplug")
        cancelled = ev.wait(mark, {"gesture": "pan", "phase": "cancelled"}, WAIT_S)
        ended = any(matches(e, {"gesture": "pan", "phase": "ended"}) for e in ev.seen[mark:])
        if dropped_so_far(name) > drops:
            timing += ", events dropped by the kernel (SYN_DROPPED)"
        ok = began and cancelled and not ended
        starved = lagged(timing) or "SYN_DROPPED" in timing
        got = (f"pan {'began' if began else 'never began'}, {'cancelled' if cancelled else 'not cancelled'}"
               f"{', ended' if ended else ''}; recognized {summary(ev.seen[mark:])}")
        results["unplug"] = "ok" if ok else f"FAIL{' (lag)' if starved else ''}: {got}; panel {timing}"
        if ok or not starved:
            break
        print(f"unplug: {results['unplug']}", flush=True)
        lagged_plays.append(f"{got} ({timing})")
    if ok and lagged_plays:
        results["unplug"] = "ok after lagged plays: " + "; ".join(lagged_plays)
    print(f"unplug: {results['unplug']}", flush=True)
    panel.f.close()
    ev.s.close()
    with open(result_file + ".tmp", "w") as f:
        json.dump(results, f)
    os.rename(result_file + ".tmp", result_file)
    return 1 if any(str(v).startswith("FAIL") for k, v in results.items() if k != "_info") else 0


def surprises(result_file, known_failures):
    """Each failed cell not in KNOWN_FAILURES, and each known one that passed or was not played."""
    results = json.load(open(result_file))
    panel = os.path.basename(result_file).removesuffix(".json")
    known = {k.split(":", 1)[1] for k in known_failures.split() if k.split(":", 1)[0] == panel}
    out = []
    for g, v in results.items():
        if g == "_info":
            continue
        failed = str(v).startswith("FAIL")
        if failed and g not in known:
            out.append(f"{g} failed")
        if not failed and g in known:
            out.append(f"{g} is a known failure but passed: remove it from KNOWN_FAILURES")
    out += [f"{g} is a known failure but was not played" for g in sorted(known - results.keys())]
    return out


def serve(sock, fifo, done=None):
    for line in sys.stdin:
        args = line.split()
        if not args:
            continue
        result_file = args[1]
        base = result_file.removesuffix(".json")
        with open(base + ".gestures.log", "w") as log:
            sys.stdout = log
            try:
                run(sock, fifo, *args)
                judged = "\n".join(surprises(result_file, os.environ.get("KNOWN_FAILURES", "")))
            except (SystemExit, OSError, ValueError, KeyError) as e:
                judged = f"error: {e}"
                print(judged, flush=True)
            finally:
                sys.stdout = sys.__stdout__
        with open(base + ".judged.tmp", "w") as f:
            f.write(judged + "\n" if judged else "")
        os.rename(base + ".judged.tmp", base + ".judged")
        if done:
            with open(done, "w") as f:
                f.write(base + "\n")
    return 0


def table(files):
    cols = ORDER[:-1] + ["palm", "unplug", "app-tap"]
    short = {"circle": "○", "checkmark": "✓"}
    head = ["panel", "per report", "ids", "contacts"] + [short.get(c, c) for c in cols]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    failures = []
    for path in files:
        r = json.load(open(path))
        i = r["_info"]
        name = os.path.basename(path).removesuffix(".json")
        cells = [name, str(i["per_report"]) + ("" if i["contact_count"] else " (no count)"),
                 i["style"], str(i["contacts"])]
        for c in cols:
            v = r.get(c)
            if v is None:
                cells.append("–")
            elif v.startswith("ok"):
                cells.append("ok")
            elif v.startswith("skip"):
                cells.append("n/a")
            elif v.startswith("FAIL (lag)"):
                cells.append("lag")
                failures.append(f"{name} {c}: {v}")
            else:
                cells.append("**FAIL**")
                failures.append(f"{name} {c}: {v}")
        rows.append("| " + " | ".join(cells) + " |")
    print("\n".join(rows))
    if failures:
        print("\nFailures (what the daemon recognized instead):")
        print("\n".join(f"- {f}" for f in failures))
    skipped = sum(1 for p in files for k, v in json.load(open(p)).items()
                  if k != "palm" and isinstance(v, str) and v.startswith("skip"))
    palms = {os.path.basename(p).removesuffix(".json"): json.load(open(p)).get("palm", "") for p in files}
    sized = [n for n, v in palms.items() if not v.startswith("skip")]
    print(f"\nPalm case: {len(sized)} of {len(palms)} panels report contact size, "
          f"{sum(1 for n in sized if palms[n].startswith('ok'))} passed ({', '.join(sized) or 'none'}); "
          f"{len(palms) - len(sized)} skipped (palm n/a), why:")
    reasons = {}
    for n, v in palms.items():
        if v.startswith("skip"):
            reasons.setdefault(v.removeprefix("skip: "), []).append(n)
    print("\n".join(f"- {len(ns)}: {r} ({', '.join(ns)})" for r, ns in reasons.items()))
    replayed = [f"{os.path.basename(p).removesuffix('.json')} {k}: {v}" for p in files
                for k, v in json.load(open(p)).items() if isinstance(v, str) and v.startswith("ok after")]
    if replayed:
        print(f"\nPassed when played again after a lagged play ({len(replayed)} cells, counted ok):")
        print("\n".join(f"- {r}" for r in replayed))
    print(f"\nn/a: the panel reports fewer contacts at once than the gesture has fingers (palm: no contact size) "
          f"({skipped} cells); –: not run (app-tap: passthrough off for that panel); lag: failed, "
          f"and the panel's scans came more than {MAX_GAP_MS} ms apart or the kernel dropped the "
          f"daemon's events, in each of {LAG_PLAYS} plays (the VM was starved)")
    return 1 if failures else 0


if __name__ == "__main__":
    if sys.argv[1] == "--table":
        sys.exit(table(sys.argv[2:]))
    if sys.argv[1] == "--serve":
        sys.exit(serve(*sys.argv[2:]))
    sys.exit(run(*sys.argv[1:]))
