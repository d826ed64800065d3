# SPDX-License-Identifier: GPL-2.0
# Fixtures for the kreloc CLI tests: fake /sys trees (debugfs, tracefs,
# /proc/kallsyms) as the module and kernel would show them.  Source, do not run.
#
# Numbers: a made-up KASLR offset on the Debian 6.1.0-57 amd64 layout.

# Real-kernel fixtures from the rig's cache: the newest Debian amd64 6.1
# kernel and its derived link-time map (rig/groundtruth.sh); without them
# the tests that need them skip.
CACHE="${KRELOC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kreloc}"
# The newest Debian amd64 6.1 kernel of the rig and its derived link-time map
# (rig/groundtruth.sh); without them the tests that need them skip.
KVER=$(cd "$CACHE/maps" 2>/dev/null && ls -d 6.1.0-*-amd64.System.map 2>/dev/null |
	sort -V | tail -1)
KVER="${KVER%.System.map}"
KENV="$CACHE/k/amd64-$KVER"
MAP="$CACHE/maps/$KVER.System.map"
MODDIR="$KENV/root/lib/modules"

KOFF=0x1e200000			# this boot's offset
KOFF2=0x5400000			# another boot's offset (for --kallsyms)
LTEXT=0xffffffff81000000	# _text, linked

hex() { printf '0x%x' "$(( $1 ))"; }

# Region/section layout of a real .ko, placed at BASE: prints
# "KIND NAME ADDRESS SIZE STATE" lines (the module/NAME file format).
# Executable sections go to the text region (.init.text to init.text),
# the others to data; 64-byte aligned, like the kernel's layout roughly.
ko_layout() {
	local ko="$1" text="$2" init="$3" data="$4" name type flags size
	local t=$((text)) i=$((init)) d=$((data)) out=""
	while read -r name type size flags; do
		case "$flags" in *A*) ;; *) continue ;; esac
		[ "$type" = NOBITS ] || [ "$type" = PROGBITS ] || [ "$type" = NOTE ] || continue
		size=$((0x$size))
		if [ "$name" = .init.text ]; then
			out+="section $name $(hex $i) $(hex $size) freed"$'\n'
			i=$(( (i + size + 63) & ~63 ))
		elif [[ "$flags" == *X* ]]; then
			out+="section $name $(hex $t) $(hex $size) live"$'\n'
			t=$(( (t + size + 63) & ~63 ))
		else
			out+="section $name $(hex $d) $(hex $size) live"$'\n'
			d=$(( (d + size + 63) & ~63 ))
		fi
	done < <(readelf -SW "$ko" | sed -n 's/^ *\[ *[0-9]*\] //p' |
		 awk '{print $1, $2, $5, $7}' | awk '$4 ~ /^[A-Z]+$/ || $4 == "" {print}')
	echo "region text $(hex "$text") $(hex $((t - text))) live"
	echo "region init.text $(hex "$init") $(hex $((i - init + 1))) freed"
	echo "region data $(hex "$data") $(hex $((d - data))) live"
	printf '%s' "$out"
}

# mkroot DIR MAP KO: a fake x86_64 system with kreloc loaded.
mkroot() {
	local r="$1" map="$2" ko="$3" k="$1/sys/kernel/debug/kreloc" off=$((KOFF))
	mkdir -p "$k/module" "$r/proc" "$r/sys/kernel/tracing" "$r/sys/kernel/debug/kprobes"
	cat > "$k/info" <<-EOT
	# kreloc core kernel relocation (format described in kreloc's README)
	FORMAT=1
	OSRELEASE=6.1.0-57-amd64
	ARCH=x86_64
	KERNELOFFSET=$KOFF
	REF_SYMBOL=_text
	REF_LINKED=$LTEXT
	REF_RUNTIME=$(hex $((LTEXT + off)))
	LINKED_SOURCE=vmlinux
	LINKED_FILE=/boot/vmlinuz-6.1.0-57-amd64
	LINKED_RELEASE=6.1.0-57-amd64
	STATUS=ok
	INIT=freed
	BUILD_ID=0f1e2d3c4b5a69788796a5b4c3d2e1f001234567
	ANCHORS=28
	ANCHORS_RESOLVED=28
	KALLSYMS_LOOKUP_NAME=$(hex $((0xffffffff81155e70 + off)))
	ACCESS_CHECK=kallsyms_show_value
	GENERATION=7
	HISTORY_MAX=64
	EOT
	{
		echo "# NAME LINKED RUNTIME SIZE OFFSET STATUS"
		local n l s st
		while read -r n l s st; do
			if [ "$st" = mismatch ]; then
				echo "$n $l - $s - mismatch"
			else
				echo "$n $l $(hex $((l + off))) $s $KOFF $st"
			fi
		done <<-EOT
		text 0xffffffff81000000 0xe01d32 ok
		rodata 0xffffffff82000000 0x8eb000 ok
		data 0xffffffff82a00000 0x248980 ok
		init.text 0xffffffff83079000 0x6ec04 freed
		init.data 0xffffffff830e8000 0x21e000 freed
		bss 0xffffffff83310000 0x10f0000 ok
		EOT
	} > "$k/sections"
	# Module records: af_key live (real .ko layout), old_mod unloaded,
	# reuse_a unloaded and reuse_b loaded later into the same range.
	{
		# the comment lines the module writes (kreloc_modules.c)
		echo "# module af_key state live load_gen 4 unload_gen -"
		echo "# KIND NAME ADDRESS SIZE STATE"
		ko_layout "$ko" 0xffffffffc0a00000 0xffffffffc0a80000 0xffffffffc0a40000
	} > "$k/module/af_key@4"
	cp "$k/module/af_key@4" "$k/module/af_key"
	cat > "$k/module/old_mod@2" <<-EOT
	# module old_mod state gone load_gen 2 unload_gen 5
	region text 0xffffffffc0b00000 0x2000 gone
	region data 0xffffffffc0b04000 0x1000 gone
	section .text 0xffffffffc0b00000 - gone
	section .exit.text 0xffffffffc0b01800 - gone
	section .data 0xffffffffc0b04000 0x100 gone
	EOT
	cat > "$k/module/reuse_a@1" <<-EOT
	region text 0xffffffffc0c00000 0x1000 gone
	section .text 0xffffffffc0c00000 0x1000 gone
	EOT
	cat > "$k/module/reuse_b@6" <<-EOT
	region text 0xffffffffc0c00000 0x1000 live
	section .text 0xffffffffc0c00000 0x800 live
	section .text.unlikely 0xffffffffc0c00800 0x800 live
	EOT
	local ts
	ts=$(awk '$1 == "region" && $2 == "text" {print $4}' "$k/module/af_key@4")
	cat > "$k/modules" <<-EOT
	# NAME STATE TEXT_BASE TEXT_SIZE LOAD_GEN UNLOAD_GEN
	reuse_a gone 0xffffffffc0c00000 0x1000 1 3
	old_mod gone 0xffffffffc0b00000 0x2000 2 5
	af_key live 0xffffffffc0a00000 $ts 4 -
	reuse_b live 0xffffffffc0c00000 0x1000 6 -
	EOT
	# /proc/kallsyms of this boot: the map moved by KOFF, a duplicate
	# static name, and af_key's symbols.
	"$GEN" shift "$KOFF" < "$map" > "$r/proc/kallsyms"
	printf '%x t dup_fn\n%x t dup_fn\n' $((0xffffffff81000100 + off)) \
		$((0xffffffff81000200 + off)) >> "$r/proc/kallsyms"
	local text_addr
	text_addr=$(awk '$1 == "section" && $2 == ".text" {print $3}' "$k/module/af_key@4")
	nm --defined-only "$ko" | awk '$2 ~ /^[tT]$/' | while read -r a t n; do
		# only .text symbols (nm cannot say which section; .text is first)
		[ "$n" = pfkey_sendmsg ] || [ "$n" = pfkey_release ] || continue
		printf '%x %s %s\t[af_key]\n' $((text_addr + 0x$a)) "$t" "$n"
	done >> "$r/proc/kallsyms"
	: > "$r/sys/kernel/tracing/kprobe_events"
	: > "$r/sys/kernel/tracing/error_log"
	# kprobe blacklist: exc_int3 (0xffffffff81a44fb0, size 0x100)
	printf '0x%x-0x%x\texc_int3\n' $((0xffffffff81a44fb0 + off)) \
		$((0xffffffff81a450b0 + off)) > "$r/sys/kernel/debug/kprobes/blacklist"
}

# mkroot_ppc64v1 DIR: a ppc64 big-endian ELFv1 system (offset 0), where
# `foo` is a descriptor in .opd and `.foo` the code.
mkroot_ppc64v1() {
	local r="$1" k="$1/sys/kernel/debug/kreloc"
	mkdir -p "$k" "$r/proc" "$r/sys/kernel/debug/tracing"
	cat > "$k/info" <<-EOT
	FORMAT=1
	OSRELEASE=6.1.0-ppc64be
	ARCH=ppc64
	KERNELOFFSET=0x0
	REF_SYMBOL=_text
	REF_LINKED=0xc000000000000000
	REF_RUNTIME=0xc000000000000000
	LINKED_SOURCE=system.map
	STATUS=ok
	INIT=freed
	BUILD_ID=-
	EOT
	cat > "$k/sections" <<-EOT
	# NAME LINKED RUNTIME SIZE OFFSET STATUS
	text 0xc000000000000000 0xc000000000000000 0x1000000 0x0 ok
	rodata 0xc000000001000000 0xc000000001000000 0x400000 0x0 ok
	data 0xc000000001400000 0xc000000001400000 0x400000 0x0 ok
	init.text 0xc000000001800000 0xc000000001800000 0x100000 0x0 freed
	init.data 0xc000000001900000 0xc000000001900000 0x100000 0x0 freed
	bss 0xc000000001a00000 0xc000000001a00000 0x100000 0x0 ok
	EOT
	cat > "$r/proc/kallsyms" <<-EOT
	c000000000000000 T _text
	c000000000000000 T _stext
	c000000000010000 T .foo
	c000000000010100 T .bar
	c000000000010100 T bar
	c000000000010200 T .baz
	c000000001400000 D _sdata
	c000000001400100 D foo
	c000000001400118 D baz
	c000000001800000 T .init_fn
	EOT
	: > "$r/sys/kernel/debug/tracing/kprobe_events"
}
