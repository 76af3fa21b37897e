/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Metadata of an existing trace.dat (versions 6 and 7; v7 sections may be zstd or zlib
 * compressed): header pages, formats, kallsyms, printk formats, cmdlines, options, buffers
 * and clocks, as needed to write a new file with the same content. The recorded events
 * themselves are read with libtracecmd.
 *
 * libtracecmd's public API parses these sections but does not hand out their text, so the
 * section walk is done here.
 */
#ifndef LBRSNAP_TRACEDAT_INPUT_H
#define LBRSNAP_TRACEDAT_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include "tracedat/tracedat-writer.h"

struct tracedat_input_info {
	int version;			/* 6 or 7 */
	char compression[32];		/* "none", "zstd", "zlib" */
	long long ts_offset;		/* ns libtracecmd adds to every time stamp (DATE, OFFSET) */
};

/*
 * Fills m (zeroed by the caller, but for a kallsyms of its own, kept) with the file's
 * metadata. Options that shift time stamps (DATE, OFFSET, TSC2NSEC, TIME_SHIFT, GUEST) are
 * left out, because libtracecmd has already applied them to the records that are copied.
 * Buffers: [0] is the top one.
 * Errors: -EINVAL with a message in err (size errlen) naming what is wrong.
 */
int tracedat_input__read_meta(const char *path, struct tracedat_meta *m,
			      struct tracedat_input_info *info, char *err, size_t errlen);

/* Where one CPU's recorded pages are in the file */
struct tracedat_cpu_data {
	char *buffer;			/* its name, "" for the top buffer */
	unsigned int cpu;
	__u64 offset;
	__u64 size;
	bool compressed;		/* v7 chunks, not pages */
};

struct tracedat_cpu_table {
	struct tracedat_cpu_data *v;
	size_t nr, cap;
	bool converted;			/* TSC2NSEC or TIME_SHIFT: libtracecmd converts the times */
	/*
	 * Set by the caller: uncompressed pages are not checked here, the caller checks each
	 * as it reads it (tracedat_check__page()), or all at once (tracedat_input__check_pages())
	 * before libtracecmd reads them; the file is then read once.
	 */
	bool pages_later;
};

/*
 * tracedat_input__read_meta(), and where each CPU's data are (cpus zeroed by the caller,
 * filled on success): a merge copies uncompressed pages without decoding them.
 */
int tracedat_input__read_layout(const char *path, struct tracedat_meta *m,
				struct tracedat_input_info *info, struct tracedat_cpu_table *cpus,
				char *err, size_t errlen);
const struct tracedat_cpu_data *tracedat_cpu_table__find(const struct tracedat_cpu_table *t,
							 const char *buffer, unsigned int cpu);
void tracedat_cpu_table__free(struct tracedat_cpu_table *t);
/* Pages mapped (or read) at a time as recorded pages stream: memory flat in the file's size */
#define TRACEDAT_READ_BYTES	(4U << 20)

/*
 * n bytes of d's uncompressed pages from off in fd, for a walk that streams them: mapped
 * where the data lie 8-byte aligned (checked in place, copied once, by the copy itself), else
 * read into rbuf (n bytes at least). sparse: the file has holes and is read, never mapped (a
 * read fault in a tmpfs hole allocates it). *map, *map_len: the mapping to undo once done
 * (MAP_FAILED: none). NULL and errno on error.
 */
unsigned char *tracedat_cpu_data__get(const struct tracedat_cpu_data *d, int fd, bool sparse,
				      __u64 off, size_t n, unsigned char *rbuf, void **map,
				      size_t *map_len);
/*
 * The uncompressed pages a read_layout() with pages_later left unchecked, as it would have
 * checked them: -EINVAL with the same message in err.
 */
int tracedat_input__check_pages(const char *path, const struct tracedat_cpu_table *t,
				unsigned int page_size, char *err, size_t errlen);

#endif /* LBRSNAP_TRACEDAT_INPUT_H */
