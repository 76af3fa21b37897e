// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include "util/print.h"
#include "util/out-file.h"

/* copy_all()'s buffer: 1 MiB a read() keeps the copy of a large file to few system calls */
#define COPY_BUF_SIZE	(1 << 20)
#define OUT_FILE_STDIO_BUF	(1 << 20)

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
	f->fd = f->out_fd = -1;
	f->fp = NULL;
	free(f->fp_buf);
	f->fp_buf = NULL;
	f->behind = 0;
	f->found = false;
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

/*
 * A file created in /dev (a mistyped device name, a device not there yet) would be taken
 * for a device by whatever opens that name next; /dev/shm is an ordinary tmpfs.
 */
static bool in_dev(const char *path)
{
	char *copy = strdup(path), *real = NULL;
	bool res = false;

	if (copy)
		real = realpath(dirname(copy), NULL);
	if (real)
		res = (!strcmp(real, "/dev") || !strncmp(real, "/dev/", 5)) &&
		      strcmp(real, "/dev/shm") && strncmp(real, "/dev/shm/", 9);
	free(real);
	free(copy);
	return res;
}

const char *tmp_dir(void)
{
	const char *dir = getenv("TMPDIR");

	return dir && *dir ? dir : "/tmp";
}

/* An unnamed file for a writer that seeks: nothing is left behind whatever happens. */
static int open_spool(void)
{
	int fd;

	fd = open(tmp_dir(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		fd = memfd_create("lbrsnap-out", MFD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* A character device or FIFO is opened as the shell's ">" would; a socket is connected. */
static int open_special(const char *path, const struct stat *st)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, err;

	if (!S_ISSOCK(st->st_mode)) {
		fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

/*
 * A killed run's "PATH.tmp.XXXXXX" goes; one a live run holds never does. Each run holds
 * an exclusive flock() on its temporary file for as long as it writes it, so a file whose
 * lock can be taken has no writer left. The lock is taken by name and the name checked
 * again under it, and open_tmp() checks that its file still has a name once locked.
 */
static void remove_leftovers(const char *path)
{
	char *copy = strdup(path), *dir = NULL, *dname, *base, *name = NULL;
	struct stat st, fst;
	struct dirent *d;
	size_t len;
	DIR *dp;
	int fd;

	if (!copy || !(dir = strdup(path)))
		goto cleanup;
	base = basename(copy);
	len = strlen(base);
	dname = dirname(dir);
	dp = opendir(dname);
	if (!dp)
		goto cleanup;
	while ((d = readdir(dp))) {
		if (strncmp(d->d_name, base, len) || strncmp(d->d_name + len, ".tmp.", 5) ||
		    strlen(d->d_name + len + 5) != 6)
			continue;
		free(name);
		if (asprintf(&name, "%s/%s", dname, d->d_name) < 0) {
			name = NULL;
			break;
		}
		fd = open(name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!fstat(fd, &fst) && S_ISREG(fst.st_mode) && !flock(fd, LOCK_EX | LOCK_NB) &&
		    !lstat(name, &st) && st.st_dev == fst.st_dev && st.st_ino == fst.st_ino)
			unlink(name);
		close(fd);
	}
	closedir(dp);
cleanup:
	free(name);
	free(copy);
	free(dir);
}

/* "PATH.tmp.XXXXXX": this process's own, so two runs writing one PATH never meet there */
static int open_tmp(struct out_file *f)
{
	struct stat st;
	mode_t mask;
	int err;

	remove_leftovers(f->path);
	if (asprintf(&f->tmp, "%s.tmp.XXXXXX", f->path) < 0) {
		f->tmp = NULL;
		return -ENOMEM;
	}
	for (;;) {
		strcpy(f->tmp + strlen(f->tmp) - 6, "XXXXXX");
		f->fd = mkostemp(f->tmp, O_CLOEXEC);
		if (f->fd < 0) {
			err = -errno;
			free(f->tmp);
			f->tmp = NULL;
			return err;
		}
		if (flock(f->fd, LOCK_EX))
			return -errno;
		/* another run's remove_leftovers() took it before the lock: a new one */
		if (fstat(f->fd, &st))
			return -errno;
		if (st.st_nlink)
			break;
		close(f->fd);
	}
	/* mkstemp's 0600 would hide the output from other users, unlike ">" */
	mask = umask(0);
	umask(mask);
	if (fchmod(f->fd, 0644 & ~mask))
		return -errno;
	return 0;
}

static int out_file__open_as(struct out_file *f, const char *path, bool stream)
{
	struct stat st;
	int err;

	f->fd = f->out_fd = -1;
	f->fp = NULL;
	f->fp_buf = NULL;
	f->tmp = NULL;
	f->behind = 0;
	f->found = false;
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
	if (!stat(f->path, &st)) {
		if (S_ISDIR(st.st_mode)) {
			err = -EISDIR;
			goto cleanup;
		}
		if (S_ISBLK(st.st_mode)) {
			pr_warn("%s: is a block device: an output goes to a file, a "
				"character device, a FIFO or a socket\n", f->path);
			err = -EPERM;
			goto cleanup;
		}
		if (!S_ISREG(st.st_mode)) {
			err = open_special(f->path, &st);
			if (err < 0)
				goto cleanup;
			if (stream) {
				f->fd = err;
				return 0;
			}
			f->out_fd = err;
			err = open_spool();
			if (err < 0)
				goto cleanup;
			f->fd = err;
			return 0;
		}
		f->found = true;
		f->dev = st.st_dev;
		f->ino = st.st_ino;
	} else if (in_dev(f->path)) {
		pr_warn("%s: no file is created in /dev (not an existing device)\n",
			f->path);
		err = -EPERM;
		goto cleanup;
	}
	err = open_tmp(f);
	if (err)
		goto cleanup;
	return 0;
cleanup:
	out_file__abort(f);
	return err;
}

int out_file__open(struct out_file *f, const char *path)
{
	return out_file__open_as(f, path, false);
}

int out_file__open_stream(struct out_file *f, const char *path)
{
	return out_file__open_as(f, path, true);
}

FILE *out_file__stdio(struct out_file *f)
{
	if (f->fp)
		return f->fp;
	f->fp = fdopen(f->fd, "w");
	/* without the buffer stdio's own serves */
	if (f->fp && f->tmp && !f->fp_buf) {
		f->fp_buf = malloc(OUT_FILE_STDIO_BUF);
		if (f->fp_buf)
			setvbuf(f->fp, f->fp_buf, _IOFBF, OUT_FILE_STDIO_BUF);
	}
	return f->fp;
}

/* copy_file_range(2) failing with err: not between these files, copy by hand */
static bool copy_range_refused(int err)
{
	return err == EXDEV || err == EINVAL || err == ENOSYS || err == EOPNOTSUPP;
}

ssize_t copy_range_kernel(int in_fd, loff_t *in_off, int out_fd, loff_t *out_off, size_t len,
			  bool *refused)
{
	size_t done = 0;
	ssize_t n;

	while (done < len && !*refused) {
		n = copy_file_range(in_fd, in_off, out_fd, out_off, len - done, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && copy_range_refused(errno))
			*refused = true;
		else if (n < 0)
			return -errno;
		else if (n == 0)
			break;
		else
			done += n;
	}
	return done;
}

/* copy_range() by hand, through a buffer of COPY_BUF_SIZE at most */
static int copy_range_rw(int in_fd, off_t in_off, int out_fd, off_t out_off, size_t len)
{
	size_t cap = len < COPY_BUF_SIZE ? len : COPY_BUF_SIZE, done;
	char *buf = malloc(cap);
	ssize_t n, w;
	int err = buf ? 0 : -ENOMEM;

	while (!err && len) {
		n = pread(in_fd, buf, len < cap ? len : cap, in_off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n ? -errno : -EIO;
			break;
		}
		for (done = 0; !err && done < (size_t)n; done += w > 0 ? w : 0) {
			w = pwrite(out_fd, buf + done, n - done, out_off + done);
			if (w < 0 && errno != EINTR)
				err = -errno;
			else if (!w)
				err = -EIO;
		}
		in_off += n;
		out_off += n;
		len -= n;
	}
	free(buf);
	return err;
}

int copy_range(int in_fd, off_t in_off, int out_fd, off_t out_off, size_t len, bool *refused)
{
	loff_t in = in_off, out = out_off;
	ssize_t n = copy_range_kernel(in_fd, &in, out_fd, &out, len, refused);

	if (n < 0)
		return n;
	/* not refused: the input ended before */
	if ((size_t)n < len && !*refused)
		return -EIO;
	return (size_t)n < len ? copy_range_rw(in_fd, in, out_fd, out, len - n) : 0;
}

int copy_all(int from, int to)
{
	char *buf = malloc(COPY_BUF_SIZE);
	ssize_t n;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	while (!err) {
		n = read(from, buf, COPY_BUF_SIZE);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : 0;
			break;
		}
		err = write_all(to, buf, n);
	}
	free(buf);
	return err;
}

/* The spool, from its start, into the device, FIFO or socket. */
static int copy_out(int from, int to)
{
	return lseek(from, 0, SEEK_SET) ? -errno : copy_all(from, to);
}

/*
 * The rename into place. A non-empty file there goes to PATH.old first, through a link so
 * that PATH names a whole file at every moment; where links are refused, by a rename.
 */
static int replace(struct out_file *f)
{
	char *old = NULL, *old_tmp = NULL;
	bool found, moved = false;
	struct stat st;
	int err = 0;

	found = !lstat(f->path, &st);
	if (found && S_ISREG(st.st_mode) && st.st_size) {
		if (asprintf(&old, "%s.old", f->path) < 0 ||
		    asprintf(&old_tmp, "%s.old", f->tmp) < 0) {
			old = old_tmp = NULL;
			err = -ENOMEM;
			goto cleanup;
		}
		if (!link(f->path, old_tmp)) {
			if (rename(old_tmp, old)) {
				err = -errno;
				unlink(old_tmp);
				goto cleanup;
			}
		} else if (rename(f->path, old)) {
			err = -errno;
			goto cleanup;
		} else {
			moved = true;
		}
	}
	if (rename(f->tmp, f->path)) {
		err = -errno;
		if (moved)
			rename(old, f->path);
		goto cleanup;
	}
	/* the last run to finish wins; the one it replaces is named, it may not know */
	if (found && (!f->found || st.st_dev != f->dev || st.st_ino != f->ino))
		pr_warn("%s: another process wrote it while this one ran: that file %s%s\n",
			f->path, old ? "is now " : "was replaced", old ?: "");
cleanup:
	free(old);
	free(old_tmp);
	return err;
}

#define OUT_FILE_BEHIND	(8 << 20)

void out_file__write_behind(struct out_file *f)
{
	off_t pos;

	if (!f->tmp || f->behind < 0)
		return;
	pos = lseek(f->fd, 0, SEEK_CUR);
	if (pos < f->behind + OUT_FILE_BEHIND)
		return;
	/* an optimisation only: where it is refused, commit's fsync() does all the work */
	if (sync_file_range(f->fd, f->behind, pos - f->behind, SYNC_FILE_RANGE_WRITE))
		f->behind = -1;
	else
		f->behind = pos;
}

bool out_file__behind(const struct out_file *f)
{
	return f->tmp && f->behind >= 0;
}

int out_file__commit(struct out_file *f)
{
	int err = 0;

	if (f->fp && fflush(f->fp))
		err = -errno;
	/* a device, FIFO or socket has nothing to sync, and may refuse fsync() */
	if (!err && f->tmp && fsync(f->fd))
		err = -errno;
	if (!err && f->out_fd >= 0)
		err = copy_out(f->fd, f->out_fd);
	/* renamed while open: its lock keeps other runs' remove_leftovers() off it until then */
	if (!err && f->tmp)
		err = replace(f);
	/* a file's data is on the disk by fsync(); a device's or a FIFO's close still tells */
	if ((f->fp ? fclose(f->fp) : close(f->fd)) && !f->tmp)
		err = err ?: -errno;
	if (f->out_fd >= 0 && close(f->out_fd))
		err = err ?: -errno;
	f->fp = NULL;
	f->fd = f->out_fd = -1;
	if (err) {
		/* the path stays for the caller's message; out_file__abort() frees it */
		if (f->tmp)
			unlink(f->tmp);
		free(f->tmp);
		f->tmp = NULL;
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

bool out_file__is_stream(const char *path)
{
	struct stat st;

	return path && !stat(path, &st) &&
	       (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

void out_file__abort(struct out_file *f)
{
	if (f->fp)
		fclose(f->fp);
	else if (f->fd >= 0)
		close(f->fd);
	if (f->out_fd >= 0)
		close(f->out_fd);
	if (f->tmp)
		unlink(f->tmp);
	out_file__reset(f);
}
