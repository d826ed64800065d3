# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Helpers for the boot tests.  Source after rig/lib.sh.

# in_root ROOT CMD... comes from rig/lib.sh.

# --- KTAP blocks, streamed as they run --------------------------------------
# Each block states its plan when it begins and prints every result at
# once, so a run that aborts midway (set -e) still shows what ran, and
# rig/ktap.sh counts every planned result that never came as failed.
# They go to fd 3, which the script opens on its stdout (exec 3>&1): a
# caller's redirection of a check's output (t_ok DESC CMD >LOG) must not
# take the result line with it.
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
t_diag() { sed 's/^/# /' <<<"$*" >&3; }
t_end() { echo "KRELOC-TEST-END $T_NAME rc=$T_FAIL" >&3; }

# itools_fixtures ROOT COMPRESS MODULE...: the tests' additions to an
# initramfs-tools root: a small module list, an init-premount script (after
# udev) that dumps kreloc's records to the second serial port and powers
# off (dump-premount.sh), and a hook that puts the packaged kreloc command
# into the initramfs for it.
itools_fixtures() {
	local r="$1" z="$2" d="$1/etc/initramfs-tools"
	shift 2
	mkdir -p "$d/conf.d" "$d/scripts/init-premount" "$d/hooks"
	printf 'MODULES=list\nCOMPRESS=%s\n' "$z" > "$d/conf.d/kreloc-test"
	printf '%s\n' "$@" > "$d/modules"
	cp "$(dirname "${BASH_SOURCE[0]}")/dump-premount.sh" "$d/scripts/init-premount/kreloc-test-dump"
	cat > "$d/hooks/kreloc-test" <<'EOT'
#!/bin/sh
# tests/boot: the packaged kreloc command, for the dump script.
[ "$1" = prereqs ] && exit 0
. /usr/share/initramfs-tools/hook-functions
[ ! -x /usr/sbin/kreloc ] || copy_exec /usr/sbin/kreloc /usr/sbin
EOT
	chmod +x "$d/scripts/init-premount/kreloc-test-dump" "$d/hooks/kreloc-test"
}

# layer_mount LOWER DIR: print DIR/root, a writable view of the cached root
# LOWER whose changes go to DIR/upper (overlayfs): each run starts from the
# root as mkroot.sh made it, and none changes it.  DIR is made anew.
layer_mount() {
	local lower="$1" d="$2"
	layer_umount "$d"
	rm -rf "$d"
	mkdir -p "$d/upper" "$d/work" "$d/root"
	mount -t overlay overlay -o "lowerdir=$lower,upperdir=$d/upper,workdir=$d/work" \
		"$d/root" || die "cannot mount an overlay on $d/root"
	# (where in_root binds $CACHE, made now: not something a test left)
	mkdir -p "$d/root$CACHE"
	echo "$d/root"
}

# layer_umount DIR: undo layer_mount (also one a killed run left).
layer_umount() {
	if mountpoint -q "$1/root" 2>/dev/null; then
		umount "$1/root" 2>/dev/null || umount -l "$1/root"
	fi
}

# root_apt ROOT ARCHIVES ARGS...: apt-get ARGS in ROOT, non-interactive, with
# $CACHE bound inside, apt keeping its downloads in ARCHIVES (a directory
# under $CACHE, shared by the runs) and dpkg syncing nothing (the root is a
# throw-away layer).  PATH starts with /usr/local/sbin (see fake_uname).
# ROOT_APT_ENV: more VAR=VALUE words for apt's environment.
root_apt() {
	local r="$1" a="$2"
	shift 2
	mkdir -p "$a/partial"
	# shellcheck disable=SC2086
	IN_ROOT_CACHE=1 in_root "$r" env DEBIAN_FRONTEND=noninteractive ${ROOT_APT_ENV:-} \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		apt-get -o Dir::Cache::Archives="$a/" -o APT::Sandbox::User=root \
		-o Dpkg::Options::=--force-unsafe-io "$@"
}

# apt_install ROOT ARCHIVES ARGS...: apt-get install -y ARGS in ROOT; when
# that fails, once more after apt-get update (the root's indexes are those of
# the day it was made, and the archive may have moved on since).
apt_install() {
	local r="$1" a="$2"
	shift 2
	root_apt "$r" "$a" install -y "$@" && return 0
	echo "# apt-get install failed: apt-get update, then once more"
	root_apt "$r" "$a" update && root_apt "$r" "$a" install -y "$@"
}

# fake_uname ROOT KVER: make "uname -r" in ROOT answer KVER, as on a machine
# booted into that kernel.  Debian's DKMS builds a new package's module for
# the running kernel and the newest one (/usr/lib/dkms/common.postinst); in
# a chroot "uname -r" names the host's kernel, and what it builds then
# depends on the machine the tests run on.  /usr/local/sbin comes first in
# root_apt's PATH, which dpkg hands to the maintainer scripts.
fake_uname() {
	mkdir -p "$1/usr/local/sbin"
	cat > "$1/usr/local/sbin/uname" <<EOT
#!/bin/sh
# tests/boot: this root "runs" $2.
[ "\$*" = -r ] && { echo "$2"; exit 0; }
exec /usr/bin/uname "\$@"
EOT
	chmod +x "$1/usr/local/sbin/uname"
}

# root_listing ROOT: every path in ROOT with its type (find's %y), sorted:
# what "nothing left behind" is checked against.  Left out: the pseudo and
# scratch file systems, and the bookkeeping of apt and the logs, which any
# apt run changes (/var/cache, /var/lib/apt, /var/log).
root_listing() {
	(cd "$1" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./run \
		-o -path ./tmp -o -path ./var/tmp -o -path ./var/cache -o -path ./var/lib/apt \
		-o -path ./var/log \) -prune -o -printf '%y %p\n') | LC_ALL=C sort
}

# section FILE NAME: the lines of "== NAME" in a dump (dump-premount.sh).
section() {
	awk -v want="== $2" '/^== / { on = ($0 == want); next } /^KRELOC-DUMP-END/ { on = 0 } on' "$1"
}

dumped() { grep -q '^KRELOC-DUMP-END' "$1"; }

# unz FILE: a module, decompressed.
unz() {
	case "$1" in
	*.xz) xz -dc "$1" ;;
	*.zst) zstd -qdc "$1" ;;
	*) cat "$1" ;;
	esac
}

# bookworm_kernel_debs ENV: the .debs of the rig's bookworm kernel of ENV
# (rig/kernel-amd64.sh's output), as the rig fetched them: the image
# (-unsigned, so that apt downloads none: the 6.12 headers would pull the
# signed image from the archive), the headers, their -common part and this
# kernel's own kbuild (the cache also holds other releases', which need
# other suites' libc).
bookworm_kernel_debs() {
	local kv kd kb f
	kv=$(sed -n 's/^KVER=//p' <<<"$1")
	kd=$(sed -n 's/^KDIR=//p' <<<"$1")
	kb=$(basename "$(dirname "$(readlink "$kd/scripts")")")
	for f in "$CACHE"/debs/linux-image-"$kv"-unsigned_*_amd64.deb \
		"$CACHE"/debs/linux-headers-"$kv"_*.deb \
		"$CACHE"/debs/linux-headers-"${kv%-amd64}"-common_*.deb \
		"$CACHE"/debs/"$kb"_*_amd64.deb; do
		[ -s "$f" ] || die "no $f in the cache (rig/kernel-amd64.sh fetches it)"
		echo "$f"
	done
}
