// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * resolve.c - libkreloc's example: resolve the runtime addresses on
 * standard input (hex, one per line) with a snapshot of the boot they come
 * from, as `kreloc resolve` prints them.
 *
 *   cc resolve.c $(pkg-config --cflags --libs libkreloc)
 *   ./a.out SNAPSHOT VMLINUX|SYSTEM.MAP|KALLSYMS|- [MODULES_DIR] < addresses
 *
 * The map's kind is told by its name (vmlinux, kallsyms, else a
 * System.map); "-" asks debuginfod (DEBUGINFOD_URLS) for the vmlinux of the snapshot's
 * build id; with MODULES_DIR (or debuginfod) modules get their symbols.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <kreloc/kreloc.h>

int main(int argc, char **argv)
{
	const char *map = argc > 2 ? argv[2] : "-";
	KRELOC_OPTS(kreloc_resolver_opts, o,
		    .map_kind = !strcmp(map, "-") ? KRELOC_MAP_NONE :
				strstr(map, "vmlinux") ? KRELOC_MAP_VMLINUX :
				strstr(map, "kallsyms") ? KRELOC_MAP_KALLSYMS : KRELOC_MAP_SYSTEM_MAP,
		    .map_path = strcmp(map, "-") ? map : NULL,
		    .modules_dir = argc > 3 ? argv[3] : NULL,
		    .debuginfod = !strcmp(map, "-"));
	struct kreloc_snapshot *s = NULL;
	struct kreloc_resolver *r = NULL;
	struct kreloc_addr_info a;
	char why[256];
	uint64_t addr;

	if (argc < 2 || kreloc_snapshot_load(argv[1], &s) || kreloc_resolver_new(s, &o, &r)) {
		fprintf(stderr, "%s\n", argc < 2 ? "usage: resolve SNAPSHOT [MAP|-] [MODULES_DIR]" :
			kreloc_errmsg());
		kreloc_snapshot_free(s);
		return 1;
	}
	while (scanf("%" SCNx64, &addr) == 1) {
		if (!kreloc_resolve(r, addr, 0, &a, sizeof(a))) {
			printf("0x%" PRIx64 " ? (%s)\n", addr,
			       kreloc_resolve_why(r, addr, 0, why, sizeof(why)));
			continue;
		}
		printf("0x%" PRIx64 " %.*s+0x%" PRIx64, addr, (int)(a.symbol ? a.symbol_len :
		       strlen(a.section)), a.symbol ? a.symbol : a.section, a.offset);
		if (a.module_name)
			printf(strcmp(a.module_state, "gone") ? " [%s]" : " [%s@%" PRIu64 "]",
			       a.module_name, a.load_gen.value);
		printf(" %s\n", a.section);
	}
	kreloc_resolver_free(r);
	kreloc_snapshot_free(s);
	return 0;
}
