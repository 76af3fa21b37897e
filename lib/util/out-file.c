// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "out-file.h"

int write_all(int fd, const void *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		buf = (const char *)buf + n;
		len -= n;
	}
	return 0;
}

static void out_file__reset(struct out_file *f)
{
	free(f->path);
	free(f->tmp);
	f->path = f->tmp = NULL;
	f->fd = -1;
	f->fp = NULL;
}

int out_file__open(struct out_file *f, const char *path)
{
	int err;

	f->fd = -1;
	f->fp = NULL;
	f->path = strdup(path);
	if (!f->path || asprintf(&f->tmp, "%s.tmp", path) < 0) {
		f->tmp = NULL;
		err = -ENOMEM;
		goto cleanup;
	}
	f->fd = open(f->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (f->fd < 0) {
		err = -errno;
		goto cleanup;
	}
	return 0;
cleanup:
	out_file__reset(f);
	return err;
}

FILE *out_file__stdio(struct out_file *f)
{
	if (!f->fp)
		f->fp = fdopen(f->fd, "w");
	return f->fp;
}

int out_file__commit(struct out_file *f)
{
	int err = 0;

	if (f->fp && fflush(f->fp))
		err = -errno;
	if (!err && fsync(f->fd))
		err = -errno;
	if (f->fp ? fclose(f->fp) : close(f->fd))
		err = err ?: -errno;
	f->fp = NULL;
	f->fd = -1;
	if (!err && rename(f->tmp, f->path))
		err = -errno;
	if (err) {
		/* the names stay for the caller's message; out_file__abort() frees them */
		unlink(f->tmp);
		return err;
	}
	out_file__reset(f);
	return 0;
}

void out_file__abort(struct out_file *f)
{
	if (f->fp)
		fclose(f->fp);
	else if (f->fd >= 0)
		close(f->fd);
	if (f->tmp)
		unlink(f->tmp);
	out_file__reset(f);
}
