// SPDX-License-Identifier: GPL-2.0
/* The upstream target's second test module (upm.h), loaded where upa was. */
#define UPM_PREFIX upb
#include "upm.h"
MODULE_DESCRIPTION("kreloc upstream target: busy module B");
