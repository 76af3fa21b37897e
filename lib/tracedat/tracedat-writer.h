/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * trace.dat version 6 writer.
 *
 * Version 6 is a fixed sequence (headers, formats, kallsyms, printk, cmdlines, options,
 * per-buffer CPU tables, page-aligned CPU data) that every trace-cmd since 2.x and
 * KernelShark 1.x/2.x read. Version 7 would only add compression and per-buffer clocks and
 * CPU sets, which lbrsnap's mono-clock files do not need; `trace-cmd convert
 * --file-version 7 --compression zstd` compresses a written file without changing its report.
 *
 * The file is written to "<path>.tmp" and renamed by tracedat_writer__close().
 */
#ifndef LBRSNAP_TRACEDAT_WRITER_H
#define LBRSNAP_TRACEDAT_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "tracedat/tracedat-pages.h"

/* trace.dat option ids (the same numbers in versions 6 and 7) */
enum tracedat_option_id {
	TRACEDAT_OPT_DONE = 0,
	TRACEDAT_OPT_DATE = 1,
	TRACEDAT_OPT_CPUSTAT = 2,
	TRACEDAT_OPT_BUFFER = 3,
	TRACEDAT_OPT_TRACECLOCK = 4,
	TRACEDAT_OPT_UNAME = 5,
	TRACEDAT_OPT_HOOK = 6,
	TRACEDAT_OPT_OFFSET = 7,
	TRACEDAT_OPT_CPUCOUNT = 8,
	TRACEDAT_OPT_VERSION = 9,
	TRACEDAT_OPT_PROCMAPS = 10,
	TRACEDAT_OPT_TRACEID = 11,
	TRACEDAT_OPT_TIME_SHIFT = 12,
	TRACEDAT_OPT_GUEST = 13,
	TRACEDAT_OPT_TSC2NSEC = 14,
	TRACEDAT_OPT_HEADER_INFO = 16,
	TRACEDAT_OPT_FTRACE_EVENTS = 17,
	TRACEDAT_OPT_EVENT_FORMATS = 18,
	TRACEDAT_OPT_KALLSYMS = 19,
	TRACEDAT_OPT_PRINTK = 20,
	TRACEDAT_OPT_CMDLINES = 21,
	TRACEDAT_OPT_BUFFER_TEXT = 22,
};

struct tracedat_blob {
	char *data;
	size_t len;
	bool borrowed;		/* data is the caller's, alive while the blob is: not freed */
};

struct tracedat_system {
	char *name;
	int nr;
	struct tracedat_blob *formats;
};

struct tracedat_option {
	__u16 id;
	__u32 size;
	void *data;
};

struct tracedat_buffer {
	char *name;		/* "" for the top buffer */
	char *clock;		/* e.g. "mono" */
};

/* Everything in a trace.dat but the CPU data; all pointers owned (freed by __free). */
struct tracedat_meta {
	unsigned int page_size;
	unsigned int nr_cpus;
	struct tracedat_blob header_page;
	struct tracedat_blob header_event;
	int nr_ftrace;
	struct tracedat_blob *ftrace;
	int nr_systems;
	struct tracedat_system *systems;
	struct tracedat_blob kallsyms;
	struct tracedat_blob printk;
	struct tracedat_blob cmdlines;
	/* options besides BUFFER and DONE, written in this order */
	int nr_options;
	struct tracedat_option *options;
	/* buffers[0] is the top buffer; the others are instances */
	int nr_buffers;
	struct tracedat_buffer *buffers;
};

void tracedat_meta__free(struct tracedat_meta *m);
int tracedat_meta__add_option(struct tracedat_meta *m, __u16 id, const void *data, __u32 size);
/* Adds a string option (NUL included) */
int tracedat_meta__add_str_option(struct tracedat_meta *m, __u16 id, const char *s);
int tracedat_meta__add_buffer(struct tracedat_meta *m, const char *name, const char *clock);
/* Adds (or extends) an event system with nr format texts. */
int tracedat_meta__add_system(struct tracedat_meta *m, const char *name, int nr,
			      const char *const *formats);
struct tracedat_system *tracedat_meta__find_system(struct tracedat_meta *m, const char *name);
int tracedat_blob__set(struct tracedat_blob *b, const void *data, size_t len);
int tracedat_blob__append(struct tracedat_blob *b, const void *data, size_t len);
/* The blob is data itself, not a copy (set and append copy it first). */
void tracedat_blob__borrow(struct tracedat_blob *b, const void *data, size_t len);

struct tracedat_writer;

/* Writes the metadata of m (which must stay valid until close). */
int tracedat_writer__create(const char *path, const struct tracedat_meta *m,
			    struct tracedat_writer **out);
/*
 * Starts CPU data of a buffer (index into m->buffers; buffers in increasing order, each
 * CPU at most once, in increasing order). The returned encoder stays owned by the writer
 * and is valid until tracedat_writer__end_cpu().
 */
int tracedat_writer__begin_cpu(struct tracedat_writer *w, int buffer, unsigned int cpu,
			       struct tracedat_pages **pages);
int tracedat_writer__end_cpu(struct tracedat_writer *w);
/*
 * begin_cpu() of a top-buffer CPU whose first size bytes are someone else's to write, at
 * *offset (through tracedat_writer__fd(), on another thread too): the pages go after them,
 * and the CPU's data are both.
 */
int tracedat_writer__begin_cpu_after(struct tracedat_writer *w, unsigned int cpu, __u64 size,
				     __u64 *offset, struct tracedat_pages **pages);
/*
 * Room for a top-buffer CPU's data of a known size, before the top buffer's first
 * begin_cpu(): someone else writes them at *offset (through tracedat_writer__fd(), on another
 * thread too) while the writer goes on after them; that CPU is not begun. The CPU table says
 * where each CPU lies, so their data need not be in CPU order.
 */
int tracedat_writer__reserve_cpu(struct tracedat_writer *w, unsigned int cpu, __u64 size,
				 __u64 *offset);
/*
 * The descriptor the output is written through, for writes at offsets of one's own
 * (pwrite(2), copy_file_range(2)); *behind: whether to start writeback as one writes, as
 * out_file__write_behind() does (the file is fsynced at close)
 */
int tracedat_writer__fd(const struct tracedat_writer *w, bool *behind);
/* Completes the file and renames it into place. Frees w in every case. */
int tracedat_writer__close(struct tracedat_writer *w);
/* Removes the temporary file. */
void tracedat_writer__abort(struct tracedat_writer *w);

#endif /* LBRSNAP_TRACEDAT_WRITER_H */
