#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-debug.sh RESULTS [check|soak]: kreloc on the x86_64 debug kernel of
# rig/kernel-debug.sh (KASAN, lockdep, kmemleak, UBSAN, debugobjects, fault
# injection, IBT sealing, signed modules, lockdown), booted under QEMU with
# KASLR.  Appends "passed failed skipped" to RESULTS.
#
#   1. the whole selftest suite (rig/vm-tests.sh with the debug env);
#   2. stress: module churn with failing ->init and rmmod -f while readers
#      read every kreloc file and lookup is fuzzed, kreloc's unload, kmemleak;
#   3. faults: failslab and fail_page_alloc in the insmod task from rare to
#      always, failslab in modprobe/rmmod during the churn, fail_function
#      on kreloc's own ALLOW_ERROR_INJECTION points;
#   4. lockdown: booted with lockdown=integrity, raised to confidentiality;
#      at each level kreloc.ko signed by the kernel's key loads, an
#      unsigned copy and one signed with another key are refused;
#   5. secureboot: kreloc-dkms installed with apt in a Debian root for this
#      kernel, DKMS signing with the machine owner key the kernel trusts;
#      booted from its initramfs under lockdown=integrity
#      module.sig_enforce=1, the signed module loads, an unsigned build of
#      the same source is refused (tests/boot/secureboot.sh);
#   6. controls: the negative controls.  A module commits one bug of each
#      kind (sleep in atomic, UBSAN, list corruption, debugobjects, RCU,
#      lockdep, KASAN, a leak), a kreloc line with the offset goes to the
#      log, and the guest's own checks meet wrong states: each check of the
#      boots above must fail here, or this boot fails.
# Every other boot's console must show no report (rig/console-check.sh) and
# no kreloc line with an address or the offset (rig/dmesg-addr-check.sh).
# soak: 1,000 churn cycles, every allocation of the fail-nth sweep, more
# faulted loads (make soak).
#
#   KRELOC_DEBUG_CYCLES, KRELOC_DEBUG_FAULT_LOADS, KRELOC_DEBUG_NTH_CAP
#   (the fail-nth walk's largest step, 4; below kreloc's ->init it is 32;
#   soak: 1 and 1, every N)
#   override the counts; KRELOC_DEBUG_MODES picks boots (default: "suite
#   stress faults lockdown secureboot controls"; soak runs no suite and no
#   secureboot).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

results="$1" mode="${2:-check}"
top=$(cd "$(dirname "$0")/.." && pwd)
envf="$CACHE/tmp/debug.env.$$"
"$top/rig/kernel-debug.sh" > "$envf"
# shellcheck disable=SC1090
. "$envf"
# UBSAN's checks in every module built here (kreloc, the test modules, and
# the suite's builds in rig/vm-tests.sh); the kernel itself is not
# instrumented, to keep its build short (kbuild reads this from the
# environment, scripts/Makefile.lib).
export UBSAN_SANITIZE=y
if [ "$mode" = soak ]; then
	cycles=${KRELOC_DEBUG_CYCLES:-1000} loads=${KRELOC_DEBUG_FAULT_LOADS:-20} fchurn=30 nthcap=${KRELOC_DEBUG_NTH_CAP:-1} nthout=1
else
	cycles=${KRELOC_DEBUG_CYCLES:-200} loads=${KRELOC_DEBUG_FAULT_LOADS:-4} fchurn=12 nthcap=${KRELOC_DEBUG_NTH_CAP:-4} nthout=32
fi
work="$CACHE/run/debugk-$KVER"
rm -rf "$work"
mkdir -p "$work"

# 1. The selftest suite; the other release's map is Debian 6.1's.
modes=${KRELOC_DEBUG_MODES:-suite stress faults lockdown secureboot controls}
want() { case " $modes " in *" $1 "*) return 0 ;; esac; return 1; }
if want suite && [ "$mode" = check ]; then
	"$top/rig/kernel-amd64.sh" 6.1 > "$work/amd64-6.1.env"
	omap=$("$top/rig/groundtruth.sh" "$work/amd64-6.1.env")
	t0=$(date +%s)
	"$top/rig/vm-tests.sh" "$envf" "$omap" "$results" ||
		{ echo "not ok - debug $KVER: selftest rig failed"; echo "0 1 0" >> "$results"; }
	log "debug kernel: selftest suite took $(( $(date +%s) - t0 ))s"
fi

# 2-4. One stage, booted once per mode.
stage="$work/stage"
mkdir -p "$stage/kreloc" "$work/build"
"$top/rig/build-kreloc.sh" "$envf" "$work/build/kreloc" LINKED_SOURCE=system.map \
	SYSTEM_MAP="$SYSTEM_MAP"
cp "$work/build/kreloc/kreloc.ko" "$stage/kreloc/kreloc.ko"
"$SIGN_FILE" "$SIGN_HASH" "$SIGN_KEY" "$SIGN_CERT" "$work/build/kreloc/kreloc.ko" \
	"$stage/kreloc/kreloc-signed.ko"
cmp -s "$stage/kreloc/kreloc.ko" "$stage/kreloc/kreloc-signed.ko" && die "sign-file did not sign"
# A key the kernel does not trust, made for this run.
openssl req -new -nodes -utf8 -sha256 -days 2 -batch -x509 -subj "/CN=kreloc untrusted test key/" \
	-outform PEM -out "$work/wrongkey.pem" -keyout "$work/wrongkey.pem" 2>/dev/null ||
	die "cannot make a signing key"
"$SIGN_FILE" "$SIGN_HASH" "$work/wrongkey.pem" "$work/wrongkey.pem" "$work/build/kreloc/kreloc.ko" \
	"$stage/kreloc/kreloc-wrongkey.ko"
mkdir -p "$work/build/test_module"
cp "$top/selftests/kreloc/test_module/"*.c "$top/selftests/kreloc/test_module/Kbuild" \
	"$work/build/test_module/"
make -s -C "$KDIR" M="$work/build/test_module" KRELOC_TEST_BUGS=m modules >/dev/null 2>&1 ||
	die "cannot build the test modules"
cp "$work/build/test_module/"*.ko "$stage/kreloc/"
ksft=$("$top/rig/linux-source.sh")/tools/testing/selftests
mkdir -p "$work/build/ksft"
make -s -C "$top/selftests/kreloc" KSFT_DIR="$ksft" OUTPUT="$work/build/ksft" \
	"$work/build/ksft/kreloc_stress" >&2
cp "$work/build/ksft/kreloc_stress" "$stage/kreloc/"
cp "$SYSTEM_MAP" "$stage/kreloc/System.map"
cp "$top/rig/vm-debug-guest.sh" "$stage/kreloc/"
"$top/rig/stage-modules.sh" "$(mod_root "$MODDIR")" "$KVER" "$stage" dummy vfat bridge
ei=0
grep -rq ALLOW_ERROR_INJECTION "$top"/base && ei=1
cat > "$stage/kreloc/params" <<EOT
CYCLES=$cycles
FORCED=10
FAULT_LOADS=$loads
FAULT_CHURN=$fchurn
PROBS="1 4 25 100"
NTH_CAP=$nthcap
NTH_CAP_OUT=$nthout
EI_EXPECTED=$ei
EOT

# boot MODE [APPEND]: run the guest job in MODE, check its KTAP, its console
# and kreloc's dmesg lines.
boot() {
	local m="$1" append="${2:-}" vmrc=0 off t0
	printf '#!/bin/sh\nexec sh ./vm-debug-guest.sh %s\n' "$m" > "$stage/kreloc/job"
	chmod +x "$stage/kreloc/job"
	t0=$(date +%s)
	KRELOC_VM_INIT_TIMEOUT=${KRELOC_VM_INIT_TIMEOUT:-900} KRELOC_VM_TIMEOUT=${KRELOC_VM_TIMEOUT:-1500} "$top/rig/run-vm.sh" "$envf" "$stage" \
		"$work/console-$m.log" "$append" "$work/output-$m.log" || vmrc=$?
	log "debug kernel: $m took $(( $(date +%s) - t0 ))s"
	# Known kernel bugs that are not kreloc's (rig/console-known.sh) aside.
	"$top/rig/console-known.sh" "$work/console-$m.log" > "$work/console-$m.checked.log" \
		2> "$work/console-$m.known" || cp "$work/console-$m.log" "$work/console-$m.checked.log"
	sed 's/^/# debug '"$m"': /' "$work/console-$m.known"
	KRELOC_TAG="debug $m" "$top/rig/ktap.sh" "$work/output-$m.log" "$work/console-$m.checked.log" "$results"
	[ $vmrc -eq 0 ] || { echo "not ok - debug $m: VM run failed (see $work/console-$m.log)"; echo "0 1 0" >> "$results"; }
	off=$(tr -d '\r' < "$work/output-$m.log" | sed -n 's/^KRELOC-OFFSET //p' | head -1)
	if report=$("$top/rig/dmesg-addr-check.sh" "$work/console-$m.log" ${off:+"$off"}); then
		echo "ok - debug $m: no kreloc line in the console holds an address or the offset ($off)"
		echo "1 0 0" >> "$results"
	else
		echo "not ok - debug $m: kreloc lines with an address or the offset ($off):"
		printf '%s\n' "$report" | sed 's/^/#   /'
		echo "0 1 0" >> "$results"
	fi
	tr -d '\r' < "$work/output-$m.log" | sed -n 's/^KRELOC-COUNT /# count: /p' >&2 || true
}
# controls: the console must show each kind of report, in the block the
# guest framed for it, and the dmesg check must find the control line.
controls() {
	local m=controls vmrc=0 off t0 b pat seg report
	printf '#!/bin/sh\nexec sh ./vm-debug-guest.sh %s\n' "$m" > "$stage/kreloc/job"
	chmod +x "$stage/kreloc/job"
	t0=$(date +%s)
	KRELOC_VM_INIT_TIMEOUT=${KRELOC_VM_INIT_TIMEOUT:-900} KRELOC_VM_TIMEOUT=${KRELOC_VM_TIMEOUT:-1500} "$top/rig/run-vm.sh" "$envf" "$stage" \
		"$work/console-$m.log" "" "$work/output-$m.log" || vmrc=$?
	log "debug kernel: $m took $(( $(date +%s) - t0 ))s"
	# The console is full of reports on purpose: the guest's tests only.
	: > "$work/empty.log"
	KRELOC_TAG="debug $m" "$top/rig/ktap.sh" "$work/output-$m.log" "$work/empty.log" "$results"
	[ $vmrc -eq 0 ] || { echo "not ok - debug $m: VM run failed (see $work/console-$m.log)"; echo "0 1 0" >> "$results"; }
	for b in sleep ubsan list odebug rcu lockdep kasan leak; do
		case $b in
		sleep) pat='BUG: sleeping function called from invalid context' ;;
		ubsan) pat='UBSAN: shift-out-of-bounds' ;;
		list) pat='list_del corruption' ;;
		odebug) pat='ODEBUG: free active' ;;
		rcu) pat='suspicious rcu_dereference' ;;
		lockdep) pat='WARNING: possible circular locking dependency' ;;
		kasan) pat='BUG: KASAN: use-after-free' ;;
		leak) pat='unreferenced object 0x' ;;
		esac
		seg="$work/control-$b.log"
		tr -d '\r' < "$work/output-$m.log" |
			sed -n "/^KRELOC-CONTROL-BEGIN $b\$/,/^KRELOC-CONTROL-END $b\$/p" > "$seg"
		if grep -q "$pat" "$seg" && ! "$top/rig/console-check.sh" "$seg" > /dev/null; then
			echo "ok - debug $m: bug=$b: the kernel reports it and console-check fails on it ($pat)"
			echo "1 0 0" >> "$results"
		else
			echo "not ok - debug $m: bug=$b: no report matching '$pat', or console-check passed it"
			echo "0 1 0" >> "$results"
		fi
	done
	off=$(tr -d '\r' < "$work/output-$m.log" | sed -n 's/^KRELOC-OFFSET //p' | head -1)
	if report=$("$top/rig/dmesg-addr-check.sh" "$work/console-$m.log" ${off:+"$off"}) ||
	   ! printf '%s\n' "$report" | grep -q 'kreloc: control line'; then
		echo "not ok - debug $m: dmesg-addr-check missed the kreloc line with the offset ($off)"
		echo "0 1 0" >> "$results"
	else
		echo "ok - debug $m: dmesg-addr-check finds the kreloc line with the offset ($off)"
		echo "1 0 0" >> "$results"
	fi
}

# secureboot: its own roots and boots; its consoles are checked like the
# others'.
secureboot() {
	local t0 rc=0
	t0=$(date +%s)
	"$top/tests/boot/secureboot.sh" "$envf" "$work/console-secureboot.log" \
		> "$work/output-secureboot.log" 2> "$work/secureboot.err" || rc=$?
	log "debug kernel: secureboot took $(( $(date +%s) - t0 ))s"
	touch "$work/console-secureboot.log"
	KRELOC_TAG="debug secureboot" "$top/rig/ktap.sh" "$work/output-secureboot.log" \
		"$work/console-secureboot.log" "$results"
	[ $rc -eq 0 ] || { echo "not ok - debug secureboot: tests/boot/secureboot.sh stopped with exit $rc ($(tail -1 "$work/secureboot.err"))"; echo "0 1 0" >> "$results"; }
}

want stress && boot stress
want faults && boot faults
want lockdown && boot lockdown lockdown=integrity
want secureboot && [ "$mode" = check ] && secureboot
want controls && controls
rm -f "$envf"
