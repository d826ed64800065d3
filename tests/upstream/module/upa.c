// SPDX-License-Identifier: GPL-2.0
/* The upstream target's first test module (upm.h). */
#define UPM_PREFIX upa
#include "upm.h"
MODULE_DESCRIPTION("kreloc upstream target: busy module A");
