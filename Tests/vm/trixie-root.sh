#!/usr/bin/env bash
# The Debian 13 ("trixie") root the VM suite boots with VM_ROOT=trixie (Tests/vm/run.sh): the
# trixie minbase of Tests/deb/base.sh plus Debian 13's kernel, the input stack the scenarios use
# and the kiosk tier's compositors, clients and browsers. Made once per package list, kept in
# $cache/trixie-vm-HASH (the hash is the list's: a changed list makes a new root; delete old ones
# by hand). Prints the root's path on stdout, progress on stderr.
#   Tests/vm/trixie-root.sh
#   GESTURED_DEBROOT_CACHE=dir   default /var/cache/gestured-test (as Tests/deb/base.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
[ "$(id -u)" = 0 ] || { echo "trixie-root.sh: needs root (debootstrap, chroot)" >&2; exit 1; }

# What the guest runs: udev and kmod (guest.sh), the scenarios' tools (Tests/vm/lib.sh: evemu,
# libinput, python3-evdev for finger.py, strace, setpriv), gestured's shared libraries, seatd, the
# compositors of the kiosk tier (cage, labwc, sway, weston, wayfire; Xwayland for those that start
# it), wev, Mesa's software renderers (wayfire renders only with GLES), and the browsers of the
# browser tier with fonts to draw their pages. linux-image-amd64: the guest runs Debian 13's
# kernel with its own modules (run.sh boots the root's /boot/vmlinuz-*).
pkgs="linux-image-amd64 udev kmod procps util-linux strace python3 python3-evdev evemu-tools libinput-tools
  libevdev2 libudev1 libmtdev1t64 libmosquitto1 seatd xwayland wev cage labwc sway weston wayfire
  libgl1-mesa-dri libegl-mesa0 chromium cog fonts-dejavu-core fonts-liberation"
want=$(echo $pkgs | tr -s ' ' '\n' | sort | tr '\n' ' ')

# The trixie minbase (debootstrap, kept) that every Debian 13 root starts from; its output to stderr.
DEB_SUITE=trixie DEB_ARCH=amd64 source Tests/deb/base.sh >&2
root="$cache/trixie-vm-$(echo "$want" | md5sum | cut -c1-8)"
if [ ! -e "$root/.complete" ]; then
  echo "== the VM root $root (once; kept for later runs): $want" >&2
  s=$SECONDS
  rm -rf --one-file-system "$root"; cp -a "$base" "$root"; rm -f "$root/.complete"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  mount -t proc proc "$root/proc"
  # shellcheck disable=SC2086
  chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
    sh -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends $want && apt-get clean" > "$root.log" 2>&1 \
    || { umount "$root/proc"; tail -20 "$root.log" >&2; exit 1; }
  umount "$root/proc"
  echo "$want" > "$root/.complete"
  echo "== the VM root took $(( SECONDS - s )) s" >&2
fi
echo "$root"
