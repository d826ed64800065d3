# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the kreloc QEMU rig.  Source, do not run.

CACHE="${KRELOC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kreloc}"
mkdir -p "$CACHE/debs" "$CACHE/k" "$CACHE/tmp"

# KRELOC_LOG_TIME=1 stamps each line with the time of day (to see where a
# run's time goes: make check keeps each job's log with KRELOC_KEEP_RUN).
log() {
	if [ -n "${KRELOC_LOG_TIME:-}" ]; then
		printf 'rig: %(%T)T %s\n' -1 "$*" >&2
	else
		printf 'rig: %s\n' "$*" >&2
	fi
}
# tlog: a log line only for KRELOC_LOG_TIME (progress nobody else needs).
tlog() { [ -z "${KRELOC_LOG_TIME:-}" ] || log "$@"; }
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

# --- Other Debian releases --------------------------------------------------
# The host is bookworm.  Other releases are read through a private apt
# configuration under the cache ($CACHE/apt/RELEASE), never through this
# machine's sources; rig/root.sh makes debootstrapped roots of them.
DEBIAN_MIRROR="${KRELOC_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
DEBIAN_SECURITY="${KRELOC_DEBIAN_SECURITY:-http://deb.debian.org/debian-security}"
HOST_RELEASE=bookworm

# rel_sources RELEASE: its sources.list (updates, security; backports on trixie).
rel_sources() {
	case "$1" in
	bullseye|bookworm|trixie) ;;
	*) die "unknown Debian release '$1'" ;;
	esac
	echo "deb $DEBIAN_MIRROR $1 main"
	echo "deb $DEBIAN_MIRROR $1-updates main"
	echo "deb $DEBIAN_SECURITY $1-security main"
	[ "$1" != trixie ] || echo "deb $DEBIAN_MIRROR $1-backports main"
}

# rel_apt RELEASE apt-get|apt-cache ARGS...: apt on RELEASE's indexes (the
# host's own for bookworm), refreshed once a day.
rel_apt() {
	local rel="$1" d o
	shift
	if [ "$rel" = "$HOST_RELEASE" ]; then
		apt_update_once
		"$@"
		return
	fi
	d="$CACHE/apt/$rel"
	o=(-o Dir::Etc::SourceList="$d/sources.list" -o Dir::Etc::SourceParts=/nonexistent
		-o Dir::State::Lists="$d/lists" -o Dir::State::status="$d/status"
		-o Dir::Cache="$d/cache" -o APT::Sandbox::User=root -o Debug::NoLocking=1
		-o APT::Architectures::=amd64)
	if [ -z "$(find "$d/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 2>/dev/null | head -1)" ]; then
		mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
		rel_sources "$rel" > "$d/sources.list"
		: >> "$d/status"
		flock -w 1800 "$d/.lock" apt-get "${o[@]}" -qq update >&2 ||
			log "warning: apt-get update for $rel reported errors"
	fi
	"$1" "${o[@]}" "${@:2}"
}

# fetch_deb PKG [RELEASE]: download PKG (name or name:arch) of RELEASE
# (default: the host's) into the cache, print its path.
fetch_deb() {
	local pkg="$1" rel="${2:-$HOST_RELEASE}" name arch ver f
	name="${pkg%%:*}"
	ver=$(rel_apt "$rel" apt-cache policy "$pkg" | awk '/Candidate:/ {print $2}')
	[ -n "$ver" ] && [ "$ver" != "(none)" ] || die "no candidate for $pkg in $rel"
	arch=$(rel_apt "$rel" apt-cache show "$pkg=$ver" | awk '/^Architecture:/ {print $2; exit}')
	f="$CACHE/debs/${name}_${ver//:/%3a}_${arch}.deb"
	if [ ! -s "$f" ]; then
		# Two jobs of `make check` may want one package at once.
		(
			flock -w 1800 9 || die "cannot lock $f"
			[ -s "$f" ] && exit 0
			log "downloading $pkg $ver ($rel)"
			cd "$CACHE/debs" && rel_apt "$rel" apt-get download -qq "$pkg=$ver" >&2
		) 9> "$f.lock" || die "apt-get download $pkg failed"
	fi
	[ -s "$f" ] || die "downloaded $pkg but $f is missing"
	echo "$f"
}

# newest_pkg REGEX [RELEASE]: newest package name matching REGEX
# (apt-cache search --names-only) in RELEASE (default: the host's).
newest_pkg() {
	rel_apt "${2:-$HOST_RELEASE}" apt-cache search --names-only "$1" |
		awk '{print $1}' | sort -V | tail -1
}

# in_root ROOT CMD...: run CMD chrooted in ROOT with /proc, /sys and /dev
# mounted in a private mount namespace (the mounts vanish with it).  With
# IN_ROOT_CACHE=1, $CACHE is also bound at its own path inside, so paths
# under the cache mean the same inside and out.
in_root() {
	local r="$1" bind=
	shift
	[ -z "${IN_ROOT_CACHE:-}" ] || bind="$CACHE"
	cp /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || true
	unshare --mount --propagation private -- sh -ec '
		r="$1" bind="$2"; shift 2
		mount -t proc proc "$r/proc"
		mount -t sysfs sysfs "$r/sys"
		mount --rbind /dev "$r/dev"
		if [ -n "$bind" ]; then
			mkdir -p "$r$bind"
			mount --bind "$bind" "$r$bind"
		fi
		exec chroot "$r" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			LANG=C.UTF-8 "$@"' in_root "$r" "$bind" "$@"
}

# kmake MAKEARGS...: make for the kernel of the sourced env file: on the
# host, or, when the env names a BUILD_ROOT (a root of the kernel's own
# release, from rig/root.sh), chrooted there as that release's DKMS would
# build.  Paths under the root are given as host paths and translated.
kmake() {
	local a args=()
	if [ -z "${BUILD_ROOT:-}" ]; then
		make "$@"
		return
	fi
	for a in "$@"; do
		args+=("${a//"$BUILD_ROOT"\//\/}")
	done
	IN_ROOT_CACHE=1 in_root "$BUILD_ROOT" make "${args[@]}"
}

# kmod_make DIR MAKEARGS...: kbuild, quiet, of the external modules in
# DIR (under $CACHE, which a release's root sees) for the kernel of the
# sourced env file, cross where it is not x86.
kmod_make() {
	local dir="$1" kargs=()
	shift
	[ "$KARCH" = x86 ] || kargs=(ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE")
	kmake -s -C "$KDIR" M="$dir" "${kargs[@]}" "$@" >/dev/null 2>&1
}

# build_test_modules TOP DIR [NAME.ko]: the test modules of
# selftests/kreloc/test_module (every one, or only NAME.ko) built in DIR.
build_test_modules() {
	mkdir -p "$2"
	cp "$1/selftests/kreloc/test_module/"*.c "$1/selftests/kreloc/test_module/Kbuild" "$2/"
	kmod_make "$2" "${3:-modules}"
}

# mod_root MODDIR: the root that holds lib/modules/KVER; MODDIR (from an env
# file) is either that root or the lib/modules/KVER directory itself.
mod_root() {
	local d="${1:-}"
	[ -n "$d" ] && [ -d "$d/kernel" ] && d=$(cd "$d/../../.." && pwd)
	echo "$d"
}

# module_dirs TOP: the module's source directories, bottom to top: the
# layers kreloc.h lists (its "Layers, bottom to top:" block), then test/.
module_dirs() {
	sed -n '/Layers, bottom to top:/,/^ \*$/s|^ \*   \([a-z_]*\)/ .*|\1|p' "$1/kreloc.h"
	echo test
}
