// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: kreloc inject's perf.data reader on any bytes (a
 * recording, truncated, of the other byte order, hostile): the header,
 * the attributes and their ids, every event with its attribute and time,
 * and the string features must be read within the file or refused.
 */
#include <stdlib.h>
#include <string.h>
#include "../perfdata.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	const struct perf_event_header *ev;
	unsigned char *copy = malloc(len ? len : 1);
	char err[256], buf[64];
	struct pd_file f;
	uint64_t pos = 0, t, sum = 0;
	size_t n;

	if (!copy)
		return 0;
	memcpy(copy, data, len);
	if (!pd_parse(&f, copy, len, "fuzz", err, sizeof(err))) {
		pd_feature_string(&f, PD_FEAT_ARCH, buf, sizeof(buf));
		pd_feature_string(&f, PD_FEAT_OSRELEASE, buf, sizeof(buf));
		while (pd_next(&f, &pos, &ev, &n, err, sizeof(err)) > 0) {
			if (pd_event_time(&f, ev, n, &t))
				sum += t;
			sum += ((const unsigned char *)ev)[n - 1];
		}
		pd_close(&f);
	}
	free(copy);
	return (int)(sum & 0);
}
