#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vm-debug-guest.sh MODE: the job rig/vm-debug.sh runs inside the debug
# kernel (busybox sh).  MODE is stress, faults, lockdown or controls; the
# numbers come from ./params (CYCLES, FORCED, FAULT_LOADS, FAULT_CHURN,
# PROBS, NTH_CAP, NTH_CAP_OUT, EI_EXPECTED).  Each part is one KTAP block;
# "KRELOC-OFFSET 0x..." tells the host the KASLR offset for its check of
# kreloc's dmesg lines; "KRELOC-COUNT name n" lines are counts.
#
# Ground truth is the kernel's: the System.map of its build (the kernel
# runs the image linked with it, moved by one KASLR delta), /proc/kallsyms
# and /sys/module/*/sections.

mode="$1"
. ./params
D=/sys/kernel/debug
K=$D/kreloc
KO=./kreloc.ko
SIGNED=./kreloc-signed.ko
WRONGKEY=./kreloc-wrongkey.ko
echo 0 > /proc/sys/kernel/kptr_restrict
# kmemleak: forget what boot left, so a report is from the tests.
echo scan > $D/kmemleak 2>/dev/null
echo clear > $D/kmemleak 2>/dev/null

# --- KTAP -------------------------------------------------------------------
begin() {
	blk="$1" nt=0 nfail=0
	echo "KRELOC-TEST-BEGIN $blk"
	echo "TAP version 13"
	echo "1..$2"
}
t() {	# t RESULT DESCRIPTION: RESULT 0 = ok
	nt=$((nt + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $nt $2"
	else
		echo "not ok $nt $2"
		nfail=$((nfail + 1))
	fi
}
skip() { nt=$((nt + 1)); echo "ok $nt $1 # SKIP $2"; }
diag() { echo "# $*"; }
end() { echo "KRELOC-TEST-END $blk rc=$([ $nfail -eq 0 ] && echo 0 || echo 1)"; }
kmsg() { echo "$*" > /dev/kmsg; }

# --- ground truth and checks --------------------------------------------------
ksym() { awk -v s="$1" '$3 == s && NF == 3 { print $1; exit }' /proc/kallsyms; }
text_linked=$(awk '$3 == "_text" { print $1; exit }' System.map)
text_runtime=$(ksym _text)
offset=$(printf '0x%x' $((0x$text_runtime - 0x$text_linked)))
echo "KRELOC-OFFSET $offset"

# info_ok: kreloc is loaded and says STATUS=ok with the true offset, and
# each published section's OFFSET equals it.
info_ok() {
	[ -r $K/info ] || { diag "no $K/info"; return 1; }
	grep -qx 'STATUS=ok' $K/info || { diag "info: $(grep STATUS $K/info)"; return 1; }
	k=$(sed -n 's/^KERNELOFFSET=//p' $K/info)
	[ -n "$k" ] && [ $((k)) -eq $((offset)) ] || { diag "KERNELOFFSET=$k, truth $offset"; return 1; }
	n=0
	while read -r name linked runtime size off status; do
		case "$name" in '#'*) continue ;; esac
		case "$status" in ok|freed) ;; *) continue ;; esac
		[ $((off)) -eq $((offset)) ] || { diag "section $name offset $off"; return 1; }
		n=$((n + 1))
	done < $K/sections
	[ $n -ge 2 ] || { diag "only $n sections published"; return 1; }
}

# records_ok: every module kreloc shows live equals /sys/module/NAME/sections:
# the same section names, the same addresses.  One process (kreloc_stress
# records) for what took a cat per section file and made a churn cycle
# last 13 s; the controls boot shows it failing on a wrong address, a
# stale section and a missing one.
records_ok() { ./kreloc_stress records $K; }

# clean_after_fail: a failed load left nothing behind.
clean_after_fail() {
	[ ! -e $K ] || { diag "debugfs dir left behind"; return 1; }
	! grep -q 'kreloc\|kallsyms_lookup_name' $D/kprobes/list 2>/dev/null ||
		{ diag "kprobe left: $(cat $D/kprobes/list)"; return 1; }
	return 0
}

# next_load_ok: an ordinary module still loads and unloads.
next_load_ok() { modprobe dummy && rmmod dummy; }

# kmemleak_scan: prints the number of reported objects, those of the one
# known 6.1 kernel leak aside (rig/console-known.sh: sysfs_slab_add() under
# kobject_init_and_add(), not kreloc's; the host leaves its console report
# out the same way).
kmemleak_scan() {
	echo scan > $D/kmemleak
	echo scan > $D/kmemleak
	cat $D/kmemleak > /tmp/kmemleak
	if [ -s /tmp/kmemleak ]; then
		cat /tmp/kmemleak > /dev/console
	fi
	awk 'function flush() {
		if (blk != "" && !(blk ~ /sysfs_slab_add/ && blk ~ /kobject_init_and_add/))
			n++
		blk = ""
	}
	/^unreferenced object/ { flush(); blk = $0; next }
	blk != "" && /^ / { blk = blk "\n" $0; next }
	{ flush() }
	END { flush(); print n + 0 }' /tmp/kmemleak
}

# --- module churn -------------------------------------------------------------
# One cycle loads and unloads one of: dummy, vfat (+fat), bridge (+stp, llc),
# kreloc_test_mod, and kreloc_test_initfail, whose ->init fails.  $2 = -f
# runs the loads and unloads with make-it-fail set (fault injection's task
# filter).  Forced removal is separate (churn_forced): a forced unload
# taints the kernel with LOCKDEP_NOW_UNRELIABLE, which turns lockdep off.
ko() { find /lib/modules -name "$1.ko" | head -1; }
DUMMY=$(ko dummy) FAT=$(ko fat) VFAT=$(ko vfat) LLC=$(ko llc) STP=$(ko stp) BRIDGE=$(ko bridge)
churn_bad=0 churn_ok=0 churn_initfail=0 churn_force=0 churn_loadfail=0
unload_all() {	# whatever an injected failure left, unload it without faults
	for m in kreloc_test_mod kreloc_test_initfail bridge stp llc vfat fat dummy; do
		[ -d /sys/module/$m/sections ] && ./kreloc_stress unload $m
	done
}
churn() {
	n="$1" fail="${2:-}" i=0
	while [ $i -lt "$n" ]; do
		k=$((i % 5))
		case $k in
		0) load="$DUMMY" unload="dummy" ;;
		1) load="$FAT $VFAT" unload="vfat fat" ;;
		2) load="$LLC $STP $BRIDGE" unload="bridge stp llc" ;;
		3) load="kreloc_test_mod.ko" unload="kreloc_test_mod" ;;
		4) load="kreloc_test_initfail.ko" unload="" ;;
		esac
		# shellcheck disable=SC2086
		if ./kreloc_stress load $fail $load; then
			[ $k -eq 4 ] && { diag "kreloc_test_initfail loaded"; churn_bad=$((churn_bad + 1)); }
			if [ -z "$fail" ] && ! records_ok; then
				churn_bad=$((churn_bad + 1))
			fi
			churn_ok=$((churn_ok + 1))
		elif [ $k -eq 4 ]; then
			churn_initfail=$((churn_initfail + 1))
		else
			churn_loadfail=$((churn_loadfail + 1))
		fi
		# shellcheck disable=SC2086
		[ -n "$unload" ] && ./kreloc_stress unload $fail $unload
		[ -n "$fail" ] && unload_all
		i=$((i + 1))
		# progress, with the guest's uptime, for a boot that times out
		[ $((i % 20)) -ne 0 ] || diag "churn: $i of $n cycles at $(cut -d' ' -f1 /proc/uptime) s"
	done
}

# kreloc_test_initfail fail=0 has no exit function: a plain rmmod must
# fail, rmmod -f removes it.
churn_forced() {
	i=0
	while [ $i -lt "$1" ]; do
		if ./kreloc_stress load -p fail=0 kreloc_test_initfail.ko; then
			records_ok || churn_bad=$((churn_bad + 1))
			if ./kreloc_stress unload kreloc_test_initfail; then
				diag "kreloc_test_initfail (no exit function) unloaded without force"
				churn_bad=$((churn_bad + 1))
			elif ./kreloc_stress unload --force kreloc_test_initfail; then
				churn_force=$((churn_force + 1))
			fi
		else
			churn_loadfail=$((churn_loadfail + 1))
		fi
		i=$((i + 1))
	done
}

lockdep_on() { grep -q 'debug_locks: *1' /proc/lockdep_stats; }

# After the churn no record may say live or coming: everything was unloaded.
no_live_leftover() {
	! awk '$1 ~ /^(kreloc_test_|dummy|vfat|fat|bridge|stp|llc)/ && ($2 == "live" || $2 == "coming")' \
		$K/modules | grep -q .
}

# --- modes ------------------------------------------------------------------
stress() {
	begin debug-stress 13
	insmod $KO
	t $? "insmod kreloc.ko on the debug kernel"
	info_ok
	t $? "info and sections: STATUS=ok, offset = kallsyms _text - System.map _text ($offset)"
	modprobe dummy; modprobe vfat; modprobe bridge; insmod kreloc_test_mod.ko
	records_ok
	t $? "every live record equals /sys/module/*/sections"
	# The fuzzer samples names unique in kallsyms while every module of
	# the churn is loaded: one a module shares with vmlinux is ambiguous
	# whenever that module is loaded (ENOTUNIQ).
	rm -f /tmp/stop
	./kreloc_stress readers /tmp/stop > /tmp/readers.out 2>&1 &
	rpid=$!
	./kreloc_stress fuzz /tmp/stop > /tmp/fuzz.out 2>&1 &
	fpid=$!
	w=0
	while ! grep -q 'sampled' /tmp/fuzz.out && [ $w -lt 600 ] && kill -0 $fpid 2>/dev/null; do
		sleep 0.1; w=$((w + 1))
	done
	rmmod kreloc_test_mod bridge stp llc vfat fat dummy
	churn "$CYCLES"
	lockdep_on
	t $? "lockdep is still on after the churn (no report turned it off)"
	churn_forced "$FORCED"
	touch /tmp/stop
	wait $rpid; rr=$?
	wait $fpid; fr=$?
	cat /tmp/readers.out /tmp/fuzz.out
	total=$((CYCLES + FORCED))
	diag "churn: $total cycles, $churn_ok loads, $churn_initfail failed ->init, $churn_force rmmod -f, $churn_loadfail unexpected load failures"
	echo "KRELOC-COUNT cycles $total"
	t $((churn_bad + churn_loadfail)) "$CYCLES load/unload cycles (dummy, vfat, bridge, test module, failing ->init), then $FORCED with rmmod -f: records equal sysfs"
	[ "$churn_initfail" -gt 0 ] && no_live_leftover
	t $? "after the churn no record is live or coming (->init failed $churn_initfail times)"
	[ "$churn_force" -eq "$FORCED" ]
	t $? "rmmod -f removed a module without an exit function ($churn_force times)"
	t $rr "readers of every kreloc file during the churn: data or ENOENT"
	t $fr "lookup fuzzed during the churn: right answers, right errnos, no stale answer"
	rmmod kreloc
	t $? "rmmod kreloc"
	clean_after_fail
	t $? "kreloc's unload left no debugfs entry and no kprobe"
	next_load_ok
	t $? "a module loads and unloads after kreloc's unload"
	leaks=$(kmemleak_scan)
	echo "KRELOC-COUNT kmemleak $leaks"
	t "$leaks" "kmemleak: no unreferenced object ($leaks)"
	end
}

fi_setup() {	# fi_setup DIR PROBABILITY: every failure logged
	echo "$2" > $D/$1/probability
	echo 1 > $D/$1/interval
	echo 0 > $D/$1/space
	echo 1 > $D/$1/verbose
	echo 0 > $D/$1/verbose_ratelimit_interval_ms
	echo 1000000 > $D/$1/verbose_ratelimit_burst
}
fi_off() { echo 0 > $D/$1/probability; }
# The kernel's own count of what it injected: should_fail() takes one from
# DIR/times on every failure it forces (unless times is -1), also those
# it does not log (__GFP_NOWARN allocations).  fi_arm gives it a budget
# that never runs out, fi_taken says how much of it was used.
FI_TIMES=1000000000
fi_arm() { echo $FI_TIMES > $D/$1/times; }
fi_taken() { echo $((FI_TIMES - $(cat $D/$1/times))); }
# ... and the failures it logged (verbose, not rate limited).
forced() { dmesg | grep -c 'FAULT_INJECTION: forcing a failure'; }

# failslab or fail_page_alloc in the insmod task, from rare to always.
faults_load() {	# faults_load failslab|fail_page_alloc
	cap="$1"
	begin "debug-faults-$cap-load" "$(( $(echo $PROBS | wc -w) * 3 + 2 ))"
	echo 1 > $D/$cap/task-filter
	echo N > $D/$cap/ignore-gfp-wait
	[ "$cap" = fail_page_alloc ] && echo 0 > $D/$cap/min-order
	total=0 taken=0 taken100=0
	for p in $PROBS; do
		fi_arm "$cap"
		fi_setup "$cap" "$p"
		loaded=0 failed=0 bad=0 j=0
		dmesg -c > /dev/null
		while [ $j -lt "$FAULT_LOADS" ]; do
			if ./kreloc_stress load -f $KO; then
				loaded=$((loaded + 1))
				fi_off "$cap"
				info_ok && records_ok || bad=$((bad + 1))
				rmmod kreloc || bad=$((bad + 1))
				fi_setup "$cap" "$p"
			else
				failed=$((failed + 1))
				fi_off "$cap"
				clean_after_fail || bad=$((bad + 1))
				fi_setup "$cap" "$p"
			fi
			j=$((j + 1))
		done
		fi_off "$cap"
		n=$(forced) k=$(fi_taken "$cap")
		total=$((total + n)) taken=$((taken + k))
		[ "$p" -lt 100 ] || taken100=$k
		echo "KRELOC-COUNT $cap-load-p$p $k"
		diag "$cap $p%: $loaded loaded, $failed refused, $k failures injected ($n logged)"
		t $bad "$cap $p% in insmod: loaded with the true offset and records, or failed cleanly"
		next_load_ok
		t $? "$cap $p%: the next module load works"
		[ "$p" -lt 100 ] || [ "$loaded" -eq 0 ]
		t $? "$cap $p%: an injected failure was not ignored (at 100% nothing loads)"
	done
	echo 0 > $D/$cap/task-filter
	[ "$taken" -gt 0 ] && [ "$taken100" -gt 0 ]
	t $? "$cap in insmod: the kernel injected failures ($taken in all, $taken100 at 100%; $total logged)"
	leaks=$(kmemleak_scan)
	t "$leaks" "$cap in insmod: kmemleak finds no unreferenced object ($leaks)"
	diag "$cap: $taken failures injected into kreloc's loads"
	end
}

# Every allocation site of kreloc's load: /proc/thread-self/fail-nth fails
# exactly the Nth fault-injection site (slab, page allocation) the insmod
# task passes.  One load with an N it cannot reach gives T, the number of
# sites the load passes (fail-nth counts down; what is left is N - T).
# N then walks from T down to 1: the step doubles, up to NTH_CAP (then
# NTH_CAP and NTH_CAP-1 in turn, so that it does not keep landing on the
# same allocation of a loop, nor only on the __GFP_NOWARN allocation
# kmemleak makes beside each one), and drops back to 1 at a kreloc
# function not failed before and wherever the failures cross into or out
# of kreloc's code.  kreloc's code is met near the end of the load: its
# ->init, and after it its own module notifier recording kreloc (the
# failures there are not fatal, and between the two lie the loader's).
# Stacks (verbose=2) name the kreloc function that saw the failure
# (reliable frames only: a "? name" line is stale stack contents); a
# failure at a __GFP_NOWARN site is not logged ("?": it leaves the walk's
# state as it was).  Below the first logged failure outside kreloc's code
# whose stack has no do_init_module lie the loader's sites before kreloc's
# ->init (about three quarters of all): a failure there frees a kreloc
# that never ran, so that stretch is walked with NTH_CAP_OUT instead.
# NTH_CAP=1 and NTH_CAP_OUT=1 (make soak) fail every N.
nth_load() {	# nth_load N: one load with the Nth site failing, checked; sets site, calls
	dmesg -c > /dev/null
	out=$(./kreloc_stress load -n "$1" $KO)
	rc=$?
	loads=$((loads + 1))
	dmesg > /tmp/nth.log
	if [ $rc -eq 0 ]; then
		loaded=$((loaded + 1))
		info_ok && records_ok || { diag "fail-nth $1: loaded with wrong data"; bad=$((bad + 1)); }
		rmmod kreloc 2> /tmp/rmmod.err || {
			diag "fail-nth $1: rmmod kreloc: $(cat /tmp/rmmod.err); refcnt $(cat /sys/module/kreloc/refcnt 2>&1), $(cat /sys/module/kreloc/initstate 2>&1)"
			bad=$((bad + 1))
		}
	else
		clean_after_fail || { diag "fail-nth $1: refused, not cleanly"; bad=$((bad + 1)); }
	fi
	next_load_ok || { diag "fail-nth $1: the next module load failed"; bad=$((bad + 1)); }
	site='' calls=''
	case "$out" in
	"nth injected") ;;
	"nth not reached "*) calls=${out#nth not reached }; return 1 ;;
	*) diag "fail-nth $1: kreloc_stress said '$out'"; bad=$((bad + 1)); return 1 ;;
	esac
	inj=$((inj + 1))
	# the failure's report and stack, if it was logged
	sed -n '/FAULT_INJECTION: forcing a failure/,$p' /tmp/nth.log > /tmp/nth.stack
	if [ -s /tmp/nth.stack ]; then
		site=$(grep -E '^ [a-z_0-9.]+[+]0x[0-9a-f]+/0x[0-9a-f]+ [[]kreloc[]]' /tmp/nth.stack |
			head -1 | sed 's/^ //; s/+.*//')
		if [ -n "$site" ]; then
			inkreloc=$((inkreloc + 1))
			grep -qx "$site" /tmp/sites || { echo "$site" >> /tmp/sites; new=1; }
		else
			site=-
			# no do_init_module: the loader failed before ->init ran
			grep -qE '^ (do_init_module|do_one_initcall)[+]' /tmp/nth.stack || preinit=1
		fi
	else
		site='?' unlogged=$((unlogged + 1))
	fi
	return 0
}
# nth_class: the last sample's failure was in kreloc's code (1), outside
# (0), or unknown ("?", not logged): then the state before it stands.
nth_class() {
	case "$site" in
	-|"") cls=0 ;;
	'?') ;;
	*) cls=1 ;;
	esac
}

nth_sample() {	# nth_sample N: nth_load, nth_class, a line saying what happened
	nth_load "$1"
	r=$?
	nth_class
	if [ $r -eq 0 ]; then
		case "$site" in -|'?') ;; *)
			[ -n "$kmin" ] && [ "$kmin" -le "$1" ] || kmin=$1
			[ -n "$kmax" ] && [ "$kmax" -ge "$1" ] || kmax=$1 ;;
		esac
	fi
	diag "fail-nth $1: $([ $r -eq 0 ] && echo "$site" || echo "not reached"), $([ $rc -eq 0 ] && echo loaded || echo refused)"
}

faults_nth() {
	begin debug-faults-fail-nth 5
	for c in failslab fail_page_alloc; do
		echo 0 > $D/$c/probability
		echo N > $D/$c/ignore-gfp-wait
		echo 2 > $D/$c/verbose
		echo 0 > $D/$c/verbose_ratelimit_interval_ms
		echo 1000000 > $D/$c/verbose_ratelimit_burst
	done
	echo N > $D/fail_page_alloc/ignore-gfp-highmem
	echo 0 > $D/fail_page_alloc/min-order
	loads=0 inj=0 inkreloc=0 loaded=0 bad=0 unlogged=0 new=0
	: > /tmp/sites
	big=1000000000
	nth_load $big
	total=${calls:-0}
	# nn, not n: info_ok (run by nth_load) counts sections in n
	diag "fail-nth: a load passes $total fault-injection sites"
	nn=$total step=1 cls=0 kmin='' kmax='' preinit=0 npre=0
	while [ "$nn" -ge 1 ]; do
		pcls=$cls new=0
		nth_sample $nn
		scap=$NTH_CAP
		if [ "$preinit" = 1 ]; then
			scap=$NTH_CAP_OUT npre=$((npre + 1))
		fi
		if [ $new = 1 ] || [ "$cls" != "$pcls" ]; then
			step=1
		elif [ $((step * 2)) -le "$scap" ]; then
			step=$((step * 2))
		elif [ "$step" -eq "$scap" ] && [ "$scap" -gt 2 ]; then
			step=$((scap - 1))
		else
			step=$scap
		fi
		nn=$((nn - step))
	done
	./kreloc_stress load -n $big $KO > /tmp/nth.out && rmmod kreloc
	again=$(sed -n 's/^nth not reached //p' /tmp/nth.out)
	sites=$(sort -u /tmp/sites | tr '\n' ' ')
	echo "KRELOC-COUNT fail-nth-sites-passed $total"
	echo "KRELOC-COUNT fail-nth-loads $loads"
	echo "KRELOC-COUNT fail-nth-injected $inj"
	echo "KRELOC-COUNT fail-nth-in-kreloc $inkreloc"
	echo "KRELOC-COUNT fail-nth-kreloc-functions $(sort -u /tmp/sites | wc -l)"
	diag "fail-nth: the load passes $total sites ($again on a second load); kreloc's code failed between N=${kmin:-?} and N=${kmax:-?}"
	diag "fail-nth: $loads loads, $inj failures injected ($unlogged not logged: __GFP_NOWARN), $inkreloc in kreloc's code, $loaded loaded anyway"
	diag "kreloc functions that saw a failure: $sites"
	diag "fail-nth: $npre of the loads failed the loader before kreloc's ->init (step up to $NTH_CAP_OUT there)"
	[ "$total" -gt 1 ] && [ -n "$again" ] && [ "$again" -gt 1 ]
	t $? "fail-nth counts the sites a load passes ($total, then $again), and N beyond them injects nothing"
	[ $inkreloc -gt 0 ]
	t $? "failures were injected in kreloc's own code ($inkreloc, in $(sort -u /tmp/sites | wc -l) functions)"
	t $bad "each of $loads loads: loaded with the true offset and records, or refused cleanly; the next load works"
	for c in failslab fail_page_alloc; do
		echo 1 > $D/$c/verbose
	done
	leaks=$(kmemleak_scan)
	t "$leaks" "fail-nth: kmemleak finds no unreferenced object ($leaks)"
	next_load_ok
	t $? "modules load after the sweep"
	end
}

# failslab in modprobe/rmmod while kreloc records the churn.
faults_churn() {
	begin debug-faults-failslab-churn "$(( $(echo $PROBS | wc -w) + 4 ))"
	insmod $KO
	t $? "insmod kreloc.ko"
	echo 1 > $D/failslab/task-filter
	echo N > $D/failslab/ignore-gfp-wait
	taken=0 taken100=0
	for p in $PROBS; do
		fi_arm failslab
		fi_setup failslab "$p"
		dmesg -c > /dev/null
		churn_bad=0 churn_loadfail=0
		churn "$FAULT_CHURN" -f
		fi_off failslab
		n=$(forced) k=$(fi_taken failslab)
		taken=$((taken + k))
		[ "$p" -lt 100 ] || taken100=$k
		echo "KRELOC-COUNT failslab-churn-p$p $k"
		modprobe dummy; modprobe vfat; modprobe bridge
		records_ok; r=$?
		rmmod bridge stp llc vfat fat dummy
		diag "failslab $p% in modprobe/rmmod: $FAULT_CHURN cycles, $churn_loadfail loads refused, $k failures injected ($n logged)"
		t $((r + churn_bad)) "failslab $p% in the churn: every record kreloc shows afterwards equals sysfs"
	done
	echo 0 > $D/failslab/task-filter
	[ "$taken" -gt 0 ] && [ "$taken100" -gt 0 ]
	t $? "failslab in the churn: the kernel injected failures ($taken in all, $taken100 at 100%)"
	rmmod kreloc && clean_after_fail && next_load_ok
	t $? "kreloc unloads cleanly after the churn"
	leaks=$(kmemleak_scan)
	t "$leaks" "failslab in the churn: kmemleak finds no unreferenced object ($leaks)"
	end
}

# fail_function on kreloc's own ALLOW_ERROR_INJECTION points.
faults_function() {
	insmod $KO
	pts=$(awk '/\[kreloc\]/ { print $1 }' $D/error_injection/list)
	if [ -z "$pts" ]; then
		begin debug-faults-fail_function 1
		if [ "$EI_EXPECTED" = 1 ]; then
			t 1 "kreloc's source marks ALLOW_ERROR_INJECTION but error_injection/list has no [kreloc] line"
		else
			skip "fail_function on kreloc's allocation points" "kreloc marks no function ALLOW_ERROR_INJECTION"
		fi
		rmmod kreloc
		end
		return
	fi
	begin debug-faults-fail_function "$(( $(echo $PROBS | wc -w) + 3 ))"
	diag "kreloc's error-injection points: $(echo $pts)"
	taken=0 taken100=0
	for p in $PROBS; do
		fi_arm fail_function
		for f in $pts; do
			echo "$f" > $D/fail_function/inject
		done
		echo 0 > $D/fail_function/task-filter
		fi_setup fail_function "$p"
		dmesg -c > /dev/null
		churn_bad=0 churn_loadfail=0
		churn "$FAULT_CHURN"
		./kreloc_stress readers /tmp/stop-now > /dev/null 2>&1 &
		sleep 1; touch /tmp/stop-now; wait; rm -f /tmp/stop-now
		echo > $D/fail_function/inject
		fi_off fail_function
		n=$(forced) k=$(fi_taken fail_function)
		taken=$((taken + k))
		[ "$p" -lt 100 ] || taken100=$k
		echo "KRELOC-COUNT fail_function-churn-p$p $k"
		modprobe dummy; modprobe vfat
		records_ok; r=$?
		rmmod vfat fat dummy
		diag "fail_function $p% on $(echo $pts | wc -w) points: $k failures injected ($n logged)"
		t $r "fail_function $p% on kreloc's points during the churn: records equal sysfs"
	done
	[ "$taken" -gt 0 ] && [ "$taken100" -gt 0 ]
	t $? "fail_function: the kernel injected failures into kreloc's points ($taken in all, $taken100 at 100%)"
	rmmod kreloc && clean_after_fail && next_load_ok
	t $? "kreloc unloads cleanly after fail_function"
	leaks=$(kmemleak_scan)
	t "$leaks" "fail_function: kmemleak finds no unreferenced object ($leaks)"
	end
}

# lockdown: booted with lockdown=integrity, then raised to confidentiality.
# At each level an unsigned kreloc.ko and one signed with a key the kernel
# does not trust are refused, the copy signed with the kernel's key loads.
lockdown_level() {
	level="$1"
	grep -q "\[$level\]" /sys/kernel/security/lockdown
	t $? "lockdown is $level ($(cat /sys/kernel/security/lockdown))"
	insmod $KO 2>/tmp/insmod.err
	[ $? -ne 0 ] && ! lsmod | grep -q '^kreloc '
	t $? "$level: unsigned kreloc.ko is refused ($(cat /tmp/insmod.err))"
	insmod $WRONGKEY 2>/tmp/insmod.err
	[ $? -ne 0 ] && ! lsmod | grep -q '^kreloc '
	t $? "$level: kreloc.ko signed with an untrusted key is refused ($(cat /tmp/insmod.err))"
	insmod $SIGNED 2>/tmp/insmod.err
	t $? "$level: kreloc.ko signed with the kernel's key loads ($(cat /tmp/insmod.err))"
	for f in info sections anchors modules lookup; do
		if cat $K/$f > /tmp/out 2>/tmp/err; then
			diag "$f: $(wc -l < /tmp/out) lines"
		else
			diag "$f: $(cat /tmp/err)"
		fi
	done
	for f in $K/module/*; do
		[ -e "$f" ] || continue
		cat "$f" > /dev/null 2>/tmp/err || diag "${f##*/}: $(cat /tmp/err)"
	done
	ans=$( (echo _text > $K/lookup && cat $K/lookup) 2>&1)
	diag "lookup _text: $ans"
	grep -q 'STATUS=' $K/info 2>/dev/null
	t $? "$level: info is readable"
	rmmod kreloc && clean_after_fail
	t $? "$level: kreloc unloads cleanly"
	next_load_ok
	t $? "$level: the kernel's signed modules still load"
}

lockdown() {
	grep -q ' /sys/kernel/security ' /proc/mounts ||
		mount -t securityfs securityfs /sys/kernel/security
	begin debug-lockdown 15
	grep -q 'lockdown=integrity' /proc/cmdline
	t $? "booted with lockdown=integrity on the command line"
	lockdown_level integrity
	echo confidentiality > /sys/kernel/security/lockdown
	lockdown_level confidentiality
	end
}

# controls: what every check of this run looks for, made to happen, so that
# each check is seen failing.  The host expects this boot's console to show
# a report of each kind (rig/vm-debug.sh); the block's own tests are the
# guest's checks run against the same bugs.
controls() {
	begin debug-controls 12
	insmod $KO 2>/tmp/insmod.err
	t $? "without lockdown an unsigned kreloc.ko loads (the lockdown boot's refusals are lockdown's)"
	rmmod kreloc
	insmod $WRONGKEY 2>/tmp/insmod.err
	t $? "without lockdown kreloc.ko signed with an untrusted key loads"
	rmmod kreloc
	kmsg "kreloc: control line for the dmesg check, offset $offset"
	for b in sleep ubsan list odebug rcu lockdep kasan leak; do
		dmesg -c > /dev/null
		insmod ./kreloc_test_bugs.ko bug=$b 2>/dev/null && diag "kreloc_test_bugs bug=$b loaded"
		if [ $b = lockdep ]; then
			! lockdep_on
			t $? "after bug=lockdep the stress boot's lockdep check fails"
		fi
		if [ $b = leak ]; then
			sleep 6	# kmemleak reports objects older than 5 s
			leaks=$(kmemleak_scan)
			[ "$leaks" -ge 3 ]
			t $? "after bug=leak the guest's kmemleak check counts $leaks objects (3 leaked)"
		fi
		echo "KRELOC-CONTROL-BEGIN $b"
		dmesg
		[ $b = leak ] && cat /tmp/kmemleak
		echo "KRELOC-CONTROL-END $b"
	done
	# The checks of the other boots, against states made wrong on purpose.
	( K=/tmp/none; info_ok ) > /dev/null
	[ $? -ne 0 ]
	t $? "info_ok fails without kreloc loaded"
	modprobe dummy
	mkdir -p /tmp/fake/module
	echo "dummy live" > /tmp/fake/modules
	for f in /sys/module/dummy/sections/.* /sys/module/dummy/sections/*; do
		[ -f "$f" ] && echo "section ${f##*/} $(cat "$f")"
	done > /tmp/fake/true
	fake() { ( K=/tmp/fake; records_ok ) > /dev/null; }
	cp /tmp/fake/true /tmp/fake/module/dummy
	fake
	t $? "records_ok passes a record made from sysfs ($(wc -l < /tmp/fake/true) sections)"
	a=$(cat /sys/module/dummy/sections/.text)
	sed "s/^section \.text .*/section .text $(printf '0x%x' $((a + 16)))/" /tmp/fake/true > /tmp/fake/module/dummy
	! fake
	t $? "records_ok fails on a record whose .text is 16 bytes off sysfs"
	{ cat /tmp/fake/true; echo "section .kreloc_stale 0xffffffffc0000000"; } > /tmp/fake/module/dummy
	! fake
	t $? "records_ok fails on a record holding a stale section sysfs does not have"
	grep -v '^section \.text ' /tmp/fake/true > /tmp/fake/module/dummy
	! fake
	t $? "records_ok fails on a record missing a section sysfs has (.text)"
	rmmod dummy
	insmod $KO
	offset_true=$offset
	offset=$((offset + 0x200000))
	info_ok > /dev/null
	[ $? -ne 0 ]
	t $? "info_ok fails against an offset 2 MiB off the truth"
	offset=$offset_true
	rmmod kreloc
	# fi_taken, the faults boot's evidence that failures were injected,
	# where none can be (task-filter on, no task marked) and where every
	# allocation of a marked task fails.
	# (the task filter first: failslab at 100% for every task kills init)
	echo 1 > $D/failslab/task-filter
	echo N > $D/failslab/ignore-gfp-wait
	fi_arm failslab
	fi_setup failslab 100
	ls / > /dev/null
	k0=$(fi_taken failslab)
	( echo 1 > /proc/self/make-it-fail; ls / ) > /dev/null 2>&1
	k1=$(fi_taken failslab)
	fi_off failslab
	echo 0 > $D/failslab/task-filter
	[ "$k0" -eq 0 ]
	t $? "failslab's times counts no failure in a task not marked make-it-fail ($k0)"
	[ "$k1" -gt 0 ]
	t $? "failslab's times counts the failures of a marked task ($k1)"
	end
}

case "$mode" in
stress) stress ;;
faults)
	faults_nth
	faults_load failslab
	faults_load fail_page_alloc
	faults_churn
	faults_function
	;;
lockdown) lockdown ;;
controls) controls ;;
esac
dmesg | grep -c 'FAULT_INJECTION' > /dev/null
echo "KRELOC-DONE $mode"
