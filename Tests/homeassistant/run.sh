#!/usr/bin/env bash
# gestured against a real Home Assistant core and a real mosquitto (README: Home Assistant).
#   Tests/homeassistant/run.sh [--keep]     (GESTURED=path/to/gestured, default .build/debug/gestured;
#                                            --keep leaves the logs and Home Assistant's config dir)
# Home Assistant comes from scripts/deps.sh test (a venv at $HA_VENV); the check itself is
# Tests/homeassistant/check.py, run with that venv's Python. Prints its wall time.
set -euo pipefail
cd "$(dirname "$0")/../.."
HA_VENV=${HA_VENV:-/var/cache/gestured-test/ha-venv}
gestured=${GESTURED:-.build/debug/gestured}
[ -x "$gestured" ] || { echo "run.sh: no $gestured (swift build first)" >&2; exit 2; }
[ -x "$HA_VENV/bin/hass" ] || { echo "run.sh: no Home Assistant in $HA_VENV (scripts/deps.sh test installs it)" >&2; exit 2; }
start=$(date +%s)
"$HA_VENV/bin/python3" Tests/homeassistant/check.py --gestured "$gestured" --hass "$HA_VENV/bin/hass" \
  --recording Tests/Fixtures/recordings/tablets/Wacom_ISDv4_E6_Finger.single-center-circle.events "$@"
echo "homeassistant: passed in $(( $(date +%s) - start )) s"
