/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * lbrsnap.data: the capture file written by `lbrsnap record` and read by every writer
 * (report, perf.data, trace.dat).
 *
 * Layout (little endian, every section 8-byte aligned):
 *
 *   struct lbrfile_header	magic "LBRSNAP1", version, header size
 *   sections, each struct lbrfile_section { u32 type; u32 reserved; u64 size; } + payload
 *     META	  "key=value\n" text: clock, hostname, release, cmdline, nr_cpus, lbr status,
 *		  branch filter, mono/realtime pair for time of day, stack mode
 *     ATTACH	  struct lbrfile_attach [+ struct lbrfile_attach_args, version 3] +
 *		  "spec\0target\0rettype\0" [+ "name\0type\0enums\0" per argument, version 3
 *		  (enums: an enum's "NAME=VALUE,..." or "")]; one per
 *		  attach point, id order (files of version 1 have no rettype)
 *     RECORD	  one struct lbrsnap_event (capture.h) with its branches, stack and the blocks
 *		  its flags announce (arguments, user stack, extra values, call trace),
 *		  verbatim; a call trace's function names are META "calls.AP" (id order)
 *     LOSS	  struct lbrfile_loss: per attach point and cause
 *     KALLSYMS	  /proc/kallsyms text taken at the end of the capture (BPF symbols included)
 *     COUNTS	  struct lbrfile_counts: the capture's final counts (version 2)
 *     LBR_GAP	  struct lbrfile_lbr_gap: an interval in which LBR was not fully active on
 *		  a CPU; files without any had LBR on throughout (or no LBR events at all)
 *     SYSCALL	  struct lbrfile_syscall + "name\0" + "type\0name\0" per argument: the
 *		  syscalls of the capturing kernel, when an attach point is sys_enter or
 *		  sys_exit (version 3)
 *     MAPS	  struct lbrfile_proc + struct lbrfile_map[] + paths: the executable mappings
 *		  of a process with user stacks in the records (--user-stack; lbr-proc.h)
 *     END	  u64 number of RECORD sections; a file without END is incomplete
 *
 * Records come in ring-buffer order, which is not strictly time order across CPUs; use
 * lbrfile__sorted() for time order. Files are written under a temporary name beside the path
 * and renamed by lbrfile_writer__close(), so a file that exists is complete (out-file.h); a
 * character device, FIFO or socket is streamed into as the sections come.
 */
#ifndef LBRSNAP_LBRFILE_H
#define LBRSNAP_LBRFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>
#include "capture.h"
#include "lbrfile/lbr-proc.h"

#define LBRFILE_MAGIC "LBRSNAP1"
#define LBRFILE_VERSION 3
/*
 * The largest CPU number a record may carry (the kernel's CONFIG_NR_CPUS limit): readers
 * size per-CPU tables from it, so a larger one is a damaged record.
 */
#define LBRFILE_MAX_CPUS 8192

enum lbrfile_section_type {
	LBRFILE_SEC_META = 1,
	LBRFILE_SEC_ATTACH = 2,
	LBRFILE_SEC_RECORD = 3,
	LBRFILE_SEC_LOSS = 4,
	LBRFILE_SEC_KALLSYMS = 5,
	LBRFILE_SEC_END = 6,
	LBRFILE_SEC_COUNTS = 7,
	LBRFILE_SEC_LBR_GAP = 8,
	LBRFILE_SEC_SYSCALL = 9,
	LBRFILE_SEC_MAPS = 10,
};

struct lbrfile_header {
	char magic[8];
	__u32 version;
	__u32 header_size;
};

struct lbrfile_section {
	__u32 type;
	__u32 reserved;
	__u64 size;		/* payload bytes, before padding to 8 */
};

struct lbrfile_attach {
	__u32 id;
	__u32 kind;		/* enum lbrsnap_kind */
	__u32 flags;		/* LBRFILE_AP_* */
	__u8 ret_kind;		/* enum lbrsnap_ret_kind (0 in version 1 files) */
	__u8 ret_size;		/* bytes of the return type: 1, 2, 4, 8 */
	__u16 reserved;
	__u64 mem_bytes;	/* snapshot memory owned by this attach point */
	/*
	 * followed by "spec\0target\0rettype\0", e.g.
	 * "fexit:do_filp_open\0do_filp_open\0struct file *\0"; rettype is "" without one
	 */
};

/* How an attach point's arguments are stored (version 3): lbrsnap_args in its records */
struct lbrfile_attach_args {
	__u8 kind[LBRSNAP_MAX_ARGS];	/* enum lbrsnap_ret_kind, LBRSNAP_ARG_STRING */
	__u8 size[LBRSNAP_MAX_ARGS];
	__u8 nr_args;
	__u8 reserved;
	__u16 sys;			/* LBRSNAP_AP_SYS_ENTER, _EXIT: typed by the syscall */
};

struct lbrfile_syscall {
	__u32 nr;
	__u32 nr_args;
};

enum {
	LBRFILE_AP_HAS_RET = 1 << 0,	/* records of this attach point carry a return value */
};

struct lbrfile_loss {
	__u32 ap;
	__u32 cause;		/* enum lbrsnap_loss */
	__u64 count;
};

/*
 * What the capture counted, read after the programs were detached and the ring buffer
 * drained: hits == records + filtered + sampled_out + the losses of the LOSS sections
 * (ring buffer, recursion, unread).
 */
struct lbrfile_counts {
	__u64 hits;		/* invocations, the kernel's counted misses included */
	__u64 records;		/* records read from the ring buffer and written here */
	__u64 filtered;
	__u64 sampled_out;
	__u64 emitted;		/* records the programs submitted */
	__u64 in_flight;	/* invocations still running when counted (0) */
	__u64 follow_added;	/* -- cmd: children followed */
	__u64 follow_overflow;	/* children not followed: the follow map was full */
	__u64 follow_forgotten;	/* followed processes that exited */
	__u64 follow_max;	/* processes the follow map holds; 0: nothing followed */
};

/*
 * An interval during which LBR was not fully active on one CPU: the pinned branch-stack event
 * that keeps it on was found in error state (it could not be scheduled) or had run for less
 * time than it was enabled. LBR was off for some or all of [start_ns, end_ns]
 * (CLOCK_MONOTONIC, the clock of the records' time_ns), so records of that CPU taken inside
 * it may hold branches from before it: stale. The capture writes the gaps of one CPU in
 * time order, never overlapping.
 */
struct lbrfile_lbr_gap {
	__u32 cpu;
	__u32 reserved;
	__u64 start_ns;		/* the last check that found LBR on */
	__u64 end_ns;		/* the check that found it on again, or the last check */
	/*
	 * How far the event's enabled and running times advanced over the gap. Running
	 * behind enabled is time the event was off the PMU; time in error state counts in
	 * neither, so the two may be equal when the event was in error state.
	 */
	__u64 enabled_ns;
	__u64 running_ns;
};

/* In-memory views handed out by the reader; valid until lbrfile__close(). */
struct lbr_arg_desc {
	const char *name;	/* "" where the type has no name */
	const char *type;	/* C spelling, "" for a syscall's register */
	const char *enums;	/* an enum's "NAME=VALUE,...", else "" */
	__u8 kind;
	__u8 size;
	/*
	 * What lbr_args__get() works out of name and type, once by the reader rather than for
	 * every record (lbr_arg_desc__prepare()); without prepared, worked out each time
	 */
	bool prepared;
	__u8 shown_kind;	/* the kind the value reads as (a syscall's type, a descriptor) */
	__u8 shown_size;
	char base;		/* lbr_arg__base() of its name and type */
};

struct lbr_syscall {
	__u32 nr;
	__u32 nr_args;
	const char *name;	/* "openat" */
	struct lbr_arg_desc args[LBRSNAP_MAX_ARGS];	/* as tracefs's sys_enter_NAME format */
};

struct lbr_attach_point {
	__u32 id;
	__u32 kind;
	__u32 flags;
	__u8 ret_kind;		/* enum lbrsnap_ret_kind */
	__u8 ret_size;
	__u64 mem_bytes;
	const char *spec;	/* as the user gave it, expanded: "fexit:do_sys_openat2" */
	const char *target;	/* function or tracepoint name */
	const char *ret_type;	/* C type of the return value ("int", "struct file *"), or "" */
	__u32 sys;		/* LBRSNAP_AP_SYS_ENTER, _EXIT: arguments typed by syscall */
	__u32 nr_args;		/* 0 in files before version 3 */
	struct lbr_arg_desc args[LBRSNAP_MAX_ARGS];
	__u32 held;		/* LBR_AP_HELD_*: what its records hold, learnt at open */
};

/* lbr_attach_point.held: at least one record of the attach point has ... */
enum {
	LBR_AP_HELD_BRANCHES = 1 << 0,	/* branches */
	LBR_AP_HELD_STACK = 1 << 1,	/* a kernel stack */
	LBR_AP_HELD_USTACK = 1 << 2,	/* user stack entries */
	LBR_AP_HELD_CALLS = 1 << 3,	/* a call trace */
};

struct lbr_record {
	const struct lbrsnap_event *ev;		/* header */
	const struct lbrsnap_branch *branches;	/* ev->nr_branches entries, [0] most recent */
	const __u64 *stack;			/* ev->nr_stack return addresses, innermost first */
	const struct lbrsnap_args *args;	/* LBRSNAP_EV_HAS_ARGS, else NULL */
	const struct lbrsnap_ustack *ustack;	/* LBRSNAP_EV_HAS_USTACK, else NULL */
	const struct lbrsnap_extra *extra;	/* LBRSNAP_EV_HAS_EXTRA, else NULL */
	const struct lbrsnap_calls *calls;	/* LBRSNAP_EV_HAS_CALLS, else NULL */
};

struct lbrfile;

/*
 * Reading. lbrfile__open() returns -EISDIR for a directory, -ENODEV for another file that is
 * not regular, -EMEDIUMTYPE for a file that is not a capture (no magic), -EBADMSG for a
 * damaged capture, -ENODATA for an incomplete one (cut short, no END: a killed run's
 * temporary file); lbrfile__strerror() says which in words.
 */
int lbrfile__open(const char *path, struct lbrfile **out);
typedef int (*lbrfile_record_fn)(const struct lbr_record *rec, void *ctx);
/*
 * lbrfile__open() that calls fn for every record in file order as it indexes them: one read
 * of the records for both. An error fn returns ends the open and is returned as it is.
 */
int lbrfile__open_each(const char *path, lbrfile_record_fn fn, void *ctx, struct lbrfile **out);
const char *lbrfile__strerror(int err);
void lbrfile__close(struct lbrfile *f);
const char *lbrfile__meta(const struct lbrfile *f, const char *key);	/* NULL if absent */
size_t lbrfile__nr_attach(const struct lbrfile *f);
const struct lbr_attach_point *lbrfile__attach(const struct lbrfile *f, __u32 id);
__u64 lbrfile__loss(const struct lbrfile *f, __u32 ap, enum lbrsnap_loss cause);
/* Invocations of attach point ap that have no record (every cause but a clobbered slot). */
__u64 lbrfile__lost(const struct lbrfile *f, __u32 ap);
__u64 lbrfile__nr_records(const struct lbrfile *f);
const char *lbrfile__kallsyms(const struct lbrfile *f, size_t *len);	/* NULL if absent */
const struct lbrfile_counts *lbrfile__counts(const struct lbrfile *f);	/* NULL if absent */
/* The records' earliest and latest times (both 0 without records). */
void lbrfile__time_range(const struct lbrfile *f, __u64 *first_ns, __u64 *last_ns);
/* The capturing kernel's syscall nr, NULL if the file does not have it. */
const struct lbr_syscall *lbrfile__syscall(const struct lbrfile *f, __s32 nr);
/*
 * LBR gaps, ordered by CPU then start; overlapping gaps of a CPU are read as one. A file
 * without LBR_GAP sections has none.
 */
size_t lbrfile__nr_lbr_gaps(const struct lbrfile *f);
const struct lbrfile_lbr_gap *lbrfile__lbr_gap(const struct lbrfile *f, size_t i);
/* True when time_ns on cpu falls inside a gap (ends included): the branches may be stale. */
bool lbrfile__lbr_stale(const struct lbrfile *f, __u32 cpu, __u64 time_ns);
/* MAPS sections (lbr-proc.h), ordered by pid, each pid's in file order. */
size_t lbrfile__nr_procs(const struct lbrfile *f);
int lbrfile__proc(const struct lbrfile *f, size_t i, struct lbr_proc *p);
/*
 * The map of process pid holding user address addr, looked up in its newest MAPS section
 * first; p is filled with the section it is in. NULL when none has it.
 */
const struct lbrfile_map *lbrfile__user_map(const struct lbrfile *f, __u32 pid, __u64 addr,
					    struct lbr_proc *p);
/* True when pid's only MAPS sections say it was gone before they could be read. */
bool lbrfile__proc_gone(const struct lbrfile *f, __u32 pid);
/* Calls fn for every record in file order (sorted=false) or time order (sorted=true). */
int lbrfile__for_each(struct lbrfile *f, bool sorted, lbrfile_record_fn fn, void *ctx);
/*
 * Gives back the pages of the capture read so far (records stay valid: touched again, they
 * come back from the page cache), so that a pass over a capture keeps a bounded part of it
 * resident however many records it has. lbrfile__for_each() calls it every
 * LBRFILE_RELEASE_EVERY records; a caller holding records to use later calls it as it goes.
 */
void lbrfile__release(struct lbrfile *f);
/*
 * Record i (in time order if sorted, else file order) into rec; -ENOENT past the last. Its
 * first call builds an index of every record (24 bytes each): a pass in order is a cursor.
 */
int lbrfile__record(struct lbrfile *f, bool sorted, size_t i, struct lbr_record *rec);
/*
 * A pass over the records of one CPU (cpu >= 0) or all (-1) in time order, file order among
 * equal times, as lbrfile__for_each(sorted) gives them. It holds only the records read ahead
 * of their turn (about LBRFILE_RELEASE_EVERY, more where the file is far out of order), not
 * an index of the capture, and gives back the pages it read as it goes (lbrfile__release()).
 * lbrfile_cursor__next() gives the next record: 0, -ENOENT after the last, -ENOMEM.
 */
struct lbrfile_cursor;
int lbrfile_cursor__new(struct lbrfile *f, int cpu, struct lbrfile_cursor **out);
int lbrfile_cursor__next(struct lbrfile_cursor *c, struct lbr_record *rec);
void lbrfile_cursor__free(struct lbrfile_cursor *c);
#define LBRFILE_RELEASE_EVERY	4096

/* Writing */
struct lbrfile_writer;
int lbrfile_writer__create(const char *path, struct lbrfile_writer **out);
int lbrfile_writer__meta(struct lbrfile_writer *w, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int lbrfile_writer__attach(struct lbrfile_writer *w, const struct lbr_attach_point *ap);
/*
 * data: one struct lbrsnap_event with its trailing branches, stack and argument block, size
 * bytes in all
 */
int lbrfile_writer__record(struct lbrfile_writer *w, const void *data, size_t size);
/* Bytes of the file so far, the header and every section written (--max-size). */
__u64 lbrfile_writer__bytes(const struct lbrfile_writer *w);
/* The bytes a record section of size bytes adds to the file. */
#define LBRFILE_RECORD_BYTES(size) (sizeof(struct lbrfile_section) + (((size) + 7) & ~7ULL))
int lbrfile_writer__syscall(struct lbrfile_writer *w, const struct lbr_syscall *sc);
int lbrfile_writer__loss(struct lbrfile_writer *w, __u32 ap, enum lbrsnap_loss cause,
			 __u64 count);
/*
 * The KALLSYMS section. The copy is the largest section and comes last: where the disk has
 * no room for it (-ENOSPC, -EDQUOT, -EFBIG with lbrfile_writer__error() still 0) it is cut
 * off again and the writer goes on, so the records are kept without it.
 */
int lbrfile_writer__kallsyms(struct lbrfile_writer *w, const char *text, size_t len);
/* The first write error, which every later call returns: 0 while the file is whole. */
int lbrfile_writer__error(const struct lbrfile_writer *w);
int lbrfile_writer__counts(struct lbrfile_writer *w, const struct lbrfile_counts *counts);
int lbrfile_writer__lbr_gap(struct lbrfile_writer *w, const struct lbrfile_lbr_gap *gap);
/* A MAPS section: proc, its proc->nr_maps maps and their paths (-EINVAL if malformed). */
int lbrfile_writer__proc(struct lbrfile_writer *w, const struct lbrfile_proc *proc,
			 const struct lbrfile_map *maps, const char *paths, size_t paths_len);
/* Writes META once (on the first attach/record/close), END, and renames into place. */
int lbrfile_writer__close(struct lbrfile_writer *w);
/* Removes the temporary file: for error paths. */
void lbrfile_writer__abort(struct lbrfile_writer *w);

/*
 * Whether an ATTACH section's header and argument types (aa: version 3 on, else NULL) are
 * ones readers take: the reader checks every file with it and the writer refuses what it
 * refuses, so a capture is never written that cannot be read back. 0 or -EINVAL.
 */
int lbr_attach__check(__u32 version, const struct lbrfile_attach *a,
		      const struct lbrfile_attach_args *aa);
/* Validates a record's sizes against its header; returns 0 or -EINVAL. */
int lbr_record__parse(const void *data, size_t size, struct lbr_record *rec);
/* The earliest time a record's events show: its first call's entry, else its own time */
static inline __u64 lbr_record__first_ns(const struct lbr_record *rec)
{
	__u64 t = rec->ev->time_ns;

	if (rec->calls && rec->calls->nr && rec->calls->call[0].start_ns < t)
		t = rec->calls->call[0].start_ns;
	return t;
}
/* Bytes of a parsed record: header, branches, stack, argument block, user stack, extras. */
size_t lbr_record__size(const struct lbr_record *rec);
/* Extra value i of a record (capture.h), 0 where the record has none */
__u64 lbr_record__extra(const struct lbr_record *rec, enum lbrsnap_extra_idx i);

#endif /* LBRSNAP_LBRFILE_H */
