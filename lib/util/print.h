/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * How the library says what went wrong: every message goes through one printer, which a
 * front end may replace (as libbpf_set_print()), so no library file writes to stderr itself.
 * A message is one whole line, newline included, naming the bad input first.
 */
#ifndef LBRSNAP_PRINT_H
#define LBRSNAP_PRINT_H

#include <stdarg.h>

enum lbrsnap_print_level {
	LBRSNAP_WARN,		/* an error or a warning: always shown */
	LBRSNAP_INFO,		/* a note the user asked for or should see */
	LBRSNAP_DEBUG,		/* -v detail */
};

typedef int (*lbrsnap_print_fn_t)(enum lbrsnap_print_level level, const char *fmt, va_list ap);

/* Installs fn (NULL: the default, which writes warnings and notes to stderr); returns the old. */
lbrsnap_print_fn_t lbrsnap_set_print(lbrsnap_print_fn_t fn);

void lbrsnap_print(enum lbrsnap_print_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define pr_warn(fmt, ...)	lbrsnap_print(LBRSNAP_WARN, fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	lbrsnap_print(LBRSNAP_INFO, fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)	lbrsnap_print(LBRSNAP_DEBUG, fmt, ##__VA_ARGS__)

#endif /* LBRSNAP_PRINT_H */
