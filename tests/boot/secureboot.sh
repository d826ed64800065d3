#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# secureboot.sh ENV CONSOLE: Secure Boot end to end, on the debug kernel of
# ENV (rig/kernel-debug.sh), which trusts a machine owner key (MOK_KEY,
# MOK_CERT; built in with CONFIG_SYSTEM_TRUSTED_KEYS) as a Secure Boot
# machine trusts the key enrolled in shim's MOK list.  Run by rig/vm-debug.sh
# (the debug stage).
#
# In a bookworm root with DKMS (tests/boot/mkroot.sh sb, a throw-away layer
# over it) the debug kernel is put where a Debian kernel package puts one
# (/boot, /lib/modules/KVER, its build tree as /lib/modules/KVER/build),
# DKMS is told in /etc/dkms/framework.conf to sign with the machine owner
# key (mok_signing_key, mok_certificate), and kreloc-dkms, kreloc and
# libkreloc0 are installed with apt.  Two boots of initramfs-tools images under
# lockdown=integrity module.sig_enforce=1:
#   signed    the image with DKMS's module: kreloc loads first, and the
#             packaged kreloc show works
#   unsigned  the same source built by make, unsigned, in its place: the
#             kernel refuses it, and loads the other modules
# Prints KTAP blocks on stdout (rig/ktap.sh); the boots' consoles go to
# CONSOLE.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/rig/lib.sh"
. "$here/lib.sh"
export -f in_root

envf="$1" console_all="$2"
# shellcheck disable=SC1090
. "$envf"
[ -n "${MOK_KEY:-}" ] && [ -s "$MOK_KEY" ] && [ -s "$MOK_CERT" ] ||
	die "$envf names no machine owner key (rig/kernel-debug.sh makes one)"
need_pkgs openssl kmod cpio
work="$CACHE/boot/run-secureboot"
# (its own apt archive: the bookworm boot test may run at the same time)
archives="$CACHE/boot/apt-secureboot"
exec 8> "$work.lock"
flock -w 3600 8 || die "another Secure Boot test holds $work.lock"
layer_umount "$work/root"
trap 'layer_umount "$work/root"' EXIT
rm -rf "$work"
mkdir -p "$work"
: > "$console_all"
append="lockdown=integrity module.sig_enforce=1"

exec 3>&1
echo "KRELOC-TEST-PLAN debug-secureboot-install debug-secureboot-signed debug-secureboot-unsigned"

debs=$("$here/debs.sh")
version=$(cat "$debs/version")
arch=$(dpkg --print-architecture)
r=$(layer_mount "$("$here/mkroot.sh" sb)" "$work/root")

# The kernel, as its package would have put it.
mkdir -p "$r/lib/modules" "$r/boot"
rm -rf "$r/lib/modules/$KVER"
cp -a "$(mod_root "$MODDIR")/lib/modules/$KVER" "$r/lib/modules/"
rm -f "$r/lib/modules/$KVER/build" "$r/lib/modules/$KVER/source"
ln -s "$KDIR" "$r/lib/modules/$KVER/build"
cp "$KIMAGE" "$r/boot/vmlinuz-$KVER"
cp "$SYSTEM_MAP" "$r/boot/System.map-$KVER"
cp "$KDIR/.config" "$r/boot/config-$KVER"
in_root "$r" depmod -a "$KVER"
# DKMS's signing key where Debian's wiki (SecureBoot) has one made, named
# in framework.conf as the wiki says.
mkdir -p "$r/var/lib/shim-signed/mok"
cp "$MOK_KEY" "$r/var/lib/shim-signed/mok/MOK.priv"
cp "$MOK_CERT" "$r/var/lib/shim-signed/mok/MOK.der"
printf '%s\n' "mok_signing_key=/var/lib/shim-signed/mok/MOK.priv" \
	"mok_certificate=/var/lib/shim-signed/mok/MOK.der" >> "$r/etc/dkms/framework.conf"
# The test's initramfs (lib.sh): the debug kernel decompresses gzip only;
# two of its modules to load after kreloc.
itools_fixtures "$r" gzip dummy vfat

t_begin debug-secureboot-install 9
t_ok "the debug kernel has the machine owner key built in (CONFIG_SYSTEM_TRUSTED_KEYS)" \
	sh -c 'k=$(sed -n "s/^CONFIG_SYSTEM_TRUSTED_KEYS=\"\(.*\)\"$/\1/p" "$1/.config") &&
		[ -s "$k" ] && openssl x509 -in "$k" -outform DER | cmp -s - "$2"' sh "$KDIR" "$MOK_CERT"
mkdir -p "$r/tmp/debs"
cp "$debs"/cur/kreloc-dkms_*_all.deb "$debs"/cur/kreloc_*_"$arch".deb \
	"$debs"/cur/libkreloc0_*_"$arch".deb "$r/tmp/debs/"
t_ok "apt-get install ./kreloc-dkms_${version}_all.deb ./kreloc_${version}_$arch.deb ./libkreloc0_${version}_$arch.deb" \
	apt_install "$r" "$archives" --no-install-recommends \
	"/tmp/debs/kreloc-dkms_${version}_all.deb" "/tmp/debs/kreloc_${version}_$arch.deb" \
	"/tmp/debs/libkreloc0_${version}_$arch.deb" >"$work/apt.log" 2>&1
[ "$T_FAIL" = 0 ] || t_diag "$(tail -20 "$work/apt.log")"
t_diag "$(grep -e '^Building for' -e '^Signing' -e 'Sign command' -e 'Signing key' "$work/apt.log" || true)"
t_ok "dkms status: kreloc/$version installed for $KVER" \
	bash -c 'in_root "$1" dkms status kreloc 2>/dev/null | grep -qF "kreloc/$2, $3, x86_64: installed"' \
	bash "$r" "$version" "$KVER"
ko=$(ls "$r/lib/modules/$KVER/updates/dkms/kreloc.ko"* 2>/dev/null | head -1 || true)
signed="$work/kreloc-signed.ko"
if [ -n "$ko" ]; then unz "$ko" > "$signed"; else : > "$signed"; fi
serial=$(openssl x509 -inform DER -in "$MOK_CERT" -noout -serial | sed 's/^serial=//')
t_diag "module: signer '$(modinfo -F signer "$signed" 2>/dev/null)', sig_key $(modinfo -F sig_key "$signed" 2>/dev/null); key: '$MOK_SUBJECT', serial $serial"
t_ok "DKMS signed it with the key framework.conf names (signer and serial of the machine owner key)" \
	sh -c 'test "$(modinfo -F signer "$1")" = "$2" &&
		test "$(modinfo -F sig_key "$1" | tr -d ":" | tr a-f A-F)" = "$3"' \
	sh "$signed" "$MOK_SUBJECT" "$serial"
rm -f "$r/boot/initrd.img-$KVER"
t_ok "update-initramfs -c -k $KVER succeeds" \
	in_root "$r" update-initramfs -c -k "$KVER" >"$work/update-initramfs.log" 2>&1
cp "$r/boot/initrd.img-$KVER" "$work/initrd-signed.img" 2>/dev/null || : > "$work/initrd-signed.img"
rm -rf "$r/tmp/un"
in_root "$r" unmkinitramfs "/boot/initrd.img-$KVER" /tmp/un >/dev/null 2>&1 || true
t_ok "its kreloc.ko is DKMS's signed module" \
	sh -c 'm=$(find "$1" -path "*/updates/dkms/kreloc.ko*" | head -1) && [ -n "$m" ] && cmp -s "$m" "$2"' \
	sh "$r/tmp/un" "$ko"
# The same source, built by make as a user without DKMS would: unsigned.
# (the kernel's build tree is under $CACHE: bind it in)
in_root_cache() { IN_ROOT_CACHE=1 in_root "$@"; }
t_ok "make builds the module from /usr/src/kreloc-$version" \
	in_root_cache "$r" sh -c 'rm -rf /tmp/ksrc && cp -r "/usr/src/kreloc-$1" /tmp/ksrc &&
		make -C /tmp/ksrc KDIR="/lib/modules/$2/build"' sh "$version" "$KVER" \
	>"$work/make-unsigned.log" 2>&1
unsigned="$r/tmp/ksrc/kreloc.ko"
t_ok "that build is not signed" \
	sh -c '[ -s "$1" ] && [ -z "$(modinfo -F signer "$1")" ] && ! tail -c 28 "$1" | grep -q "Module signature appended"' \
	sh "$unsigned"
# In DKMS's module's place, then the initramfs again.
cp "$unsigned" "$ko"
in_root "$r" depmod -a "$KVER"
t_ok "update-initramfs -u -k $KVER with the unsigned module in its place" \
	in_root "$r" update-initramfs -u -k "$KVER" >>"$work/update-initramfs.log" 2>&1
cp "$r/boot/initrd.img-$KVER" "$work/initrd-unsigned.img" 2>/dev/null || : > "$work/initrd-unsigned.img"
t_end

# boot TAG INITRD: the debug kernel with INITRD under lockdown.
boot() {
	local rc=0
	: > "$work/$1.dump"
	KRELOC_VM_TIMEOUT="${KRELOC_VM_TIMEOUT:-600}" "$top/rig/run-vm.sh" --initrd "$2" \
		"$envf" - "$work/$1.console" "$append" "$work/$1.dump" || rc=$?
	{ echo "=== secureboot $1 ($append) run-vm rc=$rc"; cat "$work/$1.console"; } >> "$console_all"
	tr -d '\r' < "$work/$1.dump" > "$work/$1.dump.txt"
	section "$work/$1.dump.txt" proc-modules | awk '{print $1}' > "$work/$1.mods"
}

# locked TAG: the boot ran to the dump under lockdown with signatures enforced.
locked() {
	dumped "$work/$1.dump.txt" &&
		section "$work/$1.dump.txt" lockdown | grep -q '\[integrity\]' &&
		section "$work/$1.dump.txt" lockdown | grep -qx 'sig_enforce=Y'
}

log "Secure Boot: the signed module's boot"
boot signed "$work/initrd-signed.img"
t_begin debug-secureboot-signed 6
t_ok "booted to the dump under lockdown=integrity with module.sig_enforce=1" locked signed
t_ok "the kernel loaded the machine owner key ($MOK_SUBJECT)" \
	grep -q "Loaded X.509 cert '$MOK_SUBJECT" "$work/signed.console"
t_ok "kreloc is loaded, the oldest module (listed last)" \
	test "$(tail -1 "$work/signed.mods")" = kreloc
t_ok "the other modules load after it (dummy, vfat)" \
	sh -c 'grep -qx dummy "$1" && grep -qx vfat "$1"' sh "$work/signed.mods"
section "$work/signed.dump.txt" info > "$work/info"
t_ok "info: STATUS=ok" grep -qx STATUS=ok "$work/info"
section "$work/signed.dump.txt" kreloc-show > "$work/show"
t_ok "the packaged kreloc show works in the guest (exit 0)" \
	sh -c 'grep -qx "rc=0" "$1" && [ "$(grep -vc "^rc=" "$1")" -gt 5 ]' sh "$work/show"
t_end

log "Secure Boot: the unsigned module's boot"
boot unsigned "$work/initrd-unsigned.img"
t_begin debug-secureboot-unsigned 4
t_ok "booted to the dump under lockdown=integrity with module.sig_enforce=1" locked unsigned
t_ok "kreloc is not loaded" sh -c '! grep -qx kreloc "$1"' sh "$work/unsigned.mods"
t_ok "the kernel refused it as unsigned" \
	grep -qE 'Loading of unsigned module is rejected|unsigned module loading is restricted' \
	"$work/unsigned.console"
t_ok "the other modules still load (dummy, vfat)" \
	sh -c 'grep -qx dummy "$1" && grep -qx vfat "$1"' sh "$work/unsigned.mods"
t_end
