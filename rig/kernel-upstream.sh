#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-upstream.sh: the kernel and perf of the upstream target.  Takes the
# Debian kernel source named in upstream/README ("Base:" line) from
# trixie-backports, makes one git commit of it (reproducible: the commit's
# dates are those of the source's Makefile, so its hash is the same on
# every machine; the cover letter's base-commit: must be it), applies
# upstream/0*.patch with git am, and checks the series as a maintainer
# would: upstream/ is what git format-patch --base makes of it,
# checkpatch.pl --strict on each patch, who signed it, the kernel
# (allnoconfig + rig/configs/x86_64-upstream.fragment) and, for patches
# that touch tools/, perf built after each patch, W=1 on the kernel's C
# files the series touches against the same files before it, a
# CONFIG_MODULES=n build, arm64 cross builds with and without
# CONFIG_PERF_EVENTS (x86 cannot turn it off), and the new perf test
# here.  Then builds the kselftest (module and program) and prints the
# env file of the last build (the keys of rig/kernel-debug.sh, plus those
# below).
#
# Cached under $KRELOC_CACHE, keyed by (source, series, fragments, recipe):
#   src/linux-source-<debver>/     the pristine source
#   upstream/git-<debver>/         a git tree of it; the series is applied
#                                  on branch series-<hash>
#   upstream/base-<debver>/        a worktree of the base commit, for W=1
#   upstream/build-x86_64/         the O= tree, rebuilt incrementally (and
#                                  -nomod, -arm64, -arm64-noperf, -base-w1)
#   upstream/perf-build/           perf's O= tree
#   upstream/<debver>-<key>/       checks.ktap, logs, format-patch/,
#                                  modroot/, selftest/, perf, the env file
#   k/upstream.env                 a copy of the newest env file
#
# Env keys beyond kernel-debug.sh's: BASE (package and version), CHECKS
# (the KTAP lines of the series checks), SELFTEST (module_mem and
# test_modules/test_module_mem.ko), PERF (the perf of the series),
# DEBIAN_SERIES, DEBIAN_VERSION, DEBIAN_PERF (Debian's kernel and perf of
# the base's version, for the comparisons), BISECT_TIME (wall seconds of
# the build after each patch, the first one cold).
# Knobs: KRELOC_MAKE_JOBS (make -j, default 2), KRELOC_REBUILD=1.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
frag="$top/rig/configs/x86_64-upstream.fragment"
frag_arm64="$top/rig/configs/arm64-upstream.fragment"
jobs="${KRELOC_MAKE_JOBS:-2}"
recipe=2
read -r _ pkg debver _ < <(grep -m1 '^Base: ' "$top/upstream/README") ||
	die "upstream/README names no 'Base: PACKAGE VERSION'"
mapfile -t patches < <(find "$top/upstream" -maxdepth 1 -name '0*.patch' ! -name '0000-*' | sort)
[ ${#patches[@]} -gt 0 ] || die "no patches in upstream/"
cover="$top/upstream/0000-cover-letter.patch"
hashsum() { sha256sum | cut -c1-16; }
series=$(cat "${patches[@]}" | hashsum)
# (The cover letter's blurb is prose: only its shortlog, diffstat and
# base-commit are checked, so only they make the key.)
key=$( { echo "$series"; sed -n '/^[^ ].* ([0-9]*):$/,/^-- $/p' "$cover" | sha256sum
	 sha256sum < "$frag"; sha256sum < "$frag_arm64"
	 sha256sum < "$0"; echo "r$recipe"; } | hashsum)
res="$CACHE/upstream/$debver-$key"

# A warm cache answers without apt, git or make.
if [ -z "${KRELOC_REBUILD:-}" ] && [ -s "$res/done" ] && [ -s "$res/env" ]; then
	date +%s > "$res/warm"
	cat "$res/env"
	exit 0
fi

need_pkgs make gcc libc6-dev bc bison flex libelf-dev libssl-dev openssl xz-utils cpio \
	kmod git python3 python3-ply python3-git busybox-static qemu-system-x86 \
	zlib1g-dev libzstd-dev gcc-aarch64-linux-gnu
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

# A git tree of the pristine source, one commit whose hash any machine
# gets again: the tree is the package's, the author kreloc-rig, both
# dates the mtime of the source's top Makefile.  Debian's .gitignore
# ignores every top-level entry, hence add -f.  The base commit is noted
# inside .git, where the `git clean -fdx` below leaves it.
git_tree="$CACHE/upstream/git-$debver"
g() { git -C "$git_tree" -c user.name=kreloc-rig -c user.email=rig@localhost "$@"; }
if [ ! -f "$git_tree/.git/kreloc-base-2" ]; then
	log "making a git tree of $pkg $debver (once)"
	rm -rf "$git_tree"
	cp -a "$src" "$git_tree"
	rm -f "$git_tree/.kreloc-extracted"
	stamp="@$(stat -c %Y "$git_tree/Makefile") +0000"
	g init -q
	g add -f -A
	GIT_AUTHOR_DATE="$stamp" GIT_COMMITTER_DATE="$stamp" g commit -q -m "$pkg $debver"
	g rev-parse HEAD > "$git_tree/.git/kreloc-base-2"
fi
base=$(cat "$git_tree/.git/kreloc-base-2")

rm -rf "$res"
mkdir -p "$res"
checks="$res/checks.ktap"
: > "$checks"
n=0
ok() { n=$((n + 1)); echo "ok $n $*" >> "$checks"; }
notok() { n=$((n + 1)); echo "not ok $n $*" >> "$checks"; }
check() { if [ "$1" = 0 ]; then ok "${@:2}"; else notok "${@:2}"; fi; }
# rc COMMAND...: 0 or 1, without tripping set -e
rc() { if "$@"; then echo 0; else echo 1; fi; }

want=$(sed -n 's/^base-commit: //p' "$cover")
check "$(rc [ "$want" = "$base" ])" "base-commit: in the cover letter is the commit made of $pkg $debver ($base)"

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
head=$(g rev-parse HEAD)

# The files are what git format-patch makes of the applied series: each
# patch whole but its first line (git am made new commits, so new hashes)
# and the signature (the version of git), and the cover letter's
# shortlog, diffstat and base-commit (its blurb is written by hand).
fp="$res/format-patch"
# (core.abbrev: the index lines' hashes as long on every machine.)
g -c core.abbrev=12 format-patch -q --cover-letter --base="$base" --subject-prefix="RFC PATCH" \
	-o "$fp" "$base..HEAD"
fp_body() { sed '1d;/^-- $/,$d' "$1"; }
fp_tail() { sed -n '/^[^ ].* ([0-9]*):$/,/^-- $/p' "$1"; }
fp_bad=
for p in "${patches[@]}" "$cover"; do
	b=$(basename "$p")
	case "$b" in
	0000-*) f=fp_tail ;;
	*) f=fp_body ;;
	esac
	if [ ! -f "$fp/$b" ] || [ -z "$($f "$p")" ] || ! cmp -s <($f "$p") <($f "$fp/$b"); then
		fp_bad="$fp_bad $b"
	fi
done
check "$(rc [ -z "$fp_bad" ])" "upstream/ is git format-patch --cover-letter --base's output of the applied series${fp_bad:+:$fp_bad (see $fp)}"

# checkpatch.pl --strict on each patch, with the tree's own script.  No
# sign-off is checked there (--no-signoff): the next check says why there
# is none.  A new file's "does MAINTAINERS need updating?" is accepted
# when get_maintainer.pl already names a maintainer for every new file.
for p in "${patches[@]}"; do
	out=$(cd "$git_tree" && PATH=/usr/bin:/bin:$PATH perl scripts/checkpatch.pl --strict --no-signoff \
		--ignore FILE_PATH_CHANGES "$p" 2>&1 || true)
	total=$(grep -m1 '^total:' <<<"$out" || echo "total: no result")
	orphans=
	for f in $(awk '/^diff --git/ { f = $3 } /^new file mode/ { sub(/^a\//, "", f); print f }' "$p"); do
		(cd "$git_tree" && perl scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats \
			--no-l --no-r --no-s -f "$f" 2>/dev/null | grep -q .) || orphans="$orphans $f"
	done
	if [[ "$total" == "total: 0 errors, 0 warnings, 0 checks, "* ]] && [ -z "$orphans" ]; then
		ok "checkpatch.pl --strict $(basename "$p")"
	else
		notok "checkpatch.pl --strict $(basename "$p"): $total${orphans:+; no maintainer for$orphans}"
		grep -E '^(ERROR|WARNING|CHECK)' <<<"$out" | sed 's/^/# /' >> "$checks" || true
	fi
done

# Who may sign off (Documentation/process/coding-assistants.rst of the
# base): the series was written by an AI assistant, which must not add
# Signed-off-by; it says so with Assisted-by, and the human who submits
# it adds theirs.  So: no Signed-off-by, one Assisted-by, in each patch.
for p in "${patches[@]}"; do
	sob=$(sed '/^---$/q' "$p" | grep -c '^Signed-off-by:' || true)
	asb=$(sed '/^---$/q' "$p" | grep -c '^Assisted-by: ' || true)
	check "$(rc [ "$sob" = 0 -a "$asb" = 1 ])" "$(basename "$p"): no Signed-off-by ($sob), one Assisted-by ($asb): a person signs off before sending"
done

# The tree after each patch: the kernel configured afresh and built
# (incrementally from the patch before; the first build in an empty O=
# tree is cold), and perf after each patch that touches tools/.
build="$CACHE/upstream/build-x86_64"
pbuild="$CACHE/upstream/perf-build"
# (For the record of times: were the kernel and perf built from nothing?)
if [ -e "$build/.config" ] || [ -e "$pbuild/perf" ]; then echo 0; else echo 1; fi > "$res/fresh"
mkdir -p "$build" "$pbuild"
kbuild() { make -C "$git_tree" O="$build" ARCH=x86_64 "$@"; }
perf_make() {
	make -C "$git_tree/tools/perf" O="$pbuild" -j"$jobs" WERROR=1 NO_SHELLCHECK=1 \
		NO_LIBPYTHON=1 NO_LIBTRACEEVENT=1 NO_JEVENTS=1 BUILD_BPF_SKEL=0 NO_SLANG=1 \
		NO_GTK2=1 NO_LIBPERL=1 NO_LIBUNWIND=1 NO_LIBDW=1 NO_LIBBABELTRACE=1 NO_LIBNUMA=1 \
		NO_LIBCAP=1 NO_CAPSTONE=1 NO_LIBPFM4=1 NO_SDT=1 NO_LIBLLVM=1 NO_AUXTRACE=1 \
		AR=gcc-ar "$@"
}
TIMEFORMAT='%0R %0U %0S'
bisect_time=
brc=0
for i in "${!commits[@]}"; do
	c=${commits[$i]}
	subj=$(g log -1 --format=%s "$c")
	g checkout -q "$c"
	brc=0
	{ time { kbuild -s KCONFIG_ALLCONFIG="$frag" allnoconfig &&
		kbuild -j"$jobs" bzImage modules; } > "$res/build-$((i + 1)).log" 2>&1 || brc=$?; } \
		2> "$res/time.tmp"
	read -r secs usr _ < "$res/time.tmp"
	bisect_time="$bisect_time${bisect_time:+ }$secs"
	if [ $brc -eq 0 ]; then
		ok "the kernel builds after patch $((i + 1))/${#commits[@]} ($subj): ${secs}s, ${usr}s user"
	else
		notok "the kernel builds after patch $((i + 1))/${#commits[@]} ($subj)"
		tail -20 "$res/build-$((i + 1)).log" | sed 's/^/# /' >> "$checks"
	fi
	log "patch $((i + 1))/${#commits[@]}: kernel built in ${secs}s (rc $brc)"
	if g diff --quiet "$c~1" "$c" -- tools/perf tools/lib tools/include; then
		continue
	fi
	prc=0
	{ time perf_make > "$res/perf-$((i + 1)).log" 2>&1 || prc=$?; } 2> "$res/time.tmp"
	read -r secs usr _ < "$res/time.tmp"
	check $prc "perf builds after patch $((i + 1))/${#commits[@]} (WERROR=1): ${secs}s, ${usr}s user"
	[ $prc -eq 0 ] || tail -20 "$res/perf-$((i + 1)).log" | sed 's/^/# /' >> "$checks"
	log "patch $((i + 1))/${#commits[@]}: perf built in ${secs}s (rc $prc)"
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
[ -x "$pbuild/perf" ] || die "no perf was built (see $res/perf-*.log)"

# W=1 on the kernel's C files the series touches, against the same files
# before it (a tree of the base, configured alike): no new warning.
mapfile -t touched < <(g diff --name-only "$base" HEAD -- '*.c' | grep -v '^tools/' || true)
objs=()
for f in "${touched[@]}"; do objs+=("${f%.c}.o"); done
if [ ${#objs[@]} -gt 0 ]; then
	wbase="$CACHE/upstream/base-$debver"
	[ -d "$wbase" ] || g worktree add -q --detach "$wbase" "$base"
	w1() {	# SRC O= LOG
		make -C "$1" O="$2" ARCH=x86_64 -s KCONFIG_ALLCONFIG="$frag" allnoconfig > "$3" 2>&1 &&
		make -C "$1" O="$2" ARCH=x86_64 -j"$jobs" W=1 "${objs[@]}" >> "$3" 2>&1
	}
	wnorm() { grep -E 'warning:' "$1" | sed -E 's/:[0-9]+:[0-9]+:/:/' | sort -u; }
	w1 "$wbase" "$CACHE/upstream/build-x86_64-base-w1" "$res/w1-base.log" || true
	wrc=0
	w1 "$git_tree" "$CACHE/upstream/build-x86_64-w1" "$res/w1.log" || wrc=$?
	new=$(comm -13 <(wnorm "$res/w1-base.log") <(wnorm "$res/w1.log") || true)
	check "$(rc [ $wrc -eq 0 -a -z "$new" ])" "W=1 on ${objs[*]}: $(wnorm "$res/w1.log" | wc -l) warnings, $(wnorm "$res/w1-base.log" | wc -l) before the series, none new"
	[ -z "$new" ] || sed 's/^/# /' <<<"$new" >> "$checks"
fi

# The configurations the series must not break: no modules (x86), and
# arm64 with and without perf events (x86 selects PERF_EVENTS).
variant() {	# NAME ARCH CROSS FRAGMENT OVERRIDE TARGETS...
	local name="$1" arch="$2" cross="$3" fr="$4" over="$5" o="$CACHE/upstream/build-$1" f opt
	local vrc=0 secs
	shift 5
	opt=$(grep -o 'CONFIG_[A-Z0-9_]*' <<<"$over")
	f="$res/$name.fragment"
	grep -v -e "^$opt=" -e "^# $opt is not set" "$fr" > "$f" || true
	echo "$over" >> "$f"
	mkdir -p "$o"
	{ time { make -C "$git_tree" O="$o" ARCH="$arch" CROSS_COMPILE="$cross" -s \
			KCONFIG_ALLCONFIG="$f" allnoconfig &&
		 make -C "$git_tree" O="$o" ARCH="$arch" CROSS_COMPILE="$cross" -j"$jobs" "$@"; } \
		> "$res/$name.log" 2>&1 || vrc=$?; } 2> "$res/time.tmp"
	read -r secs _ < "$res/time.tmp"
	rm -f "$res/time.tmp"
	grep -qxF "$over" "$o/.config" || vrc=1
	check $vrc "builds with $arch allnoconfig + ${fr##*/}, $over ($*): ${secs}s"
	[ $vrc -eq 0 ] || tail -20 "$res/$name.log" | sed 's/^/# /' >> "$checks"
	log "variant $name built in ${secs}s (rc $vrc)"
}
variant x86_64-nomod x86_64 "" "$frag" "# CONFIG_MODULES is not set" vmlinux
variant arm64 arm64 aarch64-linux-gnu- "$frag_arm64" "CONFIG_PERF_EVENTS=y" vmlinux modules
variant arm64-noperf arm64 aarch64-linux-gnu- "$frag_arm64" "# CONFIG_PERF_EVENTS is not set" vmlinux

# The new perf test, on this machine (it needs no kernel support).
out=$(HOME="$res" "$pbuild/perf" test "Module maps from module memory records" 2>&1 || true)
check "$(rc grep -q 'Module maps from module memory records *: Ok' <<<"$out")" \
	"perf test \"Module maps from module memory records\" on this machine:$(grep -o ': [A-Za-z!]*$' <<<"$out" | tail -1 | cut -c2-)"

kbuild -s INSTALL_MOD_PATH="$res/modroot" modules_install >&2
kbuild -s headers >&2
for f in vmlinux System.map arch/x86/boot/bzImage; do
	[ -s "$build/$f" ] || die "the upstream build has no $f"
done
cp "$build/arch/x86/boot/bzImage" "$build/System.map" "$res/"
cp "$pbuild/perf" "$res/perf"

# The series' kselftest: its test module and its program, as its Makefile
# would build them.
st="$res/selftest"
sdir="$git_tree/tools/testing/selftests/perf_events"
mkdir -p "$st/test_modules"
cp "$sdir/test_modules/"*.c "$st/test_modules/"
echo "obj-m += test_module_mem.o" > "$st/test_modules/Kbuild"
make -s -C "$build" M="$st/test_modules" modules >&2 || die "cannot build test_module_mem.ko"
gcc -O2 -Wall -static -I "$build/usr/include" -I "$git_tree/tools/testing/selftests" \
	-o "$st/module_mem" "$sdir/module_mem.c" || die "cannot build module_mem"

kver=$(cat "$build/include/config/kernel.release")
upver=${debver%%-*}
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
QEMU_ARGS="-M pc -cpu max -m 1024 -smp 2 -nographic -no-reboot"
CONSOLE=ttyS0
USERLAND=/bin
KERNEL_APPEND="krelocexit=reboot"
CHECKS=$checks
SELFTEST=$st
PERF=$res/perf
DEBIAN_SERIES=${upver%%.*}
DEBIAN_VERSION=$upver
DEBIAN_PERF=$debver
BISECT_TIME="$bisect_time"
BUILD_TIME=$(awk '{ s += $1 } END { print s }' <<<"${bisect_time// /$'\n'}")
RESULT=$res
EOT
# A run whose checks failed is not kept: the next one tries again.
grep -q '^not ok' "$checks" || echo "$series" > "$res/done"
cp "$res/env" "$CACHE/k/upstream.env.tmp.$$"
mv "$CACHE/k/upstream.env.tmp.$$" "$CACHE/k/upstream.env"
cat "$res/env"
