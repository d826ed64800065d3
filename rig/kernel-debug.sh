#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-debug.sh: build (once, cached) an x86_64 debug kernel from Debian's
# linux-source-6.1 with allnoconfig + rig/configs/x86_64-debug-6.1.fragment
# (KASLR, KASAN, lockdep, kmemleak, UBSAN, fault injection, kprobes on
# ftrace, IBT sealing, signed modules, lockdown; no DWARF), and print its
# env file (the same keys as rig/kernel-amd64.sh, plus the ones below).
# Besides the signing key the build makes, the kernel trusts a second key,
# made here before the build and built in with CONFIG_SYSTEM_TRUSTED_KEYS
# (as a Secure Boot machine trusts the machine owner key enrolled in shim):
# the key DKMS signs with in the Secure Boot test (tests/boot/secureboot.sh).
#
# The build is keyed by (linux-source version, fragment hash) and redone
# only when one of them changes.  Results, under $KRELOC_CACHE/k/:
#   debug-6.1-<debver>-<hash>/build/     O= tree: KDIR, vmlinux (symbols),
#                                        System.map, certs/signing_key.*
#   debug-6.1-<debver>-<hash>/modroot/   modules_install output (signed)
#   debug-6.1-<debver>-<hash>/mok/       the trusted machine owner key:
#                                        mok.key, mok.der (DER), mok.pem
#   debug-6.1-<debver>-<hash>/env        the env file
#   debug.env                            a copy of the newest env file
#
# Env keys beyond kernel-amd64.sh's: VMLINUX (unstripped: the ELF symbol
# table, no DWARF), KSRC (source tree), SIGN_FILE, SIGN_KEY, SIGN_CERT
# (scripts/sign-file and the key the kernel trusts), SIGN_HASH, MOK_KEY,
# MOK_CERT (the machine owner key and its DER certificate; MOK_SUBJECT its
# common name),
# KERNEL_APPEND (command line words this kernel needs; run-vm.sh adds
# them), BUILD_TIME and BUILD_CPU (wall and user+system seconds of the
# cold build).
#
# Knobs: KRELOC_JOBS (default 2), KRELOC_REBUILD=1.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
frag="$here/configs/x86_64-debug-6.1.fragment"
jobs="${KRELOC_JOBS:-2}"
mok_subject="kreloc test machine owner key"
# The build's stamp: the fragment's hash and this script's build recipe
# (bump the recipe when a change here changes the result).
recipe=4

# A warm cache answers without asking apt or make.
if [ -z "${KRELOC_REBUILD:-}${KRELOC_REFRESH:-}" ] && [ -s "$CACHE/k/debug.env" ]; then
	res=$(sed -n 's/^RESULT=//p' "$CACHE/k/debug.env")
	if [ -n "$res" ] && [ -s "$res/done" ] &&
	   [ "$(cat "$res/done")" = "$(sha256sum < "$frag" | cut -c1-16) r$recipe" ]; then
		cat "$CACHE/k/debug.env"
		exit 0
	fi
fi

need_pkgs make gcc libc6-dev bc bison flex libelf-dev libssl-dev openssl \
	xz-utils cpio kmod dwarves
deb=$(fetch_deb linux-source-6.1)
debver=$(dpkg-deb -f "$deb" Version)
hash=$(sha256sum < "$frag" | cut -c1-16)
res="$CACHE/k/debug-6.1-$debver-$hash"
build="$res/build"

# The pristine source, shared with rig/kernel-ppc64be.sh (same place, same
# marker); unpacked once, under a lock.
src="$CACHE/src/linux-source-$debver"
mkdir -p "$CACHE/src"
unpack() {
	[ -f "$src/.kreloc-extracted" ] && return 0
	log "unpacking linux-source-6.1 $debver"
	local tmp="$src.tmp.$$"
	rm -rf "$tmp" && mkdir -p "$tmp"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-6.1.tar.xz | tar -xJ -C "$tmp"
	rm -rf "$src"
	mv "$tmp/linux-source-6.1" "$src"
	rmdir "$tmp"
	touch "$src/.kreloc-extracted"
}
exec 9> "$CACHE/src/.linux-source-$debver.lock"
flock 9
unpack

# Its own release name: nothing in the cache keyed by release (run dirs,
# maps) may meet the ppc64 BE kernel's plain 6.1.x.
kmake() { make -C "$src" O="$build" ARCH=x86_64 LOCALVERSION=-kreloc-debug "$@"; }

# One builder at a time per result; others wait and reuse it.
exec 8> "$res.lock"
flock 8
if [ -n "${KRELOC_REBUILD:-}" ] || [ "$(cat "$res/done" 2>/dev/null)" != "$hash r$recipe" ]; then
	rm -f "$res/done"
	mkdir -p "$build" "$res/mok"
	# The machine owner key, once per build (a new key needs a new kernel).
	if [ ! -s "$res/mok/mok.pem" ]; then
		openssl req -new -x509 -nodes -utf8 -sha256 -days 36500 -batch \
			-subj "/CN=$mok_subject/" -newkey rsa:2048 \
			-keyout "$res/mok/mok.key" -out "$res/mok/mok.pem" 2>/dev/null &&
		openssl x509 -in "$res/mok/mok.pem" -outform DER -out "$res/mok/mok.der" ||
			die "cannot make the machine owner key"
	fi
	log "configuring the debug kernel in $build (allnoconfig + $(basename "$frag"))"
	# The fragment as KCONFIG_ALLCONFIG: what it names is fixed, every
	# other option allnoconfig turns off, even one the fragment makes
	# visible (merging it after allnoconfig would give those their
	# defaults: IPv6, INET_DIAG, ...).  The trusted key's path is this
	# build's, so it is added here.
	{ cat "$frag"; echo "CONFIG_SYSTEM_TRUSTED_KEYS=\"$res/mok/mok.pem\""; } > "$res/allconfig"
	kmake -s KCONFIG_ALLCONFIG="$res/allconfig" allnoconfig >&2
	bad=0
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) grep -qxF "$line" "$build/.config" ||
			{ log "config: $line did not stick"; bad=1; } ;;
		"# CONFIG_"*" is not set")
			sym=${line#\# }; sym=${sym%% *}
			! grep -q "^$sym=" "$build/.config" || { log "config: $sym should be unset"; bad=1; } ;;
		esac
	done < "$res/allconfig"
	[ $bad -eq 0 ] || die "the debug config does not match $frag"
	fresh=0
	[ -f "$build/vmlinux" ] || fresh=1
	log "building the debug kernel with -j$jobs (minutes)"
	# Wall, user and system seconds: the CPU time is what an idle
	# machine pays, the wall time what this one did.
	brc=0
	TIMEFORMAT='%0R %0U %0S'
	{ time kmake -j"$jobs" bzImage modules >"$res/build.log" 2>&1 || brc=$?; } 2> "$res/build-time.tmp"
	[ $brc -eq 0 ] ||
		{ tail -40 "$res/build.log" >&2; die "debug kernel build failed (see $res/build.log)"; }
	read -r secs usr sys < "$res/build-time.tmp"
	log "debug kernel built in ${secs}s (CPU: ${usr}s user, ${sys}s system, -j$jobs)"
	# Only a build from an empty tree gives the cold time.
	if [ $fresh -eq 1 ] || [ ! -s "$res/build-time" ]; then
		mv "$res/build-time.tmp" "$res/build-time"
	fi
	rm -f "$res/build-time.tmp"
	rm -rf "$res/modroot"
	kmake -s INSTALL_MOD_PATH="$res/modroot" modules_install >&2
	for f in vmlinux System.map arch/x86/boot/bzImage scripts/sign-file \
		certs/signing_key.pem certs/signing_key.x509; do
		[ -s "$build/$f" ] || die "debug kernel build has no $f"
	done
	echo "$hash r$recipe" > "$res/done"
fi
flock -u 8

kver=$(cat "$build/include/config/kernel.release")
sighash=$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"/\1/p' "$build/.config")
cat > "$res/env.tmp" <<EOT
# rig/kernel-debug.sh: linux-source-6.1 $debver, allnoconfig + x86_64-debug-6.1.fragment
KVER=$kver
SERIES=debug
KARCH=x86
UNAME_M=x86_64
CROSS_COMPILE=
KDIR=$build
KSRC=$src
KIMAGE=$build/arch/x86/boot/bzImage
VMLINUZ=$build/arch/x86/boot/bzImage
VMLINUX=$build/vmlinux
SYSTEM_MAP=$build/System.map
MODDIR=$res/modroot
SIGN_FILE=$build/scripts/sign-file
SIGN_KEY=$build/certs/signing_key.pem
SIGN_CERT=$build/certs/signing_key.x509
SIGN_HASH=$sighash
MOK_KEY=$res/mok/mok.key
MOK_CERT=$res/mok/mok.der
MOK_SUBJECT="$mok_subject"
QEMU_BIN=qemu-system-x86_64
QEMU_ARGS="-M pc -cpu max -m 1024 -smp 2 -nographic -no-reboot"
CONSOLE=ttyS0
USERLAND=/bin
KERNEL_APPEND="krelocexit=reboot ignore_loglevel log_buf_len=8M"
BUILD_TIME=$(awk '{ print $1 }' "$res/build-time" 2>/dev/null)
BUILD_CPU=$(awk '{ print $2 + $3 }' "$res/build-time" 2>/dev/null)
RESULT=$res
EOT
mv "$res/env.tmp" "$res/env"
cp "$res/env" "$CACHE/k/debug.env.tmp.$$"
mv "$CACHE/k/debug.env.tmp.$$" "$CACHE/k/debug.env"
cat "$res/env"
