#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_debuginfod.sh KRELOC WORKDIR: kreloc's files by build id from a real
# debuginfod server (Debian's `debuginfod`, on 127.0.0.1 at a free port,
# started and stopped here), one KTAP document on stdout.
#
# The data is a guest's (tests/tools/data/amd64-6.1-fleet, capture-testdata.sh
# fleet): a snapshot with vfat (Debian's stripped .ko, which no debuginfod
# serves), kreloc_busy live and kreloc_gone unloaded before the snapshot
# (both built here, with DWARF, as a -dbg package holds them), and that
# boot's /proc/kallsyms.  The vmlinux is the rig's ELF with symbols and the
# image's build id (rig/vmlinux-symbols.sh: KRELOC_TEST_VMLINUX, else
# the cache).  Ground truth: /proc/kallsyms for the core kernel (text and
# init) and the modules' core symbols (kreloc_gone's read while it was
# loaded); for module init code the .ko's own symbols at the recorded
# .init.text.  The cases:
#   - local files (--vmlinux, --modules-dir) name every address as the
#     ground truth does;
#   - a server indexing a directory (the vmlinux, the .ko files): no map
#     given, the same answers; the files' kinds (executable, debuginfo)
#     named; vfat's addresses say why they have no symbol; gdb and
#     kallsyms give what they give with the local files;
#   - the same again with the server gone: from DEBUGINFOD_CACHE_PATH;
#   - a server indexing a .deb laid out as linux-image-*-dbg (-U);
#   - a server with only another build of the same release: refused, the
#     build id looked for named, nothing taken by release;
#   - the server down, and one that never answers: exit 4 within a bound,
#     the reason, no name printed;
#   - a fleet (resolve --snapshot-dir): two boots of the build and one of
#     another, one pass, the vmlinux fetched once.
set -uo pipefail
K="$1" W="$2"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/fixtures.sh"
ktap_begin
mkdir -p "$W"
F="$here/data/amd64-6.1-fleet"
VML="${KRELOC_TEST_VMLINUX:-$CACHE/maps/$KVER.vmlinux}"
unset DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH
export DEBUGINFOD_TIMEOUT=5 DEBUGINFOD_RETRY_LIMIT=1
NT=25
if ! command -v debuginfod > /dev/null || [ ! -s "$F/snapshot" ] || [ ! -s "$VML" ] ||
   ! "$K" version | grep -q debuginfod; then
	why="no debuginfod (apt-get install debuginfod libdebuginfod-dev)"
	[ -s "$F/snapshot" ] || why="no $F (capture-testdata.sh fleet)"
	[ -s "$VML" ] || why="no vmlinux with symbols for $KVER (rig/vmlinux-symbols.sh)"
	"$K" version | grep -q debuginfod || why="kreloc built without debuginfod (libdebuginfod-dev)"
	for i in $(seq $NT); do skip "debuginfod" "$why"; done
	echo "1..$n"; exit 0
fi

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
metric() { python3 - "$1" "$2" <<'EOF'
import sys, urllib.request
try:
    t = urllib.request.urlopen(sys.argv[1] + "/metrics", timeout=2).read().decode()
except Exception:
    sys.exit(1)
v = [l.split()[-1] for l in t.splitlines() if l.startswith(sys.argv[2] + " ")]
print(v[0] if v else "")
EOF
}
# srv NAME ARGS...: a debuginfod on a free port, scanned; URL in $url, its pid in SRV_NAME.
srv() {
	local name="$1" p i; shift
	p=$(free_port)
	debuginfod -v -p "$p" -d "$W/$name.sqlite" -t0 -g0 "$@" > "$W/$name.log" 2>&1 &
	eval "SRV_$name=$!"
	url="http://127.0.0.1:$p"
	for i in $(seq 120); do
		if [ "$(metric "$url" 'ready')" = 1 ] && [ "$(metric "$url" 'thread_work_total{role="traverse"}')" != "" ] &&
		   [ "$(metric "$url" 'thread_work_pending{role="scan"}')" = 0 ] &&
		   [ "$(metric "$url" 'thread_busy{role="scan"}')" = 0 ] &&
		   [ "$(metric "$url" 'thread_busy{role="traverse"}')" = 0 ]; then
			return 0
		fi
		sleep 0.5
	done
	echo "# debuginfod $name did not get ready:" >&3; tail -5 "$W/$name.log" | diag
	return 1
}
stop() { local v="SRV_$1"; kill "${!v}" 2>/dev/null; wait "${!v}" 2>/dev/null; }
trap 'for s in ${!SRV_*}; do kill "${!s}" 2>/dev/null; done' EXIT
# run NAME CACHE URL ARGS...: kreloc with that server and cache
drun() { local name="$1" c="$2" u="$3"; shift 3
	DEBUGINFOD_URLS="$u" DEBUGINFOD_CACHE_PATH="$W/$c" "$K" "$@" > "$W/$name.out" 2> "$W/$name.err"; rc=$?; }

# ---------------------------------------------------------------- the data
S="$F/snapshot"
SID=$(awk '$1 == "BUILD_ID" {print $2}' "$S")
VID=$(readelf -nW "$VML" | sed -n 's/.*Build ID: //p' | head -1)
mkdir -p "$W/mods" "$W/dir"
for m in kreloc_busy kreloc_gone; do xz -dc "$F/modules/$m.ko.xz" > "$W/mods/$m.ko"; done
xz -dc "$F/kallsyms.xz" > "$W/kallsyms"
cp "$VML" "$W/dir/vmlinux"
cp "$W/mods/"*.ko "$W/dir/"
modid() { awk -v m="$1" '$1 == "module" && $2 == m {print $8}' "$S" | tail -1; }
# The addresses, each with the names it may get (symbols at one address are
# aliases: the kallsyms name and the others the vmlinux's or the .ko's
# symbol table has there; "-" for vfat: no symbol from the servers) and
# its module, and the records that held it.  Module memory is reused (in the
# capture of 2026-12-03 kreloc_busy's .text sits in fat's freed .init.text,
# kreloc_gone's in vfat's) and this format 2 snapshot has no times: such an
# address is ambiguous, every record that held it a candidate (holders.py,
# from the snapshot's regions), the right one among them.
python3 - "$W/kallsyms" "$F/kallsyms-gone" "$S" "$W/mods" "$VML" "$W/aliases" "$here" > "$W/want" <<'EOF'
import subprocess, sys
ks, gone, snap, mods, vml, alias_out = sys.argv[1:7]
sys.path.insert(0, sys.argv[7])
import holders
def symtab(path):
    """(section index, value) -> names of the FUNC/NOTYPE symbols, and name -> key"""
    at, key = {}, {}
    r = subprocess.run(["readelf", "-sW", path], capture_output=True, text=True).stdout
    for l in r.splitlines():
        f = l.split()
        if len(f) == 8 and f[3] in ("FUNC", "NOTYPE") and f[6] not in ("UND", "ABS"):
            k = (f[6], int(f[1], 16))
            at.setdefault(k, set()).add(f[7])
            key.setdefault(f[7], k)
    return at, key
vat, vkey = symtab(vml)
with open(alias_out, "w") as o:
    for names in vat.values():
        if len(names) > 1:
            print(",".join(sorted(names)), file=o)
def aliases(at, key, n):
    return sorted(at.get(key.get(n), set()) | {n})
want = {}
for l in open(ks):
    f = l.split()
    if len(f) == 3 and f[1] in "tT":
        want[int(f[0], 16) + 1] = (aliases(vat, vkey, f[2]), "")
    elif len(f) == 4 and f[3] == "[vfat]" and f[1] in "tT":
        want[int(f[0], 16) + 1] = (["-"], "vfat")
kos = {m: symtab("%s/%s.ko" % (mods, m)) for m in ("kreloc_busy", "kreloc_gone")}
for l in open(ks):
    f = l.split()
    if len(f) == 4 and f[3] == "[kreloc_busy]" and f[1] in "tT":
        want[int(f[0], 16) + 1] = (aliases(*kos["kreloc_busy"], f[2]), "kreloc_busy")
for l in open(gone):
    f = l.split()
    if len(f) == 4 and f[1] in "tT":
        want[int(f[0], 16) + 1] = (aliases(*kos["kreloc_gone"], f[2]), "kreloc_gone")
# module init code: the .ko's own init function at the record's .init.text
rec, gen, sec = None, {}, {}
for l in open(snap):
    f = l.split()
    if f and f[0] == "module":
        rec = f[1]
        gen[rec] = int(f[5])
    elif rec in kos and f[:2] == ["section", ".init.text"]:
        sec[rec] = int(f[2], 16)
for m in sorted(sec, key=lambda m: gen[m]):
    at, key = kos[m]
    k = key[m + "_init"]
    want[sec[m] + k[1] + 1] = (aliases(at, key, m + "_init"), m)
recs = holders.records(snap)
for a in sorted(want):
    n, m = want[a]
    h = holders.holders(recs, a)
    print("0x%x %s %s %s" % (a, ",".join(n), m or "-", ",".join(h) if len(h) > 1 else "-"))
EOF
awk '{print $1}' "$W/want" > "$W/addrs"
# Ambiguous answers count as unresolved: resolve exits 1 when there are any.
namb=$(awk '$4 != "-"' "$W/want" | wc -l)
want_rc=$([ "$namb" -gt 0 ] && echo 1 || echo 0)
nmod=$(awk '$3 != "-"' "$W/want" | wc -l)
ngone=$(awk '$3 == "kreloc_gone"' "$W/want" | wc -l)
ninit=$(awk '$3 != "-" && $2 ~ /(^|,)kreloc_[a-z]*_init(,|$)/' "$W/want" | wc -l)
# names OUT [HOST]: every answer is a wanted name (+0x1) and module (@GEN
# for unloaded ones); vfat's have no symbol and say why; an address several
# records held is "ambiguous:", each of them a candidate, the wanted one too.
names() { python3 - "$W/want" "$1" "${2:-}" "$here" <<'EOF'
import sys
sys.path.insert(0, sys.argv[4])
import holders
want = {}
for l in open(sys.argv[1]):
    a, n, m, h = l.split()
    want[a] = (n.split(","), "" if m == "-" else m, [] if h == "-" else h.split(","))
prefix = sys.argv[3]
bad, seen = [], set()
for l in open(sys.argv[2]):
    f = l.split()
    if prefix:
        if f[0] != prefix:
            continue
        f = f[1:]
    if not f or f[0] not in want:
        continue
    seen.add(f[0])
    n, m, h = want[f[0]]
    if h:
        rest = l.split(" ambiguous: ", 1)
        cands = holders.split_candidates(rest[1].strip()) if len(rest) == 2 and f[1] == "ambiguous:" else None
        ok = holders.check_candidates(cands, h, None) is None and \
            any(c[1] == 1 and c[0] in n and c[2].split("@")[0] == m for c in cands)
    elif n == ["-"]:
        ok = f[1].startswith(".") and "+0x" in f[1] and f[2] == "[vfat]" and "(" in l
    else:
        ok = f[1].endswith("+0x1") and f[1][:-4] in n and \
            (f[2].strip("[]").split("@")[0] == m if m else not f[2].startswith("["))
    if not ok:
        bad.append(l.strip())
missing = len(want) - len(seen)
if bad or missing:
    print("%d of %d answers wrong, %d missing, e.g. %s" % (len(bad), len(want), missing, bad[:2]))
    sys.exit(1)
print("%d answers right (%d of them ambiguous, as they must be)" % (len(seen), sum(1 for a in seen if want[a][2])))
EOF
}

# ---------------------------------------------------------------- local files
run l1 resolve --snapshot "$S" --vmlinux "$VML" --modules-dir "$W/mods" - < "$W/addrs"
res=$(names "$W/l1.out" ""); r=$?
check "local files: the guest's $(wc -l < "$W/addrs") core, init, module and module init addresses ($nmod in modules, $ninit module init, $ngone in kreloc_gone, unloaded before the snapshot) as its /proc/kallsyms and the .ko name them: $res" \
	test "$r" = 0 -a "$rc" = "$want_rc"
sed '1s/+0x1 /+0x2 /' "$W/l1.out" > "$W/l1.bad"
if names "$W/l1.bad" "" > /dev/null; then nok "the check catches one wrong answer"; else ok "the check catches one wrong answer"; fi
strip_notes() { sed 's/ (.*)$//' "$1"; }

# ---------------------------------------------------------------- a directory
srv dir -F "$W/dir" || true
U1="$url"
drun d1 c1 "$U1" resolve --snapshot "$S" - < "$W/addrs"
check "debuginfod (-F: vmlinux and .ko with DWARF), no map given: the same answers as with local files (exit $rc)" \
	bash -c '[ '"$rc"' = '"$want_rc"' ] && [ -s "$1" ] && cmp -s <(sed "s/ (.*)$//" "$1") <(sed "s/ (.*)$//" "$2")' bash "$W/d1.out" "$W/l1.out"
check "... the vmlinux fetched by the snapshot's build id as the executable, the .ko files as debuginfo, and so named" \
	sh -c 'grep -q "vmlinux (build id $2): debuginfod executable $3/c1/$2/executable" "$1" &&
		grep -q "kreloc_busy.ko (build id $4): debuginfod debuginfo" "$1" &&
		grep -q "kreloc_gone.ko (build id $5): debuginfod debuginfo" "$1"' sh "$W/d1.err" "$SID" "$W" "$(modid kreloc_busy)" "$(modid kreloc_gone)"
vid=$(modid vfat)
check "... vfat, which the server lacks: its addresses have no symbol and say why, naming its build id" \
	sh -c 'n=$(grep -c "\[vfat\] .text (debuginfod (.*) has no vfat.ko with build id $2 (asked for the executable and the debuginfo))$" "$1"); [ "$n" -gt 10 ]' sh "$W/d1.out" "$vid"
check "... and the server got each file it had once: the vmlinux, kreloc_busy.ko, kreloc_gone.ko" \
	sh -c '[ $(grep -c "GET /buildid/$2/executable 200" "$1") = 1 ] && [ $(grep -c "GET /buildid/[^ ]* 200 " "$1") = 3 ]' sh "$W/dir.log" "$SID"
# kallsyms and gdb from the server, against the same from local files
run k0 kallsyms --snapshot "$S" --vmlinux "$VML" --modules-dir "$W/mods" -o "$W/k0.ks"
drun k1 c1 "$U1" kallsyms --snapshot "$S" -o "$W/k1.ks"
check "kallsyms with debuginfod (no map): the same file as with local files ($(wc -l < "$W/k1.ks") lines; exit $rc)" \
	sh -c '[ '"$rc"' = 0 ] && [ -s "$1" ] && cmp -s "$1" "$2" && grep -q "	\[kreloc_gone\]$" "$1"' sh "$W/k1.ks" "$W/k0.ks"
run g0 gdb --snapshot "$S" --vmlinux "$VML" --modules-dir "$W/mods" --history
drun g1 c1 "$U1" gdb --snapshot "$S" --history
check "gdb with debuginfod: vmlinux and both modules from the cache, at the places local files give (exit $rc)" \
	bash -c '[ '"$rc"' = 0 ] && grep -q "^symbol-file -o 0x[0-9a-f]* \"$2/c1/$3/executable\"$" "$1" &&
		[ $(grep -c "^add-symbol-file \"$2/c1/[0-9a-f]*/debuginfo\"" "$1") = 2 ] &&
		cmp -s <(grep -v "^#" "$1" | sed "s/\"[^\"]*\"//") <(grep -v "^#" "$4" | sed "s/\"[^\"]*\"//")' \
	bash "$W/g1.out" "$W" "$SID" "$W/g0.out"

# Local files win: given on the command line, the server is asked only for
# what they lack (vfat and the others not in the directory), never for them.
tail -n +1 "$W/dir.log" > "$W/dir.log.before"
drun w1 c1w "$U1" resolve --snapshot "$S" --vmlinux "$VML" --modules-dir "$W/mods" - < "$W/addrs"
check "--vmlinux and --modules-dir with DEBUGINFOD_URLS set: the local files win, the server is not asked for them (exit $rc)" \
	bash -c '[ '"$rc"' = '"$want_rc"' ] && cmp -s <(sed "s/ (.*)$//" "$1") <(sed "s/ (.*)$//" "$2") &&
		! diff "$3" "$4" | grep -q -e "/buildid/$5/" -e "/buildid/$6/" -e "/buildid/$7/" &&
		diff "$3" "$4" | grep -q "/buildid/$8/" && ! grep -q "debuginfod executable\|debuginfod debuginfo" "$9"' \
	bash "$W/w1.out" "$W/l1.out" "$W/dir.log.before" "$W/dir.log" "$SID" "$(modid kreloc_busy)" "$(modid kreloc_gone)" "$(modid vfat)" "$W/w1.err"
# A record without a build id (as a kernel built without one writes it):
# nothing to ask the server by; that module says so, the rest resolve.
# (kreloc_busy's .text, in fat's freed .init.text, is ambiguous: there its
# candidate is named by section; its .init.text is its alone.)
sed '/^module kreloc_busy /s/ [0-9a-f]*$/ -/' "$S" > "$W/nobid.snap"
drun n1 c1 "$U1" resolve --snapshot "$W/nobid.snap" - < "$W/addrs"
check "a module record with no build id: its addresses say there is none to fetch by, or are named by section where ambiguous; the rest as before (exit $rc)" \
	bash -c 'grep -q "^module kreloc_busy .* -$" "$2" &&
		[ $(grep -c "\[kreloc_busy\] .* (no modules directory, and the record has no build id to fetch its .ko by)$" "$1") -ge 1 ] &&
		[ $(grep -c " ambiguous: \.text+0x[0-9a-f]* \[kreloc_busy@[0-9]*\] \.text | " "$1") -gt 1 ] &&
		cmp -s <(grep -v "\[kreloc_busy[]@]" "$1") <(grep -v "\[kreloc_busy[]@]" "$3")' bash "$W/n1.out" "$W/nobid.snap" "$W/d1.out"

# ---------------------------------------------------------------- the server gone
# ---------------------------------------------------------------- prefetch
# kreloc_resolver_prefetch() fetches every record's .ko up front; the loop
# after it, under seccomp (no open, socket or connect: libprefetch.c),
# answers as a lazy resolver does; without it the loop is stopped.
L="$top/tools/lib/kreloc"
make -s -C "$L" shared > "$W/pf.log" 2>&1 &&
	${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -I"$L/include" -o "$W/libprefetch" \
		"$here/libprefetch.c" -L"$L" -lkreloc >> "$W/pf.log" 2>&1 || sed 's/^/# /' "$W/pf.log" >&3
# pf NAME CACHE URL MODE TIMEOUT_MS: libprefetch on the snapshot, --vmlinux, modules from URL only
pf() { DEBUGINFOD_URLS="$3" DEBUGINFOD_CACHE_PATH="$W/$2" LD_LIBRARY_PATH="$L" \
	"$W/libprefetch" "$4" "$S" "$VML" - "$5" "$W/addrs" > "$W/$1.out" 2> "$W/$1.err"; rc=$?; }
pf p0 cp0 "$U1" lazy 0
pf p1 cp1 "$U1" prefetch-seccomp 0
check "prefetch from the server: kreloc_busy's and kreloc_gone's .ko fetched up front ($(head -1 "$W/p1.out")), then $(wc -l < "$W/addrs") addresses resolved under seccomp as a lazy resolver answers them (exit $rc)" \
	sh -c '[ '"$rc"' = 0 ] && grep -q "^prefetch [2-9] " "$1" && tail -n +2 "$1" | cmp -s - "$2" &&
		grep -q "\[kreloc_busy\] [.a-z]* ok" "$2"' sh "$W/p1.out" "$W/p0.out"
pf p2 cp2 "$U1" lazy-seccomp 0
check "... without the prefetch, the loop under seccomp is stopped at its first fetch ($(tail -1 "$W/p2.out" | sed 's/.*SIGSYS/SIGSYS/'), exit $rc)" \
	sh -c '[ '"$rc"' = 9 ] && tail -1 "$1" | grep -q "SIGSYS: syscall"' sh "$W/p2.out"

stop dir
t0=$(date +%s)
drun d2 c1 "$U1" resolve --snapshot "$S" - < "$W/addrs"
check "the server gone: a second run answers the same from DEBUGINFOD_CACHE_PATH (exit $rc, $(( $(date +%s) - t0 )) s)" \
	sh -c '[ '"$rc"' = '"$want_rc"' ] && cmp -s "$1" "$2"' sh "$W/d2.out" "$W/d1.out"

# ---------------------------------------------------------------- a .deb as linux-image-*-dbg
P="$W/pkg"; mkdir -p "$P/DEBIAN" "$P/usr/lib/debug/boot" "$P/usr/lib/debug/lib/modules/$KVER/extra" "$W/debs"
cp "$VML" "$P/usr/lib/debug/boot/vmlinux-$KVER"
cp "$W/mods/"*.ko "$P/usr/lib/debug/lib/modules/$KVER/extra/"
printf 'Package: linux-image-%s-dbg\nVersion: 1\nArchitecture: amd64\nMaintainer: kreloc tests <kreloc@localhost>\nSection: debug\nPriority: optional\nDescription: debug symbols for %s (a test)\n' \
	"$KVER" "$KVER" > "$P/DEBIAN/control"
dpkg-deb -Zgzip -z1 --build "$P" "$W/debs/linux-image-$KVER-dbg_1_amd64.deb" > /dev/null 2>&1
rm -rf "$P"
srv deb -U "$W/debs" || true
U2="$url"
drun d3 c3 "$U2" resolve --snapshot "$S" - < "$W/addrs"
check "debuginfod (-U) indexing a .deb laid out as linux-image-$KVER-dbg (/usr/lib/debug/...): the same answers (exit $rc)" \
	bash -c '[ '"$rc"' = '"$want_rc"' ] && cmp -s <(sed "s/ (.*)$//" "$1") <(sed "s/ (.*)$//" "$2") &&
		grep -q "vmlinux (build id $4): debuginfod executable" "$3"' bash "$W/d3.out" "$W/l1.out" "$W/d3.err" "$SID"

# ---------------------------------------------------------------- another build of the release
# The same files with other build ids (the note's bytes changed): what a
# server has for another build of $KVER.
O="$W/other"; mkdir -p "$O"
python3 - "$VML" "$O/vmlinux" "$W/mods/kreloc_busy.ko" "$O/kreloc_busy.ko" <<'EOF'
import subprocess, sys
for src, dst in ((sys.argv[1], sys.argv[2]), (sys.argv[3], sys.argv[4])):
    hexid = subprocess.run(["readelf", "-nW", src], capture_output=True, text=True).stdout.split("Build ID: ")[1].split()[0]
    data = open(src, "rb").read()
    old = bytes.fromhex(hexid)
    new = bytes(b ^ 0x5a for b in old)
    assert data.count(old) >= 1
    open(dst, "wb").write(data.replace(old, new, 1))
EOF
srv other -F "$O" || true
U3="$url"
drun o1 c4 "$U3" resolve --snapshot "$S" - < "$W/addrs"
check "a server with only another build of $KVER: refused, naming the build id looked for ($SID), no answer printed (exit $rc)" \
	sh -c '[ '"$rc"' = 1 ] && [ ! -s "$1" ] && grep -q "has no vmlinux with build id $3" "$2" &&
		grep -q "GET /buildid/$3/executable 404" "$4" && ! grep -q "GET /buildid/[^ ]* 200 " "$4"' sh "$W/o1.out" "$W/o1.err" "$SID" "$W/other.log"
drun o2 c4 "$U3" resolve --snapshot "$S" --vmlinux "$VML" - < "$W/addrs"
bid=$(modid kreloc_busy)
check "... with a local vmlinux: the core resolves, kreloc_busy (the server's is another build) says why, by build id" \
	sh -c 'grep -q "\[kreloc_busy\] [.a-z]*text (debuginfod (.*) has no kreloc_busy.ko with build id $2 " "$1" &&
		[ $(grep -c "+0x1 text$" "$1") -gt 1000 ]' sh "$W/o2.out" "$bid"
stop other

# ---------------------------------------------------------------- down, slow
U4="http://127.0.0.1:$(free_port)"
t0=$(date +%s)
drun x1 c5 "$U4" resolve --snapshot "$S" - < "$W/addrs"
t1=$(( $(date +%s) - t0 ))
check "the server down: exit 4 in $t1 s, the reason, no name printed" \
	sh -c '[ '"$rc"' = 4 ] && [ '"$t1"' -le 10 ] && [ ! -s "$1" ] && grep -q "asking for vmlinux build id $3: Connection refused" "$2"' \
	sh "$W/x1.out" "$W/x1.err" "$SID"
python3 -c '
import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(64)
print(s.getsockname()[1], flush=True)
held = []
while True:
    held.append(s.accept()[0])      # accepted, never answered
' > "$W/sink.port" &
sink=$!
for i in $(seq 20); do [ -s "$W/sink.port" ] && break; sleep 0.2; done
t0=$(date +%s)
DEBUGINFOD_TIMEOUT=2 drun x2 c5 "http://127.0.0.1:$(cat "$W/sink.port")" resolve --snapshot "$S" - < "$W/addrs"
t1=$(( $(date +%s) - t0 ))
check "a server that never answers (DEBUGINFOD_TIMEOUT=2): exit 4 in $t1 s, the reason, no name printed" \
	sh -c '[ '"$rc"' = 4 ] && [ '"$t1"' -le 20 ] && [ ! -s "$1" ] && grep -q "no answer in time (DEBUGINFOD_TIMEOUT=2)" "$2"' \
	sh "$W/x2.out" "$W/x2.err"
# The same server with its client's own bound 60 s (twice: a retry): a
# prefetch with a 1.5 s bound gives up in about that, the records settled
# without a file, and the loop after it does no I/O.
DEBUGINFOD_TIMEOUT=60 DEBUGINFOD_RETRY_LIMIT=2 pf p3 cp3 "http://127.0.0.1:$(cat "$W/sink.port")" prefetch-seccomp 1500
ms=$(awk 'NR == 1 {print $3}' "$W/p3.out")
check "prefetch with timeout_ms 1500 from a server that never answers (DEBUGINFOD_TIMEOUT=60, 2 attempts): -ETIME after $ms ms, then the loop under seccomp, each module address by section with why (exit $rc)" \
	sh -c '[ '"$rc"' = 0 ] && grep -q "^prefetch -62 [0-9]* the prefetch.s time (1500 ms) ran out" "$1" && [ '"${ms:-99999}"' -lt 10000 ] &&
		[ $(grep -c "+0x1 \[\] text$" "$1") -gt 1000 ] &&
		grep "\[kreloc_busy\]" "$1" | grep -q "unavailable: .*the prefetch.s time ran out" &&
		! grep "\[kreloc_busy\]" "$1" | grep -vq "unavailable: .*the prefetch.s time ran out"' sh "$W/p3.out"
check "... and libdebuginfod's cache keeps no \"no such file\" of the request it abandoned ($(find "$W/cp3" -type f -size 0 \( -name executable -o -name debuginfo \) | wc -l) empty entries)" \
	sh -c '[ -d "$1" ] && [ -z "$(find "$1" -type f -size 0 \( -name executable -o -name debuginfo \))" ]' sh "$W/cp3"
kill $sink 2>/dev/null; wait $sink 2>/dev/null
drun x3 c5 "$U4" resolve --snapshot "$S" --vmlinux "$VML" - < "$W/addrs"
check "... with a local vmlinux: the core resolves, the modules' addresses say the server could not be asked, exit 4 (exit $rc)" \
	sh -c '[ '"$rc"' = 4 ] && [ $(grep -c "+0x1 text$" "$1") -gt 1000 ] &&
		grep -q "\[kreloc_busy\] [.a-z]*text (debuginfod (.*): \(not asked for kreloc_busy.ko build id [0-9a-f]*: \)\?asking for [a-z_]*.ko build id [0-9a-f]*: Connection refused)$" "$1" &&
		! grep "\[kreloc_busy\]" "$1" | grep -vq "Connection refused"' sh "$W/x3.out"

# ---------------------------------------------------------------- a fleet
# Three hosts: the fleet boot, the text boot (another boot of the same
# build) and a 7.3 boot (another build, not on the server); addresses as
# HOST ADDR, mixed.
T="$here/data/amd64-6.1-text"
H="$W/hosts"; mkdir -p "$H"
cp "$S" "$H/alpha"
cp "$T/snapshot" "$H/beta"
mkroot "$W/root7" "$here/data/amd64-7-map"
"$K" --root "$W/root7" snapshot -o "$H/gamma" 2>/dev/null
xz -dc "$T/kallsyms.xz" | awk 'NF == 3 && $2 ~ /^[tT]$/ {print $1, $3}' > "$W/beta.syms"
awk '{print "alpha", $1}' "$W/addrs" > "$W/fleet.in"
awk '{printf "beta 0x%s\n", $1}' "$W/beta.syms" >> "$W/fleet.in"
echo "gamma 0xffffffff81000000" >> "$W/fleet.in"
echo "delta 0xffffffff81000000" >> "$W/fleet.in"
shuf --random-source=<(yes) "$W/fleet.in" > "$W/fleet.mixed"
: > "$W/deb.log.mark"; nlog=$(wc -l < "$W/deb.log")
drun f1 c6 "$U2" resolve --snapshot-dir "$H" - < "$W/fleet.mixed"
gid=$(awk '$1 == "BUILD_ID" {print $2}' "$H/gamma")
res=$(names "$W/f1.out" alpha); r=$?
check "fleet (--snapshot-dir, HOST ADDR, three hosts mixed): alpha's answers as its local files give them: $res (exit $rc)" \
	test "$r" = 0 -a "$rc" = 1
check "... beta (another boot of the build): each of its $(wc -l < "$W/beta.syms") core addresses as its /proc/kallsyms names it (or an alias)" \
	python3 - "$W/beta.syms" "$W/f1.out" "$W/aliases" <<'EOF'
import sys
al = {}
for l in open(sys.argv[3]):
    g = set(l.split()[0].split(","))
    for n in g:
        al[n] = g
want = {"0x" + a: n for a, n in (l.split() for l in open(sys.argv[1]))}
ok = set()
for l in open(sys.argv[2]):
    f = l.split()
    if f[0] == "beta" and f[1] in want and f[2].endswith("+0x0") and \
            f[2][:-4] in al.get(want[f[1]], {want[f[1]]}):
        ok.add(f[1])
sys.exit(len(ok) != len(want) or not want)
EOF
check "... gamma (7.3, not on the server): ? and the build id looked for; delta: no snapshot" \
	sh -c 'grep -q "^gamma 0xffffffff81000000 ? (debuginfod (.*) has no vmlinux with build id $2 " "$1" &&
		grep -q "^delta 0xffffffff81000000 ? (no snapshot of this host in the directory)$" "$1"' sh "$W/f1.out" "$gid"
check "... and one pass fetched and read the build's vmlinux once for both of its hosts" \
	sh -c '[ $(tail -n +$(('"$nlog"' + 1)) "$1" | grep -c "GET /buildid/$2/executable 200") = 1 ] &&
		[ $(grep -c "vmlinux (build id $2): debuginfod executable" "$3") = 1 ]' sh "$W/deb.log" "$SID" "$W/f1.err"
stop deb
echo "1..$n"
exit $failed
