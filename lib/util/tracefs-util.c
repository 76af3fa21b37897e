// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <tracefs.h>
#include "util/tracefs-util.h"

FILE *tracefs_util__fopen(const char *name)
{
	/* libtracefs finds tracefs and mounts it when it is not mounted yet */
	char *path = tracefs_get_tracing_file(name);
	FILE *fp;

	if (!path) {
		errno = ENOENT;
		return NULL;
	}
	fp = fopen(path, "re");
	tracefs_put_tracing_file(path);
	return fp;
}
