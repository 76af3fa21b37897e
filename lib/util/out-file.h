/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Every output lbrsnap writes (lbrsnap.data, perf.data, trace.dat, kallsyms copies) goes
 * through here: it is written under "PATH.tmp", then flushed to disk, closed and renamed
 * over PATH, so a file under its final name is always complete, whatever happens to the
 * process or the machine; on an error the temporary file is removed.
 */
#ifndef LBRSNAP_OUT_FILE_H
#define LBRSNAP_OUT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct out_file {
	char *path;		/* final name */
	char *tmp;		/* "PATH.tmp", written until commit */
	int fd;
	FILE *fp;		/* set by out_file__stdio(), owns fd then */
};

#define OUT_FILE_INIT { .fd = -1 }

/*
 * Creates PATH.tmp for writing (PATH a symbolic link: next to the file it names). Returns 0
 * or a negative errno (-EISDIR: PATH is a directory); f is reset on error.
 */
int out_file__open(struct out_file *f, const char *path);
/* A buffered stream on the file, for writers that use stdio; NULL and errno on error. */
FILE *out_file__stdio(struct out_file *f);
/*
 * Flushes, fsyncs, closes and renames into place. On error the temporary file is removed,
 * and f->path still names the output until out_file__abort() releases it.
 */
int out_file__commit(struct out_file *f);
/* Closes and removes the temporary file; safe on a reset or committed out_file. */
void out_file__abort(struct out_file *f);
/*
 * Whether a and b name one existing file (links followed): an output that would replace one
 * of its inputs is refused by the front ends with this.
 */
bool out_file__same(const char *a, const char *b);

/* Writes all len bytes (retrying short writes and EINTR); returns 0 or a negative errno. */
int write_all(int fd, const void *buf, size_t len);

#endif /* LBRSNAP_OUT_FILE_H */
