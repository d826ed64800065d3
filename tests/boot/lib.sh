# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Helpers for the boot tests.  Source after rig/lib.sh.

# in_root ROOT CMD... comes from rig/lib.sh.
