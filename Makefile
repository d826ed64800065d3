# SPDX-License-Identifier: GPL-2.0
#
# kreloc - out-of-tree module and tools.
#
#   make [KDIR=...] [ARCH=... CROSS_COMPILE=...] [SYSTEM_MAP=...] [VMLINUZ=...]
#        [LINKED_SOURCE=auto|system.map|vmlinux|arch]
#   make demo      boot a Debian kernel in QEMU and show kreloc's view of it
#   make check     host unit tests, then the selftests in QEMU on real kernels
#   make bench     benchmarks (not part of check)
#   make soak      the debug kernel's long run: 1,000 churn cycles, more faults
#   make lint      checkpatch --strict and sparse on the module sources
#   make tools     the kreloc command-line tool (tools/cli)
#   make deb       Debian packages kreloc-dkms, kreloc, libkreloc0 and
#                  libkreloc-dev in DEBDIR (deb/),
#                  with dpkg-buildpackage (build-depends: debian/control)
#   make fuzz      libFuzzer runs of the CLI's parsers (bounded)

ifneq ($(KERNELRELEASE),)
# Called from kbuild.
include $(src)/Kbuild
else

KDIR ?= /lib/modules/$(shell uname -r)/build
HOSTCC ?= gcc
HOSTCFLAGS ?= -O2
PREFIX ?= /usr/local
DEBDIR ?= deb
KRELOC_CFLAGS := -std=c11 -Wall -Wextra -Werror $(HOSTCFLAGS)

# The release of the kernel in KDIR (Debian's kernel.release is not it).
KRELEASE := $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' \
		$(KDIR)/include/generated/utsrelease.h 2>/dev/null)
# The kernel image and System.map where the distribution puts them: /boot
# (Debian up to 6.x and most others) or /usr/lib/modules/KRELEASE (Debian's
# 7.x packages).  The first that exists wins.
kreloc-first = $(firstword $(wildcard $(1)) $(1))
SYSTEM_MAP ?= $(call kreloc-first,/boot/System.map-$(KRELEASE) \
		/usr/lib/modules/$(KRELEASE)/System.map)
VMLINUZ ?= $(call kreloc-first,/boot/vmlinuz-$(KRELEASE) \
		/usr/lib/modules/$(KRELEASE)/vmlinuz)
LINKED_SOURCE ?= auto

LINKGEN_SRCS := tools/kreloc-linkgen.c tools/linkgen.c tools/sysmap.c \
		tools/kelf.c lib/kreloc_calc.c lib/kreloc_note.c

.PHONY: all modules clean install uninstall install-dkms uninstall-dkms deb demo check unit bench soak lint tools fuzz FORCE

all: modules

tools/kreloc-linkgen: $(LINKGEN_SRCS) $(wildcard tools/*.h) lib/kreloc_calc.h lib/kreloc_note.h
	$(HOSTCC) $(KRELOC_CFLAGS) -o $@ $(LINKGEN_SRCS)

kreloc_linked_gen.h: tools/kreloc-linkgen FORCE
	@test -n "$(KRELEASE)" || { echo "kreloc: no kernel headers in KDIR=$(KDIR)" >&2; exit 1; }
	@tools/kreloc-gen-linked.sh tools/kreloc-linkgen $@ "$(KRELEASE)" \
		"$(LINKED_SOURCE)" "$(SYSTEM_MAP)" "$(VMLINUZ)"

modules: kreloc_linked_gen.h
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# install, uninstall, install-dkms, install-initramfs-tools, install-dracut...
include mk/install.mk

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	rm -f kreloc_linked_gen.h kreloc_linked_gen.h.tmp tools/kreloc-linkgen
	rm -rf tests/unit/build
	-$(MAKE) -C tools/cli clean

unit:
	@$(MAKE) -s -C tests/unit

demo:
	@rig/demo.sh

check:
	@tests/run-all.sh

bench:
	@rig/bench.sh

soak:
	@tests/soak.sh

lint:
	@rig/lint.sh

tools:
	$(MAKE) -C tools/cli

deb:
	@mk/deb.sh $(DEBDIR) $(KRELOC_DEB_VERSION)

fuzz:
	$(MAKE) -C tools/cli fuzz-run

FORCE:

endif
