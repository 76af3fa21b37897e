// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
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

/*
 * The file a symbolic link names, which need not exist yet (a dangling link names the file
 * to create, as the shell's ">" would create it).
 */
static char *link_target(const char *path)
{
	char buf[PATH_MAX], *dir, *res = realpath(path, NULL);
	ssize_t n;

	if (res || errno != ENOENT)
		return res;
	n = readlink(path, buf, sizeof(buf) - 1);
	if (n < 0)
		return NULL;
	buf[n] = 0;
	if (buf[0] == '/')
		return strdup(buf);
	dir = strdup(path);
	if (!dir || asprintf(&res, "%s/%s", dirname(dir), buf) < 0)
		res = NULL;
	free(dir);
	return res;
}

int out_file__open(struct out_file *f, const char *path)
{
	struct stat st;
	int err;

	f->fd = -1;
	f->fp = NULL;
	f->tmp = NULL;
	/*
	 * A symbolic link is followed, as open() would: the file it names is written (the
	 * temporary file next to it) and the link stays. A directory is refused now rather
	 * than by the rename after all the work.
	 */
	if (!lstat(path, &st) && S_ISLNK(st.st_mode))
		f->path = link_target(path);
	else
		f->path = strdup(path);
	if (!f->path) {
		err = -errno;
		goto cleanup;
	}
	if (!stat(f->path, &st) && S_ISDIR(st.st_mode)) {
		err = -EISDIR;
		goto cleanup;
	}
	if (asprintf(&f->tmp, "%s.tmp", f->path) < 0) {
		f->tmp = NULL;
		err = -ENOMEM;
		goto cleanup;
	}
	/* a stale temporary file (a killed run) goes; a link planted there is never followed */
	if (unlink(f->tmp) && errno != ENOENT) {
		err = -errno;
		goto cleanup;
	}
	f->fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
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

bool out_file__same(const char *a, const char *b)
{
	struct stat sa, sb;

	return a && b && !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
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
