/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The test helpers' gate: block opening a FIFO for reading until a test opens it for
 * writing, so that a tracer can attach to the helper's pid before its counted work starts.
 */
#ifndef LBRSNAP_TEST_GATE_H
#define LBRSNAP_TEST_GATE_H

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

/* Returns 0 once the gate opened (or with no gate), 1 after saying why it could not. */
static inline int gate__wait(const char *path)
{
	int fd;

	if (!path)
		return 0;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	close(fd);
	return 0;
}

#endif /* LBRSNAP_TEST_GATE_H */
