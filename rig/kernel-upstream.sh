#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-upstream.sh: the kernel of the upstream target (issue 25).  Takes
# the Debian kernel source named in upstream/README ("Base:" line), from
# trixie-backports as rig/root.sh's releases are fetched, applies
# upstream/0*.patch to it with git am, checks each patch with that tree's
# scripts/checkpatch.pl --strict, builds the tree after each patch
# (allnoconfig + rig/configs/x86_64-upstream.fragment, as
# rig/kernel-debug.sh builds the debug kernel), builds the selftest's test
# module and program, and prints the env file of the last build (the keys
# of rig/kernel-debug.sh, plus those below).
#
# Cached under $KRELOC_CACHE, keyed by (source, series, fragment, recipe):
#   src/linux-source-<debver>/     the pristine source (shared with
#                                  rig/kernel-debug.sh's convention)
#   upstream/git-<debver>/         a git tree of it; the series is applied
#                                  on branch series-<hash>
#   upstream/build-x86_64/         the O= tree, rebuilt incrementally
#   upstream/<debver>-<key>/       checks.ktap (git am, checkpatch, the
#                                  build after each patch), modroot/,
#                                  selftest/, the env file
#   k/upstream.env                 a copy of the newest env file
#
# Env keys beyond kernel-debug.sh's: BASE (package and version), CHECKS
# (the KTAP lines of the series checks), SELFTEST (kreloc_test and
# test_kreloc.ko), BISECT_TIME (wall seconds of the builds after each
# patch, the first one cold).
# Knobs: KRELOC_JOBS (default 2), KRELOC_REBUILD=1.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
frag="$top/rig/configs/x86_64-upstream.fragment"
jobs="${KRELOC_JOBS:-2}"
recipe=1
read -r _ pkg debver _ < <(grep -m1 '^Base: ' "$top/upstream/README") ||
	die "upstream/README names no 'Base: PACKAGE VERSION'"
mapfile -t patches < <(find "$top/upstream" -maxdepth 1 -name '0*.patch' ! -name '0000-*' | sort)
[ ${#patches[@]} -gt 0 ] || die "no patches in upstream/"
hashsum() { sha256sum | cut -c1-16; }
series=$(cat "${patches[@]}" | hashsum)
key=$( { echo "$series"; sha256sum < "$frag"; sha256sum < "$0"; echo "r$recipe"; } | hashsum)
res="$CACHE/upstream/$debver-$key"

# A warm cache answers without apt, git or make.
if [ -z "${KRELOC_REBUILD:-}" ] && [ -s "$res/done" ] && [ -s "$res/env" ]; then
	cat "$res/env"
	exit 0
fi

need_pkgs make gcc libc6-dev bc bison flex libelf-dev libssl-dev openssl xz-utils cpio \
	kmod git python3 python3-ply python3-git busybox-static qemu-system-x86
mkdir -p "$CACHE/upstream" "$CACHE/src"
exec 8> "$CACHE/upstream/.lock"
flock 8

# The source package, the exact version upstream/README names: the series
# is against it (trixie-backports keeps a few older versions listed).
deb="$CACHE/debs/${pkg}_${debver//:/%3a}_all.deb"
if [ ! -s "$deb" ]; then
	(
		flock -w 1800 9 || die "cannot lock $deb"
		[ -s "$deb" ] && exit 0
		log "downloading $pkg $debver (trixie-backports)"
		cd "$CACHE/debs" && rel_apt trixie apt-get download -qq "$pkg=$debver" >&2
	) 9> "$deb.lock" || die "cannot download $pkg $debver; is it still in trixie-backports?"
fi
src="$CACHE/src/linux-source-$debver"
(
	flock 9
	[ -f "$src/.kreloc-extracted" ] && exit 0
	log "unpacking $pkg $debver"
	tmp="$src.tmp.$$"
	rm -rf "$tmp" && mkdir -p "$tmp"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$pkg.tar.xz" | xz -dc -T1 | tar -x -C "$tmp"
	rm -rf "$src"
	mv "$tmp/$pkg" "$src"
	rmdir "$tmp"
	touch "$src/.kreloc-extracted"
) 9> "$CACHE/src/.linux-source-$debver.lock"

# A git tree of the pristine source.  Debian's .gitignore ignores every
# top-level entry, hence add -f.
git_tree="$CACHE/upstream/git-$debver"
g() { git -C "$git_tree" -c user.name=kreloc-rig -c user.email=rig@localhost "$@"; }
if [ ! -f "$git_tree/.kreloc-base" ]; then
	log "making a git tree of $pkg $debver (once)"
	rm -rf "$git_tree"
	cp -a "$src" "$git_tree"
	rm -f "$git_tree/.kreloc-extracted"
	g init -q
	g add -f -A
	g commit -q -m "$pkg $debver"
	g rev-parse HEAD > "$git_tree/.kreloc-base"
fi
base=$(cat "$git_tree/.kreloc-base")

rm -rf "$res"
mkdir -p "$res"
checks="$res/checks.ktap"
: > "$checks"
n=0
ok() { n=$((n + 1)); echo "ok $n $*" >> "$checks"; }
notok() { n=$((n + 1)); echo "not ok $n $*" >> "$checks"; }

# git am, as a maintainer would apply the series.
g am --abort >/dev/null 2>&1 || true
g checkout -q -f -B "series-$series" "$base"
g clean -q -fdx
if g am -q "${patches[@]}" > "$res/git-am.log" 2>&1; then
	ok "git am: ${#patches[@]} patches apply to $pkg $debver"
else
	notok "git am: the series does not apply to $pkg $debver"
	sed 's/^/# /' "$res/git-am.log" >> "$checks"
	g am --abort >/dev/null 2>&1 || true
	die "git am failed (see $res/git-am.log)"
fi
mapfile -t commits < <(g rev-list --reverse "$base..HEAD")

# checkpatch.pl --strict on each patch file, with the tree's own script.
for p in "${patches[@]}"; do
	out=$(cd "$git_tree" && PATH=/usr/bin:/bin:$PATH perl scripts/checkpatch.pl --strict "$p" 2>&1 || true)
	total=$(grep -m1 '^total:' <<<"$out" || echo "total: no result")
	if [[ "$total" == "total: 0 errors, 0 warnings, 0 checks, "* ]]; then
		ok "checkpatch.pl --strict $(basename "$p")"
	else
		notok "checkpatch.pl --strict $(basename "$p"): $total"
		grep -E '^(ERROR|WARNING|CHECK)' <<<"$out" | sed 's/^/# /' >> "$checks"
	fi
done

# The tree after each patch: configured afresh and built (incrementally
# from the patch before; the first build in an empty O= tree is cold).
build="$CACHE/upstream/build-x86_64"
mkdir -p "$build"
kmake() { make -C "$git_tree" O="$build" ARCH=x86_64 "$@"; }
TIMEFORMAT='%0R %0U %0S'
bisect_time=
for i in "${!commits[@]}"; do
	c=${commits[$i]}
	subj=$(g log -1 --format=%s "$c")
	g checkout -q "$c"
	brc=0
	{ time { kmake -s KCONFIG_ALLCONFIG="$frag" allnoconfig &&
		kmake -j"$jobs" bzImage modules; } > "$res/build-$((i + 1)).log" 2>&1 || brc=$?; } \
		2> "$res/time.tmp"
	read -r secs usr sys < "$res/time.tmp"
	bisect_time="$bisect_time${bisect_time:+ }$secs"
	if [ $brc -eq 0 ]; then
		ok "builds after patch $((i + 1))/${#commits[@]} ($subj): ${secs}s, ${usr}s user"
	else
		notok "builds after patch $((i + 1))/${#commits[@]} ($subj)"
		tail -20 "$res/build-$((i + 1)).log" | sed 's/^/# /' >> "$checks"
	fi
	log "patch $((i + 1))/${#commits[@]} built in ${secs}s (rc $brc)"
done
rm -f "$res/time.tmp"
# The fragment must have stuck in the last build.
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*) grep -qxF "$line" "$build/.config" || notok "config: $line did not stick" ;;
	esac
done < "$frag"
# A failed check is reported (vm-upstream.sh prints CHECKS); only a tree
# that does not build at the end stops here.
[ $brc -eq 0 ] || { cat "$checks" >&2; die "the series does not build (see $res/build-*.log)"; }

kmake -s INSTALL_MOD_PATH="$res/modroot" modules_install >&2
for f in vmlinux System.map arch/x86/boot/bzImage; do
	[ -s "$build/$f" ] || die "the upstream build has no $f"
done
cp "$build/arch/x86/boot/bzImage" "$build/System.map" "$res/"

# The selftest of the series: its test module and its program.
st="$res/selftest"
mkdir -p "$st/test_modules"
cp "$git_tree/tools/testing/selftests/kreloc/test_modules/"*.c "$st/test_modules/"
# (A Kbuild file: the directory's Makefile is for the kselftest build.)
echo "obj-m += test_kreloc.o" > "$st/test_modules/Kbuild"
make -s -C "$build" M="$st/test_modules" modules >&2 || die "cannot build test_kreloc.ko"
gcc -O2 -Wall -static -I "$git_tree/tools/testing/selftests" \
	-o "$st/kreloc_test" "$git_tree/tools/testing/selftests/kreloc/kreloc_test.c" ||
	die "cannot build kreloc_test"
cp "$git_tree/tools/testing/selftests/kreloc/test-kreloc.sh" "$st/"

kver=$(cat "$build/include/config/kernel.release")
cat > "$res/env" <<EOT
# rig/kernel-upstream.sh: $pkg $debver + upstream/ (series $series), allnoconfig + x86_64-upstream.fragment
KVER=$kver
SERIES=upstream
KARCH=x86
UNAME_M=x86_64
CROSS_COMPILE=
BASE="$pkg $debver"
KDIR=$build
KSRC=$git_tree
KIMAGE=$res/bzImage
VMLINUZ=$res/bzImage
VMLINUX=$build/vmlinux
SYSTEM_MAP=$res/System.map
MODDIR=$res/modroot
QEMU_BIN=qemu-system-x86_64
QEMU_ARGS="-M pc -cpu max -m 1024 -smp 1 -nographic -no-reboot"
CONSOLE=ttyS0
USERLAND=/bin
KERNEL_APPEND="krelocexit=reboot"
CHECKS=$checks
SELFTEST=$st
BISECT_TIME="$bisect_time"
BUILD_TIME=$(awk '{ s += $1 } END { print s }' <<<"${bisect_time// /$'\n'}")
RESULT=$res
EOT
# A run whose checks failed is not kept: the next one tries again.
grep -q '^not ok' "$checks" || echo "$series" > "$res/done"
cp "$res/env" "$CACHE/k/upstream.env.tmp.$$"
mv "$CACHE/k/upstream.env.tmp.$$" "$CACHE/k/upstream.env"
cat "$res/env"
