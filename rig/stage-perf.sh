#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# stage-perf.sh STAGE [ROOT SERIES]: copy a perf (Debian's linux-perf, the
# binary behind the version wrapper) with every shared library it needs
# into STAGE, at the same paths, so the test VM can run /usr/bin/perf.
# Without ROOT it is the host's perf; with it, the linux-perf of kernel
# SERIES (e.g. 7.3) from ROOT's release, installed into that root
# (rig/root.sh), as a user of that kernel installs it.  Prints the perf
# binary's path (in ROOT, for in_root, when given).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

stage="$1" root="${2:-}" series="${3:-}"
top=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "$root" ]; then
	need_pkgs linux-perf
	r="" run=()
else
	rel=$(sed -n 's/^VERSION_CODENAME=//p' "$root/etc/os-release")
	# The linux-perf of the kernel's own series (trixie-backports for 7.x).
	ver=$(rel_apt "$rel" apt-cache madison linux-perf |
		awk -v s="$series" '$3 ~ "^" s "[.-]" {print $3}' | sort -V | tail -1)
	[ -n "$ver" ] || die "no linux-perf $series in $rel"
	"$top/rig/root.sh" "$rel" "linux-perf=$ver" > /dev/null
	r="$root" run=(in_root "$root")
fi
bin=/usr/bin/perf
# linux-perf diverts the wrapper: /usr/bin/perf is the binary on bookworm;
# elsewhere the wrapper execs perf_X.Y.
if [ "$(head -c 4 "$r$bin" | tail -c 3)" != ELF ]; then
	bin=$(cd "$r/usr/bin" && ls perf_[0-9]* 2>/dev/null | sort -V | tail -1)
	bin=${bin:+/usr/bin/$bin}
fi
[ -n "$bin" ] && [ -x "$r$bin" ] || die "no perf binary${root:+ in $root}"
mkdir -p "$stage/usr/bin"
cp "$r$bin" "$stage/usr/bin/perf"
"${run[@]}" ldd "$bin" | awk '/=> \// {print $3} /^\t\/[^ ]+ \(/ {print $1}' | while read -r lib; do
	mkdir -p "$stage$(dirname "$lib")"
	cp -L "$r$lib" "$stage$lib"
done
# the interpreter under its usual name too (PT_INTERP)
interp=$(readelf -lW "$r$bin" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
if [ -n "$interp" ] && [ ! -e "$stage$interp" ]; then
	mkdir -p "$stage$(dirname "$interp")"
	cp -L "$r$interp" "$stage$interp"
fi
echo "$bin"
