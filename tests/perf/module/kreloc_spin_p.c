// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_spin_p - the perf test's module loaded before `perf record`
 * starts (kreloc_spin.h): one perf has a map of, from /proc/modules.
 */
#define SPIN_PREFIX kreloc_spin_p_
#include "kreloc_spin.h"
