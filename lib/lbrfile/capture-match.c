// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Does a capture belong with a recording: the kernel release, then the time ranges. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "lbrfile/capture-match.h"

void capture_match__uname_release(const char *uname, size_t len, char *buf, size_t buf_len)
{
	const char *p = uname, *end = uname ? uname + strnlen(uname, len) : NULL;
	size_t n = 0;
	int word;

	*buf = 0;
	/* the third word: trace-cmd writes sysname, nodename, release and machine */
	for (word = 0; p && p < end; word++) {
		while (p < end && *p == ' ')
			p++;
		n = strcspn(p, " ");
		if (p + n > end)
			n = end - p;
		if (word == 2)
			break;
		p += n;
	}
	if (word == 2 && n)
		snprintf(buf, buf_len, "%.*s", (int)n, p);
}

int capture_match__check(const struct capture_origin *cap, const struct capture_origin *rec,
			 char *why, size_t len)
{
	if (cap->release && rec->release && *cap->release && *rec->release &&
	    strcmp(cap->release, rec->release)) {
		snprintf(why, len, "kernel release differs: the capture's is %s, the "
			 "recording's %s (another kernel, another boot)", cap->release,
			 rec->release);
		return -EXDEV;
	}
	if (cap->last_ns && rec->last_ns &&
	    (cap->last_ns + CAPTURE_MATCH_GAP_NS < rec->first_ns ||
	     rec->last_ns + CAPTURE_MATCH_GAP_NS < cap->first_ns)) {
		snprintf(why, len, "time ranges more than 1 s apart: the capture's is %llu.%09llu to "
			 "%llu.%09llu s, the recording's %llu.%09llu to %llu.%09llu s "
			 "(CLOCK_MONOTONIC: not made together, or in another boot)",
			 cap->first_ns / 1000000000ULL, cap->first_ns % 1000000000ULL,
			 cap->last_ns / 1000000000ULL, cap->last_ns % 1000000000ULL,
			 rec->first_ns / 1000000000ULL, rec->first_ns % 1000000000ULL,
			 rec->last_ns / 1000000000ULL, rec->last_ns % 1000000000ULL);
		return -EXDEV;
	}
	return 0;
}
