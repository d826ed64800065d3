#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run-vm.sh [OPTIONS] ENV STAGE LOG [APPEND] [DATA]
#
# The rig's one QEMU launcher.  Boots the kernel described by ENV (from
# rig/kernel-*.sh) under QEMU TCG with KASLR as the kernel defaults and
# writes the console to LOG.  DATA, if given, receives the guest's second
# serial port (ttyS1 / hvc1), used for bulk output such as /proc/kallsyms;
# where the machine has no second UART (QEMU's arm64 virt), ENV names a
# device for it (DATA_DEV: virtconsole or a chardev device such as
# pci-serial) and its tty in the guest (DATA_TTY).  KERNEL_APPEND in ENV
# (words a kernel needs on every boot) goes after APPEND.
# KRELOC_QEMU_EXTRA (from the caller's environment) adds QEMU options, e.g.
# a gdbstub.
#
# By default the initramfs is built here: busybox, rig/vm-init.sh as /init
# and STAGE (a directory that must contain kreloc/job) on top; the run
# succeeds when the job ran and the guest powered off.
#
# OPTIONS
#   --initrd FILE       boot FILE as the initramfs instead (a distribution's
#                       real one; STAGE is then "-" and no job is expected:
#                       the run succeeds when QEMU exits without a panic)
#   --kernel FILE       boot FILE instead of ENV's KIMAGE
#   --disk FILE         attach FILE as a raw virtio disk
#   --kernel-addr ADDR  ppc64 pseries: load the kernel at physical ADDR
#                       (QEMU's kernel-addr=), as kdump loads a capture
#                       kernel; a CONFIG_RELOCATABLE_TEST kernel then runs
#                       there instead of copying itself down to 0
#   --timeout SECONDS   default $KRELOC_VM_TIMEOUT or 600
#   --expect-panic      the job ends the kernel with a panic, which the
#                       caller dumps before it ends QEMU (rig/vm-vmcore.sh):
#                       the run succeeds when /init ran and the kernel then
#                       panicked, not when the job finished
# With the rig's own initramfs a boot must reach /init within
# $KRELOC_VM_INIT_TIMEOUT seconds (default 240); one that dies or hangs
# before it is booted once more.
# Exit 0 on success, 1 on timeout, panic or an unfinished job.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

initrd="" kernel="" disk="" kaddr="" expect_panic="" timeout_s="${KRELOC_VM_TIMEOUT:-600}"
while [ $# -gt 0 ]; do
	case "$1" in
	--initrd) initrd="$2"; shift 2 ;;
	--kernel) kernel="$2"; shift 2 ;;
	--disk) disk="$2"; shift 2 ;;
	--kernel-addr) kaddr="$2"; shift 2 ;;
	--timeout) timeout_s="$2"; shift 2 ;;
	--expect-panic) expect_panic=1; shift ;;
	--) shift; break ;;
	-*) die "run-vm.sh: unknown option $1" ;;
	*) break ;;
	esac
done
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
kernel="${kernel:-$KIMAGE}"

qemu_args="$QEMU_ARGS"
if [ -n "$kaddr" ]; then
	[ "$QEMU_BIN" = qemu-system-ppc64 ] || die "--kernel-addr is for the ppc64 pseries machine"
	# kernel-addr is a property of the machine: append it to -M.
	qemu_args=$(sed -E "s/(-M [^ ]+)/\1,kernel-addr=$kaddr/" <<<"$qemu_args")
fi
extra=()
[ -n "$disk" ] && extra+=(-drive "file=$disk,if=virtio,format=raw")

root=""
cleanup() { [ -n "$root" ] && rm -rf "$root" "$root.cpio.gz"; return 0; }
trap cleanup EXIT
if [ -z "$initrd" ]; then
	root=$(mktemp -d "$CACHE/tmp/initramfs.XXXXXX")
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
	initrd="$root.cpio.gz"
fi

# One boot; sets rc, and hung=1 when our /init never ran: with our own
# initramfs a boot that has not reached /init after $init_s seconds is
# stopped there (rc 124).  Nothing of kreloc's has run by then: the job
# loads it.
init_s="${KRELOC_VM_INIT_TIMEOUT:-240}"
[ "$init_s" -lt "$timeout_s" ] || init_s=$timeout_s
boot() {
	local start now qpid at_init=""
	start=$(date +%s)
	hung=0
	: > "$logf"
	# shellcheck disable=SC2086
	timeout "$timeout_s" "$QEMU_BIN" $qemu_args ${KRELOC_QEMU_EXTRA:-} -display none -monitor none \
		-kernel "$kernel" -initrd "$initrd" "${extra[@]}" \
		-append "console=$CONSOLE panic=-1 loglevel=4 krelocdata=${DATA_TTY:-${CONSOLE%0}1} $append ${KERNEL_APPEND:-}" \
		-serial "file:$logf" "${data_args[@]}" </dev/null &
	qpid=$!
	while [ -n "$root" ] && [ -z "$at_init" ] && kill -0 "$qpid" 2>/dev/null; do
		now=$(date +%s)
		if grep -q 'KRELOC-VM: booted' "$logf"; then
			at_init=$((now - start))
		elif [ $((now - start)) -ge "$init_s" ]; then
			hung=1
			kill "$qpid" 2>/dev/null || true
			break
		else
			sleep 1
		fi
	done
	set +e
	wait "$qpid"
	rc=$?
	set -e
	[ $hung -eq 0 ] || rc=124
	log "boot of $KVER${kaddr:+ at $kaddr} took $(( $(date +%s) - start ))s${at_init:+, /init after ${at_init}s} (qemu rc=$rc)"
}

boot
# A kernel that died or hung before our /init said a word ran nothing of
# kreloc's (the job loads it).  Under multi-threaded TCG this happens
# rarely to a distribution kernel: an int3 Oops in sched_clock_init_late
# while it patched its own text (once in ~200 boots), and Debian's 7.3.4
# silent after the setup code's "Probing EDD" until the 600 s timeout
# (once, in CI).  Boot once more and keep the first console; anything
# later than that counts.
# With a distribution's initramfs (--initrd) there is no such mark, but
# kreloc taints the kernel (O) when it loads: a kernel that panicked with
# its first report saying "Not tainted" had not loaded it (the int3 Oops in
# sched_clock_cpu of 7.3.4 was seen so, from swapper/0, in a boot test).
died_early() {
	[ $rc -ne 124 ] && grep -q 'Kernel panic' "$logf" || return 1
	if [ -n "$root" ]; then
		! grep -q 'KRELOC-VM: booted' "$logf"
	else
		grep -m1 -E '^(\[ *[0-9.]+\] )?CPU: [0-9]+ .*(Not tainted|Tainted:)' "$logf" |
			grep -c 'Not tainted' > /dev/null
	fi
}
# (hung=1 already means our initramfs and no /init.)
if [ $hung -eq 1 ] || died_early; then
	mv "$logf" "$logf.died-before-init"
	if [ $hung -eq 1 ]; then
		log "the kernel did not reach /init in ${init_s}s (see $logf.died-before-init): booting once more"
	else
		log "the kernel died before /init ran (see $logf.died-before-init): booting once more"
	fi
	boot
fi
if [ $hung -eq 1 ]; then
	log "the kernel did not reach /init in ${init_s}s, twice"
	echo "KRELOC-VM: TIMEOUT: no /init after ${init_s}s, twice" >> "$logf"
	exit 1
fi
if [ $rc -eq 124 ]; then
	log "timeout after ${timeout_s}s"
	echo "KRELOC-VM: TIMEOUT after ${timeout_s}s" >> "$logf"
	exit 1
fi
if [ -n "$expect_panic" ]; then
	grep -q 'KRELOC-VM: booted' "$logf" && grep -q 'Kernel panic' "$logf" && exit 0
	log "the job was to end the kernel with a panic, and did not (see $logf)"
	exit 1
fi
if grep -qE 'Kernel panic|KRELOC-VM: TIMEOUT' "$logf"; then
	log "kernel panic, see $logf"
	exit 1
fi
if [ -n "$root" ]; then
	grep -q 'KRELOC-VM: job done' "$logf" || { log "job did not finish, see $logf"; exit 1; }
elif [ $rc -ne 0 ]; then
	log "qemu exited $rc, see $logf"
	exit 1
fi
exit 0
