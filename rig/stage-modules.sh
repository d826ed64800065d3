#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# stage-modules.sh ROOT KVER STAGE MODULE...: copy the named modules of the
# kernel unpacked in ROOT, with their dependencies, into STAGE/lib/modules/KVER
# (decompressed, so busybox modprobe and finit_module take them as they are)
# and write modules.dep there with depmod.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

root="$1" kver="$2" stage="$3"
shift 3
need_pkgs kmod xz-utils zstd
src="$root/lib/modules/$kver"
dst="$stage/lib/modules/$kver"
mkdir -p "$dst"
declare -A seen=()

find_ko() {
	find "$src/kernel" -name "$1.ko" -o -name "$1.ko.xz" -o -name "$1.ko.zst" |
		head -1
}

add() {
	local m="$1" f rel out dep
	m="${m//-/_}"
	[ -n "${seen[$m]:-}" ] && return 0
	seen[$m]=1
	f=$(find_ko "$m")
	[ -n "$f" ] || f=$(find_ko "${m//_/-}")
	[ -n "$f" ] || die "module $m not found under $src"
	rel="${f#"$src"/}"
	out="$dst/${rel%.xz}"
	out="${out%.zst}"
	mkdir -p "$(dirname "$out")"
	case "$f" in
	*.xz) xz -dc "$f" > "$out" ;;
	*.zst) zstd -qdc "$f" > "$out" ;;
	*) cp "$f" "$out" ;;
	esac
	for dep in $(modinfo -F depends "$out" | tr ',' ' '); do
		add "$dep"
	done
}

for m in "$@"; do
	add "$m"
done
cp "$src/modules.order" "$src/modules.builtin" "$src/modules.builtin.modinfo" "$dst/" 2>/dev/null || true
depmod -b "$stage" "$kver"
