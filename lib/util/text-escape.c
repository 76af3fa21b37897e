// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* \xNN for every byte of a task's name that could end or forge a line. */
#include <stdio.h>
#include "util/text-escape.h"

size_t text_escape(char *out, size_t out_len, const char *s, size_t len)
{
	size_t i, n = 0;

	if (!out_len)
		return 0;
	for (i = 0; i < len && s[i]; i++) {
		unsigned char c = s[i];

		if (c < 0x20 || c >= 0x7f || c == '\\') {
			if (n + 4 >= out_len)
				break;
			snprintf(out + n, 5, "\\x%02x", c);
			n += 4;
		} else {
			if (n + 1 >= out_len)
				break;
			out[n++] = c;
		}
	}
	out[n] = 0;
	return n;
}
