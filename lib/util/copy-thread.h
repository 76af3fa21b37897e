/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A thread that copies byte ranges of input files to given offsets of one output, in the
 * order they are posted (copy_file_range(2), else read and written where file systems refuse
 * it), while the thread that posts them writes the rest of that output: a merge's recorded
 * pages or records that go out as they are, copied beside the encoding of what the capture
 * puts between and after them. Neither file's offset moves. Writeback of what it copied is
 * started as it goes, as out_file__write_behind() does, when asked to.
 */
#ifndef LBRSNAP_COPY_THREAD_H
#define LBRSNAP_COPY_THREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct copy_thread;

/*
 * The thread started for out_fd (every signal blocked in it); behind: start writeback of
 * each range copied (the output is fsynced at its end). 0 or a negative errno.
 */
int copy_thread__start(int out_fd, bool behind, struct copy_thread **out);
/*
 * len bytes of in_fd from in_off, to go at out_off: in_fd stays open and its bytes unchanged
 * until the thread is finished. 0, -ENOMEM, or the error a copy already met.
 */
int copy_thread__post(struct copy_thread *t, int in_fd, off_t in_off, off_t out_off,
		      size_t len);
/* Waits for every range posted, ends the thread and frees it: 0 or the first error. NULL: 0. */
int copy_thread__finish(struct copy_thread *t);
/* Ends the thread as soon as it can, what it copies unfinished, and frees it. NULL: nothing. */
void copy_thread__cancel(struct copy_thread *t);

#endif /* LBRSNAP_COPY_THREAD_H */
