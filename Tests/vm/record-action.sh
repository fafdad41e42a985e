#!/bin/sh
# The command the scenario configs bind to gestures: appends one line per run to the file
# given as $1 — guest uptime, the user it ran as, and the GESTURE_* environment the daemon set.
out=$1
{
  printf 'uptime=%s uid=%s' "$(cut -d' ' -f1 /proc/uptime)" "$(id -u)"
  env | grep '^GESTURE_' | sort | while IFS= read -r kv; do printf ' %s' "$kv"; done
  printf '\n'
} >> "$out"
