#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The job of rig/vm-upstream.sh's boots (/kreloc/job in the guest):
# krelocboot=series runs the series' kselftest and perf test first; both
# boots record the scenario with the perf of the series (/usr/bin/perf)
# and with Debian's (perf-debian).  Everything goes to the data port:
# KTAP blocks, and the recordings (base64), /proc/kallsyms as it was
# during each module's init, and each phase's pid, for the host.

block() {	# NAME RESULT DESCRIPTION: a KTAP block of one result
	echo "KRELOC-TEST-BEGIN $1"
	echo "1..1"
	if [ "$2" = 0 ]; then echo "ok 1 $3"; else echo "not ok 1 $3"; fi
	echo "KRELOC-TEST-END $1 rc=0"
}

# What a selftest may change and must put back.
state() {
	cat /proc/modules
	for f in perf_event_paranoid kptr_restrict perf_event_max_sample_rate; do
		echo "$f $(cat /proc/sys/kernel/$f)"
	done
}

echo "KERNEL $(uname -r) $(grep -m1 ' _text$' /proc/kallsyms)"

if [ "${krelocboot:-}" = series ]; then
	state > /tmp/state.before
	echo "KRELOC-TEST-BEGIN kselftest"
	./selftest/module_mem
	echo "KRELOC-TEST-END kselftest rc=$?"
	state > /tmp/state.after
	diff /tmp/state.before /tmp/state.after | sed 's/^/# /'
	cmp -s /tmp/state.before /tmp/state.after
	block kselftest-state $? "the kselftest left modules and perf's sysctls as it found them"

	perf test -v "Module maps from module memory records" > /tmp/perftest.log 2>&1
	sed 's/^/# /' /tmp/perftest.log | grep -v 'Failed to read build ID' | tail -8
	grep -q 'Module maps from module memory records *: Ok' /tmp/perftest.log
	block perf-test $? "perf test \"Module maps from module memory records\""
fi

# The scenario: modules that come, run and go, recorded at once by the perf
# of the series (tag "patched") and by Debian's ("debian"): two tools that
# record side by side, so that what the kernel sends to one reaches the
# other only if it asked for it.
scenario() {
	echo "KRELOC-TEST-BEGIN scenario"
	echo "1..5"
	# A module loaded before, and left loaded: on 7.x module text comes
	# from a cache of 2 MB blocks (mm/execmem.c) which goes back to
	# vmalloc once all of a block is free; upk keeps upa's block, so that
	# upb gets upa's addresses as it would beside any other module.
	insmod ./upk.ko
	# Started disabled, enabled through the control fifos: all that
	# follows is recorded by both.
	for tag in patched debian; do
		perf=perf
		[ $tag = debian ] && perf=perf-debian
		rm -f /tmp/$tag.ctl /tmp/$tag.ack
		mkfifo /tmp/$tag.ctl /tmp/$tag.ack
		$perf record -a -e cpu-clock -F 499 -D -1 --control fifo:/tmp/$tag.ctl,/tmp/$tag.ack \
			-o /tmp/$tag.data > /tmp/$tag.record.log 2>&1 &
		echo $! > /tmp/$tag.pid
	done
	for tag in patched debian; do
		echo enable > /tmp/$tag.ctl
		read -r ack < /tmp/$tag.ack
	done
	n=0
	for m in upa upb; do
		insmod ./$m.ko init_ms=2000 &
		p1=$!
		# /proc/kallsyms while init runs, so with the init symbols: its
		# directory in /sys/module comes before init starts.  The
		# module's lines are at the end of the file (a distribution
		# kernel's whole file takes seconds to grep under TCG).
		i=0
		while [ $i -lt 500 ] && [ ! -d /sys/module/$m ]; do
			usleep 10000
			i=$((i + 1))
		done
		while :; do
			tail -c 65536 /proc/kallsyms | grep -F "	[$m]" > /tmp/$m.init
			grep -qF " ${m}_init_spin	[$m]" /tmp/$m.init && break
			kill -0 $p1 2> /dev/null || break
		done
		wait $p1
		r1=$?
		sh -c "echo 2000 > /sys/module/$m/parameters/spin_ms" &
		p2=$!
		wait $p2
		r2=$?
		rmmod $m
		r3=$?
		for tag in patched debian; do
			echo "PHASES $tag $m $p1 $p2"
		done
		grep -qF " ${m}_init_spin	[$m]" /tmp/$m.init && [ $r1 = 0 ] && [ $r2 = 0 ] &&
			[ $r3 = 0 ] && n=$((n + 1))
	done
	i=0
	for tag in patched debian; do
		echo stop > /tmp/$tag.ctl
		read -r ack < /tmp/$tag.ack
		wait "$(cat /tmp/$tag.pid)"
		rc=$?
		echo "RECORD $tag rc=$rc"
		sed 's/^/# /' /tmp/$tag.record.log
		i=$((i + 1))
		[ $rc = 0 ] && echo "ok $i $tag perf record -a: exit 0" ||
			echo "not ok $i $tag perf record -a: exit $rc"
		i=$((i + 1))
		if grep -iq 'error' /tmp/$tag.record.log; then
			echo "not ok $i $tag perf record printed an error"
		else
			echo "ok $i $tag perf record printed no error"
		fi
	done
	rmmod upk
	[ $n = 2 ] && echo "ok 5 upa and upb loaded, spun in init and text, unloaded" ||
		echo "not ok 5 upa and upb loaded, spun and unloaded ($n of 2)"
	echo "KRELOC-TEST-END scenario rc=0"
	for tag in patched debian; do
		for f in upa.init upb.init; do
			echo "FILE-BEGIN $tag.$f"
			cat /tmp/$f
			echo "FILE-END $tag.$f"
		done
		echo "DATA-BEGIN $tag"
		base64 /tmp/$tag.data
		echo "DATA-END $tag"
		rm -f /tmp/$tag.data
	done
}

scenario
