# SPDX-License-Identifier: GPL-2.0
#
# Install and uninstall rules, included from the top Makefile (outside
# kbuild), where KDIR, KRELEASE, PREFIX and the "modules" target exist.
#
#   make install   [DESTDIR=] [PREFIX=/usr/local] [KDIR=...]
#   make uninstall [DESTDIR=] [PREFIX=/usr/local] [KDIR=...]
#       the module (lib/modules/KRELEASE/extra/kreloc.ko), the kreloc CLI
#       ($(PREFIX)/sbin) with its man pages and bash completion ("make -C
#       tools/cli install"), the snapshot format (SNAPSHOT.md), the
#       initramfs-tools hook and init-top script, the dracut module 90kreloc.
#       Pieces: install-module install-cli install-doc install-initramfs-tools
#       install-dracut, and the same with uninstall-.
#   make install-dkms / uninstall-dkms
#       the module source in /usr/src/kreloc-VERSION for "dkms install".
# Without DESTDIR, depmod runs for KRELEASE.  The initramfs is not rebuilt:
# run update-initramfs -u (or dracut -f) afterwards.

KRELOC_TOP := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))/..
KRELOC_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' $(KRELOC_TOP)/dkms.conf)
INSTALL ?= install
DEPMOD ?= depmod
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/kreloc
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
INSTALL_MOD_DIR ?= extra
MODULE_DEST = $(DESTDIR)/lib/modules/$(KRELEASE)/$(INSTALL_MOD_DIR)
INITRAMFS_TOOLS_DIR ?= /usr/share/initramfs-tools
DRACUT_MODULES_DIR ?= /usr/lib/dracut/modules.d
DKMS_SRC = $(DESTDIR)/usr/src/kreloc-$(KRELOC_VERSION)
KRELOC_CLI := $(KRELOC_TOP)/tools/cli
HAVE_CLI := $(wildcard $(KRELOC_CLI)/Makefile)
# tools/cli's own install, in this Makefile's directories.
KRELOC_CLI_DIRS = DESTDIR=$(DESTDIR) prefix=$(PREFIX) sbindir=$(SBINDIR) \
	mandir=$(MANDIR) bashcompdir=$(BASHCOMPDIR)

.PHONY: install uninstall install-module install-cli install-doc install-initramfs-tools \
	install-dracut uninstall-module uninstall-cli uninstall-doc uninstall-initramfs-tools \
	uninstall-dracut install-dkms uninstall-dkms

install: install-module install-cli install-doc install-initramfs-tools install-dracut
uninstall: uninstall-module uninstall-cli uninstall-doc uninstall-initramfs-tools uninstall-dracut

# A plain copy: Debian's headers carry a kernel.release ("6.1.192") that is
# not the release ("6.1.0-57-amd64"), so kbuild's modules_install would pick
# the wrong directory.
install-module: modules
	@test -n "$(KRELEASE)" || { echo "kreloc: no kernel headers in KDIR=$(KDIR)" >&2; exit 1; }
	$(INSTALL) -d $(MODULE_DEST)
	$(INSTALL) -m 0644 kreloc.ko $(MODULE_DEST)/kreloc.ko
	$(if $(DESTDIR),,$(DEPMOD) -a $(KRELEASE))

uninstall-module:
	@test -n "$(KRELEASE)" || { echo "kreloc: no kernel headers in KDIR=$(KDIR)" >&2; exit 1; }
	rm -f $(MODULE_DEST)/kreloc.ko
	-rmdir $(MODULE_DEST) 2>/dev/null
	$(if $(DESTDIR),,$(DEPMOD) -a $(KRELEASE))

ifneq ($(HAVE_CLI),)
# The tool, kreloc.8 and one kreloc-COMMAND.8 per command, bash completion.
install-cli:
	$(MAKE) -C $(KRELOC_CLI) $(KRELOC_CLI_DIRS) install

uninstall-cli:
	$(MAKE) -C $(KRELOC_CLI) $(KRELOC_CLI_DIRS) uninstall

install-doc:
	$(INSTALL) -d $(DESTDIR)$(DOCDIR)
	$(INSTALL) -m 0644 $(KRELOC_CLI)/SNAPSHOT.md $(DESTDIR)$(DOCDIR)/SNAPSHOT.md
else
install-cli uninstall-cli install-doc:
	@echo "kreloc: no tools/cli in this tree, $@ skipped"
endif

uninstall-doc:
	rm -f $(DESTDIR)$(DOCDIR)/SNAPSHOT.md
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null

install-initramfs-tools:
	$(INSTALL) -d $(DESTDIR)$(INITRAMFS_TOOLS_DIR)/hooks \
		$(DESTDIR)$(INITRAMFS_TOOLS_DIR)/scripts/init-top
	$(INSTALL) -m 0755 $(KRELOC_TOP)/packaging/initramfs-tools/hooks/kreloc \
		$(DESTDIR)$(INITRAMFS_TOOLS_DIR)/hooks/kreloc
	$(INSTALL) -m 0755 $(KRELOC_TOP)/packaging/initramfs-tools/scripts/init-top/00kreloc \
		$(DESTDIR)$(INITRAMFS_TOOLS_DIR)/scripts/init-top/00kreloc

uninstall-initramfs-tools:
	rm -f $(DESTDIR)$(INITRAMFS_TOOLS_DIR)/hooks/kreloc \
		$(DESTDIR)$(INITRAMFS_TOOLS_DIR)/scripts/init-top/00kreloc

install-dracut:
	$(INSTALL) -d $(DESTDIR)$(DRACUT_MODULES_DIR)/90kreloc
	$(INSTALL) -m 0755 $(KRELOC_TOP)/packaging/dracut/90kreloc/module-setup.sh \
		$(KRELOC_TOP)/packaging/dracut/90kreloc/kreloc-load.sh \
		$(DESTDIR)$(DRACUT_MODULES_DIR)/90kreloc/

uninstall-dracut:
	rm -f $(DESTDIR)$(DRACUT_MODULES_DIR)/90kreloc/module-setup.sh \
		$(DESTDIR)$(DRACUT_MODULES_DIR)/90kreloc/kreloc-load.sh
	-rmdir $(DESTDIR)$(DRACUT_MODULES_DIR)/90kreloc 2>/dev/null

# What a DKMS build needs, nothing generated: the module's layers (the
# directories kreloc.h lists; not test/, which only a test build uses) and
# the link-time data generator (a tree the module was built in also has
# kreloc_linked_gen.h and kbuild's kreloc.mod.c).
KRELOC_LAYER_DIRS := $(shell sed -n '/Layers, bottom to top:/,/^ \*$$/s|^ \*   \([a-z_]*\)/ .*|\1|p' \
	$(KRELOC_TOP)/kreloc.h)
KRELOC_DKMS_FILES = Kbuild Makefile dkms.conf mk/install.mk \
	$(filter-out kreloc_linked_gen.h %.mod.c,$(notdir $(wildcard $(KRELOC_TOP)/*.c $(KRELOC_TOP)/*.h))) \
	$(patsubst $(KRELOC_TOP)/%,%,$(wildcard $(foreach d,$(KRELOC_LAYER_DIRS),$(KRELOC_TOP)/$(d)/*.c \
		$(KRELOC_TOP)/$(d)/*.h) $(KRELOC_TOP)/tools/*.c $(KRELOC_TOP)/tools/*.h)) \
	tools/kreloc-gen-linked.sh tools/kreloc-extract-vmlinux

install-dkms:
	@test -n "$(KRELOC_VERSION)" || { echo "kreloc: no PACKAGE_VERSION in dkms.conf" >&2; exit 1; }
	rm -rf $(DKMS_SRC)
	cd $(KRELOC_TOP) && for f in $(KRELOC_DKMS_FILES); do \
		$(INSTALL) -D -m $$(if [ -x $$f ]; then echo 0755; else echo 0644; fi) \
			$$f $(DKMS_SRC)/$$f || exit 1; done
	@echo "kreloc: source in $(DKMS_SRC); now: dkms install kreloc/$(KRELOC_VERSION)"

uninstall-dkms:
	rm -rf $(DKMS_SRC)
