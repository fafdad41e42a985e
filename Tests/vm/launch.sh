# Host-side helpers of the benchmark scripts (count-instructions.sh, compare-lisgd.sh), which run
# themselves again inside the VM of the end-to-end suite with `--inside RESULTS …` and leave
# their figures in RESULTS/figures.txt. (lib.sh is the guest's.)

# vm_prepare TOOL NAME: the newest Debian kernel ($kernel), and a fresh directory the guest may
# write its results to ($results, /tmp/gestured-NAME.XXXXXX).
vm_prepare() {
  kernel=$(ls -1 /boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -1)
  [ -n "$kernel" ] || { echo "$1: no /boot/vmlinuz-*-amd64" >&2; exit 1; }
  results=$(mktemp -d "/tmp/gestured-$2.XXXXXX"); chmod 755 "$results"
}

# vm_figures TOOL SECONDS MEMORY COMMAND: boots $kernel emulated (2 CPUs, MEMORY, $results
# writable) and runs COMMAND in it, for SECONDS at most; the console is shown and kept in
# $results/console.log. Exits with the VM's status, or 1 when it wrote no figures.
vm_figures() {
  timeout -k 20 "$2" vng --run "$kernel" --disable-kvm --memory "$3" --cpus 2 --rwdir "$results" \
    -- "$4" </dev/null 2>&1 | tee "$results/console.log"
  local status=${PIPESTATUS[0]}
  [ -f "$results/figures.txt" ] || { echo "$1: no figures (VM status $status); see $results" >&2; exit 1; }
  exit "$status"
}
