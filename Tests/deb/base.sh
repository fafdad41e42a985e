# Sourced by Tests/deb/run.sh and boot.sh: the minimal Debian root with systemd they start from,
# made once with debootstrap and kept in $cache (GESTURED_DEBROOT_CACHE, default
# /var/cache/gestured-test; delete it to refresh). Sets suite, mirror, cache and base.
#   DEB_SUITE=trixie     another Debian release than the host's (the Debian 13 package's boot test)
suite=${DEB_SUITE:-$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=${GESTURED_DEBROOT_CACHE:-/var/cache/gestured-test}
base="$cache/$suite-minbase"
if [ ! -e "$base/.complete" ]; then
  echo "== debootstrap $suite into $base (once; kept for later runs)"
  rm -rf "$base"
  mkdir -p "$cache"
  debootstrap --variant=minbase --include=systemd "$suite" "$base" "$mirror" > "$cache/$suite-debootstrap.log" 2>&1 \
    || { tail -20 "$cache/$suite-debootstrap.log" >&2; exit 1; }
  touch "$base/.complete"
fi
