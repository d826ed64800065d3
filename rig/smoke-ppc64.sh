#!/usr/bin/env bash
# Smoke test of the ppc64 QEMU rig:
#   rig/smoke-ppc64.sh <be|le>
# 1. gets the kernel (rig/kernel-ppc64<be|le>.sh, cached) and sources its env file;
# 2. cross-builds a hello-world external module against $KDIR, checks its vermagic,
#    and a static C program with ${CROSS_COMPILE}gcc;
# 3. stages hello.ko, the C program and a job for the rig's initramfs;
# 4. boots it with rig/run-vm.sh (120 s timeout); the job prints uname -a and the
#    _text/_stext/kernel_clone lines of /proc/kallsyms, runs the C program, insmods
#    and rmmods hello.ko;
# 5. checks the console log and compares runtime _text with $SYSTEM_MAP (if any).
# Scratch files: $CACHE/tmp/smoke-<be|le>/ (console.log is kept there).
# KRELOC_SMOKE_SLOF=1 boots through SLOF instead of VOF (drops ",x-vof=on").
set -euo pipefail

CACHE="${KRELOC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kreloc}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
FLAVOR="${1:-}"
case "$FLAVOR" in be|le) ;; *) echo "usage: $0 <be|le>" >&2; exit 2 ;; esac

# Shared helpers (apt, cache); this script keeps its own log prefix.
. "$HERE/lib.sh"
log() { printf '[smoke-ppc64 %s] %s\n' "$FLAVOR" "$*" >&2; }
die() { log "FAIL: $*"; exit 1; }


need_pkgs qemu-system-ppc cpio gzip make kmod coreutils
case "$FLAVOR" in
    be) need_pkgs gcc-powerpc64-linux-gnu libc6-dev-ppc64-cross ;;
    le) need_pkgs gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross ;;
esac

ENVFILE="$("$HERE/kernel-ppc64$FLAVOR.sh" | tail -1)"
[[ -f "$ENVFILE" ]] || die "kernel script gave no env file"
# shellcheck disable=SC1090
. "$ENVFILE"
log "env: $ENVFILE (KVER=$KVER)"
if [[ -n "${KRELOC_SMOKE_SLOF:-}" ]]; then
    sed 's/,x-vof=on//' "$ENVFILE" >"$CACHE/tmp/smoke-$FLAVOR.env"
    ENVFILE="$CACHE/tmp/smoke-$FLAVOR.env"
fi
[[ -x "$USERLAND/busybox" ]] || die "no busybox in USERLAND=$USERLAND"

W="$CACHE/tmp/smoke-$FLAVOR"
rm -rf "$W" && mkdir -p "$W/hello" "$W/root"

# ---- 2. external module ----------------------------------------------------------------
cat >"$W/hello/hello.c" <<'EOF'
#include <linux/module.h>
#include <linux/init.h>
#include <linux/kernel.h>

static int __init kreloc_hello_init(void)
{
	pr_info("kreloc_hello: init %ps\n", kreloc_hello_init);
	return 0;
}

static void __exit kreloc_hello_exit(void)
{
	pr_info("kreloc_hello: exit\n");
}

module_init(kreloc_hello_init);
module_exit(kreloc_hello_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kreloc rig smoke test module");
EOF
echo 'obj-m := kreloc_hello.o' >"$W/hello/Kbuild"
mv "$W/hello/hello.c" "$W/hello/kreloc_hello.c"
log "building kreloc_hello.ko against $KDIR"
make -C "$KDIR" M="$W/hello" ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE" modules >"$W/module-build.log" 2>&1 ||
    { cat "$W/module-build.log" >&2; die "module build failed"; }
VERMAGIC="$(modinfo -F vermagic "$W/hello/kreloc_hello.ko")"
[[ "$VERMAGIC" == "$KVER "* ]] || die "vermagic '$VERMAGIC' does not start with '$KVER '"
log "module vermagic: $VERMAGIC"

# ---- 2b. static userspace C program (the in-VM tests use small C helpers too) ---------
cat >"$W/hello/cprog.c" <<'EOF'
#include <stdio.h>
#include <sys/utsname.h>
int main(void)
{
	struct utsname u;
	if (uname(&u))
		return 1;
	printf("KRELOC-C-OK %s %s\n", u.machine, u.release);
	return 0;
}
EOF
"${CROSS_COMPILE}gcc" -static -O2 -o "$W/hello/cprog" "$W/hello/cprog.c" ||
    die "static ${CROSS_COMPILE}gcc build failed"

# ---- 3. the job, in the rig's own initramfs ---------------------------------------------
R="$W/root"
mkdir -p "$R/kreloc"
cp "$W/hello/kreloc_hello.ko" "$W/hello/cprog" "$R/kreloc/"
cat >"$R/kreloc/job" <<'EOF'
#!/bin/sh
echo "KRELOC-SMOKE-BEGIN"
echo "KRELOC-UNAME: $(uname -a)"
grep -E ' (_text|_stext|\.?kernel_clone)$' /proc/kallsyms | sed 's/^/KRELOC-KALLSYMS: /'
[ -d /sys/kernel/debug/kprobes ] && echo "KRELOC-DEBUGFS-KPROBES-OK"
./cprog
if insmod ./kreloc_hello.ko; then
    echo "KRELOC-INSMOD-OK"
    grep '^kreloc_hello ' /proc/modules | sed 's/^/KRELOC-MODULE: /'
    dmesg | grep 'kreloc_hello:' | sed 's/^/KRELOC-DMESG: /'
    rmmod kreloc_hello && echo "KRELOC-RMMOD-OK"
else
    echo "KRELOC-INSMOD-FAILED"
    dmesg | tail -5
fi
echo "KRELOC-SMOKE-END"
EOF
chmod 755 "$R/kreloc/job"

# ---- 4. boot (rig/run-vm.sh, the rig's one launcher) -------------------------------------
t0=$(date +%s.%N)
rc=0
KRELOC_VM_TIMEOUT=120 "$HERE/run-vm.sh" "$ENVFILE" "$R" "$W/console.log" "quiet" "$W/output.log" || rc=$?
t1=$(date +%s.%N)
BOOT_SECS=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}')
tr -d '\r' <"$W/output.log" >"$W/console.txt"
grep 'KRELOC-' "$W/console.txt" >&2 || true
((rc == 0)) || { tail -30 "$W/console.log" >&2; die "the VM run failed after ${BOOT_SECS}s"; }

# ---- 5. checks -------------------------------------------------------------------------
c="$W/console.txt"
grep -q 'KRELOC-SMOKE-BEGIN' "$c" || die "init script did not run"
grep -q '^KRELOC-SMOKE-END' "$c" || die "init script did not finish"
grep -q "^KRELOC-UNAME: Linux .* $KVER .* $UNAME_M" "$c" || die "uname does not show $KVER/$UNAME_M"
grep -q '^KRELOC-INSMOD-OK' "$c" || die "insmod failed"
grep -q '^KRELOC-RMMOD-OK' "$c" || die "rmmod failed"
grep -q '^KRELOC-DEBUGFS-KPROBES-OK' "$c" || die "no /sys/kernel/debug/kprobes"
grep -q "^KRELOC-C-OK $UNAME_M $KVER" "$c" || die "static C program did not run"
rt_text=$(awk '$1=="KRELOC-KALLSYMS:" && $4=="_text"{print $2}' "$c")
[[ -n "$rt_text" && ! "$rt_text" =~ ^0+$ ]] || die "no usable _text in /proc/kallsyms"
if [[ "$FLAVOR" == be ]]; then
    grep -qE '^KRELOC-KALLSYMS: [0-9a-f]+ T \.kernel_clone$' "$c" || die "no '.kernel_clone' text symbol (ELFv1)"
    grep -qE '^KRELOC-KALLSYMS: [0-9a-f]+ D kernel_clone$' "$c" || die "no 'kernel_clone' descriptor (KALLSYMS_ALL)"
else
    grep -qE '^KRELOC-KALLSYMS: [0-9a-f]+ T kernel_clone$' "$c" || die "no 'kernel_clone' text symbol"
fi
offset="n/a (no SYSTEM_MAP)"
if [[ -n "$SYSTEM_MAP" ]]; then
    map_text=$(awk '$3=="_text"{print $1; exit}' "$SYSTEM_MAP")
    offset=$(printf '0x%x' $((0x$rt_text - 0x$map_text)))
    # the whole kallsyms excerpt must match the link-time map shifted by that offset
    while read -r _ addr _ name; do
        m=$(awk -v n="$name" '$3==n{print $1; exit}' "$SYSTEM_MAP")
        [[ -n "$m" ]] || die "$name not in $SYSTEM_MAP"
        ((0x$addr - 0x$m == 0x$rt_text - 0x$map_text)) || die "$name: kallsyms $addr vs System.map $m"
    done < <(grep '^KRELOC-KALLSYMS:' "$c")
fi
{
    echo "flavor=$FLAVOR"
    echo "kver=$KVER"
    echo "boot_seconds=$BOOT_SECS"
    echo "qemu_args=$QEMU_ARGS"
    echo "vermagic=$VERMAGIC"
    echo "runtime__text=0x$rt_text"
    echo "kaslr_offset=$offset"
} >"$W/result"
log "PASS: booted $KVER ($UNAME_M), init ran, insmod/rmmod ok, qemu off after ${BOOT_SECS}s, offset $offset"
cat "$W/result"
