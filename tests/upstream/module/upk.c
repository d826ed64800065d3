// SPDX-License-Identifier: GPL-2.0
/* The upstream target's module that stays loaded through a scenario (upm.h). */
#define UPM_PREFIX upk
#include "upm.h"
MODULE_DESCRIPTION("kreloc upstream target: a module that stays");
