#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# stage-perf.sh STAGE: copy the host's perf (Debian's linux-perf, the
# binary behind the version wrapper) with every shared library it needs
# into STAGE, at the same paths, so the test VM can run /usr/bin/perf.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

stage="$1"
need_pkgs linux-perf
bin=/usr/bin/perf
# linux-perf diverts the wrapper: /usr/bin/perf is the binary on bookworm;
# elsewhere the wrapper execs perf_X.Y.
if [ "$(head -c 4 "$bin" | tail -c 3)" != ELF ]; then
	bin=$(ls /usr/bin/perf_[0-9]* 2>/dev/null | sort -V | tail -1)
fi
[ -n "$bin" ] && [ -x "$bin" ] || die "no perf binary"
mkdir -p "$stage/usr/bin"
cp "$bin" "$stage/usr/bin/perf"
ldd "$bin" | awk '/=> \// {print $3} /^\t\/[^ ]+ \(/ {print $1}' | while read -r lib; do
	mkdir -p "$stage$(dirname "$lib")"
	cp -L "$lib" "$stage$lib"
done
# the interpreter under its usual name too (PT_INTERP)
interp=$(readelf -lW "$bin" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
if [ -n "$interp" ] && [ ! -e "$stage$interp" ]; then
	mkdir -p "$stage$(dirname "$interp")"
	cp -L "$interp" "$stage$interp"
fi
