#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run-vm.sh ENV STAGE LOG [APPEND] [DATA]
#
# Pack STAGE (a directory that must contain kreloc/job) with busybox into an
# initramfs, boot the kernel described by ENV (from rig/kernel-*.sh) under
# QEMU TCG with KASLR as the kernel defaults, and write the console to LOG.
# DATA, if given, receives the guest's second serial port (ttyS1 / hvc1),
# used for bulk output such as /proc/kallsyms; where the machine has no second
# UART (QEMU's arm64 virt), ENV names a device for it (DATA_DEV: virtconsole
# or a chardev device such as pci-serial) and its tty in the guest (DATA_TTY).  KERNEL_APPEND in ENV (words
# a kernel needs on every boot) goes after APPEND.  KRELOC_QEMU_EXTRA (from the
# caller's environment) adds QEMU options, e.g. a gdbstub.  Exit 0 if the
# job ran and the guest powered off, 1 on timeout or panic.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

envf="$1" stage="$2" logf="$3" append="${4:-}" data="${5:-/dev/null}"
# shellcheck disable=SC1090
. "$envf"
need_pkgs cpio
case "$QEMU_BIN" in
qemu-system-x86_64) need_pkgs qemu-system-x86 ;;
qemu-system-ppc64) need_pkgs qemu-system-ppc ;;
qemu-system-aarch64) need_pkgs qemu-system-arm ;;
esac
case "${DATA_DEV:-}" in
"") data_args=(-serial "file:$data") ;;
virtconsole) data_args=(-device virtio-serial-pci -chardev "file,id=krelocdata,path=$data"
			-device virtconsole,chardev=krelocdata) ;;
*) data_args=(-chardev "file,id=krelocdata,path=$data" -device "$DATA_DEV,chardev=krelocdata") ;;
esac

root=$(mktemp -d "$CACHE/tmp/initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/sbin" "$root/usr/bin" "$root/usr/sbin" "$root/etc"
cp "${USERLAND}/busybox" "$root/bin/busybox"
cp "$(dirname "$0")/vm-init.sh" "$root/init"
chmod +x "$root/init"
echo 'root:x:0:0:root:/:/bin/sh' > "$root/etc/passwd"
echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >> "$root/etc/passwd"
echo 'root:x:0:' > "$root/etc/group"
echo 'nogroup:x:65534:' >> "$root/etc/group"
cp -a "$stage/." "$root/"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$root.cpio.gz"

timeout_s="${KRELOC_VM_TIMEOUT:-600}"
start=$(date +%s)
set +e
# shellcheck disable=SC2086
timeout "$timeout_s" "$QEMU_BIN" $QEMU_ARGS ${KRELOC_QEMU_EXTRA:-} -display none -monitor none \
	-kernel "$KIMAGE" -initrd "$root.cpio.gz" \
	-append "console=$CONSOLE panic=-1 loglevel=4 krelocdata=${DATA_TTY:-${CONSOLE%0}1} $append ${KERNEL_APPEND:-}" \
	-serial "file:$logf" "${data_args[@]}" </dev/null
rc=$?
set -e
rm -f "$root.cpio.gz"
log "boot of $KVER took $(( $(date +%s) - start ))s (qemu rc=$rc)"
if [ $rc -eq 124 ]; then
	log "timeout after ${timeout_s}s"
	echo "KRELOC-VM: TIMEOUT after ${timeout_s}s" >> "$logf"
	exit 1
fi
if grep -qE 'Kernel panic|KRELOC-VM: TIMEOUT' "$logf"; then
	log "kernel panic, see $logf"
	exit 1
fi
grep -q 'KRELOC-VM: job done' "$logf" || { log "job did not finish, see $logf"; exit 1; }
exit 0
