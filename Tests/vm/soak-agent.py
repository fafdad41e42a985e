#!/usr/bin/python3
"""The soak's sampler and socket clients (scenario 31, kiosk-life.sh): one process for the whole
run (each python3 start costs 1–2 s of the emulated CPU).

    soak-agent.py PID SOCK LOG OUT INTERVAL_S PANEL < commands

Every INTERVAL_S seconds it appends a sample of the daemon PID to OUT, one JSON line:
kind "p", t (monotonic s), rss_kb, fds, threads, timers (timerfds among its descriptors),
inputs (/dev/input/event* nodes), sys_inputs (/sys/class/input/input* devices), log_lines
(lines of LOG, the daemon's output). Commands, one a line:

    clients N DONE_FILE   N socket clients one after another, in turn: one asks `status` and reads
                          the reply; one listens (up to 8 stay connected, receiving the gesture
                          lines, the oldest leaving when a ninth comes); one leaves in the middle
                          of its line ({"sta…); one asks and leaves before the reply; one connects
                          and leaves at once. Then creates DONE_FILE.
    ask JSON DONE_FILE    one command line (JSON without spaces) on a connection of its own; the reply
                          line is written to DONE_FILE (the scenario's mode switches: a python3
                          started per switch cost seconds of the emulated CPU)
    mark LABEL DONE_FILE  the listeners leave; when the daemon's status says the broker is
                          connected (up to 30 s), a sample of kind "q" (quiescent) with LABEL and
                          the clone latency of device PANEL (p50_ms, p99_ms from status); then
                          DONE_FILE. The checker (soak-check.py) compares these.
"""
import glob
import json
import os
import select
import socket
import sys
import time

pid, sock_path, log_path, out_path = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
interval, panel = float(sys.argv[5]), sys.argv[6]
out = open(out_path, "a", buffering=1)
listeners = []
log_pos = [0, 0]  # bytes read of LOG, lines counted


def log_lines():
    with open(log_path, "rb") as f:
        f.seek(log_pos[0])
        chunk = f.read()
    log_pos[0] += len(chunk)
    log_pos[1] += chunk.count(b"\n")
    return log_pos[1]


def sample(kind, **extra):
    status = {}
    for line in open(f"/proc/{pid}/status"):
        k, _, v = line.partition(":")
        status[k] = v.split()
    fds = timers = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        fds += 1
        try:
            timers += os.readlink(f"/proc/{pid}/fd/{fd}") == "anon_inode:[timerfd]"
        except OSError:
            pass  # closed meanwhile
    row = dict(kind=kind, t=round(time.monotonic(), 3), rss_kb=int(status["VmRSS"][0]), fds=fds,
               threads=int(status["Threads"][0]), timers=timers,
               inputs=len(glob.glob("/dev/input/event*")), sys_inputs=len(glob.glob("/sys/class/input/input*")),
               log_lines=log_lines(), **extra)
    out.write(json.dumps(row) + "\n")


def connect():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(30)
    s.connect(sock_path)
    return s


def ask(obj):
    """The reply to one command: the first line that is a reply ("ok", "error" or "status"); a
    gesture or mode event broadcast to every client may come before it (a long soak met one)."""
    s = connect()
    s.sendall(json.dumps(obj).encode() + b"\n")
    buf = b""
    while True:
        while b"\n" not in buf:
            chunk = s.recv(65536)
            if not chunk:
                s.close()
                raise SystemExit(f"soak-agent: the daemon closed the connection before replying to {obj}")
            buf += chunk
        line, buf = buf.split(b"\n", 1)
        reply = json.loads(line)
        if {"ok", "error", "status"} & reply.keys():
            s.close()
            return reply


def drain():
    for s in listeners:
        try:
            while s.recv(65536):
                pass
        except OSError:  # BlockingIOError: nothing more for now
            pass


def clients(n):
    for i in range(n):
        kind = i % 5
        if kind == 0:
            ask({"status": True})
        elif kind == 1:
            s = connect()
            s.setblocking(False)  # drained without waiting (a timeout would wait in poll first)
            listeners.append(s)
            if len(listeners) > 8:
                listeners.pop(0).close()
        elif kind == 2:
            s = connect()
            s.sendall(b'{"sta')
            s.close()
        elif kind == 3:
            s = connect()
            s.sendall(b'{"status":true}\n')
            s.close()
        else:
            connect().close()
        drain()


def mark(label):
    while listeners:
        listeners.pop().close()
    end = time.monotonic() + 30
    while True:
        st = ask({"status": True})["status"]
        if st.get("mqtt", {}).get("connected") or time.monotonic() > end:
            break
        time.sleep(0.2)
    lat = {}
    for d in st.get("devices", []):
        if d.get("name") == panel and "latency" in d and "clone" in d["latency"]:
            c = d["latency"]["clone"]
            lat = dict(p50_ms=c.get("p50_ms"), p99_ms=c.get("p99_ms"), lat_count=c.get("count"))
    time.sleep(0.5)  # the status client's own descriptor gone
    sample("q", label=label, mqtt=bool(st.get("mqtt", {}).get("connected")), **lat)


next_at = time.monotonic()
while True:
    left = next_at - time.monotonic()
    if left <= 0:
        try:
            sample("p")
        except FileNotFoundError:
            break  # the daemon is gone
        next_at += interval
        continue
    if not select.select([sys.stdin], [], [], left)[0]:
        continue
    line = sys.stdin.readline()
    if not line:
        break
    p = line.split()
    reply = ""
    if p[0] == "clients":
        clients(int(p[1]))
    elif p[0] == "ask":
        reply = json.dumps(ask(json.loads(p[1]))) + "\n"
    elif p[0] == "mark":
        mark(p[1])
    with open(p[-1] + ".part", "w") as f:
        f.write(reply)
    os.rename(p[-1] + ".part", p[-1])
