/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Every output lbrsnap writes (lbrsnap.data, perf.data, trace.dat, kallsyms copies) goes
 * through here. What is at the output path decides how it is written:
 *
 *  - nothing, or a regular file: the output is written under a name of this process's own
 *    beside it ("PATH.tmp.XXXXXX", mkstemp), flushed to disk, closed and renamed over PATH,
 *    so a file under its final name is always complete whatever happens to the process or
 *    the machine. A previous non-empty PATH is kept as "PATH.old", as perf keeps perf.data.old.
 *    Two runs writing one PATH never touch each other's temporary file: the last to finish
 *    wins whole, and says that the file it found there (the other's) is now PATH.old.
 *  - a character device, a FIFO or a socket: written where it is, never renamed over nor
 *    created beside. Append-only writers (out_file__open_stream()) stream into it; writers
 *    that seek back to patch their headers (perf.data, trace.dat) build the file in an
 *    unnamed temporary file (O_TMPFILE in $TMPDIR, else memory) and copy it out at commit.
 *  - a block device or a directory is refused, and no file is ever created in /dev.
 */
#ifndef LBRSNAP_OUT_FILE_H
#define LBRSNAP_OUT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct out_file {
	char *path;		/* final name */
	char *tmp;		/* "PATH.tmp.XXXXXX" written until commit; NULL: not renamed */
	int fd;			/* what the writer writes: tmp, a spool or the output itself */
	FILE *fp;		/* set by out_file__stdio(), owns fd then */
	char *fp_buf;		/* fp's buffer, freed after fp is closed */
	int out_fd;		/* a device, FIFO or socket when fd is a spool, else -1 */
	off_t behind;		/* writeback started below here (-1: the file system refused it) */
	bool found;		/* PATH existed at open, as dev/ino */
	dev_t dev;
	ino_t ino;
};

#define OUT_FILE_INIT { .fd = -1, .out_fd = -1 }

/*
 * Opens PATH for a writer that may seek (PATH a symbolic link: the file it names). Returns 0
 * or a negative errno (-EISDIR: a directory; -EPERM: a block device, or a new file in /dev,
 * said through pr_warn()); f is reset on error. A FIFO's open waits for its reader, as the shell's.
 */
int out_file__open(struct out_file *f, const char *path);
/* The same for a writer that only appends: a device, FIFO or socket gets it as it comes. */
int out_file__open_stream(struct out_file *f, const char *path);
/*
 * A buffered stream on the file, for writers that use stdio; NULL and errno on error. A file
 * renamed at commit gets a 1 MiB buffer (stdio's own is 4 KiB: a write(2) per 4 KiB, each a
 * syscall lbrsnap record's own programs see); a stream keeps stdio's.
 */
FILE *out_file__stdio(struct out_file *f);
/*
 * Flushes, fsyncs, closes and renames into place (a device, FIFO or socket: copies the spool
 * out, closes). On error the temporary file is removed, and f->path still names the output
 * until out_file__abort() releases it.
 */
int out_file__commit(struct out_file *f);
/*
 * Called by writers after each large write: a file fsynced at commit gets writeback of what
 * was written started every OUT_FILE_BEHIND bytes, while the writer goes on, so that commit's
 * fsync() waits for the last few MiB only (inject's 114 MB: 25 ms of fsync became 3 ms).
 * A spool or a stream is left alone: it is copied out, or has no pages.
 */
void out_file__write_behind(struct out_file *f);
/* Whether writes of one's own at offsets start writeback as out_file__write_behind() would */
bool out_file__behind(const struct out_file *f);
/* Closes and removes the temporary file; safe on a reset or committed out_file. */
void out_file__abort(struct out_file *f);
/*
 * Whether a and b name one existing file (links followed): an output that would replace one
 * of its inputs is refused by the front ends with this.
 */
bool out_file__same(const char *a, const char *b);
/*
 * Whether path is a character device, FIFO or socket (links followed): written in place,
 * with no file beside it (the front ends save no "PATH.kallsyms" next to it).
 */
bool out_file__is_stream(const char *path);

/* Copies from from's offset to its end into to; returns 0 or a negative errno. */
int copy_all(int from, int to);

/*
 * copy_file_range(2) of len bytes of in_fd from *in_off to out_fd at *out_off (NULL: at and
 * moving out_fd's offset), until done, the input's end, or file systems that refuse it (then
 * *refused is set; set before, nothing is tried). The bytes copied, or a negative errno.
 */
ssize_t copy_range_kernel(int in_fd, loff_t *in_off, int out_fd, loff_t *out_off, size_t len,
			  bool *refused);
/*
 * len bytes from in_off in in_fd to out_off in out_fd, neither file's offset moved (threads
 * may share the descriptors): copy_file_range(2), or pread/pwrite where *refused is set or
 * the file systems refuse it (then *refused is set). 0, or a negative errno (-EIO: the input
 * ends before).
 */
int copy_range(int in_fd, off_t in_off, int out_fd, off_t out_off, size_t len, bool *refused);

/* Where temporary files go: $TMPDIR when set and not empty, else /tmp. */
const char *tmp_dir(void);

/* Writes all len bytes (retrying short writes and EINTR); returns 0 or a negative errno. */
int write_all(int fd, const void *buf, size_t len);

#endif /* LBRSNAP_OUT_FILE_H */
