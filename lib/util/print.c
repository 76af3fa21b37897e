// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdio.h>
#include "util/print.h"

static int print_stderr(enum lbrsnap_print_level level, const char *fmt, va_list ap)
{
	if (level == LBRSNAP_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static lbrsnap_print_fn_t print_fn = print_stderr;

lbrsnap_print_fn_t lbrsnap_set_print(lbrsnap_print_fn_t fn)
{
	lbrsnap_print_fn_t old = print_fn;

	print_fn = fn ? fn : print_stderr;
	return old;
}

void lbrsnap_print(enum lbrsnap_print_level level, const char *fmt, ...)
{
	int saved = errno;	/* a caller may print before it returns -errno */
	va_list ap;

	va_start(ap, fmt);
	print_fn(level, fmt, ap);
	va_end(ap);
	errno = saved;
}
