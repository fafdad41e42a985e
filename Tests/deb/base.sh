# Sourced by Tests/deb/run.sh and boot.sh: the minimal Debian root with systemd they start from,
# made once with debootstrap and kept in $cache (GESTURED_DEBROOT_CACHE, default
# /var/cache/gestured-test; delete it to refresh). Sets suite, arch, mirror, cache and base.
#   DEB_SUITE=trixie     another Debian release than the host's (the Debian 13 package's boot test)
#   DEB_ARCH=arm64       another architecture than the host's (the arm64 package's boot test): its
#                        programs run under qemu-user (binfmt_misc, see foreign_arch below)
suite=${DEB_SUITE:-$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")}
arch=${DEB_ARCH:-$(dpkg --print-architecture)}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=${GESTURED_DEBROOT_CACHE:-/var/cache/gestured-test}
base="$cache/$suite-minbase"
[ "$arch" = "$(dpkg --print-architecture)" ] || base="$cache/$suite-$arch-minbase"

# foreign_arch: a chroot into an arm64 root runs its programs (debootstrap's second stage, apt,
# the package's maintainer scripts) through qemu-aarch64 by binfmt_misc, registered with the
# F flag (the interpreter is opened now, so it need not exist inside the chroot). Chosen over
# debootstrap's second stage inside an arm64 VM: that needs a kernel that mounts the root
# without an initrd, and the initrd is made by the root's own initramfs-tools. A machine
# without binfmt_misc mounted gets it mounted; the registration is qemu-user-static's own line.
foreign_arch() {
  [ "$arch" = "$(dpkg --print-architecture)" ] && return
  [ "$arch" = arm64 ] || { echo "base.sh: no foreign architecture but arm64 ($arch)" >&2; exit 2; }
  [ -e /usr/lib/binfmt.d/qemu-aarch64.conf ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends qemu-user-static >/dev/null; }
  [ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || cat /usr/lib/binfmt.d/qemu-aarch64.conf > /proc/sys/fs/binfmt_misc/register
  grep -qx enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 || { echo "base.sh: binfmt_misc's qemu-aarch64 is disabled" >&2; exit 1; }
}
foreign_arch

if [ ! -e "$base/.complete" ]; then
  echo "== debootstrap $suite $arch into $base (once; kept for later runs)"
  rm -rf --one-file-system "$base"
  mkdir -p "$cache"
  s=$SECONDS
  debootstrap --arch="$arch" --variant=minbase --include=systemd "$suite" "$base" "$mirror" > "$cache/$suite-$arch-minbase.log" 2>&1 \
    || { tail -20 "$cache/$suite-$arch-minbase.log" >&2; exit 1; }
  echo "== debootstrap took $(( SECONDS - s )) s"
  touch "$base/.complete"
fi
