#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-vmcore.sh ENV RESULTS: kreloc after a crash, from QEMU's dump of the
# guest (-device vmcoreinfo, the QMP command dump-guest-memory) alone.
#   Boot 1: before kreloc is loaded the host dumps the guest (a kernel
#   without kreloc); then kreloc, dummy and kreloc_crash, whose thread
#   sleeps on a timer in its innermost function (tests/vmcore/module);
#   kreloc_crash's /proc/kallsyms lines and sysfs sections are saved, it is
#   unloaded, `kreloc snapshot` is taken; the timer fires, the thread
#   returns into freed text, the Oops panics (panic_on_oops), the host
#   dumps the guest.
#   Boot 2 (a test build): the crash hits while kreloc records an event:
#   it sleeps before publishing dummy's new record (test_dump_stall=), the
#   guest takes `kreloc snapshot` and crashes (sysrq c); the host dumps it.
#   Host: `kreloc snapshot --vmcore` of each dump against the snapshot the
#   guest took; the Oops's RIP and the module addresses on the crashed
#   thread's stack (read from the dump by drgn) resolved, by `kreloc
#   resolve` and by drgn 0.0.31 in a trixie root with kreloc_drgn.py, as
#   the saved /proc/kallsyms names them, with the source lines addr2line
#   reads at the sysfs section offsets; drgn 0.0.22 (bookworm) refused; a
#   truncated dump, one with a record torn (a byte changed), a dump of a
#   kernel without kreloc, and the dump said to be another architecture's
#   (its ELF e_machine changed), each with its error or mark.
# Appends "passed failed skipped" to RESULTS.  KRELOC_RUN_TAG: as in
# vm-tests.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

envf="$1" results="$2"
# shellcheck disable=SC1090
. "$envf"
top=$(cd "$(dirname "$0")/.." && pwd)
need_pkgs kmod python3 binutils zlib1g-dev python3-drgn
map=$("$top/rig/groundtruth.sh" "$envf")
work="$CACHE/run/${KRELOC_RUN_TAG:+$KRELOC_RUN_TAG-}vmcore-$KVER"
rm -rf "$work"
mkdir -p "$work/stage/kreloc" "$work/stall/kreloc" "$work/src" "$work/crash" "$work/ko"
t0=$(date +%s)

[ "$UNAME_M" = x86_64 ] || die "vm-vmcore.sh reads x86_64 Oopses and stacks"
# kreloc as vm-tools.sh builds it and its test build as vm-tests.sh does
# (the build cache has them), the module that crashes, the CLI (static: the
# guest's and the host's).
"$top/rig/build-kreloc.sh" "$envf" "$work/build" VMLINUZ="$KIMAGE" SYSTEM_MAP=/nonexistent
"$top/rig/build-kreloc.sh" "$envf" "$work/build-hooks" LINKED_SOURCE=vmlinux SYSTEM_MAP=/nonexistent \
	VMLINUZ="${VMLINUZ:-$KIMAGE}" KRELOC_TEST_HOOKS=1
cp "$top/tests/vmcore/module/"* "$work/crash/"
kmake -s -C "$KDIR" M="$work/crash" modules > "$work/crash.log" 2>&1 ||
	{ cat "$work/crash.log" >&2; die "cannot build kreloc_crash"; }
cp -r "$top/tools" "$top/lib" "$top/dkms.conf" "$work/src/"
make -s -C "$work/src/tools/cli" kreloc-static >&2
K="$work/src/tools/cli/kreloc-static"
cp "$work/src/tools/cli/kreloc-static" "$work/stage/kreloc/kreloc"
cp "$work/src/tools/cli/kreloc-static" "$work/stall/kreloc/kreloc"
cp "$work/build/kreloc.ko" "$work/crash/kreloc_crash.ko" "$work/stage/kreloc/"
cp "$work/build-hooks/kreloc.ko" "$work/stall/kreloc/"
cp "$work/crash/kreloc_crash.ko" "$work/ko/"
modroot=$(mod_root "$MODDIR")
"$top/rig/stage-modules.sh" "$modroot" "$KVER" "$work/stage" qemu_fw_cfg dummy
"$top/rig/stage-modules.sh" "$modroot" "$KVER" "$work/stall" qemu_fw_cfg dummy
# drgn 0.0.31 where Debian has it.
trixie=$("$top/rig/root.sh" trixie python3-drgn)
build_s=$(( $(date +%s) - t0 ))

# Boot 1.  ttyS2 is the host's way to tell the guest that its first dump
# is taken (QEMU stops the guest's clocks while it dumps: the guest cannot
# tell by itself).
cat > "$work/stage/kreloc/job" <<'EOT'
#!/bin/sh
echo 0 > /proc/sys/kernel/panic
echo 1 > /proc/sys/kernel/panic_on_oops
modprobe qemu_fw_cfg
stty -F /dev/ttyS2 raw -echo
echo "DUMP-NOW without-kreloc"
read -r go < /dev/ttyS2
echo "DUMPED $go"
insmod ./kreloc.ko
modprobe dummy
insmod ./kreloc_crash.ko delay_ms=15000
grep '\[kreloc_crash\]' /proc/kallsyms > /tmp/ks
for f in /sys/module/kreloc_crash/sections/.*; do
	[ -f "$f" ] && echo "${f##*/} $(cat "$f")"
done > /tmp/sect
rmmod kreloc_crash
./kreloc snapshot -o /tmp/snap
echo "KALLSYMS-BEGIN"; cat /tmp/ks; echo "KALLSYMS-END"
echo "SECTIONS-BEGIN"; cat /tmp/sect; echo "SECTIONS-END"
echo "SNAPSHOT-BEGIN"; cat /tmp/snap; echo "SNAPSHOT-END"
echo "WAITING"
sleep 120
echo "NO-CRASH"
EOT
# Boot 2: kreloc sleeps before publishing dummy's record, the guest crashes.
cat > "$work/stall/kreloc/job" <<'EOT'
#!/bin/sh
echo 0 > /proc/sys/kernel/panic
modprobe qemu_fw_cfg
insmod ./kreloc.ko test_dump_stall=dummy test_dump_stall_ms=120000
# (an open waits for kreloc's setup, whose module scan the stall would hold up)
cat /sys/kernel/debug/kreloc/info > /dev/null
modprobe dummy &
i=0
while [ "$(cat /sys/module/kreloc/parameters/test_dump_state)" != 1 ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
./kreloc snapshot -o /tmp/snap
echo "SNAPSHOT-BEGIN"; cat /tmp/snap; echo "SNAPSHOT-END"
echo "STATE $(cat /sys/module/kreloc/parameters/test_dump_state)"
echo c > /proc/sysrq-trigger
EOT
chmod +x "$work/stage/kreloc/job" "$work/stall/kreloc/job"

part() { tr -d '\r' < "$1" | sed -n "/^$2-BEGIN\$/,/^$2-END\$/p" | sed '1d;$d'; }
# wait_for FILE PATTERN SECONDS VMPID: 0 once FILE has PATTERN.
wait_for() {
	local t=0
	until [ -f "$1" ] && tr -d '\r' < "$1" | grep -qE "$2"; do
		kill -0 "$4" 2>/dev/null || return 1
		[ $t -lt "$3" ] || return 1
		sleep 0.5
		t=$((t + 1))
	done
}
dump() {	# SOCKET FILE
	python3 "$top/rig/qmp.py" --timeout 300 "$1" dump-guest-memory \
		"{\"paging\": false, \"protocol\": \"file:$2\"}" > /dev/null
}
qemu_quit() { python3 "$top/rig/qmp.py" --timeout 30 "$1" quit '{}' > /dev/null 2>&1 || true; }

# 512 MiB: a smaller dump to write and read; QEMU takes the last -m.
vm_opts="-m 512 -device vmcoreinfo"
# boot_vm N STAGE [QEMU OPTIONS...]: guest N in the background ($vm), its QMP
# socket qmpN.sock, its console consoleN.log, its job's output outN.log.
boot_vm() {
	local n="$1" stage="$2"
	shift 2
	KRELOC_QEMU_EXTRA="$vm_opts -qmp unix:$work/qmp$n.sock,server=on,wait=off $*" \
		KRELOC_VM_TIMEOUT=600 "$top/rig/run-vm.sh" --expect-panic "$envf" "$stage" \
		"$work/console$n.log" "" "$work/out$n.log" &
	vm=$!
}
# dump_at_panic N FILE: when guest N panics, dump it into FILE and end it;
# sets dumped (1 if it did) and vm_rc (run-vm.sh's exit).
dump_at_panic() {
	dumped=0
	if wait_for "$work/console$1.log" 'Kernel panic' 300 $vm; then
		dump "$work/qmp$1.sock" "$2" && dumped=1
	fi
	qemu_quit "$work/qmp$1.sock"
	vm_rc=0
	wait $vm || vm_rc=$?
}
b1=$(date +%s)
boot_vm 1 "$work/stage" -chardev "socket,id=ctl,path=$work/ctl.sock,server=on,wait=off" \
	-device isa-serial,chardev=ctl,index=2
if wait_for "$work/out1.log" '^DUMP-NOW' 240 $vm; then
	dump "$work/qmp1.sock" "$work/vmcore-nokreloc"
	python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b"go\n"); s.close()' \
		"$work/ctl.sock" || log "cannot tell the guest to go on"
fi
dump_at_panic 1 "$work/vmcore"
crash_dumped=$dumped vm1_rc=$vm_rc
b2=$(date +%s)
boot_vm 2 "$work/stall"
dump_at_panic 2 "$work/vmcore-stall"
vm2_rc=$vm_rc
b3=$(date +%s)
tr -d '\r' < "$work/out1.log" > "$work/out1"
tr -d '\r' < "$work/out2.log" > "$work/out2"
part "$work/out1" SNAPSHOT > "$work/live.snap"
part "$work/out1" KALLSYMS > "$work/kallsyms"
part "$work/out1" SECTIONS > "$work/sections"
part "$work/out2" SNAPSHOT > "$work/stall-live.snap"

# A snapshot without the records of one module.
without() { awk -v m="$2" '$1 == "module" {skip = $2 == m} skip && ($1 == "region" || $1 == "section") {next} !($1 == "module" && skip)' "$1"; }
hdr() { awk -v k="$2" '$1 == k {print $2}' "$1"; }

# The crash: the RIP of the Oops and the words of the crashed thread's
# stack (RSP up to the top of its 16 KiB stack) that are text addresses of
# kreloc_crash, by its saved /proc/kallsyms lines.
rip=$(tr -d '\r' < "$work/console1.log" | sed -n 's/.*RIP: 0010:\(0x[0-9a-f]*\)$/\1/p' | head -1)
rsp=$(tr -d '\r' < "$work/console1.log" | sed -n 's/.*RSP: 0018:\([0-9a-f]*\) .*/\1/p' | head -1)
cat > "$work/stack.py" <<'EOF'
import struct, sys, drgn
prog = drgn.Program()
prog.set_core_dump(sys.argv[1])
rsp = int(sys.argv[2], 16)
data = prog.read(rsp, ((rsp | 0x3fff) + 1) - rsp)
for (w,) in struct.iter_unpack("<Q", data):
    print("0x%x" % w)
EOF
: > "$work/stack"
if [ "$crash_dumped" = 1 ] && [ -n "$rsp" ]; then
	IN_ROOT_CACHE=1 in_root "$trixie" python3 "$work/stack.py" "$work/vmcore" "$rsp" \
		> "$work/stack" 2> "$work/stack.err" || true
fi
# The ground truth of the module's addresses (tests/vmcore/truth.py): the
# RIP and the stack words in kreloc_crash's .text, each with its kallsyms
# name and the line addr2line reads in the .ko.
python3 "$top/tests/vmcore/truth.py" "$work/kallsyms" "$work/sections" "$work/ko/kreloc_crash.ko" \
	"$rip" "$work/stack" > "$work/truth" 2> "$work/truth.err" || true
cut -d' ' -f1 "$work/truth" > "$work/addrs"

# kreloc's answers.
rc_nok=0 rc_dump=0 rc_trunc=0 rc_torn=0 rc_stall=0 rc_res=0 rc_old=0
"$K" snapshot --vmcore "$work/vmcore-nokreloc" -o "$work/nokreloc.snap" \
	> "$work/nokreloc.out" 2> "$work/nokreloc.err" || rc_nok=$?
"$K" snapshot --vmcore "$work/vmcore" -o "$work/dump.snap" 2> "$work/dump.err" || rc_dump=$?
head -c $((16 << 20)) "$work/vmcore" > "$work/vmcore-cut" 2>/dev/null || true
"$K" snapshot --vmcore "$work/vmcore-cut" -o "$work/trunc.snap" 2> "$work/trunc.err" || rc_trunc=$?
rm -f "$work/vmcore-cut"
# The dump said to be another architecture's (its ELF header's e_machine
# EM_AARCH64, 183, for a while): the records' ARCH is not the dump's.
rc_arch=0
em0=$(od -An -tx1 -j18 -N2 "$work/vmcore" | tr -d ' ')
printf '\267\000' | dd of="$work/vmcore" bs=1 seek=18 conv=notrunc status=none
"$K" snapshot --vmcore "$work/vmcore" -o "$work/arch.snap" 2> "$work/arch.err" || rc_arch=$?
printf "\\x${em0:0:2}\\x${em0:2:2}" | dd of="$work/vmcore" bs=1 seek=18 conv=notrunc status=none
# Every address was seen at the crash: TAKEN, the panic's time.
taken=$(hdr "$work/dump.snap" TAKEN_LOCAL_NS)
at=""
case "$taken" in
"" | *[!0-9]*) ;;
*) at=$(printf '%d.%09d' $((taken / 1000000000)) $((taken % 1000000000))) ;;
esac
sed "s/\$/${at:+@$at}/" "$work/addrs" | "$K" resolve --snapshot "$work/dump.snap" --system-map "$map" \
	--modules-dir "$work/ko" --freed - > "$work/resolved" 2> "$work/resolve.err" || rc_res=$?
# ... and without the time: the memory kreloc_crash had was kreloc's init text before
"$K" resolve --snapshot "$work/dump.snap" --system-map "$map" --modules-dir "$work/ko" \
	- < "$work/addrs" > "$work/resolved-notime" 2>&1 || true
# The Oops as the console printed it, each line at its printk time.
tr -d '\r' < "$work/console1.log" | sed -n '/BUG: unable to handle page fault/,/end trace/p' |
	"$K" resolve --snapshot "$work/dump.snap" --system-map "$map" --modules-dir "$work/ko" \
	--text --clock perf --freed > "$work/oops-resolved" 2> "$work/oops.err" || true
# drgn 0.0.31: kreloc_drgn.py, run by drgn on the dump as README.md says,
# names the addresses from the dump and the .ko.
cp "$top/tools/cli/kreloc_drgn.py" "$work/"
# shellcheck disable=SC2046
IN_ROOT_CACHE=1 in_root "$trixie" drgn -q -c "$work/vmcore" "$work/kreloc_drgn.py" \
	--snapshot "$work/dump.snap" --modules-dir "$work/ko" $(cat "$work/addrs") \
	> "$work/drgn.out" 2> "$work/drgn.err" || true
drgn_new=$(IN_ROOT_CACHE=1 in_root "$trixie" python3 -c 'import drgn; print(drgn.__version__)' 2>/dev/null || echo none)
# (Debian's python3, which Debian's python3-drgn is for)
drgn_old=$(/usr/bin/python3 -c 'import drgn; print(drgn.__version__)' 2>/dev/null || echo none)
/usr/bin/drgn -q -c "$work/vmcore" "$work/kreloc_drgn.py" --snapshot "$work/dump.snap" \
	--modules-dir "$work/ko" > "$work/drgn-old.out" 2> "$work/drgn-old.err" || rc_old=$?
# A torn record: one byte of kreloc_crash's record changed in the dump.
torn=$(python3 "$top/tests/vmcore/blob.py" flip "$work/vmcore" kreloc_crash 2> "$work/blob.err") || torn=""
if [ -n "$torn" ]; then
	"$K" snapshot --vmcore "$work/vmcore" -o "$work/torn.snap" 2> "$work/torn.err" || rc_torn=$?
	# shellcheck disable=SC2086
	python3 "$top/tests/vmcore/blob.py" put "$work/vmcore" $torn
fi
"$K" snapshot --vmcore "$work/vmcore-stall" -o "$work/stall.snap" 2> "$work/stall.err" || rc_stall=$?
check() {	# N DESCRIPTION COMMAND...: one KTAP line
	local n="$1" d="$2"
	shift 2
	if "$@" > /dev/null 2>&1; then echo "ok $n $d"; else echo "not ok $n $d"; fi
}
# FILE names every address as the truth does, in kreloc_crash@GEN (and
# more than the RIP: the stack's addresses too).
names_match() {
	[ "$(wc -l < "$work/truth")" -ge 3 ] &&
	awk -v gen="$gen" 'NR == FNR { want[$1] = $2; next }
		{ a = $1; sub(/@.*/, "", a) }
		(a in want) && $2 == want[a] && index($3, "[kreloc_crash@" gen) == 1 { ok[a] = 1 }
		END { for (a in want) if (!(a in ok)) exit 1 }' "$work/truth" "$1"
}
# drgn's FILE:LINE of every address is addr2line's.
lines_match() {
	[ -s "$work/truth" ] &&
	awk 'function base(p) { sub(/.*\//, "", p); return p }
		NR == FNR { want[$1] = base($3); next }
		($1 in want) && base($NF) == want[$1] && want[$1] !~ /\?/ { ok[$1] = 1 }
		END { for (a in want) if (!(a in ok)) exit 1 }' "$work/truth" "$work/drgn.out"
}
resolve_ok() {
	names_match "$work/resolved" &&
	[ "$(grep -c '(freed at ' "$work/resolved")" = "$(wc -l < "$work/addrs")" ]
}
drgn_names() { grep -q "\[kreloc_crash@$gen (unloaded)\]" "$work/drgn.out" && names_match "$work/drgn.out"; }
# A snapshot's records and header, without what only a dump has or the
# moment of reading sets (and GENERATION, with which the two differ): two
# files compared so.
same_records() { diff <(grep -vE "^(TAKEN_|VMCORE_|end ${3:+|GENERATION })" "$1") \
	<(grep -vE "^(TAKEN_|VMCORE_|end ${3:+|GENERATION })" "$2"); }
torn_ok() {
	[ -n "$torn" ] && [ "$rc_torn" = 0 ] && grep -q "left out" "$work/torn.err" &&
	grep -qx "VMCORE_TORN 1" "$work/torn.snap" && ! grep -q "^module kreloc_crash " "$work/torn.snap" &&
	same_records "$work/torn.snap" <(without "$work/live.snap" kreloc_crash)
}
stall_ok() {
	grep -q "^module dummy " "$work/stall-live.snap" && ! grep -q "^module dummy " "$work/stall.snap" &&
	same_records "$work/stall.snap" <(without "$work/stall-live.snap" dummy) generation
}
# The record of kreloc_crash and its generation, from the guest's snapshot.
gen=$(awk '$1 == "module" && $2 == "kreloc_crash" {print $6}' "$work/live.snap")
panic_t=$(tr -d '\r' < "$work/console1.log" | sed -n 's/^\[ *\([0-9]*\)\.\([0-9]*\)\] Kernel panic.*/\1\2/p' | head -1)
live_taken=$(hdr "$work/live.snap" TAKEN_LOCAL_NS)
{
	echo "KRELOC-TEST-BEGIN vmcore"
	echo "TAP version 13"
	echo "1..15"
	echo "# built in ${build_s}s; boot 1 (two dumps) $((b2 - b1))s, boot 2 (one dump) $((b3 - b2))s; run-vm exit $vm1_rc, $vm2_rc"
	echo "# dumps: $(ls -l "$work"/vmcore* 2>/dev/null | awk '{printf "%s %s B; ", $NF, $5}')"
	echo "# the Oops: RIP $rip, RSP $rsp; module addresses: $(xargs < "$work/addrs")"
	sed 's/^/# stack read: /' "$work/stack.err" | head -3
	sed 's/^/# resolve: /' "$work/resolved"
	sed 's/^/# resolve, without the time: /' "$work/resolved-notime"
	grep -E 'RIP:|R15:' "$work/oops-resolved" | sed 's/^/# resolve --text: /' || true
	sed 's/^/# drgn 0.0.31: /' "$work/drgn.out" | grep -v '^# drgn 0.0.31: # ' || true
	sed 's/^/# truth: /' "$work/truth" "$work/truth.err"
	check 1 "a dump of the kernel before kreloc was loaded: exit 1, no kreloc records (exit $rc_nok: $(head -c 200 "$work/nokreloc.err"))" \
		sh -c '[ "$1" = 1 ] && grep -q "no kreloc records" "$2" && [ ! -s "$3" ]' sh "$rc_nok" \
		"$work/nokreloc.err" "$work/nokreloc.snap"
	check 2 "kreloc snapshot --vmcore of the crash dump: exit 0, nothing left out, no warning (exit $rc_dump; $(head -c 200 "$work/dump.err"))" \
		sh -c '[ "$1" = 0 ] && [ ! -s "$2" ] && grep -qx "VMCORE_TORN 0" "$3" &&
			grep -qx "VMCORE_BUSY -" "$3" && grep -qx "VMCORE_UNPUBLISHED 0" "$3"' sh "$rc_dump" \
		"$work/dump.err" "$work/dump.snap"
	if [ -s "$work/live.snap" ] && [ -n "$gen" ] && same_records "$work/live.snap" "$work/dump.snap" > "$work/diff" 2>&1; then
		echo "ok 3 it equals the snapshot the guest took before the crash in every record and header key ($(grep -c '^module ' "$work/dump.snap") module records, kreloc_crash unloaded at generation $gen)"
	else
		sed 's/^/# /' "$work/diff" | head -20
		echo "not ok 3 it equals the snapshot the guest took before the crash in every record and header key"
	fi
	check 4 "its TAKEN is the panic: after the guest's snapshot ($live_taken ns) and at the console's 'Kernel panic' (${panic_t}000 ns) or within 1 s after ($taken ns)" \
		sh -c '[ -n "$1" ] && [ -n "$2" ] && [ -n "$3" ] && [ "$1" -gt "$2" ] &&
			[ "$1" -ge "${3}000" ] && [ "$1" -lt "$(( ${3}000 + 1000000000 ))" ]' sh \
		"$taken" "$live_taken" "$panic_t"
	check 5 "kreloc resolve --freed, each seen at the crash (@$at), names the RIP and the stack's $(($(wc -l < "$work/addrs") - 1)) module addresses as /proc/kallsyms did, in the unloaded kreloc_crash@$gen, freed before (exit $rc_res)" \
		resolve_ok
	check 6 "the RIP is in kreloc_crash_inner, the stack holds kreloc_crash_middle and kreloc_crash_outer" \
		sh -c 'grep -q "^$1@[0-9.]* kreloc_crash_inner+" "$2" && grep -q " kreloc_crash_middle+" "$2" &&
			grep -q " kreloc_crash_outer+" "$2"' sh "$rip" "$work/resolved"
	check 7 "the Oops from the console, kreloc resolve --text --clock perf --freed (printk's times): the RIP line names $(awk 'NR == 1 {print $2}' "$work/truth") [kreloc_crash@$gen] freed" \
		grep -q "RIP: 0010:$rip <$(awk 'NR == 1 {print $2}' "$work/truth") \\[kreloc_crash@$gen\\] freed>" \
		"$work/oops-resolved"
	check 8 "drgn $drgn_new (drgn -c DUMP kreloc_drgn.py) names them the same, in a module kreloc_crash@$gen (unloaded)" \
		drgn_names
	check 9 "drgn $drgn_new gives each the source line addr2line reads in the .ko at its sysfs .text offset" \
		lines_match
	check 10 "drgn $drgn_old (bookworm): kreloc_drgn.py says it lacks Program.relocatable_module() and stops, exit 3 (exit $rc_old: $(head -c 160 "$work/drgn-old.err"))" \
		sh -c '[ "$1" = 3 ] && grep -q "has no Program.relocatable_module()" "$2" && [ ! -s "$3" ]' sh \
		"$rc_old" "$work/drgn-old.err" "$work/drgn-old.out"
	check 11 "a truncated dump (its first 16 MiB): exit 1, 'truncated' (exit $rc_trunc: $(head -c 200 "$work/trunc.err"))" \
		sh -c '[ "$1" = 1 ] && grep -q ": truncated: PT_LOAD" "$2" && [ ! -s "$3" ]' sh "$rc_trunc" \
		"$work/trunc.err" "$work/trunc.snap"
	check 12 "one byte of kreloc_crash's record changed in the dump (${torn:-not found}): that record left out with a warning, VMCORE_TORN 1, every other as before (exit $rc_torn: $(head -c 200 "$work/torn.err"))" \
		torn_ok
	check 13 "the crash hit while kreloc published dummy's new record: VMCORE_BUSY dummy, with a warning (exit $rc_stall: $(head -c 200 "$work/stall.err"))" \
		sh -c '[ "$1" = 0 ] && grep -qx "VMCORE_BUSY dummy" "$2" && grep -q "while kreloc recorded an event of dummy" "$3"' \
		sh "$rc_stall" "$work/stall.snap" "$work/stall.err"
	check 14 "...and every record but dummy's equals the guest's snapshot then; dummy's new record, not yet published, is not taken ($(grep -c '^module dummy ' "$work/stall-live.snap") in the guest's)" \
		stall_ok
	check 15 "a dump whose ELF header says aarch64 (e_machine 183, was 0x$em0): exit 1, the records are x86_64's (exit $rc_arch: $(head -c 200 "$work/arch.err"))" \
		sh -c '[ "$1" = 1 ] && grep -q "a dump of ELF machine 183, but kreloc.s records are of ARCH x86_64" "$2" && [ ! -s "$3" ] &&
			[ "$4" = 3e00 ]' sh "$rc_arch" "$work/arch.err" "$work/arch.snap" "$em0"
	echo "KRELOC-TEST-END vmcore rc=0"
} > "$work/host.log"
# The consoles: nothing but the crashes made on purpose.  Up to boot 1's
# Oops (kreloc_crash's thread) and boot 2's sysrq, nothing may be reported.
for c in 1 2; do
	tr -d '\r' < "$work/console$c.log" | sed '/BUG: unable to handle page fault\|sysrq: Trigger a crash/,$d' \
		> "$work/console$c.before"
done
cat "$work/console1.before" "$work/console2.before" > "$work/consoles"
rm -f "$work"/vmcore*
KRELOC_PLAN=vmcore:15 KRELOC_TAG="$UNAME_M $KVER" "$top/rig/ktap.sh" "$work/host.log" \
	"$work/consoles" "$results"
