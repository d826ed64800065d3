#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_cli.sh KRELOC ADDRCHECK WORKDIR: host tests of the kreloc CLI, one
# KTAP document on stdout, each result printed as it comes (the plan
# last).  KRELOC should be the ASan/UBSan build.  The data come from a
# real boot (fixtures.sh); the tests that need the rig's cached maps skip
# (KTAP SKIP) without them.
set -uo pipefail
K="$1" AC="$2" W="$3"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/fixtures.sh"
ktap_begin
# json FILE PYTHON-EXPR: the file is one JSON object (pure ASCII) for which EXPR holds (d)
json() {
	python3 -c 'import json,sys; d=json.loads(open(sys.argv[1],"rb").read().decode("ascii")); assert '"$2" "$1" 2> "$W/json.err"
}

# ---------------------------------------------------------------- usage and dispatch
run u1 resolve --system-map /dev/null 0x1;   expect_rc u1 2 'snapshot FILE is required' "usage: resolve without --snapshot exits 2"
run u2 resolve --snapshot x --system-map a --kallsyms b; expect_rc u2 2 'exactly one of' "usage: two maps exit 2"
run u3 frobnicate;                           expect_rc u3 2 "unknown command 'frobnicate'" "usage: unknown command exits 2"
run u4 probe --dry-run 'bad spec!';          expect_rc u4 2 'bad character in symbol name' "usage: malformed probe spec exits 2 (the module's grammar)"
run u5 probe --remove nogroup;               expect_rc u5 2 'GROUP/EVENT' "usage: --remove without G/E exits 2"
run u6 show --bogus;                         expect_rc u6 2 "^kreloc show: unknown option '--bogus'$" "usage: unknown option exits 2, naming it"
check "usage: an unknown option is reported once (not by getopt too): the reason and the --help hint" test "$(wc -l < "$W/u6.err")" = 2
run u6b resolve --snapshot;                  expect_rc u6b 2 "^kreloc resolve: option '--snapshot' needs an argument$" "usage: a missing option argument is named, exit 2"
check "... once" test "$(wc -l < "$W/u6b.err")" = 2
run u7 --help
check "--help lists the commands" sh -c '[ '"$rc"' = 0 ] && grep -q resolve "$1" && grep -q probe "$1"' sh "$W/u7.out"
run u8 res --help
check "a unique prefix names the command (res = resolve)" grep -q 'Usage: kreloc resolve' "$W/u8.out"
run u9 s --help;                             expect_rc u9 2 "'s' is ambiguous: show snapshot" "an ambiguous prefix exits 2 and lists the candidates"
run u10 --version
check "--version prints the version and the features compiled in" \
	sh -c 'grep -qx "kreloc v[0-9.]*" "$1" && grep -qE "^features: xz, zstd, gzip(, debuginfod)?$" "$1"' sh "$W/u10.out"
run u11 version --json
check "version --json: schema, version, features" json "$W/u11.out" 'd["schema"]==1 and d["features"]["xz"] and d["version"]'
run u12 --json probe --dry-run 0xffffffff81000000
check "--json: an error is a JSON object on stdout, exit 2" \
	sh -c '[ '"$rc"' = 2 ] && python3 -c "import json,sys; assert \"vmlinux:0x\" in json.load(open(sys.argv[1]))[\"error\"]" "$1"' sh "$W/u12.out"

# Every command of the table has a man page and bash completion.
cmds=$("$K" --help | awk '/^Commands/ {on = 1; next} on && !NF {exit} on {print $1}' | grep -vx 'help\|version')
missing=""
for c in $cmds; do
	[ -s "$top/tools/cli/Documentation/kreloc-$c.8" ] || missing="$missing $c"
done
check "every command ($(echo $cmds)) has its man page Documentation/kreloc-CMD.8${missing:+ (missing:$missing)}" \
	test -n "$cmds" -a -z "$missing"
# shellcheck disable=SC2016
check "bash completion completes every command, and resolve's options" bash -c '
	_init_completion() { cur="${COMP_WORDS[COMP_CWORD]}"; prev="${COMP_WORDS[COMP_CWORD-1]}"; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }
	_filedir() { :; }
	. "$1"; shift
	for c in "$@"; do
		COMP_WORDS=(kreloc "${c:0:3}"); COMP_CWORD=1; _kreloc
		printf "%s\n" "${COMPREPLY[@]}" | grep -qx "$c" || exit 1
	done
	COMP_WORDS=(kreloc resolve --snapshot-); COMP_CWORD=2; _kreloc
	[ "${COMPREPLY[*]}" = --snapshot-dir ]' bash "$top/tools/cli/bash-completion/kreloc" $cmds

# The options --help, the man page, the completion and Documentation/cli.md list are the
# same, and kreloc takes each (optcheck.py); and the commands.
for c in "" $("$K" --help | awk '/^Commands/ {on = 1; next} on && !NF {exit} on {print $1}'); do
	if res=$(python3 "$here/optcheck.py" "$top" "$K" $c 2>&1); then
		ok "docs agree: ${c:-the commands and global options}: $res"
	else
		nok "docs agree: ${c:-the commands and global options}"; echo "$res" | diag
	fi
done
OC="$W/optcheck"; mkdir -p "$OC/tools/cli" "$OC/Documentation"; cp "$top/Documentation/cli.md" "$OC/Documentation/"; cp -r "$top/tools/cli/Documentation" "$top/tools/cli/bash-completion" "$OC/tools/cli/"
sed -i 's/ --json --text --help -'"'"'/ --json --help -'"'"'/' "$OC/tools/cli/bash-completion/kreloc"
check "optcheck fails when the completion lacks one option (resolve --text)" \
	sh -c '! python3 "$1" "$2" "$3" resolve > /dev/null' sh "$here/optcheck.py" "$OC" "$K"
# --json for every command: one JSON object on stdout, results or error.
mkdir -p "$W/jroot"; mkroot "$W/jroot"
jsnap="$W/jroot.snap"; "$K" --root "$W/jroot" snapshot -o "$jsnap" 2>/dev/null; kallsyms_full "$W/jroot.ks"
jbad=""
while IFS='|' read -r name args; do
	# shellcheck disable=SC2086
	"$K" -j --root "$W/jroot" $args > "$W/j.out" 2> "$W/j.err"
	python3 -c 'import json,sys; d=json.loads(open(sys.argv[1]).read()); assert d["schema"]==1 and '"$name" "$W/j.out" 2>/dev/null ||
		jbad="$jbad [$args]"
done <<EOT
"sections" in d|show
"output" in d and d["anchors"] > 0|snapshot -o $W/j.snap
"error" in d|snapshot
"results" in d|resolve --snapshot $jsnap --kallsyms $W/jroot.ks 0x1
"kprobe_events" in d|probe --dry-run schedule
"removed" in d|probe --remove kreloc/schedule
"error" in d|gdb --snapshot $jsnap --vmlinux $W/nonexistent
"error" in d|kallsyms --snapshot $jsnap --system-map $W/nonexistent -o $W/j.ks
"features" in d|version
"commands" in d|help
"error" in d|bogus
"error" in d|
"error" in d|show --bogus
"error" in d|resolve --text --snapshot $jsnap --kallsyms $W/jroot/proc/kallsyms
EOT
check "--json: every command prints one JSON object (its result or its error)${jbad:+; not:$jbad}" test -z "$jbad"
run u13 version --help
check "version --help explains it (exit $rc)" sh -c '[ '"$rc"' = 0 ] && grep -q "Usage: kreloc version \[--json\]" "$1"' sh "$W/u13.out"
mkdir -p "$W/empty/sys/kernel/debug"
run m1 --root "$W/empty" show
expect_rc m1 1 "kreloc not loaded: $W/empty/sys/kernel/debug/kreloc missing" "show: kreloc not loaded names the directory, exit 1"

# ---------------------------------------------------------------- the captured boot
R="$W/root"
mkroot "$R"
SNAP="$W/snap"
info="$DATA/debugfs/info"
koff=$(kval "$info" KERNELOFFSET)
nrec=$(grep -vc '^#' "$DATA/debugfs/modules")
dummy=$(modrec dummy gone)
dgen=$(awk '{print $5}' <<<"$dummy")
echo "# $(head -2 "$DATA/CAPTURE" | tail -1); KERNELOFFSET $koff; $nrec module records" | diag

run s1 --root "$R" show
text=$(awk '$1 == "text"' "$DATA/debugfs/sections")
check "show: the table has the text section as debugfs sections says ($text)" \
	grep -qE "^text +$(awk '{print $2 " +" $3 " +" $4 " +" $5 " +" $6}' <<<"$text")$" "$W/s1.out"
run s2 --root "$R" show --json
check "show --json: one object, schema 1, $nrec module records, text offset $koff" \
	json "$W/s2.out" 'd["schema"]==1 and len(d["modules"])=='"$nrec"' and d["sections"][0]["offset"]=="'"$koff"'"'
(umask 022; "$K" --root "$R" snapshot -o "$SNAP" > "$W/s3.out" 2> "$W/s3.err"); rc=$?
if [ "$rc" -eq 0 ] && [ "$(head -1 "$SNAP")" = "KRELOC-SNAPSHOT 3" ] &&
   [ "$(grep -c '^module ' "$SNAP")" -eq "$nrec" ] && [ "$(tail -1 "$SNAP")" = "end $(wc -l < "$SNAP")" ]; then
	ok "snapshot: version 3, $nrec module records, the end line counts the lines ($(wc -c < "$SNAP") bytes)"
else
	nok "snapshot: version 3, $nrec module records, end line"; diag < "$W/s3.err"
fi
check "snapshot -o under umask 022: mode 0600, it holds the KASLR offset ($(stat -c %a "$SNAP"))" \
	test "$(stat -c %a "$SNAP")" = 600
echo old > "$W/snap.old"; chmod 644 "$W/snap.old"
(umask 022; "$K" --root "$R" snapshot -o "$W/snap.old" 2>/dev/null)
check "snapshot -o over an existing 0644 file: replaced, 0600, no temporary left behind" \
	sh -c '[ "$(stat -c %a "$1")" = 600 ] && head -1 "$1" | grep -q KRELOC && [ -z "$(ls "$2" | grep "\.tmp$")" ]' sh "$W/snap.old" "$W"
# -o never replaces what is not a regular file it may replace: a device or
# FIFO is written in place, a symbolic link (or other special file) refused.
if [ "$(id -u)" = 0 ]; then
	mknod "$W/full" c 1 7; mknod "$W/null" c 1 3; mkfifo "$W/fifo"
	ln -s /proc/self/fd/1 "$W/link.fd1"; echo keep > "$W/target"; ln -s target "$W/link.file"
	run o1 --root "$R" snapshot -o "$W/full"
	check "snapshot -o a character device (a copy of /dev/full): written in place, the write error named, exit 1; still the device (exit $rc)" \
		sh -c '[ '"$rc"' = 1 ] && grep -q "No space left on device" "$1" && [ -c "$2" ] && [ "$(stat -c %t,%T "$2")" = 1,7 ]' sh "$W/o1.err" "$W/full"
	run o2 --root "$R" snapshot -o "$W/null"
	check "snapshot -o a character device (a copy of /dev/null): exit 0, still the device (exit $rc)" \
		sh -c '[ '"$rc"' = 0 ] && [ -c "$1" ]' sh "$W/null"
	timeout 20 cat "$W/fifo" > "$W/fifo.out" & reader=$!
	run o3 --root "$R" snapshot -o "$W/fifo"
	wait $reader
	check "snapshot -o a FIFO: the snapshot goes through it, the FIFO stays (exit $rc)" \
		sh -c '[ '"$rc"' = 0 ] && [ -p "$1" ] && cmp -s "$2" "$3"' sh "$W/fifo" "$W/fifo.out" "$SNAP"
	run o4 --root "$R" snapshot -o "$W/link.fd1"
	expect_rc o4 1 "link.fd1 is a symbolic link" "snapshot -o a symbolic link to /proc/self/fd/1: refused, exit 1"
	check "... and the link is still there, unchanged" test "$(readlink "$W/link.fd1")" = /proc/self/fd/1
	run o5 --root "$R" snapshot -o "$W/link.file"
	check "snapshot -o a symbolic link to a file: refused; link and file unchanged (exit $rc)" \
		sh -c '[ '"$rc"' = 1 ] && [ "$(readlink "$1")" = target ] && [ "$(cat "$2")" = keep ]' sh "$W/link.file" "$W/target"
	run o6 --root "$R" snapshot -o "$W"
	expect_rc o6 1 "is a directory" "snapshot -o a directory: refused, exit 1"
else
	for i in 1 2 3 4 5 6 7; do skip "snapshot -o special files" "needs root (mknod)"; done
fi
# (BUILD_ID is the 8th field of a module line; the times follow it in version 3)
nbid=$(awk '$1 == "module" && length($8) == 40 && $8 ~ /^[0-9a-f]+$/' "$SNAP" | wc -l)
check "snapshot: the module records carry their .ko build ids ($nbid of $nrec)" test "$nbid" -eq "$nrec"
run s5 show --snapshot "$SNAP" --json
check "snapshot round trip: show --snapshot equals show of the live tree" cmp -s "$W/s2.out" "$W/s5.out"
run s6 --root "$R" show --snapshot "$SNAP"
check "snapshot keeps the real unload: dummy gone ${dgen}..$(awk '{print $6}' <<<"$dummy")" \
	grep -qE "^dummy +gone .* $dgen\.\.$(awk '{print $6}' <<<"$dummy")$" "$W/s6.out"
# An older kreloc module: no BUILD_ID column; the CLI reads /sys/module/NAME/notes.
O="$W/oldroot"; cp -r "$R" "$O"
awk '/^#/ {print; next} {$7 = ""; sub(/ +$/, ""); print}' "$DATA/debugfs/modules" > "$O/sys/kernel/debug/kreloc/modules"
run s7 --root "$O" snapshot
live_ids=$(awk '$1 == "module" && $3 == "live" {print $2, $8}' "$W/s7.out" | sort)
want_ids=$(awk '$2 == "live" {print $1, $7}' "$DATA/debugfs/modules" | sort)
check "without a BUILD_ID column the live records take theirs from /sys/module/NAME/notes" \
	test -n "$want_ids" -a "$live_ids" = "$want_ids"
# What a newer kreloc may add: columns, states, kinds, keys.
F="$W/newroot"; cp -r "$R" "$F"
fk="$F/sys/kernel/debug/kreloc"
echo "NEW_KEY=some value" >> "$fk/info"
sed -i 's/^\(text .*\)$/\1 extra_column/' "$fk/sections"
sed -i '/^#/!s/$/ 0xabc newcolumn/' "$fk/modules"
vf=$(ls "$fk"/module/vfat@*)
sed -i 's/^\(region text .*\) live$/\1 frozen newcol/' "$vf"
echo "newkind x 0x1 0x2 live" >> "$vf"
run s8 --root "$F" show
run s9 --root "$F" snapshot -o "$W/snap.new"
run s10 show --snapshot "$W/snap.new"
check "a newer module's extra columns, new states, kinds and keys: show and snapshot read them" \
	sh -c 'grep -qE "^ +text .* frozen$" "$1" && grep -qE "^ +text .* frozen$" "$2"' sh "$W/s8.out" "$W/s10.out"
sed 's/^STATUS ok$/STATUS degraded/; s/^core text \(.*\) ok$/core text \1 newstate/' "$SNAP" > "$W/snap.state"
run s11 show --snapshot "$W/snap.state"
check "the snapshot reader accepts a STATUS the live reader accepts (degraded)" \
	sh -c '[ '"$rc"' = 0 ] && grep -q "^status      degraded" "$1"' sh "$W/s11.out"
# One moment: GENERATION moves between two reads of info -> everything is
# read again.  (openshim makes the Nth read of info see info.N; the real
# kernel's case, modules loading while snapshots are taken, is in the VM.)
G="$W/genroot"; cp -r "$R" "$G"
g0=$(kval "$info" GENERATION)
gi="$G/sys/kernel/debug/kreloc/info"
for i in 1 2 3 4 5 6; do
	sed "s/^GENERATION=.*/GENERATION=$((g0 + (i > 1 ? 1 : 0)))/" "$info" > "$gi.$i"
done
${CC:-cc} -shared -fPIC -o "$W/openshim.so" "$here/openshim.c" -ldl
# The plain build (tools/cli/kreloc beside the sanitized one): ASan wants to come first.
KRELOC_SHIM_PATH="$gi" LD_PRELOAD="$W/openshim.so" "$(dirname "$K")/kreloc" --root "$G" snapshot \
	> "$W/s12.out" 2> "$W/s12.err"; rc=$?
check "snapshot: GENERATION moved from $g0 between two reads of info, so it read everything again (GENERATION $(awk '$1 == "GENERATION" {print $2}' "$W/s12.out"), exit $rc)" \
	test "$(awk '$1 == "GENERATION" {print $2}' "$W/s12.out")" = "$((g0 + 1))"
# Version 1: the snapshot the format-1 kreloc wrote in the captured boot.
if [ -s "$DATA/snapshot-v1" ]; then
	run s13 show --snapshot "$DATA/snapshot-v1" --json
	check "a version 1 snapshot (written by the old kreloc in that boot) reads: $nrec records, offset $koff" \
		json "$W/s13.out" 'd["format"]==1 and len(d["modules"])=='"$nrec"' and d["kerneloffset"]=="'"$koff"'"'
else
	skip "a version 1 snapshot reads" "no snapshot-v1 in $DATA"
fi

# ---------------------------------------------------------------- names up to KSYM_NAME_LEN
# KSYM_NAME_LEN is 512 since v6.1 (Rust): every name the kernel prints,
# up to 511 characters, passes through every reader.  (A real one, from a
# 7.3 kernel whose kreloc was built from its map, is tested below.)
long=$(python3 -c 'print("_RNvXs_" + "x" * 499 + "Rust5")')	# 511 characters
L5="$W/longroot"; cp -r "$R" "$L5"
echo "$long 0xffffffff82000010 0x$(printf %x $(( $(kval "$info" KERNELOFFSET) + 0xffffffff82000010 ))) $(kval "$info" KERNELOFFSET) rodata" \
	>> "$L5/sys/kernel/debug/kreloc/anchors"
run n1 --root "$L5" snapshot -o "$W/snap.long"
check "a 511-character anchor (debugfs): snapshot reads it and writes it (exit $rc)" \
	sh -c '[ '"$rc"' = 0 ] && grep -q "^anchor $1 0xffffffff82000010 rodata$" "$2"' sh "$long" "$W/snap.long"
run n2 show --snapshot "$W/snap.long" --json
check "... the snapshot reader and show --json give it back whole" \
	json "$W/n2.out" 'any(a["name"] == "'"$long"'" for a in d["anchors"])'
run n3 --root "$L5" show --json
check "... show --json of the live files too (exit $rc)" json "$W/n3.out" 'len(d["anchors"][-1]["name"]) == 511'
sed -i "s/^$long /${long}X /" "$L5/sys/kernel/debug/kreloc/anchors"
run n4 --root "$L5" show
expect_rc n4 1 "anchors:[0-9]+: anchor: bad name .*KSYM_NAME_LEN" "a 512-character name, which no kernel prints, is refused with the reason"
# The real thing: Debian 7.3 (Rust), kreloc built from its link-time map
# (capture-testdata.sh rust): its anchors and symbols include Rust names
# of more than 128 characters.
D7="$here/data/amd64-7-map"
if [ -s "$D7/debugfs/anchors" ]; then
	K7VER=$(sed -n 's/^kernel: Debian \([^ ]*\) .*/\1/p' "$D7/CAPTURE")
	R7="$W/root7"; mkroot "$R7" "$D7"
	a7=$(awk '!/^#/ && length($1) > length(l) {l = $1} END {print l}' "$D7/debugfs/anchors")
	run r1 --root "$R7" snapshot -o "$W/snap7"
	check "$K7VER with kreloc from its map: snapshot takes its ${#a7}-character anchor (exit $rc)" \
		sh -c '[ '"$rc"' = 0 ] && grep -q "^anchor $1 " "$2"' sh "$a7" "$W/snap7"
	run r2 --root "$R7" show --json
	check "... show --json gives it whole (exit $rc)" json "$W/r2.out" 'any(a["name"] == "'"$a7"'" for a in d["anchors"])'
	run r3 show --snapshot "$W/snap7"
	check "... and a snapshot of it reads back (exit $rc)" test "$rc" = 0
	# The longest core function name of that boot, probed and resolved.
	read -r f7a f7 < <(awk 'NF == 3 && $2 ~ /^[tT]$/ && length($3) > length(n) {n = $3; a = $1} END {print a, n}' "$R7/proc/kallsyms")
	run r4 --root "$R7" probe --dry-run "$f7"
	check "... probe --dry-run of its ${#f7}-character function -> kallsyms' 0x$f7a (exit $rc)" \
		grep -q " 0x$f7a\$" "$W/r4.out"
	cp "$R7/proc/kallsyms" "$W/kallsyms7"
	run r5 resolve --snapshot "$W/snap7" --kallsyms "$W/kallsyms7" "$(printf '0x%x' $((0x$f7a + 1)))"
	check "... resolve names an address in it (exit $rc)" grep -qx "$(printf '0x%x' $((0x$f7a + 1))) $f7+0x1 text" "$W/r5.out"
	# A module's ELF symbol table: the Rust PHY driver's longest function,
	# resolved from its .ko.xz as /proc/kallsyms named it.
	read -r m7a m7 < <(awk '$4 == "[ax88796b_rust]" && $2 ~ /^[tT]$/ && length($3) > length(n) {n = $3; a = $1} END {print a, n}' "$R7/proc/kallsyms")
	# (ax88796b_rust was loaded into kreloc's freed .init.text: with no
	# times, its addresses are ambiguous, its name one of the candidates)
	m7g=$(awk '$1 == "ax88796b_rust" {print $5}' "$D7/debugfs/modules")
	run r6 resolve --snapshot "$W/snap7" --kallsyms "$W/kallsyms7" --modules-dir "$D7/modules" "0x$m7a"
	res=$(python3 "$here/holders.py" line "$D7/debugfs/module" "$W/r6.out" "0x$m7a" "$m7+0x0 [ax88796b_rust@$m7g] .text" 2>&1)
	check "... and, from ax88796b_rust.ko.xz, its ${#m7}-character function, a candidate of an address two records held (exit $rc): ${res:0:80}..." \
		test "$rc" = 1 -a "$res" != "${res#0x$m7a: ambiguous}"
	MAP7=$(ls "$CACHE/maps/$K7VER.System.map" 2>/dev/null)
	if [ -s "$MAP7" ]; then
		run r7 resolve --snapshot "$W/snap7" --system-map "$MAP7" "$(printf '0x%x' $((0x$f7a + 1)))"
		check "... resolve --system-map (the nokaslr boot's map) too (exit $rc)" \
			grep -qx "$(printf '0x%x' $((0x$f7a + 1))) $f7+0x1 text" "$W/r7.out"
		run r8 kallsyms --snapshot "$W/snap7" --system-map "$MAP7" --modules-dir "$D7/modules" -o "$W/ks7"
		check "... kallsyms writes the module's line as /proc/kallsyms had it (exit $rc)" \
			grep -qx "$m7a [tT] $m7	\[ax88796b_rust\]" "$W/ks7"
	else
		skip "resolve --system-map on $K7VER" "no $CACHE/maps/$K7VER.System.map (rig/groundtruth.sh amd64-7)"
		skip "kallsyms on $K7VER" "no map"
	fi
else
	for i in 1 2 3 4 5 6 7 8; do skip "a 7.3 kernel's Rust names" "no $D7 (capture-testdata.sh rust)"; done
fi

# ---------------------------------------------------------------- resolve
kallsyms_full "$W/kallsyms"
# Addresses in the core and in the modules whose .ko is kept (not kreloc.ko).
grep -v '\[kreloc\]$' "$W/kallsyms" > "$W/kallsyms.gen"
"$AC" gen "$W/kallsyms.gen" 10000 42 > "$W/addrs"
"$K" resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms" --modules-dir "$DATA/modules" - \
	< "$W/addrs" > "$W/c1.out" 2> "$W/c1.err"; rc=$?
if res=$("$AC" check "$W/kallsyms" "$W/addrs" "$W/c1.out" 2>&1) && [ $rc = 0 ] && clean "$W/c1.err"; then
	ok "resolve --kallsyms --modules-dir (.ko.xz): 10000 addresses of the captured boot: $res"
else
	nok "resolve --kallsyms --modules-dir: 10000 addresses (exit $rc)"; { echo "$res"; head -3 "$W/c1.err"; } | diag
fi
# Every core function of the boot resolves to itself, x86's .exit.text
# (linked after .init.data, past its SIZE) and the _etext/_einittext
# markers included: a core section's area ends at the next section, not
# at its SIZE (ksnap_core_areas()).
awk 'NF == 3 && $2 ~ /^[tT]$/ {print "0x" $1}' "$W/kallsyms" > "$W/core.addrs"
"$K" resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms" - < "$W/core.addrs" > "$W/c7.out" 2> "$W/c7.err"; rc=$?
if res=$("$AC" check "$W/kallsyms" "$W/core.addrs" "$W/c7.out" 2>&1) && [ $rc = 0 ] && clean "$W/c7.err"; then
	ok "resolve --kallsyms: each core function's start of the captured boot names it: $res"
else
	nok "resolve --kallsyms: each core function's start (exit $rc)"; { echo "$res"; head -3 "$W/c7.err"; } | diag
fi
check "addrcheck fails on a resolve that printed nothing" sh -c '! "$1" check "$2" "$3" /dev/null >/dev/null 2>&1' sh "$AC" "$W/kallsyms" "$W/addrs"
sed 1d "$W/c1.out" > "$W/c1.short"
check "addrcheck fails when one answer is missing" sh -c '! "$1" check "$2" "$3" "$4" >/dev/null 2>&1' sh "$AC" "$W/kallsyms" "$W/addrs" "$W/c1.short"
# arm64 6.12 lists a module's mapping symbols: "$x" at .text's start, then
# ftrace's patchable NOPs, then the first function.  No point may come from
# "$x" (resolve, like the kernel, names no symbol for it: CI of 2026-12-01).
printf '%s\n' 'ffff800000001000 t $x	[m]' 'ffff800000001008 T f1	[m]' \
	'ffff800000001100 t $d	[m]' 'ffff800000001180 T f2	[m]' 'ffff800000001200 T f3	[m]' \
	> "$W/kallsyms.map"
check "addrcheck gen takes no point inside a mapping symbol (\$x, \$d)" sh -c \
	'"$1" gen "$2" 2000 7 | awk "\$1 < \"0xffff800000001008\" || (\$1 >= \"0xffff800000001100\" && \$1 < \"0xffff800000001180\") { bad++ } END { exit NR != 2000 || bad }"' \
	sh "$AC" "$W/kallsyms.map"
if [ -s "$MAP" ]; then
	"$K" resolve --snapshot "$SNAP" --system-map "$MAP" --modules-dir "$DATA/modules" - \
		< "$W/addrs" > "$W/c2.out" 2> "$W/c2.err"; rc=$?
	if res=$("$AC" check "$W/kallsyms" "$W/addrs" "$W/c2.out" 2>&1) && [ $rc = 0 ]; then
		ok "resolve --system-map (the nokaslr boot's map): 10000 addresses: $res"
	else
		nok "resolve --system-map: 10000 addresses (exit $rc)"; { echo "$res"; head -3 "$W/c2.err"; } | diag
	fi
	# The same check must notice a wrong offset (the test can fail).
	sed 's/^\(core [a-z.]* [^ ]* [^ ]* [^ ]*\) \(0x[0-9a-f]*\)\(0\) \([a-z]*\)$/\1 \21 \4/' "$SNAP" > "$W/snap.wrong"
	"$K" resolve --snapshot "$W/snap.wrong" --system-map "$MAP" - < "$W/addrs" > "$W/c3.out" 2>/dev/null
	check "resolve: the same check catches a snapshot 1 byte off" sh -c '! "$1" check "$2" "$3" "$4" >/dev/null 2>&1' \
		sh "$AC" "$W/kallsyms" "$W/addrs" "$W/c3.out"
	# The content decides, not the name: the right map kept under names of a cache's own.
	for nm in System.map-host42 "System.map-$KVER.orig"; do
		cp "$MAP" "$W/$nm"
		"$K" resolve --snapshot "$SNAP" --system-map "$W/$nm" --modules-dir "$DATA/modules" - \
			< "$W/addrs" > "$W/c4.out" 2> "$W/c4.err"; rc=$?
		check "resolve: the same map saved as $nm is taken, its name no more than a hint: the same 10000 answers (exit $rc$([ $rc = 0 ] || echo ": $(head -1 "$W/c4.err")"))" \
			sh -c '[ '"$rc"' = 0 ] && cmp -s "$1" "$2"' sh "$W/c2.out" "$W/c4.out"
	done
else
	skip "resolve --system-map" "no $MAP (rig/groundtruth.sh on amd64-6.1 makes it)"
	skip "resolve: a wrong offset is caught" "no $MAP"
	skip "resolve: the map saved as System.map-host42 is taken" "no $MAP"
	skip "resolve: the map saved as System.map-RELEASE.orig is taken" "no $MAP"
fi
if [ -s "$OTHER_MAP" ]; then
	run c5 resolve --snapshot "$SNAP" --system-map "$OTHER_MAP" "$(head -1 "$W/addrs")"
	expect_rc c5 1 "not the link-time map of the snapshot's kernel .*anchors it has differ, e\.g\. [^ ]+ is 0x" \
		"resolve: $(basename "$OTHER_MAP") (another build, the same _text) is refused, naming an anchor"
	# ... and a name cannot make it right: saved as the snapshot's System.map-RELEASE.
	cp "$OTHER_MAP" "$W/System.map-$KVER"
	run c5n resolve --snapshot "$SNAP" --system-map "$W/System.map-$KVER" "$(head -1 "$W/addrs")"
	expect_rc c5n 1 "System.map-$KVER: not the link-time map of the snapshot's kernel .*anchors it has differ" \
		"resolve: another build's map saved as System.map-$KVER is refused all the same, by its anchors"
	cp "$OTHER_MAP" "$W/System.map-6.12.0-99-amd64"
	run c5h resolve --snapshot "$SNAP" --system-map "$W/System.map-6.12.0-99-amd64" "$(head -1 "$W/addrs")"
	expect_rc c5h 1 "anchors it has differ.*\(its file name says release 6\.12\.0-99-amd64\)" \
		"resolve: ... and the release its name says is given as a hint when the content differs"
else
	skip "resolve: another build's map is refused" "no 6.12 map in $CACHE/maps"
	skip "resolve: another build's map named System.map-RELEASE is refused" "no 6.12 map in $CACHE/maps"
	skip "resolve: the name's release is a hint" "no 6.12 map in $CACHE/maps"
fi
run c6 resolve --json --snapshot "$SNAP" --kallsyms "$W/kallsyms" "$(head -1 "$W/addrs")" 0x10 nothex
check "resolve --json: one object with schema, results and counts" \
	json "$W/c6.out" 'd["schema"]==1 and len(d["results"])==3 and d["results"][0]["resolved"] and not d["results"][1]["resolved"] and d["unresolved"]==2'
taddr=0x$(awk '$3 == "_text" {print $1}' "$W/kallsyms")
cp "$W/kallsyms" "$W/kallsyms.8bit"
printf '%x t caf\xc3\xa9_\xff_fn\n' $((taddr + 1)) >> "$W/kallsyms.8bit"
run c7 resolve --json --snapshot "$SNAP" --kallsyms "$W/kallsyms.8bit" "$(printf '0x%x' $((taddr + 1)))"
check "resolve --json: bytes >= 0x80 in a symbol name are escaped (pure ASCII, valid JSON)" \
	json "$W/c7.out" 'd["results"][0]["symbol"] == "caf\u00c3\u00a9_\u00ff_fn"'
cp "$W/kallsyms" "$W/kallsyms.long"
printf '%x t %s\n' $((taddr + 2)) "$long" >> "$W/kallsyms.long"
run n5 resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms.long" "$(printf '0x%x' $((taddr + 3)))"
check "resolve --kallsyms: a 511-character symbol names its address (exit $rc)" \
	grep -qx "$(printf '0x%x' $((taddr + 3))) $long+0x1 text" "$W/n5.out"
if [ -s "$MAP" ]; then
	cp "$MAP" "$W/System.map.long"
	printf '%x t %s\n' $((0xffffffff81000002)) "$long" >> "$W/System.map.long"
	run n6 resolve --snapshot "$SNAP" --system-map "$W/System.map.long" "$(printf '0x%x' $((taddr + 3)))"
	check "resolve --system-map: a 511-character symbol names its address (exit $rc)" \
		grep -qx "$(printf '0x%x' $((taddr + 3))) $long+0x1 text" "$W/n6.out"
else
	skip "resolve --system-map: a 511-character symbol" "no $MAP"
fi
# An ELF symbol table: vfat.ko with a 511-character local function one byte
# into its first function (objcopy leaves the build-id note alone).
mkdir -p "$W/mods.long"
xz -dc "$DATA/modules/vfat.ko.xz" > "$W/vfat.plain.ko"
objcopy --add-symbol "$long=.text:0x1,function,local" "$W/vfat.plain.ko" "$W/mods.long/vfat.ko"
cp "$DATA/modules/fat.ko.xz" "$W/mods.long/"
vtext=$(awk '$1 == "section" && $2 == ".text" {print $3}' "$DATA"/debugfs/module/vfat@*)
run n7 resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms" --modules-dir "$W/mods.long" "$(printf '0x%x' $((vtext + 2)))"
check "resolve --modules-dir: a 511-character symbol of a .ko's ELF symbol table names its address (exit $rc)" \
	grep -qx "$(printf '0x%x' $((vtext + 2))) $long+0x1 \[vfat\] .text" "$W/n7.out"
run c8 resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms" 0x1234 nothex "$taddr"
check "resolve: unknown and malformed addresses print '?' and why, exit 1; _text resolves" \
	sh -c '[ '"$rc"' = 1 ] && grep -qx "0x1234 ? (in no core section or module record of the snapshot)" "$1" &&
		grep -qx "nothex ? (not a hex address)" "$1" && grep -qE "^$2 [a-z_0-9]+\+0x0 text$" "$1"' sh "$W/c8.out" "$taddr"
# A link-time address where a runtime one belongs: the hint, and the
# vmlinux: form it names resolves (as probe takes it).
lsched=$(printf '0x%x' $(( 0x$(awk '$3 == "schedule" && NF == 3 {print $1; exit}' "$W/kallsyms") - koff )))
run c11 resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms" "$lsched"
check "resolve: a link-time address (schedule's $lsched) says so and names vmlinux:$lsched" \
	grep -qx "$lsched ? (not a runtime address of the snapshot's boot, but the link-time address of text (0xffffffff81000000-0x[0-9a-f]*): give it as vmlinux:$lsched)" "$W/c11.out"
run c12 resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms" "vmlinux:$lsched" vmlinux:0x1000
check "resolve vmlinux:$lsched -> schedule+0x0 text; a link-time address outside the kernel says so" \
	sh -c 'grep -qx "vmlinux:$1 schedule+0x0 text" "$2" && grep -qx "vmlinux:0x1000 ? (not a link-time address of any core section of the snapshot)" "$2"' sh "$lsched" "$W/c12.out"
sed 's/^\(core init.data [^ ]* [^ ]* [^ ]*\) [^ ]* [a-z]*$/\1 - unknown/' "$SNAP" > "$W/snap.nodata"
idata=$(awk '$1 == "core" && $2 == "init.data" {print $4}' "$SNAP")
run c13 resolve --snapshot "$W/snap.nodata" --kallsyms "$W/kallsyms" "$idata"
check "resolve: an address in a section without a published offset says which and why" \
	grep -qx "$idata ? (in core section init.data, whose offset kreloc did not publish (STATUS unknown))" "$W/c13.out"
run c14 resolve --json --snapshot "$SNAP" --kallsyms "$W/kallsyms" "$lsched"
check "resolve --json: the same reason in \"error\"" json "$W/c14.out" '"vmlinux:'"$lsched"'" in d["results"][0]["error"]'
# The wrong-map check: the anchors the snapshot names must agree.
printf 'ffffffff81000000 T _text\nffffffff81200000 T do_sys_openat2\n' > "$W/map.two"
run c15 resolve --snapshot "$SNAP" --system-map "$W/map.two" "$taddr"
expect_rc c15 1 "map.two: not shown to be the link-time map of the snapshot's kernel \($KVER\): 2 of the snapshot's 3 anchors in the sections it covers are not in it \(_stext, _etext\); 1 agree" \
	"resolve: a two-line map (the right _text, a wrong do_sys_openat2) is refused, naming the anchors it lacks"
ksyt=$(awk '$3 == "__start___ksymtab" {print $1}' "$W/kallsyms")
sed "s/^$ksyt R __start___ksymtab\$/$(printf %x $((0x$ksyt + 8))) R __start___ksymtab/" "$W/kallsyms" > "$W/kallsyms.moved"
run c16 resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms.moved" "$taddr"
expect_rc c16 1 "kallsyms.moved: not the link-time map .*: 1 of the 32 anchors it has differ, e\.g\. __start___ksymtab is 0xffffffff82462398 there, 0xffffffff82462390" \
	"resolve: a map with one anchor of 32 elsewhere is refused, naming it"
xz -dc "$DATA/kallsyms.xz" > "$W/kallsyms.capture"
run c17 resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms.capture" "$taddr"
expect_rc c17 1 "not shown to be the link-time map .*: 22 of the snapshot's 32 anchors in the sections it covers are not in it \(__start_pci_fixups_early, __start___ksymtab, __start___ksymtab_gpl, \.\.\.\); 10 agree" \
	"resolve: a kallsyms with rodata and data markers but not their anchors is refused, with how many and which"
# Without KALLSYMS_ALL the kernel lists _stext.._etext and _sinittext..
# _einittext only (scripts/kallsyms.c text_ranges).
awk 'NR == FNR { a[$3] = $1; next }
     NF == 3 && (($1 >= a["_stext"] && $1 <= a["_etext"]) || ($1 >= a["_sinittext"] && $1 <= a["_einittext"]))' \
	"$W/kallsyms.capture" "$W/kallsyms.capture" > "$W/kallsyms.text"
run c18 resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms.text" "$taddr"
check "resolve: a kallsyms of the text ranges only (as without KALLSYMS_ALL), whose text anchors agree, is taken (exit $rc)" \
	grep -qE "^$taddr [a-z_0-9]+\+0x0 text$" "$W/c18.out"
echo "The real System.map is in the linux-image-$KVER-dbg package" > "$W/map.placeholder"
run c9 resolve --snapshot "$SNAP" --system-map "$W/map.placeholder" 0x1
expect_rc c9 1 "map.placeholder: Debian's placeholder System.map" "resolve: Debian's placeholder System.map is refused with the reason"
awk '{print "0000000000000000", $2, $3, $4}' "$W/kallsyms" > "$W/kallsyms.zero"
run c10 resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms.zero" 0x1
expect_rc c10 1 'no core symbol with a nonzero address' "resolve: a kallsyms read without CAP_SYSLOG (zeros) is refused"
# Behind a pipe: each address answered while the input stays open.
coproc RES { "$K" resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms" -; }
got=0
while read -r a && [ $got -lt 5 ]; do
	echo "$a" >&"${RES[1]}"
	read -r -t 10 line <&"${RES[0]}" || break
	[ "${line%% *}" = "$a" ] && got=$((got + 1))
done < "$W/addrs"
# (bash unsets the coproc variables when it exits early: a failing kreloc)
[ -z "${RES[1]:-}" ] || exec {RES[1]}>&-
wait ${RES_PID:-} 2>/dev/null
check "resolve -: each address is answered while the input stays open ($got of 5)" test "$got" = 5

# ---------------------------------------------------------------- resolve --snapshot-dir
# Many hosts in one pass: HOST ADDR pairs, each host's snapshot DIR/HOST.
H="$W/hosts"; mkdir -p "$H"; cp "$SNAP" "$H/web1"; cp "$SNAP" "$H/web2"
printf 'not a snapshot\n' > "$H/broken"
head -200 "$W/addrs" | awk '{print (NR % 2 ? "web1" : "web2"), $1}' > "$W/fleet.in"
printf 'ghost 0x1\nbroken 0x2\nweb1 nothex\n../x 0x3\n' >> "$W/fleet.in"
"$K" resolve --snapshot-dir "$H" --kallsyms "$W/kallsyms" --modules-dir "$DATA/modules" - \
	< "$W/fleet.in" > "$W/fl1.out" 2> "$W/fl1.err"; rc=$?
head -200 "$W/addrs" | "$K" resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms" --modules-dir "$DATA/modules" - \
	> "$W/fl0.out" 2>/dev/null
check "resolve --snapshot-dir: 200 HOST ADDR pairs of two hosts answered as --snapshot answers them, HOST first (exit $rc)" \
	bash -c '[ '"$rc"' = 1 ] && cmp -s <(head -200 "$1" | cut -d" " -f2-) "$2" &&
		[ "$(head -200 "$1" | awk "{print \$1}" | sort -u | paste -sd,)" = web1,web2 ]' bash "$W/fl1.out" "$W/fl0.out"
check "... a host without a snapshot, a malformed snapshot, a bad address, a name that is no file name: each ? with its reason" \
	sh -c 'grep -qx "ghost 0x1 ? (no snapshot of this host in the directory)" "$1" &&
		grep -q "^broken 0x2 ? (.*broken:1: not a kreloc snapshot" "$1" && grep -qx "web1 nothex ? (not a hex address)" "$1" &&
		grep -q "^\.\./x 0x3 ? (not a host name" "$1" && grep -q "broken:1: not a kreloc snapshot" "$2"' sh "$W/fl1.out" "$W/fl1.err"
# A pair cut between two reads of a pipe is answered whole.
{ printf 'web1 '; sleep 1; printf '%s\n' "$(head -1 "$W/addrs")"; } |
	"$K" resolve --snapshot-dir "$H" --kallsyms "$W/kallsyms" > "$W/fl2.out" 2>/dev/null
check "... a pair whose address comes in a later read of the pipe is answered whole" \
	grep -qx "web1 $(head -1 "$W/fl0.out")" "$W/fl2.out"
run fl3 resolve --json --snapshot-dir "$H" --kallsyms "$W/kallsyms" web2 "$(head -1 "$W/addrs")" web1
check "resolve --json --snapshot-dir: results carry their host; an odd last word is a host without an address (exit $rc)" \
	json "$W/fl3.out" 'd["results"][0]["host"]=="web2" and d["results"][0]["resolved"] and not d["results"][1]["resolved"] and d["results"][1]["error"].startswith("a host without an address")'
check "... and is not taken for an address (no 'not a hex address' warning)" sh -c '! grep -q "not a hex address" "$1"' sh "$W/fl3.err"
run fl4 resolve --snapshot-dir "$H" --snapshot "$SNAP" --kallsyms "$W/kallsyms" 0x1
expect_rc fl4 2 "do not mix" "resolve: --snapshot and --snapshot-dir together are a usage error"

# ---------------------------------------------------------------- resolve --text
# Text in, text out: any bytes kept, each address followed by its symbol.
saddr=$(awk '$3 == "schedule" && NF == 3 {print $1; exit}' "$W/kallsyms")
vaddr=$(awk '$4 == "[vfat]" && $2 ~ /^[tT]$/ {print $1; exit}' "$W/kallsyms")
{
	printf 'cat-1 [000] 1.5: p: (vfs_read+0x0/0x20) ip=0x%s arg=0x10 deadbeef_fn\r\n' "$saddr"
	printf '  [<%s>] (%s) \001\377\000 RIP: 0010:%x' "$saddr" "$vaddr" $((0x$saddr + 5))
} > "$W/text.in"
run x1 resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms" --text < "$W/text.in"
{
	printf 'cat-1 [000] 1.5: p: (vfs_read+0x0/0x20) ip=0x%s <schedule+0x0> arg=0x10 deadbeef_fn\r\n' "$saddr"
	printf '  [<%s>] <schedule+0x0> (%s) <.text+0x0 [vfat]> \001\377\000 RIP: 0010:%x <schedule+0x5>' "$saddr" "$vaddr" $((0x$saddr + 5))
} > "$W/text.want"
check "resolve --text: every address (0x.., [<..>], (..), bare) followed by its symbol, all other bytes kept (CR, NUL, 0xff, no final newline; exit $rc)" \
	sh -c '[ '"$rc"' = 0 ] && cmp "$1" "$2"' sh "$W/text.want" "$W/x1.out"
python3 -c 'import sys; sys.stdout.write("x" * 1500000 + " 0x'"$saddr"'\n")' > "$W/text.long"
run x2 resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms" --text < "$W/text.long"
python3 -c 'import sys; sys.stdout.write("x" * 1500000 + " 0x'"$saddr"' <schedule+0x0>\n")' > "$W/text.long.want"
check "resolve --text: a line longer than the read buffer (1.5 MB) comes out whole" \
	cmp -s "$W/x2.out" "$W/text.long.want"
run x3 resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms" --text 0x1
expect_rc x3 2 'text reads standard input' "resolve --text with ADDR arguments: usage error"
run x4 resolve --json --snapshot "$SNAP" --kallsyms "$W/kallsyms" --text
expect_rc x4 2 'does not mix with --json' "resolve --text --json: usage error"
# Behind a pipe: each line answered while the input stays open.
coproc TXT { "$K" resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms" --text; }
got=0
for i in 1 2 3; do
	echo "line $i ip=0x$saddr" >&"${TXT[1]}"
	read -r -t 10 line <&"${TXT[0]}" || break
	[ "$line" = "line $i ip=0x$saddr <schedule+0x0>" ] && got=$((got + 1))
done
# (bash unsets the coproc variables when it exits early: a failing kreloc)
[ -z "${TXT[1]:-}" ] || exec {TXT[1]}>&-
wait ${TXT_PID:-} 2>/dev/null
check "resolve --text: each line is answered while the input stays open ($got of 3)" test "$got" = 3
# Real text from a guest (tests/tools/capture-testdata.sh text): trace_pipe,
# perf script and an Oops, resolved with that boot's snapshot.
TD="$here/data/amd64-6.1-text"
if [ -s "$TD/snapshot" ]; then
	xz -dc "$TD/kallsyms.xz" > "$W/text.kallsyms"
	mkdir -p "$W/text.mods"; cp "$TD"/modules/* "$DATA"/modules/* "$W/text.mods/"
	for f in trace_pipe perf-script oops; do
		"$K" resolve --snapshot "$TD/snapshot" --kallsyms "$W/text.kallsyms" --modules-dir "$W/text.mods" \
			--text < "$TD/$f" > "$W/text.$f" 2> "$W/text.$f.err"; rc=$?
		if res=$(python3 "$here/textcheck.py" "$W/text.kallsyms" "$TD/snapshot" "$TD/$f" "$W/text.$f" 2>&1) &&
		   [ $rc = 0 ] && clean "$W/text.$f.err"; then
			ok "resolve --text on a real $f of a guest: $res"
		else
			nok "resolve --text on a real $f (exit $rc)"; { echo "$res"; head -3 "$W/text.$f.err"; } | diag
		fi
	done
	check "textcheck fails on a text resolved without annotations (the input itself)" \
		sh -c '! python3 "$1" "$2" "$3" "$4" "$4" > /dev/null 2>&1' sh "$here/textcheck.py" "$W/text.kallsyms" "$TD/snapshot" "$TD/perf-script"
	sed 's/<\([a-z_]*\)+0x0>/<\1+0x1>/' "$W/text.perf-script" > "$W/text.wrong"
	check "textcheck fails on one wrong offset" \
		sh -c '! python3 "$1" "$2" "$3" "$4" "$5" > /dev/null 2>&1' sh "$here/textcheck.py" "$W/text.kallsyms" "$TD/snapshot" "$TD/perf-script" "$W/text.wrong"
	# (kreloc_busy sits in fat's freed .init.text: its addresses are ambiguous)
	sed 's/ <ambiguous: \([^|>]*\) | [^>]*>/ <\1>/' "$W/text.perf-script" > "$W/text.newest"
	check "textcheck fails when an address two records held is named as the newest record's alone" \
		sh -c '! cmp -s "$5" "$6" && ! python3 "$1" "$2" "$3" "$4" "$5" > /dev/null 2>&1' sh "$here/textcheck.py" "$W/text.kallsyms" "$TD/snapshot" "$TD/perf-script" "$W/text.newest" "$W/text.perf-script"
else
	for i in 1 2 3 4 5 6; do skip "resolve --text on real text" "no $TD (capture-testdata.sh text)"; done
fi

# ---------------------------------------------------------------- modules
vrec=$(modrec vfat live)
vgen=$(awk '{print $5}' <<<"$vrec")
awk '$4 == "[vfat]" && $2 ~ /^[tT]$/' "$W/kallsyms" > "$W/vfat.syms"
awk '{printf "0x%s\n", $1}' "$W/vfat.syms" > "$W/vaddrs"
# mod_right OUT: every vfat function address resolved to a kallsyms name [vfat], +0x0
mod_right() {
	"$AC" check "$W/kallsyms" "$W/vaddrs" "$1" > /dev/null 2>&1 &&
		awk '$2 !~ /\+0x0$/ || $3 != "[vfat]" {b++} END {exit b > 0 || NR < 20}' "$1"
}
for z in xz zst gz plain; do
	mkdir -p "$W/mods.$z/kernel/fs/fat"
	for m in fat vfat dummy; do
		case $z in
		xz) cp "$DATA/modules/$m.ko.xz" "$W/mods.$z/kernel/fs/fat/" ;;
		zst) xz -dc "$DATA/modules/$m.ko.xz" | zstd -q -o "$W/mods.$z/kernel/fs/fat/$m.ko.zst" ;;
		gz) xz -dc "$DATA/modules/$m.ko.xz" | gzip > "$W/mods.$z/kernel/fs/fat/$m.ko.gz" ;;
		plain) xz -dc "$DATA/modules/$m.ko.xz" > "$W/mods.$z/kernel/fs/fat/$m.ko" ;;
		esac
	done
	"$K" resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms" --modules-dir "$W/mods.$z" - \
		< "$W/vaddrs" > "$W/k.$z.out" 2> "$W/k.$z.err"; rc=$?
	if [ $rc = 0 ] && clean "$W/k.$z.err" && mod_right "$W/k.$z.out"; then
		ok "resolve --modules-dir with vfat.ko${z/plain/}: all $(wc -l < "$W/vaddrs") vfat functions -> kallsyms' names [vfat]"
	else
		nok "resolve --modules-dir with vfat.ko${z/plain/} (exit $rc)"
		{ head -3 "$W/k.$z.err"; paste -d' ' "$W/vfat.syms" "$W/k.$z.out" | head -3; } | diag
	fi
done
# Another build's vfat.ko, found first (plain, under updates/), beside the right one (.xz).
if [ -n "$OTHER_VFAT" ]; then
	S="$W/mods.stale"; mkdir -p "$S/updates" "$S/kernel/fs/fat"
	case "$OTHER_VFAT" in *.xz) xz -dc "$OTHER_VFAT" ;; *) cat "$OTHER_VFAT" ;; esac > "$S/updates/vfat.ko"
	cp "$DATA/modules/vfat.ko.xz" "$DATA/modules/fat.ko.xz" "$S/kernel/fs/fat/"
	"$K" resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms" --modules-dir "$S" - < "$W/vaddrs" \
		> "$W/k.stale.out" 2> "$W/k.stale.err"
	check "resolve: a stale vfat.ko of another build (updates/, uncompressed) is passed over for the one with the record's build id" \
		mod_right "$W/k.stale.out"
	rm "$S/kernel/fs/fat/vfat.ko.xz"
	run k2 resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms" --modules-dir "$S" "$(head -1 "$W/vaddrs")"
	expect_rc k2 0 "none of the 1 vfat.ko files .* has the record.s build id" "resolve: with only another build's vfat.ko, names are not given and the warning says why"
else
	skip "resolve: a stale .ko of another build is passed over" "no 6.12 vfat.ko in $CACHE"
	skip "resolve: only another build's .ko" "no 6.12 vfat.ko in $CACHE"
fi
# The real unload: dummy's history record, resolved with dummy.ko.xz.
dtext=$(awk '$1 == "section" && $2 == ".text" {print $3}' "$DATA/debugfs/module/dummy@$dgen")
dfn=$(xz -dc "$DATA/modules/dummy.ko.xz" > "$W/dummy.ko" && readelf -sW "$W/dummy.ko" |
	awk '$4 == "FUNC" && $7 != "UND" && $2 ~ /^0+$/ {print $8; exit}')
# dummy was loaded into fat's freed .init.text (the loader reuses module
# memory): a format 2 snapshot has no times, so the address is ambiguous,
# every record that held it a candidate (holders.py reads them from the
# debugfs files), dummy's symbol among them.
run k3 resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms" --modules-dir "$DATA/modules" "$dtext"
res=$(python3 "$here/holders.py" line "$DATA/debugfs/module" "$W/k3.out" "$dtext" "$dfn+0x0 [dummy@$dgen] .text" 2>&1)
check "resolve: dummy's .text after its real unload, where fat's .init.text was: $res, $dfn+0x0 [dummy@$dgen] .text among them (exit $rc)" \
	test "$rc" = 1 -a -n "$res" -a "$res" != "${res#"$dtext": ambiguous}"
run k3j resolve --json --snapshot "$SNAP" --kallsyms "$W/kallsyms" --modules-dir "$DATA/modules" "$dtext"
res=$(python3 "$here/holders.py" json "$DATA/debugfs/module" "$W/k3j.out" "$dtext" "$dfn+0x0 [dummy@$dgen] .text" 2>&1)
check "resolve --json: the same address \"resolved\": false, \"ambiguous\": true, every record in \"candidates\" ($res)" \
	test "$res" != "${res#"$dtext": ambiguous}"
run k4 resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms" "$(head -1 "$W/vaddrs")"
check "resolve: a module address without --modules-dir -> .text+0x.. [vfat] .text (no modules directory)" \
	grep -qE "^$(head -1 "$W/vaddrs") \.text\+0x[0-9a-f]+ \[vfat\] \.text \(no modules directory\)$" "$W/k4.out"
check "... with a warning that says why it has no symbol (no modules directory)" \
	grep -q "warning: vfat: no modules directory: its addresses are named by section" "$W/k4.err"

# ---------------------------------------------------------------- probe (no lookup file: kallsyms)
ks() { awk -v s="$1" '$3 == s && NF == 3 {print "0x" $1; exit}' "$W/kallsyms"; }
sched=$(ks schedule)
run q1 --root "$R" probe --dry-run schedule
check "probe --dry-run schedule -> p:kreloc/schedule $sched (kallsyms)" test "$(cat "$W/q1.out")" = "p:kreloc/schedule $sched"
run q2 --root "$R" probe --dry-run --group grp --event ev schedule+0x10 '$arg1' 'x=%di:u64'
check "probe: +0xOFF, --group/--event and fetchargs" \
	test "$(cat "$W/q2.out")" = "p:grp/ev $(printf '0x%x' $((sched + 0x10))) \$arg1 x=%di:u64"
if [ -s "$MAP" ]; then
	lsched=0x$(awk '$3 == "schedule" {print $1; exit}' "$MAP")
	run q3 --root "$R" probe --dry-run "vmlinux:$lsched"
	check "probe vmlinux:$lsched (schedule in System.map) -> its runtime address $sched" \
		test "$(cat "$W/q3.out")" = "p:kreloc/vmlinux_${lsched#0x} $sched"
	# With kreloc's lookup file present, vmlinux: specs never go to it.
	echo "garbage answer" > "$R/sys/kernel/debug/kreloc/lookup"
	run q4 --root "$R" probe --dry-run "vmlinux:$lsched"
	check "probe vmlinux:0x... with kreloc's lookup file present: not sent to the module (exit $rc)" \
		test "$rc" = 0 -a "$(cat "$W/q4.out")" = "p:kreloc/vmlinux_${lsched#0x} $sched"
	rm "$R/sys/kernel/debug/kreloc/lookup"
	lsk=0x$(awk '$3 == "start_kernel" {print $1; exit}' "$MAP")
	run q5 --root "$R" probe --dry-run "vmlinux:$lsk"
	expect_rc q5 3 'init.text, which the kernel has freed' "probe: a freed init link-time address (start_kernel) is refused, exit 3"
else
	skip "probe vmlinux:0xLINKED" "no $MAP"
	skip "probe vmlinux: with a lookup file" "no $MAP"
	skip "probe: a freed init link-time address" "no $MAP"
fi
# lookup's ERR line, printed as the kernel wrote it.  A regular file stands
# in for kreloc's lookup: the CLI writes the spec at offset 0 and reads from
# 0, so with the spec "ERR" the file reads back unchanged.
L="$R/sys/kernel/debug/kreloc/lookup"
printf 'ERR ENOTUNIQ ERR: 2 symbols of that name\n' > "$L"
run qe1 --root "$R" probe --dry-run ERR
expect_rc qe1 1 'lookup: ERR: ERR ENOTUNIQ ERR: 2 symbols of that name$' \
	"probe: lookup's ERR line printed whole, exit 1"
printf 'ERR EPERM lockdown (debugfs access): lookup writes are refused\n' > "$L"
run qe2 --root "$R" probe --dry-run ERR
expect_rc qe2 3 'ERR EPERM lockdown \(debugfs access\): lookup writes are refused' \
	"probe: lookup's ERR EPERM line printed, exit 3"
printf 'ERR 1 lockdown (debugfs access): lookup writes are refused\n' > "$L"
run qe3 --root "$R" probe --dry-run ERR
expect_rc qe3 3 'ERR 1 lockdown' "probe: a numeric ERR name (no CONFIG_SYMBOLIC_ERRNAME) is the errno: 1 = EPERM, exit 3"
printf 'ERR 4294967297 what atoi would take for 1 (EPERM)\n' > "$L"
run qe4 --root "$R" probe --dry-run ERR
expect_rc qe4 1 'ERR 4294967297' "probe: a numeric ERR name out of range is no errno (not EPERM): exit 1"
rm "$L"
# SYM+OFF: the core kernel is probed by absolute address, which the kernel
# cannot check against the symbol; kreloc refuses what lookup would.
ssize=$(awk '$1 == substr("'"$sched"'", 3) && NF == 3 {f = 1; next} f && NF == 3 {print "0x" $1; exit}' \
	<(sort "$R/proc/kallsyms"))
ssize=$((ssize - sched))
run qo1 --root "$R" probe --dry-run schedule+0xffffffffffffffff
expect_rc qo1 1 'schedule\+0xffffffffffffffff: offset 0xffffffffffffffff past the end of schedule' \
	"probe schedule+0xffffffffffffffff (wraps to schedule-1) is refused, exit 1"
run qo2 --root "$R" probe --dry-run schedule+0x100000
expect_rc qo2 1 "offset 0x100000 past the end of schedule \(size $(printf '0x%x' $ssize)\)" \
	"probe schedule+0x100000 (past the function) is refused with its size"
run qo3 --root "$R" probe --dry-run "schedule+$ssize"
run qo4 --root "$R" probe --dry-run "schedule+$((ssize - 1))"
check "probe schedule+SIZE (the next symbol) refused, schedule+SIZE-1 (its last byte, $ssize bytes) taken" \
	test "$(cat "$W/qo4.out")" = "p:kreloc/schedule_$(printf '%x' $((ssize - 1))) $(printf '0x%x' $((sched + ssize - 1)))" -a ! -s "$W/qo3.out"
run q6 --root "$R" probe --dry-run vfat:vfat_create+4
check "probe mod:sym+off -> MOD:SYM+0xOFF (the kernel re-arms it on reload)" \
	test "$(cat "$W/q6.out")" = "p:kreloc/vfat_vfat_create_4 vfat:vfat_create+0x4"
dup=$(awk 'NF == 3 && $2 ~ /^[tT]$/ && $3 !~ /^__/ {c[$3]++} END {for (s in c) if (c[s] > 1) {print s; exit}}' "$W/kallsyms")
run q7 --root "$R" probe --dry-run "$dup"
expect_rc q7 1 "symbol $dup is not unique \([0-9]+ entries\)" "probe: an ambiguous name ($dup, in kallsyms twice) is refused and says so"
# A name vmlinux has once and a module too (this capture has some: fat's
# parse_options, ...).  Counted as info's KPROBE_UNIQUE says, the rule of
# the kernel's kprobe_events; without the key (this capture's kreloc
# predates it) in vmlinux and every module together, the rule of every
# kernel before 7.0.10.  A name only a module has is that module's.
vdup=$(awk 'NF == 3 && $2 ~ /^[tT]$/ {c[$3]++} NF == 4 && $2 ~ /^[tT]$/ {m[$3]++}
	END {for (s in m) if (c[s] == 1 && m[s] == 1 && s !~ /^__/) {print s; exit}}' "$W/kallsyms")
monly=$(awk 'NF == 3 {c[$3]++} NF == 4 {a[$3]++} NF == 4 && $2 ~ /^[tT]$/ && $4 == "[vfat]" {m[$3] = $1}
	END {for (s in m) if (!c[s] && a[s] == 1 && s !~ /^__/) {print s, m[s]; exit}}' "$W/kallsyms")
V="$W/vroot"; cp -r "$R" "$V"
run qv1 --root "$R" probe --dry-run "$vdup"
expect_rc qv1 1 "symbol $vdup is not unique \(2 entries\)" \
	"probe: $vdup, once in vmlinux and once in a module, with no KPROBE_UNIQUE in info: not unique, exit 1"
echo KPROBE_UNIQUE=all >> "$V/sys/kernel/debug/kreloc/info"
run qv2 --root "$V" probe --dry-run "$vdup"
expect_rc qv2 1 "symbol $vdup is not unique \(2 entries\)" "... with KPROBE_UNIQUE=all: the same"
sed -i 's/^KPROBE_UNIQUE=all$/KPROBE_UNIQUE=vmlinux-first/' "$V/sys/kernel/debug/kreloc/info"
run qv3 --root "$V" probe --dry-run "$vdup"
check "... with KPROBE_UNIQUE=vmlinux-first: vmlinux's, p:kreloc/$vdup $(ks "$vdup") (exit $rc)" \
	test "$(cat "$W/qv3.out")" = "p:kreloc/$vdup $(ks "$vdup")"
run qv4 --root "$R" probe --dry-run "${monly% *}"
run qv5 --root "$V" probe --dry-run "${monly% *}"
check "probe ${monly% *}, a name only vfat has, without its module: vfat's 0x${monly#* } under either rule" \
	sh -c 'test "$(cat "$1")" = "p:kreloc/$3 0x$4" -a "$(cat "$2")" = "p:kreloc/$3 0x$4"' \
	sh "$W/qv4.out" "$W/qv5.out" "${monly% *}" "${monly#* }"
run qv6 --root "$V" snapshot
check "snapshot: info's KPROBE_UNIQUE=vmlinux-first is the header KPROBE_UNIQUE vmlinux-first; without the key, '-'" \
	sh -c 'grep -qx "KPROBE_UNIQUE vmlinux-first" "$1" && grep -qx "KPROBE_UNIQUE -" "$2"' sh "$W/qv6.out" "$SNAP"
run q8 --root "$R" probe --dry-run no_such_function
expect_rc q8 1 "$R/proc/kallsyms: no symbol no_such_function" "probe: unknown symbol names kallsyms, exit 1"
run q9 --root "$R" probe --dry-run vmlinux:0xffffffff80000010
expect_rc q9 1 'outside the kernel.s text section' "probe: a vmlinux address outside text is refused"
run q10 --root "$R" probe --dry-run start_kernel
expect_rc q10 3 'init text, freed after boot' "probe: a freed __init function (start_kernel) is refused, exit 3"
bl=$(awk '{print $2; exit}' "$DATA/blacklist")
run q11 --root "$R" probe --dry-run "$bl"
expect_rc q11 3 "kprobe blacklist .*$bl" "probe: a blacklisted function ($bl) is refused with the blacklist entry, exit 3"
run q12 --root "$R" probe schedule
check "probe: writes the line to tracefs kprobe_events" test "$(cat "$R/sys/kernel/tracing/kprobe_events")" = "p:kreloc/schedule $sched"
run q13 --root "$R" probe --remove kreloc/schedule
check "probe --remove writes -:G/E" test "$(tail -1 "$R/sys/kernel/tracing/kprobe_events")" = "-:kreloc/schedule"
E="$W/eroot"; cp -r "$R" "$E"
ln -sf /dev/full "$E/sys/kernel/tracing/kprobe_events"
printf '[  1.000] trace_kprobe: error: Old\n  Command: p:x\n[ 12.345] trace_kprobe: error: Invalid probed address or symbol\n  Command: p:kreloc/schedule 0x1\n             ^\n' \
	> "$E/sys/kernel/tracing/error_log"
run q14 --root "$E" probe schedule
check "probe: a refused write prints the newest error_log entry, exit 3" \
	sh -c '[ '"$rc"' = 3 ] && grep -q "Invalid probed address or symbol" "$1" && ! grep -q "error: Old" "$1"' sh "$W/q14.err"
D="$W/droot"; cp -r "$R" "$D"; rm -rf "$D/sys/kernel/tracing"; mkdir -p "$D/sys/kernel/debug/tracing"
: > "$D/sys/kernel/debug/tracing/kprobe_events"
run q15 --root "$D" probe schedule
check "probe: falls back to /sys/kernel/debug/tracing" grep -q '^p:kreloc/schedule ' "$D/sys/kernel/debug/tracing/kprobe_events"
# EPERM: kernel lockdown or credentials, told apart (as nobody, files root-only).
# (a root of its own in /tmp: nobody must reach it through the work directory's parents)
P=$(mktemp -d /tmp/kreloc-proot.XXXXXX); cp -r "$R/." "$P"
: > "$P/sys/kernel/debug/kreloc/lookup"
chmod -R a+rX "$P"; chmod 600 "$P/sys/kernel/debug/kreloc/lookup"
setpriv --reuid=65534 --regid=65534 --clear-groups "$K" --root "$P" probe --dry-run schedule > "$W/q16.out" 2> "$W/q16.err"; rc=$?
expect_rc q16 3 'lookup: .*refused by your credentials' "EPERM/EACCES from kreloc's lookup as nobody: exit 3, credentials named"
echo "none [integrity] confidentiality" > "$P/sys/kernel/security/lockdown"
setpriv --reuid=65534 --regid=65534 --clear-groups "$K" --root "$P" probe --dry-run schedule > "$W/q17.out" 2> "$W/q17.err"; rc=$?
expect_rc q17 3 "refused by kernel lockdown \(mode 'integrity'" "the same under lockdown=integrity: exit 3, lockdown named"
echo "[none] integrity confidentiality" > "$P/sys/kernel/security/lockdown"
# Local errors are not the kernel's: exit 1, not 3.
mkdir -p "$P/rootonly" "$P/shared"; chmod 700 "$P/rootonly"; chmod 1777 "$P/shared"
echo keep > "$P/shared/ro"; chmod 644 "$P/shared/ro"
setpriv --reuid=65534 --regid=65534 --clear-groups "$K" --root "$P" snapshot -o "$P/rootonly/s" > "$W/o7.out" 2> "$W/o7.err"; rc=$?
expect_rc o7 1 'rootonly/s: .*Permission denied' \
	"snapshot -o into a directory the user may not write: exit 1 (a local error, not 3)"
setpriv --reuid=65534 --regid=65534 --clear-groups "$K" --root "$P" snapshot -o "$P/shared/ro" > "$W/o8.out" 2> "$W/o8.err"; rc=$?
expect_rc o8 1 'shared/ro: Permission denied: kreloc replaces only a file you may write' \
	"snapshot -o over a file the user may not write (in a sticky directory): refused, exit 1"
check "... and the file is unchanged" test "$(cat "$P/shared/ro")" = keep
# tracefs refusing: kprobe_events not writable for the user.  The reason is
# tracefs' (root, lockdown), not the address-visibility one of debugfs.
chmod 644 "$P/sys/kernel/tracing/kprobe_events"; rm -f "$P/sys/kernel/debug/kreloc/lookup"
setpriv --reuid=65534 --regid=65534 --clear-groups "$K" --root "$P" probe schedule > "$W/q18.out" 2> "$W/q18.err"; rc=$?
expect_rc q18 3 'kprobe_events: Permission denied: .*tracefs' \
	"probe as nobody: kprobe_events not writable: exit 3, the message is about tracefs"
check "... and does not talk about kernel address visibility (kptr_restrict)" sh -c '! grep -q kptr_restrict "$1"' sh "$W/q18.err"
rm -rf "$P"

# ---------------------------------------------------------------- corrupt snapshots
# corrupt NAME 'CMD' REGEX: the mutated snapshot must fail with exit 1
# and "FILE:LINE: reason" (REGEX matches LINE: reason), no sanitizer report.
corrupt() {
	local name="$1" how="$2" re="$3" f="$W/bad.$1"
	eval "$how" > "$f"
	run "bad_$name" resolve --snapshot "$f" --kallsyms "$W/kallsyms" 0x1
	expect_rc "bad_$name" 1 "^kreloc: $f:$re" "corrupt snapshot ($name) -> exit 1 with FILE:LINE"
}
L=$(wc -l < "$SNAP")
ml=$(grep -n '^module ' "$SNAP" | head -1 | cut -d: -f1)
corrupt trunc_half "head -n $((L / 2)) '$SNAP'" "$((L / 2 + 1)): truncated: no 'end' line"
corrupt trunc_last "head -n $((L - 1)) '$SNAP'" "$L: truncated: no 'end' line"
corrupt trunc_midline "head -c $(( $(head -n $((ml - 1)) "$SNAP" | wc -c) + 10 )) '$SNAP'" "$ml: module: expected NAME"
corrupt empty ": " '1: empty file'
corrupt magic "sed '1s/.*/KRELOC-SNAPSHUT 2/' '$SNAP'" "1: not a kreloc snapshot"
corrupt version "sed '1s/.*/KRELOC-SNAPSHOT 4/' '$SNAP'" "1: snapshot format version 4 is newer"
cl=$(grep -n '^core text ' "$SNAP" | cut -d: -f1)
corrupt badhex "sed '${cl}s/0x[0-9a-f]*/0xzz/' '$SNAP'" "$cl: core section: value is neither 0xHEX nor '-'"
corrupt longhex "sed '${cl}s/0x\([0-9a-f]*\)/0x11111111\1/' '$SNAP'" "$cl: core section"
corrupt fields "sed '${cl}s/ ok$//' '$SNAP'" "$cl: core section: expected"
corrupt dupkey "sed '4s/.*/ARCH x86_64\nARCH x86_64/' '$SNAP'" "5: header key given twice"
corrupt nokey "sed '/^ARCH /d' '$SNAP'" "[0-9]+: header key ARCH missing"
corrupt orphan "sed '0,/^module /{/^module /d}' '$SNAP'" "[0-9]+: region/section before any module line"
corrupt buildid "sed '/^module /s/ [0-9a-f]\{40\} / xyz /' '$SNAP'" "[0-9]+: module: BUILD_ID is neither hex nor '-'"
corrupt endcount "sed '\$s/.*/end 3/' '$SNAP'" "$L: end: line count does not match"
corrupt after "cat '$SNAP'; echo junk" "$((L + 1)): text after the 'end' line"
corrupt nul "sed '9s/ok/o\x00k/' '$SNAP'" "9: NUL byte in line"
corrupt binary "head -c 3000 /bin/sh" "1: "
corrupt wrap "sed '0,/^region text /s/^region text \(0x[0-9a-f]*\) 0x[0-9a-f]*/region text \1 0xffffffffffffff00/' '$SNAP'" "[0-9]+: module memory: ADDRESS\\+SIZE wraps around"
corrupt record "sed 's/^anchor /anchr /' '$SNAP'" "[0-9]+: unknown record"

# ---------------------------------------------------------------- corrupt maps
badmap() {
	local name="$1" how="$2" re="$3" f="$W/badmap.$1"
	eval "$how" > "$f"
	run "bm_$name" resolve --snapshot "$SNAP" --kallsyms "$f" 0x1
	expect_rc "bm_$name" 1 "^kreloc: $f:$re" "corrupt map ($name) -> exit 1 with FILE:LINE"
}
badmap nothex "sed '500s/^f/g/' '$W/kallsyms'" "500: address is not hexadecimal"
badmap notype "sed '600s/ [tTdD] / TT /' '$W/kallsyms'" "600: expected a one-letter symbol type"
badmap truncated "head -c \$(( \$(head -n 700 '$W/kallsyms' | wc -c) + 10 )) '$W/kallsyms'" "701: expected a blank after the address"
badmap nul "sed '800s/ / \x00/' '$W/kallsyms'" "800: NUL byte in line"
badmap longaddr "sed '900s/^/1/' '$W/kallsyms'" "900: address out of range"

# ---------------------------------------------------------------- fuzzing
if [ -n "${KRELOC_FUZZ:-}" ] && [ -x "$top/tools/cli/fuzz/fuzz_snapshot" ]; then
	for f in fuzz_snapshot fuzz_sysmap fuzz_spec fuzz_kelf fuzz_text fuzz_vmcore; do
		fz="$top/tools/cli/fuzz/$f"
		mkdir -p "$W/corpus.$f"
		case $f in
		fuzz_snapshot) cp "$SNAP" "$DATA/snapshot-v1" "$W/corpus.$f/" 2>/dev/null ;;
		fuzz_sysmap) head -200 "$W/kallsyms" > "$W/corpus.$f/map"; (printf '\001'; head -50 "$W/kallsyms") > "$W/corpus.$f/ks" ;;
		fuzz_spec) printf 'schedule+0x10' > "$W/corpus.$f/a"; printf 'vmlinux:0xffffffff81000000' > "$W/corpus.$f/b"; printf 'mod-x:.sym+3' > "$W/corpus.$f/c" ;;
		fuzz_kelf) xz -dc "$DATA/modules/dummy.ko.xz" > "$W/corpus.$f/dummy.ko" ;;
		fuzz_text) cp "$W/text.in" "$W/corpus.$f/" ;;
		fuzz_vmcore) cp "$top/tools/cli/fuzz/seeds/fuzz_vmcore/"* "$W/corpus.$f/" ;;
		esac
		if "$fz" -runs=20000 -max_total_time=10 -max_len=65536 "$W/corpus.$f" > "$W/$f.log" 2>&1; then
			ok "fuzz: $f bounded run ($(grep -oE '#[0-9]+' "$W/$f.log" | tail -1) execs) without a crash"
		else
			nok "fuzz: $f"; tail -30 "$W/$f.log" | diag
		fi
	done
else
	skip "fuzz targets" "no clang/libFuzzer build (make -C tools/cli fuzz)"
fi

echo "1..$n"
exit $failed
