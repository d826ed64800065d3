#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_layers.sh: the module's layering (rig/check-layers.pl, kreloc.h's
# list of layers), as one KTAP block.  The tree must pass; copies of it
# with one fault each must fail, naming it: an upward call, an upward
# include, a circle inside a layer, an include of test/, and a new object
# outside the layers.  So the check is seen failing on every run.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/rig/lib.sh"
check="$top/rig/check-layers.pl"

W=$(mktemp -d "${TMPDIR:-/tmp}/kreloc-layers.XXXXXX")
trap 'rm -rf "$W"' EXIT


# copy NAME: a copy of the module's sources in $W/NAME.
copy() {
	rm -rf "${W:?}/$1"
	mkdir -p "$W/$1"
	(cd "$top" && cp -r Kbuild kreloc.h ./*.c lib base compat kreloc_arch symbols state policy \
		presentation test "$W/$1/")
}

# fails NAME PATTERN: the check fails on copy NAME and says PATTERN.
fails() {
	local out rc=0
	out=$(perl "$check" "$W/$1" 2>&1) || rc=$?
	sed 's/^/# /' <<<"$out"
	[ $rc -ne 0 ] && grep -q -- "$2" <<<"$out"
}

t_plan layers 6
out=$(perl "$check" "$top" 2>&1)
rc=$?
sed 's/^/# /' <<<"$out"
t "the module's files call and include only their own layer and those below, no circle" \
	test $rc -eq 0

copy up
cat >> "$W/up/base/alloc.c" <<'EOF'

const char *kreloc_layers_test(unsigned long addr)
{
	return kreloc_core_section_of(addr);
}
EOF
t "an upward call (base/ calling state/'s kreloc_core_section_of) fails the check" \
	fails up 'base/alloc.c:[0-9]*: uses kreloc_core_section_of of state/core.c: layer state is above base'

copy inc
sed -i 's|^#include "compat/compat.h"$|&\n#include "policy/policy.h"|' "$W/inc/compat/compat.c"
t "an upward include (compat/ including policy/policy.h) fails the check" \
	fails inc 'compat/compat.c:[0-9]*: includes policy/policy.h: layer policy is above compat'

copy circle
sed -i 's|^\tc->update(kreloc_arch_func(addr, &c->fn));$|\tif (!kreloc_ksym_lookup(c->name))\n\t\treturn -ENOENT;\n&|' \
	"$W/circle/symbols/call.c"
t "a circle inside a layer (symbols/call.c <-> symbols/ksym.c) fails the check" \
	fails circle 'circle in layer symbols: .*symbols/call.c.*symbols/ksym.c'

copy testinc
sed -i 's|^#include "base/hooks.h"$|#include "test/hooks_impl.h"|' "$W/testinc/base/alloc.c"
touch "$W/testinc/test/hooks_impl.h"
t "an include of test/ from a production file fails the check" \
	fails testinc 'base/alloc.c:[0-9]*: includes test/hooks_impl.h: test/ is only in a test build'

copy newdir
mkdir -p "$W/newdir/extra"
echo 'int kreloc_extra(void) { return 0; }' > "$W/newdir/extra/extra.c"
echo 'kreloc-y += extra/extra.o' >> "$W/newdir/Kbuild"
t "an object Kbuild links from outside the layers fails the check" \
	fails newdir 'Kbuild: extra/extra.o is in no layer'
t_done
