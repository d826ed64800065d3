#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/boot/run.sh: kreloc at boot, the way a Debian user gets it: the
# packages "make deb" builds, installed with apt into a Debian root with
# the distribution's kernels.  Prints KTAP blocks framed by
# KRELOC-TEST-BEGIN/END on stdout (for rig/ktap.sh), progress on stderr, and
# leaves every QEMU console in $CACHE/boot/run-FLAVOUR/console.log.
#
#   install         make install / uninstall / install-dkms, and make -C
#                   tools/cli install / uninstall, into a DESTDIR
#   deb             make deb: kreloc-dkms, kreloc, libkreloc0, libkreloc-dev,
#                   lintian-clean, holding what the Makefiles install, with
#                   DKMS's maintainer scripts and libkreloc0's symbols file
#                   (tests/boot/debs.sh builds them, once per tree)
#   pkg-install     in the root: apt-get install ./kreloc-dkms_*.deb
#                   ./kreloc_*.deb ./libkreloc0_*.deb ./libkreloc-dev_*.deb
#                   of the previous version (DKMS comes from
#                   the archive), then of this one (the upgrade); DKMS's
#                   module for every kernel, with that kernel's build id; a
#                   kernel purged takes its module along, installed again
#                   its postinst builds the module again
#   initramfs-tools the real update-initramfs with the packaged hook (and the
#                   image the reinstalled kernel's postinst made), unpacked
#   boot-itools-*   that initrd booted under QEMU: kreloc loaded first, every
#                   later module's init regions recorded, the packaged
#                   "kreloc show" run in the guest; kreloc.disable=1;
#                   kreloc.history=7; options from /etc/modprobe.d
#   dracut          the packages installed into a dracut root, a real dracut
#                   generation with the packaged 90kreloc, unpacked, booted,
#                   purged
#   pkg-purge       apt-get purge, then autoremove: the root's listing equals
#                   the one taken before the install
#   readme-by-hand  (trixie) README.md's by-hand install, read from it and run
#                   command by command in that root; dracut's root installs
#                   with README.md's own apt-get install line
#
# KRELOC_BOOT_FLAVOUR picks the distribution:
#   bookworm  (default) all of the above, Debian 12 with the rig's 6.1 and
#             6.12 kernels (6.1 "running", see fake_uname in lib.sh; 6.12
#             purged and installed again)
#   trixie    Debian 13 with trixie-backports' newest kernel (the rig's
#             amd64-7) installed as packages, modules built by its dkms with
#             trixie's gcc-14: pkg-install, initramfs-tools, its boots
#             (plain, kreloc.history=7, kreloc.disable=1) and pkg-purge;
#             block names start with "trixie-"
# Each flavour has its own work directory ($CACHE/boot/run-FLAVOUR) and
# roots, so the two can run at the same time; two runs of one flavour wait
# for each other.  Test roots come from tests/boot/mkroot.sh (cached); a run
# changes a layer over them (lib.sh: layer_mount), never the roots.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/rig/lib.sh"
. "$here/lib.sh"
export -f in_root

need_pkgs qemu-system-x86 binutils make gcc libelf-dev xz-utils zstd cpio debootstrap python3

flavour="${KRELOC_BOOT_FLAVOUR:-bookworm}"
case "$flavour" in
bookworm) rootkind=itools kseries=(6.1 6.12) B='' ;;
trixie) rootkind=itools-trixie kseries=(7) B='trixie-' ;;
*) die "KRELOC_BOOT_FLAVOUR=$flavour: bookworm or trixie" ;;
esac
work="$CACHE/boot/run-$flavour"
archives="$CACHE/boot/apt-$flavour"
mkdir -p "$CACHE/boot"
exec 8> "$work.lock"
flock -w 3600 8 || die "another $flavour boot test holds $work.lock"
layer_umount "$work/iroot"
layer_umount "$work/droot"
trap 'layer_umount "$work/iroot"; layer_umount "$work/droot"' EXIT
rm -rf "$work"
mkdir -p "$work"
console_all="$work/console.log"
: > "$console_all"
t0=$(date +%s)
step() { log "boot tests: $* ($(( $(date +%s) - t0 ))s)"; }

# KTAP blocks (lib.sh) on fd 3, the script's stdout.
exec 3>&1

# --- the source tree, for the Makefiles' install targets --------------------
src="$work/src"
mkdir -p "$src"
(cd "$top" && cp -r Kbuild Makefile ./*.c ./*.h $(module_dirs "$top") tools dkms.conf mk packaging "$src/")
rm -f "$src/kreloc_linked_gen.h" "$src/tools/kreloc-linkgen"
rm -rf "$src/tools/cli/kreloc"
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$src/dkms.conf")

# The flavour's kernels (the rig's env files); the first one also serves
# make install, the option boots and dracut; the last one is purged and
# installed again after the package.
kernels=() kenvs=()
for s in "${kseries[@]}"; do
	e=$("$top/rig/kernel-amd64.sh" "$s")
	kernels+=("$(sed -n 's/^KVER=//p' <<<"$e")")
	kenvs+=("$e")
	[ ${#kernels[@]} -gt 1 ] && continue
	k1="${kernels[0]}"
	kdir1=$(sed -n 's/^KDIR=//p' <<<"$e")
	env1="$work/amd64-$s.env"
	echo "$e" > "$env1"
done
klast="${kernels[-1]}"

boot_kernels=("${kernels[@]}")
[ -n "${KRELOC_BOOT_QUICK:-}" ] && boot_kernels=("$k1")
# series KVER: "6.1" for 6.1.0-57-amd64 (stable block names)
series() { sed -E 's/^([0-9]+\.[0-9]+).*/\1/' <<<"$1"; }
# Every block this run must produce: one that never begins counts as failed.
blocks="${B}pkg-install ${B}initramfs-tools"
for k in "${boot_kernels[@]}"; do
	blocks="$blocks ${B}boot-itools-$(series "$k")"
done
blocks="$blocks ${B}boot-itools-history ${B}boot-itools-disable"
[ "$flavour" != bookworm ] || blocks="install deb $blocks dracut"
blocks="$blocks ${B}pkg-purge"
[ "$flavour" != trixie ] || blocks="$blocks readme-by-hand"
echo "KRELOC-TEST-PLAN $blocks"

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

# files DIR: the regular files and links under DIR, relative, sorted.
files() { (cd "$1" && find . \( -type f -o -type l \) | sed 's|^\./||' | LC_ALL=C sort); }

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
	cli=(usr/sbin/kreloc usr/share/bash-completion/completions/kreloc)
	for f in "$src"/tools/cli/Documentation/*.8; do
		cli+=("usr/share/man/man8/${f##*/}")
	done
	# libkreloc under the tool: the library with its SONAME and .so
	# links, header, pkg-config file and man page.
	lmake() { make -s --no-print-directory -C "$src/tools/lib/kreloc" "$@"; }
	cli+=("usr/lib/$(lmake print-REALNAME)" "usr/lib/$(lmake print-SONAME)" usr/lib/libkreloc.so
		usr/include/kreloc/kreloc.h usr/lib/pkgconfig/libkreloc.pc
		usr/share/man/man3/libkreloc.3)
	# its examples, and the tool's drgn helper
	for f in "$src"/tools/lib/kreloc/examples/*.c; do
		cli+=("usr/share/doc/libkreloc/examples/${f##*/}")
	done
	cli+=(usr/share/kreloc/kreloc_drgn.py)
	expect+=("${cli[@]}" usr/share/doc/kreloc/SNAPSHOT.md)
	t_begin install $((10 + ${#expect[@]}))
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
	unexpected=$(files "$dest" | grep -vxF -f <(printf '%s\n' "${expect[@]}") || true)
	t_ok "installs nothing else" test -z "$unexpected"
	[ -z "$unexpected" ] || t_diag "unexpected: $unexpected"
	t_ok "make uninstall succeeds" \
		make -s -C "$src" KDIR="$kdir1" DESTDIR="$dest" PREFIX=/usr uninstall \
		>>"$work/install.log" 2>&1
	left=$(find "$dest" ! -type d 2>/dev/null)
	t_ok "make uninstall leaves no file behind" test -z "$left"
	[ -z "$left" ] || t_diag "left: $left"
	t_ok "make install-dkms puts dkms.conf and the sources in /usr/src/kreloc-$version" \
		sh -c 'make -s -C "$1" DESTDIR="$2" install-dkms >/dev/null 2>&1 &&
			test -s "$2/usr/src/kreloc-$3/dkms.conf" &&
			test -s "$2/usr/src/kreloc-$3/kreloc_main.c" &&
			test -x "$2/usr/src/kreloc-$3/tools/kreloc-gen-linked.sh" &&
			test ! -e "$2/usr/src/kreloc-$3/kreloc_linked_gen.h"' sh "$src" "$dest" "$version"
	# tools/cli alone, with its own default prefix.
	rm -rf "$dest" && mkdir -p "$dest"
	t_ok "make -C tools/cli install DESTDIR succeeds" \
		make -s -C "$src/tools/cli" DESTDIR="$dest" install >>"$work/install.log" 2>&1
	got=$(files "$dest")
	want=$(printf '%s\n' "${cli[@]}" | sed 's|^usr/|usr/local/|' | LC_ALL=C sort)
	t_ok "make -C tools/cli install: the tool, its man pages, bash completion and libkreloc under /usr/local, nothing else" \
		test "$got" = "$want"
	[ "$got" = "$want" ] || t_diag "$(diff <(echo "$want") <(echo "$got") || true)"
	t_ok "make -C tools/cli uninstall leaves no file behind" \
		sh -c 'make -s -C "$1" DESTDIR="$2" uninstall >/dev/null 2>&1 && test -z "$(find "$2" ! -type d)"' \
		sh "$src/tools/cli" "$dest"
	t_end
fi

# --- the packages -------------------------------------------------------------
step "make deb"
debs=$("$here/debs.sh") || die "tests/boot/debs.sh failed"
cur="$debs/cur" prev="$debs/prev" pv="$version~prev"
arch=$(dpkg --print-architecture)
if [ "$flavour" = bookworm ]; then
	t_begin deb 12
	dkms_deb="$cur/kreloc-dkms_${version}_all.deb" cli_deb="$cur/kreloc_${version}_$arch.deb"
	lib_deb="$cur/libkreloc0_${version}_$arch.deb" dev_deb="$cur/libkreloc-dev_${version}_$arch.deb"
	t_ok "make deb builds kreloc-dkms_${version}_all.deb, kreloc, libkreloc0 and libkreloc-dev_${version}_$arch.deb" \
		test -s "$dkms_deb" -a -s "$cli_deb" -a -s "$lib_deb" -a -s "$dev_deb"
	t_ok "lintian $(dpkg-query -W -f='${Version}' lintian): no error and no warning on any" \
		test "$(cat "$cur/lintian.rc")" = 0
	t_diag "lintian: $(grep -c . "$cur/lintian.log" || true) lines (with info, pedantic and experimental tags)
$(grep -v '^running with root' "$cur/lintian.log" | head -20)"
	t_ok "kreloc-dkms is Architecture: all and depends on dkms" \
		sh -c 'test "$(dpkg-deb -f "$1" Architecture)" = all &&
			dpkg-deb -f "$1" Depends | grep -q "\bdkms\b"' sh "$dkms_deb"
	t_ok "kreloc is Architecture: $arch" test "$(dpkg-deb -f "$cli_deb" Architecture)" = "$arch"
	# The library package: named by its SONAME, its shlibs from the
	# symbols file (kreloc's dependency comes from it), Multi-Arch: same.
	soname=$(make -s --no-print-directory -C "$src/tools/lib/kreloc" print-SONAME)
	t_ok "libkreloc0 (SONAME $soname) is Multi-Arch: same and has a symbols file" \
		sh -c 'test "$(dpkg-deb -f "$1" Multi-Arch)" = same &&
			dpkg-deb --ctrl-tarfile "$1" | tar -xOf - ./symbols | grep -q "^$2 libkreloc0 "' \
		sh "$lib_deb" "$soname"
	t_ok "kreloc depends on libkreloc0 (through its symbols), libkreloc-dev on this libkreloc0" \
		sh -c 'dpkg-deb -f "$1" Depends | grep -q "libkreloc0 (>= " &&
			dpkg-deb -f "$2" Depends | grep -q "libkreloc0 (= $3)"' sh "$cli_deb" "$dev_deb" "$version"
	# What the package holds, against what the Makefiles install (the
	# documentation aside); the man pages are compressed in the package.
	exp="$work/deb-exp" got="$work/deb-got"
	rm -rf "$exp" "$got" && mkdir -p "$exp/dkms" "$exp/cli" "$got/dkms" "$got/cli"
	make -s -C "$src" DESTDIR="$exp/dkms" install-dkms install-initramfs-tools install-dracut \
		>/dev/null 2>&1
	install -D -m 0644 "$src/packaging/modprobe.d/kreloc.conf" "$exp/dkms/etc/modprobe.d/kreloc.conf"
	dpkg-deb -x "$dkms_deb" "$got/dkms"
	# (the three packages of make -C tools/cli install, in one tree)
	for f in "$cli_deb" "$lib_deb" "$dev_deb"; do dpkg-deb -x "$f" "$got/cli"; done
	# Where the files go is what is compared; the binaries differ (the
	# packages' are built with Debian's flags and stripped).
	madir=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
	make -s -C "$src/tools/cli" DESTDIR="$exp/cli" prefix=/usr libdir="/usr/lib/$madir" \
		install >/dev/null 2>&1
	# (libkreloc-dev's examples where Debian's documentation goes,
	# debian/rules's exampledir)
	ex=$(cd "$src/tools/lib/kreloc/examples" && ls ./*.c | sed 's|^\./||' | LC_ALL=C sort)
	t_ok "libkreloc-dev holds the examples of libkreloc(3) in /usr/share/doc/libkreloc-dev/examples" \
		test "$(ls "$got/cli/usr/share/doc/libkreloc-dev/examples" 2>/dev/null | LC_ALL=C sort)" = "$ex"
	rm -rf "$got"/*/usr/share/doc "$exp"/*/usr/share/doc
	gunzip -q "$got"/cli/usr/share/man/man*/*.gz 2>/dev/null || true
	for f in usr/sbin/kreloc "usr/lib/$madir/$(make -s --no-print-directory -C "$src/tools/lib/kreloc" \
			print-REALNAME)"; do
		[ ! -f "$got/cli/$f" ] || [ ! -f "$exp/cli/$f" ] || cp "$got/cli/$f" "$exp/cli/$f"
	done
	t_ok "kreloc-dkms holds the files of make install-dkms install-initramfs-tools install-dracut and /etc/modprobe.d/kreloc.conf" \
		diff -r "$exp/dkms" "$got/dkms"
	[ "$T_FAIL" = 0 ] || t_diag "$(diff -r "$exp/dkms" "$got/dkms" | head -10 || true)"
	t_ok "kreloc, libkreloc0 and libkreloc-dev hold the files of make -C tools/cli install prefix=/usr libdir=/usr/lib/$madir" \
		diff -r "$exp/cli" "$got/cli"
	[ "$T_FAIL" = 0 ] || t_diag "$(diff -r "$exp/cli" "$got/cli" | head -10 || true)"
	t_ok "/etc/modprobe.d/kreloc.conf is a conffile" \
		sh -c 'dpkg-deb --ctrl-tarfile "$1" | tar -xOf - ./conffiles | grep -qx /etc/modprobe.d/kreloc.conf' \
		sh "$dkms_deb"
	ctl="$work/deb-ctl"
	rm -rf "$ctl" && dpkg-deb -e "$dkms_deb" "$ctl"
	t_ok "kreloc-dkms's postinst adds, builds and installs kreloc/$version with DKMS; its prerm removes it" \
		sh -c 'grep -q "^DKMS_NAME=kreloc$" "$1/postinst" && grep -q "^DKMS_VERSION=$2$" "$1/postinst" &&
			grep -q common.postinst "$1/postinst" && grep -q "dkms remove -m \$DKMS_NAME -v \$DKMS_VERSION --all" "$1/prerm" &&
			grep -q "^DKMS_VERSION=$2$" "$1/prerm"' sh "$ctl" "$version"
	t_ok "kreloc-dkms activates update-initramfs (its hook comes and goes with the package)" \
		grep -qx 'activate-noawait update-initramfs' "$ctl/triggers"
	t_end
fi

# --- pkg-install: the packages installed with apt ----------------------------
step "test root ($rootkind)"
lower=$("$here/mkroot.sh" "$rootkind")
iroot=$(layer_mount "$lower" "$work/iroot")

# The test's own additions to the root, made before the first listing
# (lib.sh).
itools_fixtures "$iroot" zstd virtio_pci virtio_blk ext4 ata_piix sd_mod e1000
# No /vmlinuz, /initrd.img links: the test purges a kernel and installs it
# again, and the links its scripts move are not kreloc's.
echo 'do_symlinks = no' > "$iroot/etc/kernel-img.conf"
# Two kernels: the root "runs" the first (lib.sh).  (With one, what DKMS
# builds does not depend on it; and a kernel that "runs" is one its prerm
# refuses to remove.)
[ ${#kernels[@]} -eq 1 ] || fake_uname "$iroot" "$k1"
root_listing "$iroot" > "$work/listing-before-itools"

# dkms_status ROOT: "dkms status kreloc" in ROOT.
dkms_status() { in_root "$1" dkms status kreloc 2>/dev/null || true; }

# installed_for STATUS VERSION KVER...: STATUS says kreloc/VERSION is
# installed for every KVER.
installed_for() {
	local f="$1" v="$2" k
	shift 2
	for k; do
		grep -qF "kreloc/$v, $k, x86_64: installed" <<<"$f" || return 1
	done
}

# kernel_pkgs KVER: the packages of the kernel KVER this test purges and
# installs again (image and arch headers) as .deb files, one a line.
kernel_pkgs() {
	local e p
	if [ "$flavour" = bookworm ]; then
		for e in "${kenvs[@]}"; do
			[ "$(sed -n 's/^KVER=//p' <<<"$e")" = "$1" ] || continue
			bookworm_kernel_debs "$e" | grep -e "/linux-image-" -e "/linux-headers-$1_"
		done
	else
		for p in "linux-image-$1" "linux-binary-$1" "linux-modules-$1" "linux-headers-$1"; do
			fetch_deb "$p" trixie
		done
	fi
}

step "pkg-install"
nolink=()
for k in "${kernels[@]}"; do
	[ "$(image "$iroot" "$k")" != "/boot/vmlinuz-$k" ] ||
		[ ! -s "$iroot/usr/lib/modules/$k/vmlinuz" ] || nolink+=("$k")
done
t_begin "${B}pkg-install" $((12 + 9 * ${#kernels[@]} + ${#nolink[@]}))
mkdir -p "$iroot/tmp/debs"
# pkgs_of V: the four packages of version V, as apt-get install arguments.
pkgs_of() {
	echo "/tmp/debs/kreloc-dkms_$1_all.deb /tmp/debs/kreloc_$1_$arch.deb" \
		"/tmp/debs/libkreloc0_$1_$arch.deb /tmp/debs/libkreloc-dev_$1_$arch.deb"
}
cp "$prev"/*_all.deb "$prev"/*_"$arch".deb "$cur"/*_all.deb "$cur"/*_"$arch".deb "$iroot/tmp/debs/"
t_ok "DKMS is not installed before kreloc-dkms" \
	sh -c '! dpkg-query --admindir="$1/var/lib/dpkg" -W -f="\${Status}" dkms 2>/dev/null | grep -q "ok installed"' \
	sh "$iroot"
t_ok "apt-get install ./kreloc-dkms_${pv}_all.deb ./kreloc_${pv}_$arch.deb ./libkreloc0 ./libkreloc-dev (the previous version)" \
	apt_install "$iroot" "$archives" --no-install-recommends $(pkgs_of "$pv") >"$work/apt-prev.log" 2>&1
[ "$T_FAIL" = 0 ] || t_diag "$(tail -20 "$work/apt-prev.log")"
t_diag "$(grep -e '^Building for' -e 'Setting up dkms' "$work/apt-prev.log" || true)"
t_ok "DKMS came from the archive, as kreloc-dkms's dependency" \
	bash -c 'in_root "$1" apt-mark showauto | grep -qx dkms' bash "$iroot"
st=$(dkms_status "$iroot")
t_ok "dkms status: kreloc/$pv installed for ${kernels[*]}" installed_for "$st" "$pv" "${kernels[@]}"
step "pkg-install: the upgrade"
t_ok "apt-get install ./kreloc-dkms_${version}_all.deb ./kreloc_${version}_$arch.deb ./libkreloc0 ./libkreloc-dev (the upgrade)" \
	apt_install "$iroot" "$archives" --no-install-recommends $(pkgs_of "$version") \
	>"$work/apt-upgrade.log" 2>&1
[ "$T_FAIL" = 0 ] || t_diag "$(tail -20 "$work/apt-upgrade.log")"
# A program built against the installed libkreloc-dev (its header and .so
# link, the compiler DKMS brought) runs with the installed libkreloc0.
cat > "$iroot/tmp/libtest.c" <<'EOT'
#include <stdio.h>
#include <kreloc/kreloc.h>
int main(void) { return puts(kreloc_version()) < 0; }
EOT
# (the library's version is its header's, MAJOR.MINOR.PATCH, the package's
# MAJOR.MINOR)
libv=$(make -s --no-print-directory -C "$src/tools/lib/kreloc" print-LIB_MAJOR print-LIB_MINOR print-LIB_PATCH |
	tr -s ' \n' '.' | sed 's/\.$//')
t_ok "a program built with libkreloc-dev (cc -lkreloc) runs and says libkreloc $libv, of package $version" \
	bash -c 'test "$(in_root "$1" sh -c "cc -o /tmp/libtest /tmp/libtest.c -lkreloc && /tmp/libtest")" = "$2" &&
		case "$2" in "$3".*) ;; *) false ;; esac' \
	bash "$iroot" "$libv" "$version" >"$work/libtest.log" 2>&1
rm -f "$iroot/tmp/libtest" "$iroot/tmp/libtest.c"
st=$(dkms_status "$iroot")
t_diag "$st"
t_ok "the upgrade removed kreloc/$pv: not in dkms status, /usr/src or /var/lib/dkms" \
	bash -c '! grep -qF "kreloc/$2," <<<"$3" && test ! -e "$1/usr/src/kreloc-$2" -a ! -e "$1/var/lib/dkms/kreloc/$2"' \
	bash "$iroot" "$pv" "$st"
# The option test's setting, as a user edits the conffile; before the
# kernel below is installed again, so that its initramfs has it too.
echo 'options kreloc history=9' >> "$iroot/etc/modprobe.d/kreloc.conf"
for k in "${kernels[@]}"; do
	img=$(image "$iroot" "$k")
	bdir="$iroot/var/lib/dkms/kreloc/$version/$k/x86_64"
	ko=$(ls "$bdir"/module/kreloc.ko* 2>/dev/null | head -1 || true)
	kraw="$work/kreloc-$k.ko"
	if [ -n "$ko" ]; then unz "$ko" > "$kraw"; else : > "$kraw"; fi
	t_ok "$k: kreloc/$version installed (dkms status)" installed_for "$st" "$version" "$k"
	t_ok "$k: the module in updates/dkms is kreloc/$version's build" \
		sh -c 'm=$(ls "$1"/lib/modules/"$2"/updates/dkms/kreloc.ko* 2>/dev/null | head -1) &&
			[ -n "$3" ] && cmp -s "$m" "$3"' sh "$iroot" "$k" "$ko"
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
	t_ok "$k: modinfo -k finds it in updates/dkms" \
		bash -c 'in_root "$1" modinfo -k "$2" -n kreloc 2>/dev/null |
			grep -q -e "^/lib/modules/$2/updates/dkms/kreloc.ko" \
				-e "^/usr/lib/modules/$2/updates/dkms/kreloc.ko"' bash "$iroot" "$k"
	t_ok "$k: DKMS signed it with the machine owner key" \
		test "$(modinfo -F signer "$kraw" 2>/dev/null)" = "DKMS module signing key"
	if [[ " ${nolink[*]} " == *" $k "* ]]; then
		mv "$iroot$img" "$iroot$img.kreloc-test"
		t_ok "$k: with no $img, the Makefile finds /usr/lib/modules/$k/vmlinuz" \
			in_root "$iroot" sh -c 'rm -rf /tmp/ksrc && cp -r "/usr/src/kreloc-$1" /tmp/ksrc &&
				make -C /tmp/ksrc KDIR="/lib/modules/$2/build" kreloc_linked_gen.h 2>&1 |
				grep -q "link-time data from vmlinux" &&
				grep -q "\"/usr/lib/modules/$2/vmlinuz\"" /tmp/ksrc/kreloc_linked_gen.h' \
			sh "$version" "$k" >>"$work/nolink.log" 2>&1
		mv "$iroot$img.kreloc-test" "$iroot$img"
		rm -rf "$iroot/tmp/ksrc"
	fi
done

# A kernel installed after the package: its prerm takes the module away
# when it is purged, its postinst builds it (and then makes its initramfs).
mapfile -t kdebs < <(kernel_pkgs "$klast")
kpkgs=() kin=()
for f in "${kdebs[@]}"; do
	kpkgs+=("$(dpkg-deb -f "$f" Package)")
	kin+=("/tmp/debs/${f##*/}")
	cp "$f" "$iroot/tmp/debs/"
done
step "pkg-install: the kernel $klast purged and installed again"
t_ok "apt-get purge ${kpkgs[*]}" \
	root_apt "$iroot" "$archives" purge -y "${kpkgs[@]}" >"$work/apt-kernel.log" 2>&1
[ "$T_FAIL" = 0 ] || t_diag "$(tail -20 "$work/apt-kernel.log")"
t_ok "$klast: its kernel's prerm removed kreloc (dkms status, /lib/modules/$klast/updates)" \
	bash -c '! grep -qF ", $2, " <<<"$3" &&
		! ls "$1"/lib/modules/"$2"/updates/dkms/kreloc.ko* >/dev/null 2>&1' \
	bash "$iroot" "$klast" "$(dkms_status "$iroot")"
rm -f "$iroot/boot/initrd.img-$klast"
t_ok "apt-get install the kernel $klast again (its postinst makes its initramfs)" \
	apt_install "$iroot" "$archives" --no-install-recommends \
	"${kin[@]}" >>"$work/apt-kernel.log" 2>&1
[ "$T_FAIL" = 0 ] || t_diag "$(tail -20 "$work/apt-kernel.log")"
t_diag "$(grep -i -e dkms -e kreloc "$work/apt-kernel.log" | head -12 || true)"
st=$(dkms_status "$iroot")
t_ok "$klast: its kernel's postinst built and installed kreloc/$version (dkms status)" \
	installed_for "$st" "$version" "$klast"
t_ok "$klast: the module in updates/dkms is that build" \
	sh -c 'm=$(ls "$1"/lib/modules/"$2"/updates/dkms/kreloc.ko* 2>/dev/null | head -1) &&
		b=$(ls "$1"/var/lib/dkms/kreloc/"$3"/"$2"/x86_64/module/kreloc.ko* 2>/dev/null | head -1) &&
		[ -n "$b" ] && cmp -s "$m" "$b"' sh "$iroot" "$klast" "$version"
t_end

# --- initramfs-tools: real update-initramfs, unpacked ----------------------
step "initramfs-tools"
t_begin "${B}initramfs-tools" $((9 * ${#boot_kernels[@]}))
for k in "${boot_kernels[@]}"; do
	if [ "$k" = "$klast" ]; then
		t_ok "$k: its postinst made /boot/initrd.img-$k" test -s "$iroot/boot/initrd.img-$k"
	else
		rm -f "$iroot/boot/initrd.img-$k" "$iroot/boot/initrd.img-$k.dpkg-bak"
		t_ok "$k: update-initramfs -c succeeds" \
			in_root "$iroot" update-initramfs -c -k "$k" >"$work/update-initramfs-$k.log" 2>&1
	fi
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
	t_ok "$k: /etc/modprobe.d/kreloc.conf is inside, with the option set" \
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

# check_info DUMP ROOT KVER: the module's info for this kernel.
check_info() {
	local d="$1" r="$2" k="$3" bid img
	section "$d" info > "$work/info"
	img=$(image "$r" "$k")
	bid=$(vmlinuz_build_id "$r$img" || true)
	t_ok "info: STATUS=ok" grep -qx STATUS=ok "$work/info"
	# (the image's path in /boot, or where 7.x packages keep it: a kernel's
	# headers' postinst may build the module before the /boot link exists)
	t_ok "info: LINKED_SOURCE=vmlinux from the kernel's image ($img)" \
		sh -c 'grep -qx LINKED_SOURCE=vmlinux "$1" && grep -qx "LINKED_RELEASE=$2" "$1" &&
			grep -qx -e "LINKED_FILE=/boot/vmlinuz-$2" -e "LINKED_FILE=/usr/lib/modules/$2/vmlinuz" "$1"' \
		sh "$work/info" "$k"
	t_ok "info: LINKED_BUILD_ID = BUILD_ID = the vmlinuz's build id" \
		sh -c '[ -n "$2" ] && grep -qx "LINKED_BUILD_ID=$2" "$1" && grep -qx "BUILD_ID=$2" "$1"' \
		sh "$work/info" "$bid"
}

# check_show DUMP: the packaged kreloc command ran in the guest and says
# what the module's own files say.
check_show() {
	local d="$1"
	section "$d" kreloc-show > "$work/show"
	section "$d" kreloc-show-json > "$work/show.json"
	section "$d" proc-modules | awk '{print $1}' > "$work/mods"
	t_ok "the packaged kreloc show runs in the guest (exit 0)" \
		sh -c 'grep -qx "rc=0" "$1" && [ "$(grep -vc "^rc=" "$1")" -gt 5 ]' sh "$work/show"
	[ "$T_FAIL" = 0 ] || t_diag "$(head -5 "$work/show")"
	t_ok "kreloc --json show: status, build id and offset of info; every loaded module" \
		python3 - "$work/show.json" "$work/info" "$work/mods" <<'EOT'
import json, sys
d = json.load(open(sys.argv[1]))
info = dict(l.rstrip("\n").split("=", 1) for l in open(sys.argv[2]) if "=" in l)
mods = {l.strip() for l in open(sys.argv[3]) if l.strip()}
live = {m["name"] for m in d["modules"] if m["state"] == "live"}
ok = (d["status"] == info["STATUS"] == "ok" and d["build_id"] == info["BUILD_ID"]
      and int(d["kerneloffset"], 16) == int(info["KERNELOFFSET"], 16) and mods <= live)
if not ok:
    print(d["status"], d["build_id"], d["kerneloffset"], sorted(mods - live), info, file=sys.stderr)
sys.exit(0 if ok else 1)
EOT
}

for k in "${boot_kernels[@]}"; do
	u="$iroot/tmp/unpacked-$k"
	[ -d "$u/main" ] && u="$u/main"
	step "boot $k (initramfs-tools)"
	t_begin "${B}boot-itools-$(series "$k")" 16
	boot "$iroot$(image "$iroot" "$k")" "$iroot/boot/initrd.img-$k" "itools-$k" "" || true
	d="$work/itools-$k.dump.txt"
	t_ok "the initramfs ran to init-premount and dumped kreloc's state" dumped "$d"
	check_first "$d" "$u" "$k" "virtio_blk ext4 e1000"
	check_info "$d" "$iroot" "$k"
	t_ok "options from /etc/modprobe.d/kreloc.conf reach it (HISTORY_MAX=9)" \
		grep -qx HISTORY_MAX=9 "$work/info"
	check_show "$d"
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

# --- pkg-purge ------------------------------------------------------------------
# purge ROOT TAG: apt-get purge kreloc's packages, then autoremove --purge every
# package that came with them (Recommends and Suggests of other packages
# keep none: by default apt would keep gcc, libc6-dev and perl so); the
# root's listing must then equal the one before the install.  The initramfs
# images (made by the test and by the kernel's postinst) are deleted with
# update-initramfs -d first.
purge() {
	local r="$1" tag="$2"
	local noimp=(-o APT::AutoRemove::RecommendsImportant=false -o APT::AutoRemove::SuggestsImportant=false)
	local p st pk=()
	# those of the four installed here (README.md's line leaves libkreloc-dev
	# out; apt-get refuses a package it never saw)
	for p in kreloc-dkms kreloc libkreloc0 libkreloc-dev; do
		st=$(dpkg-query --admindir="$r/var/lib/dpkg" -W -f='${Status}' "$p" 2>/dev/null || true)
		[[ "$st" != *"ok installed" ]] || pk+=("$p")
	done
	t_ok "apt-get purge ${pk[*]}" \
		root_apt "$r" "$archives" purge -y "${pk[@]}" >"$work/purge-$tag.log" 2>&1
	[ "$T_FAIL" = 0 ] || t_diag "$(tail -20 "$work/purge-$tag.log")"
	t_ok "its prerm removed kreloc from every kernel (dkms status)" \
		test -z "$(dkms_status "$r")"
	t_diag "autoremove: $(root_apt "$r" "$archives" "${noimp[@]}" -s autoremove 2>/dev/null |
		awk '/^Remv / {printf "%s ", $2}')"
	t_ok "apt-get autoremove --purge: DKMS and what came with it" \
		root_apt "$r" "$archives" "${noimp[@]}" autoremove --purge -y >>"$work/purge-$tag.log" 2>&1
	[ ! -x "$r/usr/sbin/update-initramfs" ] ||
		in_root "$r" update-initramfs -d -k all >>"$work/purge-$tag.log" 2>&1 || true
	rm -rf "$r/tmp/debs"
	root_listing "$r" > "$work/listing-after-$tag"
	diff "$work/listing-before-$tag" "$work/listing-after-$tag" > "$work/listing-$tag.diff" || true
	t_ok "nothing left: the root's listing equals the one before the install" \
		test ! -s "$work/listing-$tag.diff"
	[ ! -s "$work/listing-$tag.diff" ] || t_diag "$(head -20 "$work/listing-$tag.diff")"
}

# readme_apt_install ROOT ARCHIVES ARGS: apt-get install ARGS (one string,
# split as the shell splits README.md's line) in ROOT, ./deb/ being /tmp/debs/.
readme_apt_install() {
	[ -n "$3" ] || return 1
	# shellcheck disable=SC2086
	apt_install "$1" "$2" ${3//.\/deb\//\/tmp\/debs\/}
}

# --- dracut -------------------------------------------------------------------
# (bookworm only: dracut is Debian's second initramfs generator)
if [ "$flavour" = bookworm ]; then
	step "test root with dracut"
	droot=$(layer_mount "$("$here/mkroot.sh" dracut)" "$work/droot")
	step "dracut"
	k="$k1"
	# Installing and purging kreloc-dkms triggers update-initramfs, which
	# dracut answers with a generic image of every kernel: minutes, and
	# not the image booted here.  INITRD=No skips that (dracut's kernel
	# hook honours it); the test makes its own images with dracut.
	export ROOT_APT_ENV=INITRD=No
	t_begin dracut 29
	mkdir -p "$droot/usr/lib/dracut/modules.d/99kreloctest" "$droot/tmp/debs"
	cp "$here/dracut-test-setup.sh" "$droot/usr/lib/dracut/modules.d/99kreloctest/module-setup.sh"
	cp "$here/dump-premount.sh" "$droot/usr/lib/dracut/modules.d/99kreloctest/kreloc-test-dump.sh"
	chmod +x "$droot/usr/lib/dracut/modules.d/99kreloctest/"*.sh
	root_listing "$droot" > "$work/listing-before-dracut"
	cp "$cur"/*_all.deb "$cur"/*_"$arch".deb "$droot/tmp/debs/"
	# README.md's own apt-get install of the packages, read from it now,
	# its ./deb/ being the root's /tmp/debs/: a file name it gets wrong
	# (version, architecture) fails here.
	readme_apt=$(python3 "$top/tests/tools/examples.py" block "$top/README.md" '^apt-get install .*\./deb/' |
		sed -n 's/^\([0-9]*\)\tapt-get install \(.*\.\/deb\/.*\)$/\1 \2/p')
	readme_line=${readme_apt%% *}
	t_ok "README.md:${readme_line:-?}: apt-get install ${readme_apt#* }" \
		readme_apt_install "$droot" "$CACHE/boot/apt-bookworm" "${readme_apt#* }" >"$work/apt-dracut.log" 2>&1
	[ "$T_FAIL" = 0 ] || t_diag "$(tail -20 "$work/apt-dracut.log")"
	t_ok "dkms status: kreloc/$version installed for $k" \
		installed_for "$(dkms_status "$droot")" "$version" "$k"
	rm -f "$droot/boot/kreloc-dracut.img"
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
	check_info "$d" "$droot" "$k"
	t_ok "HISTORY_MAX=64 without options" grep -qx HISTORY_MAX=64 "$work/info"
	check_show "$d"
	boot "$droot/boot/vmlinuz-$k" "$droot/boot/kreloc-dracut.img" dracut-opts \
		"root=/dev/disk/by-label/kreloc-none rd.retry=30 rd.timeout=60 rd.shell=0 kreloc.history=7 kreloc.disable=0" || true
	section "$work/dracut-opts.dump.txt" info > "$work/info"
	t_ok "dracut, kreloc.history=7 kreloc.disable=0: loaded, HISTORY_MAX=7" grep -qx HISTORY_MAX=7 "$work/info"
	boot "$droot/boot/vmlinuz-$k" "$droot/boot/kreloc-dracut.img" dracut-disable \
		"root=/dev/disk/by-label/kreloc-none rd.retry=30 rd.timeout=60 rd.shell=0 kreloc.disable=1" || true
	d="$work/dracut-disable.dump.txt"
	t_ok "dracut, kreloc.disable=1: booted, kreloc not loaded, virtio_blk loaded" \
		sh -c 'grep -q "^KRELOC-DUMP-END" "$1" && ! grep -q "^kreloc " "$1" && grep -q "^virtio_blk " "$1"' sh "$d"
	rm -f "$droot/boot/kreloc-dracut.img"
	rm -rf "$dun"
	purge "$droot" dracut
	unset ROOT_APT_ENV
	t_end
	layer_umount "$work/droot"
fi

# --- pkg-purge ----------------------------------------------------------------
step "pkg-purge"
t_begin "${B}pkg-purge" 4
rm -rf "$iroot"/tmp/unpacked-*
purge "$iroot" itools
t_end

# --- readme-by-hand -------------------------------------------------------------
# (trixie) README.md's install "from the source tree by hand", read from it
# now and run as written, command by command, as root in the root the
# packages were just purged from: its working directory a copy of the
# source tree, "uname -r" answering the root's kernel, and the machine's
# initramfs made before (a user's machine has one; the purge deleted it).
# apt says yes by configuration, as an interactive user would.  The
# module it builds is the one the packages' boots have run; here the
# result is read from the root: DKMS's status, the initramfs, the tool.
if [ "$flavour" = trixie ]; then
	step "readme-by-hand"
	mapfile -t hand < <(python3 "$top/tests/tools/examples.py" block "$top/README.md" '^make install-dkms\b')
	t_begin readme-by-hand $((${#hand[@]} + 5))
	t_ok "README.md has the by-hand block (apt-get install, make install-dkms, dkms install ...)" \
		test ${#hand[@]} -ge 4
	fake_uname "$iroot" "$k1"
	rm -rf "$iroot/tmp/src"
	cp -r "$src" "$iroot/tmp/src"
	printf '%s\n' 'APT::Get::Assume-Yes "true";' "Dir::Cache::Archives \"$archives/\";" \
		'APT::Sandbox::User "root";' > "$iroot/etc/apt/apt.conf.d/99kreloc-test"
	in_root "$iroot" update-initramfs -c -k "$k1" >"$work/readme-by-hand.log" 2>&1 || true
	export IN_ROOT_CACHE=1
	for c in "${hand[@]}"; do
		t_ok "README.md:${c%%$'\t'*}: ${c#*$'\t'}" \
			in_root "$iroot" env DEBIAN_FRONTEND=noninteractive \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			sh -ec 'cd /tmp/src; eval "$1"' sh "${c#*$'\t'}" >>"$work/readme-by-hand.log" 2>&1
	done
	unset IN_ROOT_CACHE
	[ "$T_FAIL" = 0 ] || t_diag "$(tail -20 "$work/readme-by-hand.log")"
	t_ok "dkms status: kreloc/$version installed for $k1" \
		installed_for "$(dkms_status "$iroot")" "$version" "$k1"
	t_ok "the initramfs of $k1 holds kreloc.ko (updates/dkms) and scripts/init-top/00kreloc" \
		bash -c 'l=$(in_root "$1" lsinitramfs "/boot/initrd.img-$2") &&
			grep -q "/modules/$2/updates/dkms/kreloc\.ko" <<<"$l" &&
			grep -q "scripts/init-top/00kreloc\$" <<<"$l"' bash "$iroot" "$k1"
	t_ok "the installed kreloc runs, as root finds it in PATH (kreloc --version: kreloc v$version)" \
		bash -c 'in_root "$1" env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			kreloc --version | grep -qxF "kreloc v$2"' bash "$iroot" "$version"
	t_ok "its man page kreloc(8) is installed" \
		bash -c 'ls "$1"/usr/local/share/man/man8/kreloc.8* >/dev/null 2>&1' bash "$iroot"
	t_end
fi

step "done"
