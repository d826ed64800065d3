# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the kreloc QEMU rig.  Source, do not run.

CACHE="${KRELOC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kreloc}"
mkdir -p "$CACHE/debs" "$CACHE/k" "$CACHE/tmp"

log() { printf 'rig: %s\n' "$*" >&2; }
die() { printf 'rig: error: %s\n' "$*" >&2; exit 1; }

# apt runs serialised through a lock, so rig scripts may run in parallel.
APT_LOCK=/var/lock/kreloc-apt.lock
apt_locked() { flock -w 1800 "$APT_LOCK" "$@"; }

# apt_update: refresh the indexes.  A foreign architecture's index may be
# out of step (seen with ppc64el in bookworm-security: "File has unexpected
# size", exit 100): carry on with the indexes that were fetched.
apt_updated=
apt_update() {
	apt_locked apt-get update -qq >&2 || log "warning: apt-get update reported errors"
	apt_updated=1
}

# apt_update_once: refresh unless done in this run or the lists are fresh.
apt_update_once() {
	[ -n "$apt_updated" ] && return 0
	if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages' -mmin -1440 2>/dev/null | head -1)" ]; then
		apt_update
	fi
	apt_updated=1
}

# (grep -c, not grep -q: under pipefail an early grep -q exit can kill the
# writer with SIGPIPE and turn a match into a failure)
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -c 'ok installed' >/dev/null; }

# need_pkgs PKG...: install the packages that are not installed yet.
need_pkgs() {
	local missing=() p
	for p in "$@"; do
		have_pkg "$p" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	apt_update_once
	log "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt_locked apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 || {
		apt_update
		apt_locked apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
	} || die "apt-get install ${missing[*]} failed"
}

# fetch_deb PKG: download PKG (name or name:arch) into the cache, print its path.
fetch_deb() {
	local pkg="$1" name arch ver f
	name="${pkg%%:*}"
	apt_update_once
	ver=$(apt-cache policy "$pkg" | awk '/Candidate:/ {print $2}')
	[ -n "$ver" ] && [ "$ver" != "(none)" ] || die "no candidate for $pkg"
	arch=$(apt-cache show "$pkg=$ver" | awk '/^Architecture:/ {print $2; exit}')
	f="$CACHE/debs/${name}_${ver//:/%3a}_${arch}.deb"
	if [ ! -s "$f" ]; then
		log "downloading $pkg $ver"
		(cd "$CACHE/debs" && apt-get download -qq "$pkg=$ver" >&2) ||
			die "apt-get download $pkg failed"
	fi
	[ -s "$f" ] || die "downloaded $pkg but $f is missing"
	echo "$f"
}

# newest_pkg REGEX: newest package name matching REGEX (apt-cache search --names-only).
newest_pkg() {
	apt_update_once
	apt-cache search --names-only "$1" | awk '{print $1}' | sort -V | tail -1
}

# mod_root MODDIR: the root that holds lib/modules/KVER; MODDIR (from an env
# file) is either that root or the lib/modules/KVER directory itself.
mod_root() {
	local d="${1:-}"
	[ -n "$d" ] && [ -d "$d/kernel" ] && d=$(cd "$d/../../.." && pwd)
	echo "$d"
}
