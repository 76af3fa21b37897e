/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Names from traced tasks (a comm is whatever its task set with prctl(PR_SET_NAME)) as they
 * go into line-oriented formats: trace.dat's saved command lines ("PID COMM\n" per task), perf
 * COMM records that perf script prints as they are. Anything but printable ASCII, and the
 * backslash, becomes \xNN, as in lbrsnap report's text: "x\n4213 pwned" cannot start a line.
 */
#ifndef LBRSNAP_TEXT_ESCAPE_H
#define LBRSNAP_TEXT_ESCAPE_H

#include <stddef.h>

/* Room for the escape of len bytes, NUL included */
#define TEXT_ESCAPE_LEN(len)	((len) * 4 + 1)

/* Escapes s (up to len bytes or its NUL) into out; returns the length written. */
size_t text_escape(char *out, size_t out_len, const char *s, size_t len);

#endif /* LBRSNAP_TEXT_ESCAPE_H */
