/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A thread that writes an output's buffers in the order they are handed over, so that a
 * writer fills its next buffer while the kernel copies the last one into the page cache and
 * starts its writeback (out_file__write_behind()). write(2) is a third of lbrsnap inject's
 * time; on a second CPU it no longer adds to the wall time (100k records: 113 -> 98 ms).
 * trace.dat's pages go mostly by copy_file_range(2), from the file to the file, and there a
 * thread measured no gain: they are written by their encoder. Two buffers go back and forth:
 * the one handed over, and the one returned to fill.
 */
#ifndef LBRSNAP_WRITE_THREAD_H
#define LBRSNAP_WRITE_THREAD_H

#include <stddef.h>

struct out_file;
struct write_thread;

/*
 * Starts the thread for f (every signal blocked in it: the writer's own thread takes them),
 * with a spare buffer of size bytes. 0 or a negative errno; without a thread the caller
 * writes itself.
 */
int write_thread__start(struct out_file *f, size_t size, struct write_thread **out);
/*
 * Hands (*buf)[0..len) over once the buffer handed over before is written, and puts that one
 * (or the spare) in *buf, to fill. Returns 0, or the error of a write that failed (then no
 * more is written).
 */
int write_thread__hand_over(struct write_thread *t, void **buf, size_t len);
/*
 * Waits for the last buffer, ends the thread and frees the buffer it holds: the file's
 * descriptor is the caller's alone again. Returns 0 or the first write's error. NULL: 0.
 */
int write_thread__stop(struct write_thread *t);

#endif /* LBRSNAP_WRITE_THREAD_H */
