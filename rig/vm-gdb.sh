#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-gdb.sh ENV RESULTS: gdb debugs a KASLR'd kernel and its modules with
# the script `kreloc gdb` makes from a snapshot.  ENV is a kernel booted
# under QEMU with a gdbstub: one with a symbol-bearing vmlinux (VMLINUX;
# rig/kernel-debug.sh), or a Debian kernel (rig/kernel-amd64.sh 6.1), whose
# vmlinux rig/vmlinux-symbols.sh makes from the image's own ELF and the
# symbols of the link-time map (a nokaslr boot's /proc/kallsyms).  In the guest: load kreloc, vfat, kreloc_busy and dummy;
# save dummy's /proc/kallsyms lines and unload it; `kreloc snapshot`; pick
# 200 text and data symbols of /proc/kallsyms (core, vfat/fat, kreloc_busy,
# the unloaded dummy); then call kreloc_busy_spin() every 0.2 s until
# kreloc_busy_stop is set.  On the host, gdb-multiarch attaches twice:
# gdb gets vmlinux and the .ko files with their DWARF stripped: what the
# ELF symbol tables give, whether the kernel was built with DWARF or not.
#   1. control: vmlinux and kreloc_busy.ko loaded as they are, without
#      kreloc: the breakpoint on kreloc_busy_spin must not hit, and
#      `info symbol` must not name the addresses;
#   2. with `kreloc gdb --history`'s script: the breakpoint hits in
#      kreloc_busy_spin (the PC within its /proc/kallsyms range),
#      `info symbol` names all 200 addresses as /proc/kallsyms did, and gdb
#      writes 1 into kreloc_busy_stop through its symbol, ending the loop;
#   3. the build ids: vmlinux's note (readelf -n) is the running kernel's
#      (the snapshot's BUILD_ID), and `kreloc gdb` refuses a copy of vmlinux
#      whose build id differs in one byte.
# Appends "passed failed skipped" to RESULTS.  KRELOC_RUN_TAG=NAME puts the
# work dir at $CACHE/run/NAME-dbgtools-..., apart from another tree's run.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

envf="$1" results="$2"
# shellcheck disable=SC1090
. "$envf"
top=$(cd "$(dirname "$0")/.." && pwd)
need_pkgs libelf-dev zlib1g-dev kmod gdb-multiarch python3 binutils
# ENV's VMLINUX, or one made from the image and the link-time map
VMLINUX=$("$top/rig/vmlinux-symbols.sh" "$envf") || die "no vmlinux with symbols for $envf"
work="$CACHE/run/${KRELOC_RUN_TAG:+$KRELOC_RUN_TAG-}dbgtools-gdb-$KVER"
rm -rf "$work"
stage_t0=$(date +%s)
mkdir -p "$work/stage/kreloc" "$work/src" "$work/busy"

"$top/rig/build-kreloc.sh" "$envf" "$work/build" ${SYSTEM_MAP:+SYSTEM_MAP="$SYSTEM_MAP"}
cp "$top/tests/dbgtools/module/"*.c "$top/tests/dbgtools/module/Kbuild" "$work/busy/"
make -s -C "$KDIR" M="$work/busy" modules >/dev/null 2>&1 || die "cannot build kreloc_busy"
for m in "$work/build/kreloc.ko" "$work/busy/kreloc_busy.ko"; do
	# a kernel that checks module signatures gets signed ones
	if [ -n "${SIGN_FILE:-}" ]; then
		"$SIGN_FILE" "$SIGN_HASH" "$SIGN_KEY" "$SIGN_CERT" "$m"
	fi
	cp "$m" "$work/stage/kreloc/"
done
cp -r "$top/tools" "$top/lib" "$work/src/"
make -s -C "$work/src/tools/cli" clean >/dev/null
make -s -C "$work/src/tools/cli" kreloc kreloc-static >&2
cp "$work/src/tools/cli/kreloc-static" "$work/stage/kreloc/kreloc"
"$top/rig/stage-modules.sh" "$(mod_root "$MODDIR")" "$KVER" "$work/stage" vfat dummy

cat > "$work/stage/kreloc/job" <<'EOT'
#!/bin/sh
d=/sys/kernel/debug/kreloc_busy
insmod ./kreloc.ko
modprobe vfat
insmod ./kreloc_busy.ko
modprobe dummy
grep '\[dummy\]' /proc/kallsyms > /tmp/dummy.ks
rmmod dummy
./kreloc snapshot -o /tmp/snap
echo "SNAPSHOT-BEGIN"; cat /tmp/snap; echo "SNAPSHOT-END"
# 200 symbols of this boot, each alone at its address: 120 core, 80 in modules.
{ grep -v '\[dummy\]' /proc/kallsyms; cat /tmp/dummy.ks; } | sort > /tmp/ks
awk -v seed="$(cut -c1-8 /proc/sys/kernel/random/boot_id | tr -dc 0-9)" '
function pick(arr, cnt, k,   j, x, tries) {
	for (j = 0; j < k && tries < 100 * k; tries++) {
		x = arr[int(rand() * cnt) + 1]
		if (x in used) continue
		used[x] = 1; j++
		print a[x], a[x + 1], t[x], n[x], m[x]
	}
}
{ a[NR] = $1; t[NR] = $2; n[NR] = $3; m[NR] = $4 }
END {
	srand(seed + 0)
	for (i = 2; i < NR; i++) {
		if (a[i] == a[i - 1] || a[i] == a[i + 1]) continue
		if (t[i] !~ /^[tTdDrRbB]$/ || a[i] < "ffffffff80000000") continue
		if (m[i] != "") mod[++nm] = i; else core[++nc] = i
	}
	pick(core, nc, 120); pick(mod, nm, 80)
}' /tmp/ks > /tmp/pick
# kreloc_busy_spin's range, for the breakpoint: its address, the next one's
awk '$3 == "kreloc_busy_spin" {a = $1; next} a != "" && $1 != a {print "SPIN", a, $1; exit}' /tmp/ks
echo "SAMPLES-BEGIN"; cat /tmp/pick; echo "SAMPLES-END"
# until gdb sets kreloc_busy_stop, or for 4 minutes (the host's two gdb
# runs take well under one)
i=0 end=$(($(date +%s) + 240))
while [ "$(cat $d/stop)" = 0 ] && [ "$(date +%s)" -lt $end ]; do
	echo 1 > $d/spin
	i=$((i + 1))
	echo "TRIGGER $i"
	sleep 0.2
done
echo "STOPPED stop=$(cat $d/stop) triggers=$i spins=$(cat $d/spins)"
EOT
chmod +x "$work/stage/kreloc/job"

build_s=$(( $(date +%s) - stage_t0 ))
sock="$work/gdb.sock"
KRELOC_QEMU_EXTRA="-gdb unix:$sock,server=on,wait=off" KRELOC_VM_TIMEOUT=900 \
	"$top/rig/run-vm.sh" "$envf" "$work/stage" "$work/console.log" "" "$work/out.log" &
vm=$!
# What gdb gets, while the guest boots: vmlinux and the .ko files without
# their DWARF (objcopy --strip-debug), so that the test shows what the ELF
# symbol tables alone give, whether or not the kernel was built with DWARF.
mkdir -p "$work/sym"
objcopy --strip-debug "$VMLINUX" "$work/sym/vmlinux"
(cd "$work/stage" && find . -name '*.ko') | while read -r ko; do
	mkdir -p "$work/sym/$(dirname "$ko")"
	objcopy --strip-debug "$work/stage/$ko" "$work/sym/$ko"
done
part() { tr -d '\r' < "$work/out.log" | sed -n "/^$1-BEGIN\$/,/^$1-END\$/p" | sed '1d;$d'; }
t0=$(date +%s)
until grep -q '^SAMPLES-END' "$work/out.log" 2>/dev/null; do
	if ! kill -0 $vm 2>/dev/null || [ $(( $(date +%s) - t0 )) -gt 600 ]; then
		log "the guest gave no samples (see $work/console.log)"
		break
	fi
	sleep 1
done
part SNAPSHOT > "$work/snap"
part SAMPLES > "$work/samples"
log "guest ready after $(( $(date +%s) - t0 ))s"

# The 200 runtime addresses: each symbol, or a function plus a few bytes
# inside it.  gdb knows a function's size and calls the alignment padding
# after it "No symbol", /proc/kallsyms does not: the offset stays below the
# ELF size (of a name that occurs once in its file) and the next symbol.
{
	readelf -sW "$VMLINUX" | awk '$4 == "FUNC" || $4 == "OBJECT" {print "-", $8, $3}'
	find "$work/stage" -name '*.ko' | while read -r ko; do
		m=$(basename "$ko" .ko)
		readelf -sW "$ko" | awk -v m="[${m//-/_}]" '$4 == "FUNC" || $4 == "OBJECT" {print m, $8, $3}'
	done
} | awk '{k = $1 " " $2; n[k]++; size[k] = $3} END {for (k in n) if (n[k] == 1) print k, size[k]}' \
	> "$work/sizes"
# every name the vmlinux has, however often
readelf -sW "$VMLINUX" | awk 'NF >= 8 && $8 != "" {print $8}' | sort -u > "$work/core-names"
# The vmlinux's labels of size 0 inside a symbol whose size covers them
# (entry_SYSRETQ_end in entry_SYSCALL_64): gdb names such an address by
# the symbol around it, kallsyms by the label.
readelf -sW "$VMLINUX" | python3 -c '
import sys
syms = []
for line in sys.stdin:
    f = line.split()
    if len(f) >= 8 and f[0].endswith(":") and f[3] not in ("SECTION", "FILE"):
        try:
            syms.append((int(f[1], 16), int(f[2], 0), f[7]))
        except ValueError:
            pass
syms.sort()
end = 0
for a, size, name in syms:
    if size == 0 and a < end:
        print(name)
    end = max(end, a + size) if size else end
' | sort -u > "$work/core-shadowed"
: > "$work/addrs"
while read -r a next type name mod; do
	off=0
	# A module's data object of size 0 (a lockdep key without lockdep,
	# __key.4 in kreloc) is a name kallsyms gives and gdb, which names an
	# object only inside its size, never does: not a sample.
	if [[ $type != [tT] ]] && [ -n "${mod:-}" ] &&
	   [ "$(awk -v k="$mod $name" '$1 " " $2 == k {print $3}' "$work/sizes")" = 0 ]; then
		continue
	fi
	# A core data symbol the vmlinux does not have (a marker past every
	# section, such as __init_scratch_end, which rig/vmlinux-symbols.sh
	# leaves out) is one gdb cannot name: not a sample either.
	if [[ $type != [tT] ]] && [ -z "${mod:-}" ] &&
	   ! grep -qxF -- "$name" "$work/core-names"; then
		continue
	fi
	if [[ $type == [tT] ]] && [ -z "${mod:-}" ] && grep -qxF -- "$name" "$work/core-shadowed"; then
		continue
	fi
	if [[ $type == [tT] ]]; then
		span=$(( 0x$next - 0x$a ))
		size=$(awk -v k="${mod:--} $name" '$1 " " $2 == k {print $3}' "$work/sizes")
		# a name twice in its file has no size we could tell: its start;
		# size 0 (an assembler symbol, or the map's symbols) is unknown:
		# gdb then names the bytes up to the next symbol, as kallsyms
		if [ -z "$size" ]; then span=0; elif [ "$size" -gt 0 ] && [ "$size" -lt "$span" ]; then span=$size; fi
		[ $span -gt 64 ] && span=64
		[ $span -gt 1 ] && off=$(( RANDOM % span ))
	fi
	printf '0x%x %s %s %s\n' $(( 0x$a + off )) "$name" "$off" "${mod:-}" >> "$work/addrs"
done < "$work/samples"

# gdb, attached to the running guest
rungdb() {	# NAME SCRIPT WAIT STOP
	KRELOC_GDB_OUT="$work/$1.res" KRELOC_GDB_ADDRS="$work/addrs" KRELOC_GDB_WAIT="$3" \
	KRELOC_GDB_STOP="$4" KRELOC_GDB_DUMP="${5:-}" timeout 300 gdb-multiarch -nx -batch \
		-ex 'set pagination off' -x "$2" -ex "target remote $sock" \
		-x "$top/tests/dbgtools/gdb_check.py" > "$work/$1.log" 2>&1 || true
}
busy_ko="$work/sym/kreloc/kreloc_busy.ko"
printf 'file %s\nadd-symbol-file %s\n' "$work/sym/vmlinux" "$busy_ko" > "$work/naive.gdb"
n0=$(grep -c '^TRIGGER' "$work/out.log" || true)
t1=$(date +%s)
rungdb naive "$work/naive.gdb" 10 0
n1=$(grep -c '^TRIGGER' "$work/out.log" || true)
t2=$(date +%s)
"$work/src/tools/cli/kreloc" gdb --snapshot "$work/snap" --vmlinux "$work/sym/vmlinux" \
	--modules-dir "$work/sym" --history -o "$work/kreloc.gdb" 2> "$work/kreloc-gdb.err" || true
rungdb kreloc "$work/kreloc.gdb" 60 1 "${KRELOC_GDB_DUMP:+$work/vmcore}"
t3=$(date +%s)
# The build ids: the running kernel's (the snapshot's, read by the module)
# and vmlinux's note; then a copy of vmlinux with one byte of that note
# changed, which `kreloc gdb` must refuse as another build.
snap_id=$(awk '$1 == "BUILD_ID" {print $2}' "$work/snap")
vml_id=$(readelf -n "$work/sym/vmlinux" | awk '$1 == "Build" && $2 == "ID:" {print $3; exit}')
python3 - "$work/sym/vmlinux" "$work/other-vmlinux" "${vml_id:-00}" <<'EOF'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
i = data.find(bytes.fromhex(sys.argv[3]))
if i >= 0 and len(sys.argv[3]) >= 16:
    data[i] ^= 0xff
open(sys.argv[2], "wb").write(data)
EOF
other_id=$(readelf -n "$work/other-vmlinux" | awk '$1 == "Build" && $2 == "ID:" {print $3; exit}')
other_rc=0
"$work/src/tools/cli/kreloc" gdb --snapshot "$work/snap" --vmlinux "$work/other-vmlinux" \
	--modules-dir "$work/sym" --history -o "$work/other.gdb" 2> "$work/other.err" || other_rc=$?
rm -f "$work/other-vmlinux"
wait $vm || log "the guest run failed (see $work/console.log)"
tr -d '\r' < "$work/out.log" > "$work/out"

# Judge a gdb run: how many `info symbol` answers equal /proc/kallsyms.
judge() {	# RES: prints "matches total"
	awk -v vmlinux=vmlinux '
	NR == FNR { want[$1] = $2 " " $3 " " $4; next }
	$1 == "SYM" {
		total++
		split(want[$2], w, " ")
		# "NAME + OFF in section S[ of FILE]" or "NAME in section S[ of FILE]"
		name = $3; off = ($4 == "+") ? $5 : 0
		# gdb prints the ELF symbol foo.cold as foo[cold], and without
		# DWARF it reads a__b as an Ada name, a.b; the numeric parts of
		# foo.constprop.0 or of a static variable bar.33 are in
		# /proc/kallsyms on some kernels and not on others: compare without
		sub(/\[cold\]$/, ".cold", name)
		# ...and gdb drops the leading dot of an assembler label
		# (.slowpath in /proc/kallsyms, slowpath in gdb)
		wname = w[1]
		gsub(/__/, ".", wname); gsub(/__/, ".", name)
		gsub(/\.[0-9]+/, "", wname); gsub(/\.[0-9]+/, "", name)
		sub(/^\./, "", wname); sub(/^\./, "", name)
		file = ""
		for (i = 4; i <= NF; i++) if ($i == "of") file = $(i + 1)
		sub(/.*\//, "", file)
		mod = w[3]; gsub(/[][]/, "", mod)
		if (name == wname && off == w[2] &&
		    (mod == "" ? file == "" || file == vmlinux : file == mod ".ko"))
			good++
		else if (bad++ < 3)
			print "# want " w[1] "+" w[2] " " w[3] ", gdb: " $0 > "/dev/stderr"
	}
	END { print good + 0, total + 0 }' "$work/addrs" "$1"
}
read -r naive_ok naive_n < <(judge "$work/naive.res" 2>/dev/null)
read -r ok_n total_n < <(judge "$work/kreloc.res" 2> "$work/judge.err")
hits_naive=$(sed -n 's/^HITS //p' "$work/naive.res" 2>/dev/null)
hits=$(sed -n 's/^HITS //p' "$work/kreloc.res" 2>/dev/null)
pc=$(sed -n 's/^PC 0x//p' "$work/kreloc.res" 2>/dev/null)
# kreloc_busy_spin's range in this boot's /proc/kallsyms, as the guest
# printed it: the breakpoint must be inside [start, next symbol).
spin_lo='' spin_hi=''
read -r spin_lo spin_hi < <(awk '$1 == "SPIN" {print $2, $3; exit}' "$work/out") || true
{
	echo "KRELOC-TEST-BEGIN dbgtools-gdb"
	echo "TAP version 13"
	echo "1..8"
	echo "# stage took $(( $(date +%s) - stage_t0 ))s, building ${build_s}s of it"
	echo "# guest ready after $(( t1 - t0 ))s; control gdb run $(( t2 - t1 ))s, kreloc run $(( t3 - t2 ))s"
	sed 's/^/# kreloc gdb: /' "$work/kreloc-gdb.err"
	grep -E '^(symbol-file|add-symbol-file)' "$work/kreloc.gdb" 2>/dev/null | cut -c1-150 | sed 's/^/# script: /' || true
	sed -n 's/^/# control: /p' "$work/naive.res" | grep -E 'BREAK|HITS' || true
	sed -n 's/^/# kreloc: /p' "$work/kreloc.res" | grep -E 'BREAK|HITS|PC|BT|STOP' || true
	sed 's/^/# /' "$work/judge.err"
	if [ "${hits_naive:-x}" = 0 ] && [ $(( n1 - n0 )) -gt 0 ]; then
		echo "ok 1 without kreloc the breakpoint on kreloc_busy_spin does not hit ($(( n1 - n0 )) calls in the guest meanwhile)"
	else
		echo "not ok 1 without kreloc the breakpoint on kreloc_busy_spin does not hit (hits ${hits_naive:-?}, $(( n1 - n0 )) calls)"
	fi
	# (a few of the 200 drawn may have been left out above: size-0 objects,
	# markers past every section)
	nsamp=$(wc -l < "$work/addrs")
	[ "$nsamp" -ge 190 ] || nsamp=200
	if [ "${naive_n:-0}" -eq "$nsamp" ] && [ "$naive_ok" -lt "$nsamp" ]; then
		echo "ok 2 without kreloc info symbol names $naive_ok of $nsamp addresses as /proc/kallsyms"
	else
		echo "not ok 2 without kreloc info symbol names ${naive_ok:-?} of ${naive_n:-?} addresses"
	fi
	if [ "${hits:-0}" -ge 1 ] && [ -n "$pc" ] && [ -n "$spin_lo" ] &&
	   [[ ! "$pc" < "$spin_lo" ]] &&
	   [[ "$pc" < "${spin_hi:-g}" ]]; then
		echo "ok 3 with kreloc gdb's script the breakpoint hits in kreloc_busy_spin (pc 0x$pc, /proc/kallsyms [$spin_lo, $spin_hi))"
	else
		echo "not ok 3 with kreloc gdb's script the breakpoint hits in kreloc_busy_spin (hits ${hits:-?}, pc ${pc:-?}, [$spin_lo, $spin_hi))"
	fi
	if [ "${total_n:-0}" -eq "$nsamp" ] && [ "$ok_n" -eq "$nsamp" ]; then
		echo "ok 4 info symbol names all $nsamp addresses (core, modules, the unloaded dummy) as /proc/kallsyms"
	else
		echo "not ok 4 info symbol names ${ok_n:-?} of ${total_n:-?} addresses as /proc/kallsyms"
	fi
	core=$(awk '$4 == ""' "$work/addrs" | wc -l)
	echo "# samples: $core core, $(grep -c '\[dummy\]' "$work/addrs" || true) in the unloaded dummy, $(wc -l < "$work/addrs") in all"
	if grep -q '^STOP ok' "$work/kreloc.res" 2>/dev/null && grep -q '^STOPPED stop=1 ' "$work/out"; then
		echo "ok 5 gdb's write to kreloc_busy_stop (module .bss, by symbol) reached the module: $(grep '^STOPPED' "$work/out")"
	else
		echo "not ok 5 gdb's write to kreloc_busy_stop reached the module: $(grep '^STOPPED' "$work/out" || echo 'no STOPPED line')"
	fi
	if grep -q '^add-symbol-file .*dummy\.ko' "$work/kreloc.gdb" 2>/dev/null &&
	   grep -q '^# dummy: gone' "$work/kreloc.gdb"; then
		echo "ok 6 the script places the unloaded dummy (--history) at its old addresses"
	else
		echo "not ok 6 the script places the unloaded dummy (--history) at its old addresses"
	fi
	if [ -n "$snap_id" ] && [ "$snap_id" = "$vml_id" ] && grep -q '^symbol-file ' "$work/kreloc.gdb"; then
		echo "ok 7 vmlinux has the running kernel's build id $vml_id, and kreloc gdb placed it"
	else
		echo "not ok 7 vmlinux has the running kernel's build id (vmlinux ${vml_id:-none}, snapshot ${snap_id:-none})"
	fi
	if [ "$other_rc" -ne 0 ] && [ -n "$other_id" ] && [ "$other_id" != "$vml_id" ] &&
	   grep -q 'another build' "$work/other.err" && ! grep -q '^symbol-file ' "$work/other.gdb" 2>/dev/null; then
		echo "ok 8 kreloc gdb refuses a vmlinux of build id $other_id (exit $other_rc: $(head -c 160 "$work/other.err"))"
	else
		echo "not ok 8 kreloc gdb refuses a vmlinux of another build id (${other_id:-none}; exit $other_rc: $(head -c 160 "$work/other.err"))"
	fi
	echo "KRELOC-TEST-END dbgtools-gdb rc=0"
} > "$work/host.log"
KRELOC_PLAN=dbgtools-gdb:8 KRELOC_TAG="$UNAME_M $KVER" "$top/rig/ktap.sh" "$work/host.log" "$work/console.log" "$results"
