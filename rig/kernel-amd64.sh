#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-amd64.sh SERIES: fetch the newest Debian bookworm amd64 kernel of SERIES
# (6.1 or 6.12) with its headers into the cache, make the headers usable from there,
# and print the path of its env file.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

series="${1:-6.1}"
case "$series" in
6.1)  re='^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$' ;;
6.12) re='^linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned$' ;;
*) die "unknown series '$series' (6.1 or 6.12)" ;;
esac

# A warm cache answers without asking apt.
if [ -z "${KRELOC_REFRESH:-}" ] && [ -s "$CACHE/k/amd64-$series.env" ]; then
	cat "$CACHE/k/amd64-$series.env"
	exit 0
fi

need_pkgs dpkg-dev
img=$(newest_pkg "$re")
[ -n "$img" ] || die "no kernel matches $re"
kver=${img#linux-image-}
kver=${kver%-unsigned}
dir="$CACHE/k/amd64-$kver"
env="$dir/env"

if [ ! -s "$env" ]; then
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp/root"
	hdr="linux-headers-$kver"
	common=$(apt-cache show "$hdr" | awk -F'[ ,(]+' '/^Depends:/ {
		for (i = 1; i <= NF; i++) if ($i ~ /^linux-headers-.*-common$/) { print $i; exit } }')
	kbuild=$(apt-cache show "$hdr" | awk -F'[ ,(]+' '/^Depends:/ {
		for (i = 1; i <= NF; i++) if ($i ~ /^linux-kbuild-/) { print $i; exit } }')
	[ -n "$common" ] && [ -n "$kbuild" ] || die "cannot read $hdr dependencies"
	for p in "$img" "$hdr" "$common" "$kbuild"; do
		dpkg -x "$(fetch_deb "$p")" "$dir.tmp/root"
	done
	# The headers point at /usr/src/... and /usr/lib/linux-kbuild-*: make them
	# refer to the unpacked copies instead.
	hd="$dir/root/usr/src/$hdr"
	cd_common=$(basename "$(ls -d "$dir.tmp/root/usr/src/"*-common*)")
	sed -i "s|^include /usr/src/$cd_common/|include $dir/root/usr/src/$cd_common/|" \
		"$dir.tmp/root/usr/src/$hdr/Makefile"
	kb=$(ls -d "$dir.tmp/root/usr/lib/linux-kbuild-"*)
	for l in scripts tools; do
		for d in "$dir.tmp/root/usr/src/$hdr" "$dir.tmp/root/usr/src/$cd_common"; do
			if [ -L "$d/$l" ]; then
				rm "$d/$l"
				ln -s "$dir/root/usr/lib/$(basename "$kb")/$l" "$d/$l"
			fi
		done
	done
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
	cat > "$env.tmp" <<EOT
KVER=$kver
SERIES=$series
KARCH=x86
UNAME_M=x86_64
CROSS_COMPILE=
KDIR=$hd
KIMAGE=$dir/root/boot/vmlinuz-$kver
VMLINUZ=$dir/root/boot/vmlinuz-$kver
SYSTEM_MAP=
MODDIR=$dir/root
QEMU_BIN=qemu-system-x86_64
QEMU_ARGS="-M pc -cpu max -m 1024 -smp 2 -nographic -no-reboot"
CONSOLE=ttyS0
USERLAND=/bin
EOT
	mv "$env.tmp" "$env"
fi
# Only pahole is needed from the host beyond gcc/make (6.12 headers call it).
need_pkgs dwarves libelf-dev
cp "$env" "$CACHE/k/amd64-$series.env"
cat "$env"
