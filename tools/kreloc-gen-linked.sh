#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kreloc-gen-linked.sh LINKGEN OUT RELEASE SOURCE SYSTEM_MAP VMLINUZ
#
# Write kreloc_linked_gen.h from the first link-time source that exists:
# a real System.map (Debian's one-line placeholder does not count), the
# vmlinux inside VMLINUZ (an arm64 Image has none), or the arch's link
# base.  SOURCE=auto picks; system.map, vmlinux or arch forces one (and
# fails if it is unusable).
set -eu

linkgen="$1" out="$2" release="$3" source="$4" map="$5" image="$6"
here=$(dirname "$0")
tmp="$out.tmp"

elf="$out.vmlinux"
trap 'rm -f "$elf"' EXIT

use_map() {
	[ -r "$map" ] && "$linkgen" --probe-map "$map" 2>/dev/null
}

if [ "$source" = auto ]; then
	if use_map; then
		source=system.map
	elif [ -r "$image" ] && "$here/kreloc-extract-vmlinux" "$image" "$elf" 2>/dev/null; then
		source=vmlinux
	else
		source=arch
	fi
fi

case "$source" in
system.map)
	use_map || { "$linkgen" --probe-map "$map"; exit 1; }
	"$linkgen" --source system.map --input "$map" --release "$release" -o "$tmp"
	;;
vmlinux)
	[ -r "$image" ] || { echo "kreloc: VMLINUZ=$image: not readable" >&2; exit 1; }
	[ -s "$elf" ] || "$here/kreloc-extract-vmlinux" "$image" "$elf"
	"$linkgen" --source vmlinux --input "$elf" --name "$image" \
		--release "$release" -o "$tmp"
	;;
arch)
	"$linkgen" --source arch --release "$release" -o "$tmp"
	;;
*)
	echo "kreloc: LINKED_SOURCE=$source: use auto, system.map, vmlinux or arch" >&2
	exit 2
	;;
esac

if cmp -s "$tmp" "$out"; then
	rm -f "$tmp"
else
	mv "$tmp" "$out"
fi
echo "kreloc: link-time data from $source" >&2
