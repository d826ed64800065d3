// SPDX-License-Identifier: GPL-2.0
/*
 * libversion.c: what a program built against <kreloc/kreloc.h> knows of
 * libkreloc's version, at compile time (the header's macros) and at run
 * time (kreloc_version()): "HEADER_STRING MAJOR.MINOR.PATCH CODE RUNNING".
 * test_lib.sh builds it through pkg-config against the installed library
 * and compares each with libkreloc.pc, the file name and libkreloc.map.
 */
#include <stdio.h>
#include <kreloc/kreloc.h>

#if KRELOC_VERSION_CODE < KRELOC_VERSION_NUM(0, 3, 0)
#error "the version macros compare"
#endif

int main(void)
{
	printf("%s %d.%d.%d %d %s\n", KRELOC_VERSION_STRING, KRELOC_VERSION_MAJOR,
	       KRELOC_VERSION_MINOR, KRELOC_VERSION_PATCH, KRELOC_VERSION_CODE, kreloc_version());
	return 0;
}
