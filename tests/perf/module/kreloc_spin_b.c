// SPDX-License-Identifier: GPL-2.0
/* kreloc_spin_b - the perf test's second module (kreloc_spin.h). */
#define SPIN_PREFIX kreloc_spin_b_
#include "kreloc_spin.h"
