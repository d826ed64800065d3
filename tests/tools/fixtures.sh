# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Fixtures for the kreloc CLI host tests.  Source, do not run.
#
# Everything a test compares with comes from a real kernel: DATA was
# recorded by tests/tools/capture-testdata.sh in a QEMU boot of Debian's
# 6.1 kernel (see DATA/CAPTURE): kreloc's debugfs files as read, that
# boot's /proc/kallsyms, the kprobe blacklist, /sys/module/*/notes and the
# .ko files the modules were loaded from.  The rig's cache adds, when it
# has them, the link-time maps of that kernel and of another (6.12).

here_fx=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DATA="$here_fx/data/amd64-6.1"
CACHE="${KRELOC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kreloc}"
KVER=$(sed -n 's/^kernel: Debian \([^ ]*\) .*/\1/p' "$DATA/CAPTURE")
# The link-time map of the captured kernel (rig/groundtruth.sh), if cached.
MAP="$CACHE/maps/$KVER.System.map"
# Another build's map with the same _text (Debian 6.12), if cached.
OTHER_MAP=$(ls "$CACHE"/maps/6.12.*-amd64.System.map 2>/dev/null | sort -V | tail -1)
# Another build's vfat.ko (6.12), if cached.
OTHER_VFAT=$(find "$CACHE"/k/amd64-6.12.*/root/lib/modules -name 'vfat.ko*' 2>/dev/null | head -1)

# KTAP results, each on fd 3 (the caller opens it: stdout, or a file that
# it prints after the plan); failed=1 after a "not ok".  Commands run with
# run() use $K, the kreloc build under test.
n=0 failed=0
# ktap_begin: a KTAP document on stdout, results on fd 3 as they come; the
# sanitizers abort on the first report, so a report is a nonzero exit too.
ktap_begin() {
	export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1" UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
	exec 3>&1
	echo "TAP version 13"
}
ok() { n=$((n + 1)); echo "ok $n $*" >&3; }
nok() { n=$((n + 1)); failed=1; echo "not ok $n $*" >&3; }
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2" >&3; }
diag() { sed 's/^/# /' >&3; }
# check DESC CMD...: ok if CMD succeeds
check() { local d="$1"; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
# no sanitizer report in a stderr file
clean() { ! grep -qE 'AddressSanitizer|runtime error|LeakSanitizer|UndefinedBehavior' "$1"; }
# run NAME ARGS...: run kreloc, stdout to $W/NAME.out, stderr to $W/NAME.err, rc in $rc
run() { local name="$1"; shift; "$K" "$@" > "$W/$name.out" 2> "$W/$name.err"; rc=$?; }
# expect_rc NAME RC REGEX DESC: exit code and a stderr message matching REGEX, no sanitizer report
expect_rc() {
	local name="$1" want="$2" re="$3" desc="$4"
	if [ "$rc" -eq "$want" ] && grep -qE -- "$re" "$W/$name.err" && clean "$W/$name.err"; then
		ok "$desc"
	else
		nok "$desc"
		{ echo "exit $rc (want $want), stderr:"; head -5 "$W/$name.err"; } | diag
	fi
}

# kval FILE KEY: KEY=VALUE from an info file
kval() { sed -n "s/^$2=//p" "$1"; }

# mkroot DIR [DATADIR]: a fake / of the captured boot (default DATA), with kreloc loaded; tracefs
# files are plain files, so probes are written, not registered.
mkroot() {
	local r="$1" k="$1/sys/kernel/debug/kreloc" n d="${2:-$DATA}"
	mkdir -p "$r/proc" "$r/sys/kernel/tracing" "$r/sys/kernel/debug/kprobes" \
		"$r/sys/kernel/security"
	cp -r "$d/debugfs" "$k"
	xz -dc "$d/kallsyms.xz" > "$r/proc/kallsyms"
	cp "$d/blacklist" "$r/sys/kernel/debug/kprobes/blacklist"
	for n in "$d"/notes/*; do
		mkdir -p "$r/sys/module/${n##*/}/notes"
		xxd -r -p "$n" > "$r/sys/module/${n##*/}/notes/.note.gnu.build-id"
	done
	echo "[none] integrity confidentiality" > "$r/sys/kernel/security/lockdown"
	: > "$r/sys/kernel/tracing/kprobe_events"
	: > "$r/sys/kernel/tracing/error_log"
}

# kallsyms_full OUT: the captured /proc/kallsyms (its text symbols and
# section markers) with the anchors kreloc confirmed in that boot added:
# debugfs/anchors' RUNTIME is what that kernel's kallsyms_lookup_name()
# gave, so each is a line of that boot's /proc/kallsyms, with the letter nm
# gives a symbol of its section.  The capture kept text only; without the
# anchors resolve rightly refuses it as a map of that kernel (a map must
# hold the anchors of the sections it has symbols in).
kallsyms_full() {
	xz -dc "$DATA/kallsyms.xz" > "$1"
	awk 'NR == FNR { have[$3] = 1; next }
	     /^#/ || ($1 in have) { next }
	     { t = $5 ~ /text/ ? "T" : $5 == "rodata" ? "R" : $5 == "bss" ? "B" : "D"
	       printf "%s %s %s\n", substr($3, 3), t, $1 }' "$1" "$DATA/debugfs/anchors" >> "$1"
}

# modrec NAME STATE: the modules line of the last record NAME in STATE
modrec() { awk -v n="$1" -v s="$2" '$1 == n && $2 == s { l = $0 } END { print l }' "$DATA/debugfs/modules"; }
