// SPDX-License-Identifier: GPL-2.0
/* kreloc_spin_a - the perf test's first module (kreloc_spin.h). */
#define SPIN_PREFIX kreloc_spin_a_
#include "kreloc_spin.h"
