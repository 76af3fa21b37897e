/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Opening tracefs files, mounting tracefs first when nothing has (fresh machines). */
#ifndef LBRSNAP_TRACEFS_UTIL_H
#define LBRSNAP_TRACEFS_UTIL_H

#include <stdio.h>

/* fopen(name, "r") inside the tracing directory; NULL with errno set on failure. */
FILE *tracefs_util__fopen(const char *name);

#endif
