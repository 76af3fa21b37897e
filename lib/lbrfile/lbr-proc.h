/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The MAPS section of lbrsnap.data (--user-stack): the executable mappings of one process,
 * read from /proc/PID/maps while it ran, so that its user addresses can be named later and
 * elsewhere (report, perf.data, trace.dat).
 *
 *   struct lbrfile_proc, struct lbrfile_map[nr_maps], then the paths, each NUL-terminated
 *
 * A process can have several MAPS sections (read again at its exit, or after an exec):
 * readers look an address up in the newest first. A process gone before its maps could be
 * read has one section with LBRFILE_PROC_GONE and no maps, so the loss is in the file too.
 */
#ifndef LBRSNAP_LBR_PROC_H
#define LBRSNAP_LBR_PROC_H

#include <stddef.h>
#include <linux/types.h>
#include "capture.h"

#define LBRFILE_BUILD_ID_MAX	20

enum {
	LBRFILE_PROC_GONE = 1 << 0,	/* exited before its maps could be read */
};

struct lbrfile_proc {
	__u32 pid;
	__u32 nr_maps;
	__u32 flags;			/* LBRFILE_PROC_* */
	__u32 reserved;
	__u64 time_ns;			/* CLOCK_MONOTONIC when read */
	char comm[LBRSNAP_COMM_LEN];
};

struct lbrfile_map {
	__u64 start;
	__u64 end;
	__u64 pgoff;			/* file offset of start */
	__u64 ino;
	__u32 dev_major;
	__u32 dev_minor;
	__u32 prot;			/* PROT_READ | PROT_WRITE | PROT_EXEC */
	__u32 path_off;			/* into the paths after the maps */
	__u8 build_id_size;		/* 0: the file has none, or could not be read */
	__u8 reserved[3];
	__u8 build_id[LBRFILE_BUILD_ID_MAX];
};

/* A parsed MAPS section; points into the section's bytes. */
struct lbr_proc {
	__u32 pid;
	__u32 flags;
	__u64 time_ns;
	char comm[LBRSNAP_COMM_LEN + 1];
	__u32 nr_maps;
	const struct lbrfile_map *maps;	/* by start address, not overlapping */
	const char *paths;
	size_t paths_len;
};

/* Validates a MAPS payload and fills p; -EINVAL when it is damaged. */
int lbr_proc__parse(const void *data, size_t size, struct lbr_proc *p);
/* The path of map i ("/usr/bin/ls", "[vdso]"). */
const char *lbr_proc__path(const struct lbr_proc *p, __u32 i);
/* The map holding addr, or NULL. */
const struct lbrfile_map *lbr_proc__find(const struct lbr_proc *p, __u64 addr);

#endif /* LBRSNAP_LBR_PROC_H */
