#!/usr/bin/env bash
# The package as it will be used, as root: a Debian root (the debootstrap base of Tests/deb/run.sh
# plus udev, mosquitto, libinput-tools, python3-evdev and make) with the .deb installed, made into
# an ext4 image and booted under emulated qemu (TCG), systemd as PID 1 and no network device
# (loopback only). An amd64 package boots the host's kernel and initrd (qemu-system-x86_64); an
# arm64 one (the .deb's Architecture) boots Debian's linux-image-arm64 installed in its own arm64
# root (qemu-system-aarch64 -M virt, a Cortex-A72: the Raspberry Pi 4's core), the root made
# through qemu-user (Tests/deb/base.sh). Inside (Tests/deb/boot-guest.sh): the
# operator turns on passthrough, a keys binding and [mqtt] to the local mosquitto; reload,
# restart, daemon-reload as the service says; libinput must read the clone and the typed keys,
# the broker must hold `online`. Then the same after `apt-get purge` and `make install`.
#   Tests/deb/boot.sh [DEB]        DEB: test this package instead of building one
#   DEB_SUITE=trixie               boot a Debian 13 root (with the Debian 13 package) instead of the host's release
#   DEB_ARCH=arm64                 default: the .deb's Architecture
#   GESTURED_DEBROOT_CACHE=dir     where the base roots are kept (default /var/cache/gestured-test)
#   BOOT_TIMEOUT=seconds           bounds the VM run (default 1200)
#   BOOT_PHASES=deb                the package's checks only, not purge and make install's after them
#   BOOT_PAGES=16k                 arm64: Debian's 16 KiB-page kernel (linux-image-arm64-16k, the
#                                  Raspberry Pi 5's page size) on a CPU that has 16 KiB pages
#                                  (-cpu max; the Cortex-A72 has none), in a root of its own
set -euo pipefail
cd "$(dirname "$0")/../.."
[ "$(id -u)" = 0 ] || { echo "boot test: needs root (debootstrap, chroot)" >&2; exit 1; }
start=$(date +%s)

deb=${1:-$(scripts/deb.sh)}
export DEB_ARCH=${DEB_ARCH:-$(dpkg-deb -f "$deb" Architecture)}

# The base: Tests/deb/run.sh's debootstrap root plus what the test uses and the package's
# Depends, so the image installs the .deb offline. Made once per package list.
depends=$(dpkg-deb -f "$deb" Depends | sed 's/([^)]*)//g; s/|[^,]*//g; s/,/ /g')
extra="udev kmod mosquitto mosquitto-clients libinput-tools python3-evdev make $depends"
# arm64 boots the root's own kernel: Debian's, its initrd made in the root by initramfs-tools
# (a Recommends, so named).
flavour=$DEB_ARCH${BOOT_PAGES:+-$BOOT_PAGES}
[ -z "${BOOT_PAGES:-}" ] || [ "$flavour" = arm64-16k ] || { echo "boot test: BOOT_PAGES=$BOOT_PAGES: only arm64's 16k" >&2; exit 2; }
[ "$DEB_ARCH" = amd64 ] || extra="$extra linux-image-$flavour initramfs-tools"
source Tests/deb/base.sh
minbase=$base
base="$cache/$suite-boot-$(echo "$extra" | tr -s ' ' '\n' | sort | md5sum | cut -c1-8)"
[ "$arch" = amd64 ] || base="$cache/$suite-$arch-boot-$(echo "$extra" | tr -s ' ' '\n' | sort | md5sum | cut -c1-8)"
if [ ! -e "$base/.complete" ]; then
  echo "== the base root $base (once; kept for later runs)"
  rm -rf "$base"; cp -a "$minbase" "$base"; rm -f "$base/.complete"
  cp /etc/resolv.conf "$base/etc/resolv.conf"
  mount -t proc proc "$base/proc"
  # The kernel goes in last, by itself: installed with the rest, its initrd was made twice (by the
  # kernel's own hook, then again by initramfs-tools' trigger, which udev and kmod activate in the
  # same run), each time through qemu-user for arm64. The root's name still hashes the whole list.
  kernel_pkg=$(tr ' ' '\n' <<< "$extra" | grep '^linux-image-' || true)
  rest=$(tr ' ' '\n' <<< "$extra" | grep -v '^linux-image-' | tr '\n' ' ')
  install="apt-get install -y -qq --no-install-recommends"
  # shellcheck disable=SC2086
  chroot "$base" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
    sh -c "apt-get update -qq && $install $rest${kernel_pkg:+ && $install $kernel_pkg} && apt-get clean" > "$base.log" 2>&1 \
    || { umount "$base/proc"; tail -20 "$base.log" >&2; exit 1; }
  umount "$base/proc"
  touch "$base/.complete"
  echo "== the base root took $(( $(date +%s) - start )) s"
fi

case "$arch" in
  amd64)
    kernel=$(ls -1 /boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -1)
    [ -n "$kernel" ] || { echo "boot test: no /boot/vmlinuz-*-amd64 (scripts/deps.sh vm installs it)" >&2; exit 1; }
    kver=${kernel#/boot/vmlinuz-}
    initrd=/boot/initrd.img-$kver
    [ -f "$initrd" ] && [ -d "/lib/modules/$kver" ] || { echo "boot test: no $initrd or /lib/modules/$kver" >&2; exit 1; }
    qemu=(qemu-system-x86_64) tty=ttyS0 ;;
  arm64)
    kernel=$(ls -1 "$base"/boot/vmlinuz-*-"$flavour" 2>/dev/null | sort -V | tail -1)
    [ -n "$kernel" ] || { echo "boot test: no vmlinuz in $base/boot" >&2; exit 1; }
    kver=${kernel##*/vmlinuz-}
    initrd=$base/boot/initrd.img-$kver
    [ -f "$initrd" ] || { echo "boot test: no $initrd" >&2; exit 1; }
    command -v qemu-system-aarch64 >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends qemu-system-arm >/dev/null; }
    # -kernel boots the Image directly (no firmware); PL011 is the console.
    # pauth-impdef: QEMU's cheap pointer authentication (the architected one is slow under TCG).
    cpu=cortex-a72; [ -z "${BOOT_PAGES:-}" ] || cpu=max,pauth-impdef=on
    qemu=(qemu-system-aarch64 -M virt -cpu "$cpu") tty=ttyAMA0 ;;
  *) echo "boot test: no boot for $arch" >&2; exit 2 ;;
esac
echo "== $deb ($arch), kernel $kver"

work=$(mktemp -d /var/tmp/gestured-boot.XXXXXX)
root=$work/root
cleanup() { umount "$root/proc" 2>/dev/null || true; rm -rf --one-file-system "$work"; }
trap cleanup EXIT
cp -a "$base/." "$root/"
rm -f "$root/.complete" "$root/etc/resolv.conf"
echo kiosk > "$root/etc/hostname"

# amd64: the kernel's input modules (uinput, evdev) for the host's kernel, which the VM boots
# (arm64's root has its kernel's modules).
if [ "$arch" = amd64 ]; then
  mkdir -p "$root/lib/modules/$kver/kernel/drivers"
  cp -a "/lib/modules/$kver/kernel/drivers/input" "$root/lib/modules/$kver/kernel/drivers/"
  cp -a /lib/modules/"$kver"/modules.{order,builtin,builtin.modinfo} "$root/lib/modules/$kver/" 2>/dev/null || true
  depmod -b "$root" "$kver"
fi

# The package, installed as an operator would (its Depends are all present: no network needed).
cp "$deb" "$root/tmp/"
mount -t proc proc "$root/proc"
chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -qq --no-install-recommends "./tmp/$(basename "$deb")" > "$work/install.log" 2>&1 \
  || { cat "$work/install.log" >&2; echo "boot test: apt-get install failed" >&2; exit 1; }
umount "$root/proc"
# The installed binary is the package's architecture's (the guest could not run another).
echo "== installed: $(file -b "$root/usr/bin/gestured" | cut -d, -f1-2)"
case "$arch" in
  amd64) machine='x86-64' ;;
  arm64) machine='ARM aarch64' ;;
esac
file -b "$root/usr/bin/gestured" | grep -q "ELF 64-bit LSB .*, $machine," \
  || { echo "boot test: /usr/bin/gestured is not $machine: $(file -b "$root/usr/bin/gestured")" >&2; exit 1; }
# No segment both writable and executable: the unit's MemoryDenyWriteExecute refuses to map one
# (the arm64 binary was one such segment until Package.swift's -z separate-code).
if readelf -lW "$root/usr/bin/gestured" | awk '$1 == "LOAD" && $(NF-1) ~ /W/ && $(NF-1) ~ /E/ { found = 1 } END { exit !found }'; then
  echo "boot test: /usr/bin/gestured has a writable and executable segment:" >&2
  readelf -lW "$root/usr/bin/gestured" | grep LOAD >&2; exit 1
fi
# Every segment aligned at least to the largest page size its kiosks' kernels use: a segment
# aligned below the page size cannot be mapped. arm64: 16 KiB, the Raspberry Pi 5's kernel
# (aarch64's ld aligns to 64 KiB by default; checked because a link option could change that,
# and the VM here boots a 4 KiB-page kernel).
[ "$arch" = arm64 ] && min_align=$((0x4000)) || min_align=$((0x1000))
while read -r align; do
  [ $((align)) -ge "$min_align" ] || { echo "boot test: /usr/bin/gestured has a segment aligned to $align, below $min_align:" >&2
    readelf -lW "$root/usr/bin/gestured" | grep LOAD >&2; exit 1; }
done < <(readelf -lW "$root/usr/bin/gestured" | awk '$1 == "LOAD" { print $NF }')

# What `make install` needs later in the VM: the Makefile and the files it installs, and the
# binary from the package (make install with GESTURED_BIN builds nothing).
mkdir -p "$root/root/src"
cp -a Makefile README.md systemd packaging config "$root/root/src/"
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/bin/gestured > "$root/root/src/gestured"
chmod 755 "$root/root/src/gestured"

# The test runs as a unit (it waits for the boot to finish), then powers the VM off.
mkdir -p "$root/root/e2e"
cp Tests/deb/boot-guest.sh Tests/vm/finger.py "$root/root/e2e/"
case "${BOOT_PHASES:-deb make}" in
  "deb make") ;;
  deb) echo deb > "$root/root/e2e/phases" ;;
  *) echo "boot test: BOOT_PHASES is 'deb' or 'deb make', not '$BOOT_PHASES'" >&2; exit 2 ;;
esac
# The page size the guest's kernel must run with (BOOT_PAGES).
[ "${BOOT_PAGES:-}" = 16k ] && echo 16384 > "$root/root/e2e/pagesize" || echo 4096 > "$root/root/e2e/pagesize"
cat > "$root/etc/systemd/system/gestured-e2e.service" <<'UNIT'
[Unit]
Description=gestured end-to-end test (Tests/deb/boot.sh)
After=gestured.service mosquitto.service
[Service]
Type=simple
ExecStart=/bin/sh -c '/root/e2e/boot-guest.sh > /dev/TTY 2>&1'
ExecStopPost=/bin/systemctl --no-block poweroff
UNIT
sed -i "s/TTY/$tty/" "$root/etc/systemd/system/gestured-e2e.service"
ln -s ../gestured-e2e.service "$root/etc/systemd/system/multi-user.target.wants/gestured-e2e.service"
# No login prompt on the serial console: its getty hangs up /dev/$tty when it starts, and every
# line the test writes there after that is lost.
ln -sf /dev/null "$root/etc/systemd/system/serial-getty@$tty.service"

image=$work/root.img
# boot_vm: the root as a fresh image, booted until the guest powers off (or BOOT_TIMEOUT). A
# guest whose kernel reports a CPU stuck for 2 minutes before the test inside has started (TCG:
# systemd stuck at 6.8 s of boot for 600 s until the limit, seen once in 2026-11) is stopped:
# returns 2.
boot_vm() {
  mkfs.ext4 -q -F -L gestured-e2e -d "$root" "$image" 2G
  : > "$work/console.log"
  timeout -k 10 "${BOOT_TIMEOUT:-1200}" "${qemu[@]}" -accel tcg -m 1024 -smp 2 -no-reboot \
    -kernel "$kernel" -initrd "$initrd" \
    -append "root=/dev/vda rw console=$tty panic=-1 quiet systemd.show_status=0 systemd.journald.forward_to_console=1" \
    -drive file="$image",format=raw,if=virtio -nic none -display none -serial file:"$work/console.log" \
    </dev/null &
  local qemu=$!
  while kill -0 "$qemu" 2>/dev/null; do
    # A CPU stuck for 2 minutes (the kernel says so every ~28 s), not a passing stall of a loaded host.
    local stuck
    stuck=$(grep -o 'stuck for [0-9]*s' "$work/console.log" | tr -dc '0-9\n' | sort -n | tail -1) || true
    if [ "${stuck:-0}" -ge 120 ] && ! grep -q '^boot: booted after' "$work/console.log"; then
      kill "$qemu"; wait "$qemu" 2>/dev/null
      echo "boot test: the guest's kernel locked up before the test began: $(grep -m1 'soft lockup' "$work/console.log" | tr -d '\r')" >&2
      return 2
    fi
    sleep 5
  done
  wait "$qemu" || echo "boot test: qemu exited with status $? (124: the ${BOOT_TIMEOUT:-1200} s limit)" >&2
}
echo "== booting (TCG, no network device); prepared in $(( $(date +%s) - start )) s"
boot=$(date +%s)
# Once more after a lockup before the test began: the emulator's, not the package's (nothing of
# gestured has run by then); a second one fails the test below.
boot_vm || { [ $? = 2 ] && echo "== booting again" && boot=$(date +%s) && boot_vm; } || true
log=/tmp/gestured-boot-$(date +%Y%m%d-%H%M%S).log
cp "$work/console.log" "$log"
grep -E '^(boot|==)' "$log" | tr -d '\r' || true
echo "boot test: the guest's console is in $log"
echo "boot test: VM ran $(( $(date +%s) - boot )) s, whole test $(( $(date +%s) - start )) s"
summary=$(grep -E '^boot: [0-9]+ passed, [0-9]+ failed' "$log" | tr -d '\r' | tail -1)
if [ -z "$summary" ]; then
  echo "boot test: the guest did not finish; console:" >&2
  tail -n 60 "$log" >&2
  exit 1
fi
[[ "$summary" = *" 0 failed" ]] || exit 1
