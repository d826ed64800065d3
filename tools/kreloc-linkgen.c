// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc-linkgen - write kreloc_linked_gen.h, the link-time anchor table
 * the kreloc module is built with.
 *
 *   kreloc-linkgen --probe-map FILE
 *       exit 0 if FILE is a real System.map, 1 if not (Debian placeholder).
 *   kreloc-linkgen --source system.map|vmlinux|arch [--input FILE]
 *                  [--name ORIGINAL] --release REL -o OUT
 */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "linkgen.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: kreloc-linkgen --probe-map FILE\n"
		"       kreloc-linkgen --source system.map|vmlinux|arch [--input FILE]\n"
		"                      [--name ORIGINAL] --release REL -o OUT\n");
}

static int write_header(const struct linkgen *lg, const char *output,
			const char *name, const char *release)
{
	FILE *out = fopen(output, "w");

	if (!out) {
		perror(output);
		return 1;
	}
	if (linkgen_write(lg, out, name, release)) {
		fprintf(stderr, "kreloc-linkgen: cannot write %s\n", output);
		fclose(out);
		return 1;
	}
	if (fclose(out)) {
		perror(output);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "probe-map", required_argument, NULL, 'p' },
		{ "source", required_argument, NULL, 's' },
		{ "input", required_argument, NULL, 'i' },
		{ "name", required_argument, NULL, 'n' },
		{ "release", required_argument, NULL, 'r' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *probe = NULL, *source = NULL, *input = NULL, *name = NULL;
	const char *release = NULL, *output = NULL;
	struct linkgen *lg;
	int c, ret;

	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p': probe = optarg; break;
		case 's': source = optarg; break;
		case 'i': input = optarg; break;
		case 'n': name = optarg; break;
		case 'r': release = optarg; break;
		case 'o': output = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (probe) {
		struct sysmap map;

		if (sysmap_load(&map, probe)) {
			fprintf(stderr, "kreloc-linkgen: %s\n", map.err);
			return 1;
		}
		ret = map.placeholder || map.nr < 100 ||
		      (!sysmap_find(&map, "_text") && !sysmap_find(&map, "_stext"));
		if (ret)
			fprintf(stderr, "kreloc-linkgen: %s is not a real System.map%s\n",
				probe, map.placeholder ? " (Debian placeholder)" : "");
		sysmap_free(&map);
		return ret;
	}
	if (!source || !release || !output || optind != argc) {
		usage(stderr);
		return 2;
	}
	lg = calloc(1, sizeof(*lg));
	if (!lg)
		return 1;
	if (!strcmp(source, "arch")) {
		lg->source = "arch";
		lg->anchors[0].name = "_text";
		lg->anchors[0].group = KRELOC_TEXT;
		lg->nr = 1;
		ret = write_header(lg, output, "", release);
	} else if (!input) {
		fprintf(stderr, "kreloc-linkgen: --source %s needs --input\n", source);
		ret = 2;
	} else if (!strcmp(source, "system.map")) {
		struct sysmap map;

		ret = 1;
		if (sysmap_load(&map, input)) {
			fprintf(stderr, "kreloc-linkgen: %s\n", map.err);
		} else {
			if (linkgen_from_sysmap(lg, &map))
				fprintf(stderr, "kreloc-linkgen: %s: %s\n", input, lg->err);
			else
				ret = write_header(lg, output, name ? name : input, release);
			sysmap_free(&map);	/* after the write: names point into it */
		}
	} else if (!strcmp(source, "vmlinux")) {
		struct kelf elf;

		ret = 1;
		if (kelf_load(&elf, input)) {
			fprintf(stderr, "kreloc-linkgen: %s: %s\n", input, elf.err);
		} else {
			if (linkgen_from_elf(lg, &elf))
				fprintf(stderr, "kreloc-linkgen: %s: %s\n", input, lg->err);
			else
				ret = write_header(lg, output, name ? name : input, release);
			kelf_free(&elf);
		}
	} else {
		fprintf(stderr, "kreloc-linkgen: unknown source '%s'\n", source);
		ret = 2;
	}
	free(lg);
	return ret;
}
