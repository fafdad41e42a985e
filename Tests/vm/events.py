#!/usr/bin/env python3
"""Selects gesture events (JSON Lines, one event per line) for the VM suite's assertions.

    events.py [--wait SECONDS] FILE [--after N] [--none] FILTER...

FILTER is KEY=VALUE (string equality), KEY~REGEX (regular expression on the string form),
KEY<NUMBER or KEY>NUMBER, KEY? (key present), where KEY may be dotted for nested objects
(center.x). Prints the matching events; exit 0 if at least one matched (with --none: if
none matched), 1 otherwise, 2 if a line is not a JSON object (a protocol error, reported
with its line number, never silently skipped).

--wait SECONDS: follows FILE until a complete line matches (exit 0, the matches printed) or
SECONDS pass (exit 1). One process for a whole wait: in the emulated VM a python3 start costs
1–2 s of CPU, too dear to start one per poll.
"""
import json
import os
import re
import sys
import time


def lookup(event, key):
    value = event
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def matches(event, flt):
    m = re.match(r"^([A-Za-z0-9_.]+)(=|~|<|>|\?)(.*)$", flt)
    if not m:
        raise SystemExit(f"events.py: bad filter {flt!r}")
    key, op, want = m.groups()
    value = lookup(event, key)
    if op == "?":
        return value is not None
    if value is None:
        return False
    if op == "=":
        return str(value) == want
    if op == "~":
        return re.search(want, str(value)) is not None
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    return value < float(want) if op == "<" else value > float(want)


def main():
    args = sys.argv[1:]
    wait = None
    if args[:1] == ["--wait"]:
        wait, args = float(args[1]), args[2:]
    path, args = args[0], args[1:]
    after, none = 0, False
    filters = []
    while args:
        a = args.pop(0)
        if a == "--after":
            after = int(args.pop(0))
        elif a == "--none":
            none = True
        else:
            filters.append(a)
    if wait is not None and none:
        raise SystemExit("events.py: --wait waits for a match; --none cannot be waited for")
    found = 0
    number = 0
    pending = ""
    deadline = time.monotonic() + (wait or 0)
    # Waiting, the file may not be there yet (a client still starting).
    while wait is not None and not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.05)
    with open(path, encoding="utf-8") as f:
        while True:
            chunk = f.read()
            # Only complete lines: a client may be half-way through writing the last one.
            text, pending = (pending + chunk), ""
            lines = text.split("\n")
            if wait is not None:
                pending = lines.pop()
            for line in lines:
                number += 1
                if number <= after or not line.strip():
                    continue
                try:
                    event = json.loads(line)
                except json.JSONDecodeError as e:
                    print(f"{path}:{number}: not JSON ({e}): {line.strip()[:200]}", file=sys.stderr)
                    return 2
                if not isinstance(event, dict):
                    print(f"{path}:{number}: not a JSON object: {line.strip()[:200]}", file=sys.stderr)
                    return 2
                if all(matches(event, flt) for flt in filters):
                    found += 1
                    print(line)
            if wait is None or found or time.monotonic() >= deadline:
                break
            time.sleep(0.05)
    if none:
        return 0 if found == 0 else 1
    return 0 if found else 1


if __name__ == "__main__":
    sys.exit(main())
