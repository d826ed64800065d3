#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/boot/run.sh: kreloc at boot, the way a Debian user gets it.  Prints
# KTAP blocks framed by KRELOC-TEST-BEGIN/END on stdout (for rig/ktap.sh),
# progress on stderr, and leaves every QEMU console in
# $CACHE/boot/run-FLAVOUR/console.log.
#
#   install         make install / uninstall / install-dkms into a DESTDIR
#   dkms            dkms add/build/install in a Debian bookworm root for the
#                   rig's amd64 6.1 and 6.12 kernels (installed there as
#                   packages); the modules carry each kernel's build id
#   initramfs-tools the real update-initramfs with our hook, unpacked
#   boot-itools-*   that initrd booted under QEMU: kreloc loaded first, every
#                   later module's init regions recorded; kreloc.disable=1;
#                   kreloc.history=7; options from /etc/modprobe.d
#   dracut          a real dracut generation with 90kreloc, unpacked, booted
#   dkms-remove     dkms remove takes the module away again
#
# KRELOC_BOOT_FLAVOUR picks the distribution:
#   bookworm  (default) all of the above, Debian 12 with the rig's 6.1 and
#             6.12 kernels
#   trixie    Debian 13 with trixie-backports' newest kernel (the rig's
#             amd64-7) installed as packages, modules built by its dkms with
#             trixie's gcc-14: dkms, initramfs-tools, its boots (plain,
#             kreloc.history=7, kreloc.disable=1) and dkms-remove; block
#             names start with "trixie-"
# Each flavour has its own work directory ($CACHE/boot/run-FLAVOUR) and
# roots, so the two can run at the same time; two runs of one flavour wait
# for each other.  Test roots come from tests/boot/mkroot.sh (cached).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/rig/lib.sh"
. "$here/lib.sh"
export -f in_root

need_pkgs qemu-system-x86 binutils make gcc libelf-dev xz-utils zstd cpio debootstrap

flavour="${KRELOC_BOOT_FLAVOUR:-bookworm}"
case "$flavour" in
bookworm) rootkind=itools kseries=(6.1 6.12) B='' ;;
trixie) rootkind=itools-trixie kseries=(7) B='trixie-' ;;
*) die "KRELOC_BOOT_FLAVOUR=$flavour: bookworm or trixie" ;;
esac
work="$CACHE/boot/run-$flavour"
mkdir -p "$CACHE/boot"
exec 8> "$work.lock"
flock -w 3600 8 || die "another $flavour boot test holds $work.lock"
rm -rf "$work"
mkdir -p "$work"
console_all="$work/console.log"
: > "$console_all"
t0=$(date +%s)
step() { log "boot tests: $* ($(( $(date +%s) - t0 ))s)"; }

# --- KTAP blocks, streamed as they run --------------------------------------
# Each block states its plan when it begins and prints every result at
# once, so a run that aborts midway (set -e) still shows what ran, and
# rig/ktap.sh counts every planned result that never came as failed.
# They go to fd 3, the script's stdout: a caller's redirection of a check's
# output (t_ok DESC CMD >LOG) must not take the result line with it.
exec 3>&1
T_NAME='' T_N=0 T_FAIL=0
t_begin() {	# t_begin NAME PLANNED
	T_NAME="$1" T_N=0 T_FAIL=0
	printf 'KRELOC-TEST-BEGIN %s\nTAP version 13\n1..%s\n' "$T_NAME" "$2" >&3
}
# t_ok DESC CMD...: one result, from CMD's exit status.
t_ok() {
	local desc="$1"
	shift
	T_N=$((T_N + 1))
	if "$@" 3>&-; then
		echo "ok $T_N $desc" >&3
	else
		echo "not ok $T_N $desc" >&3
		T_FAIL=1
	fi
}
t_skip() { T_N=$((T_N + 1)); echo "ok $T_N $1 # SKIP $2" >&3; }
t_diag() { sed 's/^/# /' <<<"$*" >&3; }
t_end() { echo "KRELOC-TEST-END $T_NAME rc=$T_FAIL" >&3; }

# --- the source tree, as the lead's Makefile will have it ------------------
src="$work/src"
mkdir -p "$src"
(cd "$top" && cp -r Kbuild Makefile ./*.c ./*.h $(module_dirs "$top") tools dkms.conf mk packaging "$src/")
rm -f "$src/kreloc_linked_gen.h" "$src/tools/kreloc-linkgen"
if ! grep -q '^include mk/install.mk' "$src/Makefile"; then
	# Until the top Makefile includes mk/install.mk: its old install rule
	# replaced by the include, as README/the report asks.
	awk '/^install: modules$/ { skip = 2 }
		skip > 0 { if (--skip == 0) print "include mk/install.mk"; next }
		{ print }' "$top/Makefile" > "$src/Makefile"
fi
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$src/dkms.conf")

# The flavour's kernels (the rig's env files); the first one also serves
# make install, the option boots and dracut.
kernels=()
for s in "${kseries[@]}"; do
	e=$("$top/rig/kernel-amd64.sh" "$s")
	kernels+=("$(sed -n 's/^KVER=//p' <<<"$e")")
	[ ${#kernels[@]} -gt 1 ] && continue
	k1="${kernels[0]}"
	kdir1=$(sed -n 's/^KDIR=//p' <<<"$e")
	env1="$work/amd64-$s.env"
	echo "$e" > "$env1"
done

boot_kernels=("${kernels[@]}")
[ -n "${KRELOC_BOOT_QUICK:-}" ] && boot_kernels=("$k1")
# series KVER: "6.1" for 6.1.0-57-amd64 (stable block names)
series() { sed -E 's/^([0-9]+\.[0-9]+).*/\1/' <<<"$1"; }
# Every block this run must produce: one that never begins counts as failed.
blocks="${B}dkms ${B}initramfs-tools"
for k in "${boot_kernels[@]}"; do
	blocks="$blocks ${B}boot-itools-$(series "$k")"
done
blocks="$blocks ${B}boot-itools-history ${B}boot-itools-disable"
[ "$flavour" != bookworm ] || blocks="install $blocks dracut"
echo "KRELOC-TEST-PLAN $blocks ${B}dkms-remove"

# image ROOT KVER: the kernel's image where its package put it (/boot up to
# 6.x; Debian's 7.x packages put it in /usr/lib/modules/KVER and link it
# into /boot), as a path inside ROOT.
image() {
	if [ -e "$1/boot/vmlinuz-$2" ]; then
		echo "/boot/vmlinuz-$2"
	else
		echo "/usr/lib/modules/$2/vmlinuz"
	fi
}

# gcc_major FILE: the major version of every GCC that left its mark in an
# ELF file's .comment, one a line.
gcc_major() {
	readelf -p .comment "$1" 2>/dev/null | sed -n 's/.*GCC: ([^)]*) \([0-9]*\)\..*/\1/p' | sort -u
}

# The GNU build id of the vmlinux inside a vmlinuz, read with readelf.
vmlinuz_build_id() {
	local elf="$work/vmlinux.$$"
	"$top/tools/kreloc-extract-vmlinux" "$1" "$elf" >/dev/null 2>&1 || return 1
	readelf -n "$elf" | awk '/Build ID:/ { print $3; exit }'
	rm -f "$elf"
}

# unz FILE: a module, decompressed.
unz() {
	case "$1" in
	*.xz) xz -dc "$1" ;;
	*.zst) zstd -qdc "$1" ;;
	*) cat "$1" ;;
	esac
}

# --- install: make install / uninstall into a DESTDIR ----------------------
# (host-side, the same whatever the flavour: the bookworm flavour runs it)
if [ "$flavour" = bookworm ]; then
	step "make install"
	dest="$work/dest"
	mkdir -p "$dest"
	expect=(
		"lib/modules/$k1/extra/kreloc.ko"
		usr/share/initramfs-tools/hooks/kreloc
		usr/share/initramfs-tools/scripts/init-top/00kreloc
		usr/lib/dracut/modules.d/90kreloc/module-setup.sh
		usr/lib/dracut/modules.d/90kreloc/kreloc-load.sh
	)
	if [ -f "$src/tools/cli/Makefile" ]; then
		expect+=(usr/sbin/kreloc usr/share/bash-completion/completions/kreloc
			usr/share/doc/kreloc/SNAPSHOT.md)
		for f in "$src"/tools/cli/Documentation/*.8; do
			expect+=("usr/share/man/man8/${f##*/}")
		done
	fi
	# libkreloc under the tool: the library (its links are not files),
	# header, pkg-config file and man page.
	if [ -f "$src/tools/lib/kreloc/Makefile" ]; then
		expect+=("usr/lib/$(make -s --no-print-directory -C "$src/tools/lib/kreloc" \
				 print-REALNAME)"
			usr/include/kreloc/kreloc.h usr/lib/pkgconfig/libkreloc.pc
			usr/share/man/man3/libkreloc.3)
	fi
	t_begin install $((7 + ${#expect[@]}))
	t_ok "make install DESTDIR PREFIX=/usr succeeds" \
		make -s -C "$src" KDIR="$kdir1" DESTDIR="$dest" PREFIX=/usr install \
		>"$work/install.log" 2>&1
	[ "$T_FAIL" = 0 ] || t_diag "$(tail -20 "$work/install.log")"
	for f in "${expect[@]}"; do
		t_ok "installs /$f" test -s "$dest/$f"
	done
	t_ok "installed module is built for $k1" \
		test "$(modinfo -F vermagic "$dest/lib/modules/$k1/extra/kreloc.ko" 2>/dev/null | cut -d' ' -f1)" = "$k1"
	t_ok "hook and init-top script are executable" \
		test -x "$dest/usr/share/initramfs-tools/hooks/kreloc" -a \
		-x "$dest/usr/share/initramfs-tools/scripts/init-top/00kreloc"
	unexpected=$(cd "$dest" 2>/dev/null && find . -type f | sed 's|^\./||' | sort |
		grep -vxF -f <(printf '%s\n' "${expect[@]}") || true)
	t_ok "installs nothing else" test -z "$unexpected"
	[ -z "$unexpected" ] || t_diag "unexpected: $unexpected"
	t_ok "make uninstall succeeds" \
		make -s -C "$src" KDIR="$kdir1" DESTDIR="$dest" PREFIX=/usr uninstall \
		>>"$work/install.log" 2>&1
	left=$(find "$dest" -type f 2>/dev/null)
	t_ok "make uninstall leaves no file behind" test -z "$left"
	[ -z "$left" ] || t_diag "left: $left"
	t_ok "make install-dkms puts dkms.conf and the sources in /usr/src/kreloc-$version" \
		sh -c 'make -s -C "$1" DESTDIR="$2" install-dkms >/dev/null 2>&1 &&
			test -s "$2/usr/src/kreloc-$3/dkms.conf" &&
			test -s "$2/usr/src/kreloc-$3/kreloc_main.c" &&
			test -x "$2/usr/src/kreloc-$3/tools/kreloc-gen-linked.sh" &&
			test ! -e "$2/usr/src/kreloc-$3/kreloc_linked_gen.h"' sh "$src" "$dest" "$version"
	t_end
fi

# --- dkms in the initramfs-tools root --------------------------------------
step "test root with initramfs-tools"
iroot=$("$here/mkroot.sh" "$rootkind")
step "dkms"
# Debian 7.x: the package has the image in /usr/lib/modules/KVER, its
# postinst links it into /boot; that kernel's build is also tried without
# the link.  (A run that died during that try left the link aside.)
nolink=()
for k in "${kernels[@]}"; do
	f="$iroot/boot/vmlinuz-$k"
	[ ! -e "$f.kreloc-test" ] || mv "$f.kreloc-test" "$f"
	[ "$(image "$iroot" "$k")" != "/boot/vmlinuz-$k" ] ||
		[ ! -s "$iroot/usr/lib/modules/$k/vmlinuz" ] || nolink+=("$k")
done
t_begin "${B}dkms" $((2 + 9 * ${#kernels[@]} + ${#nolink[@]}))
make -s -C "$src" DESTDIR="$iroot" install-dkms >/dev/null
in_root "$iroot" dkms remove "kreloc/$version" --all >/dev/null 2>&1 || true
t_ok "dkms add kreloc/$version" in_root "$iroot" dkms add "kreloc/$version" \
	>"$work/dkms.log" 2>&1
for k in "${kernels[@]}"; do
	img=$(image "$iroot" "$k")
	t_ok "dkms build for $k" in_root "$iroot" dkms build "kreloc/$version" -k "$k" \
		>>"$work/dkms.log" 2>&1
	bdir="$iroot/var/lib/dkms/kreloc/$version/$k/x86_64"
	ko=$(ls "$bdir"/module/kreloc.ko* 2>/dev/null | head -1 || true)
	kraw="$work/kreloc-$k.ko"
	case "$ko" in
	*.xz) xz -dc "$ko" > "$kraw" ;;
	*.zst) zstd -qdc "$ko" > "$kraw" ;;
	'') : > "$kraw" ;;
	*) cp "$ko" "$kraw" ;;
	esac
	t_ok "$k: module's vermagic is $k" \
		test "$(modinfo -F vermagic "$kraw" 2>/dev/null | cut -d' ' -f1)" = "$k"
	# The compiler: the one the kernel was built with (its headers'
	# CONFIG_CC_VERSION_TEXT), as the release's own gcc gives it.
	kcc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="[^ ]* \(.*\)"$/\1/p' \
		"$iroot/usr/src/linux-headers-$k/.config" 2>/dev/null || true)
	t_diag "$k: kernel built by ${kcc:-?}; module by $(readelf -p .comment "$kraw" 2>/dev/null |
		sed -n 's/.*GCC: //p' | sort -u | tr '\n' ' ')"
	kmaj=$(sed -n 's/.*) \([0-9]*\)\..*/\1/p' <<<"$kcc")
	t_ok "$k: module built by gcc ${kmaj:-?}, as the kernel was" \
		test -n "$kmaj" -a "$(gcc_major "$kraw")" = "$kmaj"
	t_ok "$k: link-time data from vmlinux ($img)" \
		grep -q 'kreloc: link-time data from vmlinux' "$bdir/log/make.log"
	t_ok "$k: module names $img and release $k" \
		sh -c 'strings "$1" | grep -qx "$3" && strings "$1" | grep -qx "$2"' \
		sh "$kraw" "$k" "$img"
	bid=$(vmlinuz_build_id "$iroot$img" || true)
	t_diag "$k: vmlinux build id ${bid:-unknown}"
	t_ok "$k: module embeds the kernel's build id" \
		sh -c '[ ${#2} -eq 40 ] && od -An -v -tx1 "$1" | tr -d " \n" | grep -q "$2"' \
		sh "$kraw" "$bid"
	if [[ " ${nolink[*]} " == *" $k "* ]]; then
		mv "$iroot$img" "$iroot$img.kreloc-test"
		t_ok "$k: with no $img, the Makefile finds /usr/lib/modules/$k/vmlinuz" \
			in_root "$iroot" sh -c 'rm -rf /tmp/ksrc && cp -r "/usr/src/kreloc-$1" /tmp/ksrc &&
				make -C /tmp/ksrc KDIR="/lib/modules/$2/build" kreloc_linked_gen.h 2>&1 |
				grep -q "link-time data from vmlinux" &&
				grep -q "\"/usr/lib/modules/$2/vmlinuz\"" /tmp/ksrc/kreloc_linked_gen.h' \
			sh "$version" "$k" >>"$work/dkms.log" 2>&1
		mv "$iroot$img.kreloc-test" "$iroot$img"
		rm -rf "$iroot/tmp/ksrc"
	fi
	t_ok "dkms install for $k" in_root "$iroot" dkms install "kreloc/$version" -k "$k" \
		>>"$work/dkms.log" 2>&1
	t_ok "$k: the module file is in updates/dkms" \
		sh -c 'ls "$1"/lib/modules/"$2"/updates/dkms/kreloc.ko* >/dev/null 2>&1' sh "$iroot" "$k"
	t_ok "$k: modinfo -k finds it in updates/dkms" \
		bash -c 'in_root "$1" modinfo -k "$2" -n kreloc 2>/dev/null |
			grep -q -e "^/lib/modules/$2/updates/dkms/kreloc.ko" \
				-e "^/usr/lib/modules/$2/updates/dkms/kreloc.ko"' bash "$iroot" "$k"
done
in_root "$iroot" dkms status kreloc > "$work/dkms-status" 2>/dev/null || true
t_diag "$(cat "$work/dkms-status")"
t_ok "dkms status: installed for ${kernels[*]}" \
	sh -c 'f="$1"; shift; for k; do grep -q "$k, x86_64: installed" "$f" || exit 1; done' \
	sh "$work/dkms-status" "${kernels[@]}"
t_end

# --- initramfs-tools: real update-initramfs, unpacked ----------------------
# The test's own additions to the root: a small module list, kreloc
# options, and an init-premount script (after udev) that dumps kreloc's
# records to the second serial port and powers off.
step "initramfs-tools"
rm -f "$iroot"/usr/share/initramfs-tools/scripts/init-top/*kreloc \
	"$iroot"/usr/share/initramfs-tools/hooks/kreloc
make -s -C "$src" DESTDIR="$iroot" install-initramfs-tools >/dev/null
mkdir -p "$iroot/etc/initramfs-tools/conf.d" "$iroot/etc/initramfs-tools/scripts/init-premount"
printf 'MODULES=list\nCOMPRESS=zstd\n' > "$iroot/etc/initramfs-tools/conf.d/kreloc-test"
printf '%s\n' virtio_pci virtio_blk ext4 ata_piix sd_mod e1000 > "$iroot/etc/initramfs-tools/modules"
echo 'options kreloc history=9' > "$iroot/etc/modprobe.d/kreloc.conf"
cp "$here/dump-premount.sh" "$iroot/etc/initramfs-tools/scripts/init-premount/kreloc-test-dump"
chmod +x "$iroot/etc/initramfs-tools/scripts/init-premount/kreloc-test-dump"

t_begin "${B}initramfs-tools" $((9 * ${#boot_kernels[@]}))
for k in "${boot_kernels[@]}"; do
	# No image from an earlier run (or a kernel install) may stand in
	# for the one this run makes.
	rm -f "$iroot/boot/initrd.img-$k" "$iroot/boot/initrd.img-$k.dpkg-bak"
	t_ok "$k: update-initramfs -u succeeds" \
		in_root "$iroot" update-initramfs -u -k "$k" >"$work/update-initramfs-$k.log" 2>&1
	un="$iroot/tmp/unpacked-$k"
	rm -rf "$un"
	t_ok "$k: unmkinitramfs unpacks it" \
		in_root "$iroot" unmkinitramfs "/boot/initrd.img-$k" "/tmp/unpacked-$k" \
		>>"$work/update-initramfs-$k.log" 2>&1
	# unmkinitramfs puts an early (microcode) cpio in early*/ and the
	# main one in main/ when there is one; else the main archive is the top.
	u="$un"
	[ -d "$un/main" ] && u="$un/main"
	ko=$(find "$u" -path "*/modules/$k/updates/dkms/kreloc.ko*" 2>/dev/null | head -1)
	t_ok "$k: kreloc.ko is inside, in updates/dkms" test -n "$ko"
	t_ok "$k: it is the module dkms installed" \
		cmp -s <(unz "$ko") <(unz "$(ls "$iroot/lib/modules/$k/updates/dkms/kreloc.ko"* | head -1)")
	t_ok "$k: modules.dep inside knows it" \
		grep -q '^updates/dkms/kreloc.ko' "$(find "$u" -path "*/modules/$k/modules.dep" | head -1)"
	t_ok "$k: scripts/init-top/00kreloc is inside and executable" test -x "$u/scripts/init-top/00kreloc"
	first=$(grep -m1 '^/scripts/init-top/' "$u/scripts/init-top/ORDER" 2>/dev/null | awk '{print $1}')
	t_diag "$k: init-top ORDER: $(grep -o '^/scripts/init-top/[^ ]*' "$u/scripts/init-top/ORDER" | tr '\n' ' ')"
	t_ok "$k: 00kreloc is the first init-top script" test "$first" = /scripts/init-top/00kreloc
	t_ok "$k: /etc/modprobe.d/kreloc.conf is inside" \
		grep -q 'options kreloc history=9' "$u/etc/modprobe.d/kreloc.conf"
	t_ok "$k: modprobe inside is kmod (it reads kreloc.* options from /proc/cmdline)" \
		sh -c 'test -e "$1/usr/sbin/modprobe" -o -e "$1/sbin/modprobe" &&
			{ readlink "$1/usr/sbin/modprobe" "$1/sbin/modprobe" 2>/dev/null; true; } | grep -q kmod' sh "$u"
done
t_end

# --- boots ------------------------------------------------------------------
disk="$work/disk.img"
truncate -s 16M "$disk"

# boot KERNEL_IMAGE INITRD TAG APPEND: the rig's launcher with a real
# initramfs; console and dump kept.
boot() {
	local img="$1" initrd="$2" tag="$3" append="$4" rc=0
	: > "$work/$tag.console"
	: > "$work/$tag.dump"
	KRELOC_VM_TIMEOUT="${KRELOC_VM_TIMEOUT:-240}" "$top/rig/run-vm.sh" --initrd "$initrd" \
		--kernel "$img" --disk "$disk" "$env1" - "$work/$tag.console" "$append" \
		"$work/$tag.dump" || rc=$?
	{ echo "=== $tag ($append) run-vm rc=$rc"; cat "$work/$tag.console"; } >> "$console_all"
	tr -d '\r' < "$work/$tag.dump" > "$work/$tag.dump.txt"
	return $rc
}

# section FILE NAME: the lines of "== NAME" in a dump.
section() {
	awk -v want="== $2" '/^== / { on = ($0 == want); next } /^KRELOC-DUMP-END/ { on = 0 } on' "$1"
}

# has_init_text KO: the module file has a non-empty .init.text.
has_init_text() {
	local f="$1" raw="$work/ko.$$"
	unz "$f" > "$raw"
	# Name Type Address Off Size ... once the "[Nr]" column is cut off.
	readelf -SW "$raw" | sed -n 's/^ *\[ *[0-9]*\] *//p' |
		awk '$1 == ".init.text" && $5 !~ /^0+$/ { found = 1 } END { exit !found }'
	local r=$?
	rm -f "$raw"
	return $r
}

# check_first DUMP UNPACKED KVER MODS: kreloc was loaded first and recorded the
# init regions and ELF sections of every module loaded after it.
check_first() {
	local d="$1" u="$2" k="$3" want="$4" m ko n_init=0 missing='' notrec='' unrec='' kgen
	local n_sect=0 badsect=
	section "$d" proc-modules | awk '{print $1}' > "$work/mods"
	section "$d" modules | awk '!/^#/' > "$work/records"
	t_diag "$(section "$d" proc-modules | awk '{printf "%s ", $1} END {print ""}')"
	t_ok "kreloc is loaded" grep -qx kreloc "$work/mods"
	t_ok "kreloc is the oldest module in /proc/modules (listed newest first)" \
		test "$(tail -1 "$work/mods")" = kreloc
	n=$(grep -vcx kreloc "$work/mods" || true)
	t_ok "the initramfs loaded other modules after it ($n)" test "$n" -ge 5
	t_ok "$want among them" \
		sh -c 'for m in $2; do grep -qx $m "$1" || exit 1; done' sh "$work/mods" "$want"
	kgen=$(awk '$1 == "kreloc" && $2 != "gone" {print $5}' "$work/records")
	t_ok "kreloc's LOAD_GEN ($kgen) is the smallest of all records" \
		sh -c '[ -n "$2" ] && awk -v k="$2" "\$5 != \"-\" && \$5 + 0 < k + 0 { bad = 1 } END { exit bad }" "$1"' \
		sh "$work/records" "$kgen"
	for m in $(grep -vx kreloc "$work/mods"); do
		grep -q "^$m live " "$work/records" || unrec="$unrec $m"
		section "$d" "module $m" > "$work/rec"
		if grep -q '# init regions not recorded' "$work/rec"; then
			notrec="$notrec $m"
		fi
		ko=$(find "$u" -path "*/modules/$k/*" \( -name "$m.ko*" -o -name "${m//_/-}.ko*" \) | head -1)
		if [ -n "$ko" ] && has_init_text "$ko"; then
			n_init=$((n_init + 1))
			grep -Eq '^region init\.text 0x[0-9a-f]+ 0x[0-9a-f]+ freed$' "$work/rec" ||
				missing="$missing $m"
		fi
		# Its sections as kreloc has them, and as sysfs has them.
		awk '$1 == "section" { print $2, $3 }' "$work/rec" | sort > "$work/sect.kreloc"
		section "$d" "sysfs $m" | sed 's|.*/||; s|:| |' | sort > "$work/sect.sysfs"
		if [ -s "$work/sect.sysfs" ] && cmp -s "$work/sect.kreloc" "$work/sect.sysfs"; then
			n_sect=$((n_sect + 1))
		else
			badsect="$badsect $m"
			t_diag "$m: sections kreloc (<) and sysfs (>) differ:
$(diff "$work/sect.kreloc" "$work/sect.sysfs" | grep '^[<>]' | head -5)"
		fi
	done
	t_ok "every other module has a live record" test -z "$unrec"
	[ -z "$unrec" ] || t_diag "no record:$unrec"
	t_ok "no other module says its init regions were not recorded" test -z "$notrec"
	[ -z "$notrec" ] || t_diag "not recorded:$notrec"
	t_ok "every module with .init.text ($n_init) has a freed init.text region" \
		test -z "$missing" -a "$n_init" -ge 5
	[ -z "$missing" ] || t_diag "no init.text region:$missing"
	t_ok "every other module's ELF sections ($n_sect) equal /sys/module/NAME/sections" \
		test -z "$badsect" -a "$n_sect" -ge 5
}

# check_info DUMP KVER: the module's info for this kernel.
check_info() {
	local d="$1" k="$2" bid img
	section "$d" info > "$work/info"
	img=$(image "$iroot" "$k")
	bid=$(vmlinuz_build_id "$iroot$img" || true)
	t_ok "info: STATUS=ok" grep -qx STATUS=ok "$work/info"
	t_ok "info: LINKED_SOURCE=vmlinux from $img" \
		sh -c 'grep -qx LINKED_SOURCE=vmlinux "$1" && grep -qx "LINKED_FILE=$3" "$1" &&
			grep -qx "LINKED_RELEASE=$2" "$1"' sh "$work/info" "$k" "$img"
	t_ok "info: LINKED_BUILD_ID = BUILD_ID = the vmlinuz's build id" \
		sh -c '[ -n "$2" ] && grep -qx "LINKED_BUILD_ID=$2" "$1" && grep -qx "BUILD_ID=$2" "$1"' \
		sh "$work/info" "$bid"
}

dumped() { grep -q '^KRELOC-DUMP-END' "$1"; }

for k in "${boot_kernels[@]}"; do
	u="$iroot/tmp/unpacked-$k"
	[ -d "$u/main" ] && u="$u/main"
	step "boot $k (initramfs-tools)"
	t_begin "${B}boot-itools-$(series "$k")" 14
	boot "$iroot$(image "$iroot" "$k")" "$iroot/boot/initrd.img-$k" "itools-$k" "" || true
	d="$work/itools-$k.dump.txt"
	t_ok "the initramfs ran to init-premount and dumped kreloc's state" dumped "$d"
	check_first "$d" "$u" "$k" "virtio_blk ext4 e1000"
	check_info "$d" "$k"
	t_ok "options from /etc/modprobe.d/kreloc.conf reach it (HISTORY_MAX=9)" \
		grep -qx HISTORY_MAX=9 "$work/info"
	t_end
done

k="$k1"
step "boot $k kreloc.history=7"
t_begin "${B}boot-itools-history" 3
boot "$iroot$(image "$iroot" "$k")" "$iroot/boot/initrd.img-$k" itools-history "kreloc.history=7" || true
d="$work/itools-history.dump.txt"
t_ok "the initramfs ran and dumped kreloc's state" dumped "$d"
section "$d" info > "$work/info"
t_ok "kreloc.history=7 on the command line: HISTORY_MAX=7" grep -qx HISTORY_MAX=7 "$work/info"
t_ok "STATUS=ok" grep -qx STATUS=ok "$work/info"
t_end

step "boot $k kreloc.disable=1"
t_begin "${B}boot-itools-disable" 4
boot "$iroot$(image "$iroot" "$k")" "$iroot/boot/initrd.img-$k" itools-disable "kreloc.disable=1" || true
d="$work/itools-disable.dump.txt"
t_ok "the initramfs ran and dumped its state" dumped "$d"
section "$d" proc-modules | awk '{print $1}' > "$work/mods"
t_ok "kreloc.disable=1: kreloc is not loaded" sh -c '! grep -qx kreloc "$1"' sh "$work/mods"
t_ok "kreloc.disable=1: the other modules still are (virtio_blk)" grep -qx virtio_blk "$work/mods"
t_ok "kreloc.disable=1: no kreloc debugfs directory" sh -c '! grep -q "^== info" "$1"' sh "$d"
t_end

# --- dracut -------------------------------------------------------------------
# (bookworm only: dracut is Debian's second initramfs generator)
if [ "$flavour" = bookworm ]; then
	step "test root with dracut"
	droot=$("$here/mkroot.sh" dracut)
	step "dracut"
	k="$k1"
	t_begin dracut 21
	# The module from the dkms root, as dkms would have installed it here.
	rm -rf "$droot/lib/modules/$k/updates"
	mkdir -p "$droot/lib/modules/$k/updates/dkms"
	cp "$iroot/lib/modules/$k/updates/dkms/"kreloc.ko* "$droot/lib/modules/$k/updates/dkms/"
	in_root "$droot" depmod -a "$k"
	make -s -C "$src" DESTDIR="$droot" install-dracut >/dev/null
	rm -rf "$droot/usr/lib/dracut/modules.d/99kreloctest"
	mkdir -p "$droot/usr/lib/dracut/modules.d/99kreloctest"
	cp "$here/dracut-test-setup.sh" "$droot/usr/lib/dracut/modules.d/99kreloctest/module-setup.sh"
	cp "$here/dump-premount.sh" "$droot/usr/lib/dracut/modules.d/99kreloctest/kreloc-test-dump.sh"
	chmod +x "$droot/usr/lib/dracut/modules.d/99kreloctest/"*.sh
	rm -f "$droot/etc/modprobe.d/kreloc.conf" "$droot/boot/kreloc-dracut.img"
	t_ok "dracut -m 'base udev-rules rootfs-block kreloc kreloctest' --kver $k succeeds" \
		in_root "$droot" dracut -f --no-hostonly --kver "$k" \
		-m "base udev-rules rootfs-block kreloc kreloctest" \
		--add-drivers "virtio_pci virtio_blk ata_piix sd_mod e1000" \
		/boot/kreloc-dracut.img >"$work/dracut.log" 2>&1
	in_root "$droot" lsinitrd /boot/kreloc-dracut.img > "$work/lsinitrd" 2>&1 || true
	t_ok "lsinitrd: kreloc.ko in updates/dkms" \
		grep -Eq "lib/modules/$k/updates/dkms/kreloc\.ko" "$work/lsinitrd"
	t_ok "lsinitrd: cmdline hook 00-kreloc-load.sh" \
		grep -q 'lib/dracut/hooks/cmdline/00-kreloc-load.sh' "$work/lsinitrd"
	t_ok "lsinitrd: dracut module kreloc listed" grep -qx kreloc "$work/lsinitrd"
	t_ok "dracut without -m includes kreloc by itself (check() passes)" \
		bash -c 'in_root "$1" dracut -f --no-hostonly --kver "$2" --no-compress \
			-o "kernel-modules kernel-modules-extra kernel-network-modules qemu qemu-net rootfs-block fs-lib" \
			/tmp/kreloc-default.img >/dev/null 2>&1 &&
			in_root "$1" lsinitrd /tmp/kreloc-default.img | grep -q "hooks/cmdline/00-kreloc-load.sh"' \
		sh "$droot" "$k"
	rm -f "$droot/tmp/kreloc-default.img"
	dun="$droot/tmp/unpacked-dracut"
	rm -rf "$dun"
	mkdir -p "$dun"
	in_root "$droot" sh -c 'cd /tmp/unpacked-dracut && lsinitrd --unpack /boot/kreloc-dracut.img' \
		>/dev/null 2>&1 || true
	step "boot $k (dracut)"
	boot "$droot/boot/vmlinuz-$k" "$droot/boot/kreloc-dracut.img" dracut \
		"root=/dev/disk/by-label/kreloc-none rd.retry=30 rd.timeout=60 rd.shell=0" || true
	d="$work/dracut.dump.txt"
	t_ok "the dracut initramfs ran its settled hook and dumped kreloc's state" dumped "$d"
	check_first "$d" "$dun" "$k" "virtio_blk ata_piix e1000"
	check_info "$d" "$k"
	t_ok "HISTORY_MAX=64 without options" grep -qx HISTORY_MAX=64 "$work/info"
	boot "$droot/boot/vmlinuz-$k" "$droot/boot/kreloc-dracut.img" dracut-opts \
		"root=/dev/disk/by-label/kreloc-none rd.retry=30 rd.timeout=60 rd.shell=0 kreloc.history=7 kreloc.disable=0" || true
	section "$work/dracut-opts.dump.txt" info > "$work/info"
	t_ok "dracut, kreloc.history=7 kreloc.disable=0: loaded, HISTORY_MAX=7" grep -qx HISTORY_MAX=7 "$work/info"
	boot "$droot/boot/vmlinuz-$k" "$droot/boot/kreloc-dracut.img" dracut-disable \
		"root=/dev/disk/by-label/kreloc-none rd.retry=30 rd.timeout=60 rd.shell=0 kreloc.disable=1" || true
	d="$work/dracut-disable.dump.txt"
	t_ok "dracut, kreloc.disable=1: booted, kreloc not loaded, virtio_blk loaded" \
		sh -c 'grep -q "^KRELOC-DUMP-END" "$1" && ! grep -q "^kreloc " "$1" && grep -q "^virtio_blk " "$1"' sh "$d"
	t_end
fi

# --- dkms remove -------------------------------------------------------------
# The last kernel's module goes; the first kernel's (if another) stays.
step "dkms remove"
kr="${kernels[-1]}"
t_begin "${B}dkms-remove" $((4 + (${#kernels[@]} > 1)))
t_ok "dkms remove kreloc/$version -k $kr" \
	in_root "$iroot" dkms remove "kreloc/$version" -k "$kr" >"$work/dkms-remove.log" 2>&1
t_ok "$kr: module file gone" sh -c '! ls "$1"/lib/modules/"$2"/updates/dkms/kreloc.ko* >/dev/null 2>&1' \
	sh "$iroot" "$kr"
t_ok "$kr: modinfo -k no longer finds kreloc" \
	bash -c '! in_root "$1" modinfo -k "$2" -n kreloc >/dev/null 2>&1' sh "$iroot" "$kr"
in_root "$iroot" dkms status kreloc > "$work/dkms-status" 2>/dev/null || true
t_ok "$kr: dkms status no longer says installed" \
	sh -c '! grep -q "$2, x86_64: installed" "$1"' sh "$work/dkms-status" "$kr"
if [ "$kr" != "$k1" ]; then
	t_ok "$k1: still installed" \
		bash -c 'in_root "$1" modinfo -k "$2" -n kreloc 2>/dev/null | grep -q updates/dkms' sh "$iroot" "$k1"
fi
t_end

step "done"
