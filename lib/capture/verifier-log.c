// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The verifier's verdict from the end of its log.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "capture/verifier-log.h"

#define LOG_BEGIN "-- BEGIN PROG LOAD LOG --\n"
#define LOG_END "-- END PROG LOAD LOG --"

int verifier_log__reason(const char *log, char *buf, size_t len)
{
	const char *body = strstr(log, LOG_BEGIN), *end, *p, *start;

	if (len)
		buf[0] = 0;
	body = body ? body + strlen(LOG_BEGIN) : log;
	end = strstr(body, LOG_END);
	if (!end)
		end = body + strlen(body);
	/* the statistics close a log the verifier finished: the verdict is the line before */
	for (p = body; p && p < end; p = memchr(p, '\n', end - p), p = p ? p + 1 : NULL) {
		if (!strncmp(p, "processed ", strlen("processed ")))
			end = p;
	}
	while (end > body && end[-1] == '\n')
		end--;
	if (end == body)
		return -ENOENT;
	start = end;
	while (start > body && start[-1] != '\n')
		start--;
	if (len)
		snprintf(buf, len, "%.*s", (int)(end - start), start);
	return 0;
}
