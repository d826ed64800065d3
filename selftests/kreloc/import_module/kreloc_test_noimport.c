// SPDX-License-Identifier: GPL-2.0
/* kreloc_test_import without KRELOC_IMPORT_NS(): the kernel must refuse it. */
#define KRELOC_TEST_NO_IMPORT
#include "kreloc_test_import.c"
