#!/usr/bin/env python3
"""System calls per 1,000 input events, from `strace -c -o FILE` summaries.

    syscalls.py EVENTS NAME=FILE... [--max N] [--max-reads-per-wakeup R]

Prints one line per daemon: the total per 1,000 events and its six most frequent calls.
With --max N, exits 1 when the first daemon's total per 1,000 events exceeds N; with
--max-reads-per-wakeup R, when its read calls exceed R per wakeup (the bounds a VM
scenario asserts: reads per wakeup do not depend on how the frames were batched). A wakeup is
an epoll_wait or an epoll_pwait: gestured issues epoll_pwait raw (CLinux `gestured_epoll_wait`).
"""
import sys


def calls(path):
    out = {}
    for line in open(path):
        p = line.split()
        # "% time  seconds  usecs/call  calls  [errors]  syscall"; the total line ends with "total"
        if len(p) >= 5 and p[0].replace(".", "").isdigit() and p[-1] != "total":
            out[p[-1]] = int(p[3])
    return out


def main():
    args = sys.argv[1:]
    def option(name):
        if name not in args: return None
        i = args.index(name)
        value = float(args[i + 1])
        del args[i:i + 2]
        return value
    bound = option("--max")
    per_wakeup = option("--max-reads-per-wakeup")
    events = int(args[0])
    print(f"\nsystem calls per 1,000 input events ({events} events played under strace -c; "
          "the bound command's spawn included):")
    first = None
    for spec in args[1:]:
        name, path = spec.split("=", 1)
        c = calls(path)
        per = sum(c.values()) * 1000 / events
        if first is None:
            wakeups = c.get("epoll_wait", 0) + c.get("epoll_pwait", 0)
            first, reads = per, c.get("read", 0) / max(1, wakeups)
        top = ", ".join(f"{k} {v * 1000 / events:.0f}" for k, v in sorted(c.items(), key=lambda kv: -kv[1])[:6])
        print(f"{name:10} {per:7.0f}   ({top})")
    if bound is not None and first > bound:
        print(f"FAIL: {first:.0f} system calls per 1,000 events, more than {bound:.0f}")
        return 1
    if per_wakeup is not None and reads > per_wakeup:
        print(f"FAIL: {reads:.2f} reads per wakeup (epoll_wait or epoll_pwait), more than {per_wakeup}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
