/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kreloc.h - the map of the kreloc module: its layers, bottom to top, one
 * directory each, each with one header that is its interface.  A file
 * calls and includes only its own layer and the layers below it; files of
 * one layer call each other without a circle.  Nothing calls up: the
 * state tells the presentation of module events through a listener it is
 * given.  rig/check-layers.pl (make check) reads the list below and fails
 * on an upward call or include, or a circle.
 *
 * Layers, bottom to top:
 *   lib/           pure logic, shared with the tools and the host tests
 *   base/          allocations (fault-injection points), errno names
 *   compat/        kernel version differences, detected from the headers
 *   arch/          the architecture: a function's ABI, kprobe placement,
 *                  how the kernel image moves
 *   symbols/       kernel functions and symbols found by name: the kprobe
 *                  bootstrap, static calls, the kallsyms iterators
 *   state/         the core kernel's relocation, the module records
 *   policy/        symbol lookup with the semantics kprobes need
 *   presentation/  the debugfs files, which it owns
 *   kreloc_main.c  init, exit and the setup work
 *
 * Beside them, test/ holds the test hooks and make bench's entry points,
 * compiled only into a test build (make KRELOC_TEST_HOOKS=1); the points
 * where they hook in are empty inlines of base/hooks.h in any other build.
 */
#ifndef _KRELOC_H
#define _KRELOC_H

#include "base/base.h"
#include "compat/compat.h"
#include "arch/arch.h"
#include "symbols/symbols.h"
#include "state/state.h"
#include "policy/policy.h"
#include "presentation/presentation.h"

#endif /* _KRELOC_H */
