#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Test only (tests/boot/run.sh): dracut module 99kreloctest, which dumps
# kreloc's state (and what the packaged kreloc command shows) once udev has
# settled and powers off.
# shellcheck disable=SC2154 # moddir is set by dracut
check() { return 255; }
depends() { return 0; }
install() {
	inst_multiple cat grep mount mkdir sync sleep
	[ ! -x /usr/sbin/kreloc ] || inst_binary /usr/sbin/kreloc
	inst_hook initqueue/settled 99 "$moddir/kreloc-test-dump.sh"
}
